/* test_compile_pfc: what software PFC and the watchdog put into a plan
 * (lib/plan/compile_pfc.c): the no-drop queue's tbf leaf released and
 * held (a fifo inside, or RED where the kernel has it), the watchdog's
 * actions on software and hardware ports, the ports
 * and modes where none of it applies, and that a hold and its release
 * are one tbf change for diff (no rebuild, nothing dropped). Linked into
 * test_compile. */
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

/* The reference policy (PFC on CoS 3 -> queue 3) on one port with these
 * software PFC and watchdog inputs. */
const struct plan_port *tcomp_run_pfc(struct policy *p, enum caps_preset preset,
                                      bool softpfc, uint8_t hold, uint8_t shut,
                                      struct plan *pl)
{
	struct compile_port cp;

	tcomp_port(&cp, "eth1", preset);
	cp.softpfc = softpfc;
	cp.pfc_hold = hold;
	cp.wd_shut = shut;
	return tcomp_run_port(p, &cp, pl);
}

/* The same with software PFC and these capabilities. */
static const struct plan_port *
run_caps(struct policy *p, const struct caps *caps, struct plan *pl)
{
	struct compile_port cp;

	memset(&cp, 0, sizeof(cp));
	snprintf(cp.ifname, sizeof(cp.ifname), "eth1");
	cp.caps = *caps;
	cp.softpfc = true;
	plan_init(pl);
	assert_int_equal(compile_policy(p, &cp, 1, pl), 0);
	assert_int_equal(pl->nports, 1);
	return &pl->ports[0];
}

/* The limit of QD's queue: the no-drop queue 3's, or the fifo's. */
#define LEAF_LIMIT(qd) ((qd)->queue == 3 ? NODROP_LIMIT : 1000 * FRAME)

static void want_released(const struct plan_qdisc *qd)
{
	assert_int_equal(qd->kind, PLAN_QD_TBF);
	assert_int_equal(qd->u.tbf.rate, 4 * SPEED_B);
	assert_int_equal(qd->u.tbf.burst, 65536);
	assert_int_equal(qd->u.tbf.limit, LEAF_LIMIT(qd));
}

static void want_held(const struct plan_qdisc *qd)
{
	assert_int_equal(qd->kind, PLAN_QD_TBF);
	/* one frame's bucket, refilled in 100 s */
	assert_int_equal(qd->u.tbf.burst, FRAME);
	assert_int_equal(qd->u.tbf.rate, (FRAME + 99) / 100);
	assert_int_equal(qd->u.tbf.limit, LEAF_LIMIT(qd));
}

static void test_released_and_held(void **state)
{
	struct policy p;
	struct plan pl;
	const struct plan_port *pp;

	(void)state;
	tcomp_ref_policy(&p, POLICY_PFC_ON);
	/* Without the daemon's software PFC: the fifo as ever. */
	pp = run(&p, CAPS_PRESET_HOST, false, 0x08, 0, &pl);
	assert_int_equal(tcomp_qdisc(pp, LEAF(3))->kind, PLAN_QD_BFIFO);
	assert_int_equal(pp->hold_queues, 0);
	plan_free(&pl);
	/* Released: a tbf above the port's rate; the other queues keep
	 * their fifo. */
	pp = run(&p, CAPS_PRESET_HOST, true, 0, 0, &pl);
	want_released(tcomp_qdisc(pp, LEAF(3)));
	for (unsigned q = 0; q < 8; q++)
		if (q != 3)
			assert_int_equal(tcomp_qdisc(pp, LEAF(q))->kind,
			                 PLAN_QD_BFIFO);
	assert_int_equal(pp->nqdiscs, 9);
	/* the queues a pause holds, for the agents and show to read */
	assert_int_equal(pp->hold_queues, 0x08);
	plan_free(&pl);
	/* Held by a pause for priority 3. */
	pp = run(&p, CAPS_PRESET_HOST, true, 0x08, 0, &pl);
	want_held(tcomp_qdisc(pp, LEAF(3)));
	assert_int_equal(pp->hold_queues, 0x08);
	plan_free(&pl);
	/* A pause for a priority that is not no-drop holds nothing. */
	pp = run(&p, CAPS_PRESET_HOST, true, 0xf7, 0, &pl);
	want_released(tcomp_qdisc(pp, LEAF(3)));
	for (unsigned q = 0; q < 8; q++)
		if (q != 3)
			assert_int_equal(tcomp_qdisc(pp, LEAF(q))->kind,
			                 PLAN_QD_BFIFO);
	plan_free(&pl);
	policy_free(&p);
}

/* PFC not enabled (mode auto before DCBX, mode off): the leaf is the
 * same tbf (its packets and counters stay when PFC comes and goes), but
 * a pause does not hold it. */
static void test_pfc_not_enabled(void **state)
{
	struct policy p;
	struct plan pl;
	const struct plan_port *pp;

	(void)state;
	tcomp_ref_policy(&p, POLICY_PFC_AUTO);
	pp = run(&p, CAPS_PRESET_HOST, true, 0x08, 0, &pl);
	want_released(tcomp_qdisc(pp, LEAF(3)));
	plan_free(&pl);
	policy_free(&p);
	tcomp_ref_policy(&p, POLICY_PFC_OFF);
	pp = run(&p, CAPS_PRESET_HOST, true, 0x08, 0, &pl);
	want_released(tcomp_qdisc(pp, LEAF(3)));
	plan_free(&pl);
	policy_free(&p);
}

