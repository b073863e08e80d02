/* txpoll_send: whom the transmit side's frames go to, and sending them:
 * the contributors to a congested queue (contrib.h), the staggered XON,
 * the frame of each slot (PFC for a priority, 802.3x for link pause).
 * See txpoll.h. */
#include "agent/txpoll_int.h"

#include <errno.h>
#include <string.h>

#include "agent/wdpoll.h"
#include "os/log.h"
#include "proto/pfc_frame.h"

uint16_t txpoll_qslots(const struct txpoll_port *x, unsigned q)
{
	if (q < POLICY_NQUEUES)
		return x->prios[q];
	return x->lp ? TXPOLL_LP_BIT : 0;
}

uint64_t txpoll_qbacklog(const struct txpoll_port *x, unsigned q)
{
	uint64_t sum = 0;

	if (q < POLICY_NQUEUES)
		return x->backlog[q];
	for (unsigned i = 0; i < POLICY_NQUEUES; i++)
		if (x->rqueues & (1u << i))
			sum += x->backlog[i];
	return sum;
}

bool txpoll_paused_q(const struct txpoll_port *x, unsigned q)
{
	uint16_t slots = txpoll_qslots(x, q);

	for (unsigned p = 0; p < TXPOLL_SLOTS; p++)
		if ((slots & (1u << p)) && (x->s[p].paused || x->paused_by[p]))
			return true;
	return false;
}

uint64_t txpoll_feeder_bit(const struct txpoll_port *x, const char *name)
{
	for (size_t k = 0; k < x->nfeeders; k++)
		if (!strcmp(x->feeders[k], name))
			return 1ull << k;
	return 0;
}

/* Does another congested port still pause SLOT out of FEEDER? */
static bool txpoll_paused_elsewhere(const struct txpoll *t,
                                    const struct txpoll_port *self,
                                    const char *feeder, unsigned slot)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct txpoll_port *o = &t->v[i];

		if (o != self &&
		    (o->paused_by[slot] & txpoll_feeder_bit(o, feeder)))
			return true;
	}
	return false;
}

/* Count a frame of SLOT sent out of SP. */
static void txpoll_count(struct softpfc_port *sp, unsigned slot, bool pause)
{
	if (slot == TXPOLL_LP) {
		if (pause)
			sp->c.tx_link_pause++;
		else
			sp->c.tx_link_xon++;
		return;
	}
	sp->c.tx_frames++;
	if (pause)
		sp->c.tx_pause[slot]++;
	else
		sp->c.tx_xon[slot]++;
}

void txpoll_send(struct txpoll *t, const struct txpoll_port *x, unsigned slot,
                 uint16_t quanta, uint64_t mask)
{
	bool lp = slot == TXPOLL_LP;

	for (size_t k = 0; k < x->nfeeders; k++) {
		struct frame_port *fp = frames_find(t->frames, x->feeders[k]);
		struct softpfc_port *sp;
		struct pfc_frame f;
		uint8_t buf[PFC_FRAME_MIN];
		int len, rc;

		if (!(mask & (1ull << k)) || !fp || fp->fd < 0 ||
		    !(x->feeder_slots[k] & (1u << slot)))
			continue;
		if (!quanta && txpoll_paused_elsewhere(t, x, fp->ifname, slot))
			continue;
		pfc_frame_make(&f, lp ? PFC_FRAME_PAUSE : PFC_FRAME_PFC,
		               fp->mac, lp ? 0 : (uint8_t)(1u << slot), quanta);
		len = pfc_frame_encode(&f, buf, sizeof(buf));
		if (len < 0)
			continue;
		rc = frames_send(t->frames, fp->ifname, buf, (size_t)len);
		if (rc < 0) {
			log_debug(LOG_SUB_WATCHDOG, "%s: %s %s: %s", fp->ifname,
			          lp ? "link pause" : "PFC",
			          quanta ? "pause" : "XON", strerror(-rc));
			continue;
		}
		sp = t->softpfc ? softpfc_port(t->softpfc, fp->ifname, false)
		                : NULL;
		if (sp)
			txpoll_count(sp, slot, quanta != 0);
	}
}

/* Every feeder of X a pause of queue Q may go to: every feeder for a
 * priority's queue, those sending link pause for the sum. */
