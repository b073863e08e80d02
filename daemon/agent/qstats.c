/* qstats: the shared sampler of the queues' tc statistics. See qstats.h. */
#include "agent/qstats.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/rtnetlink.h>

#include "model/plan.h"
#include "nlmsg/tc_msg.h"

void qstats_init(struct qstats *s)
{
	memset(s, 0, sizeof(*s));
	s->full_ms = -1;
	s->reference = getenv("ROCED_QSTATS_REFERENCE") != NULL;
}

void qstats_free(struct qstats *s)
{
	free(s->v);
	s->v = NULL;
	s->n = s->cap = 0;
	qcarry_free(&s->carry);
}

/* The index of IFINDEX in S->v, or where it would go (FOUND false). */
static size_t qstats_pos(const struct qstats *s, int ifindex, bool *found)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (s->v[mid].ifindex == ifindex) {
			*found = true;
			return mid;
		}
		if (s->v[mid].ifindex < ifindex)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = false;
	return lo;
}

static struct qstats_port *qstats_find(const struct qstats *s, int ifindex)
{
	bool found;
	size_t i = qstats_pos(s, ifindex, &found);

	return found ? &s->v[i] : NULL;
}

static struct qstats_port *qstats_add(struct qstats *s, int ifindex)
{
	bool found;
	size_t i = qstats_pos(s, ifindex, &found);

	if (found)
		return &s->v[i];
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		struct qstats_port *nv = realloc(s->v, cap * sizeof(*nv));

		if (!nv)
			return NULL;
		s->v = nv;
		s->cap = cap;
	}
	memmove(&s->v[i + 1], &s->v[i], (s->n - i) * sizeof(*s->v));
	s->n++;
	memset(&s->v[i], 0, sizeof(s->v[i]));
	s->v[i].ifindex = ifindex;
	s->v[i].snap_ms = -1;
	return &s->v[i];
}

struct qstats_read {
	struct qstats *s;
	double now;
	int ifindex; /* a class dump's port */
};

/* Port IFINDEX's entry for the qdisc dump of NOW (its readings of an
 * earlier one forgotten). */
static struct qstats_port *qstats_dumped(struct qstats *s, int ifindex,
                                         double now)
{
	struct qstats_port *e = qstats_add(s, ifindex);

	if (e && e->snap_ms != now) {
		e->seen = 0;
		e->src = QSTATS_LEAF;
		e->at_ms = now;
		e->snap_ms = now;
		memset(&e->snap, 0, sizeof(e->snap));
	}
	return e;
}

static int qstats_leaf_cb(const struct nlmsghdr *nlh, void *data)
{
	struct qstats_read *r = data;
	const struct tcmsg *tcm = mnl_nlmsg_get_payload(nlh);
	struct tc_stats_obj o;
	struct qstats_port *e;
	int q, inner = -1;
	bool root;

	/* Most of a dump is not roced's: passed over on the handle,
	 * before the full decode. */
	if (nlh->nlmsg_type != RTM_NEWQDISC ||
	    mnl_nlmsg_get_payload_len(nlh) < sizeof(*tcm))
		return MNL_CB_OK;
	root = tcm->tcm_parent == PLAN_H_ROOT &&
	       PLAN_H_MAJ(tcm->tcm_handle) == PLAN_ROOT_MAJOR;
	q = tc_msg_leaf_queue(tcm->tcm_handle);
	if (!root && (q < 0 || q >= POLICY_NQUEUES))
		inner = tc_msg_inner_queue(tcm->tcm_handle);
	if ((!root && (q < 0 || q >= POLICY_NQUEUES) &&
	     (inner < 0 || inner >= POLICY_NQUEUES)) ||
	    tc_stats_parse(nlh, nlh->nlmsg_len, &o) < 0 ||
	    o.obj != TC_MSG_QDISC)
		return MNL_CB_OK;
	e = qstats_dumped(r->s, tcm->tcm_ifindex, r->now);
	if (!e)
		return MNL_CB_OK;
	if (root || inner >= 0) {
		e->snap.root = e->snap.root || root;
		if (inner >= 0 && o.st.red) {
			e->snap.inner_red |= (uint8_t)(1u << inner);
			e->snap.inner[inner] = o.st;
		}
		return MNL_CB_OK;
	}
	e->seen |= (uint8_t)(1u << q);
	e->st[q] = o.st;
	e->snap.seen |= (uint8_t)(1u << q);
	e->snap.leaf[q] = o.st;
	snprintf(e->snap.kind[q], sizeof(e->snap.kind[q]), "%s", o.kind);
	if (o.st.queue)
		qcarry_backlog(&r->s->carry, tcm->tcm_ifindex, (unsigned)q,
		               o.st.backlog);
	if (o.st.basic && o.st.queue) {
		struct qcarry_count raw = {.packets = o.st.packets,
		                           .bytes = o.st.bytes,
		                           .drops = o.st.drops};

		qcarry_observe(&r->s->carry, tcm->tcm_ifindex, (unsigned)q,
		               QCARRY_PACKETS | QCARRY_BYTES | QCARRY_DROPS,
		               &raw, NULL);
	}
	return MNL_CB_OK;
}

