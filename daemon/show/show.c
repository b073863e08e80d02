/* show: see show.h. This file builds the answers about ports (the
 * queries come filled by the command table's show rows,
 * cmd/cmd_show.h); show_policy.c builds the policy views and
 * show_text.c renders every answer as NX-OS text. */
#include "show/show.h"

#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "show/show_int.h"

bool show_query_ports(const struct show_query *q)
{
	return q->kind == CTL_SHOW_POLICY_MAP_IF ||
	       q->kind == CTL_SHOW_QUEUING_IF || q->kind == CTL_SHOW_PFC_IF ||
	       q->kind == CTL_SHOW_PFC_QUEUE || q->kind == CTL_SHOW_LLDP_DCBX ||
	       q->kind == CTL_SHOW_LLDP_NEIGHBORS ||
	       q->kind == CTL_SHOW_LLDP_TRAFFIC ||
	       q->kind == CTL_SHOW_LLDP_IF || q->kind == CTL_SHOW_FC_IF ||
	       q->kind == CTL_SHOW_METRICS || q->kind == CTL_SHOW_ROCE ||
	       q->kind == CTL_SHOW_ROCE_FABRIC ||
	       q->kind == CTL_SHOW_IF_COUNTERS;
}

/* --- ports --- */

static void show_port_names(struct json_object *o, const struct plan_port *pp,
                            const struct show_port_state *st)
{
	show_add_str(o, "name", pp->ifname);
	if (pp->alias[0])
		show_add_str(o, "alias", pp->alias);
	show_add_bool(o, "exists", st->exists);
}

/* The port's state: the registry's, unless the kernel no longer holds
 * the root qdisc of a plan it took (someone removed or replaced it since;
 * the next reconcile of the port puts it back). */
static void show_port_state_json(struct json_object *o,
                                 const struct plan_port *pp,
                                 const struct show_port_state *st)
{
	enum plan_port_state state = st->state;
	const char *reason = st->reason;
	bool root = false;

	for (size_t i = 0; i < pp->nqdiscs; i++)
		root = root || pp->qdiscs[i].parent == PLAN_H_ROOT;
	if (state == PLAN_PORT_PROGRAMMED && root && st->stats &&
	    !st->roced_root) {
		state = PLAN_PORT_NOT_PROGRAMMED;
		reason = "roced's root qdisc is gone from the kernel: someone "
		         "changed the port since roced programmed it (roced "
		         "repairs it, unless the port is contested; a reload "
		         "puts it back)";
	}
	show_add_str(o, "state", plan_port_state_name(state));
	if (state == PLAN_PORT_PROGRAMMED)
		json_object_object_add(o, "reason", NULL);
	else
		show_add_str(o, "reason",
		             reason[0] ? reason : "not applied yet");
	if (state == PLAN_PORT_REFUSED) {
		struct json_object *f = json_object_new_object();
		char handle[16];

		snprintf(handle, sizeof(handle),
		         "%x:", PLAN_H_MAJ(st->foreign_handle));
		show_add_str(f, "kind", st->foreign_kind);
		show_add_str(f, "handle", handle);
		json_object_object_add(o, "foreign-root-qdisc", f);
	}
}

/* The counters of queue Q's leaf, null when the kernel has no leaf for it
 * (or was not read); RED's counters (the leaf's, or those of the red
 * inside it) are null where there is no RED. */
static struct json_object *show_counters(const struct show_port_state *st,
                                         unsigned q)
{
	const struct tc_stats_counters *c = &st->queue[q];
	const struct tc_stats_counters *red = c->red             ? c
	                                      : st->inner_red[q] ? &st->inner[q]
	                                                         : NULL;
	struct json_object *o;

	if (!st->stats || !st->queue_seen[q])
		return NULL;
	o = json_object_new_object();
	if (c->basic) {
		show_add_int(o, "tx-packets", (int64_t)c->packets);
		show_add_int(o, "tx-bytes", (int64_t)c->bytes);
	} else {
		json_object_object_add(o, "tx-packets", NULL);
		json_object_object_add(o, "tx-bytes", NULL);
	}
	if (c->queue) {
		show_add_int(o, "dropped-packets", c->drops);
		show_add_int(o, "queue-depth-packets", c->qlen);
		show_add_int(o, "queue-depth-bytes", c->backlog);
		/* the watermark since clear qos statistics (NX-OS's peak) */
		if (st->qtotal_ok[q])
			show_add_int(o, "peak-queue-depth-bytes",
			             st->qpeak[q][QCARRY_PEAK_USER]);
		else
			json_object_object_add(o, "peak-queue-depth-bytes",
			                       NULL);
		show_add_int(o, "overlimits", c->overlimits);
	} else {
		json_object_object_add(o, "dropped-packets", NULL);
		json_object_object_add(o, "queue-depth-packets", NULL);
		json_object_object_add(o, "queue-depth-bytes", NULL);
		json_object_object_add(o, "peak-queue-depth-bytes", NULL);
		json_object_object_add(o, "overlimits", NULL);
	}
	if (red) {
		show_add_int(o, "ecn-marked", red->red_marked);
		show_add_int(o, "early-drops", red->red_early);
		show_add_int(o, "forced-drops", red->red_pdrop);
	} else {
		json_object_object_add(o, "ecn-marked", NULL);
		json_object_object_add(o, "early-drops", NULL);
		json_object_object_add(o, "forced-drops", NULL);
	}
	return o;
}

