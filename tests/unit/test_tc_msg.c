/* Unit tests for lib/nlmsg/tc_msg*.c: the tc rtnetlink codec.
 *
 * The fixtures (tests/fixtures/tc/, as C arrays in tcfx/, tc_msg_fixtures.h)
 * are what iproute2 6.1's tc sends for a command line and what the kernel dumps
 * back, recorded by tests/tools/capture-tc-fixtures.sh: requests and
 * htb/fifo/clsact/u32 dumps on this machine's kernel, ets/prio/red/flower/
 * skbedit dumps in the QEMU full-kernel guest.
 *
 * Encoders must give tc's bytes exactly. What tc takes from its
 * environment is normalised by feeding it back to the encoder: the
 * sequence number (tc uses the time of day) and the interface index (from
 * the device name) are read out of each fixture. The port id is 0 in both.
 * The psched clock tc reads from /proc/net/psched is the same on every
 * kernel with high-resolution timers, which the encoder assumes.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <arpa/inet.h>
#include <libmnl/libmnl.h>
#include <linux/if_ether.h>
#include <linux/pkt_cls.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <linux/tc_act/tc_skbedit.h>

#include "nlmsg/tc_msg.h"
#include "tc_msg_fixtures.h"
#include "tc_msg_test.h"

static const struct tcfx *fx(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(tcfx_all); i++) {
		if (!strcmp(tcfx_all[i].name, name))
			return &tcfx_all[i];
	}
	fail_msg("no fixture %s", name);
	return NULL;
}

/* Message I of a fixture (its messages lie back to back). */
static const uint8_t *fx_msg(const struct tcfx *f, size_t i, size_t *len)
{
	size_t off = 0;

	for (;;) {
		uint32_t l;

		assert_true(off + 16 <= f->len);
		memcpy(&l, f->data + off, 4);
		assert_true(l >= 16 && off + l <= f->len);
		if (!i--) {
			*len = l;
			return f->data + off;
		}
		off += (l + 3) & ~3u;
	}
}

static size_t fx_count(const struct tcfx *f)
{
	size_t off = 0, n = 0;

	while (off < f->len) {
		uint32_t l;

		memcpy(&l, f->data + off, 4);
		assert_true(l >= 16);
		off += (l + 3) & ~3u;
		n++;
	}
	assert_int_equal(off, f->len);
	return n;
}

static uint32_t rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* --- the fixture files and their C arrays agree ------------------------ */

static size_t hex_file(const char *name, uint8_t *buf, size_t size)
{
	char path[512], line[1 << 14];
	size_t n = 0;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/tests/fixtures/tc/%s.hex", TEST_SRCDIR,
	         name);
	fp = fopen(path, "r");
	if (!fp)
		fail_msg("%s: cannot open", path);
	while (fgets(line, sizeof(line), fp)) {
		size_t len = strcspn(line, "\r\n");

		if (line[0] == '#' || !len)
			continue;
		assert_int_equal(len % 2, 0);
		for (size_t i = 0; i < len; i += 2) {
			unsigned v;

			assert_int_equal(sscanf(line + i, "%2x", &v), 1);
			assert_true(n < size);
			buf[n++] = (uint8_t)v;
		}
		/* messages are padded to 4 bytes back to back */
		while (n % 4)
			buf[n++] = 0;
	}
	fclose(fp);
	return n;
}

static void test_fixture_files(void **state)
{
	static uint8_t buf[1 << 16];

	(void)state;
	assert_true(ARRAY_SIZE(tcfx_all) >= 40);
	for (size_t i = 0; i < ARRAY_SIZE(tcfx_all); i++) {
		size_t n = hex_file(tcfx_all[i].name, buf, sizeof(buf));

		if (n != tcfx_all[i].len || memcmp(buf, tcfx_all[i].data, n))
			fail_msg("%s: the arrays of tests/unit/tcfx/ are "
			         "stale (run `make tc-fixtures`)",
			         tcfx_all[i].name);
		fx_count(&tcfx_all[i]);
	}
}

enum req_kind {
	REQ_QDISC,
	REQ_CLASS,
	REQ_FILTER,
	REQ_DUMP,
};

struct req_case {
	const char *fixture;
	enum req_kind kind;
	enum tc_msg_op op;
	const void *obj;          /* plan_qdisc / plan_class / plan_filter */
	enum tc_msg_obj dump_obj; /* REQ_DUMP */
	uint32_t dump_parent;
};

