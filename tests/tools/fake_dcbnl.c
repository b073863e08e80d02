/* fake_dcbnl: an LD_PRELOAD shim that gives a process (lldpad, in
 * tests/integration/dcbx_lldpad_backend.sh) a fake DCB capability on
 * every port. lldpad refuses DCBX on a port whose driver has no dcbnl
 * ("Device not capable"), and veth has none; this answers lldpad's dcbnl
 * requests as an IEEE-DCBX capable, host-managed NIC would: state on,
 * capabilities (8 TCs, PFC, ETS), DCBX mode host + IEEE, and every set
 * accepted. What lldpad sets with IEEE_SET (ETS and PFC: its operational
 * values) is kept per port and returned by IEEE_GET.
 *
 * How: the requests still go to the kernel, which answers each with an
 * error (EOPNOTSUPP on veth). That reply makes the socket readable as
 * usual, and the shim's receive functions hand over its own reply (and
 * the ACK asked for) in the error's place. Test code only, not part of
 * roced; FAKE_DCBNL_LOG=FILE logs each request answered.
 *
 * Preloaded into roced (pfcwd_hw.sh), it makes a veth a hardware DCB
 * port; FAKE_DCBNL_COUNTERS=FILE then plays the driver's PFC counters:
 * each line "IFNAME PRIO RX TX" sets IEEE_PFC's indications (PFC frames
 * received) and requests (sent) of that priority, read at every
 * IEEE_GET, so that a test changes them as it goes.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <linux/dcbnl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>

#define FAKE_MAXFD   1024
#define FAKE_MAXPORT 16
#define FAKE_BUF     2048

/* The reply waiting for the kernel's error on each socket. */
static struct {
	uint32_t len;
	uint8_t buf[FAKE_BUF];
} fake_pending[FAKE_MAXFD];

/* What lldpad set per port (IEEE_SET), for IEEE_GET. */
static struct {
	char ifname[32];
	int has_ets, has_pfc;
	struct ieee_ets ets;
	struct ieee_pfc pfc;
} fake_ports[FAKE_MAXPORT];

static void fake_log(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

static void fake_log(const char *fmt, ...)
{
	const char *path = getenv("FAKE_DCBNL_LOG");
	FILE *f;
	va_list ap;

	if (!path || !(f = fopen(path, "a")))
		return;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	fclose(f);
}

static int fake_port(const char *ifname)
{
	int free_slot = -1;

	for (int i = 0; i < FAKE_MAXPORT; i++) {
		if (!strcmp(fake_ports[i].ifname, ifname))
			return i;
		if (free_slot < 0 && !fake_ports[i].ifname[0])
			free_slot = i;
	}
	if (free_slot >= 0)
		snprintf(fake_ports[free_slot].ifname,
		         sizeof(fake_ports[0].ifname), "%s", ifname);
	return free_slot;
}

/* Builder of one reply datagram. */
struct fake_out {
	uint8_t *buf;
	uint32_t len, cap;
};

static void *fake_put(struct fake_out *o, uint32_t n)
{
	uint32_t al = NLMSG_ALIGN(n);
	void *p;

	if (o->len + al > o->cap)
		return NULL;
	p = o->buf + o->len;
	memset(p, 0, al);
	o->len += al;
	return p;
}

static struct nlattr *fake_attr(struct fake_out *o, uint16_t type,
                                const void *data, uint16_t n)
{
	struct nlattr *a = fake_put(o, NLA_HDRLEN + n);

	if (!a)
		return NULL;
	a->nla_type = type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + n);
	if (n)
		memcpy((uint8_t *)a + NLA_HDRLEN, data, n);
	return a;
}

static void fake_u8(struct fake_out *o, uint16_t type, uint8_t v)
{
	fake_attr(o, type, &v, 1);
}

/* Close a nest opened at offset AT. */
static void fake_nest_end(struct fake_out *o, uint32_t at)
{
	struct nlattr *a = (struct nlattr *)(o->buf + at);

	a->nla_len = (uint16_t)(o->len - at);
}

/* The attributes of request N (after its dcbmsg). */
static const struct nlattr *fake_find(const struct nlmsghdr *n, uint16_t type)
{
	const uint8_t *p =
	    (const uint8_t *)NLMSG_DATA(n) + NLMSG_ALIGN(sizeof(struct dcbmsg));
	const uint8_t *end = (const uint8_t *)n + n->nlmsg_len;

	while (p + NLA_HDRLEN <= end) {
		const struct nlattr *a = (const struct nlattr *)p;

		if (a->nla_len < NLA_HDRLEN || p + a->nla_len > end)
			return NULL;
		if ((a->nla_type & NLA_TYPE_MASK) == type)
			return a;
		p += NLA_ALIGN(a->nla_len);
	}
	return NULL;
}

