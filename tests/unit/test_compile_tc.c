/* test_compile_tc: the tc part in detail: strict-queue layouts on ets,
 * prio and htb, classification filters (DSCP blocks, match-any/all, rule
 * order) and tc's RED maths. The RED numbers were derived by hand from
 * tc's formulas and cross-checked against the tc_red_qopt that iproute2
 * 6.1 sends for the same inputs.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "tcomp.h"

/* ---- strict queues ---- */

/* q6 and q2 strict (level 1), q5 strict level 2, q3 50 % with WRED, q0
 * 50 %: bands q6, q2, q5 (strict) then q7, q4, q3, q1, q0. */
static void strict_policy(struct policy *p)
{
	struct policy_map_queuing *mu;

	tcomp_ref_policy(p, POLICY_PFC_ON);
	mu = &p->map_queuing[0];
	memset(mu->queue, 0, sizeof(mu->queue));
	tcomp_set_queue(mu, 6, -1, 1);
	tcomp_set_queue(mu, 2, -1, 1);
	tcomp_set_queue(mu, 5, -1, 2);
	tcomp_set_wred(tcomp_set_queue(mu, 3, 50, 0), KB(150), KB(3000), 7, 0);
	tcomp_set_queue(mu, 0, 50, 0);
}

static const int8_t strict_bands[8] = {6, 2, 5, 7, 4, 3, 1, 0};

/* A kernel without flower and without cls_bpf: u32 is all it has (the
 * cls_bpf program of the host kernel has tests of its own,
 * test_compile_bpf.c). */
static void u32_caps(struct caps *caps)
{
	caps_preset(caps, CAPS_PRESET_HOST);
	caps->classifiers &= ~CAPS_CLS_BPF;
}

static unsigned band_of(unsigned q)
{
	for (unsigned b = 0; b < 8; b++)
		if ((unsigned)strict_bands[b] == q)
			return b;
	return 99;
}

static void test_strict_ets(void **state)
{
	struct policy p;
	struct plan pl;
	const struct plan_port *pp;
	const struct plan_ets *e;

	(void)state;
	strict_policy(&p);
	pp = tcomp_run_preset(&p, "eth1", CAPS_PRESET_FULL, &pl);
	assert_int_equal(pp->layout, PLAN_LAYOUT_ETS_RED);
	e = &tcomp_qdisc(pp, ROOT)->u.ets;
	assert_int_equal(e->nstrict, 3);
	assert_memory_equal(e->band_queue, strict_bands, 8);
	for (unsigned b = 0; b < 3; b++)
		assert_int_equal(e->quanta[b], 0);
	assert_int_equal(e->quanta[band_of(3)], 50 * FRAME);
	assert_int_equal(e->quanta[band_of(0)], 50 * FRAME);
	assert_int_equal(e->quanta[band_of(7)], FRAME / 10);
	for (unsigned p8 = 0; p8 < 16; p8++)
		assert_int_equal(e->priomap[p8], band_of(p8 < 8 ? p8 : 0));
	for (unsigned q = 0; q < 8; q++)
		assert_int_equal(tcomp_qdisc(pp, LEAF(q))->parent,
		                 BAND(band_of(q)));
	/* DCB: strict TCs have no share. */
	for (unsigned tc = 0; tc < 8; tc++) {
		bool strict = tc == 2 || tc == 5 || tc == 6;

		assert_int_equal(pp->dcb.ets_tsa[tc],
		                 strict ? PLAN_TSA_STRICT : PLAN_TSA_ETS);
		assert_int_equal(pp->dcb.ets_bw[tc],
		                 tc == 0 || tc == 3 ? 50 : 0);
	}
	tcomp_want_warning(pp,
	                   "queues 1,4,7 have bandwidth remaining percent 0");
	/* On a kernel with htb and u32 only the same policy gets htb: u32
	 * picks q3's htb class. */
	plan_free(&pl);
	{
		struct caps caps;

		u32_caps(&caps);
		pp = tcomp_run(&p, "eth1", &caps, &pl);
	}
	assert_int_equal(pp->filters[0].kind, PLAN_FILTER_U32);
	assert_int_equal(pp->filters[0].classid, HTBQ(3));
	plan_free(&pl);
	policy_free(&p);
}

