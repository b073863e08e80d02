/* Unit tests of the configuration commands: each command's effect on a
 * policy and its `no` form, refusals that leave the policy alone, the
 * interactive validation, the WRED threshold limit, the PFC extensions
 * and the ETS scaling of partial shares. show running-config and its
 * round trips are test_cmd_running.c's. */
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

/* ---- the commands ---- */

static void test_class_maps(void **state)
{
	struct policy p;
	struct cmd_ctx c;
	const struct policy_class_qos *cq;

	(void)state;
	policy_init(&p);
	tc_session(&p, &c,
	           LINES("class-map type qos C", "match cos 3", "match cos 5",
	                 "match dscp af31,46"));
	cq = policy_find_class_qos(&p, "C");
	assert_non_null(cq);
	assert_int_equal(cq->match, POLICY_MATCH_ALL); /* NX-OS default */
	assert_int_equal(cq->cos, 0x28);
	assert_true(cq->dscp == ((1ull << 26) | (1ull << 46)));
	tc_apply(&p, &c, "no match cos 5");
	assert_int_equal(policy_find_class_qos(&p, "C")->cos, 0x08);
	tc_apply_bad(&p, &c, "no match cos 4", "match cos 4 is not configured",
	             13);
	tc_apply(&p, &c, "no match dscp");
	assert_true(policy_find_class_qos(&p, "C")->dscp == 0);
	tc_apply_bad(&p, &c, "no match dscp", "match dscp is not configured",
	             0);
	/* re-entering keeps the match mode unless one is given */
	tc_apply(&p, &c, "class-map type qos match-any C");
	assert_int_equal(policy_find_class_qos(&p, "C")->match,
	                 POLICY_MATCH_ANY);
	tc_apply(&p, &c, "class-map type qos C");
	assert_int_equal(policy_find_class_qos(&p, "C")->match,
	                 POLICY_MATCH_ANY);
	tc_apply_bad(&p, &c, "class-map type qos class-default", "built in",
	             19);
	tc_apply(&p, &c, "class-map type network-qos N");
	assert_int_equal(c.mode, CMD_MODE_CMAP_NQOS);
	tc_apply(&p, &c, "match qos-group 3,4");
	assert_int_equal(policy_find_class_nq(&p, "N")->qos_groups, 0x18);
	tc_apply(&p, &c, "no match qos-group 4");
	assert_int_equal(policy_find_class_nq(&p, "N")->qos_groups, 0x08);
	tc_apply_bad(&p, &c, "class-map type network-qos c-8q-nq-default",
	             "built in", 27);
	/* deleting: refused while a policy-map uses the class */
	tc_apply(&p, &c, "policy-map type qos P");
	tc_apply(&p, &c, "class C");
	tc_apply(&p, &c, "policy-map type network-qos NP");
	tc_apply(&p, &c, "class type network-qos N");
	tc_apply_bad(&p, &c, "no class-map type qos C",
	             "class-map C is in use by policy-map type qos P", 22);
	tc_apply_bad(&p, &c, "no class-map type network-qos N",
	             "in use by policy-map type network-qos NP", 30);
	tc_apply(&p, &c, "no policy-map type qos P");
	tc_apply(&p, &c, "no policy-map type network-qos NP");
	tc_apply(&p, &c, "no class-map type qos match-any C");
	tc_apply(&p, &c, "no class-map type network-qos N");
	assert_int_equal(p.nclass_qos, 0);
	assert_int_equal(p.nclass_nq, 0);
	tc_apply_bad(&p, &c, "no class-map type qos C", "does not exist", 22);
	policy_free(&p);
}

static void test_policy_qos(void **state)
{
	struct policy p;
	struct cmd_ctx c;
	const struct policy_map_qos *m;

	(void)state;
	policy_init(&p);
	tc_session(&p, &c,
	           LINES("class-map type qos C", "policy-map type qos P"));
	tc_apply_bad(&p, &c, "class NOPE",
	             "class-map type qos NOPE does not exist", 6);
	tc_apply(&p, &c, "class C");
	tc_apply(&p, &c, "set qos-group 3");
	tc_apply(&p, &c, "class class-default");
	tc_apply_bad(&p, &c, "no set qos-group",
	             "set qos-group is not "
	             "configured",
	             0);
	m = policy_find_map_qos(&p, "P");
	assert_int_equal(m->nrules, 2);
	assert_string_equal(m->rules[0].class_name, "C");
	assert_true(m->rules[0].set_qos_group);
	assert_int_equal(m->rules[0].qos_group, 3);
	assert_string_equal(m->rules[1].class_name, "class-default");
	assert_false(m->rules[1].set_qos_group);
	/* back into class C by the parent's command */
	tc_apply(&p, &c, "class C");
	assert_int_equal(policy_find_map_qos(&p, "P")->nrules, 2);
	tc_apply_bad(&p, &c, "no set qos-group 4", "set qos-group is 3, not 4",
	             17);
	tc_apply(&p, &c, "no set qos-group 3");
	assert_false(policy_find_map_qos(&p, "P")->rules[0].set_qos_group);
	tc_apply(&p, &c, "no class class-default");
	assert_int_equal(policy_find_map_qos(&p, "P")->nrules, 1);
	tc_apply_bad(&p, &c, "no class class-default", "is not in policy-map",
	             9);
	policy_free(&p);
}

