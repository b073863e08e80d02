/* lldpad_client: the lldpad backend (`dcbx agent lldpad`). On a
 * host where lldpad owns the DCB NICs, roced drives lldpad instead of
 * running its own LLDP agent on those ports: it sets lldpad's admin
 * values (willing, PFC, ETS, APP: what `lldptool -T -V ...` sets), reads
 * back what lldpad advertises and what the peer sent (`lldptool -t
 * [-n] -V ...`), and negotiates those exactly as the built-in agent
 * does, so the outcome is the same struct dcbx_oper, the port's compile
 * input.
 *
 * The connection is liblldp_clif's (clif_open: lldpad's abstract control
 * socket in this network namespace); the requests and replies are
 * lib/proto/lldpad_msg's, sent without blocking and awaited at most
 * LLDPAD_CLIENT_REPLY_MS, from the daemon's one loop on a timer. lldpad
 * not running, not answering or refusing a port is that port's ERROR
 * (logged once per change, shown), and the port then has no DCBX outcome:
 * PFC mode auto waits, nothing else changes.
 */
#ifndef ROCED_LLDPAD_CLIENT_H
#define ROCED_LLDPAD_CLIENT_H

#include <stdbool.h>
#include <stddef.h>

#include "proto/dcbx.h"

/* How often lldpad is polled, and how long one reply may take (lldpad
 * answers from its own loop at once; a busy machine gets slack). */
#define LLDPAD_CLIENT_POLL_MS  1000.0
#define LLDPAD_CLIENT_REPLY_MS 250

struct lldpad_port {
	char ifname[17];
	bool mark;
	/* What roced's plan for the port advertises (set by the daemon
	 * after each apply), and whether lldpad took it. */
	bool has_local;
	struct dcbx_tlvs local;
	bool pushed;
	/* The APP entries lldpad holds from roced's pushes: one the plan
	 * no longer has is deleted from lldpad at the next push (lldpad
	 * keeps every entry it was given until told otherwise). */
	struct dcbx_apps app_set;
	/* What lldpad says it advertises, and the peer's TLVs. */
	struct dcbx_tlvs lldpad_local;
	bool has_peer;
	struct dcbx_tlvs peer;
	/* The outcome (HAS_OPER once lldpad answered), when it changed, and
	 * why there is none ("" when fine). */
	bool has_oper;
	struct dcbx_oper oper;
	double changed_ms;
	char error[160];
};

struct lldpad_client {
	struct clif *clif; /* NULL: not connected */
	struct lldpad_port *v;
	size_t n, cap;
	double next_ms; /* the next poll (-1: no port) */
	/* lldpad did not answer in this poll: the other ports wait for the
	 * next one, so that a hung lldpad stalls the loop once per poll. */
	bool stalled;
};

void lldpad_client_init(struct lldpad_client *c);
void lldpad_client_free(struct lldpad_client *c);
/* IFNAME is driven through lldpad (added if new; marked for the sweep).
 * Returns 0 or -ENOMEM. */
int lldpad_client_port(struct lldpad_client *c, const char *ifname);
/* Ports not named since the last sweep are dropped. */
void lldpad_client_sweep(struct lldpad_client *c);
struct lldpad_port *lldpad_client_find(const struct lldpad_client *c,
                                       const char *ifname);
/* What IFNAME should advertise (roced's plan): pushed to lldpad at the
 * next poll when it differs. */
void lldpad_client_set_local(struct lldpad_client *c, const char *ifname,
                             const struct dcbx_tlvs *local, double now_ms);
/* The time of the next poll (-1: none), and the poll when due. */
double lldpad_client_next(const struct lldpad_client *c);
void lldpad_client_tick(struct lldpad_client *c, double now_ms);

#endif
