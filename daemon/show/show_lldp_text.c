/* show_lldp_text: the NX-OS-like text of the LLDP and DCBX shows,
 * rendered from their JSON alone (show_lldp.c builds it), so that
 * `| json` and the text never disagree.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "show/show.h"
#include "show/show_int.h"

static void show_lldp_label(struct json_object *o, char *buf, size_t len)
{
	const char *alias = show_get_str(o, "alias");

	if (alias[0])
		snprintf(buf, len, "%s (%s)", alias, show_get_str(o, "name"));
	else
		snprintf(buf, len, "%s", show_get_str(o, "name"));
}

static int64_t show_lldp_int(struct json_object *o, const char *key)
{
	int64_t v = 0;

	show_get_int(o, key, &v);
	return v;
}

/* "BR" -> "B, R", as NX-OS's detail writes capabilities; "not
 * advertised" without the TLV (LETTERS NULL). */
static void show_lldp_codes(const char *letters, char *buf, size_t len)
{
	size_t n = 0;

	snprintf(buf, len, "%s", letters ? "" : "not advertised");
	for (; letters && *letters && n + 4 < len; letters++)
		n += (size_t)snprintf(buf + n, len - n, "%s%c", n ? ", " : "",
		                      *letters);
}

void show_lldp_text_neighbors(struct json_object *data, bool detail,
                              struct strbuf *out)
{
	char syscap[40], encap[40];
	struct json_object *a = show_get(data, "neighbors");
	size_t n = json_object_is_type(a, json_type_array)
	               ? json_object_array_length(a)
	               : 0;

	/* NX-OS's legend and header, the detail view's too; its columns
	 * are 21, 16, 11 and 12 wide. */
	lldp_caps_legend(out);
	strbuf_printf(out, "%-20s %-15s %-10s %-11s %s\n", "Device ID",
	              "Local Intf", "Hold-time", "Capability", "Port ID");
	if (detail)
		strbuf_puts(out, "\n");
	for (size_t i = 0; i < n; i++) {
		struct json_object *b = json_object_array_get_idx(a, i);
		const char *sys = show_get_str(b, "system-name");
		const char *local = show_get_str(b, "alias");

		if (!local[0])
			local = show_get_str(b, "name");
		if (!detail) {
			const char *dev =
			    sys[0] ? sys : show_get_str(b, "chassis-id");

			/* A longer Device ID has a line of its own, the row
			 * under it, as NX-OS prints it: never cut. */
			if (strlen(dev) > 20)
				strbuf_printf(out, "%s\n%-20s ", dev, "");
			else
				strbuf_printf(out, "%-20s ", dev);
			strbuf_printf(out, "%-15s %-10lld %-11s %s%s\n", local,
			              (long long)show_lldp_int(b, "ttl"),
			              show_get_str(b, "capability"),
			              show_get_str(b, "port-id"),
			              show_get_bool(b, "cee") ? " (CEE)" : "");
			continue;
		}
		show_lldp_codes(show_get(b, "system-capability")
		                    ? show_get_str(b, "system-capability")
		                    : NULL,
		                syscap, sizeof(syscap));
		show_lldp_codes(show_get(b, "system-capability")
		                    ? show_get_str(b, "capability")
		                    : NULL,
		                encap, sizeof(encap));
		strbuf_printf(
		    out,
		    "Chassis id: %s\nPort id: %s\nLocal Port id: "
		    "%s\nPort Description: %s\nSystem Name: %s\n"
		    "System Description: %s\nTime remaining: %lld "
		    "seconds\nSystem Capabilities: %s\n"
		    "Enabled Capabilities: %s\nDCBX TLVs: %s%s\n"
		    "Unknown TLVs: %lld\nNeighbors on this port: %lld\n\n",
		    show_get_str(b, "chassis-id"), show_get_str(b, "port-id"),
		    local, show_get_str(b, "port-description"), sys,
		    show_get_str(b, "system-description"),
		    (long long)show_lldp_int(b, "expires-in"), syscap, encap,
		    show_get_bool(b, "dcbx") ? "yes" : "no",
		    show_get_bool(b, "cee") ? " (peer speaks CEE)" : "",
		    (long long)show_lldp_int(b, "unknown-tlvs"),
		    (long long)show_lldp_int(b, "neighbors-on-port"));
	}
	strbuf_printf(out, "%sTotal entries displayed: %zu\n",
	              detail ? "" : "\n", n);
}

