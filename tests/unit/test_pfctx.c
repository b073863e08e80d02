/* test_pfctx: software PFC's transmit decisions (lib/pfcwd/pfctx) as a
 * function of backlog and time: pause at xoff, refresh while above xon,
 * XON once at or below it, the staggered XONs of the feeders the first
 * left paused, the default thresholds (room above xon for a released
 * feeder's burst), and the poll's pace (fast while busy and for a
 * linger after, idle otherwise). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "pfcwd/pfctx.h"

static const struct pfctx_thresholds T = {
    .xoff = 30000, .xon = 27000, .xon_switch = 27000};

static void test_below_xoff_sends_nothing(void **state)
{
	struct pfctx_prio s = {0};

	(void)state;
	assert_int_equal(pfctx_step(&s, &T, 0, 2, 0), PFCTX_NONE);
	assert_int_equal(pfctx_step(&s, &T, 29999, 2, 1), PFCTX_NONE);
	assert_false(s.paused);
}

static void test_pause_refresh_xon(void **state)
{
	struct pfctx_prio s = {0};

	(void)state;
	assert_int_equal(pfctx_step(&s, &T, 30000, 2, 10), PFCTX_PAUSE);
	assert_true(s.paused);
	/* Above xon, before the refresh is due: nothing. */
	assert_int_equal(pfctx_step(&s, &T, 28000, 2, 11), PFCTX_NONE);
	/* Due: the pause again. */
	assert_int_equal(pfctx_step(&s, &T, 28000, 2, 12), PFCTX_PAUSE);
	/* Between xon and xoff, still paused: refreshed, never released. */
	assert_int_equal(pfctx_step(&s, &T, 27001, 2, 14), PFCTX_PAUSE);
	assert_int_equal(pfctx_step(&s, &T, 27000, 2, 15), PFCTX_XON);
	assert_false(s.paused);
	/* Released: a backlog between the two does not pause again. */
	assert_int_equal(pfctx_step(&s, &T, 29000, 2, 20), PFCTX_NONE);
	assert_int_equal(s.pauses, 3);
	assert_int_equal(s.xons, 1);
}

static void test_no_threshold_never_pauses(void **state)
{
	struct pfctx_prio s = {0};
	struct pfctx_thresholds z = {0};

	(void)state;
	assert_int_equal(pfctx_step(&s, &z, 1000000, 2, 0), PFCTX_NONE);
}

static void test_defaults(void **state)
{
	struct pfctx_thresholds t;

	(void)state;
	/* 1 Gb/s, 2 ms: 250000 bytes in flight + 2 x 1500. */
	pfctx_defaults(1000000, 1500, 1000, 2.0, &t);
	assert_int_equal(t.xoff, 1000000 - 250000 - 3000);
	assert_int_equal(t.xon, t.xoff - 3000);
	/* Switches are released with one frame left: room for a whole
	 * held queue. */
	assert_int_equal(t.xon_switch, 1500);
	/* A buffer smaller than the headroom pauses at half of it. */
	pfctx_defaults(100000, 1500, 10000, 2.0, &t);
	assert_int_equal(t.xoff, 50000);
	assert_int_equal(t.xon, 47000);
	assert_int_equal(t.xon_switch, 1500);
}

static void test_defaults_release_fits(void **state)
{
	struct pfctx_thresholds t;
	/* roced's own no-drop queue at 10 Gb/s, 4.2 ms, MTU 9216: the limit
	 * is twice the headroom (compile_pfc_limit). */
	double h = 10000e6 / 8 * 4.2 / 1000 + 2 * 9216;
	uint32_t limit = (uint32_t)(2 * h);

	(void)state;
	pfctx_defaults(limit, 9216, 10000, 4.2, &t);
	/* One switch released at xon_switch may send the whole queue it
	 * held (up to the same limit, on the same defaults) and its
	 * upstream's release behind it: the room above xon_switch is the
	 * whole limit but a frame; above xon (two frames under xoff,
	 * every feeder's before) only H was. A headroom below xoff (at
	 * least half of xoff) overflowed two tiers of bridges. */
	assert_true(t.xon_switch <= t.xon);
	assert_true((double)limit - t.xon_switch >= limit - 9216);
	assert_true((double)limit - t.xon < 1.01 * h);
	/* A large buffer: the same, one frame. */
	pfctx_defaults(limit * 4, 9216, 10000, 4.2, &t);
	assert_int_equal(t.xon_switch, 9216);
	/* A tiny buffer never gives xon_switch above xon. */
	pfctx_defaults(1000, 9216, 10000, 4.2, &t);
	assert_int_equal(t.xoff, 500);
	assert_int_equal(t.xon, 0);
	assert_int_equal(t.xon_switch, 0);
}

