/* test_pfcwd: the PFC watchdog's state machine (lib/pfcwd) as a function
 * of counters and time: each rule of the storm condition, detection,
 * the actions, the restores and their backoff, and the complaints users
 * made of other vendors' watchdogs (false storms, restores on unread
 * pause, flapping), one test each. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "base/diag.h"
#include "model/policy.h"
#include "pfcwd/pfcwd.h"
#include "pfcwd_rig.h"

static void test_names(void **state)
{
	(void)state;
	for (unsigned i = 0; i < PFCWD_NSTATES; i++)
		assert_int_equal(pfcwd_state_parse(pfcwd_state_name(i)), i);
	assert_string_equal(pfcwd_state_name(PFCWD_WAIT_SHUTDOWN),
	                    "wait-to-shutdown");
	assert_int_equal(pfcwd_state_parse("bogus"), -1);
	assert_string_equal(pfcwd_state_name(99), "?");
	for (unsigned i = 0; i < POLICY_PFCWD_NACTIONS; i++)
		assert_int_equal(
		    policy_pfcwd_action_parse(policy_pfcwd_action_name(i)), i);
	char buf[64];
	policy_pfcwd_action_expected(buf, sizeof(buf));
	assert_string_equal(buf, "drop, forward or alert");
}

/* Detection after shutdown-multiplier polls of the condition, through
 * wait-to-shutdown; the action's input follows. */
static void test_detect(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, 3, 10, 0);
	assert_int_equal(rig_poll(&r, true), PFCWD_EV_NONE);
	assert_int_equal(r.q.state, PFCWD_WAIT_SHUTDOWN);
	assert_false(pfcwd_mitigating(&r.q, &r.c));
	assert_int_equal(rig_poll(&r, true), PFCWD_EV_NONE);
	assert_int_equal(rig_poll(&r, true), PFCWD_EV_STORM);
	assert_int_equal(r.q.state, PFCWD_SHUTDOWN);
	assert_true(pfcwd_mitigating(&r.q, &r.c));
	assert_int_equal(r.q.storms, 1);
	assert_true(r.q.last_storm_ms == r.now);
	/* drop flushes what the queue held */
	assert_int_equal(r.q.drained, 40);
}

/* A clean poll resets the detection. */
static void test_clean_poll_resets(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, 3, 10, 0);
	for (int i = 0; i < 20; i++) {
		assert_int_equal(rig_poll(&r, true), PFCWD_EV_NONE);
		assert_int_equal(rig_poll(&r, true), PFCWD_EV_NONE);
		assert_int_equal(rig_poll(&r, false), PFCWD_EV_NONE);
		assert_int_equal(r.q.state, PFCWD_MONITORED);
	}
	assert_int_equal(r.q.storms, 0);
}

/* Each part of the condition is needed: pause received, a backlog,
 * nothing transmitted. */
static void test_condition_parts(void **state)
{
	struct rig r;

	(void)state;
	/* pause received, queue stuck, but the queue is empty */
	rig_init(&r, 1, 10, 0);
	for (int i = 0; i < 10; i++) {
		r.now += 100;
		r.s.pause_rx += 10;
		r.s.backlog = 0;
		assert_int_equal(pfcwd_poll(&r.q, &r.c, &r.s, r.now),
		                 PFCWD_EV_NONE);
	}
	/* pause and backlog, but the queue still sends: heavy, not dead */
	for (int i = 0; i < 10; i++) {
		r.now += 100;
		r.s.pause_rx += 10;
		r.s.backlog = 100;
		r.s.tx_packets += 1;
		assert_int_equal(pfcwd_poll(&r.q, &r.c, &r.s, r.now),
		                 PFCWD_EV_NONE);
	}
	/* backlog and no tx, but no pause: a stuck queue is not PFC's */
	for (int i = 0; i < 10; i++) {
		r.now += 100;
		r.s.backlog = 100;
		assert_int_equal(pfcwd_poll(&r.q, &r.c, &r.s, r.now),
		                 PFCWD_EV_NONE);
	}
	assert_int_equal(r.q.state, PFCWD_MONITORED);
	/* all three: a storm */
	assert_int_equal(rig_poll(&r, true), PFCWD_EV_STORM);
}

