/* cmd_graph: syntax strings -> token graphs, and matching words on them.
 * See cmd_int.h.
 *
 * Each command's syntax string is compiled into a token graph (Glushkov's
 * construction: every token of the string is a node, and each node knows
 * which nodes may follow it and whether the command may end after it).
 * A line is matched against every command of a mode at once, one word at
 * a time, so that a word is resolved among all the keywords that could
 * come next, as NX-OS does: an exact keyword beats a unique keyword
 * prefix, which beats an argument ("show policy-map int" is the interface
 * form); two keywords sharing the prefix are ambiguous.
 *
 * The graphs are built on the heap, a mode's at a time (cmd.c keeps them
 * in the caller's struct cmd_cache: building them is most of the cost of
 * a parse, and the library keeps no state between calls of its own).
 */
#include "cmd/cmd_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/names.h"
#include "model/units.h"

static const struct {
	const char *word;
	enum cmd_tok tok;
	enum cmd_names names;
	const char *display;
} cmd_arg_words[] = {
    {"WORD", CMD_TOK_NAME, CMD_NAMES_NONE, "WORD"},
    {"CMAP_QOS", CMD_TOK_NAME, CMD_NAMES_CMAP_QOS, "WORD"},
    {"QCLASS", CMD_TOK_NAME, CMD_NAMES_QCLASS, "WORD"},
    {"CMAP_NQOS", CMD_TOK_NAME, CMD_NAMES_CMAP_NQOS, "WORD"},
    {"CMAP", CMD_TOK_NAME, CMD_NAMES_CMAP, "WORD"},
    {"PMAP_QOS", CMD_TOK_NAME, CMD_NAMES_PMAP_QOS, "WORD"},
    {"PMAP_QUE", CMD_TOK_NAME, CMD_NAMES_PMAP_QUE, "WORD"},
    {"PMAP_NQOS", CMD_TOK_NAME, CMD_NAMES_PMAP_NQOS, "WORD"},
    {"PMAP", CMD_TOK_NAME, CMD_NAMES_PMAP, "WORD"},
    {"IFNAME", CMD_TOK_IF, CMD_NAMES_IF, "IFNAME"},
    {"ALIAS", CMD_TOK_ALIAS, CMD_NAMES_NONE, "WORD"},
    {"DSCPLIST", CMD_TOK_DSCP, CMD_NAMES_NONE, "<0-63>"},
    {"TEXT", CMD_TOK_TEXT, CMD_NAMES_NONE, "LINE"},
};

/* Argument words that stand for every word of a vocabulary: the words
 * and their help come from the vocabulary's own table, so that a word the
 * table gains is a keyword here too. */
static const char *cmd_vocab_unit(unsigned i, const char **help)
{
	*help = units_size_help((enum units_size)i);
	return units_size_name((enum units_size)i);
}

static const char *cmd_vocab_subsys(unsigned i, const char **help)
{
	*help = names_debug_help((enum names_debug)i);
	return names_debug_name((enum names_debug)i);
}

static const char *cmd_vocab_pfc_mode(unsigned i, const char **help)
{
	*help = policy_pfc_mode_help((enum policy_pfc_mode)i);
	return policy_pfc_mode_name((enum policy_pfc_mode)i);
}

static const char *cmd_vocab_rate(unsigned i, const char **help)
{
	*help = units_rate_help((enum units_rate)i);
	return units_rate_name((enum units_rate)i);
}

static const char *cmd_vocab_wred_profile(unsigned i, const char **help)
{
	*help = policy_wred_profile_help((enum policy_wred_profile)i);
	return policy_wred_profile_name((enum policy_wred_profile)i);
}

static const char *cmd_vocab_dcbx_agent(unsigned i, const char **help)
{
	*help = policy_dcbx_agent_help((enum policy_dcbx_agent)i);
	return policy_dcbx_agent_name((enum policy_dcbx_agent)i);
}

static const char *cmd_vocab_pfcwd_action(unsigned i, const char **help)
{
	*help = policy_pfcwd_action_help((enum policy_pfcwd_action)i);
	return policy_pfcwd_action_name((enum policy_pfcwd_action)i);
}

/* The RoCE modes, without "none" (the table's first row). */
static const char *cmd_vocab_roce_mode(unsigned i, const char **help)
{
	*help = policy_roce_mode_help((enum policy_roce_mode)(i + 1));
	return policy_roce_mode_name((enum policy_roce_mode)(i + 1));
}

