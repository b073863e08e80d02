/* daemon: roced as a long-running process. One loop (os/loop.h: fds and
 * timers, each with its callback) waits on a signalfd, the link monitor,
 * the control socket, (under systemd with a watchdog) a timerfd, and the
 * agents' sockets and timers:
 *  - one roced per network namespace (ctl_instance_lock);
 *  - at start every configured port is reconciled, then systemd hears
 *    READY=1 (and a parent waiting for `roced -b`, "ready");
 *  - a configured port that appears (or is renamed into a configured name,
 *    or has its MTU changed by someone) is reconciled at once;
 *  - SIGHUP and the control socket's "reload" reload: the new file is
 *    parsed and compiled completely before anything is applied; on any
 *    error the running policy stays, and so it does, unless forced, when
 *    the file has no interface list while roced programs ports (a file
 *    caught half written);
 *  - a configuration line from rocesh takes the same path
 *    (daemon_commit: candidate policy -> compile -> apply -> swap);
 *  - SIGTERM/SIGINT stop, leaving the kernel state in place unless
 *    --cleanup-on-exit asks to remove roced's objects (and give back the
 *    MTUs roced changed);
 *  - the MTU a port had before roced first changed it is kept in the
 *    registry and in the state directory (ctl_state_path(".mtu")), and
 *    given back through the plan when no network-qos MTU applies to the
 *    port any more or the port is no longer configured.
 * This file is the loop, its events, and the start and stop; the passes
 * that change the kernel (apply, commit, reload, cleanup) are
 * daemon_apply.c's.
 */
#include "core/daemon.h"

#include <errno.h>
#include <grp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include "conf/conf.h"
#include "core/daemon_int.h"
#include "os/log.h"
#include "core/privs.h"
#include "os/rundir.h"
#include "kernel/bpfhold.h"
#include "kernel/probe.h"

/* A change by others is repaired this long after it is heard of, so that
 * a burst of them (a script of tc commands) is one repair. */
#define DAEMON_REPAIR_DELAY_MS 200.0
/* How long one turn of the loop may wait while a reload parses. */
#define DAEMON_LOAD_TURN_MS 10

#ifndef SO_NETNS_COOKIE
#define SO_NETNS_COOKIE 71 /* <asm-generic/socket.h>, Linux 5.14 */
#endif

/* The PFC watchdog's storm state that a previous roced left in the state
 * directory: shut queues stay shut from the first apply on,
 * and are restored by the usual rules. */
static void daemon_wd_load(struct daemon *d)
{
	struct wdpoll *w = &d->agents.wd;
	int rc;

	if (ctl_state_path(w->path, sizeof(w->path), ".pfcwd") < 0)
		w->path[0] = '\0';
	w->netns_cookie = d->ports.netns_cookie;
	w->load_action = d->policy.pfcwd.action;
	rc = wdpoll_load(w, daemon_ms());
	if (rc == -ESTALE) {
		log_info("%s was left by a network namespace that is gone: "
		         "removed",
		         w->path);
		unlink(w->path);
	} else if (rc < 0)
		log_warnx("cannot read the PFC watchdog's state from %s: %s",
		          w->path, strerror(-rc));
	else if (rc > 0)
		log_info("PFC watchdog: %d queue%s in storm or on probation "
		         "(%s)",
		         rc, rc == 1 ? "" : "s", w->path);
	/* The registry follows the running policy: the state of a port it
	 * no longer configures is dropped with the port's entry (the
	 * watchdog forgets what the registry does not hold). */
	ports_prune(&d->ports, &d->policy);
}

/* Port IFNAME's inputs changed (an agent's): reconcile it after this
 * batch of events. */
static void daemon_pend(struct daemon *d, const char *ifname)
{
	for (size_t i = 0; i < d->npending; i++)
		if (!strcmp(d->pending[i], ifname))
			return;
	if (d->npending == DAEMON_PENDING_MAX) {
		d->pending_all = true;
		return;
	}
	snprintf(d->pending[d->npending++], POLICY_IFNAME_MAX, "%s", ifname);
}

