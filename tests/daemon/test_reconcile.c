/* Tests for daemon/kernel/reconcile.c: a pass, a refusal and its rollback,
 * with a fake kernel behind struct tc_ops and struct dcb_ops that applies
 * what it is sent and logs every operation, so that each test checks the
 * exact operations of the pass and of the rollback. The links are real
 * (veth pairs in a private network namespace: reconcile looks ports up by
 * name); nothing else touches the kernel. diff_port() is wrapped (the
 * link flag --wrap=diff_port) so that a test can make it run out of
 * memory on one port. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/dcbnl.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/if_ether.h>
#include <linux/rtnetlink.h>

#include "kernel/reconcile.h"

#include "../fixtures/dcb/replies.h"
#include "../fixtures/ethtool/replies.h"

#define FAKE_LOG_MAX 64
#define FAKE_PORTS   4

/* --- diff_port(), out of memory on request --- */

int __real_diff_port(const struct plan_port *want, const struct plan_port *have,
                     struct diff *out);
int __wrap_diff_port(const struct plan_port *want, const struct plan_port *have,
                     struct diff *out);

static const char *diff_oom_port; /* diff of this port's plan fails */

int __wrap_diff_port(const struct plan_port *want, const struct plan_port *have,
                     struct diff *out)
{
	if (diff_oom_port && !strcmp(want->ifname, diff_oom_port))
		return -ENOMEM;
	return __real_diff_port(want, have, out);
}

/* --- the fake kernel --- */

struct fake_link {
	int ifindex;
	struct plan_port st; /* tc objects the fake kernel holds */
};

struct fake {
	struct nlb nl; /* sequence numbers for the batch only */
	struct fake_link links[FAKE_PORTS];
	size_t nlinks;
	/* The batch being built, request by request. */
	struct {
		int ifindex;
		struct diff_op op;
	} q[FAKE_LOG_MAX];
	size_t nq;
	/* Every operation the kernel was sent, in order, as "ifindex what",
	 * and where the current pass's rollback starts. */
	char log[FAKE_LOG_MAX][128];
	size_t nlog;
	/* Refuse the operations described so, each the first time. */
	struct {
		const char *what;
		bool done;
	} refuse[2];
	int queue_fail_ifindex;   /* queue() fails once for this link */
	int queue_bad_ifindex;    /* ... cannot encode its first filter */
	int observe_fail_ifindex; /* this link cannot be read */
	int dcb_refuse_cmd;       /* DCB requests with this dcbmsg cmd fail */
	const char *dcb_refuse_what;
	/* ethtool: PAUSE_GET answers rp_pause_stats (rx on, tx on) unless
	 * PAUSE_NONE (veth: EOPNOTSUPP); PAUSE_SET is logged as "ethtool
	 * IFNAME pause rx N tx N" and refused when PAUSE_REFUSE. */
	bool pause_none, pause_refuse;
};

static struct fake_link *fake_link(struct fake *f, int ifindex)
{
	for (size_t i = 0; i < f->nlinks; i++)
		if (f->links[i].ifindex == ifindex)
			return &f->links[i];
	assert_true(f->nlinks < FAKE_PORTS);
	f->links[f->nlinks].ifindex = ifindex;
	diag_init(&f->links[f->nlinks].st.warnings, NULL);
	return &f->links[f->nlinks++];
}

static void fake_describe(char *buf, size_t len, int ifindex,
                          const struct diff_op *op)
{
	const char *k = diff_kind_name(op->kind);

	switch (op->obj) {
	case DIFF_QDISC:
		snprintf(buf, len, "%d %s qdisc %s %x:", ifindex, k,
		         plan_qdisc_kind_name(op->u.qdisc.kind),
		         PLAN_H_MAJ(op->u.qdisc.handle));
		break;
	case DIFF_CLASS:
		snprintf(buf, len, "%d %s class %x:%x", ifindex, k,
		         PLAN_H_MAJ(op->u.cls.classid),
		         PLAN_H_MIN(op->u.cls.classid));
		break;
	case DIFF_FILTER:
		snprintf(buf, len, "%d %s filter %x prio %u", ifindex, k,
		         op->u.filter.parent, op->u.filter.prio);
		break;
	default:
		snprintf(buf, len, "%d %s %s", ifindex, k,
		         diff_obj_name(op->obj));
		break;
	}
}

static void fake_log(struct fake *f, const char *what)
{
	assert_true(f->nlog < FAKE_LOG_MAX);
	snprintf(f->log[f->nlog++], sizeof(f->log[0]), "%s", what);
}

/* Remove element I of an array of N elements of SIZE. */
static void fake_drop(void *v, size_t *n, size_t size, size_t i)
{
	char *c = v;

	memmove(c + i * size, c + (i + 1) * size, (*n - i - 1) * size);
	(*n)--;
}

/* Does deleting qdisc or class ID take the object hanging at PARENT? */
static bool fake_under(uint32_t id, bool root, uint32_t parent)
{
	return root ? PLAN_H_MAJ(parent) == PLAN_H_MAJ(id) : parent == id;
}

