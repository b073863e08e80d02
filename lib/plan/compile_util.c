/* compile_util: what a port's policies say, read the same way by the
 * DCB part (compile.c) and the tc part (compile_tc.c): the port's speed,
 * a rule's class and qos-group, a queue's place in the queuing policy.
 * Below both, so that they do not use each other.
 */
#include "plan/compile_int.h"

uint64_t compile_port_speed_bytes(struct compile_ctx *c)
{
	uint64_t mbps = c->pp->caps.speed_mbps;

	if (!mbps) {
		mbps = COMPILE_DEFAULT_SPEED_MBPS;
		if (!c->speed_warned)
			diag_warn(&c->pp->warnings, 0,
			          "link speed unknown: assuming %u Mb/s for "
			          "queue rates and RED",
			          COMPILE_DEFAULT_SPEED_MBPS);
		c->speed_warned = true;
	}
	return mbps * 125000u; /* Mb/s -> bytes/s */
}

const struct policy_class_qos *
compile_rule_class(const struct policy *p, const struct policy_qos_rule *rule,
                   bool *all)
{
	const struct policy_class_qos *cls =
	    policy_find_class_qos(p, rule->class_name);

	/* class-default needs no class-map; one without match statements
	 * matches everything too (NX-OS semantics). */
	*all = !cls || (!cls->cos && !cls->dscp);
	return cls;
}

unsigned compile_rule_group(const struct policy_qos_rule *rule)
{
	return rule->set_qos_group ? rule->qos_group : 0;
}

bool compile_queue_strict(const struct policy_map_queuing *m, unsigned q)
{
	return m && m->queue[q].configured && m->queue[q].priority_level;
}

/* Does the policy give any non-strict queue a bandwidth share? */
static bool compile_queuing_has_shares(const struct policy_map_queuing *m)
{
	for (unsigned q = 0; q < POLICY_NQUEUES; q++)
		if (m->queue[q].configured &&
		    (m->queue[q].has_bandwidth ||
		     m->queue[q].has_bandwidth_min) &&
		    !m->queue[q].priority_level)
			return true;
	return false;
}

unsigned compile_queue_percent(const struct policy_map_queuing *m, unsigned q)
{
	/* No policy, or one that states no share at all (only strict queues
	 * or only WRED): NX-OS's default, everything to q-default. */
	if (!m || !compile_queuing_has_shares(m))
		return q == 0 && !compile_queue_strict(m, 0) ? 100 : 0;
	if (!m->queue[q].configured)
		return 0;
	/* `bandwidth percent` and `bandwidth remaining percent` are both
	 * the queue's weight (policy.h). */
	return (m->queue[q].has_bandwidth ? m->queue[q].bandwidth_percent : 0) +
	       (m->queue[q].has_bandwidth_min
	            ? m->queue[q].bandwidth_min_percent
	            : 0);
}
