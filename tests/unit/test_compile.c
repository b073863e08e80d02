/* test_compile: policy + capabilities -> plan.
 *
 * The reference policy (conf/nxos-roce.txt) is built with the
 * policy_add_* API and compiled for each capability preset; the expected
 * plans were worked out by hand from the rules in lib/plan/compile_tc.c. The
 * RED numbers were derived by hand from tc's formulas and cross-checked
 * against the tc_red_qopt that iproute2 6.1 sends for the same inputs.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "tcomp.h"

/* ---- the DCB part of the reference policy ---- */

static void check_ref_dcb(const struct plan_port *pp, bool software)
{
	const struct plan_dcb *d = &pp->dcb;

	assert_int_equal(d->software, software);
	assert_int_equal(d->pfc_cap, 8);
	assert_int_equal(d->pfc_admin, 0x08);
	assert_int_equal(d->mtu, 9216);
	for (unsigned tc = 0; tc < 8; tc++) {
		assert_int_equal(d->prio_tc[tc], tc);
		assert_int_equal(d->ets_tsa[tc], PLAN_TSA_ETS);
		assert_int_equal(d->ets_bw[tc], tc == 0 || tc == 3 ? 50 : 0);
	}
	assert_int_equal(d->napp, 2);
	assert_int_equal(d->app[0].selector, PLAN_APP_SEL_DSCP);
	assert_int_equal(d->app[0].protocol, 26);
	assert_int_equal(d->app[0].priority, 3);
	assert_int_equal(d->app[1].selector, PLAN_APP_SEL_PCP);
	assert_int_equal(d->app[1].protocol, 3);
	assert_int_equal(d->app[1].priority, 3);
	assert_int_equal(d->ntrust, 2);
	assert_int_equal(d->trust[0], PLAN_APP_SEL_DSCP);
	assert_int_equal(d->trust[1], PLAN_APP_SEL_PCP);
	assert_string_equal(pp->qos_policy, "ROCE_POLICY");
	assert_string_equal(pp->queuing_policy, "ROCE_QUEUING_OUT");
	assert_string_equal(pp->alias, "Ethernet1/1");
}

/* The reference RED leaf for q3 at the default 10 Gb/s:
 * weight 0 -> Wlog 0, dry-run burst 154 (= ceil(153600/1000), the first
 * burst tc accepts, giving Wlog 1); Plog: 0.07/2918400 needs 2^26 to pass
 * 1; Scell_log 0 since one avpkt takes 0 whole microseconds at 1.25 GB/s;
 * max_P = floor(0.07 * 2^32) = 0x11eb851e; limit = 2 * max + 154 * 1000. */
static void check_ref_red(const struct plan_red *r)
{
	assert_int_equal(r->qth_min, 153600);
	assert_int_equal(r->qth_max, 3072000);
	assert_int_equal(r->avpkt, 1000);
	assert_int_equal(r->burst, 154);
	assert_int_equal(r->wlog, 0);
	assert_false(r->wlog_cli_exact);
	assert_int_equal(r->plog, 26);
	assert_int_equal(r->scell_log, 0);
	assert_int_equal(r->probability_ppm, 70000);
	assert_int_equal(r->max_p, 0x11eb851e);
	assert_int_equal(r->bandwidth, SPEED_B);
	assert_true(r->ecn);
	assert_false(r->harddrop);
	assert_int_equal(r->limit, 2 * 3072000 + 154 * 1000);
	assert_true(r->limit > r->qth_max + r->burst * r->avpkt);
}

/* ---- reference policy per preset ---- */

