/* cmd_ckpt: checkpoints and configuration sessions in the command
 * language. Pure.
 *
 * A checkpoint holds the running configuration as NX-OS keeps one: the
 * text of `show running-config`, which a rollback carries out line by
 * line on an empty policy (cmd_ckpt_replay), preceded by the port map
 * (`interface LINUX` / `alias NXOS` blocks) that the running-config
 * text leaves out, so that the text alone rebuilds the same policy. On
 * disk each checkpoint is one file: a header (name, creation time, who,
 * description, the body's size and FNV-1a checksum) and the body, so
 * that a file cut short or edited by hand is told apart from a good one
 * and refused by name (cmd_ckpt_parse).
 *
 * The rows of `checkpoint`, `rollback`, `show checkpoint`, `show diff
 * rollback-patch`, `configure session`, `verify`, `commit`, `abort` and
 * `show configuration session` are the table cmd_ckpt (cmd_int.h), which
 * the engine matches beside the NX-OS table.
 */
#ifndef ROCED_CMD_CKPT_H
#define ROCED_CMD_CKPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "cmd/cmd.h"
#include "model/policy.h"

/* A checkpoint's and a session's name: NX-OS allows 32 characters. */
#define CMD_CKPT_NAME_MAX  33
#define CMD_CKPT_DESCR_MAX 81
/* How many checkpoints roced keeps (NX-OS keeps 10; automation that
 * takes one before every change needs more room). */
#define CMD_CKPT_MAX 32
/* The largest checkpoint file read back. */
#define CMD_CKPT_FILE_MAX (4u * 1024 * 1024)
/* A name roced gives a checkpoint taken without one, as NX-OS does:
 * user-checkpoint-N, N the lowest number not in use. */
#define CMD_CKPT_AUTO_PREFIX "user-checkpoint-"

struct cmd_ckpt_meta {
	char name[CMD_CKPT_NAME_MAX];
	int64_t created; /* Unix seconds */
	uint32_t uid;    /* who took it */
	char descr[CMD_CKPT_DESCR_MAX];
	size_t size;  /* the body's bytes */
	uint64_t sum; /* its FNV-1a 64 */
	/* A confirmed commit's checkpoint (ctl_sess.h): when it is rolled
	 * back to unless confirmed, Unix seconds (0: an ordinary one). */
	int64_t rollback_at;
};

/* Whether NAME may name a checkpoint or a session (and so a file in
 * roced's state directory): 1-32 characters of letters, digits, '-',
 * '_' and '.', not starting with '.' or '-', and (as on NX-OS) not
 * starting with "system". Returns 0, or -1 with the reason in WHY. */
int cmd_ckpt_name_ok(const char *name, char *why, size_t len);

/* FNV-1a 64 of LEN bytes at S. */
uint64_t cmd_ckpt_sum(const char *s, size_t len);

/* The body of a checkpoint of P: the port map, then `show running-config`
 * (cmd_running_config). */
void cmd_ckpt_text(const struct policy *p, struct strbuf *out);

/* Where the running-config part of BODY (a checkpoint's text) begins:
 * after its port map, which only names the ports. */
const char *cmd_ckpt_config(const char *body);

/* Carry out TEXT (a checkpoint's body, or any running-config text) line
 * by line in configuration mode on OUT (policy_init()ed here). Returns
 * 0, or -1 with ERR holding "line N: % ..." about the first line that
 * fails (OUT then empty). */
int cmd_ckpt_replay(const char *text, struct policy *out,
                    struct cmd_error *err);

/* The whole file of checkpoint M with BODY: the header lines, the body.
 * M->size and M->sum are set from BODY. */
void cmd_ckpt_format(struct cmd_ckpt_meta *m, const char *body,
                     struct strbuf *out);
/* Read a checkpoint file (LEN bytes at BUF, not NUL-terminated): M and
 * *BODY (into BUF) with *BODYLEN. Returns 0, or -1 with ERR saying what
 * is wrong: a header line that is not roced's ("line N: ..."), a body
 * shorter than its header says (cut short) or longer, a checksum that
 * does not match (changed by hand). */
int cmd_ckpt_parse(const char *buf, size_t len, struct cmd_ckpt_meta *m,
                   const char **body, size_t *bodylen, char *err,
                   size_t errlen);

/* The rollback patch from running-config text A to B: the lines of B
 * that A lacks ("+") and the lines of A that B lacks ("-"), each under
 * the mode line of its block (a `class`, a `policy-map`, an
 * `interface`...) shown once for context. Returns how many lines differ
 * (0: nothing; OUT then gets nothing). */
size_t cmd_ckpt_diff(const char *a, const char *b, struct strbuf *out);

#endif
