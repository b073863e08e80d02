/* show_policy: the policy as JSON: the whole of it in the config file's
 * structure (show running-config / startup-config json), and the
 * class-map and policy-map views (show class-map, show policy-map). */
#include <stdio.h>
#include <string.h>

#include "show/show.h"
#include "show/show_int.h"

struct json_object *show_mask_json(uint64_t mask)
{
	struct json_object *a = json_object_new_array();

	for (unsigned i = 0; a && i < 64; i++)
		if (mask & (1ull << i))
			json_object_array_add(a, json_object_new_int((int)i));
	return a;
}

void show_add_str(struct json_object *o, const char *key, const char *s)
{
	json_object_object_add(o, key, json_object_new_string(s));
}

void show_add_int(struct json_object *o, const char *key, int64_t v)
{
	json_object_object_add(o, key, json_object_new_int64(v));
}

void show_add_bool(struct json_object *o, const char *key, bool v)
{
	json_object_object_add(o, key, json_object_new_boolean(v));
}

static struct json_object *show_wred_json(const struct policy_wred *w)
{
	struct json_object *o = json_object_new_object();

	show_add_int(o, "minimum-threshold", (int64_t)w->min_bytes);
	show_add_int(o, "maximum-threshold", (int64_t)w->max_bytes);
	show_add_int(o, "drop-probability", w->drop_probability);
	show_add_int(o, "weight", w->weight);
	show_add_bool(o, "ecn", w->ecn);
	return o;
}

/* `pause buffer-size ...` in bytes. */
static struct json_object *
show_pause_buffer_json(const struct policy_pause_buffer *b)
{
	struct json_object *o = json_object_new_object();

	show_add_int(o, "buffer-size", b->buffer_size);
	show_add_int(o, "pause-threshold", b->pause_threshold);
	show_add_int(o, "resume-threshold", b->resume_threshold);
	return o;
}

/* An ingress class (c-in-qN) of a queuing policy. */
static struct json_object *show_in_queue_json(const struct policy_queue *q,
                                              unsigned n)
{
	struct json_object *o = json_object_new_object();

	show_add_str(o, "name", policy_in_queue_name(n));
	if (q->pause.set)
		json_object_object_add(o, "pause-buffer",
		                       show_pause_buffer_json(&q->pause));
	return o;
}

struct json_object *show_queue_conf_json(const struct policy_queue *q,
                                         unsigned n)
{
	struct json_object *o = json_object_new_object();

	show_add_str(o, "name", policy_queue_name(n));
	if (q->priority_level)
		show_add_int(o, "priority-level", q->priority_level);
	if (q->has_bandwidth)
		show_add_int(o, "bandwidth-remaining-percent",
		             q->bandwidth_percent);
	if (q->has_bandwidth_min)
		show_add_int(o, "bandwidth-percent", q->bandwidth_min_percent);
	if (q->wred.enabled)
		json_object_object_add(o, "random-detect",
		                       show_wred_json(&q->wred));
	return o;
}

/* The queues of a queuing policy in NX-OS order: q7 .. q1, then
 * q-default (the reference lists q3, q2, q1, q-default). */
static struct json_object *show_queues_json(const struct policy_map_queuing *m)
{
	struct json_object *a = json_object_new_array();

	for (unsigned n = POLICY_NQUEUES - 1; n >= 1; n--)
		if (m->queue[n].configured)
			json_object_array_add(
			    a, show_queue_conf_json(&m->queue[n], n));
	if (m->queue[0].configured)
		json_object_array_add(a, show_queue_conf_json(&m->queue[0], 0));
	for (unsigned n = POLICY_NQUEUES; n-- > 0;)
		if (m->in_queue[n].configured)
			json_object_array_add(
			    a, show_in_queue_json(&m->in_queue[n], n));
	return a;
}

static struct json_object *show_class_qos_json(const struct policy_class_qos *c)
{
	struct json_object *o = json_object_new_object();

	show_add_str(o, "name", c->name);
	show_add_str(o, "match", c->match == POLICY_MATCH_ANY ? "any" : "all");
	if (c->cos)
		json_object_object_add(o, "cos", show_mask_json(c->cos));
	if (c->dscp)
		json_object_object_add(o, "dscp", show_mask_json(c->dscp));
	return o;
}

static struct json_object *show_class_nq_json(const struct policy_class_nq *c)
{
	struct json_object *o = json_object_new_object();

	show_add_str(o, "name", c->name);
	json_object_object_add(o, "qos-group", show_mask_json(c->qos_groups));
	return o;
}

static struct json_object *show_map_qos_json(const struct policy_map_qos *m)
{
	struct json_object *o = json_object_new_object();
	struct json_object *a = json_object_new_array();

