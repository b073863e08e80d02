/* strbuf: a growable string for building output in pure code. */
#ifndef ROCED_STRBUF_H
#define ROCED_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

struct strbuf {
	char *s;    /* always NUL-terminated once anything was added */
	size_t len; /* bytes before the NUL */
	size_t cap;
	bool oom; /* an append failed; the content is truncated */
};

void strbuf_init(struct strbuf *sb);
void strbuf_free(struct strbuf *sb);
void strbuf_reset(struct strbuf *sb);
void strbuf_add(struct strbuf *sb, const char *s, size_t n);
void strbuf_puts(struct strbuf *sb, const char *s);
void strbuf_printf(struct strbuf *sb, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The text so far ("" when empty); valid until the next append. */
const char *strbuf_str(const struct strbuf *sb);
/* Hand the buffer to the caller (free() it); SB is left empty. */
char *strbuf_detach(struct strbuf *sb);

#endif
