/* units: see units.h. */
#include "model/units.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	uint64_t bytes;
	const char *help;
} units_sizes[UNITS_SIZE_MAX] = {
    [UNITS_BYTES] = {"bytes", 1, "In bytes"},
    [UNITS_KBYTES] = {"kbytes", 1024, "In kilobytes (1024 bytes)"},
    [UNITS_MBYTES] = {"mbytes", 1024 * 1024, "In megabytes (1048576 bytes)"},
};

const char *units_size_name(enum units_size u)
{
	return (unsigned)u < UNITS_SIZE_MAX ? units_sizes[u].name : "?";
}

int units_size_parse(const char *name)
{
	for (int u = 0; name && u < UNITS_SIZE_MAX; u++)
		if (!strcmp(name, units_sizes[u].name))
			return u;
	return -1;
}

uint64_t units_size_bytes(enum units_size u)
{
	return (unsigned)u < UNITS_SIZE_MAX ? units_sizes[u].bytes : 0;
}

const char *units_size_help(enum units_size u)
{
	return (unsigned)u < UNITS_SIZE_MAX ? units_sizes[u].help : "?";
}

/* "A, B or C" of the unit names, each between PRE and POST. */
static void units_list(const char *pre, const char *post, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (unsigned u = 0; u < UNITS_SIZE_MAX && off < len; u++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s%s%s",
		                        !u                        ? ""
		                        : u + 1 == UNITS_SIZE_MAX ? " or "
		                                                  : ", ",
		                        pre, units_sizes[u].name, post);
}

int units_bytes_parse(const char *s, uint64_t *bytes, char *err, size_t errlen)
{
	const char *p = s;
	unsigned long long v;
	char *end, list[64];

	while (isspace((unsigned char)*p))
		p++;
	if (!isdigit((unsigned char)*p))
		goto bad;
	errno = 0;
	v = strtoull(p, &end, 10);
	if (errno)
		goto bad;
	while (isspace((unsigned char)*end))
		end++;
	if (!strncmp(end, "packets", 7)) {
		units_list("", "", list, sizeof(list));
		snprintf(err, errlen,
		         "threshold '%s' is in packets; roced works in bytes, "
		         "use %s",
		         s, list);
		return -1;
	}
	for (unsigned u = 0; u < UNITS_SIZE_MAX; u++) {
		size_t n = strlen(units_sizes[u].name);

		if (strncmp(end, units_sizes[u].name, n))
			continue;
		end += n;
		while (isspace((unsigned char)*end))
			end++;
		if (*end)
			goto bad;
		if (v > UINT64_MAX / units_sizes[u].bytes) {
			snprintf(err, errlen, "threshold '%s' is too large", s);
			return -1;
		}
		*bytes = v * units_sizes[u].bytes;
		return 0;
	}
bad:
	units_list("'N ", "'", list, sizeof(list));
	snprintf(err, errlen,
	         "invalid threshold '%s', expected %s (%s = %" PRIu64 " %s)", s,
	         list, units_sizes[UNITS_KBYTES].name,
	         units_sizes[UNITS_KBYTES].bytes,
	         units_sizes[UNITS_BYTES].name);
	return -1;
}

int units_bytes_format(uint64_t bytes, char *buf, size_t len)
{
	unsigned u = UNITS_SIZE_MAX - 1;

	/* The largest unit that divides BYTES exactly; 0 is "0 bytes". */
	while (u > 0 && (!bytes || bytes % units_sizes[u].bytes))
		u--;
	return snprintf(buf, len, "%" PRIu64 " %s",
	                bytes / units_sizes[u].bytes, units_sizes[u].name);
}

/* --- rates --- */

static const struct {
	const char *name;
	uint64_t kbps;
	const char *help;
} units_rates[UNITS_RATE_MAX] = {
    [UNITS_KBPS] = {"kbps", 1, "In kilobits per second (1000 bits)"},
    [UNITS_MBPS] = {"mbps", 1000, "In megabits per second"},
    [UNITS_GBPS] = {"gbps", 1000 * 1000, "In gigabits per second"},
};

const char *units_rate_name(enum units_rate u)
{
	return (unsigned)u < UNITS_RATE_MAX ? units_rates[u].name : "?";
}

int units_rate_parse(const char *name)
{
	for (int u = 0; name && u < UNITS_RATE_MAX; u++)
		if (!strcmp(name, units_rates[u].name))
			return u;
	return -1;
}

uint64_t units_rate_kbps(enum units_rate u)
{
	return (unsigned)u < UNITS_RATE_MAX ? units_rates[u].kbps : 0;
}

const char *units_rate_help(enum units_rate u)
{
	return (unsigned)u < UNITS_RATE_MAX ? units_rates[u].help : "?";
}

int units_kbps_parse(const char *s, uint64_t *kbps, char *err, size_t errlen)
{
	char *end;
	unsigned long long n;
	int u;

	errno = 0;
	n = strtoull(s, &end, 10);
	while (*end == ' ')
		end++;
	u = units_rate_parse(end);
	if (!isdigit((unsigned char)*s) || errno || u < 0 ||
	    n > UINT64_MAX / units_rates[u].kbps) {
		snprintf(err, errlen,
		         "invalid rate '%.64s', expected N kbps, N mbps or N "
		         "gbps",
		         s);
		return -1;
	}
	*kbps = n * units_rates[u].kbps;
	return 0;
}

int units_kbps_format(uint64_t kbps, char *buf, size_t len)
{
	unsigned u = UNITS_RATE_MAX - 1;

	while (u && kbps % units_rates[u].kbps)
		u--;
	return snprintf(buf, len, "%" PRIu64 " %s", kbps / units_rates[u].kbps,
	                units_rates[u].name);
}
