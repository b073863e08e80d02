/* conf: the libconfig file <-> policy.
 *
 * conf_load() parses FILE (or a string) into a policy and validates it;
 * every problem is reported in one pass as FILE:LINE: message. The schema
 * follows the NX-OS constructs one-to-one; roced.conf(5) documents it.
 *
 * Thresholds are sizes in the units of model/units.h ("150 kbytes") or
 * plain integers of bytes.
 */
#ifndef ROCED_CONF_H
#define ROCED_CONF_H

#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "model/policy.h"

#define CONF_DEFAULT_PATH "/etc/roced/roced.conf"

/* Parse and validate. On success returns 0 and fills OUT (initialised here).
 * On failure returns -1 with every error in D (initialised by the caller
 * with the file name) and OUT empty. Warnings are added to D either way. */
int conf_load_file(const char *path, struct policy *out, struct diag *d);
int conf_load_string(const char *text, struct policy *out, struct diag *d);

/* Write P in the libconfig schema that conf_load reads back to an equal
 * policy. Returns a malloc'd string, or NULL on ENOMEM. */
char *conf_write_string(const struct policy *p);

#endif
