/* txpoll: software PFC's transmit side. See txpoll.h. */
#include "agent/txpoll_int.h"

#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>

#include "agent/qstats.h"
#include "agent/wdpoll.h"
#include "os/log.h"
#include "model/plan.h"
#include "nlmsg/tc_msg.h"
#include "nlmsg/tc_stats.h"
#include "proto/pfc_frame.h"

void txpoll_init(struct txpoll *t)
{
	memset(t, 0, sizeof(*t));
	pfctx_pace_init(&t->pace, TXPOLL_FAST_MS, TXPOLL_IDLE_MS,
	                TXPOLL_LINGER_MS);
	t->reference = getenv("ROCED_TXPOLL_REFERENCE") != NULL;
	t->idle_ref = getenv("ROCED_TXPOLL_IDLE_REFERENCE") != NULL;
	t->idle_ms = TXPOLL_IDLE_MS;
	t->scan_ms = -1;
	t->busy_ms = -1;
}

/* The reference: roced before the shared sampler (every port read at
 * every fast poll, every feeder disarmed at the first frame). */
static bool txpoll_ref(const struct txpoll *t)
{
	return t->reference || (t->qs && t->qs->reference);
}

/* Disarm every armed wake (whether it is still a waker or not). */
static void txpoll_disarm(struct txpoll *t)
{
	for (size_t j = 0; t->frames && j < t->frames->n; j++)
		if (t->frames->v[j].wake)
			frames_wake(t->frames, t->frames->v[j].ifname, false);
	t->armed = false;
}

/* Arm every waker; on any failure none stays armed and the pace stays
 * fast until the next sync. */
static bool txpoll_arm(struct txpoll *t)
{
	for (size_t i = 0; t->frames && i < t->nwakers; i++) {
		int rc = frames_wake(t->frames, t->wakers[i], true);

		if (rc < 0) {
			log_debug(
			    LOG_SUB_WATCHDOG,
			    "%s: cannot arm the transmit poll's wake: %s; "
			    "polling every %.0f ms",
			    t->wakers[i], strerror(-rc), TXPOLL_FAST_MS);
			txpoll_disarm(t);
			t->nowake = true;
			return false;
		}
	}
	t->armed = t->frames && t->nwakers > 0;
	if (t->armed)
		log_debug(LOG_SUB_WATCHDOG,
		          "software PFC transmit: queues idle, reading the "
		          "backlogs every %.0f-%.0f ms until traffic comes in",
		          TXPOLL_IDLE_MS,
		          t->idle_ref ? TXPOLL_IDLE_MS : TXPOLL_IDLE_MAX_MS);
	return t->armed;
}

void txpoll_free(struct txpoll *t)
{
	txpoll_disarm(t);
	free(t->v);
	t->v = NULL;
	t->n = 0;
	free(t->wakers);
	t->wakers = NULL;
	t->nwakers = 0;
	free(t->idx);
	t->idx = NULL;
	free(t->l3);
	t->l3 = NULL;
	t->nl3 = 0;
}

const struct txpoll_port *txpoll_find(const struct txpoll *t,
                                      const char *ifname)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->v[i].ifname, ifname))
			return &t->v[i];
	return NULL;
}

bool txpoll_feeds(const struct txpoll *t, const char *ifname, unsigned slot)
{
	for (size_t i = 0; i < t->n; i++) {
		uint64_t bit = txpoll_feeder_bit(&t->v[i], ifname);

		for (size_t k = 0; bit && k < t->v[i].nfeeders; k++)
			if ((bit & (1ull << k)) &&
			    (t->v[i].feeder_slots[k] & (1u << slot)))
				return true;
	}
	return false;
}

/* The no-drop queues of E's applied plan that software PFC holds
 * (plan_port.hold_queues), and the priorities of each; the limit of
 * the queue's tbf leaf into LIMIT. */
