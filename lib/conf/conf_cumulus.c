/* Cumulus Linux traffic.conf -> roced.conf (see conf_cumulus.h): the
 * reader; conf_cumulus_keys.c reads what only qos_features.conf and NVUE
 * have.
 *
 * The file is read in one pass into a small model (priority sources per
 * internal CoS, priority groups, PFC / link pause / ECN port groups), then
 * written out as roced.conf. Nothing is guessed silently: a key with no
 * roced equivalent is a warning at its line; so is a line that cannot be
 * read (not `key = value`, a value out of range), which is skipped while
 * the rest is imported. What only the whole file can tell (no traffic.conf
 * key at all, a group whose thresholds contradict each other) is an
 * error, and then nothing is written. */
#include "conf/conf_cumulus_int.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *const cu_kind_key[CU_NKIND] = {
    [CU_PFC] = "pfc", [CU_LP] = "link_pause", [CU_ECN] = "ecn"};

/* --- port sets --- */

/* "swp12" -> prefix "swp", 12, breakout -1; "swp50s3" -> 50, 3. */
static int cu_port_parse(const char *s, char *prefix, size_t plen, long *port,
                         long *sub)
{
	size_t i = 0;
	char *end;

	while (s[i] && isalpha((unsigned char)s[i]))
		i++;
	if (i == 0 || i >= plen || !isdigit((unsigned char)s[i]))
		return -1;
	memcpy(prefix, s, i);
	prefix[i] = '\0';
	*port = strtol(s + i, &end, 10);
	*sub = -1;
	if (*end == 's' && isdigit((unsigned char)end[1]))
		*sub = strtol(end + 1, &end, 10);
	return *end ? -1 : 0;
}

static int cu_port_add(char (*names)[CUMULUS_IFNAMSIZ], int *n, int max,
                       const char *prefix, long port, long sub, char *err,
                       size_t errlen)
{
	int len;

	if (*n == max) {
		snprintf(err, errlen, "more than %d ports", max);
		return -1;
	}
	len = sub < 0
	          ? snprintf(names[*n], CUMULUS_IFNAMSIZ, "%s%ld", prefix, port)
	          : snprintf(names[*n], CUMULUS_IFNAMSIZ, "%s%lds%ld", prefix,
	                     port, sub);
	if (len >= CUMULUS_IFNAMSIZ) {
		snprintf(err, errlen, "port name %s%ld... is too long", prefix,
		         port);
		return -1;
	}
	for (int i = 0; i < *n; i++)
		if (!strcmp(names[i], names[*n]))
			return 0; /* listed twice: once is enough */
	(*n)++;
	return 0;
}

int conf_cumulus_ports(const char *set, char (*names)[CUMULUS_IFNAMSIZ],
                       int max, char *err, size_t errlen)
{
	char buf[CU_VALUE_MAX], *items[CU_PORTS];
	int n = 0, nitems;

	if (strlen(set) >= sizeof(buf)) {
		snprintf(err, errlen, "port set too long");
		return -1;
	}
	snprintf(buf, sizeof(buf), "%s", set);
	nitems = cu_list(buf, items, CU_PORTS);
	if (nitems <= 0) {
		snprintf(err, errlen, nitems ? "too many ranges" : "empty");
		return -1;
	}
	for (int i = 0; i < nitems; i++) {
		char *dash = strchr(items[i], '-');
		char p1[CUMULUS_IFNAMSIZ], p2[CUMULUS_IFNAMSIZ];
		long a, as, b, bs;

		if (dash)
			*dash = '\0';
		if (cu_port_parse(cu_trim(items[i]), p1, sizeof(p1), &a, &as) <
		    0) {
			snprintf(err, errlen,
			         "'%s' is not a port such as swp1 or swp50s0",
			         items[i]);
			return -1;
		}
		if (!dash) {
			if (cu_port_add(names, &n, max, p1, a, as, err,
			                errlen) < 0)
				return -1;
			continue;
		}
		if (cu_port_parse(cu_trim(dash + 1), p2, sizeof(p2), &b, &bs) <
		        0 ||
		    strcmp(p1, p2) || (as < 0) != (bs < 0) ||
		    (as >= 0 && a != b) || (as < 0 ? b < a : bs < as)) {
			snprintf(err, errlen,
			         "'%s-%s' is not a range of one kind of port "
			         "(swp1-swp4, swp50s0-swp50s3)",
			         items[i], dash + 1);
			return -1;
		}
		for (long k = as < 0 ? a : as; k <= (as < 0 ? b : bs); k++)
			if (cu_port_add(names, &n, max, p1, as < 0 ? k : a,
			                as < 0 ? -1 : k, err, errlen) < 0)
				return -1;
	}
	return n;
}