static void test_policy_queuing(void **state)
{
	struct policy p;
	struct cmd_ctx c;
	const struct policy_queue *q;

	(void)state;
	policy_init(&p);
	tc_session(&p, &c,
	           LINES("policy-map type queuing Q",
	                 "class type queuing c-out-8q-q3",
	                 "bandwidth remaining percent 40",
	                 "random-detect minimum-threshold 100 bytes "
	                 "maximum-threshold 2 mbytes"));
	q = &policy_find_map_queuing(&p, "Q")->queue[3];
	assert_true(q->configured);
	assert_true(q->has_bandwidth);
	assert_int_equal(q->bandwidth_percent, 40);
	assert_true(q->wred.enabled);
	assert_int_equal(q->wred.min_bytes, 100);
	assert_int_equal(q->wred.max_bytes, 2u << 20);
	assert_int_equal(q->wred.drop_probability, 100); /* the defaults */
	assert_int_equal(q->wred.weight, 0);
	assert_false(q->wred.ecn);
	tc_apply(&p, &c,
	         "random-detect minimum-threshold 150 kbytes maximum-threshold "
	         "3000 kbytes drop-probability 7 weight 2 ecn");
	q = &policy_find_map_queuing(&p, "Q")->queue[3];
	assert_int_equal(q->wred.min_bytes, 150u * 1024);
	assert_int_equal(q->wred.drop_probability, 7);
	assert_int_equal(q->wred.weight, 2);
	assert_true(q->wred.ecn);
	tc_apply(&p, &c, "no random-detect");
	tc_apply_bad(&p, &c, "no random-detect", "not configured", 0);
	/* a refusal of the whole line points at its first word */
	tc_apply_bad(&p, &c, "   no random-detect", "not configured", 3);
	tc_apply(&p, &c, "no bandwidth remaining percent 40");
	tc_apply_bad(&p, &c, "no bandwidth", "not configured", 0);
	tc_apply(&p, &c, "class type queuing c-out-8q-q7");
	tc_apply(&p, &c, "priority");
	assert_int_equal(
	    policy_find_map_queuing(&p, "Q")->queue[7].priority_level, 1);
	tc_apply(&p, &c, "priority level 2");
	assert_int_equal(
	    policy_find_map_queuing(&p, "Q")->queue[7].priority_level, 2);
	tc_apply_bad(&p, &c, "no priority level 1",
	             "priority level is 2, not 1", 18);
	tc_apply(&p, &c, "no priority");
	assert_int_equal(
	    policy_find_map_queuing(&p, "Q")->queue[7].priority_level, 0);
	tc_apply(&p, &c, "no class type queuing c-out-8q-q3");
	q = &policy_find_map_queuing(&p, "Q")->queue[3];
	assert_false(q->configured);
	assert_int_equal(c.mode, CMD_MODE_PMAP_QUE);
	tc_apply_bad(&p, &c, "no class type queuing c-out-8q-q3",
	             "class c-out-8q-q3 is not in policy-map Q", 22);
	/* a queuing policy attached to an interface cannot go */
	tc_apply(&p, &c, "interface swp1");
	tc_apply(&p, &c, "service-policy type queuing output Q");
	tc_apply_bad(&p, &c, "no policy-map type queuing Q",
	             "policy-map Q is attached to interface swp1", 27);
	tc_apply(&p, &c, "no service-policy type queuing output");
	tc_apply(&p, &c, "no policy-map type queuing Q");
	assert_int_equal(p.nmap_queuing, 0);
	policy_free(&p);
}

static void test_policy_nq_and_system(void **state)
{
	struct policy p;
	struct cmd_ctx c;
	const struct policy_map_nq *m;

	(void)state;
	policy_init(&p);
	tc_session(&p, &c,
	           LINES("class-map type network-qos N", "match qos-group 3",
	                 "policy-map type network-qos NP",
	                 "class type network-qos N", "pause pfc-cos 3,4",
	                 "pause pfc-cos 3", "mtu 9216",
	                 "class type network-qos c-8q-nq-default", "mtu 1500"));
	m = policy_find_map_nq(&p, "NP");
	assert_int_equal(m->nrules, 2);
	assert_int_equal(m->rules[0].pfc_cos, 0x08); /* replaced, not added */
	assert_int_equal(m->rules[0].mtu, 9216);
	assert_string_equal(m->rules[1].class_name, "c-8q-nq-default");
	assert_int_equal(m->rules[1].mtu, 1500);
	tc_apply_bad(&p, &c, "no mtu 9000", "mtu is 1500, not 9000", 7);
	tc_apply(&p, &c, "no mtu");
	assert_int_equal(policy_find_map_nq(&p, "NP")->rules[1].mtu, 0);
	tc_apply(&p, &c, "class type network-qos N");
	tc_apply_bad(&p, &c, "no pause pfc-cos 5",
	             "pause pfc-cos 5 is not configured (only 3)", 17);
	tc_apply(&p, &c, "no pause");
	assert_int_equal(policy_find_map_nq(&p, "NP")->rules[0].pfc_cos, 0);
	tc_apply_bad(&p, &c, "class type network-qos NOPE",
	             "class-map type network-qos NOPE does not exist", 23);

	tc_apply(&p, &c, "policy-map type qos P");
	tc_apply(&p, &c, "policy-map type queuing Q");
	tc_apply(&p, &c, "system qos");
	tc_apply_bad(&p, &c, "service-policy type network-qos P",
	             "policy-map type network-qos P does not exist", 32);
	tc_apply(&p, &c, "service-policy type network-qos NP");
	tc_apply(&p, &c, "service-policy type qos input P");
	tc_apply(&p, &c, "service-policy type queuing output Q");
	assert_string_equal(p.system.network_qos, "NP");
	assert_string_equal(p.system.qos_input, "P");
	assert_string_equal(p.system.queuing_output, "Q");
	tc_apply_bad(&p, &c, "no policy-map type network-qos NP",
	             "attached to system qos", 31);
	tc_apply_bad(&p, &c, "no service-policy type qos input X",
	             "service-policy type qos X is not attached", 33);
	tc_apply(&p, &c, "no service-policy type qos input P");
	tc_apply(&p, &c, "no service-policy type network-qos");
	tc_apply(&p, &c, "no service-policy type queuing output");
	assert_string_equal(p.system.network_qos, "");
	assert_string_equal(p.system.qos_input, "");
	assert_string_equal(p.system.queuing_output, "");
	tc_apply_bad(&p, &c, "no service-policy type queuing output",
	             "not attached", 0);
	policy_free(&p);
}

