/* txpoll: software PFC's transmit side (issue 8). Every TXPOLL_MS it
 * reads the backlog of each no-drop queue's leaf on the software ports
 * (one dump of the kernel's qdisc counters) and feeds it to the decision
 * of lib/pfcwd/pfctx per priority; a pause, a refresh or an XON goes out
 * through the frame layer (frames_send, so it never waits in a queue of
 * its own) on the ports that feed the queue: the other software ports of
 * the same bridge, where the traffic that queues there comes in. A port
 * outside a bridge (a host's) has no feeders and sends nothing.
 *
 * Thresholds: `pause buffer-size N pause-threshold N resume-threshold N`
 * of the priority (policy_iface_pause_buffer), else pfctx_defaults() from
 * the leaf's limit, the MTU, the port's speed and TXPOLL_REACTION_MS.
 *
 * A feeder paused by several congested ports of its bridge gets XON only
 * once none of them wants it paused any more. Frames sent are counted in
 * the feeder's software PFC counters (TxPPP, tx-pause, tx-xon). Nothing
 * here writes to the kernel's configuration.
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

/* The poll: the backlog is sampled this often while a congestible port
 * has feeders. */
#define TXPOLL_MS 2.0
/* From crossing xoff to the peer's queue held, for the default
 * thresholds: a poll, and software PFC's hold on the peer (roced(8),
 * "Holding a queue": median 2.2 ms). */
#define TXPOLL_REACTION_MS (TXPOLL_MS + 2.2)

#define TXPOLL_FEEDERS_MAX 64

struct txpoll_port {
	char ifname[POLICY_IFNAME_MAX];
	int ifindex, master;
	uint8_t queues;                /* no-drop queues with a tbf leaf */
	uint8_t prios[POLICY_NQUEUES]; /* each queue's priorities */
	struct pfctx_thresholds t[POLICY_NPRIO];
	struct pfctx_prio s[POLICY_NPRIO];
	bool configured_thresholds[POLICY_NPRIO];
	uint32_t backlog[POLICY_NQUEUES]; /* the last poll's */
	/* The ports that feed it: the bridge's other ports with a frame
	 * socket (at the last sync). */
	char feeders[TXPOLL_FEEDERS_MAX][POLICY_IFNAME_MAX];
	size_t nfeeders;
};

struct txpoll {
	struct txpoll_port *v;
	size_t n;
	double next_ms; /* 0: not polling */
	struct nlb *nl;
	struct frames *frames;
	struct softpfc *softpfc;
	uint64_t polls;
};

void txpoll_init(struct txpoll *t);
void txpoll_free(struct txpoll *t);
/* Follow the applied plans of R and policy P. */
void txpoll_sync(struct txpoll *t, const struct ports *r,
                 const struct policy *p, double now);
int txpoll_wait(const struct txpoll *t, double now);
void txpoll_tick(struct txpoll *t, double now);
const struct txpoll_port *txpoll_find(const struct txpoll *t,
                                      const char *ifname);

#endif