static void test_ref_host(void **state)
{
	struct policy p;
	struct plan pl;
	const struct plan_port *pp;
	const struct plan_qdisc *qd;
	const struct plan_class *cl;

	(void)state;
	tcomp_ref_policy(&p, POLICY_PFC_ON);
	pp = tcomp_run_preset(&p, "eth1", CAPS_PRESET_HOST, &pl);
	assert_int_equal(pp->layout, PLAN_LAYOUT_HTB_FIFO);
	check_ref_dcb(pp, true);
	assert_int_equal(pp->dcb.pfc_en, 0x08);
	assert_false(pp->pfc_awaiting_dcbx);

	/* htb root + 8 bfifo leaves; no clsact (u32 classifies at egress). */
	assert_int_equal(pp->nqdiscs, 9);
	qd = tcomp_qdisc(pp, ROOT);
	assert_int_equal(qd->kind, PLAN_QD_HTB);
	assert_int_equal(qd->parent, PLAN_H_ROOT);
	assert_int_equal(qd->queue, -1);
	assert_int_equal(qd->u.htb.defcls, 0x10);
	assert_int_equal(qd->u.htb.r2q, 10);
	for (unsigned q = 0; q < 8; q++) {
		qd = tcomp_qdisc(pp, LEAF(q));
		assert_int_equal(qd->kind, PLAN_QD_BFIFO);
		assert_int_equal(qd->parent, HTBQ(q));
		assert_int_equal(qd->queue, q);
		assert_int_equal(qd->u.fifo.limit, 1000 * FRAME);
	}

	assert_int_equal(pp->nclasses, 9);
	cl = tcomp_class(pp, HTBTOP);
	assert_int_equal(cl->parent, ROOT);
	assert_int_equal(cl->rate, SPEED_B);
	assert_int_equal(cl->ceil, SPEED_B);
	assert_int_equal(cl->queue, -1);
	assert_int_equal(cl->quantum, FRAME);
	/* 1 ms at 1.25 GB/s. */
	assert_int_equal(cl->burst, 1250000);
	assert_int_equal(cl->cburst, 1250000);
	for (unsigned q = 0; q < 8; q++) {
		bool half = q == 0 || q == 3;

		cl = tcomp_class(pp, HTBQ(q));
		assert_int_equal(cl->parent, HTBTOP);
		assert_int_equal(cl->queue, q);
		assert_int_equal(cl->prio, 1);
		assert_int_equal(cl->ceil, SPEED_B);
		/* 50 % of 1.25 GB/s; 0 % counts as 0.1 %. */
		assert_int_equal(cl->rate, half ? SPEED_B / 2 : SPEED_B / 1000);
		assert_int_equal(cl->quantum, half ? 50 * FRAME : FRAME / 10);
		/* 1 ms at 625 MB/s; at 1.25 MB/s 1 ms is below two frames. */
		assert_int_equal(cl->burst, half ? 625000 : 2 * FRAME);
		assert_int_equal(cl->cburst, 1250000);
	}

	/* one cls_bpf program on the root (test_compile_bpf.c runs it):
	 * class-default to 4791:10 */
	assert_int_equal(pp->nfilters, 1);
	assert_int_equal(pp->filters[0].kind, PLAN_FILTER_BPF);
	assert_int_equal(pp->filters[0].parent, ROOT);
	assert_int_equal(pp->filters[0].prio, PLAN_FILTER_PRIO_BASE);
	assert_int_equal(pp->filters[0].protocol, COMPILE_ETH_P_ALL);
	assert_int_equal(pp->filters[0].action, PLAN_ACT_CLASSID);
	assert_int_equal(pp->filters[0].classid, HTBQ(0));
	assert_string_equal(pp->filters[0].class_name, "ROCE_POLICY");

	tcomp_want_warning(pp, "random-detect (WRED/ECN) is not realised");
	tcomp_want_warning(pp, "link speed unknown");
	tcomp_want_warning(pp, "htb approximates");
	tcomp_want_warning(pp,
	                   "queues 1-2,4-7 have bandwidth remaining percent 0");
	tcomp_want_warning(pp, "egress classification");
	tcomp_want_nwarnings(pp, 5);
	assert_int_equal(
	    tcomp_count_msgs(pp, DIAG_NOTE, "untagged frames carry no CoS"), 1);
	plan_free(&pl);
	policy_free(&p);
}

