/* show_metrics: `show metrics`, roced's state as Prometheus metrics (the
 * text exposition format 0.0.4), and the same text for node_exporter's
 * textfile collector (core/mfile.c).
 *
 * The families are the rows of one table: a name, a type, a help text
 * and the collector that adds the family's samples from the show input
 * (the same per-port view the other shows read). Adding a family is
 * adding a row, and its collector when no existing one fits. The JSON
 * answer is the list of families with their samples; the text is
 * rendered from it alone (base/prom.h), as every show's text is. The
 * queue and watchdog collectors are in show_metrics_queue.c.
 *
 * Conventions (roced(8), METRICS): counters end in _total, times are in
 * seconds and sizes in bytes, the labels are port (the Linux name),
 * priority (0-7), queue (the qos-group, 0-7), direction (rx, tx) and
 * feature (ets, pfc, app). A counter roced does not have on a port (a
 * driver that does not count XON) has no sample there, never a 0; a
 * configured port whose link is gone has only roced_port_info,
 * roced_port_present 0 and its mode.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/prom.h"
#include "plan/fabric.h"
#include "show/show.h"
#include "show/show_build.h"
#include "show/show_int.h"
#include "show/show_metrics_int.h"

static const char *const sm_dir[2] = {"rx", "tx"};

/* --- the daemon --- */

enum sm_daemon_arg {
	SM_START,
	SM_LAST_OK,
	SM_LAST_TIME,
	SM_WRITES,
	SM_QDUMPS,
	SM_APPLY_FAILURES,
	SM_RELOADS,
	SM_APPLY,
};

/* The upper bounds of roced_apply_duration_seconds' buckets, with the
 * le label each is written as (+Inf is the count). */
static const struct {
	double le;
	const char *text;
} sm_apply_le[SHOW_APPLY_BUCKETS] = {
    {0.001, "0.001"}, {0.0025, "0.0025"}, {0.005, "0.005"}, {0.01, "0.01"},
    {0.025, "0.025"}, {0.05, "0.05"},     {0.1, "0.1"},     {0.25, "0.25"},
    {0.5, "0.5"},     {1, "1"},           {2.5, "2.5"},     {5, "5"},
    {10, "10"},
};

void show_stats_apply(struct show_daemon_stats *s, double seconds)
{
	s->applies++;
	s->apply_seconds += seconds;
	for (unsigned i = 0; i < SHOW_APPLY_BUCKETS; i++)
		if (seconds <= sm_apply_le[i].le) {
			s->apply_le[i]++;
			break;
		}
}

static void sm_build(const struct show_input *in, unsigned arg,
                     struct json_object *out)
{
	(void)in;
	(void)arg;
	sm_int(out, 1, "version", SHOW_BUILD_VERSION, NULL);
}

static void sm_daemon(const struct show_input *in, unsigned arg,
                      struct json_object *out)
{
	const struct show_daemon_stats *s = in->stats;

	if (!s)
		return;
	switch ((enum sm_daemon_arg)arg) {
	case SM_START:
		sm_dbl(out, NULL, s->start_unix, NULL);
		break;
	case SM_LAST_OK:
		sm_int(out, s->last_load_ok, NULL);
		break;
	case SM_LAST_TIME:
		sm_dbl(out, NULL, s->last_load_unix, NULL);
		break;
	case SM_WRITES:
		sm_int(out, (int64_t)s->kernel_writes, NULL);
		break;
	case SM_QDUMPS:
		if (!in->qs)
			break;
		sm_int(out, (int64_t)in->qs->dumps, "kind", "qdisc", NULL);
		sm_int(out, (int64_t)in->qs->class_dumps, "kind", "class",
		       NULL);
		sm_int(out, (int64_t)in->qs->shared, "kind", "shared", NULL);
		break;
	case SM_APPLY_FAILURES:
		sm_int(out, (int64_t)s->apply_failures, NULL);
		break;
	case SM_RELOADS:
		sm_int(out, (int64_t)s->reloads_ok, "result", "success", NULL);
		sm_int(out, (int64_t)s->reloads_failed, "result", "failure",
		       NULL);
		break;
	case SM_APPLY: {
		uint64_t cum = 0;

		for (unsigned i = 0; i < SHOW_APPLY_BUCKETS; i++) {
			cum += s->apply_le[i];
			sm_int_sfx(out, "_bucket", (int64_t)cum, "le",
			           sm_apply_le[i].text, NULL);
		}
		sm_int_sfx(out, "_bucket", (int64_t)s->applies, "le", "+Inf",
		           NULL);
		sm_dbl(out, "_sum", s->apply_seconds, NULL);
		sm_int_sfx(out, "_count", (int64_t)s->applies, NULL);
		break;
	}
	}
}

