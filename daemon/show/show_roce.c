/* show_roce: `show roce` (the RoCE mode and what it made, as NVIDIA
 * Onyx's `show roce` lays it out) and `show roce fabric` (each link's
 * neighbour, the DCBX outcome at both ends and the mismatches that make a
 * no-drop class lossy across it: plan/fabric.h). One JSON builder each;
 * the text reads only the JSON.
 *
 * show roce reads the policy (the mode is what the objects make,
 * policy_roce_mode) and the plans applied to the ports (what each runs);
 * show roce fabric reads those plans and the LLDP agent, never the
 * kernel.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/fabric.h"
#include "show/show.h"
#include "show/show_int.h"

/* ---- show roce ---- */

static void show_roce_edited(struct json_object *o, uint32_t edited)
{
	struct json_object *a = json_object_new_array();

	for (unsigned k = 0; k < POLICY_ROCE_NOBJECTS; k++)
		if (edited & (1u << k))
			json_object_array_add(
			    a, json_object_new_string(policy_roce_object_name(
			           (enum policy_roce_object)k)));
	json_object_object_add(o, "edited", a);
}

/* What the switch trusts: DSCP when a class of the qos policy in force
 * matches DSCP, PCP (CoS) when one matches CoS. */
static void show_roce_trust(struct json_object *o, const struct policy *p,
                            const struct policy_map_qos *mq)
{
	struct json_object *a = json_object_new_array();
	bool dscp = false, cos = false;

	for (size_t r = 0; mq && r < mq->nrules; r++) {
		const struct policy_class_qos *c =
		    policy_find_class_qos(p, mq->rules[r].class_name);

		if (!c || !mq->rules[r].set_qos_group)
			continue;
		dscp |= c->dscp != 0;
		cos |= c->cos != 0;
	}
	if (dscp)
		json_object_array_add(a, json_object_new_string("dscp"));
	if (cos)
		json_object_array_add(a, json_object_new_string("pcp"));
	json_object_object_add(o, "trust", a);
}

/* The APP TLV: what the first port advertises (the plans share the
 * system's policy); the PCP map is not an APP TLV entry. */
static void show_roce_app(struct json_object *o, const struct show_input *in)
{
	struct json_object *a = json_object_new_array();
	const struct plan_dcb *d = in->nports ? &in->plans[0]->dcb_local : NULL;

	for (size_t i = 0; d && i < d->napp; i++) {
		struct json_object *e;

		if (d->app[i].selector == PLAN_APP_SEL_PCP)
			continue;
		e = json_object_new_object();
		show_add_str(e, "selector",
		             dcbx_app_sel_name(d->app[i].selector));
		show_add_int(e, "protocol", d->app[i].protocol);
		show_add_int(e, "priority", d->app[i].priority);
		json_object_array_add(a, e);
	}
	json_object_object_add(o, "application-tlv", a);
}

static void show_roce_ecn(struct json_object *o,
                          const struct policy_map_queuing *mu)
{
	struct json_object *a = json_object_new_array();

	for (unsigned q = POLICY_NQUEUES; mu && q-- > 0;) {
		struct policy_wred w;
		struct json_object *e;

		if (!policy_queue_wred(&mu->queue[q], &w) || !w.enabled)
			continue;
		e = json_object_new_object();
		show_add_int(e, "queue", q);
		show_add_str(e, "mode", w.ecn ? "ecn" : "wred");
		show_add_int(e, "minimum-threshold", (int64_t)w.min_bytes);
		show_add_int(e, "maximum-threshold", (int64_t)w.max_bytes);
		show_add_int(e, "drop-probability", w.drop_probability);
		json_object_array_add(a, e);
	}
	json_object_object_add(o, "congestion-control", a);
}

/* PFC as configured (the network-qos policy of system qos) and as it
 * runs: per priority, on how many of the planned ports it is enabled
 * now (a port in mode auto waits for its DCBX peer, mode off has none). */
