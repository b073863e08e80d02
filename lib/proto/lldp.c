/* lldp: the LLDPDU codec (see lldp.h). One table, lldp_tlvs[], names every
 * TLV this codec knows with its length bounds and the functions that
 * decode, encode and print it; the loops below only walk it. The basic
 * 802.1AB TLVs are here, the 802.1Qaz ones in lldp_qaz.c and legacy DCBX
 * in lldp_cee.c. */
#include "proto/lldp.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/escape.h"
#include "base/strbuf.h"
#include "proto/lldp_int.h"

/* ------------------------------------------------------------------ */
/* Chassis ID and Port ID: a subtype and 1..255 bytes */

/* Subtype names of 802.1AB Table 8-2 (chassis) and 8-3 (port); printed
 * only, so a table per kind and no parser. */
static const char *const lldp_chassis_sub_names[] = {
    [1] = "chassis-component",
    [2] = "ifalias",
    [3] = "port-component",
    [4] = "mac",
    [5] = "address",
    [6] = "ifname",
    [7] = "local",
};
static const char *const lldp_port_sub_names[] = {
    [1] = "ifalias", [2] = "port-component", [3] = "mac",   [4] = "address",
    [5] = "ifname",  [6] = "circuit-id",     [7] = "local",
};

static void lldp_id_dec(const uint8_t *info, size_t n, struct lldp_id *id)
{
	id->subtype = info[0];
	id->len = (uint8_t)(n - 1);
	memcpy(id->v, info + 1, n - 1);
}

static int lldp_chassis_dec(const uint8_t *info, size_t n, struct lldp_pdu *pdu,
                            char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	lldp_id_dec(info, n, &pdu->chassis);
	return 0;
}

static int lldp_port_dec(const uint8_t *info, size_t n, struct lldp_pdu *pdu,
                         char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	lldp_id_dec(info, n, &pdu->port);
	return 0;
}

static bool lldp_always(const struct lldp_pdu *pdu)
{
	(void)pdu;
	return true;
}

static void lldp_chassis_enc(const struct lldp_pdu *pdu, struct lldp_wbuf *w)
{
	lldp_put8(w, pdu->chassis.subtype);
	lldp_put(w, pdu->chassis.v, pdu->chassis.len);
}

static void lldp_port_enc(const struct lldp_pdu *pdu, struct lldp_wbuf *w)
{
	lldp_put8(w, pdu->port.subtype);
	lldp_put(w, pdu->port.v, pdu->port.len);
}

static void lldp_hex(struct strbuf *sb, const uint8_t *v, size_t n, char sep)
{
	for (size_t i = 0; i < n; i++) {
		if (i && sep)
			strbuf_add(sb, &sep, 1);
		strbuf_printf(sb, "%02x", v[i]);
	}
}

/* A MAC as a MAC, text as text (quoted when it has spaces), else hex. */
static void lldp_id_print(const struct lldp_id *id, const char *const *names,
                          size_t nnames, unsigned mac_sub, struct strbuf *sb)
{
	bool text = id->len > 0;

	if (id->subtype < nnames && names[id->subtype])
		strbuf_printf(sb, "%s ", names[id->subtype]);
	else
		strbuf_printf(sb, "subtype %u ", id->subtype);
	if (id->subtype == mac_sub && id->len == 6) {
		lldp_hex(sb, id->v, 6, ':');
		return;
	}
	for (size_t i = 0; i < id->len; i++)
		if (id->v[i] < 0x20 || id->v[i] >= 0x7f)
			text = false;
	if (text)
		strbuf_printf(sb, "%.*s", (int)id->len, (const char *)id->v);
	else
		lldp_hex(sb, id->v, id->len, ':');
}

static void lldp_chassis_print(const struct lldp_pdu *pdu, struct strbuf *sb)
{
	lldp_id_print(&pdu->chassis, lldp_chassis_sub_names,
	              sizeof(lldp_chassis_sub_names) /
	                  sizeof(lldp_chassis_sub_names[0]),
	              LLDP_CHASSIS_MAC, sb);
}

