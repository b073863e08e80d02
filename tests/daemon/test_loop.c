/* test_loop: the daemon's event loop (daemon/os/loop.c): timers called
 * earliest first (ties in the order they were added), a timer set by
 * hand called once per deadline, a timer's NEXT callback asked each turn,
 * fds' callbacks on readable, an fd left out of the wait and put back,
 * and removal from inside a callback (of another fd, of another timer, of
 * the timer itself) never calling what was removed. Deadlines are set in
 * the past or far ahead, and every turn is given a wait of 0 ms: nothing
 * here depends on how fast the machine is. No root needed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "os/loop.h"

/* What the callbacks did, in order: one letter each. */
struct rec {
	struct loop *l;
	char seq[64];
	size_t n;
	/* what a callback removes */
	struct loop_timer *victim;
	struct loop_timer *self;
	int victim_fd;
	int calls;
	double next; /* a NEXT callback's answer */
};

static void rec_put(struct rec *r, char c)
{
	if (r->n + 1 < sizeof(r->seq))
		r->seq[r->n++] = c;
	r->seq[r->n] = '\0';
}

static void timer_a(void *arg, double now)
{
	(void)now;
	rec_put(arg, 'a');
}

static void timer_b(void *arg, double now)
{
	(void)now;
	rec_put(arg, 'b');
}

static void timer_c(void *arg, double now)
{
	(void)now;
	rec_put(arg, 'c');
}

static void test_timer_order(void **state)
{
	struct loop l;
	struct rec r = {0};
	struct loop_timer *a, *b, *c, *later;

	(void)state;
	assert_int_equal(loop_init(&l), 0);
	a = loop_timer_add(&l, timer_a, NULL, &r);
	b = loop_timer_add(&l, timer_b, NULL, &r);
	c = loop_timer_add(&l, timer_c, NULL, &r);
	later = loop_timer_add(&l, timer_a, NULL, &r);
	assert_non_null(a);
	assert_non_null(later);
	/* earliest first, whatever the order of adding */
	loop_timer_at(a, 30);
	loop_timer_at(b, 10);
	loop_timer_at(c, 20);
	loop_timer_at(later, loop_now_ms() + 3600e3);
	assert_int_equal(loop_turn(&l, 0), 0);
	assert_string_equal(r.seq, "bca");
	/* set by hand: called once per deadline */
	assert_true(loop_timer_deadline(a) < 0);
	assert_int_equal(loop_turn(&l, 0), 0);
	assert_string_equal(r.seq, "bca");
	/* ties: in the order they were added */
	r.n = 0;
	loop_timer_at(c, 5);
	loop_timer_at(a, 5);
	loop_timer_at(b, 5);
	assert_int_equal(loop_turn(&l, 0), 0);
	assert_string_equal(r.seq, "abc");
	/* the far one sets the wait: about an hour, not 0, not -1 */
	assert_true(loop_wait_ms(&l, loop_now_ms()) > 3000e3);
	loop_timer_at(later, -1);
	assert_int_equal(loop_wait_ms(&l, loop_now_ms()), -1);
	loop_free(&l);
}

static double rec_next(void *arg, double now)
{
	(void)now;
	return ((struct rec *)arg)->next;
}

static void test_timer_next(void **state)
{
	struct loop l;
	struct rec r = {0};

	(void)state;
	assert_int_equal(loop_init(&l), 0);
	assert_non_null(loop_timer_add(&l, timer_a, rec_next, &r));
	r.next = -1; /* none */
	assert_int_equal(loop_turn(&l, 0), 0);
	assert_string_equal(r.seq, "");
	r.next = 1; /* past: due at every turn while it says so */
	assert_int_equal(loop_turn(&l, 0), 0);
	assert_int_equal(loop_turn(&l, 0), 0);
	assert_string_equal(r.seq, "aa");
	assert_int_equal(loop_wait_ms(&l, loop_now_ms()), 0);
	r.next = loop_now_ms() + 3600e3;
	assert_int_equal(loop_turn(&l, 0), 0);
	assert_string_equal(r.seq, "aa");
	loop_free(&l);
}

static void timer_kill_victim(void *arg, double now)
{
	struct rec *r = arg;

	(void)now;
	rec_put(r, 'k');
	loop_timer_del(r->l, r->victim);
	r->victim = NULL;
}

static void timer_kill_self(void *arg, double now)
{
	struct rec *r = arg;

	(void)now;
	rec_put(r, 's');
	loop_timer_del(r->l, r->self);
	r->self = NULL;
}

static void timer_postpone_victim(void *arg, double now)
{
	struct rec *r = arg;

	rec_put(r, 'p');
	loop_timer_at(r->victim, now + 3600e3);
}

static void test_timer_removal(void **state)
{
	struct loop l;
	struct rec r = {0};
	struct loop_timer *k, *v;

	(void)state;
	assert_int_equal(loop_init(&l), 0);
	r.l = &l;
	k = loop_timer_add(&l, timer_kill_victim, NULL, &r);
	v = loop_timer_add(&l, timer_b, NULL, &r);
	r.victim = v;
	loop_timer_at(k, 1);
	loop_timer_at(v, 2);
	assert_int_equal(loop_turn(&l, 0), 0);
	assert_string_equal(r.seq, "k");
	/* a timer removing itself; then gone for good */
	r.n = 0;
	r.self = loop_timer_add(&l, timer_kill_self, NULL, &r);
	loop_timer_at(r.self, 1);
	assert_int_equal(loop_turn(&l, 0), 0);
	assert_int_equal(loop_turn(&l, 0), 0);
	assert_string_equal(r.seq, "s");
	assert_int_equal(l.ntimers, 1); /* k alone */
	/* moved later by an earlier callback: not called this turn */
	r.n = 0;
	loop_timer_del(&l, k);
	k = loop_timer_add(&l, timer_postpone_victim, NULL, &r);
	r.victim = v = loop_timer_add(&l, timer_b, NULL, &r);
	loop_timer_at(k, 1);
	loop_timer_at(v, 2);
	assert_int_equal(loop_turn(&l, 0), 0);
	assert_string_equal(r.seq, "p");
	assert_true(loop_timer_deadline(v) > loop_now_ms());
	loop_free(&l);
}

