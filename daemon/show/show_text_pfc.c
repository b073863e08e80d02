/* show_text_pfc: the text of the PFC and pause shows (`show interface
 * priority-flow-control [detail]`, `show interface flowcontrol`, `show
 * queuing pfc-queue [detail]`), from their JSON, in NX-OS's layouts; the
 * other shows' text is show_text.c's, whose readers it shares. */
#include <inttypes.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "model/units.h"
#include "plan/plan_warn.h"
#include "show/show.h"
#include "show/show_int.h"

/* --- show interface priority-flow-control --- */

void show_text_pfc_if(struct json_object *data, struct strbuf *out)
{
	struct json_object *a = show_get(data, "interface");
	const char *note = show_get_str(data, "note");

	strbuf_puts(
	    out, "\n=========================================================="
	         "==================\n"
	         "Port                 Mode Oper(VL bmap)               "
	         "RxPPP      TxPPP\n"
	         "=========================================================="
	         "==================\n\n");
	for (size_t i = 0; i < show_len(a); i++) {
		struct json_object *p = show_at(a, i);
		const char *alias = show_get_str(p, "alias");
		const char *mode = show_get_str(p, "mode");
		const char *oper = show_get_str(p, "oper");
		struct json_object *pr = show_get(p, "priorities");
		char operbuf[64], rx[24], tx[24], m[8];
		unsigned bmap = 0;

		for (size_t j = 0; j < show_len(pr); j++)
			bmap |= 1u << (json_object_get_int(show_at(pr, j)) & 7);
		snprintf(m, sizeof(m), "%c%s", mode[0] ? mode[0] - 32 : '?',
		         mode[0] ? mode + 1 : "");
		if (!strcmp(oper, "on"))
			snprintf(operbuf, sizeof(operbuf), "On  (%x)", bmap);
		else if (!strcmp(oper, "off") &&
		         !strcmp(show_get_str(p, "oper-reason"),
		                 "adopted: not realisable"))
			snprintf(operbuf, sizeof(operbuf),
			         "Off (not realisable)");
		else if (!strcmp(oper, "off"))
			snprintf(operbuf, sizeof(operbuf), "Off");
		else if (show_get_str(p, "oper-reason")[0])
			snprintf(operbuf, sizeof(operbuf), "Off (DCBX: %s)",
			         show_get_str(p, "oper-reason"));
		else
			snprintf(operbuf, sizeof(operbuf), "%s", oper);
		show_counter(rx, sizeof(rx), p, "rx-pause");
		show_counter(tx, sizeof(tx), p, "tx-pause");
		strbuf_printf(out, "%-20s %-4s %-27s %-10s %s\n",
		              alias[0] ? alias : show_get_str(p, "name"), m,
		              operbuf, rx, tx);
	}
	/* The table tells what roced planned; a port the kernel does not
	 * hold that for says so under it. */
	for (size_t i = 0; i < show_len(a); i++) {
		struct json_object *p = show_at(a, i);
		char label[96], state[640];

		if (show_programmed(p))
			continue;
		show_label(p, label, sizeof(label));
		show_state_text(p, state, sizeof(state));
		strbuf_printf(out, "\n%s: %s\n", label, state);
	}
	if (note[0])
		strbuf_printf(out, "\nNote: %s.\n", note);
	strbuf_puts(out, "\n");
}