static void daemon_agent_reconcile(void *data, const char *ifname)
{
	struct daemon *d = data;

	if (policy_find_iface(&d->policy, ifname))
		daemon_pend(d, ifname);
}

static bool daemon_bond_member(const struct daemon *d, const char *ifname)
{
	const struct policy_iface *f = policy_find_iface(&d->policy, ifname);

	return f && f->bond[0];
}

static void daemon_link_event(enum link_event ev, const struct link_info *l,
                              const char *old_name, void *data)
{
	struct daemon *d = data;

	engine_link_event(&d->e, ev, l->ifindex);
	/* The port's capabilities are probed again at its next apply, and
	 * only then (not at a hold's). */
	ports_stale(&d->ports, l->name);
	if (old_name)
		ports_stale(&d->ports, old_name);
	if (ev != LINK_EV_MTU)
		d->agents.dirty = true;
	log_debug(LOG_SUB_LINK, "link %s: %s", l->name,
	          ev == LINK_EV_NEW      ? "new"
	          : ev == LINK_EV_DEL    ? "gone"
	          : ev == LINK_EV_RENAME ? "renamed"
	          : ev == LINK_EV_MTU    ? "mtu changed"
	                                 : "state changed");
	/* A member joining or leaving a bond (IFLA_MASTER), a bond or a
	 * member coming or going: the bonds' members are looked at again
	 * once the events are read. */
	if (ev != LINK_EV_MTU &&
	    (l->master || l->aggregate || ev == LINK_EV_DEL ||
	     ev == LINK_EV_RENAME || daemon_bond_member(d, l->name)))
		d->bonds_dirty = true;
	/* A port that went away takes its qdiscs with it: nothing to do. */
	if (ev == LINK_EV_DEL || ev == LINK_EV_STATE)
		return;
	if (!policy_find_iface(&d->policy, l->name))
		return;
	for (size_t i = 0; i < d->npending; i++)
		if (!strcmp(d->pending[i], l->name))
			return;
	if (d->npending == DAEMON_PENDING_MAX) {
		d->pending_all = true;
		return;
	}
	snprintf(d->pending[d->npending++], POLICY_IFNAME_MAX, "%s", l->name);
}

/* Someone else changed a tc object (engine.h): when it is on a port
 * roced configures, a repair of that port is due, unless the port is
 * contested. Whether the change touched roced's objects at all is for the
 * repair to find: it goes through the mirror (now dirty for the port),
 * observation and diff, and writes nothing when the port is as planned. */
static void daemon_tc_changed(const struct tc_event *ev, void *data)
{
	struct daemon *d = data;
	const struct policy_iface *f;
	struct ports_port *e;
	struct link_info li;
	char what[160], line[192];

	if (link_lookup_index(d->e.links, ev->ifindex, &li) < 0)
		return;
	f = policy_find_iface(&d->policy, li.name);
	e = f ? ports_find(&d->ports, f->name) : NULL;
	if (!e || !e->applied)
		return;
	tc_event_describe(ev, what, sizeof(what));
	snprintf(line, sizeof(line), "%s by %s", what,
	         ev->pid ? "another process" : "the kernel");
	log_debug(LOG_SUB_APPLY, "%s: %s%s", e->ifname, line,
	          e->contested ? " (contested: left alone)" : "");
	ports_changed(e, line, daemon_ms());
}

/* Holds that no roced controls (a roced before this one was killed or
 * hung while a pause held a queue) end now, before the probe and the
 * first apply, which can take seconds on a loaded host: a queue held
 * for nobody is a queue that only drops. */
static void daemon_release_left(void)
{
	size_t ports = 0, leaves = 0;
	char err[512];
	int rc;

	rc = engine_release_holds(&ports, &leaves, err, sizeof(err));
	if (rc < 0)
		log_warnx("cannot release the holds a roced before this one "
		          "left: %s",
		          err);
	else if (leaves)
		log_info("released %zu queue%s on %zu port%s that a roced "
		         "before this one left held",
		         leaves, leaves == 1 ? "" : "s", ports,
		         ports == 1 ? "" : "s");
}

