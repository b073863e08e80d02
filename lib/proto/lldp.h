/* lldp: the IEEE 802.1AB LLDPDU codec. Pure: no I/O, no globals.
 *
 * decode: bounds-checked; any TLV that does not fit, a missing mandatory
 * TLV or a mandatory TLV out of order makes the whole LLDPDU malformed
 * (-EBADMSG with the reason in ERR), as 802.1AB 9.2.7.7 asks; unknown
 * TLVs (types 9-126, organisationally specific TLVs of other OUIs or
 * subtypes) are counted, kept as opaque entries, never an error.
 * Details of the rules:
 *   - the End TLV may be left out (802.1AB-2009), and Ethernet padding
 *     reads as End; an End TLV with a length is malformed;
 *   - a second Chassis ID, Port ID, TTL, DCBX or Maximum Frame Size
 *     TLV is malformed (a negotiation or a link's MTU check must not
 *     guess which one counts); of the other basic TLVs the first one
 *     stands;
 *   - a known TLV with a length outside its bounds, an ETS priority
 *     mapped to a TC above 7, an APP DSCP above 63 are malformed; values
 *     the standard reserves (TSA 3-254, APP selectors 0, 6, 7) are kept;
 *   - a NUL inside a text TLV ends the text.
 * encode: the same table, the other way, in its order (mandatory TLVs,
 * basic ones, ETS Configuration, ETS Recommendation, PFC, APP, 802.3
 * Maximum Frame Size, roced's PFC wait chains, End);
 * legacy CEE/CIN and unknown TLVs are never sent.
 */
#ifndef ROCED_LLDP_H
#define ROCED_LLDP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "proto/dcbx.h"
#include "proto/pfcdl.h"

#define LLDP_ETHERTYPE 0x88cc
/* Nearest-bridge group address. */
#define LLDP_MAC_NEAREST_BRIDGE                                                \
	{                                                                      \
		0x01, 0x80, 0xc2, 0x00, 0x00, 0x0e                             \
	}
/* An LLDPDU in a 1500-byte frame. */
#define LLDP_PDU_MAX 1500

/* Chassis ID / Port ID: a subtype and up to 255 bytes. */
struct lldp_id {
	uint8_t subtype;
	uint8_t len;
	uint8_t v[255];
};

/* Chassis ID subtypes used here: MAC address 4, locally assigned 7;
 * Port ID subtypes: interface name 5, MAC address 3, locally assigned 7. */
#define LLDP_CHASSIS_MAC 4
#define LLDP_PORT_MAC    3
#define LLDP_PORT_IFNAME 5
#define LLDP_PORT_LOCAL  7

/* An unknown TLV kept opaque (the first LLDP_UNKNOWN_MAX of them). */
struct lldp_unknown {
	uint8_t type;
	uint8_t oui[3];  /* type 127 only */
	uint8_t subtype; /* type 127 only */
	uint16_t len;    /* information length on the wire */
};
#define LLDP_UNKNOWN_MAX 16

/* Legacy DCBX as seen from a peer (decoded for show, never sent): CEE
 * (DCBX 1.01, OUI 00-1B-21 subtype 2) or CIN (DCBX 1.0, subtype 1). Each
 * feature sub-TLV carries its own versions and flags. */
struct lldp_cee_feat {
	bool present;
	uint8_t oper_version, max_version;
	bool enable, willing, error;
	uint8_t subtype;
};

/* One CEE application entry: a priority bitmap per protocol. */
struct lldp_cee_app {
	uint8_t sel; /* 0 EtherType, 1 TCP/UDP port */
	uint16_t protocol;
	uint8_t oui[3]; /* the 6+16 OUI bits, selector bits cleared */
	uint8_t up_map; /* bit n: priority n */
};
#define LLDP_CEE_APP_MAX 16

struct lldp_cee {
	bool present;
	bool cin; /* subtype 1 (DCBX 1.0, "CIN"), else CEE */
	bool has_ctrl;
	uint8_t oper_version, max_version;
	uint32_t seq, ack;
	struct lldp_cee_feat pg, pfc, app;
	/* PG: priority group of each priority (CEE; CIN: its BWG id), the
	 * percentage of each group, how many TCs the port has (CEE only). */
	uint8_t pg_id[DCBX_NPRIO];
	uint8_t pg_pct[DCBX_NTC];
	uint8_t pg_num_tcs;
	/* PFC: admin bitmap (bit n: priority n), TCs (CEE only). */
	uint8_t pfc_enable;
	uint8_t pfc_num_tcs;
	unsigned napp; /* every entry, even past LLDP_CEE_APP_MAX */
	struct lldp_cee_app apps[LLDP_CEE_APP_MAX];
	unsigned nother; /* sub-TLVs of other types (BCN, logical link) */
};

