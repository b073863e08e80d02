/* cmd: parsing a line, `?` and TAB, and carrying commands out, with the
 * NX-OS table (cmd_nxos.c) on the matching engine (cmd_graph.c). See
 * cmd.h for the language, cmd_int.h for the table's form and cmd_ctx.c
 * for modes and contexts.
 */
#include "cmd/cmd_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd_render.h"

/* --- the session's compiled commands --- */

struct cmd_graph *cmd_cache_mode(struct cmd_cache *c, enum cmd_mode m,
                                 bool session, size_t *n)
{
	if ((unsigned)m >= CMD_MODE_MAX)
		return NULL;
	if (!c->v[m]) {
		/* The NX-OS table and, after it, the checkpoint and session
		 * commands (cmd_ckpt.c): one set of graphs per mode, in one
		 * array the size of that mode's rows (a graph is 2 KB: not
		 * one for every row of the table, for each mode compiled). */
		struct cmd_graph *v =
		    calloc(cmd_graphs_max(&cmd_nxos, m) +
		               cmd_graphs_max(&cmd_ckpt, m) + 1,
		           sizeof(*v));
		size_t n1, n2;

		if (!v)
			return NULL;
		n1 = cmd_graphs(&cmd_nxos, m, v);
		n2 = cmd_graphs(&cmd_ckpt, m, v + n1);
		c->v[m] = v;
		c->n[m] = n1 + n2;
		c->nsess[m] = 0;
		for (size_t k = n1; k < n1 + n2; k++)
			if (v[k].def >=
			    cmd_ckpt.def + cmd_ckpt.n - CMD_CKPT_SESSION_ROWS)
				c->nsess[m]++;
	}
	*n = c->n[m] - (session ? 0 : c->nsess[m]);
	return c->v[m];
}

void cmd_cache_fini(struct cmd_cache *c)
{
	for (size_t m = 0; m < CMD_MODE_MAX; m++) {
		free(c->v[m]);
		c->v[m] = NULL;
		c->n[m] = 0;
		c->nsess[m] = 0;
	}
}

struct cmd_cache *cmd_cache_new(void)
{
	return calloc(1, sizeof(struct cmd_cache));
}

void cmd_cache_free(struct cmd_cache *c)
{
	if (!c)
		return;
	cmd_cache_fini(c);
	free(c);
}

/* The cache a call uses: CTX's, or LOCAL (zeroed here) for this call
 * alone, which the call frees with cmd_cache_fini. */
static struct cmd_cache *cmd_cache_of(const struct cmd_ctx *ctx,
                                      struct cmd_cache *local)
{
	memset(local, 0, sizeof(*local));
	return ctx->cache ? ctx->cache : local;
}

/* --- parsing --- */

/* Fill OUT from the words W matched by graph G alone. */
static int cmd_fill(struct cmd_graph *g, const struct cmd_words *w,
                    struct cmd_parsed *out, struct cmd_error *err)
{
	size_t off = 0, coff = 0;

	cmd_run_reset(g, 1);
	for (size_t i = 0; i < w->n; i++) {
		uint64_t c = cmd_candidates(g);
		const struct cmd_node *n = NULL;
		char canon[CMD_LINE_MAX];
		size_t len;

		if (cmd_step(g, 1, w->w[i], w->pos[i], err))
			return -1;
		for (size_t k = 0; k < g->n && !n; k++)
			if ((c & g->cur) & (1ull << k))
				n = &g->node[k];
		if (n->type == CMD_TOK_KW) {
			snprintf(canon, sizeof(canon), "%.*s", (int)n->len,
			         n->text);
		} else {
			cmd_arg_ok(n, w->w[i], canon, sizeof(canon), NULL, 0);
			out->argmask |= 1u << i;
		}
		len = strlen(canon);
		if (off + len + 1 > sizeof(out->store)) {
			cmd_fail(err, w->pos[i], "%% Line too long");
			return -1;
		}
		memcpy(out->store + off, canon, len + 1);
		out->argv[i] = out->store + off;
		out->pos[i] = w->pos[i];
		out->tok[i] = (unsigned char)n->type;
		off += len + 1;
		coff += (size_t)snprintf(
		    out->canon + coff,
		    coff < sizeof(out->canon) ? sizeof(out->canon) - coff : 0,
		    "%s%s", i ? " " : "", canon);
	}
	out->argc = w->n;
	out->def = g->def;
	out->kind = g->def->kind;
	out->name = g->def->name;
	out->negated = !strcmp(out->argv[0], "no");
	out->json = g->def->kind == CMD_KIND_SHOW &&
	            !(out->argmask & (1u << (w->n - 1))) &&
	            !strcmp(out->argv[w->n - 1], "json");
	return 0;
}

