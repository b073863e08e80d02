/* Unit tests for lib/plan/diff.c: minimal, ordered operations. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "plan/diff.h"
#include "model/plan.h"
#include "nlmsg/tc_msg.h"

#define ROOT PLAN_H_MAKE(PLAN_ROOT_MAJOR, 0)

/* A small htb port: root, port class, two queue classes with bfifo leaves,
 * one u32 filter, like compile() makes for the host layout. */
static void build_htb(struct plan_port *pp, uint64_t q3_rate)
{
	struct plan_qdisc *q;
	struct plan_class *c;
	struct plan_filter *f;

	memset(pp, 0, sizeof(*pp));
	snprintf(pp->ifname, sizeof(pp->ifname), "swp1");
	diag_init(&pp->warnings, NULL);
	pp->dcb.software = true;
	q = plan_port_add_qdisc(pp);
	q->kind = PLAN_QD_HTB;
	q->handle = ROOT;
	q->parent = PLAN_H_ROOT;
	q->queue = -1;
	q->u.htb.defcls = PLAN_HTB_QUEUE_MINOR(0);
	q->u.htb.r2q = 10;
	c = plan_port_add_class(pp);
	c->classid = PLAN_H_MAKE(PLAN_ROOT_MAJOR, PLAN_HTB_ROOT_MINOR);
	c->parent = ROOT;
	c->rate = c->ceil = 1250000000ULL;
	c->queue = -1;
	for (unsigned qn = 0; qn < 4; qn += 3) {
		c = plan_port_add_class(pp);
		c->classid =
		    PLAN_H_MAKE(PLAN_ROOT_MAJOR, PLAN_HTB_QUEUE_MINOR(qn));
		c->parent = PLAN_H_MAKE(PLAN_ROOT_MAJOR, PLAN_HTB_ROOT_MINOR);
		c->rate = qn == 3 ? q3_rate : 625000000ULL;
		c->ceil = 1250000000ULL;
		c->prio = 1;
		c->queue = (int)qn;
		q = plan_port_add_qdisc(pp);
		q->kind = PLAN_QD_BFIFO;
		q->handle = PLAN_H_MAKE(PLAN_LEAF_MAJOR(qn), 0);
		q->parent = c->classid;
		q->queue = (int)qn;
		q->u.fifo.limit = 1000000;
	}
	f = plan_port_add_filter(pp);
	f->kind = PLAN_FILTER_U32;
	f->parent = ROOT;
	f->prio = PLAN_FILTER_PRIO_BASE;
	f->protocol = 0x0800;
	f->match_dscp = true;
	f->dscp = 26;
	f->dscp_mask = 0x3f;
	f->action = PLAN_ACT_CLASSID;
	f->classid = PLAN_H_MAKE(PLAN_ROOT_MAJOR, PLAN_HTB_QUEUE_MINOR(3));
}

static void port_free(struct plan_port *pp)
{
	free(pp->qdiscs);
	free(pp->classes);
	free(pp->filters);
	diag_free(&pp->warnings);
}

static void empty_port(struct plan_port *pp)
{
	memset(pp, 0, sizeof(*pp));
	diag_init(&pp->warnings, NULL);
	pp->dcb.software = true;
}

static void test_unchanged_is_empty(void **state)
{
	struct plan_port a, b;
	struct diff d;

	(void)state;
	build_htb(&a, 625000000ULL);
	build_htb(&b, 625000000ULL);
	diff_init(&d);
	assert_int_equal(diff_port(&a, &b, &d), 0);
	assert_int_equal(d.n, 0);
	diff_free(&d);
	port_free(&a);
	port_free(&b);
}

static void test_one_class_change(void **state)
{
	struct plan_port want, have;
	struct diff d;

	(void)state;
	build_htb(&want, 250000000ULL);
	build_htb(&have, 625000000ULL);
	diff_init(&d);
	assert_int_equal(diff_port(&want, &have, &d), 0);
	assert_int_equal(d.n, 1);
	assert_int_equal(d.ops[0].kind, DIFF_CHANGE);
	assert_int_equal(d.ops[0].obj, DIFF_CLASS);
	assert_int_equal(d.ops[0].u.cls.rate, 250000000ULL);
	diff_free(&d);
	port_free(&want);
	port_free(&have);
}