/* Where a pause-duration counter exists, paused > 99 % of the poll is
 * needed too (the rule that replaced false alarms at Mellanox). */
static void test_duration(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, 1, 10, 0);
	r.s.has_duration = true;
	r.now += 100;
	r.s.pause_rx += 5;
	r.s.backlog = 10;
	r.s.paused_us += 90000; /* 90 % of 100 ms */
	assert_int_equal(pfcwd_poll(&r.q, &r.c, &r.s, r.now), PFCWD_EV_NONE);
	assert_int_equal(r.q.state, PFCWD_MONITORED);
	r.now += 100;
	r.s.pause_rx += 5;
	r.s.paused_us += 99900;
	assert_int_equal(pfcwd_poll(&r.q, &r.c, &r.s, r.now), PFCWD_EV_STORM);
}

/* Paused all along (the duration counter covers the poll) yet a frame
 * left now and then: a software hold's leak, not progress, as long as
 * fewer packets left than still wait. Without the duration counter, or
 * once the queue drains what it holds, the poll is clean. */
static void test_leak(void **state)
{
	struct rig r;
	int i;

	(void)state;
	rig_init(&r, 20, 10, 0);
	r.s.has_duration = true;
	for (i = 1; i <= 30; i++) {
		r.now += 100;
		r.s.pause_rx += 100;
		r.s.paused_us += 100000;
		r.s.backlog = 28;
		r.s.tx_packets += i % 3 == 0; /* a frame every 300 ms */
		if (pfcwd_poll(&r.q, &r.c, &r.s, r.now) == PFCWD_EV_STORM)
			break;
	}
	assert_int_equal(i, 20);
	/* A queue that drains what it holds while paused all along is no
	 * storm (its hold does not hold). */
	rig_init(&r, 2, 10, 0);
	r.s.has_duration = true;
	for (i = 0; i < 10; i++) {
		r.now += 100;
		r.s.pause_rx += 100;
		r.s.paused_us += 100000;
		r.s.backlog = 28;
		r.s.tx_packets += 28;
		assert_int_equal(pfcwd_poll(&r.q, &r.c, &r.s, r.now),
		                 PFCWD_EV_NONE);
	}
	/* Without the duration counter, a frame sent is a clean poll. */
	rig_init(&r, 2, 10, 0);
	for (i = 0; i < 10; i++) {
		r.now += 100;
		r.s.pause_rx += 100;
		r.s.backlog = 28;
		r.s.tx_packets += i % 2;
		assert_int_equal(pfcwd_poll(&r.q, &r.c, &r.s, r.now),
		                 PFCWD_EV_NONE);
	}
}

/* sonic-swss#4581: an XON storm (pause frames with quanta 0) is not a
 * pause storm. XON frames are never in pause_rx, so the queue, however
 * stuck, is not shut for them. */
static void test_xon_storm(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, 1, 10, 0);
	for (int i = 0; i < 50; i++) {
		r.now += 100;
		r.s.backlog = 500; /* the XONs do not move it either */
		assert_int_equal(pfcwd_poll(&r.q, &r.c, &r.s, r.now),
		                 PFCWD_EV_NONE);
	}
	assert_int_equal(r.q.storms, 0);
}

/* Auto-restore after auto-restore-multiplier x interval with no pause;
 * pause that goes on while shut keeps the queue shut. */
