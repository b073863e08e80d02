/* conf: libconfig text -> policy. See conf.h; conf/roced.conf documents
 * the schema by example.
 *
 * The loader checks the shape of the file (known setting names, types,
 * value syntax) and fills the policy; policy_validate() then checks what
 * holds between objects. Both add to the same diag and never stop at the
 * first problem, so one run reports every error in the file.
 *
 * A value that fits its field but is out of range (drop-probability 150)
 * is stored and left to policy_validate(), so that the CLI, which builds
 * policies without a file, gets the same check. Only values the field
 * cannot hold are refused here, with the same wording. The typed getters
 * live in conf_value.c.
 */
#include "conf/conf.h"

#include <errno.h>
#include <libconfig.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "conf/conf_int.h"
#include "base/strbuf.h"

/* --- class-map --- */

static void conf_class_qos(struct conf_ctx *c, const config_setting_t *e,
                           void *arg)
{
	static const enum conf_key keys[] = {
	    CONF_K_NAME, CONF_K_MATCH,      CONF_K_COS,
	    CONF_K_DSCP, CONF_K_PRECEDENCE, CONF_K_DESCRIPTION};
	char name[POLICY_NAME_MAX], where[CONF_WHERE_MAX], match[8];
	struct policy_class_qos *cl;
	unsigned line = conf_line(e), mline = 0;
	uint64_t mask;

	if (conf_name(c, e, "class-map type qos", name, sizeof(name), &line))
		return;
	snprintf(where, sizeof(where), "class-map type qos %s", name);
	conf_check_keys(c, e, where, keys, CONF_NKEYS(keys));
	cl = policy_add_class_qos(c->p, name);
	if (!cl) {
		conf_oom(c, e);
		return;
	}
	cl->line = line;
	cl->match = POLICY_MATCH_ALL; /* the NX-OS default */
	if (conf_string(c, e, CONF_K_MATCH, where, match, sizeof(match),
	                &mline) > 0) {
		int m = policy_match_parse(match);

		if (m >= 0)
			cl->match = (enum policy_match)m;
		else
			diag_err(c->d, mline,
			         "invalid %s '%s' in %s, expected \"%s\" or "
			         "\"%s\"",
			         conf_key_name(CONF_K_MATCH), match, where,
			         policy_match_name(POLICY_MATCH_ALL),
			         policy_match_name(POLICY_MATCH_ANY));
	}
	mask = 0;
	if (conf_values(c, e, CONF_K_COS, where, 7, false, &mask,
	                &cl->cos_line) > 0)
		cl->cos = (uint8_t)mask;
	mask = 0;
	if (conf_values(c, e, CONF_K_DSCP, where, 63, true, &mask,
	                &cl->dscp_line) > 0)
		cl->dscp = mask;
	conf_nx_class_qos(c, e, where, cl);
}

static void conf_class_nq(struct conf_ctx *c, const config_setting_t *e,
                          void *arg)
{
	static const enum conf_key keys[] = {CONF_K_NAME, CONF_K_QOS_GROUP,
	                                     CONF_K_DESCRIPTION};
	char name[POLICY_NAME_MAX], where[CONF_WHERE_MAX];
	struct policy_class_nq *cl;
	unsigned line = conf_line(e);
	uint64_t mask = 0;

	if (conf_name(c, e, "class-map type network-qos", name, sizeof(name),
	              &line))
		return;
	snprintf(where, sizeof(where), "class-map type network-qos %s", name);
	conf_check_keys(c, e, where, keys, CONF_NKEYS(keys));
	cl = policy_add_class_nq(c->p, name);
	if (!cl) {
		conf_oom(c, e);
		return;
	}
	cl->line = line;
	if (conf_values(c, e, CONF_K_QOS_GROUP, where, 7, false, &mask, NULL) >
	    0)
		cl->qos_groups = (uint8_t)mask;
	conf_string(c, e, CONF_K_DESCRIPTION, where, cl->description,
	            sizeof(cl->description), NULL);
}

static void conf_class_maps(struct conf_ctx *c, const config_setting_t *root)
{
	static const enum conf_key keys[] = {CONF_K_QOS, CONF_K_NETWORK_QOS,
	                                     CONF_K_QUEUING};
	const config_setting_t *g = conf_typed(
	    c, root, CONF_K_CLASS_MAP, "the top level", CONFIG_TYPE_GROUP);

	if (!g)
		return;
	conf_check_keys(c, g, conf_key_name(CONF_K_CLASS_MAP), keys,
	                CONF_NKEYS(keys));
	conf_each(c, g, CONF_K_QOS, conf_key_name(CONF_K_CLASS_MAP), NULL,
	          conf_class_qos);
	conf_each(c, g, CONF_K_NETWORK_QOS, conf_key_name(CONF_K_CLASS_MAP),
	          NULL, conf_class_nq);
	conf_each(c, g, CONF_K_QUEUING, conf_key_name(CONF_K_CLASS_MAP), NULL,
	          conf_nx_class_que);
}

