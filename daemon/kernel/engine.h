/* engine: the daemon's kernel-facing state (netlink socket, link monitor,
 * the mirror of roced's tc objects) and the jobs that use it: one
 * reconcile pass (`roced --once`), and the daemon's passes, which
 * daemon/core drives from its event loop. */
#ifndef ROCED_ENGINE_H
#define ROCED_ENGINE_H

#include <stdbool.h>
#include <stdio.h>

#include "kernel/nlb.h"
#include "kernel/link.h"
#include "model/plan.h"
#include "kernel/reconcile.h"

struct engine {
	struct nlb nl;
	struct tc_nl tc; /* the tc backend's context, on NL */
	struct link_mon *links;
	struct reconcile rc;
	/* Link pause on hardware ports: its own NETLINK_GENERIC socket
	 * (rc.ethtool points at ET once it opened). */
	struct ethtool_kernel ek;
	struct ethtool et;
	/* The daemon's mirror of roced's tc objects, kept current by tc
	 * notifications from others (mirror.h); not for a one-shot job. */
	bool mirroring;
	struct mirror mirror;
	struct tc_events events;
	/* Told of every change someone else made (the daemon repairs its
	 * ports); NULL: only the mirror hears. */
	void (*changed)(const struct tc_event *ev, void *data);
	void *changed_data;
	/* Notifications were lost (the receive buffer overran) since the
	 * owner last cleared this: what others changed meanwhile is
	 * unknown. */
	bool lost;
};

/* Open the netlink socket and the link monitor (CB hears about link
 * changes; NULL for a one-shot job, which then subscribes to nothing).
 * Returns 0 or -errno. */
int engine_open(struct engine *e, bool takeover, link_cb cb, void *data);
void engine_close(struct engine *e);

/* From now on mirror roced's tc objects (a daemon): reconciles of ports
 * nobody else touched need no dump. The kernel builds a notification of
 * every tc change for a subscriber, roced's own too (dropped unread), so
 * a daemon starts this after its first apply. Returns 0 or -errno (then
 * every pass observes every port, as before). */
int engine_mirror_start(struct engine *e);

/* The tc notification socket to poll (-1 without a mirror), and what to
 * call when it is readable. */
int engine_events_fd(const struct engine *e);
void engine_events(struct engine *e);
/* A link event, which the mirror must hear about (the daemon's link_cb
 * passes them on). */
void engine_link_event(struct engine *e, enum link_event ev, int ifindex);

/* Apply PL. With ORPHANS (PL names every configured port), every link
 * that holds a roced root qdisc but is not in PL is added to it with an
 * empty plan, so that applying PL removes roced's objects there; the one
 * qdisc dump that finds them also serves observation. *RES gets
 * PL->nports results (free() them; NULL on -ENOMEM), also when nothing
 * could be observed: then the ports that could not be read say why.
 * Returns what reconcile_apply() returns. */
int engine_apply(struct engine *e, struct plan *pl, bool orphans,
                 struct reconcile_result **res);

/* Release every software PFC hold in the namespace that no roced
 * controls any more: what `roced --release-holds` does after a roced
 * died or hung, and a roced does when it starts. One qdisc dump finds
 * the held tbf leaves of roced's (compile_pfc_tbf_held), each port's
 * are released by diff (compile_pfc_unhold: the released leaf's rate
 * and bucket, nothing else changes), and the changes go in one batch.
 * Ports configured or not alike: a held queue is held whatever the file
 * says now. *PORTS and *LEAVES (may be NULL) get how many were
 * released. On a netlink socket of its own, in the caller's network
 * namespace. Returns 0, or -EAGAIN when the kernel refused a change, or
 * -errno when nothing could be read or sent; ERR then says what. */
int engine_release_holds(size_t *ports, size_t *leaves, char *err,
                         size_t errlen);
/* engine_apply() once, and write a summary to OUT: per port its status
 * and writes, then totals. Returns 0 when every present port is as
 * planned, 1 when some port was refused or rolled back, 2 when the pass
 * stopped before writing anything. */
int engine_once(struct engine *e, struct plan *pl, bool orphans, FILE *out);

#endif
