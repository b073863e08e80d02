/* test_metrics: show metrics (daemon/show/show_metrics.c) and the
 * exposition writer under it (lib/base/prom.c):
 *   - the family table: valid names, _total on counters and only there,
 *     each name once;
 *   - the text of the shipped policy's port with counters, a software
 *     port whose Linux name holds what labels must escape (a quote, a
 *     backslash; a newline, a control byte and a byte that is not UTF-8
 *     become the text \xNN first),
 *     and a port whose link went away between the gathering and the
 *     rendering: valid exposition text throughout (a small parser of
 *     the format checks every line), the samples with their labels, the
 *     odd name escaped and read back, the gone port with nothing but
 *     its info, presence and mode;
 *   - a hardware port: what its driver does not count has no sample;
 *   - the text is the JSON's rendering, `show metrics` takes no
 *     argument, and the values' formatting;
 *   - the textfile's atomic write: whole file, mode 0644, no temporary
 *     left, and a missing directory an error, not a crash;
 *   - the queue counters carried over a leaf's replacement (a watchdog
 *     restore, a reload, a repair): never down, nothing counted twice,
 *     and the metrics read the carried totals.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "agent/qcarry.h"
#include "cmd/cmd_show.h"
#include "base/escape.h"
#include "base/prom.h"
#include "agent/lldp_agent.h"
#include "core/mfile.h"
#include "ctl/ctl.h"
#include "show/show.h"
#include "show/show_build.h"
#include "ctl_test.h"

/* A Linux name with every kind of byte a label value must escape. */
#define ODD_NAME "p\"1\\x\n\001\377"

/* --- a checker of the exposition format --- */

#define MAX_SERIES 4096

struct expo {
	char *series[MAX_SERIES]; /* "name{labels}" as read back */
	size_t n;
};

/* Read a label value at *P (after its opening quote) into OUT, undoing
 * the format's escapes; false on anything the format does not allow. */
static bool expo_value(const char **p, struct strbuf *out)
{
	for (const char *s = *p; *s; s++) {
		if (*s == '"') {
			*p = s + 1;
			return true;
		}
		if (*s == '\n')
			return false;
		if (*s != '\\') {
			strbuf_add(out, s, 1);
			continue;
		}
		s++;
		if (*s == '\\' || *s == '"')
			strbuf_add(out, s, 1);
		else if (*s == 'n')
			strbuf_add(out, "\n", 1);
		else
			return false;
	}
	return false;
}

/* Check TEXT line by line: HELP then TYPE once per family, every sample
 * of the family announced last (summaries: _sum and _count), names and
 * label names valid, no series twice, values numbers. Fails the test
 * on the first fault. */
static void expo_check(const char *text, struct expo *e)
{
	char family[128] = "", help_for[128] = "", type[16] = "";
	const char *line = text;
	size_t nfam = 0;

	assert_true(escape_is_clean(text, strlen(text), true));
	while (*line) {
		const char *end = strchr(line, '\n');
		char name[128], *v;
		struct strbuf key;
		const char *p;
		size_t len;

		assert_non_null(end); /* every line ends */
		if (!strncmp(line, "# HELP ", 7)) {
			assert_int_equal(
			    sscanf(line + 7, "%127[a-zA-Z0-9_:]", help_for), 1);
			assert_string_not_equal(help_for, family);
			line = end + 1;
			continue;
		}
		if (!strncmp(line, "# TYPE ", 7)) {
			assert_int_equal(
			    sscanf(line + 7, "%127s %15s", family, type), 2);
			assert_string_equal(family, help_for);
			assert_true(prom_type_parse(type) >= 0);
			nfam++;
			line = end + 1;
			continue;
		}
		assert_true(line[0] != '#');
		p = line;
		len = strspn(p, "abcdefghijklmnopqrstuvwxyz"
		                "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_:");
		assert_true(len > 0 && len < sizeof(name));
		memcpy(name, p, len);
		name[len] = '\0';
		if (strcmp(name, family)) {
			char sum[160], count[160], bucket[160];

			snprintf(sum, sizeof(sum), "%s_sum", family);
			snprintf(count, sizeof(count), "%s_count", family);
			snprintf(bucket, sizeof(bucket), "%s_bucket", family);
			if (!(!strcmp(type, "histogram") &&
			      (!strcmp(name, sum) || !strcmp(name, count) ||
			       !strcmp(name, bucket))))
				fail_msg("sample %s outside its family (%s)",
				         name, family);
		}
		p += len;
		strbuf_init(&key);
		strbuf_puts(&key, name);
		if (*p == '{') {
			p++;
			strbuf_puts(&key, "{");
			while (*p != '}') {
				char lname[64];
				size_t ll = strspn(p, "abcdefghijklmnopqrstuv"
				                      "wxyzABCDEFGHIJKLMNOPQRS"
				                      "TUVWXYZ0123456789_");

				assert_true(ll > 0 && ll < sizeof(lname));
				memcpy(lname, p, ll);
				lname[ll] = '\0';
				assert_true(prom_label_name_ok(lname));
				p += ll;
				assert_true(p[0] == '=' && p[1] == '"');
				p += 2;
				strbuf_printf(&key, "%s=", lname);
				assert_true(expo_value(&p, &key));
				strbuf_puts(&key, ";");
				if (*p == ',')
					p++;
				else
					assert_true(*p == '}');
			}
			p++;
			strbuf_puts(&key, "}");
		}
		assert_true(*p == ' ');
		p++;
		/* a value: a number, NaN or +Inf/-Inf */
		if (strncmp(p, "NaN", 3) && strncmp(p, "+Inf", 4) &&
		    strncmp(p, "-Inf", 4)) {
			strtod(p, &v);
			assert_true(v > p && v == end);
		}
		for (size_t i = 0; i < e->n; i++)
			if (!strcmp(e->series[i], strbuf_str(&key)))
				fail_msg("series %s twice", strbuf_str(&key));
		assert_true(e->n < MAX_SERIES);
		e->series[e->n++] = strbuf_detach(&key);
		line = end + 1;
	}
	assert_true(nfam > 10);
}