/* Delete what hangs under ID (a root: its whole tree). */
static void fake_del_tree(struct plan_port *st, uint32_t id, bool root)
{
	for (size_t i = st->nfilters; i-- > 0;)
		if (fake_under(id, root, st->filters[i].parent))
			fake_drop(st->filters, &st->nfilters,
			          sizeof(*st->filters), i);
	for (size_t i = st->nclasses; i-- > 0;)
		if (root && fake_under(id, root, st->classes[i].classid))
			fake_drop(st->classes, &st->nclasses,
			          sizeof(*st->classes), i);
	for (size_t i = st->nqdiscs; i-- > 0;)
		if (fake_under(id, root, st->qdiscs[i].parent))
			fake_drop(st->qdiscs, &st->nqdiscs, sizeof(*st->qdiscs),
			          i);
}

/* What the kernel does with OP: objects are found as diff finds them. */
static void fake_apply(struct plan_port *st, const struct diff_op *op)
{
	size_t i;

	switch (op->obj) {
	case DIFF_QDISC:
		for (i = 0; i < st->nqdiscs; i++)
			if (st->qdiscs[i].handle == op->u.qdisc.handle)
				break;
		if (op->kind == DIFF_DEL) {
			assert_true(i < st->nqdiscs);
			fake_drop(st->qdiscs, &st->nqdiscs, sizeof(*st->qdiscs),
			          i);
			fake_del_tree(st, op->u.qdisc.handle,
			              op->u.qdisc.parent == PLAN_H_ROOT);
		} else if (i < st->nqdiscs) {
			st->qdiscs[i] = op->u.qdisc;
		} else {
			*plan_port_add_qdisc(st) = op->u.qdisc;
		}
		break;
	case DIFF_CLASS:
		for (i = 0; i < st->nclasses; i++)
			if (st->classes[i].classid == op->u.cls.classid)
				break;
		if (op->kind == DIFF_DEL) {
			assert_true(i < st->nclasses);
			fake_drop(st->classes, &st->nclasses,
			          sizeof(*st->classes), i);
			fake_del_tree(st, op->u.cls.classid, false);
		} else if (i < st->nclasses) {
			st->classes[i] = op->u.cls;
		} else {
			*plan_port_add_class(st) = op->u.cls;
		}
		break;
	case DIFF_FILTER:
		for (i = 0; i < st->nfilters; i++)
			if (st->filters[i].parent == op->u.filter.parent &&
			    st->filters[i].prio == op->u.filter.prio)
				break;
		if (op->kind == DIFF_DEL) {
			assert_true(i < st->nfilters);
			fake_drop(st->filters, &st->nfilters,
			          sizeof(*st->filters), i);
		} else if (i < st->nfilters) {
			st->filters[i] = op->u.filter;
		} else {
			*plan_port_add_filter(st) = op->u.filter;
		}
		break;
	default:
		fail_msg("not a tc operation");
	}
}

static int fake_scan(void *ctx, struct tc_scan *scan, struct nlb_error *err)
{
	(void)ctx;
	(void)scan;
	(void)err;
	fail_msg("reconcile does not scan");
	return -EIO;
}

static int fake_observe(void *ctx, const struct tc_scan *scan,
                        struct tc_observe_port *ports, size_t n,
                        struct nlb_error *err)
{
	struct fake *f = ctx;
	int rc = 0;

	(void)scan;
	(void)err;
	for (size_t i = 0; i < n; i++) {
		const struct plan_port *st =
		    &fake_link(f, ports[i].ifindex)->st;
		struct plan_port *h = ports[i].have;

		/* what tc_observe() says of a rule that does not decode */
		if (ports[i].ifindex == f->observe_fail_ifindex) {
			ports[i].err = rc = -EINVAL;
			snprintf(ports[i].error, sizeof(ports[i].error),
			         "cannot read the filters of 4791:: filter "
			         "prio 4793 protocol 0x0003 (u32): malformed "
			         "u32 options");
			continue;
		}

		memset(&ports[i].info, 0, sizeof(ports[i].info));
		for (size_t k = 0; k < st->nqdiscs; k++)
			*plan_port_add_qdisc(h) = st->qdiscs[k];
		for (size_t k = 0; k < st->nclasses; k++)
			*plan_port_add_class(h) = st->classes[k];
		for (size_t k = 0; k < st->nfilters; k++)
			*plan_port_add_filter(h) = st->filters[k];
	}
	return rc;
}

/* The batch holds a bare header per request, so that its count and
 * sequence numbers are the real ones; the operations are kept aside. */
static int fake_queue(void *ctx, struct nlb_batch *b, int ifindex,
                      const struct diff_op *ops, size_t n, size_t *bad)
{
	struct fake *f = ctx;
	int queued = 0;

	if (ifindex == f->queue_fail_ifindex) {
		f->queue_fail_ifindex = 0;
		*bad = n;
		return -ENOMEM;
	}
	for (size_t i = 0; ifindex == f->queue_bad_ifindex && i < n; i++) {
		if (ops[i].obj == DIFF_FILTER) {
			f->queue_bad_ifindex = 0;
			*bad = i;
			return -EINVAL;
		}
	}
	for (size_t i = 0; i < n; i++) {
		struct nlmsghdr *nlh;

		if (!tc_op_batched(&ops[i]))
			continue;
		assert_true(f->nq < FAKE_LOG_MAX);
		assert_int_equal(f->nq, b->n);
		f->q[f->nq].ifindex = ifindex;
		f->q[f->nq++].op = ops[i];
		nlh = (struct nlmsghdr *)nlb_batch_next(b, NLMSG_HDRLEN);
		assert_non_null(nlh);
		nlh->nlmsg_len = NLMSG_HDRLEN;
		nlb_batch_commit(&f->nl, b);
		queued++;
	}
	return queued;
}

