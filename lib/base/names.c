/* names: see names.h. */
#include "base/names.h"

#include <stdio.h>
#include <string.h>

static const struct {
	const char *name;
	const char *help;
} names_debug_table[NAMES_DEBUG_MAX] = {
    [NAMES_DEBUG_CONF] = {"conf", "Configuration loading and reload"},
    [NAMES_DEBUG_APPLY] = {"apply", "Applying plans to the kernel"},
    [NAMES_DEBUG_LINK] = {"link", "Link events"},
    [NAMES_DEBUG_DCBX] = {"dcbx", "DCBX negotiation"},
    [NAMES_DEBUG_WATCHDOG] = {"watchdog", "PFC watchdog"},
    [NAMES_DEBUG_CTL] = {"ctl", "Control socket"},
};

const char *names_debug_name(enum names_debug s)
{
	return (unsigned)s < NAMES_DEBUG_MAX ? names_debug_table[s].name : "?";
}

int names_debug_parse(const char *name)
{
	for (int s = 0; name && s < NAMES_DEBUG_MAX; s++)
		if (!strcmp(name, names_debug_table[s].name))
			return s;
	return -1;
}

const char *names_debug_help(enum names_debug s)
{
	return (unsigned)s < NAMES_DEBUG_MAX ? names_debug_table[s].help : "?";
}

int names_debug_expected(char *buf, size_t len)
{
	size_t off = (size_t)snprintf(buf, len, "%s", NAMES_DEBUG_ALL);

	for (unsigned s = 0; s < NAMES_DEBUG_MAX; s++)
		off += (size_t)snprintf(
		    buf + (off < len ? off : len), off < len ? len - off : 0,
		    "%s%s", s + 1 == NAMES_DEBUG_MAX ? " or " : ", ",
		    names_debug_table[s].name);
	return (int)off;
}