static void test_auto_restore(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, 1, 10, 0);
	assert_int_equal(rig_poll(&r, true), PFCWD_EV_STORM);
	/* The queue is flushed (backlog 0), pause keeps coming. */
	for (int i = 0; i < 50; i++) {
		r.now += 100;
		r.s.pause_rx += 50;
		r.s.backlog = 0;
		assert_int_equal(pfcwd_poll(&r.q, &r.c, &r.s, r.now),
		                 PFCWD_EV_NONE);
	}
	assert_int_equal(r.q.state, PFCWD_SHUTDOWN);
	/* The storm stops: restore after 10 polls of silence. */
	double stop = r.now;
	assert_int_equal(rig_until(&r, false, PFCWD_EV_RESTORE, 30), 10);
	assert_true(r.now - stop <= 10 * 100 + 100);
	assert_int_equal(r.q.state, PFCWD_RESTORED);
	assert_false(pfcwd_mitigating(&r.q, &r.c));
	assert_int_equal(r.q.restores, 1);
	/* probation passes without storm: monitored, backoff forgotten */
	assert_int_equal(rig_until(&r, false, PFCWD_EV_STORM, 15), -1);
	assert_int_equal(r.q.state, PFCWD_MONITORED);
	assert_int_equal(r.q.backoff, 0);
}

/* sonic-buildimage#29203: hardware that stops counting pause once PFC is
 * off makes "no pause for the restore time" true while the storm goes
 * on, and the queue flaps. With a counter that is not live while shut,
 * the restore is only a trial, and each storm on probation doubles the
 * wait, up to the cap: the flapping slows to a crawl. */
static void test_no_false_restore(void **state)
{
	struct rig r;
	int waits[8];

	(void)state;
	rig_init(&r, 1, 10, 0);
	r.s.rx_live = false;
	assert_int_equal(rig_poll(&r, true), PFCWD_EV_STORM);
	for (int k = 0; k < 8; k++) {
		/* shut: the NIC counts nothing, the storm goes on */
		int n = 0;
		enum pfcwd_event ev;

		do {
			r.now += 100;
			r.s.backlog = 0;
			ev = pfcwd_poll(&r.q, &r.c, &r.s, r.now);
			n++;
		} while (ev != PFCWD_EV_RESTORE && n < 100000);
		waits[k] = n;
		assert_true(r.q.probe);
		/* restored on trial: the storm is still there */
		assert_int_equal(rig_poll(&r, true), PFCWD_EV_STORM);
	}
	assert_int_equal(waits[0], 10);
	assert_int_equal(waits[1], 20);
	assert_int_equal(waits[2], 40);
	assert_int_equal(waits[5], 320);
	assert_int_equal(waits[6], 320); /* the cap (x 32) */
	assert_int_equal(r.q.backoff, PFCWD_BACKOFF_MAX);

	/* With a live counter the same storm never restores at all. */
	rig_init(&r, 1, 10, 0);
	assert_int_equal(rig_poll(&r, true), PFCWD_EV_STORM);
	for (int i = 0; i < 1000; i++) {
		r.now += 100;
		r.s.pause_rx += 7;
		r.s.backlog = 0;
		assert_int_equal(pfcwd_poll(&r.q, &r.c, &r.s, r.now),
		                 PFCWD_EV_NONE);
	}
	assert_int_equal(r.q.restores, 0);
}

/* Restore backoff with a live counter: a storm right after a restore
 * doubles the wait; one long after it does not. */
static void test_backoff(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, 1, 10, 0);
	assert_int_equal(rig_poll(&r, true), PFCWD_EV_STORM);
	assert_int_equal(rig_until(&r, false, PFCWD_EV_RESTORE, 50), 10);
	assert_int_equal(rig_poll(&r, true), PFCWD_EV_STORM);
	assert_int_equal(r.q.backoff, 1);
	assert_int_equal(rig_until(&r, false, PFCWD_EV_RESTORE, 50), 20);
	/* a long clean run: back to monitored, backoff 0 */
	assert_int_equal(rig_until(&r, false, PFCWD_EV_STORM, 60), -1);
	assert_int_equal(r.q.backoff, 0);
	assert_int_equal(rig_poll(&r, true), PFCWD_EV_STORM);
	assert_int_equal(rig_until(&r, false, PFCWD_EV_RESTORE, 50), 10);
}

/* Fixed restore: after fixed-restore-multiplier x interval whatever
 * happens. */
