/* conf: the libconfig file <-> policy.
 *
 * conf_load() parses FILE (or a string) into a policy and validates it;
 * every problem is reported in one pass as FILE:LINE: message. The schema
 * follows the NX-OS constructs one-to-one; roced.conf(5) documents it.
 *
 * Thresholds are sizes in the units of model/units.h ("150 kbytes") or
 * plain integers of bytes.
 */
#ifndef ROCED_CONF_H
#define ROCED_CONF_H

#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "model/policy.h"

#define CONF_DEFAULT_PATH "/etc/roced/roced.conf"

/* What a configuration may hold (roced.conf(5) LIMITS): a file past these
 * is refused before it is parsed, at once, with the line where it went
 * past. The largest real configuration (a 1,024-port switch) holds about
 * 15,000 settings and at most 30 in one group. */
#define CONF_MAX_BYTES      (16u << 20) /* 16 MiB */
#define CONF_MAX_KEYS       100000u     /* settings in the whole file */
#define CONF_MAX_GROUP_KEYS 256u        /* settings in one group */
#define CONF_MAX_DEPTH      64u         /* groups and lists nested */

/* The setting names of roced.conf(5), one table (conf_keys.c) that the
 * loader, its messages and the writer all use. A name is one entry however
 * many groups hold it: "network-qos" is a list of class-map and of
 * policy-map, and a setting of service-policy. */
enum conf_key {
	CONF_K_CLASS_MAP,
	CONF_K_POLICY_MAP,
	CONF_K_SYSTEM_QOS,
	CONF_K_INTERFACE,
	CONF_K_PRIORITY_FLOW_CONTROL,
	CONF_K_QOS,
	CONF_K_NETWORK_QOS,
	CONF_K_QUEUING,
	CONF_K_NAME,
	CONF_K_MATCH,
	CONF_K_COS,
	CONF_K_DSCP,
	CONF_K_QOS_GROUP,
	CONF_K_CLASS,
	CONF_K_SET_QOS_GROUP,
	CONF_K_BANDWIDTH_REMAINING_PERCENT,
	CONF_K_PRIORITY_LEVEL,
	CONF_K_RANDOM_DETECT,
	CONF_K_MINIMUM_THRESHOLD,
	CONF_K_MAXIMUM_THRESHOLD,
	CONF_K_DROP_PROBABILITY,
	CONF_K_WEIGHT,
	CONF_K_ECN,
	CONF_K_PAUSE_PFC_COS,
	CONF_K_MTU,
	CONF_K_SERVICE_POLICY,
	CONF_K_QOS_INPUT,
	CONF_K_QUEUING_OUTPUT,
	CONF_K_ALIAS,
	CONF_K_MODE,
	CONF_K_WATCH_DOG_INTERVAL,
	CONF_K_QDISC_TAKEOVER,
	CONF_K_WATCH_DOG,
	CONF_K_INTERVAL,
	CONF_K_SHUTDOWN_MULTIPLIER,
	CONF_K_INTERNAL_INTERFACE_MULTIPLIER,
	CONF_K_AUTO_RESTORE_MULTIPLIER,
	CONF_K_FIXED_RESTORE_MULTIPLIER,
	/* Nexus 9000 additions (conf_nexus.c) */
	CONF_K_PAUSE_NO_DROP,
	CONF_K_PAUSE_BUFFER,
	CONF_K_BUFFER_SIZE,
	CONF_K_PAUSE_THRESHOLD,
	CONF_K_RESUME_THRESHOLD,
	CONF_K_QUEUING_INPUT,
	CONF_K_SEND_TLV,
	CONF_K_SHUTDOWN,
	CONF_K_DESCRIPTION,
	CONF_K_HARDWARE_QOS_PFC_MC_DROP,
	CONF_K_BANDWIDTH_PERCENT,
	CONF_K_PRECEDENCE,
	CONF_K_SET_DSCP,
	CONF_K_SET_COS,
	CONF_K_QUEUE_LIMIT,
	CONF_K_QUEUE_LIMIT_DYNAMIC,
	CONF_K_RANDOM_DETECT_THRESHOLD,
	CONF_K_PROFILE,
	CONF_K_SHAPE,
	CONF_K_MIN,
	CONF_K_MAX_RATE,
	/* PFC watchdog action, fabric-internal ports, link pause */
	CONF_K_ACTION,
	CONF_K_FABRIC_INTERNAL,
	CONF_K_FLOWCONTROL,
	CONF_K_SEND, /* flowcontrol's receive is CONF_K_RECEIVE (LLDP's) */
	/* LLDP and DCBX */
	CONF_K_LLDP,
	CONF_K_FEATURE,
	CONF_K_TIMER,
	CONF_K_HOLDTIME,
	CONF_K_REINIT,
	CONF_K_TLV_SELECT,
	CONF_K_DCBXP,
	CONF_K_EGRESS_QUEUING,
	CONF_K_TRANSMIT,
	CONF_K_RECEIVE,
	CONF_K_DCBX_WILLING,
	CONF_K_DCBX_AGENT,
	/* Prometheus metrics (its interval is CONF_K_INTERVAL) */
	CONF_K_METRICS,
	CONF_K_TEXTFILE,
	/* the one-command RoCE mode */
	CONF_K_ROCE,
	CONF_K_PAUSE_RECEIVE_ONLY,
	/* port-channels and their members */
	CONF_K_CHANNEL_GROUP,
	CONF_K_NUMBER,
	CONF_K_PORT_CHANNEL,
	CONF_K_LINES,
	CONF_K_MAX,
};

/* "class-map", "minimum-threshold", ... ("?" for anything else);
 * conf_key_parse is its inverse (-1 if unknown). */
const char *conf_key_name(enum conf_key k);
int conf_key_parse(const char *name);

/* Parse and validate. On success returns 0 and fills OUT (initialised here).
 * On failure returns -1 with every error in D (initialised by the caller
 * with the file name) and OUT empty. Warnings are added to D either way. */
int conf_load_file(const char *path, struct policy *out, struct diag *d);
int conf_load_string(const char *text, struct policy *out, struct diag *d);

/* Write P in the libconfig schema that conf_load reads back to an equal
 * policy. Returns a malloc'd string, or NULL on ENOMEM. */
char *conf_write_string(const struct policy *p);

#endif
