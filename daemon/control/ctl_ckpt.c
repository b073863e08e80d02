/* ctl_ckpt: see ctl_ckpt.h. */
#include "control/ctl_ckpt.h"

#include <dirent.h>
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

#include "conf/conf.h"
#include "control/ctl_srv.h"
#include "os/log.h"
#include "os/rundir.h"

/* --- replies --- */

/* "% WHAT" and then each error of D on a line of its own. */
struct json_object *ctl_ckpt_error(const char *what, const struct diag *d)
{
	struct json_object *r;
	struct strbuf sb;
	char line[1024];

	strbuf_init(&sb);
	if (what)
		strbuf_printf(&sb, "%% %s", what);
	for (size_t i = 0; d && i < d->n; i++) {
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

struct json_object *ctl_ckpt_warnings(const struct diag *d)
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

struct json_object *ctl_ckpt_ok_text(const char *text)
{
	struct json_object *r = ctl_reply_ok();

	json_object_object_add(r, "text", json_object_new_string(text));
	return r;
}

/* The running policy's roced.conf text: what tells two running
 * configurations apart (NULL on ENOMEM). */
char *ctl_ckpt_running_text(const struct ctl_cmd_ctx *c)
{
	return conf_write_string(c->policy);
}

/* Make CAND the running policy through the daemon's one path. */
int ctl_ckpt_change(struct ctl_cmd_ctx *c, struct policy *cand, unsigned flags,
                    struct diag *msgs)
{
	if (c->ops->change)
		return c->ops->change(c->daemon, cand, flags, msgs);
	if (flags & CTL_CHANGE_CHECK)
		return 0;
	return c->ops->commit(c->daemon, cand, msgs);
}

/* --- the store --- */

static void ck_entry_free(struct ctl_ckpt_entry *e)
{
	free(e->body);
	e->body = NULL;
}

static struct ctl_ckpt_entry *ck_find(struct ctl_ckpt *k, const char *name)
{
	for (size_t i = 0; i < k->n; i++)
		if (!strcmp(k->v[i].file, name))
			return &k->v[i];
	return NULL;
}

static struct ctl_ckpt_entry *ck_add(struct ctl_ckpt *k)
{
	struct ctl_ckpt_entry *v = realloc(k->v, (k->n + 1) * sizeof(*v));

	if (!v)
		return NULL;
	k->v = v;
	memset(&v[k->n], 0, sizeof(v[0]));
	return &v[k->n++];
}

static void ck_remove(struct ctl_ckpt *k, struct ctl_ckpt_entry *e)
{
	size_t i = (size_t)(e - k->v);

	ck_entry_free(e);
	memmove(&k->v[i], &k->v[i + 1], (k->n - i - 1) * sizeof(k->v[0]));
	k->n--;
}

/* Read the file NAME of K's directory into E: never through a symbolic
 * link, and only a regular file of a sane size. */
static void ck_read(struct ctl_ckpt *k, const char *name,
                    struct ctl_ckpt_entry *e)
{
	char path[512], *buf = NULL;
	const char *body;
	size_t len = 0, blen;
	struct stat st;
	struct policy p;
	struct cmd_error ce;
	int fd;

	snprintf(e->file, sizeof(e->file), "%s", name);
	snprintf(e->m.name, sizeof(e->m.name), "%s", name);
	snprintf(path, sizeof(path), "%s/%s", k->dir, name);
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		snprintf(e->bad, sizeof(e->bad), "cannot open %.200s: %s", path,
		         strerror(errno));
		return;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (size_t)st.st_size > CMD_CKPT_FILE_MAX) {
		snprintf(e->bad, sizeof(e->bad),
		         "%.200s is not a regular file of at most %u bytes",
		         path, CMD_CKPT_FILE_MAX);
		close(fd);
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
	if (!buf) {
		snprintf(e->bad, sizeof(e->bad), "out of memory");
		return;
	}
	if (cmd_ckpt_parse(buf, len, &e->m, &body, &blen, e->bad,
	                   sizeof(e->bad)) < 0) {
		/* The name stays the file's: that is how it is removed. */
		snprintf(e->m.name, sizeof(e->m.name), "%s", name);
		free(buf);
		return;
	}
	if (strcmp(e->m.name, name)) {
		snprintf(e->bad, sizeof(e->bad),
		         "its header names '%s', its file '%s'", e->m.name,
		         name);
		snprintf(e->m.name, sizeof(e->m.name), "%s", name);
		free(buf);
		return;
	}
	e->body = strndup(body, blen);
	free(buf);
	/* A body that does not rebuild a policy is no use either. */
	if (e->body && cmd_ckpt_replay(e->body, &p, &ce) < 0) {
		snprintf(e->bad, sizeof(e->bad), "%s", ce.message);
		ck_entry_free(e);
		return;
	}
	if (e->body)
		policy_free(&p);
}

static int ck_cmp(const void *a, const void *b)
{
	const struct ctl_ckpt_entry *x = a, *y = b;

	if (x->m.created != y->m.created)
		return x->m.created < y->m.created ? -1 : 1;
	return strcmp(x->file, y->file);
}

/* The cookie DIR/.netns names, 0 when there is none to read. */
static uint64_t ck_netns_read(int dfd)
{
	char buf[32];
	unsigned long long v = 0;
	ssize_t n;
	int fd = openat(dfd, ".netns", O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	if (sscanf(buf, "%llu", &v) != 1)
		return 0;
	return (uint64_t)v;
}

/* Empty and remove DIR (its descriptor DFD), the state of a namespace
 * that is gone. Only its regular files are removed: anything else
 * leaves it in place, and that is said. */
static int ck_purge(int dfd, const char *dir)
{
	struct dirent *de;
	int rc = 0, fd = dup(dfd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return -errno;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (unlinkat(dfd, de->d_name, 0) < 0 && errno != ENOENT)
			rc = -errno;
	}
	closedir(d);
	if (!rc && rmdir(dir) < 0)
		rc = -errno;
	return rc;
}

int ctl_ckpt_prepare(struct ctl_ckpt *k, char *err, size_t errlen)
{
	char path[512], text[32];
	int rc = rundir_prepare(k->dir, err, errlen);

	if (rc < 0 || !k->netns)
		return rc;
	snprintf(path, sizeof(path), "%s/.netns", k->dir);
	if (access(path, F_OK) == 0)
		return 0;
	snprintf(text, sizeof(text), "%llu\n", (unsigned long long)k->netns);
	rc = rundir_write(path, text, 0600);
	if (rc < 0)
		snprintf(err, errlen, "cannot write %.200s: %s", path,
		         strerror(-rc));
	return rc;
}

int ctl_ckpt_open(struct ctl_ckpt *k, const char *dir, uint64_t netns)
{
	char err[512];
	struct dirent *de;
	uint64_t was;
	DIR *d;
	int rc;

	memset(k, 0, sizeof(*k));
	k->netns = netns;
	if (!dir || !*dir)
		return 0;
	if (strlen(dir) >= sizeof(k->dir) - CMD_CKPT_NAME_MAX - 8)
		return -ENAMETOOLONG;
	snprintf(k->dir, sizeof(k->dir), "%s", dir);
	/* Made by the first checkpoint, removed with the last: a roced
	 * that never takes one leaves nothing behind. */
	if (access(dir, F_OK) < 0 && errno == ENOENT)
		return 0;
	rc = rundir_prepare(dir, err, sizeof(err));
	if (rc < 0) {
		log_warnx("checkpoints kept in memory only: %s", err);
		k->dir[0] = '\0';
		return rc;
	}
	d = opendir(dir);
	if (!d) {
		rc = -errno;
		log_warnx("checkpoints: cannot read %s: %s", dir,
		          strerror(-rc));
		k->dir[0] = '\0';
		return rc;
	}
	was = ck_netns_read(dirfd(d));
	if (was && netns && was != netns) {
		/* Another namespace's, which had this one's inode: its
		 * checkpoints name ports and a policy of a network that no
		 * longer exists. */
		rc = ck_purge(dirfd(d), dir);
		closedir(d);
		if (rc < 0) {
			log_warnx("checkpoints: %s was left by a network "
			          "namespace that is gone and cannot be "
			          "removed (%s): checkpoints kept in memory "
			          "only",
			          dir, strerror(-rc));
			k->dir[0] = '\0';
			return rc;
		}
		log_info("checkpoints: %s was left by a network namespace "
		         "that is gone: removed",
		         dir);
		return 0;
	}
	while ((de = readdir(d))) {
		struct ctl_ckpt_entry *e;
		char why[160];
		size_t n = strlen(de->d_name);

		/* rundir's unfinished files end in ".new" */
		if (de->d_name[0] == '.' ||
		    (n > 4 && !strcmp(de->d_name + n - 4, ".new")))
			continue;
		if (cmd_ckpt_name_ok(de->d_name, why, sizeof(why)) < 0) {
			log_warnx("checkpoints: %s/%s is no checkpoint: %s",
			          dir, de->d_name, why);
			continue;
		}
		e = ck_add(k);
		if (!e)
			break;
		ck_read(k, de->d_name, e);
		if (e->bad[0])
			log_warnx("checkpoint %s (%s/%s) is damaged and cannot "
			          "be rolled back to: %s",
			          e->file, dir, e->file, e->bad);
	}
	closedir(d);
	/* A directory holding only a confirmed commit's hidden file has
	 * no checkpoint: no array to sort. */
	if (k->n)
		qsort(k->v, k->n, sizeof(*k->v), ck_cmp);
	if (k->n)
		log_info("%zu checkpoint%s in %s", k->n, k->n == 1 ? "" : "s",
		         dir);
	return 0;
}

void ctl_ckpt_close(struct ctl_ckpt *k)
{
	for (size_t i = 0; i < k->n; i++)
		ck_entry_free(&k->v[i]);
	free(k->v);
	k->v = NULL;
	k->n = 0;
}

/* --- checkpoint requests --- */

int ctl_ckpt_take(const struct ctl_cmd_ctx *c, struct strbuf *body, char *err,
                  size_t len)
{
	struct cmd_error ce;
	struct policy back;
	char *a, *b;
	int rc;

	cmd_ckpt_text(c->policy, body);
	if (body->oom) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	/* The text must rebuild the running configuration exactly, or a
	 * rollback to it would not restore what was kept. */
	if (cmd_ckpt_replay(strbuf_str(body), &back, &ce) < 0) {
		snprintf(err, len, "%s", ce.message);
		return -1;
	}
	a = conf_write_string(c->policy);
	b = conf_write_string(&back);
	policy_free(&back);
	rc = a && b && !strcmp(a, b) ? 0 : -1;
	if (rc < 0)
		snprintf(err, len,
		         "its text does not rebuild the running configuration "
		         "exactly");
	free(a);
	free(b);
	return rc;
}

static struct json_object *ck_create(struct ctl_cmd_ctx *c,
                                     const struct ctl_request *r,
                                     const struct ctl_peer *peer)
{
	struct ctl_ckpt *k = c->ckpt;
	struct cmd_ckpt_meta m = {.created = (int64_t)time(NULL)};
	struct strbuf body, file;
	struct ctl_ckpt_entry *e;
	char why[320];
	struct json_object *reply = NULL;
	int rc;

	m.uid = peer ? (uint32_t)peer->uid : 0;
	if (k->n >= CMD_CKPT_MAX)
		return ctl_reply_error("%% %d checkpoints exist: remove one "
		                       "(no checkpoint NAME) or all (clear "
		                       "checkpoint database)",
		                       CMD_CKPT_MAX);
	if (r->name[0]) {
		if (cmd_ckpt_name_ok(r->name, why, sizeof(why)) < 0)
			return ctl_reply_error("%% checkpoint %s: %s", r->name,
			                       why);
		if (ck_find(k, r->name))
			return ctl_reply_error(
			    "%% checkpoint %s exists: names are unique (no "
			    "checkpoint %s first)",
			    r->name, r->name);
		snprintf(m.name, sizeof(m.name), "%.32s", r->name);
	} else {
		/* As NX-OS: user-checkpoint-N, the lowest N free. */
		for (unsigned n = 1; !m.name[0]; n++) {
			char name[CMD_CKPT_NAME_MAX];

			snprintf(name, sizeof(name), CMD_CKPT_AUTO_PREFIX "%u",
			         n);
			if (!ck_find(k, name))
				snprintf(m.name, sizeof(m.name), "%s", name);
		}
	}
	if (strlen(r->descr) >= sizeof(m.descr) || strchr(r->descr, '\n'))
		return ctl_reply_error("%% a description has at most %d "
		                       "characters on one line",
		                       CMD_CKPT_DESCR_MAX - 1);
	snprintf(m.descr, sizeof(m.descr), "%s", r->descr);
	strbuf_init(&body);
	strbuf_init(&file);
	if (ctl_ckpt_take(c, &body, why, sizeof(why)) < 0) {
		reply = ctl_reply_error("%% checkpoint %s not taken: %s",
		                        m.name, why);
		goto out;
	}
	cmd_ckpt_format(&m, strbuf_str(&body), &file);
	if (k->dir[0]) {
		char path[512], werr[512];

		snprintf(path, sizeof(path), "%s/%s", k->dir, m.name);
		rc = ctl_ckpt_prepare(k, werr, sizeof(werr));
		if (rc < 0) {
			reply = ctl_reply_error(
			    "%% checkpoint %s not taken: %s", m.name, werr);
			goto out;
		}
		rc = file.oom ? -ENOMEM
		              : rundir_write(path, strbuf_str(&file), 0600);
		if (rc < 0) {
			reply = ctl_reply_error("%% checkpoint %s not taken: "
			                        "cannot write %s: %s",
			                        m.name, path, strerror(-rc));
			goto out;
		}
	}
	e = ck_add(k);
	if (!e) {
		reply = ctl_reply_error("%% out of memory");
		goto out;
	}
	snprintf(e->file, sizeof(e->file), "%s", m.name);
	e->m = m;
	e->body = strbuf_detach(&body);
	log_info("checkpoint %s taken (%zu bytes)", m.name, m.size);
	reply = ctl_ckpt_ok_text("Done\n");
	json_object_object_add(reply, "name", json_object_new_string(m.name));
out:
	strbuf_free(&body);
	strbuf_free(&file);
	return reply;
}

static int ck_unlink(struct ctl_ckpt *k, const struct ctl_ckpt_entry *e)
{
	char path[512];

	if (!k->dir[0])
		return 0;
	snprintf(path, sizeof(path), "%s/%s", k->dir, e->file);
	if (unlink(path) < 0 && errno != ENOENT)
		return -errno;
	return 0;
}

void ctl_ckpt_tidy(struct ctl_ckpt *k)
{
	char path[512];

	if (k->n || !k->dir[0])
		return;
	/* A confirmed commit's hidden file keeps it. */
	snprintf(path, sizeof(path), "%s/.confirm", k->dir);
	if (access(path, F_OK) == 0)
		return;
	snprintf(path, sizeof(path), "%s/.netns", k->dir);
	unlink(path);
	rmdir(k->dir);
}

static struct json_object *ck_delete(struct ctl_ckpt *k, const char *name)
{
	struct ctl_ckpt_entry *e = ck_find(k, name);
	int rc;

	if (!e)
		return ctl_reply_error("%% no checkpoint %s", name);
	rc = ck_unlink(k, e);
	if (rc < 0)
		return ctl_reply_error("%% checkpoint %s: cannot remove its "
		                       "file: %s",
		                       name, strerror(-rc));
	log_info("checkpoint %s removed", name);
	ck_remove(k, e);
	ctl_ckpt_tidy(k);
	return ctl_reply_ok();
}

static struct json_object *ck_clear(struct ctl_ckpt *k)
{
	size_t n = k->n;

	while (k->n) {
		int rc = ck_unlink(k, &k->v[0]);

		if (rc < 0)
			return ctl_reply_error("%% checkpoint %s: cannot "
			                       "remove its file: %s",
			                       k->v[0].file, strerror(-rc));
		ck_remove(k, &k->v[0]);
	}
	ctl_ckpt_tidy(k);
	log_info("checkpoint database cleared (%zu checkpoint%s)", n,
	         n == 1 ? "" : "s");
	return ctl_ckpt_ok_text("Done\n");
}

/* The kernel writes since the start (0 without the counter). */
size_t ctl_ckpt_writes(const struct ctl_cmd_ctx *c)
{
	return c->writes ? *c->writes : 0;
}

static struct json_object *ck_rollback(struct ctl_cmd_ctx *c,
                                       const struct ctl_request *r)
{
	struct ctl_ckpt_entry *e = ck_find(c->ckpt, r->name);
	unsigned flags = r->best_effort ? 0 : CTL_CHANGE_ATOMIC;
	const char *how = r->best_effort ? "best-effort" : "atomic";
	struct json_object *reply;
	size_t w0 = ctl_ckpt_writes(c);
	struct cmd_error ce;
	struct policy cand;
	char text[256], what[160];
	struct diag dg;
	int rc;

	if (!e)
		return ctl_reply_error("%% no checkpoint %s", r->name);
	if (!e->body)
		return ctl_reply_error("%% checkpoint %s is damaged: %s; "
		                       "nothing changed",
		                       r->name, e->bad);
	if (cmd_ckpt_replay(e->body, &cand, &ce) < 0)
		return ctl_reply_error("%% checkpoint %s: %s; nothing changed",
		                       r->name, ce.message);
	diag_init(&dg, NULL);
	if (policy_validate_mode(&cand, &dg, POLICY_VALIDATE_INTERACTIVE) > 0) {
		snprintf(what, sizeof(what),
		         "rollback to checkpoint %s refused, nothing changed",
		         r->name);
		reply = ctl_ckpt_error(what, &dg);
		goto out;
	}
	rc = ctl_ckpt_change(c, &cand, flags, &dg);
	if (rc < 0) {
		snprintf(what, sizeof(what),
		         "rollback (%s) to checkpoint %s failed, the running "
		         "configuration stays",
		         how, r->name);
		log_warnx("rollback (%s) to checkpoint %s failed", how,
		          r->name);
		reply = ctl_ckpt_error(what, &dg);
		goto out;
	}
	log_info("rolled back (%s) to checkpoint %s, %zu kernel writes", how,
	         r->name, ctl_ckpt_writes(c) - w0);
	snprintf(text, sizeof(text),
	         "Rollback to checkpoint %s completed (%s, %zu kernel "
	         "write%s)\n",
	         r->name, how, ctl_ckpt_writes(c) - w0,
	         ctl_ckpt_writes(c) - w0 == 1 ? "" : "s");
	reply = ctl_ckpt_ok_text(text);
	json_object_object_add(
	    reply, "writes",
	    json_object_new_int64((int64_t)(ctl_ckpt_writes(c) - w0)));
	json_object_object_add(reply, "warnings", ctl_ckpt_warnings(&dg));
out:
	diag_free(&dg);
	policy_free(&cand);
	return reply;
}

struct json_object *ctl_ckpt_request(struct ctl_cmd_ctx *c,
                                     const struct ctl_request *r,
                                     const struct ctl_peer *peer)
{
	if (!c->ckpt)
		return ctl_reply_error("%% checkpoints and sessions are not "
		                       "available");
	if (!strcmp(r->op, "create"))
		return ck_create(c, r, peer);
	if (!strcmp(r->op, "delete"))
		return ck_delete(c->ckpt, r->name);
	if (!strcmp(r->op, "clear"))
		return ck_clear(c->ckpt);
	if (!strcmp(r->op, "rollback"))
		return ck_rollback(c, r);
	return ctl_reply_error("%% unknown checkpoint operation '%s', "
	                       "expected create, delete, clear or rollback",
	                       r->op);
}

/* --- shows --- */

void ctl_ckpt_time(int64_t t, char *buf, size_t len)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm) ||
	    !strftime(buf, len, "%a, %H:%M:%S %d %b %Y UTC", &tm))
		snprintf(buf, len, "%" PRId64, t);
}