/* The leaf roced planned for queue Q, or NULL. */
static const struct plan_qdisc *show_leaf(const struct plan_port *pp,
                                          unsigned q)
{
	for (size_t i = 0; i < pp->nqdiscs; i++)
		if (pp->qdiscs[i].queue == (int)q &&
		    pp->qdiscs[i].parent != PLAN_H_ROOT)
			return &pp->qdiscs[i];
	return NULL;
}

static struct json_object *show_warnings(const struct plan_port *pp)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < pp->warnings.n; i++)
		if (pp->warnings.v[i].text)
			json_object_array_add(
			    a, json_object_new_string(pp->warnings.v[i].text));
	return a;
}

/* One queue as show queuing interface has it: the configuration, what
 * realises it, and its counters. */
static struct json_object *show_queue(const struct policy_map_queuing *m,
                                      const struct plan_port *pp,
                                      const struct show_port_state *st,
                                      unsigned q)
{
	const struct policy_queue *pq = m ? &m->queue[q] : NULL;
	const struct plan_qdisc *leaf = show_leaf(pp, q);
	struct json_object *o;

	if (pq && pq->configured)
		o = show_queue_conf_json(pq, q);
	else {
		o = json_object_new_object();
		show_add_str(o, "name", policy_queue_name(q));
	}
	show_add_int(o, "queue", q);
	show_add_int(o, "qos-group", q);
	show_add_bool(o, "configured", pq && pq->configured);
	if (pq && pq->wred.enabled) {
		struct json_object *rd =
		    json_object_object_get(o, "random-detect");

		const struct plan_qdisc *in =
		    plan_port_qdisc(pp, PLAN_H_MAKE(PLAN_INNER_MAJOR(q), 0));

		/* alone, or inside software PFC's tbf */
		show_add_bool(rd, "realised",
		              (leaf && leaf->kind == PLAN_QD_RED) ||
		                  (in && in->kind == PLAN_QD_RED));
	}
	if (leaf)
		show_add_str(o, "leaf", plan_qdisc_kind_name(leaf->kind));
	else
		json_object_object_add(o, "leaf", NULL);
	json_object_object_add(o, "counters", show_counters(st, q));
	return o;
}

static uint64_t show_sum(const uint64_t *v)
{
	uint64_t s = 0;

	for (unsigned i = 0; i < 8; i++)
		s += v[i];
	return s;
}

/* NX-OS's "Ingress Queuing" table: per qos-group (7 down to 0) the pause
 * buffer of a no-drop group, null for the others. What software PFC
 * pauses and resumes at where it runs on the port (its tbf leaf's limit
 * is the buffer), else the configured pause buffer; "thresholds" says
 * which: "configured", "default" (software PFC's own, no pause buffer
 * configured) or null (none known: a hardware port without one). */
static struct json_object *show_ingress(const struct plan_port *pp,
                                        const struct show_port_state *st)
{
	struct json_object *a = json_object_new_array();

	for (unsigned q = POLICY_NQUEUES; q-- > 0;) {
		/* the pause buffer the plan follows (policy_pause_buffer,
		 * as compile resolved it) */
		const struct plan_pause_thr *b = NULL;
		/* software PFC's tbf, where it holds the queue */
		const struct plan_qdisc *held =
		    pp->hold_queues & (1u << q)
		        ? plan_port_qdisc(pp,
		                          PLAN_H_MAKE(PLAN_LEAF_MAJOR(q), 0))
		        : NULL;
		struct json_object *o = json_object_new_object();
		uint8_t prios = 0;
		int p0 = -1;

		for (unsigned p = 0; p < 8; p++)
			if (pp->dcb.prio_tc[p] == q &&
			    (pp->dcb.pfc_en & (1u << p)))
				prios |= (uint8_t)(1u << p);
		for (unsigned p = 0; p < 8 && p0 < 0; p++)
			if (prios & (1u << p))
				p0 = (int)p;
		show_add_int(o, "qos-group", q);
		json_object_object_add(o, "priorities", show_mask_json(prios));
		if (p0 >= 0)
			b = &pp->pause_thr[p0];
		if (p0 >= 0 && (st->xoff_set & (1u << p0))) {
			show_add_int(o, "pause-buffer-size",
			             held          ? held->u.tbf.limit
			             : b && b->set ? b->buffer
			                           : 0);
			show_add_int(o, "pause-threshold", st->xoff[p0]);
			show_add_int(o, "resume-threshold", st->xon[p0]);
			show_add_str(o, "thresholds",
			             st->xoff_conf & (1u << p0) ? "configured"
			                                        : "default");
		} else if (b && b->set) {
			show_add_int(o, "pause-buffer-size", b->buffer);
			show_add_int(o, "pause-threshold", b->xoff);
			show_add_int(o, "resume-threshold", b->xon);
			show_add_str(o, "thresholds", "configured");
		} else {
			json_object_object_add(o, "pause-buffer-size", NULL);
			json_object_object_add(o, "pause-threshold", NULL);
			json_object_object_add(o, "resume-threshold", NULL);
			json_object_object_add(o, "thresholds", NULL);
		}
		json_object_array_add(a, o);
	}
	return a;
}

