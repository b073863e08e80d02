/* lldp_fixtures: test_lldp's hand-written LLDPDUs: a switch port's, laid
 * out byte by byte from 802.1AB and 802.1Qaz with what each byte means,
 * and the malformed ones, each with the reason the decoder must give (a
 * part of it). M3 is the three mandatory TLVs (20 bytes), so that the
 * offsets in the reasons read "at byte 20". */
#ifndef ROCED_TEST_LLDP_FIXTURES_H
#define ROCED_TEST_LLDP_FIXTURES_H

#include <stddef.h>
#include <stdint.h>

/* clang-format off */

/* A switch port's LLDPDU, written by hand from 802.1AB clause 8 and
 * 802.1Qaz clause D.2 (the field layouts), with every TLV roced sends. */
static const uint8_t fx_switch[] = {
	/* Chassis ID: type 1, length 7, subtype 4 (MAC) 02:00:00:00:00:01 */
	0x02, 0x07, 0x04, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01,
	/* Port ID: type 2, length 5, subtype 5 (interface name) "swp1" */
	0x04, 0x05, 0x05, 's', 'w', 'p', '1',
	/* Time To Live: type 3, length 2, 121 s */
	0x06, 0x02, 0x00, 0x79,
	/* Port Description: type 4, length 7, "to host" */
	0x08, 0x07, 't', 'o', ' ', 'h', 'o', 's', 't',
	/* System Name: type 5, length 3, "sw1" */
	0x0a, 0x03, 's', 'w', '1',
	/* System Description: type 6, length 5, "roced" */
	0x0c, 0x05, 'r', 'o', 'c', 'e', 'd',
	/* System Capabilities: type 7, length 4, bridge + router, both on */
	0x0e, 0x04, 0x00, 0x14, 0x00, 0x14,
	/* Management Address: type 8, length 12: address string length 5,
	 * family 1 (IPv4) 192.0.2.1, ifIndex numbering (2) 3, no OID */
	0x10, 0x0c, 0x05, 0x01, 0xc0, 0x00, 0x02, 0x01, 0x02, 0x00, 0x00, 0x00,
	0x03, 0x00,
	/* ETS Configuration: type 127, length 25, OUI 00-80-C2 subtype 9;
	 * not willing, no CBS, max TCs 0 (= 8); priority 3 -> TC 3, the
	 * others TC 0; TC 0 and TC 3 50 %; TSA ETS on TC 0 and 3 */
	0xfe, 0x19, 0x00, 0x80, 0xc2, 0x09, 0x00, 0x00, 0x03, 0x00, 0x00, 0x32,
	0x00, 0x00, 0x32, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x02, 0x00,
	0x00, 0x00, 0x00,
	/* ETS Recommendation: subtype 10, a reserved byte, the same table */
	0xfe, 0x19, 0x00, 0x80, 0xc2, 0x0a, 0x00, 0x00, 0x03, 0x00, 0x00, 0x32,
	0x00, 0x00, 0x32, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x02, 0x00,
	0x00, 0x00, 0x00,
	/* PFC Configuration: subtype 11; not willing, no MBC, cap 8; PFC on
	 * priority 3 */
	0xfe, 0x06, 0x00, 0x80, 0xc2, 0x0b, 0x08, 0x08,
	/* Application Priority: subtype 12, a reserved byte; priority 3
	 * selector 5 (DSCP) 26; priority 3 selector 3 (UDP) 4791 */
	0xfe, 0x0b, 0x00, 0x80, 0xc2, 0x0c, 0x00, 0x65, 0x00, 0x1a, 0x63, 0x12,
	0xb7,
	/* End of LLDPDU */
	0x00, 0x00,
};

