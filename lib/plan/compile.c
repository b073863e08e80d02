/* compile: the per-port driver and the DCB part. See compile.h.
 *
 * For each port: find its interface block (by Linux name or NX-OS alias),
 * the policies in force (interface, else system qos defaults; network-qos
 * is always system-wide), then build
 *  - the DCB part here: PFC, ETS, APP, trust and MTU, as a DCB NIC would
 *    hold them (on software ports the same values are informational and
 *    roced realises them through the tc part);
 *  - the tc part in compile_tc.c.
 * Nothing is silently dropped: whatever this port cannot realise is a
 * warning in pp->warnings; what roced cannot do at all is an error in
 * plan->diag.
 */
#include "plan/compile_int.h"

#include <errno.h>
#include <string.h>

/* Bounded copy that always terminates; the policy's names are already
 * length-checked, so truncation here never happens in practice. */
static void compile_copy(char *dst, size_t len, const char *src)
{
	size_t n = src ? strnlen(src, len - 1) : 0;

	if (n)
		memcpy(dst, src, n);
	dst[n] = '\0';
}

/* PFC: the no-drop priorities of the network-qos policy, enabled now or
 * later depending on the port's PFC mode. */
static void compile_dcb_pfc(struct compile_ctx *c)
{
	struct plan_port *pp = c->pp;
	struct plan_dcb *d = &pp->dcb;
	uint8_t rx_only = 0;
	unsigned rx_line = 0;

	d->pfc_cap = POLICY_NPRIO;
	for (size_t i = 0; c->nq && i < c->nq->nrules; i++) {
		uint8_t cos = policy_nq_rule_pfc(c->p, &c->nq->rules[i]);

		d->pfc_admin |= cos;
		if (c->nq->rules[i].pfc_rx_only) {
			rx_only |= cos;
			rx_line = c->nq->rules[i].pfc_rx_only_line;
		}
		if (c->nq->rules[i].mtu > d->mtu)
			d->mtu = c->nq->rules[i].mtu;
	}
	/* A driver's PFC pauses and honours together: receive-only cannot
	 * be had there, and plain PFC would spread the pause that
	 * receive-only is chosen to keep in, so those priorities stay
	 * lossy (and are not advertised). */
	if (rx_only && !d->software) {
		char cos[32];

		policy_list_format(rx_only, cos, sizeof(cos));
		diag_warn(&pp->warnings, rx_line,
		          "pause pfc-cos %s receive-only: a hardware DCB port "
		          "cannot honour pause without sending it: PFC stays "
		          "off on CoS %s (ECN only)",
		          cos, cos);
		d->pfc_admin &= (uint8_t)~rx_only;
	}
	/* The interface's own `mtu` is the more specific statement. */
	if (c->iface && c->iface->mtu)
		d->mtu = c->iface->mtu;
	switch (pp->pfc_mode) {
	case POLICY_PFC_ON:
		d->pfc_en = d->pfc_admin;
		break;
	case POLICY_PFC_OFF:
		d->pfc_en = 0;
		break;
	case POLICY_PFC_AUTO:
		/* Operational only once DCBX agrees (or this willing port
		 * took the peer's): then the agreed bitmap. */
		if (c->dcbx && c->dcbx->pfc_agreed) {
			d->pfc_en = c->dcbx->pfc.enable;
			break;
		}
		d->pfc_en = 0;
		pp->pfc_awaiting_dcbx = true;
		if (c->dcbx)
			compile_copy(pp->pfc_dcbx_why, sizeof(pp->pfc_dcbx_why),
			             dcbx_why_name(c->dcbx->pfc_why));
		if (c->dcbx)
			diag_add(&pp->warnings, DIAG_NOTE,
			         c->iface ? c->iface->line : 0,
			         "priority-flow-control mode auto: PFC stays "
			         "off: DCBX %s",
			         dcbx_why_name(c->dcbx->pfc_why));
		else
			diag_add(&pp->warnings, DIAG_NOTE,
			         c->iface ? c->iface->line : 0,
			         "priority-flow-control mode auto: PFC stays "
			         "off until DCBX agrees with the peer");
		break;
	}
	if (!d->software)
		d->pfc_en &= (uint8_t)~rx_only;
	else
		d->pfc_rx_only = rx_only & d->pfc_en;
}