static void test_fixed_restore(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, 1, 0, 5);
	assert_int_equal(rig_poll(&r, true), PFCWD_EV_STORM);
	assert_int_equal(rig_until(&r, true, PFCWD_EV_RESTORE, 50), 5);
	/* no auto and no fixed: shut until recovered by hand */
	rig_init(&r, 1, 0, 0);
	assert_int_equal(rig_poll(&r, true), PFCWD_EV_STORM);
	assert_int_equal(rig_until(&r, false, PFCWD_EV_RESTORE, 500), -1);
	assert_true(pfcwd_restore_due(&r.q, &r.c) < 0);
	assert_int_equal(pfcwd_recover(&r.q, r.now), PFCWD_EV_RESTORE);
	assert_int_equal(r.q.state, PFCWD_MONITORED);
}

/* `priority-flow-control recover`: restores at once, forgets the
 * backoff; on a queue that is not shut it does nothing. */
static void test_recover(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, 1, 10, 0);
	assert_int_equal(pfcwd_recover(&r.q, r.now), PFCWD_EV_NONE);
	assert_int_equal(rig_poll(&r, true), PFCWD_EV_STORM);
	assert_int_equal(rig_until(&r, false, PFCWD_EV_RESTORE, 50), 10);
	assert_int_equal(rig_poll(&r, true), PFCWD_EV_STORM);
	assert_int_equal(r.q.backoff, 1);
	assert_int_equal(pfcwd_recover(&r.q, r.now), PFCWD_EV_RESTORE);
	assert_int_equal(r.q.backoff, 0);
	assert_false(pfcwd_mitigating(&r.q, &r.c));
	assert_int_equal(r.q.restores, 2);
	/* no probation after a manual recover */
	assert_int_equal(rig_poll(&r, true), PFCWD_EV_STORM);
	assert_int_equal(r.q.backoff, 0);
}

/* sonic-buildimage#19067: the drop counters are the packets really
 * dropped: what the flush took and what the queue dropped while shut,
 * nothing before the storm nor after the restore. */
static void test_drop_counters(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, 1, 10, 0);
	r.s.drops = 500; /* before the storm: not the watchdog's */
	assert_int_equal(rig_poll(&r, true), PFCWD_EV_STORM);
	assert_int_equal(r.q.drained, 40);
	for (int i = 0; i < 5; i++) {
		r.now += 100;
		r.s.pause_rx += 1;
		r.s.drops += 30;
		r.s.backlog = 0;
		pfcwd_poll(&r.q, &r.c, &r.s, r.now);
	}
	assert_int_equal(r.q.dropped, 150);
	assert_int_equal(rig_until(&r, false, PFCWD_EV_RESTORE, 50), 10);
	r.s.drops += 1000; /* after: not the watchdog's either */
	rig_poll(&r, false);
	assert_int_equal(r.q.dropped, 150);
	/* forward and alert drain nothing */
	rig_init(&r, 1, 10, 0);
	r.c.action = POLICY_PFCWD_FORWARD;
	assert_int_equal(rig_poll(&r, true), PFCWD_EV_STORM);
	assert_int_equal(r.q.drained, 0);
	assert_true(pfcwd_mitigating(&r.q, &r.c));
	pfcwd_clear(&r.q);
	assert_int_equal(r.q.storms, 0);
	assert_int_equal(r.q.state, PFCWD_SHUTDOWN);
}

/* Each storm has its own counts (its restore's log line, show's "Total
 * pkts drained/dropped"), while the totals add every storm up; a clear
 * resets the totals and leaves the last storm's counts, which a restart
 * keeps too. */
