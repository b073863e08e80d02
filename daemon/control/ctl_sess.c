/* ctl_sess: configuration sessions, the daemon's side (see ctl_sess.h).
 * The replies and the change through the daemon's one path are
 * ctl_ckpt.c's, which a rollback shares.
 */
#include "control/ctl_sess.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "control/ctl_srv.h"
#include "os/log.h"
#include "os/rundir.h"

static void ck_sess_free(struct ctl_sess *s)
{
	free(s->v);
	free(s->base);
	policy_free(&s->cand);
}

/* --- sessions --- */

static struct ctl_sess *ck_sess_find(struct ctl_ckpt *k, const char *name)
{
	for (size_t i = 0; i < k->ns; i++)
		if (!strcmp(k->s[i].name, name))
			return &k->s[i];
	return NULL;
}

static void ck_sess_remove(struct ctl_ckpt *k, struct ctl_sess *s)
{
	size_t i = (size_t)(s - k->s);

	ck_sess_free(s);
	memmove(&k->s[i], &k->s[i + 1], (k->ns - i - 1) * sizeof(k->s[0]));
	k->ns--;
}

/* Whether process PID is still there. */
static bool ck_alive(pid_t pid)
{
	return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM);
}

/* --- confirmed commits --- */

/* The file that keeps an unconfirmed commit's checkpoint across a
 * restart: hidden in the checkpoints' directory, so never listed as a
 * checkpoint. */
static int ck_confirm_path(const struct ctl_ckpt *k, char *buf, size_t len)
{
	if (!k->dir[0])
		return -1;
	snprintf(buf, len, "%s/.confirm", k->dir);
	return 0;
}

static double ck_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Write K's pending confirmation to its file (nothing without a
 * directory: then it does not outlive roced). */
static int ck_confirm_save(struct ctl_ckpt *k, char *err, size_t len)
{
	struct ctl_confirm *f = &k->confirm;
	struct cmd_ckpt_meta m = {.created = f->since,
	                          .rollback_at = (int64_t)f->deadline + 1};
	char path[512];
	struct strbuf file;
	int rc;

	if (ck_confirm_path(k, path, sizeof(path)) < 0)
		return 0;
	rc = ctl_ckpt_prepare(k, err, len);
	if (rc < 0)
		return rc;
	snprintf(m.name, sizeof(m.name), "%s", f->session);
	strbuf_init(&file);
	cmd_ckpt_format(&m, f->body, &file);
	rc = file.oom ? -ENOMEM : rundir_write(path, strbuf_str(&file), 0600);
	strbuf_free(&file);
	if (rc < 0)
		snprintf(err, len, "cannot write %.200s: %s", path,
		         strerror(-rc));
	return rc;
}

/* Forget K's pending confirmation, its file with it. */
static void ck_confirm_drop(struct ctl_ckpt *k)
{
	char path[512];

	free(k->confirm.body);
	k->confirm.body = NULL;
	k->confirm.session[0] = '\0';
	if (ck_confirm_path(k, path, sizeof(path)) < 0)
		return;
	if (unlink(path) < 0 && errno != ENOENT)
		log_warn("cannot remove %s", path);
	ctl_ckpt_tidy(k);
}

/* Put back the configuration from before the pending confirmed commit:
 * atomically, or, when that is refused (a port gone since), as much of
 * it as the kernel takes, since staying on an unconfirmed change is
 * what the operator asked not to. Its session (changes typed since
 * included) goes. WHY is the log's and the session's reason. Returns
 * the kernel writes, or -1. */