static int qstats_class_cb(const struct nlmsghdr *nlh, void *data)
{
	struct qstats_read *r = data;
	const struct tcmsg *tcm = mnl_nlmsg_get_payload(nlh);
	struct tc_stats_obj o;
	struct qstats_port *e;
	int q;

	if (nlh->nlmsg_type != RTM_NEWTCLASS ||
	    mnl_nlmsg_get_payload_len(nlh) < sizeof(*tcm) ||
	    tcm->tcm_ifindex != r->ifindex)
		return MNL_CB_OK;
	q = tc_msg_class_queue(tcm->tcm_handle);
	if (q < 0 || q >= POLICY_NQUEUES ||
	    tc_stats_parse(nlh, nlh->nlmsg_len, &o) < 0 ||
	    o.obj != TC_MSG_CLASS || !o.st.queue)
		return MNL_CB_OK;
	e = qstats_find(r->s, r->ifindex);
	if (!e)
		return MNL_CB_OK;
	e->seen |= (uint8_t)(1u << q);
	e->st[q] = o.st;
	/* the sampler's 2 ms reads while traffic flows: the watermarks */
	qcarry_backlog(&r->s->carry, r->ifindex, (unsigned)q, o.st.backlog);
	return MNL_CB_OK;
}

static int qstats_dump(struct qstats *s, struct nlmsghdr *req, mnl_cb_t cb,
                       void *data)
{
	struct nlb_error nerr;

	if (s->dump)
		return s->dump(s->dump_arg, req, cb, data);
	if (!s->nl)
		return -ENOTCONN;
	return nlb_dump(s->nl, req, cb, data, &nerr);
}

/* One qdisc dump of every port, as of NOW, unless one younger than
 * MAX_AGE_MS serves. */
static int qstats_full(struct qstats *s, double now, double max_age_ms)
{
	char req[TC_MSG_BUF_SIZE] __attribute__((aligned(4)));
	struct qstats_read r = {.s = s, .now = now};
	size_t k = 0;
	int rc;

	if (!s->reference && s->full_ms >= 0 && now - s->full_ms < max_age_ms &&
	    now >= s->full_ms) {
		s->shared++;
		return s->err;
	}
	/* What the last dump saw and this one does not is gone. */
	for (size_t i = 0; i < s->n; i++)
		s->v[i].seen = 0;
	rc = tc_msg_dump(req, sizeof(req), TC_MSG_QDISC, 0, 0, 0);
	if (rc == 0)
		rc = qstats_dump(s, (struct nlmsghdr *)req, qstats_leaf_cb, &r);
	s->dumps++;
	s->full_ms = now;
	s->err = rc < 0 ? rc : 0;
	if (rc < 0) {
		for (size_t i = 0; i < s->n; i++) {
			s->v[i].seen = 0;
			s->v[i].src = QSTATS_LEAF;
			s->v[i].at_ms = now;
			s->v[i].snap_ms = -1;
		}
		return s->err;
	}
	/* A port the dump did not show has nothing of roced's (any
	 * more): forgotten, so that ports that come and go leave nothing
	 * behind. */
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].snap_ms == now)
			s->v[k++] = s->v[i];
	s->n = k;
	return s->err;
}

