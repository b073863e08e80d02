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
#include "agent/agents.h"
#include "registry/ports.h"
#include "ctl/ctl.h"
#include "kernel/engine.h"
#include "model/policy.h"

struct ctl_cmd_ops {
	/* Compile CAND for every configured port and apply it. On success
	 * CAND becomes the running policy (CAND is left empty) and 0 is
	 * returned; on failure the running policy stays and -errno is
	 * returned. Warnings and the reasons of a failure are added to
	 * MSGS. */
	int (*commit)(void *daemon, struct policy *cand, struct diag *msgs);
	/* Reload the configuration file, as SIGHUP does (FORCE: even one
	 * without an interface list that would take roced's policy off
	 * every port). Returns 0, or -errno with every FILE:LINE error in
	 * MSGS; the running state stays then. */
	int (*reload)(void *daemon, bool force, struct diag *msgs);
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
};

/* The answer to one control request (a ctl_srv_handler): DATA is a
 * struct ctl_cmd_ctx. */
struct json_object *ctl_cmd_handle(void *data, const struct ctl_request *req,
                                   const struct ctl_peer *peer);

/* Write TEXT to PATH atomically: a temporary file in the same directory,
 * fsync, the old file kept as PATH.bak (a hard link, or a copy), rename,
 * fsync of the directory. Keeps the old file's mode. Returns 0 or -errno
 * with ERR filled. */
int ctl_cmd_write_atomic(const char *path, const char *text, char *err,
                         size_t errlen);

#endif
