/* hwcnt: the PFC counters of hardware DCB ports. See hwcnt.h. */
#include "agent/hwcnt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/dcb.h"
#include "model/plan.h"
#include "nlmsg/dcbnl_msg.h"

/* --- the real kernel --- */

/* The driver's statistics: the map read when there is none (or the
 * set changed under it), then one GSTATS. */
static void hwcnt_kernel_stats(struct hwcnt_kernel *k, struct hwcnt_port *p,
                               struct hwcnt_raw *raw)
{
	int rc = 0;

	for (int tries = 0; tries < 2; tries++) {
		if (!p->have_map) {
			rc = ethtool_prio_map_read(k->et, p->ifname, &p->map);
			/* No statistics at all, or none known: an empty map,
			 * read again only when PFC changes (mlx5 lists a
			 * priority's counters once PFC is on for it). */
			p->have_map = rc == 0 || rc == -EOPNOTSUPP;
			p->map_pfc_en = p->pfc_en;
			if (!p->have_map)
				return;
		}
		/* A set without known names is still read: it refreshes
		 * what mlx5 answers dcbnl from. */
		if (!p->map.count)
			return;
		rc = ethtool_prio_read(k->et, p->ifname, &p->map, &raw->prio);
		if (rc != -ESTALE)
			break;
		p->have_map = false;
	}
	raw->eth = rc == 0;
}

static int hwcnt_kernel_read(void *ctx, struct hwcnt_port *p,
                             struct hwcnt_raw *raw)
{
	struct hwcnt_kernel *k = ctx;
	struct dcbnl_msg_ieee *cur;
	struct plan_dcb have;
	int rc = -EOPNOTSUPP;

	memset(raw, 0, sizeof(*raw));
	if (k->et)
		hwcnt_kernel_stats(k, p, raw);
	cur = k->nl ? calloc(1, sizeof(*cur)) : NULL;
	if (cur) {
		rc =
		    dcb_observe(&dcb_ops_netlink, k->nl, p->ifname, cur, &have);
		if (rc == 0 && (cur->present & DCBNL_MSG_HAS_PFC)) {
			raw->dcb = true;
			raw->pfc_en = cur->pfc.pfc_en;
			for (unsigned q = 0; q < HWCNT_NPRIO; q++) {
				raw->requests[q] = cur->pfc.requests[q];
				raw->indications[q] = cur->pfc.indications[q];
			}
		} else if (rc == 0) {
			rc = -EOPNOTSUPP;
		}
		free(cur);
	}
	if (raw->dcb && p->have_map && raw->pfc_en != p->map_pfc_en)
		p->have_map = false; /* mapped again at the next read */
	if (raw->dcb || raw->eth)
		return 0;
	return rc < 0 ? rc : -EOPNOTSUPP;
}

const struct hwcnt_ops hwcnt_ops_kernel = {.read = hwcnt_kernel_read};

/* --- the ports --- */

void hwcnt_init(struct hwcnt *h, const struct hwcnt_ops *ops, void *ctx)
{
	memset(h, 0, sizeof(*h));
	h->ops = ops ? ops : &hwcnt_ops_kernel;
	h->ctx = ops ? ctx : &h->k;
}

void hwcnt_free(struct hwcnt *h)
{
	free(h->v);
	h->v = NULL;
	h->n = 0;
}

struct hwcnt_port *hwcnt_find(const struct hwcnt *h, const char *ifname)
{
	for (size_t i = 0; i < h->n; i++)
		if (!strcmp(h->v[i].ifname, ifname))
			return &h->v[i];
	return NULL;
}

static struct hwcnt_port *hwcnt_add(struct hwcnt *h, const char *ifname)
{
	struct hwcnt_port *nv, *p = hwcnt_find(h, ifname);

	if (p)
		return p;
	nv = realloc(h->v, (h->n + 1) * sizeof(*nv));
	if (!nv)
		return NULL;
	h->v = nv;
	p = &nv[h->n++];
	memset(p, 0, sizeof(*p));
	snprintf(p->ifname, sizeof(p->ifname), "%s", ifname);
	return p;
}