/* --- the model --- */

static struct cu_group *cu_group(struct cu *c, enum cu_kind k, const char *name,
                                 unsigned line)
{
	for (int i = 0; i < c->ng[k]; i++)
		if (!strcmp(c->g[k][i].name, name))
			return &c->g[k][i];
	if (c->ng[k] == CU_GROUPS || strlen(name) >= CU_NAME) {
		diag_err(c->d, line,
		         "%s port group '%s': too many groups "
		         "or too long a name",
		         cu_kind_key[k], name);
		return NULL;
	}
	struct cu_group *g = &c->g[k][c->ng[k]++];

	memset(g, 0, sizeof(*g));
	snprintf(g->name, sizeof(g->name), "%s", name);
	g->line = line;
	g->buffer = CU_DEF_BUFFER;
	g->xoff = CU_DEF_XOFF;
	g->xon_delta = CU_DEF_XON_DELTA;
	g->tx = g->rx = true;
	g->prob = 100;
	g->ecn = true;
	return g;
}

static struct cu_pgroup *cu_pgroup(struct cu *c, const char *name,
                                   unsigned line)
{
	for (int i = 0; i < c->npg; i++)
		if (!strcmp(c->pg[i].name, name))
			return &c->pg[i];
	if (c->npg == CU_GROUPS || strlen(name) >= CU_NAME) {
		diag_err(c->d, line,
		         "priority group '%s': too many groups or "
		         "too long a name",
		         name);
		return NULL;
	}
	struct cu_pgroup *p = &c->pg[c->npg++];

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->line = line;
	return p;
}

/* KIND.port_group_list or KIND.GROUP.FIELD. */
static int cu_port_group_key(struct cu *c, enum cu_kind k, unsigned line,
                             const char *key, const char *group,
                             const char *field, char *v)
{
	char *items[CU_GROUPS + 1];
	struct cu_group *g;
	uint64_t x;
	char err[160];
	int n;

	if (!field) {
		if (strcmp(group, "port_group_list"))
			goto unknown;
		n = cu_list(v, items, CU_GROUPS + 1);
		if (n < 0 || n > CU_GROUPS) {
			diag_err(c->d, line, "%s: more than %d groups", key,
			         CU_GROUPS);
			return -1;
		}
		for (int i = 0; i < n; i++) {
			g = cu_group(c, k, items[i], line);
			if (!g)
				return -1;
			g->listed = true;
		}
		return 0;
	}
	g = cu_group(c, k, group, line);
	if (!g)
		return -1;
	if ((!strcmp(field, "cos_list") && k != CU_LP) ||
	    (!strcmp(field, "egress_queue_list") && k == CU_ECN)) {
		/* qos_features.conf names an ECN group's queues; internal
		 * CoS N is queue N here (cos_egr_queue) */
		if (cu_set(c, line, key, v, 7, &x) < 0)
			return -1;
		g->cos = (uint8_t)x;
		g->has_cos = true;
		g->cos_line = line;
	} else if (!strcmp(field, "port_set")) {
		n = conf_cumulus_ports(v, c->ports + c->nports,
		                       CU_PORTS - c->nports, err, sizeof(err));
		if (n < 0) {
			diag_err(c->d, line, "%s: %s", key, err);
			return -1;
		}
		g->port0 = c->nports;
		g->nports = n;
		g->ports_line = line;
		c->nports += n;
	} else if (k != CU_ECN && (!strcmp(field, "port_buffer_bytes") ||
	                           !strcmp(field, "xoff_size") ||
	                           !strcmp(field, "xon_delta"))) {
		if (cu_uint(v, UINT32_MAX, &x) < 0) {
			diag_err(c->d, line, "%s: '%s' is not a byte count",
			         key, v);
			return -1;
		}
		if (!strcmp(field, "port_buffer_bytes"))
			g->buffer = x;
		else if (!strcmp(field, "xoff_size"))
			g->xoff = x;
		else
			g->xon_delta = x;
		g->buffer_line = line;
		if (k == CU_LP)
			cu_not_mapped(c, line, key,
			              "roced sizes link pause's xoff from the "
			              "port's speed and MTU");
	} else if (k != CU_ECN && (!strcmp(field, "tx_enable") ||
	                           !strcmp(field, "rx_enable"))) {
		bool b;

		if (cu_bool(v, &b) < 0) {
			diag_err(c->d, line, "%s: '%s' is not true or false",
			         key, v);
			return -1;
		}
		*(field[0] == 't' ? &g->tx : &g->rx) = b;
		if (!b && k == CU_PFC)
			cu_not_mapped(c, line, key,
			              "PFC runs both ways on a roced port: "
			              "false is taken as true");
	} else if (k == CU_ECN && (!strcmp(field, "min_threshold_bytes") ||
	                           !strcmp(field, "max_threshold_bytes"))) {
		if (cu_uint(v, INT32_MAX, &x) < 0 || x == 0) {
			diag_err(c->d, line,
			         "%s: '%s' is not a byte count 1-2147483647",
			         key, v);
			return -1;
		}
		*(field[1] == 'i' ? &g->min_th : &g->max_th) = x;
		g->th_line = line;
	} else if (k == CU_ECN && !strcmp(field, "probability")) {
		if (cu_uint(v, 100, &x) < 0) {
			diag_err(c->d, line,
			         "%s: '%s' is not a percentage 0-100", key, v);
			return -1;
		}
		g->prob = (unsigned)x;
	} else if (k == CU_ECN && (!strcmp(field, "ecn_enable") ||
	                           !strcmp(field, "red_enable"))) {
		bool b;

		if (cu_bool(v, &b) < 0) {
			diag_err(c->d, line, "%s: '%s' is not true or false",
			         key, v);
			return -1;
		}
		if (field[0] == 'e')
			g->ecn = b;
		else if (!b)
			cu_not_mapped(c, line, key,
			              "random-detect on a queue also drops "
			              "packets that are not ECN-capable");
	} else if (k != CU_ECN && !strcmp(field, "cable_length")) {
		cu_not_mapped(c, line, key,
		              "roced sizes pause headroom from the port's "
		              "speed and MTU; NX-OS's pause buffer-size is "
		              "the way to set it by hand");
	} else {
		goto unknown;
	}
	return 0;
unknown:
	cu_not_mapped(c, line, key, "no such traffic.conf key known to roced");
	return 0;
}

