/* cmd_running: `show running-config`, the policy as NX-OS lines.
 *
 * The order and indentation are the reference configuration's
 * (conf/nxos-roce.txt): qos class-maps, qos policy-maps, queuing
 * policy-maps, network-qos class-maps and policy-maps, system qos, the
 * interfaces, then the global PFC watchdog; two spaces per nesting
 * level, as NX-OS prints it (the printers below write one per level and
 * cmd_running_config doubles them). Queues print from q7 down to
 * q-default, as NX-OS lists them. Defaults are left out, so an empty
 * policy prints nothing.
 *
 * Everything printed is a command of cmd_nxos.c in its canonical form, so
 * that pasting the text into rocesh (or cmd_apply_line) rebuilds an equal
 * policy. An interface prints by its NX-OS name when it has one
 * (`interface Ethernet1/1`, as the switch prints it), else by its Linux
 * name: the alias names the port once roced.conf or an `alias` line has
 * given it, so the text pastes back into the roced it came from. The global
 * watchdog lines that follow the interfaces (as in the reference) come
 * after a `!`, which ends the last interface block when pasted.
 */
#include "cmd/cmd_int.h"

#include <stdio.h>
#include <string.h>

#include "model/setting.h"
#include "model/units.h"

/* The rows of PLACE, and of the places nested in it, that differ from
 * their defaults: one line each, after PREFIX (the nesting). */
static void cmd_running_settings(enum setting_place place, const void *base,
                                 const char *prefix, struct strbuf *out)
{
	char num[16];

	for (size_t k = 0; k < setting_count; k++) {
		const struct setting *s = &setting_table[k];
		uint32_t v;

		/* Only a row of PLACE is read (BASE is the policy or an
		 * interface, and another place's row the other's field). */
		if (!setting_place_within(s->place, place) ||
		    !setting_is_set(s, base))
			continue;
		v = setting_get(s, base);
		if (s->type == SETTING_BOOL && !(s->flags & SETTING_F_ONOFF))
			strbuf_printf(out, "%s%s%s\n", prefix, v ? "" : "no ",
			              s->nxos);
		else
			strbuf_printf(
			    out, "%s%s %s\n", prefix, s->nxos,
			    setting_value_text(s, v, true, num, sizeof(num)));
	}
}

static void cmd_running_descr(const char *d, struct strbuf *out)
{
	if (d[0])
		strbuf_printf(out, " description %s\n", d);
}

static void cmd_running_class_qos(const struct policy *p, struct strbuf *out)
{
	char list[256];

	for (size_t i = 0; i < p->nclass_qos; i++) {
		const struct policy_class_qos *c = &p->class_qos[i];

		uint64_t dscp =
		    c->dscp & ~policy_precedence_dscp(c->precedence);

		strbuf_printf(out, "class-map type qos %s %s\n",
		              c->match == POLICY_MATCH_ANY ? "match-any"
		                                           : "match-all",
		              c->name);
		cmd_running_descr(c->description, out);
		if (c->cos) {
			policy_list_format(c->cos, list, sizeof(list));
			strbuf_printf(out, " match cos %s\n", list);
		}
		/* the precedences' DSCP values are theirs, not match dscp's */
		if (dscp) {
			policy_list_format(dscp, list, sizeof(list));
			strbuf_printf(out, " match dscp %s\n", list);
		}
		if (c->precedence) {
			policy_list_format(c->precedence, list, sizeof(list));
			strbuf_printf(out, " match precedence %s\n", list);
		}
	}
}

static void cmd_running_map_qos(const struct policy *p, struct strbuf *out)
{
	for (size_t i = 0; i < p->nmap_qos; i++) {
		const struct policy_map_qos *m = &p->map_qos[i];

		strbuf_printf(out, "policy-map type qos %s\n", m->name);
		cmd_running_descr(m->description, out);
		for (size_t r = 0; r < m->nrules; r++) {
			const struct policy_qos_rule *q = &m->rules[r];

			strbuf_printf(out, " class %s\n", q->class_name);
			if (q->set_qos_group)
				strbuf_printf(out, "  set qos-group %u\n",
				              q->qos_group);
			if (q->set_dscp)
				strbuf_printf(out, "  set dscp %u\n", q->dscp);
			if (q->set_cos)
				strbuf_printf(out, "  set cos %u\n", q->cos);
		}
	}
}

