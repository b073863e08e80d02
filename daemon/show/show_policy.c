/* show_policy: the policy as JSON: the whole of it in the config file's
 * structure (show running-config / startup-config json), and the
 * class-map and policy-map views (show class-map, show policy-map). */
#include <stdio.h>
#include <string.h>

#include "conf/conf.h"
#include "model/setting.h"
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

/* The JSON back end of setting_visit: the object of each depth, the
 * rows' values by their JSON key, each nested group an object of its
 * own under its key. */
struct show_settings_visit {
	struct json_object *o[SETTING_NPLACES + 1];
};

static void show_settings_row(void *ctx, unsigned depth,
                              const struct setting *s, uint32_t v)
{
	struct show_settings_visit *w = ctx;

	if (s->type == SETTING_BOOL)
		show_add_bool(w->o[depth], s->json, v != 0);
	else if (s->type == SETTING_ENUM)
		show_add_str(w->o[depth], s->json, s->names->name((int)v));
	else
		show_add_int(w->o[depth], s->json, v);
}

static void show_settings_open(void *ctx, unsigned depth,
                               enum setting_place sub)
{
	struct show_settings_visit *w = ctx;

	(void)sub;
	w->o[depth + 1] = json_object_new_object();
}

static void show_settings_close(void *ctx, unsigned depth,
                                enum setting_place sub)
{
	struct show_settings_visit *w = ctx;

	json_object_object_add(w->o[depth], setting_place_key(sub),
	                       w->o[depth + 1]);
}

/* The rows of PLACE in BASE that the JSON holds (those the file holds),
 * into O; a nested place's object comes where its first row is. */
static void show_settings_json(struct json_object *o, enum setting_place place,
                               const void *base)
{
	static const struct setting_visitor v = {
	    show_settings_row, show_settings_open, show_settings_close};
	struct show_settings_visit w = {.o = {o}};

	setting_visit(place, base, &v, &w);
}

static struct json_object *show_wred_json(const struct policy_wred *w)
{
	struct json_object *o = json_object_new_object();

	show_add_int(o, conf_key_name(CONF_K_MINIMUM_THRESHOLD),
	             (int64_t)w->min_bytes);
	show_add_int(o, conf_key_name(CONF_K_MAXIMUM_THRESHOLD),
	             (int64_t)w->max_bytes);
	show_add_int(o, conf_key_name(CONF_K_DROP_PROBABILITY),
	             w->drop_probability);
	show_add_int(o, conf_key_name(CONF_K_WEIGHT), w->weight);
	show_add_bool(o, conf_key_name(CONF_K_ECN), w->ecn);
	return o;
}

/* `pause buffer-size ...` in bytes. */
static struct json_object *
show_pause_buffer_json(const struct policy_pause_buffer *b)
{
	struct json_object *o = json_object_new_object();

	show_add_int(o, conf_key_name(CONF_K_BUFFER_SIZE), b->buffer_size);
	show_add_int(o, conf_key_name(CONF_K_PAUSE_THRESHOLD),
	             b->pause_threshold);
	show_add_int(o, conf_key_name(CONF_K_RESUME_THRESHOLD),
	             b->resume_threshold);
	return o;
}

/* An ingress class (c-in-qN) of a queuing policy. */
static struct json_object *show_in_queue_json(const struct policy_queue *q,
                                              unsigned n)
{
	struct json_object *o = json_object_new_object();

	show_add_str(o, conf_key_name(CONF_K_NAME), policy_in_queue_name(n));
	if (q->pause.set)
		json_object_object_add(o, conf_key_name(CONF_K_PAUSE_BUFFER),
		                       show_pause_buffer_json(&q->pause));
	return o;
}

