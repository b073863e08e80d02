/* Unit tests of what real Nexus pastes use beyond the reference
 * configuration: class type qos in a qos policy-map, blank-separated
 * match lists, the 4-queue and class-default system classes, NX-OS's
 * default queuing policy, port profiles, the ASIC buffer knobs, and the
 * one interface parser every command shares (cmd_split). */
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

/* `class type qos NAME` is `class NAME`: the classification is kept. */
static void test_class_type_qos(void **state)
{
	struct policy p;
	struct cmd_ctx c;
	const struct policy_map_qos *m;

	(void)state;
	policy_init(&p);
	tc_session(&p, &c,
	           LINES("class-map type qos match-all RDMA",
	                 "match dscp 26 28", "class-map type qos match-any CNP",
	                 "match cos 6 7", "policy-map type qos QOS_IN",
	                 "class type qos RDMA", "set qos-group 3",
	                 "class type qos CNP", "set qos-group 6"));
	m = policy_find_map_qos(&p, "QOS_IN");
	assert_non_null(m);
	assert_int_equal(m->nrules, 2);
	assert_string_equal(m->rules[0].class_name, "RDMA");
	assert_int_equal(m->rules[0].qos_group, 3);
	assert_int_equal(m->rules[1].qos_group, 6);
	/* match dscp 26 28 is match dscp 26,28 */
	assert_true(p.class_qos[0].dscp ==
	            ((UINT64_C(1) << 26) | (UINT64_C(1) << 28)));
	assert_int_equal(p.class_qos[1].cos, 0xc0);
	policy_free(&p);
}

/* The 4-queue names and class-default are the same classes. */
static void test_system_class_names(void **state)
{
	struct policy p;
	struct cmd_ctx c;
	const struct policy_map_nq *nq;
	const struct policy_map_queuing *q;

	(void)state;
	assert_int_equal(policy_nq_system_parse("c-nq3"), 3);
	assert_int_equal(policy_nq_system_parse("c-nq-default"), 0);
	assert_int_equal(policy_nq_system_parse("class-default"), 0);
	assert_int_equal(policy_nq_system_parse("c-nq4"), -1);
	assert_int_equal(policy_queue_parse("c-out-q3"), 3);
	assert_int_equal(policy_queue_parse("c-out-q-default"), 0);
	assert_int_equal(policy_queue_parse("c-out-q4"), -1);
	policy_init(&p);
	tc_session(&p, &c,
	           LINES("policy-map type network-qos NQ",
	                 "class type network-qos c-nq3", "pause pfc-cos 3",
	                 "class type network-qos class-default", "mtu 9216",
	                 "policy-map type queuing Q",
	                 "class type queuing c-out-q3",
	                 "bandwidth remaining percent 60",
	                 "class type queuing c-out-q-default",
	                 "bandwidth remaining percent 40"));
	nq = policy_find_map_nq(&p, "NQ");
	assert_int_equal(nq->nrules, 2);
	assert_int_equal(policy_nq_rule_pfc(&p, &nq->rules[0]), 1u << 3);
	assert_int_equal(policy_nq_class_groups(&p, "class-default"), 1);
	/* written back as typed (it was c-8q-nq3); either name enters the
	 * one class */
	assert_string_equal(nq->rules[0].class_name, "c-nq3");
	{
		char *text = tc_running(&p, NULL);

		assert_non_null(
		    strstr(text, "  class type network-qos c-nq3\n"));
		free(text);
	}
	tc_session(&p, &c,
	           LINES("policy-map type network-qos NQ",
	                 "class type network-qos c-8q-nq3", "mtu 9000",
	                 "class type network-qos c-8q-nq-default", "mtu 9100"));
	nq = policy_find_map_nq(&p, "NQ");
	assert_int_equal(nq->nrules, 2);
	assert_int_equal(nq->rules[0].mtu, 9000);
	assert_int_equal(nq->rules[1].mtu, 9100);
	assert_string_equal(nq->rules[1].class_name, "class-default");
	/* the 4-queue queuing names too, in running-config and roced.conf */
	{
		char *text = tc_running(&p, NULL),
		     *conf = conf_write_string(&p);
		struct policy back;
		struct diag d;

		assert_non_null(strstr(text, " class type queuing c-out-q3\n"));
		assert_non_null(
		    strstr(text, " class type queuing c-out-q-default\n"));
		assert_null(strstr(text, "c-out-8q-q3"));
		assert_non_null(conf);
		assert_non_null(strstr(conf, "\"c-out-q3\""));
		diag_init(&d, "(written)");
		assert_int_equal(conf_load_string(conf, &back, &d), 0);
		q = policy_find_map_queuing(&back, "Q");
		assert_true(q->queue[3].name4);
		assert_true(q->queue[0].name4);
		assert_false(q->queue[1].configured);
		policy_free(&back);
		diag_free(&d);
		free(conf);
		free(text);
	}
	q = policy_find_map_queuing(&p, "Q");
	assert_int_equal(q->queue[3].bandwidth_percent, 60);
	assert_int_equal(q->queue[0].bandwidth_percent, 40);
	tc_round_trip(&p);
	policy_free(&p);
}