static void show_roce_pfc(struct json_object *o, const struct show_input *in)
{
	const struct policy *p = in->policy;
	const struct policy_map_nq *mn =
	    p->system.network_qos[0]
	        ? policy_find_map_nq(p, p->system.network_qos)
	        : NULL;
	struct json_object *f = json_object_new_object();
	struct json_object *oper = json_object_new_array();
	uint8_t cos = 0, rx = 0, any = 0;

	for (size_t i = 0; mn && i < mn->nrules; i++) {
		uint8_t c = policy_nq_rule_pfc(p, &mn->rules[i]);

		cos |= c;
		if (mn->rules[i].pfc_rx_only)
			rx |= c;
	}
	for (unsigned prio = 0; prio < POLICY_NPRIO; prio++) {
		struct json_object *e;
		size_t on = 0;

		if (!(cos & (1u << prio)))
			continue;
		for (size_t i = 0; i < in->nports; i++)
			on += (in->plans[i]->dcb.pfc_en >> prio) & 1u;
		any |= on ? (uint8_t)(1u << prio) : 0;
		e = json_object_new_object();
		show_add_int(e, "priority", prio);
		show_add_int(e, "ports-on", (int64_t)on);
		json_object_array_add(oper, e);
	}
	json_object_object_add(f, "priorities", show_mask_json(cos));
	json_object_object_add(f, "receive-only", show_mask_json(rx));
	json_object_object_add(f, "operational", show_mask_json(any));
	json_object_object_add(f, "per-priority", oper);
	show_add_int(f, "ports", (int64_t)in->nports);
	json_object_object_add(o, "pfc", f);
}

/* Each priority a class of the qos policy sets, and 0 (q-default): its
 * traffic class (the same number), the classes that go there and how
 * the queuing policy serves it. */
static void show_roce_tcs(struct json_object *o, const struct policy *p,
                          const struct policy_map_qos *mq,
                          const struct policy_map_queuing *mu)
{
	struct json_object *a = json_object_new_array();
	char names[POLICY_NQUEUES][160];
	uint8_t used = 1;

	memset(names, 0, sizeof(names));
	for (size_t r = 0; mq && r < mq->nrules; r++) {
		const struct policy_qos_rule *q = &mq->rules[r];
		size_t n;

		if (!q->set_qos_group || q->qos_group >= POLICY_NQUEUES)
			continue;
		used |= (uint8_t)(1u << q->qos_group);
		n = strlen(names[q->qos_group]);
		snprintf(names[q->qos_group] + n, sizeof(names[0]) - n, "%s%s",
		         n ? "," : "", q->class_name);
	}
	for (unsigned g = POLICY_NQUEUES; g-- > 0;) {
		const struct policy_queue *q = mu ? &mu->queue[g] : NULL;
		struct json_object *e;

		if (!(used & (1u << g)))
			continue;
		e = json_object_new_object();
		show_add_int(e, "priority", g);
		show_add_int(e, "tc", g);
		show_add_str(e, "application",
		             names[g][0] ? names[g] : "class-default");
		if (q && q->priority_level) {
			show_add_str(e, "tsa", "strict");
		} else if (!q) {
			show_add_str(e, "tsa", "ets");
		} else {
			show_add_str(e, "tsa", "ets");
			show_add_int(e, "bandwidth",
			             q && q->has_bandwidth
			                 ? q->bandwidth_percent
			             : q && q->has_bandwidth_min
			                 ? q->bandwidth_min_percent
			                 : 0);
		}
		json_object_array_add(a, e);
	}
	(void)p;
	json_object_object_add(o, "traffic-classes", a);
}

/* The qos input and queuing output policies in force on port IFNAME:
 * its own service-policies, else system qos's (NULL for none). */
static void show_roce_maps_of(const struct policy *p, const char *ifname,
                              const struct policy_map_qos **mq,
                              const struct policy_map_queuing **mu)
{
	const struct policy_iface *f = policy_find_iface(p, ifname);

	*mq = policy_iface_qos(p, f);
	*mu = policy_iface_queuing(p, f);
}

static void show_roce_port_maps(struct json_object *e, const struct policy *p,
                                const char *ifname)
{
	const struct policy_map_qos *mq;
	const struct policy_map_queuing *mu;

	show_roce_maps_of(p, ifname, &mq, &mu);
	show_add_str(e, "qos-input", mq ? mq->name : "");
	show_add_str(e, "queuing-output", mu ? mu->name : "");
}

