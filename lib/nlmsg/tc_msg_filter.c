/* tc_msg_filter: u32 and flower filters (with a skbedit action or a
 * classid) and classic BPF programs (cls_bpf with a classid) <->
 * rtnetlink, as tc sends them (f_u32.c, f_flower.c, m_skbedit.c, f_bpf.c)
 * and as the kernel dumps them (cls_u32.c, cls_flower.c, act_skbedit.c,
 * cls_bpf.c). See tc_msg.h. */
#include "nlmsg/tc_msg.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <linux/filter.h>
#include <linux/if_ether.h>
#include <linux/tc_act/tc_skbedit.h>

#include "nlmsg/tc_msg_int.h"

/* Where the 6-bit DSCP sits in the first 32-bit word of the IP header:
 * IPv4 has the DS field in byte 1 (bits 23..16, DSCP 23..18); IPv6 has the
 * traffic class in bits 27..20 (DSCP 27..22), which is why tc's
 * `match ip6 priority` shifts its byte by 20. */
#define TC_MSG_DSCP_SHIFT_IP   18
#define TC_MSG_DSCP_SHIFT_IPV6 22

static int tc_msg_dscp_shift(uint16_t protocol)
{
	if (protocol == ETH_P_IP)
		return TC_MSG_DSCP_SHIFT_IP;
	if (protocol == ETH_P_IPV6)
		return TC_MSG_DSCP_SHIFT_IPV6;
	return -1;
}

static bool tc_msg_is_ip(uint16_t protocol)
{
	return protocol == ETH_P_IP || protocol == ETH_P_IPV6;
}

/* A rule of protocol all matches every packet: it has no key to read the
 * DSCP (or the VLAN priority) with, since it would sit at a different
 * place in each protocol. That is how class-default is written. */
static bool tc_msg_is_all(const struct plan_filter *f)
{
	return f->protocol == ETH_P_ALL && !f->match_dscp && !f->match_pcp &&
	       !f->vlan_ethtype;
}

/* --- encoding --- */

/* `action skbedit priority N`: one action, pipe to whatever follows. */
static void tc_msg_skbedit_put(struct tc_msg_enc *e, uint16_t type,
                               uint32_t priority)
{
	struct tc_skbedit parms = {.action = TC_ACT_PIPE};
	struct nlattr *acts, *act, *opts;

	acts = tc_msg_nest_start(e, type);
	/* actions are numbered from 1 in the order they run */
	act = tc_msg_nest_start(e, 1);
	tc_msg_put_strz(e, TCA_ACT_KIND, caps_action_name(CAPS_ACTION_SKBEDIT));
	opts = tc_msg_nest_start(e, TCA_ACT_OPTIONS | NLA_F_NESTED);
	tc_msg_put(e, TCA_SKBEDIT_PARMS, sizeof(parms), &parms);
	tc_msg_put_u32(e, TCA_SKBEDIT_PRIORITY, priority);
	tc_msg_nest_end(e, opts);
	tc_msg_nest_end(e, act);
	tc_msg_nest_end(e, acts);
}

static int tc_msg_u32_put(struct tc_msg_enc *e, const struct plan_filter *f)
{
	struct {
		struct tc_u32_sel sel;
		struct tc_u32_key key;
	} s;
	int shift = tc_msg_dscp_shift(f->protocol);
	struct nlattr *opts;

	/* u32 sees the packet from the network header: no PCP. */
	if ((shift < 0 && !tc_msg_is_all(f)) || f->match_pcp)
		return -EINVAL;
	memset(&s, 0, sizeof(s));
	s.sel.flags = TC_U32_TERMINAL;
	s.sel.nkeys = 1;
	/* Without a DSCP match the key is tc's `match u32 0 0`. */
	if (f->match_dscp) {
		uint32_t mask = (uint32_t)(f->dscp_mask & 0x3f) << shift;
		uint32_t val = (uint32_t)(f->dscp & 0x3f) << shift;

		s.key.mask = htonl(mask);
		s.key.val = htonl(val & mask);
	}

	opts = tc_msg_nest_start(e, TCA_OPTIONS);
	/* tc writes classid / actions as it parses them, the selector last */
	if (f->action == PLAN_ACT_CLASSID)
		tc_msg_put_u32(e, TCA_U32_CLASSID, f->classid);
	else
		tc_msg_skbedit_put(e, TCA_U32_ACT, f->priority);
	tc_msg_put(e, TCA_U32_SEL, sizeof(s), &s);
	tc_msg_nest_end(e, opts);
	return 0;
}

