/* compile_tc: the tc part of a port's plan.
 *
 * Only a port with a queuing policy gets a tc tree; without one roced
 * leaves the root qdisc alone (PLAN_LAYOUT_NONE). The tree is
 *
 *   root (ets > prio > htb, the best the kernel has; htb where software
 *   PFC holds a bandwidth-sharing queue, see compile_pfc_ets_stalls()),
 *   one band or class
 *   per NX-OS queue, and an explicit leaf under each of the 8 queues
 *   (red for WRED queues when the kernel has it, bfifo otherwise),
 *
 * so that every object and every value is determined by the plan and diff
 * can compare it field by field. On software ports the qos input policy
 * also becomes tc filters: flower + skbedit on clsact ingress when the
 * kernel has them (skb->priority = qos-group, and the egress priomap picks
 * the queue), else one cls_bpf program on the egress root choosing the
 * queue's class (compile_bpf.c), else u32 there (which cannot see CoS).
 * Hardware DCB ports classify in the NIC (APP/trust) and get no filters.
 *
 * Band order for ets/prio: strict queues first, by priority level (1
 * before 2) and then higher queue number first, as NX-OS serves q7 before
 * q1; the DWRR queues follow in descending queue order.
 */
#include "plan/compile_int.h"

#include <errno.h>
#include <string.h>

enum compile_root {
	COMPILE_ROOT_NONE,
	COMPILE_ROOT_ETS,
	COMPILE_ROOT_PRIO,
	COMPILE_ROOT_HTB,
};

/* The shape of one port's tree, shared by the root, leaves and filters. */
struct compile_tree {
	enum compile_root root;
	uint32_t handle; /* root qdisc handle */
	int8_t band_queue[POLICY_NQUEUES];
	uint8_t queue_band[POLICY_NQUEUES];
	/* Priority (qos-group) p's queue: its traffic class in the DCB
	 * part, p itself unless the port adopted a peer's ETS whose
	 * priority -> TC table says otherwise. */
	uint8_t prio_queue[POLICY_NPRIO];
	unsigned nstrict;
	/* htb chosen over ets for software PFC (compile_pfc_ets_stalls()):
	 * the bridge's other ports may be ets, so the ingress skbedit keeps
	 * ets's form (the qos-group, which their priomap maps) and the htb
	 * root classifies again on egress (u32 or cls_bpf choosing the class):
	 * what enters through an ets port, and a host's own traffic, then
	 * still reaches its queue here. */
	bool softpfc_htb;
};

/* Filters of one port as they are laid down: one prio each, in order. */
struct compile_flt {
	struct compile_ctx *c;
	const struct compile_tree *t;
	enum plan_filter_kind kind;
	uint32_t parent;
	enum plan_filter_action action;
	unsigned n;
	bool full;
};

static uint32_t compile_tc_queue_class(const struct compile_tree *t, unsigned q)
{
	if (t->root == COMPILE_ROOT_HTB)
		return PLAN_H_MAKE(PLAN_ROOT_MAJOR, PLAN_HTB_QUEUE_MINOR(q));
	/* ets and prio number their band classes from 1. */
	return PLAN_H_MAKE(PLAN_ROOT_MAJOR, t->queue_band[q] + 1u);
}

/* The class of the queue that qos-group (priority) G's traffic goes to. */
static uint32_t compile_tc_group_class(const struct compile_tree *t, unsigned g)
{
	return compile_tc_queue_class(t, t->prio_queue[g % POLICY_NPRIO]);
}

static void compile_tc_bands(const struct compile_ctx *c,
                             struct compile_tree *t)
{
	const struct policy_map_queuing *m = c->queuing;
	unsigned b = 0;