static void expo_free(struct expo *e)
{
	for (size_t i = 0; i < e->n; i++)
		free(e->series[i]);
	e->n = 0;
}

/* Is there a series NAME whose labels include each of the "k=v;" in
 * LABELS (read back, unescaped)? */
static bool expo_has(const struct expo *e, const char *name, const char *labels)
{
	size_t n = strlen(name);

	for (size_t i = 0; i < e->n; i++) {
		const char *s = e->series[i];
		char want[256], *save = NULL, *l;
		bool all = true;

		if (strncmp(s, name, n) || (s[n] != '{' && s[n] != '\0'))
			continue;
		snprintf(want, sizeof(want), "%s", labels);
		for (l = strtok_r(want, ";", &save); l;
		     l = strtok_r(NULL, ";", &save)) {
			char pat[160];

			snprintf(pat, sizeof(pat), "%s;", l);
			all = all && strstr(s, pat);
		}
		if (all)
			return true;
	}
	return false;
}

/* How many series mention PORT (as "port=PORT;"). */
static size_t expo_port_series(const struct expo *e, const char *port)
{
	char pat[64];
	size_t n = 0;

	snprintf(pat, sizeof(pat), "port=%s;", port);
	for (size_t i = 0; i < e->n; i++)
		n += strstr(e->series[i], pat) != NULL;
	return n;
}

/* --- the family table --- */

static void test_families(void **state)
{
	(void)state;
	assert_true(show_metrics_count() >= 30);
	for (size_t i = 0; i < show_metrics_count(); i++) {
		const char *n = show_metrics_name(i);
		size_t len = strlen(n);

		assert_true(prom_name_ok(n));
		assert_int_equal(strncmp(n, "roced_", 6), 0);
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(n, show_metrics_name(j));
		(void)len;
	}
	assert_null(show_metrics_name(show_metrics_count()));
	assert_true(prom_label_name_ok("port"));
	assert_false(prom_label_name_ok("__name__"));
	assert_false(prom_label_name_ok("1a"));
	assert_false(prom_name_ok("roced-x"));
	assert_true(prom_name_ok("a:b_c"));
}

/* --- the answer --- */

/* The fixture's port swp1 (the shipped policy) with counters; ODD_NAME
 * a software port with PFC counters and a storm; swp3 gone since the
 * ports were gathered (stale counters that must not show). */
static void metrics_input(struct ctlt_fixture *f, struct plan_port *extra,
                          struct show_daemon_stats *ds)
{
	struct show_port_state *st;

	extra[0] = *f->plans[0];
	extra[1] = *f->plans[0];
	snprintf(extra[0].ifname, sizeof(extra[0].ifname), "%s", ODD_NAME);
	snprintf(extra[0].alias, sizeof(extra[0].alias), "Eth\"1/2");
	extra[0].dcb.software = true;
	snprintf(extra[1].ifname, sizeof(extra[1].ifname), "swp3");
	extra[1].alias[0] = '\0';
	f->plans[1] = &extra[0];
	f->plans[2] = &extra[1];
	f->st[1] = f->st[0];
	st = &f->st[1];
	st->softpfc = true;
	st->rx_pause[3] = 42;
	st->tx_pause[3] = 7;
	st->rx_xon[3] = 2;
	st->held_ms[3] = 1500;
	st->held = 1u << 3;
	st->wd = true;
	st->wd_queues = 1u << 3;
	st->wd_prios[3] = 1u << 3;
	st->wdq[3].state = PFCWD_SHUTDOWN;
	st->wdq[3].storms = 1;
	st->wdq[3].dropped = 99;
	f->st[2] = f->st[1];
	f->st[2].exists = false; /* gone */
	f->in.nports = 3;
	*ds = (struct show_daemon_stats){.start_unix = 1795000000.5,
	                                 .reloads_ok = 2,
	                                 .reloads_failed = 1,
	                                 .last_load_ok = false,
	                                 .last_load_unix = 1795000100.25,
	                                 .kernel_writes = 31};
	/* 5 passes: under 1 ms, 3 between 25 and 50 ms, one of 15 s (past
	 * the last finite bucket); binary fractions, so that the sum is
	 * written exactly */
	show_stats_apply(ds, 0.0009765625);
	for (int i = 0; i < 3; i++)
		show_stats_apply(ds, 0.03125);
	show_stats_apply(ds, 15.0);
	f->in.stats = ds;
}