/* Stopping without --cleanup-on-exit: the plans stay, but no queue may
 * stay held by a pause that roced will no longer time out. The holds
 * leave the ports' compile inputs and the ports that had one are
 * reconciled, like any release. */
static void daemon_release_holds(struct daemon *d)
{
	char(*names)[POLICY_IFNAME_MAX];
	size_t n = 0;

	names = calloc(d->ports.n ? d->ports.n : 1, sizeof(*names));
	if (!names)
		return;
	for (size_t i = 0; i < d->ports.n; i++) {
		struct ports_port *e = &d->ports.v[i];

		if (!e->watchdog.pfc_hold && !e->watchdog.lp_hold)
			continue;
		e->watchdog.pfc_hold = 0;
		e->watchdog.lp_hold = false;
		if (policy_find_iface(&d->policy, e->ifname))
			snprintf(names[n++], sizeof(names[0]), "%s", e->ifname);
	}
	if (n) {
		daemon_apply(d, &d->policy, names, n, NULL);
		log_info("stopping: released the holds of %zu port%s", n,
		         n == 1 ? "" : "s");
	}
	free(names);
}

static void daemon_signal(void *arg, int fd, double now_ms)
{
	struct daemon *d = arg;
	struct signalfd_siginfo si;

	(void)now_ms;
	if (read(fd, &si, sizeof(si)) != (ssize_t)sizeof(si))
		return;
	switch (si.ssi_signo) {
	case SIGHUP:
		daemon_reload(d, NULL, NULL);
		break;
	case SIGINT:
	case SIGTERM:
		svc_stopping();
		/* roced's stop removes the programs, as --release-holds
		 * does; only a roced that dies leaves them holding. */
		daemon_kpfc_stop(d);
		if (d->opts->cleanup) {
			daemon_cleanup(d);
		} else {
			daemon_release_holds(d);
			log_info("stopping, kernel state left in place");
		}
		/* The holds are released (or removed with the rest): the
		 * guard has nothing to do. */
		guard_stop(&d->guard);
		d->stop = true;
		break;
	}
}

/* The loop's callbacks for the daemon's own fds. */
static void daemon_ctl_readable(void *arg, int fd, double now_ms)
{
	(void)fd;
	(void)now_ms;
	ctl_srv_process(arg);
}

static void daemon_svc_readable(void *arg, int fd, double now_ms)
{
	(void)fd;
	(void)now_ms;
	svc_watchdog_kick(arg);
}

static void daemon_links(struct daemon *d)
{
	int rc = link_mon_process(d->e.links);

	if (rc == -ENOBUFS) {
		log_info("link events were lost; checking every port");
		d->pending_all = true;
	} else if (rc < 0) {
		log_warnx("link monitor: cannot read events");
	}
}

static void daemon_links_readable(void *arg, int fd, double now_ms)
{
	(void)fd;
	(void)now_ms;
	daemon_links(arg);
}

static void daemon_tc_readable(void *arg, int fd, double now_ms)
{
	(void)fd;
	(void)now_ms;
	engine_events(arg);
}

static void daemon_guard(void *arg, int fd, double now_ms);
static void daemon_timers(struct daemon *d);

static int daemon_setup(struct daemon *d)
{
	sigset_t mask;
	int rc, fd;

	sigemptyset(&mask);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	if (sigprocmask(SIG_BLOCK, &mask, NULL) < 0)
		return -errno;
	d->sigfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (d->sigfd < 0)
		return -errno;
	rc = loop_init(&d->loop);
	if (rc < 0)
		return rc;
	if ((rc = loop_fd_add(&d->loop, d->sigfd, daemon_signal, d)) < 0 ||
	    (rc = loop_fd_add(&d->loop, link_mon_fd(d->e.links),
	                      daemon_links_readable, d)) < 0 ||
	    (rc = loop_fd_add(&d->loop, ctl_srv_fd(d->ctl), daemon_ctl_readable,
	                      d->ctl)) < 0)
		return rc;
	agents_init(&d->agents, &d->loop, NULL, NULL);
	agents_set_daemon(&d->agents, &d->ports, &d->e.nl,
	                  daemon_agent_reconcile, d);
	agents_set_hwcnt(&d->agents, d->e.rc.ethtool, &d->e.nl, NULL, NULL);
	fd = guard_fd(&d->guard);
	if (fd >= 0 && (rc = loop_fd_add(&d->loop, fd, daemon_guard, d)) < 0)
		return rc;
	fd = svc_watchdog_open(&d->svc);
	if (fd >= 0 &&
	    (rc = loop_fd_add(&d->loop, fd, daemon_svc_readable, &d->svc)) < 0)
		return rc;
	daemon_timers(d);
	return 0;
}