/* traffic.* */
static int cu_traffic_key(struct cu *c, unsigned line, const char *key,
                          char **part, int nparts, char *v)
{
	uint64_t x;
	long cos;
	char *end;

	if (nparts == 2 && !strcmp(part[1], "packet_priority_source_set")) {
		char *items[4];
		int n = cu_list(v, items, 4);

		c->has_srcset = true;
		c->srcset_line = line;
		c->src_pcp = c->src_dscp = false;
		for (int i = 0; i < n; i++) {
			if (!strcmp(items[i], "802.1p") ||
			    !strcmp(items[i], "8021p"))
				c->src_pcp = true;
			else if (!strcmp(items[i], "dscp"))
				c->src_dscp = true;
			else if (!strcmp(items[i], "port"))
				cu_not_mapped(c, line, key,
				              "a port default priority");
			else {
				diag_err(c->d, line,
				         "%s: '%s' is not 802.1p or dscp", key,
				         items[i]);
				return -1;
			}
		}
		return n < 0 ? -1 : 0;
	}
	if (nparts == 2 && !strcmp(part[1], "priority_group_list")) {
		char *items[CU_GROUPS + 1];
		int n = cu_list(v, items, CU_GROUPS + 1);

		if (n < 0 || n > CU_GROUPS) {
			diag_err(c->d, line, "%s: more than %d groups", key,
			         CU_GROUPS);
			return -1;
		}
		c->has_pglist = true;
		for (int i = 0; i < n; i++) {
			struct cu_pgroup *p = cu_pgroup(c, items[i], line);

			if (!p)
				return -1;
			p->listed = true;
		}
		return 0;
	}
	if (nparts == 2 && !strcmp(part[1], "remark_packet_priority")) {
		if (strcmp(v, "none"))
			cu_not_mapped(c, line, key, "roced does not remark");
		return 0;
	}
	if (nparts == 4 && !strncmp(part[1], "cos_", 4) &&
	    (!strcmp(part[2], "priority_source") ||
	     !strcmp(part[2], "packet_priorities"))) {
		cos = strtol(part[1] + 4, &end, 10);
		if (*end || cos < 0 || cos > 7 || part[1][4] == '\0') {
			diag_err(c->d, line,
			         "%s: internal CoS '%s' is not "
			         "cos_0 to cos_7",
			         key, part[1]);
			return -1;
		}
		if (!strcmp(part[3], "8021p")) {
			if (cu_set(c, line, key, v, 7, &x) < 0)
				return -1;
			c->pcp[cos] = (uint8_t)x;
			c->pcp_line[cos] = line;
		} else if (!strcmp(part[3], "dscp")) {
			if (cu_set(c, line, key, v, 63, &x) < 0)
				return -1;
			c->dscp[cos] = x;
		} else {
			goto unknown;
		}
		c->map_line[cos] = line;
		return 0;
	}
	if ((nparts == 2 && !strcmp(part[1], "packet_priority_remark_set")) ||
	    (nparts == 4 && !strncmp(part[1], "cos_", 4) &&
	     !strcmp(part[2], "priority_remark"))) {
		cu_not_mapped(c, line, key, "roced does not remark");
		return 0;
	}
	if (nparts == 2 && !strcmp(part[1], "port_default_priority")) {
		cu_not_mapped(c, line, key, "a port default priority");
		return 0;
	}
unknown:
	cu_not_mapped(c, line, key, "no such traffic.conf key known to roced");
	return 0;
}

