/* pfcdl: PFC deadlock chains and their TLV (see pfcdl.h). The TLV's row
 * is in lldp.c's table like every other TLV's; its functions are here,
 * beside the rule the chains serve. */
#include "proto/pfcdl.h"

#include <stdio.h>
#include <string.h>

#include "base/strbuf.h"
#include "proto/lldp.h"
#include "proto/lldp_int.h"

int pfcdl_id_cmp(const struct pfcdl_id *a, const struct pfcdl_id *b)
{
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	return memcmp(a->v, b->v, a->len);
}

void pfcdl_id_format(const struct pfcdl_id *id, char *buf, size_t len)
{
	size_t off = 0;

	if (!len)
		return;
	buf[0] = '\0';
	for (unsigned i = 0; i < id->len && off + 3 < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%02x",
		                        i ? ":" : "", id->v[i]);
}

void pfcdl_extend(const struct pfcdl_id *self, const struct pfcdl_chain *in,
                  uint8_t prio, struct pfcdl_chain *out)
{
	memset(out, 0, sizeof(*out));
	out->prio = prio;
	out->hop[0] = *self;
	out->n = 1;
	for (unsigned i = 0; in && i < in->n && out->n < PFCDL_HOPS_MAX; i++) {
		if (!pfcdl_id_cmp(&in->hop[i], self))
			break;
		out->hop[out->n++] = in->hop[i];
	}
}

bool pfcdl_cycle(const struct pfcdl_id *self, const struct pfcdl_chain *in,
                 unsigned *len)
{
	for (unsigned i = 0; i < in->n && i < PFCDL_HOPS_MAX; i++)
		if (!pfcdl_id_cmp(&in->hop[i], self)) {
			*len = i + 1;
			return true;
		}
	return false;
}

bool pfcdl_breaker(const struct pfcdl_id *self, const struct pfcdl_chain *in,
                   unsigned len)
{
	for (unsigned i = 0; i < len && i < in->n; i++)
		if (pfcdl_id_cmp(&in->hop[i], self) < 0)
			return false;
	return true;
}

static bool pfcdl_chain_eq(const struct pfcdl_chain *a,
                           const struct pfcdl_chain *b)
{
	if (a->prio != b->prio || a->n != b->n)
		return false;
	for (unsigned i = 0; i < a->n; i++)
		if (pfcdl_id_cmp(&a->hop[i], &b->hop[i]))
			return false;
	return true;
}

bool pfcdl_add(struct pfcdl_tlv *t, const struct pfcdl_chain *ch)
{
	for (unsigned i = 0; i < t->n; i++)
		if (pfcdl_chain_eq(&t->c[i], ch))
			return false;
	if (t->n >= PFCDL_CHAINS_MAX)
		return false;
	t->c[t->n++] = *ch;
	return true;
}

bool pfcdl_eq(const struct pfcdl_tlv *a, const struct pfcdl_tlv *b)
{
	if (a->present != b->present || a->n != b->n)
		return false;
	for (unsigned i = 0; i < a->n; i++)
		if (!pfcdl_chain_eq(&a->c[i], &b->c[i]))
			return false;
	return true;
}

/* ------------------------------------------------------------------ */
/* The TLV's functions for lldp.c's table */

