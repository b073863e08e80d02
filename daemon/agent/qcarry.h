/* qcarry: the queues' counters carried over a leaf qdisc's replacement.
 *
 * A tc qdisc's counters live and die with it: when roced replaces a
 * queue's leaf (the watchdog shutting or restoring a queue, a reload
 * that changes its kind, the repair of a leaf someone else replaced),
 * the new leaf counts from 0, and a Prometheus counter read from it
 * would go down (a no-drop queue's drops read 20832, then 0). roced's
 * own counters go on from what the old leaf had counted, so that they
 * only ever grow while roced runs; a restart of roced is the one reset,
 * which Prometheus sees and handles by the start time.
 *
 * Every reading of a leaf (the sampler's, each show's) is offered here.
 * A reading where a counter went back is a new leaf: what the last
 * reading of the old one held is added to the queue's carry. What the
 * old leaf counted after its last reading is not known (the sampler
 * reads leaves every 2 ms while traffic flows, and at each watchdog
 * poll, so that is little); nothing is ever counted twice.
 *
 * The same readings give each queue's watermarks: the largest backlog
 * (bytes queued) any reading saw, since three moments: the operator's
 * last `clear qos statistics` (USER, show queuing interface's peak),
 * the metrics textfile's last write (PERIODIC: a burst between two
 * scrapes that the sampled backlog gauge misses) and roced's start
 * (PERSISTENT). A burst shorter than the sampler's period (2 ms while
 * traffic flows) can still pass unseen.
 *
 * Keyed by ifindex: a port whose link is created again is a new port.
 */
#ifndef ROCED_QCARRY_H
#define ROCED_QCARRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/policy.h"

/* The counters carried, each a sum over the queue's leaves. */
struct qcarry_count {
	uint64_t packets, bytes, drops, ecn;
};

/* Which fields a reading has (QCARRY_ALL: every one). */
#define QCARRY_PACKETS 0x1u
#define QCARRY_BYTES   0x2u
#define QCARRY_DROPS   0x4u
#define QCARRY_ECN     0x8u
#define QCARRY_ALL     0xfu

/* A queue's watermarks: since a clear, a textfile write, the start. */
enum qcarry_peak {
	QCARRY_PEAK_USER,
	QCARRY_PEAK_PERIODIC,
	QCARRY_PEAK_PERSISTENT,
};
#define QCARRY_NPEAKS (QCARRY_PEAK_PERSISTENT + 1)

struct qcarry_queue {
	struct qcarry_count last;     /* the current leaf's last reading */
	struct qcarry_count base;     /* what the leaves before it counted */
	uint64_t resets;              /* leaves replaced, as seen */
	uint32_t peak[QCARRY_NPEAKS]; /* the largest backlog seen, bytes */
	/* A no-drop queue of a software port that pauses its feeders:
	 * its xoff (0: none known), the time its readings found it at or
	 * above xoff (ms, from such a reading to the next), and the most
	 * bytes above xoff a reading found (the headroom a burst took
	 * before the pause stopped it), since roced started. */
	uint32_t xoff;
	double above_xoff_ms;
	uint32_t headroom_peak;
};

struct qcarry_port {
	int ifindex;
	struct qcarry_queue q[POLICY_NQUEUES];
};

struct qcarry {
	struct qcarry_port *v;
	size_t n;
};

void qcarry_free(struct qcarry *c);
/* A reading RAW of queue Q of port IFINDEX, with the fields of HAVE.
 * TOTAL (may be NULL) gets each counter since roced started: the carry
 * plus RAW (the last reading for a field not in HAVE). Returns 0, or
 * -ENOMEM (TOTAL is then RAW) or -EINVAL (Q or IFINDEX out of range). */
int qcarry_observe(struct qcarry *c, int ifindex, unsigned q, unsigned have,
                   const struct qcarry_count *raw, struct qcarry_count *total);

/* A reading of BYTES queued in queue Q of port IFINDEX: each watermark
 * grows to it. Returns 0, -ENOMEM or -EINVAL (out of range). */
int qcarry_backlog(struct qcarry *c, int ifindex, unsigned q, uint32_t bytes);
/* The transmit side's reading of queue Q of port IFINDEX against its
 * XOFF: BYTES queued now, ABOVE_MS the time since its last reading when
 * that one was at or above xoff (else 0). Returns 0, -ENOMEM, -EINVAL. */
int qcarry_xoff(struct qcarry *c, int ifindex, unsigned q, uint32_t xoff,
                uint32_t bytes, double above_ms);
/* Watermark K starts again from 0 on port IFINDEX (0: every port). */
void qcarry_peak_reset(struct qcarry *c, enum qcarry_peak k, int ifindex);
/* Queue Q of port IFINDEX, or NULL when it was never read. */
const struct qcarry_queue *qcarry_find(const struct qcarry *c, int ifindex,
                                       unsigned q);

#endif
