/* Tests for the route cache's lookups (daemon/kernel/route.c) and the
 * routed feeders they give contrib (daemon/agent/contrib.c), on caches
 * filled by hand, no kernel: IPv4 and IPv6 prefixes, ECMP, the local
 * table and reject routes; the rules as the kernel walks them for a
 * forwarded frame (iif, destination, goto, nop, throw, blackhole,
 * suppress_prefixlength, invert, oif, an interface that is not there),
 * a rule the counters cannot decide (both outcomes), a VRF's (cannot
 * tell); and contrib_counts counting an IPv6 incast's feeders toward the
 * congested routed port, not a bystander's, by the table its iif rule
 * picks. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <linux/fib_rules.h>
#include <linux/rtnetlink.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "agent/contrib.h"
#include "kernel/route.h"
#include "plan/classify.h"

static struct route_ip ip6(const char *s)
{
	struct route_ip a;

	memset(&a, 0, sizeof(a));
	assert_int_equal(inet_pton(AF_INET6, s, a.b), 1);
	return a;
}

/* A unicast route of FAMILY DST/LEN in TABLE (0: main) out of OIF, and
 * out of OIF2 too when not 0 (ECMP). */
static void rt(struct route_cache *c, int family, struct route_ip dst,
               unsigned len, uint32_t table, int oif, int oif2)
{
	struct route_rt r;

	memset(&r, 0, sizeof(r));
	r.family = (uint8_t)family;
	r.dst = dst;
	r.len = (uint8_t)len;
	r.type = RTN_UNICAST;
	r.table = table;
	r.nh[r.nnh++].oif = oif;
	if (oif2)
		r.nh[r.nnh++].oif = oif2;
	assert_int_equal(route_add(c, &r), 0);
}

/* A route of TYPE (no next hop) of FAMILY DST/LEN in TABLE. */
static void rt_type(struct route_cache *c, int family, struct route_ip dst,
                    unsigned len, uint32_t table, uint8_t type)
{
	struct route_rt r;

	memset(&r, 0, sizeof(r));
	r.family = (uint8_t)family;
	r.dst = dst;
	r.len = (uint8_t)len;
	r.type = type;
	r.table = table;
	assert_int_equal(route_add(c, &r), 0);
}

static struct route_rule rule(int family, uint32_t prio, uint8_t action,
                              uint32_t table)
{
	struct route_rule r;

	memset(&r, 0, sizeof(r));
	r.family = (uint8_t)family;
	r.prio = prio;
	r.action = action;
	r.table = table;
	r.suppress_len = -1;
	return r;
}

/* The kernel's default rules of FAMILY. */
static void default_rules(struct route_cache *c, int family)
{
	struct route_rule r = rule(family, 0, FR_ACT_TO_TBL, RT_TABLE_LOCAL);

	assert_int_equal(route_add_rule(c, &r), 0);
	r = rule(family, 32766, FR_ACT_TO_TBL, RT_TABLE_MAIN);
	assert_int_equal(route_add_rule(c, &r), 0);
	r = rule(family, 32767, FR_ACT_TO_TBL, RT_TABLE_DEFAULT);
	assert_int_equal(route_add_rule(c, &r), 0);
}

/* The next hops' interfaces for FAMILY/DST in on IIF, as a sorted
 * string ("3,4"; "" none; "?" when the lookup cannot tell). */
static const char *look(const struct route_cache *c, int family,
                        struct route_ip dst, int iif)
{
	static char out[64];
	struct route_nh nh[ROUTE_NH_MAX];
	int oif[ROUTE_NH_MAX];
	unsigned flags;
	size_t n = route_lookup(c, family, &dst, iif, nh, ROUTE_NH_MAX, &flags);
	size_t len = 0;

	if (flags & ROUTE_UNSURE)
		return "?";
	for (size_t i = 0; i < n; i++)
		oif[i] = nh[i].oif;
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && oif[j] < oif[j - 1]; j--) {
			int t = oif[j];

			oif[j] = oif[j - 1];
			oif[j - 1] = t;
		}
	out[0] = '\0';
	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(out + len, sizeof(out) - len, "%s%d",
		                        i ? "," : "", oif[i]);
	return out;
}

#define V4(a)    route_ip4(a)
#define L4(c, a) look(c, AF_INET, V4(a), 1)

