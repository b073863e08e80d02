/* dcbnl_msg: DCB netlink requests and replies (see dcbnl_msg.h).
 *
 * Layouts follow the kernel's net/dcb/dcbnl.c: requests as iproute2's dcb
 * builds them (libmnl nests, which carry NLA_F_NESTED), replies as
 * dcbnl_ieee_fill() builds them (nests without the flag, struct payloads
 * copied whole, APP entries typed by selector).
 */
#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <string.h>

#include "nlmsg/dcbnl_msg.h"

_Static_assert(DCB_ATTR_DCB_BUFFER + 1 == DCBNL_MSG_ATTR_APP_TRUST_TABLE,
               "ieee_attrs numbering");
_Static_assert(DCB_ATTR_IEEE_APP + 1 == DCBNL_MSG_ATTR_DCB_APP,
               "ieee_attrs_app numbering");
_Static_assert(PLAN_APP_SEL_PCP == DCBNL_MSG_APP_SEL_PCP, "PCP selector");

/* ------------------------------------------------------------------ */
/* Requests */

/* Every request starts the same: header, dcbmsg, DCB_ATTR_IFNAME. */
static struct nlmsghdr *dcbnl_msg_start(void *buf, size_t len, uint16_t type,
                                        uint8_t cmd, uint32_t seq,
                                        const char *ifname, int *err)
{
	struct nlmsghdr *nlh;
	struct dcbmsg *d;
	size_t n;

	*err = -EINVAL;
	if (!buf || !ifname)
		return NULL;
	n = strnlen(ifname, IFNAMSIZ);
	if (n == 0 || n >= IFNAMSIZ)
		return NULL;
	*err = -EMSGSIZE;
	if (len < MNL_NLMSG_HDRLEN + MNL_ALIGN(sizeof(*d)))
		return NULL;
	/* libmnl (1.0.4 at least) leaves attribute padding as it finds it,
	 * and the bytes sent must not depend on the buffer's past. */
	memset(buf, 0, len);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = seq;
	d = mnl_nlmsg_put_extra_header(nlh, sizeof(*d));
	d->dcb_family = AF_UNSPEC;
	d->cmd = cmd;
	if (!mnl_attr_put_strz_check(nlh, len, DCB_ATTR_IFNAME, ifname))
		return NULL;
	*err = 0;
	return nlh;
}

static int dcbnl_msg_bare(void *buf, size_t len, uint16_t type, uint8_t cmd,
                          uint32_t seq, const char *ifname)
{
	int err;

	dcbnl_msg_start(buf, len, type, cmd, seq, ifname, &err);
	return err;
}

int dcbnl_msg_ieee_get(void *buf, size_t len, uint32_t seq, const char *ifname)
{
	return dcbnl_msg_bare(buf, len, RTM_GETDCB, DCB_CMD_IEEE_GET, seq,
	                      ifname);
}

int dcbnl_msg_gdcbx(void *buf, size_t len, uint32_t seq, const char *ifname)
{
	return dcbnl_msg_bare(buf, len, RTM_GETDCB, DCB_CMD_GDCBX, seq, ifname);
}

int dcbnl_msg_gcap(void *buf, size_t len, uint32_t seq, const char *ifname)
{
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	int err;

	nlh = dcbnl_msg_start(buf, len, RTM_GETDCB, DCB_CMD_GCAP, seq, ifname,
	                      &err);
	if (!nlh)
		return err;
	/* The kernel answers only the capabilities asked for; ALL asks for
	 * every one. */
	nest = mnl_attr_nest_start_check(nlh, len, DCB_ATTR_CAP);
	if (!nest || !mnl_attr_put_check(nlh, len, DCB_CAP_ATTR_ALL, 0, ""))
		return -EMSGSIZE;
	mnl_attr_nest_end(nlh, nest);
	return 0;
}

