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

/* Defaults used when the port reports no speed (veth, bridges). */
#define COMPILE_DEFAULT_SPEED_MBPS 10000u
/* RED average packet size handed to tc; 1000 bytes as in tc-red(8). */
#define COMPILE_RED_AVPKT 1000u

struct compile_port {
	char ifname[POLICY_IFNAME_MAX];
	struct caps caps;
};

/* Build OUT (initialised by the caller with plan_init) for PORTS, in order.
 * A port with no interface block gets the system qos defaults. Anything the
 * capabilities cannot realise becomes a warning on that port's plan.
 * Returns 0, or -ENOMEM. P must have passed policy_validate(). */
int compile_policy(const struct policy *p, const struct compile_port *ports,
                   size_t nports, struct plan *out);

/* tc's RED helpers, reproduced so that the plan holds exactly what
 * `tc qdisc add ... red` would make the kernel hold. Return -1 when tc
 * would refuse the input. */
int compile_red_wlog(uint32_t qmin, uint32_t burst, uint32_t avpkt);
int compile_red_plog(uint32_t qmin, uint32_t qmax, double prob);
int compile_red_scell_log(int wlog, uint32_t avpkt, uint64_t bps);

#endif