static void test_families(void **state)
{
	struct route_cache c;

	(void)state;
	route_init(&c);
	rt(&c, AF_INET, V4(0x0a000100u), 24, 0, 1, 0);
	rt(&c, AF_INET6, ip6("fd00:1::"), 64, 0, 2, 0);
	rt(&c, AF_INET6, ip6("fd00:2::"), 48, 0, 3, 4);
	rt(&c, AF_INET6, ip6("fd00:2:0:1::7"), 128, 0, 5, 0);
	rt(&c, AF_INET6, ip6("::"), 0, 0, 6, 0);
	/* an IPv6 route never answers IPv4, nor the other way */
	assert_string_equal(L4(&c, 0x0a000105u), "1");
	assert_string_equal(L4(&c, 0x0b000105u), "");
	assert_string_equal(look(&c, AF_INET6, ip6("fd00:1::9"), 1), "2");
	assert_string_equal(look(&c, AF_INET6, ip6("fd00:2:0:9::1"), 1), "3,4");
	/* the longest prefix, to the last bit */
	assert_string_equal(look(&c, AF_INET6, ip6("fd00:2:0:1::7"), 1), "5");
	assert_string_equal(look(&c, AF_INET6, ip6("fd00:2:0:1::6"), 1), "3,4");
	assert_string_equal(look(&c, AF_INET6, ip6("2001:db8::1"), 1), "6");
	assert_true(route_via(&c, 5));
	/* the local table's own address and multicast, and a reject route:
	 * out of no port */
	rt_type(&c, AF_INET6, ip6("fd00:1::1"), 128, RT_TABLE_LOCAL, RTN_LOCAL);
	rt_type(&c, AF_INET6, ip6("ff00::"), 8, RT_TABLE_LOCAL, RTN_MULTICAST);
	rt_type(&c, AF_INET6, ip6("fd00:3::"), 64, 0, RTN_UNREACHABLE);
	assert_string_equal(look(&c, AF_INET6, ip6("fd00:1::1"), 1), "");
	assert_string_equal(look(&c, AF_INET6, ip6("ff02::1"), 1), "");
	assert_string_equal(look(&c, AF_INET6, ip6("fd00:3::1"), 1), "");
	assert_string_equal(look(&c, AF_INET6, ip6("fd00:1::2"), 1), "2");
	/* link-local: never forwarded, and no route through a port */
	rt(&c, AF_INET6, ip6("fe80::"), 64, 0, 8, 0);
	assert_string_equal(look(&c, AF_INET6, ip6("fe80::1"), 1), "");
	assert_false(route_via(&c, 8));
	route_free(&c);
}

/* Two IPv6 tables: main, and 100 for what comes in on interface 7 (a
 * VRF-lite by iif). */
static void test_rules_iif_and_dst(void **state)
{
	struct route_cache c;
	struct route_rule r;

	(void)state;
	route_init(&c);
	default_rules(&c, AF_INET6);
	r = rule(AF_INET6, 100, FR_ACT_TO_TBL, 100);
	r.iif = 7;
	assert_int_equal(route_add_rule(&c, &r), 0);
	rt(&c, AF_INET6, ip6("fd00:9::"), 64, 0, 1, 0);
	rt(&c, AF_INET6, ip6("fd00:9::"), 64, 100, 2, 0);
	rt(&c, AF_INET6, ip6("fd00:8::"), 64, 0, 3, 0);
	assert_string_equal(look(&c, AF_INET6, ip6("fd00:9::1"), 6), "1");
	assert_string_equal(look(&c, AF_INET6, ip6("fd00:9::1"), 7), "2");
	/* what table 100 has no route for: main's */
	assert_string_equal(look(&c, AF_INET6, ip6("fd00:8::1"), 7), "3");
	/* IPv4 has no rules of its own here: the default ones */
	rt(&c, AF_INET, V4(0x0a090000u), 16, 100, 4, 0);
	rt(&c, AF_INET, V4(0x0a090000u), 16, 0, 5, 0);
	assert_string_equal(look(&c, AF_INET, V4(0x0a090001u), 7), "5");
	/* a destination rule, inverted: all but fd00:9::/64 to table 100 */
	route_clear(&c);
	default_rules(&c, AF_INET6);
	r = rule(AF_INET6, 100, FR_ACT_TO_TBL, 100);
	r.dst = ip6("fd00:9::");
	r.dst_len = 64;
	r.invert = true;
	assert_int_equal(route_add_rule(&c, &r), 0);
	rt(&c, AF_INET6, ip6("::"), 0, 100, 2, 0);
	rt(&c, AF_INET6, ip6("::"), 0, 0, 1, 0);
	assert_string_equal(look(&c, AF_INET6, ip6("fd00:9::1"), 6), "1");
	assert_string_equal(look(&c, AF_INET6, ip6("fd00:7::1"), 6), "2");
	/* an interface that is not there matches nothing; an oif rule
	 * never matches a forwarded frame */
	route_clear(&c);
	default_rules(&c, AF_INET6);
	r = rule(AF_INET6, 10, FR_ACT_TO_TBL, 100);
	r.iif = -1;
	assert_int_equal(route_add_rule(&c, &r), 0);
	r.iif = 0;
	r.never = true;
	assert_int_equal(route_add_rule(&c, &r), 0);
	rt(&c, AF_INET6, ip6("::"), 0, 100, 2, 0);
	rt(&c, AF_INET6, ip6("::"), 0, 0, 1, 0);
	assert_string_equal(look(&c, AF_INET6, ip6("fd00:7::1"), 6), "1");
	route_free(&c);
}

