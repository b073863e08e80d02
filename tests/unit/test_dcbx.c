/* test_dcbx: dcbx_negotiate (lib/proto/dcbx.c) on tables that cover every
 * combination of the willing bits, a peer or none, present or absent TLVs
 * (and a CEE-only peer), equal or differing values and, for PFC, which
 * side has the lower MAC address; and the DCBX name tables. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "proto/dcbx.h"

static const uint8_t mac_lo[6] = {0x02, 0x00, 0x00, 0x00, 0x00, 0x01};
static const uint8_t mac_hi[6] = {0x02, 0x00, 0x00, 0x00, 0x01, 0x00};

/* The peer as a test row describes it. */
enum peer_kind {
	PEER_NONE,   /* no neighbour: PEER is NULL */
	PEER_NO_TLV, /* a neighbour without the feature's TLV */
	PEER_CEE,    /* a neighbour that speaks CEE only */
	PEER_TLV,    /* the TLV is there */
};

/* Which side has the lower MAC; ANY: the row must hold for all three. */
enum mac_order {
	MAC_ANY,
	MAC_LOCAL_LOWER,
	MAC_LOCAL_HIGHER,
	MAC_EQUAL,
};

static void macs(enum mac_order o, const uint8_t **l, const uint8_t **p)
{
	*l = o == MAC_LOCAL_HIGHER ? mac_hi : mac_lo;
	*p = o == MAC_LOCAL_LOWER ? mac_hi : mac_lo;
}

/* ------------------------------------------------------------------ */
/* PFC: symmetric */

#define PFC_LOCAL 0x08 /* priority 3 */
#define PFC_OTHER 0x18 /* priorities 3 and 4 */

static const struct pfc_case {
	bool lw;
	enum peer_kind peer;
	bool pw;
	bool same;
	enum mac_order mac;
	enum dcbx_why why;
	uint8_t enable; /* the operational bitmap */
} pfc_cases[] = {
    /* No peer, no TLV, CEE only: our own values, never agreed. */
    {false, PEER_NONE, false, false, MAC_ANY, DCBX_WHY_NO_PEER, PFC_LOCAL},
    {true, PEER_NONE, false, false, MAC_ANY, DCBX_WHY_NO_PEER, PFC_LOCAL},
    {false, PEER_NO_TLV, false, false, MAC_ANY, DCBX_WHY_NO_TLV, PFC_LOCAL},
    {true, PEER_NO_TLV, false, false, MAC_ANY, DCBX_WHY_NO_TLV, PFC_LOCAL},
    {false, PEER_CEE, false, false, MAC_ANY, DCBX_WHY_CEE, PFC_LOCAL},
    {true, PEER_CEE, false, false, MAC_ANY, DCBX_WHY_CEE, PFC_LOCAL},
    /* Same values: agreed whoever is willing. */
    {false, PEER_TLV, false, true, MAC_ANY, DCBX_WHY_AGREED, PFC_LOCAL},
    {false, PEER_TLV, true, true, MAC_ANY, DCBX_WHY_AGREED, PFC_LOCAL},
    {true, PEER_TLV, false, true, MAC_ANY, DCBX_WHY_AGREED, PFC_LOCAL},
    {true, PEER_TLV, true, true, MAC_ANY, DCBX_WHY_AGREED, PFC_LOCAL},
    /* Different values. Neither willing: mismatch. */
    {false, PEER_TLV, false, false, MAC_ANY, DCBX_WHY_MISMATCH, PFC_LOCAL},
    /* Only the peer willing: it is to take ours. */
    {false, PEER_TLV, true, false, MAC_ANY, DCBX_WHY_PEER_WILLING, PFC_LOCAL},
    /* Only we are willing: we take the peer's. */
    {true, PEER_TLV, false, false, MAC_ANY, DCBX_WHY_ADOPTED, PFC_OTHER},
    /* Both willing: the lower MAC gives in (lldpad's pfc_sm), and so
     * does a port that hears its own address. */
    {true, PEER_TLV, true, false, MAC_LOCAL_LOWER, DCBX_WHY_ADOPTED, PFC_OTHER},
    {true, PEER_TLV, true, false, MAC_EQUAL, DCBX_WHY_ADOPTED, PFC_OTHER},
    {true, PEER_TLV, true, false, MAC_LOCAL_HIGHER, DCBX_WHY_PEER_WILLING,
     PFC_LOCAL},
};

