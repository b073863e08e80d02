/* wdpoll: the PFC watchdog's poller. See wdpoll.h. */
#include "agent/wdpoll.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>

#include "os/log.h"
#include "os/rundir.h"
#include "model/plan.h"
#include "nlmsg/tc_msg.h"

void wdpoll_init(struct wdpoll *w)
{
	memset(w, 0, sizeof(*w));
	w->poll_ms = POLICY_PFCWD_POLL_MS;
	w->load_action = POLICY_PFCWD_DROP;
	w->reference = getenv("ROCED_WDPOLL_REFERENCE") != NULL;
	qstats_init(&w->own);
}

void wdpoll_free(struct wdpoll *w)
{
	free(w->v);
	free(w->byidx);
	qstats_free(&w->own);
	w->v = NULL;
	w->byidx = NULL;
	w->n = w->nbyidx = 0;
}

struct wdpoll_port *wdpoll_find(const struct wdpoll *w, const char *ifname)
{
	for (size_t i = 0; i < w->n; i++)
		if (!strcmp(w->v[i].ifname, ifname))
			return &w->v[i];
	return NULL;
}

static struct wdpoll_port *wdpoll_add(struct wdpoll *w, const char *ifname)
{
	struct wdpoll_port *nv, *e = wdpoll_find(w, ifname);

	if (e)
		return e;
	nv = realloc(w->v, (w->n + 1) * sizeof(*nv));
	if (!nv)
		return NULL;
	w->v = nv;
	e = &nv[w->n++];
	memset(e, 0, sizeof(*e));
	snprintf(e->ifname, sizeof(e->ifname), "%s", ifname);
	for (unsigned q = 0; q < POLICY_NQUEUES; q++)
		pfcwd_init(&e->q[q]);
	return e;
}

static void wdpoll_config(const struct wdpoll *w, const struct wdpoll_port *e,
                          struct pfcwd_config *c)
{
	unsigned sw =
	    w->switch_peer ? w->switch_peer(w->neighbour_arg, e->ifname) : 0;

	*c = e->cfg;
	c->switch_peer = sw & WDPOLL_PEER_SWITCH;
	c->switch_port = sw & WDPOLL_PORT_SWITCH;
	c->peer_waits = sw & WDPOLL_PEER_WAITS;
}

/* The queues of E the action applies to now: the registry's input. */
static uint8_t wdpoll_shut_mask(const struct wdpoll *w,
                                const struct wdpoll_port *e)
{
	struct pfcwd_config c;
	uint8_t m = 0;

	wdpoll_config(w, e, &c);
	for (unsigned q = 0; q < POLICY_NQUEUES; q++)
		if ((e->queues & (1u << q)) && pfcwd_mitigating(&e->q[q], &c))
			m |= (uint8_t)(1u << q);
	return m;
}

/* Make the registry's input of E what the watchdog says; reconcile the
 * port when that changes it. */
static void wdpoll_push(struct wdpoll *w, const struct wdpoll_port *e)
{
	struct ports_port *pe =
	    w->ports ? ports_find(w->ports, e->ifname) : NULL;
	uint8_t m = wdpoll_shut_mask(w, e);

	if (!pe || pe->watchdog.wd_shut == m)
		return;
	pe->watchdog.wd_shut = m;
	if (w->reconcile)
		w->reconcile(w->arg, e->ifname);
}

/* The no-drop queues of a registry entry's applied plan, and the
 * priorities of each: those the policy makes no-drop and those whose
 * PFC runs now. A willing host's PFC is the switch's, adopted over DCBX,
 * with none of its own: its queue is watched all the same. */
static uint8_t wdpoll_queues(const struct ports_port *pe,
                             uint8_t prios[POLICY_NQUEUES])
{
	const struct plan_dcb *d = &pe->plan.dcb;
	uint8_t queues = 0, pfc = d->pfc_admin | d->pfc_en;

	memset(prios, 0, POLICY_NQUEUES);
	if (!pe->applied)
		return 0;
	for (unsigned p = 0; p < POLICY_NPRIO; p++) {
		unsigned q = d->prio_tc[p];

		if (!(pfc & (1u << p)) || q >= POLICY_NQUEUES)
			continue;
		queues |= (uint8_t)(1u << q);
		prios[q] |= (uint8_t)(1u << p);
	}
	return queues;
}

/* Does E hold a queue the state file records (not simply monitored)? */
static bool wdpoll_recorded(const struct wdpoll_port *e)
{
	for (unsigned q = 0; q < POLICY_NQUEUES; q++)
		if (e->q[q].state != PFCWD_MONITORED)
			return true;
	return false;
}