/* --- policy-map --- */

/* Entries of a policy-map's class list carry the map they belong to. */
struct conf_map_arg {
	size_t index; /* of the map in its policy array (arrays move) */
	const char *where;
};

static void conf_qos_rule(struct conf_ctx *c, const config_setting_t *e,
                          void *arg)
{
	static const enum conf_key keys[] = {CONF_K_NAME, CONF_K_SET_QOS_GROUP,
	                                     CONF_K_SET_DSCP, CONF_K_SET_COS};
	const struct conf_map_arg *ma = arg;
	char name[POLICY_NAME_MAX], where[CONF_WHERE_MAX];
	struct policy_qos_rule *r;
	unsigned line = conf_line(e);
	long long v;

	if (conf_name(c, e, ma->where, name, sizeof(name), &line))
		return;
	snprintf(where, sizeof(where), "%s class %s", ma->where, name);
	conf_check_keys(c, e, where, keys, CONF_NKEYS(keys));
	r = policy_map_qos_add_rule(&c->p->map_qos[ma->index], name);
	if (!r) {
		conf_oom(c, e);
		return;
	}
	r->line = line;
	if (conf_int(c, e, CONF_K_SET_QOS_GROUP, where, 0, 7, 0, UINT8_MAX, &v,
	             &r->qos_group_line) > 0) {
		r->set_qos_group = true;
		r->qos_group = (uint8_t)v;
	}
	conf_nx_qos_rule(c, e, where, r);
}

/* Report the random-detect group G of WHERE without KEY, a threshold it
 * cannot do without, with an EXAMPLE value. */
static void conf_wred_required(struct conf_ctx *c, const config_setting_t *g,
                               const char *where, enum conf_key key,
                               unsigned line, const char *example)
{
	if (config_setting_get_member(g, conf_key_name(key)))
		return;
	diag_err(c->d, line, "%s has no %s, expected e.g. %s = \"%s\"", where,
	         conf_key_name(key), conf_key_name(key), example);
}

static void conf_wred(struct conf_ctx *c, const config_setting_t *q,
                      const char *qwhere, struct policy_wred *w)
{
	static const enum conf_key keys[] = {
	    CONF_K_MINIMUM_THRESHOLD, CONF_K_MAXIMUM_THRESHOLD,
	    CONF_K_DROP_PROBABILITY, CONF_K_WEIGHT, CONF_K_ECN};
	const config_setting_t *g =
	    conf_typed(c, q, CONF_K_RANDOM_DETECT, qwhere, CONFIG_TYPE_GROUP);
	char where[CONF_SUBWHERE_MAX];
	bool max_ok;
	long long v;

	if (!g)
		return;
	conf_where_of(where, sizeof(where), CONF_K_RANDOM_DETECT, qwhere);
	conf_check_keys(c, g, where, keys, CONF_NKEYS(keys));
	w->enabled = true;
	w->line = conf_line(g);
	/* Defaults for the optional parts of the NX-OS statement: full
	 * probability at the maximum threshold, instantaneous queue. */
	w->drop_probability = 100;
	w->weight = 0;
	if (conf_threshold(c, g, CONF_K_MINIMUM_THRESHOLD, where, &w->min_bytes,
	                   &w->min_line) <= 0)
		w->min_bytes = 1;
	max_ok = conf_threshold(c, g, CONF_K_MAXIMUM_THRESHOLD, where,
	                        &w->max_bytes, &w->max_line) > 0;
	/* A missing or unreadable threshold is reported once: the stand-ins
	 * (1 above, the largest the weight allows below) pass
	 * policy_validate's threshold checks. */
	conf_wred_required(c, g, where, CONF_K_MINIMUM_THRESHOLD, w->line,
	                   "150 kbytes");
	conf_wred_required(c, g, where, CONF_K_MAXIMUM_THRESHOLD, w->line,
	                   "3000 kbytes");
	if (conf_int(c, g, CONF_K_DROP_PROBABILITY, where, 0, 100, 0, UINT8_MAX,
	             &v, &w->probability_line) > 0)
		w->drop_probability = (uint8_t)v;
	if (conf_int(c, g, CONF_K_WEIGHT, where, 0, 15, 0, UINT8_MAX, &v,
	             &w->weight_line) > 0)
		w->weight = (uint8_t)v;
	if (!max_ok)
		w->max_bytes = policy_wred_max_bytes(w->weight);
	conf_bool(c, g, CONF_K_ECN, where, &w->ecn, NULL);
}