/* A qos input policy without a queuing policy: NX-OS's default-out-
 * policy is in force (q-default 100 %, q7 strict); neither: none. */
static void test_default_queuing(void **state)
{
	struct policy p;
	struct cmd_ctx c;
	const struct policy_map_queuing *q;
	const struct policy_iface *i;

	(void)state;
	policy_init(&p);
	tc_session(&p, &c,
	           LINES("class-map type qos match-all RDMA", "match cos 3",
	                 "policy-map type qos QOS_IN", "class RDMA",
	                 "set qos-group 3", "interface swp1"));
	i = policy_find_iface(&p, "swp1");
	assert_null(policy_iface_queuing(&p, i));
	tc_apply(&p, &c, "service-policy type qos input QOS_IN");
	i = policy_find_iface(&p, "swp1");
	q = policy_iface_queuing(&p, i);
	assert_non_null(q);
	assert_string_equal(q->name, POLICY_QUEUING_DEFAULT);
	assert_int_equal(q->queue[0].bandwidth_percent, 100);
	assert_int_equal(q->queue[7].priority_level, 1);
	/* it may be named too, by either of its NX-OS names */
	tc_apply(&p, &c,
	         "service-policy type queuing output default-8q-out-policy");
	i = policy_find_iface(&p, "swp1");
	assert_ptr_equal(policy_iface_queuing(&p, i), q);
	/* a policy-map of that name is the configuration's own */
	tc_apply(&p, &c, "policy-map type queuing default-out-policy");
	tc_apply(&p, &c, "class type queuing c-out-8q-q3");
	tc_apply(&p, &c, "bandwidth remaining percent 100");
	assert_ptr_not_equal(policy_find_map_queuing(&p, "default-out-policy"),
	                     q);
	policy_free(&p);
}

/* A port profile keeps its interface lines; inherit carries them out on
 * the interface, never at global level. */
