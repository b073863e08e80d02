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
 *                   "state"}]}
 *
 * show interface priority-flow-control gives a hardware port's counters
 * with "counters": where they come from ("dcbnl", "dcbnl, ethtool
 * (mlx5)"), and per priority (detail) what the driver counts; what it
 * does not is null. Without any, "counters-reason" says why.
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

#include "agent/lldp_agent.h"
#include "agent/lldpad_client.h"
#include "cmd/cmd_show.h"
#include "ctl/ctl.h"
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
	double held_ms[8]; /* time each priority was held */
	uint8_t held;      /* priorities held now */
	bool wd;           /* the watchdog watches the port */
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
};

struct show_input {
	const struct policy *policy;
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

/* The LLDP and DCBX shows (show_lldp.c): -1 for another kind. */
int show_lldp_answer(const struct show_query *q, const struct show_input *in,
                     struct json_object **data, struct strbuf *text);

#endif
