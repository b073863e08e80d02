/* cmd: the NX-OS command language of rocesh and the daemon. Pure.
 *
 * One table of commands, each declared once with its syntax string, one
 * help string per token, the mode it lives in, and the function that
 * carries it out, in the manner of FRR's DEFUN and lldpcli's nodes. From
 * that one table come: parsing with unique-prefix keywords ("conf t",
 * "sh run"), `?` help listings, TAB completion, `no` forms, error
 * positions for the `^` caret, the prompt of each mode, and the
 * configuration commands' effect on a struct policy.
 *
 * rocesh uses it to complete, help and check lines before it sends them;
 * the daemon uses it to apply configuration lines to a copy of the running
 * policy (cmd_exec), which then goes through validate -> compile -> diff
 * -> apply like every other change.
 *
 * Syntax strings: keywords are literal words; arguments are
 *   WORD        a name (class-map, policy-map, interface)
 *   <LO-HI>     an integer in a range, e.g. <0-7>
 *   LIST        a value list "3", "0-2,5" (DSCP names allowed where the
 *               command says so)
 *   SIZE        a number with a unit word after it is a separate keyword
 *   A|B         one of the keywords (in parentheses when inside others)
 *   [X]         optional
 * e.g. "class-map type qos (match-all|match-any) WORD".
 */
#ifndef ROCED_CMD_H
#define ROCED_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/policy.h"
#include "base/strbuf.h"

enum cmd_mode {
	CMD_MODE_EXEC,        /* roced# */
	CMD_MODE_CONFIG,      /* roced(config)# */
	CMD_MODE_CMAP_QOS,    /* roced(config-cmap-qos)# */
	CMD_MODE_CMAP_NQOS,   /* roced(config-cmap-nqos)# */
	CMD_MODE_PMAP_QOS,    /* roced(config-pmap-qos)# */
	CMD_MODE_PMAP_C_QOS,  /* roced(config-pmap-c-qos)# */
	CMD_MODE_PMAP_QUE,    /* roced(config-pmap-que)# */
	CMD_MODE_PMAP_C_QUE,  /* roced(config-pmap-c-que)# */
	CMD_MODE_PMAP_NQOS,   /* roced(config-pmap-nqos)# */
	CMD_MODE_PMAP_C_NQOS, /* roced(config-pmap-nqos-c)# */
	CMD_MODE_SYS_QOS,     /* roced(config-sys-qos)# */
	CMD_MODE_IF,          /* roced(config-if)# */
	CMD_MODE_PORT_PROF,   /* roced(config-port-prof)# */
	CMD_MODE_MAX,
};

/* A session's compiled commands: the token graphs of each mode's
 * commands, compiled on first use and kept (cmd_cache_new). */
struct cmd_cache;

/* Where a session is: the mode and the objects the enclosing mode
 * commands named (e.g. policy-map type queuing X, class type queuing Y).
 * A context is plain data so that rocesh can send it with each line and
 * the daemon can re-enter it on its own copy of the policy. */
struct cmd_ctx {
	enum cmd_mode mode;
	/* The lines that entered each nested mode, outermost first, as
	 * typed in full form (expanded keywords), e.g.
	 * {"policy-map type queuing ROCE_QUEUING_OUT",
	 *  "class type queuing c-out-8q-q3"}. */
	char path[3][160];
	size_t depth;
	/* The session's compiled commands, borrowed (copies of the context
	 * share them), or NULL: then each call compiles the commands of the
	 * modes it tries and frees them, which is most of its cost. The
	 * library keeps no state of its own, so a caller that parses,
	 * helps or completes more than once holds them. cmd_ctx_init and
	 * cmd_ctx_from_path set NULL; moving between modes keeps them. */
	struct cmd_cache *cache;
	/* In a configuration session (rocesh sets it): a session's own
	 * commands (verify, commit, abort) are commands of its modes. */
	bool session;
};

/* An empty cache for CTX->cache (NULL on ENOMEM); the graphs of a mode
 * are compiled when a call first needs them. Free it with
 * cmd_cache_free (NULL is fine) once no context uses it. */
