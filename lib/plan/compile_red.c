/* compile_red: RED leaf parameters, computed the way tc computes them.
 *
 * The plan must hold exactly what the kernel will hold, and the dry run
 * must print a `tc qdisc add ... red` line that makes the kernel hold it.
 * tc does not take Wlog, Plog and Scell_log directly: it derives them
 * from burst, probability, avpkt and bandwidth. So the maths below follows
 * tc's (iproute2 tc_red.c and tc_core.c) step for step, including where
 * tc truncates to integers, and the burst is chosen backwards from the
 * Wlog that the NX-OS weight asks for.
 */
#include "plan/compile_int.h"

#include <math.h>
#include <stdint.h>

/* tc's clock: with the high-resolution psched clock every kernel since
 * 2.6.2x reports in /proc/net/psched (t2us 1000, us2t 64, resolution
 * 1 us), tc counts 1000/64 = 15.625 ticks per microsecond. */
#define COMPILE_RED_TICKS_PER_US (1000.0 / 64.0)
#define COMPILE_RED_USEC_PER_SEC 1000000.0

/* Without a weight from the policy tc searches Wlog from 1 to 31. */
#define COMPILE_RED_WLOG_LIMIT 32

int compile_red_wlog(uint32_t qmin, uint32_t burst, uint32_t avpkt)
{
	double w = 0.5;
	double a;

	if (!avpkt)
		return -1;
	/* The EWMA must let a burst of BURST packets arriving at an empty
	 * queue stay below qmin: burst + 1 - qmin/avpkt <= (1-(1-W)^burst)/W,
	 * searched from the heaviest weight (Wlog 1) down. */
	a = (double)burst + 1 - (double)qmin / avpkt;
	if (a < 1.0)
		return -1;
	for (int wlog = 1; wlog < COMPILE_RED_WLOG_LIMIT; wlog++, w /= 2)
		if (a <= (1 - pow(1 - w, burst)) / w)
			return wlog;
	return -1;
}

int compile_red_plog(uint32_t qmin, uint32_t qmax, double prob)
{
	uint32_t span = qmax - qmin;

	/* tc keeps the span in an int. */
	if (qmax <= qmin || span > INT32_MAX)
		return -1;
	/* Plog = log2((qmax - qmin) / prob), the kernel's fallback when it
	 * gets no max_P: the smallest power of two that lifts the per-byte
	 * probability above 1. */
	prob /= span;
	for (int i = 0; i < 32; i++) {
		if (prob > 1.0)
			return i;
		prob *= 2;
	}
	return -1;
}

int compile_red_scell_log(int wlog, uint32_t avpkt, uint64_t bps)
{
	double usec, ticks, lw, maxtime;

	if (!bps || wlog < 0 || wlog >= COMPILE_RED_WLOG_LIMIT)
		return -1;
	/* tc_calc_xmittime(): the time of one avpkt in whole microseconds,
	 * then in whole ticks. Both truncations matter: from 1 GB/s up an
	 * avpkt of 1000 takes 0 us and the idle damping degenerates. */
	usec = COMPILE_RED_USEC_PER_SEC * ((double)avpkt / (double)bps);
	if (usec >= 4294967296.0)
		return -1;
	ticks = (double)(uint32_t)usec * COMPILE_RED_TICKS_PER_US;
	if (ticks >= 4294967296.0)
		return -1;
	ticks = (double)(uint32_t)ticks;
	/* Wlog 0 (average = current queue) forgets at once, and a zero
	 * transmit time makes the decay rate infinite: either way the whole
	 * idle table fits in the first cell. */
	if (wlog == 0 || ticks == 0)
		return 0;
	/* The idle table covers the time until the average has decayed by
	 * 2^-31, in 256 cells of 2^Scell_log ticks; tc picks the smallest
	 * cell size for which that time fits in 512 cells. */
	lw = -log(1.0 - 1.0 / (double)(1u << wlog)) / ticks;
	maxtime = 31 / lw;
	for (int clog = 0; clog < 32; clog++)
		if (maxtime / (double)(1u << clog) < 512)
			return clog;
	return -1;
}