/* Parse W in mode M alone, on the graphs of CACHE. */
static int cmd_parse_mode(struct cmd_cache *cache, enum cmd_mode m,
                          bool session, const struct cmd_words *w,
                          struct cmd_parsed *out, struct cmd_error *err)
{
	struct cmd_graph *v;
	size_t ng;
	int rc = -1;

	v = cmd_cache_mode(cache, m, session, &ng);
	if (!v) {
		cmd_fail(err, 0, "%% Out of memory");
		return -1;
	}
	if (!cmd_run(v, ng, w, w->n, err)) {
		size_t k;

		for (k = 0; k < ng; k++)
			if (v[k].alive && (v[k].cur & v[k].last))
				break;
		if (k < ng) {
			rc = cmd_fill(&v[k], w, out, err);
		} else {
			char exp[160];

			if (cmd_expected(v, ng, exp, sizeof(exp)) > 0 && exp[0])
				cmd_fail(err, w->end + 1,
				         "%% Incomplete command, expected %s",
				         exp);
			else
				cmd_fail(err, w->end + 1,
				         "%% Incomplete command");
		}
	}
	return rc;
}

int cmd_parse(const struct cmd_ctx *ctx, const char *line,
              struct cmd_parsed *out, struct cmd_error *err)
{
	struct cmd_words *w = malloc(sizeof(*w));
	enum cmd_mode m = ctx->mode;
	size_t depth = ctx->depth;
	struct cmd_cache local, *cache = cmd_cache_of(ctx, &local);
	struct cmd_error best = {"", 0}, e;
	bool have = false;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	memset(err, 0, sizeof(*err));
	out->name = "";
	out->kind = CMD_KIND_MODE;
	out->mode = m;
	out->depth = depth;
	if (!w) {
		cmd_fail(err, 0, "%% Out of memory");
		return -1;
	}
	if (cmd_split(line, w, err))
		goto out;
	if (!w->n || w->w[0][0] == '!') {
		/* Nothing, or a comment. A `!` in the first column separates
		 * top-level blocks, as in NX-OS configurations: it leaves the
		 * submodes, so that a pasted global command after an
		 * interface block is global (conf/nxos-roce.txt ends so).
		 */
		if (w->n && !w->pos[0]) {
			out->name = "!";
			if (m != CMD_MODE_EXEC) {
				out->mode = CMD_MODE_CONFIG;
				out->depth = 0;
			}
		}
		rc = 0;
		goto out;
	}
	/* Innermost mode first, then the enclosing ones; the error shown
	 * is the one that got furthest into the line. */
	for (;;) {
		if (!cmd_parse_mode(cache, m, ctx->session, w, out, &e)) {
			out->mode = m;
			out->depth = depth;
			rc = 0;
			goto out;
		}
		if (!have || e.pos > best.pos)
			best = e;
		have = true;
		if (m == CMD_MODE_EXEC || m == CMD_MODE_CONFIG || !depth)
			break;
		m = cmd_mode_parent(m);
		depth--;
	}
	memset(out, 0, sizeof(*out));
	out->name = "";
	*err = best;
out:
	cmd_cache_fini(&local);
	free(w);
	return rc;
}

/* --- ? and TAB --- */

