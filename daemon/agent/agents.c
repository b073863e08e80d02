/* agents: see agents.h. */
#include "agent/agents.h"

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "core/log.h"
#include "plan/compile.h"

static double agents_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

void agents_init(struct agents *a, int epfd, const struct frame_ops *ops,
                 void *impl)
{
	memset(a, 0, sizeof(*a));
	frames_init(&a->frames, ops ? ops : &frame_ops_packet, impl, epfd);
	lldp_agent_init(&a->lldp, &a->frames, NULL, NULL);
	a->dirty = true;
}

void agents_free(struct agents *a)
{
	/* roced stops: the peers forget it at once (TTL 0). */
	lldp_agent_free(&a->lldp, agents_ms());
	frames_free(&a->frames);
}

/* --- LLDP and DCBX (issue 7) --- */

static void agents_lldp_cfg(struct agents *a, const struct policy *p)
{
	struct lldp_agent_cfg c;
	struct utsname u;

	memset(&c, 0, sizeof(c));
	c.tx.interval_ms = p->lldp.timer * 1000.0;
	c.tx.reinit_ms = p->lldp.reinit * 1000.0;
	c.holdtime = p->lldp.holdtime;
	c.dcbxp = !p->lldp.no_dcbxp;
	if (gethostname(c.sys_name, sizeof(c.sys_name) - 1) < 0)
		snprintf(c.sys_name, sizeof(c.sys_name), "roced");
	if (uname(&u) == 0)
		snprintf(c.sys_desc, sizeof(c.sys_desc), "roced on %s %s %s",
		         u.sysname, u.release, u.machine);
	lldp_agent_configure(&a->lldp, &c, agents_ms());
}

/* Whether roced's own agent runs LLDP on I. */
static bool agents_lldp_on(const struct policy *p, const struct policy_iface *i)
{
	return !p->lldp.no_feature &&
	       policy_iface_dcbx_agent(p, i) == POLICY_DCBX_AGENT_ROCED &&
	       (!i->lldp.no_transmit || !i->lldp.no_receive);
}

static void agents_lldp_sync(struct agents *a, const struct policy *p,
                             struct link_mon *lm)
{
	double now = agents_ms();

	agents_lldp_cfg(a, p);
	for (size_t i = 0; i < p->nifaces; i++) {
		const struct policy_iface *f = &p->ifaces[i];
		const struct frame_port *fp = frames_find(&a->frames, f->name);
		struct lldp_agent_port_cfg pc;
		struct link_info li;

		if (fp && !p->lldp.no_feature &&
		    policy_iface_dcbx_agent(p, f) == POLICY_DCBX_AGENT_LLDPAD)
			log_warnx("%s: dcbx agent lldpad: this roced has no "
			          "lldpad backend; the port runs no DCBX",
			          f->name);
		if (!fp || !agents_lldp_on(p, f))
			continue;
		memset(&pc, 0, sizeof(pc));
		pc.transmit = !f->lldp.no_transmit;
		pc.receive = !f->lldp.no_receive;
		snprintf(pc.desc, sizeof(pc.desc), "%s",
		         f->alias[0] ? f->alias : f->name);
		if (lldp_agent_port(&a->lldp, fp->ifname, fp->ifindex, fp->mac,
		                    &pc, now) < 0)
			log_warnx("%s: out of memory for its LLDP agent",
			          f->name);
		else if (link_lookup(lm, fp->ifname, &li) == 0)
			lldp_agent_carrier(&a->lldp, fp->ifname, li.running,
			                   now);
	}
	/* The others stop, with a shutdown frame while their socket is
	 * still open (before frames_detach). */
	lldp_agent_sweep(&a->lldp, now);
}

void agents_dcbx_local(struct agents *a, const struct ports *r,
                       const struct policy *p, double now_ms)
{
	for (size_t i = 0; i < r->n; i++) {
		const struct ports_port *e = &r->v[i];
		const struct policy_iface *f = policy_find_iface(p, e->ifname);
		struct dcbx_tlvs t;

		if (!e->applied || !f || !lldp_agent_find(&a->lldp, e->ifname))
			continue;
		compile_dcbx_local(&e->plan, f->lldp.willing, &t);
		lldp_agent_set_local(&a->lldp, e->ifname, &t, now_ms);
	}
}

bool agents_dcbx_pull(struct agents *a, struct ports *r)
{
	bool due = false;

	for (size_t i = 0; i < r->n; i++) {
		struct ports_port *e = &r->v[i];
		const struct lldp_port *lp =
		    lldp_agent_find(&a->lldp, e->ifname);
		bool has = lp && lp->has_oper;

		if (has == e->dcbx.has &&
		    (!has ||
		     !memcmp(&lp->oper, &e->dcbx.oper, sizeof(lp->oper)))) {
			due = due || e->dcbx.due;
			continue;
		}
		e->dcbx.has = has;
		if (has)
			e->dcbx.oper = lp->oper;
		e->dcbx.due = true;
		due = true;
	}
	return due;
}

/* Whether IFNAME is a port of P (by its Linux name). */
static bool agents_configured(const struct policy *p, const char *ifname)
{
	for (size_t i = 0; i < p->nifaces; i++)
		if (!strcmp(p->ifaces[i].name, ifname))
			return true;
	return false;
}

void agents_sync(struct agents *a, const struct policy *p, struct link_mon *lm)
{
	a->dirty = false;
	/* LLDP first: ports about to be detached send their shutdown
	 * frame. A port that comes up joins after its attach below. */
	for (size_t i = 0; i < a->frames.n; i++) {
		const struct frame_port *fp = &a->frames.v[i];
		const struct policy_iface *f = policy_find_iface(p, fp->ifname);
		struct link_info li;

		if (!f || strcmp(f->name, fp->ifname) ||
		    !agents_lldp_on(p, f) ||
		    link_lookup(lm, fp->ifname, &li) < 0 || !li.up)
			lldp_agent_stop(&a->lldp, fp->ifname, true,
			                agents_ms());
	}
	/* Ports no longer configured, gone, or down administratively. */
	for (size_t i = a->frames.n; i-- > 0;) {
		const struct frame_port *fp = &a->frames.v[i];
		struct link_info li;

		if (!agents_configured(p, fp->ifname) ||
		    link_lookup(lm, fp->ifname, &li) < 0 || !li.up)
			frames_detach(&a->frames, fp->ifname);
	}
	for (size_t i = 0; i < p->nifaces; i++) {
		struct link_info li;
		int rc;

		if (link_lookup(lm, p->ifaces[i].name, &li) < 0 || !li.up)
			continue;
		rc = frames_attach(&a->frames, li.name, li.ifindex, li.mac);
		if (rc < 0)
			log_warnx("%s: cannot open its raw-frame socket: %s",
			          li.name, strerror(-rc));
	}
	agents_lldp_sync(a, p, lm);
}

bool agents_fd(struct agents *a, int fd, double now_ms)
{
	if (!frames_by_fd(&a->frames, fd))
		return false;
	frames_process(&a->frames, fd, now_ms);
	return true;
}

int agents_wait(const struct agents *a, double now_ms)
{
	double next = lldp_agent_next(&a->lldp);

	if (next < 0)
		return -1;
	return next <= now_ms ? 0 : (int)(next - now_ms) + 1;
}

void agents_tick(struct agents *a, double now_ms)
{
	lldp_agent_tick(&a->lldp, now_ms);
}
