/* Tests for lib/nlmsg/ethtool_msg.c: requests against the bytes the kernel
 * accepts (checked live in tests/daemon/test_ethtool.c), replies from the
 * dissected fixtures of tests/fixtures/ethtool/, the per-priority counter
 * names of each driver, and a truncation/mutation loop over every reply. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ethtool.h>
#include <linux/netlink.h>

#include "nlmsg/ethtool_msg.h"
#include "../fixtures/ethtool/stats_names.h"

#include "../fixtures/ethtool/replies.h"

/* clang-format off */

/* CTRL_CMD_GETFAMILY of "ethtool", seq 7. */
static const uint8_t rq_family[] = {
	/* nlmsghdr: len 32, GENL_ID_CTRL (0x10), NLM_F_REQUEST, seq 7, pid 0 */
	0x20, 0x00, 0x00, 0x00, 0x10, 0x00, 0x01, 0x00,
	0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* genlmsghdr: CTRL_CMD_GETFAMILY (3), version 1 */
	0x03, 0x01, 0x00, 0x00,
	/* CTRL_ATTR_FAMILY_NAME (2), len 12: "ethtool\0" */
	0x0c, 0x00, 0x02, 0x00, 0x65, 0x74, 0x68, 0x74,
	0x6f, 0x6f, 0x6c, 0x00,
};

/* LINKMODES_GET of "a0", seq 1: the bytes Linux 6.18 answered with a
 * reply when this module built them. */
static const uint8_t rq_link_a0[] = {
	/* nlmsghdr: len 40, ethtool (0x15), NLM_F_REQUEST, seq 1, pid 0 */
	0x28, 0x00, 0x00, 0x00, 0x15, 0x00, 0x01, 0x00,
	0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* genlmsghdr: ETHTOOL_MSG_LINKMODES_GET (4), version 1 */
	0x04, 0x01, 0x00, 0x00,
	/* ETHTOOL_A_LINKMODES_HEADER (1), NLA_F_NESTED, len 20 */
	0x14, 0x00, 0x01, 0x80,
		/* ETHTOOL_A_HEADER_DEV_NAME (2), len 7: "a0\0", padding */
		0x07, 0x00, 0x02, 0x00, 0x61, 0x30, 0x00, 0x00,
		/* ETHTOOL_A_HEADER_FLAGS (3), len 8: COMPACT_BITSETS */
		0x08, 0x00, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00,
};

/* The dump of every device: the header nest holds the flags only. */
static const uint8_t rq_link_dump[] = {
	/* nlmsghdr: len 32, ethtool (0x15), NLM_F_REQUEST, seq 2, pid 0 */
	0x20, 0x00, 0x00, 0x00, 0x15, 0x00, 0x01, 0x00,
	0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* genlmsghdr: ETHTOOL_MSG_LINKMODES_GET (4), version 1 */
	0x04, 0x01, 0x00, 0x00,
	/* ETHTOOL_A_LINKMODES_HEADER (1), NLA_F_NESTED, len 12 */
	0x0c, 0x00, 0x01, 0x80,
		/* ETHTOOL_A_HEADER_FLAGS (3), len 8: COMPACT_BITSETS */
		0x08, 0x00, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00,
};

/* PAUSE_GET of ifindex 5 with statistics, seq 3. */
static const uint8_t rq_pause_5[] = {
	/* nlmsghdr: len 40, ethtool (0x15), NLM_F_REQUEST, seq 3, pid 0 */
	0x28, 0x00, 0x00, 0x00, 0x15, 0x00, 0x01, 0x00,
	0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* genlmsghdr: ETHTOOL_MSG_PAUSE_GET (21), version 1 */
	0x15, 0x01, 0x00, 0x00,
	/* ETHTOOL_A_PAUSE_HEADER (1), NLA_F_NESTED, len 20 */
	0x14, 0x00, 0x01, 0x80,
		/* ETHTOOL_A_HEADER_DEV_INDEX (1), len 8: u32 5 */
		0x08, 0x00, 0x01, 0x00, 0x05, 0x00, 0x00, 0x00,
		/* ETHTOOL_A_HEADER_FLAGS (3), len 8: ETHTOOL_FLAG_STATS */
		0x08, 0x00, 0x03, 0x00, 0x04, 0x00, 0x00, 0x00,
};

/* PAUSE_SET of "lpa" rx on tx on, seq 2: what `ethtool -A lpa rx on tx on`
 * (ethtool 6.1) sent, captured with strace -e sendto -xx on a veth in a
 * scratch namespace, with NLM_F_ACK (which the transport adds) left out.
 * The kernel answered EOPNOTSUPP: veth has no pause settings. */
static const uint8_t rq_pause_set_on[] = {
	/* nlmsghdr: len 48, ethtool (0x15), NLM_F_REQUEST, seq 2, pid 0 */
	0x30, 0x00, 0x00, 0x00, 0x15, 0x00, 0x01, 0x00,
	0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* genlmsghdr: ETHTOOL_MSG_PAUSE_SET (22), version 1 */
	0x16, 0x01, 0x00, 0x00,
	/* ETHTOOL_A_PAUSE_HEADER (1), NLA_F_NESTED, len 12 */
	0x0c, 0x00, 0x01, 0x80,
		/* ETHTOOL_A_HEADER_DEV_NAME (2), len 8: "lpa\0" */
		0x08, 0x00, 0x02, 0x00, 0x6c, 0x70, 0x61, 0x00,
	/* ETHTOOL_A_PAUSE_RX (3), len 5: 1, padding */
	0x05, 0x00, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00,
	/* ETHTOOL_A_PAUSE_TX (4), len 5: 1, padding */
	0x05, 0x00, 0x04, 0x00, 0x01, 0x00, 0x00, 0x00,
};

