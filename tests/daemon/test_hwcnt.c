/* Tests for daemon/agent/hwcnt.c (hardware DCB ports' PFC counters) and
 * the PFC watchdog's poller on a hardware port (daemon/agent/wdpoll.c),
 * on fake counters: a storm shuts the queue, which the next compile
 * turns into PFC off for its priority in the plan's DCB part, and the
 * restore turns it back on. No kernel, no root: the driver's counters
 * come from a fake hwcnt reader, the queue's from a fake qdisc dump, and
 * "lo" stands for the port (the poller finds ports by ifindex). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/gen_stats.h>
#include <linux/rtnetlink.h>

#include "agent/hwcnt.h"
#include "agent/wdpoll.h"
#include "conf/conf.h"
#include "registry/ports.h"

/* --- the fake driver --- */

struct fake_hw {
	struct hwcnt_raw raw;
	int rc;
	unsigned reads;
};

static int fake_read(void *ctx, struct hwcnt_port *p, struct hwcnt_raw *raw)
{
	struct fake_hw *f = ctx;

	(void)p;
	f->reads++;
	*raw = f->raw;
	return f->rc;
}

static const struct hwcnt_ops fake_ops = {.read = fake_read};

/* mlx5-like statistics for priority 3: frames and pause time. */
static void fake_eth(struct fake_hw *f, uint64_t rx, uint64_t rx_us)
{
	f->raw.eth = true;
	f->raw.prio.driver = "mlx5";
	f->raw.prio.present[ETHTOOL_MSG_PRIO_RX] = 1u << 3;
	f->raw.prio.present[ETHTOOL_MSG_PRIO_TX] = 1u << 3;
	f->raw.prio.present[ETHTOOL_MSG_PRIO_RX_US] = 1u << 3;
	f->raw.prio.v[ETHTOOL_MSG_PRIO_RX][3] = rx;
	f->raw.prio.v[ETHTOOL_MSG_PRIO_RX_US][3] = rx_us;
}

/* The two sources merge: the larger frame count per priority, dcbnl for
 * the priorities the statistics lack, durations only where counted. */
static void test_merge(void **state)
{
	struct fake_hw f = {0};
	struct hwcnt h;
	struct hwcnt_port *p;
	struct pfcwd_sample s;

	(void)state;
	hwcnt_init(&h, &fake_ops, &f);
	f.raw.dcb = true;
	f.raw.pfc_en = 0x18;
	f.raw.indications[3] = 90; /* stale: mlx5's cache */
	f.raw.indications[4] = 40;
	f.raw.requests[4] = 2;
	fake_eth(&f, 100, 5000);
	p = hwcnt_read(&h, "swp1");
	assert_non_null(p);
	assert_true(p->ok);
	assert_string_equal(p->driver, "mlx5");
	assert_int_equal(p->rx[3], 100);
	assert_int_equal(p->rx[4], 40);
	assert_int_equal(p->tx[4], 2);
	assert_int_equal(p->pfc_en, 0x18);
	/* A duration needs two reads to be a rate. */
	assert_int_equal(p->dur, 0);
	hwcnt_sample(p, 1u << 3, &s);
	assert_false(s.has_duration);
	assert_int_equal(s.pause_rx, 100);

	fake_eth(&f, 150, 95000);
	p = hwcnt_read(&h, "swp1");
	assert_int_equal(p->dur, 1u << 3);
	hwcnt_sample(p, 1u << 3, &s);
	assert_true(s.has_duration);
	assert_int_equal(s.paused_us, 95000);
	/* Priority 4 has no duration counter: neither has a queue of 3+4. */
	hwcnt_sample(p, 0x18, &s);
	assert_false(s.has_duration);
	assert_int_equal(s.pause_rx, 150 + 40);

	/* The statistics lose priority 3 (mlx5, PFC off): dcbnl's count
	 * goes on, the duration keeps its value and is not a rate. */
	f.raw.eth = false;
	f.raw.indications[3] = 170;
	p = hwcnt_read(&h, "swp1");
	assert_int_equal(p->rx[3], 170);
	assert_int_equal(p->rx_us[3], 95000);
	assert_int_equal(p->dur, 0);
	assert_null(p->driver);

	/* A failed read: not ok, and nothing to compare the next with. */
	f.rc = -ENODEV;
	p = hwcnt_read(&h, "swp1");
	assert_false(p->ok);
	assert_int_equal(p->err, -ENODEV);
	/* No frame counters at all: not ok either. */
	f.rc = 0;
	memset(&f.raw, 0, sizeof(f.raw));
	p = hwcnt_read(&h, "swp1");
	assert_false(p->ok);
	assert_int_equal(p->err, -EOPNOTSUPP);
	hwcnt_free(&h);
}