static long ck_confirm_rollback(struct ctl_cmd_ctx *c, const char *why)
{
	struct ctl_ckpt *k = c->ckpt;
	struct ctl_confirm *f = &k->confirm;
	size_t w0 = ctl_ckpt_writes(c);
	struct ctl_sess *s = ck_sess_find(k, f->session);
	struct cmd_error ce;
	struct policy cand;
	struct diag dg;
	char name[CMD_CKPT_NAME_MAX];
	int rc = -1;

	snprintf(name, sizeof(name), "%s", f->session);
	diag_init(&dg, NULL);
	if (cmd_ckpt_replay(f->body, &cand, &ce) < 0) {
		log_warnx("session %s: the checkpoint of its confirmed commit "
		          "does not load (%s): not rolled back",
		          name, ce.message);
	} else {
		rc = ctl_ckpt_change(c, &cand, CTL_CHANGE_ATOMIC, &dg);
		policy_free(&cand);
		if (rc < 0 && cmd_ckpt_replay(f->body, &cand, &ce) == 0) {
			log_warnx("session %s: the atomic rollback of its "
			          "unconfirmed commit was refused: best effort",
			          name);
			rc = ctl_ckpt_change(c, &cand, 0, &dg);
			policy_free(&cand);
		}
		for (size_t i = 0; i < dg.n; i++) {
			char line[1024];

			diag_format(&dg, i, line, sizeof(line));
			log_warnx("session %s rollback: %s", name, line);
		}
	}
	diag_free(&dg);
	if (rc == 0)
		log_info("session %s: commit not confirmed (%s): rolled back "
		         "to the configuration before it, %zu kernel writes",
		         name, why, ctl_ckpt_writes(c) - w0);
	snprintf(f->gone, sizeof(f->gone), "%s", name);
	snprintf(f->gone_why, sizeof(f->gone_why),
	         "its confirmed commit was %s (%s)",
	         rc == 0 ? "rolled back" : "not rolled back: see the log", why);
	ck_confirm_drop(k);
	if (s)
		ck_sess_remove(k, s);
	return rc == 0 ? (long)(ctl_ckpt_writes(c) - w0) : -1;
}

int ctl_sess_wait(const struct ctl_ckpt *k, double now)
{
	double ms;

	if (!k || !k->confirm.session[0])
		return -1;
	ms = (k->confirm.deadline - now) * 1e3;
	if (ms <= 0)
		return 0;
	return ms > 3600e3 ? 3600000 : (int)ms + 1;
}

void ctl_sess_tick(struct ctl_cmd_ctx *c, double now)
{
	struct ctl_ckpt *k = c->ckpt;

	if (!k || !k->confirm.session[0] || now < k->confirm.deadline)
		return;
	ck_confirm_rollback(c, "its time ran out");
}

void ctl_sess_restore(struct ctl_cmd_ctx *c)
{
	struct ctl_ckpt *k = c->ckpt;
	struct cmd_ckpt_meta m;
	char path[512], err[320], *buf;
	const char *body;
	size_t len = 0, blen;
	struct stat st;
	int fd;

	if (!k || ck_confirm_path(k, path, sizeof(path)) < 0)
		return;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		if (errno != ENOENT)
			log_warn("cannot read %s", path);
		return;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (size_t)st.st_size > CMD_CKPT_FILE_MAX) {
		log_warnx("%s is not a regular file of at most %u bytes: "
		          "removed",
		          path, CMD_CKPT_FILE_MAX);
		close(fd);
		unlink(path);
		return;
	}
	buf = malloc((size_t)st.st_size + 1);
	while (buf && len < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + len, (size_t)st.st_size - len);

		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (!buf ||
	    cmd_ckpt_parse(buf, len, &m, &body, &blen, err, sizeof(err)) < 0 ||
	    !m.rollback_at) {
		log_warnx("an unconfirmed commit was pending when roced "
		          "stopped, but its checkpoint %s cannot be used (%s): "
		          "not rolled back, removed",
		          path, buf ? err : "out of memory");
		free(buf);
		unlink(path);
		return;
	}
	/* The session that could confirm it died with the roced that
	 * held it: a restart counts as no confirmation, as a reboot does
	 * for a switch's `apply --confirm`. */
	snprintf(k->confirm.session, sizeof(k->confirm.session), "%s", m.name);
	k->confirm.body = strndup(body, blen);
	k->confirm.since = m.created;
	k->confirm.deadline = (double)m.rollback_at;
	free(buf);
	if (!k->confirm.body) {
		k->confirm.session[0] = '\0';
		return;
	}
	log_warnx("session %s's commit of %" PRId64 " was not confirmed "
	          "before roced stopped: rolling back to the configuration "
	          "before it",
	          m.name, m.created);
	ck_confirm_rollback(c, "roced restarted before it was confirmed");
}

