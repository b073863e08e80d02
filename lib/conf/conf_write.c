/* conf_write: policy -> libconfig text in the schema conf.c reads, so that
 * `copy running-config startup-config` writes a file that loads back to
 * the same policy.
 *
 * The form is canonical: objects in policy order, queues from q7 down to
 * q-default (as NX-OS lists them), single values as integers, sets as
 * "a-b,c" strings, thresholds in the largest exact unit, and every
 * watchdog timer spelt out. Defaults of interfaces (PFC mode auto,
 * watchdog inherited) are left out, as NX-OS leaves them out of its
 * running-config.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf/conf.h"
#include "base/strbuf.h"
#include "model/units.h"

/* Drop the blanks that items and indents leave at the end of SB. */
static void conf_write_trim(struct strbuf *sb)
{
	while (sb->len &&
	       (sb->s[sb->len - 1] == ' ' || sb->s[sb->len - 1] == '\t'))
		sb->s[--sb->len] = '\0';
}

/* End the line and indent the next. */
static void conf_write_nl(struct strbuf *sb, unsigned indent)
{
	conf_write_trim(sb);
	strbuf_puts(sb, "\n");
	for (unsigned i = 0; i < indent; i++)
		strbuf_puts(sb, "\t");
}

/* A libconfig string literal: quotes and backslashes escaped, control
 * characters as \xNN, which libconfig reads back. */
static void conf_write_quoted(struct strbuf *sb, const char *s)
{
	strbuf_puts(sb, "\"");
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			strbuf_printf(sb, "\\%c", ch);
		else if (ch < 0x20 || ch == 0x7f)
			strbuf_printf(sb, "\\x%02x", ch);
		else
			strbuf_add(sb, s, 1);
	}
	strbuf_puts(sb, "\"");
}

/* Items are written "key = value; " and lines end with conf_write_nl. */
static void conf_write_str(struct strbuf *sb, const char *key, const char *v)
{
	strbuf_printf(sb, "%s = ", key);
	conf_write_quoted(sb, v);
	strbuf_puts(sb, "; ");
}

/* A value set: one value as an integer, more as a list string. */
static void conf_write_set(struct strbuf *sb, const char *key, uint64_t mask)
{
	char buf[200];

	if (!mask)
		return;
	if (!(mask & (mask - 1))) {
		strbuf_printf(sb, "%s = %d; ", key, __builtin_ctzll(mask));
		return;
	}
	policy_list_format(mask, buf, sizeof(buf));
	strbuf_printf(sb, "%s = \"%s\"; ", key, buf);
}

/* Opens "KEY = (" at INDENT; entries follow at INDENT + 1. */
static void conf_write_list_open(struct strbuf *sb, const char *key,
                                 unsigned indent)
{
	strbuf_printf(sb, "%s = (", key);
	conf_write_nl(sb, indent + 1);
}

/* Ends entry I of N and starts the next line. */
static void conf_write_list_next(struct strbuf *sb, size_t i, size_t n,
                                 unsigned indent)
{
	if (i + 1 < n) {
		strbuf_puts(sb, ",");
		conf_write_nl(sb, indent + 1);
	} else {
		conf_write_nl(sb, indent);
	}
}

static void conf_write_class_maps(struct strbuf *sb, const struct policy *p)
{
	if (!p->nclass_qos && !p->nclass_nq)
		return;
	strbuf_puts(sb, "class-map = {");
	conf_write_nl(sb, 1);
	if (p->nclass_qos) {
		conf_write_list_open(sb, "qos", 1);
		for (size_t i = 0; i < p->nclass_qos; i++) {
			const struct policy_class_qos *c = &p->class_qos[i];

			strbuf_puts(sb, "{ ");
			conf_write_str(sb, "name", c->name);
			conf_write_str(sb, "match",
			               c->match == POLICY_MATCH_ANY ? "any"
			                                            : "all");
			conf_write_set(sb, "cos", c->cos);
			conf_write_set(sb, "dscp", c->dscp);
			strbuf_puts(sb, "}");
			conf_write_list_next(sb, i, p->nclass_qos, 1);
		}
		strbuf_puts(sb, ");");
		conf_write_nl(sb, 1);
	}
	if (p->nclass_nq) {
		conf_write_list_open(sb, "network-qos", 1);
		for (size_t i = 0; i < p->nclass_nq; i++) {
			strbuf_puts(sb, "{ ");
			conf_write_str(sb, "name", p->class_nq[i].name);
			conf_write_set(sb, "qos-group",
			               p->class_nq[i].qos_groups);
			strbuf_puts(sb, "}");
			conf_write_list_next(sb, i, p->nclass_nq, 1);
		}
		strbuf_puts(sb, ");");
		conf_write_nl(sb, 1);
	}
	conf_write_trim(sb);
	strbuf_puts(sb, "};\n\n");
}

/* "{ name = NAME; class = ( ... ); }" of one policy-map at indent 2; the
 * class entries come from CLASS(SB, MAP, index). */
