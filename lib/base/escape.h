/* escape: bytes from outside (a link peer's LLDP strings, a client's
 * request) made safe for a terminal, a log line and JSON. */
#ifndef ROCED_ESCAPE_H
#define ROCED_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/strbuf.h"

/* Also write a backslash as "\\", so that the escaped text says without
 * doubt which bytes came from the wire (show output). Without it, text
 * that was escaped before passes a second time unchanged (log lines). */
#define ESCAPE_BACKSLASH 0x1u
/* Let '\n' pass: text of several lines (a plan, a reply's text). */
#define ESCAPE_NEWLINE 0x2u

/* Append the N bytes at S to SB. Printable ASCII and well-formed UTF-8
 * characters that are printable pass; every other byte (C0 and C1
 * controls, DEL, NUL, bytes of invalid or overlong UTF-8, surrogates, the
 * line separators and Unicode's format characters, among them the
 * bidirectional controls that reorder what a terminal shows) becomes
 * "\xNN", as lldpcli shows them. The result is
 * valid UTF-8 without control characters. */
void escape_add(struct strbuf *sb, const void *s, size_t n, unsigned flags);
/* The same into DST of CAP bytes (CAP > 0), always NUL-terminated and cut
 * before an escape or character that would not fit whole. Returns the
 * length written. */
size_t escape_buf(char *dst, size_t cap, const void *s, size_t n,
                  unsigned flags);
/* Whether the N bytes at S are what escape_add yields: well-formed UTF-8
 * with no control or reordering character; NEWLINE_OK lets '\n' pass
 * (multi-line text). */
bool escape_is_clean(const void *s, size_t n, bool newline_ok);

#endif
