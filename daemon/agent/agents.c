/* agents: see agents.h. */
#include "agent/agents.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "base/escape.h"
#include "os/log.h"
#include "model/plan.h"
#include "plan/compile.h"

/* At most this many batches of frames are read from a port before its
 * hold may end (frames_process reads 64 at a time): what a socket
 * buffer holds (frame_packet.c), some 5000 small frames. */
#define AGENTS_DRAIN_BATCHES 96

/* The loop's clock, the one clock of the daemon. */
static double agents_ms(void)
{
	return loop_now_ms();
}

/* --- software PFC --- */

/* "the pause came in N ms ago" for a hold that began at SINCE, into
 * BUF. */
static const char *agents_ago(double since, char *buf, size_t len)
{
	snprintf(buf, len, "the pause came in %.1f ms ago",
	         agents_ms() - since);
	return buf;
}

/* The held priorities of IFNAME changed: they become the port's compile
 * input, and the daemon reconciles it. A release is kicked once applied
 * (agents_applied). */
static void agents_softpfc_changed(void *arg, const char *ifname, uint8_t held,
                                   bool lp_held)
{
	struct agents *a = arg;
	struct ports_port *e = a->ports ? ports_find(a->ports, ifname) : NULL;
	struct frame_port *fp = frames_find(&a->frames, ifname);
	const struct softpfc_port *sp =
	    softpfc_port(&a->softpfc, ifname, false);
	uint8_t gone = e ? (uint8_t)(e->watchdog.pfc_hold & ~held) : 0;
	char why[80] = "", ago[48];

	if (!e)
		return;
	/* A hold begins: a port may wait on its peer (agent/deadlock.h). */
	if (held & ~e->watchdog.pfc_hold)
		deadlock_wake(&a->dl, agents_ms());
	/* The kernel holds the port's queues itself (pfc_hold.bpf.c):
	 * roced counts the frames and times as ever (the watchdog's
	 * inputs) but holds no tbf, and lets go of one it held before the
	 * port took the kernel path. */
	if (e->applied && e->plan.pfc_path == PLAN_PFC_PATH_KERNEL) {
		if (held != e->watchdog.pfc_hold)
			log_debug(LOG_SUB_WATCHDOG,
			          "%s: pause for priorities 0x%02x, held by "
			          "the kernel",
			          ifname, held);
		held = 0;
		lp_held = false;
		if (!e->watchdog.pfc_hold && !e->watchdog.lp_hold)
			return;
	}
	if ((gone || (e->watchdog.lp_hold && !lp_held)) && fp)
		fp->kick = true;
	/* A hold begins: the held queue fills with nothing leaving, and the
	 * transmit side must see it at its fast pace, not an idle one. */
	if ((held & ~e->watchdog.pfc_hold) || (lp_held && !e->watchdog.lp_hold))
		txpoll_hurry(&a->tx, agents_ms());
	/* How long the pause lasted (the first priority released): what
	 * the watchdog's detection time must exceed for legitimate pause. */
	for (unsigned p = 0; sp && p < PFC_NPRIO && !why[0]; p++)
		if (gone & (1u << p))
			snprintf(why, sizeof(why),
			         " (priority %u held %.1f ms)", p,
			         sp->last_held[p]);
	/* ... and for a hold that begins, how long after the pause came in
	 * roced got to it: a late hold is roced waiting for a CPU (bench/pfc
	 * reads this) where the time is large, and roced's own doing where
	 * it is not. */
	for (unsigned p = 0; sp && p < PFC_NPRIO && !why[0]; p++)
		if (held & ~e->watchdog.pfc_hold & (1u << p))
			snprintf(why, sizeof(why), " (priority %u: %s)", p,
			         agents_ago(sp->since[p], ago, sizeof(ago)));
	if (held != e->watchdog.pfc_hold)
		log_debug(LOG_SUB_WATCHDOG,
		          "%s: software PFC holds priorities 0x%02x%s", ifname,
		          held, why);
	if (lp_held != e->watchdog.lp_hold)
		log_debug(LOG_SUB_WATCHDOG, "%s: link pause %s the port%s%s%s",
		          ifname, lp_held ? "holds" : "releases",
		          lp_held && sp ? " (" : "",
		          lp_held && sp
		              ? agents_ago(sp->lp.since, ago, sizeof(ago))
		              : "",
		          lp_held && sp ? ")" : "");
	e->watchdog.pfc_hold = held;
	e->watchdog.lp_hold = lp_held;
	if (a->reconcile)
		a->reconcile(a->reconcile_arg, ifname);
}

