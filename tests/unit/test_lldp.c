/* test_lldp: the LLDPDU codec (lib/proto/lldp.c, lldp_qaz.c, lldp_cee.c)
 * on hand-written LLDPDUs laid out as 802.1AB and 802.1Qaz describe them,
 * on LLDPDUs captured from lldpd and lldpad (tests/fixtures/lldp/, see
 * tests/tools/capture-lldp-fixtures.sh; lldpad's DCBX TLVs are laid out
 * by hand, as it refuses DCBX on veth), on legacy CEE/CIN TLVs built by
 * hand, and on every way a frame can be malformed. Every decode runs on
 * an exact-size heap copy so that the sanitizers see any read past it. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/strbuf.h"
#include "hexfix.h"
#include "lldp_fixtures.h"
#include "proto/lldp.h"

static char err[256];

static int decode(const uint8_t *b, size_t n, struct lldp_pdu *pdu)
{
	uint8_t *copy = malloc(n ? n : 1);
	int rc;

	assert_non_null(copy);
	if (n)
		memcpy(copy, b, n);
	rc = lldp_decode(copy, n, pdu, err, sizeof(err));
	free(copy);
	return rc;
}

/* ------------------------------------------------------------------ */
static void check_switch(const struct lldp_pdu *p)
{
	static const uint8_t mac[6] = {2, 0, 0, 0, 0, 1};
	static const uint8_t prio_tc[8] = {0, 0, 0, 3, 0, 0, 0, 0};
	static const uint8_t bw[8] = {50, 0, 0, 50, 0, 0, 0, 0};
	static const uint8_t tsa[8] = {2, 0, 0, 2, 0, 0, 0, 0};

	assert_int_equal(p->chassis.subtype, LLDP_CHASSIS_MAC);
	assert_int_equal(p->chassis.len, 6);
	assert_memory_equal(p->chassis.v, mac, 6);
	assert_int_equal(p->port.subtype, LLDP_PORT_IFNAME);
	assert_int_equal(p->port.len, 4);
	assert_memory_equal(p->port.v, "swp1", 4);
	assert_int_equal(p->ttl, 121);
	assert_string_equal(p->port_desc, "to host");
	assert_string_equal(p->sys_name, "sw1");
	assert_string_equal(p->sys_desc, "roced");
	assert_true(p->has_caps);
	assert_int_equal(p->caps_sys, 0x14);
	assert_int_equal(p->caps_enabled, 0x14);
	assert_true(p->has_mgmt);
	assert_int_equal(p->mgmt_subtype, 1);
	assert_int_equal(p->mgmt_len, 4);
	assert_memory_equal(p->mgmt, "\xc0\x00\x02\x01", 4);
	assert_int_equal(p->mgmt_if_subtype, 2);
	assert_int_equal(p->mgmt_ifnum, 3);

	assert_true(p->dcbx.has_ets_cfg);
	assert_false(p->dcbx.ets_cfg.willing);
	assert_false(p->dcbx.ets_cfg.cbs);
	assert_int_equal(p->dcbx.ets_cfg.max_tcs, 8);
	assert_memory_equal(p->dcbx.ets_cfg.prio_tc, prio_tc, 8);
	assert_memory_equal(p->dcbx.ets_cfg.tc_bw, bw, 8);
	assert_memory_equal(p->dcbx.ets_cfg.tsa, tsa, 8);
	assert_true(p->dcbx.has_ets_rec);
	assert_memory_equal(p->dcbx.ets_rec.prio_tc, prio_tc, 8);
	assert_memory_equal(p->dcbx.ets_rec.tc_bw, bw, 8);
	assert_memory_equal(p->dcbx.ets_rec.tsa, tsa, 8);
	assert_true(p->dcbx.has_pfc);
	assert_false(p->dcbx.pfc.willing);
	assert_false(p->dcbx.pfc.mbc);
	assert_int_equal(p->dcbx.pfc.cap, 8);
	assert_int_equal(p->dcbx.pfc.enable, 0x08);
	assert_true(p->dcbx.has_app);
	assert_int_equal(p->dcbx.app.n, 2);
	assert_int_equal(p->dcbx.app.v[0].prio, 3);
	assert_int_equal(p->dcbx.app.v[0].selector, DCBX_APP_DSCP);
	assert_int_equal(p->dcbx.app.v[0].protocol, 26);
	assert_int_equal(p->dcbx.app.v[1].prio, 3);
	assert_int_equal(p->dcbx.app.v[1].selector, DCBX_APP_UDP);
	assert_int_equal(p->dcbx.app.v[1].protocol, 4791);
	assert_false(p->dcbx.cee);
	assert_int_equal(p->nunknown, 0);
}

static void test_switch_decode(void **state)
{
	struct lldp_pdu p;

	(void)state;
	assert_int_equal(decode(fx_switch, sizeof(fx_switch), &p), 0);
	assert_string_equal(err, "");
	check_switch(&p);
}

