/* test_compile_bpf: class-maps as one cls_bpf program (compile_bpf.c),
 * on the host kernel's capabilities (no flower, no skbedit, cls_bpf).
 *
 * Each program is checked as the kernel's checker would check it and then
 * run, in the interpreter of bpf_run.c, on frames of every kind a
 * class-map tells apart: untagged, tagged with the tag in the skb's
 * metadata (veth, NICs with VLAN offload) or still in the bytes, IPv4,
 * IPv6 and neither. The expected class is the one NX-OS would choose.
 * tests/integration/apply_bpf.sh runs the same programs in the kernel.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "bpf_run.h"
#include "tcomp.h"

/* What cls_bpf makes of the return: -1 is the filter's classid. */
#define DEFAULT_CLASS UINT32_MAX

enum frame_kind {
	F_IP4,
	F_IP6,
	F_ARP
};

enum tag_kind {
	T_NONE,
	T_META,   /* the tag in the metadata */
	T_INLINE, /* the tag in the bytes */
};

/* The program's return for one frame; the program is checked first. */
static uint32_t classify(const struct plan_filter *f, enum frame_kind k,
                         enum tag_kind tag, int pcp, uint8_t dscp)
{
	uint8_t buf[64];
	struct bpf_frame fr = {.data = buf};
	int tpcp = tag == T_NONE ? -1 : pcp;
	const char *why = NULL;

	if (bpf_run_check(f->bpf, f->bpf_len, &why))
		fail_msg("the kernel would refuse the program: %s", why);
	if (k == F_IP4)
		fr.len = bpf_frame_ipv4(buf, tpcp, tag == T_INLINE, dscp);
	else if (k == F_IP6)
		fr.len = bpf_frame_ipv6(buf, tpcp, tag == T_INLINE, dscp);
	else
		fr.len = bpf_frame_arp(buf);
	if (tag == T_META) {
		fr.vlan_present = true;
		fr.vlan_tci = (uint16_t)(pcp << 13 | 7);
	}
	return bpf_run(f->bpf, f->bpf_len, &fr);
}

/* The port's one filter: a bpf program on the htb root, class-default
 * to q-default. */
static const struct plan_filter *the_program(const struct plan_port *pp)
{
	const struct plan_filter *f;

	assert_int_equal(pp->layout, PLAN_LAYOUT_HTB_FIFO);
	assert_int_equal(pp->nfilters, 1);
	f = &pp->filters[0];
	assert_int_equal(f->kind, PLAN_FILTER_BPF);
	assert_int_equal(f->parent, ROOT);
	assert_int_equal(f->prio, PLAN_FILTER_PRIO_BASE);
	assert_int_equal(f->protocol, COMPILE_ETH_P_ALL);
	assert_int_equal(f->action, PLAN_ACT_CLASSID);
	assert_int_equal(f->classid, HTBQ(0));
	assert_true(f->bpf_len > 0 && f->bpf_len <= PLAN_BPF_MAX);
	return f;
}

/* The reference policy with ROCE_CLASS as MATCH on COS/DSCP (group 3),
 * and CNP (dscp 48, group 6) after it. */
static const struct plan_port *roce_cnp(struct policy *p, struct plan *pl,
                                        enum policy_match match, uint8_t cos,
                                        uint64_t dscp)
{
	tcomp_ref_policy(p, POLICY_PFC_ON);
	p->class_qos[0].match = match;
	p->class_qos[0].cos = cos;
	p->class_qos[0].dscp = dscp;
	tcomp_add_class(p, "CNP", POLICY_MATCH_ANY, 0, 1ull << 48);
	tcomp_add_rule(&p->map_qos[0], "CNP", 6);
	return tcomp_run_preset(p, "eth1", CAPS_PRESET_HOST, pl);
}

/* match-any cos 3 / dscp 26: either one is enough, wherever the tag is
 * and whichever IP version; dscp 48 is CNP's, in the upper word. */
