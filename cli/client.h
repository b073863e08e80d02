/* client: rocesh's end of the control socket (lib/ctl/ctl.h).
 *
 * One SOCK_SEQPACKET connection carries one JSON request per datagram and
 * one JSON reply per datagram. The connection is opened lazily and opened
 * again once when the daemon closed it (a restart, or its own error reply
 * to an oversized request), so a long shell session survives a restart of
 * roced.
 */
#ifndef ROCESH_CLIENT_H
#define ROCESH_CLIENT_H

#include <stddef.h>

#include <json-c/json.h>

#include "ctl/ctl.h"

struct client {
	int fd;         /* -1 while not connected */
	char path[108]; /* sizeof(sun_path) */
	/* Why the last call failed, for the user ("cannot connect to ..."). */
	char error[256];
};

/* Set C up for the socket at PATH, or the daemon's default path for this
 * network namespace when PATH is NULL. Does not connect yet. Returns 0 or
 * -errno (a path too long for a Unix socket). */
int client_init(struct client *c, const char *path);
void client_close(struct client *c);

/* Send REQ (encoded by ctl_request_encode()) and wait for the reply. On
 * success returns 0 and the parsed reply object in *REPLY
 * (json_object_put() it); on a request that has no encoding (-EINVAL) or
 * a transport failure (no daemon, a reply that is not a JSON object, a
 * timeout) returns -errno with C->error set. An {"ok": false} reply is a
 * success here: the caller reads its "error". */
int client_call(struct client *c, const struct ctl_request *req,
                struct json_object **reply);

/* The reply's "ok" member, false when absent or not a boolean. */
int client_reply_ok(struct json_object *reply);
/* The reply's string member KEY, or NULL. */
const char *client_reply_str(struct json_object *reply, const char *key);

#endif
