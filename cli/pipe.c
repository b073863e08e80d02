/* pipe: the output filters of a show command, as on NX-OS:
 *   show ... | include REGEX | exclude REGEX | begin REGEX
 *            | section REGEX | grep [ignore-case] [invert-match] REGEX
 *            | last [N] | count | no-more | json
 * Filters apply left to right to the lines the show prints: include keeps
 * the lines REGEX matches, exclude drops them, begin drops the lines
 * before the first that matches; section keeps each line that matches
 * with the lines indented deeper under it (a running-config's block);
 * grep is include with options; last keeps the last N lines (10 unless
 * given), count replaces the lines by their number. no-more is accepted
 * for the scripts and fingers that type it: rocesh never pages (a
 * terminal's scrollback and `| less` in the shell do it better). json
 * asks roced for the JSON answer (the same as a trailing `json`).
 *
 * REGEX is a POSIX extended regular expression, as NX-OS's filters take
 * them; it may hold blanks, and a '|' of its own (`include pause|mtu`): a
 * new filter starts only at a '|' with a blank before it, outside double
 * quotes. A REGEX in double quotes loses them.
 *
 * The filters are rocesh's own: roced answers the show as always, and
 * what the filters drop is dropped here.
 */
#include "pipe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd_render.h"

enum rocesh_pipe_arg {
	ROCESH_PIPE_ARG_NONE,
	ROCESH_PIPE_ARG_REGEX,
	ROCESH_PIPE_ARG_LINES,
};

/* The filters, in the order `?` lists them: one table for the parser,
 * the listing, TAB and the error that names what is expected. */
static const struct {
	const char *word;
	enum rocesh_pipe_kind kind;
	enum rocesh_pipe_arg arg;
	const char *help;
} rocesh_pipe_words[] = {
    {"begin", ROCESH_PIPE_BEGIN, ROCESH_PIPE_ARG_REGEX,
     "Lines from the first that matches on"},
    {"count", ROCESH_PIPE_COUNT, ROCESH_PIPE_ARG_NONE, "The number of lines"},
    {"exclude", ROCESH_PIPE_EXCLUDE, ROCESH_PIPE_ARG_REGEX,
     "Lines that do not match"},
    {"grep", ROCESH_PIPE_GREP, ROCESH_PIPE_ARG_REGEX,
     "Lines that match, with options"},
    {"include", ROCESH_PIPE_INCLUDE, ROCESH_PIPE_ARG_REGEX, "Lines that match"},
    {"json", ROCESH_PIPE_JSON, ROCESH_PIPE_ARG_NONE, "The answer in JSON"},
    {"last", ROCESH_PIPE_LAST, ROCESH_PIPE_ARG_LINES,
     "The last lines (10 unless given)"},
    {"no-more", ROCESH_PIPE_NO_MORE, ROCESH_PIPE_ARG_NONE,
     "No paging (accepted: rocesh never pages)"},
    {"section", ROCESH_PIPE_SECTION, ROCESH_PIPE_ARG_REGEX,
     "Lines that match and the lines indented under them"},
};
#define ROCESH_PIPE_NWORDS                                                     \
	(sizeof(rocesh_pipe_words) / sizeof(*rocesh_pipe_words))

/* grep's options, before its REGEX, each a whole word. */
static const struct {
	const char *word;
	const char *help;
} rocesh_grep_opts[] = {
    {"ignore-case", "Upper and lower case alike"},
    {"invert-match", "Lines that do not match"},
};
#define ROCESH_GREP_NOPTS (sizeof(rocesh_grep_opts) / sizeof(*rocesh_grep_opts))

#define ROCESH_PIPE_H_REGEX "A regular expression (POSIX extended)"
#define ROCESH_PIPE_H_BAR   "Filter the output further"
#define ROCESH_PIPE_H_LINES "Lines (10 unless given)"

void rocesh_pipes_free(struct rocesh_pipes *pp)
{
	for (size_t i = 0; i < pp->n; i++)
		if (pp->p[i].has_re)
			regfree(&pp->p[i].re);
	pp->n = 0;
}

