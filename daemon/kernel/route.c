/* route: the routing rules, tables and neighbours of both families,
 * cached; the lookups, pure functions of the cache. The dumps and the
 * notifications are route_nl.c's. See route.h. */
#include "kernel/route.h"

#include <errno.h>
#include <linux/fib_rules.h>
#include <linux/rtnetlink.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

void route_init(struct route_cache *c)
{
	memset(c, 0, sizeof(*c));
}

void route_free(struct route_cache *c)
{
	if (c->mon)
		mnl_socket_close(c->mon);
	free(c->rt);
	free(c->nb);
	free(c->ru);
	memset(c, 0, sizeof(*c));
}

int route_fd(const struct route_cache *c)
{
	return c->mon ? mnl_socket_get_fd(c->mon) : -1;
}

void route_clear(struct route_cache *c)
{
	c->nrt = 0;
	c->nnb = 0;
	c->nru = 0;
}

/* V (of *CAP elements of SIZE bytes, N used) with room for one more:
 * V itself, moved, or NULL (V is kept then). */
static void *route_grow(void *v, size_t *cap, size_t n, size_t size)
{
	size_t nc;
	void *nv;

	if (n < *cap)
		return v;
	nc = *cap ? 2 * *cap : 32;
	nv = realloc(v, nc * size);
	if (nv)
		*cap = nc;
	return nv;
}

int route_add(struct route_cache *c, const struct route_rt *r)
{
	struct route_rt *v = route_grow(c->rt, &c->caprt, c->nrt, sizeof(*r));

	if (!v)
		return -ENOMEM;
	c->rt = v;
	c->rt[c->nrt] = *r;
	/* Table 0 (a route filled by hand): main's. */
	if (!r->table)
		c->rt[c->nrt].table = RT_TABLE_MAIN;
	c->nrt++;
	c->filled = true;
	return 0;
}

int route_add_neigh(struct route_cache *c, const struct route_neigh *n)
{
	struct route_neigh *v =
	    route_grow(c->nb, &c->capnb, c->nnb, sizeof(*n));

	if (!v)
		return -ENOMEM;
	c->nb = v;
	c->nb[c->nnb++] = *n;
	c->filled = true;
	return 0;
}

int route_add_rule(struct route_cache *c, const struct route_rule *r)
{
	struct route_rule *v = route_grow(c->ru, &c->capru, c->nru, sizeof(*r));
	size_t at = c->nru;

	if (!v)
		return -ENOMEM;
	c->ru = v;
	/* The kernel dumps them in order already: a test need not. */
	while (at && c->ru[at - 1].prio > r->prio)
		at--;
	memmove(&c->ru[at + 1], &c->ru[at], (c->nru - at) * sizeof(*r));
	c->ru[at] = *r;
	c->nru++;
	c->filled = true;
	return 0;
}

/* Do the first LEN bits of A and P agree? */
static bool route_prefix(const struct route_ip *a, const struct route_ip *p,
                         unsigned len)
{
	unsigned whole = len / 8, rest = len % 8;

	if (whole > 16)
		return false;
	if (memcmp(a->b, p->b, whole))
		return false;
	if (!rest)
		return true;
	return whole < 16 &&
	       !((a->b[whole] ^ p->b[whole]) & (uint8_t)(0xff << (8 - rest)));
}

/* Is DST/LEN of FAMILY within IPv6's link-local fe80::/10, which the
 * kernel never forwards (every IPv6 port has a route to fe80::/64: it
 * says nothing of routing)? */
static bool route_linklocal(int family, const struct route_ip *dst,
                            unsigned len)
{
	return family == AF_INET6 && len >= 10 && dst->b[0] == 0xfe &&
	       (dst->b[1] & 0xc0) == 0x80;
}

/* The route of TABLE the kernel picks for FAMILY/DST: the longest
 * matching prefix, of lowest metric; NULL: none. */
static const struct route_rt *route_find(const struct route_cache *c,
                                         uint32_t table, int family,
                                         const struct route_ip *dst)
{
	const struct route_rt *best = NULL;

	for (size_t i = 0; i < c->nrt; i++) {
		const struct route_rt *r = &c->rt[i];

		if (r->table != table || r->family != family ||
		    !route_prefix(dst, &r->dst, r->len))
			continue;
		if (!best || r->len > best->len ||
		    (r->len == best->len && r->metric < best->metric))
			best = r;
	}
	return best;
}

/* One lookup's walk through the rules. */
struct route_walk {
	const struct route_cache *c;
	int family, iif;
	const struct route_ip *dst;
	struct route_nh *nh;
	size_t max, n;
	unsigned flags, depth;
};

/* R's next hops into W (each once: the outcomes of undecided rules may
 * share some). */
static void route_walk_add(struct route_walk *w, const struct route_rt *r)
{
	if (r->type != RTN_UNICAST)
		return;
	for (size_t k = 0; k < r->nnh && w->n < w->max; k++) {
		size_t j;

		for (j = 0; j < w->n; j++)
			if (w->nh[j].oif == r->nh[k].oif &&
			    !memcmp(&w->nh[j].gw, &r->nh[k].gw,
			            sizeof(r->nh[k].gw)))
				break;
		if (j == w->n)
			w->nh[w->n++] = r->nh[k];
	}
}