static struct json_object *ck_show_summary(struct ctl_ckpt *k,
                                           struct strbuf *text)
{
	struct json_object *a = json_object_new_array(), *data;

	strbuf_printf(text, "User Checkpoint Summary\n%s\n",
	              "------------------------------------------------------"
	              "--------------------------");
	for (size_t i = 0; i < k->n; i++) {
		const struct ctl_ckpt_entry *e = &k->v[i];
		struct json_object *o = json_object_new_object();
		char when[64];

		json_object_object_add(o, "name",
		                       json_object_new_string(e->file));
		strbuf_printf(text, "%zu) %s:\n", i + 1, e->file);
		if (!e->body) {
			json_object_object_add(o, "damaged",
			                       json_object_new_string(e->bad));
			strbuf_printf(text, "Damaged: %s\n", e->bad);
			json_object_array_add(a, o);
			continue;
		}
		ctl_ckpt_time(e->m.created, when, sizeof(when));
		json_object_object_add(o, "created",
		                       json_object_new_int64(e->m.created));
		json_object_object_add(o, "user",
		                       json_object_new_int64(e->m.uid));
		json_object_object_add(
		    o, "size", json_object_new_int64((int64_t)e->m.size));
		json_object_object_add(o, "description",
		                       json_object_new_string(e->m.descr));
		strbuf_printf(text,
		              "Created by uid %" PRIu32 "\nCreated at %s\n"
		              "Size is %zu bytes\n",
		              e->m.uid, when, e->m.size);
		if (e->m.descr[0])
			strbuf_printf(text, "Description: %s\n", e->m.descr);
		json_object_array_add(a, o);
	}
	data = json_object_new_object();
	json_object_object_add(data, "checkpoint", a);
	return data;
}