static void test_storm_counts(void **state)
{
	struct rig r;
	struct pfcwd_queue q2;
	char line[512];

	(void)state;
	rig_init(&r, 1, 10, 0);
	assert_int_equal(rig_poll(&r, true), PFCWD_EV_STORM);
	for (int i = 0; i < 3; i++) {
		r.now += 100;
		r.s.pause_rx += 1;
		r.s.drops += 30;
		r.s.backlog = 0;
		pfcwd_poll(&r.q, &r.c, &r.s, r.now);
	}
	assert_int_equal(r.q.storm_drained, 40);
	assert_int_equal(r.q.storm_dropped, 90);
	assert_int_equal(rig_until(&r, false, PFCWD_EV_RESTORE, 50), 10);
	/* a second storm: 40 flushed again, 7 dropped while shut */
	assert_int_equal(rig_poll(&r, true), PFCWD_EV_STORM);
	assert_int_equal(r.q.storm_drained, 40);
	assert_int_equal(r.q.storm_dropped, 0);
	r.now += 100;
	r.s.pause_rx += 1;
	r.s.drops += 7;
	r.s.backlog = 0;
	pfcwd_poll(&r.q, &r.c, &r.s, r.now);
	assert_int_equal(r.q.storm_dropped, 7);
	assert_int_equal(r.q.drained, 80);
	assert_int_equal(r.q.dropped, 97);
	assert_int_equal(r.q.storms, 2);
	/* kept across a restart */
	assert_true(pfcwd_format(&r.q, line, sizeof(line)) < (int)sizeof(line));
	assert_int_equal(pfcwd_parse(&q2, line, r.now), 0);
	assert_int_equal(q2.storm_drained, 40);
	assert_int_equal(q2.storm_dropped, 7);
	/* a clear: the totals only */
	pfcwd_clear(&r.q);
	assert_int_equal(r.q.dropped, 0);
	assert_int_equal(r.q.drained, 0);
	assert_int_equal(r.q.storm_drained, 40);
	assert_int_equal(r.q.storm_dropped, 7);
}

/* alert: the storm is seen and logged (an event), the queue left alone. */
static void test_alert(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, 1, 10, 0);
	r.c.action = POLICY_PFCWD_ALERT;
	assert_int_equal(rig_poll(&r, true), PFCWD_EV_STORM);
	assert_false(pfcwd_mitigating(&r.q, &r.c));
	/* pause honoured, the storm goes on: no restore, no second event */
	for (int i = 0; i < 100; i++)
		assert_int_equal(rig_poll(&r, true), PFCWD_EV_NONE);
	assert_int_equal(rig_until(&r, false, PFCWD_EV_RESTORE, 50), 10);
}

/* A counter that goes back (port replaced, counters cleared) is a new
 * start, not a huge delta. */
static void test_counter_reset(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, 2, 10, 0);
	assert_int_equal(rig_poll(&r, true), PFCWD_EV_NONE);
	r.now += 100;
	r.s.pause_rx = 3;
	r.s.tx_packets = 0;
	assert_int_equal(pfcwd_poll(&r.q, &r.c, &r.s, r.now), PFCWD_EV_NONE);
	assert_int_equal(r.q.state, PFCWD_MONITORED);
	/* the same time twice is no poll */
	assert_int_equal(pfcwd_poll(&r.q, &r.c, &r.s, r.now), PFCWD_EV_NONE);
}

/* A poll that comes late covers the detection time by itself (without a
 * pause-duration counter the counters are the truth: the queue sent
 * nothing for all that time). One a little early does not count as a
 * whole poll: the storm waits for the sample at its due time. */
static void test_poll_jitter(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, 3, 10, 0);
	r.now += 320;
	r.s.pause_rx += 10;
	r.s.backlog = 5;
	assert_int_equal(pfcwd_poll(&r.q, &r.c, &r.s, r.now), PFCWD_EV_STORM);
	rig_init(&r, 3, 10, 0);
	for (int i = 0; i < 3; i++) {
		r.now += 95;
		r.s.pause_rx += 10;
		r.s.backlog = 5;
		assert_int_equal(pfcwd_poll(&r.q, &r.c, &r.s, r.now),
		                 PFCWD_EV_NONE);
	}
	/* the condition began at the first sample, 1000 */
	assert_true(pfcwd_due(&r.q, &r.c) == 1000.0 + 300.0);
	r.now = 1300.0;
	r.s.pause_rx += 10;
	assert_int_equal(pfcwd_poll(&r.q, &r.c, &r.s, r.now), PFCWD_EV_STORM);
}

