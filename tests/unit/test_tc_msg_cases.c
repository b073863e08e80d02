/* Unit tests for lib/nlmsg/tc_msg*.c, part 2: the plan objects behind the
 * captured command lines; decoder semantics on hand-built kernel-style
 * messages (foreign kinds, shapes roced does not write, malformed
 * structure), the plan-vs-kernel comparison, ownership, and the plan
 * objects the encoders refuse. Fixture-based tests and main() are in
 * test_tc_msg.c. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <arpa/inet.h>
#include <libmnl/libmnl.h>
#include <linux/if_ether.h>
#include <linux/pkt_cls.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <linux/tc_act/tc_skbedit.h>

#include "nlmsg/tc_msg.h"
#include "tc_msg_test.h"

/* --- the plan objects behind the command lines -------------------------- */

const struct plan_qdisc q_htb = {
    .kind = PLAN_QD_HTB,
    .handle = H(4791, 0),
    .parent = PLAN_H_ROOT,
    .queue = -1,
    .u.htb = {.defcls = 0x10, .r2q = 0},
};

const struct plan_qdisc q_bfifo = {
    .kind = PLAN_QD_BFIFO,
    .handle = H(4713, 0),
    .parent = H(4791, 13),
    .queue = 3,
    .u.fifo = {.limit = 300000},
};

const struct plan_qdisc q_pfifo = {
    .kind = PLAN_QD_PFIFO,
    .handle = H(4710, 0),
    .parent = H(4791, 10),
    .queue = 0,
    .u.fifo = {.limit = 1000},
};

const struct plan_qdisc q_clsact = {
    .kind = PLAN_QD_CLSACT,
    .handle = PLAN_H_CLSACT,
    .parent = PLAN_H_CLSACT,
    .queue = -1,
};

const struct plan_qdisc q_ets = {
    .kind = PLAN_QD_ETS,
    .handle = H(4791, 0),
    .parent = PLAN_H_ROOT,
    .queue = -1,
    .u.ets =
        {
            .nbands = 8,
            .nstrict = 1,
            .quanta = {0, 4500, 1500, 1500, 4500, 1500, 1500, 1500},
            .priomap = {7, 6, 5, 4, 3, 2, 1, 0, 7, 7, 7, 7, 7, 7, 7, 7},
            .band_queue = {7, 6, 5, 4, 3, 2, 1, 0},
        },
};

const struct plan_qdisc q_ets_nostrict = {
    .kind = PLAN_QD_ETS,
    .handle = H(4791, 0),
    .parent = PLAN_H_ROOT,
    .queue = -1,
    .u.ets =
        {
            .nbands = 4,
            .quanta = {3000, 1500, 1500, 9000},
            .priomap = {3, 2, 1, 0, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3},
        },
};

const struct plan_qdisc q_prio = {
    .kind = PLAN_QD_PRIO,
    .handle = H(4791, 0),
    .parent = PLAN_H_ROOT,
    .queue = -1,
    .u.prio =
        {
            .bands = 8,
            .priomap = {7, 6, 5, 4, 3, 2, 1, 0, 7, 7, 7, 7, 7, 7, 7, 7},
        },
};

/* Wlog, Plog, Scell_log and max_P as tc computed them (see the
 * fixtures' dissection); the table is the encoder's to build. */
const struct plan_qdisc q_red_10g = {
    .kind = PLAN_QD_RED,
    .handle = H(4713, 0),
    .parent = H(4791, 5),
    .queue = 3,
    .u.red =
        {
            .limit = 4000000,
            .qth_min = 153600,
            .qth_max = 3072000,
            .avpkt = 1000,
            .burst = 154,
            .bandwidth = 1250000000,
            .probability_ppm = 70000,
            .max_p = 300647710,
            .wlog = 1,
            .plog = 26,
            .scell_log = 0,
            .ecn = true,
        },
};

const struct plan_qdisc q_red_1g = {
    .kind = PLAN_QD_RED,
    .handle = H(4716, 0),
    .parent = H(4791, 2),
    .queue = 6,
    .u.red =
        {
            .limit = 1000000,
            .qth_min = 30000,
            .qth_max = 90000,
            .avpkt = 1000,
            .burst = 55,
            .bandwidth = 125000000,
            .probability_ppm = 20000,
            .max_p = 85899345,
            .wlog = 5,
            .plog = 22,
            .scell_log = 8,
            .ecn = true,
            .harddrop = true,
        },
};

const struct plan_qdisc q_red_100m = {
    .kind = PLAN_QD_RED,
    .handle = H(4716, 0),
    .parent = H(4791, 2),
    .queue = 6,
    .u.red =
        {
            .limit = 400000,
            .qth_min = 30000,
            .qth_max = 90000,
            .avpkt = 1000,
            .burst = 600,
            .bandwidth = 12500000,
            .probability_ppm = 100000,
            .max_p = 429496729,
            .wlog = 13,
            .plog = 20,
            .scell_log = 20,
        },
};

const struct plan_class c_root = {
    .classid = H(4791, 1),
    .parent = H(4791, 0),
    .rate = 1250000000,
    .ceil = 1250000000,
    .queue = -1,
};

