/* lpsend: link pause's transmit side on software ports. See lpsend.h. */
#include "agent/lpsend.h"

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
#include "os/log.h"
#include "model/plan.h"
#include "nlmsg/tc_msg.h"
#include "nlmsg/tc_stats.h"
#include "proto/pfc_frame.h"

void lpsend_init(struct lpsend *l)
{
	memset(l, 0, sizeof(*l));
}

void lpsend_free(struct lpsend *l)
{
	free(l->v);
	l->v = NULL;
	l->n = 0;
	l->next_ms = 0;
	free(l->idx);
	l->idx = NULL;
}

const struct lpsend_port *lpsend_find(const struct lpsend *l,
                                      const char *ifname)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].ifname, ifname))
			return &l->v[i];
	return NULL;
}

bool lpsend_feeds(const struct lpsend *l, const char *ifname)
{
	for (size_t i = 0; i < l->n; i++)
		for (size_t k = 0; k < l->v[i].nfeeders; k++)
			if (!strcmp(l->v[i].feeders[k], ifname))
				return true;
	return false;
}

/* The smallest limit in bytes of E's leaves (0: none in bytes). */
static uint32_t lpsend_leaf_limit(const struct plan_port *pp)
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

/* X's thresholds: the smallest pause buffer that applies to its port,
 * else the defaults for its smallest leaf. */
static void lpsend_thresholds(struct lpsend_port *x, const struct ports_port *e)
{
	uint32_t mtu = e->plan.dcb.mtu ? e->plan.dcb.mtu : 1500;
	uint32_t buffer = lpsend_leaf_limit(&e->plan);

	x->configured = false;
	for (unsigned pr = 0; pr < POLICY_NPRIO; pr++) {
		const struct plan_pause_thr *b = &e->plan.pause_thr[pr];

		if (!b->set || (x->configured && b->xoff >= x->t.xoff))
			continue;
		x->configured = true;
		x->t.xoff = b->xoff;
		x->t.xon = b->xon;
		x->t.xon_switch = b->xon;
	}
	if (x->configured)
		return;
	pfctx_defaults(buffer ? buffer : 1000 * (mtu + 18), mtu,
	               (uint32_t)e->caps.speed_mbps, LPSEND_REACTION_MS, &x->t);
}

/* Does E send link pause when its bridge's other ports congest? */
static bool lpsend_sender(const struct ports_port *e)
{
	return e->applied && e->plan.dcb.software && e->plan.dcb.pause_tx;
}

/* The bit of feeder NAME in X's masks; 0 when it is not X's feeder. */
static uint64_t lpsend_feeder_bit(const struct lpsend_port *x, const char *name)
{
	for (size_t k = 0; k < x->nfeeders; k++)
		if (!strcmp(x->feeders[k], name))
			return 1ull << k;
	return 0;
}

/* IFNAME's bridge (MASTER_FN, for tests, else sysfs). */
static int lpsend_master(const struct lpsend *l, const char *ifname)
{
	return l->master_fn ? l->master_fn(ifname) : frames_port_master(ifname);
}

/* IFNAME's ifindex: its frame port's, else the kernel's. */
static int lpsend_ifindex(const struct lpsend *l, const char *ifname)
{
	struct frame_port *fp =
	    l->frames ? frames_find(l->frames, ifname) : NULL;

	return fp && fp->ifindex ? fp->ifindex : (int)if_nametoindex(ifname);
}

