/* diff: see diff.h. */
#include "plan/diff.h"
#include "nlmsg/tc_msg.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <linux/pkt_sched.h>

void diff_init(struct diff *d)
{
	memset(d, 0, sizeof(*d));
}

void diff_free(struct diff *d)
{
	free(d->ops);
	diff_init(d);
}

static struct diff_op *diff_push(struct diff *d, enum diff_kind kind,
                                 enum diff_obj obj)
{
	struct diff_op *op;

	if (d->n == d->cap) {
		size_t ncap = d->cap ? d->cap * 2 : 32;
		struct diff_op *nv = realloc(d->ops, ncap * sizeof(*nv));

		if (!nv) {
			d->oom = true;
			return NULL;
		}
		d->ops = nv;
		d->cap = ncap;
	}
	op = &d->ops[d->n++];
	memset(op, 0, sizeof(*op));
	op->kind = kind;
	op->obj = obj;
	return op;
}

#define DIFF_PUSH(d, kind, obj, field, val)                                    \
	do {                                                                   \
		struct diff_op *op_ = diff_push((d), (kind), (obj));           \
		if (op_)                                                       \
			op_->u.field = (val);                                  \
	} while (0)

static const struct plan_qdisc *diff_root(const struct plan_port *p)
{
	for (size_t i = 0; i < p->nqdiscs; i++)
		if (p->qdiscs[i].parent == PLAN_H_ROOT)
			return &p->qdiscs[i];
	return NULL;
}

static bool diff_app_has(const struct plan_dcb *d, const struct plan_app *a)
{
	for (size_t i = 0; i < d->napp; i++)
		if (d->app[i].selector == a->selector &&
		    d->app[i].protocol == a->protocol &&
		    d->app[i].priority == a->priority)
			return true;
	return false;
}

static void diff_dcb(const struct plan_port *want, const struct plan_port *have,
                     struct diff *out)
{
	const struct plan_dcb *w = &want->dcb, *h = &have->dcb;

	if (w->mtu && w->mtu != h->mtu && (!w->unmanaged || w->mtu_restore))
		DIFF_PUSH(out, DIFF_CHANGE, DIFF_MTU, mtu, w->mtu);
	/* Left alone, or realised through the tc part. */
	if (w->unmanaged || w->software)
		return;
	if (w->pfc_en != h->pfc_en)
		diff_push(out, DIFF_CHANGE, DIFF_DCB_PFC);
	if (memcmp(w->ets_tsa, h->ets_tsa, sizeof(w->ets_tsa)) ||
	    memcmp(w->ets_bw, h->ets_bw, sizeof(w->ets_bw)) ||
	    memcmp(w->prio_tc, h->prio_tc, sizeof(w->prio_tc)))
		diff_push(out, DIFF_CHANGE, DIFF_DCB_ETS);
	/* Add before deleting, as `dcb app replace` does: a DSCP that moves
	 * to another priority is never left unmapped in between. */
	for (size_t i = 0; i < w->napp; i++)
		if (!diff_app_has(h, &w->app[i]))
			DIFF_PUSH(out, DIFF_ADD, DIFF_DCB_APP, app, w->app[i]);
	for (size_t i = 0; i < h->napp; i++)
		if (!diff_app_has(w, &h->app[i]))
			DIFF_PUSH(out, DIFF_DEL, DIFF_DCB_APP, app, h->app[i]);
	if (w->ntrust != h->ntrust ||
	    memcmp(w->trust, h->trust, w->ntrust * sizeof(w->trust[0])))
		diff_push(out, DIFF_CHANGE, DIFF_DCB_TRUST);
	/* Unread (the driver did not answer PAUSE_GET) counts as different:
	 * the write then says why the port has no link pause. */
	if (w->pause_managed &&
	    (!h->pause_managed || w->pause_rx != h->pause_rx ||
	     w->pause_tx != h->pause_tx))
		diff_push(out, DIFF_CHANGE, DIFF_LINK_PAUSE);
}

/* Classes whose depth diff_port() keeps on the stack (a policy has 9). */
#define DIFF_DEPTHS_ON_STACK 64

/* How many classes of P stand above C (0 for a class under the qdisc). */
static unsigned diff_class_depth(const struct plan_port *p,
                                 const struct plan_class *c)
{
	unsigned depth = 0;

	/* bounded: a loop of parents must not hang us */
	while (depth < TC_HTB_MAXDEPTH &&
	       (c = plan_port_class(p, c->parent)) != NULL)
		depth++;
	return depth;
}

