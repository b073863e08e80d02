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
/* Free K's sessions. */
void ctl_sess_close(struct ctl_ckpt *k);

#endif
