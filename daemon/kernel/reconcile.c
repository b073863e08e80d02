/* reconcile: see reconcile.h. */
#include "kernel/reconcile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "os/log.h"

static double rc_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* Per-port working state for one reconcile pass. */
struct rc_port {
	const struct plan_port *want;
	struct reconcile_result *res;
	int ifindex;
	struct plan_port have; /* what the kernel held before */
	struct tc_observe_port obs;
	struct dcbnl_msg_ieee cur; /* hardware ports: IEEE state before */
	struct diff ops;
	size_t first, count; /* this port's requests in the batch */
	bool failed;
	bool mtu_refused;    /* the kernel refused this port's MTU request */
	bool clsact_refused; /* ... or its request to add clsact */
	bool mirrored;       /* HAVE's tc part is a clean mirror entry */
	uint32_t mtu;        /* the link's, when the pass looked it up */
};

/* Which request of the batch is which operation. */
struct rc_req {
	struct rc_port *port;
	const struct diff_op *op;
};

struct rc_batch {
	struct rc_req *reqs;
	size_t n;
};

static void rc_describe(char *buf, size_t len, const struct diff_op *op)
{
	switch (op->obj) {
	case DIFF_QDISC:
		/* "qdisc ets 4791: root", as tc qdisc show names it. */
		if (op->u.qdisc.parent == PLAN_H_ROOT)
			snprintf(buf, len, "%s qdisc %s %x: root",
			         diff_kind_name(op->kind),
			         plan_qdisc_kind_name(op->u.qdisc.kind),
			         PLAN_H_MAJ(op->u.qdisc.handle));
		else
			snprintf(buf, len, "%s qdisc %s %x: parent %x:%x",
			         diff_kind_name(op->kind),
			         plan_qdisc_kind_name(op->u.qdisc.kind),
			         PLAN_H_MAJ(op->u.qdisc.handle),
			         PLAN_H_MAJ(op->u.qdisc.parent),
			         PLAN_H_MIN(op->u.qdisc.parent));
		break;
	case DIFF_CLASS:
		snprintf(buf, len, "%s class %x:%x", diff_kind_name(op->kind),
		         PLAN_H_MAJ(op->u.cls.classid),
		         PLAN_H_MIN(op->u.cls.classid));
		break;
	case DIFF_FILTER:
		snprintf(buf, len, "%s filter prio %u",
		         diff_kind_name(op->kind), op->u.filter.prio);
		break;
	case DIFF_MTU:
		snprintf(buf, len, "%s link mtu %u", diff_kind_name(op->kind),
		         op->u.mtu);
		break;
	default:
		snprintf(buf, len, "%s %s", diff_kind_name(op->kind),
		         diff_obj_name(op->obj));
		break;
	}
}

/* OP is NULL when the port failed before its requests left (they could
 * not be encoded). */
static void rc_fail(struct rc_port *p, const struct diff_op *op, int err,
                    const char *msg)
{
	char what[96];

	if (p->failed)
		return; /* the first refusal is the one that explains */
	p->failed = true;
	if (op)
		rc_describe(what, sizeof(what), op);
	else
		snprintf(what, sizeof(what), "tc requests");
	snprintf(p->res->error, sizeof(p->res->error), "%s: %s: %s%s%s",
	         p->want->ifname, what, strerror(-err), msg && *msg ? ": " : "",
	         msg ? msg : "");
}

static bool rc_op_adds_clsact(const struct diff_op *op)
{
	return op->obj == DIFF_QDISC && op->kind == DIFF_ADD &&
	       op->u.qdisc.kind == PLAN_QD_CLSACT;
}

/* Did P's pass create a clsact? Its requests went out (all of them or
 * none) and the kernel took the add. */
static bool rc_created_clsact(const struct rc_port *p)
{
	for (size_t i = 0; p->count && i < p->ops.n; i++)
		if (rc_op_adds_clsact(&p->ops.ops[i]))
			return !p->clsact_refused;
	return false;
}

