/* compile_int: shared between compile.c and the compile_*.c files.
 *
 * compile.c drives one port at a time: it resolves the policies in force
 * into a struct compile_ctx, builds the DCB part, then hands the context
 * to compile_tc() for the tc part. Both read the policies through
 * compile_util.c; compile_red.c holds tc's RED maths.
 */
#ifndef ROCED_COMPILE_INT_H
#define ROCED_COMPILE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan/compile.h"

/* Ethernet protocol numbers in host order, as <linux/if_ether.h>.
 * COMPILE_ETH_P_ALL on a filter without match keys means "every packet":
 * that is how a class-map with no match statement is realised. */
#define COMPILE_ETH_P_ALL   0x0003u
#define COMPILE_ETH_P_IP    0x0800u
#define COMPILE_ETH_P_IPV6  0x86ddu
#define COMPILE_ETH_P_8021Q 0x8100u

/* Link MTU assumed when the network-qos policy sets none. */
#define COMPILE_DEFAULT_MTU 1500u
/* Ethernet header plus one VLAN tag: a frame is MTU + this on the wire as
 * the qdiscs count it (qdisc_pkt_len includes the L2 header). */
#define COMPILE_L2_OVERHEAD 18u
/* bfifo leaves hold as many full frames as a default txqueuelen would. */
#define COMPILE_FIFO_LIMIT_FRAMES 1000u
/* pfifo leaves (kernels without bfifo) count packets. */
#define COMPILE_PFIFO_LIMIT 1000u
/* `bandwidth remaining percent 0` means "only what the others leave".
 * DWRR and HTB need a non-zero share, so 0 % counts as a tenth of 1 %:
 * the queue still drains (a jumbo frame leaves within ten rounds) but
 * takes almost nothing from busy neighbours. */
#define COMPILE_ZERO_SHARE_DIV 10u
/* HTB's default rate-to-quantum divisor; roced sets every quantum
 * explicitly, so this only has to match what the kernel reports. */
#define COMPILE_HTB_R2Q 10u
/* htb token buckets hold this many ms at the class rate (and at least two
 * full frames) to ride out timer and softirq latency; tc's default
 * (rate/HZ + MTU with a 1 GHz psched clock) is about one frame, and
 * measurably slows classes of a few Gb/s on a veth (see plan.h). */
#define COMPILE_HTB_BURST_MS 1u

/* Everything about one port that the DCB and tc parts need. */
struct compile_ctx {
	const struct policy *p;
	const struct dcbx_oper *dcbx;             /* NULL: no DCBX outcome */
	const struct policy_iface *iface;         /* NULL: system defaults */
	const struct policy_map_qos *qos;         /* NULL: none in force */
	const struct policy_map_queuing *queuing; /* NULL: none in force */
	const struct policy_map_nq *nq;           /* NULL: none in force */
	struct plan *pl;
	struct plan_port *pp;
	const struct compile_port *cp;
	uint32_t frame;    /* largest frame: MTU + COMPILE_L2_OVERHEAD */
	bool speed_warned; /* the unknown-speed warning is given once */
};

/* --- compile_dcbx.c --- */

/* What a willing port takes from its peer, in policy form so that the
 * DCB and tc parts realise it like any policy: a queuing policy from the
 * peer's ETS, class-maps and qos rules from the peer's APP entries. */
struct compile_dcbx_eff {
	struct policy p; /* C->p with the extra class-maps */
	struct policy_map_queuing queuing;
	struct policy_map_qos qos;
	struct policy_class_qos *classes;
	struct policy_qos_rule *rules;
};
/* Point C's policies at what DCBX adopted (E holds them); PP->dcb must
 * hold the local DCB part already. Returns 0 or -ENOMEM. */
int compile_dcbx_adopt(struct compile_ctx *c, struct compile_dcbx_eff *e);
void compile_dcbx_eff_free(struct compile_dcbx_eff *e);

/* The tc part of C's port (compile_tc.c). Returns 0 or -ENOMEM. */
int compile_tc(struct compile_ctx *c);

/* --- compile_pfc.c: software PFC and the watchdog's actions --- */

/* The no-drop queues of C's port (bit q = queue q): those that a
 * priority the network-qos policy pauses (or DCBX enabled) maps to, all
 * of them on a willing port in mode auto, whether PFC is
 * enabled now or not (mode auto before DCBX, mode off): the leaf stays
 * the same kind when PFC comes and goes, so that its packets and
 * counters stay; only a hold needs PFC enabled. */
uint8_t compile_pfc_queues(const struct compile_ctx *c);
/* C's port honours 802.3x link pause itself (a software port, software
 * PFC planned, `flowcontrol receive on`): every queue gets a holdable
 * leaf, held while compile_port.lp_hold. */
bool compile_pfc_lp_rx(const struct compile_ctx *c);
/* The leaf QD (handle and parent set) of no-drop queue Q on a software
 * port (of any queue, with link pause received honoured): a tbf, held or
 * released, or, shut by the watchdog with the drop action, a fifo that
 * takes nothing. Returns true when QD is planned; false when Q is not
 * software PFC's (the caller plans its usual leaf). */
