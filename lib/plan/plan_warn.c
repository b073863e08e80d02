/* plan_warn: see plan_warn.h. */
#include "plan/plan_warn.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/strbuf.h"

/* A run of 3 or more numbered ports is worth a range. */
#define PLAN_WARN_RANGE_MIN 3

/* One distinct message and the ports that carry it (a chain through the
 * occurrence arrays, in port order). */
struct pw_group {
	const struct diag_msg *msg;
	size_t first, last; /* occurrences */
};

struct pw {
	const struct plan *pl;
	struct pw_group *g;
	size_t ng;
	size_t *slot; /* hash of messages: group index + 1, 0 = empty */
	size_t nslot; /* a power of two */
	size_t *occ_port, *occ_next;
	size_t nocc;
};

/* FNV-1a of the line, the severity and the text's first 32 bytes: enough
 * to tell a port's few messages apart (pw_same() decides). */
static uint64_t pw_hash(const struct diag_msg *m)
{
	uint64_t h = 1469598103934665603ull;
	const char *s = m->text ? m->text : "";

	for (unsigned i = 0; s[i] && i < 32; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	h = (h ^ m->line) * 1099511628211ull;
	return (h ^ (unsigned)m->sev) * 1099511628211ull;
}

static bool pw_same(const struct diag_msg *a, const struct diag_msg *b)
{
	return a->sev == b->sev && a->line == b->line &&
	       !strcmp(a->text ? a->text : "", b->text ? b->text : "");
}

/* Note that port PORT carries message M. */
static void pw_add(struct pw *w, size_t port, const struct diag_msg *m)
{
	size_t i = (size_t)pw_hash(m) & (w->nslot - 1);
	struct pw_group *grp;

	while (w->slot[i] && !pw_same(w->g[w->slot[i] - 1].msg, m))
		i = (i + 1) & (w->nslot - 1);
	if (!w->slot[i]) {
		grp = &w->g[w->ng++];
		grp->msg = m;
		grp->first = w->nocc;
		w->slot[i] = w->ng;
	} else {
		grp = &w->g[w->slot[i] - 1];
		/* the same message twice on one port counts once */
		if (w->occ_port[grp->last] == port)
			return;
		w->occ_next[grp->last] = w->nocc;
	}
	grp->last = w->nocc;
	w->occ_port[w->nocc] = port;
	w->occ_next[w->nocc] = SIZE_MAX;
	w->nocc++;
}

/* NAME as a prefix and a number: "swp12" -> 3, 12. The number has no
 * leading zero (swp01 is a name of its own). Returns the prefix length,
 * or 0 when the name does not end in a number. */
static size_t pw_split(const char *name, unsigned long *num)
{
	size_t len = strlen(name), p = len;

	while (p > 0 && name[p - 1] >= '0' && name[p - 1] <= '9')
		p--;
	if (p == 0 || p == len || len - p > 9 ||
	    (name[p] == '0' && len - p > 1))
		return 0;
	*num = strtoul(name + p, NULL, 10);
	return p;
}

static void pw_flush(struct strbuf *sb, const char *first, const char *last,
                     size_t count, bool *sep)
{
	if (*sep)
		strbuf_puts(sb, ",");
	*sep = true;
	strbuf_puts(sb, first);
	if (count >= PLAN_WARN_RANGE_MIN) {
		strbuf_puts(sb, "-");
		strbuf_puts(sb, last);
	} else if (count == 2) {
		strbuf_puts(sb, ",");
		strbuf_puts(sb, last);
	}
}

void plan_warn_ports(const char *const *names, size_t n, struct strbuf *sb)
{
	const char *first = NULL, *last = NULL;
	size_t count = 0, plen = 0;
	unsigned long lastnum = 0;
	bool sep = false;

	for (size_t i = 0; i < n; i++) {
		const char *name = names[i];
		unsigned long num = 0;
		size_t p = pw_split(name, &num);

		if (count && p && p == plen && !strncmp(name, first, p) &&
		    num == lastnum + 1) {
			last = name;
			lastnum = num;
			count++;
			continue;
		}
		if (count)
			pw_flush(sb, first, last, count, &sep);
		first = last = name;
		plen = p;
		lastnum = num;
		count = 1;
	}
	if (count)
		pw_flush(sb, first, last, count, &sep);
}

/* The ports of GRP: swp1-swp4,swp7,eth0. */
static void pw_ports(const struct pw *w, const struct pw_group *grp,
                     struct strbuf *sb)
{
	const char **names;
	size_t n = 0;

	for (size_t o = grp->first; o != SIZE_MAX; o = w->occ_next[o])
		n++;
	names = malloc(n * sizeof(*names));
	if (!names) {
		sb->oom = true;
		return;
	}
	n = 0;
	for (size_t o = grp->first; o != SIZE_MAX; o = w->occ_next[o])
		names[n++] = w->pl->ports[w->occ_port[o]].ifname;
	plan_warn_ports(names, n, sb);
	free(names);
}

int plan_warn_each(const struct plan *pl, const char *file,
                   void (*cb)(const char *line, void *data), void *data)
{
	struct pw w = {.pl = pl};
	struct strbuf sb, esc;
	size_t total = 0;
	int rc = 0;

	for (size_t i = 0; i < pl->nports; i++)
		total += pl->ports[i].warnings.n;
	if (!total)
		return 0;
	w.nslot = 16;
	while (w.nslot < 2 * total)
		w.nslot *= 2;
	w.g = malloc(total * sizeof(*w.g));
	w.slot = calloc(w.nslot, sizeof(*w.slot));
	w.occ_port = malloc(total * sizeof(*w.occ_port));
	w.occ_next = malloc(total * sizeof(*w.occ_next));
	if (!w.g || !w.slot || !w.occ_port || !w.occ_next) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < pl->nports; i++)
		for (size_t k = 0; k < pl->ports[i].warnings.n; k++)
			pw_add(&w, i, &pl->ports[i].warnings.v[k]);

	strbuf_init(&sb);
	strbuf_init(&esc);
	for (size_t i = 0; i < w.ng && !sb.oom && !esc.oom; i++) {
		const struct diag_msg *m = w.g[i].msg;

		strbuf_reset(&sb);
		strbuf_reset(&esc);
		if (file && m->line)
			strbuf_printf(&sb, "%s:%u: ", file, m->line);
		else if (file)
			strbuf_printf(&sb, "%s: ", file);
		strbuf_printf(&sb, "%s: ", diag_sev_name(m->sev));
		pw_ports(&w, &w.g[i], &sb);
		strbuf_printf(&sb, ": %s", m->text ? m->text : "?");
		/* escaped as diag_format() escapes a message */
		escape_add(&esc, strbuf_str(&sb), sb.len, 0);
		if (!sb.oom && !esc.oom)
			cb(strbuf_str(&esc), data);
	}
	if (sb.oom || esc.oom)
		rc = -ENOMEM;
	strbuf_free(&sb);
	strbuf_free(&esc);
out:
	free(w.g);
	free(w.slot);
	free(w.occ_port);
	free(w.occ_next);
	return rc;
}

