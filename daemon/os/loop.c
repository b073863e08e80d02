/* loop: the daemon's event loop. See loop.h. */
#include "os/loop.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

/* Events taken from one epoll_wait: more wait for the next turn, which
 * comes at once (they are still readable). */
#define LOOP_EVENTS 32

struct loop_timer {
	loop_timer_fn fn;
	loop_next_fn next;
	void *arg;
	double at;    /* < 0: none */
	uint64_t seq; /* the order of adding: ties go to the older */
	bool dead;    /* removed inside a dispatch, freed after it */
};

double loop_now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

int loop_init(struct loop *l)
{
	memset(l, 0, sizeof(*l));
	l->epfd = epoll_create1(EPOLL_CLOEXEC);
	return l->epfd < 0 ? -errno : 0;
}

void loop_free(struct loop *l)
{
	for (size_t i = 0; i < l->ntimers; i++)
		free(l->timers[i]);
	free(l->timers);
	free(l->fds);
	for (unsigned w = 0; w < LOOP_NHOOKS; w++)
		free(l->hooks[w]);
	if (l->epfd >= 0)
		close(l->epfd);
	memset(l, 0, sizeof(*l));
	l->epfd = -1;
}

/* --- fds --- */

static struct loop_fd *loop_fd_find(const struct loop *l, int fd)
{
	for (size_t i = 0; fd >= 0 && i < l->nfds; i++)
		if (l->fds[i].fd == fd)
			return &l->fds[i];
	return NULL;
}

/* The epoll cookie of slot I: its index and generation, so that an event
 * of a slot freed (and perhaps reused) meanwhile is recognised. */
static uint64_t loop_cookie(const struct loop *l, size_t i)
{
	return (uint64_t)l->fds[i].gen << 32 | (uint64_t)i;
}

static int loop_ctl(struct loop *l, int op, size_t i)
{
	struct epoll_event ev = {.events = EPOLLIN};

	ev.data.u64 = loop_cookie(l, i);
	return epoll_ctl(l->epfd, op, l->fds[i].fd, &ev) < 0 ? -errno : 0;
}

int loop_fd_add(struct loop *l, int fd, loop_fd_fn fn, void *arg)
{
	size_t i;
	int rc;

	if (fd < 0 || !fn)
		return -EINVAL;
	if (loop_fd_find(l, fd))
		return -EEXIST;
	for (i = 0; i < l->nfds && l->fds[i].fd >= 0; i++)
		;
	if (i == l->nfds) {
		if (l->nfds == l->capfds) {
			size_t cap = l->capfds ? 2 * l->capfds : 16;
			struct loop_fd *nv = realloc(l->fds, cap * sizeof(*nv));

			if (!nv)
				return -ENOMEM;
			l->fds = nv;
			l->capfds = cap;
		}
		l->fds[l->nfds++] = (struct loop_fd){.fd = -1};
	}
	l->fds[i].fd = fd;
	l->fds[i].held = false;
	l->fds[i].fn = fn;
	l->fds[i].arg = arg;
	rc = loop_ctl(l, EPOLL_CTL_ADD, i);
	if (rc < 0) {
		l->fds[i].fd = -1;
		l->fds[i].gen++;
	}
	return rc;
}

void loop_fd_del(struct loop *l, int fd)
{
	struct loop_fd *e = loop_fd_find(l, fd);

	if (!e)
		return;
	if (!e->held)
		epoll_ctl(l->epfd, EPOLL_CTL_DEL, fd, NULL);
	e->fd = -1;
	e->gen++;
	e->fn = NULL;
	e->arg = NULL;
}

void loop_fd_hold(struct loop *l, int fd, bool held)
{
	struct loop_fd *e = loop_fd_find(l, fd);

	if (!e || e->held == held)
		return;
	if (held)
		epoll_ctl(l->epfd, EPOLL_CTL_DEL, fd, NULL);
	else if (loop_ctl(l, EPOLL_CTL_ADD, (size_t)(e - l->fds)) < 0)
		return; /* stays held: the fd is gone, or no memory */
	e->held = held;
}

bool loop_fd_has(const struct loop *l, int fd)
{
	return loop_fd_find(l, fd) != NULL;
}

/* --- timers --- */

