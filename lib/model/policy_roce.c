/* policy_roce: the one-command RoCE mode (see policy.h): its name table,
 * the expansion that rocesh's `roce MODE` and roced.conf's `roce =
 * "MODE";` both call, its removal, and the mode a policy's objects make.
 *
 * The expansion is built from the NX-OS objects alone, so that what it
 * made is what `show running-config` prints and what an operator edits;
 * nothing downstream knows that the objects came from here.
 */
#include "model/policy.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	const char *help; /* what rocesh's `?` says of it */
} policy_roce_modes[POLICY_ROCE_NMODES] = {
    [POLICY_ROCE_NONE] = {"none", "No RoCE mode"},
    [POLICY_ROCE_LOSSLESS] = {"lossless", "PFC on CoS 3 and ECN (the default)"},
    [POLICY_ROCE_SEMI_LOSSLESS] = {"semi-lossless",
                                   "Honour received pause on CoS 3, never "
                                   "send it; ECN"},
    [POLICY_ROCE_LOSSY] = {"lossy", "ECN only, no PFC"},
};

static const char *const policy_roce_objects[POLICY_ROCE_NOBJECTS] = {
    [POLICY_ROCE_OBJ_CLASS] = "class-map type qos " POLICY_ROCE_CLASS,
    [POLICY_ROCE_OBJ_CNP] = "class-map type qos " POLICY_ROCE_CNP,
    [POLICY_ROCE_OBJ_QOS] = "policy-map type qos " POLICY_ROCE_QOS,
    [POLICY_ROCE_OBJ_QUEUING] = "policy-map type queuing " POLICY_ROCE_QUEUING,
    [POLICY_ROCE_OBJ_NQ] = "policy-map type network-qos " POLICY_ROCE_NQ,
    [POLICY_ROCE_OBJ_SYSTEM] = "system qos",
};

const char *policy_roce_mode_name(enum policy_roce_mode m)
{
	return (unsigned)m < POLICY_ROCE_NMODES ? policy_roce_modes[m].name
	                                        : "?";
}

int policy_roce_mode_parse(const char *s)
{
	for (unsigned i = POLICY_ROCE_LOSSLESS; s && i < POLICY_ROCE_NMODES;
	     i++)
		if (!strcmp(s, policy_roce_modes[i].name))
			return (int)i;
	return -1;
}

const char *policy_roce_mode_help(enum policy_roce_mode m)
{
	return (unsigned)m < POLICY_ROCE_NMODES ? policy_roce_modes[m].help
	                                        : "?";
}

int policy_roce_mode_expected(char *buf, size_t len)
{
	size_t off = 0;

	if (len)
		buf[0] = '\0';
	for (unsigned i = POLICY_ROCE_LOSSLESS; i < POLICY_ROCE_NMODES; i++)
		off += (size_t)snprintf(buf + (off < len ? off : len),
		                        off < len ? len - off : 0, "%s%s",
		                        i == POLICY_ROCE_LOSSLESS     ? ""
		                        : i + 1 == POLICY_ROCE_NMODES ? " or "
		                                                      : ", ",
		                        policy_roce_modes[i].name);
	return (int)off;
}

const char *policy_roce_object_name(enum policy_roce_object o)
{
	return (unsigned)o < POLICY_ROCE_NOBJECTS ? policy_roce_objects[o]
	                                          : "?";
}

/* ---- the expansion, as values ---- */

static void policy_roce_class(struct policy_class_qos *c, const char *name,
                              unsigned cos, unsigned dscp, unsigned line)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->match = POLICY_MATCH_ANY;
	c->cos = (uint8_t)(1u << cos);
	c->dscp = UINT64_C(1) << dscp;
	c->line = c->cos_line = c->dscp_line = line;
}

