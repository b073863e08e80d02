/* txpoll: the transmit side of software flow control, both kinds of
 * frame: per-priority PFC (software PFC) and 802.3x link pause
 * (`flowcontrol send on`). It reads the backlog of the queues it watches
 * on the software ports (txpoll_read, through the shared sampler) and
 * feeds it to the decision of lib/pfcwd/pfctx per slot: one slot per
 * no-drop priority, whose queue is the priority's leaf and whose frame
 * a PFC frame for it, and one slot for link pause (TXPOLL_LP), whose
 * queue is the sum of every leaf of the port and whose frame an 802.3x
 * pause. A pause, a refresh or an XON goes out through the frame layer
 * (frames_send, so it never waits in a queue of its own) on the ports
 * that feed the queue, where the traffic that queues there comes in:
 * the other software ports of the same bridge,
 * and, when the kernel routes to the port (a route of the main table
 * leaves through it, or through its bridge: an SVI), every port with a
 * frame socket whose own layer-3 device carries routes (a routed port,
 * or a port of a bridge with routes: traffic entering an SVI is paused at
 * the bridge port it came in on). Which of those a pause goes to is
 * what the kernel counted (contrib.h): a routed feeder's frames whose
 * destination the cached routing tables send out of the port. The
 * feeders follow route and neighbour changes (kernel/route.h, a sync
 * at each change); a feeder that a change drops while paused stays one
 * until its XON, so nothing is left paused. A port with no routes
 * through it and no bridge (a host's) has no feeders and sends nothing.
 * Each feeder says which slots may send out of it (feeder_slots): the
 * priorities its applied plan runs PFC for (a switch with PFC off on a
 * port sends none there), and link pause when it is a port of the same
 * bridge with `flowcontrol send on`. A port in a bridge whose other
 * ports send link pause has the link pause slot (LP), and then its every
 * queue is read: link pause protects them all.
 *
 * What a read costs: the backlogs come from the sampler the watchdog and
 * link pause share (agent/qstats.h). On Linux 6.18 a qdisc dump does not
 * filter on tcm_ifindex, so reading every port (a scan) is one dump of
 * every qdisc of the namespace; a class dump of one port costs about a
 * tenth of that at 32 ports. So each port is read as often as it needs:
 *
 *   busy (a backlog in a watched queue, a pause of ours, a hold by its
 *   peer): every TXPOLL_FAST_MS;
 *   active (its watched queues sent something within TXPOLL_LINGER_MS,
 *   no backlog): before its queues could reach xoff at
 *   TXPOLL_STEADY_SAFETY times the rate they send, between
 *   TXPOLL_FAST_MS and TXPOLL_STEADY_MS;
 *   otherwise: at the scans, every TXPOLL_SCAN_MS while some port is
 *   busy or active and for TXPOLL_LINGER_MS after, and at once when a
 *   feeder's frame wakes the poll.
 *
 * Asleep (no port busy or active, the linger over), the feeders' frame
 * sockets are armed (frames_wake) and a scan comes after TXPOLL_IDLE_MS,
 * each next one twice as late up to TXPOLL_IDLE_MAX_MS while they find
 * nothing queued (a scan that finds something, a frame, a hold start
 * again at TXPOLL_IDLE_MS); asleep, the feeders can have sent nothing
 * (their first frame would have woken the poll), so an idle scan does
 * not restart the contributors' windows (a read of the kernel's counts
 * each):
 * the first frame a feeder brings in disarms that feeder alone and brings
 * a scan at once (txpoll_data_rx); the other feeders stay armed for their
 * own first frame. Traffic that queues on a port and can be paused comes
 * in through a feeder, so an idle rig costs next to nothing and a queue
 * starting to fill is read within a fast interval of its first frame; a
 * feeder already sending that turns to a port that carried nothing is
 * seen at the next scan. Where the wake cannot be armed (fake ports, an
 * old kernel) every poll is a fast scan.
 *
 * Thresholds: `pause buffer-size N pause-threshold N resume-threshold N`
 * of the priority (policy_iface_pause_buffer), else pfctx_defaults() from
 * the leaf's limit, the MTU, the port's speed and TXPOLL_REACTION_MS. The
 * link pause slot takes the smallest pause buffer that applies to the
 * port, else the defaults for its smallest leaf (the total is never below
 * any one queue's backlog, so no queue overflows before the pause).
 *
 * A feeder paused by several congested ports of its bridge gets XON only
 * once none of them wants it paused any more. Frames sent are counted in
 * the feeder's software PFC counters (TxPPP, tx-pause, tx-xon; link
 * pause's tx_link_pause, tx_link_xon). Nothing here writes to the
 * kernel's configuration.
 *
 * ROCED_TXPOLL_REFERENCE set in the environment (benchmarks only) scans
 * every TXPOLL_FAST_MS whatever the queues hold, as roced did before the
 * pace; ROCED_QSTATS_REFERENCE scans at every fast poll and disarms every
 * feeder at the first frame, with the pace of pfctx_pace (fast while a
 * port is busy and for TXPOLL_LINGER_MS after), as roced did before the
 * shared sampler: bench/txpoll and bench/pfc compare them in one run.
 * ROCED_TXPOLL_IDLE_REFERENCE: the idle scans every TXPOLL_IDLE_MS, each
 * restarting the windows, as roced did before (bench/txpoll -w).
 */
