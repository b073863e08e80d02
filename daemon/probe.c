/* probe: kernel and port capabilities. See probe.h. */
#include "probe.h"

#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <linux/if_ether.h>

#include <libmnl/libmnl.h>
#include <linux/dcbnl.h>
#include <linux/pkt_cls.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>

struct probe_kind {
	const char *kind;
	uint32_t bit;
};

static const struct probe_kind probe_qdiscs[] = {
    {"ets", CAPS_QD_ETS},       {"prio", CAPS_QD_PRIO},
    {"htb", CAPS_QD_HTB},       {"red", CAPS_QD_RED},
    {"bfifo", CAPS_QD_BFIFO},   {"pfifo", CAPS_QD_PFIFO},
    {"mqprio", CAPS_QD_MQPRIO}, {"tbf", CAPS_QD_TBF},
};

static const struct probe_kind probe_classifiers[] = {
    {"flower", CAPS_CLS_FLOWER},
    {"u32", CAPS_CLS_U32},
    {"bpf", CAPS_CLS_BPF},
    {"matchall", CAPS_CLS_MATCHALL},
};

static const struct probe_kind probe_actions[] = {
    {"skbedit", CAPS_ACT_SKBEDIT},
    {"gact", CAPS_ACT_GACT},
    {"mirred", CAPS_ACT_MIRRED},
};

#define PROBE_N(a) (sizeof(a) / sizeof((a)[0]))

/* Send one request and wait for its ACK. Returns 0 or the kernel's -errno. */
static int probe_request(struct mnl_socket *nl, struct nlmsghdr *nlh)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	uint32_t portid = mnl_socket_get_portid(nl);
	uint32_t seq = nlh->nlmsg_seq;
	ssize_t n;
	int rc;

	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	for (;;) {
		n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (n < 0)
			return -errno;
		rc = mnl_cb_run(buf, (size_t)n, seq, portid, NULL, NULL);
		if (rc <= MNL_CB_STOP)
			return rc < 0 ? -errno : 0;
	}
}

static struct nlmsghdr *probe_tc_msg(char *buf, int type, int flags,
                                     uint32_t seq, int ifindex, uint32_t handle,
                                     uint32_t parent, uint32_t info)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct tcmsg *tcm;

	nlh->nlmsg_type = (uint16_t)type;
	nlh->nlmsg_flags = (uint16_t)(NLM_F_REQUEST | NLM_F_ACK | flags);
	nlh->nlmsg_seq = seq;
	tcm = mnl_nlmsg_put_extra_header(nlh, sizeof(*tcm));
	tcm->tcm_family = AF_UNSPEC;
	tcm->tcm_ifindex = ifindex;
	tcm->tcm_handle = handle;
	tcm->tcm_parent = parent;
	tcm->tcm_info = info;
	return nlh;
}

/* A kind exists unless the kernel says it does not know it (ENOENT). A
 * request that merely lacks options fails with EINVAL and proves the kind
 * is there; one that succeeds is undone by the caller. */
static bool probe_present(int rc)
{
	return rc != -ENOENT;
}

static uint32_t probe_qdisc_kinds(struct mnl_socket *nl, int lo, uint32_t *seq)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	uint32_t found = 0;
	int rc;

	for (size_t i = 0; i < PROBE_N(probe_qdiscs); i++) {
		struct nlmsghdr *nlh = probe_tc_msg(
		    buf, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_EXCL, ++*seq, lo,
		    TC_H_MAKE(1u << 16, 0), TC_H_ROOT, 0);

		mnl_attr_put_strz(nlh, TCA_KIND, probe_qdiscs[i].kind);
		rc = probe_request(nl, nlh);
		if (probe_present(rc))
			found |= probe_qdiscs[i].bit;
		if (rc == 0) {
			nlh = probe_tc_msg(buf, RTM_DELQDISC, 0, ++*seq, lo, 0,
			                   TC_H_ROOT, 0);
			probe_request(nl, nlh);
		}
	}
	/* clsact lives at its own fixed parent. */
	struct nlmsghdr *nlh =
	    probe_tc_msg(buf, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_EXCL, ++*seq,
	                 lo, TC_H_MAKE(TC_H_CLSACT, 0), TC_H_CLSACT, 0);
	mnl_attr_put_strz(nlh, TCA_KIND, "clsact");
	if (probe_request(nl, nlh) == 0)
		found |= CAPS_QD_CLSACT;
	return found;
}

/* Needs the clsact qdisc created by probe_qdisc_kinds. */
static uint32_t probe_classifier_kinds(struct mnl_socket *nl, int lo,
                                       uint32_t *seq)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	uint32_t found = 0;

	for (size_t i = 0; i < PROBE_N(probe_classifiers); i++) {
		uint32_t prio = (uint32_t)(i + 1);
		struct nlmsghdr *nlh = probe_tc_msg(
		    buf, RTM_NEWTFILTER, NLM_F_CREATE | NLM_F_EXCL, ++*seq, lo,
		    0, TC_H_MAKE(TC_H_CLSACT, TC_H_MIN_INGRESS),
		    TC_H_MAKE(prio << 16, htons(ETH_P_ALL)));

		mnl_attr_put_strz(nlh, TCA_KIND, probe_classifiers[i].kind);
		if (probe_present(probe_request(nl, nlh)))
			found |= probe_classifiers[i].bit;
	}
	return found;
}

