/* Unit tests of the config loader (lib/conf/conf.c), the writer
 * (lib/conf/conf_write.c) and the checks of lib/model/policy_validate.c as the
 * file reaches them: the shipped file, value forms, a table of bad configs with
 * their line and message, warnings, one-pass reporting and round trips. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf/conf.h"
#include "policy_eq.h"
#include "base/diag.h"
#include "model/policy.h"
#include "test_conf.h"

#define SHIPPED TEST_SRCDIR "/conf/roced.conf"

static void dump_diag(const struct diag *d)
{
	char line[512];

	for (size_t i = 0; i < d->n; i++) {
		diag_format(d, i, line, sizeof(line));
		print_message("  %s\n", line);
	}
}

/* Load TEXT that must be valid; warnings allowed. */
static void load_ok(const char *text, struct policy *p)
{
	struct diag d;

	diag_init(&d, "good.conf");
	if (conf_load_string(text, p, &d) != 0) {
		dump_diag(&d);
		fail_msg("config did not load:\n%s", text);
	}
	diag_free(&d);
}

/* Index of the message at LINE of severity SEV whose rendered text holds
 * NEEDLE, or -1. */
static int find_msg(const struct diag *d, enum diag_severity sev, unsigned line,
                    const char *needle)
{
	char want[64], buf[1024];

	snprintf(want, sizeof(want), "%s:%u: %s: ", d->file, line,
	         sev == DIAG_ERROR ? "error" : "warning");
	for (size_t i = 0; i < d->n; i++) {
		diag_format(d, i, buf, sizeof(buf));
		if (d->v[i].sev == sev && !strncmp(buf, want, strlen(want)) &&
		    strstr(buf, needle))
			return (int)i;
	}
	return -1;
}

/* ---- the shipped file ---- */

/* Line of the first line of the file at PATH that contains NEEDLE. */
static unsigned file_line_of(const char *path, const char *needle)
{
	char buf[512];
	unsigned n = 0;
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	while (fgets(buf, sizeof(buf), f)) {
		n++;
		if (buf[0] != '#' && strstr(buf, needle)) {
			fclose(f);
			return n;
		}
	}
	fclose(f);
	fail_msg("'%s' not in %s", needle, path);
	return 0;
}