#ifndef ROCED_TXPOLL_H
#define ROCED_TXPOLL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "agent/contrib.h"
#include "agent/frame.h"
#include "agent/qstats.h"
#include "agent/softpfc.h"
#include "registry/ports.h"
#include "kernel/nlb.h"
#include "kernel/route.h"
#include "model/policy.h"
#include "pfcwd/pfctx.h"

/* The pace (see above): a busy port's reads, the sleep between scans
 * when nothing is busy or active, in case something filled a queue
 * without a frame of a feeder (which roced could not pause anyway), and
 * how long the scans go on after the last busy or active poll. */
#define TXPOLL_FAST_MS     2.0
#define TXPOLL_IDLE_MS     1000.0
#define TXPOLL_IDLE_MAX_MS 8000.0
#define TXPOLL_LINGER_MS   100.0
/* A feeder's first frame brings this many scans at the fast pace: the
 * queue its traffic goes to may show it only on the next. */
#define TXPOLL_WAKE_SCANS 3
/* Every port read (a scan: one qdisc dump), while awake. */
#define TXPOLL_SCAN_MS 100.0
/* A port whose queues carry traffic without a backlog is read again
 * before they could reach xoff at TXPOLL_STEADY_SAFETY times the rate they
 * send at, at most TXPOLL_STEADY_MS and at least TXPOLL_FAST_MS later:
 * light traffic costs few reads, and a queue that starts to fill under
 * heavy traffic is read at the fast pace. */
#define TXPOLL_STEADY_MS     20.0
#define TXPOLL_STEADY_SAFETY 4.0
/* From crossing xoff to the peer's queue held, for the default
 * thresholds: a fast poll (a queue that starts to fill wakes the poll
 * with its first frame), and software PFC's hold on the peer (roced(8),
 * "Holding a queue": median 2.2 ms). */
#define TXPOLL_REACTION_MS (TXPOLL_FAST_MS + 2.2)

/* An XON releases one paused feeder that is a switch (with every paused
 * host: see txpoll_xon_one()); the next switch goes once the queue is
 * back at or below xon this long after (pfctx_stagger()): five reaction
 * times, so that the burst of the one released has arrived and shows in
 * the backlog even when its roced is some polls late, and the queue,
 * at xon half a headroom deep at least, does not run dry meanwhile. */
#define TXPOLL_STAGGER_MS (5 * TXPOLL_REACTION_MS)
/* ... once its burst showed and drained; a switch whose burst never
 * showed goes this long after the last XON: the one released held
 * nothing, or its roced has still not run (a stall of a process lasted
 * 130-420 ms with both cores loaded: softpfc.h). */
#define TXPOLL_STAGGER_QUIET_MS 500.0

#define TXPOLL_FEEDERS_MAX 64
/* The slots: priorities 0-7 (PFC), and link pause, whose queue (in the
 * arrays kept per queue) is TXPOLL_LP_Q, the sum of every leaf. */
#define TXPOLL_LP     POLICY_NPRIO
#define TXPOLL_SLOTS  (POLICY_NPRIO + 1)
#define TXPOLL_LP_Q   POLICY_NQUEUES
#define TXPOLL_LP_BIT (1u << TXPOLL_LP)
/* While a port carries traffic with its queue empty, the window of what
 * its feeders sent starts anew at most this often: a pause goes to the
 * feeders whose traffic entered the queue since (contrib.h). */
