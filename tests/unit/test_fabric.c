/* Unit tests of the fabric checks (plan/fabric.h): a matching pair says
 * nothing; each mismatch kind is found alone, with its port and detail;
 * a willing peer that takes ours is no mismatch; a peer without a
 * Maximum Frame Size is not judged on MTU; a PFC port whose neighbour
 * sends no PFC TLV, or that hears no neighbour, is a lossy end.
 * And the 802.3 Maximum Frame Size TLV the MTU rule reads: decoded,
 * encoded, bounds-checked. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "plan/fabric.h"
#include "proto/lldp.h"

static const uint8_t mac_lo[6] = {0x02, 0, 0, 0, 0, 0x01};
static const uint8_t mac_hi[6] = {0x02, 0, 0, 0, 0, 0x02};

/* One end's TLVs as roced sends them for the lossless RoCE mode: PFC on
 * 3, not willing; APP DSCP 26 -> 3 and 48 -> 6. */
static void roce_tlvs(struct dcbx_tlvs *t, uint8_t pfc, unsigned roce_prio)
{
	memset(t, 0, sizeof(*t));
	t->has_pfc = true;
	t->pfc.cap = 8;
	t->pfc.enable = pfc;
	t->has_app = true;
	t->app.v[0] = (struct dcbx_app){.prio = (uint8_t)roce_prio,
	                                .selector = DCBX_APP_DSCP,
	                                .protocol = 26};
	t->app.v[1] = (struct dcbx_app){
	    .prio = 6, .selector = DCBX_APP_DSCP, .protocol = 48};
	t->app.n = 2;
}

static void link_pair(struct fabric_link *l)
{
	memset(l, 0, sizeof(*l));
	strcpy(l->ifname, "swp1");
	memcpy(l->local_mac, mac_lo, 6);
	roce_tlvs(&l->local, 1u << 3, 3);
	l->local_pfc = 1u << 3;
	l->class_mtu = 9216;
	l->has_peer = true;
	memcpy(l->peer_mac, mac_hi, 6);
	roce_tlvs(&l->peer, 1u << 3, 3);
	l->peer_max_frame = 9216 + 18;
}

static struct fabric_list check(const struct fabric_link *l, int want)
{
	struct fabric_list out = {0};

	assert_int_equal(fabric_check(l, &out), want);
	assert_int_equal(out.n, (size_t)want);
	return out;
}

static void want_one(const struct fabric_link *l, enum fabric_kind kind,
                     const char *needle)
{
	struct fabric_list out = check(l, 1);

	assert_string_equal(out.v[0].port, "swp1");
	assert_int_equal(out.v[0].kind, kind);
	assert_non_null(strstr(out.v[0].detail, needle));
	fabric_list_free(&out);
}

static void test_matching_pair(void **state)
{
	struct fabric_link l;
	struct fabric_list out;

	(void)state;
	link_pair(&l);
	out = check(&l, 0);
	fabric_list_free(&out);
	/* no neighbour where roced does not listen (LLDP receive off, the
	 * carrier down): nothing to compare */
	l.has_peer = false;
	out = check(&l, 0);
	fabric_list_free(&out);
}

/* The lossy ends: PFC here and a neighbour that says nothing of pause. */
static void test_silent_peer(void **state)
{
	struct fabric_link l;
	struct fabric_list out;

	(void)state;
	/* LLDP without any DCBX TLV */
	link_pair(&l);
	memset(&l.peer, 0, sizeof(l.peer));
	want_one(&l, FABRIC_NO_DCBX,
	         "priority 3 here and the neighbour "
	         "sends LLDP without DCBX");
	/* DCBX (APP only) without a PFC TLV */
	link_pair(&l);
	l.peer.has_pfc = false;
	want_one(&l, FABRIC_NO_DCBX, "DCBX has no PFC TLV");
	/* a legacy CEE peer runs DCBX: not flagged */
	memset(&l.peer, 0, sizeof(l.peer));
	l.peer_cee = true;
	out = check(&l, 0);
	fabric_list_free(&out);
	/* no PFC here: a silent peer loses nothing */
	link_pair(&l);
	memset(&l.peer, 0, sizeof(l.peer));
	l.local_pfc = 0;
	out = check(&l, 0);
	fabric_list_free(&out);
	/* nobody heard on a port that listens */
	link_pair(&l);
	l.has_peer = false;
	l.listening = true;
	want_one(&l, FABRIC_NO_LLDP, "no LLDP neighbour is heard");
	l.local_pfc = 0;
	out = check(&l, 0);
	fabric_list_free(&out);
}