/* Like the kernel, every request of a batch is carried out or refused on
 * its own: a refusal does not stop the ones after it. */
static bool fake_refused(struct fake *f, const char *what)
{
	for (size_t i = 0; i < 2; i++) {
		if (f->refuse[i].what && !f->refuse[i].done &&
		    !strcmp(what, f->refuse[i].what)) {
			f->refuse[i].done = true;
			return true;
		}
	}
	return false;
}

static int fake_send(void *ctx, struct nlb_batch *b, nlb_fail_cb cb, void *data)
{
	struct fake *f = ctx;

	assert_int_equal(f->nq, b->n);
	for (size_t i = 0; i < f->nq; i++) {
		char what[96];

		fake_describe(what, sizeof(what), f->q[i].ifindex, &f->q[i].op);
		if (fake_refused(f, what)) {
			char refused[112];

			snprintf(refused, sizeof(refused), "%s: refused", what);
			fake_log(f, refused);
			cb(i, -EINVAL, "fake says no", data);
			continue;
		}
		fake_log(f, what);
		if (f->q[i].op.obj != DIFF_MTU)
			fake_apply(&fake_link(f, f->q[i].ifindex)->st,
			           &f->q[i].op);
	}
	f->nq = 0;
	return 0;
}

static const struct tc_ops fake_tc = {
    .scan = fake_scan,
    .observe = fake_observe,
    .queue = fake_queue,
    .send = fake_send,
};

/* DCB: every port holds the state of rp_ieee_full; writes are logged as
 * "dcb IFNAME set|del WHAT" and answered by the driver with success, or
 * with failure for the one the test refuses. */
static int fake_transact(void *ctx, struct nlmsghdr *req, void *reply,
                         size_t *replylen, struct nlb_error *err)
{
	struct fake *f = ctx;
	const struct dcbmsg *d = mnl_nlmsg_get_payload(req);
	struct dcbnl_msg_ieee m;
	const uint8_t *rp = rp_set_ok;
	size_t len = sizeof(rp_set_ok);
	char what[96];

	memset(err, 0, sizeof(*err));
	if (d->cmd == DCB_CMD_IEEE_GET) {
		assert_true(sizeof(rp_ieee_full) <= *replylen);
		memcpy(reply, rp_ieee_full, sizeof(rp_ieee_full));
		*replylen = sizeof(rp_ieee_full);
		return 0;
	}
	assert_int_equal(dcbnl_msg_parse_ieee(req, req->nlmsg_len, &m), 0);
	snprintf(what, sizeof(what), "dcb %s %s%s%s%s%s", m.ifname,
	         d->cmd == DCB_CMD_IEEE_DEL ? "del" : "set",
	         m.present & DCBNL_MSG_HAS_PFC ? " pfc" : "",
	         m.present & DCBNL_MSG_HAS_ETS ? " ets" : "",
	         m.present & DCBNL_MSG_HAS_APP ? " app" : "",
	         m.present & DCBNL_MSG_HAS_TRUST ? " apptrust" : "");
	if (f->dcb_refuse_what && !strcmp(what, f->dcb_refuse_what)) {
		rp = rp_set_fail;
		len = sizeof(rp_set_fail);
		strcat(what, ": refused");
	} else if (d->cmd == DCB_CMD_IEEE_DEL) {
		rp = rp_del_ok;
		len = sizeof(rp_del_ok);
	}
	fake_log(f, what);
	memcpy(reply, rp, len);
	*replylen = len;
	return 0;
}

static const struct dcb_ops fake_dcb = {.transact = fake_transact};

struct fake_pause_set {
	char dev[IFNAMSIZ];
	int rx, tx;
};

static int fake_pause_cb(const struct nlattr *a, void *data)
{
	struct fake_pause_set *s = data;

	if (mnl_attr_get_type(a) == ETHTOOL_A_PAUSE_HEADER)
		snprintf(s->dev, sizeof(s->dev), "%s",
		         mnl_attr_get_str(mnl_attr_get_payload(a)));
	if (mnl_attr_get_type(a) == ETHTOOL_A_PAUSE_RX)
		s->rx = mnl_attr_get_u8(a);
	if (mnl_attr_get_type(a) == ETHTOOL_A_PAUSE_TX)
		s->tx = mnl_attr_get_u8(a);
	return MNL_CB_OK;
}

