/* show: the answers to rocesh's show commands, as JSON (json-c) and as
 * NX-OS style text.
 *
 * Each show command has one builder that turns the daemon's data (the
 * running policy, the plans the daemon applied to the ports shown, and
 * what the kernel reported for them) into a JSON object, and one text renderer
 * that reads only that object: the `json` form and the text form cannot tell
 * different stories. The running-config text is the exception: it is
 * cmd_running_config(), the text that pasted into rocesh recreates the
 * policy, while its JSON is the policy in the config file's structure.
 *
 * JSON keys are lowercase words joined by '-', as in roced.conf(5).
 * Counters are integers; a counter the kernel or hardware does not offer
 * is null, never 0. The data gathering (netlink dumps, dcbnl) is the
 * caller's (control/ctl_cmd.c): everything here is pure, so tests build
 * answers from fixed inputs.
 *
 * The policy JSON (show running-config / startup-config json):
 *   {"class-map": {"qos": [{"name", "match": "all"|"any", "cos": [..],
 *                           "dscp": [..]}],
 *                  "network-qos": [{"name", "qos-group": [..]}]},
 *    "policy-map": {"qos": [{"name", "class": [{"name",
 *                                              "set-qos-group"}]}],
 *                   "queuing": [{"name", "class": [{"name",
 *                       "priority-level", "bandwidth-remaining-percent",
 *                       "random-detect": {"minimum-threshold",
 *                       "maximum-threshold" (bytes), "drop-probability",
 *                       "weight", "ecn"}}]}],
 *                   "network-qos": [{"name", "class": [{"name",
 *                       "pause-pfc-cos": [..], "mtu"}]}]},
 *    "system-qos": {"service-policy": {"network-qos", "qos-input",
 *                                      "queuing-output"}},
 *    "interface": [{"name", "alias", "priority-flow-control": {"mode",
 *                   "watch-dog-interval"}, "qdisc-takeover",
 *                   "service-policy": {"qos-input", "queuing-output"}}],
 *    "priority-flow-control": {"watch-dog-interval", "watch-dog":
 *        {"interval", "shutdown-multiplier",
 *         "internal-interface-multiplier"}, "auto-restore-multiplier",
 *        "fixed-restore-multiplier"}}
 * Absent settings are absent keys; value lists are arrays of integers.
 *
 * A setting that other answers show too has its roced.conf name there,
 * e.g. show queuing pfc-queue:
 *   {"watch-dog-interval", "forced-watch-dog", "interval" (ms, as
 *    watch-dog.interval above), "shutdown-multiplier",
 *    "auto-restore-multiplier", "fixed-restore-multiplier",
 *    "internal-interface-multiplier", "running", "note",
 *    "interface": [{"name", "alias", "watch-dog", "priorities": [..],
 *                   "counters": "software"|"hardware", "counters-error"
 *                   (a hardware port whose counters cannot be read),
 *                   "state", "shutdown-priorities": [..] (those whose
 *                   queue is shut: NX-OS's per-CoS flags),
 *                   "interface-multiplier", "queues": [{"qos-group",
 *                   "priorities", "state", "storms", "restores",
 *                   "drained-packets", "dropped-packets" (since the last
 *                   clear), "storm-drained-packets",
 *                   "storm-dropped-packets" (the last storm's own),
 *                   "restore-backoff", "last-storm-s-ago",
 *                   "last-restore-s-ago"}]}]}
 *
 * show interface priority-flow-control gives a hardware port's counters
 * with "counters": where they come from ("dcbnl", "dcbnl, ethtool
 * (mlx5)"), and per priority (detail) what the driver counts; what it
 * does not is null. Without any, "counters-reason" says why.
 *
 * show queuing interface gives each port, beside its egress queues
 * ("queue"), NX-OS's ingress side: "ingress": [{"qos-group" (7 down to
 * 0), "priorities" (its no-drop ones), "pause-buffer-size",
 * "pause-threshold", "resume-threshold" (bytes; null for a group that
 * is not no-drop or whose buffer nothing sets), "thresholds":
 * "configured"|"default" (software PFC's own)|null}], and
 * "pfc-statistics": {"tx-ppp", "rx-ppp", "cos": [{"cos", "qos-group",
 * "pfc", "tx-pause", "rx-pause" ("active"|"inactive", null where no
 * one reports it), "tx-count", "rx-count"}]}.
 *
 * Each port of show queuing interface, show policy-map interface and show
 * interface priority-flow-control says what it really holds:
 *   "state": "programmed" | "not-programmed" | "refused"
 *   (plan_port_state_name()), "reason": why it is not programmed (null
 *   when it is), and with "refused" "foreign-root-qdisc": {"kind",
 *   "handle": "1:"}, the root qdisc roced did not create that is in the
 *   way. A port whose plan has a root qdisc that the kernel no longer
 *   holds (someone removed it since) is not programmed either.
 */
