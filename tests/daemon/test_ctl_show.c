/* test_ctl_show: show's queries parsed, and its answers (text and json
 * from one builder) built from the shipped policy, planned and applied as
 * the daemon does, with fixed kernel state (ctl_test.h's fixture). No root
 * and no daemon needed. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "ctl_test.h"

/* The queries the command table's show rows fill, from the words the
 * control protocol carries: the whole line (rocesh) or the words after
 * the name (scripts). */
static void test_show_query(void **state)
{
	const char *line[] = {"show",      "queuing",     "pfc-queue",
	                      "interface", "Ethernet1/1", "detail",
	                      "json"};
	const char *args2[] = {"interface", "swp1"};
	const char *qos[] = {"qos"};
	const char *x[] = {"X"};
	struct show_query q;
	struct cmd_error err;

	(void)state;
	assert_int_equal(
	    cmd_show_query("show queuing pfc-queue", line, 7, &q, &err), 0);
	assert_int_equal(q.kind, CTL_SHOW_PFC_QUEUE);
	assert_string_equal(q.iface, "Ethernet1/1");
	assert_true(q.detail);
	assert_int_equal(
	    cmd_show_query("show queuing pfc-queue", line + 3, 3, &q, &err), 0);
	assert_true(q.detail);
	assert_int_equal(
	    cmd_show_query("show running-config", args2, 2, &q, &err), 0);
	assert_string_equal(q.iface, "swp1");
	assert_int_equal(
	    cmd_show_query("show running-config", qos, 1, &q, &err), 0);
	assert_true(q.qos_only);
	assert_int_equal(cmd_show_query("show policy-map", args2, 2, &q, &err),
	                 0);
	assert_int_equal(q.kind, CTL_SHOW_POLICY_MAP_IF);
	assert_string_equal(q.iface, "swp1");
	assert_int_equal(cmd_show_query("show class-map", x, 1, &q, &err), 0);
	assert_string_equal(q.name, "X");
	assert_true(show_query_ports(
	    &(struct show_query){.kind = CTL_SHOW_QUEUING_IF}));
	assert_false(
	    show_query_ports(&(struct show_query){.kind = CTL_SHOW_CLASS_MAP}));
	assert_int_equal(cmd_show_query("show startup-config", x, 1, &q, &err),
	                 -1);
	assert_non_null(strstr(err.message, "Invalid"));
	assert_int_equal(
	    cmd_show_query("show lldp dcbx interface", NULL, 0, &q, &err), -1);
	assert_non_null(strstr(err.message, "Incomplete"));
	assert_int_equal(cmd_show_query("show version", NULL, 0, &q, &err), 0);
	assert_int_equal(q.kind, CTL_SHOW_VERSION);
	assert_false(show_query_ports(&q));
}