/* A receive counter is live only once seen counting between two reads
 * that both found PFC off for its priority: growth while PFC was on, or
 * across the change, proves nothing. */
static void test_live(void **state)
{
	struct fake_hw f = {0};
	struct hwcnt h;
	struct hwcnt_port *p;
	struct pfcwd_sample s;

	(void)state;
	hwcnt_init(&h, &fake_ops, &f);
	f.raw.dcb = true;
	f.raw.pfc_en = 0x08;
	f.raw.indications[3] = 10;
	hwcnt_read(&h, "swp1");
	f.raw.indications[3] = 20; /* PFC on: no proof */
	hwcnt_read(&h, "swp1");
	f.raw.pfc_en = 0;
	f.raw.indications[3] = 30; /* PFC went off in between */
	p = hwcnt_read(&h, "swp1");
	assert_int_equal(p->live, 0);
	f.raw.indications[3] = 30; /* off, quiet: no proof */
	p = hwcnt_read(&h, "swp1");
	assert_int_equal(p->live, 0);
	hwcnt_sample(p, 1u << 3, &s);
	assert_false(s.rx_live);
	f.raw.indications[3] = 31; /* off at both reads, counting */
	p = hwcnt_read(&h, "swp1");
	assert_int_equal(p->live, 1u << 3);
	hwcnt_sample(p, 1u << 3, &s);
	assert_true(s.rx_live);
	hwcnt_sample(p, 0x18, &s);
	assert_false(s.rx_live);
	hwcnt_free(&h);
}

/* --- the poller on a hardware port --- */

/* The leaf qdisc of queue 3 on ifindex 1 ("lo"), as the kernel dumps it. */
struct fake_tc {
	uint64_t packets;
	uint32_t qlen, drops;
	unsigned dumps;
};

static int fake_dump(void *arg, struct nlmsghdr *req, mnl_cb_t cb, void *data)
{
	struct fake_tc *t = arg;
	char buf[512] __attribute__((aligned(4)));
	struct nlmsghdr *nlh;
	struct tcmsg *tcm;
	struct nlattr *nest;
	struct gnet_stats_basic b = {.bytes = t->packets * 1000,
	                             .packets = (uint32_t)t->packets};
	struct gnet_stats_queue q = {.qlen = t->qlen, .drops = t->drops};

	assert_int_equal(req->nlmsg_type, RTM_GETQDISC);
	t->dumps++;
	memset(buf, 0, sizeof(buf));
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_NEWQDISC;
	nlh->nlmsg_flags = NLM_F_MULTI;
	tcm = mnl_nlmsg_put_extra_header(nlh, sizeof(*tcm));
	tcm->tcm_family = AF_UNSPEC;
	tcm->tcm_ifindex = 1;
	tcm->tcm_handle = PLAN_H_MAKE(PLAN_LEAF_MAJOR(3), 0);
	tcm->tcm_parent = PLAN_H_MAKE(PLAN_ROOT_MAJOR, 4);
	mnl_attr_put_strz(nlh, TCA_KIND, "bfifo");
	nest = mnl_attr_nest_start(nlh, TCA_STATS2);
	mnl_attr_put(nlh, TCA_STATS_BASIC, sizeof(b), &b);
	mnl_attr_put(nlh, TCA_STATS_QUEUE, sizeof(q), &q);
	mnl_attr_nest_end(nlh, nest);
	return cb(nlh, data) == MNL_CB_ERROR ? -EINVAL : 0;
}

struct rig {
	struct policy p;
	struct ports r;
	struct wdpoll w;
	struct hwcnt h;
	struct fake_hw f;
	struct fake_tc t;
	unsigned reconciles;
	double now;
};

static void rig_reconcile(void *arg, const char *ifname)
{
	struct rig *g = arg;

	assert_string_equal(ifname, "lo");
	g->reconciles++;
}

/* Compile the policy and "apply" it (every port programmed), as the
 * daemon does after a reconcile; the fake driver then holds the plan's
 * PFC. Returns the port's plan. */
