/* test_txpoll: software PFC's transmit side (daemon/agent/txpoll.c) on a
 * bridge of fake ports (agent_rig.h), with the shared qdisc statistics
 * sampler (agent/qstats.c) and the per-ingress accounting
 * (agent/contrib.c) behind their ops tables:
 *   - a congested queue pauses only the feeders whose traffic entered it,
 *     refreshes them, adds a feeder that starts to contribute, and lets
 *     them go with XON, one at a time (each once the last one's burst
 *     showed and the queue is back at xon, TXPOLL_STAGGER_MS after its
 *     XON at the earliest, or TXPOLL_STAGGER_QUIET_MS after it when no
 *     burst showed, in turn); a bystander gets nothing;
 *   - where the kernel cannot count, every feeder is paused;
 *   - a start meeting a queue above xoff with nothing counted yet waits
 *     for the counts, then pauses only the feeder (every feeder if none
 *     came in TXPOLL_COUNT_WAIT_MS);
 *   - the sampler serves several readers with one dump, reads a few
 *     ports through class dumps of those ports alone;
 *   - between scans the poll reads only the ports with traffic; a wake
 *     disarms only the feeder that woke it;
 *   - routed ports (no bridge) have feeders from the routing tables: a
 *     pause goes to the ports whose traffic is routed to the congested
 *     one (ECMP next hops included), never to a bystander; a route
 *     deleted mid-incast keeps its paused feeders until their XON;
 *   - a port in a cycle of pause releases its switches at xon. */
#include "agent_rig.h"

#include "agent/txpoll.h"
#include "agent/wdpoll.h"

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
	/* Drained: XON to one of those it paused (released together,
	 * they would land everything they held on the queue at once),
	 * nothing to the bystander ... */
	g.backlog[2][3] = 0;
	tick(&g, &t, 2);
	assert_int_equal(rig_count(&g, 0, PFC_FRAME_PFC, 3, false), 1);
	assert_int_equal(rig_count(&g, 3, PFC_FRAME_PFC, 3, false), 0);
	/* ... the other one, still paused, refreshed meanwhile ... */
	tick(&g, &t, 2);
	assert_int_equal(rig_count(&g, 3, PFC_FRAME_PFC, 3, true), 2);
	assert_int_equal(rig_count(&g, 3, PFC_FRAME_PFC, 3, false), 0);
	/* ... and let go once no burst showed for TXPOLL_STAGGER_QUIET_MS. */
	tick(&g, &t, TXPOLL_STAGGER_QUIET_MS);
	assert_int_equal(rig_count(&g, 3, PFC_FRAME_PFC, 3, false), 1);
	assert_int_equal(rig_count(&g, 0, PFC_FRAME_PFC, 3, false), 1);
	assert_int_equal(rig_count(&g, 1, PFC_FRAME_PFC, 3, false), 0);
	assert_int_equal(rig_count(&g, 1, PFC_FRAME_PFC, 3, true), 0);
	/* Nothing out of the congested port itself. */
	assert_int_equal(rig_count(&g, 2, PFC_FRAME_PFC, 3, true), 0);
	/* Counted in the feeders' software PFC counters. */
	assert_int_equal(softpfc_port(&g.sp, "swp1", false)->c.tx_pause[3], 2);
	assert_int_equal(softpfc_port(&g.sp, "swp4", false)->c.tx_xon[3], 1);
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

/* Three feeders paused: each XON releases one, in turn. The one released
 * bursts (what it held) and the queue crosses xoff again: the pause goes
 * back to it and to those still held; the next XON goes to the next one,
 * not to the first again. Before, one XON released all three at once,
 * and the sum of what they held overflowed the queue (issue 26). */