/* The watchdog on a software port: drop takes everything (a fifo of 0
 * bytes), forward ignores the pause, alert leaves the hold alone. */
static void test_watchdog_software(void **state)
{
	struct policy p;
	struct plan pl;
	const struct plan_port *pp;
	const struct plan_qdisc *qd;

	(void)state;
	tcomp_ref_policy(&p, POLICY_PFC_ON);
	pp = run(&p, CAPS_PRESET_HOST, true, 0x08, 0x08, &pl);
	qd = tcomp_qdisc(pp, LEAF(3));
	assert_int_equal(qd->kind, PLAN_QD_BFIFO);
	assert_int_equal(qd->u.fifo.limit, 0);
	assert_int_equal(pp->dcb.pfc_en, 0x08);
	plan_free(&pl);
	p.pfcwd.action = POLICY_PFCWD_FORWARD;
	pp = run(&p, CAPS_PRESET_HOST, true, 0x08, 0x08, &pl);
	want_released(tcomp_qdisc(pp, LEAF(3)));
	plan_free(&pl);
	p.pfcwd.action = POLICY_PFCWD_ALERT;
	pp = run(&p, CAPS_PRESET_HOST, true, 0x08, 0x08, &pl);
	want_held(tcomp_qdisc(pp, LEAF(3)));
	plan_free(&pl);
	/* another queue shut changes nothing here */
	p.pfcwd.action = POLICY_PFCWD_DROP;
	pp = run(&p, CAPS_PRESET_HOST, true, 0x08, 0x10, &pl);
	want_held(tcomp_qdisc(pp, LEAF(3)));
	plan_free(&pl);
	policy_free(&p);
}

/* The watchdog on a hardware port: PFC off for the shut queue's
 * priorities (drop, forward), not for alert. */
static void test_watchdog_hardware(void **state)
{
	struct policy p;
	struct plan pl;
	const struct plan_port *pp;

	(void)state;
	tcomp_ref_policy(&p, POLICY_PFC_ON);
	pp = run(&p, CAPS_PRESET_HW, true, 0x08, 0, &pl);
	assert_int_equal(pp->dcb.pfc_en, 0x08);
	plan_free(&pl);
	pp = run(&p, CAPS_PRESET_HW, true, 0, 0x08, &pl);
	assert_int_equal(pp->dcb.pfc_en, 0);
	assert_int_equal(pp->dcb.pfc_admin, 0x08);
	plan_free(&pl);
	p.pfcwd.action = POLICY_PFCWD_FORWARD;
	pp = run(&p, CAPS_PRESET_HW, true, 0, 0x08, &pl);
	assert_int_equal(pp->dcb.pfc_en, 0);
	plan_free(&pl);
	p.pfcwd.action = POLICY_PFCWD_ALERT;
	pp = run(&p, CAPS_PRESET_HW, true, 0, 0x08, &pl);
	assert_int_equal(pp->dcb.pfc_en, 0x08);
	plan_free(&pl);
	policy_free(&p);
}

/* Where the kernel has sch_red (the full preset), a WRED no-drop queue's
 * leaf is the tbf, with the red inside it: held and released like the
 * fifo queue's, RED's thresholds as without software PFC. The root is
 * htb there (test_htb_root), so the tbf hangs from queue 3's htb class. */
