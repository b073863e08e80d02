/* Unit tests of the Nexus 9000 constructs that real configurations use
 * beyond the reference one: the system-defined classes
 * (c-8q-nqN, c-in-qN), pause buffers in network-qos and ingress queuing
 * classes, `pause no-drop`, `service-policy type queuing input`, the
 * interface basics (mtu, shutdown, description, mode on send-tlv),
 * `hardware qos pfc mc-drop`, `terminal length` and `conf`. Each is
 * checked through rocesh's command engine, show running-config and its
 * paste-back, roced.conf's writer and loader (FILE:LINE errors), and
 * compile's PFC bitmap.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "conf/conf.h"
#include "model/policy.h"
#include "plan/compile.h"
#include "policy_eq.h"
#include "cmd_session.h"

/* Both round trips: running-config pasted back, roced.conf written and
 * loaded back, each equal to P and canonical. */
static void round_trips(const struct policy *p)
{
	struct policy q;
	struct diag d;
	char *f1, *f2;

	tc_round_trip(p);
	f1 = conf_write_string(p);
	assert_non_null(f1);
	diag_init(&d, "written.conf");
	if (conf_load_string(f1, &q, &d))
		fail_msg("the written file does not load: %s\n%s", d.v[0].text,
		         f1);
	diag_free(&d);
	policy_assert_equal(p, &q);
	f2 = conf_write_string(&q);
	assert_string_equal(f1, f2);
	free(f1);
	free(f2);
	policy_free(&q);
}

/* The classes every real Nexus 9000 configuration uses without a
 * class-map: c-8q-nq3 with pause pfc-cos 3 (and its pause buffer). */
static const char *const nexus_lines[] = {
    "class-map type qos match-all RDMA",
    "match cos 3",
    "policy-map type qos QOS_IN",
    "class RDMA",
    "set qos-group 3",
    "class class-default",
    "set qos-group 0",
    "policy-map type network-qos NQ",
    "class type network-qos c-8q-nq3",
    "pause buffer-size 101920 pause-threshold 46800 resume-threshold 34320 "
    "pfc-cos 3",
    "mtu 9216",
    "class type network-qos c-8q-nq-default",
    "mtu 9216",
    "policy-map type queuing IN_Q",
    "class type queuing c-in-q3",
    "pause buffer-size 200000 pause-threshold 90000 resume-threshold 60000",
    "class type queuing c-in-q-default",
    "system qos",
    "service-policy type network-qos NQ",
    "service-policy type queuing input IN_Q",
    "hardware qos pfc mc-drop",
    "interface swp1",
    "alias Ethernet1/1",
    "description to leaf 2, port 7",
    "mtu 9000",
    "priority-flow-control mode on send-tlv",
    "service-policy type qos input QOS_IN",
    "no shutdown",
    NULL,
};

static const char nexus_text[] =
    "class-map type qos match-all RDMA\n"
    "  match cos 3\n"
    "policy-map type qos QOS_IN\n"
    "  class RDMA\n"
    "    set qos-group 3\n"
    "  class class-default\n"
    "    set qos-group 0\n"
    "policy-map type queuing IN_Q\n"
    "  class type queuing c-in-q3\n"
    "    pause buffer-size 200000 pause-threshold 90000 resume-threshold "
    "60000\n"
    "  class type queuing c-in-q-default\n"
    "policy-map type network-qos NQ\n"
    "  class type network-qos c-8q-nq3\n"
    "    pause buffer-size 101920 pause-threshold 46800 resume-threshold "
    "34320 pfc-cos 3\n"
    "    mtu 9216\n"
    "  class type network-qos c-8q-nq-default\n"
    "    mtu 9216\n"
    "system qos\n"
    "  service-policy type network-qos NQ\n"
    "  service-policy type queuing input IN_Q\n"
    "hardware qos pfc mc-drop\n"
    "interface Ethernet1/1\n"
    "  description to leaf 2, port 7\n"
    "  mtu 9000\n"
    "  priority-flow-control mode on send-tlv\n"
    "  service-policy type qos input QOS_IN\n"
    "  no shutdown\n";

