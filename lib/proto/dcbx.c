/* dcbx: negotiation of the 802.1Qaz features with one link peer, and the
 * name tables of the DCBX vocabularies (see dcbx.h).
 *
 * The 802.1Qaz state machines (clause 38 of 802.1Q-2014) reduced to
 * their outcome for one received LLDPDU:
 *   ETS is asymmetric: a willing port runs the peer's ETS Recommendation
 *     when one came, else its own configuration.
 *   PFC is symmetric: a willing port runs a non-willing peer's
 *     configuration; when both are willing, the one with the lower MAC
 *     address gives in. lldpad (lldp_8021qaz.c, pfc_sm) compares the
 *     port's own MAC with the LLDPDU's source MAC byte by byte and takes
 *     the peer's values unless its own is the greater; equal addresses
 *     (a port talking to itself) take the peer's too. We do the same so
 *     that a roced and an lldpad never both hold on to their own.
 *   APP is informational: the peer's entries are added under ours, and
 *     an entry of ours wins on the same selector and protocol.
 * A willing port that took the peer's PFC values advertises them
 * (dcbx_advertise; lldpad's bld_ieee8021qaz_pfc_tlv sends the remote's
 * bitmap once its PFC state machine is in RX_RECOMMEND, and its ETS
 * Configuration the recommendation it took), so the non-willing side
 * then sees the same values: AGREED. A willing peer that keeps
 * advertising something else (NIC firmware that never re-advertises) has
 * still promised, by its willing bit, to run ours: the non-willing side
 * counts that as agreement (PEER_WILLING, pfc_agreed) when the peer's PFC
 * capability can hold our priorities. */
#include "proto/dcbx.h"

#include <string.h>

/* ------------------------------------------------------------------ */
/* Name tables */

static const char *const dcbx_why_names[] = {
    [DCBX_WHY_AGREED] = "agreed",
    [DCBX_WHY_ADOPTED] = "adopted",
    [DCBX_WHY_NO_PEER] = "no peer",
    [DCBX_WHY_NO_TLV] = "no TLV",
    [DCBX_WHY_PEER_WILLING] = "peer willing",
    [DCBX_WHY_MISMATCH] = "mismatch",
    [DCBX_WHY_CEE] = "peer speaks CEE",
    [DCBX_WHY_PEER_CANNOT] = "peer cannot take ours",
    [DCBX_WHY_MULTI_PEERS] = "multiple peers",
};

const char *dcbx_why_name(enum dcbx_why why)
{
	if ((unsigned)why >= sizeof(dcbx_why_names) / sizeof(dcbx_why_names[0]))
		return "?";
	return dcbx_why_names[why];
}

const char *dcbx_tsa_name(uint8_t tsa)
{
	switch (tsa) {
	case DCBX_TSA_STRICT:
		return "strict";
	case DCBX_TSA_CBS:
		return "cbs";
	case DCBX_TSA_ETS:
		return "ets";
	case DCBX_TSA_VENDOR:
		return "vendor";
	default:
		return "reserved";
	}
}

static const char *const dcbx_app_sel_names[] = {
    [DCBX_APP_ETHERTYPE] = "ethertype",
    [DCBX_APP_TCP] = "tcp",
    [DCBX_APP_UDP] = "udp",
    [DCBX_APP_PORT] = "port",
    [DCBX_APP_DSCP] = "dscp",
};
#define DCBX_NSEL (sizeof(dcbx_app_sel_names) / sizeof(dcbx_app_sel_names[0]))

const char *dcbx_app_sel_name(uint8_t selector)
{
	if (selector >= DCBX_NSEL || !dcbx_app_sel_names[selector])
		return "?";
	return dcbx_app_sel_names[selector];
}

int dcbx_app_sel_parse(const char *name)
{
	for (size_t i = 0; i < DCBX_NSEL; i++)
		if (dcbx_app_sel_names[i] && name &&
		    strcmp(dcbx_app_sel_names[i], name) == 0)
			return (int)i;
	return -1;
}