static void test_show_queuing(void **state)
{
	struct ctlt_fixture *f = *state;
	struct show_query q = {.kind = CTL_SHOW_QUEUING_IF};
	struct json_object *d, *q3;
	struct strbuf text;

	d = ctlt_answer(f, &q, &text);
	assert_string_equal(
	    json_object_get_string(ctlt_jget(d, "interface.0.name")), "swp1");
	assert_string_equal(
	    json_object_get_string(ctlt_jget(d, "interface.0.alias")),
	    "Ethernet1/1");
	assert_string_equal(
	    json_object_get_string(ctlt_jget(d, "interface.0.layout")),
	    "htb+bfifo");
	/* queues from 7 down to 0: queue 3 is the fifth */
	q3 = ctlt_jget(d, "interface.0.queue.4");
	assert_int_equal(json_object_get_int(ctlt_jget(q3, "queue")), 3);
	assert_int_equal(
	    json_object_get_int(ctlt_jget(q3, "bandwidth-remaining-percent")),
	    50);
	assert_int_equal(json_object_get_int(
	                     ctlt_jget(q3, "random-detect.minimum-threshold")),
	                 150 * 1024);
	assert_int_equal(json_object_get_int(
	                     ctlt_jget(q3, "random-detect.drop-probability")),
	                 7);
	assert_true(
	    json_object_get_boolean(ctlt_jget(q3, "random-detect.ecn")));
	/* this kernel has no red: configured, not realised */
	assert_false(
	    json_object_get_boolean(ctlt_jget(q3, "random-detect.realised")));
	/* the no-drop queue: software PFC's tbf */
	assert_string_equal(json_object_get_string(ctlt_jget(q3, "leaf")),
	                    "tbf");
	assert_int_equal(
	    json_object_get_int(ctlt_jget(q3, "counters.tx-packets")), 4242);
	assert_int_equal(
	    json_object_get_int(ctlt_jget(q3, "counters.dropped-packets")), 7);
	assert_int_equal(
	    json_object_get_int(ctlt_jget(q3, "counters.queue-depth-bytes")),
	    1500);
	/* no red leaf, no ECN counter: null, not 0 */
	assert_non_null(ctlt_jget(q3, "counters"));
	assert_true(json_object_object_get_ex(ctlt_jget(q3, "counters"),
	                                      "ecn-marked", NULL));
	assert_null(ctlt_jget(q3, "counters.ecn-marked"));
	assert_true(
	    json_object_array_length(ctlt_jget(d, "interface.0.warnings")) > 0);
	assert_non_null(strstr(strbuf_str(&text),
	                       "Egress Queuing for Ethernet1/1 (swp1) "
	                       "[ROCE_QUEUING_OUT]"));
	assert_non_null(strstr(strbuf_str(&text), "QOS GROUP 3"));
	assert_non_null(strstr(strbuf_str(&text), "4242"));
	assert_non_null(strstr(strbuf_str(&text), "not realised"));
	json_object_put(d);
	strbuf_free(&text);

	/* a port whose queue was not read has null counters */
	f->st[0].stats = false;
	d = ctlt_answer(f, &q, &text);
	assert_null(ctlt_jget(d, "interface.0.queue.4.counters"));
	assert_non_null(strstr(strbuf_str(&text), "n/a"));
	f->st[0].stats = true;
	json_object_put(d);
	strbuf_free(&text);
}

/* Every port answer says what the port really holds, in its JSON and
 * in its text, with the same words. */
static void test_show_port_state(void **state)
{
	static const enum ctl_show kinds[] = {
	    CTL_SHOW_QUEUING_IF, CTL_SHOW_POLICY_MAP_IF, CTL_SHOW_PFC_IF};
	struct ctlt_fixture *f = *state;
	struct show_port_state *st = &f->st[0];
	struct json_object *d;
	struct strbuf text;

	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		struct show_query q = {.kind = kinds[k]};

		st->state = PLAN_PORT_PROGRAMMED;
		d = ctlt_answer(f, &q, &text);
		assert_string_equal(
		    json_object_get_string(ctlt_jget(d, "interface.0.state")),
		    "programmed");
		assert_true(json_object_object_get_ex(
		    ctlt_jget(d, "interface.0"), "reason", NULL));
		assert_null(ctlt_jget(d, "interface.0.reason"));
		assert_null(ctlt_jget(d, "interface.0.foreign-root-qdisc"));
		if (kinds[k] != CTL_SHOW_PFC_IF)
			assert_non_null(
			    strstr(strbuf_str(&text), "State: programmed"));
		assert_null(strstr(strbuf_str(&text), "not programmed"));
		json_object_put(d);
		strbuf_free(&text);

		/* a foreign root qdisc in the way */
		st->state = PLAN_PORT_REFUSED;
		snprintf(st->reason, sizeof(st->reason),
		         "foreign root qdisc htb 1: (roced did not create it)");
		snprintf(st->foreign_kind, sizeof(st->foreign_kind), "htb");
		st->foreign_handle = 0x10000;
		d = ctlt_answer(f, &q, &text);
		assert_string_equal(
		    json_object_get_string(ctlt_jget(d, "interface.0.state")),
		    "refused");
		assert_string_equal(
		    json_object_get_string(ctlt_jget(d, "interface.0.reason")),
		    st->reason);
		assert_string_equal(
		    json_object_get_string(
		        ctlt_jget(d, "interface.0.foreign-root-qdisc.kind")),
		    "htb");
		assert_string_equal(
		    json_object_get_string(
		        ctlt_jget(d, "interface.0.foreign-root-qdisc.handle")),
		    "1:");
		assert_non_null(strstr(strbuf_str(&text),
		                       "refused: foreign root qdisc htb 1:"));
		json_object_put(d);
		strbuf_free(&text);

		/* the kernel refused a request */
		st->state = PLAN_PORT_NOT_PROGRAMMED;
		snprintf(st->reason, sizeof(st->reason),
		         "the kernel refused swp1: add qdisc htb 4791: root: "
		         "Invalid argument: extack");
		d = ctlt_answer(f, &q, &text);
		assert_string_equal(
		    json_object_get_string(ctlt_jget(d, "interface.0.state")),
		    "not-programmed");
		assert_null(ctlt_jget(d, "interface.0.foreign-root-qdisc"));
		assert_non_null(strstr(strbuf_str(&text),
		                       "not programmed: the kernel refused "
		                       "swp1: add qdisc htb 4791: root"));
		json_object_put(d);
		strbuf_free(&text);

		/* programmed once, but roced's root is gone since */
		st->state = PLAN_PORT_PROGRAMMED;
		st->roced_root = false;
		d = ctlt_answer(f, &q, &text);
		assert_string_equal(
		    json_object_get_string(ctlt_jget(d, "interface.0.state")),
		    "not-programmed");
		assert_non_null(strstr(
		    json_object_get_string(ctlt_jget(d, "interface.0.reason")),
		    "root qdisc is gone"));
		assert_non_null(strstr(strbuf_str(&text),
		                       "not programmed: roced's root qdisc "
		                       "is gone"));
		json_object_put(d);
		strbuf_free(&text);
		st->roced_root = true;
	}
	st->state = PLAN_PORT_PROGRAMMED;
	st->reason[0] = '\0';
}

