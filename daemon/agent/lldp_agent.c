/* lldp_agent: see lldp_agent.h.
 *
 * Bounded work per frame and no allocation after a port starts: a flood
 * of LLDPDUs (malformed or not) costs one decode each and a counter, so
 * roced keeps answering; the raw-frame layer reads in bounded batches.
 */
#include "agent/lldp_agent.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "os/log.h"

#define LLDP_ETH_HLEN 14
#define LLDP_ETH_MIN  60 /* shortest frame without FCS */
/* System capabilities (802.1AB 8.5.8): bridge, router, station. A port
 * roced bridges advertises a bridge; a port the kernel routes from a
 * router (a leaf or spine of a routed fabric); any other a station
 * (what a host is), able to bridge. */
#define LLDP_CAP_BRIDGE  0x0004
#define LLDP_CAP_ROUTER  0x0010
#define LLDP_CAP_STATION 0x0080
/* Management address subtype: IANA address family 6 (802 MAC). */
#define LLDP_MGMT_ALL802 6
#define LLDP_IF_IFINDEX  2

void lldp_agent_init(struct lldp_agent *a, struct frames *f,
                     lldp_agent_changed_fn changed, void *arg)
{
	memset(a, 0, sizeof(*a));
	a->frames = f;
	a->changed = changed;
	a->arg = arg;
	a->cfg.tx.interval_ms = 30000;
	a->cfg.tx.reinit_ms = 2000;
	a->cfg.holdtime = 120;
	a->cfg.dcbxp = true;
	a->tx_reference = getenv("ROCED_LLDP_TX_REFERENCE") != NULL;
	if (f) {
		frames_listen(f, FRAME_LLDP, lldp_agent_rx, a);
		frames_listen_long(f, FRAME_LLDP, lldp_agent_rx_long);
	}
}

static void lldp_agent_negotiate(struct lldp_agent *a, struct lldp_port *p,
                                 double now);

void lldp_agent_configure(struct lldp_agent *a, const struct lldp_agent_cfg *c,
                          double now)
{
	bool dcbx_changed = a->cfg.dcbxp != c->dcbxp;

	a->cfg = *c;
	/* What the peers hear changed: tell them at once, and DCBX starts
	 * or stops. */
	for (size_t i = 0; dcbx_changed && i < a->n; i++) {
		lldp_tx_fast(&a->v[i].tx, now);
		lldp_agent_negotiate(a, &a->v[i], now);
	}
}

struct lldp_port *lldp_agent_find(const struct lldp_agent *a,
                                  const char *ifname)
{
	for (size_t i = 0; i < a->n; i++)
		if (!strcmp(a->v[i].ifname, ifname))
			return &a->v[i];
	return NULL;
}

const struct lldp_nbr *lldp_port_peer(const struct lldp_port *p,
                                      unsigned *count)
{
	unsigned n = 0;

	for (size_t i = 0; i < LLDP_AGENT_NBR_MAX; i++)
		n += p->nbr[i].used;
	if (count)
		*count = n;
	if (!p->peer1 || p->peer1 > LLDP_AGENT_NBR_MAX ||
	    !p->nbr[p->peer1 - 1].used)
		return NULL;
	return &p->nbr[p->peer1 - 1];
}

/* Once a minute at most: true when a line may be logged now (and
 * remembers it). */
static bool lldp_agent_may_log(double *last, bool *logged, double now)
{
	if (*logged && now - *last < LLDP_AGENT_LOG_MS)
		return false;
	*last = now;
	*logged = true;
	return true;
}

/* 802.1Qaz's election: DCBX is point to point, so the port's DCBX peer
 * is its one LLDP neighbour, and a port with more than one (a shared
 * segment: a hub, a bridge that forwards LLDP, a spoofer beside the
 * peer) has none at all until one neighbour is left: it runs its own
 * values, and PFC in mode auto stays off. Whoever came first, every
 * node of a shared segment is then in the same state: a late joiner
 * never elects another willing host, and a crowd never keeps one of
 * its members. The multiple peers state is logged at most once a
 * minute as it begins. */
