/* policy: the validated QoS configuration, one struct per NX-OS construct.
 *
 * The policy is what the config file (conf.c) and rocesh build, what
 * policy_validate() checks, and what compile() turns into a plan. Names
 * refer between objects (a policy-map class names a class-map, an interface
 * names policy-maps); they are resolved with the policy_find_* helpers.
 * Every object keeps the source line it came from (0 when it did not come
 * from a file) so that later checks can still say FILE:LINE.
 *
 * Numbering follows NX-OS: queue N is `c-out-8q-qN`, `c-out-8q-q-default`
 * is queue 0, qos-group N selects traffic class / queue N, and CoS N is
 * 802.1p priority N.
 */
#ifndef ROCED_POLICY_H
#define ROCED_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"

#define POLICY_NQUEUES    8
#define POLICY_NPRIO      8
#define POLICY_NAME_MAX   64 /* NX-OS allows 40 characters */
#define POLICY_IFNAME_MAX 16 /* IFNAMSIZ */
#define POLICY_ALIAS_MAX  64
#define POLICY_DESCR_MAX  256 /* NX-OS allows 254 characters */

#define POLICY_MTU_MIN 576
#define POLICY_MTU_MAX 9216

/* The NX-OS built-in names. */
#define POLICY_QUEUE_PREFIX  "c-out-8q-q"
#define POLICY_QUEUE_DEFAULT "c-out-8q-q-default"
#define POLICY_NQ_DEFAULT    "c-8q-nq-default"
#define POLICY_CLASS_DEFAULT "class-default"
/* A 4-queue Nexus's names of the same classes (queues 1-3 and 0). */
#define POLICY_QUEUE4_PREFIX  "c-out-q"
#define POLICY_QUEUE4_DEFAULT "c-out-q-default"
#define POLICY_NQ4_PREFIX     "c-nq"
#define POLICY_NQ4_DEFAULT    "c-nq-default"
/* NX-OS's default egress queuing policy, in force on a port that has a
 * qos input policy and no queuing policy (policy_iface_queuing). */
#define POLICY_QUEUING_DEFAULT   "default-out-policy"
#define POLICY_QUEUING_DEFAULT8Q "default-8q-out-policy"

enum policy_match {
	POLICY_MATCH_ALL, /* every match statement must hold */
	POLICY_MATCH_ANY, /* one match statement is enough */
};

/* class-map type qos NAME: `match cos` and `match dscp` value sets. An
 * empty set means the statement is absent; a class with no statement
 * matches everything (like NX-OS class-default). */
struct policy_class_qos {
	char name[POLICY_NAME_MAX];
	enum policy_match match;
	uint8_t cos;   /* bit n = CoS n */
	uint64_t dscp; /* bit n = DSCP n */
	unsigned line;
	unsigned cos_line, dscp_line;
	/* `match precedence LIST`: bit n = IP precedence n, the DSCP values
	 * 8n .. 8n+7, which DSCP also holds (so that classification needs
	 * no word of its own); the printers leave them out of match dscp. */
	uint8_t precedence;
	unsigned precedence_line;
	char description[POLICY_DESCR_MAX];
};

/* policy-map type qos: `class NAME` + `set qos-group N`, in match order. */
struct policy_qos_rule {
	char class_name[POLICY_NAME_MAX];
	bool set_qos_group;
	uint8_t qos_group; /* 0-7 */
	unsigned line;
	unsigned qos_group_line; /* the `set qos-group` statement */
	/* `set dscp N` and `set cos N`: marking, kept and shown; roced does
	 * not rewrite packets (policy_validate warns). */
	bool set_dscp, set_cos;
	uint8_t dscp, cos;
	unsigned set_line;
};

struct policy_map_qos {
	char name[POLICY_NAME_MAX];
	struct policy_qos_rule *rules;
	size_t nrules;
	unsigned line;
	char description[POLICY_DESCR_MAX];
};

/* `random-detect minimum-threshold .. maximum-threshold .. drop-probability
 * P weight W ecn`. Thresholds are kept in bytes (see conf.c for units). */
struct policy_wred {
	bool enabled;
	uint64_t min_bytes, max_bytes;
	uint8_t drop_probability; /* percent, 0-100 */
	uint8_t weight;           /* EWMA exponent 0-15, 0 = instantaneous */
	bool ecn;                 /* mark CE instead of dropping */
	unsigned line;
	/* Each parameter's own line, so errors point at it. */
	unsigned min_line, max_line, probability_line, weight_line;
};

/* The largest WRED threshold the kernel's RED holds with WEIGHT (0-15):
 * it keeps thresholds shifted left by the weight in 32 bits and refuses
 * fls(threshold) + weight >= 32, so 2^(31 - WEIGHT) - 1 bytes. */
static inline uint64_t policy_wred_max_bytes(unsigned weight)
{
	return weight > 15 ? 0 : (UINT64_C(1) << (31 - weight)) - 1;
}

/* `pause buffer-size N pause-threshold N resume-threshold N` (bytes), in
 * a network-qos class or an ingress queuing class (c-in-qN): the buffer
 * of a no-drop priority, where PFC pauses the sender (xoff) and where it
 * lets it go again (xon); resume <= pause < buffer-size. roced's software
 * PFC takes its xoff/xon from here (policy_iface_pause_buffer). */
struct policy_pause_buffer {
	bool set;
	uint32_t buffer_size, pause_threshold, resume_threshold;
	unsigned line;
};
#define POLICY_PAUSE_BYTES_MAX 0xffffffffu

