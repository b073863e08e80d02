/* Cumulus traffic.conf import: the writer. What the reader
 * (conf_cumulus.c) found becomes roced.conf: classification classes per
 * internal CoS, queue shares from the priority groups, an egress policy
 * per combination of ECN groups, an ingress policy of pause buffers per
 * PFC group, and the ports of every group. */
#include "conf/conf_cumulus_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- roced.conf --- */

static const char *cu_queue(int q, char *buf, size_t n)
{
	if (q == 0)
		snprintf(buf, n, "c-out-8q-q-default");
	else
		snprintf(buf, n, "c-out-8q-q%d", q);
	return buf;
}

static void cu_values(struct strbuf *o, const char *key, uint64_t mask)
{
	const char *sep = "";

	strbuf_printf(o, " %s = [", key);
	for (int v = 0; v < 64; v++)
		if (mask & (UINT64_C(1) << v)) {
			strbuf_printf(o, "%s%d", sep, v);
			sep = ", ";
		}
	strbuf_puts(o, "];");
}

/* Each queue's share and strictness from the priority groups. */
static void cu_shares(const struct cu *c, int share[8], bool strict[8],
                      bool listed[8])
{
	unsigned total = 0;

	memset(listed, 0, 8 * sizeof(bool));
	memset(strict, 0, 8 * sizeof(bool));
	memset(share, 0, 8 * sizeof(int));
	if (c->sched_line) {
		/* qos_features.conf's scheduler: bw_percent is the share,
		 * 0 strict; a queue it does not name gets none. */
		for (int q = 0; q < 8; q++) {
			if (!c->has_sched[q])
				continue;
			listed[q] = true;
			strict[q] = c->sched_pct[q] == 0;
			share[q] = c->sched_pct[q];
		}
	} else if (!c->npg) {
		/* No priority groups: DWRR over all eight, equal weights. */
		for (int q = 0; q < 8; q++) {
			listed[q] = true;
			share[q] = 100 / 8;
		}
		return;
	}
	for (int i = 0; i < c->npg && !c->sched_line; i++)
		if (c->pg[i].listed && c->pg[i].weight)
			total += c->pg[i].weight;
	for (int i = 0; i < c->npg && !c->sched_line; i++) {
		const struct cu_pgroup *p = &c->pg[i];
		int n = __builtin_popcount(p->cos);

		if (!p->listed || !n)
			continue;
		for (int q = 0; q < 8; q++) {
			if (!(p->cos & (1u << q)))
				continue;
			listed[q] = true;
			if (!p->weight)
				strict[q] = true;
			else
				share[q] = (int)(100 * p->weight / total) / n;
		}
	}
	/* Shares are whole percents: what rounding down left goes to the
	 * largest share, so that they add up to 100 as an operator writes
	 * them. */
	int sum = 0, big = -1;

	for (int q = 0; q < 8; q++) {
		sum += share[q];
		if (listed[q] && !strict[q] &&
		    (big < 0 || share[q] > share[big]))
			big = q;
	}
	if (big >= 0 && sum < 100)
		share[big] += 100 - sum;
}

static void cu_queuing(const struct cu *c, struct strbuf *o, const char *name,
                       unsigned ecn_mask, bool eff[CU_NKIND][CU_GROUPS])
{
	int share[8];
	bool strict[8], listed[8];
	const char *sep = "";
	char qn[24];

	cu_shares(c, share, strict, listed);
	strbuf_printf(o, "\t\t{\n\t\t\tname = \"%s\";\n\t\t\tclass = (\n",
	              name);
	for (int q = 7; q >= 0; q--) {
		const struct cu_group *red = NULL;

		for (int i = 0; i < c->ng[CU_ECN]; i++)
			if ((ecn_mask & (1u << i)) && eff[CU_ECN][i] &&
			    (c->g[CU_ECN][i].cos & (1u << q))) {
				red = &c->g[CU_ECN][i];
				break;
			}
		/* qos_features.conf's default profile: every port's. */
		if (!red && c->has_def_ecn && (c->def_ecn.cos & (1u << q)))
			red = &c->def_ecn;
		if (!listed[q] && !red)
			continue;
		strbuf_printf(o, "%s\t\t\t\t{ name = \"%s\";", sep,
		              cu_queue(q, qn, sizeof(qn)));
		if (strict[q])
			strbuf_puts(o, " priority-level = 1;");
		else if (listed[q])
			strbuf_printf(o, " bandwidth-remaining-percent = %d;",
			              share[q]);
		if (red)
			strbuf_printf(
			    o,
			    " random-detect = { minimum-threshold = "
			    "\"%" PRIu64 " bytes\"; maximum-threshold = "
			    "\"%" PRIu64 " bytes\"; drop-probability = "
			    "%u; ecn = %s; };",
			    red->min_th, red->max_th, red->prob,
			    red->ecn ? "true" : "false");
		strbuf_puts(o, " }");
		sep = ",\n";
	}
	strbuf_puts(o, "\n\t\t\t);\n\t\t}");
}

