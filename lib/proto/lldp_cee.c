/* lldp_cee: legacy DCBX in the LLDPDU codec's table (lldp.c), decoded so
 * that show can say "peer speaks CEE" and what it asks for; roced never
 * sends it. Both flavours are one organizationally specific TLV (OUI
 * 00-1B-21) holding sub-TLVs with their own 7-bit type and 9-bit length:
 *
 *   CEE (DCBX 1.01, subtype 2): control 1 (oper/max version, sequence and
 *   acknowledgement numbers), priority groups 2, PFC 3, application 4.
 *   CIN (DCBX 1.0, subtype 1): control 1, priority groups 2, PFC 3,
 *   BCN 4, application 5, logical link 6.
 *
 * Every feature sub-TLV starts with oper version, max version, a flags
 * byte (enable bit 7, willing bit 6, error bit 5) and a subtype. */
#include <stdio.h>
#include <string.h>

#include "base/strbuf.h"
#include "proto/lldp.h"
#include "proto/lldp_int.h"

enum {
	CEE_CTRL = 1,
	CEE_PG = 2,
	CEE_PFC = 3,
	CEE_APP = 4,
	CIN_APP = 5,
};

#define CEE_FEAT_HDR 4
#define CEE_CTRL_LEN 10
/* Feature sub-TLVs at least this long (header + data); a later version
 * may append, so longer is not malformed. */
#define CEE_PG_MIN    (CEE_FEAT_HDR + 4 + 8 + 1)
#define CEE_PFC_MIN   (CEE_FEAT_HDR + 2)
#define CIN_PG_MIN    (CEE_FEAT_HDR + 8 + 16)
#define CIN_PFC_MIN   (CEE_FEAT_HDR + 1)
#define CEE_APP_ENTRY 6

static void lldp_cee_feat(const uint8_t *p, struct lldp_cee_feat *f)
{
	f->present = true;
	f->oper_version = p[0];
	f->max_version = p[1];
	f->enable = p[2] & 0x80;
	f->willing = p[2] & 0x40;
	f->error = p[2] & 0x20;
	f->subtype = p[3];
}

static int lldp_cee_app_dec(const uint8_t *p, size_t n, struct lldp_cee *cee,
                            char *err, size_t errlen)
{
	if ((n - CEE_FEAT_HDR) % CEE_APP_ENTRY)
		return lldp_bad(
		    err, errlen,
		    "application sub-TLV: %zu bytes of entries, not "
		    "a multiple of 6",
		    n - CEE_FEAT_HDR);
	for (size_t off = CEE_FEAT_HDR; off < n; off += CEE_APP_ENTRY) {
		struct lldp_cee_app *a;

		if (cee->napp++ >= LLDP_CEE_APP_MAX)
			continue;
		a = &cee->apps[cee->napp - 1];
		a->protocol = lldp_get16(p + off);
		a->sel = p[off + 2] & 0x03;
		a->oui[0] = p[off + 2] & 0xfc;
		a->oui[1] = p[off + 3];
		a->oui[2] = p[off + 4];
		a->up_map = p[off + 5];
	}
	return 0;
}

/* One sub-TLV of TYPE at P (N bytes). CIN: the DCBX 1.0 layouts. */
static int lldp_cee_sub(uint8_t type, const uint8_t *p, size_t n, bool cin,
                        struct lldp_cee *cee, char *err, size_t errlen)
{
	size_t pg_min = cin ? CIN_PG_MIN : CEE_PG_MIN;
	size_t pfc_min = cin ? CIN_PFC_MIN : CEE_PFC_MIN;

	switch (type) {
	case CEE_CTRL:
		if (n != CEE_CTRL_LEN)
			return lldp_bad(err, errlen,
			                "control sub-TLV of %zu bytes (10)", n);
		cee->has_ctrl = true;
		cee->oper_version = p[0];
		cee->max_version = p[1];
		cee->seq = lldp_get32(p + 2);
		cee->ack = lldp_get32(p + 6);
		return 0;
	case CEE_PG:
		if (n < pg_min)
			return lldp_bad(err, errlen,
			                "priority group sub-TLV of %zu bytes "
			                "(at least %zu)",
			                n, pg_min);
		lldp_cee_feat(p, &cee->pg);
		p += CEE_FEAT_HDR;
		if (cin) {
			/* Percentages first, then two bytes per
			 * priority; only the percentages are kept. */
			memcpy(cee->pg_pct, p, DCBX_NTC);
			return 0;
		}
		for (int i = 0; i < DCBX_NPRIO; i++)
			cee->pg_id[i] = i % 2 ? p[i / 2] & 0x0f : p[i / 2] >> 4;
		memcpy(cee->pg_pct, p + 4, DCBX_NTC);
		cee->pg_num_tcs = p[12];
		return 0;
	case CEE_PFC:
		if (n < pfc_min)
			return lldp_bad(
			    err, errlen,
			    "PFC sub-TLV of %zu bytes (at least %zu)", n,
			    pfc_min);
		lldp_cee_feat(p, &cee->pfc);
		cee->pfc_enable = p[CEE_FEAT_HDR];
		if (!cin)
			cee->pfc_num_tcs = p[CEE_FEAT_HDR + 1];
		return 0;
	case CEE_APP:
	case CIN_APP:
		if ((type == CEE_APP) == cin) {
			cee->nother++; /* CIN's BCN, CEE's 5 */
			return 0;
		}
		if (n < CEE_FEAT_HDR)
			return lldp_bad(err, errlen,
			                "application sub-TLV of %zu bytes (at "
			                "least 4)",
			                n);
		lldp_cee_feat(p, &cee->app);
		/* CIN's entries have another layout: presence only. */
		return cin ? 0 : lldp_cee_app_dec(p, n, cee, err, errlen);
	default:
		cee->nother++;
		return 0;
	}
}

