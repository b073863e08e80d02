/* Unit tests of the bounds a configuration must keep (lib/conf/
 * conf_scan.c): a file past them is refused, before libconfig builds it,
 * with the line where it went past; comments and strings do not count;
 * a file just inside them passes the scan. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/strbuf.h"
#include "conf/conf.h"
#include "conf/conf_int.h"

/* Load TEXT; it must be refused with WANT in its one error. */
static void refused(const char *text, const char *want)
{
	struct policy p;
	struct diag d;
	char buf[512];

	diag_init(&d, "t.conf");
	assert_int_equal(conf_load_string(text, &p, &d), -1);
	assert_int_equal(d.nerrors, 1);
	diag_format(&d, 0, buf, sizeof(buf));
	if (!strstr(buf, want))
		fail_msg("'%s' has no '%s'", buf, want);
	assert_int_equal(p.nifaces, 0);
	diag_free(&d);
}

static int scan(const char *text)
{
	struct diag d;
	int rc;

	diag_init(&d, "t.conf");
	rc = conf_scan_bounds(text, strlen(text), &d);
	diag_free(&d);
	return rc;
}

/* The attack: 25,000 unknown keys at the top level. */
static void test_bounds_unknown_keys(void **state)
{
	struct strbuf sb;

	(void)state;
	strbuf_init(&sb);
	for (unsigned i = 0; i < 25000; i++)
		strbuf_printf(&sb, "unknown%u = %u;\n", i, i);
	refused(strbuf_str(&sb), "t.conf:257: error: more than 256 settings "
	                         "at the top level");
	strbuf_free(&sb);
}

static void test_bounds_group(void **state)
{
	struct strbuf sb;

	(void)state;
	strbuf_init(&sb);
	strbuf_puts(&sb, "# a group\nlldp = {\n");
	for (unsigned i = 0; i < CONF_MAX_GROUP_KEYS; i++)
		strbuf_printf(&sb, "  k%u = %u;\n", i, i);
	strbuf_puts(&sb, "};\n");
	assert_int_equal(scan(strbuf_str(&sb)), 0);
	strbuf_reset(&sb);
	strbuf_puts(&sb, "# a group\nlldp = {\n");
	for (unsigned i = 0; i <= CONF_MAX_GROUP_KEYS; i++)
		strbuf_printf(&sb, "  k%u : %u;\n", i, i);
	strbuf_puts(&sb, "};\n");
	refused(strbuf_str(&sb), "t.conf:259: error: more than 256 settings "
	                         "in the group opened at line 2");
	strbuf_free(&sb);
}

/* Many groups, each within bounds, past the file's total. */
static void test_bounds_total(void **state)
{
	struct strbuf sb;
	unsigned per = 250, groups = CONF_MAX_KEYS / (per - 1) + 1;

	(void)state;
	strbuf_init(&sb);
	strbuf_puts(&sb, "x = (\n");
	for (unsigned g = 0; g < groups; g++) {
		strbuf_puts(&sb, "{ ");
		for (unsigned i = 0; i < per - 1; i++)
			strbuf_printf(&sb, "k%u=1; ", i);
		strbuf_puts(&sb, "},\n");
	}
	strbuf_puts(&sb, "{ } );\n");
	refused(strbuf_str(&sb), "more than 100000 settings in the file");
	strbuf_free(&sb);
}

static void test_bounds_depth(void **state)
{
	struct strbuf sb;

	(void)state;
	strbuf_init(&sb);
	strbuf_puts(&sb, "x = ");
	for (unsigned i = 0; i <= CONF_MAX_DEPTH; i++)
		strbuf_puts(&sb, "(");
	refused(strbuf_str(&sb), "nested deeper than 64");
	strbuf_free(&sb);
}

/* '=' and ':' in comments and strings, and braces there, are no
 * settings. */
static void test_bounds_not_settings(void **state)
{
	struct strbuf sb;

	(void)state;
	strbuf_init(&sb);
	for (unsigned i = 0; i < 3000; i++)
		strbuf_puts(&sb,
		            "# a = b: {\n// c = d (\n/* e = f\n g: h [ */\n");
	strbuf_puts(&sb, "s = \"");
	for (unsigned i = 0; i < 3000; i++)
		strbuf_puts(&sb, "=:{(\\\"");
	strbuf_puts(&sb, "\";\n");
	assert_int_equal(scan(strbuf_str(&sb)), 0);
	strbuf_free(&sb);
}

static void test_bounds_size(void **state)
{
	char path[] = "/tmp/test_conf_bounds.XXXXXX", buf[512];
	struct policy p;
	struct diag d;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, CONF_MAX_BYTES + 1), 0);
	close(fd);
	diag_init(&d, NULL);
	assert_int_equal(conf_load_file(path, &p, &d), -1);
	assert_int_equal(d.nerrors, 1);
	diag_format(&d, 0, buf, sizeof(buf));
	assert_non_null(
	    strstr(buf, "the file is 16777217 bytes: roced reads at most "
	                "16 MiB"));
	diag_free(&d);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_bounds_unknown_keys),
	    cmocka_unit_test(test_bounds_group),
	    cmocka_unit_test(test_bounds_total),
	    cmocka_unit_test(test_bounds_depth),
	    cmocka_unit_test(test_bounds_not_settings),
	    cmocka_unit_test(test_bounds_size),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
