/* show_metrics_queue: the sample builders of `show metrics` and its
 * queue and PFC watchdog families (show_metrics.c holds the table that
 * names them, and uses this file, never the other way round): per port
 * and queue (the qos-group), the kernel's counters carried over the
 * leaves' replacements, the backlog and its watermarks, the time above
 * software PFC's xoff, and the watchdog's storms and state. */
#include "show/show_metrics_int.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "show/show_int.h"

/* --- samples --- */

/* Add a sample of VALUE (an integer, or a double when DBL) to SAMPLES,
 * with SUFFIX (NULL, "_sum", "_count") and the label pairs that follow
 * (name, value, ..., NULL). */
static void sm_vadd(struct json_object *samples, const char *suffix,
                    struct json_object *value, va_list ap)
{
	struct json_object *s = json_object_new_object();
	struct json_object *l = json_object_new_object();
	const char *k;

	while ((k = va_arg(ap, const char *)) != NULL)
		show_add_str(l, k, va_arg(ap, const char *));
	json_object_object_add(s, "labels", l);
	json_object_object_add(s, "value", value);
	if (suffix)
		show_add_str(s, "suffix", suffix);
	json_object_array_add(samples, s);
}

void sm_int(struct json_object *samples, int64_t v, ...)
{
	va_list ap;

	va_start(ap, v);
	sm_vadd(samples, NULL, json_object_new_int64(v), ap);
	va_end(ap);
}

void sm_dbl(struct json_object *samples, const char *suffix, double v, ...)
{
	va_list ap;

	va_start(ap, v);
	sm_vadd(samples, suffix, json_object_new_double(v), ap);
	va_end(ap);
}

/* An integer sample of a histogram's series SUFFIX ("_bucket",
 * "_count"), labels as sm_int's. */
void sm_int_sfx(struct json_object *samples, const char *suffix, int64_t v, ...)
{
	va_list ap;

	va_start(ap, v);
	sm_vadd(samples, suffix, json_object_new_int64(v), ap);
	va_end(ap);
}

const char sm_digits[8][2] = {"0", "1", "2", "3", "4", "5", "6", "7"};
/* --- queues --- */

/* The queues of PP whose class pauses (pause pfc-cos): no-drop. */
static uint8_t sm_no_drop(const struct plan_port *pp)
{
	uint8_t m = 0;

	for (unsigned p = 0; p < 8; p++)
		if ((pp->dcb.pfc_admin & (1u << p)) &&
		    pp->dcb.prio_tc[p] < POLICY_NQUEUES)
			m |= (uint8_t)(1u << pp->dcb.prio_tc[p]);
	return m;
}

/* Queue Q's value of family ARG on port ST, false when there is none
 * (no such counter in the kernel's answer). */
static bool sm_queue_value(const struct show_port_state *st,
                           const struct plan_port *pp, unsigned q,
                           enum sm_queue_arg arg, int64_t *v)
{
	const struct tc_stats_counters *c = &st->queue[q];
	const struct tc_stats_counters *red = c->red             ? c
	                                      : st->inner_red[q] ? &st->inner[q]
	                                                         : NULL;

	/* The counters carried over the leaves' replacements, when
	 * there are: a restored queue's must not go down. */
	const struct qcarry_count *t = st->qtotal_ok[q] ? &st->qtotal[q] : NULL;

	switch (arg) {
	case SM_Q_PACKETS:
		*v = (int64_t)(t ? t->packets : c->packets);
		return c->basic;
	case SM_Q_BYTES:
		*v = (int64_t)(t ? t->bytes : c->bytes);
		return c->basic;
	case SM_Q_DROPS:
		*v = t ? (int64_t)t->drops : c->drops;
		return c->queue;
	case SM_Q_ECN:
		*v = t ? (int64_t)t->ecn : red ? red->red_marked : 0;
		return red != NULL;
	case SM_Q_BACKLOG_BYTES:
		*v = c->backlog;
		return c->queue;
	case SM_Q_BACKLOG_PACKETS:
		*v = c->qlen;
		return c->queue;
	case SM_Q_NO_DROP:
		*v = (sm_no_drop(pp) >> q) & 1;
		return true;
	case SM_Q_WATERMARK:
		break; /* sm_queue writes it, with its kind */
	case SM_Q_ABOVE_XOFF:
	case SM_Q_HEADROOM:
		break; /* sm_queue writes them (a double, xoff known) */
	}
	return false;
}