static void test_show_pfc(void **state)
{
	struct ctlt_fixture *f = *state;
	struct show_query q = {.kind = CTL_SHOW_PFC_IF};
	struct json_object *d;
	struct strbuf text;

	d = ctlt_answer(f, &q, &text);
	assert_string_equal(
	    json_object_get_string(ctlt_jget(d, "interface.0.mode")), "on");
	assert_string_equal(
	    json_object_get_string(ctlt_jget(d, "interface.0.oper")), "on");
	assert_int_equal(
	    json_object_get_int(ctlt_jget(d, "interface.0.priorities.0")), 3);
	assert_null(ctlt_jget(d, "interface.0.rx-pause"));
	assert_non_null(strstr(json_object_get_string(ctlt_jget(d, "note")),
	                       "only on configured ports that are up"));
	assert_non_null(strstr(strbuf_str(&text), "Ethernet1/1"));
	assert_non_null(strstr(strbuf_str(&text), "On  (8)"));
	assert_non_null(strstr(strbuf_str(&text), "n/a"));
	json_object_put(d);
	strbuf_free(&text);

	/* Software PFC runs there: its counters, RxPPP the frames,
	 * per priority in the detail. */
	f->st[0].softpfc = true;
	f->st[0].rx_ppp = 7;
	f->st[0].rx_pause[3] = 6;
	f->st[0].rx_xon[3] = 1;
	f->st[0].held = 0x08;
	f->st[0].held_ms[3] = 1234.5;
	q.detail = true;
	d = ctlt_answer(f, &q, &text);
	assert_int_equal(
	    json_object_get_int(ctlt_jget(d, "interface.0.rx-pause")), 7);
	assert_int_equal(
	    json_object_get_int(ctlt_jget(d, "interface.0.tx-pause")), 0);
	assert_int_equal(json_object_get_int(
	                     ctlt_jget(d, "interface.0.priority.3.rx-pause")),
	                 6);
	assert_int_equal(
	    json_object_get_int(ctlt_jget(d, "interface.0.priority.3.rx-xon")),
	    1);
	assert_true(json_object_get_boolean(
	    ctlt_jget(d, "interface.0.priority.3.paused")));
	assert_int_equal(json_object_get_int(
	                     ctlt_jget(d, "interface.0.priority.3.paused-ms")),
	                 1234);
	assert_non_null(strstr(json_object_get_string(ctlt_jget(d, "note")),
	                       "software PFC counters"));
	assert_non_null(strstr(strbuf_str(&text), "RxPause"));
	assert_non_null(strstr(strbuf_str(&text),
	                       "  3         6          1          0          "
	                       "0          yes     1234"));
	f->st[0].softpfc = false;
	json_object_put(d);
	strbuf_free(&text);
}

