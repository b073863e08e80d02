/* agent_rig: a bridge of fake software ports for the transmit side's
 * tests (test_txpoll, test_lpsend): the shipped policy on every port,
 * compiled for this machine's kernel and "applied"; fake frame sockets
 * that capture what is sent; a fake kernel answering the sampler's qdisc
 * and class dumps with the backlogs the test sets; fake per-ingress
 * counters and forwarding database. Header-only: each test includes it
 * once. */
#ifndef ROCED_AGENT_RIG_H
#define ROCED_AGENT_RIG_H

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <libmnl/libmnl.h>
#include <linux/gen_stats.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include "agent/contrib.h"
#include "agent/frame.h"
#include "agent/qstats.h"
#include "agent/softpfc.h"
#include "conf/conf.h"
#include "registry/ports.h"
#include "kernel/reconcile.h"
#include "model/plan.h"
#include "plan/classify.h"
#include "proto/pfc_frame.h"

#define RIG_PORTS  4
#define RIG_MASTER 100
#define RIG_SENT   512

/* Port i is swp<i+1>, ifindex 11 + i, MAC 02:00:00:00:00:<i+1>; its
 * host's MAC is 02:00:00:00:01:<i+1>. */
struct rig_sent {
	int ifindex;
	struct pfc_frame f;
};

struct rig {
	struct policy p;
	struct ports r;
	struct frames f;
	struct softpfc sp;
	struct qstats qs;
	struct contrib ct;
	/* the fake kernel */
	uint32_t backlog[RIG_PORTS][POLICY_NQUEUES];
	uint64_t packets[RIG_PORTS][POLICY_NQUEUES];
	unsigned qdisc_dumps, class_dumps;
	/* the fake counters: frames in from port i to host j in queue 3 */
	uint64_t to[RIG_PORTS][RIG_PORTS];
	int ct_open_err;   /* what open says (0: it counts) */
	unsigned ct_reads; /* reads of the counters */
	/* Routed (the ports in no bridge): frames from port i go to port
	 * i's own MAC (the router's) and to IPv4 DST[j] (host order; 0:
	 * 10.0.<j+1>.2, the host behind port j). */
	bool routed;
	uint32_t dst[RIG_PORTS];
	/* Routed frames from every port go to swp1's MAC (an SVI's: the
	 * bridge takes its first port's address), not to their own port's. */
	bool svi_mac;
	/* what went out */
	struct rig_sent sent[RIG_SENT];
	size_t nsent;
	double now;
};

static struct rig *rig_g; /* the fakes' rig (one at a time) */

static const char *rig_name(unsigned i)
{
	static const char *n[RIG_PORTS] = {"swp1", "swp2", "swp3", "swp4"};

	return n[i];
}

static int rig_master(const char *ifname)
{
	(void)ifname;
	return RIG_MASTER;
}

/* --- fake frame sockets: fd = 100 + ifindex --- */

static int rig_open(void *impl, int ifindex)
{
	(void)impl;
	return 100 + ifindex;
}

static void rig_close(void *impl, int fd)
{
	(void)impl;
	(void)fd;
}

static ssize_t rig_recv(void *impl, int fd, uint8_t *buf, size_t len,
                        double *at)
{
	(void)impl;
	(void)fd;
	(void)buf;
	(void)len;
	(void)at;
	return -EAGAIN;
}

static int rig_send(void *impl, int fd, int ifindex, const uint8_t *buf,
                    size_t len)
{
	struct rig *g = impl;

	(void)fd;
	assert_true(g->nsent < RIG_SENT);
	g->sent[g->nsent].ifindex = ifindex;
	assert_int_equal(
	    pfc_frame_decode(buf, len, &g->sent[g->nsent].f, NULL, 0), 0);
	g->nsent++;
	return 0;
}

static const struct frame_ops rig_frame_ops = {
    .open = rig_open,
    .close = rig_close,
    .recv = rig_recv,
    .send = rig_send,
};

/* --- the fake kernel's dumps --- */

