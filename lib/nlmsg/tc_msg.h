/* tc_msg: rtnetlink tc messages <-> plan objects. Pure: no sockets.
 *
 * Encoders write one complete request (nlmsghdr + tcmsg + attributes) for
 * one plan object into a caller's buffer, byte for byte what iproute2's
 * `tc` (6.1) sends for the equivalent command line, so that the kernel ends
 * up holding exactly what `roced --dry-run`'s tc lines would give it. The
 * command line each encoder mirrors is given below; the unit tests compare
 * against captures of those commands (tests/fixtures/tc/).
 *
 * Decoders turn the kernel's RTM_NEW* / RTM_DEL* messages (dump replies and
 * notifications) back into plan objects. Every field the kernel holds comes
 * back as it was encoded; fields that only roced knows (plan_qdisc.u.*.
 * band_queue, plan_red's tc inputs avpkt/burst/bandwidth/probability,
 * plan_filter's qos_group and class_name) are left zero / -1. Use the
 * tc_msg_*_same() helpers to compare a planned object with a decoded one.
 *
 * Every function returns 0 or a negative errno: -EMSGSIZE when the buffer
 * is too small, -EINVAL for a plan object the kernel cannot hold (or a
 * malformed message), -ENOMSG for a message of another type.
 */
#ifndef ROCED_TC_MSG_H
#define ROCED_TC_MSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/plan.h"

/* Enough for any request encoded here; the largest, an HTB class with its
 * two 1 KB rate tables, is about 2.2 KB. */
#define TC_MSG_BUF_SIZE 4096
/* TCA_KIND holds at most IFNAMSIZ bytes with the NUL. */
#define TC_MSG_KIND_MAX 16

/* What tc's HTB class code assumes when it builds the rate tables: an
 * Ethernet link whose packets are at most 1600 bytes. */
#define TC_MSG_HTB_MTU 1600u

/* HTB qdiscs have no change operation in the kernel (EINVAL): a new defcls
 * or r2q needs a new root. */
enum tc_msg_op {
	TC_MSG_ADD,     /* `tc ... add`: NLM_F_CREATE|NLM_F_EXCL */
	TC_MSG_REPLACE, /* `tc ... replace`: qdisc NLM_F_CREATE|NLM_F_REPLACE,
	                   class and filter NLM_F_CREATE */
	TC_MSG_CHANGE,  /* `tc ... change`: no create flags */
	TC_MSG_DEL,     /* `tc ... del` */
};

enum tc_msg_obj {
	TC_MSG_QDISC,
	TC_MSG_CLASS,
	TC_MSG_FILTER,
};

/* Requests always carry NLM_F_REQUEST|NLM_F_ACK (tc waits for the ack
 * too); the port id is 0 and left for the kernel to fill. */

/* A qdisc of any plan kind, as
 *   tc qdisc add dev D parent P handle H: htb default DEFCLS r2q R2Q
 *   ... ets bands N strict S quanta Q.. priomap P0..P15
 *   ... prio bands N priomap P0..P15
 *   ... red limit L min MIN max MAX avpkt A burst B bandwidth BW
 *           probability P [ecn] [harddrop]
 *   ... bfifo limit L / pfifo limit L
 *   tc qdisc add dev D clsact
 * HTB r2q 0 is sent as tc's default 10. RED takes Wlog, Plog, Scell_log
 * and max_P from the plan and builds the idle-damping table from wlog,
 * avpkt and bandwidth the way tc does. Delete sends only handle and
 * parent. */
int tc_msg_qdisc(void *buf, size_t size, enum tc_msg_op op, int ifindex,
                 uint32_t seq, const struct plan_qdisc *q);

