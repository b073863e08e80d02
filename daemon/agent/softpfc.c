/* softpfc: software PFC's receive side. See softpfc.h. */
#include "agent/softpfc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "os/log.h"

void softpfc_init(struct softpfc *s, softpfc_changed_fn changed, void *arg)
{
	memset(s, 0, sizeof(*s));
	s->changed = changed;
	s->arg = arg;
}

void softpfc_free(struct softpfc *s)
{
	free(s->v);
	softpfc_init(s, s->changed, s->arg);
}

struct softpfc_port *softpfc_port(struct softpfc *s, const char *ifname,
                                  bool create)
{
	struct softpfc_port *nv;

	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].ifname, ifname))
			return &s->v[i];
	if (!create)
		return NULL;
	nv = realloc(s->v, (s->n + 1) * sizeof(*nv));
	if (!nv)
		return NULL;
	s->v = nv;
	memset(&nv[s->n], 0, sizeof(nv[0]));
	snprintf(nv[s->n].ifname, sizeof(nv[0].ifname), "%s", ifname);
	return &nv[s->n++];
}

void softpfc_remove(struct softpfc *s, const char *ifname)
{
	struct softpfc_port *e = softpfc_port(s, ifname, false);

	if (!e)
		return;
	*e = s->v[--s->n];
}

/* Tell the daemon when E's held set (or its link pause hold) is not what
 * it was last told. */
static void softpfc_sync(struct softpfc *s, struct softpfc_port *e)
{
	uint8_t held = 0;
	bool lp = e->lp.until > 0;

	for (unsigned p = 0; p < PFC_NPRIO; p++)
		if (e->until[p] > 0)
			held |= (uint8_t)(1u << p);
	if (held == e->held && lp == e->lp_held)
		return;
	e->held = held;
	e->lp_held = lp;
	if (s->changed)
		s->changed(s->arg, e->ifname, held, lp);
}

/* One hold (a priority's, or the whole port's for link pause): ends at
 * *UNTIL (0: not held), began at *SINCE, adds to *TOTAL once over. */
static void softpfc_end(double *until, double since, double *total, double now)
{
	if (*until <= 0)
		return;
	*total += now - since;
	*until = 0;
}

/* A hold (until, since, grace as in softpfc_port) begins or is
 * refreshed by a pause of QUANTA received at NOW. */
/* The least time a refresh of E's hold lasts: SOFTPFC_REFRESH_MIN_MS
 * for a switch, SOFTPFC_REFRESH_HOST_MS for anything else. */
static double softpfc_refresh_ms(const struct softpfc *s,
                                 struct softpfc_port *e, double now)
{
	if (!s || !s->switch_peer)
		return SOFTPFC_REFRESH_MIN_MS;
	if (!e->peer_asked_ms || now < e->peer_asked_ms ||
	    now - e->peer_asked_ms >= SOFTPFC_PEER_CACHE_MS) {
		e->peer_switch = s->switch_peer(s->switch_arg, e->ifname);
		e->peer_asked_ms = now > 0 ? now : 1;
	}
	return e->peer_switch ? SOFTPFC_REFRESH_MIN_MS
	                      : SOFTPFC_REFRESH_HOST_MS;
}

static void softpfc_begin(const struct softpfc_port *e, double *until,
                          double *since, double *grace, double *total,
                          uint16_t quanta, double refresh, double now)
{
	double ms = (double)pfc_quanta_ns(quanta, e->speed_mbps) / 1e6;
	/* A refresh of a hold still applied (the peer keeps pausing) is
	 * stickier than a lone pause: REFRESH, softpfc_refresh_ms(). That
	 * includes a hold whose time ran out before this frame came while
	 * roced, busy or stalled, had not released it yet. */
	double min = *until > 0 ? refresh : SOFTPFC_HOLD_MIN_MS;

	/* Such a hold ended for the count when its time ran out: this is
	 * a new one (the time held is the time the peer asked for). */
	if (*until > 0 && *until < now)
		softpfc_end(until, *since, total, *until);
	*grace = 0;
	if (ms < min)
		ms = min;
	if (*until <= 0)
		*since = now;
	/* A pause replaces the time left (802.1Qbb and 802.3x: the new
	 * time counts from its reception), shorter or longer. */
	*until = now + ms;
}