/* Hardware counters are kept for the watched hardware ports only. */
static bool wdpoll_hw_keep(void *arg, const char *ifname)
{
	const struct wdpoll_port *e = wdpoll_find(arg, ifname);

	return e && e->hw && e->watched;
}

void wdpoll_sync(struct wdpoll *w, double now)
{
	uint32_t poll = 0;
	bool any = false, dropped = false;

	w->quiet = false; /* the next poll decides */
	/* Ports the registry no longer holds (no longer configured):
	 * forgotten, and their records with them, so that the port added
	 * back later (or a restarted roced) does not find an old storm. */
	for (size_t i = w->n; i-- > 0;) {
		if (w->ports && ports_find(w->ports, w->v[i].ifname))
			continue;
		if (wdpoll_recorded(&w->v[i])) {
			log_info("%s: PFC watchdog: the port is no longer "
			         "configured, its storm state is dropped",
			         w->v[i].ifname);
			dropped = true;
		}
		w->v[i] = w->v[--w->n];
	}
	for (size_t i = 0; w->ports && i < w->ports->n; i++) {
		const struct ports_port *pe = &w->ports->v[i];
		const struct plan_port *pp = &pe->plan;
		uint8_t prios[POLICY_NQUEUES] = {0}, queues;
		struct wdpoll_port *e;

		/* A plan not applied yet (a port that is not there): the
		 * state loaded at start waits for it, as it was loaded. */
		if (!pe->applied)
			continue;
		e = wdpoll_add(w, pe->ifname);
		if (!e) {
			log_warnx("%s: PFC watchdog: out of memory",
			          pe->ifname);
			continue;
		}
		queues = wdpoll_queues(pe, prios);
		/* A queue the watchdog shut, or restored on probation, stays
		 * watched with its priorities: a storm takes an adopted
		 * priority's PFC off a hardware port (pfc_en), and forgetting
		 * the queue then would restore it at once. Only a queue
		 * this run watched with priorities, though: a record loaded
		 * at start has none, and is held to the plan (a queue the
		 * plan does not make no-drop is not in storm). */
		for (unsigned q = 0; q < POLICY_NQUEUES; q++)
			if ((e->queues & (1u << q)) && e->prios[q] &&
			    e->q[q].state != PFCWD_MONITORED &&
			    !(queues & (1u << q))) {
				queues |= (uint8_t)(1u << q);
				prios[q] = e->prios[q];
			}
		memcpy(e->prios, prios, sizeof(prios));
		/* The settings are the applied plan's, as compile resolved
		 * them: a policy that was not applied changes nothing here. */
		pfcwd_config_from_plan(&pp->wd, &e->cfg);
		e->internal = pp->wd.internal;
		e->hw = !pp->dcb.software;
		e->watched = pp->watchdog && queues;
		/* A queue the applied plan does not watch (the watchdog off,
		 * the queue lossy now, or a record loaded at start that the
		 * plan does not hold) is not in storm: its record goes. */
		for (unsigned q = 0; q < POLICY_NQUEUES; q++)
			if (!e->watched || !(queues & (1u << q))) {
				dropped |= e->q[q].state != PFCWD_MONITORED;
				pfcwd_init(&e->q[q]);
			}
		e->queues = e->watched ? queues : 0;
		if (e->watched && e->cfg.poll_ms &&
		    (!poll || e->cfg.poll_ms < poll))
			poll = e->cfg.poll_ms;
		any |= e->watched;
		wdpoll_push(w, e);
	}
	w->poll_ms = poll ? poll : POLICY_PFCWD_POLL_MS;
	if (dropped && wdpoll_save(w) < 0)
		log_warn("%s", w->path);
	if (w->hw)
		hwcnt_sweep(w->hw, wdpoll_hw_keep, w);
	if (!any)
		w->next_ms = 0;
	else if (!w->next_ms)
		w->next_ms = now + w->poll_ms;
}

int wdpoll_wait(const struct wdpoll *w, double now)
{
	double next = w->quiet ? 0 : w->next_ms;

	if (w->extra_ms && (!next || w->extra_ms < next))
		next = w->extra_ms;
	if (!next)
		return -1;
	return next <= now ? 0 : (int)(next - now) + 1;
}

/* Does queue Q of E need its class's drops now: near a storm, in one,
 * or restored with the shut leaf's last drops still to count? */
static bool wdpoll_wants_class(const struct wdpoll_port *e, unsigned q)
{
	const struct pfcwd_queue *s = &e->q[q];

	return s->state == PFCWD_WAIT_SHUTDOWN || s->state == PFCWD_SHUTDOWN ||
	       s->tail || e->restore_how[q];
}

