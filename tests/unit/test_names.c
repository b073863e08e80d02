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

#include "base/diag.h"
#include "base/names.h"
#include "conf/conf.h"
#include "model/caps.h"
#include "model/policy.h"
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
	/* Probed kinds that no plan holds, and kinds roced does not know;
	 * tbf is software PFC's leaf. */
	assert_int_equal(caps_qdisc_parse("tbf"), CAPS_QDISC_TBF);
	assert_int_equal(plan_qdisc_kind_parse("tbf"), PLAN_QD_TBF);
	assert_int_equal(plan_qdisc_kind_parse("mqprio"), -1);
	assert_int_equal(caps_qdisc_parse("fq_codel"), -1);
	assert_int_equal(plan_qdisc_kind_parse("fq_codel"), -1);
	assert_int_equal(plan_qdisc_kind_parse("HTB"), -1);
	assert_int_equal(caps_qdisc_parse(NULL), -1);
	assert_string_equal(caps_qdisc_name(CAPS_QDISC_MAX), "?");
	assert_string_equal(
	    plan_qdisc_kind_name((enum plan_qdisc_kind)CAPS_QDISC_MQPRIO), "?");
	assert_string_equal(plan_qdisc_kind_name(PLAN_QD_TBF), "tbf");
}

/* ---- port states in show (lib/model/plan.c) ---- */