static int policy_roce_qos(struct policy_map_qos *m, unsigned line)
{
	static const struct {
		const char *cls;
		uint8_t group;
	} rules[] = {{POLICY_ROCE_CLASS, POLICY_ROCE_COS},
	             {POLICY_ROCE_CNP, POLICY_ROCE_CNP_COS}};

	free(m->rules);
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "%s", POLICY_ROCE_QOS);
	m->line = line;
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		struct policy_qos_rule *r =
		    policy_map_qos_add_rule(m, rules[i].cls);

		if (!r)
			return -ENOMEM;
		r->set_qos_group = true;
		r->qos_group = rules[i].group;
		r->line = r->qos_group_line = line;
	}
	return 0;
}

static void policy_roce_queuing(struct policy_map_queuing *m, unsigned line)
{
	struct policy_queue *q3 = &m->queue[POLICY_ROCE_COS];
	struct policy_queue *q6 = &m->queue[POLICY_ROCE_CNP_COS];
	struct policy_queue *q0 = &m->queue[0];

	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "%s", POLICY_ROCE_QUEUING);
	m->line = line;
	q6->configured = true;
	q6->priority_level = 1;
	q6->line = q6->priority_line = line;
	q3->configured = true;
	q3->has_bandwidth = true;
	q3->bandwidth_percent = POLICY_ROCE_BANDWIDTH;
	q3->wred.enabled = true;
	q3->wred.min_bytes = POLICY_ROCE_ECN_MIN * UINT64_C(1024);
	q3->wred.max_bytes = POLICY_ROCE_ECN_MAX * UINT64_C(1024);
	q3->wred.drop_probability = POLICY_ROCE_ECN_PROB;
	q3->wred.weight = 0;
	q3->wred.ecn = true;
	q3->line = q3->bandwidth_line = q3->wred.line = line;
	q3->wred.min_line = q3->wred.max_line = line;
	q3->wred.probability_line = q3->wred.weight_line = line;
	q0->configured = true;
	q0->has_bandwidth = true;
	q0->bandwidth_percent = 100 - POLICY_ROCE_BANDWIDTH;
	q0->line = q0->bandwidth_line = line;
}

static int policy_roce_nq(struct policy_map_nq *m, enum policy_roce_mode mode,
                          unsigned line)
{
	struct policy_nq_rule *r;

	free(m->rules);
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "%s", POLICY_ROCE_NQ);
	m->line = line;
	r = policy_map_nq_add_rule(m, policy_nq_system_name(POLICY_ROCE_COS));
	if (!r)
		return -ENOMEM;
	r->line = r->mtu_line = line;
	r->mtu = POLICY_ROCE_MTU;
	if (mode == POLICY_ROCE_LOSSY)
		return 0;
	r->pfc_cos = 1u << POLICY_ROCE_COS;
	r->pause_line = line;
	r->pfc_rx_only = mode == POLICY_ROCE_SEMI_LOSSLESS;
	r->pfc_rx_only_line = r->pfc_rx_only ? line : 0;
	return 0;
}

/* ---- finding and replacing objects by name ---- */

static struct policy_class_qos *policy_roce_find_class(struct policy *p,
                                                       const char *name)
{
	for (size_t i = 0; i < p->nclass_qos; i++)
		if (!strcmp(p->class_qos[i].name, name))
			return &p->class_qos[i];
	return NULL;
}

static struct policy_map_qos *policy_roce_find_qos(struct policy *p)
{
	for (size_t i = 0; i < p->nmap_qos; i++)
		if (!strcmp(p->map_qos[i].name, POLICY_ROCE_QOS))
			return &p->map_qos[i];
	return NULL;
}

static struct policy_map_queuing *policy_roce_find_queuing(struct policy *p)
{
	for (size_t i = 0; i < p->nmap_queuing; i++)
		if (!strcmp(p->map_queuing[i].name, POLICY_ROCE_QUEUING))
			return &p->map_queuing[i];
	return NULL;
}

static struct policy_map_nq *policy_roce_find_nq(struct policy *p)
{
	for (size_t i = 0; i < p->nmap_nq; i++)
		if (!strcmp(p->map_nq[i].name, POLICY_ROCE_NQ))
			return &p->map_nq[i];
	return NULL;
}

/* Set a system-qos service-policy SLOT to NAME, but for KEEP when the
 * file set it itself. */
