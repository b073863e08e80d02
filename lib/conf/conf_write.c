/* conf_write: policy -> libconfig text in the schema conf.c reads, so that
 * `copy running-config startup-config` writes a file that loads back to
 * the same policy.
 *
 * The form is canonical: objects in policy order, queues from q7 down to
 * q-default (as NX-OS lists them), single values as integers, sets as
 * "a-b,c" strings, thresholds in the largest exact unit, and every
 * watchdog timer spelt out. Defaults of interfaces (PFC mode auto,
 * watchdog inherited) are left out, as NX-OS leaves them out of its
 * running-config.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "conf/conf.h"
#include "base/strbuf.h"
#include "model/setting.h"
#include "model/units.h"

/* Drop the blanks that items and indents leave at the end of SB. */
static void conf_write_trim(struct strbuf *sb)
{
	while (sb->len &&
	       (sb->s[sb->len - 1] == ' ' || sb->s[sb->len - 1] == '\t'))
		sb->s[--sb->len] = '\0';
}

/* End the line and indent the next. */
static void conf_write_nl(struct strbuf *sb, unsigned indent)
{
	conf_write_trim(sb);
	strbuf_puts(sb, "\n");
	for (unsigned i = 0; i < indent; i++)
		strbuf_puts(sb, "\t");
}

/* A libconfig string literal: quotes and backslashes escaped, control
 * characters as \xNN, which libconfig reads back. */
static void conf_write_quoted(struct strbuf *sb, const char *s)
{
	strbuf_puts(sb, "\"");
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			strbuf_printf(sb, "\\%c", ch);
		else if (ch < 0x20 || ch == 0x7f)
			strbuf_printf(sb, "\\x%02x", ch);
		else
			strbuf_add(sb, s, 1);
	}
	strbuf_puts(sb, "\"");
}

/* Items are written "key = value; " and lines end with conf_write_nl. */
static void conf_write_str(struct strbuf *sb, enum conf_key key, const char *v)
{
	strbuf_printf(sb, "%s = ", conf_key_name(key));
	conf_write_quoted(sb, v);
	strbuf_puts(sb, "; ");
}

static void conf_write_uint(struct strbuf *sb, enum conf_key key,
                            unsigned long long v)
{
	strbuf_printf(sb, "%s = %llu; ", conf_key_name(key), v);
}

static void conf_write_bool(struct strbuf *sb, enum conf_key key, bool v)
{
	strbuf_printf(sb, "%s = %s; ", conf_key_name(key),
	              v ? "true" : "false");
}

/* Opens the group "KEY = { " (items may follow on the line; a line end
 * drops the blank); the caller ends it with "};". */
static void conf_write_group(struct strbuf *sb, enum conf_key key)
{
	strbuf_printf(sb, "%s = { ", conf_key_name(key));
}

/* A value set: one value as an integer, more as a list string. */
static void conf_write_set(struct strbuf *sb, enum conf_key key, uint64_t mask)
{
	char buf[200];

	if (!mask)
		return;
	if (!(mask & (mask - 1))) {
		strbuf_printf(sb, "%s = %d; ", conf_key_name(key),
		              __builtin_ctzll(mask));
		return;
	}
	policy_list_format(mask, buf, sizeof(buf));
	strbuf_printf(sb, "%s = \"%s\"; ", conf_key_name(key), buf);
}

/* The file's back end of setting_visit: each row "key = value; ", each
 * nested group "key = { ... };", on lines of their own at INDENT (+ the
 * depth) with NL, else after each other on the current line; with
 * BLANK (the top level's rows), each row after a blank line. */
struct conf_write_visit {
	struct strbuf *sb;
	unsigned indent;
	bool nl, blank;
};