static int tc_msg_flower_put(struct tc_msg_enc *e, const struct plan_filter *f)
{
	bool vlan = f->protocol == ETH_P_8021Q;
	bool all = f->protocol == ETH_P_ALL;
	struct nlattr *opts;

	/* protocol all: every packet, no key */
	if (all && (f->match_dscp || f->match_pcp))
		return -EINVAL;
	if (!vlan && !all && !tc_msg_is_ip(f->protocol))
		return -EINVAL;
	if (f->match_pcp && (!vlan || f->pcp > 7))
		return -EINVAL;
	/* ip_tos needs an IP packet behind the tag, as tc insists */
	if (f->match_dscp && vlan && !tc_msg_is_ip(f->vlan_ethtype))
		return -EINVAL;
	if (!vlan && f->vlan_ethtype)
		return -EINVAL;

	opts = tc_msg_nest_start(e, TCA_OPTIONS);
	if (f->match_pcp)
		tc_msg_put_u8(e, TCA_FLOWER_KEY_VLAN_PRIO, f->pcp);
	if (vlan && f->vlan_ethtype)
		tc_msg_put_u16(e, TCA_FLOWER_KEY_VLAN_ETH_TYPE,
		               htons(f->vlan_ethtype));
	if (f->match_dscp) {
		uint8_t mask = (uint8_t)((f->dscp_mask & 0x3f) << 2);

		tc_msg_put_u8(e, TCA_FLOWER_KEY_IP_TOS,
		              (uint8_t)((f->dscp << 2) & mask));
		tc_msg_put_u8(e, TCA_FLOWER_KEY_IP_TOS_MASK, mask);
	}
	if (f->action == PLAN_ACT_CLASSID)
		tc_msg_put_u32(e, TCA_FLOWER_CLASSID, f->classid);
	else
		tc_msg_skbedit_put(e, TCA_FLOWER_ACT, f->priority);
	/* tc always ends with the flags, and the protocol as a key unless
	 * it is all */
	tc_msg_put_u32(e, TCA_FLOWER_FLAGS, 0);
	if (!all)
		tc_msg_put_u16(e, TCA_FLOWER_KEY_ETH_TYPE, htons(f->protocol));
	tc_msg_nest_end(e, opts);
	return 0;
}

/* The plan's instructions are struct sock_filter's fields in its order;
 * copying field by field keeps the bytes right whatever the padding. */
_Static_assert(sizeof(struct sock_filter) == 8, "sock_filter is 8 bytes");

/* `bpf bytecode 'N,OPS' classid C`: tc sends the classid, then the
 * program's length and the program; no flags unless asked for. */
static int tc_msg_bpf_put(struct tc_msg_enc *e, const struct plan_filter *f)
{
	struct sock_filter ops[PLAN_BPF_MAX];
	struct nlattr *opts;

	/* the program returns the class: nothing to match it with */
	if (f->protocol != ETH_P_ALL || f->match_dscp || f->match_pcp ||
	    f->vlan_ethtype || f->action != PLAN_ACT_CLASSID || !f->bpf_len ||
	    f->bpf_len > PLAN_BPF_MAX)
		return -EINVAL;
	for (unsigned i = 0; i < f->bpf_len; i++)
		ops[i] = (struct sock_filter){.code = f->bpf[i].code,
		                              .jt = f->bpf[i].jt,
		                              .jf = f->bpf[i].jf,
		                              .k = f->bpf[i].k};
	opts = tc_msg_nest_start(e, TCA_OPTIONS);
	if (f->classid)
		tc_msg_put_u32(e, TCA_BPF_CLASSID, f->classid);
	tc_msg_put_u16(e, TCA_BPF_OPS_LEN, f->bpf_len);
	tc_msg_put(e, TCA_BPF_OPS, f->bpf_len * sizeof(ops[0]), ops);
	tc_msg_nest_end(e, opts);
	return 0;
}

