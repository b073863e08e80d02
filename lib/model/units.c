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