static void test_metrics_text(void **state)
{
	struct ctlt_fixture *f = *state;
	struct plan_port extra[2];
	struct show_daemon_stats ds;
	struct show_query q;
	struct strbuf text, again;
	struct json_object *d;
	struct expo e = {0};
	char odd[64];
	const char *t;

	metrics_input(f, extra, &ds);
	memset(&q, 0, sizeof(q));
	q.kind = CTL_SHOW_METRICS;
	assert_true(show_query_ports(&q));
	strbuf_init(&text);
	d = ctlt_answer(f, &q, &text);
	t = strbuf_str(&text);
	expo_check(t, &e);

	/* the daemon's own */
	assert_non_null(strstr(
	    t, "roced_build_info{version=\"" SHOW_BUILD_VERSION "\"} 1\n"));
	assert_non_null(
	    strstr(t, "roced_config_reloads_total{result=\"failure\"} 1\n"));
	assert_non_null(strstr(t, "roced_config_last_reload_success 0\n"));
	assert_non_null(strstr(
	    t, "roced_config_last_reload_timestamp_seconds 1795000100.25\n"));
	assert_non_null(
	    strstr(t, "roced_apply_duration_seconds_sum 15.0947265625\n"
	              "roced_apply_duration_seconds_count 5\n"));
	assert_non_null(strstr(t, "roced_kernel_writes_total 31\n"));
	assert_non_null(
	    strstr(t, "# TYPE roced_kernel_writes_total counter\n"));
	/* a histogram: cumulative buckets up to +Inf, which is the count */
	assert_non_null(
	    strstr(t, "# TYPE roced_apply_duration_seconds histogram\n"));
	assert_non_null(strstr(t, "roced_apply_duration_seconds_bucket{le="
	                          "\"0.001\"} 1\n"));
	assert_non_null(strstr(t, "roced_apply_duration_seconds_bucket{le="
	                          "\"0.05\"} 4\n"));
	assert_non_null(strstr(t, "roced_apply_duration_seconds_bucket{le="
	                          "\"10\"} 4\n"));
	assert_non_null(strstr(t, "roced_apply_duration_seconds_bucket{le="
	                          "\"+Inf\"} 5\n"));

	/* the queues of swp1: no-drop queue 3 and its counters */
	assert_non_null(strstr(
	    t, "roced_queue_packets_total{port=\"swp1\",queue=\"3\"} 4242\n"));
	assert_non_null(strstr(
	    t, "roced_queue_drops_total{port=\"swp1\",queue=\"3\"} 7\n"));
	assert_non_null(strstr(
	    t, "roced_queue_backlog_bytes{port=\"swp1\",queue=\"3\"} 1500\n"));
	assert_non_null(
	    strstr(t, "roced_queue_no_drop{port=\"swp1\",queue=\"3\"} 1\n"));
	assert_non_null(
	    strstr(t, "roced_queue_no_drop{port=\"swp1\",queue=\"0\"} 0\n"));
	assert_non_null(strstr(t, "roced_pfc_mode{port=\"swp1\",mode=\"on\"} "
	                          "1\n"));

	/* the odd name: escaped in the text, the same bytes read back
	 * (those that are not UTF-8 as the text \xNN) */
	assert_non_null(strstr(t, "port=\"p\\\"1\\\\x\\\\x0a\\\\x01\\\\xff\""));
	snprintf(odd, sizeof(odd), "p\"1\\x\\x0a\\x01\\xff");
	assert_true(expo_has(&e, "roced_pfc_pause_frames_total",
	                     "priority=3;direction=rx"));
	{
		char want[160];

		snprintf(want, sizeof(want), "port=%s;priority=3;direction=rx",
		         odd);
		/* strtok splits on ';' only: the odd name has none */
		assert_true(expo_has(&e, "roced_pfc_pause_frames_total", want));
		snprintf(want, sizeof(want), "port=%s;queue=3", odd);
		assert_true(expo_has(&e, "roced_pfcwd_storms_total", want));
		assert_true(expo_has(&e, "roced_pfcwd_storm", want));
		snprintf(want, sizeof(want), "port=%s;queue=3;state=shutdown",
		         odd);
		assert_true(expo_has(&e, "roced_pfcwd_state", want));
		snprintf(want, sizeof(want), "port=%s;alias=Eth\"1/2", odd);
		assert_true(expo_has(&e, "roced_port_info", want));
	}
	assert_non_null(strstr(t, "roced_pfc_pause_frames_total{port=\"p\\\"1"
	                          "\\\\x\\\\x0a\\\\x01\\\\xff\",priority=\"3\","
	                          "direction=\"tx\"} 7\n"));
	assert_non_null(strstr(t,
	                       "roced_pfc_paused_seconds_total{port=\"p\\"
	                       "\"1\\\\x\\\\x0a\\\\x01\\\\xff\",priority=\"3\"}"
	                       " 1.5\n"));
	assert_non_null(strstr(t,
	                       "roced_pfcwd_dropped_packets_total{port=\"p"
	                       "\\\"1\\\\x\\\\x0a\\\\x01\\\\xff\",queue=\"3\"} "
	                       "99\n"));

	/* the port that went away: its info, presence and mode, nothing
	 * else, though its stale counters were in the input */
	assert_true(expo_has(&e, "roced_port_present", "port=swp3"));
	assert_non_null(strstr(t, "roced_port_present{port=\"swp3\"} 0\n"));
	assert_int_equal(expo_port_series(&e, "swp3"),
	                 1 + 1 + POLICY_PFC_NMODES);
	assert_false(expo_has(&e, "roced_pfc_pause_frames_total", "port=swp3"));

	/* the text is the JSON's: rendered again from it alone */
	strbuf_init(&again);
	show_text_metrics(d, &again);
	assert_string_equal(strbuf_str(&again), t);
	assert_string_equal(
	    json_object_get_string(ctlt_jget(d, "family.0.name")),
	    "roced_build_info");
	strbuf_free(&again);

	expo_free(&e);
	json_object_put(d);
	strbuf_free(&text);
}