/* Is class CLASSID deleted and created again (moved to another parent)?
 * Its leaf qdisc dies with it and must be added again. */
static bool diff_class_recreated(const struct plan_port *want,
                                 const struct plan_port *have, uint32_t classid)
{
	const struct plan_class *w = plan_port_class(want, classid);
	const struct plan_class *h = plan_port_class(have, classid);

	return w && h && w->parent != h->parent;
}

/* Does class W hold what the kernel's H holds? htb takes a class's
 * quantum and prio only while the class is a leaf (htb_change_class sets
 * them for level 0 alone) and uses neither once it has children. An inner
 * class created under an earlier plan (another MTU, so another quantum)
 * therefore keeps that plan's quantum whatever is sent: comparing it would
 * write the class again on every pass and never converge (found by
 * tests/integration/chaos.sh: `roced --once` wrote 1 on such ports). */
static bool diff_class_same(const struct plan_port *have,
                            const struct plan_class *w,
                            const struct plan_class *h)
{
	struct plan_class v = *w;

	for (size_t i = 0; i < have->nclasses; i++) {
		if (have->classes[i].parent == h->classid) {
			v.quantum = h->quantum;
			v.prio = h->prio;
			break;
		}
	}
	return tc_msg_class_same(&v, h);
}

/* Does deleting HAVE's root take this object with it? */
static bool diff_under_root(const struct plan_qdisc *root, uint32_t parent)
{
	return root && PLAN_H_MAJ(parent) == PLAN_H_MAJ(root->handle);
}

/* The qdisc of P that PARENT (a classid) belongs to when that is not
 * P's root: a leaf holding an inner qdisc. */
static const struct plan_qdisc *diff_parent_leaf(const struct plan_port *p,
                                                 uint32_t parent)
{
	const struct plan_qdisc *q;

	if (parent == PLAN_H_ROOT || parent == PLAN_H_CLSACT)
		return NULL;
	q = plan_port_qdisc(p, PLAN_H_MAKE(PLAN_H_MAJ(parent), 0));
	return q && q->parent != PLAN_H_ROOT ? q : NULL;
}

/* Does H, a qdisc of HAVE, go when a qdisc above it is deleted: the root
 * GONE, or a leaf that DEL (one flag per qdisc of HAVE) deletes? */
static bool diff_dies_with(const struct plan_port *have,
                           const struct plan_qdisc *gone, const bool *del,
                           const struct plan_qdisc *h)
{
	/* bounded: a loop of parents must not hang us */
	for (unsigned depth = 0; h && depth < 8; depth++) {
		const struct plan_qdisc *up;

		if (diff_under_root(gone, h->parent))
			return true;
		up = diff_parent_leaf(have, h->parent);
		if (up && del[up - have->qdiscs])
			return true;
		h = up;
	}
	return false;
}

/* Is W, a qdisc of WANT inside a leaf, to be added again because its leaf
 * is (ADDED: one flag per qdisc of WANT)? */
static bool diff_leaf_readded(const struct plan_port *want, const bool *added,
                              const struct plan_qdisc *w)
{
	const struct plan_qdisc *up = diff_parent_leaf(want, w->parent);

	return up && added[up - want->qdiscs];
}

/* The leaves of WANT (not the root, not clsact) that are NESTED (inside
 * another leaf) or not, added or changed against HAVE. */
static void diff_leaves(const struct plan_port *want,
                        const struct plan_port *have, bool gone, bool nested,
                        bool *added, struct diff *out)
{
	for (size_t i = 0; i < want->nqdiscs; i++) {
		const struct plan_qdisc *w = &want->qdiscs[i];
		const struct plan_qdisc *h = plan_port_qdisc(have, w->handle);

		if (w->parent == PLAN_H_ROOT || w->kind == PLAN_QD_CLSACT ||
		    (diff_parent_leaf(want, w->parent) != NULL) != nested)
			continue;
		if (!h || gone || h->kind != w->kind ||
		    h->parent != w->parent ||
		    diff_class_recreated(want, have, w->parent) ||
		    (nested && diff_leaf_readded(want, added, w))) {
			added[i] = true;
			DIFF_PUSH(out, DIFF_ADD, DIFF_QDISC, qdisc, *w);
		} else if (!tc_msg_qdisc_same(w, h))
			DIFF_PUSH(out, DIFF_CHANGE, DIFF_QDISC, qdisc, *w);
	}
}