static void
conf_write_map(struct strbuf *sb, const char *name, size_t n, const void *map,
               void (*entry)(struct strbuf *sb, const void *map, size_t i))
{
	strbuf_puts(sb, "{");
	conf_write_nl(sb, 3);
	conf_write_str(sb, "name", name);
	conf_write_nl(sb, 3);
	if (!n) {
		strbuf_puts(sb, "class = ();");
	} else {
		conf_write_list_open(sb, "class", 3);
		for (size_t i = 0; i < n; i++) {
			entry(sb, map, i);
			conf_write_list_next(sb, i, n, 3);
		}
		strbuf_puts(sb, ");");
	}
	conf_write_nl(sb, 2);
	strbuf_puts(sb, "}");
}

static void conf_write_qos_rule(struct strbuf *sb, const void *map, size_t i)
{
	const struct policy_qos_rule *r =
	    &((const struct policy_map_qos *)map)->rules[i];

	strbuf_puts(sb, "{ ");
	conf_write_str(sb, "name", r->class_name);
	if (r->set_qos_group)
		strbuf_printf(sb, "set-qos-group = %u; ", r->qos_group);
	strbuf_puts(sb, "}");
}

/* Queue entries are written q7 .. q1, then q-default (queue 0), as NX-OS
 * shows them; I counts configured queues only. */
static unsigned conf_write_queue_nth(const struct policy_map_queuing *m,
                                     size_t i)
{
	for (unsigned k = 0; k < POLICY_NQUEUES; k++) {
		unsigned n = POLICY_NQUEUES - 1 - k;

		if (m->queue[n].configured && !i--)
			return n;
	}
	return 0;
}

static void conf_write_queue(struct strbuf *sb, const void *map, size_t i)
{
	const struct policy_map_queuing *m = map;
	unsigned n = conf_write_queue_nth(m, i);
	const struct policy_queue *q = &m->queue[n];
	char min[32], max[32];

	strbuf_puts(sb, "{ ");
	conf_write_str(sb, "name", policy_queue_name(n));
	if (q->priority_level)
		strbuf_printf(sb, "priority-level = %u; ", q->priority_level);
	if (q->has_bandwidth)
		strbuf_printf(sb, "bandwidth-remaining-percent = %u; ",
		              q->bandwidth_percent);
	if (q->wred.enabled) {
		units_bytes_format(q->wred.min_bytes, min, sizeof(min));
		units_bytes_format(q->wred.max_bytes, max, sizeof(max));
		conf_write_nl(sb, 5);
		strbuf_puts(sb, "random-detect = {");
		conf_write_nl(sb, 6);
		conf_write_str(sb, "minimum-threshold", min);
		conf_write_str(sb, "maximum-threshold", max);
		conf_write_nl(sb, 6);
		strbuf_printf(sb,
		              "drop-probability = %u; weight = %u; ecn = %s;",
		              q->wred.drop_probability, q->wred.weight,
		              q->wred.ecn ? "true" : "false");
		conf_write_nl(sb, 5);
		strbuf_puts(sb, "};");
		conf_write_nl(sb, 4);
	}
	strbuf_puts(sb, "}");
}

static void conf_write_nq_rule(struct strbuf *sb, const void *map, size_t i)
{
	const struct policy_nq_rule *r =
	    &((const struct policy_map_nq *)map)->rules[i];

	strbuf_puts(sb, "{ ");
	conf_write_str(sb, "name", r->class_name);
	conf_write_set(sb, "pause-pfc-cos", r->pfc_cos);
	if (r->mtu)
		strbuf_printf(sb, "mtu = %" PRIu32 "; ", r->mtu);
	strbuf_puts(sb, "}");
}

static void conf_write_policy_maps(struct strbuf *sb, const struct policy *p)
{
	if (!p->nmap_qos && !p->nmap_queuing && !p->nmap_nq)
		return;
	strbuf_puts(sb, "policy-map = {");
	conf_write_nl(sb, 1);
	if (p->nmap_qos) {
		conf_write_list_open(sb, "qos", 1);
		for (size_t i = 0; i < p->nmap_qos; i++) {
			conf_write_map(sb, p->map_qos[i].name,
			               p->map_qos[i].nrules, &p->map_qos[i],
			               conf_write_qos_rule);
			conf_write_list_next(sb, i, p->nmap_qos, 1);
		}
		strbuf_puts(sb, ");");
		conf_write_nl(sb, 1);
	}
	if (p->nmap_queuing) {
		conf_write_list_open(sb, "queuing", 1);
		for (size_t i = 0; i < p->nmap_queuing; i++) {
			const struct policy_map_queuing *m = &p->map_queuing[i];
			size_t n = 0;

			for (unsigned q = 0; q < POLICY_NQUEUES; q++)
				n += m->queue[q].configured;
			conf_write_map(sb, m->name, n, m, conf_write_queue);
			conf_write_list_next(sb, i, p->nmap_queuing, 1);
		}
		strbuf_puts(sb, ");");
		conf_write_nl(sb, 1);
	}
	if (p->nmap_nq) {
		conf_write_list_open(sb, "network-qos", 1);
		for (size_t i = 0; i < p->nmap_nq; i++) {
			conf_write_map(sb, p->map_nq[i].name,
			               p->map_nq[i].nrules, &p->map_nq[i],
			               conf_write_nq_rule);
			conf_write_list_next(sb, i, p->nmap_nq, 1);
		}
		strbuf_puts(sb, ");");
		conf_write_nl(sb, 1);
	}
	conf_write_trim(sb);
	strbuf_puts(sb, "};\n\n");
}

