/* cmd_render: the look of a rocesh session. See cmd_render.h.
 *
 * NX-OS conventions kept here: `?` lists "  word  help" with the helps in
 * one column and "<cr>" last; a refused line gets a caret under the word
 * at fault and a message starting with "% ".
 */
#include "cmd/cmd_render.h"

#include <stdio.h>
#include <string.h>

#define CMD_RENDER_WIDTH 80

void cmd_render_listing(const struct cmd_render_item *items, size_t n, bool cr,
                        struct strbuf *out)
{
	size_t w = 0;

	for (size_t i = 0; i < n; i++)
		if (strlen(items[i].token) > w)
			w = strlen(items[i].token);
	for (size_t i = 0; i < n; i++) {
		if (!items[i].help || !items[i].help[0])
			strbuf_printf(out, "  %s\n", items[i].token);
		else
			strbuf_printf(out, "  %-*s  %s\n", (int)w,
			              items[i].token, items[i].help);
	}
	if (cr)
		strbuf_puts(out, "  <cr>\n");
}

void cmd_render_error(size_t indent, const struct cmd_error *err,
                      struct strbuf *out)
{
	for (size_t i = 0; i < indent + err->pos; i++)
		strbuf_add(out, " ", 1);
	strbuf_puts(out, "^\n");
	strbuf_printf(out, "%s\n", err->message);
}

/* Where the word TAB completes starts: after the last blank, or at the
 * end when the line ends in one. */
static size_t cmd_render_word_start(const char *line)
{
	size_t len = strlen(line);

	while (len && line[len - 1] != ' ' && line[len - 1] != '\t')
		len--;
	return len;
}

static void cmd_render_columns(char (*words)[CMD_WORD_MAX], size_t n,
                               struct strbuf *out)
{
	size_t w = 0, per_row, col = 0;

	for (size_t i = 0; i < n; i++)
		if (strlen(words[i]) > w)
			w = strlen(words[i]);
	w += 2;
	per_row = CMD_RENDER_WIDTH / w ? CMD_RENDER_WIDTH / w : 1;
	for (size_t i = 0; i < n; i++) {
		bool last = ++col == per_row || i + 1 == n;

		/* No padding after the last word of a row. */
		if (last)
			strbuf_printf(out, "%s\n", words[i]);
		else
			strbuf_printf(out, "%-*s", (int)w, words[i]);
		if (last)
			col = 0;
	}
}

size_t cmd_render_complete(const char *line, char (*words)[CMD_WORD_MAX],
                           size_t n, struct strbuf *newline,
                           struct strbuf *listing)
{
	size_t start = cmd_render_word_start(line);
	size_t plen = strlen(line) - start, common;

	if (!n) {
		strbuf_puts(newline, line);
		return 0;
	}
	common = strlen(words[0]);
	for (size_t i = 1; i < n; i++) {
		size_t k = 0;

		while (k < common && words[i][k] == words[0][k])
			k++;
		common = k;
	}
	if (common < plen) /* candidates that do not extend the word */
		common = plen;
	strbuf_add(newline, line, start);
	if (common > plen || n == 1)
		strbuf_add(newline, words[0], common);
	else
		strbuf_puts(newline, line + start);
	if (n == 1)
		strbuf_add(newline, " ", 1);
	else if (common == plen)
		cmd_render_columns(words, n, listing);
	return n;
}
