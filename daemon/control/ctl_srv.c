/* ctl_srv: see ctl_srv.h. */
#include "control/ctl_srv.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "os/log.h"
#include "os/rundir.h"

#ifndef SO_PEERGROUPS
#define SO_PEERGROUPS 59
#endif

struct ctl_client {
	int fd;
	struct ctl_peer peer;
	bool may_configure;
	uint64_t last_ms; /* accepted or last request, CLOCK_MONOTONIC */
};

/* A client over the limit is held until its first request arrives and
 * answered "too many clients" then: closing it at accept() instead makes
 * its first send fail with ECONNRESET, and the user never sees why. */
#define CTL_SRV_REFUSING 16
/* A refused client that sends nothing is closed after this long. */
#define CTL_SRV_REFUSE_MS 1000
/* The "too many clients" warning at most once per this long. */
#define CTL_SRV_REFUSE_LOG_MS 10000

struct ctl_srv {
	int epfd, lfd;
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	bool have_group;
	gid_t group;
	ctl_srv_handler handler;
	void *data;
	struct ctl_client *clients;
	size_t max_clients;
	struct ctl_client refusing[CTL_SRV_REFUSING];
	/* Sweeps idle clients (and refused ones that never ask); armed
	 * only while there is one (TICK: its period, ARMED: whether it
	 * runs), so that a roced nobody talks to is not woken for it. */
	int tfd;
	unsigned tick_ms;
	bool armed;
	unsigned idle_ms;
	uint64_t refuse_logged_ms;
	unsigned refused_unlogged;
	/* One request at a time: CTL_MAX_REQUEST bytes and one more, so
	 * that a longer datagram shows as truncated. */
	char *buf;
};

struct json_object *ctl_reply_ok(void)
{
	struct json_object *o = json_object_new_object();

	if (o)
		json_object_object_add(o, "ok", json_object_new_boolean(1));
	return o;
}

struct json_object *ctl_reply_error(const char *fmt, ...)
{
	struct json_object *o = json_object_new_object();
	char *msg = NULL;
	va_list ap;
	int n;

	if (!o)
		return NULL;
	/* Error lists (a reload's FILE:LINE errors) can be long. */
	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	json_object_object_add(o, "ok", json_object_new_boolean(0));
	json_object_object_add(
	    o, "error",
	    json_object_new_string(n < 0 ? "% out of memory" : msg));
	if (n >= 0)
		free(msg);
	return o;
}

/* --- single instance --- */

int ctl_instance_lock(char *err, size_t errlen)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	socklen_t salen;
	int fd, n, rc;

	/* sun_path[0] = '\0': the abstract namespace, per network
	 * namespace, released by the kernel when roced goes away. */
	n = snprintf(sa.sun_path + 1, sizeof(sa.sun_path) - 1, "roced.%lu",
	             ctl_netns_inode());
	salen =
	    (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)n);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "socket: %s", strerror(-rc));
		return rc;
	}
	if (bind(fd, (struct sockaddr *)&sa, salen) == 0) {
		/* Listening lets a second instance ask who we are. */
		listen(fd, 1);
		return fd;
	}
	rc = -errno;
	close(fd);
	if (rc != -EADDRINUSE) {
		snprintf(err, errlen, "cannot take the instance lock: %s",
		         strerror(-rc));
		return rc;
	}
	snprintf(err, errlen,
	         "another roced is already running in this network namespace");
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, salen) == 0) {
		struct ucred uc;
		socklen_t len = sizeof(uc);

		if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &uc, &len) == 0 &&
		    uc.pid > 0)
			snprintf(err, errlen,
			         "another roced (pid %d) is already running in "
			         "this network namespace",
			         (int)uc.pid);
	}
	if (fd >= 0)
		close(fd);
	return rc;
}

/* --- the socket --- */

