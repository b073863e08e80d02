/* mirror: see mirror.h. */
#include "kernel/mirror.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nlmsg/tc_msg.h"

void mirror_init(struct mirror *m)
{
	memset(m, 0, sizeof(*m));
}

void mirror_free(struct mirror *m)
{
	for (size_t i = 0; i < m->n; i++)
		plan_port_clear_tc(&m->v[i].tc);
	free(m->v);
	free(m->unknown);
	mirror_init(m);
}

/* The entry of IFINDEX, or where it would go. */
static size_t mirror_pos(const struct mirror *m, int ifindex)
{
	size_t lo = 0, hi = m->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->v[mid].ifindex < ifindex)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static struct mirror_port *mirror_find(const struct mirror *m, int ifindex)
{
	size_t i = mirror_pos(m, ifindex);

	return i < m->n && m->v[i].ifindex == ifindex ? &m->v[i] : NULL;
}

void mirror_note(struct mirror *m, int ifindex)
{
	struct mirror_port *e = mirror_find(m, ifindex);

	if (e) {
		e->dirty = true;
		return;
	}
	for (size_t i = 0; i < m->nunknown; i++)
		if (m->unknown[i] == ifindex)
			return;
	if (m->nunknown == m->capunknown) {
		size_t ncap = m->capunknown ? m->capunknown * 2 : 16;
		int *nv = realloc(m->unknown, ncap * sizeof(*nv));

		if (!nv) {
			/* cannot remember it: remember that we cannot */
			m->complete = false;
			return;
		}
		m->unknown = nv;
		m->capunknown = ncap;
	}
	m->unknown[m->nunknown++] = ifindex;
}

static void mirror_unknown_drop(struct mirror *m, int ifindex)
{
	for (size_t i = 0; i < m->nunknown; i++) {
		if (m->unknown[i] == ifindex) {
			m->unknown[i] = m->unknown[--m->nunknown];
			return;
		}
	}
}

void mirror_gone(struct mirror *m, int ifindex)
{
	mirror_forget(m, ifindex);
	mirror_unknown_drop(m, ifindex);
}

void mirror_lost(struct mirror *m)
{
	for (size_t i = 0; i < m->n; i++)
		m->v[i].dirty = true;
	m->nunknown = 0;
	m->complete = false;
}

void mirror_scanned(struct mirror *m)
{
	size_t k = 0;

	for (size_t i = 0; i < m->n; i++) {
		if (m->v[i].dirty)
			plan_port_clear_tc(&m->v[i].tc);
		else
			m->v[k++] = m->v[i];
	}
	m->n = k;
	m->nunknown = 0;
	m->complete = true;
}

bool mirror_complete(const struct mirror *m)
{
	if (!m->complete || m->nunknown)
		return false;
	/* a dirty entry may hold a root by now */
	for (size_t i = 0; i < m->n; i++)
		if (m->v[i].dirty)
			return false;
	return true;
}

const struct mirror_port *mirror_clean(const struct mirror *m, int ifindex,
                                       const char *name)
{
	const struct mirror_port *e = mirror_find(m, ifindex);

	if (!e || e->dirty || strcmp(e->name, name))
		return NULL;
	return e;
}

int mirror_fill(const struct mirror_port *entry, struct plan_port *have)
{
	return plan_port_copy_tc(have, &entry->tc);
}

/* --- what the kernel holds after a pass --- */

/* Did OPS add or change the object? */
static bool mirror_written(const struct diff *ops, enum diff_obj obj,
                           uint32_t id, uint16_t prio)
{
	for (size_t i = 0; i < ops->n; i++) {
		const struct diff_op *op = &ops->ops[i];

		if (op->kind == DIFF_DEL || op->obj != obj)
			continue;
		if ((obj == DIFF_QDISC && op->u.qdisc.handle == id) ||
		    (obj == DIFF_CLASS && op->u.cls.classid == id) ||
		    (obj == DIFF_FILTER && op->u.filter.parent == id &&
		     op->u.filter.prio == prio))
			return true;
	}
	return false;
}

/* Q, C and F as a dump will show them once written: the request decoded
 * (kernel-chosen values, like an HTB quantum of 0, stay as sent, which
 * tc_msg_*_same() takes for "anything"). */
static int mirror_canon_qdisc(struct plan_qdisc *q)
{
	char buf[TC_MSG_BUF_SIZE] __attribute__((aligned(4)));
	struct tc_msg_qdisc d;
	int rc = tc_msg_qdisc(buf, sizeof(buf), TC_MSG_ADD, 1, 0, q);

	if (!rc)
		rc = tc_msg_qdisc_parse(buf, sizeof(buf), &d);
	if (!rc && !d.known)
		rc = -EINVAL;
	if (!rc)
		*q = d.q;
	return rc;
}

static int mirror_canon_class(struct plan_class *c,
                              struct tc_msg_rtab_cache *rtab)
{
	char buf[TC_MSG_BUF_SIZE] __attribute__((aligned(4)));
	struct tc_msg_class d;
	int rc =
	    tc_msg_class_cached(buf, sizeof(buf), TC_MSG_ADD, 1, 0, c, rtab);

	if (!rc)
		rc = tc_msg_class_parse(buf, sizeof(buf), &d);
	if (!rc && !d.known)
		rc = -EINVAL;
	if (!rc)
		*c = d.c;
	return rc;
}

static int mirror_canon_filter(struct plan_filter *f)
{
	char buf[TC_MSG_BUF_SIZE] __attribute__((aligned(4)));
	struct tc_msg_filter d;
	int rc = tc_msg_filter(buf, sizeof(buf), TC_MSG_ADD, 1, 0, f);

	if (!rc)
		rc = tc_msg_filter_parse(buf, sizeof(buf), &d);
	if (!rc && !d.rule)
		rc = -EINVAL;
	if (!rc)
		*f = d.f;
	return rc;
}