/* An HTB class, as
 *   tc class add dev D parent P classid C htb rate R ceil C prio P
 *           [quantum Q]
 * with rates in bytes/s (TCA_HTB_RATE64/CEIL64 from 2^32 B/s on), buffer
 * and cbuffer as tc derives them (rate / HZ + TC_MSG_HTB_MTU, in ticks of
 * the psched clock), and tc's 1 KB rate tables. ceil 0 means ceil = rate;
 * quantum 0 leaves it to the kernel (rate / r2q, clamped to 1000..200000).
 * Delete sends only classid and parent. */
int tc_msg_class(void *buf, size_t size, enum tc_msg_op op, int ifindex,
                 uint32_t seq, const struct plan_class *c);

/* An HTB class's two rate tables (1 KB each, 256 divisions to compute)
 * depend on nothing but the rate, and a policy has few rates: a caller
 * that encodes many classes keeps the tables it computed here and hands
 * them to tc_msg_class_cached(). Zero it before first use; it never goes
 * stale. */
#define TC_MSG_RTAB_CACHE 8
struct tc_msg_rtab_cache {
	struct tc_msg_rtab_entry {
		uint32_t rate; /* tc_ratespec.rate: bytes/s, saturated */
		bool used;
		uint32_t rtab[256];
	} e[TC_MSG_RTAB_CACHE];
	unsigned next; /* the entry replaced next when all are used */
};

/* tc_msg_class() with the rate tables from (and into) CACHE; the bytes are
 * the same. */
int tc_msg_class_cached(void *buf, size_t size, enum tc_msg_op op, int ifindex,
                        uint32_t seq, const struct plan_class *c,
                        struct tc_msg_rtab_cache *cache);

/* A classification rule, as
 *   tc filter add dev D parent P protocol PROTO prio PRIO u32
 *           match ip dsfield V M | match ip6 priority V M | match u32 0 0
 *           { classid C | action skbedit priority N }
 *   tc filter add dev D parent P protocol PROTO prio PRIO flower
 *           [vlan_prio PCP] [vlan_ethtype T] [ip_tos V/M]
 *           { classid C | action skbedit priority N }
 *   tc filter add dev D parent P protocol all prio PRIO bpf
 *           bytecode 'N,CODE JT JF K,...' classid C
 * (PROTO all, ETH_P_ALL, takes no key: match u32 0 0, or flower bare;
 * a bpf rule is always protocol all, its program does the matching)
 * (V and M are the DSCP value and mask shifted into the DS field; u32
 * takes neither PCP nor 802.1Q). Delete sends parent, prio and protocol,
 * which removes every filter of that prio. Requests carry no filter handle,
 * so replace/change of an existing rule adds a second rule to the prio:
 * to change a rule, delete its prio and add it again. */
int tc_msg_filter(void *buf, size_t size, enum tc_msg_op op, int ifindex,
                  uint32_t seq, const struct plan_filter *f);

/* An NLM_F_DUMP request for the qdiscs / classes / filters of IFINDEX.
 * PARENT selects the filter block (0 = the root qdisc's; a qdisc handle;
 * PLAN_H_CLSACT_INGRESS / _EGRESS) and is ignored for qdiscs and classes.
 * The kernel answers a qdisc dump with every device's qdiscs: filter the
 * replies on their ifindex. */
int tc_msg_dump(void *buf, size_t size, enum tc_msg_obj obj, int ifindex,
                uint32_t parent, uint32_t seq);

/* A decoded qdisc. HANDLE, PARENT and KIND are always set, whatever the
 * kind; Q is complete only when KNOWN. For clsact Q carries handle and
 * parent PLAN_H_CLSACT, as the plan does. Q.queue is the NX-OS queue of a
 * roced leaf (from its handle), else -1. */
struct tc_msg_qdisc {
	int ifindex;
	bool deleted; /* RTM_DELQDISC: a notification of removal */
	char kind[TC_MSG_KIND_MAX];
	uint32_t handle, parent; /* as the kernel reports them */
	bool known;              /* a plan kind, options decoded into Q */
	bool roced;              /* handle major is roced's root or a leaf */
	struct plan_qdisc q;
};