/* The priorities whose pause E's applied plan can honour: PFC enabled,
 * and the queue one whose leaf software PFC holds (plan_port.hold_queues:
 * not where tbf is missing), unless the watchdog shut it. */
uint8_t agents_softpfc_honour(const struct ports_port *e)
{
	const struct plan_port *pp = &e->plan;
	uint8_t honour = 0;

	if (!e->applied || !pp->dcb.software)
		return 0;
	for (unsigned p = 0; p < POLICY_NPRIO; p++) {
		unsigned q = pp->dcb.prio_tc[p];

		if (!(pp->dcb.pfc_en & (1u << p)) || q >= POLICY_NQUEUES)
			continue;
		if ((pp->hold_queues & (1u << q)) &&
		    !(e->watchdog.wd_shut & (1u << q)))
			honour |= (uint8_t)(1u << p);
	}
	return honour;
}

/* Whether E's applied plan can honour 802.3x link pause: `flowcontrol
 * receive on` on a software port, and leaves that a pause holds
 * (plan_port.hold_queues; none where the kernel lacks sch_tbf). */
bool agents_lp_honour(const struct ports_port *e)
{
	const struct plan_port *pp = &e->plan;

	return e->applied && pp->dcb.software && pp->dcb.pause_rx &&
	       pp->hold_queues;
}

/* The counters of SP, whose port E takes software PFC's kernel path, as
 * its programs' maps have them at NOW (ms); false when they cannot be
 * read (the port then keeps the counts this process made). */
static bool agents_kpfc_read(const struct ports_port *e,
                             struct softpfc_port *sp, double now)
{
	struct bpfhold_stats st;
	struct softpfc_kcount k;

	if (bpfhold_read(&e->kpfc, &st))
		return false;
	memset(&k, 0, sizeof(k));
	k.c.rx_frames = st.st.rx_frames;
	k.c.rx_link_pause = st.st.rx_link_pause;
	k.c.rx_link_xon = st.st.rx_link_xon;
	k.c.rx_malformed = st.st.rx_malformed;
	for (unsigned p = 0; p < PFC_NPRIO; p++) {
		const struct pfc_hold_prio *h = &st.prio[p];

		k.c.rx_pause[p] = h->rx_pause;
		k.c.rx_xon[p] = h->rx_xon;
		k.c.asked_ms[p] = (double)h->asked_ns / 1e6;
		k.c.last_pause_ms[p] = (double)h->pause_ns / 1e6;
		k.ask[p].until = (double)h->ask_until / 1e6;
		k.ask[p].since = (double)h->ask_since / 1e6;
	}
	softpfc_kernel(sp, &k, now);
	return true;
}

void agents_kpfc_pull(struct agents *a, const char *ifname, double now)
{
	for (size_t i = 0; i < a->softpfc.n; i++) {
		struct softpfc_port *sp = &a->softpfc.v[i];
		const struct ports_port *e;

		if (ifname && strcmp(sp->ifname, ifname))
			continue;
		e = a->ports ? ports_find(a->ports, sp->ifname) : NULL;
		if (!e || !e->kpfc_on || !agents_kpfc_read(e, sp, now))
			softpfc_user(sp);
	}
}

/* Software PFC follows the ports the frame layer follows, honouring what
 * their applied plans can hold. */
static void agents_softpfc_sync(struct agents *a, double now)
{
	for (size_t i = a->softpfc.n; i-- > 0;)
		if (!frames_find(&a->frames, a->softpfc.v[i].ifname))
			softpfc_remove(&a->softpfc, a->softpfc.v[i].ifname);
	for (size_t i = 0; i < a->frames.n; i++) {
		const char *ifname = a->frames.v[i].ifname;
		const struct ports_port *e =
		    a->ports ? ports_find(a->ports, ifname) : NULL;

		/* A port breaking a PFC deadlock honours no pause on the
		 * cycle's priority for a while (agent/deadlock.h). */
		uint8_t honour = e ? agents_softpfc_honour(e) : 0;

		honour &= (uint8_t)~deadlock_breaking(&a->dl, ifname);
		if (softpfc_configure(
		        &a->softpfc, ifname, honour, e && agents_lp_honour(e),
		        e ? (uint32_t)e->caps.speed_mbps : 0, now) < 0)
			log_warnx("%s: software PFC: out of memory", ifname);
	}
}