static void test_pfc_one_end(void **state)
{
	struct fabric_link l;

	(void)state;
	link_pair(&l);
	l.peer.pfc.enable = 0;
	/* ours runs by mode on, whatever DCBX says: one end only */
	want_one(&l, FABRIC_PFC_ONE_END, "PFC on priority 3 at this end only");
	/* mode auto left ours off while the peer pauses */
	link_pair(&l);
	l.local_pfc = 0;
	want_one(&l, FABRIC_PFC_ONE_END, "at the peer only");
	/* a superset at the peer: the extra priority is one end's */
	link_pair(&l);
	l.peer.pfc.enable = (1u << 3) | (1u << 4);
	want_one(&l, FABRIC_PFC_ONE_END, "PFC on priority 4 at the peer");
}

static void test_pfc_priorities(void **state)
{
	struct fabric_link l;

	(void)state;
	link_pair(&l);
	l.peer.pfc.enable = 1u << 4;
	want_one(&l, FABRIC_PFC_PRIORITIES, "here 3, peer 4");
}

/* A willing peer takes ours (802.1Qaz): what it advertises is not what it
 * runs, and it is no mismatch. */
static void test_peer_willing(void **state)
{
	struct fabric_link l;
	struct fabric_list out;
	struct dcbx_oper po;

	(void)state;
	link_pair(&l);
	l.peer.pfc.enable = 1u << 4;
	l.peer.pfc.willing = true;
	assert_true(fabric_peer_oper(&l, &po));
	assert_int_equal(po.pfc.enable, 1u << 3);
	out = check(&l, 0);
	fabric_list_free(&out);
	/* without DCBX TLVs there is no outcome to judge: only the silence
	 * itself is (no-dcbx) */
	memset(&l.peer, 0, sizeof(l.peer));
	assert_false(fabric_peer_oper(&l, &po));
	want_one(&l, FABRIC_NO_DCBX, "without DCBX");
}

static void test_app_roce(void **state)
{
	struct fabric_link l;
	struct fabric_list out;

	(void)state;
	link_pair(&l);
	l.peer.app.v[0].prio = 5;
	want_one(&l, FABRIC_APP_ROCE, "maps dscp 26 to priority 5");
	/* UDP 4791 (selector 3 and 4) is RoCE too */
	link_pair(&l);
	l.peer.app.v[2] = (struct dcbx_app){
	    .prio = 4, .selector = DCBX_APP_UDP, .protocol = 4791};
	l.peer.app.n = 3;
	want_one(&l, FABRIC_APP_ROCE, "udp 4791 to priority 4");
	/* this end's RoCE priority from UDP 4791 when it has no DSCP 26 */
	l.local.app.v[0] = (struct dcbx_app){
	    .prio = 4, .selector = DCBX_APP_PORT, .protocol = 4791};
	assert_int_equal(fabric_roce_prio(&l.local), 4);
	l.peer.app.v[0].prio = 4;
	out = check(&l, 0);
	fabric_list_free(&out);
}

