/* test_compile: policy + capabilities -> plan.
 *
 * The reference policy (reference/nxos-roce.txt) is built with the
 * policy_add_* API and compiled for each capability preset; the expected
 * plans were worked out by hand from the rules in lib/compile_tc.c. The
 * RED numbers were derived by hand from tc's formulas and cross-checked
 * against the tc_red_qopt that iproute2 6.1 sends for the same inputs.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "compile_int.h"

#define ROOT    PLAN_H_MAKE(PLAN_ROOT_MAJOR, 0)
#define LEAF(q) PLAN_H_MAKE(PLAN_LEAF_MAJOR(q), 0)
#define BAND(b) PLAN_H_MAKE(PLAN_ROOT_MAJOR, (b) + 1)
#define HTBQ(q) PLAN_H_MAKE(PLAN_ROOT_MAJOR, PLAN_HTB_QUEUE_MINOR(q))
#define HTBTOP  PLAN_H_MAKE(PLAN_ROOT_MAJOR, PLAN_HTB_ROOT_MINOR)
#define FRAME   (9216u + 18u) /* reference MTU + L2 overhead */
#define SPEED_B 1250000000ull /* 10000 Mb/s default, bytes/s */
#define KB(n)   ((uint64_t)(n)*1024u)

/* ---- policy builders ---- */

static struct policy_class_qos *add_class(struct policy *p, const char *name,
                                          enum policy_match m, uint8_t cos,
                                          uint64_t dscp)
{
	struct policy_class_qos *c = policy_add_class_qos(p, name);

	assert_non_null(c);
	c->match = m;
	c->cos = cos;
	c->dscp = dscp;
	return c;
}

static void add_rule(struct policy_map_qos *m, const char *cls, int group)
{
	struct policy_qos_rule *r = policy_map_qos_add_rule(m, cls);

	assert_non_null(r);
	if (group >= 0) {
		r->set_qos_group = true;
		r->qos_group = (uint8_t)group;
	}
}

static struct policy_queue *set_queue(struct policy_map_queuing *m, unsigned q,
                                      int percent, int level)
{
	struct policy_queue *pq = &m->queue[q];

	pq->configured = true;
	if (percent >= 0) {
		pq->has_bandwidth = true;
		pq->bandwidth_percent = (uint8_t)percent;
	}
	pq->priority_level = (uint8_t)level;
	return pq;
}

static void set_wred(struct policy_queue *pq, uint64_t min, uint64_t max,
                     unsigned prob, unsigned weight)
{
	pq->wred.enabled = true;
	pq->wred.min_bytes = min;
	pq->wred.max_bytes = max;
	pq->wred.drop_probability = (uint8_t)prob;
	pq->wred.weight = (uint8_t)weight;
	pq->wred.ecn = true;
}

/* The NX-OS reference: ROCE_CLASS (match-all cos 3, dscp 26) -> group 3,
 * q3 50 % with WRED-ECN 150/3000 kbytes 7 % weight 0, q2 and q1 0 %,
 * q-default 50 %, PFC on CoS 3, MTU 9216, interface eth1 (Ethernet1/1)
 * with PFC mode MODE. */
static struct policy_iface *ref_policy(struct policy *p,
                                       enum policy_pfc_mode mode)
{
	struct policy_map_qos *mq;
	struct policy_map_queuing *mu;
	struct policy_class_nq *cn;
	struct policy_map_nq *mn;
	struct policy_nq_rule *nr;
	struct policy_iface *i;

	policy_init(p);
	add_class(p, "ROCE_CLASS", POLICY_MATCH_ALL, 1u << 3, 1ull << 26);
	mq = policy_add_map_qos(p, "ROCE_POLICY");
	assert_non_null(mq);
	add_rule(mq, "ROCE_CLASS", 3);
	mu = policy_add_map_queuing(p, "ROCE_QUEUING_OUT");
	assert_non_null(mu);
	set_wred(set_queue(mu, 3, 50, 0), KB(150), KB(3000), 7, 0);
	set_queue(mu, 2, 0, 0);
	set_queue(mu, 1, 0, 0);
	set_queue(mu, 0, 50, 0);
	cn = policy_add_class_nq(p, "ROCE_NETWORK_CLASS");
	assert_non_null(cn);
	cn->qos_groups = 1u << 3;
	mn = policy_add_map_nq(p, "ROCE_NETWORK_POLICY");
	assert_non_null(mn);
	nr = policy_map_nq_add_rule(mn, "ROCE_NETWORK_CLASS");
	assert_non_null(nr);
	nr->pfc_cos = 1u << 3;
	nr->mtu = 9216;
	nr = policy_map_nq_add_rule(mn, POLICY_NQ_DEFAULT);
	assert_non_null(nr);
	nr->mtu = 9216;
	snprintf(p->system.network_qos, sizeof(p->system.network_qos), "%s",
	         "ROCE_NETWORK_POLICY");
	i = policy_add_iface(p, "eth1");
	assert_non_null(i);
	snprintf(i->alias, sizeof(i->alias), "%s", "Ethernet1/1");
	i->pfc_mode = mode;
	snprintf(i->qos_input, sizeof(i->qos_input), "%s", "ROCE_POLICY");
	snprintf(i->queuing_output, sizeof(i->queuing_output), "%s",
	         "ROCE_QUEUING_OUT");
	return i;
}

/* ---- running the compiler ---- */

static const struct plan_port *run(const struct policy *p, const char *ifname,
                                   const struct caps *caps, struct plan *pl)
{
	struct compile_port cp;

	memset(&cp, 0, sizeof(cp));
	snprintf(cp.ifname, sizeof(cp.ifname), "%s", ifname);
	cp.caps = *caps;
	plan_init(pl);
	assert_int_equal(compile_policy(p, &cp, 1, pl), 0);
	assert_int_equal(pl->nports, 1);
	assert_int_equal(pl->diag.nerrors, 0);
	return &pl->ports[0];
}

static const struct plan_port *run_preset(const struct policy *p,
                                          const char *ifname,
                                          enum caps_preset preset,
                                          struct plan *pl)
{
	struct caps caps;

	caps_preset(&caps, preset);
	return run(p, ifname, &caps, pl);
}

static const struct plan_qdisc *qdisc(const struct plan_port *pp,
                                      uint32_t handle)
{
	for (size_t i = 0; i < pp->nqdiscs; i++)
		if (pp->qdiscs[i].handle == handle)
			return &pp->qdiscs[i];
	fail_msg("no qdisc %x:%x", PLAN_H_MAJ(handle), PLAN_H_MIN(handle));
	return NULL;
}

static const struct plan_class *klass(const struct plan_port *pp,
                                      uint32_t classid)
{
	for (size_t i = 0; i < pp->nclasses; i++)
		if (pp->classes[i].classid == classid)
			return &pp->classes[i];
	fail_msg("no class %x:%x", PLAN_H_MAJ(classid), PLAN_H_MIN(classid));
	return NULL;
}

