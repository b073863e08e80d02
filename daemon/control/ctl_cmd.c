/* ctl_cmd: see ctl_cmd.h. ctl_srv.c has checked each request and the
 * peer's rights before it gets here.
 */
#include "control/ctl_cmd.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "base/escape.h"
#include "cmd/cmd.h"
#include "cmd/cmd_show.h"
#include "conf/conf.h"
#include "control/ctl_ckpt.h"
#include "control/ctl_sess.h"
#include "control/ctl_srv.h"
#include "control/ctl_view.h"
#include "kernel/dcb.h"
#include "kernel/probe.h"
#include "os/log.h"
#include "os/rundir.h"
#include "show/show.h"
#include "show/show_build.h"
#include "nlmsg/tc_msg.h"
#include "nlmsg/tc_stats.h"

/* "% WHAT" (when given) and then every error of D on a line of its own:
 * "% FILE:LINE: error: ..." for a file, "% text" for a command line. */
static struct json_object *dctl_diag_error(const char *what,
                                           const struct diag *d)
{
	struct json_object *r;
	struct strbuf sb;
	char line[1024];

	strbuf_init(&sb);
	if (what)
		strbuf_printf(&sb, "%% %s%s", what, d->nerrors ? ":" : "");
	for (size_t i = 0; i < d->n; i++) {
		if (d->v[i].sev != DIAG_ERROR)
			continue;
		if (d->file)
			diag_format(d, i, line, sizeof(line));
		else
			escape_buf(line, sizeof(line),
			           d->v[i].text ? d->v[i].text : "?",
			           d->v[i].text ? strlen(d->v[i].text) : 1, 0);
		strbuf_printf(&sb, "%s%% %s", sb.len ? "\n" : "", line);
	}
	r = ctl_reply_error("%s", sb.oom ? "% out of memory" : strbuf_str(&sb));
	strbuf_free(&sb);
	return r;
}

static struct json_object *dctl_warnings(const struct diag *d)
{
	struct json_object *a = json_object_new_array();
	char line[1024];

	for (size_t i = 0; i < d->n; i++) {
		if (d->v[i].sev == DIAG_ERROR)
			continue;
		diag_format(d, i, line, sizeof(line));
		json_object_array_add(a, json_object_new_string(line));
	}
	return a;
}

/* --- config --- */

/* Whether LIST ("\n"-separated lines) holds the line S. */
static bool dctl_has_line(const char *list, const char *s)
{
	size_t n = strlen(s);

	for (const char *p = list; (p = strstr(p, s)); p++)
		if ((p == list || p[-1] == '\n') &&
		    (p[n] == '\n' || p[n] == '\0'))
			return true;
	return false;
}

/* A configuration reply's warnings describe the configuration as it now
 * stands (shares that do not add up to 100 yet, what a port cannot
 * realise): the same ones would come back after every line, in every
 * rocesh session, until they are dealt with. W keeps those the last
 * reply did not stand by, so that each is told once, by the change that
 * brought it (again only once it went away and came back); C->told
 * becomes all of them. */
static void dctl_told_once(struct ctl_cmd_ctx *c, struct json_object *w)
{
	struct json_object *keep = json_object_new_array();
	struct strbuf now;

	strbuf_init(&now);
	for (size_t i = 0; i < json_object_array_length(w); i++) {
		struct json_object *e = json_object_array_get_idx(w, i);
		const char *s = json_object_get_string(e);

		if (!s)
			continue;
		if (!dctl_has_line(strbuf_str(&c->told), s))
			json_object_array_add(keep, json_object_get(e));
		strbuf_printf(&now, "%s%s", now.len ? "\n" : "", s);
	}
	strbuf_free(&c->told);
	c->told = now;
	/* W takes KEEP's entries in place of its own. */
	json_object_array_del_idx(w, 0, json_object_array_length(w));
	for (size_t i = 0; i < json_object_array_length(keep); i++)
		json_object_array_add(
		    w, json_object_get(json_object_array_get_idx(keep, i)));
	json_object_put(keep);
}

