/* plan: the desired kernel state of each port, as compile() produces it.
 *
 * A port plan has two parts:
 *  - the DCB part (PFC, ETS, APP, trust, MTU), realised over dcbnl on
 *    hardware DCB ports and by roced itself (through the tc part) on
 *    software ports;
 *  - the tc part: qdiscs, classes and filters, exactly as they should exist
 *    in the kernel, with every value the kernel will hold, so that diff can
 *    compare it with what the kernel reports and the dry run can print it.
 *
 * roced owns the objects it creates and recognises them by handle (major
 * PLAN_ROOT_MAJOR for the root, PLAN_LEAF_MAJOR(q) for queue leaves,
 * PLAN_INNER_MAJOR(q) for a qdisc inside a leaf) and by
 * filter priority (PLAN_FILTER_PRIO_BASE and up). Everything else on a port
 * belongs to someone else.
 */
#ifndef ROCED_PLAN_H
#define ROCED_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/caps.h"
#include "base/diag.h"
#include "model/policy.h"

/* 0x4791: RoCEv2's UDP port, easy to spot in `tc qdisc show`. */
#define PLAN_ROOT_MAJOR    0x4791u
#define PLAN_LEAF_MAJOR(q) (0x4710u + (q))
/* A qdisc inside a leaf (the red of a no-drop WRED queue under its
 * software PFC tbf): major 0x4720 + q, parent PLAN_LEAF_MAJOR(q):1. */
#define PLAN_INNER_MAJOR(q) (0x4720u + (q))
/* HTB: 4791:1 is the port-rate parent; queue q is 4791:1q (hex 0x10+q). */
#define PLAN_HTB_ROOT_MINOR     0x1u
#define PLAN_HTB_QUEUE_MINOR(q) (0x10u + (q))
#define PLAN_FILTER_PRIO_BASE   4791u
#define PLAN_FILTER_PRIO_MAX    (PLAN_FILTER_PRIO_BASE + 999u)

/* tc handles, as in <linux/pkt_sched.h>, kept here so lib/ stays free of
 * kernel headers' quirks. */
#define PLAN_H_MAKE(maj, min) (((uint32_t)(maj) << 16) | ((min)&0xffffu))
#define PLAN_H_MAJ(h)         ((h) >> 16)
#define PLAN_H_MIN(h)         ((h)&0xffffu)
#define PLAN_H_ROOT           0xffffffffu
#define PLAN_H_CLSACT         0xfffffff1u /* TC_H_INGRESS == TC_H_CLSACT */
#define PLAN_H_CLSACT_INGRESS 0xfffffff2u /* TC_H_MAKE(CLSACT, MIN_INGRESS) */
#define PLAN_H_CLSACT_EGRESS  0xfffffff3u

enum plan_layout {
	PLAN_LAYOUT_NONE, /* no queuing policy: roced leaves the root alone */
	PLAN_LAYOUT_ETS_RED,  /* ets root, red (ecn) leaves for WRED queues */
	PLAN_LAYOUT_PRIO_RED, /* prio root (strict only), red leaves */
	PLAN_LAYOUT_HTB_RED,  /* htb root with per-queue rates, red leaves */
	PLAN_LAYOUT_HTB_FIFO, /* htb root, bfifo leaves: no WRED/ECN */
};

/* The qdisc kinds a plan holds: the kernel kinds of model/caps.h that
 * roced builds, with the same numbers, so that caps.c's one table names
 * them (plan_qdisc_kind_name/parse). */
enum plan_qdisc_kind {
	PLAN_QD_ETS = CAPS_QDISC_ETS,
	PLAN_QD_PRIO = CAPS_QDISC_PRIO,
	PLAN_QD_HTB = CAPS_QDISC_HTB,
	PLAN_QD_RED = CAPS_QDISC_RED,
	PLAN_QD_BFIFO = CAPS_QDISC_BFIFO,
	PLAN_QD_PFIFO = CAPS_QDISC_PFIFO,
	PLAN_QD_CLSACT = CAPS_QDISC_CLSACT,
	PLAN_QD_TBF = CAPS_QDISC_TBF,
};
#define PLAN_QD_NKINDS (PLAN_QD_TBF + 1)

