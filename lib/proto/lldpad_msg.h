/* lldpad_msg: the messages of lldpad's client interface (what lldptool
 * and liblldp_clif exchange with lldpad over its datagram socket), as
 * pure code: a module command ("M") encoded from its fields, lldpad's
 * reply ("R") decoded into its status, its echo of the command and its
 * payload (argument values, or the TLVs themselves in hex). The DCBX TLVs
 * in a reply are decoded by lldp.c's one TLV table, so that lldpad's view
 * and roced's own agent yield the same struct dcbx_tlvs.
 *
 * The layout, all ASCII (hex digits for numbers):
 *   request: 'M' module-id(8) 'C' version(1) cmd(2) ops(8) iflen(2) ifname
 *            agent-type(2) tlvid(8) { arglen(2) arg [vallen(4) value] }
 *   reply:   'R' status(2) 'C' version(1) cmd(2) ops(8) iflen(2) ifname
 *            tlvid(8) payload
 * A payload with op CONFIG is { arglen(2) arg vallen(4) value }; without
 * it, the TLVs as hex: type and length (4), then the value (2 per byte).
 */
#ifndef ROCED_LLDPAD_MSG_H
#define ROCED_LLDPAD_MSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proto/dcbx.h"

/* lldpad's commands (cmd field). */
#define LLDPAD_MSG_GET 1
#define LLDPAD_MSG_SET 2

/* Options (ops field): whose TLV (ours, the peer's), whether arguments
 * (and their values) follow, a get of the configured values. */
#define LLDPAD_OP_LOCAL    0x01u
#define LLDPAD_OP_NEIGHBOR 0x02u
#define LLDPAD_OP_ARG      0x04u
#define LLDPAD_OP_ARGVAL   0x08u
#define LLDPAD_OP_CONFIG   0x10u
/* With a set of an APP entry: delete it (lldptool -d). */
#define LLDPAD_OP_DELETE 0x20u

/* The 802.1Qaz TLVs, as lldpad names them: OUI 00-80-C2 and subtype. */
#define LLDPAD_TLV_ETS_CFG 0x0080c209u
#define LLDPAD_TLV_ETS_REC 0x0080c20au
#define LLDPAD_TLV_PFC     0x0080c20bu
#define LLDPAD_TLV_APP     0x0080c20cu

/* lldpad's reply statuses that roced tells apart. */
enum lldpad_msg_status {
	LLDPAD_ST_OK = 0,
	LLDPAD_ST_FAILED = 1,
	LLDPAD_ST_NO_DEVICE = 2,
	LLDPAD_ST_NO_AGENT = 3,
	LLDPAD_ST_INVALID = 4,
	LLDPAD_ST_BAD_PARAMS = 5,
	LLDPAD_ST_NO_PEER = 6,
	LLDPAD_ST_VERSION = 7,
	LLDPAD_ST_NOT_CAPABLE = 8,
	LLDPAD_ST_NOT_APPLICABLE = 9,
	LLDPAD_ST_NO_ACCESS = 10,
	LLDPAD_ST_AGENT_UNSUPPORTED = 11,
};

/* One argument of a command: its name, and its value for a set (NULL for
 * a get of the configured value). */
struct lldpad_msg_arg {
	const char *name;
	const char *value;
};

/* Encode a module command for the nearest-bridge agent of IFNAME into
 * BUF. Returns its length (no NUL counted), -ENOSPC, or -EINVAL (an
 * ifname or argument too long for its length field). */
int lldpad_msg_encode(char *buf, size_t cap, unsigned cmd, uint32_t ops,
                      const char *ifname, uint32_t tlvid,
                      const struct lldpad_msg_arg *args, size_t nargs);

struct lldpad_msg_reply {
	unsigned status; /* enum lldpad_msg_status */
	unsigned cmd;
	uint32_t ops;
	char ifname[17];
	uint32_t tlvid;      /* 0 when the reply stops before it */
	const char *payload; /* into the decoded buffer */
	size_t payload_len;
};

/* Decode lldpad's reply BUF (LEN bytes). Returns 0, or -EBADMSG when it is
 * not a well-formed module reply. A failed status carries no more than
 * the interface (lldpad stops there). */
int lldpad_msg_decode(const char *buf, size_t len, struct lldpad_msg_reply *r);

/* The value of argument NAME in a CONFIG reply's payload, into VAL
 * (NUL-terminated). Returns 0, -ENOENT, -ENOSPC or -EBADMSG. */
int lldpad_msg_value(const struct lldpad_msg_reply *r, const char *name,
                     char *val, size_t cap);

/* The DCBX TLVs of a (non-CONFIG) reply's payload, added to OUT: each
 * 802.1Qaz TLV sets its has_* flag and values. Returns 0, or -EBADMSG with
 * the reason in ERR. */
int lldpad_msg_tlvs(const struct lldpad_msg_reply *r, struct dcbx_tlvs *out,
                    char *err, size_t errlen);

/* The admin values of L (roced's own, as it would advertise them) as
 * lldptool's arguments for TLV (PFC, ETS-CFG, ETS-REC, APP entry I; an
 * ETS-REC that L does not advertise is enableTx=no alone): writes up to
 * LLDPAD_MSG_MAXARGS arguments into ARGS, their text into STORE. Returns
 * how many, or -EINVAL (another TLV, or no APP entry I). */
#define LLDPAD_MSG_MAXARGS 5
int lldpad_msg_admin_args(const struct dcbx_tlvs *l, uint32_t tlvid, size_t i,
                          struct lldpad_msg_arg *args, char *store,
                          size_t store_len);

/* Whether APPS holds entry E (the same priority, selector and protocol). */
bool lldpad_msg_app_has(const struct dcbx_apps *apps, const struct dcbx_app *e);

/* Record in SET (what lldpad holds of roced's APP entries) that E was set
 * (ADDED) or deleted. Returns 0, or -ENOSPC when SET is full. */
int lldpad_msg_app_note(struct dcbx_apps *set, const struct dcbx_app *e,
                        bool added);

/* "ok", "failed", "device not found or inactive", "device not capable",
 * ... for the log and show ("status N" past the table). */
const char *lldpad_msg_status_name(unsigned status);
/* "PFC", "ETS-CFG", "ETS-REC", "APP" (lldptool's names; "?" else). */
const char *lldpad_msg_tlv_name(uint32_t tlvid);

#endif
