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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_units_names),
	    cmocka_unit_test(test_units_bytes),
	    cmocka_unit_test(test_units_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