static size_t count_msgs(const struct plan_port *pp, enum diag_severity sev,
                         const char *needle)
{
	size_t n = 0;

	for (size_t i = 0; i < pp->warnings.n; i++)
		if (pp->warnings.v[i].sev == sev &&
		    strstr(pp->warnings.v[i].text, needle))
			n++;
	return n;
}

static void dump_msgs(const struct plan_port *pp)
{
	for (size_t i = 0; i < pp->warnings.n; i++)
		print_message("  [%d] %s\n", (int)pp->warnings.v[i].sev,
		              pp->warnings.v[i].text);
}

static void want_warning(const struct plan_port *pp, const char *needle)
{
	if (count_msgs(pp, DIAG_WARNING, needle) != 1) {
		dump_msgs(pp);
		fail_msg("expected one warning containing '%s'", needle);
	}
}

static void want_nwarnings(const struct plan_port *pp, size_t n)
{
	if (pp->warnings.nwarnings != n) {
		dump_msgs(pp);
		fail_msg("expected %zu warnings, got %zu", n,
		         pp->warnings.nwarnings);
	}
}

/* ---- the DCB part of the reference policy ---- */

static void check_ref_dcb(const struct plan_port *pp, bool software)
{
	const struct plan_dcb *d = &pp->dcb;

	assert_int_equal(d->software, software);
	assert_int_equal(d->pfc_cap, 8);
	assert_int_equal(d->pfc_admin, 0x08);
	assert_int_equal(d->mtu, 9216);
	for (unsigned tc = 0; tc < 8; tc++) {
		assert_int_equal(d->prio_tc[tc], tc);
		assert_int_equal(d->ets_tsa[tc], PLAN_TSA_ETS);
		assert_int_equal(d->ets_bw[tc], tc == 0 || tc == 3 ? 50 : 0);
	}
	assert_int_equal(d->napp, 2);
	assert_int_equal(d->app[0].selector, PLAN_APP_SEL_DSCP);
	assert_int_equal(d->app[0].protocol, 26);
	assert_int_equal(d->app[0].priority, 3);
	assert_int_equal(d->app[1].selector, PLAN_APP_SEL_PCP);
	assert_int_equal(d->app[1].protocol, 3);
	assert_int_equal(d->app[1].priority, 3);
	assert_int_equal(d->ntrust, 2);
	assert_int_equal(d->trust[0], PLAN_APP_SEL_DSCP);
	assert_int_equal(d->trust[1], PLAN_APP_SEL_PCP);
	assert_string_equal(pp->qos_policy, "ROCE_POLICY");
	assert_string_equal(pp->queuing_policy, "ROCE_QUEUING_OUT");
	assert_string_equal(pp->alias, "Ethernet1/1");
}

/* The reference RED leaf for q3 at the default 10 Gb/s:
 * weight 0 -> Wlog 0, dry-run burst 154 (= ceil(153600/1000), the first
 * burst tc accepts, giving Wlog 1); Plog: 0.07/2918400 needs 2^26 to pass
 * 1; Scell_log 0 since one avpkt takes 0 whole microseconds at 1.25 GB/s;
 * max_P = floor(0.07 * 2^32) = 0x11eb851e; limit = 2 * max + 154 * 1000. */
static void check_ref_red(const struct plan_red *r)
{
	assert_int_equal(r->qth_min, 153600);
	assert_int_equal(r->qth_max, 3072000);
	assert_int_equal(r->avpkt, 1000);
	assert_int_equal(r->burst, 154);
	assert_int_equal(r->wlog, 0);
	assert_false(r->wlog_cli_exact);
	assert_int_equal(r->plog, 26);
	assert_int_equal(r->scell_log, 0);
	assert_int_equal(r->probability_ppm, 70000);
	assert_int_equal(r->max_p, 0x11eb851e);
	assert_int_equal(r->bandwidth, SPEED_B);
	assert_true(r->ecn);
	assert_false(r->harddrop);
	assert_int_equal(r->limit, 2 * 3072000 + 154 * 1000);
	assert_true(r->limit > r->qth_max + r->burst * r->avpkt);
}

/* ---- reference policy per preset ---- */

static void test_ref_host(void **state)
{
	struct policy p;
	struct plan pl;
	const struct plan_port *pp;
	const struct plan_qdisc *qd;
	const struct plan_class *cl;

	(void)state;
	ref_policy(&p, POLICY_PFC_ON);
	pp = run_preset(&p, "eth1", CAPS_PRESET_HOST, &pl);
	assert_int_equal(pp->layout, PLAN_LAYOUT_HTB_FIFO);
	check_ref_dcb(pp, true);
	assert_int_equal(pp->dcb.pfc_en, 0x08);
	assert_false(pp->pfc_awaiting_dcbx);

	/* htb root + 8 bfifo leaves; no clsact (u32 classifies at egress). */
	assert_int_equal(pp->nqdiscs, 9);
	qd = qdisc(pp, ROOT);
	assert_int_equal(qd->kind, PLAN_QD_HTB);
	assert_int_equal(qd->parent, PLAN_H_ROOT);
	assert_int_equal(qd->queue, -1);
	assert_int_equal(qd->u.htb.defcls, 0x10);
	assert_int_equal(qd->u.htb.r2q, 10);
	for (unsigned q = 0; q < 8; q++) {
		qd = qdisc(pp, LEAF(q));
		assert_int_equal(qd->kind, PLAN_QD_BFIFO);
		assert_int_equal(qd->parent, HTBQ(q));
		assert_int_equal(qd->queue, q);
		assert_int_equal(qd->u.fifo.limit, 1000 * FRAME);
	}

	assert_int_equal(pp->nclasses, 9);
	cl = klass(pp, HTBTOP);
	assert_int_equal(cl->parent, ROOT);
	assert_int_equal(cl->rate, SPEED_B);
	assert_int_equal(cl->ceil, SPEED_B);
	assert_int_equal(cl->queue, -1);
	assert_int_equal(cl->quantum, FRAME);
	/* 1 ms at 1.25 GB/s. */
	assert_int_equal(cl->burst, 1250000);
	assert_int_equal(cl->cburst, 1250000);
	for (unsigned q = 0; q < 8; q++) {
		bool half = q == 0 || q == 3;

		cl = klass(pp, HTBQ(q));
		assert_int_equal(cl->parent, HTBTOP);
		assert_int_equal(cl->queue, q);
		assert_int_equal(cl->prio, 1);
		assert_int_equal(cl->ceil, SPEED_B);
		/* 50 % of 1.25 GB/s; 0 % counts as 0.1 %. */
		assert_int_equal(cl->rate, half ? SPEED_B / 2 : SPEED_B / 1000);
		assert_int_equal(cl->quantum, half ? 50 * FRAME : FRAME / 10);
		/* 1 ms at 625 MB/s; at 1.25 MB/s 1 ms is below two frames. */
		assert_int_equal(cl->burst, half ? 625000 : 2 * FRAME);
		assert_int_equal(cl->cburst, 1250000);
	}

	/* u32 on the root: DSCP 26 alone, IPv4 then IPv6, to 4791:13. */
	assert_int_equal(pp->nfilters, 2);
	for (unsigned i = 0; i < 2; i++) {
		const struct plan_filter *f = &pp->filters[i];

		assert_int_equal(f->kind, PLAN_FILTER_U32);
		assert_int_equal(f->parent, ROOT);
		assert_int_equal(f->prio, PLAN_FILTER_PRIO_BASE + i);
		assert_int_equal(f->protocol,
		                 i ? COMPILE_ETH_P_IPV6 : COMPILE_ETH_P_IP);
		assert_true(f->match_dscp);
		assert_int_equal(f->dscp, 26);
		assert_int_equal(f->dscp_mask, 0x3f);
		assert_false(f->match_pcp);
		assert_int_equal(f->action, PLAN_ACT_CLASSID);
		assert_int_equal(f->classid, HTBQ(3));
		assert_int_equal(f->qos_group, 3);
		assert_string_equal(f->class_name, "ROCE_CLASS");
	}

	want_warning(pp, "random-detect (WRED/ECN) is not realised");
	want_warning(pp, "link speed unknown");
	want_warning(pp, "htb approximates");
	want_warning(pp, "queues 1-2,4-7 have bandwidth remaining percent 0");
	want_warning(pp, "egress classification");
	want_warning(pp, "classified on DSCP alone");
	want_nwarnings(pp, 6);
	plan_free(&pl);
	policy_free(&p);
}