const struct plan_class c_q3 = {
    .classid = H(4791, 13),
    .parent = H(4791, 1),
    .rate = 625000000,
    .ceil = 1250000000,
    .prio = 1,
    .quantum = 60000,
    .queue = 3,
};

const struct plan_class c_q3_half = {
    .classid = H(4791, 13),
    .parent = H(4791, 1),
    .rate = 312500000,
    .ceil = 1250000000,
    .prio = 1,
    .quantum = 60000,
    .queue = 3,
};

/* `rate 8bit`: how a paused queue is held; tc's arithmetic overflows
 * here and the encoder must overflow the same way. */
const struct plan_class c_q3_hold = {
    .classid = H(4791, 13),
    .parent = H(4791, 1),
    .rate = 1,
    .ceil = 1,
    .prio = 1,
    .quantum = 60000,
    .queue = 3,
};

const struct plan_class c_q0 = {
    .classid = H(4791, 10),
    .parent = H(4791, 1),
    .rate = 12500000,
    .ceil = 1250000000,
    .prio = 7,
    .queue = 0,
};

const struct plan_class c_rate64 = {
    .classid = H(4791, 2),
    .parent = H(4791, 0),
    .rate = 5000000000ull,
    .ceil = 12500000000ull,
    .queue = -1,
};

const struct plan_filter f_u32_ip = {
    .kind = PLAN_FILTER_U32,
    .parent = H(4791, 0),
    .prio = 4791,
    .protocol = ETH_P_IP,
    .match_dscp = true,
    .dscp = 26,
    .dscp_mask = 0x3f,
    .action = PLAN_ACT_CLASSID,
    .classid = H(4791, 13),
};

const struct plan_filter f_u32_ip6 = {
    .kind = PLAN_FILTER_U32,
    .parent = H(4791, 0),
    .prio = 4792,
    .protocol = ETH_P_IPV6,
    .match_dscp = true,
    .dscp = 26,
    .dscp_mask = 0x3f,
    .action = PLAN_ACT_CLASSID,
    .classid = H(4791, 13),
};

const struct plan_filter f_u32_all = {
    .kind = PLAN_FILTER_U32,
    .parent = H(4791, 0),
    .prio = 4799,
    .protocol = ETH_P_IP,
    .action = PLAN_ACT_CLASSID,
    .classid = H(4791, 10),
};

/* class-default: protocol all, no key (tc's match u32 0 0) */
const struct plan_filter f_u32_protoall = {
    .kind = PLAN_FILTER_U32,
    .parent = H(4791, 0),
    .prio = 4793,
    .protocol = ETH_P_ALL,
    .action = PLAN_ACT_CLASSID,
    .classid = H(4791, 10),
};

const struct plan_filter f_flower_protoall = {
    .kind = PLAN_FILTER_FLOWER,
    .parent = PLAN_H_CLSACT_INGRESS,
    .prio = 4793,
    .protocol = ETH_P_ALL,
    .action = PLAN_ACT_SKBEDIT_PRIORITY,
    .priority = 0,
};

const struct plan_filter f_u32_skbedit = {
    .kind = PLAN_FILTER_U32,
    .parent = PLAN_H_CLSACT_INGRESS,
    .prio = 4791,
    .protocol = ETH_P_IP,
    .match_dscp = true,
    .dscp = 26,
    .dscp_mask = 0x3f,
    .action = PLAN_ACT_SKBEDIT_PRIORITY,
    .priority = 3,
};

const struct plan_filter f_u32_ip6_skbedit = {
    .kind = PLAN_FILTER_U32,
    .parent = PLAN_H_CLSACT_INGRESS,
    .prio = 4795,
    .protocol = ETH_P_IPV6,
    .match_dscp = true,
    .dscp = 26,
    .dscp_mask = 0x3f,
    .action = PLAN_ACT_SKBEDIT_PRIORITY,
    .priority = 3,
};

const struct plan_filter f_flower_skbedit = {
    .kind = PLAN_FILTER_FLOWER,
    .parent = PLAN_H_CLSACT_INGRESS,
    .prio = 4791,
    .protocol = ETH_P_IP,
    .match_dscp = true,
    .dscp = 26,
    .dscp_mask = 0x3f,
    .action = PLAN_ACT_SKBEDIT_PRIORITY,
    .priority = 3,
};

/* roced's mark on a clsact it created (plan_clsact_mark()). */
const struct plan_filter f_flower_mark = {
    .kind = PLAN_FILTER_FLOWER,
    .parent = PLAN_H_CLSACT_INGRESS,
    .chain = PLAN_CLSACT_MARK_CHAIN,
    .prio = PLAN_FILTER_PRIO_MAX,
    .protocol = ETH_P_ALL,
    .action = PLAN_ACT_SKBEDIT_PRIORITY,
    .priority = 0,
};

const struct plan_filter f_flower_vlan = {
    .kind = PLAN_FILTER_FLOWER,
    .parent = PLAN_H_CLSACT_INGRESS,
    .prio = 4793,
    .protocol = ETH_P_8021Q,
    .match_pcp = true,
    .pcp = 3,
    .action = PLAN_ACT_SKBEDIT_PRIORITY,
    .priority = 3,
};