static void test_staggered_xon(void **state)
{
	static struct rig g;
	struct txpoll t;
	uint32_t xoff, xon;

	(void)state;
	rig_init(&g, NULL);
	tx_init(&g, &t);
	xoff = txpoll_find(&t, "swp3")->t[3].xoff;
	xon = txpoll_find(&t, "swp3")->t[3].xon_switch;
	tick(&g, &t, 2);
	g.to[0][2] = 100;
	g.to[1][2] = 100;
	g.to[3][2] = 100;
	g.backlog[2][3] = xoff + 1000;
	tick(&g, &t, 2);
	assert_int_equal(rig_count(&g, 0, PFC_FRAME_PFC, 3, true), 1);
	assert_int_equal(rig_count(&g, 1, PFC_FRAME_PFC, 3, true), 1);
	assert_int_equal(rig_count(&g, 3, PFC_FRAME_PFC, 3, true), 1);
	/* At xon_switch (only switches paused): one XON, to swp1. */
	g.backlog[2][3] = xon;
	tick(&g, &t, 2);
	assert_int_equal(rig_count(&g, 0, PFC_FRAME_PFC, 3, false), 1);
	assert_int_equal(rig_count(&g, 1, PFC_FRAME_PFC, 3, false), 0);
	assert_int_equal(rig_count(&g, 3, PFC_FRAME_PFC, 3, false), 0);
	/* swp1's burst: back above xon, the stagger over: nobody else is
	 * released while the queue is above xon. */
	g.to[0][2] = 400;
	g.backlog[2][3] = xon + 1;
	tick(&g, &t, TXPOLL_STAGGER_MS);
	assert_int_equal(rig_count(&g, 1, PFC_FRAME_PFC, 3, false), 0);
	assert_int_equal(rig_count(&g, 3, PFC_FRAME_PFC, 3, false), 0);
	/* ... up to xoff: paused again, swp1 with the two still held. */
	g.backlog[2][3] = xoff;
	tick(&g, &t, 2);
	assert_true(rig_count(&g, 0, PFC_FRAME_PFC, 3, true) >= 2);
	/* Drained: the next XON is swp2's, then swp4's, then swp1's. */
	g.backlog[2][3] = 0;
	tick(&g, &t, 2);
	assert_int_equal(rig_count(&g, 1, PFC_FRAME_PFC, 3, false), 1);
	assert_int_equal(rig_count(&g, 0, PFC_FRAME_PFC, 3, false), 1);
	assert_int_equal(rig_count(&g, 3, PFC_FRAME_PFC, 3, false), 0);
	tick(&g, &t, TXPOLL_STAGGER_QUIET_MS);
	assert_int_equal(rig_count(&g, 3, PFC_FRAME_PFC, 3, false), 1);
	assert_int_equal(rig_count(&g, 0, PFC_FRAME_PFC, 3, false), 1);
	tick(&g, &t, TXPOLL_STAGGER_QUIET_MS);
	assert_int_equal(rig_count(&g, 0, PFC_FRAME_PFC, 3, false), 2);
	/* All released: nothing more. */
	tick(&g, &t, TXPOLL_STAGGER_QUIET_MS);
	assert_int_equal(rig_count(&g, 0, PFC_FRAME_PFC, 3, false) +
	                     rig_count(&g, 1, PFC_FRAME_PFC, 3, false) +
	                     rig_count(&g, 3, PFC_FRAME_PFC, 3, false),
	                 4);
	txpoll_free(&t);
	rig_free(&g);
}

/* The LLDP neighbours of swp1 and swp2 are switches, swp4's a host. */
static unsigned fake_switch_peer(void *arg, const char *ifname)
{
	(void)arg;
	return strcmp(ifname, "swp4") ? WDPOLL_PEER_SWITCH : 0;
}

/* Where the neighbours are known, only switches wait their turn: a host
 * goes with the first XON (its watchdog would take a hold lengthened by
 * the wait for a storm, and its burst is its sender's catch-up). */
static void test_staggered_switches_only(void **state)
{
	static struct rig g;
	struct txpoll t;
	uint32_t xoff;

	(void)state;
	rig_init(&g, NULL);
	tx_init(&g, &t);
	t.switch_peer = fake_switch_peer;
	xoff = txpoll_find(&t, "swp3")->t[3].xoff;
	tick(&g, &t, 2);
	g.to[0][2] = 100;
	g.to[1][2] = 100;
	g.to[3][2] = 100;
	g.backlog[2][3] = xoff + 1000;
	tick(&g, &t, 2);
	g.backlog[2][3] = 0;
	tick(&g, &t, 2);
	/* The host and one switch. */
	assert_int_equal(rig_count(&g, 3, PFC_FRAME_PFC, 3, false), 1);
	assert_int_equal(rig_count(&g, 0, PFC_FRAME_PFC, 3, false), 1);
	assert_int_equal(rig_count(&g, 1, PFC_FRAME_PFC, 3, false), 0);
	/* The other switch in its turn. */
	tick(&g, &t, TXPOLL_STAGGER_QUIET_MS);
	assert_int_equal(rig_count(&g, 1, PFC_FRAME_PFC, 3, false), 1);
	assert_int_equal(rig_count(&g, 3, PFC_FRAME_PFC, 3, false), 1);
	txpoll_free(&t);
	rig_free(&g);
}

