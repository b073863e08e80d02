/* policy_sysclass: the Nexus 9000 system-defined classes and the pause
 * buffers of no-drop priorities. See policy.h.
 *
 * A Nexus 9000 in 8-queue mode has its network-qos classes (c-8q-nq1 ..
 * c-8q-nq7, c-8q-nq-default) and its ingress queuing classes (c-in-q1 ..
 * c-in-q7, c-in-q-default) built in: real configurations put `pause
 * pfc-cos 3` under `class type network-qos c-8q-nq3` without any
 * class-map. They are names with a number, like the egress queues
 * (policy_queue_parse), so they are parsed rather than listed; the one
 * table of names is the pair of prefix and default name per kind.
 */
#include "model/policy.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* "PREFIXN" (N 1-7) -> N, DEFNAME -> 0, anything else -> -1. */
static int policy_numbered_parse(const char *name, const char *prefix,
                                 const char *defname)
{
	size_t plen = strlen(prefix);

	if (!name)
		return -1;
	if (!strcmp(name, defname))
		return 0;
	if (strncmp(name, prefix, plen) || name[plen] < '1' ||
	    name[plen] > '7' || name[plen + 1])
		return -1;
	return name[plen] - '0';
}

int policy_nq_system_parse(const char *name)
{
	int n =
	    policy_numbered_parse(name, POLICY_NQ_PREFIX, POLICY_NQ_DEFAULT);

	if (n >= 0)
		return n;
	/* A 4-queue Nexus: c-nq1 .. c-nq3 and c-nq-default. */
	n = policy_numbered_parse(name, POLICY_NQ4_PREFIX, POLICY_NQ4_DEFAULT);
	if (n >= 0 && n <= 3)
		return n;
	/* Nexus 5000 and 3000 write the default class class-default. */
	if (name && !strcmp(name, POLICY_CLASS_DEFAULT))
		return 0;
	return -1;
}

bool policy_nq_same_class(const char *a, const char *b)
{
	int n = policy_nq_system_parse(a);

	return !strcmp(a, b) || (n >= 0 && n == policy_nq_system_parse(b));
}

const char *policy_nq_system_name(unsigned n)
{
	static const char *const names[POLICY_NQUEUES] = {
	    POLICY_NQ_DEFAULT,    POLICY_NQ_PREFIX "1", POLICY_NQ_PREFIX "2",
	    POLICY_NQ_PREFIX "3", POLICY_NQ_PREFIX "4", POLICY_NQ_PREFIX "5",
	    POLICY_NQ_PREFIX "6", POLICY_NQ_PREFIX "7",
	};

	return n < POLICY_NQUEUES ? names[n] : "?";
}

int policy_in_queue_parse(const char *name)
{
	return policy_numbered_parse(name, POLICY_IN_QUEUE_PREFIX,
	                             POLICY_IN_QUEUE_DEFAULT);
}

const char *policy_in_queue_name(unsigned n)
{
	static const char *const names[POLICY_NQUEUES] = {
	    POLICY_IN_QUEUE_DEFAULT,    POLICY_IN_QUEUE_PREFIX "1",
	    POLICY_IN_QUEUE_PREFIX "2", POLICY_IN_QUEUE_PREFIX "3",
	    POLICY_IN_QUEUE_PREFIX "4", POLICY_IN_QUEUE_PREFIX "5",
	    POLICY_IN_QUEUE_PREFIX "6", POLICY_IN_QUEUE_PREFIX "7",
	};

	return n < POLICY_NQUEUES ? names[n] : "?";
}

/* NX-OS does not publish the bytes behind its profiles (they are the
 * ASIC's). roced maps each to one of the two threshold sets that public
 * RoCE configurations write out by hand, so that a pasted profile marks
 * as those do (roced.conf(5) says so):
 *  - burst-optimized: a wide ramp that lets bursts through, 150 kbytes to
 *    3000 kbytes at 7 % (the reference configuration, Cisco's RoCE
 *    design);
 *  - mesh-optimized: a step at 300 kbytes, every packet above it marked
 *    (the many-to-many storage configurations of tests/nxos).
 * Weight 0 (instantaneous queue length) in both, as in those configs. */
