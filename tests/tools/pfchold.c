/* pfchold: drives daemon/kernel/bpfhold.c (the kernel path of software
 * PFC's receive side) by hand, for the QEMU tier's tests and bench/pfc:
 * the same loader roced uses, without a policy around it.
 *
 *   pfchold attach IF [-s MBPS] [-p PRIOS] [-l] [-r US] [-d DSCP=PRIO]...
 *   pfchold show IF
 *   pfchold detach IF
 *
 * attach loads the programs onto IF's clsact and exits: the hold then
 * works with no process at all. -s is the speed the quanta are counted
 * at (default 10000 Mb/s), -p the priorities honoured ("3" or "3,4",
 * default 3), -l honours 802.3x link pause, -r looks at a held packet
 * again every US microseconds (how soon an XON releases it; default: at
 * the pause's end only), -d maps a DSCP to a priority
 * for untagged IP (repeatable). show prints the maps as one line of
 * "name value" pairs: rx_frames, rx_malformed, rx_other, rx_link_pause,
 * loop_stray, loop_fail, and per priority P pause_P, xon_P, held_P
 * (packets sent into the hold's loop), inloop_P (there now), set_P (1
 * when a pause has set a hold's end that no XON cleared, run out or
 * not), left_P_us (the hold's time left), paused_P_ms, since_P_ns (when
 * the last span paused began: the hold's start, honoured). Exit 0, 1
 * on an error (named), 3 when IF has no programs of roced's (show). */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kernel/bpfhold.h"

static int usage(void)
{
	fprintf(stderr, "usage: pfchold attach IF [-s MBPS] [-p PRIOS] [-l] "
	                "[-r US] [-d DSCP=PRIO]...\n"
	                "       pfchold show IF\n"
	                "       pfchold detach IF\n");
	return 1;
}

static int parse_prios(const char *s, uint8_t *out)
{
	char *end;

	*out = 0;
	while (*s) {
		long p = strtol(s, &end, 10);

		if (end == s || p < 0 || p > 7)
			return -1;
		*out |= (uint8_t)(1u << p);
		s = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return -1;
	}
	return 0;
}

static int cmd_attach(int ifindex, const char *ifname, int argc, char **argv)
{
	struct bpfhold_conf c;
	struct bpfhold h;
	char err[512];
	int opt, rc;

	memset(&c, 0, sizeof(c));
	memset(c.dscp_prio, 0xff, sizeof(c.dscp_prio));
	c.cfg.speed_mbps = 10000;
	c.cfg.honour = 1u << 3;
	while ((opt = getopt(argc, argv, "s:p:lr:d:")) != -1) {
		unsigned d, p;

		switch (opt) {
		case 's':
			c.cfg.speed_mbps = (uint32_t)strtoul(optarg, NULL, 10);
			break;
		case 'p':
			if (parse_prios(optarg, &c.cfg.honour))
				return usage();
			break;
		case 'l':
			c.cfg.link_pause_rx = 1;
			break;
		case 'r':
			c.cfg.recheck_ns = strtoull(optarg, NULL, 10) * 1000;
			break;
		case 'd':
			if (sscanf(optarg, "%u=%u", &d, &p) != 2 || d > 63 ||
			    p > 7)
				return usage();
			c.dscp_prio[d] = (uint8_t)p;
			break;
		default:
			return usage();
		}
	}
	rc = bpfhold_attach(&h, ifindex, &c, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "pfchold: %s: %s\n", ifname, err);
		return 1;
	}
	bpfhold_close(&h);
	printf("attached %s\n", ifname);
	return 0;
}

static int cmd_show(int ifindex, const char *ifname)
{
	struct bpfhold_stats s;
	const struct pfc_hold_state *st = &s.st;
	struct bpfhold h;
	struct timespec ts;
	uint64_t now;
	int rc;

	if (bpfhold_find(&h, ifindex)) {
		fprintf(stderr, "pfchold: %s: no programs of roced's\n",
		        ifname);
		return 3;
	}
	rc = bpfhold_read(&h, &s);
	bpfhold_close(&h);
	if (rc) {
		fprintf(stderr, "pfchold: %s: %s\n", ifname, strerror(-rc));
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	printf("rx_frames %llu rx_malformed %llu rx_other %llu rx_link_pause "
	       "%llu loop_stray %llu loop_fail %llu",
	       (unsigned long long)st->rx_frames,
	       (unsigned long long)st->rx_malformed,
	       (unsigned long long)st->rx_other,
	       (unsigned long long)st->rx_link_pause,
	       (unsigned long long)st->loop_stray,
	       (unsigned long long)st->loop_fail);
	for (unsigned p = 0; p < PFC_HOLD_NPRIO; p++)
		printf(" pause_%u %llu xon_%u %llu held_%u %llu inloop_%u %lld "
		       "set_%u %d left_%u_us %llu paused_%u_ms %.3f",
		       p, (unsigned long long)s.prio[p].rx_pause, p,
		       (unsigned long long)s.prio[p].rx_xon, p,
		       (unsigned long long)s.prio[p].tx_held, p,
		       (long long)s.prio[p].inloop, p, s.prio[p].until != 0, p,
		       (unsigned long long)(s.prio[p].until > now
		                                ? (s.prio[p].until - now) / 1000
		                                : 0),
		       p, bpfhold_paused_ms(&s.prio[p], now));
	/* when the span paused last began (CLOCK_MONOTONIC ns): the hold's
	 * start where P is honoured (bench/pfc) */
	for (unsigned p = 0; p < PFC_HOLD_NPRIO; p++)
		printf(" since_%u_ns %llu", p,
		       (unsigned long long)s.prio[p].ask_since);
	printf("\n");
	return 0;
}

int main(int argc, char **argv)
{
	const char *why;
	int ifindex;

	if (argc < 3)
		return usage();
	if (!bpfhold_built(&why)) {
		fprintf(stderr, "pfchold: %s\n", why);
		return 1;
	}
	ifindex = (int)if_nametoindex(argv[2]);
	if (!ifindex) {
		fprintf(stderr, "pfchold: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	if (!strcmp(argv[1], "attach"))
		return cmd_attach(ifindex, argv[2], argc - 2, argv + 2);
	if (!strcmp(argv[1], "show"))
		return cmd_show(ifindex, argv[2]);
	if (!strcmp(argv[1], "detach")) {
		if (bpfhold_release_ifindex(ifindex)) {
			fprintf(stderr, "pfchold: %s: no programs of roced's\n",
			        argv[2]);
			return 3;
		}
		printf("detached %s\n", argv[2]);
		return 0;
	}
	return usage();
}