/* A port in a cycle of pause (in_cycle, set from the deadlock agent)
 * releases a switch at xon, as a host: the switch behind it is the next
 * node of the cycle. Outside one the switch waits for xon_switch, which
 * a host's refill keeps the queue from reaching; in pfc_deadlock.sh's
 * ring that kept the node behind the breaker held, and the ring froze
 * again after every break (30 s through 39 breaks). */
static void test_cycle_switch_at_xon(void **state)
{
	static struct rig g;
	struct txpoll t;
	struct txpoll_port *x;

	(void)state;
	rig_init(&g, NULL);
	tx_init(&g, &t);
	t.switch_peer = fake_switch_peer;
	x = &t.v[txpoll_find(&t, "swp3") - t.v];
	assert_true(x->t[3].xon_switch < x->t[3].xon);
	tick(&g, &t, 2);
	g.to[0][2] = 100; /* swp1, a switch */
	g.to[3][2] = 100; /* swp4, a host */
	g.backlog[2][3] = x->t[3].xoff + 1000;
	tick(&g, &t, 2);
	assert_int_equal(rig_count(&g, 0, PFC_FRAME_PFC, 3, true), 1);
	assert_int_equal(rig_count(&g, 3, PFC_FRAME_PFC, 3, true), 1);
	/* At xon, no cycle: the host goes, the switch stays held while the
	 * queue is not all but empty. */
	g.backlog[2][3] = x->t[3].xon;
	tick(&g, &t, 2);
	tick(&g, &t, TXPOLL_STAGGER_MS);
	tick(&g, &t, TXPOLL_STAGGER_MS);
	assert_int_equal(rig_count(&g, 3, PFC_FRAME_PFC, 3, false), 1);
	assert_int_equal(rig_count(&g, 0, PFC_FRAME_PFC, 3, false), 0);
	/* The same queue in a cycle: the switch goes in its turn at xon. */
	x->in_cycle = 1u << 3;
	tick(&g, &t, TXPOLL_STAGGER_MS);
	assert_int_equal(rig_count(&g, 0, PFC_FRAME_PFC, 3, false), 1);
	/* Paused again in the cycle: host and switch go together at xon. */
	g.to[0][2] = 200;
	g.to[3][2] = 200;
	g.backlog[2][3] = x->t[3].xoff + 1000;
	tick(&g, &t, 2);
	g.backlog[2][3] = x->t[3].xon;
	tick(&g, &t, 2);
	assert_int_equal(rig_count(&g, 3, PFC_FRAME_PFC, 3, false), 2);
	assert_int_equal(rig_count(&g, 0, PFC_FRAME_PFC, 3, false), 2);
	txpoll_free(&t);
	rig_free(&g);
}

/* A port its own peer released a moment ago has just sent its held
 * queue downstream: no switch of its own goes until
 * TXPOLL_STAGGER_QUIET_MS after that release (the two held queues
 * together overflowed the peer's), though the host goes at once. */