static void test_stagger(void **state)
{
	struct pfctx_prio s = {0};

	(void)state;
	assert_int_equal(pfctx_step(&s, &T, 30000, 2, 10), PFCTX_PAUSE);
	/* The XON (to one feeder: the caller's choice). */
	assert_int_equal(pfctx_step(&s, &T, 27000, 2, 20), PFCTX_XON);
	assert_true(s.xon_ms == 20);
	/* Within the stagger interval: the held ones' pause refreshed,
	 * no XON even at an empty queue. */
	assert_int_equal(pfctx_stagger(&s, &T, 0, 20, 20, 2, 22), PFCTX_PAUSE);
	assert_int_equal(pfctx_stagger(&s, &T, 0, 20, 20, 2, 23), PFCTX_NONE);
	assert_int_equal(pfctx_stagger(&s, &T, 0, 20, 20, 2, 24), PFCTX_PAUSE);
	assert_int_equal(pfctx_stagger(&s, &T, 28000, 20, 20, 2, 25),
	                 PFCTX_NONE);
	/* The interval over, above xon (the released one's burst): no
	 * XON, only the refresh. */
	assert_int_equal(pfctx_stagger(&s, &T, 28000, 20, 20, 2, 41),
	                 PFCTX_PAUSE);
	/* At or below xon: the next one goes, and the interval restarts. */
	assert_int_equal(pfctx_stagger(&s, &T, 27000, 20, 20, 2, 42),
	                 PFCTX_XON);
	assert_int_equal(pfctx_stagger(&s, &T, 0, 20, 20, 2, 50), PFCTX_PAUSE);
	assert_int_equal(pfctx_stagger(&s, &T, 0, 20, 20, 2, 62), PFCTX_XON);
	assert_int_equal(s.xons, 3);
	/* Back at xoff: pfctx_step pauses, and stagger leaves it alone. */
	assert_int_equal(pfctx_step(&s, &T, 30000, 2, 70), PFCTX_PAUSE);
	assert_int_equal(pfctx_stagger(&s, &T, 0, 20, 20, 2, 100), PFCTX_NONE);
	/* A released switch that has not sent yet: the empty queue is no
	 * sign its burst is over; the next goes once it showed and drained,
	 * or after the quiet time without one. */
	assert_int_equal(pfctx_step(&s, &T, 27000, 2, 110), PFCTX_XON);
	assert_false(s.grew);
	assert_int_equal(pfctx_stagger(&s, &T, 0, 20, 500, 2, 140),
	                 PFCTX_PAUSE);
	assert_int_equal(pfctx_stagger(&s, &T, 29000, 20, 500, 2, 300),
	                 PFCTX_PAUSE);
	assert_int_equal(pfctx_stagger(&s, &T, 27000, 20, 500, 2, 301),
	                 PFCTX_XON);
	assert_int_equal(pfctx_stagger(&s, &T, 0, 20, 500, 2, 400),
	                 PFCTX_PAUSE);
	assert_int_equal(pfctx_stagger(&s, &T, 0, 20, 500, 2, 800),
	                 PFCTX_PAUSE);
	assert_int_equal(pfctx_stagger(&s, &T, 0, 20, 500, 2, 801), PFCTX_XON);
}

static void test_refresh(void **state)
{
	(void)state;
	/* 65535 quanta at 10 Gb/s: 3.355 ms; half of it. */
	assert_true(pfctx_refresh_ms(10000, 0.1) > 1.67 &&
	            pfctx_refresh_ms(10000, 0.1) < 1.68);
	/* Never more often than the poll. */
	assert_true(pfctx_refresh_ms(100000, 5) == 5);
}

static void test_pace_idle_until_busy(void **state)
{
	struct pfctx_pace p;

	(void)state;
	pfctx_pace_init(&p, 2, 10, 100);
	/* Nothing ever queued: the idle pace from the first poll on. */
	assert_true(pfctx_pace_next(&p, false, 0) == 10);
	assert_true(pfctx_pace_next(&p, false, 10) == 10);
	/* A backlog: fast at once. */
	assert_true(pfctx_pace_next(&p, true, 20) == 2);
	assert_true(pfctx_pace_next(&p, true, 22) == 2);
}

static void test_pace_lingers(void **state)
{
	struct pfctx_pace p;

	(void)state;
	pfctx_pace_init(&p, 2, 10, 100);
	assert_true(pfctx_pace_next(&p, true, 1000) == 2);
	/* Drained: still fast within the linger... */
	assert_true(pfctx_pace_next(&p, false, 1002) == 2);
	assert_true(pfctx_pace_next(&p, false, 1099.9) == 2);
	/* ... idle once it has passed. */
	assert_true(pfctx_pace_next(&p, false, 1100) == 10);
	/* Busy again restarts the linger. */
	assert_true(pfctx_pace_next(&p, true, 1110) == 2);
	assert_true(pfctx_pace_next(&p, false, 1200) == 2);
	assert_true(pfctx_pace_next(&p, false, 1210) == 10);
}

static void test_pace_hurry(void **state)
{
	struct pfctx_pace p;

	(void)state;
	pfctx_pace_init(&p, 2, 10, 100);
	assert_true(pfctx_pace_next(&p, false, 0) == 10);
	/* A hold begins at 3: the poll due at 10 comes at 5, and the
	 * linger runs from the hurry. */
	assert_true(pfctx_pace_hurry(&p, 10, 3) == 5);
	assert_true(pfctx_pace_next(&p, false, 5) == 2);
	/* A poll due sooner than the fast pace stays where it is. */
	assert_true(pfctx_pace_hurry(&p, 4, 3) == 4);
}

static void test_pace_idle_never_faster(void **state)
{
	struct pfctx_pace p;

	(void)state;
	/* An idle interval below the fast one is the fast one. */
	pfctx_pace_init(&p, 5, 1, 0);
	assert_true(pfctx_pace_next(&p, false, 0) == 5);
	/* No linger: idle at the first clean poll. */
	pfctx_pace_init(&p, 2, 10, 0);
	assert_true(pfctx_pace_next(&p, true, 0) == 2);
	assert_true(pfctx_pace_next(&p, false, 2) == 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_below_xoff_sends_nothing),
	    cmocka_unit_test(test_pause_refresh_xon),
	    cmocka_unit_test(test_stagger),
	    cmocka_unit_test(test_defaults_release_fits),
	    cmocka_unit_test(test_no_threshold_never_pauses),
	    cmocka_unit_test(test_defaults),
	    cmocka_unit_test(test_refresh),
	    cmocka_unit_test(test_pace_idle_until_busy),
	    cmocka_unit_test(test_pace_lingers),
	    cmocka_unit_test(test_pace_hurry),
	    cmocka_unit_test(test_pace_idle_never_faster),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
