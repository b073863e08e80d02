/* escape: see escape.h. */
#include "base/escape.h"

#include <stdint.h>
#include <string.h>

/* Unicode's format characters (general category Cf) and its line and
 * paragraph separators (Zl, Zp), as of Unicode 15: invisible, and many
 * act on what a terminal shows (the bidirectional marks, embeddings,
 * overrides and isolates such as U+061C and U+202E reorder the text
 * around them; U+2028 breaks a line). Ranges, sorted. */
static const struct {
	uint32_t lo, hi;
} escape_formats[] = {
    {0x00ad, 0x00ad},   {0x0600, 0x0605},   {0x061c, 0x061c},
    {0x06dd, 0x06dd},   {0x070f, 0x070f},   {0x0890, 0x0891},
    {0x08e2, 0x08e2},   {0x180e, 0x180e},   {0x200b, 0x200f},
    {0x2028, 0x202e},   {0x2060, 0x2064},   {0x2066, 0x206f},
    {0xfeff, 0xfeff},   {0xfff9, 0xfffb},   {0x110bd, 0x110bd},
    {0x110cd, 0x110cd}, {0x13430, 0x1343f}, {0x1bca0, 0x1bca3},
    {0x1d173, 0x1d17a}, {0xe0001, 0xe0001}, {0xe0020, 0xe007f},
};

static bool escape_format(uint32_t c)
{
	for (size_t i = 0; i < sizeof(escape_formats) / sizeof(*escape_formats);
	     i++) {
		if (c < escape_formats[i].lo)
			return false;
		if (c <= escape_formats[i].hi)
			return true;
	}
	return false;
}

/* The length of the printable UTF-8 character at P (of N bytes left), or 0
 * when the byte there must be escaped. */
static size_t escape_char_len(const uint8_t *p, size_t n)
{
	uint32_t c;
	size_t len;

	if (p[0] >= 0x20 && p[0] < 0x7f)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		len = 2, c = p[0] & 0x1fu;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		len = 3, c = p[0] & 0x0fu;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		len = 4, c = p[0] & 0x07u;
	else
		return 0; /* ASCII control, DEL, a continuation, 0xc0/c1, f5+ */
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (p[i] & 0x3fu);
	}
	if ((len == 3 && c < 0x800) || (len == 4 && c < 0x10000) ||
	    c > 0x10ffff)
		return 0; /* overlong or past Unicode */
	if (c >= 0xd800 && c <= 0xdfff)
		return 0; /* a surrogate is not a character */
	if (c < 0xa0)
		return 0; /* C1 controls: some terminals act on them */
	if (escape_format(c))
		return 0;
	return len;
}

/* Calls OUT for each piece of the escaped text: a run of bytes as they
 * are, or one escape. Stops when OUT returns false. */
typedef bool (*escape_out_fn)(void *arg, const char *s, size_t n);

static void escape_run(const uint8_t *s, size_t n, unsigned flags,
                       escape_out_fn out, void *arg)
{
	static const char hex[] = "0123456789abcdef";
	size_t i = 0;

	while (i < n) {
		size_t len;
		char e[4];

		if (s[i] == '\n' && (flags & ESCAPE_NEWLINE))
			len = 1;
		else
			len = escape_char_len(s + i, n - i);
		if (len && !(s[i] == '\\' && (flags & ESCAPE_BACKSLASH))) {
			if (!out(arg, (const char *)s + i, len))
				return;
			i += len;
			continue;
		}
		if (len) {
			if (!out(arg, "\\\\", 2))
				return;
			i++;
			continue;
		}
		e[0] = '\\';
		e[1] = 'x';
		e[2] = hex[s[i] >> 4];
		e[3] = hex[s[i] & 0xf];
		if (!out(arg, e, 4))
			return;
		i++;
	}
}

static bool escape_to_strbuf(void *arg, const char *s, size_t n)
{
	strbuf_add(arg, s, n);
	return true;
}

void escape_add(struct strbuf *sb, const void *s, size_t n, unsigned flags)
{
	if (!n) {
		strbuf_add(sb, "", 0);
		return;
	}
	escape_run(s, n, flags, escape_to_strbuf, sb);
}

struct escape_fixed {
	char *dst;
	size_t cap, len;
};

static bool escape_to_fixed(void *arg, const char *s, size_t n)
{
	struct escape_fixed *f = arg;

	if (f->len + n + 1 > f->cap)
		return false;
	memcpy(f->dst + f->len, s, n);
	f->len += n;
	return true;
}

size_t escape_buf(char *dst, size_t cap, const void *s, size_t n,
                  unsigned flags)
{
	struct escape_fixed f = {dst, cap, 0};

	if (!cap)
		return 0;
	escape_run(s, n, flags, escape_to_fixed, &f);
	dst[f.len] = '\0';
	return f.len;
}

bool escape_is_clean(const void *s, size_t n, bool newline_ok)
{
	const uint8_t *p = s;
	size_t i = 0;

	while (i < n) {
		size_t len = escape_char_len(p + i, n - i);

		if (!len && !(newline_ok && p[i] == '\n'))
			return false;
		i += len ? len : 1;
	}
	return true;
}
