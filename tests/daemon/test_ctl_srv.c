/* Tests for daemon/control/ctl_srv.c's client slots on a socket in a
 * temporary directory (no root needed): idle clients are closed after the
 * idle time, a refused client is told why in answer to its request, and a
 * client that hangs up frees its slot for the next one at once. */
#include <errno.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "control/ctl_srv.h"

struct fixture {
	char dir[64];
	char path[108];
	struct ctl_srv *srv;
	int pings;
};

static struct json_object *handler(void *data, const struct ctl_request *r,
                                   const struct ctl_peer *peer)
{
	struct fixture *f = data;

	(void)r;
	(void)peer;
	f->pings++;
	return ctl_reply_ok();
}

static int srv_open(struct fixture *f, size_t max, unsigned idle_ms)
{
	struct ctl_srv_config c = {
	    .path = f->path, .max_clients = max, .idle_ms = idle_ms};
	char err[256];
	int rc = ctl_srv_open(&f->srv, &c, handler, f, err, sizeof(err));

	if (rc < 0)
		fail_msg("ctl_srv_open: %s", err);
	return rc;
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	snprintf(f->dir, sizeof(f->dir), "/tmp/test_ctl_srv.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	snprintf(f->path, sizeof(f->path), "%s/s", f->dir);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	ctl_srv_close(f->srv);
	rmdir(f->dir);
	free(f);
	return 0;
}

static int client(const struct fixture *f)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", f->path);
	assert_true(fd >= 0);
	assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	return fd;
}

/* Run the server's loop for MS milliseconds. */
static void run(struct fixture *f, int ms)
{
	struct pollfd p = {.fd = ctl_srv_fd(f->srv), .events = POLLIN};
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		long left = ms - ((t.tv_sec - t0.tv_sec) * 1000 +
		                  (t.tv_nsec - t0.tv_nsec) / 1000000);
		if (left <= 0)
			return;
		if (poll(&p, 1, (int)left) > 0)
			ctl_srv_process(f->srv);
	}
}

/* The reply to a ping on FD, or "" when the connection closed. */
static void ping(struct fixture *f, int fd, char *buf, size_t len)
{
	ssize_t n;

	assert_int_equal(send(fd, "{\"cmd\":\"ping\"}", 14, 0), 14);
	for (int i = 0; i < 100; i++) {
		run(f, 10);
		n = recv(fd, buf, len - 1, MSG_DONTWAIT);
		if (n >= 0) {
			buf[n] = '\0';
			return;
		}
	}
	fail_msg("no reply");
}

static bool hung_up(int fd)
{
	char b;

	return recv(fd, &b, 1, MSG_DONTWAIT) == 0;
}

static void test_idle_clients_closed(void **state)
{
	struct fixture *f = *state;
	char buf[256];
	int a, b;

	/* Generous margins: the sweep runs every quarter of the idle time,
	 * and a busy machine may stall this process for a while. */
	srv_open(f, 4, 2000);
	a = client(f);
	b = client(f);
	run(f, 50);
	assert_false(hung_up(a));
	run(f, 1150);
	ping(f, b, buf, sizeof(buf));
	assert_non_null(strstr(buf, "\"ok\":true"));
	/* At 2.6 s a has been idle for longer than the idle time and a sweep
	 * (every 0.5 s) has run since; b's request at 1.2 s reset its clock. */
	run(f, 1400);
	assert_true(hung_up(a));
	assert_false(hung_up(b));
	run(f, 1600);
	assert_true(hung_up(b));
	close(a);
	close(b);
}

static void test_refused_client_told_why(void **state)
{
	struct fixture *f = *state;
	char buf[256];
	int a, b;

	srv_open(f, 1, 60000);
	a = client(f);
	run(f, 20);
	b = client(f);
	ping(f, b, buf, sizeof(buf));
	assert_non_null(strstr(buf, "too many clients (at most 1)"));
	run(f, 20);
	assert_true(hung_up(b));
	close(b);
	/* a was admitted and still is. */
	ping(f, a, buf, sizeof(buf));
	assert_non_null(strstr(buf, "\"ok\":true"));
	close(a);
}

/* A refused client that has not asked within its second of grace is
 * answered all the same when it is closed: the answer waits for it. */
static void test_refused_silent_client_told(void **state)
{
	struct fixture *f = *state;
	char buf[256];
	ssize_t n;
	int a, b;

	srv_open(f, 1, 60000);
	a = client(f);
	run(f, 20);
	b = client(f);
	run(f, 2500);
	n = recv(b, buf, sizeof(buf) - 1, MSG_DONTWAIT);
	assert_true(n > 0);
	buf[n] = '\0';
	assert_non_null(strstr(buf, "too many clients (at most 1)"));
	assert_true(hung_up(b));
	close(b);
	close(a);
}

static void test_closed_slot_free_at_once(void **state)
{
	struct fixture *f = *state;
	char buf[256];
	int a, b;

	srv_open(f, 1, 60000);
	a = client(f);
	run(f, 20);
	/* a hangs up and b arrives before the server has seen a's hang-up:
	 * both events land in one round, b must still get the slot. */
	close(a);
	b = client(f);
	ping(f, b, buf, sizeof(buf));
	assert_non_null(strstr(buf, "\"ok\":true"));
	close(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_idle_clients_closed, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(test_refused_client_told_why, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(test_refused_silent_client_told,
	                                    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_closed_slot_free_at_once,
	                                    setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
