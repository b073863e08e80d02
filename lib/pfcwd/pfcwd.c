/* pfcwd: the PFC watchdog's state machine. See pfcwd.h. */
#include "pfcwd/pfcwd.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const pfcwd_state_names[PFCWD_NSTATES] = {
    [PFCWD_MONITORED] = "monitored",
    [PFCWD_WAIT_SHUTDOWN] = "wait-to-shutdown",
    [PFCWD_SHUTDOWN] = "shutdown",
    [PFCWD_RESTORED] = "restored",
};

const char *pfcwd_state_name(enum pfcwd_state s)
{
	return (unsigned)s < PFCWD_NSTATES ? pfcwd_state_names[s] : "?";
}

int pfcwd_state_parse(const char *s)
{
	for (unsigned i = 0; s && i < PFCWD_NSTATES; i++)
		if (!strcmp(s, pfcwd_state_names[i]))
			return (int)i;
	return -1;
}

void pfcwd_config_from_plan(const struct plan_wd *w, struct pfcwd_config *c)
{
	c->poll_ms = w->poll_ms;
	c->detect_ms = w->detect_ms;
	c->auto_restore_ms = w->auto_restore_ms;
	c->fixed_restore_ms = w->fixed_restore_ms;
	c->action = w->action;
}

void pfcwd_init(struct pfcwd_queue *q)
{
	memset(q, 0, sizeof(*q));
	q->state = PFCWD_MONITORED;
}

/* A restore wait of BASE ms after BACKOFF doublings, capped. */
static double pfcwd_wait(uint32_t base, unsigned backoff)
{
	double w = (double)base * (double)(1u << backoff);

	return w > PFCWD_WAIT_CAP_MS ? PFCWD_WAIT_CAP_MS : w;
}

/* Has SPAN ms reached TARGET? Only a rounding's worth of slack: a poll
 * that comes a little early (the one before it was late) does not count
 * a whole poll; the poller samples the queue again when it is due
 * (pfcwd_due), so "N polls" does not become N + 1 either. */
static bool pfcwd_reached(double span, double target)
{
	return span + PFCWD_SLACK_MS >= target;
}

/* The growth of a cumulative counter; a counter that went back (the port
 * was replaced, someone cleared it) starts again and grew by nothing. */
static uint64_t pfcwd_delta(uint64_t now, uint64_t before, bool *reset)
{
	if (now < before) {
		*reset = true;
		return 0;
	}
	return now - before;
}

double pfcwd_restore_due(const struct pfcwd_queue *q,
                         const struct pfcwd_config *c)
{
	double due = -1.0;

	if (q->state != PFCWD_SHUTDOWN)
		return -1.0;
	if (c->fixed_restore_ms)
		due = q->shut_ms + pfcwd_wait(c->fixed_restore_ms, q->backoff);
	if (c->auto_restore_ms) {
		/* Without a counter that counts while shut, silence proves
		 * nothing: the restore is a trial after the wait. */
		double from = q->prev.rx_live ? q->quiet_ms : q->shut_ms;
		double a = from + pfcwd_wait(c->auto_restore_ms, q->backoff);

		if (due < 0 || a < due)
			due = a;
	}
	return due;
}

