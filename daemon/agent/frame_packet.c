/* frame_packet: the real struct frame_ops, over AF_PACKET (see frame.h).
 *
 * Why ETH_P_ALL and not one socket per EtherType: the taps of ETH_P_ALL
 * see a frame before a bridge's rx handler, which drops MAC Control
 * frames (PFC, link pause) and takes LLDP away from a socket bound to
 * 0x88cc on some kernels; so one socket per port, with the filter below
 * doing the selection in the kernel.
 */
#include "agent/frame.h"

#include <errno.h>
#include <arpa/inet.h>
#include <linux/filter.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#ifndef PACKET_IGNORE_OUTGOING
#define PACKET_IGNORE_OUTGOING 23 /* Linux 4.20 */
#endif
/* The socket buffer: 4 MB holds some 5000 small frames. */
#define FRAME_PACKET_RCVBUF (4 * 1024 * 1024)

/* Classic BPF: accept LLDP to the nearest-bridge group and MAC Control
 * to 01:80:c2:00:00:01, never what the port itself sends (for kernels
 * without PACKET_IGNORE_OUTGOING), and nothing else. Returns the whole
 * frame. */
static struct sock_filter frame_filter[] = {
    /* 0 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SKF_AD_OFF + SKF_AD_PKTTYPE),
    /* 1 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PACKET_OUTGOING, 10, 0),
    /* 2 */ BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 12),
    /* 3 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x88cc, 0, 2),
    /* 4 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 2),
    /* 5 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0xc200000e, 3, 7),
    /* 6 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ETH_P_MACC, 0, 6),
    /* 7 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 2),
    /* 8 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0xc2000001, 0, 4),
    /* 9 */ BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 0),
    /* 10 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x0180, 0, 2),
    /* 11 */ BPF_STMT(BPF_RET | BPF_K, 0xffff),
    /* 12 */ BPF_STMT(BPF_RET | BPF_K, 0),
    /* 13 */ BPF_STMT(BPF_RET | BPF_K, 0),
};

/* The same while the wake is armed, except that the frames that may
 * carry no-drop traffic coming in (IPv4, IPv6; 802.1Q and 802.1ad tagged
 * where the tag is still in the frame, though the kernel usually takes it
 * off before the taps and leaves the inner EtherType) are let through too, cut
 * to their Ethernet header: all that the waker needs, and the least to copy.
 * ARP, STP and the like stay out, so that a quiet fabric's chatter does not
 * wake the poll. */
static struct sock_filter frame_filter_wake[] = {
    /* 0 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SKF_AD_OFF + SKF_AD_PKTTYPE),
    /* 1 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PACKET_OUTGOING, 15, 0),
    /* 2 */ BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 12),
    /* 3 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x88cc, 0, 2),
    /* 4 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 2),
    /* 5 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0xc200000e, 3, 11),
    /* 6 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ETH_P_MACC, 0, 5),
    /* 7 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 2),
    /* 8 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0xc2000001, 0, 8),
    /* 9 */ BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 0),
    /* 10 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x0180, 0, 6),
    /* 11 */ BPF_STMT(BPF_RET | BPF_K, 0xffff),
    /* 12 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ETH_P_IP, 3, 0),
    /* 13 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ETH_P_IPV6, 2, 0),
    /* 14 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ETH_P_8021Q, 1, 0),
    /* 15 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ETH_P_8021AD, 0, 1),
    /* 16 */ BPF_STMT(BPF_RET | BPF_K, FRAME_WAKE_SNAP),
    /* 17 */ BPF_STMT(BPF_RET | BPF_K, 0),
};

static int packet_open(void *impl, int ifindex)
{
	struct sock_fprog prog = {
	    .len = sizeof(frame_filter) / sizeof(frame_filter[0]),
	    .filter = frame_filter,
	};
	struct sockaddr_ll sll = {
	    .sll_family = AF_PACKET,
	    .sll_protocol = htons(ETH_P_ALL),
	    .sll_ifindex = ifindex,
	};
	int one = 1, rcvbuf = FRAME_PACKET_RCVBUF, fd, rc;

	(void)impl;
	/* Protocol 0: the socket hears nothing until bind, so no frame
	 * slips in before the filter is attached. */
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog)) <
	        0 ||
	    bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
		rc = -errno;
		close(fd);
		return rc;
	}
	/* Each frame dated on arrival: software PFC counts a pause from
	 * its reception, however late a loaded roced reads it. */
	setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one));
	/* Cheaper than the filter's own test where the kernel has it. */
	setsockopt(fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof(one));
	/* Link-local control frames (LLDPDUs, pause frames) go straight to
	 * the driver: never queued behind data in a congested or paused
	 * queue of roced's own tree, and never counted as a queue's
	 * traffic in show. */
	setsockopt(fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof(one));
	/* Room for a burst while roced waits for the CPU (a loaded machine,
	 * a flood of LLDPDUs): the default (about 270 small frames) lost
	 * frames at 10,000 per second. */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf,
	               sizeof(rcvbuf)) < 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	return fd;
}