static int fake_ethtool_transact(void *ctx, struct nlmsghdr *req, mnl_cb_t cb,
                                 void *data, struct nlb_error *err)
{
	struct fake *f = ctx;
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(req);
	uint32_t buf[64];
	struct fake_pause_set s = {.rx = -1, .tx = -1};
	char what[96];

	memset(err, 0, sizeof(*err));
	if (req->nlmsg_type == GENL_ID_CTRL) {
		memcpy(buf, rp_family, sizeof(rp_family));
		return cb((struct nlmsghdr *)buf, data) < 0 ? -EIO : 0;
	}
	if (g->cmd == ETHTOOL_MSG_PAUSE_GET) {
		if (f->pause_none)
			return err->err = -EOPNOTSUPP;
		memcpy(buf, rp_pause_stats, sizeof(rp_pause_stats));
		return cb((struct nlmsghdr *)buf, data) < 0 ? -EIO : 0;
	}
	assert_int_equal(g->cmd, ETHTOOL_MSG_PAUSE_SET);
	mnl_attr_parse(req, GENL_HDRLEN, fake_pause_cb, &s);
	snprintf(what, sizeof(what), "ethtool %s pause rx %d tx %d%s", s.dev,
	         s.rx, s.tx, f->pause_refuse ? ": refused" : "");
	fake_log(f, what);
	if (!f->pause_refuse)
		return 0;
	snprintf(err->msg, sizeof(err->msg), "fake driver has no pause");
	return err->err = -EOPNOTSUPP;
}

static const struct ethtool_ops fake_ethtool_ops = {.transact =
                                                        fake_ethtool_transact};

static void fake_free(struct fake *f)
{
	for (size_t i = 0; i < f->nlinks; i++) {
		plan_port_clear_tc(&f->links[i].st);
		diag_free(&f->links[i].st.warnings);
	}
}

/* --- plans --- */

static int ifindex_of(struct link_mon *lm, const char *name)
{
	struct link_info li;

	assert_int_equal(link_lookup(lm, name, &li), 0);
	return li.ifindex;
}

/* A software port: an ets root, a bfifo leaf on band 2 and a filter. */
static void plan_tc(struct plan_port *pp)
{
	struct plan_qdisc root = {.kind = PLAN_QD_ETS,
	                          .handle = PLAN_H_MAKE(PLAN_ROOT_MAJOR, 0),
	                          .parent = PLAN_H_ROOT,
	                          .queue = -1,
	                          .u.ets = {.nbands = 8, .nstrict = 8}};
	struct plan_qdisc leaf = {.kind = PLAN_QD_BFIFO,
	                          .handle = PLAN_H_MAKE(PLAN_LEAF_MAJOR(1), 0),
	                          .parent = PLAN_H_MAKE(PLAN_ROOT_MAJOR, 2),
	                          .queue = 1,
	                          .u.fifo.limit = 100000};
	struct plan_filter f = {.kind = PLAN_FILTER_FLOWER,
	                        .parent = root.handle,
	                        .prio = PLAN_FILTER_PRIO_BASE,
	                        .protocol = ETH_P_IP,
	                        .match_dscp = true,
	                        .dscp = 26,
	                        .dscp_mask = 0x3f,
	                        .action = PLAN_ACT_CLASSID,
	                        .classid = leaf.parent};

	pp->dcb.software = true;
	*plan_port_add_qdisc(pp) = root;
	*plan_port_add_qdisc(pp) = leaf;
	*plan_port_add_filter(pp) = f;
}

/* A hardware port that wants what rp_ieee_full holds but for PFC, which
 * it wants on priority 4 too: one "dcb set pfc". */
static void plan_dcb_pfc(struct fake *f, struct plan_port *pp)
{
	struct dcbnl_msg_ieee cur;

	assert_int_equal(dcb_observe(&fake_dcb, f, pp->ifname, &cur, &pp->dcb),
	                 0);
	pp->dcb.pfc_en |= 1u << 4;
}

static void check_log(const struct fake *f, const char *const *want, size_t n)
{
	bool same = f->nlog == n;

	for (size_t i = 0; same && i < n; i++)
		same = !strcmp(f->log[i], want[i]);
	for (size_t i = 0; !same && i < f->nlog; i++)
		print_message("sent: %s\n", f->log[i]);
	for (size_t i = 0; i < f->nlog && i < n; i++)
		assert_string_equal(f->log[i], want[i]);
	assert_int_equal(f->nlog, n);
}

#define CHECK_LOG(f, ...)                                                      \
	do {                                                                   \
		const char *const want_[] = {__VA_ARGS__};                     \
		check_log((f), want_, sizeof(want_) / sizeof(want_[0]));       \
	} while (0)

static void check_empty(struct fake *f, int ifindex)
{
	const struct plan_port *st = &fake_link(f, ifindex)->st;

	assert_int_equal(st->nqdiscs, 0);
	assert_int_equal(st->nclasses, 0);
	assert_int_equal(st->nfilters, 0);
}

struct rig {
	struct link_mon *lm;
	struct fake f;
	struct reconcile r;
	struct plan pl;
	struct reconcile_result res[2];
	int a, b; /* rc0's and rc1's ifindex */
	struct ethtool et;
};

