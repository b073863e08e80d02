/* probe_port: what each port can do (hardware DCB, link speed). See
 * probe.h.
 *
 * Per port roced needs three facts: does the link exist (and what kind of
 * link is it), does its driver implement dcbnl, and how fast is it. For
 * a few ports each is asked by name. For many ports the link table and
 * the link speeds each come in one dump (RTM_GETLINK, ethtool
 * LINKMODES), so 256 ports cost two exchanges instead of 512, and dcbnl
 * is asked only for links that may have it (see probe_link_may_have_dcb).
 */
#include "probe.h"

#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include "dcb.h"
#include "ethtool.h"
#include "nlb.h"

/* From this many ports on, dump the tables rather than ask per port. A
 * dump of every link in a namespace of a few hundred links costs about as
 * much as a dozen single requests. */
#define PROBE_DUMP_MIN 8

/* Kinds of software links (IFLA_INFO_KIND) whose drivers have no
 * dcbnl_ops. A stacked link (vlan, bond, team, macvlan, ...) over a DCB
 * NIC has none either: dcbnl answers for the NIC's own netdev only, and
 * DCB set on the NIC applies to all traffic through it. Links of other
 * kinds, and links with no kind at all (physical NICs, switch ports,
 * representors: drivers create them, not `ip link add`), are asked. */
static const char *const probe_soft_kinds[] = {
    "bond",    "bridge", "dummy",  "erspan",      "geneve", "gre",
    "gretap",  "hsr",    "ifb",    "ip6erspan",   "ip6gre", "ip6gretap",
    "ip6tnl",  "ipip",   "ipvlan", "ipvtap",      "macsec", "macvlan",
    "macvtap", "netkit", "nlmon",  "openvswitch", "sit",    "team",
    "tun",     "vcan",   "veth",   "vlan",        "vrf",    "vti",
    "vti6",    "vxcan",  "vxlan",  "wireguard",   "xfrm",
};

bool probe_link_may_have_dcb(const char *kind, unsigned ifi_flags)
{
	if (ifi_flags & IFF_LOOPBACK)
		return false;
	if (!kind || !kind[0])
		return true;
	for (size_t i = 0;
	     i < sizeof(probe_soft_kinds) / sizeof(probe_soft_kinds[0]); i++)
		if (!strcmp(kind, probe_soft_kinds[i]))
			return false;
	return true;
}

/* One port being probed. */
struct probe_link {
	struct compile_port *port;
	bool found;
	unsigned flags; /* ifi_flags */
	char kind[32];  /* IFLA_INFO_KIND, "" when none */
};

struct probe_ctx {
	struct probe_link *links; /* sorted by name for lookups */
	size_t n;
	struct nlb rt;
	struct ethtool_kernel ek;
	struct ethtool et;
	struct probe_stats st;
};

static int probe_link_cmp(const void *a, const void *b)
{
	const struct probe_link *x = a, *y = b;

	return strcmp(x->port->ifname, y->port->ifname);
}

/* The first port named NAME (the list may name a port twice); walk on
 * while the names match. */
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

#define probe_for_each_named(pc, l, name)                                      \
	for (struct probe_link *l = probe_find(pc, name);                      \
	     l && l < (pc)->links + (pc)->n && !strcmp(l->port->ifname, name); \
	     l++)

struct probe_linkinfo {
	const char *name;
	const char *kind;
};

static int probe_linkinfo_cb(const struct nlattr *a, void *data)
{
	struct probe_linkinfo *li = data;

	if (mnl_attr_get_type(a) == IFLA_INFO_KIND &&
	    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0)
		li->kind = mnl_attr_get_str(a);
	return MNL_CB_OK;
}

static int probe_link_attr_cb(const struct nlattr *a, void *data)
{
	struct probe_linkinfo *li = data;

	switch (mnl_attr_get_type(a)) {
	case IFLA_IFNAME:
		if (mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0)
			li->name = mnl_attr_get_str(a);
		break;
	case IFLA_LINKINFO:
		if (mnl_attr_validate(a, MNL_TYPE_NESTED) == 0)
			mnl_attr_parse_nested(a, probe_linkinfo_cb, li);
		break;
	}
	return MNL_CB_OK;
}

/* An RTM_NEWLINK answer, from the dump or from a single GET. */
static int probe_link_msg(const struct nlmsghdr *nlh, void *data)
{
	struct probe_ctx *pc = data;
	struct probe_linkinfo li = {0};
	const struct ifinfomsg *ifm;

	if (nlh->nlmsg_type != RTM_NEWLINK ||
	    mnl_nlmsg_get_payload_len(nlh) < sizeof(*ifm))
		return MNL_CB_OK;
	ifm = mnl_nlmsg_get_payload(nlh);
	if (mnl_attr_parse(nlh, sizeof(*ifm), probe_link_attr_cb, &li) < 0 ||
	    !li.name)
		return MNL_CB_OK;
	probe_for_each_named(pc, l, li.name)
	{
		l->found = true;
		l->flags = ifm->ifi_flags;
		snprintf(l->kind, sizeof(l->kind), "%s",
		         li.kind ? li.kind : "");
	}
	return MNL_CB_OK;
}

