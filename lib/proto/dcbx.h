/* dcbx: the IEEE 802.1Qaz DCBX TLVs (ETS Configuration, ETS
 * Recommendation, PFC Configuration, Application Priority) as values, and
 * their negotiation with a link peer. Pure: no I/O, no globals.
 *
 * The wire codec lives in lldp.c (one TLV table drives encode, decode and
 * print); this header holds what the TLVs mean, so that the LLDP agent,
 * the lldpad backend and compile all speak the same values.
 */
#ifndef ROCED_DCBX_H
#define ROCED_DCBX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DCBX_NPRIO 8
#define DCBX_NTC   8

/* Transmission selection algorithms of the ETS TLVs. */
enum dcbx_tsa {
	DCBX_TSA_STRICT = 0,
	DCBX_TSA_CBS = 1,
	DCBX_TSA_ETS = 2,
	DCBX_TSA_VENDOR = 255,
};

/* ETS Configuration (subtype 9) or Recommendation (subtype 10; WILLING,
 * CBS and MAX_TCS are not on the wire there). */
struct dcbx_ets {
	bool willing, cbs;
	uint8_t max_tcs;             /* 1..8 (0 on the wire means 8) */
	uint8_t prio_tc[DCBX_NPRIO]; /* traffic class of each priority */
	uint8_t tc_bw[DCBX_NTC];     /* percent, summing to 100 under ETS */
	uint8_t tsa[DCBX_NTC];       /* enum dcbx_tsa */
};

/* PFC Configuration (subtype 11). */
struct dcbx_pfc {
	bool willing, mbc;
	uint8_t cap;    /* how many priorities may have PFC at once, 0..8 */
	uint8_t enable; /* bit n: PFC on priority n */
};

/* Application Priority selectors (802.1Qaz-2011 / 802.1Q-2014). */
enum dcbx_app_sel {
	DCBX_APP_ETHERTYPE = 1,
	DCBX_APP_TCP = 2,  /* TCP or SCTP port */
	DCBX_APP_UDP = 3,  /* UDP or DCCP port */
	DCBX_APP_PORT = 4, /* TCP, SCTP, UDP or DCCP port */
	DCBX_APP_DSCP = 5,
};

struct dcbx_app {
	uint8_t prio;     /* 0..7 */
	uint8_t selector; /* enum dcbx_app_sel */
	uint16_t protocol;
};

/* An LLDPDU holds at most 507 bytes of APP entries in one TLV (3 bytes
 * each); more than this many is a peer we keep only in part (counted). */
#define DCBX_APP_MAX 64

struct dcbx_apps {
	struct dcbx_app v[DCBX_APP_MAX];
	size_t n;
};

/* What one LLDPDU's DCBX TLVs said (received), or what roced sends. */
struct dcbx_tlvs {
	bool has_ets_cfg, has_ets_rec, has_pfc, has_app;
	struct dcbx_ets ets_cfg, ets_rec;
	struct dcbx_pfc pfc;
	struct dcbx_apps app;
	/* A legacy CEE DCBX TLV (OUI 00-1B-21) was seen: the peer speaks
	 * CEE (decoded for show, see lldp.h). */
	bool cee;
	/* The values above are a CEE-only peer's, read as IEEE values
	 * (lldp_cee_to_dcbx). Its willing bits promise to take its peer's
	 * CEE values, which roced does not send: such a peer never runs
	 * ours, so it is never PEER_WILLING, and a willing port of ours
	 * takes its values whatever the MACs say. */
	bool from_cee;
};

/* Why a feature's operational values are what they are. */
enum dcbx_why {
	DCBX_WHY_AGREED,       /* the peer advertises the same values */
	DCBX_WHY_ADOPTED,      /* we are willing and took the peer's */
	DCBX_WHY_NO_PEER,      /* no LLDP neighbour (or it aged out) */
	DCBX_WHY_NO_TLV,       /* the neighbour sent no TLV for it */
	DCBX_WHY_PEER_WILLING, /* the peer is willing: it should take ours */
	DCBX_WHY_MISMATCH,     /* values differ and neither side adopts */
	DCBX_WHY_CEE,          /* the neighbour speaks legacy CEE only */
	/* PFC only: the peer is willing, but its PFC capability is smaller
	 * than the number of priorities we enable, so it cannot take ours. */
	DCBX_WHY_PEER_CANNOT,
	/* More than one LLDP neighbour on the port: DCBX is point to point
	 * (802.1Qaz), so the port negotiates with none of them and runs its
	 * own values until one is left. Set by the agent, which knows the
	 * neighbours; dcbx_negotiate() sees no peer. */
	DCBX_WHY_MULTI_PEERS,
};