/* `channel-group N mode M`: the LACP mode a member was given (none
 * when the line had no mode). Kept and written back, not realised:
 * the Linux bond's own mode is the kernel's (see roced.conf(5)). */
enum policy_channel_mode {
	POLICY_CHANNEL_MODE_NONE,
	POLICY_CHANNEL_MODE_ACTIVE,
	POLICY_CHANNEL_MODE_PASSIVE,
	POLICY_CHANNEL_MODE_ON,
	POLICY_CHANNEL_NMODES
};

/* One `class type queuing c-out-8q-qN` (or ingress c-in-qN) block. */
struct policy_queue {
	bool configured;
	/* Typed with its 4-queue Nexus name (c-out-q3, c-out-q-default):
	 * written back so (policy_queue_name_of). */
	bool name4;
	/* Typed by a user queuing class's name (`class type queuing NAME`
	 * of a class-map type queuing, or class-default, N3K/N5K): written
	 * back so; "" when typed by its system name. */
	char uname[POLICY_NAME_MAX];
	bool has_bandwidth;
	uint8_t bandwidth_percent; /* bandwidth remaining percent, 0-100 */
	uint8_t priority_level; /* 0 = not strict; NX-OS has level 1 (and 2) */
	struct policy_wred wred;
	unsigned line;
	unsigned bandwidth_line, priority_line;
	/* Ingress classes only (c-in-qN): the pause buffer of priority N. */
	struct policy_pause_buffer pause;
	/* `bandwidth percent N` (a guaranteed minimum), beside or instead
	 * of `bandwidth remaining percent`: both count as the queue's share,
	 * and what the shares leave of 100 is shared in proportion to them,
	 * as NX-OS's DWRR weights share it. */
	bool has_bandwidth_min;
	uint8_t bandwidth_min_percent;
	unsigned bandwidth_min_line;
	/* `queue-limit [queue-size] N bytes|kbytes|mbytes`: the queue's
	 * buffer, the byte limit of its fifo (0 = roced's default);
	 * `queue-limit dynamic N` is kept as QUEUE_LIMIT_DYNAMIC + 1 (the
	 * switch's shared-buffer alpha), shown, not realised. */
	uint64_t queue_limit_bytes;
	uint8_t queue_limit_dynamic; /* 0 = none, else alpha + 1 */
	unsigned queue_limit_line;
	/* `random-detect threshold PROFILE [ecn]`: the switch's predefined
	 * thresholds (0 = none, else enum policy_wred_profile + 1), realised
	 * with the byte values of policy_queue_wred(). */
	uint8_t wred_profile;
	bool wred_profile_ecn;
	unsigned wred_profile_line;
	/* `shape min N UNIT max M UNIT` in kbps (0 = not stated); kept and
	 * shown, not realised. */
	uint64_t shape_min_kbps, shape_max_kbps;
	unsigned shape_line;
};
/* The largest queue-limit: what a fifo's 32-bit byte limit holds. */
#define POLICY_QUEUE_LIMIT_MAX 0xffffffffu

/* policy-map type queuing NAME; queue[N] is c-out-8q-qN (q-default = 0),
 * in_queue[N] the ingress class c-in-qN (c-in-q-default = 0). A policy
 * with egress classes is attached `output`, one with ingress classes
 * `input`. */
struct policy_map_queuing {
	char name[POLICY_NAME_MAX];
	struct policy_queue queue[POLICY_NQUEUES];
	unsigned line;
	struct policy_queue in_queue[POLICY_NQUEUES];
	char description[POLICY_DESCR_MAX];
};

/* class-map type network-qos NAME: `match qos-group N` set. */
struct policy_class_nq {
	char name[POLICY_NAME_MAX];
	uint8_t qos_groups; /* bit n = qos-group n */
	unsigned line;
	char description[POLICY_DESCR_MAX];
};

/* policy-map type network-qos: `class type network-qos NAME` with `pause
 * pfc-cos LIST` and `mtu N`. The class may be c-8q-nq-default. */
struct policy_nq_rule {
	char class_name[POLICY_NAME_MAX];
	uint8_t pfc_cos; /* bit n = pause on CoS n; 0 = no pause statement */
	uint32_t mtu;    /* 0 = not set */
	unsigned line;
	unsigned pause_line, mtu_line;
	/* `pause no-drop` (older Nexus): the class's qos-groups are no-drop,
	 * as if their CoS were listed in pause pfc-cos. */
	bool no_drop;
	unsigned no_drop_line;
	/* `pause buffer-size .. [pfc-cos N]` (Nexus 9000); its pfc-cos is
	 * pfc_cos above. */
	struct policy_pause_buffer buffer;
	/* `pause pfc-cos LIST receive-only` (roced extension, the
	 * semi-lossless RoCE mode): the port honours the pause it receives
	 * for these CoS but never sends any, so a burst is absorbed without
	 * pause spreading upstream. */
	bool pfc_rx_only;
	unsigned pfc_rx_only_line;
};

struct policy_map_nq {
	char name[POLICY_NAME_MAX];
	struct policy_nq_rule *rules;
	size_t nrules;
	unsigned line;
	char description[POLICY_DESCR_MAX];
};

enum policy_pfc_mode {
	POLICY_PFC_AUTO, /* NX-OS default: operational after DCBX agrees */
	POLICY_PFC_ON,
	POLICY_PFC_OFF,
};
#define POLICY_PFC_NMODES (POLICY_PFC_OFF + 1)