static int ctl_srv_listen(struct ctl_srv *s, char *err, size_t errlen)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	char dir[sizeof(s->path)];
	struct stat st;
	mode_t old;
	int rc;

	snprintf(dir, sizeof(dir), "%s", s->path);
	rc = rundir_prepare(dirname(dir), err, errlen);
	if (rc < 0)
		return rc;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", s->path);
	s->lfd =
	    socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (s->lfd < 0) {
		rc = -errno;
		snprintf(err, errlen, "socket: %s", strerror(-rc));
		return rc;
	}
	/* The caller holds the instance lock: a socket file left here is
	 * from a roced that died. Only one that is there is removed (a
	 * read-only directory refuses an unlink even of nothing), and only
	 * a socket: anything else is not roced's. */
	if (lstat(s->path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) {
			snprintf(err, errlen,
			         "%s exists and is not a socket: not removing "
			         "it",
			         s->path);
			return -EEXIST;
		}
		if (unlink(s->path) < 0 && errno != ENOENT) {
			rc = -errno;
			snprintf(err, errlen, "cannot remove the stale %s: %s",
			         s->path, strerror(-rc));
			return rc;
		}
	}
	/* No window in which the socket is more open than it will be. */
	old = umask(0177);
	rc = bind(s->lfd, (struct sockaddr *)&sa, sizeof(sa));
	umask(old);
	if (rc < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot bind %s: %s", s->path,
		         strerror(-rc));
		return rc;
	}
	if (s->have_group && (chown(s->path, (uid_t)-1, s->group) < 0 ||
	                      chmod(s->path, 0660) < 0)) {
		rc = -errno;
		snprintf(err, errlen, "cannot give %s to group %u: %s", s->path,
		         (unsigned)s->group, strerror(-rc));
		return rc;
	}
	if (listen(s->lfd, 16) < 0) {
		rc = -errno;
		snprintf(err, errlen, "listen %s: %s", s->path, strerror(-rc));
		return rc;
	}
	return 0;
}

static uint64_t ctl_srv_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* A periodic timer in the server's own epoll set, so that idle clients go
 * even when nobody else talks to roced. A quarter of the idle time keeps
 * the overshoot small; a refused client's second is the shortest wait.
 * It runs while a client (or a refused one) is there (ctl_srv_arm). */
static int ctl_srv_timer(struct ctl_srv *s)
{
	struct epoll_event ev = {.events = EPOLLIN, .data.ptr = &s->tfd};
	unsigned ms = s->idle_ms / 4;

	if (ms > CTL_SRV_REFUSE_MS / 2)
		ms = CTL_SRV_REFUSE_MS / 2;
	if (ms < 10)
		ms = 10;
	s->tick_ms = ms;
	s->armed = false;
	s->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (s->tfd < 0 || epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->tfd, &ev) < 0)
		return -errno;
	return 0;
}

/* The sweep's timer runs while there is a client to sweep, and only
 * then. */
static void ctl_srv_arm(struct ctl_srv *s)
{
	struct itimerspec its = {{0, 0}, {0, 0}};
	bool want = false;

	for (size_t i = 0; !want && i < s->max_clients; i++)
		want = s->clients[i].fd >= 0;
	for (size_t i = 0; !want && i < CTL_SRV_REFUSING; i++)
		want = s->refusing[i].fd >= 0;
	if (want == s->armed || s->tfd < 0)
		return;
	if (want) {
		its.it_interval.tv_sec = s->tick_ms / 1000;
		its.it_interval.tv_nsec = (long)(s->tick_ms % 1000) * 1000000;
		its.it_value = its.it_interval;
	}
	if (timerfd_settime(s->tfd, 0, &its, NULL) < 0) {
		log_warn("control socket: timerfd");
		return;
	}
	s->armed = want;
}

