/* ethtool_msg: ethtool generic netlink requests and replies, and the
 * per-priority pause counters hidden in `ethtool -S` names.
 *
 * Pure: requests are built into a caller's 4-byte aligned buffer, replies
 * parsed from one; no sockets. A request carries NLM_F_REQUEST (the
 * transport adds NLM_F_ACK or NLM_F_DUMP), port id 0 and the caller's
 * sequence number.
 *
 * The "ethtool" genetlink family has a dynamic id: CTRL_CMD_GETFAMILY on
 * the controller (GENL_ID_CTRL) answers it once per boot, and every other
 * request is addressed to it. A GET names its device in the request
 * header nest (ETHTOOL_A_*_HEADER: DEV_NAME or DEV_INDEX); a dump (no
 * device, NLM_F_DUMP) gets one reply per device whose driver answers, and
 * the kernel skips devices that answer EOPNOTSUPP (lo for LINKMODES,
 * veth for PAUSE). Replies name their device in the same header nest.
 *
 * Per-priority pause (PFC) counters have no generic netlink attribute:
 * drivers publish them among their ETH_SS_STATS strings (`ethtool -S`),
 * read with the ETHTOOL_GSTRINGS / ETHTOOL_GSTATS ioctls. The names this
 * module knows (N = priority 0..7):
 *   mlx5 (ConnectX)   rx_prioN_pause, tx_prioN_pause,
 *                     rx_prioN_pause_duration, tx_prioN_pause_duration
 *   mlxsw (Spectrum)  rx_pause_prio_N, tx_pause_prio_N,
 *                     rx_pause_duration_prio_N, tx_pause_duration_prio_N
 *   ice (E8xx)        rx_priority_N_xoff.nic, tx_priority_N_xoff.nic,
 *                     rx_priority_N_xon.nic, tx_priority_N_xon.nic (Intel's
 *                     out-of-tree driver may say port-rx-xoff_prio-N_events,
 *                     port-tx-xoff_prio-N_events, ..._xon_...)
 *   i40e (X7xx)       port.rx_priority_N_xoff_rx, port.tx_priority_N_xoff_tx,
 *                     port.rx_priority_N_xon_rx, port.tx_priority_N_xon_tx
 *                     (older drivers: port.rx_priority_N_xoff, ...)
 *   bnxt (Broadcom)   rx_pfc_ena_frames_priN, tx_pfc_ena_frames_priN,
 *                     pfc_priN_rx_duration_us, pfc_priN_tx_duration_us
 * The frame counters count PFC frames that pause priority N (mlx5 and
 * mlxsw count every PFC frame with N's enable bit, Intel's XOFF counters
 * the ones with a non-zero quantum; XON frames are left out). Durations
 * are in microseconds. ixgbe's rx_pb_N_pxoff counts per packet buffer,
 * not per priority, and is deliberately not matched; neither are mlx5's
 * rx_prioN_pause_transition nor i40e's xon_2_xoff (transitions, not
 * frames).
 *
 * Drivers change their set as they run: mlx5 publishes a priority's
 * counters only while PFC is on for it (so a priority the watchdog shut
 * loses them until it is restored), and any driver's count moves with
 * its channels. The names are therefore read once into a map
 * (ethtool_msg_prio_map()), every poll reads only the values
 * (ETHTOOL_GSTATS, one ioctl), and a count that is no longer the map's
 * says the names must be read again (ethtool_msg_parse_gstats()).
 * The names come from the ETHTOOL_GSTRINGS ioctl rather than netlink's
 * STRSET_GET: the ioctl answers into a buffer of the caller's size,
 * while STRSET_GET sends the whole set as one message, which for a
 * ConnectX port (thousands of counters, about 50 bytes each in netlink)
 * outgrows a socket read.
 */
#ifndef ROCED_ETHTOOL_MSG_H
#define ROCED_ETHTOOL_MSG_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Enough for any request this module builds. */
#define ETHTOOL_MSG_REQ_SIZE 256
/* The speed a driver reports when it does not know (SPEED_UNKNOWN). */
#define ETHTOOL_MSG_SPEED_UNKNOWN 0xffffffffu
/* Length of one ETH_SS_STATS name (ETH_GSTRING_LEN). */
#define ETHTOOL_MSG_GSTRING_LEN 32
/* Priorities of PFC. */
#define ETHTOOL_MSG_NPRIO 8