static void cmd_running_wred(const struct policy_wred *w, struct strbuf *out)
{
	char min[48], max[48];

	units_bytes_format(w->min_bytes, min, sizeof(min));
	units_bytes_format(w->max_bytes, max, sizeof(max));
	strbuf_printf(out,
	              "  random-detect minimum-threshold %s maximum-threshold "
	              "%s drop-probability %u weight %u%s\n",
	              min, max, w->drop_probability, w->weight,
	              w->ecn ? " ecn" : "");
}

static void cmd_running_pause_buffer(const struct policy_pause_buffer *b,
                                     uint8_t pfc_cos, struct strbuf *out)
{
	char list[64];

	strbuf_printf(out,
	              "  pause buffer-size %u pause-threshold %u "
	              "resume-threshold %u",
	              b->buffer_size, b->pause_threshold, b->resume_threshold);
	if (pfc_cos) {
		policy_list_format(pfc_cos, list, sizeof(list));
		strbuf_printf(out, " pfc-cos %s", list);
	}
	strbuf_puts(out, "\n");
}

static void cmd_running_queue_limit(const struct policy_queue *q,
                                    struct strbuf *out)
{
	char size[48];

	if (q->queue_limit_dynamic)
		strbuf_printf(out, "  queue-limit dynamic %u\n",
		              q->queue_limit_dynamic - 1u);
	if (!q->queue_limit_bytes)
		return;
	units_bytes_format(q->queue_limit_bytes, size, sizeof(size));
	strbuf_printf(out, "  queue-limit queue-size %s\n", size);
}

/* A queue's WRED profile and shaping. */
static void cmd_running_queue_more(const struct policy_queue *q,
                                   struct strbuf *out)
{
	char min[48], max[48];

	if (q->wred_profile)
		strbuf_printf(
		    out, "  random-detect threshold %s%s\n",
		    policy_wred_profile_name(
		        (enum policy_wred_profile)(q->wred_profile - 1)),
		    q->wred_profile_ecn ? " ecn" : "");
	if (!q->shape_max_kbps)
		return;
	units_kbps_format(q->shape_min_kbps, min, sizeof(min));
	units_kbps_format(q->shape_max_kbps, max, sizeof(max));
	strbuf_printf(out, "  shape min %s max %s\n", min, max);
}

/* The ingress classes of a queuing policy, c-in-q7 .. c-in-q-default. */
static void cmd_running_in_queues(const struct policy_map_queuing *m,
                                  struct strbuf *out)
{
	for (unsigned k = POLICY_NQUEUES; k-- > 0;) {
		const struct policy_queue *q = &m->in_queue[k];

		if (!q->configured)
			continue;
		strbuf_printf(out, " class type queuing %s\n",
		              policy_in_queue_name(k));
		if (q->pause.set)
			cmd_running_pause_buffer(&q->pause, 0, out);
	}
}

/* The N3K/N5K queuing class-maps: a user name of one queue each. */
static void cmd_running_qclasses(const struct policy *p, struct strbuf *out)
{
	char list[64];

	for (size_t i = 0; i < p->nqclasses; i++) {
		const struct policy_qclass *c = &p->qclasses[i];

		strbuf_printf(out, "class-map type queuing %s\n", c->name);
		if (c->qos_groups) {
			policy_list_format(c->qos_groups, list, sizeof(list));
			strbuf_printf(out, " match qos-group %s\n", list);
		}
	}
}

static void cmd_running_map_queuing(const struct policy *p, struct strbuf *out)
{
	for (size_t i = 0; i < p->nmap_queuing; i++) {
		const struct policy_map_queuing *m = &p->map_queuing[i];

		strbuf_printf(out, "policy-map type queuing %s\n", m->name);
		cmd_running_descr(m->description, out);
		for (unsigned k = POLICY_NQUEUES; k-- > 0;) {
			/* q7 .. q1, then q-default (queue 0) last */
			unsigned n = k;
			const struct policy_queue *q = &m->queue[n];

			if (!q->configured)
				continue;
			strbuf_printf(out, " class type queuing %s\n",
			              policy_queue_name_of(q, n));
			if (q->priority_level)
				strbuf_printf(out, "  priority level %u\n",
				              q->priority_level);
			if (q->has_bandwidth_min)
				strbuf_printf(out, "  bandwidth percent %u\n",
				              q->bandwidth_min_percent);
			if (q->has_bandwidth)
				strbuf_printf(out,
				              "  bandwidth remaining percent "
				              "%u\n",
				              q->bandwidth_percent);
			if (q->wred.enabled)
				cmd_running_wred(&q->wred, out);
			cmd_running_queue_limit(q, out);
			cmd_running_queue_more(q, out);
		}
		cmd_running_in_queues(m, out);
	}
}