static void test_system_classes(void **state)
{
	struct policy p;
	struct cmd_ctx c;
	struct diag d;
	const struct policy_map_nq *nq;
	const struct policy_iface *i;
	char *t;

	(void)state;
	policy_init(&p);
	tc_session(&p, &c, nexus_lines);
	nq = policy_find_map_nq(&p, "NQ");
	assert_non_null(nq);
	assert_int_equal(nq->nrules, 2);
	assert_string_equal(nq->rules[0].class_name, "c-8q-nq3");
	assert_int_equal(nq->rules[0].pfc_cos, 1u << 3);
	assert_true(nq->rules[0].buffer.set);
	assert_int_equal(nq->rules[0].buffer.buffer_size, 101920);
	assert_int_equal(nq->rules[0].buffer.pause_threshold, 46800);
	assert_int_equal(nq->rules[0].buffer.resume_threshold, 34320);
	i = policy_find_iface(&p, "ethernet1/1");
	assert_non_null(i);
	assert_int_equal(i->pfc_mode, POLICY_PFC_ON);
	assert_true(i->pfc_send_tlv);
	assert_int_equal(i->mtu, 9000);
	assert_int_equal(i->shutdown, POLICY_OFF);
	assert_string_equal(i->description, "to leaf 2, port 7");
	assert_true(p.pfc_mc_drop);
	assert_string_equal(p.system.queuing_input, "IN_Q");
	/* The ingress class is the port's own: it wins for priority 3. */
	assert_int_equal(policy_iface_pause_buffer(&p, i, 3)->pause_threshold,
	                 90000);
	assert_int_equal(
	    policy_iface_pause_buffer(&p, NULL, 3)->pause_threshold, 90000);
	assert_null(policy_iface_pause_buffer(&p, i, 4));
	diag_init(&d, NULL);
	assert_int_equal(policy_validate(&p, &d), 0);
	diag_free(&d);
	t = tc_running(&p, NULL);
	assert_string_equal(t, nexus_text);
	free(t);
	round_trips(&p);
	/* Without the ingress policy the network-qos buffer is in force. */
	tc_apply(&p, &c, "system qos");
	tc_apply(&p, &c, "no service-policy type queuing input IN_Q");
	i = policy_find_iface(&p, "swp1");
	assert_int_equal(policy_iface_pause_buffer(&p, i, 3)->pause_threshold,
	                 46800);
	policy_free(&p);
}

/* System classes cannot be defined or deleted as class-maps; pause on
 * the default class stays refused; other qos-groups cannot be paused in
 * c-8q-nqN. */
static void test_system_classes_refused(void **state)
{
	struct policy p;
	struct cmd_ctx c;
	struct diag d;

	(void)state;
	policy_init(&p);
	tc_session(&p, &c, LINES("policy-map type network-qos NQ"));
	tc_apply_bad(&p, &c, "class-map type network-qos c-8q-nq3",
	             "system-defined class", 27);
	tc_apply_bad(&p, &c, "no class-map type network-qos c-8q-nq-default",
	             "system-defined class", (size_t)-1);
	tc_apply_bad(&p, &c, "class-map type qos class-default", "built in",
	             (size_t)-1);
	tc_apply(&p, &c, "policy-map type network-qos NQ");
	tc_apply(&p, &c, "class type network-qos c-8q-nq4");
	tc_apply(&p, &c, "pause pfc-cos 3");
	diag_init(&d, NULL);
	assert_int_equal(policy_validate(&p, &d), 1);
	assert_non_null(strstr(d.v[0].text, "qos-group 4"));
	diag_free(&d);
	policy_free(&p);
}

