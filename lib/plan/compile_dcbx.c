/* compile_dcbx: the DCBX outcome as one more input of compile,
 * and the DCBX TLVs a port advertises. See compile.h.
 *
 * A willing port takes the peer's ETS and APP. Rather than a second way
 * of building qdiscs and filters, what it takes is turned into policy
 * objects (a queuing policy, class-maps and qos rules) that the DCB and
 * tc parts then realise as they realise the configuration: so an
 * adopted ETS 50/50 becomes the same htb/ets tree a `bandwidth remaining
 * percent 50` would, on every kind of port.
 *
 * roced's own model maps priority p to traffic class and queue p; an
 * adopted ETS brings the peer's priority -> TC table with it (a Nexus in
 * 4-queue mode puts priority 3 in TC 1), and the port runs that table:
 * the DCB part holds it (dcbnl on hardware ports), and on software ports
 * the classifier and the priomap send priority p's traffic to queue
 * prio_tc[p], which carries TC prio_tc[p]'s share, and a pause of p holds
 * that queue (compile_tc.c, compile_pfc.c).
 */
#include "plan/compile_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Synthetic names cannot clash with configured ones: ':' is not a
 * character NX-OS names may hold. */
#define COMPILE_DCBX_ETS_NAME "dcbx:ets"
#define COMPILE_DCBX_APP_NAME "dcbx:app"

void compile_dcbx_local(const struct plan_port *pp, bool willing,
                        struct dcbx_tlvs *out)
{
	const struct plan_dcb *d = &pp->dcb_local;

	memset(out, 0, sizeof(*out));
	out->has_pfc = out->has_ets_cfg = out->has_ets_rec = true;
	out->pfc.willing = willing;
	out->pfc.cap = d->pfc_cap ? d->pfc_cap : DCBX_NPRIO;
	out->pfc.enable = pp->pfc_mode == POLICY_PFC_OFF ? 0 : d->pfc_admin;
	out->ets_cfg.willing = willing;
	out->ets_cfg.max_tcs = DCBX_NTC;
	for (unsigned i = 0; i < DCBX_NTC; i++) {
		out->ets_cfg.prio_tc[i] = d->prio_tc[i];
		out->ets_cfg.tc_bw[i] = d->ets_bw[i];
		out->ets_cfg.tsa[i] = d->ets_tsa[i] == PLAN_TSA_STRICT
		                          ? DCBX_TSA_STRICT
		                          : DCBX_TSA_ETS;
	}
	out->ets_rec = out->ets_cfg;
	out->ets_rec.willing = false;
	for (size_t i = 0; i < d->napp && out->app.n < DCBX_APP_MAX; i++) {
		struct dcbx_app *a = &out->app.v[out->app.n];

		if (d->app[i].selector == PLAN_APP_SEL_DSCP)
			a->selector = DCBX_APP_DSCP;
		else if (d->app[i].selector == PLAN_APP_SEL_ETHERTYPE)
			a->selector = DCBX_APP_ETHERTYPE;
		else
			continue; /* PCP: no APP selector on the wire */
		a->protocol = d->app[i].protocol;
		a->prio = d->app[i].priority;
		out->app.n++;
	}
	out->has_app = out->app.n > 0;
}

/* The traffic classes some priority maps to, or with a share. */
static uint8_t compile_dcbx_tcs_used(const struct dcbx_ets *e)
{
	uint8_t used = 0;

	for (unsigned p = 0; p < DCBX_NPRIO; p++)
		used |= (uint8_t)(1u << (e->prio_tc[p] & 7));
	for (unsigned tc = 0; tc < DCBX_NTC; tc++)
		if (e->tc_bw[tc])
			used |= (uint8_t)(1u << tc);
	return used;
}

static void compile_dcbx_ets(struct compile_ctx *c, struct compile_dcbx_eff *e)
{
	const struct dcbx_ets *ets = &c->dcbx->ets;
	struct policy_map_queuing *q = &e->queuing;
	uint8_t used = compile_dcbx_tcs_used(ets);

	if (c->queuing)
		*q = *c->queuing;
	else
		snprintf(q->name, sizeof(q->name), "%s", COMPILE_DCBX_ETS_NAME);
	for (unsigned tc = 0; tc < POLICY_NQUEUES; tc++) {
		struct policy_queue *pq = &q->queue[tc];

		pq->priority_level = 0;
		pq->has_bandwidth = false;
		pq->bandwidth_percent = 0;
		if (!(used & (1u << tc)))
			continue;
		pq->configured = true;
		if (ets->tsa[tc] == DCBX_TSA_STRICT) {
			pq->priority_level = 1;
		} else {
			pq->has_bandwidth = true;
			pq->bandwidth_percent = ets->tc_bw[tc];
		}
	}
	c->queuing = q;
	c->pp->dcbx_ets_adopted = true;
	snprintf(c->pp->queuing_policy, sizeof(c->pp->queuing_policy), "%s",
	         q->name);
}