struct json_object *show_queue_conf_json(const struct policy_queue *q,
                                         unsigned n)
{
	struct json_object *o = json_object_new_object();

	show_add_str(o, conf_key_name(CONF_K_NAME), policy_queue_name_of(q, n));
	if (q->priority_level)
		show_add_int(o, conf_key_name(CONF_K_PRIORITY_LEVEL),
		             q->priority_level);
	if (q->has_bandwidth)
		show_add_int(o,
		             conf_key_name(CONF_K_BANDWIDTH_REMAINING_PERCENT),
		             q->bandwidth_percent);
	if (q->has_bandwidth_min)
		show_add_int(o, conf_key_name(CONF_K_BANDWIDTH_PERCENT),
		             q->bandwidth_min_percent);
	if (q->wred.enabled)
		json_object_object_add(o, conf_key_name(CONF_K_RANDOM_DETECT),
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

	show_add_str(o, conf_key_name(CONF_K_NAME), c->name);
	show_add_str(o, conf_key_name(CONF_K_MATCH),
	             policy_match_name(c->match));
	if (c->cos)
		json_object_object_add(o, conf_key_name(CONF_K_COS),
		                       show_mask_json(c->cos));
	if (c->dscp)
		json_object_object_add(o, conf_key_name(CONF_K_DSCP),
		                       show_mask_json(c->dscp));
	return o;
}

static struct json_object *show_class_nq_json(const struct policy_class_nq *c)
{
	struct json_object *o = json_object_new_object();

	show_add_str(o, conf_key_name(CONF_K_NAME), c->name);
	json_object_object_add(o, conf_key_name(CONF_K_QOS_GROUP),
	                       show_mask_json(c->qos_groups));
	return o;
}

static struct json_object *show_map_qos_json(const struct policy_map_qos *m)
{
	struct json_object *o = json_object_new_object();
	struct json_object *a = json_object_new_array();

	show_add_str(o, conf_key_name(CONF_K_NAME), m->name);
	for (size_t j = 0; j < m->nrules; j++) {
		struct json_object *r = json_object_new_object();

		show_add_str(r, conf_key_name(CONF_K_NAME),
		             m->rules[j].class_name);
		if (m->rules[j].set_qos_group)
			show_add_int(r, conf_key_name(CONF_K_SET_QOS_GROUP),
			             m->rules[j].qos_group);
		json_object_array_add(a, r);
	}
	json_object_object_add(o, conf_key_name(CONF_K_CLASS), a);
	return o;
}

static struct json_object *
show_map_queuing_json(const struct policy_map_queuing *m)
{
	struct json_object *o = json_object_new_object();

	show_add_str(o, conf_key_name(CONF_K_NAME), m->name);
	json_object_object_add(o, conf_key_name(CONF_K_CLASS),
	                       show_queues_json(m));
	return o;
}

static struct json_object *show_map_nq_json(const struct policy_map_nq *m)
{
	struct json_object *o = json_object_new_object();
	struct json_object *a = json_object_new_array();

	show_add_str(o, conf_key_name(CONF_K_NAME), m->name);
	for (size_t j = 0; j < m->nrules; j++) {
		const struct policy_nq_rule *r = &m->rules[j];
		struct json_object *c = json_object_new_object();

		show_add_str(c, conf_key_name(CONF_K_NAME), r->class_name);
		if (r->pfc_cos)
			json_object_object_add(
			    c, conf_key_name(CONF_K_PAUSE_PFC_COS),
			    show_mask_json(r->pfc_cos));
		if (r->mtu)
			show_add_int(c, conf_key_name(CONF_K_MTU), r->mtu);
		if (r->no_drop)
			show_add_bool(c, conf_key_name(CONF_K_PAUSE_NO_DROP),
			              true);
		if (r->pfc_rx_only)
			show_add_bool(
			    c, conf_key_name(CONF_K_PAUSE_RECEIVE_ONLY), true);
		if (r->buffer.set)
			json_object_object_add(
			    c, conf_key_name(CONF_K_PAUSE_BUFFER),
			    show_pause_buffer_json(&r->buffer));
		json_object_array_add(a, c);
	}
	json_object_object_add(o, conf_key_name(CONF_K_CLASS), a);
	return o;
}

/* The settings of PLACE in BASE (the policy, or an interface for its
 * places) as the object of its key in O, when it has any to show. */
static void show_place_json(struct json_object *o, enum setting_place place,
                            const void *base)
{
	struct json_object *g;

	if (!setting_place_written(place, base, true))
		return;
	g = json_object_new_object();
	show_settings_json(g, place, base);
	json_object_object_add(o, setting_place_key(place), g);
}

/* An interface's lldp group: its rows and its own dcbx agent. */
static void show_iface_lldp_json(struct json_object *o,
                                 const struct policy_iface *f)
{
	struct json_object *g;

	if (!setting_place_written(SETTING_AT_IFACE_LLDP, f, true) &&
	    !f->lldp.has_agent)
		return;
	g = json_object_new_object();
	show_settings_json(g, SETTING_AT_IFACE_LLDP, f);
	if (f->lldp.has_agent)
		show_add_str(g, conf_key_name(CONF_K_DCBX_AGENT),
		             policy_dcbx_agent_name(f->lldp.agent));
	json_object_object_add(o, conf_key_name(CONF_K_LLDP), g);
}

static struct json_object *show_iface_json(const struct policy_iface *f)
{
	struct json_object *o = json_object_new_object();

	show_add_str(o, conf_key_name(CONF_K_NAME), f->name);
	if (f->alias[0])
		show_add_str(o, conf_key_name(CONF_K_ALIAS), f->alias);
	if (f->description[0])
		show_add_str(o, conf_key_name(CONF_K_DESCRIPTION),
		             f->description);
	show_settings_json(o, SETTING_AT_IFACE_HEAD, f); /* mtu */
	if (f->shutdown != POLICY_INHERIT)
		show_add_bool(o, conf_key_name(CONF_K_SHUTDOWN),
		              f->shutdown == POLICY_ON);
	if (f->pfc_mode != POLICY_PFC_AUTO || f->watchdog != POLICY_INHERIT ||
	    setting_place_written(SETTING_AT_IFACE_PFC, f, true)) {
		struct json_object *pfc = json_object_new_object();

		if (f->pfc_mode != POLICY_PFC_AUTO)
			show_add_str(pfc, conf_key_name(CONF_K_MODE),
			             policy_pfc_mode_name(f->pfc_mode));
		if (f->watchdog != POLICY_INHERIT)
			show_add_bool(pfc,
			              conf_key_name(CONF_K_WATCH_DOG_INTERVAL),
			              f->watchdog == POLICY_ON);
		if (f->pfc_send_tlv)
			show_add_bool(pfc, conf_key_name(CONF_K_SEND_TLV),
			              true);
		show_settings_json(pfc, SETTING_AT_IFACE_PFC, f);
		json_object_object_add(
		    o, conf_key_name(CONF_K_PRIORITY_FLOW_CONTROL), pfc);
	}
	/* qdisc-takeover, fabric-internal, ... */
	show_settings_json(o, SETTING_AT_IFACE, f);
	show_place_json(o, SETTING_AT_IFACE_FC, f);
	show_iface_lldp_json(o, f);
	if (f->qos_input[0] || f->queuing_output[0] || f->queuing_input[0]) {
		struct json_object *sp = json_object_new_object();

		if (f->qos_input[0])
			show_add_str(sp, conf_key_name(CONF_K_QOS_INPUT),
			             f->qos_input);
		if (f->queuing_output[0])
			show_add_str(sp, conf_key_name(CONF_K_QUEUING_OUTPUT),
			             f->queuing_output);
		if (f->queuing_input[0])
			show_add_str(sp, conf_key_name(CONF_K_QUEUING_INPUT),
			             f->queuing_input);
		json_object_object_add(o, conf_key_name(CONF_K_SERVICE_POLICY),
		                       sp);
	}
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
	json_object_object_add(cm, conf_key_name(CONF_K_QOS), a);
	a = json_object_new_array();
	for (size_t i = 0; i < p->nclass_nq; i++)
		json_object_array_add(a, show_class_nq_json(&p->class_nq[i]));
	json_object_object_add(cm, conf_key_name(CONF_K_NETWORK_QOS), a);
	json_object_object_add(o, conf_key_name(CONF_K_CLASS_MAP), cm);

	a = json_object_new_array();
	for (size_t i = 0; i < p->nmap_qos; i++)
		json_object_array_add(a, show_map_qos_json(&p->map_qos[i]));
	json_object_object_add(pm, conf_key_name(CONF_K_QOS), a);
	a = json_object_new_array();
	for (size_t i = 0; i < p->nmap_queuing; i++)
		json_object_array_add(
		    a, show_map_queuing_json(&p->map_queuing[i]));
	json_object_object_add(pm, conf_key_name(CONF_K_QUEUING), a);
	a = json_object_new_array();
	for (size_t i = 0; i < p->nmap_nq; i++)
		json_object_array_add(a, show_map_nq_json(&p->map_nq[i]));
	json_object_object_add(pm, conf_key_name(CONF_K_NETWORK_QOS), a);
	json_object_object_add(o, conf_key_name(CONF_K_POLICY_MAP), pm);

	if (p->system.network_qos[0] || p->system.qos_input[0] ||
	    p->system.queuing_output[0] || p->system.queuing_input[0]) {
		struct json_object *sq = json_object_new_object();
		struct json_object *sp = json_object_new_object();

		if (p->system.network_qos[0])
			show_add_str(sp, conf_key_name(CONF_K_NETWORK_QOS),
			             p->system.network_qos);
		if (p->system.qos_input[0])
			show_add_str(sp, conf_key_name(CONF_K_QOS_INPUT),
			             p->system.qos_input);
		if (p->system.queuing_output[0])
			show_add_str(sp, conf_key_name(CONF_K_QUEUING_OUTPUT),
			             p->system.queuing_output);
		if (p->system.queuing_input[0])
			show_add_str(sp, conf_key_name(CONF_K_QUEUING_INPUT),
			             p->system.queuing_input);
		json_object_object_add(sq, conf_key_name(CONF_K_SERVICE_POLICY),
		                       sp);
		json_object_object_add(o, conf_key_name(CONF_K_SYSTEM_QOS), sq);
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
		json_object_object_add(o, conf_key_name(CONF_K_INTERFACE), ifs);
		return o;
	}
	show_policy_qos_parts(p, o);
	if (!section) {
		ifs = json_object_new_array();
		for (size_t i = 0; i < p->nifaces; i++)
			json_object_array_add(ifs,
			                      show_iface_json(&p->ifaces[i]));
		json_object_object_add(o, conf_key_name(CONF_K_INTERFACE), ifs);
	}
	/* the watchdog, hardware qos pfc mc-drop, LLDP's timers */
	show_place_json(o, SETTING_AT_PFC, p);
	show_settings_json(o, SETTING_AT_TOP, p);
	show_place_json(o, SETTING_AT_LLDP, p);
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
		show_add_str(o, conf_key_name(CONF_K_NAME),
		             policy_queue_name(q));
		show_add_str(o, "type", "queuing");
		show_add_str(o, conf_key_name(CONF_K_MATCH),
		             policy_match_name(POLICY_MATCH_ANY));
		json_object_object_add(o, conf_key_name(CONF_K_QOS_GROUP),
		                       show_mask_json(1u << q));
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
		show_add_str(o, conf_key_name(CONF_K_NAME),
		             policy_nq_system_name(q));
		show_add_str(o, "type", "network-qos");
		json_object_object_add(o, conf_key_name(CONF_K_QOS_GROUP),
		                       show_mask_json(1u << q));
		json_object_array_add(a, o);
	}
	for (unsigned q = 0; q < POLICY_NQUEUES; q++) {
		if (!show_match(name, policy_in_queue_name(q)))
			continue;
		o = json_object_new_object();
		show_add_str(o, conf_key_name(CONF_K_NAME),
		             policy_in_queue_name(q));
		show_add_str(o, "type", "queuing");
		show_add_str(o, conf_key_name(CONF_K_MATCH),
		             policy_match_name(POLICY_MATCH_ANY));
		json_object_object_add(o, conf_key_name(CONF_K_QOS_GROUP),
		                       show_mask_json(1u << q));
		json_object_array_add(a, o);
	}
	if (name[0] && !json_object_array_length(a)) {
		json_object_put(a);
		snprintf(err, errlen, "%% class-map %s does not exist", name);
		return -1;
	}
	*out = json_object_new_object();
	json_object_object_add(*out, conf_key_name(CONF_K_CLASS_MAP), a);
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
	json_object_object_add(*out, conf_key_name(CONF_K_POLICY_MAP), a);
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
	if (json_object_object_get_ex(m, conf_key_name(CONF_K_NAME), &v))
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

	if (!q->type[0] || !json_object_object_get_ex(
	                       data, conf_key_name(CONF_K_INTERFACE), &a))
		return;
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		struct json_object *f = json_object_array_get_idx(a, i);

		if (!json_object_object_get_ex(
		        f, conf_key_name(CONF_K_SERVICE_POLICY), &sp))
			continue;
		if (strcmp(q->type, "qos"))
			json_object_object_del(sp,
			                       conf_key_name(CONF_K_QOS_INPUT));
		if (strcmp(q->type, "queuing"))
			json_object_object_del(
			    sp, conf_key_name(CONF_K_QUEUING_OUTPUT));
	}
}
