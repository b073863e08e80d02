/* test_pfcwd_transit: the PFC watchdog (lib/pfcwd) against transit
 * back-pressure: a port held because its downstream is congested, and
 * released by XON between holds longer than the detection time, is no
 * storm; a peer that pauses forever still is (PFCWD_TRANSIT_*). The
 * holds are those measured on two tiers of bridges
 * (tests/integration/fabric_twotier.sh). */
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

/* Transit back-pressure as measured at a spine (fabric_twotier): its
 * peer, a leaf whose own queue drains at a slow bottleneck, holds it for
 * up to ~150 ms at a time (pause refreshed every few ms, the queue
 * sends nothing), then lets go (an XON) and the queue sends a burst. */
static void transit_hold(struct rig *r, double ms, bool *storm)
{
	for (double t = 0; t < ms; t += 25) {
		r->now += 25;
		r->s.pause_rx += 10;
		r->s.paused_us += 25000;
		r->s.backlog += 20;
		if (pfcwd_poll(&r->q, &r->c, &r->s, r->now) == PFCWD_EV_STORM)
			*storm = true;
	}
}

static void transit_release(struct rig *r, bool xon, bool *storm)
{
	r->now += 25;
	r->s.xon_rx += xon;
	r->s.paused_us += 2000;
	r->s.tx_packets += r->s.backlog;
	r->s.backlog = 5;
	if (pfcwd_poll(&r->q, &r->c, &r->s, r->now) == PFCWD_EV_STORM)
		*storm = true;
}

static void transit_rig(struct rig *r)
{
	bool storm = false;

	rig_init(r, 1, 10, 0); /* a switch's 100 ms */
	r->s.has_duration = true;
	r->s.has_xon = true;
	assert_int_equal(pfcwd_poll(&r->q, &r->c, &r->s, r->now += 1),
	                 PFCWD_EV_NONE);
	/* The first holds are short (the congestion is building). */
	transit_hold(r, 50, &storm);
	transit_release(r, true, &storm);
	transit_hold(r, 75, &storm);
	transit_release(r, true, &storm);
	assert_false(storm);
}

/* Holds longer than the detection time that end in a release, again and
 * again, are no storm; each storm-free hold raises the time a storm must
 * last, within the cap. */
static void test_transit_not_storm(void **state)
{
	struct rig r;
	bool storm = false;

	(void)state;
	transit_rig(&r);
	for (int i = 0; i < 40; i++) {
		transit_hold(&r, i % 3 ? 150 : 250, &storm);
		transit_release(&r, true, &storm);
	}
	assert_false(storm);
	assert_int_equal(r.q.storms, 0);
	assert_int_equal(r.q.state, PFCWD_MONITORED);
	assert_true(pfcwd_detect_ms(&r.q, &r.c, r.now) > 100);
	assert_true(pfcwd_detect_ms(&r.q, &r.c, r.now) <= PFCWD_TRANSIT_CAP_MS);
	/* The same holds on a queue its peer never released before: the
	 * first one past 100 ms is a storm (nothing tells it from one). */
	rig_init(&r, 1, 10, 0);
	r.s.has_duration = true;
	r.s.has_xon = true;
	storm = false;
	transit_hold(&r, 150, &storm);
	assert_true(storm);
}

/* Only an XON tells a release: a queue that sends while pause arrives
 * (a hold beginning, a poll late in a storm) teaches nothing, and a
 * storm right after is caught at the configured time. */
static void test_transit_no_xon(void **state)
{
	struct rig r;
	bool storm = false;

	(void)state;
	rig_init(&r, 1, 10, 0);
	r.s.has_duration = true;
	r.s.has_xon = true;
	assert_int_equal(pfcwd_poll(&r.q, &r.c, &r.s, r.now += 1),
	                 PFCWD_EV_NONE);
	for (int i = 0; i < 5; i++) {
		transit_hold(&r, 75, &storm);
		transit_release(&r, false, &storm);
	}
	assert_false(storm);
	assert_true(pfcwd_detect_ms(&r.q, &r.c, r.now) == 100);
	transit_hold(&r, 150, &storm);
	assert_true(storm);
}

/* A poll in which XON arrived is clean, however stuck the queue looks:
 * a storming peer never lets go. */