static uint8_t txpoll_queues(const struct ports_port *e,
                             uint8_t prios[POLICY_NQUEUES],
                             uint32_t limit[POLICY_NQUEUES])
{
	const struct plan_port *pp = &e->plan;
	uint8_t queues = 0;

	memset(prios, 0, POLICY_NQUEUES);
	if (!e->applied || !pp->dcb.software)
		return 0;
	for (unsigned p = 0; p < POLICY_NPRIO; p++) {
		const struct plan_qdisc *leaf;
		unsigned q = pp->dcb.prio_tc[p];

		if (!(pp->dcb.pfc_en & (1u << p)) || q >= POLICY_NQUEUES)
			continue;
		if (!(pp->hold_queues & (1u << q)) ||
		    (e->watchdog.wd_shut & (1u << q)))
			continue;
		leaf = plan_port_qdisc(pp, PLAN_H_MAKE(PLAN_LEAF_MAJOR(q), 0));
		if (!leaf || leaf->kind != PLAN_QD_TBF)
			continue; /* a plan not compiled: nothing to hold */
		queues |= (uint8_t)(1u << q);
		prios[q] |= (uint8_t)(1u << p);
		limit[q] = leaf->u.tbf.limit;
	}
	return queues;
}

/* X's thresholds: the applied plan's (a pause buffer of the policy, as
 * compile resolved it), else the defaults for the queue's leaf. */
static void txpoll_thresholds(struct txpoll_port *x, const struct ports_port *e,
                              const uint32_t limit[POLICY_NQUEUES])
{
	uint32_t mtu = e->plan.dcb.mtu ? e->plan.dcb.mtu : 1500;

	for (unsigned q = 0; q < POLICY_NQUEUES; q++)
		for (unsigned pr = 0; pr < POLICY_NPRIO; pr++) {
			const struct plan_pause_thr *b = &e->plan.pause_thr[pr];

			if (!(x->prios[q] & (1u << pr)))
				continue;
			x->configured_thresholds[pr] = b->set;
			if (b->set) {
				x->t[pr].xoff = b->xoff;
				x->t[pr].xon = b->xon;
				x->t[pr].xon_switch = b->xon;
			} else {
				pfctx_defaults(limit[q], mtu,
				               (uint32_t)e->caps.speed_mbps,
				               TXPOLL_REACTION_MS, &x->t[pr]);
			}
		}
}

/* The smallest limit in bytes of PP's leaves (0: none in bytes). */
static uint32_t txpoll_leaf_limit(const struct plan_port *pp)
{
	uint32_t min = 0;

	for (size_t i = 0; i < pp->nqdiscs; i++) {
		const struct plan_qdisc *qd = &pp->qdiscs[i];
		uint32_t lim;

		if (qd->queue < 0)
			continue;
		if (qd->kind == PLAN_QD_TBF)
			lim = qd->u.tbf.limit;
		else if (qd->kind == PLAN_QD_BFIFO)
			lim = qd->u.fifo.limit;
		else
			continue; /* packets (pfifo), RED's own limit */
		/* a queue the watchdog shut takes nothing: no buffer */
		if (lim && (!min || lim < min))
			min = lim;
	}
	return min;
}

/* The link pause slot's thresholds: the smallest pause buffer that
 * applies to E, else the defaults for its smallest leaf. */
static void txpoll_lp_thresholds(struct txpoll_port *x,
                                 const struct ports_port *e)
{
	struct pfctx_thresholds *t = &x->t[TXPOLL_LP];
	uint32_t mtu = e->plan.dcb.mtu ? e->plan.dcb.mtu : 1500;
	uint32_t buffer = txpoll_leaf_limit(&e->plan);
	bool *conf = &x->configured_thresholds[TXPOLL_LP];

	for (unsigned pr = 0; pr < POLICY_NPRIO; pr++) {
		const struct plan_pause_thr *b = &e->plan.pause_thr[pr];

		if (!b->set || (*conf && b->xoff >= t->xoff))
			continue;
		*conf = true;
		t->xoff = b->xoff;
		t->xon = b->xon;
	}
	if (!*conf)
		pfctx_defaults(buffer ? buffer : 1000 * (mtu + 18), mtu,
		               (uint32_t)e->caps.speed_mbps, TXPOLL_REACTION_MS,
		               t);
	/* Link pause's XON is never staggered: one threshold. */
	t->xon_switch = t->xon;
}

/* Does E send link pause out of itself when its bridge's other ports
 * congest (`flowcontrol send on` on a software port)? */
static bool txpoll_lp_sender(const struct ports_port *e)
{
	return e && e->applied && e->plan.dcb.software && e->plan.dcb.pause_tx;
}

/* IFNAME's bridge (MASTER_FN, for tests, else sysfs). */
static int txpoll_master(const struct txpoll *t, const char *ifname)
{
	return t->master_fn ? t->master_fn(ifname) : frames_port_master(ifname);
}

