/* compile_pfc: what software PFC and the PFC watchdog put into a port's
 * plan. Their state is compile's input (struct compile_port's
 * pfc_hold and wd_shut, filled by the daemon's port registry from the
 * software PFC agent and the watchdog poller), so that a pause received
 * or a storm reaches the kernel through compile -> diff -> apply like
 * everything else.
 *
 * Software ports (with compile_port.softpfc, which roced always sets): each
 * no-drop queue's leaf is a tbf. Released, its rate
 * is above the port's and it never shapes; held, it trickles (one bucket
 * per PLAN_TBF_HOLD_SECONDS), so the queue keeps its packets and their
 * senders are back-pressured. Measured on this machine's kernel (roced(8),
 * HOLDING A QUEUE): the queue stops within the netlink change; HTB's own
 * class rate, the other candidate, holds too but keeps a token debt of up
 * to a minute after the release, whereas a tbf
 * change refills its bucket. A queue the watchdog shut with the drop
 * action gets a fifo of limit 0 instead: its backlog goes with the tbf,
 * and whatever arrives is dropped (and counted by that fifo). A queue
 * with random-detect, where the kernel has sch_red, gets the tbf with the
 * red inside it (compile_pfc_red()): held, RED's fifo keeps the packets;
 * released, RED marks as it would alone.
 *
 * Link pause (802.3x, `flowcontrol receive on`) on a software port pauses
 * the whole port, so every queue's leaf is such a tbf, and
 * compile_port.lp_hold holds them all at once (a queue with
 * random-detect too, with its red inside the tbf, as for PFC).
 *
 * Hardware ports: a shut queue's priorities lose PFC in the DCB part
 * (drop and forward); alert changes nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

#include "plan/compile_int.h"

/* The held tbf's trickle: its bucket refills in PLAN_TBF_HOLD_SECONDS. */
static uint64_t compile_pfc_hold_rate(uint32_t burst)
{
	uint64_t r =
	    (burst + PLAN_TBF_HOLD_SECONDS - 1) / PLAN_TBF_HOLD_SECONDS;

	return r ? r : 1;
}

/* The released tbf's bucket: large beside a frame, so that a released
 * queue leaves at the class's pace and not the bucket's. */
#define COMPILE_PFC_BURST_RELEASED 65536u
/* ... and its rate: above the port's, so that only HTB shapes. */
#define COMPILE_PFC_RATE_FACTOR 4u

uint8_t compile_pfc_queues(const struct compile_ctx *c)
{
	const struct plan_dcb *d = &c->pp->dcb;
	uint8_t queues = 0;

	/* What DCBX enabled counts as the policy's own: a priority that a
	 * willing port adopted gets a holdable queue in the adopted tree.
	 * A willing port in mode auto may adopt PFC on any priority, so
	 * every queue's leaf is holdable there: a peer that changes its
	 * mind then flips holds on and off, never the leaf's kind (which
	 * would drop the queue's packets at each change). */
	uint8_t prios = d->pfc_admin | d->pfc_en;

	if (c->iface && c->iface->lldp.willing &&
	    c->pp->pfc_mode == POLICY_PFC_AUTO)
		prios = 0xff;

	for (unsigned p = 0; p < POLICY_NPRIO; p++)
		if ((prios & (1u << p)) && d->prio_tc[p] < POLICY_NQUEUES)
			queues |= (uint8_t)(1u << d->prio_tc[p]);
	return queues;
}

bool compile_pfc_lp_rx(const struct compile_ctx *c)
{
	return c->cp && c->cp->softpfc && c->pp->dcb.software &&
	       c->pp->dcb.pause_rx;
}

uint64_t compile_pfc_headroom(uint32_t speed_mbps, uint32_t frame)
{
	double bps = (speed_mbps ? speed_mbps : COMPILE_DEFAULT_SPEED_MBPS) *
	             125000.0; /* bytes/s */

	return (uint64_t)(bps * COMPILE_PFC_REACTION_MS / 1000.0) +
	       2ull * frame;
}

/* The limit of queue Q, whose buffer would otherwise be BASE bytes (the
 * fifo's, `queue-limit`'s or RED's), when Q is a no-drop queue: a pause
 * sent at xoff must find room above xoff for everything still in
 * flight (the headroom H), or the queue drops what PFC was meant to
 * keep. With `pause buffer-size N pause-threshold X`, X is the xoff:
 * the limit is X + H, or N where the operator gave more. Without it,
 * roced's transmit side pauses at the limit less H but never below half
 * the limit (pfctx_defaults()), so the limit is 2 H, which leaves the
 * whole of H above xoff. RED's thresholds never size it alone: RED
 * marks inside this limit. */
