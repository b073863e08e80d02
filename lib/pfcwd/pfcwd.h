/* pfcwd: the PFC watchdog of one no-drop queue as a pure function of its
 * counters and the time. No I/O, no clock, no logging: the daemon's poller
 * reads the counters, calls pfcwd_poll() once per poll with CLOCK_MONOTONIC
 * milliseconds, logs the events it returns and feeds pfcwd_mitigating()
 * into compile (struct compile_port), so that a storm reaches the kernel
 * through compile -> diff -> apply like everything else.
 *
 * States, as NX-OS names them: monitored -> wait-to-shutdown (the storm
 * condition holds, not yet for the detection time) -> shutdown (a storm:
 * the action applies) -> restored (monitored again, on probation: a storm
 * now makes the next restore wait twice as long) -> monitored.
 *
 * The storm condition of one poll (the rules of SONiC's watchdogs):
 * pause frames that pause (quanta > 0; XON frames never count) were
 * received, the queue is not empty and it transmitted nothing since the
 * last poll; and, where the port has a pause-duration counter, the queue
 * was paused for more than 99 % of the poll. With that counter, a queue
 * that sent fewer packets than it still holds is stuck as well: its peer
 * paused it all along, and what left is the hold leaking (a software
 * hold lets a frame out as its bucket refills), while a queue its peer
 * releases drains what it holds. Any poll without the condition resets
 * the detection: a legitimately paused queue is released (XON, or its
 * pause time runs out) and sends; a storm never lets it. What tells
 * them apart is then how long the pause lasts, so the detection time
 * must exceed the longest legitimate pause: longer at a host than at a
 * switch (roced.conf(5), the host file's watchdog).
 *
 * Restore: automatic once no pause frame arrived for the auto-restore
 * time, fixed once the queue has been shut for the fixed-restore time
 * (whatever arrives), or by hand (pfcwd_recover()). The automatic rule
 * is only trusted on a pause counter that goes on counting while the
 * queue is shut (pfcwd_sample.rx_live): hardware that stops counting once
 * PFC is off for the priority would satisfy it falsely and make the
 * queue flap (sonic-buildimage#29203). Without such a counter the
 * queue is restored on trial (a probe) after the auto-restore time, and
 * every storm on probation doubles the next wait, up to a cap.
 */
#ifndef ROCED_PFCWD_H
#define ROCED_PFCWD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/plan.h"
#include "model/policy.h"

enum pfcwd_state {
	PFCWD_MONITORED,
	PFCWD_WAIT_SHUTDOWN,
	PFCWD_SHUTDOWN,
	PFCWD_RESTORED,
};
#define PFCWD_NSTATES (PFCWD_RESTORED + 1)

/* What a poll did. */
enum pfcwd_event {
	PFCWD_EV_NONE,
	PFCWD_EV_STORM,   /* the queue went into shutdown */
	PFCWD_EV_RESTORE, /* the queue came out of it */
};

/* Restore waits double on each storm on probation, at most this many
 * times (x 32), and never beyond PFCWD_WAIT_CAP_MS. */
#define PFCWD_BACKOFF_MAX 5
#define PFCWD_WAIT_CAP_MS 600000.0
/* A pause-duration counter must cover more than this part of the poll. */
#define PFCWD_PAUSED_RATIO 0.99
/* How much sooner than due a sample may come and still count (the
 * timers' millisecond rounding): the poller samples at the due times
 * (pfcwd_due), so a storm is never declared on less than the detection
 * time, nor a queue restored before its wait. */
#define PFCWD_SLACK_MS 1.0
/* Transit back-pressure. A switch port held because its downstream is
 * congested is released by its peer from time to time (an XON, or the
 * hold ends and the queue sends), each hold as long as the peer's queue
 * takes to drain back to its resume threshold: at a slow bottleneck one
 * or two tiers away, from tens of milliseconds to seconds. A storm never
 * lets go. A queue its peer released (an XON: a storm never sends one) within
 * PFCWD_TRANSIT_MEMORY_MS before the condition began is therefore held to a
 * longer detection time: PFCWD_TRANSIT_FACTOR times the longest hold that ended
 * in a release within that memory, at least the configured detection time, and
 * never beyond PFCWD_TRANSIT_CAP_MS (or the configured time, if longer): a real
 * storm right after transit is still caught, at most that late. The factor is
 * measured (fabric_twotier, 10 Mb/s bottleneck, load 5-13): from one hold to
 * the next, the spine's port towards the congested leaf grew up to 3.5 times
 * (24, 76, 233, 666, 1232, 2025 ms), leaf1's uplink 4.5 times (702, then 3126
 * ms). */