static void test_transit_xon_clean(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, 1, 10, 0);
	r.s.has_xon = true;
	assert_int_equal(pfcwd_poll(&r.q, &r.c, &r.s, r.now += 1),
	                 PFCWD_EV_NONE);
	for (int i = 0; i < 20; i++) {
		r.now += 100;
		r.s.pause_rx += 50;
		r.s.xon_rx += 1;
		r.s.backlog = 40;
		assert_int_equal(pfcwd_poll(&r.q, &r.c, &r.s, r.now),
		                 PFCWD_EV_NONE);
	}
	assert_int_equal(r.q.storms, 0);
	/* XON counted where the port does not count it: no effect. */
	r.s.has_xon = false;
	r.s.xon_rx += 1;
	assert_int_equal(rig_poll(&r, true), PFCWD_EV_STORM);
}

/* A real storm right after transit back-pressure (the peer pauses
 * forever, no XON, nothing leaves) is caught: later than the detection
 * time, never later than the cap. Once the releases are forgotten, at the
 * detection time again. */
static void test_transit_real_storm(void **state)
{
	struct rig r;
	bool storm = false;
	double from, t;

	(void)state;
	transit_rig(&r);
	for (int i = 0; i < 10; i++) {
		transit_hold(&r, 150, &storm);
		transit_release(&r, true, &storm);
	}
	assert_false(storm);
	from = r.now;
	t = pfcwd_detect_ms(&r.q, &r.c, from);
	assert_true(t >= PFCWD_TRANSIT_FACTOR * 150);
	while (!storm && r.now - from < 10000)
		transit_hold(&r, 25, &storm);
	assert_true(storm);
	assert_true(r.now - from >= t - 25);
	assert_true(r.now - from <= PFCWD_TRANSIT_CAP_MS + 50);
	/* restored, then quiet for longer than the memory: a storm takes
	 * the configured 100 ms again */
	assert_int_equal(rig_until(&r, false, PFCWD_EV_RESTORE, 400) > 0, 1);
	r.now += PFCWD_TRANSIT_MEMORY_MS + 1000;
	assert_int_equal(pfcwd_poll(&r.q, &r.c, &r.s, r.now), PFCWD_EV_NONE);
	assert_true(pfcwd_detect_ms(&r.q, &r.c, r.now) == 100);
	from = r.now;
	storm = false;
	while (!storm && r.now - from < 1000)
		transit_hold(&r, 25, &storm);
	assert_true(storm);
	assert_true(r.now - from <= 150);
}

/* A port whose LLDP neighbour is a switch: its pause is transit
 * back-pressure from the first hold on (a tier's holds grow with the
 * tiers behind it, the first one too, 8.9 times from the first to the
 * second): a storm from it is caught at PFCWD_TRANSIT_SWITCH_MS, or 8 x
 * its longest recent released hold, up to PFCWD_TRANSIT_SWITCH_MAX_MS; a
 * host's at the configured time. */
static void test_transit_switch_peer(void **state)
{
	struct rig r;
	bool storm = false;
	double from, t;

	(void)state;
	rig_init(&r, 1, 10, 0);
	r.c.switch_peer = true;
	r.c.switch_port = true;
	r.s.has_duration = true;
	r.s.has_xon = true;
	assert_true(pfcwd_detect_ms(&r.q, &r.c, r.now) ==
	            PFCWD_TRANSIT_SWITCH_MS);
	/* holds growing 20-fold at once (150 ms, then 3 s): no storm */
	for (int i = 0; i < 10; i++) {
		transit_hold(&r, i ? 3000 : 150, &storm);
		transit_release(&r, true, &storm);
	}
	assert_false(storm);
	/* 8 x the longest released hold (~3 s), beyond the floor */
	from = r.now;
	t = pfcwd_detect_ms(&r.q, &r.c, from);
	assert_true(t >= PFCWD_TRANSIT_FACTOR * 3000 &&
	            t <= PFCWD_TRANSIT_FACTOR * 3100);
	while (!storm && r.now - from < 40000)
		transit_hold(&r, 25, &storm);
	assert_true(storm);
	assert_true(r.now - from >= t - 25);
	assert_true(r.now - from <= t + 50);
	/* never beyond the switch's maximum, however long the holds */
	r.q.rel_hold_ms = 3600000;
	r.q.rel_ms = r.now;
	assert_true(pfcwd_detect_ms(&r.q, &r.c, r.now) ==
	            PFCWD_TRANSIT_SWITCH_MAX_MS);
	/* a configured time beyond the floor stays */
	r.q.rel_ms = 0;
	r.c.detect_ms = 25000;
	assert_true(pfcwd_detect_ms(&r.q, &r.c, r.now) == 25000);
	/* a host's port facing its switch: its own time (3 s) before any
	 * transit, then 8 x the longest released hold, beyond 2 s */
	rig_init(&r, 30, 10, 0);
	r.c.switch_peer = true;
	r.s.has_duration = true;
	r.s.has_xon = true;
	assert_true(pfcwd_detect_ms(&r.q, &r.c, r.now) == 3000);
	storm = false;
	for (int i = 0; i < 5; i++) {
		transit_hold(&r, i ? 1000 : 150, &storm);
		transit_release(&r, true, &storm);
	}
	assert_false(storm);
	assert_true(pfcwd_detect_ms(&r.q, &r.c, r.now) >= 8000);
	/* a host peer: 100 ms */
	rig_init(&r, 1, 10, 0);
	r.s.has_duration = true;
	storm = false;
	transit_hold(&r, 150, &storm);
	assert_true(storm);
}

