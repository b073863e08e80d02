/* plan_text: the plan as iproute2 commands (`roced --dry-run`).
 *
 * The output is a file that `tc -batch` accepts verbatim: tc lines
 * ("qdisc add dev ..."), and everything else as comments. The DCB part is
 * given as comment lines starting "#dcb " and the link MTU as "#ip ", so
 *   sed -n 's/^#dcb //p' | dcb -f -b -
 *   sed -n 's/^#ip //p'  | ip -batch -
 * replay them (dcb's batch option is -b / --batch: "-batch" would read a
 * file named "atch"). "apptrust" and "app ... pcp-prio" need iproute2 6.2
 * or later. On software ports the DCB lines are informational: roced
 * realises that part through the tc lines. Warnings are "# warning: ...".
 * Objects are created with "add": the text targets ports that hold none
 * of roced's objects yet.
 */
#ifndef ROCED_PLAN_TEXT_H
#define ROCED_PLAN_TEXT_H

#include "model/plan.h"
#include "base/strbuf.h"

/* The whole dry run for every port of PL. */
void plan_text_write(const struct plan *pl, struct strbuf *out);
/* Only one port's tc lines (no comments); used by tests and benchmarks. */
void plan_text_write_tc(const struct plan_port *pp, struct strbuf *out);
/* Only one port's DCB part as dcb batch lines (no "dcb" prefix). */
void plan_text_write_dcb(const struct plan_port *pp, struct strbuf *out);
/* One port's part of the dry run without its warnings: what the plan
 * holds, for comparing two plans of a port (a warning names the FILE:LINE
 * it comes from, and lines move when the file is edited). */
void plan_text_write_port(const struct plan_port *pp, struct strbuf *out);
/* The lines of BEFORE that AFTER lacks, each as "-LINE\n", then those of
 * AFTER that BEFORE lacks, as "+LINE\n", each in its text's order (a
 * line that appears twice is matched twice). The order of a port's tc
 * lines carries no meaning, so a line that only moved is not a change.
 * Returns how many lines were written (0: the same lines). */
size_t plan_text_diff(const char *before, const char *after,
                      struct strbuf *out);

#endif