/* NX-OS's "PFC Statistics" block: the PFC frames sent and received
 * (TxPPP, RxPPP) and per CoS its qos-group, whether it pauses or is
 * paused now and its frames. Null where the port offers no counters;
 * "tx-pause"/"rx-pause" (active/inactive) null where nothing says
 * (hardware ports: no driver reports it). */
static struct json_object *show_pfc_stats(const struct plan_port *pp,
                                          const struct show_port_state *st)
{
	struct json_object *o = json_object_new_object();
	struct json_object *a = json_object_new_array();
	bool soft = pp->dcb.software && st->softpfc;
	bool counted = soft || (!pp->dcb.software && (st->hwcnt || st->dcb));

	if (counted && (soft || st->hwcnt)) {
		show_add_int(o, "tx-ppp", (int64_t)st->tx_ppp);
		show_add_int(o, "rx-ppp", (int64_t)st->rx_ppp);
	} else if (counted) {
		show_add_int(o, "tx-ppp", (int64_t)show_sum(st->requests));
		show_add_int(o, "rx-ppp", (int64_t)show_sum(st->indications));
	} else {
		json_object_object_add(o, "tx-ppp", NULL);
		json_object_object_add(o, "rx-ppp", NULL);
	}
	for (unsigned p = 0; p < 8; p++) {
		struct json_object *c = json_object_new_object();

		show_add_int(c, "cos", p);
		show_add_int(c, "qos-group", pp->dcb.prio_tc[p]);
		show_add_bool(c, "pfc", pp->dcb.pfc_en & (1u << p));
		if (soft) {
			show_add_str(c, "tx-pause",
			             st->tx_paused & (1u << p) ? "active"
			                                       : "inactive");
			show_add_str(c, "rx-pause",
			             st->held & (1u << p) ? "active"
			                                  : "inactive");
		} else {
			json_object_object_add(c, "tx-pause", NULL);
			json_object_object_add(c, "rx-pause", NULL);
		}
		if (soft || st->hwcnt) {
			show_add_int(c, "tx-count", (int64_t)st->tx_pause[p]);
			show_add_int(c, "rx-count", (int64_t)st->rx_pause[p]);
		} else if (counted) {
			show_add_int(c, "tx-count", (int64_t)st->requests[p]);
			show_add_int(c, "rx-count",
			             (int64_t)st->indications[p]);
		} else {
			json_object_object_add(c, "tx-count", NULL);
			json_object_object_add(c, "rx-count", NULL);
		}
		json_object_array_add(a, c);
	}
	json_object_object_add(o, "cos", a);
	return o;
}

static struct json_object *show_queuing_port(const struct show_input *in,
                                             size_t i)
{
	const struct plan_port *pp = in->plans[i];
	const struct show_port_state *st = &in->state[i];
	const struct policy_map_queuing *m =
	    pp->queuing_policy[0]
	        ? policy_find_map_queuing(in->policy, pp->queuing_policy)
	        : NULL;
	struct json_object *o = json_object_new_object();
	struct json_object *a = json_object_new_array();

	show_port_names(o, pp, st);
	show_port_state_json(o, pp, st);
	if (m)
		show_add_str(o, "queuing-policy", m->name);
	else
		json_object_object_add(o, "queuing-policy", NULL);
	show_add_str(o, "layout", plan_layout_name(pp->layout));
	show_add_bool(o, "contested", st->contested);
	show_add_str(o, "dcb", pp->dcb.software ? "software" : "hardware");
	if (pp->caps.speed_mbps)
		show_add_int(o, "speed-mbps", (int64_t)pp->caps.speed_mbps);
	else
		json_object_object_add(o, "speed-mbps", NULL);
	/* NX-OS lists the groups from 7 down to 0. */
	for (unsigned q = POLICY_NQUEUES;
	     m && pp->layout != PLAN_LAYOUT_NONE && q-- > 0;)
		json_object_array_add(a, show_queue(m, pp, st, q));
	json_object_object_add(o, "queue", a);
	json_object_object_add(o, "ingress", show_ingress(pp, st));
	json_object_object_add(o, "pfc-statistics", show_pfc_stats(pp, st));
	json_object_object_add(o, "warnings", show_warnings(pp));
	return o;
}

