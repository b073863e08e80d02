/* test_bpfhold: the parts of daemon/kernel/bpfhold.c that need no
 * kernel: the paused time read from the maps (softpfc_paused_ms's
 * meaning: spans that ended, plus the one under way up to now or to its
 * end), the stubs' answer without the programs, and that a port roced
 * never attached has nothing to find or release (this runs where bpf()
 * may be refused: only answers that need no program are asserted). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "kernel/bpfhold.h"

#define MS 1000000ull

static void test_paused_ms(void **state)
{
	struct pfc_hold_prio h;

	(void)state;
	memset(&h, 0, sizeof(h));
	assert_true(bpfhold_paused_ms(&h, 5000 * MS) == 0.0);
	/* 30 ms that ended, and a span from 100 ms to 400 ms */
	h.asked_ns = 30 * MS;
	h.ask_since = 100 * MS;
	h.ask_until = 400 * MS;
	/* under way: up to now */
	assert_true(bpfhold_paused_ms(&h, 250 * MS) == 180.0);
	/* run out with no frame since: up to its end, not to now */
	assert_true(bpfhold_paused_ms(&h, 900 * MS) == 330.0);
	/* a clock before the span (a stale read) adds nothing */
	assert_true(bpfhold_paused_ms(&h, 50 * MS) == 30.0);
}

static void test_nothing_attached(void **state)
{
	struct bpfhold h;
	const char *why;

	(void)state;
	bpfhold_init(&h);
	assert_int_equal(h.cfg_fd, -1);
	assert_int_equal(h.state_fd, -1);
	if (!bpfhold_built(&why)) {
		char err[128];
		struct bpfhold_conf c;

		memset(&c, 0, sizeof(c));
		assert_true(why[0] != '\0');
		assert_int_equal(bpfhold_attach(&h, 1, &c, err, sizeof(err)),
		                 -EOPNOTSUPP);
		return;
	}
	/* no such interface: nothing of roced's to find or release */
	assert_int_equal(bpfhold_find(&h, 999999), -ENOENT);
	assert_int_equal(h.cfg_fd, -1);
	assert_int_not_equal(bpfhold_release_ifindex(999999), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_paused_ms),
	    cmocka_unit_test(test_nothing_attached),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
