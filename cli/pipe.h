/* pipe: the output filters of a show command, as on NX-OS (`| include
 * REGEX`, `| section REGEX`, `| grep [ignore-case] REGEX`, `| last N`,
 * `| count`, `| no-more`, `| json`, ...). See pipe.c. */
#ifndef ROCESH_PIPE_H
#define ROCESH_PIPE_H

#include <regex.h>
#include <stdbool.h>
#include <stdio.h>

#include "cmd/cmd.h"
#include "base/strbuf.h"

#define ROCESH_PIPES_MAX 8
/* `| last` without a count: NX-OS's ten lines. */
#define ROCESH_PIPE_LAST_DEFAULT 10
#define ROCESH_PIPE_LAST_MAX     65535

enum rocesh_pipe_kind {
	ROCESH_PIPE_INCLUDE,
	ROCESH_PIPE_EXCLUDE,
	ROCESH_PIPE_BEGIN,
	ROCESH_PIPE_SECTION,
	ROCESH_PIPE_GREP,
	ROCESH_PIPE_LAST,
	ROCESH_PIPE_COUNT,
	ROCESH_PIPE_NO_MORE,
	ROCESH_PIPE_JSON,
};

struct rocesh_pipe {
	enum rocesh_pipe_kind kind;
	regex_t re;
	bool has_re;
	bool invert;     /* grep invert-match: the lines that do not match */
	unsigned long n; /* last: how many lines */
};

/* The filters of a line, in order; `| json` is a flag, not a filter, and
 * `| no-more` changes nothing (rocesh never pages). */
struct rocesh_pipes {
	struct rocesh_pipe p[ROCESH_PIPES_MAX];
	size_t n;
	bool json;
};

/* Split LINE at its first '|' into the command (CMD, LEN bytes) and the
 * filters after it (PP; none when LINE has no '|'). Returns 0, or -1 with
 * ERR's message and the byte of LINE it is about. */
int rocesh_pipes_parse(const char *line, char *cmd, size_t len,
                       struct rocesh_pipes *pp, struct cmd_error *err);
void rocesh_pipes_free(struct rocesh_pipes *pp);
/* TEXT through the filters of PP into OUT. */
void rocesh_pipes_run(const struct rocesh_pipes *pp, const char *text,
                      FILE *out);

/* `?` after a '|': LINE is the whole line typed so far, its first '|'
 * after a complete show command. OUT gets the listing of what may come
 * next (the filters, a filter's options, its argument, another '|' or
 * <cr>). Returns 0, or -1 with ERR (a filter that does not exist, the
 * caret's byte of LINE). */
int rocesh_pipes_help(const char *line, struct strbuf *out,
                      struct cmd_error *err);
/* TAB after a '|': the candidates for LINE's last, partial word (the
 * filters, grep's options), at most MAX of them into WORDS. */
size_t rocesh_pipes_complete(const char *line, char (*words)[CMD_WORD_MAX],
                             size_t max);

#endif
