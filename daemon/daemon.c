/* daemon: roced as a long-running process. One epoll loop waits on a
 * signalfd and on the link monitor:
 *  - at start every configured port is reconciled;
 *  - a configured port that appears (or is renamed into a configured name,
 *    or has its MTU changed by someone) is reconciled at once;
 *  - SIGHUP reloads: the new file is parsed and compiled completely before
 *    anything is applied; on any error the running policy stays;
 *  - SIGTERM/SIGINT stop, leaving the kernel state in place.
 */
#include "daemon.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "compile.h"
#include "conf.h"
#include "engine.h"
#include "log.h"
#include "probe.h"

#define DAEMON_PENDING_MAX 256

struct daemon {
	const struct daemon_opts *opts;
	struct policy policy;
	struct caps kernel;
	bool preset;
	struct engine e;
	int epfd, sigfd;
	/* Ports named by link events, reconciled after the event batch. */
	char pending[DAEMON_PENDING_MAX][POLICY_IFNAME_MAX];
	size_t npending;
	bool pending_all;
	bool stop;
};

static void daemon_log_diag(const struct diag *d, const char *port)
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

/* Compile POLICY for NAMES (all configured ports when N is 0) and apply. */
static int daemon_apply(struct daemon *d, const struct policy *policy,
                        char (*names)[POLICY_IFNAME_MAX], size_t n)
{
	struct compile_port *ports;
	struct reconcile_result *res = NULL;
	struct plan pl;
	size_t np = 0;
	int rc;

	ports = calloc(n                 ? n
	               : policy->nifaces ? policy->nifaces
	                                 : 1,
	               sizeof(*ports));
	if (!ports)
		return -ENOMEM;
	if (n) {
		for (size_t i = 0; i < n; i++) {
			const struct policy_iface *f =
			    policy_find_iface(policy, names[i]);

			/* Only configured ports (by name or alias). */
			if (!f)
				continue;
			snprintf(ports[np].ifname, sizeof(ports[np].ifname),
			         "%s", f->name);
			ports[np].caps = d->kernel;
			np++;
		}
	} else {
		for (size_t i = 0; i < policy->nifaces; i++, np++) {
			snprintf(ports[np].ifname, sizeof(ports[np].ifname),
			         "%s", policy->ifaces[i].name);
			ports[np].caps = d->kernel;
		}
	}
	/* The port part of all ports in one go (dumps when they are many). */
	if (!d->preset && np && probe_ports(ports, np, NULL) < 0)
		log_warnx("cannot probe the ports: planning them as software "
		          "ports of unknown speed");
	plan_init(&pl);
	rc = compile_policy(policy, ports, np, &pl);
	free(ports);
	if (rc == 0 && pl.diag.nerrors)
		rc = -EINVAL;
	/* A full apply also removes roced's objects from ports the
	 * configuration no longer names. */
	if (rc == 0)
		rc = engine_apply(&d->e, &pl, !n, &res);
	/* What the kernel cannot realise, once per full apply (not on every
	 * link event). */
	for (size_t i = 0; !n && i < pl.nports; i++)
		daemon_log_diag(&pl.ports[i].warnings, pl.ports[i].ifname);
	for (size_t i = 0; res && i < pl.nports; i++) {
		if (res[i].status == RECONCILE_ABSENT) {
			log_debug(LOG_SUB_APPLY, "%s: absent, waiting for it",
			          res[i].ifname);
			continue;
		}
		if (res[i].error[0])
			log_warnx("%s", res[i].error);
		log_debug(LOG_SUB_APPLY, "%s: %s, %zu writes", res[i].ifname,
		          reconcile_status_name(res[i].status), res[i].writes);
		if (res[i].writes)
			log_info("%s: %s, %zu write%s", res[i].ifname,
			         reconcile_status_name(res[i].status),
			         res[i].writes, res[i].writes == 1 ? "" : "s");
	}
	free(res);
	plan_free(&pl);
	return rc == -EAGAIN ? 0 : rc;
}