int dcbnl_msg_sdcbx(void *buf, size_t len, uint32_t seq, const char *ifname,
                    uint8_t mode)
{
	struct nlmsghdr *nlh;
	int err;

	nlh = dcbnl_msg_start(buf, len, RTM_SETDCB, DCB_CMD_SDCBX, seq, ifname,
	                      &err);
	if (!nlh)
		return err;
	if (!mnl_attr_put_u8_check(nlh, len, DCB_ATTR_DCBX, mode))
		return -EMSGSIZE;
	return 0;
}

/* IEEE_SET/DEL with one attribute of SIZE bytes inside DCB_ATTR_IEEE. */
static int dcbnl_msg_ieee_put(void *buf, size_t len, uint8_t cmd, uint32_t seq,
                              const char *ifname, uint16_t type,
                              const void *data, size_t size)
{
	struct nlmsghdr *nlh;
	struct nlattr *ieee;
	int err;

	nlh = dcbnl_msg_start(buf, len, RTM_SETDCB, cmd, seq, ifname, &err);
	if (!nlh)
		return err;
	ieee = mnl_attr_nest_start_check(nlh, len, DCB_ATTR_IEEE);
	if (!ieee || !mnl_attr_put_check(nlh, len, type, size, data))
		return -EMSGSIZE;
	mnl_attr_nest_end(nlh, ieee);
	return 0;
}

int dcbnl_msg_pfc_set(void *buf, size_t len, uint32_t seq, const char *ifname,
                      const struct ieee_pfc *pfc)
{
	struct ieee_pfc p;
	int i;

	if (!pfc)
		return -EINVAL;
	/* Copy field by field: the struct has holes, and the bytes sent
	 * must not depend on what the caller's holes held. */
	memset(&p, 0, sizeof(p));
	p.pfc_cap = pfc->pfc_cap;
	p.pfc_en = pfc->pfc_en;
	p.mbc = pfc->mbc;
	p.delay = pfc->delay;
	for (i = 0; i < IEEE_8021QAZ_MAX_TCS; i++) {
		p.requests[i] = pfc->requests[i];
		p.indications[i] = pfc->indications[i];
	}
	return dcbnl_msg_ieee_put(buf, len, DCB_CMD_IEEE_SET, seq, ifname,
	                          DCB_ATTR_IEEE_PFC, &p, sizeof(p));
}

int dcbnl_msg_ets_set(void *buf, size_t len, uint32_t seq, const char *ifname,
                      const struct ieee_ets *ets)
{
	if (!ets)
		return -EINVAL;
	/* struct ieee_ets is all bytes: no holes to clear. */
	return dcbnl_msg_ieee_put(buf, len, DCB_CMD_IEEE_SET, seq, ifname,
	                          DCB_ATTR_IEEE_ETS, ets, sizeof(*ets));
}

int dcbnl_msg_maxrate_set(void *buf, size_t len, uint32_t seq,
                          const char *ifname, const struct ieee_maxrate *mr)
{
	if (!mr)
		return -EINVAL;
	return dcbnl_msg_ieee_put(buf, len, DCB_CMD_IEEE_SET, seq, ifname,
	                          DCB_ATTR_IEEE_MAXRATE, mr, sizeof(*mr));
}

int dcbnl_msg_buffer_set(void *buf, size_t len, uint32_t seq,
                         const char *ifname, const struct dcbnl_buffer *b)
{
	struct dcbnl_buffer c;
	int i;

	if (!b)
		return -EINVAL;
	memset(&c, 0, sizeof(c));
	for (i = 0; i < IEEE_8021Q_MAX_PRIORITIES; i++) {
		/* The kernel refuses the whole set otherwise. */
		if (b->prio2buffer[i] >= DCBX_MAX_BUFFERS)
			return -EINVAL;
		c.prio2buffer[i] = b->prio2buffer[i];
	}
	for (i = 0; i < DCBX_MAX_BUFFERS; i++)
		c.buffer_size[i] = b->buffer_size[i];
	c.total_size = b->total_size;
	return dcbnl_msg_ieee_put(buf, len, DCB_CMD_IEEE_SET, seq, ifname,
	                          DCB_ATTR_DCB_BUFFER, &c, sizeof(c));
}