	/* Strict levels 1, 2, ... in turn; within a level q7 first. */
	for (unsigned level = 1; level <= 255; level++) {
		bool more = false;

		for (int q = POLICY_NQUEUES - 1; q >= 0; q--) {
			if (!compile_queue_strict(m, (unsigned)q))
				continue;
			if (m->queue[q].priority_level > level)
				more = true;
			if (m->queue[q].priority_level == level)
				t->band_queue[b++] = (int8_t)q;
		}
		if (!more)
			break;
	}
	t->nstrict = b;
	for (int q = POLICY_NQUEUES - 1; q >= 0; q--)
		if (!compile_queue_strict(m, (unsigned)q))
			t->band_queue[b++] = (int8_t)q;
	for (unsigned i = 0; i < POLICY_NQUEUES; i++)
		t->queue_band[t->band_queue[i]] = (uint8_t)i;
}

/* A DWRR queue's quantum: one full frame per percent, so that even a 1 %
 * queue sends a whole frame per round (DRR needs quantum >= frame to stay
 * O(1)), and 0 % a tenth of that. */
static uint32_t compile_tc_quantum(const struct compile_ctx *c, unsigned q)
{
	unsigned pct = compile_queue_percent(c->queuing, q);
	uint32_t quantum =
	    pct ? pct * c->frame : c->frame / COMPILE_ZERO_SHARE_DIV;

	return quantum ? quantum : 1;
}

/* Say which DWRR queues only get leftovers, once per port. */
static void compile_tc_zero_shares(struct compile_ctx *c, const char *how)
{
	uint64_t zero = 0;
	char list[64];

	for (unsigned q = 0; q < POLICY_NQUEUES; q++)
		if (!compile_queue_strict(c->queuing, q) &&
		    !compile_queue_percent(c->queuing, q))
			zero |= 1ull << q;
	if (!zero)
		return;
	policy_list_format(zero, list, sizeof(list));
	diag_warn(&c->pp->warnings, c->queuing->line,
	          "queues %s have bandwidth remaining percent 0 (unconfigured "
	          "queues count as 0): 0 %% means 'only leftover bandwidth', "
	          "realised as %s of a tenth of 1 %%",
	          list, how);
}

static void compile_tc_priomap(const struct compile_tree *t, uint8_t *priomap)
{
	/* skb->priority p is qos-group p, in the queue of its traffic
	 * class; 8-15 (socket priorities nobody classified) go where
	 * unclassified traffic goes: priority 0's queue. */
	for (unsigned p = 0; p < 16; p++)
		priomap[p] =
		    t->queue_band[t->prio_queue[p < POLICY_NPRIO ? p : 0]];
}

static int compile_tc_root_ets(struct compile_ctx *c, struct compile_tree *t)
{
	struct plan_qdisc *qd = plan_port_add_qdisc(c->pp);
	struct plan_ets *e;

	if (!qd)
		return -ENOMEM;
	qd->kind = PLAN_QD_ETS;
	qd->handle = t->handle;
	qd->parent = PLAN_H_ROOT;
	qd->queue = -1;
	e = &qd->u.ets;
	e->nbands = POLICY_NQUEUES;
	e->nstrict = (uint8_t)t->nstrict;
	memcpy(e->band_queue, t->band_queue, sizeof(e->band_queue));
	for (unsigned b = t->nstrict; b < POLICY_NQUEUES; b++)
		e->quanta[b] =
		    compile_tc_quantum(c, (unsigned)t->band_queue[b]);
	compile_tc_priomap(t, e->priomap);
	compile_tc_zero_shares(c, "a DWRR quantum");
	return 0;
}

static int compile_tc_root_prio(struct compile_ctx *c, struct compile_tree *t)
{
	struct plan_qdisc *qd = plan_port_add_qdisc(c->pp);

	if (!qd)
		return -ENOMEM;
	qd->kind = PLAN_QD_PRIO;
	qd->handle = t->handle;
	qd->parent = PLAN_H_ROOT;
	qd->queue = -1;
	qd->u.prio.bands = POLICY_NQUEUES;
	memcpy(qd->u.prio.band_queue, t->band_queue,
	       sizeof(qd->u.prio.band_queue));
	compile_tc_priomap(t, qd->u.prio.priomap);
	if (t->nstrict < POLICY_NQUEUES)
		diag_warn(&c->pp->warnings, c->queuing->line,
		          "the kernel lacks sch_ets: prio serves every queue "
		          "strictly (q7 first), bandwidth remaining shares are "
		          "not realised");
	return 0;
}

