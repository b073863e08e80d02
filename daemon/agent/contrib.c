/* contrib: per-ingress accounting of what feeds a queue. See contrib.h. */
#include "agent/contrib.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "agent/qstats.h"
#include "os/log.h"
#include "plan/classify.h"

void contrib_init(struct contrib *c, const struct contrib_ops *ops, void *impl)
{
	memset(c, 0, sizeof(*c));
	c->ops = ops;
	c->impl = impl;
	c->read_ms = -1;
	c->fdb_ms = -1;
	c->fail_ms = -1;
}

void contrib_free(struct contrib *c)
{
	if (c->open && c->ops)
		c->ops->close(c->impl, c->state);
	c->open = false;
	c->state = NULL;
	free(c->v);
	free(c->fdb);
	c->v = NULL;
	c->fdb = NULL;
	c->n = c->cap = c->nfdb = c->capfdb = 0;
}

int contrib_start(struct contrib *c)
{
	int rc;

	if (c->open)
		return 0;
	if (!c->ops)
		return -EOPNOTSUPP;
	rc = c->ops->open(c->impl, &c->state);
	if (rc < 0) {
		if (rc != c->err)
			log_warnx("software PFC transmit: cannot count what "
			          "each port feeds (%s): a congested queue "
			          "pauses every port of its bridge",
			          strerror(-rc));
		c->err = rc;
		return rc;
	}
	if (c->err)
		log_info("software PFC transmit: counting what each port "
		         "feeds again: pause goes to the contributors only");
	c->err = 0;
	c->open = true;
	c->read_ms = c->fdb_ms = -1;
	return 0;
}

static void contrib_add(void *arg, const struct contrib_entry *e)
{
	struct contrib *c = arg;

	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 64;
		struct contrib_entry *nv = realloc(c->v, cap * sizeof(*nv));

		if (!nv)
			return;
		c->v = nv;
		c->cap = cap;
	}
	c->v[c->n++] = *e;
}

static void contrib_fdb_add(void *arg, const struct contrib_fdb *e)
{
	struct contrib *c = arg;

	if (c->nfdb == c->capfdb) {
		size_t cap = c->capfdb ? 2 * c->capfdb : 64;
		struct contrib_fdb *nv = realloc(c->fdb, cap * sizeof(*nv));

		if (!nv)
			return;
		c->fdb = nv;
		c->capfdb = cap;
	}
	c->fdb[c->nfdb++] = *e;
}

/* The counters as of NOW (one read per QSTATS_SHARE_MS), the forwarding
 * database as of CONTRIB_FDB_MS before. */
static int contrib_read(struct contrib *c, double now)
{
	int rc;

	if (!c->open) {
		/* A kernel that refused refuses again: asked anew only
		 * every CONTRIB_RETRY_MS, not at every decision. */
		if (c->err && c->fail_ms >= 0 && now >= c->fail_ms &&
		    now - c->fail_ms < CONTRIB_RETRY_MS)
			return c->err;
		rc = contrib_start(c);
		if (rc < 0) {
			c->fail_ms = now;
			return rc;
		}
	}
	if (c->read_ms < 0 || now < c->read_ms ||
	    now - c->read_ms >= QSTATS_SHARE_MS) {
		c->n = 0;
		rc = c->ops->read(c->impl, c->state, contrib_add, c);
		c->reads++;
		if (rc < 0) {
			c->n = 0;
			return rc;
		}
		c->read_ms = now;
	}
	if (c->fdb_ms < 0 || now < c->fdb_ms ||
	    now - c->fdb_ms >= CONTRIB_FDB_MS) {
		c->nfdb = 0;
		/* Without it every destination is unknown: flooded, counted
		 * toward every port. */
		if (c->ops->fdb(c->impl, contrib_fdb_add, c) < 0)
			c->nfdb = 0;
		c->fdb_reads++;
		c->fdb_ms = now;
	}
	return 0;
}

/* Does the bridge MASTER forward a frame to MAC out of PORT: behind it,
 * or a destination it floods (group addresses, unknown unicast)? */
static bool contrib_toward(const struct contrib *c, const uint8_t mac[6],
                           int port, int master)
{
	bool known = false;

	if (mac[0] & 1)
		return true;
	for (size_t i = 0; i < c->nfdb; i++) {
		const struct contrib_fdb *f = &c->fdb[i];

		if (memcmp(f->mac, mac, 6) ||
		    (f->master && f->master != master))
			continue;
		if (f->local)
			return false;
		if (f->port == port)
			return true;
		known = true;
	}
	return !known;
}