const struct plan_filter f_flower_vlan_dscp = {
    .kind = PLAN_FILTER_FLOWER,
    .parent = PLAN_H_CLSACT_INGRESS,
    .prio = 4794,
    .protocol = ETH_P_8021Q,
    .vlan_ethtype = ETH_P_IP,
    .match_dscp = true,
    .dscp = 26,
    .dscp_mask = 0x3f,
    .match_pcp = true,
    .pcp = 3,
    .action = PLAN_ACT_SKBEDIT_PRIORITY,
    .priority = 3,
};

const struct plan_filter f_flower_classid = {
    .kind = PLAN_FILTER_FLOWER,
    .parent = H(4791, 0),
    .prio = 4791,
    .protocol = ETH_P_IP,
    .match_dscp = true,
    .dscp = 26,
    .dscp_mask = 0x3f,
    .action = PLAN_ACT_CLASSID,
    .classid = H(4791, 13),
};

const struct plan_filter f_flower_ip6_classid = {
    .kind = PLAN_FILTER_FLOWER,
    .parent = H(4791, 0),
    .prio = 4792,
    .protocol = ETH_P_IPV6,
    .match_dscp = true,
    .dscp = 26,
    .dscp_mask = 0x3f,
    .action = PLAN_ACT_CLASSID,
    .classid = H(4791, 13),
};

void test_encode_invalid(void **state)
{
	static uint32_t buf[TC_MSG_BUF_SIZE / 4];
	const size_t sz = sizeof(buf);
	struct plan_qdisc q;
	struct plan_class c;
	struct plan_filter f;

	(void)state;
#define BADQ(base, edit)                                                       \
	do {                                                                   \
		q = base;                                                      \
		edit;                                                          \
		assert_int_equal(tc_msg_qdisc(buf, sz, TC_MSG_ADD, 1, 1, &q),  \
		                 -EINVAL);                                     \
	} while (0)
	BADQ(q_ets, q.u.ets.nbands = 0);
	BADQ(q_ets, q.u.ets.nbands = 9);
	BADQ(q_ets, q.u.ets.nstrict = 9);
	BADQ(q_ets, q.u.ets.priomap[15] = 8);
	BADQ(q_ets, q.u.ets.quanta[3] = 0);
	BADQ(q_prio, q.u.prio.bands = 1);
	BADQ(q_prio, q.u.prio.priomap[0] = 8);
	BADQ(q_red_1g, q.u.red.wlog = 32);
	BADQ(q_red_1g, q.u.red.scell_log = 32);
	BADQ(q_red_1g, q.u.red.qth_min = q.u.red.qth_max + 1);
	BADQ(q_red_1g, q.u.red.bandwidth = 0);
	BADQ(q_red_1g, q.u.red.avpkt = 0);
	BADQ(q_htb, q.kind = (enum plan_qdisc_kind)42);
#undef BADQ
	/* a strict-only ets has no quanta to check */
	q = q_ets;
	q.u.ets.nstrict = 8;
	memset(q.u.ets.quanta, 0, sizeof(q.u.ets.quanta));
	assert_int_equal(tc_msg_qdisc(buf, sz, TC_MSG_ADD, 1, 1, &q), 0);

	c = c_q3;
	c.rate = 0;
	assert_int_equal(tc_msg_class(buf, sz, TC_MSG_ADD, 1, 1, &c), -EINVAL);
	/* ceil 0 means ceil = rate, as tc does */
	c = c_root;
	c.ceil = 0;
	assert_int_equal(tc_msg_class(buf, sz, TC_MSG_ADD, 1, 1, &c), 0);

#define BADF(base, edit)                                                       \
	do {                                                                   \
		f = base;                                                      \
		edit;                                                          \
		assert_int_equal(tc_msg_filter(buf, sz, TC_MSG_ADD, 1, 1, &f), \
		                 -EINVAL);                                     \
	} while (0)
	BADF(f_u32_ip, f.match_pcp = true);
	BADF(f_u32_ip, f.protocol = ETH_P_8021Q);
	BADF(f_u32_ip, f.protocol = 0);
	BADF(f_u32_ip, f.prio = 0);
	BADF(f_u32_ip, f.kind = (enum plan_filter_kind)9);
	BADF(f_u32_ip, f.action = (enum plan_filter_action)9);
	BADF(f_flower_vlan_dscp, f.vlan_ethtype = 0);
	BADF(f_flower_vlan, f.pcp = 8);
	BADF(f_flower_skbedit, f.match_pcp = true);
	BADF(f_flower_skbedit, f.vlan_ethtype = ETH_P_IP);
	BADF(f_flower_skbedit, f.protocol = ETH_P_ARP);
	/* protocol all has no place to read a DSCP or a PCP from */
	BADF(f_u32_protoall,
	     (f.match_dscp = true, f.dscp = 26, f.dscp_mask = 0x3f));
	BADF(f_flower_protoall,
	     (f.match_dscp = true, f.dscp = 26, f.dscp_mask = 0x3f));
	BADF(f_flower_protoall, (f.match_pcp = true, f.pcp = 3));
#undef BADF
}