static void pfc_run(const struct pfc_case *c, enum mac_order o)
{
	struct dcbx_tlvs local = {.has_pfc = true}, peer = {0};
	const uint8_t *lm, *pm;
	struct dcbx_oper out;
	bool agreed;

	local.pfc = (struct dcbx_pfc){
	    .willing = c->lw, .mbc = false, .cap = 8, .enable = PFC_LOCAL};
	peer.cee = c->peer == PEER_CEE;
	peer.has_pfc = c->peer == PEER_TLV;
	peer.pfc = (struct dcbx_pfc){.willing = c->pw,
	                             .mbc = true,
	                             .cap = 4,
	                             .enable = c->same ? PFC_LOCAL : PFC_OTHER};
	macs(o, &lm, &pm);
	dcbx_negotiate(&local, lm, c->peer == PEER_NONE ? NULL : &peer, pm,
	               &out);
	if (out.pfc_why != c->why || out.pfc.enable != c->enable)
		fail_msg(
		    "pfc row lw=%d peer=%d pw=%d same=%d mac=%d: %s 0x%02x, "
		    "expected %s 0x%02x",
		    c->lw, c->peer, c->pw, c->same, o,
		    dcbx_why_name(out.pfc_why), out.pfc.enable,
		    dcbx_why_name(c->why), c->enable);
	/* A willing peer that keeps ours (its capability, 4, holds our one
	 * priority) runs ours: agreed too. */
	agreed = c->why == DCBX_WHY_AGREED || c->why == DCBX_WHY_ADOPTED ||
	         c->why == DCBX_WHY_PEER_WILLING;
	assert_int_equal(out.pfc_agreed, agreed);
	/* What describes this port stays ours. */
	assert_int_equal(out.pfc.willing, c->lw);
	assert_int_equal(out.pfc.cap, 8);
	assert_false(out.pfc.mbc);
}

static void test_pfc_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(pfc_cases) / sizeof(pfc_cases[0]); i++) {
		const struct pfc_case *c = &pfc_cases[i];

		if (c->mac != MAC_ANY) {
			pfc_run(c, c->mac);
			continue;
		}
		pfc_run(c, MAC_LOCAL_LOWER);
		pfc_run(c, MAC_LOCAL_HIGHER);
		pfc_run(c, MAC_EQUAL);
	}
}

/* Every combination of the inputs is a row of the table (or is covered
 * by a MAC_ANY row): a new input needs a new row. */
static void test_pfc_table_complete(void **state)
{
	int seen[2][4][2][2][4] = {{{{{0}}}}};

	(void)state;
	for (size_t i = 0; i < sizeof(pfc_cases) / sizeof(pfc_cases[0]); i++) {
		const struct pfc_case *c = &pfc_cases[i];

		for (int o = MAC_LOCAL_LOWER; o <= MAC_EQUAL; o++)
			if (c->mac == MAC_ANY || c->mac == (enum mac_order)o)
				seen[c->lw][c->peer][c->pw][c->same][o]++;
	}
	for (int lw = 0; lw < 2; lw++)
		for (int p = PEER_NONE; p <= PEER_TLV; p++)
			for (int pw = 0; pw < 2; pw++)
				for (int same = 0; same < 2; same++)
					for (int o = MAC_LOCAL_LOWER;
					     o <= MAC_EQUAL; o++) {
						/* Without a TLV the peer's
						 * bits do not exist. */
						if (p != PEER_TLV &&
						    (pw || same))
							continue;
						if (seen[lw][p][pw][same][o] !=
						    1)
							fail_msg(
							    "lw=%d peer=%d "
							    "pw=%d same=%d "
							    "mac=%d: %d rows",
							    lw, p, pw, same, o,
							    seen[lw][p][pw]
							        [same][o]);
					}
}

/* NULL MACs read as 00:00:00:00:00:00 (equal: we give in). */
static void test_pfc_null_macs(void **state)
{
	struct dcbx_tlvs local = {.has_pfc = true}, peer = {.has_pfc = true};
	struct dcbx_oper out;

	(void)state;
	local.pfc = (struct dcbx_pfc){.willing = true, .enable = 0x08};
	peer.pfc = (struct dcbx_pfc){.willing = true, .enable = 0x01};
	dcbx_negotiate(&local, NULL, &peer, NULL, &out);
	assert_int_equal(out.pfc_why, DCBX_WHY_ADOPTED);
	assert_int_equal(out.pfc.enable, 0x01);
	dcbx_negotiate(&local, mac_lo, &peer, NULL, &out);
	assert_int_equal(out.pfc_why, DCBX_WHY_PEER_WILLING);
	assert_int_equal(out.pfc.enable, 0x08);
}

/* ------------------------------------------------------------------ */
/* ETS: asymmetric */

/* What the peer's ETS TLV holds, compared with our configuration. */
enum ets_val {
	ETS_ABSENT,
	ETS_SAME,
	ETS_DIFF,
};

