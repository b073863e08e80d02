/* agents: what runs beside the one path in the daemon's loop and talks to
 * link peers or watches counters: the raw-frame layer today; the LLDP/DCBX
 * agent and software PFC and the PFC watchdog join it
 * here. Agents never write to the kernel: they change a port's compile
 * inputs in the registry and ask the daemon for a reconcile of that port.
 *
 * The daemon calls agents_sync() after a commit and after link events
 * (which ports exist and are configured). Given the daemon's loop, the
 * agents register their sockets (each with its callback) and their timer
 * there themselves; without one (tests), the caller drives them:
 * agents_fd() for a readable fd, agents_wait() for how long it may
 * sleep, agents_tick() when that time is over.
 */
#ifndef ROCED_AGENTS_H
#define ROCED_AGENTS_H

#include <stdbool.h>

#include "agent/deadlock.h"
#include "agent/frame.h"
#include "agent/hwcnt.h"
#include "agent/lldp_agent.h"
#include "agent/lldpad_client.h"
#include "agent/softpfc.h"
#include "agent/txpoll.h"
#include "agent/wdpoll.h"
#include "registry/ports.h"
#include "kernel/link.h"
#include "kernel/route.h"
#include "model/plan.h"
#include "model/policy.h"
#include "os/loop.h"

/* The daemon reconciles port IFNAME (soon: after the current batch). */
typedef void (*agents_reconcile_fn)(void *arg, const char *ifname);

struct agents {
	struct frames frames;
	/* LLDP and DCBX: on every port the policy configures and
	 * that is up, unless `no feature lldp` or `dcbx agent lldpad`. */
	struct lldp_agent lldp;
	/* The lldpad backend: the ports of `dcbx agent lldpad`, whose DCBX
	 * lldpad runs (roced's own agent stays silent there). */
	struct lldpad_client lldpad;
	/* The ports to follow changed (a commit, a link event). */
	bool dirty;
	/* agents_dcbx_pull looks at every port only when the LLDP agent's
	 * outcomes moved since (lldp.changes), the ports were synced, or
	 * something was still due: after every loop turn, a look at 128
	 * ports by name was most of an idle roced's CPU. */
	uint64_t dcbx_seen;
	bool dcbx_look;
	/* --- software PFC --- */
	struct softpfc softpfc;
	struct ports *ports; /* the daemon's registry (compile inputs) */
	agents_reconcile_fn reconcile;
	void *reconcile_arg;
	/* The PFC watchdog's poller. It and both transmit sides follow
	 * the registry's applied plans once agents_sync() ran (SYNCED). */
	struct wdpoll wd;
	bool synced;
	/* Software PFC's transmit side: pause out of the ports feeding a
	 * congested no-drop queue. */
	struct txpoll tx;
	/* Hardware DCB ports' PFC counters (the watchdog's, and show's). */
	struct hwcnt hw;
	/* 802.3x link pause's transmit side (`flowcontrol send on`). */
	/* The queues' tc statistics, one sampler for the watchdog, the
	 * transmit side and link pause. */
	struct qstats qs;
	/* What each port feeds: pause only the contributors. */
	struct contrib contrib;
	/* The routing and neighbour tables: who feeds a routed port. */
	struct route_cache routes;
	struct nlb *nl;
	/* PFC deadlock: cycles of pause found through LLDP, and broken. */
	struct deadlock dl;
	/* --- end of software PFC --- */
	/* The daemon's loop (NULL: the caller drives the agents), and the
	 * agents' timer in it. */
	struct loop *loop;
	struct loop_timer *timer;
};

/* The daemon's registry, whose compile inputs the agents set, and how
 * they ask for a reconcile of a port. */
void agents_set_daemon(struct agents *a, struct ports *ports, struct nlb *nl,
                       agents_reconcile_fn fn, void *arg);
/* Hardware ports' counters come through ET (may be NULL: dcbnl alone)
 * and NL, unless OPS (NULL: the kernel's) with CTX replace them. */
void agents_set_hwcnt(struct agents *a, struct ethtool *et, struct nlb *nl,
                      const struct hwcnt_ops *ops, void *ctx);
/* After the daemon applied what the agents asked for: software PFC
 * kicks the queues it released (softpfc.h). */
void agents_applied(struct agents *a);

/* Sockets and the agents' timer go into LOOP (NULL: the caller drives
 * them); OPS (NULL: frame_ops_packet) with IMPL reach the wire. */
void agents_init(struct agents *a, struct loop *loop,
                 const struct frame_ops *ops, void *impl);
void agents_free(struct agents *a);
/* Raw-frame I/O on each port that R holds an applied plan for (not a
 * release plan) and LM knows and is up, none on the others; LLDP as
 * those plans (plan_port.lldp) and R's global part say: the agents
 * follow what was applied, never the policy. */
void agents_sync(struct agents *a, const struct ports *r, struct link_mon *lm);
/* LLDP and DCBX, between the agent and the port registry R:
 * what each port R applied a plan to advertises (from that plan alone:
 * its own DCB part and its willing bit), after every apply; and each
 * port's DCBX outcome into its entry, true when one changed (the entry's
 * dcbx.due: a reconcile of the port is due). */
void agents_dcbx_local(struct agents *a, const struct ports *r, double now_ms);
bool agents_dcbx_pull(struct agents *a, struct ports *r);

/* The priorities whose pause E's applied plan can honour (PFC enabled,
 * the queue's leaf one software PFC holds, not shut by the watchdog),
 * and whether it honours 802.3x link pause: software PFC's, on either
 * path (plan_port.pfc_path). */
uint8_t agents_softpfc_honour(const struct ports_port *e);
bool agents_lp_honour(const struct ports_port *e);

/* Software PFC's receive counters of IFNAME (NULL: every port) from its
 * kernel path's maps where the port takes that path (the programs count
 * every frame, this process may not read them all), else from the
 * frames this process reads; NOW in ms. Before a show reads them. */
void agents_kpfc_pull(struct agents *a, const char *ifname, double now);

/* FD belongs to an agent: handled (true), or not (false). */
bool agents_fd(struct agents *a, int fd, double now_ms);
/* Milliseconds until an agent's next timer (-1: none). */
int agents_wait(const struct agents *a, double now_ms);
void agents_tick(struct agents *a, double now_ms);

#endif
