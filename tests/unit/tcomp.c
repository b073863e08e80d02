/* tcomp: the scaffolding of the compile tests (tcomp.h). */
#include "tcomp.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

/* ---- policy builders ---- */

struct policy_class_qos *tcomp_add_class(struct policy *p, const char *name,
                                         enum policy_match m, uint8_t cos,
                                         uint64_t dscp)
{
	struct policy_class_qos *c = policy_add_class_qos(p, name);

	assert_non_null(c);
	c->match = m;
	c->cos = cos;
	c->dscp = dscp;
	return c;
}

void tcomp_add_rule(struct policy_map_qos *m, const char *cls, int group)
{
	struct policy_qos_rule *r = policy_map_qos_add_rule(m, cls);

	assert_non_null(r);
	if (group >= 0) {
		r->set_qos_group = true;
		r->qos_group = (uint8_t)group;
	}
}

struct policy_queue *tcomp_set_queue(struct policy_map_queuing *m, unsigned q,
                                     int percent, int level)
{
	struct policy_queue *pq = &m->queue[q];

	pq->configured = true;
	if (percent >= 0) {
		pq->has_bandwidth = true;
		pq->bandwidth_percent = (uint8_t)percent;
	}
	pq->priority_level = (uint8_t)level;
	return pq;
}

void tcomp_set_wred(struct policy_queue *pq, uint64_t min, uint64_t max,
                    unsigned prob, unsigned weight)
{
	pq->wred.enabled = true;
	pq->wred.min_bytes = min;
	pq->wred.max_bytes = max;
	pq->wred.drop_probability = (uint8_t)prob;
	pq->wred.weight = (uint8_t)weight;
	pq->wred.ecn = true;
}

struct policy_map_nq *tcomp_add_nq(struct policy *p, const char *cls,
                                   const char *map, unsigned group, int cos)
{
	struct policy_class_nq *cn = policy_add_class_nq(p, cls);
	struct policy_map_nq *mn = policy_add_map_nq(p, map);
	struct policy_nq_rule *nr;

	assert_non_null(cn);
	cn->qos_groups = 1u << group;
	assert_non_null(mn);
	nr = policy_map_nq_add_rule(mn, cls);
	assert_non_null(nr);
	if (cos >= 0)
		nr->pfc_cos = 1u << cos;
	snprintf(p->system.network_qos, sizeof(p->system.network_qos), "%s",
	         map);
	return mn;
}

/* The NX-OS reference: ROCE_CLASS (match-all cos 3, dscp 26) -> group 3,
 * q3 50 % with WRED-ECN 150/3000 kbytes 7 % weight 0, q2 and q1 0 %,
 * q-default 50 %, PFC on CoS 3, MTU 9216, interface eth1 (Ethernet1/1)
 * with PFC mode MODE. */
struct policy_iface *tcomp_ref_policy(struct policy *p,
                                      enum policy_pfc_mode mode)
{
	struct policy_map_qos *mq;
	struct policy_map_queuing *mu;
	struct policy_map_nq *mn;
	struct policy_nq_rule *nr;
	struct policy_iface *i;

	policy_init(p);
	tcomp_add_class(p, "ROCE_CLASS", POLICY_MATCH_ALL, 1u << 3, 1ull << 26);
	mq = policy_add_map_qos(p, "ROCE_POLICY");
	assert_non_null(mq);
	tcomp_add_rule(mq, "ROCE_CLASS", 3);
	mu = policy_add_map_queuing(p, "ROCE_QUEUING_OUT");
	assert_non_null(mu);
	tcomp_set_wred(tcomp_set_queue(mu, 3, 50, 0), KB(150), KB(3000), 7, 0);
	tcomp_set_queue(mu, 2, 0, 0);
	tcomp_set_queue(mu, 1, 0, 0);
	tcomp_set_queue(mu, 0, 50, 0);
	mn = tcomp_add_nq(p, "ROCE_NETWORK_CLASS", "ROCE_NETWORK_POLICY", 3, 3);
	mn->rules[0].mtu = 9216;
	nr = policy_map_nq_add_rule(mn, POLICY_NQ_DEFAULT);
	assert_non_null(nr);
	nr->mtu = 9216;
	i = tcomp_add_iface(p, "eth1", mode, "ROCE_POLICY", "ROCE_QUEUING_OUT");
	snprintf(i->alias, sizeof(i->alias), "%s", "Ethernet1/1");
	return i;
}

