/* policy_list: the name tables and value lists shared by the config file,
 * the CLI and the printers, so that parse and print use the same words. */
#include "model/policy.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const policy_queue_names[POLICY_NQUEUES] = {
    POLICY_QUEUE_DEFAULT,    POLICY_QUEUE_PREFIX "1", POLICY_QUEUE_PREFIX "2",
    POLICY_QUEUE_PREFIX "3", POLICY_QUEUE_PREFIX "4", POLICY_QUEUE_PREFIX "5",
    POLICY_QUEUE_PREFIX "6", POLICY_QUEUE_PREFIX "7",
};

int policy_queue_parse(const char *name)
{
	if (!name)
		return -1;
	/* c-out-8q-q0 is accepted as a synonym of q-default. */
	if (!strcmp(name, POLICY_QUEUE_PREFIX "0"))
		return 0;
	/* A 4-queue Nexus names its egress classes c-out-q1 .. c-out-q3 and
	 * c-out-q-default: the same queues of roced's eight, which keeps
	 * and prints them under their 8-queue names. */
	if (!strcmp(name, POLICY_QUEUE4_DEFAULT))
		return 0;
	if (!strncmp(name, POLICY_QUEUE4_PREFIX,
	             strlen(POLICY_QUEUE4_PREFIX)) &&
	    name[strlen(POLICY_QUEUE4_PREFIX)] >= '1' &&
	    name[strlen(POLICY_QUEUE4_PREFIX)] <= '3' &&
	    !name[strlen(POLICY_QUEUE4_PREFIX) + 1])
		return name[strlen(POLICY_QUEUE4_PREFIX)] - '0';
	for (unsigned i = 0; i < POLICY_NQUEUES; i++)
		if (!strcmp(name, policy_queue_names[i]))
			return (int)i;
	return -1;
}

const char *policy_queue_name(unsigned n)
{
	return n < POLICY_NQUEUES ? policy_queue_names[n] : "?";
}

const char *policy_queue_name_of(const struct policy_queue *q, unsigned n)
{
	static const char *const names4[] = {
	    POLICY_QUEUE4_DEFAULT,
	    POLICY_QUEUE4_PREFIX "1",
	    POLICY_QUEUE4_PREFIX "2",
	    POLICY_QUEUE4_PREFIX "3",
	};

	if (q && q->uname[0])
		return q->uname;
	if (q && q->name4 && n < sizeof(names4) / sizeof(names4[0]))
		return names4[n];
	return policy_queue_name(n);
}

/* RFC 2474/2597/3246 per-hop behaviour names, as NX-OS accepts them. */
static const struct {
	const char *name;
	unsigned char value;
} policy_dscp_names[] = {
    {"default", 0}, {"cs1", 8},   {"af11", 10}, {"af12", 12}, {"af13", 14},
    {"cs2", 16},    {"af21", 18}, {"af22", 20}, {"af23", 22}, {"cs3", 24},
    {"af31", 26},   {"af32", 28}, {"af33", 30}, {"cs4", 32},  {"af41", 34},
    {"af42", 36},   {"af43", 38}, {"cs5", 40},  {"ef", 46},   {"cs6", 48},
    {"cs7", 56},
};

#define POLICY_NDSCP_NAMES                                                     \
	(sizeof(policy_dscp_names) / sizeof(policy_dscp_names[0]))

/* Parse a decimal number that uses the whole string; -1 otherwise. */
static long policy_num(const char *s)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < 0 || v > 1000000)
		return -1;
	return v;
}

int policy_dscp_parse(const char *s)
{
	long v = policy_num(s);

	if (v >= 0)
		return v <= 63 ? (int)v : -1;
	if (!strcasecmp(s, "cs0"))
		return 0;
	for (size_t i = 0; i < POLICY_NDSCP_NAMES; i++)
		if (!strcasecmp(s, policy_dscp_names[i].name))
			return policy_dscp_names[i].value;
	return -1;
}

const char *policy_dscp_name(unsigned n)
{
	for (size_t i = 0; i < POLICY_NDSCP_NAMES; i++)
		if (policy_dscp_names[i].value == n)
			return policy_dscp_names[i].name;
	return NULL;
}

