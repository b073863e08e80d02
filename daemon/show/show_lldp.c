/* show_lldp: the LLDP and DCBX shows, one JSON builder per
 * family and the NX-OS-like text rendered from that JSON:
 *   show lldp neighbors [interface X] [detail]
 *   show lldp traffic [interface X]
 *   show lldp interface X
 *   show lldp dcbx interface X
 * They read the LLDP agent's state (the neighbours, counters and DCBX
 * outcome of each port) and the plan applied to the port (what is
 * operational), never the kernel.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "agent/frame.h"
#include "base/escape.h"
#include "plan/compile.h"
#include "show/show.h"
#include "show/show_int.h"

static double show_lldp_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void show_lldp_mac(const uint8_t *m, char *buf, size_t len)
{
	snprintf(buf, len, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2],
	         m[3], m[4], m[5]);
}

static struct json_object *show_lldp_ets_json(const struct dcbx_ets *e,
                                              bool willing)
{
	struct json_object *o = json_object_new_object();
	struct json_object *pt = json_object_new_array();
	struct json_object *bw = json_object_new_array();
	struct json_object *tsa = json_object_new_array();

	if (willing)
		show_add_bool(o, "willing", e->willing);
	for (unsigned i = 0; i < DCBX_NTC; i++) {
		json_object_array_add(pt, json_object_new_int(e->prio_tc[i]));
		json_object_array_add(bw, json_object_new_int(e->tc_bw[i]));
		json_object_array_add(
		    tsa, json_object_new_string(dcbx_tsa_name(e->tsa[i])));
	}
	json_object_object_add(o, "priority-tc", pt);
	json_object_object_add(o, "bandwidth", bw);
	json_object_object_add(o, "tsa", tsa);
	return o;
}

static struct json_object *show_lldp_pfc_json(const struct dcbx_pfc *p)
{
	struct json_object *o = json_object_new_object();

	show_add_bool(o, "willing", p->willing);
	show_add_bool(o, "mbc", p->mbc);
	show_add_int(o, "cap", p->cap);
	json_object_object_add(o, "enabled", show_mask_json(p->enable));
	return o;
}

static struct json_object *show_lldp_app_json(const struct dcbx_apps *a)
{
	struct json_object *arr = json_object_new_array();

	for (size_t i = 0; i < a->n; i++) {
		struct json_object *o = json_object_new_object();

		show_add_str(o, "selector",
		             dcbx_app_sel_name(a->v[i].selector));
		show_add_int(o, "protocol", a->v[i].protocol);
		show_add_int(o, "priority", a->v[i].prio);
		json_object_array_add(arr, o);
	}
	return arr;
}

/* The result of one feature: why, and the reason when it is not an
 * agreement. */
static void show_lldp_result(struct json_object *o, enum dcbx_why why)
{
	show_add_str(o, "result", dcbx_why_name(why));
	if (why == DCBX_WHY_AGREED || why == DCBX_WHY_ADOPTED)
		json_object_object_add(o, "mismatch-reason", NULL);
	else
		show_add_str(o, "mismatch-reason", dcbx_why_name(why));
}

/* A text TLV of the peer's: its bytes escaped (base/escape.h), so that
 * neither the text nor the JSON carries a control byte or invalid
 * UTF-8 from the wire. */
void show_lldp_text(struct json_object *o, const char *key, const char *s,
                    uint8_t len)
{
	struct strbuf sb;

	strbuf_init(&sb);
	escape_add(&sb, s, lldp_text_len(s, len), ESCAPE_BACKSLASH);
	show_add_str(o, key, strbuf_str(&sb));
	strbuf_free(&sb);
}