static void test_switch_waits_own_release(void **state)
{
	static struct rig g;
	struct txpoll t;
	struct softpfc_port *sp;
	uint32_t xoff;

	(void)state;
	rig_init(&g, NULL);
	tx_init(&g, &t);
	t.switch_peer = fake_switch_peer;
	xoff = txpoll_find(&t, "swp3")->t[3].xoff;
	tick(&g, &t, 2);
	g.to[0][2] = 100;
	g.to[3][2] = 100;
	g.backlog[2][3] = xoff + 1000;
	tick(&g, &t, 2);
	/* swp3 was held by its peer for 3 s, released just now */
	sp = softpfc_port(&g.sp, "swp3", false);
	assert_non_null(sp);
	sp->since[3] = g.now - 3000.0;
	sp->last_held[3] = 3000.0;
	g.backlog[2][3] = 0;
	tick(&g, &t, 2);
	/* the host only */
	assert_int_equal(rig_count(&g, 3, PFC_FRAME_PFC, 3, false), 1);
	assert_int_equal(rig_count(&g, 0, PFC_FRAME_PFC, 3, false), 0);
	tick(&g, &t, TXPOLL_STAGGER_QUIET_MS / 2);
	assert_int_equal(rig_count(&g, 0, PFC_FRAME_PFC, 3, false), 0);
	assert_true(rig_count(&g, 0, PFC_FRAME_PFC, 3, true) >= 2);
	/* the quiet time over: the switch goes */
	tick(&g, &t, TXPOLL_STAGGER_QUIET_MS);
	assert_int_equal(rig_count(&g, 0, PFC_FRAME_PFC, 3, false), 1);
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

/* A roced that starts (a restart) with a queue already above xoff and
 * nothing counted yet: it pauses nobody at once, and at a refresh the
 * feeder whose frames were counted meanwhile, never the bystander.
 * Before, every feeder was paused until a count grew. */
static void test_restart_above_xoff(void **state)
{
	static struct rig g;
	struct txpoll t;

	(void)state;
	rig_init(&g, NULL);
	tx_init(&g, &t);
	g.backlog[2][3] = txpoll_find(&t, "swp3")->t[3].xoff + 1000;
	tick(&g, &t, 2);
	assert_int_equal(g.nsent, 0);
	/* The feeder's next frames (the old roced's pause ran out); the
	 * bystander sends toward swp4. */
	g.to[0][2] = 30;
	g.to[1][3] = 30;
	tick(&g, &t, 5);
	assert_int_equal(rig_count(&g, 0, PFC_FRAME_PFC, 3, true), 1);
	assert_int_equal(rig_count(&g, 1, PFC_FRAME_PFC, 3, true), 0);
	assert_int_equal(rig_count(&g, 3, PFC_FRAME_PFC, 3, true), 0);
	/* Drained: XON to the one it paused. */
	g.backlog[2][3] = 0;
	tick(&g, &t, 2);
	assert_int_equal(rig_count(&g, 0, PFC_FRAME_PFC, 3, false), 1);
	assert_int_equal(rig_count(&g, 1, PFC_FRAME_PFC, 3, false), 0);
	txpoll_free(&t);
	rig_free(&g);
}

/* ... and when still nothing is counted TXPOLL_COUNT_WAIT_MS later (the
 * queue fills from where roced cannot tell), every feeder is paused:
 * lossless first. */
static void test_restart_nothing_counted(void **state)
{
	static struct rig g;
	struct txpoll t;

	(void)state;
	rig_init(&g, NULL);
	tx_init(&g, &t);
	g.backlog[2][3] = txpoll_find(&t, "swp3")->t[3].xoff + 1000;
	tick(&g, &t, 2);
	assert_int_equal(g.nsent, 0);
	/* Still waiting for the counts ... */
	tick(&g, &t, 5);
	assert_int_equal(g.nsent, 0);
	/* ... for TXPOLL_COUNT_WAIT_MS at most. */
	tick(&g, &t, TXPOLL_COUNT_WAIT_MS);
	assert_int_equal(rig_count(&g, 0, PFC_FRAME_PFC, 3, true), 1);
	assert_int_equal(rig_count(&g, 1, PFC_FRAME_PFC, 3, true), 1);
	assert_int_equal(rig_count(&g, 3, PFC_FRAME_PFC, 3, true), 1);
	assert_int_equal(rig_count(&g, 2, PFC_FRAME_PFC, 3, true), 0);
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

/* A show reads the sampler: one qdisc dump serves a show and the
 * watchdog's read in the same period (either first), a show takes a
 * dump younger than QSTATS_SHOW_MS, and what it reads of every port is
 * that one dump, a class read of a port since notwithstanding. */
static void test_sampler_show(void **state)
{
	static struct rig g;
	const struct qstats_snap *sn;
	int one[1] = {12};

	(void)state;
	rig_init(&g, NULL);
	g.backlog[1][3] = 4242;
	/* the show first, then the watchdog */
	assert_int_equal(qstats_snapshot(&g.qs, 1000.0, QSTATS_SHOW_MS), 0);
	assert_int_equal(qstats_leaves(&g.qs, 1000.5), 0);
	assert_int_equal(g.qdisc_dumps, 1);
	assert_int_equal(g.qs.dumps, 1);
	assert_int_equal(g.qs.shared, 1);
	sn = qstats_snap(&g.qs, 12);
	assert_non_null(sn);
	assert_int_equal(sn->seen, 0xff);
	assert_int_equal(sn->leaf[3].backlog, 4242);
	assert_string_equal(sn->kind[3], "tbf");
	assert_null(qstats_snap(&g.qs, 99));
	/* the watchdog first, then the show, within its bound */
	assert_int_equal(qstats_leaves(&g.qs, 1020.0), 0);
	assert_int_equal(
	    qstats_snapshot(&g.qs, 1020.0 + QSTATS_SHOW_MS / 2, QSTATS_SHOW_MS),
	    0);
	assert_int_equal(g.qdisc_dumps, 2);
	/* a class read of one port does not change what a show reads */
	g.backlog[1][3] = 7;
	assert_int_equal(qstats_backlogs(&g.qs, one, 1, 1026.0), 0);
	assert_int_equal(g.class_dumps, 1);
	assert_int_equal(qstats_snapshot(&g.qs, 1027.0, QSTATS_SHOW_MS), 0);
	assert_int_equal(g.qdisc_dumps, 2);
	assert_int_equal(qstats_snap(&g.qs, 12)->leaf[3].backlog, 4242);
	/* past the bound: a dump of its own */
	assert_int_equal(qstats_snapshot(&g.qs, 1031.0, QSTATS_SHOW_MS), 0);
	assert_int_equal(g.qdisc_dumps, 3);
	assert_int_equal(qstats_snap(&g.qs, 12)->leaf[3].backlog, 7);
	rig_free(&g);
}

/* A rig whose ports can arm their wake, and T polled until the linger is
 * over: asleep, armed. */
static void tx_asleep(struct rig *g, struct txpoll *t)
{
	rig_wake_ops = rig_frame_ops;
	rig_wake_ops.wake = rig_wake;
	rig_init(g, NULL);
	g->f.ops = &rig_wake_ops;
	tx_init(g, t);
	for (int i = 0; i < 100 && !t->armed; i++)
		tick(g, t, TXPOLL_FAST_MS);
	assert_true(t->armed);
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
	tx_asleep(&g, &t);
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

/* Asleep, the idle scans come twice as late each time up to
 * TXPOLL_IDLE_MAX_MS, and read no per-ingress counts (nothing came in
 * from a feeder); a scan that finds a backlog brings the fast pace back,
 * and the next sleep starts again at TXPOLL_IDLE_MS. */
static void test_idle_backoff(void **state)
{
	static struct rig g;
	struct txpoll t;
	double want = TXPOLL_IDLE_MS;
	unsigned reads;

	(void)state;
	tx_asleep(&g, &t);
	reads = g.ct_reads;
	for (int i = 0; i < 6; i++) {
		unsigned qd = g.qdisc_dumps;

		assert_true(t.next_ms - g.now <= want + 0.01);
		assert_true(t.next_ms - g.now >= want - 0.01);
		tick(&g, &t, 0);
		assert_int_equal(g.qdisc_dumps, qd + 1);
		want = 2 * want < TXPOLL_IDLE_MAX_MS ? 2 * want
		                                     : TXPOLL_IDLE_MAX_MS;
	}
	assert_int_equal(g.ct_reads, reads);
	assert_true(t.next_ms - g.now >= TXPOLL_IDLE_MAX_MS - 0.01);
	/* a backlog at the next idle scan: the fast pace */
	g.backlog[2][3] = 1000;
	tick(&g, &t, 0);
	assert_true(t.next_ms - g.now <= TXPOLL_FAST_MS + 0.01);
	g.backlog[2][3] = 0;
	for (int i = 0; i < 200 && t.next_ms - g.now <= TXPOLL_FAST_MS + 1; i++)
		tick(&g, &t, TXPOLL_FAST_MS);
	assert_true(t.armed);
	assert_true(t.next_ms - g.now <= TXPOLL_IDLE_MS + 0.01);
	txpoll_free(&t);
	rig_free(&g);
}

static int rig_nomaster(const char *ifname)
{
	(void)ifname;
	return 0;
}

/* 10.0.<j+1>.0/24 out of port j (ifindex 11 + j), as each port's
 * connected route; and 10.9.0.0/16 split over swp3 and swp4 (ECMP). */
static void routes_fill(struct route_cache *rc, bool swp3)
{
	struct route_rt r;

	route_clear(rc);
	for (unsigned j = 0; j < RIG_PORTS; j++) {
		if (j == 2 && !swp3)
			continue;
		memset(&r, 0, sizeof(r));
		r.family = AF_INET;
		r.type = RTN_UNICAST;
		r.dst = route_ip4(0x0a000000u | (uint32_t)(j + 1) << 8);
		r.len = 24;
		r.nnh = 1;
		r.nh[0].oif = 11 + (int)j;
		assert_int_equal(route_add(rc, &r), 0);
	}
	memset(&r, 0, sizeof(r));
	r.family = AF_INET;
	r.type = RTN_UNICAST;
	r.dst = route_ip4(0x0a090000u);
	r.len = 16;
	if (swp3) {
		r.nh[r.nnh].oif = 13;
		r.nh[r.nnh++].gw = route_ip4(0x0a000302u);
	}
	r.nh[r.nnh].oif = 14;
	r.nh[r.nnh++].gw = route_ip4(0x0a000402u);
	assert_int_equal(route_add(rc, &r), 0);
}

static void test_routed(void **state)
{
	static struct rig g;
	static struct route_cache rc;
	struct txpoll t;
	const struct txpoll_port *x;
	uint32_t xoff;

	(void)state;
	rig_init(&g, NULL);
	g.routed = true;
	route_init(&rc);
	routes_fill(&rc, true);
	g.ct.routes = &rc;
	txpoll_init(&t);
	t.frames = &g.f;
	t.softpfc = &g.sp;
	t.qs = &g.qs;
	t.contrib = &g.ct;
	t.ports = &g.r;
	t.master_fn = rig_nomaster;
	t.routes = &rc;
	txpoll_sync(&t, &g.r, g.now);
	/* Every other port feeds swp3 through the routes. */
	x = txpoll_find(&t, "swp3");
	assert_non_null(x);
	assert_int_equal(x->nfeeders, 3);
	assert_int_equal(x->nrouted, 3);
	/* The same routes again (a neighbour's change): the same feeders,
	 * no sync needed. */
	routes_fill(&rc, true);
	assert_false(txpoll_routes_moved(&t));
	xoff = x->t[3].xoff;
	tick(&g, &t, 2);
	/* swp1 sends to 10.0.3.2 (behind swp3); swp2 to 10.0.4.2 (behind
	 * swp4: the bystander). swp3's queue 3 crosses xoff. */
	g.to[0][2] = 100;
	g.to[1][3] = 500;
	g.backlog[2][3] = xoff + 1000;
	tick(&g, &t, 2);
	assert_int_equal(rig_count(&g, 0, PFC_FRAME_PFC, 3, true), 1);
	assert_int_equal(rig_count(&g, 1, PFC_FRAME_PFC, 3, true), 0);
	assert_int_equal(rig_count(&g, 3, PFC_FRAME_PFC, 3, true), 0);
	/* swp4 starts sending to 10.9.0.5, which ECMP may send out of
	 * swp3: a contributor too. */
	g.dst[0] = 0x0a090005u;
	g.to[3][0] = 40;
	tick(&g, &t, 5);
	assert_int_equal(rig_count(&g, 3, PFC_FRAME_PFC, 3, true), 1);
	assert_int_equal(rig_count(&g, 1, PFC_FRAME_PFC, 3, true), 0);
	/* The routes through swp3 are deleted mid-incast: its feeders go,
	 * but those it paused stay until their XON; the change is counted
	 * and nothing is sent to the bystander. */
	routes_fill(&rc, false);
	assert_true(txpoll_routes_moved(&t));
	txpoll_sync(&t, &g.r, g.now);
	assert_false(txpoll_routes_moved(&t));
	x = txpoll_find(&t, "swp3");
	assert_int_equal(x->nfeeders, 2);
	assert_int_equal(x->nrouted, 0);
	assert_int_equal(x->route_moves, 1);
	g.backlog[2][3] = 0;
	tick(&g, &t, 2);
	assert_int_equal(rig_count(&g, 0, PFC_FRAME_PFC, 3, false), 1);
	assert_int_equal(rig_count(&g, 3, PFC_FRAME_PFC, 3, false), 0);
	/* (the XONs staggered) */
	tick(&g, &t, TXPOLL_STAGGER_QUIET_MS);
	assert_int_equal(rig_count(&g, 3, PFC_FRAME_PFC, 3, false), 1);
	assert_int_equal(rig_count(&g, 1, PFC_FRAME_PFC, 3, false), 0);
	assert_int_equal(rig_count(&g, 2, PFC_FRAME_PFC, 3, true), 0);
	assert_int_equal(softpfc_port(&g.sp, "swp1", false)->c.tx_pause[3], 2);
	assert_int_equal(softpfc_port(&g.sp, "swp1", false)->c.tx_xon[3], 1);
	/* XON sent: the feeders the routes no longer give are let go. */
	txpoll_sync(&t, &g.r, g.now);
	assert_int_equal(txpoll_find(&t, "swp3")->nfeeders, 0);
	txpoll_free(&t);
	route_free(&rc);
	rig_free(&g);
}

/* swp1 and swp2 in a bridge with an address (an SVI), swp3 and swp4
 * routed. */
static int rig_svi_master(const char *ifname)
{
	return !strcmp(ifname, "swp1") || !strcmp(ifname, "swp2") ? RIG_MASTER
	                                                          : 0;
}

/* An SVI leaf: traffic that enters the SVI is paused at the bridge port
 * it came in on; routed traffic into the bridge counts toward the bridge
 * port its neighbour is behind. */
static void test_svi(void **state)
{
	static struct rig g;
	static struct route_cache rc;
	struct txpoll t;
	const struct txpoll_port *x;
	struct route_rt r;
	uint32_t xoff;

	(void)state;
	rig_init(&g, NULL);
	g.routed = true;
	route_init(&rc);
	for (unsigned j = 0; j < RIG_PORTS; j++) {
		struct route_neigh nb = {
		    .ip = route_ip4(0x0a000002u | (j + 1) << 8),
		    .family = AF_INET,
		    .ifindex = j < 2 ? RIG_MASTER : 11 + (int)j,
		    .mac = {2, 0, 0, 0, 1, (uint8_t)(j + 1)}};

		memset(&r, 0, sizeof(r));
		r.family = AF_INET;
		r.type = RTN_UNICAST;
		r.dst = route_ip4(0x0a000000u | (uint32_t)(j + 1) << 8);
		r.len = 24;
		r.nnh = 1;
		r.nh[0].oif = nb.ifindex;
		assert_int_equal(route_add(&rc, &r), 0);
		assert_int_equal(route_add_neigh(&rc, &nb), 0);
	}
	g.ct.routes = &rc;
	txpoll_init(&t);
	t.frames = &g.f;
	t.softpfc = &g.sp;
	t.qs = &g.qs;
	t.contrib = &g.ct;
	t.ports = &g.r;
	t.master_fn = rig_svi_master;
	t.routes = &rc;
	txpoll_sync(&t, &g.r, g.now);
	x = txpoll_find(&t, "swp3");
	assert_int_equal(x->nfeeders, 3);
	assert_int_equal(x->nrouted, 3);
	x = txpoll_find(&t, "swp1");
	assert_int_equal(x->nfeeders, 3);
	assert_int_equal(x->nrouted, 2);
	xoff = x->t[3].xoff;
	tick(&g, &t, 2);
	/* swp1 (a bridge port) sends to 10.0.3.2, routed out of swp3;
	 * swp4 to 10.0.1.2, routed into the bridge toward swp1; swp3 to
	 * 10.0.2.2, toward swp2. */
	g.to[0][2] = 100;
	g.to[3][0] = 100;
	g.to[2][1] = 100;
	g.backlog[2][3] = xoff + 1000;
	tick(&g, &t, 2);
	assert_int_equal(rig_count(&g, 0, PFC_FRAME_PFC, 3, true), 1);
	assert_int_equal(rig_count(&g, 1, PFC_FRAME_PFC, 3, true), 0);
	assert_int_equal(rig_count(&g, 3, PFC_FRAME_PFC, 3, true), 0);
	g.backlog[2][3] = 0;
	tick(&g, &t, 2);
	assert_int_equal(rig_count(&g, 0, PFC_FRAME_PFC, 3, false), 1);
	/* swp1's queue: swp4's routed traffic fills it, not swp3's. */
	g.to[3][0] = 200;
	g.to[2][1] = 200;
	g.backlog[0][3] = xoff + 1000;
	tick(&g, &t, 2);
	assert_int_equal(rig_count(&g, 3, PFC_FRAME_PFC, 3, true), 1);
	assert_int_equal(rig_count(&g, 2, PFC_FRAME_PFC, 3, true), 0);
	assert_int_equal(rig_count(&g, 1, PFC_FRAME_PFC, 3, true), 0);
	g.backlog[0][3] = 0;
	tick(&g, &t, 2);
	/* The bridge's address is swp1's own: swp2's host sends to it,
	 * routed off the leaf out of swp4 (10.0.4.2), while swp4's routed
	 * traffic fills swp1's queue again. The frame's destination MAC
	 * is behind swp1 in the forwarding database, but local: swp2 is a
	 * bystander and is not paused. */
	g.svi_mac = true;
	g.to[1][3] = 300;
	g.to[3][0] = 300;
	g.backlog[0][3] = xoff + 1000;
	tick(&g, &t, 2);
	assert_int_equal(rig_count(&g, 3, PFC_FRAME_PFC, 3, true), 2);
	assert_int_equal(rig_count(&g, 1, PFC_FRAME_PFC, 3, true), 0);
	txpoll_free(&t);
	route_free(&rc);
	rig_free(&g);
}

/* The longest prefix wins, then the lowest metric; every next hop of an
 * ECMP route is given; no route, none. */
static void test_route_lookup(void **state)
{
	struct route_cache rc;
	struct route_rt r;
	struct route_nh nh[ROUTE_NH_MAX];
	struct route_neigh nb = {.ip = route_ip4(0x0a000302u),
	                         .family = AF_INET,
	                         .ifindex = 13,
	                         .mac = {2, 0, 0, 0, 1, 3}};
	struct route_ip a;

	(void)state;
	route_init(&rc);
	routes_fill(&rc, true);
	memset(&r, 0, sizeof(r));
	r.family = AF_INET;
	r.type = RTN_UNICAST;
	r.len = 0;
	r.nnh = 1;
	r.nh[0].oif = 11;
	r.nh[0].gw = route_ip4(0x0a000102u);
	assert_int_equal(route_add(&rc, &r), 0);
	r.len = 0;
	r.metric = 5;
	r.nh[0].oif = 12;
	assert_int_equal(route_add(&rc, &r), 0);
	a = route_ip4(0x0a000307u);
	assert_int_equal(
	    route_lookup(&rc, AF_INET, &a, 11, nh, ROUTE_NH_MAX, NULL), 1);
	assert_int_equal(nh[0].oif, 13);
	a = route_ip4(0x0a090101u);
	assert_int_equal(
	    route_lookup(&rc, AF_INET, &a, 11, nh, ROUTE_NH_MAX, NULL), 2);
	assert_int_equal(nh[0].oif, 13);
	assert_int_equal(nh[1].oif, 14);
	assert_int_equal(route_lookup(&rc, AF_INET, &a, 11, nh, 1, NULL), 1);
	/* the default route of metric 0, not 5 */
	a = route_ip4(0xc0000201u);
	assert_int_equal(
	    route_lookup(&rc, AF_INET, &a, 11, nh, ROUTE_NH_MAX, NULL), 1);
	assert_int_equal(nh[0].oif, 11);
	assert_true(route_via(&rc, 14));
	assert_false(route_via(&rc, 99));
	assert_int_equal(route_add_neigh(&rc, &nb), 0);
	a = route_ip4(0x0a000302u);
	assert_non_null(route_neigh_mac(&rc, AF_INET, &a, 13));
	assert_null(route_neigh_mac(&rc, AF_INET, &a, 14));
	assert_null(route_neigh_mac(&rc, AF_INET6, &a, 13));
	route_clear(&rc);
	a = route_ip4(0x0a000307u);
	assert_int_equal(
	    route_lookup(&rc, AF_INET, &a, 11, nh, ROUTE_NH_MAX, NULL), 0);
	route_free(&rc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_contributors),
	    cmocka_unit_test(test_first_crossing),
	    cmocka_unit_test(test_again_after_xon),
	    cmocka_unit_test(test_staggered_xon),
	    cmocka_unit_test(test_staggered_switches_only),
	    cmocka_unit_test(test_cycle_switch_at_xon),
	    cmocka_unit_test(test_switch_waits_own_release),
	    cmocka_unit_test(test_paused_elsewhere),
	    cmocka_unit_test(test_restart_above_xoff),
	    cmocka_unit_test(test_restart_nothing_counted),
	    cmocka_unit_test(test_no_counts),
	    cmocka_unit_test(test_sampler),
	    cmocka_unit_test(test_active_only),
	    cmocka_unit_test(test_routed),
	    cmocka_unit_test(test_svi),
	    cmocka_unit_test(test_route_lookup),
	    cmocka_unit_test(test_sampler_show),
	    cmocka_unit_test(test_idle_backoff),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