/* --- decoder semantics on hand-built kernel-style messages -------------- */

struct msg {
	uint32_t buf[1024];
	struct nlmsghdr *nlh;
};

/* Header and TCA_KIND; the caller adds TCA_OPTIONS if any. */
static void msg_start(struct msg *m, uint16_t type, uint32_t handle,
                      uint32_t parent, uint32_t info, const char *kind)
{
	struct tcmsg *tcm;

	memset(m->buf, 0, sizeof(m->buf));
	m->nlh = mnl_nlmsg_put_header(m->buf);
	m->nlh->nlmsg_type = type;
	m->nlh->nlmsg_flags = NLM_F_MULTI;
	tcm = mnl_nlmsg_put_extra_header(m->nlh, sizeof(*tcm));
	tcm->tcm_ifindex = 5;
	tcm->tcm_handle = handle;
	tcm->tcm_parent = parent;
	tcm->tcm_info = info;
	mnl_attr_put_strz(m->nlh, TCA_KIND, kind);
}

static struct nlattr *msg_opts(struct msg *m, const char *kind, uint16_t type,
                               uint32_t handle, uint32_t parent, uint32_t info)
{
	msg_start(m, type, handle, parent, info, kind);
	return mnl_attr_nest_start(m->nlh, TCA_OPTIONS);
}

void test_decode_foreign(void **state)
{
	struct tc_msg_qdisc q;
	struct tc_msg_class c;
	struct tc_msg_filter f;
	struct msg m;
	struct nlattr *o;

	(void)state;
	/* a foreign root: kind, handle and parent still reported */
	o = msg_opts(&m, "fq_codel", RTM_NEWQDISC, H(8001, 0), PLAN_H_ROOT, 0);
	mnl_attr_put_u32(m.nlh, 1, 10240);
	mnl_attr_nest_end(m.nlh, o);
	assert_int_equal(tc_msg_qdisc_parse(m.buf, sizeof(m.buf), &q), 0);
	assert_string_equal(q.kind, "fq_codel");
	assert_false(q.known);
	assert_false(q.roced);
	assert_int_equal(q.handle, H(8001, 0));
	assert_int_equal(q.parent, PLAN_H_ROOT);
	assert_int_equal(q.ifindex, 5);

	/* a removal notification */
	m.nlh->nlmsg_type = RTM_DELQDISC;
	assert_int_equal(tc_msg_qdisc_parse(m.buf, sizeof(m.buf), &q), 0);
	assert_true(q.deleted);

	/* other message types are not ours */
	m.nlh->nlmsg_type = NLMSG_ERROR;
	assert_int_equal(tc_msg_qdisc_parse(m.buf, sizeof(m.buf), &q), -ENOMSG);
	m.nlh->nlmsg_type = RTM_NEWTCLASS;
	assert_int_equal(tc_msg_qdisc_parse(m.buf, sizeof(m.buf), &q), -ENOMSG);
	assert_int_equal(tc_msg_class_parse(m.buf, sizeof(m.buf), &c), 0);
	assert_false(c.known);

	/* RED with ecn and nodrop: a no-drop queue's plan RED */
	o = msg_opts(&m, "red", RTM_NEWQDISC, H(4713, 0), H(4791, 5), 0);
	{
		struct tc_red_qopt opt = {
		    .limit = 1000, .qth_min = 10, .qth_max = 20, .Wlog = 1};
		struct nla_bitfield32 bf = {TC_RED_ECN | TC_RED_NODROP, 0xf};

		mnl_attr_put(m.nlh, TCA_RED_PARMS, sizeof(opt), &opt);
		mnl_attr_put_u32(m.nlh, TCA_RED_MAX_P, 1);
		mnl_attr_put(m.nlh, TCA_RED_FLAGS, sizeof(bf), &bf);
	}
	mnl_attr_nest_end(m.nlh, o);
	assert_int_equal(tc_msg_qdisc_parse(m.buf, sizeof(m.buf), &q), 0);
	assert_true(q.known);
	assert_true(q.q.u.red.ecn && q.q.u.red.nodrop);
	assert_false(q.q.u.red.harddrop);

	/* RED adaptive: valid, but not a plan RED */
	o = msg_opts(&m, "red", RTM_NEWQDISC, H(4713, 0), H(4791, 5), 0);
	{
		struct tc_red_qopt opt = {
		    .limit = 1000, .qth_min = 10, .qth_max = 20, .Wlog = 1};
		struct nla_bitfield32 bf = {TC_RED_ADAPTATIVE, 0xf};

		mnl_attr_put(m.nlh, TCA_RED_PARMS, sizeof(opt), &opt);
		mnl_attr_put_u32(m.nlh, TCA_RED_MAX_P, 1);
		mnl_attr_put(m.nlh, TCA_RED_FLAGS, sizeof(bf), &bf);
	}
	mnl_attr_nest_end(m.nlh, o);
	assert_int_equal(tc_msg_qdisc_parse(m.buf, sizeof(m.buf), &q), 0);
	assert_false(q.known);
	assert_int_equal(q.q.u.red.limit, 1000);

	/* a 16-band ets cannot be a plan ets */
	o = msg_opts(&m, "ets", RTM_NEWQDISC, H(4791, 0), PLAN_H_ROOT, 0);
	mnl_attr_put_u8(m.nlh, TCA_ETS_NBANDS, 16);
	mnl_attr_put_u8(m.nlh, TCA_ETS_NSTRICT, 16);
	mnl_attr_nest_end(m.nlh, o);
	assert_int_equal(tc_msg_qdisc_parse(m.buf, sizeof(m.buf), &q), 0);
	assert_false(q.known);
	/* ... and a 17-band one is malformed */
	o = msg_opts(&m, "ets", RTM_NEWQDISC, H(4791, 0), PLAN_H_ROOT, 0);
	mnl_attr_put_u8(m.nlh, TCA_ETS_NBANDS, 17);
	mnl_attr_nest_end(m.nlh, o);
	assert_int_equal(tc_msg_qdisc_parse(m.buf, sizeof(m.buf), &q), -EINVAL);
	/* more quanta than bands */
	o = msg_opts(&m, "ets", RTM_NEWQDISC, H(4791, 0), PLAN_H_ROOT, 0);
	mnl_attr_put_u8(m.nlh, TCA_ETS_NBANDS, 1);
	{
		struct nlattr *n = mnl_attr_nest_start(m.nlh, TCA_ETS_QUANTA);

		mnl_attr_put_u32(m.nlh, TCA_ETS_QUANTA_BAND, 1500);
		mnl_attr_put_u32(m.nlh, TCA_ETS_QUANTA_BAND, 1500);
		mnl_attr_nest_end(m.nlh, n);
	}
	mnl_attr_nest_end(m.nlh, o);
	assert_int_equal(tc_msg_qdisc_parse(m.buf, sizeof(m.buf), &q), -EINVAL);
	/* a kind roced uses, without its options */
	msg_start(&m, RTM_NEWQDISC, H(4791, 0), PLAN_H_ROOT, 0, "htb");
	assert_int_equal(tc_msg_qdisc_parse(m.buf, sizeof(m.buf), &q), -EINVAL);
	/* a kind that is not a string */
	msg_start(&m, RTM_NEWQDISC, H(4791, 0), PLAN_H_ROOT, 0,
	          "0123456789abcdef");
	assert_int_equal(tc_msg_qdisc_parse(m.buf, sizeof(m.buf), &q), -EINVAL);

	/* a filter of a classifier roced does not use */
	o = msg_opts(&m, "matchall", RTM_NEWTFILTER, 1, H(4791, 0),
	             PLAN_H_MAKE(49152, htons(ETH_P_ALL)));
	mnl_attr_put_u32(m.nlh, 1, 1);
	mnl_attr_nest_end(m.nlh, o);
	assert_int_equal(tc_msg_filter_parse(m.buf, sizeof(m.buf), &f), 0);
	assert_true(f.rule);
	assert_false(f.known);
	assert_false(f.roced);
	assert_int_equal(f.f.prio, 49152);
	assert_int_equal(f.f.protocol, ETH_P_ALL);
}

