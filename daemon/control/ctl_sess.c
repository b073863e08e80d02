/* ctl_sess: configuration sessions, the daemon's side (see ctl_sess.h).
 * The replies and the change through the daemon's one path are
 * ctl_ckpt.c's, which a rollback shares.
 */
#include "control/ctl_sess.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "control/ctl_srv.h"
#include "os/log.h"

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
		if (s->pid != pid)
			snprintf(text, sizeof(text),
			         "%% Resuming session %s, left uncommitted by "
			         "pid %d: %zu line%s, nothing of it applied\n",
			         r->name, (int)s->pid, s->n,
			         s->n == 1 ? "" : "s");
		else
			text[0] = '\0';
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

static struct json_object *ck_sess_commit(struct ctl_cmd_ctx *c,
                                          struct ctl_sess *s)
{
	char *now = ctl_ckpt_running_text(c), what[200], text[160];
	struct json_object *reply;
	size_t w0 = ctl_ckpt_writes(c);
	struct policy cand;
	struct diag dg;
	int rc;

	if (!now)
		return ctl_reply_error("%% out of memory");
	rc = strcmp(now, s->base);
	free(now);
	if (rc)
		return ctl_reply_error(
		    "%% session %s not committed: the running configuration "
		    "changed since the session was begun or verified (another "
		    "session's commit, a rollback, a reload or a configuration "
		    "line); nothing changed. `verify` checks the session on "
		    "the running configuration as it is now, then commit",
		    s->name);
	diag_init(&dg, NULL);
	snprintf(what, sizeof(what),
	         "session %s not committed, nothing changed", s->name);
	if (policy_copy(&cand, &s->cand) < 0) {
		diag_free(&dg);
		return ctl_reply_error("%% out of memory");
	}
	rc = ctl_ckpt_change(c, &cand, CTL_CHANGE_ATOMIC, &dg);
	policy_free(&cand);
	if (rc < 0) {
		log_warnx("configuration session %s: commit failed", s->name);
		reply = ctl_ckpt_error(what, &dg);
		diag_free(&dg);
		return reply;
	}
	log_info("configuration session %s committed: %zu line%s, %zu kernel "
	         "writes",
	         s->name, s->n, s->n == 1 ? "" : "s", ctl_ckpt_writes(c) - w0);
	snprintf(text, sizeof(text), "Commit Successful (%zu kernel write%s)\n",
	         ctl_ckpt_writes(c) - w0,
	         ctl_ckpt_writes(c) - w0 == 1 ? "" : "s");
	reply = ctl_ckpt_ok_text(text);
	json_object_object_add(
	    reply, "writes",
	    json_object_new_int64((int64_t)(ctl_ckpt_writes(c) - w0)));
	json_object_object_add(reply, "warnings", ctl_ckpt_warnings(&dg));
	diag_free(&dg);
	ck_sess_remove(c->ckpt, s);
	return reply;
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
	           !strcmp(r->op, "abort")))
		return ctl_reply_error("%% no configuration session %s",
		                       r->name);
	if (!strcmp(r->op, "verify"))
		return ck_sess_verify(c, s);
	if (!strcmp(r->op, "commit"))
		return ck_sess_commit(c, s);
	if (!strcmp(r->op, "abort")) {
		log_info("configuration session %s aborted (%zu line%s)",
		         r->name, s->n, s->n == 1 ? "" : "s");
		ck_sess_remove(c->ckpt, s);
		return ctl_reply_ok();
	}
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
	for (size_t i = 0; i < k->ns; i++)
		ck_sess_free(&k->s[i]);
	free(k->s);
	k->s = NULL;
	k->ns = 0;
}