/* Decode then encode gives the same bytes; encode then decode the same
 * values. */
static void test_switch_round_trip(void **state)
{
	struct lldp_pdu p, q;
	uint8_t buf[LLDP_PDU_MAX];
	int n;

	(void)state;
	assert_int_equal(decode(fx_switch, sizeof(fx_switch), &p), 0);
	n = lldp_encode(&p, buf, sizeof(buf));
	assert_int_equal(n, sizeof(fx_switch));
	assert_memory_equal(buf, fx_switch, sizeof(fx_switch));
	assert_int_equal(decode(buf, (size_t)n, &q), 0);
	assert_memory_equal(&p, &q, sizeof(p));
}

static void test_switch_print(void **state)
{
	struct lldp_pdu p;
	struct strbuf sb;

	(void)state;
	assert_int_equal(decode(fx_switch, sizeof(fx_switch), &p), 0);
	strbuf_init(&sb);
	lldp_print(&p, &sb);
	assert_string_equal(strbuf_str(&sb), fx_switch_text);
	strbuf_free(&sb);
}

/* Ethernet pads a short frame with zeros; they read as End. And the End
 * TLV may be left out (802.1AB-2009). */
static void test_padding_and_no_end(void **state)
{
	uint8_t b[64] = {0};
	struct lldp_pdu p;

	(void)state;
	memcpy(b, fx_switch, 20); /* chassis, port, TTL */
	assert_int_equal(decode(b, sizeof(b), &p), 0);
	assert_int_equal(p.ttl, 121);
	assert_int_equal(decode(b, 20, &p), 0);
	assert_int_equal(p.ttl, 121);
}

/* ------------------------------------------------------------------ */
/* lldpd's LLDPDUs (captured; tests/tools/capture-lldp-fixtures.sh) */

static void test_lldpd_capture(void **state)
{
	uint8_t b[LLDP_PDU_MAX], enc[LLDP_PDU_MAX];
	struct lldp_pdu p, q;
	size_t n;
	int m;

	(void)state;
	/* lldpd 1.0.16 with custom TLVs: PFC on 3, ETS 50/50, APP. */
	n = hexfix_msg("lldp", "lldpd", 0, b, sizeof(b));
	assert_int_equal(decode(b, n, &p), 0);
	assert_int_equal(p.chassis.subtype, LLDP_CHASSIS_MAC);
	assert_memory_equal(p.chassis.v, "\x02\x00\x00\x00\x00\x0a", 6);
	assert_int_equal(p.port.subtype, 3); /* lldpd: the port's MAC */
	assert_int_equal(p.ttl, 4);          /* tx-interval 1 s x hold 4 */
	assert_string_equal(p.sys_name, "fixture-sw");
	assert_string_equal(p.sys_desc, "roced fixture capture");
	assert_string_equal(p.port_desc, "lf0");
	assert_true(p.has_mgmt);
	assert_int_equal(p.mgmt_subtype, 2); /* IPv6 link-local */
	assert_int_equal(p.mgmt_len, 16);
	assert_true(p.dcbx.has_pfc);
	assert_int_equal(p.dcbx.pfc.enable, 0x08);
	assert_int_equal(p.dcbx.pfc.cap, 8);
	assert_false(p.dcbx.pfc.willing);
	assert_true(p.dcbx.has_ets_cfg);
	assert_int_equal(p.dcbx.ets_cfg.tc_bw[0], 50);
	assert_int_equal(p.dcbx.ets_cfg.tc_bw[3], 50);
	assert_int_equal(p.dcbx.ets_cfg.prio_tc[3], 3);
	assert_false(p.dcbx.has_ets_rec);
	assert_int_equal(p.dcbx.app.n, 2);
	assert_int_equal(p.dcbx.app.v[0].protocol, 26);
	assert_int_equal(p.dcbx.app.v[1].protocol, 4791);
	/* 802.3 MAC/PHY and link aggregation (OUI 00-12-0F): unknown. */
	assert_int_equal(p.nunknown, 2);
	assert_int_equal(p.unknown[0].type, 127);
	assert_memory_equal(p.unknown[0].oui, "\x00\x12\x0f", 3);
	assert_int_equal(p.unknown[0].subtype, 3);
	assert_int_equal(p.unknown[0].len, 9);
	assert_int_equal(p.unknown[1].subtype, 1);

	/* Re-encoded: what roced knows survives; the unknown TLVs are not
	 * sent on (and the OID-less management address is the same). */
	m = lldp_encode(&p, enc, sizeof(enc));
	assert_true(m > 0);
	assert_int_equal(decode(enc, (size_t)m, &q), 0);
	assert_int_equal(q.nunknown, 0);
	q.nunknown = p.nunknown;
	memcpy(q.unknown, p.unknown, sizeof(q.unknown));
	assert_memory_equal(&p, &q, sizeof(p));
	/* Its size: lldpd's, less the two unknown TLVs (11 bytes each). */
	assert_int_equal((size_t)m, n - 2 * 11);

	/* lldpd's shutdown LLDPDU. */
	n = hexfix_msg("lldp", "lldpd", 1, b, sizeof(b));
	assert_int_equal(decode(b, n, &p), 0);
	assert_int_equal(p.ttl, 0);
	assert_false(p.dcbx.has_pfc);
}

