/* cmd_nxos_class: the class-map and policy-map lines real Nexus
 * configurations add to the reference ones: `description` in every
 * class-map and policy-map, `match precedence`, `set dscp` and `set cos`,
 * and `match access-group name`, which roced cannot do and refuses
 * clearly. The rules of cmd_nxos.c hold: check before changing, `no` of
 * what is absent is an error naming it.
 */
#include "cmd/cmd_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/units.h"

/* The policy_find_* lookups are const; the CLI owns the policy it
 * changes, so their results may be written through. */
#define NX_MUT(type, expr) ((type *)(expr))

/* The description field of the object of the current mode, with WHAT
 * naming it for messages; NULL (error set) when it is gone. */
static char *cmd_nx_descr_field(struct cmd_exec_arg *x, const char **what)
{
	char name[CMD_WORD_MAX];

	cmd_nx_obj(x, 0, name, sizeof(name));
	switch (x->ctx->mode) {
	case CMD_MODE_CMAP_QOS: {
		struct policy_class_qos *c = NX_MUT(
		    struct policy_class_qos, policy_find_class_qos(x->p, name));

		*what = "class-map type qos";
		if (c)
			return c->description;
		break;
	}
	case CMD_MODE_CMAP_NQOS: {
		struct policy_class_nq *c = NX_MUT(
		    struct policy_class_nq, policy_find_class_nq(x->p, name));

		*what = "class-map type network-qos";
		if (c)
			return c->description;
		break;
	}
	case CMD_MODE_PMAP_QOS: {
		struct policy_map_qos *m = NX_MUT(
		    struct policy_map_qos, policy_find_map_qos(x->p, name));

		*what = "policy-map type qos";
		if (m)
			return m->description;
		break;
	}
	case CMD_MODE_PMAP_QUE: {
		struct policy_map_queuing *m =
		    NX_MUT(struct policy_map_queuing,
		           policy_own_map_queuing(x->p, name));

		*what = "policy-map type queuing";
		if (m)
			return m->description;
		break;
	}
	case CMD_MODE_PMAP_NQOS: {
		struct policy_map_nq *m = NX_MUT(
		    struct policy_map_nq, policy_find_map_nq(x->p, name));

		*what = "policy-map type network-qos";
		if (m)
			return m->description;
		break;
	}
	default:
		*what = "object";
		break;
	}
	cmd_nx_gone(x, *what, name);
	return NULL;
}

/* `[no] description TEXT` in a class-map or policy-map. */
int cmd_nx_map_description(struct cmd_exec_arg *x)
{
	const char *what = "";
	char *field = cmd_nx_descr_field(x, &what);
	char text[POLICY_DESCR_MAX];

	if (!field || cmd_nx_text(x, text, sizeof(text)))
		return -1;
	if (x->pa->negated && (!field[0] || (text[0] && strcmp(text, field)))) {
		cmd_fail(x->err, 0, "%% description %s is not configured",
		         text);
		return -1;
	}
	/* The whole field, so that equal policies are equal byte for
	 * byte. */
	memset(field, 0, POLICY_DESCR_MAX);
	if (!x->pa->negated)
		snprintf(field, POLICY_DESCR_MAX, "%s", text);
	return 0;
}

/* `[no] match precedence LIST`: the DSCP values of the precedences join
 * (or leave) the class's DSCP set, which classification reads. */
int cmd_nx_match_precedence(struct cmd_exec_arg *x)
{
	char name[CMD_WORD_MAX], msg[128];
	struct policy_class_qos *c = NX_MUT(
	    struct policy_class_qos,
	    policy_find_class_qos(x->p, cmd_nx_obj(x, 0, name, sizeof(name))));
	size_t pos = 0;
	const char *list = cmd_arg(x->pa, 0, &pos);
	uint64_t mask = 0;

	if (!c)
		return cmd_nx_gone(x, "class-map type qos", name);
	if (list &&
	    policy_list_parse(list, 7, false, &mask, msg, sizeof(msg))) {
		cmd_fail(x->err, pos, "%% %s", msg);
		return -1;
	}
	if (!x->pa->negated) {
		c->precedence |= (uint8_t)mask;
		c->dscp |= policy_precedence_dscp((uint8_t)mask);
		return 0;
	}
	if (!list)
		mask = c->precedence;
	if (!c->precedence || (c->precedence & mask) != mask) {
		cmd_fail(x->err, pos,
		         "%% match precedence %s is not configured",
		         list ? list : "");
		return -1;
	}
	c->precedence &= (uint8_t)~mask;
	c->dscp &= ~policy_precedence_dscp((uint8_t)mask);
	return 0;
}