/* "% MSG 'WORD'" about the byte at POS of the line. */
static int rocesh_pipe_fail(struct cmd_error *err, size_t pos, const char *msg,
                            const char *word, size_t wlen)
{
	if (word)
		snprintf(err->message, sizeof(err->message), "%% %s '%.*s'",
		         msg, (int)(wlen > 64 ? 64 : wlen), word);
	else
		snprintf(err->message, sizeof(err->message), "%% %s", msg);
	err->pos = pos;
	return -1;
}

/* The filter WORD (LEN bytes) names: exact, or a unique prefix; -1 when
 * none, -2 when several. */
static int rocesh_pipe_find(const char *word, size_t len)
{
	int hit = -1;

	for (size_t k = 0; k < ROCESH_PIPE_NWORDS; k++) {
		if (strncmp(rocesh_pipe_words[k].word, word, len))
			continue;
		if (strlen(rocesh_pipe_words[k].word) == len)
			return (int)k;
		hit = hit == -1 ? (int)k : -2;
	}
	return len ? hit : -1;
}

static int rocesh_pipe_unknown(struct cmd_error *err, size_t pos, int k,
                               const char *word, size_t len)
{
	return rocesh_pipe_fail(err, pos,
	                        k == -2 ? "Ambiguous filter"
	                                : "Invalid filter, expected begin, "
	                                  "count, exclude, grep, include, "
	                                  "json, last, no-more or section:",
	                        word, len);
}

/* Where the filter that starts at S ends: at a '|' with a blank before
 * it, outside double quotes, or at the end. */
static const char *rocesh_pipe_end(const char *s)
{
	bool quoted = false;

	for (const char *p = s; *p; p++) {
		if (*p == '"')
			quoted = !quoted;
		else if (*p == '|' && !quoted && p > s &&
		         (p[-1] == ' ' || p[-1] == '\t'))
			return p;
	}
	return s + strlen(s);
}

static size_t rocesh_pipe_blanks(const char *s, size_t i, size_t len)
{
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i;
}

static size_t rocesh_pipe_word(const char *s, size_t i, size_t len)
{
	while (i < len && s[i] != ' ' && s[i] != '\t')
		i++;
	return i;
}

/* grep's option at S (LEN bytes), or -1. */
static int rocesh_grep_opt(const char *s, size_t len)
{
	for (size_t k = 0; k < ROCESH_GREP_NOPTS; k++)
		if (strlen(rocesh_grep_opts[k].word) == len &&
		    !strncmp(rocesh_grep_opts[k].word, s, len))
			return (int)k;
	return -1;
}

/* Whether glibc's regcomp could take long over RE, estimated, so that such
 * an expression is refused rather than hang the shell. glibc builds an
 * automaton whose size and whose epsilon closures it computes grow with:
 * - copies: `+` and a bound repeat what they apply to (a{1,30000} takes
 *   minutes, `a++++++++++++++` seconds). An atom counts 1, a repeat
 *   multiplies what it repeats (by 2 for * + ?, by its bound for {m,n}),
 *   a group is what it holds; over ROCESH_PIPE_RE_COST, or a bound over
 *   ROCESH_PIPE_RE_DUP, is refused.
 * - copies of what can match nothing: each copy's empty path reaches the
 *   next, and regcomp follows every such path from every node (`a?++++++`
 *   took 100 ms, `(((a?)+)+){500}` 16 s, sixteen `(|){255}` in a row
 *   1.3 s). `+` or a bound over one of such a piece says nothing that `*`
 *   or a smaller bound does not, and is refused.
 * - repeated anchors and word edges (^ $ \b \B \< \>): regcomp copies the
 *   nodes an empty path crosses for each mix of them it meets
 *   (`(\b|a{0,16}$|a+{0,16}^)*` took 380 ms); a repeat of a piece that
 *   holds one is refused.
 * - anchors and word edges on one path that matches nothing, for the
 *   same reason: sixty `\b` in a row took 4 s, sixteen 6 ms, and fifteen
 *   `\ba{0,255}` 0.7 s. Over ROCESH_PIPE_RE_EDGES of them on such a path,
 *   or their number times the cost of what the path crosses over
 *   ROCESH_PIPE_RE_EDGE_COST, is refused.
 * Returns NULL, or why RE is refused. */
