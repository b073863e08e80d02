/* cmd_int: what the command engine (cmd.c, cmd_graph.c), the NX-OS
 * command table (cmd_nxos.c, cmd_nxos_maps.c, cmd_nx_util.c) and the
 * running-config printer (cmd_running.c) share.
 *
 * The files use each other in one direction only, top to bottom:
 *   cmd_show.c     a show line's words -> the query roced answers
 *   cmd.c          parse, ?, TAB, exec: runs the NX-OS table on the engine
 *   cmd_graph.c    the engine: any struct cmd_table's syntax -> graphs
 *   cmd_nxos.c     the NX-OS table (struct cmd_table cmd_nxos) and the
 *                  actions of its mode, system qos and interface rows
 *   cmd_nxos_maps.c  the actions of its class-map and policy-map rows
 *   cmd_nxos_if.c    interface names, ranges and lists, mtu, shutdown,
 *                    description; roce, terminal
 *   cmd_nxos_class.c descriptions, precedence, marking of those rows
 *   cmd_nx_util.c  the steps those actions share
 *   cmd_ctx.c      modes, contexts, a parsed line's arguments, cmd_fail
 * The engine knows no table by name: cmd.c hands it one.
 *
 * A command is one struct cmd_def: the modes it lives in, a syntax string
 * (see cmd.h), one help line per token of the syntax in the order they
 * appear, and what carries it out. The engine compiles each syntax into a
 * small token graph when a mode is first used, into the caller's struct
 * cmd_cache (there is no global state), matches the typed words against
 * every command of a mode at once, and resolves unique prefixes across
 * all of them.
 *
 * Argument words beyond cmd.h's WORD/<LO-HI>:
 *   WORD       a new or existing name (letters, digits, '-', '_', '.')
 *   CMAP_QOS   a class-map type qos name
 *   QCLASS     a class of a qos policy-map: CMAP_QOS or class-default
 *   CMAP_NQOS  a class-map type network-qos name
 *   CMAP       any class-map name        PMAP       any policy-map name
 *   PMAP_QOS, PMAP_QUE, PMAP_NQOS        policy-maps of one type
 *   IFNAME     an interface: Linux name or NX-OS alias
 *   ALIAS      an NX-OS interface name (may hold '/')
 *   LIST<0-7>  a value list within 0-HI ("3", "0-2,5")
 *   DSCPLIST   a DSCP list, 0-63 or PHB names ("af31,cs3")
 *   BYTES      a threshold number, 1-4294967295
 *   UNIT       a size unit: any word of model/units.h (bytes, kbytes,
 *              mbytes), each a keyword with the unit's own help
 *   SUBSYS     a debug subsystem: any word of base/names.h's table, the
 *              same way
 *   PFCMODE    a PFC mode: any word of model/policy.h's table, the same
 *              way
 *   TEXT       free text: every word to the end of the line
 *   RATEUNIT   a rate unit of model/units.h (kbps, mbps, gbps)
 *   WREDPROFILE  a WRED threshold profile of model/policy.h
 *   PFCWDACT   a PFC watchdog action (drop, forward, alert): the same
 *   DCBXAGENT  a DCBX agent (roced, lldpad): model/policy.h's table, the
 *              same way
 *   ROCEMODE   a RoCE mode (lossless, semi-lossless, lossy): the same
 */
#ifndef ROCED_CMD_INT_H
#define ROCED_CMD_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cmd/cmd.h"

#define CMD_M(m)      (1u << (m))
#define CMD_M_CONFIGS (((1u << CMD_MODE_MAX) - 1) & ~CMD_M(CMD_MODE_EXEC))
#define CMD_M_ALL     ((1u << CMD_MODE_MAX) - 1)
#define CMD_HELP_NO   "Negate a command or set its defaults\n"
#define CMD_HELP_PIPE "Filter the output (include, section, last, ...)"
#define CMD_DEPTH_MAX 3
#define CMD_LINE_MAX  512
/* An interface spec (name, range or list) as a mode line holds it. */
#define CMD_IFSPEC_MAX 140

/* --- token graphs (cmd_graph.c) --- */

#define CMD_NODES_MAX 32

enum cmd_tok {
	CMD_TOK_KW,
	CMD_TOK_NAME,  /* object names, completed from the policy */
	CMD_TOK_IF,    /* interface name or alias */
	CMD_TOK_ALIAS, /* NX-OS interface name */
	CMD_TOK_RANGE,
	CMD_TOK_LIST,
	CMD_TOK_DSCP,
	CMD_TOK_TEXT, /* free text to the end of the line (description) */
};

