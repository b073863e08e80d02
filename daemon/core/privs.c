/* privs: see privs.h. */
#include "core/privs.h"

#include <errno.h>
#include <linux/capability.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <cap-ng.h>

/* CAP_BPF: software PFC counts what each bridge port feeds a congested
 * queue with an eBPF map, so that only the contributors are paused. */
int privs_drop(char *note, size_t notelen, char *err, size_t errlen)
{
	static const struct {
		int cap;
		const char *name;
	} keep[] = {{CAP_NET_ADMIN, "CAP_NET_ADMIN"},
	            {CAP_NET_RAW, "CAP_NET_RAW"},
	            {CAP_BPF, "CAP_BPF"}};
	bool more = false, have[3], bounding;
	char kept[64] = "";
	size_t len = 0;

	capng_get_caps_process();
	for (unsigned c = 0; c <= CAP_LAST_CAP; c++)
		if (c != CAP_NET_ADMIN && c != CAP_NET_RAW && c != CAP_BPF &&
		    (capng_have_capability(CAPNG_PERMITTED, c) ||
		     capng_have_capability(CAPNG_EFFECTIVE, c)))
			more = true;
	/* Under the unit (or not root) there is nothing more to give up,
	 * and its system call filter may refuse capset(). */
	if (!more) {
		snprintf(note, notelen, "no capabilities to drop");
		return 0;
	}
	/* Of the three, those it was given: a container's manager may
	 * withhold CAP_BPF, and no set can gain what the process lacks. */
	for (size_t i = 0; i < 3; i++) {
		have[i] = capng_have_capability(CAPNG_PERMITTED, keep[i].cap);
		if (have[i])
			len += (size_t)snprintf(kept + len, sizeof(kept) - len,
			                        "%s%s", len ? ", " : "",
			                        keep[i].name);
	}
	/* Without CAP_SETPCAP (a unit's CapabilityBoundingSet= took it)
	 * the bounding set cannot shrink: it is the unit's already. */
	bounding = capng_have_capability(CAPNG_EFFECTIVE, CAP_SETPCAP);
	capng_clear(CAPNG_SELECT_BOTH);
	for (size_t i = 0; i < 3; i++)
		if (have[i] &&
		    capng_update(CAPNG_ADD,
		                 CAPNG_EFFECTIVE | CAPNG_PERMITTED |
		                     (bounding ? CAPNG_BOUNDING_SET : 0),
		                 (unsigned)keep[i].cap) < 0) {
			snprintf(err, errlen,
			         "cannot name the capabilities to keep");
			return -EINVAL;
		}
	if (capng_apply(bounding ? CAPNG_SELECT_BOTH : CAPNG_SELECT_CAPS) ==
	    0) {
		snprintf(note, notelen, "keeping only %s%s",
		         len ? kept : "no capability",
		         bounding ? ""
		                  : " (the bounding set is left as it was "
		                    "given)");
		return 0;
	}
	snprintf(err, errlen, "cannot drop capabilities: %s",
	         strerror(errno ? errno : EPERM));
	return -EPERM;
}

int privs_realtime(int prio, char *note, size_t notelen, char *err,
                   size_t errlen)
{
	struct sched_param sp = {.sched_priority = prio};
	int policy = sched_getscheduler(0);

	if (prio <= 0) {
		snprintf(note, notelen, "scheduling left as started");
		return 0;
	}
	if (policy >= 0 && ((policy & ~SCHED_RESET_ON_FORK) == SCHED_FIFO ||
	                    (policy & ~SCHED_RESET_ON_FORK) == SCHED_RR)) {
		struct sched_param cur;

		sched_getparam(0, &cur);
		snprintf(note, notelen,
		         "started at real-time priority %d (%s): kept",
		         cur.sched_priority,
		         (policy & ~SCHED_RESET_ON_FORK) == SCHED_FIFO
		             ? "SCHED_FIFO"
		             : "SCHED_RR");
		return 0;
	}
	if (sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp) < 0) {
		int e = errno;

		snprintf(err, errlen,
		         "cannot run at real-time priority %d: %s (software "
		         "PFC then waits for a CPU like any process; see "
		         "--realtime-priority in roced(8))",
		         prio, strerror(e));
		return -e;
	}
	snprintf(note, notelen, "running at real-time priority %d (SCHED_FIFO)",
	         prio);
	return 0;
}
