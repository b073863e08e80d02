/* pipe: the output filters of a show command (`| include REGEX`, `|
 * exclude`, `| begin`, `| count`, `| json`). See pipe.c. */
#ifndef ROCESH_PIPE_H
#define ROCESH_PIPE_H

#include <regex.h>
#include <stdbool.h>
#include <stdio.h>

#include "cmd/cmd.h"

#define ROCESH_PIPES_MAX 8

enum rocesh_pipe_kind {
	ROCESH_PIPE_INCLUDE,
	ROCESH_PIPE_EXCLUDE,
	ROCESH_PIPE_BEGIN,
	ROCESH_PIPE_COUNT,
	ROCESH_PIPE_JSON,
};

struct rocesh_pipe {
	enum rocesh_pipe_kind kind;
	regex_t re;
	bool has_re;
};

/* The filters of a line, in order; `| json` is a flag, not a filter. */
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

#endif