static uint32_t probe_action_kinds(struct mnl_socket *nl, uint32_t *seq)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	uint32_t found = 0;

	for (size_t i = 0; i < PROBE_N(probe_actions); i++) {
		struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
		struct tcamsg *t;
		struct nlattr *tab, *act;

		nlh->nlmsg_type = RTM_NEWACTION;
		nlh->nlmsg_flags =
		    NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL;
		nlh->nlmsg_seq = ++*seq;
		t = mnl_nlmsg_put_extra_header(nlh, sizeof(*t));
		t->tca_family = AF_UNSPEC;
		tab = mnl_attr_nest_start(nlh, TCA_ACT_TAB);
		act = mnl_attr_nest_start(nlh, 1);
		mnl_attr_put_strz(nlh, TCA_ACT_KIND, probe_actions[i].kind);
		mnl_attr_nest_end(nlh, act);
		mnl_attr_nest_end(nlh, tab);
		if (probe_present(probe_request(nl, nlh)))
			found |= probe_actions[i].bit;
	}
	return found;
}

/* Runs in the child, inside its own network namespace. */
static int probe_child(struct caps *out)
{
	struct mnl_socket *nl;
	uint32_t seq = (uint32_t)time(NULL);
	int lo;

	if (unshare(CLONE_NEWNET) < 0)
		return -errno;
	lo = (int)if_nametoindex("lo");
	if (!lo)
		return -ENODEV;
	nl = mnl_socket_open(NETLINK_ROUTE);
	if (!nl)
		return -errno;
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		int rc = -errno;

		mnl_socket_close(nl);
		return rc;
	}
	out->qdiscs = probe_qdisc_kinds(nl, lo, &seq);
	out->classifiers = (out->qdiscs & CAPS_QD_CLSACT)
	                       ? probe_classifier_kinds(nl, lo, &seq)
	                       : 0;
	out->actions = probe_action_kinds(nl, &seq);
	/* Actions attach to u32 only when the kernel has any to attach. */
	if ((out->classifiers & CAPS_CLS_U32) && (out->actions & CAPS_ACT_GACT))
		out->classifiers |= CAPS_CLS_U32_ACT;
	mnl_socket_close(nl);
	return 0;
}

int probe_kernel(struct caps *c, char *err, size_t errlen)
{
	struct {
		int rc;
		struct caps caps;
	} res = {.rc = -EIO};
	int fds[2], status;
	pid_t pid;
	ssize_t n;

	if (pipe(fds) < 0) {
		snprintf(err, errlen, "probe: pipe: %s", strerror(errno));
		return -errno;
	}
	pid = fork();
	if (pid < 0) {
		int rc = -errno;

		close(fds[0]);
		close(fds[1]);
		snprintf(err, errlen, "probe: fork: %s", strerror(-rc));
		return rc;
	}
	if (pid == 0) {
		close(fds[0]);
		memset(&res.caps, 0, sizeof(res.caps));
		res.rc = probe_child(&res.caps);
		n = write(fds[1], &res, sizeof(res));
		_exit(n == (ssize_t)sizeof(res) ? 0 : 1);
	}
	close(fds[1]);
	do
		n = read(fds[0], &res, sizeof(res));
	while (n < 0 && errno == EINTR);
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (n != (ssize_t)sizeof(res)) {
		snprintf(err, errlen, "probe: the probe process died");
		return -EIO;
	}
	if (res.rc < 0) {
		snprintf(
		    err, errlen,
		    "probe: cannot create a scratch network namespace: %s "
		    "(roced needs CAP_SYS_ADMIN and CAP_NET_ADMIN to probe; "
		    "use --caps host|full|hw to plan without probing)",
		    strerror(-res.rc));
		return res.rc;
	}
	c->qdiscs = res.caps.qdiscs;
	c->classifiers = res.caps.classifiers;
	c->actions = res.caps.actions;
	return 0;
}

/* dcbnl answers DCB_CMD_IEEE_GET for ports whose driver has dcbnl_ops and
 * refuses it (EOPNOTSUPP) for veth, bridges and the like. */
static int probe_port_dcb(int ifindex, const char *ifname, bool *hw)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct mnl_socket *nl;
	struct nlmsghdr *nlh;
	struct dcbmsg *d;
	int rc;

	(void)ifindex;
	nl = mnl_socket_open(NETLINK_ROUTE);
	if (!nl)
		return -errno;
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		rc = -errno;
		goto out;
	}
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_GETDCB;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = (uint32_t)time(NULL);
	d = mnl_nlmsg_put_extra_header(nlh, sizeof(*d));
	d->dcb_family = AF_UNSPEC;
	d->cmd = DCB_CMD_IEEE_GET;
	mnl_attr_put_strz(nlh, DCB_ATTR_IFNAME, ifname);
	/* A successful GET answers with an RTM_GETDCB message (no ACK asked),
	 * a failure with an error message: both end the exchange. */
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
		rc = -errno;
		goto out;
	}
	ssize_t n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
	if (n < 0) {
		rc = -errno;
		goto out;
	}
	rc = mnl_cb_run(buf, (size_t)n, 0, 0, NULL, NULL);
	*hw = rc >= 0;
	rc = 0;
out:
	mnl_socket_close(nl);
	return rc;
}

int probe_port(const char *ifname, struct caps *c)
{
	char path[128], val[32];
	int ifindex = (int)if_nametoindex(ifname);
	FILE *f;

	c->hw_dcb = false;
	c->speed_mbps = 0;
	if (!ifindex)
		return 0;
	if (probe_port_dcb(ifindex, ifname, &c->hw_dcb) < 0)
		c->hw_dcb = false;
	/* sysfs gives -1 (or EINVAL) for links without a speed, like veth. */
	snprintf(path, sizeof(path), "/sys/class/net/%s/speed", ifname);
	f = fopen(path, "re");
	if (f) {
		if (fgets(val, sizeof(val), f)) {
			long v = strtol(val, NULL, 10);

			if (v > 0)
				c->speed_mbps = (uint64_t)v;
		}
		fclose(f);
	}
	return 0;
}