/* IFNAME's ifindex: its frame port's, else the kernel's. */
static int txpoll_ifindex(const struct txpoll *t, const char *ifname)
{
	struct frame_port *fp =
	    t->frames ? frames_find(t->frames, ifname) : NULL;

	return fp && fp->ifindex ? fp->ifindex : (int)if_nametoindex(ifname);
}

/* Does a route of the main table leave through IFINDEX (a port, or a
 * bridge)? */
static bool txpoll_routed(const struct txpoll *t, int ifindex)
{
	return t->routes && ifindex > 0 && route_via(t->routes, ifindex);
}

/* Does OLD (NULL: none) pause a slot out of feeder NAME now? */
static bool txpoll_paused_out(const struct txpoll_port *old, const char *name)
{
	uint64_t bit = old ? txpoll_feeder_bit(old, name) : 0;

	for (unsigned p = 0; bit && p < TXPOLL_SLOTS; p++)
		if (old->paused_by[p] & bit)
			return true;
	return false;
}

/* X's feeders as OLD had them (NULL: a port new to the poll)? A routed
 * port's change is counted, and said at most every
 * TXPOLL_ROUTE_LOG_MS: routes that flap must not flood the log. */
static void txpoll_feeders_moved(struct txpoll_port *x,
                                 const struct txpoll_port *old, double now)
{
	bool same;

	x->route_log_ms = -1;
	if (!old)
		return;
	x->route_moves = old->route_moves;
	x->route_log_ms = old->route_log_ms;
	same = old->nfeeders == x->nfeeders;
	/* The feeders come in the frame ports' order: the same list, in
	 * the same order, most of the time (one pass, where looking each
	 * up was quadratic in the ports). */
	for (size_t k = 0; same && k < x->nfeeders; k++)
		if (strcmp(old->feeders[k], x->feeders[k]))
			same = txpoll_feeder_bit(old, x->feeders[k]) != 0;
	if (same || (!old->nrouted && !x->nrouted))
		return;
	x->route_moves++;
	if (x->route_log_ms >= 0 && now >= x->route_log_ms &&
	    now - x->route_log_ms < TXPOLL_ROUTE_LOG_MS)
		return;
	x->route_log_ms = now;
	log_info("%s: the ports that feed it changed with the routes: %zu "
	         "now (%zu routed, was %zu); %llu such changes so far",
	         x->ifname, x->nfeeders, x->nrouted, old->nrouted,
	         (unsigned long long)x->route_moves);
}

bool txpoll_routes_moved(const struct txpoll *t)
{
	if (!t->l3 || !t->frames || t->nl3 != t->frames->n)
		return true;
	for (size_t j = 0; j < t->nl3; j++)
		if (txpoll_routed(t, t->l3[j].dev) != t->l3[j].routed)
			return true;
	for (size_t i = 0; i < t->n; i++)
		if (txpoll_routed(t, t->v[i].master
		                         ? t->v[i].master
		                         : t->v[i].ifindex) != t->v[i].routed)
			return true;
	return false;
}

/* Is there a port of bridge MASTER other than IFNAME that sends link
 * pause and has a frame socket? */
static bool txpoll_lp_fed(const struct txpoll *t, const struct ports *r,
                          int master, const char *ifname)
{
	for (size_t j = 0; master && t->frames && j < t->frames->n; j++) {
		const struct frame_port *fp = &t->frames->v[j];

		if (fp->fd >= 0 && strcmp(fp->ifname, ifname) &&
		    txpoll_lp_sender(ports_find(r, fp->ifname)) &&
		    txpoll_master(t, fp->ifname) == master)
			return true;
	}
	return false;
}

