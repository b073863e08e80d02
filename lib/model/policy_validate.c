/* policy_validate: the checks that hold across objects, and the ranges of
 * the values a policy can hold. The config loader and the CLI both end
 * here, so a policy that passes is safe to compile: nothing downstream
 * checks again.
 *
 * Decisions worth knowing:
 *  - Value sets (cos, dscp, qos-group, pause pfc-cos) are bitmasks and
 *    cannot hold out-of-range values; the loader refuses those.
 *  - WRED thresholds: minimum-threshold 0 is refused (tc reads a zero
 *    minimum as "unset" and picks max/3, so the kernel would not hold what
 *    was asked) and so is maximum-threshold 0 (every packet would be
 *    marked). minimum == maximum is accepted: it is step marking at one
 *    threshold, as DCTCP-style setups use.
 *  - Bandwidth: once any non-strict queue of a queuing policy states
 *    `bandwidth remaining percent`, the non-strict queues must add up to
 *    exactly 100 (unstated ones count 0). A policy stating none leaves the
 *    shares to the compiler's defaults. Interactively (rocesh, one line at
 *    a time, POLICY_VALIDATE_INTERACTIVE) a sum under 100 is a warning:
 *    NX-OS accepts `bandwidth remaining percent 50` on q3 before q-default
 *    gets its 50. A paused CoS its class does not match is an error in
 *    both, so that whatever rocesh took saves and loads back.
 *  - The watchdog's detection time is interval x shutdown-multiplier and
 *    must not be shorter than one poll (SONiC accepted that silently,
 *    sonic-buildimage#27865), i.e. the multiplier is at least 1.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/policy.h"
#include "model/setting.h"
#include "model/units.h"

/* Report VALUE outside LO-HI with the wording the loader uses. */
static void policy_validate_range(struct diag *d, unsigned line,
                                  const char *key, unsigned long long value,
                                  const char *where, unsigned long long lo,
                                  unsigned long long hi)
{
	if (value >= lo && value <= hi)
		return;
	diag_err(d, line, "%s %llu in %s is out of range, expected %llu-%llu",
	         key, value, where, lo, hi);
}

/* Names of policy objects: NX-OS accepts letters, digits, '-', '_' and
 * '.'; keeping to that keeps names safe in the CLI and in the file. */
static void policy_validate_name(struct diag *d, unsigned line,
                                 const char *kind, const char *name)
{
	if (!name[0]) {
		diag_err(d, line, "%s with an empty name", kind);
		return;
	}
	for (const char *s = name; *s; s++) {
		if (isalnum((unsigned char)*s) || strchr("-_.", *s))
			continue;
		diag_err(d, line,
		         "invalid %s name '%s', expected letters, digits, '-', "
		         "'_' or '.'",
		         kind, name);
		return;
	}
}

/* Duplicate names within one kind: the second definition is the error. */
#define POLICY_VALIDATE_DUPS(d, arr, n, kind)                                  \
	do {                                                                   \
		for (size_t i_ = 0; i_ < (n); i_++) {                          \
			policy_validate_name((d), (arr)[i_].line, (kind),      \
			                     (arr)[i_].name);                  \
			for (size_t j_ = 0; j_ < i_; j_++) {                   \
				if (strcmp((arr)[i_].name, (arr)[j_].name))    \
					continue;                              \
				diag_err((d), (arr)[i_].line,                  \
				         "%s %s is defined twice (first at "   \
				         "line %u)",                           \
				         (kind), (arr)[i_].name,               \
				         (arr)[j_].line);                      \
				break;                                         \
			}                                                      \
		}                                                              \
	} while (0)

/* A hint for a name that exists, but as another kind of policy-map. */
static const char *policy_validate_kind_of(const struct policy *p,
                                           const char *name)
{
	if (policy_find_map_qos(p, name))
		return "policy-map type qos";
	if (policy_find_map_queuing(p, name))
		return "policy-map type queuing";
	if (policy_find_map_nq(p, name))
		return "policy-map type network-qos";
	return NULL;
}

static void policy_validate_ref(const struct policy *p, struct diag *d,
                                unsigned line, const char *name,
                                const char *kind, const void *found,
                                const char *what, const char *where)
{
	const char *other;

	if (!name[0] || found)
		return;
	other = policy_validate_kind_of(p, name);
	if (other)
		diag_err(d, line, "%s of %s: %s %s is not defined (%s is a %s)",
		         what, where, kind, name, name, other);
	else
		diag_err(d, line, "%s of %s: %s %s is not defined", what, where,
		         kind, name);
}