static void conf_write_system(struct strbuf *sb, const struct policy *p)
{
	const struct policy_system *s = &p->system;

	if (!s->network_qos[0] && !s->qos_input[0] && !s->queuing_output[0])
		return;
	strbuf_puts(sb, "system-qos = {");
	conf_write_nl(sb, 1);
	strbuf_puts(sb, "service-policy = { ");
	if (s->network_qos[0])
		conf_write_str(sb, "network-qos", s->network_qos);
	if (s->qos_input[0])
		conf_write_str(sb, "qos-input", s->qos_input);
	if (s->queuing_output[0])
		conf_write_str(sb, "queuing-output", s->queuing_output);
	strbuf_puts(sb, "};");
	conf_write_nl(sb, 0);
	strbuf_puts(sb, "};\n\n");
}

static void conf_write_iface(struct strbuf *sb, const struct policy_iface *f)
{
	strbuf_puts(sb, "{");
	conf_write_nl(sb, 2);
	conf_write_str(sb, "name", f->name);
	if (f->alias[0])
		conf_write_str(sb, "alias", f->alias);
	if (f->pfc_mode != POLICY_PFC_AUTO || f->watchdog != POLICY_INHERIT) {
		conf_write_nl(sb, 2);
		strbuf_puts(sb, "priority-flow-control = { ");
		if (f->pfc_mode != POLICY_PFC_AUTO)
			conf_write_str(sb, "mode",
			               policy_pfc_mode_name(f->pfc_mode));
		if (f->watchdog != POLICY_INHERIT)
			strbuf_printf(sb, "watch-dog-interval = %s; ",
			              f->watchdog == POLICY_ON ? "true"
			                                       : "false");
		strbuf_puts(sb, "};");
	}
	if (f->qdisc_takeover) {
		conf_write_nl(sb, 2);
		strbuf_puts(sb, "qdisc-takeover = true;");
	}
	if (f->qos_input[0] || f->queuing_output[0]) {
		conf_write_nl(sb, 2);
		strbuf_puts(sb, "service-policy = { ");
		if (f->qos_input[0])
			conf_write_str(sb, "qos-input", f->qos_input);
		if (f->queuing_output[0])
			conf_write_str(sb, "queuing-output", f->queuing_output);
		strbuf_puts(sb, "};");
	}
	conf_write_nl(sb, 1);
	strbuf_puts(sb, "}");
}

static void conf_write_ifaces(struct strbuf *sb, const struct policy *p)
{
	/* Said, not left out: roced refuses to reload a file without an
	 * interface list when it programs ports, as one caught half
	 * written, and a saved running-config must reload as it is. */
	if (!p->nifaces) {
		strbuf_puts(sb, "interface = ( );\n\n");
		return;
	}
	conf_write_list_open(sb, "interface", 0);
	for (size_t i = 0; i < p->nifaces; i++) {
		conf_write_iface(sb, &p->ifaces[i]);
		conf_write_list_next(sb, i, p->nifaces, 0);
	}
	strbuf_puts(sb, ");\n\n");
}

static void conf_write_pfcwd(struct strbuf *sb, const struct policy *p)
{
	const struct policy_pfcwd *w = &p->pfcwd;

	strbuf_printf(sb,
	              "priority-flow-control = {\n"
	              "\twatch-dog-interval = %s;\n"
	              "\twatch-dog = {\n"
	              "\t\tinterval = %" PRIu32 ";\n"
	              "\t\tshutdown-multiplier = %" PRIu32 ";\n"
	              "\t\tinternal-interface-multiplier = %" PRIu32 ";\n"
	              "\t};\n"
	              "\tauto-restore-multiplier = %" PRIu32 ";\n"
	              "\tfixed-restore-multiplier = %" PRIu32 ";\n"
	              "};\n",
	              w->enabled ? "true" : "false", w->poll_ms,
	              w->shutdown_mult, w->internal_if_mult,
	              w->auto_restore_mult, w->fixed_restore_mult);
}

char *conf_write_string(const struct policy *p)
{
	struct strbuf sb;

	strbuf_init(&sb);
	strbuf_puts(&sb, "# roced configuration (libconfig syntax, see "
	                 "roced.conf(5)).\n\n");
	conf_write_class_maps(&sb, p);
	conf_write_policy_maps(&sb, p);
	conf_write_system(&sb, p);
	conf_write_ifaces(&sb, p);
	conf_write_pfcwd(&sb, p);
	if (sb.oom) {
		strbuf_free(&sb);
		return NULL;
	}
	return strbuf_detach(&sb);
}
