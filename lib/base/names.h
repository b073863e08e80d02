/* names: name tables of vocabularies that several parts of roced parse or
 * print and that no model type owns. Each is one table here; parsers,
 * printers and messages all go through it.
 *
 * Debug subsystems: what roced's log can turn on by name, from roced -D,
 * rocesh's `debug` command (the command engine offers every word of the
 * table) and the control protocol's debug request. The word "all" stands
 * for every one.
 */
#ifndef ROCED_NAMES_H
#define ROCED_NAMES_H

#include <stddef.h>

enum names_debug {
	NAMES_DEBUG_CONF,
	NAMES_DEBUG_APPLY,
	NAMES_DEBUG_LINK,
	NAMES_DEBUG_DCBX,
	NAMES_DEBUG_WATCHDOG,
	NAMES_DEBUG_CTL,
	NAMES_DEBUG_MAX,
};

/* The word for every subsystem at once (not a name of the table). */
#define NAMES_DEBUG_ALL "all"

/* "conf", "apply", ... ("?" for anything else); names_debug_parse is its
 * inverse (-1 if unknown, NAMES_DEBUG_ALL included). */
const char *names_debug_name(enum names_debug s);
int names_debug_parse(const char *name);
/* What rocesh's `?` says of S, e.g. "DCBX negotiation". */
const char *names_debug_help(enum names_debug s);
/* The words a debug list may hold, for messages: "all, conf, apply, link,
 * dcbx, watchdog or ctl". Returns the length snprintf would have written. */
int names_debug_expected(char *buf, size_t len);

#endif
