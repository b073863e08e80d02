/* cmd_nxos: the NX-OS commands of rocesh, one table row each, and what the
 * mode, system qos, interface and watchdog commands do to a policy (the
 * class-map and policy-map ones are in cmd_nxos_maps.c, the LLDP, DCBX
 * and link pause ones in cmd_nxos_lldp.c). See cmd_int.h
 * for the row form.
 *
 * The commands are those of the reference Nexus configuration
 * (conf/nxos-roce.txt) plus what roced.conf(5) can hold and NX-OS has
 * no word for: an interface's NX-OS `alias` and `qdisc-takeover`. The help
 * texts follow NX-OS's wording.
 *
 * Rules kept by every action here: check everything before changing
 * anything (a refused line leaves the policy as it was); entering a mode
 * creates its object as NX-OS does; `no` of something that is not there
 * is an error naming it; and a value only this engine can check (an
 * undefined name) is refused with a caret under it. What holds across
 * objects (bandwidth sums, strict with bandwidth, pause vs match) is
 * policy_validate_mode()'s job, which the daemon runs on the result.
 *
 * A show command's name is its protocol name from lib/ctl/ctl.h, the one
 * table roced answers from.
 */
#include "cmd/cmd_int.h"
#include "ctl/ctl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/names.h"
#include "model/setting.h"

/* The policy_find_* lookups are const; the CLI owns the policy it
 * changes, so their results may be written through. */
#define NX_MUT(type, expr) ((type *)(expr))

/* ---- modes ---- */

static int cmd_nx_configure(struct cmd_exec_arg *x)
{
	cmd_ctx_reset(x->ctx);
	x->ctx->mode = CMD_MODE_CONFIG;
	return 0;
}

static int cmd_nx_end(struct cmd_exec_arg *x)
{
	cmd_ctx_reset(x->ctx);
	return 0;
}

static int cmd_nx_exit(struct cmd_exec_arg *x)
{
	struct cmd_ctx *c = x->ctx;

	/* In exec mode rocesh ends the session; nothing changes here. */
	if (c->mode == CMD_MODE_EXEC)
		return 0;
	if (c->mode == CMD_MODE_CONFIG || !c->depth) {
		cmd_ctx_reset(c);
		return 0;
	}
	c->depth--;
	c->path[c->depth][0] = '\0';
	c->mode = cmd_mode_parent(c->mode);
	return 0;
}

static int cmd_nx_system_qos(struct cmd_exec_arg *x)
{
	return cmd_nx_enter(x, CMD_MODE_SYS_QOS, x->pa->canon);
}

/* ---- system qos and interfaces ---- */

/* service-policy type qos input / queuing output / network-qos, in
 * system qos or an interface. */
static int cmd_nx_service_policy(struct cmd_exec_arg *x)
{
	bool sys = x->ctx->mode == CMD_MODE_SYS_QOS;
	struct policy_iface *i = sys ? NULL : cmd_nx_ctx_iface(x);
	size_t pos = 0;
	const char *name = cmd_arg(x->pa, 0, &pos);
	const char *type;
	char *slot;
	bool found;

	if (!sys && !i)
		return -1;
	if (cmd_has(x->pa, "network-qos", NULL)) {
		type = "network-qos";
		slot = x->p->system.network_qos;
		found = name && policy_find_map_nq(x->p, name);
	} else if (cmd_has(x->pa, "queuing", NULL) &&
	           cmd_has(x->pa, "input", NULL)) {
		type = "queuing";
		slot = sys ? x->p->system.queuing_input : i->queuing_input;
		found = name && policy_find_map_queuing(x->p, name);
	} else if (cmd_has(x->pa, "input", NULL)) {
		type = "qos";
		slot = sys ? x->p->system.qos_input : i->qos_input;
		found = name && policy_find_map_qos(x->p, name);
	} else {
		type = "queuing";
		slot = sys ? x->p->system.queuing_output : i->queuing_output;
		found = name && policy_find_map_queuing(x->p, name);
	}
	if (x->pa->negated) {
		if (!slot[0] || (name && strcmp(slot, name))) {
			cmd_fail(x->err, name ? pos : 0,
			         "%% service-policy type %s %s is not attached",
			         type, name ? name : "");
			return -1;
		}
		slot[0] = '\0';
		return 0;
	}
	if (!found)
		return cmd_nx_pmap_missing(x, type, name, pos);
	snprintf(slot, POLICY_NAME_MAX, "%s", name);
	return 0;
}

static int cmd_nx_alias(struct cmd_exec_arg *x)
{
	struct policy_iface *i = cmd_nx_ctx_iface(x);
	size_t pos = 0;
	const char *alias = cmd_arg(x->pa, 0, &pos);

	if (!i)
		return -1;
	if (x->pa->negated) {
		if (!i->alias[0] || (alias && strcasecmp(alias, i->alias))) {
			cmd_fail(x->err, alias ? pos : 0,
			         "%% alias %s is not configured",
			         alias ? alias : "");
			return -1;
		}
		i->alias[0] = '\0';
		return 0;
	}
	snprintf(i->alias, sizeof(i->alias), "%s", alias);
	return 0;
}

static int cmd_nx_pfc_mode(struct cmd_exec_arg *x)
{
	struct policy_iface *i = cmd_nx_ctx_iface(x);
	size_t tlv, at = x->pa->argc - 1;
	bool send_tlv = cmd_has(x->pa, "send-tlv", &tlv);
	const char *mode;
	int m;

	/* `priority-flow-control mode on send-tlv`: the mode before it. */
	if (send_tlv)
		at = tlv - 1;
	mode = x->pa->argv[at];
	m = policy_pfc_mode_parse(mode);
	if (!i)
		return -1;
	if (send_tlv && m != POLICY_PFC_ON) {
		cmd_fail(x->err, x->pa->pos[tlv],
		         "%% send-tlv goes with priority-flow-control mode on "
		         "only");
		return -1;
	}
	if (!x->pa->negated) {
		i->pfc_mode = (enum policy_pfc_mode)m;
		i->pfc_send_tlv = send_tlv;
		return 0;
	}
	i->pfc_send_tlv = false;
	if (m >= 0 && (enum policy_pfc_mode)m != i->pfc_mode) {
		cmd_fail(x->err, x->pa->pos[at],
		         "%% priority-flow-control mode is %s, not %s",
		         policy_pfc_mode_name(i->pfc_mode), mode);
		return -1;
	}
	i->pfc_mode = POLICY_PFC_AUTO;
	return 0;
}

static int cmd_nx_if_watchdog(struct cmd_exec_arg *x)
{
	struct policy_iface *i = cmd_nx_ctx_iface(x);
	const char *v = x->pa->argv[x->pa->argc - 1];

	if (!i)
		return -1;
	if (!x->pa->negated) {
		i->watchdog = !strcmp(v, "on") ? POLICY_ON : POLICY_OFF;
		return 0;
	}
	if (i->watchdog == POLICY_INHERIT) {
		cmd_fail(x->err, 0,
		         "%% priority-flow-control watch-dog-interval is not "
		         "configured on this interface");
		return -1;
	}
	i->watchdog = POLICY_INHERIT;
	return 0;
}

