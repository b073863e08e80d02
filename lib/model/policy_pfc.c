/* policy_pfc: the vocabularies of PFC, link pause and the PFC watchdog that
 * roced.conf and rocesh both parse and print (issue 8). Kept apart from
 * policy.c so that each vocabulary has its one table here. */
#include "model/policy.h"

#include <stdio.h>
#include <string.h>

static const struct {
	const char *name;
	const char *help; /* what rocesh's `?` says of it */
} policy_pfcwd_action_names[POLICY_PFCWD_NACTIONS] = {
    [POLICY_PFCWD_DROP] = {"drop",
                           "Flush the queue, drop what arrives for it and "
                           "ignore pause for its priority (default)"},
    [POLICY_PFCWD_FORWARD] = {"forward",
                              "Ignore pause for the priority: the queue "
                              "becomes lossy"},
    [POLICY_PFCWD_ALERT] = {"alert", "Log the storm and do nothing else"},
};

const char *policy_pfcwd_action_name(enum policy_pfcwd_action a)
{
	return (unsigned)a < POLICY_PFCWD_NACTIONS
	           ? policy_pfcwd_action_names[a].name
	           : "?";
}

int policy_pfcwd_action_parse(const char *s)
{
	for (unsigned i = 0; s && i < POLICY_PFCWD_NACTIONS; i++)
		if (!strcmp(s, policy_pfcwd_action_names[i].name))
			return (int)i;
	return -1;
}

const char *policy_pfcwd_action_help(enum policy_pfcwd_action a)
{
	return (unsigned)a < POLICY_PFCWD_NACTIONS
	           ? policy_pfcwd_action_names[a].help
	           : "?";
}

int policy_pfcwd_action_expected(char *buf, size_t len)
{
	size_t off = 0;

	if (len)
		buf[0] = '\0';
	for (unsigned i = 0; i < POLICY_PFCWD_NACTIONS; i++)
		off +=
		    (size_t)snprintf(buf + (off < len ? off : len),
		                     off < len ? len - off : 0, "%s%s",
		                     !i                               ? ""
		                     : i + 1 == POLICY_PFCWD_NACTIONS ? " or "
		                                                      : ", ",
		                     policy_pfcwd_action_names[i].name);
	return (int)off;
}
