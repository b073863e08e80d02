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

#endif
