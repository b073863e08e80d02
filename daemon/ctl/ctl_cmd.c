/* daemon_ctl: the daemon's answers to control requests (ctl.h): config
 * lines through the same commit path as a reload, show commands with the
 * kernel's counters, copy running-config startup-config, reload, debug
 * and ping. ctl_srv.c has checked each request and the peer's rights
 * before it gets here.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "conf/conf.h"
#include "ctl/ctl_srv.h"
#include "core/daemon_int.h"
#include "kernel/dcb.h"
#include "core/log.h"
#include "show/show.h"
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
			snprintf(line, sizeof(line), "%s",
			         d->v[i].text ? d->v[i].text : "?");
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

static struct json_object *dctl_config(struct daemon *d,
                                       const struct ctl_request *r)
{
	const char *path[CTL_CONTEXT_MAX];
	struct json_object *reply, *ctx_json;
	struct cmd_error cerr = {{0}, 0};
	struct policy cand;
	struct cmd_ctx ctx;
	struct diag dg;
	int rc;

	for (size_t i = 0; i < r->ncontext; i++)
		path[i] = r->context[i];
	if (cmd_ctx_from_path(&ctx, path, r->ncontext) < 0)
		return ctl_reply_error("%% the context is too long");
	if (policy_copy(&cand, daemon_policy(d)) < 0)
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
	rc = daemon_commit(d, &cand, &dg);
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
out:
	diag_free(&dg);
	policy_free(&cand);
	return reply;
}

/* --- show --- */

struct dctl_stats {
	struct plan *pl;
	struct show_port_state *st;
	int *ifindex;
};

static int dctl_stats_cb(const struct nlmsghdr *nlh, void *data)
{
	struct dctl_stats *s = data;
	struct tc_stats_obj o;
	int q;

	if (tc_stats_parse(nlh, nlh->nlmsg_len, &o) < 0 ||
	    o.obj != TC_MSG_QDISC)
		return MNL_CB_OK;
	q = tc_msg_leaf_queue(o.handle);
	if (q < 0 || q >= POLICY_NQUEUES)
		return MNL_CB_OK;
	for (size_t i = 0; i < s->pl->nports; i++) {
		if (s->ifindex[i] != o.ifindex || !s->ifindex[i])
			continue;
		s->st[i].queue_seen[q] = true;
		s->st[i].queue[q] = o.st;
		snprintf(s->st[i].leaf_kind[q], sizeof(s->st[i].leaf_kind[q]),
		         "%s", o.kind);
	}
	return MNL_CB_OK;
}

/* The plans of the ports Q is about and what the kernel holds for them:
 * one qdisc dump for the queue counters (the kernel answers it with every
 * link's qdiscs), and the IEEE DCB state of hardware ports. */