/* --- requests. Each returns 0, -EINVAL (bad argument: IFNAME empty or
 * too long, FAMILY 0) or -EMSGSIZE (BUF of LEN bytes too small). --- */

/* CTRL_CMD_GETFAMILY for the family named "ethtool". */
int ethtool_msg_family_get(void *buf, size_t len, uint32_t seq);

/* ETHTOOL_MSG_LINKMODES_GET of IFNAME, or of IFINDEX when IFNAME is NULL;
 * with both unset (NULL, 0) the request is a dump of every device (the
 * caller sets NLM_F_DUMP). Bitsets are asked compact: roced only reads
 * the speed, and compact bitsets keep a dump of hundreds of ports small. */
int ethtool_msg_linkmodes_get(void *buf, size_t len, uint32_t seq,
                              uint16_t family, const char *ifname,
                              uint32_t ifindex);

/* ETHTOOL_MSG_PAUSE_GET of IFNAME (or IFINDEX, or a dump as above), with
 * ETHTOOL_FLAG_STATS when STATS: the driver's pause frame counters. */
int ethtool_msg_pause_get(void *buf, size_t len, uint32_t seq, uint16_t family,
                          const char *ifname, uint32_t ifindex, bool stats);

/* ETHTOOL_MSG_PAUSE_SET of IFNAME: 802.3x pause receive RX and send TX,
 * the same bytes as `ethtool -A IFNAME rx on|off tx on|off`. Autoneg is
 * left as it is: roced states what the port honours and sends, and a
 * driver that negotiates pause resolves it against the peer's offer.
 * IFNAME is required (a set has no dump). */
int ethtool_msg_pause_set(void *buf, size_t len, uint32_t seq, uint16_t family,
                          const char *ifname, bool rx, bool tx);

/* --- replies. Each parses the first message of BUF and returns 0;
 * -EINVAL when it is malformed (truncated, bad lengths, an attribute of
 * the wrong size); -ENOMSG when it is well formed but not the reply asked
 * for (another family or command). Unknown attributes are skipped. --- */

/* The CTRL_CMD_NEWFAMILY answer: the family id (CTRL_ATTR_FAMILY_ID) of
 * the family named "ethtool". */
int ethtool_msg_parse_family(const void *buf, size_t len, uint16_t *family);

/* The device named by a reply's header nest. */
struct ethtool_msg_dev {
	uint32_t ifindex; /* 0 when absent */
	char ifname[IFNAMSIZ];
};

#define ETHTOOL_MSG_HAS_SPEED  (1u << 0)
#define ETHTOOL_MSG_HAS_DUPLEX (1u << 1)
#define ETHTOOL_MSG_HAS_LANES  (1u << 2)

/* ETHTOOL_MSG_LINKMODES_GET_REPLY. */
struct ethtool_msg_link {
	struct ethtool_msg_dev dev;
	unsigned present; /* ETHTOOL_MSG_HAS_* */
	uint32_t speed;   /* Mb/s, or ETHTOOL_MSG_SPEED_UNKNOWN */
	uint8_t duplex;   /* DUPLEX_HALF/FULL/UNKNOWN */
	uint8_t autoneg;  /* AUTONEG_DISABLE/ENABLE */
	uint32_t lanes;
};
int ethtool_msg_parse_linkmodes(const void *buf, size_t len, uint16_t family,
                                struct ethtool_msg_link *out);
/* The speed of OUT in Mb/s, 0 when unknown or absent. */
uint32_t ethtool_msg_link_speed(const struct ethtool_msg_link *l);

#define ETHTOOL_MSG_HAS_PAUSE_STATS (1u << 0) /* the stats nest came */
#define ETHTOOL_MSG_HAS_PAUSE_TX    (1u << 1) /* tx_frames is valid */
#define ETHTOOL_MSG_HAS_PAUSE_RX    (1u << 2) /* rx_frames is valid */