/* --- ports --- */

static void sm_port_info(const struct show_input *in, unsigned arg,
                         struct json_object *out)
{
	(void)arg;
	for (size_t i = 0; i < in->nports; i++) {
		const struct plan_port *pp = in->plans[i];

		sm_int(out, 1, "port", pp->ifname, "alias", pp->alias, "dcb",
		       pp->dcb.software ? "software" : "hardware", NULL);
	}
}

static void sm_port_present(const struct show_input *in, unsigned arg,
                            struct json_object *out)
{
	(void)arg;
	for (size_t i = 0; i < in->nports; i++)
		sm_int(out, in->state[i].exists, "port", in->plans[i]->ifname,
		       NULL);
}

static void sm_port_programmed(const struct show_input *in, unsigned arg,
                               struct json_object *out)
{
	(void)arg;
	SM_EACH_PORT(in, i)
	sm_int(out, in->state[i].state == PLAN_PORT_PROGRAMMED, "port",
	       in->plans[i]->ifname, NULL);
}

static void sm_pfc_mode(const struct show_input *in, unsigned arg,
                        struct json_object *out)
{
	(void)arg;
	for (size_t i = 0; i < in->nports; i++)
		for (int m = 0; m < POLICY_PFC_NMODES; m++)
			sm_int(out, (int)in->plans[i]->pfc_mode == m, "port",
			       in->plans[i]->ifname, "mode",
			       policy_pfc_mode_name((enum policy_pfc_mode)m),
			       NULL);
}

/* The priorities with PFC operational: what the driver holds on a
 * hardware port whose DCB state was read, else the plan's. */
static uint8_t sm_pfc_en(const struct plan_port *pp,
                         const struct show_port_state *st)
{
	if (pp->pfc_awaiting_dcbx)
		return 0;
	if (!pp->dcb.software && st->dcb)
		return st->pfc_en;
	return pp->dcb.pfc_en;
}

static void sm_pfc_oper(const struct show_input *in, unsigned arg,
                        struct json_object *out)
{
	SM_EACH_PORT(in, i)
	{
		uint8_t en = sm_pfc_en(in->plans[i], &in->state[i]);

		if (!arg) {
			sm_int(out, en != 0, "port", in->plans[i]->ifname,
			       NULL);
			continue;
		}
		for (unsigned p = 0; p < 8; p++)
			sm_int(out, (en >> p) & 1, "port", in->plans[i]->ifname,
			       "priority", sm_digits[p], NULL);
	}
}

/* Which PFC counter a family of sm_pfc is. */
enum sm_pfc_arg {
	SM_PFC_PAUSE,
	SM_PFC_XON,
	SM_PFC_PAUSED_S,
	SM_PFC_PAUSED,
};

/* Does ST count PFC frames per priority (software PFC's own counters,
 * or a hardware port's driver read through hwcnt)? */
static bool sm_pfc_counted(const struct plan_port *pp,
                           const struct show_port_state *st)
{
	return pp->dcb.software ? st->softpfc : st->hwcnt;
}