uint32_t compile_red_burst(uint32_t qmin, uint32_t avpkt, int wlog)
{
	uint64_t lo, hi;

	if (!avpkt || wlog < 1 || wlog >= COMPILE_RED_WLOG_LIMIT)
		return 0;
	/* tc's Wlog never falls as burst grows: each extra packet adds 1 to
	 * the left side and less than 1 to the right side, so fewer weights
	 * pass. Bisect for the first burst whose Wlog reaches WLOG. The
	 * left side must be at least 1, and a burst of 0 would make tc pick
	 * its own, hence the lower bound. */
	lo = ((uint64_t)qmin + avpkt - 1) / avpkt;
	if (lo < 1)
		lo = 1;
	/* At Wlog w the right side stays below 2^w, so no burst beyond
	 * qmin/avpkt + 2^w can still yield w; when Wlog jumps over WLOG
	 * the final check says so. */
	hi = lo + (1ull << wlog) + 1;
	if (hi > UINT32_MAX)
		hi = UINT32_MAX;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		int got = compile_red_wlog(qmin, (uint32_t)mid, avpkt);

		if (got < 0 || got >= wlog)
			hi = mid;
		else
			lo = mid + 1;
	}
	return compile_red_wlog(qmin, (uint32_t)lo, avpkt) == wlog
	           ? (uint32_t)lo
	           : 0;
}

static uint32_t compile_red_clamp32(uint64_t v)
{
	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

void compile_red_fill(struct plan_red *r, const struct policy_wred *w,
                      unsigned q, uint64_t bps, struct diag *warn)
{
	int wlog = w->weight;
	int plog, scell;
	uint32_t burst;
	uint64_t limit;

	/* The policy's validation kept both thresholds below
	 * 2^(31 - weight): they fit, shifted by the weight, in 32 bits. */
	r->qth_min = (uint32_t)w->min_bytes;
	r->qth_max = (uint32_t)w->max_bytes;
	r->avpkt = COMPILE_RED_AVPKT;
	r->bandwidth = bps;
	r->ecn = w->ecn;
	r->harddrop = false;

	r->probability_ppm = (uint32_t)w->drop_probability * 10000u;
	/* max_P is a 32-bit fraction: 100 % would be 2^32, one past the top. */
	if (r->probability_ppm >= 1000000u)
		r->max_p = UINT32_MAX;
	else
		r->max_p =
		    (uint32_t)(((uint64_t)r->probability_ppm << 32) / 1000000u);
	if (!r->max_p) {
		/* A zero max_P makes the kernel derive it from Plog, and tc
		 * refuses probability 0 anyway: take the smallest non-zero
		 * fraction, which marks only above the maximum threshold. */
		r->max_p = 1;
		diag_warn(warn,
		          w->probability_line ? w->probability_line : w->line,
		          "%s: drop-probability 0 is realised as the smallest "
		          "RED probability (2^-32)",
		          policy_queue_name(q));
	}
	plog = compile_red_plog(r->qth_min, r->qth_max,
	                        (double)r->probability_ppm / 1000000.0);
	r->plog = plog < 0 ? 0 : (uint8_t)plog;

	r->wlog = (uint8_t)wlog;
	/* tc's burst search starts at Wlog 1; weight 0 goes to the kernel
	 * over netlink and the dry run prints the Wlog 1 burst with a note. */
	burst = compile_red_burst(r->qth_min, r->avpkt, wlog ? wlog : 1);
	r->burst = burst;
	r->wlog_cli_exact = wlog != 0 && burst != 0;

	scell = compile_red_scell_log(wlog, r->avpkt, bps);
	r->scell_log = scell < 0 ? 0 : (uint8_t)scell;

	/* The hard limit must exceed max + burst (sch_red); twice max plus
	 * the burst also leaves room for ECN-capable traffic, which RED
	 * marks rather than drops above max and which keeps queueing. */
	limit = 2 * (uint64_t)r->qth_max + (uint64_t)burst * r->avpkt;
	r->limit = compile_red_clamp32(limit);
}