/* Shares typed so far may add up to less than 100 (rocesh applies every
 * line, and NX-OS takes q3's 50 before q-default's): scale them so that
 * ETS holds sane values meanwhile, the remainder of the rounding going to
 * the lowest TCs. With every share 0, the ETS TCs split evenly. */
static void compile_dcb_ets_scale(struct compile_ctx *c, unsigned sum,
                                  unsigned nets)
{
	struct plan_dcb *d = &c->pp->dcb;
	unsigned total = 0;

	for (unsigned tc = 0; tc < POLICY_NQUEUES; tc++) {
		if (d->ets_tsa[tc] != PLAN_TSA_ETS)
			continue;
		d->ets_bw[tc] =
		    (uint8_t)(sum ? d->ets_bw[tc] * 100u / sum : 100u / nets);
		total += d->ets_bw[tc];
	}
	for (unsigned tc = 0; total < 100; tc = (tc + 1) % POLICY_NQUEUES) {
		if (d->ets_tsa[tc] != PLAN_TSA_ETS || (sum && !d->ets_bw[tc]))
			continue;
		d->ets_bw[tc]++;
		total++;
	}
	diag_warn(&c->pp->warnings, c->queuing ? c->queuing->line : 0,
	          "ETS bandwidth shares add up to %u %%: scaled to 100 %% "
	          "until the queuing policy is complete",
	          sum);
}

/* ETS: qos-group/priority p is traffic class p, unless the port adopted
 * its DCBX peer's ETS: then the peer's priority -> TC table, which the
 * tc part's classifier and priomap follow too (traffic class t is queue
 * t); strict queues are strict TCs, the others share by their bandwidth
 * percent. */
static void compile_dcb_ets(struct compile_ctx *c)
{
	struct plan_dcb *d = &c->pp->dcb;
	unsigned sum = 0, nets = 0;

	for (unsigned p = 0; p < POLICY_NPRIO; p++) {
		d->prio_tc[p] = (uint8_t)p;
		if (c->pp->dcbx_ets_adopted &&
		    c->dcbx->ets.prio_tc[p] < POLICY_NQUEUES)
			d->prio_tc[p] = c->dcbx->ets.prio_tc[p];
	}
	for (unsigned tc = 0; tc < POLICY_NQUEUES; tc++) {
		if (compile_queue_strict(c->queuing, tc)) {
			d->ets_tsa[tc] = PLAN_TSA_STRICT;
			d->ets_bw[tc] = 0;
			continue;
		}
		d->ets_tsa[tc] = PLAN_TSA_ETS;
		d->ets_bw[tc] = (uint8_t)compile_queue_percent(c->queuing, tc);
		sum += d->ets_bw[tc];
		nets++;
	}
	if (nets && sum < 100 && c->queuing)
		compile_dcb_ets_scale(c, sum, nets);
	/* DCB drivers refuse ETS tables whose shares do not add up. */
	else if (!d->software && nets && sum != 100)
		diag_warn(&c->pp->warnings, c->queuing ? c->queuing->line : 0,
		          "ETS bandwidth shares add up to %u %%, not 100 %%: "
		          "the driver may refuse them",
		          sum);
}

static void compile_dcb_app_add(struct plan_dcb *d, uint8_t selector,
                                uint16_t protocol, unsigned prio)
{
	/* The first rule that claims a DSCP or PCP wins, as NX-OS matches
	 * classes in order. */
	for (size_t i = 0; i < d->napp; i++)
		if (d->app[i].selector == selector &&
		    d->app[i].protocol == protocol)
			return;
	if (d->napp >= PLAN_APP_MAX)
		return;
	d->app[d->napp].selector = selector;
	d->app[d->napp].protocol = protocol;
	d->app[d->napp].priority = (uint8_t)prio;
	d->napp++;
}