/* lldpad's LLDPDUs: 1 and 2 captured, 3 with its DCBX TLVs laid out by
 * hand (lldpad refuses DCBX on veth; tests/fixtures/lldp/lldpad.hex). */
static void test_lldpad_capture(void **state)
{
	uint8_t b[LLDP_PDU_MAX], enc[LLDP_PDU_MAX];
	struct lldp_pdu p, q;
	size_t n;
	int m;

	(void)state;
	n = hexfix_msg("lldp", "lldpad", 0, b, sizeof(b));
	assert_int_equal(decode(b, n, &p), 0);
	assert_int_equal(p.chassis.subtype, LLDP_CHASSIS_MAC);
	assert_int_equal(p.port.subtype, 3);
	assert_int_equal(p.ttl, 120);
	assert_string_equal(p.port_desc, "Interface   3 as lf0");
	assert_string_equal(p.sys_name, "fixture-host");
	assert_true(p.has_caps);
	assert_int_equal(p.caps_sys, 0x80); /* station only */
	assert_false(p.dcbx.has_pfc || p.dcbx.has_ets_cfg || p.dcbx.has_app);
	assert_int_equal(p.nunknown, 0);
	/* Everything in it is known: it encodes back to the same bytes. */
	m = lldp_encode(&p, enc, sizeof(enc));
	assert_int_equal(m, (int)n);
	assert_memory_equal(enc, b, n);

	/* The shutdown LLDPDU, padding and all. */
	n = hexfix_msg("lldp", "lldpad", 1, b, sizeof(b));
	assert_int_equal(decode(b, n, &p), 0);
	assert_int_equal(p.ttl, 0);

	/* lldpad's defaults: willing ETS and PFC, PFC off, APP empty. */
	n = hexfix_msg("lldp", "lldpad", 2, b, sizeof(b));
	assert_int_equal(decode(b, n, &p), 0);
	assert_true(p.dcbx.has_ets_cfg);
	assert_true(p.dcbx.ets_cfg.willing);
	assert_int_equal(p.dcbx.ets_cfg.max_tcs, 8);
	assert_int_equal(p.dcbx.ets_cfg.tc_bw[0], 100);
	assert_int_equal(p.dcbx.ets_cfg.tsa[0], DCBX_TSA_ETS);
	assert_true(p.dcbx.has_pfc);
	assert_true(p.dcbx.pfc.willing);
	assert_int_equal(p.dcbx.pfc.cap, 8);
	assert_int_equal(p.dcbx.pfc.enable, 0);
	assert_true(p.dcbx.has_app);
	assert_int_equal(p.dcbx.app.n, 0);
	m = lldp_encode(&p, enc, sizeof(enc));
	assert_int_equal(m, (int)n);
	assert_memory_equal(enc, b, n);
	assert_int_equal(decode(enc, (size_t)m, &q), 0);
	assert_memory_equal(&p, &q, sizeof(p));
}

/* A NUL inside a text TLV is kept with what follows it: the PDU keeps
 * the TLV's length, so show can print it escaped and hide nothing. */
static void test_text_nul(void **state)
{
	uint8_t b[64];
	struct lldp_pdu p;

	(void)state;
	memcpy(b, fx_switch, 20);
	memcpy(b + 20, "\x0a\x05sw\0x1\x00\x00", 9);
	assert_int_equal(decode(b, 29, &p), 0);
	assert_int_equal(p.sys_name_len, 5);
	assert_memory_equal(p.sys_name, "sw\0x1", 6);
	assert_int_equal(lldp_text_len(p.sys_name, p.sys_name_len), 5);
}