enum policy_tristate {
	POLICY_INHERIT, /* follow the global setting */
	POLICY_ON,
	POLICY_OFF,
};

/* --- LLDP and DCBX --- */

/* Who runs DCBX on a port: roced's own LLDP agent, or lldpad (driven
 * through its client interface, for hosts where lldpad owns the DCB
 * NICs). One name table (policy_lldp.c): "roced", "lldpad". */
enum policy_dcbx_agent {
	POLICY_DCBX_AGENT_ROCED,
	POLICY_DCBX_AGENT_LLDPAD,
};
#define POLICY_DCBX_NAGENTS (POLICY_DCBX_AGENT_LLDPAD + 1)

/* Per interface: `[no] lldp transmit`, `[no] lldp receive` (NX-OS, both
 * on by default, so the zeroed struct is the default), `lldp dcbx
 * willing` (a roced extension: NX-OS ports are never willing) and
 * `dcbx agent NAME` (roced extension; HAS_AGENT false: the global one). */
struct policy_iface_lldp {
	bool no_transmit, no_receive;
	bool willing;
	bool has_agent;
	enum policy_dcbx_agent agent;
	unsigned willing_line, agent_line;
};

/* interface X: a Linux ifname with an optional NX-OS alias. Empty policy
 * names mean "use the system qos default", if any. */
struct policy_iface {
	char name[POLICY_IFNAME_MAX];
	char alias[POLICY_ALIAS_MAX];
	char qos_input[POLICY_NAME_MAX];
	char queuing_output[POLICY_NAME_MAX];
	enum policy_pfc_mode pfc_mode;
	enum policy_tristate watchdog;
	/* Replace a root qdisc roced did not create (default: refuse). */
	bool qdisc_takeover;
	/* A fabric-internal port (switch to switch inside the fabric): the
	 * watchdog's times are multiplied by internal-interface-multiplier
	 * there. roced extension. */
	bool fabric_internal;
	/* `flowcontrol receive on` / `flowcontrol send on`: 802.3x link
	 * pause, which excludes PFC on the port. */
	bool fc_rx, fc_tx;
	unsigned fabric_internal_line, fc_rx_line, fc_tx_line;
	/* `priority-flow-control watch-dog shutdown-multiplier N` on the
	 * port: its own detection time in polls, over the global one (0 =
	 * the global one; roced extension). */
	uint32_t wd_shutdown_mult;
	unsigned wd_shutdown_line;
	struct policy_iface_lldp lldp;
	unsigned line;
	unsigned qos_input_line, queuing_output_line;
	unsigned alias_line;
	/* Nexus interface lines. `service-policy type queuing input` names
	 * the ingress queuing policy (pause buffers); `priority-flow-control
	 * mode on send-tlv` also advertises the PFC TLV (realised by DCBX);
	 * `mtu` is the port's link MTU (over the network-qos one);
	 * `shutdown` is kept and shown, not realised (roced does not take
	 * links down); `description` is text. */
	char queuing_input[POLICY_NAME_MAX];
	unsigned queuing_input_line;
	bool pfc_send_tlv;
	uint32_t mtu; /* 0 = not set */
	unsigned mtu_line;
	enum policy_tristate shutdown; /* INHERIT = not stated */
	char description[POLICY_DESCR_MAX];
	/* `channel-group N [mode M]`: a member of port-channelN (0: none),
	 * whose QoS lines it takes (cmd_exec) and keeps; roced.conf and
	 * running-config hold the membership as typed, and the
	 * port-channel's lines (policy.profiles). */
	uint16_t channel_group;
	enum policy_channel_mode channel_mode;
	/* A member link of the Linux bond (or team) port BOND, "" for the
	 * configuration's own ports: a derived port, a copy of the bond's
	 * settings that roced keeps while the kernel has the link in the
	 * bond (policy_bond_sync). Never written to running-config or
	 * roced.conf. */
	char bond[POLICY_IFNAME_MAX];
};

/* system qos: network-qos always; qos input and queuing output optionally
 * act as defaults for every interface (as NX-OS allows). */
struct policy_system {
	char network_qos[POLICY_NAME_MAX];
	char qos_input[POLICY_NAME_MAX];
	char queuing_output[POLICY_NAME_MAX];
	unsigned line;
	unsigned network_qos_line, qos_input_line, queuing_output_line;
	char queuing_input[POLICY_NAME_MAX];
	unsigned queuing_input_line;
};

/* --- PFC watchdog action --- */
/* What the watchdog does to a queue in a PFC storm: drop (NX-OS's only
 * behaviour, the default): flush the queue, drop what arrives for it and
 * stop honouring pause for its priority; forward: the queue becomes lossy
 * (pause ignored, nothing dropped on purpose); alert: log only. */
enum policy_pfcwd_action {
	POLICY_PFCWD_DROP,
	POLICY_PFCWD_FORWARD,
	POLICY_PFCWD_ALERT,
};
#define POLICY_PFCWD_NACTIONS (POLICY_PFCWD_ALERT + 1)

/* "drop", "forward", "alert" ("?" for anything else); the parse is its
 * inverse (-1 if unknown); the help is rocesh's `?` text; "expected"
 * writes "drop, forward or alert" and returns what snprintf would. */