/* ------------------------------------------------------------------ */
/* Negotiation */

/* What ETS runs: the priority table, bandwidths and algorithms. The
 * willing, CBS and max-TCs bits describe the sender, not the schedule. */
static bool dcbx_ets_same(const struct dcbx_ets *a, const struct dcbx_ets *b)
{
	return memcmp(a->prio_tc, b->prio_tc, sizeof(a->prio_tc)) == 0 &&
	       memcmp(a->tc_bw, b->tc_bw, sizeof(a->tc_bw)) == 0 &&
	       memcmp(a->tsa, b->tsa, sizeof(a->tsa)) == 0;
}

static void dcbx_ets_take(struct dcbx_ets *dst, const struct dcbx_ets *src)
{
	memcpy(dst->prio_tc, src->prio_tc, sizeof(dst->prio_tc));
	memcpy(dst->tc_bw, src->tc_bw, sizeof(dst->tc_bw));
	memcpy(dst->tsa, src->tsa, sizeof(dst->tsa));
}

/* The reason when the peer sent nothing for a feature. */
static enum dcbx_why dcbx_absent(const struct dcbx_tlvs *peer)
{
	return peer->cee ? DCBX_WHY_CEE : DCBX_WHY_NO_TLV;
}

static void dcbx_neg_ets(const struct dcbx_tlvs *local,
                         const struct dcbx_tlvs *peer, struct dcbx_oper *out)
{
	const struct dcbx_ets *theirs;

	out->ets = local->ets_cfg;
	if (!peer) {
		out->ets_why = DCBX_WHY_NO_PEER;
		return;
	}
	if (local->ets_cfg.willing && peer->has_ets_rec) {
		dcbx_ets_take(&out->ets, &peer->ets_rec);
		out->ets_why = dcbx_ets_same(&local->ets_cfg, &peer->ets_rec)
		                   ? DCBX_WHY_AGREED
		                   : DCBX_WHY_ADOPTED;
		return;
	}
	if (!peer->has_ets_cfg && !peer->has_ets_rec) {
		out->ets_why = dcbx_absent(peer);
		return;
	}
	theirs = peer->has_ets_cfg ? &peer->ets_cfg : &peer->ets_rec;
	if (dcbx_ets_same(&local->ets_cfg, theirs))
		out->ets_why = DCBX_WHY_AGREED;
	else if (peer->has_ets_cfg && peer->ets_cfg.willing)
		out->ets_why =
		    peer->from_cee ? DCBX_WHY_CEE : DCBX_WHY_PEER_WILLING;
	else
		out->ets_why = DCBX_WHY_MISMATCH;
}

/* lldpad's order: the first differing byte decides; true when ours is
 * the lower or the same (then we take the peer's values). */
static bool dcbx_mac_yields(const uint8_t *ours, const uint8_t *theirs)
{
	static const uint8_t zero[6];

	return memcmp(ours ? ours : zero, theirs ? theirs : zero, 6) <= 0;
}

unsigned dcbx_prio_count(uint8_t mask)
{
	unsigned n = 0;

	for (; mask; mask &= (uint8_t)(mask - 1))
		n++;
	return n;
}