/* RTM_GETLINK of NAME (a dump of all links when NAME is NULL), without
 * the statistics nobody here reads. */
static int probe_links_ask(struct probe_ctx *pc, const char *name)
{
	char buf[256] __attribute__((aligned(4)));
	struct nlmsghdr *nlh;
	struct ifinfomsg *ifm;
	int rc;

	memset(buf, 0, sizeof(buf));
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_GETLINK;
	ifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifm));
	ifm->ifi_family = AF_UNSPEC;
	mnl_attr_put_u32(nlh, IFLA_EXT_MASK, RTEXT_FILTER_SKIP_STATS);
	pc->st.link_requests++;
	if (!name)
		return nlb_dump(&pc->rt, nlh, probe_link_msg, pc, NULL);
	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	rc = nlb_request(&pc->rt, nlh, probe_link_msg, pc, NULL);
	/* A port that does not exist (yet) is not an error. */
	return rc == -ENODEV ? 0 : rc;
}

/* sysfs' rule (net-sysfs.c speed_show): a speed only for a link that is
 * up. Drivers of NICs report SPEED_UNKNOWN without carrier anyway; veth
 * would report 10000 even when down. */
static void probe_set_speed(struct probe_link *l,
                            const struct ethtool_msg_link *el)
{
	if (l->found && (l->flags & IFF_UP))
		l->port->caps.speed_mbps = ethtool_msg_link_speed(el);
}

static void probe_speed_cb(const struct ethtool_msg_link *el, void *data)
{
	struct probe_ctx *pc = data;

	probe_for_each_named(pc, l, el->dev.ifname) probe_set_speed(l, el);
}

static void probe_speeds(struct probe_ctx *pc, bool dump)
{
	struct ethtool_msg_link el;

	if (ethtool_kernel_open(&pc->ek) < 0)
		return; /* speeds stay unknown: compile says so */
	ethtool_init(&pc->et, &ethtool_ops_kernel, &pc->ek);
	if (dump) {
		ethtool_link_dump(&pc->et, probe_speed_cb, pc);
	} else {
		for (size_t i = 0; i < pc->n; i++) {
			struct probe_link *l = &pc->links[i];

			if (!l->found || !(l->flags & IFF_UP))
				continue;
			if (i && !strcmp(l->port->ifname,
			                 pc->links[i - 1].port->ifname)) {
				l->port->caps.speed_mbps =
				    pc->links[i - 1].port->caps.speed_mbps;
				continue;
			}
			if (ethtool_link_get(&pc->et, l->port->ifname, &el) ==
			    0)
				probe_set_speed(l, &el);
		}
	}
	pc->st.ethtool_requests = pc->et.nrequests;
	ethtool_kernel_close(&pc->ek);
}

/* dcbnl answers DCB_CMD_IEEE_GET for ports whose driver has dcbnl_ops and
 * refuses it (EOPNOTSUPP) for the others. */
static void probe_dcb(struct probe_ctx *pc)
{
	struct dcbnl_msg_ieee *cur = malloc(sizeof(*cur));
	struct plan_dcb have;

	if (!cur)
		return;
	for (size_t i = 0; i < pc->n; i++) {
		struct probe_link *l = &pc->links[i];

		if (!l->found || !probe_link_may_have_dcb(l->kind, l->flags))
			continue;
		if (i &&
		    !strcmp(l->port->ifname, pc->links[i - 1].port->ifname)) {
			l->port->caps.hw_dcb =
			    pc->links[i - 1].port->caps.hw_dcb;
			continue;
		}
		pc->st.dcb_requests++;
		memset(&have, 0, sizeof(have));
		l->port->caps.hw_dcb =
		    dcb_observe(&dcb_ops_netlink, &pc->rt, l->port->ifname, cur,
		                &have) == 0;
	}
	free(cur);
}

int probe_ports(struct compile_port *ports, size_t n, struct probe_stats *st)
{
	struct probe_ctx pc = {.n = n};
	bool dump = n >= PROBE_DUMP_MIN;
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		ports[i].caps.hw_dcb = false;
		ports[i].caps.speed_mbps = 0;
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
	rc = nlb_open(&pc.rt);
	if (rc < 0)
		goto out;
	if (dump) {
		rc = probe_links_ask(&pc, NULL);
	} else {
		for (size_t i = 0; i < n && rc == 0; i++)
			if (!pc.links[i].found)
				rc = probe_links_ask(&pc,
				                     pc.links[i].port->ifname);
	}
	if (rc == 0) {
		probe_dcb(&pc);
		probe_speeds(&pc, dump);
	}
	nlb_close(&pc.rt);
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
	return rc;
}
