/* ctl_view: see ctl_view.h. */
#include "control/ctl_view.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "agent/qstats.h"
#include "kernel/dcb.h"
#include "kernel/probe.h"
#include "os/log.h"
#include "os/loop.h"
#include "nlmsg/tc_msg.h"
#include "nlmsg/tc_stats.h"

void dctl_view_free(struct dctl_view *v)
{
	free(v->plans);
	free(v->unplanned);
	free(v->st);
	free(v->ifindex);
	memset(v, 0, sizeof(*v));
}

/* Software PFC's transmit side on IFNAME: the thresholds of its
 * no-drop priorities, and which priorities it pauses out of IFNAME now
 * (IFNAME feeds a congested port). */
static void dctl_view_txpoll(struct ctl_cmd_ctx *c, const char *ifname,
                             struct show_port_state *st)
{
	const struct txpoll *t = &c->agents->tx;
	const struct txpoll_port *x = txpoll_find(t, ifname);

	st->txpoll = x != NULL;
	for (unsigned q = 0; x && q < POLICY_NQUEUES; q++)
		for (unsigned p = 0; p < 8; p++) {
			if (!(x->prios[q] & (1u << p)))
				continue;
			st->xoff_set |= (uint8_t)(1u << p);
			if (x->configured_thresholds[p])
				st->xoff_conf |= (uint8_t)(1u << p);
			st->xoff[p] = x->t[p].xoff;
			st->xon[p] = x->t[p].xon;
		}
	for (size_t i = 0; i < t->n; i++) {
		const struct txpoll_port *y = &t->v[i];

		for (size_t k = 0; k < y->nfeeders; k++) {
			if (strcmp(y->feeders[k], ifname))
				continue;
			for (unsigned p = 0; p < 8; p++)
				if (y->paused_by[p] & (1ull << k))
					st->tx_paused |= (uint8_t)(1u << p);
		}
	}
}

/* Software PFC's counters and the watchdog's state of IFNAME. */
static void dctl_view_pfc(struct ctl_cmd_ctx *c, const char *ifname,
                          struct show_port_state *st)
{
	const struct softpfc_port *sp;
	const struct wdpoll_port *wp;
	const struct deadlock_port *dl;
	struct frame_port *fp;
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	st->now_ms = (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
	if (!c->agents)
		return;
	fp = frames_find(&c->agents->frames, ifname);
	if (fp && fp->fd >= 0) {
		st->frames = true;
		st->rx_dropped = fp->c.rx_dropped;
	}
	/* the kernel path's counts where the port takes it */
	agents_kpfc_pull(c->agents, ifname, st->now_ms);
	sp = softpfc_port(&c->agents->softpfc, ifname, false);
	if (sp) {
		st->softpfc = true;
		st->rx_ppp = sp->c.rx_frames;
		st->tx_ppp = sp->c.tx_frames;
		memcpy(st->rx_pause, sp->c.rx_pause, sizeof(st->rx_pause));
		memcpy(st->rx_xon, sp->c.rx_xon, sizeof(st->rx_xon));
		memcpy(st->tx_pause, sp->c.tx_pause, sizeof(st->tx_pause));
		memcpy(st->tx_xon, sp->c.tx_xon, sizeof(st->tx_xon));
		st->held = sp->held;
		for (unsigned p = 0; p < 8; p++)
			st->held_ms[p] = softpfc_paused_ms(sp, p, st->now_ms);
		st->lp_rx = sp->link_pause_rx;
		st->lp_tx = txpoll_feeds(&c->agents->tx, ifname, TXPOLL_LP);
		st->lp_held = sp->lp_held;
		st->lp_rx_frames = sp->c.rx_link_pause + sp->c.rx_link_xon;
		st->lp_rx_xon = sp->c.rx_link_xon;
		st->lp_tx_frames = sp->c.tx_link_pause + sp->c.tx_link_xon;
		st->lp_tx_xon = sp->c.tx_link_xon;
		st->lp_held_ms = softpfc_lp_held_ms(sp, st->now_ms);
	}
	dctl_view_txpoll(c, ifname, st);
	dl = deadlock_find(&c->agents->dl, ifname);
	if (dl) {
		st->dl = true;
		st->dlp = *dl;
		st->dl_self = c->agents->dl.self;
	}
	wp = wdpoll_find(&c->agents->wd, ifname);
	if (wp && wp->watched) {
		st->wd_hw_err = wp->hw ? wp->hw_err : 0;
		st->wd = true;
		st->wd_internal = wp->internal;
		st->wd_queues = wp->queues;
		memcpy(st->wd_prios, wp->prios, sizeof(st->wd_prios));
		memcpy(st->wdq, wp->q, sizeof(st->wdq));
	}
}

/* Add IFNAME (configured as F, or not configured) to V. */
static void dctl_view_add(struct ctl_cmd_ctx *c, const char *ifname,
                          const struct policy_iface *f, struct dctl_view *v)
{
	struct ports_port *e = f ? ports_find(c->ports, f->name) : NULL;
	struct show_port_state *st = &v->st[v->n];
	struct caps caps;

	st->contested = e && e->contested;
	/* What the registry knows of the port's last apply. */
	if (e) {
		st->state = ports_state(e);
		snprintf(st->reason, sizeof(st->reason), "%s", e->reason);
		snprintf(st->foreign_kind, sizeof(st->foreign_kind), "%s",
		         e->foreign_kind);
		st->foreign_handle = e->foreign_handle;
	} else {
		st->state = PLAN_PORT_NOT_PROGRAMMED;
		snprintf(st->reason, sizeof(st->reason), "%s",
		         f ? "not applied yet"
		           : "roced does not configure this link");
	}
	dctl_view_pfc(c, ifname, st);
	if (e && e->applied) {
		v->plans[v->n++] = &e->plan;
		return;
	}
	/* Not applied yet (a policy that did not compile, a kernel that
	 * could not be read), or not roced's to plan. */
	if (e)
		caps = e->caps;
	else {
		/* probed on its own, as a first apply would find it */
		caps = c->ports->kernel;
		if (c->ports->probe)
			(void)probe_port(ifname, &caps);
	}
	ports_unplanned(ifname, f ? f->alias : NULL, &caps,
	                &v->unplanned[v->n]);
	v->plans[v->n] = &v->unplanned[v->n];
	v->n++;
}

/* Link pause as a hardware port's driver holds it, and its pause frame
 * counters where the driver counts them (PAUSE_GET with statistics). */
static void dctl_view_pause(struct ctl_cmd_ctx *c, const struct plan_port *pp,
                            struct show_port_state *st)
{
	struct ethtool_msg_pause ep;
	int rc;