/* Keys of traffic.conf that are not about QoS at all. */
static bool cu_not_qos(const char *first)
{
	static const char *const words[] = {"dos_enable",
	                                    "cut_through_enable",
	                                    "resilient_hash_enable",
	                                    "resilient_hash_entries_ecmp",
	                                    "symmetric_hash_enable",
	                                    "sflow",
	                                    "ecmp_max_paths",
	                                    "ecmp_hash_seed",
	                                    "forwarding_table",
	                                    "hash_config",
	                                    "ipv4",
	                                    "ipv6",
	                                    "route",
	                                    "vxlan_routing_overlay",
	                                    "lag_hash_config",
	                                    "acl",
	                                    "storm_control"};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcmp(first, words[i]))
			return true;
	return false;
}

static int cu_key(struct cu *c, unsigned line, char *key, char *v)
{
	char copy[256], *part[8];
	int n = 0;

	if (strlen(key) >= sizeof(copy)) {
		diag_err(c->d, line, "key too long");
		return -1;
	}
	snprintf(copy, sizeof(copy), "%s", key);
	for (char *p = strtok(copy, "."); p && n < 8; p = strtok(NULL, "."))
		part[n++] = p;
	if (n == 0) {
		diag_err(c->d, line, "'%s' is not a key", key);
		return -1;
	}
	for (int k = 0; k < CU_NKIND; k++) {
		if (strcmp(part[0], cu_kind_key[k]) &&
		    !(k == CU_ECN && !strcmp(part[0], "ecn_red")))
			continue;
		c->traffic_conf = true;
		if (n == 2 || n == 3)
			return cu_port_group_key(c, (enum cu_kind)k, line, key,
			                         part[1],
			                         n == 3 ? part[2] : NULL, v);
		cu_not_mapped(c, line, key,
		              "no such traffic.conf key known "
		              "to roced");
		return 0;
	}
	if (!strcmp(part[0], "traffic")) {
		c->traffic_conf = true;
		return cu_traffic_key(c, line, key, part, n, v);
	}
	if (!strcmp(part[0], "priority_group") && n == 3) {
		struct cu_pgroup *p = cu_pgroup(c, part[1], line);
		uint64_t x;

		c->traffic_conf = true;
		if (!p)
			return -1;
		if (!strcmp(part[2], "cos_list")) {
			if (cu_set(c, line, key, v, 7, &x) < 0)
				return -1;
			p->cos = (uint8_t)x;
			p->has_cos = true;
		} else if (!strcmp(part[2], "weight")) {
			if (cu_uint(v, 127, &x) < 0) {
				diag_err(c->d, line,
				         "%s: '%s' is not a weight 0-127", key,
				         v);
				return -1;
			}
			p->weight = (unsigned)x;
			p->has_weight = true;
		} else {
			cu_not_mapped(c, line, key,
			              "no such traffic.conf key "
			              "known to roced");
		}
		return 0;
	}
	if ((!strcmp(part[0], "default_ecn_red_conf") ||
	     !strcmp(part[0], "default_ecn_conf")) &&
	    n == 2) {
		c->traffic_conf = true;
		return cu_default_ecn_key(c, line, key, part[1], v);
	}
	if (!strcmp(part[0], "default_egress_sched")) {
		c->traffic_conf = true;
		return cu_sched_key(c, line, key, part, n, v);
	}
	if (!strcmp(part[0], "cos_egr_queue")) {
		c->traffic_conf = true;
		return cu_egr_queue_key(c, line, key, part, n, v);
	}
	if (!strcmp(part[0], "egress_sched") || !strcmp(part[0], "shaping") ||
	    !strcmp(part[0], "policer")) {
		c->traffic_conf = true;
		cu_not_mapped(c, line, key,
		              !strcmp(part[0], "egress_sched")
		                  ? "per-port egress scheduler profiles: "
		                    "roced maps default_egress_sched"
		                  : "shaping and policing profiles");
		return 0;
	}
	if (!strcmp(part[0], "scheduling")) {
		c->traffic_conf = true;
		if (n != 2 || strcmp(part[1], "algorithm") || strcmp(v, "dwrr"))
			cu_not_mapped(c, line, key,
			              "roced schedules by DWRR "
			              "shares and strict levels");
		return 0;
	}
	if (!strcmp(part[0], "source") || !strcmp(part[0], "remark")) {
		cu_not_mapped(c, line, key,
		              "per-port priority source and "
		              "remark groups");
		return 0;
	}
	if (cu_not_qos(part[0])) {
		diag_warn(c->d, line, "%s: not QoS, ignored", key);
		return 0;
	}
	cu_not_mapped(c, line, key, "no such traffic.conf key known to roced");
	return 0;
}