static const struct plan_port *rig_apply(struct rig *g)
{
	struct reconcile_result res[2];
	const struct ports_port *e;
	struct plan pl;

	memset(res, 0, sizeof(res));
	plan_init(&pl);
	assert_int_equal(
	    ports_compile(&g->r, &g->p, "roced.conf", NULL, 0, &pl, NULL), 0);
	assert_int_equal(pl.nports, 1);
	snprintf(res[0].ifname, sizeof(res[0].ifname), "lo");
	res[0].status = RECONCILE_OK;
	ports_applied(&g->r, &pl, pl.nports, res, NULL);
	plan_free(&pl);
	e = ports_find(&g->r, "lo");
	assert_non_null(e);
	assert_true(e->applied);
	g->f.raw.pfc_en = e->plan.dcb.pfc_en;
	wdpoll_sync(&g->w, g->now);
	return &e->plan;
}

static void rig_init(struct rig *g)
{
	struct diag d;
	struct caps caps;

	memset(g, 0, sizeof(*g));
	diag_init(&d, NULL);
	assert_int_equal(
	    conf_load_file(TEST_SRCDIR "/conf/roced.conf", &g->p, &d), 0);
	diag_free(&d);
	/* The shipped port, renamed to a link every namespace has. */
	assert_int_equal(g->p.nifaces, 1);
	snprintf(g->p.ifaces[0].name, sizeof(g->p.ifaces[0].name), "lo");
	assert_true(g->p.pfcwd.enabled);
	caps_preset(&caps, CAPS_PRESET_HW);
	ports_init(&g->r, &caps, false);
	hwcnt_init(&g->h, &fake_ops, &g->f);
	wdpoll_init(&g->w);
	g->w.ports = &g->r;
	g->w.hw = &g->h;
	g->w.dump = fake_dump;
	g->w.dump_arg = &g->t;
	g->w.reconcile = rig_reconcile;
	g->w.arg = g;
	g->f.raw.dcb = true;
	g->now = 1000;
}

static void rig_free(struct rig *g)
{
	wdpoll_free(&g->w);
	hwcnt_free(&g->h);
	ports_free(&g->r);
	policy_free(&g->p);
}

/* One poll, POLL ms on; the storm (when STORM) adds pause frames and
 * pause time for the whole poll, the queue holds packets and sends
 * none. */
static void rig_poll(struct rig *g, bool storm)
{
	g->now += g->w.poll_ms;
	if (storm) {
		g->f.raw.indications[3] += 1000;
		g->t.qlen = 40;
	} else {
		g->t.qlen = 0;
		g->t.packets += 100;
	}
	wdpoll_tick(&g->w, g->now);
}

static struct wdpoll_port *rig_port(struct rig *g)
{
	struct wdpoll_port *e = wdpoll_find(&g->w, "lo");

	assert_non_null(e);
	return e;
}

/* A storm on a hardware port: detected from the driver's counters and
 * the queue's; the queue shut through the registry's compile input; the
 * plan's DCB part has PFC off for priority 3; after the storm (the
 * counter proven live while PFC was off) the restore turns it back on. */