static uint32_t compile_pfc_limit(struct compile_ctx *c, unsigned q,
                                  uint32_t base, bool warn)
{
	const struct plan_dcb *d = &c->pp->dcb;
	uint64_t want = 0, need;

	if (!(compile_pfc_queues(c) & (1u << q)))
		return base;
	for (unsigned p = 0; p < POLICY_NPRIO; p++) {
		const struct policy_pause_buffer *b;

		if (!(d->pfc_admin & (1u << p)) || d->prio_tc[p] != q)
			continue;
		b = policy_iface_pause_buffer(c->p, c->iface, p);
		need = compile_pfc_headroom((uint32_t)c->pp->caps.speed_mbps,
		                            c->frame);
		if (b && b->set) {
			need += b->pause_threshold;
			if (need < b->buffer_size)
				need = b->buffer_size;
		} else {
			need *= 2;
		}
		if (need > want)
			want = need;
	}
	if (want > UINT32_MAX)
		want = UINT32_MAX;
	if (warn && c->queuing && c->queuing->queue[q].configured &&
	    c->queuing->queue[q].queue_limit_bytes && base < want)
		diag_warn(&c->pp->warnings,
		          c->queuing->queue[q].queue_limit_line
		              ? c->queuing->queue[q].queue_limit_line
		              : c->queuing->queue[q].line,
		          "%s: queue-limit %u bytes leaves a no-drop queue too "
		          "little room above xoff for what is in flight when "
		          "it pauses: its limit is %llu bytes",
		          policy_queue_name(q), base, (unsigned long long)want);
	return base > want ? base : (uint32_t)want;
}

bool compile_pfc_tbf_held(const struct plan_qdisc *qd)
{
	unsigned major = PLAN_H_MAJ(qd->handle);

	/* Released, the rate is above the port's; held, a bucket per
	 * PLAN_TBF_HOLD_SECONDS (twice that for the bucket the kernel
	 * reports back, rounded through its clock ticks). */
	return qd->kind == PLAN_QD_TBF && major >= PLAN_LEAF_MAJOR(0) &&
	       major < PLAN_LEAF_MAJOR(POLICY_NQUEUES) &&
	       qd->u.tbf.rate <= 2 * compile_pfc_hold_rate(qd->u.tbf.burst);
}

size_t compile_pfc_unhold(struct plan_port *pp)
{
	const struct plan_class *top = plan_port_class(
	    pp, PLAN_H_MAKE(PLAN_ROOT_MAJOR, PLAN_HTB_ROOT_MINOR));
	uint64_t speed = top && top->rate
	                     ? top->rate
	                     : COMPILE_DEFAULT_SPEED_MBPS * 125000ull;
	size_t n = 0;

	for (size_t i = 0; i < pp->nqdiscs; i++) {
		struct plan_tbf *t = &pp->qdiscs[i].u.tbf;

		if (!compile_pfc_tbf_held(&pp->qdiscs[i]))
			continue;
		/* Held, the bucket is one frame (compile_pfc_leaf). */
		t->rate = speed * COMPILE_PFC_RATE_FACTOR;
		t->burst = COMPILE_PFC_BURST_RELEASED > 2 * t->burst
		               ? COMPILE_PFC_BURST_RELEASED
		               : 2 * t->burst;
		n++;
	}
	return n;
}

/* The queues of C's port whose leaf software PFC or link pause holds. */
static uint8_t compile_pfc_holdable(const struct compile_ctx *c)
{
	if (!c->cp || !c->cp->softpfc || !c->pp->dcb.software)
		return 0;
	return compile_pfc_lp_rx(c) ? 0xff : compile_pfc_queues(c);
}

/* Does a pause received hold queue Q now? */
static bool compile_pfc_held(const struct compile_ctx *c, unsigned q)
{
	const struct plan_dcb *d = &c->pp->dcb;

	if (compile_pfc_lp_rx(c) && c->cp->lp_hold)
		return true;
	for (unsigned p = 0; p < POLICY_NPRIO; p++)
		if ((c->cp->pfc_hold & (1u << p)) && (d->pfc_en & (1u << p)) &&
		    d->prio_tc[p] == q)
			return true;
	return false;
}