static void test_pause_buffer_cli(void **state)
{
	struct policy p;
	struct cmd_ctx c;
	const struct policy_map_queuing *q;

	(void)state;
	policy_init(&p);
	tc_session(&p, &c,
	           LINES("policy-map type network-qos NQ",
	                 "class type network-qos c-8q-nq3"));
	/* resume < pause < buffer, the caret under the bad number */
	tc_apply_bad(
	    &p, &c,
	    "pause buffer-size 100 pause-threshold 100 resume-threshold 1",
	    "pause-threshold 100 is not below buffer-size 100", 38);
	tc_apply_bad(
	    &p, &c,
	    "pause buffer-size 100 pause-threshold 50 resume-threshold 51",
	    "resume-threshold 51 is above pause-threshold 50", 58);
	/* resume == pause, no hysteresis, as a Nexus 93180 takes it */
	tc_apply(
	    &p, &c,
	    "pause buffer-size 100 pause-threshold 50 resume-threshold 50");
	tc_apply(&p, &c, "no pause buffer-size");
	tc_apply_bad(
	    &p, &c, "pause buffer-size 0 pause-threshold 50 resume-threshold 5",
	    "Invalid value '0'", 18);
	tc_apply_bad(&p, &c, "no pause buffer-size", "is not configured",
	             (size_t)-1);
	tc_apply(&p, &c, "pause no-drop");
	assert_true(p.map_nq[0].rules[0].no_drop);
	tc_apply(&p, &c, "no pause no-drop");
	assert_false(p.map_nq[0].rules[0].no_drop);
	tc_apply_bad(&p, &c, "no pause no-drop", "is not configured",
	             (size_t)-1);
	tc_apply(&p, &c,
	         "pause buffer-size 100 pause-threshold 50 "
	         "resume-threshold 20");
	assert_int_equal(p.map_nq[0].rules[0].pfc_cos, 0);
	tc_apply(&p, &c, "no pause buffer-size");
	assert_false(p.map_nq[0].rules[0].buffer.set);

	/* ingress and egress classes each take their own lines */
	tc_apply(&p, &c, "policy-map type queuing Q");
	tc_apply(&p, &c, "class type queuing c-out-8q-q3");
	tc_apply_bad(
	    &p, &c,
	    "pause buffer-size 100 pause-threshold 50 resume-threshold 20",
	    "goes in an ingress class", (size_t)-1);
	tc_apply(&p, &c, "class type queuing c-in-q3");
	tc_apply_bad(&p, &c, "bandwidth remaining percent 50",
	             "not supported in ingress class c-in-q3", (size_t)-1);
	tc_apply(
	    &p, &c,
	    "pause buffer-size 100 pause-threshold 50 resume-threshold 20");
	q = policy_find_map_queuing(&p, "Q");
	assert_true(q->in_queue[3].pause.set);
	assert_true(q->queue[3].configured);
	assert_false(q->queue[3].pause.set);
	/* a policy with both kinds cannot be attached either way */
	tc_apply(&p, &c, "system qos");
	tc_apply(&p, &c, "service-policy type queuing input Q");
	{
		struct diag d;

		diag_init(&d, NULL);
		assert_int_equal(policy_validate(&p, &d), 1);
		assert_non_null(strstr(d.v[0].text, "egress classes"));
		diag_free(&d);
	}
	tc_apply_bad(&p, &c, "no policy-map type queuing Q",
	             "attached to system", (size_t)-1);
	tc_apply(&p, &c, "no service-policy type queuing input");
	tc_apply(&p, &c, "no policy-map type queuing Q");
	policy_free(&p);
}

/* cmd_apply_line replaces the policy's arrays: look the port up again. */
#define SWP1 policy_find_iface(&p, "swp1")

static void test_interface_basics(void **state)
{
	struct policy p;
	struct cmd_ctx c;

	(void)state;
	policy_init(&p);
	tc_session(&p, &c, LINES("interface swp1"));
	tc_apply_bad(&p, &c, "priority-flow-control mode auto send-tlv",
	             "send-tlv goes with priority-flow-control mode on", 32);
	tc_apply_bad(&p, &c, "mtu 100", "Invalid value '100'", 4);
	tc_apply(&p, &c, "shutdown");
	assert_int_equal(SWP1->shutdown, POLICY_ON);
	tc_apply(&p, &c, "description a b  c");
	assert_string_equal(SWP1->description, "a b c");
	tc_apply_bad(&p, &c, "no description x", "is not configured",
	             (size_t)-1);
	tc_apply(&p, &c, "no description");
	assert_string_equal(SWP1->description, "");
	tc_apply(&p, &c, "priority-flow-control mode on send-tlv");
	assert_true(SWP1->pfc_send_tlv);
	tc_apply(&p, &c, "priority-flow-control mode on");
	assert_false(SWP1->pfc_send_tlv);
	tc_apply(&p, &c, "priority-flow-control mode on send-tlv");
	tc_apply(&p, &c, "no priority-flow-control mode");
	assert_false(SWP1->pfc_send_tlv);
	assert_int_equal(SWP1->pfc_mode, POLICY_PFC_AUTO);
	tc_apply(&p, &c, "mtu 4200");
	tc_apply(&p, &c, "no mtu");
	tc_apply_bad(&p, &c, "no mtu", "not configured", (size_t)-1);
	round_trips(&p);
	policy_free(&p);
}