void sm_queue(const struct show_input *in, unsigned arg,
              struct json_object *out)
{
	SM_EACH_PORT(in, i)
	{
		const struct show_port_state *st = &in->state[i];

		if (!st->stats)
			continue;
		for (unsigned q = 0; q < POLICY_NQUEUES; q++) {
			int64_t v;

			/* only where software PFC has an xoff for the queue */
			if (arg == SM_Q_ABOVE_XOFF || arg == SM_Q_HEADROOM) {
				if (!st->queue_seen[q] || !st->qtotal_ok[q] ||
				    !st->qxoff[q])
					continue;
				if (arg == SM_Q_ABOVE_XOFF)
					sm_dbl(out, NULL,
					       st->qabove_ms[q] / 1000.0,
					       "port", in->plans[i]->ifname,
					       "queue", sm_digits[q], NULL);
				else
					sm_int(out, st->qheadroom[q], "port",
					       in->plans[i]->ifname, "queue",
					       sm_digits[q], NULL);
				continue;
			}
			/* since the last textfile write, and since the start */
			if (arg == SM_Q_WATERMARK) {
				if (!st->queue_seen[q] || !st->qtotal_ok[q])
					continue;
				sm_int(out, st->qpeak[q][QCARRY_PEAK_PERIODIC],
				       "port", in->plans[i]->ifname, "queue",
				       sm_digits[q], "kind", "periodic", NULL);
				sm_int(
				    out, st->qpeak[q][QCARRY_PEAK_PERSISTENT],
				    "port", in->plans[i]->ifname, "queue",
				    sm_digits[q], "kind", "persistent", NULL);
				continue;
			}

			if (st->queue_seen[q] &&
			    sm_queue_value(st, in->plans[i], q,
			                   (enum sm_queue_arg)arg, &v))
				sm_int(out, v, "port", in->plans[i]->ifname,
				       "queue", sm_digits[q], NULL);
		}
	}
}

/* --- the PFC watchdog --- */

void sm_wd(const struct show_input *in, unsigned arg, struct json_object *out)
{
	SM_EACH_PORT(in, i)
	{
		const struct show_port_state *st = &in->state[i];
		const char *port = in->plans[i]->ifname;

		if (!st->wd)
			continue;
		for (unsigned q = 0; q < 8; q++) {
			const struct pfcwd_queue *w = &st->wdq[q];
			const char *qs = sm_digits[q];
			uint64_t v = 0;

			if (!(st->wd_queues & (1u << q)))
				continue;
			switch ((enum sm_wd_arg)arg) {
			case SM_WD_STORMS:
				v = w->storms;
				break;
			case SM_WD_RESTORES:
				v = w->restores;
				break;
			case SM_WD_DRAINED:
				v = w->drained;
				break;
			case SM_WD_DROPPED:
				v = w->dropped;
				break;
			case SM_WD_STORM:
				v = w->state == PFCWD_SHUTDOWN;
				break;
			case SM_WD_STATE:
				for (int s = 0; s < PFCWD_NSTATES; s++)
					sm_int(out, (int)w->state == s, "port",
					       port, "queue", qs, "state",
					       pfcwd_state_name(
					           (enum pfcwd_state)s),
					       NULL);
				continue;
			}
			sm_int(out, (int64_t)v, "port", port, "queue", qs,
			       NULL);
		}
	}
}
