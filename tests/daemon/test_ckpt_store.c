/* Tests of daemon/control/ctl_ckpt.c and ctl_sess.c, the checkpoint
 * store and the sessions, in a temporary directory with a faked daemon
 * (no root, no kernel):
 *   - a checkpoint is a 0600 file that a new store reads back; the
 *     directory comes with the first and goes with the last;
 *   - a file cut short, one changed by hand and a symbolic link planted
 *     under a checkpoint's name are listed damaged with the reason, never
 *     followed, and a rollback to them is refused, the daemon untouched;
 *   - a rollback hands the daemon the checkpoint's policy, atomically
 *     unless best-effort; names that would leave the directory are
 *     refused; an automatic name is user-checkpoint-N;
 *   - a session's commit is one atomic change, refused when the running
 *     policy changed since the session began;
 *   - `commit confirmed N` keeps a checkpoint on disk before it
 *     changes anything, refuses what its rollback would undo, and rolls
 *     back at its deadline, at `abort` and at the next start of roced,
 *     never after the `commit` that confirms it. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "conf/conf.h"
#include "control/ctl_ckpt.h"
#include "control/ctl_sess.h"
#include "ctl/ctl.h"

struct fake {
	struct policy running;
	unsigned changes, flags;
	char qos_input[64]; /* of the last candidate's first port */
	size_t writes;
};

static int fake_change(void *daemon, struct policy *cand, unsigned flags,
                       struct diag *msgs)
{
	struct fake *f = daemon;

	(void)msgs;
	f->changes++;
	f->flags = flags;
	snprintf(f->qos_input, sizeof(f->qos_input), "%s",
	         cand->nifaces ? cand->ifaces[0].qos_input : "");
	if (flags & CTL_CHANGE_CHECK)
		return 0;
	f->writes += 3;
	policy_free(&f->running);
	f->running = *cand;
	policy_init(cand);
	return 0;
}

static int fake_commit(void *daemon, struct policy *cand, struct diag *msgs)
{
	return fake_change(daemon, cand, 0, msgs);
}

static const struct ctl_cmd_ops fake_ops = {.commit = fake_commit,
                                            .change = fake_change};

struct fixture {
	char tmp[64], dir[96];
	struct fake f;
	struct ctl_ckpt k;
	struct ctl_cmd_ctx c;
};

static int setup(void **state)
{
	struct fixture *x = calloc(1, sizeof(*x));
	char path[1024];
	struct diag d;

	snprintf(x->tmp, sizeof(x->tmp), "/tmp/roced-ckpt.XXXXXX");
	if (!mkdtemp(x->tmp))
		return -1;
	snprintf(x->dir, sizeof(x->dir), "%s/checkpoint", x->tmp);
	snprintf(path, sizeof(path), "%s/conf/roced.conf", TEST_SRCDIR);
	diag_init(&d, path);
	if (conf_load_file(path, &x->f.running, &d) < 0)
		return -1;
	diag_free(&d);
	if (ctl_ckpt_open(&x->k, x->dir, 1) < 0)
		return -1;
	x->c = (struct ctl_cmd_ctx){.ops = &fake_ops,
	                            .daemon = &x->f,
	                            .policy = &x->f.running,
	                            .writes = &x->f.writes,
	                            .ckpt = &x->k};
	*state = x;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *x = *state;
	char cmd[256];

	ctl_sess_close(&x->k);
	ctl_ckpt_close(&x->k);
	policy_free(&x->f.running);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", x->tmp);
	if (system(cmd) != 0)
		return -1;
	free(x);
	return 0;
}

/* The reply to the request JSON, checked for OK as asked; its "error" or
 * "text" into OUT. */
