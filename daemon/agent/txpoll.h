/* txpoll: software PFC's transmit side (issue 8). It reads the backlog of
 * each no-drop queue's leaf on the software ports (txpoll_read: one dump
 * of the kernel's qdisc counters) and feeds it to the decision of
 * lib/pfcwd/pfctx per priority; a pause, a refresh or an XON goes out
 * through the frame layer (frames_send, so it never waits in a queue of
 * its own) on the ports that feed the queue: the other software ports of
 * the same bridge, where the traffic that queues there comes in. A port
 * outside a bridge (a host's) has no feeders and sends nothing.
 *
 * The pace (pfctx_pace): every TXPOLL_FAST_MS while a watched queue holds
 * a backlog, a priority is paused by us or a port is held by its peer,
 * and for TXPOLL_LINGER_MS after. Then the feeders' frame sockets are
 * armed (frames_wake) and the poll sleeps, TXPOLL_IDLE_MS between reads:
 * the first frame a feeder brings in wakes it (txpoll_data_rx) and the
 * fast pace resumes at once. Traffic that queues on a port and can be
 * paused comes in through a feeder, so an idle rig costs next to nothing
 * and a queue starting to fill is still read within a fast interval of
 * its first frame. Where the wake cannot be armed (fake ports, an old
 * kernel) the pace stays fast.
 *
 * Why a dump and a wake rather than a cheaper read: on Linux 6.18 a
 * qdisc dump does not filter on tcm_ifindex, a class dump per port costs
 * more than the one qdisc dump (more system calls for as many messages),
 * and a GET of one qdisc or class is sent to every tc listener as a
 * notification besides its answer (roced's own mirror among them).
 *
 * Thresholds: `pause buffer-size N pause-threshold N resume-threshold N`
 * of the priority (policy_iface_pause_buffer), else pfctx_defaults() from
 * the leaf's limit, the MTU, the port's speed and TXPOLL_REACTION_MS.
 *
 * A feeder paused by several congested ports of its bridge gets XON only
 * once none of them wants it paused any more. Frames sent are counted in
 * the feeder's software PFC counters (TxPPP, tx-pause, tx-xon). Nothing
 * here writes to the kernel's configuration.
 *
 * ROCED_TXPOLL_REFERENCE set in the environment (benchmarks only) polls
 * every TXPOLL_FAST_MS whatever the queues hold, as roced did before the
 * pace: bench/txpoll and bench/pfc compare the two in one run.
 */
#ifndef ROCED_TXPOLL_H
#define ROCED_TXPOLL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "agent/frame.h"
#include "agent/softpfc.h"
#include "core/ports.h"
#include "kernel/nlb.h"
#include "model/policy.h"
#include "pfcwd/pfctx.h"

/* The pace while a port with a no-drop queue has feeders (a read costs a
 * qdisc dump of the whole namespace): fast while something is queued,
 * paused or held and for the linger after; then the wake is armed and a
 * read comes only every TXPOLL_IDLE_MS, in case something filled a queue
 * without a frame of a feeder (which roced could not pause anyway). */
#define TXPOLL_FAST_MS   2.0
#define TXPOLL_IDLE_MS   1000.0
#define TXPOLL_LINGER_MS 100.0
/* From crossing xoff to the peer's queue held, for the default
 * thresholds: a fast poll (a queue that starts to fill wakes the poll
 * with its first frame), and software PFC's hold on the peer (roced(8),
 * "Holding a queue": median 2.2 ms). */
#define TXPOLL_REACTION_MS (TXPOLL_FAST_MS + 2.2)

#define TXPOLL_FEEDERS_MAX 64

struct txpoll_port {
	char ifname[POLICY_IFNAME_MAX];
	int ifindex, master;
	uint8_t queues;                /* no-drop queues with a tbf leaf */
	uint8_t prios[POLICY_NQUEUES]; /* each queue's priorities */
	struct pfctx_thresholds t[POLICY_NPRIO];
	struct pfctx_prio s[POLICY_NPRIO];
	bool configured_thresholds[POLICY_NPRIO];
	uint32_t backlog[POLICY_NQUEUES]; /* the last txpoll_read()'s */
	/* The ports that feed it: the bridge's other ports with a frame
	 * socket (at the last sync). */
	char feeders[TXPOLL_FEEDERS_MAX][POLICY_IFNAME_MAX];
	/* The priorities each feeder has PFC on for (its applied plan):
	 * PFC goes out of a port only for those, as a switch with PFC
	 * off on a port sends none there. */
	uint8_t feeder_pfc[TXPOLL_FEEDERS_MAX];
	size_t nfeeders;
};

struct txpoll {
	struct txpoll_port *v;
	size_t n;
	double next_ms; /* 0: not polling */
	uint8_t queues; /* every port's watched queues */
	struct pfctx_pace pace;
	bool reference; /* ROCED_TXPOLL_REFERENCE: always the fast pace */
	/* The frame ports that feed a polled port: the ones armed. */
	char (*wakers)[POLICY_IFNAME_MAX];
	size_t nwakers;
	bool armed;  /* every waker's wake is armed: the pace may sleep */
	bool nowake; /* arming failed since the last sync: stay fast */
	struct nlb *nl;
	struct frames *frames;
	struct softpfc *softpfc;
	uint64_t polls, fast_polls, wakes;
};

void txpoll_init(struct txpoll *t);
void txpoll_free(struct txpoll *t);
/* Follow the applied plans of R and policy P. */
void txpoll_sync(struct txpoll *t, const struct ports *r,
                 const struct policy *p, double now);
int txpoll_wait(const struct txpoll *t, double now);
void txpoll_tick(struct txpoll *t, double now);
/* Read the backlog of every watched queue (T->v[i].backlog[q], 0 for a
 * queue the kernel no longer shows) in one dump. Returns 0 or -errno;
 * the backlogs are all 0 on failure. Others that need the ports'
 * backlogs (link pause) call it too. */
int txpoll_read(struct txpoll *t);
/* A frame came in on a feeder while the wake was armed (a frame_rx_fn
 * for FRAME_DATA; ARG is the struct txpoll): disarm, poll fast. */
void txpoll_data_rx(void *arg, const char *ifname, const uint8_t *buf,
                    size_t len, double now);
/* A port began to be held (its peer paused it): its queues may fill with
 * nothing leaving, so poll at the fast pace from now on. */
void txpoll_hurry(struct txpoll *t, double now);
const struct txpoll_port *txpoll_find(const struct txpoll *t,
                                      const char *ifname);

#endif
