/* tc: see tc.h. */
#include "kernel/tc.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/filter.h>
#include <linux/rtnetlink.h>

#include "nlmsg/link_msg.h"
#include "nlmsg/tc_msg.h"

struct tc_obs {
	struct tc_observe_port *port; /* the port being dumped */
	uint32_t parent;              /* the filter block being dumped */
	int rc;
	char why[256]; /* a rule of roced's that did not decode */
};

struct tc_scan_entry {
	size_t order;
	struct tc_msg_qdisc m;
};

void tc_scan_init(struct tc_scan *s)
{
	memset(s, 0, sizeof(*s));
}

void tc_scan_free(struct tc_scan *s)
{
	free(s->v);
	tc_scan_init(s);
}

/* Kernel defaults (noqueue, pfifo_fast, mq, fq_codel) have handle 0:;
 * anything else at the root that is not roced's was put there. */
static bool tc_foreign_root(const struct tc_msg_qdisc *m)
{
	return m->parent == PLAN_H_ROOT && !m->roced &&
	       PLAN_H_MAJ(m->handle) != 0 && strcmp(m->kind, "clsact");
}

static bool tc_scan_keeps(const struct tc_msg_qdisc *m)
{
	if (!strcmp(m->kind, "clsact"))
		return true;
	return tc_foreign_root(m) || (m->known && m->roced);
}

struct tc_scanning {
	struct tc_scan *s;
	struct tc_scan_entry *v;
	size_t n, cap;
	int rc;
};

static int tc_scan_cb(const struct nlmsghdr *nlh, void *data)
{
	struct tc_scanning *sc = data;
	struct tc_scan_entry *e;

	if (sc->n == sc->cap) {
		size_t ncap = sc->cap ? sc->cap * 2 : 256;
		struct tc_scan_entry *nv = realloc(sc->v, ncap * sizeof(*nv));

		if (!nv) {
			sc->rc = -ENOMEM;
			return MNL_CB_ERROR;
		}
		sc->v = nv;
		sc->cap = ncap;
	}
	e = &sc->v[sc->n];
	/* Another kind of message, or a qdisc observation never needs. */
	if (tc_msg_qdisc_parse(nlh, nlh->nlmsg_len, &e->m) < 0 ||
	    e->m.deleted || !tc_scan_keeps(&e->m))
		return MNL_CB_OK;
	e->order = sc->n++;
	return MNL_CB_OK;
}

static int tc_scan_cmp(const void *a, const void *b)
{
	const struct tc_scan_entry *x = a, *y = b;

	if (x->m.ifindex != y->m.ifindex)
		return x->m.ifindex < y->m.ifindex ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int tc_scan(void *ctx, struct tc_scan *s, struct nlb_error *err)
{
	struct tc_nl *t = ctx;
	char req[TC_MSG_BUF_SIZE] __attribute__((aligned(4)));
	struct tc_scanning sc = {.s = s};
	int rc = tc_msg_dump(req, sizeof(req), TC_MSG_QDISC, 0, 0, 0);

	tc_scan_free(s);
	if (rc < 0)
		return rc;
	rc = nlb_dump(t->nl, (struct nlmsghdr *)req, tc_scan_cb, &sc, err);
	if (sc.rc)
		rc = sc.rc;
	if (rc < 0) {
		free(sc.v);
		return rc;
	}
	/* The kernel walks device by device, in list order: sort by
	 * ifindex so that a port's qdiscs are found by bisection. */
	if (sc.n)
		qsort(sc.v, sc.n, sizeof(*sc.v), tc_scan_cmp);
	s->v = malloc((sc.n ? sc.n : 1) * sizeof(*s->v));
	if (!s->v) {
		free(sc.v);
		return -ENOMEM;
	}
	for (size_t i = 0; i < sc.n; i++)
		s->v[i] = sc.v[i].m;
	s->n = s->cap = sc.n;
	free(sc.v);
	return 0;
}

/* The first entry of IFINDEX in S (or where it would be). */
static size_t tc_scan_first(const struct tc_scan *s, int ifindex)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->v[mid].ifindex < ifindex)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void tc_scan_roots(const struct tc_scan *s, void (*cb)(int ifindex, void *data),
                   void *data)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].roced && s->v[i].parent == PLAN_H_ROOT)
			cb(s->v[i].ifindex, data);
}