static void ask(struct fixture *x, const char *json, bool ok, char *out,
                size_t len)
{
	struct ctl_peer peer = {.uid = 0, .pid = getpid()};
	struct json_object *reply, *v;
	struct ctl_request r;
	char err[256];

	if (ctl_request_parse(json, strlen(json), &r, err, sizeof(err)) < 0)
		fail_msg("%s: %s", json, err);
	reply = r.cmd == CTL_CMD_SESSION ? ctl_sess_request(&x->c, &r, &peer)
	                                 : ctl_ckpt_request(&x->c, &r, &peer);
	json_object_object_get_ex(reply, "ok", &v);
	if (json_object_get_boolean(v) != ok)
		fail_msg("%s: %s", json, json_object_to_json_string(reply));
	if (out) {
		if (!json_object_object_get_ex(reply, ok ? "text" : "error",
		                               &v))
			out[0] = '\0';
		else
			snprintf(out, len, "%s", json_object_get_string(v));
	}
	json_object_put(reply);
}

/* What show checkpoint summary says, into OUT. */
static void summary(struct fixture *x, char *out, size_t len)
{
	struct show_query q = {.kind = CTL_SHOW_CKPT_SUMMARY};
	struct json_object *reply = ctl_ckpt_show(&x->c, &q), *v;

	assert_true(json_object_object_get_ex(reply, "text", &v));
	snprintf(out, len, "%s", json_object_get_string(v));
	json_object_put(reply);
}

static void reopen(struct fixture *x)
{
	ctl_ckpt_close(&x->k);
	assert_int_equal(ctl_ckpt_open(&x->k, x->dir, 1), 0);
}

static void test_store(void **state)
{
	struct fixture *x = *state;
	char path[256], text[2048];
	struct stat st;

	/* Nothing on disk before the first checkpoint. */
	assert_int_equal(stat(x->dir, &st), -1);
	ask(x,
	    "{\"cmd\":\"checkpoint\",\"op\":\"create\",\"name\":\"stable\","
	    "\"description\":\"before\"}",
	    true, NULL, 0);
	ask(x, "{\"cmd\":\"checkpoint\",\"op\":\"create\"}", true, NULL, 0);
	snprintf(path, sizeof(path), "%s/stable", x->dir);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	snprintf(path, sizeof(path), "%s/user-checkpoint-1", x->dir);
	assert_int_equal(stat(path, &st), 0);
	/* Names: taken, or leaving the directory. */
	ask(x, "{\"cmd\":\"checkpoint\",\"op\":\"create\",\"name\":\"stable\"}",
	    false, text, sizeof(text));
	assert_non_null(strstr(text, "checkpoint stable exists"));
	ask(x, "{\"cmd\":\"checkpoint\",\"op\":\"create\",\"name\":\"../x\"}",
	    false, text, sizeof(text));
	assert_non_null(strstr(text, "not allowed in a name"));
	/* A new store (a restart) reads them back. */
	reopen(x);
	summary(x, text, sizeof(text));
	assert_non_null(strstr(text, "1) stable:\n"));
	assert_non_null(strstr(text, "Description: before\n"));
	assert_non_null(strstr(text, "2) user-checkpoint-1:\n"));
	assert_null(strstr(text, "Damaged"));
	/* Delete and clear: the directory goes with the last. */
	ask(x, "{\"cmd\":\"checkpoint\",\"op\":\"delete\",\"name\":\"stable\"}",
	    true, NULL, 0);
	snprintf(path, sizeof(path), "%s/stable", x->dir);
	assert_int_equal(stat(path, &st), -1);
	ask(x, "{\"cmd\":\"checkpoint\",\"op\":\"clear\"}", true, NULL, 0);
	assert_int_equal(stat(x->dir, &st), -1);
}

/* The directory is named by the namespace's inode, which the kernel
 * gives to a new namespace once the old one is gone: a roced there must
 * not find the old one's checkpoints (a test suite that made namespaces
 * one after another did). The cookie tells them apart. */