static int dctl_gather(struct daemon *d, const struct show_query *q,
                       struct plan *pl, struct show_port_state **out, char *err,
                       size_t errlen)
{
	const struct policy *p = daemon_policy(d);
	struct engine *e = daemon_engine(d);
	struct compile_port *ports;
	struct dctl_stats s = {.pl = pl};
	size_t n = 0;
	int rc = -ENOMEM;

	plan_init(pl);
	*out = NULL;
	ports = calloc(p->nifaces + 1, sizeof(*ports));
	if (!ports)
		goto fail;
	if (q->iface[0]) {
		const struct policy_iface *f = policy_find_iface(p, q->iface);
		struct link_info li;

		if (!f && (strlen(q->iface) >= POLICY_IFNAME_MAX ||
		           link_lookup(e->links, q->iface, &li) < 0)) {
			snprintf(
			    err, errlen,
			    "%% Invalid interface '%s': neither configured "
			    "nor a link in roced's namespace",
			    q->iface);
			free(ports);
			return -ENODEV;
		}
		snprintf(ports[0].ifname, sizeof(ports[0].ifname), "%s",
		         f ? f->name : q->iface);
		n = 1;
	} else {
		for (; n < p->nifaces; n++)
			snprintf(ports[n].ifname, sizeof(ports[n].ifname), "%s",
			         p->ifaces[n].name);
	}
	daemon_ports_caps(d, ports, n);
	rc = compile_policy(p, ports, n, pl);
	free(ports);
	if (rc < 0)
		goto fail;
	rc = -ENOMEM;
	*out = calloc(pl->nports + 1, sizeof(**out));
	s.st = *out;
	s.ifindex = calloc(pl->nports + 1, sizeof(*s.ifindex));
	if (!*out || !s.ifindex)
		goto fail;
	for (size_t i = 0; i < pl->nports; i++) {
		struct link_info li;

		if (link_lookup(e->links, pl->ports[i].ifname, &li) == 0) {
			s.st[i].exists = true;
			s.ifindex[i] = li.ifindex;
		}
	}
	if (show_query_ports(q) && q->kind != SHOW_LLDP_DCBX) {
		char req[TC_MSG_BUF_SIZE] __attribute__((aligned(4)));
		struct nlb_error nerr;

		rc = tc_msg_dump(req, sizeof(req), TC_MSG_QDISC, 0, 0, 0);
		if (rc == 0)
			rc = nlb_dump(&e->nl, (struct nlmsghdr *)req,
			              dctl_stats_cb, &s, &nerr);
		if (rc < 0)
			log_warnx("show: cannot read the qdisc counters: %s",
			          strerror(-rc));
		for (size_t i = 0; rc == 0 && i < pl->nports; i++)
			s.st[i].stats = s.st[i].exists;
	}
	for (size_t i = 0; i < pl->nports; i++) {
		struct dcbnl_msg_ieee *cur;
		struct plan_dcb have;

		if (pl->ports[i].dcb.software || !s.st[i].exists)
			continue;
		cur = calloc(1, sizeof(*cur));
		if (cur &&
		    dcb_observe(&dcb_ops_netlink, &e->nl, pl->ports[i].ifname,
		                cur, &have) == 0 &&
		    (cur->present & DCBNL_MSG_HAS_PFC)) {
			s.st[i].dcb = true;
			s.st[i].pfc_en = cur->pfc.pfc_en;
			for (unsigned k = 0; k < 8; k++) {
				s.st[i].requests[k] = cur->pfc.requests[k];
				s.st[i].indications[k] =
				    cur->pfc.indications[k];
			}
		}
		free(cur);
	}
	free(s.ifindex);
	return 0;
fail:
	snprintf(err, errlen, "%% cannot build the answer: %s", strerror(-rc));
	free(s.ifindex);
	free(*out);
	*out = NULL;
	plan_free(pl);
	return rc;
}

