/* test_show_nxos: the shows laid out as NX-OS lays them (daemon/show),
 * text and json from one builder, from fixed inputs (no root):
 *   - show queuing pfc-queue detail: NX-OS's per-interface lines and per
 *     queue its boxed statistics (Shutdown, Restored, Total pkts
 *     drained/dropped of the last storm, Aggregate pkts dropped), and
 *     the summary's per-CoS flags;
 *   - show queuing interface: the "Ingress Queuing for" table and the
 *     "PFC Statistics" block, with lines copied from a Nexus 93180's
 *     output (tests/cli/nxos/show-queuing-interface.txt);
 *   - show interface counters: NX-OS's two-column tables, "--" where
 *     Linux counts nothing, and the pause frames;
 *   - the baseline of clear qos statistics (show_base_apply).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "cmd/cmd_show.h"
#include "ctl/ctl.h"
#include "show/show.h"
#include "ctl_test.h"

static int64_t jint(struct json_object *o, const char *path)
{
	struct json_object *v = ctlt_jget(o, path);

	assert_non_null(v);
	assert_true(json_object_is_type(v, json_type_int));
	return json_object_get_int64(v);
}

static void has(const struct strbuf *text, const char *want)
{
	if (!strstr(strbuf_str(text), want))
		fail_msg("missing:\n%s\nin:\n%s", want, strbuf_str(text));
}

/* A storm on queue 3: the box counts the last storm apart from the
 * totals, and the summary flags CoS 3. */
static void test_pfc_queue_detail(void **state)
{
	struct ctlt_fixture *f = *state;
	struct show_port_state *st = &f->st[0];
	struct show_query q = {.kind = CTL_SHOW_PFC_QUEUE, .detail = true};
	struct json_object *d;
	struct strbuf text;

	st->wd = true;
	st->wd_queues = 1u << 3;
	st->wd_prios[3] = 1u << 3;
	pfcwd_init(&st->wdq[3]);
	st->wdq[3].state = PFCWD_SHUTDOWN;
	st->wdq[3].storms = 2;
	st->wdq[3].restores = 1;
	st->wdq[3].drained = 80;
	st->wdq[3].dropped = 97;
	st->wdq[3].storm_drained = 40;
	st->wdq[3].storm_dropped = 7;
	d = ctlt_answer(f, &q, &text);
	assert_int_equal(jint(d, "interface.0.queues.0.storm-drained-packets"),
	                 40);
	assert_int_equal(jint(d, "interface.0.queues.0.storm-dropped-packets"),
	                 7);
	assert_int_equal(jint(d, "interface.0.shutdown-priorities.0"), 3);
	assert_int_equal(jint(d, "interface.0.interface-multiplier"), 0);
	has(&text, "Port                 PFC Watchdog (VL bmap)  "
	           "State (Shutdown)\n");
	has(&text, "Ethernet1/1          Enabled ( 0x8 )         "
	           "- - - - Y - - -\n");
	has(&text, "\nEthernet1/1 Interface PFC watchdog: [Enabled]\n"
	           "Disable-action                     : No\n"
	           "PFC watch-dog interface-multiplier : 0\n"
	           "+----------------------------------------------------+\n"
	           "| QOS GROUP 3 [Shutdown] PFC [YES] PFC-COS [3]\n"
	           "+----------------------------------------------------+\n"
	           "|                               |  Stats             |\n"
	           "+----------------------------------------------------+\n"
	           "|                       Shutdown|                   2|\n"
	           "|                       Restored|                   1|\n"
	           "|             Total pkts drained|                  40|\n"
	           "|             Total pkts dropped|                   7|\n"
	           "|   Total pkts drained + dropped|                  47|\n"
	           "|         Aggregate pkts dropped|                 177|\n"
	           "+----------------------------------------------------+\n");
	json_object_put(d);
	strbuf_free(&text);
	/* the port's own times, from its plan, below its boxes */
	{
		struct plan_port *pp = (struct plan_port *)f->plans[0];

		pp->watchdog = true;
		pp->wd = (struct plan_wd){.poll_ms = 100,
		                          .detect_ms = 800,
		                          .auto_restore_ms = 1000,
		                          .fixed_restore_ms = 0};
		d = ctlt_answer(f, &q, &text);
		assert_int_equal(jint(d, "interface.0.storm-ms"), 800);
		assert_int_equal(jint(d, "interface.0.poll-ms"), 100);
		has(&text,
		    "+----------------------------------------------------+\n"
		    "Last storm never, last restore never, restore wait x1\n"
		    "PFC watch-dog poll, storm after    : 100 ms, 800 ms\n"
		    "Auto-restore after                 : 1000 ms\n"
		    "Fixed-restore after                : none\n");
		json_object_put(d);
		strbuf_free(&text);
	}
	/* monitored again: no flag, NX-OS's word for the state */
	st->wdq[3].state = PFCWD_MONITORED;
	d = ctlt_answer(f, &q, &text);
	has(&text, "Enabled ( 0x8 )         - - - - - - - -\n");
	has(&text, "| QOS GROUP 3 [Active] PFC [YES] PFC-COS [3]\n");
	json_object_put(d);
	strbuf_free(&text);
}

