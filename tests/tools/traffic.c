/* traffic: a UDP traffic pair that counts loss per DSCP and measures
 * latency, for the lossless tests and bench/pfc.
 *
 *   traffic send DST[:PORT] [-T TOS] [-r PPS] [-t SECONDS] [-n COUNT]
 *                [-s SIZE] [-b SNDBUF] [-f FLOW] [-P PRIO] [-w WINDOW]
 *                [-V PCP -I IFNAME -M DSTMAC]
 *   traffic recv [-p PORT] [-t SECONDS] [-i IDLE] [-e EXPECT] [-R READY]
 *                [-l LOG] [-6]
 *
 * DST may be an IPv6 address ([ADDR]:PORT with a port): -T is then the
 * traffic class (IPV6_TCLASS), and the receiver listens on IPv6 with -6
 * (a traffic class is reported as the TOS byte, the same DSCP bits).
 *
 * The sender's datagrams carry a flow id, a sequence number and the
 * CLOCK_MONOTONIC time they were sent (namespaces share that clock, so a
 * receiver on the same machine measures one-way latency). Its socket
 * blocks (with SNDBUF bytes of send buffer, default the system's), so
 * that a queue held by PFC back-pressures it instead of losing: it
 * counts what it failed to send (errors) apart from what it sent; a
 * datagram queued in a veth peer's qdisc stays charged to it, so SNDBUF
 * is also what one sender can keep in a switch's queue (root may set it
 * past net.core.wmem_max).
 * Paced senders keep to an absolute schedule: after a block they send
 * what fell due meanwhile back to back. -w caps that catch-up at WINDOW
 * datagrams, as an application with a window of that many outstanding
 * sends would (what fell due beyond it is sent later, at the rate): a
 * sender blocked by a long pause does not then burst megabytes into the
 * fabric at the speed of the CPU.
 * -r 0 sends as fast as the socket takes them. -P sets the socket's
 * priority (SO_PRIORITY), as a RoCE stack does for its traffic class:
 * where roced classifies on clsact ingress (flower), a host's own
 * datagrams reach their queue only that way. PRIO is 0..15 for an ets
 * or prio root (its priomap), or a class id MAJOR:MINOR in hex as tc
 * writes it (4791:13) for an htb root, which takes skb->priority as a
 * class.
 *
 * -V sends the same datagrams as 802.1Q priority-tagged frames (VLAN 0,
 * PCP as given), written whole to IFNAME through a packet socket, to the
 * neighbour DSTMAC: the CoS a RoCE NIC puts on its traffic, on a kernel
 * without 8021q. A receiver's kernel strips a VLAN 0 tag and delivers the
 * datagram to its UDP socket as any other.
 *
 * The receiver counts by TOS byte (IP_RECVTOS) and flow: received,
 * lost (sequence numbers never seen, up to the highest seen), duplicated,
 * and the latency min/median/max. It stops after -t seconds (default 30),
 * when EXPECT datagrams arrived, or when nothing arrived for IDLE seconds
 * (default 3) after the first. READY is created once it listens. LOG gets
 * one line per datagram: "flow seq sent_ns recv_ns", recv_ns when it
 * arrived (the kernel's stamp), however late the receiver read it. Output, one
 * line per TOS: "tos 0x68 flows 1 rx N lost L dup D lat_us MIN MED MAX", then
 * "total rx N lost L".
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/if_packet.h>

#define TRAFFIC_MAGIC 0x52434544u /* "RCED" */
#define MAX_FLOWS     64
#define MAX_SEQ       (1u << 24) /* per flow, for the seen bitmap */