static void policy_validate_class_qos(const struct policy *p, struct diag *d)
{
	POLICY_VALIDATE_DUPS(d, p->class_qos, p->nclass_qos,
	                     "class-map type qos");
	for (size_t i = 0; i < p->nclass_qos; i++) {
		const struct policy_class_qos *c = &p->class_qos[i];

		if (!strcmp(c->name, POLICY_CLASS_DEFAULT))
			diag_err(d, c->line,
			         "class-map type qos %s: %s is built in and "
			         "cannot be defined",
			         c->name, POLICY_CLASS_DEFAULT);
		if (c->match != POLICY_MATCH_ALL &&
		    c->match != POLICY_MATCH_ANY)
			diag_err(d, c->line,
			         "class-map type qos %s has an invalid match "
			         "mode, expected all or any",
			         c->name);
	}
}

static void policy_validate_map_qos(const struct policy *p, struct diag *d)
{
	char where[2 * POLICY_NAME_MAX + 32];

	POLICY_VALIDATE_DUPS(d, p->map_qos, p->nmap_qos, "policy-map type qos");
	for (size_t i = 0; i < p->nmap_qos; i++) {
		const struct policy_map_qos *m = &p->map_qos[i];

		for (size_t r = 0; r < m->nrules; r++) {
			const struct policy_qos_rule *rule = &m->rules[r];

			snprintf(where, sizeof(where),
			         "policy-map type qos %s class %s", m->name,
			         rule->class_name);
			for (size_t k = 0; k < r; k++) {
				if (strcmp(m->rules[k].class_name,
				           rule->class_name))
					continue;
				diag_err(d, rule->line,
				         "class %s is listed twice in "
				         "policy-map type qos %s (first at "
				         "line %u)",
				         rule->class_name, m->name,
				         m->rules[k].line);
				break;
			}
			if (strcmp(rule->class_name, POLICY_CLASS_DEFAULT) &&
			    !policy_find_class_qos(p, rule->class_name))
				diag_err(d, rule->line,
				         "class %s in policy-map type qos %s "
				         "is not defined (no class-map type "
				         "qos %s)",
				         rule->class_name, m->name,
				         rule->class_name);
			if (rule->set_qos_group)
				policy_validate_range(
				    d, rule->qos_group_line ?: rule->line,
				    "set-qos-group", rule->qos_group, where, 0,
				    POLICY_NQUEUES - 1);
		}
	}
}

/* The kernel's RED keeps each threshold shifted left by Wlog (the weight)
 * in 32 bits and refuses fls(threshold) + Wlog >= 32 (red_check_params):
 * with weight W a threshold must stay below 2^(31 - W) bytes. Checked
 * here, at the line, so that no plan carries a threshold the kernel would
 * refuse or that would have to be changed behind the user's back. */
static void policy_validate_wred_size(struct diag *d,
                                      const struct policy_wred *w,
                                      unsigned line, const char *where)
{
	uint64_t top = policy_wred_max_bytes(w->weight);
	char max[32], lim[32];

	if (w->weight > 15 || !w->max_bytes)
		return; /* reported above */
	if (w->max_bytes <= top)
		return;
	units_bytes_format(w->max_bytes, max, sizeof(max));
	units_bytes_format(top, lim, sizeof(lim));
	diag_err(d, w->max_line ?: line,
	         "maximum-threshold %s of %s is more than the kernel's RED "
	         "holds with weight %u: at most %s (2^%u - 1 bytes; RED keeps "
	         "thresholds shifted by the weight in 32 bits)",
	         max, where, (unsigned)w->weight, lim, 31 - w->weight);
}

static void policy_validate_wred(struct diag *d, const struct policy_wred *w,
                                 unsigned qline, const char *qwhere)
{
	char where[3 * POLICY_NAME_MAX + 32], min[32], max[32];
	unsigned line = w->line ?: qline;

	snprintf(where, sizeof(where), "random-detect of %s", qwhere);
	if (!w->min_bytes)
		diag_err(d, w->min_line ?: line,
		         "minimum-threshold of %s is 0, expected at least 1 "
		         "byte",
		         where);
	if (!w->max_bytes)
		diag_err(d, w->max_line ?: line,
		         "maximum-threshold of %s is 0, expected at least 1 "
		         "byte",
		         where);
	/* With a zero threshold, already reported, the order says nothing. */
	if (w->min_bytes && w->max_bytes && w->min_bytes > w->max_bytes) {
		units_bytes_format(w->min_bytes, min, sizeof(min));
		units_bytes_format(w->max_bytes, max, sizeof(max));
		diag_err(d, w->min_line ?: line,
		         "minimum-threshold %s of %s is above "
		         "maximum-threshold %s, expected minimum <= maximum",
		         min, where, max);
	}
	policy_validate_range(d, w->probability_line ?: line,
	                      "drop-probability", w->drop_probability, where, 0,
	                      100);
	policy_validate_range(d, w->weight_line ?: line, "weight", w->weight,
	                      where, 0, 15);
	policy_validate_wred_size(d, w, line, where);
}

