/* ctl_sess: configuration sessions, the daemon's side.
 *
 * Sessions live in roced's memory (struct ctl_ckpt's S), so that one
 * left open when its rocesh dies is still there, uncommitted, to be
 * resumed, committed or aborted: show configuration session tells whose
 * it was and whether that rocesh is gone. Each line is checked on the
 * session's candidate when it is typed and kept; `verify` carries the
 * lines out again on the running configuration and compiles the result;
 * `commit` applies the candidate in one atomic change (ctl_ckpt_change),
 * refused whole on any error. A session remembers the running
 * configuration it was checked against: a commit after that changed
 * (another session's commit, a rollback, a reload, a configuration line)
 * is refused until `verify` checks it on the new one, so that no commit
 * silently undoes another.
 */
#ifndef ROCED_CTL_SESS_H
#define ROCED_CTL_SESS_H

#include "control/ctl_ckpt.h"

/* Answer a "session" request (ctl.h). */
struct json_object *ctl_sess_request(struct ctl_cmd_ctx *c,
                                     const struct ctl_request *r,
                                     const struct ctl_peer *peer);
/* Answer show configuration session [NAME]. */
struct json_object *ctl_sess_show(struct ctl_cmd_ctx *c,
                                  const struct show_query *q);
/* Free K's sessions (a pending confirmed commit's file stays). */
void ctl_sess_close(struct ctl_ckpt *k);

/* Confirmed commits. `commit confirmed N` in a session keeps a
 * checkpoint of the running configuration (in memory and in the hidden
 * file .confirm of the checkpoints' directory, written before anything
 * changes), commits, and leaves the session open: `commit` in it within
 * N seconds confirms the change (and commits what was typed since),
 * `abort` rolls it back at once, and so does the deadline
 * (ctl_sess_tick). Meanwhile what the rollback would undo or contradict
 * is refused by ctl_sess_guard: other sessions' commits, configuration
 * lines, copy running-config startup-config, reloads and rollbacks. A
 * roced that stops first leaves the file: its next start rolls back at
 * once (ctl_sess_restore), as a switch's reboot does to NVUE's
 * `apply --confirm`, since the session that could confirm it is gone. */
#define CTL_SESS_CONFIRM_MAX 86400
/* Milliseconds until a confirmed commit's deadline (NOW: Unix
 * seconds), -1 when none awaits. */
int ctl_sess_wait(const struct ctl_ckpt *k, double now);
/* Roll back the confirmed commit whose deadline NOW has passed. */
void ctl_sess_tick(struct ctl_cmd_ctx *c, double now);
/* At start: roll back a confirmed commit that the last roced left
 * unconfirmed. */
void ctl_sess_restore(struct ctl_cmd_ctx *c);
/* The refusal of request R while a confirmed commit awaits
 * confirmation, NULL when R may go on. */
struct json_object *ctl_sess_guard(struct ctl_cmd_ctx *c,
                                   const struct ctl_request *r);

#endif