static long policy_list_value(const char *tok, unsigned max, bool dscp_names)
{
	long v;

	if (dscp_names) {
		v = policy_dscp_parse(tok);
		return v >= 0 && (unsigned long)v <= max ? v : -1;
	}
	v = policy_num(tok);
	return v >= 0 && (unsigned long)v <= max ? v : -1;
}

int policy_list_parse(const char *s, unsigned max, bool dscp_names,
                      uint64_t *mask, char *err, size_t errlen)
{
	char buf[256], *save = NULL, *tok;
	uint64_t m = 0;

	if (!s || !*s) {
		snprintf(err, errlen,
		         "empty value list, expected e.g. '3' or "
		         "'0-2,5'");
		return -1;
	}
	if (strlen(s) >= sizeof(buf)) {
		snprintf(err, errlen, "value list too long");
		return -1;
	}
	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ", ", &save); tok;
	     tok = strtok_r(NULL, ", ", &save)) {
		char *dash = strchr(tok, '-');
		long lo, hi;

		if (dash) {
			*dash = '\0';
			lo = policy_list_value(tok, max, dscp_names);
			hi = policy_list_value(dash + 1, max, dscp_names);
			if (lo < 0 || hi < 0 || lo > hi) {
				*dash = '-';
				snprintf(err, errlen,
				         "invalid range '%s', expected "
				         "LOW-HIGH within 0-%u",
				         tok, max);
				return -1;
			}
		} else {
			lo = hi = policy_list_value(tok, max, dscp_names);
			if (lo < 0) {
				snprintf(
				    err, errlen,
				    "invalid value '%s', expected %s0-%u", tok,
				    dscp_names ? "a DSCP name or " : "", max);
				return -1;
			}
		}
		for (long v = lo; v <= hi; v++)
			m |= 1ULL << v;
	}
	if (!m) {
		snprintf(err, errlen, "empty value list");
		return -1;
	}
	*mask |= m;
	return 0;
}

int policy_list_format(uint64_t mask, char *buf, size_t len)
{
	size_t off = 0;
	bool first = true;

	if (len)
		buf[0] = '\0';
	for (unsigned v = 0; v < 64; v++) {
		unsigned hi = v;
		/* Past the end of BUF only the length is counted: no pointer
		 * beyond the buffer (or into NULL) is formed. */
		char *dst = off < len ? buf + off : NULL;
		size_t room = off < len ? len - off : 0;
		int n;

		if (!(mask & (1ULL << v)))
			continue;
		while (hi + 1 < 64 && (mask & (1ULL << (hi + 1))))
			hi++;
		if (hi == v)
			n = snprintf(dst, room, "%s%u", first ? "" : ",", v);
		else
			n = snprintf(dst, room, "%s%u-%u", first ? "" : ",", v,
			             hi);
		if (n < 0)
			return -1;
		off += (size_t)n;
		first = false;
		v = hi;
	}
	return (int)off;
}

/* The Nexus 9000's default-8q-out-policy: q7 strict (level 1), q1 .. q6
 * at bandwidth remaining 0 and q-default at 100, so that every class
 * the qos policy does not give a queuing policy of its own shares the
 * port through q-default. */
#define POLICY_BUILTIN_QUEUE(bw)                                               \
	{                                                                      \
		.configured = true, .has_bandwidth = true,                     \
		.bandwidth_percent = (bw)                                      \
	}
static const struct policy_map_queuing policy_queuing_default = {
    .name = POLICY_QUEUING_DEFAULT,
    .queue =
        {
            POLICY_BUILTIN_QUEUE(100),
            POLICY_BUILTIN_QUEUE(0),
            POLICY_BUILTIN_QUEUE(0),
            POLICY_BUILTIN_QUEUE(0),
            POLICY_BUILTIN_QUEUE(0),
            POLICY_BUILTIN_QUEUE(0),
            POLICY_BUILTIN_QUEUE(0),
            {.configured = true, .priority_level = 1},
        },
    .description = "NX-OS default queuing policy (built in)",
};

const struct policy_map_queuing *policy_queuing_builtin(const char *name)
{
	if (name && (!strcmp(name, POLICY_QUEUING_DEFAULT) ||
	             !strcmp(name, POLICY_QUEUING_DEFAULT8Q)))
		return &policy_queuing_default;
	return NULL;
}