static void policy_validate_map_queuing(const struct policy *p, struct diag *d,
                                        enum policy_validate_mode mode)
{
	char where[2 * POLICY_NAME_MAX + 48];

	POLICY_VALIDATE_DUPS(d, p->map_queuing, p->nmap_queuing,
	                     "policy-map type queuing");
	for (size_t i = 0; i < p->nmap_queuing; i++) {
		const struct policy_map_queuing *m = &p->map_queuing[i];
		unsigned sum = 0;
		bool stated = false;

		for (unsigned n = 0; n < POLICY_NQUEUES; n++) {
			const struct policy_queue *q = &m->queue[n];

			if (!q->configured)
				continue;
			snprintf(where, sizeof(where),
			         "policy-map type queuing %s class %s", m->name,
			         policy_queue_name(n));
			if (q->has_bandwidth)
				policy_validate_range(
				    d, q->bandwidth_line ?: q->line,
				    "bandwidth-remaining-percent",
				    q->bandwidth_percent, where, 0, 100);
			if (q->priority_level)
				policy_validate_range(
				    d, q->priority_line ?: q->line,
				    "priority-level", q->priority_level, where,
				    1, 7);
			if (q->queue_limit_bytes)
				policy_validate_range(
				    d, q->queue_limit_line ?: q->line,
				    "queue-limit", q->queue_limit_bytes, where,
				    1, POLICY_QUEUE_LIMIT_MAX);
			if (q->wred_profile && q->wred.enabled)
				diag_err(
				    d, q->wred_profile_line ?: q->line,
				    "%s: random-detect threshold %s and "
				    "random-detect minimum-threshold in one "
				    "queue, expected one of them",
				    where,
				    policy_wred_profile_name(
				        (enum policy_wred_profile)(
				            q->wred_profile - 1)));
			if (q->queue_limit_dynamic)
				diag_warn(
				    d, q->queue_limit_line ?: q->line,
				    "queue-limit dynamic %u in %s is kept "
				    "and shown but not realised: Linux "
				    "queues have no shared-buffer alpha "
				    "(give queue-limit N bytes)",
				    q->queue_limit_dynamic - 1u, where);
			if (q->has_bandwidth_min)
				policy_validate_range(
				    d, q->bandwidth_min_line ?: q->line,
				    "bandwidth-percent",
				    q->bandwidth_min_percent, where, 0, 100);
			if (q->priority_level && q->has_bandwidth_min)
				diag_err(d, q->bandwidth_min_line ?: q->line,
				         "queue %s of policy-map type queuing "
				         "%s is strict (priority level %u) and "
				         "also has bandwidth percent; a strict "
				         "queue takes no share, remove one of "
				         "them",
				         policy_queue_name(n), m->name,
				         q->priority_level);
			if (q->priority_level && q->has_bandwidth)
				diag_err(d, q->bandwidth_line ?: q->line,
				         "queue %s of policy-map type queuing "
				         "%s is strict (priority level %u) and "
				         "also has bandwidth remaining "
				         "percent; a strict queue takes no "
				         "share, remove one of them",
				         policy_queue_name(n), m->name,
				         q->priority_level);
			if (q->wred.enabled)
				policy_validate_wred(d, &q->wred, q->line,
				                     where);
			if (!q->priority_level) {
				sum +=
				    q->has_bandwidth ? q->bandwidth_percent : 0;
				sum += q->has_bandwidth_min
				           ? q->bandwidth_min_percent
				           : 0;
				stated |=
				    q->has_bandwidth || q->has_bandwidth_min;
			}
		}
		/* NX-OS accepts shares under 100 (a public template has 50 +
		 * 48 remaining and 2 percent), typed one queue at a time or
		 * not, and its weights share the rest in proportion; compile
		 * does the same. Over 100 can only be a mistake. */
		if (stated && sum < 100 && mode == POLICY_VALIDATE_INTERACTIVE)
			diag_warn(
			    d, m->line,
			    "bandwidth remaining percent of policy-map %s "
			    "adds up to %u so far, expected 100",
			    m->name, sum);
		else if (stated && sum < 100)
			diag_warn(
			    d, m->line,
			    "bandwidth remaining percent of policy-map %s "
			    "adds up to %u: the rest is shared in "
			    "proportion to the shares, as on NX-OS",
			    m->name, sum);
		else if (stated && sum > 100)
			diag_err(d, m->line,
			         "bandwidth remaining percent of policy-map %s "
			         "adds up to %u, expected 100 at most",
			         m->name, sum);
	}
}

/* `pause buffer-size B pause-threshold X resume-threshold R`: the
 * sender is paused at X and let go at R, so R <= X < B (R == X, no
 * hysteresis, is what a Nexus 93180 takes); 0 is refused (a threshold at
 * 0 pauses at once and forever). */