static void rc_on_fail(size_t index, int err, const char *msg, void *data)
{
	struct rc_batch *b = data;

	if (index >= b->n)
		return;
	if (b->reqs[index].op->obj == DIFF_MTU)
		b->reqs[index].port->mtu_refused = true;
	if (rc_op_adds_clsact(b->reqs[index].op))
		b->reqs[index].port->clsact_refused = true;
	rc_fail(b->reqs[index].port, b->reqs[index].op, err, msg);
}

/* Link pause through ethtool (hardware ports). */
static int rc_apply_pause(const struct reconcile *r, struct rc_port *p,
                          struct nlb_error *err)
{
	memset(err, 0, sizeof(*err));
	if (!r->ethtool) {
		snprintf(err->msg, sizeof(err->msg),
		         "no ethtool netlink to set 802.3x pause with");
		return -EOPNOTSUPP;
	}
	return ethtool_pause_set(r->ethtool, p->want->ifname,
	                         p->want->dcb.pause_rx, p->want->dcb.pause_tx,
	                         err);
}

/* DCB operations (hardware ports): one request each, in diff's order.
 * Everything else goes in the batch. */
static void rc_apply_direct(const struct reconcile *r, struct rc_port *p,
                            const struct diff *ops)
{
	for (size_t i = 0; i < ops->n && !p->failed; i++) {
		const struct diff_op *op = &ops->ops[i];
		struct nlb_error err;
		int rc;

		if (tc_op_batched(op))
			continue;
		if (op->obj == DIFF_LINK_PAUSE)
			rc = rc_apply_pause(r, p, &err);
		else
			rc = dcb_apply_op(r->dcb, r->dcb_ctx, p->want->ifname,
			                  op, &p->want->dcb, &p->cur, &err);
		if (rc < 0)
			rc_fail(p, op, rc, err.msg);
		p->res->writes++;
	}
}

/* Observe the tc part of PORTS (n of them) into their HAVE, with the qdiscs
 * of SCAN when given. */
static int rc_observe_tc(const struct reconcile *r, const struct tc_scan *scan,
                         struct rc_port **ports, size_t n)
{
	struct tc_observe_port *obs = calloc(n ? n : 1, sizeof(*obs));
	struct nlb_error err;
	int rc;

	if (!obs)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		obs[i].ifindex = ports[i]->ifindex;
		obs[i].have = &ports[i]->have;
	}
	rc = r->tc->observe(r->tc_ctx, scan, obs, n, &err);
	for (size_t i = 0; i < n; i++) {
		ports[i]->obs.info = obs[i].info;
		ports[i]->obs.err = obs[i].err;
		memcpy(ports[i]->obs.error, obs[i].error, sizeof(obs[i].error));
	}
	free(obs);
	return rc;
}

/* Why P could not be observed, as its result's error. */
static void rc_unread(struct rc_port *p, int err, const char *what)
{
	snprintf(p->res->error, sizeof(p->res->error),
	         "%s: cannot read the kernel's state: %s", p->want->ifname,
	         what && *what ? what : strerror(-err));
	p->res->status = RECONCILE_FAILED;
}

/* Link pause as the driver holds it. A driver without pause settings
 * (EOPNOTSUPP, no reply) leaves it unread: diff then writes it, and the
 * write's refusal names the port. Settings without counters are read. */
static void rc_observe_pause(const struct reconcile *r, struct rc_port *p)
{
	struct ethtool_msg_pause ep;
	int rc;

	if (!r->ethtool)
		return;
	rc = ethtool_pause_stats(r->ethtool, p->want->ifname, &ep);
	if (rc < 0 &&
	    !(rc == -EOPNOTSUPP && (ep.dev.ifindex || ep.dev.ifname[0])))
		return;
	p->have.dcb.pause_managed = true;
	p->have.dcb.pause_rx = ep.rx;
	p->have.dcb.pause_tx = ep.tx;
}