/* ------------------------------------------------------------------ */
static void test_cee(void **state)
{
	uint8_t b[LLDP_PDU_MAX], enc[LLDP_PDU_MAX];
	int m;
	struct lldp_pdu p;
	struct strbuf sb;
	size_t n = hexfix_msg("lldp", "legacy", 0, b, sizeof(b));

	(void)state;
	assert_int_equal(decode(b, n, &p), 0);
	assert_true(p.dcbx.cee);
	assert_false(p.dcbx.has_pfc); /* IEEE TLVs: none */
	assert_true(p.cee.present);
	assert_false(p.cee.cin);
	assert_true(p.cee.has_ctrl);
	assert_int_equal(p.cee.seq, 5);
	assert_int_equal(p.cee.ack, 4);
	assert_true(p.cee.pg.present && p.cee.pg.enable && p.cee.pg.willing);
	assert_false(p.cee.pg.error);
	assert_int_equal(p.cee.pg_id[3], 1);
	assert_int_equal(p.cee.pg_id[2], 0);
	assert_int_equal(p.cee.pg_pct[0], 50);
	assert_int_equal(p.cee.pg_pct[1], 50);
	assert_int_equal(p.cee.pg_num_tcs, 8);
	assert_true(p.cee.pfc.present && p.cee.pfc.willing);
	assert_int_equal(p.cee.pfc_enable, 0x08);
	assert_int_equal(p.cee.pfc_num_tcs, 8);
	assert_int_equal(p.cee.napp, 1);
	assert_int_equal(p.cee.apps[0].sel, 1);
	assert_int_equal(p.cee.apps[0].protocol, 4791);
	assert_memory_equal(p.cee.apps[0].oui, "\x00\x1b\x21", 3);
	assert_int_equal(p.cee.apps[0].up_map, 0x08);
	assert_int_equal(p.nunknown, 0);

	strbuf_init(&sb);
	lldp_print(&p, &sb);
	assert_non_null(strstr(strbuf_str(&sb),
	                       "CEE DCBX: peer speaks CEE, version 0/0, seq 5, "
	                       "ack 4\n  PG: version 0/0, enable yes, willing "
	                       "yes, error no, priority->PG 0 0 0 1 0 0 0 0, "
	                       "bandwidth 50 50 0 0 0 0 0 0, TCs 8\n  PFC: "));
	assert_non_null(strstr(strbuf_str(&sb),
	                       "enabled 3, TCs 8\n  APP: version 0/0, enable "
	                       "yes, willing yes, error no, port 4791 -> "
	                       "priorities 0x08\n"));
	strbuf_free(&sb);

	/* Never sent: roced speaks IEEE. */
	m = lldp_encode(&p, enc, sizeof(enc));
	assert_true(m > 0);
	assert_int_equal(decode(enc, (size_t)m, &p), 0);
	assert_false(p.dcbx.cee);
}

/* A CEE switch's values as IEEE ones, and a willing host taking them. */
static void test_cee_to_dcbx(void **state)
{
	static const uint8_t sw_mac[6] = {2, 0, 0, 0, 0, 2};
	static const uint8_t host_mac[6] = {2, 0, 0, 0, 0, 9};
	static const uint8_t prio_tc[8] = {0, 0, 0, 1, 0, 0, 0, 0};
	static const uint8_t bw[8] = {50, 50, 0, 0, 0, 0, 0, 0};
	static const uint8_t tsa[8] = {2, 2, 0, 0, 0, 0, 0, 0};
	uint8_t b[LLDP_PDU_MAX];
	struct dcbx_tlvs peer, host = {0};
	struct dcbx_oper out;
	struct lldp_pdu p;
	size_t n = hexfix_msg("lldp", "legacy", 0, b, sizeof(b));

	(void)state;
	assert_int_equal(decode(b, n, &p), 0);
	lldp_cee_to_dcbx(&p.cee, &peer);
	assert_true(peer.cee);
	assert_true(peer.has_pfc);
	assert_true(peer.pfc.willing);
	assert_int_equal(peer.pfc.enable, 0x08);
	assert_int_equal(peer.pfc.cap, 8);
	assert_true(peer.has_ets_cfg && peer.has_ets_rec);
	assert_true(peer.ets_cfg.willing);
	assert_int_equal(peer.ets_cfg.max_tcs, 8);
	assert_memory_equal(peer.ets_cfg.prio_tc, prio_tc, 8);
	assert_memory_equal(peer.ets_cfg.tc_bw, bw, 8);
	assert_memory_equal(peer.ets_cfg.tsa, tsa, 8);
	assert_memory_equal(peer.ets_rec.tc_bw, bw, 8);
	assert_false(peer.ets_rec.willing);
	assert_true(peer.has_app);
	assert_int_equal(peer.app.n, 1);
	assert_int_equal(peer.app.v[0].prio, 3);
	assert_int_equal(peer.app.v[0].selector, DCBX_APP_PORT);
	assert_int_equal(peer.app.v[0].protocol, 4791);

	/* A willing host takes the (not willing) switch's PFC, ETS and
	 * APP. */
	peer.pfc.willing = false;
	host.has_pfc = host.has_ets_cfg = true;
	host.pfc = (struct dcbx_pfc){.willing = true, .cap = 8};
	host.ets_cfg = (struct dcbx_ets){.willing = true, .tc_bw = {100}};
	dcbx_negotiate(&host, host_mac, &peer, sw_mac, &out);
	assert_int_equal(out.pfc_why, DCBX_WHY_ADOPTED);
	assert_true(out.pfc_agreed);
	assert_int_equal(out.pfc.enable, 0x08);
	assert_int_equal(out.ets_why, DCBX_WHY_ADOPTED);
	assert_memory_equal(out.ets.tc_bw, bw, 8);
	assert_int_equal(out.app_why, DCBX_WHY_ADOPTED);

	/* PG 15 (strict): the highest TC no group uses; a reserved PG id
	 * (8..14) likewise. */
	p.cee.pg_id[5] = 15;
	p.cee.pg_id[6] = 9;
	lldp_cee_to_dcbx(&p.cee, &peer);
	assert_int_equal(peer.ets_cfg.prio_tc[5], 7);
	assert_int_equal(peer.ets_cfg.prio_tc[6], 7);
	assert_int_equal(peer.ets_cfg.tsa[7], DCBX_TSA_STRICT);
	p.cee.pg_id[7] = 7;
	lldp_cee_to_dcbx(&p.cee, &peer);
	assert_int_equal(peer.ets_cfg.prio_tc[5], 6);
	assert_int_equal(peer.ets_cfg.tsa[7], DCBX_TSA_ETS);

	/* A feature the switch turned off is not there: "peer speaks CEE". */
	p.cee.pfc.enable = false;
	p.cee.app.enable = false;
	p.cee.pg.enable = false;
	lldp_cee_to_dcbx(&p.cee, &peer);
	assert_true(peer.cee);
	assert_false(peer.has_pfc || peer.has_ets_cfg || peer.has_app);
	dcbx_negotiate(&host, host_mac, &peer, sw_mac, &out);
	assert_int_equal(out.pfc_why, DCBX_WHY_CEE);
	assert_false(out.pfc_agreed);

	/* CIN: PFC only. */
	n = hexfix_msg("lldp", "legacy", 1, b, sizeof(b));
	assert_int_equal(decode(b, n, &p), 0);
	lldp_cee_to_dcbx(&p.cee, &peer);
	assert_true(peer.has_pfc);
	assert_int_equal(peer.pfc.enable, 0x08);
	assert_false(peer.has_ets_cfg || peer.has_app);

	/* No legacy TLV: nothing. */
	assert_int_equal(decode(fx_switch, sizeof(fx_switch), &p), 0);
	lldp_cee_to_dcbx(&p.cee, &peer);
	assert_false(peer.cee || peer.has_pfc);
}