static void daemon_link_event(enum link_event ev, const struct link_info *l,
                              const char *old_name, void *data)
{
	struct daemon *d = data;

	(void)old_name;
	log_debug(LOG_SUB_LINK, "link %s: %s", l->name,
	          ev == LINK_EV_NEW      ? "new"
	          : ev == LINK_EV_DEL    ? "gone"
	          : ev == LINK_EV_RENAME ? "renamed"
	          : ev == LINK_EV_MTU    ? "mtu changed"
	                                 : "state changed");
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

/* Parse and compile the file completely; swap only when both succeed. */
static void daemon_reload(struct daemon *d)
{
	struct policy fresh;
	struct diag diag;

	log_info("reloading %s", d->opts->file);
	diag_init(&diag, d->opts->file);
	if (conf_load_file(d->opts->file, &fresh, &diag) < 0) {
		daemon_log_diag(&diag, NULL);
		log_warnx("reload failed: %zu error%s, keeping the running "
		          "configuration",
		          diag.nerrors, diag.nerrors == 1 ? "" : "s");
		diag_free(&diag);
		return;
	}
	daemon_log_diag(&diag, NULL);
	diag_free(&diag);
	if (daemon_apply(d, &fresh, NULL, 0) < 0) {
		log_warnx("reload: cannot apply the new configuration, keeping "
		          "the running one");
		policy_free(&fresh);
		return;
	}
	policy_free(&d->policy);
	d->policy = fresh;
	log_info("reloaded %s", d->opts->file);
}

static int daemon_signal(struct daemon *d)
{
	struct signalfd_siginfo si;

	if (read(d->sigfd, &si, sizeof(si)) != (ssize_t)sizeof(si))
		return 0;
	switch (si.ssi_signo) {
	case SIGHUP:
		daemon_reload(d);
		break;
	case SIGINT:
	case SIGTERM:
		log_info("stopping, kernel state left in place");
		d->stop = true;
		break;
	}
	return 0;
}

static int daemon_setup(struct daemon *d)
{
	struct epoll_event ev = {.events = EPOLLIN};
	sigset_t mask;

	sigemptyset(&mask);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	if (sigprocmask(SIG_BLOCK, &mask, NULL) < 0)
		return -errno;
	d->sigfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	d->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (d->sigfd < 0 || d->epfd < 0)
		return -errno;
	ev.data.fd = d->sigfd;
	if (epoll_ctl(d->epfd, EPOLL_CTL_ADD, d->sigfd, &ev) < 0)
		return -errno;
	ev.data.fd = link_mon_fd(d->e.links);
	if (epoll_ctl(d->epfd, EPOLL_CTL_ADD, ev.data.fd, &ev) < 0)
		return -errno;
	return 0;
}

static void daemon_loop(struct daemon *d)
{
	while (!d->stop) {
		struct epoll_event evs[8];
		int n = epoll_wait(d->epfd, evs, 8, -1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			log_warn("epoll_wait");
			return;
		}
		for (int i = 0; i < n; i++) {
			if (evs[i].data.fd == d->sigfd)
				daemon_signal(d);
			else if (link_mon_process(d->e.links) < 0)
				log_warnx("link monitor: cannot read events");
		}
		if (d->pending_all) {
			daemon_apply(d, &d->policy, NULL, 0);
		} else if (d->npending) {
			daemon_apply(d, &d->policy, d->pending, d->npending);
		}
		d->npending = 0;
		d->pending_all = false;
	}
}

int daemon_run(const struct daemon_opts *o)
{
	struct daemon *d = calloc(1, sizeof(*d));
	struct diag diag;
	char err[256];
	int rc = 1, preset;

	if (!d)
		return 1;
	d->opts = o;
	d->sigfd = d->epfd = -1;
	log_init("roced", o->syslog);
	diag_init(&diag, o->file);
	if (conf_load_file(o->file, &d->policy, &diag) < 0) {
		daemon_log_diag(&diag, NULL);
		log_warnx("%zu error%s in %s", diag.nerrors,
		          diag.nerrors == 1 ? "" : "s", o->file);
		goto out_diag;
	}
	daemon_log_diag(&diag, NULL);
	preset = caps_preset_parse(o->caps);
	if (preset >= 0) {
		caps_preset(&d->kernel, (enum caps_preset)preset);
		d->preset = true;
	} else if (probe_kernel(&d->kernel, err, sizeof(err)) < 0) {
		log_warnx("%s", err);
		goto out_policy;
	}
	if (engine_open(&d->e, false, daemon_link_event, d) < 0) {
		log_warn("cannot open netlink");
		goto out_policy;
	}
	if (daemon_setup(d) < 0) {
		log_warn("cannot set up the event loop");
		goto out_engine;
	}
	log_info("started with %s, %zu port%s", o->file, d->policy.nifaces,
	         d->policy.nifaces == 1 ? "" : "s");
	if (daemon_apply(d, &d->policy, NULL, 0) < 0)
		log_warnx("the first apply failed; waiting for events");
	daemon_loop(d);
	rc = 0;
out_engine:
	engine_close(&d->e);
out_policy:
	policy_free(&d->policy);
out_diag:
	diag_free(&diag);
	if (d->sigfd >= 0)
		close(d->sigfd);
	if (d->epfd >= 0)
		close(d->epfd);
	free(d);
	return rc;
}