	if (pp->dcb.software || !st->exists || !c->e->rc.ethtool)
		return;
	rc = ethtool_pause_stats(c->e->rc.ethtool, pp->ifname, &ep);
	if (rc < 0 && !(ep.dev.ifindex || ep.dev.ifname[0]))
		return; /* no pause settings at all (EOPNOTSUPP) */
	st->pause = true;
	st->pause_rx = ep.rx;
	st->pause_tx = ep.tx;
	st->pause_counted = rc == 0;
	st->rx_pause_frames = ep.rx_frames;
	st->tx_pause_frames = ep.tx_frames;
}

/* A hardware port's PFC counters, read now through the agents' reader
 * (the watchdog's): dcbnl's and the driver's statistics. */
static void dctl_view_hwcnt(struct ctl_cmd_ctx *c, const char *ifname,
                            struct show_port_state *st)
{
	const struct hwcnt_port *p = hwcnt_read(&c->agents->hw, ifname);

	if (!p || !p->ok) {
		snprintf(st->hw_why, sizeof(st->hw_why), "%s",
		         strerror(p ? -p->err : ENOMEM));
		return;
	}
	st->hwcnt = true;
	st->hw_dcb = p->dcb;
	st->dcb = p->dcb;
	st->pfc_en = p->pfc_en;
	st->hw_driver = p->driver;
	/* A duration there at this read (the watchdog's DUR also wants
	 * the read before). */
	st->hw_dur = p->prev_dur;
	st->hw_xon = p->xon;
	st->rx_ppp = st->tx_ppp = 0;
	for (unsigned k = 0; k < 8; k++) {
		st->indications[k] = st->rx_pause[k] = p->rx[k];
		st->requests[k] = st->tx_pause[k] = p->tx[k];
		st->rx_xon[k] = p->rx_xon[k];
		st->tx_xon[k] = p->tx_xon[k];
		st->held_ms[k] = (double)p->rx_us[k] / 1000.0;
		st->rx_ppp += p->rx[k];
		st->tx_ppp += p->tx[k];
	}
}

/* What the kernel holds for the ports of V: one qdisc dump for the queue
 * counters (the kernel answers it with every link's qdiscs), and the IEEE
 * DCB state of hardware ports. */
/* The counters of ST's queues as read now, offered to the ones carried
 * over leaf replacements, and their totals since roced started. */
static void dctl_view_carry(struct ctl_cmd_ctx *c, int ifindex,
                            struct show_port_state *st)
{
	for (unsigned q = 0; c->agents && ifindex && q < POLICY_NQUEUES; q++) {
		const struct tc_stats_counters *l = &st->queue[q];
		const struct tc_stats_counters *red = l->red ? l
		                                      : st->inner_red[q]
		                                          ? &st->inner[q]
		                                          : NULL;
		struct qcarry_count raw = {.packets = l->packets,
		                           .bytes = l->bytes,
		                           .drops = l->drops,
		                           .ecn = red ? red->red_marked : 0};

		const struct qcarry_queue *e;

		if (!st->queue_seen[q] || !l->basic || !l->queue)
			continue;
		qcarry_backlog(&c->agents->qs.carry, ifindex, q, l->backlog);
		if (qcarry_observe(&c->agents->qs.carry, ifindex, q,
		                   red ? QCARRY_ALL : QCARRY_ALL & ~QCARRY_ECN,
		                   &raw, &st->qtotal[q]) == 0)
			st->qtotal_ok[q] = true;
		e = qcarry_find(&c->agents->qs.carry, ifindex, q);
		if (e) {
			memcpy(st->qpeak[q], e->peak, sizeof(st->qpeak[q]));
			st->qxoff[q] = e->xoff;
			st->qabove_ms[q] = e->above_xoff_ms;
			st->qheadroom[q] = e->headroom_peak;
		}
	}
}

/* The queue counters of V's ports, from the one sampler (agents/qstats.h):
 * one qdisc dump for every port shown, which a dump of the watchdog or
 * the transmit side younger than QSTATS_SHOW_MS serves, and which serves
 * them in turn. Without agents (a check), a sampler of its own. */
static int dctl_view_stats(struct ctl_cmd_ctx *c, struct dctl_view *v)
{
	struct qstats own, *qs = c->agents ? &c->agents->qs : &own;
	int rc;

	if (!c->agents) {
		qstats_init(&own);
		own.nl = &c->e->nl;
	}
	rc = qstats_snapshot(qs, loop_now_ms(), QSTATS_SHOW_MS);
	for (size_t i = 0; rc == 0 && i < v->n; i++) {
		const struct qstats_snap *sn =
		    v->ifindex[i] ? qstats_snap(qs, v->ifindex[i]) : NULL;
		struct show_port_state *st = &v->st[i];

		for (unsigned q = 0; sn && q < POLICY_NQUEUES; q++) {
			st->inner_red[q] = sn->inner_red & (1u << q);
			st->inner[q] = sn->inner[q];
			st->queue_seen[q] = sn->seen & (1u << q);
			st->queue[q] = sn->leaf[q];
			snprintf(st->leaf_kind[q], sizeof(st->leaf_kind[q]),
			         "%s", sn->kind[q]);
		}
		st->roced_root = sn && sn->root;
	}
	if (!c->agents)
		qstats_free(&own);
	return rc;
}

static void dctl_view_kernel(struct ctl_cmd_ctx *c, const struct show_query *q,
                             struct dctl_view *v)
{
	struct engine *e = c->e;
	int rc;

