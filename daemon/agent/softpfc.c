/* softpfc: software PFC's receive side. See softpfc.h. */
#include "agent/softpfc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"

void softpfc_init(struct softpfc *s, softpfc_changed_fn changed, void *arg)
{
	memset(s, 0, sizeof(*s));
	s->changed = changed;
	s->arg = arg;
}

void softpfc_free(struct softpfc *s)
{
	free(s->v);
	softpfc_init(s, s->changed, s->arg);
}

struct softpfc_port *softpfc_port(struct softpfc *s, const char *ifname,
                                  bool create)
{
	struct softpfc_port *nv;

	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].ifname, ifname))
			return &s->v[i];
	if (!create)
		return NULL;
	nv = realloc(s->v, (s->n + 1) * sizeof(*nv));
	if (!nv)
		return NULL;
	s->v = nv;
	memset(&nv[s->n], 0, sizeof(nv[0]));
	snprintf(nv[s->n].ifname, sizeof(nv[0].ifname), "%s", ifname);
	return &nv[s->n++];
}

void softpfc_remove(struct softpfc *s, const char *ifname)
{
	struct softpfc_port *e = softpfc_port(s, ifname, false);

	if (!e)
		return;
	*e = s->v[--s->n];
}

/* Tell the daemon when E's held set is not what it was last told. */
static void softpfc_sync(struct softpfc *s, struct softpfc_port *e)
{
	uint8_t held = 0;

	for (unsigned p = 0; p < PFC_NPRIO; p++)
		if (e->until[p] > 0)
			held |= (uint8_t)(1u << p);
	if (held == e->held)
		return;
	e->held = held;
	if (s->changed)
		s->changed(s->arg, e->ifname, held);
}

static void softpfc_release(struct softpfc_port *e, unsigned p, double now)
{
	if (e->until[p] <= 0)
		return;
	e->c.held_ms[p] += now - e->since[p];
	e->last_held[p] = now - e->since[p];
	e->until[p] = 0;
}

static void softpfc_hold(struct softpfc_port *e, unsigned p, uint16_t quanta,
                         double now)
{
	double ms = (double)pfc_quanta_ns(quanta, e->speed_mbps) / 1e6;

	/* A refresh of a hold (the peer keeps pausing) is stickier than a
	 * lone pause: see SOFTPFC_REFRESH_MIN_MS. */
	if (ms <
	    (e->until[p] > 0 ? SOFTPFC_REFRESH_MIN_MS : SOFTPFC_HOLD_MIN_MS))
		ms = e->until[p] > 0 ? SOFTPFC_REFRESH_MIN_MS
		                     : SOFTPFC_HOLD_MIN_MS;

	/* A hold whose time ran out before this frame came ended then,
	 * though roced, busy, has not released it yet: this is a new one. */
	if (e->until[p] > 0 && e->until[p] < now)
		softpfc_release(e, p, e->until[p]);
	if (e->until[p] <= 0)
		e->since[p] = now;
	/* A pause replaces the time left (802.1Qbb: the new time counts
	 * from its reception), shorter or longer. */
	e->until[p] = now + ms;
}

int softpfc_configure(struct softpfc *s, const char *ifname, uint8_t honour,
                      bool link_pause_rx, uint32_t speed_mbps, double now)
{
	struct softpfc_port *e = softpfc_port(s, ifname, true);

	if (!e)
		return -ENOMEM;
	e->honour = honour;
	e->link_pause_rx = link_pause_rx;
	e->speed_mbps = speed_mbps;
	for (unsigned p = 0; p < PFC_NPRIO; p++)
		if (!(honour & (1u << p)) && !link_pause_rx)
			softpfc_release(e, p, now);
	softpfc_sync(s, e);
	return 0;
}

void softpfc_rx(void *arg, const char *ifname, const uint8_t *buf, size_t len,
                double now)
{
	struct softpfc *s = arg;
	struct softpfc_port *e = softpfc_port(s, ifname, false);
	struct pfc_frame f;
	char err[128];
	int rc;

	if (!e)
		return;
	rc = pfc_frame_decode(buf, len, &f, err, sizeof(err));
	if (rc == -EBADMSG) {
		e->c.rx_malformed++;
		log_debug(LOG_SUB_WATCHDOG,
		          "%s: malformed MAC Control frame: %s", ifname, err);
		return;
	}
	if (rc)
		return;
	if (f.kind == PFC_FRAME_PAUSE) {
		if (f.quanta[0])
			e->c.rx_link_pause++;
		else
			e->c.rx_link_xon++;
		if (!e->link_pause_rx)
			return;
		for (unsigned p = 0; p < PFC_NPRIO; p++) {
			if (f.quanta[0])
				softpfc_hold(e, p, f.quanta[0], now);
			else
				softpfc_release(e, p, now);
		}
		softpfc_sync(s, e);
		return;
	}
	e->c.rx_frames++;
	for (unsigned p = 0; p < PFC_NPRIO; p++) {
		if (pfc_frame_pauses(&f, p)) {
			/* Counted whether honoured or not: the watchdog's
			 * live counter. */
			e->c.rx_pause[p]++;
			e->c.last_pause_ms[p] = now;
			if (e->honour & (1u << p))
				softpfc_hold(e, p, f.quanta[p], now);
		} else if (pfc_frame_releases(&f, p)) {
			e->c.rx_xon[p]++;
			softpfc_release(e, p, now);
		}
	}
	softpfc_sync(s, e);
}

void softpfc_expire(struct softpfc *s, double now)
{
	for (size_t i = 0; i < s->n; i++) {
		struct softpfc_port *e = &s->v[i];

		for (unsigned p = 0; p < PFC_NPRIO; p++)
			if (e->until[p] > 0 && e->until[p] <= now)
				softpfc_release(e, p, e->until[p]);
		softpfc_sync(s, e);
	}
}

double softpfc_next(const struct softpfc *s)
{
	double next = -1;

	for (size_t i = 0; i < s->n; i++)
		for (unsigned p = 0; p < PFC_NPRIO; p++) {
			double u = s->v[i].until[p];

			if (u > 0 && (next < 0 || u < next))
				next = u;
		}
	return next;
}

void softpfc_kick_frame(const uint8_t mac[6], uint8_t buf[SOFTPFC_KICK_LEN])
{
	memset(buf, 0, SOFTPFC_KICK_LEN);
	memcpy(buf, mac, 6);
	memcpy(buf + 6, mac, 6);
	buf[12] = SOFTPFC_KICK_ETHERTYPE >> 8;
	buf[13] = SOFTPFC_KICK_ETHERTYPE & 0xff;
}

double softpfc_held_ms(const struct softpfc_port *e, unsigned p, double now)
{
	if (p >= PFC_NPRIO)
		return 0;
	double end = e->until[p] < now ? e->until[p] : now;

	return e->c.held_ms[p] + (e->until[p] > 0 ? end - e->since[p] : 0);
}