/* After the first apply: mirror roced's tc objects, and hear about what
 * others change. */
static void daemon_mirror(struct daemon *d)
{
	char(*names)[POLICY_IFNAME_MAX];
	int rc;

	if (engine_mirror_start(&d->e) < 0) {
		log_warn("cannot subscribe to tc notifications (every "
		         "reconcile dumps every port)");
		return;
	}
	rc = loop_fd_add(&d->loop, engine_events_fd(&d->e), daemon_tc_readable,
	                 &d->e);
	if (rc < 0)
		log_warnx("cannot follow tc notifications: %s", strerror(-rc));
	/* Fill the mirror now (one observation of every configured port,
	 * after the subscription), not on the first reload; with the link
	 * cache up to date first (the MTU roced just set). */
	daemon_links(d);
	names =
	    calloc(d->policy.nifaces ? d->policy.nifaces : 1, sizeof(*names));
	for (size_t i = 0; names && i < d->policy.nifaces; i++)
		snprintf(names[i], sizeof(names[i]), "%s",
		         d->policy.ifaces[i].name);
	if (names && d->policy.nifaces) {
		daemon_apply(d, &d->policy, names, d->policy.nifaces, NULL);
		/* The link events just read (the MTU roced set) named
		 * configured ports, which that pass covered: not again at
		 * the first wake-up, whatever it is for. */
		if (!d->pending_all)
			d->npending = 0;
	}
	free(names);
	log_info("mirroring roced's tc objects of %zu port%s", d->e.mirror.n,
	         d->e.mirror.n == 1 ? "" : "s");
}

/* When a repair falls due or a contested port has been quiet long
 * enough (the repair timer's deadline; -1: never, 0: now). */
static double daemon_repair_next(void *arg, double now)
{
	const struct daemon *d = arg;
	double next = -1;

	(void)now;
	if (d->e.lost)
		return 0;
	for (size_t i = 0; i < d->ports.n; i++) {
		const struct ports_port *e = &d->ports.v[i];
		double at;

		if (e->repair_due)
			at = e->due_ms + DAEMON_REPAIR_DELAY_MS;
		else if (e->contested)
			at = e->changed_ms + PORTS_QUIET_MS;
		else
			continue;
		if (next < 0 || at < next)
			next = at;
	}
	return next;
}

/* Repair the ports whose repair is due, all in one pass; contested ports
 * that have been quiet long enough are repaired again. */
static void daemon_repairs(void *arg, double now)
{
	struct daemon *d = arg;
	char(*names)[POLICY_IFNAME_MAX] = NULL;
	size_t n = 0;

	/* Others may have changed any port: every one is checked (those
	 * the mirror vouches for are dirty now, so they are observed). */
	if (d->e.lost) {
		d->e.lost = false;
		log_info("tc notifications were lost: checking every port");
		for (size_t i = 0; i < d->ports.n; i++)
			if (d->ports.v[i].applied)
				ports_changed(&d->ports.v[i],
				              "changed by others (tc "
				              "notifications were lost)",
				              now);
	}
	for (size_t i = 0; i < d->ports.n; i++) {
		struct ports_port *e = &d->ports.v[i];

		if (ports_quiet(e, now))
			log_info("%s: not changed by others for %.0f s: no "
			         "longer contested",
			         e->ifname, PORTS_QUIET_MS / 1000);
		if (!e->repair_due || now < e->due_ms + DAEMON_REPAIR_DELAY_MS)
			continue;
		if (!names) {
			names = calloc(d->ports.n, sizeof(*names));
			if (!names)
				return; /* tried again on the next wake-up */
		}
		snprintf(names[n++], sizeof(names[0]), "%s", e->ifname);
	}
	if (n)
		daemon_apply(d, &d->policy, names, n, NULL);
	/* A pass that stopped short (the policy did not compile, no
	 * memory) left them due: not again at once, but with the next
	 * change (their mirror entries stay dirty meanwhile). */
	for (size_t i = 0; i < n; i++) {
		struct ports_port *e = ports_find(&d->ports, names[i]);

		if (e)
			e->repair_due = false;
	}
	free(names);
}

