/* cmd_nxos_maps: what the class-map and policy-map commands of the NX-OS
 * table (cmd_nxos.c) do to a policy. The rules of cmd_nxos.c hold here:
 * check before changing, enter creates, `no` of what is absent is an
 * error, undefined names are refused with a caret under them.
 */
#include "cmd/cmd_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/units.h"

/* The policy_find_* lookups are const; the CLI owns the policy it
 * changes, so their results may be written through. */
#define NX_MUT(type, expr) ((type *)(expr))

/* ---- class-maps ---- */

/* Where NAME is used as a class, for the "in use" refusal. */
static const char *cmd_nx_cmap_user(const struct policy *p, const char *name,
                                    bool nq)
{
	for (size_t i = 0; !nq && i < p->nmap_qos; i++)
		for (size_t r = 0; r < p->map_qos[i].nrules; r++)
			if (!strcmp(p->map_qos[i].rules[r].class_name, name))
				return p->map_qos[i].name;
	for (size_t i = 0; nq && i < p->nmap_nq; i++)
		for (size_t r = 0; r < p->map_nq[i].nrules; r++)
			if (!strcmp(p->map_nq[i].rules[r].class_name, name))
				return p->map_nq[i].name;
	return NULL;
}

static int cmd_nx_builtin(struct cmd_exec_arg *x, const char *name, size_t pos,
                          const char *builtin)
{
	if (strcmp(name, builtin))
		return 0;
	cmd_fail(x->err, pos, "%% %s is built in and cannot be configured",
	         name);
	return -1;
}

int cmd_nx_cmap_qos(struct cmd_exec_arg *x)
{
	size_t pos;
	const char *name = cmd_arg(x->pa, 0, &pos);
	struct policy_class_qos *c =
	    NX_MUT(struct policy_class_qos, policy_find_class_qos(x->p, name));
	const char *user;

	if (cmd_nx_builtin(x, name, pos, POLICY_CLASS_DEFAULT))
		return -1;
	if (x->pa->negated) {
		if (!c) {
			cmd_fail(x->err, pos,
			         "%% class-map type qos %s does not exist",
			         name);
			return -1;
		}
		user = cmd_nx_cmap_user(x->p, name, false);
		if (user) {
			cmd_fail(x->err, pos,
			         "%% class-map %s is in use by policy-map type "
			         "qos %s",
			         name, user);
			return -1;
		}
		cmd_nx_remove(x->p->class_qos, &x->p->nclass_qos, sizeof(*c),
		              (size_t)(c - x->p->class_qos));
		return 0;
	}
	if (!c) {
		c = policy_add_class_qos(x->p, name);
		if (!c)
			return cmd_nx_oom(x);
		c->match = POLICY_MATCH_ALL; /* the NX-OS default */
	}
	/* The match mode is changed only when stated. */
	if (cmd_has(x->pa, "match-any", NULL))
		c->match = POLICY_MATCH_ANY;
	else if (cmd_has(x->pa, "match-all", NULL))
		c->match = POLICY_MATCH_ALL;
	return cmd_nx_enter(x, CMD_MODE_CMAP_QOS, x->pa->canon);
}

int cmd_nx_cmap_nqos(struct cmd_exec_arg *x)
{
	size_t pos;
	const char *name = cmd_arg(x->pa, 0, &pos);
	struct policy_class_nq *c =
	    NX_MUT(struct policy_class_nq, policy_find_class_nq(x->p, name));
	const char *user;

	if (policy_nq_system_parse(name) >= 0) {
		cmd_fail(x->err, pos,
		         "%% %s is a system-defined class, built in and "
		         "cannot be configured: use it in the policy-map as "
		         "it is",
		         name);
		return -1;
	}
	if (x->pa->negated) {
		if (!c) {
			cmd_fail(x->err, pos,
			         "%% class-map type network-qos %s does not "
			         "exist",
			         name);
			return -1;
		}
		user = cmd_nx_cmap_user(x->p, name, true);
		if (user) {
			cmd_fail(x->err, pos,
			         "%% class-map %s is in use by policy-map type "
			         "network-qos %s",
			         name, user);
			return -1;
		}
		cmd_nx_remove(x->p->class_nq, &x->p->nclass_nq, sizeof(*c),
		              (size_t)(c - x->p->class_nq));
		return 0;
	}
	if (!c && !policy_add_class_nq(x->p, name))
		return cmd_nx_oom(x);
	return cmd_nx_enter(x, CMD_MODE_CMAP_NQOS, x->pa->canon);
}

