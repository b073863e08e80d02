/* test_tc_stats: the qdisc/class statistics decoder, on hand-built
 * messages with known counters and on the kernel dumps captured in
 * tests/fixtures/tc/ (as C arrays in tc_msg_fixtures.h). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <libmnl/libmnl.h>
#include <linux/gen_stats.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>

#include "nlmsg/tc_stats.h"

#include "tc_msg_fixtures.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static union {
	uint8_t b[4096];
	uint64_t align;
} buf;

/* What the builder puts into a message. */
struct build {
	uint16_t type;
	const char *kind;
	bool stats2, flat, xstats_top, app, pkt64;
	size_t basic_len; /* 0: sizeof(struct gnet_stats_basic) */
	const void *app_data;
	size_t app_len;
};

static struct nlmsghdr *build_msg(const struct build *b)
{
	struct nlmsghdr *nlh;
	struct tcmsg *tcm;

	memset(buf.b, 0, sizeof(buf.b));
	nlh = mnl_nlmsg_put_header(buf.b);
	nlh->nlmsg_type = b->type;
	nlh->nlmsg_flags = NLM_F_MULTI;
	tcm = mnl_nlmsg_put_extra_header(nlh, sizeof(*tcm));
	tcm->tcm_ifindex = 7;
	tcm->tcm_handle = 0x47130000;
	tcm->tcm_parent = 0x47910014;
	mnl_attr_put_strz(nlh, TCA_KIND, b->kind);
	if (b->stats2) {
		struct gnet_stats_basic basic = {.bytes = 0x123456789aULL,
		                                 .packets = 4242};
		struct gnet_stats_queue q = {.qlen = 3,
		                             .backlog = 4500,
		                             .drops = 17,
		                             .requeues = 2,
		                             .overlimits = 99};
		struct nlattr *n = mnl_attr_nest_start(nlh, TCA_STATS2);

		mnl_attr_put(nlh, TCA_STATS_BASIC,
		             b->basic_len ? b->basic_len : sizeof(basic),
		             &basic);
		mnl_attr_put(nlh, TCA_STATS_QUEUE, sizeof(q), &q);
		if (b->pkt64)
			mnl_attr_put_u64(nlh, TCA_STATS_PKT64, 0x100000005ULL);
		if (b->app)
			mnl_attr_put(nlh, TCA_STATS_APP, b->app_len,
			             b->app_data);
		mnl_attr_nest_end(nlh, n);
	}
	if (b->flat) {
		struct tc_stats f = {.bytes = 1000,
		                     .packets = 10,
		                     .drops = 1,
		                     .overlimits = 2,
		                     .qlen = 4,
		                     .backlog = 5};

		mnl_attr_put(nlh, TCA_STATS, sizeof(f), &f);
	}
	if (b->xstats_top)
		mnl_attr_put(nlh, TCA_XSTATS, b->app_len, b->app_data);
	return nlh;
}

static const struct tc_red_xstats red_x = {
    .early = 5, .pdrop = 6, .other = 7, .marked = 12345};

static void test_red_stats2(void **state)
{
	struct build b = {.type = RTM_NEWQDISC,
	                  .kind = "red",
	                  .stats2 = true,
	                  .flat = true,
	                  .app = true,
	                  .app_data = &red_x,
	                  .app_len = sizeof(red_x)};
	struct nlmsghdr *nlh = build_msg(&b);
	struct tc_stats_obj o;

	(void)state;
	assert_int_equal(tc_stats_parse(nlh, nlh->nlmsg_len, &o), 0);
	assert_int_equal(o.obj, TC_MSG_QDISC);
	assert_int_equal(o.ifindex, 7);
	assert_int_equal(o.handle, 0x47130000);
	assert_int_equal(o.parent, 0x47910014);
	assert_string_equal(o.kind, "red");
	/* the nest wins over the flat struct */
	assert_true(o.st.basic);
	assert_int_equal(o.st.bytes, 0x123456789aULL);
	assert_int_equal(o.st.packets, 4242);
	assert_true(o.st.queue);
	assert_int_equal(o.st.qlen, 3);
	assert_int_equal(o.st.backlog, 4500);
	assert_int_equal(o.st.drops, 17);
	assert_int_equal(o.st.requeues, 2);
	assert_int_equal(o.st.overlimits, 99);
	assert_true(o.st.red);
	assert_int_equal(o.st.red_early, 5);
	assert_int_equal(o.st.red_pdrop, 6);
	assert_int_equal(o.st.red_other, 7);
	assert_int_equal(o.st.red_marked, 12345);
	assert_false(o.st.htb);
}