static void test_interfaces(void **state)
{
	struct policy p;
	struct cmd_ctx c;
	const struct policy_iface *i;

	(void)state;
	policy_init(&p);
	tc_session(&p, &c,
	           LINES("policy-map type qos P", "policy-map type queuing Q",
	                 "interface swp1"));
	assert_string_equal(c.path[0], "interface swp1");
	/* an alias cannot create a block: which port would it be? */
	tc_apply_bad(&p, &c, "interface Ethernet1/2",
	             "No interface has the alias Ethernet1/2", 10);
	tc_apply_bad(&p, &c, "interface averyveryverylongname",
	             "not a Linux interface name", 10);
	/* an alias is printable ASCII from the command line: a format
	 * character that turns the row of a show around is refused, as
	 * at load */
	tc_apply_bad(&p, &c,
	             "alias Eth\xe2\x80\xae"
	             "1/1",
	             "Invalid interface name", (size_t)-1);
	tc_apply_bad(&p, &c,
	             "alias E\xd8\x9c"
	             "1",
	             "Invalid interface name", (size_t)-1);
	tc_apply(&p, &c, "alias Ethernet1/1");
	tc_apply(&p, &c, "priority-flow-control mode on");
	tc_apply(&p, &c, "priority-flow-control watch-dog-interval off");
	tc_apply(&p, &c, "service-policy type qos input P");
	tc_apply(&p, &c, "service-policy type queuing output Q");
	tc_apply(&p, &c, "qdisc-takeover");
	i = policy_find_iface(&p, "ethernet1/1");
	assert_non_null(i);
	assert_string_equal(i->name, "swp1");
	assert_string_equal(i->alias, "Ethernet1/1");
	assert_int_equal(i->pfc_mode, POLICY_PFC_ON);
	assert_int_equal(i->watchdog, POLICY_OFF);
	assert_string_equal(i->qos_input, "P");
	assert_string_equal(i->queuing_output, "Q");
	assert_true(i->qdisc_takeover);
	tc_apply_bad(&p, &c, "service-policy type qos input Q",
	             "policy-map type qos Q does not exist", 30);
	/* the alias finds the block, and the context keeps the Linux name */
	tc_apply(&p, &c, "interface Ethernet1/1");
	assert_string_equal(c.path[0], "interface swp1");
	tc_apply(&p, &c, "alias Eth1/1");
	tc_apply(&p, &c, "no priority-flow-control mode");
	tc_apply(&p, &c, "no priority-flow-control watch-dog-interval");
	tc_apply_bad(&p, &c, "no priority-flow-control watch-dog-interval",
	             "not configured on this interface", 0);
	tc_apply(&p, &c, "no qdisc-takeover");
	tc_apply(&p, &c, "no service-policy type qos input P");
	tc_apply_bad(&p, &c, "no alias Ethernet1/1", "not configured", 9);
	tc_apply(&p, &c, "no alias");
	i = policy_find_iface(&p, "swp1");
	assert_string_equal(i->alias, "");
	assert_int_equal(i->pfc_mode, POLICY_PFC_AUTO);
	assert_int_equal(i->watchdog, POLICY_INHERIT);
	assert_false(i->qdisc_takeover);
	assert_string_equal(i->qos_input, "");
	tc_apply(&p, &c, "interface swp2");
	tc_apply(&p, &c, "no interface swp1");
	assert_int_equal(p.nifaces, 1);
	assert_string_equal(p.ifaces[0].name, "swp2");
	/* `no interface` ran in config mode, leaving the interface's */
	assert_int_equal(c.mode, CMD_MODE_CONFIG);
	tc_apply(&p, &c, "no interface swp2");
	/* a context naming a block that is gone re-creates it */
	assert_int_equal(
	    cmd_ctx_from_path(&c, (const char *[]){"interface swp2"}, 1), 0);
	tc_apply(&p, &c, "priority-flow-control mode off");
	assert_int_equal(policy_find_iface(&p, "swp2")->pfc_mode,
	                 POLICY_PFC_OFF);
	policy_free(&p);
}