void show_text_pfc_if_detail(struct json_object *data, struct strbuf *out)
{
	struct json_object *a = show_get(data, "interface");

	show_text_pfc_if(data, out);
	for (size_t i = 0; i < show_len(a); i++) {
		struct json_object *p = show_at(a, i);
		struct json_object *pr = show_get(p, "priority");
		char label[96];
		int64_t drops;

		if (!show_len(pr))
			continue;
		show_label(p, label, sizeof(label));
		strbuf_printf(out, "%s", label);
		/* A hardware port says whose counters these are. */
		if (show_get_str(p, "counters")[0])
			strbuf_printf(out, " (counters: %s)",
			              show_get_str(p, "counters"));
		strbuf_puts(out, "\n  Priority  RxPause    RxXON      "
		                 "TxPause    TxXON      Paused  Paused(ms)\n");
		for (size_t j = 0; j < show_len(pr); j++) {
			struct json_object *o = show_at(pr, j);
			struct json_object *pz = show_get(o, "paused");
			char c[5][24];
			int64_t prio = 0;

			show_get_int(o, "priority", &prio);
			show_counter(c[0], sizeof(c[0]), o, "rx-pause");
			show_counter(c[1], sizeof(c[1]), o, "rx-xon");
			show_counter(c[2], sizeof(c[2]), o, "tx-pause");
			show_counter(c[3], sizeof(c[3]), o, "tx-xon");
			show_counter(c[4], sizeof(c[4]), o, "paused-ms");
			strbuf_printf(out,
			              "  %-9" PRId64
			              " %-10s %-10s %-10s %-10s %-7s %s\n",
			              prio, c[0], c[1], c[2], c[3],
			              !pz                          ? "n/a"
			              : show_get_bool(o, "paused") ? "yes"
			                                           : "no",
			              c[4]);
		}
		if (show_get_int(p, "socket-drops", &drops))
			strbuf_printf(
			    out,
			    "  Frames dropped at roced's socket: %" PRId64 "\n",
			    drops);
		strbuf_puts(out, "\n");
	}
}

/* --- show interface flowcontrol --- */

static const char *show_fc_oper(struct json_object *dir)
{
	const char *s = show_get_str(dir, "oper");

	return s[0] ? s : "n/a"; /* null: the driver was not read */
}

void show_text_fc_if(struct json_object *data, struct strbuf *out)
{
	struct json_object *a = show_get(data, "interface");
	const char *note = show_get_str(data, "note");
	const char *rule = "-------------------------------------------------"
	                   "-------------------------------\n";

	strbuf_printf(out,
	              "\n%sPort         Send FlowControl  Receive FlowControl"
	              "  RxPause     TxPause\n"
	              "             admin    oper     admin    oper\n%s",
	              rule, rule);
	for (size_t i = 0; i < show_len(a); i++) {
		struct json_object *p = show_at(a, i);
		struct json_object *tx = show_get(p, "send");
		struct json_object *rx = show_get(p, "receive");
		const char *alias = show_get_str(p, "alias");
		char rxp[24], txp[24];

		show_counter(rxp, sizeof(rxp), p, "rx-pause");
		show_counter(txp, sizeof(txp), p, "tx-pause");
		strbuf_printf(out, "%-12s %-8s %-8s %-8s %-11s %-11s %s\n",
		              alias[0] ? alias : show_get_str(p, "name"),
		              show_get_str(tx, "admin"), show_fc_oper(tx),
		              show_get_str(rx, "admin"), show_fc_oper(rx), rxp,
		              txp);
	}
	if (note[0])
		strbuf_printf(out, "\nNote: %s.\n", note);
	strbuf_puts(out, "\n");
}

/* --- show queuing pfc-queue --- */

static const char *show_ed(bool on)
{
	return on ? "Enabled" : "Disabled";
}

/* A time in seconds ago, or "never". */
static void show_text_ago(char *buf, size_t len, struct json_object *o,
                          const char *key)
{
	struct json_object *v = show_get(o, key);

	if (!v || !json_object_is_type(v, json_type_double))
		snprintf(buf, len, "never");
	else
		snprintf(buf, len, "%.1f s ago", json_object_get_double(v));
}

/* A queue's state in NX-OS's words, inside the brackets of its box. */
static const char *show_wd_state_word(const char *state)
{
	static const struct {
		enum pfcwd_state state;
		const char *word;
	} words[] = {
	    {PFCWD_MONITORED, "Active"},
	    {PFCWD_WAIT_SHUTDOWN, "Wait-to-shutdown"},
	    {PFCWD_SHUTDOWN, "Shutdown"},
	    {PFCWD_RESTORED, "Restored"},
	};
	int st = pfcwd_state_parse(state);

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if ((int)words[i].state == st)
			return words[i].word;
	return "?";
}

/* One row of a pfc-queue box: the label right-aligned before the bar,
 * the count right-aligned in its cell, as NX-OS draws them. */
static void show_wd_row(const char *label, int64_t v, struct strbuf *out)
{
	strbuf_printf(out, "|%31s|%20" PRId64 "|\n", label, v);
}