double pfcwd_detect_ms(const struct pfcwd_queue *q,
                       const struct pfcwd_config *c, double from)
{
	bool released =
	    q->rel_ms > 0 && from - q->rel_ms <= PFCWD_TRANSIT_MEMORY_MS;
	double base = c->detect_ms,
	       floor = c->switch_peer &&
	                       (c->switch_port || released || c->peer_waits) &&
	                       base < PFCWD_TRANSIT_SWITCH_MS
	                   ? PFCWD_TRANSIT_SWITCH_MS
	                   : base,
	       cap = c->switch_peer ? PFCWD_TRANSIT_SWITCH_MAX_MS
	                            : PFCWD_TRANSIT_CAP_MS,
	       t;

	/* A switch's pause is back-pressure from its first hold on (the
	 * holds grow with each tier behind it, the first one too): at a
	 * switch's port at least PFCWD_TRANSIT_SWITCH_MS, and as long as
	 * its released holds ask, up to its own maximum. A host's port
	 * facing a switch gets the same once the switch has released it
	 * (an XON within the memory): the switch's hold of the host waits
	 * for every tier behind it, and a switch that lets its feeders go
	 * one at a time (txpoll) holds the last of them long after a
	 * first hold of tens of milliseconds; so does one that says it is
	 * held itself (its wait chains: the first hold of a host behind a
	 * congested fabric lasts as long as the tiers behind it take, 3-7
	 * s on leaf-spine at 10 Mb/s); a switch that never sent an XON and
	 * says nothing of a wait is caught at the host's own time. */
	if (!released)
		return floor;
	t = PFCWD_TRANSIT_FACTOR * q->rel_hold_ms;
	if (t > cap)
		t = cap;
	return t > floor ? t : floor;
}

double pfcwd_due(const struct pfcwd_queue *q, const struct pfcwd_config *c)
{
	if (q->state == PFCWD_SHUTDOWN)
		return pfcwd_restore_due(q, c);
	if (q->cond_polls)
		return q->cond_ms + pfcwd_detect_ms(q, c, q->cond_ms);
	return -1.0;
}

/* The peer let the queue go at NOW after holding it for HOLD ms: the
 * queue is in transit back-pressure, and the hold one a storm must
 * outlast (PFCWD_TRANSIT_*). */
static void pfcwd_released(struct pfcwd_queue *q, double hold, double now)
{
	if (q->rel_ms <= 0 || now - q->rel_ms > PFCWD_TRANSIT_MEMORY_MS)
		q->rel_hold_ms = 0;
	if (hold > q->rel_hold_ms)
		q->rel_hold_ms = hold;
	q->rel_ms = now;
}

/* How long a restored queue stays on probation: a storm within it doubles
 * the next wait. The longer of the restore waits, at least the detection
 * time. */
static double pfcwd_probation(const struct pfcwd_queue *q,
                              const struct pfcwd_config *c)
{
	double p = pfcwd_wait(c->auto_restore_ms, q->backoff);
	double f = pfcwd_wait(c->fixed_restore_ms, q->backoff);

	if (f > p)
		p = f;
	return p > c->detect_ms ? p : c->detect_ms;
}

/* When the last pause frame of S arrived: as the port dates it, else
 * NOW (the poll that saw it). */
static double pfcwd_pause_at(const struct pfcwd_sample *s, double now)
{
	return s->last_pause_ms > 0 && s->last_pause_ms <= now
	           ? s->last_pause_ms
	           : now;
}

static enum pfcwd_event pfcwd_storm(struct pfcwd_queue *q,
                                    const struct pfcwd_config *c,
                                    const struct pfcwd_sample *s, double now)
{
	/* Again, soon after an automatic restore: wait longer this time. */
	if (q->probe_pending)
		q->backoff += q->backoff < PFCWD_BACKOFF_MAX;
	q->probe_pending = false;
	q->state = PFCWD_SHUTDOWN;
	q->shut_ms = now;
	q->quiet_ms = pfcwd_pause_at(s, now); /* pause has just been seen */
	q->cond_polls = 0;
	q->storms++;
	q->last_storm_ms = now;
	/* What drop flushes: the packets the queue holds now. */
	q->storm_drained = c->action == POLICY_PFCWD_DROP ? s->backlog : 0;
	q->storm_dropped = 0;
	q->drained += q->storm_drained;
	return PFCWD_EV_STORM;
}