/* Which existing names complete an argument. */
enum cmd_names {
	CMD_NAMES_NONE,
	CMD_NAMES_CMAP_QOS,
	CMD_NAMES_QCLASS, /* class-maps type qos and class-default */
	CMD_NAMES_CMAP_NQOS,
	CMD_NAMES_CMAP,
	CMD_NAMES_PMAP_QOS,
	CMD_NAMES_PMAP_QUE,
	CMD_NAMES_PMAP_NQOS,
	CMD_NAMES_PMAP,
	CMD_NAMES_IF,
};

struct cmd_node {
	enum cmd_tok type;
	enum cmd_names names;
	const char *text; /* keyword, or what `?` shows for an argument */
	size_t len;
	unsigned long long lo, hi;
	const char *help;
	size_t helplen;
	uint64_t next;
};

struct cmd_graph {
	const struct cmd_def *def;
	struct cmd_node node[CMD_NODES_MAX];
	size_t n;
	uint64_t first, last;
	bool bad; /* the syntax string or its help does not parse */
	/* Matching state: the nodes the last word matched. */
	uint64_t cur;
	bool started, alive;
};

/* A line cut into words. */
struct cmd_words {
	size_t n;
	size_t pos[CMD_ARGV_MAX];
	char *w[CMD_ARGV_MAX];
	char buf[CMD_LINE_MAX];
	size_t end; /* offset just after the last word */
	bool open;  /* the line ends inside a word (no trailing space) */
	/* Interface specs folded into one word (cmd_split). */
	char fold[2 * CMD_LINE_MAX];
	size_t foldlen;
};

/* The graphs of each mode, compiled on first use (V[m] NULL until then).
 * A graph's matching state is reset by every run that uses it. */
struct cmd_cache {
	struct cmd_graph *v[CMD_MODE_MAX];
	size_t n[CMD_MODE_MAX];
	/* How many of the last graphs of V[m] are a session's own
	 * (CMD_CKPT_SESSION_ROWS), matched only in a session. */
	size_t nsess[CMD_MODE_MAX];
};

/* Mode M's graphs of the NX-OS table and the checkpoint one in C (N of
 * them; a session's own commands only in a SESSION), compiled on first
 * use; NULL on ENOMEM. They stay in C: cmd_cache_fini frees them (both
 * in cmd.c, which knows the tables). */
struct cmd_graph *cmd_cache_mode(struct cmd_cache *c, enum cmd_mode m,
                                 bool session, size_t *n);
/* Free the graphs C holds (C itself is the caller's). */
void cmd_cache_fini(struct cmd_cache *c);

/* Compile DEF's syntax into G (G->bad when it does not compile). */
void cmd_graph_build(struct cmd_graph *g, const struct cmd_def *def);
struct cmd_table;
/* How many commands of T live in mode M: room for cmd_graphs(). */
size_t cmd_graphs_max(const struct cmd_table *t, enum cmd_mode m);
/* Compile the commands of T that live in mode M into V (room for
 * cmd_graphs_max()); how many compiled. */
size_t cmd_graphs(const struct cmd_table *t, enum cmd_mode m,
                  struct cmd_graph *v);
/* Cut LINE into W; -1 with ERR for a line too long or too many words.
 * The words after `interface` (or an abbreviation of it, "int") that
 * spell one interface spec in NX-OS's ways become one word in its
 * canonical form (policy_ifname_nxos): "ethernet 1/1", "Eth1/1", "e1/1"
 * -> "Ethernet1/1"; "Ethernet1/1 - 1/4" -> "Ethernet1/1-4";
 * "e1/1-4, e1/7" -> "Ethernet1/1-4,Ethernet1/7". Every command that
 * takes an interface sees that one word: one parser for config, show,
 * clear and the rest. */
int cmd_split(const char *line, struct cmd_words *w, struct cmd_error *err);
/* Does word W fit argument node N? CANON (may be NULL) gets its canonical
 * form; WHY (may be NULL) the "% ..." reason when it does not. */
bool cmd_arg_ok(const struct cmd_node *n, const char *w, char *canon,
                size_t clen, char *why, size_t wlen);
/* 3: exact keyword, 2: keyword prefix, 1: argument, 0: no match. */
int cmd_score(const struct cmd_node *n, const char *w);
/* The nodes that may match the next word of G. */
uint64_t cmd_candidates(const struct cmd_graph *g);
/* What may come next in the NG graphs V: "a, b or c" into BUF when there
 * are at most 6 candidates; returns how many there are. */