static void test_shipped(void **state)
{
	const struct policy_map_queuing *mq;
	const struct policy_queue *q3;
	struct policy p;
	struct diag d;

	(void)state;
	diag_init(&d, SHIPPED);
	if (conf_load_file(SHIPPED, &p, &d) != 0) {
		dump_diag(&d);
		fail_msg("shipped config does not load");
	}
	/* Not even a warning in the reference policy. */
	assert_int_equal(d.n, 0);
	diag_free(&d);

	assert_int_equal(p.nclass_qos, 1);
	assert_string_equal(p.class_qos[0].name, "ROCE_CLASS");
	assert_int_equal(p.class_qos[0].match, POLICY_MATCH_ANY);
	assert_int_equal(p.class_qos[0].cos, 1u << 3);
	assert_true(p.class_qos[0].dscp == 1ULL << 26);
	assert_int_equal(p.class_qos[0].line,
	                 file_line_of(SHIPPED, "name = \"ROCE_CLASS\"; match"));

	assert_int_equal(p.nmap_qos, 1);
	assert_string_equal(p.map_qos[0].name, "ROCE_POLICY");
	assert_int_equal(p.map_qos[0].nrules, 1);
	assert_string_equal(p.map_qos[0].rules[0].class_name, "ROCE_CLASS");
	assert_true(p.map_qos[0].rules[0].set_qos_group);
	assert_int_equal(p.map_qos[0].rules[0].qos_group, 3);

	assert_int_equal(p.nmap_queuing, 1);
	mq = &p.map_queuing[0];
	assert_string_equal(mq->name, "ROCE_QUEUING_OUT");
	q3 = &mq->queue[3];
	assert_true(q3->configured && q3->has_bandwidth);
	assert_int_equal(q3->bandwidth_percent, 50);
	assert_int_equal(q3->priority_level, 0);
	assert_true(q3->wred.enabled && q3->wred.ecn);
	assert_int_equal(q3->wred.min_bytes, 150 * 1024);
	assert_int_equal(q3->wred.max_bytes, 3000 * 1024);
	assert_int_equal(q3->wred.drop_probability, 7);
	assert_int_equal(q3->wred.weight, 0);
	assert_int_equal(q3->wred.probability_line,
	                 file_line_of(SHIPPED, "drop-probability = 7"));
	for (unsigned q = 1; q <= 2; q++) {
		assert_true(mq->queue[q].configured);
		assert_true(mq->queue[q].has_bandwidth);
		assert_int_equal(mq->queue[q].bandwidth_percent, 0);
		assert_false(mq->queue[q].wred.enabled);
	}
	assert_true(mq->queue[0].configured);
	assert_int_equal(mq->queue[0].bandwidth_percent, 50);
	for (unsigned q = 4; q < POLICY_NQUEUES; q++)
		assert_false(mq->queue[q].configured);

	assert_int_equal(p.nclass_nq, 1);
	assert_string_equal(p.class_nq[0].name, "ROCE_NETWORK_CLASS");
	assert_int_equal(p.class_nq[0].qos_groups, 1u << 3);
	assert_int_equal(p.nmap_nq, 1);
	assert_int_equal(p.map_nq[0].nrules, 2);
	assert_string_equal(p.map_nq[0].rules[0].class_name,
	                    "ROCE_NETWORK_CLASS");
	assert_int_equal(p.map_nq[0].rules[0].pfc_cos, 1u << 3);
	assert_int_equal(p.map_nq[0].rules[0].mtu, 9216);
	assert_string_equal(p.map_nq[0].rules[1].class_name, POLICY_NQ_DEFAULT);
	assert_int_equal(p.map_nq[0].rules[1].pfc_cos, 0);
	assert_int_equal(p.map_nq[0].rules[1].mtu, 9216);
	assert_string_equal(p.system.network_qos, "ROCE_NETWORK_POLICY");
	assert_string_equal(p.system.qos_input, "");

	assert_int_equal(p.nifaces, 1);
	assert_string_equal(p.ifaces[0].name, "swp1");
	assert_string_equal(p.ifaces[0].alias, "Ethernet1/1");
	assert_int_equal(p.ifaces[0].pfc_mode, POLICY_PFC_ON);
	assert_int_equal(p.ifaces[0].watchdog, POLICY_INHERIT);
	assert_string_equal(p.ifaces[0].qos_input, "ROCE_POLICY");
	assert_string_equal(p.ifaces[0].queuing_output, "ROCE_QUEUING_OUT");
	assert_int_equal(p.ifaces[0].line,
	                 file_line_of(SHIPPED, "name = \"swp1\""));

	assert_true(p.pfcwd.enabled);
	assert_int_equal(p.pfcwd.poll_ms, 100);
	assert_int_equal(p.pfcwd.shutdown_mult, 1);
	assert_int_equal(p.pfcwd.auto_restore_mult, 10);
	assert_int_equal(p.pfcwd.fixed_restore_mult, 0);
	assert_int_equal(p.pfcwd.internal_if_mult, 2);
	policy_free(&p);
}

static void test_missing_file(void **state)
{
	struct policy p;
	struct diag d;
	char buf[512];

	(void)state;
	diag_init(&d, NULL);
	assert_int_equal(conf_load_file("/nonexistent/roced.conf", &p, &d), -1);
	assert_int_equal(d.nerrors, 1);
	diag_format(&d, 0, buf, sizeof(buf));
	assert_non_null(strstr(buf, "/nonexistent/roced.conf: error: cannot "
	                            "open"));
	assert_non_null(strstr(buf, "No such file or directory"));
	assert_int_equal(p.nclass_qos, 0);
	assert_int_equal(p.nifaces, 0);
	diag_free(&d);

	/* A directory opens but does not read: an error, not a crash. */
	diag_init(&d, NULL);
	assert_int_equal(conf_load_file(TEST_SRCDIR "/conf", &p, &d), -1);
	assert_int_equal(d.nerrors, 1);
	diag_format(&d, 0, buf, sizeof(buf));
	assert_non_null(strstr(buf, "cannot read"));
	diag_free(&d);
}

