/* test_compile_dcbx: the DCBX outcome as a compile input.
 *
 * The switch of the two-roced rig (not willing, PFC on 3, ETS 50/50 on
 * q-default and q3, APP DSCP 26 -> 3) is compiled, its advertised TLVs
 * taken from its plan (compile_dcbx_local) and negotiated by the host
 * with dcbx_negotiate, as the daemon does; the host's plan must then hold
 * what it adopted, in the DCB part and in the tc part.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "base/strbuf.h"
#include "plan/plan_text.h"
#include "proto/dcbx.h"
#include "tcomp.h"

static const uint8_t mac_switch[6] = {0x02, 0, 0, 0, 0, 0x01};
static const uint8_t mac_host[6] = {0x02, 0, 0, 0, 0, 0x02};

/* The switch: ROCE (dscp 26) -> qos-group 3, queuing 50/50 on q-default
 * and q3, network-qos pause pfc-cos 3, PFC mode MODE on swp1. */
static void switch_policy(struct policy *p, enum policy_pfc_mode mode)
{
	struct policy_map_qos *mq;
	struct policy_map_queuing *q;

	policy_init(p);
	tcomp_add_class(p, "ROCE", POLICY_MATCH_ALL, 0, 1ull << 26);
	mq = policy_add_map_qos(p, "QOS");
	assert_non_null(mq);
	tcomp_add_rule(mq, "ROCE", 3);
	q = policy_add_map_queuing(p, "QUE");
	assert_non_null(q);
	tcomp_set_queue(q, 0, 50, 0);
	tcomp_set_queue(q, 3, 50, 0);
	tcomp_set_queue(q, 6, 50, 0);
	tcomp_add_nq(p, "NC", "NQ", 3, 3);
	tcomp_add_iface(p, "swp1", mode, "QOS", "QUE");
}

/* The host: willing, mode auto, only the network-qos (no queuing or qos
 * policy of its own). */
static void host_policy(struct policy *p, bool willing)
{
	policy_init(p);
	tcomp_add_nq(p, "NC", "NQ", 3, 3);
	tcomp_add_iface(p, "eth0", POLICY_PFC_AUTO, NULL, NULL)->lldp.willing =
	    willing;
}

static const struct plan_port *run(const struct policy *p, const char *ifname,
                                   const struct dcbx_oper *oper,
                                   struct plan *pl)
{
	struct compile_port cp;

	tcomp_port(&cp, ifname, CAPS_PRESET_HOST);
	if (oper) {
		cp.has_dcbx = true;
		cp.dcbx = *oper;
	}
	return tcomp_run_port(p, &cp, pl);
}

/* Notes and warnings alike. */
static size_t count_notes(const struct plan_port *pp, const char *needle)
{
	return tcomp_count_msgs(pp, DIAG_NOTE, needle) +
	       tcomp_count_msgs(pp, DIAG_WARNING, needle);
}

/* What the switch advertises follows its policy and PFC mode. */
static void test_local_tlvs(void **state)
{
	struct policy p;
	struct plan pl;
	struct dcbx_tlvs t;
	const struct plan_port *pp;

	(void)state;
	switch_policy(&p, POLICY_PFC_ON);
	pp = run(&p, "swp1", NULL, &pl);
	compile_dcbx_local(pp, false, &t);
	assert_true(t.has_pfc && t.has_ets_cfg && t.has_ets_rec && t.has_app);
	assert_false(t.pfc.willing);
	assert_int_equal(t.pfc.enable, 0x08);
	assert_int_equal(t.pfc.cap, 8);
	assert_int_equal(t.ets_cfg.tc_bw[0], 50);
	assert_int_equal(t.ets_cfg.tc_bw[3], 50);
	assert_int_equal(t.ets_rec.tc_bw[3], 50);
	assert_int_equal(t.ets_cfg.tsa[3], DCBX_TSA_ETS);
	assert_int_equal(t.ets_cfg.prio_tc[5], 5);
	assert_int_equal(t.app.n, 1);
	assert_int_equal(t.app.v[0].selector, DCBX_APP_DSCP);
	assert_int_equal(t.app.v[0].protocol, 26);
	assert_int_equal(t.app.v[0].prio, 3);
	plan_free(&pl);
	policy_free(&p);
	/* mode off advertises PFC disabled; auto advertises the policy. */
	switch_policy(&p, POLICY_PFC_OFF);
	pp = run(&p, "swp1", NULL, &pl);
	compile_dcbx_local(pp, true, &t);
	assert_int_equal(t.pfc.enable, 0);
	assert_true(t.pfc.willing && t.ets_cfg.willing);
	assert_false(t.ets_rec.willing);
	plan_free(&pl);
	policy_free(&p);
	switch_policy(&p, POLICY_PFC_AUTO);
	pp = run(&p, "swp1", NULL, &pl);
	compile_dcbx_local(pp, false, &t);
	assert_int_equal(t.pfc.enable, 0x08);
	assert_int_equal(pp->dcb.pfc_en, 0);
	plan_free(&pl);
	policy_free(&p);
}