	for (size_t i = 0; i < v->n; i++) {
		struct link_info li;

		if (link_lookup(e->links, v->plans[i]->ifname, &li) == 0) {
			v->st[i].exists = true;
			v->ifindex[i] = li.ifindex;
		}
	}
	/* The links' own counters, asked now (the cache's are old). */
	for (size_t i = 0;
	     (q->kind == CTL_SHOW_IF_COUNTERS || q->kind == CTL_SHOW_METRICS) &&
	     i < v->n;
	     i++) {
		struct link_stats ls;

		if (!v->ifindex[i] || link_stats(e->links, v->ifindex[i], &ls))
			continue;
		v->st[i].link_stats = true;
		v->st[i].rx_bytes = ls.rx_bytes;
		v->st[i].rx_packets = ls.rx_packets;
		v->st[i].rx_multicast = ls.rx_multicast;
		v->st[i].tx_bytes = ls.tx_bytes;
		v->st[i].tx_packets = ls.tx_packets;
		v->st[i].rx_discards = ls.rx_discards;
		v->st[i].tx_discards = ls.tx_discards;
	}
	/* The LLDP shows read the agent, not the queue counters, and
	 * neither does show interface counters. */
	if (show_query_ports(q) && q->kind != CTL_SHOW_LLDP_DCBX &&
	    q->kind != CTL_SHOW_LLDP_NEIGHBORS &&
	    q->kind != CTL_SHOW_LLDP_TRAFFIC && q->kind != CTL_SHOW_LLDP_IF &&
	    q->kind != CTL_SHOW_ROCE && q->kind != CTL_SHOW_ROCE_FABRIC &&
	    q->kind != CTL_SHOW_IF_COUNTERS) {
		rc = dctl_view_stats(c, v);
		if (rc < 0)
			log_warnx("show: cannot read the qdisc counters: %s",
			          strerror(-rc));
		for (size_t i = 0; rc == 0 && i < v->n; i++) {
			v->st[i].stats = v->st[i].exists;
			dctl_view_carry(c, v->ifindex[i], &v->st[i]);
		}
	}
	for (size_t i = 0;
	     (q->kind == CTL_SHOW_FC_IF || q->kind == CTL_SHOW_METRICS ||
	      q->kind == CTL_SHOW_IF_COUNTERS) &&
	     i < v->n;
	     i++)
		dctl_view_pause(c, v->plans[i], &v->st[i]);
	for (size_t i = 0; i < v->n; i++) {
		struct dcbnl_msg_ieee *cur;
		struct plan_dcb have;

		if (v->plans[i]->dcb.software || !v->st[i].exists)
			continue;
		if (c->agents) {
			dctl_view_hwcnt(c, v->plans[i]->ifname, &v->st[i]);
			continue;
		}
		cur = calloc(1, sizeof(*cur));
		if (cur &&
		    dcb_observe(&dcb_ops_netlink, &e->nl, v->plans[i]->ifname,
		                cur, &have) == 0 &&
		    (cur->present & DCBNL_MSG_HAS_PFC)) {
			v->st[i].dcb = true;
			v->st[i].pfc_en = cur->pfc.pfc_en;
			for (unsigned k = 0; k < 8; k++) {
				v->st[i].requests[k] = cur->pfc.requests[k];
				v->st[i].indications[k] =
				    cur->pfc.indications[k];
			}
		}
		free(cur);
	}
}

/* The ports of a range or list in Q (`show queuing interface e1/1-4`):
 * each must be configured. */
static int dctl_gather_list(struct ctl_cmd_ctx *c, const struct show_query *q,
                            struct dctl_view *v, char *err, size_t errlen)
{
	const struct policy *p = c->policy;
	char(*m)[POLICY_ALIAS_MAX] = calloc(POLICY_IF_RANGE_MAX, sizeof(*m));
	int n = m ? policy_ifname_expand(q->iface, m, POLICY_IF_RANGE_MAX) : -1;