#ifndef ROCED_SHOW_H
#define ROCED_SHOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "agent/deadlock.h"
#include "agent/lldp_agent.h"
#include "agent/qcarry.h"
#include "agent/qstats.h"
#include "agent/lldpad_client.h"
#include "cmd/cmd_show.h"
#include "ctl/ctl.h"
#include "model/caps.h"
#include "model/plan.h"
#include "model/policy.h"
#include "pfcwd/pfcwd.h"
#include "base/strbuf.h"
#include "nlmsg/tc_stats.h"

/* Does Q look at ports (plans and kernel state)? */
bool show_query_ports(const struct show_query *q);

/* What the kernel holds for one port, gathered by the caller. */
struct show_port_state {
	bool exists;                     /* the link is there */
	bool stats;                      /* queue counters were read */
	bool queue_seen[POLICY_NQUEUES]; /* the queue's leaf exists */
	struct tc_stats_counters queue[POLICY_NQUEUES];  /* its leaf's */
	char leaf_kind[POLICY_NQUEUES][TC_MSG_KIND_MAX]; /* as the kernel has */
	/* RED inside the leaf (a no-drop queue's software PFC tbf): its
	 * marks and drops, which the leaf's counters do not tell apart. */
	bool inner_red[POLICY_NQUEUES];
	struct tc_stats_counters inner[POLICY_NQUEUES];
	/* The queue's counters since roced started, carried over its
	 * leaves' replacements (agent/qcarry.h): the metrics' counters,
	 * which must never go down. QTOTAL_OK false: not carried (no
	 * agents), the leaf's own are shown. */
	bool qtotal_ok[POLICY_NQUEUES];
	struct qcarry_count qtotal[POLICY_NQUEUES];
	/* Its watermarks (agent/qcarry.h), with QTOTAL_OK: the largest
	 * backlog seen since a clear, the last textfile write, the start. */
	uint32_t qpeak[POLICY_NQUEUES][QCARRY_NPEAKS];
	/* A no-drop queue's xoff (0: none), its time above it (ms) and
	 * the most bytes above it read (agent/qcarry.h). */
	uint32_t qxoff[POLICY_NQUEUES];
	double qabove_ms[POLICY_NQUEUES];
	uint32_t qheadroom[POLICY_NQUEUES];
	bool dcb;       /* hardware port: the IEEE state was read */
	uint8_t pfc_en; /* PFC priorities the driver has on */
	uint64_t requests[8], indications[8]; /* pause frames sent, received */
	/* Another process keeps changing roced's objects on the port: roced
	 * stopped repairing them for now (registry/ports.h). */
	bool contested;
	/* The qdisc dump (STATS) found roced's root qdisc on the link. */
	bool roced_root;
	/* What roced's last apply made of the port (its registry entry):
	 * STATE, REASON when it is not programmed, and the foreign root
	 * qdisc in the way when it was refused. */
	enum plan_port_state state;
	char reason[512];
	char foreign_kind[TC_MSG_KIND_MAX];
	uint32_t foreign_handle;
	/* --- software PFC's counters and the PFC watchdog --- */
	bool softpfc; /* software PFC runs on the port (its counters) */
	uint64_t rx_ppp, tx_ppp; /* PFC frames received, sent */
	uint64_t rx_pause[8], rx_xon[8], tx_pause[8], tx_xon[8];
	/* Time each priority was paused: on software ports what the PFC
	 * frames received asked for (softpfc_paused_ms), on hardware ports
	 * the driver's pause duration. */
	double held_ms[8];
	uint8_t held; /* priorities held now */
	bool wd;      /* the watchdog watches the port */
	bool wd_internal;
	uint8_t wd_queues;   /* its no-drop queues */
	uint8_t wd_prios[8]; /* each queue's priorities */
	struct pfcwd_queue wdq[8];
	double now_ms; /* CLOCK_MONOTONIC when the state was read */
	/* Link pause of hardware ports (ethtool PAUSE_GET): PAUSE when
	 * the settings were read, PAUSE_COUNTED when the driver counts
	 * pause frames too. */
	bool pause, pause_rx, pause_tx, pause_counted;
	uint64_t rx_pause_frames, tx_pause_frames;
	/* Hardware DCB ports' PFC counters (agent/hwcnt.h), when HWCNT:
	 * per priority in rx_pause/tx_pause (sums in rx_ppp/tx_ppp),
	 * rx_xon/tx_xon for the priorities of HW_XON, held_ms (the pause
	 * time the driver counted) for those of HW_DUR; HW_DRIVER the
	 * driver whose statistics named them (NULL: dcbnl alone). Else
	 * HW_WHY says why there are none. WD_HW_ERR: the watchdog's last
	 * read of them failed (-errno). */
	bool hwcnt;
	uint8_t hw_xon, hw_dur;
	bool hw_dcb;
	const char *hw_driver;
	char hw_why[96];
	int wd_hw_err;
	/* Link pause of software ports (roced's frame layer, with SOFTPFC):
	 * whether roced honours it (LP_RX) and sends it (LP_TX: a bridge
	 * port that feeds others), its frames (XON among them) and the
	 * time it held the port. */
	bool lp_rx, lp_tx, lp_held;
	uint64_t lp_rx_frames, lp_rx_xon, lp_tx_frames, lp_tx_xon;
	double lp_held_ms;
	/* roced's packet socket on the port (FRAMES): frames the kernel
	 * dropped there before roced read them (PACKET_STATISTICS). */
	bool frames;
	uint64_t rx_dropped;
	/* Software PFC's transmit side (TXPOLL): the xoff/xon it pauses
	 * and resumes at per priority (XOFF_SET: those of XOFF_CONF came
	 * from a configured pause buffer, the others are its defaults),
	 * and the priorities it pauses out of this port now (TX_PAUSED). */
	bool txpoll;
	uint8_t xoff_set, xoff_conf, tx_paused;
	uint32_t xoff[8], xon[8];
	/* The link's own counters (LINK_STATS, rtnetlink's): bytes and
	 * packets each way, and the multicast the driver counted received
	 * (most count broadcast among it; none counts multicast sent). */
	bool link_stats;
	uint64_t rx_bytes, rx_packets, rx_multicast, tx_bytes, tx_packets;
	/* ... and what the kernel dropped on the link outside every qdisc
	 * (struct link_stats: the input backlog's drops among them). */
	uint64_t rx_discards, tx_discards;
	/* PFC deadlock (DL when software PFC's transmit side polls the
	 * port): its wait edges and cycles per priority, and the node's
	 * ID (DL_SELF), the last in each cycle's chain. */
	bool dl;
	struct deadlock_port dlp;
	struct pfcdl_id dl_self;
};

