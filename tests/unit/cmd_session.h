/* cmd_session: rocesh sessions driven from the unit tests of the command
 * language (test_cmd, test_cmd_config, test_cmd_running, test_nexus):
 * lines that must parse or apply, or be refused with a given message at a
 * given byte, a session from `configure terminal`, a paste, and
 * show running-config with its round trip. */
#ifndef ROCED_TESTS_CMD_SESSION_H
#define ROCED_TESTS_CMD_SESSION_H

#include <stddef.h>

#include "cmd/cmd.h"
#include "cmd/cmd_int.h"
#include "cmd/cmd_render.h"
#include "model/policy.h"

/* A NULL-terminated list of lines, for tc_session(). */
#define LINES(...) ((const char *const[]){__VA_ARGS__, NULL})

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
/* Feed TEXT line by line into P (as a paste into rocesh), each state
 * validated as the daemon would. */
void tc_paste(struct policy *p, struct cmd_ctx *c, const char *text);
/* The configuration file PATH into P (fails the test when it does not
 * load). */
void tc_load(const char *path, struct policy *p);
/* show running-config [SECTION] of P (to be freed). */
char *tc_running(const struct policy *p, const char *section);
/* running-config(P) pasted into an empty policy gives P back, and the
 * same text again. */
void tc_round_trip(const struct policy *p);
/* P written as roced.conf and loaded again: the same policy and the same
 * running-config (a copy running-config startup-config and a reload). */
void tc_conf_round_trip(const struct policy *p);

#endif
