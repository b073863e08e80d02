/* cmd_render: how a rocesh session looks on the terminal. Pure.
 *
 * rocesh's terminal and its --echo mode (which the golden transcripts in
 * tests/cli run) both render through here: the `?` listing, what TAB does
 * to a line, the caret under a refused token and the `%` messages.
 */
#ifndef ROCED_CMD_RENDER_H
#define ROCED_CMD_RENDER_H

#include <stdbool.h>
#include <stddef.h>

#include "cmd/cmd.h"
#include "base/strbuf.h"

/* One line of a `?` listing. */
struct cmd_render_item {
	const char *token; /* "configure", "<0-7>", "WORD" */
	const char *help;
};

/* The `?` listing: "  TOKEN  help" with the help column aligned, then
 * "  <cr>" when CR (the line is complete as it stands). */
void cmd_render_listing(const struct cmd_render_item *items, size_t n, bool cr,
                        struct strbuf *out);

/* The error block after a refused line that was shown INDENT columns to
 * the right (the prompt's width when it was typed after a prompt, 0 when
 * rocesh echoes it by itself): a caret under ERR->pos, then the message.
 */
void cmd_render_error(size_t indent, const struct cmd_error *err,
                      struct strbuf *out);

/* TAB on LINE, whose last word has the N candidates WORDS (cmd_complete):
 * NEWLINE gets LINE with that word completed to the candidates' longest
 * common prefix, plus a space when there is only one. When that adds
 * nothing and there are several, LISTING gets them in columns (as libedit
 * shows them), one row per line. Returns N. */
size_t cmd_render_complete(const char *line, char (*words)[CMD_WORD_MAX],
                           size_t n, struct strbuf *newline,
                           struct strbuf *listing);

#endif
