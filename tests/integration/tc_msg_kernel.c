/* tc_msg_kernel: lib/nlmsg/tc_msg against a real kernel.
 *
 *   tc_msg_kernel apply DEV     build roced's HTB layout on DEV with
 *                               tc_msg requests, dump it back, compare
 *   tc_msg_kernel change DEV    change / replace on that layout
 *   tc_msg_kernel delete DEV    delete it piece by piece
 *   tc_msg_kernel full DEV PEER ets + red, prio (on PEER), clsact with
 *                               flower + skbedit and u32: kinds only a
 *                               full kernel has (QEMU guest)
 *
 * Every object is sent as encoded by tc_msg_*(), the kernel's dump is
 * decoded by tc_msg_*_parse(), and each planned object must come back
 * equal (tc_msg_*_same() and field by field) with nothing else of roced's
 * on the device. tc_msg_kernel.sh runs it in a private namespace and also
 * checks the result with `tc`'s own output. Prints one line per check;
 * exits 1 on the first failure.
 */
#include <errno.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <libmnl/libmnl.h>
#include <linux/if_ether.h>
#include <linux/rtnetlink.h>

#include "nlmsg/tc_msg.h"

#define H(maj, min)   PLAN_H_MAKE(0x##maj, 0x##min)
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static struct mnl_socket *nl;
static uint32_t seq = 1;
static const char *prog;

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stdout, "FAIL: ");
	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	exit(1);
}

static void ok(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void ok(const char *fmt, ...)
{
	va_list ap;

	fprintf(stdout, "ok: ");
	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
}

/* Send one request and wait for its ack: 0 or the kernel's -errno, with
 * the extack text in MSG when there is one. */
static int talk(void *req, char *msg, size_t msglen)
{
	static uint8_t buf[1 << 16] __attribute__((aligned(4)));
	struct nlmsghdr *nlh = req;
	uint32_t want = nlh->nlmsg_seq;

	msg[0] = 0;
	if (mnl_socket_sendto(nl, req, nlh->nlmsg_len) < 0)
		die("send: %s", strerror(errno));
	for (;;) {
		ssize_t n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		const struct nlmsghdr *r = (const struct nlmsghdr *)buf;
		int left = (int)n;

		if (n < 0)
			die("recv: %s", strerror(errno));
		for (; mnl_nlmsg_ok(r, left); r = mnl_nlmsg_next(r, &left)) {
			const struct nlmsgerr *e;
			const struct nlattr *a;
			size_t off;

			if (r->nlmsg_seq != want ||
			    r->nlmsg_type != NLMSG_ERROR)
				continue;
			e = mnl_nlmsg_get_payload(r);
			if (!(r->nlmsg_flags & NLM_F_ACK_TLVS))
				return e->error;
			/* extack follows the echoed request, whole unless
			 * capped to its header */
			off = sizeof(*e);
			if (e->error && !(r->nlmsg_flags & NLM_F_CAPPED))
				off += e->msg.nlmsg_len - sizeof(*r);
			mnl_attr_for_each(a, r, off)
			{
				if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG)
					snprintf(msg, msglen, "%s",
					         mnl_attr_get_str(a));
			}
			return e->error;
		}
	}
}

static int ifindex_of(const char *name)
{
	int i = (int)if_nametoindex(name);

	if (!i)
		die("%s: %s", name, strerror(errno));
	return i;
}

/* --- sending plan objects ----------------------------------------------- */

/* Send the request an encoder wrote into BUF (ENC: its result; WHAT
 * names the object when it failed); the kernel's extack is printed. */
static int send_encoded(uint32_t *buf, int enc, const char *what)
{
	char msg[256];
	int err;

	if (enc)
		die("encode %s: %s", what, strerror(-enc));
	err = talk(buf, msg, sizeof(msg));
	if (err && msg[0])
		printf("   kernel: %s\n", msg);
	return err;
}

static int send_qdisc(int ifi, enum tc_msg_op op, const struct plan_qdisc *q)
{
	static uint32_t buf[TC_MSG_BUF_SIZE / 4];
	char what[32];

	snprintf(what, sizeof(what), "qdisc %x", q->handle >> 16);
	return send_encoded(
	    buf, tc_msg_qdisc(buf, sizeof(buf), op, ifi, seq++, q), what);
}