struct json_object *ctl_sess_guard(struct ctl_cmd_ctx *c,
                                   const struct ctl_request *r)
{
	const struct ctl_confirm *f = c->ckpt ? &c->ckpt->confirm : NULL;
	char when[64];

	if (!f || !f->session[0])
		return NULL;
	switch (r->cmd) {
	case CTL_CMD_CONFIG:
	case CTL_CMD_COPY:
		break;
	case CTL_CMD_RELOAD:
		if (r->dry_run)
			return NULL;
		break;
	case CTL_CMD_CHECKPOINT:
		if (strcmp(r->op, "rollback"))
			return NULL;
		break;
	default:
		return NULL;
	}
	/* What it would change or save, the rollback at the deadline
	 * would undo or contradict without a word. */
	ctl_ckpt_time((int64_t)f->deadline, when, sizeof(when));
	return ctl_reply_error(
	    "%% session %s's confirmed commit awaits confirmation (it rolls "
	    "back at %s): confirm it first (configure session %s, then "
	    "commit) or abort it (configure session %s, then abort)",
	    f->session, when, f->session, f->session);
}

static struct json_object *ck_sess_begin(struct ctl_cmd_ctx *c,
                                         const struct ctl_request *r,
                                         const struct ctl_peer *peer)
{
	struct ctl_ckpt *k = c->ckpt;
	struct ctl_sess *s = ck_sess_find(k, r->name), *v;
	pid_t pid = peer ? peer->pid : 0;
	char why[160], text[256];

	if (cmd_ckpt_name_ok(r->name, why, sizeof(why)) < 0)
		return ctl_reply_error("%% session %s: %s", r->name, why);
	if (s) {
		/* One rocesh at a time; one that died leaves it behind. */
		if (s->pid != pid && ck_alive(s->pid))
			return ctl_reply_error(
			    "%% session %s is open in rocesh "
			    "pid %d: choose another name",
			    r->name, (int)s->pid);
		if (!strcmp(k->confirm.session, s->name)) {
			char when[64];

			ctl_ckpt_time((int64_t)k->confirm.deadline, when,
			              sizeof(when));
			snprintf(text, sizeof(text),
			         "%% Resuming session %s: its confirmed commit "
			         "rolls back at %s unless `commit` confirms "
			         "it\n",
			         r->name, when);
		} else if (s->pid != pid) {
			snprintf(text, sizeof(text),
			         "%% Resuming session %s, left uncommitted by "
			         "pid %d: %zu line%s, nothing of it applied\n",
			         r->name, (int)s->pid, s->n,
			         s->n == 1 ? "" : "s");
		} else {
			text[0] = '\0';
		}
		s->pid = pid;
		return ctl_ckpt_ok_text(text);
	}
	if (k->ns >= CTL_SESS_MAX)
		return ctl_reply_error("%% %d configuration sessions are open: "
		                       "commit or abort one",
		                       CTL_SESS_MAX);
	v = realloc(k->s, (k->ns + 1) * sizeof(*v));
	if (!v)
		return ctl_reply_error("%% out of memory");
	k->s = v;
	s = &v[k->ns];
	memset(s, 0, sizeof(*s));
	if (policy_copy(&s->cand, c->policy) < 0 ||
	    !(s->base = ctl_ckpt_running_text(c))) {
		policy_free(&s->cand);
		return ctl_reply_error("%% out of memory");
	}
	snprintf(s->name, sizeof(s->name), "%.32s", r->name);
	s->pid = pid;
	s->uid = peer ? peer->uid : 0;
	s->began = (double)time(NULL);
	k->ns++;
	log_info("configuration session %s opened by pid %d", r->name,
	         (int)pid);
	return ctl_reply_ok();
}

