/* What test_cmd.c shares with test_cmd_config.c. */
#ifndef ROCED_TEST_CMD_H
#define ROCED_TEST_CMD_H

#include <stddef.h>

#include "cmd/cmd.h"
#include "cmd/cmd_int.h"
#include "cmd/cmd_render.h"
#include "model/policy.h"

/* CTX in mode M inside the N path lines PATH. */
void tc_enter(struct cmd_ctx *c, enum cmd_mode m, const char *const *path,
              size_t n);
/* LINE must parse in C. */
void tc_parse(const struct cmd_ctx *c, const char *line, struct cmd_parsed *p);
/* LINE must fail to parse in mode M with MSG in the message at byte POS
 * ((size_t)-1: any). */
void tc_parse_bad(enum cmd_mode m, const char *line, const char *msg,
                  size_t pos);
/* cmd_apply_line must accept LINE / refuse it with MSG at POS, leaving the
 * session as it was. */
void tc_apply(struct policy *p, struct cmd_ctx *c, const char *line);
void tc_apply_bad(struct policy *p, struct cmd_ctx *c, const char *line,
                  const char *msg, size_t pos);
/* From exec mode: configure terminal, then LINES (NULL-terminated). */
void tc_session(struct policy *p, struct cmd_ctx *c, const char *const *lines);

/* The configuration tests (test_cmd_config.c); returns failures. */
int test_cmd_config_main(void);

#endif
