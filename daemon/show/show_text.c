/* show_text: the NX-OS style text of every show answer, read from the
 * answer's JSON alone (show.h), laid out after the Nexus 9000 commands of
 * the same name. Counters the kernel does not offer print as "n/a". */
#include <inttypes.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "model/units.h"
#include "plan/plan_warn.h"
#include "show/show.h"
#include "show/show_int.h"

/* --- reading --- */

struct json_object *show_get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (!o || !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

const char *show_get_str(struct json_object *o, const char *key)
{
	struct json_object *v = show_get(o, key);

	return json_object_is_type(v, json_type_string)
	           ? json_object_get_string(v)
	           : "";
}

bool show_get_int(struct json_object *o, const char *key, int64_t *out)
{
	struct json_object *v = show_get(o, key);

	if (!json_object_is_type(v, json_type_int))
		return false;
	*out = json_object_get_int64(v);
	return true;
}

bool show_get_bool(struct json_object *o, const char *key)
{
	struct json_object *v = show_get(o, key);

	return json_object_is_type(v, json_type_boolean) &&
	       json_object_get_boolean(v);
}

void show_list_text(struct json_object *a, char *buf, size_t len)
{
	uint64_t mask = 0;

	buf[0] = '\0';
	if (!json_object_is_type(a, json_type_array))
		return;
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		int64_t v =
		    json_object_get_int64(json_object_array_get_idx(a, i));

		if (v >= 0 && v < 64)
			mask |= 1ull << v;
	}
	if (mask)
		policy_list_format(mask, buf, len);
}

size_t show_len(struct json_object *a)
{
	return json_object_is_type(a, json_type_array)
	           ? json_object_array_length(a)
	           : 0;
}

struct json_object *show_at(struct json_object *a, size_t i)
{
	return json_object_array_get_idx(a, i);
}

/* "Ethernet1/1 (swp1)", or the Linux name alone. */
void show_label(struct json_object *port, char *buf, size_t len)
{
	const char *alias = show_get_str(port, "alias");

	if (alias[0])
		snprintf(buf, len, "%s (%s)", alias,
		         show_get_str(port, "name"));
	else
		snprintf(buf, len, "%s", show_get_str(port, "name"));
}

/* "not programmed: REASON", "refused: REASON" or "programmed". */
void show_state_text(struct json_object *port, char *buf, size_t len)
{
	int state = plan_port_state_parse(show_get_str(port, "state"));
	const char *reason = show_get_str(port, "reason");

	if (state < 0)
		state = PLAN_PORT_NOT_PROGRAMMED; /* never claim more */
	snprintf(buf, len, "%s%s%s",
	         plan_port_state_text((enum plan_port_state)state),
	         reason[0] ? ": " : "", reason);
}

bool show_programmed(struct json_object *port)
{
	return plan_port_state_parse(show_get_str(port, "state")) ==
	       PLAN_PORT_PROGRAMMED;
}

void show_counter(char *buf, size_t len, struct json_object *o, const char *key)
{
	int64_t v;

	if (show_get_int(o, key, &v))
		snprintf(buf, len, "%" PRId64, v);
	else
		snprintf(buf, len, "n/a");
}

static void show_wred_line(struct json_object *rd, const char *indent,
                           struct strbuf *out)
{
	char min[32] = "?", max[32] = "?";
	int64_t v, p = 0, w = 0;

	if (show_get_int(rd, "minimum-threshold", &v) && v >= 0)
		units_bytes_format((uint64_t)v, min, sizeof(min));
	if (show_get_int(rd, "maximum-threshold", &v) && v >= 0)
		units_bytes_format((uint64_t)v, max, sizeof(max));
	show_get_int(rd, "drop-probability", &p);
	show_get_int(rd, "weight", &w);
	strbuf_printf(out,
	              "%srandom-detect minimum-threshold %s "
	              "maximum-threshold %s drop-probability %" PRId64
	              " weight %" PRId64 "%s\n",
	              indent, min, max, p, w,
	              show_get_bool(rd, "ecn") ? " ecn" : "");
}

