/* strbuf: see strbuf.h. */
#include "base/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void strbuf_init(struct strbuf *sb)
{
	memset(sb, 0, sizeof(*sb));
}

void strbuf_free(struct strbuf *sb)
{
	free(sb->s);
	strbuf_init(sb);
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	sb->oom = false;
	if (sb->s)
		sb->s[0] = '\0';
}

static bool strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;
	size_t ncap;
	char *ns;

	if (sb->oom)
		return false;
	if (need <= sb->cap)
		return true;
	ncap = sb->cap ? sb->cap : 256;
	while (ncap < need)
		ncap *= 2;
	ns = realloc(sb->s, ncap);
	if (!ns) {
		sb->oom = true;
		return false;
	}
	sb->s = ns;
	sb->cap = ncap;
	return true;
}

void strbuf_add(struct strbuf *sb, const char *s, size_t n)
{
	if (!strbuf_grow(sb, n))
		return;
	memcpy(sb->s + sb->len, s, n);
	sb->len += n;
	sb->s[sb->len] = '\0';
}

void strbuf_puts(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !strbuf_grow(sb, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(sb->s + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

const char *strbuf_str(const struct strbuf *sb)
{
	return sb->s ? sb->s : "";
}

char *strbuf_detach(struct strbuf *sb)
{
	char *s = sb->s;

	if (!s)
		s = strdup("");
	strbuf_init(sb);
	return s;
}