static int send_class(int ifi, enum tc_msg_op op, const struct plan_class *c)
{
	static uint32_t buf[TC_MSG_BUF_SIZE / 4];
	char what[32];

	snprintf(what, sizeof(what), "class %x", c->classid);
	return send_encoded(
	    buf, tc_msg_class(buf, sizeof(buf), op, ifi, seq++, c), what);
}

static int send_filter(int ifi, enum tc_msg_op op, const struct plan_filter *f)
{
	static uint32_t buf[TC_MSG_BUF_SIZE / 4];
	char what[32];

	snprintf(what, sizeof(what), "filter %u", f->prio);
	return send_encoded(
	    buf, tc_msg_filter(buf, sizeof(buf), op, ifi, seq++, f), what);
}

#define MUST(call, what)                                                       \
	do {                                                                   \
		int err_ = (call);                                             \
		if (err_)                                                      \
			die("%s: %s", what, strerror(-err_));                  \
		ok("%s", what);                                                \
	} while (0)

/* --- reading the kernel back --------------------------------------------- */

#define MAXOBJ 64

struct state {
	struct tc_msg_qdisc q[MAXOBJ];
	size_t nq;
	struct tc_msg_class c[MAXOBJ];
	size_t nc;
	struct tc_msg_filter f[MAXOBJ];
	size_t nf;
};

/* Dump OBJ of IFI (filters of block PARENT) into ST with the decoders. */
static void dump(struct state *st, enum tc_msg_obj obj, int ifi,
                 uint32_t parent)
{
	static uint8_t buf[1 << 16] __attribute__((aligned(4)));
	uint32_t s = seq++;
	int err = tc_msg_dump(buf, sizeof(buf), obj, ifi, parent, s);

	if (err)
		die("encode dump: %s", strerror(-err));
	if (mnl_socket_sendto(nl, buf, ((struct nlmsghdr *)buf)->nlmsg_len) < 0)
		die("send dump: %s", strerror(errno));
	for (;;) {
		ssize_t n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		const struct nlmsghdr *r = (const struct nlmsghdr *)buf;
		int left = (int)n;

		if (n < 0)
			die("recv dump: %s", strerror(errno));
		for (; mnl_nlmsg_ok(r, left); r = mnl_nlmsg_next(r, &left)) {
			if (r->nlmsg_seq != s)
				continue;
			if (r->nlmsg_type == NLMSG_DONE)
				return;
			if (r->nlmsg_type == NLMSG_ERROR)
				die("dump refused");
			if (obj == TC_MSG_QDISC) {
				struct tc_msg_qdisc d;

				if (tc_msg_qdisc_parse(r, r->nlmsg_len, &d))
					die("undecodable qdisc message");
				if (d.ifindex == ifi && st->nq < MAXOBJ)
					st->q[st->nq++] = d;
			} else if (obj == TC_MSG_CLASS) {
				struct tc_msg_class d;

				if (tc_msg_class_parse(r, r->nlmsg_len, &d))
					die("undecodable class message");
				if (st->nc < MAXOBJ)
					st->c[st->nc++] = d;
			} else {
				struct tc_msg_filter d;

				if (tc_msg_filter_parse(r, r->nlmsg_len, &d))
					die("undecodable filter message");
				if (d.rule && st->nf < MAXOBJ)
					st->f[st->nf++] = d;
			}
		}
	}
}

static void read_state(struct state *st, int ifi, const uint32_t *blocks,
                       size_t nblocks)
{
	memset(st, 0, sizeof(*st));
	dump(st, TC_MSG_QDISC, ifi, 0);
	dump(st, TC_MSG_CLASS, ifi, 0);
	for (size_t i = 0; i < nblocks; i++)
		dump(st, TC_MSG_FILTER, ifi, blocks[i]);
}

/* WANT is exactly what the kernel holds of roced's: each planned object is
 * there and equal, and no other roced object is. */