static struct json_object *dctl_show(struct daemon *d,
                                     const struct ctl_request *r)
{
	const char *args[CTL_ARGS_MAX];
	struct show_input in = {.policy = daemon_policy(d),
	                        .config_file = daemon_file(d)};
	struct show_port_state *st = NULL;
	struct json_object *data = NULL, *reply;
	struct show_query q;
	struct policy startup;
	bool have_startup = false, have_plan = false;
	struct strbuf text;
	struct plan pl;
	char err[512];

	for (size_t i = 0; i < r->nargs; i++)
		args[i] = r->args[i];
	if (show_query_parse(r->what, args, r->nargs, &q, err, sizeof(err)) < 0)
		return ctl_reply_error("%s", err);
	if (q.kind == SHOW_STARTUP_CONFIG) {
		struct diag dg;

		diag_init(&dg, daemon_file(d));
		if (conf_load_file(daemon_file(d), &startup, &dg) < 0) {
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
	if (show_query_ports(&q)) {
		if (dctl_gather(d, &q, &pl, &st, err, sizeof(err)) < 0)
			return ctl_reply_error("%s", err);
		have_plan = true;
		in.plan = &pl;
		in.state = st;
	}
	strbuf_init(&text);
	if (show_answer(&q, &in, &data, &text, err, sizeof(err)) < 0) {
		reply = ctl_reply_error("%s", err);
	} else {
		reply = ctl_reply_ok();
		json_object_object_add(reply, "data", data);
		json_object_object_add(
		    reply, "text", json_object_new_string(strbuf_str(&text)));
	}
	strbuf_free(&text);
	if (have_plan) {
		plan_free(&pl);
		free(st);
	}
	if (have_startup)
		policy_free(&startup);
	return reply;
}

/* --- copy running-config startup-config --- */

static int dctl_copy_file(const char *from, const char *to)
{
	char buf[8192];
	ssize_t n;
	int in, out, rc = 0;

	in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
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

int daemon_write_atomic(const char *path, const char *text, char *err,
                        size_t errlen)
{
	char tmp[4096], bak[4096], dir[4096];
	size_t len = strlen(text), off = 0;
	struct stat st;
	bool exists;
	int fd, dfd, rc;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmpXXXXXX", path) >=
	        sizeof(tmp) ||
	    (size_t)snprintf(bak, sizeof(bak), "%s.bak", path) >= sizeof(bak)) {
		snprintf(err, errlen, "%s: path too long", path);
		return -ENAMETOOLONG;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	exists = stat(path, &st) == 0;
	/* Same directory: rename() is atomic within one file system. */
	fd = mkstemp(tmp);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot create a file beside %s: %s",
		         path, strerror(-rc));
		return rc;
	}
	fchmod(fd, exists ? (st.st_mode & 07777) : 0644);
	if (exists && fchown(fd, st.st_uid, st.st_gid) < 0)
		log_debug(LOG_SUB_CTL, "%s: cannot keep the owner", tmp);
	while (off < len) {
		ssize_t n = write(fd, text + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = n < 0 ? -errno : -EIO;
			goto fail;
		}
		off += (size_t)n;
	}
	if (fsync(fd) < 0) {
		rc = -errno;
		goto fail;
	}
	close(fd);
	fd = -1;
	if (exists) {
		/* The backup is the file as it was: a second name for it,
		 * or a copy where hard links are not allowed. */
		if (unlink(bak) < 0 && errno != ENOENT) {
			rc = -errno;
			goto fail;
		}
		if (link(path, bak) < 0 && (rc = dctl_copy_file(path, bak)) < 0)
			goto fail;
	}
	if (rename(tmp, path) < 0) {
		rc = -errno;
		goto fail;
	}
	dfd = open(dirname(dir), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	return 0;
fail:
	snprintf(err, errlen, "cannot write %s: %s", path, strerror(-rc));
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	return rc;
}

static struct json_object *dctl_copy(struct daemon *d)
{
	const struct policy *p = daemon_policy(d);
	const char *file = daemon_file(d);
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
	if (daemon_write_atomic(file, text, err, sizeof(err)) < 0) {
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

static struct json_object *dctl_reload(struct daemon *d)
{
	struct json_object *reply;
	struct diag dg;

	diag_init(&dg, daemon_file(d));
	if (daemon_reload(d, &dg) < 0)
		reply = dctl_diag_error("reload failed, the running "
		                        "configuration stays",
		                        &dg);
	else {
		reply = ctl_reply_ok();
		json_object_object_add(reply, "warnings", dctl_warnings(&dg));
	}
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

static struct json_object *dctl_ping(struct daemon *d)
{
	struct json_object *reply = ctl_reply_ok();

	json_object_object_add(reply, "version",
	                       json_object_new_string(PACKAGE_VERSION));
	json_object_object_add(reply, "pid", json_object_new_int(getpid()));
	json_object_object_add(reply, "config",
	                       json_object_new_string(daemon_file(d)));
	return reply;
}

struct json_object *daemon_ctl_handle(void *daemon,
                                      const struct ctl_request *req,
                                      const struct ctl_peer *peer)
{
	struct daemon *d = daemon;

	(void)peer;
	switch (req->cmd) {
	case CTL_CMD_CONFIG:
		log_debug(LOG_SUB_CTL, "config: '%s'", req->line);
		return dctl_config(d, req);
	case CTL_CMD_SHOW:
		return dctl_show(d, req);
	case CTL_CMD_COPY:
		return dctl_copy(d);
	case CTL_CMD_RELOAD:
		return dctl_reload(d);
	case CTL_CMD_DEBUG:
		return dctl_debug(req);
	case CTL_CMD_PING:
		return dctl_ping(d);
	}
	return ctl_reply_error("%% unknown request");
}
