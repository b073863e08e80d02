/* test_client: rocesh's control-socket client against a scripted server.
 *
 * The server is a child process on a SOCK_SEQPACKET socket in a private
 * directory. Each script step reads one request, checks it against what
 * the step expects, and answers with the step's reply, or closes the
 * connection and accepts the next one. The child's exit status says
 * whether every request was the expected one.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "client.h"
#include "ctl/ctl.h"

/* A step's reply: text to send, or STEP_CLOSE to drop the connection and
 * accept the next one. */
#define STEP_CLOSE ((const char *)1)
/* A step whose EXPECT is this: send the reply unasked, then hang up
 * (roced's answer to a client over its limit) and end. */
#define STEP_TOLD ((const char *)1)

struct step {
	const char *expect; /* the request, exactly; NULL = anything */
	const char *reply;
};

struct server {
	char dir[64];
	char path[108];
	pid_t pid;
};

static int server_run(int lfd, const struct step *steps, size_t n)
{
	static char buf[CTL_MAX_REQUEST + 1];
	int fd = accept(lfd, NULL, NULL);

	for (size_t i = 0; i < n; i++) {
		ssize_t len;

		if (fd < 0)
			return 10;
		if (steps[i].reply == STEP_CLOSE) {
			close(fd);
			fd = accept(lfd, NULL, NULL);
			continue;
		}
		if (steps[i].expect == STEP_TOLD) {
			if (send(fd, steps[i].reply, strlen(steps[i].reply),
			         0) < 0)
				return 14;
			close(fd);
			return 0;
		}
		len = recv(fd, buf, sizeof(buf) - 1, 0);
		if (len <= 0)
			return 11;
		buf[len] = '\0';
		if (steps[i].expect && strcmp(buf, steps[i].expect)) {
			fprintf(stderr, "step %zu: got %s\n", i, buf);
			return 12;
		}
		if (send(fd, steps[i].reply, strlen(steps[i].reply), 0) < 0)
			return 13;
	}
	/* Wait for the client to hang up before leaving. */
	while (fd >= 0 && recv(fd, buf, sizeof(buf), 0) > 0)
		;
	return 0;
}

static void server_start(struct server *s, const struct step *steps, size_t n)
{
	struct sockaddr_un sun = {.sun_family = AF_UNIX};
	int lfd;

	snprintf(s->dir, sizeof(s->dir), "/tmp/rocesh-client-XXXXXX");
	assert_non_null(mkdtemp(s->dir));
	snprintf(s->path, sizeof(s->path), "%s/ctl.sock", s->dir);
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", s->path);
	lfd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	assert_true(lfd >= 0);
	assert_int_equal(bind(lfd, (struct sockaddr *)&sun, sizeof(sun)), 0);
	assert_int_equal(listen(lfd, 4), 0);
	s->pid = fork();
	assert_true(s->pid >= 0);
	if (s->pid == 0) {
		/* A client that never comes back must not leave the server
		 * behind (and make check waiting for its output). */
		alarm(10);
		_exit(server_run(lfd, steps, n));
	}
	close(lfd);
}

/* The server's verdict: 0 when it saw exactly the expected requests. */
static int server_stop(struct server *s)
{
	int st = 0;

	assert_int_equal(waitpid(s->pid, &st, 0), s->pid);
	unlink(s->path);
	rmdir(s->dir);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 100;
}

static struct ctl_request req_show(const char *what)
{
	struct ctl_request r = {.cmd = CTL_CMD_SHOW};

	ctl_request_set(r.what, sizeof(r.what), what);
	return r;
}

static void test_call_ok(void **state)
{
	static const struct step steps[] = {
	    {"{\"cmd\":\"show\",\"what\":\"show class-map\",\"args\":[],"
	     "\"json\":false}",
	     "{\"ok\": true, \"text\": \"class-map\\n\"}"},
	};
	struct server s;
	struct client c;
	struct ctl_request req = req_show("show class-map");
	struct json_object *reply;

	(void)state;
	server_start(&s, steps, 1);
	assert_int_equal(client_init(&c, s.path), 0);
	assert_int_equal(client_call(&c, &req, &reply), 0);
	assert_true(client_reply_ok(reply));
	assert_string_equal(client_reply_str(reply, "text"), "class-map\n");
	assert_null(client_reply_str(reply, "error"));
	json_object_put(reply);
	client_close(&c);
	assert_int_equal(server_stop(&s), 0);
}

static void test_error_reply(void **state)
{
	static const struct step steps[] = {
	    {NULL, "{\"ok\": false, \"error\": \"% nope\", \"pos\": 3}"},
	    {NULL, "{\"ok\": \"yes\"}"},
	};
	struct server s;
	struct client c;
	struct ctl_request req = req_show("x");
	struct json_object *reply;

	(void)state;
	server_start(&s, steps, 2);
	assert_int_equal(client_init(&c, s.path), 0);
	/* A refusal is a reply like any other: the caller reads it. */
	assert_int_equal(client_call(&c, &req, &reply), 0);
	assert_false(client_reply_ok(reply));
	assert_string_equal(client_reply_str(reply, "error"), "% nope");
	json_object_put(reply);
	/* "ok" that is not a boolean true is not success. */
	assert_int_equal(client_call(&c, &req, &reply), 0);
	assert_false(client_reply_ok(reply));
	json_object_put(reply);
	client_close(&c);
	assert_int_equal(server_stop(&s), 0);
}