static void lldp_agent_pick(struct lldp_port *p, double now)
{
	unsigned count;
	bool was = p->multi;

	lldp_port_peer(p, &count);
	p->peer1 = 0;
	for (size_t i = 0; count == 1 && i < LLDP_AGENT_NBR_MAX; i++)
		if (p->nbr[i].used)
			p->peer1 = (unsigned)i + 1;
	p->multi = count > 1;
	if (!p->multi || was)
		return;
	p->c.multi_peers++;
	if (!lldp_agent_may_log(&p->multi_log_ms, &p->multi_logged, now))
		return;
	log_warnx("%s: DCBX: multiple peers (%u LLDP neighbours): DCBX is "
	          "point to point, so the port negotiates with none of them "
	          "and runs its own values (PFC mode auto: off) until one "
	          "neighbour is left (%" PRIu64 " times so far)",
	          p->ifname, count, p->c.multi_peers);
}

/* --- transmit --- */

static void lldp_id_set(struct lldp_id *id, uint8_t subtype, const void *v,
                        size_t len)
{
	id->subtype = subtype;
	id->len = (uint8_t)(len < sizeof(id->v) ? len : sizeof(id->v));
	memcpy(id->v, v, id->len);
}

/* The whole frame for P with TTL (0: the shutdown LLDPDU, mandatory TLVs
 * only) into BUF; returns its length or -errno. */
static int lldp_agent_frame(const struct lldp_agent *a,
                            const struct lldp_port *p, unsigned ttl,
                            uint8_t *buf, size_t cap)
{
	static const uint8_t dst[6] = LLDP_MAC_NEAREST_BRIDGE;
	struct lldp_pdu *pdu = calloc(1, sizeof(*pdu));
	int n;

	if (!pdu)
		return -ENOMEM;
	memcpy(buf, dst, 6);
	memcpy(buf + 6, p->mac, 6);
	buf[12] = LLDP_ETHERTYPE >> 8;
	buf[13] = LLDP_ETHERTYPE & 0xff;
	lldp_id_set(&pdu->chassis, LLDP_CHASSIS_MAC, p->mac, 6);
	lldp_id_set(&pdu->port, LLDP_PORT_IFNAME, p->ifname, strlen(p->ifname));
	pdu->ttl = (uint16_t)ttl;
	if (ttl) {
		snprintf(pdu->port_desc, sizeof(pdu->port_desc), "%s",
		         p->cfg.desc[0] ? p->cfg.desc : p->ifname);
		snprintf(pdu->sys_name, sizeof(pdu->sys_name), "%s",
		         a->cfg.sys_name);
		snprintf(pdu->sys_desc, sizeof(pdu->sys_desc), "%s",
		         a->cfg.sys_desc);
		pdu->has_caps = true;
		if (p->cfg.bridge) {
			pdu->caps_sys = LLDP_CAP_BRIDGE;
			pdu->caps_enabled = LLDP_CAP_BRIDGE;
		} else if (p->cfg.router) {
			pdu->caps_sys = LLDP_CAP_BRIDGE | LLDP_CAP_ROUTER;
			pdu->caps_enabled = LLDP_CAP_ROUTER;
		} else {
			pdu->caps_sys = LLDP_CAP_BRIDGE | LLDP_CAP_STATION;
			pdu->caps_enabled = LLDP_CAP_STATION;
		}
		pdu->has_mgmt = true;
		pdu->mgmt_subtype = LLDP_MGMT_ALL802;
		pdu->mgmt_len = 6;
		memcpy(pdu->mgmt, p->mac, 6);
		pdu->mgmt_if_subtype = LLDP_IF_IFINDEX;
		pdu->mgmt_ifnum = (uint32_t)p->ifindex;
		if (a->cfg.dcbxp && p->has_local)
			dcbx_advertise(&p->local, p->has_oper ? &p->oper : NULL,
			               &pdu->dcbx);
		pdu->has_max_frame = p->max_frame != 0;
		pdu->max_frame = p->max_frame;
		pdu->pfcdl = p->pfcdl;
	}
	n = lldp_encode(pdu, buf + LLDP_ETH_HLEN, cap - LLDP_ETH_HLEN);
	free(pdu);
	if (n < 0)
		return n;
	n += LLDP_ETH_HLEN;
	if (n < LLDP_ETH_MIN) {
		memset(buf + n, 0, LLDP_ETH_MIN - (size_t)n);
		n = LLDP_ETH_MIN;
	}
	return n;
}

