/* Tests for daemon/kernel/probe.c: the kernel probe with and without the right
 * to create a network namespace. Runs inside a private network namespace of its
 * own, so the scratch devices of the fallback are never seen by the host, and a
 * leftover would be caught here.
 *
 * Under systemd roced has CAP_NET_ADMIN and CAP_NET_RAW only, so the probe
 * cannot unshare(CLONE_NEWNET); it must find the same kinds on a scratch
 * veth pair in its own namespace and delete the pair afterwards. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/capability.h>

#include "kernel/probe.h"

/* The answer of one probe run in a child process with fewer capabilities,
 * sent back through a pipe. */
struct probe_answer {
	int rc;
	struct caps caps;
	char err[256];
};

/* Drop capabilities BITS (CAP_* numbers below 32) from the bounding,
 * effective, permitted and inheritable sets of this process, as systemd's
 * CapabilityBoundingSet= leaves a service. */
static int drop_caps(const int *caps, size_t n)
{
	struct __user_cap_header_struct hdr = {
	    .version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data) < 0)
		return -errno;
	for (size_t i = 0; i < n; i++) {
		uint32_t bit = 1u << caps[i];

		if (prctl(PR_CAPBSET_DROP, caps[i], 0, 0, 0) < 0)
			return -errno;
		data[0].effective &= ~bit;
		data[0].permitted &= ~bit;
		data[0].inheritable &= ~bit;
	}
	if (syscall(SYS_capset, &hdr, data) < 0)
		return -errno;
	return 0;
}

static struct probe_answer probe_without(const int *caps, size_t n)
{
	struct probe_answer a = {.rc = -EIO};
	int fds[2], status;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fds[0]);
		a.rc = drop_caps(caps, n);
		if (a.rc == 0)
			a.rc = probe_kernel(&a.caps, a.err, sizeof(a.err));
		else
			snprintf(a.err, sizeof(a.err), "drop_caps: %s",
			         strerror(-a.rc));
		_exit(write(fds[1], &a, sizeof(a)) == (ssize_t)sizeof(a) ? 0
		                                                         : 1);
	}
	close(fds[1]);
	assert_int_equal(read(fds[0], &a, sizeof(a)), (ssize_t)sizeof(a));
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return a;
}

/* The links of this namespace as "name,name,..." for before/after checks. */
static void link_names(char *buf, size_t len)
{
	struct if_nameindex *ifs = if_nameindex(), *i;
	size_t off = 0;

	buf[0] = '\0';
	assert_non_null(ifs);
	for (i = ifs; i->if_index && off < len; i++)
		off +=
		    (size_t)snprintf(buf + off, len - off, "%s,", i->if_name);
	if_freenameindex(ifs);
}

static void test_probe_namespace(void **state)
{
	struct caps c = {0};
	char err[256] = "";

	(void)state;
	assert_int_equal(probe_kernel(&c, err, sizeof(err)), 0);
	/* Every kernel roced runs on has htb; an all-zero answer would mean
	 * the probe saw nothing at all. */
	assert_true(c.qdiscs & CAPS_QD_HTB);
	assert_true(c.qdiscs & CAPS_QD_CLSACT);
}

/* Without CAP_SYS_ADMIN: the same answer, and nothing left behind. */
static void test_probe_net_admin_only(void **state)
{
	static const int no_sys_admin[] = {CAP_SYS_ADMIN};
	struct caps full = {0};
	struct probe_answer a;
	char err[256] = "", before[1024], after[1024];

	(void)state;
	assert_int_equal(system("ip link add swp1 type veth peer name h1"), 0);
	link_names(before, sizeof(before));
	assert_int_equal(probe_kernel(&full, err, sizeof(err)), 0);
	a = probe_without(no_sys_admin, 1);
	if (a.rc < 0)
		fail_msg("probe without CAP_SYS_ADMIN: %s", a.err);
	assert_int_equal(a.caps.qdiscs, full.qdiscs);
	assert_int_equal(a.caps.classifiers, full.classifiers);
	assert_int_equal(a.caps.actions, full.actions);
	link_names(after, sizeof(after));
	assert_string_equal(after, before);
	assert_null(strstr(after, "roced-p"));
	assert_int_equal(system("ip link del swp1"), 0);
}

/* Without CAP_NET_ADMIN either: a clear error that names the capability. */
static void test_probe_no_net_admin(void **state)
{
	static const int none[] = {CAP_SYS_ADMIN, CAP_NET_ADMIN};
	struct probe_answer a;

	(void)state;
	a = probe_without(none, 2);
	assert_true(a.rc < 0);
	assert_non_null(strstr(a.err, "CAP_NET_ADMIN"));
	assert_non_null(strstr(a.err, "--caps"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_probe_namespace),
	    cmocka_unit_test(test_probe_net_admin_only),
	    cmocka_unit_test(test_probe_no_net_admin),
	};
	if (geteuid() != 0 || unshare(CLONE_NEWNET) < 0) {
		printf(
		    "SKIP: test_probe needs root to create a private network "
		    "namespace\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