static void cmd_running_nq(const struct policy *p, struct strbuf *out)
{
	char list[64];

	for (size_t i = 0; i < p->nclass_nq; i++) {
		const struct policy_class_nq *c = &p->class_nq[i];

		strbuf_printf(out, "class-map type network-qos %s\n", c->name);
		cmd_running_descr(c->description, out);
		if (c->qos_groups) {
			policy_list_format(c->qos_groups, list, sizeof(list));
			strbuf_printf(out, " match qos-group %s\n", list);
		}
	}
	for (size_t i = 0; i < p->nmap_nq; i++) {
		const struct policy_map_nq *m = &p->map_nq[i];

		strbuf_printf(out, "policy-map type network-qos %s\n", m->name);
		cmd_running_descr(m->description, out);
		for (size_t r = 0; r < m->nrules; r++) {
			const struct policy_nq_rule *nr = &m->rules[r];

			strbuf_printf(out, " class type network-qos %s\n",
			              nr->class_name);
			if (nr->buffer.set) {
				cmd_running_pause_buffer(&nr->buffer,
				                         nr->pfc_cos, out);
			}
			/* the buffer's line cannot say receive-only */
			if (nr->pfc_cos &&
			    (!nr->buffer.set || nr->pfc_rx_only)) {
				policy_list_format(nr->pfc_cos, list,
				                   sizeof(list));
				strbuf_printf(
				    out, "  pause pfc-cos %s%s\n", list,
				    nr->pfc_rx_only ? " receive-only" : "");
			}
			if (nr->no_drop)
				strbuf_puts(out, "  pause no-drop\n");
			if (nr->mtu)
				strbuf_printf(out, "  mtu %u\n", nr->mtu);
		}
	}
}

/* The service-policy lines of system qos (NETWORK_QOS: its own) and of
 * an interface (NULL), the same in an interface's plain and `all` form. */
static void cmd_running_policies(const char *network_qos, const char *qos_input,
                                 const char *queuing_output,
                                 const char *queuing_input, struct strbuf *out)
{
	if (network_qos && network_qos[0])
		strbuf_printf(out, " service-policy type network-qos %s\n",
		              network_qos);
	if (qos_input[0])
		strbuf_printf(out, " service-policy type qos input %s\n",
		              qos_input);
	if (queuing_output[0])
		strbuf_printf(out, " service-policy type queuing output %s\n",
		              queuing_output);
	if (queuing_input[0])
		strbuf_printf(out, " service-policy type queuing input %s\n",
		              queuing_input);
}

static void cmd_running_system(const struct policy *p, struct strbuf *out)
{
	const struct policy_system *s = &p->system;

	if (!s->network_qos[0] && !s->qos_input[0] && !s->queuing_output[0] &&
	    !s->queuing_input[0])
		return;
	strbuf_puts(out, "system qos\n");
	cmd_running_policies(s->network_qos, s->qos_input, s->queuing_output,
	                     s->queuing_input, out);
}

static void cmd_running_iface_policies(const struct policy_iface *i,
                                       struct strbuf *out)
{
	cmd_running_policies(NULL, i->qos_input, i->queuing_output,
	                     i->queuing_input, out);
}

/* ` channel-group N [mode M]`: a member's membership, as typed. */
static void cmd_running_channel(const struct policy_iface *i,
                                struct strbuf *out)
{
	if (!i->channel_group)
		return;
	strbuf_printf(out, " channel-group %u", i->channel_group);
	if (i->channel_mode != POLICY_CHANNEL_MODE_NONE)
		strbuf_printf(out, " mode %s",
		              policy_channel_mode_name(i->channel_mode));
	strbuf_puts(out, "\n");
}