/* The statements of one `class type queuing` block. */
/* A class's pause buffer (network-qos or ingress queuing) and `pause
 * no-drop`, as the running-config spells them. */
static void show_pause_lines(struct json_object *c, const char *indent,
                             struct strbuf *out)
{
	struct json_object *b = show_get(c, "pause-buffer");
	int64_t size = 0, xoff = 0, xon = 0;

	if (b && show_get_int(b, "buffer-size", &size) &&
	    show_get_int(b, "pause-threshold", &xoff) &&
	    show_get_int(b, "resume-threshold", &xon))
		strbuf_printf(out,
		              "%spause buffer-size %" PRId64
		              " pause-threshold %" PRId64
		              " resume-threshold %" PRId64 "\n",
		              indent, size, xoff, xon);
	if (show_get_bool(c, "pause-no-drop"))
		strbuf_printf(out, "%spause no-drop\n", indent);
}

static void show_queue_lines(struct json_object *c, const char *indent,
                             struct strbuf *out)
{
	struct json_object *rd = show_get(c, "random-detect");
	int64_t v;

	if (show_get_int(c, "priority-level", &v))
		strbuf_printf(out, "%spriority level %" PRId64 "\n", indent, v);
	if (show_get_int(c, "bandwidth-percent", &v))
		strbuf_printf(out, "%sbandwidth percent %" PRId64 "\n", indent,
		              v);
	if (show_get_int(c, "bandwidth-remaining-percent", &v))
		strbuf_printf(out,
		              "%sbandwidth remaining percent %" PRId64 "\n",
		              indent, v);
	if (rd)
		show_wred_line(rd, indent, out);
	show_pause_lines(c, indent, out);
}

static void show_heading(const char *title, struct strbuf *out)
{
	size_t n = strlen(title);

	strbuf_printf(out, "\n  %s\n  ", title);
	for (size_t i = 0; i < n; i++)
		strbuf_puts(out, "=");
	strbuf_puts(out, "\n\n");
}

/* --- show class-map --- */

void show_text_class_map(struct json_object *data, struct strbuf *out)
{
	static const char *const types[] = {"qos", "queuing", "network-qos"};
	struct json_object *a = show_get(data, "class-map");

	for (size_t t = 0; t < 3; t++) {
		bool first = true;

		for (size_t i = 0; i < show_len(a); i++) {
			struct json_object *c = show_at(a, i);
			const char *type = show_get_str(c, "type");
			const char *match = show_get_str(c, "match");
			char list[256], title[64];

			if (strcmp(type, types[t]))
				continue;
			if (first) {
				snprintf(title, sizeof(title),
				         "Type %s class-maps", types[t]);
				show_heading(title, out);
				first = false;
			}
			if (match[0])
				strbuf_printf(out,
				              "    class-map type %s match-%s "
				              "%s\n",
				              type, match,
				              show_get_str(c, "name"));
			else
				strbuf_printf(out, "    class-map type %s %s\n",
				              type, show_get_str(c, "name"));
			show_list_text(show_get(c, "cos"), list, sizeof(list));
			if (list[0])
				strbuf_printf(out, "      match cos %s\n",
				              list);
			show_list_text(show_get(c, "dscp"), list, sizeof(list));
			if (list[0])
				strbuf_printf(out, "      match dscp %s\n",
				              list);
			show_list_text(show_get(c, "qos-group"), list,
			               sizeof(list));
			if (list[0])
				strbuf_printf(out, "      match qos-group %s\n",
				              list);
			strbuf_puts(out, "\n");
		}
	}
}

/* --- show policy-map --- */