/* ---- value forms ---- */

static void test_value_forms(void **state)
{
	struct policy p;
	const char *text =
	    "class-map = {\n"
	    "  qos = (\n"
	    "    { name = \"A\"; match = \"any\"; cos = [3, 4];\n"
	    "      dscp = [\"af31\", \"ef\"]; },\n"
	    "    { name = \"B\"; cos = \"0-2,5\"; dscp = \"cs3-af31,63\"; },\n"
	    "    { name = \"C\"; dscp = \"AF41\"; cos = 0; }\n"
	    "  );\n"
	    "  network-qos = ( { name = \"N\"; qos-group = [\"3\", \"4-5\"]; "
	    "} );\n"
	    "};\n"
	    "policy-map = {\n"
	    "  qos = ( { name = \"P\"; class = (\n"
	    "    { name = \"A\"; set-qos-group = 3; },\n"
	    "    { name = \"class-default\"; } ); } );\n"
	    "  queuing = ( { name = \"Q\"; class = (\n"
	    "    { name = \"c-out-8q-q0\"; random-detect = {\n"
	    "        minimum-threshold = 1500; maximum-threshold = "
	    "\"2mbytes\";\n"
	    "        ecn = \"on\"; }; },\n"
	    "    { name = \"c-out-8q-q6\"; random-detect = {\n"
	    "        minimum-threshold = \" 10 bytes \"; maximum-threshold = "
	    "20L; }; } ); } );\n"
	    "  network-qos = ( { name = \"NP\"; class = (\n"
	    "    { name = \"N\"; pause-pfc-cos = \"3,5\"; } ); } );\n"
	    "};\n"
	    "system-qos = { service-policy = { network-qos = \"NP\"; }; };\n"
	    "interface = ( { name = \"swp1\"; priority-flow-control = {\n"
	    "    mode = \"off\"; watch-dog-interval = \"off\"; }; },\n"
	    "  { name = \"swp2\"; priority-flow-control = {\n"
	    "    watch-dog-interval = true; }; } );\n"
	    "priority-flow-control = { watch-dog-interval = \"on\"; };\n"
	    "# 12345678901234 in a comment is no integer\n"
	    "/* nor 99999999999\n   here */ // 88888888888\n";

	(void)state;
	load_ok(text, &p);
	assert_int_equal(p.class_qos[0].match, POLICY_MATCH_ANY);
	assert_int_equal(p.class_qos[0].cos, 0x18);
	assert_true(p.class_qos[0].dscp == ((1ULL << 26) | (1ULL << 46)));
	assert_int_equal(p.class_qos[0].dscp_line, 4);
	assert_int_equal(p.class_qos[1].match, POLICY_MATCH_ALL);
	assert_int_equal(p.class_qos[1].cos, 0x27);
	assert_true(p.class_qos[1].dscp == ((7ULL << 24) | (1ULL << 63)));
	assert_true(p.class_qos[2].dscp == 1ULL << 34);
	assert_int_equal(p.class_qos[2].cos, 1);
	assert_int_equal(p.class_nq[0].qos_groups, 0x38);
	assert_false(p.map_qos[0].rules[1].set_qos_group);
	assert_true(p.map_queuing[0].queue[0].wred.ecn);
	assert_int_equal(p.map_queuing[0].queue[0].wred.min_bytes, 1500);
	assert_int_equal(p.map_queuing[0].queue[0].wred.max_bytes,
	                 2 * 1024 * 1024);
	/* Defaults of the optional random-detect parts. */
	assert_int_equal(p.map_queuing[0].queue[0].wred.drop_probability, 100);
	assert_int_equal(p.map_queuing[0].queue[0].wred.weight, 0);
	assert_false(p.map_queuing[0].queue[6].wred.ecn);
	assert_int_equal(p.map_queuing[0].queue[6].wred.min_bytes, 10);
	assert_int_equal(p.map_queuing[0].queue[6].wred.max_bytes, 20);
	assert_false(p.map_queuing[0].queue[6].has_bandwidth);
	assert_int_equal(p.map_nq[0].rules[0].pfc_cos, 0x28);
	assert_int_equal(p.map_nq[0].rules[0].mtu, 0);
	assert_int_equal(p.ifaces[0].pfc_mode, POLICY_PFC_OFF);
	assert_int_equal(p.ifaces[0].watchdog, POLICY_OFF);
	assert_int_equal(p.ifaces[1].pfc_mode, POLICY_PFC_AUTO);
	assert_int_equal(p.ifaces[1].watchdog, POLICY_ON);
	assert_true(p.pfcwd.enabled);
	policy_free(&p);
}