static void test_strict_prio(void **state)
{
	struct policy p;
	struct plan pl;
	struct caps caps;
	const struct plan_port *pp;
	const struct plan_qdisc *qd;

	(void)state;
	strict_policy(&p);
	caps_preset(&caps, CAPS_PRESET_FULL);
	caps.qdiscs &= ~CAPS_QD_ETS;
	caps.classifiers &= ~(CAPS_CLS_FLOWER | CAPS_CLS_BPF);
	caps.speed_mbps = 100000;
	pp = tcomp_run(&p, "eth1", &caps, &pl);
	assert_int_equal(pp->layout, PLAN_LAYOUT_PRIO_RED);
	qd = tcomp_qdisc(pp, ROOT);
	assert_int_equal(qd->kind, PLAN_QD_PRIO);
	assert_int_equal(qd->u.prio.bands, 8);
	assert_memory_equal(qd->u.prio.band_queue, strict_bands, 8);
	for (unsigned p8 = 0; p8 < 16; p8++)
		assert_int_equal(qd->u.prio.priomap[p8],
		                 band_of(p8 < 8 ? p8 : 0));
	assert_int_equal(tcomp_qdisc(pp, LEAF(3))->kind, PLAN_QD_RED);
	assert_int_equal(tcomp_qdisc(pp, LEAF(3))->u.red.bandwidth,
	                 12500000000ull);
	/* u32 (no flower) chooses the band class of q3 (band 5 -> :6). */
	assert_int_equal(pp->nfilters, 2);
	assert_int_equal(pp->filters[0].classid, BAND(band_of(3)));
	tcomp_want_warning(pp, "bandwidth remaining shares are not realised");
	tcomp_want_warning(pp, "egress classification");
	tcomp_want_warning(pp, "classified on DSCP alone");
	tcomp_want_nwarnings(pp, 3);
	plan_free(&pl);
	policy_free(&p);
}

static void test_strict_htb(void **state)
{
	struct policy p;
	struct plan pl;
	struct caps caps;
	const struct plan_port *pp;
	const uint64_t speed = 25000ull * 125000u;

	(void)state;
	strict_policy(&p);
	caps_preset(&caps, CAPS_PRESET_HOST);
	caps.speed_mbps = 25000;
	pp = tcomp_run(&p, "eth1", &caps, &pl);
	assert_int_equal(pp->layout, PLAN_LAYOUT_HTB_FIFO);
	for (unsigned q = 0; q < 8; q++) {
		const struct plan_class *cl = tcomp_class(pp, HTBQ(q));
		bool strict = q == 2 || q == 5 || q == 6;

		assert_int_equal(cl->prio, strict ? 0 : 1);
		assert_int_equal(cl->ceil, speed);
		if (strict) {
			assert_int_equal(cl->rate, speed);
			assert_int_equal(cl->quantum, FRAME);
		} else if (q == 0 || q == 3) {
			assert_int_equal(cl->rate, speed / 2);
		} else {
			assert_int_equal(cl->rate, speed / 1000);
		}
	}
	assert_int_equal(
	    tcomp_count_msgs(pp, DIAG_WARNING, "link speed unknown"), 0);
	tcomp_want_warning(pp, "htb approximates");
	tcomp_want_warning(pp, "share of 25000 Mb/s");
	plan_free(&pl);

	/* htb with red in the kernel: WRED queue gets red, layout htb+red. */
	caps.qdiscs |= CAPS_QD_RED;
	pp = tcomp_run(&p, "eth1", &caps, &pl);
	assert_int_equal(pp->layout, PLAN_LAYOUT_HTB_RED);
	assert_int_equal(tcomp_qdisc(pp, LEAF(3))->kind, PLAN_QD_RED);
	assert_int_equal(tcomp_qdisc(pp, LEAF(3))->parent, HTBQ(3));
	assert_int_equal(tcomp_qdisc(pp, LEAF(0))->kind, PLAN_QD_BFIFO);
	plan_free(&pl);

	/* flower + skbedit over htb: htb has no priomap and takes
	 * skb->priority as a class id, so the filter writes q3's class. */
	caps.classifiers |= CAPS_CLS_FLOWER;
	caps.actions |= CAPS_ACT_SKBEDIT;
	pp = tcomp_run(&p, "eth1", &caps, &pl);
	assert_int_equal(pp->nfilters, 2);
	assert_int_equal(pp->filters[0].kind, PLAN_FILTER_FLOWER);
	assert_int_equal(pp->filters[0].action, PLAN_ACT_SKBEDIT_PRIORITY);
	assert_int_equal(pp->filters[0].priority, HTBQ(3));
	assert_int_equal(tcomp_qdisc(pp, PLAN_H_CLSACT)->kind, PLAN_QD_CLSACT);
	plan_free(&pl);

	/* No root qdisc at all: nothing planned, and said so. */
	caps.qdiscs = CAPS_QD_BFIFO | CAPS_QD_CLSACT;
	pp = tcomp_run(&p, "eth1", &caps, &pl);
	assert_int_equal(pp->layout, PLAN_LAYOUT_NONE);
	assert_int_equal(pp->nqdiscs, 0);
	assert_int_equal(pp->nfilters, 0);
	tcomp_want_warning(pp, "none of ets, prio and htb");
	plan_free(&pl);
	policy_free(&p);
}