int cmd_expected(const struct cmd_graph *v, size_t ng, char *buf, size_t len);
/* Match word W (at byte POS) against the NG graphs V at once. */
int cmd_step(struct cmd_graph *v, size_t ng, const char *w, size_t pos,
             struct cmd_error *err);
void cmd_run_reset(struct cmd_graph *v, size_t ng);
/* Match the first NWORDS words of W from the start. */
int cmd_run(struct cmd_graph *v, size_t ng, const struct cmd_words *w,
            size_t nwords, struct cmd_error *err);

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

/* A command table: rows the engine compiles and matches. */
struct cmd_table {
	const struct cmd_def *def;
	size_t n;
};

/* The NX-OS commands (cmd_nxos.c). */
extern const struct cmd_table cmd_nxos;
/* Checkpoints, rollback and configuration sessions (cmd_ckpt.c), matched
 * beside the NX-OS table. */
extern const struct cmd_table cmd_ckpt;
/* The last rows of cmd_ckpt are a session's own (verify, commit, abort):
 * outside a session they are no commands. */
#define CMD_CKPT_SESSION_ROWS 3

/* Check that every row of T compiles (syntax and one help line per
 * token) and that CONFIG and MODE rows can be carried out. Returns 0, or
 * -1 with the first bad row's syntax in WHY. */
int cmd_table_check(const struct cmd_table *t, char *why, size_t len);

/* --- modes, contexts, arguments and errors (cmd_ctx.c) --- */

