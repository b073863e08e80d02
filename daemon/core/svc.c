/* svc: see svc.h. */
#include "core/svc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <systemd/sd-daemon.h>

#include "ctl/ctl.h"
#include "os/log.h"
#include "os/rundir.h"

void svc_init(struct svc *s)
{
	memset(s, 0, sizeof(*s));
	s->watchdog_fd = -1;
	s->ready_fd = -1;
}

static int svc_write_pidfile(struct svc *s, char *err, size_t errlen)
{
	char buf[32];
	int rc;

	rc = ctl_state_path(s->pidfile, sizeof(s->pidfile), ".pid");
	if (rc < 0) {
		snprintf(err, errlen, "no pid file path: %s", strerror(-rc));
		return rc;
	}
	rc = rundir_prepare(CTL_DIR, err, errlen);
	if (rc < 0)
		return rc;
	/* A new file renamed into place: never written through a link. */
	snprintf(buf, sizeof(buf), "%d\n", (int)getpid());
	rc = rundir_write(s->pidfile, buf, 0644);
	if (rc < 0) {
		snprintf(err, errlen, "cannot write %s: %s", s->pidfile,
		         strerror(-rc));
		return rc;
	}
	s->pidfile_written = true;
	return 0;
}

int svc_daemonize(struct svc *s, char *err, size_t errlen)
{
	int p[2], rc, null;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0) {
		rc = -errno;
		snprintf(err, errlen, "pipe: %s", strerror(-rc));
		return rc;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		snprintf(err, errlen, "fork: %s", strerror(-rc));
		close(p[0]);
		close(p[1]);
		return rc;
	}
	if (pid > 0) {
		char c;
		ssize_t n;

		/* The child says "ready" with one byte; it closes the pipe
		 * without one when it fails (or dies). */
		close(p[1]);
		do
			n = read(p[0], &c, 1);
		while (n < 0 && errno == EINTR);
		if (n != 1) {
			int status = 0;

			waitpid(pid, &status, 0);
			_exit(1);
		}
		_exit(0);
	}
	close(p[0]);
	s->ready_fd = p[1];
	if (setsid() < 0)
		log_warn("setsid");
	if (chdir("/") < 0)
		log_warn("chdir /");
	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		if (null > STDERR_FILENO)
			close(null);
	}
	return svc_write_pidfile(s, err, errlen);
}

void svc_ready(struct svc *s, const char *status)
{
	char msg[512];

	snprintf(msg, sizeof(msg), "READY=1\nSTATUS=%s", status);
	sd_notify(0, msg);
	if (s->ready_fd >= 0) {
		if (write(s->ready_fd, "r", 1) != 1)
			log_warn("cannot tell the parent process");
		close(s->ready_fd);
		s->ready_fd = -1;
	}
}

void svc_status(const char *text)
{
	char msg[512];

	snprintf(msg, sizeof(msg), "STATUS=%s", text);
	sd_notify(0, msg);
}

void svc_reloading(void)
{
	struct timespec ts;
	char msg[128];

	/* MONOTONIC_USEC lets systemd 253+ match this reload with its
	 * request (Type=notify-reload); older ones ignore it. */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	snprintf(msg, sizeof(msg), "RELOADING=1\nMONOTONIC_USEC=%llu",
	         (unsigned long long)ts.tv_sec * 1000000ull +
	             (unsigned long long)ts.tv_nsec / 1000ull);
	sd_notify(0, msg);
}

void svc_stopping(void)
{
	sd_notify(0, "STOPPING=1");
}

int svc_watchdog_open(struct svc *s)
{
	struct itimerspec it;
	uint64_t usec = 0, every;

	if (sd_watchdog_enabled(0, &usec) <= 0 || !usec)
		return -1;
	s->watchdog_fd =
	    timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (s->watchdog_fd < 0) {
		log_warn("timerfd");
		return -1;
	}
	/* A quarter of the interval (sd_watchdog_enabled(3) asks for half
	 * at most): the unit's interval is short (a hung roced may hold a
	 * queue), and a loaded host may delay a pass of the loop. */
	every = usec / 4 ? usec / 4 : 1;
	it.it_interval.tv_sec = (time_t)(every / 1000000u);
	it.it_interval.tv_nsec = (long)(every % 1000000u) * 1000;
	it.it_value = it.it_interval;
	if (timerfd_settime(s->watchdog_fd, 0, &it, NULL) < 0) {
		log_warn("timerfd_settime");
		close(s->watchdog_fd);
		s->watchdog_fd = -1;
		return -1;
	}
	sd_notify(0, "WATCHDOG=1");
	log_debug(LOG_SUB_CTL, "systemd watchdog: keep-alive every %llu us",
	          (unsigned long long)every);
	return s->watchdog_fd;
}

void svc_watchdog_kick(struct svc *s)
{
	uint64_t n;

	if (s->watchdog_fd < 0)
		return;
	if (read(s->watchdog_fd, &n, sizeof(n)) == (ssize_t)sizeof(n))
		sd_notify(0, "WATCHDOG=1");
}

void svc_close(struct svc *s)
{
	if (s->watchdog_fd >= 0)
		close(s->watchdog_fd);
	s->watchdog_fd = -1;
	if (s->ready_fd >= 0)
		close(s->ready_fd);
	s->ready_fd = -1;
	if (s->pidfile_written)
		unlink(s->pidfile);
	s->pidfile_written = false;
}
