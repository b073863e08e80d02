/* diff: the minimal, ordered operations that turn what a port holds into
 * what its plan wants. Pure.
 *
 * WANT is compile()'s plan for the port. HAVE is the same structure filled
 * from the kernel (only roced's own objects, recognised by handle and
 * filter priority) and from dcbnl. Applying an unchanged plan yields no
 * operation. The order is one the kernel accepts: stale filters go first,
 * then qdiscs and classes parents-first, then new filters; a root whose
 * kind changes is deleted (taking its subtree) and rebuilt.
 *
 * Rollback uses the same function: diff(want = state before, have = state
 * after a failure) undoes a half-applied port.
 */
#ifndef ROCED_DIFF_H
#define ROCED_DIFF_H

#include <stdbool.h>
#include <stddef.h>

#include "model/plan.h"

enum diff_kind {
	DIFF_ADD,    /* create (leaves and roots graft over kernel defaults) */
	DIFF_CHANGE, /* same identity, new parameters */
	DIFF_DEL,
};

enum diff_obj {
	DIFF_QDISC,
	DIFF_CLASS,
	DIFF_FILTER,
	DIFF_DCB_PFC,   /* whole IEEE PFC struct from want->dcb */
	DIFF_DCB_ETS,   /* whole IEEE ETS struct from want->dcb */
	DIFF_DCB_APP,   /* one APP entry, ADD or DEL */
	DIFF_DCB_TRUST, /* apptrust order */
	DIFF_MTU,
	DIFF_LINK_PAUSE, /* 802.3x rx/tx from want->dcb (ethtool PAUSE_SET) */
};

struct diff_op {
	enum diff_kind kind;
	enum diff_obj obj;
	union {
		struct plan_qdisc qdisc;
		struct plan_class cls;
		struct plan_filter filter;
		struct plan_app app;
		uint32_t mtu;
	} u; /* the wanted object, or the existing one for DIFF_DEL */
};

struct diff {
	struct diff_op *ops;
	size_t n, cap;
	bool oom;
};

void diff_init(struct diff *d);
void diff_free(struct diff *d);

/* Append to OUT the operations that turn HAVE into WANT. When
 * WANT->dcb.software is set the DCB part is realised by roced through the
 * tc part and yields no dcbnl operation; when WANT->dcb.unmanaged is set
 * neither DCB nor the MTU yields any, except an MTU to give back
 * (WANT->dcb.mtu_restore). Returns 0 or -ENOMEM. */
int diff_port(const struct plan_port *want, const struct plan_port *have,
              struct diff *out);

/* Object equality is tc_msg_*_same(): the fields the kernel stores, with
 * the values the plan leaves to the kernel matching anything. */

const char *diff_kind_name(enum diff_kind k);
const char *diff_obj_name(enum diff_obj o);

#endif