static void lldp_port_print(const struct lldp_pdu *pdu, struct strbuf *sb)
{
	lldp_id_print(&pdu->port, lldp_port_sub_names,
	              sizeof(lldp_port_sub_names) /
	                  sizeof(lldp_port_sub_names[0]),
	              3, sb);
}

/* ------------------------------------------------------------------ */
/* Time To Live */

static int lldp_ttl_dec(const uint8_t *info, size_t n, struct lldp_pdu *pdu,
                        char *err, size_t errlen)
{
	(void)n;
	(void)err;
	(void)errlen;
	pdu->ttl = lldp_get16(info);
	return 0;
}

static void lldp_ttl_enc(const struct lldp_pdu *pdu, struct lldp_wbuf *w)
{
	lldp_put16(w, pdu->ttl);
}

static void lldp_ttl_print(const struct lldp_pdu *pdu, struct strbuf *sb)
{
	strbuf_printf(sb, "%u%s", pdu->ttl, pdu->ttl ? "" : " (shutdown)");
}

/* ------------------------------------------------------------------ */
/* Port Description, System Name, System Description: 0..255 bytes of
 * text. The PDU keeps every byte with its length, so that a NUL, a
 * newline or a terminal escape inside is shown (escaped), never hidden
 * nor obeyed. */

static void lldp_str_dec(const uint8_t *info, size_t n, char *dst, uint8_t *len)
{
	if (n > 255)
		n = 255;
	memcpy(dst, info, n);
	dst[n] = '\0';
	*len = (uint8_t)n;
}

size_t lldp_text_len(const char *s, uint8_t len)
{
	return len ? len : strnlen(s, 255);
}

static int lldp_pdesc_dec(const uint8_t *info, size_t n, struct lldp_pdu *pdu,
                          char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	lldp_str_dec(info, n, pdu->port_desc, &pdu->port_desc_len);
	return 0;
}

static int lldp_sname_dec(const uint8_t *info, size_t n, struct lldp_pdu *pdu,
                          char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	lldp_str_dec(info, n, pdu->sys_name, &pdu->sys_name_len);
	return 0;
}

static int lldp_sdesc_dec(const uint8_t *info, size_t n, struct lldp_pdu *pdu,
                          char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	lldp_str_dec(info, n, pdu->sys_desc, &pdu->sys_desc_len);
	return 0;
}

static bool lldp_pdesc_has(const struct lldp_pdu *pdu)
{
	return pdu->port_desc_len || pdu->port_desc[0] != '\0';
}

static bool lldp_sname_has(const struct lldp_pdu *pdu)
{
	return pdu->sys_name_len || pdu->sys_name[0] != '\0';
}

static bool lldp_sdesc_has(const struct lldp_pdu *pdu)
{
	return pdu->sys_desc_len || pdu->sys_desc[0] != '\0';
}

/* The fields are 256 bytes: at most 255 of text, what the TLV holds. */
static void lldp_str_enc(const char *s, uint8_t len, struct lldp_wbuf *w)
{
	lldp_put(w, s, lldp_text_len(s, len));
}

static void lldp_pdesc_enc(const struct lldp_pdu *pdu, struct lldp_wbuf *w)
{
	lldp_str_enc(pdu->port_desc, pdu->port_desc_len, w);
}

static void lldp_sname_enc(const struct lldp_pdu *pdu, struct lldp_wbuf *w)
{
	lldp_str_enc(pdu->sys_name, pdu->sys_name_len, w);
}

static void lldp_sdesc_enc(const struct lldp_pdu *pdu, struct lldp_wbuf *w)
{
	lldp_str_enc(pdu->sys_desc, pdu->sys_desc_len, w);
}