static void policy_validate_pause_buffer(struct diag *d,
                                         const struct policy_pause_buffer *b,
                                         const char *where)
{
	if (!b->set)
		return;
	if (!b->buffer_size || !b->pause_threshold || !b->resume_threshold)
		diag_err(d, b->line,
		         "pause buffer-size %u pause-threshold %u "
		         "resume-threshold %u in %s: a size of 0, expected "
		         "1-%u bytes",
		         b->buffer_size, b->pause_threshold,
		         b->resume_threshold, where, POLICY_PAUSE_BYTES_MAX);
	else if (b->resume_threshold > b->pause_threshold ||
	         b->pause_threshold >= b->buffer_size)
		diag_err(d, b->line,
		         "pause buffer-size %u pause-threshold %u "
		         "resume-threshold %u in %s: expected "
		         "resume-threshold <= pause-threshold < buffer-size",
		         b->buffer_size, b->pause_threshold,
		         b->resume_threshold, where);
}

/* A queuing policy attached in one direction must hold that direction's
 * classes only: c-out-8q-qN go out (output), c-in-qN come in (input). */
static void policy_validate_direction(const struct policy *p, struct diag *d,
                                      const char *name, unsigned line,
                                      bool input, const char *where)
{
	const struct policy_map_queuing *m =
	    name[0] ? policy_find_map_queuing(p, name) : NULL;

	if (!m)
		return;
	if (input && policy_queuing_has_out(m))
		diag_err(d, line,
		         "service-policy type queuing input %s of %s: the "
		         "policy has egress classes (%sN), expected ingress "
		         "classes (%sN) only",
		         name, where, POLICY_QUEUE_PREFIX,
		         POLICY_IN_QUEUE_PREFIX);
	else if (!input && policy_queuing_has_in(m))
		diag_err(d, line,
		         "service-policy type queuing output %s of %s: the "
		         "policy has ingress classes (%sN), expected egress "
		         "classes (%sN) only",
		         name, where, POLICY_IN_QUEUE_PREFIX,
		         POLICY_QUEUE_PREFIX);
}

/* What roced keeps and shows but does not do: marking (it does not
 * rewrite packets), and match precedence beside match dscp in a
 * match-all class (the two are one DSCP set here, so either holds). */
static void policy_validate_marking(const struct policy *p, struct diag *d)
{
	for (size_t i = 0; i < p->nclass_qos; i++) {
		const struct policy_class_qos *c = &p->class_qos[i];

		if (c->precedence && c->match == POLICY_MATCH_ALL &&
		    (c->dscp & ~policy_precedence_dscp(c->precedence)))
			diag_warn(d, c->precedence_line ?: c->line,
			          "class-map type qos %s: match precedence and "
			          "match dscp are one DSCP set, so a packet "
			          "that matches either matches the class "
			          "(match-any between the two)",
			          c->name);
	}
	for (size_t i = 0; i < p->nmap_qos; i++)
		for (size_t r = 0; r < p->map_qos[i].nrules; r++) {
			const struct policy_qos_rule *q =
			    &p->map_qos[i].rules[r];

			if (q->set_dscp || q->set_cos)
				diag_warn(
				    d, q->set_line ?: q->line,
				    "policy-map type qos %s class %s: set "
				    "%s is kept and shown but not "
				    "realised: roced does not rewrite "
				    "packets",
				    p->map_qos[i].name, q->class_name,
				    q->set_dscp ? "dscp" : "cos");
		}
}

/* The ingress classes: a pause buffer each at most. */
static void policy_validate_in_queues(const struct policy *p, struct diag *d)
{
	char where[2 * POLICY_NAME_MAX + 48];

	for (size_t i = 0; i < p->nmap_queuing; i++)
		for (unsigned n = 0; n < POLICY_NQUEUES; n++) {
			const struct policy_queue *q =
			    &p->map_queuing[i].in_queue[n];

			if (!q->configured)
				continue;
			snprintf(where, sizeof(where),
			         "policy-map type queuing %s class %s",
			         p->map_queuing[i].name,
			         policy_in_queue_name(n));
			policy_validate_pause_buffer(d, &q->pause, where);
		}
}

static void policy_validate_class_nq(const struct policy *p, struct diag *d)
{
	POLICY_VALIDATE_DUPS(d, p->class_nq, p->nclass_nq,
	                     "class-map type network-qos");
	for (size_t i = 0; i < p->nclass_nq; i++)
		if (policy_nq_system_parse(p->class_nq[i].name) >= 0)
			diag_err(d, p->class_nq[i].line,
			         "class-map type network-qos %s: %s is built "
			         "in and cannot be defined",
			         p->class_nq[i].name, p->class_nq[i].name);
}