#define ROCESH_PIPE_RE_COST      4096
#define ROCESH_PIPE_RE_DUP       255
#define ROCESH_PIPE_RE_DEPTH     32
#define ROCESH_PIPE_RE_EDGES     16
#define ROCESH_PIPE_RE_EDGE_COST 1024
/* A limit's number in the refusal that names it. */
#define ROCESH_STR_(x) #x
#define ROCESH_STR(x)  ROCESH_STR_(x)

static size_t rocesh_pipe_re_cap(size_t v)
{
	return v > ROCESH_PIPE_RE_COST ? ROCESH_PIPE_RE_COST + 1 : v;
}

/* The bound at C ('{'): LO and HI (HI = LO + 1 for "{m,}", which glibc
 * builds as m copies and a star), and the '}' it ends at; NULL where C
 * is not a bound, which glibc then takes as a literal brace or refuses. */
static const char *rocesh_pipe_re_bound(const char *c, unsigned long *lo,
                                        unsigned long *hi)
{
	char *e = (char *)c + 1;

	*lo = 0; /* "{,n}": glibc reads it as {0,n} */
	if (*e >= '0' && *e <= '9')
		*lo = strtoul(e, &e, 10);
	else if (*e != ',')
		return NULL;
	*hi = *lo;
	if (e[0] == ',' && e[1] == '}') {
		*hi = *lo + 1;
		e++;
	} else if (e[0] == ',') {
		if (e[1] < '0' || e[1] > '9')
			return NULL;
		*hi = strtoul(e + 1, &e, 10);
	}
	return *e == '}' ? e : NULL;
}

/* The end of the bracket expression at C ('['): its ']', which may come
 * first or after a '^', and the ']' of a [:class:] inside it is not it;
 * NULL when it has none (regcomp then says what is wrong). */
static const char *rocesh_pipe_re_bracket(const char *c)
{
	c++;
	if (*c == '^')
		c++;
	if (*c == ']')
		c++;
	while (*c && *c != ']') {
		if (*c == '[' && (c[1] == ':' || c[1] == '.' || c[1] == '=')) {
			const char *e = strchr(c + 2, ']');

			c = e ? e : c + strlen(c) - 1;
		}
		c++;
	}
	return *c ? c : NULL;
}

/* Anchors and word edges (EDGES) and the cost of what can match nothing
 * around them, along an empty path. */
struct rocesh_re_run {
	size_t cost;
	size_t edges;
};

/* A piece (an atom or a group, either repeated) and the group it is in
 * while the expression is read; the whole expression is a group. */
struct rocesh_re_piece {
	size_t cost;
	size_t edges; /* anchors and word edges in it */
	/* an empty path from its start into it, and from inside it to its
	 * end (read only where it must match something) */
	struct rocesh_re_run lead;
	struct rocesh_re_run tail;
	bool empty; /* can match nothing (also before the first piece) */
};

struct rocesh_re_group {
	size_t total; /* what its alternatives hold so far */
	size_t edges;
	struct rocesh_re_run run;  /* the empty path that reaches the last
	                            * piece of this alternative */
	struct rocesh_re_run lead; /* from the alternative's start */
	struct rocesh_re_run leads, tails; /* of its alternatives so far */
	bool lead_open; /* no piece that must match something yet */
	bool empty_ok;  /* this alternative, but for its last piece, can
	                 * match nothing */
	bool any_empty; /* an earlier alternative can match nothing */
};

#define ROCESH_RE_GROUP_INIT                                                   \
	((struct rocesh_re_group){.lead_open = true, .empty_ok = true})
#define ROCESH_RE_NONE ((struct rocesh_re_piece){.empty = true})

static void rocesh_re_add(struct rocesh_re_run *r, struct rocesh_re_run add)
{
	r->cost = rocesh_pipe_re_cap(r->cost + add.cost);
	r->edges += add.edges;
}

/* What repeating LAST (LO to HI times) makes of it, or why it is
 * refused; G's total gains the copies. */