/* `match cos|dscp|qos-group LIST` adds values (and `pause pfc-cos`, whose
 * caller starts from an empty set); the `no` form removes the values
 * given, or the whole statement. WHAT names the statement. */
static int cmd_nx_match_values(struct cmd_exec_arg *x, uint64_t *set,
                               unsigned max, bool dscp, const char *what)
{
	size_t pos = 0, at;
	const char *list = cmd_arg(x->pa, 0, &pos), *item;
	uint64_t mask = 0;
	char msg[128], have[200];

	/* `match dscp 26 28` is `match dscp 26,28`. */
	for (size_t k = 0; (item = cmd_arg(x->pa, k, &at)); k++) {
		uint64_t one = 0;

		if (policy_list_parse(item, max, dscp, &one, msg,
		                      sizeof(msg))) {
			cmd_fail(x->err, at, "%% %s", msg);
			return -1;
		}
		mask |= one;
	}
	if (!x->pa->negated) {
		*set |= mask;
		return 0;
	}
	if (!list)
		mask = *set;
	if (!*set) {
		cmd_fail(x->err, 0, "%% %s is not configured", what);
		return -1;
	}
	if ((*set & mask) != mask) {
		char want[200];

		policy_list_format(*set, have, sizeof(have));
		policy_list_format(mask, want, sizeof(want));
		cmd_fail(x->err, pos, "%% %s %s is not configured (only %s)",
		         what, want, have);
		return -1;
	}
	*set &= ~mask;
	return 0;
}

int cmd_nx_match_cos(struct cmd_exec_arg *x)
{
	char name[CMD_WORD_MAX];
	struct policy_class_qos *c = NX_MUT(
	    struct policy_class_qos,
	    policy_find_class_qos(x->p, cmd_nx_obj(x, 0, name, sizeof(name))));
	uint64_t v;
	int rc;

	if (!c)
		return cmd_nx_gone(x, "class-map type qos", name);
	v = c->cos;
	rc = cmd_nx_match_values(x, &v, 7, false, "match cos");
	c->cos = (uint8_t)v;
	return rc;
}

int cmd_nx_match_dscp(struct cmd_exec_arg *x)
{
	char name[CMD_WORD_MAX];
	struct policy_class_qos *c = NX_MUT(
	    struct policy_class_qos,
	    policy_find_class_qos(x->p, cmd_nx_obj(x, 0, name, sizeof(name))));

	if (!c)
		return cmd_nx_gone(x, "class-map type qos", name);
	return cmd_nx_match_values(x, &c->dscp, 63, true, "match dscp");
}

int cmd_nx_match_qos_group(struct cmd_exec_arg *x)
{
	char name[CMD_WORD_MAX];
	struct policy_class_nq *c = NX_MUT(
	    struct policy_class_nq,
	    policy_find_class_nq(x->p, cmd_nx_obj(x, 0, name, sizeof(name))));
	uint64_t v;
	int rc;

	/* in `class-map type queuing NAME`: the queue it names */
	if (!strncmp(x->ctx->path[0], "class-map type queuing ", 23)) {
		struct policy_qclass *q = NX_MUT(
		    struct policy_qclass, policy_find_qclass(x->p, name));

		if (!q)
			return cmd_nx_gone(x, "class-map type queuing", name);
		v = q->qos_groups;
		rc = cmd_nx_match_values(x, &v, 7, false, "match qos-group");
		q->qos_groups = (uint8_t)v;
		if (!rc && __builtin_popcount(q->qos_groups) > 1) {
			cmd_fail(
			    x->err, 0,
			    "%% class-map type queuing %s names one queue: "
			    "one qos-group",
			    name);
			return -1;
		}
		return rc;
	}

	if (!c)
		return cmd_nx_gone(x, "class-map type network-qos", name);
	v = c->qos_groups;
	rc = cmd_nx_match_values(x, &v, 7, false, "match qos-group");
	c->qos_groups = (uint8_t)v;
	return rc;
}

/* ---- policy-maps ---- */

