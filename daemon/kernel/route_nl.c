/* route_nl: the route cache's netlink side: the dumps of both families'
 * rules, routes and neighbours that fill it, and the notifications that
 * mark it stale. See route.h. */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/fib_rules.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <libmnl/libmnl.h>

#include "kernel/route.h"

#ifndef RTNLGRP_IPV6_RULE
#define RTNLGRP_IPV6_RULE 19
#endif

/* Does a rule of C name an interface, which the kernel resolves by name
 * as links come and go? */
static bool route_names_links(const struct route_cache *c)
{
	for (size_t i = 0; i < c->nru; i++)
		if (c->ru[i].iifname[0])
			return true;
	return false;
}

int route_listen(struct route_cache *c)
{
	unsigned groups = RTMGRP_IPV4_ROUTE | RTMGRP_IPV6_ROUTE | RTMGRP_NEIGH |
	                  RTMGRP_IPV4_RULE | RTMGRP_LINK;
	int v6rule = RTNLGRP_IPV6_RULE, rc;

	if (c->mon)
		return mnl_socket_get_fd(c->mon);
	c->mon = mnl_socket_open2(NETLINK_ROUTE, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (!c->mon)
		return -errno;
	/* The neighbour group carries both families' entries. */
	if (mnl_socket_bind(c->mon, groups, MNL_SOCKET_AUTOPID) < 0)
		goto fail;
	/* A kernel without IPv6 has no such group: IPv4's rules are still
	 * followed. */
	mnl_socket_setsockopt(c->mon, NETLINK_ADD_MEMBERSHIP, &v6rule,
	                      sizeof(v6rule));
	c->stale = true;
	return mnl_socket_get_fd(c->mon);
fail:
	rc = -errno;
	mnl_socket_close(c->mon);
	c->mon = NULL;
	return rc;
}

bool route_notified(struct route_cache *c)
{
	char buf[MNL_SOCKET_BUFFER_SIZE] __attribute__((aligned(4)));
	bool any = false, links = route_names_links(c);

	if (!c->mon)
		return false;
	/* What changed does not matter: the next use dumps again. A loss
	 * (ENOBUFS) is a change not seen: the same. A link matters only to
	 * a rule that names one. */
	for (;;) {
		ssize_t n = mnl_socket_recvfrom(c->mon, buf, sizeof(buf));
		const struct nlmsghdr *nlh = (const void *)buf;
		int left = (int)n;
		bool counts = false;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno != ENOBUFS)
			break;
		if (n < 0)
			counts = true;
		for (; n > 0 && mnl_nlmsg_ok(nlh, left);
		     nlh = mnl_nlmsg_next(nlh, &left))
			if (links || (nlh->nlmsg_type != RTM_NEWLINK &&
			              nlh->nlmsg_type != RTM_DELLINK))
				counts = true;
		if (counts) {
			any = true;
			c->changes++;
		}
	}
	if (any)
		c->stale = true;
	return any;
}

/* --- the dumps --- */

struct route_dump {
	struct route_cache *c;
	int err;
};

/* A 4- or 16-byte address attribute of FAMILY into IP; false if neither. */
static bool route_attr_ip(const struct nlattr *at, int family,
                          struct route_ip *ip)
{
	size_t len = mnl_attr_get_payload_len(at);

	if (len != (family == AF_INET6 ? 16u : 4u))
		return false;
	memset(ip, 0, sizeof(*ip));
	memcpy(ip->b, mnl_attr_get_payload(at), len);
	return true;
}

