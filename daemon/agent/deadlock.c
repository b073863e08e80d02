/* deadlock: PFC deadlock detection and breaking (see deadlock.h). */
#include "agent/deadlock.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "os/log.h"

void deadlock_init(struct deadlock *d)
{
	memset(d, 0, sizeof(*d));
	d->nobreak = getenv("ROCED_DEADLOCK_NOBREAK") != NULL;
	d->always = getenv("ROCED_WDPOLL_REFERENCE") != NULL;
}

void deadlock_free(struct deadlock *d)
{
	free(d->v);
	memset(d, 0, sizeof(*d));
}

const struct deadlock_port *deadlock_find(const struct deadlock *d,
                                          const char *ifname)
{
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->v[i].ifname, ifname))
			return &d->v[i];
	return NULL;
}

uint8_t deadlock_breaking(const struct deadlock *d, const char *ifname)
{
	const struct deadlock_port *e = deadlock_find(d, ifname);
	uint8_t m = 0;

	for (unsigned p = 0; e && p < 8; p++)
		if (e->p[p].breaking)
			m |= (uint8_t)(1u << p);
	return m;
}

uint8_t deadlock_in_cycle(const struct deadlock *d, const char *ifname,
                          double now)
{
	const struct deadlock_port *e = deadlock_find(d, ifname);
	uint8_t m = 0;

	for (unsigned p = 0; e && p < 8; p++)
		if (e->p[p].breaking ||
		    (e->p[p].seen_ms > 0 &&
		     now - e->p[p].seen_ms < DEADLOCK_RELEASE_MS))
			m |= (uint8_t)(1u << p);
	return m;
}

static struct deadlock_port *deadlock_port(struct deadlock *d,
                                           const char *ifname)
{
	struct deadlock_port *v;

	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->v[i].ifname, ifname))
			return &d->v[i];
	v = realloc(d->v, (d->n + 1) * sizeof(*v));
	if (!v)
		return NULL;
	d->v = v;
	memset(&v[d->n], 0, sizeof(v[d->n]));
	snprintf(v[d->n].ifname, sizeof(v[d->n].ifname), "%s", ifname);
	return &v[d->n++];
}

double deadlock_next(const struct deadlock *d, const struct txpoll *tx)
{
	if ((!tx->n && !d->n) || d->idle)
		return -1;
	return d->next_ms;
}

void deadlock_wake(struct deadlock *d, double now)
{
	if (!d->idle)
		return;
	d->idle = false;
	if (d->next_ms && d->next_ms < now)
		d->next_ms += ceil((now - d->next_ms) / DEADLOCK_TICK_MS) *
		              DEADLOCK_TICK_MS;
}

/* The node's ID: the lowest MAC of its LLDP ports (roced's chassis IDs
 * are per port; a cycle needs one per node). */
static void deadlock_self(struct deadlock *d, const struct lldp_agent *lldp)
{
	struct pfcdl_id id = {0};

	for (size_t i = 0; i < lldp->n; i++) {
		struct pfcdl_id m = {.len = 6};

		memcpy(m.v, lldp->v[i].mac, 6);
		if (!id.len || pfcdl_id_cmp(&m, &id) < 0)
			id = m;
	}
	d->self = id;
}

/* The chain text of C's first LEN hops (all when LEN is 0). */
static void deadlock_chain_text(const struct pfcdl_chain *c, unsigned len,
                                char *buf, size_t cap)
{
	size_t off = 0;

	buf[0] = '\0';
	for (unsigned h = 0; h < c->n && (!len || h < len); h++) {
		char id[3 * PFCDL_ID_MAX + 1];

		pfcdl_id_format(&c->hop[h], id, sizeof(id));
		if (off < cap)
			off += (size_t)snprintf(buf + off, cap - off, "%s%s",
			                        h ? " -> " : "", id);
	}
}

/* Say the cycle of E's priority P (at most once per DEADLOCK_LOG_MS). */
static void deadlock_log(const struct deadlock *d, struct deadlock_port *e,
                         unsigned p, double now)
{
	struct deadlock_prio *s = &e->p[p];
	char self[3 * PFCDL_ID_MAX + 1], cyc[640], more[48] = "";

	if (s->log_ms > 0 && now - s->log_ms < DEADLOCK_LOG_MS) {
		s->unlogged++;
		return;
	}
	if (s->unlogged)
		snprintf(more, sizeof(more), " (%u more since the last line)",
		         s->unlogged);
	s->unlogged = 0;
	s->log_ms = now;
	pfcdl_id_format(&d->self, self, sizeof(self));
	deadlock_chain_text(&s->chain, s->len, cyc, sizeof(cyc));
	log_warnx("%s: PFC deadlock on priority %u: held by %s for %.0f ms, "
	          "pausing %s, in a cycle of %u nodes (%s -> %s); %s%s",
	          e->ifname, p, e->peer[0] ? e->peer : "its peer", s->held_ms,
	          s->feeder_names, s->len, self, cyc,
	          !s->breaker  ? "the node with the lowest ID breaks it"
	          : d->nobreak ? "this node has the lowest ID, but "
	                         "ROCED_DEADLOCK_NOBREAK is set"
	                       : "breaking it here: pause not honoured on "
	                         "this port until its queue drains",
	          more);
}