void txpoll_sync(struct txpoll *t, const struct ports *r, double now)
{
	struct txpoll_port *nv;
	char(*nw)[POLICY_IFNAME_MAX];
	size_t n = 0, nwakers = 0;
	bool any = false;

	nv = calloc(r->n ? r->n : 1, sizeof(*nv));
	nw = calloc(t->frames && t->frames->n ? t->frames->n : 1, sizeof(*nw));
	if (!nv || !nw) {
		free(nv);
		free(nw);
		log_warnx("software PFC transmit: out of memory");
		return;
	}
	for (size_t i = 0; i < r->n; i++) {
		const struct ports_port *e = &r->v[i];
		const struct txpoll_port *old = txpoll_find(t, e->ifname);
		struct txpoll_port *x = &nv[n];
		uint32_t limit[POLICY_NQUEUES] = {0};

		memset(x, 0, sizeof(*x));
		x->queues = txpoll_queues(e, x->prios, limit);
		x->master = txpoll_master(t, e->ifname);
		x->lp = e->applied && e->plan.dcb.software &&
		        txpoll_lp_fed(t, r, x->master, e->ifname);
		if (!x->queues && !x->lp)
			continue;
		x->rqueues = x->lp ? (uint8_t)0xff : x->queues;
		snprintf(x->ifname, sizeof(x->ifname), "%s", e->ifname);
		x->ifindex = txpoll_ifindex(t, e->ifname);
		/* A port keeps what it told its feeders: forgetting a
		 * pause here would leave them paused until it runs out. */
		x->active_ms = -1;
		x->steady_ms = TXPOLL_FAST_MS;
		if (old) {
			memcpy(x->s, old->s, sizeof(x->s));
			memcpy(x->xon_next, old->xon_next, sizeof(x->xon_next));
			x->active_ms = old->active_ms;
		}
		txpoll_thresholds(x, e, limit);
		if (x->lp)
			txpoll_lp_thresholds(x, e);
		n++;
	}
	/* A port feeds another when roced has its frame socket and both
	 * are in one bridge, or the kernel routes to the other (routes
	 * leave through its layer-3 device) from this one (whose own
	 * layer-3 device carries routes: a routed port, or a port of an
	 * SVI's bridge). */
	for (size_t i = 0; i < n; i++) {
		nv[i].nrouted = 0;
		nv[i].routed = txpoll_routed(t, nv[i].master ? nv[i].master
		                                             : nv[i].ifindex);
	}
	free(t->l3);
	t->nl3 = 0;
	t->l3 = calloc(t->frames && t->frames->n ? t->frames->n : 1,
	               sizeof(*t->l3));
	for (size_t j = 0; t->frames && j < t->frames->n; j++) {
		const char *fn = t->frames->v[j].ifname;
		const struct ports_port *fe = ports_find(r, fn);
		int m = txpoll_master(t, fn);
		bool feeds = false,
		     routed_in =
		         txpoll_routed(t, m ? m : t->frames->v[j].ifindex);

		if (t->l3) {
			t->l3[t->nl3].dev = m ? m : t->frames->v[j].ifindex;
			t->l3[t->nl3++].routed = routed_in;
		}
		/* A hardware feeder pauses its peer itself; a receive-only
		 * priority (semi-lossless) is never paused upstream. */
		uint8_t pfc = fe && fe->applied && fe->plan.dcb.software
		                  ? fe->plan.dcb.pfc_en &
		                        (uint8_t)~fe->plan.dcb.pfc_rx_only
		                  : 0;
		bool lps = t->frames->v[j].fd >= 0 && txpoll_lp_sender(fe);

		for (size_t i = 0; i < n; i++) {
			struct txpoll_port *x = &nv[i];
			bool bridged = m && x->master == m;
			bool routed = !bridged && routed_in && x->routed;

			if (!strcmp(fn, x->ifname) ||
			    x->nfeeders == TXPOLL_FEEDERS_MAX)
				continue;
			/* A feeder a change of routes dropped while paused
			 * stays one until its XON. */
			if (!bridged && !routed &&
			    !txpoll_paused_out(txpoll_find(t, x->ifname), fn))
				continue;
			/* Link pause goes out of the bridge's senders. */
			x->feeder_slots[x->nfeeders] =
			    (uint16_t)(pfc |
			               (x->lp && bridged && lps ? TXPOLL_LP_BIT
			                                        : 0));
			x->feeder_idx[x->nfeeders] = t->frames->v[j].ifindex;
			x->feeder_master[x->nfeeders] = m;
			snprintf(x->feeders[x->nfeeders++],
			         sizeof(x->feeders[0]), "%s", fn);
			x->nrouted += routed;
			feeds = true;
		}
		if (feeds)
			snprintf(nw[nwakers++], sizeof(nw[0]), "%s", fn);
	}
	for (size_t i = 0; i < n; i++)
		txpoll_feeders_moved(&nv[i], txpoll_find(t, nv[i].ifname), now);
	/* Who each port had paused, by name: the feeders may have moved. */
	for (size_t i = 0; i < n; i++) {
		const struct txpoll_port *old = txpoll_find(t, nv[i].ifname);

		for (unsigned pr = 0; old && pr < TXPOLL_SLOTS; pr++)
			for (size_t k = 0; k < old->nfeeders; k++) {
				if (old->paused_by[pr] & (1ull << k))
					nv[i].paused_by[pr] |=
					    txpoll_feeder_bit(&nv[i],
					                      old->feeders[k]);
				if (old->last_by[pr] & (1ull << k))
					nv[i].last_by[pr] |= txpoll_feeder_bit(
					    &nv[i], old->feeders[k]);
			}
	}
	t->queues = 0;
	for (size_t i = 0; i < n; i++) {
		any |= nv[i].nfeeders > 0;
		t->queues |= nv[i].queues;
	}
	free(t->idx);
	t->idx = calloc(n ? n : 1, sizeof(*t->idx));
	free(t->v);
	t->v = nv;
	t->n = n;
	t->rescan = true;
	free(t->wakers);
	t->wakers = nw;
	t->nwakers = nwakers;
	/* The feeders may have changed: the next poll, a fast one, reads
	 * and arms them again. */
	txpoll_disarm(t);
	t->nowake = false;
	t->idle_ms = TXPOLL_IDLE_MS;
	if (!any)
		t->next_ms = 0;
	else if (!t->next_ms || t->next_ms > now + TXPOLL_FAST_MS)
		t->next_ms = now + TXPOLL_FAST_MS;
}