static void rig_init(struct rig *g)
{
	memset(g, 0, sizeof(*g));
	assert_int_equal(link_mon_open(&g->lm, NULL, NULL), 0);
	g->r = (struct reconcile){.tc = &fake_tc,
	                          .tc_ctx = &g->f,
	                          .dcb = &fake_dcb,
	                          .dcb_ctx = &g->f,
	                          .links = g->lm,
	                          .ethtool = &g->et};
	ethtool_init(&g->et, &fake_ethtool_ops, &g->f);
	g->a = ifindex_of(g->lm, "rc0");
	g->b = ifindex_of(g->lm, "rc1");
	plan_init(&g->pl);
	/* software ports, with nothing to do until a test says */
	assert_non_null(plan_add_port(&g->pl, "rc0"));
	assert_non_null(plan_add_port(&g->pl, "rc1"));
	g->pl.ports[0].dcb.software = g->pl.ports[1].dcb.software = true;
	diff_oom_port = NULL;
}

static void rig_free(struct rig *g)
{
	plan_free(&g->pl);
	fake_free(&g->f);
	link_mon_close(g->lm);
}

/* --- tests --- */

/* The kernel refuses rc0's leaf: the root and the filter it took are
 * deleted again (the root takes the filter), and rc1 keeps its plan. */
static void test_refusal_rolls_back(void **state)
{
	struct rig g;
	char l[7][96];

	(void)state;
	rig_init(&g);
	plan_tc(&g.pl.ports[0]);
	plan_tc(&g.pl.ports[1]);
	snprintf(l[0], sizeof(l[0]), "%d add qdisc bfifo 4711:", g.a);
	g.f.refuse[0].what = l[0];

	assert_int_equal(reconcile_apply(&g.r, &g.pl, g.res), -EAGAIN);

	snprintf(l[0], sizeof(l[0]), "%d add qdisc ets 4791:", g.a);
	snprintf(l[1], sizeof(l[1]), "%d add qdisc bfifo 4711:: refused", g.a);
	snprintf(l[2], sizeof(l[2]), "%d add filter 47910000 prio 4791", g.a);
	snprintf(l[3], sizeof(l[3]), "%d add qdisc ets 4791:", g.b);
	snprintf(l[4], sizeof(l[4]), "%d add qdisc bfifo 4711:", g.b);
	snprintf(l[5], sizeof(l[5]), "%d add filter 47910000 prio 4791", g.b);
	/* the rollback: rc0 alone */
	snprintf(l[6], sizeof(l[6]), "%d delete qdisc ets 4791:", g.a);
	CHECK_LOG(&g.f, l[0], l[1], l[2], l[3], l[4], l[5], l[6]);
	check_empty(&g.f, g.a);
	assert_int_equal(fake_link(&g.f, g.b)->st.nqdiscs, 2);
	assert_int_equal(fake_link(&g.f, g.b)->st.nfilters, 1);

	assert_int_equal(g.res[0].status, RECONCILE_ROLLED_BACK);
	assert_int_equal(g.res[0].writes, 4);
	assert_string_equal(g.res[0].error,
	                    "rc0: add qdisc bfifo 4711: parent 4791:2: "
	                    "Invalid argument: fake says no");
	assert_int_equal(g.res[1].status, RECONCILE_OK);
	assert_int_equal(g.res[1].writes, 3);
	assert_string_equal(g.res[1].error, "");
	rig_free(&g);
}

/* A change on a port that held the plan already: the rollback puts the
 * old objects back, not an empty port. */
static void test_rollback_restores_before(void **state)
{
	struct rig g;
	struct plan_port *st;
	char l[5][96];

	(void)state;
	rig_init(&g);
	plan_tc(&g.pl.ports[0]);
	assert_int_equal(reconcile_apply(&g.r, &g.pl, g.res), 0);
	g.f.nlog = 0;

	/* The leaf grows and the filter matches another DSCP. */
	g.pl.ports[0].qdiscs[1].u.fifo.limit = 200000;
	g.pl.ports[0].filters[0].dscp = 46;
	snprintf(l[0], sizeof(l[0]), "%d add filter 47910000 prio 4791", g.a);
	g.f.refuse[0].what = l[0];
	assert_int_equal(reconcile_apply(&g.r, &g.pl, g.res), -EAGAIN);

	snprintf(l[0], sizeof(l[0]), "%d delete filter 47910000 prio 4791",
	         g.a);
	snprintf(l[1], sizeof(l[1]), "%d change qdisc bfifo 4711:", g.a);
	snprintf(l[2], sizeof(l[2]),
	         "%d add filter 47910000 prio 4791: refused", g.a);
	snprintf(l[3], sizeof(l[3]), "%d change qdisc bfifo 4711:", g.a);
	snprintf(l[4], sizeof(l[4]), "%d add filter 47910000 prio 4791", g.a);
	CHECK_LOG(&g.f, l[0], l[1], l[2], l[3], l[4]);
	st = &fake_link(&g.f, g.a)->st;
	assert_int_equal(st->nqdiscs, 2);
	assert_int_equal(st->qdiscs[1].u.fifo.limit, 100000);
	assert_int_equal(st->nfilters, 1);
	assert_int_equal(st->filters[0].dscp, 26);
	assert_int_equal(g.res[0].status, RECONCILE_ROLLED_BACK);
	assert_int_equal(g.res[0].writes, 5);
	rig_free(&g);
}

/* The rollback is refused too: the port is reported failed, with both
 * reasons, and what the rollback could not undo stays. */