/* ---- classification ---- */

static void test_dscp_blocks(void **state)
{
	uint8_t v[64], m[64];

	(void)state;
	assert_int_equal(compile_dscp_blocks(0, v, m), 0);
	assert_int_equal(compile_dscp_blocks(1ull << 26, v, m), 1);
	assert_int_equal(v[0], 26);
	assert_int_equal(m[0], 0x3f);
	assert_int_equal(compile_dscp_blocks(0xffull << 24, v, m), 1);
	assert_int_equal(v[0], 24);
	assert_int_equal(m[0], 0x38);
	assert_int_equal(compile_dscp_blocks(~0ull, v, m), 1);
	assert_int_equal(v[0], 0);
	assert_int_equal(m[0], 0);
	assert_int_equal(compile_dscp_blocks(0xffffffffull, v, m), 1);
	assert_int_equal(v[0], 0);
	assert_int_equal(m[0], 0x20);
	assert_int_equal(compile_dscp_blocks(0xffffffffull << 32, v, m), 1);
	assert_int_equal(v[0], 32);
	assert_int_equal(m[0], 0x20);
	/* 10-13: not aligned as one block of 4. */
	assert_int_equal(compile_dscp_blocks(0xfull << 10, v, m), 2);
	assert_int_equal(v[0], 10);
	assert_int_equal(m[0], 0x3e);
	assert_int_equal(v[1], 12);
	assert_int_equal(m[1], 0x3e);
	/* 1-6 -> 1, 2-3, 4-5, 6. */
	assert_int_equal(compile_dscp_blocks(0x7eull, v, m), 4);
	assert_int_equal(v[0], 1);
	assert_int_equal(m[0], 0x3f);
	assert_int_equal(v[1], 2);
	assert_int_equal(m[1], 0x3e);
	assert_int_equal(v[2], 4);
	assert_int_equal(m[2], 0x3e);
	assert_int_equal(v[3], 6);
	assert_int_equal(m[3], 0x3f);
	assert_int_equal(compile_dscp_blocks(1ull << 63, v, m), 1);
	assert_int_equal(v[0], 63);
	/* Alternate bits cannot merge: 32 blocks. */
	assert_int_equal(compile_dscp_blocks(0x5555555555555555ull, v, m), 32);
}

/* A port whose only class is CLS (group 5), with CAPS. */
static const struct plan_port *one_class_caps(struct policy *p, struct plan *pl,
                                              enum policy_match match,
                                              uint8_t cos, uint64_t dscp,
                                              const struct caps *caps)
{
	struct policy_class_qos *c;

	tcomp_ref_policy(p, POLICY_PFC_ON);
	c = &p->class_qos[0];
	c->match = match;
	c->cos = cos;
	c->dscp = dscp;
	p->map_qos[0].rules[0].qos_group = 5;
	return tcomp_run(p, "eth1", caps, pl);
}

/* The same on PRESET. */
static const struct plan_port *one_class(struct policy *p, struct plan *pl,
                                         enum policy_match match, uint8_t cos,
                                         uint64_t dscp, enum caps_preset preset)
{
	struct caps caps;

	caps_preset(&caps, preset);
	return one_class_caps(p, pl, match, cos, dscp, &caps);
}

/* The same with u32 only. */
static const struct plan_port *one_class_u32(struct policy *p, struct plan *pl,
                                             enum policy_match match,
                                             uint8_t cos, uint64_t dscp)
{
	struct caps caps;

	u32_caps(&caps);
	return one_class_caps(p, pl, match, cos, dscp, &caps);
}

