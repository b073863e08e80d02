/* mfile: see mfile.h. */
#include "core/mfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "os/log.h"
#include "os/rundir.h"

void mfile_init(struct mfile *m)
{
	memset(m, 0, sizeof(*m));
}

static void mfile_remove(struct mfile *m)
{
	int rc = m->written ? rundir_unlink(m->path) : 0;

	if (rc < 0 && rc != -ENOENT)
		log_warnx("metrics: cannot remove %s: %s", m->path,
		          strerror(-rc));
	m->written = false;
}

void mfile_configure(struct mfile *m, const struct plan_global *g, double now)
{
	uint32_t interval = g->metrics_interval_s ? g->metrics_interval_s
	                                          : POLICY_METRICS_INTERVAL;

	if (!strcmp(m->path, g->metrics_textfile) && m->interval_s == interval)
		return;
	if (strcmp(m->path, g->metrics_textfile)) {
		mfile_remove(m);
		if (g->metrics_textfile[0])
			log_info("metrics: writing %s every %u s",
			         g->metrics_textfile, interval);
		else if (m->path[0])
			log_info("metrics: no longer writing %s", m->path);
		m->err = 0;
	}
	snprintf(m->path, sizeof(m->path), "%s", g->metrics_textfile);
	m->interval_s = interval;
	m->next_ms = now;
}

int mfile_wait(const struct mfile *m, double now)
{
	if (!m->path[0])
		return -1;
	return m->next_ms <= now ? 0 : (int)(m->next_ms - now) + 1;
}

int mfile_write(const char *path, const char *text, char *err, size_t errlen)
{
	struct rundir_file rf;
	int rc;

	/* Hidden and without ".prom": node_exporter never reads it. The
	 * directory is often another user's (node_exporter's), so nothing
	 * on the way is followed: rundir.h. */
	if (!rundir_create(&rf, path, 0644, 1)) {
		rc = -errno;
		snprintf(err, errlen, "cannot create a file beside %s: %s%s",
		         path, strerror(-rc),
		         rc == -ELOOP ? " (a directory on its path is a "
		                        "symbolic link: roced follows none)"
		                      : "");
		return rc;
	}
	/* node_exporter runs as another user: the file is world-readable,
	 * as the metrics are (anyone may `show metrics`). */
	fputs(text, rf.f);
	rc = rundir_commit(&rf);
	if (rc)
		snprintf(err, errlen, "cannot write %s: %s", path,
		         strerror(-rc));
	return rc;
}

int mfile_tick(struct mfile *m, struct ctl_cmd_ctx *c, double now)
{
	struct strbuf text;
	char err[POLICY_METRICS_PATH_MAX + 128];
	int rc;

	if (!m->path[0] || now < m->next_ms)
		return 0;
	/* The next one an interval after this one was due: a write that
	 * came late does not move the rest. */
	m->next_ms += m->interval_s * 1000.0;
	if (m->next_ms <= now)
		m->next_ms = now + m->interval_s * 1000.0;
	strbuf_init(&text);
	rc = ctl_cmd_metrics(c, &text, err, sizeof(err));
	if (!rc && text.oom) {
		rc = -ENOMEM;
		snprintf(err, sizeof(err), "out of memory");
	}
	if (!rc)
		rc = mfile_write(m->path, strbuf_str(&text), err, sizeof(err));
	strbuf_free(&text);
	if (rc) {
		m->failures++;
		if (rc != m->err)
			log_warnx("metrics: %s; trying again every %u s", err,
			          m->interval_s);
		m->err = rc;
		return rc;
	}
	m->writes++;
	m->written = true;
	if (m->err)
		log_info("metrics: writing %s again", m->path);
	m->err = 0;
	return 0;
}

void mfile_stop(struct mfile *m)
{
	mfile_remove(m);
}