/* roced_apply_duration_seconds' finite buckets, 1 ms to 10 s (a pass
 * applies a port in a millisecond or so; a reload of hundreds of ports,
 * or a slow driver, takes seconds). */
#define SHOW_APPLY_BUCKETS 13

/* What the daemon counts of itself, for show metrics (times in seconds
 * since the Unix epoch). The start's load of the file counts as the last
 * load until a reload; RELOADS_* count the reloads alone. */
struct show_daemon_stats {
	double start_unix;
	uint64_t reloads_ok, reloads_failed;
	bool last_load_ok;
	double last_load_unix;
	/* Every pass that compiled and applied (or tried to), and the
	 * netlink writes they made. */
	uint64_t applies, apply_failures, kernel_writes;
	double apply_seconds;
	/* The passes by duration: APPLY_LE[i] took at most the i-th bound
	 * of roced_apply_duration_seconds' buckets (and more than the one
	 * before); show_stats_apply() counts a pass. */
	uint64_t apply_le[SHOW_APPLY_BUCKETS];
};

/* Count a pass of SECONDS in S (its total, sum and bucket). */
void show_stats_apply(struct show_daemon_stats *s, double seconds);

/* `show version` (show_version.c): what the caller gathered. */
struct show_version_port {
	const char *name, *alias;
	bool hw_dcb;  /* the driver implements dcbnl */
	bool planned; /* LAYOUT is that of the plan applied to it */
	enum plan_layout layout;
	/* Where its pauses are honoured, and why (the applied plan's) */
	enum plan_pfc_path pfc_path;
	const char *pfc_path_why;
};

