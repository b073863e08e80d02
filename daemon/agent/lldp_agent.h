/* lldp_agent: roced's IEEE 802.1AB LLDP agent with the 802.1Qaz DCBX
 * TLVs, one per daemon, every port in the daemon's one loop.
 *
 * Per port it sends LLDPDUs (lib/proto/lldp_tx.h decides when: the
 * interval, fast starts on link up, a new neighbour or a change of the
 * local DCB configuration, the transmit credit), keeps the neighbours it
 * hears until their TTL runs out, and negotiates DCBX with one of them,
 * the port's DCBX peer, whenever either side changes. As 802.1Qaz has
 * it, DCBX is point to point: the DCBX peer is the port's one LLDP
 * neighbour, and a port with more than one (a shared segment, or a
 * spoofer beside the peer) is in the "multiple peers" state: it has no
 * DCBX peer at all and runs its own values (so PFC in mode auto is off)
 * until one neighbour is left, which then becomes the peer; the state is
 * shown and logged (at most once a minute), the neighbours' frames
 * counted, their DCBX TLVs never used. Every node of a shared segment
 * is thus in the same state, whichever came first. A port sends what it
 * runs for what it adopted
 * (dcbx_advertise). A changed outcome is logged once and handed to the
 * daemon (CHANGED), which makes it the port's compile input and asks for
 * a reconcile: the agent itself never touches the kernel.
 *
 * Frames go through the raw-frame layer (agent/frame.h), so tests drive
 * the agent with fake ports. Times are CLOCK_MONOTONIC milliseconds.
 */
#ifndef ROCED_LLDP_AGENT_H
#define ROCED_LLDP_AGENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "agent/frame.h"
#include "proto/dcbx.h"
#include "proto/lldp.h"
#include "proto/lldp_tx.h"

/* Neighbours kept per port; one is the normal case. */
#define LLDP_AGENT_NBR_MAX 4
/* The log says the multiple peers state, and a flapping peer's outcomes,
 * at most once per port in this window. */
#define LLDP_AGENT_LOG_MS 60000.0

struct lldp_agent_cfg {
	struct lldp_tx_cfg tx;
	unsigned holdtime; /* seconds: the TTL roced sends */
	bool dcbxp;        /* send the DCBX TLVs */
	char sys_name[64];
	char sys_desc[256];
};

/* One port's settings (its interface block). */
struct lldp_agent_port_cfg {
	bool transmit, receive;
	char desc[64]; /* Port Description: the NX-OS alias, or the name */
	/* The port is in a Linux bridge: System Capabilities say bridge
	 * (enabled), as a switch's do; else station, as a host's. */
	bool bridge;
	/* The port routes (IPv4 forwarding on, not in a bridge): System
	 * Capabilities say router (enabled), as a routed switch port's do,
	 * so a neighbour's watchdog knows a switch holds it. */
	bool router;
};

struct lldp_nbr {
	bool used;
	uint8_t mac[6]; /* the frames' source address */
	double added_ms, last_ms, expires_ms;
	struct lldp_pdu pdu;
	/* Its DCBX TLVs as negotiated with: the IEEE ones it sent, or, from
	 * a peer that speaks only legacy CEE (or CIN), what that says in
	 * IEEE values (lldp_cee_to_dcbx; DCBX.cee set). */
	struct dcbx_tlvs dcbx;
	/* Its MSAP came from another source address (OTHER_MAC, last at
	 * OTHER_MS): a spoof, or the peer's NIC replaced. Those frames are
	 * ignored while this entry lives (refreshed by its own address, or
	 * aged out one TTL after its last frame): logged once. */
	bool other;
	uint8_t other_mac[6];
};

/* 802.1AB's statistics, and what roced counts beside them. */
struct lldp_counters {
	uint64_t frames_in, frames_out, discarded, malformed, unknown_tlvs;
	uint64_t ageouts, nbr_added, nbr_deleted;
	uint64_t tx_errors;
	/* DCBX: LLDPDUs of a neighbour other than the DCBX peer (ignored
	 * for DCBX), times the port entered the multiple peers state, times
	 * the DCBX peer sent other DCBX values than before. */
	uint64_t dcbx_ignored, multi_peers, peer_changes;
	/* Times the daemon refused PFC the outcome enabled on priorities
	 * the port cannot hold ("adopted: not realisable"). */
	uint64_t dcbx_refused;
	/* LLDPDUs ignored because a known neighbour's MSAP (chassis and
	 * port ID) came from another source address than its own. */
	uint64_t msap_conflicts;
};

