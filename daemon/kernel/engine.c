/* engine: see engine.h. */
#include "kernel/engine.h"

#include <errno.h>
#include <stdio.h>
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
	/* Without it only link pause is missing, and a plan that asks for
	 * it on a hardware port is refused there, saying so. */
	if (ethtool_kernel_open(&e->ek) == 0) {
		ethtool_init(&e->et, &ethtool_ops_kernel, &e->ek);
		e->rc.ethtool = &e->et;
	}
	mirror_init(&e->mirror);
	return 0;
}

int engine_mirror_start(struct engine *e)
{
	int rc;

	if (e->mirroring)
		return 0;
	rc = tc_events_open(&e->events, e->nl.portid);
	if (rc < 0)
		return rc;
	/* Empty: the next pass observes every port it plans, after the
	 * subscription, so nothing done before it goes unseen. */
	mirror_free(&e->mirror);
	e->mirroring = true;
	return 0;
}

void engine_close(struct engine *e)
{
	tc_events_close(&e->events);
	mirror_free(&e->mirror);
	link_mon_close(e->links);
	if (e->rc.ethtool)
		ethtool_kernel_close(&e->ek);
	nlb_close(&e->nl);
	memset(e, 0, sizeof(*e));
}

int engine_events_fd(const struct engine *e)
{
	return e->mirroring ? tc_events_fd(&e->events) : -1;
}

static void engine_changed(const struct tc_event *ev, void *data)
{
	struct engine *e = data;

	mirror_note(&e->mirror, ev->ifindex);
	if (e->changed)
		e->changed(ev, e->changed_data);
}

static void engine_lost(void *data)
{
	struct engine *e = data;

	mirror_lost(&e->mirror);
	e->lost = true;
}

void engine_events(struct engine *e)
{
	if (e->mirroring &&
	    tc_events_read(&e->events, engine_changed, engine_lost, e) < 0)
		engine_lost(e);
}

void engine_link_event(struct engine *e, enum link_event ev, int ifindex)
{
	if (ev == LINK_EV_DEL)
		mirror_gone(&e->mirror, ifindex);
	else if (ev == LINK_EV_NEW || ev == LINK_EV_RENAME)
		mirror_note(&e->mirror, ifindex);
}

struct engine_orphans {
	struct engine *e;
	struct plan *pl;
	/* the plan's port names, sorted: PL grows as orphans join it */
	char (*names)[POLICY_IFNAME_MAX];
	size_t nnames;
	int rc;
};

static int engine_name_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

static int engine_orphans_init(struct engine_orphans *o)
{
	o->names = calloc(o->pl->nports ? o->pl->nports : 1, sizeof(*o->names));
	if (!o->names)
		return -ENOMEM;
	for (size_t i = 0; i < o->pl->nports; i++)
		snprintf(o->names[i], sizeof(o->names[i]), "%s",
		         o->pl->ports[i].ifname);
	o->nnames = o->pl->nports;
	qsort(o->names, o->nnames, sizeof(*o->names), engine_name_cmp);
	return 0;
}

/* A link with a roced root that the plan does not name: roced created it
 * for a configuration that no longer lists the port, so it goes. */
static void engine_orphan(int ifindex, void *data)
{
	struct engine_orphans *o = data;
	struct link_info li;
	struct plan_port *pp;

	if (o->rc || link_lookup_index(o->e->links, ifindex, &li) < 0 ||
	    bsearch(li.name, o->names, o->nnames, sizeof(*o->names),
	            engine_name_cmp))
		return;
	pp = plan_add_port(o->pl, li.name);
	if (!pp) {
		o->rc = -ENOMEM;
		return;
	}
	pp->dcb.unmanaged = true; /* not configured: only roced's tc goes */
}

static void engine_mirror_orphan(const struct mirror_port *mp, void *data)
{
	struct engine_orphans *o = data;

	/* A clean entry has the link's name (a rename makes it dirty): only
	 * a name the plan lacks is worth a lookup. */
	if (!bsearch(mp->name, o->names, o->nnames, sizeof(*o->names),
	             engine_name_cmp))
		engine_orphan(mp->ifindex, data);
}

/* The qdisc dump failed before any port was looked at: every port says
 * so (RES is allocated here; NULL when out of memory). */
static void engine_unread(const struct plan *pl, int rc,
                          const struct nlb_error *err,
                          struct reconcile_result **res)
{
	*res = calloc(pl->nports ? pl->nports : 1, sizeof(**res));
	for (size_t i = 0; *res && i < pl->nports; i++) {
		struct reconcile_result *r = &(*res)[i];

		snprintf(r->ifname, sizeof(r->ifname), "%s",
		         pl->ports[i].ifname);
		r->status = RECONCILE_FAILED;
		snprintf(r->error, sizeof(r->error),
		         "%s: cannot read the kernel's state: cannot read the "
		         "qdiscs: %s%s%.200s",
		         pl->ports[i].ifname, strerror(-rc),
		         err->msg[0] ? ": " : "", err->msg);
	}
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
	if (e->mirroring) {
		/* What others did up to now marks their ports dirty. */
		engine_events(e);
		r.mirror = &e->mirror;
	}
	if (orphans)
		rc = engine_orphans_init(&o);
	if (orphans && !rc && r.mirror && mirror_complete(r.mirror)) {
		/* Every root of roced's is in the mirror: no dump. */
		mirror_roots(r.mirror, engine_mirror_orphan, &o);
		rc = o.rc;
	} else if (orphans && !rc) {
		rc = r.tc->scan(r.tc_ctx, &scan, &err);
		if (!rc && r.mirror)
			mirror_scanned(r.mirror);
		if (!rc) {
			tc_scan_roots(&scan, engine_orphan, &o);
			rc = o.rc;
			r.scan = &scan;
		} else if (rc != -ENOMEM) {
			engine_unread(pl, rc, &err, res);
		}
	}
	if (!rc) {
		*res = calloc(pl->nports ? pl->nports : 1, sizeof(**res));
		rc = *res ? reconcile_apply(&r, pl, *res) : -ENOMEM;
	}
	tc_scan_free(&scan);
	free(o.names);
	return rc;
}

int engine_once(struct engine *e, struct plan *pl, bool orphans, FILE *out)
{
	struct reconcile_result *res;
	size_t writes = 0, warnings = 0, bad = 0;
	int rc;

	rc = engine_apply(e, pl, orphans, &res);
	if (rc < 0 && rc != -EAGAIN) {
		bool named = false;

		/* Each port that could not be read, with what and why. */
		for (size_t i = 0; res && i < pl->nports; i++) {
			if (!res[i].error[0])
				continue;
			fprintf(out, "roced: %s\n", res[i].error);
			named = true;
		}
		if (named)
			fprintf(out, "roced: nothing written\n");
		else
			fprintf(out,
			        "roced: nothing written: cannot read the "
			        "kernel's state or work out the changes: %s\n",
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
		        pp->dcb.unmanaged  ? "left alone"
		        : pp->dcb.software ? "software"
		                           : "hardware");
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
