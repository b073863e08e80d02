/* conf_keys: the setting names of roced.conf(5), one table for the loader
 * (conf.c, conf_value.c), its messages and the writer (conf_write.c).
 * See conf.h.
 */
#include "conf/conf.h"

#include <string.h>

static const char *const conf_keys[CONF_K_MAX] = {
    [CONF_K_CLASS_MAP] = "class-map",
    [CONF_K_POLICY_MAP] = "policy-map",
    [CONF_K_SYSTEM_QOS] = "system-qos",
    [CONF_K_INTERFACE] = "interface",
    [CONF_K_PRIORITY_FLOW_CONTROL] = "priority-flow-control",
    [CONF_K_QOS] = "qos",
    [CONF_K_NETWORK_QOS] = "network-qos",
    [CONF_K_QUEUING] = "queuing",
    [CONF_K_NAME] = "name",
    [CONF_K_MATCH] = "match",
    [CONF_K_COS] = "cos",
    [CONF_K_DSCP] = "dscp",
    [CONF_K_QOS_GROUP] = "qos-group",
    [CONF_K_CLASS] = "class",
    [CONF_K_SET_QOS_GROUP] = "set-qos-group",
    [CONF_K_BANDWIDTH_REMAINING_PERCENT] = "bandwidth-remaining-percent",
    [CONF_K_PRIORITY_LEVEL] = "priority-level",
    [CONF_K_RANDOM_DETECT] = "random-detect",
    [CONF_K_MINIMUM_THRESHOLD] = "minimum-threshold",
    [CONF_K_MAXIMUM_THRESHOLD] = "maximum-threshold",
    [CONF_K_DROP_PROBABILITY] = "drop-probability",
    [CONF_K_WEIGHT] = "weight",
    [CONF_K_ECN] = "ecn",
    [CONF_K_PAUSE_PFC_COS] = "pause-pfc-cos",
    [CONF_K_MTU] = "mtu",
    [CONF_K_SERVICE_POLICY] = "service-policy",
    [CONF_K_QOS_INPUT] = "qos-input",
    [CONF_K_QUEUING_OUTPUT] = "queuing-output",
    [CONF_K_ALIAS] = "alias",
    [CONF_K_MODE] = "mode",
    [CONF_K_WATCH_DOG_INTERVAL] = "watch-dog-interval",
    [CONF_K_QDISC_TAKEOVER] = "qdisc-takeover",
    [CONF_K_WATCH_DOG] = "watch-dog",
    [CONF_K_INTERVAL] = "interval",
    [CONF_K_SHUTDOWN_MULTIPLIER] = "shutdown-multiplier",
    [CONF_K_INTERNAL_INTERFACE_MULTIPLIER] = "internal-interface-multiplier",
    [CONF_K_AUTO_RESTORE_MULTIPLIER] = "auto-restore-multiplier",
    [CONF_K_FIXED_RESTORE_MULTIPLIER] = "fixed-restore-multiplier",
    [CONF_K_PAUSE_NO_DROP] = "pause-no-drop",
    [CONF_K_PAUSE_BUFFER] = "pause-buffer",
    [CONF_K_BUFFER_SIZE] = "buffer-size",
    [CONF_K_PAUSE_THRESHOLD] = "pause-threshold",
    [CONF_K_RESUME_THRESHOLD] = "resume-threshold",
    [CONF_K_QUEUING_INPUT] = "queuing-input",
    [CONF_K_SEND_TLV] = "send-tlv",
    [CONF_K_SHUTDOWN] = "shutdown",
    [CONF_K_DESCRIPTION] = "description",
    [CONF_K_HARDWARE_QOS_PFC_MC_DROP] = "hardware-qos-pfc-mc-drop",
    [CONF_K_BANDWIDTH_PERCENT] = "bandwidth-percent",
    [CONF_K_PRECEDENCE] = "precedence",
    [CONF_K_SET_DSCP] = "set-dscp",
    [CONF_K_SET_COS] = "set-cos",
    [CONF_K_QUEUE_LIMIT] = "queue-limit",
    [CONF_K_QUEUE_LIMIT_DYNAMIC] = "queue-limit-dynamic",
    [CONF_K_RANDOM_DETECT_THRESHOLD] = "random-detect-threshold",
    [CONF_K_PROFILE] = "profile",
    [CONF_K_SHAPE] = "shape",
    [CONF_K_MIN] = "min",
    [CONF_K_MAX_RATE] = "max",
    [CONF_K_ACTION] = "action",
    [CONF_K_FABRIC_INTERNAL] = "fabric-internal",
    [CONF_K_FLOWCONTROL] = "flowcontrol",
    [CONF_K_SEND] = "send",
    /* LLDP and DCBX */
    [CONF_K_LLDP] = "lldp",
    [CONF_K_FEATURE] = "feature",
    [CONF_K_TIMER] = "timer",
    [CONF_K_HOLDTIME] = "holdtime",
    [CONF_K_REINIT] = "reinit",
    [CONF_K_TLV_SELECT] = "tlv-select",
    [CONF_K_DCBXP] = "dcbxp",
    [CONF_K_EGRESS_QUEUING] = "egress-queuing",
    [CONF_K_TRANSMIT] = "transmit",
    [CONF_K_RECEIVE] = "receive",
    [CONF_K_DCBX_WILLING] = "dcbx-willing",
    [CONF_K_DCBX_AGENT] = "dcbx-agent",
    /* Prometheus metrics */
    [CONF_K_METRICS] = "metrics",
    [CONF_K_TEXTFILE] = "textfile",
    /* the one-command RoCE mode */
    [CONF_K_ROCE] = "roce",
    [CONF_K_PAUSE_RECEIVE_ONLY] = "pause-receive-only",
    /* port-channels and their members */
    [CONF_K_CHANNEL_GROUP] = "channel-group",
    [CONF_K_NUMBER] = "number",
    [CONF_K_PORT_CHANNEL] = "port-channel",
    [CONF_K_LINES] = "lines",
};

const char *conf_key_name(enum conf_key k)
{
	return (unsigned)k < CONF_K_MAX ? conf_keys[k] : "?";
}

int conf_key_parse(const char *name)
{
	for (int k = 0; name && k < CONF_K_MAX; k++)
		if (!strcmp(name, conf_keys[k]))
			return k;
	return -1;
}