static void test_port_profile(void **state)
{
	struct policy p;
	struct cmd_ctx c;
	const struct policy_port_profile *pp;
	const struct policy_iface *i;

	(void)state;
	policy_init(&p);
	tc_session(&p, &c,
	           LINES("class-map type qos match-all RDMA", "match cos 3",
	                 "policy-map type qos QOS_IN", "class RDMA",
	                 "set qos-group 3",
	                 "port-profile type ethernet RDMA-PORT",
	                 "priority-flow-control mode on",
	                 "priority-flow-control watch-dog-interval on",
	                 "service-policy type qos input QOS_IN", "mtu 9216",
	                 "state enabled"));
	assert_int_equal(c.mode, CMD_MODE_PORT_PROF);
	pp = policy_find_port_profile(&p, "RDMA-PORT");
	assert_non_null(pp);
	assert_int_equal(pp->nlines, 4);
	assert_true(pp->enabled);
	/* the watchdog line stayed in the profile */
	assert_false(p.pfcwd.enabled);
	tc_apply(&p, &c, "interface swp1-2");
	tc_apply(&p, &c, "inherit port-profile RDMA-PORT");
	for (int k = 1; k <= 2; k++) {
		char name[8];

		snprintf(name, sizeof(name), "swp%d", k);
		i = policy_find_iface(&p, name);
		assert_non_null(i);
		assert_int_equal(i->pfc_mode, POLICY_PFC_ON);
		assert_int_equal(i->watchdog, POLICY_ON);
		assert_string_equal(i->qos_input, "QOS_IN");
		assert_int_equal(i->mtu, 9216);
	}
	assert_false(p.pfcwd.enabled);
	tc_apply_bad(&p, &c, "inherit port-profile NONE", "does not exist", 21);
	tc_apply_bad(&p, &c, "no inherit port-profile RDMA-PORT",
	             "undo them one by one", (size_t)-1);
	/* a profile line that fails names the profile and the line */
	tc_apply(&p, &c, "port-profile type ethernet BAD");
	tc_apply(&p, &c, "service-policy type qos input MISSING");
	tc_apply(&p, &c, "interface swp3");
	tc_apply_bad(&p, &c, "inherit port-profile BAD",
	             "inherit port-profile BAD: 'service-policy type qos "
	             "input MISSING'",
	             0);
	assert_string_equal(policy_find_iface(&p, "swp3")->qos_input, "");
	tc_apply(&p, &c, "no port-profile type ethernet BAD");
	assert_null(policy_find_port_profile(&p, "BAD"));
	policy_free(&p);
}

/* A port-channel's QoS lines go to its members, as NX-OS's members
 * inherit them: those that join after the lines (channel-group) and
 * those that were members before; the block is not "not QoS". */
static void test_port_channel(void **state)
{
	struct policy p;
	struct cmd_ctx c;
	const struct policy_iface *i;

	(void)state;
	policy_init(&p);
	tc_session(
	    &p, &c,
	    LINES("class-map type qos match-all RDMA", "match cos 3",
	          "policy-map type qos QOS_IN", "class RDMA", "set qos-group 3",
	          "interface swp3", "channel-group 10 mode active",
	          "interface port-channel10", "priority-flow-control mode on",
	          "service-policy type qos input QOS_IN",
	          "description to the RoCE hosts", "interface swp1",
	          "channel-group 10 mode active", "interface swp2",
	          "channel-group 10"));
	for (int k = 1; k <= 3; k++) {
		char name[8];

		snprintf(name, sizeof(name), "swp%d", k);
		i = policy_find_iface(&p, name);
		assert_non_null(i);
		assert_int_equal(i->channel_group, 10);
		assert_int_equal(i->pfc_mode, POLICY_PFC_ON);
		assert_string_equal(i->qos_input, "QOS_IN");
		/* the port-channel's description is its own */
		assert_string_equal(i->description, "");
	}
	/* No port named port-channel10. */
	assert_null(policy_find_iface(&p, "port-channel10"));
	/* A line the members refuse is refused on the port-channel, and
	 * none of them takes it. */
	tc_apply(&p, &c, "interface port-channel10");
	tc_apply_bad(&p, &c, "service-policy type queuing output MISSING",
	             "interface swp", (size_t)-1);
	assert_string_equal(policy_find_iface(&p, "swp1")->queuing_output, "");
	/* A member that leaves keeps what it took. */
	tc_apply(&p, &c, "interface swp2");
	tc_apply(&p, &c, "no channel-group");
	assert_int_equal(policy_find_iface(&p, "swp2")->channel_group, 0);
	tc_apply(&p, &c, "interface port-channel10");
	tc_apply(&p, &c, "priority-flow-control mode off");
	assert_int_equal(policy_find_iface(&p, "swp1")->pfc_mode,
	                 POLICY_PFC_OFF);
	assert_int_equal(policy_find_iface(&p, "swp2")->pfc_mode,
	                 POLICY_PFC_ON);
	/* running-config and roced.conf keep the membership as typed and
	 * the port-channel's lines, so that a save and a reload give back
	 * what was typed */
	{
		char *run = tc_running(&p, NULL);

		assert_non_null(
		    strstr(run, "interface port-channel10\n"
		                "  priority-flow-control mode on\n"
		                "  service-policy type qos input QOS_IN\n"
		                "  priority-flow-control mode off\n"));
		assert_non_null(strstr(run, "interface swp1\n"));
		assert_non_null(
		    strstr(run, "  channel-group 10 mode active\n"));
		assert_null(strstr(run, "  channel-group 10\n"));
		assert_true(strstr(run, "interface port-channel10\n") <
		            strstr(run, "interface swp1\n"));
		free(run);
	}
	assert_int_equal(policy_find_iface(&p, "swp1")->channel_mode,
	                 POLICY_CHANNEL_MODE_ACTIVE);
	tc_apply(&p, &c, "interface swp2");
	tc_apply(&p, &c, "channel-group 10");
	assert_int_equal(policy_find_iface(&p, "swp2")->pfc_mode,
	                 POLICY_PFC_OFF);
	assert_int_equal(policy_find_iface(&p, "swp2")->channel_mode,
	                 POLICY_CHANNEL_MODE_NONE);
	tc_round_trip(&p);
	tc_conf_round_trip(&p);
	policy_free(&p);
}

