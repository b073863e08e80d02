/* tc: see tc.h. */
#include "tc.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tc_msg.h"

struct tc_obs {
	struct tc_observe_port *ports;
	size_t n;
	uint32_t parent; /* the filter block being dumped */
	int ifindex;     /* the port being dumped (classes, filters) */
	int rc;
};

static struct tc_observe_port *tc_port(struct tc_obs *o, int ifindex)
{
	for (size_t i = 0; i < o->n; i++)
		if (o->ports[i].ifindex == ifindex)
			return &o->ports[i];
	return NULL;
}

static const struct plan_qdisc *tc_roced_root(const struct plan_port *pp)
{
	for (size_t i = 0; i < pp->nqdiscs; i++)
		if (pp->qdiscs[i].parent == PLAN_H_ROOT)
			return &pp->qdiscs[i];
	return NULL;
}

static int tc_qdisc_cb(const struct nlmsghdr *nlh, void *data)
{
	struct tc_obs *o = data;
	struct tc_observe_port *p;
	struct tc_msg_qdisc m;
	struct plan_qdisc *q;

	if (tc_msg_qdisc_parse(nlh, nlh->nlmsg_len, &m) < 0)
		return MNL_CB_OK; /* another kind of message: not ours */
	p = tc_port(o, m.ifindex);
	if (!p)
		return MNL_CB_OK;
	if (!strcmp(m.kind, "clsact"))
		p->info.clsact = true;
	else if (m.parent == PLAN_H_ROOT && !m.roced &&
	         PLAN_H_MAJ(m.handle) != 0) {
		/* Kernel defaults (noqueue, pfifo_fast, mq, fq_codel) have
		 * handle 0:; anything else at the root was put there. */
		p->info.foreign_root = true;
		p->info.foreign_handle = m.handle;
		snprintf(p->info.foreign_kind, sizeof(p->info.foreign_kind),
		         "%s", m.kind);
		return MNL_CB_OK;
	}
	if (!m.known || (!m.roced && strcmp(m.kind, "clsact")))
		return MNL_CB_OK;
	q = plan_port_add_qdisc(p->have);
	if (!q) {
		o->rc = -ENOMEM;
		return MNL_CB_ERROR;
	}
	*q = m.q;
	return MNL_CB_OK;
}

static int tc_class_cb(const struct nlmsghdr *nlh, void *data)
{
	struct tc_obs *o = data;
	struct tc_observe_port *p;
	struct tc_msg_class m;
	struct plan_class *c;

	if (tc_msg_class_parse(nlh, nlh->nlmsg_len, &m) < 0 || !m.known ||
	    !m.roced)
		return MNL_CB_OK;
	p = tc_port(o, m.ifindex);
	if (!p)
		return MNL_CB_OK;
	c = plan_port_add_class(p->have);
	if (!c) {
		o->rc = -ENOMEM;
		return MNL_CB_ERROR;
	}
	*c = m.c;
	return MNL_CB_OK;
}

static int tc_filter_cb(const struct nlmsghdr *nlh, void *data)
{
	struct tc_obs *o = data;
	struct tc_observe_port *p;
	struct tc_msg_filter m;
	struct plan_filter *f;

	if (tc_msg_filter_parse(nlh, nlh->nlmsg_len, &m) < 0 || !m.rule)
		return MNL_CB_OK;
	p = tc_port(o, o->ifindex);
	if (!p)
		return MNL_CB_OK;
	if (!m.roced) {
		/* Someone else's filter on clsact: the qdisc is shared. */
		if (o->parent == PLAN_H_CLSACT_INGRESS ||
		    o->parent == PLAN_H_CLSACT_EGRESS)
			p->info.clsact_foreign++;
		return MNL_CB_OK;
	}
	f = plan_port_add_filter(p->have);
	if (!f) {
		o->rc = -ENOMEM;
		return MNL_CB_ERROR;
	}
	*f = m.f;
	/* A clsact dump names the qdisc, not the hook: use what we asked. */
	f->parent = o->parent;
	/* A rule in our prio range that roced would not write (edited by
	 * hand) keeps the fields read: diff finds it unequal and replaces it.
	 */
	return MNL_CB_OK;
}

static int tc_dump(struct nlb *nl, enum tc_msg_obj obj, int ifindex,
                   uint32_t parent, mnl_cb_t cb, struct tc_obs *o,
                   struct nlb_error *err)
{
	char req[TC_MSG_BUF_SIZE] __attribute__((aligned(4)));
	int rc = tc_msg_dump(req, sizeof(req), obj, ifindex, parent, 0);

	if (rc < 0)
		return rc;
	o->ifindex = ifindex;
	o->parent = parent;
	rc = nlb_dump(nl, (struct nlmsghdr *)req, cb, o, err);
	return o->rc ? o->rc : rc;
}

static int tc_observe(void *ctx, struct tc_observe_port *ports, size_t n,
                      struct nlb_error *err)
{
	struct tc_obs o = {.ports = ports, .n = n};
	struct nlb *nl = ctx;
	int rc;

