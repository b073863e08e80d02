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

#include "model/caps.h"
#include "plan/compile.h"

/* Fill the kernel part of C (qdiscs, classifiers, actions). Needs
 * CAP_NET_ADMIN (and uses CAP_SYS_ADMIN for a private namespace when it
 * has it). Returns 0 or -errno with a message in ERR. */
int probe_kernel(struct caps *c, char *err, size_t errlen);

/* Fill the port part of C for IFNAME (hw_dcb, speed_mbps). A missing port
 * is not an error: it is reported as software with unknown speed, since
 * roced plans ports that may appear later. Returns 0 or -errno. */
int probe_port(const char *ifname, struct caps *c);

/* What a probe_ports() call asked the kernel, for tests and benchmarks. */
struct probe_stats {
	size_t ioctls;           /* SIOCGIFFLAGS, one per port */
	size_t dcb_requests;     /* DCB_CMD_IEEE_GET, all in one batch */
	size_t ethtool_requests; /* ethtool genetlink, family lookup included */
};

/* Fill the port part (hw_dcb, speed_mbps) of the caps of N ports at once,
 * as probe_port() does for one: flags by ioctl, one pipelined batch of
 * dcbnl requests (hw_dcb is dcbnl's own answer, so a vlan or bond over a
 * DCB NIC is a software port: only the NIC's netdev has dcbnl) and, from
 * a handful of ports on, one ethtool LINKMODES dump for the speeds. A
 * speed is reported for links that are up, as /sys/class/net/X/speed
 * does. ST may be NULL. Returns 0 or -errno (ports not probed are
 * software, speed unknown). */
int probe_ports(struct compile_port *ports, size_t n, struct probe_stats *st);

#endif
