/* cmd_show: a show command's line, parsed by the command table, as the
 * query the daemon answers. Pure.
 *
 * The show rows of the command table (cmd_nxos.c) are the one grammar
 * of the shows: rocesh completes, helps and checks a line with them and
 * sends its words; roced parses those words with the same rows and
 * answers the query they fill. Nothing else reads a show's words.
 *
 * What fills the query is the role of each word the row matched:
 *   IFNAME, ALIAS        -> iface (canonical: policy_ifname_nxos)
 *   another argument     -> name (a class-map or policy-map, ...),
 *                           a second one name2
 *   `type` KEYWORD       -> type (qos, queuing, network-qos)
 *   a keyword of cmd_show.c's word table -> its flag (detail, system,
 *                           all; qos and ipqos: qos_only)
 *   any other keyword    -> nothing: the command's own words
 * and the row's name (a CTL_WHAT_* string) gives the kind. A new show
 * whose words have these roles is a row of the table and a builder of
 * its answer in daemon/show/; a new narrowing word is a field here and a
 * row of the word table.
 */
#ifndef ROCED_CMD_SHOW_H
#define ROCED_CMD_SHOW_H

#include <stdbool.h>
#include <stddef.h>

#include "cmd/cmd.h"
#include "ctl/ctl.h"
#include "model/policy.h"

struct show_query {
	enum ctl_show kind;
	bool qos_only;              /* running-config qos */
	char name[POLICY_NAME_MAX]; /* class-map / policy-map NAME, or "" */
	/* A second name: `show diff rollback-patch checkpoint A checkpoint
	 * B` (A is NAME, B is NAME2; "" for running-config). */
	char name2[POLICY_NAME_MAX];
	char iface[POLICY_ALIAS_MAX]; /* interface X, or "" for all */
	bool detail;
	/* NX-OS's narrowing words: `type qos|queuing|network-qos` (class-map,
	 * policy-map, policy-map interface), `system` (the policy-maps
	 * system qos attaches), `all` (running-config interface X with its
	 * defaults written out). */
	char type[16];
	bool system;
	bool all;
};

/* Fill Q from P, a SHOW line cmd_parse() matched. Returns 0, or -1 with
 * ERR at the word that does not fit Q (a name too long) or at 0 for a
 * line that is not a known show. */
int cmd_show_fill(const struct cmd_parsed *p, struct show_query *q,
                  struct cmd_error *err);

/* A show request as the control protocol carries it (lib/ctl/ctl.h):
 * WHAT, the command's name, and ARGS (NARGS words), either the whole
 * canonical line (ARGS begin with "show", as rocesh sends it) or the
 * words after WHAT's. The line is parsed by the command table in exec
 * mode and fills Q; a trailing "json" is allowed and ignored (the
 * request's own member says it). Returns 0, or -1 with ERR ("% ...",
 * POS the byte offset in the line of the words as joined by blanks). */
int cmd_show_query(const char *what, const char *const *args, size_t nargs,
                   struct show_query *q, struct cmd_error *err);

#endif