/* Reference ETS root: no strict queue, bands q7..q0, so priority p goes
 * to band 7-p and 8-15 to q-default's band 7. */
static void check_ref_ets(const struct plan_port *pp)
{
	const struct plan_qdisc *qd = qdisc(pp, ROOT);
	const struct plan_ets *e = &qd->u.ets;

	assert_int_equal(qd->kind, PLAN_QD_ETS);
	assert_int_equal(qd->parent, PLAN_H_ROOT);
	assert_int_equal(e->nbands, 8);
	assert_int_equal(e->nstrict, 0);
	for (unsigned b = 0; b < 8; b++) {
		unsigned q = 7 - b;

		assert_int_equal(e->band_queue[b], q);
		assert_int_equal(e->quanta[b],
		                 q == 0 || q == 3 ? 50 * FRAME : FRAME / 10);
	}
	for (unsigned p = 0; p < 16; p++)
		assert_int_equal(e->priomap[p], p < 8 ? 7 - p : 7);
	for (unsigned q = 0; q < 8; q++) {
		qd = qdisc(pp, LEAF(q));
		assert_int_equal(qd->parent, BAND(7 - q));
		assert_int_equal(qd->queue, q);
		if (q == 3) {
			assert_int_equal(qd->kind, PLAN_QD_RED);
			check_ref_red(&qd->u.red);
		} else {
			assert_int_equal(qd->kind, PLAN_QD_BFIFO);
			assert_int_equal(qd->u.fifo.limit, 1000 * FRAME);
		}
	}
	assert_int_equal(pp->nclasses, 0);
}

static void test_ref_full(void **state)
{
	struct policy p;
	struct plan pl;
	const struct plan_port *pp;
	const struct plan_qdisc *qd;

	(void)state;
	ref_policy(&p, POLICY_PFC_ON);
	pp = run_preset(&p, "eth1", CAPS_PRESET_FULL, &pl);
	assert_int_equal(pp->layout, PLAN_LAYOUT_ETS_RED);
	check_ref_dcb(pp, true);
	assert_int_equal(pp->nqdiscs, 10);
	check_ref_ets(pp);
	qd = qdisc(pp, PLAN_H_CLSACT);
	assert_int_equal(qd->kind, PLAN_QD_CLSACT);
	assert_int_equal(qd->parent, PLAN_H_CLSACT);

	/* match-all: tagged with PCP 3 and DSCP 26 inside, IPv4 and IPv6. */
	assert_int_equal(pp->nfilters, 2);
	for (unsigned i = 0; i < 2; i++) {
		const struct plan_filter *f = &pp->filters[i];

		assert_int_equal(f->kind, PLAN_FILTER_FLOWER);
		assert_int_equal(f->parent, PLAN_H_CLSACT_INGRESS);
		assert_int_equal(f->prio, PLAN_FILTER_PRIO_BASE + i);
		assert_int_equal(f->protocol, COMPILE_ETH_P_8021Q);
		assert_int_equal(f->vlan_ethtype,
		                 i ? COMPILE_ETH_P_IPV6 : COMPILE_ETH_P_IP);
		assert_true(f->match_pcp);
		assert_int_equal(f->pcp, 3);
		assert_true(f->match_dscp);
		assert_int_equal(f->dscp, 26);
		assert_int_equal(f->dscp_mask, 0x3f);
		assert_int_equal(f->action, PLAN_ACT_SKBEDIT_PRIORITY);
		assert_int_equal(f->priority, 3);
		assert_int_equal(f->qos_group, 3);
		assert_string_equal(f->class_name, "ROCE_CLASS");
	}
	want_warning(pp, "link speed unknown");
	want_warning(pp, "bandwidth remaining percent 0");
	want_nwarnings(pp, 2);
	plan_free(&pl);
	policy_free(&p);
}

static void test_ref_hw(void **state)
{
	struct policy p;
	struct plan pl;
	const struct plan_port *pp;

	(void)state;
	ref_policy(&p, POLICY_PFC_ON);
	pp = run_preset(&p, "eth1", CAPS_PRESET_HW, &pl);
	assert_int_equal(pp->layout, PLAN_LAYOUT_ETS_RED);
	check_ref_dcb(pp, false);
	assert_int_equal(pp->dcb.pfc_en, 0x08);
	/* The NIC classifies: no clsact, no filters. */
	assert_int_equal(pp->nqdiscs, 9);
	check_ref_ets(pp);
	assert_int_equal(pp->nfilters, 0);
	want_warning(pp, "match-all on cos and dscp: DCB APP/trust cannot "
	                 "express it");
	want_warning(pp, "link speed unknown");
	want_warning(pp, "bandwidth remaining percent 0");
	want_nwarnings(pp, 3);
	plan_free(&pl);
	policy_free(&p);
}

static void test_pfc_modes(void **state)
{
	static const struct {
		enum policy_pfc_mode mode;
		uint8_t en;
		bool awaiting;
	} cases[] = {
	    {POLICY_PFC_ON, 0x08, false},
	    {POLICY_PFC_OFF, 0, false},
	    {POLICY_PFC_AUTO, 0, true},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct policy p;
		struct plan pl;
		const struct plan_port *pp;

		ref_policy(&p, cases[i].mode);
		pp = run_preset(&p, "eth1", CAPS_PRESET_HW, &pl);
		assert_int_equal(pp->pfc_mode, cases[i].mode);
		assert_int_equal(pp->dcb.pfc_admin, 0x08);
		assert_int_equal(pp->dcb.pfc_en, cases[i].en);
		assert_int_equal(pp->pfc_awaiting_dcbx, cases[i].awaiting);
		assert_int_equal(count_msgs(pp, DIAG_NOTE, "until DCBX agrees"),
		                 cases[i].awaiting ? 1 : 0);
		plan_free(&pl);
		policy_free(&p);
	}
}