static struct json_object *show_lldp_nbr_json(const struct lldp_nbr *b,
                                              double now, bool detail)
{
	struct json_object *o = json_object_new_object();
	const struct lldp_pdu *d = &b->pdu;
	char buf[800];

	lldp_id_format(&d->chassis, false, buf, sizeof(buf));
	show_add_str(o, "chassis-id", buf);
	lldp_id_format(&d->port, true, buf, sizeof(buf));
	show_add_str(o, "port-id", buf);
	show_lldp_mac(b->mac, buf, sizeof(buf));
	show_add_str(o, "mac", buf);
	show_lldp_text(o, "system-name", d->sys_name, d->sys_name_len);
	show_add_int(o, "ttl", d->ttl);
	show_add_int(o, "expires-in",
	             (int64_t)((b->expires_ms - now) / 1000.0 + 0.5));
	show_add_bool(o, "dcbx",
	              d->dcbx.has_pfc || d->dcbx.has_ets_cfg ||
	                  d->dcbx.has_ets_rec || d->dcbx.has_app);
	show_add_bool(o, "cee", d->dcbx.cee);
	/* NX-OS's Capability column: what the neighbour has enabled, from
	 * its System Capabilities TLV (null without one). */
	if (d->has_caps) {
		lldp_caps_letters(d->caps_enabled, buf, sizeof(buf));
		show_add_str(o, "capability", buf);
	} else {
		json_object_object_add(o, "capability", NULL);
	}
	if (!detail)
		return o;
	show_lldp_text(o, "port-description", d->port_desc, d->port_desc_len);
	show_lldp_text(o, "system-description", d->sys_desc, d->sys_desc_len);
	if (d->has_caps) {
		show_add_int(o, "capabilities", d->caps_sys);
		show_add_int(o, "capabilities-enabled", d->caps_enabled);
		lldp_caps_letters(d->caps_sys, buf, sizeof(buf));
		show_add_str(o, "system-capability", buf);
	}
	show_add_int(o, "unknown-tlvs", d->nunknown);
	return o;
}

/* The ports Q is about: each plan shown, by name. */
static const struct lldp_port *show_lldp_port(const struct show_input *in,
                                              size_t i)
{
	return in->lldp ? lldp_agent_find(in->lldp, in->plans[i]->ifname)
	                : NULL;
}

static void show_lldp_names(struct json_object *o, const struct plan_port *pp)
{
	show_add_str(o, "name", pp->ifname);
	if (pp->alias[0])
		show_add_str(o, "alias", pp->alias);
}

static struct json_object *show_lldp_neighbors(const struct show_input *in,
                                               bool detail)
{
	struct json_object *o = json_object_new_object();
	struct json_object *a = json_object_new_array();
	double now = show_lldp_now();

	for (size_t i = 0; i < in->nports; i++) {
		const struct lldp_port *lp = show_lldp_port(in, i);
		const struct lldp_nbr *peer;
		unsigned count = 0;

		if (!lp)
			continue;
		peer = lldp_port_peer(lp, &count);
		for (size_t k = 0; k < LLDP_AGENT_NBR_MAX; k++) {
			struct json_object *n;

			if (!lp->nbr[k].used)
				continue;
			n = show_lldp_nbr_json(&lp->nbr[k], now, detail);
			show_lldp_names(n, in->plans[i]);
			show_add_bool(n, "dcbx-peer", &lp->nbr[k] == peer);
			show_add_int(n, "neighbors-on-port", count);
			json_object_array_add(a, n);
		}
	}
	json_object_object_add(o, "neighbors", a);
	return o;
}

static struct json_object *show_lldp_counters(const struct lldp_counters *c,
                                              uint64_t drops)
{
	struct json_object *o = json_object_new_object();

	show_add_int(o, "frames-in", (int64_t)c->frames_in);
	show_add_int(o, "frames-out", (int64_t)c->frames_out);
	show_add_int(o, "discarded", (int64_t)c->discarded);
	show_add_int(o, "malformed", (int64_t)c->malformed);
	show_add_int(o, "unknown-tlvs", (int64_t)c->unknown_tlvs);
	show_add_int(o, "ageouts", (int64_t)c->ageouts);
	show_add_int(o, "neighbors-added", (int64_t)c->nbr_added);
	show_add_int(o, "neighbors-deleted", (int64_t)c->nbr_deleted);
	show_add_int(o, "tx-errors", (int64_t)c->tx_errors);
	show_add_int(o, "dcbx-ignored", (int64_t)c->dcbx_ignored);
	show_add_int(o, "multiple-peers", (int64_t)c->multi_peers);
	show_add_int(o, "dcbx-peer-changes", (int64_t)c->peer_changes);
	show_add_int(o, "dcbx-refused", (int64_t)c->dcbx_refused);
	show_add_int(o, "msap-conflicts", (int64_t)c->msap_conflicts);
	/* Frames of the port the kernel dropped at roced's packet socket
	 * (LLDP, PFC and pause alike: one socket) before roced read them. */
	show_add_int(o, "socket-drops", (int64_t)drops);
	return o;
}

