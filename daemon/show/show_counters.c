/* show_counters: `show interface [X] counters` in NX-OS's layout, and
 * the baseline `clear qos statistics` leaves for the queuing shows (see
 * show.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "show/show.h"
#include "show/show_int.h"

/* --- clear qos statistics --- */

/* CUR less BASE, or CUR when the counter went below its base (it
 * started again). */
static uint64_t show_since(uint64_t cur, uint64_t base)
{
	return cur >= base ? cur - base : cur;
}

static uint32_t show_since32(uint32_t cur, uint32_t base)
{
	return cur >= base ? cur - base : cur;
}

/* The counters of one qdisc since BASE; the queue depth is now's. */
static void show_base_tc(const struct tc_stats_counters *base,
                         struct tc_stats_counters *c)
{
	/* A leaf that sent fewer packets than at the clear is a new leaf:
	 * everything it counts is since it came. */
	if (c->packets < base->packets)
		return;
	c->packets -= base->packets;
	c->bytes = show_since(c->bytes, base->bytes);
	c->drops = show_since32(c->drops, base->drops);
	c->requeues = show_since32(c->requeues, base->requeues);
	c->overlimits = show_since32(c->overlimits, base->overlimits);
	c->red_early = show_since32(c->red_early, base->red_early);
	c->red_pdrop = show_since32(c->red_pdrop, base->red_pdrop);
	c->red_other = show_since32(c->red_other, base->red_other);
	c->red_marked = show_since32(c->red_marked, base->red_marked);
}

void show_base_apply(const struct show_port_state *base,
                     struct show_port_state *st)
{
	for (unsigned q = 0; q < POLICY_NQUEUES; q++) {
		if (st->queue_seen[q] && base->queue_seen[q])
			show_base_tc(&base->queue[q], &st->queue[q]);
		if (st->inner_red[q] && base->inner_red[q])
			show_base_tc(&base->inner[q], &st->inner[q]);
	}
	st->rx_ppp = show_since(st->rx_ppp, base->rx_ppp);
	st->tx_ppp = show_since(st->tx_ppp, base->tx_ppp);
	for (unsigned p = 0; p < 8; p++) {
		st->rx_pause[p] =
		    show_since(st->rx_pause[p], base->rx_pause[p]);
		st->tx_pause[p] =
		    show_since(st->tx_pause[p], base->tx_pause[p]);
		st->rx_xon[p] = show_since(st->rx_xon[p], base->rx_xon[p]);
		st->tx_xon[p] = show_since(st->tx_xon[p], base->tx_xon[p]);
		st->requests[p] =
		    show_since(st->requests[p], base->requests[p]);
		st->indications[p] =
		    show_since(st->indications[p], base->indications[p]);
	}
}

/* --- show interface counters --- */

static void show_add_opt(struct json_object *o, const char *key, bool have,
                         uint64_t v)
{
	if (have)
		show_add_int(o, key, (int64_t)v);
	else
		json_object_object_add(o, key, NULL);
}

static uint64_t show_sum8(const uint64_t *v)
{
	uint64_t s = 0;

	for (unsigned i = 0; i < 8; i++)
		s += v[i];
	return s;
}

/* One port's counters: the link's, and its pause frames (PFC from
 * software PFC or the driver, 802.3x from roced's frame layer or the
 * driver's pause statistics). */
static struct json_object *show_counters_port(const struct plan_port *pp,
                                              const struct show_port_state *st)
{
	struct json_object *o = json_object_new_object();
	bool ls = st->link_stats;
	bool soft = pp->dcb.software && st->softpfc;
	bool pfc = soft || (!pp->dcb.software && (st->hwcnt || st->dcb));
	bool lp = soft || (!pp->dcb.software && st->pause_counted);
	uint64_t rx_pfc = 0, tx_pfc = 0, rx_lp = 0, tx_lp = 0;

	show_add_str(o, "name", pp->ifname);
	if (pp->alias[0])
		show_add_str(o, "alias", pp->alias);
	show_add_bool(o, "exists", st->exists);
	show_add_opt(o, "in-octets", ls, st->rx_bytes);
	show_add_opt(o, "in-packets", ls, st->rx_packets);
	/* Linux counts what was received as multicast (broadcast among it,
	 * on most drivers); unicast is the rest. */
	show_add_opt(o, "in-ucast-packets",
	             ls && st->rx_packets >= st->rx_multicast,
	             st->rx_packets - st->rx_multicast);
	show_add_opt(o, "in-mcast-packets", ls, st->rx_multicast);
	json_object_object_add(o, "in-bcast-packets", NULL);
	show_add_opt(o, "out-octets", ls, st->tx_bytes);
	show_add_opt(o, "out-packets", ls, st->tx_packets);
	json_object_object_add(o, "out-ucast-packets", NULL);
	json_object_object_add(o, "out-mcast-packets", NULL);
	json_object_object_add(o, "out-bcast-packets", NULL);
	show_add_opt(o, "in-discards", ls, st->rx_discards);
	show_add_opt(o, "out-discards", ls, st->tx_discards);
	if (pfc && (soft || st->hwcnt)) {
		rx_pfc = st->rx_ppp;
		tx_pfc = st->tx_ppp;
	} else if (pfc) {
		rx_pfc = show_sum8(st->indications);
		tx_pfc = show_sum8(st->requests);
	}
	if (soft) {
		rx_lp = st->lp_rx_frames;
		tx_lp = st->lp_tx_frames;
	} else if (lp) {
		rx_lp = st->rx_pause_frames;
		tx_lp = st->tx_pause_frames;
	}
	show_add_opt(o, "rx-pause", pfc || lp, rx_pfc + rx_lp);
	show_add_opt(o, "tx-pause", pfc || lp, tx_pfc + tx_lp);
	show_add_opt(o, "rx-pfc", pfc, rx_pfc);
	show_add_opt(o, "tx-pfc", pfc, tx_pfc);
	show_add_opt(o, "rx-link-pause", lp, rx_lp);
	show_add_opt(o, "tx-link-pause", lp, tx_lp);
	return o;
}