/* goto, nop, throw, blackhole, suppress_prefixlength. */
static void test_rules_actions(void **state)
{
	struct route_cache c;
	struct route_rule r;

	(void)state;
	route_init(&c);
	default_rules(&c, AF_INET);
	rt(&c, AF_INET, V4(0), 0, 0, 1, 0);
	rt(&c, AF_INET, V4(0x0a010000u), 16, 0, 2, 0);
	rt(&c, AF_INET, V4(0x0a000000u), 8, 200, 3, 0);
	rt_type(&c, AF_INET, V4(0x0a010000u), 16, 200, RTN_THROW);
	/* 10: goto 30 for what comes in on 6 (skipping 20's blackhole);
	 * 20: blackhole; 25: nop; 30: table 200 */
	r = rule(AF_INET, 10, FR_ACT_GOTO, 0);
	r.goto_prio = 30;
	r.iif = 6;
	assert_int_equal(route_add_rule(&c, &r), 0);
	r = rule(AF_INET, 20, FR_ACT_BLACKHOLE, 0);
	r.dst = V4(0x0a000000u);
	r.dst_len = 8;
	assert_int_equal(route_add_rule(&c, &r), 0);
	r = rule(AF_INET, 25, FR_ACT_NOP, 0);
	assert_int_equal(route_add_rule(&c, &r), 0);
	r = rule(AF_INET, 30, FR_ACT_TO_TBL, 200);
	assert_int_equal(route_add_rule(&c, &r), 0);
	assert_string_equal(look(&c, AF_INET, V4(0x0a020001u), 6), "3");
	assert_string_equal(look(&c, AF_INET, V4(0x0a020001u), 5), "");
	/* a throw route: the next rule (main) */
	assert_string_equal(look(&c, AF_INET, V4(0x0a010001u), 6), "2");
	/* outside 10/8: 20 does not match, 30 has no route, main */
	assert_string_equal(look(&c, AF_INET, V4(0x0b000001u), 5), "1");
	/* suppress_prefixlength 0 on main (as wg-quick sets it): its
	 * default route is refused, the /16 is not */
	route_clear(&c);
	r = rule(AF_INET, 100, FR_ACT_TO_TBL, RT_TABLE_MAIN);
	r.suppress_len = 0;
	assert_int_equal(route_add_rule(&c, &r), 0);
	r = rule(AF_INET, 200, FR_ACT_TO_TBL, 51820);
	assert_int_equal(route_add_rule(&c, &r), 0);
	rt(&c, AF_INET, V4(0), 0, 0, 1, 0);
	rt(&c, AF_INET, V4(0x0a010000u), 16, 0, 2, 0);
	rt(&c, AF_INET, V4(0), 0, 51820, 9, 0);
	assert_string_equal(L4(&c, 0x0a010001u), "2");
	assert_string_equal(L4(&c, 0x0b010001u), "9");
	route_free(&c);
}