const char *policy_pfcwd_action_name(enum policy_pfcwd_action a);
int policy_pfcwd_action_parse(const char *s);
const char *policy_pfcwd_action_help(enum policy_pfcwd_action a);
int policy_pfcwd_action_expected(char *buf, size_t len);
/* --- end of the PFC watchdog action --- */

/* Global PFC watchdog. Detection time = poll_ms * shutdown_mult; restore
 * after poll_ms * auto_restore_mult without pause frames, or unconditionally
 * after poll_ms * fixed_restore_mult (0 = off). */
struct policy_pfcwd {
	bool enabled; /* `priority-flow-control watch-dog-interval on` */
	uint32_t poll_ms;
	uint32_t shutdown_mult;
	uint32_t auto_restore_mult;
	uint32_t fixed_restore_mult;
	uint32_t internal_if_mult;
	unsigned line;
	unsigned poll_line, shutdown_line, auto_restore_line;
	unsigned fixed_restore_line, internal_if_line;
	/* What a storm does to its queue (roced's extension). */
	enum policy_pfcwd_action action;
	unsigned action_line;
};

/* NX-OS defaults from `show queuing pfc-queue detail`. */
#define POLICY_PFCWD_POLL_MS            100
#define POLICY_PFCWD_SHUTDOWN_MULT      1
#define POLICY_PFCWD_AUTO_RESTORE_MULT  10
#define POLICY_PFCWD_FIXED_RESTORE_MULT 0
#define POLICY_PFCWD_INTERNAL_IF_MULT   2
#define POLICY_PFCWD_POLL_MIN           100
#define POLICY_PFCWD_POLL_MAX           1000
#define POLICY_PFCWD_MULT_MAX           100

/* Global LLDP: `feature lldp` (on unless `no feature lldp`: PFC mode
 * auto needs it), `lldp timer|holdtime|reinit N` (NX-OS names, ranges
 * and defaults; holdtime is the TTL roced sends), `lldp tlv-select dcbxp
 * [egress-queuing]` (DCBX TLVs sent unless `no lldp tlv-select dcbxp`;
 * roced's ETS TLVs always come from the egress queuing policy, so
 * egress-queuing is kept only for the round trip) and the global `dcbx
 * agent NAME`. */
struct policy_lldp {
	bool no_feature;
	uint32_t timer, holdtime, reinit;
	bool no_dcbxp;
	bool egress_queuing;
	enum policy_dcbx_agent agent;
	unsigned line, timer_line, holdtime_line, reinit_line, agent_line;
};

#define POLICY_LLDP_TIMER        30
#define POLICY_LLDP_TIMER_MIN    5
#define POLICY_LLDP_TIMER_MAX    254
#define POLICY_LLDP_HOLDTIME     120
#define POLICY_LLDP_HOLDTIME_MIN 10
#define POLICY_LLDP_HOLDTIME_MAX 255
#define POLICY_LLDP_REINIT       2
#define POLICY_LLDP_REINIT_MIN   1
#define POLICY_LLDP_REINIT_MAX   10

#define POLICY_PROFILE_LINES    32
#define POLICY_PROFILE_LINE_MAX 160
/* `class-map type queuing NAME` with `match qos-group N` (Nexus
 * 3000/5000): a user name of egress queue N in queuing policies. The
 * policies keep the queue and the name it was typed with
 * (policy_queue.uname); roced.conf and running-config keep the
 * class-map. */
struct policy_qclass {
	char name[POLICY_NAME_MAX];
	uint8_t qos_groups; /* bit n = qos-group n; 0 = none matched */
};

struct policy_port_profile {
	char name[POLICY_NAME_MAX];
	char lines[POLICY_PROFILE_LINES][POLICY_PROFILE_LINE_MAX];
	size_t nlines;
	bool enabled; /* `state enabled` */
};

/* `metrics { textfile = "..."; interval = N; }`: roced writes show
 * metrics to TEXTFILE ("" none) every INTERVAL seconds, for
 * node_exporter's textfile collector. Not QoS: NX-OS has no line for it,
 * roced.conf alone says it. */
#define POLICY_METRICS_PATH_MAX     256
#define POLICY_METRICS_INTERVAL     10
#define POLICY_METRICS_INTERVAL_MIN 1
#define POLICY_METRICS_INTERVAL_MAX 3600
struct policy_metrics {
	char textfile[POLICY_METRICS_PATH_MAX];
	uint32_t interval;
	unsigned line, textfile_line, interval_line;
};

struct policy {
	struct policy_class_qos *class_qos;
	size_t nclass_qos;
	struct policy_map_qos *map_qos;
	size_t nmap_qos;
	struct policy_map_queuing *map_queuing;
	size_t nmap_queuing;
	struct policy_class_nq *class_nq;
	size_t nclass_nq;
	struct policy_map_nq *map_nq;
	size_t nmap_nq;
	struct policy_system system;
	struct policy_iface *ifaces;
	size_t nifaces;
	/* The line of the file's interface list, 0 when the file has none:
	 * an empty list says "no port" on purpose, a missing one may be a
	 * file caught half written (see roced.conf(5)). */
	unsigned ifaces_line;
	struct policy_pfcwd pfcwd;
	/* `hardware qos pfc mc-drop`: multicast in no-drop classes may be
	 * dropped (kept and shown; software ports queue it like unicast). */
	bool pfc_mc_drop;
	struct policy_lldp lldp;
	/* `port-profile type ethernet NAME`: interface lines kept for
	 * `inherit port-profile NAME`, which carries them out on the
	 * interface. A paste-time macro: the interfaces keep the result,
	 * roced.conf and running-config do not hold the profiles. */
	struct policy_port_profile *profiles;
	size_t nprofiles;
	struct policy_qclass *qclasses;
	size_t nqclasses;
	struct policy_metrics metrics;
};