/* htb ignores quantum and prio sent for a class that has children: the
 * port class keeps an earlier plan's quantum, and the diff must not want
 * to write it for ever. A leaf's quantum is still compared. */
static void test_inner_class_quantum_ignored(void **state)
{
	struct plan_port want, have;
	struct diff d;

	(void)state;
	build_htb(&want, 625000000ULL);
	build_htb(&have, 625000000ULL);
	want.classes[0].quantum = 9234; /* the port class, 4791:1 */
	have.classes[0].quantum = 9018;
	have.classes[0].prio = 3;
	diff_init(&d);
	assert_int_equal(diff_port(&want, &have, &d), 0);
	assert_int_equal(d.n, 0);
	diff_free(&d);
	want.classes[1].quantum = 9234; /* a queue's class: a leaf */
	have.classes[1].quantum = 9018;
	diff_init(&d);
	assert_int_equal(diff_port(&want, &have, &d), 0);
	assert_int_equal(d.n, 1);
	assert_int_equal(d.ops[0].kind, DIFF_CHANGE);
	assert_int_equal(d.ops[0].obj, DIFF_CLASS);
	assert_int_equal(d.ops[0].u.cls.classid, want.classes[1].classid);
	assert_int_equal(d.ops[0].u.cls.quantum, 9234);
	diff_free(&d);
	port_free(&want);
	port_free(&have);
}

static void test_cold_apply_order(void **state)
{
	struct plan_port want, have;
	struct diff d;
	size_t root = 99, cls = 99, leaf = 99, filt = 99;

	(void)state;
	build_htb(&want, 625000000ULL);
	empty_port(&have);
	diff_init(&d);
	assert_int_equal(diff_port(&want, &have, &d), 0);
	/* root + 3 classes + 2 leaves + 1 filter */
	assert_int_equal(d.n, 7);
	for (size_t i = 0; i < d.n; i++) {
		assert_int_equal(d.ops[i].kind, DIFF_ADD);
		if (d.ops[i].obj == DIFF_QDISC &&
		    d.ops[i].u.qdisc.parent == PLAN_H_ROOT)
			root = i;
		else if (d.ops[i].obj == DIFF_CLASS && cls == 99)
			cls = i;
		else if (d.ops[i].obj == DIFF_QDISC && leaf == 99)
			leaf = i;
		else if (d.ops[i].obj == DIFF_FILTER)
			filt = i;
	}
	assert_true(root < cls);
	assert_true(cls < leaf);
	assert_true(leaf < filt);
	diff_free(&d);
	port_free(&want);
	port_free(&have);
}

static void test_removal_deletes_root_only(void **state)
{
	struct plan_port want, have;
	struct diff d;

	(void)state;
	empty_port(&want);
	build_htb(&have, 625000000ULL);
	diff_init(&d);
	assert_int_equal(diff_port(&want, &have, &d), 0);
	/* The root takes its classes, leaves and filters with it. */
	assert_int_equal(d.n, 1);
	assert_int_equal(d.ops[0].kind, DIFF_DEL);
	assert_int_equal(d.ops[0].obj, DIFF_QDISC);
	assert_int_equal(d.ops[0].u.qdisc.parent, PLAN_H_ROOT);
	diff_free(&d);
	port_free(&want);
	port_free(&have);
}

static void test_root_kind_change_rebuilds(void **state)
{
	struct plan_port want, have;
	struct diff d;

	(void)state;
	build_htb(&want, 625000000ULL);
	build_htb(&have, 625000000ULL);
	have.qdiscs[0].kind = PLAN_QD_PRIO;
	diff_init(&d);
	assert_int_equal(diff_port(&want, &have, &d), 0);
	assert_int_equal(d.n, 8); /* delete root, then 7 adds */
	assert_int_equal(d.ops[0].kind, DIFF_DEL);
	assert_int_equal(d.ops[0].u.qdisc.kind, PLAN_QD_PRIO);
	for (size_t i = 1; i < d.n; i++)
		assert_int_equal(d.ops[i].kind, DIFF_ADD);
	diff_free(&d);
	port_free(&want);
	port_free(&have);
}