static void sm_pfc(const struct show_input *in, unsigned arg,
                   struct json_object *out)
{
	SM_EACH_PORT(in, i)
	{
		const struct plan_port *pp = in->plans[i];
		const struct show_port_state *st = &in->state[i];
		bool hw = !pp->dcb.software;

		if (!sm_pfc_counted(pp, st))
			continue;
		for (unsigned p = 0; p < 8; p++) {
			const char *port = pp->ifname, *prio = sm_digits[p];
			const uint64_t *c[2];

			switch ((enum sm_pfc_arg)arg) {
			case SM_PFC_PAUSE:
			case SM_PFC_XON:
				if (arg == SM_PFC_XON && hw &&
				    !(st->hw_xon & (1u << p)))
					break;
				c[0] = arg == SM_PFC_XON ? st->rx_xon
				                         : st->rx_pause;
				c[1] = arg == SM_PFC_XON ? st->tx_xon
				                         : st->tx_pause;
				for (unsigned d = 0; d < 2; d++)
					sm_int(out, (int64_t)c[d][p], "port",
					       port, "priority", prio,
					       "direction", sm_dir[d], NULL);
				break;
			case SM_PFC_PAUSED_S:
				if (hw && !(st->hw_dur & (1u << p)))
					break;
				sm_dbl(out, NULL, st->held_ms[p] / 1000.0,
				       "port", port, "priority", prio, NULL);
				break;
			case SM_PFC_PAUSED:
				/* no driver says whether it is paused now */
				if (!hw)
					sm_int(out, (st->held >> p) & 1, "port",
					       port, "priority", prio, NULL);
				break;
			}
		}
	}
}

enum sm_lp_arg {
	SM_LP_FRAMES,
	SM_LP_XON,
	SM_LP_PAUSED_S,
};

/* 802.3x link pause: software ports' frame layer, or a hardware port's
 * driver when it counts (ethtool pause statistics). */
static void sm_link_pause(const struct show_input *in, unsigned arg,
                          struct json_object *out)
{
	SM_EACH_PORT(in, i)
	{
		const struct plan_port *pp = in->plans[i];
		const struct show_port_state *st = &in->state[i];
		bool soft = pp->dcb.software && st->softpfc;
		uint64_t v[2];

		if (arg == SM_LP_FRAMES && soft) {
			v[0] = st->lp_rx_frames;
			v[1] = st->lp_tx_frames;
		} else if (arg == SM_LP_FRAMES && st->pause_counted) {
			v[0] = st->rx_pause_frames;
			v[1] = st->tx_pause_frames;
		} else if (arg == SM_LP_XON && soft) {
			v[0] = st->lp_rx_xon;
			v[1] = st->lp_tx_xon;
		} else {
			if (arg == SM_LP_PAUSED_S && soft)
				sm_dbl(out, NULL, st->lp_held_ms / 1000.0,
				       "port", pp->ifname, NULL);
			continue;
		}
		for (unsigned d = 0; d < 2; d++)
			sm_int(out, (int64_t)v[d], "port", pp->ifname,
			       "direction", sm_dir[d], NULL);
	}
}

/* --- LLDP and DCBX (roced's own agent) --- */

enum sm_lldp_arg {
	SM_DCBX_PRESENT,
	SM_DCBX_WILLING,
	SM_DCBX_AGREED,
	SM_LLDP_FRAMES,
	SM_LLDP_DISCARDED,
	SM_LLDP_AGEOUTS,
	SM_LLDP_NEIGHBORS,
	SM_LLDP_MALFORMED,
	SM_LLDP_UNKNOWN_TLVS,
	SM_LLDP_TX_ERRORS,
	SM_LLDP_NBR_CHANGES,
	SM_DCBX_IGNORED,
	SM_DCBX_MULTI_PEERS,
	SM_DCBX_PEER_CHANGES,
	SM_DCBX_REFUSED,
	SM_LLDP_MSAP_CONFLICTS,
};

/* DCBX agreed on a feature: both ends run the same values. */
static bool sm_agreed(enum dcbx_why why)
{
	return why == DCBX_WHY_AGREED || why == DCBX_WHY_ADOPTED ||
	       why == DCBX_WHY_PEER_WILLING;
}

static void sm_dcbx(const struct lldp_port *lp, const char *port,
                    enum sm_lldp_arg arg, struct json_object *out)
{
	unsigned count;
	const struct lldp_nbr *peer = lldp_port_peer(lp, &count);

