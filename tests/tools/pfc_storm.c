/* pfc_storm: a PFC storm injector. Sends 802.1Qbb PFC frames (or 802.3x
 * link pause frames) out of one interface over AF_PACKET, for chosen
 * priorities, at a chosen rate and pause time, for a given time or count:
 * the faulty host of the watchdog's tests, the peer that pauses roced in
 * the software PFC tests, and an XON storm (quanta 0) that must never
 * count as a pause storm. With --pcap the frames go to a capture file
 * instead (tshark checks the encoder on it).
 *
 *   pfc_storm -i IF [-k pfc|pause] [-p PRIOS] [-q QUANTA] [-r PPS]
 *             [-t SECONDS] [-n COUNT] [-s SRC-MAC] [-w PCAP] [-x]
 *             [-c ON:PERIOD]
 *
 *   -p  priorities, a list "3" or "3,4" or "0-7" (default 3)
 *   -q  pause time in quanta, 0-65535 (default 65535; 0: XON)
 *   -r  frames per second (default 1000); 0: as fast as possible
 *   -t  seconds to run (default 1); -n stops after COUNT frames first
 *   -s  source MAC (default: the interface's)
 *   -x  end with one XON (pause time 0) for the same priorities, at once
 *   -c  ON:PERIOD (ms): pulses, frames only in the first ON ms of each
 *       PERIOD ms (a peer that pauses again and again, one process on
 *       one absolute schedule: a shell loop of short runs pauses less
 *       and less as the machine gets loaded)
 *
 * Frames are paced on an absolute CLOCK_MONOTONIC schedule, so a late
 * wake-up sends what is due at once instead of drifting. Prints
 * "sent N frames in S s (R/s) first_ns T0 last_ns T1 xon_ns T2
 * xon_done_ns T3 asked_ns A" (the first and last frame's and the XON's
 * CLOCK_MONOTONIC time, 0 when none; T3: when the XON's send returned;
 * A: the time the frames asked the receiver to pause, at 10 Gb/s: the
 * union of each frame's span from its send, a frame replacing the time
 * left, the XON ending it; a stalled injector leaves gaps there).
 * Each time is read just before the frame's send, never after it: on a
 * veth the peer has the frame before sendto() returns, and a receiver
 * woken on this CPU can preempt the injector there, so a time read after
 * the send may come a whole reaction later (a queue released by the XON
 * was seen draining before "the XON" by up to 0.4 ms on a loaded host).
 * Exit 0, or 1 on an error (named).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "proto/pfc_frame.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Send one frame, its time read into *AT just before (see above). */
static ssize_t send_at(int fd, const uint8_t *buf, size_t len,
                       const struct sockaddr_ll *sll, double *at)
{
	*at = now_s();
	return sendto(fd, buf, len, 0, (const struct sockaddr *)sll,
	              sizeof(*sll));
}

static int parse_prios(const char *s, uint8_t *mask)
{
	char *end;

	*mask = 0;
	while (*s) {
		long a = strtol(s, &end, 10), b = a;

		if (end == s || a < 0 || a > 7)
			return -1;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s || b < a || b > 7)
				return -1;
		}
		for (long p = a; p <= b; p++)
			*mask |= (uint8_t)(1u << p);
		if (*end == ',')
			end++;
		else if (*end)
			return -1;
		s = end;
	}
	return *mask ? 0 : -1;
}

static int parse_mac(const char *s, uint8_t mac[6])
{
	unsigned v[6];

	if (sscanf(s, "%x:%x:%x:%x:%x:%x", &v[0], &v[1], &v[2], &v[3], &v[4],
	           &v[5]) != 6)
		return -1;
	for (int i = 0; i < 6; i++) {
		if (v[i] > 255)
			return -1;
		mac[i] = (uint8_t)v[i];
	}
	return 0;
}

/* A classic pcap file of Ethernet frames. */
static FILE *pcap_open(const char *path)
{
	struct {
		uint32_t magic;
		uint16_t major, minor;
		int32_t zone;
		uint32_t sigfigs, snaplen, linktype;
	} h = {0xa1b2c3d4, 2, 4, 0, 0, 65535, 1};
	FILE *f = fopen(path, "wb");

	if (f && fwrite(&h, sizeof(h), 1, f) != 1) {
		fclose(f);
		return NULL;
	}
	return f;
}

static int pcap_write(FILE *f, const uint8_t *b, size_t len, double t)
{
	uint32_t r[4] = {(uint32_t)t, (uint32_t)((t - (uint32_t)t) * 1e6),
	                 (uint32_t)len, (uint32_t)len};

	return fwrite(r, sizeof(r), 1, f) == 1 && fwrite(b, len, 1, f) == 1
	           ? 0
	           : -1;
}