/* Old kernels: only TCA_STATS and TCA_XSTATS. */
static void test_flat_fallback(void **state)
{
	struct build b = {.type = RTM_NEWQDISC,
	                  .kind = "red",
	                  .flat = true,
	                  .xstats_top = true,
	                  .app_data = &red_x,
	                  .app_len = sizeof(red_x)};
	struct nlmsghdr *nlh = build_msg(&b);
	struct tc_stats_obj o;

	(void)state;
	assert_int_equal(tc_stats_parse(nlh, nlh->nlmsg_len, &o), 0);
	assert_true(o.st.basic);
	assert_int_equal(o.st.bytes, 1000);
	assert_int_equal(o.st.packets, 10);
	assert_int_equal(o.st.drops, 1);
	assert_int_equal(o.st.overlimits, 2);
	assert_int_equal(o.st.qlen, 4);
	assert_int_equal(o.st.backlog, 5);
	assert_true(o.st.red);
	assert_int_equal(o.st.red_marked, 12345);
}

static void test_pkt64(void **state)
{
	struct build b = {.type = RTM_NEWQDISC,
	                  .kind = "bfifo",
	                  .stats2 = true,
	                  .pkt64 = true};
	struct nlmsghdr *nlh = build_msg(&b);
	struct tc_stats_obj o;

	(void)state;
	assert_int_equal(tc_stats_parse(nlh, nlh->nlmsg_len, &o), 0);
	assert_int_equal(o.st.packets, 0x100000005ULL);
	assert_false(o.st.red);
}

static void test_htb_class(void **state)
{
	struct tc_htb_xstats hx = {.lends = 1,
	                           .borrows = 2,
	                           .giants = 0,
	                           .tokens = -50,
	                           .ctokens = 60};
	struct build b = {.type = RTM_NEWTCLASS,
	                  .kind = "htb",
	                  .stats2 = true,
	                  .app = true,
	                  .app_data = &hx,
	                  .app_len = sizeof(hx)};
	struct nlmsghdr *nlh = build_msg(&b);
	struct tc_stats_obj o;

	(void)state;
	assert_int_equal(tc_stats_parse(nlh, nlh->nlmsg_len, &o), 0);
	assert_int_equal(o.obj, TC_MSG_CLASS);
	assert_true(o.st.htb);
	assert_int_equal(o.st.htb_borrows, 2);
	assert_int_equal(o.st.htb_tokens, -50);
	assert_int_equal(o.st.htb_ctokens, 60);
	/* an htb xstats on a qdisc message is not a class's */
	b.type = RTM_NEWQDISC;
	nlh = build_msg(&b);
	assert_int_equal(tc_stats_parse(nlh, nlh->nlmsg_len, &o), 0);
	assert_false(o.st.htb);
}

/* Counter structs shorter than the kernel's are ignored, not over-read. */
static void test_short_structs(void **state)
{
	struct build b = {.type = RTM_NEWQDISC,
	                  .kind = "red",
	                  .stats2 = true,
	                  .basic_len = 8,
	                  .app = true,
	                  .app_data = &red_x,
	                  .app_len = sizeof(red_x) - 4};
	struct nlmsghdr *nlh = build_msg(&b);
	struct tc_stats_obj o;

	(void)state;
	assert_int_equal(tc_stats_parse(nlh, nlh->nlmsg_len, &o), 0);
	assert_false(o.st.basic);
	assert_true(o.st.queue);
	assert_false(o.st.red);
	/* 12 bytes (no tail padding) are enough for bytes + packets */
	b.basic_len = 12;
	nlh = build_msg(&b);
	assert_int_equal(tc_stats_parse(nlh, nlh->nlmsg_len, &o), 0);
	assert_true(o.st.basic);
	assert_int_equal(o.st.packets, 4242);
}