static void put_skbedit(struct nlmsghdr *nlh, uint16_t type, bool mark,
                        int action, int count)
{
	struct nlattr *acts = mnl_attr_nest_start(nlh, type);

	for (int i = 1; i <= count; i++) {
		struct tc_skbedit p = {.action = action};
		struct nlattr *a = mnl_attr_nest_start(nlh, (uint16_t)i);
		struct nlattr *o;

		mnl_attr_put_strz(nlh, TCA_ACT_KIND, "skbedit");
		o = mnl_attr_nest_start(nlh, TCA_ACT_OPTIONS);
		mnl_attr_put(nlh, TCA_SKBEDIT_PARMS, sizeof(p), &p);
		mnl_attr_put_u32(nlh, TCA_SKBEDIT_PRIORITY, 3);
		if (mark)
			mnl_attr_put_u32(nlh, TCA_SKBEDIT_MARK, 1);
		mnl_attr_nest_end(nlh, o);
		mnl_attr_nest_end(nlh, a);
	}
	mnl_attr_nest_end(nlh, acts);
}

/* A flower rule with ip_tos V/M, the given extra attribute, skbedit. */
static bool flower_known(uint8_t tos, uint8_t mask, uint16_t extra,
                         uint32_t flags, bool mark, int action, int count)
{
	struct tc_msg_filter f;
	struct msg m;
	struct nlattr *o;

	o = msg_opts(&m, "flower", RTM_NEWTFILTER, 1, PLAN_H_CLSACT_INGRESS,
	             PLAN_H_MAKE(4791, htons(ETH_P_IP)));
	mnl_attr_put_u16(m.nlh, TCA_FLOWER_KEY_ETH_TYPE, htons(ETH_P_IP));
	mnl_attr_put_u8(m.nlh, TCA_FLOWER_KEY_IP_TOS, tos);
	mnl_attr_put_u8(m.nlh, TCA_FLOWER_KEY_IP_TOS_MASK, mask);
	if (extra)
		mnl_attr_put_u8(m.nlh, extra, 17);
	mnl_attr_put_u32(m.nlh, TCA_FLOWER_FLAGS, flags);
	put_skbedit(m.nlh, TCA_FLOWER_ACT, mark, action, count);
	mnl_attr_nest_end(m.nlh, o);
	assert_int_equal(tc_msg_filter_parse(m.buf, sizeof(m.buf), &f), 0);
	assert_true(f.rule);
	if (f.known) {
		assert_int_equal(f.f.dscp, tos >> 2);
		assert_int_equal(f.f.priority, 3);
	}
	return f.known;
}

