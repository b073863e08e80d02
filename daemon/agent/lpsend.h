/* lpsend: 802.3x link pause's transmit side on software ports,
 * `flowcontrol send on`. The per-port counterpart of txpoll's per-priority
 * PFC, with a poll of its own; the backlogs come from the sampler that
 * txpoll and the watchdog share (agent/qstats.h): a read within
 * QSTATS_SHARE_MS of another agent's is that read.
 *
 * A port with `flowcontrol send on` in a bridge feeds the bridge's other
 * ports: what comes in on it queues in their egress queues. Every
 * LPSEND_MS, lpsend reads the backlog of every queue of those other
 * ports (qstats_backlogs: class dumps of a few ports, else one dump of
 * every qdisc) and feeds each port's total to
 * the decision of lib/pfcwd/pfctx: at or above xoff a link pause (the
 * largest pause time) goes out of the feeders, refreshed while the total
 * stays above xon; at or below xon one pause of time 0 lets them go, once
 * no other congested port of the bridge wants them paused. Frames go
 * through the frame layer (frames_send: never behind a queue of their
 * own) and are counted in the feeder's software PFC counters
 * (tx_link_pause, tx_link_xon).
 *
 * Thresholds: the smallest `pause buffer-size N pause-threshold N
 * resume-threshold N` that applies to the congested port, else
 * pfctx_defaults() from its smallest leaf limit (the total is never below
 * any one queue's backlog, so no queue overflows before the pause), the
 * MTU, its speed and LPSEND_REACTION_MS.
 *
 * A port outside a bridge (a host's) feeds nothing and sends nothing:
 * its traffic is its own, and its receive side has no queue of roced's.
 * Nothing here writes to the kernel's configuration.
 */
#ifndef ROCED_LPSEND_H
#define ROCED_LPSEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "agent/contrib.h"
#include "agent/frame.h"
#include "agent/qstats.h"
#include "agent/softpfc.h"
#include "registry/ports.h"
#include "kernel/nlb.h"
#include "model/policy.h"
#include "pfcwd/pfctx.h"

/* The poll, as software PFC's (txpoll.h), and the reaction the default
 * thresholds leave headroom for: a poll and the peer's hold. */
#define LPSEND_MS          2.0
#define LPSEND_REACTION_MS (LPSEND_MS + 2.2)
#define LPSEND_FEEDERS_MAX 64
/* The window of what the feeders sent starts anew at most this often
 * while the port's queues are empty (as txpoll's TXPOLL_WINDOW_MS). */
#define LPSEND_WINDOW_MS 50.0

/* A port whose egress queues link pause protects. */
struct lpsend_port {
	char ifname[POLICY_IFNAME_MAX];
	int ifindex, master;
	struct pfctx_thresholds t;
	bool configured; /* thresholds from a pause buffer */
	struct pfctx_prio s;
	uint64_t backlog; /* the last poll's, all leaves */
	/* The bridge's other ports with `flowcontrol send on` and a frame
	 * socket (at the last sync). */
	char feeders[LPSEND_FEEDERS_MAX][POLICY_IFNAME_MAX];
	int feeder_idx[LPSEND_FEEDERS_MAX]; /* their ifindexes */
	size_t nfeeders;
	/* The feeders (bit k: feeders[k]) this port pauses: those whose
	 * traffic entered its queues, until XON. */
	uint64_t paused_by;
	/* The contributors of the last pause, kept past its XON (as
	 * txpoll's last_by). */
	uint64_t last_by;
	/* What each feeder had sent toward the port at the start of the
	 * window (agent/contrib.h), and when. */
	uint64_t cbase[LPSEND_FEEDERS_MAX];
	bool cbase_ok;
	double cbase_ms;
};

struct lpsend {
	struct lpsend_port *v;
	size_t n;
	double next_ms; /* 0: not polling */
	struct nlb *nl;
	struct qstats *qs; /* the daemon's shared sampler */
	int *idx;          /* scratch: the ports' ifindexes */
	struct frames *frames;
	struct softpfc *softpfc;
	/* What each port feeds (NULL: every sender is paused), and the
	 * registry of the ports' plans. */
	struct contrib *contrib;
	const struct ports *ports;
	/* The bridge of a port, 0 for none (NULL: frames_port_master();
	 * tests give their own). */
	int (*master_fn)(const char *ifname);
	uint64_t polls;
};

void lpsend_init(struct lpsend *l);
void lpsend_free(struct lpsend *l);
/* Follow the applied plans of R (senders, leaves, the pause
 * thresholds compile put in them). */
void lpsend_sync(struct lpsend *l, const struct ports *r, double now);
/* Milliseconds until the next poll (-1: none). */
int lpsend_wait(const struct lpsend *l, double now);
void lpsend_tick(struct lpsend *l, double now);
const struct lpsend_port *lpsend_find(const struct lpsend *l,
                                      const char *ifname);
/* Does IFNAME send link pause for some congested port (oper on)? */
bool lpsend_feeds(const struct lpsend *l, const char *ifname);

#endif