static void lldp_agent_send(struct lldp_agent *a, struct lldp_port *p,
                            unsigned ttl)
{
	uint8_t buf[FRAME_MAX];
	int n = lldp_agent_frame(a, p, ttl, buf, sizeof(buf));

	if (n >= 0)
		n = frames_send(a->frames, p->ifname, buf, (size_t)n);
	if (n < 0) {
		p->c.tx_errors++;
		log_debug(LOG_SUB_DCBX, "%s: cannot send an LLDPDU: %s",
		          p->ifname, strerror(-n));
		return;
	}
	p->c.frames_out++;
}

/* --- DCBX --- */

/* Negotiate P with its DCBX peer; a changed outcome is logged once and
 * handed to the daemon. BY_PEER: the peer's changed values caused this
 * (a peer that changes its mind every second is logged at most once a
 * minute; the daemon still follows every change). */
static void lldp_agent_negotiate_why(struct lldp_agent *a, struct lldp_port *p,
                                     double now, bool by_peer)
{
	const struct lldp_nbr *peer =
	    p->cfg.receive ? lldp_port_peer(p, NULL) : NULL;
	struct dcbx_tlvs before, after;
	struct dcbx_oper oper;
	bool had = p->has_oper;

	if (!p->has_local)
		return;
	/* `no lldp tlv-select dcbxp`: the port runs no DCBX at all. */
	if (!a->cfg.dcbxp) {
		if (p->has_oper) {
			p->has_oper = false;
			p->changed_ms = now;
			a->changes++;
			log_info("%s: DCBX off (no lldp tlv-select dcbxp)",
			         p->ifname);
			if (a->changed)
				a->changed(a->arg, p);
		}
		return;
	}
	dcbx_negotiate(&p->local, p->mac, peer ? &peer->dcbx : NULL,
	               peer ? peer->mac : NULL, &oper);
	if (!peer && p->multi && p->cfg.receive)
		oper.pfc_why = oper.ets_why = oper.app_why =
		    DCBX_WHY_MULTI_PEERS;
	if (p->has_oper && !memcmp(&oper, &p->oper, sizeof(oper)))
		return;
	dcbx_advertise(&p->local, had ? &p->oper : NULL, &before);
	p->oper = oper;
	p->has_oper = true;
	a->changes++;
	p->changed_ms = now;
	/* What the port advertises follows what it adopted: the peer hears
	 * it at once, so that it sees the agreement. */
	dcbx_advertise(&p->local, &p->oper, &after);
	if (had && memcmp(&before, &after, sizeof(after)))
		lldp_tx_fast(&p->tx, now);
	if (!by_peer ||
	    lldp_agent_may_log(&p->flap_log_ms, &p->flap_logged, now)) {
		char more[96] = "";

		if (p->flap_unlogged)
			snprintf(more, sizeof(more),
			         " (%u earlier changes of the peer's values "
			         "not logged)",
			         p->flap_unlogged);
		p->flap_unlogged = 0;
		log_info("%s: DCBX: PFC %s (enabled %s0x%02x), ETS %s, APP "
		         "%s%s",
		         p->ifname, dcbx_why_name(oper.pfc_why),
		         oper.pfc_agreed ? "" : "locally ", oper.pfc.enable,
		         dcbx_why_name(oper.ets_why),
		         dcbx_why_name(oper.app_why), more);
	} else {
		p->flap_unlogged++;
	}
	if (a->changed)
		a->changed(a->arg, p);
}

static void lldp_agent_negotiate(struct lldp_agent *a, struct lldp_port *p,
                                 double now)
{
	lldp_agent_negotiate_why(a, p, now, false);
}