static int lldp_legacy_dec(const uint8_t *info, size_t n, struct lldp_pdu *pdu,
                           bool cin, char *err, size_t errlen)
{
	struct lldp_cee *cee = &pdu->cee;
	uint32_t seen = 0;
	size_t pos = 0;

	if (pdu->dcbx.cee)
		return lldp_bad(err, errlen, "both CEE and CIN DCBX TLVs");
	pdu->dcbx.cee = true;
	cee->present = true;
	cee->cin = cin;
	while (pos < n) {
		uint8_t type;
		size_t len;
		int rc;

		if (n - pos < 2)
			return lldp_bad(err, errlen,
			                "sub-TLV header cut off at byte %zu",
			                pos);
		type = info[pos] >> 1;
		len = (size_t)(info[pos] & 1) << 8 | info[pos + 1];
		if (len > n - pos - 2)
			return lldp_bad(
			    err, errlen,
			    "sub-TLV type %u at byte %zu: length %zu "
			    "past the end (%zu bytes left)",
			    type, pos, len, n - pos - 2);
		if (type < 32 && (seen & (1u << type)))
			return lldp_bad(err, errlen,
			                "a second sub-TLV of type %u", type);
		if (type < 32)
			seen |= 1u << type;
		rc = lldp_cee_sub(type, info + pos + 2, len, cin, cee, err,
		                  errlen);
		if (rc < 0)
			return rc;
		pos += 2 + len;
	}
	return 0;
}

int lldp_cee_dec(const uint8_t *info, size_t n, struct lldp_pdu *pdu, char *err,
                 size_t errlen)
{
	return lldp_legacy_dec(info, n, pdu, false, err, errlen);
}

int lldp_cin_dec(const uint8_t *info, size_t n, struct lldp_pdu *pdu, char *err,
                 size_t errlen)
{
	return lldp_legacy_dec(info, n, pdu, true, err, errlen);
}

bool lldp_cee_has(const struct lldp_pdu *pdu)
{
	return pdu->dcbx.cee && !pdu->cee.cin;
}

bool lldp_cin_has(const struct lldp_pdu *pdu)
{
	return pdu->dcbx.cee && pdu->cee.cin;
}

static void lldp_cee_feat_print(const char *name, const struct lldp_cee_feat *f,
                                struct strbuf *sb)
{
	strbuf_printf(sb,
	              "\n  %s: version %u/%u, enable %s, willing %s, "
	              "error %s",
	              name, f->oper_version, f->max_version,
	              f->enable ? "yes" : "no", f->willing ? "yes" : "no",
	              f->error ? "yes" : "no");
}

