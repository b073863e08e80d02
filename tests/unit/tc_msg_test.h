/* tc_msg_test.h: shared between test_tc_msg.c (fixtures, encoding,
 * decoding of captures, mutations) and test_tc_msg_cases.c (hand-built
 * messages, comparisons, encoder refusals). */
#ifndef ROCED_TC_MSG_TEST_H
#define ROCED_TC_MSG_TEST_H

#include "nlmsg/tc_msg.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define H(maj, min)   PLAN_H_MAKE(0x##maj, 0x##min)

/* Plan objects behind the captured command lines (test_tc_msg_cases.c). */
extern const struct plan_qdisc q_htb;
extern const struct plan_qdisc q_bfifo;
extern const struct plan_qdisc q_pfifo;
extern const struct plan_qdisc q_clsact;
extern const struct plan_qdisc q_ets;
extern const struct plan_qdisc q_ets_nostrict;
extern const struct plan_qdisc q_prio;
extern const struct plan_qdisc q_red_10g;
extern const struct plan_qdisc q_red_1g;
extern const struct plan_qdisc q_red_100m;
extern const struct plan_class c_root;
extern const struct plan_class c_q3;
extern const struct plan_class c_q3_half;
extern const struct plan_class c_q3_hold;
extern const struct plan_class c_q0;
extern const struct plan_class c_rate64;
extern const struct plan_filter f_u32_ip;
extern const struct plan_filter f_u32_ip6;
extern const struct plan_filter f_u32_all;
extern const struct plan_filter f_u32_protoall;
extern const struct plan_filter f_flower_protoall;
extern const struct plan_filter f_u32_skbedit;
extern const struct plan_filter f_u32_ip6_skbedit;
extern const struct plan_filter f_flower_skbedit;
extern const struct plan_filter f_flower_mark;
extern const struct plan_filter f_flower_vlan;
extern const struct plan_filter f_flower_vlan_dscp;
extern const struct plan_filter f_flower_classid;
extern const struct plan_filter f_flower_ip6_classid;
extern const struct plan_filter f_bpf_ipv4;

void test_encode_invalid(void **state);
void test_decode_foreign(void **state);
void test_decode_not_ours(void **state);
void test_decode_u32_shapes(void **state);
void test_same(void **state);
void test_ownership(void **state);
void test_red_wlog0(void **state);
void test_class_burst_round_trip(void **state);
void test_class_rtab_cache(void **state);
/* test_tc_msg_bpf.c */
void test_decode_bpf_shapes(void **state);
void test_encode_bpf_invalid(void **state);
void test_same_bpf(void **state);

#endif
