/* test_ctl_proto: the control protocol as both ends speak it (lib/ctl):
 * the one table of show commands that rocesh's command language and roced
 * share. The daemon's side (rights, show answers) is
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
	    cmocka_unit_test(test_show_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