static void route_nh_add(struct route_cache *c, struct route_rt *r, int oif,
                         const struct route_ip *gw)
{
	if (r->nnh == ROUTE_NH_MAX) {
		c->nh_cut++;
		return;
	}
	r->nh[r->nnh].oif = oif;
	r->nh[r->nnh].gw = *gw;
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
		struct route_ip gw;

		memset(&gw, 0, sizeof(gw));
		if (len < sizeof(*rnh) || len > left)
			break;
		while (off + sizeof(struct nlattr) <= len) {
			const struct nlattr *a = (const void *)(p + off);

			if (a->nla_len < sizeof(*a) || off + a->nla_len > len)
				break;
			if (mnl_attr_get_type(a) == RTA_GATEWAY)
				route_attr_ip(a, r->family, &gw);
			off += MNL_ALIGN(a->nla_len);
		}
		if (!(rnh->rtnh_flags & RTNH_F_DEAD))
			route_nh_add(c, r, rnh->rtnh_ifindex, &gw);
		len = RTNH_ALIGN(len);
		if (len >= left)
			break;
		p += len;
		left -= len;
	}
}

/* Is TABLE one the lookups of FAMILY may read: one a rule names, or
 * without rules the default ones? */
static bool route_table_read(const struct route_cache *c, int family,
                             uint32_t table)
{
	bool rules = false;

	for (size_t i = 0; i < c->nru; i++) {
		if (c->ru[i].family != family)
			continue;
		rules = true;
		if (c->ru[i].action == FR_ACT_TO_TBL && c->ru[i].table == table)
			return true;
	}
	return !rules && (table == RT_TABLE_LOCAL || table == RT_TABLE_MAIN ||
	                  table == RT_TABLE_DEFAULT);
}