static void expect(const struct state *st, const struct plan_qdisc *q,
                   size_t nq, const struct plan_class *c, size_t nc,
                   const struct plan_filter *f, size_t nf, const char *what)
{
	size_t roced = 0;

	for (size_t i = 0; i < nq; i++) {
		const struct tc_msg_qdisc *d = NULL;

		for (size_t j = 0; j < st->nq; j++) {
			if (st->q[j].known && st->q[j].q.handle == q[i].handle)
				d = &st->q[j];
		}
		if (!d)
			die("%s: qdisc %x: not in the kernel", what,
			    q[i].handle >> 16);
		if (!tc_msg_qdisc_same(&q[i], &d->q))
			die("%s: qdisc %x: the kernel holds something else",
			    what, q[i].handle >> 16);
		if (d->q.queue != q[i].queue)
			die("%s: qdisc %x: queue %d", what, q[i].handle >> 16,
			    d->q.queue);
	}
	for (size_t j = 0; j < st->nq; j++)
		roced += st->q[j].roced;
	/* clsact has no roced handle and is not counted */
	for (size_t i = 0; i < nq; i++)
		roced -= q[i].kind != PLAN_QD_CLSACT;
	if (roced)
		die("%s: %zu qdiscs of roced's the plan does not have", what,
		    roced);

	for (size_t i = 0; i < nc; i++) {
		const struct tc_msg_class *d = NULL;

		for (size_t j = 0; j < st->nc; j++) {
			if (st->c[j].c.classid == c[i].classid)
				d = &st->c[j];
		}
		if (!d || !d->known)
			die("%s: class %x not in the kernel", what,
			    c[i].classid);
		if (!tc_msg_class_same(&c[i], &d->c))
			die("%s: class %x: rate %llu ceil %llu prio %u quantum "
			    "%u parent %x",
			    what, c[i].classid, (unsigned long long)d->c.rate,
			    (unsigned long long)d->c.ceil, d->c.prio,
			    d->c.quantum, d->c.parent);
		if (d->c.queue != c[i].queue)
			die("%s: class %x: queue %d", what, c[i].classid,
			    d->c.queue);
	}
	if (st->nc != nc && nc)
		die("%s: %zu classes, planned %zu", what, st->nc, nc);

	for (size_t i = 0; i < nf; i++) {
		const struct tc_msg_filter *d = NULL;

		for (size_t j = 0; j < st->nf; j++) {
			if (st->f[j].f.prio == f[i].prio &&
			    st->f[j].f.parent == f[i].parent)
				d = &st->f[j];
		}
		if (!d)
			die("%s: filter %u not in the kernel", what, f[i].prio);
		if (!d->known || !d->roced)
			die("%s: filter %u: not of roced's shape", what,
			    f[i].prio);
		if (!tc_msg_filter_same(&f[i], &d->f))
			die("%s: filter %u: the kernel holds something else",
			    what, f[i].prio);
	}
	if (st->nf != nf)
		die("%s: %zu filter rules, planned %zu", what, st->nf, nf);
	ok("%s: %zu qdiscs, %zu classes, %zu filters as planned", what, nq, nc,
	   nf);
}

/* --- the HTB layout (this machine's kernel) ------------------------------- */

static struct plan_qdisc hq[] = {
    {.kind = PLAN_QD_HTB,
     .handle = H(4791, 0),
     .parent = PLAN_H_ROOT,
     .queue = -1,
     .u.htb = {.defcls = 0x10}},
    {.kind = PLAN_QD_BFIFO,
     .handle = H(4713, 0),
     .parent = H(4791, 13),
     .queue = 3,
     .u.fifo = {.limit = 300000}},
    {.kind = PLAN_QD_PFIFO,
     .handle = H(4710, 0),
     .parent = H(4791, 10),
     .queue = 0,
     .u.fifo = {.limit = 1000}},
    {.kind = PLAN_QD_CLSACT,
     .handle = PLAN_H_CLSACT,
     .parent = PLAN_H_CLSACT,
     .queue = -1},
};