/* Reference ETS root: no strict queue, bands q7..q0, so priority p goes
 * to band 7-p and 8-15 to q-default's band 7. */
static void check_ref_ets(const struct plan_port *pp)
{
	const struct plan_qdisc *qd = tcomp_qdisc(pp, ROOT);
	const struct plan_ets *e = &qd->u.ets;

	assert_int_equal(qd->kind, PLAN_QD_ETS);
	assert_int_equal(qd->parent, PLAN_H_ROOT);
	assert_int_equal(e->nbands, 8);
	assert_int_equal(e->nstrict, 0);
	for (unsigned b = 0; b < 8; b++) {
		unsigned q = 7 - b;

		assert_int_equal(e->band_queue[b], q);
		assert_int_equal(e->quanta[b],
		                 q == 0 || q == 3 ? 50 * FRAME : FRAME / 10);
	}
	for (unsigned p = 0; p < 16; p++)
		assert_int_equal(e->priomap[p], p < 8 ? 7 - p : 7);
	for (unsigned q = 0; q < 8; q++) {
		qd = tcomp_qdisc(pp, LEAF(q));
		assert_int_equal(qd->parent, BAND(7 - q));
		assert_int_equal(qd->queue, q);
		if (q == 3) {
			assert_int_equal(qd->kind, PLAN_QD_RED);
			check_ref_red(&qd->u.red);
		} else {
			assert_int_equal(qd->kind, PLAN_QD_BFIFO);
			assert_int_equal(qd->u.fifo.limit, 1000 * FRAME);
		}
	}
	assert_int_equal(pp->nclasses, 0);
}

static void test_ref_full(void **state)
{
	struct policy p;
	struct plan pl;
	const struct plan_port *pp;
	const struct plan_qdisc *qd;

	(void)state;
	tcomp_ref_policy(&p, POLICY_PFC_ON);
	pp = tcomp_run_preset(&p, "eth1", CAPS_PRESET_FULL, &pl);
	assert_int_equal(pp->layout, PLAN_LAYOUT_ETS_RED);
	check_ref_dcb(pp, true);
	assert_int_equal(pp->nqdiscs, 10);
	check_ref_ets(pp);
	qd = tcomp_qdisc(pp, PLAN_H_CLSACT);
	assert_int_equal(qd->kind, PLAN_QD_CLSACT);
	assert_int_equal(qd->parent, PLAN_H_CLSACT);

	/* match-all: tagged with PCP 3 and DSCP 26 inside, IPv4 and IPv6. */
	assert_int_equal(pp->nfilters, 2);
	for (unsigned i = 0; i < 2; i++) {
		const struct plan_filter *f = &pp->filters[i];

		assert_int_equal(f->kind, PLAN_FILTER_FLOWER);
		assert_int_equal(f->parent, PLAN_H_CLSACT_INGRESS);
		assert_int_equal(f->prio, PLAN_FILTER_PRIO_BASE + i);
		assert_int_equal(f->protocol, COMPILE_ETH_P_8021Q);
		assert_int_equal(f->vlan_ethtype,
		                 i ? COMPILE_ETH_P_IPV6 : COMPILE_ETH_P_IP);
		assert_true(f->match_pcp);
		assert_int_equal(f->pcp, 3);
		assert_true(f->match_dscp);
		assert_int_equal(f->dscp, 26);
		assert_int_equal(f->dscp_mask, 0x3f);
		assert_int_equal(f->action, PLAN_ACT_SKBEDIT_PRIORITY);
		assert_int_equal(f->priority, 3);
		assert_int_equal(f->qos_group, 3);
		assert_string_equal(f->class_name, "ROCE_CLASS");
	}
	tcomp_want_warning(pp, "link speed unknown");
	tcomp_want_warning(pp, "bandwidth remaining percent 0");
	tcomp_want_nwarnings(pp, 2);
	plan_free(&pl);
	policy_free(&p);
}