static struct json_object *show_policy_map_port(const struct show_input *in,
                                                size_t i)
{
	const struct plan_port *pp = in->plans[i];
	const struct show_port_state *st = &in->state[i];
	const struct policy_map_qos *mq =
	    pp->qos_policy[0] ? policy_find_map_qos(in->policy, pp->qos_policy)
	                      : NULL;
	const struct policy_map_queuing *mu =
	    pp->queuing_policy[0]
	        ? policy_find_map_queuing(in->policy, pp->queuing_policy)
	        : NULL;
	struct json_object *o = json_object_new_object();
	struct json_object *sp = json_object_new_object();

	show_port_names(o, pp, st);
	show_port_state_json(o, pp, st);
	if (mq) {
		struct json_object *p = json_object_new_object();
		struct json_object *a = json_object_new_array();

		show_add_str(p, "name", mq->name);
		for (size_t j = 0; j < mq->nrules; j++) {
			const struct policy_qos_rule *r = &mq->rules[j];
			const struct policy_class_qos *c =
			    policy_find_class_qos(in->policy, r->class_name);
			struct json_object *cj = json_object_new_object();

			show_add_str(cj, "name", r->class_name);
			if (c) {
				show_add_str(cj, "match",
				             c->match == POLICY_MATCH_ANY
				                 ? "any"
				                 : "all");
				if (c->cos)
					json_object_object_add(
					    cj, "cos", show_mask_json(c->cos));
				if (c->dscp)
					json_object_object_add(
					    cj, "dscp",
					    show_mask_json(c->dscp));
			}
			if (r->set_qos_group)
				show_add_int(cj, "set-qos-group", r->qos_group);
			json_object_array_add(a, cj);
		}
		json_object_object_add(p, "class", a);
		json_object_object_add(sp, "qos-input", p);
	} else {
		json_object_object_add(sp, "qos-input", NULL);
	}
	if (mu) {
		struct json_object *p = json_object_new_object();
		struct json_object *a = json_object_new_array();

		show_add_str(p, "name", mu->name);
		for (unsigned q = POLICY_NQUEUES; q-- > 0;)
			if (mu->queue[q].configured)
				json_object_array_add(
				    a, show_queue(mu, pp, st, q));
		json_object_object_add(p, "class", a);
		json_object_object_add(sp, "queuing-output", p);
	} else {
		json_object_object_add(sp, "queuing-output", NULL);
	}
	json_object_object_add(o, "service-policy", sp);
	return o;
}

#define SHOW_SOFT_PFC_NOTE                                                     \
	"software ports: RxPPP/TxPPP are roced's software PFC counters; "      \
	"roced honours pause received there and, when a no-drop queue "        \
	"crosses xoff, sends it out of the ports feeding it (a bridge's "      \
	"other ports, or those the kernel routes to it)"
#define SHOW_NO_SOFT_PFC_NOTE                                                  \
	"software ports without counters: roced listens for pause frames "     \
	"only "                                                                \
	"on configured ports that are up"

#define SHOW_HW_PFC_NOTE                                                       \
	"hardware ports: RxPPP/TxPPP are the driver's PFC frame counters "     \
	"(dcbnl IEEE_PFC, and its statistics where roced knows their "         \
	"names); per priority, XON is counted apart by Intel drivers only, "   \
	"pause time by mlx5, mlxsw and bnxt only, and whether a priority is "  \
	"paused now is not reported by any: n/a"

/* A counter of priority P, or null where the port has none (MASK). */
static void show_add_prio_int(struct json_object *o, const char *key,
                              uint8_t mask, unsigned p, int64_t v)
{
	if (mask & (1u << p))
		show_add_int(o, key, v);
	else
		json_object_object_add(o, key, NULL);
}

/* PFC counters per priority: software PFC's, or a hardware
 * port's (what its driver does not count is null). */
static struct json_object *show_pfc_prios(const struct show_port_state *st,
                                          bool hw)
{
	struct json_object *a = json_object_new_array();
	uint8_t xon = hw ? st->hw_xon : 0xff, dur = hw ? st->hw_dur : 0xff;

	for (unsigned p = 0; p < 8; p++) {
		struct json_object *o = json_object_new_object();

		show_add_int(o, "priority", p);
		show_add_int(o, "rx-pause", (int64_t)st->rx_pause[p]);
		show_add_prio_int(o, "rx-xon", xon, p, (int64_t)st->rx_xon[p]);
		show_add_int(o, "tx-pause", (int64_t)st->tx_pause[p]);
		show_add_prio_int(o, "tx-xon", xon, p, (int64_t)st->tx_xon[p]);
		if (hw)
			json_object_object_add(o, "paused", NULL);
		else
			show_add_bool(o, "paused", st->held & (1u << p));
		show_add_prio_int(o, "paused-ms", dur, p,
		                  (int64_t)st->held_ms[p]);
		json_object_array_add(a, o);
	}
	return a;
}

/* Where a hardware port's counters come from: "dcbnl", "ethtool (mlx5)"
 * or both. */