static void conf_queue(struct conf_ctx *c, const config_setting_t *e, void *arg)
{
	static const enum conf_key keys[] = {CONF_K_NAME,
	                                     CONF_K_BANDWIDTH_REMAINING_PERCENT,
	                                     CONF_K_PRIORITY_LEVEL,
	                                     CONF_K_RANDOM_DETECT,
	                                     CONF_K_BANDWIDTH_PERCENT,
	                                     CONF_K_QUEUE_LIMIT,
	                                     CONF_K_QUEUE_LIMIT_DYNAMIC,
	                                     CONF_K_RANDOM_DETECT_THRESHOLD,
	                                     CONF_K_SHAPE};
	const struct conf_map_arg *ma = arg;
	char name[POLICY_NAME_MAX], where[CONF_WHERE_MAX];
	struct policy_queue *q;
	unsigned line = conf_line(e);
	long long v;
	int n, uq;

	if (conf_name(c, e, ma->where, name, sizeof(name), &line))
		return;
	snprintf(where, sizeof(where), "%s class %s", ma->where, name);
	n = policy_queue_parse(name);
	uq = n < 0 ? conf_nx_user_queue(c, name) : -1;
	if (n < 0 && policy_in_queue_parse(name) >= 0) {
		conf_nx_in_queue(c, e, ma->where, &c->p->map_queuing[ma->index],
		                 (unsigned)policy_in_queue_parse(name), line);
		return;
	}
	if (uq >= 0)
		n = uq;
	if (n < 0) {
		diag_err(c->d, line,
		         "unknown queue '%s' in %s, expected %s1 .. %s7 or %s "
		         "(or ingress %s1 .. %s7, %s, or a class-map type "
		         "queuing's name)",
		         name, ma->where, POLICY_QUEUE_PREFIX,
		         POLICY_QUEUE_PREFIX, POLICY_QUEUE_DEFAULT,
		         POLICY_IN_QUEUE_PREFIX, POLICY_IN_QUEUE_PREFIX,
		         POLICY_IN_QUEUE_DEFAULT);
		return;
	}
	q = &c->p->map_queuing[ma->index].queue[n];
	if (q->configured) {
		diag_err(c->d, line,
		         "queue %s is listed twice in %s (first at line %u)",
		         name, ma->where, q->line);
		return;
	}
	conf_check_keys(c, e, where, keys, CONF_NKEYS(keys));
	q->configured = true;
	if (uq >= 0)
		snprintf(q->uname, sizeof(q->uname), "%s", name);
	else
		q->name4 = strcmp(name, policy_queue_name((unsigned)n)) != 0;
	q->line = line;
	if (conf_int(c, e, CONF_K_BANDWIDTH_REMAINING_PERCENT, where, 0, 100, 0,
	             UINT8_MAX, &v, &q->bandwidth_line) > 0) {
		q->has_bandwidth = true;
		q->bandwidth_percent = (uint8_t)v;
	}
	if (conf_int(c, e, CONF_K_BANDWIDTH_PERCENT, where, 0, 100, 0,
	             UINT8_MAX, &v, &q->bandwidth_min_line) > 0) {
		q->has_bandwidth_min = true;
		q->bandwidth_min_percent = (uint8_t)v;
	}
	conf_nx_queue(c, e, where, q);
	/* 0 means "not strict" in the policy, so it cannot be stored. */
	if (conf_int(c, e, CONF_K_PRIORITY_LEVEL, where, 1, 7, 1, UINT8_MAX, &v,
	             &q->priority_line) > 0)
		q->priority_level = (uint8_t)v;
	conf_wred(c, e, where, &q->wred);
}

static void conf_nq_rule(struct conf_ctx *c, const config_setting_t *e,
                         void *arg)
{
	static const enum conf_key keys[] = {
	    CONF_K_NAME,         CONF_K_PAUSE_PFC_COS,
	    CONF_K_MTU,          CONF_K_PAUSE_NO_DROP,
	    CONF_K_PAUSE_BUFFER, CONF_K_PAUSE_RECEIVE_ONLY};
	const struct conf_map_arg *ma = arg;
	char name[POLICY_NAME_MAX], where[CONF_WHERE_MAX];
	struct policy_nq_rule *r;
	unsigned line = conf_line(e);
	uint64_t mask = 0;
	long long v;

	if (conf_name(c, e, ma->where, name, sizeof(name), &line))
		return;
	snprintf(where, sizeof(where), "%s class %s", ma->where, name);
	conf_check_keys(c, e, where, keys, CONF_NKEYS(keys));
	r = policy_map_nq_add_rule(&c->p->map_nq[ma->index], name);
	if (!r) {
		conf_oom(c, e);
		return;
	}
	r->line = line;
	if (conf_values(c, e, CONF_K_PAUSE_PFC_COS, where, 7, false, &mask,
	                &r->pause_line) > 0)
		r->pfc_cos = (uint8_t)mask;
	/* 0 means "not set", so it is refused here. */
	if (conf_int(c, e, CONF_K_MTU, where, POLICY_MTU_MIN, POLICY_MTU_MAX, 1,
	             UINT32_MAX, &v, &r->mtu_line) > 0)
		r->mtu = (uint32_t)v;
	conf_nx_nq_rule(c, e, where, r);
}

