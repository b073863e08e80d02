/* lldp_tx: see lldp_tx.h.
 *
 * The standard's transmit state machine reduced to what decides when a
 * frame goes: a frame is due at NEXT_MS; while fast frames remain they
 * are LLDP_TX_FAST_MS apart, then the interval; each frame spends a
 * credit and credits come back one per second up to LLDP_TX_CREDIT_MAX,
 * so that bursts of "something changed" never exceed what 802.1AB allows.
 * A port that stopped starts again only after the reinit delay.
 */
#include "proto/lldp_tx.h"

#include <string.h>

/* Credits that came back since CREDIT_MS. */
static void lldp_tx_refill(struct lldp_tx *t, double now)
{
	while (t->credit < LLDP_TX_CREDIT_MAX &&
	       now >= t->credit_ms + LLDP_TX_CREDIT_MS) {
		t->credit++;
		t->credit_ms += LLDP_TX_CREDIT_MS;
	}
	if (t->credit >= LLDP_TX_CREDIT_MAX)
		t->credit_ms = now;
}

void lldp_tx_start(struct lldp_tx *t, const struct lldp_tx_cfg *cfg, double now)
{
	double at = now;

	if (t->enabled)
		return;
	if (t->ever_stopped && t->stopped_ms + cfg->reinit_ms > at)
		at = t->stopped_ms + cfg->reinit_ms;
	t->enabled = true;
	t->credit = LLDP_TX_CREDIT_MAX;
	t->credit_ms = at;
	t->fast = LLDP_TX_FAST_INIT;
	t->next_ms = at;
}

void lldp_tx_stop(struct lldp_tx *t, double now)
{
	if (!t->enabled)
		return;
	t->enabled = false;
	t->fast = 0;
	t->stopped_ms = now;
	t->ever_stopped = true;
}

void lldp_tx_fast(struct lldp_tx *t, double now)
{
	if (!t->enabled)
		return;
	t->fast = LLDP_TX_FAST_INIT;
	if (t->next_ms > now)
		t->next_ms = now;
}

bool lldp_tx_due(struct lldp_tx *t, const struct lldp_tx_cfg *cfg, double now)
{
	if (!t->enabled || now < t->next_ms)
		return false;
	lldp_tx_refill(t, now);
	if (!t->credit) {
		/* Out of credit: the frame waits for the next one. */
		t->next_ms = t->credit_ms + LLDP_TX_CREDIT_MS;
		return false;
	}
	if (t->credit == LLDP_TX_CREDIT_MAX)
		t->credit_ms = now;
	t->credit--;
	if (t->fast) {
		t->fast--;
		t->next_ms =
		    now + (t->fast ? LLDP_TX_FAST_MS : cfg->interval_ms);
	} else {
		t->next_ms = now + cfg->interval_ms;
	}
	return true;
}

bool lldp_tx_pull(struct lldp_tx *t, const struct lldp_tx_cfg *cfg, double now)
{
	if (!t->enabled || t->fast || t->next_ms <= now ||
	    t->next_ms - now >= cfg->interval_ms / 2)
		return false;
	t->next_ms = now;
	return true;
}

double lldp_tx_next(const struct lldp_tx *t)
{
	return t->enabled ? t->next_ms : -1;
}