static void conf_write_row(void *ctx, unsigned depth, const struct setting *s,
                           uint32_t v)
{
	struct conf_write_visit *w = ctx;
	char num[16];

	if (w->blank)
		strbuf_puts(w->sb, "\n");
	if (w->nl)
		conf_write_nl(w->sb, w->indent + depth);
	strbuf_printf(w->sb, "%s = ", s->conf);
	if (s->type == SETTING_ENUM)
		conf_write_quoted(
		    w->sb, setting_value_text(s, v, false, num, sizeof(num)));
	else
		strbuf_puts(w->sb,
		            setting_value_text(s, v, false, num, sizeof(num)));
	strbuf_puts(w->sb, "; ");
	if (w->blank)
		conf_write_nl(w->sb, 0);
}

static void conf_write_open(void *ctx, unsigned depth, enum setting_place sub)
{
	struct conf_write_visit *w = ctx;

	if (w->nl)
		conf_write_nl(w->sb, w->indent + depth);
	strbuf_printf(w->sb, "%s = { ", setting_place_key(sub));
}

static void conf_write_close(void *ctx, unsigned depth, enum setting_place sub)
{
	struct conf_write_visit *w = ctx;

	(void)sub;
	if (w->nl)
		conf_write_nl(w->sb, w->indent + depth);
	strbuf_puts(w->sb, w->nl ? "};" : "}; ");
}

/* The rows of PLACE in BASE that the file holds (see conf_write_visit). */
static const struct setting_visitor conf_write_visitor = {
    conf_write_row, conf_write_open, conf_write_close};

static void conf_write_settings(struct strbuf *sb, enum setting_place place,
                                const void *base, unsigned indent, bool nl)
{
	struct conf_write_visit w = {sb, indent, nl, false};

	setting_visit(place, base, &conf_write_visitor, &w);
}

/* Opens "KEY = (" at INDENT; entries follow at INDENT + 1. */
static void conf_write_list_open(struct strbuf *sb, enum conf_key key,
                                 unsigned indent)
{
	strbuf_printf(sb, "%s = (", conf_key_name(key));
	conf_write_nl(sb, indent + 1);
}

/* Ends entry I of N and starts the next line. */
static void conf_write_list_next(struct strbuf *sb, size_t i, size_t n,
                                 unsigned indent)
{
	if (i + 1 < n) {
		strbuf_puts(sb, ",");
		conf_write_nl(sb, indent + 1);
	} else {
		conf_write_nl(sb, indent);
	}
}

/* The N3K/N5K queuing class-maps: a name and the queue's qos-group. */
static void conf_write_class_que(struct strbuf *sb, const struct policy *p)
{
	if (!p->nqclasses)
		return;
	conf_write_list_open(sb, CONF_K_QUEUING, 1);
	for (size_t i = 0; i < p->nqclasses; i++) {
		strbuf_puts(sb, "{ ");
		conf_write_str(sb, CONF_K_NAME, p->qclasses[i].name);
		conf_write_set(sb, CONF_K_QOS_GROUP, p->qclasses[i].qos_groups);
		strbuf_puts(sb, "}");
		conf_write_list_next(sb, i, p->nqclasses, 1);
	}
	strbuf_puts(sb, ");");
	conf_write_nl(sb, 1);
}

