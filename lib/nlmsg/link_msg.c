/* link_msg: see link_msg.h. */
#include "nlmsg/link_msg.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/socket.h>

#include <libmnl/libmnl.h>
#include <linux/if.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>

/* The header and an ifinfomsg for IFINDEX, in a zeroed LINK_MSG_SIZE:
 * libmnl (1.0.4) leaves the padding after an attribute as it found it. */
static struct nlmsghdr *link_msg_begin(void *buf, size_t size, uint16_t type,
                                       uint16_t flags, uint32_t seq,
                                       int ifindex)
{
	struct nlmsghdr *nlh;
	struct ifinfomsg *ifi;

	if (size < LINK_MSG_SIZE)
		return NULL;
	memset(buf, 0, LINK_MSG_SIZE);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = (uint16_t)(NLM_F_REQUEST | NLM_F_ACK | flags);
	nlh->nlmsg_seq = seq;
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = ifindex;
	return nlh;
}

static bool link_msg_name_ok(const char *name)
{
	size_t len = name ? strlen(name) : 0;

	return len > 0 && len < IFNAMSIZ;
}

/* ip's nests carry no NLA_F_NESTED flag; libmnl's do. */
static struct nlattr *link_msg_nest(struct nlmsghdr *nlh, uint16_t type)
{
	struct nlattr *a = mnl_attr_nest_start(nlh, type);

	a->nla_type = type;
	return a;
}

int link_msg_mtu(void *buf, size_t size, uint32_t seq, int ifindex,
                 uint32_t mtu)
{
	struct nlmsghdr *nlh =
	    link_msg_begin(buf, size, RTM_NEWLINK, 0, seq, ifindex);

	if (!nlh)
		return -EMSGSIZE;
	mnl_attr_put_u32(nlh, IFLA_MTU, mtu);
	return 0;
}

int link_msg_veth_add(void *buf, size_t size, uint32_t seq, const char *name,
                      const char *peer)
{
	struct nlmsghdr *nlh;
	struct nlattr *info, *data, *pa;

	if (!link_msg_name_ok(name) || !link_msg_name_ok(peer))
		return -EINVAL;
	nlh = link_msg_begin(buf, size, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL,
	                     seq, 0);
	if (!nlh)
		return -EMSGSIZE;
	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	info = link_msg_nest(nlh, IFLA_LINKINFO);
	/* ip sends the kind without its NUL */
	mnl_attr_put_str(nlh, IFLA_INFO_KIND, "veth");
	data = link_msg_nest(nlh, IFLA_INFO_DATA);
	/* VETH_INFO_PEER holds an ifinfomsg, then the peer's attributes. */
	pa = link_msg_nest(nlh, VETH_INFO_PEER);
	mnl_nlmsg_put_extra_header(nlh, sizeof(struct ifinfomsg));
	mnl_attr_put_strz(nlh, IFLA_IFNAME, peer);
	mnl_attr_nest_end(nlh, pa);
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, info);
	return 0;
}

int link_msg_del(void *buf, size_t size, uint32_t seq, int ifindex)
{
	return link_msg_begin(buf, size, RTM_DELLINK, 0, seq, ifindex)
	           ? 0
	           : -EMSGSIZE;
}