static uint32_t compile_tc_htb_burst(const struct compile_ctx *c, uint64_t rate)
{
	uint64_t burst = rate * COMPILE_HTB_BURST_MS / 1000u;

	if (burst < 2ull * c->frame)
		burst = 2ull * c->frame;
	return burst > UINT32_MAX ? UINT32_MAX : (uint32_t)burst;
}

/* Fill the token buckets once rate and ceil are known. */
static void compile_tc_class_buckets(const struct compile_ctx *c,
                                     struct plan_class *cl)
{
	cl->burst = compile_tc_htb_burst(c, cl->rate);
	cl->cburst = compile_tc_htb_burst(c, cl->ceil);
}

static struct plan_class *compile_tc_class(struct compile_ctx *c,
                                           uint32_t classid, uint32_t parent,
                                           int queue)
{
	struct plan_class *cl = plan_port_add_class(c->pp);

	if (cl) {
		cl->classid = classid;
		cl->parent = parent;
		cl->queue = queue;
	}
	return cl;
}

/* `shape min A max B` (NX-OS: the queue's guaranteed and peak rate) on
 * the htb layout: the queue class's ceil becomes B, and its rate at least
 * A (never above the ceil, which htb would refuse). A strict queue, whose
 * rate is the port's, is capped the same way. */
static void compile_tc_shape_htb(struct compile_ctx *c,
                                 const struct compile_tree *t, uint32_t top)
{
	for (size_t i = 0; i < c->pp->nclasses; i++) {
		struct plan_class *cl = &c->pp->classes[i];
		const struct policy_queue *pq;
		uint64_t min, max;

		if (cl->parent != top || cl->queue < 0 ||
		    cl->classid !=
		        compile_tc_queue_class(t, (unsigned)cl->queue))
			continue;
		pq = &c->queuing->queue[cl->queue];
		if (!pq->configured || !pq->shape_max_kbps)
			continue;
		max = pq->shape_max_kbps * 1000 / 8; /* bytes per second */
		min = pq->shape_min_kbps * 1000 / 8;
		if (max && max < cl->ceil)
			cl->ceil = max;
		if (min > cl->rate)
			cl->rate = min;
		if (cl->rate > cl->ceil)
			cl->rate = cl->ceil;
		if (!cl->rate)
			cl->rate = 1;
		compile_tc_class_buckets(c, cl);
	}
}

/* Where the tree has no per-queue rate (ets, prio), shape is told, not
 * dropped in silence. */
static void compile_tc_shape_unrealised(struct compile_ctx *c, const char *kind)
{
	for (unsigned q = 0; q < POLICY_NQUEUES; q++) {
		const struct policy_queue *pq = &c->queuing->queue[q];

		if (pq->configured && pq->shape_max_kbps)
			diag_warn(
			    &c->pp->warnings,
			    pq->shape_line ? pq->shape_line : pq->line,
			    "%s: shape is kept and shown but not realised "
			    "on the %s layout (roced shapes a queue only "
			    "where its tree is htb)",
			    policy_queue_name(q), kind);
	}
}

/* htb has no DWRR or strict band, so both are approximated:
 *  - a DWRR queue is guaranteed its share of the port speed (rate) and may
 *    borrow up to the speed (ceil) at prio 1; borrowers split leftovers
 *    by quantum, which is proportional to the share as with ets;
 *  - a strict queue is guaranteed the whole speed at prio 0, so it never
 *    waits for tokens and is dequeued before the others when it has
 *    packets; the guarantees then add up to more than the port, which the
 *    link (or the parent class on a virtual port) caps.
 */