bool compile_pfc_leaf(struct compile_ctx *c, struct plan_qdisc *qd, unsigned q);
/* QD is queue Q's red leaf (WRED where the kernel has sch_red), filled:
 * if Q is held by software PFC or link pause, QD becomes its tbf (or the
 * watchdog's fifo) and the red goes inside the tbf (PLAN_INNER_MAJOR(q),
 * a qdisc added to the port, so QD must not be used afterwards).
 * Returns 0 or -ENOMEM. */
int compile_pfc_red(struct compile_ctx *c, struct plan_qdisc *qd, unsigned q);
/* Mode auto on a software port, after the tc part: a priority DCBX
 * enabled whose queue has no leaf software PFC holds is refused (PFC off
 * on it, PP->pfc_unrealisable, a warning): never on and unheld. */
void compile_pfc_refuse(struct compile_ctx *c);
/* After the tc part: the queues whose leaf a pause received holds, into
 * PP->hold_queues, for the agents and show to read. */
void compile_pfc_holds(struct compile_ctx *c);
/* The watchdog's actions on a hardware port: a shut queue's priorities
 * lose PFC (drop, forward). */
void compile_pfc_dcb(struct compile_ctx *c);
/* What the agents beside the path follow, into C's port: the
 * watchdog's settings (plan_port.wd) and each priority's pause
 * thresholds (plan_port.pause_thr), from the policy's global and
 * interface settings. */
void compile_pfc_agents(struct compile_ctx *c);
/* Where C's port honours pause (plan_port.pfc_path and its why): the
 * kernel where it has fq, clsact and cls_bpf, roced carries its BPF
 * programs and the daemon did not fail to load them there; else roced's
 * process. After the DCB part and the tc part. */
void compile_pfc_path(struct compile_ctx *c);
/* The no-drop queues of C's port that software PFC holds one at a time
 * and that ets would serve round-robin (bandwidth-sharing, not strict):
 * while one is held, an ets root stops the other sharing queues too, so
 * compile_tc() prefers htb for such a port. 0 on hardware ports, without
 * software PFC or sch_tbf, and with link pause received (which holds
 * every queue at once, so nothing else is meant to flow). */
uint8_t compile_pfc_ets_stalls(const struct compile_ctx *c);

/* --- compile_bpf.c --- */

/* C's qos input policy as one cls_bpf filter on PARENT (the egress root)
 * whose program returns QUEUE_CLASS[qos-group] of the first class-map
 * that matches, and -1 (the filter's classid, QUEUE_CLASS[0]) for the
 * rest. QUEUE_CLASS[g] is the class of qos-group g's queue (that of its
 * traffic class, which an adopted ETS may map elsewhere than g). Classes that
 * do not fit in PLAN_BPF_MAX are a warning on the port. Returns 0 or -ENOMEM.
 */
int compile_bpf(struct compile_ctx *c, uint32_t parent,
                const uint32_t queue_class[POLICY_NQUEUES]);

/* --- compile_util.c --- */

/* Port speed in bytes per second; when the port reports none, the default
 * with one warning on the port. */
uint64_t compile_port_speed_bytes(struct compile_ctx *c);

/* The class-map of RULE, or NULL when the rule names class-default (or a
 * class-map that the policy lacks, which validation rules out). *ALL is
 * set when the class matches every packet (no match statement). */
const struct policy_class_qos *
compile_rule_class(const struct policy *p, const struct policy_qos_rule *rule,
                   bool *all);
/* The qos-group a rule sets; NX-OS leaves matched traffic in group 0
 * when the class has no `set qos-group`. */
unsigned compile_rule_group(const struct policy_qos_rule *rule);

/* A queue's place in the queuing policy: strict (priority level) or a
 * DWRR share in percent (0 for queues the policy leaves unconfigured). */
bool compile_queue_strict(const struct policy_map_queuing *m, unsigned q);
unsigned compile_queue_percent(const struct policy_map_queuing *m, unsigned q);

/* Cover the DSCP set SET with the fewest aligned value/mask blocks (as
 * 24-31 -> 24/0x38), in ascending order. Fills VALUE and MASK (room for
 * 64 each) and returns the count. */
size_t compile_dscp_blocks(uint64_t set, uint8_t *value, uint8_t *mask);

/* The smallest `burst` for which tc's search yields WLOG (>= 1) with QMIN
 * and AVPKT, or 0 when no burst does. */
uint32_t compile_red_burst(uint32_t qmin, uint32_t avpkt, int wlog);
/* Fill R for queue Q's WRED settings W on a port of BPS bytes/s. Problems
 * go to WARN. */
void compile_red_fill(struct plan_red *r, const struct policy_wred *w,
                      unsigned q, uint64_t bps, struct diag *warn);

#endif
