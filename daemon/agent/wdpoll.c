/* wdpoll: the PFC watchdog's poller. See wdpoll.h. */
#include "agent/wdpoll.h"

#include <errno.h>
#include <inttypes.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/log.h"
#include "model/plan.h"
#include "nlmsg/tc_msg.h"

void wdpoll_init(struct wdpoll *w)
{
	struct policy p;

	memset(w, 0, sizeof(*w));
	policy_init(&p); /* the NX-OS defaults, nothing to free */
	w->cfg = p.pfcwd;
}

void wdpoll_free(struct wdpoll *w)
{
	free(w->v);
	w->v = NULL;
	w->n = 0;
}

struct wdpoll_port *wdpoll_find(const struct wdpoll *w, const char *ifname)
{
	for (size_t i = 0; i < w->n; i++)
		if (!strcmp(w->v[i].ifname, ifname))
			return &w->v[i];
	return NULL;
}

static struct wdpoll_port *wdpoll_add(struct wdpoll *w, const char *ifname)
{
	struct wdpoll_port *nv, *e = wdpoll_find(w, ifname);

	if (e)
		return e;
	nv = realloc(w->v, (w->n + 1) * sizeof(*nv));
	if (!nv)
		return NULL;
	w->v = nv;
	e = &nv[w->n++];
	memset(e, 0, sizeof(*e));
	snprintf(e->ifname, sizeof(e->ifname), "%s", ifname);
	for (unsigned q = 0; q < POLICY_NQUEUES; q++)
		pfcwd_init(&e->q[q]);
	return e;
}

static void wdpoll_config(const struct wdpoll *w, const struct wdpoll_port *e,
                          struct pfcwd_config *c)
{
	pfcwd_config_from_policy(&w->cfg, e->internal, c);
}

/* The queues of E the action applies to now: the registry's input. */
static uint8_t wdpoll_shut_mask(const struct wdpoll *w,
                                const struct wdpoll_port *e)
{
	struct pfcwd_config c;
	uint8_t m = 0;

	wdpoll_config(w, e, &c);
	for (unsigned q = 0; q < POLICY_NQUEUES; q++)
		if ((e->queues & (1u << q)) && pfcwd_mitigating(&e->q[q], &c))
			m |= (uint8_t)(1u << q);
	return m;
}

/* Make the registry's input of E what the watchdog says; reconcile the
 * port when that changes it. */
static void wdpoll_push(struct wdpoll *w, const struct wdpoll_port *e)
{
	struct ports_port *pe =
	    w->ports ? ports_find(w->ports, e->ifname) : NULL;
	uint8_t m = wdpoll_shut_mask(w, e);

	if (!pe || pe->watchdog.wd_shut == m)
		return;
	pe->watchdog.wd_shut = m;
	if (w->reconcile)
		w->reconcile(w->arg, e->ifname);
}

/* The no-drop queues of a registry entry's applied plan, and the
 * priorities of each. */
static uint8_t wdpoll_queues(const struct ports_port *pe,
                             uint8_t prios[POLICY_NQUEUES])
{
	const struct plan_dcb *d = &pe->plan.dcb;
	uint8_t queues = 0;

	memset(prios, 0, POLICY_NQUEUES);
	if (!pe->applied)
		return 0;
	for (unsigned p = 0; p < POLICY_NPRIO; p++) {
		unsigned q = d->prio_tc[p];

		if (!(d->pfc_admin & (1u << p)) || q >= POLICY_NQUEUES)
			continue;
		queues |= (uint8_t)(1u << q);
		prios[q] |= (uint8_t)(1u << p);
	}
	return queues;
}

void wdpoll_sync(struct wdpoll *w, const struct policy *p, double now)
{
	bool any = false;

	w->cfg = p->pfcwd;
	/* Ports no longer configured: forgotten. */
	for (size_t i = w->n; i-- > 0;)
		if (!policy_find_iface(p, w->v[i].ifname))
			w->v[i] = w->v[--w->n];
	for (size_t i = 0; i < p->nifaces; i++) {
		const struct policy_iface *f = &p->ifaces[i];
		struct ports_port *pe =
		    w->ports ? ports_find(w->ports, f->name) : NULL;
		struct wdpoll_port *e = wdpoll_add(w, f->name);
		uint8_t prios[POLICY_NQUEUES], queues;
		bool on = policy_iface_watchdog(p, f);

		if (!e) {
			log_warnx("%s: PFC watchdog: out of memory", f->name);
			continue;
		}
		queues = pe ? wdpoll_queues(pe, prios) : 0;
		/* A plan not applied yet (a port that is not there): the
		 * state loaded at start waits for it. */
		if (pe && !pe->applied)
			queues = e->queues;
		else
			memcpy(e->prios, prios, sizeof(prios));
		e->internal = f->fabric_internal;
		e->watched = on && queues;
		for (unsigned q = 0; q < POLICY_NQUEUES; q++)
			if (!e->watched || !(queues & (1u << q)))
				pfcwd_init(&e->q[q]);
		e->queues = e->watched ? queues : 0;
		any |= e->watched;
		wdpoll_push(w, e);
	}
	if (!any)
		w->next_ms = 0;
	else if (!w->next_ms)
		w->next_ms = now + w->cfg.poll_ms;
}

