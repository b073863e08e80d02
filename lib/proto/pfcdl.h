/* pfcdl: PFC deadlock detection between roced nodes, pure: the wait
 * chains roced advertises to its LLDP neighbours in a TLV of its own, and
 * the rule that finds a cycle in them and names the one node that breaks
 * it.
 *
 * A node waits on a neighbour, for a no-drop priority, when its egress
 * port towards that neighbour is held by the neighbour's pause and the
 * queue there is what makes it pause its own feeders. On each feeder it
 * pauses it then advertises a chain: its own node ID followed by the
 * chain the neighbour it waits on advertised to it (cut where its own ID
 * comes back, and at PFCDL_HOPS_MAX). A node that finds its own ID in the
 * chain received on the port it is held on waits, through the others in
 * that chain, on itself: a cycle of pause, a PFC deadlock (Hu et al.,
 * HotNets 2016). Every node of the cycle sees it; the one with the lowest
 * ID acts, so exactly one does.
 *
 * The TLV: organisationally specific (type 127), OUI PFCDL_OUI, subtype
 * PFCDL_SUBTYPE; its information string after them:
 *   version (1 byte, PFCDL_VERSION), then chains, each
 *   priority (1 byte, 0..7), hop count (1 byte, 1..PFCDL_HOPS_MAX),
 *   and per hop an ID length (1 byte, 1..PFCDL_ID_MAX) and the ID.
 * A chain that is cut off, a priority above 7, a hop count or an ID
 * length out of bounds, more than PFCDL_CHAINS_MAX chains: malformed. A
 * later version is kept as no chains (nothing roced can read).
 */
#ifndef ROCED_PFCDL_H
#define ROCED_PFCDL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* roced's own TLV: 52-4F-43 ("ROC") has the locally administered bit
 * set, so it names no registered organisation; the one place it is
 * spelled. */
#define PFCDL_OUI                                                              \
	{                                                                      \
		0x52, 0x4f, 0x43                                               \
	}
#define PFCDL_SUBTYPE 1
#define PFCDL_VERSION 1

/* Bounds: the nodes of one chain (a cycle longer than this is not
 * seen), the bytes of a node ID (roced's are 6: a MAC), the chains of
 * one TLV (one per priority and held port that a feeder feeds). */
#define PFCDL_HOPS_MAX   8
#define PFCDL_ID_MAX     32
#define PFCDL_CHAINS_MAX 8

struct pfcdl_id {
	uint8_t len; /* 0: none */
	uint8_t v[PFCDL_ID_MAX];
};

/* HOP[0] waits on HOP[1], which waits on HOP[2], ... for PRIO. */
struct pfcdl_chain {
	uint8_t prio;
	uint8_t n;
	struct pfcdl_id hop[PFCDL_HOPS_MAX];
};

struct pfcdl_tlv {
	bool present;    /* the TLV was there (received), or is to be sent */
	uint8_t version; /* as received */
	uint8_t n;
	struct pfcdl_chain c[PFCDL_CHAINS_MAX];
};

/* Compare two IDs: shorter first, then bytewise (<0, 0, >0). */
int pfcdl_id_cmp(const struct pfcdl_id *a, const struct pfcdl_id *b);
/* ID as text (aa:bb:...), cut to LEN. */
void pfcdl_id_format(const struct pfcdl_id *id, char *buf, size_t len);

/* The chain SELF advertises for PRIO when it waits on a neighbour that
 * advertised IN (NULL: nothing, or nothing for PRIO): SELF, then IN's
 * hops up to SELF's own (a cycle is said once, not again and again) and
 * at most PFCDL_HOPS_MAX in all. */
void pfcdl_extend(const struct pfcdl_id *self, const struct pfcdl_chain *in,
                  uint8_t prio, struct pfcdl_chain *out);
/* Whether IN, received on a port SELF waits on, comes back to SELF: the
 * cycle's nodes are then IN->hop[0..*LEN-1] (SELF the last); *LEN set
 * only then. */
bool pfcdl_cycle(const struct pfcdl_id *self, const struct pfcdl_chain *in,
                 unsigned *len);
/* Of the cycle IN->hop[0..LEN-1], whether SELF is the node that breaks
 * it: the one with the lowest ID. */
bool pfcdl_breaker(const struct pfcdl_id *self, const struct pfcdl_chain *in,
                   unsigned len);
/* Add CH to T unless T holds the same chain already or is full. Returns
 * true when added. */
bool pfcdl_add(struct pfcdl_tlv *t, const struct pfcdl_chain *ch);
/* Whether A and B say the same (present, the same chains in order). */
bool pfcdl_eq(const struct pfcdl_tlv *a, const struct pfcdl_tlv *b);

#endif