static void cmd_running_iface(const struct policy_iface *i, struct strbuf *out)
{
	strbuf_printf(out, "interface %s\n", i->alias[0] ? i->alias : i->name);
	if (i->description[0])
		strbuf_printf(out, " description %s\n", i->description);
	cmd_running_settings(SETTING_AT_IFACE_HEAD, i, " ", out); /* mtu */
	if (i->pfc_mode != POLICY_PFC_AUTO)
		strbuf_printf(out, " priority-flow-control mode %s%s\n",
		              policy_pfc_mode_name(i->pfc_mode),
		              i->pfc_send_tlv ? " send-tlv" : "");
	if (i->watchdog != POLICY_INHERIT)
		strbuf_printf(out,
		              " priority-flow-control watch-dog-interval %s\n",
		              i->watchdog == POLICY_ON ? "on" : "off");
	cmd_running_settings(SETTING_AT_IFACE_PFC, i, " ", out);
	cmd_running_iface_policies(i, out);
	/* qdisc-takeover, fabric-internal, ... */
	cmd_running_settings(SETTING_AT_IFACE, i, " ", out);
	cmd_running_settings(SETTING_AT_IFACE_FC, i, " ", out);
	/* LLDP and DCBX: lldp transmit, receive, dcbx willing */
	cmd_running_settings(SETTING_AT_IFACE_LLDP, i, " ", out);
	if (i->lldp.has_agent)
		strbuf_printf(out, " dcbx agent %s\n",
		              policy_dcbx_agent_name(i->lldp.agent));
	cmd_running_channel(i, out);
	if (i->shutdown != POLICY_INHERIT)
		strbuf_puts(out, i->shutdown == POLICY_ON ? " shutdown\n"
		                                          : " no shutdown\n");
}

/* The port-channels whose lines roced keeps for their members
 * (interface port-channelN without a port of that alias): each block as
 * it was typed, before the members, which take its lines again when
 * their channel-group line is pasted back. */
static void cmd_running_port_channels(const struct policy *p,
                                      struct strbuf *out)
{
	for (size_t k = 0; k < p->nprofiles; k++) {
		const struct policy_port_profile *pp = &p->profiles[k];

		if (!cmd_nx_port_channel(pp->name, NULL) ||
		    policy_find_iface(p, pp->name))
			continue;
		strbuf_printf(out, "interface %s\n", pp->name);
		for (size_t l = 0; l < pp->nlines; l++)
			strbuf_printf(out, " %s\n", pp->lines[l]);
	}
}

/* `show running-config interface X all`: the block with its defaults
 * written out, as NX-OS's `all` does (PFC mode auto, the watchdog the
 * port follows, no shutdown); every line still pastes back. */
static void cmd_running_iface_all(const struct policy *p,
                                  const struct policy_iface *i,
                                  struct strbuf *out)
{
	strbuf_printf(out, "interface %s\n", i->alias[0] ? i->alias : i->name);
	if (i->description[0])
		strbuf_printf(out, " description %s\n", i->description);
	cmd_running_settings(SETTING_AT_IFACE_HEAD, i, " ", out); /* mtu */
	strbuf_printf(out, " priority-flow-control mode %s%s\n",
	              policy_pfc_mode_name(i->pfc_mode),
	              i->pfc_send_tlv ? " send-tlv" : "");
	strbuf_printf(out, " priority-flow-control watch-dog-interval %s\n",
	              policy_iface_watchdog(p, i) ? "on" : "off");
	cmd_running_settings(SETTING_AT_IFACE_PFC, i, " ", out);
	cmd_running_iface_policies(i, out);
	strbuf_puts(out, i->qdisc_takeover ? " qdisc-takeover\n"
	                                   : " no qdisc-takeover\n");
	strbuf_puts(out, i->shutdown == POLICY_ON ? " shutdown\n"
	                                          : " no shutdown\n");
}

/* LLDP and DCBX: the global lines that differ from the
 * defaults, before the interfaces (as NX-OS has its features first). */
