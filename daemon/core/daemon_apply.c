/* daemon_apply: the passes of the long-running daemon that change the
 * kernel, all along the one path (compile -> diff -> apply): a full or
 * partial apply with its logging and the control client's messages, a
 * commit of a candidate policy (a rocesh line), a reload of the file
 * (refused when the file looks caught half written), the DCBX passes and
 * the cleanup at exit. The event loop that decides when they run is
 * daemon.c.
 */
#include "core/daemon_int.h"

#include <errno.h>
#include <inttypes.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "conf/conf.h"
#include "kernel/probe.h"
#include "os/log.h"
#include "plan/plan_text.h"
#include "plan/plan_warn.h"

double daemon_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

double daemon_unix(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void daemon_log_line(const char *line, void *data)
{
	(void)data;
	log_info("%s", line);
}

void daemon_log_diag(const struct diag *d, const char *port)
{
	char line[1024];

	for (size_t i = 0; i < d->n; i++) {
		diag_format(d, i, line, sizeof(line));
		if (port)
			log_info("%s: %s", port, line);
		else
			log_info("%s", line);
	}
}

/* A warning line of plan_warn_each() ("warning: swp1: text") into the
 * diag DATA, for a control client; notes stay in the log. */
static void daemon_msg_line(const char *line, void *data)
{
	if (!strncmp(line, "warning: ", 9))
		diag_warn(data, 0, "%s", line + 9);
}

static void daemon_new_warnings(struct daemon *d, const struct plan *pl,
                                struct diag *msgs)
{
	const struct plan_port **before =
	    calloc(pl->nports ? pl->nports : 1, sizeof(*before));

	for (size_t i = 0; before && i < pl->nports; i++) {
		const struct ports_port *e =
		    ports_find(&d->ports, pl->ports[i].ifname);

		before[i] = e && e->applied ? &e->plan : NULL;
	}
	if (!before ||
	    plan_warn_each_new(pl, before, NULL, daemon_msg_line, msgs) < 0)
		diag_warn(msgs, 0,
		          "out of memory: the plan's new warnings are only in "
		          "the log");
	free(before);
}

/* R is a pass's result for a port that others changed (whichever pass
 * it is: the repair, or a link event's, a reload's that came first): when
 * the port was not as planned (something written, or refused), say what
 * someone else did, and count the repair. */
static void daemon_repaired(struct daemon *d, const struct reconcile_result *r)
{
	struct ports_port *e = ports_find(&d->ports, r->ifname);

	if (!e || !e->repair_due)
		return;
	e->repair_due = false;
	if ((!r->writes && r->status == RECONCILE_OK) ||
	    r->status == RECONCILE_ABSENT)
		return;
	if (e->repair_more)
		log_info("%s: %s (and %u more change%s): repairing", r->ifname,
		         e->repair_what, e->repair_more,
		         e->repair_more == 1 ? "" : "s");
	else
		log_info("%s: %s: repairing", r->ifname, e->repair_what);
	if (ports_repaired(e, daemon_ms()))
		log_warnx("%s: contested: another process keeps changing "
		          "roced's tc objects (%d repairs within %.0f s); "
		          "not repairing them until nobody changes them for "
		          "%.0f s, or a reload",
		          r->ifname, PORTS_REPAIR_MAX,
		          PORTS_REPAIR_WINDOW_MS / 1000, PORTS_QUIET_MS / 1000);
}

/* Keep the MTUs to give back on disk when they changed. */
static void daemon_save_mtu(struct daemon *d)
{
	int rc;

	if (!d->ports.mtu_dirty || !d->mtu_path[0])
		return;
	rc = ports_mtu_save(&d->ports, d->mtu_path);
	if (rc < 0)
		log_warnx("cannot keep the ports' MTUs to give back in %s: %s",
		          d->mtu_path, strerror(-rc));
}

/* Log what became of one port (RES) and return its writes. A port that
 * stays refused (a foreign root qdisc, the same refusal of the kernel) is
 * logged once, when that begins, not on every pass; the orphans an apply
 * added (not PLANNED: the registry has no entry for them) every time, and
 * every port of an apply that FAILED (nothing could be read: the registry
 * did not change). MSGS (a control client's, may be NULL) hears every
 * refusal: as an error when the apply failed (nothing was written and the
 * change fails), else as a warning (the port was rolled back, the others
 * applied). */
static size_t daemon_log_result(struct daemon *d,
                                const struct reconcile_result *res,
                                bool planned, bool failed, struct diag *msgs)
{
	const struct ports_port *e =
	    planned ? ports_find(&d->ports, res->ifname) : NULL;

	if (res->status == RECONCILE_ABSENT) {
		log_debug(LOG_SUB_APPLY, "%s: absent, waiting for it",
		          res->ifname);
		return 0;
	}
	if (res->error[0]) {
		if (!e || e->news || failed)
			log_warnx("%s", res->error);
		if (msgs)
			diag_add(msgs, failed ? DIAG_ERROR : DIAG_WARNING, 0,
			         "%s", res->error);
	}
	log_debug(LOG_SUB_APPLY, "%s: %s, %zu writes", res->ifname,
	          reconcile_status_name(res->status), res->writes);
	if (res->writes)
		log_info("%s: %s, %zu write%s", res->ifname,
		         reconcile_status_name(res->status), res->writes,
		         res->writes == 1 ? "" : "s");
	return res->writes;
}

/* Compile POLICY for NAMES (all configured ports when N is 0; those not
 * configured are dropped, aliases become names, in place) and apply. MSGS
 * (may be NULL) gets the compiler's errors at their FILE:LINE and each
 * port's refusal, for a control client. Each port's plan and result stay
 * in the registry. */
int daemon_bonds(struct daemon *d, struct policy *p)
{
	char(*m)[POLICY_IFNAME_MAX] = calloc(POLICY_IF_RANGE_MAX, sizeof(*m));
	char(*bonds)[POLICY_IFNAME_MAX] =
	    calloc(p->nifaces ? p->nifaces : 1, sizeof(*bonds));
	int changed = policy_bond_prune(p);
	size_t nb = 0;

	if (!m || !bonds) {
		free(m);
		free(bonds);
		return changed;
	}
	/* The configured ports first: syncing one moves the array. */
	for (size_t i = 0; i < p->nifaces; i++)
		if (!p->ifaces[i].bond[0])
			snprintf(bonds[nb++], sizeof(bonds[0]), "%s",
			         p->ifaces[i].name);
	for (size_t i = 0; i < nb; i++) {
		struct link_info li;
		size_t n = 0;
		int rc;

		if (link_lookup(d->e.links, bonds[i], &li) == 0 && li.aggregate)
			n = link_members(d->e.links, li.ifindex, m,
			                 POLICY_IF_RANGE_MAX);
		rc = policy_bond_sync(p, bonds[i],
		                      (const char(*)[POLICY_IFNAME_MAX])m, n);
		if (rc < 0)
			log_warnx("%s: out of memory for its bond members",
			          bonds[i]);
		else if (rc > 0)
			log_info("%s: bond members now %zu", bonds[i], n);
		changed |= rc > 0;
	}
	free(m);
	free(bonds);
	return changed;
}

/* The probe snapshot a compile of NAMES (N; NULL: all P configures)
 * needs, taken here and handed to the registry, which stores it: the
 * registry asks the kernel nothing. */
static int daemon_probe(struct daemon *d, const struct policy *p,
                        char (*names)[POLICY_IFNAME_MAX], size_t n)
{
	struct compile_port *snap;
	int k = ports_probe_due(&d->ports, p, names, n, &snap);

	if (k > 0)
		ports_probed(&d->ports, snap, (size_t)k,
		             probe_ports(snap, (size_t)k, NULL));
	free(snap);
	return k < 0 ? k : 0;
}

/* The candidate CAND planned as a full apply would plan it, changing
 * nothing (a dry run, a check): its ports the registry does not know
 * are probed into this call's own snapshot. */
static int daemon_plan(struct daemon *d, const struct policy *cand,
                       const char *file, struct plan *pl, struct diag *msgs)
{
	struct compile_port *unknown =
	    calloc(cand->nifaces ? cand->nifaces : 1, sizeof(*unknown));
	size_t k;
	int rc;

	if (!unknown)
		return -ENOMEM;
	k = ports_unknown(&d->ports, cand, unknown);
	/* One that cannot be probed stays a software port of unknown
	 * speed, as a first apply plans it. */
	if (k && d->ports.probe)
		(void)probe_ports(unknown, k, NULL);
	rc = ports_plan(&d->ports, cand, file, unknown, k, pl, msgs);
	free(unknown);
	return rc;
}

/* Software PFC's kernel path follows the plans just applied; a port
 * where it could not be loaded is applied again at once: its plan now
 * takes the user-space path (kpfc_refused), so that apply loads nothing
 * more there. */
static void daemon_apply_kpfc(struct daemon *d)
{
	char(*again)[POLICY_IFNAME_MAX] =
	    calloc(d->ports.n ? d->ports.n : 1, sizeof(*again));
	size_t n = again ? daemon_kpfc_sync(d, again, d->ports.n) : 0;

	if (n)
		daemon_apply(d, &d->policy, again, n, NULL);
	free(again);
}

int daemon_apply(struct daemon *d, struct policy *policy,
                 char (*names)[POLICY_IFNAME_MAX], size_t n, struct diag *msgs)
{
	size_t writes = 0, warnings = 0, np = 0, first, planned;
	struct reconcile_result *res = NULL;
	double t0 = daemon_ms();
	struct diag own;
	struct plan pl;
	bool compiled;
	int rc;

	/* A full apply plans the bonds' members as they are now. */
	if (!n)
		daemon_bonds(d, policy);
	/* Only configured ports (by name or alias). */
	for (size_t i = 0; i < n; i++) {
		const struct policy_iface *f =
		    policy_find_iface(policy, names[i]);

		if (f)
			snprintf(names[np++], sizeof(names[0]), "%s", f->name);
	}
	diag_init(&own, d->opts->file);
	if (!msgs)
		msgs = &own;
	first = msgs->n;
	plan_init(&pl);
	rc = daemon_probe(d, policy, n ? names : NULL, np);
	if (rc == 0)
		rc = ports_compile(&d->ports, policy, d->opts->file,
		                   n ? names : NULL, np, &pl, msgs);
	if (d->ports.unprobed)
		log_warnx("cannot probe the ports: planning them as software "
		          "ports of unknown speed");
	for (size_t i = first; rc == -EINVAL && i < msgs->n; i++) {
		char line[1024];

		diag_format(msgs, i, line, sizeof(line));
		log_warnx("%s", line);
	}
	/* A full apply also removes roced's objects from ports the
	 * configuration no longer names. */
	compiled = rc == 0;
	planned = pl.nports; /* the orphans engine_apply() adds follow */
	if (compiled)
		rc = engine_apply(&d->e, &pl, !n, &res);
	/* What the kernel cannot realise, once per full apply (not on every
	 * link event), each warning once with its ports. */
	if (!n && plan_warn_each(&pl, d->opts->file, daemon_log_line, NULL) < 0)
		log_warnx("out of memory while logging the plan's warnings");
	/* The client whose change this is hears at once what it brought
	 * (a class without a filter on a port...), not only the log: the
	 * warnings a port's last plan in the registry did not have (before
	 * ports_applied() below replaces it). */
	if (msgs != &own && (rc == 0 || rc == -EAGAIN))
		daemon_new_warnings(d, &pl, msgs);
	/* Before the registry takes the results: a port others changed. */
	for (size_t i = 0; res && i < pl.nports; i++)
		daemon_repaired(d, &res[i]);
	for (size_t i = 0; i < pl.nports; i++)
		warnings += pl.ports[i].warnings.nwarnings;
	if (compiled) {
		char why[160];

		/* Nothing written: the ports keep their last apply. */
		snprintf(why, sizeof(why),
		         "the kernel's state could not be read: %s",
		         strerror(-rc));
		ports_applied(&d->ports, &pl, planned,
		              rc < 0 && rc != -EAGAIN ? NULL : res, why);
		if (rc == 0 || rc == -EAGAIN)
			ports_applied_global(&d->ports, &pl);
	}
	daemon_save_mtu(d);
	if (compiled)
		daemon_apply_kpfc(d);
	for (size_t i = 0; res && i < pl.nports; i++)
		writes += daemon_log_result(d, &res[i], i < planned,
		                            rc < 0 && rc != -EAGAIN,
		                            msgs != &own ? msgs : NULL);
	/* A failure always has a reason for the client. */
	if (rc < 0 && rc != -EAGAIN && msgs != &own && !msgs->nerrors)
		diag_err(msgs, 0, "%s", strerror(-rc));
	/* What each port advertises follows the plan now applied to it. */
	agents_dcbx_local(&d->agents, &d->ports, daemon_ms());
	d->stat_writes += writes;
	d->stats.kernel_writes += writes;
	show_stats_apply(&d->stats, (daemon_ms() - t0) / 1000.0);
	if (rc < 0 && rc != -EAGAIN)
		d->stats.apply_failures++;
	if (!n && rc >= 0 && res) {
		d->stat_ports = policy->nifaces;
		d->stat_warnings = warnings;
	}
	free(res);
	plan_free(&pl);
	diag_free(&own);
	/* A long pass (many ports, a loaded host) that is making progress
	 * is not a hang: a keep-alive that fell due meanwhile goes now. */
	svc_watchdog_kick(&d->svc);
	return rc == -EAGAIN ? 0 : rc;
}

/* PFC that DCBX enabled on a priority the port cannot hold is refused
 * by compile (plan_port.pfc_unrealisable): counted each time it is
 * refused anew, logged at most once a minute per port. */
static void daemon_dcbx_refused(struct daemon *d, const char *ifname)
{
	struct ports_port *e = ports_find(&d->ports, ifname);
	uint8_t now_refused;
	double now = daemon_ms();

	if (!e || !e->applied)
		return;
	now_refused = e->plan.pfc_unrealisable;
	if (now_refused && now_refused != e->dcbx.refused) {
		e->dcbx.refusals++;
		lldp_agent_refused(&d->agents.lldp, ifname);
		if (!e->dcbx.refused_logged ||
		    now - e->dcbx.refused_log_ms >= 60000.0) {
			e->dcbx.refused_logged = true;
			e->dcbx.refused_log_ms = now;
			log_warnx("%s: DCBX: PFC on priorities 0x%02x adopted: "
			          "not realisable (no queue software PFC can "
			          "hold): PFC stays off on them (%" PRIu64
			          " refusals so far)",
			          ifname, now_refused, e->dcbx.refusals);
		}
	}
	e->dcbx.refused = now_refused;
}

/* A DCBX agreement (or its end) reaches the kernel like any change:
 * the outcomes the LLDP agent changed go into the registry (compile
 * inputs), then one compile -> diff -> apply of their ports. One pass
 * settles: what a port advertises comes from its plan's own part
 * (plan_port.dcb_local, dcbx_willing), which no DCBX outcome changes,
 * so the apply an outcome causes does not change what the port
 * advertises, nor so the outcome. A later change is a new event. */
void daemon_dcbx(struct daemon *d)
{
	char(*names)[POLICY_IFNAME_MAX];
	size_t n = 0;

	if (!agents_dcbx_pull(&d->agents, &d->ports))
		return;
	names = calloc(d->ports.n, sizeof(*names));
	if (!names)
		return; /* still due: the next turn tries again */
	for (size_t i = 0; i < d->ports.n; i++)
		if (d->ports.v[i].dcbx.due)
			snprintf(names[n++], sizeof(names[0]), "%s",
			         d->ports.v[i].ifname);
	if (n) {
		daemon_apply(d, &d->policy, names, n, NULL);
		/* Software PFC honours what the apply enabled at once: the
		 * first pause after an agreement holds the queue (not only
		 * after the next reload). */
		agents_applied(&d->agents);
	}
	for (size_t i = 0; i < n; i++)
		daemon_dcbx_refused(d, names[i]);
	/* A port that did not compile stays as it was until its next
	 * change. */
	for (size_t i = 0; i < d->ports.n; i++)
		d->ports.v[i].dcbx.due = false;
	free(names);
}

static void daemon_status(struct daemon *d)
{
	char text[160];

	snprintf(text, sizeof(text), "%zu port%s, %zu write%s, %zu warning%s",
	         d->stat_ports, d->stat_ports == 1 ? "" : "s", d->stat_writes,
	         d->stat_writes == 1 ? "" : "s", d->stat_warnings,
	         d->stat_warnings == 1 ? "" : "s");
	svc_status(text);
}

/* Make CAND the running policy (a reload, a rocesh line): see
 * ctl_cmd_ops. */
static int daemon_commit(struct daemon *d, struct policy *cand,
                         struct diag *msgs)
{
	int rc = daemon_apply(d, cand, NULL, 0, msgs);

	if (rc == 0) {
		policy_free(&d->policy);
		d->policy = *cand;
		policy_init(cand);
		daemon_status(d);
		d->agents.dirty = true;
	}
	/* The registry follows the running policy: without the old ports
	 * after a commit, without the candidate's after a failed one. */
	ports_prune(&d->ports, &d->policy);
	return rc;
}

/* A file caught while it is being written (emptied by `>`, or cut off
 * before its interface list) still parses: every part of it is optional.
 * Applied, it would take roced's policy off every port it programs. A
 * file that means that says so with an interface list, even an empty
 * one; anything else needs a forced reload. */
static bool daemon_reload_wipes(const struct daemon *d,
                                const struct policy *fresh)
{
	return d->policy.nifaces && !fresh->nifaces && !fresh->ifaces_line;
}

static int daemon_reload_refuse(struct daemon *d, struct diag *msgs)
{
	size_t n = d->policy.nifaces;
	char ports[64];

	if (n == 1)
		snprintf(ports, sizeof(ports), "the port it programs");
	else
		snprintf(ports, sizeof(ports), "all %zu ports it programs", n);
	log_warnx("reload refused: %s has no interface list (empty, or cut "
	          "off while being written?) and would remove roced's "
	          "policy from %s; keeping the running "
	          "configuration. Write the file to a temporary name and "
	          "rename it over %s; to remove the policy from every port, "
	          "write `interface = ( );` in it or force the reload "
	          "(rocesh -c 'reload config force')",
	          d->opts->file, ports, d->opts->file);
	if (msgs)
		diag_err(msgs, 0,
		         "no interface list (empty, or cut off while being "
		         "written?): it would remove roced's policy from %s; "
		         "write `interface = ( );` to mean that, or force it "
		         "with `reload config force`",
		         ports);
	svc_ready(&d->svc, "reload refused, running configuration kept");
	return -EINVAL;
}

/* One port's running plan (RUN, NULL: none) against the candidate's
 * (CAND, NULL: the candidate drops the port) into R. */
static void daemon_preview_port(struct ctl_cmd_reload *r, const char *ifname,
                                const struct plan_port *run,
                                const struct plan_port *cand)
{
	size_t b0 = r->before.len, a0 = r->after.len;
	struct strbuf lines;

	if (run)
		plan_text_write_port(run, &r->before);
	if (cand)
		plan_text_write_port(cand, &r->after);
	if (r->before.oom || r->after.oom)
		return;
	strbuf_init(&lines);
	if (plan_text_diff(run ? r->before.s + b0 : "",
	                   cand ? r->after.s + a0 : "", &lines)) {
		r->ports_changed++;
		strbuf_printf(&r->text, "--- %s (running)\n+++ %s (%s)\n%s",
		              ifname, ifname,
		              cand ? "candidate" : "no longer configured",
		              lines.s ? lines.s : "");
	}
	r->text.oom |= lines.oom;
	strbuf_free(&lines);
}

/* What a reload of FRESH would change (R->dry_run): every port's plan
 * compiled from FRESH with the inputs the running one had (capabilities,
 * DCBX outcome, held and shut queues), against the plan it runs. Nothing
 * reaches the kernel and nothing in the registry changes (ports_plan). */
static int daemon_preview(struct daemon *d, const struct policy *fresh,
                          const char *file, struct ctl_cmd_reload *r,
                          struct diag *msgs)
{
	struct plan pl;
	int rc;

	plan_init(&pl);
	rc = daemon_plan(d, fresh, file, &pl, msgs);
	for (size_t i = 0; rc == 0 && i < pl.nports; i++) {
		const struct ports_port *e =
		    ports_find(&d->ports, pl.ports[i].ifname);

		daemon_preview_port(r, pl.ports[i].ifname,
		                    e && e->applied ? &e->plan : NULL,
		                    &pl.ports[i]);
	}
	/* The ports the candidate no longer plans lose roced's objects. */
	for (size_t i = 0; rc == 0 && i < d->ports.n; i++) {
		const struct ports_port *e = &d->ports.v[i];
		bool planned = false;

		for (size_t j = 0; j < pl.nports && !planned; j++)
			planned = !strcmp(pl.ports[j].ifname, e->ifname);
		if (!planned && e->applied)
			daemon_preview_port(r, e->ifname, &e->plan, NULL);
	}
	plan_free(&pl);
	r->ports_running = d->policy.nifaces;
	r->ports_candidate = fresh->nifaces;
	log_info("reload dry run of %s: %zu port%s would change", file,
	         r->ports_changed, r->ports_changed == 1 ? "" : "s");
	return rc < 0 ? -EINVAL : 0;
}

/* Parse and compile the file completely; swap only when both succeed. */
static int daemon_reload_file(struct daemon *d, struct ctl_cmd_reload *r,
                              struct diag *msgs)
{
	const char *file = r && r->file ? r->file : d->opts->file;
	bool dry = r && r->dry_run, force = r && r->force;
	size_t writes0 = d->stat_writes;
	struct policy fresh;
	struct diag diag;
	double t0, t1;
	int rc;

	if (dry)
		log_info("reload dry run of %s", file);
	else {
		log_info("reloading %s", file);
		svc_reloading();
	}
	t0 = daemon_ms();
	diag_init(&diag, file);
	rc = d->load ? d->load(d, file, &fresh, &diag)
	             : conf_load_file(file, &fresh, &diag);
	t1 = daemon_ms();
	daemon_log_diag(&diag, NULL);
	for (size_t i = 0; msgs && i < diag.n; i++)
		diag_add(msgs, diag.v[i].sev, diag.v[i].line, "%s",
		         diag.v[i].text ? diag.v[i].text : "?");
	if (rc < 0) {
		log_warnx("%s failed: %zu error%s, keeping the running "
		          "configuration",
		          dry ? "reload dry run" : "reload", diag.nerrors,
		          diag.nerrors == 1 ? "" : "s");
		diag_free(&diag);
		if (!dry)
			svc_ready(&d->svc,
			          "reload failed, running configuration kept");
		return -EINVAL;
	}
	diag_free(&diag);
	if (daemon_reload_wipes(d, &fresh)) {
		if (dry && !force) {
			policy_free(&fresh);
			diag_err(
			    msgs, 0,
			    "no interface list: a reload would be refused "
			    "(it would remove roced's policy from every "
			    "port); write `interface = ( );` to mean that");
			return -EINVAL;
		}
		if (!force) {
			policy_free(&fresh);
			return daemon_reload_refuse(d, msgs);
		}
		if (!dry)
			log_info("reload forced: %s has no interface list, "
			         "removing roced's policy from every port",
			         file);
	}
	if (dry) {
		rc = daemon_preview(d, &fresh, file, r, msgs);
		policy_free(&fresh);
		return rc;
	}
	rc = daemon_commit(d, &fresh, msgs);
	policy_free(&fresh);
	if (r)
		r->writes = d->stat_writes - writes0;
	/* The reload's apply repaired every port: fight for the contested
	 * ones again. */
	if (rc == 0)
		ports_uncontest(&d->ports);
	if (rc < 0) {
		log_warnx("reload: cannot apply the new configuration, keeping "
		          "the running one");
		svc_ready(&d->svc, "reload failed, running configuration kept");
		return rc;
	}
	/* How long a reload takes, file to kernel (bench/apply -d). */
	log_info("reloaded %s in %.2f ms (configuration %.2f ms)", file,
	         daemon_ms() - t0, t1 - t0);
	svc_ready(&d->svc, "reloaded");
	daemon_status(d);
	return 0;
}

int daemon_reload(struct daemon *d, struct ctl_cmd_reload *r, struct diag *msgs)
{
	int rc = daemon_reload_file(d, r, msgs);

	/* A dry run changes nothing and is no reload. */
	if (r && r->dry_run)
		return rc;
	/* show metrics: every reload counts, the refused ones too. */
	if (rc < 0)
		d->stats.reloads_failed++;
	else
		d->stats.reloads_ok++;
	d->stats.last_load_ok = rc == 0;
	d->stats.last_load_unix = daemon_unix();
	return rc;
}

/* Whether every port CAND names is a link here; the first that is not
 * goes into MSGS. */
static bool daemon_ports_exist(const struct policy *cand, struct diag *msgs)
{
	for (size_t i = 0; i < cand->nifaces; i++) {
		const struct policy_iface *f = &cand->ifaces[i];

		if (if_nametoindex(f->name))
			continue;
		diag_err(msgs, 0,
		         "interface %s%s%s%s does not exist: an atomic change "
		         "needs every port it names (best-effort leaves it "
		         "waiting for the port)",
		         f->name, f->alias[0] ? " (" : "", f->alias,
		         f->alias[0] ? ")" : "");
		return false;
	}
	return true;
}

/* The ports of CAND the last apply did not program, each into MSGS with
 * the registry's reason. Returns how many. */
static size_t daemon_refused(struct daemon *d, const struct policy *cand,
                             struct diag *msgs)
{
	size_t n = 0;

	for (size_t i = 0; i < cand->nifaces; i++) {
		const struct ports_port *e =
		    ports_find(&d->ports, cand->ifaces[i].name);

		if (e && e->applied && ports_state(e) == PLAN_PORT_PROGRAMMED)
			continue;
		diag_err(msgs, 0, "%s: not programmed: %s",
		         cand->ifaces[i].name,
		         e && e->reason[0] ? e->reason : "no plan applied");
		n++;
	}
	return n;
}

/* A rollback's or a session's change (ctl_cmd_ops.change): with
 * CTL_CHANGE_ATOMIC, all or nothing. A port the kernel refuses is
 * rolled back by reconcile on its own; the ports that took the change
 * are then put back by applying the running policy again, the same one
 * path, so that the kernel holds what it held before. */
static int daemon_change(struct daemon *d, struct policy *cand, unsigned flags,
                         struct diag *msgs)
{
	bool atomic = flags & CTL_CHANGE_ATOMIC;
	size_t w0 = d->stat_writes;
	int rc;

	if (atomic && !daemon_ports_exist(cand, msgs))
		return -ENODEV;
	if (flags & CTL_CHANGE_CHECK) {
		struct plan pl;

		plan_init(&pl);
		rc = daemon_plan(d, cand, "(candidate)", &pl, msgs);
		plan_free(&pl);
		return rc < 0 ? -EINVAL : 0;
	}
	if (!atomic)
		return daemon_commit(d, cand, msgs);
	rc = daemon_apply(d, cand, NULL, 0, msgs);
	if (rc == 0 && daemon_refused(d, cand, msgs)) {
		size_t w1 = d->stat_writes;

		rc = daemon_apply(d, &d->policy, NULL, 0, NULL);
		diag_err(msgs, 0,
		         "atomic: the change is undone (%zu kernel writes, "
		         "then %zu to put the ports back)%s",
		         w1 - w0, d->stat_writes - w1,
		         rc < 0 ? "; putting them back failed too: see the log"
		                : "");
		ports_prune(&d->ports, &d->policy);
		return -EIO;
	}
	if (rc == 0) {
		policy_free(&d->policy);
		d->policy = *cand;
		policy_init(cand);
		daemon_status(d);
		d->agents.dirty = true;
	}
	ports_prune(&d->ports, &d->policy);
	return rc;
}

/* The changes a control request may ask for (ctl_cmd.h). */
static int daemon_ctl_commit(void *d, struct policy *cand, struct diag *msgs)
{
	return daemon_commit(d, cand, msgs);
}

static int daemon_ctl_reload(void *d, struct ctl_cmd_reload *r,
                             struct diag *msgs)
{
	return daemon_reload(d, r, msgs);
}

static int daemon_ctl_change(void *d, struct policy *cand, unsigned flags,
                             struct diag *msgs)
{
	return daemon_change(d, cand, flags, msgs);
}

const struct ctl_cmd_ops daemon_ctl_ops = {
    .commit = daemon_ctl_commit,
    .reload = daemon_ctl_reload,
    .change = daemon_ctl_change,
};

/* --cleanup-on-exit: a release plan for every configured port, and the
 * ports roced configured before, removes roced's tc objects and gives
 * back the MTUs roced changed; DCB settings stay. */
void daemon_cleanup(struct daemon *d)
{
	struct reconcile_result *res = NULL;
	size_t writes = 0, planned;
	struct plan pl;
	int rc;

	plan_init(&pl);
	rc = ports_release(&d->ports, &d->policy, &pl);
	planned = pl.nports; /* the orphans engine_apply() adds follow */
	if (rc == 0)
		rc = engine_apply(&d->e, &pl, true, &res);
	if (res && (rc == 0 || rc == -EAGAIN)) {
		ports_applied(&d->ports, &pl, planned, res, NULL);
		daemon_save_mtu(d);
	}
	for (size_t i = 0; res && i < pl.nports; i++) {
		writes += res[i].writes;
		if (res[i].error[0])
			log_warnx("%s", res[i].error);
	}
	if (rc < 0 && rc != -EAGAIN)
		log_warnx("cleanup: %s", strerror(-rc));
	log_info("stopping, removed roced's objects (%zu write%s)", writes,
	         writes == 1 ? "" : "s");
	free(res);
	plan_free(&pl);
}
