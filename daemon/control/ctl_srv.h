/* ctl_srv: the daemon's end of the control socket (protocol: ctl.h).
 *
 * A non-blocking SOCK_SEQPACKET listener and its clients sit behind one
 * epoll descriptor of their own, which the daemon's loop polls like any
 * other fd and then calls ctl_srv_process(). Each client's requests are
 * answered in turn, one per wake-up, so that one busy client cannot
 * starve the others. Requests are checked here (size, JSON, keys, the
 * peer's right to configure) before the handler sees them; the handler
 * only answers valid requests.
 *
 * Clients: at most max_clients at once, the last slot kept for root, so
 * that members of the control group cannot lock root out; a client idle
 * for idle_ms is closed; one over the limit gets "too many clients" in
 * answer to its first request, and the refusals are logged at most once
 * per ten seconds.
 *
 * Socket permissions: 0600 root:root, or 0660 root:GROUP when a control
 * group is configured (roced -G). Members of that group may configure;
 * anyone who can connect may show and ping, so an administrator who wants
 * read-only users can widen the mode (chmod o+rw) without giving them
 * the configure right.
 */
#ifndef ROCED_CTL_SRV_H
#define ROCED_CTL_SRV_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <json-c/json.h>

#include "ctl/ctl.h"

#define CTL_SRV_MAX_CLIENTS 16
/* A client that sends nothing for this long is disconnected (rocesh
 * reconnects by itself when it next has a request). */
#define CTL_SRV_IDLE_MS 60000

struct ctl_srv;

/* The reply to a valid, permitted request: a JSON object that the server
 * sends and frees. NULL means out of memory (the client gets an error). */
typedef struct json_object *(*ctl_srv_handler)(void *data,
                                               const struct ctl_request *req,
                                               const struct ctl_peer *peer);

struct ctl_srv_config {
	const char *path; /* NULL: ctl_socket_path() */
	bool have_group;  /* GROUP owns the socket and may configure */
	gid_t group;
	size_t max_clients; /* 0: CTL_SRV_MAX_CLIENTS; the last is root's */
	unsigned idle_ms;   /* 0: CTL_SRV_IDLE_MS */
};

/* Create CTL_DIR (0755) and the socket (replacing a stale one: the caller
 * holds the instance lock). Returns 0 or -errno with ERR filled. */
int ctl_srv_open(struct ctl_srv **out, const struct ctl_srv_config *c,
                 ctl_srv_handler h, void *data, char *err, size_t errlen);
/* Poll this for input, then call ctl_srv_process(). */
int ctl_srv_fd(const struct ctl_srv *s);
/* Accept new clients and answer what they sent; never blocks. */
void ctl_srv_process(struct ctl_srv *s);
/* Close every client and the listener, and remove the socket file. */
void ctl_srv_close(struct ctl_srv *s);
/* The socket's path. */
const char *ctl_srv_path(const struct ctl_srv *s);

/* Replies. */
struct json_object *ctl_reply_ok(void);
struct json_object *ctl_reply_error(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/* One roced per network namespace: bind the abstract Unix socket
 * "@roced.<netns inode>" (abstract names are per namespace and vanish
 * with the process). Returns the descriptor to keep open, or -EADDRINUSE
 * with ERR naming the running instance's pid when it can be found, or
 * another -errno. */
int ctl_instance_lock(char *err, size_t errlen);

#endif
