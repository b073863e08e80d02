/* cmd_ckpt_text: a checkpoint's text (the port map and running-config),
 * its replay into a policy, and the rollback patch between two texts
 * (see cmd_ckpt.h). It uses the command language (cmd.c) to carry the
 * text out, which the rows in cmd_ckpt.c must not: cmd.c matches them.
 */
#include "cmd/cmd_ckpt.h"
#include "cmd/cmd_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the body ---- */

void cmd_ckpt_text(const struct policy *p, struct strbuf *out)
{
	/* Every interface once, in the policy's order, by its Linux name
	 * with its NX-OS name: running-config names an aliased port by the
	 * alias alone, which only the port map resolves. */
	for (size_t i = 0; i < p->nifaces; i++) {
		const struct policy_iface *f = &p->ifaces[i];

		if (f->bond[0])
			continue; /* a bond's member: the kernel's, not saved */
		strbuf_printf(out, "interface %s\n", f->name);
		if (f->alias[0])
			strbuf_printf(out, "  alias %s\n", f->alias);
	}
	if (p->nifaces)
		strbuf_puts(out, "!\n");
	cmd_running_config(p, NULL, out);
}

const char *cmd_ckpt_config(const char *body)
{
	const char *end;

	/* The port map is the interface lines before the first `!`. */
	if (strncmp(body, "interface ", 10) || !(end = strstr(body, "\n!\n")))
		return body;
	return end + 3;
}

static bool cmd_ckpt_blank(const char *line)
{
	line += strspn(line, " \t");
	return !*line || *line == '#';
}

int cmd_ckpt_replay(const char *text, struct policy *out, struct cmd_error *err)
{
	struct cmd_parsed *p = malloc(sizeof(*p));
	struct cmd_cache *cache = cmd_cache_new();
	struct cmd_ctx c;
	unsigned lineno = 0;
	int rc = 0;

	policy_init(out);
	memset(err, 0, sizeof(*err));
	if (!p || !cache) {
		cmd_fail(err, 0, "%% Out of memory");
		rc = -1;
		goto out;
	}
	cmd_ctx_init(&c);
	c.cache = cache;
	c.mode = CMD_MODE_CONFIG;
	for (const char *s = text; !rc && *s;) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		char line[CMD_LINE_MAX];
		struct cmd_error e;

		lineno++;
		if (n >= sizeof(line)) {
			cmd_fail(err, 0, "line %u: %% Line too long", lineno);
			rc = -1;
			break;
		}
		memcpy(line, s, n);
		line[n] = '\0';
		s += n + (nl != NULL);
		if (cmd_ckpt_blank(line))
			continue;
		if (cmd_parse(&c, line, p, &e) == 0 &&
		    p->kind != CMD_KIND_CONFIG && p->kind != CMD_KIND_MODE) {
			cmd_fail(err, 0, "line %u: %% not a configuration line",
			         lineno);
			rc = -1;
			break;
		}
		if (e.message[0] || cmd_exec(out, &c, p, &e) < 0) {
			/* A note ("% ignored: ...") is no failure. */
			if (!strncmp(e.message, "% ignored", 9))
				continue;
			cmd_fail(err, 0, "line %u: %s", lineno, e.message);
			rc = -1;
		}
		/* `end` in the text: the lines after it are configuration
		 * too. */
		if (c.mode == CMD_MODE_EXEC)
			c.mode = CMD_MODE_CONFIG;
	}
out:
	if (rc) {
		policy_free(out);
		policy_init(out);
	}
	cmd_cache_free(cache);
	free(p);
	return rc;
}

/* ---- the rollback patch ---- */

struct cmd_ckpt_line {
	const char *s; /* the line, indentation included */
	size_t len;
	size_t indent;
	long parent; /* index of the enclosing mode line, -1: top */
};

struct cmd_ckpt_lines {
	struct cmd_ckpt_line *v;
	size_t n;
};

/* Cut TEXT into its lines of configuration (blank lines and `!`
 * comments left out), each with the line it is indented under. */
static int cmd_ckpt_split(const char *text, struct cmd_ckpt_lines *l)
{
	size_t cap = 0;

	l->v = NULL;
	l->n = 0;
	for (const char *s = text; *s;) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		size_t ind = strspn(s, " \t");
		struct cmd_ckpt_line *e;
		long p;

		if (ind < n && s[ind] != '!' && s[ind] != '#') {
			if (l->n == cap) {
				void *v;

				cap = cap ? 2 * cap : 64;
				v = realloc(l->v, cap * sizeof(*l->v));
				if (!v)
					return -1;
				l->v = v;
			}
			e = &l->v[l->n];
			e->s = s;
			e->len = n;
			e->indent = ind;
			/* The nearest line before it indented less. */
			for (p = (long)l->n - 1;
			     p >= 0 && l->v[p].indent >= ind;)
				p = l->v[p].parent;
			e->parent = p;
			l->n++;
		}
		s += n + (nl != NULL);
	}
	return 0;
}