/* The body of checkpoint NAME, or of the running configuration when
 * NAME is "" (into *OWN, to be freed). NULL with ERR set when there is
 * none. */
static const char *ck_body(struct ctl_cmd_ctx *c, const char *name, char **own,
                           char *err, size_t len)
{
	const struct ctl_ckpt_entry *e;
	struct strbuf sb;

	*own = NULL;
	if (!name[0]) {
		strbuf_init(&sb);
		cmd_ckpt_text(c->policy, &sb);
		*own = strbuf_detach(&sb);
		if (!*own)
			snprintf(err, len, "%% out of memory");
		return *own;
	}
	e = ck_find(c->ckpt, name);
	if (!e)
		snprintf(err, len, "%% no checkpoint %s", name);
	else if (!e->body)
		snprintf(err, len, "%% checkpoint %s is damaged: %s", name,
		         e->bad);
	return e ? e->body : NULL;
}

static struct json_object *ck_show_diff(struct ctl_cmd_ctx *c,
                                        const struct show_query *q,
                                        struct strbuf *text, char *err,
                                        size_t len)
{
	char *oa, *ob;
	const char *a = ck_body(c, q->name, &oa, err, len);
	const char *b = a ? ck_body(c, q->name2, &ob, err, len) : NULL;
	struct json_object *data, *lines;
	struct strbuf d;
	size_t n;

	if (!a || !b) {
		free(oa);
		return NULL;
	}
	strbuf_init(&d);
	n = cmd_ckpt_diff(cmd_ckpt_config(a), cmd_ckpt_config(b), &d);
	data = json_object_new_object();
	json_object_object_add(data, "from", json_object_new_string(q->name));
	json_object_object_add(
	    data, "to",
	    json_object_new_string(q->name2[0] ? q->name2 : "running-config"));
	json_object_object_add(data, "changes",
	                       json_object_new_int64((int64_t)n));
	lines = json_object_new_array();
	for (const char *s = strbuf_str(&d); *s;) {
		const char *nl = strchr(s, '\n');
		size_t l = nl ? (size_t)(nl - s) : strlen(s);

		json_object_array_add(lines, json_object_new_string_len(s, l));
		s += l + (nl != NULL);
	}
	json_object_object_add(data, "lines", lines);
	strbuf_printf(text,
	              "#Generating Rollback Patch from checkpoint %s to %s%s\n",
	              q->name, q->name2[0] ? "checkpoint " : "",
	              q->name2[0] ? q->name2 : "running-config");
	if (!n)
		strbuf_puts(text, "No changes\n");
	else
		strbuf_puts(text, strbuf_str(&d));
	strbuf_free(&d);
	free(oa);
	free(ob);
	return data;
}

