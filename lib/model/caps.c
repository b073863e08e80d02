/* caps: capability presets and the kernel kinds' names. See caps.h. */
#include "model/caps.h"

#include <string.h>

static const char *const caps_qdisc_names[CAPS_QDISC_MAX] = {
    [CAPS_QDISC_ETS] = "ets",       [CAPS_QDISC_PRIO] = "prio",
    [CAPS_QDISC_HTB] = "htb",       [CAPS_QDISC_RED] = "red",
    [CAPS_QDISC_BFIFO] = "bfifo",   [CAPS_QDISC_PFIFO] = "pfifo",
    [CAPS_QDISC_CLSACT] = "clsact", [CAPS_QDISC_MQPRIO] = "mqprio",
    [CAPS_QDISC_TBF] = "tbf",       [CAPS_QDISC_FQ] = "fq",
};

static const char *const caps_classifier_names[CAPS_CLASSIFIER_MAX] = {
    [CAPS_CLASSIFIER_FLOWER] = "flower",
    [CAPS_CLASSIFIER_U32] = "u32",
    [CAPS_CLASSIFIER_BPF] = "bpf",
    [CAPS_CLASSIFIER_MATCHALL] = "matchall",
};

static const char *const caps_action_names[CAPS_ACTION_MAX] = {
    [CAPS_ACTION_SKBEDIT] = "skbedit",
    [CAPS_ACTION_GACT] = "gact",
    [CAPS_ACTION_MIRRED] = "mirred",
};

static const char *const caps_preset_names[] = {
    [CAPS_PRESET_HOST] = "host",
    [CAPS_PRESET_FULL] = "full",
    [CAPS_PRESET_HW] = "hw",
};

void caps_preset(struct caps *c, enum caps_preset preset)
{
	memset(c, 0, sizeof(*c));
	switch (preset) {
	case CAPS_PRESET_HOST:
		/* What this project's development kernel offers: HTB and
		 * fifos, clsact, u32 that can only set a classid, cls_bpf and
		 * mirred; no red, ets, prio, flower, skbedit or gact. */
		c->qdiscs = CAPS_QD_HTB | CAPS_QD_TBF | CAPS_QD_BFIFO |
		            CAPS_QD_PFIFO | CAPS_QD_CLSACT;
		c->classifiers = CAPS_CLS_U32 | CAPS_CLS_BPF;
		c->actions = CAPS_ACT_MIRRED;
		break;
	case CAPS_PRESET_HW:
		c->hw_dcb = true;
		/* A DCB NIC runs on a full kernel. */
		__attribute__((fallthrough));
	case CAPS_PRESET_FULL:
		c->qdiscs = CAPS_QD_ETS | CAPS_QD_PRIO | CAPS_QD_HTB |
		            CAPS_QD_RED | CAPS_QD_BFIFO | CAPS_QD_PFIFO |
		            CAPS_QD_CLSACT | CAPS_QD_MQPRIO | CAPS_QD_TBF |
		            CAPS_QD_FQ;
		c->classifiers = CAPS_CLS_FLOWER | CAPS_CLS_U32 |
		                 CAPS_CLS_U32_ACT | CAPS_CLS_BPF |
		                 CAPS_CLS_MATCHALL;
		c->actions = CAPS_ACT_SKBEDIT | CAPS_ACT_GACT | CAPS_ACT_MIRRED;
		break;
	}
}

int caps_preset_parse(const char *s)
{
	for (unsigned i = 0;
	     i < sizeof(caps_preset_names) / sizeof(caps_preset_names[0]); i++)
		if (s && !strcmp(s, caps_preset_names[i]))
			return (int)i;
	return -1;
}

const char *caps_preset_name(enum caps_preset preset)
{
	if ((unsigned)preset <
	    sizeof(caps_preset_names) / sizeof(caps_preset_names[0]))
		return caps_preset_names[preset];
	return "?";
}

const char *caps_qdisc_name(enum caps_qdisc k)
{
	return (unsigned)k < CAPS_QDISC_MAX ? caps_qdisc_names[k] : "?";
}

int caps_qdisc_parse(const char *kind)
{
	for (int k = 0; kind && k < CAPS_QDISC_MAX; k++)
		if (!strcmp(kind, caps_qdisc_names[k]))
			return k;
	return -1;
}

const char *caps_classifier_name(enum caps_classifier k)
{
	return (unsigned)k < CAPS_CLASSIFIER_MAX ? caps_classifier_names[k]
	                                         : "?";
}

int caps_classifier_parse(const char *kind)
{
	for (int k = 0; kind && k < CAPS_CLASSIFIER_MAX; k++)
		if (!strcmp(kind, caps_classifier_names[k]))
			return k;
	return -1;
}

const char *caps_action_name(enum caps_action k)
{
	return (unsigned)k < CAPS_ACTION_MAX ? caps_action_names[k] : "?";
}

int caps_action_parse(const char *kind)
{
	for (int k = 0; kind && k < CAPS_ACTION_MAX; k++)
		if (!strcmp(kind, caps_action_names[k]))
			return k;
	return -1;
}