static const struct {
	const char *word;
	unsigned n;
	const char *(*name)(unsigned i, const char **help);
} cmd_vocab_words[] = {
    {"UNIT", UNITS_SIZE_MAX, cmd_vocab_unit},
    {"RATEUNIT", UNITS_RATE_MAX, cmd_vocab_rate},
    {"WREDPROFILE", POLICY_WRED_NPROFILES, cmd_vocab_wred_profile},
    {"SUBSYS", NAMES_DEBUG_MAX, cmd_vocab_subsys},
    {"PFCMODE", POLICY_PFC_NMODES, cmd_vocab_pfc_mode},
    {"PFCWDACT", POLICY_PFCWD_NACTIONS, cmd_vocab_pfcwd_action},
    {"DCBXAGENT", POLICY_DCBX_NAGENTS, cmd_vocab_dcbx_agent},
    {"ROCEMODE", POLICY_ROCE_NMODES - 1, cmd_vocab_roce_mode},
};

struct cmd_frag {
	uint64_t first, last;
	bool nullable;
};

struct cmd_sx {
	struct cmd_graph *g;
	const char *s;
	size_t pos;
	const char *help; /* the next help line */
};

/* --- syntax strings -> graphs --- */

static struct cmd_frag cmd_sx_alt(struct cmd_sx *sx);

static struct cmd_frag cmd_sx_concat(struct cmd_graph *g, struct cmd_frag a,
                                     struct cmd_frag b)
{
	struct cmd_frag r;

	for (size_t i = 0; i < g->n; i++)
		if (a.last & (1ull << i))
			g->node[i].next |= b.first;
	r.first = a.first | (a.nullable ? b.first : 0);
	r.last = b.last | (b.nullable ? a.last : 0);
	r.nullable = a.nullable && b.nullable;
	return r;
}

static bool cmd_sx_range(const char *s, size_t len, unsigned long long *lo,
                         unsigned long long *hi)
{
	char buf[48], *end;

	if (len < 5 || len >= sizeof(buf) || s[0] != '<' || s[len - 1] != '>')
		return false;
	memcpy(buf, s + 1, len - 2);
	buf[len - 2] = '\0';
	*lo = strtoull(buf, &end, 10);
	if (*end != '-')
		return false;
	*hi = strtoull(end + 1, &end, 10);
	return !*end && *lo <= *hi;
}

/* One node for the word at S (LEN bytes), with the next help line. */
static struct cmd_frag cmd_sx_atom(struct cmd_sx *sx, const char *s, size_t len)
{
	struct cmd_graph *g = sx->g;
	struct cmd_frag f = {0, 0, false};
	struct cmd_node *n;
	const char *nl;

	if (g->n >= CMD_NODES_MAX || !sx->help || !*sx->help) {
		g->bad = true;
		return f;
	}
	n = &g->node[g->n];
	memset(n, 0, sizeof(*n));
	n->type = CMD_TOK_KW;
	n->text = s;
	n->len = len;
	for (size_t i = 0; i < sizeof(cmd_arg_words) / sizeof(*cmd_arg_words);
	     i++) {
		if (strlen(cmd_arg_words[i].word) != len ||
		    memcmp(cmd_arg_words[i].word, s, len))
			continue;
		n->type = cmd_arg_words[i].tok;
		n->names = cmd_arg_words[i].names;
		n->text = cmd_arg_words[i].display;
		n->len = strlen(n->text);
		n->hi = 63;
	}
	if (s[0] == '<') {
		n->type = CMD_TOK_RANGE;
		g->bad |= !cmd_sx_range(s, len, &n->lo, &n->hi);
	} else if (len > 4 && !memcmp(s, "LIST<", 5)) {
		n->type = CMD_TOK_LIST;
		n->text = s + 4;
		n->len = len - 4;
		g->bad |= !cmd_sx_range(n->text, n->len, &n->lo, &n->hi);
	} else if (n->type == CMD_TOK_KW && isupper((unsigned char)s[0])) {
		g->bad = true; /* an argument word the engine does not know */
	}
	nl = strchr(sx->help, '\n');
	n->help = sx->help;
	n->helplen = nl ? (size_t)(nl - sx->help) : strlen(sx->help);
	sx->help = nl ? nl + 1 : sx->help + n->helplen;
	f.first = f.last = 1ull << g->n;
	/* Free text takes every word that follows: the node follows itself. */
	if (n->type == CMD_TOK_TEXT)
		n->next |= f.first;
	g->n++;
	return f;
}