/* The kernel refuses to change an htb root in place: a new default class
 * means delete and rebuild. */
static void test_htb_root_change_rebuilds(void **state)
{
	struct plan_port want, have;
	struct diff d;

	(void)state;
	build_htb(&want, 625000000ULL);
	build_htb(&have, 625000000ULL);
	want.qdiscs[0].u.htb.defcls = PLAN_HTB_QUEUE_MINOR(3);
	diff_init(&d);
	assert_int_equal(diff_port(&want, &have, &d), 0);
	assert_int_equal(d.n, 8);
	assert_int_equal(d.ops[0].kind, DIFF_DEL);
	assert_int_equal(d.ops[0].u.qdisc.parent, PLAN_H_ROOT);
	diff_free(&d);
	port_free(&want);
	port_free(&have);
}

static void test_leaf_kind_change(void **state)
{
	struct plan_port want, have;
	struct diff d;

	(void)state;
	build_htb(&want, 625000000ULL);
	build_htb(&have, 625000000ULL);
	want.qdiscs[2].kind = PLAN_QD_RED;
	memset(&want.qdiscs[2].u, 0, sizeof(want.qdiscs[2].u));
	want.qdiscs[2].u.red.limit = 4000000;
	diff_init(&d);
	assert_int_equal(diff_port(&want, &have, &d), 0);
	assert_int_equal(d.n, 2);
	assert_int_equal(d.ops[0].kind, DIFF_DEL);
	assert_int_equal(d.ops[0].u.qdisc.kind, PLAN_QD_BFIFO);
	assert_int_equal(d.ops[1].kind, DIFF_ADD);
	assert_int_equal(d.ops[1].u.qdisc.kind, PLAN_QD_RED);
	diff_free(&d);
	port_free(&want);
	port_free(&have);
}

static void test_filter_change_is_delete_then_add(void **state)
{
	struct plan_port want, have;
	struct diff d;

	(void)state;
	build_htb(&want, 625000000ULL);
	build_htb(&have, 625000000ULL);
	want.filters[0].dscp = 46;
	diff_init(&d);
	assert_int_equal(diff_port(&want, &have, &d), 0);
	assert_int_equal(d.n, 2);
	assert_int_equal(d.ops[0].kind, DIFF_DEL);
	assert_int_equal(d.ops[0].u.filter.dscp, 26);
	assert_int_equal(d.ops[1].kind, DIFF_ADD);
	assert_int_equal(d.ops[1].u.filter.dscp, 46);
	diff_free(&d);
	port_free(&want);
	port_free(&have);
}

/* A rollback's target comes from a kernel dump, children before parents:
 * the adds must still create parents first. */
static void test_classes_added_parents_first(void **state)
{
	struct plan_port want, have;
	struct plan_class tmp;
	struct diff d;
	size_t port_class = 99, queue_class = 99;

	(void)state;
	build_htb(&want, 625000000ULL);
	empty_port(&have);
	tmp = want.classes[0]; /* the port-rate parent goes last */
	want.classes[0] = want.classes[2];
	want.classes[2] = tmp;
	diff_init(&d);
	assert_int_equal(diff_port(&want, &have, &d), 0);
	for (size_t i = 0; i < d.n; i++) {
		if (d.ops[i].obj != DIFF_CLASS)
			continue;
		if (d.ops[i].u.cls.queue < 0)
			port_class = i;
		else if (queue_class == 99)
			queue_class = i;
	}
	assert_true(port_class < queue_class);
	diff_free(&d);
	port_free(&want);
	port_free(&have);
}

/* htb cannot move a class: one under the wrong parent is deleted and
 * created again, not changed. */
/* Many classes (more than diff keeps on its stack), listed children
 * first: every class still comes after its parent. */