void lpsend_sync(struct lpsend *l, const struct ports *r, double now)
{
	struct lpsend_port *nv;
	int masters[LPSEND_FEEDERS_MAX];
	const char *senders[LPSEND_FEEDERS_MAX];
	size_t n = 0, ns = 0;

	/* The senders first: without one in a bridge, nothing to watch. */
	for (size_t i = 0; i < r->n && ns < LPSEND_FEEDERS_MAX; i++) {
		const struct frame_port *fp =
		    l->frames ? frames_find(l->frames, r->v[i].ifname) : NULL;
		int m;

		if (!lpsend_sender(&r->v[i]) || !fp || fp->fd < 0)
			continue;
		m = lpsend_master(l, r->v[i].ifname);
		if (!m)
			continue;
		masters[ns] = m;
		senders[ns++] = r->v[i].ifname;
	}
	nv = calloc(r->n ? r->n : 1, sizeof(*nv));
	if (!nv) {
		log_warnx("link pause transmit: out of memory");
		return;
	}
	for (size_t i = 0; ns && i < r->n; i++) {
		const struct ports_port *e = &r->v[i];
		const struct lpsend_port *old = lpsend_find(l, e->ifname);
		struct lpsend_port *x = &nv[n];

		if (!e->applied || !e->plan.dcb.software)
			continue;
		memset(x, 0, sizeof(*x));
		snprintf(x->ifname, sizeof(x->ifname), "%s", e->ifname);
		x->master = lpsend_master(l, e->ifname);
		for (size_t k = 0; x->master && k < ns; k++)
			if (masters[k] == x->master &&
			    strcmp(senders[k], x->ifname)) {
				x->feeder_idx[x->nfeeders] =
				    lpsend_ifindex(l, senders[k]);
				snprintf(x->feeders[x->nfeeders++],
				         sizeof(x->feeders[0]), "%s",
				         senders[k]);
			}
		if (!x->nfeeders)
			continue;
		x->ifindex = lpsend_ifindex(l, e->ifname);
		/* A port keeps what it told its feeders: forgetting a pause
		 * here would leave them paused until it runs out. */
		if (old) {
			x->s = old->s;
			for (size_t k = 0; k < old->nfeeders; k++) {
				if (old->paused_by & (1ull << k))
					x->paused_by |= lpsend_feeder_bit(
					    x, old->feeders[k]);
				if (old->last_by & (1ull << k))
					x->last_by |= lpsend_feeder_bit(
					    x, old->feeders[k]);
			}
		}
		lpsend_thresholds(x, e);
		n++;
	}
	free(l->idx);
	l->idx = calloc(n ? n : 1, sizeof(*l->idx));
	free(l->v);
	l->v = nv;
	l->n = n;
	if (!n)
		l->next_ms = 0;
	else if (!l->next_ms)
		l->next_ms = now + LPSEND_MS;
}

int lpsend_wait(const struct lpsend *l, double now)
{
	if (!l->next_ms)
		return -1;
	return l->next_ms <= now ? 0 : (int)(l->next_ms - now) + 1;
}

/* Does another congested port still want FEEDER paused? */
static bool lpsend_paused_elsewhere(const struct lpsend *l,
                                    const struct lpsend_port *self,
                                    const char *feeder)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct lpsend_port *o = &l->v[i];

		if (o != self && (o->paused_by & lpsend_feeder_bit(o, feeder)))
			return true;
	}
	return false;
}

/* Every feeder of X. */
static uint64_t lpsend_all(const struct lpsend_port *x)
{
	return x->nfeeders >= 64 ? ~0ull : (1ull << x->nfeeders) - 1;
}

/* What each feeder of X has sent toward X so far (any class), into OUT;
 * 0 or -errno. */
static int lpsend_counts(struct lpsend *l, const struct lpsend_port *x,
                         uint64_t *out, double now)
{
	const struct ports_port *e =
	    l->ports ? ports_find(l->ports, x->ifname) : NULL;

	if (!l->contrib || !e || !e->applied)
		return -ENOENT;
	return contrib_counts(l->contrib, x->ifindex, x->master, &e->plan,
	                      CONTRIB_ANY_QUEUE, x->feeder_idx, NULL,
	                      x->nfeeders, out, now);
}

/* The feeders of X whose traffic entered its queues since the window
 * began (before any window, since counting began), or every feeder (as
 * txpoll_contributors()). */
static uint64_t lpsend_contributors(struct lpsend *l, struct lpsend_port *x,
                                    double now)
{
	uint64_t cur[LPSEND_FEEDERS_MAX], mask = 0;

	if (lpsend_counts(l, x, cur, now) < 0) {
		x->cbase_ok = false;
		return lpsend_all(x);
	}
	for (size_t k = 0; k < x->nfeeders; k++)
		if (cur[k] > (x->cbase_ok ? x->cbase[k] : 0))
			mask |= 1ull << k;
	memcpy(x->cbase, cur, x->nfeeders * sizeof(cur[0]));
	x->cbase_ok = true;
	x->cbase_ms = now;
	if (!mask)
		mask = x->paused_by ? x->paused_by
		       : x->last_by ? x->last_by
		                    : lpsend_all(x);
	return mask;
}

/* X's queues are empty and it pauses nobody: the window starts anew (at
 * most every LPSEND_WINDOW_MS). */