/* Detection when the condition has held for the detection time, at the
 * sample taken when it is due, and never sooner: a sample that comes
 * 80 ms into the condition (the queue was first sampled just after its
 * hold began, between two polls) is not a whole poll of it. */
static void test_due(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, 1, 10, 0);
	assert_true(pfcwd_due(&r.q, &r.c) < 0);
	/* traffic up to a sample taken just after the hold began */
	r.now += 20;
	r.s.tx_packets += 100;
	r.s.pause_rx += 1;
	r.s.backlog = 7;
	assert_int_equal(pfcwd_poll(&r.q, &r.c, &r.s, r.now), PFCWD_EV_NONE);
	double held = r.now;
	/* the regular poll, 80 ms later: the condition, not long enough */
	r.now += 80;
	r.s.pause_rx += 40;
	assert_int_equal(pfcwd_poll(&r.q, &r.c, &r.s, r.now), PFCWD_EV_NONE);
	assert_int_equal(r.q.state, PFCWD_WAIT_SHUTDOWN);
	assert_true(pfcwd_due(&r.q, &r.c) == held + 100.0);
	/* the due sample: a storm, 100 ms after the condition began */
	r.now = held + 100.0;
	r.s.pause_rx += 10;
	assert_int_equal(pfcwd_poll(&r.q, &r.c, &r.s, r.now), PFCWD_EV_STORM);
	assert_true(r.q.last_storm_ms == held + 100.0);
	/* shut: the next due time is the restore's */
	assert_true(pfcwd_due(&r.q, &r.c) == pfcwd_restore_due(&r.q, &r.c));
}

/* A poll that comes far too late because the daemon was not scheduled:
 * on a software port the queue stayed held because roced could not
 * release it, not because the peer paused all that time. The pause-
 * duration counter (software PFC's time paused, as the peer asked) says
 * so, and the poll is not the storm condition. */
static void test_late_poll_duration(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, 1, 10, 0);
	r.s.has_duration = true;
	r.now += 320;
	r.s.pause_rx += 200;
	r.s.backlog = 30;
	r.s.paused_us += 3 * 70000; /* 70 ms of every 100 */
	assert_int_equal(pfcwd_poll(&r.q, &r.c, &r.s, r.now), PFCWD_EV_NONE);
	assert_int_equal(r.q.state, PFCWD_MONITORED);
	/* a real storm: paused all the time */
	r.now += 320;
	r.s.pause_rx += 640;
	r.s.paused_us += 320000;
	assert_int_equal(pfcwd_poll(&r.q, &r.c, &r.s, r.now), PFCWD_EV_STORM);
}

/* Where the port dates its last pause frame, the quiet time of a shut
 * queue starts then, not at the poll that saw it: the restore comes
 * auto-restore time after the storm really stopped. */
static void test_quiet_from_last_pause(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, 1, 10, 0);
	assert_int_equal(rig_poll(&r, true), PFCWD_EV_STORM);
	r.now += 100;
	r.s.pause_rx += 30;
	r.s.backlog = 0;
	r.s.last_pause_ms = r.now - 60; /* the storm stopped 60 ms ago */
	assert_int_equal(pfcwd_poll(&r.q, &r.c, &r.s, r.now), PFCWD_EV_NONE);
	assert_true(pfcwd_restore_due(&r.q, &r.c) == r.s.last_pause_ms + 1000);
	assert_true(pfcwd_due(&r.q, &r.c) == r.s.last_pause_ms + 1000);
	r.now = r.s.last_pause_ms + 998;
	assert_int_equal(pfcwd_poll(&r.q, &r.c, &r.s, r.now), PFCWD_EV_NONE);
	r.now = r.s.last_pause_ms + 1000;
	assert_int_equal(pfcwd_poll(&r.q, &r.c, &r.s, r.now), PFCWD_EV_RESTORE);
	/* a date from the future (another clock) is not believed */
	rig_init(&r, 1, 10, 0);
	assert_int_equal(rig_poll(&r, true), PFCWD_EV_STORM);
	r.now += 100;
	r.s.pause_rx += 30;
	r.s.last_pause_ms = r.now + 5000;
	assert_int_equal(pfcwd_poll(&r.q, &r.c, &r.s, r.now), PFCWD_EV_NONE);
	assert_true(pfcwd_restore_due(&r.q, &r.c) == r.now + 1000);
}