	switch (arg) {
	case SM_DCBX_PRESENT:
		/* a neighbour that sends DCBX TLVs (IEEE or legacy CEE); one
		 * with plain LLDP is only roced_lldp_neighbors' */
		sm_int(out,
		       peer && (peer->dcbx.has_pfc || peer->dcbx.has_ets_cfg ||
		                peer->dcbx.has_ets_rec || peer->dcbx.has_app ||
		                peer->pdu.dcbx.cee),
		       "port", port, NULL);
		break;
	case SM_DCBX_WILLING:
		if (peer && peer->dcbx.has_ets_cfg)
			sm_int(out, peer->dcbx.ets_cfg.willing, "port", port,
			       "feature", "ets", NULL);
		if (peer && peer->dcbx.has_pfc)
			sm_int(out, peer->dcbx.pfc.willing, "port", port,
			       "feature", "pfc", NULL);
		break;
	case SM_DCBX_AGREED:
		sm_int(out, lp->has_oper && sm_agreed(lp->oper.ets_why), "port",
		       port, "feature", "ets", NULL);
		sm_int(out, lp->has_oper && lp->oper.pfc_agreed, "port", port,
		       "feature", "pfc", NULL);
		sm_int(out,
		       lp->has_oper && (lp->oper.app_why == DCBX_WHY_AGREED ||
		                        lp->oper.app_why == DCBX_WHY_ADOPTED),
		       "port", port, "feature", "app", NULL);
		break;
	case SM_LLDP_FRAMES:
		sm_int(out, (int64_t)lp->c.frames_in, "port", port, "direction",
		       "rx", NULL);
		sm_int(out, (int64_t)lp->c.frames_out, "port", port,
		       "direction", "tx", NULL);
		break;
	case SM_LLDP_DISCARDED:
		sm_int(out, (int64_t)lp->c.discarded, "port", port, NULL);
		break;
	case SM_LLDP_AGEOUTS:
		sm_int(out, (int64_t)lp->c.ageouts, "port", port, NULL);
		break;
	case SM_LLDP_NEIGHBORS:
		sm_int(out, count, "port", port, NULL);
		break;
	case SM_LLDP_MALFORMED:
		sm_int(out, (int64_t)lp->c.malformed, "port", port, NULL);
		break;
	case SM_LLDP_UNKNOWN_TLVS:
		sm_int(out, (int64_t)lp->c.unknown_tlvs, "port", port, NULL);
		break;
	case SM_LLDP_TX_ERRORS:
		sm_int(out, (int64_t)lp->c.tx_errors, "port", port, NULL);
		break;
	case SM_LLDP_NBR_CHANGES:
		sm_int(out, (int64_t)lp->c.nbr_added, "port", port, "change",
		       "added", NULL);
		sm_int(out, (int64_t)lp->c.nbr_deleted, "port", port, "change",
		       "deleted", NULL);
		break;
	case SM_DCBX_IGNORED:
		sm_int(out, (int64_t)lp->c.dcbx_ignored, "port", port, NULL);
		break;
	case SM_DCBX_MULTI_PEERS:
		sm_int(out, (int64_t)lp->c.multi_peers, "port", port, NULL);
		break;
	case SM_DCBX_PEER_CHANGES:
		sm_int(out, (int64_t)lp->c.peer_changes, "port", port, NULL);
		break;
	case SM_DCBX_REFUSED:
		sm_int(out, (int64_t)lp->c.dcbx_refused, "port", port, NULL);
		break;
	case SM_LLDP_MSAP_CONFLICTS:
		sm_int(out, (int64_t)lp->c.msap_conflicts, "port", port, NULL);
		break;
	}
}

/* Frames the kernel dropped at roced's packet socket on the port (LLDP,
 * PFC and link pause share it) before roced read them: show lldp
 * traffic's and show interface priority-flow-control detail's
 * socket-drops. Ports without such a socket have no sample. */
static void sm_socket(const struct show_input *in, unsigned arg,
                      struct json_object *out)
{
	(void)arg;
	SM_EACH_PORT(in, i)
	{
		if (in->state[i].frames)
			sm_int(out, (int64_t)in->state[i].rx_dropped, "port",
			       in->plans[i]->ifname, NULL);
	}
}