static void test_red_inside_tbf(void **state)
{
	struct policy p;
	struct plan pl, plain;
	const struct plan_port *pp, *alone;
	const struct plan_qdisc *leaf, *in;
	struct plan_red red;
	struct strbuf sb;

	(void)state;
	tcomp_ref_policy(&p, POLICY_PFC_ON);
	alone = run(&p, CAPS_PRESET_FULL, false, 0, 0, &plain);
	assert_int_equal(tcomp_qdisc(alone, LEAF(3))->kind, PLAN_QD_RED);
	assert_int_equal(tcomp_count_msgs(alone, DIAG_WARNING, "ets also"), 0);

	pp = run(&p, CAPS_PRESET_FULL, true, 0, 0, &pl);
	assert_int_equal(pp->layout, PLAN_LAYOUT_HTB_RED);
	leaf = tcomp_qdisc(pp, LEAF(3));
	assert_int_equal(leaf->kind, PLAN_QD_TBF);
	assert_int_equal(leaf->parent,
	                 PLAN_H_MAKE(PLAN_ROOT_MAJOR, PLAN_HTB_QUEUE_MINOR(3)));
	assert_int_equal(leaf->u.tbf.rate, 4 * SPEED_B);
	in = tcomp_qdisc(pp, INNER(3));
	assert_int_equal(in->kind, PLAN_QD_RED);
	assert_int_equal(in->parent, PLAN_H_MAKE(PLAN_LEAF_MAJOR(3), 1));
	assert_int_equal(in->queue, 3);
	/* RED's thresholds as without software PFC; its limit the
	 * no-drop queue's, which RED's thresholds alone would leave far
	 * too small (2 x max + burst) */
	red = tcomp_qdisc(alone, LEAF(3))->u.red;
	assert_true(red.limit < NODROP_LIMIT);
	red.limit = NODROP_LIMIT;
	/* ... and it only marks: what is not ECN-capable queues on */
	assert_false(red.nodrop);
	red.nodrop = true;
	assert_memory_equal(&in->u.red, &red, sizeof(in->u.red));
	/* tbf's limit says RED's */
	assert_int_equal(leaf->u.tbf.limit, in->u.red.limit);
	/* the tbf before the red inside it, for the dry run's replay */
	assert_true(leaf < in);
	assert_int_equal(pp->nqdiscs, alone->nqdiscs + 1);
	assert_int_equal(
	    tcomp_count_msgs(pp, DIAG_WARNING, "not realised on a queue"), 0);
	assert_int_equal(tcomp_count_msgs(pp, DIAG_WARNING, "ets also"), 0);
	strbuf_init(&sb);
	plan_text_write(&pl, &sb);
	assert_non_null(strstr(sb.s, "qdisc add dev eth1 parent 4713:1 "
	                             "handle 4723: red limit "));
	strbuf_free(&sb);
	plan_free(&pl);

	/* Held: the tbf trickles, the red inside is the same. */
	pp = run(&p, CAPS_PRESET_FULL, true, 0x08, 0, &pl);
	leaf = tcomp_qdisc(pp, LEAF(3));
	assert_int_equal(leaf->kind, PLAN_QD_TBF);
	assert_int_equal(leaf->u.tbf.burst, FRAME);
	assert_int_equal(tcomp_qdisc(pp, INNER(3))->kind, PLAN_QD_RED);
	plan_free(&pl);

	/* Shut with drop: the fifo that takes nothing, no red. */
	pp = run(&p, CAPS_PRESET_FULL, true, 0x08, 0x08, &pl);
	leaf = tcomp_qdisc(pp, LEAF(3));
	assert_int_equal(leaf->kind, PLAN_QD_BFIFO);
	assert_int_equal(leaf->u.fifo.limit, 0);
	assert_null(plan_port_qdisc(pp, INNER(3)));
	plan_free(&pl);
	plan_free(&plain);
	policy_free(&p);
}

/* On a full kernel (ets, htb, tbf) a software port whose no-drop queue
 * shares bandwidth gets the htb root: ets would stop every sharing queue
 * while software PFC holds one (it does not step past a band that holds
 * its packets); htb serves the others. One note says why; the shape that
 * ets could not realise is realised; the htb root classifies on egress
 * too (see the filters below). Without software PFC, on hardware ports and with
 * link pause the root stays ets. */
static void test_htb_root(void **state)
{
	struct policy p;
	struct plan pl, plain;
	const struct plan_port *pp, *alone;
	const struct plan_qdisc *root;

	(void)state;
	tcomp_ref_policy(&p, POLICY_PFC_ON);
	alone = run(&p, CAPS_PRESET_FULL, false, 0, 0, &plain);
	assert_int_equal(alone->layout, PLAN_LAYOUT_ETS_RED);
	assert_int_equal(tcomp_count_msgs(alone, DIAG_NOTE, "root is htb"), 0);
	plan_free(&plain);

	for (uint8_t hold = 0; hold <= 0x08; hold += 0x08) {
		pp = run(&p, CAPS_PRESET_FULL, true, hold, 0, &pl);
		assert_int_equal(pp->layout, PLAN_LAYOUT_HTB_RED);
		root = tcomp_qdisc(pp, PLAN_H_MAKE(PLAN_ROOT_MAJOR, 0));
		assert_int_equal(root->kind, PLAN_QD_HTB);
		assert_int_equal(
		    tcomp_count_msgs(
		        pp, DIAG_NOTE,
		        "software PFC holds queue 3: the root is "
		        "htb, not ets, which would stop every "
		        "bandwidth-sharing queue while one is held"),
		    1);
		/* not the minimal kernel's warning, nor ets's */
		assert_int_equal(tcomp_count_msgs(pp, DIAG_WARNING, "lacks"),
		                 0);
		assert_int_equal(tcomp_count_msgs(pp, DIAG_WARNING, "ets also"),
		                 0);
		/* The bridge's other ports may be ets: the ingress skbedit
		 * keeps ets's form (the qos-group), and the htb root
		 * classifies again on egress (one cls_bpf program choosing
		 * htb's class: it sees VLAN tags), for what enters through an
		 * ets port and for a host's own traffic. */
		size_t nflower = 0, nbpf = 0;

		for (size_t i = 0; i < pp->nfilters; i++) {
			const struct plan_filter *pf = &pp->filters[i];

			if (pf->kind == PLAN_FILTER_FLOWER) {
				nflower++;
				assert_int_equal(pf->action,
				                 PLAN_ACT_SKBEDIT_PRIORITY);
				assert_int_equal(pf->priority, pf->qos_group);
				continue;
			}
			nbpf++;
			assert_int_equal(pf->kind, PLAN_FILTER_BPF);
			assert_int_equal(pf->parent,
			                 PLAN_H_MAKE(PLAN_ROOT_MAJOR, 0));
			assert_true(pf->bpf_len > 0);
		}
		assert_true(nflower > 0);
		assert_int_equal(nbpf, 1);
		plan_free(&pl);
	}
	/* A port that comes to software PFC (roced starting over a tree an
	 * older roced made) is rebuilt: the ets root goes with its subtree,
	 * the htb root comes, then its classes and leaves. */
	{
		struct diff d;
		bool del_ets = false, add_htb = false;

		alone = run(&p, CAPS_PRESET_FULL, false, 0, 0, &plain);
		pp = run(&p, CAPS_PRESET_FULL, true, 0, 0, &pl);
		diff_init(&d);
		assert_int_equal(diff_port(pp, alone, &d), 0);
		for (size_t k = 0; k < d.n; k++) {
			const struct diff_op *o = &d.ops[k];

			if (o->obj != DIFF_QDISC ||
			    o->u.qdisc.parent != PLAN_H_ROOT)
				continue;
			if (o->kind == DIFF_DEL &&
			    o->u.qdisc.kind == PLAN_QD_ETS)
				del_ets = true;
			if (o->kind == DIFF_ADD &&
			    o->u.qdisc.kind == PLAN_QD_HTB)
				add_htb = del_ets;
		}
		assert_true(del_ets);
		assert_true(add_htb);
		diff_free(&d);
		plan_free(&pl);
		plan_free(&plain);
	}
	/* a hardware port: the NIC pauses, the root stays */
	pp = run(&p, CAPS_PRESET_HW, true, 0, 0, &pl);
	alone = run(&p, CAPS_PRESET_HW, false, 0, 0, &plain);
	assert_int_equal(pp->layout, alone->layout);
	assert_int_equal(tcomp_count_msgs(pp, DIAG_NOTE, "root is htb"), 0);
	plan_free(&pl);
	plan_free(&plain);
	policy_free(&p);
}