/* The watchdog's log names where the pause comes from: the port's LLDP
 * neighbour (the DCBX peer, the first one heard), as lldpd and NX-OS show
 * it. */
static void agents_neighbour(void *arg, const char *ifname, char *buf,
                             size_t len)
{
	const struct agents *a = arg;
	const struct lldp_port *lp = lldp_agent_find(&a->lldp, ifname);
	const struct lldp_nbr *n = lp ? lldp_port_peer(lp, NULL) : NULL;
	char chassis[LLDP_ID_TEXT_MAX], port[LLDP_ID_TEXT_MAX], name[80];

	if (!n) {
		snprintf(buf, len, "no LLDP neighbour");
		return;
	}
	lldp_id_format(&n->pdu.chassis, false, chassis, sizeof(chassis));
	lldp_id_format(&n->pdu.port, true, port, sizeof(port));
	/* The name is the peer's bytes: escaped, cut at a character. */
	escape_buf(name, sizeof(name), n->pdu.sys_name,
	           lldp_text_len(n->pdu.sys_name, n->pdu.sys_name_len),
	           ESCAPE_BACKSLASH);
	if (name[0])
		snprintf(buf, len, "LLDP neighbour %s (chassis %s, port %s)",
		         name, chassis, port);
	else
		snprintf(buf, len, "LLDP neighbour chassis %s, port %s",
		         chassis, port);
}

/* The routing socket is readable (the loop's callback). */
static void agents_routes_readable(void *arg, int fd, double now_ms)
{
	agents_fd(arg, fd, now_ms);
}

/* Follow the routing and neighbour tables (routed ports' feeders): their
 * notifications come on a socket of the loop's. Without it (no
 * privilege, no loop) the tables are read once, at the first sync. */
static void agents_routes_listen(struct agents *a)
{
	int fd, rc;

	if (route_fd(&a->routes) >= 0 || !a->loop)
		return;
	fd = route_listen(&a->routes);
	if (fd < 0) {
		log_warnx("cannot follow the routing tables (%s): a routed "
		          "port's feeders are the routes roced saw first",
		          strerror(-fd));
		return;
	}
	rc = loop_fd_add(a->loop, fd, agents_routes_readable, a);
	if (rc < 0)
		log_warnx("cannot follow the routing tables: %s",
		          strerror(-rc));
}

/* The tables as they are now, before the feeders are computed; true
 * when they changed. */
static bool agents_routes_refresh(struct agents *a)
{
	int rc;

	if (!a->nl)
		return false;
	rc = route_refresh(&a->routes, a->nl);
	if (rc < 0)
		log_debug(LOG_SUB_WATCHDOG,
		          "cannot read the routing tables: %s", strerror(-rc));
	return rc > 0;
}

/* 802.1AB system capabilities (8.5.8.1): a switch enables one of these. */
#define AGENTS_CAP_BRIDGE 0x0004
#define AGENTS_CAP_ROUTER 0x0010

static unsigned agents_switch_peer(void *arg, const char *ifname)
{
	const struct agents *a = arg;
	const struct lldp_port *lp = lldp_agent_find(&a->lldp, ifname);
	const struct lldp_nbr *n = lp ? lldp_port_peer(lp, NULL) : NULL;

	if (!n || !n->pdu.has_caps ||
	    !(n->pdu.caps_enabled & (AGENTS_CAP_BRIDGE | AGENTS_CAP_ROUTER)))
		return 0;
	/* A roced switch held itself while it pauses this port says so
	 * in its wait chains (deadlock.c): transit, not a storm. */
	return WDPOLL_PEER_SWITCH |
	       (lp->cfg.bridge || lp->cfg.router ? WDPOLL_PORT_SWITCH : 0) |
	       (n->pdu.pfcdl.present && n->pdu.pfcdl.n ? WDPOLL_PEER_WAITS : 0);
}

/* softpfc's question: a switch's pause refreshes are held longer. */
static bool agents_softpfc_switch(void *arg, const char *ifname)
{
	return agents_switch_peer(arg, ifname) & WDPOLL_PEER_SWITCH;
}