/* A decoded class; C is complete only for HTB classes (KNOWN). HTB reports
 * a class attached to the qdisc itself with parent root: C.parent names
 * the qdisc (major:0) instead, as tc and the plan do. */
struct tc_msg_class {
	int ifindex;
	bool deleted;
	char kind[TC_MSG_KIND_MAX];
	uint32_t leaf; /* tcm_info: handle of the class's leaf qdisc */
	uint32_t buffer, cbuffer; /* HTB, in psched ticks (informational) */
	bool known;
	bool roced; /* classid major is PLAN_ROOT_MAJOR */
	struct plan_class c;
};

/* A decoded filter. A dump holds, per prio, a header message without a
 * rule (handle 0) and, for u32, hash-table nodes: those have RULE false.
 * KNOWN means the rule has exactly a shape tc_msg_filter() writes, so F
 * describes it completely; a rule with anything else (other keys, other
 * actions) is !KNOWN and F holds what could be read. F.parent is the
 * kernel's tcm_parent: the block the dump asked for (clsact hooks keep
 * ffff:fff2 / ffff:fff3, as the plan names them). */
struct tc_msg_filter {
	int ifindex;
	bool deleted;
	char kind[TC_MSG_KIND_MAX];
	uint32_t handle; /* the kernel's filter handle (u32: 800::800) */
	uint32_t chain;
	bool rule;
	bool known;
	bool roced; /* prio within PLAN_FILTER_PRIO_BASE..MAX */
	struct plan_filter f;
	/* When the message does not decode: what was wrong with it. The
	 * header (IFINDEX, HANDLE, F.parent, F.prio, F.protocol, KIND) is
	 * kept when it could be read, to name the rule. */
	const char *why;
};

/* Decode one message of LEN bytes (LEN may exceed its nlmsg_len). Accept
 * RTM_NEW* and RTM_DEL* of the object type; -ENOMSG for any other type,
 * -EINVAL for a malformed message (never reads outside MSG..MSG+LEN). */
int tc_msg_qdisc_parse(const void *msg, size_t len, struct tc_msg_qdisc *out);
int tc_msg_class_parse(const void *msg, size_t len, struct tc_msg_class *out);
int tc_msg_filter_parse(const void *msg, size_t len, struct tc_msg_filter *out);

/* Does the kernel hold what WANT asks for, judging by HAVE (decoded)?
 * Only fields the kernel holds are compared; where the plan leaves a value
 * to the kernel (HTB quantum 0, r2q 0, RED max_p 0) any value matches.
 * Filter DSCP values are compared under their mask. */
bool tc_msg_qdisc_same(const struct plan_qdisc *want,
                       const struct plan_qdisc *have);
bool tc_msg_class_same(const struct plan_class *want,
                       const struct plan_class *have);
bool tc_msg_filter_same(const struct plan_filter *want,
                        const struct plan_filter *have);

/* roced's objects: qdisc handles with major PLAN_ROOT_MAJOR,
 * PLAN_LEAF_MAJOR(0..7) or PLAN_INNER_MAJOR(0..7), classids under
 * PLAN_ROOT_MAJOR, filter prios in
 * PLAN_FILTER_PRIO_BASE..PLAN_FILTER_PRIO_MAX. */
bool tc_msg_qdisc_is_roced(uint32_t handle);
bool tc_msg_class_is_roced(uint32_t classid);
bool tc_msg_filter_is_roced(uint16_t prio);

/* The NX-OS queue served by a roced leaf qdisc handle / HTB class, or -1. */
int tc_msg_leaf_queue(uint32_t handle);
/* The NX-OS queue of a qdisc roced put inside a leaf (PLAN_INNER_MAJOR),
 * or -1. Counters of the queue are the leaf's: the inner qdisc's
 * packets are counted by the leaf too. */
int tc_msg_inner_queue(uint32_t handle);
int tc_msg_class_queue(uint32_t classid);

#endif