int compile_pfc_red(struct compile_ctx *c, struct plan_qdisc *qd, unsigned q)
{
	const struct policy_queue *pq = &c->queuing->queue[q];
	struct plan_qdisc leaf = *qd, red, *in;
	size_t at;

	if (!(compile_pfc_holdable(c) & (1u << q)))
		return 0;
	/* compile_pfc_leaf() warns when tbf is missing. */
	if (!compile_pfc_leaf(c, &leaf, q)) {
		if (c->pp->caps.qdiscs & CAPS_QD_TBF)
			diag_warn(&c->pp->warnings,
			          pq->wred.line ? pq->wred.line
			                        : pq->wred_profile_line,
			          "%s: %s is not realised on this queue with "
			          "random-detect: a pause received does not "
			          "hold it",
			          policy_queue_name(q),
			          compile_pfc_lp_rx(c) ? "802.3x link pause"
			                               : "software PFC");
		return 0;
	}
	if (leaf.kind != PLAN_QD_TBF) {
		/* The watchdog's drop: the fifo that takes nothing. */
		*qd = leaf;
		return 0;
	}
	/* The tbf holds and RED marks inside it: tbf only asks RED for a
	 * packet when it has the tokens to send one, so a hold does not
	 * look like an idle queue to RED (whose average would then decay
	 * as if the queue were empty), as it would with the tbf under RED.
	 * RED's limit, which its own fifo enforces, is the queue's; tbf's
	 * limit only sizes a fifo child, and says the same. On a no-drop
	 * queue it is sized for PFC's headroom (compile_pfc_limit), and
	 * RED marks below it. */
	red = *qd;
	red.u.red.limit = compile_pfc_limit(c, q, red.u.red.limit, false);
	/* On a no-drop queue RED marks and never drops early: a packet
	 * that is not ECN-capable queues on (the watchdog alone drops in a
	 * no-drop class). Without ecn, RED drops: said once. */
	if (compile_pfc_queues(c) & (1u << q)) {
		red.u.red.nodrop = red.u.red.ecn;
		if (!red.u.red.ecn)
			diag_warn(
			    &c->pp->warnings,
			    pq->wred.line ? pq->wred.line
			                  : pq->wred_profile_line,
			    "%s: random-detect without ecn drops packets "
			    "early in a no-drop queue (PFC keeps it "
			    "lossless only with ecn, which marks instead)",
			    policy_queue_name(q));
	}
	leaf.u.tbf.limit = red.u.red.limit;
	at = (size_t)(qd - c->pp->qdiscs);
	/* Adding may move the array: QD is not used after this. */
	in = plan_port_add_qdisc(c->pp);
	if (!in)
		return -ENOMEM;
	c->pp->qdiscs[at] = leaf;
	*in = red;
	in->handle = PLAN_H_MAKE(PLAN_INNER_MAJOR(q), 0);
	in->parent = PLAN_H_MAKE(PLAN_LEAF_MAJOR(q), 1);
	return 0;
}

/* ets serves its sharing bands round-robin and ends a round when the
 * band at the head of its list has packets but its child yields none,
 * which is what a held tbf does: measured in the QEMU guest (Linux 6.1,
 * roced(8)), a fifo band behind a held band sent nothing until the
 * release. Strict bands are not affected, nor prio and htb roots, which
 * go on to the next band or class; nor link pause, which holds every
 * queue anyway. */
uint8_t compile_pfc_ets_stalls(const struct compile_ctx *c)
{
	uint8_t held = compile_pfc_holdable(c), stalls = 0;

	if (!held || !c->queuing || compile_pfc_lp_rx(c) ||
	    !(c->pp->caps.qdiscs & CAPS_QD_TBF))
		return 0;
	for (unsigned q = 0; q < POLICY_NQUEUES; q++)
		if ((held & (1u << q)) && !compile_queue_strict(c->queuing, q))
			stalls |= (uint8_t)(1u << q);
	return stalls;
}

/* Where ets stays (the kernel lacks htb), the stall is told. */
static void compile_pfc_ets_note(struct compile_ctx *c, unsigned q)
{
	if (c->pp->layout != PLAN_LAYOUT_ETS_RED ||
	    !(compile_pfc_ets_stalls(c) & (1u << q)))
		return;
	diag_warn(&c->pp->warnings, c->queuing->line,
	          "%s: while software PFC holds this queue, ets also stops "
	          "the port's other bandwidth-sharing queues (it does not "
	          "skip a band that holds its packets); strict queues keep "
	          "flowing",
	          policy_queue_name(q));
}