	for (size_t i = 0; i < n; i++)
		memset(&ports[i].info, 0, sizeof(ports[i].info));
	rc = tc_dump(nl, TC_MSG_QDISC, 0, 0, tc_qdisc_cb, &o, err);
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < n; i++) {
		struct tc_observe_port *p = &ports[i];
		const struct plan_qdisc *root = tc_roced_root(p->have);

		if (root) {
			rc = tc_dump(nl, TC_MSG_CLASS, p->ifindex, 0,
			             tc_class_cb, &o, err);
			if (!rc)
				rc = tc_dump(nl, TC_MSG_FILTER, p->ifindex,
				             root->handle, tc_filter_cb, &o,
				             err);
		}
		if (!rc && p->info.clsact)
			rc = tc_dump(nl, TC_MSG_FILTER, p->ifindex,
			             PLAN_H_CLSACT_INGRESS, tc_filter_cb, &o,
			             err);
		if (!rc && p->info.clsact)
			rc = tc_dump(nl, TC_MSG_FILTER, p->ifindex,
			             PLAN_H_CLSACT_EGRESS, tc_filter_cb, &o,
			             err);
		p->have->clsact_shared = p->info.clsact_foreign > 0;
		/* A port that vanished while we looked is simply empty. */
		if (rc == -ENODEV)
			rc = 0;
		if (rc < 0)
			return rc;
	}
	return 0;
}

struct tc_owned {
	void (*cb)(int ifindex, void *data);
	void *data;
};

static int tc_owned_cb(const struct nlmsghdr *nlh, void *data)
{
	struct tc_owned *o = data;
	struct tc_msg_qdisc m;

	if (tc_msg_qdisc_parse(nlh, nlh->nlmsg_len, &m) == 0 && m.roced &&
	    m.parent == PLAN_H_ROOT)
		o->cb(m.ifindex, o->data);
	return MNL_CB_OK;
}

static int tc_owned(void *ctx, void (*cb)(int ifindex, void *data), void *data)
{
	char req[TC_MSG_BUF_SIZE] __attribute__((aligned(4)));
	struct tc_owned o = {.cb = cb, .data = data};
	struct nlb_error err;
	int rc = tc_msg_dump(req, sizeof(req), TC_MSG_QDISC, 0, 0, 0);

	if (rc < 0)
		return rc;
	return nlb_dump(ctx, (struct nlmsghdr *)req, tc_owned_cb, &o, &err);
}

bool tc_op_is_tc(const struct diff_op *op)
{
	return op->obj == DIFF_QDISC || op->obj == DIFF_CLASS ||
	       op->obj == DIFF_FILTER;
}

/* How an operation of diff goes on the wire. A new root or leaf grafts
 * over whatever default qdisc the kernel put there (replace); roced never
 * gets here with a foreign root unless the config says to take it over. */
static enum tc_msg_op tc_wire_op(const struct diff_op *op)
{
	switch (op->kind) {
	case DIFF_ADD:
		if (op->obj == DIFF_QDISC && op->u.qdisc.kind != PLAN_QD_CLSACT)
			return TC_MSG_REPLACE;
		return TC_MSG_ADD;
	case DIFF_CHANGE:
		return TC_MSG_CHANGE;
	case DIFF_DEL:
		return TC_MSG_DEL;
	}
	return TC_MSG_ADD;
}

static int tc_queue(void *ctx, struct nlb_batch *b, int ifindex,
                    const struct diff_op *ops, size_t n)
{
	struct nlb *nl = ctx;
	int queued = 0;

	for (size_t i = 0; i < n; i++) {
		const struct diff_op *op = &ops[i];
		char *buf;
		int rc;

		if (!tc_op_is_tc(op))
			continue;
		buf = nlb_batch_next(b, TC_MSG_BUF_SIZE);
		if (!buf)
			return -ENOMEM;
		switch (op->obj) {
		case DIFF_QDISC:
			rc = tc_msg_qdisc(buf, TC_MSG_BUF_SIZE, tc_wire_op(op),
			                  ifindex, 0, &op->u.qdisc);
			break;
		case DIFF_CLASS:
			rc = tc_msg_class(buf, TC_MSG_BUF_SIZE, tc_wire_op(op),
			                  ifindex, 0, &op->u.cls);
			break;
		default:
			rc = tc_msg_filter(buf, TC_MSG_BUF_SIZE, tc_wire_op(op),
			                   ifindex, 0, &op->u.filter);
			break;
		}
		if (rc < 0)
			return rc;
		nlb_batch_commit(nl, b);
		queued++;
	}
	return queued;
}

static int tc_send(void *ctx, struct nlb_batch *b, nlb_fail_cb cb, void *data)
{
	return nlb_batch_send_each(ctx, b, cb, data);
}

const struct tc_ops tc_ops_netlink = {
    .observe = tc_observe,
    .queue = tc_queue,
    .owned = tc_owned,
    .send = tc_send,
};