static void packet_close(void *impl, int fd)
{
	(void)impl;
	close(fd);
}

/* The kernel's receive stamp (CLOCK_REALTIME) as CLOCK_MONOTONIC ms:
 * how long ago it was, taken from now on the monotonic clock. */
static void packet_stamp(const struct msghdr *mh, double *at_ms)
{
	struct timespec real, mono;

	for (struct cmsghdr *c = CMSG_FIRSTHDR((struct msghdr *)mh); c;
	     c = CMSG_NXTHDR((struct msghdr *)mh, c)) {
		struct timespec ts;
		double ago;

		if (c->cmsg_level != SOL_SOCKET ||
		    c->cmsg_type != SCM_TIMESTAMPNS ||
		    c->cmsg_len < CMSG_LEN(sizeof(ts)))
			continue;
		memcpy(&ts, CMSG_DATA(c), sizeof(ts));
		clock_gettime(CLOCK_REALTIME, &real);
		clock_gettime(CLOCK_MONOTONIC, &mono);
		ago = (double)(real.tv_sec - ts.tv_sec) * 1e3 +
		      (double)(real.tv_nsec - ts.tv_nsec) / 1e6;
		/* frames_process() drops a stamp that makes no sense */
		*at_ms = (double)mono.tv_sec * 1e3 +
		         (double)mono.tv_nsec / 1e6 - ago;
		return;
	}
}

static ssize_t packet_recv(void *impl, int fd, uint8_t *buf, size_t len,
                           double *at_ms)
{
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(sizeof(struct timespec))];
	} ctl;
	struct iovec iov = {.iov_base = buf, .iov_len = len};
	struct msghdr mh = {
	    .msg_iov = &iov,
	    .msg_iovlen = 1,
	    .msg_control = ctl.buf,
	    .msg_controllen = sizeof(ctl.buf),
	};
	ssize_t n;

	(void)impl;
	/* MSG_TRUNC: the frame's real length, so that one longer than the
	 * buffer is known as such. */
	n = recvmsg(fd, &mh, MSG_TRUNC);
	if (n < 0)
		return -errno;
	packet_stamp(&mh, at_ms);
	return n;
}

static int packet_send(void *impl, int fd, int ifindex, const uint8_t *buf,
                       size_t len)
{
	struct sockaddr_ll sll = {
	    .sll_family = AF_PACKET,
	    .sll_ifindex = ifindex,
	    .sll_halen = ETH_ALEN,
	};
	ssize_t n;

	(void)impl;
	memcpy(&sll.sll_protocol, buf + 12, 2);
	memcpy(sll.sll_addr, buf, ETH_ALEN);
	n = sendto(fd, buf, len, 0, (struct sockaddr *)&sll, sizeof(sll));
	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

/* Through the qdiscs: the socket's bypass is turned off for this one
 * frame. */
static int packet_send_queued(void *impl, int fd, int ifindex,
                              const uint8_t *buf, size_t len)
{
	int zero = 0, one = 1, rc;

	if (setsockopt(fd, SOL_PACKET, PACKET_QDISC_BYPASS, &zero,
	               sizeof(zero)) < 0)
		return -errno;
	rc = packet_send(impl, fd, ifindex, buf, len);
	setsockopt(fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof(one));
	return rc;
}

/* Swapping a socket's filter is atomic in the kernel: no frame sees
 * neither program. */
static int packet_wake(void *impl, int fd, bool on)
{
	struct sock_fprog prog = {
	    .len = on ? sizeof(frame_filter_wake) / sizeof(frame_filter_wake[0])
	              : sizeof(frame_filter) / sizeof(frame_filter[0]),
	    .filter = on ? frame_filter_wake : frame_filter,
	};

	(void)impl;
	if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog)) <
	    0)
		return -errno;
	return 0;
}

static int packet_dropped(void *impl, int fd, uint64_t *n)
{
	struct tpacket_stats st;
	socklen_t len = sizeof(st);

	(void)impl;
	/* Reading them resets them: each call says what is new. */
	if (getsockopt(fd, SOL_PACKET, PACKET_STATISTICS, &st, &len) < 0)
		return -errno;
	*n = st.tp_drops;
	return 0;
}

static double packet_now(void *impl)
{
	struct timespec t;

	(void)impl;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

const struct frame_ops frame_ops_packet = {
    .open = packet_open,
    .close = packet_close,
    .recv = packet_recv,
    .send = packet_send,
    .send_queued = packet_send_queued,
    .wake = packet_wake,
    .dropped = packet_dropped,
    .now = packet_now,
};