static int route_rt_cb(const struct nlmsghdr *nlh, void *data)
{
	struct route_dump *d = data;
	const struct rtmsg *rtm = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *at;
	struct route_rt r;
	struct route_ip gw;
	int oif = 0;

	if (nlh->nlmsg_type != RTM_NEWROUTE ||
	    mnl_nlmsg_get_payload_len(nlh) < sizeof(*rtm) ||
	    (rtm->rtm_family != AF_INET && rtm->rtm_family != AF_INET6) ||
	    (rtm->rtm_flags & RTM_F_CLONED))
		return MNL_CB_OK;
	switch (rtm->rtm_type) {
	case RTN_UNICAST:
	case RTN_LOCAL:
	case RTN_BROADCAST:
	case RTN_ANYCAST:
	case RTN_MULTICAST:
	case RTN_BLACKHOLE:
	case RTN_UNREACHABLE:
	case RTN_PROHIBIT:
	case RTN_THROW:
		break;
	default:
		return MNL_CB_OK;
	}
	memset(&r, 0, sizeof(r));
	memset(&gw, 0, sizeof(gw));
	r.family = rtm->rtm_family;
	r.len = rtm->rtm_dst_len;
	r.type = rtm->rtm_type;
	r.table = rtm->rtm_table;
	mnl_attr_for_each(at, nlh, sizeof(*rtm))
	{
		size_t len = mnl_attr_get_payload_len(at);

		switch (mnl_attr_get_type(at)) {
		case RTA_DST:
			route_attr_ip(at, r.family, &r.dst);
			break;
		case RTA_OIF:
			if (len == 4)
				oif = (int)mnl_attr_get_u32(at);
			break;
		case RTA_GATEWAY:
			route_attr_ip(at, r.family, &gw);
			break;
		case RTA_PRIORITY:
			if (len == 4)
				r.metric = mnl_attr_get_u32(at);
			break;
		case RTA_TABLE:
			if (len == 4)
				r.table = mnl_attr_get_u32(at);
			break;
		case RTA_MULTIPATH:
			if (r.type == RTN_UNICAST)
				route_multipath(d->c, &r, at);
			break;
		default:
			break;
		}
	}
	if (!route_table_read(d->c, r.family, r.table))
		return MNL_CB_OK;
	if (r.type == RTN_UNICAST && oif && !r.nnh)
		route_nh_add(d->c, &r, oif, &gw);
	/* A unicast route without a live next hop forwards nothing. */
	if (r.type == RTN_UNICAST && !r.nnh)
		return MNL_CB_OK;
	if (route_add(d->c, &r) < 0)
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
	    (ndm->ndm_family != AF_INET && ndm->ndm_family != AF_INET6) ||
	    (ndm->ndm_state & (NUD_FAILED | NUD_INCOMPLETE)))
		return MNL_CB_OK;
	memset(&n, 0, sizeof(n));
	n.family = ndm->ndm_family;
	n.ifindex = ndm->ndm_ifindex;
	mnl_attr_for_each(at, nlh, sizeof(*ndm))
	{
		if (mnl_attr_get_type(at) == NDA_DST) {
			ip = route_attr_ip(at, n.family, &n.ip);
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

/* A rule's attribute that selects by what the counters do not know. */
static bool route_rule_unknown(const struct nlattr *at)
{
	size_t len = mnl_attr_get_payload_len(at);
	const struct fib_rule_uid_range *u;

	switch (mnl_attr_get_type(at)) {
	case FRA_FWMASK:
	case FRA_TUN_ID:
	case FRA_IP_PROTO:
	case FRA_SPORT_RANGE:
	case FRA_DPORT_RANGE:
	case FRA_L3MDEV:
		/* Set only when it selects something: a zero says none. */
		for (size_t i = 0; i < len; i++)
			if (((const uint8_t *)mnl_attr_get_payload(at))[i])
				return true;
		return false;
	case FRA_UID_RANGE:
		if (len < sizeof(*u))
			return false;
		u = mnl_attr_get_payload(at);
		return u->start != 0 || u->end != UINT32_MAX;
	default:
		return false;
	}
}

static int route_ru_cb(const struct nlmsghdr *nlh, void *data)
{
	struct route_dump *d = data;
	const struct fib_rule_hdr *frh = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *at;
	struct route_rule r;
	bool l3mdev = false;

	if (nlh->nlmsg_type != RTM_NEWRULE ||
	    mnl_nlmsg_get_payload_len(nlh) < sizeof(*frh) ||
	    (frh->family != AF_INET && frh->family != AF_INET6))
		return MNL_CB_OK;
	memset(&r, 0, sizeof(r));
	r.family = frh->family;
	r.dst_len = frh->dst_len;
	r.action = frh->action;
	r.table = frh->table;
	r.invert = frh->flags & FIB_RULE_INVERT;
	r.suppress_len = -1;
	/* A source or a tos: the counters know neither (a DSCP, but the
	 * kernel matches the tos by rules of its own version). */
	r.undecided = frh->src_len || frh->tos;
	mnl_attr_for_each(at, nlh, sizeof(*frh))
	{
		size_t len = mnl_attr_get_payload_len(at);

		switch (mnl_attr_get_type(at)) {
		case FRA_PRIORITY:
			if (len == 4)
				r.prio = mnl_attr_get_u32(at);
			break;
		case FRA_TABLE:
			if (len == 4)
				r.table = mnl_attr_get_u32(at);
			break;
		case FRA_GOTO:
			if (len == 4)
				r.goto_prio = mnl_attr_get_u32(at);
			break;
		case FRA_DST:
			route_attr_ip(at, r.family, &r.dst);
			break;
		case FRA_IIFNAME:
			snprintf(r.iifname, sizeof(r.iifname), "%.*s",
			         (int)strnlen(mnl_attr_get_payload(at), len),
			         (const char *)mnl_attr_get_payload(at));
			break;
		case FRA_OIFNAME:
			r.never = true;
			break;
		case FRA_SUPPRESS_PREFIXLEN:
			if (len == 4 && mnl_attr_get_u32(at) <= 128)
				r.suppress_len = (int)mnl_attr_get_u32(at);
			break;
		case FRA_SUPPRESS_IFGROUP:
			if (len == 4 && mnl_attr_get_u32(at) != UINT32_MAX)
				r.suppress_maybe = true;
			break;
		default:
			if (route_rule_unknown(at)) {
				r.undecided = true;
				l3mdev |= mnl_attr_get_type(at) == FRA_L3MDEV;
			}
			break;
		}
	}
	/* The table a VRF's rule reads is its device's: unknown here. */
	if (l3mdev)
		r.table = 0;
	if (r.iifname[0]) {
		unsigned idx = if_nametoindex(r.iifname);

		/* Not there: the kernel's rule matches nothing until it is. */
		r.iif = idx ? (int)idx : -1;
	}
	if (route_add_rule(d->c, &r) < 0)
		d->err = -ENOMEM;
	return MNL_CB_OK;
}

/* One dump of TYPE (RTM_GETRULE, RTM_GETROUTE or RTM_GETNEIGH) of FAMILY
 * into C through CB. A family the kernel does not have (no IPv6) or
 * without policy routing dumps nothing. */
static int route_dump_one(struct nlb *nl, struct route_cache *c, int type,
                          int family, mnl_cb_t cb)
{
	char buf[MNL_SOCKET_BUFFER_SIZE] __attribute__((aligned(4)));
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct route_dump d = {c, 0};
	struct nlb_error nerr;
	int rc;

	nlh->nlmsg_type = (uint16_t)type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	if (type == RTM_GETNEIGH) {
		struct ndmsg *ndm =
		    mnl_nlmsg_put_extra_header(nlh, sizeof(*ndm));

		ndm->ndm_family = (uint8_t)family;
	} else {
		/* struct fib_rule_hdr starts as struct rtmsg does. */
		struct rtmsg *rtm =
		    mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));

		rtm->rtm_family = (uint8_t)family;
	}
	rc = nlb_dump(nl, nlh, cb, &d, &nerr);
	if (rc == -EAFNOSUPPORT || rc == -EOPNOTSUPP)
		rc = 0;
	return rc < 0 ? rc : d.err;
}

