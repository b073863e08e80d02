/* lldpad_msg: see lldpad_msg.h. */
#include "proto/lldpad_msg.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "proto/lldp.h"

/* lldptool's module id, and the version of the command layout. */
#define LLDPAD_MSG_MODULE  1u
#define LLDPAD_MSG_VERSION '3'
/* lldpad's nearest-bridge agent (the agent-type field). */
#define LLDPAD_MSG_NEAREST 0u

static const char *const lldpad_msg_status_names[] = {
    [LLDPAD_ST_OK] = "ok",
    [LLDPAD_ST_FAILED] = "failed",
    [LLDPAD_ST_NO_DEVICE] = "device not found or inactive",
    [LLDPAD_ST_NO_AGENT] = "agent not found",
    [LLDPAD_ST_INVALID] = "invalid command",
    [LLDPAD_ST_BAD_PARAMS] = "bad parameters",
    [LLDPAD_ST_NO_PEER] = "peer not present",
    [LLDPAD_ST_VERSION] = "incompatible control version",
    [LLDPAD_ST_NOT_CAPABLE] = "device not capable",
    [LLDPAD_ST_NOT_APPLICABLE] = "not applicable",
    [LLDPAD_ST_NO_ACCESS] = "access denied",
    [LLDPAD_ST_AGENT_UNSUPPORTED] = "agent not supported",
};

const char *lldpad_msg_status_name(unsigned status)
{
	if (status < sizeof(lldpad_msg_status_names) /
	                 sizeof(lldpad_msg_status_names[0]))
		return lldpad_msg_status_names[status];
	return "unknown status";
}

static const struct {
	uint32_t tlvid;
	const char *name;
} lldpad_msg_tlv_names[] = {
    {LLDPAD_TLV_ETS_CFG, "ETS-CFG"},
    {LLDPAD_TLV_ETS_REC, "ETS-REC"},
    {LLDPAD_TLV_PFC, "PFC"},
    {LLDPAD_TLV_APP, "APP"},
};

const char *lldpad_msg_tlv_name(uint32_t tlvid)
{
	for (size_t i = 0;
	     i < sizeof(lldpad_msg_tlv_names) / sizeof(lldpad_msg_tlv_names[0]);
	     i++)
		if (lldpad_msg_tlv_names[i].tlvid == tlvid)
			return lldpad_msg_tlv_names[i].name;
	return "?";
}

/* Appends to a fixed buffer; OVER records that it did not fit. */
struct lldpad_msg_out {
	char *buf;
	size_t cap, len;
	bool over;
};