/* The three policy-map types read alike: a name, a description and the
 * list of classes, each class read by the type's own reader. */
enum conf_map_type {
	CONF_MAP_QOS,
	CONF_MAP_QUEUING,
	CONF_MAP_NQ,
};

struct conf_map_kind {
	enum conf_map_type type;
	const char *what; /* "policy-map type qos" */
	void (*rule)(struct conf_ctx *c, const config_setting_t *e, void *arg);
};

static const struct conf_map_kind conf_map_kinds[] = {
    [CONF_MAP_QOS] = {CONF_MAP_QOS, "policy-map type qos", conf_qos_rule},
    [CONF_MAP_QUEUING] = {CONF_MAP_QUEUING, "policy-map type queuing",
                          conf_queue},
    [CONF_MAP_NQ] = {CONF_MAP_NQ, "policy-map type network-qos", conf_nq_rule},
};

/* One policy-map of the kind ARG (a struct conf_map_kind). */
static void conf_map(struct conf_ctx *c, const config_setting_t *e, void *arg)
{
	static const enum conf_key keys[] = {CONF_K_NAME, CONF_K_CLASS,
	                                     CONF_K_DESCRIPTION};
	const struct conf_map_kind *k = arg;
	char name[POLICY_NAME_MAX], where[CONF_WHERE_MAX];
	struct conf_map_arg ma = {.where = where};
	unsigned line = conf_line(e), *mline = NULL;
	char *descr = NULL;

	if (conf_name(c, e, k->what, name, sizeof(name), &line))
		return;
	snprintf(where, sizeof(where), "%s %s", k->what, name);
	conf_check_keys(c, e, where, keys, CONF_NKEYS(keys));
	switch (k->type) {
	case CONF_MAP_QOS: {
		struct policy_map_qos *m = policy_add_map_qos(c->p, name);

		if (m) {
			mline = &m->line;
			descr = m->description;
			ma.index = c->p->nmap_qos - 1;
		}
		break;
	}
	case CONF_MAP_QUEUING: {
		struct policy_map_queuing *m =
		    policy_add_map_queuing(c->p, name);

		if (m) {
			mline = &m->line;
			descr = m->description;
			ma.index = c->p->nmap_queuing - 1;
		}
		break;
	}
	case CONF_MAP_NQ: {
		struct policy_map_nq *m = policy_add_map_nq(c->p, name);

		if (m) {
			mline = &m->line;
			descr = m->description;
			ma.index = c->p->nmap_nq - 1;
		}
		break;
	}
	}
	if (!mline) {
		conf_oom(c, e);
		return;
	}
	*mline = line;
	conf_string(c, e, CONF_K_DESCRIPTION, where, descr, POLICY_DESCR_MAX,
	            NULL);
	conf_each(c, e, CONF_K_CLASS, where, &ma, k->rule);
}

static void conf_policy_maps(struct conf_ctx *c, const config_setting_t *root)
{
	static const enum conf_key keys[] = {CONF_K_QOS, CONF_K_QUEUING,
	                                     CONF_K_NETWORK_QOS};
	const config_setting_t *g = conf_typed(
	    c, root, CONF_K_POLICY_MAP, "the top level", CONFIG_TYPE_GROUP);

	if (!g)
		return;
	conf_check_keys(c, g, conf_key_name(CONF_K_POLICY_MAP), keys,
	                CONF_NKEYS(keys));
	conf_each(c, g, CONF_K_QOS, conf_key_name(CONF_K_POLICY_MAP),
	          (void *)&conf_map_kinds[CONF_MAP_QOS], conf_map);
	conf_each(c, g, CONF_K_QUEUING, conf_key_name(CONF_K_POLICY_MAP),
	          (void *)&conf_map_kinds[CONF_MAP_QUEUING], conf_map);
	conf_each(c, g, CONF_K_NETWORK_QOS, conf_key_name(CONF_K_POLICY_MAP),
	          (void *)&conf_map_kinds[CONF_MAP_NQ], conf_map);
}

/* --- system qos, interfaces, PFC watchdog --- */