static void test_cin(void **state)
{
	uint8_t b[LLDP_PDU_MAX];
	struct lldp_pdu p;
	struct strbuf sb;
	size_t n = hexfix_msg("lldp", "legacy", 1, b, sizeof(b));

	(void)state;
	assert_int_equal(decode(b, n, &p), 0);
	assert_true(p.dcbx.cee);
	assert_true(p.cee.cin);
	assert_int_equal(p.cee.seq, 1);
	assert_true(p.cee.pfc.present && p.cee.pfc.enable);
	assert_false(p.cee.pfc.willing);
	assert_int_equal(p.cee.pfc_enable, 0x08);
	assert_false(p.cee.pg.present);
	assert_int_equal(p.cee.nother, 1);
	strbuf_init(&sb);
	lldp_print(&p, &sb);
	assert_non_null(strstr(strbuf_str(&sb), "CIN DCBX: peer speaks CIN"));
	assert_non_null(strstr(strbuf_str(&sb), "1 other sub-TLVs"));
	strbuf_free(&sb);
}

/* ------------------------------------------------------------------ */
/* Malformed LLDPDUs (lldp_fixtures.h): each is refused with -EBADMSG and
 * says why */

static void test_malformed(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		struct lldp_pdu p;
		int rc = decode(bads[i].b, bads[i].n, &p);

		if (rc != -EBADMSG || !strstr(err, bads[i].why))
			fail_msg("%s: rc %d, \"%s\"; expected -EBADMSG, \"%s\"",
			         bads[i].name, rc, err, bads[i].why);
	}
}

/* Every prefix and every one-byte change of a full LLDPDU decodes or is
 * refused; nothing is read past the buffer (the sanitizers watch), and a
 * refusal always says why. */
static void test_cut_and_flip(void **state)
{
	uint8_t b[sizeof(fx_switch)];
	struct lldp_pdu p;

	(void)state;
	for (size_t n = 0; n <= sizeof(fx_switch); n++) {
		int rc = decode(fx_switch, n, &p);

		assert_true(rc == 0 || rc == -EBADMSG);
		assert_true(rc == 0 || err[0] != '\0');
	}
	for (size_t i = 0; i < sizeof(fx_switch); i++)
		for (int bit = 0; bit < 8; bit++) {
			int rc;

			memcpy(b, fx_switch, sizeof(b));
			b[i] ^= (uint8_t)(1u << bit);
			rc = decode(b, sizeof(b), &p);
			assert_true(rc == 0 || rc == -EBADMSG);
			assert_true(rc == 0 || err[0] != '\0');
		}
}

/* ------------------------------------------------------------------ */
/* Unknown TLVs: counted and kept, never an error */

