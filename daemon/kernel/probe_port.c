/* probe_port: what each port can do (hardware DCB, link speed). See
 * probe.h.
 *
 * Per port roced needs three facts: does the link exist and is it up, does
 * its driver implement dcbnl, and how fast is it. Each comes from the
 * cheapest source that answers it exactly (measured on 256 veth pairs,
 * 512 links in the namespace):
 *  - SIOCGIFFLAGS: existence and IFF_UP, about 0.3 us per port. An
 *    RTM_GETLINK answer (for the link kind) costs the kernel ~2 us to fill
 *    per link, dumped or asked one by one: more than the dcbnl requests a
 *    kind could spare.
 *  - DCB_CMD_IEEE_GET for every port that exists, all in one pipelined
 *    batch (0.16 ms for 256): dcbnl itself says which netdevs have
 *    dcbnl_ops. Software links (veth, bridge, dummy, tun, macvlan) answer
 *    EOPNOTSUPP, and so do links stacked on a DCB NIC (vlan, bond, team,
 *    macvlan): dcbnl belongs to the NIC's own netdev, whose DCB settings
 *    cover the traffic of the links above it, so those are software ports
 *    to roced and the NIC is the port to configure. No list of link kinds
 *    can say as much: DSA switch ports have a kind ("dsa") and dcbnl.
 *  - ethtool LINKMODES: one dump for all devices (0.15 ms for 512 links)
 *    from PROBE_DUMP_MIN ports on, one GET per port that is up below.
 */
#include "kernel/probe.h"

#include <dirent.h>
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include <libmnl/libmnl.h>

#include "nlmsg/dcbnl_msg.h"
#include "kernel/ethtool.h"
#include "kernel/nlb.h"

/* From this many ports on, dump every device's link modes rather than ask
 * per port: a dump costs ~0.3 us per link in the namespace, a GET ~3 us. */
#define PROBE_DUMP_MIN 16

/* One port being probed; DUP points at an earlier entry of the same name,
 * which is the one probed. */
struct probe_link {
	struct compile_port *port;
	const struct probe_link *dup;
	bool found;
	unsigned flags; /* IFF_* */
};

struct probe_ctx {
	struct probe_link *links; /* sorted by name */
	size_t n;
	struct nlb rt;
	struct probe_stats st;
	/* The DCB batch: which link each request is about. */
	struct probe_link **dcb_of;
};

static int probe_link_cmp(const void *a, const void *b)
{
	const struct probe_link *x = a, *y = b;

	return strcmp(x->port->ifname, y->port->ifname);
}

/* The port named NAME, if probed (binary search on the sorted list). */
static struct probe_link *probe_find(struct probe_ctx *pc, const char *name)
{
	size_t lo = 0, hi = pc->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(pc->links[mid].port->ifname, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < pc->n && !strcmp(pc->links[lo].port->ifname, name))
		return &pc->links[lo];
	return NULL;
}

/* Is IFNAME in no bridge and without a VLAN (or any) link stacked on it:
 * a routed port, whose frames all come in untagged? sysfs lists a bridge
 * port's brport and every upper link as upper_NAME; a name sysfs cannot
 * read is not called routed (a warning would be a guess). */
static bool probe_untagged(const char *ifname)
{
	char path[64 + IFNAMSIZ];
	struct dirent *de;
	bool upper = false;
	DIR *d;

	snprintf(path, sizeof(path), "/sys/class/net/%s", ifname);
	d = opendir(path);
	if (!d)
		return false;
	while ((de = readdir(d)) && !upper)
		upper = !strncmp(de->d_name, "upper_", 6) ||
		        !strcmp(de->d_name, "brport") ||
		        !strcmp(de->d_name, "bridge");
	closedir(d);
	return !upper;
}

/* Existence and flags. A name the kernel does not know (ENODEV) is a port
 * that may appear later. */
static int probe_flags(struct probe_ctx *pc)
{
	int fd = mnl_socket_get_fd(pc->rt.sock);

	for (size_t i = 0; i < pc->n; i++) {
		struct probe_link *l = &pc->links[i];
		struct ifreq ifr;

		if (l->dup)
			continue;
		memset(&ifr, 0, sizeof(ifr));
		memcpy(ifr.ifr_name, l->port->ifname,
		       strnlen(l->port->ifname, IFNAMSIZ - 1));
		pc->st.ioctls++;
		if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0) {
			if (errno == ENODEV || errno == ENXIO)
				continue;
			return -errno;
		}
		l->found = true;
		l->flags = (unsigned)(unsigned short)ifr.ifr_flags;
		l->port->caps.untagged = probe_untagged(l->port->ifname);
	}
	return 0;
}

/* Every request of the batch that failed: no dcbnl there after all. */
static void probe_dcb_refused(size_t index, int err, const char *msg,
                              void *data)
{
	struct probe_ctx *pc = data;

	(void)msg;
	(void)err;
	pc->dcb_of[index]->port->caps.hw_dcb = false;
}

/* One DCB_CMD_IEEE_GET per port that exists, pipelined: a port whose
 * request succeeds (a reply, then ACK 0) has dcbnl. */
