/* contrib: which ports feed a congested queue, so that software PFC's
 * transmit side (txpoll) pauses only those, as a switch pauses only the
 * ingress ports whose traffic fills the congested egress queue.
 *
 * The kernel counts, for every frame that comes in on a port, its
 * ingress port, its destination MAC address, its CoS (VLAN priority, or
 * none), its DSCP (or none) and its IP destination, IPv4 or IPv6 (or
 * none): an eBPF socket filter on a packet socket
 * of roced's own, which returns 0 for every frame (nothing is ever
 * queued to the socket, nothing wakes roced) and adds one to the frame's
 * counter in a map (LRU hash, CONTRIB_MAP_MAX keys of 28 bytes: the
 * whole IPv6 destination, since a route may be as long as /128; a port
 * that sends to more destinations than that loses its oldest counters,
 * as with IPv4). It is roced's own socket, not a tc object: nothing in
 * the ports' configuration changes.
 *
 * Frames are counted as they come in, before the bridge: what enters a
 * queue, whether the queue drains or is held by its own peer.
 *
 * contrib_counts() sums, for each feeder, the frames toward one egress
 * port of a bridge (destinations the bridge's forwarding database puts
 * behind that port, and those it does not know, which the bridge floods)
 * that the port's plan classifies into one queue (plan/classify.h).
 * A feeder outside the port's bridge (or any feeder of a port in no
 * bridge) reaches it only through the kernel's routing: its frames count
 * when their IP destination (IPv4 or IPv6), coming in on the feeder's
 * layer-3 device, is routed out of the port's layer-3 device (the port,
 * or its bridge: an SVI) through the rules and tables the kernel would
 * use, any of the route's ECMP next hops, and, behind an SVI, when the
 * next hop's neighbour entry is behind the port in the bridge
 * (kernel/route.h). A rule that selects by what the counters do not know
 * (fwmark, source, ...) counts the feeder toward every port either of
 * its outcomes leads to. Frames that enter an SVI are counted at the
 * bridge port they came in on, the real ingress.
 * The caller compares the sums over time: a port whose sum grew in a
 * recent window contributes.
 *
 * The map is read at most once per QSTATS_SHARE_MS (one batch lookup),
 * the forwarding database at most every CONTRIB_FDB_MS, and only when a
 * decision needs them. Where the kernel cannot count (no eBPF, no
 * privilege), contrib_counts() says so (-errno) and the caller pauses
 * every feeder, as before.
 */
#ifndef ROCED_CONTRIB_H
#define ROCED_CONTRIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/route.h"
#include "model/plan.h"

#define CONTRIB_MAP_MAX 4096
#define CONTRIB_FDB_MS  500.0
/* After the kernel refused to count, how long before asking again. */
#define CONTRIB_RETRY_MS 10000.0

/* One counter: frames from IFINDEX to MAC with PCP and DSCP
 * (CLASSIFY_UNTAGGED, CLASSIFY_NOT_IP when none), to address DADDR of
 * FAMILY (AF_INET, AF_INET6; 0: not IP). */
struct contrib_entry {
	int ifindex;
	uint8_t mac[6];
	uint8_t pcp, dscp;
	uint8_t family;
	struct route_ip daddr;
	uint64_t packets;
};

/* One forwarding database entry: MAC behind PORT of bridge MASTER.
 * LOCAL: one of the bridge's own addresses (a port's, which the bridge
 * takes as its own): frames to it go up to the bridge's IP stack (an
 * SVI), not out of PORT. */
struct contrib_fdb {
	uint8_t mac[6];
	int port, master;
	bool local;
};

typedef void (*contrib_entry_fn)(void *arg, const struct contrib_entry *e);
typedef void (*contrib_fdb_fn)(void *arg, const struct contrib_fdb *e);

/* How the counters and the forwarding database are read. The real one
 * is contrib_ops_kernel (IMPL: the daemon's struct nlb). */
struct contrib_ops {
	/* Start counting; 0 or -errno. */
	int (*open)(void *impl, void **state);
	void (*close)(void *impl, void *state);
	/* Every counter, each handed to CB. 0 or -errno. */
	int (*read)(void *impl, void *state, contrib_entry_fn cb, void *arg);
	/* Every bridge forwarding database entry. 0 or -errno. */
	int (*fdb)(void *impl, contrib_fdb_fn cb, void *arg);
};
extern const struct contrib_ops contrib_ops_kernel;

struct contrib {
	const struct contrib_ops *ops;
	void *impl, *state;
	int err;        /* why it does not count (0: it does, or not tried) */
	double fail_ms; /* when it last refused; < 0: never */
	bool open;
	struct contrib_entry *v; /* the last read */
	size_t n, cap;
	double read_ms; /* < 0: never */
	struct contrib_fdb *fdb;
	size_t nfdb, capfdb;
	double fdb_ms; /* < 0: never */
	uint64_t reads, fdb_reads;
	/* The routing and neighbour tables (NULL: none, routed feeders
	 * count nothing), which the agents keep up to date. */
	const struct route_cache *routes;
};

void contrib_init(struct contrib *c, const struct contrib_ops *ops, void *impl);
void contrib_free(struct contrib *c);
/* Start counting (again after a failure); 0 or -errno, logged once. */
int contrib_start(struct contrib *c);
/* Q for every queue of the port: link pause stops a port whatever the
 * class. */
#define CONTRIB_ANY_QUEUE 0xffu

/* Frames so far from each of the N ports FEEDER toward PORT of bridge
 * MASTER (0: none, a routed port) that PP (PORT's plan) puts in queue Q
 * (CONTRIB_ANY_QUEUE: any), as of NOW, into OUT. FEEDER_MASTER (NULL:
 * all in MASTER) is each feeder's bridge: one not in MASTER reaches
 * PORT through the routing tables.
 * 0, or -errno when the kernel does not count. */
int contrib_counts(struct contrib *c, int port, int master,
                   const struct plan_port *pp, unsigned q, const int *feeder,
                   const int *feeder_master, size_t n, uint64_t *out,
                   double now);

#endif