/* ---- strict queues ---- */

/* q6 and q2 strict (level 1), q5 strict level 2, q3 50 % with WRED, q0
 * 50 %: bands q6, q2, q5 (strict) then q7, q4, q3, q1, q0. */
static void strict_policy(struct policy *p)
{
	struct policy_map_queuing *mu;

	ref_policy(p, POLICY_PFC_ON);
	mu = &p->map_queuing[0];
	memset(mu->queue, 0, sizeof(mu->queue));
	set_queue(mu, 6, -1, 1);
	set_queue(mu, 2, -1, 1);
	set_queue(mu, 5, -1, 2);
	set_wred(set_queue(mu, 3, 50, 0), KB(150), KB(3000), 7, 0);
	set_queue(mu, 0, 50, 0);
}

static const int8_t strict_bands[8] = {6, 2, 5, 7, 4, 3, 1, 0};

static unsigned band_of(unsigned q)
{
	for (unsigned b = 0; b < 8; b++)
		if ((unsigned)strict_bands[b] == q)
			return b;
	return 99;
}

static void test_strict_ets(void **state)
{
	struct policy p;
	struct plan pl;
	const struct plan_port *pp;
	const struct plan_ets *e;

	(void)state;
	strict_policy(&p);
	pp = run_preset(&p, "eth1", CAPS_PRESET_FULL, &pl);
	assert_int_equal(pp->layout, PLAN_LAYOUT_ETS_RED);
	e = &qdisc(pp, ROOT)->u.ets;
	assert_int_equal(e->nstrict, 3);
	assert_memory_equal(e->band_queue, strict_bands, 8);
	for (unsigned b = 0; b < 3; b++)
		assert_int_equal(e->quanta[b], 0);
	assert_int_equal(e->quanta[band_of(3)], 50 * FRAME);
	assert_int_equal(e->quanta[band_of(0)], 50 * FRAME);
	assert_int_equal(e->quanta[band_of(7)], FRAME / 10);
	for (unsigned p8 = 0; p8 < 16; p8++)
		assert_int_equal(e->priomap[p8], band_of(p8 < 8 ? p8 : 0));
	for (unsigned q = 0; q < 8; q++)
		assert_int_equal(qdisc(pp, LEAF(q))->parent, BAND(band_of(q)));
	/* DCB: strict TCs have no share. */
	for (unsigned tc = 0; tc < 8; tc++) {
		bool strict = tc == 2 || tc == 5 || tc == 6;

		assert_int_equal(pp->dcb.ets_tsa[tc],
		                 strict ? PLAN_TSA_STRICT : PLAN_TSA_ETS);
		assert_int_equal(pp->dcb.ets_bw[tc],
		                 tc == 0 || tc == 3 ? 50 : 0);
	}
	want_warning(pp, "queues 1,4,7 have bandwidth remaining percent 0");
	/* On the host kernel the same policy gets htb: u32 picks q3's htb
	 * class. */
	plan_free(&pl);
	pp = run_preset(&p, "eth1", CAPS_PRESET_HOST, &pl);
	assert_int_equal(pp->filters[0].classid, HTBQ(3));
	plan_free(&pl);
	policy_free(&p);
}

static void test_strict_prio(void **state)
{
	struct policy p;
	struct plan pl;
	struct caps caps;
	const struct plan_port *pp;
	const struct plan_qdisc *qd;

	(void)state;
	strict_policy(&p);
	caps_preset(&caps, CAPS_PRESET_FULL);
	caps.qdiscs &= ~CAPS_QD_ETS;
	caps.classifiers &= ~CAPS_CLS_FLOWER;
	caps.speed_mbps = 100000;
	pp = run(&p, "eth1", &caps, &pl);
	assert_int_equal(pp->layout, PLAN_LAYOUT_PRIO_RED);
	qd = qdisc(pp, ROOT);
	assert_int_equal(qd->kind, PLAN_QD_PRIO);
	assert_int_equal(qd->u.prio.bands, 8);
	assert_memory_equal(qd->u.prio.band_queue, strict_bands, 8);
	for (unsigned p8 = 0; p8 < 16; p8++)
		assert_int_equal(qd->u.prio.priomap[p8],
		                 band_of(p8 < 8 ? p8 : 0));
	assert_int_equal(qdisc(pp, LEAF(3))->kind, PLAN_QD_RED);
	assert_int_equal(qdisc(pp, LEAF(3))->u.red.bandwidth, 12500000000ull);
	/* u32 (no flower) chooses the band class of q3 (band 5 -> :6). */
	assert_int_equal(pp->nfilters, 2);
	assert_int_equal(pp->filters[0].classid, BAND(band_of(3)));
	want_warning(pp, "bandwidth remaining shares are not realised");
	want_warning(pp, "egress classification");
	want_warning(pp, "classified on DSCP alone");
	want_nwarnings(pp, 3);
	plan_free(&pl);
	policy_free(&p);
}

static void test_strict_htb(void **state)
{
	struct policy p;
	struct plan pl;
	struct caps caps;
	const struct plan_port *pp;
	const uint64_t speed = 25000ull * 125000u;

	(void)state;
	strict_policy(&p);
	caps_preset(&caps, CAPS_PRESET_HOST);
	caps.speed_mbps = 25000;
	pp = run(&p, "eth1", &caps, &pl);
	assert_int_equal(pp->layout, PLAN_LAYOUT_HTB_FIFO);
	for (unsigned q = 0; q < 8; q++) {
		const struct plan_class *cl = klass(pp, HTBQ(q));
		bool strict = q == 2 || q == 5 || q == 6;

		assert_int_equal(cl->prio, strict ? 0 : 1);
		assert_int_equal(cl->ceil, speed);
		if (strict) {
			assert_int_equal(cl->rate, speed);
			assert_int_equal(cl->quantum, FRAME);
		} else if (q == 0 || q == 3) {
			assert_int_equal(cl->rate, speed / 2);
		} else {
			assert_int_equal(cl->rate, speed / 1000);
		}
	}
	assert_int_equal(count_msgs(pp, DIAG_WARNING, "link speed unknown"), 0);
	want_warning(pp, "htb approximates");
	want_warning(pp, "share of 25000 Mb/s");
	plan_free(&pl);

	/* htb with red in the kernel: WRED queue gets red, layout htb+red. */
	caps.qdiscs |= CAPS_QD_RED;
	pp = run(&p, "eth1", &caps, &pl);
	assert_int_equal(pp->layout, PLAN_LAYOUT_HTB_RED);
	assert_int_equal(qdisc(pp, LEAF(3))->kind, PLAN_QD_RED);
	assert_int_equal(qdisc(pp, LEAF(3))->parent, HTBQ(3));
	assert_int_equal(qdisc(pp, LEAF(0))->kind, PLAN_QD_BFIFO);
	plan_free(&pl);

	/* flower + skbedit over htb: htb has no priomap and takes
	 * skb->priority as a class id, so the filter writes q3's class. */
	caps.classifiers |= CAPS_CLS_FLOWER;
	caps.actions |= CAPS_ACT_SKBEDIT;
	pp = run(&p, "eth1", &caps, &pl);
	assert_int_equal(pp->nfilters, 2);
	assert_int_equal(pp->filters[0].kind, PLAN_FILTER_FLOWER);
	assert_int_equal(pp->filters[0].action, PLAN_ACT_SKBEDIT_PRIORITY);
	assert_int_equal(pp->filters[0].priority, HTBQ(3));
	assert_int_equal(qdisc(pp, PLAN_H_CLSACT)->kind, PLAN_QD_CLSACT);
	plan_free(&pl);

	/* No root qdisc at all: nothing planned, and said so. */
	caps.qdiscs = CAPS_QD_BFIFO | CAPS_QD_CLSACT;
	pp = run(&p, "eth1", &caps, &pl);
	assert_int_equal(pp->layout, PLAN_LAYOUT_NONE);
	assert_int_equal(pp->nqdiscs, 0);
	assert_int_equal(pp->nfilters, 0);
	want_warning(pp, "none of ets, prio and htb");
	plan_free(&pl);
	policy_free(&p);
}