static const struct ets_case {
	bool lw;
	enum peer_kind peer;
	enum ets_val cfg;
	bool pw; /* the peer's ETS Configuration's willing bit */
	enum ets_val rec;
	enum dcbx_why why;
	bool took_rec; /* the operational values are the recommendation */
} ets_cases[] = {
    {false, PEER_NONE, ETS_ABSENT, false, ETS_ABSENT, DCBX_WHY_NO_PEER, 0},
    {true, PEER_NONE, ETS_ABSENT, false, ETS_ABSENT, DCBX_WHY_NO_PEER, 0},
    {false, PEER_NO_TLV, ETS_ABSENT, false, ETS_ABSENT, DCBX_WHY_NO_TLV, 0},
    {true, PEER_NO_TLV, ETS_ABSENT, false, ETS_ABSENT, DCBX_WHY_NO_TLV, 0},
    {false, PEER_CEE, ETS_ABSENT, false, ETS_ABSENT, DCBX_WHY_CEE, 0},
    {true, PEER_CEE, ETS_ABSENT, false, ETS_ABSENT, DCBX_WHY_CEE, 0},
    /* Not willing: ours, compared with the peer's configuration (or
     * its recommendation when that is all it sent). */
    {false, PEER_TLV, ETS_SAME, false, ETS_ABSENT, DCBX_WHY_AGREED, 0},
    {false, PEER_TLV, ETS_SAME, true, ETS_ABSENT, DCBX_WHY_AGREED, 0},
    {false, PEER_TLV, ETS_DIFF, false, ETS_ABSENT, DCBX_WHY_MISMATCH, 0},
    {false, PEER_TLV, ETS_DIFF, true, ETS_ABSENT, DCBX_WHY_PEER_WILLING, 0},
    {false, PEER_TLV, ETS_ABSENT, false, ETS_SAME, DCBX_WHY_AGREED, 0},
    {false, PEER_TLV, ETS_ABSENT, false, ETS_DIFF, DCBX_WHY_MISMATCH, 0},
    {false, PEER_TLV, ETS_SAME, false, ETS_SAME, DCBX_WHY_AGREED, 0},
    {false, PEER_TLV, ETS_SAME, true, ETS_SAME, DCBX_WHY_AGREED, 0},
    {false, PEER_TLV, ETS_SAME, false, ETS_DIFF, DCBX_WHY_AGREED, 0},
    {false, PEER_TLV, ETS_SAME, true, ETS_DIFF, DCBX_WHY_AGREED, 0},
    {false, PEER_TLV, ETS_DIFF, false, ETS_SAME, DCBX_WHY_MISMATCH, 0},
    {false, PEER_TLV, ETS_DIFF, true, ETS_SAME, DCBX_WHY_PEER_WILLING, 0},
    {false, PEER_TLV, ETS_DIFF, false, ETS_DIFF, DCBX_WHY_MISMATCH, 0},
    {false, PEER_TLV, ETS_DIFF, true, ETS_DIFF, DCBX_WHY_PEER_WILLING, 0},
    /* Willing, no recommendation: still ours. */
    {true, PEER_TLV, ETS_SAME, false, ETS_ABSENT, DCBX_WHY_AGREED, 0},
    {true, PEER_TLV, ETS_SAME, true, ETS_ABSENT, DCBX_WHY_AGREED, 0},
    {true, PEER_TLV, ETS_DIFF, false, ETS_ABSENT, DCBX_WHY_MISMATCH, 0},
    {true, PEER_TLV, ETS_DIFF, true, ETS_ABSENT, DCBX_WHY_PEER_WILLING, 0},
    /* Willing with a recommendation: the recommendation, whatever the
     * peer's own configuration and willing bit are. */
    {true, PEER_TLV, ETS_ABSENT, false, ETS_SAME, DCBX_WHY_AGREED, 1},
    {true, PEER_TLV, ETS_ABSENT, false, ETS_DIFF, DCBX_WHY_ADOPTED, 1},
    {true, PEER_TLV, ETS_SAME, false, ETS_SAME, DCBX_WHY_AGREED, 1},
    {true, PEER_TLV, ETS_SAME, true, ETS_SAME, DCBX_WHY_AGREED, 1},
    {true, PEER_TLV, ETS_DIFF, false, ETS_SAME, DCBX_WHY_AGREED, 1},
    {true, PEER_TLV, ETS_DIFF, true, ETS_SAME, DCBX_WHY_AGREED, 1},
    {true, PEER_TLV, ETS_SAME, false, ETS_DIFF, DCBX_WHY_ADOPTED, 1},
    {true, PEER_TLV, ETS_SAME, true, ETS_DIFF, DCBX_WHY_ADOPTED, 1},
    {true, PEER_TLV, ETS_DIFF, false, ETS_DIFF, DCBX_WHY_ADOPTED, 1},
    {true, PEER_TLV, ETS_DIFF, true, ETS_DIFF, DCBX_WHY_ADOPTED, 1},
};

/* The switch's 50/50 between TC 0 and TC 3 (priority 3 -> TC 3). */
static const struct dcbx_ets ets_local = {
    .max_tcs = 8,
    .prio_tc = {0, 0, 0, 3, 0, 0, 0, 0},
    .tc_bw = {50, 0, 0, 50, 0, 0, 0, 0},
    .tsa = {2, 0, 0, 2, 0, 0, 0, 0},
};

static struct dcbx_ets ets_with_bw(uint8_t tc0, uint8_t tc3, bool willing)
{
	struct dcbx_ets e = ets_local;