static struct qstats *wdpoll_qs(struct wdpoll *w);

/* Read the class drops of the ports with a queue that wants them (one
 * class read per such port through the sampler; storms are rare). */
static void wdpoll_classes(struct wdpoll *w, double now)
{
	struct qstats *qs = wdpoll_qs(w);

	for (size_t i = 0; i < w->n; i++) {
		struct wdpoll_port *e = &w->v[i];
		bool want = false;

		e->cseen = 0;
		for (unsigned q = 0; q < POLICY_NQUEUES; q++)
			want |=
			    (e->take & (1u << q)) && wdpoll_wants_class(e, q);
		/* (no netlink, as in tests playing the qdisc dump: none) */
		if (!want || !e->ifindex || !w->nl ||
		    qstats_classes(qs, e->ifindex, now) < 0)
			continue;
		for (unsigned q = 0; q < POLICY_NQUEUES; q++) {
			enum qstats_src src = QSTATS_NONE;
			const struct tc_stats_counters *st =
			    (e->queues & (1u << q))
			        ? qstats_get(qs, e->ifindex, q, now, &src)
			        : NULL;

			if (!st || src != QSTATS_CLASS)
				continue;
			e->cseen |= (uint8_t)(1u << q);
			e->cdrops[q] = st->drops;
		}
	}
}

static int wdpoll_idx_cmp(const void *a, const void *b, void *arg)
{
	const struct wdpoll *w = arg;
	int x = w->v[*(const size_t *)a].ifindex;
	int y = w->v[*(const size_t *)b].ifindex;

	return (x > y) - (x < y);
}

/* Index the watched ports by ifindex; a port whose ifindex is unknown,
 * or was not in the last dump (replaced), is looked up again. */
static void wdpoll_index(struct wdpoll *w)
{
	size_t *nb = realloc(w->byidx, (w->n ? w->n : 1) * sizeof(*nb));

	if (!nb)
		return;
	w->byidx = nb;
	w->nbyidx = 0;
	for (size_t i = 0; i < w->n; i++) {
		struct wdpoll_port *e = &w->v[i];
		bool seen = false;

		if (!e->watched)
			continue;
		for (unsigned q = 0; q < POLICY_NQUEUES; q++)
			seen |= e->seen[q];
		if (!e->ifindex || !seen)
			e->ifindex = (int)if_nametoindex(e->ifname);
		if (e->ifindex)
			w->byidx[w->nbyidx++] = i;
	}
	qsort_r(w->byidx, w->nbyidx, sizeof(*w->byidx), wdpoll_idx_cmp, w);
}

/* One line per storm and per restore: the port, the qos-group and its
 * priorities, and the LLDP neighbour (where the pause comes from). */
static void wdpoll_log(const struct wdpoll *w, const struct wdpoll_port *e,
                       unsigned q, enum pfcwd_event ev,
                       const struct pfcwd_config *c, const char *how)
{
	const struct pfcwd_queue *s = &e->q[q];
	char prios[32], nbr[WDPOLL_NEIGHBOUR_MAX];

	policy_list_format(e->prios[q], prios, sizeof(prios));
	snprintf(nbr, sizeof(nbr), "no LLDP neighbour");
	if (w->neighbour)
		w->neighbour(w->neighbour_arg, e->ifname, nbr, sizeof(nbr));
	if (ev == PFCWD_EV_STORM)
		log_warnx("%s: PFC storm on qos-group %u (priority %s), %s: "
		          "pause received with the queue stuck for %.0f ms, "
		          "action %s%s",
		          e->ifname, q, prios, nbr,
		          /* the detection time that applied: longer after
		           * transit back-pressure (pfcwd.h) */
		          s->shut_ms - s->cond_ms,
		          policy_pfcwd_action_name(c->action),
		          c->action == POLICY_PFCWD_DROP ? ", queue flushed"
		                                         : "");
	else
		/* This storm's own counts; the totals since the statistics
		 * were cleared are show queuing pfc-queue's. */
		log_info("%s: PFC storm over on qos-group %u (priority %s), "
		         "%s: queue restored (%s) after %.1f s, %" PRIu64
		         " packets drained and %" PRIu64
		         " dropped during the storm",
		         e->ifname, q, prios, nbr, how,
		         (s->last_restore_ms - s->shut_ms) / 1000.0,
		         s->storm_drained, s->storm_dropped);
}

/* Pause frames received for queue Q of E so far (software PFC's count,
 * which goes on while pause is ignored). */