/* `conf` and `configure` alone; `terminal length 0` anywhere. */
static void test_modes(void **state)
{
	struct policy p;
	struct cmd_ctx c;

	(void)state;
	policy_init(&p);
	cmd_ctx_init(&c);
	tc_apply(&p, &c, "terminal length 0");
	tc_apply(&p, &c, "conf");
	assert_int_equal(c.mode, CMD_MODE_CONFIG);
	tc_apply(&p, &c, "terminal length 0");
	assert_int_equal(c.mode, CMD_MODE_CONFIG);
	tc_apply(&p, &c, "end");
	tc_apply(&p, &c, "configure");
	assert_int_equal(c.mode, CMD_MODE_CONFIG);
	policy_free(&p);
}

/* roced.conf: every new setting loads, and bad values are FILE:LINE. */
static void test_conf_file(void **state)
{
	static const char good[] =
	    "policy-map = {\n"
	    " queuing = ( { name = \"IN\"; class = (\n"
	    "  { name = \"c-in-q3\"; pause-buffer = { buffer-size = 300; "
	    "pause-threshold = 200; resume-threshold = 100; }; }\n"
	    " ); } );\n"
	    " network-qos = ( { name = \"NQ\"; class = (\n"
	    "  { name = \"c-8q-nq3\"; pause-pfc-cos = 3; pause-buffer = { "
	    "buffer-size = 300; pause-threshold = 200; resume-threshold = "
	    "100; }; },\n"
	    "  { name = \"c-8q-nq5\"; pause-no-drop = true; }\n"
	    " ); } );\n"
	    "};\n"
	    "system-qos = { service-policy = { network-qos = \"NQ\"; "
	    "queuing-input = \"IN\"; }; };\n"
	    "interface = ( { name = \"swp1\"; description = \"x\"; mtu = 9000; "
	    "shutdown = false; priority-flow-control = { mode = \"on\"; "
	    "send-tlv = true; }; } );\n"
	    "hardware-qos-pfc-mc-drop = true;\n";
	static const char bad[] =
	    "policy-map = {\n"
	    " network-qos = ( { name = \"NQ\"; class = (\n"
	    "  { name = \"c-8q-nq3\"; pause-pfc-cos = 3;\n"
	    "    pause-buffer = { buffer-size = 300; pause-threshold = 400; "
	    "resume-threshold = 100; }; },\n"
	    "  { name = \"c-8q-nq4\"; pause-buffer = { buffer-size = 3; }; }\n"
	    " ); } );\n"
	    "};\n"
	    "class-map = { network-qos = ( { name = \"c-8q-nq2\"; } ); };\n"
	    "interface = ( { name = \"swp1\"; mtu = 20000; } );\n";
	struct policy p;
	struct diag d;
	struct plan pl;
	struct compile_port port = {.ifname = "swp1"};
	size_t k;

	(void)state;
	diag_init(&d, "good.conf");
	if (conf_load_string(good, &p, &d))
		fail_msg("good.conf: %u: %s", d.v[0].line, d.v[0].text);
	diag_free(&d);
	assert_int_equal(p.map_nq[0].rules[1].no_drop, true);
	assert_int_equal(policy_nq_rule_pfc(&p, &p.map_nq[0].rules[1]),
	                 1u << 5);
	assert_int_equal(p.map_queuing[0].in_queue[3].pause.buffer_size, 300);
	assert_true(p.ifaces[0].pfc_send_tlv);
	round_trips(&p);
	/* compile: PFC on 3 (pause pfc-cos) and 5 (pause no-drop), and the
	 * interface MTU over the network-qos one */
	plan_init(&pl);
	assert_int_equal(compile_policy(&p, &port, 1, &pl), 0);
	for (k = 0; k < pl.nports && strcmp(pl.ports[k].ifname, "swp1"); k++)
		;
	assert_true(k < pl.nports);
	assert_int_equal(pl.ports[k].dcb.pfc_en, (1u << 3) | (1u << 5));
	assert_int_equal(pl.ports[k].dcb.mtu, 9000);
	plan_free(&pl);
	policy_free(&p);

	diag_init(&d, "bad.conf");
	assert_int_not_equal(conf_load_string(bad, &p, &d), 0);
	{
		struct strbuf sb;
		char *all;

		strbuf_init(&sb);
		for (size_t e = 0; e < d.n; e++)
			strbuf_printf(&sb, "%u: %s\n", d.v[e].line,
			              d.v[e].text);
		all = strbuf_detach(&sb);
		if (!strstr(all, "4: pause buffer-size 300 pause-threshold "
		                 "400 resume-threshold 100") ||
		    !strstr(all, "5: pause-buffer of ") ||
		    !strstr(all, "8: class-map type network-qos c-8q-nq2: "
		                 "c-8q-nq2 is built in") ||
		    !strstr(all, "9: mtu 20000"))
			fail_msg("bad.conf's errors:\n%s", all);
		free(all);
	}
	diag_free(&d);
}

