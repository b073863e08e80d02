/* bpfhold_loop: the hold's loop, a veth pair of roced's beside a port
 * (see bpfhold.h): its first end has an fq root that keeps each packet
 * until its departure time, its second end hands the packet back to the
 * port's egress, where pfc_tx looks at the pause again. Created and
 * deleted over rtnetlink, in the namespace roced runs in. */
#include "kernel/bpfhold_loop.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/if.h>
#include <linux/gen_stats.h>
#include <linux/if_link.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>

/* One request, answered by an ACK (or by a reply CB reads): 0 or
 * -errno. */
static int loop_talk_cb(struct nlmsghdr *nlh, mnl_cb_t cb, void *data)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct mnl_socket *nl = mnl_socket_open(NETLINK_ROUTE);
	unsigned portid;
	int rc;

	if (!nl)
		return -errno;
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		rc = -errno;
		goto out;
	}
	portid = mnl_socket_get_portid(nl);
	nlh->nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = (uint32_t)time(NULL);
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
		rc = -errno;
		goto out;
	}
	do {
		rc = (int)mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (rc < 0) {
			rc = -errno;
			goto out;
		}
		rc = mnl_cb_run(buf, (size_t)rc, nlh->nlmsg_seq, portid, cb,
		                data);
	} while (rc > 0 && cb);
	rc = rc < 0 ? -errno : 0;
out:
	mnl_socket_close(nl);
	return rc;
}

static int loop_talk(struct nlmsghdr *nlh)
{
	return loop_talk_cb(nlh, NULL, NULL);
}

void bpfhold_loop_names(int port_ifindex, char a[IFNAMSIZ], char b[IFNAMSIZ])
{
	snprintf(a, IFNAMSIZ, "rocedh%da", port_ifindex);
	snprintf(b, IFNAMSIZ, "rocedh%db", port_ifindex);
}

void bpfhold_loop_ifindexes(int port_ifindex, __u32 *a, __u32 *b)
{
	char na[IFNAMSIZ], nb[IFNAMSIZ];

	bpfhold_loop_names(port_ifindex, na, nb);
	*a = if_nametoindex(na);
	*b = if_nametoindex(nb);
}

/* Write "1" into DIR/IFNAME/LEAF, best effort: a kernel without the
 * setting leaves the loop working without it. */
static void loop_set_one(const char *dir, const char *ifname, const char *leaf)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "%s/%s/%s", dir, ifname, leaf);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (write(fd, "1", 1) < 0) {
		/* left as it was */
	}
	close(fd);
}

/* No IPv6 on the loop's ends: nothing but the held packets may travel
 * it (a router solicitation would be handed to the port); where it
 * stays, pfc_loop drops what is not held. */
static void loop_no_ipv6(const char *ifname)
{
	loop_set_one("/proc/sys/net/ipv6/conf", ifname, "disable_ipv6");
}

/* Every packet that comes back through B goes to CPU 0's input backlog
 * (RPS, bitmask 1). A veth hands what it sends to the backlog of the CPU
 * sending it, and fq's queue is drained by whichever CPU runs it, the
 * writer's as it sends or another when fq's timer fires: one flow's
 * held packets then come back through two backlogs, and out of order.
 * Without RPS (or sysfs) the loop keeps working, with that risk. */
static void loop_one_cpu(const char *ifname)
{
	loop_set_one("/sys/class/net", ifname, "queues/rx-0/rps_cpus");
}

static int loop_up(const char *ifname)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ifinfomsg *ifi;

	nlh->nlmsg_type = RTM_NEWLINK;
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_index = (int)if_nametoindex(ifname);
	if (!ifi->ifi_index)
		return -ENODEV;
	ifi->ifi_flags = IFF_UP | IFF_NOARP;
	ifi->ifi_change = IFF_UP | IFF_NOARP;
	return loop_talk(nlh);
}

/* fq at A's root: no packet dropped for its departure time (the horizon
 * caps it instead), nor for the number held in one flow. */
static int loop_fq(int ifindex)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct tcmsg *tcm;
	struct nlattr *opt;

	nlh->nlmsg_type = RTM_NEWQDISC;
	nlh->nlmsg_flags = NLM_F_CREATE | NLM_F_REPLACE;
	tcm = mnl_nlmsg_put_extra_header(nlh, sizeof(*tcm));
	tcm->tcm_family = AF_UNSPEC;
	tcm->tcm_ifindex = ifindex;
	tcm->tcm_parent = TC_H_ROOT;
	tcm->tcm_handle = 0x47520000;
	mnl_attr_put_strz(nlh, TCA_KIND, "fq");
	opt = mnl_attr_nest_start(nlh, TCA_OPTIONS);
	mnl_attr_put_u32(nlh, TCA_FQ_PLIMIT, BPFHOLD_LOOP_LIMIT);
	mnl_attr_put_u32(nlh, TCA_FQ_FLOW_PLIMIT, BPFHOLD_LOOP_LIMIT);
	/* in us: the longest pause, 65535 quanta at 10 Mb/s, is 3.4 s */
	mnl_attr_put_u32(nlh, TCA_FQ_HORIZON, 10u * 1000 * 1000);
	mnl_attr_put_u8(nlh, TCA_FQ_HORIZON_DROP, 0);
	mnl_attr_nest_end(nlh, opt);
	return loop_talk(nlh);
}

