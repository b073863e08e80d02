/* Tests for daemon/kernel/mirror.c: what the mirror says a port holds after a
 * pass must diff to nothing against the same plan (every layout the
 * shipped policy compiles to), to exactly the change against a changed
 * plan, and an entry is only trusted while nothing else touched it. No
 * kernel: the plans come from conf/roced.conf through compile. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/compile.h"
#include "conf/conf.h"
#include "plan/diff.h"
#include "kernel/mirror.h"
#include "kernel/tc.h"

#include <linux/rtnetlink.h>

/* The shipped policy for swp1 with the capabilities of PRESET. */
static void plan_for(enum caps_preset preset, struct plan *pl)
{
	struct compile_port port = {.ifname = "swp1"};
	struct policy p;
	struct diag d;

	diag_init(&d, NULL);
	assert_int_equal(conf_load_file(TEST_SRCDIR "/conf/roced.conf", &p, &d),
	                 0);
	caps_preset(&port.caps, preset);
	plan_init(pl);
	assert_int_equal(compile_policy(&p, &port, 1, pl), 0);
	assert_int_equal(pl->diag.nerrors, 0);
	assert_int_equal(pl->nports, 1);
	policy_free(&p);
	diag_free(&d);
}

static size_t tc_ops(const struct diff *ops)
{
	size_t n = 0;

	for (size_t i = 0; i < ops->n; i++)
		n += ops->ops[i].obj == DIFF_QDISC ||
		     ops->ops[i].obj == DIFF_CLASS ||
		     ops->ops[i].obj == DIFF_FILTER;
	return n;
}

/* diff(WANT, what entry IFINDEX holds): its tc operations. */
static size_t diff_entry(const struct mirror *m, int ifindex,
                         const struct plan_port *want)
{
	const struct mirror_port *e = mirror_clean(m, ifindex, want->ifname);
	struct plan_port have;
	struct diff ops;
	size_t n;

	assert_non_null(e);
	memset(&have, 0, sizeof(have));
	have.dcb = want->dcb; /* only the tc part is the mirror's */
	assert_int_equal(mirror_fill(e, &have), 0);
	diff_init(&ops);
	assert_int_equal(diff_port(want, &have, &ops), 0);
	n = tc_ops(&ops);
	diff_free(&ops);
	free(have.qdiscs);
	free(have.classes);
	free(have.filters);
	return n;
}

/* A cold apply (everything written) is remembered as the kernel will
 * report it: the same plan then diffs to nothing, whatever it leaves to
 * the kernel (r2q 0, ceil 0, quantum 0, RED max_p). */
static void test_written_plan_diffs_to_nothing(void **state)
{
	enum caps_preset presets[] = {CAPS_PRESET_HOST, CAPS_PRESET_FULL,
	                              CAPS_PRESET_HW};

	(void)state;
	for (size_t k = 0; k < sizeof(presets) / sizeof(presets[0]); k++) {
		struct plan pl;
		struct plan_port empty;
		struct mirror m;
		struct diff ops;

		plan_for(presets[k], &pl);
		/* what a plan may leave to tc's and the kernel's defaults */
		for (size_t i = 0; i < pl.ports[0].nqdiscs; i++)
			if (pl.ports[0].qdiscs[i].kind == PLAN_QD_HTB)
				pl.ports[0].qdiscs[i].u.htb.r2q = 0;
		for (size_t i = 0; i < pl.ports[0].nclasses; i++)
			if (pl.ports[0].classes[i].ceil ==
			    pl.ports[0].classes[i].rate)
				pl.ports[0].classes[i].ceil = 0;
		memset(&empty, 0, sizeof(empty));
		empty.dcb = pl.ports[0].dcb;
		diff_init(&ops);
		assert_int_equal(diff_port(&pl.ports[0], &empty, &ops), 0);
		assert_true(tc_ops(&ops) > 5);
		mirror_init(&m);
		assert_int_equal(
		    mirror_keep(&m, 7, "swp1", &pl.ports[0], &empty, &ops), 0);
		if (diff_entry(&m, 7, &pl.ports[0]) != 0)
			fail_msg("preset %s: the mirror differs from the plan",
			         caps_preset_name(presets[k]));
		diff_free(&ops);
		mirror_free(&m);
		plan_free(&pl);
	}
}