static void policy_roce_attach(char *slot, unsigned *slot_line,
                               const char *name, enum policy_roce_how how,
                               unsigned line)
{
	if (how == POLICY_ROCE_KEEP && slot[0])
		return;
	snprintf(slot, POLICY_NAME_MAX, "%s", name);
	*slot_line = line;
}

int policy_roce_expand(struct policy *p, enum policy_roce_mode mode,
                       enum policy_roce_how how, unsigned line)
{
	static const struct {
		const char *name;
		unsigned cos, dscp;
	} classes[] = {
	    {POLICY_ROCE_CLASS, POLICY_ROCE_COS, POLICY_ROCE_DSCP},
	    {POLICY_ROCE_CNP, POLICY_ROCE_CNP_COS, POLICY_ROCE_CNP_DSCP},
	};
	bool keep = how == POLICY_ROCE_KEEP;
	struct policy_map_qos *mq;
	struct policy_map_queuing *mu;
	struct policy_map_nq *mn;

	if (mode == POLICY_ROCE_NONE || (unsigned)mode >= POLICY_ROCE_NMODES)
		return -EINVAL;
	for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
		struct policy_class_qos *c =
		    policy_roce_find_class(p, classes[i].name);

		if (c && keep)
			continue;
		if (!c)
			c = policy_add_class_qos(p, classes[i].name);
		if (!c)
			return -ENOMEM;
		policy_roce_class(c, classes[i].name, classes[i].cos,
		                  classes[i].dscp, line);
	}
	mq = policy_roce_find_qos(p);
	if (!mq || !keep) {
		if (!mq)
			mq = policy_add_map_qos(p, POLICY_ROCE_QOS);
		if (!mq || policy_roce_qos(mq, line) < 0)
			return -ENOMEM;
	}
	mu = policy_roce_find_queuing(p);
	if (!mu || !keep) {
		if (!mu)
			mu = policy_add_map_queuing(p, POLICY_ROCE_QUEUING);
		if (!mu)
			return -ENOMEM;
		policy_roce_queuing(mu, line);
	}
	mn = policy_roce_find_nq(p);
	if (!mn || !keep) {
		if (!mn)
			mn = policy_add_map_nq(p, POLICY_ROCE_NQ);
		if (!mn || policy_roce_nq(mn, mode, line) < 0)
			return -ENOMEM;
	}
	if (!p->system.line)
		p->system.line = line;
	policy_roce_attach(p->system.network_qos, &p->system.network_qos_line,
	                   POLICY_ROCE_NQ, how, line);
	policy_roce_attach(p->system.qos_input, &p->system.qos_input_line,
	                   POLICY_ROCE_QOS, how, line);
	policy_roce_attach(p->system.queuing_output,
	                   &p->system.queuing_output_line, POLICY_ROCE_QUEUING,
	                   how, line);
	return 0;
}

/* ---- the mode the objects make ---- */

static bool policy_roce_class_eq(const struct policy_class_qos *a,
                                 const struct policy_class_qos *b)
{
	return a->match == b->match && a->cos == b->cos && a->dscp == b->dscp &&
	       a->precedence == b->precedence &&
	       !strcmp(a->description, b->description);
}

static bool policy_roce_qos_eq(const struct policy_map_qos *a,
                               const struct policy_map_qos *b)
{
	if (a->nrules != b->nrules || strcmp(a->description, b->description))
		return false;
	for (size_t i = 0; i < a->nrules; i++) {
		const struct policy_qos_rule *x = &a->rules[i],
		                             *y = &b->rules[i];

		if (strcmp(x->class_name, y->class_name) ||
		    x->set_qos_group != y->set_qos_group ||
		    x->qos_group != y->qos_group ||
		    x->set_dscp != y->set_dscp || x->set_cos != y->set_cos ||
		    (x->set_dscp && x->dscp != y->dscp) ||
		    (x->set_cos && x->cos != y->cos))
			return false;
	}
	return true;
}