static const char *rocesh_pipe_re_repeat(struct rocesh_re_group *g,
                                         struct rocesh_re_piece *last,
                                         unsigned long lo, unsigned long hi)
{
	if (lo > ROCESH_PIPE_RE_DUP || hi > ROCESH_PIPE_RE_DUP)
		return "a bound over " ROCESH_STR(ROCESH_PIPE_RE_DUP);
	if (last->edges)
		return "a repeat of an anchor or a word edge";
	if (hi >= 2 && last->cost && last->empty)
		return "a repeat of what can match nothing (use * or ?)";
	hi = hi > 1 ? hi : 2;
	g->total = rocesh_pipe_re_cap(g->total + last->cost * (hi - 1));
	last->cost = rocesh_pipe_re_cap(last->cost * hi);
	last->empty = last->empty || lo == 0;
	return NULL;
}

static const char *rocesh_pipe_re_run_check(struct rocesh_re_run r)
{
	if (r.edges > ROCESH_PIPE_RE_EDGES ||
	    r.edges * r.cost > ROCESH_PIPE_RE_EDGE_COST)
		return "too many anchors or word edges with what can match "
		       "nothing between them";
	return NULL;
}

/* LAST is over: it joins G's alternative. An empty path crosses a piece
 * that can match nothing whole; into one that must match something it
 * goes as far as the piece's lead, and out of it from its tail. */
static const char *rocesh_pipe_re_end(struct rocesh_re_group *g,
                                      const struct rocesh_re_piece *last)
{
	struct rocesh_re_run in = g->run;
	const char *why;

	g->empty_ok = g->empty_ok && last->empty;
	g->edges += last->edges;
	if (last->empty) {
		rocesh_re_add(&g->run,
		              (struct rocesh_re_run){last->cost, last->edges});
		if (g->lead_open)
			g->lead = g->run;
		return rocesh_pipe_re_run_check(g->run);
	}
	rocesh_re_add(&in, last->lead);
	if ((why = rocesh_pipe_re_run_check(in)))
		return why;
	if (g->lead_open) {
		rocesh_re_add(&g->lead, last->lead);
		g->lead_open = false;
	}
	g->run = last->tail;
	return NULL;
}

/* The alternative of G is over (at '|', ')' or the end). */
static void rocesh_pipe_re_alt(struct rocesh_re_group *g)
{
	g->any_empty = g->any_empty || g->empty_ok;
	rocesh_re_add(&g->leads, g->lead);
	rocesh_re_add(&g->tails, g->run);
	g->run = g->lead = (struct rocesh_re_run){0, 0};
	g->lead_open = g->empty_ok = true;
}

static const char *rocesh_pipe_re_check(const char *re)
{
	struct rocesh_re_group saved[ROCESH_PIPE_RE_DEPTH];
	struct rocesh_re_group g = ROCESH_RE_GROUP_INIT;
	struct rocesh_re_piece last = ROCESH_RE_NONE;
	size_t depth = 0;
	const char *why;

	for (const char *c = re; *c; c++) {
		unsigned long lo = 0, hi = 0;
		const char *e = NULL;

		switch (*c) {
		case '*':
		case '?':
			hi = 1;
			break;
		case '+':
			lo = 1;
			hi = 2;
			break;
		case '{':
			e = rocesh_pipe_re_bound(c, &lo, &hi);
			break;
		}
		if (hi || e) {
			/* a repeat of the last piece */
			if ((why = rocesh_pipe_re_repeat(&g, &last, lo, hi)))
				return why;
			c = e ? e : c;
			goto next;
		}
		/* anything else ends the last piece */
		if ((why = rocesh_pipe_re_end(&g, &last)))
			return why;
		last = (struct rocesh_re_piece){.cost = 1};
		switch (*c) {
		case '\\':
			if (c[1])
				c++;
			/* A back-reference makes glibc's matcher
			 * backtrack: five groups and their references took
			 * over 30 s on one line of a show. NX-OS's grep has
			 * none either. */
			if (*c >= '1' && *c <= '9')
				return "a back-reference (\\1 to \\9)";
			last.edges = strchr("bB<>`'", *c) != NULL;
			last.empty = last.edges;
			break;
		case '^':
		case '$':
			last.edges = 1;
			last.empty = true;
			break;
		case '[':
			if (!(c = rocesh_pipe_re_bracket(c)))
				return NULL;
			break;
		case '|':
			rocesh_pipe_re_alt(&g);
			last = ROCESH_RE_NONE;
			continue;
		case '(':
			if (depth == ROCESH_PIPE_RE_DEPTH)
				return "groups nested over " ROCESH_STR(
				    ROCESH_PIPE_RE_DEPTH) " deep";
			saved[depth++] = g;
			g = ROCESH_RE_GROUP_INIT;
			last = ROCESH_RE_NONE;
			continue;
		case ')':
			if (!depth)
				break; /* glibc takes a lone ')' as a literal */
			rocesh_pipe_re_alt(&g);
			last = (struct rocesh_re_piece){
			    .cost = g.total ? g.total : 1,
			    .edges = g.edges,
			    .lead = g.leads,
			    .tail = g.tails,
			    .empty = g.any_empty,
			};
			g = saved[--depth];
			break;
		}
		g.total = rocesh_pipe_re_cap(g.total + last.cost);
	next:
		if (g.total > ROCESH_PIPE_RE_COST)
			return "over " ROCESH_STR(
			    ROCESH_PIPE_RE_COST) " copies of its atoms";
	}
	return rocesh_pipe_re_end(&g, &last);
}