/* The names of X's feeders in MASK. */
static void deadlock_feeders(const struct txpoll_port *x, uint64_t mask,
                             char *buf, size_t cap)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < x->nfeeders && k < 64; k++)
		if ((mask & (1ull << k)) && off < cap)
			off += (size_t)snprintf(buf + off, cap - off, "%s%s",
			                        off ? "," : "", x->feeders[k]);
}

/* Whether X's queue of priority P has drained to its xon (its last
 * read: a port with a backlog is read at the fast pace). */
static bool deadlock_drained(const struct txpoll_port *x, unsigned p)
{
	for (unsigned q = 0; q < POLICY_NQUEUES; q++)
		if (x->prios[q] & (1u << p))
			return x->backlog[q] <= x->t[p].xon;
	return false;
}

/* A breaking priority's end: drained (after the minimum), or the most it
 * may last. */
static bool deadlock_end_break(struct deadlock_prio *s,
                               const struct txpoll_port *x, unsigned p,
                               double now)
{
	double t = now - s->break_ms;

	if (t < DEADLOCK_BREAK_MIN_MS)
		return false;
	return t >= DEADLOCK_BREAK_MAX_MS || deadlock_drained(x, p);
}

/* E's wait on priority P, from the chains its neighbour NBR sent: the
 * chains that go out of its feeders (OUT, one per LLDP port) and the
 * cycle, if one comes back here. */
static void deadlock_edge(struct deadlock *d, struct deadlock_port *e,
                          const struct txpoll_port *x, unsigned p,
                          const struct pfcdl_tlv *nbr,
                          const struct lldp_agent *lldp, struct pfcdl_tlv *out)
{
	struct deadlock_prio *s = &e->p[p];
	bool any = false;

	s->cycle = false;
	for (unsigned i = 0; i <= (nbr ? nbr->n : 0); i++) {
		const struct pfcdl_chain *in = NULL;
		struct pfcdl_chain ch;
		unsigned len;

		if (nbr && i < nbr->n) {
			if (nbr->c[i].prio != p)
				continue;
			in = &nbr->c[i];
		} else if (any) {
			break; /* [self] alone only when the peer said none */
		}
		any = true;
		if (in && !s->cycle && pfcdl_cycle(&d->self, in, &len)) {
			s->cycle = true;
			s->len = len;
			s->chain = *in;
			s->breaker = pfcdl_breaker(&d->self, in, len);
		}
		pfcdl_extend(&d->self, in, (uint8_t)p, &ch);
		for (size_t k = 0; k < x->nfeeders && k < 64; k++) {
			struct lldp_port *lp;

			if (!(s->feeders & (1ull << k)))
				continue;
			lp = lldp_agent_find(lldp, x->feeders[k]);
			if (lp)
				pfcdl_add(&out[lp - lldp->v], &ch);
		}
	}
}

/* Follow one port X: its wait edges, cycles and breaks. Returns true
 * when its breaking priorities changed. */
static bool deadlock_port_step(struct deadlock *d, struct deadlock_port *e,
                               const struct txpoll_port *x,
                               struct lldp_agent *lldp,
                               const struct softpfc *sp, double now,
                               struct pfcdl_tlv *out)
{
	const struct softpfc_port *h =
	    softpfc_port((struct softpfc *)sp, x->ifname, false);
	const struct lldp_port *lp = lldp_agent_find(lldp, x->ifname);
	const struct lldp_nbr *nbr = lp ? lldp_port_peer(lp, NULL) : NULL;
	const struct pfcdl_tlv *nt = NULL;
	bool changed = false;