static void test_empty_config(void **state)
{
	struct policy p;
	struct diag d;

	(void)state;
	diag_init(&d, "empty.conf");
	assert_int_equal(conf_load_string("# nothing\n", &p, &d), 0);
	assert_int_equal(d.n, 0);
	assert_int_equal(p.nclass_qos + p.nmap_qos + p.nifaces, 0);
	assert_int_equal(p.pfcwd.poll_ms, POLICY_PFCWD_POLL_MS);
	assert_false(p.pfcwd.enabled);
	/* No interface list: the daemon will not reload it over ports it
	 * programs unless forced (a file caught half written). */
	assert_int_equal(p.ifaces_line, 0);
	policy_free(&p);
	diag_free(&d);
}

/* An interface list, even an empty one, is the file saying which ports
 * it means; its line is kept. */
static void test_interface_list_stated(void **state)
{
	struct policy p;
	struct diag d;

	(void)state;
	diag_init(&d, "x.conf");
	assert_int_equal(
	    conf_load_string("# none\n\ninterface = ( );\n", &p, &d), 0);
	assert_int_equal(d.n, 0);
	assert_int_equal(p.nifaces, 0);
	assert_int_equal(p.ifaces_line, 3);
	policy_free(&p);
	assert_int_equal(conf_load_string("interface = ( { name = \"swp1\"; "
	                                  "} );\n",
	                                  &p, &d),
	                 0);
	assert_int_equal(p.nifaces, 1);
	assert_int_equal(p.ifaces_line, 1);
	policy_free(&p);
	diag_free(&d);
}

/* A running-config without interfaces (rocesh took them all away) is
 * saved with an empty list, so that the daemon reloads it as it is. */
static void test_write_no_interfaces(void **state)
{
	struct policy p, q;
	char *t;

	(void)state;
	policy_init(&p);
	p.pfcwd.enabled = true;
	t = conf_write_string(&p);
	assert_non_null(t);
	assert_non_null(strstr(t, "interface = ( );\n"));
	load_ok(t, &q);
	assert_int_equal(q.nifaces, 0);
	assert_int_not_equal(q.ifaces_line, 0);
	free(t);
	policy_free(&q);
	policy_free(&p);
}

/* ---- bad configs: each with the line and the message it must give ---- */

static void test_bad_table(void **state)
{
	(void)state;
	assert_true(test_conf_nbad >= 25);
	for (size_t i = 0; i < test_conf_nbad; i++) {
		const struct bad_case *c = &test_conf_bad[i];
		unsigned want = c->nerrors ? c->nerrors : 1;
		struct policy p;
		struct diag d;
		int rc;

		diag_init(&d, "bad.conf");
		rc = conf_load_string(c->text, &p, &d);
		if (rc != -1 || find_msg(&d, DIAG_ERROR, c->line, c->msg) < 0 ||
		    d.nerrors != want) {
			print_message("case '%s': rc %d, %zu errors (want %u), "
			              "want line %u: %s\n",
			              c->name, rc, d.nerrors, want, c->line,
			              c->msg);
			dump_diag(&d);
			fail_msg("bad config case '%s' failed", c->name);
		}
		diag_free(&d);
	}
}

