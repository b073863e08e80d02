/* mirror: the daemon's copy of roced's tc objects on each port, so that a
 * reconcile of ports nobody touched needs no dump.
 *
 * An entry is what the kernel holds of roced's objects on one link (by
 * ifindex and name), in the form a dump decodes to: kept after roced
 * observed the port or wrote its plan there successfully. It stays clean
 * until a tc notification from someone else (RTNLGRP_TC, any nlmsg_pid
 * but roced's own socket: daemon/kernel/engine.c filters those out in the
 * kernel), a link event, or a failed write marks it dirty; a dirty or
 * missing entry means "observe this port". Links the mirror has no entry
 * for but heard about are remembered too, so that a full apply knows
 * whether the mirror still accounts for every roced root (orphans).
 * Losing notifications (a receive buffer overrun) forgets everything.
 */
#ifndef ROCED_MIRROR_H
#define ROCED_MIRROR_H

#include <stdbool.h>
#include <stddef.h>

#include "plan/diff.h"
#include "kernel/link.h"
#include "model/plan.h"
#include "nlmsg/tc_msg.h"

struct mirror_port {
	int ifindex;
	char name[LINK_NAME_MAX];
	bool dirty;
	/* qdiscs, classes, filters, clsact_shared and clsact_owned; nothing
	 * else */
	struct plan_port tc;
};

struct mirror {
	struct mirror_port *v; /* sorted by ifindex */
	size_t n, cap;
	/* Links without an entry that changed since the last scan. */
	int *unknown;
	size_t nunknown, capunknown;
	/* Set by a scan of every link's qdiscs: every link holding a roced
	 * root is then an entry or in UNKNOWN. */
	bool complete;
	struct tc_msg_rtab_cache rtab; /* for mirror_keep()'s encoding */
};

void mirror_init(struct mirror *m);
void mirror_free(struct mirror *m);

/* Something changed on IFINDEX that roced did not do. */
void mirror_note(struct mirror *m, int ifindex);
/* IFINDEX is gone, and its qdiscs with it. */
void mirror_gone(struct mirror *m, int ifindex);
/* Notifications were lost: trust nothing. */
void mirror_lost(struct mirror *m);
/* A qdisc scan of every link was just taken, for a pass over every port
 * that holds a roced root: nothing is unknown any more, and dirty entries
 * go (the pass observes those it plans, and the scan found no root of
 * roced's on the others). */
void mirror_scanned(struct mirror *m);
/* Does the mirror alone account for every link holding a roced root (no
 * scan needed to find orphans)? */
bool mirror_complete(const struct mirror *m);

/* The clean entry of IFINDEX under NAME, or NULL (observe the port). */
const struct mirror_port *mirror_clean(const struct mirror *m, int ifindex,
                                       const char *name);
/* Copy ENTRY's objects into HAVE (tc part, emptied first). Returns 0 or
 * -ENOMEM. */
int mirror_fill(const struct mirror_port *entry, struct plan_port *have);

/* Remember what IFINDEX (NAME) holds after a pass that ended well: HAVE
 * as observed or mirrored before, WANT the plan, OPS what was written
 * (none: HAVE stands). Objects OPS added or changed are kept as the
 * kernel will report them (encoded and decoded again), the others as HAVE
 * has them. Returns 0 or -ENOMEM (the entry is then dropped). */
int mirror_keep(struct mirror *m, int ifindex, const char *name,
                const struct plan_port *want, const struct plan_port *have,
                const struct diff *ops);
/* Drop IFINDEX's entry (it goes back to being observed). */
void mirror_forget(struct mirror *m, int ifindex);

/* Call CB for every clean entry holding a roced root qdisc. */
void mirror_roots(const struct mirror *m,
                  void (*cb)(const struct mirror_port *e, void *data),
                  void *data);

#endif