static void lldp_pdesc_print(const struct lldp_pdu *pdu, struct strbuf *sb)
{
	escape_add(sb, pdu->port_desc,
	           lldp_text_len(pdu->port_desc, pdu->port_desc_len),
	           ESCAPE_BACKSLASH);
}

static void lldp_sname_print(const struct lldp_pdu *pdu, struct strbuf *sb)
{
	escape_add(sb, pdu->sys_name,
	           lldp_text_len(pdu->sys_name, pdu->sys_name_len),
	           ESCAPE_BACKSLASH);
}

static void lldp_sdesc_print(const struct lldp_pdu *pdu, struct strbuf *sb)
{
	escape_add(sb, pdu->sys_desc,
	           lldp_text_len(pdu->sys_desc, pdu->sys_desc_len),
	           ESCAPE_BACKSLASH);
}

/* ------------------------------------------------------------------ */
/* System Capabilities: two 16-bit maps */

/* 802.1AB Table 8-4, bit n: the name the decoder's printout uses, and
 * the letter and label of NX-OS's `show lldp neighbors` legend (none for
 * the VLAN and TPMR components, which NX-OS has no letter for). */
static const struct {
	const char *name;
	char letter;
	const char *label;
} lldp_caps[] = {
    {"other", 'O', "Other"},
    {"repeater", 'P', "Repeater"},
    {"bridge", 'B', "Bridge"},
    {"wlan-ap", 'W', "WLAN Access Point"},
    {"router", 'R', "Router"},
    {"telephone", 'T', "Telephone"},
    {"docsis", 'C', "DOCSIS Cable Device"},
    {"station", 'S', "Station"},
    {"cvlan", 0, NULL},
    {"svlan", 0, NULL},
    {"tpmr", 0, NULL},
};
#define LLDP_NCAPS (sizeof(lldp_caps) / sizeof(lldp_caps[0]))

void lldp_caps_letters(uint16_t caps, char *buf, size_t len)
{
	size_t n = 0;

	if (!len)
		return;
	for (unsigned i = 0; i < LLDP_NCAPS && n + 1 < len; i++)
		if ((caps & (1u << i)) && lldp_caps[i].letter)
			buf[n++] = lldp_caps[i].letter;
	buf[n] = '\0';
}

void lldp_caps_legend(struct strbuf *sb)
{
	static const char *const order = "RBTCWPSO";

	/* NX-OS's legend: four codes a line, its order, not the bits'. */
	strbuf_puts(sb, "Capability codes:\n");
	for (size_t k = 0; order[k]; k++) {
		for (size_t i = 0; i < LLDP_NCAPS; i++) {
			if (lldp_caps[i].letter != order[k])
				continue;
			strbuf_printf(sb, "%s(%c) %s", k % 4 ? ", " : "  ",
			              order[k], lldp_caps[i].label);
		}
		if (k % 4 == 3)
			strbuf_puts(sb, "\n");
	}
}

static int lldp_caps_dec(const uint8_t *info, size_t n, struct lldp_pdu *pdu,
                         char *err, size_t errlen)
{
	(void)n;
	(void)err;
	(void)errlen;
	pdu->has_caps = true;
	pdu->caps_sys = lldp_get16(info);
	pdu->caps_enabled = lldp_get16(info + 2);
	return 0;
}

static bool lldp_caps_has(const struct lldp_pdu *pdu)
{
	return pdu->has_caps;
}

static void lldp_caps_enc(const struct lldp_pdu *pdu, struct lldp_wbuf *w)
{
	lldp_put16(w, pdu->caps_sys);
	lldp_put16(w, pdu->caps_enabled);
}

