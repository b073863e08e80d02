/* pfctx: software PFC's transmit side for one no-drop priority, as a pure
 * function of the queue's backlog and the time (issue 8). No I/O, no
 * clock: the daemon's poller reads the backlog of the no-drop queue's
 * leaf, calls pfctx_step() and sends what it says out of the ports that
 * feed the queue.
 *
 * A backlog at or above xoff pauses the priority (a PFC frame with the
 * largest pause time); while it stays above xon the pause is sent again
 * before the peer's pause time runs out (pfctx_refresh_ms()); once it is
 * at or below xon, one frame with pause time 0 (XON) lets the peer go.
 *
 * Without `pause buffer-size N pause-threshold N resume-threshold N`,
 * pfctx_defaults() derives xoff and xon from the queue's buffer, the MTU,
 * the port's speed and the reaction time: what arrives between crossing
 * xoff and the peer stopping is the port's speed times (the poll + the
 * peer's reaction), plus a frame in flight each way; xoff leaves that much
 * of the buffer free.
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
	uint64_t pauses, xons;
};

struct pfctx_thresholds {
	uint32_t xoff, xon; /* bytes queued */
};

/* The default thresholds of a queue holding BUFFER bytes, on a port of
 * MTU bytes at SPEED_MBPS (0: 10 Gb/s), when crossing xoff reaches the
 * peer's queue REACTION_MS later (our poll and the peer's hold). */
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

#endif