/* A strict no-drop queue is not stopped by ets with the others: ets
 * stays, without a note; prio and htb roots skip a held band or class;
 * a kernel without htb keeps ets and is warned of the stall. */
static void test_ets_note(void **state)
{
	struct policy p;
	struct plan pl;
	const struct plan_port *pp;
	struct caps caps;

	(void)state;
	tcomp_ref_policy(&p, POLICY_PFC_ON);
	caps_preset(&caps, CAPS_PRESET_FULL);
	caps.qdiscs &= ~CAPS_QD_ETS;
	pp = run_caps(&p, &caps, &pl);
	assert_int_equal(pp->layout, PLAN_LAYOUT_PRIO_RED);
	assert_int_equal(tcomp_qdisc(pp, LEAF(3))->kind, PLAN_QD_TBF);
	assert_int_equal(tcomp_count_msgs(pp, DIAG_WARNING, "ets also"), 0);
	plan_free(&pl);
	caps_preset(&caps, CAPS_PRESET_FULL);
	caps.qdiscs &= ~CAPS_QD_HTB;
	pp = run_caps(&p, &caps, &pl);
	assert_int_equal(pp->layout, PLAN_LAYOUT_ETS_RED);
	assert_int_equal(tcomp_qdisc(pp, LEAF(3))->kind, PLAN_QD_TBF);
	tcomp_want_warning(pp, "c-out-8q-q3: while software PFC holds this "
	                       "queue, ets also stops");
	plan_free(&pl);
	for (size_t i = 0; i < p.nmap_queuing; i++) {
		p.map_queuing[i].queue[3].has_bandwidth = false;
		p.map_queuing[i].queue[3].priority_level = 1;
	}
	pp = run(&p, CAPS_PRESET_FULL, true, 0, 0, &pl);
	assert_int_equal(pp->layout, PLAN_LAYOUT_ETS_RED);
	assert_int_equal(tcomp_qdisc(pp, LEAF(3))->kind, PLAN_QD_TBF);
	assert_int_equal(tcomp_count_msgs(pp, DIAG_WARNING, "ets also"), 0);
	assert_int_equal(tcomp_count_msgs(pp, DIAG_NOTE, "root is htb"), 0);
	plan_free(&pl);
	policy_free(&p);
}

/* Without sch_tbf: warnings, and the usual leaves. */
static void test_not_realised(void **state)
{
	struct policy p;
	struct plan pl;
	const struct plan_port *pp;
	struct caps caps;

	(void)state;
	tcomp_ref_policy(&p, POLICY_PFC_ON);
	for (int full = 0; full < 2; full++) {
		caps_preset(&caps, full ? CAPS_PRESET_FULL : CAPS_PRESET_HOST);
		caps.qdiscs &= ~CAPS_QD_TBF;
		pp = run_caps(&p, &caps, &pl);
		assert_int_equal(tcomp_qdisc(pp, LEAF(3))->kind,
		                 full ? PLAN_QD_RED : PLAN_QD_BFIFO);
		assert_null(plan_port_qdisc(pp, INNER(3)));
		assert_int_equal(pp->hold_queues, 0);
		tcomp_want_warning(pp, "lacks sch_tbf");
		plan_free(&pl);
	}
	policy_free(&p);
}