static void test_many_classes_parents_first(void **state)
{
	struct plan_port want, have;
	struct diff d;
	size_t seen = 0;

	(void)state;
	empty_port(&want);
	empty_port(&have);
	/* 4791:100+i under 4791:1+i/10, and 4791:1..9 under the qdisc,
	 * all listed leaves first */
	for (unsigned i = 0; i < 90; i++) {
		struct plan_class *c = plan_port_add_class(&want);

		c->classid = PLAN_H_MAKE(PLAN_ROOT_MAJOR, 0x100 + i);
		c->parent = PLAN_H_MAKE(PLAN_ROOT_MAJOR, 1 + i / 10);
		c->rate = 1000000;
		c->queue = -1;
	}
	for (unsigned i = 1; i <= 9; i++) {
		struct plan_class *c = plan_port_add_class(&want);

		c->classid = PLAN_H_MAKE(PLAN_ROOT_MAJOR, i);
		c->parent = ROOT;
		c->rate = 10000000;
		c->queue = -1;
	}
	diff_init(&d);
	assert_int_equal(diff_port(&want, &have, &d), 0);
	for (size_t i = 0; i < d.n; i++) {
		uint32_t minor;

		if (d.ops[i].obj != DIFF_CLASS)
			continue;
		minor = PLAN_H_MIN(d.ops[i].u.cls.classid);
		/* the 9 parents first, then the 90 children */
		assert_true(seen < 9 ? minor <= 9 : minor >= 0x100);
		seen++;
	}
	assert_int_equal(seen, 99);
	diff_free(&d);
	port_free(&want);
	port_free(&have);
}

static void test_moved_class_recreated(void **state)
{
	struct plan_port want, have;
	struct diff d;

	(void)state;
	build_htb(&want, 625000000ULL);
	build_htb(&have, 625000000ULL);
	have.classes[2].parent = ROOT;
	diff_init(&d);
	assert_int_equal(diff_port(&want, &have, &d), 0);
	/* delete the class, add it back, add back its leaf (which the
	 * kernel deleted with the class) */
	assert_int_equal(d.n, 3);
	assert_int_equal(d.ops[0].kind, DIFF_DEL);
	assert_int_equal(d.ops[0].obj, DIFF_CLASS);
	assert_int_equal(d.ops[1].kind, DIFF_ADD);
	assert_int_equal(d.ops[1].u.cls.parent,
	                 PLAN_H_MAKE(PLAN_ROOT_MAJOR, PLAN_HTB_ROOT_MINOR));
	assert_int_equal(d.ops[2].kind, DIFF_ADD);
	assert_int_equal(d.ops[2].obj, DIFF_QDISC);
	assert_int_equal(d.ops[2].u.qdisc.parent, d.ops[1].u.cls.classid);
	diff_free(&d);
	port_free(&want);
	port_free(&have);
}

/* clsact goes when roced no longer needs it, if roced created it (its
 * mark says so) and nobody else uses it. */
static void test_clsact_removed_unless_shared(void **state)
{
	struct plan_port want, have;
	struct plan_qdisc *q;
	struct diff d;

	(void)state;
	empty_port(&want);
	empty_port(&have);
	q = plan_port_add_qdisc(&have);
	q->kind = PLAN_QD_CLSACT;
	q->handle = q->parent = PLAN_H_CLSACT;
	q->queue = -1;
	have.clsact_owned = true;
	diff_init(&d);
	assert_int_equal(diff_port(&want, &have, &d), 0);
	assert_int_equal(d.n, 1);
	assert_int_equal(d.ops[0].kind, DIFF_DEL);
	assert_int_equal(d.ops[0].u.qdisc.kind, PLAN_QD_CLSACT);
	diff_free(&d);

	have.clsact_shared = true;
	diff_init(&d);
	assert_int_equal(diff_port(&want, &have, &d), 0);
	assert_int_equal(d.n, 0);
	diff_free(&d);

	/* someone else's, empty: theirs to delete */
	have.clsact_shared = false;
	have.clsact_owned = false;
	diff_init(&d);
	assert_int_equal(diff_port(&want, &have, &d), 0);
	assert_int_equal(d.n, 0);
	diff_free(&d);
	port_free(&want);
	port_free(&have);
}