static void test_storm_live(void **state)
{
	struct rig g;
	const struct plan_port *pp;
	struct wdpoll_port *e;

	(void)state;
	rig_init(&g);
	pp = rig_apply(&g);
	assert_false(pp->dcb.software);
	assert_true(pp->dcb.pfc_en & (1u << 3));
	e = rig_port(&g);
	assert_true(e->watched);
	assert_true(e->hw);
	assert_true(e->queues & (1u << 3));

	rig_poll(&g, false); /* the first sample */
	rig_poll(&g, false);
	assert_int_equal(e->q[3].state, PFCWD_MONITORED);
	assert_true(g.f.reads >= 2);
	/* The queue sent packets since the last counters read (no pause
	 * came: the quiet polls read none): not stuck yet. */
	rig_poll(&g, true);
	assert_int_equal(rig_port(&g)->q[3].state, PFCWD_MONITORED);
	rig_poll(&g, true);
	e = rig_port(&g);
	assert_int_equal(e->q[3].state, PFCWD_SHUTDOWN);
	assert_int_equal(e->q[3].storms, 1);
	assert_int_equal(e->q[3].drained, 40);
	assert_int_equal(g.reconciles, 1);
	assert_int_equal(ports_find(&g.r, "lo")->watchdog.wd_shut, 1u << 3);

	/* The reconcile: PFC off for priority 3 in the DCB part. */
	pp = rig_apply(&g);
	assert_false(pp->dcb.pfc_en & (1u << 3));
	assert_true(pp->dcb.pfc_admin & (1u << 3));
	/* The storm goes on and the driver keeps counting with PFC off:
	 * its counter is live, so the quiet time counts from the storm's
	 * end. */
	rig_poll(&g, true);
	rig_poll(&g, true);
	assert_true(hwcnt_find(&g.h, "lo")->live & (1u << 3));
	for (int i = 0; i < 5; i++)
		rig_poll(&g, true);
	e = rig_port(&g);
	assert_int_equal(e->q[3].state, PFCWD_SHUTDOWN);
	/* Quiet for auto-restore-multiplier polls: restored. */
	for (unsigned i = 0; i < g.p.pfcwd.auto_restore_mult + 1 &&
	                     rig_port(&g)->q[3].state == PFCWD_SHUTDOWN;
	     i++)
		rig_poll(&g, false);
	e = rig_port(&g);
	assert_int_equal(e->q[3].state, PFCWD_RESTORED);
	assert_int_equal(e->q[3].restores, 1);
	assert_false(e->q[3].probe);
	assert_int_equal(ports_find(&g.r, "lo")->watchdog.wd_shut, 0);
	pp = rig_apply(&g);
	assert_true(pp->dcb.pfc_en & (1u << 3));
	rig_free(&g);
}

/* Polls of storm until the queue is shut on a port whose own
 * shutdown-multiplier is MULT (0: the global one, 1 in the file). */
static unsigned storm_polls(unsigned mult)
{
	struct rig g;
	unsigned polls = 0;

	rig_init(&g);
	assert_int_equal(g.p.pfcwd.shutdown_mult, 1);
	g.p.ifaces[0].wd_shutdown_mult = mult;
	rig_apply(&g);
	rig_poll(&g, false); /* the first sample */
	rig_poll(&g, false);
	while (rig_port(&g)->q[3].state != PFCWD_SHUTDOWN && polls < 50) {
		rig_poll(&g, true);
		polls++;
	}
	assert_int_equal(rig_port(&g)->q[3].state, PFCWD_SHUTDOWN);
	rig_free(&g);
	return polls;
}

/* A port's own shutdown-multiplier is the number of stuck polls before
 * its queue is shut, in place of the global one: the first storm poll
 * finds the packets the queue sent before it (test_storm_live), each
 * further one is stuck. */
static void test_port_multiplier(void **state)
{
	(void)state;
	assert_int_equal(storm_polls(0), 2);
	assert_int_equal(storm_polls(1), 2);
	assert_int_equal(storm_polls(4), 5);
}

/* A driver that stops counting once PFC is off (the pause still comes):
 * silence proves nothing, so the queue is restored on trial after the
 * auto-restore time from the storm; the storm is still there, and the
 * next restore waits twice as long. */
static void test_storm_not_live(void **state)
{
	struct rig g;
	const struct plan_port *pp;
	struct wdpoll_port *e;
	double shut;
	unsigned polls = 0;

	(void)state;
	rig_init(&g);
	rig_apply(&g);
	rig_poll(&g, false);
	rig_poll(&g, true);
	e = rig_port(&g);
	assert_int_equal(e->q[3].state, PFCWD_SHUTDOWN);
	shut = e->q[3].shut_ms;
	pp = rig_apply(&g);
	assert_false(pp->dcb.pfc_en & (1u << 3));
	/* PFC off: the counter stands still, the queue drains. */
	while (rig_port(&g)->q[3].state == PFCWD_SHUTDOWN && polls < 100) {
		rig_poll(&g, false);
		polls++;
	}
	e = rig_port(&g);
	assert_int_equal(e->q[3].state, PFCWD_RESTORED);
	assert_true(e->q[3].probe);
	assert_false(hwcnt_find(&g.h, "lo")->live & (1u << 3));
	assert_true(g.now - shut >= g.w.poll_ms * g.p.pfcwd.auto_restore_mult);
	pp = rig_apply(&g);
	assert_true(pp->dcb.pfc_en & (1u << 3));
	/* PFC back on: the storm is seen again, on probation. */
	rig_poll(&g, true);
	e = rig_port(&g);
	assert_int_equal(e->q[3].state, PFCWD_SHUTDOWN);
	assert_int_equal(e->q[3].storms, 2);
	assert_int_equal(e->q[3].backoff, 1);
	rig_free(&g);
}