/* Calls FN for each existing name of kind K in KNOWN. */
static void cmd_known(const struct policy *known, enum cmd_names k,
                      void (*fn)(void *arg, const char *name, const char *what),
                      void *arg)
{
	bool cq = k == CMD_NAMES_CMAP_QOS || k == CMD_NAMES_QCLASS ||
	          k == CMD_NAMES_CMAP;
	bool cn = k == CMD_NAMES_CMAP_NQOS || k == CMD_NAMES_CMAP;
	bool pq = k == CMD_NAMES_PMAP_QOS || k == CMD_NAMES_PMAP;
	bool pu = k == CMD_NAMES_PMAP_QUE || k == CMD_NAMES_PMAP;
	bool pn = k == CMD_NAMES_PMAP_NQOS || k == CMD_NAMES_PMAP;

	if (k == CMD_NAMES_QCLASS)
		fn(arg, POLICY_CLASS_DEFAULT, "Built-in class matching all");
	if (!known)
		return;
	for (size_t i = 0; cq && i < known->nclass_qos; i++)
		fn(arg, known->class_qos[i].name, "class-map type qos");
	for (size_t i = 0; cn && i < known->nclass_nq; i++)
		fn(arg, known->class_nq[i].name, "class-map type network-qos");
	for (size_t i = 0; pq && i < known->nmap_qos; i++)
		fn(arg, known->map_qos[i].name, "policy-map type qos");
	for (size_t i = 0; pu && i < known->nmap_queuing; i++)
		fn(arg, known->map_queuing[i].name, "policy-map type queuing");
	for (size_t i = 0; pn && i < known->nmap_nq; i++)
		fn(arg, known->map_nq[i].name, "policy-map type network-qos");
	for (size_t i = 0; k == CMD_NAMES_IF && i < known->nifaces; i++) {
		if (known->ifaces[i].name[0])
			fn(arg, known->ifaces[i].name, "Configured interface");
		if (known->ifaces[i].alias[0])
			fn(arg, known->ifaces[i].alias, "NX-OS alias");
	}
}

#define CMD_ITEMS_MAX 96

struct cmd_items {
	struct cmd_render_item v[CMD_ITEMS_MAX];
	char tok[CMD_ITEMS_MAX][CMD_WORD_MAX];
	char help[CMD_ITEMS_MAX][128];
	bool arg[CMD_ITEMS_MAX];
	size_t n;
	const char *prefix; /* the partial word; "" for all */
};

static void cmd_items_add(struct cmd_items *it, const char *tok, size_t tlen,
                          const char *help, size_t hlen, bool arg)
{
	for (size_t i = 0; i < it->n; i++)
		if (strlen(it->tok[i]) == tlen &&
		    !memcmp(it->tok[i], tok, tlen))
			return;
	if (it->n == CMD_ITEMS_MAX || tlen >= CMD_WORD_MAX)
		return;
	snprintf(it->tok[it->n], CMD_WORD_MAX, "%.*s", (int)tlen, tok);
	snprintf(it->help[it->n], sizeof(it->help[0]), "%.*s", (int)hlen, help);
	it->arg[it->n] = arg;
	it->n++;
}

static void cmd_items_known(void *arg, const char *name, const char *what)
{
	struct cmd_items *it = arg;

	if (!strncmp(name, it->prefix, strlen(it->prefix)))
		cmd_items_add(it, name, strlen(name), what, strlen(what),
		              false);
}

/* The candidates for the next word, filtered by IT->prefix. With
 * ARGS, arguments appear as their `?` display ("<0-7>"); without, only
 * words that TAB could insert are listed. */
static void cmd_items_collect(struct cmd_graph *v, size_t ng,
                              const struct policy *known, bool args,
                              struct cmd_items *it)
{
	size_t plen = strlen(it->prefix);

	for (size_t k = 0; k < ng; k++) {
		uint64_t c = v[k].alive ? cmd_candidates(&v[k]) : 0;

		for (size_t i = 0; i < v[k].n; i++) {
			const struct cmd_node *n = &v[k].node[i];

			if (!(c & (1ull << i)))
				continue;
			if (n->type == CMD_TOK_KW) {
				if (plen <= n->len &&
				    !strncmp(n->text, it->prefix, plen))
					cmd_items_add(it, n->text, n->len,
					              n->help, n->helplen,
					              false);
				continue;
			}
			if (args && (!plen || cmd_score(n, it->prefix)))
				cmd_items_add(it, n->text, n->len, n->help,
				              n->helplen, true);
			if (n->type == CMD_TOK_DSCP)
				for (unsigned d = 0; d < 64; d++) {
					const char *nm = policy_dscp_name(d);
					char h[32];

					if (!nm ||
					    strncmp(nm, it->prefix, plen))
						continue;
					snprintf(h, sizeof(h), "DSCP %u", d);
					cmd_items_add(it, nm, strlen(nm), h,
					              strlen(h), false);
				}
			if (n->names != CMD_NAMES_NONE)
				cmd_known(known, n->names, cmd_items_known, it);
		}
	}
}

