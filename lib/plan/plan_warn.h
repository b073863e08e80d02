/* plan_warn: a plan's per-port warnings and notes as roced prints and logs
 * them: each distinct message once, with the ports it concerns,
 *
 *     FILE:LINE: warning: swp1-swp4,swp7: text
 *     FILE: note: swp2: text           (a message not tied to a line)
 *
 * so that 256 ports of one policy give a handful of lines, not a thousand.
 * Runs of ports whose names differ only by a consecutive number (swp1,
 * swp2, swp3) are written as a range (swp1-swp3). Pure.
 */
#ifndef ROCED_PLAN_WARN_H
#define ROCED_PLAN_WARN_H

#include "model/plan.h"
#include "base/strbuf.h"

/* Call CB with each line (no newline), distinct messages in the order they
 * first appear (port by port, each port's in its own order). FILE may be
 * NULL. Returns 0, or -ENOMEM (lines may be missing). */
int plan_warn_each(const struct plan *pl, const char *file,
                   void (*cb)(const char *line, void *data), void *data);

/* plan_warn_each() of the messages of PL that its ports did not carry
 * before, that is what a change brought: BEFORE[i] (may be NULL) is the
 * previous plan of PL's port i, or NULL when it had none (everything is
 * new). A message is the same by severity and text, not by line: lines
 * move when a file is rewritten. Returns 0 or -ENOMEM. */
int plan_warn_each_new(const struct plan *pl,
                       const struct plan_port *const *before, const char *file,
                       void (*cb)(const char *line, void *data), void *data);

/* NAMES (N port names, in order) as these lines write a message's ports:
 * runs of consecutive numbers as ranges, "swp1-swp4,swp7,eth0". */
void plan_warn_ports(const char *const *names, size_t n, struct strbuf *sb);

#endif