/* A line that could not be read: its errors (from index FROM of C's
 * list) become warnings that say it was skipped, so that one stray or
 * mistyped line costs that line, not the whole import. */
static void cu_skip_line(struct cu *c, size_t from)
{
	struct diag *d = c->d;

	for (size_t i = from; i < d->n; i++) {
		struct diag_msg *m = &d->v[i];
		size_t len;
		char *t;

		if (m->sev != DIAG_ERROR || !m->text)
			continue;
		len = strlen(m->text) + sizeof("; line skipped");
		t = malloc(len);
		if (!t)
			continue; /* stays an error: nothing is lost */
		snprintf(t, len, "%s; line skipped", m->text);
		free(m->text);
		m->text = t;
		m->sev = DIAG_WARNING;
		d->nerrors--;
		d->nwarnings++;
		c->skipped++;
	}
}

int cu_parse(struct cu *c, const char *text)
{
	unsigned line = 0;
	const char *p = text;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		size_t from = c->d->n;
		char buf[CU_VALUE_MAX], *s, *eq, *hash;

		line++;
		if (len >= sizeof(buf)) {
			diag_err(c->d, line, "line longer than %d characters",
			         CU_VALUE_MAX - 1);
			p += len + (nl ? 1 : 0);
			cu_skip_line(c, from);
			continue;
		}
		memcpy(buf, p, len);
		buf[len] = '\0';
		p += len + (nl ? 1 : 0);
		hash = strchr(buf, '#');
		if (hash)
			*hash = '\0';
		s = cu_trim(buf);
		if (!*s)
			continue;
		if (!strncmp(s, "nv ", 3)) {
			if (cu_nvue(c, line, s) < 0)
				goto skip;
			continue;
		}
		c->qos_keys = true;
		eq = strchr(s, '=');
		if (!eq) {
			diag_err(c->d, line,
			         "expected 'key = value', got '%.40s'", s);
			cu_skip_line(c, from);
			continue;
		}
		*eq = '\0';
		s = cu_trim(s);
		for (const char *k = s; *k; k++)
			if (!isalnum((unsigned char)*k) && *k != '_' &&
			    *k != '.') {
				diag_err(c->d, line, "'%.40s' is not a key", s);
				goto skip;
			}
		if (!*s) {
			diag_err(c->d, line, "a value without a key");
			goto skip;
		}
		if (cu_key(c, line, s, cu_trim(eq + 1)) < 0)
			goto skip;
		continue;
	skip:
		cu_skip_line(c, from);
	}
	return 0;
}

/* --- checks --- */

static bool cu_name_ok(const char *s)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-')
			return false;
	return true;
}

/* A group counts when it is listed and has ports; PFC and ECN groups
 * also need a CoS. Say so at the group's line when one does not. */
