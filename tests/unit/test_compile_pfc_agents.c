/* test_compile_pfc_agents: software PFC's plan beyond the hold itself
 * (lib/plan/compile_pfc.c): the no-drop queue's limit sized from the
 * headroom, a release (unhold) as the only change, and the per-port
 * settings the agents read from the plan (the watchdog's times, the pause
 * thresholds). Linked into test_compile; its ports are built as
 * test_compile_pfc.c builds them (tcomp_run_pfc). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "plan/diff.h"
#include "plan/plan_text.h"
#include "tcomp.h"

#define run tcomp_run_pfc

/* A no-drop queue drops only on the watchdog's order: its limit is sized
 * for PFC (xoff plus what is in flight when the pause goes out), never
 * from RED's thresholds alone. With random-detect 6000/24000 bytes RED
 * alone gave 54000 bytes, 27000 above roced's default xoff: software
 * PFC overshoots that, and the no-drop class dropped thousands of
 * packets in spite of its pauses. RED keeps its thresholds, and marks
 * inside the limit. */
static void test_nodrop_limit(void **state)
{
	struct policy p;
	struct plan pl, plain;
	const struct plan_port *pp, *alone;
	const struct plan_qdisc *leaf, *in;
	struct policy_queue *q3;
	struct policy_map_nq *nq;
	struct compile_port cp;
	uint64_t headroom;

	(void)state;
	tcomp_ref_policy(&p, POLICY_PFC_ON);
	q3 = &p.map_queuing[0].queue[3];
	tcomp_set_wred(q3, 6000, 24000, 10, 0);
	alone = run(&p, CAPS_PRESET_FULL, false, 0, 0, &plain);
	/* RED alone: 2 x max + burst, the figure that overflowed */
	assert_int_equal(tcomp_qdisc(alone, LEAF(3))->u.red.limit, 54000);
	pp = run(&p, CAPS_PRESET_FULL, true, 0, 0, &pl);
	leaf = tcomp_qdisc(pp, LEAF(3));
	in = tcomp_qdisc(pp, INNER(3));
	assert_int_equal(leaf->kind, PLAN_QD_TBF);
	assert_int_equal(in->kind, PLAN_QD_RED);
	assert_int_equal(in->u.red.qth_min, 6000);
	assert_int_equal(in->u.red.qth_max, 24000);
	assert_true(in->u.red.ecn);
	assert_true(in->u.red.nodrop);
	assert_int_equal(in->u.red.limit, NODROP_LIMIT);
	assert_int_equal(leaf->u.tbf.limit, NODROP_LIMIT);
	/* the default xoff (limit - headroom, pfctx_defaults) leaves the
	 * whole headroom above it, and RED's thresholds lie below it */
	headroom = compile_pfc_headroom(0, FRAME);
	assert_int_equal(headroom, SPEED_B * 42 / 10000 + 2 * FRAME);
	assert_true(NODROP_LIMIT - headroom >= headroom);
	assert_true(in->u.red.qth_max < NODROP_LIMIT - headroom);
	/* the queues that are not no-drop keep what they had */
	assert_int_equal(tcomp_qdisc(pp, LEAF(0))->u.fifo.limit,
	                 tcomp_qdisc(alone, LEAF(0))->u.fifo.limit);
	assert_int_equal(tcomp_count_msgs(pp, DIAG_WARNING, "without ecn"), 0);
	plan_free(&pl);
	plan_free(&plain);

	/* Without ecn RED drops early, and roced says so */
	q3->wred.ecn = false;
	pp = run(&p, CAPS_PRESET_FULL, true, 0, 0, &pl);
	assert_false(tcomp_qdisc(pp, INNER(3))->u.red.nodrop);
	assert_int_equal(tcomp_count_msgs(pp, DIAG_WARNING, "without ecn"), 1);
	plan_free(&pl);
	q3->wred.ecn = true;

	/* The headroom follows the port's speed: 100 Mb/s */
	tcomp_port(&cp, "eth1", CAPS_PRESET_FULL);
	cp.softpfc = true;
	cp.caps.speed_mbps = 100;
	pp = tcomp_run_port(&p, &cp, &pl);
	headroom = 100 * 125000ull * 42 / 10000 + 2 * FRAME;
	assert_int_equal(compile_pfc_headroom(100, FRAME), headroom);
	assert_int_equal(tcomp_qdisc(pp, INNER(3))->u.red.limit, 2 * headroom);
	plan_free(&pl);

	/* With `pause buffer-size`, its pause-threshold is the xoff: the
	 * limit is that plus the headroom (the rig: xoff 30000, a
	 * buffer of 60000, RED 6000/24000 that made 54000 alone) ... */
	nq = &p.map_nq[0];
	nq->rules[0].buffer.set = true;
	nq->rules[0].buffer.buffer_size = 60000;
	nq->rules[0].buffer.pause_threshold = 30000;
	nq->rules[0].buffer.resume_threshold = 20000;
	headroom = compile_pfc_headroom(0, FRAME);
	pp = run(&p, CAPS_PRESET_FULL, true, 0, 0, &pl);
	assert_int_equal(tcomp_qdisc(pp, INNER(3))->u.red.limit,
	                 30000 + headroom);
	assert_int_equal(tcomp_qdisc(pp, LEAF(3))->u.tbf.limit,
	                 30000 + headroom);
	plan_free(&pl);
	/* ... or its buffer-size, where the operator gave more */
	nq->rules[0].buffer.buffer_size = 20000000;
	nq->rules[0].buffer.pause_threshold = 10000000;
	nq->rules[0].buffer.resume_threshold = 9000000;
	pp = run(&p, CAPS_PRESET_FULL, true, 0, 0, &pl);
	assert_int_equal(tcomp_qdisc(pp, INNER(3))->u.red.limit, 20000000);
	assert_int_equal(tcomp_qdisc(pp, LEAF(3))->u.tbf.limit, 20000000);
	plan_free(&pl);
	nq->rules[0].buffer.set = false;

	/* No sch_red: the tbf's own fifo, sized the same way; a
	 * queue-limit smaller than that is raised, and says so */
	pp = run(&p, CAPS_PRESET_HOST, true, 0, 0, &pl);
	assert_int_equal(tcomp_qdisc(pp, LEAF(3))->u.tbf.limit, NODROP_LIMIT);
	plan_free(&pl);
	q3->queue_limit_bytes = 300000;
	q3->queue_limit_line = 40;
	pp = run(&p, CAPS_PRESET_HOST, true, 0, 0, &pl);
	assert_int_equal(tcomp_qdisc(pp, LEAF(3))->u.tbf.limit, NODROP_LIMIT);
	assert_int_equal(
	    tcomp_count_msgs(pp, DIAG_WARNING, "queue-limit 300000 bytes"), 1);
	plan_free(&pl);
	/* ... and a larger one stays */
	q3->queue_limit_bytes = 2ull * NODROP_LIMIT;
	pp = run(&p, CAPS_PRESET_HOST, true, 0, 0, &pl);
	assert_int_equal(tcomp_qdisc(pp, LEAF(3))->u.tbf.limit,
	                 2 * NODROP_LIMIT);
	assert_int_equal(tcomp_count_msgs(pp, DIAG_WARNING, "queue-limit"), 0);
	plan_free(&pl);
	policy_free(&p);
}

