/* frame: the per-port raw-frame layer that the LLDP agent and software
 * PFC share. One AF_PACKET socket per port, bound to ETH_P_ALL (a bridge
 * port's MAC Control frames never reach a socket bound to one protocol:
 * the bridge drops them after the taps), with a classic BPF socket filter
 * that lets through only what roced listens for, so that nothing else
 * wakes the daemon:
 *   - LLDP: EtherType 0x88cc to 01:80:c2:00:00:0e;
 *   - MAC Control (PFC 0x0101 and link pause 0x0001): EtherType 0x8808
 *     to 01:80:c2:00:00:01;
 * and never the port's own transmissions. While a port's wake is armed
 * (frames_wake), the IP and VLAN-tagged frames coming in are let through
 * too, cut to their Ethernet header: software PFC's transmit side sleeps while
 * its queues are idle and wakes at the first frame a feeder brings in
 * (agent/txpoll.h), instead of reading the kernel's counters every few
 * milliseconds for nothing.
 *
 * The sockets sit behind an ops table so that tests/daemon can drive the
 * agents with fake ports (frames injected and captured in memory).
 * Receivers are called from the daemon's one loop with whole frames
 * (Ethernet header included). Not thread-safe, like the rest of roced.
 */
#ifndef ROCED_FRAME_H
#define ROCED_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "os/loop.h"

#define FRAME_IFNAME_MAX 16
#define FRAME_MAX        1518 /* untagged frame without FCS, and a tag */
#define ETH_P_MACC       0x8808

enum frame_kind {
	FRAME_LLDP, /* 0x88cc */
	FRAME_MACC, /* 0x8808: PFC and link pause */
	FRAME_DATA, /* IP or tagged, only while the wake is armed; its
	               header alone (FRAME_WAKE_SNAP bytes) */
};
#define FRAME_NKINDS    (FRAME_DATA + 1)
#define FRAME_WAKE_SNAP 14

/* A whole frame received on port IFNAME at NOW_MS (CLOCK_MONOTONIC): when
 * it arrived, where the socket dates it, else when it was read. */
typedef void (*frame_rx_fn)(void *arg, const char *ifname, const uint8_t *buf,
                            size_t len, double now_ms);

/* A frame of kind KIND received on IFNAME was LEN bytes, longer than the
 * receive buffer (FRAME_MAX): never handed over cut, only told. */
typedef void (*frame_trunc_fn)(void *arg, const char *ifname, size_t len,
                               double now_ms);

/* How frames reach the wire. The real one is frame_ops_packet. */
struct frame_ops {
	/* A socket for IFINDEX that receives what the filter lets through,
	 * non-blocking; returns an fd the loop polls, or -errno. */
	int (*open)(void *impl, int ifindex);
	void (*close)(void *impl, int fd);
	/* One frame, its whole length (above LEN when it did not fit:
	 * the bytes past LEN are lost), or -EAGAIN when none is waiting,
	 * or -errno. AT_MS
	 * comes in as the time of the read; the op may set it to when the
	 * frame arrived (CLOCK_MONOTONIC ms): a loaded host reads frames
	 * late, and a pause counts from its reception. */
	ssize_t (*recv)(void *impl, int fd, uint8_t *buf, size_t len,
	                double *at_ms);
	int (*send)(void *impl, int fd, int ifindex, const uint8_t *buf,
	            size_t len);
	/* The same through the port's qdiscs (send bypasses them), or NULL
	 * (fakes: send is used): software PFC's kick (agent/softpfc.h). */
	int (*send_queued)(void *impl, int fd, int ifindex, const uint8_t *buf,
	                   size_t len);
	/* Let the IP and tagged frames coming in through as well (ON),
	 * cut to their header, or only LLDP and MAC Control again; 0 or
	 * -errno. NULL
	 * when the ports cannot (fakes): frames_wake() says -EOPNOTSUPP. */
	int (*wake)(void *impl, int fd, bool on);
	/* Frames the kernel dropped at FD since the last call (the socket's
	 * buffer was full: PACKET_STATISTICS), or -errno; NULL when the
	 * ports cannot tell (fakes). */
	int (*dropped)(void *impl, int fd, uint64_t *n);
	/* The time of a read (CLOCK_MONOTONIC ms), or NULL (fakes): the
	 * loop's time is taken. A batch's frames are read while the loop's
	 * time grows old (a receiver may apply a plan between two reads),
	 * and a stamp later than that time is a frame that came since, not
	 * a stepped clock: clamped to it, a storm's frames read late
	 * collapsed onto one instant and lost 5 % of its time paused. */
	double (*now)(void *impl);
};
extern const struct frame_ops frame_ops_packet;