/* ---- the scalar settings of model/setting.h ---- */

/* A row of the settings table: the setting whose NX-OS words are the
 * command's name, in the mode the line is in. A number is set to the
 * typed value (the syntax checked its range) and `no` restores the
 * default, or "not set"; an on/off is set by its word, or by the line
 * alone; an enum by its name. `no X VALUE` must name the value in
 * force. */
int cmd_nx_setting(struct cmd_exec_arg *x)
{
	bool ifm = x->pa->mode != CMD_MODE_CONFIG;
	const struct setting *s = setting_find_nxos(
	    x->pa->name, ifm ? SETTING_INTERFACE : SETTING_GLOBAL);
	struct policy_iface *i = ifm ? cmd_nx_ctx_iface(x) : NULL;
	const char *last = x->pa->argv[x->pa->argc - 1];
	const char *v = cmd_arg(x->pa, 0, NULL);
	void *base;
	uint32_t cur;
	int e;

	if (!s) {
		cmd_fail(x->err, 0, "%% Unknown setting %s", x->pa->name);
		return -1;
	}
	if (ifm && !i)
		return -1;
	base = setting_base(s, x->p, i);
	cur = setting_get(s, base);
	switch (s->type) {
	case SETTING_U32:
		if (x->pa->negated &&
		    cmd_nx_no_value(x,
		                    !(s->flags & SETTING_F_UNSET) || cur != 0,
		                    cur, x->pa->name))
			return -1;
		setting_set(s, base,
		            x->pa->negated || !v
		                ? s->def
		                : (uint32_t)strtoul(v, NULL, 10));
		return 0;
	case SETTING_BOOL:
		if (x->pa->negated)
			setting_set(s, base,
			            (s->flags & SETTING_F_ONOFF) ? s->def : 0);
		else
			setting_set(s, base,
			            !(s->flags & SETTING_F_ONOFF) ||
			                !strcmp(last, "on"));
		return 0;
	case SETTING_ENUM:
		e = s->names->parse(last);
		if (!x->pa->negated) {
			setting_set(s, base, (uint32_t)e);
			return 0;
		}
		if (e >= 0 && (uint32_t)e != cur) {
			cmd_fail(x->err, x->pa->pos[x->pa->argc - 1],
			         "%% %s is %s, not %s", s->nxos,
			         s->names->name((int)cur), last);
			return -1;
		}
		setting_set(s, base, s->def);
		return 0;
	}
	return 0;
}

/* ---- the table ---- */

#define H_SHOW   "Show running system information\n"
#define H_IFNAME "Interface name (Linux name or NX-OS alias)\n"
#define H_ETHIF  "Interface status\nEthernet interface (ethernet 1/1)\n" H_IFNAME
#define H_IFCNT  "Octets, packets and pause frames each way\n"
/* `interface ethernet 1/1`, `interface Ethernet1/1-4, Ethernet1/7` */
#define H_IFMORE "More of the name or list (ethernet 1/1, Ethernet1/7)\n"
#define H_CMAP   "Configure class-map\n"
/* show class-map / policy-map type T */
#define SHTYPES  "(qos|queuing|network-qos)"
#define H_SHTYPE "Type of the maps\nQos maps\nQueuing maps\nNetwork-qos maps\n"
#define H_PMAP   "Configure policy-map\n"
#define H_CTYPE  "Type of the class-map\n"
#define H_PTYPE  "Type of the policy-map\n"
#define H_CNAME  "Class map name (max 63 characters)\n"
#define H_PNAME  "Policy map name (max 63 characters)\n"
#define H_MATCH_MODE                                                           \
	"Logical-AND all matching statements in this class-map\n"              \
	"Logical-OR all matching statements in this class-map\n"
#define H_PFC   "Configure priority flow control\n"
#define H_WDI   "Enable/Disable PFC watch-dog on all queues\n"
#define H_FC    "802.3x flow control (link pause) status and counters\n"
#define H_ONOFF "Enable\nDisable\n"
#define H_FCCFG "Configure interface flowcontrol (802.3x link pause)\n"
#define H_WD    "Configure PFC watch-dog\n"
#define H_MATCH "Configure class-map match criteria\n"
#define H_COS   "IEEE 802.1Q class of service\n"
#define H_COSL  "List of CoS values, e.g. 3 or 0-2,5\n"
#define H_DSCP  "DSCP in IP(v4) and IPv6 packets\n"
#define H_DSCPL "List of DSCP values or names, e.g. 26 or af31,cs3\n"
/* `match dscp 26 28`: NX-OS writes a list with blanks in some releases
 * (up to 8 values), with commas in others. */
#define DSCPMORE                                                               \
	"[DSCPLIST] [DSCPLIST] [DSCPLIST] [DSCPLIST] [DSCPLIST] [DSCPLIST] "   \
	"[DSCPLIST]"
#define COSMORE                                                                \
	"[LIST<0-7>] [LIST<0-7>] [LIST<0-7>] [LIST<0-7>] [LIST<0-7>] "         \
	"[LIST<0-7>] [LIST<0-7>]"
#define H_QG     "Qos-group\n"
#define H_QGL    "List of qos-group values, e.g. 3\n"
#define H_CLASS  "Policy criteria\n"
#define H_QCLASS H_CLASS "Type of the class\nQueuing class\n"
/* The unit words (UNIT) take their help from model/units.c. */
#define H_MINT "Minimum threshold: marking starts above it\nThreshold value\n"
#define H_MAXT                                                                 \
	"Maximum threshold: everything is marked above it\nThreshold value\n"
#define H_QUEUES                                                               \
	"Queue 1\nQueue 2\nQueue 3\nQueue 4\nQueue 5\nQueue 6\nQueue 7\n"      \
	"Default queue (queue 0)\n"
/* A 4-queue Nexus's egress classes: roced's queues 1-3 and 0. */
#define H_QUEUES4                                                              \
	"Queue 1 (4-queue name)\nQueue 2 (4-queue name)\n"                     \
	"Queue 3 (4-queue name)\nDefault queue (4-queue name)\n"
#define QUEUES                                                                 \
	"(c-out-8q-q1|c-out-8q-q2|c-out-8q-q3|c-out-8q-q4|c-out-8q-q5|"        \
	"c-out-8q-q6|c-out-8q-q7|c-out-8q-q-default|"                          \
	"c-in-q1|c-in-q2|c-in-q3|c-in-q4|c-in-q5|c-in-q6|c-in-q7|"             \
	"c-in-q-default|c-out-q1|c-out-q2|c-out-q3|c-out-q-default)"
/* The system-defined ingress classes (Nexus 9000), priority N. */
#define H_INQUEUES                                                             \
	"Ingress queue 1\nIngress queue 2\nIngress queue 3\n"                  \
	"Ingress queue 4\nIngress queue 5\nIngress queue 6\n"                  \
	"Ingress queue 7\nDefault ingress queue (queue 0)\n"