struct hdr {
	uint32_t magic;
	uint32_t flow;
	uint64_t seq;
	uint64_t sent_ns;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A datagram's arrival, from the kernel's receive stamp (CLOCK_REALTIME)
 * as CLOCK_MONOTONIC ns: how long ago it was, taken from now on the
 * monotonic clock, the two clocks read together (a preemption between
 * them would date the datagram that much early: read again). The read's
 * own time when the stamp makes no sense. */
static uint64_t arrival_ns(const struct timespec *stamp, uint64_t read_ns)
{
	for (int tries = 0; tries < 5; tries++) {
		struct timespec r0, r1;
		uint64_t mono;
		int64_t real, ago;

		clock_gettime(CLOCK_REALTIME, &r0);
		mono = now_ns();
		clock_gettime(CLOCK_REALTIME, &r1);
		if ((r1.tv_sec - r0.tv_sec) * 1000000000ll +
		        (r1.tv_nsec - r0.tv_nsec) >
		    20000)
			continue;
		real = (int64_t)r0.tv_sec * 1000000000 + r0.tv_nsec;
		ago = real -
		      ((int64_t)stamp->tv_sec * 1000000000 + stamp->tv_nsec);
		/* a clock step under the stamp: not believed */
		if (ago < 0 || ago > 10 * 1000000000ll ||
		    (uint64_t)ago > mono || mono - (uint64_t)ago > read_ns)
			return read_ns;
		return mono - (uint64_t)ago;
	}
	return read_ns;
}

static void die(const char *what)
{
	fprintf(stderr, "traffic: %s: %s\n", what, strerror(errno));
	exit(1);
}

static double num(const char *s, const char *what, double lo, double hi)
{
	char *e;
	double v = strtod(s, &e);

	if (*e || e == s || v < lo || v > hi) {
		fprintf(stderr, "traffic: invalid %s '%s', expected %g..%g\n",
		        what, s, lo, hi);
		exit(2);
	}
	return v;
}

/* -P: a priority 0..15, or a tc class id "MAJ:MIN" (hex). */
static long parse_prio(const char *s)
{
	unsigned maj, min;
	char tail;

	if (strchr(s, ':')) {
		if (sscanf(s, "%x:%x%c", &maj, &min, &tail) != 2 ||
		    maj > 0xffff || min > 0xffff) {
			fprintf(stderr,
			        "traffic: invalid priority '%s', expected "
			        "0..15 or a class id MAJOR:MINOR (hex)\n",
			        s);
			exit(2);
		}
		return (long)((maj << 16) | min);
	}
	return (long)num(s, "priority", 0, 15);
}

/* -V: what the packet socket needs to write a priority-tagged frame. */
struct tagged {
	int pcp; /* -1: plain UDP socket */
	const char *ifname;
	uint8_t dst[6], src[6];
	struct in_addr saddr;
	struct sockaddr_ll ll;
};

/* Ethernet + 802.1Q tag + IPv4 + UDP in front of the payload. */
#define TAGGED_HLEN (18 + 20 + 8)

static void parse_mac(const char *s, uint8_t mac[6])
{
	unsigned m[6];
	char tail;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x%c", &m[0], &m[1], &m[2], &m[3], &m[4],
	           &m[5], &tail) != 6) {
		fprintf(stderr, "traffic: invalid MAC address '%s'\n", s);
		exit(2);
	}
	for (int i = 0; i < 6; i++) {
		if (m[i] > 0xff) {
			fprintf(stderr, "traffic: invalid MAC address '%s'\n",
			        s);
			exit(2);
		}
		mac[i] = (uint8_t)m[i];
	}
}

static int tagged_open(struct tagged *t)
{
	struct ifreq ifr;
	int fd, q;

	if (strlen(t->ifname) >= sizeof(ifr.ifr_name)) {
		fprintf(stderr, "traffic: interface name too long: %s\n",
		        t->ifname);
		exit(2);
	}
	q = socket(AF_INET, SOCK_DGRAM, 0);
	if (q < 0)
		die("socket");
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, t->ifname);
	if (ioctl(q, SIOCGIFHWADDR, &ifr))
		die(t->ifname);
	memcpy(t->src, ifr.ifr_hwaddr.sa_data, 6);
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, t->ifname);
	if (ioctl(q, SIOCGIFADDR, &ifr))
		die("the interface's IPv4 address");
	t->saddr = ((struct sockaddr_in *)&ifr.ifr_addr)->sin_addr;
	close(q);
	memset(&t->ll, 0, sizeof(t->ll));
	t->ll.sll_family = AF_PACKET;
	t->ll.sll_ifindex = (int)if_nametoindex(t->ifname);
	t->ll.sll_halen = 6;
	memcpy(t->ll.sll_addr, t->dst, 6);
	if (!t->ll.sll_ifindex)
		die(t->ifname);
	fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (fd < 0)
		die("packet socket");
	return fd;
}