static const struct req_case req_cases[] = {
    {"req-qdisc-htb-add", REQ_QDISC, TC_MSG_ADD, &q_htb, TC_MSG_QDISC, 0},
    {"req-qdisc-bfifo-add", REQ_QDISC, TC_MSG_ADD, &q_bfifo, TC_MSG_QDISC, 0},
    {"req-qdisc-pfifo-add", REQ_QDISC, TC_MSG_ADD, &q_pfifo, TC_MSG_QDISC, 0},
    {"req-qdisc-clsact-add", REQ_QDISC, TC_MSG_ADD, &q_clsact, TC_MSG_QDISC, 0},
    {"req-qdisc-clsact-del", REQ_QDISC, TC_MSG_DEL, &q_clsact, TC_MSG_QDISC, 0},
    {"req-qdisc-del", REQ_QDISC, TC_MSG_DEL, &q_bfifo, TC_MSG_QDISC, 0},
    {"req-qdisc-htb-del", REQ_QDISC, TC_MSG_DEL, &q_htb, TC_MSG_QDISC, 0},
    {"req-qdisc-ets-add", REQ_QDISC, TC_MSG_ADD, &q_ets, TC_MSG_QDISC, 0},
    {"req-qdisc-ets-nostrict-add", REQ_QDISC, TC_MSG_ADD, &q_ets_nostrict,
     TC_MSG_QDISC, 0},
    {"req-qdisc-prio-add", REQ_QDISC, TC_MSG_ADD, &q_prio, TC_MSG_QDISC, 0},
    {"req-qdisc-red-10g-add", REQ_QDISC, TC_MSG_ADD, &q_red_10g, TC_MSG_QDISC,
     0},
    {"req-qdisc-red-1g-add", REQ_QDISC, TC_MSG_ADD, &q_red_1g, TC_MSG_QDISC, 0},
    {"req-qdisc-red-100m-add", REQ_QDISC, TC_MSG_ADD, &q_red_100m, TC_MSG_QDISC,
     0},
    {"req-class-htb-root-add", REQ_CLASS, TC_MSG_ADD, &c_root, TC_MSG_QDISC, 0},
    {"req-class-htb-q3-add", REQ_CLASS, TC_MSG_ADD, &c_q3, TC_MSG_QDISC, 0},
    {"req-class-htb-q0-add", REQ_CLASS, TC_MSG_ADD, &c_q0, TC_MSG_QDISC, 0},
    {"req-class-htb-rate64-add", REQ_CLASS, TC_MSG_ADD, &c_rate64, TC_MSG_QDISC,
     0},
    {"req-class-htb-q3-change", REQ_CLASS, TC_MSG_CHANGE, &c_q3_half,
     TC_MSG_QDISC, 0},
    {"req-class-htb-q3-hold", REQ_CLASS, TC_MSG_CHANGE, &c_q3_hold,
     TC_MSG_QDISC, 0},
    {"req-class-htb-q3-replace", REQ_CLASS, TC_MSG_REPLACE, &c_q3, TC_MSG_QDISC,
     0},
    {"req-class-del", REQ_CLASS, TC_MSG_DEL, &c_q3, TC_MSG_QDISC, 0},
    {"req-filter-u32-ip-add", REQ_FILTER, TC_MSG_ADD, &f_u32_ip, TC_MSG_QDISC,
     0},
    {"req-filter-u32-ip6-add", REQ_FILTER, TC_MSG_ADD, &f_u32_ip6, TC_MSG_QDISC,
     0},
    {"req-filter-u32-all-add", REQ_FILTER, TC_MSG_ADD, &f_u32_all, TC_MSG_QDISC,
     0},
    {"req-filter-u32-all-replace", REQ_FILTER, TC_MSG_REPLACE, &f_u32_all,
     TC_MSG_QDISC, 0},
    {"req-filter-u32-skbedit-add", REQ_FILTER, TC_MSG_ADD, &f_u32_skbedit,
     TC_MSG_QDISC, 0},
    {"req-filter-u32-protoall-add", REQ_FILTER, TC_MSG_ADD, &f_u32_protoall,
     TC_MSG_QDISC, 0},
    {"req-filter-flower-protoall-add", REQ_FILTER, TC_MSG_ADD,
     &f_flower_protoall, TC_MSG_QDISC, 0},
    {"req-filter-bpf-add", REQ_FILTER, TC_MSG_ADD, &f_bpf_ipv4, TC_MSG_QDISC,
     0},
    {"req-filter-del", REQ_FILTER, TC_MSG_DEL, &f_u32_ip6, TC_MSG_QDISC, 0},
    {"req-filter-flower-skbedit-add", REQ_FILTER, TC_MSG_ADD, &f_flower_skbedit,
     TC_MSG_QDISC, 0},
    {"req-filter-flower-mark-add", REQ_FILTER, TC_MSG_ADD, &f_flower_mark,
     TC_MSG_QDISC, 0},
    {"req-filter-flower-vlan-add", REQ_FILTER, TC_MSG_ADD, &f_flower_vlan,
     TC_MSG_QDISC, 0},
    {"req-filter-flower-vlan-dscp-add", REQ_FILTER, TC_MSG_ADD,
     &f_flower_vlan_dscp, TC_MSG_QDISC, 0},
    {"req-filter-flower-classid-add", REQ_FILTER, TC_MSG_ADD, &f_flower_classid,
     TC_MSG_QDISC, 0},
    {"req-filter-flower-ip6-classid-add", REQ_FILTER, TC_MSG_ADD,
     &f_flower_ip6_classid, TC_MSG_QDISC, 0},
    {"req-dump-qdisc", REQ_DUMP, 0, NULL, TC_MSG_QDISC, 0},
    {"req-dump-class", REQ_DUMP, 0, NULL, TC_MSG_CLASS, 0},
    {"req-dump-filter", REQ_DUMP, 0, NULL, TC_MSG_FILTER, H(4791, 0)},
    {"req-dump-filter-ingress", REQ_DUMP, 0, NULL, TC_MSG_FILTER,
     PLAN_H_CLSACT_INGRESS},
};