static int cmd_items_cmp(const void *a, const void *b)
{
	const struct cmd_render_item *x = a, *y = b;

	return strcmp(x->token, y->token);
}

/* Match all but the partial last word of LINE in CTX's mode. Returns the
 * graphs of CACHE with their state after those words. */
static struct cmd_graph *cmd_prefix(const struct cmd_ctx *ctx,
                                    struct cmd_cache *cache, const char *line,
                                    struct cmd_words *w, size_t *ng,
                                    const char **partial, struct cmd_error *err)
{
	struct cmd_graph *v;
	size_t full;

	if (cmd_split(line, w, err))
		return NULL;
	full = w->open ? w->n - 1 : w->n;
	*partial = w->open ? w->w[w->n - 1] : "";
	v = cmd_cache_mode(cache, ctx->mode, ctx->session, ng);
	if (!v) {
		cmd_fail(err, 0, "%% Out of memory");
		return NULL;
	}
	if (cmd_run(v, *ng, w, full, err))
		return NULL;
	return v;
}

int cmd_help_checked(const struct cmd_ctx *ctx, const struct policy *known,
                     const char *line, struct strbuf *out,
                     struct cmd_error *err)
{
	struct cmd_words *w = malloc(sizeof(*w));
	struct cmd_items *it = malloc(sizeof(*it));
	struct cmd_render_item sorted[CMD_ITEMS_MAX];
	struct cmd_cache local, *cache = cmd_cache_of(ctx, &local);
	struct cmd_graph *v = NULL;
	size_t ng = 0, na = 0, nk = 0;
	const char *partial;
	bool cr = false;

	memset(err, 0, sizeof(*err));
	if (!w || !it) {
		cmd_fail(err, 0, "%% Out of memory");
		goto fail;
	}
	v = cmd_prefix(ctx, cache, line, w, &ng, &partial, err);
	if (!v)
		goto fail;
	it->n = 0;
	it->prefix = partial;
	cmd_items_collect(v, ng, known, true, it);
	for (size_t k = 0; !*partial && k < ng; k++) {
		bool end = v[k].alive && v[k].started && (v[k].cur & v[k].last);

		cr |= end;
		/* A complete show command may go on with rocesh's output
		 * filters, as on NX-OS. */
		if (end && v[k].def->kind == CMD_KIND_SHOW)
			cmd_items_add(it, "|", 1, CMD_HELP_PIPE,
			              strlen(CMD_HELP_PIPE), false);
	}
	/* Arguments first, in table order, then words alphabetically. */
	for (size_t i = 0; i < it->n; i++)
		if (it->arg[i])
			na++;
	for (size_t i = 0, ai = 0; i < it->n; i++) {
		struct cmd_render_item *d =
		    it->arg[i] ? &sorted[ai++] : &sorted[na + nk++];

		d->token = it->tok[i];
		d->help = it->help[i];
	}
	qsort(sorted + na, it->n - na, sizeof(*sorted), cmd_items_cmp);
	cmd_render_listing(sorted, it->n, cr, out);
	cmd_cache_fini(&local);
	free(w);
	free(it);
	return 0;
fail:
	cmd_cache_fini(&local);
	free(w);
	free(it);
	return -1;
}

void cmd_help(const struct cmd_ctx *ctx, const struct policy *known,
              const char *line, struct strbuf *out)
{
	struct cmd_error err;

	if (cmd_help_checked(ctx, known, line, out, &err))
		strbuf_printf(out, "%s\n", err.message);
}