static uint16_t ip_csum(const uint8_t *p, size_t n)
{
	uint32_t sum = 0;

	for (size_t i = 0; i + 1 < n; i += 2)
		sum += (uint32_t)(p[i] << 8 | p[i + 1]);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* The headers of one frame carrying SIZE bytes of payload to TO. */
static void tagged_headers(const struct tagged *t, uint8_t *f, long tos,
                           const struct sockaddr_in *to, size_t size,
                           uint16_t id)
{
	uint8_t *ip = f + 18, *udp = ip + 20;
	uint16_t tci = (uint16_t)(t->pcp << 13), v;

	memcpy(f, t->dst, 6);
	memcpy(f + 6, t->src, 6);
	f[12] = 0x81, f[13] = 0x00, f[14] = (uint8_t)(tci >> 8),
	f[15] = (uint8_t)tci, f[16] = 0x08, f[17] = 0x00;
	memset(ip, 0, 20);
	ip[0] = 0x45;
	ip[1] = (uint8_t)tos;
	v = (uint16_t)(20 + 8 + size);
	ip[2] = (uint8_t)(v >> 8), ip[3] = (uint8_t)v;
	ip[4] = (uint8_t)(id >> 8), ip[5] = (uint8_t)id;
	ip[6] = 0x40; /* don't fragment */
	ip[8] = 64;
	ip[9] = IPPROTO_UDP;
	memcpy(ip + 12, &t->saddr, 4);
	memcpy(ip + 16, &to->sin_addr, 4);
	v = ip_csum(ip, 20);
	ip[10] = (uint8_t)(v >> 8), ip[11] = (uint8_t)v;
	/* UDP: the RoCEv2 port both ways; no checksum (IPv4 allows 0). */
	memcpy(udp, &to->sin_port, 2);
	memcpy(udp + 2, &to->sin_port, 2);
	v = (uint16_t)(8 + size);
	udp[4] = (uint8_t)(v >> 8), udp[5] = (uint8_t)v;
	udp[6] = 0, udp[7] = 0;
}

static int do_send(int argc, char **argv)
{
	struct sockaddr_in to = {.sin_family = AF_INET,
	                         .sin_port = htons(4791)};
	struct sockaddr_in6 to6 = {.sin6_family = AF_INET6,
	                           .sin6_port = htons(4791)};
	bool v6 = false;
	double rate = 1000, secs = 1;
	long count = -1, size = 1000, sndbuf = 0, flow = 0, tos = 0, prio = -1;
	long window = 0;
	uint64_t sent = 0, errors = 0, t0, next, end;
	char buf[65536], *colon;
	static uint8_t frame[TAGGED_HLEN + 65536];
	struct tagged tg = {.pcp = -1};
	bool have_mac = false;
	int fd, c;

	if (argc < 2) {
		fprintf(stderr, "traffic send DST[:PORT] ...\n");
		return 2;
	}
	/* IPv6: ADDR alone, or [ADDR]:PORT. */
	if (argv[1][0] == '[' && (colon = strstr(argv[1], "]:"))) {
		*colon = '\0';
		argv[1]++;
		to6.sin6_port =
		    htons((uint16_t)num(colon + 2, "port", 1, 65535));
	}
	if (inet_pton(AF_INET6, argv[1], &to6.sin6_addr) == 1)
		v6 = true;
	colon = v6 ? NULL : strchr(argv[1], ':');
	if (colon) {
		*colon = '\0';
		to.sin_port = htons((uint16_t)num(colon + 1, "port", 1, 65535));
	}
	if (!v6 && inet_pton(AF_INET, argv[1], &to.sin_addr) != 1) {
		fprintf(stderr, "traffic: invalid address '%s'\n", argv[1]);
		return 2;
	}
	optind = 2;
	while ((c = getopt(argc, argv, "T:r:t:n:s:b:f:P:w:V:I:M:")) != -1) {
		switch (c) {
		case 'T':
			tos = (long)num(optarg, "TOS", 0, 255);
			break;
		case 'r':
			rate = num(optarg, "rate", 0, 1e7);
			break;
		case 't':
			secs = num(optarg, "time", 0, 86400);
			break;
		case 'n':
			count = (long)num(optarg, "count", 0, 1e12);
			break;
		case 's':
			size = (long)num(optarg, "size", sizeof(struct hdr),
			                 sizeof(buf));
			break;
		case 'b':
			sndbuf =
			    (long)num(optarg, "send buffer", 1024, 1 << 30);
			break;
		case 'f':
			flow = (long)num(optarg, "flow", 0, MAX_FLOWS - 1);
			break;
		case 'P':
			prio = parse_prio(optarg);
			break;
		case 'w':
			window = (long)num(optarg, "window", 1, 1e9);
			break;
		case 'V':
			tg.pcp = (int)num(optarg, "PCP", 0, 7);
			break;
		case 'I':
			tg.ifname = optarg;
			break;
		case 'M':
			parse_mac(optarg, tg.dst);
			have_mac = true;
			break;
		default:
			return 2;
		}
	}
	if (tg.pcp >= 0 && (!tg.ifname || !have_mac || v6)) {
		fprintf(stderr, "traffic: -V needs -I IFNAME and -M DSTMAC, "
		                "and IPv4\n");
		return 2;
	}
	fd = tg.pcp >= 0 ? tagged_open(&tg)
	                 : socket(v6 ? AF_INET6 : AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		die("socket");
	if (tg.pcp < 0 && tos && !v6 &&
	    setsockopt(fd, IPPROTO_IP, IP_TOS, &(int){(int)tos}, sizeof(int)))
		die("IP_TOS");
	if (tos && v6 &&
	    setsockopt(fd, IPPROTO_IPV6, IPV6_TCLASS, &(int){(int)tos},
	               sizeof(int)))
		die("IPV6_TCLASS");
	if (prio >= 0 && setsockopt(fd, SOL_SOCKET, SO_PRIORITY,
	                            &(int){(int)prio}, sizeof(int)))
		die("SO_PRIORITY");
	/* As root, past net.core.wmem_max: a sender that must keep a
	 * switch's queue beyond its pause threshold needs more in flight. */
	if (sndbuf &&
	    setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &(int){(int)sndbuf},
	               sizeof(int)) &&
	    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &(int){(int)sndbuf},
	               sizeof(int)))
		die("SO_SNDBUF");
	memset(buf, 0, sizeof(buf));
	t0 = next = now_ns();
	end = t0 + (uint64_t)(secs * 1e9);
	while (count < 0 || (long)sent + (long)errors < count) {
		struct hdr h = {TRAFFIC_MAGIC, (uint32_t)flow, sent, 0};
		uint64_t t = now_ns();

		if (t >= end)
			break;
		/* Behind by more than the window: the rest is not owed. */
		if (rate > 0 && window > 0 &&
		    t > next + (uint64_t)((double)window * 1e9 / rate))
			next = t - (uint64_t)((double)window * 1e9 / rate);
		if (rate > 0 && t < next) {
			struct timespec ts = {(time_t)(next / 1000000000u),
			                      (long)(next % 1000000000u)};
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts,
			                NULL);
			continue;
		}
		h.sent_ns = now_ns();
		memcpy(buf, &h, sizeof(h));
		if (tg.pcp >= 0) {
			tagged_headers(&tg, frame, tos, &to, (size_t)size,
			               (uint16_t)sent);
			memcpy(frame + TAGGED_HLEN, buf, (size_t)size);
			c = (int)sendto(fd, frame, TAGGED_HLEN + (size_t)size,
			                0, (struct sockaddr *)&tg.ll,
			                sizeof(tg.ll));
		} else if (v6)
			c = (int)sendto(fd, buf, (size_t)size, 0,
			                (struct sockaddr *)&to6, sizeof(to6));
		else
			c = (int)sendto(fd, buf, (size_t)size, 0,
			                (struct sockaddr *)&to, sizeof(to));
		if (c < 0) {
			if (errno != ENOBUFS && errno != EAGAIN &&
			    errno != ECONNREFUSED)
				die("sendto");
			errors++;
		} else
			sent++;
		if (rate > 0)
			next += (uint64_t)(1e9 / rate);
	}
	printf("sent %llu errors %llu in %.3f s\n", (unsigned long long)sent,
	       (unsigned long long)errors, (double)(now_ns() - t0) / 1e9);
	close(fd);
	return 0;
}