static int rig_put(mnl_cb_t cb, void *data, uint16_t type, int ifindex,
                   uint32_t handle, uint32_t backlog, uint64_t packets)
{
	char buf[512] __attribute__((aligned(4)));
	struct nlmsghdr *nlh;
	struct tcmsg *tcm;
	struct nlattr *nest;
	struct gnet_stats_basic b = {.bytes = packets * 1000,
	                             .packets = (uint32_t)packets};
	struct gnet_stats_queue q = {.qlen = backlog / 1000,
	                             .backlog = backlog};

	memset(buf, 0, sizeof(buf));
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_MULTI;
	tcm = mnl_nlmsg_put_extra_header(nlh, sizeof(*tcm));
	tcm->tcm_family = AF_UNSPEC;
	tcm->tcm_ifindex = ifindex;
	tcm->tcm_handle = handle;
	mnl_attr_put_strz(nlh, TCA_KIND, type == RTM_NEWQDISC ? "tbf" : "htb");
	nest = mnl_attr_nest_start(nlh, TCA_STATS2);
	mnl_attr_put(nlh, TCA_STATS_BASIC, sizeof(b), &b);
	mnl_attr_put(nlh, TCA_STATS_QUEUE, sizeof(q), &q);
	mnl_attr_nest_end(nlh, nest);
	return cb(nlh, data) == MNL_CB_ERROR ? -EINVAL : 0;
}

static int rig_dump(void *arg, struct nlmsghdr *req, mnl_cb_t cb, void *data)
{
	struct rig *g = arg;
	const struct tcmsg *t = mnl_nlmsg_get_payload(req);

	if (req->nlmsg_type == RTM_GETQDISC) {
		g->qdisc_dumps++;
		/* every port's leaves, and something that is not roced's */
		rig_put(cb, data, RTM_NEWQDISC, 1, PLAN_H_MAKE(0x8001, 0), 0,
		        7);
		for (unsigned i = 0; i < RIG_PORTS; i++)
			for (unsigned q = 0; q < POLICY_NQUEUES; q++)
				rig_put(cb, data, RTM_NEWQDISC, 11 + (int)i,
				        PLAN_H_MAKE(PLAN_LEAF_MAJOR(q), 0),
				        g->backlog[i][q], g->packets[i][q]);
		return 0;
	}
	assert_int_equal(req->nlmsg_type, RTM_GETTCLASS);
	g->class_dumps++;
	/* the kernel filters a class dump on the port */
	assert_true(t->tcm_ifindex >= 11 && t->tcm_ifindex < 11 + RIG_PORTS);
	for (unsigned q = 0; q < POLICY_NQUEUES; q++) {
		unsigned i = (unsigned)t->tcm_ifindex - 11;

		rig_put(cb, data, RTM_NEWTCLASS, t->tcm_ifindex,
		        PLAN_H_MAKE(PLAN_ROOT_MAJOR, PLAN_HTB_QUEUE_MINOR(q)),
		        g->backlog[i][q], g->packets[i][q]);
	}
	return 0;
}

/* --- the fake per-ingress counters --- */

static int rig_ct_open(void *impl, void **state)
{
	struct rig *g = impl;

	*state = g;
	return g->ct_open_err;
}

static void rig_ct_close(void *impl, void *state)
{
	(void)impl;
	(void)state;
}

static int rig_ct_read(void *impl, void *state, contrib_entry_fn cb, void *arg)
{
	struct rig *g = impl;

	(void)state;
	g->ct_reads++;
	for (unsigned i = 0; i < RIG_PORTS; i++)
		for (unsigned j = 0; j < RIG_PORTS; j++) {
			struct contrib_entry e = {
			    .ifindex = 11 + (int)i,
			    .mac = {2, 0, 0, 0, 1, (uint8_t)(j + 1)},
			    .pcp = CLASSIFY_UNTAGGED,
			    .dscp = 26,
			    .packets = g->to[i][j],
			};

			if (g->routed) {
				e.mac[4] = 0;
				e.mac[5] = g->svi_mac ? 1 : (uint8_t)(i + 1);
				e.family = AF_INET;
				e.daddr = route_ip4(
				    g->dst[j]
				        ? g->dst[j]
				        : 0x0a000002u | (uint32_t)(j + 1) << 8);
			}
			if (e.packets)
				cb(arg, &e);
		}
	return 0;
}

static int rig_ct_fdb(void *impl, contrib_fdb_fn cb, void *arg)
{
	(void)impl;
	for (unsigned j = 0; j < RIG_PORTS; j++) {
		struct contrib_fdb e = {
		    .mac = {2, 0, 0, 0, 1, (uint8_t)(j + 1)},
		    .port = 11 + (int)j,
		    .master = RIG_MASTER,
		};

		cb(arg, &e);
		/* The port's own address, local to the bridge, as the
		 * kernel lists it. */
		e.mac[4] = 0;
		e.local = true;
		cb(arg, &e);
	}
	return 0;
}