static void test_unknown(void **state)
{
	uint8_t b[LLDP_PDU_MAX];
	struct lldp_pdu p;
	size_t n = 0;
	struct strbuf sb;

	(void)state;
	memcpy(b, fx_switch, 20);
	n = 20;
	/* 20 reserved TLVs of types 9..28, 1 byte each */
	for (uint8_t t = 9; t < 29; t++) {
		b[n++] = (uint8_t)(t << 1);
		b[n++] = 1;
		b[n++] = t;
	}
	/* an 802.1 TLV of another subtype (VLAN name, 3), and another
	 * OUI's (802.3 MAC/PHY, 1, cut short) */
	memcpy(b + n, "\xfe\x05\x00\x80\xc2\x03\x07", 7);
	n += 7;
	memcpy(b + n, "\xfe\x04\x00\x12\x0f\x01", 6);
	n += 6;
	b[n++] = 0;
	b[n++] = 0;
	assert_int_equal(decode(b, n, &p), 0);
	assert_int_equal(p.nunknown, 22);
	assert_int_equal(p.unknown[0].type, 9);
	assert_int_equal(p.unknown[0].len, 1);
	assert_int_equal(p.unknown[15].type, 24);
	strbuf_init(&sb);
	lldp_print(&p, &sb);
	assert_non_null(
	    strstr(strbuf_str(&sb), "Unknown TLV: type 9, 1 bytes\n"));
	assert_non_null(strstr(strbuf_str(&sb), "Unknown TLVs: 22 in all\n"));
	strbuf_free(&sb);

	/* The ones that fit the table's 16 entries, with OUI and subtype. */
	n = 20;
	memcpy(b + n, "\xfe\x05\x00\x80\xc2\x03\x07", 7);
	n += 7;
	assert_int_equal(decode(b, n, &p), 0);
	assert_int_equal(p.nunknown, 1);
	assert_int_equal(p.unknown[0].type, 127);
	assert_memory_equal(p.unknown[0].oui, "\x00\x80\xc2", 3);
	assert_int_equal(p.unknown[0].subtype, 3);
	assert_int_equal(p.unknown[0].len, 5);
	strbuf_init(&sb);
	lldp_print(&p, &sb);
	assert_non_null(strstr(strbuf_str(&sb),
	                       "Unknown TLV: type 127, OUI 00-80-c2, subtype "
	                       "3, 5 bytes\n"));
	strbuf_free(&sb);
}

/* More APP entries than roced keeps: the first DCBX_APP_MAX stand, the
 * rest are counted; the reserved selectors are kept. */
static void test_app_over(void **state)
{
	uint8_t b[LLDP_PDU_MAX];
	struct lldp_pdu p;
	size_t n = 20, len = 1 + 3 * (DCBX_APP_MAX + 6);
	struct strbuf sb;

	(void)state;
	memcpy(b, fx_switch, 20);
	b[n++] = (uint8_t)(0xfe | (len + 4) >> 8);
	b[n++] = (uint8_t)(len + 4);
	memcpy(b + n, "\x00\x80\xc2\x0c\x00", 5);
	n += 5;
	for (int i = 0; i < DCBX_APP_MAX + 6; i++) {
		b[n++] = (uint8_t)(i % 8 << 5 | (i == 0 ? 7 : 3));
		b[n++] = (uint8_t)(i >> 8);
		b[n++] = (uint8_t)i;
	}
	assert_int_equal(decode(b, n, &p), 0);
	assert_int_equal(p.dcbx.app.n, DCBX_APP_MAX);
	assert_int_equal(p.app_over, 6);
	assert_int_equal(p.dcbx.app.v[0].selector, 7);
	assert_int_equal(p.dcbx.app.v[5].prio, 5);
	strbuf_init(&sb);
	lldp_print(&p, &sb);
	assert_non_null(strstr(strbuf_str(&sb),
	                       "Application Priority: selector 7 0 -> 0, udp 1 "
	                       "-> 1"));
	assert_non_null(strstr(strbuf_str(&sb),
	                       "Application Priority: 6 more entries not "
	                       "kept\n"));
	strbuf_free(&sb);
}

/* ------------------------------------------------------------------ */
/* Encode */

/* What a host sends: the smallest LLDPDU plus PFC willing, an EtherType
 * APP entry, a MAC management address and a shutdown TTL. */