static void test_dscp_range_filters(void **state)
{
	struct policy p;
	struct plan pl;
	const struct plan_port *pp;

	(void)state;
	pp = one_class(&p, &pl, POLICY_MATCH_ANY, 0, 0xffull << 24,
	               CAPS_PRESET_FULL);
	assert_int_equal(pp->nfilters, 2);
	for (unsigned i = 0; i < 2; i++) {
		assert_int_equal(pp->filters[i].protocol,
		                 i ? COMPILE_ETH_P_IPV6 : COMPILE_ETH_P_IP);
		assert_int_equal(pp->filters[i].dscp, 24);
		assert_int_equal(pp->filters[i].dscp_mask, 0x38);
		assert_int_equal(pp->filters[i].priority, 5);
	}
	/* APP lists every value of the range. */
	assert_int_equal(pp->dcb.napp, 8);
	assert_int_equal(pp->dcb.ntrust, 1);
	assert_int_equal(pp->dcb.trust[0], PLAN_APP_SEL_DSCP);
	plan_free(&pl);
	policy_free(&p);
}

static void test_match_any_filters(void **state)
{
	struct policy p;
	struct plan pl;
	const struct plan_port *pp;
	const struct plan_filter *f;

	(void)state;
	/* flower: one PCP filter and one per IP version for the DSCP. */
	pp = one_class(&p, &pl, POLICY_MATCH_ANY, 1u << 3, 1ull << 26,
	               CAPS_PRESET_FULL);
	assert_int_equal(pp->nfilters, 3);
	f = &pp->filters[0];
	assert_int_equal(f->prio, PLAN_FILTER_PRIO_BASE);
	assert_int_equal(f->protocol, COMPILE_ETH_P_8021Q);
	assert_int_equal(f->vlan_ethtype, 0);
	assert_true(f->match_pcp);
	assert_int_equal(f->pcp, 3);
	assert_false(f->match_dscp);
	for (unsigned i = 1; i < 3; i++) {
		f = &pp->filters[i];
		assert_int_equal(f->prio, PLAN_FILTER_PRIO_BASE + i);
		assert_int_equal(f->protocol, i == 1 ? COMPILE_ETH_P_IP
		                                     : COMPILE_ETH_P_IPV6);
		assert_false(f->match_pcp);
		assert_true(f->match_dscp);
		assert_int_equal(f->dscp, 26);
	}
	plan_free(&pl);
	policy_free(&p);

	/* u32: only the DSCP part, and a warning for the CoS part. */
	pp = one_class_u32(&p, &pl, POLICY_MATCH_ANY, 1u << 3, 1ull << 26);
	assert_int_equal(pp->nfilters, 2);
	assert_int_equal(pp->filters[0].classid, HTBQ(5));
	tcomp_want_warning(pp, "match cos is not realised");
	plan_free(&pl);
	policy_free(&p);

	/* hw: match-any is what APP does; no warning about it. */
	pp = one_class(&p, &pl, POLICY_MATCH_ANY, 1u << 3, 1ull << 26,
	               CAPS_PRESET_HW);
	assert_int_equal(tcomp_count_msgs(pp, DIAG_WARNING, "APP/trust"), 0);
	plan_free(&pl);
	policy_free(&p);
}

static void test_match_all_filters(void **state)
{
	struct policy p;
	struct plan pl;
	const struct plan_port *pp;

	(void)state;
	/* Two PCPs x one DSCP x two IP versions. */
	pp = one_class(&p, &pl, POLICY_MATCH_ALL, (1u << 3) | (1u << 4),
	               1ull << 26, CAPS_PRESET_FULL);
	assert_int_equal(pp->nfilters, 4);
	for (unsigned i = 0; i < 4; i++) {
		const struct plan_filter *f = &pp->filters[i];

		assert_int_equal(f->prio, PLAN_FILTER_PRIO_BASE + i);
		assert_int_equal(f->protocol, COMPILE_ETH_P_8021Q);
		assert_int_equal(f->vlan_ethtype,
		                 i % 2 ? COMPILE_ETH_P_IPV6 : COMPILE_ETH_P_IP);
		assert_int_equal(f->pcp, i < 2 ? 3 : 4);
		assert_true(f->match_dscp);
	}
	plan_free(&pl);
	policy_free(&p);

	/* cos only on u32: no filter, a warning. */
	pp = one_class_u32(&p, &pl, POLICY_MATCH_ALL, 1u << 3, 0);
	assert_int_equal(pp->nfilters, 0);
	tcomp_want_warning(pp, "matches cos only");
	plan_free(&pl);
	policy_free(&p);

	/* cos only on flower: one PCP filter. */
	pp = one_class(&p, &pl, POLICY_MATCH_ALL, 1u << 3, 0, CAPS_PRESET_FULL);
	assert_int_equal(pp->nfilters, 1);
	assert_int_equal(pp->filters[0].protocol, COMPILE_ETH_P_8021Q);
	assert_int_equal(pp->dcb.ntrust, 1);
	assert_int_equal(pp->dcb.trust[0], PLAN_APP_SEL_PCP);
	plan_free(&pl);
	policy_free(&p);
}