/* A hardware port read through hwcnt (dcbnl and mlx5's statistics):
 * per-priority counters in detail, pause time where the driver counts
 * it, n/a (null) for what it does not: XON, paused now. A hardware port
 * whose driver answers neither says why instead of printing 0. */
static void test_show_pfc_hwcnt(void **state)
{
	struct ctlt_fixture *f = *state;
	struct show_query q = {.kind = CTL_SHOW_PFC_IF, .detail = true};
	struct compile_port port = {.ifname = "swp1"};
	struct show_port_state st = {.exists = true, .dcb = true};
	struct show_input in = f->in;
	const struct plan_port *plans[1];
	struct json_object *d;
	struct strbuf text;
	struct plan pl;

	caps_preset(&port.caps, CAPS_PRESET_HW);
	plan_init(&pl);
	assert_int_equal(compile_policy(&f->p, &port, 1, &pl), 0);
	st.pfc_en = 0x08;
	st.hwcnt = st.hw_dcb = true;
	st.hw_driver = "mlx5";
	st.hw_dur = 0x08;
	st.rx_pause[3] = 1000;
	st.tx_pause[3] = 12;
	st.rx_ppp = 1000;
	st.tx_ppp = 12;
	st.held_ms[3] = 950.0;
	plans[0] = &pl.ports[0];
	in.plans = plans;
	in.state = &st;
	in.nports = 1;
	strbuf_init(&text);
	assert_int_equal(show_answer(&q, &in, &d, &text, NULL, 0), 0);
	assert_int_equal(
	    json_object_get_int(ctlt_jget(d, "interface.0.rx-pause")), 1000);
	assert_string_equal(
	    json_object_get_string(ctlt_jget(d, "interface.0.counters")),
	    "dcbnl, ethtool (mlx5)");
	assert_int_equal(json_object_get_int(
	                     ctlt_jget(d, "interface.0.priority.3.paused-ms")),
	                 950);
	assert_null(ctlt_jget(d, "interface.0.priority.3.rx-xon"));
	assert_null(ctlt_jget(d, "interface.0.priority.3.paused"));
	assert_null(ctlt_jget(d, "interface.0.priority.4.paused-ms"));
	assert_int_equal(json_object_get_int(
	                     ctlt_jget(d, "interface.0.priority.4.rx-pause")),
	                 0);
	assert_non_null(
	    strstr(strbuf_str(&text), "(counters: dcbnl, ethtool (mlx5))"));
	assert_non_null(strstr(strbuf_str(&text),
	                       "  3         1000       n/a        12         "
	                       "n/a        n/a     950"));
	json_object_put(d);
	strbuf_free(&text);

	memset(&st, 0, sizeof(st));
	st.exists = true;
	snprintf(st.hw_why, sizeof(st.hw_why), "Operation not supported");
	strbuf_init(&text);
	assert_int_equal(show_answer(&q, &in, &d, &text, NULL, 0), 0);
	assert_null(ctlt_jget(d, "interface.0.rx-pause"));
	assert_string_equal(
	    json_object_get_string(ctlt_jget(d, "interface.0.counters-reason")),
	    "Operation not supported");
	json_object_put(d);
	strbuf_free(&text);
	plan_free(&pl);
}

/* A hardware port: the driver's PFC state and pause counts (dcbnl's
 * requests = sent, indications = received) are shown, not the plan's. */