static void test_rollback_refused(void **state)
{
	struct rig g;
	char l[4][96];

	(void)state;
	rig_init(&g);
	plan_tc(&g.pl.ports[0]);
	snprintf(l[0], sizeof(l[0]), "%d add qdisc bfifo 4711:", g.a);
	snprintf(l[1], sizeof(l[1]), "%d delete qdisc ets 4791:", g.a);
	g.f.refuse[0].what = l[0];
	g.f.refuse[1].what = l[1];
	assert_int_equal(reconcile_apply(&g.r, &g.pl, g.res), -EAGAIN);

	snprintf(l[0], sizeof(l[0]), "%d add qdisc ets 4791:", g.a);
	snprintf(l[1], sizeof(l[1]), "%d add qdisc bfifo 4711:: refused", g.a);
	snprintf(l[2], sizeof(l[2]), "%d add filter 47910000 prio 4791", g.a);
	snprintf(l[3], sizeof(l[3]), "%d delete qdisc ets 4791:: refused", g.a);
	CHECK_LOG(&g.f, l[0], l[1], l[2], l[3]);
	assert_int_equal(fake_link(&g.f, g.a)->st.nqdiscs, 1);
	assert_int_equal(g.res[0].status, RECONCILE_FAILED);
	assert_int_equal(g.res[0].writes, 4);
	assert_string_equal(
	    g.res[0].error,
	    "rc0: add qdisc bfifo 4711: parent 4791:2: Invalid argument: "
	    "fake says no; rollback failed too: rc0: delete qdisc "
	    "ets 4791: root: Invalid argument: fake says no");
	rig_free(&g);
}

/* clsact and an ingress rule of roced's on a port without them. */
static void plan_clsact(struct plan_port *pp)
{
	struct plan_qdisc cl = {.kind = PLAN_QD_CLSACT,
	                        .handle = PLAN_H_CLSACT,
	                        .parent = PLAN_H_CLSACT,
	                        .queue = -1};
	struct plan_filter f = {.kind = PLAN_FILTER_FLOWER,
	                        .parent = PLAN_H_CLSACT_INGRESS,
	                        .prio = PLAN_FILTER_PRIO_BASE,
	                        .protocol = ETH_P_IP,
	                        .match_dscp = true,
	                        .dscp = 26,
	                        .dscp_mask = 0x3f,
	                        .action = PLAN_ACT_SKBEDIT_PRIORITY,
	                        .priority = 3};

	pp->dcb.software = true;
	*plan_port_add_qdisc(pp) = cl;
	*plan_port_add_filter(pp) = f;
}

/* The kernel takes clsact and refuses roced's mark on it (no flower): the
 * clsact is roced's all the same, and the rollback deletes it. The fake
 * kernel, like a real one without the mark, reports it unmarked. */
static void test_rollback_deletes_unmarked_clsact(void **state)
{
	struct rig g;
	char l[5][96];

	(void)state;
	rig_init(&g);
	plan_clsact(&g.pl.ports[0]);
	snprintf(l[0], sizeof(l[0]), "%d add filter fffffff2 prio 5790", g.a);
	g.f.refuse[0].what = l[0];
	assert_int_equal(reconcile_apply(&g.r, &g.pl, g.res), -EAGAIN);

	snprintf(l[0], sizeof(l[0]), "%d add qdisc clsact ffff:", g.a);
	snprintf(l[1], sizeof(l[1]),
	         "%d add filter fffffff2 prio 5790: refused", g.a);
	snprintf(l[2], sizeof(l[2]), "%d add filter fffffff2 prio 4791", g.a);
	snprintf(l[3], sizeof(l[3]), "%d delete filter fffffff2 prio 4791",
	         g.a);
	snprintf(l[4], sizeof(l[4]), "%d delete qdisc clsact ffff:", g.a);
	CHECK_LOG(&g.f, l[0], l[1], l[2], l[3], l[4]);
	check_empty(&g.f, g.a);
	assert_int_equal(g.res[0].status, RECONCILE_ROLLED_BACK);
	rig_free(&g);
}

/* (a) Out of memory in rc1's diff, after rc0 had DCB to write: the pass
 * fails before anything is written, as its -errno says. */
static void test_diff_oom_writes_nothing(void **state)
{
	struct rig g;

	(void)state;
	rig_init(&g);
	plan_dcb_pfc(&g.f, &g.pl.ports[0]);
	plan_tc(&g.pl.ports[1]);
	diff_oom_port = "rc1";
	assert_int_equal(reconcile_apply(&g.r, &g.pl, g.res), -ENOMEM);
	assert_int_equal(g.f.nlog, 0);
	check_empty(&g.f, g.b);
	rig_free(&g);
}

/* (b) rc0's DCB write is refused: none of its tc requests is sent (they
 * would only be undone), rc1's are. */