/* LINE is accepted with the note "% ignored: interface NAME is not a QoS
 * port" and changes nothing. */
static void tc_ignored(struct policy *p, struct cmd_ctx *c, const char *line,
                       const char *name)
{
	struct cmd_error err;
	char *before = tc_running(p, NULL), *after, note[128];

	if (cmd_apply_line(p, c, line, &err))
		fail_msg("'%s' refused: %s", line, err.message);
	snprintf(note, sizeof(note),
	         "%% ignored: interface %s is not a QoS port", name);
	assert_string_equal(err.message, note);
	after = tc_running(p, NULL);
	assert_string_equal(before, after);
	free(before);
	free(after);
}

/* What a pasted configuration's `interface` lines name: ports create
 * blocks; NX-OS kinds that are not ports are ignored with a note, lines
 * and all (a port-channel is not one of them: test_cmd_paste); a range
 * is each of its members. */
static void test_interface_kinds(void **state)
{
	static const char *const not_ports[] = {
	    "Vlan7",     "vlan100", "port-channel1.100", "mgmt0",
	    "loopback0", "nve1",    "Tunnel1",
	};
	struct policy p;
	struct cmd_ctx c;
	char line[64];

	(void)state;
	policy_init(&p);
	tc_session(&p, &c, LINES("policy-map type qos P"));
	for (size_t i = 0; i < sizeof(not_ports) / sizeof(not_ports[0]); i++) {
		snprintf(line, sizeof(line), "interface %s", not_ports[i]);
		tc_ignored(&p, &c, line, not_ports[i]);
		/* its mode is entered, so that its lines go nowhere else */
		assert_int_equal(c.mode, CMD_MODE_IF);
		tc_ignored(&p, &c, "service-policy type qos input P",
		           not_ports[i]);
		tc_ignored(&p, &c, "priority-flow-control mode on",
		           not_ports[i]);
		snprintf(line, sizeof(line), "no interface %s", not_ports[i]);
		tc_ignored(&p, &c, line, not_ports[i]);
	}
	assert_int_equal(p.nifaces, 0);
	/* names that are only like them are Linux names */
	tc_apply(&p, &c, "interface vlanA");
	tc_apply(&p, &c, "interface mgmt");
	assert_int_equal(p.nifaces, 2);
	/* a block the configuration file named so is that block */
	assert_non_null(policy_add_iface(&p, "vlan7"));
	tc_apply(&p, &c, "interface vlan7");
	tc_apply(&p, &c, "priority-flow-control mode off");
	assert_int_equal(policy_find_iface(&p, "vlan7")->pfc_mode,
	                 POLICY_PFC_OFF);
	policy_free(&p);
}

static void test_interface_ranges(void **state)
{
	struct policy p;
	struct cmd_ctx c;

	(void)state;
	policy_init(&p);
	tc_session(&p, &c, LINES("policy-map type qos P", "interface swp1-3"));
	/* one block per member; the mode names the range */
	assert_int_equal(p.nifaces, 3);
	assert_string_equal(p.ifaces[0].name, "swp1");
	assert_string_equal(p.ifaces[2].name, "swp3");
	assert_string_equal(c.path[0], "interface swp1-3");
	/* a line in it is carried out on every member */
	tc_apply(&p, &c, "priority-flow-control mode on");
	tc_apply(&p, &c, "service-policy type qos input P");
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(p.ifaces[i].pfc_mode, POLICY_PFC_ON);
		assert_string_equal(p.ifaces[i].qos_input, "P");
	}
	/* all or nothing: swp2 refuses, swp1 keeps its policy */
	tc_apply(&p, &c, "interface swp2");
	tc_apply(&p, &c, "no service-policy type qos input P");
	tc_apply(&p, &c, "interface swp1-3");
	tc_apply_bad(&p, &c, "no service-policy type qos input P",
	             "% interface swp2: service-policy type qos P is not "
	             "attached",
	             (size_t)-1);
	assert_string_equal(p.ifaces[0].qos_input, "P");
	/* members by their NX-OS aliases */
	tc_apply(&p, &c, "interface swp1");
	tc_apply(&p, &c, "alias Ethernet1/1");
	tc_apply(&p, &c, "interface swp2");
	tc_apply(&p, &c, "alias Ethernet1/2");
	tc_apply(&p, &c, "interface Ethernet1/1-2");
	tc_apply(&p, &c, "priority-flow-control mode off");
	assert_int_equal(p.ifaces[0].pfc_mode, POLICY_PFC_OFF);
	assert_int_equal(p.ifaces[1].pfc_mode, POLICY_PFC_OFF);
	assert_int_equal(p.ifaces[2].pfc_mode, POLICY_PFC_ON);
	/* an alias no block has stops the range before anything changes */
	tc_apply_bad(&p, &c, "interface Ethernet1/1-4",
	             "No interface has the alias Ethernet1/3", 10);
	tc_apply_bad(&p, &c, "interface swp1-9999", "Invalid interface range",
	             10);
	assert_int_equal(p.nifaces, 3);
	/* no: every member, or none when one is not configured */
	tc_apply_bad(&p, &c, "no interface swp2-4",
	             "interface swp4 is not configured", 13);
	tc_apply(&p, &c, "no interface swp1-2");
	assert_int_equal(p.nifaces, 1);
	assert_string_equal(p.ifaces[0].name, "swp3");
	/* not ranges: no number before the dash, or not rising */
	tc_apply(&p, &c, "interface br-1");
	tc_apply(&p, &c, "interface swp5-5");
	assert_non_null(policy_find_iface(&p, "br-1"));
	assert_non_null(policy_find_iface(&p, "swp5-5"));
	policy_free(&p);
}