void agents_set_daemon(struct agents *a, struct ports *ports, struct nlb *nl,
                       agents_reconcile_fn fn, void *arg)
{
	a->ports = ports;
	a->reconcile = fn;
	a->reconcile_arg = arg;
	a->wd.ports = ports;
	a->wd.nl = nl;
	a->wd.softpfc = &a->softpfc;
	a->wd.reconcile = fn;
	a->wd.arg = arg;
	a->wd.neighbour = agents_neighbour;
	a->wd.neighbour_arg = a;
	a->wd.switch_peer = agents_switch_peer;
	a->tx.switch_peer = agents_switch_peer;
	a->softpfc.switch_peer = agents_softpfc_switch;
	a->softpfc.switch_arg = a;
	a->tx.switch_arg = a;
	a->tx.nl = nl;
	a->qs.nl = nl;
	a->wd.qs = &a->qs;
	a->tx.qs = &a->qs;
	a->contrib.impl = nl;
	a->tx.ports = ports;
	a->nl = nl;
	agents_routes_listen(a);
}

void agents_set_hwcnt(struct agents *a, struct ethtool *et, struct nlb *nl,
                      const struct hwcnt_ops *ops, void *ctx)
{
	hwcnt_free(&a->hw);
	hwcnt_init(&a->hw, ops, ctx);
	a->hw.k.et = et;
	a->hw.k.nl = nl;
	a->wd.hw = &a->hw;
}

void agents_applied(struct agents *a)
{
	for (size_t i = 0; i < a->frames.n; i++) {
		struct frame_port *fp = &a->frames.v[i];
		uint8_t kick[SOFTPFC_KICK_LEN];
		int rc;

		if (!fp->kick)
			continue;
		fp->kick = false;
		softpfc_kick_frame(fp->mac, kick);
		rc = frames_send_queued(&a->frames, fp->ifname, kick,
		                        sizeof(kick));
		if (rc < 0)
			log_debug(LOG_SUB_WATCHDOG, "%s: kick: %s", fp->ifname,
			          strerror(-rc));
	}
	/* The registry's ports were applied: their DCBX outcomes are
	 * looked at again. */
	a->dcbx_look = true;
	/* What the apply changed (a queue shut, PFC enabled): honoured,
	 * watched; a hold just applied gets the watchdog's sample. */
	agents_softpfc_sync(a, agents_ms());
	wdpoll_held(&a->wd, agents_ms());
	if (a->synced)
		wdpoll_sync(&a->wd, agents_ms());
	if (a->synced && a->ports) {
		agents_routes_refresh(a);
		txpoll_sync(&a->tx, a->ports, agents_ms());
	}
}

/* --- end of software PFC --- */

/* A MAC Control frame: software PFC's, and it wakes the watchdog's
 * poller (asleep while nothing came). */
static void agents_macc_rx(void *arg, const char *ifname, const uint8_t *buf,
                           size_t len, double now)
{
	struct agents *a = arg;
	const struct softpfc_port *sp =
	    softpfc_port(&a->softpfc, ifname, false);

	/* A port whose entry came after the programs were attached takes
	 * their counts before it counts a frame of its own. */
	if (sp && !sp->kernel)
		agents_kpfc_pull(a, ifname, now);
	softpfc_rx(&a->softpfc, ifname, buf, len, now);
	/* the programs have counted this frame (tc ingress runs before the
	 * socket is read), and any this process missed */
	agents_kpfc_pull(a, ifname, now);
	wdpoll_wake(&a->wd, now);
}

/* The agents' timer: its deadline is the earliest of theirs. */
static double agents_timer_next(void *arg, double now_ms)
{
	int wait = agents_wait(arg, now_ms);

	return wait < 0 ? -1 : now_ms + wait;
}

static void agents_timer_fire(void *arg, double now_ms)
{
	agents_tick(arg, now_ms);
}