/* A class changed by a pass is the new one; the untouched ones stay as
 * HAVE had them (the kernel's own values, e.g. a bucket one microsecond
 * off, which tc_msg_class_same() lets pass). */
static void test_written_objects_only(void **state)
{
	struct plan pl;
	struct plan_port empty, have;
	struct mirror m;
	struct diff ops;
	const struct mirror_port *e;
	uint64_t old_rate;
	size_t q3 = 0;

	(void)state;
	plan_for(CAPS_PRESET_HOST, &pl);
	memset(&empty, 0, sizeof(empty));
	empty.dcb = pl.ports[0].dcb;
	diff_init(&ops);
	assert_int_equal(diff_port(&pl.ports[0], &empty, &ops), 0);
	mirror_init(&m);
	assert_int_equal(mirror_keep(&m, 7, "swp1", &pl.ports[0], &empty, &ops),
	                 0);
	diff_free(&ops);

	/* HAVE as the mirror says, the buckets a byte off. */
	memset(&have, 0, sizeof(have));
	have.dcb = pl.ports[0].dcb;
	assert_int_equal(mirror_fill(mirror_clean(&m, 7, "swp1"), &have), 0);
	for (size_t i = 0; i < have.nclasses; i++) {
		have.classes[i].burst += 1;
		if (have.classes[i].queue == 3)
			q3 = i;
	}
	/* q3 gets a new rate: exactly one class changes. */
	old_rate = pl.ports[0].classes[q3].rate;
	pl.ports[0].classes[q3].rate = old_rate * 7 / 5;
	diff_init(&ops);
	assert_int_equal(diff_port(&pl.ports[0], &have, &ops), 0);
	assert_int_equal(tc_ops(&ops), 1);
	assert_int_equal(mirror_keep(&m, 7, "swp1", &pl.ports[0], &have, &ops),
	                 0);
	e = mirror_clean(&m, 7, "swp1");
	assert_non_null(e);
	for (size_t i = 0; i < e->tc.nclasses; i++) {
		if (e->tc.classes[i].queue == 3)
			assert_int_equal(e->tc.classes[i].rate,
			                 old_rate * 7 / 5);
		else
			assert_int_equal(e->tc.classes[i].burst,
			                 have.classes[i].burst);
	}
	assert_int_equal(diff_entry(&m, 7, &pl.ports[0]), 0);
	/* and the old plan is one change away again */
	pl.ports[0].classes[q3].rate = old_rate;
	assert_int_equal(diff_entry(&m, 7, &pl.ports[0]), 1);

	diff_free(&ops);
	free(have.qdiscs);
	free(have.classes);
	free(have.filters);
	mirror_free(&m);
	plan_free(&pl);
}

/* A clsact that carries someone else's filters stays after a plan that no
 * longer needs it, and the mirror says so. */
static void test_shared_clsact_kept(void **state)
{
	struct plan_port want, have;
	struct plan_qdisc *q;
	struct mirror m;
	struct diff ops;
	const struct mirror_port *e;

	(void)state;
	memset(&want, 0, sizeof(want));
	memset(&have, 0, sizeof(have));
	snprintf(want.ifname, sizeof(want.ifname), "swp1");
	want.dcb.software = have.dcb.software = true;
	q = plan_port_add_qdisc(&have);
	q->kind = PLAN_QD_CLSACT;
	q->handle = q->parent = PLAN_H_CLSACT;
	q->queue = -1;
	have.clsact_shared = true;
	diff_init(&ops);
	assert_int_equal(diff_port(&want, &have, &ops), 0);
	assert_int_equal(tc_ops(&ops), 0);
	mirror_init(&m);
	assert_int_equal(mirror_keep(&m, 3, "swp1", &want, &have, &ops), 0);
	e = mirror_clean(&m, 3, "swp1");
	assert_non_null(e);
	assert_int_equal(e->tc.nqdiscs, 1);
	assert_int_equal(e->tc.qdiscs[0].kind, PLAN_QD_CLSACT);
	assert_true(e->tc.clsact_shared);
	diff_free(&ops);
	free(have.qdiscs);
	mirror_free(&m);
}