static const struct plan_qdisc *tc_roced_root(const struct plan_port *pp)
{
	for (size_t i = 0; i < pp->nqdiscs; i++)
		if (pp->qdiscs[i].parent == PLAN_H_ROOT)
			return &pp->qdiscs[i];
	return NULL;
}

/* A port's qdiscs, from the scan. */
static int tc_port_qdiscs(const struct tc_scan *s, struct tc_observe_port *p)
{
	for (size_t i = tc_scan_first(s, p->ifindex);
	     i < s->n && s->v[i].ifindex == p->ifindex; i++) {
		const struct tc_msg_qdisc *m = &s->v[i];
		struct plan_qdisc *q;

		if (!strcmp(m->kind, "clsact")) {
			p->info.clsact = true;
		} else if (tc_foreign_root(m)) {
			p->info.foreign_root = true;
			p->info.foreign_handle = m->handle;
			snprintf(p->info.foreign_kind,
			         sizeof(p->info.foreign_kind), "%s", m->kind);
			continue;
		}
		if (!m->known)
			continue;
		q = plan_port_add_qdisc(p->have);
		if (!q)
			return -ENOMEM;
		*q = m->q;
	}
	return 0;
}

static int tc_class_cb(const struct nlmsghdr *nlh, void *data)
{
	struct tc_obs *o = data;
	struct tc_msg_class m;
	struct plan_class *c;

	if (tc_msg_class_parse(nlh, nlh->nlmsg_len, &m) < 0 || !m.known ||
	    !m.roced || m.ifindex != o->port->ifindex)
		return MNL_CB_OK;
	c = plan_port_add_class(o->port->have);
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
	struct tc_observe_port *p = o->port;
	struct tc_msg_filter m;
	struct plan_filter *f;
	int rc = tc_msg_filter_parse(nlh, nlh->nlmsg_len, &m);

	/* A rule of roced's that cannot be read would be added again on
	 * every pass (u32 takes a second rule in the prio): stop there. The
	 * dump is read to its end all the same. */
	if (rc < 0 && rc != -ENOMSG && tc_msg_filter_is_roced(m.f.prio)) {
		if (!o->rc) {
			o->rc = rc;
			snprintf(o->why, sizeof(o->why),
			         "filter prio %u protocol 0x%04x (%s): %s",
			         m.f.prio, m.f.protocol,
			         m.kind[0] ? m.kind : "?",
			         m.why ? m.why : "malformed");
		}
		return MNL_CB_OK;
	}
	if (rc < 0 || !m.rule)
		return MNL_CB_OK;
	if (!m.roced) {
		/* Someone else's filter on clsact: the qdisc is shared. */
		if (o->parent == PLAN_H_CLSACT_INGRESS ||
		    o->parent == PLAN_H_CLSACT_EGRESS)
			p->info.clsact_foreign++;
		return MNL_CB_OK;
	}
	/* roced writes nothing outside chain 0 but its mark (plan.h). */
	if (m.f.chain) {
		if (m.f.chain == PLAN_CLSACT_MARK_CHAIN &&
		    o->parent == PLAN_H_CLSACT_INGRESS)
			p->have->clsact_owned = true;
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

/* What a dump reads, for the port's error. */
static void tc_dump_name(char *buf, size_t len, enum tc_msg_obj obj,
                         uint32_t parent)
{
	if (obj == TC_MSG_CLASS)
		snprintf(buf, len, "the classes");
	else if (parent == PLAN_H_CLSACT_INGRESS)
		snprintf(buf, len, "the filters of clsact ingress");
	else if (parent == PLAN_H_CLSACT_EGRESS)
		snprintf(buf, len, "the filters of clsact egress");
	else
		snprintf(buf, len, "the filters of %x:", PLAN_H_MAJ(parent));
}

static int tc_dump(struct nlb *nl, enum tc_msg_obj obj,
                   struct tc_observe_port *p, uint32_t parent, mnl_cb_t cb,
                   struct tc_obs *o, struct nlb_error *err)
{
	char req[TC_MSG_BUF_SIZE] __attribute__((aligned(4)));
	int rc = tc_msg_dump(req, sizeof(req), obj, p->ifindex, parent, 0);
	char what[64];

	if (rc < 0)
		return rc;
	o->port = p;
	o->parent = parent;
	o->why[0] = '\0';
	rc = nlb_dump(nl, (struct nlmsghdr *)req, cb, o, err);
	if (o->rc)
		rc = o->rc;
	if (rc < 0 && rc != -ENODEV) {
		tc_dump_name(what, sizeof(what), obj, parent);
		if (o->why[0])
			snprintf(p->error, sizeof(p->error),
			         "cannot read %s: %.200s", what, o->why);
		else
			snprintf(p->error, sizeof(p->error),
			         "cannot read %s: %s%s%.200s", what,
			         strerror(-rc), err->msg[0] ? ": " : "",
			         err->msg);
	}
	return rc;
}

static int tc_observe_port(struct nlb *nl, const struct tc_scan *s,
                           struct tc_observe_port *p, struct nlb_error *err)
{
	struct tc_obs o = {.port = p};
	const struct plan_qdisc *root;
	int rc;

	memset(&p->info, 0, sizeof(p->info));
	p->err = 0;
	p->error[0] = '\0';
	rc = tc_port_qdiscs(s, p);
	if (rc < 0)
		return rc;
	root = tc_roced_root(p->have);
	if (root) {
		rc = tc_dump(nl, TC_MSG_CLASS, p, 0, tc_class_cb, &o, err);
		if (!rc)
			rc = tc_dump(nl, TC_MSG_FILTER, p, root->handle,
			             tc_filter_cb, &o, err);
	}
	if (!rc && p->info.clsact)
		rc = tc_dump(nl, TC_MSG_FILTER, p, PLAN_H_CLSACT_INGRESS,
		             tc_filter_cb, &o, err);
	if (!rc && p->info.clsact)
		rc = tc_dump(nl, TC_MSG_FILTER, p, PLAN_H_CLSACT_EGRESS,
		             tc_filter_cb, &o, err);
	p->have->clsact_shared = p->info.clsact_foreign > 0;
	/* A port that vanished while we looked is simply empty. */
	if (rc == -ENODEV)
		return 0;
	p->err = rc;
	if (rc < 0 && !p->error[0])
		snprintf(p->error, sizeof(p->error), "cannot read it: %s",
		         strerror(-rc));
	return rc;
}

static int tc_observe(void *ctx, const struct tc_scan *scan,
                      struct tc_observe_port *ports, size_t n,
                      struct nlb_error *err)
{
	struct tc_nl *t = ctx;
	struct tc_scan own;
	int rc = 0;

	if (!n)
		return 0;
	tc_scan_init(&own);
	if (!scan) {
		rc = tc_scan(ctx, &own, err);
		scan = &own;
	}
	if (rc < 0) {
		for (size_t i = 0; i < n; i++) {
			ports[i].err = rc;
			snprintf(ports[i].error, sizeof(ports[i].error),
			         "cannot read the qdiscs: %s%s%.200s",
			         strerror(-rc), err->msg[0] ? ": " : "",
			         err->msg);
		}
		return rc;
	}
	/* Every port, so that each one that cannot be read says why. */
	for (size_t i = 0; i < n; i++) {
		int prc = tc_observe_port(t->nl, scan, &ports[i], err);

		if (prc < 0 && !rc)
			rc = prc;
		if (prc == -ENOMEM)
			break;
	}
	tc_scan_free(&own);
	return rc;
}

bool tc_op_is_tc(const struct diff_op *op)
{
	return op->obj == DIFF_QDISC || op->obj == DIFF_CLASS ||
	       op->obj == DIFF_FILTER;
}

bool tc_op_batched(const struct diff_op *op)
{
	return tc_op_is_tc(op) || op->obj == DIFF_MTU;
}

/* How an operation of diff goes on the wire. A new root or leaf grafts
 * over whatever default qdisc the kernel put there (replace); roced never
 * gets here with a foreign root unless the config says to take it over.
 * Returns -EINVAL for a kind diff does not make. */
static int tc_wire_op(const struct diff_op *op, enum tc_msg_op *out)
{
	switch (op->kind) {
	case DIFF_ADD:
		*out =
		    op->obj == DIFF_QDISC && op->u.qdisc.kind != PLAN_QD_CLSACT
		        ? TC_MSG_REPLACE
		        : TC_MSG_ADD;
		return 0;
	case DIFF_CHANGE:
		*out = TC_MSG_CHANGE;
		return 0;
	case DIFF_DEL:
		*out = TC_MSG_DEL;
		return 0;
	}
	return -EINVAL;
}

_Static_assert(TC_MSG_BUF_SIZE >= LINK_MSG_SIZE,
               "an MTU request in a tc buffer");

/* Encode OP for IFINDEX into BUF (TC_MSG_BUF_SIZE bytes). */
static int tc_encode(struct tc_nl *t, char *buf, int ifindex,
                     const struct diff_op *op)
{
	enum tc_msg_op wire;
	int rc = tc_wire_op(op, &wire);

	if (rc < 0)
		return rc;
	switch (op->obj) {
	case DIFF_MTU:
		/* `ip link set mtu` has but the one form */
		return op->kind == DIFF_CHANGE
		           ? link_msg_mtu(buf, TC_MSG_BUF_SIZE, 0, ifindex,
		                          op->u.mtu)
		           : -EINVAL;
	case DIFF_QDISC:
		return tc_msg_qdisc(buf, TC_MSG_BUF_SIZE, wire, ifindex, 0,
		                    &op->u.qdisc);
	case DIFF_CLASS:
		return tc_msg_class_cached(buf, TC_MSG_BUF_SIZE, wire, ifindex,
		                           0, &op->u.cls, &t->rtab);
	case DIFF_FILTER:
		return tc_msg_filter(buf, TC_MSG_BUF_SIZE, wire, ifindex, 0,
		                     &op->u.filter);
	default:
		return -EINVAL;
	}
}

static int tc_queue(void *ctx, struct nlb_batch *b, int ifindex,
                    const struct diff_op *ops, size_t n, size_t *bad)
{
	char req[TC_MSG_BUF_SIZE] __attribute__((aligned(4)));
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)req;
	struct tc_nl *t = ctx;
	size_t first = b->n;
	int queued = 0;

	for (size_t i = 0; i < n; i++) {
		char *buf;
		int rc;

		if (!tc_op_batched(&ops[i]))
			continue;
		/* Encoded aside and copied at its size: the batch would
		 * otherwise zero a whole TC_MSG_BUF_SIZE for every request
		 * (the encoders write every byte they use). */
		rc = tc_encode(t, req, ifindex, &ops[i]);
		buf = rc < 0 ? NULL : nlb_batch_next(b, nlh->nlmsg_len);
		if (!buf) {
			/* all of the port or none of it */
			nlb_batch_truncate(t->nl, b, first);
			*bad = rc < 0 ? i : n;
			return rc < 0 ? rc : -ENOMEM;
		}
		memcpy(buf, req, nlh->nlmsg_len);
		nlb_batch_commit(t->nl, b);
		queued++;
	}
	return queued;
}

static int tc_send(void *ctx, struct nlb_batch *b, nlb_fail_cb cb, void *data)
{
	struct tc_nl *t = ctx;

	return nlb_batch_send_each(t->nl, b, cb, data);
}

const struct tc_ops tc_ops_netlink = {
    .scan = tc_scan,
    .observe = tc_observe,
    .queue = tc_queue,
    .send = tc_send,
};

/* --- notifications --- */

#define TC_EVENTS_RCVBUF (4 << 20)

int tc_events_open(struct tc_events *ev, uint32_t ignore_portid)
{
	/* Drop what NLMSG_PID says roced's own socket asked for (the first
	 * message decides: tc notifications travel one per packet). Classic
	 * BPF loads words big-endian, hence htonl. */
	struct sock_filter code[] = {
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
	             offsetof(struct nlmsghdr, nlmsg_pid)),
	    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, htonl(ignore_portid), 0, 1),
	    BPF_STMT(BPF_RET | BPF_K, 0),
	    BPF_STMT(BPF_RET | BPF_K, 0xffffffff),
	};
	struct sock_fprog prog = {.len = sizeof(code) / sizeof(code[0]),
	                          .filter = code};
	int fd, rcv = TC_EVENTS_RCVBUF, rc;

	memset(ev, 0, sizeof(*ev));
	ev->ignore = ignore_portid;
	ev->sock =
	    mnl_socket_open2(NETLINK_ROUTE, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (!ev->sock)
		return -errno;
	fd = mnl_socket_get_fd(ev->sock);
	/* Best effort: without them roced reads (and drops) its own echoes
	 * and overruns sooner, which only costs a full observation. */
	setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcv, sizeof(rcv));
	setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog));
	if (mnl_socket_bind(ev->sock, 1u << (RTNLGRP_TC - 1),
	                    MNL_SOCKET_AUTOPID) < 0) {
		rc = -errno;
		tc_events_close(ev);
		return rc;
	}
	return 0;
}