static int compile_tc_root_htb(struct compile_ctx *c, struct compile_tree *t,
                               uint8_t stalls)
{
	struct plan_qdisc *qd = plan_port_add_qdisc(c->pp);
	uint32_t top = PLAN_H_MAKE(PLAN_ROOT_MAJOR, PLAN_HTB_ROOT_MINOR);
	uint64_t speed = compile_port_speed_bytes(c);
	struct plan_class *cl;

	if (!qd)
		return -ENOMEM;
	qd->kind = PLAN_QD_HTB;
	qd->handle = t->handle;
	qd->parent = PLAN_H_ROOT;
	qd->queue = -1;
	/* Unclassified traffic is priority 0's. */
	qd->u.htb.defcls = PLAN_HTB_QUEUE_MINOR(t->prio_queue[0]);
	qd->u.htb.r2q = COMPILE_HTB_R2Q;

	cl = compile_tc_class(c, top, t->handle, -1);
	if (!cl)
		return -ENOMEM;
	cl->rate = cl->ceil = speed;
	cl->prio = 0;
	cl->quantum = c->frame;
	compile_tc_class_buckets(c, cl);
	for (unsigned q = 0; q < POLICY_NQUEUES; q++) {
		unsigned pct = compile_queue_percent(c->queuing, q);

		cl = compile_tc_class(c, compile_tc_queue_class(t, q), top,
		                      (int)q);
		if (!cl)
			return -ENOMEM;
		cl->ceil = speed;
		if (compile_queue_strict(c->queuing, q)) {
			cl->rate = speed;
			cl->prio = 0;
			cl->quantum = c->frame;
			compile_tc_class_buckets(c, cl);
			continue;
		}
		cl->rate = pct ? speed * pct / 100
		               : speed / (100 * COMPILE_ZERO_SHARE_DIV);
		if (!cl->rate)
			cl->rate = 1;
		cl->prio = 1;
		cl->quantum = compile_tc_quantum(c, q);
		compile_tc_class_buckets(c, cl);
	}
	compile_tc_shape_htb(c, t, top);
	if (stalls) {
		char list[64];

		policy_list_format(stalls, list, sizeof(list));
		diag_add(&c->pp->warnings, DIAG_NOTE, c->queuing->line,
		         "software PFC holds queue%s %s: the root is htb, not "
		         "ets, which would stop every bandwidth-sharing queue "
		         "while one is held; htb approximates DWRR with "
		         "per-queue rates (share of %llu Mb/s) and strict "
		         "priority with prio 0 at full rate",
		         (stalls & (stalls - 1)) ? "s" : "", list,
		         (unsigned long long)(speed / 125000u));
	} else {
		diag_warn(&c->pp->warnings, c->queuing->line,
		          "the kernel lacks sch_ets and sch_prio: htb "
		          "approximates DWRR with per-queue rates (share of "
		          "%llu Mb/s) and strict priority with prio 0 at full "
		          "rate",
		          (unsigned long long)(speed / 125000u));
	}
	compile_tc_zero_shares(c, "a rate and quantum");
	return 0;
}