static int probe_dcb(struct probe_ctx *pc)
{
	struct nlb_batch b;
	size_t nreq = 0;
	int rc = 0;

	pc->dcb_of = calloc(pc->n, sizeof(*pc->dcb_of));
	if (!pc->dcb_of)
		return -ENOMEM;
	nlb_batch_init(&b);
	for (size_t i = 0; i < pc->n; i++) {
		struct probe_link *l = &pc->links[i];
		char *req;

		if (l->dup || !l->found || (l->flags & IFF_LOOPBACK))
			continue;
		req = nlb_batch_next(&b, DCBNL_MSG_GET_SIZE);
		if (!req) {
			rc = -ENOMEM;
			goto out;
		}
		rc = dcbnl_msg_ieee_get(req, DCBNL_MSG_GET_SIZE, 0,
		                        l->port->ifname);
		if (rc < 0)
			goto out;
		nlb_batch_commit(&pc->rt, &b);
		l->port->caps.hw_dcb = true; /* unless refused below */
		pc->dcb_of[nreq++] = l;
	}
	pc->st.dcb_requests = nreq;
	/* Refusals (EOPNOTSUPP, or ENODEV for a port gone meanwhile) are
	 * answers; only a socket error is a failure. */
	rc = nlb_batch_send_each(&pc->rt, &b, probe_dcb_refused, pc);
out:
	if (rc < 0)
		for (size_t i = 0; i < nreq; i++)
			pc->dcb_of[i]->port->caps.hw_dcb = false;
	nlb_batch_free(&b);
	free(pc->dcb_of);
	pc->dcb_of = NULL;
	return rc;
}

/* sysfs' rule (net-sysfs.c speed_show): a speed only for a link that is
 * up. NIC drivers report SPEED_UNKNOWN without carrier anyway; veth would
 * report 10000 even when down. */
static void probe_set_speed(struct probe_link *l,
                            const struct ethtool_msg_link *el)
{
	if (l->found && (l->flags & IFF_UP))
		l->port->caps.speed_mbps = ethtool_msg_link_speed(el);
}

static void probe_speed_cb(const struct ethtool_msg_link *el, void *data)
{
	struct probe_link *l = probe_find(data, el->dev.ifname);

	if (l)
		probe_set_speed(l, el);
}

static void probe_speeds(struct probe_ctx *pc, bool dump)
{
	struct ethtool_kernel ek;
	struct ethtool et;
	struct ethtool_msg_link el;

	if (ethtool_kernel_open(&ek) < 0)
		return; /* speeds stay unknown: compile says so */
	ethtool_init(&et, &ethtool_ops_kernel, &ek);
	if (dump) {
		ethtool_link_dump(&et, probe_speed_cb, pc);
	} else {
		for (size_t i = 0; i < pc->n; i++) {
			struct probe_link *l = &pc->links[i];

			if (l->dup || !l->found || !(l->flags & IFF_UP))
				continue;
			if (ethtool_link_get(&et, l->port->ifname, &el) == 0)
				probe_set_speed(l, &el);
		}
	}
	pc->st.ethtool_requests = et.nrequests;
	ethtool_kernel_close(&ek);
}

int probe_ports(struct compile_port *ports, size_t n, struct probe_stats *st)
{
	struct probe_ctx pc = {.n = n};
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		ports[i].caps.hw_dcb = false;
		ports[i].caps.speed_mbps = 0;
		ports[i].caps.untagged = false;
	}
	if (st)
		memset(st, 0, sizeof(*st));
	if (!n)
		return 0;
	pc.links = calloc(n, sizeof(*pc.links));
	if (!pc.links)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		pc.links[i].port = &ports[i];
	qsort(pc.links, n, sizeof(*pc.links), probe_link_cmp);
	for (size_t i = 1; i < n; i++)
		if (!strcmp(pc.links[i].port->ifname,
		            pc.links[i - 1].port->ifname))
			pc.links[i].dup = pc.links[i - 1].dup
			                      ? pc.links[i - 1].dup
			                      : &pc.links[i - 1];
	rc = nlb_open(&pc.rt);
	if (rc < 0)
		goto out;
	rc = probe_flags(&pc);
	if (rc == 0)
		rc = probe_dcb(&pc);
	if (rc == 0)
		probe_speeds(&pc, n >= PROBE_DUMP_MIN);
	nlb_close(&pc.rt);
	/* A port named twice gets the answers of its first mention. */
	for (size_t i = 0; i < n; i++) {
		const struct probe_link *d = pc.links[i].dup;

		if (!d)
			continue;
		pc.links[i].port->caps.hw_dcb = d->port->caps.hw_dcb;
		pc.links[i].port->caps.speed_mbps = d->port->caps.speed_mbps;
		pc.links[i].port->caps.untagged = d->port->caps.untagged;
	}
out:
	free(pc.links);
	if (st)
		*st = pc.st;
	return rc;
}

int probe_port(const char *ifname, struct caps *c)
{
	struct compile_port p;
	int rc;

	memset(&p, 0, sizeof(p));
	snprintf(p.ifname, sizeof(p.ifname), "%s", ifname);
	rc = probe_ports(&p, 1, NULL);
	c->hw_dcb = p.caps.hw_dcb;
	c->speed_mbps = p.caps.speed_mbps;
	c->untagged = p.caps.untagged;
	return rc;
}
