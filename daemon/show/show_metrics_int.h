/* show_metrics_int: shared by the files of `show metrics`
 * (show_metrics.c, the table and the daemon's, ports', LLDP's families;
 * show_metrics_queue.c, the sample builders and the queues' and the
 * watchdog's families): what show_metrics.c uses of the second. */
#ifndef ROCED_SHOW_METRICS_INT_H
#define ROCED_SHOW_METRICS_INT_H

#include <stdint.h>

#include <json-c/json.h>

#include "show/show.h"

/* Add an integer sample V (or a double one, with SUFFIX: NULL, "_sum",
 * "_count") to SAMPLES, with the label pairs that follow (name, value,
 * ..., NULL). */
void sm_int(struct json_object *samples, int64_t v, ...);
void sm_dbl(struct json_object *samples, const char *suffix, double v, ...);
/* An integer sample of a histogram's series SUFFIX ("_bucket",
 * "_count"), labels as sm_int's. */
void sm_int_sfx(struct json_object *samples, const char *suffix, int64_t v,
                ...);

/* "0" to "7", the priority and queue labels. */
extern const char sm_digits[8][2];

/* The ports whose link is there: counters are theirs alone. */
#define SM_EACH_PORT(in, i)                                                    \
	for (size_t i = 0; i < (in)->nports; i++)                              \
		if ((in)->state[i].exists)

/* --- queues (show_metrics_queue.c) --- */

enum sm_queue_arg {
	SM_Q_PACKETS,
	SM_Q_BYTES,
	SM_Q_DROPS,
	SM_Q_ECN,
	SM_Q_BACKLOG_BYTES,
	SM_Q_BACKLOG_PACKETS,
	SM_Q_NO_DROP,
	SM_Q_WATERMARK,
	SM_Q_ABOVE_XOFF,
	SM_Q_HEADROOM,
};

void sm_queue(const struct show_input *in, unsigned arg,
              struct json_object *out);

/* --- the PFC watchdog (show_metrics_queue.c) --- */

enum sm_wd_arg {
	SM_WD_STORMS,
	SM_WD_RESTORES,
	SM_WD_DRAINED,
	SM_WD_DROPPED,
	SM_WD_STORM,
	SM_WD_STATE,
};

void sm_wd(const struct show_input *in, unsigned arg, struct json_object *out);

#endif