/* A host's port whose switch released it once (a first hold of 40 ms,
 * as on leaf-spine) then holds it for 6 s while the switch waits for
 * its own turn to be released (staggered XON upstream): transit, up to
 * the switch's floor, not a storm at the host's 3 s. A switch that never
 * released it is still a storm at 3 s, unless it says it is held itself
 * (then at the floor); one that holds it past the floor after a release
 * is one then. */
static void test_transit_host_released(void **state)
{
	struct rig r;
	bool storm = false;
	double from;

	(void)state;
	rig_init(&r, 30, 10, 0);
	r.c.switch_peer = true;
	r.s.has_duration = true;
	r.s.has_xon = true;
	assert_int_equal(pfcwd_poll(&r.q, &r.c, &r.s, r.now += 1),
	                 PFCWD_EV_NONE);
	transit_hold(&r, 50, &storm);
	transit_release(&r, true, &storm);
	assert_true(pfcwd_detect_ms(&r.q, &r.c, r.now) ==
	            PFCWD_TRANSIT_SWITCH_MS);
	transit_hold(&r, 6000, &storm);
	transit_release(&r, true, &storm);
	assert_false(storm);
	assert_int_equal(r.q.storms, 0);
	/* then it never lets go: caught, at the switch's maximum at most */
	from = r.now;
	while (!storm && r.now - from < 40000)
		transit_hold(&r, 25, &storm);
	assert_true(storm);
	assert_true(r.now - from >= PFCWD_TRANSIT_SWITCH_MS);
	assert_true(r.now - from <= PFCWD_TRANSIT_SWITCH_MAX_MS + 50);
	/* never released: a storm at the host's 3 s */
	rig_init(&r, 30, 10, 0);
	r.c.switch_peer = true;
	r.s.has_duration = true;
	r.s.has_xon = true;
	assert_int_equal(pfcwd_poll(&r.q, &r.c, &r.s, r.now += 1),
	                 PFCWD_EV_NONE);
	storm = false;
	from = r.now;
	while (!storm && r.now - from < 10000)
		transit_hold(&r, 25, &storm);
	assert_true(storm);
	assert_true(r.now - from >= 3000 && r.now - from <= 3050);
	/* never released, but the switch says it is held itself (its wait
	 * chains): transit from the first hold, a storm at the floor */
	rig_init(&r, 30, 10, 0);
	r.c.switch_peer = true;
	r.c.peer_waits = true;
	r.s.has_duration = true;
	r.s.has_xon = true;
	assert_int_equal(pfcwd_poll(&r.q, &r.c, &r.s, r.now += 1),
	                 PFCWD_EV_NONE);
	storm = false;
	from = r.now;
	while (!storm && r.now - from < 40000)
		transit_hold(&r, 25, &storm);
	assert_true(storm);
	assert_true(r.now - from >= PFCWD_TRANSIT_SWITCH_MS &&
	            r.now - from <= PFCWD_TRANSIT_SWITCH_MS + 50);
	/* a host saying so changes nothing: 100 ms */
	rig_init(&r, 1, 10, 0);
	r.c.peer_waits = true;
	r.s.has_duration = true;
	storm = false;
	transit_hold(&r, 150, &storm);
	assert_true(storm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_transit_not_storm),
	    cmocka_unit_test(test_transit_xon_clean),
	    cmocka_unit_test(test_transit_no_xon),
	    cmocka_unit_test(test_transit_real_storm),
	    cmocka_unit_test(test_transit_switch_peer),
	    cmocka_unit_test(test_transit_host_released),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
