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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_local_tlvs),
	    cmocka_unit_test(test_host_adopts),
	    cmocka_unit_test(test_host_mismatch),
	    cmocka_unit_test(test_modes_ignore_peer),
	    cmocka_unit_test(test_adopted_holdable),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