/* An empty policy with NX-OS defaults (watchdog timers, PFC auto). */
void policy_init(struct policy *p);
void policy_free(struct policy *p);
/* Deep copy; returns 0 or -ENOMEM (DST is left initialised and empty). */
int policy_copy(struct policy *dst, const struct policy *src);
/* A fresh copy of N elements of SIZE at SRC in *DST (NULL when N is 0).
 * Returns 0 or -ENOMEM. */
int policy_memdup(void **dst, const void *src, size_t n, size_t size);

/* Append a zeroed object (name copied) and return it, or NULL on ENOMEM. */
struct policy_class_qos *policy_add_class_qos(struct policy *p,
                                              const char *name);
struct policy_map_qos *policy_add_map_qos(struct policy *p, const char *name);
struct policy_qos_rule *policy_map_qos_add_rule(struct policy_map_qos *m,
                                                const char *class_name);
struct policy_map_queuing *policy_add_map_queuing(struct policy *p,
                                                  const char *name);
struct policy_class_nq *policy_add_class_nq(struct policy *p, const char *name);
struct policy_map_nq *policy_add_map_nq(struct policy *p, const char *name);
struct policy_nq_rule *policy_map_nq_add_rule(struct policy_map_nq *m,
                                              const char *class_name);
/* New interface with PFC mode auto and watchdog inherited. */
struct policy_iface *policy_add_iface(struct policy *p, const char *name);

/* Lookups by exact name; NULL when absent. */
const struct policy_class_qos *policy_find_class_qos(const struct policy *p,
                                                     const char *name);
const struct policy_map_qos *policy_find_map_qos(const struct policy *p,
                                                 const char *name);
/* A queuing policy-map of P, or else NX-OS's built-in one of that name
 * (policy_queuing_builtin); policy_own_map_queuing finds P's own only
 * (the one to change). */
const struct policy_map_queuing *policy_find_map_queuing(const struct policy *p,
                                                         const char *name);
const struct policy_map_queuing *policy_own_map_queuing(const struct policy *p,
                                                        const char *name);
const struct policy_class_nq *policy_find_class_nq(const struct policy *p,
                                                   const char *name);
const struct policy_map_nq *policy_find_map_nq(const struct policy *p,
                                               const char *name);
/* Finds an interface by Linux name or by NX-OS alias (case-insensitive). */
const struct policy_iface *policy_find_iface(const struct policy *p,
                                             const char *name_or_alias);

/* Interface names as a pasted NX-OS configuration has them. Only ports
 * carry QoS: the NX-OS kinds that are not ports (Vlan7, port-channel1,
 * mgmt0, loopback0, nve1, tunnel1, in any case) are to be ignored. A name
 * with a '/', which Linux never has, can only be an NX-OS alias
 * (Ethernet1/1). A range names its members PREFIX N .. PREFIX M (swp1-4,
 * Ethernet1/1-4). A name some block already has is that block, whatever
 * it looks like: look it up first. */
#define POLICY_IF_RANGE_MAX 512 /* swp1-10000 is a typo, not 10000 ports */
bool policy_ifname_not_port(const char *name);
/* A valid Linux interface name: shorter than IFNAMSIZ, not "." or "..",
 * without '/', ':' or blanks. */
bool policy_ifname_linux(const char *name);
/* NAME as a range "PREFIX N-M" (decimal, N < M, PREFIX not ending in a
 * digit or '-'): returns 0 with the prefix's length in *PLEN; -1 when it
 * is not one; -2 when it has more than POLICY_IF_RANGE_MAX members. */
int policy_ifname_range(const char *name, size_t *plen, unsigned long *first,
                        unsigned long *last);
/* Member NUM of the range NAME into BUF; -1 when it does not fit. */
int policy_ifname_member(const char *name, size_t plen, unsigned long num,
                         char *buf, size_t len);

/* The policies in force on IFACE after system qos defaults are applied;
 * NULL when none. */
const struct policy_map_qos *policy_iface_qos(const struct policy *p,
                                              const struct policy_iface *i);
const struct policy_map_queuing *
policy_iface_queuing(const struct policy *p, const struct policy_iface *i);
bool policy_iface_watchdog(const struct policy *p,
                           const struct policy_iface *i);

/* Queue names: "c-out-8q-q3" <-> 3, "c-out-8q-q-default" <-> 0. Returns
 * the queue number or -1. */
int policy_queue_parse(const char *name);
/* Canonical name of queue N (q-default for 0). */
const char *policy_queue_name(unsigned n);
/* The name queue N of a queuing policy is written with: its 4-queue name
 * when Q was typed so (Q->name4), else policy_queue_name(N). */
const char *policy_queue_name_of(const struct policy_queue *q, unsigned n);

/* DSCP: a number 0-63 or a PHB name (ef, afXY, csN, default). Returns the
 * value or -1. policy_dscp_name gives the name for N or NULL. */
int policy_dscp_parse(const char *s);
const char *policy_dscp_name(unsigned n);

/* Value lists "3", "0-2,5", "af31,26": set the bits of each value <= MAX
 * in *MASK. DSCP names are accepted when DSCP_NAMES. Returns 0, or -1 and
 * a message in ERR naming the bad token. */