static void test_stale_netns(void **state)
{
	struct fixture *x = *state;
	char path[256], text[2048];
	struct stat st;

	ask(x, "{\"cmd\":\"checkpoint\",\"op\":\"create\",\"name\":\"old\"}",
	    true, NULL, 0);
	snprintf(path, sizeof(path), "%s/.netns", x->dir);
	assert_int_equal(stat(path, &st), 0);
	/* The same namespace (a restart): kept. */
	reopen(x);
	summary(x, text, sizeof(text));
	assert_non_null(strstr(text, "1) old:\n"));
	/* Another namespace with the same inode: removed, not read. */
	ctl_ckpt_close(&x->k);
	assert_int_equal(ctl_ckpt_open(&x->k, x->dir, 2), 0);
	summary(x, text, sizeof(text));
	assert_null(strstr(text, "old"));
	assert_int_equal(stat(x->dir, &st), -1);
	/* Its own first checkpoint marks the directory as its own. */
	ask(x, "{\"cmd\":\"checkpoint\",\"op\":\"create\",\"name\":\"new\"}",
	    true, NULL, 0);
	ctl_ckpt_close(&x->k);
	assert_int_equal(ctl_ckpt_open(&x->k, x->dir, 2), 0);
	summary(x, text, sizeof(text));
	assert_non_null(strstr(text, "1) new:\n"));
	/* A kernel with no cookie (0) cannot tell: it keeps what it finds. */
	ctl_ckpt_close(&x->k);
	assert_int_equal(ctl_ckpt_open(&x->k, x->dir, 0), 0);
	summary(x, text, sizeof(text));
	assert_non_null(strstr(text, "1) new:\n"));
	/* The last checkpoint cleared: no directory, no .netns left. */
	ask(x, "{\"cmd\":\"checkpoint\",\"op\":\"clear\"}", true, NULL, 0);
	assert_int_equal(stat(x->dir, &st), -1);
}

static void test_damaged(void **state)
{
	struct fixture *x = *state;
	char path[256], text[2048], target[256];
	FILE *fp;

	ask(x, "{\"cmd\":\"checkpoint\",\"op\":\"create\",\"name\":\"cut\"}",
	    true, NULL, 0);
	ask(x, "{\"cmd\":\"checkpoint\",\"op\":\"create\",\"name\":\"edited\"}",
	    true, NULL, 0);
	snprintf(path, sizeof(path), "%s/cut", x->dir);
	assert_int_equal(truncate(path, 200), 0);
	snprintf(path, sizeof(path), "%s/edited", x->dir);
	fp = fopen(path, "a");
	assert_non_null(fp);
	fputs("  match cos 5\n", fp);
	fclose(fp);
	/* A link planted where a checkpoint would be, to a file that is a
	 * valid checkpoint: never followed. */
	snprintf(target, sizeof(target), "%s/target", x->tmp);
	snprintf(path, sizeof(path), "%s/cut", x->dir);
	{
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "cp '%s/edited' '%s'", x->dir,
		         target);
		assert_int_equal(system(cmd), 0);
	}
	snprintf(path, sizeof(path), "%s/planted", x->dir);
	assert_int_equal(symlink(target, path), 0);
	reopen(x);
	summary(x, text, sizeof(text));
	assert_non_null(strstr(text, "cut:\nDamaged: cut short: it holds"));
	assert_non_null(
	    strstr(text, "edited:\nDamaged: 14 bytes more than its header "
	                 "says: changed by hand\n"));
	assert_non_null(strstr(text, "planted:\nDamaged: cannot open"));
	x->f.changes = 0;
	ask(x, "{\"cmd\":\"checkpoint\",\"op\":\"rollback\",\"name\":\"cut\"}",
	    false, text, sizeof(text));
	assert_non_null(strstr(text, "checkpoint cut is damaged"));
	ask(x,
	    "{\"cmd\":\"checkpoint\",\"op\":\"rollback\",\"name\":\"planted\"}",
	    false, NULL, 0);
	ask(x,
	    "{\"cmd\":\"checkpoint\",\"op\":\"rollback\",\"name\":\"nosuch\"}",
	    false, text, sizeof(text));
	assert_string_equal(text, "% no checkpoint nosuch");
	assert_int_equal(x->f.changes, 0);
	/* The damaged ones are removed by name; the link, not its target. */
	ask(x, "{\"cmd\":\"checkpoint\",\"op\":\"clear\"}", true, NULL, 0);
	assert_int_equal(access(target, F_OK), 0);
}