static void test_show_pfc_hw(void **state)
{
	struct ctlt_fixture *f = *state;
	struct show_query q = {.kind = CTL_SHOW_PFC_IF};
	struct compile_port port = {.ifname = "swp1"};
	struct show_port_state st = {.exists = true, .dcb = true};
	struct show_input in = f->in;
	const struct plan_port *plans[1];
	struct json_object *d;
	struct strbuf text;
	struct plan pl;

	caps_preset(&port.caps, CAPS_PRESET_HW);
	plan_init(&pl);
	assert_int_equal(compile_policy(&f->p, &port, 1, &pl), 0);
	assert_false(pl.ports[0].dcb.software);
	st.pfc_en = 0x08;
	st.indications[3] = 1000;
	st.indications[4] = 7;
	st.requests[3] = 55;
	plans[0] = &pl.ports[0];
	in.plans = plans;
	in.state = &st;
	in.nports = 1;
	strbuf_init(&text);
	assert_int_equal(show_answer(&q, &in, &d, &text, NULL, 0), 0);
	assert_string_equal(
	    json_object_get_string(ctlt_jget(d, "interface.0.dcb")),
	    "hardware");
	assert_int_equal(
	    json_object_get_int(ctlt_jget(d, "interface.0.rx-pause")), 1007);
	assert_int_equal(
	    json_object_get_int(ctlt_jget(d, "interface.0.tx-pause")), 55);
	assert_non_null(strstr(
	    json_object_get_string(ctlt_jget(d, "note")),
	    "hardware ports: RxPPP/TxPPP are the driver's PFC frame counters"));
	assert_string_equal(
	    json_object_get_string(ctlt_jget(d, "interface.0.counters")),
	    "dcbnl");
	assert_non_null(strstr(strbuf_str(&text), "1007"));
	json_object_put(d);
	strbuf_free(&text);
	/* the driver has PFC off although the plan wants it: say so */
	st.pfc_en = 0;
	strbuf_init(&text);
	assert_int_equal(show_answer(&q, &in, &d, &text, NULL, 0), 0);
	assert_string_equal(
	    json_object_get_string(ctlt_jget(d, "interface.0.oper")), "off");
	json_object_put(d);
	strbuf_free(&text);
	plan_free(&pl);
}

/* show queuing pfc-queue detail, with the watchdog at its defaults, is
 * what the reference switch prints. */
static void test_show_pfc_queue_reference(void **state)
{
	struct ctlt_fixture *f = *state;
	struct show_query q = {.kind = CTL_SHOW_PFC_QUEUE, .detail = true};
	struct json_object *d;
	struct strbuf text, want;
	char line[256];
	FILE *ref;

	/* `show queuing pfc-queue detail` of the reference Nexus switch. */
	ref = fopen(TEST_SRCDIR "/tests/fixtures/nxos-pfcwd-detail.txt", "r");
	if (!ref)
		fail_msg("the reference output is missing: %s",
		         TEST_SRCDIR "/tests/fixtures/nxos-pfcwd-detail.txt");
	strbuf_init(&want);
	while (fgets(line, sizeof(line), ref))
		if (line[0] != '!')
			strbuf_puts(&want, line);
	fclose(ref);
	f->p.pfcwd.enabled = false;
	d = ctlt_answer(f, &q, &text);
	f->p.pfcwd.enabled = true;
	if (strncmp(strbuf_str(&text), strbuf_str(&want), want.len))
		fail_msg("have:\n%s\nwant:\n%s", strbuf_str(&text),
		         strbuf_str(&want));
	assert_true(json_object_get_boolean(ctlt_jget(d, "running")));
	assert_string_equal(json_object_get_string(ctlt_jget(d, "action")),
	                    "drop");
	json_object_put(d);
	strbuf_free(&text);
	strbuf_free(&want);
}

/* The watchdog's per-queue state and counters: a queue in a
 * storm, in json and in the detail text. */