/* `ethtool -A lpa rx off tx on`, captured the same way. */
static const uint8_t rq_pause_set_tx[] = {
	0x30, 0x00, 0x00, 0x00, 0x15, 0x00, 0x01, 0x00,
	0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x16, 0x01, 0x00, 0x00,
	0x0c, 0x00, 0x01, 0x80,
		0x08, 0x00, 0x02, 0x00, 0x6c, 0x70, 0x61, 0x00,
	/* ETHTOOL_A_PAUSE_RX: 0 */
	0x05, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* ETHTOOL_A_PAUSE_TX: 1 */
	0x05, 0x00, 0x04, 0x00, 0x01, 0x00, 0x00, 0x00,
};

/* `ethtool -I -a lpa` (ethtool 6.1): PAUSE_GET by name with
 * ETHTOOL_FLAG_STATS, seq 3. */
static const uint8_t rq_pause_get_lpa[] = {
	0x28, 0x00, 0x00, 0x00, 0x15, 0x00, 0x01, 0x00,
	0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* genlmsghdr: ETHTOOL_MSG_PAUSE_GET (21), version 1 */
	0x15, 0x01, 0x00, 0x00,
	0x14, 0x00, 0x01, 0x80,
		0x08, 0x00, 0x02, 0x00, 0x6c, 0x70, 0x61, 0x00,
		/* ETHTOOL_A_HEADER_FLAGS: ETHTOOL_FLAG_STATS */
		0x08, 0x00, 0x03, 0x00, 0x04, 0x00, 0x00, 0x00,
};

/* `ethtool --json -a lpa`: the same without statistics, seq 2. */
static const uint8_t rq_pause_get_lpa_nostats[] = {
	0x20, 0x00, 0x00, 0x00, 0x15, 0x00, 0x01, 0x00,
	0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x15, 0x01, 0x00, 0x00,
	0x0c, 0x00, 0x01, 0x80,
		0x08, 0x00, 0x02, 0x00, 0x6c, 0x70, 0x61, 0x00,
};

/* clang-format on */

static void assert_msg(const char *buf, const uint8_t *want, size_t n)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)buf;

	assert_int_equal(nlh->nlmsg_len, n);
	assert_memory_equal(buf, want, n);
}

static void test_requests(void **state)
{
	char buf[ETHTOOL_MSG_REQ_SIZE] __attribute__((aligned(4)));

	(void)state;
	/* A dirty buffer must not leak into the padding. */
	memset(buf, 0xa5, sizeof(buf));
	assert_int_equal(ethtool_msg_family_get(buf, sizeof(buf), 7), 0);
	assert_msg(buf, rq_family, sizeof(rq_family));
	memset(buf, 0xa5, sizeof(buf));
	assert_int_equal(
	    ethtool_msg_linkmodes_get(buf, sizeof(buf), 1, RP_FAMILY, "a0", 0),
	    0);
	assert_msg(buf, rq_link_a0, sizeof(rq_link_a0));
	/* The name wins over the index. */
	assert_int_equal(
	    ethtool_msg_linkmodes_get(buf, sizeof(buf), 1, RP_FAMILY, "a0", 9),
	    0);
	assert_msg(buf, rq_link_a0, sizeof(rq_link_a0));
	assert_int_equal(
	    ethtool_msg_linkmodes_get(buf, sizeof(buf), 2, RP_FAMILY, NULL, 0),
	    0);
	assert_msg(buf, rq_link_dump, sizeof(rq_link_dump));
	assert_int_equal(ethtool_msg_pause_get(buf, sizeof(buf), 3, RP_FAMILY,
	                                       NULL, 5, true),
	                 0);
	assert_msg(buf, rq_pause_5, sizeof(rq_pause_5));
}

/* Byte for byte what ethtool(8) sends for the same request. */
static void test_requests_like_ethtool(void **state)
{
	char buf[ETHTOOL_MSG_REQ_SIZE] __attribute__((aligned(4)));

	(void)state;
	memset(buf, 0xa5, sizeof(buf));
	assert_int_equal(ethtool_msg_pause_set(buf, sizeof(buf), 2, RP_FAMILY,
	                                       "lpa", true, true),
	                 0);
	assert_msg(buf, rq_pause_set_on, sizeof(rq_pause_set_on));
	memset(buf, 0xa5, sizeof(buf));
	assert_int_equal(ethtool_msg_pause_set(buf, sizeof(buf), 2, RP_FAMILY,
	                                       "lpa", false, true),
	                 0);
	assert_msg(buf, rq_pause_set_tx, sizeof(rq_pause_set_tx));
	assert_int_equal(ethtool_msg_pause_get(buf, sizeof(buf), 3, RP_FAMILY,
	                                       "lpa", 0, true),
	                 0);
	assert_msg(buf, rq_pause_get_lpa, sizeof(rq_pause_get_lpa));
	assert_int_equal(ethtool_msg_pause_get(buf, sizeof(buf), 2, RP_FAMILY,
	                                       "lpa", 0, false),
	                 0);
	assert_msg(buf, rq_pause_get_lpa_nostats,
	           sizeof(rq_pause_get_lpa_nostats));
}