static void conf_write_class_maps(struct strbuf *sb, const struct policy *p)
{
	if (!p->nclass_qos && !p->nclass_nq && !p->nqclasses)
		return;
	conf_write_group(sb, CONF_K_CLASS_MAP);
	conf_write_nl(sb, 1);
	if (p->nclass_qos) {
		conf_write_list_open(sb, CONF_K_QOS, 1);
		for (size_t i = 0; i < p->nclass_qos; i++) {
			const struct policy_class_qos *c = &p->class_qos[i];

			strbuf_puts(sb, "{ ");
			conf_write_str(sb, CONF_K_NAME, c->name);
			conf_write_str(sb, CONF_K_MATCH,
			               policy_match_name(c->match));
			conf_write_set(sb, CONF_K_COS, c->cos);
			/* the precedences' DSCP values are written as them */
			conf_write_set(
			    sb, CONF_K_DSCP,
			    c->dscp & ~policy_precedence_dscp(c->precedence));
			conf_write_set(sb, CONF_K_PRECEDENCE, c->precedence);
			if (c->description[0])
				conf_write_str(sb, CONF_K_DESCRIPTION,
				               c->description);
			strbuf_puts(sb, "}");
			conf_write_list_next(sb, i, p->nclass_qos, 1);
		}
		strbuf_puts(sb, ");");
		conf_write_nl(sb, 1);
	}
	if (p->nclass_nq) {
		conf_write_list_open(sb, CONF_K_NETWORK_QOS, 1);
		for (size_t i = 0; i < p->nclass_nq; i++) {
			strbuf_puts(sb, "{ ");
			conf_write_str(sb, CONF_K_NAME, p->class_nq[i].name);
			conf_write_set(sb, CONF_K_QOS_GROUP,
			               p->class_nq[i].qos_groups);
			if (p->class_nq[i].description[0])
				conf_write_str(sb, CONF_K_DESCRIPTION,
				               p->class_nq[i].description);
			strbuf_puts(sb, "}");
			conf_write_list_next(sb, i, p->nclass_nq, 1);
		}
		strbuf_puts(sb, ");");
		conf_write_nl(sb, 1);
	}
	conf_write_class_que(sb, p);
	conf_write_trim(sb);
	strbuf_puts(sb, "};\n\n");
}

/* "{ name = NAME; class = ( ... ); }" of one policy-map at indent 2; the
 * class entries come from CLASS(SB, MAP, index). */
static void conf_write_map(struct strbuf *sb, const char *name,
                           const char *descr, size_t n, const void *map,
                           void (*entry)(struct strbuf *sb, const void *map,
                                         size_t i))
{
	strbuf_puts(sb, "{");
	conf_write_nl(sb, 3);
	conf_write_str(sb, CONF_K_NAME, name);
	if (descr[0])
		conf_write_str(sb, CONF_K_DESCRIPTION, descr);
	conf_write_nl(sb, 3);
	if (!n) {
		strbuf_printf(sb, "%s = ();", conf_key_name(CONF_K_CLASS));
	} else {
		conf_write_list_open(sb, CONF_K_CLASS, 3);
		for (size_t i = 0; i < n; i++) {
			entry(sb, map, i);
			conf_write_list_next(sb, i, n, 3);
		}
		strbuf_puts(sb, ");");
	}
	conf_write_nl(sb, 2);
	strbuf_puts(sb, "}");
}

static void conf_write_qos_rule(struct strbuf *sb, const void *map, size_t i)
{
	const struct policy_qos_rule *r =
	    &((const struct policy_map_qos *)map)->rules[i];

	strbuf_puts(sb, "{ ");
	conf_write_str(sb, CONF_K_NAME, r->class_name);
	if (r->set_qos_group)
		conf_write_uint(sb, CONF_K_SET_QOS_GROUP, r->qos_group);
	if (r->set_dscp)
		conf_write_uint(sb, CONF_K_SET_DSCP, r->dscp);
	if (r->set_cos)
		conf_write_uint(sb, CONF_K_SET_COS, r->cos);
	strbuf_puts(sb, "}");
}

/* "pause-buffer = { ... };" of B, when set, on a line at INDENT. */
static void conf_write_pause_buffer(struct strbuf *sb,
                                    const struct policy_pause_buffer *b,
                                    unsigned indent)
{
	if (!b->set)
		return;
	conf_write_nl(sb, indent);
	conf_write_group(sb, CONF_K_PAUSE_BUFFER);
	conf_write_uint(sb, CONF_K_BUFFER_SIZE, b->buffer_size);
	conf_write_uint(sb, CONF_K_PAUSE_THRESHOLD, b->pause_threshold);
	conf_write_uint(sb, CONF_K_RESUME_THRESHOLD, b->resume_threshold);
	strbuf_puts(sb, "};");
	conf_write_nl(sb, indent - 1);
}