static void lldp_caps_print(const struct lldp_pdu *pdu, struct strbuf *sb)
{
	bool first = true;

	for (unsigned i = 0; i < 16; i++) {
		if (!(pdu->caps_sys & (1u << i)))
			continue;
		if (i < LLDP_NCAPS)
			strbuf_printf(
			    sb, "%s%s%s", first ? "" : ", ", lldp_caps[i].name,
			    pdu->caps_enabled & (1u << i) ? " (on)" : "");
		else
			strbuf_printf(sb, "%sbit %u%s", first ? "" : ", ", i,
			              pdu->caps_enabled & (1u << i) ? " (on)"
			                                            : "");
		first = false;
	}
	if (first)
		strbuf_puts(sb, "none");
}

/* ------------------------------------------------------------------ */
/* Management Address: length of (subtype + address) 2..32, the address,
 * the interface numbering subtype and number, an OID of 0..128 bytes
 * (not kept) */

static int lldp_mgmt_dec(const uint8_t *info, size_t n, struct lldp_pdu *pdu,
                         char *err, size_t errlen)
{
	size_t alen = info[0], oidlen;

	if (alen < 2 || alen > 32)
		return lldp_bad(err, errlen,
		                "address string length %zu (2..32)", alen);
	/* length byte, address string, if subtype, if number, OID length */
	if (1 + alen + 1 + 4 + 1 > n)
		return lldp_bad(
		    err, errlen,
		    "address string of %zu bytes leaves no room for "
		    "the interface number in %zu bytes",
		    alen, n);
	oidlen = info[1 + alen + 5];
	if (oidlen > 128 || 1 + alen + 6 + oidlen != n)
		return lldp_bad(
		    err, errlen,
		    "OID length %zu does not end the TLV (%zu bytes)", oidlen,
		    n);
	pdu->has_mgmt = true;
	pdu->mgmt_subtype = info[1];
	pdu->mgmt_len = (uint8_t)(alen - 1);
	memcpy(pdu->mgmt, info + 2, alen - 1);
	pdu->mgmt_if_subtype = info[1 + alen];
	pdu->mgmt_ifnum = lldp_get32(info + 2 + alen);
	return 0;
}

static bool lldp_mgmt_has(const struct lldp_pdu *pdu)
{
	return pdu->has_mgmt && pdu->mgmt_len >= 1 &&
	       pdu->mgmt_len <= sizeof(pdu->mgmt);
}

static void lldp_mgmt_enc(const struct lldp_pdu *pdu, struct lldp_wbuf *w)
{
	lldp_put8(w, (uint8_t)(pdu->mgmt_len + 1));
	lldp_put8(w, pdu->mgmt_subtype);
	lldp_put(w, pdu->mgmt, pdu->mgmt_len);
	lldp_put8(w, pdu->mgmt_if_subtype);
	lldp_put32(w, pdu->mgmt_ifnum);
	lldp_put8(w, 0); /* no OID */
}

static void lldp_mgmt_print(const struct lldp_pdu *pdu, struct strbuf *sb)
{
	const uint8_t *a = pdu->mgmt;
	char txt[64];

	if (pdu->mgmt_subtype == 1 && pdu->mgmt_len == 4) {
		strbuf_printf(sb, "ipv4 %u.%u.%u.%u", a[0], a[1], a[2], a[3]);
	} else if (pdu->mgmt_subtype == 2 && pdu->mgmt_len == 16) {
		strbuf_puts(sb, "ipv6 ");
		for (int i = 0; i < 16; i += 2) {
			snprintf(txt, sizeof(txt), "%s%x", i ? ":" : "",
			         lldp_get16(a + i));
			strbuf_puts(sb, txt);
		}
	} else if (pdu->mgmt_subtype == 6 && pdu->mgmt_len == 6) {
		strbuf_puts(sb, "mac ");
		lldp_hex(sb, a, 6, ':');
	} else {
		strbuf_printf(sb, "family %u ", pdu->mgmt_subtype);
		lldp_hex(sb, a, pdu->mgmt_len, ':');
	}
	strbuf_printf(sb, ", interface %u (numbering %u)", pdu->mgmt_ifnum,
	              pdu->mgmt_if_subtype);
}

