/* tc_stats: the statistics the kernel attaches to qdisc and class dump
 * messages (RTM_NEWQDISC / RTM_NEWTCLASS), for `show queuing interface`.
 * Pure: decodes a caller's buffer, no sockets.
 *
 * The kernel sends the same counters twice: TCA_STATS2 (a nest of
 * TCA_STATS_BASIC, TCA_STATS_QUEUE, TCA_STATS_PKT64, ...) and the old flat
 * TCA_STATS (struct tc_stats), plus the qdisc's own TCA_XSTATS. The nest
 * is preferred; the flat struct is the fallback when the nest is empty or
 * absent. RED's xstats (struct tc_red_xstats) carry ECN marks and early/forced
 * drops, HTB's (struct tc_htb_xstats) lends, borrows and tokens.
 *
 * Decoding is bounds-checked with the tc_msg walker: a message whose
 * attributes are cut or lie about their length is -EINVAL as a whole, and
 * a counter struct shorter than the kernel's is ignored, never over-read.
 */
#ifndef ROCED_TC_STATS_H
#define ROCED_TC_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nlmsg/tc_msg.h"

struct tc_stats_counters {
	bool basic;       /* bytes/packets present */
	uint64_t bytes;   /* sent */
	uint64_t packets; /* sent (TCA_STATS_PKT64 when present) */
	bool queue;       /* the queue counters below are present */
	uint32_t qlen;    /* packets queued now */
	uint32_t backlog; /* bytes queued now */
	uint32_t drops;   /* dropped by this qdisc / class */
	uint32_t requeues;
	uint32_t overlimits; /* HTB: throttled; RED: marked or dropped */
	bool red;            /* RED xstats present */
	uint32_t red_early;  /* dropped early (probabilistic, no ECN) */
	uint32_t red_pdrop;  /* dropped: above the queue limit */
	uint32_t red_other;  /* dropped for other reasons */
	uint32_t red_marked; /* CE-marked instead of dropped */
	bool htb;            /* HTB class xstats present */
	uint32_t htb_lends, htb_borrows, htb_giants;
	int32_t htb_tokens, htb_ctokens;
};

/* One decoded qdisc or class with its counters. */
struct tc_stats_obj {
	enum tc_msg_obj obj; /* TC_MSG_QDISC or TC_MSG_CLASS */
	int ifindex;
	char kind[TC_MSG_KIND_MAX];
	uint32_t handle; /* qdisc handle or classid */
	uint32_t parent;
	struct tc_stats_counters st;
};

/* Decode an RTM_NEWQDISC or RTM_NEWTCLASS message of LEN bytes (LEN may
 * cover more messages; only the first is read). Returns 0, -ENOMSG for any
 * other message type (RTM_DEL* included), -EINVAL for a malformed one. */
int tc_stats_parse(const void *msg, size_t len, struct tc_stats_obj *out);

#endif