/* Where a policy-map is attached, for the "in use" refusal. */
static const char *cmd_nx_pmap_user(const struct policy *p, const char *name,
                                    char type)
{
	const struct policy_system *s = &p->system;

	if ((type == 'q' && !strcmp(s->qos_input, name)) ||
	    (type == 'u' && !strcmp(s->queuing_output, name)) ||
	    (type == 'u' && !strcmp(s->queuing_input, name)) ||
	    (type == 'n' && !strcmp(s->network_qos, name)))
		return "system qos";
	for (size_t i = 0; i < p->nifaces; i++)
		if ((type == 'q' && !strcmp(p->ifaces[i].qos_input, name)) ||
		    (type == 'u' &&
		     !strcmp(p->ifaces[i].queuing_output, name)) ||
		    (type == 'u' && !strcmp(p->ifaces[i].queuing_input, name)))
			return p->ifaces[i].name;
	return NULL;
}

static int cmd_nx_pmap_in_use(struct cmd_exec_arg *x, const char *name,
                              size_t pos, char type)
{
	const char *user = cmd_nx_pmap_user(x->p, name, type);

	if (!user)
		return 0;
	cmd_fail(x->err, pos, "%% policy-map %s is attached to %s%s", name,
	         strcmp(user, "system qos") ? "interface " : "", user);
	return -1;
}

int cmd_nx_pmap_qos(struct cmd_exec_arg *x)
{
	size_t pos;
	const char *name = cmd_arg(x->pa, 0, &pos);
	struct policy_map_qos *m =
	    NX_MUT(struct policy_map_qos, policy_find_map_qos(x->p, name));

	if (x->pa->negated) {
		if (!m)
			return cmd_nx_pmap_missing(x, "qos", name, pos);
		if (cmd_nx_pmap_in_use(x, name, pos, 'q'))
			return -1;
		free(m->rules);
		cmd_nx_remove(x->p->map_qos, &x->p->nmap_qos, sizeof(*m),
		              (size_t)(m - x->p->map_qos));
		return 0;
	}
	if (!m && !policy_add_map_qos(x->p, name))
		return cmd_nx_oom(x);
	return cmd_nx_enter(x, CMD_MODE_PMAP_QOS, x->pa->canon);
}

int cmd_nx_pmap_que(struct cmd_exec_arg *x)
{
	size_t pos;
	const char *name = cmd_arg(x->pa, 0, &pos);
	struct policy_map_queuing *m = NX_MUT(
	    struct policy_map_queuing, policy_own_map_queuing(x->p, name));

	if (x->pa->negated) {
		if (!m)
			return cmd_nx_pmap_missing(x, "queuing", name, pos);
		if (cmd_nx_pmap_in_use(x, name, pos, 'u'))
			return -1;
		cmd_nx_remove(x->p->map_queuing, &x->p->nmap_queuing,
		              sizeof(*m), (size_t)(m - x->p->map_queuing));
		return 0;
	}
	if (!m && !policy_add_map_queuing(x->p, name))
		return cmd_nx_oom(x);
	return cmd_nx_enter(x, CMD_MODE_PMAP_QUE, x->pa->canon);
}

int cmd_nx_pmap_nqos(struct cmd_exec_arg *x)
{
	size_t pos;
	const char *name = cmd_arg(x->pa, 0, &pos);
	struct policy_map_nq *m =
	    NX_MUT(struct policy_map_nq, policy_find_map_nq(x->p, name));

	if (x->pa->negated) {
		if (!m)
			return cmd_nx_pmap_missing(x, "network-qos", name, pos);
		if (cmd_nx_pmap_in_use(x, name, pos, 'n'))
			return -1;
		free(m->rules);
		cmd_nx_remove(x->p->map_nq, &x->p->nmap_nq, sizeof(*m),
		              (size_t)(m - x->p->map_nq));
		return 0;
	}
	if (!m && !policy_add_map_nq(x->p, name))
		return cmd_nx_oom(x);
	return cmd_nx_enter(x, CMD_MODE_PMAP_NQOS, x->pa->canon);
}

/* policy-map type qos: `class NAME` */
static struct policy_map_qos *cmd_nx_ctx_pmap_qos(struct cmd_exec_arg *x)
{
	char name[CMD_WORD_MAX];
	struct policy_map_qos *m = NX_MUT(
	    struct policy_map_qos,
	    policy_find_map_qos(x->p, cmd_nx_obj(x, 0, name, sizeof(name))));