static void test_bpf_match_any(void **state)
{
	struct policy p;
	struct plan pl;
	const struct plan_port *pp;
	const struct plan_filter *f;

	(void)state;
	pp = roce_cnp(&p, &pl, POLICY_MATCH_ANY, 1u << 3, 1ull << 26);
	f = the_program(pp);
	tcomp_want_warning(pp, "one cls_bpf program");
	assert_int_equal(
	    tcomp_count_msgs(pp, DIAG_WARNING, "classes after it are not"), 0);
	/* DSCP 26, untagged and behind either kind of tag */
	assert_int_equal(classify(f, F_IP4, T_NONE, 0, 26), HTBQ(3));
	assert_int_equal(classify(f, F_IP6, T_NONE, 0, 26), HTBQ(3));
	assert_int_equal(classify(f, F_IP4, T_META, 0, 26), HTBQ(3));
	assert_int_equal(classify(f, F_IP6, T_INLINE, 5, 26), HTBQ(3));
	/* CoS 3 with any DSCP, in the metadata or inline, and on non-IP */
	assert_int_equal(classify(f, F_IP4, T_META, 3, 0), HTBQ(3));
	assert_int_equal(classify(f, F_IP4, T_INLINE, 3, 0), HTBQ(3));
	assert_int_equal(classify(f, F_IP6, T_META, 3, 10), HTBQ(3));
	assert_int_equal(classify(f, F_ARP, T_META, 3, 0), HTBQ(3));
	/* CoS 3 wins over CNP's DSCP: the first class that matches */
	assert_int_equal(classify(f, F_IP4, T_META, 3, 48), HTBQ(3));
	/* CNP */
	assert_int_equal(classify(f, F_IP4, T_NONE, 0, 48), HTBQ(6));
	assert_int_equal(classify(f, F_IP6, T_NONE, 0, 48), HTBQ(6));
	assert_int_equal(classify(f, F_IP6, T_META, 2, 48), HTBQ(6));
	/* the rest: class-default */
	assert_int_equal(classify(f, F_IP4, T_NONE, 0, 0), DEFAULT_CLASS);
	assert_int_equal(classify(f, F_IP4, T_NONE, 0, 27), DEFAULT_CLASS);
	assert_int_equal(classify(f, F_IP6, T_META, 4, 58), DEFAULT_CLASS);
	assert_int_equal(classify(f, F_IP4, T_INLINE, 2, 16), DEFAULT_CLASS);
	assert_int_equal(classify(f, F_ARP, T_NONE, 0, 0), DEFAULT_CLASS);
	/* a frame too short for the IPv4 header ends the program: 0, no
	 * match, the htb default class */
	{
		uint8_t buf[64];
		struct bpf_frame fr = {.data = buf};

		fr.len = bpf_frame_ipv4(buf, -1, false, 26);
		fr.len = 15;
		assert_int_equal(bpf_run(f->bpf, f->bpf_len, &fr), 0);
	}
	plan_free(&pl);
	policy_free(&p);
}

/* match-all cos 3 and dscp 26 (the reference): both must hold. */
static void test_bpf_match_all(void **state)
{
	struct policy p;
	struct plan pl;
	const struct plan_port *pp;
	const struct plan_filter *f;

	(void)state;
	pp = roce_cnp(&p, &pl, POLICY_MATCH_ALL, 1u << 3, 1ull << 26);
	f = the_program(pp);
	assert_int_equal(
	    tcomp_count_msgs(pp, DIAG_NOTE, "untagged frames carry no CoS"), 1);
	assert_int_equal(classify(f, F_IP4, T_META, 3, 26), HTBQ(3));
	assert_int_equal(classify(f, F_IP6, T_META, 3, 26), HTBQ(3));
	assert_int_equal(classify(f, F_IP4, T_INLINE, 3, 26), HTBQ(3));
	assert_int_equal(classify(f, F_IP6, T_INLINE, 3, 26), HTBQ(3));
	/* one of the two is not enough */
	assert_int_equal(classify(f, F_IP4, T_NONE, 0, 26), DEFAULT_CLASS);
	assert_int_equal(classify(f, F_IP4, T_META, 2, 26), DEFAULT_CLASS);
	assert_int_equal(classify(f, F_IP4, T_META, 3, 25), DEFAULT_CLASS);
	assert_int_equal(classify(f, F_ARP, T_META, 3, 0), DEFAULT_CLASS);
	/* CNP after it still works */
	assert_int_equal(classify(f, F_IP4, T_META, 3, 48), HTBQ(6));
	plan_free(&pl);
	policy_free(&p);
}

