/* privs: roced keeps the least privilege it runs with. Started by hand as
 * root it has every capability; once its control socket is bound, its
 * state directory checked and its pid file written, it keeps only
 * CAP_NET_ADMIN (netlink: tc, DCB, links, ethtool) and CAP_NET_RAW (the
 * packet sockets of LLDP and PFC), as roced.service grants. It stays uid
 * 0: what it writes later (/run/roced, the configuration directory on
 * `copy running-config startup-config`) is root's and 0755, writable by
 * its owner without CAP_DAC_OVERRIDE, and lldpad's socket is root's.
 */
#ifndef ROCED_PRIVS_H
#define ROCED_PRIVS_H

#include <stddef.h>

/* Drop every capability but CAP_NET_ADMIN, CAP_NET_RAW and CAP_BPF from the
 * effective, permitted, inheritable and ambient sets and the bounding
 * set (the bounding set stays when CAP_SETPCAP is already gone, as under
 * the unit). Call before any thread starts: capabilities are per thread.
 * Nothing is done when no other capability is held (under the unit).
 * Returns 0 (with what was done in NOTE), or -errno with ERR filled. */
int privs_drop(char *note, size_t notelen, char *err, size_t errlen);

/* Software PFC is a switch's hardware done by a process: a pause read
 * must become a held queue within a poll (2 ms), and a queue crossing
 * xoff a pause frame as soon. At the default scheduling a roced sharing
 * a CPU with any busy process waited tens of milliseconds for it (on a
 * 2-core host with the other core busy, 1 of 200 PFC and 6 of 200 link
 * pause storms were held 11-20 ms late). So the daemon runs at SCHED_FIFO
 * priority PRIVS_RTPRIO_DEFAULT (below the kernel's threaded interrupt
 * handlers at 50), its loop sleeping in epoll between events; the
 * kernel's real-time throttling still leaves others 5 % of every CPU
 * should it ever spin.
 * SCHED_RESET_ON_FORK: a thread or child (the configuration loader)
 * starts at the default policy. */
#define PRIVS_RTPRIO_DEFAULT 10

/* Run at SCHED_FIFO PRIO (1-99), unless already started at a real-time
 * policy (chrt, the unit's CPUSchedulingPolicy=), which is kept; PRIO 0
 * leaves the scheduling as it is. Returns 0 with NOTE filled, or -errno
 * with ERR filled (roced then runs as it was started). Call before
 * privs_drop: raising the priority needs CAP_SYS_NICE or RLIMIT_RTPRIO. */
int privs_realtime(int prio, char *note, size_t notelen, char *err,
                   size_t errlen);

#endif
