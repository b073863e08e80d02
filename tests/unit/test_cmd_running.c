/* Unit tests of show running-config: the shipped roced.conf's text and
 * sections, a policy using every setting, the LLDP lines, the pasted
 * NX-OS reference, each round trip (the text pasted back gives the same
 * policy and the same text). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_session.h"
#include "conf/conf.h"
#include "plan/compile.h"
#include "policy_eq.h"

#define SHIPPED   TEST_SRCDIR "/conf/roced.conf"
#define REFERENCE TEST_SRCDIR "/conf/nxos-roce.txt"

/* ---- show running-config and round trips ---- */

static const char shipped_text[] =
    "class-map type qos match-any ROCE_CLASS\n"
    "  match cos 3\n"
    "  match dscp 26\n"
    "policy-map type qos ROCE_POLICY\n"
    "  class ROCE_CLASS\n"
    "    set qos-group 3\n"
    "policy-map type queuing ROCE_QUEUING_OUT\n"
    "  class type queuing c-out-8q-q3\n"
    "    bandwidth remaining percent 50\n"
    "    random-detect minimum-threshold 150 kbytes maximum-threshold 3000 "
    "kbytes drop-probability 7 weight 0 ecn\n"
    "  class type queuing c-out-8q-q2\n"
    "    bandwidth remaining percent 0\n"
    "  class type queuing c-out-8q-q1\n"
    "    bandwidth remaining percent 0\n"
    "  class type queuing c-out-8q-q-default\n"
    "    bandwidth remaining percent 50\n"
    "class-map type network-qos ROCE_NETWORK_CLASS\n"
    "  match qos-group 3\n"
    "policy-map type network-qos ROCE_NETWORK_POLICY\n"
    "  class type network-qos ROCE_NETWORK_CLASS\n"
    "    pause pfc-cos 3\n"
    "    mtu 9216\n"
    "  class type network-qos c-8q-nq-default\n"
    "    mtu 9216\n"
    "system qos\n"
    "  service-policy type network-qos ROCE_NETWORK_POLICY\n"
    "interface Ethernet1/1\n"
    "  priority-flow-control mode on\n"
    "  service-policy type qos input ROCE_POLICY\n"
    "  service-policy type queuing output ROCE_QUEUING_OUT\n"
    "!\n"
    "priority-flow-control watch-dog-interval on\n";

static void test_running_shipped(void **state)
{
	struct policy p;
	char *t;

	(void)state;
	tc_load(SHIPPED, &p);
	t = tc_running(&p, NULL);
	assert_string_equal(t, shipped_text);
	free(t);
	tc_round_trip(&p);
	/* sections */
	t = tc_running(&p, "interface Ethernet1/1");
	assert_string_equal(t, "interface Ethernet1/1\n"
	                       "  priority-flow-control mode on\n"
	                       "  service-policy type qos input ROCE_POLICY\n"
	                       "  service-policy type queuing output "
	                       "ROCE_QUEUING_OUT\n");
	free(t);
	t = tc_running(&p, "qos");
	assert_true(strstr(shipped_text, t) == shipped_text);
	assert_null(strstr(t, "interface"));
	assert_true(strstr(t, "system qos\n") != NULL);
	free(t);
	t = tc_running(&p, "interface swp9");
	assert_string_equal(t, "");
	free(t);
	policy_free(&p);
	policy_init(&p);
	t = tc_running(&p, NULL);
	assert_string_equal(t, "");
	free(t);
	policy_free(&p);
}

/* Every setting the policy can hold survives the round trip. */
static void test_running_rich(void **state)
{
	struct policy p;
	struct cmd_ctx c;

	(void)state;
	policy_init(&p);
	tc_session(
	    &p, &c,
	    LINES("class-map type qos match-any ANY", "match dscp 0-7,46",
	          "match cos 1,2", "class-map type qos EMPTY",
	          "class-map type network-qos NC", "match qos-group 3-4",
	          "policy-map type qos PQ", "class ANY", "set qos-group 4",
	          "class class-default", "set qos-group 0", "class EMPTY",
	          "policy-map type queuing PU",
	          "class type queuing c-out-8q-q7", "priority level 1",
	          "class type queuing c-out-8q-q4",
	          "bandwidth remaining percent 30",
	          "random-detect minimum-threshold 1000 bytes "
	          "maximum-threshold 1 mbytes drop-probability 100 weight 9",
	          "class type queuing c-out-8q-q5",
	          "class type queuing c-out-8q-q-default",
	          "bandwidth remaining percent 70",
	          "policy-map type network-qos PN", "class type network-qos NC",
	          "pause pfc-cos 3-4", "class type network-qos c-8q-nq-default",
	          "system qos", "service-policy type network-qos PN",
	          "service-policy type qos input PQ",
	          "service-policy type queuing output PU", "interface eth0",
	          "priority-flow-control mode off",
	          "priority-flow-control watch-dog-interval on",
	          "qdisc-takeover", "interface eth1",
	          "priority-flow-control watch-dog-interval off", "exit",
	          "priority-flow-control watch-dog interval 300",
	          "priority-flow-control watch-dog shutdown-multiplier 2",
	          "priority-flow-control watch-dog "
	          "internal-interface-multiplier 5",
	          "priority-flow-control auto-restore multiplier 0",
	          "priority-flow-control fixed-restore multiplier 30"));
	tc_round_trip(&p);
	policy_free(&p);
}

/* LLDP and DCBX: the global and interface lines, their `no`
 * forms, running-config and the file both ways. */