/* ---- classification ---- */

static void test_dscp_blocks(void **state)
{
	uint8_t v[64], m[64];

	(void)state;
	assert_int_equal(compile_dscp_blocks(0, v, m), 0);
	assert_int_equal(compile_dscp_blocks(1ull << 26, v, m), 1);
	assert_int_equal(v[0], 26);
	assert_int_equal(m[0], 0x3f);
	assert_int_equal(compile_dscp_blocks(0xffull << 24, v, m), 1);
	assert_int_equal(v[0], 24);
	assert_int_equal(m[0], 0x38);
	assert_int_equal(compile_dscp_blocks(~0ull, v, m), 1);
	assert_int_equal(v[0], 0);
	assert_int_equal(m[0], 0);
	assert_int_equal(compile_dscp_blocks(0xffffffffull, v, m), 1);
	assert_int_equal(v[0], 0);
	assert_int_equal(m[0], 0x20);
	assert_int_equal(compile_dscp_blocks(0xffffffffull << 32, v, m), 1);
	assert_int_equal(v[0], 32);
	assert_int_equal(m[0], 0x20);
	/* 10-13: not aligned as one block of 4. */
	assert_int_equal(compile_dscp_blocks(0xfull << 10, v, m), 2);
	assert_int_equal(v[0], 10);
	assert_int_equal(m[0], 0x3e);
	assert_int_equal(v[1], 12);
	assert_int_equal(m[1], 0x3e);
	/* 1-6 -> 1, 2-3, 4-5, 6. */
	assert_int_equal(compile_dscp_blocks(0x7eull, v, m), 4);
	assert_int_equal(v[0], 1);
	assert_int_equal(m[0], 0x3f);
	assert_int_equal(v[1], 2);
	assert_int_equal(m[1], 0x3e);
	assert_int_equal(v[2], 4);
	assert_int_equal(m[2], 0x3e);
	assert_int_equal(v[3], 6);
	assert_int_equal(m[3], 0x3f);
	assert_int_equal(compile_dscp_blocks(1ull << 63, v, m), 1);
	assert_int_equal(v[0], 63);
	/* Alternate bits cannot merge: 32 blocks. */
	assert_int_equal(compile_dscp_blocks(0x5555555555555555ull, v, m), 32);
}

/* A port whose only class is CLS (group 5), on PRESET. */
static const struct plan_port *one_class(struct policy *p, struct plan *pl,
                                         enum policy_match match, uint8_t cos,
                                         uint64_t dscp, enum caps_preset preset)
{
	struct policy_class_qos *c;

	ref_policy(p, POLICY_PFC_ON);
	c = &p->class_qos[0];
	c->match = match;
	c->cos = cos;
	c->dscp = dscp;
	p->map_qos[0].rules[0].qos_group = 5;
	return run_preset(p, "eth1", preset, pl);
}

static void test_dscp_range_filters(void **state)
{
	struct policy p;
	struct plan pl;
	const struct plan_port *pp;

	(void)state;
	pp = one_class(&p, &pl, POLICY_MATCH_ANY, 0, 0xffull << 24,
	               CAPS_PRESET_FULL);
	assert_int_equal(pp->nfilters, 2);
	for (unsigned i = 0; i < 2; i++) {
		assert_int_equal(pp->filters[i].protocol,
		                 i ? COMPILE_ETH_P_IPV6 : COMPILE_ETH_P_IP);
		assert_int_equal(pp->filters[i].dscp, 24);
		assert_int_equal(pp->filters[i].dscp_mask, 0x38);
		assert_int_equal(pp->filters[i].priority, 5);
	}
	/* APP lists every value of the range. */
	assert_int_equal(pp->dcb.napp, 8);
	assert_int_equal(pp->dcb.ntrust, 1);
	assert_int_equal(pp->dcb.trust[0], PLAN_APP_SEL_DSCP);
	plan_free(&pl);
	policy_free(&p);
}

static void test_match_any_filters(void **state)
{
	struct policy p;
	struct plan pl;
	const struct plan_port *pp;
	const struct plan_filter *f;

	(void)state;
	/* flower: one PCP filter and one per IP version for the DSCP. */
	pp = one_class(&p, &pl, POLICY_MATCH_ANY, 1u << 3, 1ull << 26,
	               CAPS_PRESET_FULL);
	assert_int_equal(pp->nfilters, 3);
	f = &pp->filters[0];
	assert_int_equal(f->prio, PLAN_FILTER_PRIO_BASE);
	assert_int_equal(f->protocol, COMPILE_ETH_P_8021Q);
	assert_int_equal(f->vlan_ethtype, 0);
	assert_true(f->match_pcp);
	assert_int_equal(f->pcp, 3);
	assert_false(f->match_dscp);
	for (unsigned i = 1; i < 3; i++) {
		f = &pp->filters[i];
		assert_int_equal(f->prio, PLAN_FILTER_PRIO_BASE + i);
		assert_int_equal(f->protocol, i == 1 ? COMPILE_ETH_P_IP
		                                     : COMPILE_ETH_P_IPV6);
		assert_false(f->match_pcp);
		assert_true(f->match_dscp);
		assert_int_equal(f->dscp, 26);
	}
	plan_free(&pl);
	policy_free(&p);

	/* u32: only the DSCP part, and a warning for the CoS part. */
	pp = one_class(&p, &pl, POLICY_MATCH_ANY, 1u << 3, 1ull << 26,
	               CAPS_PRESET_HOST);
	assert_int_equal(pp->nfilters, 2);
	assert_int_equal(pp->filters[0].classid, HTBQ(5));
	want_warning(pp, "match cos is not realised");
	plan_free(&pl);
	policy_free(&p);

	/* hw: match-any is what APP does; no warning about it. */
	pp = one_class(&p, &pl, POLICY_MATCH_ANY, 1u << 3, 1ull << 26,
	               CAPS_PRESET_HW);
	assert_int_equal(count_msgs(pp, DIAG_WARNING, "APP/trust"), 0);
	plan_free(&pl);
	policy_free(&p);
}

