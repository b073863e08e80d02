/* pfctx: software PFC's transmit side for one no-drop priority, as a pure
 * function of the queue's backlog and the time. No I/O, no
 * clock: the daemon's poller reads the backlog of the no-drop queue's
 * leaf, calls pfctx_step() and sends what it says out of the ports that
 * feed the queue.
 *
 * A backlog at or above xoff pauses the priority (a PFC frame with the
 * largest pause time); while it stays above xon the pause is sent again
 * before the peer's pause time runs out (pfctx_refresh_ms()); once it is
 * at or below xon, one frame with pause time 0 (XON) lets the peer go.
 * Feeders that are switches are let go further down, at xon_switch, and
 * one at a time (pfctx_stagger()): a released switch sends at once the
 * whole queue it held, so releasing two together landed the sum of
 * their queues on ours, more than any headroom holds.
 *
 * Without `pause buffer-size N pause-threshold N resume-threshold N`,
 * pfctx_defaults() derives xoff and xon from the queue's buffer, the MTU,
 * the port's speed and the reaction time: what arrives between crossing
 * xoff and the peer stopping is the port's speed times (the poll + the
 * peer's reaction), plus a frame in flight each way; xoff leaves that much
 * of the buffer free.
 *
 * The poll's pace (pfctx_pace_next()): reading the backlog costs a dump
 * of every qdisc of the namespace, the kernel's only quiet way to read it
 * (a GET of one qdisc or class is answered as a notification to every tc
 * listener too), so the poller reads fast only while it matters: while a
 * watched queue holds a backlog, a priority is paused by us or the port is
 * held by its peer, and for a linger after; otherwise at the idle pace. A
 * queue that starts filling while idle is seen at most one idle interval
 * late, which is why the default thresholds take the idle interval as the
 * poll's part of the reaction time.
 */
#ifndef ROCED_PFCTX_H
#define ROCED_PFCTX_H

#include <stdbool.h>
#include <stdint.h>

/* The pause time sent: the largest. Its length depends on the speed
 * (3.4 ms at 10 Gb/s); the refresh comes at half of it. */
#define PFCTX_QUANTA 0xffffu

enum pfctx_action {
	PFCTX_NONE,
	PFCTX_PAUSE, /* send a pause (first or refresh) */
	PFCTX_XON,   /* send pause time 0 */
};

struct pfctx_prio {
	bool paused;
	double sent_ms; /* when the last pause went out */
	double xon_ms;  /* when the last XON went out */
	/* The backlog went above xon_switch since the last XON (the burst
	 * of the feeder it released showed). */
	bool grew;
	uint64_t pauses, xons;
};

struct pfctx_thresholds {
	uint32_t xoff, xon; /* bytes queued */
	/* Where feeders that are switches are released (<= xon): room for
	 * one whole held queue above it. */
	uint32_t xon_switch;
};

/* The default thresholds of a queue holding BUFFER bytes, on a port of
 * MTU bytes at SPEED_MBPS (0: 10 Gb/s), when crossing xoff reaches the
 * peer's queue REACTION_MS later (our poll and the peer's hold): xoff
 * leaves the headroom H (the speed for the reaction time, plus a frame
 * each way) free, never below half the buffer; xon is two frames below
 * xoff; xon_switch is one frame (never above xon), so that the one
 * switch an XON releases finds room for the whole queue it held (as
 * deep as ours on the same defaults) and what its upstream sends
 * through it while our pause takes hold again. */
void pfctx_defaults(uint32_t buffer, uint32_t mtu, uint32_t speed_mbps,
                    double reaction_ms, struct pfctx_thresholds *t);

/* How often a pause is sent again while the backlog stays above xon:
 * half the pause time at SPEED_MBPS, but never less than MIN_MS (the
 * poll: nothing can be sent more often). */
double pfctx_refresh_ms(uint32_t speed_mbps, double min_ms);

/* One poll of the priority: BACKLOG bytes queued at NOW (ms). */
enum pfctx_action pfctx_step(struct pfctx_prio *s,
                             const struct pfctx_thresholds *t, uint64_t backlog,
                             double refresh_ms, double now);

/* One poll of a priority whose XON released only some of its feeders
 * (the caller keeps which; the rest, switches, stay paused): PFCTX_XON
 * when the next one may go: the backlog at or below xon_switch, and the
 * last one released has sent what it held: its burst showed (the backlog
 * went above xon_switch since the last XON) and drained, STAGGER_MS
 * after that XON at the earliest; or no burst showed in QUIET_MS (it
 * held nothing). A released switch whose roced could not run yet (a
 * loaded machine stalls a process for 100 ms and more) sends its queue
 * late: taking the empty queue STAGGER_MS after its XON for the end of
 * its burst released the next switch too, and both queues landed on
 * ours at once (fabric_leafspine: 3798 dropped in the bottleneck).
 * PFCTX_PAUSE when the pause of those still held is due again (every
 * REFRESH_MS); PFCTX_NONE otherwise. A backlog at xoff is
 * pfctx_step()'s: call it first. */
enum pfctx_action pfctx_stagger(struct pfctx_prio *s,
                                const struct pfctx_thresholds *t,
                                uint64_t backlog, double stagger_ms,
                                double quiet_ms, double refresh_ms, double now);

/* The pace of the poll: FAST_MS while busy and for LINGER_MS after the
 * last busy poll, IDLE_MS otherwise. */
struct pfctx_pace {
	double fast_ms, idle_ms, linger_ms;
	double busy_ms; /* the last poll that found work; < 0: none yet */
};

void pfctx_pace_init(struct pfctx_pace *p, double fast_ms, double idle_ms,
                     double linger_ms);
/* A poll at NOW found work (BUSY) or not: the interval to the next. */
double pfctx_pace_next(struct pfctx_pace *p, bool busy, double now);
/* Something happened that makes the queues busy (a hold began): should a
 * poll due at NEXT_MS come sooner? Returns the time of the next poll. */
double pfctx_pace_hurry(struct pfctx_pace *p, double next_ms, double now);

#endif