int policy_list_parse(const char *s, unsigned max, bool dscp_names,
                      uint64_t *mask, char *err, size_t errlen);
/* Render MASK as the shortest list ("0-2,5") into BUF. */
int policy_list_format(uint64_t mask, char *buf, size_t len);

/* "auto", "on", "off" ("?" for anything else); the parse is its inverse.
 * The help is what rocesh's `?` says of the mode; "expected" writes "auto,
 * on or off" for messages and returns the length snprintf would have. */
const char *policy_pfc_mode_name(enum policy_pfc_mode m);
int policy_pfc_mode_parse(const char *s); /* -1 if unknown */
const char *policy_pfc_mode_help(enum policy_pfc_mode m);
int policy_pfc_mode_expected(char *buf, size_t len);
/* A class-map's match mode as roced.conf and show's JSON spell it: "all",
 * "any" ("?" for anything else); the parse is its inverse. */
const char *policy_match_name(enum policy_match m);
int policy_match_parse(const char *s); /* -1 if unknown */
/* The derived ports of bond port BOND (policy_iface.bond) made the N
 * MEMBERS the kernel gives it: members added as copies of its settings,
 * refreshed when they differ, removed when they left (all of them when
 * BOND is no configured port). A member the configuration names keeps
 * its own entry. Returns 1 when P changed, 0, or -ENOMEM. */
int policy_bond_sync(struct policy *p, const char *bond,
                     const char (*members)[POLICY_IFNAME_MAX], size_t n);
/* Removes the derived ports whose bond is no port of P; 1 if any. */
int policy_bond_prune(struct policy *p);
const char *policy_channel_mode_name(enum policy_channel_mode m);
int policy_channel_mode_parse(const char *s); /* -1 if unknown */

/* LLDP/DCBX (policy_lldp.c): the defaults of P->lldp; the agent names
 * "roced", "lldpad" and their inverse (-1 if unknown), the help of each
 * and "roced or lldpad" for messages; the agent in force on I (NULL: the
 * global one); the range checks of the timers (errors at their lines). */
void policy_lldp_init(struct policy_lldp *l);
const char *policy_dcbx_agent_name(enum policy_dcbx_agent a);
int policy_dcbx_agent_parse(const char *s);
const char *policy_dcbx_agent_help(enum policy_dcbx_agent a);
int policy_dcbx_agent_expected(char *buf, size_t len);
enum policy_dcbx_agent policy_iface_dcbx_agent(const struct policy *p,
                                               const struct policy_iface *i);
int policy_lldp_validate(const struct policy *p, struct diag *d);
/* The metrics setting: an absolute TEXTFILE path ending in ".prom" (the
 * only files node_exporter reads), INTERVAL in range. */
int policy_metrics_validate(const struct policy *p, struct diag *d);

/* Semantic checks across objects (undefined names, sums, ranges,...).
 * Every problem is added to D at the line of the offending statement;
 * returns the number of errors added. Warnings do not fail validation. */
int policy_validate(const struct policy *p, struct diag *d);

enum policy_validate_mode {
	POLICY_VALIDATE_FILE, /* a whole file: what policy_validate checks */
	/* One CLI line at a time: the same errors as a file (what rocesh
	 * takes, copy running-config startup-config saves and a restart
	 * loads); only the wording of a state that is incomplete so far
	 * (bandwidth shares under 100) differs. */
	POLICY_VALIDATE_INTERACTIVE,
};
int policy_validate_mode(const struct policy *p, struct diag *d,
                         enum policy_validate_mode mode);

/* ---- Nexus 9000 system-defined classes and pause buffers
 * (policy_sysclass.c) ---- */

/* The system-defined classes exist without a class-map and cannot be
 * defined or deleted: network-qos c-8q-nq1 .. c-8q-nq7 and c-8q-nq-default
 * (qos-group N, 0 for the default), ingress queuing c-in-q1 .. c-in-q7 and
 * c-in-q-default (priority N). Each parse returns N or -1. The network-qos
 * parse also takes a 4-queue Nexus's c-nq1 .. c-nq3 and c-nq-default, and
 * class-default (the default class, as Nexus 5000 and 3000 name it). */
#define POLICY_NQ_PREFIX        "c-8q-nq"
#define POLICY_IN_QUEUE_PREFIX  "c-in-q"
#define POLICY_IN_QUEUE_DEFAULT "c-in-q-default"
int policy_nq_system_parse(const char *name);
/* Whether network-qos class names A and B name one class: the same
 * name, or two spellings of one system-defined class (c-nq3 and
 * c-8q-nq3, class-default and c-8q-nq-default). A policy-map keeps the
 * name as it was typed, so that it is written back so. */
bool policy_nq_same_class(const char *a, const char *b);
const char *policy_nq_system_name(unsigned n);
int policy_in_queue_parse(const char *name);
const char *policy_in_queue_name(unsigned n);
/* The predefined WRED threshold profiles of NX-OS's `random-detect
 * threshold PROFILE`: one name table (policy_sysclass.c). */
enum policy_wred_profile {
	POLICY_WRED_BURST_OPTIMIZED,
	POLICY_WRED_MESH_OPTIMIZED,
	POLICY_WRED_NPROFILES,
};
const char *policy_wred_profile_name(enum policy_wred_profile w);
const char *policy_wred_profile_help(enum policy_wred_profile w);
int policy_wred_profile_parse(const char *s); /* -1 if unknown */
/* The WRED a queue asks for: its own thresholds, or those its threshold
 * profile maps to (roced's documented mapping, roced.conf(5)); false
 * when it asks for none. OUT's lines point at the queue's line. */