static uint64_t txpoll_all(const struct txpoll_port *x, unsigned q)
{
	uint64_t mask = x->nfeeders >= 64 ? ~0ull : (1ull << x->nfeeders) - 1;

	for (size_t k = 0; q == TXPOLL_LP_Q && k < x->nfeeders; k++)
		if (!(x->feeder_slots[k] & TXPOLL_LP_BIT))
			mask &= ~(1ull << k);
	return mask;
}

/* What each feeder of X has sent toward queue Q of X so far (TXPOLL_LP_Q:
 * any queue), into OUT; 0 or -errno (the kernel does not count, or X's
 * plan is gone). */
static int txpoll_counts(struct txpoll *t, const struct txpoll_port *x,
                         unsigned q, uint64_t *out, double now)
{
	const struct ports_port *e =
	    t->ports ? ports_find(t->ports, x->ifname) : NULL;

	if (!t->contrib || !e || !e->applied)
		return -ENOENT;
	return contrib_counts(t->contrib, x->ifindex, x->master, &e->plan,
	                      q == TXPOLL_LP_Q ? CONTRIB_ANY_QUEUE : q,
	                      x->feeder_idx, x->feeder_master, x->nfeeders, out,
	                      now);
}

/* The feeders of X whose traffic entered queue Q since the last look
 * (the last decision, or the last time the queue was seen empty): the
 * ones a pause goes to. Before any look (a queue that filled before the
 * poll, asleep while the ports were idle, ever saw it empty: the first
 * crossing of an incast), those that sent toward it since counting
 * began: taking that as no information paused every feeder, a bystander
 * among them, at each incast's start. When no count grew, those it
 * paused already, else the contributors of its last pause: right after
 * an XON they had sent nothing yet, being paused, and the queue is still
 * theirs. For a priority's queue, none yet when nothing at all was
 * counted before the first look (roced just started): the refreshes of
 * the next TXPOLL_COUNT_WAIT_MS decide (link pause does not wait). Every
 * feeder when the kernel does not count, or when none ever did (what
 * fills the queue comes from where roced cannot tell: pausing every port
 * is what keeps the class lossless). */
uint64_t txpoll_contributors(struct txpoll *t, struct txpoll_port *x,
                             unsigned q, double now)
{
	uint64_t cur[TXPOLL_FEEDERS_MAX], mask = 0;
	bool base = x->cbase_ok & (1u << q);
	uint16_t slots = txpoll_qslots(x, q);

	if (txpoll_counts(t, x, q, cur, now) < 0) {
		x->cbase_ok &= (uint16_t) ~(1u << q);
		return txpoll_all(x, q);
	}
	for (size_t k = 0; k < x->nfeeders; k++)
		if (cur[k] > (base ? x->cbase[q][k] : 0))
			mask |= 1ull << k;
	mask &= txpoll_all(x, q);
	memcpy(x->cbase[q], cur, x->nfeeders * sizeof(cur[0]));
	x->cbase_ok |= (uint16_t)(1u << q);
	x->cbase_ms[q] = now;
	if (!mask) {
		for (unsigned p = 0; p < TXPOLL_SLOTS; p++)
			if (slots & (1u << p))
				mask |= x->paused_by[p];
		for (unsigned p = 0; !mask && p < TXPOLL_SLOTS; p++)
			if (slots & (1u << p))
				mask |= x->last_by[p];
		/* Nothing counted yet, no pause of ours to follow, and this
		 * the first look: a roced just started (a restart meeting a
		 * queue already above xoff) whose counts begin now. Pausing
		 * every feeder would pause the bystanders too; the refreshes
		 * (every fast poll) look again for up to
		 * TXPOLL_COUNT_WAIT_MS, and the headroom above xoff holds
		 * that long. Then, still nothing counted, every feeder: what
		 * fills the queue comes from where roced cannot tell. */
		if (!mask && !base && q < POLICY_NQUEUES) {
			x->cwait |= (uint8_t)(1u << q);
			x->cwait_ms[q] = now;
			log_debug(LOG_SUB_WATCHDOG,
			          "%s: queue %u above xoff before any count: "
			          "waiting for its feeders' counts",
			          x->ifname, q);
			return 0;
		}
		if (!mask && q < POLICY_NQUEUES && (x->cwait & (1u << q)) &&
		    now >= x->cwait_ms[q] &&
		    now - x->cwait_ms[q] < TXPOLL_COUNT_WAIT_MS)
			return 0;
		if (!mask)
			mask = txpoll_all(x, q);
	}
	if (q < POLICY_NQUEUES)
		x->cwait &= (uint8_t) ~(1u << q);
	return mask;
}