int ctl_srv_open(struct ctl_srv **out, const struct ctl_srv_config *c,
                 ctl_srv_handler h, void *data, char *err, size_t errlen)
{
	struct epoll_event ev = {.events = EPOLLIN};
	struct ctl_srv *s;
	int rc;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->epfd = s->lfd = s->tfd = -1;
	s->handler = h;
	s->data = data;
	s->have_group = c->have_group;
	s->group = c->group;
	s->max_clients = c->max_clients ? c->max_clients : CTL_SRV_MAX_CLIENTS;
	s->idle_ms = c->idle_ms ? c->idle_ms : CTL_SRV_IDLE_MS;
	s->clients = calloc(s->max_clients, sizeof(*s->clients));
	s->buf = malloc(CTL_MAX_REQUEST + 1);
	if (!s->clients || !s->buf) {
		rc = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	for (size_t i = 0; i < s->max_clients; i++)
		s->clients[i].fd = -1;
	for (size_t i = 0; i < CTL_SRV_REFUSING; i++)
		s->refusing[i].fd = -1;
	if (c->path) {
		if (strlen(c->path) >= sizeof(s->path)) {
			rc = -ENAMETOOLONG;
			snprintf(err, errlen, "socket path too long: %s",
			         c->path);
			goto fail;
		}
		snprintf(s->path, sizeof(s->path), "%s", c->path);
	} else if ((rc = ctl_state_path(s->path, sizeof(s->path), ".sock")) <
	           0) {
		snprintf(err, errlen, "no control socket path: %s",
		         strerror(-rc));
		goto fail;
	}
	rc = ctl_srv_listen(s, err, errlen);
	if (rc < 0)
		goto fail;
	s->epfd = epoll_create1(EPOLL_CLOEXEC);
	ev.data.ptr = NULL; /* NULL: the listener; else a client */
	if (s->epfd < 0 || epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->lfd, &ev) < 0) {
		rc = -errno;
		snprintf(err, errlen, "epoll: %s", strerror(-rc));
		unlink(s->path);
		goto fail;
	}
	rc = ctl_srv_timer(s);
	if (rc < 0) {
		snprintf(err, errlen, "timerfd: %s", strerror(-rc));
		unlink(s->path);
		goto fail;
	}
	*out = s;
	return 0;
fail:
	if (s->tfd >= 0)
		close(s->tfd);
	if (s->lfd >= 0)
		close(s->lfd);
	if (s->epfd >= 0)
		close(s->epfd);
	free(s->clients);
	free(s->buf);
	free(s);
	return rc;
}

int ctl_srv_fd(const struct ctl_srv *s)
{
	return s->epfd;
}

const char *ctl_srv_path(const struct ctl_srv *s)
{
	return s->path;
}

/* Send one reply datagram. A reply that does not fit becomes an error
 * reply; a client that does not read its replies is dropped. */
static int ctl_srv_send(int fd, struct json_object *reply)
{
	const char *txt;
	size_t len;

	if (!reply)
		reply = ctl_reply_error("%% out of memory");
	if (!reply)
		return -ENOMEM;
	txt = json_object_to_json_string_ext(reply, JSON_C_TO_STRING_PLAIN);
	len = txt ? strlen(txt) : 0;
	if (!txt || len > CTL_MAX_REPLY) {
		json_object_put(reply);
		reply = ctl_reply_error("%% the reply is too large (over %d "
		                        "bytes)",
		                        CTL_MAX_REPLY);
		if (!reply)
			return -ENOMEM;
		txt = json_object_to_json_string_ext(reply,
		                                     JSON_C_TO_STRING_PLAIN);
		len = strlen(txt);
	}
	if (send(fd, txt, len, MSG_NOSIGNAL | MSG_DONTWAIT) < 0) {
		int rc = -errno;

		json_object_put(reply);
		return rc;
	}
	json_object_put(reply);
	return 0;
}

static void ctl_srv_drop(struct ctl_srv *s, struct ctl_client *c)
{
	log_debug(LOG_SUB_CTL, "client pid %d: closed", (int)c->peer.pid);
	epoll_ctl(s->epfd, EPOLL_CTL_DEL, c->fd, NULL);
	close(c->fd);
	c->fd = -1;
}