int wdpoll_wait(const struct wdpoll *w, double now)
{
	if (!w->next_ms)
		return -1;
	return w->next_ms <= now ? 0 : (int)(w->next_ms - now) + 1;
}

static int wdpoll_stats_cb(const struct nlmsghdr *nlh, void *data)
{
	struct wdpoll *w = data;
	struct tc_stats_obj o;
	int q;

	if (tc_stats_parse(nlh, nlh->nlmsg_len, &o) < 0 ||
	    o.obj != TC_MSG_QDISC)
		return MNL_CB_OK;
	q = tc_msg_leaf_queue(o.handle);
	if (q < 0 || q >= POLICY_NQUEUES)
		return MNL_CB_OK;
	for (size_t i = 0; i < w->n; i++)
		if (w->v[i].ifindex == o.ifindex && w->v[i].watched) {
			w->v[i].seen[q] = true;
			w->v[i].st[q] = o.st;
		}
	return MNL_CB_OK;
}

static void wdpoll_log(const struct wdpoll_port *e, unsigned q,
                       enum pfcwd_event ev, const struct pfcwd_config *c,
                       const char *how)
{
	const struct pfcwd_queue *s = &e->q[q];
	char prios[32];

	policy_list_format(e->prios[q], prios, sizeof(prios));
	if (ev == PFCWD_EV_STORM)
		log_warnx("%s: PFC storm on qos-group %u (priority %s): "
		          "pause received with the queue stuck for %u ms, "
		          "action %s%s",
		          e->ifname, q, prios, c->detect_ms,
		          policy_pfcwd_action_name(c->action),
		          c->action == POLICY_PFCWD_DROP ? ", queue flushed"
		                                         : "");
	else
		log_info("%s: PFC storm over on qos-group %u (priority %s): "
		         "queue restored (%s) after %.1f s, %" PRIu64
		         " packets dropped",
		         e->ifname, q, prios, how,
		         (s->last_restore_ms - s->shut_ms) / 1000.0,
		         s->drained + s->dropped);
}

void wdpoll_tick(struct wdpoll *w, double now)
{
	char req[TC_MSG_BUF_SIZE] __attribute__((aligned(4)));
	struct nlb_error nerr;
	bool changed = false;
	int rc;

	if (!w->next_ms || now < w->next_ms)
		return;
	w->next_ms += w->cfg.poll_ms;
	if (w->next_ms <= now)
		w->next_ms = now + w->cfg.poll_ms; /* polls missed: skipped */
	w->polls++;
	for (size_t i = 0; i < w->n; i++) {
		struct wdpoll_port *e = &w->v[i];

		memset(e->seen, 0, sizeof(e->seen));
		if (e->watched)
			e->ifindex = (int)if_nametoindex(e->ifname);
	}
	rc = tc_msg_dump(req, sizeof(req), TC_MSG_QDISC, 0, 0, 0);
	if (rc == 0 && w->nl)
		rc = nlb_dump(w->nl, (struct nlmsghdr *)req, wdpoll_stats_cb, w,
		              &nerr);
	if (rc < 0) {
		log_debug(LOG_SUB_WATCHDOG,
		          "cannot read the qdisc counters: %s", strerror(-rc));
		return;
	}
	for (size_t i = 0; i < w->n; i++) {
		struct wdpoll_port *e = &w->v[i];
		const struct softpfc_port *sp =
		    w->softpfc ? softpfc_port((struct softpfc *)w->softpfc,
		                              e->ifname, false)
		               : NULL;
		struct pfcwd_config c;

		if (!e->watched || !sp)
			continue; /* hardware ports: not read yet */
		wdpoll_config(w, e, &c);
		for (unsigned q = 0; q < POLICY_NQUEUES; q++) {
			struct pfcwd_sample s = {0};
			enum pfcwd_event ev;

			if (!(e->queues & (1u << q)) || !e->seen[q])
				continue;
			for (unsigned p = 0; p < POLICY_NPRIO; p++)
				if (e->prios[q] & (1u << p))
					s.pause_rx += sp->c.rx_pause[p];
			s.rx_live = true;
			s.tx_packets = e->st[q].packets;
			s.drops = e->st[q].drops;
			s.backlog = e->st[q].qlen;
			ev = pfcwd_poll(&e->q[q], &c, &s, now);
			if (ev == PFCWD_EV_NONE)
				continue;
			changed = true;
			wdpoll_log(e, q, ev, &c,
			           c.fixed_restore_ms &&
			                   now - e->q[q].shut_ms + 1 >=
			                       c.fixed_restore_ms
			               ? "fixed"
			               : "auto");
		}
		wdpoll_push(w, e);
	}
	if (changed && wdpoll_save(w) < 0)
		log_warn("%s", w->path);
}