static enum pfcwd_event pfcwd_restore(struct pfcwd_queue *q, double now,
                                      bool probation)
{
	/* The shut leaf drops until the restore is applied: counted by the
	 * next sample of the class (pfcwd_tail). */
	q->tail = q->have_cdrops;
	q->state = PFCWD_RESTORED;
	q->restored_ms = now;
	q->restores++;
	q->last_restore_ms = now;
	q->cond_polls = 0;
	q->probe_pending = probation;
	q->probe = probation && !q->prev.rx_live;
	return PFCWD_EV_RESTORE;
}

/* The growth of the class drops since the last sample that had them
 * (0 when either lacks them), and S's as the new reference. */
static uint64_t pfcwd_cdrops(struct pfcwd_queue *q,
                             const struct pfcwd_sample *s)
{
	bool reset = false;
	uint64_t d = 0;

	if (s->has_class_drops && q->have_cdrops)
		d = pfcwd_delta(s->class_drops, q->cdrops, &reset);
	q->have_cdrops = s->has_class_drops;
	q->cdrops = s->class_drops;
	return d;
}

bool pfcwd_tail(struct pfcwd_queue *q, const struct pfcwd_sample *s)
{
	bool had = q->have_cdrops;
	uint64_t d;

	if (!q->tail)
		return true;
	if (!s->has_class_drops)
		return false;
	d = pfcwd_cdrops(q, s);
	if (had) {
		q->dropped += d;
		q->storm_dropped += d;
	}
	q->tail = false;
	return true;
}

enum pfcwd_event pfcwd_poll(struct pfcwd_queue *q, const struct pfcwd_config *c,
                            const struct pfcwd_sample *s, double now)
{
	bool reset = false, cond, cls;
	uint64_t d_pause, d_tx, d_drops, d_paused, d_cdrops, d_xon = 0;
	double span;

	if (!q->have_prev || now <= q->prev_ms) {
		/* The first sample (or one from no time at all) is where
		 * counting starts. */
		if (!q->have_prev) {
			q->prev = *s;
			q->prev_ms = now;
			q->have_prev = true;
		}
		return PFCWD_EV_NONE;
	}
	span = now - q->prev_ms;
	/* The class's count where both this sample and the last had it;
	 * a pending restore's tail first (the leaf's last drops). */
	cls = s->has_class_drops && q->have_cdrops;
	if (q->tail)
		pfcwd_tail(q, s);
	d_cdrops = pfcwd_cdrops(q, s);
	d_pause = pfcwd_delta(s->pause_rx, q->prev.pause_rx, &reset);
	d_tx = pfcwd_delta(s->tx_packets, q->prev.tx_packets, &reset);
	d_drops = pfcwd_delta(s->drops, q->prev.drops, &reset);
	d_paused = pfcwd_delta(s->paused_us, q->prev.paused_us, &reset);
	if (s->has_xon && q->prev.has_xon)
		d_xon = pfcwd_delta(s->xon_rx, q->prev.xon_rx, &reset);
	q->prev = *s;
	q->prev_ms = now;
	/* Stuck: pause came, packets wait, and none left. Where the time
	 * paused is counted and covers the poll, the peer never let go, and
	 * what left is a hold's leak (a software hold lets a frame out when
	 * its bucket refills), not progress: a queue its peer releases
	 * drains what it holds. Fewer packets sent than still wait is then
	 * stuck too; over a detection time of seconds (a host's) one leaked
	 * frame would otherwise hide a storm for good. */
	cond = !reset && d_pause > 0 && s->backlog > 0 &&
	       (d_tx == 0 || (s->has_duration && d_tx < s->backlog));
	if (cond && s->has_duration)
		cond = (double)d_paused >= PFCWD_PAUSED_RATIO * span * 1000.0;
	/* The peer sent XON: it let go, which a storm never does. */
	if (d_xon > 0)
		cond = false;
	/* Let go by an XON: a hold that ended, as long as the run of stuck
	 * polls before it, or the time paused in this poll. Only an XON
	 * says so: a queue that sends while pause arrives may be a hold
	 * just beginning, or a poll come late in a storm. */
	if (!reset && d_xon > 0 && q->state != PFCWD_SHUTDOWN)
		pfcwd_released(q,
		               q->cond_polls ? now - q->cond_ms
		                             : (double)d_paused / 1000.0,
		               now);

	switch (q->state) {
	case PFCWD_SHUTDOWN: {
		double due;

		q->dropped += cls ? d_cdrops : d_drops;
		q->storm_dropped += cls ? d_cdrops : d_drops;
		/* Pause still arriving: the storm goes on. Counted only
		 * where the counter counts while the queue is shut; from the
		 * last frame where the port dates it. */
		if (d_pause > 0 && s->rx_live) {
			double at = pfcwd_pause_at(s, now);

			if (at > q->quiet_ms)
				q->quiet_ms = at;
		}
		due = pfcwd_restore_due(q, c);
		if (due >= 0 && pfcwd_reached(now, due))
			return pfcwd_restore(q, now, true);
		return PFCWD_EV_NONE;
	}
	case PFCWD_RESTORED:
		if (!cond && q->probe_pending &&
		    !pfcwd_reached(now - q->restored_ms, pfcwd_probation(q, c)))
			return PFCWD_EV_NONE;
		if (!cond) {
			/* Probation over: a clean slate. */
			q->state = PFCWD_MONITORED;
			q->probe_pending = false;
			q->probe = false;
			q->backoff = 0;
			return PFCWD_EV_NONE;
		}
		break;
	case PFCWD_MONITORED:
	case PFCWD_WAIT_SHUTDOWN:
		if (!cond) {
			q->cond_polls = 0;
			if (q->state == PFCWD_WAIT_SHUTDOWN)
				q->state = q->probe_pending ? PFCWD_RESTORED
				                            : PFCWD_MONITORED;
			return PFCWD_EV_NONE;
		}
		break;
	}
	/* The condition held over this poll: the window began at the
	 * previous poll. */
	if (!q->cond_polls++)
		q->cond_ms = now - span;
	if (pfcwd_reached(now - q->cond_ms, pfcwd_detect_ms(q, c, q->cond_ms)))
		return pfcwd_storm(q, c, s, now);
	q->state = PFCWD_WAIT_SHUTDOWN;
	return PFCWD_EV_NONE;
}

