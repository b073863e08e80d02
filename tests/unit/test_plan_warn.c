/* test_plan_warn: per-port plan warnings, each distinct message once with
 * its ports, ranges for numbered runs. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/plan.h"
#include "plan/plan_warn.h"
#include "base/strbuf.h"

static void collect(const char *line, void *data)
{
	strbuf_printf(data, "%s\n", line);
}

static struct plan *make(const char *const *names, size_t n)
{
	struct plan *pl = malloc(sizeof(*pl));

	assert_non_null(pl);
	plan_init(pl);
	for (size_t i = 0; i < n; i++)
		assert_non_null(plan_add_port(pl, names[i]));
	return pl;
}

static void done(struct plan *pl)
{
	plan_free(pl);
	free(pl);
}

static void expect(const struct plan *pl, const char *file, const char *want)
{
	struct strbuf sb;

	strbuf_init(&sb);
	assert_int_equal(plan_warn_each(pl, file, collect, &sb), 0);
	assert_string_equal(strbuf_str(&sb), want);
	strbuf_free(&sb);
}

/* 256 ports with the same warnings: one line per message. */
static void test_many_ports_one_line(void **state)
{
	char(*names)[16] = calloc(256, 16);
	const char **v = calloc(256, sizeof(*v));
	struct plan *pl;

	(void)state;
	assert_non_null(names);
	assert_non_null(v);
	for (int i = 0; i < 256; i++) {
		snprintf(names[i], 16, "swp%d", i + 1);
		v[i] = names[i];
	}
	pl = make(v, 256);
	for (size_t i = 0; i < pl->nports; i++) {
		diag_warn(&pl->ports[i].warnings, 61, "htb approximates DWRR");
		diag_add(&pl->ports[i].warnings, DIAG_NOTE, 0,
		         "PFC stays off until DCBX agrees");
		diag_warn(&pl->ports[i].warnings, 71, "no WRED");
	}
	expect(pl, "r.conf",
	       "r.conf:61: warning: swp1-swp256: htb approximates DWRR\n"
	       "r.conf: note: swp1-swp256: PFC stays off until DCBX agrees\n"
	       "r.conf:71: warning: swp1-swp256: no WRED\n");
	done(pl);
	free(names);
	free(v);
}

/* Ranges only for consecutive numbers of one prefix, 3 or more; order of
 * first appearance; same text on another line is another message. */
static void test_ranges_and_order(void **state)
{
	static const char *const names[] = {
	    "swp1",  "swp2",  "swp3", "swp5", "swp6", "eth0",  "swp7",
	    "swp01", "swp02", "lo",   "swp8", "swp9", "swp10",
	};
	struct plan *pl = make(names, sizeof(names) / sizeof(names[0]));

	(void)state;
	for (size_t i = 0; i < pl->nports; i++)
		diag_warn(&pl->ports[i].warnings, 10, "A");
	/* a second message on some ports, twice on one of them */
	diag_warn(&pl->ports[4].warnings, 0, "B");
	diag_warn(&pl->ports[4].warnings, 0, "B");
	diag_warn(&pl->ports[5].warnings, 0, "B");
	diag_warn(&pl->ports[0].warnings, 12, "A");
	expect(pl, "f",
	       "f:10: warning: swp1-swp3,swp5,swp6,eth0,swp7,swp01,swp02,lo,"
	       "swp8-swp10: A\n"
	       "f:12: warning: swp1: A\n"
	       "f: warning: swp6,eth0: B\n");
	done(pl);
	/* messages that differ only past the bytes the hash looks at */
	pl = make(names, 2);
	diag_warn(&pl->ports[0].warnings, 5,
	          "0123456789012345678901234567890123456789 one");
	diag_warn(&pl->ports[1].warnings, 5,
	          "0123456789012345678901234567890123456789 two");
	diag_warn(&pl->ports[1].warnings, 5,
	          "0123456789012345678901234567890123456789 one");
	expect(pl, "f",
	       "f:5: warning: swp1,swp2: "
	       "0123456789012345678901234567890123456789 one\n"
	       "f:5: warning: swp2: "
	       "0123456789012345678901234567890123456789 two\n");
	/* without a file name */
	done(pl);
	pl = make(names, 2);
	diag_add(&pl->ports[1].warnings, DIAG_NOTE, 3, "n");
	expect(pl, NULL, "note: swp2: n\n");
	done(pl);
}