struct cmd_cache *cmd_cache_new(void);
void cmd_cache_free(struct cmd_cache *c);

void cmd_ctx_init(struct cmd_ctx *c);
/* Set C to configuration mode inside the nested mode lines PATH (N of
 * them, outermost first, as a "context" of the control protocol). The
 * mode itself is known once the lines are re-entered (cmd_apply_line).
 * Returns 0, or -1 when N or a line is too long for struct cmd_ctx. */
int cmd_ctx_from_path(struct cmd_ctx *c, const char *const *path, size_t n);
/* The NX-OS name of mode M as in its prompt: "exec", "config",
 * "config-pmap-c-que", ...; cmd_mode_parse is its inverse (-1 if
 * unknown). */
const char *cmd_mode_name(enum cmd_mode m);
int cmd_mode_parse(const char *name);
/* The NX-OS prompt of C's mode for HOST, e.g. "roced(config-if)# ". */
void cmd_prompt(const struct cmd_ctx *c, const char *host, char *buf,
                size_t len);
/* NX-OS's `where`: the mode lines that lead to C's mode, from
 * configuration mode, e.g. "conf; policy-map type queuing Q; class type
 * queuing c-out-8q-q3"; "exec" in exec mode. Cut to LEN. */
void cmd_where(const struct cmd_ctx *c, char *buf, size_t len);

/* What a line is, once parsed. */
enum cmd_kind {
	CMD_KIND_CONFIG, /* changes the policy: send it to the daemon */
	CMD_KIND_MODE,   /* only moves between modes (end, exit, conf t) */
	CMD_KIND_SHOW,   /* a show command: the daemon answers it */
	CMD_KIND_ACTION, /* copy, reload, debug, clear ...: daemon action */
};

struct cmd_def; /* a command of the table (lib/cmd/cmd_int.h) */

#define CMD_ARGV_MAX 24

/* A parsed line. ARGS hold the matched tokens in canonical form
 * (keywords expanded, numbers normalised); NAME is the command's stable
 * identifier, e.g. "show queuing interface", used in the protocol. A `no`
 * form has the NAME of the command it undoes. An empty line or a `!`
 * comment parses as a MODE line with no ARGV that does nothing, except
 * that a `!` in the first column (NAME "!") leaves the configuration
 * submodes, as a separator of top-level blocks in a pasted configuration.
 * ARGV points into the struct itself: do not copy it by value.
 */
struct cmd_parsed {
	enum cmd_kind kind;
	const char *name;
	bool negated;             /* the line began with "no" */
	bool json;                /* a show command ending in "json" */
	char canon[512];          /* the whole line, keywords expanded */
	char *argv[CMD_ARGV_MAX]; /* pointers into STORE */
	size_t argc;
	/* For cmd_exec and the shell, not part of the protocol: */
	size_t pos[CMD_ARGV_MAX]; /* byte offset of argv[i] in the line */
	uint32_t argmask;         /* bit i: argv[i] is an argument */
	/* The kind of token argv[i] matched (cmd_int.h's enum cmd_tok):
	 * what a show's word fills in its query (cmd_show.h). */
	unsigned char tok[CMD_ARGV_MAX];
	/* The mode whose command matched and its depth: CTX's own mode, or
	 * an enclosing one, since NX-OS leaves submodes for a command only
	 * an enclosing mode knows (that is how pasted configs work). */
	enum cmd_mode mode;
	size_t depth;
	const struct cmd_def *def;
	char store[512];
};

/* A parse failure: MESSAGE ("% Invalid command", "% Incomplete
 * command", "% Ambiguous command", or a value error such as "% Invalid
 * value '9', expected 0-7") and the byte offset of the bad token in the
 * line, for the caret. */
struct cmd_error {
	char message[256];
	size_t pos;
};

/* Parse LINE in context CTX. Returns 0, or -1 with ERR filled. */
int cmd_parse(const struct cmd_ctx *ctx, const char *line,
              struct cmd_parsed *out, struct cmd_error *err);