static void sm_lldp(const struct show_input *in, unsigned arg,
                    struct json_object *out)
{
	if (!in->lldp)
		return;
	SM_EACH_PORT(in, i)
	{
		const struct lldp_port *lp =
		    lldp_agent_find(in->lldp, in->plans[i]->ifname);

		if (lp && lp->running)
			sm_dcbx(lp, in->plans[i]->ifname, (enum sm_lldp_arg)arg,
			        out);
	}
}

/* show roce fabric's mismatches, one sample per port and kind: 0 where
 * the link is fine, so that an alert sees a mismatch appear and go. */
static void sm_fabric(const struct show_input *in, unsigned arg,
                      struct json_object *out)
{
	struct fabric_list l = {0};

	(void)arg;
	if (!in->lldp || show_roce_mismatches(in, &l) < 0) {
		fabric_list_free(&l);
		return;
	}
	SM_EACH_PORT(in, i)
	{
		const char *port = in->plans[i]->ifname;

		for (unsigned k = 0; k < FABRIC_NKINDS; k++) {
			bool on = false;

			for (size_t j = 0; j < l.n && !on; j++)
				on = l.v[j].kind == (enum fabric_kind)k &&
				     !strcmp(l.v[j].port, port);
			sm_int(out, on, "port", port, "kind",
			       fabric_kind_name((enum fabric_kind)k), NULL);
		}
	}
	fabric_list_free(&l);
}

/* --- the table --- */

struct show_metric {
	const char *name;
	enum prom_type type;
	const char *help;
	void (*collect)(const struct show_input *in, unsigned arg,
	                struct json_object *out);
	unsigned arg;
};