static void test_match_all_filters(void **state)
{
	struct policy p;
	struct plan pl;
	const struct plan_port *pp;

	(void)state;
	/* Two PCPs x one DSCP x two IP versions. */
	pp = one_class(&p, &pl, POLICY_MATCH_ALL, (1u << 3) | (1u << 4),
	               1ull << 26, CAPS_PRESET_FULL);
	assert_int_equal(pp->nfilters, 4);
	for (unsigned i = 0; i < 4; i++) {
		const struct plan_filter *f = &pp->filters[i];

		assert_int_equal(f->prio, PLAN_FILTER_PRIO_BASE + i);
		assert_int_equal(f->protocol, COMPILE_ETH_P_8021Q);
		assert_int_equal(f->vlan_ethtype,
		                 i % 2 ? COMPILE_ETH_P_IPV6 : COMPILE_ETH_P_IP);
		assert_int_equal(f->pcp, i < 2 ? 3 : 4);
		assert_true(f->match_dscp);
	}
	plan_free(&pl);
	policy_free(&p);

	/* cos only on u32: no filter, a warning. */
	pp = one_class(&p, &pl, POLICY_MATCH_ALL, 1u << 3, 0, CAPS_PRESET_HOST);
	assert_int_equal(pp->nfilters, 0);
	want_warning(pp, "matches cos only");
	plan_free(&pl);
	policy_free(&p);

	/* cos only on flower: one PCP filter. */
	pp = one_class(&p, &pl, POLICY_MATCH_ALL, 1u << 3, 0, CAPS_PRESET_FULL);
	assert_int_equal(pp->nfilters, 1);
	assert_int_equal(pp->filters[0].protocol, COMPILE_ETH_P_8021Q);
	assert_int_equal(pp->dcb.ntrust, 1);
	assert_int_equal(pp->dcb.trust[0], PLAN_APP_SEL_PCP);
	plan_free(&pl);
	policy_free(&p);
}

/* Rule order: filter prios follow it, and the first rule keeps a DSCP in
 * APP. A class without match statements takes everything. */
static void test_rule_order(void **state)
{
	struct policy p;
	struct plan pl;
	struct policy_map_qos *mq;
	const struct plan_port *pp;

	(void)state;
	ref_policy(&p, POLICY_PFC_ON);
	p.class_qos[0].match = POLICY_MATCH_ANY;
	p.class_qos[0].cos = 0;
	add_class(&p, "CNP", POLICY_MATCH_ANY, 0, (1ull << 26) | (1ull << 48));
	add_class(&p, "NOGROUP", POLICY_MATCH_ANY, 0, 1ull << 10);
	add_class(&p, "EVERYTHING", POLICY_MATCH_ANY, 0, 0);
	mq = &p.map_qos[0];
	add_rule(mq, "CNP", 6);
	add_rule(mq, "NOGROUP", -1);
	add_rule(mq, "EVERYTHING", 1);
	pp = run_preset(&p, "eth1", CAPS_PRESET_FULL, &pl);
	/* ROCE 26 (2), CNP 26 and 48 (4), NOGROUP 10 (2), EVERYTHING (1). */
	assert_int_equal(pp->nfilters, 9);
	for (unsigned i = 0; i < 9; i++)
		assert_int_equal(pp->filters[i].prio,
		                 PLAN_FILTER_PRIO_BASE + i);
	assert_string_equal(pp->filters[0].class_name, "ROCE_CLASS");
	assert_string_equal(pp->filters[2].class_name, "CNP");
	assert_int_equal(pp->filters[4].dscp, 48);
	assert_int_equal(pp->filters[4].priority, 6);
	assert_string_equal(pp->filters[6].class_name, "NOGROUP");
	assert_int_equal(pp->filters[6].priority, 0);
	assert_int_equal(pp->filters[8].protocol, COMPILE_ETH_P_ALL);
	assert_false(pp->filters[8].match_dscp);
	assert_false(pp->filters[8].match_pcp);
	assert_int_equal(pp->filters[8].priority, 1);
	/* APP: 26 -> 3 (first rule), 48 -> 6, 10 -> 0; DSCP order. */
	assert_int_equal(pp->dcb.napp, 3);
	assert_int_equal(pp->dcb.app[0].protocol, 26);
	assert_int_equal(pp->dcb.app[0].priority, 3);
	assert_int_equal(pp->dcb.app[1].protocol, 48);
	assert_int_equal(pp->dcb.app[1].priority, 6);
	assert_int_equal(pp->dcb.app[2].protocol, 10);
	assert_int_equal(pp->dcb.app[2].priority, 0);
	plan_free(&pl);

	/* A hardware port cannot put everything into group 1. */
	pp = run_preset(&p, "eth1", CAPS_PRESET_HW, &pl);
	want_warning(pp, "class EVERYTHING matches all traffic");
	plan_free(&pl);
	policy_free(&p);
}

static void test_filter_overflow(void **state)
{
	struct policy p;
	struct plan pl;
	struct policy_map_qos *mq;
	const struct plan_port *pp;

	(void)state;
	ref_policy(&p, POLICY_PFC_ON);
	/* 8 PCPs x 32 DSCP blocks x 2 = 512 filters per class. */
	add_class(&p, "WIDE1", POLICY_MATCH_ALL, 0xff, 0x5555555555555555ull);
	add_class(&p, "WIDE2", POLICY_MATCH_ALL, 0xff, 0xaaaaaaaaaaaaaaaaull);
	mq = &p.map_qos[0];
	add_rule(mq, "WIDE1", 1);
	add_rule(mq, "WIDE2", 2);
	pp = run_preset(&p, "eth1", CAPS_PRESET_FULL, &pl);
	assert_int_equal(pp->nfilters, 1000);
	assert_int_equal(pp->filters[999].prio, PLAN_FILTER_PRIO_MAX);
	want_warning(pp, "more than 1000 classification filters: class WIDE2");
	plan_free(&pl);
	policy_free(&p);
}

/* ---- RED maths ---- */