enum pfcwd_event pfcwd_recover(struct pfcwd_queue *q, double now)
{
	if (q->state != PFCWD_SHUTDOWN)
		return PFCWD_EV_NONE;
	/* The operator vouches for the port: no probation, no backoff. */
	q->backoff = 0;
	pfcwd_restore(q, now, false);
	q->state = PFCWD_MONITORED;
	return PFCWD_EV_RESTORE;
}

void pfcwd_clear(struct pfcwd_queue *q)
{
	q->storms = q->restores = 0;
	q->drained = q->dropped = 0;
	q->last_storm_ms = q->last_restore_ms = 0;
}

bool pfcwd_mitigating(const struct pfcwd_queue *q, const struct pfcwd_config *c)
{
	return q->state == PFCWD_SHUTDOWN && c->action != POLICY_PFCWD_ALERT;
}

/* --- the state kept across restarts --- */

int pfcwd_format(const struct pfcwd_queue *q, char *buf, size_t len)
{
	return snprintf(
	    buf, len,
	    "state=%s shut=%.3f quiet=%.3f restored=%.3f "
	    "backoff=%u probation=%d storms=%" PRIu64 " restores=%" PRIu64
	    " drained=%" PRIu64 " dropped=%" PRIu64 " last-storm=%.3f "
	    "last-restore=%.3f storm-drained=%" PRIu64
	    " storm-dropped=%" PRIu64,
	    pfcwd_state_name(q->state), q->shut_ms, q->quiet_ms, q->restored_ms,
	    q->backoff, q->probe_pending ? 1 : 0, q->storms, q->restores,
	    q->drained, q->dropped, q->last_storm_ms, q->last_restore_ms,
	    q->storm_drained, q->storm_dropped);
}