/* Interface names as runbooks write them; ranges and lists. */
static void test_interface_names(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
	    {"ethernet 1/1", "Ethernet1/1"},
	    {"eth1/1", "Ethernet1/1"},
	    {"e1/1", "Ethernet1/1"},
	    {"ETHERNET1/1", "Ethernet1/1"},
	    {"Ethernet1/1-4, Ethernet1/7", "Ethernet1/1-4,Ethernet1/7"},
	    {"ethernet 1/21-36", "Ethernet1/21-36"},
	    {"eth0", "eth0"},
	    {"port-channel 50", "port-channel50"},
	    {"swp1-2,swp9", "swp1-2,swp9"},
	};
	char out[CMD_WORD_MAX * 2], m[8][POLICY_ALIAS_MAX];
	struct policy p;
	struct cmd_ctx c;

	(void)state;
	for (size_t k = 0; k < sizeof(cases) / sizeof(*cases); k++) {
		assert_int_equal(
		    policy_ifname_nxos(cases[k].in, out, sizeof(out)), 0);
		assert_string_equal(out, cases[k].out);
	}
	assert_int_equal(
	    policy_ifname_expand("Ethernet1/1-3,Ethernet1/7", m, 8), 4);
	assert_string_equal(m[2], "Ethernet1/3");
	assert_string_equal(m[3], "Ethernet1/7");
	assert_int_equal(policy_ifname_expand("swp1-9", m, 8), -2);
	assert_int_equal(policy_ifname_expand("a,,b", m, 8), -1);

	policy_init(&p);
	tc_session(&p, &c,
	           LINES("interface swp1", "alias Ethernet1/1",
	                 "interface swp2", "alias Ethernet1/2",
	                 "interface swp3", "alias Ethernet1/3",
	                 "interface swp7", "alias Ethernet1/7",
	                 "interface ethernet 1/1-3, e1/7", "mtu 9000",
	                 "description storage"));
	for (size_t k = 0; k < p.nifaces; k++) {
		assert_int_equal(p.ifaces[k].mtu, 9000);
		assert_string_equal(p.ifaces[k].description, "storage");
	}
	assert_string_equal(c.path[0], "interface Ethernet1/1-3,Ethernet1/7");
	tc_apply(&p, &c, "interface Eth1/2");
	assert_string_equal(c.path[0], "interface swp2");
	tc_apply_bad(&p, &c, "interface eth1/9",
	             "No interface has the alias Ethernet1/9", 10);
	tc_apply_bad(&p, &c, "interface Ethernet1/1-2, Ethernet1/9",
	             "No interface has the alias Ethernet1/9", (size_t)-1);
	policy_free(&p);
}

/* The known NX-OS lines that are not QoS, by family; QoS lines are not. */
static void test_not_qos(void **state)
{
	static const struct {
		const char *line, *what;
	} cases[] = {
	    {"feature lldp", "feature"},
	    {"  no cdp enable", "cdp"},
	    {"switchport mode trunk", "switchport"},
	    {"spanning-tree port type edge trunk", "spanning-tree"},
	    {"vpc domain 1", "vpc"},
	    {"router bgp 64511", "routing"},
	    {"hardware access-list tcam region ing-racl 0", "hardware"},
	    {"class-map type control-plane match-any copp-s-ping", "copp"},
	    {"logging event port link-status", "logging"},
	    {"system qos", NULL},
	    {"hardware qos pfc mc-drop", NULL},
	    {"class-map type qos match-all RDMA", NULL},
	    {"bogus command", NULL},
	    {"", NULL},
	};

	(void)state;
	for (size_t k = 0; k < sizeof(cases) / sizeof(*cases); k++) {
		const char *w = cmd_not_qos(cases[k].line);

		if (!cases[k].what)
			assert_null(w);
		else
			assert_string_equal(w, cases[k].what);
	}
}