/* IEEE_SET's nested ETS/PFC into the port's record. */
static void fake_ieee_set(const struct nlattr *ieee, int port)
{
	const uint8_t *p = (const uint8_t *)ieee + NLA_HDRLEN;
	const uint8_t *end = (const uint8_t *)ieee + ieee->nla_len;

	while (port >= 0 && p + NLA_HDRLEN <= end) {
		const struct nlattr *a = (const struct nlattr *)p;
		uint16_t n = (uint16_t)(a->nla_len - NLA_HDRLEN);

		if (a->nla_len < NLA_HDRLEN || p + a->nla_len > end)
			return;
		if (a->nla_type == DCB_ATTR_IEEE_ETS &&
		    n >= sizeof(struct ieee_ets)) {
			memcpy(&fake_ports[port].ets, p + NLA_HDRLEN,
			       sizeof(struct ieee_ets));
			fake_ports[port].has_ets = 1;
		} else if (a->nla_type == DCB_ATTR_IEEE_PFC &&
		           n >= sizeof(struct ieee_pfc)) {
			memcpy(&fake_ports[port].pfc, p + NLA_HDRLEN,
			       sizeof(struct ieee_pfc));
			fake_ports[port].has_pfc = 1;
			fake_log("%s: PFC enable 0x%02x",
			         fake_ports[port].ifname,
			         fake_ports[port].pfc.pfc_en);
		}
		p += NLA_ALIGN(a->nla_len);
	}
}

/* The PFC frame counters FAKE_DCBNL_COUNTERS gives IFNAME, into PFC. */
static void fake_counters(const char *ifname, struct ieee_pfc *pfc)
{
	const char *path = getenv("FAKE_DCBNL_COUNTERS");
	char line[128], name[32];
	unsigned prio;
	unsigned long long rx, tx;
	FILE *f;

	if (!path || !(f = fopen(path, "r")))
		return;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%31s %u %llu %llu", name, &prio, &rx, &tx) ==
		        4 &&
		    prio < 8 && !strcmp(name, ifname)) {
			pfc->indications[prio] = rx;
			pfc->requests[prio] = tx;
		}
	fclose(f);
}

/* The reply to dcbnl request REQ into OUT; 0 when the shim does not
 * answer it (the kernel's error stands). */