/* Whether some qos policy sets qos-group G: otherwise no traffic reaches
 * a no-drop class for G. */
static bool policy_validate_group_set(const struct policy *p, unsigned g)
{
	for (size_t i = 0; i < p->nmap_qos; i++)
		for (size_t r = 0; r < p->map_qos[i].nrules; r++)
			if (p->map_qos[i].rules[r].set_qos_group &&
			    p->map_qos[i].rules[r].qos_group == g)
				return true;
	return false;
}

static void policy_validate_pause(const struct policy *p, struct diag *d,
                                  const struct policy_map_nq *m,
                                  const struct policy_nq_rule *r)
{
	uint8_t cgroups = policy_nq_class_groups(p, r->class_name);
	uint8_t pfc = policy_nq_rule_pfc(p, r);
	unsigned line = r->pause_line ?: r->no_drop_line ?: r->line;
	int sys = policy_nq_system_parse(r->class_name);
	char groups[32];

	/* Every spelling of the default class (c-8q-nq-default, c-nq-default,
	 * class-default): it carries best effort, which must stay lossy. */
	if (sys == 0) {
		diag_err(d, line,
		         "pause pfc-cos on %s in policy-map type network-qos "
		         "%s: the default class cannot be no-drop, pause a "
		         "class-map type network-qos that matches the "
		         "qos-group",
		         r->class_name, m->name);
		return;
	}
	if (!policy_find_class_nq(p, r->class_name) && sys < 0)
		return; /* reported as undefined */
	policy_list_format(cgroups, groups, sizeof(groups));
	for (unsigned cos = 0; cos < POLICY_NPRIO; cos++) {
		if (!(pfc & (1u << cos)))
			continue;
		/* An error at every line as in the file: a state rocesh
		 * took must be one that copy running-config
		 * startup-config can save and a restart load. */
		if (!(cgroups & (1u << cos))) {
			diag_err(d, line,
			         "pause pfc-cos %u in policy-map type "
			         "network-qos %s class %s matches no class: "
			         "%s %s matches qos-group %s%s",
			         cos, m->name, r->class_name,
			         sys > 0 ? "system-defined class"
			                 : "class-map type network-qos",
			         r->class_name, groups[0] ? groups : "(none)",
			         sys > 0 ? "" : " (match the qos-group first)");
			continue;
		}
		if (!policy_validate_group_set(p, cos))
			diag_warn(d, line,
			          "pause pfc-cos %u in policy-map type "
			          "network-qos %s: no policy-map type qos sets "
			          "qos-group %u, so no traffic reaches this "
			          "no-drop class",
			          cos, m->name, cos);
	}
}

static void policy_validate_map_nq(const struct policy *p, struct diag *d)
{
	char where[2 * POLICY_NAME_MAX + 48];

	POLICY_VALIDATE_DUPS(d, p->map_nq, p->nmap_nq,
	                     "policy-map type network-qos");
	for (size_t i = 0; i < p->nmap_nq; i++) {
		const struct policy_map_nq *m = &p->map_nq[i];

		for (size_t k = 0; k < m->nrules; k++) {
			const struct policy_nq_rule *r = &m->rules[k];
			bool builtin =
			    policy_nq_system_parse(r->class_name) >= 0;

			snprintf(where, sizeof(where),
			         "policy-map type network-qos %s class %s",
			         m->name, r->class_name);
			for (size_t j = 0; j < k; j++) {
				if (!policy_nq_same_class(
				        m->rules[j].class_name, r->class_name))
					continue;
				diag_err(d, r->line,
				         "class %s is listed twice in "
				         "policy-map type network-qos %s "
				         "(first at line %u)",
				         r->class_name, m->name,
				         m->rules[j].line);
				break;
			}
			if (!builtin && !policy_find_class_nq(p, r->class_name))
				diag_err(d, r->line,
				         "class %s in policy-map type "
				         "network-qos %s is not defined (no "
				         "class-map type network-qos %s)",
				         r->class_name, m->name, r->class_name);
			if (policy_nq_rule_pfc(p, r))
				policy_validate_pause(p, d, m, r);
			if (r->no_drop && r->pfc_cos)
				diag_err(d, r->no_drop_line ?: r->line,
				         "%s: pause no-drop and pause pfc-cos "
				         "in one class, expected one of them",
				         where);
			policy_validate_pause_buffer(d, &r->buffer, where);
			if (r->mtu)
				policy_validate_range(
				    d, r->mtu_line ?: r->line, "mtu", r->mtu,
				    where, POLICY_MTU_MIN, POLICY_MTU_MAX);
		}
	}
}