/* The tbf with red inside through diff: a hold is one tbf change; the
 * watchdog's fifo replaces the tbf and its red goes with it (no delete of
 * its own, which the kernel would refuse); back, both are added, the tbf
 * first; a tbf made anew gets its red again even where the kernel still
 * listed the old one. */
static void test_red_inside_diff(void **state)
{
	struct policy p;
	struct plan a, b, c;
	const struct plan_port *rel, *held, *shut;
	struct plan_port have;
	struct plan_qdisc qd[32];
	struct diff d;

	(void)state;
	tcomp_ref_policy(&p, POLICY_PFC_ON);
	rel = run(&p, CAPS_PRESET_FULL, true, 0, 0, &a);
	held = run(&p, CAPS_PRESET_FULL, true, 0x08, 0, &b);
	shut = run(&p, CAPS_PRESET_FULL, true, 0x08, 0x08, &c);
	diff_init(&d);
	assert_int_equal(diff_port(held, rel, &d), 0);
	assert_int_equal(d.n, 1);
	assert_int_equal(d.ops[0].kind, DIFF_CHANGE);
	assert_int_equal(d.ops[0].u.qdisc.handle, LEAF(3));
	diff_free(&d);

	diff_init(&d);
	assert_int_equal(diff_port(shut, held, &d), 0);
	assert_int_equal(d.n, 2);
	assert_int_equal(d.ops[0].kind, DIFF_DEL);
	assert_int_equal(d.ops[0].u.qdisc.handle, LEAF(3));
	assert_int_equal(d.ops[1].kind, DIFF_ADD);
	assert_int_equal(d.ops[1].u.qdisc.kind, PLAN_QD_BFIFO);
	diff_free(&d);

	diff_init(&d);
	assert_int_equal(diff_port(rel, shut, &d), 0);
	assert_int_equal(d.n, 3);
	assert_int_equal(d.ops[0].kind, DIFF_DEL);
	assert_int_equal(d.ops[1].kind, DIFF_ADD);
	assert_int_equal(d.ops[1].u.qdisc.handle, LEAF(3));
	assert_int_equal(d.ops[2].kind, DIFF_ADD);
	assert_int_equal(d.ops[2].u.qdisc.handle, INNER(3));
	diff_free(&d);

	/* The kernel lists the red before its tbf (a dump's order) and the
	 * tbf as a fifo: the fifo goes, the tbf and then the red come. */
	have = *rel;
	assert_true(rel->nqdiscs < 32);
	have.nqdiscs = 0;
	have.qdiscs = qd;
	qd[have.nqdiscs++] = *tcomp_qdisc(rel, INNER(3));
	for (size_t i = 0; i < rel->nqdiscs; i++)
		if (rel->qdiscs[i].handle != INNER(3))
			qd[have.nqdiscs++] = rel->qdiscs[i];
	diff_init(&d);
	assert_int_equal(diff_port(rel, &have, &d), 0);
	assert_int_equal(d.n, 0);
	diff_free(&d);
	for (size_t i = 0; i < have.nqdiscs; i++)
		if (qd[i].handle == LEAF(3)) {
			qd[i].kind = PLAN_QD_BFIFO;
			qd[i].u.fifo.limit = 1000;
		}
	diff_init(&d);
	assert_int_equal(diff_port(rel, &have, &d), 0);
	assert_int_equal(d.n, 3);
	assert_int_equal(d.ops[0].kind, DIFF_DEL);
	assert_int_equal(d.ops[0].u.qdisc.handle, LEAF(3));
	assert_int_equal(d.ops[1].kind, DIFF_ADD);
	assert_int_equal(d.ops[1].u.qdisc.handle, LEAF(3));
	assert_int_equal(d.ops[2].kind, DIFF_ADD);
	assert_int_equal(d.ops[2].u.qdisc.handle, INNER(3));
	diff_free(&d);

	/* A WANT listing the red first (a rollback's, from a dump): the tbf
	 * is still added before it. */
	diff_init(&d);
	{
		struct plan_port want = have;
		struct plan_qdisc wq[32];

		memcpy(wq, qd, sizeof(wq));
		for (size_t i = 0; i < want.nqdiscs; i++)
			if (wq[i].handle == LEAF(3))
				wq[i] = *tcomp_qdisc(rel, LEAF(3));
		want.qdiscs = wq;
		have = *shut;
		assert_int_equal(diff_port(&want, &have, &d), 0);
		assert_int_equal(d.n, 3);
		assert_int_equal(d.ops[1].u.qdisc.handle, LEAF(3));
		assert_int_equal(d.ops[2].u.qdisc.handle, INNER(3));
	}
	diff_free(&d);
	plan_free(&a);
	plan_free(&b);
	plan_free(&c);
	policy_free(&p);
}

/* Hold and release are one change of the tbf: diff neither deletes nor
 * rebuilds anything (which would drop the queue's packets). */