	e.tc_bw[0] = tc0;
	e.tc_bw[3] = tc3;
	e.willing = willing;
	e.cbs = true;  /* the peer's, never taken */
	e.max_tcs = 3; /* idem */
	return e;
}

static void test_ets_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(ets_cases) / sizeof(ets_cases[0]); i++) {
		const struct ets_case *c = &ets_cases[i];
		struct dcbx_tlvs local = {.has_ets_cfg = true}, peer = {0};
		struct dcbx_ets want;
		struct dcbx_oper out;

		local.ets_cfg = ets_local;
		local.ets_cfg.willing = c->lw;
		peer.cee = c->peer == PEER_CEE;
		peer.has_ets_cfg = c->cfg != ETS_ABSENT;
		peer.has_ets_rec = c->rec != ETS_ABSENT;
		peer.ets_cfg = c->cfg == ETS_DIFF ? ets_with_bw(60, 40, c->pw)
		                                  : ets_with_bw(50, 50, c->pw);
		peer.ets_rec = c->rec == ETS_DIFF ? ets_with_bw(70, 30, false)
		                                  : ets_with_bw(50, 50, false);
		dcbx_negotiate(&local, mac_lo,
		               c->peer == PEER_NONE ? NULL : &peer, mac_hi,
		               &out);
		want = local.ets_cfg;
		if (c->took_rec)
			memcpy(want.tc_bw, peer.ets_rec.tc_bw,
			       sizeof(want.tc_bw));
		if (out.ets_why != c->why ||
		    memcmp(&out.ets, &want, sizeof(want)) != 0)
			fail_msg("ets row %zu: %s bw %u/%u, expected %s "
			         "bw %u/%u",
			         i, dcbx_why_name(out.ets_why),
			         out.ets.tc_bw[0], out.ets.tc_bw[3],
			         dcbx_why_name(c->why), want.tc_bw[0],
			         want.tc_bw[3]);
	}
}

static void test_ets_table_complete(void **state)
{
	int seen[2][4][3][2][3] = {{{{{0}}}}};

	(void)state;
	for (size_t i = 0; i < sizeof(ets_cases) / sizeof(ets_cases[0]); i++) {
		const struct ets_case *c = &ets_cases[i];

		seen[c->lw][c->peer][c->cfg][c->pw][c->rec]++;
	}
	for (int lw = 0; lw < 2; lw++)
		for (int p = PEER_NONE; p <= PEER_TLV; p++)
			for (int cfg = 0; cfg < 3; cfg++)
				for (int pw = 0; pw < 2; pw++)
					for (int rec = 0; rec < 3; rec++) {
						bool none = !cfg && !rec;
						/* No TLV: nothing else varies;
						 * a willing bit needs a
						 * configuration. */
						int want =
						    p != PEER_TLV
						        ? none && !pw
						        : !none &&
						              !(pw && !cfg);

						if (seen[lw][p][cfg][pw][rec] !=
						    want)
							fail_msg(
							    "lw=%d peer=%d "
							    "cfg=%d pw=%d "
							    "rec=%d: %d rows",
							    lw, p, cfg, pw, rec,
							    seen[lw][p][cfg][pw]
							        [rec]);
					}
}

/* A CEE-only peer's values (lldp_cee_to_dcbx): its willing bit waits
 * for CEE values, which roced never sends, so it is never taken for a
 * peer that runs ours; a willing port of ours takes its values whatever
 * the MACs. */
static void test_cee_peer(void **state)
{
	struct dcbx_tlvs local = {.has_pfc = true, .has_ets_cfg = true};
	struct dcbx_tlvs peer = {.cee = true, .from_cee = true};
	struct dcbx_oper out;

	(void)state;
	local.pfc = (struct dcbx_pfc){.cap = 8, .enable = PFC_LOCAL};
	local.ets_cfg = ets_local;
	peer.has_pfc = peer.has_ets_cfg = peer.has_ets_rec = true;
	peer.pfc =
	    (struct dcbx_pfc){.willing = true, .cap = 8, .enable = PFC_OTHER};
	peer.ets_cfg = peer.ets_rec = ets_with_bw(60, 40, true);

	/* A switch facing a willing CEE host: neither PFC nor ETS agreed,
	 * where an IEEE peer with the same bits would be PEER_WILLING. */
	dcbx_negotiate(&local, mac_lo, &peer, mac_hi, &out);
	assert_int_equal(out.pfc_why, DCBX_WHY_CEE);
	assert_false(out.pfc_agreed);
	assert_int_equal(out.pfc.enable, PFC_LOCAL);
	assert_int_equal(out.ets_why, DCBX_WHY_CEE);
	peer.from_cee = false;
	dcbx_negotiate(&local, mac_lo, &peer, mac_hi, &out);
	assert_int_equal(out.pfc_why, DCBX_WHY_PEER_WILLING);
	assert_true(out.pfc_agreed);
	assert_int_equal(out.ets_why, DCBX_WHY_PEER_WILLING);
	peer.from_cee = true;

	/* The same values: agreed, CEE or not. */
	peer.pfc.enable = PFC_LOCAL;
	dcbx_negotiate(&local, mac_lo, &peer, mac_hi, &out);
	assert_int_equal(out.pfc_why, DCBX_WHY_AGREED);
	assert_true(out.pfc_agreed);
	peer.pfc.enable = PFC_OTHER;

	/* Not willing either: a mismatch, as with IEEE. */
	peer.pfc.willing = false;
	dcbx_negotiate(&local, mac_lo, &peer, mac_hi, &out);
	assert_int_equal(out.pfc_why, DCBX_WHY_MISMATCH);
	peer.pfc.willing = true;

	/* A willing host facing a willing CEE switch: takes its PFC whatever
	 * the MACs (the switch will never take ours), and its ETS from the
	 * recommendation CEE's groups stand for. */
	local.pfc.willing = local.ets_cfg.willing = true;
	for (int o = MAC_LOCAL_LOWER; o <= MAC_EQUAL; o++) {
		const uint8_t *lm, *pm;

		macs((enum mac_order)o, &lm, &pm);
		dcbx_negotiate(&local, lm, &peer, pm, &out);
		assert_int_equal(out.pfc_why, DCBX_WHY_ADOPTED);
		assert_int_equal(out.pfc.enable, PFC_OTHER);
		assert_true(out.pfc_agreed);
		assert_int_equal(out.ets_why, DCBX_WHY_ADOPTED);
		assert_int_equal(out.ets.tc_bw[0], 60);
	}
}