static void conf_system(struct conf_ctx *c, const config_setting_t *root)
{
	static const enum conf_key keys[] = {CONF_K_SERVICE_POLICY};
	static const enum conf_key sp_keys[] = {
	    CONF_K_NETWORK_QOS, CONF_K_QOS_INPUT, CONF_K_QUEUING_OUTPUT,
	    CONF_K_QUEUING_INPUT};
	const char *sys_qos = conf_key_name(CONF_K_SYSTEM_QOS);
	struct policy_system *sys = &c->p->system;
	char where[CONF_SUBWHERE_MAX];
	const config_setting_t *g, *sp;

	g = conf_typed(c, root, CONF_K_SYSTEM_QOS, "the top level",
	               CONFIG_TYPE_GROUP);
	if (!g)
		return;
	sys->line = conf_line(g);
	conf_check_keys(c, g, sys_qos, keys, CONF_NKEYS(keys));
	sp =
	    conf_typed(c, g, CONF_K_SERVICE_POLICY, sys_qos, CONFIG_TYPE_GROUP);
	if (!sp)
		return;
	conf_where_of(where, sizeof(where), CONF_K_SERVICE_POLICY, sys_qos);
	conf_check_keys(c, sp, where, sp_keys, CONF_NKEYS(sp_keys));
	conf_string(c, sp, CONF_K_NETWORK_QOS, where, sys->network_qos,
	            sizeof(sys->network_qos), &sys->network_qos_line);
	conf_string(c, sp, CONF_K_QOS_INPUT, where, sys->qos_input,
	            sizeof(sys->qos_input), &sys->qos_input_line);
	conf_string(c, sp, CONF_K_QUEUING_OUTPUT, where, sys->queuing_output,
	            sizeof(sys->queuing_output), &sys->queuing_output_line);
	conf_string(c, sp, CONF_K_QUEUING_INPUT, where, sys->queuing_input,
	            sizeof(sys->queuing_input), &sys->queuing_input_line);
}

static void conf_iface_pfc(struct conf_ctx *c, const config_setting_t *e,
                           const char *iwhere, struct policy_iface *i)
{
	static const enum conf_key keys[] = {
	    CONF_K_MODE, CONF_K_WATCH_DOG_INTERVAL, CONF_K_SEND_TLV};
	const config_setting_t *g = conf_typed(
	    c, e, CONF_K_PRIORITY_FLOW_CONTROL, iwhere, CONFIG_TYPE_GROUP);
	char where[CONF_SUBWHERE_MAX], mode[16];
	unsigned line = 0;
	bool wd;
	int m;

	if (!g)
		return;
	conf_where_of(where, sizeof(where), CONF_K_PRIORITY_FLOW_CONTROL,
	              iwhere);
	conf_check_place_keys(c, g, where, keys, CONF_NKEYS(keys),
	                      SETTING_AT_IFACE_PFC);
	if (conf_string(c, g, CONF_K_MODE, where, mode, sizeof(mode), &line) >
	    0) {
		m = policy_pfc_mode_parse(mode);
		if (m < 0) {
			char modes[64];

			policy_pfc_mode_expected(modes, sizeof(modes));
			diag_err(
			    c->d, line, "invalid %s %s '%s' in %s, expected %s",
			    conf_key_name(CONF_K_PRIORITY_FLOW_CONTROL),
			    conf_key_name(CONF_K_MODE), mode, iwhere, modes);
		} else
			i->pfc_mode = (enum policy_pfc_mode)m;
	}
	if (conf_bool(c, g, CONF_K_WATCH_DOG_INTERVAL, where, &wd, NULL) > 0)
		i->watchdog = wd ? POLICY_ON : POLICY_OFF;
	conf_bool(c, g, CONF_K_SEND_TLV, where, &i->pfc_send_tlv, NULL);
	conf_settings(c, g, SETTING_AT_IFACE_PFC, i, where);
}

/* --- LLDP and DCBX --- */

/* A DCBX agent name at KEY of G into *OUT; 1 when set. */
static int conf_dcbx_agent(struct conf_ctx *c, const config_setting_t *g,
                           const char *where, enum policy_dcbx_agent *out,
                           unsigned *line)
{
	char name[16], names[64];
	int a;

	if (conf_string(c, g, CONF_K_DCBX_AGENT, where, name, sizeof(name),
	                line) <= 0)
		return 0;
	a = policy_dcbx_agent_parse(name);
	if (a < 0) {
		policy_dcbx_agent_expected(names, sizeof(names));
		diag_err(c->d, *line, "invalid %s '%s' in %s, expected %s",
		         conf_key_name(CONF_K_DCBX_AGENT), name, where, names);
		return -1;
	}
	*out = (enum policy_dcbx_agent)a;
	return 1;
}

static void conf_iface_lldp(struct conf_ctx *c, const config_setting_t *e,
                            const char *iwhere, struct policy_iface *i)
{
	static const enum conf_key keys[] = {CONF_K_TRANSMIT, CONF_K_RECEIVE,
	                                     CONF_K_DCBX_WILLING,
	                                     CONF_K_DCBX_AGENT};
	const config_setting_t *g =
	    conf_typed(c, e, CONF_K_LLDP, iwhere, CONFIG_TYPE_GROUP);
	char where[CONF_SUBWHERE_MAX];

	if (!g)
		return;
	conf_where_of(where, sizeof(where), CONF_K_LLDP, iwhere);
	conf_check_place_keys(c, g, where, keys, CONF_NKEYS(keys),
	                      SETTING_AT_IFACE_LLDP);
	/* transmit, receive, dcbx-willing */
	conf_settings(c, g, SETTING_AT_IFACE_LLDP, i, where);
	if (conf_dcbx_agent(c, g, where, &i->lldp.agent, &i->lldp.agent_line) >
	    0)
		i->lldp.has_agent = true;
}

