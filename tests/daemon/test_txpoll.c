/* test_txpoll: software PFC's transmit side (daemon/agent/txpoll.c) on a
 * bridge of fake ports (agent_rig.h), with the shared qdisc statistics
 * sampler (agent/qstats.c) and the per-ingress accounting
 * (agent/contrib.c) behind their ops tables:
 *   - a congested queue pauses only the feeders whose traffic entered it,
 *     refreshes them, adds a feeder that starts to contribute, and lets
 *     them go with XON; a bystander gets nothing;
 *   - where the kernel cannot count, every feeder is paused;
 *   - the sampler serves several readers with one dump, reads a few
 *     ports through class dumps of those ports alone;
 *   - between scans the poll reads only the ports with traffic; a wake
 *     disarms only the feeder that woke it. */
#include "agent_rig.h"

#include "agent/txpoll.h"

static int rig_wake(void *impl, int fd, bool on)
{
	(void)impl;
	(void)fd;
	(void)on;
	return 0;
}

static struct frame_ops rig_wake_ops;

static void tx_init(struct rig *g, struct txpoll *t)
{
	txpoll_init(t);
	t->frames = &g->f;
	t->softpfc = &g->sp;
	t->qs = &g->qs;
	t->contrib = &g->ct;
	t->ports = &g->r;
	t->master_fn = rig_master;
	txpoll_sync(t, &g->r, g->now);
}

/* One poll at NOW + MS. */
static void tick(struct rig *g, struct txpoll *t, double ms)
{
	g->now += ms;
	if (t->next_ms > g->now)
		g->now = t->next_ms;
	txpoll_tick(t, g->now);
}

static void test_contributors(void **state)
{
	static struct rig g;
	struct txpoll t;
	const struct txpoll_port *x;
	uint32_t xoff;

	(void)state;
	rig_init(&g, NULL);
	tx_init(&g, &t);
	x = txpoll_find(&t, "swp3");
	assert_non_null(x);
	assert_int_equal(x->nfeeders, 3);
	assert_true(x->queues & (1u << 3));
	assert_true(x->prios[3] & (1u << 3));
	xoff = x->t[3].xoff;
	assert_true(xoff > 0);
	/* Quiet: the window starts, nothing is sent. */
	tick(&g, &t, 2);
	assert_int_equal(g.nsent, 0);
	/* swp1 sends toward swp3's host; swp2 toward swp4's, the same
	 * priority (the bystander). swp3's queue 3 crosses xoff. */
	g.to[0][2] = 100;
	g.to[1][3] = 500;
	g.backlog[2][3] = xoff + 1000;
	tick(&g, &t, 2);
	assert_int_equal(rig_count(&g, 0, PFC_FRAME_PFC, 3, true), 1);
	assert_int_equal(rig_count(&g, 1, PFC_FRAME_PFC, 3, true), 0);
	assert_int_equal(rig_count(&g, 3, PFC_FRAME_PFC, 3, true), 0);
	/* Still above xon: refreshed out of swp1 although it sends no more
	 * (paused); swp4 starts sending toward swp3 and is paused too. */
	g.to[1][3] = 900;
	g.to[3][2] = 40;
	tick(&g, &t, 5);
	assert_int_equal(rig_count(&g, 0, PFC_FRAME_PFC, 3, true), 2);
	assert_int_equal(rig_count(&g, 3, PFC_FRAME_PFC, 3, true), 1);
	assert_int_equal(rig_count(&g, 1, PFC_FRAME_PFC, 3, true), 0);
	/* Drained: XON to those it paused, nothing to the bystander. */
	g.backlog[2][3] = 0;
	tick(&g, &t, 2);
	assert_int_equal(rig_count(&g, 0, PFC_FRAME_PFC, 3, false), 1);
	assert_int_equal(rig_count(&g, 3, PFC_FRAME_PFC, 3, false), 1);
	assert_int_equal(rig_count(&g, 1, PFC_FRAME_PFC, 3, false), 0);
	assert_int_equal(rig_count(&g, 1, PFC_FRAME_PFC, 3, true), 0);
	/* Nothing out of the congested port itself. */
	assert_int_equal(rig_count(&g, 2, PFC_FRAME_PFC, 3, true), 0);
	/* Counted in the feeders' software PFC counters. */
	assert_int_equal(softpfc_port(&g.sp, "swp1", false)->c.tx_pause[3], 2);
	assert_int_equal(softpfc_port(&g.sp, "swp2", false)->c.tx_pause[3], 0);
	assert_int_equal(softpfc_port(&g.sp, "swp1", false)->c.tx_xon[3], 1);
	txpoll_free(&t);
	rig_free(&g);
}

/* A queue that crosses xoff again right after its XON: its contributors
 * were paused until then and sent nothing new, so no count grew; the
 * pause goes to them again, never to the bystander. */