static void test_rollback(void **state)
{
	struct fixture *x = *state;
	char text[512], qos[64];

	snprintf(qos, sizeof(qos), "%s", x->f.running.ifaces[0].qos_input);
	assert_true(qos[0]);
	ask(x, "{\"cmd\":\"checkpoint\",\"op\":\"create\",\"name\":\"a\"}",
	    true, NULL, 0);
	x->f.running.ifaces[0].qos_input[0] = '\0';
	ask(x, "{\"cmd\":\"checkpoint\",\"op\":\"rollback\",\"name\":\"a\"}",
	    true, text, sizeof(text));
	assert_string_equal(text, "Rollback to checkpoint a completed (atomic, "
	                          "3 kernel writes)\n");
	assert_int_equal(x->f.flags, CTL_CHANGE_ATOMIC);
	assert_string_equal(x->f.qos_input, qos);
	assert_string_equal(x->f.running.ifaces[0].qos_input, qos);
	ask(x,
	    "{\"cmd\":\"checkpoint\",\"op\":\"rollback\",\"name\":\"a\","
	    "\"best-effort\":true}",
	    true, NULL, 0);
	assert_int_equal(x->f.flags, 0);
	ask(x, "{\"cmd\":\"checkpoint\",\"op\":\"clear\"}", true, NULL, 0);
}

static void test_sessions(void **state)
{
	struct fixture *x = *state;
	char text[1024];

	ask(x, "{\"cmd\":\"session\",\"op\":\"begin\",\"name\":\"s1\"}", true,
	    NULL, 0);
	ask(x, "{\"cmd\":\"session\",\"op\":\"begin\",\"name\":\"s2\"}", true,
	    NULL, 0);
	ask(x,
	    "{\"cmd\":\"session\",\"op\":\"line\",\"name\":\"s1\","
	    "\"line\":\"interface swp1\"}",
	    true, NULL, 0);
	ask(x,
	    "{\"cmd\":\"session\",\"op\":\"line\",\"name\":\"s1\","
	    "\"context\":[\"interface swp1\"],"
	    "\"line\":\"no service-policy type qos input ROCE_POLICY\"}",
	    true, NULL, 0);
	/* Nothing reached the daemon yet. */
	assert_int_equal(x->f.changes, 0);
	ask(x,
	    "{\"cmd\":\"session\",\"op\":\"line\",\"name\":\"s2\","
	    "\"line\":\"interface swp1\"}",
	    true, NULL, 0);
	ask(x, "{\"cmd\":\"session\",\"op\":\"commit\",\"name\":\"s1\"}", true,
	    text, sizeof(text));
	assert_string_equal(text, "Commit Successful (3 kernel writes)\n");
	assert_int_equal(x->f.flags, CTL_CHANGE_ATOMIC);
	assert_string_equal(x->f.running.ifaces[0].qos_input, "");
	/* s2 began on the running policy s1 replaced. */
	ask(x, "{\"cmd\":\"session\",\"op\":\"commit\",\"name\":\"s2\"}", false,
	    text, sizeof(text));
	assert_non_null(strstr(text, "session s2 not committed: the running "
	                             "configuration changed"));
	assert_int_equal(x->f.changes, 1);
	ask(x, "{\"cmd\":\"session\",\"op\":\"verify\",\"name\":\"s2\"}", true,
	    NULL, 0);
	assert_int_equal(x->f.flags, CTL_CHANGE_ATOMIC | CTL_CHANGE_CHECK);
	ask(x, "{\"cmd\":\"session\",\"op\":\"commit\",\"name\":\"s2\"}", true,
	    NULL, 0);
	ask(x, "{\"cmd\":\"session\",\"op\":\"commit\",\"name\":\"s1\"}", false,
	    text, sizeof(text));
	assert_string_equal(text, "% no configuration session s1");
}

