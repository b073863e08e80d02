/* guard: see guard.h. */
#include "core/guard.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <syslog.h>
#include <unistd.h>

#include "core/privs.h"
#include "ctl/ctl.h"
#include "kernel/engine.h"
#include "os/log.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

static int guard_pidfd(pid_t pid)
{
	long fd = syscall(SYS_pidfd_open, pid, 0);

	return fd < 0 ? -1 : (int)fd;
}

/* Does a roced run in this namespace now? Its instance lock (an abstract
 * socket, ctl_instance_lock) answers a connect. */
static bool guard_roced_runs(void)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	socklen_t len;
	bool runs;
	int fd, n;

	n = snprintf(sa.sun_path + 1, sizeof(sa.sun_path) - 1, "roced.%lu",
	             ctl_netns_inode());
	len =
	    (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)n);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return false;
	runs = connect(fd, (struct sockaddr *)&sa, len) == 0 ||
	       errno == EAGAIN || errno == EINPROGRESS;
	close(fd);
	return runs;
}

/* roced died: release what it held, unless a roced runs again. */
static int guard_release(pid_t parent)
{
	size_t ports = 0, leaves = 0;
	char err[512];
	int rc;

	if (guard_roced_runs()) {
		log_info("guard: roced (pid %d) is gone and another runs: "
		         "its holds are its own, nothing released",
		         (int)parent);
		return 0;
	}
	rc = engine_release_holds(&ports, &leaves, err, sizeof(err));
	if (rc < 0) {
		log_warnx("guard: roced (pid %d) is gone; cannot release the "
		          "queues it held: %s",
		          (int)parent, err);
		return 1;
	}
	if (!leaves)
		return 0; /* it held none: nothing to say */
	log_info("guard: roced (pid %d) is gone; released %zu queue%s on "
	         "%zu port%s it held",
	         (int)parent, leaves, leaves == 1 ? "" : "s", ports,
	         ports == 1 ? "" : "s");
	return 0;
}

/* Close every descriptor from FIRST up. close_range() may be refused by
 * a system call filter; then one by one, up to the limit. */
static void guard_close_from(int first)
{
	long max;

	if (syscall(SYS_close_range, first, ~0U, 0) == 0)
		return;
	max = sysconf(_SC_OPEN_MAX);
	if (max < 0 || max > 65536)
		max = 65536;
	for (int fd = first; fd < max; fd++)
		close(fd);
}

/* The guard's life: RFD is the pipe from roced, PARENT_FD a pidfd of
 * roced (-1 where the kernel has none). A byte on the pipe is a clean
 * stop; the pipe closing or the pidfd turning readable is roced's end.
 * The pidfd is what proves roced has exited, descriptors and instance
 * lock included: the pipe closes while it still exits. */
static void guard_child(int rfd, int parent_fd, pid_t parent)
{
	struct pollfd p[2] = {{.fd = rfd, .events = POLLIN},
	                      {.fd = parent_fd, .events = POLLIN}};
	char note[128], err[128], c;
	sigset_t none;

	/* roced blocks the signals its signalfd reads: a guard that kept
	 * them blocked would outlive a unit's stop by its timeout. */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGINT, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	/* Every descriptor but the standard ones and the two it waits on:
	 * roced's instance lock, control socket and pid file lock among
	 * them, which must go with roced, not with its guard. */
	closelog();
	if (dup2(rfd, 3) < 0 || (parent_fd >= 0 && dup2(parent_fd, 4) < 0))
		_exit(1);
	p[0].fd = 3;
	p[1].fd = parent_fd >= 0 ? 4 : -1;
	guard_close_from(parent_fd >= 0 ? 5 : 4);
	prctl(PR_SET_NAME, "roced-guard", 0, 0, 0);
	if (privs_drop(note, sizeof(note), err, sizeof(err)) < 0)
		log_warnx("guard: %s", err);
	for (;;) {
		ssize_t n;

		if (poll(p, p[1].fd >= 0 ? 2 : 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			_exit(1);
		}
		if (p[0].revents) {
			n = read(p[0].fd, &c, 1);
			if (n == 1)
				_exit(0); /* a clean stop */
			if (n < 0 && errno == EINTR)
				continue;
			/* Closed: roced is exiting. Wait for the pidfd
			 * to say it has. */
			p[0].fd = -1;
			if (p[1].fd < 0)
				break;
		}
		if (p[1].fd >= 0 && p[1].revents)
			break;
	}
	_exit(guard_release(parent));
}

void guard_init(struct guard *g)
{
	memset(g, 0, sizeof(*g));
	g->wfd = g->pidfd = -1;
}

int guard_start(struct guard *g)
{
	pid_t parent = getpid(), pid;
	int fds[2], self, rc;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	self = guard_pidfd(parent);
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		close(fds[0]);
		close(fds[1]);
		if (self >= 0)
			close(self);
		return rc;
	}
	if (pid == 0) {
		close(fds[1]);
		guard_child(fds[0], self, parent);
	}
	close(fds[0]);
	if (self >= 0)
		close(self);
	g->pid = pid;
	g->wfd = fds[1];
	g->pidfd = guard_pidfd(pid);
	return 0;
}

int guard_fd(const struct guard *g)
{
	return g->pidfd;
}

void guard_reap(struct guard *g, double now_ms)
{
	int status = 0, rc;

	if (!g->pid)
		return;
	if (waitpid(g->pid, &status, WNOHANG) == 0)
		return; /* not gone after all */
	if (g->pidfd >= 0)
		close(g->pidfd);
	if (g->wfd >= 0)
		close(g->wfd);
	g->pid = 0;
	g->wfd = g->pidfd = -1;
	/* One that dies as soon as it is replaced would be forked in a
	 * loop: a second death within GUARD_RESPAWN_MS of the first ends
	 * the replacing. */
	if (g->reaped_ms > 0 && now_ms - g->reaped_ms < GUARD_RESPAWN_MS) {
		log_warnx("the guard that releases roced's holds if it dies "
		          "exited at once again (%s %d): running without one",
		          WIFSIGNALED(status) ? "signal" : "status",
		          WIFSIGNALED(status) ? WTERMSIG(status)
		                              : WEXITSTATUS(status));
		return;
	}
	g->reaped_ms = now_ms;
	rc = guard_start(g);
	log_warnx("the guard that releases roced's holds if it dies exited "
	          "(%s %d): %s",
	          WIFSIGNALED(status) ? "signal" : "status",
	          WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status),
	          rc < 0 ? strerror(-rc) : "another started");
}

void guard_stop(struct guard *g)
{
	if (!g->pid)
		return;
	if (g->wfd >= 0 && write(g->wfd, "q", 1) != 1)
		log_warn("cannot tell the guard roced stops cleanly");
	if (g->wfd >= 0)
		close(g->wfd);
	/* Gone before roced is: whoever waits for roced to stop finds no
	 * process of its left. It exits as soon as it reads; the bound is
	 * for a guard stopped by someone. */
	if (g->pidfd >= 0) {
		struct pollfd p = {.fd = g->pidfd, .events = POLLIN};

		poll(&p, 1, GUARD_STOP_WAIT_MS);
		close(g->pidfd);
	}
	waitpid(g->pid, NULL, WNOHANG);
	g->pid = 0;
	g->wfd = g->pidfd = -1;
}
