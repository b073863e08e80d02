/* lldp_qaz: the IEEE 802.1Qaz DCBX TLVs (OUI 00-80-C2) of the LLDPDU
 * codec's table (lldp.c): ETS Configuration (9), ETS Recommendation (10),
 * PFC Configuration (11) and Application Priority (12). The table has
 * checked each information string's length against the row's bounds;
 * what is left to check here is what the values may be. */
#include <stdio.h>
#include <string.h>

#include "base/strbuf.h"
#include "proto/dcbx.h"
#include "proto/lldp.h"
#include "proto/lldp_int.h"

/* ------------------------------------------------------------------ */
/* ETS: the 20 bytes that Configuration and Recommendation share (after
 * their first byte): priority assignment (a nibble per priority, priority
 * 0 in the high nibble), bandwidth per TC, TSA per TC. */

static int lldp_ets_body_dec(const uint8_t *p, struct dcbx_ets *ets, char *err,
                             size_t errlen)
{
	for (int i = 0; i < DCBX_NPRIO; i++) {
		uint8_t tc = i % 2 ? p[i / 2] & 0x0f : p[i / 2] >> 4;

		/* 8..15 are reserved: a TC roced cannot have. */
		if (tc >= DCBX_NTC)
			return lldp_bad(err, errlen,
			                "priority %d assigned to traffic class "
			                "%u (0..7)",
			                i, tc);
		ets->prio_tc[i] = tc;
	}
	memcpy(ets->tc_bw, p + 4, DCBX_NTC);
	memcpy(ets->tsa, p + 12, DCBX_NTC);
	return 0;
}

static void lldp_ets_body_enc(const struct dcbx_ets *ets, struct lldp_wbuf *w)
{
	for (int i = 0; i < DCBX_NPRIO; i += 2)
		lldp_put8(w, (uint8_t)((ets->prio_tc[i] & 0x0f) << 4 |
		                       (ets->prio_tc[i + 1] & 0x0f)));
	lldp_put(w, ets->tc_bw, DCBX_NTC);
	lldp_put(w, ets->tsa, DCBX_NTC);
}

static void lldp_ets_body_print(const struct dcbx_ets *ets, struct strbuf *sb)
{
	strbuf_puts(sb, "priority->TC");
	for (int i = 0; i < DCBX_NPRIO; i++)
		strbuf_printf(sb, " %u", ets->prio_tc[i]);
	strbuf_puts(sb, ", bandwidth");
	for (int i = 0; i < DCBX_NTC; i++)
		strbuf_printf(sb, " %u", ets->tc_bw[i]);
	strbuf_puts(sb, ", TSA");
	for (int i = 0; i < DCBX_NTC; i++)
		strbuf_printf(sb, " %s", dcbx_tsa_name(ets->tsa[i]));
}

int lldp_qaz_ets_cfg_dec(const uint8_t *info, size_t n, struct lldp_pdu *pdu,
                         char *err, size_t errlen)
{
	struct dcbx_ets *ets = &pdu->dcbx.ets_cfg;

	(void)n;
	ets->willing = info[0] & 0x80;
	ets->cbs = info[0] & 0x40;
	ets->max_tcs = info[0] & 0x07 ? info[0] & 0x07 : 8;
	pdu->dcbx.has_ets_cfg = true;
	return lldp_ets_body_dec(info + 1, ets, err, errlen);
}

int lldp_qaz_ets_rec_dec(const uint8_t *info, size_t n, struct lldp_pdu *pdu,
                         char *err, size_t errlen)
{
	(void)n;
	pdu->dcbx.has_ets_rec = true;
	return lldp_ets_body_dec(info + 1, &pdu->dcbx.ets_rec, err, errlen);
}

bool lldp_qaz_ets_cfg_has(const struct lldp_pdu *pdu)
{
	return pdu->dcbx.has_ets_cfg;
}

bool lldp_qaz_ets_rec_has(const struct lldp_pdu *pdu)
{
	return pdu->dcbx.has_ets_rec;
}

void lldp_qaz_ets_cfg_enc(const struct lldp_pdu *pdu, struct lldp_wbuf *w)
{
	const struct dcbx_ets *ets = &pdu->dcbx.ets_cfg;

	/* 8 TCs go on the wire as 0 (a 3-bit field). */
	lldp_put8(w, (uint8_t)((ets->willing ? 0x80 : 0) |
	                       (ets->cbs ? 0x40 : 0) | (ets->max_tcs & 0x07)));
	lldp_ets_body_enc(ets, w);
}

void lldp_qaz_ets_rec_enc(const struct lldp_pdu *pdu, struct lldp_wbuf *w)
{
	lldp_put8(w, 0);
	lldp_ets_body_enc(&pdu->dcbx.ets_rec, w);
}

void lldp_qaz_ets_cfg_print(const struct lldp_pdu *pdu, struct strbuf *sb)
{
	const struct dcbx_ets *ets = &pdu->dcbx.ets_cfg;

	strbuf_printf(sb, "willing %s, cbs %s, max TCs %u, ",
	              ets->willing ? "yes" : "no", ets->cbs ? "yes" : "no",
	              ets->max_tcs);
	lldp_ets_body_print(ets, sb);
}

