/* Unit tests of the name tables, one per vocabulary that roced both parses
 * and prints: each name maps to its value and back, and an unknown name is
 * refused with the message the parser gives. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "model/caps.h"
#include "model/plan.h"
#include "model/units.h"

/* ---- size units (lib/model/units.c) ---- */

static void test_units_names(void **state)
{
	(void)state;
	for (int u = 0; u < UNITS_SIZE_MAX; u++) {
		const char *name = units_size_name((enum units_size)u);

		assert_string_not_equal(name, "?");
		assert_int_equal(units_size_parse(name), u);
		assert_string_not_equal(units_size_help((enum units_size)u),
		                        "?");
	}
	assert_string_equal(units_size_name(UNITS_KBYTES), "kbytes");
	assert_true(units_size_bytes(UNITS_BYTES) == 1);
	assert_true(units_size_bytes(UNITS_KBYTES) == 1024);
	assert_true(units_size_bytes(UNITS_MBYTES) == 1048576);
	assert_int_equal(units_size_parse("kb"), -1);
	assert_int_equal(units_size_parse("packets"), -1);
	assert_int_equal(units_size_parse(NULL), -1);
	assert_string_equal(units_size_name(UNITS_SIZE_MAX), "?");
	assert_true(units_size_bytes(UNITS_SIZE_MAX) == 0);
}

static void test_units_bytes(void **state)
{
	char buf[64], err[160];
	uint64_t b = 0;

	(void)state;
	assert_int_equal(units_bytes_parse("150 kbytes", &b, err, sizeof(err)),
	                 0);
	assert_int_equal(b, 153600);
	assert_int_equal(units_bytes_parse("3mbytes", &b, err, sizeof(err)), 0);
	assert_int_equal(b, 3 * 1048576);
	assert_int_equal(units_bytes_parse("7 bytes", &b, err, sizeof(err)), 0);
	assert_int_equal(b, 7);
	assert_int_equal(units_bytes_parse("7", &b, err, sizeof(err)), -1);
	assert_int_equal(units_bytes_parse("kbytes", &b, err, sizeof(err)), -1);
	assert_int_equal(units_bytes_parse("1 kbytes x", &b, err, sizeof(err)),
	                 -1);
	assert_int_equal(units_bytes_parse("99999999999999999999 bytes", &b,
	                                   err, sizeof(err)),
	                 -1);
	assert_int_equal(
	    units_bytes_parse("18014398509481984 mbytes", &b, err, sizeof(err)),
	    -1);
	assert_non_null(strstr(err, "too large"));
	assert_int_equal(units_bytes_parse("5 packets", &b, err, sizeof(err)),
	                 -1);
	assert_non_null(strstr(err, "packets"));

	units_bytes_format(153600, buf, sizeof(buf));
	assert_string_equal(buf, "150 kbytes");
	units_bytes_format(3072000, buf, sizeof(buf));
	assert_string_equal(buf, "3000 kbytes");
	units_bytes_format(1048576, buf, sizeof(buf));
	assert_string_equal(buf, "1 mbytes");
	units_bytes_format(1500, buf, sizeof(buf));
	assert_string_equal(buf, "1500 bytes");
	units_bytes_format(0, buf, sizeof(buf));
	assert_string_equal(buf, "0 bytes");
	/* format -> parse is exact. */
	for (uint64_t v = 1; v < (1ULL << 40); v = v * 3 + 1024) {
		units_bytes_format(v, buf, sizeof(buf));
		assert_int_equal(units_bytes_parse(buf, &b, err, sizeof(err)),
		                 0);
		assert_true(b == v);
	}
}

static void test_units_errors(void **state)
{
	char err[160];
	uint64_t b;

	(void)state;
	assert_int_equal(units_bytes_parse("3000 kb", &b, err, sizeof(err)),
	                 -1);
	assert_string_equal(err, "invalid threshold '3000 kb', expected "
	                         "'N bytes', 'N kbytes' or 'N mbytes' "
	                         "(kbytes = 1024 bytes)");
	assert_int_equal(units_bytes_parse("5 packets", &b, err, sizeof(err)),
	                 -1);
	assert_string_equal(err, "threshold '5 packets' is in packets; roced "
	                         "works in bytes, use bytes, kbytes or mbytes");
}

/* ---- qdisc kinds (lib/model/caps.c, through lib/model/plan.c) ---- */