/* Is MAC one of bridge MASTER's own addresses: a frame to it enters the
 * bridge's IP stack (an SVI) and goes wherever the routes send it? */
static bool contrib_local(const struct contrib *c, const uint8_t mac[6],
                          int master)
{
	for (size_t i = 0; i < c->nfdb; i++)
		if (c->fdb[i].local && !memcmp(c->fdb[i].mac, mac, 6) &&
		    (!c->fdb[i].master || c->fdb[i].master == master))
			return true;
	return false;
}

/* Does the kernel route a frame of E, which came in on a feeder outside
 * PORT's bridge whose layer-3 device is IIF (the feeder, or its bridge),
 * out of PORT (of bridge MASTER, 0: none)? Its IP destination leaves
 * through the port's layer-3 device by one of the next hops the rules
 * and tables may give it and, behind a bridge, toward a neighbour the
 * bridge puts behind PORT. What cannot be told (an IP frame without a
 * destination kept, rules too deep) is counted, as pausing a feeder too
 * many loses nothing. */
static bool contrib_routed(const struct contrib *c,
                           const struct contrib_entry *e, int iif, int port,
                           int master)
{
	struct route_nh nh[ROUTE_NH_MAX];
	static const struct route_ip none;
	int l3 = master ? master : port;
	unsigned flags;
	size_t n;

	if (!c->routes)
		return false;
	if (!e->family)
		return e->dscp != CLASSIFY_NOT_IP;
	n = route_lookup(c->routes, e->family, &e->daddr, iif, nh, ROUTE_NH_MAX,
	                 &flags);
	if (flags & ROUTE_UNSURE)
		return true;
	for (size_t i = 0; i < n; i++) {
		const uint8_t *mac;
		bool gw = memcmp(&nh[i].gw, &none, sizeof(none)) != 0;

		if (nh[i].oif != l3)
			continue;
		if (!master)
			return true;
		mac = route_neigh_mac(c->routes, e->family,
		                      gw ? &nh[i].gw : &e->daddr, l3);
		/* Not resolved yet: the kernel sends it once ARP (or
		 * neighbour discovery) answers. */
		if (!mac || contrib_toward(c, mac, port, master))
			return true;
	}
	return false;
}

int contrib_counts(struct contrib *c, int port, int master,
                   const struct plan_port *pp, unsigned q, const int *feeder,
                   const int *feeder_master, size_t n, uint64_t *out,
                   double now)
{
	/* The queue of each (PCP, DSCP) pair, as the entries ask: the
	 * pair's classification costs a run of the port's program. */
	int8_t memo[9][65];
	int rc;

	memset(out, 0, n * sizeof(*out));
	rc = contrib_read(c, now);
	if (rc < 0)
		return rc;
	memset(memo, -2, sizeof(memo));
	for (size_t i = 0; i < c->n; i++) {
		const struct contrib_entry *e = &c->v[i];
		unsigned pi = e->pcp < 8 ? e->pcp : 8;
		unsigned di = e->dscp < 64 ? e->dscp : 64;
		size_t k;

		for (k = 0; k < n && feeder[k] != e->ifindex; k++)
			;
		if (k == n)
			continue;
		if (feeder_master && (!master || feeder_master[k] != master)) {
			int iif =
			    feeder_master[k] ? feeder_master[k] : e->ifindex;

			if (!contrib_routed(c, e, iif, port, master))
				continue;
		} else if (!contrib_toward(c, e->mac, port, master)) {
			/* Bridged in, but to the bridge itself: routed from
			 * there (a host of an SVI leaf sending off the
			 * leaf), toward PORT only if the routes say so. */
			if (!contrib_local(c, e->mac, master) ||
			    !contrib_routed(c, e, master ? master : e->ifindex,
			                    port, master))
				continue;
		}
		if (q == CONTRIB_ANY_QUEUE) {
			out[k] += e->packets;
			continue;
		}
		if (memo[pi][di] == -2)
			memo[pi][di] =
			    (int8_t)plan_classify(pp, e->pcp, e->dscp);
		/* A plan that cannot say counts the frame everywhere. */
		if (memo[pi][di] >= 0 && (unsigned)memo[pi][di] != q)
			continue;
		out[k] += e->packets;
	}
	return 0;
}