void test_decode_not_ours(void **state)
{
	(void)state;
	assert_true(flower_known(0x68, 0xfc, 0, TCA_CLS_FLAGS_NOT_IN_HW, false,
	                         TC_ACT_PIPE, 1));
	/* a key roced does not write */
	assert_false(flower_known(0x68, 0xfc, TCA_FLOWER_KEY_IP_PROTO, 0, false,
	                          TC_ACT_PIPE, 1));
	/* ECN bits in the mask */
	assert_false(flower_known(0x68, 0xff, 0, 0, false, TC_ACT_PIPE, 1));
	/* skip_sw: the rule would not run here */
	assert_false(flower_known(0x68, 0xfc, 0, TCA_CLS_FLAGS_SKIP_SW, false,
	                          TC_ACT_PIPE, 1));
	/* skbedit that also marks, stops, or comes twice */
	assert_false(flower_known(0x68, 0xfc, 0, 0, true, TC_ACT_PIPE, 1));
	assert_false(flower_known(0x68, 0xfc, 0, 0, false, TC_ACT_OK, 1));
	assert_false(flower_known(0x68, 0xfc, 0, 0, false, TC_ACT_PIPE, 2));
	assert_false(flower_known(0x68, 0xfc, 0, 0, false, TC_ACT_PIPE, 0));
}

static bool u32_known(const struct tc_u32_key *keys, uint8_t nkeys,
                      uint8_t flags, bool classid)
{
	struct tc_msg_filter f;
	struct msg m;
	struct nlattr *o;
	uint8_t sel[sizeof(struct tc_u32_sel) + 2 * sizeof(struct tc_u32_key)];
	struct tc_u32_sel s = {.flags = flags, .nkeys = nkeys};

	memcpy(sel, &s, sizeof(s));
	memcpy(sel + sizeof(s), keys, nkeys * sizeof(*keys));
	o = msg_opts(&m, "u32", RTM_NEWTFILTER, 0x80000800, H(4791, 0),
	             PLAN_H_MAKE(4791, htons(ETH_P_IP)));
	mnl_attr_put(m.nlh, TCA_U32_SEL, sizeof(s) + nkeys * sizeof(*keys),
	             sel);
	if (classid)
		mnl_attr_put_u32(m.nlh, TCA_U32_CLASSID, H(4791, 13));
	mnl_attr_nest_end(m.nlh, o);
	assert_int_equal(tc_msg_filter_parse(m.buf, sizeof(m.buf), &f), 0);
	assert_true(f.rule);
	return f.known;
}

void test_decode_u32_shapes(void **state)
{
	struct tc_u32_key k[2] = {
	    {.mask = htonl(0x00fc0000), .val = htonl(0x00680000)},
	    {.mask = htonl(0x000000ff), .val = htonl(0x00000011), .off = 8},
	};
	struct tc_msg_filter f;
	struct msg m;

	(void)state;
	assert_true(u32_known(k, 1, TC_U32_TERMINAL, true));
	assert_true(u32_known(k, 0, TC_U32_TERMINAL, true));
	assert_false(u32_known(k, 2, TC_U32_TERMINAL, true));
	assert_false(u32_known(k, 1, 0, true));
	assert_false(u32_known(k, 1, TC_U32_TERMINAL, false));
	k[0].mask = htonl(0x00ff0000); /* ECN bits */
	assert_false(u32_known(k, 1, TC_U32_TERMINAL, true));
	k[0].mask = htonl(0x00fc0000);
	k[0].off = 4;
	assert_false(u32_known(k, 1, TC_U32_TERMINAL, true));
	k[0].off = 0;
	k[0].val = htonl(0x00690000); /* value outside the mask */
	assert_false(u32_known(k, 1, TC_U32_TERMINAL, true));

	/* a selector shorter than its key count is malformed */
	{
		struct tc_u32_sel s = {.flags = TC_U32_TERMINAL, .nkeys = 3};
		struct nlattr *o;

		o = msg_opts(&m, "u32", RTM_NEWTFILTER, 0x80000800, H(4791, 0),
		             PLAN_H_MAKE(4791, htons(ETH_P_IP)));
		mnl_attr_put(m.nlh, TCA_U32_SEL, sizeof(s), &s);
		mnl_attr_nest_end(m.nlh, o);
		assert_int_equal(tc_msg_filter_parse(m.buf, sizeof(m.buf), &f),
		                 -EINVAL);
	}
}

/* --- same(), ownership ---------------------------------------------------- */