/* The peer's uid, gid and groups, and whether it may configure. */
static void ctl_srv_peer(struct ctl_srv *s, struct ctl_client *c)
{
	struct ucred uc = {.pid = 0, .uid = (uid_t)-1, .gid = (gid_t)-1};
	socklen_t len = sizeof(uc);
	gid_t *groups;
	int n = 0;

	memset(&c->peer, 0, sizeof(c->peer));
	if (getsockopt(c->fd, SOL_SOCKET, SO_PEERCRED, &uc, &len) < 0)
		log_warn("SO_PEERCRED");
	c->peer.pid = uc.pid;
	c->peer.uid = uc.uid;
	c->peer.gid = uc.gid;
	/* SO_PEERGROUPS: the groups as they were at connect(), with no
	 * race against the pid being reused. */
	len = 0;
	getsockopt(c->fd, SOL_SOCKET, SO_PEERGROUPS, NULL, &len);
	groups = len ? malloc(len) : NULL;
	if (groups &&
	    getsockopt(c->fd, SOL_SOCKET, SO_PEERGROUPS, groups, &len) == 0)
		n = (int)(len / sizeof(gid_t));
	else if (!len) {
		/* An older kernel: the process's status instead. */
		char path[64], st[4096];
		ssize_t r;
		int fd;

		snprintf(path, sizeof(path), "/proc/%d/status", (int)uc.pid);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		r = fd >= 0 ? read(fd, st, sizeof(st) - 1) : -1;
		if (fd >= 0)
			close(fd);
		if (r > 0) {
			st[r] = '\0';
			free(groups);
			groups = calloc(CTL_PEER_GROUPS_MAX, sizeof(*groups));
			n = groups ? ctl_status_groups(st, groups,
			                               CTL_PEER_GROUPS_MAX)
			           : 0;
		}
	}
	for (int i = 0; i < n; i++) {
		/* Keep the control group when the list is too long. */
		if (c->peer.ngroups < CTL_PEER_GROUPS_MAX)
			c->peer.groups[c->peer.ngroups++] = groups[i];
		else if (s->have_group && groups[i] == s->group)
			c->peer.groups[CTL_PEER_GROUPS_MAX - 1] = groups[i];
	}
	free(groups);
	c->may_configure =
	    ctl_peer_may_configure(&c->peer, s->have_group, s->group);
}

/* Release the slots of clients that have hung up but whose hang-up this
 * round has not reached yet: a client that closes and reconnects at once
 * must find its old slot free. */
static void ctl_srv_reap(struct ctl_srv *s)
{
	for (size_t i = 0; i < s->max_clients; i++) {
		struct pollfd p = {.fd = s->clients[i].fd, .events = POLLRDHUP};

		if (p.fd >= 0 && poll(&p, 1, 0) == 1 &&
		    (p.revents & (POLLHUP | POLLRDHUP | POLLERR)))
			ctl_srv_drop(s, &s->clients[i]);
	}
}

/* A free slot for a peer with uid UID. The last slot is root's alone, so
 * that members of the control group cannot lock root out. */
static struct ctl_client *ctl_srv_slot(struct ctl_srv *s, uid_t uid)
{
	size_t n = s->max_clients;

	if (uid != 0 && n > 1)
		n--;
	for (size_t i = 0; i < n; i++)
		if (s->clients[i].fd < 0)
			return &s->clients[i];
	return NULL;
}