/* Everything but tc: the link MTU and, on hardware ports, DCB. */
static int rc_observe_rest(const struct reconcile *r, struct rc_port *p)
{
	struct link_info li;
	int rc;

	p->have.dcb.software = p->want->dcb.software;
	p->have.dcb.unmanaged = p->want->dcb.unmanaged;
	/* The pass looked the link up a moment ago; a rollback asks again. */
	if (p->mtu)
		p->have.dcb.mtu = p->mtu;
	else if (link_lookup(r->links, p->want->ifname, &li) == 0)
		p->have.dcb.mtu = li.mtu;
	if (p->want->dcb.software || p->want->dcb.unmanaged)
		return 0;
	rc = dcb_observe(r->dcb, r->dcb_ctx, p->want->ifname, &p->cur,
	                 &p->have.dcb);
	if (rc < 0)
		snprintf(p->obs.error, sizeof(p->obs.error),
		         "cannot read its DCB settings (dcbnl): %s",
		         strerror(-rc));
	if (rc >= 0 && p->want->dcb.pause_managed)
		rc_observe_pause(r, p);
	return rc;
}

/* Room to map every request of PORTS (N of them) back to its operation,
 * taken before anything is written. */
static int rc_map_alloc(struct rc_batch *map, struct rc_port *const *ports,
                        size_t n)
{
	size_t total = 0;

	for (size_t i = 0; i < n; i++)
		total += ports[i]->ops.n;
	map->reqs = calloc(total ? total : 1, sizeof(*map->reqs));
	map->n = 0;
	return map->reqs ? 0 : -ENOMEM;
}

/* Queue P's tc operations into B. A port whose requests cannot be encoded
 * has failed (the backend queued none of them) and is rolled back like a
 * refused one: earlier writes, its DCB ones included, may have landed. */
static void rc_queue(const struct reconcile *r, struct rc_port *p,
                     struct nlb_batch *b, struct rc_batch *map)
{
	size_t bad = p->ops.n;
	int q;

	p->first = b->n;
	q = r->tc->queue(r->tc_ctx, b, p->ifindex, p->ops.ops, p->ops.n, &bad);
	if (q < 0 && bad < p->ops.n) {
		/* A plan the encoders refuse is roced's own bug (as
		 * class-default was): name the request. */
		rc_fail(p, &p->ops.ops[bad], q,
		        "roced cannot encode this request");
		return;
	}
	if (q < 0) {
		rc_fail(p, NULL, q, "cannot encode them");
		return;
	}
	p->count = (size_t)q;
	/* Map each queued request back to its operation. */
	for (size_t k = 0; k < p->ops.n; k++)
		if (tc_op_batched(&p->ops.ops[k]))
			map->reqs[map->n++] =
			    (struct rc_req){.port = p, .op = &p->ops.ops[k]};
	p->res->writes += p->count;
}

/* Put a refused port back as it was: observe it again and apply the diff
 * from "now" to "before". */