/* Queue entries are written q7 .. q1, then q-default (queue 0), as NX-OS
 * shows them, then the ingress classes c-in-q7 .. c-in-q-default (their
 * numbers plus POLICY_NQUEUES); I counts configured queues only. */
static unsigned conf_write_queue_nth(const struct policy_map_queuing *m,
                                     size_t i)
{
	for (unsigned k = 0; k < POLICY_NQUEUES; k++) {
		unsigned n = POLICY_NQUEUES - 1 - k;

		if (m->queue[n].configured && !i--)
			return n;
	}
	for (unsigned k = 0; k < POLICY_NQUEUES; k++) {
		unsigned n = POLICY_NQUEUES - 1 - k;

		if (m->in_queue[n].configured && !i--)
			return POLICY_NQUEUES + n;
	}
	return 0;
}

static void conf_write_queue(struct strbuf *sb, const void *map, size_t i)
{
	const struct policy_map_queuing *m = map;
	unsigned n = conf_write_queue_nth(m, i);
	const struct policy_queue *q = &m->queue[n % POLICY_NQUEUES];
	char min[32], max[32];

	if (n >= POLICY_NQUEUES) {
		q = &m->in_queue[n - POLICY_NQUEUES];
		strbuf_puts(sb, "{ ");
		conf_write_str(sb, CONF_K_NAME,
		               policy_in_queue_name(n - POLICY_NQUEUES));
		conf_write_pause_buffer(sb, &q->pause, 5);
		strbuf_puts(sb, "}");
		return;
	}
	strbuf_puts(sb, "{ ");
	conf_write_str(sb, CONF_K_NAME, policy_queue_name_of(q, n));
	if (q->priority_level)
		conf_write_uint(sb, CONF_K_PRIORITY_LEVEL, q->priority_level);
	if (q->has_bandwidth_min)
		conf_write_uint(sb, CONF_K_BANDWIDTH_PERCENT,
		                q->bandwidth_min_percent);
	if (q->has_bandwidth)
		conf_write_uint(sb, CONF_K_BANDWIDTH_REMAINING_PERCENT,
		                q->bandwidth_percent);
	if (q->queue_limit_bytes) {
		char size[32];

		units_bytes_format(q->queue_limit_bytes, size, sizeof(size));
		conf_write_str(sb, CONF_K_QUEUE_LIMIT, size);
	}
	if (q->queue_limit_dynamic)
		conf_write_uint(sb, CONF_K_QUEUE_LIMIT_DYNAMIC,
		                q->queue_limit_dynamic - 1u);
	if (q->wred_profile) {
		conf_write_group(sb, CONF_K_RANDOM_DETECT_THRESHOLD);
		conf_write_str(
		    sb, CONF_K_PROFILE,
		    policy_wred_profile_name(
		        (enum policy_wred_profile)(q->wred_profile - 1)));
		if (q->wred_profile_ecn)
			conf_write_bool(sb, CONF_K_ECN, true);
		strbuf_puts(sb, "}; ");
	}
	if (q->shape_max_kbps) {
		char lo[32], hi[32];

		units_kbps_format(q->shape_min_kbps, lo, sizeof(lo));
		units_kbps_format(q->shape_max_kbps, hi, sizeof(hi));
		conf_write_group(sb, CONF_K_SHAPE);
		conf_write_str(sb, CONF_K_MIN, lo);
		conf_write_str(sb, CONF_K_MAX_RATE, hi);
		strbuf_puts(sb, "}; ");
	}
	if (q->wred.enabled) {
		units_bytes_format(q->wred.min_bytes, min, sizeof(min));
		units_bytes_format(q->wred.max_bytes, max, sizeof(max));
		conf_write_nl(sb, 5);
		conf_write_group(sb, CONF_K_RANDOM_DETECT);
		conf_write_nl(sb, 6);
		conf_write_str(sb, CONF_K_MINIMUM_THRESHOLD, min);
		conf_write_str(sb, CONF_K_MAXIMUM_THRESHOLD, max);
		conf_write_nl(sb, 6);
		conf_write_uint(sb, CONF_K_DROP_PROBABILITY,
		                q->wred.drop_probability);
		conf_write_uint(sb, CONF_K_WEIGHT, q->wred.weight);
		conf_write_bool(sb, CONF_K_ECN, q->wred.ecn);
		conf_write_nl(sb, 5);
		strbuf_puts(sb, "};");
		conf_write_nl(sb, 4);
	}
	strbuf_puts(sb, "}");
}