static void test_again_after_xon(void **state)
{
	static struct rig g;
	struct txpoll t;
	uint32_t xoff;

	(void)state;
	rig_init(&g, NULL);
	tx_init(&g, &t);
	xoff = txpoll_find(&t, "swp3")->t[3].xoff;
	tick(&g, &t, 2);
	g.to[0][2] = 100;
	g.to[1][3] = 500;
	g.backlog[2][3] = xoff + 1000;
	tick(&g, &t, 2);
	assert_int_equal(rig_count(&g, 0, PFC_FRAME_PFC, 3, true), 1);
	/* XON below xon, then above xoff at once: nothing more counted. */
	g.backlog[2][3] = 0;
	tick(&g, &t, 2);
	assert_int_equal(rig_count(&g, 0, PFC_FRAME_PFC, 3, false), 1);
	g.to[1][3] = 900;
	g.backlog[2][3] = xoff + 1000;
	tick(&g, &t, 2);
	assert_int_equal(rig_count(&g, 0, PFC_FRAME_PFC, 3, true), 2);
	assert_int_equal(rig_count(&g, 1, PFC_FRAME_PFC, 3, true), 0);
	assert_int_equal(rig_count(&g, 3, PFC_FRAME_PFC, 3, true), 0);
	txpoll_free(&t);
	rig_free(&g);
}

/* A queue already past xoff at the first look (the poll asleep while the
 * ports were idle, an incast's first burst): what each feeder sent since
 * counting began decides, and the bystander gets nothing. */
static void test_first_crossing(void **state)
{
	static struct rig g;
	struct txpoll t;

	(void)state;
	rig_init(&g, NULL);
	tx_init(&g, &t);
	g.to[0][2] = 100;
	g.to[1][3] = 500;
	g.backlog[2][3] = txpoll_find(&t, "swp3")->t[3].xoff + 1000;
	tick(&g, &t, 2);
	assert_int_equal(rig_count(&g, 0, PFC_FRAME_PFC, 3, true), 1);
	assert_int_equal(rig_count(&g, 1, PFC_FRAME_PFC, 3, true), 0);
	assert_int_equal(rig_count(&g, 3, PFC_FRAME_PFC, 3, true), 0);
	txpoll_free(&t);
	rig_free(&g);
}

/* Two congested ports pause one feeder: XON only once neither wants it
 * paused. */
static void test_paused_elsewhere(void **state)
{
	static struct rig g;
	struct txpoll t;
	uint32_t xoff;

	(void)state;
	rig_init(&g, NULL);
	tx_init(&g, &t);
	xoff = txpoll_find(&t, "swp3")->t[3].xoff;
	tick(&g, &t, 2);
	g.to[0][2] = 10;
	g.to[0][3] = 10;
	g.backlog[2][3] = xoff;
	g.backlog[3][3] = xoff;
	tick(&g, &t, 2);
	assert_int_equal(rig_count(&g, 0, PFC_FRAME_PFC, 3, true), 2);
	g.backlog[2][3] = 0;
	tick(&g, &t, 2);
	assert_int_equal(rig_count(&g, 0, PFC_FRAME_PFC, 3, false), 0);
	g.backlog[3][3] = 0;
	tick(&g, &t, 2);
	assert_int_equal(rig_count(&g, 0, PFC_FRAME_PFC, 3, false), 1);
	txpoll_free(&t);
	rig_free(&g);
}

/* Without the kernel's counts, every feeder is paused, as a switch that
 * cannot tell would. */
static void test_no_counts(void **state)
{
	static struct rig g;
	struct txpoll t;

	(void)state;
	rig_init(&g, NULL);
	g.ct_open_err = -EPERM;
	tx_init(&g, &t);
	tick(&g, &t, 2);
	g.to[0][2] = 100;
	g.backlog[2][3] = txpoll_find(&t, "swp3")->t[3].xoff;
	tick(&g, &t, 2);
	assert_int_equal(rig_count(&g, 0, PFC_FRAME_PFC, 3, true), 1);
	assert_int_equal(rig_count(&g, 1, PFC_FRAME_PFC, 3, true), 1);
	assert_int_equal(rig_count(&g, 3, PFC_FRAME_PFC, 3, true), 1);
	assert_int_equal(rig_count(&g, 2, PFC_FRAME_PFC, 3, true), 0);
	assert_int_equal(g.ct.err, -EPERM);
	txpoll_free(&t);
	rig_free(&g);
}

/* The sampler: one dump for every reader within QSTATS_SHARE_MS; a few
 * ports' backlogs through class dumps of those ports; more through the
 * qdisc dump; what the kernel does not show is NULL. */