void tc_events_close(struct tc_events *ev)
{
	if (ev->sock)
		mnl_socket_close(ev->sock);
	ev->sock = NULL;
}

int tc_events_fd(const struct tc_events *ev)
{
	return ev->sock ? mnl_socket_get_fd(ev->sock) : -1;
}

/* Changes to objects roced observes. Chains are not: the kernel itself
 * (nlmsg_pid 0) announces chain 0 when a block gets its first filter and
 * when it loses its last, and a filter anyone adds or deletes in a chain
 * comes with a notification of its own. */
static bool tc_events_type(uint16_t type)
{
	switch (type) {
	case RTM_NEWQDISC:
	case RTM_DELQDISC:
	case RTM_NEWTCLASS:
	case RTM_DELTCLASS:
	case RTM_NEWTFILTER:
	case RTM_DELTFILTER:
		return true;
	}
	return false;
}

/* NLH (a tc notification) as an event. */
static void tc_event_parse(const struct nlmsghdr *nlh, struct tc_event *ev)
{
	const struct tcmsg *tcm = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *a;

	memset(ev, 0, sizeof(*ev));
	ev->ifindex = tcm->tcm_ifindex;
	ev->type = nlh->nlmsg_type;
	ev->handle = tcm->tcm_handle;
	ev->parent = tcm->tcm_parent;
	ev->info = tcm->tcm_info;
	ev->pid = nlh->nlmsg_pid;
	mnl_attr_for_each(a, nlh, sizeof(*tcm))
	{
		if (mnl_attr_get_type(a) == TCA_KIND &&
		    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0)
			snprintf(ev->kind, sizeof(ev->kind), "%s",
			         mnl_attr_get_str(a));
	}
}