static void conf_write_nq_rule(struct strbuf *sb, const void *map, size_t i)
{
	const struct policy_nq_rule *r =
	    &((const struct policy_map_nq *)map)->rules[i];

	strbuf_puts(sb, "{ ");
	conf_write_str(sb, CONF_K_NAME, r->class_name);
	conf_write_set(sb, CONF_K_PAUSE_PFC_COS, r->pfc_cos);
	if (r->mtu)
		conf_write_uint(sb, CONF_K_MTU, r->mtu);
	if (r->no_drop)
		conf_write_bool(sb, CONF_K_PAUSE_NO_DROP, true);
	if (r->pfc_rx_only)
		conf_write_bool(sb, CONF_K_PAUSE_RECEIVE_ONLY, true);
	conf_write_pause_buffer(sb, &r->buffer, 5);
	strbuf_puts(sb, "}");
}

static void conf_write_policy_maps(struct strbuf *sb, const struct policy *p)
{
	if (!p->nmap_qos && !p->nmap_queuing && !p->nmap_nq)
		return;
	conf_write_group(sb, CONF_K_POLICY_MAP);
	conf_write_nl(sb, 1);
	if (p->nmap_qos) {
		conf_write_list_open(sb, CONF_K_QOS, 1);
		for (size_t i = 0; i < p->nmap_qos; i++) {
			conf_write_map(sb, p->map_qos[i].name,
			               p->map_qos[i].description,
			               p->map_qos[i].nrules, &p->map_qos[i],
			               conf_write_qos_rule);
			conf_write_list_next(sb, i, p->nmap_qos, 1);
		}
		strbuf_puts(sb, ");");
		conf_write_nl(sb, 1);
	}
	if (p->nmap_queuing) {
		conf_write_list_open(sb, CONF_K_QUEUING, 1);
		for (size_t i = 0; i < p->nmap_queuing; i++) {
			const struct policy_map_queuing *m = &p->map_queuing[i];
			size_t n = 0;

			for (unsigned q = 0; q < POLICY_NQUEUES; q++)
				n += m->queue[q].configured +
				     m->in_queue[q].configured;
			conf_write_map(sb, m->name, m->description, n, m,
			               conf_write_queue);
			conf_write_list_next(sb, i, p->nmap_queuing, 1);
		}
		strbuf_puts(sb, ");");
		conf_write_nl(sb, 1);
	}
	if (p->nmap_nq) {
		conf_write_list_open(sb, CONF_K_NETWORK_QOS, 1);
		for (size_t i = 0; i < p->nmap_nq; i++) {
			conf_write_map(sb, p->map_nq[i].name,
			               p->map_nq[i].description,
			               p->map_nq[i].nrules, &p->map_nq[i],
			               conf_write_nq_rule);
			conf_write_list_next(sb, i, p->nmap_nq, 1);
		}
		strbuf_puts(sb, ");");
		conf_write_nl(sb, 1);
	}
	conf_write_trim(sb);
	strbuf_puts(sb, "};\n\n");
}