/* lldp_print of fx_switch. */
static const char fx_switch_text[] =
    "Chassis ID: mac 02:00:00:00:00:01\n"
    "Port ID: ifname swp1\n"
    "Time To Live: 121\n"
    "Port Description: to host\n"
    "System Name: sw1\n"
    "System Description: roced\n"
    "System Capabilities: bridge (on), router (on)\n"
    "Management Address: ipv4 192.0.2.1, interface 3 (numbering 2)\n"
    "ETS Configuration: willing no, cbs no, max TCs 8, priority->TC 0 0 0 "
    "3 0 0 0 0, bandwidth 50 0 0 50 0 0 0 0, TSA ets strict strict ets "
    "strict strict strict strict\n"
    "ETS Recommendation: priority->TC 0 0 0 3 0 0 0 0, bandwidth 50 0 0 50 "
    "0 0 0 0, TSA ets strict strict ets strict strict strict strict\n"
    "PFC Configuration: willing no, mbc no, cap 8, enabled 3\n"
    "Application Priority: dscp 26 -> 3, udp 4791 -> 3\n";

/* Chassis ID MAC 02:00:00:00:00:02, Port ID ifname "eth0", TTL 120. */
#define MANDATORY \
	0x02, 0x07, 0x04, 0x02, 0x00, 0x00, 0x00, 0x00, 0x02, \
	0x04, 0x05, 0x05, 'e', 't', 'h', '0', \
	0x06, 0x02, 0x00, 0x78
#define M3 MANDATORY