/* `debug dcbx`: what each received DCBX TLV said and what became of it. */
static void lldp_agent_debug_rx(const struct lldp_port *p,
                                const struct lldp_pdu *pdu)
{
	const struct dcbx_tlvs *t = &pdu->dcbx;

	if (!log_debug_on(LOG_SUB_DCBX))
		return;
	if (t->has_pfc)
		log_debug(LOG_SUB_DCBX,
		          "%s: rx PFC Configuration willing %d mbc %d cap %u "
		          "enable 0x%02x (local willing %d enable 0x%02x)",
		          p->ifname, t->pfc.willing, t->pfc.mbc, t->pfc.cap,
		          t->pfc.enable, p->local.pfc.willing,
		          p->local.pfc.enable);
	if (t->has_ets_cfg)
		log_debug(LOG_SUB_DCBX,
		          "%s: rx ETS Configuration willing %d bw %u/%u/%u/%u/"
		          "%u/%u/%u/%u",
		          p->ifname, t->ets_cfg.willing, t->ets_cfg.tc_bw[0],
		          t->ets_cfg.tc_bw[1], t->ets_cfg.tc_bw[2],
		          t->ets_cfg.tc_bw[3], t->ets_cfg.tc_bw[4],
		          t->ets_cfg.tc_bw[5], t->ets_cfg.tc_bw[6],
		          t->ets_cfg.tc_bw[7]);
	if (t->has_ets_rec)
		log_debug(
		    LOG_SUB_DCBX,
		    "%s: rx ETS Recommendation bw %u/%u/%u/%u/%u/%u/%u/%u "
		    "(local willing %d: %s)",
		    p->ifname, t->ets_rec.tc_bw[0], t->ets_rec.tc_bw[1],
		    t->ets_rec.tc_bw[2], t->ets_rec.tc_bw[3],
		    t->ets_rec.tc_bw[4], t->ets_rec.tc_bw[5],
		    t->ets_rec.tc_bw[6], t->ets_rec.tc_bw[7],
		    p->local.ets_cfg.willing,
		    p->local.ets_cfg.willing ? "taken" : "ignored");
	for (size_t i = 0; t->has_app && i < t->app.n; i++)
		log_debug(LOG_SUB_DCBX, "%s: rx APP %s %u -> priority %u",
		          p->ifname, dcbx_app_sel_name(t->app.v[i].selector),
		          t->app.v[i].protocol, t->app.v[i].prio);
	if (t->cee)
		log_debug(LOG_SUB_DCBX,
		          "%s: rx legacy CEE DCBX: shown, not negotiated",
		          p->ifname);
}

/* --- receive --- */

static bool lldp_msap_eq(const struct lldp_pdu *a, const struct lldp_pdu *b)
{
	return a->chassis.subtype == b->chassis.subtype &&
	       a->chassis.len == b->chassis.len &&
	       !memcmp(a->chassis.v, b->chassis.v, a->chassis.len) &&
	       a->port.subtype == b->port.subtype &&
	       a->port.len == b->port.len &&
	       !memcmp(a->port.v, b->port.v, a->port.len);
}

static void lldp_nbr_drop(struct lldp_port *p, struct lldp_nbr *b)
{
	b->used = false;
	p->c.nbr_deleted++;
	if (p->peer1 && &p->nbr[p->peer1 - 1] == b)
		p->peer1 = 0;
}

/* The entry for PDU's MSAP, or a free one (when all are taken, the least
 * recently heard one that is not the DCBX peer: a flood of chassis never
 * pushes the peer out). *FRESH says it is new. */
static struct lldp_nbr *lldp_nbr_slot(struct lldp_port *p,
                                      const struct lldp_pdu *pdu, bool *fresh)
{
	struct lldp_nbr *free_slot = NULL, *oldest = NULL;

	*fresh = false;
	for (size_t i = 0; i < LLDP_AGENT_NBR_MAX; i++) {
		struct lldp_nbr *b = &p->nbr[i];

		if (b->used && lldp_msap_eq(&b->pdu, pdu))
			return b;
		if (!b->used && !free_slot)
			free_slot = b;
		if (b->used && p->peer1 != i + 1 &&
		    (!oldest || b->last_ms < oldest->last_ms))
			oldest = b;
	}
	*fresh = true;
	if (free_slot)
		return free_slot;
	lldp_nbr_drop(p, oldest);
	return oldest;
}

/* Frames of B's MSAP from SRC, another address than B's own: ignored
 * while B lives (one TTL after its own address last spoke), so that a
 * station copying the DCBX peer's chassis and port ID cannot take its
 * place (or turn PFC off) at once; logged once per address. Returns
 * whether the frame is to be ignored. */