void agents_init(struct agents *a, struct loop *loop,
                 const struct frame_ops *ops, void *impl)
{
	memset(a, 0, sizeof(*a));
	a->loop = loop;
	if (loop)
		a->timer = loop_timer_add(loop, agents_timer_fire,
		                          agents_timer_next, a);
	frames_init(&a->frames, ops ? ops : &frame_ops_packet, impl, loop);
	lldp_agent_init(&a->lldp, &a->frames, NULL, NULL);
	lldpad_client_init(&a->lldpad);
	a->dirty = true;
	softpfc_init(&a->softpfc, agents_softpfc_changed, a);
	wdpoll_init(&a->wd);
	hwcnt_init(&a->hw, NULL, NULL);
	txpoll_init(&a->tx);
	deadlock_init(&a->dl);
	a->tx.frames = &a->frames;
	a->tx.softpfc = &a->softpfc;
	qstats_init(&a->qs);
	contrib_init(&a->contrib, &contrib_ops_kernel, NULL);
	route_init(&a->routes);
	a->contrib.routes = &a->routes;
	a->tx.routes = &a->routes;
	a->tx.contrib = &a->contrib;
	frames_listen(&a->frames, FRAME_MACC, agents_macc_rx, a);
	frames_listen(&a->frames, FRAME_DATA, txpoll_data_rx, &a->tx);
}

void agents_free(struct agents *a)
{
	/* roced stops: the peers forget it at once (TTL 0). */
	lldp_agent_free(&a->lldp, agents_ms());
	lldpad_client_free(&a->lldpad);
	frames_free(&a->frames);
	softpfc_free(&a->softpfc);
	wdpoll_free(&a->wd);
	hwcnt_free(&a->hw);
	txpoll_free(&a->tx);
	deadlock_free(&a->dl);
	qstats_free(&a->qs);
	contrib_free(&a->contrib);
	if (a->loop && route_fd(&a->routes) >= 0)
		loop_fd_del(a->loop, route_fd(&a->routes));
	route_free(&a->routes);
	if (a->loop)
		loop_timer_del(a->loop, a->timer);
	a->timer = NULL;
}

/* --- LLDP and DCBX --- */

static void agents_lldp_cfg(struct agents *a, const struct plan_global *g)
{
	struct lldp_agent_cfg c;
	struct utsname u;

	memset(&c, 0, sizeof(c));
	c.tx.interval_ms = g->lldp_timer_ms;
	c.tx.reinit_ms = g->lldp_reinit_ms;
	c.holdtime = g->lldp_holdtime;
	c.dcbxp = g->lldp_dcbxp;
	if (gethostname(c.sys_name, sizeof(c.sys_name) - 1) < 0)
		snprintf(c.sys_name, sizeof(c.sys_name), "roced");
	if (uname(&u) == 0)
		snprintf(c.sys_desc, sizeof(c.sys_desc), "roced on %s %s %s",
		         u.sysname, u.release, u.machine);
	lldp_agent_configure(&a->lldp, &c, agents_ms());
}

/* The applied plan of IFNAME in R, when it is one of a port roced
 * configures (not a release plan), else NULL. */
static const struct plan_port *agents_plan(const struct ports *r,
                                           const char *ifname)
{
	const struct ports_port *e = ports_find(r, ifname);

	return e && e->applied && !e->plan.dcb.unmanaged ? &e->plan : NULL;
}

static void agents_lldp_sync(struct agents *a, const struct ports *r,
                             struct link_mon *lm)
{
	double now = agents_ms();

	agents_lldp_cfg(a, &r->global);
	for (size_t i = 0; i < r->n; i++) {
		const char *ifname = r->v[i].ifname;
		const struct plan_port *pp = agents_plan(r, ifname);
		const struct frame_port *fp =
		    pp ? frames_find(&a->frames, ifname) : NULL;
		struct lldp_agent_port_cfg pc;
		struct link_info li;

		if (fp && pp->lldp.agent == PLAN_LLDP_LLDPAD &&
		    lldpad_client_port(&a->lldpad, fp->ifname) < 0)
			log_warnx("%s: out of memory for its lldpad backend",
			          ifname);
		if (!fp || pp->lldp.agent != PLAN_LLDP_ROCED)
			continue;
		memset(&pc, 0, sizeof(pc));
		pc.transmit = pp->lldp.transmit;
		pc.receive = pp->lldp.receive;
		snprintf(pc.desc, sizeof(pc.desc), "%s",
		         pp->alias[0] ? pp->alias : ifname);
		pc.bridge = frames_port_bridged(fp->ifname);
		pc.router = !pc.bridge && frames_port_routes(fp->ifname);
		if (lldp_agent_port(&a->lldp, fp->ifname, fp->ifindex, fp->mac,
		                    &pc, now) < 0)
			log_warnx("%s: out of memory for its LLDP agent",
			          ifname);
		else if (link_lookup(lm, fp->ifname, &li) == 0) {
			lldp_agent_carrier(&a->lldp, fp->ifname, li.running,
			                   now);
			lldp_agent_set_mtu(&a->lldp, fp->ifname, li.mtu, now);
		}
	}
	/* The others stop, with a shutdown frame while their socket is
	 * still open (before frames_detach). */
	lldp_agent_sweep(&a->lldp, now);
	lldpad_client_sweep(&a->lldpad);
}