static void test_red_wlog(void **state)
{
	(void)state;
	/* a = burst + 1 - qmin/avpkt; the first W = 2^-wlog with
	 * a <= (1 - (1-W)^burst) / W. 200+1-153.6 = 47.4: 1/32 gives
	 * 31.9, 1/64 gives 61.3 -> 6. */
	assert_int_equal(compile_red_wlog(153600, 200, 1000), 6);
	/* 154: a = 1.4 <= ~2 at W = 1/2. */
	assert_int_equal(compile_red_wlog(153600, 154, 1000), 1);
	/* 153: a = 0.4 < 1, tc refuses. */
	assert_int_equal(compile_red_wlog(153600, 153, 1000), -1);
	assert_int_equal(compile_red_wlog(30000, 30, 1000), 1);
	assert_int_equal(compile_red_wlog(1, 1, 0), -1);

	/* The smallest burst per Wlog; checked against tc: 184 -> 5,
	 * 185 -> 6, 341 -> 8, 342 -> 9. */
	assert_int_equal(compile_red_burst(153600, 1000, 1), 154);
	/* qmin a multiple of avpkt: burst 30 gives a = 1 exactly. */
	assert_int_equal(compile_red_burst(30000, 1000, 1), 30);
	assert_int_equal(compile_red_burst(153600, 1000, 2), 155);
	assert_int_equal(compile_red_burst(153600, 1000, 6), 185);
	assert_int_equal(compile_red_wlog(153600, 184, 1000), 5);
	assert_int_equal(compile_red_burst(153600, 1000, 9), 342);
	assert_int_equal(compile_red_wlog(153600, 341, 1000), 8);
	assert_int_equal(compile_red_burst(153600, 1000, 0), 0);
	/* The bisection agrees with a linear search. */
	for (int w = 1; w <= 12; w++) {
		uint32_t b = 154;

		while (compile_red_wlog(153600, b, 1000) < w)
			b++;
		if (compile_red_wlog(153600, b, 1000) == w)
			assert_int_equal(compile_red_burst(153600, 1000, w), b);
		else
			assert_int_equal(compile_red_burst(153600, 1000, w), 0);
	}
}

static void test_red_plog(void **state)
{
	(void)state;
	/* 0.07 / 2918400 = 2.4e-8: x2^25 = 0.80, x2^26 = 1.61 -> 26. */
	assert_int_equal(compile_red_plog(153600, 3072000, 0.07), 26);
	/* 1 / 2918400: x2^21 = 0.72, x2^22 = 1.44 -> 22. */
	assert_int_equal(compile_red_plog(153600, 3072000, 1.0), 22);
	/* 0.5 / 60000: x2^16 = 0.55, x2^17 = 1.09 -> 17. */
	assert_int_equal(compile_red_plog(30000, 90000, 0.5), 17);
	/* 0.02 / 60000: x2^21 = 0.70, x2^22 = 1.40 -> 22. */
	assert_int_equal(compile_red_plog(30000, 90000, 0.02), 22);
	assert_int_equal(compile_red_plog(5000, 5000, 0.5), -1);
	assert_int_equal(compile_red_plog(6000, 5000, 0.5), -1);
	assert_int_equal(compile_red_plog(0, 3000000, 0.0), -1);
}

static void test_red_scell_log(void **state)
{
	(void)state;
	/* 1 Gb/s: 1000 B take 8 us = 125 ticks; Wlog 6: lW = -ln(63/64)/125
	 * = 1.26e-4, 31/lW = 246060 -> needs 2^9 cells of 512. */
	assert_int_equal(compile_red_scell_log(6, 1000, 125000000), 9);
	/* Wlog 1: lW = ln 2 / 125, 31/lW = 5590 -> 2^4. */
	assert_int_equal(compile_red_scell_log(1, 1000, 125000000), 4);
	/* 100 Mb/s: 80 us = 1250 ticks; 2460600 / 512 -> 2^13. */
	assert_int_equal(compile_red_scell_log(6, 1000, 12500000), 13);
	/* 10 Mb/s: 800 us = 12500 ticks; Wlog 2: 1346972 / 512 -> 2^12. */
	assert_int_equal(compile_red_scell_log(2, 1000, 1250000), 12);
	/* 58 Mb/s: 137.9 us truncate to 137 = 2140 ticks; Wlog 5:
	 * 31 / (-ln(31/32) / 2140) = 2089494, / 512 = 4081 -> 2^12. Without
	 * tc's truncation to whole us it would be 4110 -> 2^13. */
	assert_int_equal(compile_red_scell_log(5, 1000, 7250000), 12);
	/* From 1 GB/s an avpkt takes 0 whole us: the first cell. */
	assert_int_equal(compile_red_scell_log(6, 1000, 1250000000), 0);
	assert_int_equal(compile_red_scell_log(0, 1000, 125000000), 0);
	assert_int_equal(compile_red_scell_log(6, 1000, 0), -1);
	assert_int_equal(compile_red_scell_log(32, 1000, 125000000), -1);
}

static void test_red_fill(void **state)
{
	struct policy_wred w;
	struct plan_red r;
	struct diag d;

	(void)state;
	memset(&w, 0, sizeof(w));
	w.enabled = true;
	w.min_bytes = 153600;
	w.max_bytes = 3072000;
	w.drop_probability = 7;
	w.weight = 6;
	w.ecn = true;
	diag_init(&d, NULL);
	memset(&r, 0, sizeof(r));
	compile_red_fill(&r, &w, 3, 12500000, &d);
	assert_int_equal(d.n, 0);
	assert_int_equal(r.wlog, 6);
	assert_int_equal(r.burst, 185);
	assert_true(r.wlog_cli_exact);
	assert_int_equal(r.scell_log, 13);
	assert_int_equal(r.plog, 26);
	assert_int_equal(r.limit, 2 * 3072000 + 185000);

	/* 100 %: max_P saturates; Plog as tc. */
	w.drop_probability = 100;
	compile_red_fill(&r, &w, 3, 12500000, &d);
	assert_int_equal(r.max_p, 0xffffffffu);
	assert_int_equal(r.probability_ppm, 1000000);
	assert_int_equal(r.plog, 22);

	/* Weight 15 with a 3 MB max: fls 22 + 15 >= 32, clamp to 9. */
	assert_int_equal(compile_red_wlog_max(153600, 3072000), 9);
	w.weight = 15;
	compile_red_fill(&r, &w, 3, 12500000, &d);
	assert_int_equal(r.wlog, 9);
	assert_int_equal(r.burst, 342);
	assert_int_equal(d.nwarnings, 1);
	assert_non_null(strstr(d.v[0].text, "weight 15 is too large"));

	/* Probability 0: the smallest non-zero max_P, with a warning. */
	w.weight = 0;
	w.drop_probability = 0;
	compile_red_fill(&r, &w, 3, 12500000, &d);
	assert_int_equal(r.max_p, 1);
	assert_int_equal(d.nwarnings, 2);
	diag_free(&d);
}

/* ---- ports and defaults ---- */

static void test_speed(void **state)
{
	struct policy p;
	struct plan pl;
	struct caps caps;
	const struct plan_port *pp;

	(void)state;
	ref_policy(&p, POLICY_PFC_ON);
	caps_preset(&caps, CAPS_PRESET_FULL);
	caps.speed_mbps = 25000;
	pp = run(&p, "eth1", &caps, &pl);
	assert_int_equal(qdisc(pp, LEAF(3))->u.red.bandwidth, 3125000000ull);
	assert_int_equal(count_msgs(pp, DIAG_WARNING, "speed"), 0);
	plan_free(&pl);
	/* Unknown: the default, one warning however many users. */
	caps.speed_mbps = 0;
	caps.qdiscs &= ~(CAPS_QD_ETS | CAPS_QD_PRIO);
	pp = run(&p, "eth1", &caps, &pl);
	assert_int_equal(pp->layout, PLAN_LAYOUT_HTB_RED);
	assert_int_equal(qdisc(pp, LEAF(3))->u.red.bandwidth, SPEED_B);
	assert_int_equal(klass(pp, HTBTOP)->rate, SPEED_B);
	want_warning(pp, "link speed unknown: assuming 10000 Mb/s");
	plan_free(&pl);
	policy_free(&p);
}