static void policy_validate_system(const struct policy *p, struct diag *d)
{
	const struct policy_system *s = &p->system;
	const char *where = "system qos";

	policy_validate_ref(p, d, s->network_qos_line ?: s->line,
	                    s->network_qos, "policy-map type network-qos",
	                    policy_find_map_nq(p, s->network_qos),
	                    "service-policy type network-qos", where);
	policy_validate_ref(p, d, s->qos_input_line ?: s->line, s->qos_input,
	                    "policy-map type qos",
	                    policy_find_map_qos(p, s->qos_input),
	                    "service-policy type qos input", where);
	policy_validate_ref(p, d, s->queuing_output_line ?: s->line,
	                    s->queuing_output, "policy-map type queuing",
	                    policy_find_map_queuing(p, s->queuing_output),
	                    "service-policy type queuing output", where);
	policy_validate_ref(p, d, s->queuing_input_line ?: s->line,
	                    s->queuing_input, "policy-map type queuing",
	                    policy_find_map_queuing(p, s->queuing_input),
	                    "service-policy type queuing input", where);
	policy_validate_direction(p, d, s->queuing_output,
	                          s->queuing_output_line ?: s->line, false,
	                          where);
	policy_validate_direction(p, d, s->queuing_input,
	                          s->queuing_input_line ?: s->line, true,
	                          where);
	if (!s->network_qos[0] && p->nmap_nq)
		diag_warn(d, p->map_nq[0].line,
		          "policy-map type network-qos %s is defined but "
		          "system-qos attaches no network-qos policy, so no "
		          "class is no-drop and no mtu is set",
		          p->map_nq[0].name);
}

/* Linux accepts any name but "", "." and ".." shorter than IFNAMSIZ
 * without '/', ':' or whitespace. */
static bool policy_validate_ifname(const char *name)
{
	if (!name[0] || !strcmp(name, ".") || !strcmp(name, "..") ||
	    strlen(name) >= POLICY_IFNAME_MAX)
		return false;
	for (const char *s = name; *s; s++)
		if (*s == '/' || *s == ':' || isspace((unsigned char)*s) ||
		    !isprint((unsigned char)*s))
			return false;
	return true;
}

/* The interfaces' names and aliases sorted, so that each port's
 * duplicate is found in O(log n), not by a walk over every other port:
 * a 256-port file spent a sixth of its load in that walk. */
struct policy_vd_key {
	const char *s;
	size_t i;
};

static int policy_vd_cmp(const void *a, const void *b)
{
	const struct policy_vd_key *x = a, *y = b;
	int c = strcmp(x->s, y->s);

	return c ? c : (x->i > y->i) - (x->i < y->i);
}

static int policy_vd_casecmp(const void *a, const void *b)
{
	const struct policy_vd_key *x = a, *y = b;
	int c = strcasecmp(x->s, y->s);

	return c ? c : (x->i > y->i) - (x->i < y->i);
}

struct policy_vd {
	size_t *first_name;  /* the lowest index of the same name */
	size_t *first_alias; /* ... of the same alias (any case), or i */
	struct policy_vd_key *names_ci; /* every name, sorted (any case) */
};

static void policy_vd_free(struct policy_vd *v)
{
	free(v->first_name);
	free(v->first_alias);
	free(v->names_ci);
}

/* Each group of equal keys in K (N of them, sorted by CMP, equal keys
 * by index) gives its members the group's lowest index in FIRST. */
static void policy_vd_groups(const struct policy_vd_key *k, size_t n,
                             int (*eq)(const char *, const char *),
                             size_t *first)
{
	for (size_t g = 0, e; g < n; g = e) {
		for (e = g + 1; e < n && !eq(k[g].s, k[e].s); e++)
			;
		for (size_t m = g; m < e; m++)
			first[k[m].i] = k[g].i;
	}
}

static int policy_vd_init(const struct policy *p, struct policy_vd *v)
{
	size_t n = p->nifaces, na = 0;
	struct policy_vd_key *k = calloc(n ? n : 1, sizeof(*k));

	v->first_name = calloc(n ? n : 1, sizeof(size_t));
	v->first_alias = calloc(n ? n : 1, sizeof(size_t));
	v->names_ci = calloc(n ? n : 1, sizeof(*v->names_ci));
	if (!k || !v->first_name || !v->first_alias || !v->names_ci) {
		free(k);
		policy_vd_free(v);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		k[i] = (struct policy_vd_key){p->ifaces[i].name, i};
		v->names_ci[i] = k[i];
		v->first_alias[i] = i;
	}
	qsort(k, n, sizeof(*k), policy_vd_cmp);
	policy_vd_groups(k, n, strcmp, v->first_name);
	qsort(v->names_ci, n, sizeof(*k), policy_vd_casecmp);
	for (size_t i = 0; i < n; i++)
		if (p->ifaces[i].alias[0])
			k[na++] = (struct policy_vd_key){p->ifaces[i].alias, i};
	qsort(k, na, sizeof(*k), policy_vd_casecmp);
	policy_vd_groups(k, na, strcasecmp, v->first_alias);
	free(k);
	return 0;
}