static void test_warnings(void **state)
{
	(void)state;
	for (size_t i = 0; i < test_conf_nwarn; i++) {
		const struct bad_case *c = &test_conf_warn[i];
		struct policy p;
		struct diag d;
		int rc;

		diag_init(&d, "warn.conf");
		rc = conf_load_string(c->text, &p, &d);
		if (rc != 0 || d.nwarnings != 1 ||
		    find_msg(&d, DIAG_WARNING, c->line, c->msg) < 0) {
			dump_diag(&d);
			fail_msg("warning case '%s' failed (rc %d)", c->name,
			         rc);
		}
		policy_free(&p);
		diag_free(&d);
	}
}

/* Every error of a file in one run, in line order, with a warning too. */
static void test_one_pass(void **state)
{
	static const struct {
		unsigned line;
		const char *msg;
	} want[] = {
	    {2, "cos 8 in class-map type qos C"},
	    {3, "unknown setting 'dscpp'"},
	    {6, "class NOPE in policy-map type qos P is not defined"},
	    {9, "bandwidth remaining percent of policy-map Q adds up to 160"},
	    {10, "drop-probability 200"},
	    {14, "mtu 10000"},
	    {17, "policy-map type network-qos NQ is not defined"},
	    {19, "interface swp1 is configured twice"},
	    {20, "invalid priority-flow-control mode 'maybe'"},
	    {22, "interval 5 in watch-dog"},
	};
	const char *text =
	    "class-map = {\n"                             /* 1 */
	    "  qos = ( { name = \"C\"; cos = 8; },\n"     /* 2 */
	    "          { name = \"D\"; dscpp = 3; } );\n" /* 3 */
	    "};\n"                                        /* 4 */
	    "policy-map = {\n"                            /* 5 */
	    "  qos = ( { name = \"P\"; class = ( { name = \"NOPE\"; } ); "
	    "} );\n"                          /* 6 */
	    "  queuing = (\n"                 /* 7 */
	    "    { name = \"WQ\"; },\n"       /* 8 */
	    "    { name = \"Q\"; class = (\n" /* 9 */
	    "      { name = \"c-out-8q-q3\"; random-detect = { "
	    "drop-probability = 200;\n" /* 10 */
	    "          minimum-threshold = 1; maximum-threshold = 2; }; },\n"
	    "      { name = \"c-out-8q-q-default\"; "
	    "bandwidth-remaining-percent = 60; }, { name = \"c-out-8q-q2\"; "
	    "bandwidth-remaining-percent = 100; } ); } );\n" /* 12 */
	    "  network-qos = ( { name = \"NP\"; class = (\n" /* 13 */
	    "    { name = \"c-8q-nq-default\"; mtu = 10000; } ); } );\n"
	    "};\n"                                  /* 15 */
	    "system-qos = { service-policy = {\n"   /* 16 */
	    "  network-qos = \"NQ\"; }; };\n"       /* 17 */
	    "interface = ( { name = \"swp1\"; },\n" /* 18 */
	    "  { name = \"swp1\"; },\n"             /* 19 */
	    "  { name = \"swp2\"; priority-flow-control = { mode = "
	    "\"maybe\"; }; } );\n"        /* 20 */
	    "priority-flow-control = {\n" /* 21 */
	    "  watch-dog = { interval = 5; }; auto-restore-multiplier = 0; "
	    "};\n";
	size_t n = sizeof(want) / sizeof(want[0]);
	struct policy p;
	struct diag d;
	int last = -1;

	(void)state;
	diag_init(&d, "multi.conf");
	assert_int_equal(conf_load_string(text, &p, &d), -1);
	if (d.nerrors != n)
		dump_diag(&d);
	assert_int_equal(d.nerrors, n);
	for (size_t i = 0; i < n; i++) {
		int at = find_msg(&d, DIAG_ERROR, want[i].line, want[i].msg);

		if (at < 0) {
			dump_diag(&d);
			fail_msg("missing %u: %s", want[i].line, want[i].msg);
		}
		assert_true(at > last); /* sorted by line */
		last = at;
	}
	/* Warnings come in the same run. */
	assert_int_equal(d.nwarnings, 1);
	assert_true(find_msg(&d, DIAG_WARNING, 22, "stays shut") >= 0);
	diag_free(&d);
}