int tc_msg_filter(void *buf, size_t size, enum tc_msg_op op, int ifindex,
                  uint32_t seq, const struct plan_filter *f)
{
	uint32_t info = PLAN_H_MAKE(f->prio, htons(f->protocol));
	struct tc_msg_enc e;
	int err;

	if (!f->prio || !f->protocol)
		return -EINVAL;
	if (f->kind != PLAN_FILTER_U32 && f->kind != PLAN_FILTER_FLOWER &&
	    f->kind != PLAN_FILTER_BPF)
		return -EINVAL;
	if (f->action != PLAN_ACT_CLASSID &&
	    f->action != PLAN_ACT_SKBEDIT_PRIORITY)
		return -EINVAL;
	err = tc_msg_begin(&e, buf, size,
	                   op == TC_MSG_DEL ? RTM_DELTFILTER : RTM_NEWTFILTER,
	                   tc_msg_op_flags(op, TC_MSG_FILTER), seq, ifindex, 0,
	                   f->parent, info);
	if (err)
		return err;
	/* tc names a chain only when told one, and before the kind */
	if (f->chain)
		tc_msg_put_u32(&e, TCA_CHAIN, f->chain);
	if (op != TC_MSG_DEL)
		tc_msg_put_strz(&e, TCA_KIND, plan_filter_kind_name(f->kind));
	if (op == TC_MSG_DEL)
		return tc_msg_end(&e);
	if (f->kind == PLAN_FILTER_U32)
		err = tc_msg_u32_put(&e, f);
	else if (f->kind == PLAN_FILTER_BPF)
		err = tc_msg_bpf_put(&e, f);
	else
		err = tc_msg_flower_put(&e, f);
	return err ? err : tc_msg_end(&e);
}

/* --- decoding --- */

/* The skbedit options of one action: 0 and *PRIORITY when it only sets
 * the priority and pipes on, 1 for any other skbedit, -EINVAL when
 * malformed. */
static int tc_msg_skbedit_decode(const struct tc_msg_attr *opts,
                                 uint32_t *priority)
{
	struct tc_msg_attr tb[TCA_SKBEDIT_MAX + 1];
	struct tc_skbedit parms;
	int err;

	err = tc_msg_index(opts->data, opts->len, tb, TCA_SKBEDIT_MAX);
	if (!err)
		err = tc_msg_get(&tb[TCA_SKBEDIT_PARMS], &parms, sizeof(parms));
	if (!err && tb[TCA_SKBEDIT_PRIORITY].data)
		err = tc_msg_get_u32(&tb[TCA_SKBEDIT_PRIORITY], priority);
	if (err)
		return err;
	if (parms.action != TC_ACT_PIPE || !tb[TCA_SKBEDIT_PRIORITY].data)
		return 1;
	/* Anything else it would set makes it not ours. TCA_SKBEDIT_TM
	 * (timestamps) and the padding before it are only reported. */
	for (unsigned t = 0; t <= TCA_SKBEDIT_MAX; t++) {
		if (tb[t].data && t != TCA_SKBEDIT_PARMS &&
		    t != TCA_SKBEDIT_PRIORITY && t != TCA_SKBEDIT_TM &&
		    t != TCA_SKBEDIT_PAD)
			return 1;
	}
	return 0;
}

/* A TCA_*_ACT list: 0 and *PRIORITY when it is exactly one skbedit of the
 * shape tc_msg_skbedit_put() writes, 1 for any other valid list. */
static int tc_msg_actions_decode(const struct tc_msg_attr *acts,
                                 uint32_t *priority)
{
	struct tc_msg_attr act, tb[TCA_ACT_MAX + 1];
	char kind[TC_MSG_KIND_MAX];
	unsigned n = 0;
	size_t off = 0;
	int err, ours = 1;

	while ((err = tc_msg_next(acts->data, acts->len, &off, &act)) > 0) {
		err = tc_msg_index(act.data, act.len, tb, TCA_ACT_MAX);
		if (!err)
			err = tc_msg_get_str(&tb[TCA_ACT_KIND], kind,
			                     sizeof(kind));
		if (err)
			return err;
		n++;
		if (caps_action_parse(kind) == CAPS_ACTION_SKBEDIT &&
		    tb[TCA_ACT_OPTIONS].data) {
			ours = tc_msg_skbedit_decode(&tb[TCA_ACT_OPTIONS],
			                             priority);
			if (ours < 0)
				return ours;
		}
	}
	if (err < 0)
		return err;
	return n == 1 ? ours : 1;
}

/* The classid or the action list of a rule into F's action. */
static int tc_msg_rule_action(const struct tc_msg_attr *classid,
                              const struct tc_msg_attr *acts,
                              struct plan_filter *f, bool *known)
{
	int ours;