/* Carry out S's lines on a copy of the running policy into OUT. */
static int ck_sess_replay(struct ctl_cmd_ctx *c, const struct ctl_sess *s,
                          struct policy *out, struct diag *dg)
{
	if (policy_copy(out, c->policy) < 0) {
		diag_err(dg, 0, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < s->n; i++) {
		const char *path[CTL_CONTEXT_MAX];
		struct cmd_error ce;
		struct cmd_ctx ctx;

		for (size_t j = 0; j < s->v[i].ncontext; j++)
			path[j] = s->v[i].context[j];
		if (cmd_ctx_from_path(&ctx, path, s->v[i].ncontext) < 0 ||
		    cmd_apply_line(out, &ctx, s->v[i].line, &ce) < 0) {
			diag_err(dg, 0, "line %zu '%s': %s", i + 1,
			         s->v[i].line, ce.message);
			policy_free(out);
			return -1;
		}
	}
	if (policy_validate_mode(out, dg, POLICY_VALIDATE_INTERACTIVE) > 0) {
		policy_free(out);
		return -1;
	}
	return 0;
}

static struct json_object *ck_sess_line(struct ctl_ckpt *k,
                                        const struct ctl_request *r)
{
	struct ctl_sess *s = ck_sess_find(k, r->name);
	const char *path[CTL_CONTEXT_MAX];
	struct json_object *reply, *ctxj;
	struct cmd_error ce = {{0}, 0};
	struct ctl_sess_line *v;
	struct policy cand;
	struct cmd_ctx ctx;
	struct diag dg;
	size_t nctx;

	if (!s && !strcmp(k->confirm.gone, r->name))
		return ctl_reply_error("%% no configuration session %s: %s",
		                       r->name, k->confirm.gone_why);
	if (!s)
		return ctl_reply_error("%% no configuration session %s (it was "
		                       "committed or aborted)",
		                       r->name);
	if (s->n >= CTL_SESS_LINES_MAX)
		return ctl_reply_error("%% session %s holds %d lines: commit "
		                       "it first",
		                       r->name, CTL_SESS_LINES_MAX);
	for (size_t i = 0; i < r->ncontext; i++)
		path[i] = r->context[i];
	if (cmd_ctx_from_path(&ctx, path, r->ncontext) < 0)
		return ctl_reply_error("%% the context is too long");
	if (policy_copy(&cand, &s->cand) < 0)
		return ctl_reply_error("%% out of memory");
	if (cmd_apply_line(&cand, &ctx, r->line, &ce) < 0) {
		policy_free(&cand);
		reply = ctl_reply_error("%s", ce.message);
		json_object_object_add(reply, "pos",
		                       json_object_new_int((int)ce.pos));
		return reply;
	}
	diag_init(&dg, NULL);
	if (policy_validate_mode(&cand, &dg, POLICY_VALIDATE_INTERACTIVE) > 0) {
		reply = ctl_ckpt_error(NULL, &dg);
		goto out;
	}
	v = realloc(s->v, (s->n + 1) * sizeof(*v));
	if (!v) {
		reply = ctl_reply_error("%% out of memory");
		goto out;
	}
	s->v = v;
	memset(&v[s->n], 0, sizeof(v[0]));
	/* Kept in the mode it ran in, not the one it was typed in (a
	 * sibling `class` line typed in a class's mode belongs to the
	 * policy-map): the mode lines after it, less the line itself when
	 * it entered a mode. Replayed there, it does the same. */
	nctx = ctx.depth;
	if (nctx && !strcmp(ctx.path[nctx - 1], r->line))
		nctx--;
	for (size_t i = 0; i < nctx && i < CTL_CONTEXT_MAX; i++)
		snprintf(v[s->n].context[i], CTL_CONTEXT_LEN, "%s",
		         ctx.path[i]);
	v[s->n].ncontext = nctx;
	snprintf(v[s->n].line, CTL_LINE_MAX, "%s", r->line);
	s->n++;
	policy_free(&s->cand);
	s->cand = cand;
	policy_init(&cand);
	reply = ctl_reply_ok();
	ctxj = json_object_new_array();
	for (size_t i = 0; i < ctx.depth; i++)
		json_object_array_add(ctxj,
		                      json_object_new_string(ctx.path[i]));
	json_object_object_add(reply, "context", ctxj);
	json_object_object_add(reply, "mode",
	                       json_object_new_string(cmd_mode_name(ctx.mode)));
	json_object_object_add(reply, "warnings", ctl_ckpt_warnings(&dg));
out:
	diag_free(&dg);
	policy_free(&cand);
	return reply;
}

static struct json_object *ck_sess_verify(struct ctl_cmd_ctx *c,
                                          struct ctl_sess *s)
{
	struct json_object *reply;
	struct policy cand;
	char what[128], *base;
	struct diag dg;

