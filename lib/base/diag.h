/* diag: an ordered list of errors and warnings tied to a source line.
 *
 * Used by the config loader (FILE:LINE: message), the validator and the
 * compiler (plan warnings). Pure: messages go into memory, never to a log.
 */
#ifndef ROCED_DIAG_H
#define ROCED_DIAG_H

#include <stdarg.h>
#include <stddef.h>

enum diag_severity {
	DIAG_ERROR,
	DIAG_WARNING,
	DIAG_NOTE,
};

struct diag_msg {
	enum diag_severity sev;
	unsigned line; /* 1-based source line; 0 = not from a file */
	char *text;
};

struct diag {
	char *file; /* source name used in "FILE:LINE: ..."; may be NULL */
	struct diag_msg *v;
	size_t n, cap;
	size_t nerrors, nwarnings;
};

/* Start an empty list; FILE (copied, may be NULL) prefixes rendered lines. */
void diag_init(struct diag *d, const char *file);
void diag_free(struct diag *d);
/* Drop every message but keep the file name. */
void diag_clear(struct diag *d);

/* Append a message. Allocation failure is recorded as a generic error so
 * that a failing check can never be lost silently. */
void diag_add(struct diag *d, enum diag_severity sev, unsigned line,
              const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void diag_addv(struct diag *d, enum diag_severity sev, unsigned line,
               const char *fmt, va_list ap);

#define diag_err(d, line, ...)  diag_add((d), DIAG_ERROR, (line), __VA_ARGS__)
#define diag_warn(d, line, ...) diag_add((d), DIAG_WARNING, (line), __VA_ARGS__)

/* "error", "warning", "note" ("?" for anything else). */
const char *diag_sev_name(enum diag_severity sev);
/* Drop the messages from index FROM on that repeat one before FROM (same
 * severity, line and text): a second pass over the same input says
 * nothing twice. */
void diag_drop_repeats(struct diag *d, size_t from);

/* Render message I as "FILE:LINE: error: text" (parts omitted when unknown)
 * into BUF. Returns the length snprintf would have written. */
int diag_format(const struct diag *d, size_t i, char *buf, size_t len);

/* Sort messages by line (stable), so one pass over a file reads in order. */
void diag_sort(struct diag *d);

#endif