static void ctl_srv_refuse(struct ctl_srv *s, int fd, uint64_t now)
{
	struct epoll_event ev = {.events = EPOLLIN};
	struct ctl_client *r = NULL;

	/* One warning per interval, with the count, instead of a line per
	 * refused connection. */
	s->refused_unlogged++;
	if (!s->refuse_logged_ms ||
	    now - s->refuse_logged_ms >= CTL_SRV_REFUSE_LOG_MS) {
		log_warnx("control socket: refused %u client%s: too many "
		          "clients (at most %zu)",
		          s->refused_unlogged,
		          s->refused_unlogged == 1 ? "" : "s", s->max_clients);
		s->refuse_logged_ms = now;
		s->refused_unlogged = 0;
	}
	for (size_t i = 0; i < CTL_SRV_REFUSING; i++)
		if (s->refusing[i].fd < 0) {
			r = &s->refusing[i];
			break;
		}
	ev.data.ptr = r;
	if (!r || epoll_ctl(s->epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
		/* Too many waiting already: say it now and hang up. */
		ctl_srv_send(fd, ctl_reply_error("%% too many clients (at "
		                                 "most %zu)",
		                                 s->max_clients));
		close(fd);
		return;
	}
	r->fd = fd;
	r->last_ms = now;
}

/* A refused client's request arrived, it hung up, or its grace is over:
 * answer (unless it hung up) and close. A client that had not asked yet
 * finds the answer waiting when it does (rocesh reads it). */
static void ctl_srv_refused(struct ctl_srv *s, struct ctl_client *r)
{
	char b[1];

	if (recv(r->fd, b, sizeof(b), MSG_TRUNC | MSG_DONTWAIT) != 0)
		ctl_srv_send(r->fd, ctl_reply_error("%% too many clients (at "
		                                    "most %zu)",
		                                    s->max_clients));
	epoll_ctl(s->epfd, EPOLL_CTL_DEL, r->fd, NULL);
	close(r->fd);
	r->fd = -1;
}

static void ctl_srv_accept(struct ctl_srv *s)
{
	for (;;) {
		struct epoll_event ev = {.events = EPOLLIN};
		struct ucred uc = {.uid = (uid_t)-1};
		socklen_t uclen = sizeof(uc);
		struct ctl_client *c;
		int fd, sz = CTL_MAX_REPLY + 4096;
		uint64_t now;

		fd = accept4(s->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno != EAGAIN && errno != EINTR)
				log_warn("control socket: accept");
			return;
		}
		now = ctl_srv_now_ms();
		getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &uc, &uclen);
		c = ctl_srv_slot(s, uc.uid);
		if (!c) {
			ctl_srv_reap(s);
			c = ctl_srv_slot(s, uc.uid);
		}
		if (!c) {
			ctl_srv_refuse(s, fd, now);
			continue;
		}
		/* A reply is one datagram: the send buffer must hold the
		 * largest one (root may exceed wmem_max). */
		if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &sz,
		               sizeof(sz)) < 0)
			setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
		c->fd = fd;
		c->last_ms = now;
		ctl_srv_peer(s, c);
		ev.data.ptr = c;
		if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
			log_warn("control socket: epoll");
			close(fd);
			c->fd = -1;
			continue;
		}
		log_debug(LOG_SUB_CTL, "client pid %d uid %u: connected%s",
		          (int)c->peer.pid, (unsigned)c->peer.uid,
		          c->may_configure ? ", may configure" : "");
	}
}

/* The timer: close clients idle for longer than the idle time, and
 * refused clients that never sent their request. */
static void ctl_srv_sweep(struct ctl_srv *s)
{
	uint64_t now = ctl_srv_now_ms(), ticks;

	if (read(s->tfd, &ticks, sizeof(ticks)) < 0 && errno != EAGAIN)
		log_warn("control socket: timerfd");
	for (size_t i = 0; i < s->max_clients; i++) {
		struct ctl_client *c = &s->clients[i];

		if (c->fd >= 0 && now - c->last_ms >= s->idle_ms) {
			log_debug(LOG_SUB_CTL,
			          "client pid %d: idle for %u ms, closing",
			          (int)c->peer.pid, s->idle_ms);
			ctl_srv_drop(s, c);
		}
	}
	for (size_t i = 0; i < CTL_SRV_REFUSING; i++) {
		struct ctl_client *r = &s->refusing[i];

		if (r->fd >= 0 && now - r->last_ms >= CTL_SRV_REFUSE_MS)
			ctl_srv_refused(s, r);
	}
}