/* The attribute an APP entry or trusted selector travels in; 0 if the
 * selector is unknown. The kernel rejects an entry in the wrong one. */
static uint16_t dcbnl_msg_app_attr(uint8_t selector)
{
	switch (selector) {
	case IEEE_8021QAZ_APP_SEL_ETHERTYPE:
	case IEEE_8021QAZ_APP_SEL_STREAM:
	case IEEE_8021QAZ_APP_SEL_DGRAM:
	case IEEE_8021QAZ_APP_SEL_ANY:
	case IEEE_8021QAZ_APP_SEL_DSCP:
		return DCB_ATTR_IEEE_APP;
	case DCBNL_MSG_APP_SEL_PCP:
		return DCBNL_MSG_ATTR_DCB_APP;
	default:
		return 0;
	}
}

static int dcbnl_msg_app(void *buf, size_t len, uint8_t cmd, uint32_t seq,
                         const char *ifname, const struct dcb_app *apps,
                         size_t n)
{
	struct nlattr *ieee, *table;
	struct nlmsghdr *nlh;
	struct dcb_app a;
	uint16_t type;
	size_t i;
	int err;

	if (!apps || n == 0)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!dcbnl_msg_app_attr(apps[i].selector))
			return -EINVAL;
	nlh = dcbnl_msg_start(buf, len, RTM_SETDCB, cmd, seq, ifname, &err);
	if (!nlh)
		return err;
	ieee = mnl_attr_nest_start_check(nlh, len, DCB_ATTR_IEEE);
	if (!ieee)
		return -EMSGSIZE;
	table = mnl_attr_nest_start_check(nlh, len, DCB_ATTR_IEEE_APP_TABLE);
	if (!table)
		return -EMSGSIZE;
	for (i = 0; i < n; i++) {
		memset(&a, 0, sizeof(a));
		a.selector = apps[i].selector;
		a.priority = apps[i].priority;
		a.protocol = apps[i].protocol;
		type = dcbnl_msg_app_attr(a.selector);
		if (!mnl_attr_put_check(nlh, len, type, sizeof(a), &a))
			return -EMSGSIZE;
	}
	mnl_attr_nest_end(nlh, table);
	mnl_attr_nest_end(nlh, ieee);
	return 0;
}

int dcbnl_msg_app_add(void *buf, size_t len, uint32_t seq, const char *ifname,
                      const struct dcb_app *apps, size_t n)
{
	return dcbnl_msg_app(buf, len, DCB_CMD_IEEE_SET, seq, ifname, apps, n);
}

int dcbnl_msg_app_del(void *buf, size_t len, uint32_t seq, const char *ifname,
                      const struct dcb_app *apps, size_t n)
{
	return dcbnl_msg_app(buf, len, DCB_CMD_IEEE_DEL, seq, ifname, apps, n);
}

int dcbnl_msg_apptrust_set(void *buf, size_t len, uint32_t seq,
                           const char *ifname, const uint8_t *sel, size_t n)
{
	struct nlattr *ieee, *table;
	struct nlmsghdr *nlh;
	size_t i, j;
	int err;

	if ((!sel && n) || n > DCBNL_MSG_TRUST_MAX)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (!dcbnl_msg_app_attr(sel[i]))
			return -EINVAL;
		for (j = 0; j < i; j++)
			if (sel[j] == sel[i])
				return -EINVAL;
	}
	nlh = dcbnl_msg_start(buf, len, RTM_SETDCB, DCB_CMD_IEEE_SET, seq,
	                      ifname, &err);
	if (!nlh)
		return err;
	ieee = mnl_attr_nest_start_check(nlh, len, DCB_ATTR_IEEE);
	if (!ieee)
		return -EMSGSIZE;
	table =
	    mnl_attr_nest_start_check(nlh, len, DCBNL_MSG_ATTR_APP_TRUST_TABLE);
	if (!table)
		return -EMSGSIZE;
	for (i = 0; i < n; i++)
		if (!mnl_attr_put_u8_check(nlh, len, dcbnl_msg_app_attr(sel[i]),
		                           sel[i]))
			return -EMSGSIZE;
	mnl_attr_nest_end(nlh, table);
	mnl_attr_nest_end(nlh, ieee);
	return 0;
}