static void test_pause_set_errors(void **state)
{
	char buf[ETHTOOL_MSG_REQ_SIZE] __attribute__((aligned(4)));

	(void)state;
	/* A set names its device: there is no "every device". */
	assert_int_equal(ethtool_msg_pause_set(buf, sizeof(buf), 1, RP_FAMILY,
	                                       NULL, true, true),
	                 -EINVAL);
	assert_int_equal(ethtool_msg_pause_set(buf, sizeof(buf), 1, RP_FAMILY,
	                                       "", true, true),
	                 -EINVAL);
	assert_int_equal(
	    ethtool_msg_pause_set(buf, sizeof(buf), 1, 0, "lpa", true, true),
	    -EINVAL);
	for (size_t n = 0; n < sizeof(rq_pause_set_on); n++) {
		char *b = malloc(n ? n : 1);

		assert_int_equal(ethtool_msg_pause_set(b, n, 2, RP_FAMILY,
		                                       "lpa", true, true),
		                 -EMSGSIZE);
		free(b);
	}
}

static void test_request_errors(void **state)
{
	char buf[ETHTOOL_MSG_REQ_SIZE] __attribute__((aligned(4)));

	(void)state;
	assert_int_equal(
	    ethtool_msg_linkmodes_get(buf, sizeof(buf), 1, RP_FAMILY, "", 0),
	    -EINVAL);
	assert_int_equal(ethtool_msg_linkmodes_get(buf, sizeof(buf), 1,
	                                           RP_FAMILY,
	                                           "sixteen-chars-xx", 0),
	                 -EINVAL);
	assert_int_equal(
	    ethtool_msg_linkmodes_get(buf, sizeof(buf), 1, 0, "a0", 0),
	    -EINVAL);
	assert_int_equal(
	    ethtool_msg_pause_get(NULL, 64, 1, RP_FAMILY, "a0", 0, false),
	    -EINVAL);
	/* Every size short of the message is refused, none overflows. */
	for (size_t n = 0; n < sizeof(rq_link_a0); n++) {
		char *b = malloc(n ? n : 1);

		assert_int_equal(
		    ethtool_msg_linkmodes_get(b, n, 1, RP_FAMILY, "a0", 0),
		    -EMSGSIZE);
		free(b);
	}
	for (size_t n = 0; n < sizeof(rq_family); n++) {
		char *b = malloc(n ? n : 1);

		assert_int_equal(ethtool_msg_family_get(b, n, 1), -EMSGSIZE);
		free(b);
	}
}

static void test_parse_family(void **state)
{
	uint16_t id = 0;

	(void)state;
	assert_int_equal(
	    ethtool_msg_parse_family(rp_family, sizeof(rp_family), &id), 0);
	assert_int_equal(id, RP_FAMILY);
	assert_int_equal(ethtool_msg_parse_family(rp_family_other,
	                                          sizeof(rp_family_other), &id),
	                 -ENOMSG);
	/* An ethtool reply is not a controller reply. */
	assert_int_equal(
	    ethtool_msg_parse_family(rp_link_veth, sizeof(rp_link_veth), &id),
	    -ENOMSG);
}

static void test_parse_links(void **state)
{
	struct ethtool_msg_link l;

	(void)state;
	assert_int_equal(ethtool_msg_parse_linkmodes(
	                     rp_link_veth, sizeof(rp_link_veth), RP_FAMILY, &l),
	                 0);
	assert_int_equal(l.dev.ifindex, 3);
	assert_string_equal(l.dev.ifname, "swp1");
	assert_int_equal(l.speed, 10000);
	assert_int_equal(ethtool_msg_link_speed(&l), 10000);
	assert_int_equal(l.duplex, DUPLEX_FULL);
	assert_int_equal(l.autoneg, AUTONEG_DISABLE);
	assert_false(l.present & ETHTOOL_MSG_HAS_LANES);

	assert_int_equal(ethtool_msg_parse_linkmodes(
	                     rp_link_100g, sizeof(rp_link_100g), RP_FAMILY, &l),
	                 0);
	assert_string_equal(l.dev.ifname, "enp1s0f0np0");
	assert_int_equal(ethtool_msg_link_speed(&l), 100000);
	assert_int_equal(l.lanes, 4);
	assert_int_equal(l.autoneg, AUTONEG_ENABLE);

	assert_int_equal(ethtool_msg_parse_linkmodes(rp_link_nocarrier,
	                                             sizeof(rp_link_nocarrier),
	                                             RP_FAMILY, &l),
	                 0);
	assert_true(l.present & ETHTOOL_MSG_HAS_SPEED);
	assert_int_equal(l.speed, ETHTOOL_MSG_SPEED_UNKNOWN);
	assert_int_equal(ethtool_msg_link_speed(&l), 0);
	assert_int_equal(l.duplex, DUPLEX_UNKNOWN);

	/* Another family id, another command: not ours. */
	assert_int_equal(ethtool_msg_parse_linkmodes(rp_link_veth,
	                                             sizeof(rp_link_veth),
	                                             RP_FAMILY + 1, &l),
	                 -ENOMSG);
	assert_int_equal(ethtool_msg_parse_linkmodes(rp_pause_stats,
	                                             sizeof(rp_pause_stats),
	                                             RP_FAMILY, &l),
	                 -ENOMSG);
}

