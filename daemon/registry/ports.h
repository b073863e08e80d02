/* ports: the port registry, the one builder of compile()'s inputs.
 *
 * The registry stores; it asks the kernel nothing. Its caller takes the
 * probe snapshot the registry says is due (ports_probe_due, probe_ports,
 * ports_probed) before it compiles.
 *
 * Every port roced plans has an entry here: its capabilities (the
 * kernel's part, probed once or a --caps preset, and the port's own part,
 * probed when the port gets its entry, again after a link event about it
 * (it appeared, was replaced or renamed, changed state or speed) and at
 * every full apply (start, reload, commit, link events lost), but not on
 * the applies a hold or release of software PFC or the watchdog asks for:
 * those must reach the kernel within a pause's few milliseconds, and the
 * probe's DCB and ethtool requests wait for the kernel's RTNL lock, which
 * anyone's link or qdisc change holds), and the slots the DCBX agent and
 * the watchdog fill.
 * ports_compile() turns entries into struct compile_port, so an input
 * that joins compile joins it here once, for the daemon's loop, its
 * reloads and rocesh commits, and the one-shot jobs (-n, --dry-run,
 * --once) alike.
 *
 * The daemon also keeps in each entry the plan it last handed to the
 * kernel for the port and how that went: show reads that plan and the
 * kernel's state, and never compiles on its own.
 *
 * And the MTU the port had before roced first changed it, until roced
 * gives it back: a compile input (compile_port.mtu_restore), so the MTU
 * goes back through the plan like everything else when no network-qos
 * MTU applies any more, or the port is no longer configured, or roced
 * stops with --cleanup-on-exit. The daemon keeps these MTUs in a file of
 * its state directory (ports_mtu_save), so that a restarted roced still
 * gives them back.
 */
#ifndef ROCED_PORTS_H
#define ROCED_PORTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "kernel/bpfhold.h"
#include "kernel/reconcile.h"
#include "model/caps.h"
#include "model/plan.h"
#include "model/policy.h"
#include "plan/compile.h"
#include "proto/dcbx.h"

/* The port's DCBX outcome (what the peer agreed to, per TLV): the LLDP
 * agent fills it and ports_compile() passes it to compile
 * through struct compile_port. HAS: the agent runs on the port and knows
 * its local values (else PFC mode auto simply waits). DUE: it changed
 * since the port's last apply, a reconcile of the port is due. */
struct ports_dcbx {
	bool has;
	struct dcbx_oper oper;
	bool due;
	/* Priorities the applied plan refused as not realisable
	 * (plan_port.pfc_unrealisable), how many times that began, and the
	 * log's once-a-minute limit. */
	uint8_t refused;
	uint64_t refusals;
	bool refused_logged;
	double refused_log_ms;
};

/* Software PFC's and the PFC watchdog's inputs of the port,
 * passed to compile through struct compile_port: the software PFC agent
 * (daemon/agent/softpfc.c) sets PFC_HOLD as pauses come and go, the
 * watchdog poller sets WD_SHUT as storms come and go, and each asks for a
 * reconcile of the port. */
struct ports_watchdog {
	uint8_t pfc_hold; /* priorities held by a pause received */
	uint8_t wd_shut;  /* queues the watchdog shut for a storm */
	bool lp_hold;     /* an 802.3x link pause holds the whole port */
};

/* A port whose changes by others roced has repaired this many times
 * within this window is contested: another controller keeps undoing
 * roced's state, and roced stops fighting it until nobody has changed the
 * port for the quiet period (or a reload). */
#define PORTS_REPAIR_MAX       5
#define PORTS_REPAIR_WINDOW_MS 10000.0
#define PORTS_QUIET_MS         30000.0