/* The policies in force, counted by port: per-interface service-policies
 * count as much as system qos's (the shipped configuration attaches
 * them per port). Each distinct pair of qos input and queuing output
 * policy with the number of ports it runs on, most ports first; *MQ and
 * *MU become the first pair (system qos's when no port is planned),
 * which the trust, ECN and traffic-class lines describe. */
static void show_roce_policies(struct json_object *o,
                               const struct show_input *in,
                               const struct policy_map_qos **mq,
                               const struct policy_map_queuing **mu)
{
	struct json_object *a = json_object_new_array();
	const struct policy *p = in->policy;
	struct {
		const struct policy_map_qos *q;
		const struct policy_map_queuing *u;
		size_t ports;
	} *v = calloc(in->nports + 1, sizeof(*v));
	size_t n = 0, best = 0;

	*mq = policy_iface_qos(p, NULL);
	*mu = policy_iface_queuing(p, NULL);
	for (size_t i = 0; v && i < in->nports; i++) {
		const struct policy_map_qos *q;
		const struct policy_map_queuing *u;
		size_t k;

		show_roce_maps_of(p, in->plans[i]->ifname, &q, &u);
		for (k = 0; k < n && (v[k].q != q || v[k].u != u); k++)
			;
		if (k == n) {
			v[n].q = q;
			v[n].u = u;
			n++;
		}
		v[k].ports++;
	}
	for (size_t k = 0; k < n; k++)
		if (v[k].ports > v[best].ports)
			best = k;
	if (n) {
		*mq = v[best].q;
		*mu = v[best].u;
	}
	for (size_t pass = 0; pass < 2; pass++)
		for (size_t k = 0; k < n; k++) {
			struct json_object *e;

			if ((pass == 0) != (k == best))
				continue;
			e = json_object_new_object();
			show_add_str(e, "qos-input",
			             v[k].q ? v[k].q->name : "");
			show_add_str(e, "queuing-output",
			             v[k].u ? v[k].u->name : "");
			show_add_int(e, "ports", (int64_t)v[k].ports);
			json_object_array_add(a, e);
		}
	free(v);
	json_object_object_add(o, "policies", a);
}

static void show_roce_ports(struct json_object *o, const struct show_input *in)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < in->nports; i++) {
		const struct plan_port *pp = in->plans[i];
		struct json_object *e = json_object_new_object();

		show_add_str(e, "name", pp->ifname);
		if (pp->alias[0])
			show_add_str(e, "alias", pp->alias);
		show_add_str(e, "pfc-mode", policy_pfc_mode_name(pp->pfc_mode));
		show_roce_port_maps(e, in->policy, pp->ifname);
		json_object_object_add(e, "pfc-enabled",
		                       show_mask_json(pp->dcb.pfc_en));
		json_object_object_add(e, "receive-only",
		                       show_mask_json(pp->dcb.pfc_rx_only));
		if (pp->pfc_mode == POLICY_PFC_AUTO)
			show_add_str(e, "dcbx",
			             pp->pfc_awaiting_dcbx
			                 ? (pp->pfc_dcbx_why[0]
			                        ? pp->pfc_dcbx_why
			                        : "waiting")
			                 : "agreed");
		json_object_array_add(a, e);
	}
	json_object_object_add(o, "interface", a);
}

static struct json_object *show_roce_json(const struct show_input *in)
{
	const struct policy *p = in->policy;
	struct json_object *o = json_object_new_object();
	const struct policy_map_qos *mq;
	const struct policy_map_queuing *mu;
	uint32_t edited;
	enum policy_roce_mode m = policy_roce_mode(p, &edited);

	show_add_str(o, "mode", policy_roce_mode_name(m));
	show_roce_edited(o, edited);
	show_add_bool(o, "lldp", !p->lldp.no_feature);
	show_roce_policies(o, in, &mq, &mu);
	show_roce_trust(o, p, mq);
	show_roce_app(o, in);
	show_roce_ecn(o, mu);
	show_roce_pfc(o, in);
	show_roce_tcs(o, p, mq, mu);
	show_roce_ports(o, in);
	return o;
}