/* Where PORT is in group kind K (the first effective group), or -1. */
static int cu_port_group(const struct cu *c, enum cu_kind k, const char *port,
                         bool eff[CU_NKIND][CU_GROUPS], unsigned *all)
{
	int first = -1;

	if (all)
		*all = 0;
	for (int i = 0; i < c->ng[k]; i++) {
		const struct cu_group *g = &c->g[k][i];

		if (!eff[k][i])
			continue;
		for (int j = 0; j < g->nports; j++)
			if (!strcmp(c->ports[g->port0 + j], port)) {
				if (first < 0)
					first = i;
				if (all)
					*all |= 1u << i;
				break;
			}
	}
	return first;
}

static void cu_ecn_name(const struct cu *c, unsigned mask, char *buf, size_t n)
{
	size_t len = (size_t)snprintf(buf, n, "CUMULUS_QUEUING");

	for (int i = 0; i < c->ng[CU_ECN] && len < n; i++)
		if (mask & (1u << i))
			len += (size_t)snprintf(buf + len, n - len, "_%s",
			                        c->g[CU_ECN][i].name);
	if (len >= n)
		snprintf(buf, n, "CUMULUS_QUEUING_ECN%u", mask);
}

/* NVUE's RoCE mode: roced's `roce` makes the whole policy. */
static void cu_write_roce(const struct cu *c, const char *src, struct strbuf *o)
{
	strbuf_printf(o,
	              "# roced.conf, imported by `roced --import cumulus` "
	              "from %s,\n# NVUE commands: `nv set qos roce` is "
	              "roced's one-command RoCE mode,\n# which writes the "
	              "same classes, queues and PFC (roced.conf(5), roce).\n"
	              "\n",
	              src);
	if (strcmp(c->roce, "off"))
		strbuf_printf(o, "roce = \"%s\";\n", c->roce);
	strbuf_puts(o, "interface = (\n);\n# NVUE's RoCE mode is every "
	               "port's: list your ports in interface = ( ... );\n");
}

