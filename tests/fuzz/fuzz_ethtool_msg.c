/* fuzz_ethtool_msg: the ethtool generic netlink reply decoders, the
 * ETH_SS_STATS name matcher and the ETHTOOL_GSTRINGS / ETHTOOL_GSTATS
 * answer decoders (lib/nlmsg/ethtool_msg.h) on arbitrary bytes. The
 * family id the decoders expect is taken from the message itself, so that
 * the fuzzer reaches past the family check. For the ioctl answers, the
 * first two bytes (little endian) say where the GSTRINGS answer ends and
 * the GSTATS answer begins (seeds: tests/fuzz/corpus/ethtool_msg, the
 * mlx5 and mlxsw name sets of tests/fixtures/ethtool/stats_names.h). */
#include <linux/netlink.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nlmsg/ethtool_msg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The counters' names as ETHTOOL_GSTRINGS lays them out, values 1..N. */
static void fuzz_prio(const uint8_t *data, size_t size)
{
	size_t n = size / ETHTOOL_MSG_GSTRING_LEN;
	struct ethtool_msg_prio prio;
	uint64_t *vals;
	char *names;

	if (!n)
		return;
	names = malloc(n * ETHTOOL_MSG_GSTRING_LEN);
	vals = calloc(n, sizeof(*vals));
	if (names && vals) {
		memcpy(names, data, n * ETHTOOL_MSG_GSTRING_LEN);
		for (size_t i = 0; i < n; i++) {
			unsigned p;
			const char *drv;

			vals[i] = i + 1;
			(void)ethtool_msg_prio_match(
			    names + i * ETHTOOL_MSG_GSTRING_LEN, &p, &drv);
		}
		(void)ethtool_msg_prio_collect(names, vals, n, &prio);
	}
	free(names);
	free(vals);
}

/* A GSTRINGS answer, its map, and a GSTATS answer read with it. */
static void fuzz_gstats(const uint8_t *data, size_t size)
{
	struct ethtool_msg_prio_map m;
	struct ethtool_msg_prio out;
	const char *names;
	size_t split, n;
	uint8_t *a, *b;

	if (size < 2)
		return;
	split = (size_t)data[0] | (size_t)data[1] << 8;
	data += 2;
	size -= 2;
	if (split > size)
		split = size;
	/* Copies of exactly their size: ASan sees any read past them. */
	a = malloc(split ? split : 1);
	b = malloc(size - split ? size - split : 1);
	if (a && b) {
		memcpy(a, data, split);
		memcpy(b, data + split, size - split);
		if (ethtool_msg_parse_gstrings(a, split, &names, &n) == 0) {
			(void)ethtool_msg_prio_map(names, n, &m);
			(void)ethtool_msg_parse_gstats(b, size - split, &m,
			                               &out);
		}
		ethtool_msg_prio_map(NULL, 0, &m);
		m.count = 4;
		m.idx[ETHTOOL_MSG_PRIO_RX][3] = 3;
		m.idx[ETHTOOL_MSG_PRIO_TX][0] = 7; /* past the count */
		(void)ethtool_msg_parse_gstats(b, size - split, &m, &out);
	}
	free(a);
	free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ethtool_msg_link link;
	struct ethtool_msg_pause pause;
	uint16_t family = 0x15;
	uint8_t *buf = malloc(size ? size : 1);

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	if (size >= sizeof(struct nlmsghdr))
		family = ((const struct nlmsghdr *)buf)->nlmsg_type;
	(void)ethtool_msg_parse_family(buf, size, &family);
	(void)ethtool_msg_parse_linkmodes(buf, size, family, &link);
	(void)ethtool_msg_parse_pause(buf, size, family, &pause);
	free(buf);
	fuzz_prio(data, size);
	fuzz_gstats(data, size);
	return 0;
}