/* Descriptions, precedence, marking; access-lists refused. */
static void test_class_lines(void **state)
{
	struct policy p;
	struct cmd_ctx c;
	const struct policy_class_qos *cq;
	struct diag d;
	char *t;

	(void)state;
	policy_init(&p);
	tc_session(&p, &c,
	           LINES("class-map type qos match-any RDMA",
	                 "description RoCE and its CNPs", "match dscp 26",
	                 "match precedence 6", "class-map type network-qos NC",
	                 "description lossless", "match qos-group 3",
	                 "policy-map type qos P", "description ingress marking",
	                 "class RDMA", "set qos-group 3", "set dscp af31",
	                 "set cos 3", "policy-map type queuing Q",
	                 "description egress", "policy-map type network-qos N",
	                 "description jumbo", "class-map type qos RDMA"));
	cq = policy_find_class_qos(&p, "RDMA");
	assert_string_equal(cq->description, "RoCE and its CNPs");
	assert_int_equal(cq->precedence, 1u << 6);
	/* precedence 6 is DSCP 48-55, so CNPs (DSCP 48) are in the class */
	assert_true(cq->dscp & (UINT64_C(1) << 48));
	assert_true(cq->dscp & (UINT64_C(1) << 26));
	assert_int_equal(p.map_qos[0].rules[0].dscp, 26);
	assert_int_equal(p.map_qos[0].rules[0].cos, 3);
	tc_apply_bad(&p, &c, "match access-group name ROCE-ACL",
	             "match access-group is not supported", 0);
	tc_apply_bad(&p, &c, "no match precedence 5", "is not configured", 20);
	/* marking is kept, not realised: a warning */
	diag_init(&d, NULL);
	assert_int_equal(policy_validate(&p, &d), 0);
	assert_true(d.nwarnings >= 1);
	diag_free(&d);
	t = tc_running(&p, NULL);
	assert_non_null(strstr(t, "class-map type qos match-any RDMA\n"
	                          "  description RoCE and its CNPs\n"
	                          "  match dscp 26\n"
	                          "  match precedence 6\n"));
	assert_non_null(strstr(t, "    set dscp 26\n    set cos 3\n"));
	assert_non_null(strstr(t, "policy-map type network-qos N\n"
	                          "  description jumbo\n"));
	free(t);
	round_trips(&p);
	tc_apply(&p, &c, "no match precedence 6");
	cq = policy_find_class_qos(&p, "RDMA");
	assert_int_equal(cq->precedence, 0);
	assert_false(cq->dscp & (UINT64_C(1) << 48));
	tc_apply(&p, &c, "no description");
	assert_string_equal(policy_find_class_qos(&p, "RDMA")->description, "");
	policy_free(&p);
}