/* The counters show lldp traffic and show interface priority-flow-control
 * detail have are metrics too: the socket's drops, the malformed frames,
 * the DCBX counters; a port without a packet socket has no drops
 * sample. */
static void test_metrics_counters(void **state)
{
	struct ctlt_fixture *f = *state;
	struct show_query q = {.kind = CTL_SHOW_METRICS};
	struct lldp_agent a;
	struct lldp_port lp;
	struct json_object *d;
	struct strbuf text;
	const char *t;

	memset(&a, 0, sizeof(a));
	memset(&lp, 0, sizeof(lp));
	snprintf(lp.ifname, sizeof(lp.ifname), "swp1");
	lp.running = true;
	lp.c = (struct lldp_counters){.frames_in = 9,
	                              .malformed = 3,
	                              .unknown_tlvs = 4,
	                              .tx_errors = 5,
	                              .nbr_added = 6,
	                              .nbr_deleted = 7,
	                              .dcbx_ignored = 8,
	                              .multi_peers = 2,
	                              .peer_changes = 11,
	                              .dcbx_refused = 12,
	                              .msap_conflicts = 13};
	a.v = &lp;
	a.n = 1;
	f->in.lldp = &a;
	f->st[0].frames = true;
	f->st[0].rx_dropped = 17;
	/* the link's drops outside every qdisc (show interface counters'
	 * discards): the input backlog's among them */
	f->st[0].link_stats = true;
	f->st[0].rx_discards = 21;
	f->st[0].tx_discards = 22;
	strbuf_init(&text);
	d = ctlt_answer(f, &q, &text);
	t = strbuf_str(&text);
	assert_non_null(strstr(t, "# TYPE roced_link_drops_total counter\n"
	                          "roced_link_drops_total{port=\"swp1\","
	                          "dir=\"rx\"} 21\n"
	                          "roced_link_drops_total{port=\"swp1\","
	                          "dir=\"tx\"} 22\n"));
	assert_non_null(strstr(t, "# TYPE roced_socket_drops_total counter\n"
	                          "roced_socket_drops_total{port=\"swp1\"} "
	                          "17\n"));
	assert_non_null(
	    strstr(t, "roced_lldp_frames_malformed_total{port=\"swp1\"} 3\n"));
	assert_non_null(
	    strstr(t, "roced_lldp_unknown_tlvs_total{port=\"swp1\"} 4\n"));
	assert_non_null(
	    strstr(t, "roced_lldp_transmit_errors_total{port=\"swp1\"} 5\n"));
	assert_non_null(strstr(t, "roced_lldp_neighbor_changes_total{port="
	                          "\"swp1\",change=\"added\"} 6\n"));
	assert_non_null(strstr(t, "roced_lldp_neighbor_changes_total{port="
	                          "\"swp1\",change=\"deleted\"} 7\n"));
	assert_non_null(
	    strstr(t, "roced_dcbx_ignored_frames_total{port=\"swp1\"} 8\n"));
	assert_non_null(
	    strstr(t, "roced_dcbx_multiple_peers_total{port=\"swp1\"} 2\n"));
	assert_non_null(
	    strstr(t, "roced_dcbx_peer_changes_total{port=\"swp1\"} 11\n"));
	assert_non_null(
	    strstr(t, "roced_dcbx_refused_total{port=\"swp1\"} 12\n"));
	assert_non_null(
	    strstr(t, "roced_lldp_msap_conflicts_total{port=\"swp1\"} 13\n"));
	json_object_put(d);
	strbuf_free(&text);

	/* show lldp traffic: the same counters, in the total too, and in
	 * the text */
	q.kind = CTL_SHOW_LLDP_TRAFFIC;
	strbuf_init(&text);
	d = ctlt_answer(f, &q, &text);
	t = strbuf_str(&text);
	assert_int_equal(
	    json_object_get_int64(ctlt_jget(d, "total.dcbx-ignored")), 8);
	assert_int_equal(
	    json_object_get_int64(ctlt_jget(d, "total.multiple-peers")), 2);
	assert_int_equal(
	    json_object_get_int64(ctlt_jget(d, "total.dcbx-peer-changes")), 11);
	assert_int_equal(
	    json_object_get_int64(ctlt_jget(d, "total.dcbx-refused")), 12);
	assert_int_equal(json_object_get_int64(ctlt_jget(d, "total.tx-errors")),
	                 5);
	assert_non_null(strstr(t, "Total frames received in error: 3\n"));
	assert_non_null(strstr(t, "Total transmit errors: 5\n"));
	assert_non_null(
	    strstr(t, "Total DCBX TLVs ignored (not the DCBX peer): 8\n"));
	assert_non_null(strstr(t, "Total multiple DCBX peers: 2\n"));
	assert_non_null(strstr(t, "Total DCBX peer changes: 11\n"));
	assert_non_null(strstr(t, "Total DCBX PFC refused (not realisable): "
	                          "12\n"));
	assert_int_equal(
	    json_object_get_int64(ctlt_jget(d, "total.msap-conflicts")), 13);
	assert_non_null(strstr(t, "Total frames of a neighbour from another "
	                          "address: 13\n"));
	json_object_put(d);
	strbuf_free(&text);
	q.kind = CTL_SHOW_METRICS;

	/* no packet socket on the port: no sample, not a 0; no link
	 * counters read: no drops sample either */
	f->st[0].frames = false;
	f->st[0].link_stats = false;
	strbuf_init(&text);
	d = ctlt_answer(f, &q, &text);
	assert_null(strstr(strbuf_str(&text), "roced_socket_drops_total{"));
	assert_null(strstr(strbuf_str(&text), "roced_link_drops_total{"));
	json_object_put(d);
	strbuf_free(&text);
	f->in.lldp = NULL;
}