static void test_other_types(void **state)
{
	struct build b = {.type = RTM_DELQDISC, .kind = "red", .stats2 = true};
	struct nlmsghdr *nlh = build_msg(&b);
	struct tc_stats_obj o;

	(void)state;
	assert_int_equal(tc_stats_parse(nlh, nlh->nlmsg_len, &o), -ENOMSG);
	b.type = RTM_NEWTFILTER;
	nlh = build_msg(&b);
	assert_int_equal(tc_stats_parse(nlh, nlh->nlmsg_len, &o), -ENOMSG);
	assert_int_equal(tc_stats_parse(NULL, 0, &o), -EINVAL);
	assert_int_equal(tc_stats_parse(nlh, 3, &o), -EINVAL);
}

/* Every cut of a message, in an exactly-sized heap copy so that ASan sees
 * any read past its end, and a lying attribute length. */
static void test_truncation(void **state)
{
	struct build b = {.type = RTM_NEWQDISC,
	                  .kind = "red",
	                  .stats2 = true,
	                  .flat = true,
	                  .xstats_top = true,
	                  .app = true,
	                  .app_data = &red_x,
	                  .app_len = sizeof(red_x)};
	struct nlmsghdr *nlh = build_msg(&b);
	size_t len = nlh->nlmsg_len;
	struct tc_stats_obj o;

	(void)state;
	for (size_t cut = 0; cut < len; cut++) {
		uint8_t *m = malloc(cut ? cut : 1);

		assert_non_null(m);
		memcpy(m, buf.b, cut);
		assert_int_not_equal(tc_stats_parse(m, cut, &o), 0);
		if (cut >= sizeof(struct nlmsghdr)) {
			uint32_t l = (uint32_t)cut;

			/* nlmsg_len agrees with the cut: only a cut that
			 * falls between attributes may decode */
			memcpy(m, &l, 4);
			tc_stats_parse(m, cut, &o);
		}
		free(m);
	}
	/* TCA_STATS2 claims more than the message holds */
	for (size_t off = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(struct tcmsg));
	     off + 4 <= len;) {
		struct nlattr a;

		memcpy(&a, buf.b + off, sizeof(a));
		if ((a.nla_type & NLA_TYPE_MASK) == TCA_STATS2) {
			uint16_t big = (uint16_t)(len - off + 8);

			memcpy(buf.b + off, &big, 2);
			assert_int_equal(tc_stats_parse(buf.b, len, &o),
			                 -EINVAL);
			return;
		}
		off += NLMSG_ALIGN(a.nla_len);
	}
	fail_msg("no TCA_STATS2 in the built message");
}

/* The kernel's own dumps: every qdisc and class message decodes, with
 * counters present, and RED leaves carry their xstats. */
static void test_kernel_dumps(void **state)
{
	size_t nred = 0, nhtb = 0, nmsg = 0;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(tcfx_all); i++) {
		const struct tcfx *f = &tcfx_all[i];
		size_t off = 0;

		if (strncmp(f->name, "dump-", 5) ||
		    (!strstr(f->name, "-qdisc") && !strstr(f->name, "-class")))
			continue;
		while (off < f->len) {
			struct tc_stats_obj o;
			uint32_t l;

			memcpy(&l, f->data + off, 4);
			assert_int_equal(tc_stats_parse(f->data + off, l, &o),
			                 0);
			assert_true(o.st.basic);
			assert_true(o.st.queue);
			/* red's pseudo class has no xstats */
			if (o.obj == TC_MSG_QDISC && !strcmp(o.kind, "red"))
				assert_true(o.st.red);
			nred += o.st.red;
			nhtb += o.st.htb;
			nmsg++;
			off += (l + 3) & ~3u;
		}
	}
	assert_true(nmsg >= 10);
	assert_true(nred >= 2);
	assert_true(nhtb >= 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_red_stats2),
	    cmocka_unit_test(test_flat_fallback),
	    cmocka_unit_test(test_pkt64),
	    cmocka_unit_test(test_htb_class),
	    cmocka_unit_test(test_short_structs),
	    cmocka_unit_test(test_other_types),
	    cmocka_unit_test(test_truncation),
	    cmocka_unit_test(test_kernel_dumps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