/* Malformed: what is wrong is in the table below. */
static const uint8_t bad_hdr_cut[] = {
	0x02,
};
static const uint8_t bad_past_end[] = {
	0x02, 0x07, 0x04, 0x02, 0x00,
};
static const uint8_t bad_first[] = {
	0x04, 0x02, 0x05, 'x',
};
static const uint8_t bad_second[] = {
	0x02, 0x02, 0x04, 0x01, 0x06, 0x02, 0x00, 0x78,
};
static const uint8_t bad_third[] = {
	0x02, 0x02, 0x04, 0x01, 0x04, 0x02, 0x05, 'x', 0x0a, 0x01, 'n',
};
static const uint8_t bad_no_ttl[] = {
	0x02, 0x02, 0x04, 0x01, 0x04, 0x02, 0x05, 'x', 0x00, 0x00,
};
static const uint8_t bad_chassis_len[] = {
	0x02, 0x01, 0x04, 0x04, 0x02, 0x05, 'x', 0x06, 0x02, 0x00, 0x78,
};
static const uint8_t bad_port_len0[] = {
	0x02, 0x02, 0x04, 0x01, 0x04, 0x00, 0x06, 0x02, 0x00, 0x78,
};
static const uint8_t bad_ttl_len[] = {
	0x02, 0x02, 0x04, 0x01, 0x04, 0x02, 0x05, 'x', 0x06, 0x03, 0x00, 0x78,
	0,
};
static const uint8_t bad_end_len[] = {
	M3, 0x00, 0x01, 0x00,
};
static const uint8_t bad_chassis_twice[] = {
	M3, 0x02, 0x02, 0x04, 0x01,
};
static const uint8_t bad_ttl_twice[] = {
	M3, 0x06, 0x02, 0x00, 0x01,
};
static const uint8_t bad_caps_len[] = {
	M3, 0x0e, 0x03, 0x00, 0x14, 0x00,
};
static const uint8_t bad_desc_long[] = {
	M3, 0x0c, 0xff,
};
static const uint8_t bad_mgmt_short[] = {
	M3, 0x10, 0x08, 0x02, 0x06, 0x01, 0x02, 0x00, 0x00, 0x00, 0x00,
};
static const uint8_t bad_mgmt_alen[] = {
	M3, 0x10, 0x09, 0x01, 0x01, 0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00,
};
static const uint8_t bad_mgmt_alen_big[] = {
	M3, 0x10, 0x09, 0x21, 0x01, 0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00,
};
static const uint8_t bad_mgmt_room[] = {
	M3, 0x10, 0x09, 0x05, 0x01, 0xc0, 0x00, 0x02, 0x01, 0x02, 0x00, 0x00,
};
static const uint8_t bad_mgmt_oid[] = {
	M3, 0x10, 0x0c, 0x05, 0x01, 0xc0, 0x00, 0x02, 0x01, 0x02, 0x00, 0x00,
	0x00, 0x03, 0x01,
};
static const uint8_t bad_org_short[] = {
	M3, 0xfe, 0x03, 0x00, 0x80, 0xc2,
};
static const uint8_t bad_ets_short[] = {
	M3, 0xfe, 0x18, 0x00, 0x80, 0xc2, 0x09, 0x00, 0x00, 0x03, 0x00, 0x00,
	0x32, 0x00, 0x00, 0x32, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x02,
	0x00, 0x00, 0x00,
};
static const uint8_t bad_ets_tc[] = {
	M3, 0xfe, 0x19, 0x00, 0x80, 0xc2, 0x09, 0x00, 0x00, 0x09, 0x00, 0x00,
	0x32, 0x00, 0x00, 0x32, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x02,
	0x00, 0x00, 0x00, 0x00,
};
static const uint8_t bad_etsrec_tc[] = {
	M3, 0xfe, 0x19, 0x00, 0x80, 0xc2, 0x0a, 0x00, 0x00, 0x00, 0x00, 0xf0,
	0x32, 0x00, 0x00, 0x32, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x02,
	0x00, 0x00, 0x00, 0x00,
};
static const uint8_t bad_pfc_len[] = {
	M3, 0xfe, 0x07, 0x00, 0x80, 0xc2, 0x0b, 0x08, 0x08, 0x00,
};
static const uint8_t bad_pfc_twice[] = {
	M3, 0xfe, 0x06, 0x00, 0x80, 0xc2, 0x0b, 0x08, 0x08, 0xfe, 0x06, 0x00,
	0x80, 0xc2, 0x0b, 0x08, 0x00,
};
static const uint8_t bad_app_empty[] = {
	M3, 0xfe, 0x04, 0x00, 0x80, 0xc2, 0x0c,
};
static const uint8_t bad_app_len[] = {
	M3, 0xfe, 0x07, 0x00, 0x80, 0xc2, 0x0c, 0x00, 0x65, 0x00,
};
static const uint8_t bad_app_dscp[] = {
	M3, 0xfe, 0x08, 0x00, 0x80, 0xc2, 0x0c, 0x00, 0x65, 0x00, 0x40,
};
static const uint8_t bad_cee_hdr[] = {
	M3, 0xfe, 0x05, 0x00, 0x1b, 0x21, 0x02, 0x02,
};
static const uint8_t bad_cee_past[] = {
	M3, 0xfe, 0x07, 0x00, 0x1b, 0x21, 0x02, 0x02, 0x0a, 0x00,
};
static const uint8_t bad_cee_ctrl[] = {
	M3, 0xfe, 0x0f, 0x00, 0x1b, 0x21, 0x02, 0x02, 0x09, 0, 0, 0,
	0, 0, 0, 0, 0, 0,
};
static const uint8_t bad_cee_pg[] = {
	M3, 0xfe, 0x0a, 0x00, 0x1b, 0x21, 0x02, 0x04, 0x04, 0, 0, 0xc0,
	0,
};
static const uint8_t bad_cee_pfc[] = {
	M3, 0xfe, 0x0b, 0x00, 0x1b, 0x21, 0x02, 0x06, 0x05, 0, 0, 0xc0,
	0, 0x08,
};
static const uint8_t bad_cee_app[] = {
	M3, 0xfe, 0x0d, 0x00, 0x1b, 0x21, 0x02, 0x08, 0x07, 0, 0, 0xc0,
	0, 0x12, 0xb7, 0x01,
};
static const uint8_t bad_cee_app_hdr[] = {
	M3, 0xfe, 0x08, 0x00, 0x1b, 0x21, 0x02, 0x08, 0x02, 0, 0,
};
static const uint8_t bad_cee_twice[] = {
	M3, 0xfe, 0x14, 0x00, 0x1b, 0x21, 0x02, 0x06, 0x06, 0, 0, 0,
	0, 0x08, 0x08, 0x06, 0x06, 0, 0, 0, 0, 0x08, 0x08,
};
static const uint8_t bad_cin_pg[] = {
	M3, 0xfe, 0x0a, 0x00, 0x1b, 0x21, 0x01, 0x04, 0x04, 0, 0, 0x80,
	0,
};
static const uint8_t bad_cee_and_cin[] = {
	M3, 0xfe, 0x04, 0x00, 0x1b, 0x21, 0x02, 0xfe, 0x04, 0x00, 0x1b, 0x21,
	0x01,
};

