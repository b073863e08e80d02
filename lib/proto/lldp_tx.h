/* lldp_tx: the LLDP transmit and age-out timers of one port (IEEE
 * 802.1AB-2016 9.2.7: msgTxInterval, msgFastTx, txFastInit, txCreditMax,
 * reinitDelay) as a pure function of time, so that they are tested with
 * time as an input and the daemon's one loop only asks when the next
 * deadline is. Times are milliseconds on any monotonic clock.
 */
#ifndef ROCED_LLDP_TX_H
#define ROCED_LLDP_TX_H

#include <stdbool.h>

/* 802.1AB defaults: fast frames 1 s apart, 4 of them, at most 5 frames
 * in a burst (one credit back per second). */
#define LLDP_TX_FAST_MS    1000.0
#define LLDP_TX_FAST_INIT  4
#define LLDP_TX_CREDIT_MAX 5
#define LLDP_TX_CREDIT_MS  1000.0

struct lldp_tx_cfg {
	double interval_ms; /* lldp timer */
	double reinit_ms;   /* lldp reinit: a port that stopped waits this */
};

struct lldp_tx {
	bool enabled;
	double next_ms;    /* the next frame is due then */
	unsigned fast;     /* fast frames still to send */
	unsigned credit;   /* frames that may go at once */
	double credit_ms;  /* the last credit came back then */
	double stopped_ms; /* when the port last stopped (reinit delay) */
	bool ever_stopped;
};

/* Start sending at NOW (a port comes up, or starts being configured):
 * after the reinit delay when it stopped before, then a fast start. */
void lldp_tx_start(struct lldp_tx *t, const struct lldp_tx_cfg *cfg,
                   double now);
/* Stop at NOW (the caller sends the shutdown frame). */
void lldp_tx_stop(struct lldp_tx *t, double now);
/* Something worth telling the peer at once (a new neighbour, a change of
 * the local DCB configuration): a fast start from NOW. */
void lldp_tx_fast(struct lldp_tx *t, double now);
/* Whether a frame goes out at NOW; when it does, the timers move on (the
 * caller sends it). */
bool lldp_tx_due(struct lldp_tx *t, const struct lldp_tx_cfg *cfg, double now);
/* A regular frame (no fast ones left) due within half an interval
 * of NOW is brought forward to NOW, so that a port whose frame goes
 * takes along those of the other ports that are nearly due: the ports'
 * frames fall together, one wake of the daemon for all of them, instead
 * of one each (802.1AB counts every port's timer on one 1 s tick too).
 * A frame brought forward went at least half an interval after the
 * one before. Returns whether it was. */
bool lldp_tx_pull(struct lldp_tx *t, const struct lldp_tx_cfg *cfg, double now);
/* When lldp_tx_due() will next say yes (-1 when stopped). */
double lldp_tx_next(const struct lldp_tx *t);

/* A neighbour received at NOW with TTL seconds expires then (TTL 0: at
 * once, a shutdown frame). */
static inline double lldp_rx_expiry(double now, unsigned ttl)
{
	return now + (double)ttl * 1000.0;
}

#endif
