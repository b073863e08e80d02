/* probe: kernel and port capabilities. See probe.h. */
#include "kernel/probe.h"

#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <linux/if_ether.h>

#include <libmnl/libmnl.h>
#include <linux/dcbnl.h>
#include <linux/if_link.h>
#include <linux/pkt_cls.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>

#include "nlmsg/link_msg.h"

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

/* Room for any request the probe builds: a header, a tcmsg or tcamsg and a
 * kind of at most 16 bytes. */
#define PROBE_MSG_SIZE 128

/* A zeroed request: libmnl (1.0.4) leaves the padding after an attribute
 * (TCA_KIND's string) as it found it, and the kernel gets every byte. */
static struct nlmsghdr *probe_msg_start(char *buf)
{
	memset(buf, 0, PROBE_MSG_SIZE);
	return mnl_nlmsg_put_header(buf);
}

static struct nlmsghdr *probe_tc_msg(char *buf, int type, int flags,
                                     uint32_t seq, int ifindex, uint32_t handle,
                                     uint32_t parent, uint32_t info)
{
	struct nlmsghdr *nlh = probe_msg_start(buf);
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
	char buf[PROBE_MSG_SIZE] __attribute__((aligned(4)));
	uint32_t found = 0;
	int rc;

	/* Every kind of model/caps.h's table but clsact (below). */
	for (unsigned k = 0; k < CAPS_QDISC_MAX; k++) {
		struct nlmsghdr *nlh;

		if (k == CAPS_QDISC_CLSACT)
			continue;
		nlh = probe_tc_msg(buf, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_EXCL,
		                   ++*seq, lo, TC_H_MAKE(1u << 16, 0),
		                   TC_H_ROOT, 0);
		mnl_attr_put_strz(nlh, TCA_KIND,
		                  caps_qdisc_name((enum caps_qdisc)k));
		rc = probe_request(nl, nlh);
		if (probe_present(rc))
			found |= 1u << k;
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
	mnl_attr_put_strz(nlh, TCA_KIND, caps_qdisc_name(CAPS_QDISC_CLSACT));
	if (probe_request(nl, nlh) == 0)
		found |= CAPS_QD_CLSACT;
	return found;
}

/* Needs the clsact qdisc created by probe_qdisc_kinds. */
static uint32_t probe_classifier_kinds(struct mnl_socket *nl, int lo,
                                       uint32_t *seq)
{
	char buf[PROBE_MSG_SIZE] __attribute__((aligned(4)));
	uint32_t found = 0;

	for (unsigned k = 0; k < CAPS_CLASSIFIER_MAX; k++) {
		uint32_t prio = k + 1;
		struct nlmsghdr *nlh = probe_tc_msg(
		    buf, RTM_NEWTFILTER, NLM_F_CREATE | NLM_F_EXCL, ++*seq, lo,
		    0, TC_H_MAKE(TC_H_CLSACT, TC_H_MIN_INGRESS),
		    TC_H_MAKE(prio << 16, htons(ETH_P_ALL)));

		mnl_attr_put_strz(
		    nlh, TCA_KIND,
		    caps_classifier_name((enum caps_classifier)k));
		if (probe_present(probe_request(nl, nlh)))
			found |= 1u << k;
	}
	return found;
}

static uint32_t probe_action_kinds(struct mnl_socket *nl, uint32_t *seq)
{
	char buf[PROBE_MSG_SIZE] __attribute__((aligned(4)));
	uint32_t found = 0;

	for (unsigned k = 0; k < CAPS_ACTION_MAX; k++) {
		struct nlmsghdr *nlh = probe_msg_start(buf);
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
		mnl_attr_put_strz(nlh, TCA_ACT_KIND,
		                  caps_action_name((enum caps_action)k));
		mnl_attr_nest_end(nlh, act);
		mnl_attr_nest_end(nlh, tab);
		if (probe_present(probe_request(nl, nlh)))
			found |= 1u << k;
	}
	return found;
}

/* The scratch device when the probe cannot have a namespace of its own:
 * a veth pair with names of our own, in the caller's namespace. veth and
 * not dummy: loading the dummy module creates dummy0 in the host's
 * namespace, a side effect that would outlive the probe. */
struct probe_scratch {
	char name[IFNAMSIZ];
	char peer[IFNAMSIZ];
};

/* What the child reports, in memory shared with the parent. */
struct probe_result {
	int rc;
	bool done;    /* the child got to the end */
	bool scratch; /* it fell back to a scratch veth pair */
	struct probe_scratch s;
	struct caps caps;
};

static void probe_scratch_name(struct probe_scratch *s, unsigned attempt)
{
	struct timespec ts;
	uint32_t r;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	r = ((uint32_t)getpid() * 2654435761u) ^ (uint32_t)ts.tv_nsec ^
	    (attempt * 40503u);
	r &= 0xffffff;
	snprintf(s->name, sizeof(s->name), "roced-p%06x", (unsigned)r);
	snprintf(s->peer, sizeof(s->peer), "roced-p%06x-b", (unsigned)r);
}

static int probe_link_add(struct mnl_socket *nl, const struct probe_scratch *s,
                          uint32_t *seq)
{
	char buf[LINK_MSG_SIZE] __attribute__((aligned(4)));
	int rc = link_msg_veth_add(buf, sizeof(buf), ++*seq, s->name, s->peer);

	return rc < 0 ? rc : probe_request(nl, (struct nlmsghdr *)buf);
}

/* Deleting one end of a veth pair deletes both. */
static int probe_link_del(struct mnl_socket *nl, int ifindex, uint32_t *seq)
{
	char buf[LINK_MSG_SIZE] __attribute__((aligned(4)));
	int rc = link_msg_del(buf, sizeof(buf), ++*seq, ifindex);

	return rc < 0 ? rc : probe_request(nl, (struct nlmsghdr *)buf);
}

static struct mnl_socket *probe_open(int *rc)
{
	struct mnl_socket *nl = mnl_socket_open(NETLINK_ROUTE);

	if (!nl) {
		*rc = -errno;
		return NULL;
	}
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		*rc = -errno;
		mnl_socket_close(nl);
		return NULL;
	}
	return nl;
}