bool policy_queue_wred(const struct policy_queue *q, struct policy_wred *out);

/* The DSCP values of the IP precedences PREC (bit n = precedence n):
 * precedence n is DSCP 8n .. 8n+7. */
uint64_t policy_precedence_dscp(uint8_t prec);

/* NX-OS's default egress queuing policy (default-out-policy): every
 * qos-group's queue at bandwidth remaining 0 but q-default's at 100 and
 * q7 strict, as a Nexus 9000 has it built in. NAME is
 * POLICY_QUEUING_DEFAULT or POLICY_QUEUING_DEFAULT8Q; NULL for others
 * (policy_list.c: policy.c and this file both use it). */
const struct policy_map_queuing *policy_queuing_builtin(const char *name);
/* A user queuing class by name, NULL when absent; add one (NULL on
 * ENOMEM). */
const struct policy_qclass *policy_find_qclass(const struct policy *p,
                                               const char *name);
struct policy_qclass *policy_add_qclass(struct policy *p, const char *name);
/* A port profile by name; NULL when absent. */
const struct policy_port_profile *
policy_find_port_profile(const struct policy *p, const char *name);
struct policy_port_profile *policy_add_port_profile(struct policy *p,
                                                    const char *name);

/* Whether NAME is any system-defined class name (of any type). */
bool policy_class_builtin(const char *name);
/* The qos-groups a network-qos class matches: its class-map's, or N for
 * c-8q-nqN (0 for the default); 0 when the class is not defined. */
uint8_t policy_nq_class_groups(const struct policy *p, const char *name);
/* The CoS a network-qos rule makes no-drop: pause pfc-cos, and with
 * `pause no-drop` the class's qos-groups. */
uint8_t policy_nq_rule_pfc(const struct policy *p,
                           const struct policy_nq_rule *r);
/* The ingress queuing policy on IFACE (or system qos's), NULL if none. */
const struct policy_map_queuing *
policy_iface_queuing_input(const struct policy *p,
                           const struct policy_iface *i);
/* Whether a queuing policy has any egress / ingress class. */
bool policy_queuing_has_out(const struct policy_map_queuing *m);
bool policy_queuing_has_in(const struct policy_map_queuing *m);
/* The pause buffer of priority PRIO on IFACE (may be NULL: system-wide
 * only): the ingress queuing class c-in-qPRIO when it has one, else the
 * system network-qos class whose pause pfc-cos holds PRIO; NULL when none
 * is configured. This is the xoff/xon of roced's software PFC. */
const struct policy_pause_buffer *
policy_iface_pause_buffer(const struct policy *p, const struct policy_iface *i,
                          unsigned prio);

/* Interface names as NX-OS and its operators' runbooks write them, into
 * one canonical spec in OUT: words joined ("ethernet 1/1" ->
 * "Ethernet1/1"), the Ethernet abbreviations of slot/port names in any
 * case (eth1/1, e1/1, ETHERNET1/1; only names with a '/', so that Linux's
 * eth0 stays eth0) spelt Ethernet, and a list's items separated by ','
 * alone ("Ethernet1/1-4, Ethernet1/7" -> "Ethernet1/1-4,Ethernet1/7").
 * Returns 0, or -1 when OUT is too small. */
int policy_ifname_nxos(const char *in, char *out, size_t len);
/* The members of SPEC (a canonical name, range or list of them) into
 * OUT[0..MAX): returns their number, -1 for an empty item or a member
 * longer than POLICY_ALIAS_MAX - 1, -2 for more than MAX members. */
int policy_ifname_expand(const char *spec, char (*out)[POLICY_ALIAS_MAX],
                         size_t max);
/* Part of policy_validate(): link pause and PFC on one port
 * (a switch forbids it: both would pause the same traffic), the
 * watchdog's action. Returns the number of errors added. */
int policy_validate_pfc(const struct policy *p, struct diag *d);

/* ---- the one-command RoCE mode (policy_roce.c) ---- */

/* `roce lossless|semi-lossless|lossy` (as NVIDIA Onyx and NVUE have it)
 * is a macro: it writes the objects below into the policy, as ordinary
 * NX-OS objects an operator may edit afterwards, and attaches them in
 * system qos. RoCE is DSCP 26 / CoS 3 in qos-group 3 (WRED with ECN,
 * half of the bandwidth left by strict queues); its CNPs are DSCP 48 /
 * CoS 6 in qos-group 6, a strict queue; the rest goes to q-default (the
 * other half). lossless also pauses CoS 3 (PFC), semi-lossless only
 * honours the pause it receives for CoS 3 (pfc_rx_only), lossy pauses
 * nothing and relies on ECN. Every mode sets MTU 9216 on the RoCE class.
 *
 * The mode is not stored: it is what the objects say (policy_roce_mode),
 * so that the objects an operator edited and the mode shown never tell
 * two stories. */
enum policy_roce_mode {
	POLICY_ROCE_NONE, /* none of the RoCE objects exists */
	POLICY_ROCE_LOSSLESS,
	POLICY_ROCE_SEMI_LOSSLESS,
	POLICY_ROCE_LOSSY,
};
#define POLICY_ROCE_NMODES (POLICY_ROCE_LOSSY + 1)