	if (classid->data && tc_msg_get_u32(classid, &f->classid))
		return -EINVAL;
	if (!acts->data) {
		f->action = PLAN_ACT_CLASSID;
		/* a rule that neither classifies nor acts is not ours */
		if (!classid->data)
			*known = false;
		return 0;
	}
	ours = tc_msg_actions_decode(acts, &f->priority);
	if (ours < 0)
		return ours;
	f->action = PLAN_ACT_SKBEDIT_PRIORITY;
	if (ours || classid->data)
		*known = false;
	return 0;
}

/* Flags the kernel adds to say where the rule runs; any other flag (skip
 * software, verbose...) was asked for by someone else. */
static bool tc_msg_cls_flags_ours(uint32_t flags)
{
	return !(flags &
	         ~(uint32_t)(TCA_CLS_FLAGS_IN_HW | TCA_CLS_FLAGS_NOT_IN_HW));
}

static void tc_msg_u32_key_decode(const struct tc_u32_key *k,
                                  struct plan_filter *f, bool *known)
{
	int shift = tc_msg_dscp_shift(f->protocol);
	uint32_t mask = ntohl(k->mask), val = ntohl(k->val);

	if (k->off || k->offmask || (val & ~mask)) {
		*known = false;
		return;
	}
	if (!mask)
		return;
	if (shift < 0 || (mask & ~((uint32_t)0x3f << shift))) {
		*known = false;
		return;
	}
	f->match_dscp = true;
	f->dscp_mask = (uint8_t)(mask >> shift);
	f->dscp = (uint8_t)(val >> shift);
}

static int tc_msg_u32_decode(const struct tc_msg_attr *opts,
                             struct tc_msg_filter *out)
{
	struct tc_msg_attr tb[TCA_U32_MAX + 1];
	struct plan_filter *f = &out->f;
	struct tc_u32_sel sel;
	struct tc_u32_key key;
	uint32_t flags = 0;
	int err;

	err = tc_msg_index(opts->data, opts->len, tb, TCA_U32_MAX);
	if (err)
		return err;
	/* Hash tables (TCA_U32_DIVISOR) carry no selector. */
	if (!tb[TCA_U32_SEL].data)
		return 0;
	if (tc_msg_get(&tb[TCA_U32_SEL], &sel, sizeof(sel)))
		return -EINVAL;
	if (tb[TCA_U32_SEL].len < sizeof(sel) + (size_t)sel.nkeys * sizeof(key))
		return -EINVAL;
	if (tb[TCA_U32_FLAGS].data &&
	    tc_msg_get_u32(&tb[TCA_U32_FLAGS], &flags))
		return -EINVAL;
	out->rule = true;
	out->known = true;
	f->kind = PLAN_FILTER_U32;

	if (sel.flags != TC_U32_TERMINAL || sel.offshift || sel.offmask ||
	    sel.off || sel.offoff || sel.hoff || sel.hmask || sel.nkeys > 1 ||
	    (!tc_msg_is_ip(f->protocol) && f->protocol != ETH_P_ALL) ||
	    !tc_msg_cls_flags_ours(flags) || tb[TCA_U32_LINK].data ||
	    tb[TCA_U32_POLICE].data || tb[TCA_U32_INDEV].data ||
	    tb[TCA_U32_MARK].data)
		out->known = false;
	if (sel.nkeys == 1) {
		memcpy(&key, tb[TCA_U32_SEL].data + sizeof(sel), sizeof(key));
		tc_msg_u32_key_decode(&key, f, &out->known);
	}
	return tc_msg_rule_action(&tb[TCA_U32_CLASSID], &tb[TCA_U32_ACT], f,
	                          &out->known);
}

/* The flower attributes a rule of ours may carry; anything else is a key
 * or an option roced does not write. */
static bool tc_msg_flower_attr_ours(uint16_t type)
{
	switch (type) {
	case TCA_FLOWER_CLASSID:
	case TCA_FLOWER_ACT:
	case TCA_FLOWER_FLAGS:
	case TCA_FLOWER_IN_HW_COUNT:
	case TCA_FLOWER_KEY_ETH_TYPE:
	case TCA_FLOWER_KEY_VLAN_PRIO:
	case TCA_FLOWER_KEY_VLAN_ETH_TYPE:
	case TCA_FLOWER_KEY_IP_TOS:
	case TCA_FLOWER_KEY_IP_TOS_MASK:
		return true;
	}
	return false;
}

