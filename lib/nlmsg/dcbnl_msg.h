/* dcbnl_msg: DCB netlink (RTM_GETDCB / RTM_SETDCB) requests and replies.
 *
 * Pure: requests are built into a caller's buffer with libmnl's buffer
 * helpers and replies are parsed from a caller's buffer; no sockets. A
 * request is byte for byte what iproute2's `dcb` sends for the same
 * setting (tests/fixtures/dcb/ holds captures of dcb), flags
 * NLM_F_REQUEST | NLM_F_ACK, port id 0, sequence number from the caller.
 * DCB names the port by DCB_ATTR_IFNAME, not by ifindex.
 *
 * Read-modify-write. An IEEE_SET of PFC, ETS, maxrate or buffer replaces
 * the driver's whole struct, so `dcb pfc/ets/maxrate/buffer set` first
 * GETs the struct (DCB_CMD_IEEE_GET), changes the fields named on its
 * command line and SETs all of it back. The daemon must do the same:
 * parse the port's IEEE_GET reply, build the new struct from it with the
 * *_from_plan() helpers below, and send that. Fields it must carry over
 * from the current state:
 *  - struct ieee_pfc: pfc_cap (the driver's capability, read-only), mbc,
 *    delay, and requests[]/indications[] (pause counters, which drivers
 *    ignore on SET but dcb sends back as read). roced sets pfc_en only.
 *  - struct ieee_ets: willing, ets_cap (read-only), cbs, tc_rx_bw[],
 *    tc_reco_bw[], tc_reco_tsa[], reco_prio_tc[]. roced sets tc_tsa[],
 *    tc_tx_bw[] (dcb's "tc-bw") and prio_tc[].
 *  - struct ieee_maxrate, struct dcbnl_buffer: everything roced does not
 *    manage (roced's plan has neither today; the encoders take the struct).
 * APP entries have no read-modify-write: IEEE_SET adds entries, IEEE_DEL
 * removes them. `dcb app replace` adds the new entries first and deletes
 * the replaced ones after, so a DSCP never goes unmapped; diff should
 * order its operations the same way. apptrust replaces the whole list.
 *
 * Status. The kernel acks an IEEE_SET / IEEE_DEL with error 0 even when
 * the driver refused it: the driver's result is a u8 DCB_ATTR_IEEE in the
 * RTM_SETDCB reply that precedes the ack. dcbnl_msg_parse_status() reads
 * both kinds.
 *
 * Buffers must be 4-byte aligned (netlink alignment). A decoder parses the
 * first message of BUF; LEN may cover more (a datagram with reply + ack).
 */
#ifndef ROCED_DCBNL_MSG_H
#define ROCED_DCBNL_MSG_H

#include <linux/dcbnl.h>
#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/plan.h"

/* uapi values newer than some distributions' headers (Linux 6.2/6.3). */
#define DCBNL_MSG_ATTR_APP_TRUST_TABLE 11 /* DCB_ATTR_DCB_APP_TRUST_TABLE */
#define DCBNL_MSG_ATTR_REWR_TABLE      12 /* DCB_ATTR_DCB_REWR_TABLE */
#define DCBNL_MSG_ATTR_DCB_APP         2 /* DCB_ATTR_DCB_APP (ieee_attrs_app) */
#define DCBNL_MSG_APP_SEL_PCP          255 /* DCB_APP_SEL_PCP */

/* Enough for any request this module builds with up to
 * DCBNL_MSG_APP_MAX APP entries. */
#define DCBNL_MSG_REQ_SIZE 2048
/* Enough for a GET (IEEE_GET, GDCBX): the headers and the port's name. */
#define DCBNL_MSG_GET_SIZE 64
/* Most APP entries a decoded table keeps (64 DSCP + 16 PCP/DEI + more). */
#define DCBNL_MSG_APP_MAX 128
/* Most selectors in an apptrust list (the kernel has 6 kinds). */
#define DCBNL_MSG_TRUST_MAX 8

/* --- requests. Each returns 0, -EINVAL (bad argument: IFNAME empty or
 * longer than IFNAMSIZ-1, selector unknown, ...) or -EMSGSIZE (BUF of LEN
 * bytes is too small). The message length is nlmsg_len of BUF. --- */

/* DCB_CMD_IEEE_GET: the port's whole IEEE state (dcb ... show). */
int dcbnl_msg_ieee_get(void *buf, size_t len, uint32_t seq, const char *ifname);
/* DCB_CMD_GDCBX: the DCBX mode bits (DCB_CAP_DCBX_*). */
int dcbnl_msg_gdcbx(void *buf, size_t len, uint32_t seq, const char *ifname);
/* DCB_CMD_GCAP with DCB_CAP_ATTR_ALL: every capability the driver has. */
int dcbnl_msg_gcap(void *buf, size_t len, uint32_t seq, const char *ifname);
/* DCB_CMD_SDCBX: set the DCBX mode bits (dcb dcbx set). */
int dcbnl_msg_sdcbx(void *buf, size_t len, uint32_t seq, const char *ifname,
                    uint8_t mode);

/* DCB_CMD_IEEE_SET of one whole struct (see read-modify-write above). */
int dcbnl_msg_pfc_set(void *buf, size_t len, uint32_t seq, const char *ifname,
                      const struct ieee_pfc *pfc);
int dcbnl_msg_ets_set(void *buf, size_t len, uint32_t seq, const char *ifname,
                      const struct ieee_ets *ets);
