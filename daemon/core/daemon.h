/* daemon: roced's long-running mode (see daemon.c). */
#ifndef ROCED_DAEMON_H
#define ROCED_DAEMON_H

#include <stdbool.h>

struct daemon_opts {
	const char *file;
	const char *caps; /* host|full|hw|probe */
	bool syslog;      /* log to syslog instead of stderr */
	/* Control socket group (name or gid): owns the socket and may
	 * configure; NULL: root only. */
	const char *ctl_group;
	bool background; /* fork, setsid, pid file; wait until ready */
	bool cleanup;    /* remove roced's tc objects on SIGTERM */
	int rtprio;      /* SCHED_FIFO priority, 0: as started (privs.h) */
	bool kpfc;       /* software PFC's kernel path allowed (--kernel-pfc) */
};

/* Run until SIGTERM/SIGINT. Returns the exit status. */
int daemon_run(const struct daemon_opts *o);

#endif