static bool policy_roce_wred_eq(const struct policy_wred *a,
                                const struct policy_wred *b)
{
	if (a->enabled != b->enabled)
		return false;
	return !a->enabled ||
	       (a->min_bytes == b->min_bytes && a->max_bytes == b->max_bytes &&
	        a->drop_probability == b->drop_probability &&
	        a->weight == b->weight && a->ecn == b->ecn);
}

static bool policy_roce_pause_eq(const struct policy_pause_buffer *a,
                                 const struct policy_pause_buffer *b)
{
	return a->set == b->set &&
	       (!a->set || (a->buffer_size == b->buffer_size &&
	                    a->pause_threshold == b->pause_threshold &&
	                    a->resume_threshold == b->resume_threshold));
}

static bool policy_roce_queue_eq(const struct policy_queue *a,
                                 const struct policy_queue *b)
{
	return a->configured == b->configured &&
	       a->has_bandwidth == b->has_bandwidth &&
	       a->bandwidth_percent == b->bandwidth_percent &&
	       a->priority_level == b->priority_level &&
	       policy_roce_wred_eq(&a->wred, &b->wred) &&
	       policy_roce_pause_eq(&a->pause, &b->pause) &&
	       a->has_bandwidth_min == b->has_bandwidth_min &&
	       a->bandwidth_min_percent == b->bandwidth_min_percent &&
	       a->queue_limit_bytes == b->queue_limit_bytes &&
	       a->queue_limit_dynamic == b->queue_limit_dynamic &&
	       a->wred_profile == b->wred_profile &&
	       a->wred_profile_ecn == b->wred_profile_ecn &&
	       a->shape_min_kbps == b->shape_min_kbps &&
	       a->shape_max_kbps == b->shape_max_kbps;
}

static bool policy_roce_queuing_eq(const struct policy_map_queuing *a,
                                   const struct policy_map_queuing *b)
{
	if (strcmp(a->description, b->description))
		return false;
	for (unsigned q = 0; q < POLICY_NQUEUES; q++)
		if (!policy_roce_queue_eq(&a->queue[q], &b->queue[q]) ||
		    !policy_roce_queue_eq(&a->in_queue[q], &b->in_queue[q]))
			return false;
	return true;
}

static bool policy_roce_nq_eq(const struct policy_map_nq *a,
                              const struct policy_map_nq *b)
{
	if (a->nrules != b->nrules || strcmp(a->description, b->description))
		return false;
	for (size_t i = 0; i < a->nrules; i++) {
		const struct policy_nq_rule *x = &a->rules[i],
		                            *y = &b->rules[i];

		if (strcmp(x->class_name, y->class_name) ||
		    x->pfc_cos != y->pfc_cos || x->mtu != y->mtu ||
		    x->no_drop != y->no_drop ||
		    x->pfc_rx_only != y->pfc_rx_only ||
		    !policy_roce_pause_eq(&x->buffer, &y->buffer))
			return false;
	}
	return true;
}

/* The objects of P that differ from MODE's expansion, one bit each;
 * UINT32_MAX when the expansion cannot be built (out of memory). */
static uint32_t policy_roce_diff(const struct policy *p,
                                 enum policy_roce_mode mode)
{
	struct policy t;
	uint32_t diff = 0;
	const struct policy_class_qos *c;
	const struct policy_map_qos *mq;
	const struct policy_map_queuing *mu;
	const struct policy_map_nq *mn;