/* Switch and host negotiate as the daemon would; the host's plan holds
 * the outcome. */
static void negotiate(bool host_willing, struct policy *host, struct plan *hpl,
                      struct dcbx_oper *oper)
{
	struct policy sw;
	struct plan spl;
	struct dcbx_tlvs st, ht;
	const struct plan_port *sp, *hp;

	switch_policy(&sw, POLICY_PFC_ON);
	sp = run(&sw, "swp1", NULL, &spl);
	compile_dcbx_local(sp, false, &st);
	host_policy(host, host_willing);
	hp = run(host, "eth0", NULL, hpl);
	compile_dcbx_local(hp, host_willing, &ht);
	plan_free(hpl);
	dcbx_negotiate(&ht, mac_host, &st, mac_switch, oper);
	plan_free(&spl);
	policy_free(&sw);
}

static void test_host_adopts(void **state)
{
	struct policy host;
	struct plan pl;
	struct dcbx_oper oper;
	const struct plan_port *pp;
	bool dscp26 = false;

	(void)state;
	negotiate(true, &host, &pl, &oper);
	assert_true(oper.pfc_agreed);
	assert_int_equal(oper.ets_why, DCBX_WHY_ADOPTED);
	pp = run(&host, "eth0", &oper, &pl);
	/* PFC: auto is operational with the agreed bitmap. */
	assert_false(pp->pfc_awaiting_dcbx);
	assert_int_equal(pp->dcb.pfc_en, 0x08);
	/* ETS: the switch's 50/50, realised as a tc tree of its own. */
	assert_true(pp->dcbx_ets_adopted);
	assert_int_equal(pp->dcb.ets_bw[0], 50);
	assert_int_equal(pp->dcb.ets_bw[3], 50);
	assert_int_equal(pp->dcb_local.ets_bw[0], 100);
	assert_int_not_equal(pp->layout, PLAN_LAYOUT_NONE);
	assert_true(pp->nqdiscs > 0);
	/* APP: DSCP 26 -> 3 in the DCB part and as a filter to queue 3. */
	assert_true(pp->dcbx_app_adopted);
	for (size_t i = 0; i < pp->dcb.napp; i++)
		dscp26 |= pp->dcb.app[i].selector == PLAN_APP_SEL_DSCP &&
		          pp->dcb.app[i].protocol == 26 &&
		          pp->dcb.app[i].priority == 3;
	assert_true(dscp26);
	assert_int_equal(pp->dcb_local.napp, 0);
	assert_true(pp->nfilters > 0);
	plan_free(&pl);
	/* The same port without DCBX input has no tree: the change is the
	 * outcome's. */
	pp = run(&host, "eth0", NULL, &pl);
	assert_int_equal(pp->layout, PLAN_LAYOUT_NONE);
	assert_true(pp->pfc_awaiting_dcbx);
	assert_int_equal(pp->dcb.pfc_en, 0);
	assert_int_equal(count_notes(pp, "until DCBX agrees"), 1);
	assert_string_equal(pp->pfc_dcbx_why, "");
	plan_free(&pl);
	policy_free(&host);
}

/* A host that is not willing and differs: PFC stays off with the
 * reason; nothing is adopted. */