struct lldp_pdu {
	struct lldp_id chassis, port;
	uint16_t ttl; /* 0: shutdown LLDPDU */
	/* Optional TLVs; empty string / false when absent. The text TLVs
	 * keep every byte the peer sent, NUL too: their *_len is the TLV's
	 * length (0: up to the first NUL, for a PDU built by snprintf). */
	char port_desc[256], sys_name[256], sys_desc[256];
	uint8_t port_desc_len, sys_name_len, sys_desc_len;
	bool has_caps;
	uint16_t caps_sys, caps_enabled;
	bool has_mgmt;
	uint8_t mgmt_subtype; /* IANA address family: 1 IPv4, 2 IPv6, 6 MAC */
	uint8_t mgmt_len;
	uint8_t mgmt[31];
	uint8_t mgmt_if_subtype; /* 2 ifIndex */
	uint32_t mgmt_ifnum;
	struct dcbx_tlvs dcbx;
	/* IEEE 802.3 Maximum Frame Size: the largest frame the port takes
	 * (header and FCS included), what a link's MTU check needs. */
	bool has_max_frame;
	uint16_t max_frame;
	/* APP entries past DCBX_APP_MAX (received; not kept). */
	unsigned app_over;
	struct lldp_cee cee; /* dcbx.cee says whether it is there */
	/* roced's PFC wait chains (pfcdl.h): sent only while the port's
	 * node waits on a held port that this port feeds. */
	struct pfcdl_tlv pfcdl;
	unsigned nunknown; /* every unknown TLV, even past LLDP_UNKNOWN_MAX */
	struct lldp_unknown unknown[LLDP_UNKNOWN_MAX];
};

/* Decode the LLDPDU at BUF (the frame after its Ethernet header). Returns
 * 0, or -EBADMSG with the reason in ERR. */
int lldp_decode(const uint8_t *buf, size_t len, struct lldp_pdu *out, char *err,
                size_t errlen);
/* Encode PDU (its DCBX TLVs as PDU->dcbx.has_* say) into BUF. Returns the
 * length, -ENOSPC (nothing partial is left to send) or -EINVAL (an empty
 * chassis or port ID). */
int lldp_encode(const struct lldp_pdu *pdu, uint8_t *buf, size_t cap);
/* Append a text rendering of PDU to SB, one TLV per line (show, `debug
 * dcbx`), in the order and with the names of the TLV table. */
void lldp_print(const struct lldp_pdu *pdu, struct strbuf *sb);
/* What a legacy (CEE or CIN) peer asks for, as IEEE values, so that a
 * willing port can take a CEE switch's configuration through
 * dcbx_negotiate (roced does not send CEE: the switch never takes ours).
 * PFC: the feature's willing bit and admin bitmap, when the feature is
 * enabled. CEE priority groups become ETS Configuration and, since a
 * willing CEE port takes its peer's groups, an ETS Recommendation too:
 * PG n is TC n with its percentage under ETS; the priorities of PG 15
 * (CEE's strict priority) go to the highest TC no group uses, strict.
 * APP: one entry per application at the lowest priority of its map
 * (EtherType, or selector 4 for CEE's TCP/UDP port). OUT->cee is set;
 * what CEE did not say stays absent (has_* false). */
void lldp_cee_to_dcbx(const struct lldp_cee *cee, struct dcbx_tlvs *out);
/* A Chassis ID or Port ID as text, the way lldpd and NX-OS print it: a
 * MAC address (chassis subtype 4, port subtype 3) as aa:bb:cc:dd:ee:ff,
 * a printable name as it is, anything else as colon-separated hex. */
void lldp_id_format(const struct lldp_id *id, bool is_port, char *buf,
                    size_t len);
/* The length of a text TLV of the PDU (S one of its three strings, LEN
 * its *_len). Print it only through escape_add (base/escape.h): it is
 * the peer's bytes. */
size_t lldp_text_len(const char *s, uint8_t len);
/* System Capabilities as NX-OS's `show lldp neighbors` writes them: the
 * letter of each bit set in CAPS, in bit order ("BR" for bridge and
 * router); bits without a letter are left out. */
void lldp_caps_letters(uint16_t caps, char *buf, size_t len);
/* The legend of those letters, NX-OS's two lines under a heading. */
void lldp_caps_legend(struct strbuf *sb);
/* Room for a short ID's text (longer ones are cut). */
#define LLDP_ID_TEXT_MAX 64
/* The name of a TLV: "Chassis ID", "PFC Configuration", ...; OUI and
 * SUBTYPE matter for type 127 only. "unknown" when the table lacks it. */
const char *lldp_tlv_name(uint8_t type, const uint8_t oui[3], uint8_t subtype);

#endif