#define SHOW_WD_RULE "+----------------------------------------------------+\n"

/* roced's lines of a port's watchdog times (its plan's), after NX-OS's
 * boxes of the port; none when its watchdog is off. */
static void show_text_wd_times(struct json_object *p, struct strbuf *out)
{
	int64_t poll, storm, autor = 0, fixed = 0;

	if (!show_get_int(p, "poll-ms", &poll) ||
	    !show_get_int(p, "storm-ms", &storm))
		return;
	show_get_int(p, "auto-restore-ms", &autor);
	show_get_int(p, "fixed-restore-ms", &fixed);
	strbuf_printf(out,
	              "PFC watch-dog poll, storm after    : %" PRId64
	              " ms, %" PRId64 " ms\n",
	              poll, storm);
	if (autor)
		strbuf_printf(out,
		              "Auto-restore after                 : %" PRId64
		              " ms\n",
		              autor);
	else
		strbuf_puts(out, "Auto-restore after                 : none\n");
	if (fixed)
		strbuf_printf(out,
		              "Fixed-restore after                : %" PRId64
		              " ms\n",
		              fixed);
	else
		strbuf_puts(out, "Fixed-restore after                : none\n");
}

/* NX-OS's per-interface block of `show queuing pfc-queue detail`: the
 * port's watchdog, then per no-drop queue the boxed statistics. "Total
 * pkts drained/dropped" are the last storm's, "Aggregate pkts dropped"
 * every storm's since the statistics were cleared. Below each box,
 * roced's own lines: when the last storm and restore were, and how much
 * longer the next automatic restore waits; after the boxes, the port's
 * watchdog times. */
static void show_text_pfc_queue_detail(struct json_object *data,
                                       struct json_object *a,
                                       struct strbuf *out)
{
	bool forward = !strcmp(show_get_str(data, "action"), "forward");

	for (size_t i = 0; i < show_len(a); i++) {
		struct json_object *p = show_at(a, i);
		struct json_object *qs = show_get(p, "queues");
		char label[96];
		int64_t mult = 0;

		/* one word, as scripts parse NX-OS's line */
		snprintf(label, sizeof(label), "%s",
		         show_get_str(p, "alias")[0] ? show_get_str(p, "alias")
		                                     : show_get_str(p, "name"));
		show_get_int(p, "interface-multiplier", &mult);
		strbuf_printf(out,
		              "\n%s Interface PFC watchdog: [%s]\n"
		              "Disable-action                     : %s\n"
		              "PFC watch-dog interface-multiplier : %" PRId64
		              "\n",
		              label, show_ed(show_get_bool(p, "watch-dog")),
		              forward ? "Yes" : "No", mult);
		for (size_t j = 0; j < show_len(qs); j++) {
			struct json_object *q = show_at(qs, j);
			char prios[32], storm[32], restore[32];
			int64_t g = 0, v = 0, dr = 0, dp = 0, backoff = 1;

			show_get_int(q, "qos-group", &g);
			show_list_text(show_get(q, "priorities"), prios,
			               sizeof(prios));
			strbuf_printf(
			    out,
			    SHOW_WD_RULE
			    "| QOS GROUP %" PRId64 " [%s] PFC [YES] PFC-COS "
			    "[%s]\n" SHOW_WD_RULE
			    "|                               |  Stats  "
			    "           |\n" SHOW_WD_RULE,
			    g, show_wd_state_word(show_get_str(q, "state")),
			    prios);
			show_get_int(q, "storms", &v);
			show_wd_row("Shutdown", v, out);
			show_get_int(q, "restores", &v);
			show_wd_row("Restored", v, out);
			show_get_int(q, "storm-drained-packets", &dr);
			show_get_int(q, "storm-dropped-packets", &dp);
			show_wd_row("Total pkts drained", dr, out);
			show_wd_row("Total pkts dropped", dp, out);
			show_wd_row("Total pkts drained + dropped", dr + dp,
			            out);
			dr = dp = 0;
			show_get_int(q, "drained-packets", &dr);
			show_get_int(q, "dropped-packets", &dp);
			show_wd_row("Aggregate pkts dropped", dr + dp, out);
			strbuf_puts(out, SHOW_WD_RULE);
			show_text_ago(storm, sizeof(storm), q,
			              "last-storm-s-ago");
			show_text_ago(restore, sizeof(restore), q,
			              "last-restore-s-ago");
			show_get_int(q, "restore-backoff", &backoff);
			strbuf_printf(out,
			              "Last storm %s, last restore %s, restore "
			              "wait x%" PRId64 "\n",
			              storm, restore, backoff);
		}
		show_text_wd_times(p, out);
	}
}