	show_add_str(o, "name", m->name);
	for (size_t j = 0; j < m->nrules; j++) {
		struct json_object *r = json_object_new_object();

		show_add_str(r, "name", m->rules[j].class_name);
		if (m->rules[j].set_qos_group)
			show_add_int(r, "set-qos-group", m->rules[j].qos_group);
		json_object_array_add(a, r);
	}
	json_object_object_add(o, "class", a);
	return o;
}

static struct json_object *
show_map_queuing_json(const struct policy_map_queuing *m)
{
	struct json_object *o = json_object_new_object();

	show_add_str(o, "name", m->name);
	json_object_object_add(o, "class", show_queues_json(m));
	return o;
}

static struct json_object *show_map_nq_json(const struct policy_map_nq *m)
{
	struct json_object *o = json_object_new_object();
	struct json_object *a = json_object_new_array();

	show_add_str(o, "name", m->name);
	for (size_t j = 0; j < m->nrules; j++) {
		const struct policy_nq_rule *r = &m->rules[j];
		struct json_object *c = json_object_new_object();

		show_add_str(c, "name", r->class_name);
		if (r->pfc_cos)
			json_object_object_add(c, "pause-pfc-cos",
			                       show_mask_json(r->pfc_cos));
		if (r->mtu)
			show_add_int(c, "mtu", r->mtu);
		if (r->no_drop)
			show_add_bool(c, "pause-no-drop", true);
		if (r->pfc_rx_only)
			show_add_bool(c, "pause-receive-only", true);
		if (r->buffer.set)
			json_object_object_add(
			    c, "pause-buffer",
			    show_pause_buffer_json(&r->buffer));
		json_object_array_add(a, c);
	}
	json_object_object_add(o, "class", a);
	return o;
}

static struct json_object *show_iface_json(const struct policy_iface *f)
{
	struct json_object *o = json_object_new_object();

	show_add_str(o, "name", f->name);
	if (f->alias[0])
		show_add_str(o, "alias", f->alias);
	if (f->description[0])
		show_add_str(o, "description", f->description);
	if (f->mtu)
		show_add_int(o, "mtu", f->mtu);
	if (f->shutdown != POLICY_INHERIT)
		show_add_bool(o, "shutdown", f->shutdown == POLICY_ON);
	if (f->pfc_mode != POLICY_PFC_AUTO || f->watchdog != POLICY_INHERIT) {
		struct json_object *pfc = json_object_new_object();

		if (f->pfc_mode != POLICY_PFC_AUTO)
			show_add_str(pfc, "mode",
			             policy_pfc_mode_name(f->pfc_mode));
		if (f->watchdog != POLICY_INHERIT)
			show_add_bool(pfc, "watch-dog-interval",
			              f->watchdog == POLICY_ON);
		if (f->pfc_send_tlv)
			show_add_bool(pfc, "send-tlv", true);
		json_object_object_add(o, "priority-flow-control", pfc);
	}
	if (f->qdisc_takeover)
		show_add_bool(o, "qdisc-takeover", true);
	if (f->qos_input[0] || f->queuing_output[0] || f->queuing_input[0]) {
		struct json_object *sp = json_object_new_object();

		if (f->qos_input[0])
			show_add_str(sp, "qos-input", f->qos_input);
		if (f->queuing_output[0])
			show_add_str(sp, "queuing-output", f->queuing_output);
		if (f->queuing_input[0])
			show_add_str(sp, "queuing-input", f->queuing_input);
		json_object_object_add(o, "service-policy", sp);
	}
	return o;
}

static struct json_object *show_pfcwd_json(const struct policy_pfcwd *w)
{
	struct json_object *o = json_object_new_object();
	struct json_object *wd = json_object_new_object();

	show_add_bool(o, "watch-dog-interval", w->enabled);
	show_add_int(wd, "interval", w->poll_ms);
	show_add_int(wd, "shutdown-multiplier", w->shutdown_mult);
	show_add_int(wd, "internal-interface-multiplier", w->internal_if_mult);
	json_object_object_add(o, "watch-dog", wd);
	show_add_int(o, "auto-restore-multiplier", w->auto_restore_mult);
	show_add_int(o, "fixed-restore-multiplier", w->fixed_restore_mult);
	return o;
}