/* tc_maxrate[] is in kbit/s (uapi). iproute2 6.1 wrongly sends bytes/s. */
int dcbnl_msg_maxrate_set(void *buf, size_t len, uint32_t seq,
                          const char *ifname, const struct ieee_maxrate *mr);
/* prio2buffer[] entries must be < DCBX_MAX_BUFFERS (else -EINVAL). */
int dcbnl_msg_buffer_set(void *buf, size_t len, uint32_t seq,
                         const char *ifname, const struct dcbnl_buffer *b);

/* DCB_CMD_IEEE_SET / DCB_CMD_IEEE_DEL of N >= 1 APP entries, in order.
 * Selectors 1..5 go in DCB_ATTR_IEEE_APP, PCP (255) in DCB_ATTR_DCB_APP,
 * as the kernel requires; other selectors are -EINVAL. */
int dcbnl_msg_app_add(void *buf, size_t len, uint32_t seq, const char *ifname,
                      const struct dcb_app *apps, size_t n);
int dcbnl_msg_app_del(void *buf, size_t len, uint32_t seq, const char *ifname,
                      const struct dcb_app *apps, size_t n);
/* DCB_CMD_IEEE_SET of the apptrust list, most trusted first (dcb apptrust
 * set ... order). N may be 0 (trust nothing); duplicates are -EINVAL. */
int dcbnl_msg_apptrust_set(void *buf, size_t len, uint32_t seq,
                           const char *ifname, const uint8_t *sel, size_t n);

/* --- from the plan. CUR is the port's current struct from its IEEE_GET
 * reply, or NULL when unknown (then carried fields are 0). --- */

void dcbnl_msg_pfc_from_plan(const struct plan_dcb *pd,
                             const struct ieee_pfc *cur, struct ieee_pfc *out);
void dcbnl_msg_ets_from_plan(const struct plan_dcb *pd,
                             const struct ieee_ets *cur, struct ieee_ets *out);
/* The plan's APP entries as struct dcb_app, in plan order. Returns the
 * number of entries the plan has; at most MAX are written. */
size_t dcbnl_msg_apps_from_plan(const struct plan_dcb *pd, struct dcb_app *out,
                                size_t max);

/* --- replies. Each returns 0; -EINVAL when the message is malformed
 * (truncated, bad lengths, an attribute of the wrong size or a selector in
 * the wrong attribute); -ENOMSG when it is well formed but not the reply
 * asked for (other type or command); -ENOBUFS when a table is longer than
 * this module keeps. Unknown attributes are skipped. --- */

#define DCBNL_MSG_HAS_ETS      (1u << 0)
#define DCBNL_MSG_HAS_PFC      (1u << 1)
#define DCBNL_MSG_HAS_MAXRATE  (1u << 2)
#define DCBNL_MSG_HAS_BUFFER   (1u << 3)
#define DCBNL_MSG_HAS_APP      (1u << 4)
#define DCBNL_MSG_HAS_TRUST    (1u << 5)
#define DCBNL_MSG_HAS_PEER_ETS (1u << 6)
#define DCBNL_MSG_HAS_PEER_PFC (1u << 7)
#define DCBNL_MSG_HAS_PEER_APP (1u << 8)
#define DCBNL_MSG_HAS_DCBX     (1u << 9)
#define DCBNL_MSG_HAS_IFNAME   (1u << 10)

/* What the kernel's dcbnl_ieee_fill() reports: each part is present only
 * when the driver implements it (see `present`). */
struct dcbnl_msg_ieee {
	unsigned present; /* DCBNL_MSG_HAS_* */
	char ifname[IFNAMSIZ];
	struct ieee_ets ets;
	struct ieee_pfc pfc; /* requests[] = PFC frames sent, indications[] =
	                        received, per priority */
	struct ieee_maxrate maxrate;
	struct dcbnl_buffer buffer;
	struct dcb_app app[DCBNL_MSG_APP_MAX];
	size_t napp;
	uint8_t trust[DCBNL_MSG_TRUST_MAX]; /* most trusted first */
	size_t ntrust;
	struct ieee_ets peer_ets; /* from the driver's own DCBX agent */
	struct ieee_pfc peer_pfc;
	struct dcb_app peer_app[DCBNL_MSG_APP_MAX];
	size_t npeer_app;
	uint8_t dcbx; /* DCB_CAP_DCBX_* */
};

/* An IEEE_GET reply, or an RTM_SETDCB IEEE_SET/IEEE_DEL notification
 * (RTNLGRP_DCB), which carries the same fill. */
int dcbnl_msg_parse_ieee(const void *buf, size_t len,
                         struct dcbnl_msg_ieee *out);
/* A GDCBX reply: the DCB_CAP_DCBX_* bits. */
int dcbnl_msg_parse_dcbx(const void *buf, size_t len, uint8_t *mode);

/* A GCAP reply: v[DCB_CAP_ATTR_x] is valid when bit x of present is set. */
struct dcbnl_msg_cap {
	uint16_t present;
	uint8_t v[DCB_CAP_ATTR_MAX + 1];
};
int dcbnl_msg_parse_cap(const void *buf, size_t len, struct dcbnl_msg_cap *out);

/* The outcome of a set request, from whichever message the kernel sent:
 * an NLMSG_ERROR (ack: 0, or -errno), an IEEE_SET/IEEE_DEL reply (the
 * driver's error, a negative errno the kernel truncated to 8 bits) or an
 * SDCBX reply (the driver's u8: 0 success, anything else -EINVAL). */
int dcbnl_msg_parse_status(const void *buf, size_t len, int *status);

#endif
