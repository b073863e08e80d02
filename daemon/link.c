/* link: see link.h. */
#include "link.h"

#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>
#include <netlink/cache.h>
#include <netlink/netlink.h>
#include <netlink/route/link.h>

#define LINK_EV_RCVBUF (4 << 20)

struct link_mon {
	struct nl_sock *evsock;  /* used by the cache manager, freed here */
	struct nl_sock *reqsock; /* for changes */
	struct nl_cache_mngr *mngr;
	struct nl_cache *cache;
	link_cb cb;
	void *data;
	/* Every link by name, for lookups without walking libnl's list:
	 * rebuilt after the cache changed. */
	struct link_info *byname;
	size_t nbyname;
	bool stale;
};

static void link_fill(struct rtnl_link *l, struct link_info *out)
{
	unsigned flags = rtnl_link_get_flags(l);
	const char *name = rtnl_link_get_name(l);

	memset(out, 0, sizeof(*out));
	out->ifindex = rtnl_link_get_ifindex(l);
	snprintf(out->name, sizeof(out->name), "%s", name ? name : "");
	out->mtu = rtnl_link_get_mtu(l);
	out->up = flags & IFF_UP;
	out->running = flags & IFF_RUNNING;
}

/* libnl calls this for each change it folds into the cache. */
static void link_changed(struct nl_cache *cache, struct nl_object *old_obj,
                         struct nl_object *new_obj, uint64_t diff, int action,
                         void *arg)
{
	struct link_mon *lm = arg;
	struct link_info now, before;

	(void)cache;
	(void)diff;
	lm->stale = true;
	if (!lm->cb)
		return;
	if (action == NL_ACT_NEW && new_obj) {
		link_fill((struct rtnl_link *)new_obj, &now);
		lm->cb(LINK_EV_NEW, &now, NULL, lm->data);
	} else if (action == NL_ACT_DEL && old_obj) {
		link_fill((struct rtnl_link *)old_obj, &before);
		lm->cb(LINK_EV_DEL, &before, NULL, lm->data);
	} else if (action == NL_ACT_CHANGE && old_obj && new_obj) {
		link_fill((struct rtnl_link *)old_obj, &before);
		link_fill((struct rtnl_link *)new_obj, &now);
		if (strcmp(before.name, now.name))
			lm->cb(LINK_EV_RENAME, &now, before.name, lm->data);
		if (before.mtu != now.mtu)
			lm->cb(LINK_EV_MTU, &now, NULL, lm->data);
		if (before.up != now.up || before.running != now.running)
			lm->cb(LINK_EV_STATE, &now, NULL, lm->data);
	}
}

static int link_name_cmp(const void *a, const void *b)
{
	const struct link_info *x = a, *y = b;

	return strcmp(x->name, y->name);
}

struct link_dumping {
	struct link_info *v;
	size_t n, cap;
};

static int link_dump_attr(const struct nlattr *a, void *data)
{
	const struct nlattr **tb = data;
	uint16_t type = mnl_attr_get_type(a);

	if (type == IFLA_IFNAME &&
	    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0)
		tb[IFLA_IFNAME] = a;
	else if (type == IFLA_MTU && mnl_attr_validate(a, MNL_TYPE_U32) == 0)
		tb[IFLA_MTU] = a;
	return MNL_CB_OK;
}

static int link_dump_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[IFLA_MAX + 1] = {NULL};
	const struct ifinfomsg *ifi = mnl_nlmsg_get_payload(nlh);
	struct link_dumping *d = data;
	struct link_info *li;

	if (nlh->nlmsg_type != RTM_NEWLINK ||
	    mnl_nlmsg_get_payload_len(nlh) < sizeof(*ifi) ||
	    mnl_attr_parse(nlh, sizeof(*ifi), link_dump_attr, tb) < 0 ||
	    !tb[IFLA_IFNAME])
		return MNL_CB_OK;
	if (d->n == d->cap) {
		size_t ncap = d->cap ? d->cap * 2 : 64;
		struct link_info *nv = realloc(d->v, ncap * sizeof(*nv));

		if (!nv)
			return MNL_CB_ERROR;
		d->v = nv;
		d->cap = ncap;
	}
	li = &d->v[d->n++];
	memset(li, 0, sizeof(*li));
	li->ifindex = ifi->ifi_index;
	snprintf(li->name, sizeof(li->name), "%s",
	         mnl_attr_get_str(tb[IFLA_IFNAME]));
	li->mtu = tb[IFLA_MTU] ? mnl_attr_get_u32(tb[IFLA_MTU]) : 0;
	li->up = ifi->ifi_flags & IFF_UP;
	li->running = ifi->ifi_flags & IFF_RUNNING;
	return MNL_CB_OK;
}