/* APP and trust: the qos input policy as the NIC classifies, DSCP first. */
static void compile_dcb_app(struct compile_ctx *c)
{
	struct plan_dcb *d = &c->pp->dcb;
	bool hw = !d->software;
	bool has_dscp = false, has_pcp = false;

	for (size_t i = 0; c->qos && i < c->qos->nrules; i++) {
		const struct policy_qos_rule *r = &c->qos->rules[i];
		unsigned g = compile_rule_group(r);
		bool all;
		const struct policy_class_qos *cls =
		    compile_rule_class(c->p, r, &all);

		if (all) {
			/* A group other than 0 for every packet has no APP
			 * form; priority 0 is what unmatched traffic gets. */
			if (hw && g)
				diag_warn(&c->pp->warnings, r->line,
				          "class %s matches all traffic: DCB "
				          "APP/trust cannot express it, "
				          "unclassified traffic keeps "
				          "priority 0 instead of qos-group %u",
				          r->class_name, g);
			continue;
		}
		for (unsigned v = 0; v < 64; v++)
			if (cls->dscp & (1ull << v)) {
				compile_dcb_app_add(d, PLAN_APP_SEL_DSCP,
				                    (uint16_t)v, g);
				has_dscp = true;
			}
		for (unsigned v = 0; v < POLICY_NPRIO; v++)
			if (cls->cos & (1u << v)) {
				compile_dcb_app_add(d, PLAN_APP_SEL_PCP,
				                    (uint16_t)v, g);
				has_pcp = true;
			}
		if (hw && cls->match == POLICY_MATCH_ALL && cls->cos &&
		    cls->dscp)
			diag_warn(&c->pp->warnings, cls->line,
			          "class-map %s is match-all on cos and dscp: "
			          "DCB APP/trust cannot express it and "
			          "classifies on either (match-any)",
			          cls->name);
	}
	if (has_dscp)
		d->trust[d->ntrust++] = PLAN_APP_SEL_DSCP;
	if (has_pcp)
		d->trust[d->ntrust++] = PLAN_APP_SEL_PCP;
}

/* Resolve the policies in force on the port; a name that resolves to
 * nothing cannot be compiled (validation normally rules it out). */
static void compile_resolve(struct compile_ctx *c)
{
	const struct policy *p = c->p;
	const struct policy_iface *i = c->iface;
	struct plan_port *pp = c->pp;
	const char *name;

	c->qos = policy_iface_qos(p, i);
	name = i && i->qos_input[0] ? i->qos_input : p->system.qos_input;
	if (name[0] && !c->qos)
		diag_err(&c->pl->diag, i ? i->qos_input_line : 0,
		         "%s: qos policy-map %s is not defined", pp->ifname,
		         name);
	c->queuing = policy_iface_queuing(p, i);
	name = i && i->queuing_output[0] ? i->queuing_output
	                                 : p->system.queuing_output;
	if (name[0] && !c->queuing)
		diag_err(&c->pl->diag, i ? i->queuing_output_line : 0,
		         "%s: queuing policy-map %s is not defined", pp->ifname,
		         name);
	if (p->system.network_qos[0]) {
		c->nq = policy_find_map_nq(p, p->system.network_qos);
		if (!c->nq)
			diag_err(&c->pl->diag, p->system.network_qos_line,
			         "network-qos policy-map %s is not defined",
			         p->system.network_qos);
	}
	if (c->qos)
		compile_copy(pp->qos_policy, sizeof(pp->qos_policy),
		             c->qos->name);
	if (c->queuing)
		compile_copy(pp->queuing_policy, sizeof(pp->queuing_policy),
		             c->queuing->name);
	for (size_t r = 0; c->qos && r < c->qos->nrules; r++) {
		const struct policy_qos_rule *rule = &c->qos->rules[r];

		if (!policy_find_class_qos(p, rule->class_name) &&
		    strcmp(rule->class_name, POLICY_CLASS_DEFAULT) != 0)
			diag_err(&c->pl->diag, rule->line,
			         "policy-map %s: class-map %s is not defined",
			         c->qos->name, rule->class_name);
	}
}

/* A class that needs a CoS can never match on a port whose frames are
 * all untagged (a routed port: RoCEv2 after a routed hop has no tag):
 * its traffic goes to class-default, best effort, however its DSCP
 * reads. Said by name, class and port, where roced -n, --dry-run and
 * rocesh show a plan's warnings. */