static const struct contrib_ops rig_ct_ops = {
    .open = rig_ct_open,
    .close = rig_ct_close,
    .read = rig_ct_read,
    .fdb = rig_ct_fdb,
};

static void rig_softpfc_changed(void *arg, const char *ifname, uint8_t held,
                                bool lp)
{
	(void)arg;
	(void)ifname;
	(void)held;
	(void)lp;
}

/* The shipped policy on RIG_PORTS ports, its RoCE class on DSCP 26
 * alone (untagged traffic), with EDIT applied to each interface block
 * (NULL: none); compiled for this machine's kernel and applied. */
static void rig_init(struct rig *g, void (*edit)(struct policy_iface *f))
{
	struct reconcile_result res[RIG_PORTS];
	struct diag d;
	struct caps caps;
	struct plan pl;
	struct policy_iface *nf;

	memset(g, 0, sizeof(*g));
	rig_g = g;
	diag_init(&d, NULL);
	assert_int_equal(
	    conf_load_file(TEST_SRCDIR "/conf/roced.conf", &g->p, &d), 0);
	diag_free(&d);
	assert_int_equal(g->p.nifaces, 1);
	nf = realloc(g->p.ifaces, RIG_PORTS * sizeof(*nf));
	assert_non_null(nf);
	g->p.ifaces = nf;
	for (unsigned i = 0; i < RIG_PORTS; i++) {
		nf[i] = nf[0];
		snprintf(nf[i].name, sizeof(nf[i].name), "%s", rig_name(i));
		if (edit)
			edit(&nf[i]);
	}
	g->p.nifaces = RIG_PORTS;
	for (size_t i = 0; i < g->p.nclass_qos; i++)
		if (!strcmp(g->p.class_qos[i].name, "ROCE_CLASS"))
			g->p.class_qos[i].match = POLICY_MATCH_ANY;
	caps_preset(&caps, CAPS_PRESET_HOST);
	ports_init(&g->r, &caps, false);
	plan_init(&pl);
	assert_int_equal(
	    ports_compile(&g->r, &g->p, "roced.conf", NULL, 0, &pl, NULL), 0);
	assert_int_equal(pl.nports, RIG_PORTS);
	memset(res, 0, sizeof(res));
	for (unsigned i = 0; i < RIG_PORTS; i++) {
		snprintf(res[i].ifname, sizeof(res[i].ifname), "%s",
		         pl.ports[i].ifname);
		res[i].status = RECONCILE_OK;
	}
	ports_applied(&g->r, &pl, pl.nports, res, NULL);
	plan_free(&pl);
	frames_init(&g->f, &rig_frame_ops, g, NULL);
	for (unsigned i = 0; i < RIG_PORTS; i++) {
		uint8_t mac[6] = {2, 0, 0, 0, 0, (uint8_t)(i + 1)};

		assert_non_null(ports_find(&g->r, rig_name(i)));
		assert_true(ports_find(&g->r, rig_name(i))->applied);
		assert_int_equal(
		    frames_attach(&g->f, rig_name(i), 11 + (int)i, mac), 0);
	}
	softpfc_init(&g->sp, rig_softpfc_changed, g);
	for (unsigned i = 0; i < RIG_PORTS; i++)
		softpfc_configure(&g->sp, rig_name(i), 0x08, true, 10000, 0);
	qstats_init(&g->qs);
	g->qs.dump = rig_dump;
	g->qs.dump_arg = g;
	contrib_init(&g->ct, &rig_ct_ops, g);
	g->now = 1000;
}

static void rig_free(struct rig *g)
{
	contrib_free(&g->ct);
	qstats_free(&g->qs);
	softpfc_free(&g->sp);
	frames_free(&g->f);
	ports_free(&g->r);
	policy_free(&g->p);
}

/* Frames sent out of port I (ifindex) since the last call that are of
 * KIND and pause (QUANTA > 0: PAUSE) or release (XON) priority P. */
static unsigned rig_count(const struct rig *g, unsigned i,
                          enum pfc_frame_kind kind, unsigned p, bool pause)
{
	unsigned n = 0;

	for (size_t k = 0; k < g->nsent; k++) {
		const struct pfc_frame *f = &g->sent[k].f;

		if (g->sent[k].ifindex != 11 + (int)i || f->kind != kind)
			continue;
		if (kind == PFC_FRAME_PFC && !(f->enable & (1u << p)))
			continue;
		if ((f->quanta[kind == PFC_FRAME_PFC ? p : 0] > 0) == pause)
			n++;
	}
	return n;
}

#endif