static struct plan_class hc[] = {
    {.classid = H(4791, 1),
     .parent = H(4791, 0),
     .rate = 1250000000,
     .ceil = 1250000000,
     .queue = -1},
    {.classid = H(4791, 13),
     .parent = H(4791, 1),
     .rate = 625000000,
     .ceil = 1250000000,
     .prio = 1,
     .quantum = 60000,
     .queue = 3},
    {.classid = H(4791, 10),
     .parent = H(4791, 1),
     .rate = 12500000,
     .ceil = 1250000000,
     .prio = 7,
     .quantum = 1514,
     .queue = 0},
    /* above 2^32 bytes/s: TCA_HTB_RATE64 / CEIL64 */
    {.classid = H(4791, 2),
     .parent = H(4791, 0),
     .rate = 5000000000ull,
     .ceil = 12500000000ull,
     .quantum = 200000,
     .queue = -1},
};

static struct plan_filter hf[] = {
    {.kind = PLAN_FILTER_U32,
     .parent = H(4791, 0),
     .prio = 4791,
     .protocol = ETH_P_IP,
     .match_dscp = true,
     .dscp = 26,
     .dscp_mask = 0x3f,
     .action = PLAN_ACT_CLASSID,
     .classid = H(4791, 13)},
    {.kind = PLAN_FILTER_U32,
     .parent = H(4791, 0),
     .prio = 4792,
     .protocol = ETH_P_IPV6,
     .match_dscp = true,
     .dscp = 26,
     .dscp_mask = 0x3f,
     .action = PLAN_ACT_CLASSID,
     .classid = H(4791, 13)},
    {.kind = PLAN_FILTER_U32,
     .parent = H(4791, 0),
     .prio = 4799,
     .protocol = ETH_P_IP,
     .action = PLAN_ACT_CLASSID,
     .classid = H(4791, 10)},
    /* u32 on clsact ingress takes a classid on any kernel */
    {.kind = PLAN_FILTER_U32,
     .parent = PLAN_H_CLSACT_INGRESS,
     .prio = 4800,
     .protocol = ETH_P_IPV6,
     .match_dscp = true,
     .dscp = 46,
     .dscp_mask = 0x3f,
     .action = PLAN_ACT_CLASSID,
     .classid = H(4791, 13)},
};

static const uint32_t htb_blocks[] = {H(4791, 0), PLAN_H_CLSACT_INGRESS};

static void phase_apply(int ifi)
{
	struct state st;

	for (size_t i = 0; i < ARRAY_SIZE(hq); i++) {
		if (hq[i].kind == PLAN_QD_HTB || hq[i].kind == PLAN_QD_CLSACT)
			MUST(send_qdisc(ifi, TC_MSG_ADD, &hq[i]),
			     hq[i].kind == PLAN_QD_HTB ? "add htb root"
			                               : "add clsact");
	}
	for (size_t i = 0; i < ARRAY_SIZE(hc); i++)
		MUST(send_class(ifi, TC_MSG_ADD, &hc[i]), "add htb class");
	MUST(send_qdisc(ifi, TC_MSG_ADD, &hq[1]), "add bfifo leaf");
	MUST(send_qdisc(ifi, TC_MSG_ADD, &hq[2]), "add pfifo leaf");
	for (size_t i = 0; i < ARRAY_SIZE(hf); i++)
		MUST(send_filter(ifi, TC_MSG_ADD, &hf[i]), "add u32 filter");

	read_state(&st, ifi, htb_blocks, ARRAY_SIZE(htb_blocks));
	expect(&st, hq, ARRAY_SIZE(hq), hc, ARRAY_SIZE(hc), hf, ARRAY_SIZE(hf),
	       "apply");
	/* quantum 0 was left to the kernel: rate / r2q, clamped */
	for (size_t j = 0; j < st.nc; j++) {
		if (st.c[j].c.classid == H(4791, 1) &&
		    st.c[j].c.quantum != 200000)
			die("apply: kernel quantum %u", st.c[j].c.quantum);
	}

	/* adding what exists fails: NLM_F_EXCL is set */
	if (send_qdisc(ifi, TC_MSG_ADD, &hq[1]) != -EEXIST)
		die("adding an existing qdisc did not fail with EEXIST");
	ok("add of an existing qdisc refused (EEXIST)");
}

