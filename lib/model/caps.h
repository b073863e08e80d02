/* caps: what a port and the running kernel can do. Input to compile().
 *
 * The daemon fills this by probing (issue: kernel backend); tests and
 * `roced --dry-run --caps full|host|hw` use the presets below.
 */
#ifndef ROCED_CAPS_H
#define ROCED_CAPS_H

#include <stdbool.h>
#include <stdint.h>

/* The kernel's qdisc kinds that roced knows by name: those it builds
 * (model/plan.h numbers its enum plan_qdisc_kind the same) and those it
 * only probes for. Their names, as the kernel's TCA_KIND spells them,
 * are one table in caps.c that the tc codecs, the plan text, the probe
 * and show all use. */
enum caps_qdisc {
	CAPS_QDISC_ETS,
	CAPS_QDISC_PRIO,
	CAPS_QDISC_HTB,
	CAPS_QDISC_RED,
	CAPS_QDISC_BFIFO,
	CAPS_QDISC_PFIFO,
	CAPS_QDISC_CLSACT,
	CAPS_QDISC_TBF, /* a plan's kind too: software PFC's held queue */
	CAPS_QDISC_MQPRIO,
	/* probed only: software PFC's kernel path keeps held packets in an
	 * fq (daemon/kernel/bpfhold_loop.h) */
	CAPS_QDISC_FQ,
	CAPS_QDISC_MAX,
};

/* "ets", "htb", ... ("?" for anything else); caps_qdisc_parse is its
 * inverse (-1 if unknown). */
const char *caps_qdisc_name(enum caps_qdisc k);
int caps_qdisc_parse(const char *kind);

/* The qdisc kinds of struct caps: one bit per enum caps_qdisc. */
#define CAPS_QD_ETS    (1u << CAPS_QDISC_ETS)
#define CAPS_QD_PRIO   (1u << CAPS_QDISC_PRIO)
#define CAPS_QD_HTB    (1u << CAPS_QDISC_HTB)
#define CAPS_QD_RED    (1u << CAPS_QDISC_RED)
#define CAPS_QD_BFIFO  (1u << CAPS_QDISC_BFIFO)
#define CAPS_QD_PFIFO  (1u << CAPS_QDISC_PFIFO)
#define CAPS_QD_CLSACT (1u << CAPS_QDISC_CLSACT)
#define CAPS_QD_MQPRIO (1u << CAPS_QDISC_MQPRIO)
#define CAPS_QD_TBF    (1u << CAPS_QDISC_TBF)
#define CAPS_QD_FQ     (1u << CAPS_QDISC_FQ)

/* The kernel's classifier kinds that roced knows by name, in the same
 * manner (model/plan.h's enum plan_filter_kind numbers its kinds so). */
enum caps_classifier {
	CAPS_CLASSIFIER_FLOWER,
	CAPS_CLASSIFIER_U32,
	CAPS_CLASSIFIER_BPF,
	CAPS_CLASSIFIER_MATCHALL,
	CAPS_CLASSIFIER_MAX,
};

const char *caps_classifier_name(enum caps_classifier k); /* "flower" ... */
int caps_classifier_parse(const char *kind);              /* -1 if unknown */

/* The classifiers of struct caps: one bit per enum caps_classifier, and
 * CAPS_CLS_U32_ACT (not a kind): u32 accepts actions (not only classid),
 * which this machine's kernel lacks. */
#define CAPS_CLS_FLOWER   (1u << CAPS_CLASSIFIER_FLOWER)
#define CAPS_CLS_U32      (1u << CAPS_CLASSIFIER_U32)
#define CAPS_CLS_BPF      (1u << CAPS_CLASSIFIER_BPF)
#define CAPS_CLS_MATCHALL (1u << CAPS_CLASSIFIER_MATCHALL)
#define CAPS_CLS_U32_ACT  (1u << CAPS_CLASSIFIER_MAX)

/* The kernel's tc action kinds that roced knows by name. */
enum caps_action {
	CAPS_ACTION_SKBEDIT,
	CAPS_ACTION_GACT,
	CAPS_ACTION_MIRRED,
	CAPS_ACTION_MAX,
};

const char *caps_action_name(enum caps_action k); /* "skbedit" ... */
int caps_action_parse(const char *kind);          /* -1 if unknown */

/* The actions of struct caps: one bit per enum caps_action. */
#define CAPS_ACT_SKBEDIT (1u << CAPS_ACTION_SKBEDIT)
#define CAPS_ACT_GACT    (1u << CAPS_ACTION_GACT)
#define CAPS_ACT_MIRRED  (1u << CAPS_ACTION_MIRRED)

struct caps {
	bool hw_dcb;         /* the driver implements dcbnl */
	uint64_t speed_mbps; /* link speed; 0 = unknown */
	/* The port is in no bridge and has no VLAN link above it (a routed
	 * port): every frame it receives is untagged, so a CoS match can
	 * never hold there. Probed; presets leave it false (unknown). */
	bool untagged;
	uint32_t qdiscs;
	uint32_t classifiers;
	uint32_t actions;
	/* This roced carries its BPF programs (built with libbpf and
	 * clang's BPF target): with fq, clsact and cls_bpf in the kernel,
	 * software PFC's receive side can run in the kernel. Set by the
	 * daemon, not by the presets (it is the build's, not the kernel's). */
	bool bpf_progs;
};

enum caps_preset {
	CAPS_PRESET_HOST, /* this machine's minimal kernel, software DCB */
	CAPS_PRESET_FULL, /* a full distro kernel, software DCB (veth/bridge) */
	CAPS_PRESET_HW,   /* a full kernel and a dcbnl port (mlx5, mlxsw) */
};

/* Fill C with a preset; speed is left unknown. */
void caps_preset(struct caps *c, enum caps_preset preset);
/* "host", "full", "hw" -> preset; -1 if unknown. */
int caps_preset_parse(const char *s);
const char *caps_preset_name(enum caps_preset preset);

#endif