void test_same(void **state)
{
	struct plan_qdisc a = q_htb, b = q_htb;
	struct plan_class c = c_root, d = c_root;
	struct plan_filter f = f_flower_skbedit, g = f_flower_skbedit;

	(void)state;
	/* r2q 0 is sent as tc's default 10 */
	b.u.htb.r2q = 10;
	assert_true(tc_msg_qdisc_same(&a, &b));
	b.u.htb.r2q = 11;
	assert_false(tc_msg_qdisc_same(&a, &b));
	b = a;
	b.u.htb.defcls = 0x11;
	assert_false(tc_msg_qdisc_same(&a, &b));
	b = a;
	b.parent = H(4791, 1);
	assert_false(tc_msg_qdisc_same(&a, &b));

	a = q_ets;
	b = q_ets;
	b.u.ets.quanta[0] = 99; /* strict band: the kernel has no quantum */
	memset(b.u.ets.band_queue, -1, sizeof(b.u.ets.band_queue));
	assert_true(tc_msg_qdisc_same(&a, &b));
	b.u.ets.quanta[7] = 99;
	assert_false(tc_msg_qdisc_same(&a, &b));

	a = q_red_1g;
	b = q_red_1g;
	b.u.red.avpkt = b.u.red.burst = 0; /* tc's inputs, not kernel state */
	b.u.red.bandwidth = 0;
	assert_true(tc_msg_qdisc_same(&a, &b));
	a.u.red.max_p = 0; /* kernel derives it */
	assert_true(tc_msg_qdisc_same(&a, &b));
	b.u.red.scell_log++;
	assert_false(tc_msg_qdisc_same(&a, &b));

	/* quantum 0 and ceil 0 leave values to the kernel; prio caps at 7 */
	d.quantum = 200000;
	assert_true(tc_msg_class_same(&c, &d));
	c.ceil = 0;
	assert_true(tc_msg_class_same(&c, &d));
	c.prio = 9;
	d.prio = 7;
	assert_true(tc_msg_class_same(&c, &d));
	d.rate++;
	assert_false(tc_msg_class_same(&c, &d));

	/* DSCP compared under its mask */
	f.dscp = 26 | 0x40;
	assert_true(tc_msg_filter_same(&f, &g));
	f.dscp_mask = 0x3c;
	g.dscp_mask = 0x3c;
	g.dscp = 24;
	assert_true(tc_msg_filter_same(&f, &g));
	g.priority = 4;
	assert_false(tc_msg_filter_same(&f, &g));
	g = f;
	g.parent = PLAN_H_CLSACT_EGRESS;
	assert_false(tc_msg_filter_same(&f, &g));
}

void test_ownership(void **state)
{
	(void)state;
	assert_true(tc_msg_qdisc_is_roced(H(4791, 0)));
	assert_true(tc_msg_qdisc_is_roced(H(4710, 0)));
	assert_true(tc_msg_qdisc_is_roced(H(4717, 0)));
	assert_false(tc_msg_qdisc_is_roced(H(4718, 0)));
	assert_false(tc_msg_qdisc_is_roced(H(1, 0)));
	assert_int_equal(tc_msg_leaf_queue(H(4713, 0)), 3);
	assert_int_equal(tc_msg_leaf_queue(H(4791, 0)), -1);
	/* inside a leaf (red in a software PFC tbf): roced's, not a leaf */
	assert_true(tc_msg_qdisc_is_roced(H(4723, 0)));
	assert_true(tc_msg_qdisc_is_roced(H(4727, 0)));
	assert_false(tc_msg_qdisc_is_roced(H(4728, 0)));
	assert_int_equal(tc_msg_inner_queue(H(4723, 0)), 3);
	assert_int_equal(tc_msg_inner_queue(H(4713, 0)), -1);
	assert_int_equal(tc_msg_leaf_queue(H(4723, 0)), -1);
	assert_true(tc_msg_class_is_roced(H(4791, 13)));
	assert_false(tc_msg_class_is_roced(H(1, 13)));
	assert_int_equal(tc_msg_class_queue(H(4791, 17)), 7);
	assert_int_equal(tc_msg_class_queue(H(4791, 18)), -1);
	assert_int_equal(tc_msg_class_queue(H(4791, 1)), -1);
	assert_true(tc_msg_filter_is_roced(PLAN_FILTER_PRIO_BASE));
	assert_true(tc_msg_filter_is_roced(PLAN_FILTER_PRIO_MAX));
	assert_false(tc_msg_filter_is_roced(PLAN_FILTER_PRIO_MAX + 1));
	assert_false(tc_msg_filter_is_roced(49152));
}

/* RED's idle table when tc's damping factor is infinite (Wlog 0, or a
 * packet sent in under a microsecond): zeros, then 31. */