void show_text_policy_map(struct json_object *data, struct strbuf *out)
{
	static const char *const types[] = {"qos", "queuing", "network-qos"};
	struct json_object *a = show_get(data, "policy-map");

	for (size_t t = 0; t < 3; t++) {
		bool first = true;

		for (size_t i = 0; i < show_len(a); i++) {
			struct json_object *m = show_at(a, i);
			struct json_object *cl = show_get(m, "class");
			const char *type = show_get_str(m, "type");
			char title[64], list[256];

			if (strcmp(type, types[t]))
				continue;
			if (first) {
				snprintf(title, sizeof(title),
				         "Type %s policy-maps", types[t]);
				show_heading(title, out);
				first = false;
			}
			strbuf_printf(out, "  policy-map type %s %s\n", type,
			              show_get_str(m, "name"));
			for (size_t j = 0; j < show_len(cl); j++) {
				struct json_object *c = show_at(cl, j);
				int64_t v;

				if (t == 0)
					strbuf_printf(out, "    class  %s\n",
					              show_get_str(c, "name"));
				else
					strbuf_printf(
					    out, "    class type %s %s\n", type,
					    show_get_str(c, "name"));
				if (show_get_int(c, "set-qos-group", &v))
					strbuf_printf(out,
					              "      set qos-group "
					              "%" PRId64 "\n",
					              v);
				if (t == 1)
					show_queue_lines(c, "      ", out);
				show_list_text(show_get(c, "pause-pfc-cos"),
				               list, sizeof(list));
				if (list[0])
					strbuf_printf(
					    out, "      pause pfc-cos %s%s\n",
					    list,
					    show_get_bool(c,
					                  "pause-receive-only")
					        ? " receive-only"
					        : "");
				if (t == 2)
					show_pause_lines(c, "      ", out);
				if (show_get_int(c, "mtu", &v))
					strbuf_printf(
					    out, "      mtu %" PRId64 "\n", v);
			}
			strbuf_puts(out, "\n");
		}
	}
}

/* --- show policy-map interface --- */

static void show_queue_counters_short(struct json_object *c, struct strbuf *out)
{
	struct json_object *k = show_get(c, "counters");
	char drops[24], depth[24], marked[24], tx[24];

	if (!k) {
		strbuf_puts(out, "      queue counters : n/a (no queue in "
		                 "the kernel)\n");
		return;
	}
	show_counter(tx, sizeof(tx), k, "tx-packets");
	show_counter(drops, sizeof(drops), k, "dropped-packets");
	show_counter(depth, sizeof(depth), k, "queue-depth-bytes");
	show_counter(marked, sizeof(marked), k, "ecn-marked");
	strbuf_printf(out,
	              "      queue transmitted pkts : %s\n"
	              "      queue dropped pkts : %s\n"
	              "      queue depth in bytes : %s\n"
	              "      queue ecn marked pkts : %s\n",
	              tx, drops, depth, marked);
}

void show_text_policy_map_if(struct json_object *data, struct strbuf *out)
{
	struct json_object *a = show_get(data, "interface");

	strbuf_puts(out, "\nGlobal statistics status :   enabled\n");
	for (size_t i = 0; i < show_len(a); i++) {
		struct json_object *p = show_at(a, i);
		struct json_object *sp = show_get(p, "service-policy");
		struct json_object *qi = show_get(sp, "qos-input");
		struct json_object *qo = show_get(sp, "queuing-output");
		char label[96], list[256], state[640];

		show_label(p, label, sizeof(label));
		strbuf_printf(out, "\n%s%s\n", label,
		              show_get_bool(p, "exists") ? "" : " (absent)");
		show_state_text(p, state, sizeof(state));
		strbuf_printf(out, "  State: %s\n", state);
		if (!qi && !qo)
			strbuf_puts(out, "\n  no service-policy\n");
		if (qi) {
			struct json_object *cl = show_get(qi, "class");

			strbuf_printf(out,
			              "\n  Service-policy (qos) input:   %s\n",
			              show_get_str(qi, "name"));
			for (size_t j = 0; j < show_len(cl); j++) {
				struct json_object *c = show_at(cl, j);
				const char *m = show_get_str(c, "match");
				int64_t v;

				strbuf_printf(out,
				              "\n    Class-map (qos):   %s "
				              "(match-%s)\n\n",
				              show_get_str(c, "name"),
				              m[0] ? m : "all");
				show_list_text(show_get(c, "cos"), list,
				               sizeof(list));
				if (list[0])
					strbuf_printf(
					    out, "      Match: cos %s\n", list);
				show_list_text(show_get(c, "dscp"), list,
				               sizeof(list));
				if (list[0])
					strbuf_printf(out,
					              "      Match: dscp %s\n",
					              list);
				if (show_get_int(c, "set-qos-group", &v))
					strbuf_printf(out,
					              "      set qos-group "
					              "%" PRId64 "\n",
					              v);
			}
		}
		if (qo) {
			struct json_object *cl = show_get(qo, "class");

			strbuf_printf(out,
			              "\n  Service-policy (queuing) output:   "
			              "%s\n",
			              show_get_str(qo, "name"));
			for (size_t j = 0; j < show_len(cl); j++) {
				struct json_object *c = show_at(cl, j);

				strbuf_printf(out,
				              "\n    Class-map (queuing):   %s "
				              "(match-any)\n",
				              show_get_str(c, "name"));
				show_queue_lines(c, "      ", out);
				show_queue_counters_short(c, out);
			}
		}
	}
	strbuf_puts(out, "\n");
}