static uint64_t show_lldp_drops(const struct show_input *in, const char *ifname)
{
	const struct frame_port *fp =
	    in->lldp && in->lldp->frames ? frames_find(in->lldp->frames, ifname)
	                                 : NULL;

	return fp ? fp->c.rx_dropped : 0;
}

static struct json_object *show_lldp_traffic(const struct show_input *in)
{
	struct json_object *o = json_object_new_object();
	struct json_object *a = json_object_new_array();
	struct lldp_counters total;
	uint64_t drops = 0;

	memset(&total, 0, sizeof(total));
	for (size_t i = 0; i < in->nports; i++) {
		const struct lldp_port *lp = show_lldp_port(in, i);
		struct json_object *p;

		if (!lp)
			continue;
		p = show_lldp_counters(
		    &lp->c, show_lldp_drops(in, in->plans[i]->ifname));
		drops += show_lldp_drops(in, in->plans[i]->ifname);
		show_lldp_names(p, in->plans[i]);
		json_object_array_add(a, p);
		total.frames_in += lp->c.frames_in;
		total.frames_out += lp->c.frames_out;
		total.discarded += lp->c.discarded;
		total.malformed += lp->c.malformed;
		total.unknown_tlvs += lp->c.unknown_tlvs;
		total.ageouts += lp->c.ageouts;
		total.nbr_added += lp->c.nbr_added;
		total.nbr_deleted += lp->c.nbr_deleted;
		total.tx_errors += lp->c.tx_errors;
		total.dcbx_ignored += lp->c.dcbx_ignored;
		total.multi_peers += lp->c.multi_peers;
		total.peer_changes += lp->c.peer_changes;
		total.dcbx_refused += lp->c.dcbx_refused;
		total.msap_conflicts += lp->c.msap_conflicts;
	}
	json_object_object_add(o, "total", show_lldp_counters(&total, drops));
	json_object_object_add(o, "interfaces", a);
	return o;
}

/* Why the agent does not run on a port, from its plan (the applied
 * one, or the empty plan of a port roced does not configure). */
static const char *show_lldp_off(const struct plan_port *pp)
{
	if (pp->lldp.agent == PLAN_LLDP_LLDPAD)
		return "dcbx agent lldpad: lldpad runs LLDP on this interface";
	if (pp->lldp.agent == PLAN_LLDP_ROCED)
		return "the interface is absent or administratively down";
	switch (pp->lldp.off) {
	case PLAN_LLDP_OFF_FEATURE:
		return "feature lldp is off";
	case PLAN_LLDP_OFF_TXRX:
		return "lldp transmit and receive are off";
	case PLAN_LLDP_OFF_UNCONFIGURED:
	default:
		return "roced does not configure this interface";
	}
}

static struct json_object *show_lldp_if(const struct show_input *in)
{
	struct json_object *o = json_object_new_object();
	const struct plan_port *pp = in->nports ? in->plans[0] : NULL;
	const struct lldp_port *lp = pp ? show_lldp_port(in, 0) : NULL;
	unsigned count = 0;