/* The same command lines with other values, checked by hand in the
 * fixture dissection: replace/change of the htb root. */
static const struct plan_qdisc q_htb_11_r2q5 = {
    .kind = PLAN_QD_HTB,
    .handle = H(4791, 0),
    .parent = PLAN_H_ROOT,
    .queue = -1,
    .u.htb = {.defcls = 0x11, .r2q = 5},
};

static const struct plan_qdisc q_htb_12_r2q20 = {
    .kind = PLAN_QD_HTB,
    .handle = H(4791, 0),
    .parent = PLAN_H_ROOT,
    .queue = -1,
    .u.htb = {.defcls = 0x12, .r2q = 20},
};

static const struct req_case req_cases2[] = {
    {"req-qdisc-htb-replace", REQ_QDISC, TC_MSG_REPLACE, &q_htb_11_r2q5,
     TC_MSG_QDISC, 0},
    {"req-qdisc-htb-change", REQ_QDISC, TC_MSG_CHANGE, &q_htb_12_r2q20,
     TC_MSG_QDISC, 0},
};

static int req_encode(const struct req_case *rc, void *buf, size_t size,
                      int ifindex, uint32_t seq)
{
	switch (rc->kind) {
	case REQ_QDISC:
		return tc_msg_qdisc(buf, size, rc->op, ifindex, seq, rc->obj);
	case REQ_CLASS:
		return tc_msg_class(buf, size, rc->op, ifindex, seq, rc->obj);
	case REQ_FILTER:
		return tc_msg_filter(buf, size, rc->op, ifindex, seq, rc->obj);
	case REQ_DUMP:
		return tc_msg_dump(buf, size, rc->dump_obj, ifindex,
		                   rc->dump_parent, seq);
	}
	return -EINVAL;
}

static void check_req(const struct req_case *rc)
{
	static uint32_t buf[TC_MSG_BUF_SIZE / 4];
	const struct tcfx *f = fx(rc->fixture);
	size_t len;
	const uint8_t *want = fx_msg(f, 0, &len);
	/* what tc took from its environment */
	uint32_t seq = rd32(want + 8);
	int ifindex = (int)rd32(want + 20);
	uint32_t got;
	int err;

	assert_int_equal(fx_count(f), 1);
	memset(buf, 0xa5, sizeof(buf));
	err = req_encode(rc, buf, sizeof(buf), ifindex, seq);
	if (err)
		fail_msg("%s: encode: %s", rc->fixture, strerror(-err));
	got = buf[0];
	if (got != len)
		fail_msg("%s: %u bytes, tc sent %zu", rc->fixture, got, len);
	for (size_t i = 0; i < len; i++) {
		if (((uint8_t *)buf)[i] != want[i])
			fail_msg("%s: byte %zu is %#04x, tc sent %#04x",
			         rc->fixture, i, ((uint8_t *)buf)[i], want[i]);
	}
}

static void test_encode_as_tc(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(req_cases); i++)
		check_req(&req_cases[i]);
	for (size_t i = 0; i < ARRAY_SIZE(req_cases2); i++)
		check_req(&req_cases2[i]);
}

/* The mark diff adds with a clsact is the one checked against tc above. */
static void test_clsact_mark(void **state)
{
	struct plan_filter f;

	(void)state;
	plan_clsact_mark(&f);
	assert_memory_equal(&f, &f_flower_mark, sizeof(f));
	assert_true(tc_msg_filter_is_roced(f.prio));
}

