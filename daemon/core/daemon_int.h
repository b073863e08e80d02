/* daemon_int: what daemon.c lends the control socket's handlers
 * (daemon_ctl.c). The daemon's state stays private to daemon.c; these
 * calls are the only ways in, and every change of configuration goes
 * through daemon_commit(), the path SIGHUP uses too.
 */
#ifndef ROCED_DAEMON_INT_H
#define ROCED_DAEMON_INT_H

#include <stddef.h>

#include <json-c/json.h>

#include "plan/compile.h"
#include "ctl/ctl.h"
#include "base/diag.h"
#include "kernel/engine.h"
#include "model/policy.h"

struct daemon;

/* The running policy; valid until the next daemon_commit(). */
const struct policy *daemon_policy(const struct daemon *d);
/* The configuration file (the startup-config). */
const char *daemon_file(const struct daemon *d);
/* The netlink state (for show's counters). */
struct engine *daemon_engine(struct daemon *d);
/* Fill the caps of PORTS (names set) as the daemon plans with them. */
void daemon_ports_caps(struct daemon *d, struct compile_port *ports, size_t n);

/* Compile CAND for every configured port and apply it. On success CAND
 * becomes the running policy (CAND is left empty) and 0 is returned; on
 * failure the running policy stays and -errno is returned. Warnings and
 * the reasons of a failure are added to MSGS (may be NULL). */
int daemon_commit(struct daemon *d, struct policy *cand, struct diag *msgs);
/* Reload the configuration file (SIGHUP): parse and compile the whole
 * file before anything is applied. Returns 0, or -errno with every
 * FILE:LINE error in MSGS (may be NULL); the running state stays then. */
int daemon_reload(struct daemon *d, struct diag *msgs);

/* daemon_ctl.c: the answer to one control request (ctl_srv_handler). */
struct json_object *daemon_ctl_handle(void *daemon,
                                      const struct ctl_request *req,
                                      const struct ctl_peer *peer);
/* Write TEXT to PATH atomically: a temporary file in the same directory,
 * fsync, the old file kept as PATH.bak (a hard link, or a copy), rename,
 * fsync of the directory. Keeps the old file's mode. Returns 0 or -errno
 * with ERR filled. */
int daemon_write_atomic(const char *path, const char *text, char *err,
                        size_t errlen);

#endif