/* A vocabulary word: one keyword node per word of the vocabulary, as if
 * the syntax said (w1|w2|...), each with the vocabulary's help. Any
 * other word is one node (cmd_sx_atom). */
static struct cmd_frag cmd_sx_word(struct cmd_sx *sx, const char *s, size_t len)
{
	struct cmd_frag f = {0, 0, false};

	for (size_t v = 0;
	     v < sizeof(cmd_vocab_words) / sizeof(*cmd_vocab_words); v++) {
		if (strlen(cmd_vocab_words[v].word) != len ||
		    memcmp(cmd_vocab_words[v].word, s, len))
			continue;
		for (unsigned i = 0; i < cmd_vocab_words[v].n; i++) {
			const char *help, *w;
			struct cmd_sx one;
			struct cmd_frag o;

			w = cmd_vocab_words[v].name(i, &help);
			one = (struct cmd_sx){.g = sx->g, .s = w, .help = help};
			o = cmd_sx_atom(&one, w, strlen(w));
			f.first |= o.first;
			f.last |= o.last;
		}
		return f;
	}
	return cmd_sx_atom(sx, s, len);
}

static void cmd_sx_space(struct cmd_sx *sx)
{
	while (sx->s[sx->pos] == ' ')
		sx->pos++;
}

static struct cmd_frag cmd_sx_item(struct cmd_sx *sx)
{
	char open = sx->s[sx->pos];
	struct cmd_frag f;
	size_t start;

	if (open == '(' || open == '[') {
		sx->pos++;
		f = cmd_sx_alt(sx);
		cmd_sx_space(sx);
		if (sx->s[sx->pos] != (open == '(' ? ')' : ']'))
			sx->g->bad = true;
		else
			sx->pos++;
		if (open == '[')
			f.nullable = true;
		return f;
	}
	start = sx->pos;
	while (sx->s[sx->pos] && !strchr(" ()[]|", sx->s[sx->pos]))
		sx->pos++;
	return cmd_sx_word(sx, sx->s + start, sx->pos - start);
}

static struct cmd_frag cmd_sx_seq(struct cmd_sx *sx)
{
	struct cmd_frag acc = {0, 0, true};

	for (;;) {
		cmd_sx_space(sx);
		if (!sx->s[sx->pos] || strchr(")]|", sx->s[sx->pos]) ||
		    sx->g->bad)
			return acc;
		acc = cmd_sx_concat(sx->g, acc, cmd_sx_item(sx));
	}
}

static struct cmd_frag cmd_sx_alt(struct cmd_sx *sx)
{
	struct cmd_frag f = cmd_sx_seq(sx);

	while (sx->s[sx->pos] == '|' && !sx->g->bad) {
		struct cmd_frag o;

		sx->pos++;
		o = cmd_sx_seq(sx);
		f.first |= o.first;
		f.last |= o.last;
		f.nullable |= o.nullable;
	}
	return f;
}

void cmd_graph_build(struct cmd_graph *g, const struct cmd_def *def)
{
	struct cmd_sx sx = {.g = g, .s = def->syntax, .help = def->help};
	struct cmd_frag f;

	memset(g, 0, sizeof(*g));
	g->def = def;
	f = cmd_sx_alt(&sx);
	if (sx.s[sx.pos] || f.nullable)
		g->bad = true;
	/* Every show command takes a trailing json. */
	if (def->kind == CMD_KIND_SHOW && !g->bad) {
		struct cmd_sx js = {.g = g,
		                    .s = "json",
		                    .help = "Display output in JSON format"};
		struct cmd_frag j = cmd_sx_atom(&js, "json", 4);

		j.nullable = true;
		f = cmd_sx_concat(g, f, j);
	}
	if (*sx.help)
		g->bad = true; /* more help lines than tokens */
	g->first = f.first;
	g->last = f.last;
}

size_t cmd_graphs_max(const struct cmd_table *t, enum cmd_mode m)
{
	size_t n = 0;

	for (size_t i = 0; i < t->n; i++)
		n += !!(t->def[i].modes & CMD_M(m));
	return n;
}

size_t cmd_graphs(const struct cmd_table *t, enum cmd_mode m,
                  struct cmd_graph *v)
{
	size_t n = 0;