static void phase_change(int ifi)
{
	struct state st;

	/* the state phase_apply left */
	read_state(&st, ifi, htb_blocks, ARRAY_SIZE(htb_blocks));
	expect(&st, hq, ARRAY_SIZE(hq), hc, ARRAY_SIZE(hc), hf, ARRAY_SIZE(hf),
	       "before change");

	hc[1].rate = 312500000;
	hc[1].quantum = 30000;
	MUST(send_class(ifi, TC_MSG_CHANGE, &hc[1]), "change class 4791:13");
	/* the hold a paused queue gets (rate 8bit) and back */
	hc[2].rate = 1;
	hc[2].ceil = 1;
	MUST(send_class(ifi, TC_MSG_CHANGE, &hc[2]), "hold class 4791:10");
	hq[1].u.fifo.limit = 200000;
	MUST(send_qdisc(ifi, TC_MSG_REPLACE, &hq[1]), "replace bfifo leaf");
	/* HTB has no change operation for the qdisc: a new defcls or r2q
	 * means a new root (diff must delete and re-add it) */
	{
		struct plan_qdisc root = hq[0];

		root.u.htb.defcls = 0x13;
		root.u.htb.r2q = 5;
		if (send_qdisc(ifi, TC_MSG_CHANGE, &root) != -EINVAL)
			die("htb root change was not refused");
		ok("htb root change refused by the kernel (EINVAL)");
	}
	/* a u32 or flower rule without a handle is not replaced but added
	 * beside the old one: a new rule is delete + add of its prio */
	MUST(send_filter(ifi, TC_MSG_DEL, &hf[2]), "delete filter 4799");
	hf[2].classid = H(4791, 13);
	MUST(send_filter(ifi, TC_MSG_ADD, &hf[2]), "add filter 4799 anew");
	read_state(&st, ifi, htb_blocks, ARRAY_SIZE(htb_blocks));
	expect(&st, hq, ARRAY_SIZE(hq), hc, ARRAY_SIZE(hc), hf, ARRAY_SIZE(hf),
	       "change");
}

/* The state phase_change left, as phase_change leaves it. */
static void changed(void)
{
	hc[1].rate = 312500000;
	hc[1].quantum = 30000;
	hc[2].rate = 1;
	hc[2].ceil = 1;
	hq[1].u.fifo.limit = 200000;
	hf[2].classid = H(4791, 13);
}

static void phase_delete(int ifi)
{
	struct state st;

	changed();
	read_state(&st, ifi, htb_blocks, ARRAY_SIZE(htb_blocks));
	expect(&st, hq, ARRAY_SIZE(hq), hc, ARRAY_SIZE(hc), hf, ARRAY_SIZE(hf),
	       "before delete");
	hc[2].rate = 12500000;
	hc[2].ceil = 1250000000;
	MUST(send_class(ifi, TC_MSG_CHANGE, &hc[2]), "release class 4791:10");
	MUST(send_filter(ifi, TC_MSG_DEL, &hf[1]), "delete filter 4792");
	MUST(send_filter(ifi, TC_MSG_DEL, &hf[3]), "delete ingress filter");
	MUST(send_qdisc(ifi, TC_MSG_DEL, &hq[2]), "delete pfifo leaf");
	MUST(send_class(ifi, TC_MSG_DEL, &hc[2]), "delete class 4791:10");
	hf[1] = hf[2];
	read_state(&st, ifi, htb_blocks, ARRAY_SIZE(htb_blocks));
	{
		struct plan_qdisc q[] = {hq[0], hq[1], hq[3]};
		struct plan_class c[] = {hc[0], hc[1], hc[3]};

		expect(&st, q, ARRAY_SIZE(q), c, ARRAY_SIZE(c), hf, 2,
		       "delete");
	}
	MUST(send_qdisc(ifi, TC_MSG_DEL, &hq[3]), "delete clsact");
	MUST(send_qdisc(ifi, TC_MSG_DEL, &hq[0]), "delete htb root");
	read_state(&st, ifi, htb_blocks, 0);
	for (size_t j = 0; j < st.nq; j++) {
		if (st.q[j].roced || st.q[j].known)
			die("after delete: qdisc %s %x: left", st.q[j].kind,
			    st.q[j].handle);
	}
	ok("everything of roced's is gone");
}

