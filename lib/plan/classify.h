/* classify: which queue of a port's plan a frame goes to, from its CoS
 * (VLAN priority) and DSCP alone. Pure: no I/O.
 *
 * Software PFC's transmit side pauses only the ports whose traffic feeds
 * a congested queue (agent/contrib.h); the kernel counts what comes in
 * per ingress port, destination and CoS/DSCP, and this says which queue
 * of the egress port that traffic lands in, as the port's own classifier
 * would: the plan's cls_bpf program is run on a frame made up of those
 * fields (a small interpreter of the classic BPF that compile_bpf.c
 * emits), and flower/u32 rules are matched on their DSCP and PCP keys.
 */
#ifndef ROCED_CLASSIFY_H
#define ROCED_CLASSIFY_H

#include <stddef.h>
#include <stdint.h>

#include "model/plan.h"

#define CLASSIFY_UNTAGGED 0xffu /* PCP of a frame without a VLAN tag */
#define CLASSIFY_NOT_IP   0xffu /* DSCP of a frame that is not IP */

/* The queue of PP a frame with PCP and DSCP (or the values above) is
 * classified to; -1 when the plan does not say (no classifier that can
 * be evaluated: the caller counts the frame in every queue). */
int plan_classify(const struct plan_port *pp, uint8_t pcp, uint8_t dscp);

/* Run a classic BPF program of LEN instructions on FRAME (FLEN bytes)
 * with the VLAN tag TCI in the metadata when TAGGED. Returns the
 * program's return value, or -1 for an instruction the interpreter does
 * not know or a jump out of the program; a load past the frame returns
 * 0, as the kernel does. */
int64_t plan_bpf_run(const struct plan_bpf_insn *prog, size_t len,
                     const uint8_t *frame, size_t flen, int tagged,
                     uint16_t tci);

#endif
