/* ports: see ports.h. */
#include "registry/ports.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "os/rundir.h"
#include "plan/compile.h"

void ports_init(struct ports *r, const struct caps *kernel, bool probe)
{
	memset(r, 0, sizeof(*r));
	r->kernel = *kernel;
	r->probe = probe;
	/* One plan whatever runs it (the daemon, --once, --dry-run): a
	 * software port's no-drop queues get holdable leaves, which a
	 * one-shot roced leaves released (they forward like a fifo). */
	r->softpfc = true;
}

static void ports_plan_free(struct ports_port *e)
{
	free(e->plan.qdiscs);
	free(e->plan.classes);
	free(e->plan.filters);
	diag_free(&e->plan.warnings);
	memset(&e->plan, 0, sizeof(e->plan));
}

void ports_free(struct ports *r)
{
	for (size_t i = 0; i < r->n; i++) {
		ports_plan_free(&r->v[i]);
		if (r->v[i].kpfc_on)
			bpfhold_close(&r->v[i].kpfc);
		r->v[i].kpfc_on = false;
	}
	free(r->v);
	r->v = NULL;
	r->n = 0;
}

static int ports_cmp(const void *a, const void *b)
{
	const struct ports_port *x = a, *y = b;

	return strcmp(x->ifname, y->ifname);
}

static int ports_cmp_name(const void *key, const void *b)
{
	const struct ports_port *y = b;

	return strcmp(key, y->ifname);
}

struct ports_port *ports_find(const struct ports *r, const char *ifname)
{
	if (!r->n)
		return NULL;
	return bsearch(ifname, r->v, r->n, sizeof(*r->v), ports_cmp_name);
}

bool ports_programmed(const struct ports_port *e)
{
	return e->applied && e->status == RECONCILE_OK;
}

enum plan_port_state ports_state(const struct ports_port *e)
{
	if (ports_programmed(e))
		return PLAN_PORT_PROGRAMMED;
	if (e->applied && e->status == RECONCILE_REFUSED)
		return PLAN_PORT_REFUSED;
	return PLAN_PORT_NOT_PROGRAMMED;
}

/* Entries for the names of IN (N of them) that have none, added in one
 * go: one sort, however many ports a first apply brings. */