static uint64_t wdpoll_pause(const struct wdpoll_port *e,
                             const struct softpfc_port *sp, unsigned q)
{
	uint64_t n = 0;

	if (e->hp) {
		struct pfcwd_sample s;

		hwcnt_sample(e->hp, e->prios[q], &s);
		return s.pause_rx;
	}
	for (unsigned p = 0; p < POLICY_NPRIO; p++)
		if (e->prios[q] & (1u << p))
			n += sp->c.rx_pause[p];
	return n;
}

/* Does queue Q need its tc counters this poll? Only if pause came since
 * the last poll (the storm condition needs it, and XON never counts) or
 * the queue is not simply monitored (a shut queue's drops are counted):
 * a quiet fabric costs no netlink at all. */
static bool wdpoll_wants(const struct wdpoll_port *e,
                         const struct softpfc_port *sp, unsigned q)
{
	const struct pfcwd_queue *s = &e->q[q];

	return !s->have_prev || s->state != PFCWD_MONITORED || s->tail ||
	       e->restore_how[q] || wdpoll_pause(e, sp, q) != s->prev.pause_rx;
}

/* Read the counters of the watched hardware ports (all reads first:
 * a read may add an entry and move the others), then point each port
 * at its entry for this poll. A port whose counters cannot be read is
 * not watched this poll; said once. */
static void wdpoll_hw_read(struct wdpoll *w)
{
	for (size_t i = 0; i < w->n; i++) {
		w->v[i].hp = NULL;
		if (w->hw && w->v[i].hw && w->v[i].watched && w->v[i].take)
			hwcnt_read(w->hw, w->v[i].ifname);
	}
	for (size_t i = 0; w->hw && i < w->n; i++) {
		struct wdpoll_port *e = &w->v[i];
		const struct hwcnt_port *hp;
		int err;

		if (!e->hw || !e->watched || !e->take)
			continue;
		hp = hwcnt_find(w->hw, e->ifname);
		err = !hp ? -ENOMEM : hp->ok ? 0 : hp->err;
		if (err && err != e->hw_err)
			log_warnx("%s: PFC watchdog: cannot read the port's "
			          "PFC counters (%s): its queues are not "
			          "watched until they can be",
			          e->ifname, strerror(-err));
		else if (!err && e->hw_err)
			log_info("%s: PFC watchdog: the port's PFC counters "
			         "can be read again",
			         e->ifname);
		e->hw_err = err;
		e->hp = err ? NULL : hp;
	}
}

/* The entries HP points at are hwcnt's: good for one poll only. */
static void wdpoll_hw_done(struct wdpoll *w)
{
	for (size_t i = 0; i < w->n; i++)
		w->v[i].hp = NULL;
}

/* E's software PFC entry: the one found last time when it is still that
 * port's (entries move when ports come and go), else looked up again; a
 * name lookup per port per poll would cost N^2 at N ports. */
static const struct softpfc_port *wdpoll_sp(const struct wdpoll *w,
                                            struct wdpoll_port *e)
{
	const struct softpfc *s = w->softpfc;
	const struct softpfc_port *sp = e->sp;

	/* A hardware port's PFC is the driver's, whatever software PFC
	 * counts on its raw-frame socket. */
	if (!s || e->hw)
		return NULL;
	if (sp && sp >= s->v && sp < s->v + s->n &&
	    !strcmp(sp->ifname, e->ifname))
		return sp;
	e->sp = softpfc_port((struct softpfc *)s, e->ifname, false);
	return e->sp;
}

/* When queue Q of E wants a sample before the next poll; < 0: never. */
static double wdpoll_qdue(const struct wdpoll_port *e, unsigned q,
                          const struct pfcwd_config *c)
{
	double d = pfcwd_due(&e->q[q], c), x = e->due[q];

	return x > 0 && (d < 0 || x < d) ? x : d;
}

/* The earliest sample due after NOW between polls. One that is not
 * after NOW was taken by this tick and decided nothing (no counters):
 * the next poll takes it up, and the loop does not spin on it. */
static void wdpoll_plan(struct wdpoll *w, double now)
{
	w->extra_ms = 0;
	for (size_t i = 0; i < w->n; i++) {
		const struct wdpoll_port *e = &w->v[i];
		struct pfcwd_config c;

		if (!e->watched)
			continue;
		wdpoll_config(w, e, &c);
		for (unsigned q = 0; q < POLICY_NQUEUES; q++) {
			double d;

			if (!(e->queues & (1u << q)))
				continue;
			d = wdpoll_qdue(e, q, &c);
			if (d > now && (!w->extra_ms || d < w->extra_ms))
				w->extra_ms = d;
		}
	}
}

