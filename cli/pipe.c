/* pipe: the output filters of a show command, as on NX-OS:
 *   show ... | include REGEX | exclude REGEX | begin REGEX | count | json
 * Filters apply left to right to the lines the show prints: include
 * keeps the lines REGEX matches, exclude drops them, begin drops the
 * lines before the first that matches, count replaces the lines by their
 * number; json asks roced for the JSON answer (the same as a trailing
 * `json`). REGEX is a POSIX extended regular expression, as NX-OS's
 * filters take them, and may hold blanks: it runs to the next ` | `.
 *
 * The filters are rocesh's own: roced answers the show as always, and
 * what the filters drop is dropped here.
 */
#include "pipe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"

static const struct {
	const char *word;
	enum rocesh_pipe_kind kind;
	bool regex;
} rocesh_pipe_words[] = {
    {"include", ROCESH_PIPE_INCLUDE, true},
    {"exclude", ROCESH_PIPE_EXCLUDE, true},
    {"begin", ROCESH_PIPE_BEGIN, true},
    {"count", ROCESH_PIPE_COUNT, false},
    {"json", ROCESH_PIPE_JSON, false},
};
#define ROCESH_PIPE_NWORDS                                                     \
	(sizeof(rocesh_pipe_words) / sizeof(*rocesh_pipe_words))

void rocesh_pipes_free(struct rocesh_pipes *pp)
{
	for (size_t i = 0; i < pp->n; i++)
		if (pp->p[i].has_re)
			regfree(&pp->p[i].re);
	pp->n = 0;
}

/* "% MSG" about the byte at POS of the line. */
static int rocesh_pipe_fail(struct cmd_error *err, size_t pos, const char *msg,
                            const char *word)
{
	snprintf(err->message, sizeof(err->message), "%% %s%s%.64s%s", msg,
	         word ? " '" : "", word ? word : "", word ? "'" : "");
	err->pos = pos;
	return -1;
}

/* One filter, "WORD [ARG]" at SEG (LEN bytes) starting at byte POS. */
static int rocesh_pipe_one(struct rocesh_pipes *pp, const char *seg, size_t len,
                           size_t pos, struct cmd_error *err)
{
	char word[32], arg[256];
	size_t w = 0, i = 0, k;
	struct rocesh_pipe *p;

	while (i < len && seg[i] == ' ')
		i++;
	pos += i;
	while (i < len && seg[i] != ' ' && w + 1 < sizeof(word))
		word[w++] = seg[i++];
	word[w] = '\0';
	while (i < len && seg[i] == ' ')
		i++;
	k = len;
	while (k > i && seg[k - 1] == ' ')
		k--;
	if (k - i >= sizeof(arg))
		return rocesh_pipe_fail(err, pos, "Filter too long", NULL);
	memcpy(arg, seg + i, k - i);
	arg[k - i] = '\0';
	if (!w)
		return rocesh_pipe_fail(err, pos, "Incomplete command", NULL);
	if (pp->n >= ROCESH_PIPES_MAX)
		return rocesh_pipe_fail(err, pos, "Too many filters", NULL);
	for (k = 0; k < ROCESH_PIPE_NWORDS; k++) {
		/* unique prefixes, as for commands */
		if (strncmp(rocesh_pipe_words[k].word, word, w))
			continue;
		break;
	}
	if (k == ROCESH_PIPE_NWORDS)
		return rocesh_pipe_fail(err, pos,
		                        "Invalid filter, expected include, "
		                        "exclude, begin, count or json:",
		                        word);
	p = &pp->p[pp->n];
	memset(p, 0, sizeof(*p));
	p->kind = rocesh_pipe_words[k].kind;
	if (!rocesh_pipe_words[k].regex) {
		if (arg[0])
			return rocesh_pipe_fail(err, pos + (size_t)(i),
			                        "Invalid argument", arg);
		if (p->kind == ROCESH_PIPE_JSON)
			pp->json = true;
		else
			pp->n++;
		return 0;
	}
	if (!arg[0])
		return rocesh_pipe_fail(err, pos + w + 1,
		                        "Incomplete command: a regular "
		                        "expression is expected after",
		                        rocesh_pipe_words[k].word);
	if (regcomp(&p->re, arg, REG_EXTENDED | REG_NOSUB))
		return rocesh_pipe_fail(err, pos + i,
		                        "Invalid regular expression", arg);
	p->has_re = true;
	pp->n++;
	return 0;
}

int rocesh_pipes_parse(const char *line, char *cmd, size_t len,
                       struct rocesh_pipes *pp, struct cmd_error *err)
{
	const char *bar = strchr(line, '|');
	size_t n;

	memset(pp, 0, sizeof(*pp));
	memset(err, 0, sizeof(*err));
	if (!bar) {
		snprintf(cmd, len, "%s", line);
		return 0;
	}
	n = (size_t)(bar - line);
	if (n >= len)
		return rocesh_pipe_fail(err, 0, "Line too long", NULL);
	memcpy(cmd, line, n);
	cmd[n] = '\0';
	while (bar) {
		const char *next = strchr(bar + 1, '|');
		size_t seg = next ? (size_t)(next - bar - 1) : strlen(bar + 1);

		if (rocesh_pipe_one(pp, bar + 1, seg, (size_t)(bar + 1 - line),
		                    err)) {
			rocesh_pipes_free(pp);
			return -1;
		}
		bar = next;
	}
	return 0;
}

void rocesh_pipes_run(const struct rocesh_pipes *pp, const char *text,
                      FILE *out)
{
	struct strbuf cur;

	strbuf_init(&cur);
	strbuf_puts(&cur, text);
	for (size_t f = 0; f < pp->n && !cur.oom; f++) {
		const struct rocesh_pipe *p = &pp->p[f];
		const char *l = strbuf_str(&cur);
		struct strbuf next;
		size_t count = 0;
		bool begun = false;

		strbuf_init(&next);
		strbuf_puts(&next, "");
		while (*l) {
			const char *e = strchr(l, '\n');
			size_t n = e ? (size_t)(e - l) : strlen(l);
			char *one = strndup(l, n);
			bool match, take;

			if (!one)
				break;
			match = p->has_re && !regexec(&p->re, one, 0, NULL, 0);
			begun = begun || match;
			take = p->kind == ROCESH_PIPE_INCLUDE   ? match
			       : p->kind == ROCESH_PIPE_EXCLUDE ? !match
			       : p->kind == ROCESH_PIPE_BEGIN   ? begun
			                                        : false;
			count++;
			if (take)
				strbuf_printf(&next, "%s\n", one);
			free(one);
			l += n + (e != NULL);
		}
		if (p->kind == ROCESH_PIPE_COUNT)
			strbuf_printf(&next, "%zu\n", count);
		strbuf_free(&cur);
		cur = next;
	}
	fputs(strbuf_str(&cur), out);
	strbuf_free(&cur);
}