struct show_version {
	const char *sysname, *release, *machine; /* uname() */
	double uptime_s;                         /* since roced started */
	double kernel_uptime_s;                  /* since the kernel booted */
	const char *preset; /* the --caps preset taken, NULL: probed */
	struct caps kernel_caps;
	bool kpfc; /* the kernel path allowed (--kernel-pfc) */
	/* eBPF contributor counting: 1 counting, 0 not started, -errno
	 * refused. */
	int contrib;
	const struct show_version_port *ports;
	size_t nports;
};

struct show_input {
	const struct policy *policy;
	/* The global part of the plan last applied (the registry's; NULL:
	 * none yet): what the watchdog's show heads its table with. */
	const struct plan_global *global;
	const char *config_file;
	/* For show_query_ports(): each port shown (NPORTS of them), the
	 * plan roced applied to it and its kernel state. */
	const struct plan_port *const *plans;
	const struct show_port_state *state;
	size_t nports;
	/* The LLDP agent, for the lldp shows (NULL: none runs). */
	const struct lldp_agent *lldp;
	/* The lldpad backend, for `show lldp dcbx` (NULL: none). */
	const struct lldpad_client *lldpad;
	/* The daemon's own counters, for show metrics (NULL: none). */
	const struct show_daemon_stats *stats;
	/* The one sampler of the queues' counters, for show metrics' count
	 * of its dumps (NULL: none). */
	const struct qstats *qs;
	/* For `show version` (NULL: the caller gathered nothing). */
	const struct show_version *version;
};

/* Build the answer to Q: *DATA (a new JSON object, json_object_put() it)
 * and TEXT. Returns 0, or -1 with "% ..." in ERR (an unknown name, an
 * interface that is neither configured nor planned). */
int show_answer(const struct show_query *q, const struct show_input *in,
                struct json_object **data, struct strbuf *text, char *err,
                size_t errlen);

/* The policy in the config file's structure (see above). SECTION: NULL
 * for everything, "qos" without interfaces, or an interface's name or
 * alias for that interface alone. */
struct json_object *show_policy_json(const struct policy *p,
                                     const char *section);

/* show_text.c: the NX-OS renderers, one per JSON answer. */
void show_text_class_map(struct json_object *data, struct strbuf *out);
void show_text_policy_map(struct json_object *data, struct strbuf *out);
void show_text_policy_map_if(struct json_object *data, struct strbuf *out);
void show_text_queuing_if(struct json_object *data, struct strbuf *out);
void show_text_pfc_if(struct json_object *data, struct strbuf *out);
/* The same, then each software port's per-priority counters. */
void show_text_pfc_if_detail(struct json_object *data, struct strbuf *out);
/* `show interface flowcontrol`, NX-OS's table. */
void show_text_fc_if(struct json_object *data, struct strbuf *out);
void show_text_pfc_queue(struct json_object *data, bool detail,
                         struct strbuf *out);