int lldp_pfcdl_dec(const uint8_t *info, size_t n, struct lldp_pdu *pdu,
                   char *err, size_t errlen)
{
	struct pfcdl_tlv *t = &pdu->pfcdl;
	size_t pos = 1;

	memset(t, 0, sizeof(*t));
	t->present = true;
	t->version = info[0];
	if (t->version != PFCDL_VERSION)
		return 0; /* a later roced's: nothing to read, no error */
	while (pos < n) {
		struct pfcdl_chain *c;

		if (t->n >= PFCDL_CHAINS_MAX)
			return lldp_bad(err, errlen, "more than %u chains",
			                PFCDL_CHAINS_MAX);
		if (n - pos < 2)
			return lldp_bad(err, errlen,
			                "chain %u cut off at byte %zu",
			                t->n + 1u, pos);
		c = &t->c[t->n];
		c->prio = info[pos];
		c->n = info[pos + 1];
		if (c->prio > 7)
			return lldp_bad(err, errlen,
			                "chain %u: priority %u (0..7)",
			                t->n + 1u, c->prio);
		if (c->n < 1 || c->n > PFCDL_HOPS_MAX)
			return lldp_bad(err, errlen,
			                "chain %u: %u hops (1..%u)", t->n + 1u,
			                c->n, PFCDL_HOPS_MAX);
		pos += 2;
		for (unsigned h = 0; h < c->n; h++) {
			uint8_t l;

			if (pos >= n)
				return lldp_bad(err, errlen,
				                "chain %u: hop %u cut off",
				                t->n + 1u, h + 1);
			l = info[pos];
			if (l < 1 || l > PFCDL_ID_MAX || l > n - pos - 1)
				return lldp_bad(err, errlen,
				                "chain %u: hop %u: ID of %u "
				                "bytes (1..%u, %zu left)",
				                t->n + 1u, h + 1, l,
				                PFCDL_ID_MAX, n - pos - 1);
			c->hop[h].len = l;
			memcpy(c->hop[h].v, info + pos + 1, l);
			pos += 1 + (size_t)l;
		}
		t->n++;
	}
	return 0;
}

bool lldp_pfcdl_has(const struct lldp_pdu *pdu)
{
	return pdu->pfcdl.present;
}

static size_t lldp_pfcdl_chain_len(const struct pfcdl_chain *c)
{
	size_t len = 2;

	for (unsigned h = 0; h < c->n; h++)
		len += 1 + (size_t)c->hop[h].len;
	return len;
}

void lldp_pfcdl_enc(const struct lldp_pdu *pdu, struct lldp_wbuf *w)
{
	const struct pfcdl_tlv *t = &pdu->pfcdl;
	/* The information string after OUI and subtype. */
	size_t room = LLDP_TLV_INFO_MAX - 4 - 1;

	lldp_put8(w, PFCDL_VERSION);
	for (unsigned i = 0; i < t->n && i < PFCDL_CHAINS_MAX; i++) {
		const struct pfcdl_chain *c = &t->c[i];
		size_t len = lldp_pfcdl_chain_len(c);
		bool ok = c->n >= 1 && c->n <= PFCDL_HOPS_MAX && c->prio <= 7;

		for (unsigned h = 0; ok && h < c->n; h++)
			ok =
			    c->hop[h].len >= 1 && c->hop[h].len <= PFCDL_ID_MAX;
		/* What does not fit (long IDs) is left out whole: a cut
		 * chain would name a node that is not the next one. */
		if (!ok || len > room)
			continue;
		room -= len;
		lldp_put8(w, c->prio);
		lldp_put8(w, c->n);
		for (unsigned h = 0; h < c->n; h++) {
			lldp_put8(w, c->hop[h].len);
			lldp_put(w, c->hop[h].v, c->hop[h].len);
		}
	}
}

void lldp_pfcdl_print(const struct lldp_pdu *pdu, struct strbuf *sb)
{
	const struct pfcdl_tlv *t = &pdu->pfcdl;

	if (t->version != PFCDL_VERSION) {
		strbuf_printf(sb, "version %u, not read", t->version);
		return;
	}
	if (!t->n)
		strbuf_puts(sb, "no wait");
	for (unsigned i = 0; i < t->n; i++) {
		strbuf_printf(sb, "%spriority %u:", i ? "; " : "",
		              t->c[i].prio);
		for (unsigned h = 0; h < t->c[i].n; h++) {
			char id[3 * PFCDL_ID_MAX + 1];

			pfcdl_id_format(&t->c[i].hop[h], id, sizeof(id));
			strbuf_printf(sb, "%s%s", h ? " -> " : " ", id);
		}
	}
}