/* What a roced that died left held is released by compile_pfc_unhold()
 * on the kernel's state: the held leaves become what compile gives a
 * released one (diff then finds nothing to change against a fresh
 * compile), and nothing else changes. */
static void test_unhold(void **state)
{
	struct policy p;
	struct plan a, b;
	const struct plan_port *released;
	struct plan_port *held;
	struct diff d;

	(void)state;
	tcomp_ref_policy(&p, POLICY_PFC_ON);
	for (int full = 0; full < 2; full++) {
		enum caps_preset preset =
		    full ? CAPS_PRESET_FULL : CAPS_PRESET_HOST;

		released = run(&p, preset, true, 0, 0, &a);
		held = (struct plan_port *)run(&p, preset, true, 0x08, 0, &b);
		assert_true(compile_pfc_tbf_held(tcomp_qdisc(held, LEAF(3))));
		assert_false(
		    compile_pfc_tbf_held(tcomp_qdisc(released, LEAF(3))));
		/* a fifo, and a released tbf, are not held */
		assert_false(compile_pfc_tbf_held(tcomp_qdisc(held, LEAF(0))));
		assert_int_equal(compile_pfc_unhold(held), 1);
		assert_false(compile_pfc_tbf_held(tcomp_qdisc(held, LEAF(3))));
		diff_init(&d);
		assert_int_equal(diff_port(released, held, &d), 0);
		assert_int_equal(d.n, 0);
		diff_free(&d);
		/* nothing is held any more */
		assert_int_equal(compile_pfc_unhold(held), 0);
		plan_free(&a);
		plan_free(&b);
	}
	/* a storm's drop (the fifo that takes nothing) is not a hold */
	held =
	    (struct plan_port *)run(&p, CAPS_PRESET_HOST, true, 0x08, 0x08, &b);
	assert_int_equal(compile_pfc_unhold(held), 0);
	plan_free(&b);
	policy_free(&p);
}