struct plan_ets {
	uint8_t nbands;       /* always 8: one band per NX-OS queue */
	uint8_t nstrict;      /* bands 0..nstrict-1 are strict, highest first */
	uint32_t quanta[8];   /* bytes, for bands nstrict..nbands-1 */
	uint8_t priomap[16];  /* skb->priority -> band */
	int8_t band_queue[8]; /* band -> NX-OS queue */
};

struct plan_prio {
	uint8_t bands;
	uint8_t priomap[16];
	int8_t band_queue[8];
};

struct plan_htb {
	uint32_t defcls; /* minor of the default class (q-default) */
	uint32_t r2q;
};

/* RED as the kernel holds it (tc_red_qopt + TCA_RED_MAX_P), plus the tc
 * command-line values that reproduce it: compile() computes wlog, plog and
 * scell_log the way tc does from avpkt, burst and bandwidth. */
struct plan_red {
	uint32_t limit;            /* bytes */
	uint32_t qth_min, qth_max; /* bytes */
	uint32_t avpkt, burst;     /* tc's inputs for wlog */
	uint64_t bandwidth;        /* bytes/s, tc's input for scell_log */
	uint32_t probability_ppm;  /* drop-probability in parts per million */
	uint32_t max_p;            /* probability * 2^32 */
	uint8_t wlog, plog, scell_log;
	bool ecn, harddrop;
	/* With ECN, a packet that is not ECN-capable is queued where RED
	 * would drop it early (TC_RED_NODROP, Linux 5.10): a no-drop
	 * queue's RED, which must only mark (compile_pfc_red). */
	bool nodrop;
	/* weight 0 (instantaneous queue) is Wlog 0, which the kernel takes
	 * over netlink but tc's command line cannot express (its burst search
	 * starts at Wlog 1): the dry run says so in a comment. */
	bool wlog_cli_exact;
};

struct plan_fifo {
	uint32_t limit; /* bytes for bfifo, packets for pfifo */
};

/* tbf: the leaf of a no-drop queue on a software port (software PFC).
 * Released, its rate is above the port's, so it never shapes;
 * held (a pause received), its rate is a trickle (PLAN_TBF_HOLD_SECONDS
 * per bucket), so the queue keeps its packets without dropping; a change
 * refills tbf's bucket, so a release has no token debt to pay back (HTB
 * has: its tokens go negative while a class is held, and the class
 * then waits that debt off after the release). */
struct plan_tbf {
	uint64_t rate;  /* bytes/s */
	uint32_t burst; /* bytes: at least the largest frame */
	uint32_t limit; /* bytes queued (tbf's inner bfifo) */
};
/* A held bucket refills in this many seconds: long beside any pause (at
 * most 65535 quanta, 3.4 ms at 10 Gb/s, refreshed by the peer), short
 * enough that the kernel's 32-bit tick count holds it (274 s). */
#define PLAN_TBF_HOLD_SECONDS 100u

struct plan_qdisc {
	enum plan_qdisc_kind kind;
	uint32_t handle; /* PLAN_H_MAKE(major, 0); PLAN_H_CLSACT for clsact */
	uint32_t parent; /* PLAN_H_ROOT, PLAN_H_CLSACT or a classid */
	int queue;       /* NX-OS queue a leaf serves; -1 for root/clsact */
	union {
		struct plan_ets ets;
		struct plan_prio prio;
		struct plan_htb htb;
		struct plan_red red;
		struct plan_fifo fifo;
		struct plan_tbf tbf;
	} u;
};

/* An HTB class. Rates in bytes per second, as the kernel's rate64. */
struct plan_class {
	uint32_t classid, parent;
	uint64_t rate, ceil;
	uint32_t prio;    /* 0 = served first when borrowing */
	uint32_t quantum; /* 0 = kernel default from r2q */
	int queue;        /* -1 for the port-rate parent */
	/* Token buckets in bytes (tc's burst/cburst); 0 = tc's default,
	 * rate/HZ + MTU, about one frame, which held a 2 Gb/s class on a
	 * veth to 1.5 Gb/s where a 1 ms bucket passed 1.8 Gb/s. */
	uint32_t burst, cburst;
};

/* The classifiers a plan uses, numbered as model/caps.h's kinds, whose
 * table names them (plan_filter_kind_name/parse). */
