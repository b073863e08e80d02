/* test_show_fc: `show interface flowcontrol` (daemon/show), text and json
 * from one builder: NX-OS's table (Port, Send FlowControl admin/oper,
 * Receive FlowControl admin/oper, RxPause, TxPause), the admin side from
 * the plan, the oper side and the counters from what the driver answered
 * (ethtool PAUSE_GET) on hardware ports, and on software ports from
 * roced's frame layer (n/a where it does not run). The query's both
 * spellings too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "plan/compile.h"
#include "conf/conf.h"
#include "ctl/ctl.h"
#include "show/show.h"
#include "ctl_test.h"

static const char *jstr(struct json_object *o, const char *path)
{
	struct json_object *v = ctlt_jget(o, path);

	assert_non_null(v);
	return json_object_get_string(v);
}

/* Two ports of the shipped policy: Ethernet1/1 on hardware, receive on,
 * send off; swp2 a software port with receive on. */
static void test_show_fc(void **state)
{
	struct show_query q;
	struct show_port_state st[2];
	const struct plan_port *plans[2];
	struct show_input in;
	struct json_object *d;
	struct strbuf text;
	struct policy p;
	struct plan pl;
	struct diag dg;
	char err[128];
	const char *args[] = {"show", "interface", "ethernet", "1/1",
	                      "flowcontrol"};
	struct cmd_error ce;

	(void)state;
	diag_init(&dg, "roced.conf");
	assert_int_equal(
	    conf_load_file(TEST_SRCDIR "/conf/roced.conf", &p, &dg), 0);
	diag_free(&dg);
	plan_init(&pl);
	assert_non_null(plan_add_port(&pl, "swp1"));
	assert_non_null(plan_add_port(&pl, "swp2"));
	snprintf(pl.ports[0].alias, sizeof(pl.ports[0].alias), "Ethernet1/1");
	pl.ports[0].dcb = (struct plan_dcb){
	    .pause_managed = true, .pause_rx = true, .pause_tx = false};
	pl.ports[1].dcb = (struct plan_dcb){
	    .software = true, .pause_managed = true, .pause_rx = true};
	memset(st, 0, sizeof(st));
	st[0] = (struct show_port_state){.exists = true,
	                                 .state = PLAN_PORT_PROGRAMMED,
	                                 .pause = true,
	                                 .pause_rx = true,
	                                 .pause_tx = true, /* the driver's */
	                                 .pause_counted = true,
	                                 .rx_pause_frames = 1234,
	                                 .tx_pause_frames = 5};
	st[1] = (struct show_port_state){.exists = true,
	                                 .state = PLAN_PORT_PROGRAMMED};
	plans[0] = &pl.ports[0];
	plans[1] = &pl.ports[1];
	memset(&in, 0, sizeof(in));
	in.policy = &p;
	in.config_file = "roced.conf";
	in.plans = plans;
	in.state = st;
	in.nports = 2;

	/* NX-OS's per-port spelling names the port. */
	memset(&q, 0, sizeof(q));
	assert_int_equal(cmd_show_query(CTL_WHAT_FC_IF, args, 5, &q, &ce), 0);
	assert_string_equal(q.iface, "Ethernet1/1");
	assert_int_equal(q.kind, CTL_SHOW_FC_IF);
	assert_true(show_query_ports(&q));

	memset(&q, 0, sizeof(q));
	q.kind = CTL_SHOW_FC_IF;
	strbuf_init(&text);
	assert_int_equal(show_answer(&q, &in, &d, &text, err, sizeof(err)), 0);
	assert_string_equal(jstr(d, "interface.0.receive.admin"), "on");
	assert_string_equal(jstr(d, "interface.0.receive.oper"), "on");
	assert_string_equal(jstr(d, "interface.0.send.admin"), "off");
	/* what the driver holds, not what the plan says */
	assert_string_equal(jstr(d, "interface.0.send.oper"), "on");
	assert_int_equal(
	    json_object_get_int(ctlt_jget(d, "interface.0.rx-pause")), 1234);
	assert_int_equal(
	    json_object_get_int(ctlt_jget(d, "interface.0.tx-pause")), 5);
	assert_string_equal(jstr(d, "interface.1.dcb"), "software");
	assert_string_equal(jstr(d, "interface.1.receive.oper"), "off");
	assert_null(ctlt_jget(d, "interface.1.rx-pause"));
	assert_non_null(strstr(jstr(d, "note"), "802.3x"));
	assert_non_null(strstr(strbuf_str(&text),
	                       "Port         Send FlowControl  Receive "
	                       "FlowControl  RxPause     TxPause\n"
	                       "             admin    oper     admin    "
	                       "oper\n"));
	assert_non_null(strstr(strbuf_str(&text),
	                       "Ethernet1/1  off      on       on       on   "
	                       "       1234        5\n"));
	assert_non_null(strstr(strbuf_str(&text),
	                       "swp2         off      off      on       off  "
	                       "       n/a         n/a\n"));
	json_object_put(d);
	strbuf_free(&text);

	/* A software port where roced's frame layer runs: its own
	 * counters, XON among the frames, and the time it held the port;
	 * oper on where it honours (receive) and sends (a bridge port). */
	st[1].softpfc = true;
	st[1].lp_rx = true;
	st[1].lp_tx = true; /* feeds, yet send is admin off: oper off */
	st[1].lp_held = true;
	st[1].lp_rx_frames = 42;
	st[1].lp_rx_xon = 2;
	st[1].lp_tx_frames = 7;
	st[1].lp_tx_xon = 1;
	st[1].lp_held_ms = 12.5;
	strbuf_init(&text);
	assert_int_equal(show_answer(&q, &in, &d, &text, err, sizeof(err)), 0);
	assert_string_equal(jstr(d, "interface.1.receive.oper"), "on");
	assert_string_equal(jstr(d, "interface.1.send.oper"), "off");
	assert_int_equal(
	    json_object_get_int(ctlt_jget(d, "interface.1.rx-pause")), 42);
	assert_int_equal(
	    json_object_get_int(ctlt_jget(d, "interface.1.rx-xon")), 2);
	assert_int_equal(
	    json_object_get_int(ctlt_jget(d, "interface.1.tx-pause")), 7);
	assert_int_equal(
	    json_object_get_int(ctlt_jget(d, "interface.1.tx-xon")), 1);
	assert_int_equal(
	    json_object_get_int(ctlt_jget(d, "interface.1.paused-ms")), 12);
	assert_true(
	    json_object_get_boolean(ctlt_jget(d, "interface.1.paused")));
	/* hardware ports: no XON count of roced's */
	assert_null(ctlt_jget(d, "interface.0.rx-xon"));
	assert_non_null(strstr(strbuf_str(&text),
	                       "swp2         off      off      on       on   "
	                       "       42          7\n"));
	json_object_put(d);
	strbuf_free(&text);
	pl.ports[1].dcb.pause_tx = true;
	strbuf_init(&text);
	assert_int_equal(show_answer(&q, &in, &d, &text, err, sizeof(err)), 0);
	assert_string_equal(jstr(d, "interface.1.send.oper"), "on");
	json_object_put(d);
	strbuf_free(&text);

	/* A driver that was not read: oper unknown, not "off". */
	st[0].pause = st[0].pause_counted = false;
	strbuf_init(&text);
	assert_int_equal(show_answer(&q, &in, &d, &text, err, sizeof(err)), 0);
	assert_null(ctlt_jget(d, "interface.0.receive.oper"));
	assert_null(ctlt_jget(d, "interface.0.rx-pause"));
	assert_non_null(
	    strstr(strbuf_str(&text),
	           "Ethernet1/1  off      n/a      on       n/a  "));
	json_object_put(d);
	strbuf_free(&text);
	plan_free(&pl);
	policy_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_show_fc),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