void test_red_wlog0(void **state)
{
	static uint32_t buf[TC_MSG_BUF_SIZE / 4];
	struct plan_qdisc q = q_red_1g;
	struct tc_msg_qdisc d;
	const uint8_t *p = (const uint8_t *)buf;
	size_t off;

	(void)state;
	q.u.red.wlog = 0;
	assert_int_equal(tc_msg_qdisc(buf, sizeof(buf), TC_MSG_ADD, 1, 1, &q),
	                 0);
	/* nlmsghdr 16 + tcmsg 20 + kind 8 + options 4 + parms 20 + stab hdr */
	off = 16 + 20 + 8 + 4 + 20 + 4;
	assert_int_equal(p[off - 2], TCA_RED_STAB);
	for (size_t i = 0; i < 255; i++)
		assert_int_equal(p[off + i], 0);
	assert_int_equal(p[off + 255], 31);
	assert_int_equal(tc_msg_qdisc_parse(buf, buf[0], &d), 0);
	assert_int_equal(d.q.u.red.wlog, 0);
}

/* An htb class's token buckets go to the kernel as times; decoded back
 * they must compare equal to the plan and re-encode to the same times, or
 * every reconcile would rewrite the class (and a rollback would not put
 * back the exact state). */
void test_class_burst_round_trip(void **state)
{
	static const uint64_t rates[] = {1250000ull, 625000000ull,
	                                 1250000000ull, 5000000000ull};
	static const uint32_t bursts[] = {18468, 625000, 1250000, 9234 * 2};

	(void)state;
	for (size_t r = 0; r < sizeof(rates) / sizeof(rates[0]); r++) {
		for (size_t b = 0; b < sizeof(bursts) / sizeof(bursts[0]);
		     b++) {
			uint8_t buf1[TC_MSG_BUF_SIZE], buf2[TC_MSG_BUF_SIZE];
			struct plan_class c = {
			    .classid = PLAN_H_MAKE(PLAN_ROOT_MAJOR, 0x13),
			    .parent = PLAN_H_MAKE(PLAN_ROOT_MAJOR, 1),
			    .rate = rates[r],
			    .ceil = 1250000000ull,
			    .prio = 1,
			    .quantum = 9234,
			    .burst = bursts[b],
			    .cburst = 1250000,
			    .queue = 3,
			};
			struct tc_msg_class d1, d2;

			assert_int_equal(tc_msg_class(buf1, sizeof(buf1),
			                              TC_MSG_ADD, 7, 1, &c),
			                 0);
			assert_int_equal(
			    tc_msg_class_parse(buf1, sizeof(buf1), &d1), 0);
			assert_true(tc_msg_class_same(&c, &d1.c));
			assert_int_equal(tc_msg_class(buf2, sizeof(buf2),
			                              TC_MSG_ADD, 7, 1, &d1.c),
			                 0);
			assert_int_equal(
			    tc_msg_class_parse(buf2, sizeof(buf2), &d2), 0);
			assert_int_equal(d2.buffer, d1.buffer);
			assert_int_equal(d2.cbuffer, d1.cbuffer);
		}
	}
}

/* Rate tables from the cache: byte for byte what tc_msg_class() writes,
 * through hits, misses and evictions (more rates than entries). */
void test_class_rtab_cache(void **state)
{
	static struct tc_msg_rtab_cache cache;
	const struct plan_class *base[] = {&c_root, &c_q3,     &c_q3_half,
	                                   &c_q0,   &c_rate64, &c_q3_hold};
	uint32_t a[TC_MSG_BUF_SIZE / 4], b[TC_MSG_BUF_SIZE / 4];

	(void)state;
	memset(&cache, 0, sizeof(cache));
	for (unsigned round = 0; round < 3; round++) {
		for (unsigned k = 0; k < 2 * TC_MSG_RTAB_CACHE; k++) {
			struct plan_class c = *base[k % ARRAY_SIZE(base)];
			uint32_t n1, n2;

			/* round 1 repeats round 0 (hits); round 2 brings
			 * new rates (evictions) */
			if (k >= ARRAY_SIZE(base))
				c.rate =
				    1000000ull * (k + (round == 2 ? 50 : 0));
			memset(a, 0xa5, sizeof(a));
			memset(b, 0x5a, sizeof(b));
			assert_int_equal(
			    tc_msg_class(a, sizeof(a), TC_MSG_ADD, 3, 9, &c),
			    0);
			assert_int_equal(tc_msg_class_cached(b, sizeof(b),
			                                     TC_MSG_ADD, 3, 9,
			                                     &c, &cache),
			                 0);
			memcpy(&n1, a, 4);
			memcpy(&n2, b, 4);
			assert_int_equal(n1, n2);
			assert_memory_equal(a, b, n1);
		}
	}

	/* The table does come from the cache: a doctored entry shows. */
	assert_int_equal(
	    tc_msg_class_cached(b, sizeof(b), TC_MSG_ADD, 3, 9, &c_q0, &cache),
	    0);
	for (unsigned i = 0; i < TC_MSG_RTAB_CACHE; i++)
		if (cache.e[i].used && cache.e[i].rate == c_q0.rate)
			cache.e[i].rtab[0] ^= 1;
	assert_int_equal(tc_msg_class(a, sizeof(a), TC_MSG_ADD, 3, 9, &c_q0),
	                 0);
	assert_int_equal(
	    tc_msg_class_cached(b, sizeof(b), TC_MSG_ADD, 3, 9, &c_q0, &cache),
	    0);
	assert_memory_not_equal(a, b, TC_MSG_BUF_SIZE / 2);
}