static void show_roce_text(struct json_object *d, struct strbuf *out)
{
	struct json_object *a, *pfc = show_get(d, "pfc");
	char list[64];
	size_t n;

	strbuf_printf(out, "RoCE mode      : %s", show_get_str(d, "mode"));
	a = show_get(d, "edited");
	n = a ? json_object_array_length(a) : 0;
	for (size_t i = 0; i < n; i++)
		strbuf_printf(
		    out, "%s%s", i ? ", " : " (edited: ",
		    json_object_get_string(json_object_array_get_idx(a, i)));
	strbuf_puts(out, n ? ")\n" : "\n");
	strbuf_printf(out, "LLDP           : %s\n",
	              show_get_bool(d, "lldp") ? "enabled" : "disabled");
	a = show_get(d, "trust");
	n = a ? json_object_array_length(a) : 0;
	strbuf_puts(out, "Port trust mode: ");
	for (size_t i = 0; i < n; i++)
		strbuf_printf(
		    out, "%s%s", i ? ", " : "",
		    json_object_get_string(json_object_array_get_idx(a, i)));
	strbuf_puts(out, n ? "\n" : "none\n");
	a = show_get(d, "policies");
	n = a ? json_object_array_length(a) : 0;
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(a, i);
		const char *q = show_get_str(e, "qos-input");
		const char *u = show_get_str(e, "queuing-output");
		int64_t ports = 0;

		show_get_int(e, "ports", &ports);
		strbuf_printf(out, "%s qos %s, queuing %s on %lld port%s\n",
		              i ? "               " : "Policies       :",
		              q[0] ? q : "none", u[0] ? u : "none",
		              (long long)ports, ports == 1 ? "" : "s");
	}

	strbuf_puts(out, "\nApplication TLV:\n");
	a = show_get(d, "application-tlv");
	n = a ? json_object_array_length(a) : 0;
	if (!n)
		strbuf_puts(out, "  none\n");
	else
		strbuf_printf(out, "  %-10s %-9s %s\n", "Selector", "Protocol",
		              "Priority");
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(a, i);
		int64_t proto = 0, prio = 0;

		show_get_int(e, "protocol", &proto);
		show_get_int(e, "priority", &prio);
		strbuf_printf(out, "  %-10s %-9lld %lld\n",
		              show_get_str(e, "selector"), (long long)proto,
		              (long long)prio);
	}

	strbuf_puts(out, "\nPort congestion-control:\n");
	a = show_get(d, "congestion-control");
	n = a ? json_object_array_length(a) : 0;
	if (!n)
		strbuf_puts(out, "  none\n");
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(a, i);
		int64_t q = 0, lo = 0, hi = 0, pr = 0;

		show_get_int(e, "queue", &q);
		show_get_int(e, "minimum-threshold", &lo);
		show_get_int(e, "maximum-threshold", &hi);
		show_get_int(e, "drop-probability", &pr);
		strbuf_printf(out,
		              "  queue %lld: %s, min %lld bytes, max %lld "
		              "bytes, probability %lld %%\n",
		              (long long)q, show_get_str(e, "mode"),
		              (long long)lo, (long long)hi, (long long)pr);
	}

	/* Configured is not running: a port in mode auto without a DCBX
	 * peer has PFC off, and the lines say so. */
	show_list_text(show_get(pfc, "priorities"), list, sizeof(list));
	{
		char oper[64];
		int64_t ports = 0;

		show_list_text(show_get(pfc, "operational"), oper,
		               sizeof(oper));
		show_get_int(pfc, "ports", &ports);
		if (!list[0])
			strbuf_puts(out, "\nPFC            : disabled\n");
		else if (!oper[0])
			strbuf_printf(out,
			              "\nPFC            : configured, "
			              "operational on none of %lld ports\n",
			              (long long)ports);
		else
			strbuf_puts(out, "\nPFC            : enabled\n");
	}
	a = show_get(pfc, "per-priority");
	n = a ? json_object_array_length(a) : 0;
	for (size_t k = 0; k < n; k++) {
		struct json_object *e = json_object_array_get_idx(a, k);
		struct json_object *ro = show_get(pfc, "receive-only");
		int64_t p = 0, on = 0, ports = 0;
		bool r = false;

		show_get_int(e, "priority", &p);
		show_get_int(e, "ports-on", &on);
		show_get_int(pfc, "ports", &ports);
		for (size_t j = 0; ro && j < json_object_array_length(ro); j++)
			r |= json_object_get_int(
			         json_object_array_get_idx(ro, j)) == (int)p;
		strbuf_printf(out,
		              "  switch-priority %lld: %s, operational on "
		              "%lld of %lld ports\n",
		              (long long)p,
		              r ? "enabled, receive-only" : "enabled",
		              (long long)on, (long long)ports);
	}

	strbuf_puts(out, "\nRoCE used TCs:\n");
	strbuf_puts(out, "-------------------------------------------------\n");
	strbuf_printf(out, "%-16s %-3s %-20s %s\n", "Switch-Priority", "TC",
	              "Application", "ETS");
	strbuf_puts(out, "-------------------------------------------------\n");
	a = show_get(d, "traffic-classes");
	n = a ? json_object_array_length(a) : 0;
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(a, i);
		int64_t p = 0, tc = 0, bw = 0;
		char ets[32] = "ETS";

		show_get_int(e, "priority", &p);
		show_get_int(e, "tc", &tc);
		if (!strcmp(show_get_str(e, "tsa"), "strict"))
			snprintf(ets, sizeof(ets), "Strict");
		else if (show_get_int(e, "bandwidth", &bw))
			snprintf(ets, sizeof(ets), "WRR %lld%%", (long long)bw);
		strbuf_printf(out, "%-16lld %-3lld %-20s %s\n", (long long)p,
		              (long long)tc, show_get_str(e, "application"),
		              ets);
	}

	a = show_get(d, "interface");
	n = a ? json_object_array_length(a) : 0;
	if (!n)
		return;
	strbuf_printf(out, "\n%-16s %-8s %-10s %s\n", "Interface", "PFC mode",
	              "PFC on", "DCBX");
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(a, i);
		const char *alias = show_get_str(e, "alias");
		const char *dcbx = show_get_str(e, "dcbx");

		show_list_text(show_get(e, "pfc-enabled"), list, sizeof(list));
		strbuf_printf(out, "%-16s %-8s %-10s %s\n",
		              alias[0] ? alias : show_get_str(e, "name"),
		              show_get_str(e, "pfc-mode"),
		              list[0] ? list : "none", dcbx[0] ? dcbx : "-");
	}
}