static int compile_tc_leaf(struct compile_ctx *c, const struct compile_tree *t,
                           unsigned q)
{
	const struct policy_queue *pq = &c->queuing->queue[q];
	const struct caps *caps = &c->pp->caps;
	struct policy_wred wr;
	bool wred = policy_queue_wred(pq, &wr);
	struct plan_qdisc *qd = plan_port_add_qdisc(c->pp);

	if (!qd)
		return -ENOMEM;
	qd->handle = PLAN_H_MAKE(PLAN_LEAF_MAJOR(q), 0);
	qd->parent = compile_tc_queue_class(t, q);
	qd->queue = (int)q;
	if (wred && (caps->qdiscs & CAPS_QD_RED)) {
		if (pq->queue_limit_bytes)
			diag_warn(&c->pp->warnings, pq->queue_limit_line,
			          "%s: queue-limit is not realised beside "
			          "random-detect: RED's limit follows its "
			          "thresholds",
			          policy_queue_name(q));
		qd->kind = PLAN_QD_RED;
		compile_red_fill(&qd->u.red, &wr, q,
		                 compile_port_speed_bytes(c), &c->pp->warnings);
		return compile_pfc_red(c, qd, q);
	}
	if (wred)
		diag_warn(&c->pp->warnings, wr.line,
		          "%s: random-detect (WRED/ECN) is not realised: the "
		          "kernel lacks sch_red, the queue is a plain fifo",
		          policy_queue_name(q));
	if (compile_pfc_leaf(c, qd, q))
		return 0;
	if (!(caps->qdiscs & CAPS_QD_BFIFO) && (caps->qdiscs & CAPS_QD_PFIFO)) {
		if (pq->configured && pq->queue_limit_bytes)
			diag_warn(&c->pp->warnings, pq->queue_limit_line,
			          "%s: queue-limit is not realised: the kernel "
			          "lacks bfifo, pfifo counts packets",
			          policy_queue_name(q));
		qd->kind = PLAN_QD_PFIFO;
		qd->u.fifo.limit = COMPILE_PFIFO_LIMIT;
		return 0;
	}
	/* Without bfifo or pfifo the kernel refuses the leaf and diff says
	 * so; there is nothing better to plan. */
	qd->kind = PLAN_QD_BFIFO;
	qd->u.fifo.limit = COMPILE_FIFO_LIMIT_FRAMES * c->frame;
	/* `queue-limit N bytes` is the fifo's byte limit. */
	if (pq->configured && pq->queue_limit_bytes)
		qd->u.fifo.limit = (uint32_t)pq->queue_limit_bytes;
	return 0;
}

size_t compile_dscp_blocks(uint64_t set, uint8_t *value, uint8_t *mask)
{
	size_t n = 0;
	unsigned v = 0;

	/* Greedy from the bottom: the largest aligned power-of-two block
	 * that starts at v and lies wholly in the set. Aligned blocks are
	 * prefixes, so this gives the fewest of them. */
	while (v < 64) {
		unsigned size = 1;

		if (!(set & (1ull << v))) {
			v++;
			continue;
		}
		while (size < 64 && v % (size * 2) == 0) {
			uint64_t span = size * 2 == 64
			                    ? ~0ull
			                    : ((1ull << (size * 2)) - 1) << v;

			if ((set & span) != span)
				break;
			size *= 2;
		}
		value[n] = (uint8_t)v;
		mask[n] = (uint8_t)(0x3fu & ~(size - 1));
		n++;
		v += size;
	}
	return n;
}

static int compile_tc_filter(struct compile_flt *f,
                             const struct policy_qos_rule *r, uint16_t protocol,
                             uint16_t vlan_ethtype, int pcp, int dscp,
                             uint8_t dscp_mask)
{
	struct plan_port *pp = f->c->pp;
	unsigned g = compile_rule_group(r);
	struct plan_filter *pf;
	size_t len;

	if (f->full)
		return 0;
	if (PLAN_FILTER_PRIO_BASE + f->n > PLAN_FILTER_PRIO_MAX) {
		diag_warn(&pp->warnings, r->line,
		          "more than %u classification filters: class %s and "
		          "the classes after it are not realised",
		          PLAN_FILTER_PRIO_MAX - PLAN_FILTER_PRIO_BASE + 1,
		          r->class_name);
		f->full = true;
		return 0;
	}
	pf = plan_port_add_filter(pp);
	if (!pf)
		return -ENOMEM;
	pf->kind = f->kind;
	pf->parent = f->parent;
	pf->prio = (uint16_t)(PLAN_FILTER_PRIO_BASE + f->n++);
	pf->protocol = protocol;
	pf->vlan_ethtype = vlan_ethtype;
	if (pcp >= 0) {
		pf->match_pcp = true;
		pf->pcp = (uint8_t)pcp;
	}
	if (dscp >= 0) {
		pf->match_dscp = true;
		pf->dscp = (uint8_t)dscp;
		pf->dscp_mask = dscp_mask;
	}
	pf->action = f->action;
	pf->qos_group = (uint8_t)g;
	if (f->action == PLAN_ACT_CLASSID)
		pf->classid = compile_tc_group_class(f->t, g);
	else if (f->t->root == COMPILE_ROOT_HTB && !f->t->softpfc_htb)
		/* htb has no priomap: it takes skb->priority as a class id. */
		pf->priority = compile_tc_group_class(f->t, g);
	else
		pf->priority = g;
	len = strnlen(r->class_name, sizeof(pf->class_name) - 1);
	memcpy(pf->class_name, r->class_name, len);
	pf->class_name[len] = '\0';
	return 0;
}

