/* tc_msg_int: shared between tc_msg.c, tc_msg_qdisc.c and tc_msg_filter.c.
 *
 * Encoding goes through libmnl on a caller's buffer. Decoding uses its own
 * attribute walker rather than mnl_attr_parse(): mnl stops quietly at the
 * first malformed attribute, so a truncated message would decode as a
 * shorter valid one, and it reads headers through struct pointers, which
 * needs an aligned buffer. The walker copies every header and value out
 * with memcpy and fails the whole message on any inconsistency.
 */
#ifndef ROCED_TC_MSG_INT_H
#define ROCED_TC_MSG_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libmnl/libmnl.h>
#include <linux/pkt_cls.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>

#include "nlmsg/tc_msg.h"

/* --- encoding --- */

struct tc_msg_enc {
	struct nlmsghdr *nlh;
	size_t size;
	bool overflow; /* an attribute did not fit: the request is void */
};

/* Start a request: nlmsghdr (NLM_F_REQUEST|NLM_F_ACK|FLAGS) and tcmsg.
 * Returns 0, -EINVAL for a misaligned BUF, -EMSGSIZE when it is too small
 * for the headers. */
int tc_msg_begin(struct tc_msg_enc *e, void *buf, size_t size, uint16_t type,
                 uint16_t flags, uint32_t seq, int ifindex, uint32_t handle,
                 uint32_t parent, uint32_t info);
/* 0, or -EMSGSIZE if anything was dropped for lack of room. */
int tc_msg_end(const struct tc_msg_enc *e);

void tc_msg_put(struct tc_msg_enc *e, uint16_t type, size_t len,
                const void *data);
void tc_msg_put_u8(struct tc_msg_enc *e, uint16_t type, uint8_t v);
void tc_msg_put_u16(struct tc_msg_enc *e, uint16_t type, uint16_t v);
void tc_msg_put_u32(struct tc_msg_enc *e, uint16_t type, uint32_t v);
void tc_msg_put_strz(struct tc_msg_enc *e, uint16_t type, const char *s);
/* A nest whose type is taken as given: tc sets NLA_F_NESTED on some nests
 * and not on others, and the bytes must match. NULL after an overflow. */
struct nlattr *tc_msg_nest_start(struct tc_msg_enc *e, uint16_t type);
void tc_msg_nest_end(struct tc_msg_enc *e, struct nlattr *nest);

/* nlmsg flags of OP for a new qdisc / class / filter request. */
uint16_t tc_msg_op_flags(enum tc_msg_op op, enum tc_msg_obj obj);

/* --- decoding --- */

/* One attribute, its payload copied by reference (unaligned). */
struct tc_msg_attr {
	const uint8_t *data; /* NULL: absent */
	uint16_t type;       /* without NLA_F_NESTED / NLA_F_NET_BYTEORDER */
	uint16_t len;        /* payload bytes */
};

struct tc_msg_view {
	struct tcmsg tcm;
	uint16_t type;
	bool deleted;
	const uint8_t *attrs;
	size_t attrs_len;
};

/* Check MSG (LEN bytes) as one message of NEW_TYPE or DEL_TYPE and locate
 * its attributes. -ENOMSG for another type, -EINVAL when malformed. */
int tc_msg_open(const void *msg, size_t len, uint16_t new_type,
                uint16_t del_type, struct tc_msg_view *v);
/* Next attribute of [START, START+LEN) at *OFF: 1 and *A set, 0 at the
 * end, -EINVAL when a header is cut or lies about its length. */
int tc_msg_next(const uint8_t *start, size_t len, size_t *off,
                struct tc_msg_attr *a);
/* Every attribute of the area by type into TB[0..MAX] (later ones win,
 * as in the kernel; types above MAX are skipped). */
int tc_msg_index(const uint8_t *start, size_t len, struct tc_msg_attr *tb,
                 unsigned max);
/* Copy a fixed-size value; -EINVAL when the payload is shorter. */
int tc_msg_get(const struct tc_msg_attr *a, void *dst, size_t size);
int tc_msg_get_u8(const struct tc_msg_attr *a, uint8_t *v);
int tc_msg_get_u16(const struct tc_msg_attr *a, uint16_t *v);
int tc_msg_get_u32(const struct tc_msg_attr *a, uint32_t *v);
int tc_msg_get_u64(const struct tc_msg_attr *a, uint64_t *v);
/* A NUL-terminated string of at most SIZE bytes. */
int tc_msg_get_str(const struct tc_msg_attr *a, char *dst, size_t size);
/* tc_msg_open(), then TCA_KIND (required), TCA_OPTIONS and TCA_CHAIN
 * (CHAIN may be NULL) of the message. */
int tc_msg_open_kind(const void *msg, size_t len, uint16_t new_type,
                     uint16_t del_type, struct tc_msg_view *v,
                     char kind[TC_MSG_KIND_MAX], struct tc_msg_attr *opts,
                     struct tc_msg_attr *chain);

/* The bytes RATE (bytes/s) sends in TICKS psched ticks. */
uint32_t tc_msg_ticks_bytes(uint64_t rate, uint32_t ticks);

#endif