/* NX-OS's per-CoS flags of the summary: CoS 7 down to 0, Y where the
 * watchdog shut the CoS's queue, - elsewhere. */
static void show_wd_flags(struct json_object *p, char *buf, size_t len)
{
	struct json_object *sh = show_get(p, "shutdown-priorities");
	unsigned mask = 0;
	size_t n = 0;

	for (size_t j = 0; j < show_len(sh); j++)
		mask |= 1u << (json_object_get_int(show_at(sh, j)) & 7);
	for (int c = 7; c >= 0 && n + 2 < len; c--) {
		buf[n++] = mask & (1u << c) ? 'Y' : '-';
		buf[n++] = c ? ' ' : '\0';
	}
	buf[n < len ? n : len - 1] = '\0';
}

void show_text_pfc_queue(struct json_object *data, bool detail,
                         struct strbuf *out)
{
	struct json_object *a = show_get(data, "interface");
	int64_t v;

	strbuf_printf(out,
	              "Global watch-dog interval [%s]\n"
	              "Forced Global watch-dog [%s]\n",
	              show_ed(show_get_bool(data, "watch-dog-interval")),
	              show_ed(show_get_bool(data, "forced-watch-dog")));
	if (detail) {
		strbuf_puts(out,
		            "\nGlobal PFC watchdog configuration details\n");
		show_get_int(data, "interval", &v);
		strbuf_printf(
		    out, "PFC watch-dog poll interval : %" PRId64 " ms\n", v);
		show_get_int(data, "shutdown-multiplier", &v);
		strbuf_printf(
		    out, "PFC watch-dog shutdown multiplier : %" PRId64 "\n",
		    v);
		show_get_int(data, "auto-restore-multiplier", &v);
		strbuf_printf(
		    out,
		    "PFC watch-dog auto-restore multiplier : %" PRId64 "\n", v);
		show_get_int(data, "fixed-restore-multiplier", &v);
		strbuf_printf(
		    out,
		    "PFC watch-dog fixed-restore multiplier : %" PRId64 "\n",
		    v);
		show_get_int(data, "internal-interface-multiplier", &v);
		strbuf_printf(out,
		              "PFC watchdog internal-interface multiplier : "
		              "%" PRId64 "\n",
		              v);
	}
	if (show_len(a)) {
		strbuf_puts(out, "\n+----------------------------------------"
		                 "------------------------+\n"
		                 "Port                 PFC Watchdog (VL bmap)  "
		                 "State (Shutdown)\n"
		                 "+----------------------------------------"
		                 "------------------------+\n");
		for (size_t i = 0; i < show_len(a); i++) {
			struct json_object *p = show_at(a, i);
			struct json_object *pr = show_get(p, "priorities");
			const char *alias = show_get_str(p, "alias");
			unsigned bmap = 0;
			char wd[32], flags[20];

			for (size_t j = 0; j < show_len(pr); j++)
				bmap |=
				    1u << (json_object_get_int(show_at(pr, j)) &
				           7);
			snprintf(wd, sizeof(wd), "%s ( 0x%x )",
			         show_ed(show_get_bool(p, "watch-dog")), bmap);
			show_wd_flags(p, flags, sizeof(flags));
			strbuf_printf(out, "%-20s %-23s %s\n",
			              alias[0] ? alias
			                       : show_get_str(p, "name"),
			              wd, flags);
		}
	}
	show_text_deadlock(a, out);
	if (detail)
		show_text_pfc_queue_detail(data, a, out);
	if (show_get_str(data, "note")[0])
		strbuf_printf(out, "\nNote: %s.\n", show_get_str(data, "note"));
}