/* ------------------------------------------------------------------ */
/* APP: merged, ours first */

static const struct dcbx_app app_dscp26 = {3, DCBX_APP_DSCP, 26};
static const struct dcbx_app app_roce = {3, DCBX_APP_UDP, 4791};
static const struct dcbx_app app_cnp = {6, DCBX_APP_DSCP, 48};
static const struct dcbx_app app_fcoe = {3, DCBX_APP_ETHERTYPE, 0x8906};

static void app_set(struct dcbx_tlvs *t, const struct dcbx_app *v, size_t n)
{
	t->has_app = true;
	memcpy(t->app.v, v, n * sizeof(*v));
	t->app.n = n;
}

static void test_app(void **state)
{
	struct dcbx_tlvs local = {0}, peer = {0};
	const struct dcbx_app mine[] = {app_dscp26, app_roce};
	struct dcbx_app theirs[4];
	struct dcbx_oper out;

	(void)state;
	app_set(&local, mine, 2);
	/* Only a willing port takes the peer's entries (test_app_unwilling). */
	local.pfc.willing = local.ets_cfg.willing = true;

	dcbx_negotiate(&local, mac_lo, NULL, mac_hi, &out);
	assert_int_equal(out.app_why, DCBX_WHY_NO_PEER);
	assert_int_equal(out.app.n, 2);

	dcbx_negotiate(&local, mac_lo, &peer, mac_hi, &out);
	assert_int_equal(out.app_why, DCBX_WHY_NO_TLV);
	assert_int_equal(out.app.n, 2);
	peer.cee = true;
	dcbx_negotiate(&local, mac_lo, &peer, mac_hi, &out);
	assert_int_equal(out.app_why, DCBX_WHY_CEE);
	peer.cee = false;

	/* The same entries, in another order: agreed. */
	theirs[0] = app_roce;
	theirs[1] = app_dscp26;
	app_set(&peer, theirs, 2);
	dcbx_negotiate(&local, mac_lo, &peer, mac_hi, &out);
	assert_int_equal(out.app_why, DCBX_WHY_AGREED);
	assert_int_equal(out.app.n, 2);

	/* A subset of ours: nothing differs, agreed. */
	app_set(&peer, theirs, 1);
	dcbx_negotiate(&local, mac_lo, &peer, mac_hi, &out);
	assert_int_equal(out.app_why, DCBX_WHY_AGREED);

	/* Extra entries (one twice): added once, after ours. */
	theirs[0] = app_cnp;
	theirs[1] = app_dscp26;
	theirs[2] = app_fcoe;
	theirs[3] = app_cnp;
	theirs[3].prio = 5;
	app_set(&peer, theirs, 4);
	dcbx_negotiate(&local, mac_lo, &peer, mac_hi, &out);
	assert_int_equal(out.app_why, DCBX_WHY_ADOPTED);
	assert_int_equal(out.app.n, 4);
	assert_memory_equal(&out.app.v[0], &app_dscp26, sizeof(app_dscp26));
	assert_memory_equal(&out.app.v[1], &app_roce, sizeof(app_roce));
	assert_memory_equal(&out.app.v[2], &app_cnp, sizeof(app_cnp));
	assert_memory_equal(&out.app.v[3], &app_fcoe, sizeof(app_fcoe));

	/* The same selector and protocol at another priority: ours wins,
	 * and it is a mismatch even when other entries were added. */
	theirs[0] = app_dscp26;
	theirs[0].prio = 4;
	theirs[1] = app_cnp;
	app_set(&peer, theirs, 2);
	dcbx_negotiate(&local, mac_lo, &peer, mac_hi, &out);
	assert_int_equal(out.app_why, DCBX_WHY_MISMATCH);
	assert_int_equal(out.app.n, 3);
	assert_int_equal(out.app.v[0].prio, 3);
	assert_memory_equal(&out.app.v[2], &app_cnp, sizeof(app_cnp));

	/* Same protocol number, other selector: another entry. */
	theirs[0] = (struct dcbx_app){5, DCBX_APP_TCP, 4791};
	app_set(&peer, theirs, 1);
	dcbx_negotiate(&local, mac_lo, &peer, mac_hi, &out);
	assert_int_equal(out.app_why, DCBX_WHY_ADOPTED);
	assert_int_equal(out.app.n, 3);
}

