/* loop: the daemon's one event loop, a table of file descriptors and of
 * timers, each with its callback, over one epoll wait (lldpd's levent is
 * the model: a callback per fd and per timer, not an if-chain over every
 * fd and a minimum of deadlines taken by hand).
 *
 *  - an fd is registered with the callback called when it is readable;
 *    it may be left out of the wait for a while (loop_fd_hold: a reload's
 *    turns hear neither signals nor the control socket) and removed, from
 *    anywhere, a callback of the same turn included: a removed fd's
 *    pending event is dropped, never delivered to whoever reuses the
 *    number;
 *  - a timer has a deadline on the one clock (loop_now_ms, CLOCK_MONOTONIC
 *    in ms), set with loop_timer_at, or asked of its owner before each
 *    wait through a NEXT callback (for the agents whose next deadline
 *    follows from their state: what they would return from a *_wait
 *    function). The wait sleeps until the earliest deadline; after the
 *    fds' callbacks, every timer whose deadline has come is called, the
 *    earliest first (ties in the order they were added). A timer removed
 *    or moved later by an earlier callback of the turn is not called;
 *  - turn hooks run once per turn, before the wait (LOOP_BEFORE_WAIT:
 *    bring state up to date that the NEXT callbacks read) or after the
 *    timers (LOOP_AFTER_TIMERS).
 *
 * There are no threads here: everything runs inside loop_turn().
 */
#ifndef ROCED_LOOP_H
#define ROCED_LOOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* FD is readable. */
typedef void (*loop_fd_fn)(void *arg, int fd, double now_ms);
/* The timer's deadline came (NOW_MS is at or after it). */
typedef void (*loop_timer_fn)(void *arg, double now_ms);
/* The timer's next deadline, as of NOW_MS (ms on loop_now_ms' clock;
 * < 0: none). */
typedef double (*loop_next_fn)(void *arg, double now_ms);
typedef void (*loop_hook_fn)(void *arg, double now_ms);

enum loop_hook_when {
	LOOP_BEFORE_WAIT,
	LOOP_AFTER_TIMERS,
	LOOP_NHOOKS
};

struct loop_timer;

struct loop_fd {
	int fd;       /* -1: a free slot */
	uint32_t gen; /* bumped when the slot is freed */
	bool held;    /* left out of the wait (loop_fd_hold) */
	loop_fd_fn fn;
	void *arg;
};

struct loop_hook {
	loop_hook_fn fn;
	void *arg;
};

struct loop {
	int epfd;
	struct loop_fd *fds;
	size_t nfds, capfds;
	struct loop_timer **timers;
	size_t ntimers, captimers;
	struct loop_hook *hooks[LOOP_NHOOKS];
	size_t nhooks[LOOP_NHOOKS];
	/* Inside a turn's dispatch: removed timers are freed after it. */
	bool dispatching;
	uint64_t turns, wakeups, fd_calls, timer_calls;
};

/* The one clock: CLOCK_MONOTONIC in milliseconds. */
double loop_now_ms(void);

/* Returns 0 or -errno (epoll). */
int loop_init(struct loop *l);
void loop_free(struct loop *l);

/* Call FN(ARG, FD) when FD is readable. Returns 0 or -errno (-EEXIST:
 * FD is registered already). */
int loop_fd_add(struct loop *l, int fd, loop_fd_fn fn, void *arg);
/* FD no longer watched (nothing when it is not registered); a pending
 * event of the turn under way is dropped. */
void loop_fd_del(struct loop *l, int fd);
/* Leave FD out of the wait (HELD) or put it back. */
void loop_fd_hold(struct loop *l, int fd, bool held);
bool loop_fd_has(const struct loop *l, int fd);

/* A timer calling FN(ARG); NEXT (may be NULL) gives its deadline before
 * each wait, else it has none until loop_timer_at. NULL: no memory. */
struct loop_timer *loop_timer_add(struct loop *l, loop_timer_fn fn,
                                  loop_next_fn next, void *arg);
/* Its deadline (ms on loop_now_ms' clock; < 0: none). A timer with a
 * NEXT callback takes NEXT's word at the next turn. */
void loop_timer_at(struct loop_timer *t, double at_ms);
double loop_timer_deadline(const struct loop_timer *t);
/* Remove T (safe inside any callback, T's own included). */
void loop_timer_del(struct loop *l, struct loop_timer *t);

/* FN(ARG) once per turn, at WHEN. Returns 0 or -ENOMEM. */
int loop_hook_add(struct loop *l, enum loop_hook_when when, loop_hook_fn fn,
                  void *arg);

/* How long the next wait may last (ms; -1: until an fd is readable), as
 * of NOW_MS: until the earliest deadline, rounded up. */
int loop_wait_ms(struct loop *l, double now_ms);
/* One turn: the hooks before the wait, the wait (at most MAX_MS; -1:
 * as long as the timers allow), the readable fds' callbacks, the due
 * timers' and the hooks after them. Returns 0, or -errno when the wait
 * failed (EINTR is a turn with no event). */
int loop_turn(struct loop *l, int max_ms);

#endif