/* H as tc writes it: "4791:", "4791:13", "root". */
static void tc_event_handle(uint32_t h, bool qdisc, char *buf, size_t len)
{
	if (h == PLAN_H_ROOT)
		snprintf(buf, len, "root");
	else if (qdisc && !PLAN_H_MIN(h))
		snprintf(buf, len, "%x:", PLAN_H_MAJ(h));
	else
		snprintf(buf, len, "%x:%x", PLAN_H_MAJ(h), PLAN_H_MIN(h));
}

void tc_event_describe(const struct tc_event *ev, char *buf, size_t len)
{
	bool del = ev->type == RTM_DELQDISC || ev->type == RTM_DELTCLASS ||
	           ev->type == RTM_DELTFILTER;
	const char *verb = del ? "deleted" : "added or changed";
	char h[32], p[32];

	tc_event_handle(ev->parent, true, p, sizeof(p));
	if (ev->replaced) {
		char o[32];

		tc_event_handle(ev->handle, true, h, sizeof(h));
		tc_event_handle(ev->old_handle, true, o, sizeof(o));
		snprintf(buf, len, "qdisc %s %s %s%s replaced by %s %s",
		         ev->old_kind, o,
		         ev->parent == PLAN_H_ROOT ? "" : "under ", p, ev->kind,
		         h);
		return;
	}
	switch (ev->type) {
	case RTM_NEWQDISC:
	case RTM_DELQDISC:
		tc_event_handle(ev->handle, true, h, sizeof(h));
		if (ev->parent == PLAN_H_ROOT)
			snprintf(buf, len, "qdisc %s %s root %s", ev->kind, h,
			         verb);
		else
			snprintf(buf, len, "qdisc %s %s under %s %s", ev->kind,
			         h, p, verb);
		break;
	case RTM_NEWTCLASS:
	case RTM_DELTCLASS:
		tc_event_handle(ev->handle, false, h, sizeof(h));
		snprintf(buf, len, "class %s %s %s", ev->kind, h, verb);
		break;
	default:
		/* a filter's handle says little; its block and priority do */
		snprintf(buf, len, "filter %s prio %u on %s %s", ev->kind,
		         ev->info >> 16, p, verb);
		break;
	}
}