	policy_init(&t);
	if (policy_roce_expand(&t, mode, POLICY_ROCE_REPLACE, 0) < 0) {
		policy_free(&t);
		return UINT32_MAX;
	}
	c = policy_find_class_qos(p, POLICY_ROCE_CLASS);
	if (!c || !policy_roce_class_eq(c, &t.class_qos[0]))
		diff |= 1u << POLICY_ROCE_OBJ_CLASS;
	c = policy_find_class_qos(p, POLICY_ROCE_CNP);
	if (!c || !policy_roce_class_eq(c, &t.class_qos[1]))
		diff |= 1u << POLICY_ROCE_OBJ_CNP;
	mq = policy_find_map_qos(p, POLICY_ROCE_QOS);
	if (!mq || !policy_roce_qos_eq(mq, &t.map_qos[0]))
		diff |= 1u << POLICY_ROCE_OBJ_QOS;
	mu = policy_own_map_queuing(p, POLICY_ROCE_QUEUING);
	if (!mu || !policy_roce_queuing_eq(mu, &t.map_queuing[0]))
		diff |= 1u << POLICY_ROCE_OBJ_QUEUING;
	mn = policy_find_map_nq(p, POLICY_ROCE_NQ);
	if (!mn || !policy_roce_nq_eq(mn, &t.map_nq[0]))
		diff |= 1u << POLICY_ROCE_OBJ_NQ;
	if (strcmp(p->system.network_qos, POLICY_ROCE_NQ) ||
	    strcmp(p->system.qos_input, POLICY_ROCE_QOS) ||
	    strcmp(p->system.queuing_output, POLICY_ROCE_QUEUING))
		diff |= 1u << POLICY_ROCE_OBJ_SYSTEM;
	policy_free(&t);
	return diff;
}

enum policy_roce_mode policy_roce_mode(const struct policy *p, uint32_t *edited)
{
	const struct policy_map_nq *mn = policy_find_map_nq(p, POLICY_ROCE_NQ);
	enum policy_roce_mode closest = POLICY_ROCE_LOSSY;
	uint32_t diff;

	if (edited)
		*edited = 0;
	if (!policy_find_class_qos(p, POLICY_ROCE_CLASS) &&
	    !policy_find_class_qos(p, POLICY_ROCE_CNP) &&
	    !policy_find_map_qos(p, POLICY_ROCE_QOS) &&
	    !policy_own_map_queuing(p, POLICY_ROCE_QUEUING) && !mn)
		return POLICY_ROCE_NONE;
	for (unsigned m = POLICY_ROCE_LOSSLESS; m < POLICY_ROCE_NMODES; m++)
		if (policy_roce_diff(p, (enum policy_roce_mode)m) == 0)
			return (enum policy_roce_mode)m;
	for (size_t i = 0; mn && i < mn->nrules; i++) {
		const struct policy_nq_rule *r = &mn->rules[i];

		if (!(policy_nq_rule_pfc(p, r) & (1u << POLICY_ROCE_COS)))
			continue;
		closest = r->pfc_rx_only ? POLICY_ROCE_SEMI_LOSSLESS
		                         : POLICY_ROCE_LOSSLESS;
		break;
	}
	diff = policy_roce_diff(p, closest);
	if (edited)
		*edited = diff == UINT32_MAX ? (1u << POLICY_ROCE_NOBJECTS) - 1
		                             : diff;
	return closest;
}

bool policy_roce_complete(const struct policy *p)
{
	return policy_find_class_qos(p, POLICY_ROCE_CLASS) &&
	       policy_find_class_qos(p, POLICY_ROCE_CNP) &&
	       policy_find_map_qos(p, POLICY_ROCE_QOS) &&
	       policy_own_map_queuing(p, POLICY_ROCE_QUEUING) &&
	       policy_find_map_nq(p, POLICY_ROCE_NQ) &&
	       p->system.network_qos[0] && p->system.qos_input[0] &&
	       p->system.queuing_output[0];
}

/* ---- what roce wrote, what it would clobber ---- */

uint32_t policy_roce_writes(const struct policy *p, enum policy_roce_mode mode)
{
	return policy_roce_diff(p, mode);
}

/* The objects of P that equal the expansion of some mode (the system
 * bit: every slot of system qos that is set names roce's own map): what
 * roce wrote, as it wrote it. */