static void show_hw_source(struct json_object *o,
                           const struct show_port_state *st)
{
	char buf[64];

	if (st->hw_dcb && st->hw_driver)
		snprintf(buf, sizeof(buf), "dcbnl, ethtool (%s)",
		         st->hw_driver);
	else if (st->hw_driver)
		snprintf(buf, sizeof(buf), "ethtool (%s)", st->hw_driver);
	else
		snprintf(buf, sizeof(buf), "dcbnl");
	show_add_str(o, "counters", buf);
}

static struct json_object *show_pfc_port(const struct show_input *in, size_t i,
                                         bool *software, bool *hardware)
{
	const struct plan_port *pp = in->plans[i];
	const struct show_port_state *st = &in->state[i];
	struct json_object *o = json_object_new_object();
	uint8_t en = pp->dcb.pfc_en;
	const char *oper;

	show_port_names(o, pp, st);
	show_port_state_json(o, pp, st);
	show_add_str(o, "mode", policy_pfc_mode_name(pp->pfc_mode));
	show_add_str(o, "dcb", pp->dcb.software ? "software" : "hardware");
	json_object_object_add(o, "admin-priorities",
	                       show_mask_json(pp->dcb.pfc_admin));
	if (!pp->dcb.software && st->dcb)
		en = st->pfc_en; /* what the driver really has */
	if (pp->pfc_awaiting_dcbx)
		oper = "auto: waiting for DCBX";
	else
		oper = en ? "on" : "off";
	show_add_str(o, "oper", oper);
	/* Mode auto: why DCBX keeps PFC off (null: it does not). */
	if (pp->pfc_dcbx_why[0])
		show_add_str(o, "oper-reason", pp->pfc_dcbx_why);
	else
		json_object_object_add(o, "oper-reason", NULL);
	json_object_object_add(o, "priorities", show_mask_json(en));
	if (!pp->dcb.software && st->hwcnt) {
		show_add_int(o, "rx-pause", (int64_t)st->rx_ppp);
		show_add_int(o, "tx-pause", (int64_t)st->tx_ppp);
		show_hw_source(o, st);
		json_object_object_add(o, "priority", show_pfc_prios(st, true));
		*hardware = true;
	} else if (!pp->dcb.software && st->dcb) {
		show_add_int(o, "rx-pause", (int64_t)show_sum(st->indications));
		show_add_int(o, "tx-pause", (int64_t)show_sum(st->requests));
		show_add_str(o, "counters", "dcbnl");
		*hardware = true;
	} else if (pp->dcb.software && st->softpfc) {
		show_add_int(o, "rx-pause", (int64_t)st->rx_ppp);
		show_add_int(o, "tx-pause", (int64_t)st->tx_ppp);
		json_object_object_add(o, "priority",
		                       show_pfc_prios(st, false));
		*software = true;
	} else if (!pp->dcb.software) {
		/* The driver answers neither dcbnl's PFC nor statistics
		 * roced knows: say so, do not print 0. */
		json_object_object_add(o, "rx-pause", NULL);
		json_object_object_add(o, "tx-pause", NULL);
		show_add_str(o, "counters-reason",
		             st->hw_why[0]
		                 ? st->hw_why
		                 : "the port's DCB state was not read");
	} else {
		json_object_object_add(o, "rx-pause", NULL);
		json_object_object_add(o, "tx-pause", NULL);
		*software = true;
	}
	return o;
}

#define SHOW_WD_HW_NOTE                                                        \
	"the PFC counters of a hardware port could not be read (its "          \
	"counters-error): the watchdog does not watch its queues until they "  \
	"can be"

/* A time of the watchdog (CLOCK_MONOTONIC ms) as seconds before NOW;
 * null when it never happened. */
static void show_ago(struct json_object *o, const char *key, double t,
                     double now)
{
	if (t <= 0) {
		json_object_object_add(o, key, NULL);
		return;
	}
	json_object_object_add(o, key,
	                       json_object_new_double((now - t) / 1000.0));
}