/* What the agents beside the path follow comes with the plan, as
 * compile resolved it from the policy: the watchdog's times (the poll's
 * default where the policy has none, a fabric-internal port's
 * multiplier, a detection time never under one poll) and each no-drop
 * priority's pause thresholds. The raw policy holds none of these
 * numbers, so an agent that read it would watch with other times. */
static void test_agents_settings(void **state)
{
	struct policy p;
	struct plan pl;
	const struct plan_port *pp;
	struct policy_iface *f;
	struct policy_map_nq *mn;

	(void)state;
	f = tcomp_ref_policy(&p, POLICY_PFC_ON);
	pp = run(&p, CAPS_PRESET_HOST, true, 0, 0, &pl);
	assert_int_equal(pp->wd.poll_ms, 100);
	assert_int_equal(pp->wd.detect_ms, 100);
	assert_int_equal(pp->wd.auto_restore_ms, 1000);
	assert_int_equal(pp->wd.fixed_restore_ms, 0);
	assert_int_equal(pp->wd.action, POLICY_PFCWD_DROP);
	assert_false(pp->wd.internal);
	for (unsigned pr = 0; pr < POLICY_NPRIO; pr++)
		assert_false(pp->pause_thr[pr].set);
	plan_free(&pl);
	/* A poll the policy leaves at 0 (not checked), a fabric-internal
	 * port: times x internal-interface-multiplier (2). */
	p.pfcwd.poll_ms = 0;
	p.pfcwd.shutdown_mult = 3;
	p.pfcwd.fixed_restore_mult = 5;
	p.pfcwd.action = POLICY_PFCWD_FORWARD;
	f->fabric_internal = true;
	pp = run(&p, CAPS_PRESET_HOST, true, 0, 0, &pl);
	assert_int_equal(pp->wd.poll_ms, 100);
	assert_int_equal(pp->wd.detect_ms, 600);
	assert_int_equal(pp->wd.auto_restore_ms, 2000);
	assert_int_equal(pp->wd.fixed_restore_ms, 1000);
	assert_int_equal(pp->wd.action, POLICY_PFCWD_FORWARD);
	assert_true(pp->wd.internal);
	plan_free(&pl);
	/* The port's own shutdown-multiplier replaces the global one, the
	 * internal multiplier still applies; the restores stay global. */
	f->wd_shutdown_mult = 7;
	pp = run(&p, CAPS_PRESET_HOST, true, 0, 0, &pl);
	assert_int_equal(pp->wd.detect_ms, 1400);
	assert_int_equal(pp->wd.auto_restore_ms, 2000);
	plan_free(&pl);
	f->fabric_internal = false;
	pp = run(&p, CAPS_PRESET_HOST, true, 0, 0, &pl);
	assert_int_equal(pp->wd.detect_ms, 700);
	plan_free(&pl);
	f->wd_shutdown_mult = 0;
	/* A detection time under the poll never reaches the agent. */
	p.pfcwd.poll_ms = 200;
	p.pfcwd.shutdown_mult = 0;
	pp = run(&p, CAPS_PRESET_HOST, true, 0, 0, &pl);
	assert_int_equal(pp->wd.detect_ms, 200);
	plan_free(&pl);
	/* The no-drop class's pause buffer: priority 3's thresholds. */
	assert_int_equal(p.nmap_nq, 1);
	mn = &p.map_nq[0];
	mn->rules[0].buffer =
	    (struct policy_pause_buffer){.set = true,
	                                 .buffer_size = 90000,
	                                 .pause_threshold = 60000,
	                                 .resume_threshold = 30000};
	pp = run(&p, CAPS_PRESET_HOST, true, 0, 0, &pl);
	assert_true(pp->pause_thr[3].set);
	assert_int_equal(pp->pause_thr[3].xoff, 60000);
	assert_int_equal(pp->pause_thr[3].xon, 30000);
	assert_int_equal(pp->pause_thr[3].buffer, 90000);
	assert_false(pp->pause_thr[2].set);
	plan_free(&pl);
	policy_free(&p);
}

