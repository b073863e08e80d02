/* wdpoll: the PFC watchdog's poller. Every poll interval it
 * reads the counters of each watched no-drop queue, feeds them to the
 * watchdog's state machine (lib/pfcwd) and acts on what it says, through
 * the plan: a storm or a restore changes the port's compile input
 * (ports_watchdog.wd_shut) and asks the daemon for a reconcile of the
 * port. One log line per storm and per restore.
 *
 * Counters, per queue: pause frames received for its priorities
 * (software ports: software PFC's own count, which goes on while pause
 * is ignored; hardware DCB ports: the driver's, read through hwcnt.h each
 * poll, with the pause time where the driver counts it), packets sent,
 * dropped and queued (the leaf qdisc's tc statistics, read through the
 * sampler the transmit side shares, agent/qstats.h: one dump of all
 * qdiscs per poll at most, which also refreshes what offloaded leaves
 * report).
 *
 * Samples: at every poll, and between polls when a sample decides
 * something (pfcwd_due(): the storm once the condition has held for the
 * detection time, the restore once its wait is over) and shortly after
 * software PFC began to hold a queue (WDPOLL_SETTLE_MS after the hold
 * was applied): the condition then starts when the queue stopped, not
 * at the next poll, so a storm is found the detection time after it
 * began, not up to two polls later (bench/watchdog). Software ports
 * give their time paused (softpfc_held_ms, the time the peer asked for)
 * as the pause-duration counter, and the time of their last pause frame.
 *
 * Asleep: while every watched port is a software port whose queues are
 * simply monitored and no MAC Control frame came since the last poll, a
 * poll could only find what the last one found (software PFC's counts
 * are the only counters that start a storm there), so none is taken and
 * the poller has no timer: an idle fabric costs the loop no wake-up.
 * The first frame wakes it (wdpoll_wake) for the next poll on the polls'
 * grid, as if it had polled all along.
 *
 * The log line of a storm and of a restore names the port's LLDP
 * neighbour (wdpoll.neighbour) as lldpd and NX-OS show it.
 *
 * The state of queues that are not simply monitored (shut, or restored
 * and on probation) is kept in the state directory (ctl_state_path
 * ".pfcwd") and loaded at start: a restarted roced neither forgets an
 * ongoing storm nor keeps a recovered queue shut (pfcwd_parse()). The
 * file follows the watchdog's memory: a port no longer configured, or a
 * queue its applied plan does not watch (a record loaded at start
 * included), is dropped from it at the sync that forgets it.
 */
#ifndef ROCED_WDPOLL_H
#define ROCED_WDPOLL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "agent/hwcnt.h"
#include "agent/qstats.h"
#include "agent/softpfc.h"
#include "registry/ports.h"
#include "kernel/nlb.h"
#include "model/policy.h"
#include "nlmsg/tc_stats.h"
#include "pfcwd/pfcwd.h"

struct wdpoll_port {
	char ifname[POLICY_IFNAME_MAX];
	int ifindex;
	bool watched;                  /* the watchdog is on for the port */
	bool internal;                 /* fabric-internal: longer times */
	struct pfcwd_config cfg;       /* its applied plan's settings */
	uint8_t queues;                /* no-drop queues watched */
	uint8_t prios[POLICY_NQUEUES]; /* each queue's priorities */
	struct pfcwd_queue q[POLICY_NQUEUES];
	/* The last poll's leaf statistics. */
	bool seen[POLICY_NQUEUES];
	struct tc_stats_counters st[POLICY_NQUEUES];
	/* Software PFC's entry for the port, as last found (a cache). */
	const struct softpfc_port *sp;
	/* A sample asked for between polls (ms; 0: none), and whether the
	 * current hold of the queue had its sample asked for. */
	double due[POLICY_NQUEUES];
	bool hold_seen[POLICY_NQUEUES];
	uint8_t hold_tries[POLICY_NQUEUES]; /* samples of this hold so far */
	uint8_t take; /* the queues sampled by this tick */
	/* The queues' HTB class drops (read for queues near or in a storm,
	 * and after a restore), and restores whose log line waits for the
	 * shut leaf's last drops (pfcwd_tail). */
	uint8_t cseen;
	uint64_t cdrops[POLICY_NQUEUES];
	const char *restore_how[POLICY_NQUEUES];
	/* A hardware DCB port (its applied plan's DCB part is the
	 * driver's): counters from hwcnt, HP during a poll, HW_ERR the last
	 * read's failure (logged once). */
	bool hw;
	const struct hwcnt_port *hp;
	int hw_err;
};

/* The sample after a hold began waits this long after the hold was
 * applied: the held tbf lets its bucket (a frame's worth of bytes) go
 * when packets come. While the samples of a hold do not find the queue
 * stuck (the bucket went late, or nothing was queued yet: a loaded
 * host), one more is taken as long, this many in all, so that the
 * condition starts when the queue really stopped and not a poll later. */
#define WDPOLL_SETTLE_MS    10.0
#define WDPOLL_SETTLE_TRIES 4

#define WDPOLL_NEIGHBOUR_MAX 200
/* Port IFNAME's LLDP neighbour as one phrase for the log, into BUF:
 * "LLDP neighbour SYSNAME (chassis ID, port ID)", or "no LLDP
 * neighbour" when there is none. */
typedef void (*wdpoll_neighbour_fn)(void *arg, const char *ifname, char *buf,
                                    size_t len);