static void conf_write_system(struct strbuf *sb, const struct policy *p)
{
	const struct policy_system *s = &p->system;

	if (!s->network_qos[0] && !s->qos_input[0] && !s->queuing_output[0] &&
	    !s->queuing_input[0])
		return;
	conf_write_group(sb, CONF_K_SYSTEM_QOS);
	conf_write_nl(sb, 1);
	conf_write_group(sb, CONF_K_SERVICE_POLICY);
	if (s->network_qos[0])
		conf_write_str(sb, CONF_K_NETWORK_QOS, s->network_qos);
	if (s->qos_input[0])
		conf_write_str(sb, CONF_K_QOS_INPUT, s->qos_input);
	if (s->queuing_output[0])
		conf_write_str(sb, CONF_K_QUEUING_OUTPUT, s->queuing_output);
	if (s->queuing_input[0])
		conf_write_str(sb, CONF_K_QUEUING_INPUT, s->queuing_input);
	strbuf_puts(sb, "};");
	conf_write_nl(sb, 0);
	strbuf_puts(sb, "};\n\n");
}

/* --- LLDP and DCBX: only what differs from the defaults --- */

static void conf_write_iface_lldp(struct strbuf *sb,
                                  const struct policy_iface *f)
{
	const struct policy_iface_lldp *l = &f->lldp;

	if (!setting_place_written(SETTING_AT_IFACE_LLDP, f, true) &&
	    !l->has_agent)
		return;
	conf_write_nl(sb, 2);
	conf_write_group(sb, CONF_K_LLDP);
	/* transmit, receive, dcbx-willing */
	conf_write_settings(sb, SETTING_AT_IFACE_LLDP, f, 3, false);
	if (l->has_agent)
		conf_write_str(sb, CONF_K_DCBX_AGENT,
		               policy_dcbx_agent_name(l->agent));
	strbuf_puts(sb, "};");
}

static void conf_write_lldp(struct strbuf *sb, const struct policy *p)
{
	const struct policy_lldp *l = &p->lldp;

	if (!setting_place_written(SETTING_AT_LLDP, p, true) && !l->no_dcbxp &&
	    !l->egress_queuing && l->agent == POLICY_DCBX_AGENT_ROCED)
		return;
	strbuf_puts(sb, "\n");
	conf_write_group(sb, CONF_K_LLDP);
	/* feature, timer, holdtime, reinit */
	conf_write_settings(sb, SETTING_AT_LLDP, p, 1, true);
	if (l->no_dcbxp || l->egress_queuing) {
		conf_write_nl(sb, 1);
		conf_write_group(sb, CONF_K_TLV_SELECT);
		conf_write_bool(sb, CONF_K_DCBXP, !l->no_dcbxp);
		if (l->egress_queuing)
			conf_write_bool(sb, CONF_K_EGRESS_QUEUING, true);
		strbuf_puts(sb, "};");
	}
	if (l->agent != POLICY_DCBX_AGENT_ROCED) {
		conf_write_nl(sb, 1);
		conf_write_str(sb, CONF_K_DCBX_AGENT,
		               policy_dcbx_agent_name(l->agent));
	}
	conf_write_nl(sb, 0);
	strbuf_puts(sb, "};\n");
}

