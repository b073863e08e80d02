/* ctl_view: what a show is about, gathered for ctl_cmd.c: each port's
 * applied plan (an empty one for a port roced holds no plan for) and
 * what the kernel and the agents hold for it (qdisc statistics, software
 * PFC's and the watchdog's state, hardware counters, the counts carried
 * over a leaf's replacement). Kept apart from the request handlers, which
 * only ask for a view and render it. */
#ifndef ROCED_CTL_VIEW_H
#define ROCED_CTL_VIEW_H

#include <stddef.h>

#include "cmd/cmd_show.h"
#include "control/ctl_cmd.h"
#include "show/show.h"

/* The ports a show is about: the plan the daemon applied to each (an
 * empty one for a port roced holds no plan for) and what the kernel
 * holds for it. */
struct dctl_view {
	const struct plan_port **plans;
	struct plan_port *unplanned; /* room for the empty plans */
	struct show_port_state *st;
	int *ifindex;
	size_t n;
};

/* Fill V for the ports Q is about (every configured port, one, or a
 * list). Returns 0, or -errno with ERR filled (V then empty). */
int dctl_gather(struct ctl_cmd_ctx *c, const struct show_query *q,
                struct dctl_view *v, char *err, size_t errlen);
void dctl_view_free(struct dctl_view *v);

#endif