static void conf_lldp(struct conf_ctx *c, const config_setting_t *root)
{
	static const enum conf_key keys[] = {
	    CONF_K_FEATURE, CONF_K_TIMER,      CONF_K_HOLDTIME,
	    CONF_K_REINIT,  CONF_K_TLV_SELECT, CONF_K_DCBX_AGENT};
	static const enum conf_key tlv_keys[] = {CONF_K_DCBXP,
	                                         CONF_K_EGRESS_QUEUING};
	const char *where = conf_key_name(CONF_K_LLDP);
	char twhere[CONF_SUBWHERE_MAX];
	struct policy_lldp *l = &c->p->lldp;
	const config_setting_t *g, *t;
	bool v;

	g = conf_typed(c, root, CONF_K_LLDP, "the top level",
	               CONFIG_TYPE_GROUP);
	if (!g)
		return;
	l->line = conf_line(g);
	conf_check_place_keys(c, g, where, keys, CONF_NKEYS(keys),
	                      SETTING_AT_LLDP);
	/* feature, timer, holdtime, reinit: a number stored when it fits
	 * 32 bits, its range judged by policy_validate() */
	conf_settings(c, g, SETTING_AT_LLDP, c->p, where);
	conf_dcbx_agent(c, g, where, &l->agent, &l->agent_line);
	t = conf_typed(c, g, CONF_K_TLV_SELECT, where, CONFIG_TYPE_GROUP);
	if (!t)
		return;
	conf_where_of(twhere, sizeof(twhere), CONF_K_TLV_SELECT, where);
	conf_check_keys(c, t, twhere, tlv_keys, CONF_NKEYS(tlv_keys));
	if (conf_bool(c, t, CONF_K_DCBXP, twhere, &v, NULL) > 0)
		l->no_dcbxp = !v;
	conf_bool(c, t, CONF_K_EGRESS_QUEUING, twhere, &l->egress_queuing,
	          NULL);
}

/* --- fabric-internal ports and link pause --- */

/* `flowcontrol = { receive = true; send = false; };` of interface I. */
static void conf_iface_flow(struct conf_ctx *c, const config_setting_t *e,
                            const char *iwhere, struct policy_iface *i)
{
	static const enum conf_key keys[] = {CONF_K_RECEIVE, CONF_K_SEND};
	const config_setting_t *g;
	char where[CONF_SUBWHERE_MAX];

	g = conf_typed(c, e, CONF_K_FLOWCONTROL, iwhere, CONFIG_TYPE_GROUP);
	if (!g)
		return;
	conf_where_of(where, sizeof(where), CONF_K_FLOWCONTROL, iwhere);
	conf_check_place_keys(c, g, where, keys, CONF_NKEYS(keys),
	                      SETTING_AT_IFACE_FC);
	conf_settings(c, g, SETTING_AT_IFACE_FC, i, where);
}

static void conf_iface(struct conf_ctx *c, const config_setting_t *e, void *arg)
{
	static const enum conf_key keys[] = {CONF_K_NAME,
	                                     CONF_K_ALIAS,
	                                     CONF_K_PRIORITY_FLOW_CONTROL,
	                                     CONF_K_SERVICE_POLICY,
	                                     CONF_K_QDISC_TAKEOVER,
	                                     CONF_K_DESCRIPTION,
	                                     CONF_K_MTU,
	                                     CONF_K_SHUTDOWN,
	                                     CONF_K_LLDP,
	                                     CONF_K_FABRIC_INTERNAL,
	                                     CONF_K_FLOWCONTROL,
	                                     CONF_K_CHANNEL_GROUP};
	static const enum conf_key sp_keys[] = {
	    CONF_K_QOS_INPUT, CONF_K_QUEUING_OUTPUT, CONF_K_QUEUING_INPUT};
	char name[POLICY_IFNAME_MAX], where[CONF_WHERE_MAX];
	char spwhere[CONF_SUBWHERE_MAX];
	const config_setting_t *sp;
	struct policy_iface *i;
	unsigned line = conf_line(e);

	if (conf_name(c, e, conf_key_name(CONF_K_INTERFACE), name, sizeof(name),
	              &line))
		return;
	snprintf(where, sizeof(where), "interface %s", name);
	conf_check_place_keys(c, e, where, keys, CONF_NKEYS(keys),
	                      SETTING_AT_IFACE);
	i = policy_add_iface(c->p, name);
	if (!i) {
		conf_oom(c, e);
		return;
	}
	i->line = line;
	conf_string(c, e, CONF_K_ALIAS, where, i->alias, sizeof(i->alias),
	            &i->alias_line);
	conf_iface_pfc(c, e, where, i);
	conf_iface_flow(c, e, where, i);
	conf_iface_lldp(c, e, where, i);
	/* qdisc-takeover, fabric-internal, ... */
	conf_settings(c, e, SETTING_AT_IFACE, i, where);
	conf_nx_iface(c, e, where, i);
	sp = conf_typed(c, e, CONF_K_SERVICE_POLICY, where, CONFIG_TYPE_GROUP);
	if (!sp)
		return;
	conf_where_of(spwhere, sizeof(spwhere), CONF_K_SERVICE_POLICY, where);
	conf_check_keys(c, sp, spwhere, sp_keys, CONF_NKEYS(sp_keys));
	conf_string(c, sp, CONF_K_QOS_INPUT, spwhere, i->qos_input,
	            sizeof(i->qos_input), &i->qos_input_line);
	conf_string(c, sp, CONF_K_QUEUING_OUTPUT, spwhere, i->queuing_output,
	            sizeof(i->queuing_output), &i->queuing_output_line);
	conf_string(c, sp, CONF_K_QUEUING_INPUT, spwhere, i->queuing_input,
	            sizeof(i->queuing_input), &i->queuing_input_line);
}

