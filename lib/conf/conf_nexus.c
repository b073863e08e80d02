/* conf_nexus: the roced.conf settings of the Nexus 9000 constructs that
 * real configurations use beyond the reference one: pause buffers (in a
 * network-qos class and in an ingress queuing class), `pause no-drop`,
 * the ingress queuing classes c-in-qN, and an interface's description,
 * mtu and shutdown; a qos class-map's precedence and the marking of a
 * qos policy-map class. See roced.conf(5) and conf_int.h.
 *
 * The schema walk (conf.c) calls in here for these keys; the keys' names
 * are conf_keys.c's like every other. Values are only stored here:
 * policy_validate() judges them (resume < pause < buffer-size, the MTU
 * range) with the same wording for the file and for rocesh.
 */
#include "conf/conf_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/escape.h"

#include "model/units.h"

/* A byte count of the pause buffer: 1 .. 2^32 - 1. */
static void conf_nx_bytes(struct conf_ctx *c, const config_setting_t *g,
                          enum conf_key key, const char *where, uint32_t *out,
                          bool *missing)
{
	long long v;
	int rc = conf_int(c, g, key, where, 1, POLICY_PAUSE_BYTES_MAX, 1,
	                  POLICY_PAUSE_BYTES_MAX, &v, NULL);

	if (rc > 0)
		*out = (uint32_t)v;
	else if (rc == 0)
		*missing = true;
}

void conf_nx_pause_buffer(struct conf_ctx *c, const config_setting_t *e,
                          const char *where, struct policy_pause_buffer *b)
{
	static const enum conf_key keys[] = {CONF_K_BUFFER_SIZE,
	                                     CONF_K_PAUSE_THRESHOLD,
	                                     CONF_K_RESUME_THRESHOLD};
	const config_setting_t *g =
	    conf_typed(c, e, CONF_K_PAUSE_BUFFER, where, CONFIG_TYPE_GROUP);
	char bwhere[CONF_SUBWHERE_MAX];
	struct policy_pause_buffer nb = {.set = true};
	bool missing = false;
	size_t errors = c->d->nerrors;

	if (!g)
		return;
	conf_where_of(bwhere, sizeof(bwhere), CONF_K_PAUSE_BUFFER, where);
	conf_check_keys(c, g, bwhere, keys, CONF_NKEYS(keys));
	nb.line = conf_line(g);
	conf_nx_bytes(c, g, CONF_K_BUFFER_SIZE, bwhere, &nb.buffer_size,
	              &missing);
	conf_nx_bytes(c, g, CONF_K_PAUSE_THRESHOLD, bwhere, &nb.pause_threshold,
	              &missing);
	conf_nx_bytes(c, g, CONF_K_RESUME_THRESHOLD, bwhere,
	              &nb.resume_threshold, &missing);
	/* The three go together, as in the NX-OS line. */
	if (missing)
		diag_err(c->d, nb.line,
		         "%s: expected %s, %s and %s (bytes), e.g. { %s = "
		         "101920; %s = 46800; %s = 34320; }",
		         bwhere, conf_key_name(CONF_K_BUFFER_SIZE),
		         conf_key_name(CONF_K_PAUSE_THRESHOLD),
		         conf_key_name(CONF_K_RESUME_THRESHOLD),
		         conf_key_name(CONF_K_BUFFER_SIZE),
		         conf_key_name(CONF_K_PAUSE_THRESHOLD),
		         conf_key_name(CONF_K_RESUME_THRESHOLD));
	if (c->d->nerrors == errors)
		*b = nb;
}

void conf_nx_nq_rule(struct conf_ctx *c, const config_setting_t *e,
                     const char *where, struct policy_nq_rule *r)
{
	conf_bool(c, e, CONF_K_PAUSE_NO_DROP, where, &r->no_drop,
	          &r->no_drop_line);
	conf_nx_pause_buffer(c, e, where, &r->buffer);
	conf_bool(c, e, CONF_K_PAUSE_RECEIVE_ONLY, where, &r->pfc_rx_only,
	          &r->pfc_rx_only_line);
}