bool compile_pfc_leaf(struct compile_ctx *c, struct plan_qdisc *qd, unsigned q)
{
	struct plan_port *pp = c->pp;
	enum policy_pfcwd_action act = c->p->pfcwd.action;
	bool shut =
	    c->cp && (c->cp->wd_shut & (1u << q)) && act != POLICY_PFCWD_ALERT;
	uint64_t speed;
	struct plan_tbf *t = &qd->u.tbf;

	if (!(compile_pfc_holdable(c) & (1u << q)))
		return false;
	if (!(pp->caps.qdiscs & CAPS_QD_TBF)) {
		diag_warn(&pp->warnings, c->queuing ? c->queuing->line : 0,
		          "%s: %s is not realised: the kernel lacks "
		          "sch_tbf, a pause received cannot hold the queue",
		          policy_queue_name(q),
		          compile_pfc_lp_rx(c) ? "802.3x link pause"
		                               : "software PFC");
		return false;
	}
	if (shut && act == POLICY_PFCWD_DROP) {
		/* Nothing fits in 0 bytes: everything is dropped, and counted
		 * as the queue's drops. */
		qd->kind = PLAN_QD_BFIFO;
		qd->u.fifo.limit = 0;
		return true;
	}
	speed = compile_port_speed_bytes(c);
	qd->kind = PLAN_QD_TBF;
	t->limit = COMPILE_FIFO_LIMIT_FRAMES * c->frame;
	/* `queue-limit N bytes` is the tbf's limit, as it is the fifo's
	 * (with link pause every queue is a tbf). */
	if (c->queuing && c->queuing->queue[q].configured &&
	    c->queuing->queue[q].queue_limit_bytes)
		t->limit = (uint32_t)c->queuing->queue[q].queue_limit_bytes;
	t->limit = compile_pfc_limit(c, q, t->limit, true);
	compile_pfc_ets_note(c, q);
	if (!shut && compile_pfc_held(c, q)) {
		t->burst = c->frame;
		t->rate = compile_pfc_hold_rate(t->burst);
	} else {
		t->burst = COMPILE_PFC_BURST_RELEASED > 2 * c->frame
		               ? COMPILE_PFC_BURST_RELEASED
		               : 2 * c->frame;
		t->rate = speed * COMPILE_PFC_RATE_FACTOR;
	}
	return true;
}

void compile_pfc_dcb(struct compile_ctx *c)
{
	struct plan_dcb *d = &c->pp->dcb;
	enum policy_pfcwd_action act = c->p->pfcwd.action;

	if (!c->cp || d->software || !c->cp->wd_shut ||
	    act == POLICY_PFCWD_ALERT)
		return;
	for (unsigned p = 0; p < POLICY_NPRIO; p++)
		if (d->prio_tc[p] < POLICY_NQUEUES &&
		    (c->cp->wd_shut & (1u << d->prio_tc[p])))
			d->pfc_en &= (uint8_t) ~(1u << p);
}

void compile_pfc_agents(struct compile_ctx *c)
{
	const struct policy_pfcwd *w = &c->p->pfcwd;
	struct plan_wd *wd = &c->pp->wd;
	bool internal = c->iface && c->iface->fabric_internal;
	uint32_t m = internal && w->internal_if_mult ? w->internal_if_mult : 1;

	wd->internal = internal;
	wd->internal_mult = internal ? w->internal_if_mult : 0;
	/* A port's own shutdown-multiplier replaces the global one;
	 * internal-interface-multiplier still multiplies it. */
	uint32_t sm = c->iface && c->iface->wd_shutdown_mult
	                  ? c->iface->wd_shutdown_mult
	                  : w->shutdown_mult;

	wd->poll_ms = w->poll_ms ? w->poll_ms : POLICY_PFCWD_POLL_MS;
	wd->detect_ms = wd->poll_ms * sm * m;
	/* The config check refuses a detection time below the poll
	 * (sonic-buildimage#27865); a policy that was not checked still
	 * never detects on less than one whole poll. */
	if (wd->detect_ms < wd->poll_ms)
		wd->detect_ms = wd->poll_ms;
	wd->auto_restore_ms = wd->poll_ms * w->auto_restore_mult * m;
	wd->fixed_restore_ms = wd->poll_ms * w->fixed_restore_mult * m;
	wd->action = w->action;
	/* A port without an interface block has no pause buffer of its
	 * own to take: the agents derive its thresholds. */
	for (unsigned pr = 0; c->iface && pr < POLICY_NPRIO; pr++) {
		const struct policy_pause_buffer *b =
		    policy_iface_pause_buffer(c->p, c->iface, pr);

		if (!b || !b->set)
			continue;
		c->pp->pause_thr[pr].set = true;
		c->pp->pause_thr[pr].xoff = b->pause_threshold;
		c->pp->pause_thr[pr].xon = b->resume_threshold;
		c->pp->pause_thr[pr].buffer = b->buffer_size;
	}
}