/* ---- show roce fabric ---- */

/* Port I's link as plan/fabric.h wants it; false when roced's own agent
 * does not run LLDP there (lldpad's ports, or LLDP off). */
static bool show_roce_link(const struct show_input *in, size_t i,
                           struct fabric_link *l, const struct lldp_nbr **peer)
{
	const struct plan_port *pp = in->plans[i];
	const struct lldp_port *lp =
	    in->lldp ? lldp_agent_find(in->lldp, pp->ifname) : NULL;
	unsigned count = 0;

	memset(l, 0, sizeof(*l));
	*peer = NULL;
	snprintf(l->ifname, sizeof(l->ifname), "%s", pp->ifname);
	l->local_pfc = pp->dcb.pfc_en;
	if (!pp->dcb.mtu_restore && (pp->dcb.pfc_admin || pp->dcb.pfc_en))
		l->class_mtu = pp->dcb.mtu;
	if (!lp)
		return false;
	memcpy(l->local_mac, lp->mac, 6);
	if (lp->has_local)
		dcbx_advertise(&lp->local, lp->has_oper ? &lp->oper : NULL,
		               &l->local);
	*peer = lldp_port_peer(lp, &count);
	/* several neighbours and none chosen as the DCBX peer is not "no
	 * LLDP": only a port that hears nobody while it could is */
	l->listening = lp->running && lp->cfg.receive && lp->carrier && !count;
	if (!*peer)
		return true;
	l->has_peer = true;
	memcpy(l->peer_mac, (*peer)->mac, 6);
	/* the IEEE TLVs it sent: a legacy CEE peer is not judged */
	l->peer = (*peer)->pdu.dcbx;
	l->peer_cee = l->peer.cee;
	l->peer.cee = false;
	if ((*peer)->pdu.has_max_frame)
		l->peer_max_frame = (*peer)->pdu.max_frame;
	return true;
}