	if (!m)
		cmd_nx_gone(x, "policy-map type qos", name);
	return m;
}

static struct policy_qos_rule *cmd_nx_qos_rule(struct policy_map_qos *m,
                                               const char *cls)
{
	for (size_t r = 0; r < m->nrules; r++)
		if (!strcmp(m->rules[r].class_name, cls))
			return &m->rules[r];
	return NULL;
}

/* `no class NAME` in a policy-map: remove the rule at INDEX (of N rules
 * of SIZE bytes in RULES), or say it is not there (INDEX < 0). */
static int cmd_nx_remove_class(struct cmd_exec_arg *x, void *rules, size_t *n,
                               size_t size, long index, const char *cls,
                               const char *map, size_t pos)
{
	if (index < 0) {
		cmd_fail(x->err, pos, "%% class %s is not in policy-map %s",
		         cls, map);
		return -1;
	}
	cmd_nx_remove(rules, n, size, (size_t)index);
	return 0;
}

int cmd_nx_pmap_qos_class(struct cmd_exec_arg *x)
{
	struct policy_map_qos *m = cmd_nx_ctx_pmap_qos(x);
	size_t pos;
	const char *cls = cmd_arg(x->pa, 0, &pos);
	struct policy_qos_rule *r;

	if (!m)
		return -1;
	r = cmd_nx_qos_rule(m, cls);
	if (x->pa->negated)
		return cmd_nx_remove_class(x, m->rules, &m->nrules, sizeof(*r),
		                           r ? (long)(r - m->rules) : -1, cls,
		                           m->name, pos);
	if (!r && strcmp(cls, POLICY_CLASS_DEFAULT) &&
	    !policy_find_class_qos(x->p, cls)) {
		cmd_fail(x->err, pos,
		         "%% class-map type qos %s does not exist: create it "
		         "first",
		         cls);
		return -1;
	}
	if (!r && !policy_map_qos_add_rule(m, cls))
		return cmd_nx_oom(x);
	return cmd_nx_enter(x, CMD_MODE_PMAP_C_QOS, x->pa->canon);
}

int cmd_nx_set_qos_group(struct cmd_exec_arg *x)
{
	struct policy_map_qos *m = cmd_nx_ctx_pmap_qos(x);
	char cls[CMD_WORD_MAX];
	struct policy_qos_rule *r;

	if (!m)
		return -1;
	r = cmd_nx_qos_rule(m, cmd_nx_obj(x, 1, cls, sizeof(cls)));
	if (!r)
		return cmd_nx_gone(x, "class", cls);
	if (x->pa->negated) {
		if (cmd_nx_no_value(x, r->set_qos_group, r->qos_group,
		                    "set qos-group"))
			return -1;
		r->set_qos_group = false;
		r->qos_group = 0;
		return 0;
	}
	r->set_qos_group = true;
	r->qos_group = (uint8_t)strtoul(cmd_arg(x->pa, 0, NULL), NULL, 10);
	return 0;
}

/* policy-map type queuing: `class type queuing QUEUE` */
static struct policy_map_queuing *cmd_nx_ctx_pmap_que(struct cmd_exec_arg *x)
{
	char name[CMD_WORD_MAX];
	struct policy_map_queuing *m = NX_MUT(
	    struct policy_map_queuing,
	    policy_own_map_queuing(x->p, cmd_nx_obj(x, 0, name, sizeof(name))));

	if (!m)
		cmd_nx_gone(x, "policy-map type queuing", name);
	return m;
}

int cmd_nx_pmap_que_class(struct cmd_exec_arg *x)
{
	struct policy_map_queuing *m = cmd_nx_ctx_pmap_que(x);
	const char *qname = x->pa->argv[x->pa->argc - 1];
	int q = policy_queue_parse(qname);
	int in = policy_in_queue_parse(qname);
	struct policy_queue *pq;

	if (!m)
		return -1;
	if (q < 0 && in < 0) {
		cmd_fail(x->err, x->pa->pos[x->pa->argc - 1],
		         "%% Unknown queue %s", qname);
		return -1;
	}
	pq = q >= 0 ? &m->queue[q] : &m->in_queue[in];
	if (x->pa->negated) {
		if (!pq->configured) {
			cmd_fail(x->err, x->pa->pos[x->pa->argc - 1],
			         "%% class %s is not in policy-map %s", qname,
			         m->name);
			return -1;
		}
		memset(pq, 0, sizeof(*pq));
		return 0;
	}
	/* The name it was first typed with is the one written back. */
	if (!pq->configured && q >= 0)
		pq->name4 = strcmp(qname, policy_queue_name((unsigned)q)) != 0;
	pq->configured = true;
	return cmd_nx_enter(x, CMD_MODE_PMAP_C_QUE, x->pa->canon);
}

