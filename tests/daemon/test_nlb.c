/* Tests for daemon/kernel/nlb.c against this machine's kernel, inside a private
 * network namespace that dies with the test process (nothing to clean). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdbool.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>

#include "kernel/nlb.h"

static int lo_index;

static void put_qdisc(struct nlb *nl, struct nlb_batch *b, const char *kind,
                      uint32_t handle, uint32_t parent)
{
	char *buf = nlb_batch_next(b, 256);
	struct nlmsghdr *nlh;
	struct tcmsg *t;

	assert_non_null(buf);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_NEWQDISC;
	nlh->nlmsg_flags = NLM_F_CREATE | NLM_F_EXCL;
	t = mnl_nlmsg_put_extra_header(nlh, sizeof(*t));
	t->tcm_ifindex = lo_index;
	t->tcm_handle = handle;
	t->tcm_parent = parent;
	mnl_attr_put_strz(nlh, TCA_KIND, kind);
	nlb_batch_commit(nl, b);
}

static int count_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct tcmsg *t = mnl_nlmsg_get_payload(nlh);
	int *n = data;

	if (nlh->nlmsg_type == RTM_NEWQDISC && t->tcm_ifindex == lo_index &&
	    t->tcm_handle == 0x10000)
		(*n)++;
	return MNL_CB_OK;
}

/* The handle of lo's root qdisc. */
static int count_root_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct tcmsg *t = mnl_nlmsg_get_payload(nlh);
	int *handle = data;

	if (nlh->nlmsg_type == RTM_NEWQDISC && t->tcm_ifindex == lo_index &&
	    t->tcm_parent == TC_H_ROOT)
		*handle = (int)t->tcm_handle;
	return MNL_CB_OK;
}

/* A root qdisc that replaces whatever is there. */
static void put_replace(struct nlb *nl, struct nlb_batch *b, const char *kind,
                        uint32_t handle)
{
	put_qdisc(nl, b, kind, handle, TC_H_ROOT);
	((struct nlmsghdr *)(b->buf + b->offsets[b->n - 1]))->nlmsg_flags =
	    NLM_F_REQUEST | NLM_F_CREATE | NLM_F_REPLACE;
}

/* A batch with one bad request in the middle: the failure is reported
 * with its index and the kernel's extack text, the others are applied. */
static void test_batch_reports_failure_index(void **state)
{
	struct nlb nl;
	struct nlb_batch b;
	struct nlb_error err;
	size_t nfailed = 0;
	int found = 0;
	char req[256];
	struct nlmsghdr *nlh;
	struct tcmsg *t;

	(void)state;
	assert_int_equal(nlb_open(&nl), 0);
	nlb_batch_init(&b);
	put_qdisc(&nl, &b, "pfifo", 0x10000, TC_H_ROOT);
	put_qdisc(&nl, &b, "no-such-qdisc", TC_H_MAKE(TC_H_CLSACT, 0),
	          TC_H_CLSACT);
	put_qdisc(&nl, &b, "clsact", TC_H_MAKE(TC_H_CLSACT, 0), TC_H_CLSACT);
	assert_int_equal(b.n, 3);
	assert_int_equal(nlb_batch_send(&nl, &b, &err, &nfailed), -ENOENT);
	assert_int_equal(err.index, 1);
	assert_int_equal(nfailed, 1);
	assert_true(err.msg[0] != '\0'); /* extack explains it */
	printf("# extack: %s\n", err.msg);

	/* The pfifo root went in: dump qdiscs and find it. */
	nlh = mnl_nlmsg_put_header(req);
	nlh->nlmsg_type = RTM_GETQDISC;
	t = mnl_nlmsg_put_extra_header(nlh, sizeof(*t));
	t->tcm_ifindex = lo_index;
	assert_int_equal(nlb_dump(&nl, nlh, count_cb, &found, NULL), 0);
	assert_int_equal(found, 1);

	/* A good batch right after a failed one succeeds: no stale ACK
	 * of the earlier batch is taken for this one's. */
	nlb_batch_reset(&b);
	put_qdisc(&nl, &b, "bfifo", 0x30000, TC_H_ROOT);
	((struct nlmsghdr *)b.buf)->nlmsg_flags =
	    NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_REPLACE;
	assert_int_equal(nlb_batch_send(&nl, &b, &err, &nfailed), 0);
	assert_int_equal(nfailed, 0);
	nlb_batch_free(&b);
	nlb_close(&nl);
}

struct fails {
	size_t n, last;
	bool ordered;
};

static void on_fail(size_t index, int err, const char *msg, void *data)
{
	struct fails *f = data;

	(void)msg;
	if (f->n && index <= f->last)
		f->ordered = false;
	f->last = index;
	f->n += err < 0;
}