#define TXPOLL_WINDOW_MS 50.0
/* A queue above xoff at the first look, nothing counted yet (roced just
 * started): how long its pause waits for the feeders' first counts
 * before it goes to every feeder. */
#define TXPOLL_COUNT_WAIT_MS 20.0
/* A routed port's feeders changed by a route change: said at most this
 * often per port (counted always). */
#define TXPOLL_ROUTE_LOG_MS 60000.0

struct txpoll_port {
	char ifname[POLICY_IFNAME_MAX];
	int ifindex, master;
	uint8_t queues;                /* no-drop queues with a tbf leaf */
	uint8_t prios[POLICY_NQUEUES]; /* each queue's priorities */
	bool lp;         /* has the link pause slot (some feeder sends it) */
	uint8_t rqueues; /* the queues read: QUEUES, every one with LP */
	struct pfctx_thresholds t[TXPOLL_SLOTS];
	struct pfctx_prio s[TXPOLL_SLOTS];
	bool configured_thresholds[TXPOLL_SLOTS];
	uint32_t backlog[POLICY_NQUEUES]; /* the last txpoll_read()'s */
	bool fresh;                       /* read by the last txpoll_read() */
	/* Priorities in a cycle of pause (deadlock.h; set by the agents):
	 * the switches this port paused are released at xon, as hosts are,
	 * not once the queue is all but empty. In a cycle the switch
	 * behind is the next node round it: released only at xon_switch,
	 * which the hosts' refill keeps the queue from reaching, it stayed
	 * held, the cycle froze again after every break, and the ring of
	 * pfc_deadlock.sh was held for 30 s through 39 breaks. */
	uint8_t in_cycle;
	bool busy; /* a backlog, a pause of ours or a hold at its last read */
	double read_ms; /* its last read */
	/* The last time the port was busy or its queues sent something
	 * (< 0: never), from what its leaves and classes had sent at their
	 * last reads (CNT). */
	double active_ms;
	struct txpoll_count {
		bool set;
		double at_ms;
		uint64_t pkts[POLICY_NQUEUES], bytes[POLICY_NQUEUES];
	} cnt[2]; /* the leaves' (qdisc dump), the classes' (class dump) */
	double steady_ms; /* its read interval while active, not busy */
	/* The ports that feed it: the bridge's other ports with a frame
	 * socket, and its routed feeders (at the last sync). */
	char feeders[TXPOLL_FEEDERS_MAX][POLICY_IFNAME_MAX];
	/* The slots that may send out of each feeder (bit p: PFC for
	 * priority p, TXPOLL_LP_BIT: link pause; see above). */
	uint16_t feeder_slots[TXPOLL_FEEDERS_MAX];
	int feeder_idx[TXPOLL_FEEDERS_MAX];    /* their ifindexes */
	int feeder_master[TXPOLL_FEEDERS_MAX]; /* their bridges (0: none) */
	size_t nfeeders;
	size_t nrouted; /* how many of them feed it through routes */
	bool routed;    /* routes leave through it (its bridge) at the sync */
	/* Route changes that changed its feeders, and when that was last
	 * logged (logged at most every TXPOLL_ROUTE_LOG_MS). */
	uint64_t route_moves;
	double route_log_ms;
	/* The feeders (bit k: feeders[k]) each slot is paused out of
	 * by this port: the contributors to its queue, kept until XON. */
	uint64_t paused_by[TXPOLL_SLOTS];
	/* The contributors of each slot's last pause, kept past its
	 * XON: paused, they sent nothing, so a pause right after the XON
	 * sees no count grow and goes to them, not to every feeder. */
	uint64_t last_by[TXPOLL_SLOTS];
	/* The feeder (bit) each slot's next staggered XON starts from:
	 * the one after the last released, so that each gets its turn. */
	unsigned xon_next[TXPOLL_SLOTS];
	/* What each feeder had sent toward each queue (TXPOLL_LP_Q: any) at
	 * the start of the window (contrib.h), when (CBASE_MS), and for
	 * which queues. */
	uint64_t cbase[POLICY_NQUEUES + 1][TXPOLL_FEEDERS_MAX];
	double cbase_ms[POLICY_NQUEUES + 1];
	uint16_t cbase_ok;
	/* The queues whose first pause waits for counts (TXPOLL_COUNT_WAIT_MS
	 * from CWAIT_MS). */
	uint8_t cwait;
	double cwait_ms[POLICY_NQUEUES];
};