size_t cmd_complete(const struct cmd_ctx *ctx, const struct policy *known,
                    const char *line, char (*words)[CMD_WORD_MAX], size_t max)
{
	struct cmd_words *w = malloc(sizeof(*w));
	struct cmd_items *it = malloc(sizeof(*it));
	struct cmd_render_item sorted[CMD_ITEMS_MAX];
	struct cmd_cache local, *cache = cmd_cache_of(ctx, &local);
	struct cmd_graph *v = NULL;
	struct cmd_error err;
	const char *partial;
	size_t ng, n = 0;

	if (!w || !it)
		goto out;
	v = cmd_prefix(ctx, cache, line, w, &ng, &partial, &err);
	if (!v)
		goto out;
	it->n = 0;
	it->prefix = partial;
	cmd_items_collect(v, ng, known, false, it);
	for (size_t i = 0; i < it->n; i++) {
		sorted[i].token = it->tok[i];
		sorted[i].help = "";
	}
	qsort(sorted, it->n, sizeof(*sorted), cmd_items_cmp);
	for (n = 0; n < it->n && n < max; n++)
		snprintf(words[n], CMD_WORD_MAX, "%s", sorted[n].token);
out:
	cmd_cache_fini(&local);
	free(w);
	free(it);
	return n;
}

/* --- execution --- */

/* A line typed in the mode of `interface RANGE` or of a list: carried out
 * on every member in turn (each as if in its own interface mode) on a
 * copy of POLICY, which replaces it only when every member took the
 * line. */
static int cmd_exec_list(struct policy *policy, struct cmd_exec_arg *x,
                         const char *spec)
{
	char(*m)[POLICY_ALIAS_MAX] = calloc(POLICY_IF_RANGE_MAX, sizeof(*m));
	struct cmd_ctx member = *x->ctx;
	int n, rc = 0;
	struct policy tmp;

	if (!m || policy_copy(&tmp, policy) < 0) {
		free(m);
		cmd_fail(x->err, 0, "%% Out of memory");
		return -1;
	}
	n = policy_ifname_expand(spec, m, POLICY_IF_RANGE_MAX);
	if (n <= 0) {
		cmd_fail(x->err, 0, "%% Invalid interface range %s", spec);
		rc = -1;
	}
	x->p = &tmp;
	x->ctx = &member;
	for (int k = 0; !rc && k < n; k++) {
		snprintf(member.path[0], sizeof(member.path[0]), "interface %s",
		         m[k]);
		rc = x->pa->def->exec(x);
		if (rc) {
			char why[sizeof(x->err->message)];

			/* "% interface swp2: ..." */
			snprintf(why, sizeof(why), "%s", x->err->message);
			cmd_fail(x->err, x->err->pos, "%% interface %s: %s",
			         m[k], why[0] == '%' ? why + 2 : why);
		}
	}
	free(m);
	if (rc) {
		policy_free(&tmp);
		return -1;
	}
	policy_free(policy);
	*policy = tmp;
	return 0;
}

/* A line typed in the mode of `interface port-channelN`: kept for the
 * members that join later (channel-group), and carried out on each
 * present member, as if typed in its own interface mode, on a copy of
 * POLICY that replaces it only when every member took the line. Its
 * description stays the port-channel's. */
static int cmd_exec_pc(struct policy *policy, struct cmd_exec_arg *x,
                       const char *pc)
{
	struct cmd_ctx member = *x->ctx;
	struct policy tmp;
	unsigned n = 0;
	int rc = 0;

	cmd_nx_port_channel(pc, &n);
	if (!strncmp(x->pa->canon, "description", 11) ||
	    !strncmp(x->pa->canon, "no description", 14))
		return 0;
	if (policy_copy(&tmp, policy) < 0) {
		cmd_fail(x->err, 0, "%% Out of memory");
		return -1;
	}
	x->p = &tmp;
	if (cmd_nx_profile_keep(x)) {
		policy_free(&tmp);
		return -1;
	}
	x->ctx = &member;
	for (size_t k = 0; !rc && k < tmp.nifaces; k++) {
		const struct policy_iface *i = &tmp.ifaces[k];

		if (i->channel_group != n)
			continue;
		snprintf(member.path[0], sizeof(member.path[0]), "interface %s",
		         i->alias[0] ? i->alias : i->name);
		rc = x->pa->def->exec(x);
		if (rc) {
			char why[sizeof(x->err->message)];

			snprintf(why, sizeof(why), "%s", x->err->message);
			cmd_fail(x->err, x->err->pos,
			         "%% %s: its member interface %s: %s", pc,
			         i->alias[0] ? i->alias : i->name,
			         why[0] == '%' ? why + 2 : why);
		}
	}
	if (rc) {
		policy_free(&tmp);
		return -1;
	}
	policy_free(policy);
	*policy = tmp;
	return 0;
}