static const struct show_metric show_metrics[] = {
    {"roced_build_info", PROM_GAUGE,
     "roced's build: 1, with its version as a label", sm_build, 0},
    {"roced_start_time_seconds", PROM_GAUGE,
     "When roced started, in seconds since the Unix epoch", sm_daemon,
     SM_START},
    {"roced_config_reloads_total", PROM_COUNTER,
     "Reloads of the configuration file (SIGHUP, reload config) by "
     "result; a failed one keeps the running configuration",
     sm_daemon, SM_RELOADS},
    {"roced_config_last_reload_success", PROM_GAUGE,
     "1 when the last load of the configuration file (the start or a "
     "reload) succeeded, 0 when it was refused",
     sm_daemon, SM_LAST_OK},
    {"roced_config_last_reload_timestamp_seconds", PROM_GAUGE,
     "When the configuration file was last loaded (the start or a reload, "
     "whatever its result), in seconds since the Unix epoch",
     sm_daemon, SM_LAST_TIME},
    {"roced_apply_duration_seconds", PROM_HISTOGRAM,
     "Time of roced's passes that compile the policy and apply it to the "
     "kernel (start, reload, rocesh lines, link events, DCBX, repairs, "
     "watchdog actions)",
     sm_daemon, SM_APPLY},
    {"roced_apply_failures_total", PROM_COUNTER,
     "Passes that could not apply (a policy that did not compile, a "
     "kernel that could not be read)",
     sm_daemon, SM_APPLY_FAILURES},
    {"roced_kernel_writes_total", PROM_COUNTER,
     "Netlink writes roced made to the kernel (tc objects, DCB, MTU, "
     "link pause settings)",
     sm_daemon, SM_WRITES},
    {"roced_qdisc_reads_total", PROM_COUNTER,
     "Reads of the queues' tc counters by the one sampler the watchdog, "
     "the pause transmit side and the shows share: dumps of every qdisc "
     "(qdisc), of one port's classes (class), and reads a recent dump "
     "served (shared)",
     sm_daemon, SM_QDUMPS},
    {"roced_port_info", PROM_GAUGE,
     "A configured port: 1, with its NX-OS alias and how its DCB is "
     "realised (hardware, software) as labels",
     sm_port_info, 0},
    {"roced_port_present", PROM_GAUGE,
     "1 when the configured port's link exists in roced's network "
     "namespace",
     sm_port_present, 0},
    {"roced_port_programmed", PROM_GAUGE,
     "1 when the kernel holds the plan roced applied to the port",
     sm_port_programmed, 0},
    {"roced_pfc_mode", PROM_GAUGE,
     "The port's priority-flow-control mode: 1 for the mode configured, "
     "0 for the others",
     sm_pfc_mode, 0},
    {"roced_pfc_operational", PROM_GAUGE,
     "1 when PFC is operational on the port on some priority (mode on, "
     "or mode auto once DCBX agreed)",
     sm_pfc_oper, 0},
    {"roced_pfc_priority_operational", PROM_GAUGE,
     "1 when PFC is operational on the priority", sm_pfc_oper, 1},
    {"roced_pfc_pause_frames_total", PROM_COUNTER,
     "PFC frames pausing the priority (pause time above 0), received (rx) "
     "or sent (tx); on hardware ports as the driver counts them",
     sm_pfc, SM_PFC_PAUSE},
    {"roced_pfc_xon_frames_total", PROM_COUNTER,
     "PFC frames resuming the priority (XON, pause time 0), received (rx) "
     "or sent (tx); on hardware ports only where the driver counts them "
     "apart",
     sm_pfc, SM_PFC_XON},
    {"roced_pfc_paused_seconds_total", PROM_COUNTER,
     "Time the PFC frames received asked the priority to be paused (on "
     "software ports their pause quanta at the port's speed, honoured or "
     "not); on hardware ports only where the driver counts it",
     sm_pfc, SM_PFC_PAUSED_S},
    {"roced_pfc_paused", PROM_GAUGE,
     "1 while PFC frames received hold the priority (software ports)", sm_pfc,
     SM_PFC_PAUSED},
    {"roced_link_pause_frames_total", PROM_COUNTER,
     "802.3x link pause frames (XON among them), received (rx) or sent "
     "(tx)",
     sm_link_pause, SM_LP_FRAMES},
    {"roced_link_xon_frames_total", PROM_COUNTER,
     "802.3x link pause frames with pause time 0 (XON), received (rx) or "
     "sent (tx) (software ports)",
     sm_link_pause, SM_LP_XON},
    {"roced_link_paused_seconds_total", PROM_COUNTER,
     "Time link pause received held the port (software ports)", sm_link_pause,
     SM_LP_PAUSED_S},
    {"roced_queue_packets_total", PROM_COUNTER,
     "Packets the queue (qos-group) sent", sm_queue, SM_Q_PACKETS},
    {"roced_queue_bytes_total", PROM_COUNTER, "Bytes the queue sent", sm_queue,
     SM_Q_BYTES},
    {"roced_queue_drops_total", PROM_COUNTER,
     "Packets the queue dropped (tail and WRED drops)", sm_queue, SM_Q_DROPS},
    {"roced_queue_ecn_marks_total", PROM_COUNTER,
     "Packets WRED marked ECN CE in the queue (queues with WRED)", sm_queue,
     SM_Q_ECN},
    {"roced_queue_backlog_bytes", PROM_GAUGE, "Bytes in the queue now",
     sm_queue, SM_Q_BACKLOG_BYTES},
    {"roced_queue_backlog_packets", PROM_GAUGE, "Packets in the queue now",
     sm_queue, SM_Q_BACKLOG_PACKETS},
    {"roced_queue_watermark_bytes", PROM_GAUGE,
     "The largest backlog the queue's readings saw (the sampler's, every "
     "2 ms while traffic flows, and each show's): since the metrics "
     "textfile was last written (kind periodic) or since roced started "
     "(persistent)",
     sm_queue, SM_Q_WATERMARK},
    {"roced_queue_above_xoff_seconds_total", PROM_COUNTER,
     "Time the no-drop queue's readings found it at or above its xoff "
     "(software ports that pause their feeders), from such a reading to "
     "the next",
     sm_queue, SM_Q_ABOVE_XOFF},
    {"roced_queue_headroom_peak_bytes", PROM_GAUGE,
     "The most bytes above xoff a reading found in the no-drop queue "
     "since roced started: the headroom a burst took before the pause "
     "stopped it",
     sm_queue, SM_Q_HEADROOM},
    {"roced_queue_no_drop", PROM_GAUGE,
     "1 when the queue is a no-drop class (its CoS is paused by PFC)", sm_queue,
     SM_Q_NO_DROP},
    {"roced_pfcwd_storms_total", PROM_COUNTER,
     "PFC storms the watchdog detected on the no-drop queue", sm_wd,
     SM_WD_STORMS},
    {"roced_pfcwd_restores_total", PROM_COUNTER,
     "Times the watchdog restored the queue after a storm", sm_wd,
     SM_WD_RESTORES},
    {"roced_pfcwd_drained_packets_total", PROM_COUNTER,
     "Packets flushed from the queue when a storm was detected", sm_wd,
     SM_WD_DRAINED},
    {"roced_pfcwd_dropped_packets_total", PROM_COUNTER,
     "Packets the watchdog's action dropped while the queue was shut", sm_wd,
     SM_WD_DROPPED},
    {"roced_pfcwd_storm", PROM_GAUGE,
     "1 while the queue is shut by the watchdog for a storm", sm_wd,
     SM_WD_STORM},
    {"roced_pfcwd_state", PROM_GAUGE,
     "The watchdog's state of the queue: 1 for the state it is in, 0 for "
     "the others",
     sm_wd, SM_WD_STATE},
    {"roced_dcbx_peer_present", PROM_GAUGE,
     "1 when the port's LLDP neighbour sends DCBX TLVs (IEEE or CEE); a "
     "neighbour without DCBX counts in roced_lldp_neighbors only",
     sm_lldp, SM_DCBX_PRESENT},
    {"roced_dcbx_peer_willing", PROM_GAUGE,
     "1 when the DCBX peer advertises the feature as willing", sm_lldp,
     SM_DCBX_WILLING},
    {"roced_dcbx_agreed", PROM_GAUGE,
     "1 when DCBX agreed on the feature with the peer (the same values, "
     "or one side adopted the other's)",
     sm_lldp, SM_DCBX_AGREED},
    {"roced_lldp_frames_total", PROM_COUNTER,
     "LLDP frames received (rx) and sent (tx)", sm_lldp, SM_LLDP_FRAMES},
    {"roced_lldp_frames_discarded_total", PROM_COUNTER,
     "LLDP frames received and discarded (malformed among them)", sm_lldp,
     SM_LLDP_DISCARDED},
    {"roced_lldp_ageouts_total", PROM_COUNTER,
     "LLDP neighbours whose information aged out", sm_lldp, SM_LLDP_AGEOUTS},
    {"roced_lldp_neighbors", PROM_GAUGE, "LLDP neighbours on the port now",
     sm_lldp, SM_LLDP_NEIGHBORS},
    {"roced_lldp_frames_malformed_total", PROM_COUNTER,
     "LLDP frames received malformed (over the receive buffer among them)",
     sm_lldp, SM_LLDP_MALFORMED},
    {"roced_lldp_unknown_tlvs_total", PROM_COUNTER,
     "TLVs of received LLDP frames roced does not know", sm_lldp,
     SM_LLDP_UNKNOWN_TLVS},
    {"roced_lldp_transmit_errors_total", PROM_COUNTER,
     "LLDP frames roced could not send", sm_lldp, SM_LLDP_TX_ERRORS},
    {"roced_lldp_neighbor_changes_total", PROM_COUNTER,
     "LLDP neighbours added and deleted (change: added, deleted)", sm_lldp,
     SM_LLDP_NBR_CHANGES},
    {"roced_dcbx_ignored_frames_total", PROM_COUNTER,
     "LLDP frames of a neighbour other than the DCBX peer, ignored for "
     "DCBX",
     sm_lldp, SM_DCBX_IGNORED},
    {"roced_dcbx_multiple_peers_total", PROM_COUNTER,
     "Times the port entered the multiple peers state", sm_lldp,
     SM_DCBX_MULTI_PEERS},
    {"roced_dcbx_peer_changes_total", PROM_COUNTER,
     "Times the DCBX peer sent other DCBX values than before", sm_lldp,
     SM_DCBX_PEER_CHANGES},
    {"roced_dcbx_refused_total", PROM_COUNTER,
     "Times roced refused PFC the DCBX outcome enabled on priorities the "
     "port cannot hold",
     sm_lldp, SM_DCBX_REFUSED},
    {"roced_lldp_msap_conflicts_total", PROM_COUNTER,
     "LLDP frames ignored because a known neighbour's chassis and port ID "
     "came from another source address (a spoof, or a replaced NIC)",
     sm_lldp, SM_LLDP_MSAP_CONFLICTS},
    {"roced_socket_drops_total", PROM_COUNTER,
     "Frames the kernel dropped at roced's packet socket on the port "
     "(LLDP, PFC and link pause) before roced read them",
     sm_socket, 0},
    {"roced_link_drops_total", PROM_COUNTER,
     "Frames the kernel dropped on the port outside every qdisc (the input "
     "backlog's drops: a veth counts in dir tx what its peer refused)",
     show_counters_drops_metric, 0},
    {"roced_fabric_mismatch", PROM_GAUGE,
     "1 when show roce fabric finds the link's ends disagree in this way "
     "(kind: pfc-one-end, pfc-priorities, app-roce, mtu, no-dcbx, "
     "no-lldp)",
     sm_fabric, 0},
};