static void cmd_running_lldp(const struct policy *p, struct strbuf *out)
{
	const struct policy_lldp *l = &p->lldp;

	/* feature lldp, lldp timer, holdtime, reinit */
	cmd_running_settings(SETTING_AT_LLDP, p, "", out);
	if (l->no_dcbxp)
		strbuf_puts(out, "no lldp tlv-select dcbxp\n");
	else if (l->egress_queuing)
		strbuf_puts(out, "lldp tlv-select dcbxp egress-queuing\n");
	if (l->agent != POLICY_DCBX_AGENT_ROCED)
		strbuf_printf(out, "dcbx agent %s\n",
		              policy_dcbx_agent_name(l->agent));
}

static void cmd_running_pfcwd(const struct policy *p, struct strbuf *out)
{
	/* After an interface block these lines would read as the
	 * interface's: a `!` ends the block (see cmd_parse). */
	if (p->nifaces && setting_place_written(SETTING_AT_PFC, p, false))
		strbuf_puts(out, "!\n");
	cmd_running_settings(SETTING_AT_PFC, p, "", out);
}

/* `roce MODE` while the objects are exactly its expansion: pasted, it
 * makes them and the lines after it restate them. Once an operator
 * edited them the line is left out, so that a paste keeps the edits
 * (rocesh(8)). */
static void cmd_running_roce(const struct policy *p, struct strbuf *out)
{
	uint32_t edited;
	enum policy_roce_mode m = policy_roce_mode(p, &edited);

	if (m != POLICY_ROCE_NONE && !edited)
		strbuf_printf(out, "roce %s\n", policy_roce_mode_name(m));
}

/* The QoS definitions: class-maps, policy-maps and system qos. */
static void cmd_running_qos(const struct policy *p, struct strbuf *out)
{
	cmd_running_roce(p, out);
	cmd_running_class_qos(p, out);
	cmd_running_map_qos(p, out);
	cmd_running_qclasses(p, out);
	cmd_running_map_queuing(p, out);
	cmd_running_nq(p, out);
	cmd_running_system(p, out);
	/* hardware qos pfc mc-drop */
	cmd_running_settings(SETTING_AT_TOP, p, "", out);
}

static void cmd_running_text(const struct policy *policy, const char *section,
                             struct strbuf *out);

/* Each line's leading blanks doubled: NX-OS indents by two. */
static void cmd_running_indent(const char *s, struct strbuf *out)
{
	while (*s) {
		size_t b = strspn(s, " "), n = strcspn(s + b, "\n");

		for (size_t k = 0; k < 2 * b; k++)
			strbuf_add(out, " ", 1);
		strbuf_add(out, s + b, n);
		s += b + n;
		if (*s == '\n') {
			strbuf_add(out, "\n", 1);
			s++;
		}
	}
}

void cmd_running_config(const struct policy *policy, const char *section,
                        struct strbuf *out)
{
	struct strbuf one;

	strbuf_init(&one);
	cmd_running_text(policy, section, &one);
	strbuf_puts(out, ""); /* an empty policy still gives "" */
	cmd_running_indent(strbuf_str(&one), out);
	strbuf_free(&one);
}

static void cmd_running_text(const struct policy *policy, const char *section,
                             struct strbuf *out)
{
	const char *ifname;
	const struct policy_iface *i;
	char name[POLICY_ALIAS_MAX];
	size_t len;

	strbuf_puts(out, ""); /* an empty policy still gives "" */
	if (!section) {
		cmd_running_qos(policy, out);
		cmd_running_lldp(policy, out);
		cmd_running_port_channels(policy, out);
		/* a bond's members are the kernel's: the bond says it */
		for (size_t k = 0; k < policy->nifaces; k++)
			if (!policy->ifaces[k].bond[0])
				cmd_running_iface(&policy->ifaces[k], out);
		cmd_running_pfcwd(policy, out);
		return;
	}
	if (!strcmp(section, "qos")) {
		cmd_running_qos(policy, out);
		return;
	}
	if (strncmp(section, "interface ", 10))
		return;
	ifname = section + 10;
	len = strcspn(ifname, " ");
	if (len >= sizeof(name))
		return;
	memcpy(name, ifname, len);
	name[len] = '\0';
	i = policy_find_iface(policy, name);
	if (i && !strcmp(ifname + len, " all"))
		cmd_running_iface_all(policy, i, out);
	else if (i && !ifname[len])
		cmd_running_iface(i, out);
}