static void rc_rollback(const struct reconcile *r, struct rc_port *p)
{
	/* The rollback keeps its own result: the first refusal is what the
	 * user needs to read. */
	struct reconcile_result scratch = {0};
	struct rc_port now = {
	    .want = p->want, .res = &scratch, .ifindex = p->ifindex};
	struct rc_port *list[1] = {&now};
	struct nlb_batch b;
	struct rc_batch map = {0};
	int rc;

	diag_init(&now.have.warnings, NULL);
	diff_init(&now.ops);
	nlb_batch_init(&b);
	b.quiet = true;                       /* only refusals are answered */
	rc = rc_observe_tc(r, NULL, list, 1); /* the state now */
	if (!rc)
		rc = rc_observe_rest(r, &now);
	if (rc < 0 && now.obs.error[0])
		snprintf(scratch.error, sizeof(scratch.error),
		         "cannot read the kernel's state: %s", now.obs.error);
	/* The link cache has not heard of our MTU write yet (its events are
	 * read later, if ever): the batch's answer says whether it took,
	 * if it was sent at all. */
	for (size_t i = 0; !rc && p->count && i < p->ops.n; i++)
		if (p->ops.ops[i].obj == DIFF_MTU && !p->mtu_refused)
			now.have.dcb.mtu = p->ops.ops[i].u.mtu;
	/* A clsact this pass created is roced's even when its mark was
	 * refused (a kernel without flower): the rollback deletes it. */
	if (rc_created_clsact(p))
		now.have.clsact_owned = true;
	/* The target is the state before: HAVE of the failed pass. */
	p->have.dcb.software = p->want->dcb.software;
	p->have.dcb.unmanaged = p->want->dcb.unmanaged;
	p->have.dcb.mtu_restore = p->want->dcb.mtu_restore;
	if (!rc)
		rc = diff_port(&p->have, &now.have, &now.ops);
	if (!rc)
		rc = rc_map_alloc(&map, list, 1);
	if (!rc) {
		/* Put back as much as can be: tc too when DCB refused. */
		now.want = &p->have;
		rc_apply_direct(r, &now, &now.ops);
		now.want = p->want;
		rc_queue(r, &now, &b, &map);
	}
	if (!rc && b.n)
		rc = r->tc->send(r->tc_ctx, &b, rc_on_fail, &map);
	p->res->writes += scratch.writes;
	p->res->status =
	    rc || now.failed ? RECONCILE_FAILED : RECONCILE_ROLLED_BACK;
	if (p->res->status == RECONCILE_FAILED) {
		size_t len = strlen(p->res->error);

		snprintf(p->res->error + len, sizeof(p->res->error) - len,
		         "; rollback failed too: %s",
		         scratch.error[0] ? scratch.error : strerror(-rc));
	}
	free(map.reqs);
	nlb_batch_free(&b);
	diff_free(&now.ops);
	plan_port_clear_tc(&now.have);
	diag_free(&now.have.warnings);
}

/* Ports with a clean mirror entry take their HAVE from it; the others are
 * moved to the end of PORTS, *NOBSERVE of them, to be observed. */
static int rc_mirrored(const struct reconcile *r, struct rc_port **ports,
                       size_t n, size_t *nobserve)
{
	size_t k = 0;

	*nobserve = n;
	if (!r->mirror)
		return 0;
	for (size_t i = 0; i < n; i++) {
		struct rc_port *p = ports[i];
		const struct mirror_port *e =
		    mirror_clean(r->mirror, p->ifindex, p->want->ifname);

		if (e) {
			if (mirror_fill(e, &p->have) < 0)
				return -ENOMEM;
			p->mirrored = true;
			ports[i] = ports[k];
			ports[k++] = p;
		}
	}
	*nobserve = n - k;
	return 0;
}

/* What the port holds now, for the next pass: known when the pass ended
 * well, else to be observed again. */
static void rc_mirror_keep(struct mirror *m, const struct rc_port *p)
{
	bool wrote = false;

	for (size_t i = 0; i < p->ops.n; i++)
		wrote = wrote || tc_op_is_tc(&p->ops.ops[i]);
	if (p->res->status != RECONCILE_OK || p->failed)
		mirror_note(m, p->ifindex);
	else if (wrote || !p->mirrored)
		mirror_keep(m, p->ifindex, p->want->ifname, p->want, &p->have,
		            &p->ops);
}

/* A pass that changed the link's MTU tells what it was before. */
static void rc_mtu_before(struct rc_port *p)
{
	if (p->failed || p->res->status != RECONCILE_OK)
		return;
	for (size_t i = 0; i < p->ops.n; i++)
		if (p->ops.ops[i].obj == DIFF_MTU)
			p->res->mtu_before = p->have.dcb.mtu;
}

/* One pass's working state: the ports of the plan, those present, and the
 * batch their tc requests go out in. */