static void conf_pfcwd(struct conf_ctx *c, const config_setting_t *root)
{
	static const enum conf_key keys[] = {
	    CONF_K_WATCH_DOG_INTERVAL, CONF_K_WATCH_DOG,
	    CONF_K_AUTO_RESTORE_MULTIPLIER, CONF_K_FIXED_RESTORE_MULTIPLIER};
	static const enum conf_key wd_keys[] = {
	    CONF_K_INTERVAL, CONF_K_SHUTDOWN_MULTIPLIER,
	    CONF_K_INTERNAL_INTERFACE_MULTIPLIER, CONF_K_ACTION};
	const char *where = conf_key_name(CONF_K_PRIORITY_FLOW_CONTROL);
	char wdwhere[CONF_SUBWHERE_MAX];
	struct policy_pfcwd *w = &c->p->pfcwd;
	const config_setting_t *g, *wd;

	g = conf_typed(c, root, CONF_K_PRIORITY_FLOW_CONTROL, "the top level",
	               CONFIG_TYPE_GROUP);
	if (!g)
		return;
	w->line = conf_line(g);
	conf_check_place_keys(c, g, where, keys, CONF_NKEYS(keys),
	                      SETTING_AT_PFC);
	/* The numbers are stored when they fit 32 bits; their ranges are
	 * judged by policy_validate(). */
	conf_settings(c, g, SETTING_AT_PFC, c->p, where);
	wd = conf_typed(c, g, CONF_K_WATCH_DOG, where, CONFIG_TYPE_GROUP);
	if (!wd)
		return;
	conf_where_of(wdwhere, sizeof(wdwhere), CONF_K_WATCH_DOG, where);
	conf_check_place_keys(c, wd, wdwhere, wd_keys, CONF_NKEYS(wd_keys),
	                      SETTING_AT_PFC_WD);
	conf_settings(c, wd, SETTING_AT_PFC_WD, c->p, wdwhere);
}

/* --- metrics: `metrics { textfile = "..."; interval = N; }` --- */

static void conf_metrics(struct conf_ctx *c, const config_setting_t *root)
{
	static const enum conf_key keys[] = {CONF_K_TEXTFILE, CONF_K_INTERVAL};
	const char *where = conf_key_name(CONF_K_METRICS);
	struct policy_metrics *m = &c->p->metrics;
	const config_setting_t *g;
	long long v;

	g = conf_typed(c, root, CONF_K_METRICS, "the top level",
	               CONFIG_TYPE_GROUP);
	if (!g)
		return;
	m->line = conf_line(g);
	conf_check_keys(c, g, where, keys, CONF_NKEYS(keys));
	conf_string(c, g, CONF_K_TEXTFILE, where, m->textfile,
	            sizeof(m->textfile), &m->textfile_line);
	if (conf_int(c, g, CONF_K_INTERVAL, where, POLICY_METRICS_INTERVAL_MIN,
	             POLICY_METRICS_INTERVAL_MAX, 0, UINT32_MAX, &v,
	             &m->interval_line) > 0)
		m->interval = (uint32_t)v;
}

/* `roce = "MODE";`: the objects of the RoCE mode that the file does not
 * define itself (policy.h, POLICY_ROCE_KEEP), after everything else. */
static void conf_roce(struct conf_ctx *c, const config_setting_t *root)
{
	unsigned line = 0;
	char v[32];
	int m;

	if (conf_string(c, root, CONF_K_ROCE, "the top level", v, sizeof(v),
	                &line) <= 0)
		return;
	m = policy_roce_mode_parse(v);
	if (m < 0) {
		char modes[64];

		policy_roce_mode_expected(modes, sizeof(modes));
		diag_err(c->d, line, "invalid %s '%s', expected %s",
		         conf_key_name(CONF_K_ROCE), v, modes);
		return;
	}
	if (policy_roce_expand(c->p, (enum policy_roce_mode)m, POLICY_ROCE_KEEP,
	                       line) < 0)
		diag_err(c->d, line, "%s: out of memory",
		         conf_key_name(CONF_K_ROCE));
}

