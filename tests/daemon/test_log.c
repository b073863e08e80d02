/* test_log: the daemon's debug switches by subsystem name, from the one
 * table of lib/base/names.c: every name turns its subsystem on and off,
 * "all" turns every one, and an unknown word is refused with the list of
 * the words roced knows. No root needed. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "base/names.h"
#include "os/log.h"

static void test_names(void **state)
{
	(void)state;
	for (int s = 0; s < LOG_SUB_MAX; s++)
		assert_string_equal(log_subsys_name((enum log_subsys)s),
		                    names_debug_name((enum names_debug)s));
	assert_string_equal(log_subsys_name(LOG_SUB_WATCHDOG), "watchdog");
	assert_string_equal(log_subsys_name(LOG_SUB_MAX), "?");
}

static void test_switches(void **state)
{
	char err[256] = "";

	(void)state;
	assert_int_equal(log_debug_disable("all", err, sizeof(err)), 0);
	for (int s = 0; s < LOG_SUB_MAX; s++) {
		const char *name = log_subsys_name((enum log_subsys)s);

		assert_int_equal(log_debug_enable(name, err, sizeof(err)), 0);
		assert_true(log_debug_on((enum log_subsys)s));
		assert_int_equal(log_debug_disable(name, err, sizeof(err)), 0);
		assert_false(log_debug_on((enum log_subsys)s));
	}
	assert_int_equal(log_debug_enable("conf,dcbx", err, sizeof(err)), 0);
	assert_true(log_debug_on(LOG_SUB_CONF));
	assert_true(log_debug_on(LOG_SUB_DCBX));
	assert_false(log_debug_on(LOG_SUB_LINK));
	assert_int_equal(log_debug_enable("all", err, sizeof(err)), 0);
	for (int s = 0; s < LOG_SUB_MAX; s++)
		assert_true(log_debug_on((enum log_subsys)s));
	assert_int_equal(log_debug_disable("all", err, sizeof(err)), 0);
	for (int s = 0; s < LOG_SUB_MAX; s++)
		assert_false(log_debug_on((enum log_subsys)s));
}

static void test_unknown(void **state)
{
	char err[256] = "";

	(void)state;
	assert_int_equal(log_debug_enable("lldp", err, sizeof(err)), -1);
	assert_string_equal(err, "unknown debug subsystem 'lldp', expected "
	                         "all, conf, apply, link, dcbx, watchdog or "
	                         "ctl");
	assert_int_equal(log_debug_disable("conf,DCBX", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "'DCBX'"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_names),
	    cmocka_unit_test(test_switches),
	    cmocka_unit_test(test_unknown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