#define SHOW_CNT_NOTE                                                          \
	"Linux counts the packets and octets each way and the multicast "      \
	"received (broadcast among it, on most drivers): InUcastPkts is "      \
	"what was received less that, and the other casts are --; the "        \
	"packets sent are json's out-packets. RxPause/TxPause are PFC and "    \
	"802.3x pause frames together (json splits them); --: the port "       \
	"counts none that roced can read. InDiscards/OutDiscards are what "    \
	"the kernel dropped on the link outside every qdisc (a veth counts "   \
	"in OutDiscards what its peer's input backlog refused)"

struct json_object *show_counters_json(const struct show_input *in)
{
	struct json_object *o = json_object_new_object();
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < in->nports; i++)
		json_object_array_add(
		    a, show_counters_port(in->plans[i], &in->state[i]));
	json_object_object_add(o, "interface", a);
	show_add_str(o, "note", SHOW_CNT_NOTE);
	return o;
}

/* The port as NX-OS's counter tables name it: Ethernet shortened to
 * Eth, the Linux name where there is no alias. */
static void show_cnt_name(struct json_object *p, char *buf, size_t len)
{
	const char *alias = show_get_str(p, "alias");

	if (!strncmp(alias, "Ethernet", 8))
		snprintf(buf, len, "Eth%s", alias + 8);
	else
		snprintf(buf, len, "%s",
		         alias[0] ? alias : show_get_str(p, "name"));
}

static void show_cnt_value(char *buf, size_t len, struct json_object *o,
                           const char *key)
{
	int64_t v;

	if (show_get_int(o, key, &v))
		snprintf(buf, len, "%" PRId64, v);
	else
		snprintf(buf, len, "--"); /* as NX-OS marks a count it lacks */
}

#define SHOW_CNT_RULE                                                          \
	"--------------------------------------------------------------------" \
	"--------------\n"

/* One of NX-OS's two-column tables: COL1 and COL2 of every port. */
static void show_cnt_table(struct json_object *a, const char *h1,
                           const char *k1, const char *h2, const char *k2,
                           struct strbuf *out)
{
	strbuf_printf(out, "\n" SHOW_CNT_RULE "%-16s%33s%33s\n" SHOW_CNT_RULE,
	              "Port", h1, h2);
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		struct json_object *p = json_object_array_get_idx(a, i);
		char name[96], v1[24], v2[24];

		show_cnt_name(p, name, sizeof(name));
		show_cnt_value(v1, sizeof(v1), p, k1);
		show_cnt_value(v2, sizeof(v2), p, k2);
		strbuf_printf(out, "%-16s%33s%33s\n", name, v1, v2);
	}
}

void show_text_if_counters(struct json_object *data, struct strbuf *out)
{
	struct json_object *a = show_get(data, "interface");

	if (!json_object_is_type(a, json_type_array))
		return;
	show_cnt_table(a, "InOctets", "in-octets", "InUcastPkts",
	               "in-ucast-packets", out);
	show_cnt_table(a, "InMcastPkts", "in-mcast-packets", "InBcastPkts",
	               "in-bcast-packets", out);
	show_cnt_table(a, "OutOctets", "out-octets", "OutUcastPkts",
	               "out-ucast-packets", out);
	show_cnt_table(a, "OutMcastPkts", "out-mcast-packets", "OutBcastPkts",
	               "out-bcast-packets", out);
	show_cnt_table(a, "RxPause", "rx-pause", "TxPause", "tx-pause", out);
	show_cnt_table(a, "InDiscards", "in-discards", "OutDiscards",
	               "out-discards", out);
	if (show_get_str(data, "note")[0])
		strbuf_printf(out, "\nNote: %s.\n", show_get_str(data, "note"));
	strbuf_puts(out, "\n");
}

/* A sample of show metrics (its JSON: labels port and dir, value V). */
static void show_drops_sample(struct json_object *out, const char *port,
                              const char *dir, uint64_t v)
{
	struct json_object *s = json_object_new_object();
	struct json_object *l = json_object_new_object();

	show_add_str(l, "port", port);
	show_add_str(l, "dir", dir);
	json_object_object_add(s, "labels", l);
	json_object_object_add(s, "value", json_object_new_int64((int64_t)v));
	json_object_array_add(out, s);
}

/* show metrics' roced_link_drops_total: each port's discards (show
 * interface counters' InDiscards and OutDiscards), one sample per
 * direction; the ports whose counters could not be read have none. */
void show_counters_drops_metric(const struct show_input *in, unsigned arg,
                                struct json_object *out)
{
	(void)arg;
	for (size_t i = 0; i < in->nports; i++) {
		const struct show_port_state *st = &in->state[i];
		const char *port = in->plans[i]->ifname;

		if (!st->link_stats)
			continue;
		show_drops_sample(out, port, "rx", st->rx_discards);
		show_drops_sample(out, port, "tx", st->tx_discards);
	}
}