static void conf_write_iface(struct strbuf *sb, const struct policy_iface *f)
{
	strbuf_puts(sb, "{");
	conf_write_nl(sb, 2);
	conf_write_str(sb, CONF_K_NAME, f->name);
	if (f->alias[0])
		conf_write_str(sb, CONF_K_ALIAS, f->alias);
	if (f->description[0]) {
		conf_write_nl(sb, 2);
		conf_write_str(sb, CONF_K_DESCRIPTION, f->description);
	}
	if (setting_place_written(SETTING_AT_IFACE_HEAD, f, true) ||
	    f->shutdown != POLICY_INHERIT)
		conf_write_nl(sb, 2);
	/* mtu */
	conf_write_settings(sb, SETTING_AT_IFACE_HEAD, f, 2, false);
	if (f->shutdown != POLICY_INHERIT)
		conf_write_bool(sb, CONF_K_SHUTDOWN, f->shutdown == POLICY_ON);
	if (f->pfc_mode != POLICY_PFC_AUTO || f->watchdog != POLICY_INHERIT ||
	    setting_place_written(SETTING_AT_IFACE_PFC, f, true)) {
		conf_write_nl(sb, 2);
		conf_write_group(sb, CONF_K_PRIORITY_FLOW_CONTROL);
		if (f->pfc_mode != POLICY_PFC_AUTO)
			conf_write_str(sb, CONF_K_MODE,
			               policy_pfc_mode_name(f->pfc_mode));
		if (f->watchdog != POLICY_INHERIT)
			conf_write_bool(sb, CONF_K_WATCH_DOG_INTERVAL,
			                f->watchdog == POLICY_ON);
		if (f->pfc_send_tlv)
			conf_write_bool(sb, CONF_K_SEND_TLV, true);
		conf_write_settings(sb, SETTING_AT_IFACE_PFC, f, 3, false);
		strbuf_puts(sb, "};");
	}
	/* qdisc-takeover, fabric-internal, ... */
	conf_write_settings(sb, SETTING_AT_IFACE, f, 2, true);
	/* link pause */
	if (setting_place_written(SETTING_AT_IFACE_FC, f, true)) {
		conf_write_nl(sb, 2);
		conf_write_group(sb, CONF_K_FLOWCONTROL);
		conf_write_settings(sb, SETTING_AT_IFACE_FC, f, 3, false);
		strbuf_puts(sb, "};");
	}
	conf_write_iface_lldp(sb, f);
	if (f->channel_group) {
		conf_write_nl(sb, 2);
		conf_write_group(sb, CONF_K_CHANNEL_GROUP);
		conf_write_uint(sb, CONF_K_NUMBER, f->channel_group);
		if (f->channel_mode != POLICY_CHANNEL_MODE_NONE)
			conf_write_str(
			    sb, CONF_K_MODE,
			    policy_channel_mode_name(f->channel_mode));
		strbuf_puts(sb, "};");
	}
	if (f->qos_input[0] || f->queuing_output[0] || f->queuing_input[0]) {
		conf_write_nl(sb, 2);
		conf_write_group(sb, CONF_K_SERVICE_POLICY);
		if (f->qos_input[0])
			conf_write_str(sb, CONF_K_QOS_INPUT, f->qos_input);
		if (f->queuing_output[0])
			conf_write_str(sb, CONF_K_QUEUING_OUTPUT,
			               f->queuing_output);
		if (f->queuing_input[0])
			conf_write_str(sb, CONF_K_QUEUING_INPUT,
			               f->queuing_input);
		strbuf_puts(sb, "};");
	}
	conf_write_nl(sb, 1);
	strbuf_puts(sb, "}");
}

/* The port-channels' kept lines (their members take them when they
 * join): `interface port-channelN` blocks with no port of that alias. */
static void conf_write_port_channels(struct strbuf *sb, const struct policy *p)
{
	size_t n = 0, k = 0;

	for (size_t i = 0; i < p->nprofiles; i++)
		n += !strncasecmp(p->profiles[i].name, "port-channel", 12) &&
		     !policy_find_iface(p, p->profiles[i].name);
	if (!n)
		return;
	conf_write_list_open(sb, CONF_K_PORT_CHANNEL, 0);
	for (size_t i = 0; i < p->nprofiles; i++) {
		const struct policy_port_profile *pp = &p->profiles[i];

		if (strncasecmp(pp->name, "port-channel", 12) ||
		    policy_find_iface(p, pp->name))
			continue;
		strbuf_puts(sb, "{ ");
		conf_write_str(sb, CONF_K_NAME, pp->name);
		strbuf_printf(sb, "%s = (", conf_key_name(CONF_K_LINES));
		for (size_t l = 0; l < pp->nlines; l++) {
			conf_write_nl(sb, 2);
			conf_write_quoted(sb, pp->lines[l]);
			if (l + 1 < pp->nlines)
				strbuf_puts(sb, ",");
		}
		strbuf_puts(sb, " ); }");
		conf_write_list_next(sb, k++, n, 0);
	}
	strbuf_puts(sb, ");\n\n");
}