int diff_port(const struct plan_port *want, const struct plan_port *have,
              struct diff *out)
{
	const struct plan_qdisc *wroot = diff_root(want);
	const struct plan_qdisc *hroot = diff_root(have);
	/* A root of another kind (or none wanted) is deleted with its whole
	 * subtree and rebuilt: the kernel cannot change a qdisc's kind, nor
	 * an htb root's default class or r2q. */
	bool rebuild =
	    hroot &&
	    (!wroot || wroot->kind != hroot->kind ||
	     wroot->handle != hroot->handle ||
	     (wroot->kind == PLAN_QD_HTB && !tc_msg_qdisc_same(wroot, hroot)));
	const struct plan_qdisc *gone = rebuild ? hroot : NULL;
	uint8_t stack_depths[DIFF_DEPTHS_ON_STACK], *depths = stack_depths;
	unsigned maxdepth = 0;
	bool *del, *added;

	diff_dcb(want, have, out);

	/* 1. Stale or changed filters. Filters on a root being deleted go
	 * with it. */
	for (size_t i = 0; i < have->nfilters; i++) {
		const struct plan_filter *h = &have->filters[i];
		const struct plan_filter *w =
		    plan_port_filter(want, h->parent, h->prio);

		if (diff_under_root(gone, h->parent))
			continue;
		if (!w || !tc_msg_filter_same(w, h))
			DIFF_PUSH(out, DIFF_DEL, DIFF_FILTER, filter, *h);
	}

	/* 2. The old root. */
	if (gone)
		DIFF_PUSH(out, DIFF_DEL, DIFF_QDISC, qdisc, *gone);

	/* 3. Leaves that are unwanted, changed kind or moved: delete first so
	 * that their parent is free for the new leaf. A qdisc inside a leaf
	 * that goes (a software PFC tbf's red) goes with it. */
	del = have->nqdiscs ? calloc(have->nqdiscs, sizeof(*del)) : NULL;
	added = want->nqdiscs ? calloc(want->nqdiscs, sizeof(*added)) : NULL;
	if ((have->nqdiscs && !del) || (want->nqdiscs && !added)) {
		free(del);
		free(added);
		return -ENOMEM;
	}
	for (size_t i = 0; i < have->nqdiscs; i++) {
		const struct plan_qdisc *h = &have->qdiscs[i];
		const struct plan_qdisc *w = plan_port_qdisc(want, h->handle);

		if (h->parent == PLAN_H_ROOT || h->kind == PLAN_QD_CLSACT ||
		    diff_under_root(gone, h->parent))
			continue;
		del[i] = !w || w->kind != h->kind || w->parent != h->parent;
	}
	for (size_t i = 0; i < have->nqdiscs; i++)
		if (del[i] &&
		    !diff_dies_with(have, gone, del, &have->qdiscs[i]))
			DIFF_PUSH(out, DIFF_DEL, DIFF_QDISC, qdisc,
			          have->qdiscs[i]);