/* cos only: u32 could not realise it (a warning and no filter); the
 * program can. Several CoS values, one class. */
static void test_bpf_cos_only(void **state)
{
	struct policy p;
	struct plan pl;
	const struct plan_port *pp;
	const struct plan_filter *f;

	(void)state;
	pp = roce_cnp(&p, &pl, POLICY_MATCH_ALL, (1u << 3) | (1u << 5), 0);
	f = the_program(pp);
	assert_int_equal(tcomp_count_msgs(pp, DIAG_WARNING, "cos"), 0);
	for (int pcp = 0; pcp < 8; pcp++) {
		uint32_t want = pcp == 3 || pcp == 5 ? HTBQ(3) : DEFAULT_CLASS;

		assert_int_equal(classify(f, F_IP4, T_META, pcp, 0), want);
		assert_int_equal(classify(f, F_IP6, T_INLINE, pcp, 0), want);
		assert_int_equal(classify(f, F_ARP, T_META, pcp, 0), want);
	}
	assert_int_equal(classify(f, F_IP4, T_NONE, 0, 0), DEFAULT_CLASS);
	plan_free(&pl);
	policy_free(&p);
}

/* A DSCP set across the two words (30-33), every value checked in both
 * IP versions. */
static void test_bpf_dscp_sets(void **state)
{
	struct policy p;
	struct plan pl;
	const struct plan_port *pp;
	const struct plan_filter *f;
	uint64_t set = 0xfull << 30;

	(void)state;
	pp = roce_cnp(&p, &pl, POLICY_MATCH_ANY, 0, set);
	f = the_program(pp);
	for (uint8_t d = 0; d < 64; d++) {
		uint32_t want = (set >> d) & 1 ? HTBQ(3)
		                : d == 48      ? HTBQ(6)
		                               : DEFAULT_CLASS;

		assert_int_equal(classify(f, F_IP4, T_NONE, 0, d), want);
		assert_int_equal(classify(f, F_IP6, T_NONE, 0, d), want);
		assert_int_equal(classify(f, F_IP4, T_META, 1, d), want);
	}
	plan_free(&pl);
	policy_free(&p);
}

/* A class without match statements takes everything, and the classes
 * after it are never reached, as in NX-OS. A rule without `set
 * qos-group` goes to q-default. */
static void test_bpf_rule_order(void **state)
{
	struct policy p;
	struct plan pl;
	struct policy_map_qos *mq;
	const struct plan_port *pp;
	const struct plan_filter *f;

	(void)state;
	tcomp_ref_policy(&p, POLICY_PFC_ON);
	p.class_qos[0].match = POLICY_MATCH_ANY;
	tcomp_add_class(&p, "NOGROUP", POLICY_MATCH_ANY, 0, 1ull << 10);
	tcomp_add_class(&p, "EVERYTHING", POLICY_MATCH_ANY, 0, 0);
	tcomp_add_class(&p, "NEVER", POLICY_MATCH_ANY, 0, 1ull << 48);
	mq = &p.map_qos[0];
	tcomp_add_rule(mq, "NOGROUP", -1);
	tcomp_add_rule(mq, "EVERYTHING", 1);
	tcomp_add_rule(mq, "NEVER", 6);
	pp = tcomp_run_preset(&p, "eth1", CAPS_PRESET_HOST, &pl);
	f = the_program(pp);
	assert_int_equal(classify(f, F_IP4, T_NONE, 0, 26), HTBQ(3));
	assert_int_equal(classify(f, F_IP4, T_META, 3, 0), HTBQ(3));
	assert_int_equal(classify(f, F_IP4, T_NONE, 0, 10), HTBQ(0));
	assert_int_equal(classify(f, F_IP4, T_NONE, 0, 48), HTBQ(1));
	assert_int_equal(classify(f, F_ARP, T_NONE, 0, 0), HTBQ(1));
	assert_int_equal(classify(f, F_IP6, T_INLINE, 7, 0), HTBQ(1));
	plan_free(&pl);
	policy_free(&p);
}