void lldp_qaz_ets_rec_print(const struct lldp_pdu *pdu, struct strbuf *sb)
{
	lldp_ets_body_print(&pdu->dcbx.ets_rec, sb);
}

/* ------------------------------------------------------------------ */
/* PFC Configuration: willing, MBC, capability; the enable bitmap */

int lldp_qaz_pfc_dec(const uint8_t *info, size_t n, struct lldp_pdu *pdu,
                     char *err, size_t errlen)
{
	struct dcbx_pfc *pfc = &pdu->dcbx.pfc;

	(void)n;
	(void)err;
	(void)errlen;
	pfc->willing = info[0] & 0x80;
	pfc->mbc = info[0] & 0x40;
	pfc->cap = info[0] & 0x0f;
	pfc->enable = info[1];
	pdu->dcbx.has_pfc = true;
	return 0;
}

bool lldp_qaz_pfc_has(const struct lldp_pdu *pdu)
{
	return pdu->dcbx.has_pfc;
}

void lldp_qaz_pfc_enc(const struct lldp_pdu *pdu, struct lldp_wbuf *w)
{
	const struct dcbx_pfc *pfc = &pdu->dcbx.pfc;

	lldp_put8(w, (uint8_t)((pfc->willing ? 0x80 : 0) |
	                       (pfc->mbc ? 0x40 : 0) | (pfc->cap & 0x0f)));
	lldp_put8(w, pfc->enable);
}

void lldp_qaz_pfc_print(const struct lldp_pdu *pdu, struct strbuf *sb)
{
	const struct dcbx_pfc *pfc = &pdu->dcbx.pfc;
	bool any = false;

	strbuf_printf(sb, "willing %s, mbc %s, cap %u, enabled",
	              pfc->willing ? "yes" : "no", pfc->mbc ? "yes" : "no",
	              pfc->cap);
	for (int i = 0; i < DCBX_NPRIO; i++)
		if (pfc->enable & (1u << i)) {
			strbuf_printf(sb, "%s%d", any ? "," : " ", i);
			any = true;
		}
	if (!any)
		strbuf_puts(sb, " none");
}

/* ------------------------------------------------------------------ */
/* Application Priority: a reserved byte, then 3-byte entries: priority
 * (3 bits), reserved (2), selector (3), protocol (16) */

int lldp_qaz_app_dec(const uint8_t *info, size_t n, struct lldp_pdu *pdu,
                     char *err, size_t errlen)
{
	struct dcbx_apps *apps = &pdu->dcbx.app;

	if ((n - 1) % 3)
		return lldp_bad(err, errlen,
		                "%zu bytes of entries, not a multiple of 3",
		                n - 1);
	for (size_t off = 1; off < n; off += 3) {
		struct dcbx_app a = {
		    .prio = info[off] >> 5,
		    .selector = info[off] & 0x07,
		    .protocol = lldp_get16(info + off + 1),
		};

		/* Reserved selectors (0, 6, 7) are kept: a later revision
		 * may define them, and compile uses the ones it knows. */
		if (a.selector == DCBX_APP_DSCP && a.protocol > 63)
			return lldp_bad(err, errlen,
			                "entry %zu: DSCP %u (0..63)",
			                off / 3 + 1, a.protocol);
		if (apps->n < DCBX_APP_MAX)
			apps->v[apps->n++] = a;
		else
			pdu->app_over++;
	}
	pdu->dcbx.has_app = true;
	return 0;
}

bool lldp_qaz_app_has(const struct lldp_pdu *pdu)
{
	return pdu->dcbx.has_app;
}

void lldp_qaz_app_enc(const struct lldp_pdu *pdu, struct lldp_wbuf *w)
{
	const struct dcbx_apps *apps = &pdu->dcbx.app;

	lldp_put8(w, 0);
	for (size_t i = 0; i < apps->n && i < DCBX_APP_MAX; i++) {
		lldp_put8(w, (uint8_t)((apps->v[i].prio & 0x07) << 5 |
		                       (apps->v[i].selector & 0x07)));
		lldp_put16(w, apps->v[i].protocol);
	}
}

void lldp_qaz_app_print(const struct lldp_pdu *pdu, struct strbuf *sb)
{
	const struct dcbx_apps *apps = &pdu->dcbx.app;

	if (!apps->n)
		strbuf_puts(sb, "no entries");
	for (size_t i = 0; i < apps->n && i < DCBX_APP_MAX; i++) {
		const struct dcbx_app *a = &apps->v[i];

		if (a->selector >= DCBX_APP_ETHERTYPE &&
		    a->selector <= DCBX_APP_DSCP)
			strbuf_printf(sb, "%s%s ", i ? ", " : "",
			              dcbx_app_sel_name(a->selector));
		else
			strbuf_printf(sb, "%sselector %u ", i ? ", " : "",
			              a->selector);
		strbuf_printf(
		    sb, a->selector == DCBX_APP_ETHERTYPE ? "0x%04x" : "%u",
		    a->protocol);
		strbuf_printf(sb, " -> %u", a->prio);
	}
}