static void test_mtu(void **state)
{
	struct fabric_link l;
	struct fabric_list out;

	(void)state;
	link_pair(&l);
	l.peer_max_frame = 1518;
	want_one(&l, FABRIC_MTU, "at most 1518 bytes");
	/* counted without FCS, a matching peer is not short */
	l.peer_max_frame = 9216 + 14;
	out = check(&l, 0);
	fabric_list_free(&out);
	/* not sent, or no class MTU here: not judged */
	l.peer_max_frame = 0;
	out = check(&l, 0);
	fabric_list_free(&out);
	l.peer_max_frame = 1518;
	l.class_mtu = 0;
	out = check(&l, 0);
	fabric_list_free(&out);
}

static void test_all_kinds(void **state)
{
	struct fabric_link l;
	struct fabric_list out;

	(void)state;
	link_pair(&l);
	l.peer.pfc.enable = 1u << 4;
	l.peer.app.v[0].prio = 4;
	l.peer_max_frame = 1522;
	out = check(&l, 3);
	assert_int_equal(out.v[0].kind, FABRIC_PFC_PRIORITIES);
	assert_int_equal(out.v[1].kind, FABRIC_APP_ROCE);
	assert_int_equal(out.v[2].kind, FABRIC_MTU);
	/* appended */
	assert_int_equal(fabric_check(&l, &out), 3);
	assert_int_equal(out.n, 6);
	fabric_list_free(&out);
	for (unsigned k = 0; k < FABRIC_NKINDS; k++)
		assert_int_equal(
		    fabric_kind_parse(fabric_kind_name((enum fabric_kind)k)),
		    (int)k);
	assert_int_equal(fabric_kind_parse("nope"), -1);
}

/* ---- 802.3 Maximum Frame Size ---- */

/* Chassis ID (MAC 02:00:00:00:00:01), Port ID "p1", TTL 120, then
 *   fe 06                 type 127, length 6
 *   00 12 0f 04           OUI 00-12-0F (IEEE 802.3), subtype 4
 *   24 12                 Maximum Frame Size 9234
 * and End. */
static const uint8_t mfs_pdu[] = {
    0x02, 0x07, 0x04, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x04,
    0x03, 0x05, 'p',  '1',  0x06, 0x02, 0x00, 0x78, 0xfe, 0x06,
    0x00, 0x12, 0x0f, 0x04, 0x24, 0x12, 0x00, 0x00,
};

static void test_mfs_tlv(void **state)
{
	struct lldp_pdu pdu, back;
	uint8_t buf[256], bad[sizeof(mfs_pdu)];
	char err[160];
	int n;

	(void)state;
	assert_int_equal(
	    lldp_decode(mfs_pdu, sizeof(mfs_pdu), &pdu, err, sizeof(err)), 0);
	assert_true(pdu.has_max_frame);
	assert_int_equal(pdu.max_frame, 9234);
	assert_int_equal(pdu.nunknown, 0);
	n = lldp_encode(&pdu, buf, sizeof(buf));
	assert_int_equal(n, (int)sizeof(mfs_pdu));
	assert_memory_equal(buf, mfs_pdu, sizeof(mfs_pdu));
	assert_int_equal(lldp_decode(buf, (size_t)n, &back, err, sizeof(err)),
	                 0);
	assert_int_equal(back.max_frame, 9234);
	/* 3 bytes of value instead of 2: malformed, said where */
	memcpy(bad, mfs_pdu, sizeof(bad));
	bad[19] = 0x07;
	assert_int_equal(lldp_decode(bad, sizeof(bad), &pdu, err, sizeof(err)),
	                 -EBADMSG);
	assert_non_null(strstr(err, "Maximum Frame Size"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_matching_pair),
	    cmocka_unit_test(test_silent_peer),
	    cmocka_unit_test(test_pfc_one_end),
	    cmocka_unit_test(test_pfc_priorities),
	    cmocka_unit_test(test_peer_willing),
	    cmocka_unit_test(test_app_roce),
	    cmocka_unit_test(test_mtu),
	    cmocka_unit_test(test_all_kinds),
	    cmocka_unit_test(test_mfs_tlv),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