/* The interface mode of a name that is not one port (cmd_nx_interface):
 * an NX-OS kind without QoS, whose lines are ignored with a note, or a
 * range or list. Returns 1 when the line was not for one port (carried
 * out, or -1 with ERR), 0 to carry it out as usual. */
static int cmd_exec_if(struct policy *policy, struct cmd_exec_arg *x)
{
	unsigned long first, last;
	char obj[sizeof(x->ctx->path[0])];
	size_t plen;

	if (x->pa->kind != CMD_KIND_CONFIG || x->ctx->mode != CMD_MODE_IF ||
	    !cmd_ctx_object(x->ctx, 0, obj, sizeof(obj)) ||
	    policy_find_iface(policy, obj))
		return 0;
	if (cmd_nx_port_channel(obj, NULL))
		return cmd_exec_pc(policy, x, obj) ? -1 : 1;
	if (policy_ifname_not_port(obj)) {
		cmd_fail(x->err, 0,
		         "%% ignored: interface %s is not a QoS port", obj);
		return 1;
	}
	if (!strchr(obj, ',') &&
	    policy_ifname_range(obj, &plen, &first, &last) != 0)
		return 0;
	return cmd_exec_list(policy, x, obj) ? -1 : 1;
}

/* `inherit port-profile NAME` in C (an interface, a range or a list):
 * each line the profile keeps, carried out there as if typed, in order.
 * The first that fails names itself; POLICY then holds the lines before
 * it (cmd_apply_line throws its copy away). */
static int cmd_exec_inherit(struct policy *policy, struct cmd_ctx *c,
                            const struct cmd_parsed *p, const char *name,
                            struct cmd_error *err)
{
	const struct policy_port_profile *pp =
	    policy_find_port_profile(policy, name);
	struct cmd_parsed *sub = malloc(sizeof(*sub));
	size_t n = pp ? pp->nlines : 0;
	int rc = 0;

	if (!sub) {
		cmd_fail(err, 0, "%% Out of memory");
		return -1;
	}
	for (size_t k = 0; !rc && k < n; k++) {
		/* the profile may move as lines change the policy */
		char line[POLICY_PROFILE_LINE_MAX];
		struct cmd_ctx here = *c;

		pp = policy_find_port_profile(policy, name);
		if (!pp || k >= pp->nlines)
			break;
		snprintf(line, sizeof(line), "%s", pp->lines[k]);
		rc = cmd_parse(&here, line, sub, err);
		if (!rc && sub->mode != CMD_MODE_IF) {
			cmd_fail(err, 0, "%% not an interface line");
			rc = -1;
		}
		if (!rc)
			rc = cmd_exec(policy, &here, sub, err);
		if (rc) {
			char why[sizeof(err->message)];

			snprintf(why, sizeof(why), "%s", err->message);
			cmd_fail(err, p->pos[0], "%% %s%s: '%s': %s",
			         strncmp(name, "port-channel", 12)
			             ? "inherit port-profile "
			             : "",
			         name, line, why[0] == '%' ? why + 2 : why);
		}
	}
	free(sub);
	return rc;
}

