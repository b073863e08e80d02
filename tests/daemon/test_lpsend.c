/* test_lpsend: link pause's transmit side (the link pause slot of
 * daemon/agent/txpoll.c, TXPOLL_LP) on a
 * bridge of fake ports (agent_rig.h) with `flowcontrol send on` and
 * `flowcontrol receive on` everywhere: when a port's queues together
 * reach xoff, an 802.3x pause goes out of the ports whose traffic
 * entered them, refreshed while above xon, then a pause of time 0; a
 * bystander gets nothing; without the kernel's counts, every sender. */
#include "agent_rig.h"

#include "agent/txpoll.h"

static void fc_on(struct policy_iface *f)
{
	f->fc_rx = true;
	f->fc_tx = true;
}

static void lp_init(struct rig *g, struct txpoll *l)
{
	txpoll_init(l);
	l->frames = &g->f;
	l->softpfc = &g->sp;
	l->qs = &g->qs;
	l->contrib = &g->ct;
	l->ports = &g->r;
	l->master_fn = rig_master;
	txpoll_sync(l, &g->r, g->now);
}

static void tick(struct rig *g, struct txpoll *l, double ms)
{
	g->now += ms;
	if (l->next_ms > g->now)
		g->now = l->next_ms;
	txpoll_tick(l, g->now);
}

static void test_link_pause(void **state)
{
	static struct rig g;
	struct txpoll l;
	const struct txpoll_port *x;

	(void)state;
	rig_init(&g, fc_on);
	assert_true(ports_find(&g.r, "swp1")->plan.dcb.pause_tx);
	lp_init(&g, &l);
	x = txpoll_find(&l, "swp3");
	assert_non_null(x);
	assert_int_equal(x->nfeeders, 3);
	assert_true(txpoll_feeds(&l, "swp1", TXPOLL_LP));
	tick(&g, &l, 2);
	assert_int_equal(g.nsent, 0);
	/* swp1 sends toward swp3, swp2 toward swp4; the port's queues
	 * together (two of them) reach xoff. */
	g.to[0][2] = 100;
	g.to[1][3] = 100;
	g.backlog[2][3] = x->t[TXPOLL_LP].xoff / 2;
	g.backlog[2][0] = x->t[TXPOLL_LP].xoff / 2 + 1;
	tick(&g, &l, 2);
	assert_int_equal(rig_count(&g, 0, PFC_FRAME_PAUSE, 0, true), 1);
	assert_int_equal(rig_count(&g, 1, PFC_FRAME_PAUSE, 0, true), 0);
	assert_int_equal(rig_count(&g, 3, PFC_FRAME_PAUSE, 0, true), 0);
	/* refreshed while above xon */
	tick(&g, &l, 5);
	assert_int_equal(rig_count(&g, 0, PFC_FRAME_PAUSE, 0, true), 2);
	g.backlog[2][3] = 0;
	g.backlog[2][0] = 0;
	tick(&g, &l, 2);
	assert_int_equal(rig_count(&g, 0, PFC_FRAME_PAUSE, 0, false), 1);
	assert_int_equal(rig_count(&g, 1, PFC_FRAME_PAUSE, 0, false), 0);
	assert_int_equal(softpfc_port(&g.sp, "swp1", false)->c.tx_link_pause,
	                 2);
	assert_int_equal(softpfc_port(&g.sp, "swp1", false)->c.tx_link_xon, 1);
	assert_int_equal(softpfc_port(&g.sp, "swp2", false)->c.tx_link_pause,
	                 0);
	/* no PFC frames on a link pause port */
	for (size_t k = 0; k < g.nsent; k++)
		assert_int_equal(g.sent[k].f.kind, PFC_FRAME_PAUSE);
	txpoll_free(&l);
	rig_free(&g);
}

/* Past xoff at the first look: the bystander is not paused. */
static void test_link_pause_first(void **state)
{
	static struct rig g;
	struct txpoll l;
	const struct txpoll_port *x;

	(void)state;
	rig_init(&g, fc_on);
	lp_init(&g, &l);
	x = txpoll_find(&l, "swp3");
	g.to[0][2] = 100;
	g.to[1][3] = 100;
	g.backlog[2][0] = x->t[TXPOLL_LP].xoff + 1;
	tick(&g, &l, 2);
	assert_int_equal(rig_count(&g, 0, PFC_FRAME_PAUSE, 0, true), 1);
	assert_int_equal(rig_count(&g, 1, PFC_FRAME_PAUSE, 0, true), 0);
	assert_int_equal(rig_count(&g, 3, PFC_FRAME_PAUSE, 0, true), 0);
	txpoll_free(&l);
	rig_free(&g);
}

static void test_link_pause_no_counts(void **state)
{
	static struct rig g;
	struct txpoll l;

	(void)state;
	rig_init(&g, fc_on);
	g.ct_open_err = -EPERM;
	lp_init(&g, &l);
	tick(&g, &l, 2);
	g.backlog[2][0] = txpoll_find(&l, "swp3")->t[TXPOLL_LP].xoff;
	tick(&g, &l, 2);
	assert_int_equal(rig_count(&g, 0, PFC_FRAME_PAUSE, 0, true), 1);
	assert_int_equal(rig_count(&g, 1, PFC_FRAME_PAUSE, 0, true), 1);
	assert_int_equal(rig_count(&g, 3, PFC_FRAME_PAUSE, 0, true), 1);
	assert_int_equal(rig_count(&g, 2, PFC_FRAME_PAUSE, 0, true), 0);
	txpoll_free(&l);
	rig_free(&g);
}

/* Without a sampler it reads nothing and sends nothing. */
static void test_no_sampler(void **state)
{
	static struct rig g;
	struct txpoll l;

	(void)state;
	rig_init(&g, fc_on);
	lp_init(&g, &l);
	l.qs = NULL;
	g.backlog[2][0] = 1u << 30;
	tick(&g, &l, 2);
	assert_int_equal(g.nsent, 0);
	txpoll_free(&l);
	rig_free(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_link_pause),
	    cmocka_unit_test(test_link_pause_first),
	    cmocka_unit_test(test_link_pause_no_counts),
	    cmocka_unit_test(test_no_sampler),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