struct flowstat {
	bool used;
	uint8_t tos;
	uint32_t flow;
	uint64_t rx, dup, maxseq;
	uint8_t *seen; /* bitmap of MAX_SEQ */
	uint32_t *lat; /* microseconds, one per datagram (capped) */
	size_t nlat, caplat;
};

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static int do_recv(int argc, char **argv)
{
	struct sockaddr_in me = {.sin_family = AF_INET,
	                         .sin_port = htons(4791)};
	struct sockaddr_in6 me6 = {.sin6_family = AF_INET6,
	                           .sin6_addr = IN6ADDR_ANY_INIT};
	bool v6 = false;
	double secs = 30, idle = 3;
	long expect = 0;
	const char *ready = NULL, *logp = NULL;
	static struct flowstat fs[MAX_FLOWS * 4];
	uint64_t total = 0, t0, last = 0;
	FILE *log = NULL;
	int fd, c;

	optind = 1;
	while ((c = getopt(argc, argv, "p:t:i:e:R:l:6")) != -1) {
		switch (c) {
		case 'p':
			me.sin_port =
			    htons((uint16_t)num(optarg, "port", 1, 65535));
			break;
		case 't':
			secs = num(optarg, "time", 0, 86400);
			break;
		case 'i':
			idle = num(optarg, "idle time", 0.1, 86400);
			break;
		case 'e':
			expect = (long)num(optarg, "count", 0, 1e12);
			break;
		case 'R':
			ready = optarg;
			break;
		case 'l':
			logp = optarg;
			break;
		case '6':
			v6 = true;
			break;
		default:
			return 2;
		}
	}
	me6.sin6_port = me.sin_port;
	fd = socket(v6 ? AF_INET6 : AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		die("socket");
	/* Room for a second or two of the fastest test's traffic (20,000
	 * small datagrams/s) while the receiver waits for a CPU: 8 MB
	 * overflowed after a 0.4 s stall on a loaded machine, a loss that
	 * was the receiver's, not the rig's. */
	setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &(int){64 << 20},
	           sizeof(int));
	if (v6 ? setsockopt(fd, IPPROTO_IPV6, IPV6_RECVTCLASS, &(int){1},
	                    sizeof(int))
	       : setsockopt(fd, IPPROTO_IP, IP_RECVTOS, &(int){1}, sizeof(int)))
		die("IP_RECVTOS");
	/* Each datagram dated when it arrived, not when a receiver that
	 * waited for a CPU read it: bench/pfc times a held queue's last
	 * datagram by it, and a read 10 ms late is not a queue that kept
	 * sending. */
	setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &(int){1}, sizeof(int));
	if (v6 ? bind(fd, (struct sockaddr *)&me6, sizeof(me6))
	       : bind(fd, (struct sockaddr *)&me, sizeof(me)))
		die("bind");
	if (logp && !(log = fopen(logp, "w")))
		die(logp);
	if (ready) {
		FILE *r = fopen(ready, "w");

		if (!r)
			die(ready);
		fclose(r);
	}
	t0 = now_ns();
	for (;;) {
		char buf[65536], cbuf[256];
		struct iovec iov = {buf, sizeof(buf)};
		struct msghdr mh = {.msg_iov = &iov,
		                    .msg_iovlen = 1,
		                    .msg_control = cbuf,
		                    .msg_controllen = sizeof(cbuf)};
		struct pollfd pfd = {fd, POLLIN, 0};
		uint64_t t = now_ns();
		double left = secs - (double)(t - t0) / 1e9;
		struct hdr h;
		uint8_t tos = 0;
		uint64_t at;
		ssize_t n;

		if (expect && (long)total >= expect)
			break;
		if (left <= 0 || (last && (double)(t - last) / 1e9 >= idle))
			break;
		if (poll(&pfd, 1, 50) <= 0)
			continue;
		n = recvmsg(fd, &mh, MSG_DONTWAIT);
		if (n < (ssize_t)sizeof(h))
			continue;
		last = at = now_ns();
		memcpy(&h, buf, sizeof(h));
		if (h.magic != TRAFFIC_MAGIC || h.flow >= MAX_FLOWS ||
		    h.seq >= MAX_SEQ)
			continue;
		for (struct cmsghdr *cm = CMSG_FIRSTHDR(&mh); cm;
		     cm = CMSG_NXTHDR(&mh, cm))
			if (cm->cmsg_level == IPPROTO_IP &&
			    cm->cmsg_type == IP_TOS) {
				tos = *(uint8_t *)CMSG_DATA(cm);
			} else if (cm->cmsg_level == IPPROTO_IPV6 &&
			           cm->cmsg_type == IPV6_TCLASS) {
				int tc;

				memcpy(&tc, CMSG_DATA(cm), sizeof(tc));
				tos = (uint8_t)tc;
			} else if (cm->cmsg_level == SOL_SOCKET &&
			           cm->cmsg_type == SCM_TIMESTAMPNS &&
			           cm->cmsg_len >=
			               CMSG_LEN(sizeof(struct timespec))) {
				struct timespec ts;

				memcpy(&ts, CMSG_DATA(cm), sizeof(ts));
				at = arrival_ns(&ts, last);
			}
		struct flowstat *f = NULL;
		for (size_t i = 0; i < sizeof(fs) / sizeof(fs[0]); i++)
			if (!fs[i].used ||
			    (fs[i].tos == tos && fs[i].flow == h.flow)) {
				f = &fs[i];
				break;
			}
		if (!f)
			continue;
		if (!f->used) {
			f->used = true;
			f->tos = tos;
			f->flow = h.flow;
			f->seen = calloc(MAX_SEQ / 8, 1);
			if (!f->seen)
				die("calloc");
		}
		if (f->seen[h.seq / 8] & (1u << (h.seq % 8))) {
			f->dup++;
			continue;
		}
		f->seen[h.seq / 8] |= (uint8_t)(1u << (h.seq % 8));
		f->rx++;
		total++;
		if (h.seq + 1 > f->maxseq)
			f->maxseq = h.seq + 1;
		if (f->nlat == f->caplat) {
			size_t nc = f->caplat ? f->caplat * 2 : 4096;
			uint32_t *nl = realloc(f->lat, nc * sizeof(*nl));

			if (!nl)
				die("realloc");
			f->lat = nl;
			f->caplat = nc;
		}
		f->lat[f->nlat++] =
		    at > h.sent_ns ? (uint32_t)((at - h.sent_ns) / 1000) : 0;
		if (log)
			fprintf(log, "%u %llu %llu %llu\n", h.flow,
			        (unsigned long long)h.seq,
			        (unsigned long long)h.sent_ns,
			        (unsigned long long)at);
	}
	uint64_t trx = 0, tlost = 0;
	for (unsigned tos = 0; tos < 256; tos++) {
		uint64_t rx = 0, lost = 0, dup = 0, nflows = 0;
		uint32_t *all = NULL;
		size_t nall = 0;

		for (size_t i = 0; i < sizeof(fs) / sizeof(fs[0]); i++) {
			struct flowstat *f = &fs[i];

			if (!f->used || f->tos != tos)
				continue;
			nflows++;
			rx += f->rx;
			dup += f->dup;
			lost += f->maxseq - f->rx;
			all = realloc(all, (nall + f->nlat) * sizeof(*all));
			if (!all && nall + f->nlat)
				die("realloc");
			memcpy(all + nall, f->lat, f->nlat * sizeof(*all));
			nall += f->nlat;
		}
		if (!nflows)
			continue;
		qsort(all, nall, sizeof(*all), cmp_u32);
		printf("tos 0x%02x flows %llu rx %llu lost %llu dup %llu "
		       "lat_us %u %u %u\n",
		       tos, (unsigned long long)nflows, (unsigned long long)rx,
		       (unsigned long long)lost, (unsigned long long)dup,
		       nall ? all[0] : 0, nall ? all[nall / 2] : 0,
		       nall ? all[nall - 1] : 0);
		trx += rx;
		tlost += lost;
		free(all);
	}
	printf("total rx %llu lost %llu\n", (unsigned long long)trx,
	       (unsigned long long)tlost);
	if (log)
		fclose(log);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "send"))
		return do_send(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "recv"))
		return do_recv(argc - 1, argv + 1);
	fprintf(stderr, "usage: traffic send DST[:PORT] [-T TOS] [-r PPS] "
	                "[-t S] [-n N] [-s SIZE] [-b SNDBUF] [-f FLOW]\n"
	                "            [-P PRIO]\n"
	                "       traffic recv [-p PORT] [-t S] [-i IDLE] "
	                "[-e N] [-R READY] [-l LOG] [-6]\n");
	return 2;
}