/* `?` help: the candidates for the next token after LINE (which may end
 * in a partial word), one per line "  TOKEN  help", in the order
 * rocesh prints them, plus "  <cr>" when LINE is complete. KNOWN (may be
 * NULL) supplies existing names (class-maps, policy-maps, interfaces) to
 * offer where a WORD is expected. */
void cmd_help(const struct cmd_ctx *ctx, const struct policy *known,
              const char *line, struct strbuf *out);
/* The same, but when the words before the last one start no command it
 * writes nothing and returns -1 with ERR filled (for the caret). */
int cmd_help_checked(const struct cmd_ctx *ctx, const struct policy *known,
                     const char *line, struct strbuf *out,
                     struct cmd_error *err);

#define CMD_WORD_MAX 64

/* TAB completion: every candidate for the partial last word of LINE
 * (rocesh completes their common prefix). Returns how many were written
 * to WORDS (at most MAX). */
size_t cmd_complete(const struct cmd_ctx *ctx, const struct policy *known,
                    const char *line, char (*words)[CMD_WORD_MAX], size_t max);

/* Carry out P (a CONFIG or MODE line) on POLICY and CTX: enter or leave
 * modes, create, change or delete objects. Object creation follows NX-OS
 * (entering "class-map type qos match-all X" creates X). Errors (an
 * undefined policy-map in service-policy, a value out of range, "no" of
 * something absent) leave POLICY untouched and fill ERR. Returns 0 or -1.
 * POLICY may be NULL for MODE lines (rocesh moves between modes locally).
 */
int cmd_exec(struct policy *policy, struct cmd_ctx *ctx,
             const struct cmd_parsed *p, struct cmd_error *err);

/* After P was refused (by cmd_exec or by the daemon): leave the
 * submodes P does not belong to, as NX-OS leaves them before it runs a
 * line of an enclosing mode. Otherwise a refused `class type network-qos
 * X` would leave the session in the class before it, and the lines meant
 * for X would change that class. */
void cmd_ctx_refused(struct cmd_ctx *ctx, const struct cmd_parsed *p);
/* The same for a LINE that did not even parse, judged by its first word
 * (after `no`): a `class` line leaves a class submode for its
 * policy-map, a line that enters a top-level mode (class-map,
 * policy-map, interface, system, port-profile) leaves every submode. */
void cmd_ctx_refused_line(struct cmd_ctx *ctx, const char *line);

/* Convenience for the daemon and tests: re-enter CTX->path on POLICY from
 * exec mode, then parse and carry out LINE. With an empty path CTX->mode
 * only tells exec from configuration mode. All or nothing: on error
 * POLICY and CTX are as they were. SHOW and ACTION lines are refused. */
int cmd_apply_line(struct policy *policy, struct cmd_ctx *ctx, const char *line,
                   struct cmd_error *err);

/* Whether LINE, which does not parse, is a known NX-OS command that is
 * not QoS (feature, switchport, spanning-tree, vpc, logging, cdp,
 * routing, ...): its family ("feature", "routing", ...), or NULL. A
 * pasted running-config's such lines are counted, not errors. */
const char *cmd_not_qos(const char *line);

/* A pasted terminal transcript: the length of LINE's leading prompt
 * (`switch(config-if)# `, `N9K-1# `, with the blanks after it), 0 when
 * it has none. */
size_t cmd_prompt_len(const char *line);
/* A multi-line `banner TYPE D ... D` (NX-OS's, or IOS-style with `^C`,
 * or a literal Ctrl-C): 1 when LINE opens one that does not close on the
 * same line, its delimiter in DELIM (LEN bytes, NUL-terminated), else
 * 0; cmd_banner_closes says whether LINE holds DELIM, ending it. */
int cmd_banner_open(const char *line, char *delim, size_t len);
bool cmd_banner_closes(const char *line, const char *delim);

/* `show running-config` text of POLICY in NX-OS syntax: pasting it into
 * rocesh recreates POLICY. SECTION is NULL for everything, "qos" for the
 * QoS part only, "interface NAME" for one interface, or "interface NAME
 * all" for it with its defaults written out. */
void cmd_running_config(const struct policy *policy, const char *section,
                        struct strbuf *out);

#endif