int cmd_nx_cmap_que(struct cmd_exec_arg *x)
{
	size_t pos;
	const char *name = cmd_arg(x->pa, 0, &pos);
	const struct policy_qclass *q = policy_find_qclass(x->p, name);
	char line[POLICY_NAME_MAX + 32];

	if (!cmd_name_ok(name) || policy_queue_parse(name) >= 0 ||
	    !strcmp(name, "class-default")) {
		cmd_fail(x->err, pos,
		         "%% %s: a queuing class-map needs a name of its own "
		         "(the system's queue names are built in)",
		         name);
		return -1;
	}
	if (x->pa->negated) {
		if (!q) {
			cmd_fail(x->err, pos,
			         "%% class-map type queuing %s does not exist",
			         name);
			return -1;
		}
		cmd_nx_remove(x->p->qclasses, &x->p->nqclasses, sizeof(*q),
		              (size_t)(q - x->p->qclasses));
		return 0;
	}
	if (!q && !policy_add_qclass(x->p, name))
		return cmd_nx_oom(x);
	/* its `match qos-group` is the network-qos class-map's row */
	snprintf(line, sizeof(line), "class-map type queuing %s", name);
	return cmd_nx_enter(x, CMD_MODE_CMAP_NQOS, line);
}

/* `class type queuing NAME` of a user queuing class (or class-default,
 * q-default): the queue it names, entered by its system name, so that
 * the class's lines and running-config are the queue's. */
int cmd_nx_pmap_que_uclass(struct cmd_exec_arg *x)
{
	struct policy_map_queuing *m = cmd_nx_ctx_pmap_que(x);
	size_t pos;
	const char *name = cmd_arg(x->pa, 0, &pos);
	const struct policy_qclass *qc = policy_find_qclass(x->p, name);
	struct policy_queue *pq;
	char line[96];
	int q;

	if (!m)
		return -1;
	if (!strcmp(name, "class-default")) {
		q = 0;
	} else if (!qc) {
		cmd_fail(x->err, pos,
		         "%% class-map type queuing %s does not exist (a queue "
		         "is c-out-8q-qN, or a class-map type queuing that "
		         "matches its qos-group)",
		         name);
		return -1;
	} else if (!qc->qos_groups) {
		cmd_fail(x->err, pos,
		         "%% class-map type queuing %s matches no qos-group: "
		         "it names no queue",
		         name);
		return -1;
	} else {
		q = __builtin_ctz(qc->qos_groups);
	}
	pq = &m->queue[q];
	if (x->pa->negated) {
		if (!pq->configured) {
			cmd_fail(x->err, pos,
			         "%% class %s is not in policy-map %s", name,
			         m->name);
			return -1;
		}
		memset(pq, 0, sizeof(*pq));
		return 0;
	}
	/* The name it was first typed with is the one written back. */
	if (!pq->configured)
		snprintf(pq->uname, sizeof(pq->uname), "%s", name);
	pq->configured = true;
	snprintf(line, sizeof(line), "class type queuing %s",
	         policy_queue_name((unsigned)q));
	return cmd_nx_enter(x, CMD_MODE_PMAP_C_QUE, line);
}

/* The class of the mode: an egress queue, or with INGRESS an ingress
 * class (c-in-qN), which holds a pause buffer only; the other kind is
 * refused, naming WHAT. */