/* Fill ERR with a "% "-prefixed message about the token at POS. */
void cmd_fail(struct cmd_error *err, size_t pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The Nth argument (not keyword) of PA, or NULL; *POS gets its offset. */
const char *cmd_arg(const struct cmd_parsed *pa, size_t n, size_t *pos);
/* Whether keyword KW is among PA's words, and the index of the first. */
bool cmd_has(const struct cmd_parsed *pa, const char *kw, size_t *idx);

/* cmd_ctx_init, keeping C's cache: leaving modes keeps the session's. */
void cmd_ctx_reset(struct cmd_ctx *c);
/* The mode enclosing M (CONFIG's parent is EXEC). */
enum cmd_mode cmd_mode_parent(enum cmd_mode m);
/* The object a nested mode is about: the last word of CTX->path[LEVEL]
 * (every mode-entering line ends with its object's name). */
const char *cmd_ctx_object(const struct cmd_ctx *ctx, size_t level, char *buf,
                           size_t len);
/* Enter mode M by the line CANON (depth grows by one). */
int cmd_ctx_push(struct cmd_ctx *ctx, enum cmd_mode m, const char *canon);

/* Whether S is a valid policy object name (NX-OS characters;
 * cmd_graph.c). */
bool cmd_name_ok(const char *s);

/* --- the steps the NX-OS table's actions share (cmd_nx_util.c) --- */

/* Enter mode M by LINE; 0, or -1 with X's error set. */
int cmd_nx_enter(struct cmd_exec_arg *x, enum cmd_mode m, const char *line);
int cmd_nx_oom(struct cmd_exec_arg *x);
/* The object of the mode at LEVEL in BUF ("" when none). */
const char *cmd_nx_obj(struct cmd_exec_arg *x, size_t level, char *buf,
                       size_t len);
/* "% WHAT NAME no longer exists"; returns -1. */
int cmd_nx_gone(struct cmd_exec_arg *x, const char *what, const char *name);
/* Remove element I of an array of *N elements of SIZE bytes. */
void cmd_nx_remove(void *arr, size_t *n, size_t size, size_t i);
/* "% policy-map type TYPE NAME does not exist" at POS; returns -1. */
int cmd_nx_pmap_missing(struct cmd_exec_arg *x, const char *type,
                        const char *name, size_t pos);
/* The interface block of the mode; NULL (error set) when it is gone. */
struct policy_iface *cmd_nx_ctx_iface(struct cmd_exec_arg *x);
/* The argument words of the line joined by blanks into BUF (free text);
 * -1 with the error set when it does not fit. */
int cmd_nx_text(struct cmd_exec_arg *x, char *buf, size_t len);
/* For `no X [VALUE]`: X must be SET, and equal CUR when VALUE is given. */
int cmd_nx_no_value(struct cmd_exec_arg *x, bool set, unsigned long long cur,
                    const char *what);

/* The action of every row of model/setting.h's table (cmd_nxos.c): the
 * row is found by the command's name and the mode. */
int cmd_nx_setting(struct cmd_exec_arg *x);

/* --- the NX-OS table's actions (cmd_nxos_lldp.c) --- */

int cmd_nx_lldp_tlv(struct cmd_exec_arg *x);
int cmd_nx_dcbx_agent(struct cmd_exec_arg *x);

/* --- the NX-OS table's actions (cmd_nxos_maps.c) --- */

int cmd_nx_cmap_qos(struct cmd_exec_arg *x);
int cmd_nx_cmap_nqos(struct cmd_exec_arg *x);
int cmd_nx_match_cos(struct cmd_exec_arg *x);
int cmd_nx_match_dscp(struct cmd_exec_arg *x);
int cmd_nx_match_qos_group(struct cmd_exec_arg *x);
int cmd_nx_pmap_qos(struct cmd_exec_arg *x);
int cmd_nx_pmap_que(struct cmd_exec_arg *x);
int cmd_nx_pmap_nqos(struct cmd_exec_arg *x);
int cmd_nx_pmap_qos_class(struct cmd_exec_arg *x);
int cmd_nx_set_qos_group(struct cmd_exec_arg *x);
int cmd_nx_pmap_que_class(struct cmd_exec_arg *x);
int cmd_nx_bandwidth(struct cmd_exec_arg *x);
int cmd_nx_priority(struct cmd_exec_arg *x);
int cmd_nx_random_detect(struct cmd_exec_arg *x);
int cmd_nx_pmap_nq_class(struct cmd_exec_arg *x);
int cmd_nx_pause(struct cmd_exec_arg *x);
int cmd_nx_mtu(struct cmd_exec_arg *x);
/* Nexus 9000 pause buffers (cmd_nxos_maps.c). */
int cmd_nx_nq_pause_buffer(struct cmd_exec_arg *x);
int cmd_nx_que_pause_buffer(struct cmd_exec_arg *x);
int cmd_nx_pause_no_drop(struct cmd_exec_arg *x);
int cmd_nx_bandwidth_min(struct cmd_exec_arg *x);
/* Interface lines (cmd_nxos_if.c). */
int cmd_nx_interface(struct cmd_exec_arg *x);
int cmd_nx_shutdown(struct cmd_exec_arg *x);
int cmd_nx_description(struct cmd_exec_arg *x);
/* `roce [MODE]`, the one-command RoCE mode (cmd_nxos_if.c). */
int cmd_nx_roce(struct cmd_exec_arg *x);
int cmd_nx_terminal(struct cmd_exec_arg *x);
int cmd_nx_where(struct cmd_exec_arg *x);
/* Port profiles and the ASIC's buffer settings (cmd_nxos_if.c). */
int cmd_nx_port_profile(struct cmd_exec_arg *x);
int cmd_nx_profile_state(struct cmd_exec_arg *x);
int cmd_nx_inherit(struct cmd_exec_arg *x);
int cmd_nx_profile_keep(struct cmd_exec_arg *x);
/* `class-map type queuing NAME` (its `match qos-group` is
 * cmd_nx_match_qos_group's) and `class type queuing NAME` of a user
 * class or class-default in a queuing policy. */
int cmd_nx_cmap_que(struct cmd_exec_arg *x);
int cmd_nx_pmap_que_uclass(struct cmd_exec_arg *x);
#define CMD_NX_CHANNEL_MAX POLICY_CHANNEL_MAX
/* `[no] channel-group N [force] [mode active|passive|on]` on a port
 * (cmd_exec then carries out the port-channel's lines there), and
 * whether NAME is a port-channel (port-channelN, N's value in *N). */
int cmd_nx_channel_group(struct cmd_exec_arg *x);
bool cmd_nx_port_channel(const char *name, unsigned *n);
int cmd_nx_asic_knob(struct cmd_exec_arg *x);
/* Class-map and policy-map additions (cmd_nxos_class.c). */
int cmd_nx_map_description(struct cmd_exec_arg *x);
int cmd_nx_match_precedence(struct cmd_exec_arg *x);
int cmd_nx_match_acl(struct cmd_exec_arg *x);
int cmd_nx_set_mark(struct cmd_exec_arg *x);
int cmd_nx_queue_limit(struct cmd_exec_arg *x);
int cmd_nx_wred_profile(struct cmd_exec_arg *x);
int cmd_nx_shape(struct cmd_exec_arg *x);

#endif