static void test_hold_is_one_change(void **state)
{
	struct policy p;
	struct plan a, b;
	const struct plan_port *released, *held;
	struct diff d;

	(void)state;
	tcomp_ref_policy(&p, POLICY_PFC_ON);
	released = run(&p, CAPS_PRESET_HOST, true, 0, 0, &a);
	held = run(&p, CAPS_PRESET_HOST, true, 0x08, 0, &b);
	for (int dir = 0; dir < 2; dir++) {
		diff_init(&d);
		assert_int_equal(
		    diff_port(dir ? released : held, dir ? held : released, &d),
		    0);
		assert_int_equal(d.n, 1);
		assert_int_equal(d.ops[0].kind, DIFF_CHANGE);
		assert_int_equal(d.ops[0].obj, DIFF_QDISC);
		assert_int_equal(d.ops[0].u.qdisc.handle, LEAF(3));
		diff_free(&d);
	}
	/* the same plan again: nothing */
	diff_init(&d);
	assert_int_equal(diff_port(held, held, &d), 0);
	assert_int_equal(d.n, 0);
	diff_free(&d);
	plan_free(&a);
	plan_free(&b);
	policy_free(&p);
}

static size_t count_pause_ops(const struct plan_port *want,
                              const struct plan_port *have)
{
	struct diff d;
	size_t n = 0;

	diff_init(&d);
	assert_int_equal(diff_port(want, have, &d), 0);
	for (size_t i = 0; i < d.n; i++)
		n += d.ops[i].obj == DIFF_LINK_PAUSE;
	diff_free(&d);
	return n;
}

/* `flowcontrol receive on`: link pause in the DCB part of a hardware
 * port, one ethtool write while the driver holds something else; none on
 * a software port. */
static void test_link_pause(void **state)
{
	struct policy p;
	struct plan pl;
	struct plan_port have;
	const struct plan_port *pp;
	struct policy_iface *i;
	struct strbuf sb;

	(void)state;
	i = tcomp_ref_policy(&p, POLICY_PFC_OFF);
	/* Nothing said: the driver's setting stays. */
	pp = run(&p, CAPS_PRESET_HW, false, 0, 0, &pl);
	assert_false(pp->dcb.pause_managed);
	assert_int_equal(count_pause_ops(pp, pp), 0);
	plan_free(&pl);

	i->fc_rx = true;
	i->fc_rx_line = 12;
	pp = run(&p, CAPS_PRESET_HW, false, 0, 0, &pl);
	assert_true(pp->dcb.pause_managed);
	assert_true(pp->dcb.pause_rx);
	assert_false(pp->dcb.pause_tx);
	assert_int_equal(tcomp_count_msgs(pp, DIAG_WARNING, "flowcontrol"), 0);
	/* Unread, or rx on tx on in the driver: one write; the same: none. */
	memset(&have, 0, sizeof(have));
	have.dcb = pp->dcb;
	have.dcb.pause_managed = false;
	assert_int_equal(count_pause_ops(pp, &have), 1);
	have.dcb.pause_managed = have.dcb.pause_tx = true;
	assert_int_equal(count_pause_ops(pp, &have), 1);
	have.dcb.pause_tx = false;
	assert_int_equal(count_pause_ops(pp, &have), 0);
	strbuf_init(&sb);
	plan_text_write(&pl, &sb);
	assert_non_null(strstr(sb.s, "#ethtool -A eth1 rx on tx off\n"));
	strbuf_free(&sb);
	plan_free(&pl);

	/* A software port: no ethtool write (roced's frame layer does it:
	 * test_link_pause_software); without software PFC planned, said. */
	pp = run(&p, CAPS_PRESET_HOST, true, 0, 0, &pl);
	assert_int_equal(tcomp_count_msgs(pp, DIAG_WARNING, "flowcontrol"), 0);
	assert_int_equal(count_pause_ops(pp, &have), 0);
	plan_free(&pl);
	pp = run(&p, CAPS_PRESET_HOST, false, 0, 0, &pl);
	tcomp_want_warning(pp, "flowcontrol receive on: 802.3x link pause "
	                       "is not realised on a software port without "
	                       "roced's software PFC");
	assert_int_equal(count_pause_ops(pp, &have), 0);
	plan_free(&pl);
	policy_free(&p);
}

/* The reference policy with PFC off and `flowcontrol receive on` on a
 * software port, link pause holding it (LP_HOLD) or not. */
static const struct plan_port *run_lp(struct policy *p, enum caps_preset preset,
                                      bool lp_hold, uint8_t pfc_hold,
                                      struct plan *pl)
{
	struct compile_port cp;

	tcomp_port(&cp, "eth1", preset);
	cp.softpfc = true;
	cp.lp_hold = lp_hold;
	cp.pfc_hold = pfc_hold;
	return tcomp_run_port(p, &cp, pl);
}

/* Link pause received on a software port (802.3x: the whole port): every
 * queue's leaf is a tbf, all released, all held by LP_HOLD; `receive off`
 * or send alone leaves the fifos; a PFC hold (PFC is off) holds nothing. */