/* A clsact roced creates gets its mark right after; one that is there
 * already (anyone's) gets none. */
static void test_clsact_added_with_mark(void **state)
{
	struct plan_port want, have;
	struct plan_qdisc *q;
	struct plan_filter mark;
	struct diff d;

	(void)state;
	empty_port(&want);
	empty_port(&have);
	q = plan_port_add_qdisc(&want);
	q->kind = PLAN_QD_CLSACT;
	q->handle = q->parent = PLAN_H_CLSACT;
	q->queue = -1;
	plan_clsact_mark(&mark);
	diff_init(&d);
	assert_int_equal(diff_port(&want, &have, &d), 0);
	assert_int_equal(d.n, 2);
	assert_int_equal(d.ops[0].kind, DIFF_ADD);
	assert_int_equal(d.ops[0].u.qdisc.kind, PLAN_QD_CLSACT);
	assert_int_equal(d.ops[1].kind, DIFF_ADD);
	assert_int_equal(d.ops[1].obj, DIFF_FILTER);
	assert_true(tc_msg_filter_same(&d.ops[1].u.filter, &mark));
	assert_int_equal(d.ops[1].u.filter.chain, PLAN_CLSACT_MARK_CHAIN);
	diff_free(&d);

	*plan_port_add_qdisc(&have) = *q;
	diff_init(&d);
	assert_int_equal(diff_port(&want, &have, &d), 0);
	assert_int_equal(d.n, 0);
	diff_free(&d);
	port_free(&want);
	port_free(&have);
}

static void test_dcb_hardware(void **state)
{
	struct plan_port want, have;
	struct diff d;
	unsigned adds = 0, dels = 0, pfc = 0, trust = 0, mtu = 0;

	(void)state;
	empty_port(&want);
	empty_port(&have);
	want.dcb.software = have.dcb.software = false;
	want.dcb.pfc_en = 1u << 3;
	want.dcb.app[want.dcb.napp++] =
	    (struct plan_app){PLAN_APP_SEL_DSCP, 26, 3};
	have.dcb.app[have.dcb.napp++] =
	    (struct plan_app){PLAN_APP_SEL_DSCP, 26, 4};
	want.dcb.trust[0] = PLAN_APP_SEL_DSCP;
	want.dcb.ntrust = 1;
	want.dcb.mtu = 9216;
	have.dcb.mtu = 1500;
	diff_init(&d);
	assert_int_equal(diff_port(&want, &have, &d), 0);
	for (size_t i = 0; i < d.n; i++) {
		switch (d.ops[i].obj) {
		case DIFF_DCB_APP:
			if (d.ops[i].kind == DIFF_ADD) {
				assert_int_equal(dels, 0); /* add first */
				assert_int_equal(d.ops[i].u.app.priority, 3);
				adds++;
			} else {
				assert_int_equal(adds, 1);
				assert_int_equal(d.ops[i].u.app.priority, 4);
				dels++;
			}
			break;
		case DIFF_DCB_PFC:
			pfc++;
			break;
		case DIFF_DCB_TRUST:
			trust++;
			break;
		case DIFF_MTU:
			assert_int_equal(d.ops[i].u.mtu, 9216);
			mtu++;
			break;
		default:
			fail_msg("unexpected op %s",
			         diff_obj_name(d.ops[i].obj));
		}
	}
	assert_int_equal(adds, 1);
	assert_int_equal(dels, 1);
	assert_int_equal(pfc, 1);
	assert_int_equal(trust, 1);
	assert_int_equal(mtu, 1);
	diff_free(&d);

	/* The same on a software port: only the MTU is a kernel write. */
	want.dcb.software = true;
	diff_init(&d);
	assert_int_equal(diff_port(&want, &have, &d), 0);
	assert_int_equal(d.n, 1);
	assert_int_equal(d.ops[0].obj, DIFF_MTU);
	diff_free(&d);
	port_free(&want);
	port_free(&have);
}