void conf_nx_in_queue(struct conf_ctx *c, const config_setting_t *e,
                      const char *where, struct policy_map_queuing *m,
                      unsigned n, unsigned line)
{
	static const enum conf_key keys[] = {CONF_K_NAME, CONF_K_PAUSE_BUFFER};
	struct policy_queue *q = &m->in_queue[n];
	char qwhere[CONF_WHERE_MAX];

	snprintf(qwhere, sizeof(qwhere), "%s class %s", where,
	         policy_in_queue_name(n));
	if (q->configured) {
		diag_err(c->d, line,
		         "queue %s is listed twice in %s (first at line %u)",
		         policy_in_queue_name(n), where, q->line);
		return;
	}
	/* An ingress class holds its pause buffer and nothing else. */
	conf_check_keys(c, e, qwhere, keys, CONF_NKEYS(keys));
	q->configured = true;
	q->line = line;
	conf_nx_pause_buffer(c, e, qwhere, &q->pause);
}

void conf_nx_class_que(struct conf_ctx *c, const config_setting_t *e, void *arg)
{
	static const enum conf_key keys[] = {CONF_K_NAME, CONF_K_QOS_GROUP};
	char name[POLICY_NAME_MAX], where[CONF_WHERE_MAX];
	struct policy_qclass *q;
	unsigned line = conf_line(e);
	uint64_t mask = 0;

	(void)arg;
	if (conf_name(c, e, "class-map type queuing", name, sizeof(name),
	              &line))
		return;
	snprintf(where, sizeof(where), "class-map type queuing %s", name);
	conf_check_keys(c, e, where, keys, CONF_NKEYS(keys));
	/* a system queue name would make a queue's name ambiguous */
	if (policy_queue_parse(name) >= 0 || !strcmp(name, "class-default") ||
	    policy_find_qclass(c->p, name)) {
		diag_err(c->d, line,
		         "%s: a queuing class-map needs a name of its own, "
		         "not a system queue's and not one used before",
		         where);
		return;
	}
	if (conf_values(c, e, CONF_K_QOS_GROUP, where, 7, false, &mask, NULL) >
	        0 &&
	    __builtin_popcountll(mask) > 1) {
		diag_err(c->d, line, "%s names one queue: one qos-group",
		         where);
		return;
	}
	q = policy_add_qclass(c->p, name);
	if (!q) {
		conf_oom(c, e);
		return;
	}
	q->qos_groups = (uint8_t)mask;
}

int conf_nx_user_queue(const struct conf_ctx *c, const char *name)
{
	const struct policy_qclass *q = policy_find_qclass(c->p, name);

	if (!strcmp(name, "class-default"))
		return 0;
	if (!q || !q->qos_groups)
		return -1;
	return __builtin_ctz(q->qos_groups);
}

static void conf_nx_port_channel(struct conf_ctx *c, const config_setting_t *e,
                                 void *arg)
{
	static const enum conf_key keys[] = {CONF_K_NAME, CONF_K_LINES};
	char name[POLICY_NAME_MAX], where[CONF_WHERE_MAX];
	const config_setting_t *ls;
	struct policy_port_profile *pp;
	unsigned line = conf_line(e);
	int n;

	(void)arg;
	if (conf_name(c, e, conf_key_name(CONF_K_PORT_CHANNEL), name,
	              sizeof(name), &line))
		return;
	snprintf(where, sizeof(where), "port-channel %s", name);
	conf_check_keys(c, e, where, keys, CONF_NKEYS(keys));
	if (!policy_port_channel(name, NULL) ||
	    policy_find_port_profile(c->p, name)) {
		diag_err(c->d, line,
		         "%s: expected a name port-channelN (N 1-4096) used "
		         "once",
		         where);
		return;
	}
	pp = policy_add_port_profile(c->p, name);
	if (!pp) {
		conf_oom(c, e);
		return;
	}
	pp->enabled = true;
	ls = conf_typed(c, e, CONF_K_LINES, where, CONFIG_TYPE_LIST);
	n = ls ? config_setting_length(ls) : 0;
	if (n > POLICY_PROFILE_LINES) {
		diag_err(c->d, conf_line(ls), "%s: at most %d lines", where,
		         POLICY_PROFILE_LINES);
		return;
	}
	/* The lines were judged when typed; a member that joins carries
	 * them out and is refused, naming the line, if one was edited into
	 * something rocesh does not take. */
	for (int k = 0; k < n; k++) {
		const config_setting_t *l = config_setting_get_elem(ls, k);
		const char *v = config_setting_get_string(l);

		if (!v || !v[0] || strlen(v) >= sizeof(pp->lines[0]) ||
		    !escape_is_clean(v, strlen(v), false)) {
			diag_err(c->d, conf_line(l) ? conf_line(l) : line,
			         "%s: line %d: expected an interface line of "
			         "printable text, at most %zu characters",
			         where, k + 1, sizeof(pp->lines[0]) - 1);
			continue;
		}
		snprintf(pp->lines[pp->nlines++], sizeof(pp->lines[0]), "%s",
		         v);
	}
}

