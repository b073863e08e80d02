/* Tests for daemon/kernel/route.c against the kernel, inside a private
 * network namespace that dies with the test process: the dumps read the
 * rules and the tables they name, IPv4 and IPv6 (ECMP next hops
 * included, the local table's own addresses ending a lookup) and the
 * neighbours of both families; the notification socket hears a change
 * of a route, of a rule, and a refill says whether what the tables hold
 * changed. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/nlb.h"
#include "kernel/route.h"

static void sh(const char *cmd)
{
	assert_int_equal(system(cmd), 0);
}

/* Wait up to MS for a notification on C. */
static bool heard(struct route_cache *c, int ms)
{
	struct pollfd pfd = {.fd = route_fd(c), .events = POLLIN};

	for (int i = 0; i < ms / 10; i++) {
		if (poll(&pfd, 1, 10) > 0 && route_notified(c))
			return true;
	}
	return false;
}

static struct route_ip ip6(const char *s)
{
	struct route_ip a;

	memset(&a, 0, sizeof(a));
	assert_int_equal(inet_pton(AF_INET6, s, a.b), 1);
	return a;
}

/* An IPv4 lookup of A (host order) coming in on IIF. */
static size_t look4(struct route_cache *c, uint32_t a, int iif,
                    struct route_nh *nh)
{
	struct route_ip ip = route_ip4(a);

	return route_lookup(c, AF_INET, &ip, iif, nh, ROUTE_NH_MAX, NULL);
}

static void test_dump_and_follow(void **state)
{
	struct route_cache c;
	struct route_nh nh[ROUTE_NH_MAX];
	struct route_ip gw, none;
	struct nlb nl;
	int r1, r2;
	const uint8_t *mac;

	(void)state;
	memset(&none, 0, sizeof(none));
	sh("ip link add rt1 type veth peer name rt1p && "
	   "ip link add rt2 type veth peer name rt2p && "
	   "ip link set rt1 up && ip link set rt2 up && "
	   "ip link set rt1p up && ip link set rt2p up && "
	   "ip addr add 10.77.1.1/24 dev rt1 && "
	   "ip addr add 10.77.2.1/24 dev rt2 && "
	   "ip route add 10.78.0.0/16 nexthop via 10.77.1.2 dev rt1 "
	   "nexthop via 10.77.2.2 dev rt2 && "
	   "ip neigh replace 10.77.1.2 lladdr 02:00:00:00:77:01 dev rt1 "
	   "nud permanent");
	r1 = (int)if_nametoindex("rt1");
	r2 = (int)if_nametoindex("rt2");
	assert_true(r1 > 0 && r2 > 0);
	assert_int_equal(nlb_open(&nl), 0);
	route_init(&c);
	assert_true(route_listen(&c) >= 0);
	assert_int_equal(route_refresh(&c, &nl), 1);
	/* connected routes, and both ECMP next hops with their gateways */
	assert_int_equal(look4(&c, 0x0a4d0105u, r2, nh), 1);
	assert_int_equal(nh[0].oif, r1);
	assert_memory_equal(&nh[0].gw, &none, sizeof(none));
	assert_int_equal(look4(&c, 0x0a4e0909u, r1, nh), 2);
	assert_int_equal(nh[0].oif, r1);
	gw = route_ip4(0x0a4d0102u);
	assert_memory_equal(&nh[0].gw, &gw, sizeof(gw));
	assert_int_equal(nh[1].oif, r2);
	gw = route_ip4(0x0a4d0202u);
	assert_memory_equal(&nh[1].gw, &gw, sizeof(gw));
	/* 10.77.1.1 is the host's own (the local table): delivered here,
	 * out of no port */
	assert_int_equal(look4(&c, 0x0a4d0101u, r2, nh), 0);
	assert_int_equal(look4(&c, 0x0b000001u, r2, nh), 0);
	gw = route_ip4(0x0a4d0102u);
	mac = route_neigh_mac(&c, AF_INET, &gw, r1);
	assert_non_null(mac);
	assert_int_equal(mac[5], 1);
	/* nothing changed: no refill */
	assert_int_equal(route_refresh(&c, &nl), 0);
	/* a route deleted: heard, and the refill says it changed */
	sh("ip route del 10.78.0.0/16");
	assert_true(heard(&c, 2000));
	assert_true(c.stale);
	assert_int_equal(route_refresh(&c, &nl), 1);
	assert_int_equal(look4(&c, 0x0a4e0909u, r1, nh), 0);
	assert_true(route_via(&c, r2));
	assert_true(c.changes > 0);
	route_free(&c);
	nlb_close(&nl);
	sh("ip link del rt1 && ip link del rt2");
}

/* IPv6 routes (ECMP over link-local gateways) and neighbours; rules
 * naming another table for what comes in on one port (a VRF-lite by
 * iif) and for a destination, followed when added and deleted. */