static void test_dcb_refused_sends_no_tc(void **state)
{
	struct rig g;
	char l[3][96];

	(void)state;
	rig_init(&g);
	plan_dcb_pfc(&g.f, &g.pl.ports[0]);
	plan_tc(&g.pl.ports[0]);
	g.pl.ports[0].dcb.software = false;
	plan_tc(&g.pl.ports[1]);
	g.f.dcb_refuse_what = "dcb rc0 set pfc";

	assert_int_equal(reconcile_apply(&g.r, &g.pl, g.res), -EAGAIN);
	snprintf(l[0], sizeof(l[0]), "%d add qdisc ets 4791:", g.b);
	snprintf(l[1], sizeof(l[1]), "%d add qdisc bfifo 4711:", g.b);
	snprintf(l[2], sizeof(l[2]), "%d add filter 47910000 prio 4791", g.b);
	CHECK_LOG(&g.f, "dcb rc0 set pfc: refused", l[0], l[1], l[2]);
	check_empty(&g.f, g.a);
	assert_int_equal(g.res[0].status, RECONCILE_ROLLED_BACK);
	assert_int_equal(g.res[0].writes, 1);
	assert_string_equal(g.res[0].error,
	                    "rc0: change dcb pfc: Operation not supported: "
	                    "the driver refused the dcb pfc setting");
	assert_int_equal(g.res[1].status, RECONCILE_OK);
	rig_free(&g);
}

/* Link pause on a hardware port: written when the driver holds another
 * setting, not when it holds the plan's; a driver without pause refuses
 * it, naming the port, and the port is rolled back. */
static void test_link_pause(void **state)
{
	struct rig g;

	(void)state;
	rig_init(&g);
	plan_dcb_pfc(&g.f, &g.pl.ports[0]);
	g.pl.ports[0].dcb.pause_managed = true;
	g.pl.ports[0].dcb.pause_rx = true; /* the driver: rx on, tx on */
	g.pl.ports[0].dcb.pause_tx = false;
	assert_int_equal(reconcile_apply(&g.r, &g.pl, g.res), 0);
	CHECK_LOG(&g.f, "dcb rc0 set pfc", "ethtool rc0 pause rx 1 tx 0");
	assert_int_equal(g.res[0].writes, 2);

	/* What the driver holds: nothing to write. */
	g.f.nlog = 0;
	g.pl.ports[0].dcb.pause_tx = true;
	g.pl.ports[0].dcb.pfc_en &= (uint8_t) ~(1u << 4);
	assert_int_equal(reconcile_apply(&g.r, &g.pl, g.res), 0);
	assert_int_equal(g.f.nlog, 0);

	/* No pause at all (veth's answer): refused, the port named. */
	g.f.pause_none = g.f.pause_refuse = true;
	assert_int_equal(reconcile_apply(&g.r, &g.pl, g.res), -EAGAIN);
	CHECK_LOG(&g.f, "ethtool rc0 pause rx 1 tx 1: refused");
	assert_int_equal(g.res[0].status, RECONCILE_ROLLED_BACK);
	assert_string_equal(g.res[0].error,
	                    "rc0: change link pause: Operation not "
	                    "supported: fake driver has no pause");

	/* No ethtool backend: the same refusal, saying why. */
	g.r.ethtool = NULL;
	assert_int_equal(reconcile_apply(&g.r, &g.pl, g.res), -EAGAIN);
	assert_string_equal(g.res[0].error,
	                    "rc0: change link pause: Operation not "
	                    "supported: no ethtool netlink to set 802.3x "
	                    "pause with");
	rig_free(&g);
}

/* (a) A port whose requests cannot be encoded, after rc0's DCB write:
 * that port fails and is rolled back, the pass does not claim that
 * nothing was written. */
static void test_queue_failure_is_per_port(void **state)
{
	struct rig g;

	(void)state;
	rig_init(&g);
	plan_dcb_pfc(&g.f, &g.pl.ports[0]);
	plan_tc(&g.pl.ports[1]);
	g.f.queue_fail_ifindex = g.b;

	assert_int_equal(reconcile_apply(&g.r, &g.pl, g.res), -EAGAIN);
	CHECK_LOG(&g.f, "dcb rc0 set pfc");
	assert_int_equal(g.res[0].status, RECONCILE_OK);
	assert_int_equal(g.res[1].status, RECONCILE_ROLLED_BACK);
	assert_string_equal(g.res[1].error,
	                    "rc1: tc requests: Cannot allocate memory: "
	                    "cannot encode them");
	check_empty(&g.f, g.b);
	rig_free(&g);
}

/* (c) The real tc backend refuses an operation of a kind diff does not
 * make, and takes back what it queued of the port before it. */
static void test_tc_queue_unknown_kind(void **state)
{
	struct nlb nl = {.seq = 7};
	struct tc_nl t = {.nl = &nl};
	struct nlb_batch b;
	struct diff_op ops[2];
	size_t bad = 9;

	(void)state;
	memset(ops, 0, sizeof(ops));
	ops[0].kind = DIFF_CHANGE;
	ops[0].obj = DIFF_MTU;
	ops[0].u.mtu = 9000;
	ops[1] = ops[0];
	ops[1].kind = (enum diff_kind)42;
	ops[1].obj = DIFF_FILTER;
	nlb_batch_init(&b);
	assert_int_equal(tc_ops_netlink.queue(&t, &b, 1, ops, 1, &bad), 1);
	assert_int_equal(b.n, 1);
	assert_int_equal(tc_ops_netlink.queue(&t, &b, 1, ops, 2, &bad),
	                 -EINVAL);
	assert_int_equal(bad, 1); /* the operation at fault */
	assert_int_equal(b.n, 1);
	assert_int_equal(nl.seq, 8);
	/* nor a link MTU that is not a change */
	ops[1] = ops[0];
	ops[1].kind = DIFF_DEL;
	assert_int_equal(tc_ops_netlink.queue(&t, &b, 1, ops + 1, 1, &bad),
	                 -EINVAL);
	assert_int_equal(bad, 0);
	assert_int_equal(b.n, 1);
	nlb_batch_free(&b);
}

