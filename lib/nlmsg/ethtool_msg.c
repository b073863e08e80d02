/* ethtool_msg: ethtool generic netlink requests and replies (see
 * ethtool_msg.h).
 *
 * Layouts follow the kernel's net/ethtool/netlink.c: requests carry the
 * device in a nested header (NLA_F_NESTED is required, the family
 * validates strictly), replies put the header nest first (DEV_INDEX,
 * DEV_NAME), then the command's attributes; 64-bit counters may be
 * preceded by a PAD attribute that aligns them.
 */
#include <errno.h>
#include <stdint.h>
#include <libmnl/libmnl.h>
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <string.h>

#include "nlmsg/ethtool_msg.h"

_Static_assert(ETHTOOL_MSG_GSTRING_LEN == ETH_GSTRING_LEN, "gstring length");
_Static_assert(ETHTOOL_MSG_SPEED_UNKNOWN == (uint32_t)SPEED_UNKNOWN,
               "SPEED_UNKNOWN");

/* ------------------------------------------------------------------ */
/* Requests */

static struct nlmsghdr *ethtool_msg_start(void *buf, size_t len, uint16_t type,
                                          uint8_t cmd, uint8_t version,
                                          uint32_t seq, int *err)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;

	*err = -EINVAL;
	if (!buf || !type)
		return NULL;
	*err = -EMSGSIZE;
	if (len < MNL_NLMSG_HDRLEN + GENL_HDRLEN)
		return NULL;
	/* libmnl leaves attribute padding as it finds it, and the bytes
	 * sent must not depend on the buffer's past. */
	memset(buf, 0, len);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = version;
	*err = 0;
	return nlh;
}

int ethtool_msg_family_get(void *buf, size_t len, uint32_t seq)
{
	struct nlmsghdr *nlh;
	int err;

	nlh = ethtool_msg_start(buf, len, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1,
	                        seq, &err);
	if (!nlh)
		return err;
	if (!mnl_attr_put_strz_check(nlh, len, CTRL_ATTR_FAMILY_NAME,
	                             ETHTOOL_GENL_NAME))
		return -EMSGSIZE;
	return 0;
}

/* The request header nest: the device (by name, by index, or none for a
 * dump) and the ETHTOOL_FLAG_* bits. */
static int ethtool_msg_request(void *buf, size_t len, uint32_t seq,
                               uint16_t family, uint8_t cmd, uint16_t hdr,
                               const char *ifname, uint32_t ifindex,
                               uint32_t flags)
{
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	int err;

	if (ifname) {
		size_t n = strnlen(ifname, IFNAMSIZ);

		if (n == 0 || n >= IFNAMSIZ)
			return -EINVAL;
	}
	nlh = ethtool_msg_start(buf, len, family, cmd, ETHTOOL_GENL_VERSION,
	                        seq, &err);
	if (!nlh)
		return err;
	nest = mnl_attr_nest_start_check(nlh, len, hdr);
	if (!nest)
		return -EMSGSIZE;
	if (ifname && !mnl_attr_put_strz_check(
	                  nlh, len, ETHTOOL_A_HEADER_DEV_NAME, ifname))
		return -EMSGSIZE;
	if (!ifname && ifindex &&
	    !mnl_attr_put_u32_check(nlh, len, ETHTOOL_A_HEADER_DEV_INDEX,
	                            ifindex))
		return -EMSGSIZE;
	if (flags &&
	    !mnl_attr_put_u32_check(nlh, len, ETHTOOL_A_HEADER_FLAGS, flags))
		return -EMSGSIZE;
	mnl_attr_nest_end(nlh, nest);
	return 0;
}

int ethtool_msg_linkmodes_get(void *buf, size_t len, uint32_t seq,
                              uint16_t family, const char *ifname,
                              uint32_t ifindex)
{
	return ethtool_msg_request(buf, len, seq, family,
	                           ETHTOOL_MSG_LINKMODES_GET,
	                           ETHTOOL_A_LINKMODES_HEADER, ifname, ifindex,
	                           ETHTOOL_FLAG_COMPACT_BITSETS);
}

