/* pfcwd_rig: the fixture of the PFC watchdog's unit tests (test_pfcwd,
 * test_pfcwd_transit): one queue of lib/pfcwd fed a sample per poll, so
 * each test says only what the counters do. Included by one test file
 * each (its functions are static), after cmocka.h. */
#ifndef ROCED_TEST_PFCWD_RIG_H
#define ROCED_TEST_PFCWD_RIG_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "model/policy.h"
#include "pfcwd/pfcwd.h"

/* A queue fed polls every 100 ms; a storm holds it: pause received,
 * backlog, nothing sent. */
struct rig {
	struct pfcwd_config c;
	struct pfcwd_queue q;
	struct pfcwd_sample s;
	double now;
};

/* SHUT, AUTOM, FIXED: the multipliers of the 100 ms poll (0 for SHUT is
 * one poll; 0 for a restore is none). */
static inline void rig_init(struct rig *r, uint32_t shut, uint32_t autom,
                            uint32_t fixed)
{
	/* As compile resolves them for a 100 ms poll (test_compile). */
	const struct plan_wd wd = {.poll_ms = 100,
	                           .detect_ms = shut ? 100 * shut : 100,
	                           .auto_restore_ms = 100 * autom,
	                           .fixed_restore_ms = 100 * fixed,
	                           .action = POLICY_PFCWD_DROP};

	memset(r, 0, sizeof(*r));
	pfcwd_config_from_plan(&wd, &r->c);
	pfcwd_init(&r->q);
	r->s.rx_live = true;
	r->now = 1000.0;
	assert_int_equal(pfcwd_poll(&r->q, &r->c, &r->s, r->now),
	                 PFCWD_EV_NONE);
}

/* One poll 100 ms later; STORM: pause grew, queue stuck; else traffic
 * flows with no pause. */
static inline enum pfcwd_event rig_poll(struct rig *r, bool storm)
{
	r->now += 100.0;
	if (storm) {
		r->s.pause_rx += 50;
		r->s.backlog = 40;
	} else {
		r->s.tx_packets += 1000;
		r->s.backlog = 3;
	}
	return pfcwd_poll(&r->q, &r->c, &r->s, r->now);
}

/* Polls until EV or N polls; returns the number of polls it took, or -1. */
static inline int rig_until(struct rig *r, bool storm, enum pfcwd_event ev,
                            int n)
{
	for (int i = 1; i <= n; i++)
		if (rig_poll(r, storm) == ev)
			return i;
	return -1;
}

#endif