/* Nexus 3000/5000 user queuing classes: `class-map type queuing NAME`
 * with `match qos-group N` names queue N in a queuing policy, and
 * class-default is q-default; `pause no-drop` in a network-qos class
 * makes its qos-groups no-drop. What running-config writes pastes back
 * to the same policy. */
static void test_n5k_queuing_classes(void **state)
{
	struct policy p;
	struct cmd_ctx c;
	const struct policy_map_queuing *m;
	char *run;

	(void)state;
	policy_init(&p);
	tc_session(
	    &p, &c,
	    LINES("class-map type queuing RDMA", "match qos-group 3",
	          "class-map type network-qos RDMA", "match qos-group 3",
	          "policy-map type queuing QOS_QUEUING",
	          "class type queuing RDMA", "bandwidth percent 50",
	          "class type queuing class-default", "bandwidth percent 50",
	          "policy-map type network-qos QOS_NETWORK",
	          "class type network-qos RDMA", "pause no-drop", "system qos",
	          "service-policy type queuing output QOS_QUEUING",
	          "service-policy type network-qos QOS_NETWORK"));
	m = policy_find_map_queuing(&p, "QOS_QUEUING");
	assert_non_null(m);
	assert_true(m->queue[3].configured);
	assert_true(m->queue[3].has_bandwidth_min);
	assert_int_equal(m->queue[3].bandwidth_min_percent, 50);
	assert_true(m->queue[0].configured);
	assert_int_equal(m->queue[0].bandwidth_min_percent, 50);
	/* the network-qos class of the same name is its own */
	assert_int_equal(policy_find_class_nq(&p, "RDMA")->qos_groups, 1u << 3);
	/* running-config and roced.conf keep the class-maps and write the
	 * classes back by the names typed */
	run = tc_running(&p, NULL);
	assert_non_null(strstr(run, "class-map type queuing RDMA\n"
	                            "  match qos-group 3\n"));
	assert_non_null(strstr(run, "class type queuing RDMA\n"
	                            "    bandwidth percent 50\n"));
	assert_non_null(strstr(run, "class type queuing class-default\n"));
	assert_null(strstr(run, "c-out-8q-q"));
	free(run);
	tc_round_trip(&p);
	tc_conf_round_trip(&p);
	/* a queuing class that matches no qos-group names no queue */
	tc_apply(&p, &c, "class-map type queuing EMPTY");
	tc_apply(&p, &c, "policy-map type queuing QOS_QUEUING");
	tc_apply_bad(&p, &c, "class type queuing EMPTY", "matches no qos-group",
	             (size_t)-1);
	tc_apply_bad(&p, &c, "class type queuing NOSUCH",
	             "class-map type queuing NOSUCH does not exist",
	             (size_t)-1);
	policy_free(&p);
}

