/* test_tc_msg_bpf: the cls_bpf rule (one classic BPF program returning
 * the class) through the tc codec. The request and the kernel's dump are
 * fixtures (req-filter-bpf-add, dump-htb-filter-bpf, checked in
 * test_tc_msg.c); here: what the decoder makes of rules of other shapes,
 * what the encoder refuses, and when two programs are the same.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <errno.h>

#include <libmnl/libmnl.h>
#include <linux/filter.h>
#include <linux/if_ether.h>
#include <linux/pkt_cls.h>
#include <linux/rtnetlink.h>

#include "nlmsg/tc_msg.h"
#include "tc_msg_test.h"

/* tc filter add dev v0 parent 4791: protocol all prio 4791 bpf bytecode
 *     '4,40 0 0 12,21 0 1 2048,6 0 0 1200685075,6 0 0 4294967295'
 *     classid 4791:10
 * (ldh [12]; jeq #0x800 ? ret #4791:13 : ret #-1) */
const struct plan_filter f_bpf_ipv4 = {
    .kind = PLAN_FILTER_BPF,
    .parent = H(4791, 0),
    .prio = 4791,
    .protocol = ETH_P_ALL,
    .action = PLAN_ACT_CLASSID,
    .classid = H(4791, 10),
    .bpf_len = 4,
    .bpf = {{BPF_LD | BPF_H | BPF_ABS, 0, 0, 12},
            {BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0x0800},
            {BPF_RET | BPF_K, 0, 0, H(4791, 13)},
            {BPF_RET | BPF_K, 0, 0, 0xffffffffu}},
};

/* A kernel-style dump of a bpf rule: the program F carries, then EXTRA
 * (0: none) with a u32 value, and the OPS_LEN given (or the right one). */
static int bpf_msg(uint32_t *buf, size_t size, const struct plan_filter *f,
                   uint16_t extra, int ops_len, uint16_t protocol,
                   struct tc_msg_filter *out)
{
	struct nlmsghdr *nlh;
	struct tcmsg *tcm;
	struct nlattr *o;
	struct sock_filter ops[PLAN_BPF_MAX];

	memset(buf, 0, size);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_NEWTFILTER;
	nlh->nlmsg_flags = NLM_F_MULTI;
	tcm = mnl_nlmsg_put_extra_header(nlh, sizeof(*tcm));
	tcm->tcm_ifindex = 5;
	tcm->tcm_handle = 1;
	tcm->tcm_parent = f->parent;
	tcm->tcm_info = PLAN_H_MAKE(f->prio, htons(protocol));
	mnl_attr_put_strz(nlh, TCA_KIND, "bpf");
	o = mnl_attr_nest_start(nlh, TCA_OPTIONS);
	mnl_attr_put_u32(nlh, TCA_BPF_CLASSID, f->classid);
	for (unsigned i = 0; i < f->bpf_len; i++)
		ops[i] = (struct sock_filter){f->bpf[i].code, f->bpf[i].jt,
		                              f->bpf[i].jf, f->bpf[i].k};
	mnl_attr_put_u16(nlh, TCA_BPF_OPS_LEN,
	                 (uint16_t)(ops_len < 0 ? f->bpf_len : ops_len));
	mnl_attr_put(nlh, TCA_BPF_OPS, f->bpf_len * sizeof(ops[0]), ops);
	if (extra)
		mnl_attr_put_u32(nlh, extra, 1);
	mnl_attr_put_u32(nlh, TCA_BPF_FLAGS_GEN, TCA_CLS_FLAGS_NOT_IN_HW);
	mnl_attr_nest_end(nlh, o);
	return tc_msg_filter_parse(buf, nlh->nlmsg_len, out);
}

/* roced's shape decodes whole; any other shape is a rule of someone
 * else's (or edited) that diff will replace; a length that disagrees with
 * the program is malformed and says so. */