struct txpoll {
	struct txpoll_port *v;
	size_t n;
	double next_ms; /* 0: not polling */
	uint8_t queues; /* every port's watched queues */
	struct pfctx_pace pace;
	bool reference; /* ROCED_TXPOLL_REFERENCE: always the fast pace */
	bool idle_ref;  /* ROCED_TXPOLL_IDLE_REFERENCE: idle scans each 1 s */
	double idle_ms; /* the next idle scan's interval */
	/* Each frame port's layer-3 device (its bridge, else itself) and
	 * whether routes left through it at the last sync
	 * (txpoll_routes_moved). */
	struct txpoll_l3 {
		int dev;
		bool routed;
	} * l3;
	size_t nl3;
	/* The frame ports that feed a polled port: the ones armed. */
	char (*wakers)[POLICY_IFNAME_MAX];
	size_t nwakers;
	bool armed;  /* every waker's wake is armed: the pace may sleep */
	bool nowake; /* arming failed since the last sync: stay fast */
	struct nlb *nl;
	struct qstats *qs;   /* the daemon's shared sampler */
	double scan_ms;      /* the last read of every port; < 0: none */
	bool rescan;         /* traffic came in or the ports changed */
	unsigned wake_scans; /* scans still due at the fast pace */
	double busy_ms;      /* the last poll with a port busy or active */
	int *idx;            /* scratch: the ports read between scans */
	struct frames *frames;
	struct softpfc *softpfc;
	/* The bridge of a port, 0 for none (NULL: frames_port_master();
	 * tests give their own). */
	int (*master_fn)(const char *ifname);
	/* What each port feeds (NULL: every feeder is paused), and the
	 * registry whose plans classify it. */
	struct contrib *contrib;
	const struct ports *ports;
	/* The routing and neighbour tables (NULL: no routed feeders). */
	const struct route_cache *routes;
	/* Is feeder IFNAME's LLDP neighbour a switch (nonzero; the
	 * watchdog's test, agents.c)? Only switches' XONs are staggered
	 * (TXPOLL_STAGGER_MS). NULL: every feeder is (tests). */
	unsigned (*switch_peer)(void *arg, const char *ifname);
	void *switch_arg;
	uint64_t polls, fast_polls, wakes, scans;
};

void txpoll_init(struct txpoll *t);
void txpoll_free(struct txpoll *t);
/* Follow the applied plans of R (their no-drop queues, software PFC's
 * leaves, the ports with `flowcontrol send on`, the pause thresholds
 * compile put in them). */
void txpoll_sync(struct txpoll *t, const struct ports *r, double now);
int txpoll_wait(const struct txpoll *t, double now);
void txpoll_tick(struct txpoll *t, double now);
/* Would a sync now give another port other routed feeders: do routes
 * leave through another set of ports than at the last sync? (A change of
 * neighbours, or of routes that leave through the same ports, does not
 * change the feeders: no sync, which would restart every window and
 * re-arm every wake.) */
bool txpoll_routes_moved(const struct txpoll *t);
/* Read the backlog of the watched queues as of NOW through T->qs
 * (T->v[i].backlog[q], 0 for a queue the kernel no longer shows; FRESH
 * says which ports were read): every port at a scan, else only the
 * active ones. Returns 0 or -errno; the backlogs are all 0 on failure. */
int txpoll_read(struct txpoll *t, double now);
/* A frame came in on a feeder while the wake was armed (a frame_rx_fn
 * for FRAME_DATA; ARG is the struct txpoll): disarm, poll fast. */
void txpoll_data_rx(void *arg, const char *ifname, const uint8_t *buf,
                    size_t len, double now);
/* A port began to be held (its peer paused it): its queues may fill with
 * nothing leaving, so poll at the fast pace from now on. */
void txpoll_hurry(struct txpoll *t, double now);
const struct txpoll_port *txpoll_find(const struct txpoll *t,
                                      const char *ifname);
/* Does IFNAME send SLOT's frames (TXPOLL_LP: link pause) for some
 * congested port? */
bool txpoll_feeds(const struct txpoll *t, const char *ifname, unsigned slot);

#endif
