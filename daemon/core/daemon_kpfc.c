/* daemon_kpfc: software PFC's kernel path (daemon/kernel/bpfhold.h) on
 * the ports whose applied plan takes it (plan_port.pfc_path, chosen by
 * compile from the probed kernel and this build). After each apply the
 * programs are attached where they are missing (or taken over from a
 * roced before this one, whose holds they keep), their settings written
 * where they changed (the priorities honoured follow the watchdog's shut
 * queues through the plan) and removed where the plan no longer takes
 * the kernel path.
 *
 * A port where attaching fails (a program the verifier refuses, a map
 * that cannot be created, no room for the loop) records why
 * (compile_port.kpfc_refused), says so in one log line naming what
 * failed, and is applied again at once: its plan then takes the
 * user-space path, and keeps it while roced runs. */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/agents.h"
#include "core/daemon_int.h"
#include "kernel/bpfhold.h"
#include "os/log.h"

/* A held packet is looked at again at least this often: how long an
 * XON may wait to release it (the loop's cost is one pass per packet
 * held per recheck). */
#define DAEMON_KPFC_RECHECK_NS 2000000ull

/* E's applied plan as the programs' settings. */
static void daemon_kpfc_conf(const struct ports_port *e, struct bpfhold_conf *c)
{
	const struct plan_dcb *d = &e->plan.dcb;

	memset(c, 0, sizeof(*c));
	/* untagged IP has a priority through the DSCP APP entries (what
	 * the port advertises); the others none */
	memset(c->dscp_prio, 0xff, sizeof(c->dscp_prio));
	c->cfg.speed_mbps = (uint32_t)e->caps.speed_mbps;
	c->cfg.honour = agents_softpfc_honour(e);
	c->cfg.link_pause_rx = agents_lp_honour(e);
	c->cfg.recheck_ns = DAEMON_KPFC_RECHECK_NS;
	for (size_t i = 0; i < d->napp; i++)
		if (d->app[i].selector == PLAN_APP_SEL_DSCP &&
		    d->app[i].protocol < PFC_HOLD_NDSCP)
			c->dscp_prio[d->app[i].protocol] = d->app[i].priority;
}

/* Attach (or take over) E's programs at IFINDEX with C: 0, or -errno
 * with ERR saying what failed. */
static int daemon_kpfc_attach(struct ports_port *e, int ifindex,
                              const struct bpfhold_conf *c, char *err,
                              size_t errlen)
{
	int rc;

	/* A roced before this one left them: they hold what they hold,
	 * and go on with this roced's settings. */
	if (!bpfhold_find(&e->kpfc, ifindex)) {
		rc = bpfhold_configure(&e->kpfc, c);
		if (!rc) {
			log_info("%s: software PFC's kernel path taken over "
			         "from an earlier roced",
			         e->ifname);
			return 0;
		}
		bpfhold_close(&e->kpfc);
	}
	return bpfhold_attach(&e->kpfc, ifindex, c, err, errlen);
}

size_t daemon_kpfc_sync(struct daemon *d, char (*again)[POLICY_IFNAME_MAX],
                        size_t max)
{
	size_t nagain = 0;

	for (size_t i = 0; i < d->ports.n; i++) {
		struct ports_port *e = &d->ports.v[i];
		/* a port refused once is not tried again (an apply that
		 * failed may have kept the plan that asked) */
		bool want = e->applied &&
		            e->plan.pfc_path == PLAN_PFC_PATH_KERNEL &&
		            !e->kpfc_refused[0];
		int ifindex = want ? (int)if_nametoindex(e->ifname) : 0;
		struct bpfhold_conf c;
		char err[512];
		int rc;

		if (e->kpfc_on && (!want || e->kpfc.ifindex != ifindex)) {
			bpfhold_detach(&e->kpfc);
			e->kpfc_on = false;
			if (!want)
				log_info("%s: software PFC's kernel path "
				         "removed (%s)",
				         e->ifname,
				         e->applied ? e->plan.pfc_path_why
				                    : "no plan");
		}
		if (!want || ifindex <= 0)
			continue;
		daemon_kpfc_conf(e, &c);
		if (e->kpfc_on) {
			if (!memcmp(&c, &e->kpfc_conf, sizeof(c)))
				continue;
			rc = bpfhold_configure(&e->kpfc, &c);
			if (rc)
				log_warnx("%s: software PFC's kernel path: "
				          "cannot write its settings: %s",
				          e->ifname, strerror(-rc));
			else
				e->kpfc_conf = c;
			continue;
		}
		rc = daemon_kpfc_attach(e, ifindex, &c, err, sizeof(err));
		if (rc) {
			/* cut to what a plan keeps of it */
			snprintf(e->kpfc_refused, sizeof(e->kpfc_refused),
			         "%.*s", (int)sizeof(e->kpfc_refused) - 1, err);
			log_warnx("%s: software PFC's kernel path: %s: the "
			          "port takes the user-space path",
			          e->ifname, err);
			if (nagain < max)
				snprintf(again[nagain++], sizeof(again[0]),
				         "%s", e->ifname);
			continue;
		}
		e->kpfc_on = true;
		e->kpfc_conf = c;
		/* the port's counters go on from here with the programs' */
		agents_kpfc_pull(&d->agents, e->ifname, loop_now_ms());
		log_info("%s: software PFC's kernel path holds priorities "
		         "0x%02x (%s)",
		         e->ifname, c.cfg.honour, e->plan.pfc_path_why);
	}
	return nagain;
}

void daemon_kpfc_stop(struct daemon *d)
{
	size_t n = 0;

	for (size_t i = 0; i < d->ports.n; i++) {
		struct ports_port *e = &d->ports.v[i];

		if (!e->kpfc_on)
			continue;
		bpfhold_detach(&e->kpfc);
		e->kpfc_on = false;
		n++;
	}
	if (n)
		log_info("removed software PFC's kernel path from %zu port%s",
		         n, n == 1 ? "" : "s");
}