static void test_watchdog(void **state)
{
	struct policy p;
	struct cmd_ctx c;

	(void)state;
	policy_init(&p);
	tc_session(
	    &p, &c,
	    LINES("priority-flow-control watch-dog-interval on",
	          "priority-flow-control watch-dog interval 200",
	          "priority-flow-control watch-dog shutdown-multiplier 3",
	          "priority-flow-control watch-dog "
	          "internal-interface-multiplier 4",
	          "priority-flow-control auto-restore multiplier 20",
	          "priority-flow-control fixed-restore multiplier 50"));
	assert_true(p.pfcwd.enabled);
	assert_int_equal(p.pfcwd.poll_ms, 200);
	assert_int_equal(p.pfcwd.shutdown_mult, 3);
	assert_int_equal(p.pfcwd.internal_if_mult, 4);
	assert_int_equal(p.pfcwd.auto_restore_mult, 20);
	assert_int_equal(p.pfcwd.fixed_restore_mult, 50);
	tc_apply_bad(&p, &c, "no priority-flow-control watch-dog interval 300",
	             "is 200, not 300", 44);
	tc_paste(&p, &c,
	         "no priority-flow-control watch-dog-interval\n"
	         "no priority-flow-control watch-dog interval 200\n"
	         "no priority-flow-control watch-dog shutdown-multiplier\n"
	         "no priority-flow-control watch-dog "
	         "internal-interface-multiplier\n"
	         "no priority-flow-control auto-restore multiplier\n"
	         "no priority-flow-control fixed-restore multiplier 50\n");
	assert_false(p.pfcwd.enabled);
	assert_int_equal(p.pfcwd.poll_ms, POLICY_PFCWD_POLL_MS);
	assert_int_equal(p.pfcwd.shutdown_mult, POLICY_PFCWD_SHUTDOWN_MULT);
	assert_int_equal(p.pfcwd.internal_if_mult,
	                 POLICY_PFCWD_INTERNAL_IF_MULT);
	assert_int_equal(p.pfcwd.auto_restore_mult,
	                 POLICY_PFCWD_AUTO_RESTORE_MULT);
	assert_int_equal(p.pfcwd.fixed_restore_mult,
	                 POLICY_PFCWD_FIXED_RESTORE_MULT);
	tc_apply(&p, &c, "priority-flow-control watch-dog-interval off");
	assert_false(p.pfcwd.enabled);
	policy_free(&p);
}

/* A port's own detection multiplier (an interface row of the settings
 * table): set apart from the global one, in the interface's
 * running-config, and `no` as NX-OS's numbers have it. */
static void test_watchdog_port(void **state)
{
	struct policy p;
	struct cmd_ctx c;
	char *t;

	(void)state;
	policy_init(&p);
	tc_session(&p, &c,
	           LINES("interface swp1",
	                 "priority-flow-control watch-dog shutdown-multiplier "
	                 "3"));
	assert_int_equal(p.ifaces[0].wd_shutdown_mult, 3);
	assert_int_equal(p.pfcwd.shutdown_mult, POLICY_PFCWD_SHUTDOWN_MULT);
	t = tc_running(&p, "interface swp1");
	assert_string_equal(t, "interface swp1\n"
	                       "  priority-flow-control watch-dog "
	                       "shutdown-multiplier 3\n");
	free(t);
	tc_apply_bad(&p, &c,
	             "no priority-flow-control watch-dog shutdown-multiplier 5",
	             "is 3, not 5", 55);
	tc_apply(&p, &c,
	         "no priority-flow-control watch-dog shutdown-multiplier 3");
	assert_int_equal(p.ifaces[0].wd_shutdown_mult, 0);
	tc_apply_bad(&p, &c,
	             "no priority-flow-control watch-dog shutdown-multiplier",
	             "is not configured", 0);
	/* the global line, after the block is ended, is the global one */
	tc_apply(&p, &c, "exit");
	tc_apply(&p, &c,
	         "priority-flow-control watch-dog shutdown-multiplier 4");
	assert_int_equal(p.pfcwd.shutdown_mult, 4);
	assert_int_equal(p.ifaces[0].wd_shutdown_mult, 0);
	policy_free(&p);
}