static void test_host_mismatch(void **state)
{
	struct policy host;
	struct plan pl;
	struct dcbx_oper oper;
	const struct plan_port *pp;

	(void)state;
	negotiate(false, &host, &pl, &oper);
	/* Same PFC bitmap (3): agreed; make the host's differ. */
	oper.pfc_agreed = false;
	oper.pfc_why = DCBX_WHY_MISMATCH;
	pp = run(&host, "eth0", &oper, &pl);
	assert_true(pp->pfc_awaiting_dcbx);
	assert_int_equal(pp->dcb.pfc_en, 0);
	assert_int_equal(count_notes(pp, "PFC stays off: DCBX mismatch"), 1);
	assert_string_equal(pp->pfc_dcbx_why, "mismatch");
	assert_false(pp->dcbx_ets_adopted);
	assert_false(pp->dcbx_app_adopted);
	assert_int_equal(pp->layout, PLAN_LAYOUT_NONE);
	plan_free(&pl);
	/* No peer (aged out, TTL 0): back to off. */
	memset(&oper, 0, sizeof(oper));
	oper.pfc_why = oper.ets_why = oper.app_why = DCBX_WHY_NO_PEER;
	pp = run(&host, "eth0", &oper, &pl);
	assert_int_equal(pp->dcb.pfc_en, 0);
	assert_int_equal(count_notes(pp, "PFC stays off: DCBX no peer"), 1);
	plan_free(&pl);
	policy_free(&host);
}

/* Modes on and off ignore the peer. */
static void test_modes_ignore_peer(void **state)
{
	struct policy p;
	struct plan pl;
	struct dcbx_oper oper;
	const struct plan_port *pp;

	(void)state;
	memset(&oper, 0, sizeof(oper));
	oper.pfc_agreed = true;
	oper.pfc.enable = 0x10;
	switch_policy(&p, POLICY_PFC_ON);
	pp = run(&p, "swp1", &oper, &pl);
	assert_int_equal(pp->dcb.pfc_en, 0x08);
	plan_free(&pl);
	policy_free(&p);
	switch_policy(&p, POLICY_PFC_OFF);
	pp = run(&p, "swp1", &oper, &pl);
	assert_int_equal(pp->dcb.pfc_en, 0);
	plan_free(&pl);
	policy_free(&p);
}

/* The shipped host profile (willing, no QoS of its own) with software
 * PFC planned, as the daemon runs it. */
static const struct plan_port *
run_soft(const struct policy *p, const struct dcbx_oper *oper, struct plan *pl)
{
	struct compile_port cp;

	tcomp_port(&cp, "eth0", CAPS_PRESET_HOST);
	cp.softpfc = true;
	cp.has_dcbx = true;
	cp.dcbx = *oper;
	return tcomp_run_port(p, &cp, pl);
}

/* PFC adopted on a priority without a local no-drop class: the adopted
 * tree gives its queue a leaf software PFC holds; with no tree at all
 * (the peer sent no ETS Recommendation) it is refused, never on and
 * unheld. */
static void test_adopted_holdable(void **state)
{
	struct policy host, sw;
	struct plan pl, spl;
	struct dcbx_tlvs st, ht;
	struct dcbx_oper oper;
	const struct plan_port *pp, *sp;
	const struct plan_qdisc *leaf;

	(void)state;
	policy_init(&host);
	tcomp_add_iface(&host, "eth0", POLICY_PFC_AUTO, NULL, NULL)
	    ->lldp.willing = true;
	switch_policy(&sw, POLICY_PFC_AUTO);
	sp = run(&sw, "swp1", NULL, &spl);
	compile_dcbx_local(sp, false, &st);
	memset(&ht, 0, sizeof(ht));
	ht.has_pfc = ht.has_ets_cfg = true;
	ht.pfc.willing = ht.ets_cfg.willing = true;
	dcbx_negotiate(&ht, mac_host, &st, mac_switch, &oper);
	assert_int_equal(oper.pfc_why, DCBX_WHY_ADOPTED);
	pp = run_soft(&host, &oper, &pl);
	assert_int_equal(pp->dcb.pfc_admin, 0);
	assert_int_equal(pp->dcb.pfc_en, 0x08);
	assert_int_equal(pp->pfc_unrealisable, 0);
	leaf = plan_port_qdisc(pp, PLAN_H_MAKE(PLAN_LEAF_MAJOR(3), 0));
	assert_non_null(leaf);
	assert_int_equal(leaf->kind, PLAN_QD_TBF);
	/* A willing port in mode auto holds any queue: a peer that enables
	 * another priority later changes no leaf's kind. */
	leaf = plan_port_qdisc(pp, PLAN_H_MAKE(PLAN_LEAF_MAJOR(5), 0));
	assert_non_null(leaf);
	assert_int_equal(leaf->kind, PLAN_QD_TBF);
	assert_int_equal(count_notes(pp, "not realisable"), 0);
	plan_free(&pl);

	/* No ETS Recommendation: no tree, nothing to hold: refused. */
	st.has_ets_rec = false;
	dcbx_negotiate(&ht, mac_host, &st, mac_switch, &oper);
	assert_true(oper.pfc_agreed);
	pp = run_soft(&host, &oper, &pl);
	assert_int_equal(pp->layout, PLAN_LAYOUT_NONE);
	assert_int_equal(pp->dcb.pfc_en, 0);
	assert_int_equal(pp->pfc_unrealisable, 0x08);
	assert_string_equal(pp->pfc_dcbx_why, "adopted: not realisable");
	assert_int_equal(count_notes(pp, "not realisable"), 1);
	plan_free(&pl);

	/* The switch in mode auto, agreed: its own no-drop queue holds. */
	plan_free(&spl);
	memset(&oper, 0, sizeof(oper));
	oper.pfc_agreed = true;
	oper.pfc_why = DCBX_WHY_AGREED;
	oper.pfc.enable = 0x08;
	{
		struct compile_port cp;

		tcomp_port(&cp, "swp1", CAPS_PRESET_HOST);
		cp.softpfc = true;
		cp.has_dcbx = true;
		cp.dcbx = oper;
		sp = tcomp_run_port(&sw, &cp, &spl);
	}
	assert_int_equal(sp->dcb.pfc_en, 0x08);
	assert_int_equal(sp->pfc_unrealisable, 0);
	plan_free(&spl);
	policy_free(&sw);
	policy_free(&host);
}