/* ------------------------------------------------------------------ */
/* From the plan */

void dcbnl_msg_pfc_from_plan(const struct plan_dcb *pd,
                             const struct ieee_pfc *cur, struct ieee_pfc *out)
{
	memset(out, 0, sizeof(*out));
	if (cur)
		*out = *cur;
	out->pfc_en = pd->pfc_en;
}

void dcbnl_msg_ets_from_plan(const struct plan_dcb *pd,
                             const struct ieee_ets *cur, struct ieee_ets *out)
{
	int i;

	memset(out, 0, sizeof(*out));
	if (cur)
		*out = *cur;
	for (i = 0; i < IEEE_8021QAZ_MAX_TCS; i++) {
		out->tc_tsa[i] = pd->ets_tsa[i];
		out->tc_tx_bw[i] = pd->ets_bw[i];
		out->prio_tc[i] = pd->prio_tc[i];
	}
}

size_t dcbnl_msg_apps_from_plan(const struct plan_dcb *pd, struct dcb_app *out,
                                size_t max)
{
	size_t i;

	for (i = 0; i < pd->napp && i < max; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		out[i].selector = pd->app[i].selector;
		out[i].priority = pd->app[i].priority;
		out[i].protocol = pd->app[i].protocol;
	}
	return pd->napp;
}

/* ------------------------------------------------------------------ */
/* Replies */

typedef int (*dcbnl_msg_attr_fn)(const struct nlattr *a, void *data);

/* Call FN for each attribute of the LEN bytes at P. Unlike
 * mnl_attr_parse(), which stops quietly at the first attribute that does
 * not fit, anything but whole attributes is an error here. */
static int dcbnl_msg_walk(const void *p, size_t len, dcbnl_msg_attr_fn fn,
                          void *data)
{
	const struct nlattr *a = p;
	int rem = (int)len;
	int err, step;

	while (rem > 0) {
		if (!mnl_attr_ok(a, rem))
			return -EINVAL;
		err = fn(a, data);
		if (err)
			return err;
		step = MNL_ALIGN(a->nla_len);
		/* The last attribute's padding may be cut off. */
		if (step >= rem)
			break;
		rem -= step;
		a = (const struct nlattr *)((const char *)a + step);
	}
	return 0;
}

static int dcbnl_msg_walk_nest(const struct nlattr *nest, dcbnl_msg_attr_fn fn,
                               void *data)
{
	if (mnl_attr_validate(nest, MNL_TYPE_NESTED) < 0)
		return -EINVAL;
	return dcbnl_msg_walk(mnl_attr_get_payload(nest),
	                      mnl_attr_get_payload_len(nest), fn, data);
}

/* Copy a struct attribute; the kernel's are exactly the uapi size. */
static int dcbnl_msg_get_struct(const struct nlattr *a, void *out, size_t size)
{
	if (mnl_attr_validate2(a, MNL_TYPE_BINARY, size) < 0)
		return -EINVAL;
	memcpy(out, mnl_attr_get_payload(a), size);
	return 0;
}

static int dcbnl_msg_get_u8(const struct nlattr *a, uint8_t *out)
{
	if (mnl_attr_validate(a, MNL_TYPE_U8) < 0)
		return -EINVAL;
	*out = mnl_attr_get_u8(a);
	return 0;
}

/* Check a message's header and return its dcbmsg, or NULL with *ERR. */
/* Is the first message of BUF whole? libmnl's mnl_nlmsg_ok() compares
 * nlmsg_len as an int, so a length of 2^31 or more would pass it and the
 * walk would read past LEN (found by tests/fuzz/fuzz_dcbnl_msg). */
static bool dcbnl_msg_ok(const struct nlmsghdr *nlh, size_t len)
{
	return nlh && len >= sizeof(*nlh) && nlh->nlmsg_len >= sizeof(*nlh) &&
	       nlh->nlmsg_len <= len && nlh->nlmsg_len <= INT32_MAX;
}