/* ------------------------------------------------------------------ */
/* IEEE 802.3 Maximum Frame Size (OUI 00-12-0F, subtype 4): 2 bytes, the
 * largest frame the port takes, header and FCS included */

static int lldp_mfs_dec(const uint8_t *info, size_t n, struct lldp_pdu *pdu,
                        char *err, size_t errlen)
{
	(void)n;
	(void)err;
	(void)errlen;
	pdu->has_max_frame = true;
	pdu->max_frame = lldp_get16(info);
	return 0;
}

static bool lldp_mfs_has(const struct lldp_pdu *pdu)
{
	return pdu->has_max_frame;
}

static void lldp_mfs_enc(const struct lldp_pdu *pdu, struct lldp_wbuf *w)
{
	lldp_put16(w, pdu->max_frame);
}

static void lldp_mfs_print(const struct lldp_pdu *pdu, struct strbuf *sb)
{
	strbuf_printf(sb, "%u bytes", pdu->max_frame);
}

/* ------------------------------------------------------------------ */
/* The table: encode order, names, bounds */

#define ORG(oui_, sub_) .type = LLDP_TLV_ORG, .oui = oui_, .subtype = (sub_)

static const struct lldp_tlv_row lldp_tlvs[] = {
    {.type = LLDP_TLV_CHASSIS,
     .name = "Chassis ID",
     .min = 2,
     .max = 256,
     .dec = lldp_chassis_dec,
     .has = lldp_always,
     .enc = lldp_chassis_enc,
     .print = lldp_chassis_print},
    {.type = LLDP_TLV_PORT,
     .name = "Port ID",
     .min = 2,
     .max = 256,
     .dec = lldp_port_dec,
     .has = lldp_always,
     .enc = lldp_port_enc,
     .print = lldp_port_print},
    {.type = LLDP_TLV_TTL,
     .name = "Time To Live",
     .min = 2,
     .max = 2,
     .dec = lldp_ttl_dec,
     .has = lldp_always,
     .enc = lldp_ttl_enc,
     .print = lldp_ttl_print},
    {.type = LLDP_TLV_PORT_DESC,
     .name = "Port Description",
     .min = 0,
     .max = 255,
     .dec = lldp_pdesc_dec,
     .has = lldp_pdesc_has,
     .enc = lldp_pdesc_enc,
     .print = lldp_pdesc_print},
    {.type = LLDP_TLV_SYS_NAME,
     .name = "System Name",
     .min = 0,
     .max = 255,
     .dec = lldp_sname_dec,
     .has = lldp_sname_has,
     .enc = lldp_sname_enc,
     .print = lldp_sname_print},
    {.type = LLDP_TLV_SYS_DESC,
     .name = "System Description",
     .min = 0,
     .max = 255,
     .dec = lldp_sdesc_dec,
     .has = lldp_sdesc_has,
     .enc = lldp_sdesc_enc,
     .print = lldp_sdesc_print},
    {.type = LLDP_TLV_SYS_CAPS,
     .name = "System Capabilities",
     .min = 4,
     .max = 4,
     .dec = lldp_caps_dec,
     .has = lldp_caps_has,
     .enc = lldp_caps_enc,
     .print = lldp_caps_print},
    {.type = LLDP_TLV_MGMT,
     .name = "Management Address",
     .min = 9,
     .max = 167,
     .dec = lldp_mgmt_dec,
     .has = lldp_mgmt_has,
     .enc = lldp_mgmt_enc,
     .print = lldp_mgmt_print},
    {ORG(LLDP_OUI_8021, LLDP_QAZ_ETS_CFG), .name = "ETS Configuration",
     .min = 21, .max = 21, .dec = lldp_qaz_ets_cfg_dec,
     .has = lldp_qaz_ets_cfg_has, .enc = lldp_qaz_ets_cfg_enc,
     .print = lldp_qaz_ets_cfg_print},
    {ORG(LLDP_OUI_8021, LLDP_QAZ_ETS_REC), .name = "ETS Recommendation",
     .min = 21, .max = 21, .dec = lldp_qaz_ets_rec_dec,
     .has = lldp_qaz_ets_rec_has, .enc = lldp_qaz_ets_rec_enc,
     .print = lldp_qaz_ets_rec_print},
    {ORG(LLDP_OUI_8021, LLDP_QAZ_PFC), .name = "PFC Configuration", .min = 2,
     .max = 2, .dec = lldp_qaz_pfc_dec, .has = lldp_qaz_pfc_has,
     .enc = lldp_qaz_pfc_enc, .print = lldp_qaz_pfc_print},
    /* 1 reserved byte and 3-byte entries, within 511 - 4 bytes. */
    {ORG(LLDP_OUI_8021, LLDP_QAZ_APP), .name = "Application Priority", .min = 1,
     .max = 1 + 3 * 168, .dec = lldp_qaz_app_dec, .has = lldp_qaz_app_has,
     .enc = lldp_qaz_app_enc, .print = lldp_qaz_app_print},
    {ORG(LLDP_OUI_8023, LLDP_8023_MFS), .name = "Maximum Frame Size", .min = 2,
     .max = 2, .dec = lldp_mfs_dec, .has = lldp_mfs_has, .enc = lldp_mfs_enc,
     .print = lldp_mfs_print},
    /* roced's own: a version byte, then chains (pfcdl.h). */
    {ORG(PFCDL_OUI, PFCDL_SUBTYPE), .name = "PFC Wait Chains", .min = 1,
     .max = LLDP_TLV_INFO_MAX - 4, .dec = lldp_pfcdl_dec, .has = lldp_pfcdl_has,
     .enc = lldp_pfcdl_enc, .print = lldp_pfcdl_print},
    /* Legacy DCBX: decoded for show, never sent (roced speaks IEEE). */
    {ORG(LLDP_OUI_CEE, LLDP_CEE_SUB_CEE), .name = "CEE DCBX", .min = 0,
     .max = LLDP_TLV_INFO_MAX - 4, .dec = lldp_cee_dec, .has = lldp_cee_has,
     .enc = NULL, .print = lldp_cee_print},
    {ORG(LLDP_OUI_CEE, LLDP_CEE_SUB_CIN), .name = "CIN DCBX", .min = 0,
     .max = LLDP_TLV_INFO_MAX - 4, .dec = lldp_cin_dec, .has = lldp_cin_has,
     .enc = NULL, .print = lldp_cee_print},
};
#define LLDP_NTLVS (sizeof(lldp_tlvs) / sizeof(lldp_tlvs[0]))
/* Rows that may appear once only: the mandatory ones (802.1AB 9.2.7.7)
 * and the DCBX ones, whose duplicates would make negotiation guess. */