void test_decode_bpf_shapes(void **state)
{
	uint32_t buf[1024];
	struct tc_msg_filter d;
	struct plan_filter big = f_bpf_ipv4;

	(void)state;
	assert_int_equal(
	    bpf_msg(buf, sizeof(buf), &f_bpf_ipv4, 0, -1, ETH_P_ALL, &d), 0);
	assert_true(d.rule && d.known && d.roced);
	assert_true(tc_msg_filter_same(&f_bpf_ipv4, &d.f));

	/* direct-action, a name: not roced's */
	assert_int_equal(bpf_msg(buf, sizeof(buf), &f_bpf_ipv4, TCA_BPF_FLAGS,
	                         -1, ETH_P_ALL, &d),
	                 0);
	assert_true(d.rule && d.roced);
	assert_false(d.known);
	assert_int_equal(bpf_msg(buf, sizeof(buf), &f_bpf_ipv4, TCA_BPF_NAME,
	                         -1, ETH_P_ALL, &d),
	                 0);
	assert_false(d.known);
	/* another protocol */
	assert_int_equal(
	    bpf_msg(buf, sizeof(buf), &f_bpf_ipv4, 0, -1, ETH_P_IP, &d), 0);
	assert_false(d.known);
	assert_false(tc_msg_filter_same(&f_bpf_ipv4, &d.f));
	/* longer than a plan holds */
	big.bpf_len = PLAN_BPF_MAX;
	for (unsigned i = 0; i < PLAN_BPF_MAX; i++)
		big.bpf[i] = f_bpf_ipv4.bpf[0];
	big.bpf[PLAN_BPF_MAX - 1] = f_bpf_ipv4.bpf[3];
	assert_int_equal(bpf_msg(buf, sizeof(buf), &big, 0, -1, ETH_P_ALL, &d),
	                 0);
	assert_true(d.known);
	assert_int_equal(d.f.bpf_len, PLAN_BPF_MAX);
	/* a length that disagrees with the program */
	assert_int_equal(
	    bpf_msg(buf, sizeof(buf), &f_bpf_ipv4, 0, 3, ETH_P_ALL, &d),
	    -EINVAL);
	assert_non_null(d.why);
	assert_non_null(strstr(d.why, "bpf"));
	assert_int_equal(d.f.prio, 4791);
}

/* What a plan may not send as a bpf rule. */
void test_encode_bpf_invalid(void **state)
{
	uint8_t buf[TC_MSG_BUF_SIZE] __attribute__((aligned(4)));
	struct plan_filter f;

	(void)state;
	assert_int_equal(
	    tc_msg_filter(buf, sizeof(buf), TC_MSG_ADD, 3, 1, &f_bpf_ipv4), 0);
	f = f_bpf_ipv4;
	f.bpf_len = 0;
	assert_int_equal(tc_msg_filter(buf, sizeof(buf), TC_MSG_ADD, 3, 1, &f),
	                 -EINVAL);
	f = f_bpf_ipv4;
	f.protocol = ETH_P_IP;
	assert_int_equal(tc_msg_filter(buf, sizeof(buf), TC_MSG_ADD, 3, 1, &f),
	                 -EINVAL);
	f = f_bpf_ipv4;
	f.match_pcp = true;
	assert_int_equal(tc_msg_filter(buf, sizeof(buf), TC_MSG_ADD, 3, 1, &f),
	                 -EINVAL);
	f = f_bpf_ipv4;
	f.action = PLAN_ACT_SKBEDIT_PRIORITY;
	assert_int_equal(tc_msg_filter(buf, sizeof(buf), TC_MSG_ADD, 3, 1, &f),
	                 -EINVAL);
	/* the longest program fits a request */
	f = f_bpf_ipv4;
	f.bpf_len = PLAN_BPF_MAX;
	assert_int_equal(tc_msg_filter(buf, sizeof(buf), TC_MSG_ADD, 3, 1, &f),
	                 0);
	assert_int_equal(tc_msg_filter(buf, 200, TC_MSG_ADD, 3, 1, &f),
	                 -EMSGSIZE);
}

/* Two programs are the same only instruction for instruction, with the
 * same default class. */
void test_same_bpf(void **state)
{
	struct plan_filter a = f_bpf_ipv4, b = f_bpf_ipv4;

	(void)state;
	assert_true(tc_msg_filter_same(&a, &b));
	b.bpf[2].k = H(4791, 16);
	assert_false(tc_msg_filter_same(&a, &b));
	b = a;
	b.bpf[1].jf = 0;
	assert_false(tc_msg_filter_same(&a, &b));
	b = a;
	b.bpf_len = 3;
	assert_false(tc_msg_filter_same(&a, &b));
	b = a;
	b.classid = H(4791, 11);
	assert_false(tc_msg_filter_same(&a, &b));
	/* names roced keeps for itself do not count */
	b = a;
	strcpy(b.class_name, "ROCE_POLICY");
	assert_true(tc_msg_filter_same(&a, &b));
}