/* ETHTOOL_MSG_PAUSE_GET_REPLY. */
struct ethtool_msg_pause {
	struct ethtool_msg_dev dev;
	unsigned present;     /* ETHTOOL_MSG_HAS_PAUSE_* */
	bool autoneg, rx, tx; /* the port's 802.3x pause settings */
	uint64_t tx_frames;   /* pause frames sent */
	uint64_t rx_frames;   /* pause frames received */
};
int ethtool_msg_parse_pause(const void *buf, size_t len, uint16_t family,
                            struct ethtool_msg_pause *out);

/* --- per-priority pause counters from ETH_SS_STATS (see above) --- */

enum ethtool_msg_prio_stat {
	ETHTOOL_MSG_PRIO_RX,     /* PFC frames received that pause N */
	ETHTOOL_MSG_PRIO_TX,     /* PFC frames sent that pause N */
	ETHTOOL_MSG_PRIO_RX_US,  /* time the port was paused by the peer */
	ETHTOOL_MSG_PRIO_TX_US,  /* time the port paused the peer */
	ETHTOOL_MSG_PRIO_RX_XON, /* XON frames received for N (Intel) */
	ETHTOOL_MSG_PRIO_TX_XON, /* XON frames sent for N (Intel) */
	ETHTOOL_MSG_PRIO_NSTATS,
};

struct ethtool_msg_prio {
	uint64_t v[ETHTOOL_MSG_PRIO_NSTATS][ETHTOOL_MSG_NPRIO];
	uint8_t present[ETHTOOL_MSG_PRIO_NSTATS]; /* bit N: v[s][N] valid */
	const char *driver; /* "mlx5", "ice", ... (static), the first match */
};

/* Does NAME (at most ETHTOOL_MSG_GSTRING_LEN bytes, NUL-terminated or
 * not) name a per-priority pause counter? Returns its stat and sets *PRIO,
 * or -1. DRIVER (may be NULL) gets the naming scheme's driver. */
int ethtool_msg_prio_match(const char *name, unsigned *prio,
                           const char **driver);

/* Collect the per-priority counters from N names (N *
 * ETHTOOL_MSG_GSTRING_LEN bytes, ETHTOOL_GSTRINGS' layout) and their N
 * values (ETHTOOL_GSTATS'). Returns 0 when at least one frame counter (RX
 * or TX) was found, -EOPNOTSUPP when none was. */
int ethtool_msg_prio_collect(const char *names, const uint64_t *vals, size_t n,
                             struct ethtool_msg_prio *out);

/* Where each per-priority counter sits in a driver's ETH_SS_STATS set. */
struct ethtool_msg_prio_map {
	uint32_t count; /* the set's size when its names were read */
	int32_t idx[ETHTOOL_MSG_PRIO_NSTATS][ETHTOOL_MSG_NPRIO]; /* -1: none */
	const char *driver; /* as in struct ethtool_msg_prio */
};

/* The map of N names (ETHTOOL_GSTRINGS' layout). Returns 0 when at least
 * one frame counter (RX or TX) is in it, -EOPNOTSUPP when none is (M is
 * still a valid, empty map of N), -E2BIG when N does not fit a u32. */
int ethtool_msg_prio_map(const char *names, size_t n,
                         struct ethtool_msg_prio_map *m);

/* The ETHTOOL_GSTRINGS answer to a request for ETH_SS_STATS, BUF of LEN
 * bytes (struct ethtool_gstrings, then its names): *NAMES points into
 * BUF, *N is the count. Returns 0, or -EINVAL when BUF is not such an
 * answer or its count runs past LEN. */
int ethtool_msg_parse_gstrings(const void *buf, size_t len, const char **names,
                               size_t *n);

/* The ETHTOOL_GSTATS answer, BUF of LEN bytes (struct ethtool_stats, then
 * its values): the counters M places, into OUT. Returns 0 (OUT holds the
 * counters M has, -EOPNOTSUPP when M has none); -ESTALE when the
 * driver's count is no longer M's (its names changed: read them again;
 * OUT is empty); -EINVAL when BUF is not such an answer or its count
 * runs past LEN. */
int ethtool_msg_parse_gstats(const void *buf, size_t len,
                             const struct ethtool_msg_prio_map *m,
                             struct ethtool_msg_prio *out);

#endif