/* One filter per DSCP block and per IP version, optionally inside a VLAN
 * tag with priority PCP. */
static int compile_tc_dscp_filters(struct compile_flt *f,
                                   const struct policy_qos_rule *r,
                                   uint64_t dscp, int pcp)
{
	static const uint16_t ip[] = {COMPILE_ETH_P_IP, COMPILE_ETH_P_IPV6};
	uint8_t value[64], mask[64];
	size_t n = compile_dscp_blocks(dscp, value, mask);
	int rc = 0;

	for (size_t i = 0; !rc && i < n; i++)
		for (size_t k = 0; !rc && k < 2; k++)
			rc = pcp < 0
			         ? compile_tc_filter(f, r, ip[k], 0, -1,
			                             value[i], mask[i])
			         : compile_tc_filter(f, r, COMPILE_ETH_P_8021Q,
			                             ip[k], pcp, value[i],
			                             mask[i]);
	return rc;
}

static int compile_tc_rule_flower(struct compile_flt *f,
                                  const struct policy_qos_rule *r,
                                  const struct policy_class_qos *cls)
{
	int rc = 0;

	if (cls->match == POLICY_MATCH_ALL && cls->cos && cls->dscp) {
		/* Both must hold: the PCP of the tag and the DSCP inside.
		 * That is NX-OS's meaning, and it surprises people whose RoCE
		 * traffic is untagged: say so where they will look. */
		diag_add(&f->c->pp->warnings, DIAG_NOTE,
		         cls->cos_line ? cls->cos_line : cls->line,
		         "class-map %s is match-all on cos and dscp: untagged "
		         "frames carry no CoS and do not match it (use "
		         "match-any to classify them on DSCP alone)",
		         cls->name);
		for (int p = 0; !rc && p < POLICY_NPRIO; p++)
			if (cls->cos & (1u << p))
				rc =
				    compile_tc_dscp_filters(f, r, cls->dscp, p);
		return rc;
	}
	for (int p = 0; !rc && p < POLICY_NPRIO; p++)
		if (cls->cos & (1u << p))
			rc = compile_tc_filter(f, r, COMPILE_ETH_P_8021Q, 0, p,
			                       -1, 0);
	if (!rc && cls->dscp)
		rc = compile_tc_dscp_filters(f, r, cls->dscp, -1);
	return rc;
}

/* u32 on the egress root sees the packet without its VLAN tag (the tag
 * travels out of band), so CoS cannot be matched. */
static int compile_tc_rule_u32(struct compile_flt *f,
                               const struct policy_qos_rule *r,
                               const struct policy_class_qos *cls)
{
	struct diag *w = &f->c->pp->warnings;

	if (cls->cos && !cls->dscp) {
		diag_warn(w, cls->cos_line ? cls->cos_line : cls->line,
		          "class-map %s matches cos only: u32 cannot see the "
		          "VLAN priority, the class gets no filter",
		          cls->name);
		return 0;
	}
	if (cls->cos && cls->match == POLICY_MATCH_ALL)
		diag_warn(w, cls->cos_line ? cls->cos_line : cls->line,
		          "class-map %s: u32 cannot see the VLAN priority, "
		          "match-all cos and dscp is classified on DSCP alone",
		          cls->name);
	else if (cls->cos)
		diag_warn(w, cls->cos_line ? cls->cos_line : cls->line,
		          "class-map %s: u32 cannot see the VLAN priority, "
		          "its match cos is not realised (only match dscp)",
		          cls->name);
	return compile_tc_dscp_filters(f, r, cls->dscp, -1);
}

/* --- cls_bpf: one program for the whole policy (compile_bpf.c) --- */