/* A pause frame for P asked for QUANTA from NOW: the span goes on when
 * the last one had not run out (the new time replaces what was left),
 * else a new one begins; QUANTA 0 (XON) ends it. */
static void softpfc_ask(struct softpfc_port *e, unsigned p, uint16_t quanta,
                        double now)
{
	double *until = &e->ask[p].until, *since = &e->ask[p].since;

	if (*until > 0 && (*until < now || !quanta)) {
		e->c.asked_ms[p] += (*until < now ? *until : now) - *since;
		*until = 0;
	}
	if (!quanta)
		return;
	if (*until <= 0)
		*since = now;
	*until = now + (double)pfc_quanta_ns(quanta, e->speed_mbps) / 1e6;
}

static void softpfc_release(struct softpfc_port *e, unsigned p, double now)
{
	double since = e->since[p];

	e->grace[p] = 0;
	if (e->until[p] <= 0)
		return;
	softpfc_end(&e->until[p], since, &e->c.held_ms[p], now);
	e->last_held[p] = now - since;
}

static void softpfc_hold(struct softpfc *s, struct softpfc_port *e, unsigned p,
                         uint16_t quanta, double now)
{
	softpfc_begin(e, &e->until[p], &e->since[p], &e->grace[p],
	              &e->c.held_ms[p], quanta, softpfc_refresh_ms(s, e, now),
	              now);
}

int softpfc_configure(struct softpfc *s, const char *ifname, uint8_t honour,
                      bool link_pause_rx, uint32_t speed_mbps, double now)
{
	struct softpfc_port *e = softpfc_port(s, ifname, true);

	if (!e)
		return -ENOMEM;
	e->honour = honour;
	e->link_pause_rx = link_pause_rx;
	e->speed_mbps = speed_mbps;
	for (unsigned p = 0; p < PFC_NPRIO; p++)
		if (!(honour & (1u << p)))
			softpfc_release(e, p, now);
	if (!link_pause_rx) {
		softpfc_end(&e->lp.until, e->lp.since, &e->c.lp_held_ms, now);
		e->lp.grace = 0;
	}
	softpfc_sync(s, e);
	return 0;
}

void softpfc_rx(void *arg, const char *ifname, const uint8_t *buf, size_t len,
                double now)
{
	struct softpfc *s = arg;
	struct softpfc_port *e = softpfc_port(s, ifname, false);
	struct pfc_frame f;
	char err[128];
	int rc;

	if (!e)
		return;
	rc = pfc_frame_decode(buf, len, &f, err, sizeof(err));
	if (rc == -EBADMSG) {
		e->c.rx_malformed++;
		log_debug(LOG_SUB_WATCHDOG,
		          "%s: malformed MAC Control frame: %s", ifname, err);
		return;
	}
	if (rc)
		return;
	if (f.kind == PFC_FRAME_PAUSE) {
		if (f.quanta[0])
			e->c.rx_link_pause++;
		else
			e->c.rx_link_xon++;
		/* `flowcontrol receive off`: counted, and ignored. */
		if (!e->link_pause_rx)
			return;
		if (f.quanta[0]) {
			softpfc_begin(e, &e->lp.until, &e->lp.since,
			              &e->lp.grace, &e->c.lp_held_ms,
			              f.quanta[0],
			              softpfc_refresh_ms(s, e, now), now);
		} else {
			softpfc_end(&e->lp.until, e->lp.since, &e->c.lp_held_ms,
			            now);
			e->lp.grace = 0;
		}
		softpfc_sync(s, e);
		return;
	}
	e->c.rx_frames++;
	for (unsigned p = 0; p < PFC_NPRIO; p++) {
		if (pfc_frame_pauses(&f, p)) {
			/* Counted whether honoured or not: the watchdog's
			 * live counter. */
			e->c.rx_pause[p]++;
			e->c.last_pause_ms[p] = now;
			softpfc_ask(e, p, f.quanta[p], now);
			if (e->honour & (1u << p))
				softpfc_hold(s, e, p, f.quanta[p], now);
		} else if (pfc_frame_releases(&f, p)) {
			e->c.rx_xon[p]++;
			softpfc_ask(e, p, 0, now);
			softpfc_release(e, p, now);
		}
	}
	softpfc_sync(s, e);
}