static uint32_t policy_roce_own(const struct policy *p)
{
	uint32_t own = 0, all = (1u << POLICY_ROCE_NOBJECTS) - 1;

	for (unsigned m = POLICY_ROCE_LOSSLESS; m < POLICY_ROCE_NMODES; m++) {
		uint32_t d = policy_roce_diff(p, (enum policy_roce_mode)m);

		if (d == UINT32_MAX)
			return 0; /* out of memory: nothing is known to be ours
			           */
		own |= all & ~d;
	}
	own &= ~(1u << POLICY_ROCE_OBJ_SYSTEM);
	if ((!p->system.network_qos[0] ||
	     !strcmp(p->system.network_qos, POLICY_ROCE_NQ)) &&
	    (!p->system.qos_input[0] ||
	     !strcmp(p->system.qos_input, POLICY_ROCE_QOS)) &&
	    (!p->system.queuing_output[0] ||
	     !strcmp(p->system.queuing_output, POLICY_ROCE_QUEUING)))
		own |= 1u << POLICY_ROCE_OBJ_SYSTEM;
	return own;
}

/* Whether object O exists in P (system: a slot of system qos is set). */
static bool policy_roce_exists(const struct policy *p,
                               enum policy_roce_object o)
{
	switch (o) {
	case POLICY_ROCE_OBJ_CLASS:
		return policy_find_class_qos(p, POLICY_ROCE_CLASS);
	case POLICY_ROCE_OBJ_CNP:
		return policy_find_class_qos(p, POLICY_ROCE_CNP);
	case POLICY_ROCE_OBJ_QOS:
		return policy_find_map_qos(p, POLICY_ROCE_QOS);
	case POLICY_ROCE_OBJ_QUEUING:
		return policy_own_map_queuing(p, POLICY_ROCE_QUEUING);
	case POLICY_ROCE_OBJ_NQ:
		return policy_find_map_nq(p, POLICY_ROCE_NQ);
	case POLICY_ROCE_OBJ_SYSTEM:
		return p->system.network_qos[0] || p->system.qos_input[0] ||
		       p->system.queuing_output[0];
	case POLICY_ROCE_NOBJECTS:
		break;
	}
	return false;
}

uint32_t policy_roce_conflicts(const struct policy *p,
                               enum policy_roce_mode mode)
{
	uint32_t writes = policy_roce_diff(p, mode), own = policy_roce_own(p);
	uint32_t clash = 0;

	if (writes == UINT32_MAX)
		return UINT32_MAX;
	for (unsigned o = 0; o < POLICY_ROCE_NOBJECTS; o++)
		if ((writes & (1u << o)) && !(own & (1u << o)) &&
		    policy_roce_exists(p, (enum policy_roce_object)o))
			clash |= 1u << o;
	return clash;
}

/* Who, of what roce does not remove, names object O of P: a qos
 * policy-map (other than roce's, or roce's when it stays) naming a
 * class, an interface naming a map. Written into BUF; NULL when none. */
static const char *policy_roce_user_of(const struct policy *p,
                                       enum policy_roce_object o,
                                       uint32_t staying, char *buf, size_t len)
{
	const char *cls = o == POLICY_ROCE_OBJ_CLASS ? POLICY_ROCE_CLASS
	                  : o == POLICY_ROCE_OBJ_CNP ? POLICY_ROCE_CNP
	                                             : NULL;
	const char *map = o == POLICY_ROCE_OBJ_QOS       ? POLICY_ROCE_QOS
	                  : o == POLICY_ROCE_OBJ_QUEUING ? POLICY_ROCE_QUEUING
	                                                 : NULL;

	for (size_t i = 0; cls && i < p->nmap_qos; i++) {
		const struct policy_map_qos *m = &p->map_qos[i];

		if (!strcmp(m->name, POLICY_ROCE_QOS) &&
		    !(staying & (1u << POLICY_ROCE_OBJ_QOS)))
			continue;
		for (size_t r = 0; r < m->nrules; r++)
			if (!strcmp(m->rules[r].class_name, cls)) {
				snprintf(buf, len, "policy-map type qos %s",
				         m->name);
				return buf;
			}
	}
	for (size_t i = 0; map && i < p->nifaces; i++) {
		const struct policy_iface *f = &p->ifaces[i];

		if (!strcmp(f->qos_input, map) ||
		    !strcmp(f->queuing_output, map) ||
		    !strcmp(f->queuing_input, map)) {
			snprintf(buf, len, "interface %s",
			         f->alias[0] ? f->alias : f->name);
			return buf;
		}
	}
	if (map && !strcmp(p->system.queuing_input, map)) {
		snprintf(buf, len, "system qos (queuing input)");
		return buf;
	}
	return NULL;
}