struct policy_iface *tcomp_add_iface(struct policy *p, const char *name,
                                     enum policy_pfc_mode mode,
                                     const char *qos_input,
                                     const char *queuing_output)
{
	struct policy_iface *i = policy_add_iface(p, name);

	assert_non_null(i);
	i->pfc_mode = mode;
	if (qos_input)
		snprintf(i->qos_input, sizeof(i->qos_input), "%s", qos_input);
	if (queuing_output)
		snprintf(i->queuing_output, sizeof(i->queuing_output), "%s",
		         queuing_output);
	return i;
}

/* ---- running the compiler ---- */

const struct plan_port *tcomp_run_port(const struct policy *p,
                                       const struct compile_port *cp,
                                       struct plan *pl)
{
	plan_init(pl);
	assert_int_equal(compile_policy(p, cp, 1, pl), 0);
	assert_int_equal(pl->nports, 1);
	assert_int_equal(pl->diag.nerrors, 0);
	return &pl->ports[0];
}

void tcomp_port(struct compile_port *cp, const char *ifname,
                enum caps_preset preset)
{
	memset(cp, 0, sizeof(*cp));
	snprintf(cp->ifname, sizeof(cp->ifname), "%s", ifname);
	caps_preset(&cp->caps, preset);
}

const struct plan_port *tcomp_run(const struct policy *p, const char *ifname,
                                  const struct caps *caps, struct plan *pl)
{
	struct compile_port cp;

	memset(&cp, 0, sizeof(cp));
	snprintf(cp.ifname, sizeof(cp.ifname), "%s", ifname);
	cp.caps = *caps;
	return tcomp_run_port(p, &cp, pl);
}

const struct plan_port *tcomp_run_preset(const struct policy *p,
                                         const char *ifname,
                                         enum caps_preset preset,
                                         struct plan *pl)
{
	struct caps caps;

	caps_preset(&caps, preset);
	return tcomp_run(p, ifname, &caps, pl);
}

const struct plan_qdisc *tcomp_qdisc(const struct plan_port *pp,
                                     uint32_t handle)
{
	for (size_t i = 0; i < pp->nqdiscs; i++)
		if (pp->qdiscs[i].handle == handle)
			return &pp->qdiscs[i];
	fail_msg("no qdisc %x:%x", PLAN_H_MAJ(handle), PLAN_H_MIN(handle));
	return NULL;
}

const struct plan_class *tcomp_class(const struct plan_port *pp,
                                     uint32_t classid)
{
	for (size_t i = 0; i < pp->nclasses; i++)
		if (pp->classes[i].classid == classid)
			return &pp->classes[i];
	fail_msg("no class %x:%x", PLAN_H_MAJ(classid), PLAN_H_MIN(classid));
	return NULL;
}

size_t tcomp_count_msgs(const struct plan_port *pp, enum diag_severity sev,
                        const char *needle)
{
	size_t n = 0;

	for (size_t i = 0; i < pp->warnings.n; i++)
		if (pp->warnings.v[i].sev == sev &&
		    strstr(pp->warnings.v[i].text, needle))
			n++;
	return n;
}

static void tcomp_dump_msgs(const struct plan_port *pp)
{
	for (size_t i = 0; i < pp->warnings.n; i++)
		print_message("  [%d] %s\n", (int)pp->warnings.v[i].sev,
		              pp->warnings.v[i].text);
}

void tcomp_want_warning(const struct plan_port *pp, const char *needle)
{
	if (tcomp_count_msgs(pp, DIAG_WARNING, needle) != 1) {
		tcomp_dump_msgs(pp);
		fail_msg("expected one warning containing '%s'", needle);
	}
}

void tcomp_want_nwarnings(const struct plan_port *pp, size_t n)
{
	if (pp->warnings.nwarnings != n) {
		tcomp_dump_msgs(pp);
		fail_msg("expected %zu warnings, got %zu", n,
		         pp->warnings.nwarnings);
	}
}
