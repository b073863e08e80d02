/* cmd_int: what the command engine (cmd.c), the NX-OS command table
 * (cmd_nxos.c) and the running-config printer (cmd_running.c) share.
 *
 * A command is one struct cmd_def: the modes it lives in, a syntax string
 * (see cmd.h), one help line per token of the syntax in the order they
 * appear, and what carries it out. The engine compiles each syntax into a
 * small token graph when it needs it (there is no global state), matches
 * the typed words against every command of a mode at once, and resolves
 * unique prefixes across all of them.
 *
 * Argument words beyond cmd.h's WORD/<LO-HI>:
 *   WORD       a new or existing name (letters, digits, '-', '_', '.')
 *   CMAP_QOS   a class-map type qos name (completes existing ones and
 *              class-default)
 *   CMAP_NQOS  a class-map type network-qos name
 *   CMAP       any class-map name        PMAP       any policy-map name
 *   PMAP_QOS, PMAP_QUE, PMAP_NQOS        policy-maps of one type
 *   IFNAME     an interface: Linux name or NX-OS alias
 *   ALIAS      an NX-OS interface name (may hold '/')
 *   LIST<0-7>  a value list within 0-HI ("3", "0-2,5")
 *   DSCPLIST   a DSCP list, 0-63 or PHB names ("af31,cs3")
 *   BYTES      a threshold number, 1-4294967295
 */
#ifndef ROCED_CMD_INT_H
#define ROCED_CMD_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cmd.h"

#define CMD_M(m)      (1u << (m))
#define CMD_M_CONFIGS (((1u << CMD_MODE_MAX) - 1) & ~CMD_M(CMD_MODE_EXEC))
#define CMD_M_ALL     ((1u << CMD_MODE_MAX) - 1)
#define CMD_HELP_NO   "Negate a command or set its defaults\n"
#define CMD_DEPTH_MAX 3
#define CMD_LINE_MAX  512

/* What cmd_exec hands a command's function. */
struct cmd_exec_arg {
	struct policy *p; /* NULL for MODE lines run by rocesh */
	struct cmd_ctx *ctx;
	const struct cmd_parsed *pa;
	struct cmd_error *err;
};

struct cmd_def {
	uint32_t modes; /* CMD_M() bits */
	enum cmd_kind kind;
	const char *name;
	const char *syntax;
	const char *help; /* one '\n'-terminated line per syntax token */
	/* Carry the line out (CONFIG and MODE kinds); returns 0 or -1 with
	 * the error filled through cmd_fail(). */
	int (*exec)(struct cmd_exec_arg *x);
};

extern const struct cmd_def cmd_nxos_table[];
extern const size_t cmd_nxos_ntable;

/* Fill ERR with a "% "-prefixed message about the token at POS. */
void cmd_fail(struct cmd_error *err, size_t pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The Nth argument (not keyword) of PA, or NULL; *POS gets its offset. */
const char *cmd_arg(const struct cmd_parsed *pa, size_t n, size_t *pos);
/* Whether keyword KW is among PA's words, and the index of the first. */
bool cmd_has(const struct cmd_parsed *pa, const char *kw, size_t *idx);

/* The mode enclosing M (CONFIG's parent is EXEC). */
enum cmd_mode cmd_mode_parent(enum cmd_mode m);
/* The object a nested mode is about: the last word of CTX->path[LEVEL]
 * (every mode-entering line ends with its object's name). */
const char *cmd_ctx_object(const struct cmd_ctx *ctx, size_t level, char *buf,
                           size_t len);
/* Enter mode M by the line CANON (depth grows by one). */
int cmd_ctx_push(struct cmd_ctx *ctx, enum cmd_mode m, const char *canon);

/* Whether S is a valid policy object name (NX-OS characters). */
bool cmd_name_ok(const char *s);

#endif