	/* 4. Unwanted or moved classes, children before parents. A class
	 * cannot change its parent in place (htb keeps the old one). */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; !gone && i < have->nclasses; i++) {
			const struct plan_class *h = &have->classes[i];
			const struct plan_class *w =
			    plan_port_class(want, h->classid);
			bool child = plan_port_class(have, h->parent) != NULL;

			if ((pass == 0) != child)
				continue;
			if (!w || w->parent != h->parent)
				DIFF_PUSH(out, DIFF_DEL, DIFF_CLASS, cls, *h);
		}
	}

	/* 5. clsact, root, classes, leaves: parents first, in plan order. */
	for (size_t i = 0; i < want->nqdiscs; i++) {
		const struct plan_qdisc *w = &want->qdiscs[i];
		const struct plan_qdisc *h = plan_port_qdisc(have, w->handle);
		bool add;

		if (w->parent != PLAN_H_ROOT && w->kind != PLAN_QD_CLSACT)
			continue;
		add = !h || (w->parent == PLAN_H_ROOT && gone);

		if (add)
			DIFF_PUSH(out, DIFF_ADD, DIFF_QDISC, qdisc, *w);
		else if (!tc_msg_qdisc_same(w, h))
			DIFF_PUSH(out, DIFF_CHANGE, DIFF_QDISC, qdisc, *w);
		if (add && w->kind == PLAN_QD_CLSACT) {
			/* roced's own from now on, for any later roced */
			struct plan_filter mark;

			plan_clsact_mark(&mark);
			DIFF_PUSH(out, DIFF_ADD, DIFF_FILTER, filter, mark);
		}
	}
	/* Parents before children, whatever order WANT lists them in (a
	 * rollback's WANT comes from a kernel dump): htb quietly hangs a
	 * class whose parent does not exist yet under the root. Each class's
	 * depth is worked out once (a reconcile diffs every port). */
	if (want->nclasses > DIFF_DEPTHS_ON_STACK) {
		depths = malloc(want->nclasses);
		if (!depths) {
			free(del);
			free(added);
			return -ENOMEM;
		}
	}
	for (size_t i = 0; i < want->nclasses; i++) {
		depths[i] = (uint8_t)diff_class_depth(want, &want->classes[i]);
		if (depths[i] > maxdepth)
			maxdepth = depths[i];
	}
	for (unsigned depth = 0; depth <= maxdepth && depth < TC_HTB_MAXDEPTH;
	     depth++) {
		for (size_t i = 0; i < want->nclasses; i++) {
			const struct plan_class *w = &want->classes[i];
			const struct plan_class *h;

			if (depths[i] != depth)
				continue;
			h = plan_port_class(have, w->classid);
			if (!h || gone || h->parent != w->parent)
				DIFF_PUSH(out, DIFF_ADD, DIFF_CLASS, cls, *w);
			else if (!diff_class_same(have, w, h))
				DIFF_PUSH(out, DIFF_CHANGE, DIFF_CLASS, cls,
				          *w);
		}
	}
	/* Leaves, then the qdiscs inside them (whatever order WANT lists
	 * them in): one that is added again takes the place of the kernel's
	 * default fifo in its leaf, which the leaf's creation made anew. */
	diff_leaves(want, have, gone, false, added, out);
	diff_leaves(want, have, gone, true, added, out);

	/* 6. New and changed filters, once their classes exist. */
	for (size_t i = 0; i < want->nfilters; i++) {
		const struct plan_filter *w = &want->filters[i];
		const struct plan_filter *h =
		    plan_port_filter(have, w->parent, w->prio);

		if (!h || diff_under_root(gone, h->parent) ||
		    !tc_msg_filter_same(w, h))
			DIFF_PUSH(out, DIFF_ADD, DIFF_FILTER, filter, *w);
	}
	/* 7. A clsact roced created and nobody else uses, that the plan no
	 * longer needs (its filters of ours were deleted in step 1, the mark
	 * goes with it). */
	for (size_t i = 0; i < have->nqdiscs; i++) {
		const struct plan_qdisc *h = &have->qdiscs[i];

		if (h->kind == PLAN_QD_CLSACT && have->clsact_owned &&
		    !have->clsact_shared && !plan_port_qdisc(want, h->handle))
			DIFF_PUSH(out, DIFF_DEL, DIFF_QDISC, qdisc, *h);
	}
	if (depths != stack_depths)
		free(depths);
	free(del);
	free(added);
	return out->oom ? -ENOMEM : 0;
}

const char *diff_kind_name(enum diff_kind k)
{
	switch (k) {
	case DIFF_ADD:
		return "add";
	case DIFF_CHANGE:
		return "change";
	case DIFF_DEL:
		return "delete";
	}
	return "?";
}

const char *diff_obj_name(enum diff_obj o)
{
	switch (o) {
	case DIFF_QDISC:
		return "qdisc";
	case DIFF_CLASS:
		return "class";
	case DIFF_FILTER:
		return "filter";
	case DIFF_DCB_PFC:
		return "dcb pfc";
	case DIFF_DCB_ETS:
		return "dcb ets";
	case DIFF_DCB_APP:
		return "dcb app";
	case DIFF_DCB_TRUST:
		return "dcb apptrust";
	case DIFF_MTU:
		return "link mtu";
	case DIFF_LINK_PAUSE:
		return "link pause";
	}
	return "?";
}