static void test_not_json(void **state)
{
	static const struct step steps[] = {
	    {NULL, "this is not json"},
	    {NULL, STEP_CLOSE},
	    {NULL, "[1, 2]"},
	};
	struct server s;
	struct client c;
	struct ctl_request req = req_show("x");
	struct json_object *reply;

	(void)state;
	server_start(&s, steps, 3);
	assert_int_equal(client_init(&c, s.path), 0);
	assert_int_equal(client_call(&c, &req, &reply), -EBADMSG);
	assert_null(reply);
	assert_non_null(strstr(c.error, "not a JSON object"));
	/* The client hung up after the bad reply; the next call connects
	 * again, and a JSON array is no reply object either. */
	assert_int_equal(client_call(&c, &req, &reply), -EBADMSG);
	client_close(&c);
	assert_int_equal(server_stop(&s), 0);
}

static void test_no_daemon(void **state)
{
	struct client c;
	struct ctl_request req = req_show("x");
	struct json_object *reply;

	(void)state;
	assert_int_equal(client_init(&c, "/nonexistent/roced.sock"), 0);
	assert_int_equal(client_call(&c, &req, &reply), -ENOENT);
	assert_non_null(strstr(c.error, "/nonexistent/roced.sock"));
	assert_non_null(strstr(c.error, "is roced running"));
}

/* The daemon restarted between two commands of a shell session: the
 * second command reaches the new daemon. */
static void test_reconnect(void **state)
{
	static const struct step steps[] = {
	    {NULL, "{\"ok\": true}"},
	    {NULL, STEP_CLOSE},
	    {NULL, "{\"ok\": true, \"text\": \"again\"}"},
	};
	struct server s;
	struct client c;
	struct ctl_request req = req_show("x");
	struct json_object *reply;

	(void)state;
	server_start(&s, steps, 3);
	assert_int_equal(client_init(&c, s.path), 0);
	assert_int_equal(client_call(&c, &req, &reply), 0);
	json_object_put(reply);
	/* Let the server drop the first connection. */
	usleep(100 * 1000);
	assert_int_equal(client_call(&c, &req, &reply), 0);
	assert_string_equal(client_reply_str(reply, "text"), "again");
	json_object_put(reply);
	client_close(&c);
	assert_int_equal(server_stop(&s), 0);
}

/* roced answered unasked and hung up (a client over its connection
 * limit) before the request went: the answer is the reply, not a
 * failed send or a reconnect that is refused again unheard. */
static void test_told_before_asked(void **state)
{
	static const struct step steps[] = {
	    {NULL, "{\"ok\": true}"},
	    {STEP_TOLD, "{\"ok\": false, \"error\": \"% too many clients "
	                "(at most 16)\"}"},
	};
	struct server s;
	struct client c;
	struct ctl_request req = req_show("x");
	struct json_object *reply;

	(void)state;
	server_start(&s, steps, 2);
	assert_int_equal(client_init(&c, s.path), 0);
	assert_int_equal(client_call(&c, &req, &reply), 0);
	json_object_put(reply);
	/* the server says it and hangs up */
	assert_int_equal(server_stop(&s), 0);
	assert_int_equal(client_call(&c, &req, &reply), 0);
	assert_false(client_reply_ok(reply));
	assert_string_equal(client_reply_str(reply, "error"),
	                    "% too many clients (at most 16)");
	json_object_put(reply);
	client_close(&c);
}

/* A request with no encoding (a name that does not fit its member) is
 * refused before any connection is tried, in the parser's words. */
static void test_request_unencodable(void **state)
{
	struct ctl_request req = req_show("show queuing interface");
	struct client c;
	struct json_object *reply;
	char name[CTL_ARG_LEN + 1];

	(void)state;
	memset(name, 'e', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	req.nargs = 1;
	ctl_request_set(req.args[0], sizeof(req.args[0]), name);
	assert_int_equal(client_init(&c, "/nonexistent/roced.sock"), 0);
	assert_int_equal(client_call(&c, &req, &reply), -EINVAL);
	assert_null(reply);
	assert_string_equal(c.error,
	                    "'args[0]' is too long (at most 63 bytes)");
}

/* A reply far larger than any fixed buffer arrives whole. */
static void test_large_reply(void **state)
{
	enum {
		N = 150 * 1000
	};
	static char reply_text[N + 64];
	struct step steps[1] = {{NULL, reply_text}};
	struct server s;
	struct client c;
	struct ctl_request req = req_show("x");
	struct json_object *reply;
	size_t off;

	(void)state;
	off = (size_t)snprintf(reply_text, sizeof(reply_text),
	                       "{\"ok\": true, \"text\": \"");
	memset(reply_text + off, 'x', N);
	snprintf(reply_text + off + N, sizeof(reply_text) - off - N, "\"}");
	server_start(&s, steps, 1);
	assert_int_equal(client_init(&c, s.path), 0);
	assert_int_equal(client_call(&c, &req, &reply), 0);
	assert_int_equal(strlen(client_reply_str(reply, "text")), N);
	json_object_put(reply);
	client_close(&c);
	assert_int_equal(server_stop(&s), 0);
}

static void test_path_too_long(void **state)
{
	struct client c;
	char path[200];

	(void)state;
	memset(path, 'p', sizeof(path) - 1);
	path[sizeof(path) - 1] = '\0';
	assert_int_equal(client_init(&c, path), -ENAMETOOLONG);
	/* The default path is this namespace's one under /run/roced. */
	assert_int_equal(client_init(&c, NULL), 0);
	assert_int_equal(strncmp(c.path, CTL_DIR "/roced", 16), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_call_ok),
	    cmocka_unit_test(test_error_reply),
	    cmocka_unit_test(test_not_json),
	    cmocka_unit_test(test_no_daemon),
	    cmocka_unit_test(test_reconnect),
	    cmocka_unit_test(test_told_before_asked),
	    cmocka_unit_test(test_request_unencodable),
	    cmocka_unit_test(test_large_reply),
	    cmocka_unit_test(test_path_too_long),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
