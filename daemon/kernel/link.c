/* link: see link.h. */
#include "kernel/link.h"

#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

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
	int ioctl_fd; /* a one-shot job: links asked for by ioctl */
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
	const char *type;
	struct nl_addr *addr;

	memset(out, 0, sizeof(*out));
	out->ifindex = rtnl_link_get_ifindex(l);
	snprintf(out->name, sizeof(out->name), "%s", name ? name : "");
	out->mtu = rtnl_link_get_mtu(l);
	out->up = flags & IFF_UP;
	out->running = flags & IFF_RUNNING;
	out->master = rtnl_link_get_master(l);
	type = rtnl_link_get_type(l);
	out->aggregate =
	    type && (!strcmp(type, "bond") || !strcmp(type, "team"));
	addr = rtnl_link_get_addr(l);
	if (addr && nl_addr_get_len(addr) == sizeof(out->mac))
		memcpy(out->mac, nl_addr_get_binary_addr(addr),
		       sizeof(out->mac));
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
		/* An address change is a state change to the frame layer
		 * (LLDP's chassis and the source of every frame), and so is
		 * joining or leaving a bridge (what LLDP says the system
		 * is). */
		if (before.up != now.up || before.running != now.running ||
		    before.master != now.master ||
		    memcmp(before.mac, now.mac, sizeof(now.mac)))
			lm->cb(LINK_EV_STATE, &now, NULL, lm->data);
	}
}

static int link_name_cmp(const void *a, const void *b)
{
	const struct link_info *x = a, *y = b;

	return strcmp(x->name, y->name);
}

/* A one-shot job asks the kernel for just the links it looks up, by name:
 * three ioctls (well under a microsecond each) instead of a dump of every
 * link (the kernel fills ~2 us of attributes per link) and a copy that
 * could go stale. */
static int link_ask(const struct link_mon *lm, struct ifreq *ifr,
                    struct link_info *out)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%s", ifr->ifr_name);
	if (ioctl(lm->ioctl_fd, SIOCGIFINDEX, ifr) < 0)
		return -ENODEV;
	out->ifindex = ifr->ifr_ifindex;
	if (ioctl(lm->ioctl_fd, SIOCGIFMTU, ifr) < 0)
		return -ENODEV;
	out->mtu = (uint32_t)ifr->ifr_mtu;
	if (ioctl(lm->ioctl_fd, SIOCGIFFLAGS, ifr) < 0)
		return -ENODEV;
	out->up = ifr->ifr_flags & IFF_UP;
	out->running = ifr->ifr_flags & IFF_RUNNING;
	if (ioctl(lm->ioctl_fd, SIOCGIFHWADDR, ifr) == 0)
		memcpy(out->mac, ifr->ifr_hwaddr.sa_data, sizeof(out->mac));
	return 0;
}

static int link_ask_name(const struct link_mon *lm, const char *name,
                         struct link_info *out)
{
	struct ifreq ifr;

	if (strlen(name) >= sizeof(ifr.ifr_name))
		return -ENODEV;
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, name, strlen(name));
	return link_ask(lm, &ifr, out);
}

static int link_ask_index(const struct link_mon *lm, int ifindex,
                          struct link_info *out)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_ifindex = ifindex;
	if (ioctl(lm->ioctl_fd, SIOCGIFNAME, &ifr) < 0)
		return -ENODEV;
	return link_ask(lm, &ifr, out);
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
	lm->ioctl_fd = -1;
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
		/* Nobody listens: no subscription (the kernel would build and
		 * send us a message for every link change), no cache. */
		lm->ioctl_fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (lm->ioctl_fd < 0) {
			rc = -errno;
			goto fail;
		}
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
	if (lm->ioctl_fd >= 0)
		close(lm->ioctl_fd);
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

	if (lm->ioctl_fd >= 0)
		return link_ask_name(lm, name, out);
	if (lm->stale && link_index_build(lm) < 0) {
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

size_t link_members(struct link_mon *lm, int master,
                    char (*names)[LINK_NAME_MAX], size_t max)
{
	size_t n = 0;

	if (lm->ioctl_fd >= 0 || master <= 0)
		return 0;
	if (lm->stale && link_index_build(lm) < 0) {
		for (struct nl_object *o = nl_cache_get_first(lm->cache);
		     o && n < max; o = nl_cache_get_next(o)) {
			struct rtnl_link *l = (struct rtnl_link *)o;
			const char *name = rtnl_link_get_name(l);

			if (rtnl_link_get_master(l) == master && name)
				snprintf(names[n++], LINK_NAME_MAX, "%s", name);
		}
		return n;
	}
	for (size_t k = 0; k < lm->nbyname && n < max; k++)
		if (lm->byname[k].master == master)
			snprintf(names[n++], LINK_NAME_MAX, "%s",
			         lm->byname[k].name);
	return n;
}

int link_lookup_index(struct link_mon *lm, int ifindex, struct link_info *out)
{
	struct rtnl_link *l;

	if (lm->ioctl_fd >= 0)
		return link_ask_index(lm, ifindex, out);
	l = rtnl_link_get(lm->cache, ifindex);
	if (!l)
		return -ENODEV;
	link_fill(l, out);
	rtnl_link_put(l);
	return 0;
}

int link_stats(struct link_mon *lm, int ifindex, struct link_stats *out)
{
	struct rtnl_link *l = NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = rtnl_link_get_kernel(lm->reqsock, ifindex, NULL, &l);
	if (rc < 0 || !l)
		return rc == -NLE_OBJ_NOTFOUND || rc == -NLE_NODEV ? -ENODEV
		                                                   : -EIO;
	out->rx_bytes = rtnl_link_get_stat(l, RTNL_LINK_RX_BYTES);
	out->rx_packets = rtnl_link_get_stat(l, RTNL_LINK_RX_PACKETS);
	out->rx_multicast = rtnl_link_get_stat(l, RTNL_LINK_MULTICAST);
	out->tx_bytes = rtnl_link_get_stat(l, RTNL_LINK_TX_BYTES);
	out->tx_packets = rtnl_link_get_stat(l, RTNL_LINK_TX_PACKETS);
	out->rx_discards = rtnl_link_get_stat(l, RTNL_LINK_RX_DROPPED) +
	                   rtnl_link_get_stat(l, RTNL_LINK_RX_MISSED_ERR);
	out->tx_discards = rtnl_link_get_stat(l, RTNL_LINK_TX_DROPPED);
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