/* Whose clsact it is survives a pass: one roced created is roced's (and
 * diffs to nothing against the same plan), someone else's empty one is
 * kept when the plan stops needing clsact. */
static void test_clsact_owner_kept(void **state)
{
	struct plan_qdisc cl = {.kind = PLAN_QD_CLSACT,
	                        .handle = PLAN_H_CLSACT,
	                        .parent = PLAN_H_CLSACT,
	                        .queue = -1};
	struct plan_port want, have, st;
	struct mirror m;
	struct diff ops;
	const struct mirror_port *e;

	(void)state;
	memset(&want, 0, sizeof(want));
	memset(&have, 0, sizeof(have));
	memset(&st, 0, sizeof(st));
	want.dcb.software = have.dcb.software = st.dcb.software = true;
	*plan_port_add_qdisc(&want) = cl;
	mirror_init(&m);

	/* roced creates it: the entry says roced's */
	diff_init(&ops);
	assert_int_equal(diff_port(&want, &have, &ops), 0);
	assert_int_equal(tc_ops(&ops), 2); /* clsact and its mark */
	assert_int_equal(mirror_keep(&m, 3, "swp1", &want, &have, &ops), 0);
	diff_free(&ops);
	e = mirror_clean(&m, 3, "swp1");
	assert_non_null(e);
	assert_true(e->tc.clsact_owned);
	assert_int_equal(mirror_fill(e, &st), 0);
	diff_init(&ops);
	assert_int_equal(diff_port(&want, &st, &ops), 0);
	assert_int_equal(ops.n, 0);
	diff_free(&ops);

	/* someone else's, and the plan drops clsact for a root: kept, not
	 * roced's */
	*plan_port_add_qdisc(&have) = cl;
	free(want.qdiscs);
	want.qdiscs = NULL;
	want.nqdiscs = 0;
	*plan_port_add_qdisc(&want) =
	    (struct plan_qdisc){.kind = PLAN_QD_PFIFO,
	                        .handle = PLAN_H_MAKE(PLAN_ROOT_MAJOR, 0),
	                        .parent = PLAN_H_ROOT,
	                        .queue = -1,
	                        .u.fifo.limit = 1000};
	diff_init(&ops);
	assert_int_equal(diff_port(&want, &have, &ops), 0);
	assert_int_equal(tc_ops(&ops), 1); /* the root only */
	assert_int_equal(mirror_keep(&m, 3, "swp1", &want, &have, &ops), 0);
	diff_free(&ops);
	e = mirror_clean(&m, 3, "swp1");
	assert_non_null(e);
	assert_int_equal(e->tc.nqdiscs, 2);
	assert_false(e->tc.clsact_owned);
	free(want.qdiscs);
	free(have.qdiscs);
	free(st.qdiscs);
	mirror_free(&m);
}

static void root_cb(const struct mirror_port *e, void *data)
{
	int *seen = data;

	seen[e->ifindex]++;
}