static void test_ref_hw(void **state)
{
	struct policy p;
	struct plan pl;
	const struct plan_port *pp;

	(void)state;
	tcomp_ref_policy(&p, POLICY_PFC_ON);
	pp = tcomp_run_preset(&p, "eth1", CAPS_PRESET_HW, &pl);
	assert_int_equal(pp->layout, PLAN_LAYOUT_ETS_RED);
	check_ref_dcb(pp, false);
	assert_int_equal(pp->dcb.pfc_en, 0x08);
	/* The NIC classifies: no clsact, no filters. */
	assert_int_equal(pp->nqdiscs, 9);
	check_ref_ets(pp);
	assert_int_equal(pp->nfilters, 0);
	tcomp_want_warning(pp,
	                   "match-all on cos and dscp: DCB APP/trust cannot "
	                   "express it");
	tcomp_want_warning(pp, "link speed unknown");
	tcomp_want_warning(pp, "bandwidth remaining percent 0");
	tcomp_want_nwarnings(pp, 3);
	plan_free(&pl);
	policy_free(&p);
}

static void test_pfc_modes(void **state)
{
	static const struct {
		enum policy_pfc_mode mode;
		uint8_t en;
		bool awaiting;
	} cases[] = {
	    {POLICY_PFC_ON, 0x08, false},
	    {POLICY_PFC_OFF, 0, false},
	    {POLICY_PFC_AUTO, 0, true},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct policy p;
		struct plan pl;
		const struct plan_port *pp;

		tcomp_ref_policy(&p, cases[i].mode);
		pp = tcomp_run_preset(&p, "eth1", CAPS_PRESET_HW, &pl);
		assert_int_equal(pp->pfc_mode, cases[i].mode);
		assert_int_equal(pp->dcb.pfc_admin, 0x08);
		assert_int_equal(pp->dcb.pfc_en, cases[i].en);
		assert_int_equal(pp->pfc_awaiting_dcbx, cases[i].awaiting);
		assert_int_equal(
		    tcomp_count_msgs(pp, DIAG_NOTE, "until DCBX agrees"),
		    cases[i].awaiting ? 1 : 0);
		plan_free(&pl);
		policy_free(&p);
	}
}
/* ---- ports and defaults ---- */

static void test_speed(void **state)
{
	struct policy p;
	struct plan pl;
	struct caps caps;
	const struct plan_port *pp;

	(void)state;
	tcomp_ref_policy(&p, POLICY_PFC_ON);
	caps_preset(&caps, CAPS_PRESET_FULL);
	caps.speed_mbps = 25000;
	pp = tcomp_run(&p, "eth1", &caps, &pl);
	assert_int_equal(tcomp_qdisc(pp, LEAF(3))->u.red.bandwidth,
	                 3125000000ull);
	assert_int_equal(tcomp_count_msgs(pp, DIAG_WARNING, "speed"), 0);
	plan_free(&pl);
	/* Unknown: the default, one warning however many users. */
	caps.speed_mbps = 0;
	caps.qdiscs &= ~(CAPS_QD_ETS | CAPS_QD_PRIO);
	pp = tcomp_run(&p, "eth1", &caps, &pl);
	assert_int_equal(pp->layout, PLAN_LAYOUT_HTB_RED);
	assert_int_equal(tcomp_qdisc(pp, LEAF(3))->u.red.bandwidth, SPEED_B);
	assert_int_equal(tcomp_class(pp, HTBTOP)->rate, SPEED_B);
	tcomp_want_warning(pp, "link speed unknown: assuming 10000 Mb/s");
	plan_free(&pl);
	policy_free(&p);
}

/* shape min/max: the queue class's rate and ceil on the htb layout;
 * a warning on the ets layout, which has no per-queue rate. */
