/* reconcile: make the kernel hold a plan. observe -> diff -> apply, per
 * port, as a transaction.
 *
 * Every port of the plan is observed (one qdisc dump for all, or the
 * caller's scan, then what each port needs; or its clean mirror entry), diffed
 * against its plan, and the operations of all ports go to the kernel in one
 * pipelined batch. When the kernel refuses an operation, that port alone is
 * observed again and put back as it was before (diff of "before" against
 * "now"), and its result names the port, the object and the kernel's own words.
 * Ports that do not exist yet are reported absent and left for the link
 * monitor.
 */
#ifndef ROCED_RECONCILE_H
#define ROCED_RECONCILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/dcb.h"
#include "kernel/ethtool.h"
#include "kernel/link.h"
#include "kernel/mirror.h"
#include "model/plan.h"
#include "kernel/tc.h"

enum reconcile_status {
	RECONCILE_OK,
	RECONCILE_ABSENT,      /* no such link (yet) */
	RECONCILE_REFUSED,     /* a foreign root qdisc is in the way */
	RECONCILE_ROLLED_BACK, /* the kernel refused; the port is as before */
	RECONCILE_FAILED,      /* refused, and the rollback failed too; or
	                          its state could not be read */
};

struct reconcile_result {
	char ifname[POLICY_IFNAME_MAX];
	enum reconcile_status status;
	size_t writes; /* operations sent for this port (rollback included) */
	char error[512];
	/* RECONCILE_REFUSED: the root qdisc in the way, as the kernel has
	 * it. */
	char foreign_kind[16];
	uint32_t foreign_handle;
	/* RECONCILE_OK after this pass changed the link's MTU: the MTU it
	 * had before (0 otherwise), for the registry to give back. */
	uint32_t mtu_before;
};

struct reconcile {
	const struct tc_ops *tc;
	void *tc_ctx;
	const struct dcb_ops *dcb;
	void *dcb_ctx;
	struct link_mon *links;
	/* Link pause on hardware ports (ethtool PAUSE_GET / PAUSE_SET);
	 * NULL: none, and a plan that sets it is refused on that port. */
	struct ethtool *ethtool;
	/* Replace a root qdisc roced did not create (config: takeover). */
	bool takeover;
	/* A qdisc scan taken just before (nothing written since), so that
	 * observation does not dump every qdisc again; NULL: scan. */
	const struct tc_scan *scan;
	/* The daemon's mirror of roced's tc objects (NULL: none): ports
	 * with a clean entry are not observed, and every port's entry is
	 * brought up to date (kept after a pass that ended well, dirty
	 * otherwise). */
	struct mirror *mirror;
};

/* Apply PL; RES has room for PL->nports results, in plan order. Returns
 * 0 when every present port is OK, -EAGAIN when some port was refused or
 * rolled back, or -errno when the pass stopped before its first write
 * (observation failed, or no memory to work out the writes): then nothing
 * was written, and the ports that could not be read are RECONCILE_FAILED
 * with an error saying what could not be read and why. Trouble after the
 * first write is the port's own: it is rolled back. */
int reconcile_apply(const struct reconcile *r, const struct plan *pl,
                    struct reconcile_result *res);

const char *reconcile_status_name(enum reconcile_status s);

#endif