/* The lowest index of a port other than I named ALIAS (any case), or
 * SIZE_MAX. */
static size_t policy_vd_alias_names(const struct policy *p,
                                    const struct policy_vd *v, size_t i,
                                    const char *alias)
{
	size_t lo = 0, hi = p->nifaces;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcasecmp(v->names_ci[mid].s, alias) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < p->nifaces && !strcasecmp(v->names_ci[lo].s, alias); lo++)
		if (v->names_ci[lo].i != i)
			return v->names_ci[lo].i;
	return SIZE_MAX;
}

/* Port I's first clash with another port, in the order of the ports:
 * the same name, the same alias, or an alias that is another's name. */
static void policy_validate_iface_dups(const struct policy *p, struct diag *d,
                                       const struct policy_vd *v, size_t i)
{
	const struct policy_iface *a = &p->ifaces[i];
	unsigned aline = a->alias_line ?: a->line;
	size_t jn = v->first_name[i] < i ? v->first_name[i] : SIZE_MAX;
	size_t ja =
	    a->alias[0] && v->first_alias[i] < i ? v->first_alias[i] : SIZE_MAX;
	size_t jx =
	    a->alias[0] ? policy_vd_alias_names(p, v, i, a->alias) : SIZE_MAX;
	const struct policy_iface *b;

	if (jn != SIZE_MAX && jn <= ja && jn <= jx) {
		b = &p->ifaces[jn];
		diag_err(d, a->line,
		         "interface %s is configured twice (first at "
		         "line %u)",
		         a->name, b->line);
	} else if (ja != SIZE_MAX && ja <= jx) {
		b = &p->ifaces[ja];
		diag_err(d, aline,
		         "alias %s of interface %s is already the "
		         "alias of interface %s (line %u): the port "
		         "is configured twice",
		         a->alias, a->name, b->name, b->line);
	} else if (jx != SIZE_MAX) {
		/* Lookups try names first, so such an alias is unreachable
		 * and a CLI `interface X` would be ambiguous. */
		b = &p->ifaces[jx];
		diag_err(d, aline,
		         "alias %s of interface %s names interface "
		         "%s (line %u): the port is configured twice",
		         a->alias, a->name, b->name, b->line);
	}
}

static void policy_validate_ifaces(const struct policy *p, struct diag *d)
{
	char where[POLICY_IFNAME_MAX + 16];
	struct policy_vd v;

	if (policy_vd_init(p, &v) < 0) {
		diag_err(d, 0, "out of memory");
		return;
	}

	for (size_t i = 0; i < p->nifaces; i++) {
		const struct policy_iface *f = &p->ifaces[i];

		snprintf(where, sizeof(where), "interface %s", f->name);
		if (!policy_validate_ifname(f->name))
			diag_err(d, f->line,
			         "invalid interface name '%s', expected a "
			         "Linux name of 1-%d characters without '/', "
			         "':' or spaces",
			         f->name, POLICY_IFNAME_MAX - 1);
		policy_validate_iface_dups(p, d, &v, i);
		policy_validate_ref(p, d, f->qos_input_line ?: f->line,
		                    f->qos_input, "policy-map type qos",
		                    policy_find_map_qos(p, f->qos_input),
		                    "service-policy type qos input", where);
		policy_validate_ref(
		    p, d, f->queuing_output_line ?: f->line, f->queuing_output,
		    "policy-map type queuing",
		    policy_find_map_queuing(p, f->queuing_output),
		    "service-policy type queuing output", where);
		policy_validate_ref(
		    p, d, f->queuing_input_line ?: f->line, f->queuing_input,
		    "policy-map type queuing",
		    policy_find_map_queuing(p, f->queuing_input),
		    "service-policy type queuing input", where);
		policy_validate_direction(p, d, f->queuing_output,
		                          f->queuing_output_line ?: f->line,
		                          false, where);
		policy_validate_direction(p, d, f->queuing_input,
		                          f->queuing_input_line ?: f->line,
		                          true, where);
		/* its mtu's range: setting_validate */
		if (f->pfc_send_tlv && f->pfc_mode != POLICY_PFC_ON)
			diag_err(d, f->line,
			         "priority-flow-control send-tlv of %s goes "
			         "with mode on only",
			         where);
		if (policy_pfc_mode_parse(policy_pfc_mode_name(f->pfc_mode)) <
		    0) {
			char modes[64];

			policy_pfc_mode_expected(modes, sizeof(modes));
			diag_err(d, f->line,
			         "invalid priority-flow-control mode of %s, "
			         "expected %s",
			         where, modes);
		}
		if (f->watchdog != POLICY_INHERIT && f->watchdog != POLICY_ON &&
		    f->watchdog != POLICY_OFF)
			diag_err(d, f->line,
			         "invalid watch-dog-interval setting of %s, "
			         "expected on or off",
			         where);
	}
	policy_vd_free(&v);
}