static void test_parse_pause(void **state)
{
	struct ethtool_msg_pause p;

	(void)state;
	assert_int_equal(ethtool_msg_parse_pause(rp_pause_stats,
	                                         sizeof(rp_pause_stats),
	                                         RP_FAMILY, &p),
	                 0);
	assert_int_equal(p.dev.ifindex, 5);
	assert_true(p.rx && p.tx && !p.autoneg);
	assert_int_equal(p.present, ETHTOOL_MSG_HAS_PAUSE_STATS |
	                                ETHTOOL_MSG_HAS_PAUSE_TX |
	                                ETHTOOL_MSG_HAS_PAUSE_RX);
	assert_int_equal(p.tx_frames, 123456789012ull);
	assert_int_equal(p.rx_frames, 42);

	assert_int_equal(ethtool_msg_parse_pause(rp_pause_nostats,
	                                         sizeof(rp_pause_nostats),
	                                         RP_FAMILY, &p),
	                 0);
	assert_string_equal(p.dev.ifname, "eth0");
	assert_true(p.autoneg && p.rx && !p.tx);
	assert_int_equal(p.present, 0);
}

/* Malformed on purpose: a speed of 2 bytes, a header without a device. */
static void test_parse_rejects(void **state)
{
	uint8_t b[sizeof(rp_link_veth)];
	struct ethtool_msg_link l;
	size_t speed = 0;

	(void)state;
	memcpy(b, rp_link_veth, sizeof(b));
	/* Find ETHTOOL_A_LINKMODES_SPEED (len 8, type 5) and shorten it. */
	for (size_t i = 20; i + 4 <= sizeof(b); i += 4)
		if (b[i] == 8 && b[i + 2] == 5 && b[i + 3] == 0)
			speed = i;
	assert_true(speed);
	b[speed] = 6;
	assert_int_equal(
	    ethtool_msg_parse_linkmodes(b, sizeof(b), RP_FAMILY, &l), -EINVAL);

	memcpy(b, rp_link_veth, sizeof(b));
	b[22] = 0x0f; /* header nest type 1 -> 15: no device named */
	assert_int_equal(
	    ethtool_msg_parse_linkmodes(b, sizeof(b), RP_FAMILY, &l), -EINVAL);
}

static void test_prio_match(void **state)
{
	static const struct {
		const char *name;
		int stat;
		unsigned prio;
		const char *driver;
	} cases[] = {
	    {"rx_prio3_pause", ETHTOOL_MSG_PRIO_RX, 3, "mlx5"},
	    {"tx_prio0_pause", ETHTOOL_MSG_PRIO_TX, 0, "mlx5"},
	    {"rx_prio7_pause_duration", ETHTOOL_MSG_PRIO_RX_US, 7, "mlx5"},
	    {"tx_prio3_pause_duration", ETHTOOL_MSG_PRIO_TX_US, 3, "mlx5"},
	    {"rx_pause_prio_3", ETHTOOL_MSG_PRIO_RX, 3, "mlxsw"},
	    {"tx_pause_prio_5", ETHTOOL_MSG_PRIO_TX, 5, "mlxsw"},
	    {"rx_pause_duration_prio_3", ETHTOOL_MSG_PRIO_RX_US, 3, "mlxsw"},
	    {"tx_pause_duration_prio_1", ETHTOOL_MSG_PRIO_TX_US, 1, "mlxsw"},
	    {"rx_priority_3_xoff.nic", ETHTOOL_MSG_PRIO_RX, 3, "ice"},
	    {"tx_priority_6_xoff.nic", ETHTOOL_MSG_PRIO_TX, 6, "ice"},
	    {"port.rx_priority_3_xoff_rx", ETHTOOL_MSG_PRIO_RX, 3, "i40e"},
	    {"port.tx_priority_2_xoff_tx", ETHTOOL_MSG_PRIO_TX, 2, "i40e"},
	    {"port.rx_priority_4_xoff", ETHTOOL_MSG_PRIO_RX, 4, "i40e"},
	    {"rx_pfc_ena_frames_pri3", ETHTOOL_MSG_PRIO_RX, 3, "bnxt"},
	    {"tx_pfc_ena_frames_pri7", ETHTOOL_MSG_PRIO_TX, 7, "bnxt"},
	    /* Near misses. */
	    {"rx_prio8_pause", -1, 0, NULL},
	    {"rx_prio10_pause", -1, 0, NULL},
	    {"rx_prio3_pause_transition", -1, 0, NULL},
	    {"rx_prio3_pausex", -1, 0, NULL},
	    {"rx_prio_pause", -1, 0, NULL},
	    {"rx_priority_3_xon.nic", ETHTOOL_MSG_PRIO_RX_XON, 3, "ice"},
	    {"tx_priority_5_xon.nic", ETHTOOL_MSG_PRIO_TX_XON, 5, "ice"},
	    {"port-rx-xoff_prio-2_events", ETHTOOL_MSG_PRIO_RX, 2, "ice"},
	    {"port-tx-xon_prio-2_events", ETHTOOL_MSG_PRIO_TX_XON, 2, "ice"},
	    {"port.rx_priority_1_xon_rx", ETHTOOL_MSG_PRIO_RX_XON, 1, "i40e"},
	    {"port.tx_priority_1_xon", ETHTOOL_MSG_PRIO_TX_XON, 1, "i40e"},
	    {"pfc_pri3_rx_duration_us", ETHTOOL_MSG_PRIO_RX_US, 3, "bnxt"},
	    {"pfc_pri4_tx_duration_us", ETHTOOL_MSG_PRIO_TX_US, 4, "bnxt"},
	    {"pfc_pri3_rx_transitions", -1, 0, NULL},
	    {"rx_priority_3_xon", -1, 0, NULL},
	    {"port.rx_priority_3_xon_2_xoff", -1, 0, NULL},
	    {"rx_pb_3_pxoff", -1, 0, NULL},
	    {"rx_pause_ctrl_phy", -1, 0, NULL},
	    {"rx_prio3_bytes", -1, 0, NULL},
	    {"", -1, 0, NULL},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char name[ETHTOOL_MSG_GSTRING_LEN];
		const char *drv = NULL;
		unsigned prio = 99;
		int s;

		/* As the kernel hands them: 32 bytes, zero padded. */
		memset(name, 0, sizeof(name));
		memcpy(name, cases[i].name, strlen(cases[i].name));
		s = ethtool_msg_prio_match(name, &prio, &drv);
		if (s != cases[i].stat)
			fail_msg("%s: stat %d, want %d", cases[i].name, s,
			         cases[i].stat);
		if (s < 0)
			continue;
		assert_int_equal(prio, cases[i].prio);
		assert_string_equal(drv, cases[i].driver);
	}
}

