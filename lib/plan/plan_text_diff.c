/* plan_text_diff: what a reload's dry run shows of a port: the lines of
 * the running plan's text the candidate's lacks (-) and the lines it
 * adds (+), compared as multisets of lines (plan_text.h). The text is
 * plan_text_write_port's, one object or comment a line, so a changed
 * setting is a changed line wherever it sits. */
#include "plan/plan_text.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The next line of *S (without its newline) in *LINE, *LEN; false at the
 * end. */
static bool plan_text_next_line(const char **s, const char **line, size_t *len)
{
	const char *nl;

	if (!**s)
		return false;
	*line = *s;
	nl = strchr(*s, '\n');
	*len = nl ? (size_t)(nl - *s) : strlen(*s);
	*s += *len + (nl ? 1 : 0);
	return true;
}

/* Is the line LINE (LEN bytes) in TEXT, not yet in USED (one flag per
 * line of TEXT)? Marks the first such line used. */
static bool plan_text_take(const char *text, bool *used, const char *line,
                           size_t len)
{
	const char *l;
	size_t n, i = 0;

	while (plan_text_next_line(&text, &l, &n)) {
		if (!used[i] && n == len && !memcmp(l, line, len)) {
			used[i] = true;
			return true;
		}
		i++;
	}
	return false;
}

static size_t plan_text_nlines(const char *s)
{
	const char *l;
	size_t n, count = 0;

	while (plan_text_next_line(&s, &l, &n))
		count++;
	return count;
}

/* The lines of FROM that TO lacks (each line counted as often as it
 * appears), each written after MARK. */
static size_t plan_text_lacks(const char *from, const char *to,
                              const char *mark, struct strbuf *out)
{
	bool *used = calloc(plan_text_nlines(to) + 1, sizeof(*used));
	const char *l;
	size_t n, count = 0;

	if (!used) {
		out->oom = true;
		return 0;
	}
	while (plan_text_next_line(&from, &l, &n))
		if (!plan_text_take(to, used, l, n)) {
			strbuf_puts(out, mark);
			strbuf_add(out, l, n);
			strbuf_puts(out, "\n");
			count++;
		}
	free(used);
	return count;
}

size_t plan_text_diff(const char *before, const char *after, struct strbuf *out)
{
	size_t n = plan_text_lacks(before, after, "-", out);

	return n + plan_text_lacks(after, before, "+", out);
}
