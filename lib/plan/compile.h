/* compile: (policy, port capabilities) -> plan. Pure: no I/O, no globals.
 *
 * Later inputs (DCBX outcome, watchdog state per queue) join struct
 * compile_port as their issues land; the function stays pure. roced fills
 * it in one place, its port registry.
 */
#ifndef ROCED_COMPILE_H
#define ROCED_COMPILE_H

#include <stddef.h>

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
	/* --- software PFC and the PFC watchdog (issue 8) --- */
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
	/* --- end of software PFC --- */
	/* The port's DCBX outcome (issue 7), when its agent runs: HAS_DCBX
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

/* Plans for PORTS that roced lets go (no longer configured, or roced
 * stopping with --cleanup-on-exit), appended to OUT: no tc objects, so
 * that roced's go; DCB left as it is (unmanaged); and the MTU given back
 * when the port's mtu_restore says roced changed it. Returns 0 or
 * -ENOMEM. */
int compile_release(const struct compile_port *ports, size_t nports,
                    struct plan *out);

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