/* WANT's objects as the kernel holds them after OPS, into ST (empty). */
static int mirror_after(struct plan_port *st, const struct plan_port *want,
                        const struct plan_port *have, const struct diff *ops,
                        struct tc_msg_rtab_cache *rtab)
{
	bool clsact = false;
	int rc = 0;

	for (size_t i = 0; !rc && i < want->nqdiscs; i++) {
		const struct plan_qdisc *w = &want->qdiscs[i];
		const struct plan_qdisc *h = plan_port_qdisc(have, w->handle);
		struct plan_qdisc *q = plan_port_add_qdisc(st);

		if (!q)
			return -ENOMEM;
		clsact = clsact || w->kind == PLAN_QD_CLSACT;
		if (h && !mirror_written(ops, DIFF_QDISC, w->handle, 0)) {
			*q = *h;
		} else {
			*q = *w;
			rc = mirror_canon_qdisc(q);
		}
	}
	for (size_t i = 0; !rc && i < want->nclasses; i++) {
		const struct plan_class *w = &want->classes[i];
		const struct plan_class *h = plan_port_class(have, w->classid);
		struct plan_class *c = plan_port_add_class(st);

		if (!c)
			return -ENOMEM;
		if (h && !mirror_written(ops, DIFF_CLASS, w->classid, 0)) {
			*c = *h;
		} else {
			*c = *w;
			rc = mirror_canon_class(c, rtab);
		}
	}
	for (size_t i = 0; !rc && i < want->nfilters; i++) {
		const struct plan_filter *w = &want->filters[i];
		const struct plan_filter *h =
		    plan_port_filter(have, w->parent, w->prio);
		struct plan_filter *f = plan_port_add_filter(st);

		if (!f)
			return -ENOMEM;
		if (h &&
		    !mirror_written(ops, DIFF_FILTER, w->parent, w->prio)) {
			*f = *h;
		} else {
			*f = *w;
			rc = mirror_canon_filter(f);
		}
	}
	/* diff keeps a clsact that carries someone else's filters, or that
	 * roced did not create. */
	for (size_t i = 0; !rc && !clsact && i < have->nqdiscs; i++) {
		struct plan_qdisc *q;

		if (have->qdiscs[i].kind != PLAN_QD_CLSACT ||
		    (have->clsact_owned && !have->clsact_shared))
			continue;
		q = plan_port_add_qdisc(st);
		if (!q)
			return -ENOMEM;
		*q = have->qdiscs[i];
		clsact = true;
	}
	st->clsact_shared = have->clsact_shared;
	/* roced's when it was before, or when OPS created it (with the
	 * mark) */
	st->clsact_owned =
	    clsact && (have->clsact_owned ||
	               mirror_written(ops, DIFF_QDISC, PLAN_H_CLSACT, 0));
	return rc;
}

static bool mirror_tc_ops(const struct diff *ops)
{
	for (size_t i = 0; ops && i < ops->n; i++)
		if (ops->ops[i].obj == DIFF_QDISC ||
		    ops->ops[i].obj == DIFF_CLASS ||
		    ops->ops[i].obj == DIFF_FILTER)
			return true;
	return false;
}

int mirror_keep(struct mirror *m, int ifindex, const char *name,
                const struct plan_port *want, const struct plan_port *have,
                const struct diff *ops)
{
	struct plan_port st;
	struct mirror_port *e;
	size_t at;
	int rc;

	memset(&st, 0, sizeof(st));
	if (mirror_tc_ops(ops))
		rc = mirror_after(&st, want, have, ops, &m->rtab);
	else
		rc = plan_port_copy_tc(&st, have);
	if (rc < 0) {
		plan_port_clear_tc(&st);
		mirror_forget(m, ifindex);
		return rc;
	}
	e = mirror_find(m, ifindex);
	if (!e) {
		if (m->n == m->cap) {
			size_t ncap = m->cap ? m->cap * 2 : 64;
			struct mirror_port *nv =
			    realloc(m->v, ncap * sizeof(*nv));

			if (!nv) {
				plan_port_clear_tc(&st);
				return -ENOMEM;
			}
			m->v = nv;
			m->cap = ncap;
		}
		at = mirror_pos(m, ifindex);
		memmove(&m->v[at + 1], &m->v[at], (m->n - at) * sizeof(*m->v));
		m->n++;
		e = &m->v[at];
		memset(e, 0, sizeof(*e));
		e->ifindex = ifindex;
	}
	plan_port_clear_tc(&e->tc);
	e->tc = st;
	snprintf(e->name, sizeof(e->name), "%s", name);
	e->dirty = false;
	mirror_unknown_drop(m, ifindex); /* accounted for now */
	return 0;
}

void mirror_forget(struct mirror *m, int ifindex)
{
	size_t at = mirror_pos(m, ifindex);

	if (at >= m->n || m->v[at].ifindex != ifindex)
		return;
	plan_port_clear_tc(&m->v[at].tc);
	memmove(&m->v[at], &m->v[at + 1], (m->n - at - 1) * sizeof(*m->v));
	m->n--;
}

void mirror_roots(const struct mirror *m,
                  void (*cb)(const struct mirror_port *e, void *data),
                  void *data)
{
	for (size_t i = 0; i < m->n; i++) {
		const struct mirror_port *e = &m->v[i];

		if (e->dirty)
			continue;
		for (size_t k = 0; k < e->tc.nqdiscs; k++) {
			if (e->tc.qdiscs[k].parent == PLAN_H_ROOT) {
				cb(e, data);
				break;
			}
		}
	}
}