static uint32_t fake_answer(const struct nlmsghdr *req, uint32_t portid,
                            uint8_t *buf, uint32_t cap)
{
	const struct dcbmsg *dm = NLMSG_DATA(req);
	const struct nlattr *ifa = fake_find(req, DCB_ATTR_IFNAME);
	struct fake_out o = {buf, 0, cap};
	struct nlmsghdr *h;
	struct dcbmsg *rd;
	char ifname[32] = "";
	int port;
	uint32_t at;

	if (req->nlmsg_len < NLMSG_LENGTH(sizeof(*dm)))
		return 0;
	if (ifa && ifa->nla_len > NLA_HDRLEN)
		snprintf(ifname, sizeof(ifname), "%.*s",
		         (int)(ifa->nla_len - NLA_HDRLEN),
		         (const char *)ifa + NLA_HDRLEN);
	port = fake_port(ifname);
	h = fake_put(&o, NLMSG_HDRLEN);
	rd = fake_put(&o, sizeof(*rd));
	h->nlmsg_type = req->nlmsg_type;
	h->nlmsg_seq = req->nlmsg_seq;
	h->nlmsg_pid = portid;
	rd->dcb_family = AF_UNSPEC;
	rd->cmd = dm->cmd;
	switch (dm->cmd) {
	case DCB_CMD_GSTATE:
		fake_u8(&o, DCB_ATTR_STATE, 1);
		break;
	case DCB_CMD_SSTATE:
		fake_u8(&o, DCB_ATTR_STATE, 0);
		break;
	case DCB_CMD_GCAP:
		/* Nests without NLA_F_NESTED, as the kernel's dcbnl builds
		 * them (nla_nest_start_noflag): lldpad compares the type
		 * as a whole, and with the flag took the port for one
		 * without DCBX capability (legacy CEE, IEEE inactive). */
		at = o.len;
		fake_attr(&o, DCB_ATTR_CAP, NULL, 0);
		fake_u8(&o, DCB_CAP_ATTR_PG, 1);
		fake_u8(&o, DCB_CAP_ATTR_PFC, 1);
		fake_u8(&o, DCB_CAP_ATTR_UP2TC, 1);
		fake_u8(&o, DCB_CAP_ATTR_PG_TCS, 0x80);
		fake_u8(&o, DCB_CAP_ATTR_PFC_TCS, 0x80);
		fake_u8(&o, DCB_CAP_ATTR_GSP, 1);
		fake_u8(&o, DCB_CAP_ATTR_BCN, 0);
		fake_u8(&o, DCB_CAP_ATTR_DCBX,
		        DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE);
		fake_nest_end(&o, at);
		break;
	case DCB_CMD_GNUMTCS:
		at = o.len;
		fake_attr(&o, DCB_ATTR_NUMTCS, NULL, 0);
		fake_u8(&o, DCB_NUMTCS_ATTR_PG, 8);
		fake_u8(&o, DCB_NUMTCS_ATTR_PFC, 8);
		fake_nest_end(&o, at);
		break;
	case DCB_CMD_GDCBX:
		fake_u8(&o, DCB_ATTR_DCBX,
		        DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE);
		break;
	case DCB_CMD_SDCBX:
		fake_u8(&o, DCB_ATTR_DCBX, 0);
		break;
	case DCB_CMD_IEEE_SET: {
		const struct nlattr *ieee = fake_find(req, DCB_ATTR_IEEE);

		if (ieee)
			fake_ieee_set(ieee, port);
		fake_u8(&o, DCB_ATTR_IEEE, 0);
		break;
	}
	case DCB_CMD_IEEE_DEL:
		fake_u8(&o, DCB_ATTR_IEEE, 0);
		break;
	case DCB_CMD_IEEE_GET: {
		struct ieee_ets ets;
		struct ieee_pfc pfc;

		memset(&ets, 0, sizeof(ets));
		memset(&pfc, 0, sizeof(pfc));
		ets.ets_cap = 8;
		pfc.pfc_cap = 8;
		if (port >= 0 && fake_ports[port].has_ets)
			ets = fake_ports[port].ets;
		if (port >= 0 && fake_ports[port].has_pfc)
			pfc = fake_ports[port].pfc;
		fake_counters(ifname, &pfc);
		fake_attr(&o, DCB_ATTR_IFNAME, ifname,
		          (uint16_t)(strlen(ifname) + 1));
		at = o.len;
		fake_attr(&o, DCB_ATTR_IEEE, NULL, 0);
		fake_attr(&o, DCB_ATTR_IEEE_ETS, &ets, sizeof(ets));
		fake_attr(&o, DCB_ATTR_IEEE_PFC, &pfc, sizeof(pfc));
		fake_nest_end(&o, at);
		break;
	}
	case DCB_CMD_PFC_SCFG:
	case DCB_CMD_PGTX_SCFG:
	case DCB_CMD_PGRX_SCFG:
	case DCB_CMD_SET_ALL:
	case DCB_CMD_SNUMTCS:
	case DCB_CMD_PFC_SSTATE:
	case DCB_CMD_SAPP:
	case DCB_CMD_SFEATCFG:
		fake_u8(&o, DCB_ATTR_STATE, 0);
		break;
	default:
		return 0;
	}
	h = (struct nlmsghdr *)buf;
	h->nlmsg_len = o.len;
	if (req->nlmsg_flags & NLM_F_ACK) {
		struct nlmsghdr *ack = fake_put(&o, NLMSG_HDRLEN);
		struct nlmsgerr *e = fake_put(&o, sizeof(*e));

		if (!ack || !e)
			return 0;
		ack->nlmsg_type = NLMSG_ERROR;
		ack->nlmsg_len = NLMSG_HDRLEN + sizeof(*e);
		ack->nlmsg_flags = NLM_F_CAPPED;
		ack->nlmsg_seq = req->nlmsg_seq;
		ack->nlmsg_pid = portid;
		e->error = 0;
		e->msg = *req;
		e->msg.nlmsg_len = NLMSG_HDRLEN;
	}
	fake_log("%s: dcbnl cmd %u answered", ifname, dm->cmd);
	return o.len;
}

/* Whether FD is a NETLINK_ROUTE socket. */
static int fake_is_rtnl(int fd)
{
	int dom = 0, proto = 0;
	socklen_t l = sizeof(int);

	if (fd < 0 || fd >= FAKE_MAXFD ||
	    getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &dom, &l) < 0 ||
	    dom != AF_NETLINK)
		return 0;
	l = sizeof(int);
	return getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &proto, &l) == 0 &&
	       proto == NETLINK_ROUTE;
}