/* Every request fixture is covered by an encoder case. */
static void test_every_request_checked(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(tcfx_all); i++) {
		const char *n = tcfx_all[i].name;
		bool found = false;

		if (strncmp(n, "req-", 4))
			continue;
		for (size_t j = 0; j < ARRAY_SIZE(req_cases); j++)
			found |= !strcmp(req_cases[j].fixture, n);
		for (size_t j = 0; j < ARRAY_SIZE(req_cases2); j++)
			found |= !strcmp(req_cases2[j].fixture, n);
		if (!found)
			fail_msg("%s has no encoder case", n);
	}
}

/* --- decoding ---------------------------------------------------------- */

/* tc's requests have the layout of the kernel's replies for every object
 * here: decoding them must give back the plan object. */
static void test_decode_tc_requests(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(req_cases); i++) {
		const struct req_case *rc = &req_cases[i];
		size_t len;
		const uint8_t *m = fx_msg(fx(rc->fixture), 0, &len);

		if (rc->op == TC_MSG_DEL || rc->kind == REQ_DUMP)
			continue;
		if (rc->kind == REQ_QDISC) {
			struct tc_msg_qdisc d;

			assert_int_equal(tc_msg_qdisc_parse(m, len, &d), 0);
			assert_true(d.known);
			if (!tc_msg_qdisc_same(rc->obj, &d.q))
				fail_msg("%s: decoded qdisc differs",
				         rc->fixture);
			assert_int_equal(
			    d.q.queue,
			    ((const struct plan_qdisc *)rc->obj)->queue);
		} else if (rc->kind == REQ_CLASS) {
			struct tc_msg_class d;

			assert_int_equal(tc_msg_class_parse(m, len, &d), 0);
			assert_true(d.known);
			assert_true(d.roced);
			if (!tc_msg_class_same(rc->obj, &d.c))
				fail_msg("%s: decoded class differs",
				         rc->fixture);
		} else {
			struct tc_msg_filter d;

			assert_int_equal(tc_msg_filter_parse(m, len, &d), 0);
			if (!d.rule || !d.known)
				fail_msg("%s: rule %d known %d", rc->fixture,
				         d.rule, d.known);
			assert_true(d.roced);
			if (!tc_msg_filter_same(rc->obj, &d.f))
				fail_msg("%s: decoded filter differs",
				         rc->fixture);
		}
	}
}

/* Encoding then decoding every plan object gives it back. */
static void test_roundtrip(void **state)
{
	static uint32_t buf[TC_MSG_BUF_SIZE / 4];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(req_cases); i++) {
		const struct req_case *rc = &req_cases[i];

		if (rc->op == TC_MSG_DEL || rc->kind == REQ_DUMP)
			continue;
		assert_int_equal(req_encode(rc, buf, sizeof(buf), 7, 1), 0);
		if (rc->kind == REQ_QDISC) {
			struct tc_msg_qdisc d;

			assert_int_equal(tc_msg_qdisc_parse(buf, buf[0], &d),
			                 0);
			assert_int_equal(d.ifindex, 7);
			assert_true(d.known &&
			            tc_msg_qdisc_same(rc->obj, &d.q));
		} else if (rc->kind == REQ_CLASS) {
			struct tc_msg_class d;

			assert_int_equal(tc_msg_class_parse(buf, buf[0], &d),
			                 0);
			assert_true(d.known &&
			            tc_msg_class_same(rc->obj, &d.c));
		} else {
			struct tc_msg_filter d;

			assert_int_equal(tc_msg_filter_parse(buf, buf[0], &d),
			                 0);
			assert_true(d.known &&
			            tc_msg_filter_same(rc->obj, &d.f));
		}
	}
}

/* Decode a whole qdisc dump; OUT gets at most MAX entries. */
static size_t dump_qdiscs(const char *name, struct tc_msg_qdisc *out,
                          size_t max)
{
	const struct tcfx *f = fx(name);
	size_t n = fx_count(f);

	assert_true(n <= max);
	for (size_t i = 0; i < n; i++) {
		size_t len;
		const uint8_t *m = fx_msg(f, i, &len);

		assert_int_equal(tc_msg_qdisc_parse(m, len, &out[i]), 0);
	}
	return n;
}

static const struct tc_msg_qdisc *find_qdisc(const struct tc_msg_qdisc *v,
                                             size_t n, uint32_t handle)
{
	for (size_t i = 0; i < n; i++) {
		if (v[i].handle == handle)
			return &v[i];
	}
	fail_msg("no qdisc %x:", handle >> 16);
	return NULL;
}