static int rocesh_pipe_regex(struct rocesh_pipe *p, const char *s, size_t len,
                             size_t pos, bool icase, struct cmd_error *err)
{
	char arg[256], why[128];
	const char *too;
	int rc;

	if (len >= 2 && s[0] == '"' && s[len - 1] == '"') {
		s++;
		len -= 2;
	}
	if (len >= sizeof(arg))
		return rocesh_pipe_fail(err, pos, "Regular expression too long",
		                        NULL, 0);
	memcpy(arg, s, len);
	arg[len] = '\0';
	if ((too = rocesh_pipe_re_check(arg))) {
		snprintf(err->message, sizeof(err->message),
		         "%% Regular expression too complex '%.64s': %s", arg,
		         too);
		err->pos = pos;
		return -1;
	}
	rc = regcomp(&p->re, arg,
	             REG_EXTENDED | REG_NOSUB | (icase ? REG_ICASE : 0));
	if (rc) {
		regerror(rc, &p->re, why, sizeof(why));
		snprintf(err->message, sizeof(err->message),
		         "%% Invalid regular expression '%.64s': %s", arg, why);
		err->pos = pos;
		return -1;
	}
	p->has_re = true;
	return 0;
}

/* One filter, "WORD [OPTIONS] [ARG]" at SEG (LEN bytes), byte POS of the
 * line. */