static void cu_write(const struct cu *c, const char *src, struct strbuf *o,
                     bool eff[CU_NKIND][CU_GROUPS])
{
	uint8_t nodrop = 0;
	bool classes = false;
	unsigned masks[CU_PORTS];
	int nmasks = 0;
	char name[64], qn[24];
	const char *sep;

	for (int i = 0; i < c->ng[CU_PFC]; i++)
		if (eff[CU_PFC][i])
			nodrop |= c->g[CU_PFC][i].cos;
	for (int q = 1; q < 8; q++)
		if ((c->src_pcp && c->pcp[q]) || (c->src_dscp && c->dscp[q]))
			classes = true;

	strbuf_printf(o,
	              "# roced.conf, imported by `roced --import cumulus` "
	              "from %s,\n# a Cumulus Linux traffic.conf or "
	              "qos_features.conf: "
	              "internal CoS N is qos-group N and\n# queue N. Check "
	              "it with roced -n; roced.conf(5) says what each "
	              "key does.\n\n",
	              src);
	if (classes || nodrop) {
		strbuf_puts(o, "class-map = {\n");
		if (classes) {
			strbuf_puts(o, "\tqos = (\n");
			sep = "";
			for (int q = 1; q < 8; q++) {
				bool pcp = c->src_pcp && c->pcp[q];
				bool dscp = c->src_dscp && c->dscp[q];

				if (!pcp && !dscp)
					continue;
				strbuf_printf(
				    o,
				    "%s\t\t{ name = \"CUMULUS_COS_%d\";"
				    " match = \"any\";",
				    sep, q);
				if (pcp)
					cu_values(o, "cos", c->pcp[q]);
				if (dscp)
					cu_values(o, "dscp", c->dscp[q]);
				strbuf_puts(o, " }");
				sep = ",\n";
			}
			strbuf_printf(o, "\n\t)%s\n", nodrop ? ";" : ";");
		}
		if (nodrop) {
			strbuf_puts(o, "\tnetwork-qos = (\n");
			sep = "";
			for (int q = 1; q < 8; q++)
				if (nodrop & (1u << q)) {
					strbuf_printf(o,
					              "%s\t\t{ name = "
					              "\"CUMULUS_NODROP_%d\"; "
					              "qos-group = %d; }",
					              sep, q, q);
					sep = ",\n";
				}
			strbuf_puts(o, "\n\t);\n");
		}
		strbuf_puts(o, "};\n");
	}

	strbuf_puts(o, "policy-map = {\n");
	if (classes) {
		strbuf_puts(o, "\tqos = (\n\t\t{\n\t\t\tname = \"CUMULUS_QOS\";"
		               "\n\t\t\tclass = (\n");
		sep = "";
		for (int q = 1; q < 8; q++)
			if ((c->src_pcp && c->pcp[q]) ||
			    (c->src_dscp && c->dscp[q])) {
				strbuf_printf(
				    o,
				    "%s\t\t\t\t{ name = "
				    "\"CUMULUS_COS_%d\"; set-qos-group = "
				    "%d; }",
				    sep, q, q);
				sep = ",\n";
			}
		strbuf_puts(o, "\n\t\t\t);\n\t\t}\n\t);\n");
	}
	/* One egress policy per combination of ECN groups a port is in; the
	 * one without ECN is the system's. */
	masks[nmasks++] = 0;
	for (int i = 0; i < c->nports; i++) {
		unsigned m;
		bool dup = false;

		cu_port_group(c, CU_ECN, c->ports[i], eff, &m);
		for (int j = 0; j < nmasks; j++)
			dup |= masks[j] == m;
		if (!dup && nmasks < CU_PORTS)
			masks[nmasks++] = m;
	}
	strbuf_puts(o, "\tqueuing = (\n");
	for (int j = 0; j < nmasks; j++) {
		cu_ecn_name(c, masks[j], name, sizeof(name));
		if (j)
			strbuf_puts(o, ",\n");
		cu_queuing(c, o, name, masks[j], eff);
	}
	for (int i = 0; i < c->ng[CU_PFC]; i++) {
		const struct cu_group *g = &c->g[CU_PFC][i];

		if (!eff[CU_PFC][i])
			continue;
		strbuf_printf(o,
		              ",\n\t\t{\n\t\t\tname = \"CUMULUS_PFC_%s\";\n"
		              "\t\t\tclass = (\n",
		              g->name);
		sep = "";
		for (int q = 0; q < 8; q++)
			if (g->cos & (1u << q)) {
				if (q == 0)
					snprintf(qn, sizeof(qn),
					         "c-in-q-default");
				else
					snprintf(qn, sizeof(qn), "c-in-q%d", q);
				strbuf_printf(o,
				              "%s\t\t\t\t{ name = \"%s\"; "
				              "pause-buffer = { "
				              "buffer-size = %" PRIu64
				              "; pause-threshold = "
				              "%" PRIu64
				              "; resume-threshold = %" PRIu64
				              "; }; }",
				              sep, qn, g->buffer, g->xoff,
				              g->xoff - g->xon_delta);
				sep = ",\n";
			}
		strbuf_puts(o, "\n\t\t\t);\n\t\t}");
	}
	strbuf_puts(o, "\n\t);\n");
	if (nodrop) {
		strbuf_puts(o, "\tnetwork-qos = (\n\t\t{\n\t\t\tname = "
		               "\"CUMULUS_NETWORK_QOS\";\n\t\t\tclass = (\n");
		sep = "";
		for (int q = 1; q < 8; q++)
			if (nodrop & (1u << q)) {
				strbuf_printf(
				    o,
				    "%s\t\t\t\t{ name = "
				    "\"CUMULUS_NODROP_%d\"; pause-pfc-cos "
				    "= %d; }",
				    sep, q, q);
				sep = ",\n";
			}
		strbuf_puts(o, "\n\t\t\t);\n\t\t}\n\t);\n");
	}
	strbuf_puts(o, "};\n");

	strbuf_puts(o, "system-qos = {\n\tservice-policy = {\n");
	if (nodrop)
		strbuf_puts(o, "\t\tnetwork-qos = \"CUMULUS_NETWORK_QOS\";\n");
	if (classes)
		strbuf_puts(o, "\t\tqos-input = \"CUMULUS_QOS\";\n");
	strbuf_puts(o, "\t\tqueuing-output = \"CUMULUS_QUEUING\";\n\t};\n};\n");

	strbuf_puts(o, "interface = (");
	sep = "\n";
	for (int i = 0; i < c->nports; i++) {
		const char *port = c->ports[i];
		unsigned ecn;
		int pfc = cu_port_group(c, CU_PFC, port, eff, NULL);
		int lp = cu_port_group(c, CU_LP, port, eff, NULL);
		bool seen = false;

		for (int j = 0; j < i; j++)
			seen |= !strcmp(c->ports[j], port);
		if (seen)
			continue;
		if (pfc < 0 && lp < 0 &&
		    cu_port_group(c, CU_ECN, port, eff, &ecn) < 0)
			continue; /* only in a group that does not count */
		cu_port_group(c, CU_ECN, port, eff, &ecn);
		strbuf_printf(o,
		              "%s\t{\n\t\tname = \"%s\";\n\t\tpriority-flow-"
		              "control = { mode = \"%s\"; };\n",
		              sep, port, pfc >= 0 ? "on" : "off");
		if (lp >= 0 && pfc < 0) {
			const struct cu_group *g = &c->g[CU_LP][lp];

			strbuf_printf(o,
			              "\t\tflowcontrol = { receive = %s; "
			              "send = %s; };\n",
			              g->rx ? "true" : "false",
			              g->tx ? "true" : "false");
		}
		if (ecn || pfc >= 0) {
			strbuf_puts(o, "\t\tservice-policy = {");
			if (ecn) {
				cu_ecn_name(c, ecn, name, sizeof(name));
				strbuf_printf(o, " queuing-output = \"%s\";",
				              name);
			}
			if (pfc >= 0)
				strbuf_printf(o,
				              " queuing-input = "
				              "\"CUMULUS_PFC_%s\";",
				              c->g[CU_PFC][pfc].name);
			strbuf_puts(o, " };\n");
		}
		strbuf_puts(o, "\t}");
		sep = ",\n";
	}
	strbuf_puts(o, "\n);\n");
	if (sep[0] == '\n')
		strbuf_puts(o,
		            "# No PFC, link pause or ECN port group names a "
		            "port: list your ports\n# in interface = ( ... ); "
		            "(the policies above apply to each).\n");
}