/* Does port IFNAME's LLDP neighbour say it is a switch (the bridge or
 * router capability enabled): WDPOLL_PEER_SWITCH, with WDPOLL_PORT_SWITCH
 * when the port is a switch's (bridged)? Its pause is then transit
 * back-pressure until it outlasts the transit detection time
 * (pfcwd.h). */
#define WDPOLL_PEER_SWITCH 1u
#define WDPOLL_PORT_SWITCH 2u
/* ... and it says, in roced's wait chains TLV (pfcdl.h), that it is held
 * itself while it pauses this port: its pause is transit from the
 * first hold on (pfcwd_config.peer_waits). */
#define WDPOLL_PEER_WAITS 4u
typedef unsigned (*wdpoll_switch_peer_fn)(void *arg, const char *ifname);

/* Reconcile port IFNAME soon. */
typedef void (*wdpoll_reconcile_fn)(void *arg, const char *ifname);
/* Send the qdisc dump request REQ and call CB for each answer (tests
 * play the kernel's dump with it). Returns 0 or -errno. */
typedef int (*wdpoll_dump_fn)(void *arg, struct nlmsghdr *req, mnl_cb_t cb,
                              void *data);

struct wdpoll {
	struct wdpoll_port *v;
	size_t n;
	/* The poll's period: the shortest of the watched ports' plans. */
	uint32_t poll_ms;
	/* What a storm does, for the state loaded at start (before any
	 * plan is applied): the daemon sets it from the policy it is about
	 * to apply. */
	enum policy_pfcwd_action load_action;
	double next_ms; /* the next poll; 0: not polling */
	char path[512]; /* the state file; "" : none */
	uint64_t netns_cookie;
	/* What the poller needs from the daemon. */
	struct nlb *nl;
	struct ports *ports;
	const struct softpfc *softpfc;
	struct hwcnt *hw; /* hardware ports' counters (NULL: not read) */
	/* The daemon's shared sampler; NULL: OWN, on NL or DUMP. */
	struct qstats *qs, own;
	wdpoll_dump_fn dump; /* NULL: nlb_dump() on NL */
	void *dump_arg;
	wdpoll_reconcile_fn reconcile;
	void *arg;
	wdpoll_neighbour_fn neighbour; /* NULL: no LLDP */
	void *neighbour_arg;
	wdpoll_switch_peer_fn switch_peer; /* NULL: no LLDP (same arg) */
	/* The earliest sample due between polls (0: none). */
	double extra_ms;
	/* Polls done, and those that read the kernel's counters (only
	 * when pause arrived or a queue is shut). */
	uint64_t polls, dumps;
	/* Asleep: every watched port is a software port whose queues are
	 * monitored with nothing new since the last poll, so a poll could
	 * only find what the last one found until a MAC Control frame
	 * comes in (wdpoll_wake). The polls are skipped meanwhile, and
	 * the loop sleeps. QUIET_POLLS counts them. */
	bool quiet;
	uint64_t quiet_polls;
	/* ROCED_WDPOLL_REFERENCE (benchmarks only): never asleep, a poll
	 * every interval, as roced did before; bench/txpoll -w compares. */
	bool reference;
	/* The watched ports' indexes in V, sorted by ifindex (per poll). */
	size_t *byidx;
	size_t nbyidx;
};

void wdpoll_init(struct wdpoll *w);
void wdpoll_free(struct wdpoll *w);
/* Follow the registry's applied plans: which ports are watched (the
 * plan's watchdog on, no-drop queues in it), with the plan's settings
 * (plan_port.wd: compile resolved them from the policy). A queue no
 * longer watched forgets its state (and is no longer shut); a port the
 * registry no longer holds is forgotten, and one whose plan is not
 * applied yet keeps the state loaded for it. A port whose wd_shut
 * changes is reconciled. */
void wdpoll_sync(struct wdpoll *w, double now);
/* Milliseconds until the next poll (-1: not polling). */
int wdpoll_wait(const struct wdpoll *w, double now);
/* Poll when due. */
void wdpoll_tick(struct wdpoll *w, double now);
/* A MAC Control frame (pause, XON) came in at NOW (software PFC counted
 * it): an asleep poller polls again from the next poll on, its samples
 * spanning from the last poll it skipped, as they would have. */
void wdpoll_wake(struct wdpoll *w, double now);
/* After an apply: the queues software PFC has just begun to hold get a
 * sample WDPOLL_SETTLE_MS from NOW. */
void wdpoll_held(struct wdpoll *w, double now);
/* Is a shut queue's restore due by NOW (the next tick decides it)? Its
 * port's pending pause frames must be read first, as a hold's end reads
 * them: a poll that stalled while a storm went on finds hundreds unread,
 * and a restore decided without them trusts a silence that was not. */
bool wdpoll_restore_due(const struct wdpoll *w, double now);

/* `priority-flow-control recover interface IFNAME qos-group Q`: restore
 * a shut queue now. Returns 0, -ENOENT (no such watched port or queue),
 * or -EALREADY (the queue is not shut). */
int wdpoll_recover(struct wdpoll *w, const char *ifname, unsigned q,
                   double now);
/* `clear queuing pfc-queue [interface IFNAME]` (NULL: every port). */
int wdpoll_clear(struct wdpoll *w, const char *ifname);
struct wdpoll_port *wdpoll_find(const struct wdpoll *w, const char *ifname);

/* The state file: load at start (before the first sync: the entries
 * wait there for their ports), save after a change. Return the number
 * loaded / 0, or -errno. */
int wdpoll_load(struct wdpoll *w, double now);
int wdpoll_save(struct wdpoll *w);

#endif