void lldp_cee_print(const struct lldp_pdu *pdu, struct strbuf *sb)
{
	const struct lldp_cee *cee = &pdu->cee;
	bool any = false;

	strbuf_puts(sb, "peer speaks ");
	strbuf_puts(sb, cee->cin ? "CIN" : "CEE");
	if (cee->has_ctrl)
		strbuf_printf(sb, ", version %u/%u, seq %u, ack %u",
		              cee->oper_version, cee->max_version, cee->seq,
		              cee->ack);
	if (cee->pg.present) {
		lldp_cee_feat_print("PG", &cee->pg, sb);
		if (!cee->cin) {
			strbuf_puts(sb, ", priority->PG");
			for (int i = 0; i < DCBX_NPRIO; i++)
				strbuf_printf(sb, " %u", cee->pg_id[i]);
		}
		strbuf_puts(sb, ", bandwidth");
		for (int i = 0; i < DCBX_NTC; i++)
			strbuf_printf(sb, " %u", cee->pg_pct[i]);
		if (!cee->cin)
			strbuf_printf(sb, ", TCs %u", cee->pg_num_tcs);
	}
	if (cee->pfc.present) {
		lldp_cee_feat_print("PFC", &cee->pfc, sb);
		strbuf_puts(sb, ", enabled");
		for (int i = 0; i < DCBX_NPRIO; i++)
			if (cee->pfc_enable & (1u << i)) {
				strbuf_printf(sb, "%s%d", any ? "," : " ", i);
				any = true;
			}
		if (!any)
			strbuf_puts(sb, " none");
		if (!cee->cin)
			strbuf_printf(sb, ", TCs %u", cee->pfc_num_tcs);
	}
	if (cee->app.present) {
		lldp_cee_feat_print("APP", &cee->app, sb);
		for (unsigned i = 0; i < cee->napp && i < LLDP_CEE_APP_MAX;
		     i++) {
			const struct lldp_cee_app *a = &cee->apps[i];

			strbuf_printf(sb,
			              a->sel == 0 ? ", ethertype 0x%04x -> "
			                            "priorities 0x%02x"
			                          : ", port %u -> priorities "
			                            "0x%02x",
			              a->protocol, a->up_map);
		}
	}
	if (cee->nother)
		strbuf_printf(sb, "\n  %u other sub-TLVs", cee->nother);
}

/* ------------------------------------------------------------------ */
/* CEE as IEEE values (see lldp.h) */

#define CEE_PGID_STRICT 15

static void lldp_cee_pg_to_ets(const struct lldp_cee *cee, struct dcbx_ets *ets)
{
	bool used[DCBX_NTC] = {false};
	int strict_tc = -1;

	memset(ets, 0, sizeof(*ets));
	ets->willing = cee->pg.willing;
	ets->max_tcs = cee->pg_num_tcs >= 1 && cee->pg_num_tcs <= DCBX_NTC
	                   ? cee->pg_num_tcs
	                   : DCBX_NTC;
	for (int i = 0; i < DCBX_NPRIO; i++)
		if (cee->pg_id[i] < DCBX_NTC)
			used[cee->pg_id[i]] = true;
	for (int tc = DCBX_NTC - 1; tc >= 0 && strict_tc < 0; tc--)
		if (!used[tc])
			strict_tc = tc;
	for (int tc = 0; tc < DCBX_NTC; tc++) {
		ets->tc_bw[tc] = used[tc] ? cee->pg_pct[tc] : 0;
		ets->tsa[tc] = used[tc] ? DCBX_TSA_ETS : DCBX_TSA_STRICT;
	}
	/* A PG id of 8..14 is reserved in CEE: such a priority, like one of
	 * PG 15, is scheduled strictly. There is a free TC for them: that
	 * priority leaves at most seven groups in use. */
	for (int i = 0; i < DCBX_NPRIO; i++)
		ets->prio_tc[i] = cee->pg_id[i] < DCBX_NTC ? cee->pg_id[i]
		                                           : (uint8_t)strict_tc;
}

void lldp_cee_to_dcbx(const struct lldp_cee *cee, struct dcbx_tlvs *out)
{
	memset(out, 0, sizeof(*out));
	if (!cee->present)
		return;
	out->cee = true;
	out->from_cee = true;
	if (cee->pfc.present && cee->pfc.enable) {
		out->has_pfc = true;
		out->pfc.willing = cee->pfc.willing;
		out->pfc.cap = cee->pfc_num_tcs <= DCBX_NPRIO ? cee->pfc_num_tcs
		                                              : DCBX_NPRIO;
		out->pfc.enable = cee->pfc_enable;
	}
	/* CIN's groups are kept as percentages only: no table to give. */
	if (!cee->cin && cee->pg.present && cee->pg.enable) {
		out->has_ets_cfg = out->has_ets_rec = true;
		lldp_cee_pg_to_ets(cee, &out->ets_cfg);
		out->ets_rec = out->ets_cfg;
		out->ets_rec.willing = false;
		out->ets_rec.max_tcs = 0;
	}
	if (!cee->cin && cee->app.present && cee->app.enable) {
		out->has_app = true;
		for (unsigned i = 0; i < cee->napp && i < LLDP_CEE_APP_MAX &&
		                     out->app.n < DCBX_APP_MAX;
		     i++) {
			const struct lldp_cee_app *a = &cee->apps[i];
			int prio = __builtin_ffs(a->up_map) - 1;

			if (prio < 0 || a->sel > 1)
				continue; /* no priority, or a reserved selector
				           */
			out->app.v[out->app.n++] = (struct dcbx_app){
			    .prio = (uint8_t)prio,
			    .selector = a->sel == 0 ? DCBX_APP_ETHERTYPE
			                            : DCBX_APP_PORT,
			    .protocol = a->protocol,
			};
		}
	}
}