static void lpsend_window(struct lpsend *l, struct lpsend_port *x, double now)
{
	uint64_t cur[LPSEND_FEEDERS_MAX];

	if (!l->contrib || l->contrib->err ||
	    (x->cbase_ok && now >= x->cbase_ms &&
	     now - x->cbase_ms < LPSEND_WINDOW_MS) ||
	    lpsend_counts(l, x, cur, now) < 0)
		return;
	memcpy(x->cbase, cur, x->nfeeders * sizeof(cur[0]));
	x->cbase_ok = true;
	x->cbase_ms = now;
}

/* Send an 802.3x pause of QUANTA (0: XON) out of the feeders of X in
 * MASK. */
static void lpsend_send(struct lpsend *l, const struct lpsend_port *x,
                        uint16_t quanta, uint64_t mask)
{
	for (size_t k = 0; k < x->nfeeders; k++) {
		struct frame_port *fp = frames_find(l->frames, x->feeders[k]);
		struct softpfc_port *sp;
		struct pfc_frame f;
		uint8_t buf[PFC_FRAME_MIN];
		int len, rc;

		if (!(mask & (1ull << k)) || !fp || fp->fd < 0)
			continue;
		if (!quanta && lpsend_paused_elsewhere(l, x, fp->ifname))
			continue;
		pfc_frame_make(&f, PFC_FRAME_PAUSE, fp->mac, 0, quanta);
		len = pfc_frame_encode(&f, buf, sizeof(buf));
		if (len < 0)
			continue;
		rc = frames_send(l->frames, fp->ifname, buf, (size_t)len);
		if (rc < 0) {
			log_debug(LOG_SUB_WATCHDOG, "%s: link pause %s: %s",
			          fp->ifname, quanta ? "pause" : "XON",
			          strerror(-rc));
			continue;
		}
		sp = l->softpfc ? softpfc_port(l->softpfc, fp->ifname, false)
		                : NULL;
		if (!sp)
			continue;
		if (quanta)
			sp->c.tx_link_pause++;
		else
			sp->c.tx_link_xon++;
	}
}

/* Every port's backlog, all its queues, as of NOW. */
static int lpsend_read(struct lpsend *l, double now)
{
	int rc;

	for (size_t i = 0; i < l->n; i++) {
		l->v[i].backlog = 0;
		if (l->idx)
			l->idx[i] = l->v[i].ifindex;
	}
	if (!l->qs || !l->idx)
		return -ENOTCONN;
	rc = qstats_backlogs(l->qs, l->idx, l->n, now);
	for (size_t i = 0; rc == 0 && i < l->n; i++)
		for (unsigned q = 0; q < POLICY_NQUEUES; q++) {
			const struct tc_stats_counters *st =
			    qstats_get(l->qs, l->v[i].ifindex, q, now, NULL);

			if (st)
				l->v[i].backlog += st->backlog;
		}
	return rc;
}

void lpsend_tick(struct lpsend *l, double now)
{
	int rc;

	if (!l->next_ms || now < l->next_ms)
		return;
	l->next_ms += LPSEND_MS;
	if (l->next_ms <= now)
		l->next_ms = now + LPSEND_MS; /* polls missed: skipped */
	l->polls++;
	rc = lpsend_read(l, now);
	if (rc < 0) {
		log_debug(LOG_SUB_WATCHDOG,
		          "link pause: cannot read the qdisc counters: %s",
		          strerror(-rc));
		return;
	}
	for (size_t i = 0; i < l->n; i++) {
		struct lpsend_port *x = &l->v[i];
		/* At 10 Gb/s, the shortest a peer may count the pause time
		 * (a speed of its own we do not know). */
		double refresh = pfctx_refresh_ms(0, LPSEND_MS);
		enum pfctx_action a =
		    pfctx_step(&x->s, &x->t, x->backlog, refresh, now);
		uint64_t mask;

		if (a == PFCTX_NONE) {
			if (!x->backlog && !x->s.paused)
				lpsend_window(l, x, now);
			continue;
		}
		if (a == PFCTX_PAUSE) {
			x->paused_by |= lpsend_contributors(l, x, now);
			mask = x->paused_by;
		} else {
			mask = x->paused_by;
			if (mask)
				x->last_by = mask;
			x->paused_by = 0;
		}
		log_debug(LOG_SUB_WATCHDOG,
		          "%s: backlog %llu bytes: link %s to the bridge's "
		          "ports with flowcontrol send on that feed it (%d of "
		          "%zu)",
		          x->ifname, (unsigned long long)x->backlog,
		          a == PFCTX_PAUSE ? "pause" : "XON",
		          __builtin_popcountll(mask), x->nfeeders);
		lpsend_send(l, x, a == PFCTX_PAUSE ? PFCTX_QUANTA : 0, mask);
	}
}