/* More classes than the program holds: the ones that fit work, the
 * first that does not and those after it are one warning, and the
 * program is still one the kernel takes. */
static void test_bpf_overflow(void **state)
{
	struct policy p;
	struct plan pl;
	const struct plan_port *pp;
	const struct plan_filter *f;
	char name[16];

	(void)state;
	tcomp_ref_policy(&p, POLICY_PFC_ON);
	p.class_qos[0].match = POLICY_MATCH_ANY;
	/* cos and both DSCP words: 7 instructions each */
	for (unsigned i = 0; i < 60; i++) {
		snprintf(name, sizeof(name), "C%u", i);
		tcomp_add_class(&p, name, POLICY_MATCH_ANY, 1u << (i % 8),
		                (1ull << (i % 32)) | (1ull << (32 + i % 32)));
		tcomp_add_rule(&p.map_qos[0], name, (int)(i % 8));
	}
	pp = tcomp_run_preset(&p, "eth1", CAPS_PRESET_HOST, &pl);
	f = the_program(pp);
	tcomp_want_warning(pp, "and the classes after it are not realised");
	assert_int_equal(classify(f, F_IP4, T_NONE, 0, 26), HTBQ(3));
	/* C0 (cos 0, dscp 0 and 32) comes right after ROCE_CLASS */
	assert_int_equal(classify(f, F_IP4, T_NONE, 0, 32), HTBQ(0));
	plan_free(&pl);
	policy_free(&p);
}

/* The full kernel keeps flower; the host kernel without cls_bpf falls
 * back to u32. */
static void test_bpf_chosen(void **state)
{
	struct policy p;
	struct plan pl;
	struct caps caps;
	const struct plan_port *pp;

	(void)state;
	tcomp_ref_policy(&p, POLICY_PFC_ON);
	pp = tcomp_run_preset(&p, "eth1", CAPS_PRESET_FULL, &pl);
	for (size_t i = 0; i < pp->nfilters; i++)
		assert_int_equal(pp->filters[i].kind, PLAN_FILTER_FLOWER);
	plan_free(&pl);
	caps_preset(&caps, CAPS_PRESET_HOST);
	caps.classifiers &= ~CAPS_CLS_BPF;
	pp = tcomp_run(&p, "eth1", &caps, &pl);
	assert_true(pp->nfilters > 0);
	for (size_t i = 0; i < pp->nfilters; i++)
		assert_int_equal(pp->filters[i].kind, PLAN_FILTER_U32);
	plan_free(&pl);
	policy_free(&p);
}

int tcomp_run_bpf_tests(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_bpf_match_any),
	    cmocka_unit_test(test_bpf_match_all),
	    cmocka_unit_test(test_bpf_cos_only),
	    cmocka_unit_test(test_bpf_dscp_sets),
	    cmocka_unit_test(test_bpf_rule_order),
	    cmocka_unit_test(test_bpf_overflow),
	    cmocka_unit_test(test_bpf_chosen),
	};

	return cmocka_run_group_tests_name("compile_bpf", tests, NULL, NULL);
}