/* A hardware DCB port whose driver counts PFC frames but not XON, and
 * pause time on priority 3 only, and counts link pause: what it does
 * not count has no sample (never a 0), and whether a priority is
 * paused now, which no driver says, neither. */
static void test_metrics_hardware(void **state)
{
	struct ctlt_fixture *f = *state;
	struct plan_port hw;
	struct show_port_state *st = &f->st[0];
	struct show_query q = {.kind = CTL_SHOW_METRICS};
	struct json_object *d;
	struct strbuf text;
	struct expo e = {0};
	const char *t;

	hw = *f->plans[0];
	hw.dcb.software = false;
	f->plans[0] = &hw;
	st->hwcnt = true;
	st->hw_dcb = true;
	st->dcb = true;
	st->pfc_en = 1u << 3;
	st->hw_xon = 0;
	st->hw_dur = 1u << 3;
	st->rx_pause[3] = 11;
	st->tx_pause[3] = 12;
	st->held_ms[3] = 250;
	st->pause = st->pause_counted = true;
	st->rx_pause_frames = 5;
	st->tx_pause_frames = 6;
	strbuf_init(&text);
	d = ctlt_answer(f, &q, &text);
	t = strbuf_str(&text);
	expo_check(t, &e);
	assert_non_null(strstr(t, "roced_port_info{port=\"swp1\",alias=\""
	                          "Ethernet1/1\",dcb=\"hardware\"} 1\n"));
	assert_non_null(strstr(t, "roced_pfc_pause_frames_total{port=\"swp1\","
	                          "priority=\"3\",direction=\"rx\"} 11\n"));
	assert_non_null(strstr(t, "roced_pfc_pause_frames_total{port=\"swp1\","
	                          "priority=\"3\",direction=\"tx\"} 12\n"));
	assert_null(strstr(t, "roced_pfc_xon_frames_total"));
	assert_null(strstr(t, "roced_pfc_paused{"));
	assert_non_null(strstr(t,
	                       "roced_pfc_paused_seconds_total{port=\"swp1\","
	                       "priority=\"3\"} 0.25\n"));
	assert_false(
	    expo_has(&e, "roced_pfc_paused_seconds_total", "priority=2"));
	assert_non_null(strstr(t, "roced_link_pause_frames_total{port=\"swp1\","
	                          "direction=\"tx\"} 6\n"));
	assert_null(strstr(t, "roced_link_xon_frames_total"));
	assert_non_null(strstr(t,
	                       "roced_pfc_priority_operational{port=\"swp1\","
	                       "priority=\"3\"} 1\n"));
	expo_free(&e);
	json_object_put(d);
	strbuf_free(&text);
}

/* No port, no daemon statistics (a test's input): still valid, with
 * the build's info. */
static void test_metrics_empty(void **state)
{
	struct ctlt_fixture *f = *state;
	struct show_query q = {.kind = CTL_SHOW_METRICS};
	struct json_object *d;
	struct strbuf text;
	struct expo e = {0};

	f->in.nports = 0;
	strbuf_init(&text);
	d = ctlt_answer(f, &q, &text);
	assert_non_null(strstr(strbuf_str(&text), "roced_build_info"));
	/* families without samples are left out */
	assert_null(strstr(strbuf_str(&text), "roced_queue"));
	{
		const char *t = strbuf_str(&text);
		size_t nfam = 0;

		for (const char *p = t; (p = strstr(p, "# TYPE ")); p++)
			nfam++;
		assert_int_equal(nfam, 1);
	}
	(void)e;
	json_object_put(d);
	strbuf_free(&text);
}

static void test_metrics_query(void **state)
{
	struct show_query q;
	const char *args[] = {"show", "metrics", "json"};
	const char *bad[] = {"show", "metrics", "swp1"};
	struct cmd_error err;

	(void)state;
	assert_int_equal(ctl_show_parse(CTL_WHAT_METRICS), CTL_SHOW_METRICS);
	assert_int_equal(cmd_show_query(CTL_WHAT_METRICS, args, 3, &q, &err),
	                 0);
	assert_int_equal(q.kind, CTL_SHOW_METRICS);
	assert_int_equal(cmd_show_query(CTL_WHAT_METRICS, bad, 3, &q, &err),
	                 -1);
	assert_non_null(strstr(err.message, "Invalid"));
}

