/* probe: what the running kernel and each port can do (struct caps).
 *
 * The kernel probe runs in a child process inside a private network
 * namespace and tries each qdisc, classifier and action kind on that
 * namespace's loopback device, so the user's ports are never touched. A
 * kind the kernel does not know answers ENOENT; any other answer (created,
 * or refused for missing options) means the kind exists. Without the
 * right to create a namespace (CAP_SYS_ADMIN; the systemd unit grants only
 * CAP_NET_ADMIN and CAP_NET_RAW) the child uses a scratch veth pair
 * "roced-pXXXXXX" in the caller's namespace instead, and deletes it.
 */
#ifndef ROCED_PROBE_H
#define ROCED_PROBE_H

#include <stddef.h>

#include "caps.h"

/* Fill the kernel part of C (qdiscs, classifiers, actions). Needs
 * CAP_NET_ADMIN (and uses CAP_SYS_ADMIN for a private namespace when it
 * has it). Returns 0 or -errno with a message in ERR. */
int probe_kernel(struct caps *c, char *err, size_t errlen);

/* Fill the port part of C for IFNAME (hw_dcb, speed_mbps). A missing port
 * is not an error: it is reported as software with unknown speed, since
 * roced plans ports that may appear later. Returns 0 or -errno. */
int probe_port(const char *ifname, struct caps *c);

#endif