/* Whether line I of A and line J of B are the same line in the same
 * place: equal text (indentation aside) under equal mode lines. */
static bool cmd_ckpt_same(const struct cmd_ckpt_lines *a, long i,
                          const struct cmd_ckpt_lines *b, long j)
{
	for (; i >= 0 && j >= 0; i = a->v[i].parent, j = b->v[j].parent) {
		const struct cmd_ckpt_line *x = &a->v[i], *y = &b->v[j];

		if (x->len - x->indent != y->len - y->indent ||
		    memcmp(x->s + x->indent, y->s + y->indent,
		           x->len - x->indent))
			return false;
	}
	return i < 0 && j < 0;
}

/* The mode lines printed last, by their text (indentation aside), so
 * that each is printed once for the lines under it, whichever side they
 * come from. */
struct cmd_ckpt_stack {
	const char *s[16];
	size_t len[16];
	size_t n;
};

static bool cmd_ckpt_text_eq(const struct cmd_ckpt_line *x, const char *s,
                             size_t len)
{
	return x->len - x->indent == len && !memcmp(x->s + x->indent, s, len);
}

/* Print line I of L with MARK, after those of its mode lines that ST
 * does not hold yet (with ' '). */
static void cmd_ckpt_emit(const struct cmd_ckpt_lines *l, long i, char mark,
                          struct cmd_ckpt_stack *st, struct strbuf *out)
{
	long chain[16];
	size_t n = 0, same = 0;

	chain[n++] = i;
	for (long p = l->v[i].parent; p >= 0 && n < 16; p = l->v[p].parent)
		chain[n++] = p;
	/* chain[n-1] is the outermost */
	while (same + 1 < n && same < st->n &&
	       cmd_ckpt_text_eq(&l->v[chain[n - 1 - same]], st->s[same],
	                        st->len[same]))
		same++;
	for (size_t k = same; k + 1 < n; k++) {
		const struct cmd_ckpt_line *c = &l->v[chain[n - 1 - k]];

		strbuf_printf(out, " %.*s\n", (int)c->len, c->s);
	}
	strbuf_printf(out, "%c%.*s\n", mark, (int)l->v[i].len, l->v[i].s);
	st->n = 0;
	for (size_t k = 0; k < n; k++) {
		const struct cmd_ckpt_line *c = &l->v[chain[n - 1 - k]];

		st->s[st->n] = c->s + c->indent;
		st->len[st->n++] = c->len - c->indent;
	}
}

/* The index of the line of TO that line I of FROM is, or -1. */
static long cmd_ckpt_find(const struct cmd_ckpt_lines *from, long i,
                          const struct cmd_ckpt_lines *to)
{
	for (size_t j = 0; j < to->n; j++)
		if (cmd_ckpt_same(from, i, to, (long)j))
			return (long)j;
	return -1;
}

size_t cmd_ckpt_diff(const char *a, const char *b, struct strbuf *out)
{
	struct cmd_ckpt_lines la = {NULL, 0}, lb = {NULL, 0};
	struct cmd_ckpt_stack st = {.n = 0};
	long *nca = NULL; /* A's removed line -> B's line it goes under */
	bool *added = NULL;
	size_t n = 0;

	if (cmd_ckpt_split(a, &la) < 0 || cmd_ckpt_split(b, &lb) < 0 ||
	    !(nca = calloc(la.n + 1, sizeof(*nca))) ||
	    !(added = calloc(lb.n + 1, sizeof(*added)))) {
		out->oom = true;
		goto out;
	}
	/* Each line of A that B lacks goes under the nearest of its mode
	 * lines that B has (-1: none); -2 marks a line B has. */
	for (size_t i = 0; i < la.n; i++) {
		long p = (long)i, j = -1;

		if (cmd_ckpt_find(&la, (long)i, &lb) >= 0) {
			nca[i] = -2;
			continue;
		}
		while (j < 0 && (p = la.v[p].parent) >= 0)
			j = cmd_ckpt_find(&la, p, &lb);
		nca[i] = j;
	}
	for (size_t j = 0; j < lb.n; j++)
		added[j] = cmd_ckpt_find(&lb, (long)j, &la) < 0;
	/* What goes away from no block B keeps, first; then B in its order,
	 * each line followed by what goes away under it, so that a changed
	 * value's old line comes just before its new one. */
	for (size_t i = 0; i < la.n; i++)
		if (nca[i] == -1) {
			cmd_ckpt_emit(&la, (long)i, '-', &st, out);
			n++;
		}
	for (size_t j = 0; j < lb.n; j++) {
		if (added[j]) {
			cmd_ckpt_emit(&lb, (long)j, '+', &st, out);
			n++;
		}
		for (size_t i = 0; i < la.n; i++)
			if (nca[i] == (long)j) {
				cmd_ckpt_emit(&la, (long)i, '-', &st, out);
				n++;
			}
	}
out:
	free(nca);
	free(added);
	free(la.v);
	free(lb.v);
	return n;
}
