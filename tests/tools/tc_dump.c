/* tc_dump: print the kernel's dump of a device's qdiscs, classes or
 * filters, one netlink message per line in hex, exactly as received.
 *
 *   tc_dump qdisc|class|filter DEV [PARENT]
 *
 * PARENT (hex major:minor, "ingress", "egress" or "root") selects the
 * filter block. Only messages about DEV are printed (the kernel answers a
 * qdisc dump for every device). Used by capture-tc-fixtures.sh to record
 * decoder fixtures; the request comes from lib/nlmsg/tc_msg.c's tc_msg_dump().
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>

#include "nlmsg/tc_msg.h"

static int tc_dump_parent(const char *s, uint32_t *parent)
{
	unsigned long maj, min = 0;
	char *end;

	if (!strcmp(s, "ingress")) {
		*parent = PLAN_H_CLSACT_INGRESS;
		return 0;
	}
	if (!strcmp(s, "egress")) {
		*parent = PLAN_H_CLSACT_EGRESS;
		return 0;
	}
	if (!strcmp(s, "root")) {
		*parent = 0;
		return 0;
	}
	maj = strtoul(s, &end, 16);
	if (*end != ':' || maj > 0xffff)
		return -1;
	if (end[1]) {
		min = strtoul(end + 1, &end, 16);
		if (*end || min > 0xffff)
			return -1;
	}
	*parent = PLAN_H_MAKE(maj, min);
	return 0;
}

static void tc_dump_print(const struct nlmsghdr *nlh)
{
	const uint8_t *p = (const uint8_t *)nlh;

	for (uint32_t i = 0; i < nlh->nlmsg_len; i++)
		printf("%02x", p[i]);
	putchar('\n');
}

int main(int argc, char **argv)
{
	static uint8_t buf[1 << 16] __attribute__((aligned(4)));
	enum tc_msg_obj obj;
	struct mnl_socket *nl;
	uint32_t parent = 0, seq = (uint32_t)time(NULL), portid;
	int ifindex, err, done = 0, rc = 1;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: %s qdisc|class|filter DEV [PARENT]\n",
		        argv[0]);
		return 2;
	}
	if (!strcmp(argv[1], "qdisc"))
		obj = TC_MSG_QDISC;
	else if (!strcmp(argv[1], "class"))
		obj = TC_MSG_CLASS;
	else if (!strcmp(argv[1], "filter"))
		obj = TC_MSG_FILTER;
	else {
		fprintf(stderr, "%s: unknown object '%s'\n", argv[0], argv[1]);
		return 2;
	}
	ifindex = (int)if_nametoindex(argv[2]);
	if (!ifindex) {
		fprintf(stderr, "%s: %s: %s\n", argv[0], argv[2],
		        strerror(errno));
		return 1;
	}
	if (argc == 4 && tc_dump_parent(argv[3], &parent)) {
		fprintf(stderr, "%s: bad parent '%s'\n", argv[0], argv[3]);
		return 2;
	}
	err = tc_msg_dump(buf, sizeof(buf), obj, ifindex, parent, seq);
	if (err) {
		fprintf(stderr, "%s: encode: %s\n", argv[0], strerror(-err));
		return 1;
	}
	nl = mnl_socket_open(NETLINK_ROUTE);
	if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		perror("netlink");
		return 1;
	}
	portid = mnl_socket_get_portid(nl);
	if (mnl_socket_sendto(nl, buf, ((struct nlmsghdr *)buf)->nlmsg_len) <
	    0) {
		perror("send");
		goto out;
	}
	while (!done) {
		ssize_t n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		const struct nlmsghdr *nlh = (const struct nlmsghdr *)buf;
		int left = (int)n;

		if (n < 0) {
			perror("recv");
			goto out;
		}
		for (; mnl_nlmsg_ok(nlh, left);
		     nlh = mnl_nlmsg_next(nlh, &left)) {
			const struct tcmsg *tcm;

			if (nlh->nlmsg_seq != seq || nlh->nlmsg_pid != portid)
				continue;
			if (nlh->nlmsg_type == NLMSG_DONE) {
				done = 1;
				break;
			}
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e =
				    mnl_nlmsg_get_payload(nlh);

				fprintf(stderr, "%s: kernel: %s\n", argv[0],
				        strerror(-e->error));
				goto out;
			}
			tcm = mnl_nlmsg_get_payload(nlh);
			if (tcm->tcm_ifindex == ifindex)
				tc_dump_print(nlh);
		}
	}
	rc = 0;
out:
	mnl_socket_close(nl);
	return rc;
}