static void test_decode_htb_dumps(void **state)
{
	struct tc_msg_qdisc q[8];
	const struct tc_msg_qdisc *d;
	size_t n;

	(void)state;
	n = dump_qdiscs("dump-htb-qdisc", q, ARRAY_SIZE(q));
	assert_int_equal(n, 4);
	d = find_qdisc(q, n, H(4791, 0));
	assert_string_equal(d->kind, "htb");
	assert_true(d->known && d->roced && !d->deleted);
	assert_int_equal(d->q.u.htb.r2q, 10);
	assert_true(tc_msg_qdisc_same(&q_htb, &d->q));
	d = find_qdisc(q, n, H(4713, 0));
	assert_true(d->known && d->roced);
	assert_int_equal(d->q.queue, 3);
	assert_true(tc_msg_qdisc_same(&q_bfifo, &d->q));
	d = find_qdisc(q, n, H(4710, 0));
	assert_true(tc_msg_qdisc_same(&q_pfifo, &d->q));
	assert_int_equal(d->q.queue, 0);
	/* clsact: fixed kernel handle, plan's handle/parent */
	d = find_qdisc(q, n, H(ffff, 0));
	assert_int_equal(d->parent, PLAN_H_CLSACT);
	assert_true(d->known && !d->roced);
	assert_true(tc_msg_qdisc_same(&q_clsact, &d->q));
}

static void test_decode_htb_class_dump(void **state)
{
	const struct tcfx *f = fx("dump-htb-class");
	const struct plan_class *want[] = {&c_root, &c_q0, &c_q3, &c_rate64};
	struct tc_msg_class d;
	size_t len;

	(void)state;
	assert_int_equal(fx_count(f), ARRAY_SIZE(want));
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		const uint8_t *m = fx_msg(f, i, &len);

		assert_int_equal(tc_msg_class_parse(m, len, &d), 0);
		assert_string_equal(d.kind, "htb");
		assert_true(d.known && d.roced);
		assert_int_equal(d.c.classid, want[i]->classid);
		/* top-level classes come back with parent root */
		assert_int_equal(d.c.parent, want[i]->parent);
		assert_int_equal(d.c.rate, want[i]->rate);
		assert_int_equal(d.c.ceil, want[i]->ceil);
		assert_int_equal(d.c.prio, want[i]->prio);
		assert_int_equal(d.c.queue, want[i]->queue);
		assert_true(tc_msg_class_same(want[i], &d.c));
	}
	/* quantum 0 in the plan: the kernel's rate / r2q, clamped; the
	 * buffer tc computed; LEN may run past the message */
	assert_int_equal(tc_msg_class_parse(f->data, f->len, &d), 0);
	assert_int_equal(d.c.classid, H(4791, 1));
	assert_int_equal(d.c.quantum, 200000);
	assert_int_equal(d.buffer, 15);
	/* the leaf of 4791:13 is the bfifo */
	assert_int_equal(tc_msg_class_parse(fx_msg(f, 2, &len), len, &d), 0);
	assert_int_equal(d.leaf, H(4713, 0));
	assert_int_equal(d.c.quantum, 60000);
}

/* Decode a filter dump into rules only. */
static size_t dump_rules(const char *name, struct tc_msg_filter *out,
                         size_t max, size_t *headers)
{
	const struct tcfx *f = fx(name);
	size_t n = 0, total = fx_count(f);

	*headers = 0;
	for (size_t i = 0; i < total; i++) {
		struct tc_msg_filter d;
		size_t len;
		const uint8_t *m = fx_msg(f, i, &len);

		assert_int_equal(tc_msg_filter_parse(m, len, &d), 0);
		assert_int_equal(d.chain, 0);
		if (!d.rule) {
			(*headers)++;
			continue;
		}
		assert_true(n < max);
		out[n++] = d;
	}
	return n;
}

static void test_decode_u32_dump(void **state)
{
	const struct plan_filter *want[] = {&f_u32_ip, &f_u32_ip6, &f_u32_all};
	struct tc_msg_filter r[8];
	size_t headers, n;

	(void)state;
	n = dump_rules("dump-htb-filter", r, ARRAY_SIZE(r), &headers);
	/* per prio: the header and u32's hash table 800: */
	assert_int_equal(headers, 6);
	assert_int_equal(n, ARRAY_SIZE(want));
	for (size_t i = 0; i < n; i++) {
		assert_string_equal(r[i].kind, "u32");
		assert_true(r[i].known && r[i].roced);
		/* u32 numbers its own handles: table 8xx:, node 800 */
		assert_int_equal(r[i].handle & 0xf0000fff, 0x80000800);
		assert_int_equal(r[i].f.dscp, want[i]->dscp);
		assert_int_equal(r[i].f.match_dscp, want[i]->match_dscp);
		assert_int_equal(r[i].f.classid, want[i]->classid);
		assert_true(tc_msg_filter_same(want[i], &r[i].f));
	}
}

