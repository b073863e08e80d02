/* link_msg: rtnetlink link requests. Pure: no sockets.
 *
 * Each encoder writes one complete request into a caller's buffer, byte
 * for byte what iproute2's `ip` (6.1) sends for the command line given
 * with it (tests/fixtures/link/ holds the captures), every byte of it set:
 * padding included, since the kernel and valgrind read it all.
 *
 * Every function returns 0, -EMSGSIZE when the buffer is smaller than
 * LINK_MSG_SIZE, or -EINVAL for a name the kernel would refuse.
 */
#ifndef ROCED_LINK_MSG_H
#define ROCED_LINK_MSG_H

#include <stddef.h>
#include <stdint.h>

/* Room for any request encoded here (a veth pair with two names of
 * IFNAMSIZ bytes is 116 bytes). */
#define LINK_MSG_SIZE 256

/*   ip link set dev D mtu MTU
 * (D by its IFINDEX, as ip looks it up before it sends.) */
int link_msg_mtu(void *buf, size_t size, uint32_t seq, int ifindex,
                 uint32_t mtu);

/*   ip link add NAME type veth peer name PEER
 * Naming the peer keeps the kernel from picking a vethN of its own. */
int link_msg_veth_add(void *buf, size_t size, uint32_t seq, const char *name,
                      const char *peer);

/*   ip link del D
 * (D by its IFINDEX; deleting one end of a veth pair deletes both.) */
int link_msg_del(void *buf, size_t size, uint32_t seq, int ifindex);

#endif