void agents_dcbx_local(struct agents *a, const struct ports *r, double now_ms)
{
	a->dcbx_look = true;
	for (size_t i = 0; i < r->n; i++) {
		const struct ports_port *e = &r->v[i];
		struct dcbx_tlvs t;

		/* A release plan (a port no longer configured, its MTU
		 * given back) advertises nothing new: its agent stops. */
		if (!e->applied || e->plan.dcb.unmanaged)
			continue;
		compile_dcbx_local(&e->plan, e->plan.dcbx_willing, &t);
		/* the MTU the plan gave the link, once applied */
		if (e->plan.dcb.mtu)
			lldp_agent_set_mtu(&a->lldp, e->ifname, e->plan.dcb.mtu,
			                   now_ms);
		if (lldp_agent_find(&a->lldp, e->ifname))
			lldp_agent_set_local(&a->lldp, e->ifname, &t, now_ms);
		else
			lldpad_client_set_local(&a->lldpad, e->ifname, &t,
			                        now_ms);
	}
}

bool agents_dcbx_pull(struct agents *a, struct ports *r)
{
	bool due = false;

	if (!a->dcbx_look && !a->lldpad.n && a->lldp.changes == a->dcbx_seen)
		return false;

	for (size_t i = 0; i < r->n; i++) {
		struct ports_port *e = &r->v[i];
		const struct lldp_port *lp =
		    lldp_agent_find(&a->lldp, e->ifname);
		const struct lldpad_port *dp =
		    lp ? NULL : lldpad_client_find(&a->lldpad, e->ifname);
		const struct dcbx_oper *oper = lp   ? &lp->oper
		                               : dp ? &dp->oper
		                                    : NULL;
		bool has = (lp && lp->has_oper) || (dp && dp->has_oper);

		if (has == e->dcbx.has &&
		    (!has || !memcmp(oper, &e->dcbx.oper, sizeof(*oper)))) {
			due = due || e->dcbx.due;
			continue;
		}
		e->dcbx.has = has;
		if (has)
			e->dcbx.oper = *oper;
		e->dcbx.due = true;
		due = true;
	}
	a->dcbx_seen = a->lldp.changes;
	a->dcbx_look = due; /* what is still due: looked at again */
	return due;
}

void agents_sync(struct agents *a, const struct ports *r, struct link_mon *lm)
{
	a->dirty = false;
	a->dcbx_look = true;
	/* LLDP first: ports about to be detached send their shutdown
	 * frame. A port that comes up joins after its attach below. */
	for (size_t i = 0; i < a->frames.n; i++) {
		const struct frame_port *fp = &a->frames.v[i];
		const struct plan_port *pp = agents_plan(r, fp->ifname);
		struct link_info li;

		if (!pp || pp->lldp.agent != PLAN_LLDP_ROCED ||
		    link_lookup(lm, fp->ifname, &li) < 0 || !li.up)
			lldp_agent_stop(&a->lldp, fp->ifname, true,
			                agents_ms());
	}
	/* Ports no longer configured, gone, or down administratively. */
	for (size_t i = a->frames.n; i-- > 0;) {
		const struct frame_port *fp = &a->frames.v[i];
		struct link_info li;

		if (!agents_plan(r, fp->ifname) ||
		    link_lookup(lm, fp->ifname, &li) < 0 || !li.up)
			frames_detach(&a->frames, fp->ifname);
	}
	for (size_t i = 0; i < r->n; i++) {
		struct link_info li;
		int rc;

		if (!agents_plan(r, r->v[i].ifname) ||
		    link_lookup(lm, r->v[i].ifname, &li) < 0 || !li.up)
			continue;
		rc = frames_attach(&a->frames, li.name, li.ifindex, li.mac);
		if (rc < 0)
			log_warnx("%s: cannot open its raw-frame socket: %s",
			          li.name, strerror(-rc));
	}
	agents_lldp_sync(a, r, lm);
	agents_softpfc_sync(a, agents_ms());
	a->synced = true;
	wdpoll_sync(&a->wd, agents_ms());
	if (a->ports) {
		agents_routes_refresh(a);
		txpoll_sync(&a->tx, a->ports, agents_ms());
	}
}