/* The same writer for a list of names alone (show queuing interface's
 * warnings): runs of three or more as ranges, NX-OS aliases too. */
static void test_ports_text(void **state)
{
	static const char *const swp[] = {"swp1", "swp2", "swp3",
	                                  "swp5", "swp6", "eth0"};
	static const char *const nx[] = {"Ethernet1/1", "Ethernet1/2",
	                                 "Ethernet1/3"};
	struct strbuf sb;

	(void)state;
	strbuf_init(&sb);
	plan_warn_ports(swp, 6, &sb);
	assert_string_equal(strbuf_str(&sb), "swp1-swp3,swp5,swp6,eth0");
	strbuf_reset(&sb);
	plan_warn_ports(nx, 3, &sb);
	assert_string_equal(strbuf_str(&sb), "Ethernet1/1-Ethernet1/3");
	strbuf_reset(&sb);
	plan_warn_ports(swp, 0, &sb);
	assert_string_equal(strbuf_str(&sb), "");
	strbuf_free(&sb);
}

static void test_nothing(void **state)
{
	static const char *const names[] = {"swp1"};
	struct plan *pl = make(names, 1);

	(void)state;
	expect(pl, "f", "");
	done(pl);
}

/* What a change brought: only the messages a port did not carry before,
 * whatever their line, grouped as plan_warn_each() groups them. */
static void test_new_only(void **state)
{
	const char *names[] = {"swp1", "swp2", "swp3", "swp4"};
	struct plan *old = make(names, 3), *now = make(names, 4);
	const struct plan_port *before[4];
	struct strbuf sb;

	(void)state;
	for (size_t i = 0; i < 3; i++)
		diag_warn(&old->ports[i].warnings, 61, "htb approximates");
	for (size_t i = 0; i < 4; i++) {
		/* the file was rewritten: same message, another line */
		diag_warn(&now->ports[i].warnings, 65, "htb approximates");
		before[i] = i < 3 ? &old->ports[i] : NULL;
	}
	diag_warn(&old->ports[0].warnings, 37, "class A gets no filter");
	/* swp1 keeps it, swp2 and swp3 get it with the change */
	for (size_t i = 0; i < 3; i++)
		diag_warn(&now->ports[i].warnings, 37,
		          "class A gets no filter");
	/* a note is not a warning of the same text */
	diag_add(&old->ports[2].warnings, DIAG_NOTE, 0, "untagged");
	diag_warn(&now->ports[2].warnings, 0, "untagged");

	/* without a past, everything is new */
	strbuf_init(&sb);
	assert_int_equal(plan_warn_each_new(old, NULL, NULL, collect, &sb), 0);
	assert_string_equal(strbuf_str(&sb),
	                    "warning: swp1-swp3: htb approximates\n"
	                    "warning: swp1: class A gets no filter\n"
	                    "note: swp3: untagged\n");
	strbuf_free(&sb);
	/* swp4 is a new port: all of its messages are new */
	strbuf_init(&sb);
	assert_int_equal(plan_warn_each_new(now, before, NULL, collect, &sb),
	                 0);
	assert_string_equal(strbuf_str(&sb),
	                    "warning: swp2,swp3: class A gets no filter\n"
	                    "warning: swp3: untagged\n"
	                    "warning: swp4: htb approximates\n");
	strbuf_free(&sb);
	/* the same plan again brings nothing */
	for (size_t i = 0; i < 4; i++)
		before[i] = &now->ports[i];
	strbuf_init(&sb);
	assert_int_equal(plan_warn_each_new(now, before, NULL, collect, &sb),
	                 0);
	assert_string_equal(strbuf_str(&sb), "");
	strbuf_free(&sb);
	done(old);
	done(now);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_many_ports_one_line),
	    cmocka_unit_test(test_ranges_and_order),
	    cmocka_unit_test(test_ports_text),
	    cmocka_unit_test(test_nothing),
	    cmocka_unit_test(test_new_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