/* queue-limit: the fifo's byte limit on this kernel's layout. */
static void test_queue_limit(void **state)
{
	struct policy p;
	struct cmd_ctx c;
	struct plan pl;
	struct compile_port port = {.ifname = "swp1"};
	const struct policy_queue *q;
	char *t;

	(void)state;
	policy_init(&p);
	tc_session(
	    &p, &c,
	    LINES("policy-map type queuing Q", "class type queuing c-out-8q-q3",
	          "bandwidth remaining percent 50",
	          "queue-limit queue-size 200 kbytes",
	          "class type queuing c-out-8q-q-default",
	          "bandwidth remaining percent 50", "queue-limit dynamic 4",
	          "system qos", "service-policy type queuing output Q",
	          "interface swp1"));
	q = &policy_find_map_queuing(&p, "Q")->queue[3];
	assert_int_equal(q->queue_limit_bytes, 200 * 1024);
	assert_int_equal(
	    policy_find_map_queuing(&p, "Q")->queue[0].queue_limit_dynamic, 5);
	t = tc_running(&p, NULL);
	assert_non_null(strstr(t, "  queue-limit queue-size 200 kbytes\n"));
	assert_non_null(strstr(t, "  queue-limit dynamic 4\n"));
	free(t);
	round_trips(&p);
	/* the minimal kernel's layout: htb + bfifo leaves */
	port.caps.qdiscs = CAPS_QD_HTB | CAPS_QD_BFIFO | CAPS_QD_PFIFO;
	port.caps.classifiers = CAPS_CLS_U32;
	plan_init(&pl);
	assert_int_equal(compile_policy(&p, &port, 1, &pl), 0);
	{
		bool found = false;

		for (size_t k = 0; k < pl.ports[0].nqdiscs; k++) {
			const struct plan_qdisc *qd = &pl.ports[0].qdiscs[k];

			if (qd->queue == 3 && qd->kind == PLAN_QD_BFIFO) {
				assert_int_equal(qd->u.fifo.limit, 200 * 1024);
				found = true;
			}
		}
		assert_true(found);
	}
	plan_free(&pl);
	tc_apply(&p, &c, "policy-map type queuing Q");
	tc_apply(&p, &c, "class type queuing c-out-8q-q3");
	tc_apply(&p, &c, "no queue-limit");
	tc_apply_bad(&p, &c, "no queue-limit", "not configured", (size_t)-1);
	tc_apply_bad(&p, &c, "queue-limit 5000 mbytes",
	             "more than a fifo holds", (size_t)-1);
	/* the predefined WRED profiles and shaping: kept, shown, realised
	 * (the profile as RED with roced's mapping where the kernel has
	 * sch_red, the shape as the htb class's rate and ceil) */
	tc_apply(&p, &c, "random-detect threshold burst-optimized ecn");
	tc_apply(&p, &c, "shape min 10 gbps max 40 gbps");
	tc_apply_bad(&p, &c, "shape min 10 gbps max 1 gbps", "below min",
	             (size_t)-1);
	q = &policy_find_map_queuing(&p, "Q")->queue[3];
	assert_int_equal(q->wred_profile, POLICY_WRED_BURST_OPTIMIZED + 1);
	assert_true(q->wred_profile_ecn);
	assert_int_equal(q->shape_max_kbps, 40 * 1000 * 1000);
	t = tc_running(&p, NULL);
	assert_non_null(
	    strstr(t, "    random-detect threshold burst-optimized ecn\n"
	              "    shape min 10 gbps max 40 gbps\n"));
	free(t);
	{
		struct diag d;
		struct policy_wred w;

		diag_init(&d, NULL);
		assert_int_equal(policy_validate(&p, &d), 0);
		diag_free(&d);
		assert_true(policy_queue_wred(q, &w));
		assert_int_equal(w.min_bytes, 150000);
		assert_int_equal(w.max_bytes, 3000000);
		assert_int_equal(w.drop_probability, 7);
		assert_true(w.ecn);
	}
	port.caps.qdiscs |= CAPS_QD_RED;
	plan_init(&pl);
	assert_int_equal(compile_policy(&p, &port, 1, &pl), 0);
	{
		bool red = false, shaped = false;

		for (size_t k = 0; k < pl.ports[0].nqdiscs; k++) {
			const struct plan_qdisc *qd = &pl.ports[0].qdiscs[k];

			if (qd->queue == 3 && qd->kind == PLAN_QD_RED) {
				assert_int_equal(qd->u.red.qth_min, 150000);
				assert_int_equal(qd->u.red.qth_max, 3000000);
				assert_true(qd->u.red.ecn);
				red = true;
			}
		}
		for (size_t k = 0; k < pl.ports[0].nclasses; k++) {
			const struct plan_class *cl = &pl.ports[0].classes[k];

			if (cl->queue == 3) {
				/* max 40 gbps is above the port's (assumed)
				 * 10 gbps: the ceil stays the port's; min 10
				 * gbps raises the rate from its 50 % share to
				 * the whole port. */
				assert_int_equal(cl->ceil, 1250000000ull);
				assert_int_equal(cl->rate, 1250000000ull);
				shaped = true;
			}
		}
		assert_true(red);
		assert_true(shaped);
	}
	plan_free(&pl);
	round_trips(&p);
	tc_apply(&p, &c, "no random-detect threshold");
	tc_apply(&p, &c, "no shape");
	tc_apply_bad(&p, &c, "no shape", "not configured", (size_t)-1);
	policy_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_system_classes),
	    cmocka_unit_test(test_system_classes_refused),
	    cmocka_unit_test(test_pause_buffer_cli),
	    cmocka_unit_test(test_interface_basics),
	    cmocka_unit_test(test_modes),
	    cmocka_unit_test(test_conf_file),
	    cmocka_unit_test(test_interface_names),
	    cmocka_unit_test(test_not_qos),
	    cmocka_unit_test(test_class_lines),
	    cmocka_unit_test(test_queue_limit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