static void test_show_pfc_queue_storm(void **state)
{
	struct ctlt_fixture *f = *state;
	struct show_query q = {.kind = CTL_SHOW_PFC_QUEUE, .detail = true};
	struct json_object *d;
	struct strbuf text;
	struct pfcwd_queue *s = &f->st[0].wdq[3];

	f->st[0].wd = true;
	f->st[0].wd_queues = 0x08;
	f->st[0].wd_prios[3] = 0x08;
	f->st[0].now_ms = 10000;
	pfcwd_init(s);
	s->state = PFCWD_SHUTDOWN;
	s->storms = 2;
	s->restores = 1;
	s->drained = 40;
	s->dropped = 3590;
	s->last_storm_ms = 7500;
	d = ctlt_answer(f, &q, &text);
	assert_string_equal(
	    json_object_get_string(ctlt_jget(d, "interface.0.state")),
	    "shutdown");
	assert_int_equal(
	    json_object_get_int(ctlt_jget(d, "interface.0.queues.0.qos-group")),
	    3);
	assert_int_equal(json_object_get_int(ctlt_jget(
	                     d, "interface.0.queues.0.dropped-packets")),
	                 3590);
	assert_true(json_object_get_double(ctlt_jget(
	                d, "interface.0.queues.0.last-storm-s-ago")) == 2.5);
	assert_null(ctlt_jget(d, "interface.0.queues.0.last-restore-s-ago"));
	/* NX-OS's per-CoS flags, CoS 7 down to 0 */
	assert_non_null(strstr(strbuf_str(&text), "Enabled ( 0x8 )         "
	                                          "- - - - Y - - -\n"));
	assert_non_null(
	    strstr(strbuf_str(&text),
	           "| QOS GROUP 3 [Shutdown] PFC [YES] PFC-COS [3]\n"));
	assert_non_null(strstr(strbuf_str(&text),
	                       "|         Aggregate pkts dropped|"
	                       "                3630|\n"));
	assert_non_null(strstr(strbuf_str(&text),
	                       "Last storm 2.5 s ago, last restore never"));
	f->st[0].wd = false;
	json_object_put(d);
	strbuf_free(&text);
}

/* The watchdog's poll interval has one JSON key, its roced.conf name, in
 * the pfc-queue answer and in the policy JSON alike. */
static void test_show_pfc_queue_keys(void **state)
{
	struct ctlt_fixture *f = *state;
	struct show_query q = {.kind = CTL_SHOW_PFC_QUEUE};
	struct json_object *d, *pj;
	struct strbuf text;

	f->p.pfcwd.poll_ms = 250;
	d = ctlt_answer(f, &q, &text);
	pj = show_policy_json(&f->p, NULL);
	assert_int_equal(json_object_get_int(ctlt_jget(d, "interval")), 250);
	assert_int_equal(json_object_get_int(ctlt_jget(
	                     pj, "priority-flow-control.watch-dog.interval")),
	                 250);
	assert_null(ctlt_jget(d, "poll-interval-ms"));
	json_object_put(pj);
	json_object_put(d);
	strbuf_free(&text);
	q.detail = true;
	d = ctlt_answer(f, &q, &text);
	assert_non_null(strstr(strbuf_str(&text),
	                       "PFC watch-dog poll interval : 250 ms\n"));
	json_object_put(d);
	strbuf_free(&text);
}

/* The watchdog's global lines come from the plan last applied, not
 * from the policy: a policy whose apply has not happened (or failed)
 * changes nothing the show says. */
static void test_show_pfc_queue_applied(void **state)
{
	struct ctlt_fixture *f = *state;
	struct show_query q = {.kind = CTL_SHOW_PFC_QUEUE};
	struct plan_global applied;
	struct json_object *d = NULL;
	struct strbuf text;
	char err[256];

	compile_global(&f->p, &applied);
	applied.wd_poll_ms = 500;
	applied.wd_action = POLICY_PFCWD_FORWARD;
	f->p.pfcwd.poll_ms = 250;
	f->in.global = &applied;
	strbuf_init(&text);
	assert_int_equal(show_answer(&q, &f->in, &d, &text, err, sizeof(err)),
	                 0);
	f->in.global = &f->reg.global;
	assert_int_equal(json_object_get_int(ctlt_jget(d, "interval")), 500);
	assert_string_equal(json_object_get_string(ctlt_jget(d, "action")),
	                    "forward");
	json_object_put(d);
	strbuf_free(&text);
}