/* A port that is not willing never takes the peer's APP entries into its
 * operational table: its own stand, a conflict is still a mismatch. */
static void test_app_unwilling(void **state)
{
	struct dcbx_tlvs local = {0}, peer = {0};
	const struct dcbx_app mine[] = {app_dscp26};
	struct dcbx_app theirs[2] = {app_cnp, app_fcoe};
	struct dcbx_oper out;

	(void)state;
	app_set(&local, mine, 1);
	app_set(&peer, theirs, 2);
	dcbx_negotiate(&local, mac_lo, &peer, mac_hi, &out);
	assert_int_equal(out.app.n, 1);
	assert_memory_equal(&out.app.v[0], &app_dscp26, sizeof(app_dscp26));
	assert_int_equal(out.app_why, DCBX_WHY_AGREED);
	theirs[0] = app_dscp26;
	theirs[0].prio = 5;
	app_set(&peer, theirs, 2);
	dcbx_negotiate(&local, mac_lo, &peer, mac_hi, &out);
	assert_int_equal(out.app.n, 1);
	assert_int_equal(out.app.v[0].prio, 3);
	assert_int_equal(out.app_why, DCBX_WHY_MISMATCH);
	/* Either willing bit makes the port willing for APP. */
	local.ets_cfg.willing = true;
	dcbx_negotiate(&local, mac_lo, &peer, mac_hi, &out);
	assert_int_equal(out.app.n, 2);
}

/* A willing peer whose PFC capability is below the number of priorities
 * we enable cannot take ours: no agreement (0 reads as 8). */
static void test_pfc_peer_cannot(void **state)
{
	struct dcbx_tlvs local = {.has_pfc = true}, peer = {.has_pfc = true};
	struct dcbx_oper out;

	(void)state;
	local.pfc = (struct dcbx_pfc){.cap = 8, .enable = 0x18};
	peer.pfc = (struct dcbx_pfc){.willing = true, .cap = 1, .enable = 0};
	dcbx_negotiate(&local, mac_lo, &peer, mac_hi, &out);
	assert_int_equal(out.pfc_why, DCBX_WHY_PEER_CANNOT);
	assert_false(out.pfc_agreed);
	assert_int_equal(out.pfc.enable, 0x18);
	peer.pfc.cap = 2;
	dcbx_negotiate(&local, mac_lo, &peer, mac_hi, &out);
	assert_int_equal(out.pfc_why, DCBX_WHY_PEER_WILLING);
	assert_true(out.pfc_agreed);
	peer.pfc.cap = 0;
	dcbx_negotiate(&local, mac_lo, &peer, mac_hi, &out);
	assert_int_equal(out.pfc_why, DCBX_WHY_PEER_WILLING);
	assert_true(out.pfc_agreed);
}

/* What a port advertises: its own values, except what it adopted. */
static void test_advertise(void **state)
{
	struct dcbx_tlvs local = {0}, tx;
	struct dcbx_oper oper = {0};

	(void)state;
	local.has_pfc = local.has_ets_cfg = local.has_ets_rec = true;
	local.pfc = (struct dcbx_pfc){.willing = true, .cap = 8};
	local.ets_cfg = (struct dcbx_ets){
	    .willing = true, .max_tcs = 8, .tc_bw = {100}, .tsa = {2}};
	local.ets_rec = local.ets_cfg;
	dcbx_advertise(&local, NULL, &tx);
	assert_memory_equal(&tx, &local, sizeof(tx));
	/* Not adopted: ours, whatever the outcome holds. */
	oper.pfc.enable = 0x08;
	oper.pfc_why = DCBX_WHY_MISMATCH;
	oper.ets = ets_local;
	oper.ets_why = DCBX_WHY_PEER_WILLING;
	dcbx_advertise(&local, &oper, &tx);
	assert_memory_equal(&tx, &local, sizeof(tx));
	/* Adopted: the bitmap and the ETS tables it runs; the willing bits,
	 * the capability and the Recommendation stay ours. */
	oper.pfc_why = oper.ets_why = DCBX_WHY_ADOPTED;
	dcbx_advertise(&local, &oper, &tx);
	assert_int_equal(tx.pfc.enable, 0x08);
	assert_true(tx.pfc.willing);
	assert_int_equal(tx.pfc.cap, 8);
	assert_memory_equal(tx.ets_cfg.tc_bw, ets_local.tc_bw, DCBX_NTC);
	assert_memory_equal(tx.ets_cfg.prio_tc, ets_local.prio_tc, DCBX_NPRIO);
	assert_true(tx.ets_cfg.willing);
	assert_memory_equal(&tx.ets_rec, &local.ets_rec, sizeof(tx.ets_rec));
}

