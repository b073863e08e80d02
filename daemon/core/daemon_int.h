/* daemon_int: what daemon.c (the event loop, start and stop) and
 * daemon_apply.c (the passes that change the kernel) share. Only those two
 * include it; the loop calls the passes, never the other way round. */
#ifndef ROCED_DAEMON_INT_H
#define ROCED_DAEMON_INT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "agent/agents.h"
#include "base/diag.h"
#include "core/daemon.h"
#include "core/guard.h"
#include "core/mfile.h"
#include "registry/ports.h"
#include "core/svc.h"
#include "control/ctl_ckpt.h"
#include "control/ctl_sess.h"
#include "control/ctl_cmd.h"
#include "control/ctl_srv.h"
#include "kernel/engine.h"
#include "model/policy.h"
#include "os/loop.h"

#define DAEMON_PENDING_MAX 256

struct daemon {
	const struct daemon_opts *opts;
	struct policy policy;
	/* Every configured port's compile inputs and applied plan. */
	struct ports ports;
	struct engine e;
	/* Raw frames on the ports, and the agents that use them. */
	struct agents agents;
	/* The one event loop: its fds and timers (daemon.c). */
	struct loop loop;
	int sigfd;
	struct ctl_srv *ctl;
	struct ctl_cmd_ctx cmd; /* what the control requests' answers read */
	/* Checkpoints (kept in the state directory) and configuration
	 * sessions. */
	struct ctl_ckpt ckpt;
	struct svc svc;
	int lockfd;         /* the instance lock, held while roced runs */
	struct guard guard; /* releases the holds if roced dies */
	/* Where the MTUs to give back are kept ("" when there is no room
	 * for the path: they are then kept in memory only). */
	char mtu_path[PATH_MAX];
	/* For STATUS=: the last full apply's ports and warnings, the writes
	 * since the start. */
	size_t stat_ports, stat_writes, stat_warnings;
	/* What show metrics and the metrics textfile say of roced itself. */
	struct show_daemon_stats stats;
	/* The metrics textfile (roced.conf's metrics setting). */
	struct mfile mfile;
	/* Ports named by link events, reconciled after the event batch. */
	char pending[DAEMON_PENDING_MAX][POLICY_IFNAME_MAX];
	size_t npending;
	bool pending_all;
	/* A link joined or left a bond, or a bond came or went: the bonds'
	 * derived ports are looked at again (daemon_bonds). */
	bool bonds_dirty;
	bool stop;
	/* Inside a reload's turns (daemon_nested): no rollback of a
	 * confirmed commit starts there. */
	bool nested;
	/* How a reload reads the file (daemon.c: in a thread, the loop
	 * turning meanwhile). */
	int (*load)(struct daemon *d, const char *path, struct policy *out,
	            struct diag *diag);
};

/* The monotonic clock in ms. */
double daemon_ms(void);
/* The wall clock in seconds since the Unix epoch. */
double daemon_unix(void);

/* Log each line of D, prefixed with PORT when it is not NULL. */
void daemon_log_diag(const struct diag *d, const char *port);

/* Compile POLICY for NAMES (all configured ports when N is 0) and apply
 * it; MSGS (may be NULL) hears errors and refusals for a control client. */
/* The derived ports of P's bond ports made the members the kernel gives
 * them now (policy_bond_sync); 1 when P changed. */
int daemon_bonds(struct daemon *d, struct policy *p);
int daemon_apply(struct daemon *d, struct policy *policy,
                 char (*names)[POLICY_IFNAME_MAX], size_t n, struct diag *msgs);

/* Apply the ports whose DCBX outcome the LLDP agent changed. */
void daemon_dcbx(struct daemon *d);

/* Reload the configuration file (SIGHUP: R is NULL; `reload config
 * [force|dry-run]`: see struct ctl_cmd_reload). */
int daemon_reload(struct daemon *d, struct ctl_cmd_reload *r,
                  struct diag *msgs);

/* Software PFC's kernel path after an apply (daemon_kpfc.c): attached,
 * set or removed on each port as its applied plan says. The ports where
 * it failed (up to MAX) go into AGAIN, for the caller to apply again on
 * the user-space path; returns how many. */
size_t daemon_kpfc_sync(struct daemon *d, char (*again)[POLICY_IFNAME_MAX],
                        size_t max);
/* roced stops: the programs go (what they held is let go first). */
void daemon_kpfc_stop(struct daemon *d);

/* --cleanup-on-exit: remove roced's tc objects, give the MTUs back. */
void daemon_cleanup(struct daemon *d);

/* What control requests may change (commit a candidate, reload). */
extern const struct ctl_cmd_ops daemon_ctl_ops;

#endif