static const struct {
	const char *name, *help;
	uint64_t min_bytes, max_bytes;
	uint8_t probability;
} policy_wred_profiles[POLICY_WRED_NPROFILES] = {
    [POLICY_WRED_BURST_OPTIMIZED] = {"burst-optimized",
                                     "Thresholds for bursts (150-3000 "
                                     "kbytes, 7 %)",
                                     150000, 3000000, 7},
    [POLICY_WRED_MESH_OPTIMIZED] = {"mesh-optimized",
                                    "Thresholds for meshes (300 kbytes, "
                                    "100 %)",
                                    300000, 300000, 100},
};

bool policy_queue_wred(const struct policy_queue *q, struct policy_wred *out)
{
	unsigned w;

	if (!q->configured)
		return false;
	if (q->wred.enabled) {
		*out = q->wred;
		return true;
	}
	if (!q->wred_profile || q->wred_profile > POLICY_WRED_NPROFILES)
		return false;
	w = q->wred_profile - 1u;
	memset(out, 0, sizeof(*out));
	out->enabled = true;
	out->min_bytes = policy_wred_profiles[w].min_bytes;
	out->max_bytes = policy_wred_profiles[w].max_bytes;
	out->drop_probability = policy_wred_profiles[w].probability;
	out->weight = 0;
	out->ecn = q->wred_profile_ecn;
	out->line = out->min_line = out->max_line = out->probability_line =
	    out->weight_line =
	        q->wred_profile_line ? q->wred_profile_line : q->line;
	return true;
}

const char *policy_wred_profile_name(enum policy_wred_profile w)
{
	return (unsigned)w < POLICY_WRED_NPROFILES
	           ? policy_wred_profiles[w].name
	           : "?";
}

const char *policy_wred_profile_help(enum policy_wred_profile w)
{
	return (unsigned)w < POLICY_WRED_NPROFILES
	           ? policy_wred_profiles[w].help
	           : "?";
}

int policy_wred_profile_parse(const char *s)
{
	for (int w = 0; s && w < POLICY_WRED_NPROFILES; w++)
		if (!strcmp(s, policy_wred_profiles[w].name))
			return w;
	return -1;
}

const struct policy_port_profile *
policy_find_port_profile(const struct policy *p, const char *name)
{
	for (size_t i = 0; name && i < p->nprofiles; i++)
		if (!strcmp(p->profiles[i].name, name))
			return &p->profiles[i];
	return NULL;
}

struct policy_port_profile *policy_add_port_profile(struct policy *p,
                                                    const char *name)
{
	struct policy_port_profile *v =
	    realloc(p->profiles, (p->nprofiles + 1) * sizeof(*v));

	if (!v)
		return NULL;
	p->profiles = v;
	v = &p->profiles[p->nprofiles++];
	memset(v, 0, sizeof(*v));
	snprintf(v->name, sizeof(v->name), "%s", name);
	return v;
}

const struct policy_qclass *policy_find_qclass(const struct policy *p,
                                               const char *name)
{
	for (size_t i = 0; name && i < p->nqclasses; i++)
		if (!strcmp(p->qclasses[i].name, name))
			return &p->qclasses[i];
	return NULL;
}

struct policy_qclass *policy_add_qclass(struct policy *p, const char *name)
{
	struct policy_qclass *v =
	    realloc(p->qclasses, (p->nqclasses + 1) * sizeof(*v));

	if (!v)
		return NULL;
	p->qclasses = v;
	v = &p->qclasses[p->nqclasses++];
	memset(v, 0, sizeof(*v));
	snprintf(v->name, sizeof(v->name), "%s", name);
	return v;
}