int cmd_exec(struct policy *policy, struct cmd_ctx *ctx,
             const struct cmd_parsed *p, struct cmd_error *err)
{
	int rc;

	struct cmd_exec_arg x;
	struct cmd_ctx c;

	memset(err, 0, sizeof(*err));
	if (!p->argc) {
		if (!strcmp(p->name, "!") && p->mode == CMD_MODE_CONFIG) {
			cmd_ctx_reset(ctx);
			ctx->mode = CMD_MODE_CONFIG;
		}
		return 0;
	}
	if (!p->def || !p->def->exec) {
		cmd_fail(err, 0, "%% '%s' is not a configuration command",
		         p->canon);
		return -1;
	}
	if (!policy && p->kind != CMD_KIND_MODE) {
		cmd_fail(err, 0, "%% No configuration to change");
		return -1;
	}
	/* Leave the submodes the command does not belong to, on a copy:
	 * a refused line leaves the session where it was. */
	c = *ctx;
	c.mode = p->mode;
	c.depth = p->depth;
	x.p = policy;
	x.ctx = &c;
	x.pa = p;
	x.err = err;
	/* An interface line in a port profile is kept there. */
	if (p->mode == CMD_MODE_PORT_PROF && p->kind == CMD_KIND_CONFIG &&
	    (p->def->modes & CMD_M(CMD_MODE_IF))) {
		if (!policy || cmd_nx_profile_keep(&x)) {
			if (!err->pos)
				err->pos = p->pos[0];
			return -1;
		}
		*ctx = c;
		return 0;
	}
	if (policy && p->def->exec == cmd_nx_channel_group) {
		/* The membership on each port of the mode, then the
		 * port-channel's lines carried out there, as it inherits
		 * them on NX-OS. */
		char pc[32];

		rc = cmd_exec_if(policy, &x);
		if (rc == 0)
			rc = cmd_nx_channel_group(&x) ? -1 : 0;
		else if (rc > 0)
			rc = 0;
		snprintf(pc, sizeof(pc), "port-channel%s",
		         p->negated ? "" : cmd_arg(p, 0, NULL));
		if (!rc && !p->negated)
			rc = cmd_exec_inherit(policy, &c, p, pc, err);
		if (rc) {
			if (!err->pos)
				err->pos = p->pos[0];
			return -1;
		}
		*ctx = c;
		return 0;
	}
	if (policy && p->def->exec == cmd_nx_inherit) {
		if (cmd_nx_inherit(&x) ||
		    cmd_exec_inherit(policy, &c, p, cmd_arg(p, 0, NULL), err)) {
			if (!err->pos)
				err->pos = p->pos[0];
			return -1;
		}
		*ctx = c;
		return 0;
	}
	rc = policy ? cmd_exec_if(policy, &x) : 0;
	if (rc > 0) {
		*ctx = c;
		return 0;
	}
	if (rc < 0 || p->def->exec(&x)) {
		/* A refusal about the line as a whole points at its start. */
		if (!err->pos)
			err->pos = p->pos[0];
		return -1;
	}
	*ctx = c;
	return 0;
}

int cmd_apply_line(struct policy *policy, struct cmd_ctx *ctx, const char *line,
                   struct cmd_error *err)
{
	struct cmd_parsed *pa = malloc(sizeof(*pa));
	struct cmd_cache local;
	struct policy tmp;
	struct cmd_ctx c;
	int rc = -1;

	memset(err, 0, sizeof(*err));
	if (!pa || policy_copy(&tmp, policy)) {
		free(pa);
		cmd_fail(err, 0, "%% Out of memory");
		return -1;
	}
	cmd_ctx_init(&c);
	/* Without the session's graphs, the re-entered lines and LINE share
	 * this call's. */
	c.cache = cmd_cache_of(ctx, &local);
	if (ctx->mode != CMD_MODE_EXEC || ctx->depth)
		c.mode = CMD_MODE_CONFIG;
	for (size_t i = 0; i < ctx->depth && i < CMD_DEPTH_MAX; i++) {
		struct cmd_error e;

		if (cmd_parse(&c, ctx->path[i], pa, &e) ||
		    cmd_exec(&tmp, &c, pa, &e)) {
			cmd_fail(err, 0, "%% Cannot re-enter '%s': %s",
			         ctx->path[i], e.message + 2);
			goto out;
		}
	}
	if (cmd_parse(&c, line, pa, err))
		goto out;
	if (pa->kind == CMD_KIND_SHOW || pa->kind == CMD_KIND_ACTION) {
		cmd_fail(err, 0, "%% '%s' is not a configuration command",
		         pa->canon);
		goto out;
	}
	if (cmd_exec(&tmp, &c, pa, err))
		goto out;
	policy_free(policy);
	*policy = tmp;
	c.cache = ctx->cache;
	*ctx = c;
	rc = 0;
out:
	if (rc)
		policy_free(&tmp);
	cmd_cache_fini(&local);
	free(pa);
	return rc;
}