int ethtool_msg_pause_get(void *buf, size_t len, uint32_t seq, uint16_t family,
                          const char *ifname, uint32_t ifindex, bool stats)
{
	return ethtool_msg_request(buf, len, seq, family, ETHTOOL_MSG_PAUSE_GET,
	                           ETHTOOL_A_PAUSE_HEADER, ifname, ifindex,
	                           stats ? ETHTOOL_FLAG_STATS : 0);
}

int ethtool_msg_pause_set(void *buf, size_t len, uint32_t seq, uint16_t family,
                          const char *ifname, bool rx, bool tx)
{
	struct nlmsghdr *nlh = buf;
	int err;

	if (!ifname)
		return -EINVAL;
	err = ethtool_msg_request(buf, len, seq, family, ETHTOOL_MSG_PAUSE_SET,
	                          ETHTOOL_A_PAUSE_HEADER, ifname, 0, 0);
	if (err)
		return err;
	/* RX before TX, as ethtool(8) sends them. */
	if (!mnl_attr_put_u8_check(nlh, len, ETHTOOL_A_PAUSE_RX, rx) ||
	    !mnl_attr_put_u8_check(nlh, len, ETHTOOL_A_PAUSE_TX, tx))
		return -EMSGSIZE;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Replies */

typedef int (*ethtool_msg_attr_fn)(const struct nlattr *a, void *data);

/* Walk the attributes in [P, P+LEN). Every attribute must fit; a tail
 * shorter than an attribute header is ignored, as the kernel does. */
static int ethtool_msg_walk(const void *p, size_t len, ethtool_msg_attr_fn fn,
                            void *data)
{
	const char *c = p;

	while (len >= sizeof(struct nlattr)) {
		const struct nlattr *a = (const struct nlattr *)c;
		size_t alen = a->nla_len, step;
		int err;

		if (alen < sizeof(*a) || alen > len)
			return -EINVAL;
		err = fn(a, data);
		if (err)
			return err;
		step = MNL_ALIGN(alen);
		if (step >= len)
			return 0;
		c += step;
		len -= step;
	}
	return 0;
}

static int ethtool_msg_walk_nest(const struct nlattr *a, ethtool_msg_attr_fn fn,
                                 void *data)
{
	return ethtool_msg_walk(mnl_attr_get_payload(a),
	                        mnl_attr_get_payload_len(a), fn, data);
}

static int ethtool_msg_u8(const struct nlattr *a, uint8_t *v)
{
	if (mnl_attr_get_payload_len(a) != sizeof(*v))
		return -EINVAL;
	*v = *(const uint8_t *)mnl_attr_get_payload(a);
	return 0;
}

static int ethtool_msg_u16(const struct nlattr *a, uint16_t *v)
{
	if (mnl_attr_get_payload_len(a) != sizeof(*v))
		return -EINVAL;
	memcpy(v, mnl_attr_get_payload(a), sizeof(*v));
	return 0;
}

static int ethtool_msg_u32(const struct nlattr *a, uint32_t *v)
{
	if (mnl_attr_get_payload_len(a) != sizeof(*v))
		return -EINVAL;
	memcpy(v, mnl_attr_get_payload(a), sizeof(*v));
	return 0;
}

static int ethtool_msg_u64(const struct nlattr *a, uint64_t *v)
{
	if (mnl_attr_get_payload_len(a) != sizeof(*v))
		return -EINVAL;
	memcpy(v, mnl_attr_get_payload(a), sizeof(*v));
	return 0;
}

/* A NUL-terminated string of fewer than MAX bytes. */
static int ethtool_msg_str(const struct nlattr *a, char *out, size_t max)
{
	const char *s = mnl_attr_get_payload(a);
	size_t n = mnl_attr_get_payload_len(a);
	const char *nul = memchr(s, '\0', n);

	if (!nul || (size_t)(nul - s) >= max)
		return -EINVAL;
	memcpy(out, s, (size_t)(nul - s) + 1);
	return 0;
}

/* Check the first message of BUF is generic netlink message TYPE/CMD and
 * find its attributes. */
static int ethtool_msg_genl(const void *buf, size_t len, uint16_t type,
                            uint8_t cmd, const void **attrs, size_t *alen)
{
	const struct nlmsghdr *nlh = buf;
	const struct genlmsghdr *g;

	/* libmnl's mnl_nlmsg_ok() compares lengths as int, so a message
	 * claiming 2 GiB or more passes it, and reply callbacks hand us
	 * nlmsg_len as LEN: refuse such lengths here. */
	if (!buf || len < sizeof(*nlh) || nlh->nlmsg_len < sizeof(*nlh) ||
	    nlh->nlmsg_len > len || nlh->nlmsg_len > INT32_MAX)
		return -EINVAL;
	if (!type || nlh->nlmsg_type != type)
		return -ENOMSG;
	if (nlh->nlmsg_len < MNL_NLMSG_HDRLEN + GENL_HDRLEN)
		return -EINVAL;
	g = mnl_nlmsg_get_payload(nlh);
	if (g->cmd != cmd)
		return -ENOMSG;
	*attrs = (const char *)g + GENL_HDRLEN;
	*alen = nlh->nlmsg_len - MNL_NLMSG_HDRLEN - GENL_HDRLEN;
	return 0;
}

struct ethtool_msg_family {
	uint16_t id;
	bool has_id, ours;
};

static int ethtool_msg_family_cb(const struct nlattr *a, void *data)
{
	struct ethtool_msg_family *f = data;
	char name[GENL_NAMSIZ];

	switch (mnl_attr_get_type(a)) {
	case CTRL_ATTR_FAMILY_ID:
		if (ethtool_msg_u16(a, &f->id))
			return -EINVAL;
		f->has_id = true;
		return 0;
	case CTRL_ATTR_FAMILY_NAME:
		if (ethtool_msg_str(a, name, sizeof(name)))
			return -EINVAL;
		f->ours = !strcmp(name, ETHTOOL_GENL_NAME);
		return 0;
	default:
		return 0; /* version, ops, multicast groups */
	}
}

int ethtool_msg_parse_family(const void *buf, size_t len, uint16_t *family)
{
	struct ethtool_msg_family f = {0};
	const void *attrs;
	size_t alen;
	int err;

	err = ethtool_msg_genl(buf, len, GENL_ID_CTRL, CTRL_CMD_NEWFAMILY,
	                       &attrs, &alen);
	if (err)
		return err;
	err = ethtool_msg_walk(attrs, alen, ethtool_msg_family_cb, &f);
	if (err)
		return err;
	if (!f.ours)
		return -ENOMSG;
	/* Dynamic ids start past the controller's own. */
	if (!f.has_id || f.id <= GENL_ID_CTRL)
		return -EINVAL;
	*family = f.id;
	return 0;
}

static int ethtool_msg_header_cb(const struct nlattr *a, void *data)
{
	struct ethtool_msg_dev *dev = data;

	switch (mnl_attr_get_type(a)) {
	case ETHTOOL_A_HEADER_DEV_INDEX:
		return ethtool_msg_u32(a, &dev->ifindex);
	case ETHTOOL_A_HEADER_DEV_NAME:
		return ethtool_msg_str(a, dev->ifname, sizeof(dev->ifname));
	default:
		return 0; /* flags, the PHY index of newer kernels */
	}
}

/* Every reply must say which device it is about. */
static int ethtool_msg_dev_check(const struct ethtool_msg_dev *dev)
{
	return dev->ifindex || dev->ifname[0] ? 0 : -EINVAL;
}

static int ethtool_msg_linkmodes_cb(const struct nlattr *a, void *data)
{
	struct ethtool_msg_link *l = data;
	int err;

	switch (mnl_attr_get_type(a)) {
	case ETHTOOL_A_LINKMODES_HEADER:
		return ethtool_msg_walk_nest(a, ethtool_msg_header_cb, &l->dev);
	case ETHTOOL_A_LINKMODES_SPEED:
		err = ethtool_msg_u32(a, &l->speed);
		l->present |= err ? 0 : ETHTOOL_MSG_HAS_SPEED;
		return err;
	case ETHTOOL_A_LINKMODES_DUPLEX:
		err = ethtool_msg_u8(a, &l->duplex);
		l->present |= err ? 0 : ETHTOOL_MSG_HAS_DUPLEX;
		return err;
	case ETHTOOL_A_LINKMODES_AUTONEG:
		return ethtool_msg_u8(a, &l->autoneg);
	case ETHTOOL_A_LINKMODES_LANES:
		err = ethtool_msg_u32(a, &l->lanes);
		l->present |= err ? 0 : ETHTOOL_MSG_HAS_LANES;
		return err;
	default:
		return 0; /* link mode bitsets, master/slave, rate matching */
	}
}

int ethtool_msg_parse_linkmodes(const void *buf, size_t len, uint16_t family,
                                struct ethtool_msg_link *out)
{
	const void *attrs;
	size_t alen;
	int err;

	err = ethtool_msg_genl(buf, len, family,
	                       ETHTOOL_MSG_LINKMODES_GET_REPLY, &attrs, &alen);
	if (err)
		return err;
	memset(out, 0, sizeof(*out));
	out->speed = ETHTOOL_MSG_SPEED_UNKNOWN;
	out->duplex = DUPLEX_UNKNOWN;
	err = ethtool_msg_walk(attrs, alen, ethtool_msg_linkmodes_cb, out);
	if (err)
		return err;
	return ethtool_msg_dev_check(&out->dev);
}

uint32_t ethtool_msg_link_speed(const struct ethtool_msg_link *l)
{
	/* Some drivers say 0 rather than SPEED_UNKNOWN when down. */
	if (!(l->present & ETHTOOL_MSG_HAS_SPEED) ||
	    l->speed == ETHTOOL_MSG_SPEED_UNKNOWN)
		return 0;
	return l->speed;
}

static int ethtool_msg_pause_stats_cb(const struct nlattr *a, void *data)
{
	struct ethtool_msg_pause *p = data;
	int err;

	switch (mnl_attr_get_type(a)) {
	case ETHTOOL_A_PAUSE_STAT_TX_FRAMES:
		err = ethtool_msg_u64(a, &p->tx_frames);
		p->present |= err ? 0 : ETHTOOL_MSG_HAS_PAUSE_TX;
		return err;
	case ETHTOOL_A_PAUSE_STAT_RX_FRAMES:
		err = ethtool_msg_u64(a, &p->rx_frames);
		p->present |= err ? 0 : ETHTOOL_MSG_HAS_PAUSE_RX;
		return err;
	default:
		return 0; /* PAD */
	}
}

static int ethtool_msg_pause_cb(const struct nlattr *a, void *data)
{
	struct ethtool_msg_pause *p = data;
	uint8_t v;
	int err;

	switch (mnl_attr_get_type(a)) {
	case ETHTOOL_A_PAUSE_HEADER:
		return ethtool_msg_walk_nest(a, ethtool_msg_header_cb, &p->dev);
	case ETHTOOL_A_PAUSE_AUTONEG:
	case ETHTOOL_A_PAUSE_RX:
	case ETHTOOL_A_PAUSE_TX:
		if (ethtool_msg_u8(a, &v))
			return -EINVAL;
		if (mnl_attr_get_type(a) == ETHTOOL_A_PAUSE_AUTONEG)
			p->autoneg = v;
		else if (mnl_attr_get_type(a) == ETHTOOL_A_PAUSE_RX)
			p->rx = v;
		else
			p->tx = v;
		return 0;
	case ETHTOOL_A_PAUSE_STATS:
		err = ethtool_msg_walk_nest(a, ethtool_msg_pause_stats_cb, p);
		p->present |= err ? 0 : ETHTOOL_MSG_HAS_PAUSE_STATS;
		return err;
	default:
		return 0; /* the stats source of newer kernels */
	}
}

int ethtool_msg_parse_pause(const void *buf, size_t len, uint16_t family,
                            struct ethtool_msg_pause *out)
{
	const void *attrs;
	size_t alen;
	int err;

	err = ethtool_msg_genl(buf, len, family, ETHTOOL_MSG_PAUSE_GET_REPLY,
	                       &attrs, &alen);
	if (err)
		return err;
	memset(out, 0, sizeof(*out));
	err = ethtool_msg_walk(attrs, alen, ethtool_msg_pause_cb, out);
	if (err)
		return err;
	return ethtool_msg_dev_check(&out->dev);
}

/* ------------------------------------------------------------------ */
/* Per-priority pause counters */

/* A name is PREFIX, one digit 0..7, SUFFIX, exactly. */
struct ethtool_msg_prio_name {
	const char *prefix, *suffix;
	enum ethtool_msg_prio_stat stat;
	const char *driver;
};

static const struct ethtool_msg_prio_name ethtool_msg_prio_names[] = {
    {"rx_prio", "_pause", ETHTOOL_MSG_PRIO_RX, "mlx5"},
    {"tx_prio", "_pause", ETHTOOL_MSG_PRIO_TX, "mlx5"},
    {"rx_prio", "_pause_duration", ETHTOOL_MSG_PRIO_RX_US, "mlx5"},
    {"tx_prio", "_pause_duration", ETHTOOL_MSG_PRIO_TX_US, "mlx5"},
    {"rx_pause_prio_", "", ETHTOOL_MSG_PRIO_RX, "mlxsw"},
    {"tx_pause_prio_", "", ETHTOOL_MSG_PRIO_TX, "mlxsw"},
    {"rx_pause_duration_prio_", "", ETHTOOL_MSG_PRIO_RX_US, "mlxsw"},
    {"tx_pause_duration_prio_", "", ETHTOOL_MSG_PRIO_TX_US, "mlxsw"},
    {"rx_priority_", "_xoff.nic", ETHTOOL_MSG_PRIO_RX, "ice"},
    {"tx_priority_", "_xoff.nic", ETHTOOL_MSG_PRIO_TX, "ice"},
    {"rx_priority_", "_xon.nic", ETHTOOL_MSG_PRIO_RX_XON, "ice"},
    {"tx_priority_", "_xon.nic", ETHTOOL_MSG_PRIO_TX_XON, "ice"},
    {"port-rx-xoff_prio-", "_events", ETHTOOL_MSG_PRIO_RX, "ice"},
    {"port-tx-xoff_prio-", "_events", ETHTOOL_MSG_PRIO_TX, "ice"},
    {"port-rx-xon_prio-", "_events", ETHTOOL_MSG_PRIO_RX_XON, "ice"},
    {"port-tx-xon_prio-", "_events", ETHTOOL_MSG_PRIO_TX_XON, "ice"},
    {"port.rx_priority_", "_xoff_rx", ETHTOOL_MSG_PRIO_RX, "i40e"},
    {"port.tx_priority_", "_xoff_tx", ETHTOOL_MSG_PRIO_TX, "i40e"},
    {"port.rx_priority_", "_xon_rx", ETHTOOL_MSG_PRIO_RX_XON, "i40e"},
    {"port.tx_priority_", "_xon_tx", ETHTOOL_MSG_PRIO_TX_XON, "i40e"},
    {"port.rx_priority_", "_xoff", ETHTOOL_MSG_PRIO_RX, "i40e"},
    {"port.tx_priority_", "_xoff", ETHTOOL_MSG_PRIO_TX, "i40e"},
    {"port.rx_priority_", "_xon", ETHTOOL_MSG_PRIO_RX_XON, "i40e"},
    {"port.tx_priority_", "_xon", ETHTOOL_MSG_PRIO_TX_XON, "i40e"},
    {"rx_pfc_ena_frames_pri", "", ETHTOOL_MSG_PRIO_RX, "bnxt"},
    {"tx_pfc_ena_frames_pri", "", ETHTOOL_MSG_PRIO_TX, "bnxt"},
    {"pfc_pri", "_rx_duration_us", ETHTOOL_MSG_PRIO_RX_US, "bnxt"},
    {"pfc_pri", "_tx_duration_us", ETHTOOL_MSG_PRIO_TX_US, "bnxt"},
};

int ethtool_msg_prio_match(const char *name, unsigned *prio,
                           const char **driver)
{
	size_t n = strnlen(name, ETHTOOL_MSG_GSTRING_LEN);

	for (size_t i = 0; i < sizeof(ethtool_msg_prio_names) /
	                           sizeof(ethtool_msg_prio_names[0]);
	     i++) {
		const struct ethtool_msg_prio_name *p =
		    &ethtool_msg_prio_names[i];
		size_t pl = strlen(p->prefix), sl = strlen(p->suffix);

		if (n != pl + 1 + sl || memcmp(name, p->prefix, pl) ||
		    memcmp(name + pl + 1, p->suffix, sl))
			continue;
		if (name[pl] < '0' || name[pl] > '7')
			continue;
		*prio = (unsigned)(name[pl] - '0');
		if (driver)
			*driver = p->driver;
		return (int)p->stat;
	}
	return -1;
}

int ethtool_msg_prio_map(const char *names, size_t n,
                         struct ethtool_msg_prio_map *m)
{
	memset(m, 0, sizeof(*m));
	memset(m->idx, 0xff, sizeof(m->idx)); /* -1 */
	if (n > UINT32_MAX)
		return -E2BIG;
	m->count = (uint32_t)n;
	for (size_t i = 0; i < n; i++) {
		const char *drv = NULL;
		unsigned prio;
		int s = ethtool_msg_prio_match(
		    names + i * ETHTOOL_MSG_GSTRING_LEN, &prio, &drv);

		/* A name twice (a driver's bug): the first one counts. */
		if (s < 0 || m->idx[s][prio] >= 0)
			continue;
		m->idx[s][prio] = (int32_t)i;
		if (!m->driver)
			m->driver = drv;
	}
	for (unsigned p = 0; p < ETHTOOL_MSG_NPRIO; p++)
		if (m->idx[ETHTOOL_MSG_PRIO_RX][p] >= 0 ||
		    m->idx[ETHTOOL_MSG_PRIO_TX][p] >= 0)
			return 0;
	return -EOPNOTSUPP;
}

/* Pick M's counters out of N values. */
static int ethtool_msg_prio_pick(const struct ethtool_msg_prio_map *m,
                                 const void *vals, size_t n,
                                 struct ethtool_msg_prio *out)
{
	memset(out, 0, sizeof(*out));
	out->driver = m->driver;
	for (unsigned s = 0; s < ETHTOOL_MSG_PRIO_NSTATS; s++)
		for (unsigned p = 0; p < ETHTOOL_MSG_NPRIO; p++) {
			int32_t i = m->idx[s][p];

			if (i < 0 || (size_t)i >= n)
				continue;
			memcpy(&out->v[s][p],
			       (const char *)vals +
			           (size_t)i * sizeof(uint64_t),
			       sizeof(uint64_t));
			out->present[s] |= (uint8_t)(1u << p);
		}
	if (!out->present[ETHTOOL_MSG_PRIO_RX] &&
	    !out->present[ETHTOOL_MSG_PRIO_TX])
		return -EOPNOTSUPP;
	return 0;
}

int ethtool_msg_prio_collect(const char *names, const uint64_t *vals, size_t n,
                             struct ethtool_msg_prio *out)
{
	struct ethtool_msg_prio_map m;

	if (ethtool_msg_prio_map(names, n, &m) == -E2BIG) {
		memset(out, 0, sizeof(*out));
		return -EOPNOTSUPP;
	}
	return ethtool_msg_prio_pick(&m, vals, n, out);
}

int ethtool_msg_parse_gstrings(const void *buf, size_t len, const char **names,
                               size_t *n)
{
	struct ethtool_gstrings gs;

	if (!buf || len < sizeof(gs))
		return -EINVAL;
	memcpy(&gs, buf, sizeof(gs));
	if (gs.cmd != ETHTOOL_GSTRINGS || gs.string_set != ETH_SS_STATS)
		return -EINVAL;
	/* The count is the driver's: it must fit what was received. */
	if (gs.len > (len - sizeof(gs)) / ETH_GSTRING_LEN)
		return -EINVAL;
	*names = (const char *)buf + sizeof(gs);
	*n = gs.len;
	return 0;
}

int ethtool_msg_parse_gstats(const void *buf, size_t len,
                             const struct ethtool_msg_prio_map *m,
                             struct ethtool_msg_prio *out)
{
	struct ethtool_stats st;

	memset(out, 0, sizeof(*out));
	if (!buf || len < sizeof(st))
		return -EINVAL;
	memcpy(&st, buf, sizeof(st));
	if (st.cmd != ETHTOOL_GSTATS ||
	    st.n_stats > (len - sizeof(st)) / sizeof(uint64_t))
		return -EINVAL;
	if (st.n_stats != m->count)
		return -ESTALE;
	return ethtool_msg_prio_pick(m, (const char *)buf + sizeof(st),
	                             st.n_stats, out);
}