/* --- show queuing interface --- */

static void show_queue_row(struct json_object *c, struct strbuf *out)
{
	struct json_object *rd = show_get(c, "random-detect");
	char bw[8] = "-", prio[8] = "-", wred[48] = "-", ecn[16] = "-";
	int64_t q = 0, v, v2;

	show_get_int(c, "qos-group", &q);
	if (show_get_int(c, "bandwidth-remaining-percent", &v))
		snprintf(bw, sizeof(bw), "%" PRId64, v);
	if (show_get_int(c, "priority-level", &v))
		snprintf(prio, sizeof(prio), "%" PRId64, v);
	if (rd && show_get_int(rd, "minimum-threshold", &v) &&
	    show_get_int(rd, "maximum-threshold", &v2)) {
		int64_t p = 0;

		show_get_int(rd, "drop-probability", &p);
		snprintf(wred, sizeof(wred),
		         "%" PRId64 "/%" PRId64 " KB %" PRId64 "%%%s", v / 1024,
		         v2 / 1024, p,
		         show_get_bool(rd, "realised") ? "" : " *");
		snprintf(ecn, sizeof(ecn), "%s",
		         show_get_bool(rd, "ecn") ? "yes" : "no");
	}
	strbuf_printf(out, "%10" PRId64 " %10s %9s  %-24s %-4s %s\n", q, bw,
	              prio, wred, ecn,
	              show_get(c, "leaf") ? show_get_str(c, "leaf") : "-");
}

static void show_queue_box(struct json_object *c, struct strbuf *out)
{
	static const struct {
		const char *key, *label;
	} rows[] = {
	    {"tx-packets", "Tx Pkts"},
	    {"tx-bytes", "Tx Byts"},
	    {"dropped-packets", "Dropped Pkts"},
	    {"ecn-marked", "ECN Marked Pkts"},
	    {"early-drops", "WRED Early Drop Pkts"},
	    {"forced-drops", "WRED Forced Drop Pkts"},
	    {"queue-depth-packets", "Queue Depth Pkts"},
	    {"queue-depth-bytes", "Queue Depth Byts"},
	    {"peak-queue-depth-bytes", "Peak Queue Depth Byts"},
	    {"overlimits", "Overlimits"},
	};
	struct json_object *k = show_get(c, "counters");
	int64_t q = 0;

	show_get_int(c, "qos-group", &q);
	strbuf_printf(out,
	              "+-------------------------------------------------+\n"
	              "|                 QOS GROUP %-2" PRId64
	              "                    |\n"
	              "+-------------------------------------------------+\n",
	              q);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char v[24];

		if (k)
			show_counter(v, sizeof(v), k, rows[i].key);
		else
			snprintf(v, sizeof(v), "n/a");
		strbuf_printf(out, "| %24s | %20s |\n", rows[i].label, v);
	}
	strbuf_puts(out,
	            "+-------------------------------------------------+\n");
}