/* Counters per port, for show. */
struct frame_counters {
	uint64_t rx, tx;
	uint64_t rx_short; /* shorter than an Ethernet header */
	uint64_t rx_long;  /* longer than FRAME_MAX: not handed over */
	uint64_t rx_other; /* let through by the filter, yet no receiver */
	uint64_t rx_wake;  /* frames that came in while the wake was armed */
	uint64_t tx_errors;
	uint64_t rx_errors;
	/* Lost before roced read them: the kernel dropped them at the
	 * socket, its buffer full (a flood faster than the loop reads). */
	uint64_t rx_dropped;
};

struct frame_port {
	char ifname[FRAME_IFNAME_MAX];
	int ifindex;
	uint8_t mac[6];
	int fd;
	struct frame_counters c;
	/* Software PFC released a queue of the port: send the kick once
	 * the release is applied (agents_applied). */
	bool kick;
	bool wake; /* armed (frames_wake) */
};

struct frames {
	const struct frame_ops *ops;
	void *impl;
	struct loop *loop; /* the daemon's; NULL: the caller polls the fds */
	struct frame_port *v;
	size_t n;
	frame_rx_fn rx[FRAME_NKINDS];
	void *rx_arg[FRAME_NKINDS];
	frame_trunc_fn trunc[FRAME_NKINDS];
};

/* OPS with IMPL; sockets are registered in LOOP (NULL: none), which
 * calls frames_process() when one is readable. */
void frames_init(struct frames *f, const struct frame_ops *ops, void *impl,
                 struct loop *loop);
void frames_free(struct frames *f);
/* Who hears frames of KIND. */
void frames_listen(struct frames *f, enum frame_kind kind, frame_rx_fn fn,
                   void *arg);
/* Who hears of frames of KIND too long for the buffer (with the same
 * ARG as frames_listen's); without one they are only counted
 * (rx_long). */
void frames_listen_long(struct frames *f, enum frame_kind kind,
                        frame_trunc_fn fn);
/* Start (or keep) raw-frame I/O on IFNAME; a new IFINDEX or MAC (a port
 * that went and came back) reopens. Returns 0 or -errno. */
int frames_attach(struct frames *f, const char *ifname, int ifindex,
                  const uint8_t mac[6]);
void frames_detach(struct frames *f, const char *ifname);
struct frame_port *frames_find(struct frames *f, const char *ifname);
/* The port whose socket is FD, NULL when FD is not one of ours. */
struct frame_port *frames_by_fd(struct frames *f, int fd);
/* Read what waits on FD's port (at most a bounded batch, so that a flood
 * cannot starve the control socket; the loop comes back for the rest)
 * and hand each frame to its receiver. Returns true when the batch was
 * full: more may wait. */
bool frames_process(struct frames *f, int fd, double now_ms);
/* Send a whole frame out of IFNAME through its qdiscs, unlike
 * frames_send(): software PFC's kick of a released queue. Returns 0 or
 * -errno. */
int frames_send_queued(struct frames *f, const char *ifname, const uint8_t *buf,
                       size_t len);
/* Arm (ON) or disarm IFNAME's wake: while armed, FRAME_DATA's receiver
 * hears of every IP or tagged frame coming in. A reopened socket starts
 * disarmed. Returns 0 or -errno (-EOPNOTSUPP when the ops cannot, -ENOENT for a
 * port without a socket). */
int frames_wake(struct frames *f, const char *ifname, bool on);
/* Send a whole frame out of IFNAME. Returns 0 or -errno. */
int frames_send(struct frames *f, const char *ifname, const uint8_t *buf,
                size_t len);

/* The ifindex of IFNAME's bridge (or other master), 0 when it has none:
 * which ports feed each other (software PFC's and link pause's senders).
 * The link monitor keeps no masters; sysfs is read, at sync only. */
int frames_port_master(const char *ifname);
/* Whether IFNAME is a port of a Linux bridge (sysfs brport, read at
 * sync only, as frames_port_master). */
bool frames_port_bridged(const char *ifname);
/* Whether the kernel forwards IPv4 or IPv6 from IFNAME (its
 * net.ipv4.conf.IFNAME.forwarding or net.ipv6's, in roced's namespace;
 * read at sync only): a routed switch port, as LLDP's System
 * Capabilities say. */
bool frames_port_routes(const char *ifname);

#endif