/* A no-drop CoS that the hosts' 802.1p priority does not reach: PFC
 * pauses priority N on the wire, but the file classifies frames that
 * carry PCP N into another internal CoS (or into none), whose queue is
 * lossy. Said only where the file maps 802.1p itself. */
static void cu_pcp_mismatch(struct cu *c, bool eff[CU_NKIND][CU_GROUPS])
{
	bool given = false;

	for (int q = 0; q < 8; q++)
		given |= c->pcp_line[q] != 0;
	if (!given || !c->src_pcp)
		return;
	for (int i = 0; i < c->ng[CU_PFC]; i++) {
		const struct cu_group *g = &c->g[CU_PFC][i];
		unsigned at = g->cos_line ? g->cos_line : g->line;

		if (!eff[CU_PFC][i])
			continue;
		for (int q = 0; q < 8; q++) {
			int to = -1;

			if (!(g->cos & (1u << q)))
				continue;
			for (int j = 0; j < 8 && to < 0; j++)
				if (c->pcp[j] & (1u << q))
					to = j;
			if (to == q)
				continue;
			if (to < 0)
				diag_warn(
				    c->d, at,
				    "PFC port group '%s': no-drop CoS %d, "
				    "but no traffic.cos_N.priority_source."
				    "8021p takes 802.1p %d: what hosts send "
				    "with PCP %d is not in the no-drop class",
				    g->name, q, q, q);
			else
				diag_warn(
				    c->d, at,
				    "PFC port group '%s': no-drop CoS %d, "
				    "but 802.1p %d (the PCP hosts send for "
				    "it) is classified to internal CoS %d "
				    "at line %u, a lossy queue: pause and "
				    "traffic are on different priorities",
				    g->name, q, q, to, c->pcp_line[to]);
		}
	}
}