void hwcnt_sweep(struct hwcnt *h, bool (*keep)(void *arg, const char *ifname),
                 void *arg)
{
	for (size_t i = h->n; i-- > 0;)
		if (!keep(arg, h->v[i].ifname))
			h->v[i] = h->v[--h->n];
}

/* Fold one read into P (see hwcnt.h). */
static void hwcnt_merge(struct hwcnt_port *p, const struct hwcnt_raw *r)
{
	const struct ethtool_msg_prio *e = &r->prio;
	bool had = p->ok && p->dcb && r->dcb;
	uint8_t was_pfc = p->pfc_en, dur_now = 0, xon = 0;
	uint64_t was_rx[HWCNT_NPRIO];
	bool frames = r->dcb;

	memcpy(was_rx, p->rx, sizeof(was_rx));
	for (unsigned q = 0; q < HWCNT_NPRIO; q++) {
		uint8_t bit = (uint8_t)(1u << q);
		uint64_t rx = r->dcb ? r->indications[q] : 0;
		uint64_t tx = r->dcb ? r->requests[q] : 0;

		if (r->eth && (e->present[ETHTOOL_MSG_PRIO_RX] & bit)) {
			uint64_t v = e->v[ETHTOOL_MSG_PRIO_RX][q];

			rx = v > rx ? v : rx;
			frames = true;
		}
		if (r->eth && (e->present[ETHTOOL_MSG_PRIO_TX] & bit)) {
			uint64_t v = e->v[ETHTOOL_MSG_PRIO_TX][q];

			tx = v > tx ? v : tx;
			frames = true;
		}
		p->rx[q] = rx;
		p->tx[q] = tx;
		/* A duration that is not there keeps its last value, so
		 * that the watchdog's deltas never see it fall to 0. */
		if (r->eth && (e->present[ETHTOOL_MSG_PRIO_RX_US] & bit)) {
			p->rx_us[q] = e->v[ETHTOOL_MSG_PRIO_RX_US][q];
			dur_now |= bit;
		}
		if (r->eth && (e->present[ETHTOOL_MSG_PRIO_RX_XON] & bit) &&
		    (e->present[ETHTOOL_MSG_PRIO_TX_XON] & bit)) {
			p->rx_xon[q] = e->v[ETHTOOL_MSG_PRIO_RX_XON][q];
			p->tx_xon[q] = e->v[ETHTOOL_MSG_PRIO_TX_XON][q];
			xon |= bit;
		}
		/* Counting while PFC was off at both reads: live. */
		if (had && !(was_pfc & bit) && !(r->pfc_en & bit) &&
		    rx > was_rx[q])
			p->live |= bit;
	}
	p->have_prev = p->ok;
	p->prev_pfc_en = was_pfc;
	memcpy(p->prev_rx, was_rx, sizeof(was_rx));
	p->dur = p->ok ? (uint8_t)(dur_now & p->prev_dur) : 0;
	p->prev_dur = dur_now;
	p->xon = xon;
	p->driver = r->eth ? e->driver : NULL;
	p->dcb = r->dcb;
	if (r->dcb)
		p->pfc_en = r->pfc_en;
	p->ok = frames;
	p->err = frames ? 0 : -EOPNOTSUPP;
}

struct hwcnt_port *hwcnt_read(struct hwcnt *h, const char *ifname)
{
	struct hwcnt_port *p = hwcnt_add(h, ifname);
	struct hwcnt_raw raw;
	int rc;

	if (!p)
		return NULL;
	h->reads++;
	rc = h->ops->read(h->ctx, p, &raw);
	if (rc < 0) {
		/* Nothing to compare the next read with. */
		p->ok = false;
		p->dcb = false;
		p->err = rc;
		p->dur = p->prev_dur = 0;
		return p;
	}
	hwcnt_merge(p, &raw);
	return p;
}

void hwcnt_sample(const struct hwcnt_port *p, uint8_t prios,
                  struct pfcwd_sample *s)
{
	s->pause_rx = 0;
	s->paused_us = 0;
	for (unsigned q = 0; q < HWCNT_NPRIO; q++)
		if (prios & (1u << q)) {
			s->pause_rx += p->rx[q];
			s->paused_us += p->rx_us[q];
		}
	s->has_duration = prios && (p->dur & prios) == prios;
	s->rx_live = prios && (p->live & prios) == prios;
}