	if (!pp)
		return o;
	show_lldp_names(o, pp);
	show_add_bool(o, "running", lp != NULL);
	if (!lp) {
		show_add_str(o, "reason", show_lldp_off(pp));
		return o;
	}
	json_object_object_add(o, "reason", NULL);
	show_add_bool(o, "transmit", lp->cfg.transmit);
	show_add_bool(o, "receive", lp->cfg.receive);
	show_add_bool(o, "dcbx-tlvs", in->lldp->cfg.dcbxp);
	show_add_int(o, "timer",
	             (int64_t)(in->lldp->cfg.tx.interval_ms / 1000));
	show_add_int(o, "holdtime", in->lldp->cfg.holdtime);
	show_add_int(o, "reinit", (int64_t)(in->lldp->cfg.tx.reinit_ms / 1000));
	lldp_port_peer(lp, &count);
	show_add_int(o, "neighbors", count);
	json_object_object_add(
	    o, "counters",
	    show_lldp_counters(&lp->c, show_lldp_drops(in, pp->ifname)));
	return o;
}

/* MASK's priorities as "3" or "3,4", "none" when empty. */
static void show_lldp_prios(uint8_t mask, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned p = 0; p < 8 && n + 3 < len; p++)
		if (mask & (1u << p))
			n += (size_t)snprintf(buf + n, len - n, "%s%u",
			                      n ? "," : "", p);
	if (!n)
		snprintf(buf, len, "none");
}

/* Why PFC is on or off at this end, in words. */
static void show_lldp_pfc_local_why(const struct lldp_port *lp,
                                    const struct dcbx_tlvs *peer,
                                    const struct plan_port *pp, char *buf,
                                    size_t len)
{
	const struct dcbx_oper *o = &lp->oper;
	char en[32], adv[32], ref[32];

	show_lldp_prios(pp->dcb.pfc_en, en, sizeof(en));
	show_lldp_prios(peer && peer->has_pfc ? peer->pfc.enable : 0, adv,
	                sizeof(adv));
	show_lldp_prios(pp->pfc_unrealisable, ref, sizeof(ref));
	if (pp->pfc_mode == POLICY_PFC_ON) {
		snprintf(buf, len,
		         "%s%s: priority-flow-control mode on, whatever "
		         "DCBX says",
		         pp->dcb.pfc_en ? "on " : "off (no no-drop class)",
		         pp->dcb.pfc_en ? en : "");
		return;
	}
	if (pp->pfc_mode == POLICY_PFC_OFF) {
		snprintf(buf, len, "off: priority-flow-control mode off");
		return;
	}
	if (pp->pfc_unrealisable) {
		snprintf(buf, len,
		         "%s%s; off on %s: adopted: not realisable (no queue "
		         "software PFC can hold)",
		         pp->dcb.pfc_en ? "on " : "off",
		         pp->dcb.pfc_en ? en : "", ref);
		return;
	}
	switch (o->pfc_why) {
	case DCBX_WHY_AGREED:
		snprintf(buf, len,
		         "%s%s: the peer advertises the same "
		         "priorities",
		         pp->dcb.pfc_en ? "on " : "off",
		         pp->dcb.pfc_en ? en : "");
		return;
	case DCBX_WHY_ADOPTED:
		snprintf(buf, len,
		         "on %s: this port is willing and took the peer's "
		         "priorities (and now advertises them)",
		         en);
		return;
	case DCBX_WHY_PEER_WILLING:
		if (peer && peer->has_pfc && peer->pfc.enable != o->pfc.enable)
			snprintf(
			    buf, len,
			    "on %s: the peer is willing, so by 802.1Qaz it "
			    "runs ours; it still advertises %s (it does "
			    "not re-advertise what it took, as NIC "
			    "firmware does)",
			    en, adv);
		else
			snprintf(
			    buf, len,
			    "on %s: the peer is willing, so by 802.1Qaz it "
			    "runs ours",
			    en);
		return;
	case DCBX_WHY_NO_PEER:
		snprintf(buf, len,
		         "off: mode auto waits for DCBX: no LLDP "
		         "neighbour");
		return;
	case DCBX_WHY_MULTI_PEERS:
		snprintf(buf, len,
		         "off: mode auto: multiple peers: DCBX is point to "
		         "point and this port hears more than one LLDP "
		         "neighbour, so it negotiates with none");
		return;
	case DCBX_WHY_NO_TLV:
		snprintf(buf, len,
		         "off: mode auto waits for DCBX: the "
		         "neighbour sends no PFC TLV");
		return;
	case DCBX_WHY_CEE:
		snprintf(buf, len,
		         "off: mode auto waits for DCBX: the "
		         "neighbour speaks legacy CEE DCBX only");
		return;
	case DCBX_WHY_MISMATCH:
		snprintf(buf, len,
		         "off: mode auto: neither side is willing and the peer "
		         "advertises %s",
		         adv);
		return;
	case DCBX_WHY_PEER_CANNOT:
		snprintf(buf, len,
		         "off: mode auto: the peer is willing but can run PFC "
		         "on only %u priorities",
		         peer && peer->has_pfc ? peer->pfc.cap : 0);
		return;
	}
	snprintf(buf, len, "%s", dcbx_why_name(o->pfc_why));
}