static int tc_msg_flower_decode(const struct tc_msg_attr *opts,
                                struct tc_msg_filter *out)
{
	struct tc_msg_attr tb[TCA_FLOWER_MAX + 1], a;
	struct plan_filter *f = &out->f;
	uint16_t ethtype = 0, vlan_ethtype = 0;
	uint8_t tos, mask;
	uint32_t flags = 0;
	size_t off = 0;
	int err;

	while ((err = tc_msg_next(opts->data, opts->len, &off, &a)) > 0) {
		if (!tc_msg_flower_attr_ours(a.type))
			out->known = false;
	}
	if (!err)
		err = tc_msg_index(opts->data, opts->len, tb, TCA_FLOWER_MAX);
	if (err)
		return err;
	if ((tb[TCA_FLOWER_FLAGS].data &&
	     tc_msg_get_u32(&tb[TCA_FLOWER_FLAGS], &flags)) ||
	    (tb[TCA_FLOWER_KEY_ETH_TYPE].data &&
	     tc_msg_get_u16(&tb[TCA_FLOWER_KEY_ETH_TYPE], &ethtype)) ||
	    (tb[TCA_FLOWER_KEY_VLAN_ETH_TYPE].data &&
	     tc_msg_get_u16(&tb[TCA_FLOWER_KEY_VLAN_ETH_TYPE], &vlan_ethtype)))
		return -EINVAL;
	out->rule = true;
	f->kind = PLAN_FILTER_FLOWER;
	if (!tc_msg_cls_flags_ours(flags))
		out->known = false;

	f->vlan_ethtype = ntohs(vlan_ethtype);
	/* The kernel reports the type it matches on: the filter's protocol,
	 * or for a tagged rule the type behind the tag (if any). */
	if (ethtype && ntohs(ethtype) != f->protocol &&
	    ntohs(ethtype) != f->vlan_ethtype)
		out->known = false;
	if (f->vlan_ethtype && f->protocol != ETH_P_8021Q)
		out->known = false;

	if (tb[TCA_FLOWER_KEY_VLAN_PRIO].data) {
		if (tc_msg_get_u8(&tb[TCA_FLOWER_KEY_VLAN_PRIO], &f->pcp))
			return -EINVAL;
		f->match_pcp = true;
		if (f->pcp > 7 || f->protocol != ETH_P_8021Q)
			out->known = false;
	}
	if (tb[TCA_FLOWER_KEY_IP_TOS].data) {
		if (tc_msg_get_u8(&tb[TCA_FLOWER_KEY_IP_TOS], &tos))
			return -EINVAL;
		mask = 0xff;
		if (tb[TCA_FLOWER_KEY_IP_TOS_MASK].data &&
		    tc_msg_get_u8(&tb[TCA_FLOWER_KEY_IP_TOS_MASK], &mask))
			return -EINVAL;
		/* ECN bits in the mask cannot come from a DSCP match */
		if (mask & 3)
			out->known = false;
		f->match_dscp = true;
		f->dscp = (uint8_t)((tos & mask) >> 2);
		f->dscp_mask = (uint8_t)(mask >> 2);
	}
	return tc_msg_rule_action(&tb[TCA_FLOWER_CLASSID], &tb[TCA_FLOWER_ACT],
	                          f, &out->known);
}

/* The cls_bpf attributes a rule of ours may carry. FLAGS (direct-action),
 * a name, actions or an eBPF program's id and tag are someone else's. */
static bool tc_msg_bpf_attr_ours(uint16_t type)
{
	switch (type) {
	case TCA_BPF_CLASSID:
	case TCA_BPF_OPS_LEN:
	case TCA_BPF_OPS:
	case TCA_BPF_FLAGS_GEN:
		return true;
	}
	return false;
}

static int tc_msg_bpf_decode(const struct tc_msg_attr *opts,
                             struct tc_msg_filter *out)
{
	struct tc_msg_attr tb[TCA_BPF_MAX + 1], a;
	struct plan_filter *f = &out->f;
	uint32_t gen = 0;
	uint16_t n = 0;
	size_t off = 0;
	int err;