/* The session lines that take swp1's qos policy off. */
static void sess_unpolicy(struct fixture *x, const char *name)
{
	char req[512];

	snprintf(req, sizeof(req),
	         "{\"cmd\":\"session\",\"op\":\"begin\",\"name\":\"%s\"}",
	         name);
	ask(x, req, true, NULL, 0);
	snprintf(req, sizeof(req),
	         "{\"cmd\":\"session\",\"op\":\"line\",\"name\":\"%s\","
	         "\"context\":[\"interface swp1\"],"
	         "\"line\":\"no service-policy type qos input ROCE_POLICY\"}",
	         name);
	ask(x, req, true, NULL, 0);
}

static bool confirm_file(struct fixture *x)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/.confirm", x->dir);
	return access(path, F_OK) == 0;
}

static void test_confirm(void **state)
{
	struct fixture *x = *state;
	struct ctl_request r;
	struct json_object *no;
	const char *line = "{\"cmd\":\"config\",\"line\":\"interface swp2\"}";
	char text[1024], qos[64], err[128];
	double now = (double)time(NULL);
	unsigned changes;

	snprintf(qos, sizeof(qos), "%s", x->f.running.ifaces[0].qos_input);
	assert_int_equal(ctl_sess_wait(&x->k, now), -1);
	/* --- committed, not confirmed: rolled back at the deadline --- */
	sess_unpolicy(x, "s1");
	ask(x,
	    "{\"cmd\":\"session\",\"op\":\"commit\",\"name\":\"s1\","
	    "\"confirm\":\"0\"}",
	    false, text, sizeof(text));
	assert_non_null(strstr(text, "takes 1 to 86400 seconds, not '0'"));
	ask(x,
	    "{\"cmd\":\"session\",\"op\":\"commit\",\"name\":\"s1\","
	    "\"confirm\":\"30\"}",
	    true, text, sizeof(text));
	assert_non_null(strstr(text, "Commit Successful (3 kernel writes)\n"
	                             "Rolls back at "));
	assert_non_null(strstr(text, "(in 30 s) unless `commit`"));
	assert_string_equal(x->f.running.ifaces[0].qos_input, "");
	assert_true(confirm_file(x));
	assert_true(ctl_sess_wait(&x->k, now) > 0);
	/* What the rollback would undo is refused meanwhile. */
	assert_int_equal(
	    ctl_request_parse(line, strlen(line), &r, err, sizeof(err)), 0);
	no = ctl_sess_guard(&x->c, &r);
	assert_non_null(no);
	assert_non_null(strstr(json_object_to_json_string(no),
	                       "session s1's confirmed commit awaits"));
	json_object_put(no);
	ask(x, "{\"cmd\":\"session\",\"op\":\"begin\",\"name\":\"s2\"}", true,
	    NULL, 0);
	ask(x, "{\"cmd\":\"session\",\"op\":\"commit\",\"name\":\"s2\"}", false,
	    text, sizeof(text));
	assert_non_null(strstr(text, "session s2 not committed: session s1's "
	                             "confirmed commit awaits"));
	ask(x, "{\"cmd\":\"session\",\"op\":\"abort\",\"name\":\"s2\"}", true,
	    NULL, 0);
	/* Not yet due: nothing. */
	changes = x->f.changes;
	ctl_sess_tick(&x->c, now + 5);
	assert_int_equal(x->f.changes, changes);
	/* Due (NOW is whole seconds, taken before the commit, which a
	 * loaded machine can make seconds later: 40 s, not 31). */
	ctl_sess_tick(&x->c, now + 40);
	assert_int_equal(x->f.flags, CTL_CHANGE_ATOMIC);
	assert_string_equal(x->f.running.ifaces[0].qos_input, qos);
	assert_false(confirm_file(x));
	assert_int_equal(ctl_sess_wait(&x->k, now), -1);
	ask(x, "{\"cmd\":\"session\",\"op\":\"commit\",\"name\":\"s1\"}", false,
	    text, sizeof(text));
	assert_string_equal(text, "% no configuration session s1: its "
	                          "confirmed commit was rolled back (its "
	                          "time ran out)");
	/* --- confirmed in time: stays --- */
	sess_unpolicy(x, "s3");
	ask(x,
	    "{\"cmd\":\"session\",\"op\":\"commit\",\"name\":\"s3\","
	    "\"confirm\":\"30\"}",
	    true, NULL, 0);
	ask(x, "{\"cmd\":\"session\",\"op\":\"commit\",\"name\":\"s3\"}", true,
	    text, sizeof(text));
	assert_string_equal(text, "Commit Successful (3 kernel writes), "
	                          "confirmed: no rollback\n");
	assert_false(confirm_file(x));
	changes = x->f.changes;
	ctl_sess_tick(&x->c, now + 100);
	assert_int_equal(x->f.changes, changes);
	assert_string_equal(x->f.running.ifaces[0].qos_input, "");
	ask(x,
	    "{\"cmd\":\"checkpoint\",\"op\":\"rollback\",\"name\":\"nosuch\"}",
	    false, text, sizeof(text));
	assert_string_equal(text, "% no checkpoint nosuch");
}