static void test_shape(void **state)
{
	struct policy p;
	struct plan pl;
	const struct plan_port *pp;
	const struct plan_class *cl;
	struct policy_queue *q3, *q1;

	(void)state;
	tcomp_ref_policy(&p, POLICY_PFC_ON);
	q3 = &p.map_queuing[0].queue[3];
	q3->shape_min_kbps = 6000000; /* 6 gbps: above its 50 % share */
	q3->shape_max_kbps = 8000000;
	q1 = &p.map_queuing[0].queue[1];
	q1->configured = true;
	q1->shape_max_kbps = 1000; /* 1 mbps: below its share */
	pp = tcomp_run_preset(&p, "eth1", CAPS_PRESET_HOST, &pl);
	assert_int_equal(pp->layout, PLAN_LAYOUT_HTB_FIFO);
	cl = tcomp_class(pp, HTBQ(3));
	assert_int_equal(cl->ceil, 1000000000ull);
	assert_int_equal(cl->rate, 750000000ull);
	cl = tcomp_class(pp, HTBQ(1));
	assert_int_equal(cl->ceil, 125000u);
	assert_int_equal(cl->rate, 125000u);
	/* Unshaped queues keep the port's speed as their ceil. */
	assert_int_equal(tcomp_class(pp, HTBQ(0))->ceil, SPEED_B);
	assert_int_equal(tcomp_count_msgs(pp, DIAG_WARNING, "shape"), 0);
	plan_free(&pl);
	pp = tcomp_run_preset(&p, "eth1", CAPS_PRESET_FULL, &pl);
	assert_int_equal(tcomp_count_msgs(pp, DIAG_WARNING,
	                                  "shape is kept and shown but not "
	                                  "realised on the ets layout"),
	                 2);
	plan_free(&pl);
	policy_free(&p);
}

static void test_port_without_iface(void **state)
{
	struct policy p;
	struct plan pl;
	const struct plan_port *pp;

	(void)state;
	tcomp_ref_policy(&p, POLICY_PFC_ON);
	pp = tcomp_run_preset(&p, "eth9", CAPS_PRESET_FULL, &pl);
	assert_string_equal(pp->ifname, "eth9");
	assert_string_equal(pp->alias, "");
	assert_int_equal(pp->pfc_mode, POLICY_PFC_AUTO);
	assert_true(pp->pfc_awaiting_dcbx);
	assert_int_equal(pp->dcb.pfc_admin, 0x08);
	assert_int_equal(pp->dcb.pfc_en, 0);
	assert_int_equal(tcomp_count_msgs(pp, DIAG_NOTE, "until DCBX agrees"),
	                 1);
	assert_int_equal(pp->dcb.mtu, 9216);
	/* NX-OS default queuing: everything in q-default. */
	for (unsigned tc = 0; tc < 8; tc++) {
		assert_int_equal(pp->dcb.ets_tsa[tc], PLAN_TSA_ETS);
		assert_int_equal(pp->dcb.ets_bw[tc], tc ? 0 : 100);
	}
	assert_int_equal(pp->dcb.napp, 0);
	assert_int_equal(pp->dcb.ntrust, 0);
	assert_int_equal(pp->layout, PLAN_LAYOUT_NONE);
	assert_int_equal(pp->nqdiscs + pp->nclasses + pp->nfilters, 0);
	assert_string_equal(pp->queuing_policy, "");
	tcomp_want_nwarnings(pp, 0);
	plan_free(&pl);

	/* system qos defaults reach a port without a block. */
	snprintf(p.system.qos_input, sizeof(p.system.qos_input), "%s",
	         "ROCE_POLICY");
	snprintf(p.system.queuing_output, sizeof(p.system.queuing_output), "%s",
	         "ROCE_QUEUING_OUT");
	pp = tcomp_run_preset(&p, "eth9", CAPS_PRESET_FULL, &pl);
	assert_int_equal(pp->layout, PLAN_LAYOUT_ETS_RED);
	assert_int_equal(pp->nfilters, 2);
	assert_string_equal(pp->queuing_policy, "ROCE_QUEUING_OUT");
	plan_free(&pl);

	/* Looked up by NX-OS alias. */
	pp = tcomp_run_preset(&p, "ethernet1/1", CAPS_PRESET_HW, &pl);
	assert_string_equal(pp->alias, "Ethernet1/1");
	assert_int_equal(pp->pfc_mode, POLICY_PFC_ON);
	plan_free(&pl);
	policy_free(&p);
}