/* Ports named by two groups of one kind, and by PFC and link pause both:
 * the first PFC group wins, as NX-OS refuses PFC beside link pause. */
static void cu_overlaps(struct cu *c, bool eff[CU_NKIND][CU_GROUPS])
{
	for (int k = 0; k < CU_NKIND; k++)
		for (int i = 0; i < c->ng[k]; i++) {
			struct cu_group *g = &c->g[k][i];

			if (!eff[k][i])
				continue;
			for (int j = 0; j < g->nports; j++) {
				const char *port = c->ports[g->port0 + j];
				int first = cu_port_group(c, (enum cu_kind)k,
				                          port, eff, NULL);

				if (first != i && k != CU_ECN)
					diag_warn(c->d, g->ports_line,
					          "%s is also in %s port group "
					          "'%s', which it keeps",
					          port, cu_kind_key[k],
					          c->g[k][first].name);
				if (k == CU_LP && cu_port_group(c, CU_PFC, port,
				                                eff, NULL) >= 0)
					diag_warn(
					    c->d, g->ports_line,
					    "%s: link pause is not mapped "
					    "on a port in a PFC group (they "
					    "cannot both run on a port)",
					    port);
			}
		}
}

int conf_import_cumulus(const char *text, struct strbuf *out, struct diag *d)
{
	struct cu *c = calloc(1, sizeof(*c));
	bool eff[CU_NKIND][CU_GROUPS] = {{false}};
	struct strbuf o;
	int rc = -1;

	if (!c) {
		diag_err(d, 0, "out of memory");
		return -1;
	}
	c->d = d;
	c->src_pcp = true; /* Cumulus's default source: 802.1p */
	if (cu_parse(c, text) == 0 && cu_check(c, eff) == 0) {
		for (int q = 0; q < 8; q++)
			if (c->map_line[q] && c->has_srcset &&
			    ((c->pcp[q] && !c->src_pcp) ||
			     (c->dscp[q] && !c->src_dscp)))
				diag_warn(d, c->map_line[q],
				          "internal CoS %d: a source that "
				          "traffic.packet_priority_source_set "
				          "does not name is not mapped",
				          q);
		if (c->pcp[0] || c->dscp[0])
			diag_add(d, DIAG_NOTE, c->map_line[0],
			         "internal CoS 0 is roced's class-default: "
			         "what no other CoS takes is qos-group 0");
		cu_overlaps(c, eff);
		cu_pcp_mismatch(c, eff);
		strbuf_init(&o);
		if (c->roce_line && c->qos_keys)
			diag_warn(d, c->roce_line,
			          "NVUE's RoCE mode and traffic.conf or "
			          "qos_features.conf keys in one file: the "
			          "RoCE mode is imported, the keys are not");
		if (c->roce_line)
			cu_write_roce(c, d->file ? d->file : "standard input",
			              &o);
		else
			cu_write(c, d->file ? d->file : "standard input", &o,
			         eff);
		if (o.oom) {
			diag_err(d, 0, "out of memory");
		} else {
			if (c->roce_line)
				diag_warn(d, c->roce_line,
				          "NVUE's RoCE mode names no port: add "
				          "the ports to the interface list");
			else if (strstr(strbuf_str(&o), "# No PFC, link pause"))
				diag_warn(
				    d, 0,
				    "no PFC, link pause or ECN port "
				    "group names a port: add the ports to "
				    "the interface list");
			strbuf_puts(out, strbuf_str(&o));
			rc = 0;
		}
		strbuf_free(&o);
	}
	free(c);
	return rc;
}