/* `match access-group name ACL`: roced classifies by CoS, DSCP and
 * precedence; an ACL is refused, not dropped in silence. */
int cmd_nx_match_acl(struct cmd_exec_arg *x)
{
	size_t pos = 0;
	const char *acl = cmd_arg(x->pa, 0, &pos);

	cmd_fail(x->err, x->pa->pos[0],
	         "%% match access-group is not supported: roced classifies "
	         "by cos, dscp and precedence, not by access-list %s; match "
	         "the traffic's DSCP or CoS instead",
	         acl ? acl : "");
	return -1;
}

/* The egress queue of the mode (`class type queuing c-out-8q-qN`). */
static struct policy_queue *cmd_nx_out_queue(struct cmd_exec_arg *x)
{
	char map[CMD_WORD_MAX], qname[CMD_WORD_MAX];
	struct policy_map_queuing *m = NX_MUT(
	    struct policy_map_queuing,
	    policy_own_map_queuing(x->p, cmd_nx_obj(x, 0, map, sizeof(map))));
	int q;

	if (!m) {
		cmd_nx_gone(x, "policy-map type queuing", map);
		return NULL;
	}
	q = policy_queue_parse(cmd_nx_obj(x, 1, qname, sizeof(qname)));
	if (q < 0) {
		cmd_fail(x->err, 0,
		         "%% %s is not supported in ingress class %s: it holds "
		         "pause buffer-size only",
		         x->pa->name, qname);
		return NULL;
	}
	if (!m->queue[q].configured) {
		cmd_nx_gone(x, "class", qname);
		return NULL;
	}
	return &m->queue[q];
}

/* `[no] queue-limit [queue-size] N UNIT` and `queue-limit dynamic N`. */
int cmd_nx_queue_limit(struct cmd_exec_arg *x)
{
	struct policy_queue *q = cmd_nx_out_queue(x);
	size_t i;

	if (!q)
		return -1;
	if (x->pa->negated) {
		if (!q->queue_limit_bytes && !q->queue_limit_dynamic) {
			cmd_fail(x->err, 0, "%% queue-limit is not configured");
			return -1;
		}
		q->queue_limit_bytes = 0;
		q->queue_limit_dynamic = 0;
		return 0;
	}
	q->queue_limit_bytes = 0;
	q->queue_limit_dynamic = 0;
	if (cmd_has(x->pa, "dynamic", &i)) {
		q->queue_limit_dynamic =
		    (uint8_t)(strtoul(x->pa->argv[i + 1], NULL, 10) + 1);
		return 0;
	}
	for (i = 0; i + 1 < x->pa->argc; i++) {
		int unit;

		if (!(x->pa->argmask & (1u << i)))
			continue;
		unit = units_size_parse(x->pa->argv[i + 1]);
		q->queue_limit_bytes = strtoull(x->pa->argv[i], NULL, 10) *
		                       units_size_bytes((enum units_size)unit);
		break;
	}
	if (q->queue_limit_bytes > POLICY_QUEUE_LIMIT_MAX) {
		cmd_fail(x->err, x->pa->pos[i],
		         "%% queue-limit %llu bytes is more than a fifo holds "
		         "(%u bytes)",
		         (unsigned long long)q->queue_limit_bytes,
		         POLICY_QUEUE_LIMIT_MAX);
		q->queue_limit_bytes = 0;
		return -1;
	}
	return 0;
}