static void dcbx_neg_pfc(const struct dcbx_tlvs *local,
                         const uint8_t *local_mac, const struct dcbx_tlvs *peer,
                         const uint8_t *peer_mac, struct dcbx_oper *out)
{
	const struct dcbx_pfc *mine = &local->pfc;

	out->pfc = *mine;
	if (!peer)
		out->pfc_why = DCBX_WHY_NO_PEER;
	else if (!peer->has_pfc)
		out->pfc_why = dcbx_absent(peer);
	else if (peer->pfc.enable == mine->enable)
		out->pfc_why = DCBX_WHY_AGREED;
	else if (mine->willing && (!peer->pfc.willing || peer->from_cee ||
	                           dcbx_mac_yields(local_mac, peer_mac))) {
		/* Our willing bit, MBC and capability stay ours: they
		 * describe this port. */
		out->pfc.enable = peer->pfc.enable;
		out->pfc_why = DCBX_WHY_ADOPTED;
	} else if (peer->pfc.willing && peer->from_cee) {
		out->pfc_why = DCBX_WHY_CEE;
	} else if (peer->pfc.willing) {
		unsigned cap = peer->pfc.cap ? peer->pfc.cap : DCBX_NPRIO;

		out->pfc_why = dcbx_prio_count(mine->enable) <= cap
		                   ? DCBX_WHY_PEER_WILLING
		                   : DCBX_WHY_PEER_CANNOT;
	} else
		out->pfc_why = DCBX_WHY_MISMATCH;
	out->pfc_agreed = out->pfc_why == DCBX_WHY_AGREED ||
	                  out->pfc_why == DCBX_WHY_ADOPTED ||
	                  out->pfc_why == DCBX_WHY_PEER_WILLING;
}

static const struct dcbx_app *dcbx_app_find(const struct dcbx_apps *apps,
                                            size_t n, uint8_t selector,
                                            uint16_t protocol)
{
	for (size_t i = 0; i < n && i < DCBX_APP_MAX; i++)
		if (apps->v[i].selector == selector &&
		    apps->v[i].protocol == protocol)
			return &apps->v[i];
	return NULL;
}

static void dcbx_neg_app(const struct dcbx_tlvs *local,
                         const struct dcbx_tlvs *peer, struct dcbx_oper *out)
{
	size_t nlocal =
	    local->app.n < DCBX_APP_MAX ? local->app.n : DCBX_APP_MAX;
	/* APP has no willing bit of its own: the port's (roced sets the
	 * PFC and ETS ones from the same `lldp dcbx willing`). */
	bool willing = local->pfc.willing || local->ets_cfg.willing;
	unsigned conflicts = 0, added = 0;

	out->app = local->app;
	out->app.n = nlocal;
	if (!peer) {
		out->app_why = DCBX_WHY_NO_PEER;
		return;
	}
	if (!peer->has_app) {
		out->app_why = dcbx_absent(peer);
		return;
	}
	for (size_t i = 0; i < peer->app.n && i < DCBX_APP_MAX; i++) {
		const struct dcbx_app *p = &peer->app.v[i];
		const struct dcbx_app *m = dcbx_app_find(
		    &local->app, nlocal, p->selector, p->protocol);

		if (m) {
			if (m->prio != p->prio)
				conflicts++;
			continue;
		}
		/* A port that is not willing keeps its own table. */
		if (!willing)
			continue;
		/* The peer's own duplicates: its first entry stands. */
		if (dcbx_app_find(&out->app, out->app.n, p->selector,
		                  p->protocol))
			continue;
		if (out->app.n < DCBX_APP_MAX) {
			out->app.v[out->app.n++] = *p;
			added++;
		}
	}
	if (conflicts)
		out->app_why = DCBX_WHY_MISMATCH;
	else if (added)
		out->app_why = DCBX_WHY_ADOPTED;
	else
		out->app_why = DCBX_WHY_AGREED;
}

void dcbx_negotiate(const struct dcbx_tlvs *local, const uint8_t local_mac[6],
                    const struct dcbx_tlvs *peer, const uint8_t peer_mac[6],
                    struct dcbx_oper *out)
{
	memset(out, 0, sizeof(*out));
	dcbx_neg_ets(local, peer, out);
	dcbx_neg_pfc(local, local_mac, peer, peer_mac, out);
	dcbx_neg_app(local, peer, out);
}

void dcbx_advertise(const struct dcbx_tlvs *local, const struct dcbx_oper *oper,
                    struct dcbx_tlvs *out)
{
	*out = *local;
	if (!oper)
		return;
	if (oper->pfc_why == DCBX_WHY_ADOPTED)
		out->pfc.enable = oper->pfc.enable;
	if (oper->ets_why == DCBX_WHY_ADOPTED)
		dcbx_ets_take(&out->ets_cfg, &oper->ets);
}