/* Create the scratch pair under a fresh name, retrying on a clash.
 * Returns the first device's ifindex or -errno. */
static int probe_scratch_add(struct mnl_socket *nl, struct probe_scratch *s,
                             uint32_t *seq)
{
	int rc = -EEXIST;

	for (unsigned attempt = 0; attempt < 8 && rc == -EEXIST; attempt++) {
		probe_scratch_name(s, attempt);
		rc = probe_link_add(nl, s, seq);
		/* The name belongs to someone else: never reap it. */
		if (rc == -EEXIST)
			s->name[0] = '\0';
	}
	if (rc < 0)
		return rc;
	rc = (int)if_nametoindex(s->name);
	return rc ? rc : -ENODEV;
}

/* Runs in the child. Best: a private network namespace, where the probe
 * works on a loopback device nobody else sees. Without CAP_SYS_ADMIN (a
 * systemd unit that grants only CAP_NET_ADMIN and CAP_NET_RAW, or a
 * seccomp filter refusing namespaces) it falls back to a scratch veth pair
 * in the caller's namespace, which needs CAP_NET_ADMIN only: the user's
 * ports are still never touched, but the pair is visible to link monitors
 * for the few milliseconds the probe takes. */
static int probe_child(struct probe_result *res)
{
	struct caps *out = &res->caps;
	struct mnl_socket *nl;
	uint32_t seq = (uint32_t)time(NULL);
	int dev, rc;

	/* Not root (`roced -n`, `--dry-run` by any user): a user namespace
	 * of its own gives the child CAP_NET_ADMIN over a network namespace
	 * of its own, and nothing else, where unprivileged user namespaces
	 * are allowed (Debian's default). */
	res->scratch =
	    unshare(CLONE_NEWNET) < 0 &&
	    (geteuid() == 0 || unshare(CLONE_NEWUSER | CLONE_NEWNET) < 0);
	nl = probe_open(&rc);
	if (!nl)
		return rc;
	if (res->scratch) {
		dev = probe_scratch_add(nl, &res->s, &seq);
		if (dev < 0) {
			mnl_socket_close(nl);
			return dev;
		}
	} else {
		dev = (int)if_nametoindex("lo");
		if (!dev) {
			mnl_socket_close(nl);
			return -ENODEV;
		}
	}
	out->qdiscs = probe_qdisc_kinds(nl, dev, &seq);
	out->classifiers = (out->qdiscs & CAPS_QD_CLSACT)
	                       ? probe_classifier_kinds(nl, dev, &seq)
	                       : 0;
	out->actions = probe_action_kinds(nl, &seq);
	/* Actions attach to u32 only when the kernel has any to attach. */
	if ((out->classifiers & CAPS_CLS_U32) && (out->actions & CAPS_ACT_GACT))
		out->classifiers |= CAPS_CLS_U32_ACT;
	rc = 0;
	if (res->scratch)
		rc = probe_link_del(nl, dev, &seq);
	mnl_socket_close(nl);
	return rc;
}

/* The child died half-way: remove its scratch pair if it made one. */
static void probe_scratch_reap(const struct probe_scratch *s)
{
	struct mnl_socket *nl;
	uint32_t seq = (uint32_t)time(NULL);
	int ifindex = s->name[0] ? (int)if_nametoindex(s->name) : 0;
	int rc;

	if (!ifindex)
		return;
	nl = probe_open(&rc);
	if (!nl)
		return;
	probe_link_del(nl, ifindex, &seq);
	mnl_socket_close(nl);
}

int probe_kernel(struct caps *c, char *err, size_t errlen)
{
	struct probe_result *res;
	int status, rc;
	pid_t pid;

	/* Shared with the child, so that the parent learns the scratch pair's
	 * name even when the child dies before it can report. */
	res = mmap(NULL, sizeof(*res), PROT_READ | PROT_WRITE,
	           MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (res == MAP_FAILED) {
		rc = -errno;
		snprintf(err, errlen, "probe: mmap: %s", strerror(-rc));
		return rc;
	}
	memset(res, 0, sizeof(*res));
	res->rc = -EIO;
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		munmap(res, sizeof(*res));
		snprintf(err, errlen, "probe: fork: %s", strerror(-rc));
		return rc;
	}
	if (pid == 0) {
		res->rc = probe_child(res);
		res->done = true;
		_exit(0);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!res->done) {
		probe_scratch_reap(&res->s);
		snprintf(err, errlen, "probe: the probe process died");
		rc = -EIO;
	} else if (res->rc < 0 && res->scratch) {
		snprintf(
		    err, errlen,
		    "probe: cannot create a scratch network namespace "
		    "nor a scratch veth pair: %s (roced needs CAP_NET_ADMIN "
		    "to probe; use --caps host|full|hw to plan without "
		    "probing)",
		    strerror(-res->rc));
		rc = res->rc;
	} else if (res->rc < 0) {
		snprintf(err, errlen, "probe: %s", strerror(-res->rc));
		rc = res->rc;
	} else {
		c->qdiscs = res->caps.qdiscs;
		c->classifiers = res->caps.classifiers;
		c->actions = res->caps.actions;
		rc = 0;
	}
	munmap(res, sizeof(*res));
	return rc;
}