static void conf_root(struct conf_ctx *c, const config_setting_t *root)
{
	static const enum conf_key keys[] = {CONF_K_CLASS_MAP,
	                                     CONF_K_POLICY_MAP,
	                                     CONF_K_SYSTEM_QOS,
	                                     CONF_K_INTERFACE,
	                                     CONF_K_PRIORITY_FLOW_CONTROL,
	                                     CONF_K_HARDWARE_QOS_PFC_MC_DROP,
	                                     CONF_K_LLDP,
	                                     CONF_K_METRICS,
	                                     CONF_K_ROCE,
	                                     CONF_K_PORT_CHANNEL};
	const config_setting_t *ifs;

	conf_check_place_keys(c, root, "the top level", keys, CONF_NKEYS(keys),
	                      SETTING_AT_TOP);
	conf_settings(c, root, SETTING_AT_TOP, c->p, "the top level");
	conf_class_maps(c, root);
	conf_policy_maps(c, root);
	conf_system(c, root);
	ifs = config_setting_get_member(root, conf_key_name(CONF_K_INTERFACE));
	if (ifs)
		c->p->ifaces_line = conf_line(ifs) ? conf_line(ifs) : 1;
	conf_nx_port_channels(c, root);
	conf_each(c, root, CONF_K_INTERFACE, "the top level", NULL, conf_iface);
	conf_pfcwd(c, root);
	conf_lldp(c, root);
	conf_metrics(c, root);
	conf_roce(c, root);
}

/* Shared tail of both loaders: CFG holds the parsed text (or a syntax
 * error when PARSED is false). */
static int conf_finish(config_t *cfg, bool parsed, const char *text,
                       struct policy *out, struct diag *d)
{
	struct conf_ctx c = {.p = out, .d = d};
	size_t errors = d->nerrors;

	policy_init(out);
	if (!parsed) {
		/* libconfig stops at its first syntax error: one message. */
		diag_err(d, (unsigned)config_error_line(cfg), "%s",
		         config_error_text(cfg) ? config_error_text(cfg)
		                                : "syntax error");
	} else {
		if (text)
			conf_scan_wrapped(&c, text);
		conf_root(&c, config_root_setting(cfg));
		policy_validate(out, d);
	}
	config_destroy(cfg);
	diag_sort(d);
	if (d->nerrors > errors) {
		policy_free(out);
		return -1;
	}
	return 0;
}

int conf_load_string(const char *text, struct policy *out, struct diag *d)
{
	config_t cfg;
	bool ok;

	if (conf_scan_bounds(text, strlen(text), d) < 0) {
		policy_init(out);
		diag_sort(d);
		return -1;
	}
	config_init(&cfg);
	ok = config_read_string(&cfg, text) == CONFIG_TRUE;
	return conf_finish(&cfg, ok, text, out, d);
}

/* The whole file in memory (configs are small): the wrap scan needs the
 * text, and a read error is told apart from a syntax error. */
static char *conf_read_all(FILE *f)
{
	struct strbuf sb;
	char buf[4096];
	size_t n;

	strbuf_init(&sb);
	strbuf_puts(&sb, "");
	/* Past the bound is enough to refuse it (a FIFO has no size). */
	while (sb.len <= CONF_MAX_BYTES &&
	       (n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(&sb, buf, n);
	if (ferror(f) || sb.oom || memchr(sb.s, '\0', sb.len)) {
		int err = ferror(f) ? errno : sb.oom ? ENOMEM : EINVAL;

		strbuf_free(&sb);
		errno = err;
		return NULL;
	}
	return strbuf_detach(&sb);
}

int conf_load_file(const char *path, struct policy *out, struct diag *d)
{
	struct stat st;
	char *text;
	FILE *f;
	int rc;

	if (!d->file)
		d->file = strdup(path);
	policy_init(out);
	f = fopen(path, "r");
	if (!f) {
		diag_err(d, 0, "cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	/* A file past the bound is not even read. */
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) &&
	    (uint64_t)st.st_size > CONF_MAX_BYTES) {
		diag_err(d, 0,
		         "the file is %llu bytes: roced reads at most %u MiB "
		         "of configuration",
		         (unsigned long long)st.st_size, CONF_MAX_BYTES >> 20);
		fclose(f);
		return -1;
	}
	text = conf_read_all(f);
	if (!text) {
		diag_err(d, 0, "cannot read %s: %s", path,
		         errno == EINVAL ? "it holds a NUL byte, not text"
		                         : strerror(errno));
		fclose(f);
		return -1;
	}
	fclose(f);
	rc = conf_load_string(text, out, d);
	free(text);
	return rc;
}
