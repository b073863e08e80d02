/* route: the namespace's IPv4 routing and neighbour tables, cached for
 * software PFC's transmit side, so that a port outside a bridge (a
 * routed port, or a bridge with an address: an SVI) knows which ports
 * feed it: those whose traffic the kernel routes to it.
 *
 * The cache is filled by two dumps (RTM_GETROUTE of the main table,
 * RTM_GETNEIGH of family AF_INET) and followed on change: a socket of
 * its own listens to the kernel's route and neighbour notifications,
 * and any of them (or a lost one: ENOBUFS) marks the cache stale, to be
 * dumped again at its next use. A dump on demand rather than applying
 * each notification: one code path fills the cache, and a flap of
 * routes costs one dump per use, not one per message.
 *
 * Only the main table is read: the local table is what the host itself
 * receives (never forwarded), and policy routing (rules choosing other
 * tables) is not followed. IPv6 is not cached: its traffic is counted as
 * feeding every routed port (route_lookup cannot say). The lookups are
 * pure functions of the cache, which tests fill by hand.
 */
#ifndef ROCED_ROUTE_H
#define ROCED_ROUTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/nlb.h"

/* Next hops of one route kept (ECMP beyond this is cut, and counted). */
#define ROUTE_NH_MAX 16

/* One next hop: out of OIF, through gateway GW (host order; 0: the
 * destination is on the link). */
struct route_nh {
	int oif;
	uint32_t gw;
};

/* One unicast route of the main table: DST/LEN (host order). */
struct route_rt {
	uint32_t dst;
	uint8_t len;
	uint8_t nnh;
	uint32_t metric;
	struct route_nh nh[ROUTE_NH_MAX];
};

/* One IPv4 neighbour: IP (host order) behind IFINDEX at MAC. */
struct route_neigh {
	uint32_t ip;
	int ifindex;
	uint8_t mac[6];
};

struct route_cache {
	struct route_rt *rt;
	size_t nrt, caprt;
	struct route_neigh *nb;
	size_t nnb, capnb;
	struct mnl_socket *mon; /* the notifications; NULL: not listening */
	bool stale;             /* dump again before the next use */
	bool filled;            /* dumped at least once (or filled by hand) */
	uint64_t changes;       /* notifications (or losses) followed */
	uint64_t dumps;         /* times the cache was refilled */
	uint64_t nh_cut;        /* next hops beyond ROUTE_NH_MAX */
};

void route_init(struct route_cache *c);
void route_free(struct route_cache *c);
/* Listen to route and neighbour changes; the socket's fd, or -errno. */
int route_listen(struct route_cache *c);
/* The notification socket's fd, -1 when not listening. */
int route_fd(const struct route_cache *c);
/* Read every notification waiting: true when any came (the cache is
 * stale now). */
bool route_notified(struct route_cache *c);
/* Dump both tables again through NL when stale or never filled: 1 when
 * what they hold changed (or the first time), 0 when not (a neighbour
 * that only went stale and back, say), or -errno (the cache then stays
 * as it was, and stale). */
int route_refresh(struct route_cache *c, struct nlb *nl);

/* Empty the cache, and add to it (the dump's callbacks, and tests).
 * 0 or -ENOMEM. */
void route_clear(struct route_cache *c);
int route_add(struct route_cache *c, const struct route_rt *r);
int route_add_neigh(struct route_cache *c, const struct route_neigh *n);

/* The next hops the kernel would choose from for DADDR (host order):
 * those of the longest matching prefix of lowest metric (every ECMP
 * next hop, since the kernel hashes flows among them), up to MAX into
 * NH. Returns how many (0: no route). */
size_t route_lookup(const struct route_cache *c, uint32_t daddr,
                    struct route_nh *nh, size_t max);
/* Does any route leave through IFINDEX? */
bool route_via(const struct route_cache *c, int ifindex);
/* The MAC of neighbour IP behind IFINDEX; NULL when unknown. */
const uint8_t *route_neigh_mac(const struct route_cache *c, uint32_t ip,
                               int ifindex);

#endif