/* Pause time below 99 % of the poll (an XON-heavy peer that mlx5 counts
 * as pause frames) is no storm, however the frame counter grows; a
 * port whose counters cannot be read is not watched, and nothing is
 * shut. */
static void test_no_storm(void **state)
{
	struct rig g;
	struct wdpoll_port *e;

	(void)state;
	rig_init(&g);
	rig_apply(&g);
	fake_eth(&g.f, 0, 0);
	rig_poll(&g, false);
	for (int i = 0; i < 5; i++) {
		g.f.raw.prio.v[ETHTOOL_MSG_PRIO_RX][3] += 500;
		g.f.raw.prio.v[ETHTOOL_MSG_PRIO_RX_US][3] += 50000;
		rig_poll(&g, true);
	}
	e = rig_port(&g);
	assert_int_equal(e->q[3].state, PFCWD_MONITORED);
	assert_int_equal(e->q[3].storms, 0);

	g.f.rc = -EIO;
	for (int i = 0; i < 5; i++)
		rig_poll(&g, true);
	e = rig_port(&g);
	assert_int_equal(e->q[3].storms, 0);
	assert_int_equal(e->hw_err, -EIO);
	assert_int_equal(g.reconciles, 0);
	rig_free(&g);
}

/* A willing host's PFC is adopted over DCBX: running (pfc_en) with none
 * configured (pfc_admin). Its queue is watched all the same; a queue the
 * watchdog shut stays watched (and shut) when a storm takes the adopted
 * priority's PFC off the port, and is forgotten only once monitored. */
static void test_adopted(void **state)
{
	struct rig g;
	struct ports_port *pe;
	struct wdpoll_port *e;

	(void)state;
	rig_init(&g);
	rig_apply(&g);
	pe = ports_find(&g.r, "lo");
	pe->plan.dcb.pfc_admin = 0;
	pe->plan.dcb.pfc_en = 1u << 3;
	wdpoll_sync(&g.w, g.now);
	e = rig_port(&g);
	assert_true(e->watched);
	assert_true(e->queues & (1u << 3));
	assert_int_equal(e->prios[3], 1u << 3);
	rig_poll(&g, false);
	rig_poll(&g, true);
	rig_poll(&g, true);
	e = rig_port(&g);
	assert_int_equal(e->q[3].state, PFCWD_SHUTDOWN);
	/* The storm's reconcile takes the adopted priority's PFC off. */
	pe = ports_find(&g.r, "lo");
	pe->plan.dcb.pfc_en = 0;
	wdpoll_sync(&g.w, g.now);
	e = rig_port(&g);
	assert_true(e->queues & (1u << 3));
	assert_int_equal(e->q[3].state, PFCWD_SHUTDOWN);
	assert_int_equal(pe->watchdog.wd_shut, 1u << 3);
	/* Neither configured nor running, and not shut: not watched. */
	pfcwd_init(&e->q[3]);
	wdpoll_sync(&g.w, g.now);
	e = rig_port(&g);
	assert_false(e->queues & (1u << 3));
	assert_false(e->watched);
	rig_free(&g);
}

/* The poller follows the applied plan, never the policy: a policy that
 * changed but was not applied (a commit that failed leaves its
 * candidate so) moves nothing, and the times are those compile resolved
 * (a fabric-internal port's carry internal-interface-multiplier). Once
 * the change is applied, the poller follows it. */
static void test_follows_plan(void **state)
{
	struct rig g;
	struct wdpoll_port *e;
	uint32_t poll, detect;

	(void)state;
	rig_init(&g);
	g.p.ifaces[0].fabric_internal = true;
	rig_apply(&g);
	poll = g.p.pfcwd.poll_ms ? g.p.pfcwd.poll_ms : POLICY_PFCWD_POLL_MS;
	detect = poll * g.p.pfcwd.shutdown_mult * g.p.pfcwd.internal_if_mult;
	e = rig_port(&g);
	assert_true(e->watched);
	assert_true(e->internal);
	assert_int_equal(e->cfg.detect_ms, detect);
	assert_int_equal(g.w.poll_ms, poll);
	/* Changed, not applied: the plan's settings stay. */
	g.p.pfcwd.enabled = false;
	g.p.pfcwd.shutdown_mult = 50;
	g.p.pfcwd.poll_ms = 500;
	g.p.ifaces[0].fabric_internal = false;
	wdpoll_sync(&g.w, g.now);
	e = rig_port(&g);
	assert_true(e->watched);
	assert_true(e->internal);
	assert_int_equal(e->cfg.detect_ms, detect);
	assert_int_equal(g.w.poll_ms, poll);
	/* Applied: the watchdog is off on the port. */
	rig_apply(&g);
	assert_false(wdpoll_find(&g.w, "lo")->watched);
	rig_free(&g);
}

