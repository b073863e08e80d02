/* ctl_cmd: the daemon's answers to control requests (ctl.h): config
 * lines through the daemon's commit path, show commands from the plans
 * the daemon applied and the kernel's counters, copy running-config
 * startup-config, reload, debug and ping.
 *
 * The daemon hands its state in a struct ctl_cmd_ctx and the two changes
 * only it may make (commit, reload) as calls in an ops table, so that
 * this file never calls into the daemon's loop and tests can answer
 * requests with fake ones.
 */
#ifndef ROCED_CTL_CMD_H
#define ROCED_CTL_CMD_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "agent/lldp_agent.h"
#include "base/diag.h"
#include "base/strbuf.h"
#include "agent/agents.h"
#include "registry/ports.h"
#include "ctl/ctl.h"
#include "kernel/engine.h"
#include "model/policy.h"
#include "show/show.h"

/* A reload asked for, and what came of it. */
struct ctl_cmd_reload {
	/* Even a file without an interface list. */
	bool force;
	/* Only compile FILE (NULL: the configuration file) and compare
	 * each port's plan with the one it runs; apply nothing. */
	bool dry_run;
	const char *file;
	/* A reload: how many kernel writes its apply made. */
	size_t writes;
	/* A dry run: the running and the candidate plans (plan_text_write_
	 * port() of each port, in the candidate's order, then the ports
	 * the candidate drops), the lines that differ (plan_text_diff()
	 * under a header per port), how many ports differ. strbuf_init()ed
	 * by the caller. */
	struct strbuf before, after, text;
	size_t ports_changed;
	/* A dry run: the ports the running policy and the candidate
	 * configure, so that a client can refuse a candidate that
	 * configures none (`interface = ( );` from an empty template loop)
	 * where roced takes it for the operator's word. */
	size_t ports_running, ports_candidate;
};

/* What a change of ctl_cmd_ops.change() may do. */
enum {
	/* All or nothing: refused when a port the candidate names does not
	 * exist, and undone whole when the kernel refuses any port. */
	CTL_CHANGE_ATOMIC = 1,
	/* Only compile the candidate (and check its ports, with ATOMIC):
	 * nothing is applied. */
	CTL_CHANGE_CHECK = 2,
};

struct ctl_ckpt; /* checkpoints and sessions (ctl_ckpt.h) */

struct ctl_cmd_ops {
	/* Compile CAND for every configured port and apply it. On success
	 * CAND becomes the running policy (CAND is left empty) and 0 is
	 * returned; on failure the running policy stays and -errno is
	 * returned. Warnings and the reasons of a failure are added to
	 * MSGS. */
	int (*commit)(void *daemon, struct policy *cand, struct diag *msgs);
	/* Reload the configuration file, as SIGHUP does (R->force: even
	 * one without an interface list that would take roced's policy off
	 * every port), or with R->dry_run only say what that would change.
	 * Returns 0, or -errno with every FILE:LINE error in MSGS; the
	 * running state stays then. */
	int (*reload)(void *daemon, struct ctl_cmd_reload *r,
	              struct diag *msgs);
	/* A rollback's or a session's change: commit() with FLAGS
	 * (CTL_CHANGE_*). NULL: commit() serves, never atomically. */
	int (*change)(void *daemon, struct policy *cand, unsigned flags,
	              struct diag *msgs);
};

struct ctl_cmd_ctx {
	const struct ctl_cmd_ops *ops;
	void *daemon; /* the ops' first argument */
	/* The running policy: it changes only through the ops. */
	const struct policy *policy;
	const char *file;    /* the configuration file (startup-config) */
	struct engine *e;    /* links, and netlink for show's counters */
	struct ports *ports; /* each port's applied plan */
	/* Software PFC's counters and the PFC watchdog; NULL in
	 * tests without agents. */
	struct agents *agents;
	/* The LLDP agent, for the lldp shows (NULL: none). */
	const struct lldp_agent *lldp;
	/* The daemon's own counters, for show metrics (NULL: none). */
	const struct show_daemon_stats *stats;
	/* The kernel writes since the start, for ping (NULL: none). */
	const size_t *writes;
	/* For show version: the --caps preset roced took instead of
	 * probing the kernel (NULL: it probed), and when it started
	 * (CLOCK_MONOTONIC milliseconds). */
	const char *caps_preset;
	double started_ms;
	/* The warnings the last configuration reply stood by, "\n"-
	 * separated: each is told once, by the line that brought it, not
	 * again after every line and in every session while it stands
	 * (dctl_told_once). The daemon frees it. */
	struct strbuf told;
	/* What `clear qos statistics` saw per port: the queuing shows
	 * count from there (show_base_apply). ctl_cmd_free() frees it. */
	/* Checkpoints and configuration sessions (NULL: none). */
	struct ctl_ckpt *ckpt;
	struct ctl_cmd_base {
		char ifname[POLICY_IFNAME_MAX];
		struct show_port_state st;
	} * base;
	size_t nbase;
};

/* Free what the answers kept in C (the clear's baselines). */
void ctl_cmd_free(struct ctl_cmd_ctx *c);

/* The answer to one control request (a ctl_srv_handler): DATA is a
 * struct ctl_cmd_ctx. */
struct json_object *ctl_cmd_handle(void *data, const struct ctl_request *req,
                                   const struct ctl_peer *peer);

/* The text of show metrics (the Prometheus exposition format), appended
 * to OUT: what the metrics textfile holds. Returns 0, or -ENOMEM with
 * ERR filled. */
int ctl_cmd_metrics(struct ctl_cmd_ctx *c, struct strbuf *out, char *err,
                    size_t errlen);

/* Write TEXT to PATH atomically: a temporary file in the same directory,
 * fsync, the old file kept as PATH.bak (a hard link, or a copy), rename,
 * fsync of the directory. Keeps the old file's mode. Returns 0 or -errno
 * with ERR filled. */
int ctl_cmd_write_atomic(const char *path, const char *text, char *err,
                         size_t errlen);

#endif