/* What the peer runs, as far as the rules tell. */
static void show_lldp_pfc_peer_why(const struct lldp_port *lp,
                                   const struct dcbx_tlvs *peer, char *buf,
                                   size_t len)
{
	const struct dcbx_oper *o = &lp->oper;
	char adv[32], ours[32];

	if (!peer || !peer->has_pfc) {
		snprintf(buf, len, "unknown: %s",
		         !peer && lp->multi ? "no DCBX peer (multiple peers)"
		         : !peer            ? "no DCBX peer"
		                            : "it sends no PFC TLV");
		return;
	}
	show_lldp_prios(peer->pfc.enable, adv, sizeof(adv));
	show_lldp_prios(o->pfc.enable, ours, sizeof(ours));
	switch (o->pfc_why) {
	case DCBX_WHY_AGREED:
		snprintf(buf, len, "%s%s: it advertises what this port runs",
		         peer->pfc.enable ? "on " : "off",
		         peer->pfc.enable ? adv : "");
		return;
	case DCBX_WHY_ADOPTED:
		snprintf(buf, len,
		         "on %s: its own configuration (%s), which this "
		         "port took",
		         adv,
		         peer->pfc.willing ? "it is willing too and wins the "
		                             "MAC address tie"
		                           : "it is not willing");
		return;
	case DCBX_WHY_PEER_WILLING:
		snprintf(buf, len,
		         "on %s: it is willing and takes this port's values "
		         "(it advertises %s)",
		         ours, adv);
		return;
	case DCBX_WHY_PEER_CANNOT:
		snprintf(buf, len,
		         "off or its own: willing, but its PFC capability (%u) "
		         "cannot hold this port's priorities",
		         peer->pfc.cap);
		return;
	default:
		snprintf(buf, len, "%s%s: its own configuration, not willing",
		         peer->pfc.enable ? "on " : "off",
		         peer->pfc.enable ? adv : "");
		return;
	}
}

static struct json_object *show_lldp_dcbx_pfc(const struct lldp_port *lp,
                                              const struct dcbx_tlvs *peer,
                                              const struct plan_port *pp)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "local", show_lldp_pfc_json(&lp->local.pfc));
	json_object_object_add(
	    o, "peer",
	    peer && peer->has_pfc ? show_lldp_pfc_json(&peer->pfc) : NULL);
	show_add_bool(o, "local-willing", lp->local.pfc.willing);
	if (peer && peer->has_pfc)
		show_add_bool(o, "peer-willing", peer->pfc.willing);
	else
		json_object_object_add(o, "peer-willing", NULL);
	json_object_object_add(o, "negotiated",
	                       show_mask_json(lp->oper.pfc.enable));
	show_add_bool(o, "agreed", lp->oper.pfc_agreed);
	show_lldp_result(o, lp->oper.pfc_why);
	/* What the port runs: the plan's (the mode decides). */
	show_add_str(o, "mode", policy_pfc_mode_name(pp->pfc_mode));
	json_object_object_add(o, "oper", show_mask_json(pp->dcb.pfc_en));
	show_add_bool(o, "operational", pp->dcb.pfc_en != 0);
	if (pp->pfc_awaiting_dcbx)
		show_add_str(o, "oper-reason", dcbx_why_name(lp->oper.pfc_why));
	else if (pp->pfc_unrealisable)
		show_add_str(o, "oper-reason", pp->pfc_dcbx_why);
	else
		json_object_object_add(o, "oper-reason", NULL);
	json_object_object_add(o, "unrealisable",
	                       show_mask_json(pp->pfc_unrealisable));
	{
		char why[256];

		show_lldp_pfc_local_why(lp, peer, pp, why, sizeof(why));
		show_add_str(o, "local-why", why);
		show_lldp_pfc_peer_why(lp, peer, why, sizeof(why));
		show_add_str(o, "peer-why", why);
	}
	return o;
}