void txpoll_window(struct txpoll *t, struct txpoll_port *x, unsigned q,
                   double now)
{
	uint64_t cur[TXPOLL_FEEDERS_MAX];

	/* What its feeders sent so far is the start of the next window
	 * (at most every TXPOLL_WINDOW_MS). */
	if (!t->contrib || t->contrib->err ||
	    ((x->cbase_ok & (1u << q)) && now >= x->cbase_ms[q] &&
	     now - x->cbase_ms[q] < TXPOLL_WINDOW_MS))
		return;
	if (txpoll_counts(t, x, q, cur, now) < 0)
		return;
	memcpy(x->cbase[q], cur, x->nfeeders * sizeof(cur[0]));
	x->cbase_ok |= (uint16_t)(1u << q);
	x->cbase_ms[q] = now;
}

/* Is feeder K of X released one at a time for SLOT? A switch releases
 * its whole held queue at once (megabytes on a slow fabric), and two of
 * them together overflow any headroom; its watchdog takes a long hold
 * for transit back-pressure (up to 30 s, pfcwd.h). A host's release is
 * its sender's catch-up, and its watchdog (3 s on the shipped host file)
 * would take a hold made longer by waiting for its turn for a storm:
 * hosts (and ports with no LLDP neighbour known) go with the first XON.
 * Without a neighbour test (NULL) every feeder is staggered. Link pause
 * releases every feeder at once. */
static bool txpoll_staggered(const struct txpoll *t,
                             const struct txpoll_port *x, size_t k,
                             unsigned slot)
{
	if (slot == TXPOLL_LP)
		return false;
	return !t->switch_peer ||
	       (t->switch_peer(t->switch_arg, x->feeders[k]) &
	        WDPOLL_PEER_SWITCH);
}

uint64_t txpoll_xon_hosts(const struct txpoll *t, const struct txpoll_port *x,
                          unsigned slot)
{
	uint64_t mask = 0;

	/* Those not staggered, and those that do not send SLOT's frames
	 * (they were never sent the pause). */
	for (size_t k = 0; k < x->nfeeders; k++)
		if ((x->paused_by[slot] & (1ull << k)) &&
		    (!(x->feeder_slots[k] & (1u << slot)) ||
		     !txpoll_staggered(t, x, k, slot)))
			mask |= 1ull << k;
	return mask;
}

/* Was X itself held by its peer for SLOT (a priority) within
 * TXPOLL_STAGGER_QUIET_MS of NOW (or is it still)? Its held queue,
 * released, went out at the speed of the CPU and may not have landed on
 * the peer's queue yet, nor been answered by a new pause: a switch of
 * ours released now would send its own held queue through X right
 * behind it, and the two together overflowed the peer's (a spine
 * between two leaves: 453 dropped in the bottleneck of two tiers). */
static bool txpoll_held_lately(const struct txpoll *t,
                               const struct txpoll_port *x, unsigned slot,
                               double now)
{
	const struct softpfc_port *sp =
	    t->softpfc ? softpfc_port(t->softpfc, x->ifname, false) : NULL;
	double end;

	if (!sp || slot >= PFC_NPRIO)
		return false;
	if (sp->until[slot] > 0)
		return true;
	end = sp->since[slot] + sp->last_held[slot];
	return sp->last_held[slot] > 0 && now >= end &&
	       now - end < TXPOLL_STAGGER_QUIET_MS;
}

uint64_t txpoll_xon_one(const struct txpoll *t, struct txpoll_port *x,
                        unsigned slot, bool one_switch, double now)
{
	uint64_t mask = txpoll_xon_hosts(t, x, slot);

	/* Unless X was held itself lately (txpoll_held_lately(): the
	 * switch waits for a later turn, its pause refreshed). In a cycle
	 * the switch behind is the next node round it, let go at xon
	 * (txpoll_port.in_cycle). */
	if (one_switch && slot < PFC_NPRIO && !(x->in_cycle & (1u << slot)) &&
	    txpoll_held_lately(t, x, slot, now))
		one_switch = false;

	for (size_t i = 0; one_switch && i < x->nfeeders; i++) {
		size_t k = (x->xon_next[slot] + i) % x->nfeeders;

		if ((x->paused_by[slot] & ~mask & (1ull << k))) {
			mask |= 1ull << k;
			x->xon_next[slot] = (unsigned)((k + 1) % x->nfeeders);
			break;
		}
	}
	return mask;
}