/* Many requests pipelined in one batch: every ACK is collected. */
static void test_large_batch(void **state)
{
	struct nlb nl;
	struct nlb_batch b;
	struct nlb_error err;
	size_t nfailed = 99;

	(void)state;
	assert_int_equal(nlb_open(&nl), 0);
	nlb_batch_init(&b);
	/* 2000 refusals (no such parent) exercise chunking and ACK sweeps
	 * without needing 2000 devices. */
	for (int i = 0; i < 2000; i++)
		put_qdisc(&nl, &b, "pfifo",
		          TC_H_MAKE((uint32_t)(0x100 + i) << 16, 0),
		          TC_H_MAKE(0x7777u << 16, 1));
	assert_int_not_equal(nlb_batch_send(&nl, &b, &err, &nfailed), 0);
	assert_int_equal(nfailed, 2000);
	assert_int_equal(err.index, 0);

	/* The same batch again, each failure reported in order. */
	struct fails f = {.ordered = true};

	for (size_t i = 0; i < b.n; i++)
		((struct nlmsghdr *)(b.buf + b.offsets[i]))->nlmsg_seq =
		    ++nl.seq;
	b.first_seq = nl.seq - (uint32_t)b.n + 1;
	/* refusals are answers, not the exchange's failure */
	assert_int_equal(nlb_batch_send_each(&nl, &b, on_fail, &f), 0);
	assert_int_equal(f.n, 2000);
	assert_true(f.ordered);
	assert_int_equal(f.last, 1999);
	nlb_batch_free(&b);
	nlb_close(&nl);
}

/* A quiet batch: only the refusals and the last request are answered, and
 * every refusal is still reported with its index; the others went in. */
static void test_quiet_batch(void **state)
{
	struct nlb nl;
	struct nlb_batch b;
	struct fails f = {.ordered = true};
	int found = 0;
	char req[256];
	struct nlmsghdr *nlh;
	struct tcmsg *t;

	(void)state;
	assert_int_equal(nlb_open(&nl), 0);
	nlb_batch_init(&b);
	b.quiet = true;
	put_replace(&nl, &b, "no-such-qdisc", 0x40000); /* unknown kind */
	for (int i = 0; i < 500; i++)                   /* no such parent */
		put_qdisc(&nl, &b, "pfifo",
		          TC_H_MAKE((uint32_t)(0x100 + i) << 16, 0),
		          TC_H_MAKE(0x7777u << 16, 1));
	put_replace(&nl, &b, "pfifo", 0x50000); /* the good one */
	put_replace(&nl, &b, "no-such-qdisc", 0x40000);
	put_qdisc(&nl, &b, "pfifo", 0x60000, TC_H_MAKE(0x7777u << 16, 1));
	for (size_t i = 0; i < b.n; i++)
		assert_false(
		    ((struct nlmsghdr *)(b.buf + b.offsets[i]))->nlmsg_flags &
		    NLM_F_ACK);
	assert_int_equal(nlb_batch_send_each(&nl, &b, on_fail, &f), 0);
	assert_int_equal(f.n, 503);
	assert_true(f.ordered);
	assert_int_equal(f.last, 503); /* a refused last request ends it */

	/* The good one went in. */
	nlh = mnl_nlmsg_put_header(req);
	nlh->nlmsg_type = RTM_GETQDISC;
	t = mnl_nlmsg_put_extra_header(nlh, sizeof(*t));
	t->tcm_ifindex = lo_index;
	assert_int_equal(nlb_dump(&nl, nlh, count_root_cb, &found, NULL), 0);
	assert_int_equal(found, 0x50000);

	/* All good: the last request's ACK ends the wait. */
	nlb_batch_reset(&b);
	put_replace(&nl, &b, "bfifo", 0x60000);
	put_replace(&nl, &b, "pfifo", 0x70000);
	assert_int_equal(nlb_batch_send(&nl, &b, NULL, NULL), 0);
	found = 0;
	assert_int_equal(nlb_dump(&nl, nlh, count_root_cb, &found, NULL), 0);
	assert_int_equal(found, 0x70000);
	nlb_batch_free(&b);
	nlb_close(&nl);
}

static int setup(void **state)
{
	(void)state;
	if (geteuid() != 0 || unshare(CLONE_NEWNET) < 0) {
		fprintf(stderr, "test_nl: needs root to create a private "
		                "network namespace\n");
		return -1;
	}
	lo_index = (int)if_nametoindex("lo");
	return lo_index ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_batch_reports_failure_index),
	    cmocka_unit_test(test_large_batch),
	    cmocka_unit_test(test_quiet_batch),
	};
	if (geteuid() != 0) {
		printf("SKIP: test_nl needs root (network namespaces)\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, setup, NULL);
}
