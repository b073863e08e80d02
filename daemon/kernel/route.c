/* route: the IPv4 routing and neighbour tables, cached. See route.h. */
#include "kernel/route.h"

#include <errno.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <arpa/inet.h>
#include <libmnl/libmnl.h>

void route_init(struct route_cache *c)
{
	memset(c, 0, sizeof(*c));
}

void route_free(struct route_cache *c)
{
	if (c->mon)
		mnl_socket_close(c->mon);
	free(c->rt);
	free(c->nb);
	memset(c, 0, sizeof(*c));
}

int route_listen(struct route_cache *c)
{
	if (c->mon)
		return mnl_socket_get_fd(c->mon);
	c->mon = mnl_socket_open2(NETLINK_ROUTE, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (!c->mon)
		return -errno;
	if (mnl_socket_bind(c->mon, RTMGRP_IPV4_ROUTE | RTMGRP_NEIGH,
	                    MNL_SOCKET_AUTOPID) < 0) {
		int rc = -errno;

		mnl_socket_close(c->mon);
		c->mon = NULL;
		return rc;
	}
	c->stale = true;
	return mnl_socket_get_fd(c->mon);
}

int route_fd(const struct route_cache *c)
{
	return c->mon ? mnl_socket_get_fd(c->mon) : -1;
}

bool route_notified(struct route_cache *c)
{
	char buf[MNL_SOCKET_BUFFER_SIZE] __attribute__((aligned(4)));
	bool any = false;

	if (!c->mon)
		return false;
	/* What changed does not matter: the next use dumps again. A loss
	 * (ENOBUFS) is a change not seen: the same. */
	for (;;) {
		ssize_t n = mnl_socket_recvfrom(c->mon, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno != ENOBUFS)
			break;
		any = true;
		c->changes++;
	}
	if (any)
		c->stale = true;
	return any;
}

void route_clear(struct route_cache *c)
{
	c->nrt = 0;
	c->nnb = 0;
}

int route_add(struct route_cache *c, const struct route_rt *r)
{
	if (c->nrt == c->caprt) {
		size_t cap = c->caprt ? 2 * c->caprt : 32;
		struct route_rt *nv = realloc(c->rt, cap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		c->rt = nv;
		c->caprt = cap;
	}
	c->rt[c->nrt++] = *r;
	c->filled = true;
	return 0;
}

int route_add_neigh(struct route_cache *c, const struct route_neigh *n)
{
	if (c->nnb == c->capnb) {
		size_t cap = c->capnb ? 2 * c->capnb : 32;
		struct route_neigh *nv = realloc(c->nb, cap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		c->nb = nv;
		c->capnb = cap;
	}
	c->nb[c->nnb++] = *n;
	c->filled = true;
	return 0;
}

/* A prefix of LEN bits as a mask, host order. */
static uint32_t route_mask(unsigned len)
{
	return len ? ~0u << (32 - (len > 32 ? 32 : len)) : 0;
}

size_t route_lookup(const struct route_cache *c, uint32_t daddr,
                    struct route_nh *nh, size_t max)
{
	const struct route_rt *best = NULL;
	size_t n = 0;

	for (size_t i = 0; i < c->nrt; i++) {
		const struct route_rt *r = &c->rt[i];
		uint32_t m = route_mask(r->len);

		if ((daddr & m) != (r->dst & m) || !r->nnh)
			continue;
		if (!best || r->len > best->len ||
		    (r->len == best->len && r->metric < best->metric))
			best = r;
	}
	for (size_t k = 0; best && k < best->nnh && n < max; k++)
		nh[n++] = best->nh[k];
	return n;
}

bool route_via(const struct route_cache *c, int ifindex)
{
	for (size_t i = 0; ifindex && i < c->nrt; i++)
		for (size_t k = 0; k < c->rt[i].nnh; k++)
			if (c->rt[i].nh[k].oif == ifindex)
				return true;
	return false;
}

const uint8_t *route_neigh_mac(const struct route_cache *c, uint32_t ip,
                               int ifindex)
{
	for (size_t i = 0; i < c->nnb; i++)
		if (c->nb[i].ip == ip && c->nb[i].ifindex == ifindex)
			return c->nb[i].mac;
	return NULL;
}

/* --- the dumps --- */

struct route_dump {
	struct route_cache *c;
	int err;
};

static void route_nh_add(struct route_cache *c, struct route_rt *r, int oif,
                         uint32_t gw)
{
	if (r->nnh == ROUTE_NH_MAX) {
		c->nh_cut++;
		return;
	}
	r->nh[r->nnh].oif = oif;
	r->nh[r->nnh].gw = gw;
	r->nnh++;
}

/* RTA_MULTIPATH: a list of struct rtnexthop, each with its attributes. */
static void route_multipath(struct route_cache *c, struct route_rt *r,
                            const struct nlattr *at)
{
	const char *p = mnl_attr_get_payload(at);
	size_t left = mnl_attr_get_payload_len(at);

	while (left >= sizeof(struct rtnexthop)) {
		const struct rtnexthop *rnh = (const void *)p;
		size_t len = rnh->rtnh_len, off = RTNH_ALIGN(sizeof(*rnh));
		uint32_t gw = 0;

		if (len < sizeof(*rnh) || len > left)
			break;
		while (off + sizeof(struct nlattr) <= len) {
			const struct nlattr *a = (const void *)(p + off);

			if (a->nla_len < sizeof(*a) || off + a->nla_len > len)
				break;
			if (mnl_attr_get_type(a) == RTA_GATEWAY &&
			    mnl_attr_get_payload_len(a) == 4)
				gw = ntohl(mnl_attr_get_u32(a));
			off += MNL_ALIGN(a->nla_len);
		}
		if (!(rnh->rtnh_flags & RTNH_F_DEAD))
			route_nh_add(c, r, rnh->rtnh_ifindex, gw);
		len = RTNH_ALIGN(len);
		if (len >= left)
			break;
		p += len;
		left -= len;
	}
}

static int route_rt_cb(const struct nlmsghdr *nlh, void *data)
{
	struct route_dump *d = data;
	const struct rtmsg *rtm = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *at;
	struct route_rt r;
	uint32_t table, gw = 0;
	int oif = 0;

	if (nlh->nlmsg_type != RTM_NEWROUTE ||
	    mnl_nlmsg_get_payload_len(nlh) < sizeof(*rtm) ||
	    rtm->rtm_family != AF_INET || rtm->rtm_type != RTN_UNICAST)
		return MNL_CB_OK;
	memset(&r, 0, sizeof(r));
	r.len = rtm->rtm_dst_len;
	table = rtm->rtm_table;
	mnl_attr_for_each(at, nlh, sizeof(*rtm))
	{
		size_t len = mnl_attr_get_payload_len(at);

		switch (mnl_attr_get_type(at)) {
		case RTA_DST:
			if (len == 4)
				r.dst = ntohl(mnl_attr_get_u32(at));
			break;
		case RTA_OIF:
			if (len == 4)
				oif = (int)mnl_attr_get_u32(at);
			break;
		case RTA_GATEWAY:
			if (len == 4)
				gw = ntohl(mnl_attr_get_u32(at));
			break;
		case RTA_PRIORITY:
			if (len == 4)
				r.metric = mnl_attr_get_u32(at);
			break;
		case RTA_TABLE:
			if (len == 4)
				table = mnl_attr_get_u32(at);
			break;
		case RTA_MULTIPATH:
			route_multipath(d->c, &r, at);
			break;
		default:
			break;
		}
	}
	if (table != RT_TABLE_MAIN)
		return MNL_CB_OK;
	if (oif && !r.nnh)
		route_nh_add(d->c, &r, oif, gw);
	if (r.nnh && route_add(d->c, &r) < 0)
		d->err = -ENOMEM;
	return MNL_CB_OK;
}

static int route_nb_cb(const struct nlmsghdr *nlh, void *data)
{
	struct route_dump *d = data;
	const struct ndmsg *ndm = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *at;
	struct route_neigh n;
	bool ip = false, mac = false;

	if (nlh->nlmsg_type != RTM_NEWNEIGH ||
	    mnl_nlmsg_get_payload_len(nlh) < sizeof(*ndm) ||
	    ndm->ndm_family != AF_INET ||
	    (ndm->ndm_state & (NUD_FAILED | NUD_INCOMPLETE)))
		return MNL_CB_OK;
	memset(&n, 0, sizeof(n));
	n.ifindex = ndm->ndm_ifindex;
	mnl_attr_for_each(at, nlh, sizeof(*ndm))
	{
		if (mnl_attr_get_type(at) == NDA_DST &&
		    mnl_attr_get_payload_len(at) == 4) {
			n.ip = ntohl(mnl_attr_get_u32(at));
			ip = true;
		} else if (mnl_attr_get_type(at) == NDA_LLADDR &&
		           mnl_attr_get_payload_len(at) == 6) {
			memcpy(n.mac, mnl_attr_get_payload(at), 6);
			mac = true;
		}
	}
	if (ip && mac && route_add_neigh(d->c, &n) < 0)
		d->err = -ENOMEM;
	return MNL_CB_OK;
}

/* One dump of TYPE (RTM_GETROUTE or RTM_GETNEIGH) into C through CB. */
static int route_dump_one(struct nlb *nl, struct route_cache *c, int type,
                          mnl_cb_t cb)
{
	char buf[MNL_SOCKET_BUFFER_SIZE] __attribute__((aligned(4)));
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct route_dump d = {c, 0};
	struct nlb_error nerr;
	int rc;

	nlh->nlmsg_type = (uint16_t)type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	if (type == RTM_GETROUTE) {
		struct rtmsg *rtm =
		    mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));

		rtm->rtm_family = AF_INET;
	} else {
		struct ndmsg *ndm =
		    mnl_nlmsg_put_extra_header(nlh, sizeof(*ndm));

		ndm->ndm_family = AF_INET;
	}
	rc = nlb_dump(nl, nlh, cb, &d, &nerr);
	return rc < 0 ? rc : d.err;
}

int route_refresh(struct route_cache *c, struct nlb *nl)
{
	struct route_cache fresh;
	bool changed;
	int rc;

	if (c->filled && !c->stale)
		return 0;
	if (!nl || !nl->sock)
		return -ENOTCONN;
	/* Into a fresh cache: a dump that fails leaves the old one. */
	route_init(&fresh);
	rc = route_dump_one(nl, &fresh, RTM_GETROUTE, route_rt_cb);
	if (rc == 0)
		rc = route_dump_one(nl, &fresh, RTM_GETNEIGH, route_nb_cb);
	if (rc < 0) {
		route_free(&fresh);
		return rc;
	}
	changed =
	    !c->filled || fresh.nrt != c->nrt || fresh.nnb != c->nnb ||
	    (c->nrt && memcmp(fresh.rt, c->rt, c->nrt * sizeof(*c->rt))) ||
	    (c->nnb && memcmp(fresh.nb, c->nb, c->nnb * sizeof(*c->nb)));
	free(c->rt);
	free(c->nb);
	c->rt = fresh.rt;
	c->nrt = fresh.nrt;
	c->caprt = fresh.caprt;
	c->nb = fresh.nb;
	c->nnb = fresh.nnb;
	c->capnb = fresh.capnb;
	c->nh_cut += fresh.nh_cut;
	c->filled = true;
	c->stale = false;
	c->dumps++;
	return changed ? 1 : 0;
}