/* Rule order: filter prios follow it, and the first rule keeps a DSCP in
 * APP. A class without match statements takes everything. */
static void test_rule_order(void **state)
{
	struct policy p;
	struct plan pl;
	struct policy_map_qos *mq;
	const struct plan_port *pp;

	(void)state;
	tcomp_ref_policy(&p, POLICY_PFC_ON);
	p.class_qos[0].match = POLICY_MATCH_ANY;
	p.class_qos[0].cos = 0;
	tcomp_add_class(&p, "CNP", POLICY_MATCH_ANY, 0,
	                (1ull << 26) | (1ull << 48));
	tcomp_add_class(&p, "NOGROUP", POLICY_MATCH_ANY, 0, 1ull << 10);
	tcomp_add_class(&p, "EVERYTHING", POLICY_MATCH_ANY, 0, 0);
	mq = &p.map_qos[0];
	tcomp_add_rule(mq, "CNP", 6);
	tcomp_add_rule(mq, "NOGROUP", -1);
	tcomp_add_rule(mq, "EVERYTHING", 1);
	pp = tcomp_run_preset(&p, "eth1", CAPS_PRESET_FULL, &pl);
	/* ROCE 26 (2), CNP 26 and 48 (4), NOGROUP 10 (2), EVERYTHING (1). */
	assert_int_equal(pp->nfilters, 9);
	for (unsigned i = 0; i < 9; i++)
		assert_int_equal(pp->filters[i].prio,
		                 PLAN_FILTER_PRIO_BASE + i);
	assert_string_equal(pp->filters[0].class_name, "ROCE_CLASS");
	assert_string_equal(pp->filters[2].class_name, "CNP");
	assert_int_equal(pp->filters[4].dscp, 48);
	assert_int_equal(pp->filters[4].priority, 6);
	assert_string_equal(pp->filters[6].class_name, "NOGROUP");
	assert_int_equal(pp->filters[6].priority, 0);
	assert_int_equal(pp->filters[8].protocol, COMPILE_ETH_P_ALL);
	assert_false(pp->filters[8].match_dscp);
	assert_false(pp->filters[8].match_pcp);
	assert_int_equal(pp->filters[8].priority, 1);
	/* APP: 26 -> 3 (first rule), 48 -> 6, 10 -> 0; DSCP order. */
	assert_int_equal(pp->dcb.napp, 3);
	assert_int_equal(pp->dcb.app[0].protocol, 26);
	assert_int_equal(pp->dcb.app[0].priority, 3);
	assert_int_equal(pp->dcb.app[1].protocol, 48);
	assert_int_equal(pp->dcb.app[1].priority, 6);
	assert_int_equal(pp->dcb.app[2].protocol, 10);
	assert_int_equal(pp->dcb.app[2].priority, 0);
	plan_free(&pl);

	/* A hardware port cannot put everything into group 1. */
	pp = tcomp_run_preset(&p, "eth1", CAPS_PRESET_HW, &pl);
	tcomp_want_warning(pp, "class EVERYTHING matches all traffic");
	plan_free(&pl);
	policy_free(&p);
}