/* Read and answer one request of C. */
static void ctl_srv_serve(struct ctl_srv *s, struct ctl_client *c)
{
	struct iovec iov = {.iov_base = s->buf, .iov_len = CTL_MAX_REQUEST + 1};
	struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1};
	struct ctl_request *req;
	struct json_object *reply;
	char err[512];
	ssize_t n;
	int rc;

	/* MSG_TRUNC: the datagram's real length even when it is longer
	 * than the buffer (the rest is discarded). */
	n = recvmsg(c->fd, &mh, MSG_TRUNC | MSG_DONTWAIT);
	if (n < 0) {
		if (errno != EAGAIN && errno != EINTR)
			ctl_srv_drop(s, c);
		return;
	}
	if (n == 0) {
		ctl_srv_drop(s, c);
		return;
	}
	c->last_ms = ctl_srv_now_ms();
	if (n > CTL_MAX_REQUEST || (mh.msg_flags & MSG_TRUNC)) {
		log_warnx("control socket: pid %d sent %zd bytes, more than "
		          "%d: closing",
		          (int)c->peer.pid, n, CTL_MAX_REQUEST);
		ctl_srv_send(c->fd, ctl_reply_error("%% request too large (%zd "
		                                    "bytes, at most %d)",
		                                    n, CTL_MAX_REQUEST));
		ctl_srv_drop(s, c);
		return;
	}
	req = malloc(sizeof(*req));
	if (!req) {
		ctl_srv_send(c->fd, NULL);
		return;
	}
	rc = ctl_request_parse(s->buf, (size_t)n, req, err, sizeof(err));
	if (rc < 0 && !(req->cmd_known && ctl_cmd_configures(req->cmd) &&
	                !c->may_configure)) {
		log_debug(LOG_SUB_CTL, "client pid %d: refused: %s",
		          (int)c->peer.pid, err);
		reply = ctl_reply_error("%s", err);
	} else if (ctl_cmd_configures(req->cmd) && !c->may_configure) {
		/* Before anything else is wrong with the request: a user who
		 * may not configure learns that first. */
		log_warnx("control socket: uid %u (pid %d) may not %s",
		          (unsigned)c->peer.uid, (int)c->peer.pid,
		          ctl_cmd_name(req->cmd));
		reply = ctl_reply_error(
		    "%% Permission denied: '%s' needs root%s",
		    ctl_cmd_name(req->cmd),
		    s->have_group ? " or the control group" : "");
	} else {
		log_debug(LOG_SUB_CTL, "client pid %d: %s", (int)c->peer.pid,
		          ctl_cmd_name(req->cmd));
		reply = s->handler(s->data, req, &c->peer);
	}
	free(req);
	if (ctl_srv_send(c->fd, reply) < 0)
		ctl_srv_drop(s, c);
}

static bool ctl_srv_is_refusing(const struct ctl_srv *s,
                                const struct ctl_client *c)
{
	return c >= s->refusing && c < s->refusing + CTL_SRV_REFUSING;
}

void ctl_srv_process(struct ctl_srv *s)
{
	struct epoll_event evs[CTL_SRV_MAX_CLIENTS + CTL_SRV_REFUSING + 2];
	int n =
	    epoll_wait(s->epfd, evs, (int)(sizeof(evs) / sizeof(evs[0])), 0);
	bool accept = false, sweep = false;

	for (int i = 0; i < n; i++) {
		struct ctl_client *c = evs[i].data.ptr;

		if (!c) {
			accept = true;
			continue;
		}
		if ((void *)c == (void *)&s->tfd) {
			sweep = true;
			continue;
		}
		if (c->fd < 0)
			continue; /* dropped earlier in this round */
		if (ctl_srv_is_refusing(s, c))
			ctl_srv_refused(s, c);
		else if (evs[i].events & EPOLLIN)
			ctl_srv_serve(s, c);
		else if (evs[i].events & (EPOLLHUP | EPOLLERR))
			ctl_srv_drop(s, c);
	}
	/* New clients last: the hang-ups of this round free their slots
	 * first. */
	if (sweep)
		ctl_srv_sweep(s);
	if (accept)
		ctl_srv_accept(s);
	ctl_srv_arm(s);
}

void ctl_srv_close(struct ctl_srv *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->max_clients; i++)
		if (s->clients[i].fd >= 0)
			close(s->clients[i].fd);
	for (size_t i = 0; i < CTL_SRV_REFUSING; i++)
		if (s->refusing[i].fd >= 0)
			close(s->refusing[i].fd);
	if (s->tfd >= 0)
		close(s->tfd);
	if (s->lfd >= 0) {
		close(s->lfd);
		unlink(s->path);
	}
	if (s->epfd >= 0)
		close(s->epfd);
	free(s->clients);
	free(s->buf);
	free(s);
}