void txpoll_data_rx(void *arg, const char *ifname, const uint8_t *buf,
                    size_t len, double now)
{
	struct txpoll *t = arg;

	(void)buf;
	(void)len;
	/* Frames that came in before the disarm took effect are still read:
	 * they change nothing. */
	if (!txpoll_ref(t)) {
		struct frame_port *fp =
		    t->frames ? frames_find(t->frames, ifname) : NULL;

		if (!fp || !fp->wake)
			return;
		/* Only this feeder: the others' wakes stay armed, each
		 * for its own first frame (a flip of a socket filter
		 * costs a system call per feeder). */
		frames_wake(t->frames, ifname, false);
		t->armed = false;
		t->wakes++;
		t->rescan = true;
		t->wake_scans = TXPOLL_WAKE_SCANS;
		t->busy_ms = now; /* the linger starts */
		log_debug(LOG_SUB_WATCHDOG,
		          "%s: traffic came in: software PFC transmit reads "
		          "every port",
		          ifname);
		txpoll_hurry(t, now);
		return;
	}
	if (!t->armed)
		return;
	t->rescan = true;
	log_debug(LOG_SUB_WATCHDOG,
	          "%s: traffic came in: software PFC transmit reads the "
	          "backlogs every %.0f ms",
	          ifname, TXPOLL_FAST_MS);
	txpoll_disarm(t);
	t->wakes++;
	txpoll_hurry(t, now);
}

void txpoll_hurry(struct txpoll *t, double now)
{
	if (t->next_ms)
		t->next_ms = pfctx_pace_hurry(&t->pace, t->next_ms, now);
}

int txpoll_wait(const struct txpoll *t, double now)
{
	if (!t->next_ms)
		return -1;
	return t->next_ms <= now ? 0 : (int)(t->next_ms - now) + 1;
}

/* Is X worth a read between scans: busy, or its queues sent something,
 * lately? */
static bool txpoll_active(const struct txpoll_port *x, double now)
{
	return x->active_ms >= 0 && now >= x->active_ms &&
	       now - x->active_ms < TXPOLL_LINGER_MS;
}

/* Is X read between scans at NOW: busy (every poll), or active and its
 * steady interval over? */
static bool txpoll_due(const struct txpoll_port *x, double now)
{
	if (!x->nfeeders)
		return false;
	if (x->busy)
		return true;
	return txpoll_active(x, now) &&
	       (now < x->read_ms || now - x->read_ms >= x->steady_ms - 0.5);
}