static int rocesh_pipe_one(struct rocesh_pipes *pp, const char *seg, size_t len,
                           size_t pos, struct cmd_error *err)
{
	size_t w0 = rocesh_pipe_blanks(seg, 0, len);
	size_t w1 = rocesh_pipe_word(seg, w0, len);
	size_t a = rocesh_pipe_blanks(seg, w1, len), end = len;
	bool icase = false;
	struct rocesh_pipe *p;
	int k;

	while (end > a && (seg[end - 1] == ' ' || seg[end - 1] == '\t'))
		end--;
	if (w0 == w1)
		return rocesh_pipe_fail(err, pos + w0, "Incomplete command",
		                        NULL, 0);
	k = rocesh_pipe_find(seg + w0, w1 - w0);
	if (k < 0)
		return rocesh_pipe_unknown(err, pos + w0, k, seg + w0, w1 - w0);
	if (pp->n >= ROCESH_PIPES_MAX)
		return rocesh_pipe_fail(err, pos + w0, "Too many filters", NULL,
		                        0);
	p = &pp->p[pp->n];
	memset(p, 0, sizeof(*p));
	p->kind = rocesh_pipe_words[k].kind;
	switch (rocesh_pipe_words[k].arg) {
	case ROCESH_PIPE_ARG_NONE:
		if (end > a)
			return rocesh_pipe_fail(
			    err, pos + a, "Invalid argument", seg + a, end - a);
		if (p->kind == ROCESH_PIPE_JSON)
			pp->json = true;
		else if (p->kind != ROCESH_PIPE_NO_MORE)
			pp->n++;
		return 0;
	case ROCESH_PIPE_ARG_LINES: {
		size_t e = rocesh_pipe_word(seg, a, end);
		char num[16];
		char *stop;

		p->n = ROCESH_PIPE_LAST_DEFAULT;
		if (end > e)
			return rocesh_pipe_fail(
			    err, pos + rocesh_pipe_blanks(seg, e, end),
			    "Invalid argument",
			    seg + rocesh_pipe_blanks(seg, e, end),
			    end - rocesh_pipe_blanks(seg, e, end));
		if (e > a) {
			snprintf(num, sizeof(num), "%.*s",
			         (int)(e - a < 15 ? e - a : 15), seg + a);
			p->n = strtoul(num, &stop, 10);
			if (*stop || num[0] < '0' || num[0] > '9' ||
			    e - a > 5 || p->n < 1 ||
			    p->n > ROCESH_PIPE_LAST_MAX) {
				snprintf(err->message, sizeof(err->message),
				         "%% Invalid number '%.*s', expected "
				         "1-%d",
				         (int)(e - a > 32 ? 32 : e - a),
				         seg + a, ROCESH_PIPE_LAST_MAX);
				err->pos = pos + a;
				return -1;
			}
		}
		pp->n++;
		return 0;
	}
	case ROCESH_PIPE_ARG_REGEX:
		break;
	}
	while (p->kind == ROCESH_PIPE_GREP && a < end) {
		size_t e = rocesh_pipe_word(seg, a, end);
		int o = rocesh_grep_opt(seg + a, e - a);

		if (o < 0)
			break;
		if (!strcmp(rocesh_grep_opts[o].word, "ignore-case"))
			icase = true;
		else
			p->invert = true;
		a = rocesh_pipe_blanks(seg, e, end);
	}
	if (end <= a)
		return rocesh_pipe_fail(err, pos + a,
		                        "Incomplete command: a regular "
		                        "expression is expected after",
		                        seg + w0, w1 - w0);
	if (p->kind == ROCESH_PIPE_EXCLUDE)
		p->invert = true;
	if (rocesh_pipe_regex(p, seg + a, end - a, pos + a, icase, err) < 0)
		return -1;
	pp->n++;
	return 0;
}

int rocesh_pipes_parse(const char *line, char *cmd, size_t len,
                       struct rocesh_pipes *pp, struct cmd_error *err)
{
	const char *bar = strchr(line, '|');
	size_t n;

	memset(pp, 0, sizeof(*pp));
	memset(err, 0, sizeof(*err));
	if (!bar) {
		snprintf(cmd, len, "%s", line);
		return 0;
	}
	n = (size_t)(bar - line);
	if (n >= len)
		return rocesh_pipe_fail(err, 0, "Line too long", NULL, 0);
	memcpy(cmd, line, n);
	cmd[n] = '\0';
	while (*bar == '|') {
		const char *next = rocesh_pipe_end(bar + 1);

		if (rocesh_pipe_one(pp, bar + 1, (size_t)(next - bar - 1),
		                    (size_t)(bar + 1 - line), err)) {
			rocesh_pipes_free(pp);
			return -1;
		}
		bar = next;
	}
	return 0;
}

/* --- running them --- */

static size_t rocesh_pipe_indent(const char *l, size_t n)
{
	size_t i = 0;

	while (i < n && (l[i] == ' ' || l[i] == '\t'))
		i++;
	return i;
}

static size_t rocesh_pipe_lines(const char *text)
{
	size_t n = 0;

	for (const char *l = text; *l;) {
		const char *e = strchr(l, '\n');

		n++;
		l = e ? e + 1 : l + strlen(l);
	}
	return n;
}

/* One filter P over CUR's lines into NEXT. */
static void rocesh_pipe_apply(const struct rocesh_pipe *p, const char *cur,
                              struct strbuf *next)
{
	size_t count = 0, total = 0, section = 0;
	bool begun = false, in_section = false;