/* A request about to go out on FD: its answer waits for the kernel's. */
static void fake_sent(int fd, const void *buf, size_t len)
{
	const struct nlmsghdr *n = buf;
	struct sockaddr_nl sa;
	socklen_t salen = sizeof(sa);
	uint32_t portid;

	if (len < NLMSG_HDRLEN || n->nlmsg_len > len ||
	    (n->nlmsg_type != RTM_GETDCB && n->nlmsg_type != RTM_SETDCB) ||
	    !fake_is_rtnl(fd))
		return;
	portid = n->nlmsg_pid;
	memset(&sa, 0, sizeof(sa));
	/* The kernel answers to the socket's port id, whatever the request
	 * says (0 from libmnl's users, roced among them). */
	if (getsockname(fd, (struct sockaddr *)&sa, &salen) == 0 &&
	    sa.nl_family == AF_NETLINK)
		portid = sa.nl_pid;
	fake_pending[fd].len = fake_answer(n, portid, fake_pending[fd].buf,
	                                   sizeof(fake_pending[fd].buf));
}

/* The kernel's reply GOT (N bytes in BUF, CAP of room) on FD: the shim's
 * answer replaces an error about a dcbnl request. Returns the length the
 * caller sees. */
static ssize_t fake_received(int fd, void *buf, size_t cap, ssize_t n,
                             int flags)
{
	const struct nlmsghdr *h = buf;
	const struct nlmsgerr *e = NLMSG_DATA(h);
	uint32_t len;

	if (n < (ssize_t)(NLMSG_HDRLEN + sizeof(*e)) || fd < 0 ||
	    fd >= FAKE_MAXFD || !fake_pending[fd].len ||
	    h->nlmsg_type != NLMSG_ERROR ||
	    (e->msg.nlmsg_type != RTM_GETDCB &&
	     e->msg.nlmsg_type != RTM_SETDCB))
		return n;
	len = fake_pending[fd].len;
	memcpy(buf, fake_pending[fd].buf, len < cap ? len : cap);
	if (!(flags & MSG_PEEK))
		fake_pending[fd].len = 0;
	return (flags & MSG_TRUNC) || len <= cap ? (ssize_t)len : (ssize_t)cap;
}

static ssize_t (*real_sendto)(int, const void *, size_t, int,
                              const struct sockaddr *, socklen_t);
static ssize_t (*real_send)(int, const void *, size_t, int);
static ssize_t (*real_sendmsg)(int, const struct msghdr *, int);
static ssize_t (*real_recvfrom)(int, void *, size_t, int, struct sockaddr *,
                                socklen_t *);
static ssize_t (*real_recv)(int, void *, size_t, int);
static ssize_t (*real_recvmsg)(int, struct msghdr *, int);

/* The libc functions behind the shim's, looked up once. */
static void fake_init(void) __attribute__((constructor));

static void fake_init(void)
{
	real_sendto = dlsym(RTLD_NEXT, "sendto");
	real_send = dlsym(RTLD_NEXT, "send");
	real_sendmsg = dlsym(RTLD_NEXT, "sendmsg");
	real_recvfrom = dlsym(RTLD_NEXT, "recvfrom");
	real_recv = dlsym(RTLD_NEXT, "recv");
	real_recvmsg = dlsym(RTLD_NEXT, "recvmsg");
}

ssize_t sendto(int fd, const void *buf, size_t len, int flags,
               const struct sockaddr *to, socklen_t tolen)
{
	fake_sent(fd, buf, len);
	return real_sendto(fd, buf, len, flags, to, tolen);
}

ssize_t send(int fd, const void *buf, size_t len, int flags)
{
	fake_sent(fd, buf, len);
	return real_send(fd, buf, len, flags);
}

ssize_t sendmsg(int fd, const struct msghdr *m, int flags)
{
	if (m->msg_iovlen >= 1)
		fake_sent(fd, m->msg_iov[0].iov_base, m->msg_iov[0].iov_len);
	return real_sendmsg(fd, m, flags);
}

ssize_t recvfrom(int fd, void *buf, size_t len, int flags,
                 struct sockaddr *from, socklen_t *fromlen)
{
	ssize_t n = real_recvfrom(fd, buf, len, flags, from, fromlen);

	return n > 0 ? fake_received(fd, buf, len, n, flags) : n;
}

ssize_t recv(int fd, void *buf, size_t len, int flags)
{
	ssize_t n = real_recv(fd, buf, len, flags);

	return n > 0 ? fake_received(fd, buf, len, n, flags) : n;
}

ssize_t recvmsg(int fd, struct msghdr *m, int flags)
{
	ssize_t n = real_recvmsg(fd, m, flags);

	if (n > 0 && m->msg_iovlen >= 1) {
		ssize_t r = fake_received(fd, m->msg_iov[0].iov_base,
		                          m->msg_iov[0].iov_len, n, flags);

		if (r != n && (size_t)r > m->msg_iov[0].iov_len)
			m->msg_flags |= MSG_TRUNC;
		else if (r != n)
			m->msg_flags &= ~MSG_TRUNC;
		n = r;
	}
	return n;
}
