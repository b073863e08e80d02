/* lldp_int: what the LLDPDU codec's files share: the TLV table's row, the
 * bounds-checked byte helpers and the per-TLV functions that the table in
 * lldp.c names. Not for use outside lib/proto. */
#ifndef ROCED_LLDP_INT_H
#define ROCED_LLDP_INT_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/strbuf.h"
#include "proto/lldp.h"

#define LLDP_TLV_END       0
#define LLDP_TLV_CHASSIS   1
#define LLDP_TLV_PORT      2
#define LLDP_TLV_TTL       3
#define LLDP_TLV_PORT_DESC 4
#define LLDP_TLV_SYS_NAME  5
#define LLDP_TLV_SYS_DESC  6
#define LLDP_TLV_SYS_CAPS  7
#define LLDP_TLV_MGMT      8
#define LLDP_TLV_ORG       127

/* The largest information string a 9-bit length can say. */
#define LLDP_TLV_INFO_MAX 511

/* Organisationally specific TLVs this codec knows. */
#define LLDP_OUI_8021                                                          \
	{                                                                      \
		0x00, 0x80, 0xc2                                               \
	}
#define LLDP_OUI_CEE                                                           \
	{                                                                      \
		0x00, 0x1b, 0x21                                               \
	}
#define LLDP_OUI_8023                                                          \
	{                                                                      \
		0x00, 0x12, 0x0f                                               \
	}
#define LLDP_8023_MFS    4
#define LLDP_QAZ_ETS_CFG 9
#define LLDP_QAZ_ETS_REC 10
#define LLDP_QAZ_PFC     11
#define LLDP_QAZ_APP     12
#define LLDP_CEE_SUB_CIN 1
#define LLDP_CEE_SUB_CEE 2

/* Where encoded bytes go. OVER: something did not fit (the encoder then
 * fails with -ENOSPC as a whole: a partial LLDPDU is never sent). */
struct lldp_wbuf {
	uint8_t *b;
	size_t cap, len;
	bool over;
};

static inline void lldp_put(struct lldp_wbuf *w, const void *p, size_t n)
{
	if (w->over || n > w->cap - w->len) {
		w->over = true;
		return;
	}
	memcpy(w->b + w->len, p, n);
	w->len += n;
}

static inline void lldp_put8(struct lldp_wbuf *w, uint8_t v)
{
	lldp_put(w, &v, 1);
}

static inline void lldp_put16(struct lldp_wbuf *w, uint16_t v)
{
	uint8_t b[2] = {(uint8_t)(v >> 8), (uint8_t)v};

	lldp_put(w, b, 2);
}

static inline void lldp_put32(struct lldp_wbuf *w, uint32_t v)
{
	uint8_t b[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16),
	                (uint8_t)(v >> 8), (uint8_t)v};

	lldp_put(w, b, 4);
}

static inline uint16_t lldp_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t lldp_get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* Decoders say why a TLV is malformed through this, and return -EBADMSG. */
static inline int lldp_bad(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static inline int lldp_bad(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -EBADMSG;
}

/* One row of the TLV table (lldp.c). For type 127 the information
 * string that DEC gets and ENC writes starts after the OUI and subtype,
 * and MIN/MAX bound that part. */
struct lldp_tlv_row {
	uint8_t type;
	uint8_t oui[3];
	uint8_t subtype;
	const char *name;
	uint16_t min, max;
	/* Decode INFO (N bytes, N within MIN..MAX) into PDU; 0 or -EBADMSG
	 * with ERR set. */
	int (*dec)(const uint8_t *info, size_t n, struct lldp_pdu *pdu,
	           char *err, size_t errlen);
	/* Whether PDU holds this TLV (to send, or as received). */
	bool (*has)(const struct lldp_pdu *pdu);
	/* Write the information string; NULL: decoded only, never sent. */
	void (*enc)(const struct lldp_pdu *pdu, struct lldp_wbuf *w);
	/* One line (or a few, indented) after "NAME: ". */
	void (*print)(const struct lldp_pdu *pdu, struct strbuf *sb);
};

/* lldp_qaz.c: the 802.1Qaz TLVs. */
int lldp_qaz_ets_cfg_dec(const uint8_t *info, size_t n, struct lldp_pdu *pdu,
                         char *err, size_t errlen);
int lldp_qaz_ets_rec_dec(const uint8_t *info, size_t n, struct lldp_pdu *pdu,
                         char *err, size_t errlen);
int lldp_qaz_pfc_dec(const uint8_t *info, size_t n, struct lldp_pdu *pdu,
                     char *err, size_t errlen);
int lldp_qaz_app_dec(const uint8_t *info, size_t n, struct lldp_pdu *pdu,
                     char *err, size_t errlen);
bool lldp_qaz_ets_cfg_has(const struct lldp_pdu *pdu);
bool lldp_qaz_ets_rec_has(const struct lldp_pdu *pdu);
bool lldp_qaz_pfc_has(const struct lldp_pdu *pdu);
bool lldp_qaz_app_has(const struct lldp_pdu *pdu);
void lldp_qaz_ets_cfg_enc(const struct lldp_pdu *pdu, struct lldp_wbuf *w);
void lldp_qaz_ets_rec_enc(const struct lldp_pdu *pdu, struct lldp_wbuf *w);
void lldp_qaz_pfc_enc(const struct lldp_pdu *pdu, struct lldp_wbuf *w);
void lldp_qaz_app_enc(const struct lldp_pdu *pdu, struct lldp_wbuf *w);
void lldp_qaz_ets_cfg_print(const struct lldp_pdu *pdu, struct strbuf *sb);
void lldp_qaz_ets_rec_print(const struct lldp_pdu *pdu, struct strbuf *sb);
void lldp_qaz_pfc_print(const struct lldp_pdu *pdu, struct strbuf *sb);
void lldp_qaz_app_print(const struct lldp_pdu *pdu, struct strbuf *sb);

/* lldp_cee.c: legacy CEE and CIN DCBX, decoded for show only. */
int lldp_cee_dec(const uint8_t *info, size_t n, struct lldp_pdu *pdu, char *err,
                 size_t errlen);
int lldp_cin_dec(const uint8_t *info, size_t n, struct lldp_pdu *pdu, char *err,
                 size_t errlen);
bool lldp_cee_has(const struct lldp_pdu *pdu);
bool lldp_cin_has(const struct lldp_pdu *pdu);
void lldp_cee_print(const struct lldp_pdu *pdu, struct strbuf *sb);

/* pfcdl.c: roced's PFC wait chains (PFCDL_OUI, pfcdl.h). */
int lldp_pfcdl_dec(const uint8_t *info, size_t n, struct lldp_pdu *pdu,
                   char *err, size_t errlen);
bool lldp_pfcdl_has(const struct lldp_pdu *pdu);
void lldp_pfcdl_enc(const struct lldp_pdu *pdu, struct lldp_wbuf *w);
void lldp_pfcdl_print(const struct lldp_pdu *pdu, struct strbuf *sb);

#endif