/* class-default as the kernel dumps it: u32, protocol all, one key of
 * mask 0. It is a rule of roced's own shape, so observing it after an
 * apply finds nothing to change. */
static void test_decode_u32_protoall_dump(void **state)
{
	struct tc_msg_filter r[4];
	size_t headers, n;

	(void)state;
	n = dump_rules("dump-htb-filter-all", r, ARRAY_SIZE(r), &headers);
	assert_int_equal(headers, 2);
	assert_int_equal(n, 1);
	assert_string_equal(r[0].kind, "u32");
	assert_true(r[0].known && r[0].roced);
	assert_null(r[0].why);
	assert_int_equal(r[0].f.protocol, ETH_P_ALL);
	assert_int_equal(r[0].f.prio, 4793);
	assert_false(r[0].f.match_dscp);
	assert_int_equal(r[0].f.action, PLAN_ACT_CLASSID);
	assert_int_equal(r[0].f.classid, H(4791, 10));
	assert_true(tc_msg_filter_same(&f_u32_protoall, &r[0].f));
}

/* The one bpf rule as the kernel dumps it (with not_in_hw and its own
 * handle): what roced planned, so an unchanged plan writes nothing. */
static void test_decode_bpf_dump(void **state)
{
	struct tc_msg_filter r[4];
	size_t headers, n;

	(void)state;
	n = dump_rules("dump-htb-filter-bpf", r, ARRAY_SIZE(r), &headers);
	assert_int_equal(headers, 1);
	assert_int_equal(n, 1);
	assert_string_equal(r[0].kind, "bpf");
	assert_true(r[0].known && r[0].roced);
	assert_null(r[0].why);
	assert_int_equal(r[0].handle, 1);
	assert_int_equal(r[0].f.kind, PLAN_FILTER_BPF);
	assert_int_equal(r[0].f.protocol, ETH_P_ALL);
	assert_int_equal(r[0].f.classid, H(4791, 10));
	assert_int_equal(r[0].f.bpf_len, 4);
	assert_memory_equal(r[0].f.bpf, f_bpf_ipv4.bpf,
	                    4 * sizeof(f_bpf_ipv4.bpf[0]));
	assert_true(tc_msg_filter_same(&f_bpf_ipv4, &r[0].f));
}

/* A rule that does not decode says why, and keeps what names it. */
static void test_decode_filter_why(void **state)
{
	const struct tcfx *f = fx("dump-htb-filter-all");
	struct tc_msg_filter d;
	uint8_t m[256] __attribute__((aligned(4)));
	uint32_t nlen;
	size_t len;
	const uint8_t *orig = fx_msg(f, 2, &len);

	(void)state;
	assert_true(len <= sizeof(m));
	memcpy(m, orig, len);
	/* TCA_OPTIONS at 52 (headers 36, kind 8, chain 8) holds TCA_U32_SEL
	 * (36 bytes at 56); its selector claims a key more than it carries */
	assert_int_equal(m[56], 0x24);
	assert_int_equal(m[62], 1); /* sel.nkeys */
	m[62] = 2;
	assert_int_equal(tc_msg_filter_parse(m, len, &d), -EINVAL);
	assert_non_null(d.why);
	assert_non_null(strstr(d.why, "u32"));
	assert_int_equal(d.f.prio, 4793);
	assert_int_equal(d.f.protocol, ETH_P_ALL);
	assert_string_equal(d.kind, "u32");
	assert_false(d.rule);
	/* a message cut inside its headers */
	memcpy(m, orig, len);
	nlen = 20;
	memcpy(m, &nlen, sizeof(nlen));
	assert_int_equal(tc_msg_filter_parse(m, len, &d), -EINVAL);
	assert_non_null(d.why);
}