static void test_qdisc_kinds(void **state)
{
	(void)state;
	for (int k = 0; k < CAPS_QDISC_MAX; k++) {
		const char *name = caps_qdisc_name((enum caps_qdisc)k);

		assert_string_not_equal(name, "?");
		assert_int_equal(caps_qdisc_parse(name), k);
	}
	/* A plan's kinds are caps' kinds under the same numbers and names. */
	for (int k = 0; k < PLAN_QD_NKINDS; k++) {
		const char *name =
		    plan_qdisc_kind_name((enum plan_qdisc_kind)k);

		assert_string_equal(name, caps_qdisc_name((enum caps_qdisc)k));
		assert_int_equal(plan_qdisc_kind_parse(name), k);
	}
	assert_string_equal(plan_qdisc_kind_name(PLAN_QD_HTB), "htb");
	assert_string_equal(plan_qdisc_kind_name(PLAN_QD_CLSACT), "clsact");
	assert_int_equal(CAPS_QD_RED, 1u << PLAN_QD_RED);
	assert_int_equal(CAPS_QD_CLSACT, 1u << PLAN_QD_CLSACT);
	/* Probed kinds that no plan holds, and kinds roced does not know. */
	assert_int_equal(caps_qdisc_parse("tbf"), CAPS_QDISC_TBF);
	assert_int_equal(plan_qdisc_kind_parse("tbf"), -1);
	assert_int_equal(plan_qdisc_kind_parse("mqprio"), -1);
	assert_int_equal(caps_qdisc_parse("fq_codel"), -1);
	assert_int_equal(plan_qdisc_kind_parse("fq_codel"), -1);
	assert_int_equal(plan_qdisc_kind_parse("HTB"), -1);
	assert_int_equal(caps_qdisc_parse(NULL), -1);
	assert_string_equal(caps_qdisc_name(CAPS_QDISC_MAX), "?");
	assert_string_equal(
	    plan_qdisc_kind_name((enum plan_qdisc_kind)CAPS_QDISC_TBF), "?");
}

/* ---- classifier and action kinds (lib/model/caps.c) ---- */

static void test_filter_kinds(void **state)
{
	(void)state;
	for (int k = 0; k < CAPS_CLASSIFIER_MAX; k++) {
		const char *name =
		    caps_classifier_name((enum caps_classifier)k);

		assert_string_not_equal(name, "?");
		assert_int_equal(caps_classifier_parse(name), k);
	}
	for (int k = 0; k < PLAN_FILTER_NKINDS; k++) {
		const char *name =
		    plan_filter_kind_name((enum plan_filter_kind)k);

		assert_string_equal(
		    name, caps_classifier_name((enum caps_classifier)k));
		assert_int_equal(plan_filter_kind_parse(name), k);
	}
	assert_string_equal(plan_filter_kind_name(PLAN_FILTER_U32), "u32");
	assert_int_equal(CAPS_CLS_FLOWER, 1u << PLAN_FILTER_FLOWER);
	assert_int_equal(plan_filter_kind_parse("matchall"), -1);
	assert_int_equal(caps_classifier_parse("basic"), -1);
	assert_string_equal(caps_classifier_name(CAPS_CLASSIFIER_MAX), "?");
	/* u32-with-actions is a capability, not a kind. */
	for (int k = 0; k < CAPS_CLASSIFIER_MAX; k++)
		assert_int_not_equal(CAPS_CLS_U32_ACT, 1u << k);

	for (int k = 0; k < CAPS_ACTION_MAX; k++) {
		const char *name = caps_action_name((enum caps_action)k);

		assert_string_not_equal(name, "?");
		assert_int_equal(caps_action_parse(name), k);
	}
	assert_string_equal(caps_action_name(CAPS_ACTION_SKBEDIT), "skbedit");
	assert_int_equal(caps_action_parse("police"), -1);
	assert_string_equal(caps_action_name(CAPS_ACTION_MAX), "?");
}

/* ---- debug subsystems (lib/base/names.c) ---- */

static void test_debug_names(void **state)
{
	char buf[128];
	int n;

	(void)state;
	for (int d = 0; d < NAMES_DEBUG_MAX; d++) {
		const char *name = names_debug_name((enum names_debug)d);

		assert_string_not_equal(name, "?");
		assert_string_not_equal(name, NAMES_DEBUG_ALL);
		assert_int_equal(names_debug_parse(name), d);
		assert_string_not_equal(names_debug_help((enum names_debug)d),
		                        "?");
	}
	assert_string_equal(names_debug_name(NAMES_DEBUG_DCBX), "dcbx");
	assert_int_equal(names_debug_parse(NAMES_DEBUG_ALL), -1);
	assert_int_equal(names_debug_parse("lldp"), -1);
	assert_int_equal(names_debug_parse("DCBX"), -1);
	assert_int_equal(names_debug_parse(NULL), -1);
	assert_string_equal(names_debug_name(NAMES_DEBUG_MAX), "?");
	n = names_debug_expected(buf, sizeof(buf));
	assert_int_equal(n, (int)strlen(buf));
	assert_string_equal(buf,
	                    "all, conf, apply, link, dcbx, watchdog or ctl");
	/* A short buffer is cut, and the length needed still told. */
	assert_int_equal(names_debug_expected(buf, 6), n);
	assert_string_equal(buf, "all, ");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_units_names),
	    cmocka_unit_test(test_units_bytes),
	    cmocka_unit_test(test_units_errors),
	    cmocka_unit_test(test_qdisc_kinds),
	    cmocka_unit_test(test_filter_kinds),
	    cmocka_unit_test(test_debug_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