	for (size_t i = 0; i < t->n; i++) {
		if (!(t->def[i].modes & CMD_M(m)))
			continue;
		cmd_graph_build(&v[n], &t->def[i]);
		if (!v[n].bad)
			n++;
	}
	return n;
}

int cmd_table_check(const struct cmd_table *t, char *why, size_t len)
{
	struct cmd_graph *g = malloc(sizeof(*g));
	int rc = 0;

	if (!g)
		return -1;
	for (size_t i = 0; !rc && i < t->n; i++) {
		const struct cmd_def *d = &t->def[i];

		cmd_graph_build(g, d);
		if (g->bad || !d->modes ||
		    ((d->kind == CMD_KIND_CONFIG || d->kind == CMD_KIND_MODE) &&
		     !d->exec)) {
			snprintf(why, len, "%s", d->syntax);
			rc = -1;
		}
	}
	free(g);
	return rc;
}

/* --- words --- */

/* "e", "eth", "ethernet", any case: an Ethernet kind word alone. */
static bool cmd_eth_word(const char *s)
{
	size_t n = strlen(s);

	return n && n <= 8 && !strncasecmp(s, "ethernet", n);
}

/* Whether word K of W is `interface` or an abbreviation of it. */
static bool cmd_if_keyword(const struct cmd_words *w, size_t k)
{
	size_t n = strlen(w->w[k]);

	return n >= 3 && n <= 9 && !strncasecmp(w->w[k], "interface", n);
}

/* Fold the interface spec that starts at word K (see cmd_split). */
static void cmd_fold_ifspec(struct cmd_words *w, size_t k)
{
	char joined[CMD_LINE_MAX], canon[CMD_LINE_MAX];
	size_t j = k, len = 0, cl;

	joined[0] = '\0';
	while (j < w->n) {
		const char *s = w->w[j];
		bool more = j > k && len &&
		            (joined[len - 1] == '-' || joined[len - 1] == ',');

		if (j > k && !more && s[0] != '-' && s[0] != ',')
			break;
		/* the words come from one line, shorter than JOINED; the
		 * checks keep it so whatever calls this */
		len += (size_t)snprintf(joined + len, sizeof(joined) - len,
		                        "%s", s);
		if (len >= sizeof(joined))
			return;
		j++;
		/* "ethernet 1/1": the kind and its number */
		if (cmd_eth_word(s) && j < w->n &&
		    isdigit((unsigned char)w->w[j][0]) &&
		    strchr(w->w[j], '/')) {
			len += (size_t)snprintf(
			    joined + len, sizeof(joined) - len, "%s", w->w[j]);
			if (len >= sizeof(joined))
				return;
			j++;
		}
	}
	if (policy_ifname_nxos(joined, canon, sizeof(canon)) < 0)
		return;
	cl = strlen(canon);
	if (j == k + 1 && !strcmp(canon, w->w[k]))
		return; /* nothing to fold */
	if (!cl || w->foldlen + cl + 1 > sizeof(w->fold))
		return;
	memcpy(w->fold + w->foldlen, canon, cl + 1);
	w->w[k] = w->fold + w->foldlen;
	w->foldlen += cl + 1;
	/* the words K+1 .. J-1 are now part of word K */
	for (size_t m = j, d = k + 1; m <= w->n; m++, d++) {
		if (m == w->n) {
			w->n = d;
			break;
		}
		w->w[d] = w->w[m];
		w->pos[d] = w->pos[m];
	}
}

int cmd_split(const char *line, struct cmd_words *w, struct cmd_error *err)
{
	size_t len = strlen(line), i = 0;

	memset(w, 0, sizeof(*w));
	if (len >= sizeof(w->buf)) {
		cmd_fail(err, sizeof(w->buf) - 1,
		         "%% Line too long, expected at most %zu characters",
		         sizeof(w->buf) - 1);
		return -1;
	}
	memcpy(w->buf, line, len + 1);
	while (i < len) {
		while (i < len && isspace((unsigned char)w->buf[i]))
			w->buf[i++] = '\0';
		if (i >= len)
			break;
		/* `pause pfc-cos 3  ! lossless class`: a word that starts
		 * with `!` after the first begins a comment that runs to
		 * the end of the line, as in NX-OS configurations; in a
		 * description it is text. */
		if (w->n && w->buf[i] == '!' &&
		    strcmp(w->w[w->n > 1 && !strcmp(w->w[0], "no") ? 1 : 0],
		           "description")) {
			memset(&w->buf[i], 0, len - i);
			len = i;
			break;
		}
		if (w->n == CMD_ARGV_MAX) {
			cmd_fail(err, i, "%% Too many words");
			return -1;
		}
		w->pos[w->n] = i;
		w->w[w->n++] = &w->buf[i];
		while (i < len && !isspace((unsigned char)w->buf[i]))
			i++;
		w->end = i;
	}
	w->open = w->n && w->end == len;
	for (size_t k = 0; k + 1 < w->n; k++)
		if (cmd_if_keyword(w, k))
			cmd_fold_ifspec(w, k + 1);
	return 0;
}