static struct policy_queue *cmd_nx_ctx_queue_of(struct cmd_exec_arg *x,
                                                bool ingress, const char *what)
{
	struct policy_map_queuing *m = cmd_nx_ctx_pmap_que(x);
	char qname[CMD_WORD_MAX];
	struct policy_queue *pq;
	int q, in;

	if (!m)
		return NULL;
	cmd_nx_obj(x, 1, qname, sizeof(qname));
	q = policy_queue_parse(qname);
	in = policy_in_queue_parse(qname);
	pq = q >= 0 ? &m->queue[q] : in >= 0 ? &m->in_queue[in] : NULL;
	if (!pq || !pq->configured) {
		cmd_nx_gone(x, "class", qname);
		return NULL;
	}
	if (ingress && in < 0) {
		cmd_fail(x->err, 0,
		         "%% %s goes in an ingress class (%sN) or a "
		         "network-qos class, not in %s",
		         what, POLICY_IN_QUEUE_PREFIX, qname);
		return NULL;
	}
	if (!ingress && in >= 0) {
		cmd_fail(x->err, 0,
		         "%% %s is not supported in ingress class %s: it "
		         "holds pause buffer-size only",
		         what, qname);
		return NULL;
	}
	return pq;
}

static struct policy_queue *cmd_nx_ctx_queue(struct cmd_exec_arg *x)
{
	return cmd_nx_ctx_queue_of(x, false, x->pa->name);
}

int cmd_nx_bandwidth(struct cmd_exec_arg *x)
{
	struct policy_queue *q = cmd_nx_ctx_queue(x);

	if (!q)
		return -1;
	if (x->pa->negated) {
		if (cmd_nx_no_value(x, q->has_bandwidth, q->bandwidth_percent,
		                    "bandwidth remaining percent"))
			return -1;
		q->has_bandwidth = false;
		q->bandwidth_percent = 0;
		return 0;
	}
	q->has_bandwidth = true;
	q->bandwidth_percent =
	    (uint8_t)strtoul(cmd_arg(x->pa, 0, NULL), NULL, 10);
	return 0;
}

int cmd_nx_bandwidth_min(struct cmd_exec_arg *x)
{
	struct policy_queue *q = cmd_nx_ctx_queue(x);

	if (!q)
		return -1;
	if (x->pa->negated) {
		if (cmd_nx_no_value(x, q->has_bandwidth_min,
		                    q->bandwidth_min_percent,
		                    "bandwidth percent"))
			return -1;
		q->has_bandwidth_min = false;
		q->bandwidth_min_percent = 0;
		return 0;
	}
	q->has_bandwidth_min = true;
	q->bandwidth_min_percent =
	    (uint8_t)strtoul(cmd_arg(x->pa, 0, NULL), NULL, 10);
	return 0;
}

int cmd_nx_priority(struct cmd_exec_arg *x)
{
	struct policy_queue *q = cmd_nx_ctx_queue(x);
	const char *level;

	if (!q)
		return -1;
	if (x->pa->negated) {
		if (cmd_nx_no_value(x, q->priority_level, q->priority_level,
		                    "priority level"))
			return -1;
		q->priority_level = 0;
		return 0;
	}
	/* Plain `priority` is level 1, as on NX-OS. */
	level = cmd_arg(x->pa, 0, NULL);
	q->priority_level = (uint8_t)(level ? strtoul(level, NULL, 10) : 1);
	return 0;
}

/* The bytes of `N UNIT` starting at word I (the engine let only a unit
 * of model/units.h through, and N is at most 32 bits). */
static uint64_t cmd_nx_threshold(const struct cmd_parsed *pa, size_t i)
{
	uint64_t n = strtoull(pa->argv[i], NULL, 10);
	int unit = units_size_parse(pa->argv[i + 1]);

	return n * units_size_bytes((enum units_size)unit);
}

int cmd_nx_random_detect(struct cmd_exec_arg *x)
{
	struct policy_queue *q = cmd_nx_ctx_queue(x);
	struct policy_wred w = {.enabled = true, .drop_probability = 100};
	size_t i;

	if (!q)
		return -1;
	if (x->pa->negated) {
		if (!q->wred.enabled) {
			cmd_fail(x->err, 0,
			         "%% random-detect is not configured");
			return -1;
		}
		memset(&q->wred, 0, sizeof(q->wred));
		return 0;
	}
	if (cmd_has(x->pa, "minimum-threshold", &i))
		w.min_bytes = cmd_nx_threshold(x->pa, i + 1);
	if (cmd_has(x->pa, "maximum-threshold", &i))
		w.max_bytes = cmd_nx_threshold(x->pa, i + 1);
	/* Defaults of the optional parts as in roced.conf: full probability
	 * at the maximum threshold, the instantaneous queue. */
	if (cmd_has(x->pa, "drop-probability", &i))
		w.drop_probability =
		    (uint8_t)strtoul(x->pa->argv[i + 1], NULL, 10);
	if (cmd_has(x->pa, "weight", &i))
		w.weight = (uint8_t)strtoul(x->pa->argv[i + 1], NULL, 10);
	w.ecn = cmd_has(x->pa, "ecn", NULL);
	q->wred = w;
	return 0;
}