static void policy_validate_pfcwd(const struct policy *p, struct diag *d)
{
	const struct policy_pfcwd *w = &p->pfcwd;

	/* The timers' ranges are the settings table's (setting_validate);
	 * a multiplier of 0 is said here, with what it would mean. */
	if (!w->shutdown_mult)
		diag_err(d, w->shutdown_line ?: w->line,
		         "watch-dog detection time (interval %u ms x "
		         "shutdown-multiplier 0 = 0 ms) is shorter than the "
		         "poll interval %u ms, expected shutdown-multiplier "
		         "1-%u",
		         w->poll_ms, w->poll_ms, POLICY_PFCWD_MULT_MAX);
	if (!w->auto_restore_mult && !w->fixed_restore_mult)
		diag_warn(d,
			  w->auto_restore_line ?: w->fixed_restore_line
						  ?: w->line,
			  "auto-restore-multiplier and "
			  "fixed-restore-multiplier are both 0: a queue the "
			  "watchdog shuts stays shut until it is cleared by "
			  "hand");
}

int policy_validate_mode(const struct policy *p, struct diag *d,
                         enum policy_validate_mode mode)
{
	size_t errors = d->nerrors;

	policy_validate_class_qos(p, d);
	policy_validate_map_qos(p, d);
	policy_validate_map_queuing(p, d, mode);
	policy_validate_in_queues(p, d);
	policy_validate_marking(p, d);
	policy_validate_class_nq(p, d);
	policy_validate_map_nq(p, d);
	policy_validate_system(p, d);
	policy_validate_ifaces(p, d);
	policy_validate_pfcwd(p, d);
	policy_validate_pfc(p, d);
	policy_lldp_validate(p, d);
	setting_validate(p, d);
	policy_metrics_validate(p, d);
	return (int)(d->nerrors - errors);
}

int policy_validate(const struct policy *p, struct diag *d)
{
	return policy_validate_mode(p, d, POLICY_VALIDATE_FILE);
}

/* --- LLDP and DCBX --- */

int policy_lldp_validate(const struct policy *p, struct diag *d)
{
	const struct policy_lldp *l = &p->lldp;
	size_t errors = d->nerrors;
	char names[64];

	/* timer, holdtime, reinit: their ranges are the settings
	 * table's (setting_validate) */
	policy_dcbx_agent_expected(names, sizeof(names));
	if ((unsigned)l->agent >= POLICY_DCBX_NAGENTS)
		diag_err(d, l->agent_line ?: l->line,
		         "invalid dcbx agent, expected %s", names);
	for (size_t k = 0; k < p->nifaces; k++) {
		const struct policy_iface *i = &p->ifaces[k];

		if (!i->lldp.has_agent ||
		    (unsigned)i->lldp.agent < POLICY_DCBX_NAGENTS)
			continue;
		diag_err(d, i->lldp.agent_line ?: i->line,
		         "invalid dcbx agent of interface %s, expected %s",
		         i->name, names);
	}
	/* The peer forgets us when the TTL runs out between two frames. */
	if (d->nerrors == errors && l->holdtime <= l->timer)
		diag_warn(d, l->holdtime_line ?: l->timer_line ?: l->line,
		          "lldp holdtime %u is not longer than lldp timer %u: "
		          "neighbours age roced out between two frames",
		          l->holdtime, l->timer);
	return (int)(d->nerrors - errors);
}

/* --- metrics --- */

int policy_metrics_validate(const struct policy *p, struct diag *d)
{
	const struct policy_metrics *m = &p->metrics;
	size_t errors = d->nerrors, n = strlen(m->textfile);

	if (m->interval < POLICY_METRICS_INTERVAL_MIN ||
	    m->interval > POLICY_METRICS_INTERVAL_MAX)
		diag_err(d, m->interval_line ?: m->line,
		         "metrics interval %u is out of range, expected %u-%u "
		         "seconds",
		         m->interval, POLICY_METRICS_INTERVAL_MIN,
		         POLICY_METRICS_INTERVAL_MAX);
	if (n && m->textfile[0] != '/')
		diag_err(d, m->textfile_line ?: m->line,
		         "metrics textfile '%s' is not an absolute path",
		         m->textfile);
	else if (n && (n < 6 || strcmp(m->textfile + n - 5, ".prom") ||
	               m->textfile[n - 6] == '/'))
		diag_err(d, m->textfile_line ?: m->line,
		         "metrics textfile '%s' must be a file name ending in "
		         "'.prom': node_exporter's textfile collector reads no "
		         "other",
		         m->textfile);
	return (int)(d->nerrors - errors);
}