static void test_link_pause_software(void **state)
{
	struct policy p;
	struct plan pl;
	const struct plan_port *pp;
	struct policy_iface *i;

	(void)state;
	i = tcomp_ref_policy(&p, POLICY_PFC_OFF);
	i->fc_rx = true;
	i->fc_rx_line = 12;
	pp = run_lp(&p, CAPS_PRESET_HOST, false, 0, &pl);
	for (unsigned q = 0; q < 8; q++)
		want_released(tcomp_qdisc(pp, LEAF(q)));
	assert_int_equal(pp->nqdiscs, 9);
	assert_int_equal(pp->hold_queues, 0xff);
	assert_int_equal(tcomp_count_msgs(pp, DIAG_WARNING, "link pause"), 0);
	plan_free(&pl);
	pp = run_lp(&p, CAPS_PRESET_HOST, true, 0, &pl);
	for (unsigned q = 0; q < 8; q++)
		want_held(tcomp_qdisc(pp, LEAF(q)));
	plan_free(&pl);
	/* a queue-limit stays the queue's limit on its tbf */
	p.map_queuing[0].queue[1].queue_limit_bytes = 300000;
	pp = run_lp(&p, CAPS_PRESET_HOST, false, 0, &pl);
	assert_int_equal(tcomp_qdisc(pp, LEAF(1))->u.tbf.limit, 300000);
	assert_int_equal(tcomp_qdisc(pp, LEAF(1))->kind, PLAN_QD_TBF);
	plan_free(&pl);
	p.map_queuing[0].queue[1].queue_limit_bytes = 0;
	/* a PFC pause with PFC off holds nothing */
	pp = run_lp(&p, CAPS_PRESET_HOST, false, 0xff, &pl);
	for (unsigned q = 0; q < 8; q++)
		want_released(tcomp_qdisc(pp, LEAF(q)));
	plan_free(&pl);
	/* receive off (send on): no hold input can hold anything, and the
	 * queues that are not no-drop keep their fifo */
	i->fc_rx = false;
	i->fc_tx = true;
	i->fc_tx_line = 13;
	pp = run_lp(&p, CAPS_PRESET_HOST, true, 0, &pl);
	want_released(tcomp_qdisc(pp, LEAF(3)));
	for (unsigned q = 0; q < 8; q++)
		if (q != 3)
			assert_int_equal(tcomp_qdisc(pp, LEAF(q))->kind,
			                 PLAN_QD_BFIFO);
	assert_true(pp->dcb.pause_tx);
	assert_int_equal(tcomp_count_msgs(pp, DIAG_WARNING, "flowcontrol"), 0);
	plan_free(&pl);
	/* a hardware port: its driver pauses, the leaves stay fifos */
	i->fc_rx = true;
	pp = run_lp(&p, CAPS_PRESET_HW, true, 0, &pl);
	for (unsigned q = 0; q < 8; q++)
		assert_int_not_equal(tcomp_qdisc(pp, LEAF(q))->kind,
		                     PLAN_QD_TBF);
	assert_int_equal(pp->hold_queues, 0);
	plan_free(&pl);
	policy_free(&p);
}

/* Where the kernel has sch_red, the WRED queue is held too, its red
 * inside the tbf (ECN marking goes on while released); ets's stall of
 * the other bands is not worth a warning when all are held at once.
 * Without sch_tbf nothing is held, and each queue says so. A hold and
 * its release change only the leaves, in place. */
static void test_link_pause_software_limits(void **state)
{
	struct policy p;
	struct plan a, b;
	const struct plan_port *pp, *held;
	struct policy_iface *i;
	struct compile_port cp;
	struct diff d;

	(void)state;
	i = tcomp_ref_policy(&p, POLICY_PFC_OFF);
	i->fc_rx = true;
	i->fc_rx_line = 12;
	pp = run_lp(&p, CAPS_PRESET_FULL, true, 0, &a);
	assert_int_equal(tcomp_qdisc(pp, LEAF(3))->kind, PLAN_QD_TBF);
	assert_int_equal(tcomp_qdisc(pp, LEAF(3))->u.tbf.burst, FRAME);
	assert_int_equal(tcomp_qdisc(pp, INNER(3))->kind, PLAN_QD_RED);
	assert_int_equal(tcomp_count_msgs(pp, DIAG_WARNING, "random-detect"),
	                 0);
	assert_int_equal(tcomp_count_msgs(pp, DIAG_WARNING, "ets also"), 0);
	/* every queue held at once: ets's stall stops nothing that should
	 * flow, so the root stays ets */
	assert_int_equal(pp->layout, PLAN_LAYOUT_ETS_RED);
	assert_int_equal(tcomp_count_msgs(pp, DIAG_NOTE, "root is htb"), 0);
	want_held(tcomp_qdisc(pp, LEAF(0)));
	plan_free(&a);

	tcomp_port(&cp, "eth1", CAPS_PRESET_HOST);
	cp.caps.qdiscs &= ~CAPS_QD_TBF;
	cp.softpfc = true;
	cp.lp_hold = true;
	pp = tcomp_run_port(&p, &cp, &a);
	for (unsigned q = 0; q < 8; q++)
		assert_int_equal(tcomp_qdisc(pp, LEAF(q))->kind, PLAN_QD_BFIFO);
	assert_int_equal(tcomp_count_msgs(pp, DIAG_WARNING,
	                                  "802.3x link pause is not realised: "
	                                  "the kernel lacks sch_tbf"),
	                 8);
	plan_free(&a);

	pp = run_lp(&p, CAPS_PRESET_HOST, false, 0, &a);
	held = run_lp(&p, CAPS_PRESET_HOST, true, 0, &b);
	diff_init(&d);
	assert_int_equal(diff_port(held, pp, &d), 0);
	assert_int_equal(d.n, 8);
	for (size_t k = 0; k < d.n; k++) {
		assert_int_equal(d.ops[k].kind, DIFF_CHANGE);
		assert_int_equal(d.ops[k].obj, DIFF_QDISC);
	}
	diff_free(&d);
	plan_free(&a);
	plan_free(&b);
	policy_free(&p);
}