/* policy-map type network-qos: `class type network-qos NAME` */
static struct policy_map_nq *cmd_nx_ctx_pmap_nq(struct cmd_exec_arg *x)
{
	char name[CMD_WORD_MAX];
	struct policy_map_nq *m = NX_MUT(
	    struct policy_map_nq,
	    policy_find_map_nq(x->p, cmd_nx_obj(x, 0, name, sizeof(name))));

	if (!m)
		cmd_nx_gone(x, "policy-map type network-qos", name);
	return m;
}

/* The rule of class CLS in M, by any spelling of a system-defined
 * class (policy_nq_same_class). */
static struct policy_nq_rule *cmd_nx_nq_rule(struct policy_map_nq *m,
                                             const char *cls)
{
	for (size_t r = 0; r < m->nrules; r++)
		if (policy_nq_same_class(m->rules[r].class_name, cls))
			return &m->rules[r];
	return NULL;
}

int cmd_nx_pmap_nq_class(struct cmd_exec_arg *x)
{
	struct policy_map_nq *m = cmd_nx_ctx_pmap_nq(x);
	size_t pos = x->pa->pos[x->pa->argc - 1];
	const char *cls = x->pa->argv[x->pa->argc - 1];
	struct policy_nq_rule *r;
	char line[POLICY_NAME_MAX + 32];

	if (!m)
		return -1;
	/* A 4-queue Nexus's c-nqN is roced's c-8q-nqN: one class, found by
	 * either name, and kept with the name it was first typed with so
	 * that running-config writes it back as the switch wrote it. */
	r = cmd_nx_nq_rule(m, cls);
	if (x->pa->negated)
		return cmd_nx_remove_class(x, m->rules, &m->nrules, sizeof(*r),
		                           r ? (long)(r - m->rules) : -1, cls,
		                           m->name, pos);
	if (!r && policy_nq_system_parse(cls) < 0 &&
	    !policy_find_class_nq(x->p, cls)) {
		cmd_fail(x->err, pos,
		         "%% class-map type network-qos %s does not exist: "
		         "create it first",
		         cls);
		return -1;
	}
	if (!r && !(r = policy_map_nq_add_rule(m, cls)))
		return cmd_nx_oom(x);
	snprintf(line, sizeof(line), "class type network-qos %s",
	         r->class_name);
	return cmd_nx_enter(x, CMD_MODE_PMAP_C_NQOS, line);
}

static struct policy_nq_rule *cmd_nx_ctx_nq_rule(struct cmd_exec_arg *x)
{
	struct policy_map_nq *m = cmd_nx_ctx_pmap_nq(x);
	char cls[CMD_WORD_MAX];
	struct policy_nq_rule *r;

	if (!m)
		return NULL;
	r = cmd_nx_nq_rule(m, cmd_nx_obj(x, 1, cls, sizeof(cls)));
	if (!r)
		cmd_nx_gone(x, "class", cls);
	return r;
}

int cmd_nx_pause(struct cmd_exec_arg *x)
{
	struct policy_nq_rule *r = cmd_nx_ctx_nq_rule(x);
	uint64_t v;
	int rc;

	if (!r)
		return -1;
	v = r->pfc_cos;
	if (!x->pa->negated) {
		/* A new `pause pfc-cos` replaces the list, as on NX-OS. */
		v = 0;
	}
	rc = cmd_nx_match_values(x, &v, 7, false, "pause pfc-cos");
	if (rc)
		return rc;
	r->pfc_cos = (uint8_t)v;
	/* The list restated without receive-only makes it plain PFC again;
	 * a class that pauses nothing has nothing to receive-only. */
	if (!x->pa->negated)
		r->pfc_rx_only = cmd_has(x->pa, "receive-only", NULL);
	else if (!r->pfc_cos)
		r->pfc_rx_only = false;
	return 0;
}

