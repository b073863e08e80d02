/* Cumulus import: the values every key reads, and what only Cumulus
 * Linux 4.x/5.x has (see conf_cumulus.h): the keys of qos_features.conf
 * that traffic.conf did not have (the default egress scheduler, the
 * default ECN profile, the CoS to queue map) and NVUE's `nv set qos roce`
 * commands. The reader (conf_cumulus.c) hands them each line of theirs. */
#include "conf/conf_cumulus_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- values --- */

char *cu_trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* Split a value "[a, b]" or "a" into ITEMS (pointers into V, modified). */
int cu_list(char *v, char **items, int max)
{
	int n = 0;
	size_t len = strlen(v);

	if (len >= 2 && v[0] == '[' && v[len - 1] == ']') {
		v[len - 1] = '\0';
		v++;
	}
	v = cu_trim(v);
	if (!*v)
		return 0;
	for (char *tok = strtok(v, ","); tok; tok = strtok(NULL, ",")) {
		if (n == max)
			return -1;
		items[n++] = cu_trim(tok);
	}
	return n;
}

int cu_uint(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

int cu_bool(const char *s, bool *out)
{
	if (!strcasecmp(s, "true")) {
		*out = true;
		return 0;
	}
	if (!strcasecmp(s, "false")) {
		*out = false;
		return 0;
	}
	return -1;
}

/* A set of integers 0..MAX ("[0,1,2]"); -1 after an error at LINE. */
int cu_set(struct cu *c, unsigned line, const char *key, char *v, unsigned max,
           uint64_t *mask)
{
	char *items[CU_LIST_ITEMS];
	int n = cu_list(v, items, CU_LIST_ITEMS);

	*mask = 0;
	if (n < 0) {
		diag_err(c->d, line, "%s: more than %d values", key,
		         CU_LIST_ITEMS);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		uint64_t x;

		if (cu_uint(items[i], max, &x) < 0) {
			diag_err(c->d, line, "%s: '%s' is not an integer 0-%u",
			         key, items[i], max);
			return -1;
		}
		*mask |= UINT64_C(1) << x;
	}
	return 0;
}

void cu_not_mapped(struct cu *c, unsigned line, const char *key,
                   const char *why)
{
	diag_warn(c->d, line, "%s: not mapped (%s)", key, why);
}

/* qos_features.conf's default ECN/RED profile:
 * default_ecn_red_conf.FIELD (5.x) or default_ecn_conf.FIELD (4.x). */
int cu_default_ecn_key(struct cu *c, unsigned line, const char *key,
                       const char *field, char *v)
{
	struct cu_group *g = &c->def_ecn;
	uint64_t x;
	bool b;

	if (!c->has_def_ecn) {
		snprintf(g->name, sizeof(g->name), "default");
		g->line = line;
		g->listed = true;
		g->min_th = CU_DEF_ECN_MIN;
		g->max_th = CU_DEF_ECN_MAX;
		g->prob = CU_DEF_ECN_PROB;
		g->ecn = true;
		c->has_def_ecn = true;
	}
	if (!strcmp(field, "egress_queue_list") || !strcmp(field, "cos_list")) {
		if (cu_set(c, line, key, v, 7, &x) < 0)
			return -1;
		g->cos = (uint8_t)x;
		g->has_cos = true;
		g->cos_line = line;
	} else if (!strcmp(field, "min_threshold_bytes") ||
	           !strcmp(field, "max_threshold_bytes")) {
		if (cu_uint(v, INT32_MAX, &x) < 0 || x == 0) {
			diag_err(c->d, line,
			         "%s: '%s' is not a byte count 1-2147483647",
			         key, v);
			return -1;
		}
		*(field[1] == 'i' ? &g->min_th : &g->max_th) = x;
		g->th_line = line;
	} else if (!strcmp(field, "probability")) {
		if (cu_uint(v, 100, &x) < 0) {
			diag_err(c->d, line,
			         "%s: '%s' is not a percentage 0-100", key, v);
			return -1;
		}
		g->prob = (unsigned)x;
	} else if (!strcmp(field, "ecn_enable") ||
	           !strcmp(field, "red_enable")) {
		if (cu_bool(v, &b) < 0) {
			diag_err(c->d, line, "%s: '%s' is not true or false",
			         key, v);
			return -1;
		}
		if (field[0] == 'e')
			g->ecn = b;
		else if (b)
			cu_not_mapped(c, line, key,
			              "random-detect on a queue also drops "
			              "packets that are not ECN-capable");
	} else {
		cu_not_mapped(c, line, key,
		              "no such qos_features.conf key known to roced");
	}
	return 0;
}

/* default_egress_sched.egr_queue_N.bw_percent: the scheduler of every
 * port, NX-OS's bandwidth remaining percent (0: priority, strict). */
int cu_sched_key(struct cu *c, unsigned line, const char *key, char **part,
                 int nparts, char *v)
{
	uint64_t x;
	char *end;
	long q;

	if (nparts != 3 || strncmp(part[1], "egr_queue_", 10) ||
	    strcmp(part[2], "bw_percent")) {
		cu_not_mapped(c, line, key,
		              "no such qos_features.conf key known to roced");
		return 0;
	}
	q = strtol(part[1] + 10, &end, 10);
	if (*end || part[1][10] == '\0' || q < 0 || q > 7) {
		diag_err(c->d, line,
		         "%s: '%s' is not egr_queue_0 to egr_queue_7", key,
		         part[1]);
		return -1;
	}
	if (cu_uint(v, 100, &x) < 0) {
		diag_err(c->d, line, "%s: '%s' is not a percentage 0-100", key,
		         v);
		return -1;
	}
	c->sched_pct[q] = (int)x;
	c->has_sched[q] = true;
	if (!c->sched_line)
		c->sched_line = line;
	return 0;
}

/* cos_egr_queue.cos_N.uc = Q: internal CoS N's queue. NX-OS keeps
 * qos-group N in queue N: only that mapping has an equivalent. */
int cu_egr_queue_key(struct cu *c, unsigned line, const char *key, char **part,
                     int nparts, char *v)
{
	uint64_t x;
	char *end;
	long cos;

	if (nparts != 3 || strncmp(part[1], "cos_", 4) ||
	    (strcmp(part[2], "uc") && strcmp(part[2], "cpu"))) {
		cu_not_mapped(c, line, key,
		              "no such qos_features.conf key known to roced");
		return 0;
	}
	cos = strtol(part[1] + 4, &end, 10);
	if (*end || part[1][4] == '\0' || cos < 0 || cos > 7 ||
	    cu_uint(v, 7, &x) < 0) {
		diag_err(c->d, line, "%s: expected cos_0 to cos_7 = 0-7", key);
		return -1;
	}
	if (!strcmp(part[2], "cpu"))
		cu_not_mapped(c, line, key, "roced does not queue to the CPU");
	else if ((long)x != cos)
		cu_not_mapped(c, line, key,
		              "internal CoS to another queue: roced keeps "
		              "qos-group N in queue N, as NX-OS does; "
		              "classify into qos-group Q instead");
	return 0;
}

/* One NVUE command line ("nv set qos roce mode lossless"), as
 * `nv config show -o commands` prints a Cumulus Linux 5.x switch's
 * configuration. Only RoCE's mode has an NX-OS equivalent here: Onyx's
 * and roced's one-command `roce MODE`, whose defaults (DSCP 26 / CoS 3
 * no-drop with ECN, CNP DSCP 48 / CoS 6 strict, ETS 50/50) are NVUE's. */
int cu_nvue(struct cu *c, unsigned line, char *s)
{
	char *w[8];
	int n = 0;

	for (char *t = strtok(s, " \t"); t && n < 8; t = strtok(NULL, " \t"))
		w[n++] = t;
	c->traffic_conf = true;
	if (n >= 2 && !strcmp(w[1], "config"))
		return 0; /* apply, save, diff: how it was applied */
	if (n < 3 || (strcmp(w[1], "set") && strcmp(w[1], "unset"))) {
		diag_err(c->d, line, "'%.40s' is not an NVUE set or unset",
		         w[n > 1 ? 1 : 0]);
		return -1;
	}
	if (strcmp(w[2], "qos")) {
		diag_warn(c->d, line, "nv %s %s: not QoS, ignored", w[1], w[2]);
		return 0;
	}
	if (n < 4 || strcmp(w[3], "roce")) {
		cu_not_mapped(c, line, n >= 4 ? w[3] : "nv set qos",
		              "NVUE qos profiles other than roce: their "
		              "qos_features.conf keys are what roced maps");
		return 0;
	}
	if (!strcmp(w[1], "unset") && n == 4) {
		snprintf(c->roce, sizeof(c->roce), "off");
	} else if (n == 4 ||
	           (n == 6 && !strcmp(w[4], "enable") && !strcmp(w[5], "on"))) {
		/* RoCE on: lossless unless a mode says otherwise */
		if (!c->roce[0] || !strcmp(c->roce, "off"))
			snprintf(c->roce, sizeof(c->roce), "lossless");
	} else if (n == 6 && !strcmp(w[4], "enable") && !strcmp(w[5], "off")) {
		snprintf(c->roce, sizeof(c->roce), "off");
	} else if (n == 6 && !strcmp(w[4], "mode") &&
	           (!strcmp(w[5], "lossless") || !strcmp(w[5], "lossy"))) {
		snprintf(c->roce, sizeof(c->roce), "%s", w[5]);
	} else if (n == 6 && !strcmp(w[4], "mode")) {
		diag_err(c->d, line,
		         "nv set qos roce mode: '%s' is not lossless or lossy",
		         w[5]);
		return -1;
	} else {
		cu_not_mapped(c, line, n >= 5 ? w[4] : "roce",
		              "RoCE settings besides its mode keep roced's "
		              "defaults");
		return 0;
	}
	c->roce_line = line;
	return 0;
}