/* Take what the sampler says of X's queues. */
static void txpoll_take(struct txpoll *t, struct txpoll_port *x, double now)
{
	struct txpoll_count *c = NULL;
	double steady = TXPOLL_STEADY_MS;
	double prev = x->read_ms;
	bool moved = false;

	x->fresh = true;
	x->read_ms = now;
	for (unsigned q = 0; q < POLICY_NQUEUES; q++) {
		enum qstats_src src = QSTATS_NONE;
		const struct tc_stats_counters *st;
		uint32_t xoff = 0, sxoff;
		uint32_t was = x->backlog[q];

		if (!(x->rqueues & (1u << q)))
			continue;
		st = qstats_get(t->qs, x->ifindex, q, now, &src);
		x->backlog[q] = st ? st->backlog : 0;
		if (!st)
			continue;
		/* The leaf's counters and the class's are two sets: each is
		 * compared with its own last values. */
		c = &x->cnt[src == QSTATS_LEAF ? 0 : 1];
		for (unsigned p = 0; p < POLICY_NPRIO; p++)
			if ((x->prios[q] & (1u << p)) && x->t[p].xoff &&
			    (!xoff || x->t[p].xoff < xoff))
				xoff = x->t[p].xoff;
		/* Link pause's xoff is the total's: no queue reaches it
		 * sooner than the total. */
		sxoff = xoff;
		if (x->lp && x->t[TXPOLL_LP].xoff &&
		    (!sxoff || x->t[TXPOLL_LP].xoff < sxoff))
			sxoff = x->t[TXPOLL_LP].xoff;
		/* The time above xoff, from a reading that found the queue
		 * there to this one; kept where the port's slot is not. */
		if (xoff && x->ifindex > 0)
			qcarry_xoff(
			    &t->qs->carry, x->ifindex, q, xoff, st->backlog,
			    prev > 0 && now > prev && was >= xoff ? now - prev
			                                          : 0);
		if (c->set && now > c->at_ms) {
			double rate = (double)(st->bytes - c->bytes[q]) /
			              (now - c->at_ms); /* bytes a ms */

			moved = moved || st->packets != c->pkts[q];
			/* Read again before the queue could reach xoff at
			 * TXPOLL_STEADY_SAFETY times the rate it sends. */
			if (rate > 0 && sxoff &&
			    sxoff / (TXPOLL_STEADY_SAFETY * rate) < steady)
				steady = sxoff / (TXPOLL_STEADY_SAFETY * rate);
		}
		c->pkts[q] = st->packets;
		c->bytes[q] = st->bytes;
		moved = moved || st->backlog;
	}
	if (c) {
		x->cnt[0].at_ms = c == &x->cnt[0] ? now : x->cnt[0].at_ms;
		x->cnt[1].at_ms = c == &x->cnt[1] ? now : x->cnt[1].at_ms;
		c->set = true;
	}
	x->steady_ms = steady < TXPOLL_FAST_MS ? TXPOLL_FAST_MS : steady;
	if (moved)
		x->active_ms = now;
}

int txpoll_read(struct txpoll *t, double now)
{
	bool full;
	size_t k = 0;
	int rc;

	for (size_t i = 0; i < t->n; i++)
		t->v[i].fresh = false;
	if (!t->qs)
		return -ENOTCONN;
	/* A port held by its peer only fills: read it. */
	for (size_t i = 0; t->softpfc && i < t->softpfc->n; i++)
		if (t->softpfc->v[i].held) {
			struct txpoll_port *x =
			    (struct txpoll_port *)txpoll_find(
			        t, t->softpfc->v[i].ifname);

			if (x) {
				x->active_ms = now;
				x->busy = true;
			}
		}
	full = txpoll_ref(t) || t->nowake || t->rescan || t->wake_scans ||
	       t->scan_ms < 0 || now < t->scan_ms ||
	       now - t->scan_ms >= TXPOLL_SCAN_MS - 0.5;
	if (!full && !t->idx)
		full = true;
	if (!full) {
		for (size_t i = 0; i < t->n; i++)
			if (txpoll_due(&t->v[i], now))
				t->idx[k++] = t->v[i].ifindex;
		if (k > QSTATS_CLASS_PORTS)
			full = true;
	}
	if (full) {
		t->scans++;
		t->rescan = false;
		if (t->wake_scans)
			t->wake_scans--;
		t->scan_ms = now;
		rc = qstats_leaves(t->qs, now);
		for (size_t i = 0; rc == 0 && i < t->n; i++)
			txpoll_take(t, &t->v[i], now);
	} else {
		rc = k ? qstats_backlogs(t->qs, t->idx, k, now) : 0;
		for (size_t i = 0; rc == 0 && i < t->n; i++)
			if (txpoll_due(&t->v[i], now))
				txpoll_take(t, &t->v[i], now);
	}
	if (rc < 0)
		for (size_t i = 0; i < t->n; i++) {
			t->v[i].fresh = false;
			memset(t->v[i].backlog, 0, sizeof(t->v[i].backlog));
		}
	return rc;
}