struct rc_pass {
	struct rc_port *ports;    /* one per port of the plan */
	struct rc_port **present; /* the links that exist, NPRESENT */
	size_t npresent, nobserve;
	struct rc_batch map;
	struct nlb_batch b;
	bool trouble; /* a port was refused, rolled back or failed */
	double t[5];  /* where the pass spends its time (-D apply) */
};

/* Each port of PL with its result in RES; those whose link does not exist
 * (yet) are absent, the others present. */
static int rc_begin(const struct reconcile *r, const struct plan *pl,
                    struct reconcile_result *res, struct rc_pass *s)
{
	s->ports = calloc(pl->nports ? pl->nports : 1, sizeof(*s->ports));
	s->present = calloc(pl->nports ? pl->nports : 1, sizeof(*s->present));
	if (!s->ports || !s->present)
		return -ENOMEM;
	for (size_t i = 0; i < pl->nports; i++) {
		struct rc_port *p = &s->ports[i];
		struct link_info li;

		p->want = &pl->ports[i];
		p->res = &res[i];
		memset(p->res, 0, sizeof(*p->res));
		snprintf(p->res->ifname, sizeof(p->res->ifname), "%s",
		         p->want->ifname);
		diag_init(&p->have.warnings, NULL);
		diff_init(&p->ops);
		if (link_lookup(r->links, p->want->ifname, &li) < 0) {
			p->res->status = RECONCILE_ABSENT;
			continue;
		}
		p->ifindex = li.ifindex;
		p->mtu = li.mtu;
		s->present[s->npresent++] = p;
	}
	return 0;
}

/* observe: what the kernel holds on each present port, into its HAVE
 * (from its clean mirror entry, else from one dump for all). Writes
 * nothing; on failure each port that could not be read says why. */
static int rc_observe(const struct reconcile *r, struct rc_pass *s)
{
	size_t n = s->npresent;
	int rc;

	rc = rc_mirrored(r, s->present, n, &s->nobserve);
	if (!rc)
		rc = rc_observe_tc(r, r->scan, s->present + n - s->nobserve,
		                   s->nobserve);
	for (size_t i = 0; !rc && i < n; i++)
		rc = rc_observe_rest(r, s->present[i]);
	if (rc < 0)
		for (size_t i = 0; i < n; i++)
			if (s->present[i]->obs.err ||
			    s->present[i]->obs.error[0])
				rc_unread(s->present[i], rc,
				          s->present[i]->obs.error);
	return rc;
}

/* A root qdisc roced did not create stands where P's plan wants one, and
 * nothing says to take it over: P is refused, not diffed. */
static bool rc_refuse_foreign(const struct reconcile *r, struct rc_port *p)
{
	const struct tc_port_info *info = &p->obs.info;

	if (!info->foreign_root || !p->want->nqdiscs || r->takeover ||
	    p->want->qdisc_takeover)
		return false;
	p->res->status = RECONCILE_REFUSED;
	snprintf(p->res->error, sizeof(p->res->error),
	         "%s: a root qdisc roced did not create (%s %x:) is in the "
	         "way; roced leaves it alone unless the configuration says to "
	         "take it over",
	         p->want->ifname, info->foreign_kind,
	         PLAN_H_MAJ(info->foreign_handle));
	snprintf(p->res->foreign_kind, sizeof(p->res->foreign_kind), "%s",
	         info->foreign_kind);
	p->res->foreign_handle = info->foreign_handle;
	return true;
}

/* diff: each present port's plan against its HAVE, into its operations,
 * and room to map every request back to its operation. Everything that
 * can fail for want of memory is here, before the first write: a pass
 * that returns -errno has written nothing. */
static int rc_diff(const struct reconcile *r, struct rc_pass *s)
{
	for (size_t i = 0; i < s->npresent; i++) {
		struct rc_port *p = s->present[i];
		int rc;

		if (rc_refuse_foreign(r, p)) {
			s->trouble = true;
			continue;
		}
		rc = diff_port(p->want, &p->have, &p->ops);
		if (rc < 0)
			return rc;
	}
	return rc_map_alloc(&s->map, s->present, s->npresent);
}