/* sonic-swss#4667: after a restart, an ongoing storm is not forgotten,
 * and a queue that had recovered is not blackholed. */
static void test_restart(void **state)
{
	struct rig r;
	struct pfcwd_queue q2;
	char line[512];

	(void)state;
	rig_init(&r, 1, 10, 0);
	assert_int_equal(rig_poll(&r, true), PFCWD_EV_STORM);
	assert_true(pfcwd_format(&r.q, line, sizeof(line)) < (int)sizeof(line));
	/* roced restarts 2 s later */
	r.now += 2000;
	assert_int_equal(pfcwd_parse(&q2, line, r.now), 0);
	assert_int_equal(q2.state, PFCWD_SHUTDOWN);
	assert_true(pfcwd_mitigating(&q2, &r.c));
	assert_int_equal(q2.storms, 1);
	assert_int_equal(q2.drained, 40);
	/* counters start from scratch (roced's own are new); the storm
	 * continues: stays shut; then stops: restored on time */
	r.q = q2;
	r.s.pause_rx = 0;
	r.s.tx_packets = 0;
	assert_int_equal(pfcwd_poll(&r.q, &r.c, &r.s, r.now), PFCWD_EV_NONE);
	assert_int_equal(rig_until(&r, true, PFCWD_EV_RESTORE, 30), -1);
	assert_int_equal(rig_until(&r, false, PFCWD_EV_RESTORE, 30), 10);
	/* restored, saved, restarted: not shut */
	pfcwd_format(&r.q, line, sizeof(line));
	assert_int_equal(pfcwd_parse(&q2, line, r.now + 10), 0);
	assert_int_equal(q2.state, PFCWD_RESTORED);
	assert_false(pfcwd_mitigating(&q2, &r.c));
	/* a detection in progress starts over */
	rig_init(&r, 3, 10, 0);
	rig_poll(&r, true);
	pfcwd_format(&r.q, line, sizeof(line));
	assert_int_equal(pfcwd_parse(&q2, line, r.now), 0);
	assert_int_equal(q2.state, PFCWD_MONITORED);
	/* times from another boot are clamped to the load time */
	assert_int_equal(pfcwd_parse(&q2,
	                             "state=shutdown shut=99999999 "
	                             "last-storm=99999999",
	                             50.0),
	                 0);
	assert_true(q2.shut_ms == 50.0);
	/* garbage is refused, whole */
	assert_int_equal(pfcwd_parse(&q2, "state=on-fire", 1), -EINVAL);
	assert_int_equal(pfcwd_parse(&q2, "storms=1", 1), -EINVAL);
	assert_int_equal(pfcwd_parse(&q2, "state=shutdown storms=-1", 1),
	                 -EINVAL);
	assert_int_equal(pfcwd_parse(&q2, "state=shutdown shut=nan", 1),
	                 -EINVAL);
	assert_int_equal(pfcwd_parse(&q2, "state=shutdown junk", 1), -EINVAL);
	/* a later roced's keys are skipped */
	assert_int_equal(pfcwd_parse(&q2, "state=monitored future=1", 1), 0);
}

/* sonic-buildimage#27865: a detection time shorter than the poll is
 * refused by the config check, at its line. */