int bpfhold_loop_create(int port_ifindex, int *a_ifindex, int *b_ifindex)
{
	char buf[MNL_SOCKET_BUFFER_SIZE], a[IFNAMSIZ], b[IFNAMSIZ];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ifinfomsg *ifi;
	struct nlattr *li, *data, *peer;
	int rc;

	bpfhold_loop_names(port_ifindex, a, b);
	/* one left by a roced that died goes first: its state is unknown */
	bpfhold_loop_delete(port_ifindex);
	nlh->nlmsg_type = RTM_NEWLINK;
	nlh->nlmsg_flags = NLM_F_CREATE | NLM_F_EXCL;
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	mnl_attr_put_strz(nlh, IFLA_IFNAME, a);
	mnl_attr_put_u32(nlh, IFLA_MTU, BPFHOLD_LOOP_MTU);
	li = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "veth");
	data = mnl_attr_nest_start(nlh, IFLA_INFO_DATA);
	peer = mnl_attr_nest_start(nlh, VETH_INFO_PEER);
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	mnl_attr_put_strz(nlh, IFLA_IFNAME, b);
	mnl_attr_put_u32(nlh, IFLA_MTU, BPFHOLD_LOOP_MTU);
	mnl_attr_nest_end(nlh, peer);
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, li);
	rc = loop_talk(nlh);
	if (rc)
		return rc;
	loop_no_ipv6(a);
	loop_no_ipv6(b);
	loop_one_cpu(b);
	*a_ifindex = (int)if_nametoindex(a);
	*b_ifindex = (int)if_nametoindex(b);
	if (!*a_ifindex || !*b_ifindex)
		rc = -ENODEV;
	if (!rc)
		rc = loop_up(a);
	if (!rc)
		rc = loop_up(b);
	if (!rc)
		rc = loop_fq(*a_ifindex);
	if (rc)
		bpfhold_loop_delete(port_ifindex);
	return rc;
}

/* A qdisc of the dump: its queue length into *DATA when it is the root. */
static int loop_qlen_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct tcmsg *tcm = mnl_nlmsg_get_payload(nlh);
	struct nlattr *a, *b;

	if (tcm->tcm_parent != TC_H_ROOT)
		return MNL_CB_OK;
	mnl_attr_for_each(a, nlh, sizeof(*tcm))
	{
		if (mnl_attr_get_type(a) != TCA_STATS2)
			continue;
		mnl_attr_for_each_nested(b, a)
		{
			struct gnet_stats_queue q;

			if (mnl_attr_get_type(b) != TCA_STATS_QUEUE ||
			    mnl_attr_get_payload_len(b) < sizeof(q))
				continue;
			memcpy(&q, mnl_attr_get_payload(b), sizeof(q));
			*(long *)data = (long)q.qlen;
		}
	}
	return MNL_CB_OK;
}

long bpfhold_loop_qlen(int port_ifindex)
{
	char buf[MNL_SOCKET_BUFFER_SIZE], a[IFNAMSIZ], b[IFNAMSIZ];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct tcmsg *tcm;
	long qlen = -1;
	int rc;

	bpfhold_loop_names(port_ifindex, a, b);
	nlh->nlmsg_type = RTM_GETQDISC;
	nlh->nlmsg_flags = NLM_F_DUMP;
	tcm = mnl_nlmsg_put_extra_header(nlh, sizeof(*tcm));
	tcm->tcm_family = AF_UNSPEC;
	tcm->tcm_ifindex = (int)if_nametoindex(a);
	if (!tcm->tcm_ifindex)
		return -ENOENT;
	rc = loop_talk_cb(nlh, loop_qlen_cb, &qlen);
	return rc < 0 ? rc : qlen;
}

int bpfhold_loop_delete(int port_ifindex)
{
	char buf[MNL_SOCKET_BUFFER_SIZE], a[IFNAMSIZ], b[IFNAMSIZ];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ifinfomsg *ifi;

	bpfhold_loop_names(port_ifindex, a, b);
	nlh->nlmsg_type = RTM_DELLINK;
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = (int)if_nametoindex(a);
	if (!ifi->ifi_index)
		return -ENOENT;
	/* deleting one end of a veth deletes both */
	return loop_talk(nlh);
}