struct ports_port {
	char ifname[POLICY_IFNAME_MAX];
	/* compile()'s inputs */
	struct caps caps;
	/* CAPS holds the port's own part as probed since the port's last
	 * link event (see ports_stale()). */
	bool probed;
	struct ports_dcbx dcbx;
	struct ports_watchdog watchdog;
	/* Why the daemon could not load software PFC's kernel path on the
	 * port ("": it did not fail): compile_port.kpfc_refused. Kept
	 * while roced runs, so that a port whose programs were refused is
	 * not tried (and logged) again at every apply: what refuses them
	 * (the verifier, a seccomp filter, the kernel's qdiscs) does not
	 * change under a running roced. */
	char kpfc_refused[PLAN_PFC_PATH_WHY_MAX];
	/* With KPFC_ON, the kernel path's programs roced attached to the
	 * port (the daemon's, daemon/core/daemon_kpfc.c) and the settings
	 * last written into them; the agents read its maps. An entry
	 * pruned detaches them, ports_free() only closes them (the holds
	 * need no process). */
	bool kpfc_on;
	struct bpfhold kpfc;
	struct bpfhold_conf kpfc_conf;
	/* The last apply (daemon only). With APPLIED, PLAN is the plan last
	 * handed to the kernel and STATUS what became of it: the kernel
	 * holds PLAN only when STATUS is RECONCILE_OK (ports_programmed()).
	 * REASON says why a port is not programmed, when that is known
	 * (also before any apply: a policy that did not compile, a kernel
	 * that could not be read). */
	bool applied;
	struct plan_port plan;
	enum reconcile_status status;
	char reason[512];
	/* Changes others made to the port's tc objects (daemon only). A
	 * change makes a repair DUE (WHAT is the first change, MORE the
	 * others since), unless the port is CONTESTED: repaired
	 * PORTS_REPAIR_MAX times within PORTS_REPAIR_WINDOW_MS, it is left
	 * to whoever keeps changing it until PORTS_QUIET_MS pass without a
	 * change, or a reload. Times are CLOCK_MONOTONIC milliseconds. */
	bool repair_due;
	double due_ms; /* when it became due */
	char repair_what[160];
	unsigned repair_more;
	double changed_ms;                /* the last change by others */
	double repairs[PORTS_REPAIR_MAX]; /* the last repairs, a ring */
	unsigned nrepairs;                /* how many ever (mod the ring) */
	bool contested;
	/* RECONCILE_REFUSED: the foreign root qdisc in the way. */
	char foreign_kind[16];
	uint32_t foreign_handle;
	/* The last ports_applied() changed the port's state or reason:
	 * what the daemon logs once, not on every pass. */
	bool news;
	/* The MTU the link had before roced first changed it; 0 when roced
	 * has not changed it or has given it back. */
	uint32_t mtu_orig;
};

struct ports {
	struct caps kernel; /* every port's kernel part */
	/* Plan software PFC (compile_port.softpfc): no-drop queues of
	 * software ports get holdable leaves. Always on (ports_init), so
	 * that the dry run shows what the daemon holds. */
	bool softpfc;
	/* Software PFC's kernel path may be taken (only with roced
	 * --kernel-pfc; compile_port.kpfc). */
	bool kpfc;
	bool probe; /* probe each port's part (not a preset) */
	/* The last ports_compile() could not probe the ports: they were
	 * planned as software ports of unknown speed. */
	bool unprobed;
	/* Ports probed so far (each port of each probe), for tests. */
	size_t nprobed;
	struct ports_port *v; /* sorted by name */
	size_t n;
	/* The part of the plan last applied that no one port has
	 * (struct plan_global: LLDP's timers, the watchdog's global lines,
	 * the metrics textfile), beside the ports' plans; zero before the
	 * first apply (ports_applied_global). */
	struct plan_global global;
	/* Some entry's MTU_ORIG changed since the last ports_mtu_save(). */
	bool mtu_dirty;
	/* The network namespace's cookie (SO_NETNS_COOKIE, never reused
	 * while the machine runs; 0: unknown), written in the MTU file so
	 * that a namespace whose inode number is reused does not take the
	 * MTUs of the one that is gone. */
	uint64_t netns_cookie;
};

/* An empty registry whose ports have KERNEL's capabilities, and their
 * own part probed when PROBE is set. */
void ports_init(struct ports *r, const struct caps *kernel, bool probe);
void ports_free(struct ports *r);

struct ports_port *ports_find(const struct ports *r, const char *ifname);
/* IFNAME's entry, added when missing (the watchdog's state loaded at
 * start goes into entries before the first compile); NULL on ENOMEM.
 * Adding an entry moves the others: pointers into the registry do not
 * survive it. */
struct ports_port *ports_get(struct ports *r, const char *ifname);
/* Does the kernel hold the plan of E? */
bool ports_programmed(const struct ports_port *e);
/* E's state as show tells it: programmed, refused (a foreign root qdisc,
 * E's REASON names it) or not programmed (REASON says why). */
enum plan_port_state ports_state(const struct ports_port *e);

/* The probe snapshot a compile of the ports NAMES (N of them; NULL:
 * every port P configures) needs: their entries (added when missing)
 * whose own capabilities were not probed since their last link event, or
 * all of them when NAMES is NULL (a full apply: start, reload, commit,
 * link events lost), none with a preset. *SNAP (the caller frees it)
 * gets each one's name and the kernel's capabilities for probe_ports() to
 * fill. Returns how many, or -ENOMEM. */
int ports_probe_due(struct ports *r, const struct policy *p,
                    char (*names)[POLICY_IFNAME_MAX], size_t n,
                    struct compile_port **snap);
/* SNAP (N ports) as probe_ports() returned it (RC) into the entries. */
void ports_probed(struct ports *r, const struct compile_port *snap, size_t n,
                  int rc);