static const struct dcbmsg *dcbnl_msg_head(const void *buf, size_t len,
                                           const struct nlmsghdr **nlhp,
                                           int *err)
{
	const struct nlmsghdr *nlh = buf;

	*err = -EINVAL;
	if (!dcbnl_msg_ok(nlh, len))
		return NULL;
	if (nlh->nlmsg_len <
	    MNL_NLMSG_HDRLEN + MNL_ALIGN(sizeof(struct dcbmsg)))
		return NULL;
	*err = -ENOMSG;
	if (nlh->nlmsg_type != RTM_GETDCB && nlh->nlmsg_type != RTM_SETDCB)
		return NULL;
	*err = 0;
	*nlhp = nlh;
	return mnl_nlmsg_get_payload(nlh);
}

static int dcbnl_msg_walk_msg(const struct nlmsghdr *nlh, dcbnl_msg_attr_fn fn,
                              void *data)
{
	size_t off = MNL_ALIGN(sizeof(struct dcbmsg));

	return dcbnl_msg_walk((const char *)mnl_nlmsg_get_payload(nlh) + off,
	                      mnl_nlmsg_get_payload_len(nlh) - off, fn, data);
}

struct dcbnl_msg_apps {
	struct dcb_app *v;
	size_t *n;
};

static int dcbnl_msg_app_cb(const struct nlattr *a, void *data)
{
	struct dcbnl_msg_apps *t = data;
	uint16_t type = mnl_attr_get_type(a);
	struct dcb_app app;
	int err;

	if (type != DCB_ATTR_IEEE_APP && type != DCBNL_MSG_ATTR_DCB_APP)
		return 0;
	err = dcbnl_msg_get_struct(a, &app, sizeof(app));
	if (err)
		return err;
	if (dcbnl_msg_app_attr(app.selector) != type)
		return -EINVAL;
	if (*t->n >= DCBNL_MSG_APP_MAX)
		return -ENOBUFS;
	t->v[(*t->n)++] = app;
	return 0;
}

static int dcbnl_msg_trust_cb(const struct nlattr *a, void *data)
{
	struct dcbnl_msg_ieee *out = data;
	uint16_t type = mnl_attr_get_type(a);
	uint8_t sel;
	size_t i;

	if (type != DCB_ATTR_IEEE_APP && type != DCBNL_MSG_ATTR_DCB_APP)
		return 0;
	if (dcbnl_msg_get_u8(a, &sel))
		return -EINVAL;
	if (dcbnl_msg_app_attr(sel) != type)
		return -EINVAL;
	for (i = 0; i < out->ntrust; i++)
		if (out->trust[i] == sel)
			return -EINVAL;
	if (out->ntrust >= DCBNL_MSG_TRUST_MAX)
		return -ENOBUFS;
	out->trust[out->ntrust++] = sel;
	return 0;
}