/* Around turns taken inside a reload (IN true, then false): the signals
 * and the control socket are left out of them, so that neither a SIGHUP
 * nor a second request starts a reload inside the reload; they are
 * heard after it. */
static void daemon_nested(struct daemon *d, bool in)
{
	d->nested = in;
	loop_fd_hold(&d->loop, d->sigfd, in);
	loop_fd_hold(&d->loop, ctl_srv_fd(d->ctl), in);
}

/* The guard (guard.h) exited: another, watched like the first. */
static void daemon_guard(void *arg, int fd, double now_ms)
{
	struct daemon *d = arg;
	int rc;

	(void)now_ms;
	loop_fd_del(&d->loop, fd);
	guard_reap(&d->guard, daemon_ms());
	fd = guard_fd(&d->guard);
	if (fd >= 0 && (rc = loop_fd_add(&d->loop, fd, daemon_guard, d)) < 0)
		log_warnx("cannot watch the guard: %s", strerror(-rc));
}

/* What link events and agents asked for (the pending timer's deadline:
 * now, when there is any). */
static double daemon_pending_next(void *arg, double now)
{
	const struct daemon *d = arg;

	(void)now;
	return d->bonds_dirty || d->npending || d->pending_all ? 0 : -1;
}

/* The ports link events and the agents named are applied, in one pass. */
static void daemon_pending(void *arg, double now)
{
	struct daemon *d = arg;

	(void)now;
	if (d->bonds_dirty) {
		d->bonds_dirty = false;
		if (daemon_bonds(d, &d->policy))
			d->pending_all = true;
	}
	if (d->pending_all) {
		daemon_apply(d, &d->policy, NULL, 0, NULL);
	} else if (d->npending) {
		daemon_apply(d, &d->policy, d->pending, d->npending, NULL);
	}
	if (d->npending || d->pending_all)
		agents_applied(&d->agents);
	d->npending = 0;
	d->pending_all = false;
}

/* The metrics textfile's next write. */
static double daemon_mfile_next(void *arg, double now)
{
	struct daemon *d = arg;
	int wait = mfile_wait(&d->mfile, now);

	return wait < 0 ? -1 : now + wait;
}

static void daemon_mfile(void *arg, double now)
{
	struct daemon *d = arg;

	mfile_tick(&d->mfile, &d->cmd, now);
}

/* A confirmed commit's deadline (wall clock), not inside a reload's
 * turns. */
static double daemon_sess_next(void *arg, double now)
{
	struct daemon *d = arg;
	int wait = d->nested ? -1 : ctl_sess_wait(&d->ckpt, daemon_unix());

	return wait < 0 ? -1 : now + wait;
}

static void daemon_sess(void *arg, double now)
{
	struct daemon *d = arg;

	(void)now;
	if (!d->nested)
		ctl_sess_tick(&d->cmd, daemon_unix());
}

/* Before the loop sleeps: the agents follow the ports that the last
 * commit or link events left; the metrics textfile its setting. */
static void daemon_before_wait(void *arg, double now)
{
	struct daemon *d = arg;

	if (d->agents.dirty) {
		agents_sync(&d->agents, &d->ports, d->e.links);
		agents_dcbx_local(&d->agents, &d->ports, daemon_ms());
	}
	mfile_configure(&d->mfile, &d->ports.global, now);
}

