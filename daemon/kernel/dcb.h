/* dcb: the DCB backend, over dcbnl with libmnl.
 *
 * Reads a hardware port's IEEE DCB state into the plan's DCB structure and
 * writes the DCB operations diff yields (PFC, ETS, APP, apptrust), with
 * the read-modify-write iproute2's dcb uses for PFC and ETS. The message
 * exchange sits behind struct dcb_ops so tests can play the kernel.
 */
#ifndef ROCED_DCB_H
#define ROCED_DCB_H

#include <stddef.h>

#include "nlmsg/dcbnl_msg.h"
#include "plan/diff.h"
#include "kernel/nlb.h"
#include "model/plan.h"

struct dcb_ops {
	/* Send the dcbnl request REQ; copy the reply message (if the kernel
	 * sends one before its ACK) into REPLY (REPLYLEN in: size, out:
	 * length, 0 when none). Returns 0 or -errno with ERR filled. */
	int (*transact)(void *ctx, struct nlmsghdr *req, void *reply,
	                size_t *replylen, struct nlb_error *err);
};

/* The real kernel: CTX is a struct nlb *. */
extern const struct dcb_ops dcb_ops_netlink;

/* Read IFNAME's IEEE state into CUR and its plan view into HAVE (DCB part
 * only; mtu is left alone). Returns 0, -EOPNOTSUPP for a port without
 * dcbnl, or -errno. */
int dcb_observe(const struct dcb_ops *ops, void *ctx, const char *ifname,
                struct dcbnl_msg_ieee *cur, struct plan_dcb *have);

/* Carry out one DCB operation of diff (PFC, ETS, APP add/del, apptrust).
 * CUR is the state dcb_observe read, for read-modify-write. The driver's
 * own verdict is checked, not only the kernel's ACK. */
int dcb_apply_op(const struct dcb_ops *ops, void *ctx, const char *ifname,
                 const struct diff_op *op, const struct plan_dcb *want,
                 const struct dcbnl_msg_ieee *cur, struct nlb_error *err);

#endif