static void test_prom_values(void **state)
{
	char b[PROM_VALUE_MAX];
	struct strbuf sb;

	(void)state;
	prom_double(b, 0.1);
	assert_string_equal(b, "0.1");
	prom_double(b, 1795000000.0);
	assert_string_equal(b, "1795000000");
	prom_double(b, 1.0 / 3.0);
	assert_true(strtod(b, NULL) == 1.0 / 3.0);
	prom_double(b, NAN);
	assert_string_equal(b, "NaN");
	prom_double(b, -INFINITY);
	assert_string_equal(b, "-Inf");
	prom_uint(b, UINT64_MAX);
	assert_string_equal(b, "18446744073709551615");
	prom_int(b, -3);
	assert_string_equal(b, "-3");
	strbuf_init(&sb);
	prom_family(&sb, "x_total", PROM_COUNTER, "a \\ b\nc");
	assert_string_equal(strbuf_str(&sb), "# HELP x_total a \\\\ b\\nc\n"
	                                     "# TYPE x_total counter\n");
	strbuf_reset(&sb);
	prom_sample(&sb, "x", "_sum", NULL, 0, "1");
	assert_string_equal(strbuf_str(&sb), "x_sum 1\n");
	strbuf_free(&sb);
	assert_string_equal(prom_type_name((enum prom_type)99), "untyped");
	assert_int_equal(prom_type_parse("gauge"), PROM_GAUGE);
	assert_int_equal(prom_type_parse("histogram"), PROM_HISTOGRAM);
	assert_int_equal(prom_type_parse("summary"), -1);
}

/* --- the textfile --- */

static void test_mfile_write(void **state)
{
	char dir[] = "/tmp/roced-mfile-XXXXXX", path[128], bad[160];
	char err[256], buf[64];
	struct stat st;
	struct dirent *de;
	size_t entries = 0;
	DIR *dp;
	FILE *fp;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/roced.prom", dir);
	assert_int_equal(mfile_write(path, "a 1\n", err, sizeof(err)), 0);
	assert_int_equal(mfile_write(path, "b 2\n", err, sizeof(err)), 0);
	fp = fopen(path, "r");
	assert_non_null(fp);
	assert_non_null(fgets(buf, sizeof(buf), fp));
	fclose(fp);
	assert_string_equal(buf, "b 2\n");
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	/* the temporary files are gone: the directory holds the file */
	dp = opendir(dir);
	assert_non_null(dp);
	while ((de = readdir(dp)))
		entries += de->d_name[0] != '.' || strlen(de->d_name) > 2;
	closedir(dp);
	assert_int_equal(entries, 1);
	/* a directory that is missing, and a "directory" that is a file */
	snprintf(bad, sizeof(bad), "%s/none/roced.prom", dir);
	assert_int_equal(mfile_write(bad, "a 1\n", err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "none/roced.prom"));
	snprintf(bad, sizeof(bad), "%s/roced.prom/x.prom", dir);
	assert_int_equal(mfile_write(bad, "a 1\n", err, sizeof(err)), -ENOTDIR);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
}

/* Symbolic links: a directory on the path that is a link is refused
 * with a message that says so, and nothing is written where it leads; a
 * link where the file goes is replaced by the file (the rename does not
 * follow it), and what it pointed at is left as it was. */
static void test_mfile_links(void **state)
{
	char dir[] = "/tmp/roced-mfile-XXXXXX", p[3][160], err[512];
	char buf[64];
	struct stat st;
	FILE *fp;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(p[0], sizeof(p[0]), "%s/real", dir);
	snprintf(p[1], sizeof(p[1]), "%s/link", dir);
	assert_int_equal(mkdir(p[0], 0755), 0);
	assert_int_equal(symlink("real", p[1]), 0);
	snprintf(p[2], sizeof(p[2]), "%s/link/roced.prom", dir);
	assert_int_equal(mfile_write(p[2], "a 1\n", err, sizeof(err)), -ELOOP);
	assert_non_null(
	    strstr(err, "a directory on its path is a symbolic link"));
	snprintf(p[2], sizeof(p[2]), "%s/real/roced.prom", dir);
	assert_int_equal(lstat(p[2], &st), -1);
	/* the file a link to another file */
	snprintf(p[2], sizeof(p[2]), "%s/real/victim", dir);
	fp = fopen(p[2], "w");
	assert_non_null(fp);
	fputs("keep\n", fp);
	fclose(fp);
	snprintf(p[1], sizeof(p[1]), "%s/real/roced.prom", dir);
	assert_int_equal(symlink("victim", p[1]), 0);
	assert_int_equal(mfile_write(p[1], "b 2\n", err, sizeof(err)), 0);
	assert_int_equal(lstat(p[1], &st), 0);
	assert_true(S_ISREG(st.st_mode));
	fp = fopen(p[2], "r");
	assert_non_null(fp);
	assert_non_null(fgets(buf, sizeof(buf), fp));
	fclose(fp);
	assert_string_equal(buf, "keep\n");
	assert_int_equal(unlink(p[1]), 0);
	assert_int_equal(unlink(p[2]), 0);
	assert_int_equal(rmdir(p[0]), 0);
	snprintf(p[1], sizeof(p[1]), "%s/link", dir);
	assert_int_equal(unlink(p[1]), 0);
	assert_int_equal(rmdir(dir), 0);
}