static void test_port_states(void **state)
{
	static const struct {
		enum plan_port_state s;
		const char *name, *text;
	} want[] = {
	    {PLAN_PORT_PROGRAMMED, "programmed", "programmed"},
	    {PLAN_PORT_NOT_PROGRAMMED, "not-programmed", "not programmed"},
	    {PLAN_PORT_REFUSED, "refused", "refused"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		assert_string_equal(plan_port_state_name(want[i].s),
		                    want[i].name);
		assert_string_equal(plan_port_state_text(want[i].s),
		                    want[i].text);
		assert_int_equal(plan_port_state_parse(want[i].name),
		                 (int)want[i].s);
	}
	/* the text's words are not JSON names */
	assert_int_equal(plan_port_state_parse("not programmed"), -1);
	assert_int_equal(plan_port_state_parse("Programmed"), -1);
	assert_int_equal(plan_port_state_parse(""), -1);
	assert_string_equal(plan_port_state_name((enum plan_port_state)99),
	                    "?");
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
	assert_string_equal(plan_filter_kind_name(PLAN_FILTER_BPF), "bpf");
	assert_int_equal(CAPS_CLS_BPF, 1u << PLAN_FILTER_BPF);
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

/* ---- PFC modes (lib/model/policy.c) ---- */

static void test_pfc_modes(void **state)
{
	struct policy p;
	struct diag d;
	char buf[64];

	(void)state;
	for (int m = 0; m < POLICY_PFC_NMODES; m++) {
		const char *name =
		    policy_pfc_mode_name((enum policy_pfc_mode)m);

		assert_string_not_equal(name, "?");
		assert_int_equal(policy_pfc_mode_parse(name), m);
		assert_string_not_equal(
		    policy_pfc_mode_help((enum policy_pfc_mode)m), "?");
	}
	assert_int_equal(policy_pfc_mode_parse("enabled"), -1);
	assert_int_equal(policy_pfc_mode_parse(NULL), -1);
	assert_string_equal(policy_pfc_mode_help(POLICY_PFC_OFF),
	                    "Disable PFC");
	assert_int_equal(policy_pfc_mode_expected(buf, sizeof(buf)), 15);
	assert_string_equal(buf, "auto, on or off");
	/* Validation refuses a mode outside the table with its words. */
	policy_init(&p);
	assert_non_null(policy_add_iface(&p, "swp1"));
	p.ifaces[0].pfc_mode = (enum policy_pfc_mode)POLICY_PFC_NMODES;
	diag_init(&d, NULL);
	assert_int_equal(policy_validate(&p, &d), 1);
	assert_string_equal(d.v[0].text,
	                    "invalid priority-flow-control mode of "
	                    "interface swp1, expected auto, on or "
	                    "off");
	diag_free(&d);
	policy_free(&p);
}

/* ---- DCBX agents (lib/model/policy.c) ---- */

static void test_dcbx_agents(void **state)
{
	struct policy p;
	struct diag d;
	char buf[64];

	(void)state;
	for (int a = 0; a < POLICY_DCBX_NAGENTS; a++) {
		const char *name =
		    policy_dcbx_agent_name((enum policy_dcbx_agent)a);

		assert_string_not_equal(name, "?");
		assert_int_equal(policy_dcbx_agent_parse(name), a);
		assert_string_not_equal(
		    policy_dcbx_agent_help((enum policy_dcbx_agent)a), "?");
	}
	assert_int_equal(policy_dcbx_agent_parse("lldpd"), -1);
	assert_int_equal(policy_dcbx_agent_parse(NULL), -1);
	assert_string_equal(
	    policy_dcbx_agent_name((enum policy_dcbx_agent)POLICY_DCBX_NAGENTS),
	    "?");
	assert_int_equal(policy_dcbx_agent_expected(buf, sizeof(buf)), 15);
	assert_string_equal(buf, "roced or lldpad");
	/* The loader's refusal names the table's words, at its line. */
	diag_init(&d, NULL);
	assert_int_equal(conf_load_string("lldp = {\n dcbx-agent = "
	                                  "\"lldpd\"; };\n",
	                                  &p, &d),
	                 -1);
	assert_int_equal(d.nerrors, 1);
	assert_int_equal(d.v[0].line, 2);
	assert_string_equal(d.v[0].text, "invalid dcbx-agent 'lldpd' in lldp, "
	                                 "expected roced or lldpad");
	diag_free(&d);
	/* Validation refuses an agent outside the table with its words. */
	policy_init(&p);
	assert_non_null(policy_add_iface(&p, "swp1"));
	p.ifaces[0].lldp.has_agent = true;
	p.ifaces[0].lldp.agent = (enum policy_dcbx_agent)POLICY_DCBX_NAGENTS;
	diag_init(&d, NULL);
	assert_int_equal(policy_validate(&p, &d), 1);
	assert_string_equal(d.v[0].text, "invalid dcbx agent of interface "
	                                 "swp1, expected roced or lldpad");
	diag_free(&d);
	policy_free(&p);
}

/* ---- class-map match modes (lib/model/policy.c) ---- */

static void test_match_names(void **state)
{
	struct policy p;
	struct diag d;

	(void)state;
	assert_string_equal(policy_match_name(POLICY_MATCH_ALL), "all");
	assert_string_equal(policy_match_name(POLICY_MATCH_ANY), "any");
	assert_int_equal(policy_match_parse("all"), POLICY_MATCH_ALL);
	assert_int_equal(policy_match_parse("any"), POLICY_MATCH_ANY);
	assert_int_equal(policy_match_parse("match-any"), -1);
	assert_int_equal(policy_match_parse(NULL), -1);
	assert_string_equal(policy_match_name((enum policy_match)2), "?");
	/* The loader's refusal names the table's words. */
	diag_init(&d, NULL);
	assert_int_equal(conf_load_string("class-map = { qos = ( { name = "
	                                  "\"C\"; match = \"some\"; } ); };\n",
	                                  &p, &d),
	                 -1);
	assert_int_equal(d.nerrors, 1);
	assert_string_equal(d.v[0].text,
	                    "invalid match 'some' in class-map type qos C, "
	                    "expected \"all\" or \"any\"");
	diag_free(&d);
}

/* ---- roced.conf setting names (lib/conf/conf_keys.c) ---- */

/* Every setting roced.conf can hold, each set to something the writer
 * does not leave out. */
static const char conf_full[] =
    "class-map = { qos = ( { name = \"C\"; match = \"any\"; cos = 3;\n"
    "    dscp = \"24-31\"; precedence = 5; } );\n"
    "  network-qos = ( { name = \"N\"; qos-group = 3; } );\n"
    "  queuing = ( { name = \"UQ6\"; qos-group = 6; } ); };\n"
    "policy-map = {\n"
    "  qos = ( { name = \"P\"; class = ( { name = \"C\";\n"
    "    set-qos-group = 3; set-dscp = \"af31\"; set-cos = 3; } ); } );\n"
    "  queuing = ( { name = \"Q\"; class = (\n"
    "    { name = \"c-out-8q-q3\"; bandwidth-remaining-percent = 100;\n"
    "      random-detect = { minimum-threshold = \"150 kbytes\";\n"
    "        maximum-threshold = \"3 mbytes\"; drop-probability = 7;\n"
    "        weight = 2; ecn = true; }; },\n"
    "    { name = \"c-out-8q-q2\"; bandwidth-percent = 0;\n"
    "      queue-limit = \"1 mbytes\"; },\n"
    "    { name = \"c-out-8q-q4\"; queue-limit-dynamic = 3;\n"
    "      random-detect-threshold = { profile = \"burst-optimized\";\n"
    "        ecn = true; };\n"
    "      shape = { min = \"1 gbps\"; max = \"2 gbps\"; }; },\n"
    "    { name = \"UQ6\"; queue-limit = \"1 mbytes\"; },\n"
    "    { name = \"c-out-8q-q7\"; priority-level = 1; } ); },\n"
    "    { name = \"QI\"; class = ( { name = \"c-in-q3\";\n"
    "      pause-buffer = { buffer-size = 300; pause-threshold = 200;\n"
    "        resume-threshold = 100; }; } ); } );\n"
    "  network-qos = ( { name = \"NQ\"; class = ( { name = \"N\";\n"
    "    pause-pfc-cos = 3; pause-receive-only = true; mtu = 9216; },\n"
    "    { name = \"c-8q-nq5\"; pause-no-drop = true; } ); } ); };\n"
    "system-qos = { service-policy = { network-qos = \"NQ\";\n"
    "  qos-input = \"P\"; queuing-output = \"Q\";\n"
    "  queuing-input = \"QI\"; }; };\n"
    "interface = ( { name = \"swp1\"; alias = \"Ethernet1/1\";\n"
    "  description = \"d\"; mtu = 9000; shutdown = true;\n"
    "  priority-flow-control = { mode = \"on\"; watch-dog-interval = false; "
    "send-tlv = true; };\n"
    "  qdisc-takeover = true;\n"
    "  lldp = { transmit = false; receive = false; dcbx-willing = true;\n"
    "    dcbx-agent = \"roced\"; };\n"
    "  service-policy = { qos-input = \"P\"; queuing-output = \"Q\";\n"
    "    queuing-input = \"QI\"; }; },\n"
    "  { name = \"swp2\"; priority-flow-control = { mode = \"off\"; };\n"
    "    fabric-internal = true;\n"
    "    flowcontrol = { receive = true; send = true; };\n"
    "    channel-group = { number = 10; mode = \"active\"; }; } );\n"
    "port-channel = ( { name = \"port-channel10\";\n"
    "  lines = ( \"priority-flow-control mode on\" ); } );\n"
    "hardware-qos-pfc-mc-drop = true;\n"
    "priority-flow-control = { watch-dog-interval = true;\n"
    "  watch-dog = { interval = 250; shutdown-multiplier = 3;\n"
    "    internal-interface-multiplier = 4; action = \"alert\"; };\n"
    "  auto-restore-multiplier = 5; fixed-restore-multiplier = 6; };\n"
    "lldp = { feature = false; timer = 10; holdtime = 40; reinit = 3;\n"
    "  tlv-select = { dcbxp = true; egress-queuing = true; };\n"
    "  dcbx-agent = \"lldpad\"; };\n"
    "metrics = { textfile = \"/run/m/roced.prom\"; interval = 5; };\n"
    "roce = \"lossy\";\n";

/* Whether TEXT sets KEY somewhere: "KEY = " at the start of a word. */
static bool sets_key(const char *text, const char *key)
{
	size_t n = strlen(key);

	for (const char *p = strstr(text, key); p; p = strstr(p + 1, key))
		if ((p == text || strchr(" \t\n{", p[-1])) &&
		    !strncmp(p + n, " = ", 3))
			return true;
	return false;
}

static void test_conf_keys(void **state)
{
	struct policy p;
	struct diag d;
	char *text;

	(void)state;
	for (int k = 0; k < CONF_K_MAX; k++) {
		const char *name = conf_key_name((enum conf_key)k);

		assert_string_not_equal(name, "?");
		assert_int_equal(conf_key_parse(name), k);
	}
	assert_string_equal(conf_key_name(CONF_K_MINIMUM_THRESHOLD),
	                    "minimum-threshold");
	assert_int_equal(conf_key_parse("watchdog"), -1);
	assert_int_equal(conf_key_parse("Name"), -1);
	assert_int_equal(conf_key_parse(NULL), -1);
	assert_string_equal(conf_key_name(CONF_K_MAX), "?");

	/* The loader reads every name of the table and the writer writes
	 * every one back. */
	diag_init(&d, NULL);
	if (conf_load_string(conf_full, &p, &d))
		fail_msg("the full config does not load: %s",
		         d.n ? d.v[0].text : "?");
	text = conf_write_string(&p);
	assert_non_null(text);
	for (int k = 0; k < CONF_K_MAX; k++) {
		const char *name = conf_key_name((enum conf_key)k);

		if (!sets_key(conf_full, name))
			fail_msg("the full config lacks setting %s", name);
		if (!sets_key(text, name))
			fail_msg("the writer wrote no %s:\n%s", name, text);
	}
	free(text);
	policy_free(&p);
	diag_free(&d);
}

static void test_conf_keys_unknown(void **state)
{
	struct policy p;
	struct diag d;

	(void)state;
	diag_init(&d, NULL);
	assert_int_equal(conf_load_string("system-qos = { service-polcy = "
	                                  "{ }; watchdog = 1; };\n",
	                                  &p, &d),
	                 -1);
	assert_int_equal(d.nerrors, 2);
	assert_string_equal(d.v[0].text,
	                    "unknown setting 'service-polcy' in system-qos "
	                    "(did you mean 'service-policy'?)");
	assert_string_equal(d.v[1].text,
	                    "unknown setting 'watchdog' in system-qos, "
	                    "expected one of: service-policy");
	diag_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_units_names),
	    cmocka_unit_test(test_units_bytes),
	    cmocka_unit_test(test_units_errors),
	    cmocka_unit_test(test_qdisc_kinds),
	    cmocka_unit_test(test_port_states),
	    cmocka_unit_test(test_filter_kinds),
	    cmocka_unit_test(test_debug_names),
	    cmocka_unit_test(test_pfc_modes),
	    cmocka_unit_test(test_dcbx_agents),
	    cmocka_unit_test(test_match_names),
	    cmocka_unit_test(test_conf_keys),
	    cmocka_unit_test(test_conf_keys_unknown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