void compile_pfc_holds(struct compile_ctx *c)
{
	uint8_t holdable = compile_pfc_holdable(c);

	c->pp->hold_queues = 0;
	for (unsigned q = 0; holdable && q < POLICY_NQUEUES; q++) {
		const struct plan_qdisc *leaf =
		    plan_port_qdisc(c->pp, PLAN_H_MAKE(PLAN_LEAF_MAJOR(q), 0));

		if ((holdable & (1u << q)) && leaf && leaf->kind == PLAN_QD_TBF)
			c->pp->hold_queues |= (uint8_t)(1u << q);
	}
}

void compile_pfc_refuse(struct compile_ctx *c)
{
	struct plan_port *pp = c->pp;
	struct plan_dcb *d = &pp->dcb;

	if (pp->pfc_mode != POLICY_PFC_AUTO || !c->dcbx ||
	    !c->dcbx->pfc_agreed || !d->software || !c->cp || !c->cp->softpfc)
		return;
	for (unsigned p = 0; p < POLICY_NPRIO; p++) {
		unsigned q = d->prio_tc[p];
		const struct plan_qdisc *leaf =
		    q < POLICY_NQUEUES
		        ? plan_port_qdisc(pp,
		                          PLAN_H_MAKE(PLAN_LEAF_MAJOR(q), 0))
		        : NULL;

		if (!(d->pfc_en & (1u << p)))
			continue;
		/* A tbf, or the watchdog's drop fifo in its place. */
		if (q < POLICY_NQUEUES && (pp->hold_queues & (1u << q)))
			continue;
		if (leaf && (compile_pfc_holdable(c) & (1u << q)) &&
		    leaf->kind == PLAN_QD_BFIFO && (c->cp->wd_shut & (1u << q)))
			continue;
		d->pfc_en &= (uint8_t) ~(1u << p);
		pp->pfc_unrealisable |= (uint8_t)(1u << p);
	}
	if (!pp->pfc_unrealisable)
		return;
	snprintf(pp->pfc_dcbx_why, sizeof(pp->pfc_dcbx_why), "%s",
	         "adopted: not realisable");
	diag_warn(
	    &pp->warnings, c->iface ? c->iface->line : 0,
	    "priority-flow-control mode auto: PFC that DCBX enabled on "
	    "priorit%s 0x%02x is not realisable (software PFC has no "
	    "queue to hold for %s: no tc tree, or no leaf it holds): "
	    "PFC stays off on %s",
	    pp->pfc_unrealisable & (pp->pfc_unrealisable - 1) ? "ies" : "y",
	    pp->pfc_unrealisable,
	    pp->pfc_unrealisable & (pp->pfc_unrealisable - 1) ? "them" : "it",
	    pp->pfc_unrealisable & (pp->pfc_unrealisable - 1) ? "them" : "it");
}

const char *compile_pfc_kernel_why(const struct caps *k)
{
	/* The kernel path keeps held packets in an fq (a packet's
	 * departure time), through BPF programs on the port's clsact:
	 * each of those missing leaves the hold to roced's process. */
	if (!(k->qdiscs & CAPS_QD_FQ))
		return "the kernel has no sch_fq";
	if (!(k->qdiscs & CAPS_QD_CLSACT))
		return "the kernel has no clsact";
	if (!(k->classifiers & CAPS_CLS_BPF))
		return "the kernel has no cls_bpf";
	if (!k->bpf_progs)
		return "roced was built without its BPF programs";
	return NULL;
}

void compile_pfc_path(struct compile_ctx *c)
{
	struct plan_port *pp = c->pp;
	const char *why;

	pp->pfc_path = PLAN_PFC_PATH_NONE;
	pp->pfc_path_why[0] = '\0';
	if (!pp->dcb.software || !c->cp || !c->cp->softpfc ||
	    !(pp->dcb.pfc_en || pp->dcb.pause_rx))
		return;
	why = compile_pfc_kernel_why(&pp->caps);
	if (!why && !c->cp->kpfc)
		why = COMPILE_PFC_KERNEL_OFF;
	if (!why && c->cp->kpfc_refused[0])
		why = c->cp->kpfc_refused;
	pp->pfc_path = why ? PLAN_PFC_PATH_USER : PLAN_PFC_PATH_KERNEL;
	snprintf(pp->pfc_path_why, sizeof(pp->pfc_path_why), "%s",
	         why ? why : COMPILE_PFC_KERNEL_WHY);
}