static void test_no_queuing(void **state)
{
	struct policy p;
	struct plan pl;
	struct policy_iface *i;
	const struct plan_port *pp;

	(void)state;
	i = tcomp_ref_policy(&p, POLICY_PFC_ON);
	i->queuing_output[0] = '\0';
	/* A qos input policy without a queuing policy: NX-OS's default
	 * queuing policy is in force, q-default 100 % and q7 strict, so the
	 * classification still has its queues. */
	pp = tcomp_run_preset(&p, "eth1", CAPS_PRESET_FULL, &pl);
	assert_string_equal(pp->queuing_policy, POLICY_QUEUING_DEFAULT);
	assert_int_not_equal(pp->layout, PLAN_LAYOUT_NONE);
	assert_true(pp->nqdiscs > 0);
	assert_int_equal(pp->dcb.ets_bw[0], 100);
	assert_int_equal(pp->dcb.napp, 2);
	assert_int_equal(tcomp_count_msgs(pp, DIAG_WARNING, "not realised"), 0);
	plan_free(&pl);
	/* Neither: nothing to build. */
	i = (struct policy_iface *)policy_find_iface(&p, "eth1");
	i->qos_input[0] = '\0';
	p.system.qos_input[0] = '\0';
	pp = tcomp_run_preset(&p, "eth1", CAPS_PRESET_HW, &pl);
	assert_int_equal(pp->layout, PLAN_LAYOUT_NONE);
	assert_int_equal(pp->nqdiscs, 0);
	plan_free(&pl);
	policy_free(&p);
}

static void test_undefined_names(void **state)
{
	struct policy p;
	struct plan pl;
	struct compile_port cp;
	struct policy_iface *i;

	(void)state;
	i = tcomp_ref_policy(&p, POLICY_PFC_ON);
	snprintf(i->queuing_output, sizeof(i->queuing_output), "%s", "NOPE");
	memset(&cp, 0, sizeof(cp));
	snprintf(cp.ifname, sizeof(cp.ifname), "%s", "eth1");
	caps_preset(&cp.caps, CAPS_PRESET_FULL);
	plan_init(&pl);
	assert_int_equal(compile_policy(&p, &cp, 1, &pl), 0);
	assert_int_equal(pl.diag.nerrors, 1);
	assert_non_null(strstr(pl.diag.v[0].text, "NOPE"));
	plan_free(&pl);
	policy_free(&p);
}

/* A queuing policy that states no share at all (only WRED here) gets
 * NX-OS's default: all the bandwidth to q-default, not 0 % everywhere. */
static void test_no_shares_default(void **state)
{
	struct policy p;
	struct plan pl;
	const struct plan_port *pp;

	(void)state;
	tcomp_ref_policy(&p, POLICY_PFC_ON);
	for (unsigned q = 0; q < POLICY_NQUEUES; q++)
		p.map_queuing[0].queue[q].has_bandwidth = false;
	pp = tcomp_run_preset(&p, "eth1", CAPS_PRESET_HW, &pl);
	assert_int_equal(pp->dcb.ets_bw[0], 100);
	for (unsigned tc = 1; tc < 8; tc++)
		assert_int_equal(pp->dcb.ets_bw[tc], 0);
	plan_free(&pl);
	policy_free(&p);
}

/* The MTU a port had before roced changed it (a compile input from the
 * registry) is the plan's MTU when no network-qos MTU applies, and only
 * then; it leaves the tc part as the policy's. */