/* The ASIC's buffer settings: accepted with a note, nothing kept. */
static void test_asic_knobs(void **state)
{
	static const char *const knobs[] = {
	    "qos dynamic-buffer",
	    "hardware qos ing-pg-share 80",
	    "hardware qos ing-pg-hdrm-reserve percent 20",
	};
	struct policy p, before;
	struct cmd_ctx c;
	struct cmd_error err;

	(void)state;
	policy_init(&p);
	tc_session(&p, &c, LINES("interface swp1"));
	tc_apply(&p, &c, "exit");
	assert_int_equal(policy_copy(&before, &p), 0);
	for (size_t k = 0; k < sizeof(knobs) / sizeof(*knobs); k++) {
		assert_int_equal(cmd_apply_line(&p, &c, knobs[k], &err), 0);
		assert_non_null(strstr(err.message, "% not realised: "));
		assert_non_null(strstr(err.message, "ASIC"));
	}
	tc_apply(&p, &c, "policy-map type queuing Q");
	tc_apply(&p, &c, "class type queuing c-out-8q-q3");
	assert_int_equal(
	    cmd_apply_line(&p, &c, "afd queue-desired 600 kbytes", &err), 0);
	assert_non_null(strstr(err.message, "not realised"));
	policy_free(&before);
	policy_free(&p);
}

/* Every spelling of an interface is one word after cmd_split. */
static void test_interface_words(void **state)
{
	static const struct {
		const char *line, *canon;
	} cases[] = {
	    {"show queuing interface ethernet 1/1",
	     "show queuing interface Ethernet1/1"},
	    {"sh que int e1/51", "show queuing interface Ethernet1/51"},
	    {"show queuing interface Eth 1/1 json",
	     "show queuing interface Ethernet1/1 json"},
	    {"show lldp dcbx interface eth1/1",
	     "show lldp dcbx interface Ethernet1/1"},
	    {"show policy-map interface ethernet 1/1 type qos",
	     "show policy-map interface Ethernet1/1 type qos"},
	    {"show running-config interface e1/2",
	     "show running-config interface Ethernet1/2"},
	    {"show interface e 1/1 priority-flow-control",
	     "show interface Ethernet1/1 priority-flow-control"},
	    {"clear queuing pfc-queue interface E1/3",
	     "clear queuing pfc-queue interface Ethernet1/3"},
	    {"priority-flow-control recover interface ethernet 1/1 qos-group 3",
	     "priority-flow-control recover interface Ethernet1/1 qos-group "
	     "3"},
	    {"show interface swp1 priority-flow-control",
	     "show interface swp1 priority-flow-control"},
	};
	struct cmd_ctx c;
	struct cmd_parsed p;

	(void)state;
	cmd_ctx_init(&c);
	for (size_t k = 0; k < sizeof(cases) / sizeof(*cases); k++) {
		tc_parse(&c, cases[k].line, &p);
		if (strcmp(p.canon, cases[k].canon))
			fail_msg("'%s' -> '%s', expected '%s'", cases[k].line,
			         p.canon, cases[k].canon);
	}
	c.mode = CMD_MODE_CONFIG;
	tc_parse(&c, "interface Ethernet1/1 - 1/4", &p);
	assert_string_equal(p.canon, "interface Ethernet1/1-4");
	tc_parse(&c, "interface e1/1-4, eth1/7", &p);
	assert_string_equal(p.canon, "interface Ethernet1/1-4,Ethernet1/7");
	tc_parse(&c, "interface ethernet 1/1-4 , ethernet 1/7", &p);
	assert_string_equal(p.canon, "interface Ethernet1/1-4,Ethernet1/7");
	tc_parse(&c, "interface Ethernet1/1 - 1/1", &p);
	assert_string_equal(p.canon, "interface Ethernet1/1");
	tc_parse(&c, "interface eth0", &p);
	assert_string_equal(p.canon, "interface eth0");
	/* the caret of a later word still points at it */
	tc_parse_bad(CMD_MODE_EXEC, "show queuing interface ethernet 1/1 bogus",
	             "expected", 36);
}

/* Paste round 3: network-qos class-maps written match-any (NX-OS's own
 * show class-map prints them so), a trailing `!` comment after a
 * command (text in a description), a terminal transcript's prompts, and
 * banners of every delimiter, `^C` too. */