/* cmd_apply_line is all or nothing, and takes only configuration. */
static void test_apply_refusals(void **state)
{
	struct policy p, before;
	struct cmd_ctx c;
	struct cmd_parsed pa;
	struct cmd_error err;

	(void)state;
	policy_init(&p);
	tc_session(&p, &c, LINES("class-map type qos C", "match cos 3"));
	assert_int_equal(policy_copy(&before, &p), 0);
	tc_apply_bad(&p, &c, "show running-config", "not a configuration", 0);
	tc_apply_bad(&p, &c, "copy running-config startup-config",
	             "not a configuration", 0);
	tc_apply_bad(&p, &c, "no match cos 4", "not configured", 13);
	policy_assert_equal(&p, &before);
	/* cmd_exec needs a policy for configuration, not for modes */
	tc_parse(&c, "match cos 4", &pa);
	assert_int_equal(cmd_exec(NULL, &c, &pa, &err), -1);
	tc_parse(&c, "end", &pa);
	assert_int_equal(cmd_exec(NULL, &c, &pa, &err), 0);
	assert_int_equal(c.mode, CMD_MODE_EXEC);
	tc_parse(&c, "show class-map", &pa);
	assert_int_equal(cmd_exec(&p, &c, &pa, &err), -1);
	policy_free(&before);
	policy_free(&p);
}

/* ---- validation while typing, and what compile makes of it ---- */

static void test_validate_interactive(void **state)
{
	struct policy p;
	struct cmd_ctx c;
	struct diag d;

	(void)state;
	policy_init(&p);
	tc_session(&p, &c,
	           LINES("policy-map type queuing Q",
	                 "class type queuing c-out-8q-q3",
	                 "bandwidth remaining percent 50"));
	diag_init(&d, NULL);
	/* under 100 is accepted from a file too, as NX-OS accepts it */
	assert_int_equal(policy_validate(&p, &d), 0);
	assert_non_null(strstr(d.v[0].text, "adds up to 50: the rest"));
	diag_clear(&d);
	assert_int_equal(
	    policy_validate_mode(&p, &d, POLICY_VALIDATE_INTERACTIVE), 0);
	assert_int_equal(d.nwarnings, 1);
	assert_non_null(strstr(d.v[0].text, "adds up to 50 so far"));
	diag_clear(&d);
	tc_apply(&p, &c, "class type queuing c-out-8q-q-default");
	tc_apply(&p, &c, "bandwidth remaining percent 60");
	assert_int_equal(
	    policy_validate_mode(&p, &d, POLICY_VALIDATE_INTERACTIVE), 1);
	assert_non_null(strstr(d.v[0].text, "adds up to 110, expected 100"));
	diag_clear(&d);
	tc_apply(&p, &c, "bandwidth remaining percent 50");
	assert_int_equal(policy_validate(&p, &d), 0);
	/* A paused CoS its class does not match: refused at the line as
	 * by the file, so that nothing rocesh took fails to save. */
	tc_paste(&p, &c,
	         "class-map type network-qos N\n"
	         "policy-map type network-qos NP\n"
	         "class type network-qos N\n");
	tc_apply(&p, &c, "pause pfc-cos 3");
	diag_clear(&d);
	assert_int_equal(policy_validate(&p, &d), 1);
	diag_clear(&d);
	assert_int_equal(
	    policy_validate_mode(&p, &d, POLICY_VALIDATE_INTERACTIVE), 1);
	assert_non_null(strstr(d.v[0].text, "matches no class"));
	diag_free(&d);
	policy_free(&p);
}

/* pause pfc-cos in the default class (every spelling of it) and in a
 * system-defined class of another qos-group: refused line by line as
 * the file refuses it. Before, rocesh took `pause pfc-cos 3` under
 * class-default with a warning and copy running-config startup-config
 * then refused to save. */
