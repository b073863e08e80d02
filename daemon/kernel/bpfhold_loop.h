/* bpfhold_loop: the veth pair that keeps held packets for the kernel
 * path of software PFC (bpfhold.h). End A ("rocedhNa", N the port's
 * ifindex) has an fq root; pfc_tx redirects a held packet into it with
 * its departure time at the pause's end; fq keeps it until then; it
 * comes out of end B ("rocedhNb"), whose ingress program pfc_loop hands
 * it back to the port's egress, where pfc_tx decides again: still
 * paused (a refresh), it goes round once more; else it leaves. The
 * decision is thus taken again at each pause's end, not once when the
 * packet first came: fq alone could not keep a packet past the end it
 * was stamped with when the peer refreshes its pause. */
#ifndef ROCED_BPFHOLD_LOOP_H
#define ROCED_BPFHOLD_LOOP_H

#include <linux/types.h>
#include <net/if.h>

/* The loop carries any frame the port can send. */
#define BPFHOLD_LOOP_MTU 65535
/* Packets fq keeps, in all and per flow: well above what the senders'
 * socket buffers can put there, so nothing held is dropped. */
#define BPFHOLD_LOOP_LIMIT 100000

void bpfhold_loop_names(int port_ifindex, char a[IFNAMSIZ], char b[IFNAMSIZ]);
/* Create (replacing any left over) PORT_IFINDEX's loop, up, with its fq:
 * 0 and both ends' ifindexes, or -errno (nothing left behind). */
int bpfhold_loop_create(int port_ifindex, int *a_ifindex, int *b_ifindex);
/* The ifindexes of PORT_IFINDEX's loop's ends (0 when absent). */
void bpfhold_loop_ifindexes(int port_ifindex, __u32 *a, __u32 *b);
/* How many packets its fq holds now, or -errno. */
long bpfhold_loop_qlen(int port_ifindex);
/* Delete it (what it holds is lost): 0, or -ENOENT when there is none. */
int bpfhold_loop_delete(int port_ifindex);

#endif