int cmd_nx_mtu(struct cmd_exec_arg *x)
{
	struct policy_nq_rule *r = cmd_nx_ctx_nq_rule(x);

	if (!r)
		return -1;
	if (x->pa->negated) {
		if (cmd_nx_no_value(x, r->mtu, r->mtu, "mtu"))
			return -1;
		r->mtu = 0;
		return 0;
	}
	r->mtu = (uint32_t)strtoul(cmd_arg(x->pa, 0, NULL), NULL, 10);
	return 0;
}

/* ---- pause buffers (Nexus 9000) ---- */

/* `pause buffer-size B pause-threshold X resume-threshold R [pfc-cos L]`
 * into B (and L into *PFC_COS when given and PFC_COS is not NULL); `no
 * pause buffer-size` removes the buffer. R <= X < B is checked here as
 * well as by validation, so that the caret points at the bad number. */
static int cmd_nx_pause_buffer_set(struct cmd_exec_arg *x,
                                   struct policy_pause_buffer *b,
                                   uint8_t *pfc_cos)
{
	struct policy_pause_buffer nb = {.set = true};
	size_t i;
	uint64_t mask = 0;
	char msg[128];

	if (x->pa->negated) {
		if (!b->set) {
			cmd_fail(x->err, 0,
			         "%% pause buffer-size is not configured");
			return -1;
		}
		memset(b, 0, sizeof(*b));
		return 0;
	}
	if (cmd_has(x->pa, "buffer-size", &i))
		nb.buffer_size =
		    (uint32_t)strtoul(x->pa->argv[i + 1], NULL, 10);
	if (cmd_has(x->pa, "pause-threshold", &i))
		nb.pause_threshold =
		    (uint32_t)strtoul(x->pa->argv[i + 1], NULL, 10);
	if (cmd_has(x->pa, "resume-threshold", &i))
		nb.resume_threshold =
		    (uint32_t)strtoul(x->pa->argv[i + 1], NULL, 10);
	if (nb.pause_threshold >= nb.buffer_size) {
		cmd_has(x->pa, "pause-threshold", &i);
		cmd_fail(x->err, x->pa->pos[i + 1],
		         "%% pause-threshold %u is not below buffer-size %u",
		         nb.pause_threshold, nb.buffer_size);
		return -1;
	}
	if (nb.resume_threshold > nb.pause_threshold) {
		cmd_has(x->pa, "resume-threshold", &i);
		cmd_fail(x->err, x->pa->pos[i + 1],
		         "%% resume-threshold %u is above pause-threshold "
		         "%u",
		         nb.resume_threshold, nb.pause_threshold);
		return -1;
	}
	if (pfc_cos && cmd_has(x->pa, "pfc-cos", &i)) {
		if (policy_list_parse(x->pa->argv[i + 1], 7, false, &mask, msg,
		                      sizeof(msg))) {
			cmd_fail(x->err, x->pa->pos[i + 1], "%% %s", msg);
			return -1;
		}
		*pfc_cos = (uint8_t)mask;
	}
	*b = nb;
	return 0;
}

int cmd_nx_nq_pause_buffer(struct cmd_exec_arg *x)
{
	struct policy_nq_rule *r = cmd_nx_ctx_nq_rule(x);

	if (!r)
		return -1;
	return cmd_nx_pause_buffer_set(x, &r->buffer, &r->pfc_cos);
}

int cmd_nx_que_pause_buffer(struct cmd_exec_arg *x)
{
	struct policy_queue *q =
	    cmd_nx_ctx_queue_of(x, true, "pause buffer-size");

	if (!q)
		return -1;
	return cmd_nx_pause_buffer_set(x, &q->pause, NULL);
}

/* `pause no-drop`: the class's qos-groups become no-drop CoS. */
int cmd_nx_pause_no_drop(struct cmd_exec_arg *x)
{
	struct policy_nq_rule *r = cmd_nx_ctx_nq_rule(x);

	if (!r)
		return -1;
	if (x->pa->negated && !r->no_drop) {
		cmd_fail(x->err, 0, "%% pause no-drop is not configured");
		return -1;
	}
	r->no_drop = !x->pa->negated;
	return 0;
}