bool wdpoll_restore_due(const struct wdpoll *w, double now)
{
	/* Nothing is sampled before the next poll or planned sample (the
	 * loop asks at every tick: the common case costs two compares). */
	if (!(w->next_ms && w->next_ms <= now) &&
	    !(w->extra_ms && w->extra_ms <= now + PFCWD_SLACK_MS))
		return false;
	for (size_t i = 0; i < w->n; i++) {
		const struct wdpoll_port *e = &w->v[i];
		struct pfcwd_config c;

		if (!e->watched)
			continue;
		wdpoll_config(w, e, &c);
		for (unsigned q = 0; q < POLICY_NQUEUES; q++) {
			double d;

			if (!(e->queues & (1u << q)) ||
			    e->q[q].state != PFCWD_SHUTDOWN)
				continue;
			d = pfcwd_restore_due(&e->q[q], &c);
			if (d >= 0 && d <= now + PFCWD_SLACK_MS)
				return true;
		}
	}
	return false;
}

void wdpoll_held(struct wdpoll *w, double now)
{
	bool asked = false;

	for (size_t i = 0; i < w->n; i++) {
		struct wdpoll_port *e = &w->v[i];
		const struct softpfc_port *sp;

		if (!e->watched || !(sp = wdpoll_sp(w, e)))
			continue;
		for (unsigned q = 0; q < POLICY_NQUEUES; q++) {
			bool held = sp->held & e->prios[q];

			if (!(e->queues & (1u << q)))
				continue;
			if (held && !e->hold_seen[q] &&
			    e->q[q].state != PFCWD_SHUTDOWN) {
				e->due[q] = now + WDPOLL_SETTLE_MS;
				e->hold_tries[q] = 1;
				asked = true;
			}
			e->hold_seen[q] = held;
		}
	}
	if (asked) {
		w->quiet = false;
		wdpoll_plan(w, now);
	}
}

/* Software PFC's kernel path keeps a held queue's packets in its loop
 * (kernel/bpfhold.h), not in the queue's leaf: they are the queue's
 * backlog all the same, which a storm's condition asks for. */
static void wdpoll_kpfc_backlog(const struct wdpoll *w,
                                const struct wdpoll_port *e, unsigned q,
                                struct pfcwd_sample *s)
{
	const struct ports_port *pe =
	    w->ports && !e->hp ? ports_find(w->ports, e->ifname) : NULL;
	struct bpfhold_stats st;

	if (!pe || !pe->kpfc_on || bpfhold_read(&pe->kpfc, &st))
		return;
	for (unsigned p = 0; p < POLICY_NPRIO; p++)
		if (e->prios[q] & (1u << p))
			s->backlog += st.prio[p].inloop;
}

/* The sample of queue Q of E at NOW; false when there is none (its
 * counters were not in the dump). */
static bool wdpoll_sample(const struct wdpoll_port *e,
                          const struct softpfc_port *sp, unsigned q, double now,
                          struct pfcwd_sample *s)
{
	memset(s, 0, sizeof(*s));
	if (e->hp) {
		hwcnt_sample(e->hp, e->prios[q], s);
		goto counters;
	}
	s->pause_rx = wdpoll_pause(e, sp, q);
	s->rx_live = true;
	/* Software PFC counts the XONs too: a peer that sends them lets go
	 * (transit back-pressure, never a storm). */
	s->has_xon = true;
	for (unsigned p = 0; p < POLICY_NPRIO; p++)
		if (e->prios[q] & (1u << p))
			s->xon_rx += sp->c.rx_xon[p];
	/* Software PFC's time paused is the queue's pause-duration counter
	 * (the longest of its priorities'), and it dates the last frame. */
	s->has_duration = true;
	for (unsigned p = 0; p < POLICY_NPRIO; p++) {
		uint64_t us;

		if (!(e->prios[q] & (1u << p)))
			continue;
		us = (uint64_t)(softpfc_duration_ms(sp, p, now) * 1000.0);
		if (us > s->paused_us)
			s->paused_us = us;
		if (sp->c.last_pause_ms[p] > s->last_pause_ms)
			s->last_pause_ms = sp->c.last_pause_ms[p];
	}
counters:
	if (e->q[q].have_prev && !wdpoll_wants(e, sp, q)) {
		/* No pause since the last sample: a clean poll whatever the
		 * queue did; its counters as they were (no netlink read). */
		s->tx_packets = e->q[q].prev.tx_packets;
		s->drops = e->q[q].prev.drops;
		s->backlog = e->q[q].prev.backlog;
	} else if (e->seen[q]) {
		s->tx_packets = e->st[q].packets;
		s->drops = e->st[q].drops;
		s->backlog = e->st[q].qlen;
	} else {
		return false;
	}
	s->has_class_drops = e->cseen & (1u << q);
	s->class_drops = e->cdrops[q];
	return true;
}