/* The ports of P without an entry, into OUT (room for P->nifaces), each
 * with the kernel's capabilities for probe_ports() to fill: what a dry
 * run (ports_plan) needs probed. Returns how many. */
size_t ports_unknown(const struct ports *r, const struct policy *p,
                     struct compile_port *out);

/* Compile P for the ports NAMES (N of them; NULL: every port P
 * configures, in its order, then a compile_release() plan for every
 * entry P does not configure that has an MTU to give back) into PL
 * (plan_init()ed by the caller), from their entries, which are added when
 * missing, with the capabilities the last probe snapshot gave them
 * (ports_probed). FILE is
 * the name of P's source. Returns 0; -EINVAL when P does not compile,
 * with its messages added to ERRS (may be NULL) at their FILE:LINE: as
 * lines of ERRS when ERRS is FILE's list, else as "FILE:LINE: " in front
 * of the text (a command line's list); or -ENOMEM. */
int ports_compile(struct ports *r, const struct policy *p, const char *file,
                  char (*names)[POLICY_IFNAME_MAX], size_t n, struct plan *pl,
                  struct diag *errs);

/* What a full apply of P would plan (P's ports, then the release plans
 * of the entries it drops), into PL, changing nothing: no entry is added,
 * probed again or marked (a dry run, a check). A port without an entry is
 * planned as a first apply would plan it, with its capabilities from
 * UNKNOWN (NUNKNOWN ports, ports_unknown()'s order, as the caller probed
 * them; the kernel's when absent). Returns as ports_compile(). */
int ports_plan(const struct ports *r, const struct policy *p, const char *file,
               const struct compile_port *unknown, size_t nunknown,
               struct plan *pl, struct diag *errs);

/* A link event about IFNAME: its capabilities are probed again at its
 * next compile. */
void ports_stale(struct ports *r, const char *ifname);

/* Plans that let go of every port P configures and every entry with an
 * MTU to give back (compile_release()), appended to PL: roced stopping
 * with --cleanup-on-exit. Returns 0 or -ENOMEM. */
int ports_release(struct ports *r, const struct policy *p, struct plan *pl);

/* After engine_apply(PL): each of the first N ports of PL (those
 * ports_compile() planned, not the orphans the apply added after them)
 * takes its plan out of PL (PL's port is left empty) and its result from
 * RES into its entry, with the reason in words ("the kernel refused
 * ...", "foreign root qdisc htb 1: ..."). Without RES (nothing was
 * written, WHY says why) the entries keep their last apply, and those
 * that never had one record WHY. Each entry's NEWS says whether its
 * state or reason changed. A port whose MTU roced changed for the first
 * time records the MTU it had (MTU_ORIG); one that got it back through
 * its plan forgets it. */
void ports_applied(struct ports *r, struct plan *pl, size_t n,
                   const struct reconcile_result *res, const char *why);

/* After an apply of PL that reached the kernel (all or some of its
 * ports): PL's global part is the one in force. */
void ports_applied_global(struct ports *r, const struct plan *pl);

/* Drop the entries of ports P does not configure (but not those that
 * have an MTU to give back): a commit that worked leaves the old
 * policy's behind, one that failed the candidate's. */
void ports_prune(struct ports *r, const struct policy *p);

/* Someone else changed E's tc objects at NOW (WHAT says how): a repair
 * is due, unless E is contested. Returns true when a repair is due. */
bool ports_changed(struct ports_port *e, const char *what, double now);
/* E was repaired at NOW. Returns true when that makes E contested (it was
 * not before). */
bool ports_repaired(struct ports_port *e, double now);
/* A contested E that nobody changed for PORTS_QUIET_MS by NOW is no longer
 * contested, and a repair is due. Returns true when that happens. */
bool ports_quiet(struct ports_port *e, double now);
/* A reload: no port is contested any more, and nothing is due (the
 * reload's apply repairs them all). */
void ports_uncontest(struct ports *r);

/* The MTUs to give back, in the file PATH ("netns COOKIE", then
 * "IFNAME MTU" lines): load them into entries (added when missing; lines
 * that do not parse are skipped), and save them (atomically: a new file
 * renamed over the old; no file when there are none), which clears
 * MTU_DIRTY. Return the number loaded (0 without a file; -ESTALE, nothing
 * loaded, when the file names another namespace's cookie) / 0, or
 * -errno. */
int ports_mtu_load(struct ports *r, const char *path);
int ports_mtu_save(struct ports *r, const char *path);

/* OUT: the plan of a port roced holds no plan for, to show it: no tc
 * objects, DCB and MTU left alone, the DCB kind CAPS says. OUT needs no
 * freeing. */
void ports_unplanned(const char *ifname, const char *alias,
                     const struct caps *caps, struct plan_port *out);

#endif