/* The ingress side of show queuing interface: the pause thresholds
 * software PFC uses, and the PFC frames per CoS with who pauses now. */
static void test_queuing_ingress(void **state)
{
	struct ctlt_fixture *f = *state;
	struct show_port_state *st = &f->st[0];
	struct show_query q = {.kind = CTL_SHOW_QUEUING_IF};
	struct json_object *d;
	struct strbuf text;

	st->softpfc = true;
	st->txpoll = true;
	st->xoff_set = 1u << 3;
	st->xoff[3] = 800;
	st->xon[3] = 600;
	st->held = 1u << 3; /* the peer pauses CoS 3 */
	st->tx_pause[3] = 150;
	st->tx_ppp = 150;
	d = ctlt_answer(f, &q, &text);
	/* 7 down to 0: qos-group 3 is the fifth */
	assert_int_equal(jint(d, "interface.0.ingress.4.qos-group"), 3);
	assert_int_equal(jint(d, "interface.0.ingress.4.pause-threshold"), 800);
	assert_int_equal(jint(d, "interface.0.ingress.4.resume-threshold"),
	                 600);
	assert_null(ctlt_jget(d, "interface.0.ingress.0.pause-threshold"));
	assert_int_equal(jint(d, "interface.0.pfc-statistics.tx-ppp"), 150);
	assert_string_equal(
	    json_object_get_string(
	        ctlt_jget(d, "interface.0.pfc-statistics.cos.3.rx-pause")),
	    "active");
	has(&text, "\nIngress Queuing for Ethernet1/1 (swp1)\n"
	           "-----------------------------------------------------\n"
	           "QoS-Group#                 Pause\n"
	           "           Buff Size       Pause Th      Resume Th\n"
	           "-----------------------------------------------------\n"
	           "      7              -            -            -\n");
	has(&text, "          800          600\n");
	/* NX-OS 9.3's lines, column for column */
	has(&text, "PFC Statistics\n"
	           "-------------------------------------------------------"
	           "-----------------------\n"
	           "TxPPP:                  150,   RxPPP:                    "
	           "0\n"
	           "-------------------------------------------------------"
	           "-----------------------\n"
	           "PFC_COS QOS_Group   TxPause             TxCount   RxPause "
	           "            RxCount\n"
	           "      0         0  Inactive                   0  "
	           "Inactive                   0\n");
	has(&text, "      3         3  Inactive                 150  Active  "
	           "                   0\n");
	json_object_put(d);
	strbuf_free(&text);
	/* a hardware port's driver says nothing of who pauses now */
	st->softpfc = false;
	st->txpoll = false;
	d = ctlt_answer(f, &q, &text);
	assert_null(ctlt_jget(d, "interface.0.pfc-statistics.cos.3.rx-pause"));
	json_object_put(d);
	strbuf_free(&text);
}