int show_roce_mismatches(const struct show_input *in, struct fabric_list *out)
{
	int n = 0;

	for (size_t i = 0; i < in->nports; i++) {
		const struct lldp_nbr *peer;
		struct fabric_link l;
		int rc;

		if (!show_roce_link(in, i, &l, &peer))
			continue;
		rc = fabric_check(&l, out);
		if (rc < 0)
			return rc;
		n += rc;
	}
	return n;
}

static struct json_object *show_roce_local_json(const struct plan_port *pp,
                                                const struct fabric_link *l,
                                                const struct lldp_port *lp)
{
	struct json_object *o = json_object_new_object();
	int prio = fabric_roce_prio(&l->local);

	json_object_object_add(o, "pfc-enabled", show_mask_json(l->local_pfc));
	if (lp && lp->has_oper)
		show_add_str(o, "pfc-result", dcbx_why_name(lp->oper.pfc_why));
	if (prio >= 0)
		show_add_int(o, "roce-priority", prio);
	if (l->class_mtu)
		show_add_int(o, "mtu", l->class_mtu);
	(void)pp;
	return o;
}

static struct json_object *show_roce_peer_json(const struct fabric_link *l)
{
	struct json_object *o = json_object_new_object();
	struct dcbx_oper po;
	int prio = fabric_roce_prio(&l->peer);

	if (l->peer.has_pfc) {
		json_object_object_add(o, "pfc-advertised",
		                       show_mask_json(l->peer.pfc.enable));
		show_add_bool(o, "willing", l->peer.pfc.willing);
	}
	if (l->peer.has_pfc && fabric_peer_oper(l, &po)) {
		json_object_object_add(o, "pfc-enabled",
		                       show_mask_json(po.pfc.enable));
		show_add_str(o, "pfc-result", dcbx_why_name(po.pfc_why));
	}
	if (prio >= 0)
		show_add_int(o, "roce-priority", prio);
	if (l->peer_max_frame)
		show_add_int(o, "max-frame-size", l->peer_max_frame);
	return o;
}

static struct json_object *show_roce_fabric_json(const struct show_input *in)
{
	struct json_object *o = json_object_new_object();
	struct json_object *a = json_object_new_array();
	int64_t total = 0;

	for (size_t i = 0; i < in->nports; i++) {
		const struct plan_port *pp = in->plans[i];
		const struct lldp_port *lp =
		    in->lldp ? lldp_agent_find(in->lldp, pp->ifname) : NULL;
		struct json_object *e = json_object_new_object();
		struct json_object *mm = json_object_new_array();
		struct fabric_list fl = {0};
		const struct lldp_nbr *peer;
		struct fabric_link l;
		bool ours = show_roce_link(in, i, &l, &peer);

		show_add_str(e, "name", pp->ifname);
		if (pp->alias[0])
			show_add_str(e, "alias", pp->alias);
		show_add_bool(e, "lldp", ours);
		if (peer) {
			struct json_object *n = json_object_new_object();
			char buf[LLDP_ID_TEXT_MAX * 4];

			lldp_id_format(&peer->pdu.chassis, false, buf,
			               sizeof(buf));
			show_add_str(n, "chassis-id", buf);
			lldp_id_format(&peer->pdu.port, true, buf, sizeof(buf));
			show_add_str(n, "port-id", buf);
			show_lldp_text(n, "system-name", peer->pdu.sys_name,
			               peer->pdu.sys_name_len);
			show_add_bool(n, "dcbx",
			              l.peer.has_pfc || l.peer.has_ets_cfg ||
			                  l.peer.has_ets_rec || l.peer.has_app);
			show_add_bool(n, "cee", peer->pdu.dcbx.cee);
			json_object_object_add(e, "neighbor", n);
		} else {
			json_object_object_add(e, "neighbor", NULL);
		}
		json_object_object_add(e, "local",
		                       show_roce_local_json(pp, &l, lp));
		if (peer)
			json_object_object_add(e, "peer",
			                       show_roce_peer_json(&l));
		if (ours && fabric_check(&l, &fl) > 0)
			for (size_t k = 0; k < fl.n; k++) {
				struct json_object *m =
				    json_object_new_object();

				show_add_str(m, "kind",
				             fabric_kind_name(fl.v[k].kind));
				show_add_str(m, "detail", fl.v[k].detail);
				json_object_array_add(mm, m);
				total++;
			}
		fabric_list_free(&fl);
		json_object_object_add(e, "mismatches", mm);
		json_object_array_add(a, e);
	}
	json_object_object_add(o, "interface", a);
	show_add_int(o, "mismatches", total);
	return o;
}

