/* rocesh: roced's NX-OS-like shell.
 *
 * session.c carries out one line at a time whatever its source (the
 * terminal, -c, or a script on stdin): lines are parsed locally with the
 * command language (lib/cmd/cmd.h); mode lines move the local context;
 * configuration lines, show commands and actions go to roced over the
 * control socket (client.h), which owns the running configuration and
 * answers with the context to continue in. shell.c is the interactive
 * front end on libedit (prompts, `?`, TAB, history).
 */
#ifndef ROCESH_H
#define ROCESH_H

#include <stdbool.h>
#include <stdio.h>

#include "client.h"
#include "cmd/cmd.h"
#include "model/policy.h"
#include "base/strbuf.h"

#define ROCESH_HOST "roced"

struct rocesh {
	struct client cl;
	struct cmd_ctx ctx;
	/* The running configuration as last fetched from roced, for the
	 * names TAB and `?` offer (class-maps, policy-maps, interfaces);
	 * fetched again after each change, when next needed. */
	struct policy known;
	bool known_stale;
	/* The warnings of the last configuration reply, one per line. */
	struct strbuf warnings;
	/* A script's warnings about the configuration as it stands are
	 * judged once it ends (or before a show or action line): PENDING
	 * holds those its lines brought, STANDING those of the last reply
	 * that still stand; only a pending one that still stands is told,
	 * so that "no class is no-drop" does not fire halfway through a
	 * paste in running-config order. */
	struct strbuf pending, standing;
	/* A terminal: errors go under the echoed line at the prompt's
	 * width. Otherwise each error names its source and line number,
	 * and configuration commands typed at roced# enter configuration
	 * mode by themselves, so that a saved configuration can be piped
	 * in as it is. */
	bool interactive; /* also set by --echo, which shows a terminal */
	/* --echo: lines go through rocesh_echo_line. */
	bool echo;
	const char *src; /* "stdin", "-c", for error locations */
	unsigned lineno;
	unsigned nerrors;
	/* Not on a terminal: the last line refused (0: none) and its
	 * indentation. The lines indented deeper under it belong to it (a
	 * pasted configuration's blocks) and are refused unseen: they would
	 * land in whatever mode the session was left in. */
	unsigned rejected;
	size_t rejected_indent;
	/* The refused line would have entered a mode (class-map, class,
	 * interface, ...): in a script written without indentation, the
	 * lines after it up to the next such line are its block too. */
	bool rejected_enters;
	/* Known NX-OS lines that are not QoS (cmd_not_qos), and the lines
	 * indented under one: counted and told once (rocesh_finish), as a
	 * pasted full running-config has many. IGNORING is the line number
	 * of the last such line while lines under it follow. */
	unsigned nignored;
	unsigned ignoring;
	size_t ignored_indent;
	struct strbuf ignored_what; /* the families seen, ", "-separated */
	bool quit;                  /* `exit` at roced# */
	/* The paste summary of a script (rocesh_finish): lines taken,
	 * lines refused (SKIPPED of them under a refused line), and whether
	 * any line was configuration (a script of shows gets none). */
	unsigned naccepted, nrejected, nskipped;
	bool configured;
	/* A `!` in the first column ends a block (cmd_parse), but a script
	 * may put one between the lines of a block, as a comment: the next
	 * line, when indented, continues in BEFORE_BANG's mode. */
	struct cmd_ctx before_bang;
	bool bang;
	/* `banner motd C ... C`: the lines up to the closing delimiter are
	 * the banner's ("": none open). */
	char banner[4];
	/* The configuration session the configuration lines go to (roced
	 * keeps it until commit or abort), "" for none. */
	char session[CTL_NAME_LEN];
	FILE *out;
	FILE *err;
};

/* Set R up with the control socket at SOCKPATH (NULL: the default path of
 * this network namespace). Returns 0 or -errno with R->cl.error set. */
int rocesh_init(struct rocesh *r, const char *sockpath);
void rocesh_free(struct rocesh *r);

/* Carry out LINE (without its newline). COL is the screen column where
 * the line began (the prompt's width) so that an error's caret lines up
 * under the echoed line. Returns 0, or -1 after printing the error and
 * counting it in R->nerrors. Blank lines and `#` comments are ignored;
 * a `!` in the first column ends a block, as in NX-OS configurations.
 * Not on a terminal, a line indented deeper than a refused line before it
 * (with nothing in between back at or left of that line's indentation)
 * is refused too: "% skipped: under a rejected line N". On a terminal a
 * refused line only leaves the mode as it was, as in NX-OS. */
int rocesh_line(struct rocesh *r, const char *line, size_t col);

/* The end of a session: "% ignored N lines: not QoS (families)" once,
 * when any line was. */
void rocesh_finish(struct rocesh *r);
/* Tell a script's pending warnings that still stand (see PENDING). */
void rocesh_judge_warnings(struct rocesh *r);
/* Tell the warnings of a configuration or action REPLY (warnings.c):
 * each once; in a script, those the reply says stand wait for
 * rocesh_judge_warnings. */
void rocesh_print_warnings(struct rocesh *r, struct json_object *reply);

/* --echo: carry out LINE as if typed on a terminal, printing the prompt
 * and the line first (see rocesh(8), SCRIPTS). R->interactive must be set
 * and R->err should be R->out, so that everything comes in order.
 * Returns as rocesh_line does. */
int rocesh_echo_line(struct rocesh *r, const char *line);

/* TAB on LINE (what is typed before the cursor): NEWLINE gets LINE with
 * its last word completed as far as the candidates agree; LISTING gets
 * the candidates in columns when that adds nothing and there are several
 * (cmd_render_complete). Returns the number of candidates. */
#define ROCESH_COMPLETE_MAX 128
size_t rocesh_complete(struct rocesh *r, const char *line,
                       struct strbuf *newline, struct strbuf *listing);

/* `?` on LINE (what is typed before the cursor): the listing into OUT,
 * from the command table, or of the output filters after a show
 * command's '|' (pipe.h). Returns 0, or -1 with ERR for the caret. */
int rocesh_help(struct rocesh *r, const char *line, struct strbuf *out,
                struct cmd_error *err);

/* The running configuration for completion, fetched when stale. Never
 * fails: without a daemon the names are simply not offered. */
const struct policy *rocesh_known(struct rocesh *r);

/* Print the error ERR about LINE: the caret line under the bad token
 * (LINE starts at screen column COL) and the message. */
void rocesh_print_error(struct rocesh *r, const char *line, size_t col,
                        const struct cmd_error *err);

/* Ask roced whether it is there; prints why not. Returns 0 or -errno. */
int rocesh_ping(struct rocesh *r);

/* The interactive shell on the terminal; returns at EOF or `exit` from
 * roced#. */
int rocesh_shell(struct rocesh *r);

#endif