static bool cu_effective(struct cu *c, enum cu_kind k, struct cu_group *g)
{
	static const char *const list[CU_NKIND] = {"pfc.port_group_list",
	                                           "link_pause.port_group_list",
	                                           "ecn.port_group_list"};

	if (!g->listed) {
		diag_warn(c->d, g->line,
		          "port group '%s' is not in %s: ignored", g->name,
		          list[k]);
		return false;
	}
	if (!g->nports) {
		diag_warn(c->d, g->line,
		          "port group '%s' has no port_set: "
		          "ignored",
		          g->name);
		return false;
	}
	if (k != CU_LP && !g->cos) {
		diag_warn(c->d, g->cos_line ? g->cos_line : g->line,
		          "port group '%s' has an empty cos_list: %s", g->name,
		          k == CU_PFC ? "nothing is no-drop on its ports, PFC "
		                        "stays off there"
		                      : "no queue marks ECN on its ports");
		return false;
	}
	return true;
}

int cu_check(struct cu *c, bool eff[CU_NKIND][CU_GROUPS])
{
	int rc = 0;
	uint8_t seen = 0;

	if (!c->traffic_conf) {
		diag_err(c->d, 0,
		         "not a Cumulus Linux traffic.conf: no "
		         "traffic, priority_group, pfc, link_pause or ecn key");
		return -1;
	}
	for (int k = 0; k < CU_NKIND; k++)
		for (int i = 0; i < c->ng[k]; i++) {
			struct cu_group *g = &c->g[k][i];

			if (!cu_name_ok(g->name)) {
				diag_err(c->d, g->line,
				         "port group name '%s': "
				         "letters, digits, _ and - only",
				         g->name);
				rc = -1;
			}
			eff[k][i] = cu_effective(c, (enum cu_kind)k, g);
			if (!eff[k][i])
				continue;
			if (k != CU_ECN &&
			    (g->xoff >= g->buffer || g->xon_delta >= g->xoff)) {
				diag_err(
				    c->d,
				    g->buffer_line ? g->buffer_line : g->line,
				    "port group '%s': expected xon_delta "
				    "(%" PRIu64 ") below xoff_size "
				    "(%" PRIu64 ") and xoff_size below "
				    "port_buffer_bytes (%" PRIu64 ")",
				    g->name, g->xon_delta, g->xoff, g->buffer);
				rc = -1;
			}
			if (k == CU_ECN && (!g->min_th || !g->max_th ||
			                    g->min_th > g->max_th)) {
				diag_err(c->d,
				         g->th_line ? g->th_line : g->line,
				         "ECN port group '%s' needs "
				         "min_threshold_bytes at most "
				         "max_threshold_bytes",
				         g->name);
				rc = -1;
			}
		}
	if (c->has_def_ecn && c->def_ecn.min_th > c->def_ecn.max_th) {
		diag_err(c->d,
		         c->def_ecn.th_line ? c->def_ecn.th_line
		                            : c->def_ecn.line,
		         "the default ECN profile needs min_threshold_bytes "
		         "at most max_threshold_bytes");
		rc = -1;
	}
	if (c->sched_line) {
		int sum = 0;

		for (int q = 0; q < 8; q++)
			sum += c->sched_pct[q];
		if (sum > 100) {
			diag_err(c->d, c->sched_line,
			         "default_egress_sched: bw_percent adds up to "
			         "%d, over 100",
			         sum);
			rc = -1;
		}
		if (c->npg)
			diag_warn(c->d, c->sched_line,
			          "default_egress_sched and priority groups "
			          "both set the queues' shares: "
			          "default_egress_sched is taken");
	}
	for (int i = 0; i < c->npg; i++) {
		struct cu_pgroup *p = &c->pg[i];

		/* Without a traffic.priority_group_list every group the
		 * file sets counts, as in an excerpt of a stock file. */
		if (!c->has_pglist)
			p->listed = true;
		if (!p->listed) {
			diag_warn(c->d, p->line,
			          "priority group '%s' is not in "
			          "traffic.priority_group_list: ignored",
			          p->name);
			continue;
		}
		if (seen & p->cos) {
			diag_err(c->d, p->line,
			         "priority group '%s': a CoS "
			         "value is in two priority groups",
			         p->name);
			rc = -1;
		}
		seen |= p->cos;
	}
	if (c->npg)
		for (int q = 0; q < 8; q++)
			if (!(seen & (1u << q)))
				diag_warn(c->d, 0,
				          "internal CoS %d is in no "
				          "priority group: its queue gets only "
				          "what the others leave",
				          q);
	return rc;
}