static bool lldp_nbr_conflict(struct lldp_port *p, struct lldp_nbr *b,
                              const uint8_t *src, double now)
{
	char chassis[160], port[160];

	if (!memcmp(b->mac, src, 6))
		return false;
	p->c.msap_conflicts++;
	p->c.discarded++;
	if (b->other && !memcmp(b->other_mac, src, 6))
		return true;
	b->other = true;
	memcpy(b->other_mac, src, 6);
	lldp_id_format(&b->pdu.chassis, false, chassis, sizeof(chassis));
	lldp_id_format(&b->pdu.port, true, port, sizeof(port));
	log_warnx("%s: LLDP: neighbour %s port %s%s speaks from "
	          "%02x:%02x:%02x:%02x:%02x:%02x, not its "
	          "%02x:%02x:%02x:%02x:%02x:%02x: ignored until the "
	          "neighbour ages out (%.0f s), a spoof or a replaced NIC",
	          p->ifname, chassis, port,
	          lldp_port_peer(p, NULL) == b ? " (the DCBX peer)" : "",
	          src[0], src[1], src[2], src[3], src[4], src[5], b->mac[0],
	          b->mac[1], b->mac[2], b->mac[3], b->mac[4], b->mac[5],
	          b->expires_ms > now ? (b->expires_ms - now) / 1000.0 : 0.0);
	return true;
}

void lldp_agent_rx_long(void *arg, const char *ifname, size_t len, double now)
{
	struct lldp_port *p = lldp_agent_find(arg, ifname);

	(void)now;
	if (!p || !p->running)
		return;
	p->c.frames_in++;
	p->c.malformed++;
	p->c.discarded++;
	log_debug(LOG_SUB_DCBX,
	          "%s: malformed LLDPDU: a frame of %zu bytes, over the "
	          "%d-byte receive buffer",
	          ifname, len, FRAME_MAX);
}

void lldp_agent_rx(void *arg, const char *ifname, const uint8_t *buf,
                   size_t len, double now)
{
	struct lldp_agent *a = arg;
	struct lldp_port *p = lldp_agent_find(a, ifname);
	/* One decode buffer: frames are handled one at a time. */
	static struct lldp_pdu pdu;
	static struct dcbx_tlvs dcbx;
	struct lldp_nbr *b;
	char err[160];
	bool fresh, changed;

	if (!p || !p->running)
		return;
	p->c.frames_in++;
	if (!p->cfg.receive) {
		p->c.discarded++;
		return;
	}
	if (len < LLDP_ETH_HLEN ||
	    lldp_decode(buf + LLDP_ETH_HLEN, len - LLDP_ETH_HLEN, &pdu, err,
	                sizeof(err)) < 0) {
		p->c.malformed++;
		p->c.discarded++;
		log_debug(LOG_SUB_DCBX, "%s: malformed LLDPDU: %s", ifname,
		          len < LLDP_ETH_HLEN ? "short frame" : err);
		return;
	}
	p->c.unknown_tlvs += pdu.nunknown;
	lldp_agent_debug_rx(p, &pdu);
	if (!pdu.ttl) {
		/* A shutdown LLDPDU: forget the sender at once. */
		for (size_t i = 0; i < LLDP_AGENT_NBR_MAX; i++)
			if (p->nbr[i].used &&
			    lldp_msap_eq(&p->nbr[i].pdu, &pdu) &&
			    !lldp_nbr_conflict(p, &p->nbr[i], buf + 6, now))
				lldp_nbr_drop(p, &p->nbr[i]);
		lldp_agent_pick(p, now);
		lldp_agent_negotiate(a, p, now);
		return;
	}
	b = lldp_nbr_slot(p, &pdu, &fresh);
	if (!fresh && lldp_nbr_conflict(p, b, buf + 6, now))
		return;
	if (fresh) {
		memset(b, 0, sizeof(*b));
		b->used = true;
		b->added_ms = now;
		p->c.nbr_added++;
		/* A new neighbour hears us at once. */
		lldp_tx_fast(&p->tx, now);
	}
	memcpy(b->mac, buf + 6, 6);
	b->pdu = pdu;
	/* A legacy CEE peer without IEEE TLVs: negotiate with what its CEE
	 * TLV says (a willing port takes a CEE switch's configuration). */
	if (pdu.dcbx.cee && !pdu.dcbx.has_pfc && !pdu.dcbx.has_ets_cfg &&
	    !pdu.dcbx.has_ets_rec && !pdu.dcbx.has_app)
		lldp_cee_to_dcbx(&pdu.cee, &dcbx);
	else
		dcbx = pdu.dcbx;
	changed = !fresh && memcmp(&dcbx, &b->dcbx, sizeof(dcbx)) != 0;
	b->dcbx = dcbx;
	b->last_ms = now;
	b->expires_ms = lldp_rx_expiry(now, pdu.ttl);
	if (fresh) {
		unsigned was = p->peer1;

		lldp_agent_pick(p, now);
		/* A second neighbour: the port loses its DCBX peer. */
		if (was && !p->peer1)
			lldp_agent_negotiate(a, p, now);
	}
	if (lldp_port_peer(p, NULL) != b) {
		/* Another neighbour beside the peer: shown, never used. */
		p->c.dcbx_ignored++;
		return;
	}
	if (changed)
		p->c.peer_changes++;
	lldp_agent_negotiate_why(a, p, now, changed);
}