static void test_encode_host(void **state)
{
	static const uint8_t want[] = {
	    0x02, 0x07, 0x04, 0x02, 0x00, 0x00, 0x00, 0x00, 0x02, /* chassis */
	    0x04, 0x05, 0x05, 'e',  't',  'h',  '0',              /* port */
	    0x06, 0x02, 0x00, 0x00,                               /* TTL 0 */
	    0x10, 0x0e, 0x07, 0x06, 0x02, 0x00, 0x00, 0x00, 0x00,
	    0x02, 0x02, 0x00, 0x00, 0x00, 0x07, 0x00, /* mgmt: MAC, ifIndex 7 */
	    0xfe, 0x06, 0x00, 0x80, 0xc2, 0x0b, 0xc4, 0x00, /* PFC */
	    0xfe, 0x08, 0x00, 0x80, 0xc2, 0x0c, 0x00, 0x81, 0x89,
	    0x06, 0x00, 0x00,
	};
	static struct lldp_pdu p;
	uint8_t buf[LLDP_PDU_MAX];
	struct strbuf sb;

	(void)state;
	p.chassis = (struct lldp_id){
	    .subtype = LLDP_CHASSIS_MAC, .len = 6, .v = {2, 0, 0, 0, 0, 2}};
	p.port = (struct lldp_id){
	    .subtype = LLDP_PORT_IFNAME, .len = 4, .v = "eth0"};
	p.has_mgmt = true;
	p.mgmt_subtype = 6;
	p.mgmt_len = 6;
	memcpy(p.mgmt, "\x02\x00\x00\x00\x00\x02", 6);
	p.mgmt_if_subtype = 2;
	p.mgmt_ifnum = 7;
	p.dcbx.has_pfc = true;
	p.dcbx.pfc = (struct dcbx_pfc){.willing = true, .mbc = true, .cap = 4};
	p.dcbx.has_app = true;
	p.dcbx.app.n = 1;
	p.dcbx.app.v[0] = (struct dcbx_app){4, DCBX_APP_ETHERTYPE, 0x8906};
	assert_int_equal(lldp_encode(&p, buf, sizeof(buf)), sizeof(want));
	assert_memory_equal(buf, want, sizeof(want));
	strbuf_init(&sb);
	lldp_print(&p, &sb);
	assert_string_equal(strbuf_str(&sb),
	                    "Chassis ID: mac 02:00:00:00:00:02\n"
	                    "Port ID: ifname eth0\n"
	                    "Time To Live: 0 (shutdown)\n"
	                    "Management Address: mac 02:00:00:00:00:02, "
	                    "interface 7 (numbering 2)\n"
	                    "PFC Configuration: willing yes, mbc yes, cap 4, "
	                    "enabled none\n"
	                    "Application Priority: ethertype 0x8906 -> 4\n");
	strbuf_free(&sb);

	/* Every buffer too small: -ENOSPC, never a partial LLDPDU. */
	for (size_t cap = 0; cap < sizeof(want); cap++)
		assert_int_equal(lldp_encode(&p, buf, cap), -ENOSPC);
	/* No chassis or port ID: not an LLDPDU. */
	p.port.len = 0;
	assert_int_equal(lldp_encode(&p, buf, sizeof(buf)), -EINVAL);
}

/* Encode -> decode gives back the values, for a PDU full to the brim. */
static void test_encode_full(void **state)
{
	static struct lldp_pdu p, q;
	uint8_t buf[LLDP_PDU_MAX];
	int n;

	(void)state;
	p.chassis.subtype = 7;
	p.chassis.len = 255;
	memset(p.chassis.v, 'c', 255);
	p.port.subtype = LLDP_PORT_LOCAL;
	p.port.len = 255;
	memset(p.port.v, 'p', 255);
	p.ttl = 65535;
	memset(p.sys_desc, 'd', 255);
	p.sys_desc_len = 255; /* what the decoder says */
	p.has_mgmt = true;
	p.mgmt_subtype = 2;
	p.mgmt_len = 31;
	p.dcbx.has_ets_cfg = p.dcbx.has_ets_rec = true;
	p.dcbx.ets_cfg = (struct dcbx_ets){.willing = true,
	                                   .cbs = true,
	                                   .max_tcs = 3,
	                                   .prio_tc = {7, 6, 5, 4, 3, 2, 1, 0},
	                                   .tc_bw = {1, 2, 3, 4, 5, 6, 7, 72},
	                                   .tsa = {0, 1, 2, 255, 0, 1, 2, 3}};
	p.dcbx.ets_rec = p.dcbx.ets_cfg;
	p.dcbx.ets_rec.willing = p.dcbx.ets_rec.cbs = false;
	p.dcbx.ets_rec.max_tcs = 0; /* not on the wire */
	p.dcbx.has_pfc = true;
	p.dcbx.pfc = (struct dcbx_pfc){.cap = 8, .enable = 0xff};
	p.dcbx.has_app = true;
	p.dcbx.app.n = DCBX_APP_MAX;
	for (int i = 0; i < DCBX_APP_MAX; i++)
		p.dcbx.app.v[i] = (struct dcbx_app){
		    (uint8_t)(i % 8), (uint8_t)(i % 5 + 1), (uint16_t)(i % 64)};
	n = lldp_encode(&p, buf, sizeof(buf));
	assert_true(n > 0 && n <= LLDP_PDU_MAX);
	assert_int_equal(decode(buf, (size_t)n, &q), 0);
	assert_memory_equal(&p, &q, sizeof(p));
}

