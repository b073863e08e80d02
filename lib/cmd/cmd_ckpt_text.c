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

/* Print line I of L's mode lines not printed yet, then the line with
 * MARK. SHOWN holds the mode lines printed for context. */
static void cmd_ckpt_emit(const struct cmd_ckpt_lines *l, long i, char mark,
                          bool *shown, struct strbuf *out)
{
	long chain[16];
	size_t n = 0;

	for (long p = l->v[i].parent; p >= 0 && n < 16; p = l->v[p].parent)
		chain[n++] = p;
	while (n--)
		if (!shown[chain[n]]) {
			shown[chain[n]] = true;
			strbuf_printf(out, " %.*s\n", (int)l->v[chain[n]].len,
			              l->v[chain[n]].s);
		}
	shown[i] = true;
	strbuf_printf(out, "%c%.*s\n", mark, (int)l->v[i].len, l->v[i].s);
}

/* Lines of FROM that TO lacks, with MARK. Returns how many. */
static size_t cmd_ckpt_side(const struct cmd_ckpt_lines *from,
                            const struct cmd_ckpt_lines *to, char mark,
                            struct strbuf *out)
{
	bool *shown = calloc(from->n ? from->n : 1, sizeof(*shown));
	size_t count = 0;

	if (!shown) {
		out->oom = true;
		return 0;
	}
	for (size_t i = 0; i < from->n; i++) {
		bool found = false;

		for (size_t j = 0; j < to->n && !found; j++)
			found = cmd_ckpt_same(from, (long)i, to, (long)j);
		if (found)
			continue;
		cmd_ckpt_emit(from, (long)i, mark, shown, out);
		count++;
	}
	free(shown);
	return count;
}

size_t cmd_ckpt_diff(const char *a, const char *b, struct strbuf *out)
{
	struct cmd_ckpt_lines la = {NULL, 0}, lb = {NULL, 0};
	size_t n = 0;

	if (cmd_ckpt_split(a, &la) < 0 || cmd_ckpt_split(b, &lb) < 0) {
		out->oom = true;
		free(la.v);
		free(lb.v);
		return 0;
	}
	/* What the rollback takes away, then what it puts in. */
	n += cmd_ckpt_side(&la, &lb, '-', out);
	n += cmd_ckpt_side(&lb, &la, '+', out);
	free(la.v);
	free(lb.v);
	return n;
}