/* A one-shot job's table: one RTM_GETLINK dump without statistics, read
 * with libmnl (a libnl cache parses every attribute of every link). */
static int link_dump(struct link_mon *lm)
{
	char buf[32768] __attribute__((aligned(4)));
	struct mnl_socket *sock = mnl_socket_open(NETLINK_ROUTE);
	struct link_dumping d = {0};
	struct nlmsghdr *nlh;
	struct ifinfomsg *ifi;
	uint32_t portid, seq;
	int rc;

	if (!sock)
		return -errno;
	if (mnl_socket_bind(sock, 0, MNL_SOCKET_AUTOPID) < 0) {
		rc = -errno;
		goto out;
	}
	portid = mnl_socket_get_portid(sock);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_GETLINK;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = seq = 1;
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	mnl_attr_put_u32(nlh, IFLA_EXT_MASK, RTEXT_FILTER_SKIP_STATS);
	if (mnl_socket_sendto(sock, nlh, nlh->nlmsg_len) < 0) {
		rc = -errno;
		goto out;
	}
	for (;;) {
		ssize_t len = mnl_socket_recvfrom(sock, buf, sizeof(buf));

		if (len < 0) {
			rc = -errno;
			goto out;
		}
		rc =
		    mnl_cb_run(buf, (size_t)len, seq, portid, link_dump_cb, &d);
		if (rc < 0) {
			rc = errno ? -errno : -EIO;
			goto out;
		}
		if (rc == MNL_CB_STOP)
			break;
	}
	if (d.n)
		qsort(d.v, d.n, sizeof(*d.v), link_name_cmp);
	lm->byname = d.v;
	lm->nbyname = d.n;
	lm->stale = false;
	d.v = NULL;
	rc = 0;
out:
	free(d.v);
	mnl_socket_close(sock);
	return rc;
}

int link_mon_open(struct link_mon **out, link_cb cb, void *data)
{
	struct link_mon *lm = calloc(1, sizeof(*lm));
	int rcvbuf = LINK_EV_RCVBUF;
	int rc;

	if (!lm)
		return -ENOMEM;
	lm->cb = cb;
	lm->data = data;
	lm->stale = true;
	lm->evsock = nl_socket_alloc();
	lm->reqsock = nl_socket_alloc();
	if (!lm->evsock || !lm->reqsock) {
		rc = -ENOMEM;
		goto fail;
	}
	rc = nl_connect(lm->reqsock, NETLINK_ROUTE);
	if (rc < 0)
		goto fail_nl;
	if (!cb) {
		/* Nobody listens: one dump, no subscription (the kernel would
		 * build and send us a message for every link change). */
		rc = link_dump(lm);
		if (rc < 0)
			goto fail;
		*out = lm;
		return 0;
	}
	rc = nl_cache_mngr_alloc(lm->evsock, NETLINK_ROUTE, NL_AUTO_PROVIDE,
	                         &lm->mngr);
	if (rc < 0)
		goto fail_nl;
	/* Room for a burst: an MTU set on 256 ports is 256 RTM_NEWLINKs of
	 * a few KB each, more than the default buffer holds. Best effort:
	 * link_mon_process() recovers from an overrun. */
	setsockopt(nl_socket_get_fd(lm->evsock), SOL_SOCKET, SO_RCVBUFFORCE,
	           &rcvbuf, sizeof(rcvbuf));
	/* An empty cache: the manager fills it when it is added (filling it
	 * here too would dump every link twice). */
	rc = nl_cache_alloc_name("route/link", &lm->cache);
	if (rc < 0)
		goto fail_nl;
	rc = nl_cache_mngr_add_cache_v2(lm->mngr, lm->cache, link_changed, lm);
	if (rc < 0) {
		nl_cache_free(lm->cache);
		lm->cache = NULL;
		goto fail_nl;
	}
	*out = lm;
	return 0;
fail_nl:
	rc = -EIO; /* libnl's own codes do not map back to errno */
fail:
	link_mon_close(lm);
	return rc;
}

void link_mon_close(struct link_mon *lm)
{
	if (!lm)
		return;
	if (lm->mngr)
		nl_cache_mngr_free(lm->mngr); /* frees the cache, not evsock */
	else if (lm->cache)
		nl_cache_free(lm->cache);
	nl_socket_free(lm->evsock);
	nl_socket_free(lm->reqsock);
	free(lm->byname);
	free(lm);
}

