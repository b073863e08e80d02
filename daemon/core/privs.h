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

#endif