/* Could a poll now find anything the last one did not? Not while every
 * watched port is a software port (a hardware port's counters are the
 * driver's, read at each poll) whose watched queues are simply monitored
 * (no condition running, no sample asked for, no restore to log, not
 * held) and whose pause and XON counts are those of the last sample:
 * what could change them is a MAC Control frame, which wakes the poller
 * (wdpoll_wake). */
static bool wdpoll_idle(struct wdpoll *w)
{
	if (w->reference || w->extra_ms)
		return false;
	for (size_t i = 0; i < w->n; i++) {
		struct wdpoll_port *e = &w->v[i];
		const struct softpfc_port *sp;

		if (!e->watched)
			continue;
		if (e->hw)
			return false;
		sp = wdpoll_sp(w, e);
		if (!sp)
			continue; /* not sampled at all */
		for (unsigned q = 0; q < POLICY_NQUEUES; q++) {
			const struct pfcwd_queue *s = &e->q[q];
			uint64_t xon = 0;

			if (!(e->queues & (1u << q)))
				continue;
			for (unsigned p = 0; p < POLICY_NPRIO; p++)
				if (e->prios[q] & (1u << p))
					xon += sp->c.rx_xon[p];
			if (s->state != PFCWD_MONITORED || !s->have_prev ||
			    s->tail || s->cond_polls || e->restore_how[q] ||
			    e->due[q] || (sp->held & e->prios[q]) ||
			    wdpoll_pause(e, sp, q) != s->prev.pause_rx ||
			    xon != s->prev.xon_rx)
				return false;
		}
	}
	return true;
}

/* The sampler the poller reads through: the daemon's shared one, else
 * its own on NL or DUMP (tests). */
static struct qstats *wdpoll_qs(struct wdpoll *w)
{
	if (w->qs)
		return w->qs;
	w->own.nl = w->nl;
	w->own.dump = w->dump;
	w->own.dump_arg = w->dump_arg;
	return &w->own;
}

/* The leaf counters of the watched queues, as of NOW. */
static int wdpoll_read(struct wdpoll *w, double now)
{
	struct qstats *qs = wdpoll_qs(w);
	int rc = qstats_leaves(qs, now);

	for (size_t i = 0; i < w->n; i++) {
		struct wdpoll_port *e = &w->v[i];

		for (unsigned q = 0; q < POLICY_NQUEUES; q++) {
			enum qstats_src src = QSTATS_NONE;
			const struct tc_stats_counters *st =
			    e->ifindex && (e->queues & (1u << q))
			        ? qstats_get(qs, e->ifindex, q, now, &src)
			        : NULL;

			e->seen[q] = st && src == QSTATS_LEAF;
			if (e->seen[q])
				e->st[q] = *st;
		}
	}
	return rc;
}