static void test_filter_overflow(void **state)
{
	struct policy p;
	struct plan pl;
	struct policy_map_qos *mq;
	const struct plan_port *pp;

	(void)state;
	tcomp_ref_policy(&p, POLICY_PFC_ON);
	/* 8 PCPs x 32 DSCP blocks x 2 = 512 filters per class. */
	tcomp_add_class(&p, "WIDE1", POLICY_MATCH_ALL, 0xff,
	                0x5555555555555555ull);
	tcomp_add_class(&p, "WIDE2", POLICY_MATCH_ALL, 0xff,
	                0xaaaaaaaaaaaaaaaaull);
	mq = &p.map_qos[0];
	tcomp_add_rule(mq, "WIDE1", 1);
	tcomp_add_rule(mq, "WIDE2", 2);
	pp = tcomp_run_preset(&p, "eth1", CAPS_PRESET_FULL, &pl);
	assert_int_equal(pp->nfilters, 1000);
	assert_int_equal(pp->filters[999].prio, PLAN_FILTER_PRIO_MAX);
	tcomp_want_warning(
	    pp, "more than 1000 classification filters: class WIDE2");
	plan_free(&pl);
	policy_free(&p);
}

/* ---- RED maths ---- */

static void test_red_wlog(void **state)
{
	(void)state;
	/* a = burst + 1 - qmin/avpkt; the first W = 2^-wlog with
	 * a <= (1 - (1-W)^burst) / W. 200+1-153.6 = 47.4: 1/32 gives
	 * 31.9, 1/64 gives 61.3 -> 6. */
	assert_int_equal(compile_red_wlog(153600, 200, 1000), 6);
	/* 154: a = 1.4 <= ~2 at W = 1/2. */
	assert_int_equal(compile_red_wlog(153600, 154, 1000), 1);
	/* 153: a = 0.4 < 1, tc refuses. */
	assert_int_equal(compile_red_wlog(153600, 153, 1000), -1);
	assert_int_equal(compile_red_wlog(30000, 30, 1000), 1);
	assert_int_equal(compile_red_wlog(1, 1, 0), -1);

	/* The smallest burst per Wlog; checked against tc: 184 -> 5,
	 * 185 -> 6, 341 -> 8, 342 -> 9. */
	assert_int_equal(compile_red_burst(153600, 1000, 1), 154);
	/* qmin a multiple of avpkt: burst 30 gives a = 1 exactly. */
	assert_int_equal(compile_red_burst(30000, 1000, 1), 30);
	assert_int_equal(compile_red_burst(153600, 1000, 2), 155);
	assert_int_equal(compile_red_burst(153600, 1000, 6), 185);
	assert_int_equal(compile_red_wlog(153600, 184, 1000), 5);
	assert_int_equal(compile_red_burst(153600, 1000, 9), 342);
	assert_int_equal(compile_red_wlog(153600, 341, 1000), 8);
	assert_int_equal(compile_red_burst(153600, 1000, 0), 0);
	/* The bisection agrees with a linear search. */
	for (int w = 1; w <= 12; w++) {
		uint32_t b = 154;

		while (compile_red_wlog(153600, b, 1000) < w)
			b++;
		if (compile_red_wlog(153600, b, 1000) == w)
			assert_int_equal(compile_red_burst(153600, 1000, w), b);
		else
			assert_int_equal(compile_red_burst(153600, 1000, w), 0);
	}
}

static void test_red_plog(void **state)
{
	(void)state;
	/* 0.07 / 2918400 = 2.4e-8: x2^25 = 0.80, x2^26 = 1.61 -> 26. */
	assert_int_equal(compile_red_plog(153600, 3072000, 0.07), 26);
	/* 1 / 2918400: x2^21 = 0.72, x2^22 = 1.44 -> 22. */
	assert_int_equal(compile_red_plog(153600, 3072000, 1.0), 22);
	/* 0.5 / 60000: x2^16 = 0.55, x2^17 = 1.09 -> 17. */
	assert_int_equal(compile_red_plog(30000, 90000, 0.5), 17);
	/* 0.02 / 60000: x2^21 = 0.70, x2^22 = 1.40 -> 22. */
	assert_int_equal(compile_red_plog(30000, 90000, 0.02), 22);
	assert_int_equal(compile_red_plog(5000, 5000, 0.5), -1);
	assert_int_equal(compile_red_plog(6000, 5000, 0.5), -1);
	assert_int_equal(compile_red_plog(0, 3000000, 0.0), -1);
}

