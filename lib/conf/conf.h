/* conf: the libconfig file <-> policy.
 *
 * conf_load() parses FILE (or a string) into a policy and validates it;
 * every problem is reported in one pass as FILE:LINE: message. The schema
 * follows the NX-OS constructs one-to-one; roced.conf(5) documents it.
 *
 * Units: thresholds take "N bytes", "N kbytes" or "N mbytes" (also
 * "N packets" is refused: roced works in bytes). kbytes = 1024 bytes and
 * mbytes = 1048576 bytes, as tc's "kb"/"mb" and as switch buffers count.
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

/* Threshold values: "150 kbytes", "3000000 bytes", "2 mbytes" (the unit
 * may follow the number with or without a space) -> bytes. Returns 0, or
 * -1 with a message naming the bad text in ERR. */
int conf_bytes_parse(const char *s, uint64_t *bytes, char *err, size_t errlen);
/* The exact form with the largest unit: 153600 -> "150 kbytes". Returns
 * the length snprintf would have written. */
int conf_bytes_format(uint64_t bytes, char *buf, size_t len);

/* Write P in the libconfig schema that conf_load reads back to an equal
 * policy. Returns a malloc'd string, or NULL on ENOMEM. */
char *conf_write_string(const struct policy *p);

#endif