/* A plan that only removes roced's objects (cleanup, a port no longer
 * configured) leaves DCB and the MTU alone, on a hardware port and with an
 * MTU in the plan: only the tc part changes. */
static void test_unmanaged_leaves_dcb_and_mtu(void **state)
{
	struct plan_port want, have;
	struct diff d;

	(void)state;
	empty_port(&want);
	build_htb(&have, 625000000ULL);
	want.dcb.software = have.dcb.software = false;
	want.dcb.unmanaged = true;
	want.dcb.mtu = 9216;
	have.dcb.mtu = 1500;
	want.dcb.pfc_en = 1u << 3;
	have.dcb.app[have.dcb.napp++] =
	    (struct plan_app){PLAN_APP_SEL_DSCP, 26, 4};
	diff_init(&d);
	assert_int_equal(diff_port(&want, &have, &d), 0);
	assert_true(d.n > 0);
	for (size_t i = 0; i < d.n; i++)
		if (d.ops[i].obj != DIFF_QDISC && d.ops[i].obj != DIFF_CLASS &&
		    d.ops[i].obj != DIFF_FILTER)
			fail_msg("unmanaged port: %s %s",
			         diff_kind_name(d.ops[i].kind),
			         diff_obj_name(d.ops[i].obj));
	diff_free(&d);
	port_free(&want);
	port_free(&have);
}

/* A plan that lets a port go gives back the MTU roced took, and still
 * leaves DCB alone; the same MTU already there is no operation. */
static void test_unmanaged_gives_mtu_back(void **state)
{
	struct plan_port want, have;
	struct diff d;
	size_t mtu = 0;

	(void)state;
	empty_port(&want);
	build_htb(&have, 625000000ULL);
	want.dcb.software = have.dcb.software = false;
	want.dcb.unmanaged = true;
	want.dcb.mtu = 1500;
	want.dcb.mtu_restore = true;
	want.dcb.pfc_en = 1u << 3;
	have.dcb.mtu = 9216;
	diff_init(&d);
	assert_int_equal(diff_port(&want, &have, &d), 0);
	for (size_t i = 0; i < d.n; i++) {
		if (d.ops[i].obj == DIFF_MTU) {
			assert_int_equal(d.ops[i].u.mtu, 1500);
			mtu++;
		} else if (d.ops[i].obj != DIFF_QDISC &&
		           d.ops[i].obj != DIFF_CLASS &&
		           d.ops[i].obj != DIFF_FILTER) {
			fail_msg("unmanaged port: %s %s",
			         diff_kind_name(d.ops[i].kind),
			         diff_obj_name(d.ops[i].obj));
		}
	}
	assert_int_equal(mtu, 1);
	diff_free(&d);

	have.dcb.mtu = 1500;
	diff_init(&d);
	assert_int_equal(diff_port(&want, &have, &d), 0);
	for (size_t i = 0; i < d.n; i++)
		assert_int_not_equal(d.ops[i].obj, DIFF_MTU);
	diff_free(&d);
	port_free(&want);
	port_free(&have);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_unchanged_is_empty),
	    cmocka_unit_test(test_one_class_change),
	    cmocka_unit_test(test_inner_class_quantum_ignored),
	    cmocka_unit_test(test_cold_apply_order),
	    cmocka_unit_test(test_removal_deletes_root_only),
	    cmocka_unit_test(test_root_kind_change_rebuilds),
	    cmocka_unit_test(test_htb_root_change_rebuilds),
	    cmocka_unit_test(test_leaf_kind_change),
	    cmocka_unit_test(test_filter_change_is_delete_then_add),
	    cmocka_unit_test(test_classes_added_parents_first),
	    cmocka_unit_test(test_many_classes_parents_first),
	    cmocka_unit_test(test_moved_class_recreated),
	    cmocka_unit_test(test_clsact_removed_unless_shared),
	    cmocka_unit_test(test_clsact_added_with_mark),
	    cmocka_unit_test(test_dcb_hardware),
	    cmocka_unit_test(test_unmanaged_leaves_dcb_and_mtu),
	    cmocka_unit_test(test_unmanaged_gives_mtu_back),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
