/* Tests for daemon/kernel/route.c against the kernel, inside a private
 * network namespace that dies with the test process: the dumps read the
 * main table (ECMP next hops included, the local table not) and the
 * neighbours; the notification socket hears a change, and a refill says
 * whether what the tables hold changed. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
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

static void test_dump_and_follow(void **state)
{
	struct route_cache c;
	struct route_nh nh[ROUTE_NH_MAX];
	struct nlb nl;
	int r1, r2;
	const uint8_t *mac;

	(void)state;
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
	assert_int_equal(route_lookup(&c, 0x0a4d0105u, nh, ROUTE_NH_MAX), 1);
	assert_int_equal(nh[0].oif, r1);
	assert_int_equal(nh[0].gw, 0);
	assert_int_equal(route_lookup(&c, 0x0a4e0909u, nh, ROUTE_NH_MAX), 2);
	assert_int_equal(nh[0].oif, r1);
	assert_int_equal(nh[0].gw, 0x0a4d0102u);
	assert_int_equal(nh[1].oif, r2);
	assert_int_equal(nh[1].gw, 0x0a4d0202u);
	/* the local table (10.77.1.1 itself) is not read: the /24 answers */
	assert_int_equal(route_lookup(&c, 0x0a4d0101u, nh, ROUTE_NH_MAX), 1);
	assert_int_equal(route_lookup(&c, 0x0b000001u, nh, ROUTE_NH_MAX), 0);
	mac = route_neigh_mac(&c, 0x0a4d0102u, r1);
	assert_non_null(mac);
	assert_int_equal(mac[5], 1);
	/* nothing changed: no refill */
	assert_int_equal(route_refresh(&c, &nl), 0);
	/* a route deleted: heard, and the refill says it changed */
	sh("ip route del 10.78.0.0/16");
	assert_true(heard(&c, 2000));
	assert_true(c.stale);
	assert_int_equal(route_refresh(&c, &nl), 1);
	assert_int_equal(route_lookup(&c, 0x0a4e0909u, nh, ROUTE_NH_MAX), 0);
	assert_true(route_via(&c, r2));
	assert_true(c.changes > 0);
	route_free(&c);
	nlb_close(&nl);
	sh("ip link del rt1 && ip link del rt2");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_dump_and_follow),
	};
	if (geteuid() != 0 || unshare(CLONE_NEWNET) < 0) {
		printf(
		    "SKIP: test_route needs root to create a private network "
		    "namespace\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