#define LLDP_ROW_ONCE(i) ((i) < 3 || lldp_tlvs[i].type == LLDP_TLV_ORG)

static const struct lldp_tlv_row *lldp_row(uint8_t type, const uint8_t *oui,
                                           uint8_t subtype, size_t *idx)
{
	for (size_t i = 0; i < LLDP_NTLVS; i++) {
		const struct lldp_tlv_row *r = &lldp_tlvs[i];

		if (r->type != type)
			continue;
		if (type == LLDP_TLV_ORG &&
		    (memcmp(r->oui, oui, 3) != 0 || r->subtype != subtype))
			continue;
		if (idx)
			*idx = i;
		return r;
	}
	return NULL;
}

const char *lldp_tlv_name(uint8_t type, const uint8_t oui[3], uint8_t subtype)
{
	static const uint8_t none[3];
	const struct lldp_tlv_row *r;

	if (type == LLDP_TLV_END)
		return "End of LLDPDU";
	if (type == LLDP_TLV_ORG && !oui)
		return "Organizationally Specific";
	r = lldp_row(type, oui ? oui : none, subtype, NULL);
	return r ? r->name : "unknown";
}

/* ------------------------------------------------------------------ */
/* Decode */

static void lldp_unknown_add(struct lldp_pdu *pdu, uint8_t type,
                             const uint8_t *info, size_t n)
{
	struct lldp_unknown *u;

	if (pdu->nunknown++ >= LLDP_UNKNOWN_MAX)
		return;
	u = &pdu->unknown[pdu->nunknown - 1];
	u->type = type;
	u->len = (uint16_t)n;
	if (type == LLDP_TLV_ORG) {
		memcpy(u->oui, info, 3);
		u->subtype = info[3];
	}
}