static struct json_object *dctl_config(struct ctl_cmd_ctx *c,
                                       const struct ctl_request *r)
{
	const char *path[CTL_CONTEXT_MAX];
	struct json_object *reply, *ctx_json, *standing = NULL;
	struct cmd_error cerr = {{0}, 0};
	struct policy cand;
	struct cmd_ctx ctx;
	struct diag dg;
	int rc;

	for (size_t i = 0; i < r->ncontext; i++)
		path[i] = r->context[i];
	if (cmd_ctx_from_path(&ctx, path, r->ncontext) < 0)
		return ctl_reply_error("%% the context is too long");
	if (policy_copy(&cand, c->policy) < 0)
		return ctl_reply_error("%% out of memory");
	if (cmd_apply_line(&cand, &ctx, r->line, &cerr) < 0) {
		policy_free(&cand);
		reply = ctl_reply_error("%s", cerr.message);
		if (reply)
			json_object_object_add(
			    reply, "pos", json_object_new_int((int)cerr.pos));
		return reply;
	}
	/* Line by line, states NX-OS accepts while a policy is being
	 * typed (shares not yet adding up) are warnings here. */
	diag_init(&dg, NULL);
	if (policy_validate_mode(&cand, &dg, POLICY_VALIDATE_INTERACTIVE) > 0) {
		reply = dctl_diag_error(NULL, &dg);
		goto out;
	}
	/* The policy's warnings, told or not: they are recomputed whole at
	 * each line (the plan's come only for the ports a change touches),
	 * and a script judges those its lines brought against them once it
	 * ends. */
	standing = dctl_warnings(&dg);
	rc = c->ops->commit(c->daemon, &cand, &dg);
	if (rc < 0) {
		reply = dctl_diag_error("the change could not be applied, "
		                        "nothing changed",
		                        &dg);
		goto out;
	}
	reply = ctl_reply_ok();
	ctx_json = json_object_new_array();
	for (size_t i = 0; i < ctx.depth; i++)
		json_object_array_add(ctx_json,
		                      json_object_new_string(ctx.path[i]));
	json_object_object_add(reply, "context", ctx_json);
	json_object_object_add(reply, "mode",
	                       json_object_new_string(cmd_mode_name(ctx.mode)));
	json_object_object_add(reply, "warnings", dctl_warnings(&dg));
	json_object_object_add(reply, "standing", standing);
	standing = NULL;
	/* Standing warnings once per change, not once per line. */
	{
		struct json_object *w;

		json_object_object_get_ex(reply, "warnings", &w);
		dctl_told_once(c, w);
		/* A line taken with a note ("% ignored: ..."): the note
		 * too, each time (it is about the line). */
		if (cerr.message[0])
			json_object_array_put_idx(
			    w, json_object_array_length(w),
			    json_object_new_string(cerr.message));
	}
out:
	json_object_put(standing);
	diag_free(&dg);
	policy_free(&cand);
	return reply;
}

/* --- show --- */

/* `show version`: the kernel, what roced found it and the ports can do.
 * V->ports (a new array) is the caller's to free. */
static int dctl_version(struct ctl_cmd_ctx *c, struct show_version *v,
                        struct utsname *u)
{
	const struct policy *p = c->policy;
	struct show_version_port *ports;
	struct timespec t;