static void show_roce_fabric_text(struct json_object *d, struct strbuf *out)
{
	struct json_object *a = show_get(d, "interface");
	size_t n = a ? json_object_array_length(a) : 0;
	int64_t total = 0;

	strbuf_printf(out, "%-14s %-24s %-12s %-12s %-9s %-11s %s\n",
	              "Interface", "Neighbor", "DCBX here", "DCBX peer",
	              "PFC h/p", "MTU/frame", "Mismatches");
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(a, i);
		struct json_object *nb = show_get(e, "neighbor");
		struct json_object *lo = show_get(e, "local");
		struct json_object *pe = show_get(e, "peer");
		struct json_object *mm = show_get(e, "mismatches");
		const char *alias = show_get_str(e, "alias");
		char who[64], here[16], there[16], pfc[40], mtu[32];
		int64_t v = 0, f = 0;
		size_t nm = mm ? json_object_array_length(mm) : 0;

		if (nb)
			snprintf(who, sizeof(who), "%.30s (%.20s)",
			         show_get_str(nb, "system-name")[0]
			             ? show_get_str(nb, "system-name")
			             : show_get_str(nb, "chassis-id"),
			         show_get_str(nb, "port-id"));
		else
			snprintf(who, sizeof(who), "%s",
			         show_get_bool(e, "lldp")
			             ? "none"
			             : "(not roced's LLDP)");
		show_list_text(show_get(lo, "pfc-enabled"), here, sizeof(here));
		show_list_text(show_get(pe, "pfc-enabled"), there,
		               sizeof(there));
		/* none: PFC runs nowhere; -: the peer's is not known */
		snprintf(pfc, sizeof(pfc), "%s/%s", here[0] ? here : "none",
		         there[0]                      ? there
		         : show_get(pe, "pfc-enabled") ? "none"
		                                       : "-");
		{
			char l1[16] = "-", l2[16] = "-";

			if (show_get_int(lo, "mtu", &v))
				snprintf(l1, sizeof(l1), "%lld", (long long)v);
			if (show_get_int(pe, "max-frame-size", &f))
				snprintf(l2, sizeof(l2), "%lld", (long long)f);
			snprintf(mtu, sizeof(mtu), "%s/%s", l1, l2);
		}
		strbuf_printf(out, "%-14s %-24s %-12s %-12s %-9s %-11s %s",
		              alias[0] ? alias : show_get_str(e, "name"), who,
		              show_get_str(lo, "pfc-result")[0]
		                  ? show_get_str(lo, "pfc-result")
		                  : "-",
		              pe && show_get_str(pe, "pfc-result")[0]
		                  ? show_get_str(pe, "pfc-result")
		                  : "-",
		              pfc, mtu, nm ? "" : "none");
		for (size_t k = 0; k < nm; k++)
			strbuf_printf(
			    out, "%s%s", k ? "," : "",
			    show_get_str(json_object_array_get_idx(mm, k),
			                 "kind"));
		strbuf_puts(out, "\n");
		for (size_t k = 0; k < nm; k++) {
			struct json_object *m =
			    json_object_array_get_idx(mm, k);

			strbuf_printf(out, "  %s: %s\n",
			              show_get_str(m, "kind"),
			              show_get_str(m, "detail"));
		}
	}
	show_get_int(d, "mismatches", &total);
	strbuf_printf(out, "\n%lld mismatch%s\n", (long long)total,
	              total == 1 ? "" : "es");
}

int show_roce_answer(const struct show_query *q, const struct show_input *in,
                     struct json_object **data, struct strbuf *text)
{
	switch (q->kind) {
	case CTL_SHOW_ROCE:
		*data = show_roce_json(in);
		show_roce_text(*data, text);
		return 0;
	case CTL_SHOW_ROCE_FABRIC:
		*data = show_roce_fabric_json(in);
		show_roce_fabric_text(*data, text);
		return 0;
	default:
		return -1;
	}
}
