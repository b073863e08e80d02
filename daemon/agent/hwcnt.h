/* hwcnt: the PFC counters of hardware DCB ports, for the PFC
 * watchdog's poller and for show.
 *
 * Two sources, read each time a port is read:
 *  - the driver's statistics (`ethtool -S`), where they name per-priority
 *    pause counters roced knows (lib/nlmsg/ethtool_msg.h: mlx5, mlxsw,
 *    ice, i40e, bnxt): PFC frames received and sent, and where the
 *    driver counts it, the time the port was paused (mlx5, mlxsw, bnxt)
 *    and XON frames (Intel). The names are mapped once; each read is one
 *    ETHTOOL_GSTATS, and a set that changed is mapped again;
 *  - dcbnl's IEEE_PFC (requests = PFC frames sent, indications =
 *    received, per priority) and the priorities the driver has PFC on.
 *    Every dcbnl driver answers it, for all eight priorities, including
 *    those whose ethtool counters come and go with PFC (mlx5).
 * The statistics are read first: mlx5 answers IEEE_PFC from the
 * counters its last statistics read fetched. A priority's frame count is
 * the larger of the two (the same hardware counter where both exist).
 *
 * Whether a receive counter goes on counting once PFC is off for its
 * priority (the watchdog's rx_live, lib/pfcwd/pfcwd.h) is not assumed:
 * it is proven, per priority, by seeing the counter grow between two
 * reads that both found PFC off for it. Until then the watchdog restores
 * such a queue on trial (with backoff), never because the counter went
 * quiet (sonic-buildimage#29203).
 *
 * The kernel sits behind struct hwcnt_ops, so that tests feed counter
 * sequences.
 */
#ifndef ROCED_HWCNT_H
#define ROCED_HWCNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/ethtool.h"
#include "kernel/nlb.h"
#include "nlmsg/ethtool_msg.h"
#include "pfcwd/pfcwd.h"

#define HWCNT_NPRIO 8

/* What one read of a port found, before merging. */
struct hwcnt_raw {
	bool dcb; /* IEEE_PFC was read */
	uint8_t pfc_en;
	uint64_t requests[HWCNT_NPRIO], indications[HWCNT_NPRIO];
	bool eth; /* driver statistics with known names were read */
	struct ethtool_msg_prio prio;
};

/* One hardware port's counters, as of its last read. */
struct hwcnt_port {
	char ifname[16];
	bool ok;            /* the last read found PFC frame counters */
	int err;            /* else why not (-errno) */
	bool dcb;           /* ... dcbnl answered it */
	uint8_t pfc_en;     /* the priorities the driver has PFC on */
	const char *driver; /* whose statistics names matched, or NULL */
	uint64_t rx[HWCNT_NPRIO], tx[HWCNT_NPRIO]; /* PFC frames */
	/* Pause time (us) where the driver counts it: DUR has the
	 * priorities whose counter was there at this read and the one
	 * before (a counter that comes and goes keeps its last value). */
	uint8_t dur;
	uint64_t rx_us[HWCNT_NPRIO];
	/* XON frames, where the driver counts them apart. */
	uint8_t xon;
	uint64_t rx_xon[HWCNT_NPRIO], tx_xon[HWCNT_NPRIO];
	/* Priorities whose receive counter was seen counting with PFC
	 * off (see above). */
	uint8_t live;
	/* The previous read, for the above. */
	bool have_prev;
	uint8_t prev_pfc_en, prev_dur;
	uint64_t prev_rx[HWCNT_NPRIO];
	/* The real reader's map of the driver's statistics. */
	bool have_map;
	uint8_t map_pfc_en; /* PFC as it was when the map was read */
	struct ethtool_msg_prio_map map;
};

struct hwcnt_ops {
	/* Read port P (P->ifname; P's map is the reader's to keep) into
	 * RAW. Returns 0 when anything was read, or -errno. */
	int (*read)(void *ctx, struct hwcnt_port *p, struct hwcnt_raw *raw);
};

/* The real kernel: CTX is a struct hwcnt_kernel. ET may be NULL (no
 * ethtool netlink socket: dcbnl alone). */
struct hwcnt_kernel {
	struct ethtool *et;
	struct nlb *nl;
};
extern const struct hwcnt_ops hwcnt_ops_kernel;

struct hwcnt {
	struct hwcnt_port *v;
	size_t n;
	const struct hwcnt_ops *ops;
	void *ctx;
	struct hwcnt_kernel k; /* CTX when the kernel's ops are used */
	uint64_t reads;
};

void hwcnt_init(struct hwcnt *h, const struct hwcnt_ops *ops, void *ctx);
void hwcnt_free(struct hwcnt *h);
struct hwcnt_port *hwcnt_find(const struct hwcnt *h, const char *ifname);
/* Read IFNAME now: its entry (added when missing; NULL on ENOMEM), with
 * OK and ERR saying how it went. */
struct hwcnt_port *hwcnt_read(struct hwcnt *h, const char *ifname);
/* Forget the ports KEEP (a predicate) does not keep. */
void hwcnt_sweep(struct hwcnt *h, bool (*keep)(void *arg, const char *ifname),
                 void *arg);

/* The watchdog's sample of a queue whose priorities are PRIOS: pause
 * received (their frames; see ethtool_msg.h for which drivers count XON
 * in them: there the duration keeps an XON storm from counting), pause
 * time where every one of them has a duration counter (their sum: the
 * queue is paused while any of them is, which the sum can only
 * overstate, and the storm condition needs pause, backlog and no
 * transmission besides), and rx_live when each was proven live. */
void hwcnt_sample(const struct hwcnt_port *p, uint8_t prios,
                  struct pfcwd_sample *s);

#endif