#define H_NQCLASS                                                              \
	H_CLASS "Type of the class\nNetwork-qos class\n"                       \
	        "System class of qos-group 1\nSystem class of qos-group 2\n"   \
	        "System class of qos-group 3\nSystem class of qos-group 4\n"   \
	        "System class of qos-group 5\nSystem class of qos-group 6\n"   \
	        "System class of qos-group 7\n"                                \
	        "Default network-qos class\n"                                  \
	        "System class of qos-group 1 (4-queue name)\n"                 \
	        "System class of qos-group 2 (4-queue name)\n"                 \
	        "System class of qos-group 3 (4-queue name)\n"                 \
	        "Default network-qos class (4-queue name)\n"                   \
	        "Default network-qos class (qos-group 0)\n" H_CNAME
#define NQCLASSES                                                              \
	"(c-8q-nq1|c-8q-nq2|c-8q-nq3|c-8q-nq4|c-8q-nq5|c-8q-nq6|c-8q-nq7|"     \
	"c-8q-nq-default|c-nq1|c-nq2|c-nq3|c-nq-default|class-default|"        \
	"CMAP_NQOS)"
#define H_PBUF                                                                 \
	"Pause (no-drop) configuration\nBuffer of the no-drop class\n"         \
	"Bytes\nPause the sender when the buffer holds this much\nBytes\n"     \
	"Let the sender go when the buffer is down to this\nBytes\n"
#define PBUF                                                                   \
	"pause buffer-size <1-4294967295> pause-threshold <1-4294967295> "     \
	"resume-threshold <1-4294967295>"
#define H_SP  "Configure service policy\n" H_PTYPE
#define H_SPQ "Qos policy\nApply to the input direction\n" H_PNAME
#define H_SPU "Queuing policy\nApply to the output direction\n" H_PNAME
#define H_SPN "Network-qos policy\n" H_PNAME
#define H_SPI                                                                  \
	"Queuing policy\nApply to the input direction (pause "                 \
	"buffers)\n" H_PNAME
/* Accepted for pasted configurations; roced always keeps counters. */
#define H_NOSTATS "Disable statistics (accepted; roced keeps counting)\n"
/* PFCMODE: the modes of model/policy.c, with their help. */
#define H_MODE  "Set PFC mode\n"
#define H_DEBUG "Debugging functions\n"
/* SUBSYS: every name of base/names.c's debug table, with its help. */
#define SUBSYS   "(" NAMES_DEBUG_ALL "|SUBSYS)"
#define H_SUBSYS "All subsystems\n"

#define H_LLDP "Configure LLDP parameters\n"
#define H_FEAT "Enable/Disable features\n"
/* DCBXAGENT: the agents of model/policy.c, with their help. */
#define H_DCBXA                                                                \
	"Data center bridging exchange (roced extension)\n"                    \
	"Who runs DCBX on the port\n"

#define CFG   CMD_M(CMD_MODE_CONFIG)
#define M(x)  CMD_M(CMD_MODE_##x)
#define KCONF CMD_KIND_CONFIG
#define KMODE CMD_KIND_MODE
#define KSHOW CMD_KIND_SHOW
#define KACT  CMD_KIND_ACTION
#define NO    CMD_HELP_NO
/* An interface line: typed in an interface, or kept in a port profile
 * for `inherit port-profile` (cmd.c). */
#define IFP (M(IF) | M(PORT_PROF))