/* Is a hold that ran out at UNTIL kept at NOW? Yes while its grace
 * (*GRACE, 0: none) lasts, and when roced comes to it SOFTPFC_STALL_MS
 * or more after it was due (its time, or the end of its grace): roced
 * did not run, and the peer, on the same loaded machine, may not have
 * either; it gets a refresh's time from now to send one. Never past
 * SOFTPFC_GRACE_MAX_MS after UNTIL: a peer that is gone stops holding
 * even a roced that is always late. */
static bool softpfc_kept(const struct softpfc *s, struct softpfc_port *e, int p,
                         double until, double *grace, double now)
{
	double keep;
	char what[16];

	double due = *grace > until ? *grace : until;

	if (now < due)
		return true;
	if (now - due < SOFTPFC_STALL_MS || now - until >= SOFTPFC_GRACE_MAX_MS)
		return false;
	keep = softpfc_refresh_ms(s, e, now);
	*grace = now + keep;
	e->c.stall_kept++;
	if (p < 0)
		snprintf(what, sizeof(what), "link pause");
	else
		snprintf(what, sizeof(what), "priority %d", p);
	log_debug(LOG_SUB_WATCHDOG,
	          "%s: %s: its pause ran out %.1f ms ago while roced could "
	          "not run: kept %.0f ms for the peer's refresh",
	          e->ifname, what, now - until, keep);
	return true;
}

void softpfc_expire(struct softpfc *s, double now)
{
	for (size_t i = 0; i < s->n; i++) {
		struct softpfc_port *e = &s->v[i];

		for (unsigned p = 0; p < PFC_NPRIO; p++)
			if (e->until[p] > 0 && e->until[p] <= now &&
			    !softpfc_kept(s, e, (int)p, e->until[p],
			                  &e->grace[p], now))
				softpfc_release(e, p, e->until[p]);
		if (e->lp.until > 0 && e->lp.until <= now &&
		    !softpfc_kept(s, e, -1, e->lp.until, &e->lp.grace, now)) {
			softpfc_end(&e->lp.until, e->lp.since, &e->c.lp_held_ms,
			            e->lp.until);
			e->lp.grace = 0;
		}
		softpfc_sync(s, e);
	}
}

double softpfc_next(const struct softpfc *s)
{
	double next = -1;

	for (size_t i = 0; i < s->n; i++)
		for (unsigned p = 0; p <= PFC_NPRIO; p++) {
			/* the priorities, then the link pause hold */
			double u =
			    p < PFC_NPRIO ? s->v[i].until[p] : s->v[i].lp.until;
			double g =
			    p < PFC_NPRIO ? s->v[i].grace[p] : s->v[i].lp.grace;

			if (u > 0 && g > u)
				u = g;

			if (u > 0 && (next < 0 || u < next))
				next = u;
		}
	return next;
}

void softpfc_kick_frame(const uint8_t mac[6], uint8_t buf[SOFTPFC_KICK_LEN])
{
	memset(buf, 0, SOFTPFC_KICK_LEN);
	memcpy(buf, mac, 6);
	memcpy(buf + 6, mac, 6);
	buf[12] = SOFTPFC_KICK_ETHERTYPE >> 8;
	buf[13] = SOFTPFC_KICK_ETHERTYPE & 0xff;
}