int route_refresh(struct route_cache *c, struct nlb *nl)
{
	static const int fam[] = {AF_INET, AF_INET6};
	struct route_cache fresh;
	bool changed;
	int rc = 0;

	if (c->filled && !c->stale)
		return 0;
	if (!nl || !nl->sock)
		return -ENOTCONN;
	/* Into a fresh cache: a dump that fails leaves the old one. The
	 * rules first: they say which tables to keep. */
	route_init(&fresh);
	for (size_t f = 0; f < 2 && rc == 0; f++)
		rc = route_dump_one(nl, &fresh, RTM_GETRULE, fam[f],
		                    route_ru_cb);
	for (size_t f = 0; f < 2 && rc == 0; f++)
		rc = route_dump_one(nl, &fresh, RTM_GETROUTE, fam[f],
		                    route_rt_cb);
	for (size_t f = 0; f < 2 && rc == 0; f++)
		rc = route_dump_one(nl, &fresh, RTM_GETNEIGH, fam[f],
		                    route_nb_cb);
	if (rc < 0) {
		route_free(&fresh);
		return rc;
	}
	changed =
	    !c->filled || fresh.nrt != c->nrt || fresh.nnb != c->nnb ||
	    fresh.nru != c->nru ||
	    (c->nrt && memcmp(fresh.rt, c->rt, c->nrt * sizeof(*c->rt))) ||
	    (c->nnb && memcmp(fresh.nb, c->nb, c->nnb * sizeof(*c->nb))) ||
	    (c->nru && memcmp(fresh.ru, c->ru, c->nru * sizeof(*c->ru)));
	free(c->rt);
	free(c->nb);
	free(c->ru);
	c->rt = fresh.rt;
	c->nrt = fresh.nrt;
	c->caprt = fresh.caprt;
	c->nb = fresh.nb;
	c->nnb = fresh.nnb;
	c->capnb = fresh.capnb;
	c->ru = fresh.ru;
	c->nru = fresh.nru;
	c->capru = fresh.capru;
	c->nh_cut += fresh.nh_cut;
	c->filled = true;
	c->stale = false;
	c->dumps++;
	return changed ? 1 : 0;
}