static void test_red_scell_log(void **state)
{
	(void)state;
	/* 1 Gb/s: 1000 B take 8 us = 125 ticks; Wlog 6: lW = -ln(63/64)/125
	 * = 1.26e-4, 31/lW = 246060 -> needs 2^9 cells of 512. */
	assert_int_equal(compile_red_scell_log(6, 1000, 125000000), 9);
	/* Wlog 1: lW = ln 2 / 125, 31/lW = 5590 -> 2^4. */
	assert_int_equal(compile_red_scell_log(1, 1000, 125000000), 4);
	/* 100 Mb/s: 80 us = 1250 ticks; 2460600 / 512 -> 2^13. */
	assert_int_equal(compile_red_scell_log(6, 1000, 12500000), 13);
	/* 10 Mb/s: 800 us = 12500 ticks; Wlog 2: 1346972 / 512 -> 2^12. */
	assert_int_equal(compile_red_scell_log(2, 1000, 1250000), 12);
	/* 58 Mb/s: 137.9 us truncate to 137 = 2140 ticks; Wlog 5:
	 * 31 / (-ln(31/32) / 2140) = 2089494, / 512 = 4081 -> 2^12. Without
	 * tc's truncation to whole us it would be 4110 -> 2^13. */
	assert_int_equal(compile_red_scell_log(5, 1000, 7250000), 12);
	/* From 1 GB/s an avpkt takes 0 whole us: the first cell. */
	assert_int_equal(compile_red_scell_log(6, 1000, 1250000000), 0);
	assert_int_equal(compile_red_scell_log(0, 1000, 125000000), 0);
	assert_int_equal(compile_red_scell_log(6, 1000, 0), -1);
	assert_int_equal(compile_red_scell_log(32, 1000, 125000000), -1);
}

static void test_red_fill(void **state)
{
	struct policy_wred w;
	struct plan_red r;
	struct diag d;

	(void)state;
	memset(&w, 0, sizeof(w));
	w.enabled = true;
	w.min_bytes = 153600;
	w.max_bytes = 3072000;
	w.drop_probability = 7;
	w.weight = 6;
	w.ecn = true;
	diag_init(&d, NULL);
	memset(&r, 0, sizeof(r));
	compile_red_fill(&r, &w, 3, 12500000, &d);
	assert_int_equal(d.n, 0);
	assert_int_equal(r.wlog, 6);
	assert_int_equal(r.burst, 185);
	assert_true(r.wlog_cli_exact);
	assert_int_equal(r.scell_log, 13);
	assert_int_equal(r.plog, 26);
	assert_int_equal(r.limit, 2 * 3072000 + 185000);

	/* 100 %: max_P saturates; Plog as tc. */
	w.drop_probability = 100;
	compile_red_fill(&r, &w, 3, 12500000, &d);
	assert_int_equal(r.max_p, 0xffffffffu);
	assert_int_equal(r.probability_ppm, 1000000);
	assert_int_equal(r.plog, 22);

	/* Weight 9 with a 3 MB max (fls 22 + 9 = 31, the most the kernel
	 * holds): taken as it is, no warning. */
	w.weight = 9;
	compile_red_fill(&r, &w, 3, 12500000, &d);
	assert_int_equal(r.wlog, 9);
	assert_int_equal(r.burst, 342);
	assert_int_equal(d.nwarnings, 0);

	/* Probability 0: the smallest non-zero max_P, with a warning. */
	w.weight = 0;
	w.drop_probability = 0;
	compile_red_fill(&r, &w, 3, 12500000, &d);
	assert_int_equal(r.max_p, 1);
	assert_int_equal(d.nwarnings, 1);
	diag_free(&d);
}
int tcomp_run_tc_tests(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_strict_ets),
	    cmocka_unit_test(test_strict_prio),
	    cmocka_unit_test(test_strict_htb),
	    cmocka_unit_test(test_dscp_blocks),
	    cmocka_unit_test(test_dscp_range_filters),
	    cmocka_unit_test(test_match_any_filters),
	    cmocka_unit_test(test_match_all_filters),
	    cmocka_unit_test(test_rule_order),
	    cmocka_unit_test(test_filter_overflow),
	    cmocka_unit_test(test_red_wlog),
	    cmocka_unit_test(test_red_plog),
	    cmocka_unit_test(test_red_scell_log),
	    cmocka_unit_test(test_red_fill),
	};

	return cmocka_run_group_tests_name("compile_tc", tests, NULL, NULL);
}