#define PFCWD_TRANSIT_FACTOR    8.0
#define PFCWD_TRANSIT_MEMORY_MS 10000.0
#define PFCWD_TRANSIT_CAP_MS    2000.0
/* A port whose LLDP neighbour is a switch (pfcwd_config.switch_peer)
 * may follow its released holds up to PFCWD_TRANSIT_SWITCH_MAX_MS; a
 * switch's such port (pfcwd_config.switch_port: a tier) starts at
 * PFCWD_TRANSIT_SWITCH_MS. A switch's hold lasts as long as its queue
 * takes to drain, and that queue waits for the tiers behind it:
 * measured at leaf1's uplink, three tiers from the bottleneck, a first
 * hold of 285 ms, then 2532 ms (8.9 times), then up to 4.2 s; its hosts
 * were held as long (3 s, their detection time, was outlasted 9 times in
 * 30 s). A host's port starts at its own detection time: a storm from
 * its switch with no transit before it is caught then; once its switch
 * released it (an XON within PFCWD_TRANSIT_MEMORY_MS) it takes the
 * switch's floor too: with feeders released one at a time (txpoll),
 * the hosts' holds on leaf-spine grew from 36-45 ms to beyond their
 * 3 s detection time (3 false storms per run at 8 x the first hold).
 * The floor, 20 s: with switches released one at a time with one frame
 * left (pfctx), a spine waits on leaf-spine at 10 Mb/s for the other
 * spine's queue to drain as well as its own: first holds of 0.3-8.5 s,
 * and 9.9 s after a first hold of 335 ms (8 x that is below any floor),
 * in three runs at load 12-16; 10 s left no margin. */
#define PFCWD_TRANSIT_SWITCH_MS     20000.0
#define PFCWD_TRANSIT_SWITCH_MAX_MS 30000.0

/* The watchdog's settings for one port, in milliseconds. */
struct pfcwd_config {
	uint32_t poll_ms;
	uint32_t detect_ms;        /* poll x shutdown-multiplier */
	uint32_t auto_restore_ms;  /* 0: no automatic restore */
	uint32_t fixed_restore_ms; /* 0: no fixed restore */
	enum policy_pfcwd_action action;
	/* The port's LLDP neighbour is a switch (bridge or router
	 * enabled): its pause is its own congested queue's back-pressure
	 * until it outlasts 8 times the longest recent released hold
	 * (PFCWD_TRANSIT_SWITCH_MAX_MS at most); on a switch's port
	 * (SWITCH_PORT, bridged), at least PFCWD_TRANSIT_SWITCH_MS, on
	 * another port once the switch released it recently. Not
	 * settings: the poller fills them from LLDP at each poll. */
	bool switch_peer, switch_port;
	/* The switch peer says it is held itself while it pauses this
	 * port (roced's wait chains, LLDP): its pause is transit from the
	 * first hold on, as on a switch's port (the floor, before any
	 * release). A storming peer says no such thing. */
	bool peer_waits;
};

/* The settings of a port's applied plan (compile resolved them: a
 * fabric-internal port's times carry internal-interface-multiplier, as
 * pause legitimately lasts longer inside a fabric). */
void pfcwd_config_from_plan(const struct plan_wd *w, struct pfcwd_config *c);

/* One poll's reading of a queue's counters. Counters are cumulative (they
 * only grow; one that went back, a port replaced or a counter cleared, is
 * taken as a new start and makes a clean poll). */
struct pfcwd_sample {
	uint64_t pause_rx;   /* pause frames with quanta > 0, XON excluded */
	uint64_t tx_packets; /* packets the queue transmitted */
	uint64_t drops;      /* packets the queue dropped */
	uint64_t backlog;    /* packets in the queue now */
	/* The port has a pause-duration counter: PAUSED_US (cumulative). */
	bool has_duration;
	uint64_t paused_us;
	/* PAUSE_RX goes on counting while the queue is shut (roced's own
	 * software counters do; a NIC may not once PFC is off). */
	bool rx_live;
	/* When the last pause frame arrived (ms, the poll's clock), where
	 * the port knows it (software PFC does); 0: unknown, the poll that
	 * saw the count grow stands for it. The quiet time of a shut queue
	 * then starts when the storm really stopped, not at the next poll. */
	double last_pause_ms;
	/* The packets dropped as the queue's parent class counts them,
	 * where the poller read them (HTB counts its leaf's drops in the
	 * class, which outlives a change of leaf): a shut queue's drops are
	 * counted from it, up to the leaf's very last drop before a restore
	 * replaced it (the leaf's own counter goes with the leaf). */
	bool has_class_drops;
	uint64_t class_drops;
	/* XON frames received for the queue's priorities (cumulative),
	 * where the port counts them: a peer that sends XON lets go, which
	 * a storming peer never does. */
	bool has_xon;
	uint64_t xon_rx;
};