static void compile_untagged_warn(struct compile_ctx *c)
{
	if (!c->pp->caps.untagged)
		return;
	for (size_t i = 0; c->qos && i < c->qos->nrules; i++) {
		const struct policy_qos_rule *r = &c->qos->rules[i];
		bool all;
		const struct policy_class_qos *cls =
		    compile_rule_class(c->p, r, &all);

		if (all || !cls->cos ||
		    (cls->match == POLICY_MATCH_ANY && cls->dscp))
			continue;
		diag_warn(&c->pp->warnings,
		          cls->cos_line ? cls->cos_line : cls->line,
		          "class-map %s can never match on %s: it %s, and "
		          "%s is a routed port (no bridge, no VLAN) whose "
		          "frames come in untagged, so they go to "
		          "class-default (make it match-any with a match "
		          "dscp)",
		          cls->name, c->pp->ifname,
		          cls->dscp ? "is match-all on cos and dscp"
		                    : "matches cos only",
		          c->pp->ifname);
	}
}

/* Who runs LLDP on the port of interface block I (NULL: a port the
 * policy does not name, which has none). */
static void compile_lldp(const struct policy *p, const struct policy_iface *i,
                         struct plan_lldp *out)
{
	memset(out, 0, sizeof(*out));
	if (!i) {
		out->off = PLAN_LLDP_OFF_UNCONFIGURED;
		return;
	}
	out->transmit = !i->lldp.no_transmit;
	out->receive = !i->lldp.no_receive;
	if (p->lldp.no_feature)
		out->off = PLAN_LLDP_OFF_FEATURE;
	else if (policy_iface_dcbx_agent(p, i) == POLICY_DCBX_AGENT_LLDPAD)
		out->agent = PLAN_LLDP_LLDPAD;
	else if (!out->transmit && !out->receive)
		out->off = PLAN_LLDP_OFF_TXRX;
	else
		out->agent = PLAN_LLDP_ROCED;
}

static int compile_port(const struct policy *p, const struct compile_port *cp,
                        struct plan *out)
{
	struct compile_ctx c = {.p = p, .pl = out, .cp = cp};
	struct plan_port *pp = plan_add_port(out, cp->ifname);
	struct compile_dcbx_eff eff;
	int rc;

	if (!pp)
		return -ENOMEM;
	if (cp->has_dcbx)
		c.dcbx = &cp->dcbx;
	c.pp = pp;
	pp->caps = cp->caps;
	c.iface = policy_find_iface(p, cp->ifname);
	if (c.iface)
		compile_copy(pp->alias, sizeof(pp->alias), c.iface->alias);
	/* A port without an interface block runs NX-OS's default mode. */
	pp->pfc_mode = c.iface ? c.iface->pfc_mode : POLICY_PFC_AUTO;
	pp->watchdog = policy_iface_watchdog(p, c.iface);
	pp->dcbx_willing = c.iface && c.iface->lldp.willing;
	compile_lldp(p, c.iface, &pp->lldp);
	compile_pfc_agents(&c);
	pp->qdisc_takeover = c.iface && c.iface->qdisc_takeover;
	pp->dcb.software = !pp->caps.hw_dcb;
	/* Link pause: what `flowcontrol` says, on or off, once it says
	 * anything (cmd sets the values without a line). */
	if (c.iface && (c.iface->fc_rx || c.iface->fc_tx ||
	                c.iface->fc_rx_line || c.iface->fc_tx_line)) {
		pp->dcb.pause_managed = true;
		pp->dcb.pause_rx = c.iface->fc_rx;
		pp->dcb.pause_tx = c.iface->fc_tx;
		/* Software ports: roced's frame layer honours and sends it
		 * (compile_pfc.c, the daemon's agents); only a job that
		 * plans no software PFC leaves it unrealised, and says so. */
		if (pp->dcb.software && !cp->softpfc &&
		    (c.iface->fc_rx || c.iface->fc_tx))
			diag_warn(&pp->warnings,
			          c.iface->fc_rx ? c.iface->fc_rx_line
			                         : c.iface->fc_tx_line,
			          "flowcontrol %s on: 802.3x link pause is not "
			          "realised on a software port without "
			          "roced's software PFC",
			          c.iface->fc_rx ? "receive" : "send");
	}
	compile_resolve(&c);
	compile_untagged_warn(&c);