/* write: the DCB operations one by one, every port's tc requests in one
 * batch, then each port the kernel refused rolled back alone; the
 * mirror and the MTUs to give back follow what the kernel now holds. */
static void rc_write(const struct reconcile *r, struct rc_pass *s)
{
	int rc;

	s->t[2] = rc_ms();
	for (size_t i = 0; i < s->npresent; i++) {
		struct rc_port *p = s->present[i];

		rc_apply_direct(r, p, &p->ops);
		/* A port whose DCB was refused is rolled back: its tc
		 * requests would only be undone again. */
		if (!p->failed)
			rc_queue(r, p, &s->b, &s->map);
	}
	s->t[3] = rc_ms();
	rc = s->b.n ? r->tc->send(r->tc_ctx, &s->b, rc_on_fail, &s->map) : 0;
	s->t[4] = rc_ms();
	/* A refusal is per port (rc_on_fail); only socket trouble lands
	 * here, and then every port with writes must be checked. */
	for (size_t i = 0; rc < 0 && i < s->npresent; i++)
		if (s->present[i]->count && !s->present[i]->failed)
			rc_fail(s->present[i], &s->present[i]->ops.ops[0], rc,
			        "netlink error");
	for (size_t i = 0; i < s->npresent; i++) {
		struct rc_port *p = s->present[i];

		if (p->failed) {
			s->trouble = true;
			rc_rollback(r, p);
		}
	}
	for (size_t i = 0; i < s->npresent; i++)
		rc_mtu_before(s->present[i]);
	for (size_t i = 0; r->mirror && i < s->npresent; i++)
		rc_mirror_keep(r->mirror, s->present[i]);
}

static void rc_end(const struct plan *pl, struct rc_pass *s)
{
	for (size_t i = 0; s->ports && i < pl->nports; i++) {
		diff_free(&s->ports[i].ops);
		plan_port_clear_tc(&s->ports[i].have);
		diag_free(&s->ports[i].have.warnings);
	}
	free(s->map.reqs);
	nlb_batch_free(&s->b);
	free(s->present);
	free(s->ports);
}

int reconcile_apply(const struct reconcile *r, const struct plan *pl,
                    struct reconcile_result *res)
{
	struct rc_pass s;
	int rc;

	memset(&s, 0, sizeof(s));
	nlb_batch_init(&s.b);
	s.b.quiet = true; /* only refusals are answered */
	rc = rc_begin(r, pl, res, &s);
	s.t[0] = rc_ms();
	if (!rc)
		rc = rc_observe(r, &s);
	s.t[1] = rc_ms();
	if (!rc)
		rc = rc_diff(r, &s);
	if (!rc) {
		rc_write(r, &s);
		/* Where a pass spends its time (bench/apply, -D apply). */
		log_debug(LOG_SUB_APPLY,
		          "reconcile: %zu ports (%zu observed), %zu requests: "
		          "observe %.2f ms, diff %.2f ms, dcb and encode %.2f "
		          "ms, send %.2f ms, rollback and mirror %.2f ms",
		          s.npresent, s.nobserve, s.b.n, s.t[1] - s.t[0],
		          s.t[2] - s.t[1], s.t[3] - s.t[2], s.t[4] - s.t[3],
		          rc_ms() - s.t[4]);
	}
	rc_end(pl, &s);
	if (rc < 0)
		return rc;
	return s.trouble ? -EAGAIN : 0;
}

const char *reconcile_status_name(enum reconcile_status s)
{
	switch (s) {
	case RECONCILE_OK:
		return "ok";
	case RECONCILE_ABSENT:
		return "absent";
	case RECONCILE_REFUSED:
		return "refused";
	case RECONCILE_ROLLED_BACK:
		return "rolled back";
	case RECONCILE_FAILED:
		return "failed";
	}
	return "?";
}
