/* link: network interfaces through libnl-route-3.
 *
 * A cache manager keeps a live copy of every link in this namespace and
 * reports what changed (a port appears, goes away, is renamed, or someone
 * changes its MTU), so the daemon can reconcile just that port. The same
 * cache answers name -> ifindex lookups without a netlink round trip.
 */
#ifndef ROCED_LINK_H
#define ROCED_LINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LINK_NAME_MAX 16

enum link_event {
	LINK_EV_NEW,    /* appeared (or first seen) */
	LINK_EV_DEL,    /* went away */
	LINK_EV_RENAME, /* same ifindex, new name; old name given */
	LINK_EV_MTU,    /* MTU changed */
	LINK_EV_STATE,  /* flags, operational state or address changed */
};

struct link_info {
	int ifindex;
	char name[LINK_NAME_MAX];
	uint32_t mtu;
	bool up;        /* IFF_UP */
	bool running;   /* IFF_RUNNING: carrier */
	uint8_t mac[6]; /* the port's Ethernet address (zero if it has none) */
	/* The bridge (or bond) it is a port of, 0: none; the monitor's
	 * cache only (a one-shot job's lookup leaves it 0). */
	int master;
	/* A Linux bond or team (a link aggregate whose members carry its
	 * traffic); the monitor's cache only. */
	bool aggregate;
};

typedef void (*link_cb)(enum link_event ev, const struct link_info *link,
                        const char *old_name, void *data);

struct link_mon;

/* Open a monitor; CB hears about changes as link_mon_process() reads
 * them. Without CB (a one-shot job) there is no cache and no event
 * subscription: each lookup asks the kernel about that one link (ioctl),
 * and link_mon_fd() is -1. Returns 0 or -errno. */
int link_mon_open(struct link_mon **lm, link_cb cb, void *data);
void link_mon_close(struct link_mon *lm);
/* Poll this fd for input and then call link_mon_process(). */
int link_mon_fd(const struct link_mon *lm);
/* Returns 0; -ENOBUFS when events were lost (the cache was read again,
 * but changes went unreported: look at every port); -EIO. */
int link_mon_process(struct link_mon *lm);

/* Look a link up by name in the cache. Returns 0 or -ENODEV. */
int link_lookup(struct link_mon *lm, const char *name, struct link_info *out);
/* The same by ifindex. */
int link_lookup_index(struct link_mon *lm, int ifindex, struct link_info *out);
/* The names of the links whose master is MASTER (an ifindex), at most
 * MAX into NAMES, from the monitor's cache; their number (0 for a
 * one-shot job, which has no cache). */
size_t link_members(struct link_mon *lm, int master,
                    char (*names)[LINK_NAME_MAX], size_t max);
/* A link's own counters, as rtnetlink gives them: bytes and packets
 * each way, and the multicast received (the driver's count; most count
 * broadcast among it, and Linux counts no multicast sent). */
struct link_stats {
	uint64_t rx_bytes, rx_packets, rx_multicast;
	uint64_t tx_bytes, tx_packets;
	/* Frames the kernel dropped on the link outside every qdisc:
	 * received and dropped (rx_dropped, and the NIC's rx_missed: no
	 * buffer), and dropped on the way out (tx_dropped: a veth counts
	 * there what its peer's input backlog refused, netif_rx's drop). */
	uint64_t rx_discards, tx_discards;
};
/* The counters of link IFINDEX now, asked of the kernel (the cache holds
 * them as of the link's last event, long ago for a quiet link). Returns
 * 0, -ENODEV or -EIO. */
int link_stats(struct link_mon *lm, int ifindex, struct link_stats *out);
/* Set a link's MTU. Returns 0 or -errno, with the kernel's words in ERR. */
int link_set_mtu(struct link_mon *lm, int ifindex, uint32_t mtu, char *err,
                 size_t errlen);

#endif
