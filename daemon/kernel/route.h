/* route: the namespace's routing rules, routing tables and neighbours,
 * IPv4 and IPv6, cached for software PFC's transmit side, so that a port
 * outside a bridge (a routed port, or a bridge with an address: an SVI)
 * knows which ports feed it: those whose traffic the kernel routes to it.
 *
 * The cache is filled by dumps of both families (RTM_GETRULE, then
 * RTM_GETROUTE keeping the tables the rules name, RTM_GETNEIGH) and
 * followed on change: a socket of its own listens to the kernel's rule,
 * route and neighbour notifications of both families (and to links when
 * a rule names an interface, which the kernel resolves by name), and any
 * of them (or a lost one: ENOBUFS) marks the cache stale, to be dumped
 * again at its next use. A dump on demand rather than applying each
 * notification: one code path fills the cache, and a flap of routes
 * costs one dump per use, not one per message.
 *
 * route_lookup() walks the rules as the kernel does for a forwarded frame
 * (by priority; goto, nop, blackhole/unreachable/prohibit, a table whose
 * lookup finds no route or a throw route goes on to the next rule,
 * suppress_prefixlength). What the per-ingress counters know decides a
 * rule: the destination and the ingress interface (iif); a rule naming
 * an output interface (oif) never matches a forwarded frame. A rule that
 * selects by what the counters do not know (fwmark, source, tos, IP
 * protocol, ports, uid range, tunnel id, l3mdev: a VRF device's rule,
 * suppress_ifgroup) may or may not match: the lookup then gives the next
 * hops of both outcomes, so that such a feeder is counted toward every
 * port its traffic might take (pausing a feeder too many loses nothing,
 * one too few loses frames). Without any rule of a family (a kernel
 * without policy routing, or a cache filled by hand) the kernel's
 * default rules apply: the local table, then main.
 *
 * A route of the local table (the host's own addresses, broadcast,
 * multicast) and an unreachable, blackhole or prohibit route end the
 * lookup with no next hop: what they match leaves through no port; so
 * does an IPv6 link-local destination (fe80::/10, never forwarded), and
 * the fe80::/64 route every IPv6 port has is no route through it for
 * route_via(). The
 * lookups are pure functions of the cache, which tests fill by hand.
 */
#ifndef ROCED_ROUTE_H
#define ROCED_ROUTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernel/nlb.h"

/* Next hops of one route kept (ECMP beyond this is cut, and counted). */
#define ROUTE_NH_MAX 16
/* Rules followed through goto and undecided matches before the lookup
 * gives up and says it cannot tell. */
#define ROUTE_WALK_MAX 8

/* An address of either family, as the kernel carries it (network order);
 * an IPv4 address in the first 4 bytes, the rest 0. */
struct route_ip {
	uint8_t b[16];
};

/* IPv4 address A (host order) as a struct route_ip. */
static inline struct route_ip route_ip4(uint32_t a)
{
	struct route_ip ip;

	memset(&ip, 0, sizeof(ip));
	ip.b[0] = (uint8_t)(a >> 24);
	ip.b[1] = (uint8_t)(a >> 16);
	ip.b[2] = (uint8_t)(a >> 8);
	ip.b[3] = (uint8_t)a;
	return ip;
}

/* One next hop: out of OIF, through gateway GW (all 0: the destination is
 * on the link). */
struct route_nh {
	int oif;
	struct route_ip gw;
};

/* One route of table TABLE (0 when added: main): DST/LEN of FAMILY
 * (AF_INET, AF_INET6), of kind TYPE (RTN_UNICAST: its NNH next hops;
 * RTN_THROW: the lookup goes on with the next rule; any other: no next
 * hop, the frame is not forwarded). */
struct route_rt {
	struct route_ip dst;
	uint8_t family, len, type, nnh;
	uint32_t table, metric;
	struct route_nh nh[ROUTE_NH_MAX];
};

/* One neighbour: IP of FAMILY behind IFINDEX at MAC. */
struct route_neigh {
	struct route_ip ip;
	uint8_t family;
	int ifindex;
	uint8_t mac[6];
};