/* show metrics (show_metrics.c): the families, each with its samples:
 *   {"format": "prometheus text 0.0.4", "family": [{"name", "type":
 *    "counter"|"gauge"|"histogram", "help", "samples": [{"labels":
 *    {"port": ..., ...}, "value", "suffix": "_sum"|"_count" (summaries)}]
 *   }]}
 * and its text, the exposition format (families without samples left
 * out). The table's size and its family names, for tests. */
struct json_object *show_metrics_json(const struct show_input *in);
void show_text_metrics(struct json_object *data, struct strbuf *out);
size_t show_metrics_count(void);
const char *show_metrics_name(size_t i);
/* `show version` (show_version.c). */
struct json_object *show_version_json(const struct show_version *v);
void show_text_version(struct json_object *data, struct strbuf *out);
/* show_counters.c: `show interface [X] counters`, NX-OS's tables of
 * octets and unicast, multicast and broadcast packets each way, then
 * the pause frames each way (PFC and 802.3x together, as NX-OS's show
 * interface counts "Rx pause"). JSON: {"interface": [{"name", "alias",
 * "exists", "in-octets", "in-packets", "in-ucast-packets",
 * "in-mcast-packets", "in-bcast-packets", "out-octets", "out-packets",
 * "out-ucast-packets", "out-mcast-packets", "out-bcast-packets",
 * "rx-pause", "tx-pause", "rx-pfc", "tx-pfc", "rx-link-pause",
 * "tx-link-pause"}], "note"}: null where Linux does not count it. */
struct json_object *show_counters_json(const struct show_input *in);
/* show metrics' roced_link_drops_total samples (the collector's shape). */
void show_counters_drops_metric(const struct show_input *in, unsigned arg,
                                struct json_object *out);
void show_text_if_counters(struct json_object *data, struct strbuf *out);

/* `clear qos statistics`: NX-OS resets its queuing counters, the
 * kernel's cannot be reset. The daemon keeps what they were at the clear
 * (BASE, a port's state as a show read it) and takes it off what a later
 * show reads (ST): the queues' packets, bytes, drops, marks and
 * overlimits and the PFC frames. A queue whose packets went below its
 * base was replaced since (a new leaf counts from 0): its counters are
 * shown as they are, and so is any other counter below its base.
 * Depths are not counters and stay. */
void show_base_apply(const struct show_port_state *base,
                     struct show_port_state *st);

/* The LLDP and DCBX shows (show_lldp.c): -1 for another kind. */
int show_lldp_answer(const struct show_query *q, const struct show_input *in,
                     struct json_object **data, struct strbuf *text);

/* show roce and show roce fabric (show_roce.c): -1 for another kind.
 *   show roce: {"mode": "lossless"|"semi-lossless"|"lossy"|"none",
 *     "edited": [object names that differ from the mode's expansion],
 *     "lldp", "trust": ["dscp", "pcp"], "application-tlv": [{"selector",
 *     "protocol", "priority"}], "congestion-control": [{"queue", "mode",
 *     "minimum-threshold", "maximum-threshold" (bytes),
 *     "drop-probability"}], "pfc": {"priorities", "receive-only"},
 *     "traffic-classes": [{"priority", "tc", "application", "tsa",
 *     "bandwidth"}], "interface": [{"name", "alias", "pfc-mode",
 *     "pfc-enabled", "dcbx"}]}
 *   show roce fabric: {"interface": [{"name", "alias", "neighbor":
 *     {"chassis-id", "port-id", "system-name", "dcbx"} or null,
 *     "local": {"pfc-enabled", "pfc-result", "roce-priority", "mtu"},
 *     "peer": {"pfc-advertised", "willing", "pfc-enabled", "pfc-result",
 *     "roce-priority", "max-frame-size"}, "mismatches": [{"kind",
 *     "detail"}]}], "mismatches": count} */
int show_roce_answer(const struct show_query *q, const struct show_input *in,
                     struct json_object **data, struct strbuf *text);
/* The fabric mismatches of IN's ports (show roce fabric's, for a metric:
 * port, kind, detail), appended to OUT. Returns how many, or -ENOMEM. */
struct fabric_list;
int show_roce_mismatches(const struct show_input *in, struct fabric_list *out);

#endif