	while ((err = tc_msg_next(opts->data, opts->len, &off, &a)) > 0) {
		if (!tc_msg_bpf_attr_ours(a.type))
			out->known = false;
	}
	if (!err)
		err = tc_msg_index(opts->data, opts->len, tb, TCA_BPF_MAX);
	if (err)
		return err;
	if ((tb[TCA_BPF_FLAGS_GEN].data &&
	     tc_msg_get_u32(&tb[TCA_BPF_FLAGS_GEN], &gen)) ||
	    (tb[TCA_BPF_CLASSID].data &&
	     tc_msg_get_u32(&tb[TCA_BPF_CLASSID], &f->classid)))
		return -EINVAL;
	/* the length and the program must agree, as the kernel insists */
	if (tb[TCA_BPF_OPS].data || tb[TCA_BPF_OPS_LEN].data) {
		if (tc_msg_get_u16(&tb[TCA_BPF_OPS_LEN], &n) ||
		    !tb[TCA_BPF_OPS].data ||
		    tb[TCA_BPF_OPS].len !=
		        (size_t)n * sizeof(struct sock_filter))
			return -EINVAL;
	}
	out->rule = true;
	f->kind = PLAN_FILTER_BPF;
	f->action = PLAN_ACT_CLASSID;
	/* an eBPF program (no ops), or one longer than a plan holds, cannot
	 * be roced's */
	if (!n || n > PLAN_BPF_MAX || f->protocol != ETH_P_ALL ||
	    !tc_msg_cls_flags_ours(gen)) {
		out->known = false;
		return 0;
	}
	for (unsigned i = 0; i < n; i++) {
		struct sock_filter op;

		memcpy(&op, tb[TCA_BPF_OPS].data + i * sizeof(op), sizeof(op));
		f->bpf[i] = (struct plan_bpf_insn){
		    .code = op.code, .jt = op.jt, .jf = op.jf, .k = op.k};
	}
	f->bpf_len = n;
	return 0;
}

/* On failure OUT keeps only what names the rule (the header) and why. */
static int tc_msg_filter_fail(struct tc_msg_filter *out, int err,
                              const char *why)
{
	struct tc_msg_filter keep = *out;

	memset(out, 0, sizeof(*out));
	out->ifindex = keep.ifindex;
	out->handle = keep.handle;
	out->f.parent = keep.f.parent;
	out->f.prio = keep.f.prio;
	out->f.protocol = keep.f.protocol;
	memcpy(out->kind, keep.kind, sizeof(out->kind));
	out->why = why;
	return err;
}

int tc_msg_filter_parse(const void *msg, size_t len, struct tc_msg_filter *out)
{
	struct tc_msg_attr opts, chain;
	struct plan_filter *f = &out->f;
	struct tc_msg_view v;
	int err, kind;

	memset(out, 0, sizeof(*out));
	err = tc_msg_open_kind(msg, len, RTM_NEWTFILTER, RTM_DELTFILTER, &v,
	                       out->kind, &opts, &chain);
	if (!err && chain.data)
		err = tc_msg_get_u32(&chain, &out->chain);
	/* Without its headers a message names nothing. */
	if (err && !v.attrs)
		return tc_msg_filter_fail(
		    out, err,
		    err == -ENOMSG ? "not a filter message"
		                   : "the message is shorter than its headers");
	out->ifindex = v.tcm.tcm_ifindex;
	out->deleted = v.deleted;
	out->handle = v.tcm.tcm_handle;
	f->parent = v.tcm.tcm_parent;
	f->chain = out->chain;
	f->prio = (uint16_t)(v.tcm.tcm_info >> 16);
	f->protocol = ntohs((uint16_t)(v.tcm.tcm_info & 0xffff));
	if (err)
		return tc_msg_filter_fail(out, err,
		                          "malformed attributes (kind, chain)");
	out->roced = tc_msg_filter_is_roced(f->prio);
	/* The per-prio header of a dump has no options. */
	if (!opts.data)
		return 0;
	kind = plan_filter_kind_parse(out->kind);
	if (kind == PLAN_FILTER_U32) {
		err = tc_msg_u32_decode(&opts, out);
		if (err)
			return tc_msg_filter_fail(
			    out, err,
			    "malformed u32 options (selector "
			    "shorter than its keys, classid "
			    "or actions)");
	} else if (kind == PLAN_FILTER_FLOWER) {
		out->known = true;
		err = tc_msg_flower_decode(&opts, out);
		if (err)
			return tc_msg_filter_fail(
			    out, err,
			    "malformed flower options (keys, "
			    "classid or actions)");
	} else if (kind == PLAN_FILTER_BPF) {
		out->known = true;
		err = tc_msg_bpf_decode(&opts, out);
		if (err)
			return tc_msg_filter_fail(
			    out, err,
			    "malformed bpf options (classid, or a program "
			    "whose length disagrees with its instructions)");
	} else {
		/* someone else's classifier: report it as a rule */
		out->rule = true;
	}
	return 0;
}