	if (p->kind == ROCESH_PIPE_LAST)
		total = rocesh_pipe_lines(cur);
	for (const char *l = cur; *l;) {
		const char *e = strchr(l, '\n');
		size_t n = e ? (size_t)(e - l) : strlen(l);
		char *one = strndup(l, n);
		bool match = false, take = false;

		if (!one)
			break;
		if (p->has_re)
			match = !regexec(&p->re, one, 0, NULL, 0);
		switch (p->kind) {
		case ROCESH_PIPE_INCLUDE:
		case ROCESH_PIPE_EXCLUDE:
		case ROCESH_PIPE_GREP:
			take = match != p->invert;
			break;
		case ROCESH_PIPE_BEGIN:
			begun = begun || match;
			take = begun;
			break;
		case ROCESH_PIPE_SECTION:
			/* Deeper than the line that opened the section:
			 * its block. Else a new line, in when it
			 * matches. */
			if (in_section && n &&
			    rocesh_pipe_indent(one, n) > section &&
			    rocesh_pipe_indent(one, n) < n) {
				take = true;
			} else {
				in_section = match;
				section = rocesh_pipe_indent(one, n);
				take = match;
			}
			break;
		case ROCESH_PIPE_LAST:
			take = count + p->n >= total;
			break;
		case ROCESH_PIPE_COUNT:
		case ROCESH_PIPE_NO_MORE:
		case ROCESH_PIPE_JSON:
			break;
		}
		count++;
		if (take)
			strbuf_printf(next, "%s\n", one);
		free(one);
		l += n + (e != NULL);
	}
	if (p->kind == ROCESH_PIPE_COUNT)
		strbuf_printf(next, "%zu\n", count);
}

void rocesh_pipes_run(const struct rocesh_pipes *pp, const char *text,
                      FILE *out)
{
	struct strbuf cur;

	strbuf_init(&cur);
	strbuf_puts(&cur, text);
	for (size_t f = 0; f < pp->n && !cur.oom; f++) {
		struct strbuf next;

		strbuf_init(&next);
		strbuf_puts(&next, "");
		rocesh_pipe_apply(&pp->p[f], strbuf_str(&cur), &next);
		strbuf_free(&cur);
		cur = next;
	}
	fputs(strbuf_str(&cur), out);
	strbuf_free(&cur);
}

/* --- `?` and TAB --- */

/* The last filter of LINE: where it starts (after its '|'), checking the
 * filters before it. Returns NULL with ERR when one of those is bad. */
static const char *rocesh_pipe_last(const char *line, struct cmd_error *err)
{
	const char *bar = strchr(line, '|'), *last = bar;
	struct rocesh_pipes pp;
	char *head, *cmd;

	if (!bar) {
		rocesh_pipe_fail(err, strlen(line), "Incomplete command", NULL,
		                 0);
		return NULL;
	}
	while (*bar == '|') {
		last = bar;
		bar = rocesh_pipe_end(bar + 1);
	}
	head = strndup(line, (size_t)(last - line));
	cmd = malloc(strlen(line) + 1);
	if (!head || !cmd) {
		free(head);
		free(cmd);
		rocesh_pipe_fail(err, 0, "Out of memory", NULL, 0);
		return NULL;
	}
	if (strchr(head, '|')) {
		if (rocesh_pipes_parse(head, cmd, strlen(line) + 1, &pp, err) <
		    0)
			last = NULL;
		else
			rocesh_pipes_free(&pp);
	}
	free(head);
	free(cmd);
	return last ? last + 1 : NULL;
}

int rocesh_pipes_help(const char *line, struct strbuf *out,
                      struct cmd_error *err)
{
	struct cmd_render_item items[ROCESH_PIPE_NWORDS + 2];
	const char *seg;
	size_t len, w0, w1, a, n = 0;
	bool cr = false;
	int k;