/* Does X need the fast pace: something queued in a watched queue (with
 * link pause, any), or a slot we pause? */
static bool txpoll_busy(const struct txpoll_port *x)
{
	for (unsigned q = 0; q <= TXPOLL_LP_Q; q++) {
		if (!txpoll_qslots(x, q))
			continue;
		if (txpoll_qbacklog(x, q))
			return true;
		if (txpoll_paused_q(x, q))
			return true;
	}
	return false;
}

/* Is a port held by its peer? Its held queue fills with nothing leaving.
 * Only priorities software PFC honours are held: watched queues. */
static bool txpoll_held(const struct txpoll *t)
{
	for (size_t i = 0; t->softpfc && i < t->softpfc->n; i++)
		if (t->softpfc->v[i].held)
			return true;
	return false;
}

static void txpoll_port_step(struct txpoll *t, struct txpoll_port *x,
                             double now)
{
	for (unsigned q = 0; q <= TXPOLL_LP_Q; q++)
		for (unsigned p = 0; p < TXPOLL_SLOTS; p++) {
			uint64_t backlog = txpoll_qbacklog(x, q);
			struct pfctx_thresholds th;
			enum pfctx_action a;
			bool staggered = false;
			double refresh;
			uint64_t mask;

			if (!(txpoll_qslots(x, q) & (1u << p)))
				continue;
			/* At 10 Gb/s, the shortest a peer may count the
			 * pause time (a speed of its own we do not know).
			 * A paused priority keeps the pace fast, so the
			 * refresh is never an idle interval late. */
			refresh = pfctx_refresh_ms(0, TXPOLL_FAST_MS);
			/* Only switches paused: their XON waits for
			 * xon_switch (room for one whole held queue).
			 * Not in a cycle: there the switch behind is the
			 * next node round it, released at xon as hosts
			 * are, staggered ones too (txpoll_port.in_cycle). */
			th = x->t[p];
			if (x->in_cycle & (1u << p))
				th.xon_switch = th.xon;
			else if (!txpoll_xon_hosts(t, x, p))
				th.xon = th.xon_switch;
			a = pfctx_step(&x->s[p], &th, backlog, refresh, now);
			/* Feeders an XON left paused: released one at a
			 * time, their pause refreshed meanwhile. */
			if (a == PFCTX_NONE && !x->s[p].paused &&
			    x->paused_by[p]) {
				/* In a cycle the next node goes at xon
				 * in its turn, burst or not. */
				a = pfctx_stagger(&x->s[p], &th, backlog,
				                  TXPOLL_STAGGER_MS,
				                  x->in_cycle & (1u << p)
				                      ? TXPOLL_STAGGER_MS
				                      : TXPOLL_STAGGER_QUIET_MS,
				                  refresh, now);
				staggered = true;
			}
			if (a == PFCTX_NONE)
				continue;
			if (a == PFCTX_PAUSE) {
				if (!staggered)
					x->paused_by[p] |=
					    txpoll_contributors(t, x, q, now);
				mask = x->paused_by[p];
			} else {
				if (!staggered && x->paused_by[p])
					x->last_by[p] = x->paused_by[p];
				mask = txpoll_xon_one(
				    t, x, p, backlog <= th.xon_switch, now);
				x->paused_by[p] &= ~mask;
			}
			if (p == TXPOLL_LP)
				log_debug(
				    LOG_SUB_WATCHDOG,
				    "%s: backlog %llu bytes: link %s to "
				    "the bridge's ports with flowcontrol "
				    "send on that feed it (%d of %zu)",
				    x->ifname, (unsigned long long)backlog,
				    a == PFCTX_PAUSE ? "pause" : "XON",
				    __builtin_popcountll(mask), x->nfeeders);
			else
				log_debug(
				    LOG_SUB_WATCHDOG,
				    "%s: priority %u backlog %llu bytes: "
				    "%s to the ports that feed it (%d of "
				    "%zu%s)",
				    x->ifname, p, (unsigned long long)backlog,
				    a == PFCTX_PAUSE ? "pause" : "XON",
				    __builtin_popcountll(mask), x->nfeeders,
				    x->paused_by[p] && a == PFCTX_XON
				        ? ", the others later"
				        : "");
			txpoll_send(t, x, p,
			            a == PFCTX_PAUSE ? PFCTX_QUANTA : 0, mask);
		}
}