static void test_show_maps(void **state)
{
	struct ctlt_fixture *f = *state;
	struct show_query q = {.kind = CTL_SHOW_POLICY_MAP};
	struct json_object *d;
	struct strbuf text;
	char err[256];

	d = ctlt_answer(f, &q, &text);
	assert_non_null(strstr(strbuf_str(&text),
	                       "  policy-map type queuing ROCE_QUEUING_OUT\n"
	                       "    class type queuing c-out-8q-q3\n"
	                       "      bandwidth remaining percent 50\n"
	                       "      random-detect minimum-threshold 150 "
	                       "kbytes maximum-threshold 3000 kbytes "
	                       "drop-probability 7 weight 0 ecn\n"));
	assert_non_null(strstr(strbuf_str(&text),
	                       "    class type network-qos ROCE_NETWORK_CLASS\n"
	                       "      pause pfc-cos 3\n      mtu 9216\n"));
	json_object_put(d);
	strbuf_free(&text);

	q.kind = CTL_SHOW_CLASS_MAP;
	snprintf(q.name, sizeof(q.name), "ROCE_CLASS");
	d = ctlt_answer(f, &q, &text);
	assert_int_equal(json_object_array_length(ctlt_jget(d, "class-map")),
	                 1);
	assert_non_null(strstr(strbuf_str(&text),
	                       "    class-map type qos match-any ROCE_CLASS\n"
	                       "      match cos 3\n      match dscp 26\n"));
	json_object_put(d);
	strbuf_free(&text);

	snprintf(q.name, sizeof(q.name), "NOPE");
	strbuf_init(&text);
	assert_int_equal(show_answer(&q, &f->in, &d, &text, err, sizeof(err)),
	                 -1);
	assert_non_null(strstr(err, "NOPE does not exist"));
	strbuf_free(&text);
}

/* The running-config JSON is the config file's structure. */
/* show roce is truthful: the shipped configuration attaches its qos and
 * queuing policies per interface, which count (before: trust none and
 * only TC 0, from system qos alone); PFC says where it runs, not only
 * that it is configured (before: "PFC: enabled" while every port waited
 * for a DCBX peer). */
static void test_show_roce(void **state)
{
	struct ctlt_fixture *f = *state;
	struct show_query q = {.kind = CTL_SHOW_ROCE};
	struct plan_port *pp = &f->reg.v[0].plan;
	struct json_object *d;
	struct strbuf text;

	d = ctlt_answer(f, &q, &text);
	assert_string_equal(
	    json_object_get_string(ctlt_jget(d, "policies.0.qos-input")),
	    "ROCE_POLICY");
	assert_string_equal(
	    json_object_get_string(ctlt_jget(d, "policies.0.queuing-output")),
	    "ROCE_QUEUING_OUT");
	assert_int_equal(json_object_get_int(ctlt_jget(d, "policies.0.ports")),
	                 1);
	assert_string_equal(json_object_get_string(ctlt_jget(d, "trust.0")),
	                    "dscp");
	/* q3 holds ROCE_CLASS, and q-default the rest */
	assert_int_equal(
	    json_object_get_int(ctlt_jget(d, "traffic-classes.0.priority")), 3);
	assert_string_equal(json_object_get_string(
	                        ctlt_jget(d, "traffic-classes.0.application")),
	                    "ROCE_CLASS");
	assert_int_equal(
	    json_object_get_int(ctlt_jget(d, "congestion-control.0.queue")), 3);
	assert_string_equal(
	    json_object_get_string(ctlt_jget(d, "interface.0.qos-input")),
	    "ROCE_POLICY");
	assert_int_equal(
	    json_object_get_int(ctlt_jget(d, "pfc.per-priority.0.ports-on")),
	    1);
	assert_non_null(strstr(strbuf_str(&text),
	                       "Policies       : qos ROCE_POLICY, queuing "
	                       "ROCE_QUEUING_OUT on 1 port\n"));
	assert_non_null(
	    strstr(strbuf_str(&text), "PFC            : enabled\n"));
	assert_non_null(strstr(strbuf_str(&text),
	                       "switch-priority 3: enabled, operational on 1 "
	                       "of 1 ports"));
	assert_null(strstr(strbuf_str(&text), "Port trust mode: none"));
	json_object_put(d);
	strbuf_free(&text);

	/* mode auto and no DCBX peer: configured, running nowhere */
	pp->pfc_mode = POLICY_PFC_AUTO;
	pp->pfc_awaiting_dcbx = true;
	pp->dcb.pfc_en = 0;
	d = ctlt_answer(f, &q, &text);
	assert_int_equal(
	    json_object_get_int(ctlt_jget(d, "pfc.per-priority.0.ports-on")),
	    0);
	assert_int_equal(
	    json_object_array_length(ctlt_jget(d, "pfc.operational")), 0);
	assert_non_null(strstr(strbuf_str(&text),
	                       "PFC            : configured, operational on "
	                       "none of 1 ports\n"));
	assert_non_null(strstr(strbuf_str(&text),
	                       "switch-priority 3: enabled, operational on 0 "
	                       "of 1 ports"));
	json_object_put(d);
	strbuf_free(&text);
}