/* The watched no-drop queues of a port, with the watchdog's counters. */
static struct json_object *show_wd_queues(const struct show_port_state *st,
                                          const char **worst, uint8_t *shut)
{
	struct json_object *a = json_object_new_array();

	*worst = pfcwd_state_name(PFCWD_MONITORED);
	for (unsigned q = 0; q < 8; q++) {
		const struct pfcwd_queue *s = &st->wdq[q];
		struct json_object *o;

		if (!(st->wd_queues & (1u << q)))
			continue;
		o = json_object_new_object();
		show_add_int(o, "qos-group", q);
		json_object_object_add(o, "priorities",
		                       show_mask_json(st->wd_prios[q]));
		show_add_str(o, "state", pfcwd_state_name(s->state));
		show_add_int(o, "storms", (int64_t)s->storms);
		show_add_int(o, "restores", (int64_t)s->restores);
		show_add_int(o, "drained-packets", (int64_t)s->drained);
		show_add_int(o, "dropped-packets", (int64_t)s->dropped);
		/* the last storm's own (NX-OS's "Total pkts drained") */
		show_add_int(o, "storm-drained-packets",
		             (int64_t)s->storm_drained);
		show_add_int(o, "storm-dropped-packets",
		             (int64_t)s->storm_dropped);
		show_add_int(o, "restore-backoff", 1 << s->backoff);
		show_ago(o, "last-storm-s-ago", s->last_storm_ms, st->now_ms);
		show_ago(o, "last-restore-s-ago", s->last_restore_ms,
		         st->now_ms);
		if (s->state == PFCWD_SHUTDOWN)
			*shut |= st->wd_prios[q];
		if (s->state == PFCWD_SHUTDOWN ||
		    (s->state != PFCWD_MONITORED &&
		     strcmp(*worst, pfcwd_state_name(PFCWD_SHUTDOWN))))
			*worst = pfcwd_state_name(s->state);
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *show_pfc_queue(const struct show_input *in)
{
	/* The watchdog's global lines as the plan last applied holds them
	 * (a candidate not applied changes nothing here either). */
	static const struct plan_global none;
	const struct plan_global *g = in->global ? in->global : &none;
	struct json_object *o = json_object_new_object();
	struct json_object *a = json_object_new_array();
	bool hw = false;

	show_add_bool(o, "watch-dog-interval", g->wd_enabled);
	show_add_bool(o, "forced-watch-dog", false);
	show_add_int(o, "interval", g->wd_poll_ms);
	show_add_int(o, "shutdown-multiplier", g->wd_shutdown_mult);
	show_add_int(o, "auto-restore-multiplier", g->wd_auto_restore_mult);
	show_add_int(o, "fixed-restore-multiplier", g->wd_fixed_restore_mult);
	show_add_int(o, "internal-interface-multiplier",
	             g->wd_internal_if_mult);
	show_add_str(o, "action", policy_pfcwd_action_name(g->wd_action));
	show_add_bool(o, "running", true);
	for (size_t i = 0; i < in->nports; i++) {
		const struct plan_port *pp = in->plans[i];
		const struct show_port_state *st = &in->state[i];
		struct json_object *p = json_object_new_object();
		const char *worst = "not watched";
		uint8_t shut = 0;

		show_port_names(p, pp, st);
		show_add_bool(p, "watch-dog", pp->watchdog);
		json_object_object_add(p, "priorities",
		                       show_mask_json(pp->dcb.pfc_admin));
		show_add_bool(p, "fabric-internal", st->wd_internal);
		if (st->wd)
			json_object_object_add(
			    p, "queues", show_wd_queues(st, &worst, &shut));
		else
			json_object_object_add(p, "queues",
			                       json_object_new_array());
		/* NX-OS's per-CoS flags: the priorities whose queue the
		 * watchdog shut */
		json_object_object_add(p, "shutdown-priorities",
		                       show_mask_json(shut));
		/* The multiplier of this port's times: the fabric-internal
		 * one, 0 where none applies (NX-OS prints 0 when unset). */
		show_add_int(p, "interface-multiplier",
		             st->wd_internal ? pp->wd.internal_mult : 0);
		/* The times the port's watchdog follows, from its plan (its
		 * own shutdown-multiplier, a fabric-internal one's): ms, a
		 * fixed restore of 0 is none. */
		if (pp->watchdog) {
			show_add_int(p, "poll-ms", pp->wd.poll_ms);
			show_add_int(p, "storm-ms", pp->wd.detect_ms);
			show_add_int(p, "auto-restore-ms",
			             pp->wd.auto_restore_ms);
			show_add_int(p, "fixed-restore-ms",
			             pp->wd.fixed_restore_ms);
		}
		show_add_str(p, "counters",
		             pp->dcb.software ? "software" : "hardware");
		if (st->wd && st->wd_hw_err) {
			show_add_str(p, "counters-error",
			             strerror(-st->wd_hw_err));
			hw = true;
		}
		show_add_str(p, "state", worst);
		json_object_object_add(p, "deadlock", show_deadlock_json(st));
		json_object_array_add(a, p);
	}
	json_object_object_add(o, "interface", a);
	show_add_str(o, "note", hw ? SHOW_WD_HW_NOTE : "");
	return o;
}

/* One direction of link pause: what the policy asks (admin) and what the
 * port does (oper): the driver's setting on hardware ports when it was
 * read, null when unknown; on software ports whether roced's frame layer
 * does it (SOFT_OPER). */
static struct json_object *show_fc_dir(const struct plan_port *pp,
                                       const struct show_port_state *st,
                                       bool admin, bool oper, bool soft_oper)
{
	struct json_object *o = json_object_new_object();

	show_add_str(o, "admin", admin ? "on" : "off");
	if (!pp->dcb.software && st->pause)
		show_add_str(o, "oper", oper ? "on" : "off");
	else if (pp->dcb.software)
		show_add_str(o, "oper", admin && soft_oper ? "on" : "off");
	else
		json_object_object_add(o, "oper", NULL);
	return o;
}

/* A counter, or null when PORT counts none. */
static void show_fc_count(struct json_object *o, const char *key, bool counted,
                          uint64_t v)
{
	if (counted)
		show_add_int(o, key, (int64_t)v);
	else
		json_object_object_add(o, key, NULL);
}

/* `show interface flowcontrol`: 802.3x link pause per port. RxPause and
 * TxPause count every pause frame, XON (pause time 0) among them, as the
 * drivers' statistics do; software ports also say how many were XON and
 * how long link pause held the port. */
static struct json_object *show_fc_port(const struct show_input *in, size_t i)
{
	const struct plan_port *pp = in->plans[i];
	const struct show_port_state *st = &in->state[i];
	struct json_object *o = json_object_new_object();
	bool soft = pp->dcb.software && st->softpfc;

	show_port_names(o, pp, st);
	show_port_state_json(o, pp, st);
	show_add_str(o, "dcb", pp->dcb.software ? "software" : "hardware");
	json_object_object_add(
	    o, "send",
	    show_fc_dir(pp, st, pp->dcb.pause_tx, st->pause_tx, st->lp_tx));
	json_object_object_add(
	    o, "receive",
	    show_fc_dir(pp, st, pp->dcb.pause_rx, st->pause_rx, st->lp_rx));
	if (soft) {
		show_fc_count(o, "rx-pause", true, st->lp_rx_frames);
		show_fc_count(o, "tx-pause", true, st->lp_tx_frames);
	} else {
		show_fc_count(o, "rx-pause", st->pause_counted,
		              st->rx_pause_frames);
		show_fc_count(o, "tx-pause", st->pause_counted,
		              st->tx_pause_frames);
	}
	show_fc_count(o, "rx-xon", soft, st->lp_rx_xon);
	show_fc_count(o, "tx-xon", soft, st->lp_tx_xon);
	/* as show interface priority-flow-control has them per priority */
	if (soft) {
		show_add_int(o, "paused-ms", (int64_t)st->lp_held_ms);
		show_add_bool(o, "paused", st->lp_held);
	} else {
		json_object_object_add(o, "paused-ms", NULL);
		json_object_object_add(o, "paused", NULL);
	}
	return o;
}

#define SHOW_FC_SOFT_NOTE                                                      \
	"software ports: roced honours 802.3x link pause (all queues held) "   \
	"and sends it out of bridge ports whose bridge's other ports "         \
	"congest; the counters are roced's own"

/* detail: the frames each port lost at roced's packet socket (its
 * buffer full before roced read them), where roced has one. */
static void show_pfc_drops(struct json_object *data,
                           const struct show_input *in)
{
	struct json_object *a = show_get(data, "interface");

	for (size_t i = 0; i < in->nports; i++) {
		struct json_object *p = json_object_array_get_idx(a, i);

		if (p && in->state[i].frames)
			show_add_int(p, "socket-drops",
			             (int64_t)in->state[i].rx_dropped);
	}
}

static struct json_object *show_ports(const struct show_input *in,
                                      enum ctl_show kind)
{
	struct json_object *o = json_object_new_object();
	struct json_object *a = json_object_new_array();
	bool software = false, hardware = false;

	for (size_t i = 0; i < in->nports; i++) {
		struct json_object *p;

		if (kind == CTL_SHOW_QUEUING_IF)
			p = show_queuing_port(in, i);
		else if (kind == CTL_SHOW_POLICY_MAP_IF)
			p = show_policy_map_port(in, i);
		else if (kind == CTL_SHOW_FC_IF) {
			p = show_fc_port(in, i);
			software |= in->plans[i]->dcb.software;
		} else
			p = show_pfc_port(in, i, &software, &hardware);
		json_object_array_add(a, p);
	}
	json_object_object_add(o, "interface", a);
	if (kind == CTL_SHOW_FC_IF)
		show_add_str(o, "note", software ? SHOW_FC_SOFT_NOTE : "");
	if (kind == CTL_SHOW_PFC_IF && software) {
		bool counted = false, uncounted = false;

		for (size_t i = 0; i < in->nports; i++) {
			if (!in->plans[i]->dcb.software)
				continue;
			counted |= in->state[i].softpfc;
			uncounted |= !in->state[i].softpfc;
		}
		show_add_str(o, "note",
		             uncounted && !counted ? SHOW_NO_SOFT_PFC_NOTE
		                                   : SHOW_SOFT_PFC_NOTE);
	}
	if (kind == CTL_SHOW_PFC_IF && hardware) {
		const char *soft = show_get_str(o, "note");
		char note[1024];

		snprintf(note, sizeof(note), "%s%s%s", soft,
		         soft[0] ? "; " : "", SHOW_HW_PFC_NOTE);
		show_add_str(o, "note", note);
	}
	return o;
}

/* --- the answer --- */

static void show_config_text(const struct show_query *q,
                             const struct show_input *in, struct strbuf *text)
{
	char section[POLICY_ALIAS_MAX + 16];
	const struct policy_iface *f = NULL;

	if (q->iface[0])
		f = policy_find_iface(in->policy, q->iface);
	if (q->kind == CTL_SHOW_STARTUP_CONFIG)
		strbuf_puts(text, "!Command: show startup-config\n");
	else if (f)
		strbuf_printf(
		    text, "!Command: show running-config interface %s%s\n",
		    f->alias[0] ? f->alias : f->name, q->all ? " all" : "");
	else
		strbuf_printf(text, "!Command: show running-config%s\n",
		              q->qos_only ? " qos" : "");
	/* NX-OS's header: the version line, which pastes back as a line
	 * that is not QoS. */
	strbuf_puts(text, "\nversion " PACKAGE_NAME " " PACKAGE_VERSION "\n\n");
	if (f)
		snprintf(section, sizeof(section), "interface %s%s", f->name,
		         q->all ? " all" : "");
	cmd_running_config(in->policy,
	                   f             ? section
	                   : q->qos_only ? "qos"
	                                 : NULL,
	                   text);
}

int show_answer(const struct show_query *q, const struct show_input *in,
                struct json_object **data, struct strbuf *text, char *err,
                size_t errlen)
{
	*data = NULL;
	switch (q->kind) {
	case CTL_SHOW_RUNNING_CONFIG:
	case CTL_SHOW_STARTUP_CONFIG: {
		const struct policy_iface *f = NULL;

		if (q->iface[0]) {
			f = policy_find_iface(in->policy, q->iface);
			if (!f) {
				snprintf(err, errlen,
				         "%% interface %s is not configured",
				         q->iface);
				return -1;
			}
		}
		*data = show_policy_json(in->policy, f             ? f->name
		                                     : q->qos_only ? "qos"
		                                                   : NULL);
		show_config_text(q, in, text);
		break;
	}
	case CTL_SHOW_CLASS_MAP:
		if (show_class_map_json(in->policy, q->name, data, err,
		                        errlen) < 0)
			return -1;
		show_narrow_maps(*data, "class-map", q, in->policy);
		show_text_class_map(*data, text);
		break;
	case CTL_SHOW_POLICY_MAP:
		if (show_policy_map_json(in->policy, q->name, data, err,
		                         errlen) < 0)
			return -1;
		show_narrow_maps(*data, "policy-map", q, in->policy);
		show_text_policy_map(*data, text);
		break;
	case CTL_SHOW_POLICY_MAP_IF:
		*data = show_ports(in, q->kind);
		show_narrow_ports(*data, q);
		show_text_policy_map_if(*data, text);
		break;
	case CTL_SHOW_QUEUING_IF:
		*data = show_ports(in, q->kind);
		show_text_queuing_if(*data, text);
		break;
	case CTL_SHOW_PFC_IF:
		*data = show_ports(in, q->kind);
		if (q->detail) {
			show_pfc_drops(*data, in);
			show_text_pfc_if_detail(*data, text);
		} else {
			show_text_pfc_if(*data, text);
		}
		break;
	case CTL_SHOW_FC_IF:
		*data = show_ports(in, q->kind);
		show_text_fc_if(*data, text);
		break;
	case CTL_SHOW_IF_COUNTERS:
		*data = show_counters_json(in);
		show_text_if_counters(*data, text);
		break;
	case CTL_SHOW_PFC_QUEUE:
		*data = show_pfc_queue(in);
		show_text_pfc_queue(*data, q->detail, text);
		break;
	case CTL_SHOW_LLDP_DCBX:
	case CTL_SHOW_LLDP_NEIGHBORS:
	case CTL_SHOW_LLDP_TRAFFIC:
	case CTL_SHOW_LLDP_IF:
		show_lldp_answer(q, in, data, text);
		break;
	case CTL_SHOW_METRICS:
		*data = show_metrics_json(in);
		show_text_metrics(*data, text);
		break;
	case CTL_SHOW_ROCE:
	case CTL_SHOW_ROCE_FABRIC:
		show_roce_answer(q, in, data, text);
		break;
	case CTL_SHOW_VERSION:
		if (!in->version) {
			snprintf(err, errlen, "%% roced gathered no version");
			return -1;
		}
		*data = show_version_json(in->version);
		show_text_version(*data, text);
		break;
	case CTL_SHOW_CKPT_SUMMARY:
	case CTL_SHOW_CKPT:
	case CTL_SHOW_CKPT_DIFF:
	case CTL_SHOW_SESSION:
		/* The control server answers these from its checkpoints
		 * and sessions (control/ctl_ckpt.c). */
		snprintf(err, errlen, "%% not a show of the running state");
		return -1;
	}
	if (!*data || text->oom) {
		json_object_put(*data);
		*data = NULL;
		snprintf(err, errlen, "%% out of memory");
		return -1;
	}
	return 0;
}
