/* qstats: the one sampler of the queues' tc statistics that the PFC
 * watchdog (wdpoll), the transmit side of software PFC and link pause
 * (txpoll) and the shows share.
 *
 * Each of them used to run its own dump of every qdisc of the namespace
 * on its own clock. Now a read serves every agent that asks within
 * QSTATS_SHARE_MS of it (one loop tick, or two ticks that fall together),
 * and a reader asks only for what it needs:
 *
 *   qstats_leaves()    the leaf qdiscs' counters (packets sent, drops,
 *                      queued): one dump of every qdisc, as the kernel
 *                      filters a qdisc dump on nothing (Linux 6.18);
 *   qstats_backlogs()  the bytes queued of a few ports' queues: one class
 *                      dump per port, which the kernel does filter on the
 *                      port (an HTB leaf class reports its leaf's queue);
 *                      past QSTATS_CLASS_PORTS ports, the one qdisc dump
 *                      costs less and is taken instead;
 *   qstats_classes()   one port's queue classes (their drops), which the
 *                      watchdog reads near and during a storm (it used
 *                      to dump them itself);
 *   qstats_snapshot()  what a show reads: every port from one qdisc dump
 *                      (consistent across the ports it shows), a dump
 *                      younger than its bound serving, and the dump it
 *                      takes serving the agents in turn (a show used to
 *                      take its own dump of every qdisc).
 *
 * A GET of one qdisc or class is not used: the kernel answers it as a
 * notification to every tc listener besides the asker (roced's mirror
 * among them).
 *
 * Only roced's leaves (tc_msg_leaf_queue) and queue classes are decoded;
 * the rest of a dump is passed over on its handle.
 *
 * ROCED_QSTATS_REFERENCE set in the environment (benchmarks only): no
 * sharing and no class dumps, every read its own dump of every qdisc, as
 * roced did before the sampler; bench/txpoll compares the two in one run.
 */
#ifndef ROCED_QSTATS_H
#define ROCED_QSTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libmnl/libmnl.h>

#include "agent/qcarry.h"
#include "kernel/nlb.h"
#include "model/policy.h"
#include "nlmsg/tc_stats.h"

/* A read younger than this serves the next asker. */
#define QSTATS_SHARE_MS 1.0
/* A show takes the last qdisc dump when it is younger than this: its
 * counters are at most this old. */
#define QSTATS_SHOW_MS 10.0
/* Up to this many ports, backlogs come from class dumps per port; beyond,
 * from the one qdisc dump. A class dump of one port cost about a tenth of
 * the qdisc dump of 32 shipped ports (bench/txpoll). */
#define QSTATS_CLASS_PORTS 4

/* Send the dump request REQ and call CB for each answer (tests play the
 * kernel with it). Returns 0 or -errno. */
typedef int (*qstats_dump_fn)(void *arg, struct nlmsghdr *req, mnl_cb_t cb,
                              void *data);

enum qstats_src {
	QSTATS_NONE,
	QSTATS_LEAF,  /* the leaf qdisc's counters (qdisc dump) */
	QSTATS_CLASS, /* the queue's HTB class (class dump): backlog, qlen */
};

/* What the last qdisc dump said of a port, for the shows: the leaves
 * (their kind), the RED qdiscs inside a queue's leaf, roced's root. */
struct qstats_snap {
	bool root;
	uint8_t seen, inner_red; /* queues: a leaf, a RED inside */
	char kind[POLICY_NQUEUES][TC_MSG_KIND_MAX];
	struct tc_stats_counters leaf[POLICY_NQUEUES], inner[POLICY_NQUEUES];
};

struct qstats_port {
	int ifindex;
	uint8_t seen; /* queues in the last read of this port */
	enum qstats_src src;
	double at_ms; /* when the port was last read */
	struct tc_stats_counters st[POLICY_NQUEUES];
	double snap_ms; /* the qdisc dump SNAP is from */
	struct qstats_snap snap;
};

struct qstats {
	struct nlb *nl;
	qstats_dump_fn dump; /* NULL: nlb_dump() on NL */
	void *dump_arg;
	bool reference; /* ROCED_QSTATS_REFERENCE */
	/* Every port seen in a read, sorted by ifindex. */
	struct qstats_port *v;
	size_t n, cap;
	double full_ms; /* the last qdisc dump; < 0: none */
	int err;        /* its result */
	/* Qdisc dumps, class dumps, reads another's served (show metrics:
	 * roced_qdisc_dumps_total). */
	uint64_t dumps, class_dumps, shared;
	/* Each leaf read is offered to the counters that outlive a leaf
	 * (show's reads too). */
	struct qcarry carry;
};

void qstats_init(struct qstats *s);
void qstats_free(struct qstats *s);
/* Every watched leaf's counters as of NOW: one qdisc dump, unless one
 * younger than QSTATS_SHARE_MS serves. Returns 0 or -errno. */
int qstats_leaves(struct qstats *s, double now);
/* The backlogs of the N ports IFINDEX as of NOW (a port with ifindex 0
 * is skipped). Returns 0 or -errno (the first failure). */
int qstats_backlogs(struct qstats *s, const int *ifindex, size_t n, double now);
/* The queues' HTB classes of port IFINDEX as of NOW (their drops, which
 * a leaf replaced by the watchdog's shut does not keep): one class dump
 * of the port, unless a class read of it younger than QSTATS_SHARE_MS
 * serves. Returns 0 or -errno. qstats_get() then gives QSTATS_CLASS
 * counters for the port. */
int qstats_classes(struct qstats *s, int ifindex, double now);
/* Every port as one qdisc dump found it, for a show at NOW: the last
 * dump when it is at most MAX_AGE_MS old, else a new one (which serves
 * the agents' next reads). Returns 0 or -errno; qstats_snap() then
 * gives each port. */
int qstats_snapshot(struct qstats *s, double now, double max_age_ms);
/* Port IFINDEX in the last qdisc dump; NULL when it showed nothing of
 * roced's there (or failed). */
const struct qstats_snap *qstats_snap(const struct qstats *s, int ifindex);
/* Queue Q of port IFINDEX as the last read of the port found it, when
 * that read is not older than QSTATS_SHARE_MS before NOW; NULL when the
 * read did not show the queue (or is old). SRC, when not NULL, says
 * where the counters came from: only QSTATS_LEAF has packets and drops
 * of the leaf. */
const struct tc_stats_counters *qstats_get(const struct qstats *s, int ifindex,
                                           unsigned q, double now,
                                           enum qstats_src *src);

#endif