/* A held tbf's bucket is one frame: the host's policy sets no MTU. */
#define HOST_FRAME (COMPILE_DEFAULT_MTU + COMPILE_L2_OVERHEAD)

/* The switch's TLVs with the ETS Recommendation of a Nexus in 4-queue
 * mode: priority 3 in TC 1 (40 %), every other priority in TC 0 (60 %). */
static void nexus_tlvs(struct dcbx_tlvs *st)
{
	struct policy sw;
	struct plan spl;
	const struct plan_port *sp;

	switch_policy(&sw, POLICY_PFC_ON);
	sp = run(&sw, "swp1", NULL, &spl);
	compile_dcbx_local(sp, false, st);
	plan_free(&spl);
	policy_free(&sw);
	memset(&st->ets_rec, 0, sizeof(st->ets_rec));
	st->ets_rec.prio_tc[3] = 1;
	st->ets_rec.tc_bw[0] = 60;
	st->ets_rec.tc_bw[1] = 40;
	st->ets_rec.tsa[0] = st->ets_rec.tsa[1] = DCBX_TSA_ETS;
	for (unsigned tc = 2; tc < DCBX_NTC; tc++)
		st->ets_rec.tsa[tc] = DCBX_TSA_STRICT;
}

/* The host's port (willing, mode auto, software PFC) with CAPS, the
 * outcome OPER and pause received on HOLD. */
static const struct plan_port *run_caps(const struct policy *p,
                                        const struct caps *caps,
                                        const struct dcbx_oper *oper,
                                        uint8_t hold, struct plan *pl)
{
	struct compile_port cp;

	tcomp_port(&cp, "eth0", CAPS_PRESET_HOST);
	cp.caps = *caps;
	cp.softpfc = true;
	cp.pfc_hold = hold;
	cp.has_dcbx = true;
	cp.dcbx = *oper;
	return tcomp_run_port(p, &cp, pl);
}

/* An adopted priority -> TC table is the one the port runs: the DCB
 * part holds it, priority 3's traffic (DSCP 26 by the peer's APP) is
 * classified into queue 1, which has TC 1's 40 %, and a pause of
 * priority 3 holds queue 1, not queue 3. */
