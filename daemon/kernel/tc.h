/* tc: the tc backend. Observes roced's qdiscs, classes and filters on
 * ports and writes diff's tc operations, over rtnetlink (lib/nlmsg/tc_msg.c
 * encodes and decodes; daemon/kernel/nlb.c carries).
 *
 * Observation reads every link's qdiscs with one dump (the kernel answers
 * a qdisc dump with all devices anyway), kept as a scan that also tells
 * which links hold a roced root (how roced finds the ports it no longer
 * manages), then classes and filters only on ports that hold a roced root
 * or clsact. Writes of many ports go into one pipelined batch; each failure
 * is traced back to its port so that port alone can be rolled back.
 */
#ifndef ROCED_TC_H
#define ROCED_TC_H

#include <stdbool.h>
#include <stddef.h>

#include "plan/diff.h"
#include "kernel/nlb.h"
#include "model/plan.h"
#include "nlmsg/tc_msg.h"

/* What a port holds besides roced's objects. */
struct tc_port_info {
	bool foreign_root;       /* a root qdisc someone configured */
	char foreign_kind[16];   /* its kind, for the message */
	uint32_t foreign_handle; /* its handle */
	bool clsact;             /* a clsact qdisc exists (anyone's) */
	size_t clsact_foreign;   /* filters on it that are not roced's */
};

/* One port to observe: IFINDEX in, HAVE (tc part only) and INFO out.
 * When the port cannot be read, ERR is its -errno and ERROR says what
 * could not be read and why (the kernel's extack text, or what the
 * decoder found wrong with a rule of roced's). */
struct tc_observe_port {
	int ifindex;
	struct plan_port *have;
	struct tc_port_info info;
	int err;
	char error[384];
};

/* The qdiscs of every link that observation needs: roced's own, clsact,
 * and foreign roots, sorted by ifindex (dump order within a link). */
struct tc_scan {
	struct tc_msg_qdisc *v;
	size_t n, cap;
};

void tc_scan_init(struct tc_scan *s);
void tc_scan_free(struct tc_scan *s);
/* Call CB for every link that holds a roced root qdisc. */
void tc_scan_roots(const struct tc_scan *s, void (*cb)(int ifindex, void *data),
                   void *data);

struct tc_ops {
	/* One qdisc dump of every link into SCAN (initialised, emptied
	 * first). */
	int (*scan)(void *ctx, struct tc_scan *scan, struct nlb_error *err);
	/* Fill every port's HAVE with roced's tc objects and INFO: qdiscs
	 * from SCAN when given (taken just before: nothing written since),
	 * else from a scan of its own; classes and filters from the kernel.
	 * Returns 0, or the first port's -errno when a port could not be
	 * read (every port is tried; each says why in its ERROR). */
	int (*observe)(void *ctx, const struct tc_scan *scan,
	               struct tc_observe_port *ports, size_t n,
	               struct nlb_error *err);
	/* Queue the operations of OPS that travel in the batch (tc objects
	 * and the link MTU: tc_op_batched()) of one port into B, in their
	 * order. Returns the number queued or -errno (then none of them
	 * is: a port's requests are queued whole or not at all), with *BAD
	 * the index in OPS of the operation that could not be encoded (N
	 * when the failure is not one operation's). */
	int (*queue)(void *ctx, struct nlb_batch *b, int ifindex,
	             const struct diff_op *ops, size_t n, size_t *bad);
	/* Send B and report each refused request to CB. Returns 0 once
	 * every answer is in, or -errno when the exchange failed (then
	 * what became of the requests is unknown). */
	int (*send)(void *ctx, struct nlb_batch *b, nlb_fail_cb cb, void *data);
};

/* The real kernel: CTX is a struct tc_nl. */
struct tc_nl {
	struct nlb *nl;
	/* HTB rate tables by rate, kept from one pass to the next. */
	struct tc_msg_rtab_cache rtab;
};

extern const struct tc_ops tc_ops_netlink;

/* tc notifications (RTNLGRP_TC) of changes someone else made: the
 * requests of the socket whose port id is given are dropped in the kernel
 * (a socket filter on nlmsg_pid), so a cold apply's thousands of echoes
 * neither fill the buffer nor wake anybody. */
struct tc_events {
	struct mnl_socket *sock;
	uint32_t ignore; /* roced's own request socket */
};

/* Open and subscribe. Returns 0 or -errno. */
int tc_events_open(struct tc_events *ev, uint32_t ignore_portid);
void tc_events_close(struct tc_events *ev);
/* Poll this for input (-1 when not open). */
int tc_events_fd(const struct tc_events *ev);
/* One notification: what changed, where, and who asked (the requester's
 * netlink port id; 0 when the kernel did it on its own). */
struct tc_event {
	int ifindex;
	uint16_t type; /* RTM_NEWQDISC, RTM_DELTCLASS, ... */
	uint32_t handle, parent;
	uint32_t info; /* a filter's: prio << 16 | protocol */
	uint32_t pid;
	char kind[TC_MSG_KIND_MAX];
	/* A qdisc grafted over another (the kernel announces the old one's
	 * deletion and the new one together): the old one. */
	bool replaced;
	uint32_t old_handle;
	char old_kind[TC_MSG_KIND_MAX];
};

/* Read every queued notification without blocking and call CHANGED for
 * each; LOST (may be called several times) when the kernel dropped some
 * for want of room. Returns 0 or -errno. */
int tc_events_read(struct tc_events *ev,
                   void (*changed)(const struct tc_event *ev, void *data),
                   void (*lost)(void *data), void *data);
/* EV for a log line: "qdisc htb 4791: root deleted", "class 4791:13
 * changed", "qdisc pfifo 10: added under 4791:13". */
void tc_event_describe(const struct tc_event *ev, char *buf, size_t len);

/* Does diff's operation belong to the tc backend? */
bool tc_op_is_tc(const struct diff_op *op);
/* Does it go in the batch: tc objects, and the link MTU (an RTM_NEWLINK
 * request on the same socket, so that a port's MTU costs no round trip of
 * its own and a refusal is traced back to its port like any other)? */
bool tc_op_batched(const struct diff_op *op);

#endif