	diag_init(&dg, NULL);
	snprintf(what, sizeof(what), "session %s: verification failed",
	         s->name);
	if (ck_sess_replay(c, s, &cand, &dg) < 0) {
		reply = ctl_ckpt_error(what, &dg);
		diag_free(&dg);
		return reply;
	}
	if (ctl_ckpt_change(c, &cand, CTL_CHANGE_ATOMIC | CTL_CHANGE_CHECK,
	                    &dg) < 0) {
		reply = ctl_ckpt_error(what, &dg);
		policy_free(&cand);
		diag_free(&dg);
		return reply;
	}
	/* Checked against the running configuration as it is now. */
	base = ctl_ckpt_running_text(c);
	if (!base) {
		policy_free(&cand);
		diag_free(&dg);
		return ctl_reply_error("%% out of memory");
	}
	free(s->base);
	s->base = base;
	policy_free(&s->cand);
	s->cand = cand;
	reply = ctl_ckpt_ok_text("Verification Successful\n");
	json_object_object_add(reply, "warnings", ctl_ckpt_warnings(&dg));
	diag_free(&dg);
	return reply;
}

/* After a confirmed commit: S starts again on the running
 * configuration, empty, to take the `commit` that confirms it (and any
 * change typed meanwhile). */
static int ck_sess_restart(struct ctl_cmd_ctx *c, struct ctl_sess *s)
{
	char *base = ctl_ckpt_running_text(c);
	struct policy cand;

	if (!base || policy_copy(&cand, c->policy) < 0) {
		free(base);
		return -ENOMEM;
	}
	free(s->v);
	s->v = NULL;
	s->n = 0;
	free(s->base);
	s->base = base;
	policy_free(&s->cand);
	s->cand = cand;
	return 0;
}

/* The seconds of `commit confirmed N` in R (0: a plain commit), or -1. */
static long ck_confirm_secs(const struct ctl_request *r)
{
	char *end;
	long n;

	if (!r->confirm[0])
		return 0;
	n = strtol(r->confirm, &end, 10);
	return *end || n < 1 || n > CTL_SESS_CONFIRM_MAX ? -1 : n;
}

static struct json_object *ck_sess_commit(struct ctl_cmd_ctx *c,
                                          struct ctl_sess *s,
                                          const struct ctl_request *r)
{
	struct ctl_confirm *f = &c->ckpt->confirm;
	char *now = ctl_ckpt_running_text(c), what[200], text[400], when[64];
	struct json_object *reply;
	size_t w0 = ctl_ckpt_writes(c), writes;
	long secs = ck_confirm_secs(r);
	bool mine = !strcmp(f->session, s->name), fresh = false;
	struct policy cand;
	struct diag dg;
	int rc;

	if (!now)
		return ctl_reply_error("%% out of memory");
	if (secs < 0) {
		free(now);
		return ctl_reply_error("%% commit confirmed takes 1 to %d "
		                       "seconds, not '%s'",
		                       CTL_SESS_CONFIRM_MAX, r->confirm);
	}
	if (f->session[0] && !mine) {
		free(now);
		ctl_ckpt_time((int64_t)f->deadline, when, sizeof(when));
		return ctl_reply_error(
		    "%% session %s not committed: session %s's confirmed "
		    "commit awaits confirmation (it rolls back at %s), and "
		    "that rollback would undo this one; nothing changed",
		    s->name, f->session, when);
	}
	rc = strcmp(now, s->base);
	if (rc) {
		free(now);
		return ctl_reply_error(
		    "%% session %s not committed: the running configuration "
		    "changed since the session was begun or verified (another "
		    "session's commit, a rollback, a reload or a configuration "
		    "line); nothing changed. `verify` checks the session on "
		    "the running configuration as it is now, then commit",
		    s->name);
	}
	free(now);
	diag_init(&dg, NULL);
	snprintf(what, sizeof(what),
	         "session %s not committed, nothing changed", s->name);
	if (secs && !mine) {
		/* The checkpoint to go back to, kept on disk before anything
		 * changes: a roced that dies in the middle of the commit
		 * finds it at its start. */
		struct strbuf body;
		char err[320];

		strbuf_init(&body);
		if (ctl_ckpt_take(c, &body, err, sizeof(err)) < 0) {
			strbuf_free(&body);
			return ctl_reply_error("%% session %s not committed: "
			                       "no checkpoint to roll back to: "
			                       "%s",
			                       s->name, err);
		}
		snprintf(f->session, sizeof(f->session), "%s", s->name);
		f->body = strbuf_detach(&body);
		f->since = (int64_t)time(NULL);
		f->deadline = ck_now() + (double)secs;
		fresh = true;
		if (ck_confirm_save(c->ckpt, err, sizeof(err)) < 0) {
			ck_confirm_drop(c->ckpt);
			return ctl_reply_error("%% session %s not committed: "
			                       "its checkpoint cannot be kept: "
			                       "%s",
			                       s->name, err);
		}
	}
	if (policy_copy(&cand, &s->cand) < 0) {
		if (fresh)
			ck_confirm_drop(c->ckpt);
		diag_free(&dg);
		return ctl_reply_error("%% out of memory");
	}
	rc = ctl_ckpt_change(c, &cand, CTL_CHANGE_ATOMIC, &dg);
	policy_free(&cand);
	if (rc < 0) {
		if (fresh)
			ck_confirm_drop(c->ckpt);
		log_warnx("configuration session %s: commit failed", s->name);
		reply = ctl_ckpt_error(what, &dg);
		diag_free(&dg);
		return reply;
	}
	writes = ctl_ckpt_writes(c) - w0;
	log_info("configuration session %s committed%s: %zu line%s, %zu "
	         "kernel writes",
	         s->name, secs ? " (to be confirmed)" : "", s->n,
	         s->n == 1 ? "" : "s", writes);
	if (secs) {
		char err[320];

		/* Another `commit confirmed` sets the time again; the
		 * checkpoint stays the one before the first. */
		f->deadline = ck_now() + (double)secs;
		if (!fresh && ck_confirm_save(c->ckpt, err, sizeof(err)) < 0)
			log_warnx("session %s: %s", s->name, err);
		ctl_ckpt_time((int64_t)f->deadline, when, sizeof(when));
		snprintf(text, sizeof(text),
		         "Commit Successful (%zu kernel write%s)\n"
		         "Rolls back at %s (in %ld s) unless `commit` in this "
		         "session confirms it\n",
		         writes, writes == 1 ? "" : "s", when, secs);
		if (ck_sess_restart(c, s) < 0)
			log_warnx("session %s: out of memory", s->name);
	} else {
		snprintf(text, sizeof(text),
		         "Commit Successful (%zu kernel write%s)%s\n", writes,
		         writes == 1 ? "" : "s",
		         mine ? ", confirmed: no rollback" : "");
		if (mine) {
			log_info("session %s: its confirmed commit is "
			         "confirmed",
			         s->name);
			ck_confirm_drop(c->ckpt);
		}
	}
	reply = ctl_ckpt_ok_text(text);
	json_object_object_add(reply, "writes",
	                       json_object_new_int64((int64_t)writes));
	if (secs)
		json_object_object_add(
		    reply, "rollback-at",
		    json_object_new_int64((int64_t)f->deadline));
	json_object_object_add(reply, "warnings", ctl_ckpt_warnings(&dg));
	diag_free(&dg);
	if (!secs)
		ck_sess_remove(c->ckpt, s);
	return reply;
}

/* `abort`: the session goes; one whose confirmed commit awaits
 * confirmation takes that commit back with it, at once. */
static struct json_object *ck_sess_abort(struct ctl_cmd_ctx *c,
                                         struct ctl_sess *s)
{
	char text[200], name[CMD_CKPT_NAME_MAX];
	long w;

