/* fabric: what one end of a link can tell of the other, for `show roce
 * fabric` and its metric: the mismatches that make a no-drop class lossy
 * across the link. Pure: the caller gathers each port's own state (its
 * applied plan, what it advertises) and what its LLDP neighbour sent.
 *
 * The rules, one kind each (fabric_kind_name() is their one name table):
 *   pfc-one-end     PFC runs at one end only on some priority: the
 *                   other end neither pauses nor honours pause there;
 *   pfc-priorities  both ends run PFC, on different priorities;
 *   app-roce        an APP entry of the peer maps RoCE (UDP 4791, or
 *                   DSCP 26) to another priority than this end's RoCE
 *                   priority (the priority its DSCP 26 goes to);
 *   mtu             the peer's Maximum Frame Size TLV (802.3) is below
 *                   this end's no-drop class MTU plus the 14-byte
 *                   Ethernet header: its frames are cut or dropped;
 *   no-dcbx         PFC runs here and the neighbour sends LLDP without
 *                   a PFC TLV (no DCBX at all, or DCBX without PFC):
 *                   nothing says it honours or sends pause;
 *   no-lldp         PFC runs here and roced hears no LLDP neighbour on
 *                   a port whose carrier is up and where it listens:
 *                   the other end is not known to run PFC at all.
 * The last two are the lossy ends the others cannot see: a no-drop class
 * is only as lossless as a peer that says it pauses.
 * What the peer runs is not on the wire: it is what 802.1Qaz makes of
 * its TLVs against ours (fabric_peer_oper), the way the peer itself
 * negotiates. A peer that speaks legacy CEE only is not judged on PFC
 * (it does run DCBX); one that sends no Maximum Frame Size not on MTU.
 */
#ifndef ROCED_FABRIC_H
#define ROCED_FABRIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/policy.h"
#include "proto/dcbx.h"

enum fabric_kind {
	FABRIC_PFC_ONE_END,
	FABRIC_PFC_PRIORITIES,
	FABRIC_APP_ROCE,
	FABRIC_MTU,
	FABRIC_NO_DCBX,
	FABRIC_NO_LLDP,
};
#define FABRIC_NKINDS (FABRIC_NO_LLDP + 1)

/* "pfc-one-end", "pfc-priorities", "app-roce", "mtu", "no-dcbx",
 * "no-lldp" ("?" outside); the
 * parse is its inverse (-1 if unknown). */
const char *fabric_kind_name(enum fabric_kind k);
int fabric_kind_parse(const char *s);

/* One link as this end sees it. */
struct fabric_link {
	char ifname[POLICY_IFNAME_MAX];
	uint8_t local_mac[6];
	struct dcbx_tlvs local; /* what this end advertises */
	uint8_t local_pfc;      /* priorities PFC runs on here now */
	uint32_t class_mtu;     /* the no-drop classes' MTU here, 0: none */
	/* roced listens for LLDP here with the carrier up: no neighbour
	 * then means the other end sends none (no-lldp). */
	bool listening;
	bool has_peer; /* an LLDP neighbour */
	bool peer_cee; /* it speaks legacy CEE DCBX only (not judged on PFC) */
	uint8_t peer_mac[6];
	struct dcbx_tlvs peer;   /* its DCBX TLVs (has_* false: none) */
	uint32_t peer_max_frame; /* its Maximum Frame Size, 0: not sent */
};

struct fabric_mismatch {
	char port[POLICY_IFNAME_MAX];
	enum fabric_kind kind;
	char detail[192];
};

struct fabric_list {
	struct fabric_mismatch *v;
	size_t n;
};

void fabric_list_free(struct fabric_list *l);
/* What the peer runs by 802.1Qaz: its TLVs negotiated against ours.
 * False (OUT untouched) when there is no peer or it sent no DCBX TLV. */
bool fabric_peer_oper(const struct fabric_link *l, struct dcbx_oper *out);
/* This end's RoCE priority: what its APP entries give DSCP 26 (else UDP
 * port 4791); -1 when they say nothing of RoCE. */
int fabric_roce_prio(const struct dcbx_tlvs *t);
/* Append L's mismatches to OUT. Returns how many, or -ENOMEM. */
int fabric_check(const struct fabric_link *l, struct fabric_list *out);

#endif