static const struct bad {
	const char *name;
	const uint8_t *b;
	size_t n;
	const char *why; /* a part of the reason */
} bads[] = {
#define BAD(x, w) {#x, x, sizeof(x), w}
	{"empty", NULL, 0, "no Chassis ID TLV"},
	BAD(bad_hdr_cut, "TLV header cut off at byte 0"),
	BAD(bad_past_end, "length 7 past the end (3 bytes left)"),
	BAD(bad_first, "TLV 1 is type 2 (Port ID), expected Chassis ID"),
	BAD(bad_second, "TLV 2 is type 3 (Time To Live), expected Port ID"),
	BAD(bad_third, "TLV 3 is type 5 (System Name), expected Time To Live"),
	BAD(bad_no_ttl, "no Time To Live TLV"),
	BAD(bad_chassis_len, "Chassis ID TLV at byte 0: length 1, expected "
	                     "2..256"),
	BAD(bad_port_len0, "Port ID TLV at byte 4: length 0"),
	BAD(bad_ttl_len, "Time To Live TLV at byte 8: length 3, expected 2..2"),
	BAD(bad_end_len, "End of LLDPDU TLV at byte 20 with length 1"),
	BAD(bad_chassis_twice, "a second Chassis ID TLV at byte 20"),
	BAD(bad_ttl_twice, "a second Time To Live TLV"),
	BAD(bad_caps_len, "System Capabilities TLV at byte 20: length 3"),
	BAD(bad_desc_long, "length 255 past the end (0 bytes left)"),
	BAD(bad_mgmt_short, "Management Address TLV at byte 20: length 8, "
	                    "expected 9..167"),
	BAD(bad_mgmt_alen, "address string length 1 (2..32)"),
	BAD(bad_mgmt_alen_big, "address string length 33 (2..32)"),
	BAD(bad_mgmt_room, "leaves no room for the interface number"),
	BAD(bad_mgmt_oid, "OID length 1 does not end the TLV"),
	BAD(bad_org_short, "shorter than OUI and subtype"),
	BAD(bad_ets_short, "ETS Configuration TLV at byte 20: length 20, "
	                   "expected 21..21"),
	BAD(bad_ets_tc, "priority 3 assigned to traffic class 9 (0..7)"),
	BAD(bad_etsrec_tc, "ETS Recommendation TLV at byte 20: priority 6 "
	                   "assigned to traffic class 15"),
	BAD(bad_pfc_len, "PFC Configuration TLV at byte 20: length 3"),
	BAD(bad_pfc_twice, "a second PFC Configuration TLV at byte 28"),
	BAD(bad_app_empty, "Application Priority TLV at byte 20: length 0, "
	                   "expected 1..505"),
	BAD(bad_app_len, "2 bytes of entries, not a multiple of 3"),
	BAD(bad_app_dscp, "entry 1: DSCP 64 (0..63)"),
	BAD(bad_cee_hdr, "CEE DCBX TLV at byte 20: sub-TLV header cut off"),
	BAD(bad_cee_past, "sub-TLV type 1 at byte 0: length 10 past the end"),
	BAD(bad_cee_ctrl, "control sub-TLV of 9 bytes (10)"),
	BAD(bad_cee_pg, "priority group sub-TLV of 4 bytes (at least 17)"),
	BAD(bad_cee_pfc, "PFC sub-TLV of 5 bytes (at least 6)"),
	BAD(bad_cee_app, "application sub-TLV: 3 bytes of entries"),
	BAD(bad_cee_app_hdr, "application sub-TLV of 2 bytes (at least 4)"),
	BAD(bad_cee_twice, "a second sub-TLV of type 3"),
	BAD(bad_cin_pg, "CIN DCBX TLV at byte 20: priority group sub-TLV of 4 "
	                "bytes (at least 28)"),
	BAD(bad_cee_and_cin, "both CEE and CIN DCBX TLVs"),
#undef BAD
};

/* clang-format on */

#endif