static void test_sampler(void **state)
{
	static struct rig g;
	const struct tc_stats_counters *st;
	enum qstats_src src;
	int two[2] = {12, 13}, five[5] = {11, 12, 13, 14, 11};

	(void)state;
	rig_init(&g, NULL);
	g.backlog[1][3] = 4242;
	g.packets[1][3] = 7;
	assert_int_equal(qstats_leaves(&g.qs, 1000.0), 0);
	assert_int_equal(qstats_leaves(&g.qs, 1000.5), 0);
	assert_int_equal(g.qdisc_dumps, 1);
	st = qstats_get(&g.qs, 12, 3, 1000.5, &src);
	assert_non_null(st);
	assert_int_equal(src, QSTATS_LEAF);
	assert_int_equal(st->backlog, 4242);
	assert_int_equal(st->packets, 7);
	/* the backlogs asked for within the share come from that dump */
	assert_int_equal(qstats_backlogs(&g.qs, two, 2, 1000.6), 0);
	assert_int_equal(g.class_dumps, 0);
	/* too old */
	assert_null(qstats_get(&g.qs, 12, 3, 1001.0, NULL));
	/* two ports: a class dump each */
	g.backlog[1][3] = 100;
	assert_int_equal(qstats_backlogs(&g.qs, two, 2, 1002.0), 0);
	assert_int_equal(g.class_dumps, 2);
	assert_int_equal(g.qdisc_dumps, 1);
	st = qstats_get(&g.qs, 12, 3, 1002.0, &src);
	assert_non_null(st);
	assert_int_equal(src, QSTATS_CLASS);
	assert_int_equal(st->backlog, 100);
	/* more than QSTATS_CLASS_PORTS: the one qdisc dump */
	assert_int_equal(qstats_backlogs(&g.qs, five, 5, 1004.0), 0);
	assert_int_equal(g.qdisc_dumps, 2);
	assert_int_equal(g.class_dumps, 2);
	/* not roced's and unknown ports */
	assert_null(qstats_get(&g.qs, 1, 0, 1004.0, NULL));
	assert_null(qstats_get(&g.qs, 99, 3, 1004.0, NULL));
	/* the reference: every read its own dump */
	g.qs.reference = true;
	assert_int_equal(qstats_leaves(&g.qs, 1006.0), 0);
	assert_int_equal(qstats_backlogs(&g.qs, two, 2, 1006.0), 0);
	assert_int_equal(g.qdisc_dumps, 4);
	rig_free(&g);
}

/* The pace: asleep, every feeder armed; a frame disarms its feeder alone
 * and brings scans; traffic through one port is then read by class dumps
 * of that port alone until the next scan. */
static void test_active_only(void **state)
{
	static struct rig g;
	struct txpoll t;
	unsigned qd, cd;
	double cd_ms;

	(void)state;
	rig_wake_ops = rig_frame_ops;
	rig_wake_ops.wake = rig_wake;
	rig_init(&g, NULL);
	g.f.ops = &rig_wake_ops;
	tx_init(&g, &t);
	/* Quiet polls until the linger is over: asleep, armed. */
	for (int i = 0; i < 100 && !t.armed; i++)
		tick(&g, &t, TXPOLL_FAST_MS);
	assert_true(t.armed);
	for (unsigned i = 0; i < RIG_PORTS; i++)
		assert_true(frames_find(&g.f, rig_name(i))->wake);
	assert_true(txpoll_wait(&t, g.now) > (int)TXPOLL_FAST_MS);
	/* A frame on swp1: it alone is disarmed; a scan at once. */
	txpoll_data_rx(&t, "swp1", (const uint8_t *)"", 0, g.now);
	assert_false(frames_find(&g.f, "swp1")->wake);
	assert_true(frames_find(&g.f, "swp2")->wake);
	assert_true(txpoll_wait(&t, g.now) <= (int)TXPOLL_FAST_MS + 1);
	/* Traffic through swp3's queue 3, no backlog. */
	qd = g.qdisc_dumps;
	for (int i = 0; i < TXPOLL_WAKE_SCANS + 1; i++) {
		g.packets[2][3] += 50;
		tick(&g, &t, TXPOLL_FAST_MS);
	}
	assert_true(g.qdisc_dumps > qd);
	/* Between scans: class dumps of swp3 only. */
	qd = g.qdisc_dumps;
	cd = g.class_dumps;
	for (int i = 0; i < 3; i++) {
		g.packets[2][3] += 50;
		tick(&g, &t, TXPOLL_FAST_MS);
	}
	assert_int_equal(g.qdisc_dumps, qd);
	assert_int_equal(g.class_dumps, cd + 3);
	assert_true(g.now - t.scan_ms < TXPOLL_SCAN_MS);
	cd_ms = t.scan_ms;
	/* ... and every port again at the next scan. */
	for (int i = 0; i < 20 && g.qdisc_dumps == qd; i++) {
		g.packets[2][3] += 50;
		tick(&g, &t, TXPOLL_FAST_MS);
	}
	assert_int_equal(g.qdisc_dumps, qd + 1);
	assert_true(g.now - cd_ms >= TXPOLL_SCAN_MS - 1);
	assert_false(t.armed);
	txpoll_free(&t);
	rig_free(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_contributors),
	    cmocka_unit_test(test_first_crossing),
	    cmocka_unit_test(test_again_after_xon),
	    cmocka_unit_test(test_paused_elsewhere),
	    cmocka_unit_test(test_no_counts),
	    cmocka_unit_test(test_sampler),
	    cmocka_unit_test(test_active_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