/* A hold's time so far: up to NOW, or to its end if that is past and
 * roced has not released it yet. */
static double softpfc_so_far(double until, double since, double now)
{
	if (until <= 0)
		return 0;
	return (until < now ? until : now) - since;
}

double softpfc_held_ms(const struct softpfc_port *e, unsigned p, double now)
{
	if (p >= PFC_NPRIO)
		return 0;
	return e->c.held_ms[p] + softpfc_so_far(e->until[p], e->since[p], now);
}

double softpfc_paused_ms(const struct softpfc_port *e, unsigned p, double now)
{
	if (p >= PFC_NPRIO)
		return 0;
	return e->c.asked_ms[p] +
	       softpfc_so_far(e->ask[p].until, e->ask[p].since, now);
}

double softpfc_lp_held_ms(const struct softpfc_port *e, double now)
{
	return e->c.lp_held_ms + softpfc_so_far(e->lp.until, e->lp.since, now);
}

void softpfc_kernel(struct softpfc_port *e, const struct softpfc_kcount *k,
                    double now)
{
	const struct softpfc_counters *kc = &k->c;
	struct softpfc_counters *c = &e->c, *o = &e->koff;

	/* The offsets: what this process counted minus what the programs
	 * had (unsigned, modulo 2^64: the sum below comes out right either
	 * way), the time asked for up to NOW likewise. The daemon calls
	 * this as it attaches the programs, so the two overlap by nothing;
	 * a port that counted nothing yet (its entry made since) takes
	 * the programs' counts as they are. */
	if (!e->kernel && (c->rx_frames || c->rx_link_pause || c->rx_link_xon ||
	                   c->rx_malformed)) {
		memset(o, 0, sizeof(*o));
		o->rx_frames = c->rx_frames - kc->rx_frames;
		o->rx_link_pause = c->rx_link_pause - kc->rx_link_pause;
		o->rx_link_xon = c->rx_link_xon - kc->rx_link_xon;
		o->rx_malformed = c->rx_malformed - kc->rx_malformed;
		for (unsigned p = 0; p < PFC_NPRIO; p++) {
			o->rx_pause[p] = c->rx_pause[p] - kc->rx_pause[p];
			o->rx_xon[p] = c->rx_xon[p] - kc->rx_xon[p];
			o->asked_ms[p] = softpfc_paused_ms(e, p, now) -
			                 (kc->asked_ms[p] +
			                  softpfc_so_far(k->ask[p].until,
			                                 k->ask[p].since, now));
		}
	} else if (!e->kernel) {
		memset(o, 0, sizeof(*o));
	}
	e->kernel = true;
	c->rx_frames = kc->rx_frames + o->rx_frames;
	c->rx_link_pause = kc->rx_link_pause + o->rx_link_pause;
	c->rx_link_xon = kc->rx_link_xon + o->rx_link_xon;
	c->rx_malformed = kc->rx_malformed + o->rx_malformed;
	for (unsigned p = 0; p < PFC_NPRIO; p++) {
		c->rx_pause[p] = kc->rx_pause[p] + o->rx_pause[p];
		c->rx_xon[p] = kc->rx_xon[p] + o->rx_xon[p];
		c->asked_ms[p] = kc->asked_ms[p] + o->asked_ms[p];
		e->ask[p].until = k->ask[p].until;
		e->ask[p].since = k->ask[p].since;
		/* the last pause this process read may be newer than the
		 * programs' (another roced's maps, a clock step): the later */
		if (kc->last_pause_ms[p] > c->last_pause_ms[p])
			c->last_pause_ms[p] = kc->last_pause_ms[p];
	}
}

void softpfc_user(struct softpfc_port *e)
{
	e->kernel = false;
}

double softpfc_duration_ms(const struct softpfc_port *e, unsigned p, double now)
{
	return e->kernel ? softpfc_paused_ms(e, p, now)
	                 : softpfc_held_ms(e, p, now);
}
