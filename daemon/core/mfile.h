/* mfile: the metrics textfile (roced.conf's `metrics { textfile; interval;
 * }`): every INTERVAL seconds roced writes the text of show metrics to
 * the file, atomically (a hidden temporary file in the same directory,
 * then rename), for node_exporter's textfile collector, which reads only
 * "*.prom" files and so never a half-written one.
 *
 * It reads what show reads and never writes the kernel. A directory that
 * is missing or read-only is one warning in the log (again only when the
 * error changes, and an info line when writing works again), and the
 * write is tried at every interval. The file is removed when roced stops
 * or the setting names another file, so that stale values never outlive
 * the roced that wrote them.
 */
#ifndef ROCED_MFILE_H
#define ROCED_MFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "control/ctl_cmd.h"
#include "model/plan.h"
#include "model/policy.h"

struct mfile {
	char path[POLICY_METRICS_PATH_MAX]; /* "" none */
	unsigned interval_s;
	double next_ms; /* CLOCK_MONOTONIC ms of the next write */
	bool written;   /* the file at PATH is ours */
	int err;        /* the error last logged, 0 while writing works */
	uint64_t writes, failures;
};

void mfile_init(struct mfile *m);
/* Follow the metrics setting of the plan last applied (G, the
 * registry's global part; at the start and after each commit): a new
 * file or interval is written at once; the file of an old setting is
 * removed. */
void mfile_configure(struct mfile *m, const struct plan_global *g, double now);
/* Milliseconds until the next write is due, -1 when none is. */
int mfile_wait(const struct mfile *m, double now);
/* Write the file when it is due, the text from C. Returns 0, or -errno
 * of a failed write (logged once). */
int mfile_tick(struct mfile *m, struct ctl_cmd_ctx *c, double now);
/* Write PATH now with TEXT (the atomic write above). Returns 0 or
 * -errno; ERR says what failed. */
int mfile_write(const char *path, const char *text, char *err, size_t errlen);
/* Remove the file roced wrote (roced stops). */
void mfile_stop(struct mfile *m);

#endif