static void test_show_policy_json(void **state)
{
	struct ctlt_fixture *f = *state;
	struct json_object *d = show_policy_json(&f->p, NULL);
	struct json_object *qos;

	(void)state;
	assert_string_equal(
	    json_object_get_string(ctlt_jget(d, "class-map.qos.0.name")),
	    "ROCE_CLASS");
	assert_int_equal(
	    json_object_get_int(ctlt_jget(d, "class-map.qos.0.dscp.0")), 26);
	assert_int_equal(json_object_get_int(
	                     ctlt_jget(d, "policy-map.queuing.0.class.0."
	                                  "random-detect.maximum-threshold")),
	                 3000 * 1024);
	assert_int_equal(json_object_get_int(ctlt_jget(
	                     d, "policy-map.network-qos.0.class.0.mtu")),
	                 9216);
	assert_string_equal(json_object_get_string(ctlt_jget(
	                        d, "system-qos.service-policy.network-qos")),
	                    "ROCE_NETWORK_POLICY");
	assert_string_equal(json_object_get_string(ctlt_jget(
	                        d, "interface.0.priority-flow-control.mode")),
	                    "on");
	assert_true(json_object_get_boolean(
	    ctlt_jget(d, "priority-flow-control.watch-dog-interval")));
	json_object_put(d);
	/* "qos": everything but the interfaces; an interface alone */
	qos = show_policy_json(&f->p, "qos");
	assert_null(ctlt_jget(qos, "interface"));
	assert_non_null(ctlt_jget(qos, "class-map"));
	json_object_put(qos);
	d = show_policy_json(&f->p, "Ethernet1/1");
	assert_int_equal(json_object_array_length(ctlt_jget(d, "interface")),
	                 1);
	assert_null(ctlt_jget(d, "class-map"));
	json_object_put(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_show_query),
	    cmocka_unit_test_setup_teardown(test_show_queuing, ctlt_setup,
	                                    ctlt_teardown),
	    cmocka_unit_test_setup_teardown(test_show_port_state, ctlt_setup,
	                                    ctlt_teardown),
	    cmocka_unit_test_setup_teardown(test_show_pfc, ctlt_setup,
	                                    ctlt_teardown),
	    cmocka_unit_test_setup_teardown(test_show_pfc_hwcnt, ctlt_setup,
	                                    ctlt_teardown),
	    cmocka_unit_test_setup_teardown(test_show_pfc_hw, ctlt_setup,
	                                    ctlt_teardown),
	    cmocka_unit_test_setup_teardown(test_show_pfc_queue_storm,
	                                    ctlt_setup, ctlt_teardown),
	    cmocka_unit_test_setup_teardown(test_show_pfc_queue_reference,
	                                    ctlt_setup, ctlt_teardown),
	    cmocka_unit_test_setup_teardown(test_show_pfc_queue_applied,
	                                    ctlt_setup, ctlt_teardown),
	    cmocka_unit_test_setup_teardown(test_show_pfc_queue_keys,
	                                    ctlt_setup, ctlt_teardown),
	    cmocka_unit_test_setup_teardown(test_show_maps, ctlt_setup,
	                                    ctlt_teardown),
	    cmocka_unit_test_setup_teardown(test_show_roce, ctlt_setup,
	                                    ctlt_teardown),
	    cmocka_unit_test_setup_teardown(test_show_policy_json, ctlt_setup,
	                                    ctlt_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