/* Whether port P's "warnings" hold TEXT. */
static bool show_warned(struct json_object *p, const char *text)
{
	struct json_object *w = show_get(p, "warnings");

	for (size_t k = 0; k < show_len(w); k++)
		if (!strcmp(json_object_get_string(show_at(w, k)), text))
			return true;
	return false;
}

/* The plan warnings of the ports of A after them all, each distinct one
 * once with the ports that carry it, as roced -n and the log write them
 * ("warning: swp1-swp3: text"): a policy's warnings are the same on each
 * of its ports, and one line says so for all of them. */
static void show_text_warnings(struct json_object *a, struct strbuf *out)
{
	size_t np = show_len(a);
	const char **names = calloc(np ? np : 1, sizeof(*names));

	if (!names) {
		out->oom = true;
		return;
	}
	for (size_t i = 0; i < np; i++) {
		struct json_object *w = show_get(show_at(a, i), "warnings");

		for (size_t k = 0; k < show_len(w); k++) {
			const char *text =
			    json_object_get_string(show_at(w, k));
			bool told = false;
			size_t n = 0;

			for (size_t j = 0; j < i && !told; j++)
				told = show_warned(show_at(a, j), text);
			for (size_t j = 0; j < k && !told; j++)
				told = !strcmp(text, json_object_get_string(
				                         show_at(w, j)));
			if (told)
				continue;
			for (size_t j = i; j < np; j++)
				if (show_warned(show_at(a, j), text))
					names[n++] =
					    show_get_str(show_at(a, j), "name");
			strbuf_puts(out, "warning: ");
			plan_warn_ports(names, n, out);
			strbuf_printf(out, ": %s\n", text);
		}
	}
	free(names);
}

/* A count, or "-" where there is none (NX-OS's blank in the ingress
 * table). */
static void show_dash(char *buf, size_t len, struct json_object *o,
                      const char *key)
{
	int64_t v;

	if (show_get_int(o, key, &v))
		snprintf(buf, len, "%" PRId64, v);
	else
		snprintf(buf, len, "-");
}

/* "Active"/"Inactive", n/a where nothing says. */
static const char *show_active(struct json_object *o, const char *key)
{
	const char *s = show_get_str(o, key);

	return !strcmp(s, "active")     ? "Active"
	       : !strcmp(s, "inactive") ? "Inactive"
	                                : "n/a";
}

#define SHOW_PFC_RULE                                                          \
	"--------------------------------------------------------------------" \
	"----------\n"

/* The ingress side of a port in NX-OS's layout: the pause buffer of each
 * no-drop qos-group, then the PFC statistics. */
static void show_text_ingress(struct json_object *p, const char *label,
                              struct strbuf *out)
{
	struct json_object *in = show_get(p, "ingress");
	struct json_object *pfc = show_get(p, "pfc-statistics");
	struct json_object *cos = show_get(pfc, "cos");
	char tx[24], rx[24];
	bool dflt = false;