/* --- kinds of a full kernel ------------------------------------------------
 */

static void phase_full(int ifi, int peer)
{
	struct plan_qdisc ets = {
	    .kind = PLAN_QD_ETS,
	    .handle = H(4791, 0),
	    .parent = PLAN_H_ROOT,
	    .queue = -1,
	    .u.ets = {.nbands = 8,
	              .nstrict = 1,
	              .quanta = {0, 4500, 1500, 1500, 4500, 1500, 1500, 1500},
	              .priomap = {7, 6, 5, 4, 3, 2, 1, 0, 7, 7, 7, 7, 7, 7, 7,
	                          7}},
	};
	/* RoCE: min 150 KB, max 3000 KB, 7 %, weight 0 (Wlog 0: tc's
	 * command line cannot say it; netlink can) */
	struct plan_qdisc red = {
	    .kind = PLAN_QD_RED,
	    .handle = H(4713, 0),
	    .parent = H(4791, 5),
	    .queue = 3,
	    .u.red = {.limit = 4000000,
	              .qth_min = 153600,
	              .qth_max = 3072000,
	              .avpkt = 1000,
	              .bandwidth = 1250000000,
	              .max_p = 300647710,
	              .wlog = 0,
	              .plog = 26,
	              .scell_log = 0,
	              .ecn = true},
	};
	struct plan_qdisc red2 = {
	    .kind = PLAN_QD_RED,
	    .handle = H(4716, 0),
	    .parent = H(4791, 2),
	    .queue = 6,
	    .u.red = {.limit = 1000000,
	              .qth_min = 30000,
	              .qth_max = 90000,
	              .avpkt = 1000,
	              .bandwidth = 125000000,
	              .max_p = 85899345,
	              .wlog = 5,
	              .plog = 22,
	              .scell_log = 8,
	              .ecn = true,
	              .harddrop = true},
	};
	struct plan_qdisc prio = {
	    .kind = PLAN_QD_PRIO,
	    .handle = H(4791, 0),
	    .parent = PLAN_H_ROOT,
	    .queue = -1,
	    .u.prio = {.bands = 8,
	               .priomap = {7, 6, 5, 4, 3, 2, 1, 0, 7, 7, 7, 7, 7, 7, 7,
	                           7}},
	};
	struct plan_qdisc clsact = {
	    .kind = PLAN_QD_CLSACT,
	    .handle = PLAN_H_CLSACT,
	    .parent = PLAN_H_CLSACT,
	    .queue = -1,
	};
	struct plan_filter in[] = {
	    {.kind = PLAN_FILTER_FLOWER,
	     .parent = PLAN_H_CLSACT_INGRESS,
	     .prio = 4791,
	     .protocol = ETH_P_IP,
	     .match_dscp = true,
	     .dscp = 26,
	     .dscp_mask = 0x3f,
	     .action = PLAN_ACT_SKBEDIT_PRIORITY,
	     .priority = 3},
	    {.kind = PLAN_FILTER_FLOWER,
	     .parent = PLAN_H_CLSACT_INGRESS,
	     .prio = 4792,
	     .protocol = ETH_P_IPV6,
	     .match_dscp = true,
	     .dscp = 26,
	     .dscp_mask = 0x3f,
	     .action = PLAN_ACT_SKBEDIT_PRIORITY,
	     .priority = 3},
	    {.kind = PLAN_FILTER_FLOWER,
	     .parent = PLAN_H_CLSACT_INGRESS,
	     .prio = 4793,
	     .protocol = ETH_P_8021Q,
	     .match_pcp = true,
	     .pcp = 3,
	     .action = PLAN_ACT_SKBEDIT_PRIORITY,
	     .priority = 3},
	    {.kind = PLAN_FILTER_FLOWER,
	     .parent = PLAN_H_CLSACT_INGRESS,
	     .prio = 4794,
	     .protocol = ETH_P_8021Q,
	     .vlan_ethtype = ETH_P_IPV6,
	     .match_pcp = true,
	     .pcp = 3,
	     .match_dscp = true,
	     .dscp = 26,
	     .dscp_mask = 0x3f,
	     .action = PLAN_ACT_SKBEDIT_PRIORITY,
	     .priority = 3},
	    {.kind = PLAN_FILTER_U32,
	     .parent = PLAN_H_CLSACT_INGRESS,
	     .prio = 4795,
	     .protocol = ETH_P_IP,
	     .match_dscp = true,
	     .dscp = 48,
	     .dscp_mask = 0x3f,
	     .action = PLAN_ACT_SKBEDIT_PRIORITY,
	     .priority = 6},
	    {.kind = PLAN_FILTER_FLOWER,
	     .parent = H(4791, 0),
	     .prio = 4796,
	     .protocol = ETH_P_IP,
	     .match_dscp = true,
	     .dscp = 26,
	     .dscp_mask = 0x3f,
	     .action = PLAN_ACT_CLASSID,
	     .classid = H(4791, 5)},
	};
	const uint32_t blocks[] = {H(4791, 0), PLAN_H_CLSACT_INGRESS};
	struct plan_qdisc q[] = {ets, red, red2, clsact};
	struct state st;

	MUST(send_qdisc(ifi, TC_MSG_ADD, &ets), "add ets root");
	MUST(send_qdisc(ifi, TC_MSG_ADD, &red), "add red leaf (Wlog 0)");
	MUST(send_qdisc(ifi, TC_MSG_ADD, &red2), "add red leaf (harddrop)");
	MUST(send_qdisc(ifi, TC_MSG_ADD, &clsact), "add clsact");
	for (size_t i = 0; i < ARRAY_SIZE(in); i++)
		MUST(send_filter(ifi, TC_MSG_ADD, &in[i]), "add filter");
	read_state(&st, ifi, blocks, ARRAY_SIZE(blocks));
	expect(&st, q, ARRAY_SIZE(q), NULL, 0, in, ARRAY_SIZE(in), "full");

	/* change the ets root in place: quanta and priomap */
	q[0].u.ets.quanta[4] = 9000;
	q[0].u.ets.priomap[3] = 1;
	MUST(send_qdisc(ifi, TC_MSG_CHANGE, &q[0]), "change ets root");
	q[1].u.red.qth_min = 76800;
	MUST(send_qdisc(ifi, TC_MSG_CHANGE, &q[1]), "change red leaf");
	read_state(&st, ifi, blocks, ARRAY_SIZE(blocks));
	expect(&st, q, ARRAY_SIZE(q), NULL, 0, in, ARRAY_SIZE(in),
	       "full change");

	MUST(send_qdisc(peer, TC_MSG_ADD, &prio), "add prio root (peer)");
	read_state(&st, peer, blocks, 0);
	expect(&st, &prio, 1, NULL, 0, NULL, 0, "prio");
}

int main(int argc, char **argv)
{
	prog = argv[0];
	if (argc < 3) {
		fprintf(stderr,
		        "usage: %s apply|change|delete|full DEV [PEER]\n",
		        prog);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	nl = mnl_socket_open(NETLINK_ROUTE);
	if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		perror("netlink");
		return 1;
	}
	{
		int one = 1;

		mnl_socket_setsockopt(nl, NETLINK_EXT_ACK, &one, sizeof(one));
	}
	if (!strcmp(argv[1], "apply"))
		phase_apply(ifindex_of(argv[2]));
	else if (!strcmp(argv[1], "change"))
		phase_change(ifindex_of(argv[2]));
	else if (!strcmp(argv[1], "delete"))
		phase_delete(ifindex_of(argv[2]));
	else if (!strcmp(argv[1], "full") && argc == 4)
		phase_full(ifindex_of(argv[2]), ifindex_of(argv[3]));
	else {
		fprintf(stderr,
		        "usage: %s apply|change|delete|full DEV [PEER]\n",
		        prog);
		return 2;
	}
	mnl_socket_close(nl);
	return 0;
}