static void test_validate_pause_system(void **state)
{
	static const struct {
		const char *cls, *msg;
	} cases[] = {
	    {"class-default", "the default class cannot be no-drop"},
	    {"c-8q-nq-default", "the default class cannot be no-drop"},
	    {"c-nq-default", "the default class cannot be no-drop"},
	    {"c-8q-nq4", "system-defined class c-8q-nq4 matches qos-group 4"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct policy p;
		struct cmd_ctx c;
		struct diag d;
		char line[64];

		policy_init(&p);
		snprintf(line, sizeof(line), "class type network-qos %s",
		         cases[i].cls);
		tc_session(&p, &c,
		           LINES("policy-map type network-qos NP", line,
		                 "pause pfc-cos 3"));
		diag_init(&d, NULL);
		assert_int_equal(
		    policy_validate_mode(&p, &d, POLICY_VALIDATE_INTERACTIVE),
		    1);
		if (!strstr(d.v[0].text, cases[i].msg))
			fail_msg("%s: '%s' lacks '%s'", cases[i].cls,
			         d.v[0].text, cases[i].msg);
		diag_clear(&d);
		assert_int_equal(policy_validate(&p, &d), 1);
		diag_free(&d);
		policy_free(&p);
	}
}

/* A refused line of an enclosing mode leaves the submodes it does not
 * belong to: a refused `class type network-qos X` must not leave the
 * session in the class before it, where the lines meant for X would
 * change that class (class-default would become no-drop). */
static void test_refused_leaves_submode(void **state)
{
	struct policy p;
	struct cmd_ctx c;
	struct cmd_parsed pa;
	struct cmd_error err;

	(void)state;
	policy_init(&p);
	tc_session(&p, &c,
	           LINES("policy-map type network-qos NP",
	                 "class type network-qos class-default", "mtu 9216"));
	assert_int_equal(c.mode, CMD_MODE_PMAP_C_NQOS);
	tc_parse(&c, "class type network-qos X", &pa);
	assert_int_equal(cmd_exec(&p, &c, &pa, &err), -1);
	assert_non_null(strstr(err.message, "does not exist"));
	/* cmd_exec leaves the session where it was ... */
	assert_int_equal(c.mode, CMD_MODE_PMAP_C_NQOS);
	cmd_ctx_refused(&c, &pa);
	/* ... and the refusal moves it to the policy-map, where `pause` is
	 * not a command */
	assert_int_equal(c.mode, CMD_MODE_PMAP_NQOS);
	assert_int_equal(c.depth, 1);
	assert_string_equal(c.path[0], "policy-map type network-qos NP");
	assert_int_equal(cmd_parse(&c, "pause pfc-cos 3", &pa, &err), -1);
	/* a line of the mode itself stays in it */
	tc_apply(&p, &c, "class type network-qos class-default");
	tc_parse(&c, "mtu 9000", &pa);
	cmd_ctx_refused(&c, &pa);
	assert_int_equal(c.mode, CMD_MODE_PMAP_C_NQOS);
	/* a line that does not even parse, by its first word: a class
	 * line leaves the class, a top-level one every submode, others
	 * stay */
	assert_int_equal(cmd_parse(&c, "class type network-qos X/Y", &pa, &err),
	                 -1);
	cmd_ctx_refused_line(&c, "pause pfc-cos 9");
	assert_int_equal(c.mode, CMD_MODE_PMAP_C_NQOS);
	cmd_ctx_refused_line(&c, "  class type network-qos X/Y");
	assert_int_equal(c.mode, CMD_MODE_PMAP_NQOS);
	assert_int_equal(c.depth, 1);
	cmd_ctx_refused_line(&c, "class type network-qos X/Y");
	assert_int_equal(c.mode, CMD_MODE_PMAP_NQOS);
	tc_apply(&p, &c, "class type network-qos class-default");
	cmd_ctx_refused_line(&c, "no policy-map type network-qos X/Y");
	assert_int_equal(c.mode, CMD_MODE_CONFIG);
	assert_int_equal(c.depth, 0);
	policy_free(&p);
}

/* A WRED threshold the kernel's RED cannot hold is refused at the line a
 * user typed, in the interactive check as in the file's; what it can hold
 * is taken as it is. */
static void test_wred_threshold_limit(void **state)
{
	struct policy p;
	struct cmd_ctx c;
	struct diag d;

	(void)state;
	policy_init(&p);
	tc_session(&p, &c,
	           LINES("policy-map type queuing Q",
	                 "class type queuing c-out-8q-q-default",
	                 "bandwidth remaining percent 100",
	                 "random-detect minimum-threshold 150 kbytes "
	                 "maximum-threshold 4096 mbytes drop-probability 7 "
	                 "weight 0 ecn"));
	diag_init(&d, NULL);
	assert_int_equal(
	    policy_validate_mode(&p, &d, POLICY_VALIDATE_INTERACTIVE), 1);
	assert_non_null(strstr(d.v[0].text,
	                       "maximum-threshold 4096 mbytes of random-detect "
	                       "of policy-map type queuing Q class "
	                       "c-out-8q-q-default is more than the kernel's "
	                       "RED holds with weight 0: at most 2147483647"));
	diag_clear(&d);
	tc_apply(&p, &c,
	         "random-detect minimum-threshold 150 kbytes maximum-threshold "
	         "2147483647 bytes drop-probability 7 weight 0 ecn");
	assert_int_equal(policy_validate(&p, &d), 0);
	tc_apply(&p, &c,
	         "random-detect minimum-threshold 1 kbytes maximum-threshold "
	         "65536 bytes drop-probability 7 weight 15 ecn");
	assert_int_equal(policy_validate(&p, &d), 1);
	assert_non_null(strstr(d.v[0].text, "with weight 15: at most 65535"));
	diag_clear(&d);
	tc_apply(&p, &c,
	         "random-detect minimum-threshold 1 kbytes maximum-threshold "
	         "65535 bytes drop-probability 7 weight 15 ecn");
	assert_int_equal(policy_validate(&p, &d), 0);
	diag_free(&d);
	policy_free(&p);
}

static const struct plan_port *compile_one(const struct policy *p,
                                           struct plan *pl)
{
	struct compile_port port = {.ifname = "swp1"};

	caps_preset(&port.caps, CAPS_PRESET_HW);
	plan_init(pl);
	assert_int_equal(compile_policy(p, &port, 1, pl), 0);
	assert_int_equal(pl->nports, 1);
	return &pl->ports[0];
}

static bool has_warning(const struct diag *d, const char *needle)
{
	for (size_t i = 0; i < d->n; i++)
		if (strstr(d->v[i].text, needle))
			return true;
	return false;
}

/* Shares typed so far that add up to less than 100 are scaled for ETS. */
static void test_ets_scaling(void **state)
{
	struct policy p;
	struct cmd_ctx c;
	struct plan pl;
	const struct plan_port *pp;
	unsigned sum = 0;

	(void)state;
	policy_init(&p);
	tc_session(&p, &c,
	           LINES("policy-map type queuing Q",
	                 "class type queuing c-out-8q-q3",
	                 "bandwidth remaining percent 30", "interface swp1",
	                 "service-policy type queuing output Q"));
	pp = compile_one(&p, &pl);
	assert_int_equal(pp->dcb.ets_bw[3], 100);
	assert_int_equal(pp->dcb.ets_bw[0], 0);
	assert_true(has_warning(&pp->warnings, "scaled to 100"));
	plan_free(&pl);
	/* 30 + 15 -> 67 + 33 (rounding to the lowest TC) */
	tc_apply(&p, &c, "policy-map type queuing Q");
	tc_apply(&p, &c, "class type queuing c-out-8q-q1");
	tc_apply(&p, &c, "bandwidth remaining percent 15");
	tc_apply(&p, &c, "class type queuing c-out-8q-q7");
	tc_apply(&p, &c, "priority level 1");
	pp = compile_one(&p, &pl);
	assert_int_equal(pp->dcb.ets_bw[3], 66);
	assert_int_equal(pp->dcb.ets_bw[1], 34);
	assert_int_equal(pp->dcb.ets_bw[7], 0);
	plan_free(&pl);
	/* every stated share 0: the ETS classes split evenly */
	tc_apply(&p, &c, "class type queuing c-out-8q-q1");
	tc_apply(&p, &c, "bandwidth remaining percent 0");
	tc_apply(&p, &c, "class type queuing c-out-8q-q3");
	tc_apply(&p, &c, "bandwidth remaining percent 0");
	pp = compile_one(&p, &pl);
	for (unsigned tc = 0; tc < 8; tc++) {
		sum += pp->dcb.ets_bw[tc];
		if (tc != 7)
			assert_true(pp->dcb.ets_bw[tc] >= 14);
	}
	assert_int_equal(sum, 100);
	assert_int_equal(pp->dcb.ets_bw[7], 0);
	plan_free(&pl);
	/* complete shares are left alone */
	tc_apply(&p, &c, "bandwidth remaining percent 100");
	pp = compile_one(&p, &pl);
	assert_int_equal(pp->dcb.ets_bw[3], 100);
	assert_false(has_warning(&pp->warnings, "scaled"));
	plan_free(&pl);
	policy_free(&p);
}

/* the watchdog's action, fabric-internal ports, link pause:
 * each line, its `no`, refusals, and the running-config round trip. */
static void test_pfc_extensions(void **state)
{
	struct policy p;
	struct cmd_ctx c;
	const struct policy_iface *i;

	(void)state;
	policy_init(&p);
	tc_session(&p, &c,
	           LINES("priority-flow-control watch-dog action forward",
	                 "interface eth0", "fabric-internal",
	                 "flowcontrol receive on", "flowcontrol send on"));
	assert_int_equal(p.pfcwd.action, POLICY_PFCWD_FORWARD);
	i = policy_find_iface(&p, "eth0");
	assert_true(i->fabric_internal);
	assert_true(i->fc_rx);
	assert_true(i->fc_tx);
	tc_apply_bad(&p, &c, "flowcontrol receive maybe", "", 20);
	tc_round_trip(&p);
	tc_apply(&p, &c, "flowcontrol send off");
	tc_apply(&p, &c, "no flowcontrol receive");
	tc_apply(&p, &c, "no fabric-internal");
	i = policy_find_iface(&p, "eth0");
	assert_false(i->fc_rx);
	assert_false(i->fc_tx);
	assert_false(i->fabric_internal);
	tc_apply(&p, &c, "exit");
	tc_apply_bad(&p, &c, "no priority-flow-control watch-dog action alert",
	             "is forward, not alert", 42);
	tc_apply(&p, &c, "priority-flow-control watch-dog action alert");
	assert_int_equal(p.pfcwd.action, POLICY_PFCWD_ALERT);
	tc_apply(&p, &c, "no priority-flow-control watch-dog action");
	assert_int_equal(p.pfcwd.action, POLICY_PFCWD_DROP);
	tc_apply_bad(&p, &c, "priority-flow-control watch-dog action shutdown",
	             "", 39);
	policy_free(&p);
}
int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_class_maps),
	    cmocka_unit_test(test_policy_qos),
	    cmocka_unit_test(test_policy_queuing),
	    cmocka_unit_test(test_policy_nq_and_system),
	    cmocka_unit_test(test_interfaces),
	    cmocka_unit_test(test_interface_kinds),
	    cmocka_unit_test(test_interface_ranges),
	    cmocka_unit_test(test_watchdog),
	    cmocka_unit_test(test_watchdog_port),
	    cmocka_unit_test(test_apply_refusals),
	    cmocka_unit_test(test_validate_interactive),
	    cmocka_unit_test(test_validate_pause_system),
	    cmocka_unit_test(test_refused_leaves_submode),
	    cmocka_unit_test(test_wred_threshold_limit),
	    cmocka_unit_test(test_ets_scaling),
	    cmocka_unit_test(test_pfc_extensions),
	};

	return cmocka_run_group_tests_name("cmd_config", tests, NULL, NULL);
}