uint64_t policy_precedence_dscp(uint8_t prec)
{
	uint64_t dscp = 0;

	for (unsigned n = 0; n < 8; n++)
		if (prec & (1u << n))
			dscp |= UINT64_C(0xff) << (8 * n);
	return dscp;
}

bool policy_class_builtin(const char *name)
{
	return policy_nq_system_parse(name) >= 0 ||
	       policy_in_queue_parse(name) >= 0 ||
	       policy_queue_parse(name) >= 0 ||
	       (name && !strcmp(name, POLICY_CLASS_DEFAULT));
}

uint8_t policy_nq_class_groups(const struct policy *p, const char *name)
{
	const struct policy_class_nq *c = policy_find_class_nq(p, name);
	int n;

	if (c)
		return c->qos_groups;
	n = policy_nq_system_parse(name);
	return n < 0 ? 0 : (uint8_t)(1u << n);
}

uint8_t policy_nq_rule_pfc(const struct policy *p,
                           const struct policy_nq_rule *r)
{
	uint8_t cos = r->pfc_cos;

	if (r->no_drop)
		cos |= policy_nq_class_groups(p, r->class_name);
	return cos;
}

const struct policy_map_queuing *
policy_iface_queuing_input(const struct policy *p, const struct policy_iface *i)
{
	if (i && i->queuing_input[0])
		return policy_find_map_queuing(p, i->queuing_input);
	if (p->system.queuing_input[0])
		return policy_find_map_queuing(p, p->system.queuing_input);
	return NULL;
}

bool policy_queuing_has_out(const struct policy_map_queuing *m)
{
	for (unsigned n = 0; n < POLICY_NQUEUES; n++)
		if (m->queue[n].configured)
			return true;
	return false;
}

bool policy_queuing_has_in(const struct policy_map_queuing *m)
{
	for (unsigned n = 0; n < POLICY_NQUEUES; n++)
		if (m->in_queue[n].configured)
			return true;
	return false;
}

const struct policy_pause_buffer *
policy_iface_pause_buffer(const struct policy *p, const struct policy_iface *i,
                          unsigned prio)
{
	const struct policy_map_queuing *in = policy_iface_queuing_input(p, i);
	const struct policy_map_nq *nq;

	if (prio >= POLICY_NPRIO)
		return NULL;
	/* The ingress class is the port's own: it wins over the system
	 * network-qos class, as the more specific statement. */
	if (in && in->in_queue[prio].configured && in->in_queue[prio].pause.set)
		return &in->in_queue[prio].pause;
	nq = p->system.network_qos[0]
	         ? policy_find_map_nq(p, p->system.network_qos)
	         : NULL;
	for (size_t r = 0; nq && r < nq->nrules; r++)
		if (nq->rules[r].buffer.set &&
		    (policy_nq_rule_pfc(p, &nq->rules[r]) & (1u << prio)))
			return &nq->rules[r].buffer;
	return NULL;
}

/* ---- interface names as NX-OS writes them ---- */

