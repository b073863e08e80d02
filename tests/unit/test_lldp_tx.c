/* test_lldp_tx: the LLDP transmit timers (lib/proto/lldp_tx.c) as a
 * function of time: fast start, the interval, the transmit credit, the
 * reinit delay, fast starts asked for while running, the ports' frames
 * brought together (lldp_tx_pull). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "proto/lldp_tx.h"

static const struct lldp_tx_cfg cfg = {.interval_ms = 30000, .reinit_ms = 2000};

/* The times at which frames go between FROM and TO, stepping 10 ms. */
static unsigned sends(struct lldp_tx *t, double from, double to, double *at,
                      unsigned max)
{
	unsigned n = 0;

	for (double now = from; now < to; now += 10)
		if (lldp_tx_due(t, &cfg, now) && n < max)
			at[n++] = now;
	return n;
}

static void test_fast_start(void **state)
{
	struct lldp_tx t = {0};
	double at[16];

	(void)state;
	assert_false(lldp_tx_due(&t, &cfg, 0));
	assert_int_equal(lldp_tx_next(&t), -1);
	lldp_tx_start(&t, &cfg, 1000);
	assert_int_equal(lldp_tx_next(&t), 1000);
	assert_int_equal(sends(&t, 1000, 100000, at, 16), 7);
	/* four 1 s apart, then every 30 s */
	assert_int_equal(at[0], 1000);
	assert_int_equal(at[1], 2000);
	assert_int_equal(at[2], 3000);
	assert_int_equal(at[3], 4000);
	assert_int_equal(at[4], 34000);
	assert_int_equal(at[5], 64000);
	assert_int_equal(at[6], 94000);
	/* Starting again while running changes nothing. */
	lldp_tx_start(&t, &cfg, 95000);
	assert_int_equal(lldp_tx_next(&t), 124000);
}

static void test_fast_again(void **state)
{
	struct lldp_tx t = {0};
	double at[16];

	(void)state;
	lldp_tx_start(&t, &cfg, 0);
	assert_int_equal(sends(&t, 0, 50000, at, 16), 5);
	/* A new neighbour at 50 s: four more, at once. */
	lldp_tx_fast(&t, 50000);
	assert_int_equal(sends(&t, 50000, 54000, at, 16), 4);
	assert_int_equal(at[0], 50000);
	assert_int_equal(at[3], 53000);
	assert_int_equal(lldp_tx_next(&t), 83000);
}

/* A change every 100 ms: the credit (5, one back per second) caps the
 * frames at 5 in the first second and one per second after. */
static void test_credit(void **state)
{
	struct lldp_tx t = {0};
	unsigned n = 0;

	(void)state;
	lldp_tx_start(&t, &cfg, 0);
	for (double now = 0; now < 10000; now += 100) {
		lldp_tx_fast(&t, now);
		n += lldp_tx_due(&t, &cfg, now);
		if (now == 900)
			assert_int_equal(n, 5);
	}
	assert_true(n <= 5 + 10);
	assert_true(n >= 10);
}

static void test_reinit(void **state)
{
	struct lldp_tx t = {0};
	double at[4];

	(void)state;
	lldp_tx_start(&t, &cfg, 0);
	assert_true(lldp_tx_due(&t, &cfg, 0));
	lldp_tx_stop(&t, 500);
	assert_int_equal(lldp_tx_next(&t), -1);
	assert_false(lldp_tx_due(&t, &cfg, 600));
	/* Again at 1 s: not before the reinit delay (2 s after the stop). */
	lldp_tx_start(&t, &cfg, 1000);
	assert_int_equal(sends(&t, 1000, 2600, at, 4), 1);
	assert_int_equal(at[0], 2500);
	/* Much later: at once. */
	lldp_tx_stop(&t, 3000);
	lldp_tx_start(&t, &cfg, 9000);
	assert_int_equal(lldp_tx_next(&t), 9000);
	/* Asking a stopped port for a fast start does nothing. */
	lldp_tx_stop(&t, 9500);
	lldp_tx_fast(&t, 9600);
	assert_int_equal(lldp_tx_next(&t), -1);
	assert_int_equal(lldp_rx_expiry(1000, 120), 121000);
	assert_int_equal(lldp_rx_expiry(1000, 0), 1000);
}

/* Two ports that started 10 s apart: at the first port's regular frame
 * the second one's, due within half an interval, goes along; from then
 * on both go together. Not one due later than that, nor one with fast
 * frames left, nor the one that just went. */
static void test_pull(void **state)
{
	struct lldp_tx a = {0}, b = {0};
	double now;

	(void)state;
	lldp_tx_start(&a, &cfg, 0);
	lldp_tx_start(&b, &cfg, 10000);
	/* fast frames: never pulled */
	assert_true(lldp_tx_due(&a, &cfg, 0));
	assert_false(lldp_tx_pull(&b, &cfg, 0));
	for (now = 0; now < 20000; now += 10) {
		lldp_tx_due(&a, &cfg, now);
		lldp_tx_due(&b, &cfg, now);
	}
	/* a's regular frames come 30 s apart, b's 10 s later */
	now = lldp_tx_next(&a);
	assert_true(lldp_tx_next(&b) - now > 5000);
	assert_true(lldp_tx_next(&b) - now < cfg.interval_ms / 2);
	assert_true(lldp_tx_due(&a, &cfg, now));
	assert_false(lldp_tx_pull(&a, &cfg, now));
	assert_true(lldp_tx_pull(&b, &cfg, now));
	assert_true(lldp_tx_due(&b, &cfg, now));
	assert_int_equal(lldp_tx_next(&a), lldp_tx_next(&b));
	/* due more than half an interval later: not pulled */
	b.next_ms = now + cfg.interval_ms / 2 + 1;
	assert_false(lldp_tx_pull(&b, &cfg, now));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fast_start),
	    cmocka_unit_test(test_fast_again),
	    cmocka_unit_test(test_credit),
	    cmocka_unit_test(test_reinit),
	    cmocka_unit_test(test_pull),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