	log_info("configuration session %s aborted (%zu line%s)", s->name, s->n,
	         s->n == 1 ? "" : "s");
	if (strcmp(c->ckpt->confirm.session, s->name)) {
		ck_sess_remove(c->ckpt, s);
		return ctl_reply_ok();
	}
	snprintf(name, sizeof(name), "%s", s->name);
	w = ck_confirm_rollback(c, "aborted");
	if (w < 0)
		return ctl_reply_error(
		    "%% session %s aborted, but the rollback "
		    "of its confirmed commit failed: see "
		    "roced's log",
		    name);
	snprintf(text, sizeof(text),
	         "Session %s aborted: its confirmed commit rolled back (%ld "
	         "kernel write%s)\n",
	         name, w, w == 1 ? "" : "s");
	return ctl_ckpt_ok_text(text);
}

struct json_object *ctl_sess_request(struct ctl_cmd_ctx *c,
                                     const struct ctl_request *r,
                                     const struct ctl_peer *peer)
{
	struct ctl_sess *s;

	if (!c->ckpt)
		return ctl_reply_error("%% configuration sessions are not "
		                       "available");
	if (!strcmp(r->op, "begin"))
		return ck_sess_begin(c, r, peer);
	if (!strcmp(r->op, "line"))
		return ck_sess_line(c->ckpt, r);
	s = ck_sess_find(c->ckpt, r->name);
	if (!s && (!strcmp(r->op, "verify") || !strcmp(r->op, "commit") ||
	           !strcmp(r->op, "abort"))) {
		if (!strcmp(c->ckpt->confirm.gone, r->name))
			return ctl_reply_error(
			    "%% no configuration session %s: %s", r->name,
			    c->ckpt->confirm.gone_why);
		return ctl_reply_error("%% no configuration session %s",
		                       r->name);
	}
	if (!strcmp(r->op, "verify"))
		return ck_sess_verify(c, s);
	if (!strcmp(r->op, "commit"))
		return ck_sess_commit(c, s, r);
	if (!strcmp(r->op, "abort"))
		return ck_sess_abort(c, s);
	return ctl_reply_error("%% unknown session operation '%s', expected "
	                       "begin, line, verify, commit or abort",
	                       r->op);
}

static struct json_object *ck_show_sessions(struct ctl_ckpt *k,
                                            const char *name,
                                            struct strbuf *text, char *err,
                                            size_t len)
{
	struct json_object *a = json_object_new_array(), *data;
	size_t listed = 0;

	for (size_t i = 0; i < k->ns; i++) {
		const struct ctl_sess *s = &k->s[i];
		struct json_object *o, *lines;
		/* The mode lines printed last: those of the line before and
		 * that line itself (it may have entered a mode). */
		const char *shown[CTL_CONTEXT_MAX + 1];
		size_t nshown = 0;
		char when[64];

		if (name[0] && strcmp(name, s->name))
			continue;
		listed++;
		ctl_ckpt_time((int64_t)s->began, when, sizeof(when));
		o = json_object_new_object();
		json_object_object_add(o, "name",
		                       json_object_new_string(s->name));
		json_object_object_add(o, "pid", json_object_new_int(s->pid));
		json_object_object_add(
		    o, "owner-alive",
		    json_object_new_boolean(ck_alive(s->pid)));
		json_object_object_add(
		    o, "began", json_object_new_int64((int64_t)s->began));
		strbuf_printf(text,
		              "config session %s: %zu line%s, began %s by "
		              "pid %d%s\n",
		              s->name, s->n, s->n == 1 ? "" : "s", when,
		              (int)s->pid,
		              ck_alive(s->pid) ? "" : " (gone: uncommitted)");
		if (!strcmp(k->confirm.session, s->name)) {
			double left = k->confirm.deadline - ck_now();

			ctl_ckpt_time((int64_t)k->confirm.deadline, when,
			              sizeof(when));
			strbuf_printf(
			    text,
			    "  commit confirmed: rolls back at %s "
			    "(in %.0f s) unless `commit` confirms it\n",
			    when, left > 0 ? left : 0);
			json_object_object_add(
			    o, "rollback-at",
			    json_object_new_int64(
			        (int64_t)k->confirm.deadline));
		}
		lines = json_object_new_array();
		for (size_t j = 0; j < s->n; j++) {
			const struct ctl_sess_line *l = &s->v[j];
			struct json_object *e = json_object_new_object();
			struct json_object *cx = json_object_new_array();
			size_t same = 0;

			/* Each mode line once, where the session entered it. */
			while (same < l->ncontext && same < nshown &&
			       !strcmp(l->context[same], shown[same]))
				same++;
			for (size_t d = same; d < l->ncontext; d++)
				strbuf_printf(text, "%*s%s\n", (int)(2 * d + 2),
				              "", l->context[d]);
			strbuf_printf(text, "%*s%s\n",
			              (int)(2 * l->ncontext + 2), "", l->line);
			for (nshown = 0; nshown < l->ncontext; nshown++) {
				shown[nshown] = l->context[nshown];
				json_object_array_add(
				    cx,
				    json_object_new_string(l->context[nshown]));
			}
			shown[nshown++] = l->line;
			json_object_object_add(e, "context", cx);
			json_object_object_add(e, "line",
			                       json_object_new_string(l->line));
			json_object_array_add(lines, e);
		}
		json_object_object_add(o, "lines", lines);
		json_object_array_add(a, o);
	}
	if (name[0] && !listed) {
		json_object_put(a);
		snprintf(err, len, "%% no configuration session %s", name);
		return NULL;
	}
	if (!listed)
		strbuf_puts(text, "No configuration session\n");
	data = json_object_new_object();
	json_object_object_add(data, "session", a);
	return data;
}

struct json_object *ctl_sess_show(struct ctl_cmd_ctx *c,
                                  const struct show_query *q)
{
	struct json_object *data, *reply;
	char err[256] = "";
	struct strbuf text;

	if (!c->ckpt)
		return ctl_reply_error("%% configuration sessions are not "
		                       "available");
	strbuf_init(&text);
	data = ck_show_sessions(c->ckpt, q->name, &text, err, sizeof(err));
	if (!data || text.oom) {
		json_object_put(data);
		strbuf_free(&text);
		return ctl_reply_error("%s", err[0] ? err : "% out of memory");
	}
	reply = ctl_reply_ok();
	json_object_object_add(reply, "data", data);
	json_object_object_add(reply, "text",
	                       json_object_new_string(strbuf_str(&text)));
	strbuf_free(&text);
	return reply;
}

void ctl_sess_close(struct ctl_ckpt *k)
{
	/* Its file stays: the next roced rolls it back at its start. */
	free(k->confirm.body);
	k->confirm.body = NULL;
	k->confirm.session[0] = '\0';
	for (size_t i = 0; i < k->ns; i++)
		ck_sess_free(&k->s[i]);
	free(k->s);
	k->s = NULL;
	k->ns = 0;
}
