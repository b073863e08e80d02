/* client: rocesh's end of the control socket (see client.h, ctl.h). */
#include "client.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "ctl/ctl.h"

/* A config line compiles and applies to every port before the daemon
 * answers; a minute covers hundreds of ports on a loaded machine and
 * still lets a script notice a daemon that hangs. */
#define CLIENT_TIMEOUT_S 60

int client_init(struct client *c, const char *path)
{
	struct sockaddr_un sun;
	int rc;

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	if (path) {
		if (strlen(path) >= sizeof(sun.sun_path))
			return -ENAMETOOLONG;
		snprintf(c->path, sizeof(c->path), "%s", path);
		return 0;
	}
	rc = ctl_socket_path(c->path, sizeof(c->path));
	if (rc < 0)
		snprintf(c->error, sizeof(c->error),
		         "cannot find the control socket's path: %s",
		         strerror(-rc));
	return rc;
}

void client_close(struct client *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

static int client_connect(struct client *c)
{
	struct timeval tv = {.tv_sec = CLIENT_TIMEOUT_S};
	struct sockaddr_un sun = {.sun_family = AF_UNIX};
	int fd, err;

	if (c->fd >= 0)
		return 0;
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		goto fail;
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", c->path);
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) < 0)
		goto fail;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) < 0)
		goto fail;
	c->fd = fd;
	return 0;
fail:
	err = errno;
	if (fd >= 0)
		close(fd);
	snprintf(c->error, sizeof(c->error),
	         "cannot connect to roced at %s: %s%s", c->path, strerror(err),
	         err == ENOENT || err == ECONNREFUSED
	             ? " (is roced running in this network namespace?)"
	         : err == EACCES
	             ? " (root, or the group of roced's -G, may connect)"
	             : "");
	return -err;
}

/* One datagram, whatever its size up to CTL_MAX_REPLY: peek at its real
 * length first so the buffer fits it exactly. */
static int client_recv(struct client *c, char **out)
{
	ssize_t len, n;
	char probe, *buf;
	int reset = 0;

	/* EINTR is Ctrl-C in the shell: give up waiting (the caller then
	 * closes the connection, so that a late reply cannot be taken for
	 * the next one). */
	len = recv(c->fd, &probe, 1, MSG_PEEK | MSG_TRUNC);
	if (len < 0 && errno == ECONNRESET) {
		/* roced answered and closed before it read the request (a
		 * client over its limit): the reset is told first, the
		 * answer waits behind it. */
		len =
		    recv(c->fd, &probe, 1, MSG_PEEK | MSG_TRUNC | MSG_DONTWAIT);
		if (len < 0)
			errno = ECONNRESET;
	}
	if (len < 0) {
		int err = errno;

		snprintf(c->error, sizeof(c->error), "no reply from roced: %s",
		         err == EAGAIN  ? "timed out"
		         : err == EINTR ? "interrupted"
		                        : strerror(err));
		return -err;
	}
	if (len == 0) {
		snprintf(c->error, sizeof(c->error),
		         "roced closed the connection without a reply");
		return -ECONNRESET;
	}
	if (len > CTL_MAX_REPLY) {
		/* Drop it, so the stream stays in step, and refuse it. */
		(void)recv(c->fd, &probe, 1, 0);
		snprintf(c->error, sizeof(c->error),
		         "reply from roced too large (%zd bytes)", len);
		return -EMSGSIZE;
	}
	buf = malloc((size_t)len + 1);
	if (!buf)
		return -ENOMEM;
	/* The reset of a roced that answered and closed (see above) can
	 * also come between the peek and this read: it is told once, and
	 * the answer is still there behind it. */
	do
		n = recv(c->fd, buf, (size_t)len, 0);
	while (n < 0 && (errno == EINTR || (errno == ECONNRESET && !reset++)));
	if (n != len) {
		free(buf);
		snprintf(c->error, sizeof(c->error),
		         "short reply from roced (%zd of %zd bytes)", n, len);
		return -EIO;
	}
	buf[len] = '\0';
	*out = buf;
	return 0;
}

static int client_send(struct client *c, const char *s, size_t len)
{
	ssize_t n;

	do
		n = send(c->fd, s, len, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

/* Whether a datagram waits on C's connection. */
static bool client_pending(const struct client *c)
{
	char probe;
	ssize_t n = recv(c->fd, &probe, 1, MSG_PEEK | MSG_TRUNC | MSG_DONTWAIT);

	/* a reset is told before what waits behind it */
	if (n < 0 && errno == ECONNRESET)
		n = recv(c->fd, &probe, 1, MSG_PEEK | MSG_TRUNC | MSG_DONTWAIT);
	return n > 0;
}

/* REQ sent on C's connection, or on a new one when the daemon went away
 * since the last request. */
static int client_send_request(struct client *c, const struct ctl_request *req)
{
	struct strbuf sb;
	char err[256];
	int rc;

	strbuf_init(&sb);
	rc = ctl_request_encode(req, &sb, err, sizeof(err));
	if (rc < 0) {
		/* The "% " is the caller's to print, as for other errors. */
		snprintf(c->error, sizeof(c->error), "%s",
		         strncmp(err, "% ", 2) ? err : err + 2);
		goto out;
	}
	rc = client_connect(c);
	if (rc < 0)
		goto out;
	rc = client_send(c, sb.s, sb.len);
	if ((rc == -EPIPE || rc == -ECONNRESET || rc == -ENOTCONN) &&
	    client_pending(c)) {
		/* roced answered before it hung up, unasked: a client over
		 * its limit is told so at once and closed. That answer is
		 * the reply (client_call reads it); sending again would only
		 * be refused again, unheard. */
		rc = 0;
		goto out;
	}
	if (rc == -EPIPE || rc == -ECONNRESET || rc == -ENOTCONN) {
		/* The daemon went away since the last request (a restart):
		 * nothing of this request reached it, so sending it again
		 * on a fresh connection cannot apply it twice. */
		client_close(c);
		rc = client_connect(c);
		if (rc < 0)
			goto out;
		rc = client_send(c, sb.s, sb.len);
	}
	if (rc < 0) {
		snprintf(c->error, sizeof(c->error), "cannot send to roced: %s",
		         strerror(-rc));
		client_close(c);
	}
out:
	strbuf_free(&sb);
	return rc;
}

int client_call(struct client *c, const struct ctl_request *req,
                struct json_object **reply)
{
	struct json_object *obj;
	char *buf = NULL;
	int rc;

	*reply = NULL;
	rc = client_send_request(c, req);
	if (rc < 0)
		return rc;
	rc = client_recv(c, &buf);
	if (rc < 0) {
		client_close(c);
		return rc;
	}
	obj = json_tokener_parse(buf);
	free(buf);
	if (!obj || !json_object_is_type(obj, json_type_object)) {
		json_object_put(obj);
		snprintf(c->error, sizeof(c->error),
		         "roced sent a reply that is not a JSON object");
		client_close(c);
		return -EBADMSG;
	}
	*reply = obj;
	return 0;
}

int client_reply_ok(struct json_object *reply)
{
	struct json_object *ok;

	return json_object_object_get_ex(reply, "ok", &ok) &&
	       json_object_is_type(ok, json_type_boolean) &&
	       json_object_get_boolean(ok);
}

const char *client_reply_str(struct json_object *reply, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(reply, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}