/* A rule by fwmark (or source): it may or may not match, both outcomes
 * count; one whose match is decided as false still does not. A VRF's
 * rule (l3mdev, table 0): cannot tell. */
static void test_rules_undecided(void **state)
{
	struct route_cache c;
	struct route_rule r;

	(void)state;
	route_init(&c);
	default_rules(&c, AF_INET6);
	rt(&c, AF_INET6, ip6("::"), 0, 0, 1, 0);
	rt(&c, AF_INET6, ip6("::"), 0, 100, 2, 0);
	rt(&c, AF_INET6, ip6("::"), 0, 101, 3, 0);
	r = rule(AF_INET6, 10, FR_ACT_TO_TBL, 100);
	r.undecided = true; /* fwmark 7 */
	assert_int_equal(route_add_rule(&c, &r), 0);
	r = rule(AF_INET6, 11, FR_ACT_TO_TBL, 101);
	r.undecided = true;
	r.iif = 8; /* and iif 8: decided when the frame is not from 8 */
	assert_int_equal(route_add_rule(&c, &r), 0);
	assert_string_equal(look(&c, AF_INET6, ip6("fd00::1"), 6), "1,2");
	assert_string_equal(look(&c, AF_INET6, ip6("fd00::1"), 8), "1,2,3");
	/* undecided goto: both the jump and the fall-through */
	route_clear(&c);
	default_rules(&c, AF_INET6);
	rt(&c, AF_INET6, ip6("::"), 0, 0, 1, 0);
	rt(&c, AF_INET6, ip6("::"), 0, 100, 2, 0);
	r = rule(AF_INET6, 10, FR_ACT_GOTO, 0);
	r.undecided = true;
	r.goto_prio = 40;
	assert_int_equal(route_add_rule(&c, &r), 0);
	r = rule(AF_INET6, 20, FR_ACT_UNREACHABLE, 0);
	assert_int_equal(route_add_rule(&c, &r), 0);
	r = rule(AF_INET6, 40, FR_ACT_TO_TBL, 100);
	assert_int_equal(route_add_rule(&c, &r), 0);
	assert_string_equal(look(&c, AF_INET6, ip6("fd00::1"), 6), "2");
	/* a VRF's rule */
	route_clear(&c);
	default_rules(&c, AF_INET6);
	rt(&c, AF_INET6, ip6("::"), 0, 0, 1, 0);
	r = rule(AF_INET6, 1000, FR_ACT_TO_TBL, 0);
	r.undecided = true;
	assert_int_equal(route_add_rule(&c, &r), 0);
	assert_string_equal(look(&c, AF_INET6, ip6("fd00::1"), 6), "?");
	assert_string_equal(L4(&c, 0x0a000001u), "");
	route_free(&c);
}

/* --- contrib: an IPv6 incast through a router --- */

struct fake {
	struct contrib_entry e[8];
	size_t n;
};

static int fk_open(void *impl, void **state)
{
	*state = impl;
	return 0;
}

static void fk_close(void *impl, void *state)
{
	(void)impl;
	(void)state;
}

static int fk_read(void *impl, void *state, contrib_entry_fn cb, void *arg)
{
	struct fake *f = impl;

	(void)state;
	for (size_t i = 0; i < f->n; i++)
		cb(arg, &f->e[i]);
	return 0;
}

static int fk_fdb(void *impl, contrib_fdb_fn cb, void *arg)
{
	(void)impl;
	(void)cb;
	(void)arg;
	return 0;
}

static const struct contrib_ops fk_ops = {fk_open, fk_close, fk_read, fk_fdb};

static void fk_add(struct fake *f, int ifindex, int family, struct route_ip dst,
                   uint64_t packets)
{
	struct contrib_entry *e = &f->e[f->n++];

	memset(e, 0, sizeof(*e));
	e->ifindex = ifindex;
	e->mac[0] = 2;
	e->pcp = CLASSIFY_UNTAGGED;
	e->dscp = 26;
	e->family = (uint8_t)family;
	e->daddr = dst;
	e->packets = packets;
}