/* Two roced ends, each negotiating from its own configuration and
 * sending dcbx_advertise's values, reach a fixed point in which both run
 * PFC: a non-willing switch and a willing host; two willing ends with
 * other bitmaps (the lower MAC gives in); and the switch beside a willing
 * host that never re-advertises (NIC firmware). */
static void ends_run(struct dcbx_tlvs *a, const uint8_t *ma,
                     struct dcbx_tlvs *b, const uint8_t *mb,
                     struct dcbx_oper *oa, struct dcbx_oper *ob)
{
	struct dcbx_tlvs ta, tb;

	dcbx_advertise(a, NULL, &ta);
	dcbx_advertise(b, NULL, &tb);
	for (int round = 0; round < 4; round++) {
		dcbx_negotiate(a, ma, &tb, mb, oa);
		dcbx_negotiate(b, mb, &ta, ma, ob);
		dcbx_advertise(a, oa, &ta);
		dcbx_advertise(b, ob, &tb);
	}
	/* A fixed point: one more round changes nothing. */
	{
		struct dcbx_oper a2, b2;

		dcbx_negotiate(a, ma, &tb, mb, &a2);
		dcbx_negotiate(b, mb, &ta, ma, &b2);
		assert_memory_equal(&a2, oa, sizeof(a2));
		assert_memory_equal(&b2, ob, sizeof(b2));
	}
}

static void test_roced_ends(void **state)
{
	struct dcbx_tlvs sw = {0}, host = {0}, fw;
	struct dcbx_oper osw, oh;

	(void)state;
	sw.has_pfc = host.has_pfc = true;
	sw.pfc = (struct dcbx_pfc){.cap = 8, .enable = 0x08};
	host.pfc = (struct dcbx_pfc){.willing = true, .cap = 8};
	ends_run(&sw, mac_lo, &host, mac_hi, &osw, &oh);
	assert_true(osw.pfc_agreed);
	assert_int_equal(osw.pfc_why, DCBX_WHY_AGREED);
	assert_int_equal(osw.pfc.enable, 0x08);
	assert_true(oh.pfc_agreed);
	assert_int_equal(oh.pfc_why, DCBX_WHY_ADOPTED);
	assert_int_equal(oh.pfc.enable, 0x08);

	/* Both willing: the host (higher MAC) keeps its 0x10, the switch
	 * gives in and says so; both run 0x10. */
	sw.pfc.willing = true;
	host.pfc.enable = 0x10;
	ends_run(&sw, mac_lo, &host, mac_hi, &osw, &oh);
	assert_int_equal(osw.pfc_why, DCBX_WHY_ADOPTED);
	assert_int_equal(osw.pfc.enable, 0x10);
	assert_true(oh.pfc_agreed);
	assert_int_equal(oh.pfc.enable, 0x10);

	/* Firmware: willing, always advertises none. The switch runs its
	 * own bitmap, agreed by the peer's willing bit. */
	sw.pfc.willing = false;
	fw = (struct dcbx_tlvs){.has_pfc = true};
	fw.pfc = (struct dcbx_pfc){.willing = true, .cap = 8};
	dcbx_negotiate(&sw, mac_lo, &fw, mac_hi, &osw);
	assert_int_equal(osw.pfc_why, DCBX_WHY_PEER_WILLING);
	assert_true(osw.pfc_agreed);
	assert_int_equal(osw.pfc.enable, 0x08);
}

/* A full table of ours leaves no room: the peer's extras are dropped,
 * ours all stay. */
static void test_app_full(void **state)
{
	static struct dcbx_tlvs local, peer;
	struct dcbx_oper out;

	(void)state;
	local.has_app = peer.has_app = true;
	local.pfc.willing = true;
	for (int i = 0; i < DCBX_APP_MAX; i++)
		local.app.v[i] =
		    (struct dcbx_app){1, DCBX_APP_DSCP, (uint16_t)i};
	local.app.n = DCBX_APP_MAX;
	peer.app.v[0] = (struct dcbx_app){2, DCBX_APP_UDP, 4791};
	peer.app.n = 1;
	dcbx_negotiate(&local, mac_lo, &peer, mac_hi, &out);
	assert_int_equal(out.app.n, DCBX_APP_MAX);
	assert_int_equal(out.app.v[DCBX_APP_MAX - 1].protocol,
	                 DCBX_APP_MAX - 1);
	assert_int_equal(out.app_why, DCBX_WHY_AGREED);
}