size_t show_metrics_count(void)
{
	return sizeof(show_metrics) / sizeof(show_metrics[0]);
}

const char *show_metrics_name(size_t i)
{
	return i < show_metrics_count() ? show_metrics[i].name : NULL;
}

struct json_object *show_metrics_json(const struct show_input *in)
{
	struct json_object *o = json_object_new_object();
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < show_metrics_count(); i++) {
		const struct show_metric *m = &show_metrics[i];
		struct json_object *f = json_object_new_object();
		struct json_object *s = json_object_new_array();

		show_add_str(f, "name", m->name);
		show_add_str(f, "type", prom_type_name(m->type));
		show_add_str(f, "help", m->help);
		m->collect(in, m->arg, s);
		json_object_object_add(f, "samples", s);
		json_object_array_add(a, f);
	}
	show_add_str(o, "format", "prometheus text 0.0.4");
	json_object_object_add(o, "family", a);
	return o;
}

/* --- the text, from the JSON alone --- */

#define SM_LABELS_MAX 8

static void sm_text_sample(const char *name, struct json_object *s,
                           struct strbuf *out)
{
	struct json_object *labels = show_get(s, "labels");
	struct json_object *v = show_get(s, "value");
	struct prom_label l[SM_LABELS_MAX];
	char value[PROM_VALUE_MAX];
	size_t n = 0;