static void test_lldp_lines(void **state)
{
	struct policy p, q;
	struct cmd_ctx c;
	struct diag d;
	char *t, *text;

	(void)state;
	policy_init(&p);
	tc_session(
	    &p, &c,
	    LINES("no feature lldp", "lldp timer 10", "lldp holdtime 40",
	          "lldp reinit 5", "lldp tlv-select dcbxp egress-queuing",
	          "dcbx agent lldpad", "interface swp1", "no lldp transmit",
	          "no lldp receive", "lldp dcbx willing", "dcbx agent roced"));
	assert_true(p.lldp.no_feature);
	assert_int_equal(p.lldp.timer, 10);
	assert_int_equal(p.lldp.holdtime, 40);
	assert_int_equal(p.lldp.reinit, 5);
	assert_true(p.lldp.egress_queuing);
	assert_false(p.lldp.no_dcbxp);
	assert_int_equal(p.lldp.agent, POLICY_DCBX_AGENT_LLDPAD);
	assert_true(p.ifaces[0].lldp.no_transmit);
	assert_true(p.ifaces[0].lldp.no_receive);
	assert_true(p.ifaces[0].lldp.willing);
	assert_true(p.ifaces[0].lldp.has_agent);
	assert_int_equal(policy_iface_dcbx_agent(&p, &p.ifaces[0]),
	                 POLICY_DCBX_AGENT_ROCED);
	t = tc_running(&p, NULL);
	assert_non_null(strstr(t, "no feature lldp\nlldp timer 10\n"
	                          "lldp holdtime 40\nlldp reinit 5\n"
	                          "lldp tlv-select dcbxp egress-queuing\n"
	                          "dcbx agent lldpad\n"));
	assert_non_null(strstr(t, "interface swp1\n  no lldp transmit\n"
	                          "  no lldp receive\n  lldp dcbx willing\n"
	                          "  dcbx agent roced\n"));
	free(t);
	tc_round_trip(&p);
	/* The file holds the same. */
	text = conf_write_string(&p);
	assert_non_null(text);
	diag_init(&d, NULL);
	assert_int_equal(conf_load_string(text, &q, &d), 0);
	policy_assert_equal(&p, &q);
	policy_free(&q);
	diag_free(&d);
	free(text);
	/* Interface mode: out of its range, `no` of what is not there. */
	tc_apply_bad(&p, &c, "no dcbx agent lldpad", "is not configured",
	             (size_t)-1);
	tc_apply(&p, &c, "no dcbx agent");
	assert_false(p.ifaces[0].lldp.has_agent);
	tc_apply_bad(&p, &c, "no dcbx agent", "is not configured", 0);
	tc_paste(&p, &c,
	         "lldp transmit\nlldp receive\nno lldp dcbx willing\nexit\n"
	         "no feature lldp\nfeature lldp\nno lldp timer 10\n"
	         "no lldp holdtime\nno lldp reinit\nno lldp tlv-select dcbxp\n"
	         "no dcbx agent lldpad\n");
	assert_false(p.ifaces[0].lldp.no_transmit);
	assert_false(p.ifaces[0].lldp.no_receive);
	assert_false(p.ifaces[0].lldp.willing);
	assert_false(p.lldp.no_feature);
	assert_int_equal(p.lldp.timer, POLICY_LLDP_TIMER);
	assert_int_equal(p.lldp.holdtime, POLICY_LLDP_HOLDTIME);
	assert_int_equal(p.lldp.reinit, POLICY_LLDP_REINIT);
	assert_true(p.lldp.no_dcbxp);
	assert_int_equal(p.lldp.agent, POLICY_DCBX_AGENT_ROCED);
	tc_apply_bad(&p, &c, "lldp timer 4", "", (size_t)-1);
	t = tc_running(&p, NULL);
	assert_string_equal(t, "no lldp tlv-select dcbxp\ninterface swp1\n");
	free(t);
	tc_apply(&p, &c, "lldp tlv-select dcbxp");
	assert_false(p.lldp.no_dcbxp);
	policy_free(&p);
}

/* Pasting the NX-OS reference gives what the shipped roced.conf loads.
 * The reference names the port Ethernet1/1, an NX-OS name that cannot be
 * a Linux one; the shipped file maps it to swp1 by an alias. So the
 * session first declares the port as the file does (interface swp1,
 * alias Ethernet1/1), then pastes the reference whole, `!` lines
 * included: the one before the last line ends the interface block, so
 * `priority-flow-control watch-dog-interval on` is global, as its comment
 * says. */
static void test_reference_paste(void **state)
{
	struct policy shipped, p;
	struct cmd_ctx c;
	struct diag d;
	FILE *f = fopen(REFERENCE, "r");
	char buf[8192];
	size_t n;

	(void)state;
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	tc_load(SHIPPED, &shipped);
	policy_init(&p);
	tc_session(&p, &c, LINES("interface swp1", "alias Ethernet1/1", "end"));
	tc_apply(&p, &c, "configure terminal");
	tc_paste(&p, &c, buf);
	policy_assert_equal(&shipped, &p);
	/* and the result passes the file's checks */
	diag_init(&d, NULL);
	assert_int_equal(policy_validate(&p, &d), 0);
	diag_free(&d);
	policy_free(&p);
	policy_free(&shipped);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_running_shipped),
	    cmocka_unit_test(test_running_rich),
	    cmocka_unit_test(test_lldp_lines),
	    cmocka_unit_test(test_reference_paste),
	};

	return cmocka_run_group_tests_name("cmd_running", tests, NULL, NULL);
}
