/* svc: roced as a service. systemd's notifications (READY=1, RELOADING=1,
 * STATUS=, STOPPING=1) and watchdog (WATCHDOG=1 from a timerfd at a quarter of
 * WATCHDOG_USEC), and running in the background (-b) with a pid file.
 *
 * Without NOTIFY_SOCKET (not under systemd) the notifications do nothing.
 * In the background the parent process waits until the child is ready
 * (svc_ready) or has failed, and exits 0 or 1 accordingly, so that a
 * script that starts `roced -b` can use the daemon as soon as it returns.
 */
#ifndef ROCED_SVC_H
#define ROCED_SVC_H

#include <stdbool.h>
#include <stddef.h>

struct svc {
	int watchdog_fd; /* timerfd, -1 when systemd does not watch us */
	int ready_fd;    /* background: the pipe to the waiting parent */
	bool pidfile_written;
	char pidfile[256];
};

void svc_init(struct svc *s);
/* Fork into the background: returns 0 in the child (a new session,
 * stdin/stdout on /dev/null, stderr kept for the log), and never returns
 * in the parent, which exits with the child's verdict. Writes the pid file
 * (ctl_state_path(".pid")). Returns -errno with ERR filled on failure. */
int svc_daemonize(struct svc *s, char *err, size_t errlen);
/* Tell systemd (and a waiting parent) that the first apply is done. */
void svc_ready(struct svc *s, const char *status);
/* STATUS=TEXT: a one-line summary systemctl status shows. */
void svc_status(const char *text);
/* Around a reload: RELOADING=1 (with MONOTONIC_USEC), then svc_ready. */
void svc_reloading(void);
void svc_stopping(void);
/* Arm the watchdog timer when systemd asks for keep-alives. Returns its
 * fd for the event loop, or -1 when there is no watchdog. */
int svc_watchdog_open(struct svc *s);
/* The timer fired: consume it and send WATCHDOG=1. */
void svc_watchdog_kick(struct svc *s);
/* Close the timer and remove the pid file. */
void svc_close(struct svc *s);

#endif