static int pfcwd_parse_u64(const char *v, uint64_t *out)
{
	char *end;

	if (!*v || *v == '-')
		return -EINVAL;
	errno = 0;
	*out = strtoull(v, &end, 10);
	return errno || *end ? -EINVAL : 0;
}

/* A time of the file, no later than LOAD (a file from before a reboot
 * holds times of another clock). */
static int pfcwd_parse_ms(const char *v, double load, double *out)
{
	char *end;
	double d;

	if (!*v)
		return -EINVAL;
	errno = 0;
	d = strtod(v, &end);
	if (errno || *end || !isfinite(d) || d < 0)
		return -EINVAL;
	*out = d > load ? load : d;
	return 0;
}

int pfcwd_parse(struct pfcwd_queue *q, const char *line, double load_ms)
{
	struct pfcwd_queue n;
	char copy[512], *save = NULL, *tok;
	uint64_t u;
	int st = -1, r = 0;

	if (strlen(line) >= sizeof(copy))
		return -EINVAL;
	snprintf(copy, sizeof(copy), "%s", line);
	pfcwd_init(&n);
	for (tok = strtok_r(copy, " \t", &save); tok && !r;
	     tok = strtok_r(NULL, " \t", &save)) {
		char *v = strchr(tok, '=');

		if (!v)
			return -EINVAL;
		*v++ = '\0';
		if (!strcmp(tok, "state"))
			r = (st = pfcwd_state_parse(v)) < 0 ? -EINVAL : 0;
		else if (!strcmp(tok, "shut"))
			r = pfcwd_parse_ms(v, load_ms, &n.shut_ms);
		else if (!strcmp(tok, "quiet"))
			r = pfcwd_parse_ms(v, load_ms, &n.quiet_ms);
		else if (!strcmp(tok, "restored"))
			r = pfcwd_parse_ms(v, load_ms, &n.restored_ms);
		else if (!strcmp(tok, "last-storm"))
			r = pfcwd_parse_ms(v, load_ms, &n.last_storm_ms);
		else if (!strcmp(tok, "last-restore"))
			r = pfcwd_parse_ms(v, load_ms, &n.last_restore_ms);
		else if (!strcmp(tok, "backoff")) {
			r = pfcwd_parse_u64(v, &u);
			n.backoff = u > PFCWD_BACKOFF_MAX ? PFCWD_BACKOFF_MAX
			                                  : (unsigned)u;
		} else if (!strcmp(tok, "probation")) {
			r = pfcwd_parse_u64(v, &u);
			n.probe_pending = u != 0;
		} else if (!strcmp(tok, "storms"))
			r = pfcwd_parse_u64(v, &n.storms);
		else if (!strcmp(tok, "restores"))
			r = pfcwd_parse_u64(v, &n.restores);
		else if (!strcmp(tok, "drained"))
			r = pfcwd_parse_u64(v, &n.drained);
		else if (!strcmp(tok, "dropped"))
			r = pfcwd_parse_u64(v, &n.dropped);
		else if (!strcmp(tok, "storm-drained"))
			r = pfcwd_parse_u64(v, &n.storm_drained);
		else if (!strcmp(tok, "storm-dropped"))
			r = pfcwd_parse_u64(v, &n.storm_dropped);
		/* Unknown keys are a later roced's: skipped. */
	}
	if (r || st < 0)
		return -EINVAL;
	/* A storm goes on being a storm, but what pause arrived while roced
	 * was down is unknown: quiet time counts from now. A detection in
	 * progress starts again from the next poll. */
	n.state =
	    st == PFCWD_WAIT_SHUTDOWN ? PFCWD_MONITORED : (enum pfcwd_state)st;
	if (n.state == PFCWD_SHUTDOWN) {
		n.quiet_ms = load_ms;
		/* No sample yet: until one says otherwise, the counter is
		 * taken to count while shut (roced's own do). */
		n.prev.rx_live = true;
	}
	*q = n;
	return 0;
}