static void show_text_counters(struct json_object *c, struct strbuf *out)
{
	strbuf_printf(out,
	              "Total frames transmitted: %lld\n"
	              "Total entries aged: %lld\n"
	              "Total frames received: %lld\n"
	              "Total frames received in error: %lld\n"
	              "Total frames discarded: %lld\n"
	              "Total unrecognized TLVs: %lld\n"
	              "Total neighbors added: %lld\n"
	              "Total neighbors deleted: %lld\n"
	              "Total frames dropped at the socket: %lld\n"
	              "Total transmit errors: %lld\n"
	              "Total DCBX TLVs ignored (not the DCBX peer): %lld\n"
	              "Total multiple DCBX peers: %lld\n"
	              "Total DCBX peer changes: %lld\n"
	              "Total DCBX PFC refused (not realisable): %lld\n"
	              "Total frames of a neighbour from another address: "
	              "%lld\n",
	              (long long)show_lldp_int(c, "frames-out"),
	              (long long)show_lldp_int(c, "ageouts"),
	              (long long)show_lldp_int(c, "frames-in"),
	              (long long)show_lldp_int(c, "malformed"),
	              (long long)show_lldp_int(c, "discarded"),
	              (long long)show_lldp_int(c, "unknown-tlvs"),
	              (long long)show_lldp_int(c, "neighbors-added"),
	              (long long)show_lldp_int(c, "neighbors-deleted"),
	              (long long)show_lldp_int(c, "socket-drops"),
	              (long long)show_lldp_int(c, "tx-errors"),
	              (long long)show_lldp_int(c, "dcbx-ignored"),
	              (long long)show_lldp_int(c, "multiple-peers"),
	              (long long)show_lldp_int(c, "dcbx-peer-changes"),
	              (long long)show_lldp_int(c, "dcbx-refused"),
	              (long long)show_lldp_int(c, "msap-conflicts"));
}

void show_lldp_text_traffic(struct json_object *data, struct strbuf *out)
{
	struct json_object *a = show_get(data, "interfaces");
	size_t n = json_object_is_type(a, json_type_array)
	               ? json_object_array_length(a)
	               : 0;
	char label[96];

	strbuf_puts(out, "LLDP traffic statistics:\n\n");
	show_text_counters(show_get(data, "total"), out);
	for (size_t i = 0; i < n; i++) {
		struct json_object *p = json_object_array_get_idx(a, i);

		show_lldp_label(p, label, sizeof(label));
		strbuf_printf(out, "\nInterface %s:\n", label);
		show_text_counters(p, out);
	}
}

void show_lldp_text_lldp_if(struct json_object *data, struct strbuf *out)
{
	char label[96];

	show_lldp_label(data, label, sizeof(label));
	strbuf_printf(out, "Interface Information: %s\n", label);
	if (!show_get_bool(data, "running")) {
		strbuf_printf(out, "LLDP not running: %s\n",
		              show_get_str(data, "reason"));
		return;
	}
	strbuf_printf(out,
	              "Enable (tx/rx/dcbx): %s/%s/%s\n"
	              "Tx timer: %lld s, Hold time: %lld s, Reinit: %lld s\n"
	              "Neighbors: %lld\n",
	              show_get_bool(data, "transmit") ? "Y" : "N",
	              show_get_bool(data, "receive") ? "Y" : "N",
	              show_get_bool(data, "dcbx-tlvs") ? "Y" : "N",
	              (long long)show_lldp_int(data, "timer"),
	              (long long)show_lldp_int(data, "holdtime"),
	              (long long)show_lldp_int(data, "reinit"),
	              (long long)show_lldp_int(data, "neighbors"));
	show_text_counters(show_get(data, "counters"), out);
}

static const char *show_yn(struct json_object *o, const char *key)
{
	struct json_object *v = show_get(o, key);

	if (!v)
		return "-";
	return json_object_get_boolean(v) ? "yes" : "no";
}

static void show_text_ets_line(const char *what, struct json_object *e,
                               struct strbuf *out)
{
	struct json_object *bw = show_get(e, "bandwidth");
	struct json_object *pt = show_get(e, "priority-tc");
	struct json_object *tsa = show_get(e, "tsa");

	if (!e) {
		strbuf_printf(out, "    %-15s -\n", what);
		return;
	}
	strbuf_printf(out, "    %-15s", what);
	for (int i = 0; i < 8; i++)
		strbuf_printf(
		    out, " tc%d:%d%%%s", i,
		    (int)json_object_get_int(json_object_array_get_idx(bw, i)),
		    strcmp(json_object_get_string(
		               json_object_array_get_idx(tsa, i)),
		           "strict")
		        ? ""
		        : "(strict)");
	strbuf_puts(out, "  prio->tc:");
	for (int i = 0; i < 8; i++)
		strbuf_printf(
		    out, "%d",
		    (int)json_object_get_int(json_object_array_get_idx(pt, i)));
	strbuf_puts(out, "\n");
}

static void show_text_apps(const char *what, struct json_object *a,
                           struct strbuf *out)
{
	size_t n = json_object_is_type(a, json_type_array)
	               ? json_object_array_length(a)
	               : 0;

	strbuf_printf(out, "    %-15s", what);
	if (!a)
		strbuf_puts(out, " -");
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(a, i);

		strbuf_printf(out, " %s %lld->%lld",
		              show_get_str(e, "selector"),
		              (long long)show_lldp_int(e, "protocol"),
		              (long long)show_lldp_int(e, "priority"));
	}
	if (a && !n)
		strbuf_puts(out, " none");
	strbuf_puts(out, "\n");
}