/* A port that cannot be read stops the pass before anything is written,
 * and its result says which port, what could not be read and why. */
static void test_unreadable_port_named(void **state)
{
	struct rig g;

	(void)state;
	rig_init(&g);
	plan_tc(&g.pl.ports[0]);
	plan_tc(&g.pl.ports[1]);
	g.f.observe_fail_ifindex = g.b;

	assert_int_equal(reconcile_apply(&g.r, &g.pl, g.res), -EINVAL);
	assert_int_equal(g.f.nlog, 0);
	assert_int_equal(g.res[1].status, RECONCILE_FAILED);
	assert_string_equal(g.res[1].error,
	                    "rc1: cannot read the kernel's state: cannot "
	                    "read the filters of 4791:: filter prio 4793 "
	                    "protocol 0x0003 (u32): malformed u32 options");
	assert_string_equal(g.res[0].error, "");
	rig_free(&g);
}

/* A request the encoders refuse is named in the port's error; the port
 * is left as it was and the other one applied. */
static void test_unencodable_request_named(void **state)
{
	struct rig g;

	(void)state;
	rig_init(&g);
	plan_tc(&g.pl.ports[0]);
	plan_tc(&g.pl.ports[1]);
	g.f.queue_bad_ifindex = g.a;

	assert_int_equal(reconcile_apply(&g.r, &g.pl, g.res), -EAGAIN);
	assert_int_equal(g.res[0].status, RECONCILE_ROLLED_BACK);
	assert_string_equal(g.res[0].error,
	                    "rc0: add filter prio 4791: Invalid argument: "
	                    "roced cannot encode this request");
	assert_int_equal(g.res[0].writes, 0);
	check_empty(&g.f, g.a);
	assert_int_equal(g.res[1].status, RECONCILE_OK);
	rig_free(&g);
}

/* The real tc backend: an 802.1Q rule has no u32 encoding, and the
 * backend says which operation it was (class-default's protocol all has
 * one: match u32 0 0). */
static void test_tc_queue_names_unencodable(void **state)
{
	struct nlb nl = {.seq = 1};
	struct tc_nl t = {.nl = &nl};
	struct nlb_batch b;
	struct diff_op ops[2];
	size_t bad = 9;

	(void)state;
	memset(ops, 0, sizeof(ops));
	ops[0].kind = ops[1].kind = DIFF_ADD;
	ops[0].obj = ops[1].obj = DIFF_FILTER;
	ops[0].u.filter =
	    (struct plan_filter){.kind = PLAN_FILTER_U32,
	                         .parent = PLAN_H_MAKE(PLAN_ROOT_MAJOR, 0),
	                         .prio = PLAN_FILTER_PRIO_BASE + 2,
	                         .protocol = ETH_P_ALL,
	                         .action = PLAN_ACT_CLASSID,
	                         .classid = PLAN_H_MAKE(PLAN_ROOT_MAJOR, 0x10)};
	ops[1].u.filter = ops[0].u.filter;
	ops[1].u.filter.protocol = ETH_P_8021Q;
	nlb_batch_init(&b);
	assert_int_equal(tc_ops_netlink.queue(&t, &b, 1, ops, 1, &bad), 1);
	assert_int_equal(tc_ops_netlink.queue(&t, &b, 1, ops, 2, &bad),
	                 -EINVAL);
	assert_int_equal(bad, 1);
	assert_int_equal(b.n, 1);
	nlb_batch_free(&b);
}

static void sh(const char *cmd)
{
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_refusal_rolls_back),
	    cmocka_unit_test(test_rollback_restores_before),
	    cmocka_unit_test(test_rollback_refused),
	    cmocka_unit_test(test_rollback_deletes_unmarked_clsact),
	    cmocka_unit_test(test_diff_oom_writes_nothing),
	    cmocka_unit_test(test_dcb_refused_sends_no_tc),
	    cmocka_unit_test(test_link_pause),
	    cmocka_unit_test(test_queue_failure_is_per_port),
	    cmocka_unit_test(test_tc_queue_unknown_kind),
	    cmocka_unit_test(test_unreadable_port_named),
	    cmocka_unit_test(test_unencodable_request_named),
	    cmocka_unit_test(test_tc_queue_names_unencodable),
	};

	if (geteuid() != 0 || unshare(CLONE_NEWNET) < 0) {
		printf("SKIP: test_reconcile needs root to create a private "
		       "network namespace\n");
		return 77;
	}
	sh("ip link add rc0 type veth peer name rc0p");
	sh("ip link add rc1 type veth peer name rc1p");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