static void show_policy_qos_parts(const struct policy *p, struct json_object *o)
{
	struct json_object *cm = json_object_new_object();
	struct json_object *pm = json_object_new_object();
	struct json_object *a;

	a = json_object_new_array();
	for (size_t i = 0; i < p->nclass_qos; i++)
		json_object_array_add(a, show_class_qos_json(&p->class_qos[i]));
	json_object_object_add(cm, "qos", a);
	a = json_object_new_array();
	for (size_t i = 0; i < p->nclass_nq; i++)
		json_object_array_add(a, show_class_nq_json(&p->class_nq[i]));
	json_object_object_add(cm, "network-qos", a);
	json_object_object_add(o, "class-map", cm);

	a = json_object_new_array();
	for (size_t i = 0; i < p->nmap_qos; i++)
		json_object_array_add(a, show_map_qos_json(&p->map_qos[i]));
	json_object_object_add(pm, "qos", a);
	a = json_object_new_array();
	for (size_t i = 0; i < p->nmap_queuing; i++)
		json_object_array_add(
		    a, show_map_queuing_json(&p->map_queuing[i]));
	json_object_object_add(pm, "queuing", a);
	a = json_object_new_array();
	for (size_t i = 0; i < p->nmap_nq; i++)
		json_object_array_add(a, show_map_nq_json(&p->map_nq[i]));
	json_object_object_add(pm, "network-qos", a);
	json_object_object_add(o, "policy-map", pm);

	if (p->system.network_qos[0] || p->system.qos_input[0] ||
	    p->system.queuing_output[0] || p->system.queuing_input[0]) {
		struct json_object *sq = json_object_new_object();
		struct json_object *sp = json_object_new_object();

		if (p->system.network_qos[0])
			show_add_str(sp, "network-qos", p->system.network_qos);
		if (p->system.qos_input[0])
			show_add_str(sp, "qos-input", p->system.qos_input);
		if (p->system.queuing_output[0])
			show_add_str(sp, "queuing-output",
			             p->system.queuing_output);
		if (p->system.queuing_input[0])
			show_add_str(sp, "queuing-input",
			             p->system.queuing_input);
		json_object_object_add(sq, "service-policy", sp);
		json_object_object_add(o, "system-qos", sq);
	}
}

struct json_object *show_policy_json(const struct policy *p,
                                     const char *section)
{
	struct json_object *o = json_object_new_object();
	struct json_object *ifs;

	if (!o)
		return NULL;
	if (section && strcmp(section, "qos")) {
		const struct policy_iface *f = policy_find_iface(p, section);

		ifs = json_object_new_array();
		if (f)
			json_object_array_add(ifs, show_iface_json(f));
		json_object_object_add(o, "interface", ifs);
		return o;
	}
	show_policy_qos_parts(p, o);
	if (!section) {
		ifs = json_object_new_array();
		for (size_t i = 0; i < p->nifaces; i++)
			json_object_array_add(ifs,
			                      show_iface_json(&p->ifaces[i]));
		json_object_object_add(o, "interface", ifs);
	}
	json_object_object_add(o, "priority-flow-control",
	                       show_pfcwd_json(&p->pfcwd));
	if (p->pfc_mc_drop)
		show_add_bool(o, "hardware-qos-pfc-mc-drop", true);
	{
		/* roced.conf's `roce`, as the file writer says it */
		uint32_t edited;
		enum policy_roce_mode m = policy_roce_mode(p, &edited);

		if (m != POLICY_ROCE_NONE && !edited)
			show_add_str(o, "roce", policy_roce_mode_name(m));
	}
	return o;
}

/* --- show class-map / show policy-map --- */

static bool show_match(const char *want, const char *name)
{
	return !want[0] || !strcmp(want, name);
}

int show_class_map_json(const struct policy *p, const char *name,
                        struct json_object **out, char *err, size_t errlen)
{
	struct json_object *a = json_object_new_array();
	struct json_object *o;