static void test_counters(void **state)
{
	struct ctlt_fixture *f = *state;
	struct show_port_state *st = &f->st[0];
	struct show_query q;
	struct json_object *d;
	struct strbuf text;
	const char *args[] = {"show", "interface", "ethernet", "1/1",
	                      "counters"};
	const char *all[] = {"show", "interface", "counters"};
	struct cmd_error err;

	memset(&q, 0, sizeof(q));
	assert_int_equal(
	    cmd_show_query(CTL_WHAT_IF_COUNTERS, args, 5, &q, &err), 0);
	assert_string_equal(q.iface, "Ethernet1/1");
	assert_true(show_query_ports(&q));
	assert_int_equal(cmd_show_query(CTL_WHAT_IF_COUNTERS, all, 3, &q, &err),
	                 0);
	assert_string_equal(q.iface, "");
	st->link_stats = true;
	st->rx_bytes = 123456;
	st->rx_packets = 1000;
	st->rx_multicast = 10;
	st->tx_bytes = 654321;
	st->tx_packets = 2000;
	st->softpfc = true;
	st->rx_ppp = 5;
	st->tx_ppp = 6;
	st->lp_rx_frames = 1;
	d = ctlt_answer(f, &q, &text);
	assert_int_equal(jint(d, "interface.0.in-ucast-packets"), 990);
	assert_int_equal(jint(d, "interface.0.rx-pause"), 6);
	assert_int_equal(jint(d, "interface.0.rx-pfc"), 5);
	assert_int_equal(jint(d, "interface.0.rx-link-pause"), 1);
	assert_int_equal(jint(d, "interface.0.tx-pause"), 6);
	assert_int_equal(jint(d, "interface.0.out-packets"), 2000);
	assert_null(ctlt_jget(d, "interface.0.out-ucast-packets"));
	has(&text, "\n---------------------------------------------------------"
	           "-------------------------\n"
	           "Port                                     InOctets          "
	           "            InUcastPkts\n"
	           "-----------------------------------------------------------"
	           "-----------------------\n"
	           "Eth1/1                                     123456          "
	           "                    990\n");
	has(&text, "Eth1/1                                         10          "
	           "                     --\n");
	has(&text, "Port                                      RxPause          "
	           "                TxPause\n");
	has(&text, "Eth1/1                                          6          "
	           "                      6\n");
	json_object_put(d);
	strbuf_free(&text);
}

/* clear qos statistics: counters since the clear; a leaf replaced since
 * counts from its start; depths are now's. */
static void test_base(void **state)
{
	struct show_port_state base, st;

	(void)state;
	memset(&base, 0, sizeof(base));
	memset(&st, 0, sizeof(st));
	base.queue_seen[3] = st.queue_seen[3] = true;
	base.queue[3].packets = 100;
	base.queue[3].bytes = 10000;
	base.queue[3].drops = 4;
	base.queue[3].red_marked = 9;
	st.queue[3].packets = 150;
	st.queue[3].bytes = 15000;
	st.queue[3].drops = 5;
	st.queue[3].red_marked = 12;
	st.queue[3].backlog = 3000;
	base.queue_seen[0] = st.queue_seen[0] = true;
	base.queue[0].packets = 500;
	st.queue[0].packets = 20; /* a new leaf */
	st.queue[0].drops = 2;
	base.tx_pause[3] = 10;
	st.tx_pause[3] = 25;
	base.tx_ppp = 10;
	st.tx_ppp = 25;
	show_base_apply(&base, &st);
	assert_int_equal(st.queue[3].packets, 50);
	assert_int_equal(st.queue[3].bytes, 5000);
	assert_int_equal(st.queue[3].drops, 1);
	assert_int_equal(st.queue[3].red_marked, 3);
	assert_int_equal(st.queue[3].backlog, 3000);
	assert_int_equal(st.queue[0].packets, 20);
	assert_int_equal(st.queue[0].drops, 2);
	assert_int_equal(st.tx_pause[3], 15);
	assert_int_equal(st.tx_ppp, 15);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_pfc_queue_detail, ctlt_setup,
	                                    ctlt_teardown),
	    cmocka_unit_test_setup_teardown(test_queuing_ingress, ctlt_setup,
	                                    ctlt_teardown),
	    cmocka_unit_test_setup_teardown(test_counters, ctlt_setup,
	                                    ctlt_teardown),
	    cmocka_unit_test(test_base),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