static int dcbnl_msg_ieee_cb(const struct nlattr *a, void *data)
{
	struct dcbnl_msg_ieee *out = data;
	struct dcbnl_msg_apps t;
	unsigned bit = 0;
	int err = 0;

	switch (mnl_attr_get_type(a)) {
	case DCB_ATTR_IEEE_ETS:
		err = dcbnl_msg_get_struct(a, &out->ets, sizeof(out->ets));
		bit = DCBNL_MSG_HAS_ETS;
		break;
	case DCB_ATTR_IEEE_PFC:
		err = dcbnl_msg_get_struct(a, &out->pfc, sizeof(out->pfc));
		bit = DCBNL_MSG_HAS_PFC;
		break;
	case DCB_ATTR_IEEE_MAXRATE:
		err = dcbnl_msg_get_struct(a, &out->maxrate,
		                           sizeof(out->maxrate));
		bit = DCBNL_MSG_HAS_MAXRATE;
		break;
	case DCB_ATTR_DCB_BUFFER:
		err =
		    dcbnl_msg_get_struct(a, &out->buffer, sizeof(out->buffer));
		bit = DCBNL_MSG_HAS_BUFFER;
		break;
	case DCB_ATTR_IEEE_PEER_ETS:
		err = dcbnl_msg_get_struct(a, &out->peer_ets,
		                           sizeof(out->peer_ets));
		bit = DCBNL_MSG_HAS_PEER_ETS;
		break;
	case DCB_ATTR_IEEE_PEER_PFC:
		err = dcbnl_msg_get_struct(a, &out->peer_pfc,
		                           sizeof(out->peer_pfc));
		bit = DCBNL_MSG_HAS_PEER_PFC;
		break;
	case DCB_ATTR_IEEE_APP_TABLE:
		t.v = out->app;
		t.n = &out->napp;
		err = dcbnl_msg_walk_nest(a, dcbnl_msg_app_cb, &t);
		bit = DCBNL_MSG_HAS_APP;
		break;
	case DCB_ATTR_IEEE_PEER_APP:
		t.v = out->peer_app;
		t.n = &out->npeer_app;
		err = dcbnl_msg_walk_nest(a, dcbnl_msg_app_cb, &t);
		bit = DCBNL_MSG_HAS_PEER_APP;
		break;
	case DCBNL_MSG_ATTR_APP_TRUST_TABLE:
		err = dcbnl_msg_walk_nest(a, dcbnl_msg_trust_cb, out);
		bit = DCBNL_MSG_HAS_TRUST;
		break;
	default:
		/* QCN, the rewrite table and whatever comes next. */
		break;
	}
	if (!err)
		out->present |= bit;
	return err;
}

static int dcbnl_msg_fill_cb(const struct nlattr *a, void *data)
{
	struct dcbnl_msg_ieee *out = data;
	uint16_t n;

	switch (mnl_attr_get_type(a)) {
	case DCB_ATTR_IFNAME:
		n = mnl_attr_get_payload_len(a);
		if (mnl_attr_validate(a, MNL_TYPE_NUL_STRING) < 0 ||
		    n > IFNAMSIZ)
			return -EINVAL;
		memcpy(out->ifname, mnl_attr_get_payload(a), n);
		out->present |= DCBNL_MSG_HAS_IFNAME;
		return 0;
	case DCB_ATTR_IEEE:
		return dcbnl_msg_walk_nest(a, dcbnl_msg_ieee_cb, out);
	case DCB_ATTR_DCBX:
		if (dcbnl_msg_get_u8(a, &out->dcbx))
			return -EINVAL;
		out->present |= DCBNL_MSG_HAS_DCBX;
		return 0;
	default:
		return 0;
	}
}

/* Walk with FN the attributes of the message in BUF (LEN bytes) when its
 * command is one of CMDS (N of them; else -ENOMSG). OUT's first SIZE
 * bytes are zeroed before, and again when the walk fails. */
static int dcbnl_msg_parse_cmd(const void *buf, size_t len, const uint8_t *cmds,
                               size_t n, dcbnl_msg_attr_fn fn, void *out,
                               size_t size)
{
	const struct nlmsghdr *nlh = NULL;
	const struct dcbmsg *d;
	int err;

	memset(out, 0, size);
	d = dcbnl_msg_head(buf, len, &nlh, &err);
	if (!d)
		return err;
	if (!memchr(cmds, d->cmd, n))
		return -ENOMSG;
	err = dcbnl_msg_walk_msg(nlh, fn, out);
	if (err)
		memset(out, 0, size);
	return err;
}

int dcbnl_msg_parse_ieee(const void *buf, size_t len,
                         struct dcbnl_msg_ieee *out)
{
	static const uint8_t cmds[] = {DCB_CMD_IEEE_GET, DCB_CMD_IEEE_SET,
	                               DCB_CMD_IEEE_DEL};

	if (!out)
		return -EINVAL;
	return dcbnl_msg_parse_cmd(buf, len, cmds, sizeof(cmds),
	                           dcbnl_msg_fill_cb, out, sizeof(*out));
}