/* Where a pause received is honoured (plan_port.pfc_path): in the kernel
 * where it has fq, clsact and cls_bpf and roced its programs, unless the
 * daemon could not load them on the port (then roced's process, with
 * the daemon's reason); roced's process where a piece is missing, named;
 * nowhere on a hardware port or with no PFC and no link pause. */
static void test_pfc_path(void **state)
{
	struct policy p;
	struct plan a;
	const struct plan_port *pp;
	struct compile_port cp;

	(void)state;
	tcomp_ref_policy(&p, POLICY_PFC_ON);
	tcomp_port(&cp, "eth1", CAPS_PRESET_FULL);
	cp.softpfc = true;
	cp.caps.bpf_progs = true;
	pp = tcomp_run_port(&p, &cp, &a);
	assert_int_equal(pp->pfc_path, PLAN_PFC_PATH_USER);
	assert_string_equal(pp->pfc_path_why, COMPILE_PFC_KERNEL_OFF);
	plan_free(&a);
	cp.kpfc = true;
	pp = tcomp_run_port(&p, &cp, &a);
	assert_int_equal(pp->pfc_path, PLAN_PFC_PATH_KERNEL);
	assert_string_equal(pp->pfc_path_why, COMPILE_PFC_KERNEL_WHY);
	plan_free(&a);

	snprintf(cp.kpfc_refused, sizeof(cp.kpfc_refused),
	         "BPF program pfc_tx refused: R1 invalid mem access");
	pp = tcomp_run_port(&p, &cp, &a);
	assert_int_equal(pp->pfc_path, PLAN_PFC_PATH_USER);
	assert_string_equal(
	    pp->pfc_path_why,
	    "BPF program pfc_tx refused: R1 invalid mem access");
	plan_free(&a);

	cp.kpfc_refused[0] = '\0';
	cp.caps.bpf_progs = false;
	pp = tcomp_run_port(&p, &cp, &a);
	assert_int_equal(pp->pfc_path, PLAN_PFC_PATH_USER);
	assert_string_equal(pp->pfc_path_why,
	                    "roced was built without its BPF programs");
	plan_free(&a);

	tcomp_port(&cp, "eth1", CAPS_PRESET_HOST);
	cp.softpfc = true;
	cp.caps.bpf_progs = true;
	pp = tcomp_run_port(&p, &cp, &a);
	assert_int_equal(pp->pfc_path, PLAN_PFC_PATH_USER);
	assert_string_equal(pp->pfc_path_why, "the kernel has no sch_fq");
	plan_free(&a);

	/* a job that plans no software PFC, and a hardware port */
	cp.softpfc = false;
	pp = tcomp_run_port(&p, &cp, &a);
	assert_int_equal(pp->pfc_path, PLAN_PFC_PATH_NONE);
	plan_free(&a);
	tcomp_port(&cp, "eth1", CAPS_PRESET_HW);
	cp.softpfc = true;
	cp.caps.bpf_progs = true;
	pp = tcomp_run_port(&p, &cp, &a);
	assert_int_equal(pp->pfc_path, PLAN_PFC_PATH_NONE);
	plan_free(&a);
	policy_free(&p);

	/* no PFC and no link pause: nothing to honour */
	tcomp_ref_policy(&p, POLICY_PFC_OFF);
	tcomp_port(&cp, "eth1", CAPS_PRESET_FULL);
	cp.softpfc = true;
	cp.kpfc = true;
	cp.caps.bpf_progs = true;
	pp = tcomp_run_port(&p, &cp, &a);
	assert_int_equal(pp->pfc_path, PLAN_PFC_PATH_NONE);
	plan_free(&a);
	policy_free(&p);

	assert_string_equal(plan_pfc_path_name(PLAN_PFC_PATH_USER),
	                    "user-space");
	assert_int_equal(plan_pfc_path_parse("kernel"), PLAN_PFC_PATH_KERNEL);
	assert_int_equal(plan_pfc_path_parse("bpf"), -1);
}

int tcomp_run_pfc_tests(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_released_and_held),
	    cmocka_unit_test(test_pfc_not_enabled),
	    cmocka_unit_test(test_watchdog_software),
	    cmocka_unit_test(test_watchdog_hardware),
	    cmocka_unit_test(test_red_inside_tbf),
	    cmocka_unit_test(test_htb_root),
	    cmocka_unit_test(test_ets_note),
	    cmocka_unit_test(test_not_realised),
	    cmocka_unit_test(test_red_inside_diff),
	    cmocka_unit_test(test_hold_is_one_change),
	    cmocka_unit_test(test_link_pause),
	    cmocka_unit_test(test_link_pause_software),
	    cmocka_unit_test(test_link_pause_software_limits),
	    cmocka_unit_test(test_pfc_path),
	};

	return cmocka_run_group_tests_name("compile_pfc", tests, NULL, NULL);
}