int wdpoll_recover(struct wdpoll *w, const char *ifname, unsigned q, double now)
{
	struct wdpoll_port *e = wdpoll_find(w, ifname);
	struct pfcwd_config c;

	if (!e || q >= POLICY_NQUEUES || !(e->queues & (1u << q)))
		return -ENOENT;
	if (pfcwd_recover(&e->q[q], now) == PFCWD_EV_NONE)
		return -EALREADY;
	wdpoll_config(w, e, &c);
	wdpoll_log(e, q, PFCWD_EV_RESTORE, &c, "by hand");
	wdpoll_push(w, e);
	if (wdpoll_save(w) < 0)
		log_warn("%s", w->path);
	return 0;
}

int wdpoll_clear(struct wdpoll *w, const char *ifname)
{
	int n = 0;

	for (size_t i = 0; i < w->n; i++) {
		if (ifname && strcmp(w->v[i].ifname, ifname))
			continue;
		for (unsigned q = 0; q < POLICY_NQUEUES; q++)
			pfcwd_clear(&w->v[i].q[q]);
		n++;
	}
	if (ifname && !n)
		return -ENOENT;
	return wdpoll_save(w);
}

/* --- the state file --- */

int wdpoll_save(struct wdpoll *w)
{
	char tmp[sizeof(w->path) + 8], line[512];
	size_t n = 0;
	FILE *f;
	int rc = 0;

	if (!w->path[0])
		return 0;
	for (size_t i = 0; i < w->n; i++)
		for (unsigned q = 0; q < POLICY_NQUEUES; q++)
			n += w->v[i].q[q].state != PFCWD_MONITORED;
	if (!n) {
		if (unlink(w->path) < 0 && errno != ENOENT)
			return -errno;
		return 0;
	}
	snprintf(tmp, sizeof(tmp), "%s.new", w->path);
	f = fopen(tmp, "we");
	if (!f)
		return -errno;
	fprintf(f, "netns %" PRIu64 "\n", w->netns_cookie);
	for (size_t i = 0; i < w->n; i++)
		for (unsigned q = 0; q < POLICY_NQUEUES; q++) {
			if (w->v[i].q[q].state == PFCWD_MONITORED)
				continue;
			pfcwd_format(&w->v[i].q[q], line, sizeof(line));
			fprintf(f, "%s %u %s\n", w->v[i].ifname, q, line);
		}
	if (fflush(f) != 0 || fsync(fileno(f)) < 0)
		rc = -errno;
	if (fclose(f) != 0 && !rc)
		rc = -errno;
	if (!rc && rename(tmp, w->path) < 0)
		rc = -errno;
	if (rc)
		unlink(tmp);
	return rc;
}

int wdpoll_load(struct wdpoll *w, double now)
{
	char line[640];
	uint64_t cookie = 0;
	FILE *f;
	int n = 0;

	if (!w->path[0])
		return 0;
	f = fopen(w->path, "re");
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	if (!fgets(line, sizeof(line), f) ||
	    sscanf(line, "netns %" SCNu64, &cookie) != 1 ||
	    (w->netns_cookie && cookie && cookie != w->netns_cookie)) {
		fclose(f);
		return -ESTALE;
	}
	while (fgets(line, sizeof(line), f)) {
		char ifname[POLICY_IFNAME_MAX];
		unsigned q;
		int off = 0;
		struct pfcwd_queue s;
		struct wdpoll_port *e;
		struct ports_port *pe;

		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "%15s %u %n", ifname, &q, &off) != 2 ||
		    q >= POLICY_NQUEUES || pfcwd_parse(&s, line + off, now) < 0)
			continue; /* not ours to guess at */
		e = wdpoll_add(w, ifname);
		if (!e)
			break;
		e->q[q] = s;
		e->queues |= (uint8_t)(1u << q);
		n++;
		/* The registry has the queue shut from the first apply. */
		pe = w->ports ? ports_get(w->ports, ifname) : NULL;
		if (pe && s.state == PFCWD_SHUTDOWN &&
		    w->cfg.action != POLICY_PFCWD_ALERT)
			pe->watchdog.wd_shut |= (uint8_t)(1u << q);
	}
	fclose(f);
	return n;
}