/* The setting followed: a new file is due at once, the same setting
 * again changes nothing, none stops the writes. */
static void test_mfile_configure(void **state)
{
	struct plan_global pm = {.metrics_interval_s = 10};
	struct mfile m;

	(void)state;
	mfile_init(&m);
	mfile_configure(&m, &pm, 1000);
	assert_int_equal(mfile_wait(&m, 1000), -1);
	snprintf(pm.metrics_textfile, sizeof(pm.metrics_textfile),
	         "/nonexistent/r.prom");
	mfile_configure(&m, &pm, 2000);
	assert_int_equal(mfile_wait(&m, 2000), 0);
	m.next_ms = 12000;
	mfile_configure(&m, &pm, 3000);
	assert_int_equal(mfile_wait(&m, 3000), 9001);
	pm.metrics_textfile[0] = '\0';
	mfile_configure(&m, &pm, 4000);
	assert_int_equal(mfile_wait(&m, 4000), -1);
}

/* --- counters carried over leaf replacements --- */

static struct qcarry_count qc(uint64_t packets, uint64_t drops, uint64_t ecn)
{
	return (struct qcarry_count){.packets = packets,
	                             .bytes = packets * 100,
	                             .drops = drops,
	                             .ecn = ecn};
}

static void test_qcarry(void **state)
{
	struct qcarry c = {0};
	struct qcarry_count r, t;

	(void)state;
	/* a storm fills the drops, as the issue saw: 0 -> 20832 */
	r = qc(1000, 0, 0);
	assert_int_equal(qcarry_observe(&c, 7, 3, QCARRY_ALL, &r, &t), 0);
	assert_int_equal(t.drops, 0);
	r = qc(5000, 20832, 4);
	qcarry_observe(&c, 7, 3, QCARRY_ALL, &r, &t);
	assert_int_equal(t.drops, 20832);
	/* the restore replaced the leaf: it counts from 0, the total not */
	r = qc(10, 0, 0);
	qcarry_observe(&c, 7, 3, QCARRY_ALL, &r, &t);
	assert_int_equal(t.packets, 5010);
	assert_int_equal(t.bytes, 501000);
	assert_int_equal(t.drops, 20832);
	assert_int_equal(t.ecn, 4);
	assert_int_equal(c.v[0].q[3].resets, 1);
	/* read again, grown: nothing counted twice */
	r = qc(20, 3, 1);
	qcarry_observe(&c, 7, 3, QCARRY_ALL, &r, &t);
	assert_int_equal(t.packets, 5020);
	assert_int_equal(t.drops, 20835);
	assert_int_equal(t.ecn, 5);
	assert_int_equal(c.v[0].q[3].resets, 1);
	/* a reading without ECN (the sampler's leaf read): ECN as last
	 * read, and a replacement seen on the others alone still carries
	 * what ECN had */
	r = qc(30, 3, 0);
	qcarry_observe(&c, 7, 3, QCARRY_ALL & ~QCARRY_ECN, &r, &t);
	assert_int_equal(t.ecn, 5);
	r = qc(2, 0, 0);
	qcarry_observe(&c, 7, 3, QCARRY_ALL & ~QCARRY_ECN, &r, &t);
	assert_int_equal(t.packets, 5032);
	assert_int_equal(t.drops, 20835);
	assert_int_equal(t.ecn, 5);
	r = qc(3, 0, 2);
	qcarry_observe(&c, 7, 3, QCARRY_ALL, &r, &t);
	assert_int_equal(t.ecn, 7);
	/* other queues and ports are their own */
	r = qc(1, 1, 0);
	qcarry_observe(&c, 7, 0, QCARRY_ALL, &r, &t);
	assert_int_equal(t.drops, 1);
	qcarry_observe(&c, 8, 3, QCARRY_ALL, &r, &t);
	assert_int_equal(t.packets, 1);
	/* out of range: the reading as it is */
	assert_int_equal(qcarry_observe(&c, 7, 8, QCARRY_ALL, &r, &t), -EINVAL);
	assert_int_equal(t.packets, 1);
	qcarry_free(&c);
}

/* The watermarks: a burst between two scrapes (its backlog gone by the
 * second) is the periodic peak until the textfile's next write resets
 * it, the persistent one stays, and a clear resets the user one of
 * that port alone. */