/* Remove element I of an array of *N elements of SIZE bytes. */
static void policy_roce_cut(void *arr, size_t *n, size_t size, size_t i)
{
	char *a = arr;

	memmove(a + i * size, a + (i + 1) * size, (*n - i - 1) * size);
	(*n)--;
}

static void policy_roce_detach(char *slot, unsigned *line, const char *name)
{
	if (strcmp(slot, name))
		return;
	slot[0] = '\0';
	*line = 0;
}

static void policy_roce_drop(struct policy *p, enum policy_roce_object o)
{
	for (size_t i = p->nclass_qos; o <= POLICY_ROCE_OBJ_CNP && i-- > 0;)
		if (!strcmp(p->class_qos[i].name, o == POLICY_ROCE_OBJ_CLASS
		                                      ? POLICY_ROCE_CLASS
		                                      : POLICY_ROCE_CNP))
			policy_roce_cut(p->class_qos, &p->nclass_qos,
			                sizeof(*p->class_qos), i);
	for (size_t i = p->nmap_qos; o == POLICY_ROCE_OBJ_QOS && i-- > 0;)
		if (!strcmp(p->map_qos[i].name, POLICY_ROCE_QOS)) {
			free(p->map_qos[i].rules);
			policy_roce_cut(p->map_qos, &p->nmap_qos,
			                sizeof(*p->map_qos), i);
			policy_roce_detach(p->system.qos_input,
			                   &p->system.qos_input_line,
			                   POLICY_ROCE_QOS);
		}
	for (size_t i = p->nmap_queuing;
	     o == POLICY_ROCE_OBJ_QUEUING && i-- > 0;)
		if (!strcmp(p->map_queuing[i].name, POLICY_ROCE_QUEUING)) {
			policy_roce_cut(p->map_queuing, &p->nmap_queuing,
			                sizeof(*p->map_queuing), i);
			policy_roce_detach(p->system.queuing_output,
			                   &p->system.queuing_output_line,
			                   POLICY_ROCE_QUEUING);
		}
	for (size_t i = p->nmap_nq; o == POLICY_ROCE_OBJ_NQ && i-- > 0;)
		if (!strcmp(p->map_nq[i].name, POLICY_ROCE_NQ)) {
			free(p->map_nq[i].rules);
			policy_roce_cut(p->map_nq, &p->nmap_nq,
			                sizeof(*p->map_nq), i);
			policy_roce_detach(p->system.network_qos,
			                   &p->system.network_qos_line,
			                   POLICY_ROCE_NQ);
		}
}

int policy_roce_remove(struct policy *p, struct policy_roce_removal *out)
{
	/* Maps before the classes they name: a map that stays keeps its
	 * classes. */
	static const enum policy_roce_object order[] = {
	    POLICY_ROCE_OBJ_NQ,    POLICY_ROCE_OBJ_QUEUING, POLICY_ROCE_OBJ_QOS,
	    POLICY_ROCE_OBJ_CLASS, POLICY_ROCE_OBJ_CNP,
	};
	uint32_t own = policy_roce_own(p), staying = 0;

	memset(out, 0, sizeof(*out));
	for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
		enum policy_roce_object o = order[k];
		uint32_t bit = 1u << o;

		if (!policy_roce_exists(p, o))
			continue;
		if (!(own & bit)) {
			out->edited |= bit;
			staying |= bit;
			continue;
		}
		if (policy_roce_user_of(p, o, staying, out->user[o],
		                        sizeof(out->user[o]))) {
			out->in_use |= bit;
			staying |= bit;
			continue;
		}
		out->removed |= bit;
	}
	for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++)
		if (out->removed & (1u << order[k]))
			policy_roce_drop(p, order[k]);
	return __builtin_popcount(out->removed);
}