static void fd_read(void *arg, int fd, double now)
{
	struct rec *r = arg;
	char c;

	(void)now;
	if (read(fd, &c, 1) == 1)
		rec_put(r, c);
	r->calls++;
}

/* Reads its byte and removes the other fd. */
static void fd_read_kill(void *arg, int fd, double now)
{
	struct rec *r = arg;

	fd_read(arg, fd, now);
	loop_fd_del(r->l, r->victim_fd);
}

static void test_fd(void **state)
{
	struct loop l;
	struct rec r = {0};
	int p[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(loop_init(&l), 0);
	assert_int_equal(loop_fd_add(&l, p[0], fd_read, &r), 0);
	assert_int_equal(loop_fd_add(&l, p[0], fd_read, &r), -EEXIST);
	assert_true(loop_fd_has(&l, p[0]));
	/* nothing to read: no call */
	assert_int_equal(loop_turn(&l, 0), 0);
	assert_int_equal(r.calls, 0);
	assert_int_equal(write(p[1], "x", 1), 1);
	assert_int_equal(loop_turn(&l, 0), 0);
	assert_string_equal(r.seq, "x");
	/* held: left out of the wait until put back */
	loop_fd_hold(&l, p[0], true);
	assert_int_equal(write(p[1], "y", 1), 1);
	assert_int_equal(loop_turn(&l, 0), 0);
	assert_string_equal(r.seq, "x");
	loop_fd_hold(&l, p[0], false);
	assert_int_equal(loop_turn(&l, 0), 0);
	assert_string_equal(r.seq, "xy");
	/* removed: never called again */
	loop_fd_del(&l, p[0]);
	assert_false(loop_fd_has(&l, p[0]));
	assert_int_equal(write(p[1], "z", 1), 1);
	assert_int_equal(loop_turn(&l, 0), 0);
	assert_string_equal(r.seq, "xy");
	loop_free(&l);
	close(p[0]);
	close(p[1]);
}

/* Two readable fds, each of whose callbacks removes the other: whichever
 * epoll reports first is called, the other never (its event of the same
 * wait is dropped). */
static void test_fd_removal(void **state)
{
	struct loop l;
	struct rec r1 = {0}, r2 = {0};
	int p[2], q[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(pipe(q), 0);
	assert_int_equal(loop_init(&l), 0);
	r1.l = r2.l = &l;
	r1.victim_fd = q[0];
	r2.victim_fd = p[0];
	assert_int_equal(loop_fd_add(&l, p[0], fd_read_kill, &r1), 0);
	assert_int_equal(loop_fd_add(&l, q[0], fd_read_kill, &r2), 0);
	assert_int_equal(write(p[1], "p", 1), 1);
	assert_int_equal(write(q[1], "q", 1), 1);
	assert_int_equal(loop_turn(&l, 0), 0);
	assert_int_equal(r1.calls + r2.calls, 1);
	/* the slot freed is reused by a new fd, which is called */
	r1.calls = r2.calls = 0;
	loop_fd_del(&l, p[0]);
	loop_fd_del(&l, q[0]);
	assert_int_equal(loop_fd_add(&l, q[0], fd_read, &r2), 0);
	assert_int_equal(write(q[1], "r", 1), 1);
	assert_int_equal(loop_turn(&l, 0), 0);
	assert_int_equal(r1.calls, 0);
	assert_int_equal(r2.calls, 1);
	loop_free(&l);
	close(p[0]);
	close(p[1]);
	close(q[0]);
	close(q[1]);
}

static void hook_before(void *arg, double now)
{
	(void)now;
	rec_put(arg, '<');
}

static void hook_after(void *arg, double now)
{
	(void)now;
	rec_put(arg, '>');
}

/* One turn: the hooks before the wait, the fds, the timers, the hooks
 * after them. */
static void test_turn_order(void **state)
{
	struct loop l;
	struct rec r = {0};
	struct loop_timer *t;
	int p[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(loop_init(&l), 0);
	assert_int_equal(loop_hook_add(&l, LOOP_AFTER_TIMERS, hook_after, &r),
	                 0);
	assert_int_equal(loop_hook_add(&l, LOOP_BEFORE_WAIT, hook_before, &r),
	                 0);
	t = loop_timer_add(&l, timer_a, NULL, &r);
	assert_int_equal(loop_fd_add(&l, p[0], fd_read, &r), 0);
	loop_timer_at(t, 1);
	assert_int_equal(write(p[1], "f", 1), 1);
	assert_int_equal(loop_turn(&l, 0), 0);
	assert_string_equal(r.seq, "<fa>");
	loop_free(&l);
	close(p[0]);
	close(p[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_timer_order),
	    cmocka_unit_test(test_timer_next),
	    cmocka_unit_test(test_timer_removal),
	    cmocka_unit_test(test_fd),
	    cmocka_unit_test(test_fd_removal),
	    cmocka_unit_test(test_turn_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