static void test_v6_and_rules(void **state)
{
	struct route_cache c;
	struct route_nh nh[ROUTE_NH_MAX];
	struct route_ip a, gw;
	struct nlb nl;
	int r1, r2, r3;
	const uint8_t *mac;

	(void)state;
	/* accept_dad off where the machine lets it (a container's
	 * /proc/sys may be read-only): the addresses say nodad anyway, and
	 * the gateways are neighbours, not addresses of ours. */
	sh("for i in 1 2 3; do ip link add v6r$i type veth peer name v6r${i}p "
	   "&& { sysctl -qw net.ipv6.conf.v6r$i.accept_dad=0 2>/dev/null "
	   "|| :; } && "
	   "ip link set v6r$i up && ip link set v6r${i}p up; done && "
	   "ip addr add fd00:77:1::1/64 dev v6r1 nodad && "
	   "ip addr add fd00:77:2::1/64 dev v6r2 nodad && "
	   "ip addr add fd00:77:3::1/64 dev v6r3 nodad && "
	   "ip -6 route add fd00:78::/48 nexthop via fe80::2 dev v6r1 "
	   "nexthop via fe80::2 dev v6r2 && "
	   "ip -6 neigh replace fe80::2 lladdr 02:00:00:00:78:01 dev v6r1 "
	   "nud permanent && "
	   "ip route add 10.90.0.0/16 dev v6r3 table 100 && "
	   "ip -6 route add fd00:90::/32 dev v6r3 table 100");
	r1 = (int)if_nametoindex("v6r1");
	r2 = (int)if_nametoindex("v6r2");
	r3 = (int)if_nametoindex("v6r3");
	assert_true(r1 > 0 && r2 > 0 && r3 > 0);
	assert_int_equal(nlb_open(&nl), 0);
	route_init(&c);
	assert_true(route_listen(&c) >= 0);
	assert_int_equal(route_refresh(&c, &nl), 1);
	a = ip6("fd00:77:2::9");
	assert_int_equal(
	    route_lookup(&c, AF_INET6, &a, r1, nh, ROUTE_NH_MAX, NULL), 1);
	assert_int_equal(nh[0].oif, r2);
	a = ip6("fd00:78:0:5::1");
	assert_int_equal(
	    route_lookup(&c, AF_INET6, &a, r3, nh, ROUTE_NH_MAX, NULL), 2);
	gw = ip6("fe80::2");
	assert_memory_equal(&nh[0].gw, &gw, sizeof(gw));
	assert_true((nh[0].oif == r1 && nh[1].oif == r2) ||
	            (nh[0].oif == r2 && nh[1].oif == r1));
	mac = route_neigh_mac(&c, AF_INET6, &gw, r1);
	assert_non_null(mac);
	assert_int_equal(mac[5], 1);
	/* the router's own address, and multicast: out of no port */
	a = ip6("fd00:77:1::1");
	assert_int_equal(
	    route_lookup(&c, AF_INET6, &a, r2, nh, ROUTE_NH_MAX, NULL), 0);
	a = ip6("ff02::1");
	assert_int_equal(
	    route_lookup(&c, AF_INET6, &a, r2, nh, ROUTE_NH_MAX, NULL), 0);
	/* table 100 is named by no rule: not read */
	a = ip6("fd00:90::1");
	assert_int_equal(
	    route_lookup(&c, AF_INET6, &a, r1, nh, ROUTE_NH_MAX, NULL), 0);
	/* rules: what comes in on v6r1 looks up table 100, both
	 * families; heard, and read */
	sh("ip rule add iif v6r1 table 100 pref 100 && "
	   "ip -6 rule add iif v6r1 table 100 pref 100");
	assert_true(heard(&c, 2000));
	assert_int_equal(route_refresh(&c, &nl), 1);
	assert_int_equal(
	    route_lookup(&c, AF_INET6, &a, r1, nh, ROUTE_NH_MAX, NULL), 1);
	assert_int_equal(nh[0].oif, r3);
	assert_int_equal(
	    route_lookup(&c, AF_INET6, &a, r2, nh, ROUTE_NH_MAX, NULL), 0);
	assert_int_equal(look4(&c, 0x0a5a0101u, r1, nh), 1);
	assert_int_equal(nh[0].oif, r3);
	assert_int_equal(look4(&c, 0x0a5a0101u, r2, nh), 0);
	/* what table 100 does not hold falls through to main */
	a = ip6("fd00:77:2::9");
	assert_int_equal(
	    route_lookup(&c, AF_INET6, &a, r1, nh, ROUTE_NH_MAX, NULL), 1);
	assert_int_equal(nh[0].oif, r2);
	/* a rule by fwmark: undecided, both outcomes */
	sh("ip -6 rule add fwmark 7 table 100 pref 50");
	assert_true(heard(&c, 2000));
	assert_int_equal(route_refresh(&c, &nl), 1);
	a = ip6("fd00:90::1");
	assert_int_equal(
	    route_lookup(&c, AF_INET6, &a, r2, nh, ROUTE_NH_MAX, NULL), 1);
	assert_int_equal(nh[0].oif, r3);
	sh("ip -6 rule del pref 50 && ip -6 rule del pref 100 && "
	   "ip rule del pref 100");
	assert_true(heard(&c, 2000));
	assert_int_equal(route_refresh(&c, &nl), 1);
	assert_int_equal(
	    route_lookup(&c, AF_INET6, &a, r1, nh, ROUTE_NH_MAX, NULL), 0);
	route_free(&c);
	nlb_close(&nl);
	sh("ip link del v6r1 && ip link del v6r2 && ip link del v6r3");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_dump_and_follow),
	    cmocka_unit_test(test_v6_and_rules),
	};
	if (geteuid() != 0 || unshare(CLONE_NEWNET) < 0) {
		printf(
		    "SKIP: test_route needs root to create a private network "
		    "namespace\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