/* What the LLDP agent, the metrics textfile and the watchdog's show
 * follow comes from the plan too: who runs LLDP on each port, and the
 * plan's global part. Nothing after compile reads the policy for them,
 * so a candidate that was not applied changes none of them. */
static void test_agents_lldp_global(void **state)
{
	struct policy p;
	struct plan pl;
	const struct plan_port *pp;
	struct policy_iface *f;

	(void)state;
	f = tcomp_ref_policy(&p, POLICY_PFC_ON);
	p.lldp.timer = 40;
	p.lldp.reinit = 3;
	p.lldp.holdtime = 5;
	p.pfcwd.enabled = true;
	p.pfcwd.poll_ms = 250;
	p.pfcwd.internal_if_mult = 4;
	p.pfcwd.action = POLICY_PFCWD_FORWARD;
	snprintf(p.metrics.textfile, sizeof(p.metrics.textfile), "/m.prom");
	p.metrics.interval = 0;
	pp = run(&p, CAPS_PRESET_HOST, true, 0, 0, &pl);
	assert_int_equal(pp->lldp.agent, PLAN_LLDP_ROCED);
	assert_true(pp->lldp.transmit && pp->lldp.receive);
	assert_true(pl.global.lldp_feature && pl.global.lldp_dcbxp);
	assert_int_equal(pl.global.lldp_timer_ms, 40000);
	assert_int_equal(pl.global.lldp_reinit_ms, 3000);
	assert_int_equal(pl.global.lldp_holdtime, 5);
	assert_true(pl.global.wd_enabled);
	assert_int_equal(pl.global.wd_poll_ms, 250);
	assert_int_equal(pl.global.wd_internal_if_mult, 4);
	assert_int_equal(pl.global.wd_action, POLICY_PFCWD_FORWARD);
	assert_string_equal(pl.global.metrics_textfile, "/m.prom");
	/* an interval left at 0 is the default, resolved once here */
	assert_int_equal(pl.global.metrics_interval_s, POLICY_METRICS_INTERVAL);
	plan_free(&pl);
	/* transmit alone still runs the agent; neither stops it */
	f->lldp.no_receive = true;
	pp = run(&p, CAPS_PRESET_HOST, true, 0, 0, &pl);
	assert_int_equal(pp->lldp.agent, PLAN_LLDP_ROCED);
	assert_true(pp->lldp.transmit && !pp->lldp.receive);
	plan_free(&pl);
	f->lldp.no_transmit = true;
	pp = run(&p, CAPS_PRESET_HOST, true, 0, 0, &pl);
	assert_int_equal(pp->lldp.agent, PLAN_LLDP_NONE);
	assert_int_equal(pp->lldp.off, PLAN_LLDP_OFF_TXRX);
	plan_free(&pl);
	/* lldpad runs it, whatever transmit and receive say */
	f->lldp.has_agent = true;
	f->lldp.agent = POLICY_DCBX_AGENT_LLDPAD;
	pp = run(&p, CAPS_PRESET_HOST, true, 0, 0, &pl);
	assert_int_equal(pp->lldp.agent, PLAN_LLDP_LLDPAD);
	plan_free(&pl);
	/* `no feature lldp` before all */
	p.lldp.no_feature = true;
	pp = run(&p, CAPS_PRESET_HOST, true, 0, 0, &pl);
	assert_int_equal(pp->lldp.agent, PLAN_LLDP_NONE);
	assert_int_equal(pp->lldp.off, PLAN_LLDP_OFF_FEATURE);
	assert_false(pl.global.lldp_feature);
	plan_free(&pl);
	policy_free(&p);
}

int tcomp_run_pfc_agents_tests(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_nodrop_limit),
	    cmocka_unit_test(test_unhold),
	    cmocka_unit_test(test_agents_settings),
	    cmocka_unit_test(test_agents_lldp_global),
	};

	return cmocka_run_group_tests_name("compile_pfc_agents", tests, NULL,
	                                   NULL);
}
