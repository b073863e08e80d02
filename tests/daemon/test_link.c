/* Tests for daemon/kernel/link.c: libnl link cache and change events, inside a
 * private network namespace that dies with the test process. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/link.h"

struct seen {
	int n[LINK_EV_STATE + 1];
	char last_name[LINK_NAME_MAX];
	char old_name[LINK_NAME_MAX];
	uint32_t last_mtu;
};

static void on_link(enum link_event ev, const struct link_info *l,
                    const char *old, void *data)
{
	struct seen *s = data;

	s->n[ev]++;
	snprintf(s->last_name, sizeof(s->last_name), "%s", l->name);
	snprintf(s->old_name, sizeof(s->old_name), "%s", old ? old : "");
	s->last_mtu = l->mtu;
}

/* Process events for up to MS milliseconds or until *COUNTER reaches N. */
static void pump(struct link_mon *lm, int *counter, int n, int ms)
{
	struct pollfd pfd = {.fd = link_mon_fd(lm), .events = POLLIN};

	while (*counter < n && ms > 0) {
		if (poll(&pfd, 1, 20) > 0)
			assert_int_equal(link_mon_process(lm), 0);
		ms -= 20;
	}
}

static void sh(const char *cmd)
{
	assert_int_equal(system(cmd), 0);
}

static void test_events(void **state)
{
	struct link_mon *lm;
	struct seen s = {0};
	struct link_info li;
	char err[256];

	(void)state;
	assert_int_equal(link_mon_open(&lm, on_link, &s), 0);
	assert_int_equal(link_lookup(lm, "lo", &li), 0);
	assert_int_equal(link_lookup(lm, "swp9", &li), -ENODEV);

	sh("ip link add swp9 type veth peer name host9");
	pump(lm, &s.n[LINK_EV_NEW], 2, 2000);
	assert_int_equal(s.n[LINK_EV_NEW], 2);
	assert_int_equal(link_lookup(lm, "swp9", &li), 0);
	assert_int_equal(li.mtu, 1500);

	/* Our own MTU change comes back as an event, like anyone's. */
	assert_int_equal(link_set_mtu(lm, li.ifindex, 9216, err, sizeof(err)),
	                 0);
	pump(lm, &s.n[LINK_EV_MTU], 1, 2000);
	assert_int_equal(s.n[LINK_EV_MTU], 1);
	assert_int_equal(s.last_mtu, 9216);
	/* An MTU the device refuses is an error with the reason. */
	assert_true(link_set_mtu(lm, li.ifindex, 70000, err, sizeof(err)) < 0);
	assert_true(err[0] != '\0');

	sh("ip link set swp9 name swp10");
	pump(lm, &s.n[LINK_EV_RENAME], 1, 2000);
	assert_int_equal(s.n[LINK_EV_RENAME], 1);
	assert_string_equal(s.old_name, "swp9");
	assert_string_equal(s.last_name, "swp10");
	/* Lookups follow the rename, by name and by index. */
	assert_int_equal(link_lookup(lm, "swp9", &li), -ENODEV);
	assert_int_equal(link_lookup(lm, "swp10", &li), 0);
	assert_int_equal(li.mtu, 9216);
	{
		struct link_info by_index;

		assert_int_equal(link_lookup_index(lm, li.ifindex, &by_index),
		                 0);
		assert_string_equal(by_index.name, "swp10");
	}

	sh("ip link del swp10");
	pump(lm, &s.n[LINK_EV_DEL], 2, 2000);
	assert_int_equal(s.n[LINK_EV_DEL], 2); /* both ends of the pair */
	assert_int_equal(link_lookup(lm, "swp10", &li), -ENODEV);
	link_mon_close(lm);
}

/* Without a callback: filled once, no events to poll. */
static void test_one_shot(void **state)
{
	struct link_mon *lm;
	struct link_info li;

	(void)state;
	sh("ip link add swp7 type veth peer name host7");
	assert_int_equal(link_mon_open(&lm, NULL, NULL), 0);
	assert_int_equal(link_mon_fd(lm), -1);
	assert_int_equal(link_mon_process(lm), 0);
	assert_int_equal(link_lookup(lm, "host7", &li), 0);
	assert_int_equal(link_lookup(lm, "swp7", &li), 0);
	assert_int_equal(li.mtu, 1500);
	assert_int_equal(link_lookup(lm, "swp8", &li), -ENODEV);
	link_mon_close(lm);
	sh("ip link del swp7");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_events),
	    cmocka_unit_test(test_one_shot),
	};
	if (geteuid() != 0 || unshare(CLONE_NEWNET) < 0) {
		printf("SKIP: test_link needs root to create a private network "
		       "namespace\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