	for (int k = 0; k < n; k++)
		if (!policy_find_iface(p, m[k])) {
			snprintf(err, errlen,
			         "%% Invalid interface '%s' of %s: not "
			         "configured",
			         m[k], q->iface);
			n = -1;
			break;
		}
	if (n <= 0 || (size_t)n > p->nifaces) {
		if (n == 0 || (n > 0 && (size_t)n > p->nifaces))
			snprintf(err, errlen, "%% Invalid interface range %s",
			         q->iface);
		else if (!m)
			snprintf(err, errlen, "%% out of memory");
		else if (!err[0] || n == -2)
			snprintf(err, errlen, "%% Invalid interface range %s",
			         q->iface);
		free(m);
		dctl_view_free(v);
		return -ENODEV;
	}
	for (int k = 0; k < n; k++) {
		const struct policy_iface *f = policy_find_iface(p, m[k]);

		dctl_view_add(c, f->name, f, v);
	}
	free(m);
	dctl_view_kernel(c, q, v);
	return 0;
}

/* The view of the ports Q is about: the configured ports, or the one it
 * names, which may be a link roced does not configure. */
int dctl_gather(struct ctl_cmd_ctx *c, const struct show_query *q,
                struct dctl_view *v, char *err, size_t errlen)
{
	const struct policy *p = c->policy;
	size_t max = p->nifaces + 1;

	memset(v, 0, sizeof(*v));
	v->plans = calloc(max, sizeof(*v->plans));
	v->unplanned = calloc(max, sizeof(*v->unplanned));
	v->st = calloc(max, sizeof(*v->st));
	v->ifindex = calloc(max, sizeof(*v->ifindex));
	if (!v->plans || !v->unplanned || !v->st || !v->ifindex) {
		dctl_view_free(v);
		snprintf(err, errlen, "%% cannot build the answer: %s",
		         strerror(ENOMEM));
		return -ENOMEM;
	}
	if (q->iface[0] && !policy_find_iface(p, q->iface) &&
	    (strchr(q->iface, ',') || strchr(q->iface, '-')))
		return dctl_gather_list(c, q, v, err, errlen);
	if (q->iface[0]) {
		const struct policy_iface *f = policy_find_iface(p, q->iface);
		struct link_info li;

		if (!f && (strlen(q->iface) >= POLICY_IFNAME_MAX ||
		           link_lookup(c->e->links, q->iface, &li) < 0)) {
			snprintf(
			    err, errlen,
			    "%% Invalid interface '%s': neither configured "
			    "nor a link in roced's namespace",
			    q->iface);
			dctl_view_free(v);
			return -ENODEV;
		}
		dctl_view_add(c, f ? f->name : q->iface, f, v);
	} else {
		for (size_t i = 0; i < p->nifaces; i++)
			dctl_view_add(c, p->ifaces[i].name, &p->ifaces[i], v);
	}
	dctl_view_kernel(c, q, v);
	return 0;
}