static void test_failure_leaves_policy_empty(void **state)
{
	struct policy p;
	struct diag d;

	(void)state;
	diag_init(&d, "bad.conf");
	assert_int_equal(conf_load_string(CLASSES "interface = ( { name = "
	                                          "\"swp1\"; alias = 3; } );\n",
	                                  &p, &d),
	                 -1);
	assert_true(find_msg(&d, DIAG_ERROR, 5,
	                     "alias in interface swp1 must be a string, not an "
	                     "integer") >= 0);
	assert_int_equal(p.nclass_qos, 0);
	assert_int_equal(p.nclass_nq, 0);
	assert_int_equal(p.nifaces, 0);
	assert_null(p.ifaces);
	diag_free(&d);
}

/* ---- round trips: load(write(p)) == p ---- */

/* write(P) loads back equal to P, and writing that again gives the same
 * text (the written form is canonical). */
static void check_round_trip(const struct policy *p)
{
	struct policy q;
	char *t1, *t2;

	t1 = conf_write_string(p);
	assert_non_null(t1);
	load_ok(t1, &q);
	policy_assert_equal(p, &q);
	t2 = conf_write_string(&q);
	assert_non_null(t2);
	assert_string_equal(t1, t2);
	free(t1);
	free(t2);
	policy_free(&q);
}

static void test_round_trip_shipped(void **state)
{
	struct policy p;
	struct diag d;

	(void)state;
	diag_init(&d, SHIPPED);
	assert_int_equal(conf_load_file(SHIPPED, &p, &d), 0);
	diag_free(&d);
	check_round_trip(&p);
	policy_free(&p);
}

