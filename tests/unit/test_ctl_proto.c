/* test_ctl_proto: the control protocol as both ends speak it (lib/ctl):
 * repeated keys refused, and the one table of show commands that rocesh's
 * command language and roced share. The daemon's side (rights, show answers) is
 * tests/daemon/test_ctl.c. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cmd/cmd_int.h"
#include "ctl/ctl.h"

#define ASSERT_REFUSED(json, want)                                             \
	do {                                                                   \
		struct ctl_request r_;                                         \
		char e_[256] = "";                                             \
		const char *j_ = (json);                                       \
		assert_int_equal(                                              \
		    ctl_request_parse(j_, strlen(j_), &r_, e_, sizeof(e_)),    \
		    -EINVAL);                                                  \
		if (strcmp(e_, (want)))                                        \
			fail_msg("%s: error '%s', want '%s'", j_, e_, (want)); \
	} while (0)

static void parse_ok(const char *json, enum ctl_cmd cmd)
{
	struct ctl_request r;
	char err[256] = "";

	if (ctl_request_parse(json, strlen(json), &r, err, sizeof(err)) < 0)
		fail_msg("%s: %s", json, err);
	assert_int_equal(r.cmd, cmd);
}

static void test_duplicate_keys(void **state)
{
	(void)state;
	/* json-c alone keeps the last: this would reload. */
	ASSERT_REFUSED("{\"cmd\":\"ping\",\"cmd\":\"reload\"}",
	               "% key 'cmd' appears twice");
	ASSERT_REFUSED(" { \"cmd\" : \"config\" , \"line\" : \"a\" ,\n"
	               "\"line\" : \"b\" } ",
	               "% key 'line' appears twice");
	ASSERT_REFUSED("{\"cmd\":\"show\",\"what\":\"show class-map\","
	               "\"json\":false,\"args\":[],\"json\":true}",
	               "% key 'json' appears twice");
	/* the same key spelt with escapes */
	ASSERT_REFUSED("{\"cmd\":\"ping\",\"c\\u006dd\":\"reload\"}",
	               "% key 'cmd' appears twice");
	ASSERT_REFUSED("{\"cmd\":\"ping\",\"cm\\u0064\":\"reload\","
	               "\"x\":1}",
	               "% key 'cmd' appears twice");
	/* json-c cuts a key at an escaped NUL: "cmd\0x" would be "cmd" */
	ASSERT_REFUSED("{\"cmd\\u0000x\":\"reload\"}",
	               "% a key holds a NUL byte");
	ASSERT_REFUSED("{\"cmd\":\"ping\",\"cmd\\u0000\":\"reload\"}",
	               "% a key holds a NUL byte");
	/* Malformed JSON is still malformed first. */
	ASSERT_REFUSED("{\"cmd\":\"ping\",\"cmd\":}",
	               "% malformed JSON: unexpected character");

	/* Values that look like keys are values; equal values are fine. */
	parse_ok("{\"cmd\":\"config\",\"line\":\"x\\\",\\\"cmd\\\":\\\"y\"}",
	         CTL_CMD_CONFIG);
	parse_ok("{\"cmd\":\"config\",\"context\":[\"line\",\"line\"],"
	         "\"line\":\"line\"}",
	         CTL_CMD_CONFIG);
	parse_ok("{\"cmd\":\"show\",\"what\":\"show class-map\","
	         "\"args\":[\"a,\\\"what\\\":\",\"{\",\"[\"],"
	         "\"json\":true}",
	         CTL_CMD_SHOW);
	parse_ok("{\"cmd\" :\"debug\",\"subsys\":\"a\\\\\",\"on\":true}",
	         CTL_CMD_DEBUG);
	/* Distinct unknown keys are unknown, not repeated. */
	ASSERT_REFUSED("{\"cmd\":\"ping\",\"a\":1,\"b\":{\"a\":1,\"a\":2}}",
	               "% unknown key 'a' in a ping request");
}

/* The show commands of the command language are the protocol's, one for
 * one, and roced refuses any other. */
static void test_show_names(void **state)
{
	bool seen[CTL_SHOW_COUNT] = {false};

	(void)state;
	for (int s = 0; s < CTL_SHOW_COUNT; s++) {
		const char *name = ctl_show_name((enum ctl_show)s);

		assert_int_equal(ctl_show_parse(name), s);
		assert_int_equal(strncmp(name, "show ", 5), 0);
	}
	assert_string_equal(ctl_show_name((enum ctl_show)CTL_SHOW_COUNT), "?");
	assert_int_equal(ctl_show_parse("show version"), -EINVAL);
	assert_int_equal(ctl_show_parse("show queuing"), -EINVAL);
	assert_int_equal(ctl_show_parse(""), -EINVAL);
	for (size_t i = 0; i < cmd_nxos_ntable; i++) {
		const struct cmd_def *d = &cmd_nxos_table[i];
		int s;

		if (d->kind != CMD_KIND_SHOW)
			continue;
		s = ctl_show_parse(d->name);
		if (s < 0)
			fail_msg("show command '%s' is not in lib/ctl's table",
			         d->name);
		seen[s] = true;
		/* the syntax begins with the name: one spelling */
		assert_int_equal(strncmp(d->syntax, d->name, strlen(d->name)),
		                 0);
	}
	for (int s = 0; s < CTL_SHOW_COUNT; s++)
		if (!seen[s])
			fail_msg("'%s' is no show command of the language",
			         ctl_show_name((enum ctl_show)s));
	ASSERT_REFUSED("{\"cmd\":\"show\",\"what\":\"show version\"}",
	               "% unknown show command 'show version'");
	ASSERT_REFUSED("{\"cmd\":\"show\",\"what\":\"show queuing interface "
	               "\"}",
	               "% unknown show command 'show queuing interface '");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_duplicate_keys),
	    cmocka_unit_test(test_show_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