/* --- ports --- */

int lldp_agent_port(struct lldp_agent *a, const char *ifname, int ifindex,
                    const uint8_t mac[6], const struct lldp_agent_port_cfg *pc,
                    double now)
{
	struct lldp_port *p = lldp_agent_find(a, ifname);

	if (!p) {
		struct lldp_port *v = realloc(a->v, (a->n + 1) * sizeof(*v));

		if (!v)
			return -ENOMEM;
		a->v = v;
		p = &a->v[a->n++];
		memset(p, 0, sizeof(*p));
		a->changes++;
		snprintf(p->ifname, sizeof(p->ifname), "%s", ifname);
	}
	p->mark = true;
	/* Another link under the same name, or a new address: the peer
	 * must hear the new identity at once. */
	if (p->ifindex != ifindex || memcmp(p->mac, mac, 6)) {
		p->ifindex = ifindex;
		memcpy(p->mac, mac, 6);
		lldp_tx_fast(&p->tx, now);
	}
	if (p->cfg.transmit && !pc->transmit && p->tx.enabled) {
		lldp_agent_send(a, p, 0);
		lldp_tx_stop(&p->tx, now);
	}
	/* Joined or left a bridge, started or stopped routing: its
	 * neighbour hears it at once. */
	if (p->running &&
	    (p->cfg.bridge != pc->bridge || p->cfg.router != pc->router))
		lldp_tx_fast(&p->tx, now);
	if (p->cfg.receive && !pc->receive) {
		for (size_t i = 0; i < LLDP_AGENT_NBR_MAX; i++)
			if (p->nbr[i].used)
				lldp_nbr_drop(p, &p->nbr[i]);
		lldp_agent_pick(p, now);
	}
	p->cfg = *pc;
	if (!p->running) {
		p->running = true;
		log_debug(LOG_SUB_DCBX,
		          "%s: LLDP running (transmit %s, "
		          "receive %s)",
		          ifname, pc->transmit ? "on" : "off",
		          pc->receive ? "on" : "off");
	}
	if (pc->transmit)
		lldp_tx_start(&p->tx, &a->cfg.tx, now);
	lldp_agent_negotiate(a, p, now);
	return 0;
}

void lldp_agent_carrier(struct lldp_agent *a, const char *ifname, bool up,
                        double now)
{
	struct lldp_port *p = lldp_agent_find(a, ifname);

	if (!p)
		return;
	/* Link up: the peer hears us at once (a fast start). */
	if (up && !p->carrier)
		lldp_tx_fast(&p->tx, now);
	p->carrier = up;
}

void lldp_agent_stop(struct lldp_agent *a, const char *ifname, bool shutdown,
                     double now)
{
	struct lldp_port *p = lldp_agent_find(a, ifname);

	if (!p)
		return;
	if (shutdown && p->running && p->tx.enabled)
		lldp_agent_send(a, p, 0);
	lldp_tx_stop(&p->tx, now);
	*p = a->v[--a->n];
	a->changes++;
}

void lldp_agent_sweep(struct lldp_agent *a, double now)
{
	for (size_t i = a->n; i-- > 0;) {
		if (a->v[i].mark) {
			a->v[i].mark = false;
			continue;
		}
		lldp_agent_stop(a, a->v[i].ifname,
		                frames_find(a->frames, a->v[i].ifname) != NULL,
		                now);
	}
}

