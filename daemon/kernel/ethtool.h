/* ethtool: the ethtool backend: link speed and pause counters, over the
 * "ethtool" generic netlink family (libmnl) and, for the driver's own
 * statistics, the SIOCETHTOOL ioctl.
 *
 * The kernel sits behind struct ethtool_ops so tests can play it. A
 * struct ethtool is one user's context: it resolves the family id on
 * first use and keeps it (the id is fixed until the module reloads, and
 * ethtool netlink is built in).
 *
 * Counters, from the most to the least portable:
 *  - ethtool_pause_stats(): 802.3x pause frames, ETHTOOL_MSG_PAUSE_GET
 *    with ETHTOOL_FLAG_STATS. Whole-port counters; drivers without
 *    get_pauseparam (veth, bridges) answer EOPNOTSUPP.
 *  - ethtool_prio_pause(): PFC frames per priority. No netlink attribute
 *    carries them: drivers publish them among their `ethtool -S` counters
 *    under their own names (see lib/nlmsg/ethtool_msg.h for the list), read
 *    here with ETHTOOL_GSSET_INFO, ETHTOOL_GSTRINGS and ETHTOOL_GSTATS.
 */
#ifndef ROCED_ETHTOOL_H
#define ROCED_ETHTOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nlmsg/ethtool_msg.h"
#include "kernel/nlb.h"

struct ethtool_ops {
	/* Send the generic netlink request REQ, a dump when it carries
	 * NLM_F_DUMP, and call CB for each reply message until the ACK or
	 * NLMSG_DONE. Returns 0 or -errno with ERR filled (extack text). */
	int (*transact)(void *ctx, struct nlmsghdr *req, mnl_cb_t cb,
	                void *data, struct nlb_error *err);
	/* SIOCETHTOOL on IFNAME. CMD is a struct ethtool_* that starts with
	 * its u32 command and has room for what that command returns.
	 * Returns 0 or -errno. */
	int (*ioctl)(void *ctx, const char *ifname, void *cmd);
};

/* The real kernel: one NETLINK_GENERIC socket, also used for the ioctls
 * (any socket reaches SIOCETHTOOL; this one works without IPv4). */
struct ethtool_kernel {
	struct nlb nl;
};
int ethtool_kernel_open(struct ethtool_kernel *k);
void ethtool_kernel_close(struct ethtool_kernel *k);
/* CTX is a struct ethtool_kernel *. */
extern const struct ethtool_ops ethtool_ops_kernel;

struct ethtool {
	const struct ethtool_ops *ops;
	void *ctx;
	uint16_t family; /* the "ethtool" genetlink family; 0 = unknown */
	uint32_t seq;
	size_t nrequests; /* exchanges with the kernel so far */
};

void ethtool_init(struct ethtool *et, const struct ethtool_ops *ops, void *ctx);

/* Resolve the family id (CTRL_CMD_GETFAMILY) unless already known.
 * Returns 0, -ENOENT when the kernel has no ethtool netlink, or -errno. */
int ethtool_family(struct ethtool *et);

/* The link settings of IFNAME (ETHTOOL_MSG_LINKMODES_GET). Returns 0,
 * -ENODEV, -EOPNOTSUPP (no link settings: lo, ...) or -errno. The speed
 * is ethtool_msg_link_speed(OUT). */
int ethtool_link_get(struct ethtool *et, const char *ifname,
                     struct ethtool_msg_link *out);

/* Called for each device of a dump. */
typedef void (*ethtool_link_cb)(const struct ethtool_msg_link *l, void *data);
/* The link settings of every device in this namespace that has any, in
 * one dump. Returns 0 or -errno. */
int ethtool_link_dump(struct ethtool *et, ethtool_link_cb cb, void *data);

/* IFNAME's pause settings and 802.3x pause frame counters. Returns 0
 * with both counters in OUT, -EOPNOTSUPP when the driver has no pause
 * support or counts no pause frames (OUT still holds what came), or
 * -errno. */
int ethtool_pause_stats(struct ethtool *et, const char *ifname,
                        struct ethtool_msg_pause *out);

/* Set IFNAME's 802.3x pause: honour received pause (RX), send pause (TX)
 * (ETHTOOL_MSG_PAUSE_SET, `ethtool -A`). Returns 0, -EOPNOTSUPP when the
 * driver has no pause settings (veth, bridges), -EINVAL when it refuses
 * the combination (ERR's extack text says why), or -errno. ERR (may be
 * NULL) gets the kernel's verdict and extack text, so that the caller's
 * refusal names the port and the kernel's reason. */
int ethtool_pause_set(struct ethtool *et, const char *ifname, bool rx, bool tx,
                      struct nlb_error *err);

/* Called for every driver statistic, in the driver's order. */
typedef void (*ethtool_stat_cb)(const char *name, uint64_t value, void *data);
/* IFNAME's driver statistics (`ethtool -S`). NAME is NUL-terminated.
 * Returns 0, -EOPNOTSUPP (none) or -errno. */
int ethtool_stats(struct ethtool *et, const char *ifname, ethtool_stat_cb cb,
                  void *data);

/* IFNAME's per-priority pause counters (rx/tx frames, and pause time
 * where the driver counts it), matched by name from its statistics.
 * Returns 0, -EOPNOTSUPP when the driver publishes none under a known
 * name, or -errno. */
int ethtool_prio_pause(struct ethtool *et, const char *ifname,
                       struct ethtool_msg_prio *out);

/* The same for a poller, in two steps: the map of where IFNAME's driver
 * lists its per-priority counters, read once (ETHTOOL_GSSET_INFO and
 * ETHTOOL_GSTRINGS): 0, -EOPNOTSUPP (no statistics, or none known: M is
 * a valid empty map) or -errno ... */
int ethtool_prio_map_read(struct ethtool *et, const char *ifname,
                          struct ethtool_msg_prio_map *m);
/* ... then each poll one ETHTOOL_GSTATS, the counters M places into OUT:
 * 0, -ESTALE (the driver's set changed since M was read: read M again),
 * -EOPNOTSUPP (M knows none) or -errno. Reading GSTATS also refreshes
 * what some drivers cache for dcbnl (mlx5 answers IEEE_PFC's requests and
 * indications from the counters its last statistics read fetched). */
int ethtool_prio_read(struct ethtool *et, const char *ifname,
                      const struct ethtool_msg_prio_map *m,
                      struct ethtool_msg_prio *out);

#endif