enum plan_filter_kind {
	PLAN_FILTER_FLOWER = CAPS_CLASSIFIER_FLOWER,
	PLAN_FILTER_U32 = CAPS_CLASSIFIER_U32,
	PLAN_FILTER_BPF = CAPS_CLASSIFIER_BPF,
};
#define PLAN_FILTER_NKINDS (PLAN_FILTER_BPF + 1)

/* One classic BPF instruction, laid out as the kernel's struct
 * sock_filter (<linux/filter.h>), which cls_bpf takes as TCA_BPF_OPS. */
struct plan_bpf_insn {
	uint16_t code;
	uint8_t jt, jf;
	uint32_t k;
};
/* The longest program a plan holds: room for the prologue and about 30
 * class-maps (compile_bpf.c says what one costs). The kernel takes 4096,
 * but every plan_filter carries the array, so it is kept modest; a policy
 * with more classes than fit is told which are not realised. */
#define PLAN_BPF_MAX 256

enum plan_filter_action {
	PLAN_ACT_CLASSID,          /* egress: choose the queue's class/band */
	PLAN_ACT_SKBEDIT_PRIORITY, /* ingress: skb->priority = qos-group */
};

/* One classification rule. A class-map becomes one or more of these
 * (one per protocol and per DSCP value/mask block); rules keep the
 * class-map order through ascending prio. A bpf rule is the exception:
 * one program holds every class-map of the policy (BPF, BPF_LEN) and
 * returns the class of the first that matches, or -1 for CLASSID (the
 * class of class-default); its match_* fields stay unset. */
struct plan_filter {
	enum plan_filter_kind kind;
	uint32_t parent;   /* root qdisc handle or PLAN_H_CLSACT_INGRESS */
	uint32_t chain;    /* 0 but for the clsact mark */
	uint16_t prio;     /* tc pref */
	uint16_t protocol; /* ETH_P_IP, ETH_P_IPV6, ETH_P_8021Q (host order) */
	uint16_t vlan_ethtype; /* with ETH_P_8021Q and a DSCP match: IP/IPv6 */
	bool match_dscp;
	uint8_t dscp, dscp_mask; /* 6-bit DSCP value and mask */
	bool match_pcp;
	uint8_t pcp;
	enum plan_filter_action action;
	uint32_t classid;  /* PLAN_ACT_CLASSID */
	uint32_t priority; /* PLAN_ACT_SKBEDIT_PRIORITY */
	uint8_t qos_group;
	char class_name[POLICY_NAME_MAX]; /* the class-map, for show/comments */
	uint16_t bpf_len; /* PLAN_FILTER_BPF: instructions in BPF */
	struct plan_bpf_insn bpf[PLAN_BPF_MAX];
};

/* A clsact qdisc has a fixed handle and no options: nothing in it says
 * who created it, and one someone else added (empty yet, or theirs to
 * fill) must outlive roced's use of it. So when roced creates clsact it
 * also adds this mark, which lives in the kernel with the qdisc and is
 * seen by any later roced (a restart, another --once): a filter of roced's
 * on ingress in a chain that no action jumps to, which therefore never
 * runs. Without the mark a clsact is someone else's (or an older roced's)
 * and is never deleted. */
#define PLAN_CLSACT_MARK_CHAIN PLAN_ROOT_MAJOR
/* The mark: flower, protocol all, no keys, chain PLAN_CLSACT_MARK_CHAIN,
 * prio PLAN_FILTER_PRIO_MAX, as
 *   tc filter add dev D ingress chain 18321 protocol all prio 5790 flower
 *           action skbedit priority 0 */
void plan_clsact_mark(struct plan_filter *f);

/* DCB APP selectors as in <linux/dcbnl.h>. */
#define PLAN_APP_SEL_ETHERTYPE 1
#define PLAN_APP_SEL_DSCP      5
#define PLAN_APP_SEL_PCP       255 /* DCB_APP_SEL_PCP: PCP -> priority */
#define PLAN_APP_MAX           72  /* 64 DSCP + 8 PCP */

struct plan_app {
	uint8_t selector;
	uint16_t protocol;
	uint8_t priority;
};