static void usage(void)
{
	fprintf(stderr, "usage: pfc_storm -i IF [-k pfc|pause] [-p PRIOS] "
	                "[-q QUANTA] [-r PPS] [-t SECONDS] [-n COUNT] "
	                "[-s SRC-MAC] [-w PCAP] [-x] [-c ON:PERIOD]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *ifname = NULL, *pcap = NULL;
	uint8_t prios = 0x08, src[6] = {0x02, 0, 0, 0, 0, 0x01};
	bool have_src = false, xon = false;
	double xon_t = 0, xon_after = 0;
	long quanta = 65535, count = -1;
	double rate = 1000, secs = 1;
	int kind = PFC_FRAME_PFC, c, fd = -1;
	struct sockaddr_ll sll = {0};
	struct pfc_frame f;
	uint8_t buf[PFC_FRAME_MIN];
	FILE *pf = NULL;
	long sent = 0, errors = 0;
	double t0, next, end, first = 0, last = 0;
	/* the span the frames sent so far ask for, and its total before */
	double ask_since = 0, ask_until = 0, asked = 0, ask_s;
	double on_ms = 0, period_ms = 0;
	long bursts = 0, burst_idx = -1;
	char junk;
	char *e;

	while ((c = getopt(argc, argv, "i:k:p:q:r:t:n:s:w:xc:")) != -1) {
		switch (c) {
		case 'i':
			ifname = optarg;
			break;
		case 'k':
			if ((kind = pfc_frame_kind_parse(optarg)) < 0) {
				fprintf(
				    stderr,
				    "pfc_storm: invalid kind '%s', expected "
				    "pfc or pause\n",
				    optarg);
				return 2;
			}
			break;
		case 'p':
			if (parse_prios(optarg, &prios)) {
				fprintf(
				    stderr,
				    "pfc_storm: invalid priorities '%s', "
				    "expected a list of 0-7 like 3,4 or 0-7\n",
				    optarg);
				return 2;
			}
			break;
		case 'q':
			quanta = strtol(optarg, &e, 0);
			if (*e || quanta < 0 || quanta > 65535) {
				fprintf(stderr,
				        "pfc_storm: invalid quanta '%s', "
				        "expected 0..65535\n",
				        optarg);
				return 2;
			}
			break;
		case 'r':
			rate = strtod(optarg, &e);
			if (*e || rate < 0 || rate > 10e6) {
				fprintf(
				    stderr,
				    "pfc_storm: invalid rate '%s', expected "
				    "0..10000000 frames/s\n",
				    optarg);
				return 2;
			}
			break;
		case 't':
			secs = strtod(optarg, &e);
			if (*e || secs < 0 || secs > 86400) {
				fprintf(
				    stderr,
				    "pfc_storm: invalid time '%s', expected "
				    "0..86400 s\n",
				    optarg);
				return 2;
			}
			break;
		case 'n':
			count = strtol(optarg, &e, 10);
			if (*e || count < 0) {
				fprintf(stderr,
				        "pfc_storm: invalid count '%s'\n",
				        optarg);
				return 2;
			}
			break;
		case 's':
			if (parse_mac(optarg, src)) {
				fprintf(stderr,
				        "pfc_storm: invalid MAC '%s', expected "
				        "xx:xx:xx:xx:xx:xx\n",
				        optarg);
				return 2;
			}
			have_src = true;
			break;
		case 'w':
			pcap = optarg;
			break;
		case 'x':
			xon = true;
			break;
		case 'c':
			if (sscanf(optarg, "%lf:%lf%c", &on_ms, &period_ms,
			           &junk) != 2 ||
			    on_ms <= 0 || period_ms < on_ms ||
			    period_ms > 1e6) {
				fprintf(stderr,
				        "pfc_storm: invalid pulses '%s', "
				        "expected ON:PERIOD in ms, ON <= "
				        "PERIOD\n",
				        optarg);
				return 2;
			}
			break;
		default:
			usage();
		}
	}
	if (!ifname && !pcap)
		usage();

	if (pcap) {
		if (!(pf = pcap_open(pcap))) {
			fprintf(stderr, "pfc_storm: %s: %s\n", pcap,
			        strerror(errno));
			return 1;
		}
	} else {
		struct ifreq ifr = {0};

		fd = socket(AF_PACKET, SOCK_RAW, 0);
		if (fd < 0) {
			fprintf(stderr, "pfc_storm: AF_PACKET socket: %s\n",
			        strerror(errno));
			return 1;
		}
		sll.sll_family = AF_PACKET;
		sll.sll_ifindex = (int)if_nametoindex(ifname);
		sll.sll_halen = 6;
		if (!sll.sll_ifindex) {
			fprintf(stderr, "pfc_storm: %s: %s\n", ifname,
			        strerror(errno));
			return 1;
		}
		snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
		if (!have_src && ioctl(fd, SIOCGIFHWADDR, &ifr) == 0)
			memcpy(src, ifr.ifr_hwaddr.sa_data, 6);
	}
	pfc_frame_make(&f, (enum pfc_frame_kind)kind, src, prios,
	               (uint16_t)quanta);
	if (pfc_frame_encode(&f, buf, sizeof(buf)) < 0)
		return 1;
	memcpy(sll.sll_addr, f.dst, 6);

	ask_s = (double)pfc_quanta_ns((uint16_t)quanta, 10000) / 1e9;
	t0 = next = now_s();
	end = t0 + secs;
	while (count < 0 || sent < count) {
		double t = now_s();

		if (t >= end && !(count >= 0 && pf))
			break;
		if (period_ms > 0 && !pf &&
		    fmod((t - t0) * 1e3, period_ms) >= on_ms) {
			/* between pulses: on to the next one */
			next = t0 + (floor((t - t0) * 1e3 / period_ms) + 1) *
			                period_ms / 1e3;
			if (next < end) {
				struct timespec ts = {
				    .tv_sec = (time_t)next,
				    .tv_nsec =
				        (long)((next - (time_t)next) * 1e9)};
				clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME,
				                &ts, NULL);
			}
			if (now_s() >= end)
				break;
			continue;
		}
		if (rate > 0 && t < next && !pf) {
			struct timespec ts = {
			    .tv_sec = (time_t)next,
			    .tv_nsec = (long)((next - (time_t)next) * 1e9)};
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts,
			                NULL);
			continue;
		}
		if (pf) {
			if (pcap_write(pf, buf, sizeof(buf),
			               t0 + sent * 1e-3)) {
				fprintf(stderr, "pfc_storm: %s: write error\n",
				        pcap);
				return 1;
			}
			if (count < 0)
				count = 1;
		} else if (send_at(fd, buf, sizeof(buf), &sll, &t) < 0) {
			if (errno != ENOBUFS && errno != EAGAIN) {
				fprintf(stderr, "pfc_storm: send on %s: %s\n",
				        ifname, strerror(errno));
				return 1;
			}
			errors++;
		} else {
			last = t;
			if (!first)
				first = last;
			if (ask_until > 0 && ask_until < t) {
				asked += ask_until - ask_since;
				ask_until = 0;
			}
			if (quanta && ask_until <= 0)
				ask_since = t;
			if (quanta)
				ask_until = t + ask_s;
			if (period_ms > 0 && (long)((last - t0) * 1e3 /
			                            period_ms) != burst_idx) {
				burst_idx =
				    (long)((last - t0) * 1e3 / period_ms);
				bursts++;
			}
		}
		sent++;
		if (rate > 0)
			next += 1.0 / rate;
	}
	if (xon && fd >= 0) {
		struct pfc_frame x;
		uint8_t xb[PFC_FRAME_MIN];

		pfc_frame_make(&x, (enum pfc_frame_kind)kind, src, prios, 0);
		if (pfc_frame_encode(&x, xb, sizeof(xb)) < 0)
			return 1;
		if (send_at(fd, xb, sizeof(xb), &sll, &xon_t) < 0) {
			fprintf(stderr, "pfc_storm: XON on %s: %s\n", ifname,
			        strerror(errno));
			return 1;
		}
		xon_after = now_s();
	}
	if (ask_until > 0)
		asked += (xon_t > 0 && xon_t < ask_until ? xon_t : ask_until) -
		         ask_since;
	if (pf && fclose(pf)) {
		fprintf(stderr, "pfc_storm: %s: %s\n", pcap, strerror(errno));
		return 1;
	}
	if (fd >= 0)
		close(fd);
	t0 = now_s() - t0;
	/* The first and last frame's CLOCK_MONOTONIC times, in ns: the
	 * benchmarks measure reactions from them. */
	printf("sent %ld frames in %.3f s (%.0f/s)%s first_ns %.0f last_ns "
	       "%.0f xon_ns %.0f xon_done_ns %.0f asked_ns %.0f\n",
	       sent - errors, t0, t0 > 0 ? (double)(sent - errors) / t0 : 0.0,
	       errors ? " (some refused: ENOBUFS)" : "", first * 1e9,
	       last * 1e9, xon_t * 1e9, xon_after * 1e9, asked * 1e9);
	if (period_ms > 0)
		printf("bursts %ld\n", bursts);
	return 0;
}