void wdpoll_tick(struct wdpoll *w, double now)
{
	bool changed = false, dump = false, poll;
	int rc = 0;

	poll = w->next_ms && now >= w->next_ms && !w->quiet;
	if (!poll && !(w->extra_ms && now >= w->extra_ms))
		return;
	if (poll) {
		w->next_ms += w->poll_ms;
		if (w->next_ms <= now) /* polls missed: skipped */
			w->next_ms = now + w->poll_ms;
		w->polls++;
	}
	/* Which queues this tick samples: all at a poll, else those due. */
	for (size_t i = 0; i < w->n; i++) {
		struct wdpoll_port *e = &w->v[i];
		const struct softpfc_port *sp = wdpoll_sp(w, e);
		struct pfcwd_config c;

		e->take = 0;
		e->cseen = 0; /* read again below, if at all */
		if (!e->watched || (!sp && !e->hw))
			continue;
		wdpoll_config(w, e, &c);
		for (unsigned q = 0; q < POLICY_NQUEUES; q++) {
			double d;

			if (!(e->queues & (1u << q)))
				continue;
			d = wdpoll_qdue(e, q, &c);
			if (!poll && (d < 0 || d > now + PFCWD_SLACK_MS))
				continue;
			e->take |= (uint8_t)(1u << q);
			/* a sample asked for later (a hold's) still comes */
			if (e->due[q] <= now + PFCWD_SLACK_MS)
				e->due[q] = 0;
		}
	}
	/* Hardware ports' counters, for those sampled; then whether the
	 * kernel's qdisc counters are needed at all. */
	wdpoll_hw_read(w);
	for (size_t i = 0; i < w->n && !dump; i++) {
		struct wdpoll_port *e = &w->v[i];
		const struct softpfc_port *sp = wdpoll_sp(w, e);

		for (unsigned q = 0; (sp || e->hp) && q < POLICY_NQUEUES; q++)
			dump |= (e->take & (1u << q)) && wdpoll_wants(e, sp, q);
	}
	if (dump) {
		wdpoll_index(w);
		rc = wdpoll_read(w, now);
		w->dumps++;
	}
	if (rc < 0) {
		log_debug(LOG_SUB_WATCHDOG,
		          "cannot read the qdisc counters: %s", strerror(-rc));
		wdpoll_hw_done(w);
		wdpoll_plan(w, now);
		return;
	}
	if (dump)
		wdpoll_classes(w, now);
	for (size_t i = 0; i < w->n; i++) {
		struct wdpoll_port *e = &w->v[i];
		const struct softpfc_port *sp = wdpoll_sp(w, e);
		struct pfcwd_config c;

		if (!e->take || (!sp && !e->hp))
			continue;
		wdpoll_config(w, e, &c);
		for (unsigned q = 0; q < POLICY_NQUEUES; q++) {
			struct pfcwd_sample s;
			enum pfcwd_event ev;

			if (!(e->take & (1u << q)) ||
			    !wdpoll_sample(e, sp, q, now, &s))
				continue;
			wdpoll_kpfc_backlog(w, e, q, &s);
			ev = pfcwd_poll(&e->q[q], &c, &s, now);
			/* Held, yet not stuck by this sample: the hold's
			 * bucket went late, or nothing had come to queue
			 * yet (a loaded host); once more soon. */
			if (sp && (sp->held & e->prios[q]) &&
			    e->q[q].state == PFCWD_MONITORED &&
			    e->hold_tries[q] &&
			    e->hold_tries[q] < WDPOLL_SETTLE_TRIES &&
			    !e->due[q]) {
				e->due[q] = now + WDPOLL_SETTLE_MS;
				e->hold_tries[q]++;
			}
			/* What decided, for `debug watchdog`: the samples
			 * of a queue that saw pause or is not monitored. */
			if (e->q[q].state != PFCWD_MONITORED ||
			    ev != PFCWD_EV_NONE || e->hold_seen[q])
				log_debug(
				    LOG_SUB_WATCHDOG,
				    "%s: qos-group %u %s at %.1f: pause "
				    "%" PRIu64 " sent %" PRIu64
				    " queued %" PRIu64 " paused %.1f ms: %s",
				    e->ifname, q, poll ? "poll" : "sample", now,
				    s.pause_rx, s.tx_packets, s.backlog,
				    (double)s.paused_us / 1e3,
				    pfcwd_state_name(e->q[q].state));
			/* A restore's line, once the shut leaf's last
			 * drops are counted (the sample after its apply). */
			if (e->restore_how[q] && ev == PFCWD_EV_NONE) {
				/* without the class's count (gone?), the
				 * line all the same */
				if (!pfcwd_tail(&e->q[q], &s))
					e->q[q].tail = false;
				wdpoll_log(w, e, q, PFCWD_EV_RESTORE, &c,
				           e->restore_how[q]);
				e->restore_how[q] = NULL;
				changed = true;
			}
			if (ev == PFCWD_EV_NONE)
				continue;
			changed = true;
			if (ev == PFCWD_EV_RESTORE && e->q[q].tail) {
				e->restore_how[q] =
				    c.fixed_restore_ms &&
				            now - e->q[q].shut_ms + 1 >=
				                c.fixed_restore_ms
				        ? "fixed"
				        : "auto";
				e->due[q] = now + WDPOLL_SETTLE_MS;
				continue;
			}
			wdpoll_log(w, e, q, ev, &c,
			           c.fixed_restore_ms &&
			                   now - e->q[q].shut_ms + 1 >=
			                       c.fixed_restore_ms
			               ? "fixed"
			               : "auto");
		}
		wdpoll_push(w, e);
	}
	wdpoll_hw_done(w);
	wdpoll_plan(w, now);
	w->quiet = wdpoll_idle(w);
	if (changed && wdpoll_save(w) < 0)
		log_warn("%s", w->path);
}