static void test_detect_below_poll(void **state)
{
	struct policy p;
	struct diag d;

	(void)state;
	policy_init(&p);
	diag_init(&d, "roced.conf");
	p.pfcwd.shutdown_mult = 0;
	p.pfcwd.shutdown_line = 42;
	assert_true(policy_validate(&p, &d) > 0);
	assert_int_equal(d.v[0].line, 42);
	assert_non_null(strstr(d.v[0].text, "shorter than the poll"));
	diag_free(&d);
}

/* sonic-buildimage#19067: drop counters that do not match real drops.
 * The shut leaf is replaced at the restore, and what it dropped between
 * the restore's sample and the apply went with its own counter; the
 * parent class's count survives the change of leaf, and the sample after
 * the apply settles it (pfcwd_tail) before the restore is reported. */
static void test_class_drops(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, 1, 3, 0);
	r.s.has_class_drops = true;
	r.s.class_drops = 7; /* drops of an earlier life: not ours */
	assert_int_equal(rig_poll(&r, true), PFCWD_EV_STORM);
	/* shut: the leaf is a new fifo (its counter starts again), the
	 * class goes on counting */
	r.s.drops = 0;
	for (int i = 0; i < 2; i++) {
		r.now += 100;
		r.s.pause_rx += 10;
		r.s.drops += 100;
		r.s.class_drops += 100;
		assert_int_equal(pfcwd_poll(&r.q, &r.c, &r.s, r.now),
		                 PFCWD_EV_NONE);
	}
	assert_int_equal(r.q.dropped, 200);
	/* quiet: restored at the third poll; 100 dropped meanwhile */
	int n = 0;
	enum pfcwd_event ev = PFCWD_EV_NONE;
	while (ev != PFCWD_EV_RESTORE && n++ < 10) {
		r.now += 100;
		r.s.drops += 100;
		r.s.class_drops += 100;
		ev = pfcwd_poll(&r.q, &r.c, &r.s, r.now);
	}
	assert_int_equal(ev, PFCWD_EV_RESTORE);
	uint64_t at_restore = r.q.dropped;
	assert_true(r.q.tail);
	/* the leaf dropped 4 more before the apply replaced it: the sample
	 * after the apply (a new leaf, counters from 0) counts them */
	r.now += 10;
	r.s.drops = 0;
	r.s.class_drops += 4;
	r.s.tx_packets += 50;
	assert_false(pfcwd_tail(&r.q, &(struct pfcwd_sample){0}));
	assert_true(pfcwd_tail(&r.q, &r.s));
	assert_int_equal(r.q.dropped, at_restore + 4);
	assert_false(r.q.tail);
	/* nothing pending: complete at once */
	assert_true(pfcwd_tail(&r.q, &r.s));
	/* without class counters, no tail is pending */
	rig_init(&r, 1, 3, 0);
	assert_int_equal(rig_poll(&r, true), PFCWD_EV_STORM);
	assert_int_equal(pfcwd_recover(&r.q, r.now + 1), PFCWD_EV_RESTORE);
	assert_false(r.q.tail);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_names),
	    cmocka_unit_test(test_detect),
	    cmocka_unit_test(test_clean_poll_resets),
	    cmocka_unit_test(test_condition_parts),
	    cmocka_unit_test(test_duration),
	    cmocka_unit_test(test_xon_storm),
	    cmocka_unit_test(test_auto_restore),
	    cmocka_unit_test(test_no_false_restore),
	    cmocka_unit_test(test_backoff),
	    cmocka_unit_test(test_fixed_restore),
	    cmocka_unit_test(test_recover),
	    cmocka_unit_test(test_drop_counters),
	    cmocka_unit_test(test_alert),
	    cmocka_unit_test(test_counter_reset),
	    cmocka_unit_test(test_poll_jitter),
	    cmocka_unit_test(test_due),
	    cmocka_unit_test(test_late_poll_duration),
	    cmocka_unit_test(test_quiet_from_last_pause),
	    cmocka_unit_test(test_class_drops),
	    cmocka_unit_test(test_restart),
	    cmocka_unit_test(test_storm_counts),
	    cmocka_unit_test(test_detect_below_poll),
	    cmocka_unit_test(test_leak),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