struct pfcwd_queue {
	enum pfcwd_state state;
	/* The previous sample and when it was read. */
	bool have_prev;
	struct pfcwd_sample prev;
	double prev_ms;
	/* Polls in a row with the storm condition, since COND_MS. */
	unsigned cond_polls;
	double cond_ms;
	double shut_ms;     /* entered shutdown */
	double quiet_ms;    /* no pause received since (in shutdown) */
	double restored_ms; /* the last restore */
	unsigned backoff;   /* restore waits x 2^BACKOFF */
	bool probe_pending; /* on probation after an automatic restore */
	bool probe;         /* the last restore was a trial (no live
	                       pause counter) */
	/* The class drops of the last sample that had them. */
	bool have_cdrops;
	uint64_t cdrops;
	/* Restored, and the drops of the shut leaf between the sample that
	 * restored it and the apply that replaced it are still to be
	 * counted, by the next sample with class drops (pfcwd_tail()). */
	bool tail;
	/* Statistics (cleared by pfcwd_clear()). */
	uint64_t storms, restores;
	uint64_t drained; /* packets flushed from the queue at a storm */
	uint64_t dropped; /* packets dropped by the queue while shut */
	double last_storm_ms, last_restore_ms; /* 0: never */
	/* The same two counts for the last storm alone (the one going on,
	 * or the last one over): its restore's log line and show's "Total
	 * pkts drained/dropped" tell that storm, not the sum since the
	 * statistics were cleared. A clear leaves them: they belong to the
	 * storm, not to the statistics. */
	uint64_t storm_drained, storm_dropped;
	/* Transit back-pressure (PFCWD_TRANSIT_*): when the peer last
	 * released the queue (0: never, or forgotten) and the longest hold
	 * that ended in a release since the memory began. */
	double rel_ms;
	double rel_hold_ms;
};

/* A queue monitored from scratch. */
void pfcwd_init(struct pfcwd_queue *q);
/* Feed one poll's sample S read at NOW. Returns the event, if any. */
enum pfcwd_event pfcwd_poll(struct pfcwd_queue *q, const struct pfcwd_config *c,
                            const struct pfcwd_sample *s, double now);
/* `priority-flow-control recover`: a shut queue is restored at once, and
 * its backoff forgotten. Returns PFCWD_EV_RESTORE, or NONE when the queue
 * was not shut. */
enum pfcwd_event pfcwd_recover(struct pfcwd_queue *q, double now);
/* Count what a restored queue's shut leaf dropped after the restore's
 * sample, from S (a sample with class drops, taken once the restore is
 * applied; pfcwd_poll() does it too). Returns true when the count is
 * complete (nothing was pending, or S settled it), false while S has no
 * class drops. */
bool pfcwd_tail(struct pfcwd_queue *q, const struct pfcwd_sample *s);
/* `clear queuing pfc-queue`: statistics back to 0; the state stays. */
void pfcwd_clear(struct pfcwd_queue *q);
/* Does the action apply to the queue now (shut, and not alert-only)? This
 * is compile's input. */
bool pfcwd_mitigating(const struct pfcwd_queue *q,
                      const struct pfcwd_config *c);
/* When the queue, shut, will be restored unless pause goes on (NOW
 * included); a negative value when no restore is due by time. */
double pfcwd_restore_due(const struct pfcwd_queue *q,
                         const struct pfcwd_config *c);
/* When a sample decides the next step of Q: the storm, if the condition
 * still holds then (wait-to-shutdown: the condition began at cond_ms),
 * or the restore (pfcwd_restore_due); a negative value when no sample
 * before the next poll can change the state. The poller samples the
 * queue then as well as at its polls: a storm is declared when the
 * condition has held for the detection time, not at the first poll
 * after that (up to a poll later). */
double pfcwd_due(const struct pfcwd_queue *q, const struct pfcwd_config *c);

/* The detection time that applies to a condition that began at FROM:
 * the configured one, longer for a queue in transit back-pressure (its
 * peer released it recently; PFCWD_TRANSIT_*). */
double pfcwd_detect_ms(const struct pfcwd_queue *q,
                       const struct pfcwd_config *c, double from);

/* The states as show writes them: "monitored", "wait-to-shutdown",
 * "shutdown", "restored"; the parse is its inverse (-1 if unknown). */
const char *pfcwd_state_name(enum pfcwd_state s);
int pfcwd_state_parse(const char *s);

/* The state that must survive a restart of roced (state, times, backoff,
 * statistics), as one line of text without a newline, and back. A line
 * loaded takes no sample of the past: the next poll is a new start, and a
 * shut queue counts its quiet time from LOAD_MS (what arrived while roced
 * was down is unknown). Format returns what snprintf would; parse returns
 * 0 or -EINVAL. */
int pfcwd_format(const struct pfcwd_queue *q, char *buf, size_t len);
int pfcwd_parse(struct pfcwd_queue *q, const char *line, double load_ms);

#endif