static const struct cmd_def cmd_nxos_table[] = {
    /* exec mode, and shows/actions reachable from every mode */
    {M(EXEC), KMODE, "configure terminal", "configure [terminal]",
     "Enter configuration mode\nConfigure from the terminal\n",
     cmd_nx_configure},
    {CMD_M_ALL, KMODE, "terminal length", "terminal length <0-511>",
     "Set terminal line parameters\nSet number of lines on a screen\n"
     "Number of lines (0: no paging)\n",
     cmd_nx_terminal},
    {CMD_M_ALL, KMODE, "where", "where",
     "Show the mode lines that lead to this mode\n", cmd_nx_where},
    {CMD_M_CONFIGS, KMODE, "end", "end", "Go to exec mode\n", cmd_nx_end},
    {CMD_M_ALL, KMODE, "exit", "exit", "Exit from command interpreter\n",
     cmd_nx_exit},
    {CMD_M_ALL, KSHOW, CTL_WHAT_RUNNING_CONFIG,
     CTL_WHAT_RUNNING_CONFIG " [qos|ipqos|interface IFNAME [all]]",
     H_SHOW "Current operating configuration\nQoS configuration only\n"
            "QoS configuration only (NX-OS's name)\n"
            "One interface's configuration\n" H_IFNAME
            "With the defaults written out\n",
     NULL},
    {CMD_M_ALL, KSHOW, CTL_WHAT_STARTUP_CONFIG, CTL_WHAT_STARTUP_CONFIG,
     H_SHOW "Contents of startup configuration\n", NULL},
    {CMD_M_ALL, KSHOW, CTL_WHAT_VERSION, CTL_WHAT_VERSION,
     H_SHOW "roced's version, build, kernel and what it found it can "
            "do\n",
     NULL},
    {CMD_M_ALL, KSHOW, CTL_WHAT_CLASS_MAP,
     CTL_WHAT_CLASS_MAP " [type " SHTYPES "] [CMAP]",
     H_SHOW "Show class-maps\n" H_SHTYPE H_CNAME, NULL},
    {CMD_M_ALL, KSHOW, CTL_WHAT_POLICY_MAP,
     CTL_WHAT_POLICY_MAP " [system] [type " SHTYPES "] [PMAP]",
     H_SHOW
     "Show policy-maps\nThe policy-maps system qos attaches\n" H_SHTYPE H_PNAME,
     NULL},
    {CMD_M_ALL, KSHOW, CTL_WHAT_POLICY_MAP_IF,
     CTL_WHAT_POLICY_MAP_IF " [IFNAME] [type (qos|queuing)]",
     H_SHOW "Show policy-maps\nPolicy-maps and counters of "
            "interfaces\n" H_IFNAME
            "Type of the policy\nQos policy only\nQueuing policy only\n",
     NULL},
    {CMD_M_ALL, KSHOW, CTL_WHAT_QUEUING_IF, CTL_WHAT_QUEUING_IF " [IFNAME]",
     H_SHOW "Show queuing information\nQueues of interfaces\n" H_IFNAME, NULL},
    {CMD_M_ALL, KSHOW, CTL_WHAT_PFC_QUEUE,
     CTL_WHAT_PFC_QUEUE " [interface IFNAME] [detail]",
     H_SHOW "Show queuing information\nPFC watch-dog queue status\n"
            "One interface\n" H_IFNAME "Detailed information\n",
     NULL},
    {CMD_M_ALL, KSHOW, CTL_WHAT_PFC_IF, CTL_WHAT_PFC_IF " [detail]",
     H_SHOW "Interface status\nPriority flow control status and counters\n"
            "Counters per priority\n",
     NULL},
    /* NX-OS's per-port form, the interface between the words. */
    {CMD_M_ALL, KSHOW, CTL_WHAT_PFC_IF,
     "show interface [ethernet] IFNAME priority-flow-control [detail]",
     H_SHOW H_ETHIF "Priority flow control status and counters\n"
                    "Counters per priority\n",
     NULL},
    {CMD_M_ALL, KSHOW, CTL_WHAT_FC_IF, CTL_WHAT_FC_IF,
     H_SHOW "Interface status\n" H_FC, NULL},
    {CMD_M_ALL, KSHOW, CTL_WHAT_FC_IF,
     "show interface [ethernet] IFNAME flowcontrol", H_SHOW H_ETHIF H_FC, NULL},
    {CMD_M_ALL, KSHOW, CTL_WHAT_IF_COUNTERS, CTL_WHAT_IF_COUNTERS,
     H_SHOW "Interface status\n" H_IFCNT, NULL},
    {CMD_M_ALL, KSHOW, CTL_WHAT_IF_COUNTERS,
     "show interface [ethernet] IFNAME counters", H_SHOW H_ETHIF H_IFCNT, NULL},
    {CMD_M_ALL, KSHOW, CTL_WHAT_LLDP_DCBX, CTL_WHAT_LLDP_DCBX " IFNAME",
     H_SHOW "LLDP information\nDCBX exchange\nOne interface\n" H_IFNAME, NULL},
    {CMD_M_ALL, KSHOW, CTL_WHAT_LLDP_NEIGHBORS,
     CTL_WHAT_LLDP_NEIGHBORS " [interface IFNAME] [detail]",
     H_SHOW "LLDP information\nLLDP neighbor entries\nOne interface\n" H_IFNAME
            "Detailed information\n",
     NULL},
    {CMD_M_ALL, KSHOW, CTL_WHAT_LLDP_TRAFFIC,
     CTL_WHAT_LLDP_TRAFFIC " [interface IFNAME]",
     H_SHOW
     "LLDP information\nLLDP traffic statistics\nOne interface\n" H_IFNAME,
     NULL},
    {CMD_M_ALL, KSHOW, CTL_WHAT_LLDP_IF, CTL_WHAT_LLDP_IF " IFNAME",
     H_SHOW "LLDP information\nLLDP state of one interface\n" H_IFNAME, NULL},
    {CMD_M_ALL, KSHOW, CTL_WHAT_METRICS, CTL_WHAT_METRICS,
     H_SHOW "roced's state as Prometheus metrics (text format 0.0.4)\n", NULL},
    {CMD_M_ALL, KSHOW, CTL_WHAT_ROCE, CTL_WHAT_ROCE,
     H_SHOW "RoCE mode: trust, APP TLV, ECN, PFC and traffic classes\n", NULL},
    {CMD_M_ALL, KSHOW, CTL_WHAT_ROCE_FABRIC, CTL_WHAT_ROCE_FABRIC,
     H_SHOW "RoCE mode: trust, APP TLV, ECN, PFC and traffic classes\n"
            "Each link's neighbour and what breaks no-drop across it\n",
     NULL},
    {CMD_M_ALL, KACT, "copy", "copy running-config startup-config",
     "Copy from one file to another\nCurrent operating configuration\n"
     "Save to the startup configuration\n",
     NULL},
    /* the PFC watchdog's queues */
    {M(EXEC), KACT, "priority-flow-control recover",
     "priority-flow-control recover interface IFNAME qos-group <0-7>",
     H_PFC "Restore a queue the PFC watch-dog shut\n"
           "Interface\n" H_IFNAME "Qos-group of the queue\nQos-group\n",
     NULL},
    {M(EXEC), KACT, "clear queuing pfc-queue",
     "clear queuing pfc-queue [interface IFNAME]",
     "Reset functions\nQueuing counters\nPFC watch-dog statistics\n"
     "One interface\n" H_IFNAME,
     NULL},
    /* The queuing counters of show queuing and show policy-map
     * interface, and the watchdog's (roced keeps a baseline: the
     * kernel's counters cannot be reset). */
    {M(EXEC), KACT, "clear qos statistics",
     "clear qos statistics [interface IFNAME]",
     "Reset functions\nQoS\nQueuing and PFC watch-dog statistics\n"
     "One interface\n" H_IFNAME,
     NULL},
    {CMD_M_ALL, KACT, "debug", "debug " SUBSYS, H_DEBUG H_SUBSYS, NULL},
    {CMD_M_ALL, KACT, "debug", "no debug " SUBSYS, NO H_DEBUG H_SUBSYS, NULL},
    /* On NX-OS `reload` alone reboots the switch: here it must name what
     * it reloads, and exec mode only, where no half-typed change is lost
     * to it. */
    {M(EXEC), KACT, "reload config", "reload config [force|dry-run]",
     "Reload roced's configuration, not the switch\n"
     "Read the configuration file again and apply it\n"
     "Even when the file removes the policy from every port\n"
     "Only show what a reload would change in each port's plan\n",
     NULL},

    /* configuration mode */
    {CFG, KCONF, "class-map type qos",
     "class-map type qos [match-all|match-any] CMAP_QOS",
     H_CMAP H_CTYPE "Configure qos class-map\n" H_MATCH_MODE H_CNAME,
     cmd_nx_cmap_qos},
    {CFG, KCONF, "class-map type qos",
     "no class-map type qos [match-all|match-any] CMAP_QOS",
     NO H_CMAP H_CTYPE "Configure qos class-map\n" H_MATCH_MODE H_CNAME,
     cmd_nx_cmap_qos},
    /* match-any and match-all as NX-OS's own show class-map prints
     * them: a packet has one qos-group, so both mean "any of them". */
    {CFG, KCONF, "class-map type network-qos",
     "class-map type network-qos [match-all|match-any] CMAP_NQOS",
     H_CMAP H_CTYPE "Configure network-qos class-map\n" H_MATCH_MODE H_CNAME,
     cmd_nx_cmap_nqos},
    {CFG, KCONF, "class-map type network-qos",
     "no class-map type network-qos [match-all|match-any] CMAP_NQOS",
     NO H_CMAP H_CTYPE "Configure network-qos class-map\n" H_MATCH_MODE H_CNAME,
     cmd_nx_cmap_nqos},
    /* Nexus 3000/5000: a user name for a queue, `match qos-group N` */
    {CFG, KCONF, "class-map type queuing",
     "[no] class-map type queuing [match-all|match-any] WORD",
     NO H_CMAP H_CTYPE
     "Configure queuing class-map (the name of a queue)\n" H_MATCH_MODE H_CNAME,
     cmd_nx_cmap_que},
    {CFG, KCONF, "policy-map type qos", "policy-map type qos PMAP_QOS",
     H_PMAP H_PTYPE "Configure qos policy-map\n" H_PNAME, cmd_nx_pmap_qos},
    {CFG, KCONF, "policy-map type qos", "no policy-map type qos PMAP_QOS",
     NO H_PMAP H_PTYPE "Configure qos policy-map\n" H_PNAME, cmd_nx_pmap_qos},
    {CFG, KCONF, "policy-map type queuing", "policy-map type queuing PMAP_QUE",
     H_PMAP H_PTYPE "Configure queuing policy-map\n" H_PNAME, cmd_nx_pmap_que},
    {CFG, KCONF, "policy-map type queuing",
     "no policy-map type queuing PMAP_QUE",
     NO H_PMAP H_PTYPE "Configure queuing policy-map\n" H_PNAME,
     cmd_nx_pmap_que},
    {CFG, KCONF, "policy-map type network-qos",
     "policy-map type network-qos PMAP_NQOS",
     H_PMAP H_PTYPE "Configure network-qos policy-map\n" H_PNAME,
     cmd_nx_pmap_nqos},
    {CFG, KCONF, "policy-map type network-qos",
     "no policy-map type network-qos PMAP_NQOS",
     NO H_PMAP H_PTYPE "Configure network-qos policy-map\n" H_PNAME,
     cmd_nx_pmap_nqos},
    {CFG, KMODE, "system qos", "system qos",
     "System management commands\nConfigure system qos\n", cmd_nx_system_qos},
    {CFG, KCONF, "interface", "interface IFNAME [TEXT]",
     "Configure interfaces\n" H_IFNAME H_IFMORE, cmd_nx_interface},
    {CFG, KCONF, "interface", "no interface IFNAME [TEXT]",
     NO "Configure interfaces\n" H_IFNAME H_IFMORE, cmd_nx_interface},
    /* The switch ASIC's buffer carving: accepted, said not realised */
    {CFG, KCONF, "qos dynamic-buffer", "[no] qos dynamic-buffer [TEXT]",
     NO "Quality of service\n"
        "Dynamic buffer sharing of the ASIC (accepted, not realised)\n"
        "Its settings\n",
     cmd_nx_asic_knob},
    {CFG, KCONF, "hardware qos",
     "[no] hardware qos (ing-pg-share|ing-pg-hdrm-reserve|ing-pg-no-min|"
     "dynamic-buffer-sharing) [TEXT]",
     NO "Hardware settings\nQoS settings\n"
        "Shared buffer of ingress priority groups (accepted, not "
        "realised)\n"
        "Headroom of ingress priority groups (accepted, not realised)\n"
        "No minimum buffer for ingress priority groups (accepted, not "
        "realised)\n"
        "Dynamic buffer sharing (accepted, not realised)\nIts settings\n",
     cmd_nx_asic_knob},
    {CFG, KCONF, "port-profile", "port-profile [type ethernet] WORD",
     "Configure a port profile\nType of the profile\n"
     "Ethernet interfaces\nProfile name\n",
     cmd_nx_port_profile},
    {CFG, KCONF, "port-profile", "no port-profile [type ethernet] WORD",
     NO "Configure a port profile\nType of the profile\n"
        "Ethernet interfaces\nProfile name\n",
     cmd_nx_port_profile},
    {M(PORT_PROF), KCONF, "state enabled", "[no] state enabled",
     NO "State of the profile\nEnable the profile\n", cmd_nx_profile_state},
    {M(IF), KCONF, "inherit port-profile", "[no] inherit port-profile WORD",
     NO "Inherit a port profile\nPort profile\nProfile name\n", cmd_nx_inherit},
    {M(IF), KCONF, "channel-group",
     "channel-group <1-4096> [force] [mode (active|passive|on)]",
     "Join a port-channel: take its QoS lines\nPort-channel number\n"
     "Join even when the port's settings differ\nLACP or static\n"
     "LACP, active\nLACP, passive\nStatic\n",
     cmd_nx_channel_group},
    {M(IF), KCONF, "channel-group", "no channel-group [<1-4096>]",
     NO "Leave the port-channel (what the port took stays)\n"
        "Port-channel number\n",
     cmd_nx_channel_group},
    /* the one-command RoCE mode, as NVIDIA Onyx has it */
    {CFG, KCONF, "roce", "roce [ROCEMODE] [force]",
     "RoCE mode: the whole RoCE policy in one command\n"
     "Replace objects of its names that roce did not write\n",
     cmd_nx_roce},
    {CFG, KCONF, "roce", "no roce [ROCEMODE]",
     NO "RoCE mode: the whole RoCE policy in one command\n", cmd_nx_roce},
    {CFG, KCONF, "hardware qos pfc mc-drop", "[no] hardware qos pfc mc-drop",
     NO "Hardware settings\nQoS settings\nPFC settings\n"
        "Drop multicast in no-drop classes\n",
     cmd_nx_setting},
    {CFG, KCONF, "priority-flow-control watch-dog-interval",
     "priority-flow-control watch-dog-interval (on|off)", H_PFC H_WDI H_ONOFF,
     cmd_nx_setting},
    {CFG, KCONF, "priority-flow-control watch-dog-interval",
     "no priority-flow-control watch-dog-interval [on|off]",
     NO H_PFC H_WDI H_ONOFF, cmd_nx_setting},
    {CFG, KCONF, "priority-flow-control watch-dog interval",
     "[no] priority-flow-control watch-dog interval <100-1000>",
     NO H_PFC H_WD "Watch-dog poll interval\nMilliseconds\n", cmd_nx_setting},
    {CFG, KCONF, "priority-flow-control watch-dog interval",
     "no priority-flow-control watch-dog interval",
     NO H_PFC H_WD "Watch-dog poll interval\n", cmd_nx_setting},
    {CFG, KCONF, "priority-flow-control watch-dog shutdown-multiplier",
     "[no] priority-flow-control watch-dog shutdown-multiplier <1-100>",
     NO H_PFC H_WD "Polls a queue stays paused before it is shut\n"
                   "Multiplier of the poll interval\n",
     cmd_nx_setting},
    {CFG, KCONF, "priority-flow-control watch-dog shutdown-multiplier",
     "no priority-flow-control watch-dog shutdown-multiplier",
     NO H_PFC H_WD "Polls a queue stays paused before it is shut\n",
     cmd_nx_setting},
    {CFG, KCONF,
     "priority-flow-control watch-dog internal-interface-multiplier",
     "[no] priority-flow-control watch-dog "
     "internal-interface-multiplier "
     "<1-100>",
     NO H_PFC H_WD "Multiplier for internal interfaces\n"
                   "Multiplier of the poll interval\n",
     cmd_nx_setting},
    {CFG, KCONF,
     "priority-flow-control watch-dog internal-interface-multiplier",
     "no priority-flow-control watch-dog internal-interface-multiplier",
     NO H_PFC H_WD "Multiplier for internal interfaces\n", cmd_nx_setting},
    {CFG, KCONF, "priority-flow-control auto-restore multiplier",
     "[no] priority-flow-control auto-restore multiplier <0-100>",
     NO H_PFC "Restore a shut queue once pause frames stop\n"
              "Multiplier of the poll interval\nMultiplier (0 disables)\n",
     cmd_nx_setting},
    {CFG, KCONF, "priority-flow-control auto-restore multiplier",
     "no priority-flow-control auto-restore multiplier",
     NO H_PFC "Restore a shut queue once pause frames stop\n"
              "Multiplier of the poll interval\n",
     cmd_nx_setting},
    {CFG, KCONF, "priority-flow-control fixed-restore multiplier",
     "[no] priority-flow-control fixed-restore multiplier <0-100>",
     NO H_PFC "Restore a shut queue after a fixed time\n"
              "Multiplier of the poll interval\nMultiplier (0 disables)\n",
     cmd_nx_setting},
    /* the watchdog's action, a roced extension */
    {CFG, KCONF, "priority-flow-control watch-dog action",
     "priority-flow-control watch-dog action PFCWDACT",
     H_PFC H_WD "What a storm does to its queue (roced extension)\n",
     cmd_nx_setting},
    {CFG, KCONF, "priority-flow-control watch-dog action",
     "no priority-flow-control watch-dog action [PFCWDACT]",
     NO H_PFC H_WD "What a storm does to its queue (roced extension)\n",
     cmd_nx_setting},
    {CFG, KCONF, "priority-flow-control fixed-restore multiplier",
     "no priority-flow-control fixed-restore multiplier",
     NO H_PFC "Restore a shut queue after a fixed time\n"
              "Multiplier of the poll interval\n",
     cmd_nx_setting},

    /* LLDP and DCBX */
    {CFG, KCONF, "feature lldp", "[no] feature lldp",
     NO H_FEAT "Link Layer Discovery Protocol and DCBX\n", cmd_nx_setting},
    {CFG, KCONF, "lldp timer", "[no] lldp timer <5-254>",
     NO H_LLDP "Interval between LLDP frames\nSeconds\n", cmd_nx_setting},
    {CFG, KCONF, "lldp timer", "no lldp timer",
     NO H_LLDP "Interval between LLDP frames\n", cmd_nx_setting},
    {CFG, KCONF, "lldp holdtime", "[no] lldp holdtime <10-255>",
     NO H_LLDP "How long neighbours keep roced's information (the TTL "
               "sent)\nSeconds\n",
     cmd_nx_setting},
    {CFG, KCONF, "lldp holdtime", "no lldp holdtime",
     NO H_LLDP "How long neighbours keep roced's information (the TTL "
               "sent)\n",
     cmd_nx_setting},
    {CFG, KCONF, "lldp reinit", "[no] lldp reinit <1-10>",
     NO H_LLDP "Delay before LLDP starts again on a port\nSeconds\n",
     cmd_nx_setting},
    {CFG, KCONF, "lldp reinit", "no lldp reinit",
     NO H_LLDP "Delay before LLDP starts again on a port\n", cmd_nx_setting},
    {CFG, KCONF, "lldp tlv-select dcbxp",
     "[no] lldp tlv-select dcbxp [egress-queuing]",
     NO H_LLDP "Select the TLVs to send\nDCBX TLVs (PFC, ETS, APP)\n"
               "ETS from the egress queuing policy (always so in roced)\n",
     cmd_nx_lldp_tlv},
    {CFG | IFP, KCONF, "dcbx agent", "dcbx agent DCBXAGENT", H_DCBXA,
     cmd_nx_dcbx_agent},
    {CFG | IFP, KCONF, "dcbx agent", "no dcbx agent [DCBXAGENT]", NO H_DCBXA,
     cmd_nx_dcbx_agent},
    {IFP, KCONF, "lldp transmit", "[no] lldp transmit",
     NO H_LLDP "Send LLDP frames on this interface\n", cmd_nx_setting},
    {IFP, KCONF, "lldp receive", "[no] lldp receive",
     NO H_LLDP "Receive LLDP frames on this interface\n", cmd_nx_setting},
    {IFP, KCONF, "lldp dcbx willing", "[no] lldp dcbx willing",
     NO H_LLDP "DCBX on this interface\n"
               "Accept the peer's PFC, ETS and APP (roced extension)\n",
     cmd_nx_setting},

    /* class-map type qos */
    {M(CMAP_QOS), KCONF, "match cos", "[no] match cos LIST<0-7> " COSMORE,
     NO H_MATCH H_COS H_COSL H_COSL H_COSL H_COSL H_COSL H_COSL H_COSL H_COSL,
     cmd_nx_match_cos},
    {M(CMAP_QOS), KCONF, "match cos", "no match cos", NO H_MATCH H_COS,
     cmd_nx_match_cos},
    {M(CMAP_QOS), KCONF, "match dscp", "[no] match dscp DSCPLIST " DSCPMORE,
     NO H_MATCH H_DSCP H_DSCPL H_DSCPL H_DSCPL H_DSCPL H_DSCPL H_DSCPL H_DSCPL
         H_DSCPL,
     cmd_nx_match_dscp},
    {M(CMAP_QOS), KCONF, "match dscp", "no match dscp", NO H_MATCH H_DSCP,
     cmd_nx_match_dscp},
    {M(CMAP_QOS), KCONF, "match precedence", "[no] match precedence LIST<0-7>",
     NO H_MATCH "IP precedence (DSCP 8n to 8n+7)\n"
                "List of precedence values, e.g. 3 or 4-5\n",
     cmd_nx_match_precedence},
    {M(CMAP_QOS), KCONF, "match precedence", "no match precedence",
     NO H_MATCH "IP precedence (DSCP 8n to 8n+7)\n", cmd_nx_match_precedence},
    {M(CMAP_QOS), KCONF, "match access-group", "match access-group name WORD",
     H_MATCH "Access list (not supported: refused)\nAccess list by name\n"
             "Access list name\n",
     cmd_nx_match_acl},
    /* description in every class-map and policy-map mode */
    {M(CMAP_QOS) | M(CMAP_NQOS) | M(PMAP_QOS) | M(PMAP_QUE) | M(PMAP_NQOS),
     KCONF, "description", "description TEXT",
     "Enter description of maximum 254 characters\nDescription text\n",
     cmd_nx_map_description},
    {M(CMAP_QOS) | M(CMAP_NQOS) | M(PMAP_QOS) | M(PMAP_QUE) | M(PMAP_NQOS),
     KCONF, "description", "no description [TEXT]",
     NO "Enter description of maximum 254 characters\nDescription text\n",
     cmd_nx_map_description},
    /* class-map type network-qos */
    {M(CMAP_NQOS), KCONF, "match qos-group", "[no] match qos-group LIST<0-7>",
     NO H_MATCH H_QG H_QGL, cmd_nx_match_qos_group},
    {M(CMAP_NQOS), KCONF, "match qos-group", "no match qos-group",
     NO H_MATCH H_QG, cmd_nx_match_qos_group},
    /* policy-map type qos */
    {M(PMAP_QOS), KCONF, "class", "[no] class QCLASS", NO H_CLASS H_CNAME,
     cmd_nx_pmap_qos_class},
    /* NX-OS also writes the type: `class type qos RDMA` */
    {M(PMAP_QOS), KCONF, "class", "[no] class type qos QCLASS",
     NO H_CLASS "Type of the class\nQos class\n" H_CNAME,
     cmd_nx_pmap_qos_class},
    {M(PMAP_C_QOS), KCONF, "set qos-group", "[no] set qos-group <0-7>",
     NO "Set qos values\nQos-group\nQos-group value\n", cmd_nx_set_qos_group},
    {M(PMAP_C_QOS), KCONF, "set qos-group", "no set qos-group",
     NO "Set qos values\nQos-group\n", cmd_nx_set_qos_group},
    {M(PMAP_C_QOS), KCONF, "set dscp", "[no] set dscp DSCPLIST",
     NO "Set qos values\nDSCP of the packets (kept, not realised)\n"
        "DSCP value or name, e.g. 26 or af31\n",
     cmd_nx_set_mark},
    {M(PMAP_C_QOS), KCONF, "set dscp", "no set dscp",
     NO "Set qos values\nDSCP of the packets (kept, not realised)\n",
     cmd_nx_set_mark},
    {M(PMAP_C_QOS), KCONF, "set cos", "[no] set cos <0-7>",
     NO "Set qos values\nCoS of the packets (kept, not realised)\n"
        "CoS value\n",
     cmd_nx_set_mark},
    {M(PMAP_C_QOS), KCONF, "set cos", "no set cos",
     NO "Set qos values\nCoS of the packets (kept, not realised)\n",
     cmd_nx_set_mark},
    /* policy-map type queuing */
    {M(PMAP_QUE), KCONF, "class type queuing", "[no] class type queuing WORD",
     NO H_QCLASS "Queuing class-map (class-map type queuing), or "
                 "class-default\n",
     cmd_nx_pmap_que_uclass},
    {M(PMAP_QUE), KCONF, "class type queuing",
     "[no] class type queuing " QUEUES,
     NO H_QCLASS H_QUEUES H_INQUEUES H_QUEUES4, cmd_nx_pmap_que_class},
    {M(PMAP_C_QUE), KCONF, "bandwidth remaining percent",
     "[no] bandwidth remaining percent <0-100>",
     NO "Bandwidth allocation\nShare of the bandwidth left by strict "
        "queues\nPercentage\nPercent\n",
     cmd_nx_bandwidth},
    {M(PMAP_C_QUE), KCONF, "bandwidth remaining percent",
     "no bandwidth [remaining [percent]]",
     NO "Bandwidth allocation\nShare of the bandwidth left by strict "
        "queues\nPercentage\n",
     cmd_nx_bandwidth},
    {M(PMAP_C_QUE), KCONF, "bandwidth percent",
     "[no] bandwidth percent <0-100>",
     NO "Bandwidth allocation\nGuaranteed minimum share of the port\n"
        "Percent\n",
     cmd_nx_bandwidth_min},
    {M(PMAP_C_QUE), KCONF, "bandwidth percent", "no bandwidth percent",
     NO "Bandwidth allocation\nGuaranteed minimum share of the port\n",
     cmd_nx_bandwidth_min},
    {M(PMAP_C_QUE), KCONF, "random-detect threshold",
     "random-detect threshold WREDPROFILE [ecn]",
     "Weighted random early detection (WRED)\n"
     "Predefined thresholds (kept, not realised)\n"
     "Mark ECN-capable packets instead of dropping them\n",
     cmd_nx_wred_profile},
    {M(PMAP_C_QUE), KCONF, "random-detect threshold",
     "no random-detect threshold",
     NO "Weighted random early detection (WRED)\n"
        "Predefined thresholds (kept, not realised)\n",
     cmd_nx_wred_profile},
    {M(PMAP_C_QUE), KCONF, "shape",
     "shape min <0-4294967295> RATEUNIT max <1-4294967295> RATEUNIT",
     "Shape the queue (htb: its rate and ceil)\nGuaranteed rate\nRate\n"
     "Largest rate\nRate\n",
     cmd_nx_shape},
    {M(PMAP_C_QUE), KCONF, "shape", "no shape",
     NO "Shape the queue (htb: its rate and ceil)\n", cmd_nx_shape},
    {M(PMAP_C_QUE), KCONF, "queue-limit",
     "queue-limit [queue-size] <1-4294967295> UNIT",
     "Queue buffer\nBuffer size of the queue\nSize\n", cmd_nx_queue_limit},
    {M(PMAP_C_QUE), KCONF, "queue-limit", "queue-limit dynamic <0-10>",
     "Queue buffer\nShare of the shared buffer (kept, not realised)\n"
     "Alpha\n",
     cmd_nx_queue_limit},
    {M(PMAP_C_QUE), KCONF, "queue-limit", "no queue-limit", NO "Queue buffer\n",
     cmd_nx_queue_limit},
    {M(PMAP_C_QUE), KCONF, "afd queue-desired", "[no] afd queue-desired TEXT",
     NO "Approximate fair drop of the ASIC (accepted, not realised)\n"
        "Desired queue length\nLength and unit\n",
     cmd_nx_asic_knob},
    {M(PMAP_C_QUE), KCONF, "priority", "[no] priority [level <1-7>]",
     NO "Strict priority queue\nPriority level\nLevel\n", cmd_nx_priority},
    {M(PMAP_C_QUE), KCONF, "random-detect",
     "random-detect minimum-threshold <1-4294967295> UNIT "
     "maximum-threshold <1-4294967295> UNIT "
     "[drop-probability <0-100>] [weight <0-15>] [ecn]",
     "Weighted random early detection (WRED)\n" H_MINT H_MAXT
     "Marking probability at the maximum threshold\nPercent\n"
     "Exponential weight of the average queue\n"
     "Weight (0 = the instantaneous queue)\n"
     "Mark ECN-capable packets instead of dropping them\n",
     cmd_nx_random_detect},
    {M(PMAP_C_QUE), KCONF, "random-detect", "no random-detect",
     NO "Weighted random early detection (WRED)\n", cmd_nx_random_detect},
    /* policy-map type network-qos */
    {M(PMAP_NQOS), KCONF, "class type network-qos",
     "[no] class type network-qos " NQCLASSES, NO H_NQCLASS,
     cmd_nx_pmap_nq_class},
    {M(PMAP_C_NQOS), KCONF, "pause pfc-cos", "[no] pause pfc-cos LIST<0-7>",
     NO "Pause (no-drop) configuration\nPFC CoS values\n"
        "List of CoS values to pause, e.g. 3\n",
     cmd_nx_pause},
    {M(PMAP_C_NQOS), KCONF, "pause pfc-cos",
     "pause pfc-cos LIST<0-7> receive-only",
     "Pause (no-drop) configuration\nPFC CoS values\n"
     "List of CoS values to pause, e.g. 3\n"
     "Honour received pause, never send it (roced extension)\n",
     cmd_nx_pause},
    {M(PMAP_C_NQOS), KCONF, "pause pfc-cos", "no pause [pfc-cos]",
     NO "Pause (no-drop) configuration\nPFC CoS values\n", cmd_nx_pause},
    {M(PMAP_C_NQOS), KCONF, "pause buffer-size", PBUF " [pfc-cos LIST<0-7>]",
     H_PBUF "PFC CoS values\nList of CoS values to pause, e.g. 3\n",
     cmd_nx_nq_pause_buffer},
    {M(PMAP_C_NQOS), KCONF, "pause buffer-size", "no pause buffer-size",
     NO "Pause (no-drop) configuration\nBuffer of the no-drop class\n",
     cmd_nx_nq_pause_buffer},
    {M(PMAP_C_QUE), KCONF, "pause buffer-size", PBUF, H_PBUF,
     cmd_nx_que_pause_buffer},
    {M(PMAP_C_QUE), KCONF, "pause buffer-size", "no pause buffer-size",
     NO "Pause (no-drop) configuration\nBuffer of the no-drop class\n",
     cmd_nx_que_pause_buffer},
    {M(PMAP_C_NQOS), KCONF, "pause no-drop", "[no] pause no-drop",
     NO "Pause (no-drop) configuration\n"
        "Make the class's qos-groups no-drop (older Nexus form)\n",
     cmd_nx_pause_no_drop},
    {M(PMAP_C_NQOS), KCONF, "mtu", "[no] mtu <576-9216>",
     NO "Set MTU\nMTU in bytes\n", cmd_nx_mtu},
    {M(PMAP_C_NQOS), KCONF, "mtu", "no mtu", NO "Set MTU\n", cmd_nx_mtu},
    /* system qos */
    {M(SYS_QOS), KCONF, "service-policy type network-qos",
     "service-policy type network-qos PMAP_NQOS", H_SP H_SPN,
     cmd_nx_service_policy},
    {M(SYS_QOS), KCONF, "service-policy type network-qos",
     "no service-policy type network-qos [PMAP_NQOS]", NO H_SP H_SPN,
     cmd_nx_service_policy},
    {M(SYS_QOS) | IFP, KCONF, "service-policy type qos input",
     "service-policy type qos input PMAP_QOS [no-stats]", H_SP H_SPQ H_NOSTATS,
     cmd_nx_service_policy},
    {M(SYS_QOS) | IFP, KCONF, "service-policy type qos input",
     "no service-policy type qos input [PMAP_QOS]", NO H_SP H_SPQ,
     cmd_nx_service_policy},
    {M(SYS_QOS) | IFP, KCONF, "service-policy type queuing output",
     "service-policy type queuing output PMAP_QUE [no-stats]",
     H_SP H_SPU H_NOSTATS, cmd_nx_service_policy},
    {M(SYS_QOS) | IFP, KCONF, "service-policy type queuing output",
     "no service-policy type queuing output [PMAP_QUE]", NO H_SP H_SPU,
     cmd_nx_service_policy},
    {M(SYS_QOS) | IFP, KCONF, "service-policy type queuing input",
     "service-policy type queuing input PMAP_QUE [no-stats]",
     H_SP H_SPI H_NOSTATS, cmd_nx_service_policy},
    {M(SYS_QOS) | IFP, KCONF, "service-policy type queuing input",
     "no service-policy type queuing input [PMAP_QUE]", NO H_SP H_SPI,
     cmd_nx_service_policy},
    /* interface */
    {IFP, KCONF, "priority-flow-control mode",
     "priority-flow-control mode PFCMODE", H_PFC H_MODE, cmd_nx_pfc_mode},
    {IFP, KCONF, "priority-flow-control mode",
     "no priority-flow-control mode [PFCMODE]", NO H_PFC H_MODE,
     cmd_nx_pfc_mode},
    {IFP, KCONF, "priority-flow-control mode",
     "[no] priority-flow-control mode PFCMODE send-tlv",
     NO H_PFC H_MODE "Also advertise the PFC TLV (mode on only)\n",
     cmd_nx_pfc_mode},
    {IFP, KCONF, "mtu", "[no] mtu <576-9216>",
     NO "Set the interface MTU\nMTU in bytes\n", cmd_nx_setting},
    {IFP, KCONF, "mtu", "no mtu", NO "Set the interface MTU\n", cmd_nx_setting},
    {IFP, KCONF, "shutdown", "[no] shutdown",
     NO "Enable/disable an interface (kept, not realised by roced)\n",
     cmd_nx_shutdown},
    {IFP, KCONF, "description", "description TEXT",
     "Enter description of maximum 254 characters\nDescription text\n",
     cmd_nx_description},
    {IFP, KCONF, "description", "no description [TEXT]",
     NO "Enter description of maximum 254 characters\nDescription text\n",
     cmd_nx_description},
    {IFP, KCONF, "priority-flow-control watch-dog-interval",
     "priority-flow-control watch-dog-interval (on|off)",
     H_PFC "Enable/Disable PFC watch-dog on this interface\n" H_ONOFF,
     cmd_nx_if_watchdog},
    {IFP, KCONF, "priority-flow-control watch-dog-interval",
     "no priority-flow-control watch-dog-interval [on|off]",
     NO H_PFC "Enable/Disable PFC watch-dog on this interface\n" H_ONOFF,
     cmd_nx_if_watchdog},
    {IFP, KCONF, "priority-flow-control watch-dog shutdown-multiplier",
     "[no] priority-flow-control watch-dog shutdown-multiplier <1-100>",
     NO H_PFC H_WD "Polls a queue of this port stays paused before it is "
                   "shut (roced extension)\n"
                   "Multiplier of the poll interval\n",
     cmd_nx_setting},
    {IFP, KCONF, "priority-flow-control watch-dog shutdown-multiplier",
     "no priority-flow-control watch-dog shutdown-multiplier",
     NO H_PFC H_WD "Polls a queue of this port stays paused before it is "
                   "shut (roced extension)\n",
     cmd_nx_setting},
    {IFP, KCONF, "qdisc-takeover", "[no] qdisc-takeover",
     NO "Replace a root qdisc roced did not create (roced extension)\n",
     cmd_nx_setting},
    /* fabric-internal ports, link pause */
    {IFP, KCONF, "fabric-internal", "[no] fabric-internal",
     NO "A port inside the fabric: watch-dog times x "
        "internal-interface-multiplier (roced extension)\n",
     cmd_nx_setting},
    {IFP, KCONF, "flowcontrol receive", "flowcontrol receive (on|off)",
     H_FCCFG "Honour received pause frames\n" H_ONOFF, cmd_nx_setting},
    {IFP, KCONF, "flowcontrol receive", "no flowcontrol receive [on|off]",
     NO H_FCCFG "Honour received pause frames\n" H_ONOFF, cmd_nx_setting},
    {IFP, KCONF, "flowcontrol send", "flowcontrol send (on|off)",
     H_FCCFG "Send pause frames\n" H_ONOFF, cmd_nx_setting},
    {IFP, KCONF, "flowcontrol send", "no flowcontrol send [on|off]",
     NO H_FCCFG "Send pause frames\n" H_ONOFF, cmd_nx_setting},
    {M(IF), KCONF, "alias", "alias ALIAS",
     "NX-OS name of this port (roced extension)\n"
     "NX-OS interface name, e.g. Ethernet1/1\n",
     cmd_nx_alias},
    {M(IF), KCONF, "alias", "no alias [ALIAS]",
     NO "NX-OS name of this port (roced extension)\n"
        "NX-OS interface name, e.g. Ethernet1/1\n",
     cmd_nx_alias},
};

const struct cmd_table cmd_nxos = {cmd_nxos_table, sizeof(cmd_nxos_table) /
                                                       sizeof(*cmd_nxos_table)};