void lldp_agent_free(struct lldp_agent *a, double now)
{
	while (a->n)
		lldp_agent_stop(a, a->v[a->n - 1].ifname, true, now);
	free(a->v);
	a->v = NULL;
}

void lldp_agent_set_local(struct lldp_agent *a, const char *ifname,
                          const struct dcbx_tlvs *local, double now)
{
	struct lldp_port *p = lldp_agent_find(a, ifname);

	if (!p)
		return;
	if (!local) {
		p->has_local = false;
		return;
	}
	if (p->has_local && !memcmp(&p->local, local, sizeof(*local)))
		return;
	/* The local DCB configuration changed: a fast start. */
	if (p->has_local || p->c.frames_out)
		lldp_tx_fast(&p->tx, now);
	p->local = *local;
	p->has_local = true;
	lldp_agent_negotiate(a, p, now);
}

void lldp_agent_set_mtu(struct lldp_agent *a, const char *ifname, uint32_t mtu,
                        double now)
{
	struct lldp_port *p = lldp_agent_find(a, ifname);
	uint32_t mfs = mtu ? mtu + 18 : 0;
	uint16_t v = (uint16_t)(mfs > UINT16_MAX ? UINT16_MAX : mfs);

	if (!p || p->max_frame == v)
		return;
	if (p->c.frames_out)
		lldp_tx_fast(&p->tx, now);
	p->max_frame = v;
}

void lldp_agent_set_pfcdl(struct lldp_agent *a, const char *ifname,
                          const struct pfcdl_tlv *t, double now)
{
	struct lldp_port *p = lldp_agent_find(a, ifname);

	if (!p || pfcdl_eq(&p->pfcdl, t))
		return;
	if (p->running && p->cfg.transmit)
		lldp_tx_fast(&p->tx, now);
	p->pfcdl = *t;
}

void lldp_agent_refused(struct lldp_agent *a, const char *ifname)
{
	struct lldp_port *p = lldp_agent_find(a, ifname);

	if (p)
		p->c.dcbx_refused++;
}

/* --- timers --- */

double lldp_agent_next(const struct lldp_agent *a)
{
	double next = -1;

	for (size_t i = 0; i < a->n; i++) {
		const struct lldp_port *p = &a->v[i];
		double t = lldp_tx_next(&p->tx);

		if (t >= 0 && (next < 0 || t < next))
			next = t;
		for (size_t k = 0; k < LLDP_AGENT_NBR_MAX; k++)
			if (p->nbr[k].used &&
			    (next < 0 || p->nbr[k].expires_ms < next))
				next = p->nbr[k].expires_ms;
	}
	return next;
}

void lldp_agent_tick(struct lldp_agent *a, double now)
{
	bool sent = false;

	for (size_t i = 0; i < a->n; i++) {
		struct lldp_port *p = &a->v[i];
		bool aged = false;

		for (size_t k = 0; k < LLDP_AGENT_NBR_MAX; k++) {
			if (!p->nbr[k].used || p->nbr[k].expires_ms > now)
				continue;
			p->c.ageouts++;
			lldp_nbr_drop(p, &p->nbr[k]);
			log_debug(LOG_SUB_DCBX, "%s: neighbour aged out",
			          p->ifname);
			aged = true;
		}
		if (aged) {
			lldp_agent_pick(p, now);
			lldp_agent_negotiate(a, p, now);
		}
		if (p->running && lldp_tx_due(&p->tx, &a->cfg.tx, now)) {
			lldp_agent_send(a, p, a->cfg.holdtime);
			sent = true;
		}
	}
	/* The frames of the other ports that are nearly due go along
	 * (lldp_tx_pull): one wake for the ports' frames, not one each.
	 * ROCED_LLDP_TX_REFERENCE (benchmarks only): each port on its own
	 * timer, as before (bench/lldp-cpu compares the two). */
	for (size_t i = 0; sent && !a->tx_reference && i < a->n; i++) {
		struct lldp_port *p = &a->v[i];

		if (p->running && lldp_tx_pull(&p->tx, &a->cfg.tx, now) &&
		    lldp_tx_due(&p->tx, &a->cfg.tx, now))
			lldp_agent_send(a, p, a->cfg.holdtime);
	}
}