/* After every turn: what DCBX agreed on is applied. */
static void daemon_after_timers(void *arg, double now)
{
	(void)now;
	daemon_dcbx(arg);
}

/* The daemon's timers, the earliest due first: what events asked to be
 * applied (due at once), repairs, the metrics textfile, a confirmed
 * commit's deadline (the agents add theirs, agents_init). */
static void daemon_timers(struct daemon *d)
{
	if (!loop_timer_add(&d->loop, daemon_pending, daemon_pending_next, d) ||
	    !loop_timer_add(&d->loop, daemon_repairs, daemon_repair_next, d) ||
	    !loop_timer_add(&d->loop, daemon_mfile, daemon_mfile_next, d) ||
	    !loop_timer_add(&d->loop, daemon_sess, daemon_sess_next, d) ||
	    loop_hook_add(&d->loop, LOOP_BEFORE_WAIT, daemon_before_wait, d) <
	        0 ||
	    loop_hook_add(&d->loop, LOOP_AFTER_TIMERS, daemon_after_timers, d) <
	        0)
		log_warnx("the event loop: out of memory");
}

/* One turn of the event loop: wait for events (at most MAX_MS, -1: as
 * long as nothing falls due), handle them, run the timers that are due.
 * Returns -1 when the wait fails. */
static int daemon_turn(struct daemon *d, int max_ms)
{
	int rc = loop_turn(&d->loop, max_ms);

	if (rc < 0) {
		log_warnx("epoll_wait: %s", strerror(-rc));
		return -1;
	}
	return 0;
}

/* The file is parsed in a thread of its own (conf_load_file is pure: it
 * touches nothing but its arguments) while the loop goes on serving
 * repairs, link events, the agents and the watchdog: a large file never
 * holds them up for longer than one turn (DAEMON_LOAD_TURN_MS). */
struct daemon_loader {
	const char *path;
	struct policy *out;
	struct diag *diag;
	int rc;
	atomic_bool done;
};

static void *daemon_loader_run(void *arg)
{
	struct daemon_loader *l = arg;

	/* On a loaded CPU the loop comes first: a nice value is the
	 * thread's own on Linux. */
	if (setpriority(PRIO_PROCESS, (id_t)gettid(), 19) < 0)
		(void)0; /* the parse merely competes on equal terms */
	l->rc = conf_load_file(l->path, l->out, l->diag);
	atomic_store(&l->done, true);
	return NULL;
}

static int daemon_load(struct daemon *d, const char *path, struct policy *out,
                       struct diag *diag)
{
	struct daemon_loader l = {path, out, diag, 0, false};
	double longest = 0, t0;
	unsigned turns = 0;
	pthread_t t;

	if (pthread_create(&t, NULL, daemon_loader_run, &l) != 0)
		return conf_load_file(path, out, diag);
	daemon_nested(d, true);
	while (!atomic_load(&l.done)) {
		t0 = daemon_ms();
		if (daemon_turn(d, DAEMON_LOAD_TURN_MS) < 0)
			break;
		turns++;
		if (daemon_ms() - t0 > longest)
			longest = daemon_ms() - t0;
	}
	pthread_join(t, NULL);
	daemon_nested(d, false);
	/* What the loop did meanwhile (bench/conf reads it). */
	log_debug(LOG_SUB_CONF,
	          "parsed in a thread; the loop turned %u times meanwhile, "
	          "the longest turn %.1f ms",
	          turns, longest);
	return l.rc;
}

static void daemon_loop(struct daemon *d)
{
	while (!d->stop)
		if (daemon_turn(d, -1) < 0)
			return;
}

/* The network namespace's cookie, 0 when the kernel has none (before
 * 5.14). */
static uint64_t daemon_netns_cookie(void)
{
	uint64_t cookie = 0;
	socklen_t len = sizeof(cookie);
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return 0;
	if (getsockopt(fd, SOL_SOCKET, SO_NETNS_COOKIE, &cookie, &len) < 0)
		cookie = 0;
	close(fd);
	return cookie;
}