/* The interval to the next poll after one at NOW (the pace without the
 * reference): fast while a port is busy; while ports only carry traffic,
 * when the first of them or the next scan is due; after the last busy
 * or active poll, scans for TXPOLL_LINGER_MS; then asleep, the feeders'
 * wakes armed, a scan after T->idle_ms, twice as late each time. */
static double txpoll_pace(struct txpoll *t, bool busy, double now)
{
	double due = t->scan_ms + TXPOLL_SCAN_MS;
	bool active = false;

	for (size_t i = 0; !busy && i < t->n; i++) {
		const struct txpoll_port *x = &t->v[i];

		if (!x->nfeeders || !txpoll_active(x, now))
			continue;
		active = true;
		if (x->read_ms + x->steady_ms < due)
			due = x->read_ms + x->steady_ms;
	}
	double iv = t->idle_ms;

	t->idle_ms = TXPOLL_IDLE_MS;
	if (busy || t->wake_scans)
		return TXPOLL_FAST_MS;
	if (active || (t->busy_ms >= 0 && now - t->busy_ms < TXPOLL_LINGER_MS))
		return due - now > TXPOLL_FAST_MS ? due - now : TXPOLL_FAST_MS;
	if (t->nowake || (!t->armed && !txpoll_arm(t)))
		return TXPOLL_FAST_MS; /* no wake: nothing may sleep */
	if (!t->idle_ref)
		t->idle_ms =
		    2 * iv < TXPOLL_IDLE_MAX_MS ? 2 * iv : TXPOLL_IDLE_MAX_MS;
	return iv;
}

void txpoll_tick(struct txpoll *t, double now)
{
	bool busy = false, active = false, asleep;
	double iv;
	int rc;

	if (!t->next_ms || now < t->next_ms)
		return;
	/* An idle scan: nothing came in from the feeders since the last
	 * poll, so their counts are those of the windows' start. */
	asleep = t->armed && !txpoll_ref(t) && !t->idle_ref;
	t->polls++;
	rc = txpoll_read(t, now);
	if (rc < 0)
		log_debug(LOG_SUB_WATCHDOG,
		          "cannot read the qdisc counters: %s", strerror(-rc));
	for (size_t i = 0; rc == 0 && i < t->n; i++) {
		struct txpoll_port *x = &t->v[i];

		if (!x->nfeeders || !x->fresh)
			continue;
		txpoll_port_step(t, x, now);
		x->busy = txpoll_busy(x);
		for (unsigned q = 0; !asleep && q <= TXPOLL_LP_Q; q++)
			if (txpoll_qslots(x, q) && !txpoll_qbacklog(x, q) &&
			    !txpoll_paused_q(x, q))
				txpoll_window(t, x, q, now);
		if (x->busy)
			x->active_ms = now;
		busy = busy || x->busy;
	}
	busy = busy || txpoll_held(t);
	if (!txpoll_ref(t)) {
		for (size_t i = 0; i < t->n; i++)
			active = active || (t->v[i].nfeeders &&
			                    txpoll_active(&t->v[i], now));
		if (busy || active)
			t->busy_ms = now;
		iv = txpoll_pace(t, busy, now);
		if (iv <= TXPOLL_FAST_MS)
			t->fast_polls++;
		t->next_ms = now + iv;
		return;
	}
	iv = t->reference ? TXPOLL_FAST_MS
	                  : pfctx_pace_next(&t->pace, busy, now);
	if (iv > TXPOLL_FAST_MS && !t->armed && (t->nowake || !txpoll_arm(t)))
		iv = TXPOLL_FAST_MS; /* no wake: nothing may sleep */
	else if (iv <= TXPOLL_FAST_MS && t->armed)
		txpoll_disarm(t);
	if (iv <= TXPOLL_FAST_MS)
		t->fast_polls++;
	t->next_ms += iv;
	if (t->next_ms <= now)
		t->next_ms = now + iv; /* polls missed: skipped */
}
