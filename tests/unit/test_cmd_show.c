/* Unit tests of lib/cmd/cmd_show.c: the command table's show rows fill
 * the query roced answers, from the words the control protocol carries.
 * Every show row must name a show of the protocol, each word fills the
 * query by its role in the row (an interface, a name, `type X`, a flag),
 * and what the rows refuse comes back with the table's message. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "cmd/cmd_int.h"
#include "cmd/cmd_show.h"

/* Every show row of the table names a show the protocol knows, so that a
 * new row without its CTL_WHAT_* entry fails here and not in a shell. */
static void test_rows_known(void **state)
{
	size_t shows = 0;

	(void)state;
	/* the NX-OS table and the checkpoint one (cmd_ckpt.c) */
	for (size_t i = 0; i < cmd_nxos.n + cmd_ckpt.n; i++) {
		const struct cmd_def *d = i < cmd_nxos.n
		                              ? &cmd_nxos.def[i]
		                              : &cmd_ckpt.def[i - cmd_nxos.n];

		if (d->kind != CMD_KIND_SHOW)
			continue;
		shows++;
		if (ctl_show_parse(d->name) < 0)
			fail_msg("show row '%s' names no show of lib/ctl",
			         d->syntax);
	}
	assert_true(shows >= CTL_SHOW_COUNT);
}

/* Split LINE at blanks into ARGS (at most 24 words) and run it. */
static int query(const char *what, const char *line, struct show_query *q,
                 struct cmd_error *err)
{
	static char buf[512];
	const char *args[24];
	size_t n = 0;

	snprintf(buf, sizeof(buf), "%s", line);
	for (char *s = NULL, *w = strtok_r(buf, " ", &s); w && n < 24;
	     w = strtok_r(NULL, " ", &s))
		args[n++] = w;
	return cmd_show_query(what, args, n, q, err);
}

/* The flag W (as the word table spells it) of FLAGS, a list of words. */
static bool has(const char *flags, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = flags; (p = strstr(p, w)); p += n)
		if ((p == flags || p[-1] == ' ') && (!p[n] || p[n] == ' '))
			return true;
	return false;
}

static void test_fill(void **state)
{
	/* FLAGS: the query's flags set, by their words */
	static const struct {
		const char *what, *line;
		enum ctl_show kind;
		const char *iface, *name, *type, *flags;
	} cases[] = {
	    /* the whole line, as rocesh sends it */
	    {CTL_WHAT_PFC_IF,
	     "show interface ethernet 1/1 priority-flow-control detail",
	     CTL_SHOW_PFC_IF, "Ethernet1/1", "", "", "detail"},
	    {CTL_WHAT_PFC_IF, "show interface priority-flow-control",
	     CTL_SHOW_PFC_IF, "", "", "", ""},
	    {CTL_WHAT_FC_IF, "show interface swp1 flowcontrol json",
	     CTL_SHOW_FC_IF, "swp1", "", "", ""},
	    {CTL_WHAT_POLICY_MAP, "show policy-map system type queuing",
	     CTL_SHOW_POLICY_MAP, "", "", "queuing", "system"},
	    {CTL_WHAT_POLICY_MAP_IF, "show policy-map interface swp1 type qos",
	     CTL_SHOW_POLICY_MAP_IF, "swp1", "", "qos", ""},
	    {CTL_WHAT_RUNNING_CONFIG, "show running-config interface swp1 all",
	     CTL_SHOW_RUNNING_CONFIG, "swp1", "", "", "all"},
	    {CTL_WHAT_RUNNING_CONFIG, "show running-config ipqos",
	     CTL_SHOW_RUNNING_CONFIG, "", "", "", "qos"},
	    /* a class-map named like a flag is a name: the row says so */
	    {CTL_WHAT_CLASS_MAP, "show class-map type network-qos detail",
	     CTL_SHOW_CLASS_MAP, "", "detail", "network-qos", ""},
	    {CTL_WHAT_LLDP_NEIGHBORS,
	     "show lldp neighbors interface e1/2 detail",
	     CTL_SHOW_LLDP_NEIGHBORS, "Ethernet1/2", "", "", "detail"},
	    {CTL_WHAT_LLDP_DCBX, "show lldp dcbx interface swp3",
	     CTL_SHOW_LLDP_DCBX, "swp3", "", "", ""},
	    /* the words after the name, abbreviated, as a script may */
	    {CTL_WHAT_RUNNING_CONFIG, "int swp1", CTL_SHOW_RUNNING_CONFIG,
	     "swp1", "", "", ""},
	    {CTL_WHAT_PFC_QUEUE, "det", CTL_SHOW_PFC_QUEUE, "", "", "",
	     "detail"},
	    /* the row the line matches decides */
	    {CTL_WHAT_POLICY_MAP, "interface swp2", CTL_SHOW_POLICY_MAP_IF,
	     "swp2", "", "", ""},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		const char *flags = cases[i].flags;
		struct show_query q;
		struct cmd_error err;

		memset(&err, 0, sizeof(err));
		if (query(cases[i].what, cases[i].line, &q, &err) < 0)
			fail_msg("'%s': %s", cases[i].line, err.message);
		assert_int_equal(q.kind, cases[i].kind);
		assert_string_equal(q.iface, cases[i].iface);
		assert_string_equal(q.name, cases[i].name);
		assert_string_equal(q.type, cases[i].type);
		assert_int_equal(q.detail, has(flags, "detail"));
		assert_int_equal(q.system, has(flags, "system"));
		assert_int_equal(q.all, has(flags, "all"));
		assert_int_equal(q.qos_only, has(flags, "qos"));
	}
}

static void test_refused(void **state)
{
	static const struct {
		const char *what, *line, *msg;
		size_t pos;
	} cases[] = {
	    {CTL_WHAT_STARTUP_CONFIG, "X", "Invalid", 20},
	    {CTL_WHAT_LLDP_DCBX, "", "Incomplete", (size_t)-1},
	    {CTL_WHAT_LLDP_TRAFFIC, "detail", "Invalid", 18},
	    {CTL_WHAT_POLICY_MAP, "type bogus", "Invalid", 21},
	    {CTL_WHAT_CLASS_MAP,
	     "show class-map "
	     "C234567890123456789012345678901234567890123456789012345678901234"
	     "5",
	     "Invalid name", 15},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct show_query q;
		struct cmd_error err;

		memset(&err, 0, sizeof(err));

		assert_int_equal(query(cases[i].what, cases[i].line, &q, &err),
		                 -1);
		if (!strstr(err.message, cases[i].msg))
			fail_msg("'%s': '%s' lacks '%s'", cases[i].line,
			         err.message, cases[i].msg);
		if (cases[i].pos != (size_t)-1)
			assert_int_equal(err.pos, cases[i].pos);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_rows_known),
	    cmocka_unit_test(test_fill),
	    cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