/* The control socket's settings: -G GROUP (a name or a number) owns it
 * and may configure. */
static int daemon_ctl_group(const struct daemon_opts *o,
                            struct ctl_srv_config *c)
{
	const struct group *g;
	char *end;
	unsigned long v;

	memset(c, 0, sizeof(*c));
	if (!o->ctl_group)
		return 0;
	g = getgrnam(o->ctl_group);
	if (g) {
		c->group = g->gr_gid;
	} else {
		errno = 0;
		v = strtoul(o->ctl_group, &end, 10);
		if (errno || !*o->ctl_group || *end || v >= (gid_t)-1) {
			log_warnx("--ctl-group: no group '%s'", o->ctl_group);
			return -EINVAL;
		}
		c->group = (gid_t)v;
	}
	c->have_group = true;
	return 0;
}

int daemon_run(const struct daemon_opts *o)
{
	struct daemon *d = calloc(1, sizeof(*d));
	struct ctl_srv_config ctl;
	struct caps kernel = {0};
	struct diag diag;
	char err[256], note[128];
	int rc = 1, preset;

	if (!d)
		return 1;
	d->opts = o;
	d->load = daemon_load;
	d->stats.start_unix = d->stats.last_load_unix = daemon_unix();
	d->stats.last_load_ok = true;
	mfile_init(&d->mfile);
	d->sigfd = d->lockfd = -1;
	d->loop.epfd = -1;
	guard_init(&d->guard);
	svc_init(&d->svc);
	log_init("roced", o->syslog);
	diag_init(&diag, o->file);
	if (conf_load_file(o->file, &d->policy, &diag) < 0) {
		daemon_log_diag(&diag, NULL);
		log_warnx("%zu error%s in %s", diag.nerrors,
		          diag.nerrors == 1 ? "" : "s", o->file);
		goto out_diag;
	}
	daemon_log_diag(&diag, NULL);
	if (daemon_ctl_group(o, &ctl) < 0)
		goto out_policy;
	/* Before anything touches the kernel: one roced per namespace. */
	d->lockfd = ctl_instance_lock(err, sizeof(err));
	if (d->lockfd < 0) {
		log_warnx("%s", err);
		goto out_policy;
	}
	/* The state directory is checked before anything is read from it
	 * or written to it: root's, closed to others. */
	if (rundir_prepare(CTL_DIR, err, sizeof(err)) < 0) {
		log_warnx("%s", err);
		goto out_policy;
	}
	if (o->background && svc_daemonize(&d->svc, err, sizeof(err)) < 0) {
		log_warnx("%s", err);
		goto out_policy;
	}
	daemon_release_left();
	/* From here a hold can exist: the guard outlives roced to release
	 * it. Forked while roced has one thread and before the control
	 * socket and the netlink sockets exist. */
	rc = guard_start(&d->guard);
	if (rc < 0)
		log_warnx("cannot start the guard that releases roced's holds "
		          "if it dies (%s): a roced killed while it holds a "
		          "queue leaves it held until `roced --release-holds`",
		          strerror(-rc));
	rc = 1;
	preset = caps_preset_parse(o->caps);
	if (preset >= 0) {
		caps_preset(&kernel, (enum caps_preset)preset);
	} else if (probe_kernel(&kernel, err, sizeof(err)) < 0) {
		log_warnx("%s", err);
		goto out_policy;
	}
	/* the build's part: whether software PFC may run in the kernel */
	kernel.bpf_progs = bpfhold_built(NULL);
	ports_init(&d->ports, &kernel, preset < 0);
	d->ports.kpfc = o->kpfc;
	d->ports.netns_cookie = daemon_netns_cookie();
	if (ctl_state_path(d->mtu_path, sizeof(d->mtu_path), ".mtu") < 0)
		d->mtu_path[0] = '\0';
	rc = d->mtu_path[0] ? ports_mtu_load(&d->ports, d->mtu_path) : 0;
	if (rc == -ESTALE) {
		log_info("%s was left by a network namespace that is gone: "
		         "removed",
		         d->mtu_path);
		unlink(d->mtu_path);
	} else if (rc < 0)
		log_warnx("cannot read the ports' MTUs to give back from %s: "
		          "%s",
		          d->mtu_path, strerror(-rc));
	else if (rc > 0)
		log_info("%d port MTU%s to give back (%s)", rc,
		         rc == 1 ? "" : "s", d->mtu_path);
	rc = 1;
	if (engine_open(&d->e, false, daemon_link_event, d) < 0) {
		log_warn("cannot open netlink");
		goto out_policy;
	}
	d->e.changed = daemon_tc_changed;
	d->e.changed_data = d;
	d->cmd =
	    (struct ctl_cmd_ctx){.ops = &daemon_ctl_ops,
	                         .daemon = d,
	                         .policy = &d->policy,
	                         .file = o->file,
	                         .e = &d->e,
	                         .ports = &d->ports,
	                         .lldp = &d->agents.lldp,
	                         .agents = &d->agents,
	                         .stats = &d->stats,
	                         .writes = &d->stat_writes,
	                         .caps_preset = preset >= 0 ? o->caps : NULL,
	                         .started_ms = daemon_ms()};
	{
		char dir[256];

		/* Kept where the MTUs are: they outlive a restart. */
		if (ctl_state_path(dir, sizeof(dir), ".checkpoint") < 0)
			dir[0] = '\0';
		ctl_ckpt_open(&d->ckpt, dir, d->ports.netns_cookie);
		d->cmd.ckpt = &d->ckpt;
	}
	if (ctl_srv_open(&d->ctl, &ctl, ctl_cmd_handle, &d->cmd, err,
	                 sizeof(err)) < 0) {
		log_warnx("control socket: %s", err);
		goto out_engine;
	}
	if (daemon_setup(d) < 0) {
		log_warn("cannot set up the event loop");
		goto out_engine;
	}
	/* Everything that needs more than the network's capabilities is
	 * done (probe, state directory, pid file, the socket and its
	 * group): least privilege from here on. */
	if (privs_realtime(o->rtprio, note, sizeof(note), err, sizeof(err)) < 0)
		log_warnx("%s", err);
	else
		log_info("%s", note);
	if (privs_drop(note, sizeof(note), err, sizeof(err)) < 0)
		log_warnx("%s: running with the capabilities it was given",
		          err);
	else
		log_debug(LOG_SUB_CTL, "%s", note);
	daemon_wd_load(d);
	log_info("started with %s, %zu port%s, control socket %s", o->file,
	         d->policy.nifaces, d->policy.nifaces == 1 ? "" : "s",
	         ctl_srv_path(d->ctl));
	rc = daemon_apply(d, &d->policy, NULL, 0, NULL);
	if (rc < 0)
		log_warnx("the first apply failed (%s, see above); waiting "
		          "for events",
		          strerror(-rc));
	/* A confirmed commit the last roced left unconfirmed goes back. */
	ctl_sess_restore(&d->cmd);
	daemon_mirror(d);
	snprintf(err, sizeof(err), "%zu port%s, %zu write%s, %zu warning%s",
	         d->stat_ports, d->stat_ports == 1 ? "" : "s", d->stat_writes,
	         d->stat_writes == 1 ? "" : "s", d->stat_warnings,
	         d->stat_warnings == 1 ? "" : "s");
	svc_ready(&d->svc, err);
	daemon_loop(d);
	mfile_stop(&d->mfile);
	rc = 0;
out_engine:
	agents_free(&d->agents);
	ctl_srv_close(d->ctl);
	strbuf_free(&d->cmd.told);
	ctl_cmd_free(&d->cmd);
	ctl_sess_close(&d->ckpt);
	ctl_ckpt_close(&d->ckpt);
	engine_close(&d->e);
out_policy:
	ports_free(&d->ports);
	policy_free(&d->policy);
out_diag:
	diag_free(&diag);
	svc_close(&d->svc);
	if (d->lockfd >= 0)
		close(d->lockfd);
	if (d->sigfd >= 0)
		close(d->sigfd);
	loop_free(&d->loop);
	free(d);
	return rc;
}