static void test_decode_fullkernel_dumps(void **state)
{
	const struct plan_filter *ingress[] = {
	    &f_flower_skbedit,
	    &f_flower_vlan,
	    &f_flower_vlan_dscp,
	    &f_u32_ip6_skbedit,
	};
	struct plan_filter egress[2] = {f_flower_classid, f_flower_ip6_classid};
	struct plan_qdisc red10 = q_red_10g, red1 = q_red_1g;
	struct tc_msg_qdisc q[8];
	const struct tc_msg_qdisc *d;
	struct tc_msg_filter r[8];
	size_t n, headers;

	(void)state;
	n = dump_qdiscs("dump-ets-qdisc", q, ARRAY_SIZE(q));
	d = find_qdisc(q, n, H(4791, 0));
	assert_true(d->known && d->roced);
	assert_true(tc_msg_qdisc_same(&q_ets, &d->q));
	assert_int_equal(d->q.u.ets.quanta[1], 4500);
	assert_int_equal(d->q.u.ets.band_queue[0], -1);
	/* red leaves sit on bands 5 (4791:5) and 2 in this dump */
	d = find_qdisc(q, n, H(4713, 0));
	assert_true(d->known && d->roced && d->q.u.red.ecn);
	assert_int_equal(d->q.u.red.qth_max, 3072000);
	assert_true(tc_msg_qdisc_same(&red10, &d->q));
	d = find_qdisc(q, n, H(4716, 0));
	assert_true(d->q.u.red.harddrop);
	assert_true(tc_msg_qdisc_same(&red1, &d->q));
	/* a RED without ecn is another qdisc */
	red1.u.red.ecn = false;
	assert_false(tc_msg_qdisc_same(&red1, &d->q));

	n = dump_qdiscs("dump-prio-qdisc", q, ARRAY_SIZE(q));
	assert_int_equal(n, 1);
	assert_true(q[0].known);
	assert_true(tc_msg_qdisc_same(&q_prio, &q[0].q));

	/* ets classes are not HTB classes: reported, not decoded */
	{
		const struct tcfx *f = fx("dump-ets-class");

		for (size_t i = 0; i < fx_count(f); i++) {
			struct tc_msg_class c;
			size_t len;
			const uint8_t *m = fx_msg(f, i, &len);

			assert_int_equal(tc_msg_class_parse(m, len, &c), 0);
			assert_false(c.known);
			assert_true(!strcmp(c.kind, "ets") ||
			            !strcmp(c.kind, "red"));
		}
	}

	n = dump_rules("dump-ets-filter", r, ARRAY_SIZE(r), &headers);
	assert_int_equal(n, 2);
	assert_int_equal(headers, 2);
	for (size_t i = 0; i < n; i++) {
		egress[i].classid = H(4791, 5);
		assert_string_equal(r[i].kind, "flower");
		assert_true(r[i].known && r[i].roced);
		assert_true(tc_msg_filter_same(&egress[i], &r[i].f));
	}

	n = dump_rules("dump-clsact-ingress", r, ARRAY_SIZE(r), &headers);
	assert_int_equal(n, ARRAY_SIZE(ingress));
	for (size_t i = 0; i < n; i++) {
		if (!r[i].known)
			fail_msg("ingress rule %zu not known", i);
		assert_int_equal(r[i].f.parent, PLAN_H_CLSACT_INGRESS);
		if (!tc_msg_filter_same(ingress[i], &r[i].f))
			fail_msg("ingress rule %zu differs", i);
	}
	assert_int_equal(r[1].f.vlan_ethtype, 0);
	assert_int_equal(r[2].f.vlan_ethtype, ETH_P_IP);
}

/* --- malformed input ----------------------------------------------------- */

/* Run every decoder on M; at most one may take the message type. Returns
 * that decoder's result, or -ENOMSG. */
static int parse_any(const uint8_t *m, size_t len)
{
	struct tc_msg_qdisc q;
	struct tc_msg_class c;
	struct tc_msg_filter f;
	int r[3], ret = -ENOMSG, taken = 0;

	r[0] = tc_msg_qdisc_parse(m, len, &q);
	r[1] = tc_msg_class_parse(m, len, &c);
	r[2] = tc_msg_filter_parse(m, len, &f);
	for (int i = 0; i < 3; i++) {
		assert_true(r[i] == 0 || r[i] == -EINVAL || r[i] == -ENOMSG);
		if (r[i] != -ENOMSG) {
			taken++;
			ret = r[i];
		}
	}
	/* too short to have a type: everyone refuses it */
	if (len < 16) {
		assert_int_equal(taken, 3);
		return -EINVAL;
	}
	assert_true(taken <= 1);
	if (!r[0])
		assert_true(strlen(q.kind) < TC_MSG_KIND_MAX);
	if (!r[1])
		assert_true(strlen(c.kind) < TC_MSG_KIND_MAX);
	if (!r[2])
		assert_true(strlen(f.kind) < TC_MSG_KIND_MAX);
	return ret;
}

/* Every message of every fixture, cut short and with bytes changed, in an
 * exactly-sized heap copy so that ASan sees any read past its end. */