	strbuf_printf(out,
	              "\nIngress Queuing for %s\n"
	              "-----------------------------------------------------\n"
	              "QoS-Group#                 Pause\n"
	              "           Buff Size       Pause Th      Resume Th\n"
	              "-----------------------------------------------------\n",
	              label);
	for (size_t j = 0; j < show_len(in); j++) {
		struct json_object *g = show_at(in, j);
		char b[24], x[24], n[24];
		int64_t q = 0;

		show_get_int(g, "qos-group", &q);
		show_dash(b, sizeof(b), g, "pause-buffer-size");
		show_dash(x, sizeof(x), g, "pause-threshold");
		show_dash(n, sizeof(n), g, "resume-threshold");
		strbuf_printf(out, "%7" PRId64 "%15s%13s%13s\n", q, b, x, n);
		dflt |= !strcmp(show_get_str(g, "thresholds"), "default");
	}
	if (dflt)
		strbuf_puts(out, "(no pause buffer configured: software PFC's "
		                 "own thresholds, from the queue's buffer, "
		                 "the port's speed and MTU)\n");
	show_counter(tx, sizeof(tx), pfc, "tx-ppp");
	show_counter(rx, sizeof(rx), pfc, "rx-ppp");
	strbuf_printf(out,
	              "\nPFC Statistics\n" SHOW_PFC_RULE
	              "TxPPP:%21s,   RxPPP:%21s\n" SHOW_PFC_RULE
	              "PFC_COS QOS_Group   TxPause             TxCount   "
	              "RxPause             RxCount\n",
	              tx, rx);
	for (size_t j = 0; j < show_len(cos); j++) {
		struct json_object *c = show_at(cos, j);
		int64_t k = 0, g = 0;

		show_get_int(c, "cos", &k);
		show_get_int(c, "qos-group", &g);
		show_counter(tx, sizeof(tx), c, "tx-count");
		show_counter(rx, sizeof(rx), c, "rx-count");
		strbuf_printf(out,
		              "%7" PRId64 "%10" PRId64 "  %-8s%20s  %-8s%20s\n",
		              k, g, show_active(c, "tx-pause"), tx,
		              show_active(c, "rx-pause"), rx);
	}
	strbuf_puts(out, SHOW_PFC_RULE);
}

void show_text_queuing_if(struct json_object *data, struct strbuf *out)
{
	struct json_object *a = show_get(data, "interface");

	for (size_t i = 0; i < show_len(a); i++) {
		struct json_object *p = show_at(a, i);
		struct json_object *qs = show_get(p, "queue");
		const char *pol = show_get_str(p, "queuing-policy");
		bool unrealised = false;
		char label[96], state[640];
		int64_t speed;

		show_label(p, label, sizeof(label));
		strbuf_printf(out, "\nEgress Queuing for %s [%s]%s\n", label,
		              pol[0] ? pol : "no queuing policy",
		              show_get_bool(p, "exists") ? "" : " (absent)");
		show_state_text(p, state, sizeof(state));
		strbuf_printf(out, "State: %s\n", state);
		strbuf_printf(out, "Layout %s, DCB %s",
		              show_get_str(p, "layout"),
		              show_get_str(p, "dcb"));
		if (show_get_int(p, "speed-mbps", &speed))
			strbuf_printf(out, ", speed %" PRId64 " Mb/s\n", speed);
		else
			strbuf_puts(out, ", speed unknown\n");
		if (show_get_bool(p, "contested"))
			strbuf_puts(out,
			            "Contested: another process keeps "
			            "changing roced's tc objects here; "
			            "roced is not repairing them for now\n");
		if (!show_len(qs)) {
			strbuf_puts(out, "No queuing policy in force: roced "
			                 "leaves this port's root qdisc "
			                 "alone.\n");
			show_text_ingress(p, label, out);
			continue;
		}
		strbuf_puts(
		    out, "--------------------------------------------------"
		         "----------------------------\n"
		         "QoS-Group# Bandwidth% PrioLevel  WRED min/max Prob  "
		         "        ECN  Leaf\n"
		         "--------------------------------------------------"
		         "----------------------------\n");
		for (size_t j = 0; j < show_len(qs); j++) {
			struct json_object *rd =
			    show_get(show_at(qs, j), "random-detect");

			show_queue_row(show_at(qs, j), out);
			if (rd && !show_get_bool(rd, "realised"))
				unrealised = true;
		}
		if (unrealised)
			strbuf_puts(out,
			            "* WRED/ECN configured but not realised "
			            "on this port (see the warnings)\n");
		for (size_t j = 0; j < show_len(qs); j++)
			show_queue_box(show_at(qs, j), out);
		show_text_ingress(p, label, out);
	}
	show_text_warnings(a, out);
	strbuf_puts(out, "\n");
}