struct dcbnl_msg_u8 {
	uint16_t type;
	uint8_t v;
	bool seen;
};

static int dcbnl_msg_u8_cb(const struct nlattr *a, void *data)
{
	struct dcbnl_msg_u8 *u = data;

	if (mnl_attr_get_type(a) != u->type)
		return 0;
	if (dcbnl_msg_get_u8(a, &u->v))
		return -EINVAL;
	u->seen = true;
	return 0;
}

/* The u8 attribute TYPE of a reply to CMD. */
static int dcbnl_msg_parse_u8(const void *buf, size_t len, uint8_t cmd,
                              uint16_t type, uint8_t *v)
{
	struct dcbnl_msg_u8 u = {.type = type};
	int err =
	    dcbnl_msg_parse_cmd(buf, len, &cmd, 1, dcbnl_msg_u8_cb, &u, 0);

	if (err)
		return err;
	if (!u.seen)
		return -EINVAL;
	*v = u.v;
	return 0;
}

int dcbnl_msg_parse_dcbx(const void *buf, size_t len, uint8_t *mode)
{
	if (!mode)
		return -EINVAL;
	return dcbnl_msg_parse_u8(buf, len, DCB_CMD_GDCBX, DCB_ATTR_DCBX, mode);
}

static int dcbnl_msg_capv_cb(const struct nlattr *a, void *data)
{
	struct dcbnl_msg_cap *out = data;
	uint16_t type = mnl_attr_get_type(a);

	if (type <= DCB_CAP_ATTR_ALL || type > DCB_CAP_ATTR_MAX)
		return 0;
	if (dcbnl_msg_get_u8(a, &out->v[type]))
		return -EINVAL;
	out->present |= 1u << type;
	return 0;
}

static int dcbnl_msg_cap_cb(const struct nlattr *a, void *data)
{
	if (mnl_attr_get_type(a) != DCB_ATTR_CAP)
		return 0;
	return dcbnl_msg_walk_nest(a, dcbnl_msg_capv_cb, data);
}

int dcbnl_msg_parse_cap(const void *buf, size_t len, struct dcbnl_msg_cap *out)
{
	static const uint8_t cmd = DCB_CMD_GCAP;

	if (!out)
		return -EINVAL;
	return dcbnl_msg_parse_cmd(buf, len, &cmd, 1, dcbnl_msg_cap_cb, out,
	                           sizeof(*out));
}

int dcbnl_msg_parse_status(const void *buf, size_t len, int *status)
{
	const struct nlmsghdr *nlh = buf;
	const struct nlmsgerr *e;
	const struct dcbmsg *d;
	uint8_t v;
	int err;

	if (!status || !dcbnl_msg_ok(nlh, len))
		return -EINVAL;
	if (nlh->nlmsg_type == NLMSG_ERROR) {
		if (mnl_nlmsg_get_payload_len(nlh) < sizeof(e->error))
			return -EINVAL;
		e = mnl_nlmsg_get_payload(nlh);
		/* Anything else is not an errno: refuse rather than guess. */
		if (e->error > 0 || e->error < -4095)
			return -EINVAL;
		*status = e->error;
		return 0;
	}
	d = dcbnl_msg_head(buf, len, &nlh, &err);
	if (!d)
		return err;
	switch (d->cmd) {
	case DCB_CMD_IEEE_SET:
	case DCB_CMD_IEEE_DEL:
		err = dcbnl_msg_parse_u8(buf, len, d->cmd, DCB_ATTR_IEEE, &v);
		if (err)
			return err;
		/* nla_put_u8(skb, DCB_ATTR_IEEE, err) kept the low byte. */
		*status = v ? (int)v - 256 : 0;
		return 0;
	case DCB_CMD_SDCBX:
		err = dcbnl_msg_parse_u8(buf, len, d->cmd, DCB_ATTR_DCBX, &v);
		if (err)
			return err;
		*status = v ? -EINVAL : 0;
		return 0;
	default:
		return -ENOMSG;
	}
}