static void test_adopted_prio_tc(void **state)
{
	struct policy host;
	struct plan pl;
	struct dcbx_tlvs st, ht;
	struct dcbx_oper oper;
	const struct plan_port *pp, *hp;
	const struct plan_qdisc *root;
	struct caps caps;
	struct strbuf sb;
	size_t n26 = 0;

	(void)state;
	nexus_tlvs(&st);
	host_policy(&host, true);
	hp = run(&host, "eth0", NULL, &pl);
	compile_dcbx_local(hp, true, &ht);
	plan_free(&pl);
	dcbx_negotiate(&ht, mac_host, &st, mac_switch, &oper);
	assert_int_equal(oper.ets_why, DCBX_WHY_ADOPTED);
	assert_true(oper.pfc_agreed);

	/* This kernel without cls_bpf: u32 on the htb root chooses the
	 * class. */
	caps_preset(&caps, CAPS_PRESET_HOST);
	caps.classifiers &= ~CAPS_CLS_BPF;
	pp = run_caps(&host, &caps, &oper, 0x08, &pl);
	assert_true(pp->dcbx_ets_adopted);
	for (unsigned p = 0; p < 8; p++)
		assert_int_equal(pp->dcb.prio_tc[p], p == 3 ? 1 : 0);
	assert_int_equal(pp->dcb.ets_bw[0], 60);
	assert_int_equal(pp->dcb.ets_bw[1], 40);
	assert_int_equal(pp->dcb.pfc_en, 0x08);
	assert_int_equal(count_notes(pp, "other traffic classes"), 0);
	for (size_t i = 0; i < pp->nfilters; i++) {
		const struct plan_filter *f = &pp->filters[i];

		if (!f->match_dscp || (26 & f->dscp_mask) != f->dscp)
			continue;
		assert_int_equal(f->action, PLAN_ACT_CLASSID);
		assert_int_equal(f->classid, HTBQ(1));
		n26++;
	}
	assert_int_equal(n26, 2); /* IPv4 and IPv6 */
	/* TC 1's share on queue 1; unclassified traffic (priority 0) in
	 * queue 0. */
	root = tcomp_qdisc(pp, ROOT);
	assert_int_equal(root->kind, PLAN_QD_HTB);
	assert_int_equal(root->u.htb.defcls, PLAN_HTB_QUEUE_MINOR(0));
	assert_int_equal(tcomp_class(pp, HTBQ(1))->rate, SPEED_B * 40 / 100);
	assert_int_equal(tcomp_class(pp, HTBQ(0))->rate, SPEED_B * 60 / 100);
	/* The pause of priority 3 holds TC 1's queue. */
	assert_int_equal(tcomp_qdisc(pp, LEAF(1))->kind, PLAN_QD_TBF);
	assert_int_equal(tcomp_qdisc(pp, LEAF(1))->u.tbf.burst, HOST_FRAME);
	/* No priority maps to queue 3: nothing pauses it. */
	assert_int_not_equal(tcomp_qdisc(pp, LEAF(3))->kind, PLAN_QD_TBF);
	strbuf_init(&sb);
	plan_text_write(&pl, &sb);
	assert_non_null(strstr(sb.s,
	                       "tc-bw 0:60 1:40 2:0 3:0 4:0 5:0 6:0 7:0 "
	                       "prio-tc 0:0 1:0 2:0 3:1 4:0 5:0 6:0 7:0"));
	assert_non_null(strstr(sb.s, "protocol ip prio 4791 u32 match ip "
	                             "dsfield 0x68 0xfc classid 4791:11\n"));
	assert_non_null(strstr(sb.s, "protocol ipv6 prio 4792 u32 match ip6 "
	                             "priority 0x68 0xfc classid 4791:11\n"));
	strbuf_free(&sb);
	plan_free(&pl);

	/* A full kernel, no software PFC hold planned: the ets root's
	 * priomap sends skb->priority 3 (the ingress skbedit's) to queue 1,
	 * and everything unclassified to queue 0. */
	caps_preset(&caps, CAPS_PRESET_FULL);
	{
		struct compile_port cp;

		tcomp_port(&cp, "eth0", CAPS_PRESET_FULL);
		cp.has_dcbx = true;
		cp.dcbx = oper;
		pp = tcomp_run_port(&host, &cp, &pl);
	}
	root = tcomp_qdisc(pp, ROOT);
	assert_int_equal(root->kind, PLAN_QD_ETS);
	for (unsigned p = 0; p < 16; p++)
		assert_int_equal(root->u.ets.band_queue[root->u.ets.priomap[p]],
		                 p == 3 ? 1 : 0);
	plan_free(&pl);

	/* A hardware port hands the table to dcbnl. */
	{
		struct compile_port cp;

		tcomp_port(&cp, "eth0", CAPS_PRESET_HW);
		cp.has_dcbx = true;
		cp.dcbx = oper;
		pp = tcomp_run_port(&host, &cp, &pl);
	}
	assert_int_equal(pp->dcb.prio_tc[3], 1);
	assert_int_equal(pp->dcb.prio_tc[4], 0);
	plan_free(&pl);
	policy_free(&host);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_local_tlvs),
	    cmocka_unit_test(test_host_adopts),
	    cmocka_unit_test(test_host_mismatch),
	    cmocka_unit_test(test_modes_ignore_peer),
	    cmocka_unit_test(test_adopted_holdable),
	    cmocka_unit_test(test_adopted_prio_tc),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