struct json_object *ctl_ckpt_show(struct ctl_cmd_ctx *c,
                                  const struct show_query *q)
{
	struct json_object *data = NULL, *reply;
	const struct ctl_ckpt_entry *e;
	char err[512] = "";
	struct strbuf text;

	if (!c->ckpt)
		return ctl_reply_error("%% checkpoints and sessions are not "
		                       "available");
	strbuf_init(&text);
	switch (q->kind) {
	case CTL_SHOW_CKPT_SUMMARY:
		data = ck_show_summary(c->ckpt, &text);
		break;
	case CTL_SHOW_CKPT:
		e = ck_find(c->ckpt, q->name);
		if (!e)
			snprintf(err, sizeof(err), "%% no checkpoint %s",
			         q->name);
		else if (!e->body)
			snprintf(err, sizeof(err),
			         "%% checkpoint %s is damaged: %s", q->name,
			         e->bad);
		else {
			data = json_object_new_object();
			json_object_object_add(data, "name",
			                       json_object_new_string(e->file));
			json_object_object_add(data, "text",
			                       json_object_new_string(e->body));
			strbuf_puts(&text, e->body);
		}
		break;
	case CTL_SHOW_CKPT_DIFF:
		data = ck_show_diff(c, q, &text, err, sizeof(err));
		break;
	default:
		snprintf(err, sizeof(err), "%% not a checkpoint show");
		break;
	}
	if (!data) {
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
