/* fuzz_ethtool_msg: the ethtool generic netlink reply decoders and the
 * ETH_SS_STATS name matcher (lib/nlmsg/ethtool_msg.h) on arbitrary bytes. The
 * family id the decoders expect is taken from the message itself, so that
 * the fuzzer reaches past the family check. */
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
	return 0;
}