struct loop_timer *loop_timer_add(struct loop *l, loop_timer_fn fn,
                                  loop_next_fn next, void *arg)
{
	static uint64_t seq;
	struct loop_timer *t;

	if (!fn)
		return NULL;
	if (l->ntimers == l->captimers) {
		size_t cap = l->captimers ? 2 * l->captimers : 16;
		struct loop_timer **nv = realloc(l->timers, cap * sizeof(*nv));

		if (!nv)
			return NULL;
		l->timers = nv;
		l->captimers = cap;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->fn = fn;
	t->next = next;
	t->arg = arg;
	t->at = -1;
	t->seq = ++seq;
	l->timers[l->ntimers++] = t;
	return t;
}

void loop_timer_at(struct loop_timer *t, double at_ms)
{
	if (t && !t->dead)
		t->at = at_ms;
}

double loop_timer_deadline(const struct loop_timer *t)
{
	return t && !t->dead ? t->at : -1;
}

/* Free the timers removed during a dispatch. */
static void loop_timer_sweep(struct loop *l)
{
	size_t k = 0;

	for (size_t i = 0; i < l->ntimers; i++) {
		if (l->timers[i]->dead)
			free(l->timers[i]);
		else
			l->timers[k++] = l->timers[i];
	}
	l->ntimers = k;
}

void loop_timer_del(struct loop *l, struct loop_timer *t)
{
	if (!t || t->dead)
		return;
	t->dead = true;
	t->at = -1;
	if (!l->dispatching)
		loop_timer_sweep(l);
}

/* The timers that follow their owner's state: their deadlines now. */
static void loop_timer_refresh(struct loop *l, double now)
{
	for (size_t i = 0; i < l->ntimers; i++) {
		struct loop_timer *t = l->timers[i];

		if (t->next && !t->dead)
			t->at = t->next(t->arg, now);
	}
}

int loop_wait_ms(struct loop *l, double now)
{
	double next = -1;

	for (size_t i = 0; i < l->ntimers; i++) {
		const struct loop_timer *t = l->timers[i];

		if (!t->dead && t->at >= 0 && (next < 0 || t->at < next))
			next = t->at;
	}
	if (next < 0)
		return -1;
	if (next <= now)
		return 0;
	/* Rounded up: a wait of whole ms that ends before the deadline
	 * would only turn once more for nothing. */
	next = ceil(next - now);
	return next > 86400000.0 ? 86400000 : (int)next;
}

static int loop_due_cmp(const void *a, const void *b)
{
	const struct loop_timer *x = *(struct loop_timer *const *)a;
	const struct loop_timer *y = *(struct loop_timer *const *)b;

	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Call the timers due at NOW, the earliest first. The set is taken
 * before the first call: a timer a callback makes due now waits for the
 * next turn (which then does not wait). */
static void loop_timers_run(struct loop *l, double now)
{
	struct loop_timer *stack[32], **due = stack;
	size_t n = 0;

	for (size_t i = 0; i < l->ntimers; i++)
		n += !l->timers[i]->dead && l->timers[i]->at >= 0 &&
		     l->timers[i]->at <= now;
	if (!n)
		return;
	if (n > sizeof(stack) / sizeof(stack[0])) {
		due = malloc(n * sizeof(*due));
		if (!due)
			return; /* the next turn, which does not wait */
	}
	n = 0;
	for (size_t i = 0; i < l->ntimers; i++)
		if (!l->timers[i]->dead && l->timers[i]->at >= 0 &&
		    l->timers[i]->at <= now)
			due[n++] = l->timers[i];
	qsort(due, n, sizeof(*due), loop_due_cmp);
	for (size_t i = 0; i < n; i++) {
		struct loop_timer *t = due[i];

		/* removed, or moved later, by an earlier callback */
		if (t->dead || t->at < 0 || t->at > now)
			continue;
		/* A timer set by hand is called once per deadline. */
		if (!t->next)
			t->at = -1;
		l->timer_calls++;
		/* the time of the call: an earlier callback (an apply) may
		 * have taken long */
		t->fn(t->arg, loop_now_ms());
	}
	if (due != stack)
		free(due);
}

/* --- hooks and the turn --- */

int loop_hook_add(struct loop *l, enum loop_hook_when when, loop_hook_fn fn,
                  void *arg)
{
	struct loop_hook *nv;

	if (when >= LOOP_NHOOKS || !fn)
		return -EINVAL;
	nv = realloc(l->hooks[when], (l->nhooks[when] + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	l->hooks[when] = nv;
	nv[l->nhooks[when]++] = (struct loop_hook){fn, arg};
	return 0;
}

static void loop_hooks(struct loop *l, enum loop_hook_when when, double now)
{
	for (size_t i = 0; i < l->nhooks[when]; i++)
		l->hooks[when][i].fn(l->hooks[when][i].arg, now);
}

int loop_turn(struct loop *l, int max_ms)
{
	struct epoll_event evs[LOOP_EVENTS];
	double now = loop_now_ms();
	int wait, n;

	l->turns++;
	loop_hooks(l, LOOP_BEFORE_WAIT, now);
	loop_timer_refresh(l, now);
	wait = loop_wait_ms(l, now);
	if (max_ms >= 0 && (wait < 0 || wait > max_ms))
		wait = max_ms;
	n = epoll_wait(l->epfd, evs, LOOP_EVENTS, wait);
	if (n < 0 && errno != EINTR)
		return -errno;
	if (n > 0)
		l->wakeups++;
	l->dispatching = true;
	now = loop_now_ms();
	for (int i = 0; i < n; i++) {
		size_t k = (size_t)(evs[i].data.u64 & 0xffffffffu);
		uint32_t gen = (uint32_t)(evs[i].data.u64 >> 32);
		struct loop_fd *e = k < l->nfds ? &l->fds[k] : NULL;

		/* removed by an earlier callback of this turn */
		if (!e || e->fd < 0 || e->gen != gen || e->held)
			continue;
		l->fd_calls++;
		e->fn(e->arg, e->fd, loop_now_ms());
	}
	/* What the events changed may have made a timer due now. */
	now = loop_now_ms();
	loop_timer_refresh(l, now);
	loop_timers_run(l, now);
	loop_hooks(l, LOOP_AFTER_TIMERS, loop_now_ms());
	l->dispatching = false;
	loop_timer_sweep(l);
	return 0;
}