/* ITEM (no blanks) spelt canonically into OUT at *N. */
static int policy_ifname_item(const char *item, size_t ilen, char *out,
                              size_t len, size_t *n)
{
	static const char *const eth[] = {"ethernet", "eth", "e"};
	const char *rest = item;
	int w;

	/* Only a slot/port name is NX-OS's: eth0 is Linux's. */
	if (memchr(item, '/', ilen))
		for (size_t k = 0; k < sizeof(eth) / sizeof(*eth); k++) {
			size_t el = strlen(eth[k]);

			if (ilen > el && !strncasecmp(item, eth[k], el) &&
			    isdigit((unsigned char)item[el])) {
				rest = item + el;
				break;
			}
		}
	size_t rlen = ilen - (size_t)(rest - item);
	const char *dash = memchr(rest, '-', rlen);
	const char *slash = memchr(rest, '/', rlen);
	size_t keep = rlen;
	const char *tail = "";

	/* "Ethernet1/1-1/4" (a range whose end repeats the slot, as NX-OS
	 * lets one type it) is Ethernet1/1-4. */
	if (dash && slash && slash < dash) {
		size_t slot = (size_t)(slash - rest) + 1; /* "1/" */
		const char *end = dash + 1;
		size_t elen = rlen - (size_t)(end - rest);

		if (elen > slot && !strncmp(end, rest, slot)) {
			keep = (size_t)(end - rest);
			tail = end + slot;
			w = snprintf(out + *n, len - *n, "%s%s%.*s%.*s",
			             *n ? "," : "",
			             rest != item ? "Ethernet" : "", (int)keep,
			             rest, (int)(elen - slot), tail);
			if (w < 0 || (size_t)w >= len - *n)
				return -1;
			*n += (size_t)w;
			return 0;
		}
	}
	w = snprintf(out + *n, len - *n, "%s%s%.*s", *n ? "," : "",
	             rest != item ? "Ethernet" : "", (int)keep, rest);
	if (w < 0 || (size_t)w >= len - *n)
		return -1;
	*n += (size_t)w;
	return 0;
}

/* "Ethernet1/1-1" (a range of one, as "Ethernet1/1 - 1/1" folds) is
 * Ethernet1/1: drop the "-N" of the NX-OS item at OUT + FROM when N is
 * the number before it. */
static void policy_ifname_one(char *out, size_t from, size_t *n)
{
	char *item = out + from + (out[from] == ',');
	char *dash = strrchr(item, '-');
	size_t dl;
	const char *p;

	/* NX-OS names only: swp5-5 is a Linux name like any other. */
	if (!dash || dash == item || !dash[1] || !strchr(item, '/'))
		return;
	dl = strlen(dash + 1);
	for (p = dash; p > item && isdigit((unsigned char)p[-1]); p--)
		;
	if ((size_t)(dash - p) == dl && !strncmp(p, dash + 1, dl)) {
		*dash = '\0';
		*n = (size_t)(dash - out);
	}
}

int policy_ifname_nxos(const char *in, char *out, size_t len)
{
	char item[POLICY_ALIAS_MAX * 2];
	size_t n = 0, il = 0;

	if (!len)
		return -1;
	out[0] = '\0';
	for (const char *s = in;; s++) {
		if (*s == ',' || !*s) {
			size_t from = n;

			if (il && policy_ifname_item(item, il, out, len, &n))
				return -1;
			if (il)
				policy_ifname_one(out, from, &n);
			il = 0;
			if (!*s)
				return 0;
			continue;
		}
		if (isspace((unsigned char)*s))
			continue;
		if (il + 1 >= sizeof(item))
			return -1;
		item[il++] = *s;
	}
}

int policy_ifname_expand(const char *spec, char (*out)[POLICY_ALIAS_MAX],
                         size_t max)
{
	char item[POLICY_ALIAS_MAX];
	size_t n = 0;

	for (const char *s = spec; *s;) {
		size_t il = strcspn(s, ","), plen;
		unsigned long first, last;
		int range;

		if (!il || il >= sizeof(item))
			return -1;
		memcpy(item, s, il);
		item[il] = '\0';
		s += il + (s[il] == ',');
		range = policy_ifname_range(item, &plen, &first, &last);
		if (range == -2)
			return -2;
		if (range < 0) {
			if (n >= max)
				return -2;
			snprintf(out[n++], POLICY_ALIAS_MAX, "%s", item);
			continue;
		}
		for (unsigned long m = first; m <= last; m++) {
			if (n >= max)
				return -2;
			if (policy_ifname_member(item, plen, m, out[n],
			                         POLICY_ALIAS_MAX) < 0)
				return -1;
			n++;
		}
	}
	return (int)n;
}