static int ports_add(struct ports *r, const struct compile_port *in, size_t n)
{
	struct ports_port *nv;
	size_t add = 0, k;

	for (size_t i = 0; i < n; i++)
		add += !ports_find(r, in[i].ifname);
	if (!add)
		return 0;
	nv = realloc(r->v, (r->n + add) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	r->v = nv;
	k = r->n;
	for (size_t i = 0; i < n; i++) {
		if (ports_find(r, in[i].ifname))
			continue;
		memset(&r->v[k], 0, sizeof(r->v[k]));
		snprintf(r->v[k].ifname, sizeof(r->v[k].ifname), "%s",
		         in[i].ifname);
		r->v[k].caps = r->kernel;
		k++;
	}
	qsort(r->v, k, sizeof(*r->v), ports_cmp);
	/* A name listed twice was added twice: keep one (both are new,
	 * so neither holds a plan). */
	r->n = k ? 1 : 0;
	for (size_t i = 1; i < k; i++)
		if (strcmp(r->v[i].ifname, r->v[r->n - 1].ifname))
			r->v[r->n++] = r->v[i];
	return 0;
}

struct ports_port *ports_get(struct ports *r, const char *ifname)
{
	struct compile_port in;

	memset(&in, 0, sizeof(in));
	snprintf(in.ifname, sizeof(in.ifname), "%s", ifname);
	if (ports_add(r, &in, 1) < 0)
		return NULL;
	return ports_find(r, ifname);
}

/* Add FROM's messages to TO, each at its FILE:LINE (see ports_compile). */
static void ports_copy_msgs(const struct diag *from, const char *file,
                            struct diag *to)
{
	bool same = file && to->file && !strcmp(file, to->file);

	for (size_t i = 0; i < from->n; i++) {
		const struct diag_msg *m = &from->v[i];
		const char *text = m->text ? m->text : "out of memory";

		if (same || !m->line || !file)
			diag_add(to, m->sev, same ? m->line : 0, "%s", text);
		else
			diag_add(to, m->sev, 0, "%s:%u: %s", file, m->line,
			         text);
	}
}

/* The first N ports of PL that never reached the kernel say why. */
static void ports_not_applied(struct ports *r, const struct plan *pl, size_t n,
                              const char *why)
{
	for (size_t i = 0; i < n && i < pl->nports; i++) {
		struct ports_port *e = ports_find(r, pl->ports[i].ifname);

		if (!e)
			continue;
		e->news = !e->applied && strcmp(e->reason, why);
		if (!e->applied)
			snprintf(e->reason, sizeof(e->reason), "%s", why);
	}
}

/* E's reason for RES, in the words show prints after the state. */
static void ports_reason(struct ports_port *e,
                         const struct reconcile_result *res)
{
	switch (res->status) {
	case RECONCILE_OK:
		e->reason[0] = '\0';
		break;
	case RECONCILE_ABSENT:
		snprintf(e->reason, sizeof(e->reason),
		         "no such link: waiting for it");
		break;
	case RECONCILE_REFUSED:
		snprintf(e->reason, sizeof(e->reason),
		         "foreign root qdisc %s %x: (roced did not create it "
		         "and leaves it alone without qdisc-takeover)",
		         res->foreign_kind, PLAN_H_MAJ(res->foreign_handle));
		break;
	case RECONCILE_ROLLED_BACK:
	case RECONCILE_FAILED:
		snprintf(e->reason, sizeof(e->reason), "the kernel refused %s",
		         res->error[0] ? res->error : "a request");
		break;
	}
}

/* The inputs of E, a port roced lets go. */
static void ports_release_input(const struct ports_port *e,
                                struct compile_port *in)
{
	memset(in, 0, sizeof(*in));
	snprintf(in->ifname, sizeof(in->ifname), "%s", e->ifname);
	in->caps = e->caps;
	in->mtu_restore = e->mtu_orig;
}

/* Release plans for the entries P does not configure whose MTU roced
 * still has to give back: the ports a new configuration dropped. */
static int ports_release_gone(const struct ports *r, const struct policy *p,
                              struct plan *pl)
{
	for (size_t i = 0; i < r->n; i++) {
		struct compile_port in;
		int rc;

		if (!r->v[i].mtu_orig || policy_find_iface(p, r->v[i].ifname))
			continue;
		ports_release_input(&r->v[i], &in);
		rc = compile_release(&in, 1, pl);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int ports_release(struct ports *r, const struct policy *p, struct plan *pl)
{
	for (size_t i = 0; i < p->nifaces; i++) {
		const struct ports_port *e = ports_find(r, p->ifaces[i].name);
		struct compile_port in = {0};
		int rc;

		if (e) {
			ports_release_input(e, &in);
		} else {
			snprintf(in.ifname, sizeof(in.ifname), "%s",
			         p->ifaces[i].name);
			in.caps = r->kernel;
		}
		rc = compile_release(&in, 1, pl);
		if (rc < 0)
			return rc;
	}
	return ports_release_gone(r, p, pl);
}

int ports_probe_due(struct ports *r, const struct policy *p,
                    char (*names)[POLICY_IFNAME_MAX], size_t n,
                    struct compile_port **snap)
{
	size_t count = names ? n : p->nifaces, k = 0;
	struct compile_port *in = calloc(count ? count : 1, sizeof(*in));
	int rc;

	*snap = NULL;
	r->unprobed = false;
	if (!in)
		return -ENOMEM;
	for (size_t i = 0; i < count; i++)
		snprintf(in[i].ifname, sizeof(in[i].ifname), "%s",
		         names ? names[i] : p->ifaces[i].name);
	rc = ports_add(r, in, count);
	for (size_t i = 0; rc == 0 && i < count; i++) {
		struct ports_port *e = ports_find(r, in[i].ifname);

		if (!r->probe) {
			e->caps = r->kernel;
			continue;
		}
		if (!names)
			e->probed = false;
		if (e->probed)
			continue;
		/* a name listed twice is probed once */
		e->probed = true;
		in[k] = in[i];
		in[k].caps = r->kernel;
		k++;
	}
	if (rc < 0 || !k) {
		free(in);
		return rc < 0 ? rc : 0;
	}
	*snap = in;
	return (int)k;
}

void ports_probed(struct ports *r, const struct compile_port *snap, size_t n,
                  int rc)
{
	r->unprobed = rc < 0;
	r->nprobed += n;
	for (size_t i = 0; i < n; i++) {
		struct ports_port *e = ports_find(r, snap[i].ifname);

		if (!e)
			continue;
		e->caps = snap[i].caps;
		e->probed = rc == 0;
	}
}

size_t ports_unknown(const struct ports *r, const struct policy *p,
                     struct compile_port *out)
{
	size_t k = 0;

	for (size_t i = 0; i < p->nifaces; i++) {
		if (ports_find(r, p->ifaces[i].name))
			continue;
		memset(&out[k], 0, sizeof(out[k]));
		snprintf(out[k].ifname, sizeof(out[k].ifname), "%s",
		         p->ifaces[i].name);
		out[k].caps = r->kernel;
		k++;
	}
	return k;
}

void ports_stale(struct ports *r, const char *ifname)
{
	struct ports_port *e = ifname ? ports_find(r, ifname) : NULL;

	if (e)
		e->probed = false;
}

/* The compile inputs of E's port into IN (its name already there): what
 * the entry holds, and the registry's switches. Reads, changes nothing. */
static void ports_input(const struct ports *r, const struct ports_port *e,
                        struct compile_port *in)
{
	in->caps = e->caps;
	in->mtu_restore = e->mtu_orig;
	in->softpfc = r->softpfc;
	in->kpfc = r->kpfc;
	in->pfc_hold = e->watchdog.pfc_hold;
	in->wd_shut = e->watchdog.wd_shut;
	in->lp_hold = e->watchdog.lp_hold;
	snprintf(in->kpfc_refused, sizeof(in->kpfc_refused), "%s",
	         e->kpfc_refused);
	in->has_dcbx = e->dcbx.has;
	in->dcbx = e->dcbx.oper;
}

/* Compile P for IN (COUNT ports, inputs filled) into PL, with a release
 * plan for each entry P drops when FULL; P's errors into ERRS at their
 * FILE:LINE. Returns 0, -EINVAL (P does not compile) or -ENOMEM. */
static int ports_plan_inputs(const struct ports *r, const struct policy *p,
                             const char *file, const struct compile_port *in,
                             size_t count, bool full, struct plan *pl,
                             struct diag *errs)
{
	int rc = compile_policy(p, in, count, pl);

	if (rc == 0 && full)
		rc = ports_release_gone(r, p, pl);
	if (rc == 0 && pl->diag.nerrors) {
		if (errs)
			ports_copy_msgs(&pl->diag, file, errs);
		rc = -EINVAL;
	}
	return rc;
}

int ports_compile(struct ports *r, const struct policy *p, const char *file,
                  char (*names)[POLICY_IFNAME_MAX], size_t n, struct plan *pl,
                  struct diag *errs)
{
	size_t count = names ? n : p->nifaces;
	struct compile_port *in = calloc(count ? count : 1, sizeof(*in));
	int rc;

	if (!in)
		return -ENOMEM;
	for (size_t i = 0; i < count; i++)
		snprintf(in[i].ifname, sizeof(in[i].ifname), "%s",
		         names ? names[i] : p->ifaces[i].name);
	rc = ports_add(r, in, count);
	if (rc < 0)
		goto out;
	/* The entry keeps what its port is planned with, and has the MTU
	 * to give back; the outcome it holds is now planned. */
	for (size_t i = 0; i < count; i++) {
		struct ports_port *e = ports_find(r, in[i].ifname);

		ports_input(r, e, &in[i]);
		e->dcbx.due = false;
	}
	rc = ports_plan_inputs(r, p, file, in, count, !names, pl, errs);
	if (rc == -EINVAL)
		ports_not_applied(r, pl, pl->nports,
		                  "the configuration does not compile");
out:
	free(in);
	return rc;
}

int ports_plan(const struct ports *r, const struct policy *p, const char *file,
               const struct compile_port *unknown, size_t nunknown,
               struct plan *pl, struct diag *errs)
{
	struct compile_port *in =
	    calloc(p->nifaces ? p->nifaces : 1, sizeof(*in));
	int rc;

	if (!in)
		return -ENOMEM;
	for (size_t i = 0, k = 0; i < p->nifaces; i++) {
		const struct ports_port *e = ports_find(r, p->ifaces[i].name);

		snprintf(in[i].ifname, sizeof(in[i].ifname), "%s",
		         p->ifaces[i].name);
		if (e) {
			ports_input(r, e, &in[i]);
			continue;
		}
		/* A port the registry does not know yet: planned as a first
		 * apply would plan it, with the caller's probe of it. */
		in[i].caps = r->kernel;
		if (k < nunknown && !strcmp(unknown[k].ifname, in[i].ifname))
			in[i].caps = unknown[k++].caps;
		in[i].softpfc = r->softpfc;
		in[i].kpfc = r->kpfc;
	}
	rc = ports_plan_inputs(r, p, file, in, p->nifaces, true, pl, errs);
	free(in);
	return rc;
}

/* The MTU roced took from E's link, recorded at the first change and
 * forgotten once a plan gave it back. */
static void ports_mtu_note(struct ports *r, struct ports_port *e,
                           const struct reconcile_result *res)
{
	if (res->status != RECONCILE_OK)
		return;
	if (e->plan.dcb.mtu_restore) {
		r->mtu_dirty = r->mtu_dirty || e->mtu_orig;
		e->mtu_orig = 0;
	} else if (res->mtu_before && !e->mtu_orig) {
		e->mtu_orig = res->mtu_before;
		r->mtu_dirty = true;
	}
}

void ports_applied(struct ports *r, struct plan *pl, size_t n,
                   const struct reconcile_result *res, const char *why)
{
	if (!res) {
		ports_not_applied(r, pl, n, why);
		return;
	}
	for (size_t i = 0; i < n && i < pl->nports; i++) {
		struct ports_port *e = ports_find(r, pl->ports[i].ifname);

		if (!e)
			continue;
		char before[sizeof(e->reason)];
		bool was = e->applied;
		enum reconcile_status old = e->status;

		ports_plan_free(e);
		e->plan = pl->ports[i];
		memset(&pl->ports[i], 0, sizeof(pl->ports[i]));
		snprintf(before, sizeof(before), "%s", e->reason);
		e->applied = true;
		e->status = res[i].status;
		snprintf(e->foreign_kind, sizeof(e->foreign_kind), "%s",
		         res[i].foreign_kind);
		e->foreign_handle = res[i].foreign_handle;
		ports_reason(e, &res[i]);
		e->news = !was || old != e->status || strcmp(before, e->reason);
		ports_mtu_note(r, e, &res[i]);
	}
}

void ports_applied_global(struct ports *r, const struct plan *pl)
{
	r->global = pl->global;
}

void ports_prune(struct ports *r, const struct policy *p)
{
	bool *keep = calloc(r->n ? r->n : 1, sizeof(*keep));
	size_t k = 0;

	if (!keep)
		return; /* kept a while longer: harmless, pruned next time */
	for (size_t j = 0; j < p->nifaces; j++) {
		struct ports_port *e = ports_find(r, p->ifaces[j].name);

		if (e)
			keep[e - r->v] = true;
	}
	for (size_t i = 0; i < r->n; i++)
		keep[i] = keep[i] || r->v[i].mtu_orig;
	for (size_t i = 0; i < r->n; i++) {
		if (!keep[i]) {
			ports_plan_free(&r->v[i]);
			/* a port roced lets go keeps none of its programs */
			if (r->v[i].kpfc_on)
				bpfhold_detach(&r->v[i].kpfc);
			continue;
		}
		if (k != i)
			r->v[k] = r->v[i];
		k++;
	}
	r->n = k; /* still sorted */
	free(keep);
}

bool ports_changed(struct ports_port *e, const char *what, double now)
{
	e->changed_ms = now;
	if (e->contested)
		return false;
	if (e->repair_due) {
		e->repair_more++;
	} else {
		e->repair_due = true;
		e->due_ms = now;
		e->repair_more = 0;
		snprintf(e->repair_what, sizeof(e->repair_what), "%s", what);
	}
	return true;
}

bool ports_repaired(struct ports_port *e, double now)
{
	double oldest;

	e->repairs[e->nrepairs % PORTS_REPAIR_MAX] = now;
	e->nrepairs++;
	if (e->contested || e->nrepairs < PORTS_REPAIR_MAX)
		return false;
	/* the first of the last PORTS_REPAIR_MAX repairs: the slot written
	 * next */
	oldest = e->repairs[e->nrepairs % PORTS_REPAIR_MAX];
	if (now - oldest > PORTS_REPAIR_WINDOW_MS)
		return false;
	e->contested = true;
	e->repair_due = false;
	return true;
}

bool ports_quiet(struct ports_port *e, double now)
{
	if (!e->contested || now - e->changed_ms < PORTS_QUIET_MS)
		return false;
	e->contested = false;
	e->nrepairs = 0;
	e->repair_due = true;
	e->due_ms = now;
	e->repair_more = 0;
	snprintf(e->repair_what, sizeof(e->repair_what),
	         "changed by others while contested");
	return true;
}

void ports_uncontest(struct ports *r)
{
	for (size_t i = 0; i < r->n; i++) {
		r->v[i].contested = false;
		r->v[i].nrepairs = 0;
		r->v[i].repair_due = false;
	}
}

_Static_assert(POLICY_IFNAME_MAX == 16, "ports_mtu_line() reads %16s");

/* One line of the MTU file: "IFNAME MTU". */
static int ports_mtu_line(const char *line, char *ifname, uint32_t *mtu)
{
	char name[POLICY_IFNAME_MAX + 1];
	unsigned long v;
	char *end;
	int len = 0;

	if (sscanf(line, "%16s %n", name, &len) != 1 || !len ||
	    strlen(name) >= POLICY_IFNAME_MAX)
		return -EINVAL;
	errno = 0;
	v = strtoul(line + len, &end, 10);
	/* An MTU the kernel could hold: IPv4's minimum to 64 KiB. */
	if (errno || end == line + len || (*end && *end != '\n') || v < 68 ||
	    v > 65535)
		return -EINVAL;
	snprintf(ifname, POLICY_IFNAME_MAX, "%s", name);
	*mtu = (uint32_t)v;
	return 0;
}

int ports_mtu_load(struct ports *r, const char *path)
{
	FILE *f = rundir_fopen(path);
	char line[128];
	int n = 0, rc = 0;

	if (!f)
		return errno == ENOENT ? 0 : -errno;
	while (fgets(line, sizeof(line), f)) {
		struct compile_port in = {0};
		unsigned long long cookie;
		struct ports_port *e;
		uint32_t mtu;

		if (sscanf(line, "netns %llu", &cookie) == 1) {
			if (cookie && r->netns_cookie &&
			    cookie != r->netns_cookie) {
				rc = -ESTALE;
				break;
			}
			continue;
		}
		if (ports_mtu_line(line, in.ifname, &mtu) < 0)
			continue;
		rc = ports_add(r, &in, 1);
		if (rc < 0)
			break;
		e = ports_find(r, in.ifname);
		if (!e->mtu_orig)
			n++;
		e->mtu_orig = mtu;
	}
	fclose(f);
	if (rc == -ESTALE) /* none of them is this namespace's */
		for (size_t i = 0; i < r->n; i++)
			r->v[i].mtu_orig = 0;
	return rc < 0 ? rc : n;
}

int ports_mtu_save(struct ports *r, const char *path)
{
	struct rundir_file rf;
	size_t n = 0;
	FILE *f;
	int rc = 0;

	for (size_t i = 0; i < r->n; i++)
		n += r->v[i].mtu_orig != 0;
	if (!n) {
		rc = rundir_unlink(path);
		if (rc < 0 && rc != -ENOENT)
			return rc;
		r->mtu_dirty = false;
		return 0;
	}
	f = rundir_create(&rf, path, 0644, 0);
	if (!f)
		return -errno;
	fprintf(f, "netns %llu\n", (unsigned long long)r->netns_cookie);
	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].mtu_orig)
			fprintf(f, "%s %u\n", r->v[i].ifname, r->v[i].mtu_orig);
	rc = rundir_commit(&rf);
	if (rc)
		return rc;
	r->mtu_dirty = false;
	return 0;
}

void ports_unplanned(const char *ifname, const char *alias,
                     const struct caps *caps, struct plan_port *out)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->ifname, sizeof(out->ifname), "%s", ifname);
	snprintf(out->alias, sizeof(out->alias), "%s", alias ? alias : "");
	out->caps = *caps;
	diag_init(&out->warnings, NULL);
	out->layout = PLAN_LAYOUT_NONE;
	out->dcb.software = !caps->hw_dcb; /* the port's kind, as compile */
	out->dcb.unmanaged = true;
}