/* The state file's path in a directory of its own (removed by
 * rig_state_done). */
static void rig_state(struct rig *g, char *dir, size_t len)
{
	snprintf(dir, len, "/tmp/roced-test-wd.XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(g->w.path, sizeof(g->w.path), "%s/roced.pfcwd", dir);
}

static void rig_state_done(struct rig *g, const char *dir)
{
	unlink(g->w.path);
	assert_int_equal(rmdir(dir), 0);
}

/* Storm on queue 3 of "lo" until it is shut, and the reconcile. */
static void rig_storm(struct rig *g)
{
	rig_poll(g, false);
	rig_poll(g, false);
	for (int i = 0; i < 50 && rig_port(g)->q[3].state != PFCWD_SHUTDOWN;
	     i++)
		rig_poll(g, true);
	assert_int_equal(rig_port(g)->q[3].state, PFCWD_SHUTDOWN);
	rig_apply(g);
}

/* A storm's record goes with its port: a port removed from the policy
 * after a storm leaves nothing in the state file, so the port added back
 * runs open and a restarted roced does not shut its queue again for a
 * storm long over. */
static void test_record_dropped_with_port(void **state)
{
	struct rig g, g2;
	struct policy_iface keep;
	char dir[64];
	FILE *f;

	(void)state;
	rig_init(&g);
	rig_state(&g, dir, sizeof(dir));
	rig_apply(&g);
	rig_storm(&g);
	f = fopen(g.w.path, "r");
	assert_non_null(f);
	fclose(f);

	/* The port leaves the policy (a reload), and its entry the
	 * registry: the watchdog forgets it, and the file with it. */
	keep = g.p.ifaces[0];
	g.p.nifaces = 0;
	ports_prune(&g.r, &g.p);
	wdpoll_sync(&g.w, g.now);
	assert_null(wdpoll_find(&g.w, "lo"));
	assert_null(fopen(g.w.path, "r"));
	assert_int_equal(errno, ENOENT);

	/* Back in the policy: open. */
	g.p.ifaces[0] = keep;
	g.p.nifaces = 1;
	rig_apply(&g);
	assert_int_equal(rig_port(&g)->q[3].state, PFCWD_MONITORED);
	assert_int_equal(ports_find(&g.r, "lo")->watchdog.wd_shut, 0);

	/* A restart: nothing to load, nothing shut. */
	rig_init(&g2);
	snprintf(g2.w.path, sizeof(g2.w.path), "%s", g.w.path);
	assert_int_equal(wdpoll_load(&g2.w, g2.now), 0);
	rig_apply(&g2);
	assert_int_equal(ports_find(&g2.r, "lo")->watchdog.wd_shut, 0);
	rig_free(&g2);
	rig_state_done(&g, dir);
	rig_free(&g);
}

/* Records loaded at start are held to the plan: one for a port the
 * policy does not configure and one for a queue the plan does not watch
 * (queue 5 is lossy in the shipped policy) shut nothing and leave the
 * file at the first sync; a record of a watched queue stays shut. */
static void test_record_checked_at_start(void **state)
{
	struct rig g;
	char dir[64], line[256];
	FILE *f;
	int n = 0;

	(void)state;
	rig_init(&g);
	rig_state(&g, dir, sizeof(dir));
	f = fopen(g.w.path, "w");
	assert_non_null(f);
	fprintf(f, "netns 0\n"
	           "gone0 3 state=shutdown shut=1 quiet=1 restored=0\n"
	           "lo 5 state=shutdown shut=1 quiet=1 restored=0\n"
	           "lo 3 state=shutdown shut=1 quiet=1 restored=0\n");
	fclose(f);
	assert_int_equal(wdpoll_load(&g.w, g.now), 3);
	ports_prune(&g.r, &g.p);
	rig_apply(&g);
	assert_null(wdpoll_find(&g.w, "gone0"));
	assert_int_equal(rig_port(&g)->q[5].state, PFCWD_MONITORED);
	assert_int_equal(rig_port(&g)->q[3].state, PFCWD_SHUTDOWN);
	assert_int_equal(ports_find(&g.r, "lo")->watchdog.wd_shut, 1u << 3);
	f = fopen(g.w.path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		assert_null(strstr(line, "gone0"));
		assert_null(strstr(line, "lo 5 "));
		n += !strncmp(line, "lo 3 ", 5);
	}
	fclose(f);
	assert_int_equal(n, 1);
	rig_state_done(&g, dir);
	rig_free(&g);
}

/* --- the poller asleep on a software port ---
 *
 * A software port's counters are software PFC's: while its queues are
 * monitored and no MAC Control frame came, a poll finds what the last
 * did, so the poller sleeps (no poll, no timer) until a frame wakes it;
 * the sample after the wake spans from the last poll it skipped, as it
 * would have without the sleep. The reference (ROCED_WDPOLL_REFERENCE)
 * never sleeps. */
static void test_asleep_software(void **state)
{
	struct rig g;
	struct caps caps;
	struct softpfc s;
	struct softpfc_port *sp;
	struct wdpoll_port *e;
	uint64_t polls, dumps;
	double woke;

	(void)state;
	rig_init(&g);
	ports_free(&g.r);
	caps_preset(&caps, CAPS_PRESET_FULL);
	ports_init(&g.r, &caps, false);
	g.w.hw = NULL;
	softpfc_init(&s, NULL, NULL);
	assert_non_null(softpfc_port(&s, "lo", true));
	g.w.softpfc = &s;
	assert_true(rig_apply(&g)->dcb.software);
	e = wdpoll_find(&g.w, "lo");
	assert_non_null(e);
	assert_true(e->watched);
	assert_false(e->hw);
	/* the first poll starts counting: then nothing new can come but
	 * by a frame */
	assert_false(g.w.quiet);
	rig_poll(&g, false);
	assert_true(g.w.quiet);
	assert_int_equal(wdpoll_wait(&g.w, g.now), -1);
	/* ten seconds of quiet: no poll, no read of the kernel */
	polls = g.w.polls;
	dumps = g.t.dumps;
	for (int i = 0; i < 100; i++)
		rig_poll(&g, false);
	assert_int_equal(g.w.polls, polls);
	assert_int_equal(g.t.dumps, dumps);
	/* a pause comes in half a poll after a skipped poll: awake, the
	 * next poll on the grid, its sample spanning from the skipped one */
	woke = g.now + g.w.poll_ms / 2;
	sp = softpfc_port(&s, "lo", false);
	sp->c.rx_pause[3]++;
	wdpoll_wake(&g.w, woke);
	assert_false(g.w.quiet);
	assert_true(g.w.quiet_polls > 90);
	assert_true(wdpoll_wait(&g.w, woke) >= 0);
	assert_true(wdpoll_wait(&g.w, woke) <= (int)g.w.poll_ms / 2 + 1);
	assert_true(e->q[3].prev_ms == g.now);
	/* that poll reads the queue's counters: pause came */
	g.now = woke;
	rig_poll(&g, false);
	g.now -= g.w.poll_ms / 2;
	assert_int_equal(g.w.polls, polls + 1);
	assert_int_equal(g.t.dumps, dumps + 1);
	/* the reference (set at start) never sleeps */
	g.w.reference = true;
	g.w.quiet = false;
	rig_poll(&g, false);
	rig_poll(&g, false);
	assert_false(g.w.quiet);
	assert_int_equal(g.w.polls, polls + 3);
	softpfc_free(&s);
	rig_free(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_merge),
	    cmocka_unit_test(test_live),
	    cmocka_unit_test(test_storm_live),
	    cmocka_unit_test(test_storm_not_live),
	    cmocka_unit_test(test_port_multiplier),
	    cmocka_unit_test(test_no_storm),
	    cmocka_unit_test(test_adopted),
	    cmocka_unit_test(test_follows_plan),
	    cmocka_unit_test(test_record_dropped_with_port),
	    cmocka_unit_test(test_record_checked_at_start),
	    cmocka_unit_test(test_asleep_software),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