void wdpoll_wake(struct wdpoll *w, double now)
{
	double last;

	if (!w->quiet)
		return;
	w->quiet = false;
	if (!w->next_ms || w->next_ms > now || !w->poll_ms)
		return;
	/* The last poll skipped (on the grid of the polls, at or before
	 * NOW) found what the one before it did: the next sample's span
	 * begins there, not at the last poll taken, or a storm beginning
	 * now would be measured against hours of quiet. */
	last = w->next_ms + floor((now - w->next_ms) / w->poll_ms) * w->poll_ms;
	w->quiet_polls += (uint64_t)((last - w->next_ms) / w->poll_ms) + 1;
	for (size_t i = 0; i < w->n; i++)
		for (unsigned q = 0; q < POLICY_NQUEUES; q++)
			if (w->v[i].q[q].have_prev &&
			    w->v[i].q[q].prev_ms < last)
				w->v[i].q[q].prev_ms = last;
	w->next_ms = last + w->poll_ms;
}

int wdpoll_recover(struct wdpoll *w, const char *ifname, unsigned q, double now)
{
	struct wdpoll_port *e = wdpoll_find(w, ifname);
	struct pfcwd_config c;

	w->quiet = false;
	if (!e || q >= POLICY_NQUEUES || !(e->queues & (1u << q)))
		return -ENOENT;
	if (pfcwd_recover(&e->q[q], now) == PFCWD_EV_NONE)
		return -EALREADY;
	wdpoll_config(w, e, &c);
	if (e->q[q].tail) {
		/* logged with the shut leaf's last drops, after the apply */
		e->restore_how[q] = "by hand";
		e->due[q] = now + WDPOLL_SETTLE_MS;
		wdpoll_plan(w, now);
	} else {
		wdpoll_log(w, e, q, PFCWD_EV_RESTORE, &c, "by hand");
	}
	wdpoll_push(w, e);
	if (wdpoll_save(w) < 0)
		log_warn("%s", w->path);
	return 0;
}

int wdpoll_clear(struct wdpoll *w, const char *ifname)
{
	int n = 0;

	for (size_t i = 0; i < w->n; i++) {
		if (ifname && strcmp(w->v[i].ifname, ifname))
			continue;
		for (unsigned q = 0; q < POLICY_NQUEUES; q++)
			pfcwd_clear(&w->v[i].q[q]);
		n++;
	}
	if (ifname && !n)
		return -ENOENT;
	return wdpoll_save(w);
}

/* --- the state file --- */

int wdpoll_save(struct wdpoll *w)
{
	struct rundir_file rf;
	char line[512];
	size_t n = 0;
	FILE *f;

	if (!w->path[0])
		return 0;
	for (size_t i = 0; i < w->n; i++)
		for (unsigned q = 0; q < POLICY_NQUEUES; q++)
			n += w->v[i].q[q].state != PFCWD_MONITORED;
	if (!n) {
		int rc = rundir_unlink(w->path);

		return rc == -ENOENT ? 0 : rc;
	}
	f = rundir_create(&rf, w->path, 0644, 0);
	if (!f)
		return -errno;
	fprintf(f, "netns %" PRIu64 "\n", w->netns_cookie);
	for (size_t i = 0; i < w->n; i++)
		for (unsigned q = 0; q < POLICY_NQUEUES; q++) {
			if (w->v[i].q[q].state == PFCWD_MONITORED)
				continue;
			pfcwd_format(&w->v[i].q[q], line, sizeof(line));
			fprintf(f, "%s %u %s\n", w->v[i].ifname, q, line);
		}
	return rundir_commit(&rf);
}

int wdpoll_load(struct wdpoll *w, double now)
{
	char line[640];
	uint64_t cookie = 0;
	FILE *f;
	int n = 0;

	if (!w->path[0])
		return 0;
	f = rundir_fopen(w->path);
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	if (!fgets(line, sizeof(line), f) ||
	    sscanf(line, "netns %" SCNu64, &cookie) != 1 ||
	    (w->netns_cookie && cookie && cookie != w->netns_cookie)) {
		fclose(f);
		return -ESTALE;
	}
	while (fgets(line, sizeof(line), f)) {
		char ifname[POLICY_IFNAME_MAX];
		unsigned q;
		int off = 0;
		struct pfcwd_queue s;
		struct wdpoll_port *e;
		struct ports_port *pe;

		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "%15s %u %n", ifname, &q, &off) != 2 ||
		    q >= POLICY_NQUEUES || pfcwd_parse(&s, line + off, now) < 0)
			continue; /* not ours to guess at */
		e = wdpoll_add(w, ifname);
		if (!e)
			break;
		e->q[q] = s;
		e->queues |= (uint8_t)(1u << q);
		n++;
		/* The registry has the queue shut from the first apply. */
		pe = w->ports ? ports_get(w->ports, ifname) : NULL;
		if (pe && s.state == PFCWD_SHUTDOWN &&
		    w->load_action != POLICY_PFCWD_ALERT)
			pe->watchdog.wd_shut |= (uint8_t)(1u << q);
	}
	fclose(f);
	return n;
}