/* A name that fills its 32 bytes has no NUL: nothing past it may be
 * read (ASan watches the end of the heap block), and a known name
 * followed by more characters is another name. */
static void test_prio_match_full_name(void **state)
{
	char *names = malloc(2 * ETHTOOL_MSG_GSTRING_LEN);
	uint64_t vals[2] = {1, 2};
	struct ethtool_msg_prio out;
	unsigned prio;

	(void)state;
	memset(names, 0, ETHTOOL_MSG_GSTRING_LEN);
	memcpy(names, "tx_prio4_pause", 14);
	memset(names + ETHTOOL_MSG_GSTRING_LEN, 'x', ETHTOOL_MSG_GSTRING_LEN);
	memcpy(names + ETHTOOL_MSG_GSTRING_LEN, "rx_prio3_pause", 14);
	assert_int_equal(ethtool_msg_prio_match(names + ETHTOOL_MSG_GSTRING_LEN,
	                                        &prio, NULL),
	                 -1);
	assert_int_equal(ethtool_msg_prio_collect(names, vals, 2, &out), 0);
	assert_int_equal(out.present[ETHTOOL_MSG_PRIO_TX], 1u << 4);
	assert_int_equal(out.present[ETHTOOL_MSG_PRIO_RX], 0);
	free(names);
}

static void put_name(char *names, size_t i, const char *s)
{
	memset(names + i * ETHTOOL_MSG_GSTRING_LEN, 0, ETHTOOL_MSG_GSTRING_LEN);
	memcpy(names + i * ETHTOOL_MSG_GSTRING_LEN, s, strlen(s));
}

static void test_prio_collect(void **state)
{
	char names[6 * ETHTOOL_MSG_GSTRING_LEN];
	uint64_t vals[6] = {100, 33, 44, 55, 66, 77};
	struct ethtool_msg_prio out;

	(void)state;
	put_name(names, 0, "rx_packets");
	put_name(names, 1, "rx_prio3_pause");
	put_name(names, 2, "tx_prio3_pause");
	put_name(names, 3, "rx_prio3_pause_duration");
	put_name(names, 4, "tx_prio0_pause");
	put_name(names, 5, "rx_prio3_pause_transition");
	assert_int_equal(ethtool_msg_prio_collect(names, vals, 6, &out), 0);
	assert_string_equal(out.driver, "mlx5");
	assert_int_equal(out.present[ETHTOOL_MSG_PRIO_RX], 1u << 3);
	assert_int_equal(out.present[ETHTOOL_MSG_PRIO_TX], (1u << 3) | 1u);
	assert_int_equal(out.present[ETHTOOL_MSG_PRIO_RX_US], 1u << 3);
	assert_int_equal(out.present[ETHTOOL_MSG_PRIO_TX_US], 0);
	assert_int_equal(out.v[ETHTOOL_MSG_PRIO_RX][3], 33);
	assert_int_equal(out.v[ETHTOOL_MSG_PRIO_TX][3], 44);
	assert_int_equal(out.v[ETHTOOL_MSG_PRIO_RX_US][3], 55);
	assert_int_equal(out.v[ETHTOOL_MSG_PRIO_TX][0], 66);

	/* veth's statistics: nothing per priority. */
	put_name(names, 0, "peer_ifindex");
	put_name(names, 1, "rx_queue_0_xdp_packets");
	assert_int_equal(ethtool_msg_prio_collect(names, vals, 2, &out),
	                 -EOPNOTSUPP);
	/* A duration alone is no frame counter. */
	put_name(names, 0, "rx_prio3_pause_duration");
	assert_int_equal(ethtool_msg_prio_collect(names, vals, 1, &out),
	                 -EOPNOTSUPP);
	assert_int_equal(ethtool_msg_prio_collect(names, vals, 0, &out),
	                 -EOPNOTSUPP);
}