static void test_mutations(void **state)
{
	static const uint8_t xors[] = {0x01, 0x04, 0x80, 0xff};
	static const uint16_t lens[] = {0, 1, 3, 4, 5, 7, 8, 0x7fff, 0xffff};
	size_t runs = 0;

	(void)state;
	for (size_t fi = 0; fi < ARRAY_SIZE(tcfx_all); fi++) {
		const struct tcfx *f = &tcfx_all[fi];
		size_t count = fx_count(f);

		for (size_t mi = 0; mi < count; mi++) {
			size_t len;
			const uint8_t *orig = fx_msg(f, mi, &len);
			uint8_t *m;

			/* the buffer ends before nlmsg_len says */
			for (size_t cut = 0; cut < len; cut++) {
				m = malloc(cut ? cut : 1);
				assert_non_null(m);
				memcpy(m, orig, cut);
				assert_int_not_equal(parse_any(m, cut), 0);
				/* ... and nlmsg_len agrees with the cut */
				if (cut >= 4) {
					uint32_t l = (uint32_t)cut;

					memcpy(m, &l, 4);
					if (parse_any(m, cut) == 0)
						assert_true(cut >= 36);
				}
				free(m);
				runs++;
			}
			m = malloc(len);
			assert_non_null(m);
			memcpy(m, orig, len);
			/* the kernel's messages all decode; of tc's requests,
			 * dumps and deletes are for no decoder */
			if (!strncmp(f->name, "dump-", 5))
				assert_int_equal(parse_any(m, len), 0);
			for (size_t i = 0; i < len; i++) {
				for (size_t x = 0; x < ARRAY_SIZE(xors); x++) {
					m[i] ^= xors[x];
					parse_any(m, len);
					m[i] = orig[i];
					runs++;
				}
				if (i % 2)
					continue;
				for (size_t k = 0; k < ARRAY_SIZE(lens); k++) {
					memcpy(m + i, &lens[k], 2);
					parse_any(m, len);
					memcpy(m + i, orig + i, 2);
					runs++;
				}
			}
			free(m);
		}
	}
	assert_true(runs > 100000);
}

/* --- encoder limits --------------------------------------------------------
 */

static void test_encode_small_buffer(void **state)
{
	static uint32_t full[TC_MSG_BUF_SIZE / 4];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(req_cases); i++) {
		const struct req_case *rc = &req_cases[i];
		size_t need;

		assert_int_equal(req_encode(rc, full, sizeof(full), 3, 9), 0);
		need = full[0];
		/* every size short of the message: no write past it */
		for (size_t size = 0; size < need; size++) {
			uint32_t *b = malloc(size ? size : 1);

			assert_non_null(b);
			assert_int_equal(req_encode(rc, b, size, 3, 9),
			                 -EMSGSIZE);
			free(b);
		}
	}
	/* a misaligned or missing buffer */
	assert_int_equal(
	    tc_msg_qdisc((uint8_t *)full + 1, 100, TC_MSG_ADD, 1, 1, &q_htb),
	    -EINVAL);
	assert_int_equal(tc_msg_qdisc(NULL, 100, TC_MSG_ADD, 1, 1, &q_htb),
	                 -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fixture_files),
	    cmocka_unit_test(test_encode_as_tc),
	    cmocka_unit_test(test_clsact_mark),
	    cmocka_unit_test(test_every_request_checked),
	    cmocka_unit_test(test_decode_tc_requests),
	    cmocka_unit_test(test_roundtrip),
	    cmocka_unit_test(test_decode_htb_dumps),
	    cmocka_unit_test(test_decode_htb_class_dump),
	    cmocka_unit_test(test_decode_u32_dump),
	    cmocka_unit_test(test_decode_u32_protoall_dump),
	    cmocka_unit_test(test_decode_filter_why),
	    cmocka_unit_test(test_decode_bpf_dump),
	    cmocka_unit_test(test_decode_bpf_shapes),
	    cmocka_unit_test(test_encode_bpf_invalid),
	    cmocka_unit_test(test_same_bpf),
	    cmocka_unit_test(test_decode_fullkernel_dumps),
	    cmocka_unit_test(test_mutations),
	    cmocka_unit_test(test_encode_small_buffer),
	    cmocka_unit_test(test_encode_invalid),
	    cmocka_unit_test(test_class_burst_round_trip),
	    cmocka_unit_test(test_class_rtab_cache),
	    cmocka_unit_test(test_decode_foreign),
	    cmocka_unit_test(test_decode_not_ours),
	    cmocka_unit_test(test_decode_u32_shapes),
	    cmocka_unit_test(test_same),
	    cmocka_unit_test(test_ownership),
	    cmocka_unit_test(test_red_wlog0),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