	for (size_t i = 0; i < p->nclass_qos; i++) {
		if (!show_match(name, p->class_qos[i].name))
			continue;
		o = show_class_qos_json(&p->class_qos[i]);
		show_add_str(o, "type", "qos");
		json_object_array_add(a, o);
	}
	/* The queuing classes are NX-OS built-ins: queue N serves
	 * qos-group N. */
	for (unsigned q = 0; q < POLICY_NQUEUES; q++) {
		if (!show_match(name, policy_queue_name(q)))
			continue;
		o = json_object_new_object();
		show_add_str(o, "name", policy_queue_name(q));
		show_add_str(o, "type", "queuing");
		show_add_str(o, "match", "any");
		json_object_object_add(o, "qos-group", show_mask_json(1u << q));
		json_object_array_add(a, o);
	}
	for (size_t i = 0; i < p->nclass_nq; i++) {
		if (!show_match(name, p->class_nq[i].name))
			continue;
		o = show_class_nq_json(&p->class_nq[i]);
		show_add_str(o, "type", "network-qos");
		json_object_array_add(a, o);
	}
	/* The Nexus 9000 system-defined classes: network-qos c-8q-nqN
	 * serves qos-group N, ingress queuing c-in-qN priority N. */
	for (unsigned q = 0; q < POLICY_NQUEUES; q++) {
		if (!show_match(name, policy_nq_system_name(q)))
			continue;
		o = json_object_new_object();
		show_add_str(o, "name", policy_nq_system_name(q));
		show_add_str(o, "type", "network-qos");
		json_object_object_add(o, "qos-group", show_mask_json(1u << q));
		json_object_array_add(a, o);
	}
	for (unsigned q = 0; q < POLICY_NQUEUES; q++) {
		if (!show_match(name, policy_in_queue_name(q)))
			continue;
		o = json_object_new_object();
		show_add_str(o, "name", policy_in_queue_name(q));
		show_add_str(o, "type", "queuing");
		show_add_str(o, "match", "any");
		json_object_object_add(o, "qos-group", show_mask_json(1u << q));
		json_object_array_add(a, o);
	}
	if (name[0] && !json_object_array_length(a)) {
		json_object_put(a);
		snprintf(err, errlen, "%% class-map %s does not exist", name);
		return -1;
	}
	*out = json_object_new_object();
	json_object_object_add(*out, "class-map", a);
	return 0;
}

int show_policy_map_json(const struct policy *p, const char *name,
                         struct json_object **out, char *err, size_t errlen)
{
	struct json_object *a = json_object_new_array();
	struct json_object *o;

	for (size_t i = 0; i < p->nmap_qos; i++) {
		if (!show_match(name, p->map_qos[i].name))
			continue;
		o = show_map_qos_json(&p->map_qos[i]);
		show_add_str(o, "type", "qos");
		json_object_array_add(a, o);
	}
	for (size_t i = 0; i < p->nmap_queuing; i++) {
		if (!show_match(name, p->map_queuing[i].name))
			continue;
		o = show_map_queuing_json(&p->map_queuing[i]);
		show_add_str(o, "type", "queuing");
		json_object_array_add(a, o);
	}
	for (size_t i = 0; i < p->nmap_nq; i++) {
		if (!show_match(name, p->map_nq[i].name))
			continue;
		o = show_map_nq_json(&p->map_nq[i]);
		show_add_str(o, "type", "network-qos");
		json_object_array_add(a, o);
	}
	if (name[0] && !json_object_array_length(a)) {
		json_object_put(a);
		snprintf(err, errlen, "%% policy-map %s does not exist", name);
		return -1;
	}
	*out = json_object_new_object();
	json_object_object_add(*out, "policy-map", a);
	return 0;
}

/* --- narrowing: type, system --- */

/* Whether the map M (a "class-map" or "policy-map" entry) is one Q asks
 * for: of its type, and with `system`, attached in system qos. */
static bool show_narrow_keep(struct json_object *m, const struct show_query *q,
                             const struct policy *p)
{
	struct json_object *v;
	const char *type = "", *name = "";
	const struct policy_system *s = &p->system;

	if (json_object_object_get_ex(m, "type", &v))
		type = json_object_get_string(v);
	if (json_object_object_get_ex(m, "name", &v))
		name = json_object_get_string(v);
	if (q->type[0] && strcmp(type, q->type))
		return false;
	if (!q->system)
		return true;
	if (!strcmp(type, "network-qos"))
		return !strcmp(name, s->network_qos);
	if (!strcmp(type, "qos"))
		return !strcmp(name, s->qos_input);
	return !strcmp(name, s->queuing_output) ||
	       !strcmp(name, s->queuing_input);
}

void show_narrow_maps(struct json_object *data, const char *key,
                      const struct show_query *q, const struct policy *p)
{
	struct json_object *a, *keep;

	if ((!q->type[0] && !q->system) ||
	    !json_object_object_get_ex(data, key, &a))
		return;
	keep = json_object_new_array();
	for (size_t i = 0; keep && i < json_object_array_length(a); i++) {
		struct json_object *m = json_object_array_get_idx(a, i);

		if (show_narrow_keep(m, q, p))
			json_object_array_add(keep, json_object_get(m));
	}
	if (keep)
		json_object_object_add(data, key, keep);
}

void show_narrow_ports(struct json_object *data, const struct show_query *q)
{
	struct json_object *a, *sp;

	if (!q->type[0] || !json_object_object_get_ex(data, "interface", &a))
		return;
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		struct json_object *f = json_object_array_get_idx(a, i);

		if (!json_object_object_get_ex(f, "service-policy", &sp))
			continue;
		if (strcmp(q->type, "qos"))
			json_object_object_del(sp, "qos-input");
		if (strcmp(q->type, "queuing"))
			json_object_object_del(sp, "queuing-output");
	}
}