int link_mon_fd(const struct link_mon *lm)
{
	return lm->mngr ? nl_cache_mngr_get_fd(lm->mngr) : -1;
}

int link_mon_process(struct link_mon *lm)
{
	int rc = lm->mngr ? nl_cache_mngr_data_ready(lm->mngr) : 0;

	/* Whatever libnl folded in. */
	lm->stale = lm->mngr != NULL;
	if (rc >= 0)
		return 0;
	/* Events were lost (libnl says NLE_NOMEM for ENOBUFS): read every
	 * link again; the caller must look at every port. */
	rc = nl_cache_refill(lm->reqsock, lm->cache);
	return rc < 0 ? -EIO : -ENOBUFS;
}

static int link_index_build(struct link_mon *lm)
{
	int n = nl_cache_nitems(lm->cache);
	struct link_info *v = malloc((n > 0 ? (size_t)n : 1) * sizeof(*v));
	size_t k = 0;

	if (!v)
		return -ENOMEM;
	for (struct nl_object *o = nl_cache_get_first(lm->cache);
	     o && k < (size_t)n; o = nl_cache_get_next(o))
		link_fill((struct rtnl_link *)o, &v[k++]);
	qsort(v, k, sizeof(*v), link_name_cmp);
	free(lm->byname);
	lm->byname = v;
	lm->nbyname = k;
	lm->stale = false;
	return 0;
}

int link_lookup(struct link_mon *lm, const char *name, struct link_info *out)
{
	struct link_info key;
	const struct link_info *hit;

	/* Without a cache (a one-shot job) the table is never stale. */
	if (lm->stale && lm->cache && link_index_build(lm) < 0) {
		/* Out of memory: ask libnl, which walks its list. */
		struct rtnl_link *l = rtnl_link_get_by_name(lm->cache, name);

		if (!l)
			return -ENODEV;
		link_fill(l, out);
		rtnl_link_put(l);
		return 0;
	}
	if (strlen(name) >= sizeof(key.name))
		return -ENODEV;
	snprintf(key.name, sizeof(key.name), "%s", name);
	hit =
	    bsearch(&key, lm->byname, lm->nbyname, sizeof(key), link_name_cmp);
	if (!hit)
		return -ENODEV;
	*out = *hit;
	return 0;
}

int link_lookup_index(struct link_mon *lm, int ifindex, struct link_info *out)
{
	struct rtnl_link *l;

	if (!lm->cache) {
		for (size_t i = 0; i < lm->nbyname; i++) {
			if (lm->byname[i].ifindex == ifindex) {
				*out = lm->byname[i];
				return 0;
			}
		}
		return -ENODEV;
	}
	l = rtnl_link_get(lm->cache, ifindex);
	if (!l)
		return -ENODEV;
	link_fill(l, out);
	rtnl_link_put(l);
	return 0;
}

int link_set_mtu(struct link_mon *lm, int ifindex, uint32_t mtu, char *err,
                 size_t errlen)
{
	struct rtnl_link *orig, *change;
	int rc;

	if (!lm->cache) {
		/* no cache: the index is all rtnl_link_change() needs */
		orig = rtnl_link_alloc();
		if (!orig)
			return -ENOMEM;
		rtnl_link_set_ifindex(orig, ifindex);
	} else {
		orig = rtnl_link_get(lm->cache, ifindex);
	}
	if (!orig) {
		snprintf(err, errlen, "no link with index %d", ifindex);
		return -ENODEV;
	}
	change = rtnl_link_alloc();
	if (!change) {
		rtnl_link_put(orig);
		return -ENOMEM;
	}
	rtnl_link_set_mtu(change, mtu);
	rc = rtnl_link_change(lm->reqsock, orig, change, 0);
	rtnl_link_put(change);
	rtnl_link_put(orig);
	if (rc < 0) {
		snprintf(err, errlen, "%s", nl_geterror(rc));
		return rc == -NLE_INVAL ? -EINVAL : -EIO;
	}
	return 0;
}

int link_msg_mtu(void *buf, size_t size, int ifindex, uint32_t mtu)
{
	struct nlmsghdr *nlh;
	struct ifinfomsg *ifi;

	if (size < LINK_MSG_MTU_SIZE)
		return -EMSGSIZE;
	memset(buf, 0, LINK_MSG_MTU_SIZE);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_NEWLINK;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = ifindex;
	mnl_attr_put_u32(nlh, IFLA_MTU, mtu);
	return 0;
}