int qstats_leaves(struct qstats *s, double now)
{
	return qstats_full(s, now, QSTATS_SHARE_MS);
}

int qstats_snapshot(struct qstats *s, double now, double max_age_ms)
{
	return qstats_full(s, now, max_age_ms);
}

const struct qstats_snap *qstats_snap(const struct qstats *s, int ifindex)
{
	const struct qstats_port *e = qstats_find(s, ifindex);

	if (!e || s->err || s->full_ms < 0 || e->snap_ms != s->full_ms)
		return NULL;
	return &e->snap;
}

/* One class dump of port IFINDEX into its entry, as of NOW. */
static int qstats_class_read(struct qstats *s, int ifindex, double now)
{
	char req[TC_MSG_BUF_SIZE] __attribute__((aligned(4)));
	struct qstats_read r = {.s = s, .now = now, .ifindex = ifindex};
	struct qstats_port *e = qstats_add(s, ifindex);
	int rc;

	if (!e)
		return -ENOMEM;
	e->seen = 0;
	e->src = QSTATS_CLASS;
	e->at_ms = now;
	rc = tc_msg_dump(req, sizeof(req), TC_MSG_CLASS, ifindex, 0, 0);
	if (rc == 0)
		rc =
		    qstats_dump(s, (struct nlmsghdr *)req, qstats_class_cb, &r);
	s->class_dumps++;
	if (rc < 0) {
		e = qstats_find(s, ifindex);
		if (e)
			e->seen = 0;
	}
	return rc;
}

int qstats_classes(struct qstats *s, int ifindex, double now)
{
	const struct qstats_port *e = qstats_find(s, ifindex);

	if (ifindex <= 0)
		return -ENODEV;
	if (e && e->src == QSTATS_CLASS && now >= e->at_ms &&
	    now - e->at_ms < QSTATS_SHARE_MS) {
		s->shared++;
		return 0;
	}
	return qstats_class_read(s, ifindex, now);
}

int qstats_backlogs(struct qstats *s, const int *ifindex, size_t n, double now)
{
	size_t nwanted = 0;
	int err = 0;

	for (size_t i = 0; i < n; i++) {
		const struct qstats_port *e =
		    ifindex[i] ? qstats_find(s, ifindex[i]) : NULL;

		if (ifindex[i] && (s->reference || !e || now < e->at_ms ||
		                   now - e->at_ms >= QSTATS_SHARE_MS))
			nwanted++;
	}
	if (!nwanted)
		return s->reference ? qstats_leaves(s, now) : 0;
	if (s->reference || nwanted > QSTATS_CLASS_PORTS)
		return qstats_leaves(s, now);
	for (size_t i = 0; i < n; i++) {
		const struct qstats_port *e;
		int rc;

		if (!ifindex[i])
			continue;
		e = qstats_find(s, ifindex[i]);
		if (e && now >= e->at_ms && now - e->at_ms < QSTATS_SHARE_MS)
			continue;
		rc = qstats_class_read(s, ifindex[i], now);
		if (rc == -ENOMEM)
			return rc;
		if (rc < 0 && !err)
			err = rc;
	}
	return err;
}

const struct tc_stats_counters *qstats_get(const struct qstats *s, int ifindex,
                                           unsigned q, double now,
                                           enum qstats_src *src)
{
	const struct qstats_port *e = qstats_find(s, ifindex);

	if (!e || q >= POLICY_NQUEUES || !(e->seen & (1u << q)) ||
	    now < e->at_ms || now - e->at_ms >= QSTATS_SHARE_MS)
		return NULL;
	if (src)
		*src = e->src;
	return &e->st[q];
}