/* When an entry is trusted, and when the mirror accounts for every root. */
static void test_clean_and_complete(void **state)
{
	struct plan pl;
	struct plan_port empty;
	struct mirror m;
	struct diff ops;
	int seen[16] = {0};

	(void)state;
	plan_for(CAPS_PRESET_HOST, &pl);
	memset(&empty, 0, sizeof(empty));
	empty.dcb = pl.ports[0].dcb;
	diff_init(&ops);
	assert_int_equal(diff_port(&pl.ports[0], &empty, &ops), 0);
	mirror_init(&m);
	assert_false(mirror_complete(&m)); /* never scanned */
	mirror_scanned(&m);
	assert_true(mirror_complete(&m));
	/* entries in any order: 9, 4 (root) and 12 (nothing) */
	assert_int_equal(mirror_keep(&m, 9, "swp9", &pl.ports[0], &empty, &ops),
	                 0);
	assert_int_equal(mirror_keep(&m, 4, "swp4", &pl.ports[0], &empty, &ops),
	                 0);
	assert_int_equal(mirror_keep(&m, 12, "swp12", &empty, &empty, NULL), 0);
	assert_int_equal(m.n, 3);
	assert_true(m.v[0].ifindex < m.v[1].ifindex &&
	            m.v[1].ifindex < m.v[2].ifindex);
	assert_non_null(mirror_clean(&m, 4, "swp4"));
	assert_null(mirror_clean(&m, 4, "swp5")); /* renamed */
	assert_null(mirror_clean(&m, 5, "swp4")); /* another link */
	mirror_roots(&m, root_cb, seen);
	assert_int_equal(seen[4] + seen[9] + seen[12], 2);
	assert_int_equal(seen[12], 0);

	/* someone else touched swp4: dirty until kept again */
	mirror_note(&m, 4);
	assert_null(mirror_clean(&m, 4, "swp4"));
	assert_false(mirror_complete(&m));
	assert_int_equal(mirror_keep(&m, 4, "swp4", &pl.ports[0], &empty, &ops),
	                 0);
	assert_true(mirror_complete(&m));

	/* a link with no entry: unknown until a scan (or an entry) */
	mirror_note(&m, 15);
	mirror_note(&m, 15);
	assert_int_equal(m.nunknown, 1);
	assert_false(mirror_complete(&m));
	mirror_gone(&m, 15);
	assert_true(mirror_complete(&m));
	mirror_note(&m, 14);
	assert_int_equal(mirror_keep(&m, 14, "swp14", &empty, &empty, NULL), 0);
	assert_true(mirror_complete(&m));

	/* a scan drops dirty entries and forgets the unknown */
	mirror_note(&m, 9);
	mirror_note(&m, 13);
	mirror_scanned(&m);
	assert_true(mirror_complete(&m));
	assert_null(mirror_clean(&m, 9, "swp9"));
	assert_non_null(mirror_clean(&m, 4, "swp4"));

	/* a link gone takes its entry */
	mirror_gone(&m, 4);
	assert_null(mirror_clean(&m, 4, "swp4"));

	/* lost notifications: nothing is trusted */
	mirror_lost(&m);
	assert_null(mirror_clean(&m, 12, "swp12"));
	assert_false(mirror_complete(&m));

	diff_free(&ops);
	mirror_free(&m);
	plan_free(&pl);
}

/* What the log says of a change someone else made. */
static void test_event_describe(void **state)
{
	struct tc_event ev = {.ifindex = 4,
	                      .type = RTM_DELQDISC,
	                      .handle = 0x47910000,
	                      .parent = PLAN_H_ROOT,
	                      .pid = 1234,
	                      .kind = "htb"};
	char buf[160];

	(void)state;
	tc_event_describe(&ev, buf, sizeof(buf));
	assert_string_equal(buf, "qdisc htb 4791: root deleted");
	ev.type = RTM_NEWTCLASS;
	ev.handle = 0x47910013;
	ev.parent = 0x47910001;
	tc_event_describe(&ev, buf, sizeof(buf));
	assert_string_equal(buf, "class htb 4791:13 added or changed");
	ev.type = RTM_NEWQDISC;
	ev.handle = 0x00100000;
	ev.parent = 0x47910013;
	snprintf(ev.kind, sizeof(ev.kind), "pfifo");
	ev.replaced = true;
	ev.old_handle = 0x47130000;
	snprintf(ev.old_kind, sizeof(ev.old_kind), "bfifo");
	tc_event_describe(&ev, buf, sizeof(buf));
	assert_string_equal(buf,
	                    "qdisc bfifo 4713: under 4791:13 replaced by pfifo "
	                    "10:");
	ev.replaced = false;
	ev.type = RTM_DELTFILTER;
	ev.parent = 0x47910000;
	ev.info = 1u << 16 | 0x0008;
	snprintf(ev.kind, sizeof(ev.kind), "u32");
	tc_event_describe(&ev, buf, sizeof(buf));
	assert_string_equal(buf, "filter u32 prio 1 on 4791: deleted");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_written_plan_diffs_to_nothing),
	    cmocka_unit_test(test_written_objects_only),
	    cmocka_unit_test(test_shared_clsact_kept),
	    cmocka_unit_test(test_clsact_owner_kept),
	    cmocka_unit_test(test_clean_and_complete),
	    cmocka_unit_test(test_event_describe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