static void test_port_without_iface(void **state)
{
	struct policy p;
	struct plan pl;
	const struct plan_port *pp;

	(void)state;
	ref_policy(&p, POLICY_PFC_ON);
	pp = run_preset(&p, "eth9", CAPS_PRESET_FULL, &pl);
	assert_string_equal(pp->ifname, "eth9");
	assert_string_equal(pp->alias, "");
	assert_int_equal(pp->pfc_mode, POLICY_PFC_AUTO);
	assert_true(pp->pfc_awaiting_dcbx);
	assert_int_equal(pp->dcb.pfc_admin, 0x08);
	assert_int_equal(pp->dcb.pfc_en, 0);
	assert_int_equal(count_msgs(pp, DIAG_NOTE, "until DCBX agrees"), 1);
	assert_int_equal(pp->dcb.mtu, 9216);
	/* NX-OS default queuing: everything in q-default. */
	for (unsigned tc = 0; tc < 8; tc++) {
		assert_int_equal(pp->dcb.ets_tsa[tc], PLAN_TSA_ETS);
		assert_int_equal(pp->dcb.ets_bw[tc], tc ? 0 : 100);
	}
	assert_int_equal(pp->dcb.napp, 0);
	assert_int_equal(pp->dcb.ntrust, 0);
	assert_int_equal(pp->layout, PLAN_LAYOUT_NONE);
	assert_int_equal(pp->nqdiscs + pp->nclasses + pp->nfilters, 0);
	assert_string_equal(pp->queuing_policy, "");
	want_nwarnings(pp, 0);
	plan_free(&pl);

	/* system qos defaults reach a port without a block. */
	snprintf(p.system.qos_input, sizeof(p.system.qos_input), "%s",
	         "ROCE_POLICY");
	snprintf(p.system.queuing_output, sizeof(p.system.queuing_output), "%s",
	         "ROCE_QUEUING_OUT");
	pp = run_preset(&p, "eth9", CAPS_PRESET_FULL, &pl);
	assert_int_equal(pp->layout, PLAN_LAYOUT_ETS_RED);
	assert_int_equal(pp->nfilters, 2);
	assert_string_equal(pp->queuing_policy, "ROCE_QUEUING_OUT");
	plan_free(&pl);

	/* Looked up by NX-OS alias. */
	pp = run_preset(&p, "ethernet1/1", CAPS_PRESET_HW, &pl);
	assert_string_equal(pp->alias, "Ethernet1/1");
	assert_int_equal(pp->pfc_mode, POLICY_PFC_ON);
	plan_free(&pl);
	policy_free(&p);
}

static void test_no_queuing(void **state)
{
	struct policy p;
	struct plan pl;
	struct policy_iface *i;
	const struct plan_port *pp;

	(void)state;
	i = ref_policy(&p, POLICY_PFC_ON);
	i->queuing_output[0] = '\0';
	pp = run_preset(&p, "eth1", CAPS_PRESET_FULL, &pl);
	assert_int_equal(pp->layout, PLAN_LAYOUT_NONE);
	assert_int_equal(pp->nqdiscs + pp->nclasses + pp->nfilters, 0);
	assert_int_equal(pp->dcb.ets_bw[0], 100);
	assert_int_equal(pp->dcb.napp, 2);
	/* A software port cannot classify without the tree. */
	want_warning(pp, "qos input policy ROCE_POLICY is not realised");
	plan_free(&pl);
	pp = run_preset(&p, "eth1", CAPS_PRESET_HW, &pl);
	assert_int_equal(pp->layout, PLAN_LAYOUT_NONE);
	assert_int_equal(pp->nqdiscs, 0);
	assert_int_equal(count_msgs(pp, DIAG_WARNING, "not realised"), 0);
	plan_free(&pl);
	policy_free(&p);
}

static void test_undefined_names(void **state)
{
	struct policy p;
	struct plan pl;
	struct compile_port cp;
	struct policy_iface *i;

	(void)state;
	i = ref_policy(&p, POLICY_PFC_ON);
	snprintf(i->queuing_output, sizeof(i->queuing_output), "%s", "NOPE");
	memset(&cp, 0, sizeof(cp));
	snprintf(cp.ifname, sizeof(cp.ifname), "%s", "eth1");
	caps_preset(&cp.caps, CAPS_PRESET_FULL);
	plan_init(&pl);
	assert_int_equal(compile_policy(&p, &cp, 1, &pl), 0);
	assert_int_equal(pl.diag.nerrors, 1);
	assert_non_null(strstr(pl.diag.v[0].text, "NOPE"));
	plan_free(&pl);
	policy_free(&p);
}

static void test_ports_from_policy(void **state)
{
	struct policy p;
	struct caps caps;
	struct compile_port ports[4];

	(void)state;
	ref_policy(&p, POLICY_PFC_ON);
	assert_non_null(policy_add_iface(&p, "veth0"));
	assert_non_null(policy_add_iface(&p, "br0"));
	caps_preset(&caps, CAPS_PRESET_HW);
	caps.speed_mbps = 100000;
	assert_int_equal(compile_ports_from_policy(&p, &caps, ports, 4), 3);
	assert_string_equal(ports[0].ifname, "eth1");
	assert_string_equal(ports[1].ifname, "veth0");
	assert_string_equal(ports[2].ifname, "br0");
	assert_true(ports[2].caps.hw_dcb);
	assert_int_equal(ports[2].caps.speed_mbps, 100000);
	assert_int_equal(compile_ports_from_policy(&p, &caps, ports, 2), 2);
	policy_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_ref_host),
	    cmocka_unit_test(test_ref_full),
	    cmocka_unit_test(test_ref_hw),
	    cmocka_unit_test(test_pfc_modes),
	    cmocka_unit_test(test_strict_ets),
	    cmocka_unit_test(test_strict_prio),
	    cmocka_unit_test(test_strict_htb),
	    cmocka_unit_test(test_dscp_blocks),
	    cmocka_unit_test(test_dscp_range_filters),
	    cmocka_unit_test(test_match_any_filters),
	    cmocka_unit_test(test_match_all_filters),
	    cmocka_unit_test(test_rule_order),
	    cmocka_unit_test(test_filter_overflow),
	    cmocka_unit_test(test_red_wlog),
	    cmocka_unit_test(test_red_plog),
	    cmocka_unit_test(test_red_scell_log),
	    cmocka_unit_test(test_red_fill),
	    cmocka_unit_test(test_speed),
	    cmocka_unit_test(test_port_without_iface),
	    cmocka_unit_test(test_no_queuing),
	    cmocka_unit_test(test_undefined_names),
	    cmocka_unit_test(test_ports_from_policy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