static void test_round_trip_rich(void **state)
{
	const char *text =
	    "class-map = {\n"
	    "  qos = (\n"
	    "    { name = \"ROCE\"; cos = 3; dscp = \"af31,cs3\"; },\n"
	    "    { name = \"CNP\"; match = \"any\"; cos = [6]; dscp = 48; },\n"
	    "    { name = \"BULK\"; match = \"any\"; cos = \"0-2,5\"; },\n"
	    "    { name = \"EMPTY\"; }\n"
	    "  );\n"
	    "  network-qos = ( { name = \"LOSSLESS\"; qos-group = \"3-4\"; },\n"
	    "                  { name = \"CTRL\"; qos-group = 6; } );\n"
	    "};\n"
	    "policy-map = {\n"
	    "  qos = (\n"
	    "    { name = \"IN\"; class = (\n"
	    "        { name = \"CNP\"; set-qos-group = 6; },\n"
	    "        { name = \"ROCE\"; set-qos-group = 3; },\n"
	    "        { name = \"BULK\"; set-qos-group = 4; },\n"
	    "        { name = \"class-default\"; } ); },\n"
	    "    { name = \"NONE\"; }\n"
	    "  );\n"
	    "  queuing = (\n"
	    "    { name = \"OUT\"; class = (\n"
	    "        { name = \"c-out-8q-q-default\"; "
	    "bandwidth-remaining-percent = 30; },\n"
	    "        { name = \"c-out-8q-q7\"; priority-level = 1; },\n"
	    "        { name = \"c-out-8q-q3\"; bandwidth-remaining-percent = "
	    "50;\n"
	    "          random-detect = { minimum-threshold = \"150 kbytes\";\n"
	    "            maximum-threshold = \"1 mbytes\"; drop-probability = "
	    "0;\n"
	    "            weight = 10; ecn = false; }; },\n"
	    "        { name = \"c-out-8q-q4\"; bandwidth-remaining-percent = "
	    "20;\n"
	    "          random-detect = { minimum-threshold = 1500;\n"
	    "            maximum-threshold = 1500; }; } ); },\n"
	    "    { name = \"PLAIN\"; class = ( { name = \"c-out-8q-q2\"; } ); "
	    "}\n"
	    "  );\n"
	    "  network-qos = ( { name = \"NQ\"; class = (\n"
	    "      { name = \"LOSSLESS\"; pause-pfc-cos = \"3-4\"; mtu = 9000; "
	    "},\n"
	    "      { name = \"CTRL\"; },\n"
	    "      { name = \"c-8q-nq-default\"; mtu = 1500; } ); } );\n"
	    "};\n"
	    "system-qos = { service-policy = { network-qos = \"NQ\";\n"
	    "  qos-input = \"IN\"; queuing-output = \"OUT\"; }; };\n"
	    "interface = (\n"
	    "  { name = \"swp1\"; alias = \"Ethernet1/1\";\n"
	    "    priority-flow-control = { mode = \"on\"; watch-dog-interval = "
	    "false; };\n"
	    "    service-policy = { qos-input = \"NONE\"; queuing-output = "
	    "\"PLAIN\"; }; },\n"
	    "  { name = \"swp2\"; alias = \"uplink \\\"east\\\" \\\\ 2\";\n"
	    "    priority-flow-control = { mode = \"off\"; watch-dog-interval "
	    "= "
	    "\"on\"; }; qdisc-takeover = true; },\n"
	    "  { name = \"veth-a.100\"; service-policy = { queuing-output = "
	    "\"OUT\"; }; }\n"
	    ");\n"
	    "priority-flow-control = { watch-dog-interval = false;\n"
	    "  watch-dog = { interval = 250; shutdown-multiplier = 3;\n"
	    "    internal-interface-multiplier = 4; };\n"
	    "  auto-restore-multiplier = 0; fixed-restore-multiplier = 20; "
	    "};\n";
	struct policy p;

	(void)state;
	load_ok(text, &p);
	/* Spot checks that the rich file says what it should. */
	assert_string_equal(p.ifaces[1].alias, "uplink \"east\" \\ 2");
	assert_true(p.ifaces[1].qdisc_takeover);
	assert_false(p.ifaces[0].qdisc_takeover);
	assert_int_equal(p.map_queuing[0].queue[7].priority_level, 1);
	assert_int_equal(p.map_queuing[0].queue[4].wred.min_bytes, 1500);
	assert_int_equal(p.map_queuing[0].queue[3].wred.weight, 10);
	assert_int_equal(p.map_nq[0].rules[1].pfc_cos, 0);
	assert_int_equal(p.pfcwd.fixed_restore_mult, 20);
	assert_int_equal(p.nmap_qos, 2);
	assert_int_equal(p.map_qos[1].nrules, 0);
	check_round_trip(&p);
	policy_free(&p);
}

/* A policy made in code (as rocesh makes it) also survives the trip. */
static void test_round_trip_built(void **state)
{
	struct policy p;
	struct policy_map_queuing *m;

	(void)state;
	policy_init(&p);
	m = policy_add_map_queuing(&p, "Q");
	m->queue[5].configured = true;
	m->queue[5].has_bandwidth = true;
	m->queue[5].bandwidth_percent = 100;
	m->queue[5].wred.enabled = true;
	m->queue[5].wred.min_bytes = 5 * 1048576;
	m->queue[5].wred.max_bytes = 5 * 1048576 + 1;
	m->queue[5].wred.drop_probability = 42;
	m->queue[5].wred.weight = 8;
	policy_add_iface(&p, "eth0");
	p.pfcwd.enabled = true;
	p.pfcwd.poll_ms = 1000;
	check_round_trip(&p);
	policy_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_shipped),
	    cmocka_unit_test(test_missing_file),
	    cmocka_unit_test(test_value_forms),
	    cmocka_unit_test(test_empty_config),
	    cmocka_unit_test(test_interface_list_stated),
	    cmocka_unit_test(test_write_no_interfaces),
	    cmocka_unit_test(test_bad_table),
	    cmocka_unit_test(test_warnings),
	    cmocka_unit_test(test_one_pass),
	    cmocka_unit_test(test_failure_leaves_policy_empty),
	    cmocka_unit_test(test_round_trip_shipped),
	    cmocka_unit_test(test_round_trip_rich),
	    cmocka_unit_test(test_round_trip_built),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