#define PLAN_TSA_STRICT 0 /* IEEE_8021QAZ_TSA_STRICT */
#define PLAN_TSA_ETS    2 /* IEEE_8021QAZ_TSA_ETS */

struct plan_dcb {
	bool software;     /* realised by roced, not by the driver */
	uint8_t pfc_cap;   /* traffic classes that may be lossless */
	uint8_t pfc_admin; /* what the policy asks for (pause pfc-cos) */
	uint8_t pfc_en;    /* what is enabled now, after PFC mode / DCBX */
	/* Of PFC_EN, the priorities roced honours pause for but never sends
	 * it (`pause pfc-cos LIST receive-only`, the semi-lossless RoCE
	 * mode): software ports only, where software PFC's transmit side
	 * leaves them out; a driver has one PFC switch per priority. */
	uint8_t pfc_rx_only;
	uint8_t ets_tsa[8];
	uint8_t ets_bw[8];  /* percent per TC; ETS TCs sum to 100 */
	uint8_t prio_tc[8]; /* priority -> traffic class */
	struct plan_app app[PLAN_APP_MAX];
	size_t napp;
	uint8_t trust[2]; /* apptrust order: PLAN_APP_SEL_DSCP / _PCP */
	size_t ntrust;
	uint32_t mtu; /* 0 = no MTU in the policy: the link's stays */
	/* MTU is not the policy's but the port's own, which roced changed
	 * and now gives back (compile_port.mtu_restore). */
	bool mtu_restore;
	/* Leave the port's DCB settings and its MTU as they are, whatever
	 * the fields above say, except an MTU to give back (MTU_RESTORE):
	 * the plans that only remove roced's objects (cleanup on exit,
	 * ports no longer configured: compile_release()) must not undo
	 * what others set there. compile_policy() never sets it. */
	bool unmanaged;
	/* --- link pause --- */
	/* 802.3x pause (`flowcontrol receive|send`): PAUSE_RX honours the
	 * peer's pause, PAUSE_TX sends it. On hardware ports the driver does
	 * both (ethtool PAUSE_SET), written only when PAUSE_MANAGED: the
	 * policy says something about flowcontrol, and a port it says
	 * nothing about keeps its driver's setting. Observed, PAUSE_MANAGED
	 * means PAUSE_GET answered. */
	bool pause_managed, pause_rx, pause_tx;
	/* --- end of link pause --- */
};

/* The PFC watchdog's settings for one port, as compile resolves them
 * from the global watch-dog settings and the port's own (a
 * fabric-internal port's multiplier, the poll's default): the poller
 * follows these, the applied plan's, and never the policy, so a
 * candidate that was not applied does not change what it watches.
 * Times in ms; a restore time of 0 means none. */
struct plan_wd {
	uint32_t poll_ms;
	uint32_t detect_ms; /* poll x shutdown-multiplier (x internal) */
	uint32_t auto_restore_ms;
	uint32_t fixed_restore_ms;
	enum policy_pfcwd_action action;
	bool internal; /* fabric-internal: the times carry its multiplier */
	/* The interface multiplier the times carry (0: none applies). */
	uint32_t internal_mult;
};

/* Where software PFC and link pause pause a priority's sender (XOFF,
 * bytes queued) and let it go (XON), when a pause buffer of the policy
 * gives them (SET, with the buffer's size for show); else the agents
 * derive them from the leaf. */
struct plan_pause_thr {
	bool set;
	uint32_t xoff, xon;
	uint32_t buffer;
};

/* Where a pause received on a software port is honoured (compile_pfc.c:
 * compile_pfc_path): nowhere (a hardware DCB port, no priority with PFC
 * and no link pause received, or no software PFC planned), in roced's
 * process (the held tbf, through compile -> diff -> apply), or in the
 * kernel (BPF programs on the port's clsact, daemon/kernel/bpfhold.h:
 * held with no process between the frame and the hold). */
enum plan_pfc_path {
	PLAN_PFC_PATH_NONE,
	PLAN_PFC_PATH_USER,
	PLAN_PFC_PATH_KERNEL,
};
#define PLAN_PFC_PATH_WHY_MAX 96