/* Routed ports 11-14 (no bridge), fd00:N::/64 out of 10+N. 11 and 12
 * send to fd00:3::2 (out of 13), 14 to fd00:1::2 (out of 11): 13's
 * feeders are 11 and 12, never 14. Then a rule sends what comes in on
 * 12 to table 100 (which routes fd00:3::/64 out of 14): 12 no longer
 * feeds 13. An IPv4 frame, and an IP frame whose destination was not
 * kept, count as they did. */
static void test_contrib_v6(void **state)
{
	static const int feeder[] = {11, 12, 14};
	static const int fmaster[] = {0, 0, 0};
	struct route_cache rc;
	struct contrib ct;
	struct fake f = {.n = 0};
	struct route_rule r;
	uint64_t out[3];
	char a[64];

	(void)state;
	route_init(&rc);
	for (int j = 1; j <= 4; j++) {
		snprintf(a, sizeof(a), "fd00:%d::", j);
		rt(&rc, AF_INET6, ip6(a), 64, 0, 10 + j, 0);
	}
	rt(&rc, AF_INET6, ip6("fd00:3::"), 64, 100, 14, 0);
	fk_add(&f, 11, AF_INET6, ip6("fd00:3::2"), 100);
	fk_add(&f, 12, AF_INET6, ip6("fd00:3::2"), 200);
	fk_add(&f, 14, AF_INET6, ip6("fd00:1::2"), 400);
	contrib_init(&ct, &fk_ops, &f);
	ct.routes = &rc;
	assert_int_equal(contrib_counts(&ct, 13, 0, NULL, CONTRIB_ANY_QUEUE,
	                                feeder, fmaster, 3, out, 0),
	                 0);
	assert_int_equal(out[0], 100);
	assert_int_equal(out[1], 200);
	assert_int_equal(out[2], 0);
	/* 11's queue: the bystander's */
	assert_int_equal(contrib_counts(&ct, 11, 0, NULL, CONTRIB_ANY_QUEUE,
	                                feeder, fmaster, 3, out, 0),
	                 0);
	assert_int_equal(out[0], 0);
	assert_int_equal(out[1], 0);
	assert_int_equal(out[2], 400);
	/* policy routing: 12's traffic goes out of 14 now */
	default_rules(&rc, AF_INET6);
	r = rule(AF_INET6, 100, FR_ACT_TO_TBL, 100);
	r.iif = 12;
	assert_int_equal(route_add_rule(&rc, &r), 0);
	assert_int_equal(contrib_counts(&ct, 13, 0, NULL, CONTRIB_ANY_QUEUE,
	                                feeder, fmaster, 3, out, 0),
	                 0);
	assert_int_equal(out[0], 100);
	assert_int_equal(out[1], 0);
	assert_int_equal(contrib_counts(&ct, 14, 0, NULL, CONTRIB_ANY_QUEUE,
	                                feeder, fmaster, 3, out, 0),
	                 0);
	assert_int_equal(out[1], 200);
	/* ... unless the rule cannot be decided (a fwmark too): both */
	for (size_t i = 0; i < rc.nru; i++)
		rc.ru[i].undecided |= rc.ru[i].prio == 100;
	assert_int_equal(contrib_counts(&ct, 13, 0, NULL, CONTRIB_ANY_QUEUE,
	                                feeder, fmaster, 3, out, 0),
	                 0);
	assert_int_equal(out[1], 200);
	/* IPv4 beside it; an IP frame without a destination: counted */
	f.n = 0;
	rt(&rc, AF_INET, V4(0x0a000300u), 24, 0, 13, 0);
	fk_add(&f, 11, AF_INET, V4(0x0a000302u), 5);
	fk_add(&f, 14, AF_INET, V4(0x0a000102u), 7);
	fk_add(&f, 12, 0, V4(0), 9);
	ct.read_ms = -1;
	assert_int_equal(contrib_counts(&ct, 13, 0, NULL, CONTRIB_ANY_QUEUE,
	                                feeder, fmaster, 3, out, 1000),
	                 0);
	assert_int_equal(out[0], 5);
	assert_int_equal(out[1], 9);
	assert_int_equal(out[2], 0);
	contrib_free(&ct);
	route_free(&rc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_families),
	    cmocka_unit_test(test_rules_iif_and_dst),
	    cmocka_unit_test(test_rules_actions),
	    cmocka_unit_test(test_rules_undecided),
	    cmocka_unit_test(test_contrib_v6),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