/* --- every reply, truncated and mutated, through every decoder --- */

struct fixture {
	const char *name;
	const uint8_t *b;
	size_t n;
};

#define FX(a)                                                                  \
	{                                                                      \
#a, a, sizeof(a)                                               \
	}

static const struct fixture fixtures[] = {
    FX(rp_family),        FX(rp_family_other),   FX(rp_link_veth),
    FX(rp_link_100g),     FX(rp_link_nocarrier), FX(rp_pause_stats),
    FX(rp_pause_nostats),
};

static void assert_sane_err(int err, const char *what)
{
	if (err != 0 && err != -EINVAL && err != -ENOMSG)
		fail_msg("%s: unexpected %d", what, err);
}

/* Run every decoder on a heap copy of N bytes (so ASan sees overreads);
 * returns how many accepted it. */
static int decode_all(const uint8_t *fx, size_t n, const char *what)
{
	uint8_t *b = malloc(n ? n : 1);
	struct ethtool_msg_link l;
	struct ethtool_msg_pause p;
	uint16_t id;
	int err, ok = 0;

	memcpy(b, fx, n);
	err = ethtool_msg_parse_family(b, n, &id);
	assert_sane_err(err, what);
	if (!err) {
		assert_true(id > 0x10);
		ok++;
	}
	err = ethtool_msg_parse_linkmodes(b, n, RP_FAMILY, &l);
	assert_sane_err(err, what);
	if (!err) {
		assert_true(strnlen(l.dev.ifname, IFNAMSIZ) < IFNAMSIZ);
		assert_true(l.dev.ifindex || l.dev.ifname[0]);
		ok++;
	}
	err = ethtool_msg_parse_pause(b, n, RP_FAMILY, &p);
	assert_sane_err(err, what);
	if (!err) {
		assert_true(strnlen(p.dev.ifname, IFNAMSIZ) < IFNAMSIZ);
		ok++;
	}
	free(b);
	return ok;
}