	memset(v, 0, sizeof(*v));
	if (uname(u) == 0) {
		v->sysname = u->sysname;
		v->release = u->release;
		v->machine = u->machine;
	} else {
		v->sysname = v->release = v->machine = "?";
	}
	clock_gettime(CLOCK_MONOTONIC, &t);
	v->uptime_s =
	    ((double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6 - c->started_ms) /
	    1e3;
	if (v->uptime_s < 0)
		v->uptime_s = 0;
	/* NX-OS's "Kernel uptime": the boot's, CLOCK_BOOTTIME. */
	if (clock_gettime(CLOCK_BOOTTIME, &t) == 0)
		v->kernel_uptime_s = (double)t.tv_sec;
	v->preset = c->caps_preset;
	if (c->ports) {
		v->kernel_caps = c->ports->kernel;
		v->kpfc = c->ports->kpfc;
	}
	if (c->agents)
		v->contrib = c->agents->contrib.open  ? 1
		             : c->agents->contrib.err ? c->agents->contrib.err
		                                      : 0;
	ports = calloc(p->nifaces ? p->nifaces : 1, sizeof(*ports));
	if (!ports)
		return -ENOMEM;
	for (size_t i = 0; i < p->nifaces; i++) {
		const struct policy_iface *f = &p->ifaces[i];
		const struct ports_port *e =
		    c->ports ? ports_find(c->ports, f->name) : NULL;
		struct caps caps = {0};

		/* the entry's, else probed on its own (not into the
		 * registry, which stores and asks the kernel nothing) */
		if (e)
			caps = e->caps;
		else if (c->ports) {
			caps = c->ports->kernel;
			if (c->ports->probe)
				(void)probe_port(f->name, &caps);
		}
		ports[i].name = f->name;
		ports[i].alias = f->alias;
		ports[i].hw_dcb = caps.hw_dcb;
		ports[i].planned = e && e->applied;
		if (ports[i].planned) {
			ports[i].layout = e->plan.layout;
			ports[i].pfc_path = e->plan.pfc_path;
			ports[i].pfc_path_why = e->plan.pfc_path_why;
		}
	}
	v->ports = ports;
	v->nports = p->nifaces;
	return 0;
}

/* --- clear qos statistics --- */

static struct ctl_cmd_base *dctl_base_find(struct ctl_cmd_ctx *c,
                                           const char *ifname)
{
	for (size_t i = 0; i < c->nbase; i++)
		if (!strcmp(c->base[i].ifname, ifname))
			return &c->base[i];
	return NULL;
}

/* The counters of V's ports since their last clear. */
static void dctl_base_apply(struct ctl_cmd_ctx *c, struct dctl_view *v)
{
	for (size_t i = 0; i < v->n; i++) {
		const struct ctl_cmd_base *b =
		    dctl_base_find(c, v->plans[i]->ifname);

		if (b)
			show_base_apply(&b->st, &v->st[i]);
	}
}

/* `clear qos statistics [interface X]`: what the kernel counts now for
 * the ports (every configured one, or X's) becomes their baseline, and
 * the watchdog's statistics go back to 0. */
static struct json_object *dctl_clear_qos(struct ctl_cmd_ctx *c,
                                          const struct ctl_request *r)
{
	struct show_query q = {.kind = CTL_SHOW_QUEUING_IF};
	struct dctl_view view;
	char err[512] = "";
	size_t n = 0;

	if (r->iface[0] &&
	    policy_ifname_nxos(r->iface, q.iface, sizeof(q.iface)) < 0)
		return ctl_reply_error("%% interface name too long: %.64s",
		                       r->iface);
	if (dctl_gather(c, &q, &view, err, sizeof(err)) < 0)
		return ctl_reply_error("%s", err);
	for (size_t i = 0; i < view.n; i++) {
		const char *ifname = view.plans[i]->ifname;
		struct ctl_cmd_base *b = dctl_base_find(c, ifname);

		if (!b) {
			b = realloc(c->base, (c->nbase + 1) * sizeof(*c->base));
			if (!b) {
				dctl_view_free(&view);
				return ctl_reply_error("%% out of memory");
			}
			c->base = b;
			b = &c->base[c->nbase++];
			snprintf(b->ifname, sizeof(b->ifname), "%s", ifname);
		}
		b->st = view.st[i];
		if (c->agents) {
			wdpoll_clear(&c->agents->wd, ifname);
			if (view.ifindex[i])
				qcarry_peak_reset(&c->agents->qs.carry,
				                  QCARRY_PEAK_USER,
				                  view.ifindex[i]);
		}
		n++;
	}
	dctl_view_free(&view);
	log_info("QoS statistics cleared on %zu port%s%s%s", n,
	         n == 1 ? "" : "s", r->iface[0] ? " of " : "", r->iface);
	return ctl_reply_ok();
}

void ctl_cmd_free(struct ctl_cmd_ctx *c)
{
	free(c->base);
	c->base = NULL;
	c->nbase = 0;
}

static struct json_object *dctl_show(struct ctl_cmd_ctx *c,
                                     const struct ctl_request *r)
{
	struct show_version version = {0};
	struct utsname uts;
	const char *args[CTL_ARGS_MAX];
	struct show_input in = {.policy = c->policy,
	                        .global = c->ports ? &c->ports->global : NULL,
	                        .config_file = c->file,
	                        .lldp = c->lldp,
	                        .lldpad = c->agents ? &c->agents->lldpad : NULL,
	                        .stats = c->stats,
	                        .qs = c->agents ? &c->agents->qs : NULL};
	struct json_object *data = NULL, *reply;
	struct dctl_view view = {0};
	struct show_query q;
	struct cmd_error ce;
	struct policy startup;
	bool have_startup = false;
	struct strbuf text;
	char err[512];

	for (size_t i = 0; i < r->nargs; i++)
		args[i] = r->args[i];
	/* The words go through the command table's show rows, the grammar
	 * rocesh completes with: one parser for both ends. */
	if (cmd_show_query(r->what, args, r->nargs, &q, &ce) < 0)
		return ctl_reply_error("%s", ce.message);
	if (q.kind == CTL_SHOW_CKPT_SUMMARY || q.kind == CTL_SHOW_CKPT ||
	    q.kind == CTL_SHOW_CKPT_DIFF)
		return ctl_ckpt_show(c, &q);
	if (q.kind == CTL_SHOW_SESSION)
		return ctl_sess_show(c, &q);
	if (q.kind == CTL_SHOW_STARTUP_CONFIG) {
		struct diag dg;

		diag_init(&dg, c->file);
		if (conf_load_file(c->file, &startup, &dg) < 0) {
			reply = dctl_diag_error("the startup-config does not "
			                        "load",
			                        &dg);
			diag_free(&dg);
			return reply;
		}
		diag_free(&dg);
		have_startup = true;
		in.policy = &startup;
	}
	if (q.kind == CTL_SHOW_VERSION) {
		if (dctl_version(c, &version, &uts) < 0)
			return ctl_reply_error("%% out of memory");
		in.version = &version;
	}
	if (show_query_ports(&q)) {
		if (dctl_gather(c, &q, &view, err, sizeof(err)) < 0) {
			if (have_startup)
				policy_free(&startup);
			return ctl_reply_error("%s", err);
		}
		in.plans = view.plans;
		in.state = view.st;
		in.nports = view.n;
		if (q.kind == CTL_SHOW_QUEUING_IF ||
		    q.kind == CTL_SHOW_POLICY_MAP_IF)
			dctl_base_apply(c, &view);
	}
	strbuf_init(&text);
	if (show_answer(&q, &in, &data, &text, err, sizeof(err)) < 0) {
		reply = ctl_reply_error("%s", err);
	} else {
		reply = ctl_reply_ok();
		/* The metrics of a large switch are megabytes: their text
		 * alone unless the JSON was asked for. */
		if (q.kind == CTL_SHOW_METRICS && !r->json)
			json_object_put(data);
		else
			json_object_object_add(reply, "data", data);
		json_object_object_add(
		    reply, "text", json_object_new_string(strbuf_str(&text)));
	}
	strbuf_free(&text);
	dctl_view_free(&view);
	free((void *)version.ports);
	if (have_startup)
		policy_free(&startup);
	return reply;
}

int ctl_cmd_metrics(struct ctl_cmd_ctx *c, struct strbuf *out, char *err,
                    size_t errlen)
{
	struct show_query q = {.kind = CTL_SHOW_METRICS};
	struct show_input in = {.policy = c->policy,
	                        .global = c->ports ? &c->ports->global : NULL,
	                        .config_file = c->file,
	                        .lldp = c->lldp,
	                        .stats = c->stats,
	                        .qs = c->agents ? &c->agents->qs : NULL};
	struct json_object *data = NULL;
	struct dctl_view view;
	int rc;

	if (dctl_gather(c, &q, &view, err, errlen) < 0)
		return -ENOMEM;
	in.plans = view.plans;
	in.state = view.st;
	in.nports = view.n;
	rc = show_answer(&q, &in, &data, out, err, errlen) < 0 ? -ENOMEM : 0;
	/* The textfile is what Prometheus scrapes: the periodic watermarks
	 * start again after each write (show metrics by hand leaves them). */
	if (!rc && c->agents)
		qcarry_peak_reset(&c->agents->qs.carry, QCARRY_PEAK_PERIODIC,
		                  0);
	json_object_put(data);
	dctl_view_free(&view);
	return rc;
}

/* --- copy running-config startup-config --- */

/* Copy FROM to TO, both in directory DFD. */
static int dctl_copy_file(int dfd, const char *from, const char *to)
{
	char buf[8192];
	ssize_t n;
	int in, out, rc = 0;

	in = openat(dfd, from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	/* The caller removed TO: a file that appears there since is not
	 * ours to write through. */
	out =
	    openat(dfd, to,
	           O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (out < 0) {
		rc = -errno;
		close(in);
		return rc;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			rc = -EIO;
			break;
		}
	if (n < 0)
		rc = -errno;
	if (!rc && fsync(out) < 0)
		rc = -errno;
	close(in);
	close(out);
	return rc;
}

int ctl_cmd_write_atomic(const char *path, const char *text, char *err,
                         size_t errlen)
{
	struct rundir_file rf;
	char bak[sizeof(rf.base) + 8];
	struct stat st;
	bool exists;
	int dfd, rc;

	/* The new file beside the old in the same directory (rename() is
	 * atomic within one file system), every step relative to that
	 * directory, reached without following a link (rundir.h). */
	if (!rundir_create(&rf, path, 0644, 1)) {
		rc = -errno;
		snprintf(err, errlen, "cannot create a file beside %s: %s",
		         path, strerror(-rc));
		return rc;
	}
	snprintf(bak, sizeof(bak), "%s.bak", rf.base);
	exists = fstatat(rf.dfd, rf.base, &st, 0) == 0;
	if (exists) {
		fchmod(fileno(rf.f), st.st_mode & 07777);
		if (fchown(fileno(rf.f), st.st_uid, st.st_gid) < 0)
			log_debug(LOG_SUB_CTL, "%s: cannot keep the owner",
			          rf.tmp);
	}
	fputs(text, rf.f);
	/* ferror: a write that failed within fputs (rundir_commit). */
	if (fflush(rf.f) != 0 || ferror(rf.f)) {
		rc = errno ? -errno : -EIO;
		goto fail;
	}
	if (fsync(fileno(rf.f)) < 0) {
		rc = -errno;
		goto fail;
	}
	if (exists) {
		/* The backup is the file as it was: a second name for it,
		 * or a copy where hard links are not allowed. */
		if (unlinkat(rf.dfd, bak, 0) < 0 && errno != ENOENT) {
			rc = -errno;
			goto fail;
		}
		if (linkat(rf.dfd, rf.base, rf.dfd, bak, 0) < 0 &&
		    (rc = dctl_copy_file(rf.dfd, rf.base, bak)) < 0)
			goto fail;
	}
	dfd = openat(rf.dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	rc = rundir_commit(&rf);
	if (rc) {
		if (dfd >= 0)
			close(dfd);
		snprintf(err, errlen, "cannot write %s: %s", path,
		         strerror(-rc));
		return rc;
	}
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	return 0;
fail:
	snprintf(err, errlen, "cannot write %s: %s", path, strerror(-rc));
	fclose(rf.f);
	unlinkat(rf.dfd, rf.tmp, 0);
	close(rf.dfd);
	return rc;
}

static struct json_object *dctl_copy(struct ctl_cmd_ctx *c)
{
	const struct policy *p = c->policy;
	const char *file = c->file;
	struct json_object *reply;
	struct policy check;
	char *text, err[512];
	struct diag dg;

	/* The file must load at the next start: the interactive rules let
	 * through states (shares under 100) that the file rules refuse. */
	diag_init(&dg, NULL);
	if (policy_validate(p, &dg) > 0) {
		reply = dctl_diag_error("not saved: the running configuration "
		                        "does not pass the configuration "
		                        "file's checks",
		                        &dg);
		diag_free(&dg);
		return reply;
	}
	diag_free(&dg);
	text = conf_write_string(p);
	if (!text)
		return ctl_reply_error("%% out of memory");
	diag_init(&dg, "(written text)");
	if (conf_load_string(text, &check, &dg) < 0) {
		reply = dctl_diag_error("not saved: the written configuration "
		                        "does not load back (a bug)",
		                        &dg);
		diag_free(&dg);
		free(text);
		return reply;
	}
	policy_free(&check);
	diag_free(&dg);
	if (ctl_cmd_write_atomic(file, text, err, sizeof(err)) < 0) {
		free(text);
		log_warnx("copy running-config startup-config: %s", err);
		return ctl_reply_error("%% %s", err);
	}
	free(text);
	log_info("running-config saved to %s", file);
	reply = ctl_reply_ok();
	json_object_object_add(reply, "file", json_object_new_string(file));
	json_object_object_add(
	    reply, "text",
	    json_object_new_string("[########################################]"
	                           " 100%\nCopy complete.\n"));
	return reply;
}

/* --- the rest --- */

/* The candidate FILE of a dry run, resolved into OUT: it must be in the
 * directory of the configuration file CONF, where only who may write the
 * configuration puts files, so that a client with the configure right
 * cannot have roced (root) read and quote any file of the machine. */
static int dctl_candidate(const char *conf, const char *file, char *out,
                          char *err, size_t errlen)
{
	char dir[PATH_MAX], tmp[PATH_MAX], real[PATH_MAX];
	int rc;

	snprintf(tmp, sizeof(tmp), "%s", conf);
	if (!realpath(dirname(tmp), dir)) {
		rc = -errno;
		snprintf(err, errlen,
		         "%% cannot resolve the directory of %s: %s", conf,
		         strerror(-rc));
		return rc;
	}
	if (!realpath(file, real)) {
		rc = -errno;
		snprintf(err, errlen, "%% cannot read %s: %s", file,
		         strerror(-rc));
		return rc;
	}
	snprintf(tmp, sizeof(tmp), "%s", real);
	if (strcmp(dirname(tmp), dir)) {
		snprintf(err, errlen,
		         "%% %s: a candidate file must be in %s, beside the "
		         "configuration file",
		         file, dir);
		return -EPERM;
	}
	memcpy(out, real, PATH_MAX);
	return 0;
}

/* Text for rocesh to print (a plan, before and after): its config
 * strings escaped as the log escapes them, its lines kept. */
static void dctl_add_str(struct json_object *o, const char *key,
                         const struct strbuf *sb)
{
	struct strbuf e;

	strbuf_init(&e);
	escape_add(&e, sb->s ? sb->s : "", sb->len, ESCAPE_NEWLINE);
	json_object_object_add(o, key, json_object_new_string(strbuf_str(&e)));
	strbuf_free(&e);
}

static struct json_object *dctl_reload(struct ctl_cmd_ctx *c,
                                       const struct ctl_request *req)
{
	struct ctl_cmd_reload r = {.force = req->force,
	                           .dry_run = req->dry_run};
	char text[PATH_MAX + 64], path[PATH_MAX];
	char err[PATH_MAX + CTL_PATH_LEN + 128];
	struct json_object *reply;
	struct diag dg;

	if (req->file[0]) {
		if (dctl_candidate(c->file, req->file, path, err, sizeof(err)) <
		    0)
			return ctl_reply_error("%s", err);
		r.file = path;
	}
	strbuf_init(&r.before);
	strbuf_init(&r.after);
	strbuf_init(&r.text);
	diag_init(&dg, r.file ? r.file : c->file);
	if (c->ops->reload(c->daemon, &r, &dg) < 0)
		reply =
		    dctl_diag_error(r.dry_run ? "the file would be refused, "
		                                "nothing changed"
		                              : "reload failed, the running "
		                                "configuration stays",
		                    &dg);
	else if (r.before.oom || r.after.oom || r.text.oom)
		reply = ctl_reply_error("%% out of memory");
	else if (r.dry_run) {
		reply = ctl_reply_ok();
		json_object_object_add(reply, "warnings", dctl_warnings(&dg));
		json_object_object_add(
		    reply, "plan-changed",
		    json_object_new_boolean(r.ports_changed));
		json_object_object_add(
		    reply, "ports-changed",
		    json_object_new_int64((int64_t)r.ports_changed));
		json_object_object_add(
		    reply, "ports-running",
		    json_object_new_int64((int64_t)r.ports_running));
		json_object_object_add(
		    reply, "ports-candidate",
		    json_object_new_int64((int64_t)r.ports_candidate));
		dctl_add_str(reply, "before", &r.before);
		dctl_add_str(reply, "after", &r.after);
		if (!r.ports_changed)
			strbuf_printf(&r.text,
			              "A reload of %s would change no port's "
			              "plan\n",
			              r.file ? r.file : c->file);
		dctl_add_str(reply, "text", &r.text);
	} else {
		reply = ctl_reply_ok();
		json_object_object_add(reply, "warnings", dctl_warnings(&dg));
		json_object_object_add(
		    reply, "writes", json_object_new_int64((int64_t)r.writes));
		/* rocesh prints it: `systemctl reload` leaves it in the
		 * journal. */
		escape_buf(path, sizeof(path), c->file, strlen(c->file), 0);
		snprintf(text, sizeof(text),
		         "Reloaded %s (%zu kernel write%s)\n", path, r.writes,
		         r.writes == 1 ? "" : "s");
		json_object_object_add(reply, "text",
		                       json_object_new_string(text));
	}
	strbuf_free(&r.before);
	strbuf_free(&r.after);
	strbuf_free(&r.text);
	diag_free(&dg);
	return reply;
}

static struct json_object *dctl_debug(const struct ctl_request *r)
{
	struct json_object *reply;
	char err[256], text[128];
	int rc;

	rc = r->on ? log_debug_enable(r->subsys, err, sizeof(err))
	           : log_debug_disable(r->subsys, err, sizeof(err));
	if (rc < 0)
		return ctl_reply_error("%% %s", err);
	log_info("debug %s %s", r->subsys, r->on ? "on" : "off");
	snprintf(text, sizeof(text), "Debugging %s is %s\n", r->subsys,
	         r->on ? "on" : "off");
	reply = ctl_reply_ok();
	json_object_object_add(reply, "text", json_object_new_string(text));
	return reply;
}

/* `priority-flow-control recover interface X qos-group N` and
 * `clear queuing pfc-queue [interface X]`. */
static struct json_object *dctl_pfc_queue(struct ctl_cmd_ctx *c,
                                          const struct ctl_request *r)
{
	const struct policy_iface *f = NULL;
	struct timespec t;
	char *end;
	long q;
	int rc;

	if (!strcmp(r->op, "clear-qos"))
		return dctl_clear_qos(c, r);
	if (!c->agents)
		return ctl_reply_error("%% the PFC watchdog is not running");
	if (r->iface[0]) {
		f = policy_find_iface(c->policy, r->iface);
		if (!f)
			return ctl_reply_error("%% interface %s is not "
			                       "configured",
			                       r->iface);
	}
	if (!strcmp(r->op, "clear")) {
		rc = wdpoll_clear(&c->agents->wd, f ? f->name : NULL);
		if (rc == -ENOENT)
			return ctl_reply_error("%% the PFC watchdog does not "
			                       "watch %s",
			                       f->name);
		if (rc < 0)
			log_warnx("%s: %s", c->agents->wd.path, strerror(-rc));
		log_info("PFC watchdog statistics cleared%s%s", f ? " on " : "",
		         f ? f->name : "");
		return ctl_reply_ok();
	}
	if (strcmp(r->op, "recover"))
		return ctl_reply_error("%% unknown pfc-queue operation '%s', "
		                       "expected recover, clear or clear-qos",
		                       r->op);
	q = strtol(r->qos_group, &end, 10);
	if (!f || !r->qos_group[0] || *end || q < 0 || q >= POLICY_NQUEUES)
		return ctl_reply_error("%% recover needs an interface and a "
		                       "qos-group 0-7");
	clock_gettime(CLOCK_MONOTONIC, &t);
	rc = wdpoll_recover(&c->agents->wd, f->name, (unsigned)q,
	                    (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6);
	if (rc == -ENOENT)
		return ctl_reply_error("%% %s qos-group %ld is not a no-drop "
		                       "queue the PFC watchdog watches",
		                       f->name, q);
	if (rc == -EALREADY)
		return ctl_reply_error("%% %s qos-group %ld is not shut by the "
		                       "PFC watchdog",
		                       f->name, q);
	return ctl_reply_ok();
}

static struct json_object *dctl_ping(struct ctl_cmd_ctx *c)
{
	struct json_object *reply = ctl_reply_ok();

	json_object_object_add(reply, "version",
	                       json_object_new_string(SHOW_BUILD_VERSION));
	json_object_object_add(reply, "pid", json_object_new_int(getpid()));
	json_object_object_add(reply, "config",
	                       json_object_new_string(c->file));
	if (c->writes)
		json_object_object_add(
		    reply, "writes",
		    json_object_new_int64((int64_t)*c->writes));
	return reply;
}

struct json_object *ctl_cmd_handle(void *data, const struct ctl_request *req,
                                   const struct ctl_peer *peer)
{
	struct ctl_cmd_ctx *c = data;
	struct json_object *refused = ctl_sess_guard(c, req);

	if (refused)
		return refused;
	switch (req->cmd) {
	case CTL_CMD_CONFIG:
		log_debug(LOG_SUB_CTL, "config: '%s'", req->line);
		return dctl_config(c, req);
	case CTL_CMD_SHOW:
		return dctl_show(c, req);
	case CTL_CMD_COPY:
		return dctl_copy(c);
	case CTL_CMD_RELOAD:
		return dctl_reload(c, req);
	case CTL_CMD_DEBUG:
		return dctl_debug(req);
	case CTL_CMD_PFC_QUEUE:
		return dctl_pfc_queue(c, req);
	case CTL_CMD_PING:
		return dctl_ping(c);
	case CTL_CMD_CHECKPOINT:
		return ctl_ckpt_request(c, req, peer);
	case CTL_CMD_SESSION:
		return ctl_sess_request(c, req, peer);
	}
	return ctl_reply_error("%% unknown request");
}