static void test_paste_round3(void **state)
{
	struct policy p;
	struct cmd_ctx c;
	const struct policy_map_nq *m;
	const struct policy_iface *f;
	char d[4];

	(void)state;
	policy_init(&p);
	policy_add_iface(&p, "swp1");
	tc_session(
	    &p, &c,
	    LINES("class-map type network-qos match-any NQ",
	          "match qos-group 3 ! RoCE", "policy-map type network-qos P",
	          "class type network-qos NQ",
	          "pause pfc-cos 3  ! lossless class", "mtu 9216 !jumbo",
	          "exit", "exit", "class-map type network-qos match-all NQ4",
	          "exit", "no class-map type network-qos match-all NQ4",
	          "interface swp1", "description a ! b"));
	assert_int_equal(policy_find_class_nq(&p, "NQ")->qos_groups, 1u << 3);
	assert_null(policy_find_class_nq(&p, "NQ4"));
	m = policy_find_map_nq(&p, "P");
	assert_non_null(m);
	assert_int_equal(m->rules[0].pfc_cos, 1u << 3);
	assert_int_equal(m->rules[0].mtu, 9216);
	f = policy_find_iface(&p, "swp1");
	assert_string_equal(f->description, "a ! b");
	tc_round_trip(&p);
	policy_free(&p);

	assert_int_equal(cmd_prompt_len("switch(config-if)# mtu 9216"), 19);
	assert_int_equal(cmd_prompt_len("N9K-1# show run"), 7);
	assert_int_equal(cmd_prompt_len("switch(config)#"), 15);
	assert_int_equal(cmd_prompt_len("  mtu 9216"), 0);
	assert_int_equal(cmd_prompt_len("banner motd #"), 0);
	assert_int_equal(cmd_prompt_len("description a#b"), 0);
	/* a word alone: nothing read past its end (ASan saw it once) */
	assert_int_equal(cmd_prompt_len("end"), 0);
	assert_int_equal(cmd_prompt_len("switch-1"), 0);

	assert_int_equal(cmd_banner_open("banner motd ^C", d, sizeof(d)), 1);
	assert_string_equal(d, "^C");
	assert_false(cmd_banner_closes("no system qos", d));
	assert_true(cmd_banner_closes("^C", d));
	assert_int_equal(cmd_banner_open("banner motd ^CWelcome", d, sizeof(d)),
	                 1);
	assert_string_equal(d, "^C");
	assert_int_equal(cmd_banner_open("banner exec #", d, sizeof(d)), 1);
	assert_string_equal(d, "#");
	assert_int_equal(cmd_banner_open("banner login \003", d, sizeof(d)), 1);
	assert_string_equal(d, "\003");
	assert_int_equal(
	    cmd_banner_open("banner motd #one line#", d, sizeof(d)), 0);
	assert_int_equal(
	    cmd_banner_open("banner motd ^C text ^C", d, sizeof(d)), 0);
	assert_int_equal(cmd_banner_open("no banner motd", d, sizeof(d)), 0);
	assert_int_equal(cmd_banner_open("  mtu 9216", d, sizeof(d)), 0);
}

/* A refused word says what the position takes. */
static void test_expected(void **state)
{
	(void)state;
	tc_parse_bad(CMD_MODE_CMAP_QOS, "match dscpp 26",
	             "% Invalid command at 'dscpp', expected cos, dscp, "
	             "precedence or access-group",
	             6);
	tc_parse_bad(CMD_MODE_PMAP_QOS, "class type qos",
	             "% Incomplete command, expected WORD", 15);
	tc_parse_bad(CMD_MODE_IF, "priority-flow-control mode maybe",
	             "expected auto, on or off", 27);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_class_type_qos),
	    cmocka_unit_test(test_system_class_names),
	    cmocka_unit_test(test_default_queuing),
	    cmocka_unit_test(test_port_profile),
	    cmocka_unit_test(test_port_channel),
	    cmocka_unit_test(test_n5k_queuing_classes),
	    cmocka_unit_test(test_asic_knobs),
	    cmocka_unit_test(test_interface_words),
	    cmocka_unit_test(test_expected),
	    cmocka_unit_test(test_paste_round3),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