static void test_tlv_names(void **state)
{
	(void)state;
	assert_string_equal(lldp_tlv_name(1, NULL, 0), "Chassis ID");
	assert_string_equal(lldp_tlv_name(0, NULL, 0), "End of LLDPDU");
	assert_string_equal(lldp_tlv_name(8, NULL, 0), "Management Address");
	assert_string_equal(
	    lldp_tlv_name(127, (const uint8_t *)"\x00\x80\xc2", 11),
	    "PFC Configuration");
	assert_string_equal(
	    lldp_tlv_name(127, (const uint8_t *)"\x00\x1b\x21", 2), "CEE DCBX");
	assert_string_equal(lldp_tlv_name(127, NULL, 0),
	                    "Organizationally Specific");
	assert_string_equal(
	    lldp_tlv_name(127, (const uint8_t *)"\x00\x12\x0f", 1), "unknown");
	assert_string_equal(lldp_tlv_name(42, NULL, 0), "unknown");
}

/* IDs as lldpd and NX-OS print them: MACs, names, else hex. */
static void test_id_format(void **state)
{
	struct lldp_id id = {.subtype = LLDP_CHASSIS_MAC,
	                     .len = 6,
	                     .v = {0x52, 0x54, 0x00, 0x0a, 0xbc, 0xde}};
	char buf[64];

	(void)state;
	lldp_id_format(&id, false, buf, sizeof(buf));
	assert_string_equal(buf, "52:54:00:0a:bc:de");
	id.subtype = LLDP_PORT_MAC;
	lldp_id_format(&id, true, buf, sizeof(buf));
	assert_string_equal(buf, "52:54:00:0a:bc:de");
	/* a MAC subtype of the other TLV is not a MAC: bytes */
	lldp_id_format(&id, false, buf, sizeof(buf));
	assert_string_equal(buf, "52:54:00:0a:bc:de");
	id.subtype = LLDP_PORT_IFNAME;
	id.len = 4;
	memcpy(id.v, "swp1", 4);
	lldp_id_format(&id, true, buf, sizeof(buf));
	assert_string_equal(buf, "swp1");
	/* hex, cut short to the buffer */
	id.len = 3;
	memcpy(id.v, "\x01\x02\xff", 3);
	lldp_id_format(&id, true, buf, sizeof(buf));
	assert_string_equal(buf, "01:02:ff");
	lldp_id_format(&id, true, buf, 6);
	assert_string_equal(buf, "01:02");
}

/* NX-OS's Capability column and its legend from the System
 * Capabilities bits (802.1AB Table 8-4). */
static void test_caps_letters(void **state)
{
	char buf[16];
	struct strbuf sb;

	(void)state;
	lldp_caps_letters(0x14, buf, sizeof(buf)); /* the switch fixture */
	assert_string_equal(buf, "BR");
	lldp_caps_letters(0x80, buf, sizeof(buf)); /* lldpad on a host */
	assert_string_equal(buf, "S");
	lldp_caps_letters(0, buf, sizeof(buf));
	assert_string_equal(buf, "");
	/* every bit: O P B W R T C S, no letter for C-VLAN, S-VLAN, TPMR
	 * and the reserved bits */
	lldp_caps_letters(0xffff, buf, sizeof(buf));
	assert_string_equal(buf, "OPBWRTCS");
	lldp_caps_letters(0x0700, buf, sizeof(buf));
	assert_string_equal(buf, "");
	/* cut to the room there is */
	lldp_caps_letters(0xffff, buf, 3);
	assert_string_equal(buf, "OP");
	strbuf_init(&sb);
	lldp_caps_legend(&sb);
	assert_string_equal(strbuf_str(&sb),
	                    "Capability codes:\n"
	                    "  (R) Router, (B) Bridge, (T) Telephone, (C) "
	                    "DOCSIS Cable Device\n"
	                    "  (W) WLAN Access Point, (P) Repeater, (S) "
	                    "Station, (O) Other\n");
	strbuf_free(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_switch_decode),
	    cmocka_unit_test(test_caps_letters),
	    cmocka_unit_test(test_switch_round_trip),
	    cmocka_unit_test(test_switch_print),
	    cmocka_unit_test(test_padding_and_no_end),
	    cmocka_unit_test(test_lldpd_capture),
	    cmocka_unit_test(test_lldpad_capture),
	    cmocka_unit_test(test_text_nul),
	    cmocka_unit_test(test_cee),
	    cmocka_unit_test(test_cin),
	    cmocka_unit_test(test_cee_to_dcbx),
	    cmocka_unit_test(test_malformed),
	    cmocka_unit_test(test_cut_and_flip),
	    cmocka_unit_test(test_unknown),
	    cmocka_unit_test(test_app_over),
	    cmocka_unit_test(test_encode_host),
	    cmocka_unit_test(test_encode_full),
	    cmocka_unit_test(test_tlv_names),
	    cmocka_unit_test(test_id_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
