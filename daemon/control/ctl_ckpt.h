/* ctl_ckpt: checkpoints, rollback and configuration sessions, the
 * daemon's side (lib/cmd/cmd_ckpt.h is the pure side: the file form, the
 * text, the rollback patch).
 *
 * Checkpoints are kept one file each in a directory of roced's state
 * directory (ctl_state_path(".checkpoint")), written atomically (a new
 * file, then rename) and never opened through a symbolic link, so that
 * they outlive a restart of roced. A file that is cut short or changed by
 * hand stays listed as damaged, with the reason, and a rollback to it is
 * refused by name.
 *
 * A rollback and a session's commit are one change through the daemon's
 * one path (ctl_cmd_ops.change: policy -> compile -> plan -> diff ->
 * apply), atomic unless asked for best effort.
 *
 * Configuration sessions (ctl_sess.h) are kept in the same struct.
 */
#ifndef ROCED_CTL_CKPT_H
#define ROCED_CTL_CKPT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <json-c/json.h>

#include "cmd/cmd_ckpt.h"
#include "cmd/cmd_show.h"
#include "control/ctl_cmd.h"
#include "ctl/ctl.h"
#include "model/policy.h"

#define CTL_SESS_MAX       32
#define CTL_SESS_LINES_MAX 4096

struct ctl_ckpt_entry {
	char file[CMD_CKPT_NAME_MAX + 8]; /* its file's name in the dir */
	struct cmd_ckpt_meta m;
	char *body;    /* NULL when damaged */
	char bad[320]; /* why it cannot be used ("": it can) */
};

struct ctl_sess_line {
	char context[CTL_CONTEXT_MAX][CTL_CONTEXT_LEN];
	size_t ncontext;
	char line[CTL_LINE_MAX];
};

struct ctl_sess {
	char name[CMD_CKPT_NAME_MAX];
	pid_t pid; /* the rocesh that last used it */
	uid_t uid;
	double began; /* Unix seconds */
	struct ctl_sess_line *v;
	size_t n;
	/* The running configuration with the session's lines carried out. */
	struct policy cand;
	/* The running configuration (roced.conf text) that CAND was built
	 * on: commit needs it to be still the running one. */
	char *base;
};

/* A confirmed commit awaiting the `commit` that confirms it
 * (ctl_sess.h). */
struct ctl_confirm {
	char session[CMD_CKPT_NAME_MAX]; /* "": none awaits */
	char *body;      /* the running configuration before it */
	double deadline; /* Unix seconds: rolled back to BODY then */
	int64_t since;   /* when it was committed, Unix seconds */
	/* The last one rolled back, so that its session's next request
	 * is told why the session is gone. */
	char gone[CMD_CKPT_NAME_MAX];
	char gone_why[200];
};

struct ctl_ckpt {
	char dir[256]; /* "": kept in memory only */
	/* The network namespace's cookie (never reused, unlike its inode,
	 * which names DIR), kept in DIR/.netns; 0 when the kernel has
	 * none. */
	uint64_t netns;
	struct ctl_ckpt_entry *v;
	size_t n;
	struct ctl_sess *s;
	size_t ns;
	struct ctl_confirm confirm;
};

/* Set K up with its checkpoints read from DIR (made when absent; NULL
 * or "": none kept on disk). What cannot be read is logged and listed
 * as damaged. DIR is named by the namespace's inode, which the kernel
 * hands out again once a namespace is gone: a DIR whose .netns names
 * another cookie than NETNS (non-zero) was left by a namespace that no
 * longer exists, and is removed, not read. Returns 0, or -errno when DIR
 * is unfit (then K keeps checkpoints in memory only, and says so in the
 * log). */
int ctl_ckpt_open(struct ctl_ckpt *k, const char *dir, uint64_t netns);
/* Make K's directory when it is missing and mark it as this namespace's
 * (ERR: why not). Every writer into the directory calls it first. */
int ctl_ckpt_prepare(struct ctl_ckpt *k, char *err, size_t errlen);
/* Remove K's directory once it holds no checkpoint and no confirmed
 * commit: a roced that keeps nothing leaves nothing behind. */
void ctl_ckpt_tidy(struct ctl_ckpt *k);
/* Free K's checkpoints (ctl_sess_close frees its sessions). */
void ctl_ckpt_close(struct ctl_ckpt *k);

/* What a rollback and a session's commit share (ctl_sess.c uses them):
 * the reply "% WHAT" (WHAT may be NULL) with each error of D on a line of
 * its own; D's warnings as a JSON array; an ok reply with TEXT. */
struct json_object *ctl_ckpt_error(const char *what, const struct diag *d);
struct json_object *ctl_ckpt_warnings(const struct diag *d);
struct json_object *ctl_ckpt_ok_text(const char *text);
/* The running policy as roced.conf text, what tells two running
 * configurations apart (NULL on ENOMEM). */
char *ctl_ckpt_running_text(const struct ctl_cmd_ctx *c);
/* A checkpoint's body of the running policy into BODY, checked to
 * rebuild it exactly. Returns 0, or -1 with ERR saying why not. */
int ctl_ckpt_take(const struct ctl_cmd_ctx *c, struct strbuf *body, char *err,
                  size_t len);
/* Make CAND the running policy through the daemon's one path
 * (ctl_cmd_ops.change with FLAGS, CTL_CHANGE_*). */
int ctl_ckpt_change(struct ctl_cmd_ctx *c, struct policy *cand, unsigned flags,
                    struct diag *msgs);
/* The kernel writes since roced started (0 when not counted). */
size_t ctl_ckpt_writes(const struct ctl_cmd_ctx *c);
/* T (Unix seconds) as NX-OS prints a time, in UTC. */
void ctl_ckpt_time(int64_t t, char *buf, size_t len);

/* Answer a "checkpoint" request (ctl.h). */
struct json_object *ctl_ckpt_request(struct ctl_cmd_ctx *c,
                                     const struct ctl_request *r,
                                     const struct ctl_peer *peer);

/* Answer the shows of checkpoints (CTL_SHOW_CKPT*): {"ok": true,
 * "data": ..., "text": ...}. */
struct json_object *ctl_ckpt_show(struct ctl_cmd_ctx *c,
                                  const struct show_query *q);

#endif
