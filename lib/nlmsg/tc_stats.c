/* tc_stats: see tc_stats.h. */
#include "nlmsg/tc_stats.h"

#include <errno.h>
#include <linux/gen_stats.h>
#include <stddef.h>
#include <string.h>

#include "nlmsg/tc_msg_int.h"

/* The old flat struct tc_stats, field by field: its size differs between
 * ABIs by the tail padding, so only the bytes the fields need count. */
#define TC_STATS_FLAT_LEN (offsetof(struct tc_stats, backlog) + sizeof(__u32))
/* struct gnet_stats_basic without its tail padding. */
#define TC_STATS_BASIC_LEN                                                     \
	(offsetof(struct gnet_stats_basic, packets) + sizeof(__u32))

static void tc_stats_basic(const struct tc_msg_attr *a,
                           struct tc_stats_counters *st)
{
	struct gnet_stats_basic b;

	if (!a->data || a->len < TC_STATS_BASIC_LEN)
		return;
	memset(&b, 0, sizeof(b));
	memcpy(&b, a->data, TC_STATS_BASIC_LEN);
	st->basic = true;
	st->bytes = b.bytes;
	st->packets = b.packets;
}

static void tc_stats_queue(const struct tc_msg_attr *a,
                           struct tc_stats_counters *st)
{
	struct gnet_stats_queue q;

	if (tc_msg_get(a, &q, sizeof(q)) < 0)
		return;
	st->queue = true;
	st->qlen = q.qlen;
	st->backlog = q.backlog;
	st->drops = q.drops;
	st->requeues = q.requeues;
	st->overlimits = q.overlimits;
}

/* The pre-STATS2 flat struct, used only when the nest is absent. */
static void tc_stats_flat(const struct tc_msg_attr *a,
                          struct tc_stats_counters *st)
{
	struct tc_stats f;

	if (!a->data || a->len < TC_STATS_FLAT_LEN)
		return;
	memset(&f, 0, sizeof(f));
	memcpy(&f, a->data, TC_STATS_FLAT_LEN);
	st->basic = true;
	st->bytes = f.bytes;
	st->packets = f.packets;
	st->queue = true;
	st->qlen = f.qlen;
	st->backlog = f.backlog;
	st->drops = f.drops;
	st->overlimits = f.overlimits;
}

/* Kind-specific counters: the kind decides the struct, and a payload
 * shorter than that struct is not trusted at all. */
static void tc_stats_app(const struct tc_stats_obj *o,
                         const struct tc_msg_attr *a,
                         struct tc_stats_counters *st)
{
	if (!a->data)
		return;
	if (o->obj == TC_MSG_QDISC &&
	    plan_qdisc_kind_parse(o->kind) == PLAN_QD_RED) {
		struct tc_red_xstats x;

		if (tc_msg_get(a, &x, sizeof(x)) < 0)
			return;
		st->red = true;
		st->red_early = x.early;
		st->red_pdrop = x.pdrop;
		st->red_other = x.other;
		st->red_marked = x.marked;
	} else if (o->obj == TC_MSG_CLASS &&
	           plan_qdisc_kind_parse(o->kind) == PLAN_QD_HTB) {
		struct tc_htb_xstats x;

		if (tc_msg_get(a, &x, sizeof(x)) < 0)
			return;
		st->htb = true;
		st->htb_lends = x.lends;
		st->htb_borrows = x.borrows;
		st->htb_giants = x.giants;
		st->htb_tokens = x.tokens;
		st->htb_ctokens = x.ctokens;
	}
}

int tc_stats_parse(const void *msg, size_t len, struct tc_stats_obj *out)
{
	struct tc_msg_attr tb[TCA_MAX + 1], sb[TCA_STATS_MAX + 1];
	struct tc_msg_view v;
	uint16_t type;
	int err;

	memset(out, 0, sizeof(*out));
	if (!msg || len < sizeof(struct nlmsghdr))
		return -EINVAL;
	memcpy(&type,
	       (const uint8_t *)msg + offsetof(struct nlmsghdr, nlmsg_type),
	       sizeof(type));
	if (type == RTM_NEWQDISC) {
		out->obj = TC_MSG_QDISC;
		err = tc_msg_open(msg, len, RTM_NEWQDISC, RTM_NEWQDISC, &v);
	} else if (type == RTM_NEWTCLASS) {
		out->obj = TC_MSG_CLASS;
		err = tc_msg_open(msg, len, RTM_NEWTCLASS, RTM_NEWTCLASS, &v);
	} else {
		return -ENOMSG;
	}
	if (err)
		return err;
	out->ifindex = v.tcm.tcm_ifindex;
	out->handle = v.tcm.tcm_handle;
	out->parent = v.tcm.tcm_parent;
	err = tc_msg_index(v.attrs, v.attrs_len, tb, TCA_MAX);
	if (err)
		return err;
	err = tc_msg_get_str(&tb[TCA_KIND], out->kind, sizeof(out->kind));
	if (err)
		return err;
	if (tb[TCA_STATS2].data) {
		err = tc_msg_index(tb[TCA_STATS2].data, tb[TCA_STATS2].len, sb,
		                   TCA_STATS_MAX);
		if (err)
			return err;
		tc_stats_basic(&sb[TCA_STATS_BASIC], &out->st);
		tc_stats_queue(&sb[TCA_STATS_QUEUE], &out->st);
		/* 64-bit packet count once the 32-bit one has wrapped. */
		if (out->st.basic && sb[TCA_STATS_PKT64].data)
			tc_msg_get_u64(&sb[TCA_STATS_PKT64], &out->st.packets);
		tc_stats_app(out, &sb[TCA_STATS_APP], &out->st);
	}
	/* Classes without counters of their own (red's pseudo class) send
	 * an empty nest and the flat struct. */
	if (!out->st.basic && !out->st.queue)
		tc_stats_flat(&tb[TCA_STATS], &out->st);
	if (!out->st.red && !out->st.htb)
		tc_stats_app(out, &tb[TCA_XSTATS], &out->st);
	return 0;
}
