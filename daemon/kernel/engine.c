/* engine: see engine.h. */
#include "kernel/engine.h"

#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/compile.h"
#include "plan/diff.h"

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

/* Why a release request failed: the first refusal, named. */
struct engine_release_fail {
	const int *ifindex; /* per request of the batch */
	char *err;
	size_t errlen;
	size_t failed;
};

static void engine_release_failed(size_t index, int err, const char *msg,
                                  void *data)
{
	struct engine_release_fail *f = data;
	char name[IF_NAMESIZE] = "?";

	if (!f->failed++) {
		if_indextoname((unsigned)f->ifindex[index], name);
		snprintf(f->err, f->errlen, "%s: %s%s%s", name, strerror(-err),
		         msg && *msg ? ": " : "", msg ? msg : "");
	}
}

/* The held leaves of one port (SCAN's entries FROM to TO, one ifindex),
 * released by diff into B: HAVE holds them as the kernel has them, WANT
 * the same released (compile_pfc_unhold); nothing else of the port is
 * read or written. Returns the number of requests queued or -errno. */
static int engine_unhold_port(struct engine *e, const struct tc_scan *scan,
                              size_t from, size_t to, struct nlb_batch *b,
                              size_t *leaves)
{
	struct plan_port have, want;
	struct diff d;
	size_t bad;
	int rc = 0;

	memset(&have, 0, sizeof(have));
	memset(&want, 0, sizeof(want));
	diff_init(&d);
	for (size_t i = from; i < to; i++) {
		struct plan_qdisc *qd;

		if (!scan->v[i].known || !scan->v[i].roced ||
		    !compile_pfc_tbf_held(&scan->v[i].q))
			continue;
		qd = plan_port_add_qdisc(&have);
		if (!qd) {
			rc = -ENOMEM;
			goto out;
		}
		*qd = scan->v[i].q;
	}
	/* The tc part only: DCB and the MTU stay as they are. */
	have.dcb.software = want.dcb.software = true;
	have.dcb.unmanaged = want.dcb.unmanaged = true;
	if (plan_port_copy_tc(&want, &have) < 0) {
		rc = -ENOMEM;
		goto out;
	}
	*leaves += compile_pfc_unhold(&want);
	rc = diff_port(&want, &have, &d);
	if (!rc && d.n)
		rc = e->rc.tc->queue(e->rc.tc_ctx, b, scan->v[from].ifindex,
		                     d.ops, d.n, &bad);
out:
	diff_free(&d);
	plan_port_clear_tc(&have);
	plan_port_clear_tc(&want);
	return rc;
}

static int engine_unhold(struct engine *e, size_t *ports, size_t *leaves,
                         char *err, size_t errlen)
{
	struct engine_release_fail fail = {.err = err, .errlen = errlen};
	int *ifindex = NULL;
	struct nlb_error nerr;
	struct nlb_batch b;
	struct tc_scan scan;
	size_t nleaves = 0, nports = 0, nreq = 0;
	int rc;

	err[0] = '\0';
	nlb_batch_init(&b);
	tc_scan_init(&scan);
	/* One qdisc dump holds every leaf with its parameters: the held
	 * ones are all there is to change, so neither links, classes nor
	 * filters are read (each read waits for the RTNL lock, which a
	 * loaded host's other users hold for long). */
	rc = e->rc.tc->scan(e->rc.tc_ctx, &scan, &nerr);
	if (rc < 0) {
		snprintf(err, errlen, "cannot read the qdiscs: %s%s%.200s",
		         strerror(-rc), nerr.msg[0] ? ": " : "", nerr.msg);
		goto out;
	}
	ifindex = calloc(scan.n ? scan.n : 1, sizeof(*ifindex));
	if (!ifindex) {
		rc = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	/* The scan is sorted by ifindex: one run of entries per port. */
	for (size_t i = 0, j; i < scan.n; i = j) {
		size_t before = nleaves;
		int q;

		for (j = i;
		     j < scan.n && scan.v[j].ifindex == scan.v[i].ifindex; j++)
			;
		q = engine_unhold_port(e, &scan, i, j, &b, &nleaves);
		if (q < 0) {
			rc = q;
			snprintf(err, errlen, "cannot release the holds: %s",
			         strerror(-rc));
			goto out;
		}
		for (int k = 0; k < q; k++)
			ifindex[nreq++] = scan.v[i].ifindex;
		if (nleaves > before)
			nports++;
	}
	fail.ifindex = ifindex;
	rc = nreq ? e->rc.tc->send(e->rc.tc_ctx, &b, engine_release_failed,
	                           &fail)
	          : 0;
	if (rc < 0 && !err[0])
		snprintf(err, errlen, "%s", strerror(-rc));
	else if (!rc && fail.failed)
		rc = -EAGAIN;
out:
	if (ports)
		*ports = rc == 0 ? nports : 0;
	if (leaves)
		*leaves = rc == 0 ? nleaves : 0;
	free(ifindex);
	tc_scan_free(&scan);
	nlb_batch_free(&b);
	return rc;
}

int engine_release_holds(size_t *ports, size_t *leaves, char *err,
                         size_t errlen)
{
	struct engine e;
	int rc;

	/* Only what the release uses: no link monitor, no ethtool. */
	memset(&e, 0, sizeof(e));
	rc = nlb_open(&e.nl);
	if (rc < 0) {
		snprintf(err, errlen, "cannot open netlink: %s", strerror(-rc));
		return rc;
	}
	e.tc.nl = &e.nl;
	e.rc.tc = &tc_ops_netlink;
	e.rc.tc_ctx = &e.tc;
	rc = engine_unhold(&e, ports, leaves, err, errlen);
	nlb_close(&e.nl);
	return rc;
}