static uint32_t xorshift(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* --- ETHTOOL_GSTRINGS / ETHTOOL_GSTATS replies of real name sets --- */

#define NNAMES(a) (sizeof(a) / sizeof((a)[0]))

/* The GSTRINGS answer for NAMES as the kernel writes it: the header, then
 * each name in 32 zero-padded bytes. Freed by the caller. */
static void *gstrings_reply(const char *const *names, size_t n, size_t *len)
{
	struct ethtool_gstrings *gs;

	*len = sizeof(*gs) + n * ETH_GSTRING_LEN;
	gs = calloc(1, *len);
	assert_non_null(gs);
	gs->cmd = ETHTOOL_GSTRINGS;
	gs->string_set = ETH_SS_STATS;
	gs->len = (uint32_t)n;
	for (size_t i = 0; i < n; i++)
		memcpy(gs->data + i * ETH_GSTRING_LEN, names[i],
		       strnlen(names[i], ETH_GSTRING_LEN));
	return gs;
}

/* The GSTATS answer with N values, value I = 1000 + I unless VALS (may be
 * NULL) says otherwise at I (0 in VALS: the default). */
static void *gstats_reply(size_t n, const uint64_t *vals, size_t nvals,
                          size_t *len)
{
	struct ethtool_stats *st;

	*len = sizeof(*st) + n * sizeof(uint64_t);
	st = calloc(1, *len);
	assert_non_null(st);
	st->cmd = ETHTOOL_GSTATS;
	st->n_stats = (uint32_t)n;
	for (size_t i = 0; i < n; i++)
		st->data[i] = i < nvals && vals[i] ? vals[i] : 1000 + i;
	return st;
}

static void map_of(const char *const *names, size_t n,
                   struct ethtool_msg_prio_map *m, int want)
{
	size_t len, got;
	const char *nm;
	void *gs = gstrings_reply(names, n, &len);

	assert_int_equal(ethtool_msg_parse_gstrings(gs, len, &nm, &got), 0);
	assert_int_equal(got, n);
	assert_int_equal(ethtool_msg_prio_map(nm, got, m), want);
	assert_int_equal(m->count, n);
	free(gs);
}

/* mlx5 with PFC on priority 3: its four counters are found where the
 * driver lists them, and nothing for the other priorities (their traffic
 * counters, rx_prio3_pause_transition and the stall counters are not
 * pause counters). */
static void test_gstats_mlx5(void **state)
{
	size_t n = NNAMES(fx_mlx5_pfc3), len;
	struct ethtool_msg_prio_map m;
	struct ethtool_msg_prio out;
	uint64_t vals[FX_MLX5_RX_PRIO3_PAUSE + 4] = {0};
	void *st;

	(void)state;
	assert_string_equal(fx_mlx5_pfc3[FX_MLX5_RX_PRIO3_PAUSE],
	                    "rx_prio3_pause");
	map_of(fx_mlx5_pfc3, n, &m, 0);
	assert_string_equal(m.driver, "mlx5");
	assert_int_equal(m.idx[ETHTOOL_MSG_PRIO_RX][3], FX_MLX5_RX_PRIO3_PAUSE);
	assert_int_equal(m.idx[ETHTOOL_MSG_PRIO_RX_US][3],
	                 FX_MLX5_RX_PRIO3_PAUSE + 1);
	assert_int_equal(m.idx[ETHTOOL_MSG_PRIO_TX][3],
	                 FX_MLX5_RX_PRIO3_PAUSE + 2);
	assert_int_equal(m.idx[ETHTOOL_MSG_PRIO_TX_US][3],
	                 FX_MLX5_RX_PRIO3_PAUSE + 3);
	for (unsigned s = 0; s < ETHTOOL_MSG_PRIO_NSTATS; s++)
		for (unsigned p = 0; p < 8; p++)
			if (p != 3 || s >= ETHTOOL_MSG_PRIO_RX_XON)
				assert_int_equal(m.idx[s][p], -1);

	vals[FX_MLX5_RX_PRIO3_PAUSE] = 123456;    /* rx_prio3_pause */
	vals[FX_MLX5_RX_PRIO3_PAUSE + 1] = 99000; /* ..._duration (us) */
	vals[FX_MLX5_RX_PRIO3_PAUSE + 2] = 7;     /* tx_prio3_pause */
	st = gstats_reply(n, vals, NNAMES(vals), &len);
	assert_int_equal(ethtool_msg_parse_gstats(st, len, &m, &out), 0);
	assert_string_equal(out.driver, "mlx5");
	assert_int_equal(out.present[ETHTOOL_MSG_PRIO_RX], 0x08);
	assert_int_equal(out.present[ETHTOOL_MSG_PRIO_RX_US], 0x08);
	assert_int_equal(out.present[ETHTOOL_MSG_PRIO_RX_XON], 0);
	assert_int_equal(out.v[ETHTOOL_MSG_PRIO_RX][3], 123456);
	assert_int_equal(out.v[ETHTOOL_MSG_PRIO_RX_US][3], 99000);
	assert_int_equal(out.v[ETHTOOL_MSG_PRIO_TX][3], 7);
	assert_int_equal(out.v[ETHTOOL_MSG_PRIO_TX_US][3],
	                 1000 + FX_MLX5_RX_PRIO3_PAUSE + 3);
	/* One value short: the count runs past the answer. */
	assert_int_equal(ethtool_msg_parse_gstats(st, len - 8, &m, &out),
	                 -EINVAL);
	free(st);
}

/* PFC goes off for priority 3 (the watchdog shut its queue): mlx5 drops
 * the block, the count no longer matches the map (-ESTALE, nothing
 * picked from values that moved), and the new set has no counter. */
static void test_gstats_mlx5_set_changes(void **state)
{
	struct ethtool_msg_prio_map m, m2;
	struct ethtool_msg_prio out;
	size_t len;
	void *st;

	(void)state;
	map_of(fx_mlx5_pfc3, NNAMES(fx_mlx5_pfc3), &m, 0);
	st = gstats_reply(NNAMES(fx_mlx5_nopfc), NULL, 0, &len);
	assert_int_equal(ethtool_msg_parse_gstats(st, len, &m, &out), -ESTALE);
	assert_int_equal(out.present[ETHTOOL_MSG_PRIO_RX], 0);
	map_of(fx_mlx5_nopfc, NNAMES(fx_mlx5_nopfc), &m2, -EOPNOTSUPP);
	assert_int_equal(ethtool_msg_parse_gstats(st, len, &m2, &out),
	                 -EOPNOTSUPP);
	free(st);
}

/* mlxsw: all eight priorities, frames and durations both ways, from the
 * per-priority blocks ("NAME_N"); the per-TC blocks are not pause. */
static void test_gstats_mlxsw(void **state)
{
	size_t n = NNAMES(fx_mlxsw), len;
	struct ethtool_msg_prio_map m;
	struct ethtool_msg_prio out;
	void *st;

	(void)state;
	map_of(fx_mlxsw, n, &m, 0);
	assert_string_equal(m.driver, "mlxsw");
	for (unsigned p = 0; p < 8; p++) {
		int base = FX_MLXSW_PRIO_BASE + 8 * (int)p;

		assert_int_equal(m.idx[ETHTOOL_MSG_PRIO_RX][p], base + 4);
		assert_int_equal(m.idx[ETHTOOL_MSG_PRIO_RX_US][p], base + 5);
		assert_int_equal(m.idx[ETHTOOL_MSG_PRIO_TX][p], base + 6);
		assert_int_equal(m.idx[ETHTOOL_MSG_PRIO_TX_US][p], base + 7);
	}
	st = gstats_reply(n, NULL, 0, &len);
	assert_int_equal(ethtool_msg_parse_gstats(st, len, &m, &out), 0);
	for (unsigned s = 0; s < ETHTOOL_MSG_PRIO_RX_XON; s++)
		assert_int_equal(out.present[s], 0xff);
	assert_int_equal(out.v[ETHTOOL_MSG_PRIO_RX][3],
	                 1000 + FX_MLXSW_PRIO_BASE + 8 * 3 + 4);
	assert_int_equal(out.v[ETHTOOL_MSG_PRIO_TX_US][7],
	                 1000 + FX_MLXSW_PRIO_BASE + 8 * 7 + 7);
	free(st);
}

/* Answers that are not what was asked, or whose counts lie. */
static void test_gstats_rejects(void **state)
{
	static const char *const one[] = {"rx_prio3_pause"};
	struct ethtool_msg_prio_map m;
	struct ethtool_msg_prio out;
	struct ethtool_gstrings *gs;
	struct ethtool_stats *st;
	const char *nm;
	size_t len, n;

	(void)state;
	gs = gstrings_reply(one, 1, &len);
	assert_int_equal(ethtool_msg_parse_gstrings(gs, len - 1, &nm, &n),
	                 -EINVAL);
	assert_int_equal(ethtool_msg_parse_gstrings(gs, 11, &nm, &n), -EINVAL);
	assert_int_equal(ethtool_msg_parse_gstrings(NULL, len, &nm, &n),
	                 -EINVAL);
	gs->string_set = ETH_SS_TEST;
	assert_int_equal(ethtool_msg_parse_gstrings(gs, len, &nm, &n), -EINVAL);
	gs->string_set = ETH_SS_STATS;
	gs->cmd = ETHTOOL_GSTATS;
	assert_int_equal(ethtool_msg_parse_gstrings(gs, len, &nm, &n), -EINVAL);
	gs->cmd = ETHTOOL_GSTRINGS;
	gs->len = UINT32_MAX;
	assert_int_equal(ethtool_msg_parse_gstrings(gs, len, &nm, &n), -EINVAL);
	gs->len = 1;
	assert_int_equal(ethtool_msg_parse_gstrings(gs, len, &nm, &n), 0);
	assert_int_equal(ethtool_msg_prio_map(nm, n, &m), 0);
	free(gs);

	st = gstats_reply(1, NULL, 0, &len);
	assert_int_equal(ethtool_msg_parse_gstats(st, 7, &m, &out), -EINVAL);
	st->n_stats = UINT32_MAX;
	assert_int_equal(ethtool_msg_parse_gstats(st, len, &m, &out), -EINVAL);
	st->n_stats = 1;
	st->cmd = ETHTOOL_GSTRINGS;
	assert_int_equal(ethtool_msg_parse_gstats(st, len, &m, &out), -EINVAL);
	st->cmd = ETHTOOL_GSTATS;
	assert_int_equal(ethtool_msg_parse_gstats(st, len, &m, &out), 0);
	assert_int_equal(out.v[ETHTOOL_MSG_PRIO_RX][3], 1000);
	/* A map that claims an index past the values picks nothing. */
	m.idx[ETHTOOL_MSG_PRIO_TX][2] = 5;
	assert_int_equal(ethtool_msg_parse_gstats(st, len, &m, &out), 0);
	assert_int_equal(out.present[ETHTOOL_MSG_PRIO_TX], 0);
	free(st);
}

static void test_fuzz(void **state)
{
	static const uint8_t pat[] = {0x00, 0xff, 0x7f, 0x80, 0x04, 0x03};
	uint8_t b[512];
	uint32_t seed = 0x4791;

	(void)state;
	for (size_t f = 0; f < sizeof(fixtures) / sizeof(fixtures[0]); f++) {
		const struct fixture *fx = &fixtures[f];

		assert_true(fx->n <= sizeof(b));
		/* Each fixture is accepted by exactly one decoder, except the
		 * other family's answer, which none takes. */
		assert_int_equal(decode_all(fx->b, fx->n, fx->name),
		                 fx->b == rp_family_other ? 0 : 1);
		/* Cut short of nlmsg_len: refused by all. */
		for (size_t n = 0; n < fx->n; n++)
			assert_int_equal(decode_all(fx->b, n, fx->name), 0);
		/* Every byte set to a few telling values. */
		for (size_t i = 0; i < fx->n; i++)
			for (size_t k = 0; k < sizeof(pat); k++) {
				memcpy(b, fx->b, fx->n);
				b[i] = pat[k];
				decode_all(b, fx->n, fx->name);
				b[i] = fx->b[i] ^ pat[k];
				decode_all(b, fx->n, fx->name);
			}
		/* Random multi-byte damage. */
		for (int r = 0; r < 2000; r++) {
			memcpy(b, fx->b, fx->n);
			for (int k = 0; k < 4; k++)
				b[xorshift(&seed) % fx->n] =
				    (uint8_t)xorshift(&seed);
			decode_all(b, fx->n, fx->name);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_requests),
	    cmocka_unit_test(test_request_errors),
	    cmocka_unit_test(test_parse_family),
	    cmocka_unit_test(test_parse_links),
	    cmocka_unit_test(test_parse_pause),
	    cmocka_unit_test(test_requests_like_ethtool),
	    cmocka_unit_test(test_pause_set_errors),
	    cmocka_unit_test(test_parse_rejects),
	    cmocka_unit_test(test_prio_match),
	    cmocka_unit_test(test_prio_match_full_name),
	    cmocka_unit_test(test_prio_collect),
	    cmocka_unit_test(test_gstats_mlx5),
	    cmocka_unit_test(test_gstats_mlx5_set_changes),
	    cmocka_unit_test(test_gstats_mlxsw),
	    cmocka_unit_test(test_gstats_rejects),
	    cmocka_unit_test(test_fuzz),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
