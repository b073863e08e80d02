/* Tests for lib/nlmsg/link_msg.c: each encoder against the bytes iproute2's
 * `ip` sent for the same command (tests/fixtures/link/, captured with
 * tests/tools/capture-link-fixtures.sh). The buffers start out full of
 * garbage: every byte of a request, padding included, must be written. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "hexfix.h"
#include "nlmsg/link_msg.h"

/* The captures' seq (ip's time of day) is not what we encode. */
#define SEQ 0x12345678u
/* In the capture's fresh namespace the veth is ifindex 3. */
#define IFINDEX 3

static void check(const char *name, const uint8_t *msg)
{
	uint8_t fx[512];
	size_t n = hexfix_msg("link", name, 0, fx, sizeof(fx));
	uint32_t len, seq = SEQ;

	memcpy(&len, msg, sizeof(len));
	assert_int_equal(len, n);
	memcpy(fx + 8, &seq, sizeof(seq));
	assert_memory_equal(msg, fx, n);
}

static void test_mtu(void **state)
{
	uint8_t buf[LINK_MSG_SIZE] __attribute__((aligned(4)));

	(void)state;
	memset(buf, 0xa5, sizeof(buf));
	assert_int_equal(link_msg_mtu(buf, sizeof(buf), SEQ, IFINDEX, 9000), 0);
	check("mtu", buf);
}

static void test_veth_add(void **state)
{
	uint8_t buf[LINK_MSG_SIZE] __attribute__((aligned(4)));

	(void)state;
	/* the names leave padding after both IFLA_IFNAMEs */
	memset(buf, 0xa5, sizeof(buf));
	assert_int_equal(link_msg_veth_add(buf, sizeof(buf), SEQ,
	                                   "roced-p123456", "roced-p123456-b"),
	                 0);
	check("veth_add", buf);
}

static void test_del(void **state)
{
	uint8_t buf[LINK_MSG_SIZE] __attribute__((aligned(4)));

	(void)state;
	memset(buf, 0xa5, sizeof(buf));
	assert_int_equal(link_msg_del(buf, sizeof(buf), SEQ, IFINDEX), 0);
	check("del", buf);
}

static void test_refused(void **state)
{
	uint8_t buf[LINK_MSG_SIZE] __attribute__((aligned(4)));

	(void)state;
	assert_int_equal(link_msg_mtu(buf, LINK_MSG_SIZE - 1, 0, 1, 1500),
	                 -EMSGSIZE);
	assert_int_equal(link_msg_del(buf, 16, 0, 1), -EMSGSIZE);
	assert_int_equal(link_msg_veth_add(buf, 100, 0, "a", "b"), -EMSGSIZE);
	/* IFNAMSIZ is 16 with the NUL */
	assert_int_equal(
	    link_msg_veth_add(buf, sizeof(buf), 0, "sixteen-chars-xx", "b"),
	    -EINVAL);
	assert_int_equal(link_msg_veth_add(buf, sizeof(buf), 0, "a", ""),
	                 -EINVAL);
	assert_int_equal(link_msg_veth_add(buf, sizeof(buf), 0, NULL, "b"),
	                 -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_mtu),
	    cmocka_unit_test(test_veth_add),
	    cmocka_unit_test(test_del),
	    cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
