/* engine: see engine.h. */
#include "engine.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int engine_open(struct engine *e, bool takeover, link_cb cb, void *data)
{
	int rc;

	memset(e, 0, sizeof(*e));
	rc = nlb_open(&e->nl);
	if (rc < 0)
		return rc;
	rc = link_mon_open(&e->links, cb, data);
	if (rc < 0) {
		nlb_close(&e->nl);
		return rc;
	}
	e->tc.nl = &e->nl;
	e->rc.tc = &tc_ops_netlink;
	e->rc.tc_ctx = &e->tc;
	e->rc.dcb = &dcb_ops_netlink;
	e->rc.dcb_ctx = &e->nl;
	e->rc.links = e->links;
	e->rc.takeover = takeover;
	return 0;
}

void engine_close(struct engine *e)
{
	link_mon_close(e->links);
	nlb_close(&e->nl);
	memset(e, 0, sizeof(*e));
}

struct engine_orphans {
	struct engine *e;
	struct plan *pl;
	int rc;
};

/* A link with a roced root that the plan does not name: roced created it
 * for a configuration that no longer lists the port, so it goes. */
static void engine_orphan(int ifindex, void *data)
{
	struct engine_orphans *o = data;
	struct link_info li;
	struct plan_port *pp;

	if (o->rc || link_lookup_index(o->e->links, ifindex, &li) < 0 ||
	    plan_find_port(o->pl, li.name))
		return;
	pp = plan_add_port(o->pl, li.name);
	if (!pp) {
		o->rc = -ENOMEM;
		return;
	}
	pp->dcb.software = true; /* leave DCB and MTU as they are */
}

int engine_apply(struct engine *e, struct plan *pl, bool orphans,
                 struct reconcile_result **res)
{
	struct engine_orphans o = {.e = e, .pl = pl};
	struct reconcile r = e->rc;
	struct nlb_error err;
	struct tc_scan scan;
	int rc = 0;

	*res = NULL;
	tc_scan_init(&scan);
	if (orphans) {
		rc = r.tc->scan(r.tc_ctx, &scan, &err);
		if (!rc) {
			tc_scan_roots(&scan, engine_orphan, &o);
			rc = o.rc;
			r.scan = &scan;
		}
	}
	if (!rc) {
		*res = calloc(pl->nports ? pl->nports : 1, sizeof(**res));
		rc = *res ? reconcile_apply(&r, pl, *res) : -ENOMEM;
	}
	tc_scan_free(&scan);
	return rc;
}

int engine_once(struct engine *e, struct plan *pl, bool orphans, FILE *out)
{
	struct reconcile_result *res;
	size_t writes = 0, warnings = 0, bad = 0;
	int rc;

	rc = engine_apply(e, pl, orphans, &res);
	if (rc < 0 && rc != -EAGAIN) {
		fprintf(out, "roced: cannot read the kernel's state: %s\n",
		        strerror(-rc));
		free(res);
		return 2;
	}
	for (size_t i = 0; i < pl->nports; i++) {
		const struct plan_port *pp = &pl->ports[i];

		writes += res[i].writes;
		warnings += pp->warnings.nwarnings;
		fprintf(out, "%s: %s, %zu write%s, layout %s, dcb %s",
		        res[i].ifname, reconcile_status_name(res[i].status),
		        res[i].writes, res[i].writes == 1 ? "" : "s",
		        plan_layout_name(pp->layout),
		        pp->dcb.software ? "software" : "hardware");
		if (pp->warnings.nwarnings)
			fprintf(out, ", %zu warning%s", pp->warnings.nwarnings,
			        pp->warnings.nwarnings == 1 ? "" : "s");
		fputc('\n', out);
		if (res[i].error[0])
			fprintf(out, "  %s\n", res[i].error);
		if (res[i].status == RECONCILE_REFUSED ||
		    res[i].status == RECONCILE_ROLLED_BACK ||
		    res[i].status == RECONCILE_FAILED)
			bad++;
	}
	fprintf(out,
	        "roced: %zu port%s, %zu write%s, %zu warning%s, %zu "
	        "failed\n",
	        pl->nports, pl->nports == 1 ? "" : "s", writes,
	        writes == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s",
	        bad);
	free(res);
	return bad ? 1 : 0;
}