/* Is the DSCP value V in the local APP table already? */
static bool compile_dcbx_local_dscp(const struct plan_dcb *d, unsigned v)
{
	for (size_t i = 0; i < d->napp; i++)
		if (d->app[i].selector == PLAN_APP_SEL_DSCP &&
		    d->app[i].protocol == v)
			return true;
	return false;
}

/* The peer's DSCP entries the local policy does not classify: one
 * class-map per priority, ahead of the local rules (they match DSCPs no
 * local class names, so the order changes nothing for the others). */
static int compile_dcbx_app(struct compile_ctx *c, struct compile_dcbx_eff *e)
{
	const struct dcbx_apps *apps = &c->dcbx->app;
	uint64_t dscp[DCBX_NPRIO] = {0};
	size_t nnew = 0, nold = c->qos ? c->qos->nrules : 0, r = 0;

	for (size_t i = 0; i < apps->n; i++) {
		const struct dcbx_app *a = &apps->v[i];

		if (a->selector != DCBX_APP_DSCP || a->protocol > 63 ||
		    a->prio >= DCBX_NPRIO ||
		    compile_dcbx_local_dscp(&c->pp->dcb_local, a->protocol))
			continue;
		dscp[a->prio] |= 1ull << a->protocol;
	}
	for (unsigned p = 0; p < DCBX_NPRIO; p++)
		nnew += dscp[p] != 0;
	if (!nnew)
		return 0;
	e->classes = calloc(c->p->nclass_qos + nnew, sizeof(*e->classes));
	e->rules = calloc(nold + nnew, sizeof(*e->rules));
	if (!e->classes || !e->rules)
		return -ENOMEM;
	if (c->p->nclass_qos)
		memcpy(e->classes, c->p->class_qos,
		       c->p->nclass_qos * sizeof(*e->classes));
	e->p = *c->p;
	e->p.class_qos = e->classes;
	for (unsigned p = 0; p < DCBX_NPRIO; p++) {
		struct policy_class_qos *cl;
		struct policy_qos_rule *rule;

		if (!dscp[p])
			continue;
		cl = &e->classes[e->p.nclass_qos++];
		snprintf(cl->name, sizeof(cl->name), "%s-p%u",
		         COMPILE_DCBX_APP_NAME, p);
		cl->match = POLICY_MATCH_ANY;
		cl->dscp = dscp[p];
		rule = &e->rules[r++];
		snprintf(rule->class_name, sizeof(rule->class_name), "%s",
		         cl->name);
		rule->set_qos_group = true;
		rule->qos_group = (uint8_t)p;
	}
	if (nold)
		memcpy(e->rules + r, c->qos->rules, nold * sizeof(*e->rules));
	if (c->qos)
		e->qos = *c->qos;
	else
		snprintf(e->qos.name, sizeof(e->qos.name), "%s",
		         COMPILE_DCBX_APP_NAME);
	e->qos.rules = e->rules;
	e->qos.nrules = r + nold;
	c->p = &e->p;
	c->qos = &e->qos;
	c->pp->dcbx_app_adopted = true;
	snprintf(c->pp->qos_policy, sizeof(c->pp->qos_policy), "%s",
	         e->qos.name);
	return 0;
}

int compile_dcbx_adopt(struct compile_ctx *c, struct compile_dcbx_eff *e)
{
	if (c->dcbx->ets_why == DCBX_WHY_ADOPTED)
		compile_dcbx_ets(c, e);
	/* APP has no willing bit of its own: a port takes the peer's
	 * entries when it is willing, as lldpad does. */
	if (c->iface && c->iface->lldp.willing && c->dcbx->app.n)
		return compile_dcbx_app(c, e);
	return 0;
}

void compile_dcbx_eff_free(struct compile_dcbx_eff *e)
{
	free(e->classes);
	free(e->rules);
	e->classes = NULL;
	e->rules = NULL;
}