static void conf_write_ifaces(struct strbuf *sb, const struct policy *p)
{
	/* Said, not left out: roced refuses to reload a file without an
	 * interface list when it programs ports, as one caught half
	 * written, and a saved running-config must reload as it is. */
	size_t n = 0, k = 0;

	/* a bond's members are the kernel's (policy_bond_sync) */
	for (size_t i = 0; i < p->nifaces; i++)
		n += !p->ifaces[i].bond[0];
	if (!n) {
		strbuf_printf(sb, "%s = ( );\n\n",
		              conf_key_name(CONF_K_INTERFACE));
		return;
	}
	conf_write_list_open(sb, CONF_K_INTERFACE, 0);
	for (size_t i = 0; i < p->nifaces; i++) {
		if (p->ifaces[i].bond[0])
			continue;
		conf_write_iface(sb, &p->ifaces[i]);
		conf_write_list_next(sb, k++, n, 0);
	}
	strbuf_puts(sb, ");\n\n");
}

/* The watchdog's group: its timers always spelt out. */
static void conf_write_pfcwd(struct strbuf *sb, const struct policy *p)
{
	conf_write_group(sb, CONF_K_PRIORITY_FLOW_CONTROL);
	conf_write_settings(sb, SETTING_AT_PFC, p, 1, true);
	conf_write_nl(sb, 0);
	strbuf_puts(sb, "};\n");
}

/* The top level's own settings, each after a blank line. */
static void conf_write_top(struct strbuf *sb, const struct policy *p)
{
	struct conf_write_visit w = {sb, 0, false, true};

	setting_visit(SETTING_AT_TOP, p, &conf_write_visitor, &w);
}

/* --- metrics: only when set --- */

static void conf_write_metrics(struct strbuf *sb, const struct policy *p)
{
	const struct policy_metrics *m = &p->metrics;

	if (!m->textfile[0] && m->interval == POLICY_METRICS_INTERVAL)
		return;
	strbuf_puts(sb, "\n");
	conf_write_group(sb, CONF_K_METRICS);
	if (m->textfile[0]) {
		conf_write_nl(sb, 1);
		conf_write_str(sb, CONF_K_TEXTFILE, m->textfile);
	}
	if (m->interval != POLICY_METRICS_INTERVAL) {
		conf_write_nl(sb, 1);
		conf_write_uint(sb, CONF_K_INTERVAL, m->interval);
	}
	conf_write_nl(sb, 0);
	strbuf_puts(sb, "};\n");
}

/* The RoCE mode the objects make (the closest one once edited), while
 * loading it back adds nothing the file does not already define (the
 * file's own objects win: policy_roce_complete): it tells the reader
 * where they came from and survives copy running-config startup-config. */
static void conf_write_roce(struct strbuf *sb, const struct policy *p)
{
	enum policy_roce_mode m = policy_roce_mode(p, NULL);

	if (m == POLICY_ROCE_NONE || !policy_roce_complete(p))
		return;
	strbuf_printf(sb, "%s = \"%s\";\n\n", conf_key_name(CONF_K_ROCE),
	              policy_roce_mode_name(m));
}

char *conf_write_string(const struct policy *p)
{
	struct strbuf sb;

	strbuf_init(&sb);
	strbuf_puts(&sb, "# roced configuration (libconfig syntax, see "
	                 "roced.conf(5)).\n\n");
	conf_write_roce(&sb, p);
	conf_write_class_maps(&sb, p);
	conf_write_policy_maps(&sb, p);
	conf_write_system(&sb, p);
	conf_write_port_channels(&sb, p);
	conf_write_ifaces(&sb, p);
	conf_write_pfcwd(&sb, p);
	conf_write_top(&sb, p);
	conf_write_lldp(&sb, p);
	conf_write_metrics(&sb, p);
	if (sb.oom) {
		strbuf_free(&sb);
		return NULL;
	}
	return strbuf_detach(&sb);
}