	if (!v)
		return; /* a value nobody has: no sample */
	if (json_object_is_type(v, json_type_int))
		prom_int(value, json_object_get_int64(v));
	else
		prom_double(value, json_object_get_double(v));
	if (labels && json_object_is_type(labels, json_type_object)) {
		json_object_object_foreach(labels, k, lv)
		{
			if (n == SM_LABELS_MAX)
				break;
			l[n].name = k;
			l[n++].value = json_object_get_string(lv);
		}
	}
	prom_sample(out, name,
	            show_get_str(s, "suffix")[0] ? show_get_str(s, "suffix")
	                                         : NULL,
	            l, n, value);
}

void show_text_metrics(struct json_object *data, struct strbuf *out)
{
	struct json_object *a = show_get(data, "family");
	size_t n = a ? json_object_array_length(a) : 0;

	for (size_t i = 0; i < n; i++) {
		struct json_object *f = json_object_array_get_idx(a, i);
		struct json_object *s = show_get(f, "samples");
		const char *name = show_get_str(f, "name");
		int type = prom_type_parse(show_get_str(f, "type"));
		size_t ns = s ? json_object_array_length(s) : 0;

		/* A family without samples says nothing: leave it out. */
		if (!ns || type < 0)
			continue;
		prom_family(out, name, (enum prom_type)type,
		            show_get_str(f, "help"));
		for (size_t j = 0; j < ns; j++)
			sm_text_sample(name, json_object_array_get_idx(s, j),
			               out);
	}
}