static void show_lldp_dcbx_feats(struct json_object *o,
                                 const struct lldp_port *lp,
                                 const struct dcbx_tlvs *pt,
                                 const struct plan_port *pp);

/* A port of the lldpad backend: lldpad's view in the same layout, with
 * "agent" saying whose it is; why it has none when lldpad failed. */
static struct json_object *show_lldp_dcbx_lldpad(struct json_object *o,
                                                 const struct lldpad_port *dp,
                                                 const struct plan_port *pp)
{
	struct lldp_port *lp;

	show_add_str(o, "agent", "lldpad");
	if (!dp->has_oper) {
		show_add_bool(o, "running", false);
		show_add_str(o, "reason",
		             dp->error[0]
		                 ? dp->error
		                 : "waiting for lldpad's first answer");
		return o;
	}
	/* The shared builder reads a port of roced's agent: lldpad's
	 * values are laid into one (no neighbour: lldpad keeps those). */
	lp = calloc(1, sizeof(*lp));
	if (!lp)
		return o;
	lp->local = dp->local;
	if (dp->lldpad_local.has_pfc)
		lp->local.pfc = dp->lldpad_local.pfc;
	if (dp->lldpad_local.has_ets_cfg)
		lp->local.ets_cfg = dp->lldpad_local.ets_cfg;
	if (dp->lldpad_local.has_app)
		lp->local.app = dp->lldpad_local.app;
	lp->oper = dp->oper;
	lp->changed_ms = dp->changed_ms;
	show_add_bool(o, "running", true);
	json_object_object_add(o, "reason", NULL);
	show_add_str(o, "dcbx", "ieee");
	show_add_bool(o, "dcbx-tlvs", true);
	json_object_object_add(o, "peer", NULL);
	show_add_bool(o, "peer-speaks-cee", false);
	show_lldp_dcbx_feats(o, lp, dp->has_peer ? &dp->peer : NULL, pp);
	free(lp);
	return o;
}

static struct json_object *show_lldp_dcbx(const struct show_input *in)
{
	struct json_object *o = json_object_new_object();
	const struct plan_port *pp = in->nports ? in->plans[0] : NULL;
	const struct lldp_port *lp = pp ? show_lldp_port(in, 0) : NULL;
	const struct lldpad_port *dp =
	    pp && !lp && in->lldpad ? lldpad_client_find(in->lldpad, pp->ifname)
	                            : NULL;
	const struct lldp_nbr *peer;
	const struct dcbx_tlvs *pt;
	struct json_object *n;
	unsigned count = 0;