void conf_nx_port_channels(struct conf_ctx *c, const config_setting_t *root)
{
	conf_each(c, root, CONF_K_PORT_CHANNEL, "the top level", NULL,
	          conf_nx_port_channel);
}

/* `channel-group = { number = N; mode = "active"; }` of a member. */
static void conf_nx_channel_group(struct conf_ctx *c, const config_setting_t *e,
                                  const char *where, struct policy_iface *i)
{
	static const enum conf_key keys[] = {CONF_K_NUMBER, CONF_K_MODE};
	const config_setting_t *g =
	    conf_typed(c, e, CONF_K_CHANNEL_GROUP, where, CONFIG_TYPE_GROUP);
	char sub[CONF_SUBWHERE_MAX], mode[16] = "";
	long long v;
	int m;

	if (!g)
		return;
	conf_where_of(sub, sizeof(sub), CONF_K_CHANNEL_GROUP, where);
	conf_check_keys(c, g, sub, keys, CONF_NKEYS(keys));
	if (conf_int(c, g, CONF_K_NUMBER, sub, 1, 4096, 1, 4096, &v, NULL) > 0)
		i->channel_group = (uint16_t)v;
	else if (!config_setting_get_member(g, conf_key_name(CONF_K_NUMBER)))
		diag_err(c->d, conf_line(g), "%s: number is required", sub);
	if (conf_string(c, g, CONF_K_MODE, sub, mode, sizeof(mode), NULL) <= 0)
		return;
	m = policy_channel_mode_parse(mode);
	if (m < 0)
		diag_err(c->d, conf_line(g),
		         "mode '%s' in %s: expected active, passive or on",
		         mode, sub);
	else
		i->channel_mode = (enum policy_channel_mode)m;
}

void conf_nx_iface(struct conf_ctx *c, const config_setting_t *e,
                   const char *where, struct policy_iface *i)
{
	bool down;

	conf_nx_channel_group(c, e, where, i);

	conf_string(c, e, CONF_K_DESCRIPTION, where, i->description,
	            sizeof(i->description), NULL);
	/* mtu (0, "not set", refused) */
	conf_settings(c, e, SETTING_AT_IFACE_HEAD, i, where);
	if (conf_bool(c, e, CONF_K_SHUTDOWN, where, &down, NULL) > 0)
		i->shutdown = down ? POLICY_ON : POLICY_OFF;
}

void conf_nx_class_qos(struct conf_ctx *c, const config_setting_t *e,
                       const char *where, struct policy_class_qos *cl)
{
	uint64_t mask = 0;

	if (conf_values(c, e, CONF_K_PRECEDENCE, where, 7, false, &mask,
	                &cl->precedence_line) > 0) {
		cl->precedence = (uint8_t)mask;
		cl->dscp |= policy_precedence_dscp(cl->precedence);
	}
	conf_string(c, e, CONF_K_DESCRIPTION, where, cl->description,
	            sizeof(cl->description), NULL);
}

void conf_nx_qos_rule(struct conf_ctx *c, const config_setting_t *e,
                      const char *where, struct policy_qos_rule *r)
{
	uint64_t mask = 0;
	long long v;

	/* One DSCP value, a number or a PHB name. */
	if (conf_values(c, e, CONF_K_SET_DSCP, where, 63, true, &mask,
	                &r->set_line) > 0) {
		if (!mask || (mask & (mask - 1)))
			diag_err(c->d, r->set_line,
			         "%s of %s: one DSCP value, not a list",
			         conf_key_name(CONF_K_SET_DSCP), where);
		else {
			r->set_dscp = true;
			r->dscp = (uint8_t)__builtin_ctzll(mask);
		}
	}
	if (conf_int(c, e, CONF_K_SET_COS, where, 0, 7, 0, UINT8_MAX, &v,
	             &r->set_line) > 0) {
		r->set_cos = true;
		r->cos = (uint8_t)v;
	}
}