bool agents_fd(struct agents *a, int fd, double now_ms)
{
	if (fd >= 0 && fd == route_fd(&a->routes)) {
		/* A route or a neighbour changed: the routed ports' feeders
		 * again, from the tables as they are now, unless what they
		 * hold is the same (neighbours change state all the time:
		 * a sync restarts the contributors' windows). */
		if (route_notified(&a->routes) && a->synced && a->ports &&
		    agents_routes_refresh(a)) {
			bool moved = txpoll_routes_moved(&a->tx);

			/* Only a change of the ports routes leave through
			 * moves a feeder; the counts read the tables live. */
			log_debug(LOG_SUB_WATCHDOG,
			          "the routing tables changed (%llu "
			          "notifications so far)%s",
			          (unsigned long long)a->routes.changes,
			          moved ? ": the routed ports' feeders again"
			                : "");
			if (moved)
				txpoll_sync(&a->tx, a->ports, now_ms);
		}
		return true;
	}
	if (!frames_by_fd(&a->frames, fd))
		return false;
	frames_process(&a->frames, fd, now_ms);
	return true;
}

int agents_wait(const struct agents *a, double now_ms)
{
	double next = lldp_agent_next(&a->lldp);
	double pfc = softpfc_next(&a->softpfc);
	double dl = deadlock_next(&a->dl, &a->tx);
	double lldpad = lldpad_client_next(&a->lldpad);
	int wd = wdpoll_wait(&a->wd, now_ms), wait;
	int tx = txpoll_wait(&a->tx, now_ms);

	if (pfc >= 0 && (next < 0 || pfc < next))
		next = pfc;
	if (dl >= 0 && (next < 0 || dl < next))
		next = dl;
	if (lldpad >= 0 && (next < 0 || lldpad < next))
		next = lldpad;
	wait = next < 0 ? -1 : next <= now_ms ? 0 : (int)(next - now_ms) + 1;
	if (wd >= 0 && (wait < 0 || wd < wait))
		wait = wd;
	if (tx >= 0 && (wait < 0 || tx < wait))
		wait = tx;
	return wait;
}

void agents_tick(struct agents *a, double now_ms)
{
	lldp_agent_tick(&a->lldp, now_ms);
	lldpad_client_tick(&a->lldpad, now_ms);
	/* A hold ends only if no refresh is waiting on its socket: the
	 * loop may have been busy (an apply, or no CPU) past the frame's
	 * arrival. Everything waiting is read, not one batch: frames are
	 * dated on arrival, and a storm's backlog of more than a batch
	 * would otherwise end its hold in the middle of the storm. The
	 * watchdog's restore is the same decision (no pause for so long)
	 * and reads them first too: a shut queue honours no pause, so no
	 * hold would have read them. */
	if ((softpfc_next(&a->softpfc) >= 0 &&
	     softpfc_next(&a->softpfc) <= now_ms) ||
	    wdpoll_restore_due(&a->wd, now_ms))
		for (size_t i = 0; i < a->frames.n; i++) {
			int fd = a->frames.v[i].fd;

			if (fd < 0 ||
			    !softpfc_port(&a->softpfc, a->frames.v[i].ifname,
			                  false))
				continue;
			for (int k = 0; k < AGENTS_DRAIN_BATCHES &&
			                frames_process(&a->frames, fd, now_ms);
			     k++)
				;
		}
	softpfc_expire(&a->softpfc, now_ms);
	wdpoll_tick(&a->wd, now_ms);
	txpoll_tick(&a->tx, now_ms);
	if (deadlock_tick(&a->dl, &a->lldp, &a->softpfc, &a->tx, now_ms))
		agents_softpfc_sync(a, now_ms);
	/* The next node of a cycle is released at xon (txpoll_port's
	 * in_cycle); the agents set the transmit side's inputs. */
	for (size_t i = 0; i < a->tx.n; i++)
		a->tx.v[i].in_cycle =
		    deadlock_in_cycle(&a->dl, a->tx.v[i].ifname, now_ms);
}