	if (!pp)
		return o;
	show_lldp_names(o, pp);
	if (dp)
		return show_lldp_dcbx_lldpad(o, dp, pp);
	show_add_str(o, "agent", "roced");
	if (!lp || !lp->has_oper) {
		show_add_bool(o, "running", false);
		show_add_str(o, "reason",
		             lp ? "the local DCB values are not "
		                  "known yet (no plan applied)"
		                : show_lldp_off(pp));
		return o;
	}
	show_add_bool(o, "running", true);
	json_object_object_add(o, "reason", NULL);
	show_add_str(o, "dcbx", "ieee");
	show_add_bool(o, "dcbx-tlvs", in->lldp->cfg.dcbxp);
	peer = lp->cfg.receive ? lldp_port_peer(lp, &count) : NULL;
	pt = peer ? &peer->dcbx : NULL;
	if (peer) {
		n = show_lldp_nbr_json(peer, show_lldp_now(), false);
		show_add_int(n, "neighbors-on-port", count);
		json_object_object_add(o, "peer", n);
	} else {
		json_object_object_add(o, "peer", NULL);
	}
	show_add_bool(o, "peer-speaks-cee", pt && pt->cee);
	/* At most one DCBX peer per port, and none beside others. */
	show_add_str(o, "peer-state",
	             lp->multi ? "multiple peers"
	             : !peer   ? "no peer"
	                       : "one peer");
	show_add_int(o, "neighbors", count);
	show_lldp_dcbx_feats(o, lp, pt, pp);
	return o;
}

/* Per feature: local, peer, willing bits, outcome, last change. */
static void show_lldp_dcbx_feats(struct json_object *o,
                                 const struct lldp_port *lp,
                                 const struct dcbx_tlvs *pt,
                                 const struct plan_port *pp)
{
	struct json_object *f;

	show_add_int(o, "last-change",
	             (int64_t)((show_lldp_now() - lp->changed_ms) / 1000.0));
	json_object_object_add(o, "pfc", show_lldp_dcbx_pfc(lp, pt, pp));
	f = json_object_new_object();
	json_object_object_add(f, "local",
	                       show_lldp_ets_json(&lp->local.ets_cfg, true));
	json_object_object_add(f, "peer",
	                       pt && pt->has_ets_cfg
	                           ? show_lldp_ets_json(&pt->ets_cfg, true)
	                           : NULL);
	json_object_object_add(f, "peer-recommendation",
	                       pt && pt->has_ets_rec
	                           ? show_lldp_ets_json(&pt->ets_rec, false)
	                           : NULL);
	show_add_bool(f, "local-willing", lp->local.ets_cfg.willing);
	if (pt && pt->has_ets_cfg)
		show_add_bool(f, "peer-willing", pt->ets_cfg.willing);
	else
		json_object_object_add(f, "peer-willing", NULL);
	json_object_object_add(f, "oper",
	                       show_lldp_ets_json(&lp->oper.ets, false));
	show_add_bool(f, "adopted", pp->dcbx_ets_adopted);
	show_lldp_result(f, lp->oper.ets_why);
	json_object_object_add(o, "ets", f);
	f = json_object_new_object();
	json_object_object_add(f, "local", show_lldp_app_json(&lp->local.app));
	json_object_object_add(
	    f, "peer", pt && pt->has_app ? show_lldp_app_json(&pt->app) : NULL);
	json_object_object_add(f, "oper", show_lldp_app_json(&lp->oper.app));
	show_add_bool(f, "adopted", pp->dcbx_app_adopted);
	show_lldp_result(f, lp->oper.app_why);
	json_object_object_add(o, "app", f);
}

int show_lldp_answer(const struct show_query *q, const struct show_input *in,
                     struct json_object **data, struct strbuf *text)
{
	switch (q->kind) {
	case CTL_SHOW_LLDP_DCBX:
		*data = show_lldp_dcbx(in);
		show_lldp_text_dcbx(*data, text);
		return 0;
	case CTL_SHOW_LLDP_NEIGHBORS:
		*data = show_lldp_neighbors(in, q->detail);
		show_lldp_text_neighbors(*data, q->detail, text);
		return 0;
	case CTL_SHOW_LLDP_TRAFFIC:
		*data = show_lldp_traffic(in);
		show_lldp_text_traffic(*data, text);
		return 0;
	case CTL_SHOW_LLDP_IF:
		*data = show_lldp_if(in);
		show_lldp_text_lldp_if(*data, text);
		return 0;
	default:
		return -1;
	}
}