/* One rule of FAMILY at priority PRIO, its ACTION (FR_ACT_TO_TBL with
 * TABLE, FR_ACT_GOTO to the rule at priority GOTO_PRIO, FR_ACT_NOP, or
 * one that drops). It matches a destination in DST/DST_LEN (0: any), a
 * frame that came in on IIF (0: any; -1: an interface that does not
 * exist, nothing). INVERT: it matches what it would not. NEVER: it
 * cannot match a forwarded frame (an oif). UNDECIDED: it selects by
 * something more (fwmark, source, ...), so it may or may not match.
 * SUPPRESS_LEN: a route found with a prefix this short or shorter is
 * refused (-1: none); SUPPRESS_MAYBE: a result may be refused
 * (suppress_ifgroup). */
struct route_rule {
	struct route_ip dst;
	uint8_t family, dst_len, action;
	bool invert, never, undecided, suppress_maybe;
	int iif;
	int suppress_len;
	uint32_t prio, table, goto_prio;
	char iifname[16]; /* the name the kernel matches (for the refill) */
};

struct route_cache {
	struct route_rt *rt;
	size_t nrt, caprt;
	struct route_neigh *nb;
	size_t nnb, capnb;
	struct route_rule *ru; /* by priority, as the kernel walks them */
	size_t nru, capru;
	struct mnl_socket *mon; /* the notifications; NULL: not listening */
	bool stale;             /* dump again before the next use */
	bool filled;            /* dumped at least once (or filled by hand) */
	uint64_t changes;       /* notifications (or losses) followed */
	uint64_t dumps;         /* times the cache was refilled */
	uint64_t nh_cut;        /* next hops beyond ROUTE_NH_MAX */
};

void route_init(struct route_cache *c);
void route_free(struct route_cache *c);
/* Listen to rule, route, neighbour (and link) changes; the socket's fd,
 * or -errno. */
int route_listen(struct route_cache *c);
/* The notification socket's fd, -1 when not listening. */
int route_fd(const struct route_cache *c);
/* Read every notification waiting: true when any came (the cache is
 * stale now). */
bool route_notified(struct route_cache *c);
/* Dump the rules, tables and neighbours again through NL when stale or
 * never filled: 1 when what they hold changed (or the first time), 0
 * when not (a neighbour that only went stale and back, say), or -errno
 * (the cache then stays as it was, and stale). */
int route_refresh(struct route_cache *c, struct nlb *nl);

/* Empty the cache, and add to it (the dump's callbacks, and tests).
 * Rules go in by priority (after those of the same priority).
 * 0 or -ENOMEM. */
void route_clear(struct route_cache *c);
int route_add(struct route_cache *c, const struct route_rt *r);
int route_add_neigh(struct route_cache *c, const struct route_neigh *n);
int route_add_rule(struct route_cache *c, const struct route_rule *r);

/* A lookup's answer beyond its next hops. */
#define ROUTE_UNSURE 1u /* the rules went too deep: cannot tell */

/* The next hops the kernel may choose from for a frame of FAMILY to DST
 * that came in on IIF (the layer-3 device: a bridge port's bridge):
 * through the rules, those of the longest matching prefix of lowest
 * metric of the table chosen (every ECMP next hop, since the kernel
 * hashes flows among them), and those of every outcome of a rule the
 * frame may or may not match, up to MAX into NH. Returns how many (0: no
 * route, or one that drops or delivers locally); *FLAGS (may be NULL)
 * gets ROUTE_UNSURE when it could not tell. */
size_t route_lookup(const struct route_cache *c, int family,
                    const struct route_ip *dst, int iif, struct route_nh *nh,
                    size_t max, unsigned *flags);
/* Does any route (but a link-local one) leave through IFINDEX? */
bool route_via(const struct route_cache *c, int ifindex);
/* The MAC of neighbour IP of FAMILY behind IFINDEX; NULL when unknown. */
const uint8_t *route_neigh_mac(const struct route_cache *c, int family,
                               const struct route_ip *ip, int ifindex);

#endif