/* Who runs LLDP (and DCBX) on a port, as compile resolves it from
 * `feature lldp`, the port's (or the global) `dcbx agent` and its
 * `lldp transmit` / `lldp receive`: the LLDP agent attaches, and the
 * lldpad backend registers, from the applied plan alone. A release plan
 * (a port roced lets go) and a port roced does not configure have none. */
enum plan_lldp_agent {
	PLAN_LLDP_NONE,   /* no LLDP of roced's on the port (WHY says why) */
	PLAN_LLDP_ROCED,  /* roced's own agent */
	PLAN_LLDP_LLDPAD, /* lldpad, through roced's backend */
};

/* Why a configured port has no LLDP of roced's (PLAN_LLDP_NONE). */
enum plan_lldp_off {
	PLAN_LLDP_OFF_UNCONFIGURED, /* not a port of the policy */
	PLAN_LLDP_OFF_FEATURE,      /* `no feature lldp` */
	PLAN_LLDP_OFF_TXRX,         /* lldp transmit and receive both off */
};

struct plan_lldp {
	enum plan_lldp_agent agent;
	enum plan_lldp_off off; /* with PLAN_LLDP_NONE */
	bool transmit, receive;
};

/* What the plan holds beside its ports: the settings roced's agents and
 * shows follow that no one port has, resolved by compile from the policy
 * (compile_global) so that nothing after compile reads the policy. The
 * daemon keeps the last applied one with the ports' plans (the
 * registry's). */
struct plan_global {
	/* the LLDP agent's: `feature lldp`, its timers, the DCBX TLVs */
	bool lldp_feature;
	uint32_t lldp_timer_ms, lldp_reinit_ms;
	uint32_t lldp_holdtime; /* a multiplier of the timer */
	bool lldp_dcbxp;
	/* the watchdog's global lines, as `show queuing pfc-queue` heads
	 * its table with them (each port's resolved times: plan_port.wd) */
	bool wd_enabled;
	uint32_t wd_poll_ms, wd_shutdown_mult, wd_auto_restore_mult;
	uint32_t wd_fixed_restore_mult, wd_internal_if_mult;
	enum policy_pfcwd_action wd_action;
	/* the metrics textfile ("": none) and its interval, in s */
	char metrics_textfile[POLICY_METRICS_PATH_MAX];
	uint32_t metrics_interval_s;
};

struct plan_port {
	char ifname[POLICY_IFNAME_MAX];
	char alias[POLICY_ALIAS_MAX];
	struct caps caps;
	enum plan_layout layout;
	enum policy_pfc_mode pfc_mode;
	bool pfc_awaiting_dcbx; /* mode auto and no DCBX agreement yet */
	bool watchdog;
	struct plan_wd wd; /* the watchdog's settings, with WATCHDOG */
	/* Each priority's pause thresholds (software PFC, link pause). */
	struct plan_pause_thr pause_thr[POLICY_NPRIO];
	/* Where its pauses are honoured, and why there (show, dry run). */
	enum plan_pfc_path pfc_path;
	char pfc_path_why[PLAN_PFC_PATH_WHY_MAX];
	bool qdisc_takeover; /* may replace a foreign root qdisc */
	/* Observed ports only: clsact also carries filters that are not
	 * roced's, so roced must not delete it. */
	bool clsact_shared;
	/* Observed ports only: roced created the clsact (it carries roced's
	 * mark), so roced deletes it once nothing needs it. */
	bool clsact_owned;
	char qos_policy[POLICY_NAME_MAX];     /* in force, for show */
	char queuing_policy[POLICY_NAME_MAX]; /* in force, for show */
	struct plan_dcb dcb;
	/* The DCB part as the policy alone makes it, before any DCBX
	 * outcome: what roced advertises to the peer. */
	struct plan_dcb dcb_local;
	/* DCBX made ETS / APP the peer's (a willing port). */
	bool dcbx_ets_adopted, dcbx_app_adopted;
	/* Why PFC mode auto keeps PFC off, in DCBX's words ("no peer",
	 * "mismatch", ...); "" while it waits for the agent or runs. */
	char pfc_dcbx_why[32];
	/* Mode auto on a software port: priorities DCBX turned PFC on for
	 * whose queue software PFC cannot hold (no holdable leaf): refused,
	 * PFC stays off on them ("adopted: not realisable"). */
	uint8_t pfc_unrealisable;
	/* The queues (bit q) whose leaf is a tbf that a pause received
	 * holds (software PFC, 802.3x link pause; compile_pfc_holds): what
	 * the agents may hold, and where show finds software PFC's buffer.
	 * Compile knows it; nobody derives it again from the leaves. */
	uint8_t hold_queues;
	/* The willing bit the port advertises in DCBX: with DCB_LOCAL, all
	 * compile_dcbx_local() needs to make what the LLDP agent sends. */
	bool dcbx_willing;
	/* Who runs LLDP on the port, and what it does there. */
	struct plan_lldp lldp;
	struct plan_qdisc *qdiscs;
	size_t nqdiscs;
	struct plan_class *classes;
	size_t nclasses;
	struct plan_filter *filters;
	size_t nfilters;
	/* How many of each the arrays have room for (plan_grow doubles them:
	 * a filter is 2 KB with its BPF program, and growing one at a time
	 * copied every filter again for each one added). */
	size_t qdiscs_cap, classes_cap, filters_cap;
	/* What could not be realised on this port, and why. */
	struct diag warnings;
};