struct lldp_port {
	char ifname[FRAME_IFNAME_MAX];
	int ifindex;
	uint8_t mac[6];
	struct lldp_agent_port_cfg cfg;
	bool running; /* started and not stopped */
	bool carrier; /* the link's carrier, as last heard */
	bool mark;    /* lldp_agent_sweep()'s */
	struct lldp_tx tx;
	bool has_local; /* LOCAL holds what roced advertises */
	struct dcbx_tlvs local;
	/* The 802.3 Maximum Frame Size sent (0: not sent): the link's MTU
	 * with header and FCS, for the peer's check of a class MTU. */
	uint16_t max_frame;
	/* roced's PFC wait chains sent (agent/deadlock.h; PRESENT: any). */
	struct pfcdl_tlv pfcdl;
	struct lldp_nbr nbr[LLDP_AGENT_NBR_MAX];
	/* The DCBX peer: index + 1 into NBR (0: none). MULTI: more than one
	 * neighbour is on the port (and so no DCBX peer). */
	unsigned peer1;
	bool multi;
	/* Rate limits of the log (at most once a minute each): the multiple
	 * peers state, and outcomes a peer's changed values caused (a peer
	 * that changes its mind every second); what was not logged is
	 * counted and said with the next line. */
	double multi_log_ms, flap_log_ms;
	bool multi_logged, flap_logged;
	unsigned flap_unlogged;
	/* DCBX's outcome with the DCBX peer (HAS_OPER once local values
	 * are known), and when it last changed. */
	bool has_oper;
	struct dcbx_oper oper;
	double changed_ms;
	struct lldp_counters c;
};

struct lldp_agent;
typedef void (*lldp_agent_changed_fn)(void *arg, const struct lldp_port *p);

struct lldp_agent {
	struct frames *frames;
	struct lldp_agent_cfg cfg;
	struct lldp_port *v;
	size_t n;
	lldp_agent_changed_fn changed;
	void *arg;
	bool tx_reference; /* ROCED_LLDP_TX_REFERENCE: see lldp_agent_tick */
	/* Counts every change of a port's DCBX outcome and every port
	 * added or gone: its reader (agents_dcbx_pull) looks at the ports
	 * only when it moved. */
	uint64_t changes;
};

/* The agent listens for LLDP on F (frames_listen); CHANGED (may be NULL)
 * hears each port whose DCBX outcome changed. */
void lldp_agent_init(struct lldp_agent *a, struct frames *f,
                     lldp_agent_changed_fn changed, void *arg);
/* Shutdown frames on every running port, then forget them. */
void lldp_agent_free(struct lldp_agent *a, double now);
/* The global settings (a commit, the start). */
void lldp_agent_configure(struct lldp_agent *a, const struct lldp_agent_cfg *c,
                          double now);

/* Port IFNAME (its frame port attached) runs LLDP with PC from NOW on:
 * started with a fast start when it was not running; settings changed
 * in place (transmit turned off sends the shutdown frame). Marks it for
 * lldp_agent_sweep(). Returns 0 or -ENOMEM. */
int lldp_agent_port(struct lldp_agent *a, const char *ifname, int ifindex,
                    const uint8_t mac[6], const struct lldp_agent_port_cfg *pc,
                    double now);
/* Ports not marked since the last sweep stop (left the configuration,
 * went down administratively: a shutdown frame while their frame port is
 * still attached) and are forgotten; clears the marks. */
void lldp_agent_sweep(struct lldp_agent *a, double now);
/* IFNAME's carrier is UP (or not): a carrier that comes back makes a
 * fast start. */
void lldp_agent_carrier(struct lldp_agent *a, const char *ifname, bool up,
                        double now);
/* Stop IFNAME now (shutdown frame first when SHUTDOWN). */
void lldp_agent_stop(struct lldp_agent *a, const char *ifname, bool shutdown,
                     double now);

/* What IFNAME advertises (after each apply; NULL: nothing known yet).
 * A change makes a fast start and a new negotiation. */
void lldp_agent_set_local(struct lldp_agent *a, const char *ifname,
                          const struct dcbx_tlvs *local, double now);

/* IFNAME's link MTU is MTU (0: unknown): the Maximum Frame Size it
 * advertises (MTU + 18: Ethernet header and FCS). A change makes a fast
 * start, so that the peer's MTU check follows at once. */
void lldp_agent_set_mtu(struct lldp_agent *a, const char *ifname, uint32_t mtu,
                        double now);

/* The PFC wait chains IFNAME sends (agent/deadlock.h). A change makes a
 * fast start: a cycle is found as fast as its chains travel. */
void lldp_agent_set_pfcdl(struct lldp_agent *a, const char *ifname,
                          const struct pfcdl_tlv *t, double now);

/* The daemon refused (anew) PFC that IFNAME's outcome enabled: counted
 * (show lldp traffic). */
void lldp_agent_refused(struct lldp_agent *a, const char *ifname);

/* A frame of LEN bytes, longer than the receive buffer, came in on
 * IFNAME (frames_listen_long): malformed, its end unread. */
void lldp_agent_rx_long(void *arg, const char *ifname, size_t len, double now);
/* The frame_rx_fn for FRAME_LLDP (ARG is the agent). */
void lldp_agent_rx(void *arg, const char *ifname, const uint8_t *buf,
                   size_t len, double now);
/* When the agent next needs lldp_agent_tick() (-1: never). */
double lldp_agent_next(const struct lldp_agent *a);
/* Send what is due, age out what expired. */
void lldp_agent_tick(struct lldp_agent *a, double now);

struct lldp_port *lldp_agent_find(const struct lldp_agent *a,
                                  const char *ifname);
/* P's DCBX peer (the first neighbour heard, kept while it stays), or
 * NULL. Also how many neighbours P has. */
const struct lldp_nbr *lldp_port_peer(const struct lldp_port *p,
                                      unsigned *count);

#endif
