/* pfctx: software PFC's transmit decisions. See pfctx.h. */
#include "pfcwd/pfctx.h"

/* One quantum is 512 bit times. */
#define PFCTX_QUANTUM_BITS 512.0

void pfctx_defaults(uint32_t buffer, uint32_t mtu, uint32_t speed_mbps,
                    double reaction_ms, struct pfctx_thresholds *t)
{
	double bps = (speed_mbps ? speed_mbps : 10000) * 1e6;
	/* In flight before the peer stops: the line rate for the reaction
	 * time, plus the frame the peer is sending when the pause lands
	 * and the one we were sending when we decided. */
	double headroom = bps / 8.0 * reaction_ms / 1000.0 + 2.0 * mtu;
	double xoff = (double)buffer - headroom;

	/* A buffer too small for the headroom still pauses early rather
	 * than never: at half of it. */
	if (xoff < buffer / 2.0)
		xoff = buffer / 2.0;
	t->xoff = (uint32_t)xoff;
	/* Resume two frames below xoff: the queue has drained enough for
	 * a burst, and pause and resume do not alternate every poll. */
	t->xon = t->xoff > 2 * mtu ? t->xoff - 2 * mtu : 0;
	/* A switch is let go once the queue is all but empty (one frame
	 * left): released, it sends at once, at the speed of the CPU, the
	 * whole queue it held, up to a buffer as large as ours on the same
	 * defaults, and what its own upstream, released in turn as it
	 * empties, sends through it before our pause takes hold again.
	 * Released a headroom below xoff (at least half of xoff), that
	 * still overflowed the spine of two tiers of bridges (4803
	 * frames dropped in a 30 s incast). The queue runs dry for the
	 * time the release takes to arrive (a few polls), once per
	 * drain of a whole xoff. */
	t->xon_switch = mtu < t->xon ? mtu : t->xon;
}

double pfctx_refresh_ms(uint32_t speed_mbps, double min_ms)
{
	double bps = (speed_mbps ? speed_mbps : 10000) * 1e6;
	double ms = PFCTX_QUANTA * PFCTX_QUANTUM_BITS / bps * 1000.0 / 2.0;

	return ms < min_ms ? min_ms : ms;
}

enum pfctx_action pfctx_step(struct pfctx_prio *s,
                             const struct pfctx_thresholds *t, uint64_t backlog,
                             double refresh_ms, double now)
{
	if (!s->paused) {
		if (backlog < t->xoff || !t->xoff)
			return PFCTX_NONE;
		s->paused = true;
		s->sent_ms = now;
		s->pauses++;
		return PFCTX_PAUSE;
	}
	if (backlog <= t->xon) {
		s->paused = false;
		s->xon_ms = now;
		s->grew = false;
		s->xons++;
		return PFCTX_XON;
	}
	if (now - s->sent_ms < refresh_ms)
		return PFCTX_NONE;
	s->sent_ms = now;
	s->pauses++;
	return PFCTX_PAUSE;
}

enum pfctx_action pfctx_stagger(struct pfctx_prio *s,
                                const struct pfctx_thresholds *t,
                                uint64_t backlog, double stagger_ms,
                                double quiet_ms, double refresh_ms, double now)
{
	if (s->paused)
		return PFCTX_NONE; /* pfctx_step()'s */
	/* The clock went back (a test's, or a restart's state): a new
	 * interval from now. */
	if (now < s->xon_ms)
		s->xon_ms = now;
	if (backlog > t->xon_switch)
		s->grew = true;
	if (backlog <= t->xon_switch &&
	    now - s->xon_ms >= (s->grew ? stagger_ms : quiet_ms)) {
		s->xon_ms = now;
		s->grew = false;
		s->xons++;
		return PFCTX_XON;
	}
	if (now < s->sent_ms || now - s->sent_ms >= refresh_ms) {
		s->sent_ms = now;
		s->pauses++;
		return PFCTX_PAUSE;
	}
	return PFCTX_NONE;
}

void pfctx_pace_init(struct pfctx_pace *p, double fast_ms, double idle_ms,
                     double linger_ms)
{
	p->fast_ms = fast_ms;
	p->idle_ms = idle_ms < fast_ms ? fast_ms : idle_ms;
	p->linger_ms = linger_ms;
	p->busy_ms = -1;
}

double pfctx_pace_next(struct pfctx_pace *p, bool busy, double now)
{
	if (busy) {
		p->busy_ms = now;
		return p->fast_ms;
	}
	/* Bursts come in trains: a queue that just drained is likely to
	 * fill again, and the linger keeps the first of them from paying
	 * the idle interval. */
	if (p->busy_ms >= 0 && now - p->busy_ms < p->linger_ms)
		return p->fast_ms;
	return p->idle_ms;
}

double pfctx_pace_hurry(struct pfctx_pace *p, double next_ms, double now)
{
	p->busy_ms = now;
	return next_ms > now + p->fast_ms ? now + p->fast_ms : next_ms;
}
