/* compile: (policy, port capabilities) -> plan. Pure: no I/O, no globals.
 *
 * Later inputs (DCBX outcome, watchdog state per queue) join struct
 * compile_port as their issues land; the function stays pure. roced fills
 * it in one place, its port registry.
 */
#ifndef ROCED_COMPILE_H
#define ROCED_COMPILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/caps.h"
#include "model/plan.h"
#include "model/policy.h"
#include "proto/dcbx.h"

/* Defaults used when the port reports no speed (veth, bridges). */
#define COMPILE_DEFAULT_SPEED_MBPS 10000u
/* RED average packet size handed to tc; 1000 bytes as in tc-red(8). */
#define COMPILE_RED_AVPKT 1000u

struct compile_port {
	char ifname[POLICY_IFNAME_MAX];
	struct caps caps;
	/* The MTU the port had before roced first changed it, while roced
	 * has not given it back (0: roced never changed it). When no
	 * network-qos MTU applies to the port, this is the plan's MTU
	 * (plan_dcb.mtu_restore set). */
	uint32_t mtu_restore;
	/* --- software PFC and the PFC watchdog --- */
	/* Plan software PFC on the port: its no-drop queues get leaves a
	 * pause can hold (the daemon holds and releases them; a one-shot
	 * roced leaves them released). roced sets it on every port; off,
	 * the leaves are fifos as before software PFC. */
	bool softpfc;
	/* Priorities (bit n = priority n) whose egress queue a pause
	 * received on the port holds now (software ports). */
	uint8_t pfc_hold;
	/* Queues (bit q = NX-OS queue q) that the watchdog has shut for a
	 * storm; the policy's watchdog action says what that does. */
	uint8_t wd_shut;
	/* An 802.3x link pause received on the port holds every egress
	 * queue now (software ports with `flowcontrol receive on`). */
	bool lp_hold;
	/* Why the daemon could not load software PFC's kernel path on the
	 * port (a program the verifier refused, a map it could not create:
	 * bpfhold_attach's error), "" when nothing failed: the port then
	 * takes the user-space path (plan_port.pfc_path). */
	char kpfc_refused[PLAN_PFC_PATH_WHY_MAX];
	/* The kernel path may be taken at all (roced --kernel-pfc). */
	bool kpfc;
	/* --- end of software PFC --- */
	/* The port's DCBX outcome, when its agent runs: HAS_DCBX
	 * false is "no DCBX at all" (PFC mode auto stays off, waiting).
	 * With it, PFC mode auto follows DCBX.PFC when DCBX.PFC_AGREED, and
	 * a willing port takes the peer's ETS (ETS_WHY adopted) and the
	 * peer's APP entries (merged under the local ones) into both the
	 * DCB part and the tc part. */
	bool has_dcbx;
	struct dcbx_oper dcbx;
};

/* Build OUT (initialised by the caller with plan_init) for PORTS, in order.
 * A port with no interface block gets the system qos defaults. Anything the
 * capabilities cannot realise becomes a warning on that port's plan.
 * Returns 0, or -ENOMEM. P must have passed policy_validate(). */
int compile_policy(const struct policy *p, const struct compile_port *ports,
                   size_t nports, struct plan *out);

/* The part of the plan no one port has (struct plan_global), from P:
 * what the LLDP agent, the metrics textfile and the watchdog's show
 * follow. compile_policy() fills OUT->global with it. */
void compile_global(const struct policy *p, struct plan_global *g);

/* Plans for PORTS that roced lets go (no longer configured, or roced
 * stopping with --cleanup-on-exit), appended to OUT: no tc objects, so
 * that roced's go; DCB left as it is (unmanaged); and the MTU given back
 * when the port's mtu_restore says roced changed it. Returns 0 or
 * -ENOMEM. */
int compile_release(const struct compile_port *ports, size_t nports,
                    struct plan *out);

/* --- a no-drop queue's buffer, and its holds (compile_pfc.c) --- */

/* From a no-drop queue crossing xoff to the peer's queue held: the
 * transmit poll's fast interval and software PFC's hold on the peer.
 * roced's transmit side takes its default xoff from the same figure
 * (TXPOLL_REACTION_MS): both must change together. */
#define COMPILE_PFC_REACTION_MS 4.2

/* What arrives above xoff before the peer stops (bytes): the reaction
 * time at SPEED_MBPS (0: COMPILE_DEFAULT_SPEED_MBPS), plus a frame of
 * FRAME bytes in flight each way. */
uint64_t compile_pfc_headroom(uint32_t speed_mbps, uint32_t frame);

/* Why software PFC's receive side cannot run in the kernel K (and this
 * build) describes, in words ("the kernel has no sch_fq"); NULL when it
 * can, for COMPILE_PFC_KERNEL_WHY. plan_port.pfc_path's reasons. */
const char *compile_pfc_kernel_why(const struct caps *k);
#define COMPILE_PFC_KERNEL_WHY "the kernel has sch_fq, clsact and cls_bpf"
#define COMPILE_PFC_KERNEL_OFF "the kernel path is off (roced --kernel-pfc)"

/* Is QD a software PFC leaf that holds its queue (the held tbf's
 * trickle, compile_pfc_leaf), as compiled or as observed? */
bool compile_pfc_tbf_held(const struct plan_qdisc *qd);

/* Release every held software PFC leaf of PP, a port's tc part as the
 * kernel holds it, leaving everything else as it is: each held tbf gets
 * the released rate and bucket that compile gives it (four times the
 * port's rate, which the htb root class carries; four times
 * COMPILE_DEFAULT_SPEED_MBPS where there is none). What roced does to a
 * queue that a roced no longer controls. Returns how many it released. */
size_t compile_pfc_unhold(struct plan_port *pp);

/* The DCBX TLVs a port advertises, from its plan's DCB part as the
 * policy alone makes it (PP->dcb_local): PFC enabled as the mode says
 * (off advertises none), ETS Configuration and Recommendation from the
 * queuing policy, APP from the qos policy (DSCP and EtherType entries;
 * PCP has no APP selector on the wire), willing bits from WILLING. */
void compile_dcbx_local(const struct plan_port *pp, bool willing,
                        struct dcbx_tlvs *out);

/* tc's RED helpers, reproduced so that the plan holds exactly what
 * `tc qdisc add ... red` would make the kernel hold. Return -1 when tc
 * would refuse the input. */
int compile_red_wlog(uint32_t qmin, uint32_t burst, uint32_t avpkt);
int compile_red_plog(uint32_t qmin, uint32_t qmax, double prob);
int compile_red_scell_log(int wlog, uint32_t avpkt, uint64_t bps);

#endif