/* --- what a change brought --- */

static bool pw_carried(const struct plan_port *pp, const struct diag_msg *m)
{
	for (size_t i = 0; pp && i < pp->warnings.n; i++) {
		const struct diag_msg *o = &pp->warnings.v[i];

		if (o->sev == m->sev &&
		    !strcmp(o->text ? o->text : "", m->text ? m->text : ""))
			return true;
	}
	return false;
}

int plan_warn_each_new(const struct plan *pl,
                       const struct plan_port *const *before, const char *file,
                       void (*cb)(const char *line, void *data), void *data)
{
	struct plan fresh;
	int rc = 0;

	/* The same printing, grouped by message, on a plan of only what is
	 * new: a port here carries nothing but its new messages. */
	plan_init(&fresh);
	for (size_t i = 0; !rc && i < pl->nports; i++) {
		const struct plan_port *pp = &pl->ports[i];
		struct plan_port *np = NULL;

		for (size_t k = 0; k < pp->warnings.n; k++) {
			const struct diag_msg *m = &pp->warnings.v[k];

			if (before && pw_carried(before[i], m))
				continue;
			if (!np)
				np = plan_add_port(&fresh, pp->ifname);
			if (!np) {
				rc = -ENOMEM;
				break;
			}
			diag_add(&np->warnings, m->sev, m->line, "%s",
			         m->text ? m->text : "?");
		}
	}
	if (!rc)
		rc = plan_warn_each(&fresh, file, cb, data);
	plan_free(&fresh);
	return rc;
}