/* The outcome of negotiating with one peer. */
struct dcbx_oper {
	struct dcbx_ets ets;
	enum dcbx_why ets_why;
	struct dcbx_pfc pfc;
	enum dcbx_why pfc_why;
	/* PFC mode auto may make PFC operational: both sides run PFC_ENABLE
	 * (AGREED, ADOPTED, or PEER_WILLING: a willing peer that can take
	 * ours runs ours by the standard, whatever it still advertises). */
	bool pfc_agreed;
	struct dcbx_apps app; /* the peer's entries merged under ours */
	enum dcbx_why app_why;
};

/* Negotiate (DOMAIN facts; 802.1Qaz clause 33 state machines reduced to
 * their outcome): ETS asymmetric, PFC symmetric with the MAC address tie
 * break when both are willing (interoperable with lldpad), APP merged.
 * PEER is NULL when there is no neighbour. LOCAL's values count whatever
 * its has_* flags say (they say what is sent). The MACs are the port's
 * own and the LLDPDU's source address (NULL reads as all zeros).
 *   ETS: willing and the peer sent a Recommendation -> its table
 *     (ADOPTED, or AGREED when it equals ours); otherwise ours, compared
 *     with the peer's Configuration (else its Recommendation): AGREED,
 *     PEER_WILLING (its Configuration is willing) or MISMATCH. The
 *     willing, CBS and max-TCs fields stay ours.
 *   PFC: the same enable bitmap -> AGREED; we are willing and the peer
 *     is not, or both are and our MAC is not the greater (lldpad's rule)
 *     -> the peer's bitmap, ADOPTED; the peer is willing (and keeps
 *     ours by the same rule) -> PEER_WILLING, agreed with our bitmap
 *     when the peer's PFC capability holds it (0 reads as 8), else
 *     PEER_CANNOT; else MISMATCH. Willing, MBC and cap stay ours.
 *   APP: ours; a willing port (LOCAL's PFC or ETS willing bit) adds the
 *     peer's entries of another selector or protocol (ADOPTED when any
 *     was added), a port that is not willing never does; a peer entry
 *     that gives one of ours another priority -> MISMATCH (ours
 *     stands); else AGREED.
 *   A feature without the peer's TLV: NO_TLV, or CEE when the peer sent
 *   legacy DCBX only; no peer: NO_PEER. Our values in both cases.
 *   A CEE-only peer's values (PEER->from_cee): a willing one that would
 *   be PEER_WILLING is CEE instead (not agreed: it waits for CEE values
 *   and runs its own), and where both are willing we take its values
 *   (ADOPTED) without the MAC tie break; otherwise as above. */
void dcbx_negotiate(const struct dcbx_tlvs *local, const uint8_t local_mac[6],
                    const struct dcbx_tlvs *peer, const uint8_t peer_mac[6],
                    struct dcbx_oper *out);
/* What a port sends: its configuration LOCAL, except that a feature it
 * took from the peer (OPER says ADOPTED) is advertised as it runs it,
 * as lldpad does: the PFC enable bitmap, and the ETS Configuration's
 * tables. The willing, MBC, CBS and capability fields, the ETS
 * Recommendation and the APP entries stay LOCAL's. OPER may be NULL
 * (nothing negotiated yet): then OUT is LOCAL. Negotiation itself always
 * starts from LOCAL, so what is advertised never feeds back into it. */
void dcbx_advertise(const struct dcbx_tlvs *local, const struct dcbx_oper *oper,
                    struct dcbx_tlvs *out);
/* Bit n set: priority n. How many priorities MASK enables. */
unsigned dcbx_prio_count(uint8_t mask);
/* "agreed", "adopted", "no peer", "no TLV", "peer willing", "mismatch",
 * "peer speaks CEE", "peer cannot take ours", "multiple peers" for show
 * and the log ("?" for others). */
const char *dcbx_why_name(enum dcbx_why why);
/* "strict", "cbs", "ets", "vendor"; "reserved" for the others. */
const char *dcbx_tsa_name(uint8_t tsa);
/* "ethertype", "tcp", "udp", "port", "dscp" ("?" outside 1..5);
 * dcbx_app_sel_parse is its inverse (-1 if unknown). */
const char *dcbx_app_sel_name(uint8_t selector);
int dcbx_app_sel_parse(const char *name);

#endif