/* `[no] random-detect threshold PROFILE [ecn]`. */
int cmd_nx_wred_profile(struct cmd_exec_arg *x)
{
	struct policy_queue *q = cmd_nx_out_queue(x);
	int w = -1;

	if (!q)
		return -1;
	if (x->pa->negated) {
		if (!q->wred_profile) {
			cmd_fail(
			    x->err, 0,
			    "%% random-detect threshold is not configured");
			return -1;
		}
		q->wred_profile = 0;
		q->wred_profile_ecn = false;
		return 0;
	}
	for (size_t k = 0; k < x->pa->argc && w < 0; k++)
		w = policy_wred_profile_parse(x->pa->argv[k]);
	q->wred_profile = (uint8_t)(w + 1);
	q->wred_profile_ecn = cmd_has(x->pa, "ecn", NULL);
	return 0;
}

/* `[no] shape min N UNIT max M UNIT`. */
int cmd_nx_shape(struct cmd_exec_arg *x)
{
	struct policy_queue *q = cmd_nx_out_queue(x);
	uint64_t min = 0, max = 0;
	size_t i;

	if (!q)
		return -1;
	if (x->pa->negated) {
		if (!q->shape_max_kbps) {
			cmd_fail(x->err, 0, "%% shape is not configured");
			return -1;
		}
		q->shape_min_kbps = q->shape_max_kbps = 0;
		return 0;
	}
	if (cmd_has(x->pa, "min", &i))
		min = strtoull(x->pa->argv[i + 1], NULL, 10) *
		      units_rate_kbps((enum units_rate)units_rate_parse(
		          x->pa->argv[i + 2]));
	if (cmd_has(x->pa, "max", &i))
		max = strtoull(x->pa->argv[i + 1], NULL, 10) *
		      units_rate_kbps((enum units_rate)units_rate_parse(
		          x->pa->argv[i + 2]));
	if (min > max) {
		cmd_fail(x->err, x->pa->pos[i + 1],
		         "%% shape max is below min");
		return -1;
	}
	q->shape_min_kbps = min;
	q->shape_max_kbps = max;
	return 0;
}

/* `[no] set dscp N` and `[no] set cos N` in a qos policy-map class. */
int cmd_nx_set_mark(struct cmd_exec_arg *x)
{
	char map[CMD_WORD_MAX], cls[CMD_WORD_MAX];
	struct policy_map_qos *m = NX_MUT(
	    struct policy_map_qos,
	    policy_find_map_qos(x->p, cmd_nx_obj(x, 0, map, sizeof(map))));
	bool dscp = cmd_has(x->pa, "dscp", NULL);
	const char *v = cmd_arg(x->pa, 0, NULL);
	struct policy_qos_rule *r = NULL;
	int val = 0;

	if (!m)
		return cmd_nx_gone(x, "policy-map type qos", map);
	cmd_nx_obj(x, 1, cls, sizeof(cls));
	for (size_t k = 0; k < m->nrules; k++)
		if (!strcmp(m->rules[k].class_name, cls))
			r = &m->rules[k];
	if (!r)
		return cmd_nx_gone(x, "class", cls);
	if (x->pa->negated) {
		if (cmd_nx_no_value(x, dscp ? r->set_dscp : r->set_cos,
		                    dscp ? r->dscp : r->cos,
		                    dscp ? "set dscp" : "set cos"))
			return -1;
		if (dscp)
			r->set_dscp = false, r->dscp = 0;
		else
			r->set_cos = false, r->cos = 0;
		return 0;
	}
	val = dscp ? policy_dscp_parse(v) : atoi(v);
	if (val < 0) {
		size_t pos = 0;

		cmd_arg(x->pa, 0, &pos);
		cmd_fail(x->err, pos, "%% set dscp takes one value, not %s", v);
		return -1;
	}
	if (dscp) {
		r->set_dscp = true;
		r->dscp = (uint8_t)val;
	} else {
		r->set_cos = true;
		r->cos = (uint8_t)val;
	}
	return 0;
}