int tc_events_read(struct tc_events *ev,
                   void (*changed)(const struct tc_event *ev, void *data),
                   void (*lost)(void *data), void *data)
{
	char buf[MNL_SOCKET_BUFFER_SIZE * 4] __attribute__((aligned(4)));

	if (!ev->sock)
		return 0;
	for (;;) {
		ssize_t len = mnl_socket_recvfrom(ev->sock, buf, sizeof(buf));
		const struct nlmsghdr *nlh = (const struct nlmsghdr *)buf;
		int left = (int)len;
		/* a qdisc's deletion, held to see whether a new one takes
		 * its place in the next message */
		struct tc_event del;
		bool held = false;

		if (len < 0 && errno == ENOBUFS) {
			lost(data);
			continue;
		}
		if (len < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK ? 0
			                                               : -errno;
		for (; mnl_nlmsg_ok(nlh, left);
		     nlh = mnl_nlmsg_next(nlh, &left)) {
			struct tc_event te;

			/* ours, if the filter could not be attached */
			if (nlh->nlmsg_pid == ev->ignore && ev->ignore)
				continue;
			if (!tc_events_type(nlh->nlmsg_type) ||
			    mnl_nlmsg_get_payload_len(nlh) <
			        sizeof(struct tcmsg))
				continue;
			tc_event_parse(nlh, &te);
			if (held && te.type == RTM_NEWQDISC &&
			    te.ifindex == del.ifindex &&
			    te.parent == del.parent) {
				te.replaced = true;
				te.old_handle = del.handle;
				memcpy(te.old_kind, del.kind,
				       sizeof(te.old_kind));
				held = false;
				changed(&te, data);
				continue;
			}
			if (held)
				changed(&del, data);
			held = te.type == RTM_DELQDISC;
			if (held)
				del = te;
			else
				changed(&te, data);
		}
		if (held)
			changed(&del, data);
	}
}