static void show_text_result(struct json_object *f, struct strbuf *out)
{
	strbuf_printf(out, "    Willing (local/peer): %s/%s\n",
	              show_yn(f, "local-willing"), show_yn(f, "peer-willing"));
	strbuf_printf(out, "    Result: %s\n", show_get_str(f, "result"));
}

void show_lldp_text_dcbx(struct json_object *data, struct strbuf *out)
{
	struct json_object *pfc = show_get(data, "pfc");
	struct json_object *ets = show_get(data, "ets");
	struct json_object *app = show_get(data, "app");
	struct json_object *peer = show_get(data, "peer");
	bool lldpad = !strcmp(show_get_str(data, "agent"), "lldpad");
	char label[96], list[64];

	show_lldp_label(data, label, sizeof(label));
	strbuf_printf(out, "Interface %s\n", label);
	if (!show_get_bool(data, "running")) {
		strbuf_printf(out, "  DCBX not running: %s\n",
		              show_get_str(data, "reason"));
		return;
	}
	strbuf_printf(out,
	              "  DCBX: IEEE 802.1Qaz, TLVs %s, last change %lld "
	              "s ago\n",
	              show_get_bool(data, "dcbx-tlvs") ? "sent"
	                                               : "not sent "
	                                                 "(no lldp "
	                                                 "tlv-select "
	                                                 "dcbxp)",
	              (long long)show_lldp_int(data, "last-change"));
	if (lldpad)
		strbuf_puts(out, "  Agent: lldpad (roced sets its admin values "
		                 "and reads back its outcome)\n");
	if (lldpad && (show_get(pfc, "peer") || show_get(ets, "peer") ||
	               show_get(app, "peer")))
		strbuf_puts(out, "  Peer: heard by lldpad (lldptool -t -n)\n");
	else if (peer)
		strbuf_printf(out, "  Peer: %s port %s (%s)%s\n",
		              show_get_str(peer, "chassis-id"),
		              show_get_str(peer, "port-id"),
		              show_get_str(peer, "system-name"),
		              show_get_bool(data, "peer-speaks-cee")
		                  ? ", peer speaks CEE"
		                  : "");
	else
		strbuf_puts(out, "  Peer: none\n");
	if (!strcmp(show_get_str(data, "peer-state"), "multiple peers"))
		strbuf_printf(out,
		              "  Peer state: multiple peers (%lld LLDP "
		              "neighbours): %s\n",
		              (long long)show_lldp_int(data, "neighbors"),
		              peer ? "DCBX keeps the peer above and ignores "
		                     "the others"
		                   : "no DCBX peer until one neighbour is "
		                     "left");
	strbuf_puts(out, "  PFC:\n");
	show_list_text(show_get(show_get(pfc, "local"), "enabled"), list,
	               sizeof(list));
	strbuf_printf(out, "    %-15s %s\n",
	              "Local admin:", list[0] ? list : "none");
	if (show_get(pfc, "peer")) {
		show_list_text(show_get(show_get(pfc, "peer"), "enabled"), list,
		               sizeof(list));
		strbuf_printf(out, "    %-15s %s\n",
		              "Peer:", list[0] ? list : "none");
	} else {
		strbuf_printf(out, "    %-15s -\n", "Peer:");
	}
	show_list_text(show_get(pfc, "oper"), list, sizeof(list));
	strbuf_printf(out, "    %-15s %s (mode %s%s%s)\n",
	              "Oper:", list[0] ? list : "off",
	              show_get_str(pfc, "mode"),
	              show_get_str(pfc, "oper-reason")[0] ? ", PFC off: " : "",
	              show_get_str(pfc, "oper-reason"));
	show_text_result(pfc, out);
	if (show_get_str(pfc, "local-why")[0])
		strbuf_printf(out, "    %-15s %s\n",
		              "Here:", show_get_str(pfc, "local-why"));
	if (show_get_str(pfc, "peer-why")[0])
		strbuf_printf(out, "    %-15s %s\n",
		              "At the peer:", show_get_str(pfc, "peer-why"));
	strbuf_puts(out, "  ETS:\n");
	show_text_ets_line("Local admin:", show_get(ets, "local"), out);
	show_text_ets_line("Peer:", show_get(ets, "peer"), out);
	show_text_ets_line(
	    "Peer recommend:", show_get(ets, "peer-recommendation"), out);
	show_text_ets_line("Oper:", show_get(ets, "oper"), out);
	show_text_result(ets, out);
	strbuf_puts(out, "  APP:\n");
	show_text_apps("Local admin:", show_get(app, "local"), out);
	show_text_apps("Peer:", show_get(app, "peer"), out);
	show_text_apps("Oper:", show_get(app, "oper"), out);
	strbuf_printf(out, "    Result: %s%s\n", show_get_str(app, "result"),
	              show_get_bool(app, "adopted") ? " (peer entries realised)"
	                                            : "");
}