#define POLICY_ROCE_CLASS   "ROCE-DATA" /* class-map type qos */
#define POLICY_ROCE_CNP     "ROCE-CNP"  /* class-map type qos */
#define POLICY_ROCE_QOS     "ROCE-QOS"  /* policy-map type qos */
#define POLICY_ROCE_QUEUING "ROCE-QUEUING"
#define POLICY_ROCE_NQ      "ROCE-NETWORK-QOS"
/* The values of the expansion, for show and the checks of a fabric. */
#define POLICY_ROCE_DSCP      26
#define POLICY_ROCE_COS       3 /* also its qos-group and queue */
#define POLICY_ROCE_CNP_DSCP  48
#define POLICY_ROCE_CNP_COS   6
#define POLICY_ROCE_UDP_PORT  4791
#define POLICY_ROCE_MTU       9216
#define POLICY_ROCE_ECN_MIN   150 /* kbytes, as Onyx's show roce */
#define POLICY_ROCE_ECN_MAX   1500
#define POLICY_ROCE_ECN_PROB  100
#define POLICY_ROCE_BANDWIDTH 50 /* q3's and q-default's share */

/* The objects of the expansion, one bit each (policy_roce_mode's EDITED
 * and policy_roce_object_name). */
enum policy_roce_object {
	POLICY_ROCE_OBJ_CLASS,
	POLICY_ROCE_OBJ_CNP,
	POLICY_ROCE_OBJ_QOS,
	POLICY_ROCE_OBJ_QUEUING,
	POLICY_ROCE_OBJ_NQ,
	POLICY_ROCE_OBJ_SYSTEM, /* system qos's three service-policies */
	POLICY_ROCE_NOBJECTS,
};

/* The name table of the modes: "lossless", "semi-lossless", "lossy"
 * ("none" for POLICY_ROCE_NONE, "?" outside); the parse is its inverse
 * for the three modes (-1 otherwise, "none" too); the help is rocesh's
 * `?` text; "expected" writes "lossless, semi-lossless or lossy". */
const char *policy_roce_mode_name(enum policy_roce_mode m);
int policy_roce_mode_parse(const char *s);
const char *policy_roce_mode_help(enum policy_roce_mode m);
int policy_roce_mode_expected(char *buf, size_t len);
/* "class-map type qos ROCE-DATA", ... for object O ("?" outside). */
const char *policy_roce_object_name(enum policy_roce_object o);

enum policy_roce_how {
	/* rocesh's `roce MODE`: the objects of those names are replaced
	 * by the mode's and system qos attaches them. */
	POLICY_ROCE_REPLACE,
	/* roced.conf's `roce = "MODE";`: what the file defines itself
	 * wins: an object of one of those names the file has is kept, a
	 * system-qos service-policy the file sets stays; roce adds the
	 * rest. */
	POLICY_ROCE_KEEP,
};
/* Write MODE's objects into P (LINE: where it was asked for, 0 for
 * none). Returns 0, -EINVAL for POLICY_ROCE_NONE or -ENOMEM (P may then
 * hold part of them; the callers work on a copy). */
int policy_roce_expand(struct policy *p, enum policy_roce_mode mode,
                       enum policy_roce_how how, unsigned line);
/* What `roce MODE` writes into P: a bit per object that is missing or
 * differs from MODE's expansion (UINT32_MAX: out of memory). */
uint32_t policy_roce_writes(const struct policy *p, enum policy_roce_mode mode);
/* What `roce MODE` would clobber: a bit per object of P that it would
 * write over and that roce did not write (it equals no mode's expansion:
 * an operator's object of the same name, or one edited since), the
 * system bit when a service-policy of system qos names another map.
 * rocesh refuses those unless told `force`. UINT32_MAX: out of memory. */
uint32_t policy_roce_conflicts(const struct policy *p,
                               enum policy_roce_mode mode);
/* `no roce`: remove exactly what roce wrote. An object that equals no
 * mode's expansion (edited since) stays (EDITED), so does one that what
 * stays still names (IN_USE, USER[o] says who: another qos policy-map, an
 * interface); system qos lets go of the maps removed. Returns how many
 * objects were removed. */
struct policy_roce_removal {
	uint32_t removed, edited, in_use;
	char user[POLICY_ROCE_NOBJECTS][POLICY_NAME_MAX + 32];
};
int policy_roce_remove(struct policy *p, struct policy_roce_removal *out);
/* The mode P's objects make: NONE when none of the five maps exists;
 * else the mode whose expansion they are, with *EDITED (may be NULL) 0;
 * else the closest one (by the RoCE class's pause: lossless, receive-only:
 * semi-lossless, none: lossy) with a bit per object that differs from
 * its expansion (or is missing) in *EDITED. */
enum policy_roce_mode policy_roce_mode(const struct policy *p,
                                       uint32_t *edited);
/* Whether policy_roce_expand(P, any mode, POLICY_ROCE_KEEP) would add
 * nothing to P: the five objects exist and system qos names a
 * network-qos, a qos input and a queuing output policy. roced.conf's
 * writer then writes `roce` beside the objects, edited or not, and the
 * file loads back to the same policy. */
bool policy_roce_complete(const struct policy *p);

/* NX-OS's port-channel name: port-channelN, N 1..4096, any case (a
 * subinterface, port-channel10.100, is not one); *N (may be NULL) gets
 * its number. One parser for the command language and roced.conf. */
#define POLICY_CHANNEL_MAX 4096
bool policy_port_channel(const char *name, unsigned *n);

#endif
