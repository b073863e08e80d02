/* engine: the daemon's kernel-facing state (netlink socket, link monitor)
 * and the jobs that use it: one reconcile pass (`roced --once`) now, the
 * event loop later. */
#ifndef ROCED_ENGINE_H
#define ROCED_ENGINE_H

#include <stdbool.h>
#include <stdio.h>

#include "nlb.h"
#include "link.h"
#include "plan.h"
#include "reconcile.h"

struct engine {
	struct nlb nl;
	struct link_mon *links;
	struct reconcile rc;
};

/* Open the netlink socket and the link monitor (CB, may be NULL, hears
 * about link changes). Returns 0 or -errno. */
int engine_open(struct engine *e, bool takeover, link_cb cb, void *data);
void engine_close(struct engine *e);

/* Add to PL an empty plan for every port that holds a roced root qdisc
 * but is not in PL, so that applying PL removes roced's objects there.
 * Returns 0 or -errno. */
int engine_add_orphans(struct engine *e, struct plan *pl);

/* Apply PL once and write a summary to OUT: per port its status and
 * writes, then totals. Returns 0 when every present port is as planned,
 * 1 when some port was refused or rolled back, 2 when nothing could be
 * observed. */
int engine_once(struct engine *e, const struct plan *pl, FILE *out);

#endif