/* Without flower and skbedit, cls_bpf still reads everything a class-map
 * matches (u32 cannot reach an offloaded VLAN tag): prefer it to u32. It
 * classifies on egress, choosing the queue's class, like u32. */
static int compile_tc_egress_bpf(struct compile_ctx *c,
                                 const struct compile_tree *t)
{
	uint32_t group_class[POLICY_NQUEUES];

	for (unsigned g = 0; g < POLICY_NQUEUES; g++)
		group_class[g] = compile_tc_group_class(t, g);
	return compile_bpf(c, t->handle, group_class);
}

static int compile_tc_classify_bpf(struct compile_ctx *c,
                                   const struct compile_tree *t)
{
	diag_warn(&c->pp->warnings, c->qos->line,
	          "qos input policy %s is realised as egress classification "
	          "on this port (one cls_bpf program choosing the queue): the "
	          "kernel lacks act_skbedit/cls_flower to classify where "
	          "packets enter",
	          c->qos->name);
	return compile_tc_egress_bpf(c, t);
}

/* --- end of cls_bpf --- */

/* The qos policy's rules as F's filters. A class with no match statement
 * (or class-default) takes every packet: a filter of protocol all without
 * keys. Later classes are then unreachable, as in NX-OS. */
static int compile_tc_rules(struct compile_flt *f)
{
	struct compile_ctx *c = f->c;
	int rc = 0;

	for (size_t i = 0; !rc && i < c->qos->nrules; i++) {
		const struct policy_qos_rule *r = &c->qos->rules[i];
		bool all;
		const struct policy_class_qos *cls =
		    compile_rule_class(c->p, r, &all);

		if (all)
			rc = compile_tc_filter(f, r, COMPILE_ETH_P_ALL, 0, -1,
			                       -1, 0);
		else if (f->kind == PLAN_FILTER_FLOWER)
			rc = compile_tc_rule_flower(f, r, cls);
		else
			rc = compile_tc_rule_u32(f, r, cls);
	}
	return rc;
}

static int compile_tc_classify(struct compile_ctx *c,
                               const struct compile_tree *t)
{
	const struct caps *caps = &c->pp->caps;
	struct compile_flt f = {.c = c, .t = t};
	int rc = 0;

	if (!c->qos || !c->pp->dcb.software)
		return 0;
	if ((caps->classifiers & CAPS_CLS_FLOWER) &&
	    (caps->actions & CAPS_ACT_SKBEDIT) &&
	    (caps->qdiscs & CAPS_QD_CLSACT)) {
		struct plan_qdisc *qd = plan_port_add_qdisc(c->pp);

		if (!qd)
			return -ENOMEM;
		qd->kind = PLAN_QD_CLSACT;
		qd->handle = PLAN_H_CLSACT;
		qd->parent = PLAN_H_CLSACT;
		qd->queue = -1;
		f.kind = PLAN_FILTER_FLOWER;
		f.parent = PLAN_H_CLSACT_INGRESS;
		f.action = PLAN_ACT_SKBEDIT_PRIORITY;
	} else if (caps->classifiers & CAPS_CLS_BPF) {
		return compile_tc_classify_bpf(c, t);
	} else if (caps->classifiers & CAPS_CLS_U32) {
		f.kind = PLAN_FILTER_U32;
		f.parent = t->handle;
		f.action = PLAN_ACT_CLASSID;
		diag_warn(&c->pp->warnings, c->qos->line,
		          "qos input policy %s is realised as egress "
		          "classification on this port (u32 choosing the "
		          "queue): the kernel lacks act_skbedit/cls_flower to "
		          "classify where packets enter",
		          c->qos->name);
	} else {
		diag_warn(&c->pp->warnings, c->qos->line,
		          "qos input policy %s is not realised: the kernel has "
		          "neither flower+skbedit nor u32",
		          c->qos->name);
		return 0;
	}
	rc = compile_tc_rules(&f);
	if (rc || f.kind != PLAN_FILTER_FLOWER || !t->softpfc_htb)
		return rc;
	/* See compile_tree.softpfc_htb: the same rules once more on the htb
	 * root, choosing the class: cls_bpf where the kernel has it (it sees
	 * a VLAN tag, which tc's protocol match hides from u32 on egress),
	 * else u32. */
	if (caps->classifiers & CAPS_CLS_BPF) {
		size_t n = c->pp->warnings.n;

		rc = compile_tc_egress_bpf(c, t);
		diag_drop_repeats(&c->pp->warnings, n);
		return rc;
	}
	if (caps->classifiers & CAPS_CLS_U32) {
		struct compile_flt e = {.c = c, .t = t};

		e.kind = PLAN_FILTER_U32;
		e.parent = t->handle;
		e.action = PLAN_ACT_CLASSID;
		rc = compile_tc_rules(&e);
	}
	return rc;
}