	memset(err, 0, sizeof(*err));
	seg = rocesh_pipe_last(line, err);
	if (!seg)
		return -1;
	len = strlen(seg);
	w0 = rocesh_pipe_blanks(seg, 0, len);
	w1 = rocesh_pipe_word(seg, w0, len);
	if (w1 == len) {
		/* The filter's word, being typed. */
		for (size_t i = 0; i < ROCESH_PIPE_NWORDS; i++)
			if (!strncmp(rocesh_pipe_words[i].word, seg + w0,
			             w1 - w0))
				items[n++] = (struct cmd_render_item){
				    rocesh_pipe_words[i].word,
				    rocesh_pipe_words[i].help};
		if (!n)
			return rocesh_pipe_unknown(err,
			                           (size_t)(seg + w0 - line),
			                           -1, seg + w0, w1 - w0);
		cmd_render_listing(items, n, false, out);
		return 0;
	}
	k = rocesh_pipe_find(seg + w0, w1 - w0);
	if (k < 0)
		return rocesh_pipe_unknown(err, (size_t)(seg + w0 - line), k,
		                           seg + w0, w1 - w0);
	a = rocesh_pipe_blanks(seg, w1, len);
	switch (rocesh_pipe_words[k].arg) {
	case ROCESH_PIPE_ARG_NONE:
		if (a < len)
			return rocesh_pipe_fail(err, (size_t)(seg + a - line),
			                        "Invalid argument", seg + a,
			                        len - a);
		cr = true;
		break;
	case ROCESH_PIPE_ARG_LINES:
		if (a == len || rocesh_pipe_word(seg, a, len) == len)
			items[n++] = (struct cmd_render_item){
			    "<1-65535>", ROCESH_PIPE_H_LINES};
		cr = true;
		break;
	case ROCESH_PIPE_ARG_REGEX:
		while (rocesh_pipe_words[k].kind == ROCESH_PIPE_GREP &&
		       a < len) {
			size_t e = rocesh_pipe_word(seg, a, len);

			if (e == len || rocesh_grep_opt(seg + a, e - a) < 0)
				break;
			a = rocesh_pipe_blanks(seg, e, len);
		}
		if (a < len && rocesh_pipe_word(seg, a, len) < len) {
			/* The expression is there: more of it, or the
			 * end. */
			cr = true;
			break;
		}
		for (size_t i = 0;
		     rocesh_pipe_words[k].kind == ROCESH_PIPE_GREP &&
		     i < ROCESH_GREP_NOPTS;
		     i++)
			if (!strncmp(rocesh_grep_opts[i].word, seg + a,
			             len - a) &&
			    !strstr(seg, rocesh_grep_opts[i].word))
				items[n++] = (struct cmd_render_item){
				    rocesh_grep_opts[i].word,
				    rocesh_grep_opts[i].help};
		items[n++] =
		    (struct cmd_render_item){"WORD", ROCESH_PIPE_H_REGEX};
		cmd_render_listing(items, n, a < len, out);
		return 0;
	}
	if (cr)
		items[n++] = (struct cmd_render_item){"|", ROCESH_PIPE_H_BAR};
	cmd_render_listing(items, n, cr, out);
	return 0;
}

size_t rocesh_pipes_complete(const char *line, char (*words)[CMD_WORD_MAX],
                             size_t max)
{
	struct cmd_error err;
	const char *seg = rocesh_pipe_last(line, &err);
	size_t len, w0, w1, a, n = 0;
	int k;

	if (!seg)
		return 0;
	len = strlen(seg);
	w0 = rocesh_pipe_blanks(seg, 0, len);
	w1 = rocesh_pipe_word(seg, w0, len);
	if (w1 == len) {
		/* TAB completes a word after a blank (cmd_render_complete),
		 * not one glued to its '|'. */
		if (!w0)
			return 0;
		for (size_t i = 0; i < ROCESH_PIPE_NWORDS && n < max; i++)
			if (!strncmp(rocesh_pipe_words[i].word, seg + w0,
			             w1 - w0))
				snprintf(words[n++], CMD_WORD_MAX, "%s",
				         rocesh_pipe_words[i].word);
		return n;
	}
	k = rocesh_pipe_find(seg + w0, w1 - w0);
	if (k < 0 || rocesh_pipe_words[k].kind != ROCESH_PIPE_GREP)
		return 0;
	a = rocesh_pipe_blanks(seg, w1, len);
	for (size_t e; a < len && (e = rocesh_pipe_word(seg, a, len)) < len;)
		a = rocesh_pipe_blanks(seg, e, len);
	for (size_t i = 0; i < ROCESH_GREP_NOPTS && n < max; i++)
		if (!strncmp(rocesh_grep_opts[i].word, seg + a, len - a))
			snprintf(words[n++], CMD_WORD_MAX, "%s",
			         rocesh_grep_opts[i].word);
	return n;
}