static void test_qcarry_peaks(void **state)
{
	struct qcarry c = {0};
	const struct qcarry_queue *e;

	(void)state;
	/* the sampler reads 0, a 180000-byte burst, then 0 again */
	qcarry_backlog(&c, 7, 3, 0);
	qcarry_backlog(&c, 7, 3, 180000);
	qcarry_backlog(&c, 7, 3, 1500);
	qcarry_backlog(&c, 7, 3, 0);
	qcarry_backlog(&c, 8, 3, 9000);
	e = qcarry_find(&c, 7, 3);
	assert_non_null(e);
	assert_int_equal(e->peak[QCARRY_PEAK_PERIODIC], 180000);
	assert_int_equal(e->peak[QCARRY_PEAK_PERSISTENT], 180000);
	assert_int_equal(e->peak[QCARRY_PEAK_USER], 180000);
	/* the textfile was written: the next interval starts from 0 */
	qcarry_peak_reset(&c, QCARRY_PEAK_PERIODIC, 0);
	qcarry_backlog(&c, 7, 3, 3000);
	assert_int_equal(e->peak[QCARRY_PEAK_PERIODIC], 3000);
	assert_int_equal(e->peak[QCARRY_PEAK_PERSISTENT], 180000);
	assert_int_equal(qcarry_find(&c, 8, 3)->peak[QCARRY_PEAK_PERIODIC], 0);
	/* clear qos statistics on port 7: its user peak alone */
	qcarry_peak_reset(&c, QCARRY_PEAK_USER, 7);
	assert_int_equal(e->peak[QCARRY_PEAK_USER], 0);
	assert_int_equal(qcarry_find(&c, 8, 3)->peak[QCARRY_PEAK_USER], 9000);
	assert_null(qcarry_find(&c, 9, 3));
	assert_int_equal(qcarry_backlog(&c, 7, 8, 1), -EINVAL);
	/* against xoff 100000: 2 ms at or above it, 80000 bytes of the
	 * headroom at most */
	qcarry_xoff(&c, 7, 3, 100000, 150000, 0);
	qcarry_xoff(&c, 7, 3, 100000, 180000, 1.0);
	qcarry_xoff(&c, 7, 3, 100000, 90000, 1.0);
	qcarry_xoff(&c, 7, 3, 100000, 0, 0);
	assert_int_equal(e->xoff, 100000);
	assert_true(e->above_xoff_ms == 2.0);
	assert_int_equal(e->headroom_peak, 80000);
	qcarry_free(&c);
}

/* The metrics read the carried totals where there are: a restored
 * queue's counters are what it counted since roced started. */
static void test_metrics_carried(void **state)
{
	struct ctlt_fixture *f = *state;
	struct show_query q;
	struct strbuf text;
	struct json_object *d;
	const char *t;

	f->st[0].qtotal_ok[3] = true;
	f->st[0].qtotal[3] = qc(90000, 20839, 0);
	f->st[0].qpeak[3][QCARRY_PEAK_PERIODIC] = 180000;
	f->st[0].qpeak[3][QCARRY_PEAK_PERSISTENT] = 240000;
	f->st[0].qxoff[3] = 100000;
	f->st[0].qabove_ms[3] = 12.5;
	f->st[0].qheadroom[3] = 140000;
	memset(&q, 0, sizeof(q));
	q.kind = CTL_SHOW_METRICS;
	d = ctlt_answer(f, &q, &text);
	t = strbuf_str(&text);
	assert_non_null(strstr(
	    t, "roced_queue_drops_total{port=\"swp1\",queue=\"3\"} 20839\n"));
	assert_non_null(strstr(
	    t, "roced_queue_packets_total{port=\"swp1\",queue=\"3\"} 90000\n"));
	/* the watermarks, next to the backlog the scrape happened to see */
	assert_non_null(strstr(t, "roced_queue_watermark_bytes{port=\"swp1\","
	                          "queue=\"3\",kind=\"periodic\"} 180000\n"));
	assert_non_null(strstr(t, "roced_queue_watermark_bytes{port=\"swp1\","
	                          "queue=\"3\",kind=\"persistent\"} 240000\n"));
	assert_non_null(strstr(t, "roced_queue_above_xoff_seconds_total{port="
	                          "\"swp1\",queue=\"3\"} 0.0125\n"));
	assert_non_null(strstr(t, "roced_queue_headroom_peak_bytes{port="
	                          "\"swp1\",queue=\"3\"} 140000\n"));
	/* a queue without xoff has neither */
	assert_null(strstr(t, "roced_queue_headroom_peak_bytes{port="
	                      "\"swp1\",queue=\"0\"}"));
	/* the gauges are the leaf's, now */
	assert_non_null(strstr(
	    t, "roced_queue_backlog_bytes{port=\"swp1\",queue=\"3\"} 1500\n"));
	json_object_put(d);
	strbuf_free(&text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_families),
	    cmocka_unit_test_setup_teardown(test_metrics_text, ctlt_setup,
	                                    ctlt_teardown),
	    cmocka_unit_test_setup_teardown(test_metrics_hardware, ctlt_setup,
	                                    ctlt_teardown),
	    cmocka_unit_test_setup_teardown(test_metrics_empty, ctlt_setup,
	                                    ctlt_teardown),
	    cmocka_unit_test_setup_teardown(test_metrics_carried, ctlt_setup,
	                                    ctlt_teardown),
	    cmocka_unit_test(test_qcarry),
	    cmocka_unit_test(test_qcarry_peaks),
	    cmocka_unit_test_setup_teardown(test_metrics_counters, ctlt_setup,
	                                    ctlt_teardown),
	    cmocka_unit_test(test_metrics_query),
	    cmocka_unit_test(test_prom_values),
	    cmocka_unit_test(test_mfile_write),
	    cmocka_unit_test(test_mfile_links),
	    cmocka_unit_test(test_mfile_configure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