bool cmd_name_ok(const char *s)
{
	size_t n = strlen(s);

	if (!n || n >= POLICY_NAME_MAX)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("-_.", *s))
			return false;
	return true;
}

static bool cmd_ifname_ok(const char *s)
{
	size_t n = strlen(s);

	/* `interface breakout module 1 port 1-3 map 200g-2x` carves ports
	 * out of a cage: no interface, and not QoS (cmd_not_qos). */
	/* One name fits an alias; a list of them (e1/1-4,e1/7) may be
	 * longer, up to what an interface mode line holds. */
	if (!n || n >= (strchr(s, ',') ? CMD_IFSPEC_MAX : POLICY_ALIAS_MAX) ||
	    !strcasecmp(s, "breakout"))
		return false;
	for (; *s; s++)
		if (!isgraph((unsigned char)*s))
			return false;
	return true;
}

static bool cmd_number(const char *s, unsigned long long *v)
{
	char *end;

	if (!isdigit((unsigned char)*s) || strlen(s) > 20)
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return !errno && !*end;
}

/* Does W fit argument node N? Fills CANON (may be NULL) with its
 * canonical form, or ERR (may be NULL) with why not. */
bool cmd_arg_ok(const struct cmd_node *n, const char *w, char *canon,
                size_t clen, char *why, size_t wlen)
{
	unsigned long long v;
	uint64_t mask = 0;
	char msg[128];

	switch (n->type) {
	case CMD_TOK_KW:
		return false;
	case CMD_TOK_TEXT:
		break;
	case CMD_TOK_NAME:
		if (cmd_name_ok(w))
			break;
		if (why)
			snprintf(why, wlen,
			         "%% Invalid name '%s', expected 1-%d letters, "
			         "digits, '-', '_' or '.'",
			         w, POLICY_NAME_MAX - 1);
		return false;
	case CMD_TOK_IF:
	case CMD_TOK_ALIAS:
		if (cmd_ifname_ok(w))
			break;
		if (why)
			snprintf(why, wlen, "%% Invalid interface name '%s'",
			         w);
		return false;
	case CMD_TOK_RANGE:
		if (cmd_number(w, &v) && v >= n->lo && v <= n->hi) {
			if (canon)
				snprintf(canon, clen, "%llu", v);
			return true;
		}
		if (why)
			snprintf(why, wlen,
			         "%% Invalid value '%s', expected %llu-%llu", w,
			         n->lo, n->hi);
		return false;
	case CMD_TOK_LIST:
	case CMD_TOK_DSCP:
		if (!policy_list_parse(w, (unsigned)n->hi,
		                       n->type == CMD_TOK_DSCP, &mask, msg,
		                       sizeof(msg))) {
			if (canon)
				policy_list_format(mask, canon, clen);
			return true;
		}
		if (why) {
			msg[0] = (char)toupper((unsigned char)msg[0]);
			snprintf(why, wlen, "%% %s", msg);
		}
		return false;
	}
	if (canon)
		snprintf(canon, clen, "%s", w);
	return true;
}

/* 3: exact keyword, 2: keyword prefix, 1: argument, 0: no match. */
int cmd_score(const struct cmd_node *n, const char *w)
{
	size_t len = strlen(w);

	if (n->type != CMD_TOK_KW)
		return cmd_arg_ok(n, w, NULL, 0, NULL, 0) ? 1 : 0;
	if (len > n->len || strncmp(n->text, w, len))
		return 0;
	return len == n->len ? 3 : 2;
}

uint64_t cmd_candidates(const struct cmd_graph *g)
{
	uint64_t c = 0;

	if (!g->started)
		return g->first;
	for (size_t i = 0; i < g->n; i++)
		if (g->cur & (1ull << i))
			c |= g->node[i].next;
	return c;
}