/* A roced that stops before the confirmation: the next one rolls back
 * at its start; `abort` rolls back at once. */
static void test_confirm_restart(void **state)
{
	struct fixture *x = *state;
	char text[1024], qos[64];

	snprintf(qos, sizeof(qos), "%s", x->f.running.ifaces[0].qos_input);
	sess_unpolicy(x, "s1");
	ask(x,
	    "{\"cmd\":\"session\",\"op\":\"commit\",\"name\":\"s1\","
	    "\"confirm\":\"600\"}",
	    true, NULL, 0);
	assert_string_equal(x->f.running.ifaces[0].qos_input, "");
	/* roced stops and starts again (the running policy is what the
	 * new one applied: here, still the committed one). */
	ctl_sess_close(&x->k);
	ctl_ckpt_close(&x->k);
	assert_int_equal(ctl_ckpt_open(&x->k, x->dir, 1), 0);
	assert_true(confirm_file(x));
	ctl_sess_restore(&x->c);
	assert_string_equal(x->f.running.ifaces[0].qos_input, qos);
	assert_false(confirm_file(x));
	/* A file cut short is not used, and removed. */
	sess_unpolicy(x, "s2");
	ask(x,
	    "{\"cmd\":\"session\",\"op\":\"commit\",\"name\":\"s2\","
	    "\"confirm\":\"600\"}",
	    true, NULL, 0);
	ctl_sess_close(&x->k);
	ctl_ckpt_close(&x->k);
	{
		char path[256];

		snprintf(path, sizeof(path), "%s/.confirm", x->dir);
		assert_int_equal(truncate(path, 100), 0);
	}
	assert_int_equal(ctl_ckpt_open(&x->k, x->dir, 1), 0);
	ctl_sess_restore(&x->c);
	assert_string_equal(x->f.running.ifaces[0].qos_input, "");
	assert_false(confirm_file(x));
	/* abort */
	snprintf(x->f.running.ifaces[0].qos_input,
	         sizeof(x->f.running.ifaces[0].qos_input), "%s", qos);
	sess_unpolicy(x, "s3");
	ask(x,
	    "{\"cmd\":\"session\",\"op\":\"commit\",\"name\":\"s3\","
	    "\"confirm\":\"600\"}",
	    true, NULL, 0);
	assert_string_equal(x->f.running.ifaces[0].qos_input, "");
	ask(x, "{\"cmd\":\"session\",\"op\":\"abort\",\"name\":\"s3\"}", true,
	    text, sizeof(text));
	assert_string_equal(text, "Session s3 aborted: its confirmed commit "
	                          "rolled back (3 kernel writes)\n");
	assert_string_equal(x->f.running.ifaces[0].qos_input, qos);
	assert_false(confirm_file(x));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_store, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_stale_netns, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_damaged, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_rollback, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_sessions, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_confirm, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_confirm_restart, setup,
	                                    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