	if (nbr && nbr->pdu.pfcdl.present &&
	    nbr->pdu.pfcdl.version == PFCDL_VERSION)
		nt = &nbr->pdu.pfcdl;
	e->peer[0] = '\0';
	if (nbr)
		lldp_id_format(&nbr->pdu.chassis, false, e->peer,
		               sizeof(e->peer));
	for (unsigned p = 0; p < 8; p++) {
		struct deadlock_prio *s = &e->p[p];
		bool was = s->cycle, watched = false;

		for (unsigned q = 0; q < POLICY_NQUEUES; q++)
			watched = watched || (x->prios[q] & (1u << p));
		if (s->breaking && deadlock_end_break(s, x, p, now)) {
			s->breaking = false;
			s->break_end_ms = now;
			changed = true;
			log_info("%s: PFC deadlock on priority %u: pause "
			         "honoured again after %.0f ms",
			         e->ifname, p, now - s->break_ms);
		}
		s->feeders = x->paused_by[p];
		s->waits = watched && h && (h->held & (1u << p)) &&
		           h->until[p] > 0 && s->feeders;
		if (!s->waits) {
			s->cycle = false;
			continue;
		}
		deadlock_feeders(x, s->feeders, s->feeder_names,
		                 sizeof(s->feeder_names));
		deadlock_edge(d, e, x, p, nt, lldp, out);
		if (!s->cycle)
			continue;
		if (!was)
			s->cycle_ms = now;
		/* Held long enough: not a moment of transit pause that a
		 * chain's age made look like a loop. */
		if (now - h->since[p] < DEADLOCK_CONFIRM_MS ||
		    now - s->cycle_ms < DEADLOCK_TICK_MS)
			continue;
		s->seen_ms = now;
		if (s->breaking ||
		    (s->break_end_ms > 0 &&
		     now - s->break_end_ms < DEADLOCK_HOLDOFF_MS))
			continue;
		s->detected++;
		d->detected++;
		s->held_ms = now - h->since[p];
		deadlock_log(d, e, p, now);
		if (s->breaker && !d->nobreak) {
			s->breaking = true;
			s->break_ms = now;
			s->broken++;
			d->broken++;
			changed = true;
		} else {
			/* Not ours to break: look again after a holdoff. */
			s->break_end_ms = now;
		}
	}
	return changed;
}

bool deadlock_tick(struct deadlock *d, struct lldp_agent *lldp,
                   const struct softpfc *sp, const struct txpoll *tx,
                   double now)
{
	struct pfcdl_tlv *out;
	bool changed = false, idle = true;

	if (d->next_ms > now || d->idle)
		return false;
	d->next_ms = now + DEADLOCK_TICK_MS;
	deadlock_self(d, lldp);
	if (!d->self.len)
		return false;
	out = calloc(lldp->n ? lldp->n : 1, sizeof(*out));
	if (!out)
		return false;
	for (size_t i = 0; i < d->n; i++)
		d->v[i].mark = false;
	for (size_t i = 0; i < tx->n; i++) {
		struct deadlock_port *e = deadlock_port(d, tx->v[i].ifname);

		if (!e)
			continue;
		e->mark = true;
		changed |=
		    deadlock_port_step(d, e, &tx->v[i], lldp, sp, now, out);
	}
	/* Ports no longer polled: a break there ends with them. */
	for (size_t i = d->n; i-- > 0;)
		if (!d->v[i].mark) {
			changed |= deadlock_breaking(d, d->v[i].ifname) != 0;
			d->v[i] = d->v[--d->n];
		}
	/* A port held by its peer keeps the ticks going even before it
	 * waits: it waits only once this node pauses its own feeders,
	 * which comes later in the same hold, and no new hold would wake
	 * the ticks then (the ring of pfc_deadlock.sh froze unseen). */
	for (size_t i = 0; i < tx->n; i++) {
		const struct softpfc_port *h =
		    softpfc_port((struct softpfc *)sp, tx->v[i].ifname, false);

		idle = idle && !(h && h->held);
	}
	for (size_t i = 0; i < d->n; i++)
		for (unsigned p = 0; p < 8; p++)
			idle = idle && !d->v[i].p[p].waits &&
			       !d->v[i].p[p].breaking && !d->v[i].p[p].cycle;
	for (size_t i = 0; i < lldp->n; i++) {
		idle = idle && !out[i].n;
		out[i].present = out[i].n > 0;
		out[i].version = PFCDL_VERSION;
		lldp_agent_set_pfcdl(lldp, lldp->v[i].ifname, &out[i], now);
	}
	free(out);
	/* Asleep from here when nothing waits (softpfc's holds are what
	 * make a port wait; the first one wakes the ticks), unless the
	 * environment asks for the ticks as before (bench/txpoll -w). */
	d->idle = idle && !d->always;
	return changed;
}