	compile_dcb_pfc(&c);
	compile_dcb_ets(&c);
	compile_dcb_app(&c);
	pp->dcb_local = pp->dcb;
	/* A willing port realises the peer's ETS and APP like a policy of
	 * its own: the DCB part again, and the tc part below. */
	memset(&eff, 0, sizeof(eff));
	if (c.dcbx) {
		rc = compile_dcbx_adopt(&c, &eff);
		if (rc < 0) {
			compile_dcbx_eff_free(&eff);
			return rc;
		}
		if (pp->dcbx_ets_adopted)
			compile_dcb_ets(&c);
		if (pp->dcbx_app_adopted) {
			pp->dcb.napp = pp->dcb.ntrust = 0;
			compile_dcb_app(&c);
		}
	}
	/* After adoption: a shut queue's priorities are those the table
	 * in force maps to it. */
	compile_pfc_dcb(&c);
	c.frame = (pp->dcb.mtu ? pp->dcb.mtu : COMPILE_DEFAULT_MTU) +
	          COMPILE_L2_OVERHEAD;
	/* No network-qos MTU: the port gets back the MTU roced took from
	 * it. The frame above stays the policy's, so that the tc part does
	 * not change when roced later forgets that MTU. */
	if (!pp->dcb.mtu && cp->mtu_restore) {
		pp->dcb.mtu = cp->mtu_restore;
		pp->dcb.mtu_restore = true;
	}
	pp->dcb_local.mtu = pp->dcb.mtu;
	pp->dcb_local.mtu_restore = pp->dcb.mtu_restore;
	rc = compile_tc(&c);
	if (!rc) {
		compile_pfc_holds(&c);
		compile_pfc_refuse(&c);
		compile_pfc_path(&c);
	}
	compile_dcbx_eff_free(&eff);
	return rc;
}

int compile_release(const struct compile_port *ports, size_t nports,
                    struct plan *out)
{
	for (size_t i = 0; i < nports; i++) {
		struct plan_port *pp = plan_add_port(out, ports[i].ifname);

		if (!pp)
			return -ENOMEM;
		pp->caps = ports[i].caps;
		pp->dcb.software = !pp->caps.hw_dcb;
		pp->dcb.unmanaged = true;
		pp->dcb.mtu = ports[i].mtu_restore;
		pp->dcb.mtu_restore = ports[i].mtu_restore != 0;
	}
	return 0;
}

void compile_global(const struct policy *p, struct plan_global *g)
{
	const struct policy_pfcwd *w = &p->pfcwd;

	memset(g, 0, sizeof(*g));
	g->lldp_feature = !p->lldp.no_feature;
	g->lldp_timer_ms = p->lldp.timer * 1000u;
	g->lldp_reinit_ms = p->lldp.reinit * 1000u;
	g->lldp_holdtime = p->lldp.holdtime;
	g->lldp_dcbxp = !p->lldp.no_dcbxp;
	g->wd_enabled = w->enabled;
	g->wd_poll_ms = w->poll_ms;
	g->wd_shutdown_mult = w->shutdown_mult;
	g->wd_auto_restore_mult = w->auto_restore_mult;
	g->wd_fixed_restore_mult = w->fixed_restore_mult;
	g->wd_internal_if_mult = w->internal_if_mult;
	g->wd_action = w->action;
	compile_copy(g->metrics_textfile, sizeof(g->metrics_textfile),
	             p->metrics.textfile);
	g->metrics_interval_s =
	    p->metrics.interval ? p->metrics.interval : POLICY_METRICS_INTERVAL;
}

int compile_policy(const struct policy *p, const struct compile_port *ports,
                   size_t nports, struct plan *out)
{
	compile_global(p, &out->global);
	for (size_t i = 0; i < nports; i++) {
		int rc = compile_port(p, &ports[i], out);

		if (rc < 0)
			return rc;
	}
	return 0;
}