/* The switch/host pair of the issue: the host (willing, mode auto) takes
 * the switch's PFC on 3, its ETS recommendation and its APP entries. */
static void test_switch_host(void **state)
{
	struct dcbx_tlvs sw = {0}, host = {0};
	const struct dcbx_app apps[] = {app_dscp26, app_roce};
	struct dcbx_oper out;

	(void)state;
	sw.has_pfc = sw.has_ets_cfg = sw.has_ets_rec = true;
	sw.pfc = (struct dcbx_pfc){.cap = 8, .enable = 0x08};
	sw.ets_cfg = ets_local;
	sw.ets_rec = ets_local;
	app_set(&sw, apps, 2);
	host.has_pfc = host.has_ets_cfg = host.has_app = true;
	host.pfc = (struct dcbx_pfc){.willing = true, .cap = 8};
	host.ets_cfg = (struct dcbx_ets){
	    .willing = true, .max_tcs = 8, .tc_bw = {100}, .tsa = {2}};
	dcbx_negotiate(&host, mac_hi, &sw, mac_lo, &out);
	{
		struct dcbx_tlvs tx;

		/* What the host sends next: what it took. */
		dcbx_advertise(&host, &out, &tx);
		assert_int_equal(tx.pfc.enable, 0x08);
		assert_memory_equal(tx.ets_cfg.tc_bw, ets_local.tc_bw,
		                    DCBX_NTC);
	}
	assert_true(out.pfc_agreed);
	assert_int_equal(out.pfc_why, DCBX_WHY_ADOPTED);
	assert_int_equal(out.pfc.enable, 0x08);
	assert_int_equal(out.ets_why, DCBX_WHY_ADOPTED);
	assert_memory_equal(out.ets.tc_bw, ets_local.tc_bw, DCBX_NTC);
	assert_memory_equal(out.ets.prio_tc, ets_local.prio_tc, DCBX_NPRIO);
	assert_int_equal(out.app_why, DCBX_WHY_ADOPTED);
	assert_int_equal(out.app.n, 2);

	/* The switch, hearing the host advertise what it took: agreed. */
	host.pfc.enable = out.pfc.enable;
	dcbx_negotiate(&sw, mac_lo, &host, mac_hi, &out);
	assert_true(out.pfc_agreed);
	assert_int_equal(out.pfc_why, DCBX_WHY_AGREED);
}

/* ------------------------------------------------------------------ */
/* Name tables */

static void test_names(void **state)
{
	const char *seen[DCBX_WHY_PEER_CANNOT + 1];

	(void)state;
	for (int w = DCBX_WHY_AGREED; w <= DCBX_WHY_PEER_CANNOT; w++) {
		seen[w] = dcbx_why_name((enum dcbx_why)w);
		assert_string_not_equal(seen[w], "?");
		for (int j = 0; j < w; j++)
			assert_string_not_equal(seen[j], seen[w]);
	}
	assert_string_equal(dcbx_why_name(DCBX_WHY_CEE), "peer speaks CEE");
	assert_string_equal(dcbx_why_name((enum dcbx_why)99), "?");

	for (int s = DCBX_APP_ETHERTYPE; s <= DCBX_APP_DSCP; s++)
		assert_int_equal(
		    dcbx_app_sel_parse(dcbx_app_sel_name((uint8_t)s)), s);
	assert_string_equal(dcbx_app_sel_name(DCBX_APP_DSCP), "dscp");
	assert_string_equal(dcbx_app_sel_name(DCBX_APP_UDP), "udp");
	assert_string_equal(dcbx_app_sel_name(0), "?");
	assert_string_equal(dcbx_app_sel_name(6), "?");
	assert_int_equal(dcbx_app_sel_parse("?"), -1);
	assert_int_equal(dcbx_app_sel_parse("DSCP"), -1);
	assert_int_equal(dcbx_app_sel_parse(NULL), -1);

	assert_string_equal(dcbx_tsa_name(DCBX_TSA_STRICT), "strict");
	assert_string_equal(dcbx_tsa_name(DCBX_TSA_CBS), "cbs");
	assert_string_equal(dcbx_tsa_name(DCBX_TSA_ETS), "ets");
	assert_string_equal(dcbx_tsa_name(DCBX_TSA_VENDOR), "vendor");
	assert_string_equal(dcbx_tsa_name(3), "reserved");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_pfc_table),
	    cmocka_unit_test(test_pfc_table_complete),
	    cmocka_unit_test(test_pfc_null_macs),
	    cmocka_unit_test(test_ets_table),
	    cmocka_unit_test(test_ets_table_complete),
	    cmocka_unit_test(test_app),
	    cmocka_unit_test(test_app_full),
	    cmocka_unit_test(test_app_unwilling),
	    cmocka_unit_test(test_pfc_peer_cannot),
	    cmocka_unit_test(test_cee_peer),
	    cmocka_unit_test(test_advertise),
	    cmocka_unit_test(test_roced_ends),
	    cmocka_unit_test(test_switch_host),
	    cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