struct plan {
	struct plan_port *ports;
	size_t nports, ports_cap;
	struct diag diag; /* errors and warnings not tied to one port */
	struct plan_global global; /* compile_policy fills it */
};

void plan_init(struct plan *pl);
void plan_free(struct plan *pl);

/* Append an empty port / object; NULL on ENOMEM. */
struct plan_port *plan_add_port(struct plan *pl, const char *ifname);
struct plan_qdisc *plan_port_add_qdisc(struct plan_port *pp);
struct plan_class *plan_port_add_class(struct plan_port *pp);
struct plan_filter *plan_port_add_filter(struct plan_port *pp);

/* PP's tc object of that identity (as diff and the kernel name them), or
 * NULL. Filters: tc allows one protocol per priority, so (parent, prio)
 * names one rule of roced's. */
const struct plan_qdisc *plan_port_qdisc(const struct plan_port *pp,
                                         uint32_t handle);
const struct plan_class *plan_port_class(const struct plan_port *pp,
                                         uint32_t classid);
const struct plan_filter *plan_port_filter(const struct plan_port *pp,
                                           uint32_t parent, uint16_t prio);
/* Empty PP's tc part (objects, clsact_shared, clsact_owned). */
void plan_port_clear_tc(struct plan_port *pp);
/* DST's tc part becomes a copy of SRC's. Returns 0 or -ENOMEM (DST's tc
 * part is then empty). */
int plan_port_copy_tc(struct plan_port *dst, const struct plan_port *src);

/* What became of a port's plan, as roced tells it (show, the log). */
enum plan_port_state {
	PLAN_PORT_NOT_PROGRAMMED, /* the kernel does not hold the plan */
	PLAN_PORT_PROGRAMMED,     /* it does */
	PLAN_PORT_REFUSED,        /* a foreign root qdisc is in the way */
};

/* The one name table of the port states: NAME is the JSON word
 * ("not-programmed"), TEXT the words of the text ("not programmed").
 * plan_port_state_parse() returns the state of NAME, or -1. */
const char *plan_port_state_name(enum plan_port_state s);
const char *plan_port_state_text(enum plan_port_state s);
int plan_port_state_parse(const char *name);

const char *plan_layout_name(enum plan_layout l); /* "htb+bfifo" ... */
/* "none", "user-space", "kernel"; plan_pfc_path_parse is its inverse
 * (-1 if unknown). */
const char *plan_pfc_path_name(enum plan_pfc_path p);
int plan_pfc_path_parse(const char *name);
/* "ets", "htb", ... as the kernel's TCA_KIND ("?" for anything else);
 * plan_qdisc_kind_parse is its inverse, -1 for a kind no plan holds
 * (mqprio, tbf, or one roced does not know). */
const char *plan_qdisc_kind_name(enum plan_qdisc_kind k);
int plan_qdisc_kind_parse(const char *kind);
/* "flower", "u32", "bpf" ("?" for anything else); plan_filter_kind_parse
 * is its inverse, -1 for a classifier no plan uses. */
const char *plan_filter_kind_name(enum plan_filter_kind k);
int plan_filter_kind_parse(const char *kind);

#endif