/* `random-detect-threshold = { profile = "burst-optimized"; ecn = true; }` */
static void conf_nx_wred_profile(struct conf_ctx *c, const config_setting_t *e,
                                 const char *where, struct policy_queue *q)
{
	static const enum conf_key keys[] = {CONF_K_PROFILE, CONF_K_ECN};
	const config_setting_t *g = conf_typed(
	    c, e, CONF_K_RANDOM_DETECT_THRESHOLD, where, CONFIG_TYPE_GROUP);
	char gwhere[CONF_SUBWHERE_MAX], name[32];
	unsigned line = 0;
	int w;

	if (!g)
		return;
	conf_where_of(gwhere, sizeof(gwhere), CONF_K_RANDOM_DETECT_THRESHOLD,
	              where);
	conf_check_keys(c, g, gwhere, keys, CONF_NKEYS(keys));
	q->wred_profile_line = conf_line(g);
	if (conf_string(c, g, CONF_K_PROFILE, gwhere, name, sizeof(name),
	                &line) <= 0) {
		diag_err(c->d, q->wred_profile_line, "%s: expected %s = \"%s\"",
		         gwhere, conf_key_name(CONF_K_PROFILE),
		         policy_wred_profile_name(POLICY_WRED_BURST_OPTIMIZED));
		return;
	}
	w = policy_wred_profile_parse(name);
	if (w < 0) {
		diag_err(c->d, line,
		         "invalid %s '%s' in %s, expected \"%s\" or \"%s\"",
		         conf_key_name(CONF_K_PROFILE), name, gwhere,
		         policy_wred_profile_name(POLICY_WRED_BURST_OPTIMIZED),
		         policy_wred_profile_name(POLICY_WRED_MESH_OPTIMIZED));
		return;
	}
	q->wred_profile = (uint8_t)(w + 1);
	conf_bool(c, g, CONF_K_ECN, gwhere, &q->wred_profile_ecn, NULL);
}

/* A rate "10 gbps" of the shape group G. */
static int conf_nx_rate(struct conf_ctx *c, const config_setting_t *g,
                        enum conf_key key, const char *where, uint64_t *out)
{
	char text[48], msg[128];
	unsigned line = 0;

	if (conf_string(c, g, key, where, text, sizeof(text), &line) <= 0)
		return -1;
	if (units_kbps_parse(text, out, msg, sizeof(msg)) < 0) {
		diag_err(c->d, line, "%s in %s", msg, where);
		return -1;
	}
	return 0;
}

/* `shape = { min = "10 gbps"; max = "40 gbps"; }` */
static void conf_nx_shape(struct conf_ctx *c, const config_setting_t *e,
                          const char *where, struct policy_queue *q)
{
	static const enum conf_key keys[] = {CONF_K_MIN, CONF_K_MAX_RATE};
	const config_setting_t *g =
	    conf_typed(c, e, CONF_K_SHAPE, where, CONFIG_TYPE_GROUP);
	char gwhere[CONF_SUBWHERE_MAX];
	uint64_t min = 0, max = 0;

	if (!g)
		return;
	conf_where_of(gwhere, sizeof(gwhere), CONF_K_SHAPE, where);
	conf_check_keys(c, g, gwhere, keys, CONF_NKEYS(keys));
	q->shape_line = conf_line(g);
	if (conf_nx_rate(c, g, CONF_K_MIN, gwhere, &min) < 0 ||
	    conf_nx_rate(c, g, CONF_K_MAX_RATE, gwhere, &max) < 0)
		return;
	if (!max || min > max) {
		diag_err(c->d, q->shape_line,
		         "%s: expected 0 <= min <= max and max above 0",
		         gwhere);
		return;
	}
	q->shape_min_kbps = min;
	q->shape_max_kbps = max;
}

void conf_nx_queue(struct conf_ctx *c, const config_setting_t *e,
                   const char *where, struct policy_queue *q)
{
	long long v;

	/* A size like the thresholds; 0 is "roced's default", refused. */
	if (conf_threshold(c, e, CONF_K_QUEUE_LIMIT, where,
	                   &q->queue_limit_bytes, &q->queue_limit_line) > 0 &&
	    !q->queue_limit_bytes)
		diag_err(c->d, q->queue_limit_line,
		         "%s 0 in %s, expected 1 byte or more",
		         conf_key_name(CONF_K_QUEUE_LIMIT), where);
	if (conf_int(c, e, CONF_K_QUEUE_LIMIT_DYNAMIC, where, 0, 10, 0, 10, &v,
	             &q->queue_limit_line) > 0)
		q->queue_limit_dynamic = (uint8_t)(v + 1);
	conf_nx_wred_profile(c, e, where, q);
	conf_nx_shape(c, e, where, q);
}