static void lldpad_msg_put(struct lldpad_msg_out *o, const char *s, size_t n)
{
	if (o->over || o->cap - o->len < n + 1) {
		o->over = true;
		return;
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
	o->buf[o->len] = '\0';
}

static void lldpad_msg_hex(struct lldpad_msg_out *o, uint32_t v, int digits)
{
	char t[9];

	snprintf(t, sizeof(t), "%0*x", digits, v);
	lldpad_msg_put(o, t, (size_t)digits);
}

int lldpad_msg_encode(char *buf, size_t cap, unsigned cmd, uint32_t ops,
                      const char *ifname, uint32_t tlvid,
                      const struct lldpad_msg_arg *args, size_t nargs)
{
	struct lldpad_msg_out o = {buf, cap, 0, cap == 0};
	size_t iflen = strlen(ifname);
	char ver = LLDPAD_MSG_VERSION;

	if (iflen == 0 || iflen > 16 || cmd > 0xff)
		return -EINVAL;
	lldpad_msg_put(&o, "M", 1);
	lldpad_msg_hex(&o, LLDPAD_MSG_MODULE, 8);
	lldpad_msg_put(&o, "C", 1);
	lldpad_msg_put(&o, &ver, 1);
	lldpad_msg_hex(&o, cmd, 2);
	lldpad_msg_hex(&o, ops, 8);
	lldpad_msg_hex(&o, (uint32_t)iflen, 2);
	lldpad_msg_put(&o, ifname, iflen);
	lldpad_msg_hex(&o, LLDPAD_MSG_NEAREST, 2);
	lldpad_msg_hex(&o, tlvid, 8);
	for (size_t i = 0; i < nargs; i++) {
		size_t an = strlen(args[i].name);

		if (an == 0 || an > 0xff)
			return -EINVAL;
		lldpad_msg_hex(&o, (uint32_t)an, 2);
		lldpad_msg_put(&o, args[i].name, an);
		if (args[i].value) {
			size_t vn = strlen(args[i].value);

			if (vn > 0xffff)
				return -EINVAL;
			lldpad_msg_hex(&o, (uint32_t)vn, 4);
			lldpad_msg_put(&o, args[i].value, vn);
		}
	}
	return o.over ? -ENOSPC : (int)o.len;
}

/* N hex digits at S into *V; false when one is not a hex digit. */
static bool lldpad_msg_unhex(const char *s, int n, uint32_t *v)
{
	*v = 0;
	for (int i = 0; i < n; i++) {
		char c = s[i];
		unsigned d;

		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return false;
		*v = *v << 4 | d;
	}
	return true;
}

/* Bounds-checked field reader over a reply: every take fails once the
 * buffer is short, and the decoder leaves through one exit. */
struct lldpad_msg_in {
	const char *p;
	size_t left;
};

static bool lldpad_msg_take_hex(struct lldpad_msg_in *in, int n, uint32_t *v)
{
	if (in->left < (size_t)n || !lldpad_msg_unhex(in->p, n, v))
		return false;
	in->p += n;
	in->left -= (size_t)n;
	return true;
}

int lldpad_msg_decode(const char *buf, size_t len, struct lldpad_msg_reply *r)
{
	struct lldpad_msg_in in = {buf, len};
	uint32_t v, iflen;

	memset(r, 0, sizeof(*r));
	if (len < 1 || buf[0] != 'R')
		return -EBADMSG;
	in.p++, in.left--;
	if (!lldpad_msg_take_hex(&in, 2, &v))
		return -EBADMSG;
	r->status = v;
	/* The echo of the command: 'C', its version, cmd, ops, ifname. */
	if (in.left < 2 || in.p[0] != 'C')
		return -EBADMSG;
	in.p += 2, in.left -= 2;
	if (!lldpad_msg_take_hex(&in, 2, &v))
		return -EBADMSG;
	r->cmd = v;
	if (!lldpad_msg_take_hex(&in, 8, &r->ops) ||
	    !lldpad_msg_take_hex(&in, 2, &iflen) ||
	    iflen >= sizeof(r->ifname) || in.left < iflen)
		return -EBADMSG;
	memcpy(r->ifname, in.p, iflen);
	r->ifname[iflen] = '\0';
	in.p += iflen, in.left -= iflen;
	if (in.left == 0 && r->status != LLDPAD_ST_OK)
		return 0;
	if (!lldpad_msg_take_hex(&in, 8, &r->tlvid))
		return -EBADMSG;
	r->payload = in.p;
	r->payload_len = in.left;
	return 0;
}

int lldpad_msg_value(const struct lldpad_msg_reply *r, const char *name,
                     char *val, size_t cap)
{
	struct lldpad_msg_in in = {r->payload, r->payload_len};

	while (in.left > 0) {
		uint32_t an, vn;
		const char *a;

		if (!lldpad_msg_take_hex(&in, 2, &an) || in.left < an)
			return -EBADMSG;
		a = in.p;
		in.p += an, in.left -= an;
		if (!lldpad_msg_take_hex(&in, 4, &vn) || in.left < vn)
			return -EBADMSG;
		if (an == strlen(name) && !memcmp(a, name, an)) {
			if (vn >= cap)
				return -ENOSPC;
			memcpy(val, in.p, vn);
			val[vn] = '\0';
			return 0;
		}
		in.p += vn, in.left -= vn;
	}
	return -ENOENT;
}

/* The reply's TLVs, wrapped in the mandatory TLVs of a minimal LLDPDU so
 * that lldp.c's TLV table decodes them (one codec for every source). */
#define LLDPAD_MSG_PDU_MAX 1500

int lldpad_msg_tlvs(const struct lldpad_msg_reply *r, struct dcbx_tlvs *out,
                    char *err, size_t errlen)
{
	static const uint8_t head[] = {
	    0x02, 0x07, 0x04, 0,    0, 0, 0, 0, 0, /* chassis: MAC 0 */
	    0x04, 0x02, 0x07, 'x',                 /* port: local "x" */
	    0x06, 0x02, 0x00, 0x78,                /* TTL 120 */
	};
	uint8_t pdu[LLDPAD_MSG_PDU_MAX];
	struct lldpad_msg_in in = {r->payload, r->payload_len};
	struct lldp_pdu dec;
	size_t n = sizeof(head);

	memcpy(pdu, head, sizeof(head));
	while (in.left > 0) {
		uint32_t tl, b;
		size_t tlen;

		if (!lldpad_msg_take_hex(&in, 4, &tl))
			goto malformed;
		tlen = tl & 0x1ff;
		if (tl >> 9 == 0)
			break; /* End of LLDPDU */
		if (in.left < 2 * tlen || n + 2 + tlen + 2 > sizeof(pdu))
			goto malformed;
		pdu[n++] = (uint8_t)(tl >> 8);
		pdu[n++] = (uint8_t)tl;
		for (size_t i = 0; i < tlen; i++) {
			if (!lldpad_msg_take_hex(&in, 2, &b))
				goto malformed;
			pdu[n++] = (uint8_t)b;
		}
	}
	pdu[n++] = 0;
	pdu[n++] = 0;
	if (lldp_decode(pdu, n, &dec, err, errlen) < 0)
		return -EBADMSG;
	if (dec.dcbx.has_ets_cfg) {
		out->has_ets_cfg = true;
		out->ets_cfg = dec.dcbx.ets_cfg;
	}
	if (dec.dcbx.has_ets_rec) {
		out->has_ets_rec = true;
		out->ets_rec = dec.dcbx.ets_rec;
	}
	if (dec.dcbx.has_pfc) {
		out->has_pfc = true;
		out->pfc = dec.dcbx.pfc;
	}
	if (dec.dcbx.has_app) {
		out->has_app = true;
		out->app = dec.dcbx.app;
	}
	return 0;
malformed:
	snprintf(err, errlen, "lldpad's %s TLV is cut short or too long",
	         lldpad_msg_tlv_name(r->tlvid));
	return -EBADMSG;
}

/* lldptool's TSA words (its ETS-CFG tsa= argument). */
static const char *lldpad_msg_tsa(uint8_t tsa)
{
	switch (tsa) {
	case DCBX_TSA_STRICT:
		return "strict";
	case DCBX_TSA_CBS:
		return "cb_shaper";
	case DCBX_TSA_VENDOR:
		return "vendor";
	default:
		return "ets";
	}
}

int lldpad_msg_admin_args(const struct dcbx_tlvs *l, uint32_t tlvid, size_t i,
                          struct lldpad_msg_arg *args, char *store,
                          size_t store_len)
{
	struct lldpad_msg_out o = {store, store_len, 0, store_len == 0};
	const char *v[LLDPAD_MSG_MAXARGS];
	size_t nv = 0, at[LLDPAD_MSG_MAXARGS];
	char t[32];
	int n = 0;

	/* Values are written one after another into STORE, NUL-separated;
	 * AT remembers where each starts. */
#define LLDPAD_MSG_VAL_BEGIN() (at[nv] = o.len)
#define LLDPAD_MSG_VAL_END()                                                   \
	do {                                                                   \
		lldpad_msg_put(&o, "", 0);                                     \
		o.len++;                                                       \
		nv++;                                                          \
	} while (0)
	/* Every TLV roced drives is sent, but the ETS Recommendation only
	 * where roced's port advertises one (a switch's, not a host's):
	 * lldpad's own default for it is not to send it. */
	args[n++].name = "enableTx";
	LLDPAD_MSG_VAL_BEGIN();
	if (tlvid == LLDPAD_TLV_ETS_REC && !l->has_ets_rec)
		lldpad_msg_put(&o, "no", 2);
	else
		lldpad_msg_put(&o, "yes", 3);
	LLDPAD_MSG_VAL_END();
	switch (tlvid) {
	case LLDPAD_TLV_PFC: {
		bool any = false;

		args[n++].name = "willing";
		LLDPAD_MSG_VAL_BEGIN();
		lldpad_msg_put(&o, l->pfc.willing ? "yes" : "no",
		               l->pfc.willing ? 3 : 2);
		LLDPAD_MSG_VAL_END();
		args[n++].name = "enabled";
		LLDPAD_MSG_VAL_BEGIN();
		for (unsigned p = 0; p < DCBX_NPRIO; p++) {
			if (!(l->pfc.enable & (1u << p)))
				continue;
			snprintf(t, sizeof(t), "%s%u", any ? "," : "", p);
			lldpad_msg_put(&o, t, strlen(t));
			any = true;
		}
		if (!any)
			lldpad_msg_put(&o, "none", 4);
		LLDPAD_MSG_VAL_END();
		break;
	}
	case LLDPAD_TLV_ETS_CFG:
	case LLDPAD_TLV_ETS_REC: {
		const struct dcbx_ets *e =
		    tlvid == LLDPAD_TLV_ETS_CFG ? &l->ets_cfg : &l->ets_rec;

		/* The Recommendation has no willing bit; one not sent
		 * needs no values. */
		if (tlvid == LLDPAD_TLV_ETS_CFG) {
			args[n++].name = "willing";
			LLDPAD_MSG_VAL_BEGIN();
			lldpad_msg_put(&o, e->willing ? "yes" : "no",
			               e->willing ? 3 : 2);
			LLDPAD_MSG_VAL_END();
		} else if (!l->has_ets_rec) {
			break;
		}
		args[n++].name = "up2tc";
		LLDPAD_MSG_VAL_BEGIN();
		for (unsigned p = 0; p < DCBX_NPRIO; p++) {
			snprintf(t, sizeof(t), "%s%u:%u", p ? "," : "", p,
			         e->prio_tc[p]);
			lldpad_msg_put(&o, t, strlen(t));
		}
		LLDPAD_MSG_VAL_END();
		args[n++].name = "tcbw";
		LLDPAD_MSG_VAL_BEGIN();
		for (unsigned c = 0; c < DCBX_NTC; c++) {
			snprintf(t, sizeof(t), "%s%u", c ? "," : "",
			         e->tc_bw[c]);
			lldpad_msg_put(&o, t, strlen(t));
		}
		LLDPAD_MSG_VAL_END();
		args[n++].name = "tsa";
		LLDPAD_MSG_VAL_BEGIN();
		for (unsigned c = 0; c < DCBX_NTC; c++) {
			snprintf(t, sizeof(t), "%s%u:%s", c ? "," : "", c,
			         lldpad_msg_tsa(e->tsa[c]));
			lldpad_msg_put(&o, t, strlen(t));
		}
		LLDPAD_MSG_VAL_END();
		break;
	}
	case LLDPAD_TLV_APP:
		if (i >= l->app.n)
			return -EINVAL;
		args[n++].name = "app";
		LLDPAD_MSG_VAL_BEGIN();
		snprintf(t, sizeof(t), "%u,%u,%u", l->app.v[i].prio,
		         l->app.v[i].selector, l->app.v[i].protocol);
		lldpad_msg_put(&o, t, strlen(t));
		LLDPAD_MSG_VAL_END();
		break;
	default:
		return -EINVAL;
	}
#undef LLDPAD_MSG_VAL_BEGIN
#undef LLDPAD_MSG_VAL_END
	if (o.over || o.len > store_len)
		return -ENOSPC;
	for (size_t k = 0; k < nv; k++) {
		v[k] = store + at[k];
		args[k].value = v[k];
	}
	return n;
}

bool lldpad_msg_app_has(const struct dcbx_apps *apps, const struct dcbx_app *e)
{
	for (size_t i = 0; i < apps->n; i++)
		if (apps->v[i].prio == e->prio &&
		    apps->v[i].selector == e->selector &&
		    apps->v[i].protocol == e->protocol)
			return true;
	return false;
}

int lldpad_msg_app_note(struct dcbx_apps *set, const struct dcbx_app *e,
                        bool added)
{
	for (size_t i = 0; i < set->n; i++) {
		if (set->v[i].prio != e->prio ||
		    set->v[i].selector != e->selector ||
		    set->v[i].protocol != e->protocol)
			continue;
		if (!added)
			set->v[i] = set->v[--set->n];
		return 0;
	}
	if (!added)
		return 0;
	if (set->n == DCBX_APP_MAX)
		return -ENOSPC;
	set->v[set->n++] = *e;
	return 0;
}