/* Match word W (at byte POS) against every live graph. */
int cmd_expected(const struct cmd_graph *v, size_t ng, char *buf, size_t len)
{
	const struct cmd_node *seen[96];
	size_t ns = 0, total = 0, n = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < ng; k++) {
		uint64_t c = v[k].alive ? cmd_candidates(&v[k]) : 0;

		for (size_t i = 0; i < v[k].n; i++) {
			const struct cmd_node *nd = &v[k].node[i];
			bool dup = false;

			if (!(c & (1ull << i)))
				continue;
			for (size_t j = 0; j < ns && !dup; j++)
				dup = seen[j]->len == nd->len &&
				      !memcmp(seen[j]->text, nd->text, nd->len);
			if (dup)
				continue;
			total++;
			if (ns < sizeof(seen) / sizeof(*seen))
				seen[ns++] = nd;
		}
	}
	if (!total || total > 6)
		return (int)total;
	for (size_t j = 0; j < ns && n < len; j++)
		n += (size_t)snprintf(buf + n, len - n, "%s%.*s",
		                      !j            ? ""
		                      : j + 1 == ns ? " or "
		                                    : ", ",
		                      (int)seen[j]->len, seen[j]->text);
	return (int)total;
}

/* "% Invalid command" with what the position takes. */
static void cmd_fail_invalid(const struct cmd_graph *v, size_t ng,
                             const char *w, size_t pos, struct cmd_error *err)
{
	char exp[160];
	int n = cmd_expected(v, ng, exp, sizeof(exp));

	if (n > 0 && exp[0])
		cmd_fail(err, pos, "%% Invalid command at '%.40s', expected %s",
		         w, exp);
	else if (n > 0)
		cmd_fail(err, pos,
		         "%% Invalid command at '%.40s', expected one of %d "
		         "words of this mode ('?' lists them)",
		         w, n);
	else
		cmd_fail(err, pos,
		         "%% Invalid command at '%.40s', expected the end of "
		         "the line",
		         w);
}

int cmd_step(struct cmd_graph *v, size_t ng, const char *w, size_t pos,
             struct cmd_error *err)
{
	const struct cmd_node *kw = NULL, *arg = NULL;
	int best = 0;

	for (size_t k = 0; k < ng; k++) {
		uint64_t c = v[k].alive ? cmd_candidates(&v[k]) : 0;

		for (size_t i = 0; i < v[k].n; i++) {
			int s;

			if (!(c & (1ull << i)))
				continue;
			s = cmd_score(&v[k].node[i], w);
			if (!arg && v[k].node[i].type != CMD_TOK_KW)
				arg = &v[k].node[i];
			if (s > best)
				best = s;
		}
	}
	if (!best) {
		char why[sizeof(err->message)];

		if (arg) {
			cmd_arg_ok(arg, w, NULL, 0, why, sizeof(why));
			cmd_fail(err, pos, "%s", why);
		} else {
			cmd_fail_invalid(v, ng, w, pos, err);
		}
		return -1;
	}
	for (size_t k = 0; k < ng; k++) {
		uint64_t c = v[k].alive ? cmd_candidates(&v[k]) : 0, nc = 0;

		for (size_t i = 0; i < v[k].n; i++) {
			if (!(c & (1ull << i)) ||
			    cmd_score(&v[k].node[i], w) != best)
				continue;
			nc |= 1ull << i;
			if (best != 2)
				continue;
			if (kw &&
			    (kw->len != v[k].node[i].len ||
			     memcmp(kw->text, v[k].node[i].text, kw->len))) {
				cmd_fail(err, pos, "%% Ambiguous command");
				return -1;
			}
			kw = &v[k].node[i];
		}
		v[k].cur = nc;
		v[k].started = true;
		v[k].alive = nc != 0;
	}
	return 0;
}

void cmd_run_reset(struct cmd_graph *v, size_t ng)
{
	for (size_t k = 0; k < ng; k++) {
		v[k].cur = 0;
		v[k].started = false;
		v[k].alive = true;
	}
}

int cmd_run(struct cmd_graph *v, size_t ng, const struct cmd_words *w,
            size_t nwords, struct cmd_error *err)
{
	cmd_run_reset(v, ng);
	for (size_t i = 0; i < nwords; i++)
		if (cmd_step(v, ng, w->w[i], w->pos[i], err))
			return -1;
	return 0;
}