static const char *const lldp_mandatory[] = {"Chassis ID", "Port ID",
                                             "Time To Live"};

int lldp_decode(const uint8_t *buf, size_t len, struct lldp_pdu *out, char *err,
                size_t errlen)
{
	uint32_t seen = 0;
	size_t pos = 0, ntlv = 0;
	char why[160];

	memset(out, 0, sizeof(*out));
	if (err && errlen)
		err[0] = '\0';
	/* 802.1AB-2009 made the End TLV optional: the buffer's end (or
	 * Ethernet padding, which reads as End) closes the LLDPDU too. */
	while (pos < len) {
		const struct lldp_tlv_row *r;
		const uint8_t *info;
		size_t n, row, dn;
		uint8_t type;
		int rc;

		if (len - pos < 2)
			return lldp_bad(err, errlen,
			                "TLV header cut off at byte %zu", pos);
		type = buf[pos] >> 1;
		n = (size_t)(buf[pos] & 1) << 8 | buf[pos + 1];
		info = buf + pos + 2;
		if (n > len - pos - 2)
			return lldp_bad(
			    err, errlen,
			    "TLV %zu (type %u) at byte %zu: length %zu "
			    "past the end (%zu bytes left)",
			    ntlv + 1, type, pos, n, len - pos - 2);
		if (type == LLDP_TLV_END) {
			if (n != 0)
				return lldp_bad(
				    err, errlen,
				    "End of LLDPDU TLV at byte %zu with "
				    "length %zu (0)",
				    pos, n);
			break;
		}
		if (ntlv < 3 && type != ntlv + 1)
			return lldp_bad(
			    err, errlen, "TLV %zu is type %u (%s), expected %s",
			    ntlv + 1, type, lldp_tlv_name(type, NULL, 0),
			    lldp_mandatory[ntlv]);
		if (type == LLDP_TLV_ORG && n < 4)
			return lldp_bad(
			    err, errlen,
			    "organizationally specific TLV at byte %zu "
			    "of %zu bytes, shorter than OUI and subtype",
			    pos, n);
		r = lldp_row(type, info, type == LLDP_TLV_ORG ? info[3] : 0,
		             &row);
		pos += 2 + n;
		ntlv++;
		if (!r) {
			lldp_unknown_add(out, type, info, n);
			continue;
		}
		if (seen & (1u << row)) {
			if (LLDP_ROW_ONCE(row))
				return lldp_bad(err, errlen,
				                "a second %s TLV at byte %zu",
				                r->name, pos - 2 - n);
			continue; /* the first one stands */
		}
		seen |= 1u << row;
		dn = n;
		if (type == LLDP_TLV_ORG) {
			info += 4;
			dn -= 4;
		}
		if (dn < r->min || dn > r->max)
			return lldp_bad(err, errlen,
			                "%s TLV at byte %zu: length %zu, "
			                "expected %u..%u",
			                r->name, pos - 2 - n, dn, r->min,
			                r->max);
		why[0] = '\0';
		rc = r->dec(info, dn, out, why, sizeof(why));
		if (rc < 0)
			return lldp_bad(err, errlen, "%s TLV at byte %zu: %s",
			                r->name, pos - 2 - n, why);
	}
	if (ntlv < 3)
		return lldp_bad(err, errlen,
		                "no %s TLV (the LLDPDU ends first)",
		                lldp_mandatory[ntlv]);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Encode */

int lldp_encode(const struct lldp_pdu *pdu, uint8_t *buf, size_t cap)
{
	struct lldp_wbuf w = {.b = buf, .cap = cap};

	if (pdu->chassis.len == 0 || pdu->port.len == 0)
		return -EINVAL;
	for (size_t i = 0; i < LLDP_NTLVS; i++) {
		const struct lldp_tlv_row *r = &lldp_tlvs[i];
		size_t start, n;

		if (!r->enc || !r->has(pdu))
			continue;
		start = w.len;
		lldp_put16(&w, 0); /* the header, once the length is known */
		if (r->type == LLDP_TLV_ORG) {
			lldp_put(&w, r->oui, 3);
			lldp_put8(&w, r->subtype);
		}
		r->enc(pdu, &w);
		if (w.over)
			return -ENOSPC;
		n = w.len - start - 2;
		if (n > LLDP_TLV_INFO_MAX)
			return -EINVAL;
		buf[start] = (uint8_t)(r->type << 1 | n >> 8);
		buf[start + 1] = (uint8_t)n;
	}
	lldp_put16(&w, 0); /* End of LLDPDU */
	return w.over ? -ENOSPC : (int)w.len;
}

/* ------------------------------------------------------------------ */
/* Print */

void lldp_print(const struct lldp_pdu *pdu, struct strbuf *sb)
{
	for (size_t i = 0; i < LLDP_NTLVS; i++) {
		const struct lldp_tlv_row *r = &lldp_tlvs[i];

		if (!r->has(pdu))
			continue;
		strbuf_printf(sb, "%s: ", r->name);
		r->print(pdu, sb);
		strbuf_puts(sb, "\n");
	}
	if (pdu->app_over)
		strbuf_printf(sb,
		              "Application Priority: %u more entries not "
		              "kept\n",
		              pdu->app_over);
	for (unsigned i = 0; i < pdu->nunknown && i < LLDP_UNKNOWN_MAX; i++) {
		const struct lldp_unknown *u = &pdu->unknown[i];

		if (u->type == LLDP_TLV_ORG)
			strbuf_printf(sb,
			              "Unknown TLV: type 127, OUI "
			              "%02x-%02x-%02x, subtype %u, %u bytes\n",
			              u->oui[0], u->oui[1], u->oui[2],
			              u->subtype, u->len);
		else
			strbuf_printf(sb, "Unknown TLV: type %u, %u bytes\n",
			              u->type, u->len);
	}
	if (pdu->nunknown > LLDP_UNKNOWN_MAX)
		strbuf_printf(sb, "Unknown TLVs: %u in all\n", pdu->nunknown);
}

void lldp_id_format(const struct lldp_id *id, bool is_port, char *buf,
                    size_t len)
{
	const uint8_t *v = id->v;
	bool text = id->len > 0;
	size_t off = 0;

	if (!len)
		return;
	if (id->len == 6 &&
	    id->subtype == (is_port ? LLDP_PORT_MAC : LLDP_CHASSIS_MAC)) {
		snprintf(buf, len, "%02x:%02x:%02x:%02x:%02x:%02x", v[0], v[1],
		         v[2], v[3], v[4], v[5]);
		return;
	}
	for (size_t i = 0; i < id->len; i++)
		text = text && v[i] >= 0x20 && v[i] < 0x7f;
	if (text) {
		snprintf(buf, len, "%.*s", (int)id->len, (const char *)v);
		return;
	}
	buf[0] = '\0';
	for (size_t i = 0; i < id->len && off + 3 < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%02x",
		                        i ? ":" : "", v[i]);
}