enum route_match {
	ROUTE_NO,
	ROUTE_YES,
	ROUTE_MAYBE
};

static enum route_match route_rule_match(const struct route_walk *w,
                                         const struct route_rule *r)
{
	enum route_match m = ROUTE_YES;

	if ((r->iif && r->iif != w->iif) || r->never ||
	    (r->dst_len && !route_prefix(w->dst, &r->dst, r->dst_len)))
		m = ROUTE_NO;
	else if (r->undecided)
		m = ROUTE_MAYBE;
	if (r->invert && m != ROUTE_MAYBE)
		m = m == ROUTE_YES ? ROUTE_NO : ROUTE_YES;
	return m;
}

/* The index of the rule of W's family at priority PRIO after FROM, or
 * the number of rules: the kernel's goto goes forward only. */
static size_t route_goto(const struct route_walk *w, size_t from, uint32_t prio)
{
	size_t i;

	for (i = from + 1; i < w->c->nru; i++)
		if (w->c->ru[i].family == w->family && w->c->ru[i].prio == prio)
			break;
	return i;
}

/* A table's lookup for rule R (matched M): true when it ends the walk. */
static bool route_walk_table(struct route_walk *w, const struct route_rule *r,
                             enum route_match m)
{
	const struct route_rt *rt;

	/* A VRF's rule (l3mdev) takes the table of the device the frame
	 * came in on, which the cache does not know. */
	if (!r->table) {
		w->flags |= ROUTE_UNSURE;
		return false;
	}
	rt = route_find(w->c, r->table, w->family, w->dst);
	/* No route (or a throw): the next rule. */
	if (!rt || rt->type == RTN_THROW)
		return false;
	if (r->suppress_len >= 0 && rt->len <= r->suppress_len)
		return false;
	route_walk_add(w, rt);
	return m == ROUTE_YES && !r->suppress_maybe;
}

/* Walk the rules from FROM on: true when an outcome ended it. */
static bool route_walk_from(struct route_walk *w, size_t from)
{
	for (size_t i = from; i < w->c->nru; i++) {
		const struct route_rule *r = &w->c->ru[i];
		enum route_match m;
		size_t to;

		if (r->family != w->family)
			continue;
		m = route_rule_match(w, r);
		if (m == ROUTE_NO)
			continue;
		switch (r->action) {
		case FR_ACT_TO_TBL:
			if (route_walk_table(w, r, m))
				return true;
			break;
		case FR_ACT_GOTO:
			to = route_goto(w, i, r->goto_prio);
			if (to == w->c->nru)
				break;
			if (m == ROUTE_YES) {
				i = to - 1;
				break;
			}
			/* Both: jumped, and not. */
			if (w->depth >= ROUTE_WALK_MAX) {
				w->flags |= ROUTE_UNSURE;
				break;
			}
			w->depth++;
			route_walk_from(w, to);
			w->depth--;
			break;
		case FR_ACT_NOP:
			break;
		default: /* blackhole, unreachable, prohibit */
			if (m == ROUTE_YES)
				return true;
			break;
		}
	}
	return false;
}

size_t route_lookup(const struct route_cache *c, int family,
                    const struct route_ip *dst, int iif, struct route_nh *nh,
                    size_t max, unsigned *flags)
{
	struct route_walk w = {c, family, iif, dst, nh, max, 0, 0, 0};
	bool rules = false;

	if (flags)
		*flags = 0;
	if (route_linklocal(family, dst, 128))
		return 0;

	for (size_t i = 0; i < c->nru && !rules; i++)
		rules = c->ru[i].family == family;
	if (rules) {
		route_walk_from(&w, 0);
	} else {
		/* The kernel's default rules. */
		static const uint32_t tables[] = {RT_TABLE_LOCAL, RT_TABLE_MAIN,
		                                  RT_TABLE_DEFAULT};
		struct route_rule r = {.table = 0, .suppress_len = -1};

		for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]);
		     t++) {
			r.table = tables[t];
			if (route_walk_table(&w, &r, ROUTE_YES))
				break;
		}
	}
	if (flags)
		*flags = w.flags;
	return w.n;
}

bool route_via(const struct route_cache *c, int ifindex)
{
	for (size_t i = 0; ifindex && i < c->nrt; i++)
		for (size_t k = 0;
		     k < c->rt[i].nnh &&
		     !route_linklocal(c->rt[i].family, &c->rt[i].dst,
		                      c->rt[i].len);
		     k++)
			if (c->rt[i].nh[k].oif == ifindex)
				return true;
	return false;
}

const uint8_t *route_neigh_mac(const struct route_cache *c, int family,
                               const struct route_ip *ip, int ifindex)
{
	for (size_t i = 0; i < c->nnb; i++)
		if (c->nb[i].family == family && c->nb[i].ifindex == ifindex &&
		    !memcmp(&c->nb[i].ip, ip, sizeof(*ip)))
			return c->nb[i].mac;
	return NULL;
}