static void test_mtu_restore(void **state)
{
	struct compile_port cp = {.ifname = "eth1", .mtu_restore = 1500};
	const struct plan_port *pp;
	struct plan_port *nq;
	struct policy p;
	struct plan pl, ref;

	(void)state;
	tcomp_ref_policy(&p, POLICY_PFC_ON);
	caps_preset(&cp.caps, CAPS_PRESET_FULL);

	/* A network-qos MTU applies: it wins, nothing is given back. */
	plan_init(&pl);
	assert_int_equal(compile_policy(&p, &cp, 1, &pl), 0);
	assert_int_equal(pl.ports[0].dcb.mtu, 9216);
	assert_false(pl.ports[0].dcb.mtu_restore);
	plan_free(&pl);

	/* No network-qos policy: the port's own MTU comes back. */
	p.system.network_qos[0] = '\0';
	pp = tcomp_run_preset(&p, "eth1", CAPS_PRESET_FULL, &ref);
	assert_int_equal(pp->dcb.mtu, 0); /* roced never changed it */
	assert_false(pp->dcb.mtu_restore);
	plan_init(&pl);
	assert_int_equal(compile_policy(&p, &cp, 1, &pl), 0);
	nq = &pl.ports[0];
	assert_int_equal(nq->dcb.mtu, 1500);
	assert_true(nq->dcb.mtu_restore);
	assert_false(nq->dcb.unmanaged);
	/* the same tc part as without the input */
	assert_int_equal(nq->nqdiscs, pp->nqdiscs);
	for (size_t i = 0; i < nq->nqdiscs; i++)
		assert_memory_equal(&nq->qdiscs[i], &pp->qdiscs[i],
		                    sizeof(nq->qdiscs[i]));
	assert_int_equal(nq->nclasses, pp->nclasses);
	plan_free(&pl);
	plan_free(&ref);
	policy_free(&p);
}

/* A port roced lets go: no tc objects, DCB left alone, and the MTU given
 * back only when roced changed it. */
static void test_release(void **state)
{
	struct compile_port cp[2] = {{.ifname = "eth1", .mtu_restore = 1500},
	                             {.ifname = "eth2"}};
	struct plan pl;

	(void)state;
	caps_preset(&cp[0].caps, CAPS_PRESET_HW);
	caps_preset(&cp[1].caps, CAPS_PRESET_HOST);
	plan_init(&pl);
	assert_int_equal(compile_release(cp, 2, &pl), 0);
	assert_int_equal(pl.nports, 2);
	for (size_t i = 0; i < 2; i++) {
		const struct plan_port *pp = &pl.ports[i];

		assert_string_equal(pp->ifname, cp[i].ifname);
		assert_true(pp->dcb.unmanaged);
		assert_int_equal(pp->nqdiscs + pp->nclasses + pp->nfilters, 0);
		assert_int_equal(pp->layout, PLAN_LAYOUT_NONE);
	}
	assert_false(pl.ports[0].dcb.software);
	assert_int_equal(pl.ports[0].dcb.mtu, 1500);
	assert_true(pl.ports[0].dcb.mtu_restore);
	assert_true(pl.ports[1].dcb.software);
	assert_int_equal(pl.ports[1].dcb.mtu, 0);
	assert_false(pl.ports[1].dcb.mtu_restore);
	plan_free(&pl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_mtu_restore),
	    cmocka_unit_test(test_release),
	    cmocka_unit_test(test_ref_host),
	    cmocka_unit_test(test_no_shares_default),
	    cmocka_unit_test(test_ref_full),
	    cmocka_unit_test(test_ref_hw),
	    cmocka_unit_test(test_pfc_modes),
	    cmocka_unit_test(test_speed),
	    cmocka_unit_test(test_shape),
	    cmocka_unit_test(test_port_without_iface),
	    cmocka_unit_test(test_no_queuing),
	    cmocka_unit_test(test_undefined_names),
	};
	int failed = cmocka_run_group_tests_name("compile", tests, NULL, NULL);

	failed += tcomp_run_tc_tests();
	failed += tcomp_run_bpf_tests();
	return failed + tcomp_run_pfc_tests() + tcomp_run_pfc_agents_tests();
}
