/* deadlock: PFC deadlock detection and breaking on software PFC ports,
 * the runtime side of lib/proto/pfcdl.h.
 *
 * Every DEADLOCK_TICK_MS it takes the node's wait edges from software
 * PFC and its transmit side: a port held by its peer's pause for a
 * priority whose queue pauses feeders waits on that peer. It tells each
 * feeder's LLDP neighbour so, in the wait chains TLV (lldp_agent's, a
 * fast start when they change), extending what the held port's
 * neighbour said. A chain received on a held port that comes back to
 * this node is a cycle; once the port has been held for
 * DEADLOCK_CONFIRM_MS the cycle is reported (show queuing pfc-queue,
 * the log) and, at the node with the lowest ID of the cycle only, broken:
 * that port stops honouring pause for the priority until its queue has
 * drained to xon (at least DEADLOCK_BREAK_MIN_MS, at most
 * DEADLOCK_BREAK_MAX_MS), so the queue the cycle froze drains into its
 * peer, its XON unfreezes the node behind it, and so on round the
 * cycle. The same port breaks no cycle again for DEADLOCK_HOLDOFF_MS,
 * which lets the chains of the old one die out.
 *
 * The agent decides; agents.c takes a breaking port's priorities off
 * what software PFC honours, and the hold's release goes through compile
 * -> diff -> apply like any other. The node's ID is the lowest MAC
 * address of its LLDP ports.
 */
#ifndef ROCED_DEADLOCK_H
#define ROCED_DEADLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "agent/lldp_agent.h"
#include "agent/softpfc.h"
#include "agent/txpoll.h"
#include "proto/pfcdl.h"

#define DEADLOCK_TICK_MS      100.0
#define DEADLOCK_CONFIRM_MS   200.0
#define DEADLOCK_BREAK_MIN_MS 50.0
#define DEADLOCK_BREAK_MAX_MS 1000.0
#define DEADLOCK_HOLDOFF_MS   500.0
/* A port that saw a cycle releases the switches it paused at xon for
 * this long after it last saw it: the chains die out as soon as the
 * break lets the ring move, before the queues have drained to xon. */
#define DEADLOCK_RELEASE_MS 5000.0
/* A cycle is logged at most this often per port and priority (the
 * others counted, said with the next line). */
#define DEADLOCK_LOG_MS 10000.0

struct deadlock_prio {
	bool waits;    /* held by the peer, pausing feeders */
	bool cycle;    /* ... and a chain from the peer comes back here */
	bool breaker;  /* this node has the cycle's lowest ID */
	bool breaking; /* pause not honoured now, to break it */
	unsigned len;  /* the cycle's nodes: chain.hop[0..len-1] */
	struct pfcdl_chain chain; /* as received on the port */
	uint64_t feeders;         /* txpoll's feeder bits it pauses */
	char feeder_names[128];   /* their names, for show and the log */
	double cycle_ms;          /* when this cycle was first seen */
	double break_ms;          /* when the last break began */
	double break_end_ms;      /* ... and ended (0: never) */
	double held_ms; /* how long the port was held when last detected */
	double seen_ms; /* when the cycle was last seen, confirmed (0: never) */
	uint64_t detected, broken;
	double log_ms;
	unsigned unlogged;
};

struct deadlock_port {
	char ifname[POLICY_IFNAME_MAX];
	char peer[LLDP_ID_TEXT_MAX]; /* the neighbour it waits on */
	struct deadlock_prio p[8];
	bool mark;
};

struct deadlock {
	struct deadlock_port *v;
	size_t n;
	struct pfcdl_id self;
	double next_ms; /* 0: not yet */
	/* Asleep: at the last tick no port waited, broke or saw a cycle,
	 * and no chain went out: the ticks could only say the same again
	 * until software PFC holds a port (deadlock_wake). */
	bool idle;
	bool always; /* ROCED_WDPOLL_REFERENCE: never asleep (benchmarks) */
	uint64_t detected, broken;
	/* ROCED_DEADLOCK_NOBREAK set in the environment (benchmarks only):
	 * cycles are reported, never broken, so that the watchdog alone
	 * can be measured against the breaker. */
	bool nobreak;
};

void deadlock_init(struct deadlock *d);
void deadlock_free(struct deadlock *d);
/* The wait edges of the ports TX polls, as of NOW, with SP's holds and
 * what LLDP's neighbours say; the chains go out through LLDP. Returns
 * true when a port's breaking priorities changed (software PFC must be
 * configured again: deadlock_breaking()). */
bool deadlock_tick(struct deadlock *d, struct lldp_agent *lldp,
                   const struct softpfc *sp, const struct txpoll *tx,
                   double now);
/* When deadlock_tick() is due next (ms; -1: never, or asleep). */
double deadlock_next(const struct deadlock *d, const struct txpoll *tx);
/* Software PFC began to hold a port at NOW: the ticks resume, on their
 * grid (the next one at or after NOW). */
void deadlock_wake(struct deadlock *d, double now);
/* The priorities IFNAME must not honour pause for now. */
uint8_t deadlock_breaking(const struct deadlock *d, const char *ifname);
/* The priorities of IFNAME in a cycle at NOW: breaking it, or seen
 * confirmed within DEADLOCK_RELEASE_MS (txpoll_port.in_cycle). */
uint8_t deadlock_in_cycle(const struct deadlock *d, const char *ifname,
                          double now);
const struct deadlock_port *deadlock_find(const struct deadlock *d,
                                          const char *ifname);

#endif