int compile_tc(struct compile_ctx *c)
{
	struct plan_port *pp = c->pp;
	const struct caps *caps = &pp->caps;
	struct compile_tree t = {.handle = PLAN_H_MAKE(PLAN_ROOT_MAJOR, 0)};
	uint8_t stalls = 0;
	int rc;

	if (!c->queuing) {
		pp->layout = PLAN_LAYOUT_NONE;
		if (c->qos && pp->dcb.software)
			diag_warn(&pp->warnings, c->qos->line,
			          "qos input policy %s is not realised: a "
			          "software port classifies into the tc tree, "
			          "which needs a queuing policy",
			          c->qos->name);
		return 0;
	}
	/* Software PFC holds a queue by leaving its leaf's packets in place,
	 * which an ets root cannot step past (compile_pfc_ets_stalls()): such
	 * a port gets htb, which serves the other classes meanwhile. */
	if ((caps->qdiscs & CAPS_QD_ETS) && (caps->qdiscs & CAPS_QD_HTB))
		stalls = compile_pfc_ets_stalls(c);
	if ((caps->qdiscs & CAPS_QD_ETS) && !stalls) {
		t.root = COMPILE_ROOT_ETS;
		pp->layout = PLAN_LAYOUT_ETS_RED;
	} else if ((caps->qdiscs & CAPS_QD_PRIO) && !stalls) {
		t.root = COMPILE_ROOT_PRIO;
		pp->layout = PLAN_LAYOUT_PRIO_RED;
	} else if (caps->qdiscs & CAPS_QD_HTB) {
		t.root = COMPILE_ROOT_HTB;
		t.softpfc_htb = stalls != 0;
		/* The layout names the kernel's tier; queues without WRED
		 * get bfifo leaves in either. */
		pp->layout = (caps->qdiscs & CAPS_QD_RED)
		                 ? PLAN_LAYOUT_HTB_RED
		                 : PLAN_LAYOUT_HTB_FIFO;
	} else {
		pp->layout = PLAN_LAYOUT_NONE;
		diag_warn(&pp->warnings, c->queuing->line,
		          "queuing policy %s is not realised: the kernel has "
		          "none of ets, prio and htb",
		          c->queuing->name);
		return 0;
	}
	for (unsigned p = 0; p < POLICY_NPRIO; p++)
		t.prio_queue[p] = pp->dcb.prio_tc[p] < POLICY_NQUEUES
		                      ? pp->dcb.prio_tc[p]
		                      : (uint8_t)p;
	compile_tc_bands(c, &t);
	switch (t.root) {
	case COMPILE_ROOT_ETS:
		rc = compile_tc_root_ets(c, &t);
		compile_tc_shape_unrealised(c, "ets");
		break;
	case COMPILE_ROOT_PRIO:
		rc = compile_tc_root_prio(c, &t);
		compile_tc_shape_unrealised(c, "prio");
		break;
	default:
		rc = compile_tc_root_htb(c, &t, stalls);
		break;
	}
	for (unsigned q = 0; !rc && q < POLICY_NQUEUES; q++)
		rc = compile_tc_leaf(c, &t, q);
	if (!rc)
		rc = compile_tc_classify(c, &t);
	return rc;
}
