/* Tests for daemon/kernel/ethtool.c and the port probe built on it
 * (daemon/kernel/probe_port.c).
 *
 * First a fake kernel behind struct ethtool_ops answers with the
 * dissected replies of tests/fixtures/ethtool/ and a table of driver
 * statistics (mlx5, ice, veth). Then the real kernel, in a private network
 * namespace with its own sysfs mount (both die with the test process):
 * sysfs' /sys/class/net/X/speed is the independent oracle for speeds, and
 * veth's own `peer_ifindex` statistic the one for the GSTATS path. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <time.h>
#include <unistd.h>

#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>

#include "kernel/ethtool.h"
#include "kernel/probe.h"

#include "../fixtures/ethtool/replies.h"

/* ------------------------------------------------------------------ */
/* The fake kernel */

struct fake_stat {
	const char *name;
	uint64_t value;
};

struct fake {
	/* generic netlink */
	int family_rc;         /* the controller's verdict */
	const uint8_t *family; /* its answer (NULL: rp_family) */
	size_t family_len;
	const uint8_t *reply; /* the answer to an ethtool request */
	size_t reply_len;
	int rc; /* the ethtool request's verdict */
	size_t nfamily, nreq;
	uint16_t type; /* the last ethtool request's nlmsg_type */
	uint8_t cmd;   /* its genetlink command */
	bool dump;     /* it carried NLM_F_DUMP */
	char dev[IFNAMSIZ];
	uint32_t flags;     /* ETHTOOL_A_HEADER_FLAGS */
	int set_rx, set_tx; /* PAUSE_SET's RX/TX, -1 when absent */
	const char *extack; /* the refusal's text when RC is set */
	/* SIOCETHTOOL */
	const struct fake_stat *stats;
	size_t nstats;
	bool no_stats_set; /* GSSET_INFO clears the ETH_SS_STATS bit */
	int grow;          /* the next GSTRINGS/GSTATS see this many more */
	size_t nioctl;
};

static int fake_hdr_cb(const struct nlattr *a, void *data)
{
	struct fake *f = data;

	if (mnl_attr_get_type(a) == ETHTOOL_A_HEADER_DEV_NAME)
		snprintf(f->dev, sizeof(f->dev), "%s", mnl_attr_get_str(a));
	if (mnl_attr_get_type(a) == ETHTOOL_A_HEADER_FLAGS)
		f->flags = mnl_attr_get_u32(a);
	return MNL_CB_OK;
}

static int fake_req_cb(const struct nlattr *a, void *data)
{
	/* Every request this backend sends has its header as attribute 1,
	 * nested with NLA_F_NESTED as the kernel demands. */
	if (mnl_attr_get_type(a) == 1) {
		assert_true(a->nla_type & NLA_F_NESTED);
		mnl_attr_parse_nested(a, fake_hdr_cb, data);
	}
	if (mnl_attr_get_type(a) == ETHTOOL_A_PAUSE_RX)
		((struct fake *)data)->set_rx = mnl_attr_get_u8(a);
	if (mnl_attr_get_type(a) == ETHTOOL_A_PAUSE_TX)
		((struct fake *)data)->set_tx = mnl_attr_get_u8(a);
	return MNL_CB_OK;
}

/* Hand each whole message of B to CB, as libmnl's reader would. */
static int fake_deliver(const uint8_t *b, size_t n, mnl_cb_t cb, void *data)
{
	uint8_t *copy = malloc(n ? n : 1); /* heap: ASan sees overreads */
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)copy;
	int left = (int)n, rc = 0;

	if (n) /* an ACK-only answer has no bytes (and may have no buffer) */
		memcpy(copy, b, n);
	for (; mnl_nlmsg_ok(nlh, left); nlh = mnl_nlmsg_next(nlh, &left))
		if (cb(nlh, data) < 0) {
			rc = -EIO; /* what nlb returns when a callback stops */
			break;
		}
	free(copy);
	return rc;
}

static int fake_transact(void *ctx, struct nlmsghdr *req, mnl_cb_t cb,
                         void *data, struct nlb_error *err)
{
	struct fake *f = ctx;
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(req);

	memset(err, 0, sizeof(*err));
	assert_true(req->nlmsg_flags & NLM_F_REQUEST);
	if (req->nlmsg_type == GENL_ID_CTRL) {
		assert_int_equal(g->cmd, CTRL_CMD_GETFAMILY);
		f->nfamily++;
		if (f->family_rc)
			return err->err = f->family_rc;
		if (f->family)
			return fake_deliver(f->family, f->family_len, cb, data);
		return fake_deliver(rp_family, sizeof(rp_family), cb, data);
	}
	f->nreq++;
	f->type = req->nlmsg_type;
	f->cmd = g->cmd;
	f->dump = req->nlmsg_flags & NLM_F_DUMP;
	f->dev[0] = '\0';
	f->flags = 0;
	f->set_rx = f->set_tx = -1;
	mnl_attr_parse(req, GENL_HDRLEN, fake_req_cb, f);
	if (f->rc) {
		if (f->extack)
			snprintf(err->msg, sizeof(err->msg), "%s", f->extack);
		return err->err = f->rc;
	}
	return fake_deliver(f->reply, f->reply_len, cb, data);
}

static int fake_ioctl(void *ctx, const char *ifname, void *cmd)
{
	struct fake *f = ctx;
	uint32_t c;
	size_t n;

	(void)ifname;
	f->nioctl++;
	memcpy(&c, cmd, sizeof(c));
	switch (c) {
	case ETHTOOL_GSSET_INFO: {
		struct ethtool_sset_info *si = cmd;

		assert_int_equal(si->sset_mask, 1ull << ETH_SS_STATS);
		if (f->no_stats_set || !f->stats) {
			si->sset_mask = 0;
			return 0;
		}
		si->data[0] = (uint32_t)f->nstats;
		return 0;
	}
	case ETHTOOL_GSTRINGS: {
		struct ethtool_gstrings *gs = cmd;

		assert_int_equal(gs->string_set, ETH_SS_STATS);
		/* Like the kernel: the driver's count now, whatever the
		 * caller allocated (the backend leaves slack). */
		n = f->nstats + (size_t)f->grow;
		gs->len = (uint32_t)n;
		for (size_t i = 0; i < n; i++) {
			char *s = (char *)gs->data + i * ETH_GSTRING_LEN;

			memset(s, 0, ETH_GSTRING_LEN);
			if (i < f->nstats)
				memcpy(s, f->stats[i].name,
				       strlen(f->stats[i].name));
		}
		return 0;
	}
	case ETHTOOL_GSTATS: {
		struct ethtool_stats *st = cmd;

		n = f->nstats + (size_t)f->grow;
		st->n_stats = (uint32_t)n;
		for (size_t i = 0; i < n; i++)
			st->data[i] = i < f->nstats ? f->stats[i].value : 0;
		f->grow = 0; /* the channels settle */
		return 0;
	}
	default:
		return -EOPNOTSUPP;
	}
}

static const struct ethtool_ops fake_ops = {
    .transact = fake_transact,
    .ioctl = fake_ioctl,
};

/* Part of what mlx5 lists for `ethtool -S` on a ConnectX port. */
static const struct fake_stat mlx5_stats[] = {
    {"rx_packets", 1000},
    {"rx_pause_ctrl_phy", 12},
    {"rx_prio0_pause", 0},
    {"rx_prio0_pause_duration", 0},
    {"tx_prio0_pause", 0},
    {"tx_prio0_pause_duration", 0},
    {"rx_prio0_pause_transition", 0},
    {"rx_prio3_pause", 7},
    {"rx_prio3_pause_duration", 350},
    {"tx_prio3_pause", 5},
    {"tx_prio3_pause_duration", 120},
    {"rx_prio3_pause_transition", 3},
    {"rx_prio3_buf_discard", 0},
};

/* ice: XON and XOFF per priority, the ".nic" suffix for port counters. */
static const struct fake_stat ice_stats[] = {
    {"rx_bytes.nic", 5000},         {"tx_priority_3_xon.nic", 1},
    {"tx_priority_3_xoff.nic", 21}, {"rx_priority_3_xon.nic", 2},
    {"rx_priority_3_xoff.nic", 17}, {"rx_priority_4_xoff.nic", 9},
};

/* veth on Linux 6.18. */
static const struct fake_stat veth_stats[] = {
    {"peer_ifindex", 2},
    {"rx_queue_0_xdp_packets", 0},
    {"tx_queue_0_xdp_xmit", 0},
};

#define NSTATS(a) (sizeof(a) / sizeof((a)[0]))

static void test_family_resolved_once(void **state)
{
	struct fake f = {.reply = rp_link_veth,
	                 .reply_len = sizeof(rp_link_veth)};
	struct ethtool et;
	struct ethtool_msg_link l;

	(void)state;
	ethtool_init(&et, &fake_ops, &f);
	assert_int_equal(ethtool_link_get(&et, "swp1", &l), 0);
	assert_int_equal(ethtool_link_get(&et, "swp1", &l), 0);
	assert_int_equal(f.nfamily, 1);
	assert_int_equal(et.family, RP_FAMILY);
	/* Addressed to the family the controller named. */
	assert_int_equal(f.type, RP_FAMILY);
	assert_int_equal(f.cmd, ETHTOOL_MSG_LINKMODES_GET);
	assert_false(f.dump);
	assert_string_equal(f.dev, "swp1");
	assert_int_equal(f.flags, ETHTOOL_FLAG_COMPACT_BITSETS);
	assert_int_equal(f.nreq, 2);
	assert_int_equal(et.nrequests, 3);
	assert_int_equal(ethtool_msg_link_speed(&l), 10000);
}

/* A kernel without ethtool netlink: ENOENT from the controller, and the
 * next call asks again (the family may be loaded later). */
static void test_family_missing(void **state)
{
	struct fake f = {.family_rc = -ENOENT};
	struct ethtool et;
	struct ethtool_msg_link l;
	struct ethtool_msg_pause p;

	(void)state;
	ethtool_init(&et, &fake_ops, &f);
	assert_int_equal(ethtool_link_get(&et, "swp1", &l), -ENOENT);
	assert_int_equal(ethtool_pause_stats(&et, "swp1", &p), -ENOENT);
	assert_int_equal(f.nfamily, 2);
	assert_int_equal(f.nreq, 0);
	assert_int_equal(et.family, 0);
}

static void test_link_get(void **state)
{
	struct fake f = {.reply = rp_link_nocarrier,
	                 .reply_len = sizeof(rp_link_nocarrier)};
	struct ethtool et;
	struct ethtool_msg_link l;

	(void)state;
	ethtool_init(&et, &fake_ops, &f);
	assert_int_equal(ethtool_link_get(&et, "enp1s0f1np1", &l), 0);
	assert_string_equal(l.dev.ifname, "enp1s0f1np1");
	assert_int_equal(ethtool_msg_link_speed(&l), 0);
	f.reply = rp_link_100g;
	f.reply_len = sizeof(rp_link_100g);
	assert_int_equal(ethtool_link_get(&et, "enp1s0f0np0", &l), 0);
	assert_int_equal(ethtool_msg_link_speed(&l), 100000);
	/* The kernel's refusals pass through. */
	f.rc = -ENODEV;
	assert_int_equal(ethtool_link_get(&et, "nope", &l), -ENODEV);
	f.rc = -EOPNOTSUPP;
	assert_int_equal(ethtool_link_get(&et, "lo", &l), -EOPNOTSUPP);
	/* A successful exchange without the reply is no answer. */
	f.rc = 0;
	f.reply = rp_pause_stats;
	f.reply_len = sizeof(rp_pause_stats);
	assert_int_equal(ethtool_link_get(&et, "enp1s0f0np0", &l), -ENOMSG);
}

struct seen {
	char names[8][IFNAMSIZ];
	uint32_t speed[8];
	size_t n;
};

static void seen_cb(const struct ethtool_msg_link *l, void *data)
{
	struct seen *s = data;

	assert_true(s->n < 8);
	snprintf(s->names[s->n], IFNAMSIZ, "%s", l->dev.ifname);
	s->speed[s->n++] = ethtool_msg_link_speed(l);
}

/* One dump request, every device's reply handed over. */
static void test_link_dump(void **state)
{
	uint8_t dump[sizeof(rp_link_100g) + sizeof(rp_link_nocarrier) +
	             sizeof(rp_link_veth)];
	struct fake f = {.reply = dump, .reply_len = sizeof(dump)};
	struct ethtool et;
	struct seen s = {0};

	(void)state;
	memcpy(dump, rp_link_100g, sizeof(rp_link_100g));
	memcpy(dump + sizeof(rp_link_100g), rp_link_nocarrier,
	       sizeof(rp_link_nocarrier));
	memcpy(dump + sizeof(rp_link_100g) + sizeof(rp_link_nocarrier),
	       rp_link_veth, sizeof(rp_link_veth));
	ethtool_init(&et, &fake_ops, &f);
	assert_int_equal(ethtool_link_dump(&et, seen_cb, &s), 0);
	assert_int_equal(f.nreq, 1);
	assert_true(f.dump);
	assert_int_equal(f.cmd, ETHTOOL_MSG_LINKMODES_GET);
	assert_string_equal(f.dev, ""); /* no device: all of them */
	assert_int_equal(s.n, 3);
	assert_string_equal(s.names[0], "enp1s0f0np0");
	assert_int_equal(s.speed[0], 100000);
	assert_string_equal(s.names[1], "enp1s0f1np1");
	assert_int_equal(s.speed[1], 0);
	assert_string_equal(s.names[2], "swp1");
	assert_int_equal(s.speed[2], 10000);

	/* A namespace with nothing to report dumps nothing: not an error. */
	f.reply_len = 0;
	s.n = 0;
	assert_int_equal(ethtool_link_dump(&et, seen_cb, &s), 0);
	assert_int_equal(s.n, 0);
}

static void test_pause_stats(void **state)
{
	struct fake f = {.reply = rp_pause_stats,
	                 .reply_len = sizeof(rp_pause_stats)};
	struct ethtool et;
	struct ethtool_msg_pause p;

	(void)state;
	ethtool_init(&et, &fake_ops, &f);
	assert_int_equal(ethtool_pause_stats(&et, "enp1s0f0np0", &p), 0);
	assert_int_equal(f.cmd, ETHTOOL_MSG_PAUSE_GET);
	assert_int_equal(f.flags, ETHTOOL_FLAG_STATS);
	assert_int_equal(p.tx_frames, 123456789012ull);
	assert_int_equal(p.rx_frames, 42);

	/* Pause settings without counters. */
	f.reply = rp_pause_nostats;
	f.reply_len = sizeof(rp_pause_nostats);
	assert_int_equal(ethtool_pause_stats(&et, "eth0", &p), -EOPNOTSUPP);
	assert_true(p.rx && p.autoneg);

	/* veth: no pause at all. */
	f.rc = -EOPNOTSUPP;
	assert_int_equal(ethtool_pause_stats(&et, "veth0", &p), -EOPNOTSUPP);
}

/* PAUSE_SET: the port's name and both settings reach the kernel; its
 * refusal comes back with the extack text for the plan's warning. */
static void test_pause_set(void **state)
{
	struct fake f = {0};
	struct ethtool et;
	struct nlb_error e;

	(void)state;
	ethtool_init(&et, &fake_ops, &f);
	assert_int_equal(ethtool_pause_set(&et, "enp1s0f0np0", true, false, &e),
	                 0);
	assert_int_equal(e.err, 0);
	assert_int_equal(f.cmd, ETHTOOL_MSG_PAUSE_SET);
	assert_string_equal(f.dev, "enp1s0f0np0");
	assert_int_equal(f.set_rx, 1);
	assert_int_equal(f.set_tx, 0);
	assert_int_equal(f.flags, 0);
	assert_int_equal(ethtool_pause_set(&et, "eth0", false, true, NULL), 0);
	assert_int_equal(f.set_rx, 0);
	assert_int_equal(f.set_tx, 1);

	f.rc = -EINVAL;
	f.extack = "autoneg pause not supported";
	assert_int_equal(ethtool_pause_set(&et, "eth0", true, true, &e),
	                 -EINVAL);
	assert_int_equal(e.err, -EINVAL);
	assert_string_equal(e.msg, "autoneg pause not supported");
	/* No family: the verdict still reaches ERR. */
	f.family_rc = -ENOENT;
	et.family = 0;
	assert_int_equal(ethtool_pause_set(&et, "eth0", true, true, &e),
	                 -ENOENT);
	assert_int_equal(e.err, -ENOENT);
}

static void test_prio_pause_mlx5(void **state)
{
	struct fake f = {.stats = mlx5_stats, .nstats = NSTATS(mlx5_stats)};
	struct ethtool et;
	struct ethtool_msg_prio pp;

	(void)state;
	ethtool_init(&et, &fake_ops, &f);
	assert_int_equal(ethtool_prio_pause(&et, "enp1s0f0np0", &pp), 0);
	assert_string_equal(pp.driver, "mlx5");
	assert_int_equal(pp.present[ETHTOOL_MSG_PRIO_RX], 0x09);
	assert_int_equal(pp.present[ETHTOOL_MSG_PRIO_TX], 0x09);
	assert_int_equal(pp.v[ETHTOOL_MSG_PRIO_RX][3], 7);
	assert_int_equal(pp.v[ETHTOOL_MSG_PRIO_TX][3], 5);
	assert_int_equal(pp.v[ETHTOOL_MSG_PRIO_RX_US][3], 350);
	assert_int_equal(pp.v[ETHTOOL_MSG_PRIO_TX_US][3], 120);
	/* GSSET_INFO, GSTRINGS, GSTATS; no netlink. */
	assert_int_equal(f.nioctl, 3);
	assert_int_equal(f.nfamily + f.nreq, 0);
}

static void test_prio_pause_ice(void **state)
{
	struct fake f = {.stats = ice_stats, .nstats = NSTATS(ice_stats)};
	struct ethtool et;
	struct ethtool_msg_prio pp;

	(void)state;
	ethtool_init(&et, &fake_ops, &f);
	assert_int_equal(ethtool_prio_pause(&et, "ens1f0", &pp), 0);
	assert_string_equal(pp.driver, "ice");
	/* XOFF frames only: they are the ones that pause. */
	assert_int_equal(pp.v[ETHTOOL_MSG_PRIO_RX][3], 17);
	assert_int_equal(pp.v[ETHTOOL_MSG_PRIO_TX][3], 21);
	assert_int_equal(pp.v[ETHTOOL_MSG_PRIO_RX][4], 9);
	assert_int_equal(pp.present[ETHTOOL_MSG_PRIO_RX], 0x18);
	assert_int_equal(pp.present[ETHTOOL_MSG_PRIO_RX_US], 0);
}

static void test_prio_pause_unsupported(void **state)
{
	struct fake f = {.stats = veth_stats, .nstats = NSTATS(veth_stats)};
	struct ethtool et;
	struct ethtool_msg_prio pp;

	(void)state;
	ethtool_init(&et, &fake_ops, &f);
	assert_int_equal(ethtool_prio_pause(&et, "veth0", &pp), -EOPNOTSUPP);
	/* A driver without any statistics (lo). */
	f.no_stats_set = true;
	assert_int_equal(ethtool_prio_pause(&et, "lo", &pp), -EOPNOTSUPP);
}

struct stat_seen {
	size_t n;
	uint64_t rx3;
};

static void stat_cb(const char *name, uint64_t value, void *data)
{
	struct stat_seen *s = data;

	s->n++;
	if (!strcmp(name, "rx_prio3_pause"))
		s->rx3 = value;
}

/* The driver's count grows between GSSET_INFO and GSTRINGS (channels
 * added): the answer is thrown away and asked again, and the slack kept
 * the kernel's longer answer inside the buffers (ASan). */
static void test_stats_count_moves(void **state)
{
	struct fake f = {
	    .stats = mlx5_stats, .nstats = NSTATS(mlx5_stats), .grow = 4};
	struct ethtool et;
	struct stat_seen s = {0};

	(void)state;
	ethtool_init(&et, &fake_ops, &f);
	assert_int_equal(ethtool_stats(&et, "enp1s0f0np0", stat_cb, &s), 0);
	assert_int_equal(f.nioctl, 6);
	assert_int_equal(s.n, NSTATS(mlx5_stats));
	assert_int_equal(s.rx3, 7);
}

/* Every reply fixture, truncated and mutated, through the backend: no
 * crash, no overread, and only the documented answers. */
static void backend_try(struct fake *f, const uint8_t *b, size_t n)
{
	struct ethtool et;
	struct ethtool_msg_link l;
	struct ethtool_msg_pause p;
	int rc;

	f->reply = b;
	f->reply_len = n;
	ethtool_init(&et, &fake_ops, f);
	et.family = RP_FAMILY;
	rc = ethtool_link_get(&et, "swp1", &l);
	assert_true(rc == 0 || rc == -EINVAL || rc == -ENOMSG);
	if (rc == 0)
		assert_true(strnlen(l.dev.ifname, IFNAMSIZ) < IFNAMSIZ);
	rc = ethtool_pause_stats(&et, "swp1", &p);
	assert_true(rc == 0 || rc == -EINVAL || rc == -ENOMSG ||
	            rc == -EOPNOTSUPP);
	rc = ethtool_link_dump(&et, NULL, NULL);
	if (rc != -EINVAL && rc != 0)
		fail_msg("dump: %d", rc);
}

static void test_fuzz_backend(void **state)
{
	static const struct {
		const uint8_t *b;
		size_t n;
	} fx[] = {
	    {rp_link_veth, sizeof(rp_link_veth)},
	    {rp_link_100g, sizeof(rp_link_100g)},
	    {rp_link_nocarrier, sizeof(rp_link_nocarrier)},
	    {rp_pause_stats, sizeof(rp_pause_stats)},
	    {rp_pause_nostats, sizeof(rp_pause_nostats)},
	};
	struct fake f = {0};
	uint8_t b[512];

	(void)state;
	for (size_t i = 0; i < sizeof(fx) / sizeof(fx[0]); i++) {
		for (size_t n = 0; n <= fx[i].n; n++)
			backend_try(&f, fx[i].b, n);
		for (size_t k = 0; k < fx[i].n; k++) {
			memcpy(b, fx[i].b, fx[i].n);
			b[k] ^= 0xff;
			backend_try(&f, b, fx[i].n);
			b[k] = 0x04;
			backend_try(&f, b, fx[i].n);
		}
	}
	/* The controller's answer, cut short and damaged: the family is
	 * resolved, or not at all (never to a made-up id). */
	for (size_t k = 0; k < 2 * sizeof(rp_family); k++) {
		struct fake g = {.family = b};
		struct ethtool et;
		int rc;

		memcpy(b, rp_family, sizeof(rp_family));
		if (k < sizeof(rp_family)) {
			g.family_len = k;
		} else {
			g.family_len = sizeof(rp_family);
			b[k - sizeof(rp_family)] ^= 0xff;
		}
		ethtool_init(&et, &fake_ops, &g);
		rc = ethtool_family(&et);
		assert_true(rc == 0 || rc == -EINVAL || rc == -ENOMSG);
		assert_true(rc ? et.family == 0 : et.family > GENL_ID_CTRL);
	}
}

/* ------------------------------------------------------------------ */
/* The real kernel */

static bool have_kernel;

/* A private network namespace and a sysfs that shows it. */
static int kernel_setup(void)
{
	if (unshare(CLONE_NEWNET | CLONE_NEWNS) < 0)
		return -errno;
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return -errno;
	if (mount("sysfs", "/sys", "sysfs", 0, NULL) < 0)
		return -errno;
	return 0;
}

static int rt_request(struct nlb *nl, struct nlmsghdr *nlh)
{
	struct nlb_error err;
	int rc = nlb_request(nl, nlh, NULL, NULL, &err);

	if (rc < 0)
		fprintf(stderr, "# rtnetlink: %s (%s)\n", strerror(-rc),
		        err.msg);
	return rc;
}

static void veth_add(struct nlb *nl, const char *name, const char *peer)
{
	char buf[512] __attribute__((aligned(4)));
	struct nlmsghdr *nlh;
	struct ifinfomsg *ifm;
	struct nlattr *info, *data, *p;

	memset(buf, 0, sizeof(buf));
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_NEWLINK;
	nlh->nlmsg_flags = NLM_F_CREATE | NLM_F_EXCL;
	ifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifm));
	ifm->ifi_family = AF_UNSPEC;
	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	info = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "veth");
	data = mnl_attr_nest_start(nlh, IFLA_INFO_DATA);
	p = mnl_attr_nest_start(nlh, VETH_INFO_PEER);
	mnl_nlmsg_put_extra_header(nlh, sizeof(struct ifinfomsg));
	mnl_attr_put_strz(nlh, IFLA_IFNAME, peer);
	mnl_attr_nest_end(nlh, p);
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, info);
	assert_int_equal(rt_request(nl, nlh), 0);
}

static void bridge_add(struct nlb *nl, const char *name)
{
	char buf[256] __attribute__((aligned(4)));
	struct nlmsghdr *nlh;
	struct ifinfomsg *ifm;
	struct nlattr *info;

	memset(buf, 0, sizeof(buf));
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_NEWLINK;
	nlh->nlmsg_flags = NLM_F_CREATE | NLM_F_EXCL;
	ifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifm));
	ifm->ifi_family = AF_UNSPEC;
	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	info = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "bridge");
	mnl_attr_nest_end(nlh, info);
	assert_int_equal(rt_request(nl, nlh), 0);
}

static void link_up(struct nlb *nl, const char *name)
{
	char buf[128] __attribute__((aligned(4)));
	struct nlmsghdr *nlh;
	struct ifinfomsg *ifm;

	memset(buf, 0, sizeof(buf));
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_NEWLINK;
	ifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifm));
	ifm->ifi_family = AF_UNSPEC;
	ifm->ifi_index = (int)if_nametoindex(name);
	ifm->ifi_flags = IFF_UP;
	ifm->ifi_change = IFF_UP;
	assert_true(ifm->ifi_index > 0);
	assert_int_equal(rt_request(nl, nlh), 0);
}

/* sysfs' speed, or -1 when it refuses to say (a link that is down). */
static long sysfs_speed(const char *name)
{
	char path[64], val[32];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/net/%s/speed", name);
	f = fopen(path, "re");
	assert_non_null(f); /* the device must be visible: our sysfs */
	if (fgets(val, sizeof(val), f))
		v = strtol(val, NULL, 10);
	fclose(f);
	return v;
}

/* Ports swp0..swpN-1 with peers hostI; even ones up. */
#define NPAIRS 128
static bool made;

static void make_ports(void)
{
	char name[IFNAMSIZ], peer[IFNAMSIZ];
	struct nlb nl;

	if (made)
		return;
	assert_int_equal(nlb_open(&nl), 0);
	for (int i = 0; i < NPAIRS; i++) {
		snprintf(name, sizeof(name), "swp%d", i);
		snprintf(peer, sizeof(peer), "host%d", i);
		veth_add(&nl, name, peer);
		if (i % 2 == 0) {
			link_up(&nl, name);
			link_up(&nl, peer);
		}
	}
	bridge_add(&nl, "br0");
	link_up(&nl, "br0");
	link_up(&nl, "lo");
	nlb_close(&nl);
	made = true;
}

#define SKIP_NO_KERNEL()                                                       \
	do {                                                                   \
		if (!have_kernel) {                                            \
			printf("# skipped: needs root for a private network "  \
			       "and mount namespace\n");                       \
			skip();                                                \
		}                                                              \
	} while (0)

static void test_kernel_family(void **state)
{
	struct ethtool_kernel k;
	struct ethtool et;
	struct ethtool_msg_link l;

	(void)state;
	SKIP_NO_KERNEL();
	make_ports();
	assert_int_equal(ethtool_kernel_open(&k), 0);
	ethtool_init(&et, &ethtool_ops_kernel, &k);
	assert_int_equal(ethtool_family(&et), 0);
	assert_true(et.family > GENL_ID_CTRL);
	assert_int_equal(et.nrequests, 1);
	assert_int_equal(ethtool_family(&et), 0);
	assert_int_equal(et.nrequests, 1);
	/* The id is the one the ethtool family answers on. */
	assert_int_equal(ethtool_link_get(&et, "swp0", &l), 0);
	assert_string_equal(l.dev.ifname, "swp0");
	assert_int_equal(l.dev.ifindex, if_nametoindex("swp0"));
	/* The kernel's refusals. */
	assert_int_equal(ethtool_link_get(&et, "nosuchport", &l), -ENODEV);
	assert_int_equal(ethtool_link_get(&et, "lo", &l), -EOPNOTSUPP);
	ethtool_kernel_close(&k);
}

/* ethtool's speed against sysfs', which reads the same driver callback
 * through another path (and says nothing for a link that is down). */
static void test_kernel_speed_vs_sysfs(void **state)
{
	struct ethtool_kernel k;
	struct ethtool et;
	struct ethtool_msg_link l;
	char name[IFNAMSIZ];

	(void)state;
	SKIP_NO_KERNEL();
	make_ports();
	assert_int_equal(ethtool_kernel_open(&k), 0);
	ethtool_init(&et, &ethtool_ops_kernel, &k);
	for (int i = 0; i < 4; i++) {
		long sys;

		snprintf(name, sizeof(name), "swp%d", i);
		sys = sysfs_speed(name);
		assert_int_equal(ethtool_link_get(&et, name, &l), 0);
		printf("# %s: sysfs %ld, ethtool %u\n", name, sys,
		       ethtool_msg_link_speed(&l));
		if (i % 2 == 0)
			assert_int_equal(sys, ethtool_msg_link_speed(&l));
		else
			assert_int_equal(sys, -1);
	}
	ethtool_kernel_close(&k);
}

static void veth_peer_cb(const char *name, uint64_t value, void *data)
{
	uint64_t *peer = data;

	if (!strcmp(name, "peer_ifindex"))
		*peer = value;
}

static void test_kernel_pause_unsupported(void **state)
{
	struct ethtool_kernel k;
	struct ethtool et;
	struct ethtool_msg_pause p;
	struct ethtool_msg_prio pp;
	uint64_t peer = 0;

	(void)state;
	SKIP_NO_KERNEL();
	make_ports();
	assert_int_equal(ethtool_kernel_open(&k), 0);
	ethtool_init(&et, &ethtool_ops_kernel, &k);
	/* veth has no get_pauseparam: EOPNOTSUPP from the kernel. */
	assert_int_equal(ethtool_pause_stats(&et, "swp0", &p), -EOPNOTSUPP);
	assert_int_equal(ethtool_prio_pause(&et, "swp0", &pp), -EOPNOTSUPP);
	/* Nor set_pauseparam: `ethtool -A swp0 rx on tx on` fails alike. */
	assert_int_equal(ethtool_pause_set(&et, "swp0", true, true, NULL),
	                 -EOPNOTSUPP);
	/* The ioctl path works: veth's statistics name its peer. */
	assert_int_equal(ethtool_stats(&et, "swp0", veth_peer_cb, &peer), 0);
	assert_int_equal(peer, if_nametoindex("host0"));
	assert_int_equal(ethtool_stats(&et, "lo", veth_peer_cb, &peer),
	                 -EOPNOTSUPP);
	ethtool_kernel_close(&k);
}

struct dump_seen {
	unsigned count[NPAIRS][2];
	size_t others;
};

static void dump_cb(const struct ethtool_msg_link *l, void *data)
{
	struct dump_seen *s = data;
	int i;

	if (sscanf(l->dev.ifname, "swp%d", &i) == 1 && i >= 0 && i < NPAIRS)
		s->count[i][0]++;
	else if (sscanf(l->dev.ifname, "host%d", &i) == 1 && i >= 0 &&
	         i < NPAIRS)
		s->count[i][1]++;
	else
		s->others++;
	assert_int_equal(l->dev.ifindex, if_nametoindex(l->dev.ifname));
}

/* One request lists every veth made, each once. */
static void test_kernel_dump_all(void **state)
{
	struct ethtool_kernel k;
	struct ethtool et;
	struct dump_seen *s = calloc(1, sizeof(*s));

	(void)state;
	SKIP_NO_KERNEL();
	make_ports();
	assert_int_equal(ethtool_kernel_open(&k), 0);
	ethtool_init(&et, &ethtool_ops_kernel, &k);
	assert_int_equal(ethtool_family(&et), 0);
	assert_int_equal(ethtool_link_dump(&et, dump_cb, s), 0);
	assert_int_equal(et.nrequests, 2);
	for (int i = 0; i < NPAIRS; i++) {
		assert_int_equal(s->count[i][0], 1);
		assert_int_equal(s->count[i][1], 1);
	}
	assert_int_equal(s->others, 1); /* br0; lo has no link settings */
	free(s);
	ethtool_kernel_close(&k);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The batch probe: one dump for the speeds of all ports, dcbnl asked for
 * every port that exists (all refuse: veth, a bridge), lo and a missing
 * port left out, the speeds sysfs gives, and the same answers as one port
 * at a time. */
static void test_kernel_probe_ports(void **state)
{
	size_t n = 2 * NPAIRS + 4;
	struct compile_port *ports = calloc(n, sizeof(*ports));
	struct probe_stats st;
	double t0, t1;

	(void)state;
	SKIP_NO_KERNEL();
	make_ports();
	for (int i = 0; i < NPAIRS; i++) {
		snprintf(ports[2 * i].ifname, IFNAMSIZ, "swp%d", i);
		snprintf(ports[2 * i + 1].ifname, IFNAMSIZ, "host%d", i);
	}
	snprintf(ports[n - 4].ifname, IFNAMSIZ, "br0");
	snprintf(ports[n - 3].ifname, IFNAMSIZ, "lo");
	snprintf(ports[n - 2].ifname, IFNAMSIZ, "swp999"); /* not yet */
	snprintf(ports[n - 1].ifname, IFNAMSIZ, "swp0");   /* named twice */
	for (size_t i = 0; i < n; i++)
		ports[i].caps.speed_mbps = 77; /* must be overwritten */
	t0 = now_ms();
	assert_int_equal(probe_ports(ports, n, &st), 0);
	t1 = now_ms();
	printf("# probe_ports: %zu ports in %.2f ms: %zu ioctls, %zu dcb, "
	       "%zu ethtool requests\n",
	       n, t1 - t0, st.ioctls, st.dcb_requests, st.ethtool_requests);
	assert_int_equal(st.ioctls, n - 1);
	assert_int_equal(st.dcb_requests, 2 * NPAIRS + 1); /* + br0 */
	assert_int_equal(st.ethtool_requests, 2);          /* family + dump */
	for (size_t i = 0; i < n; i++) {
		struct caps one;
		long sys = i != n - 2 ? sysfs_speed(ports[i].ifname) : -1;

		assert_false(ports[i].caps.hw_dcb);
		assert_int_equal(ports[i].caps.speed_mbps, sys > 0 ? sys : 0);
		/* probe_port, one port at a time, agrees. */
		memset(&one, 0, sizeof(one));
		assert_int_equal(probe_port(ports[i].ifname, &one), 0);
		assert_int_equal(one.speed_mbps, ports[i].caps.speed_mbps);
		assert_false(one.hw_dcb);
	}
	assert_int_equal(ports[0].caps.speed_mbps, 10000);
	assert_int_equal(ports[n - 1].caps.speed_mbps, 10000);

	/* A few ports: one GET per port that is up. */
	assert_int_equal(probe_ports(ports, 3, &st), 0);
	assert_int_equal(st.ioctls, 3);
	assert_int_equal(st.dcb_requests, 3);
	/* The family, then swp0 and host0 (up); swp1 (down) is not asked. */
	assert_int_equal(st.ethtool_requests, 3);
	assert_int_equal(ports[0].caps.speed_mbps, 10000);
	assert_int_equal(ports[2].caps.speed_mbps, 0); /* swp1 is down */
	free(ports);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_family_resolved_once),
	    cmocka_unit_test(test_family_missing),
	    cmocka_unit_test(test_link_get),
	    cmocka_unit_test(test_link_dump),
	    cmocka_unit_test(test_pause_stats),
	    cmocka_unit_test(test_pause_set),
	    cmocka_unit_test(test_prio_pause_mlx5),
	    cmocka_unit_test(test_prio_pause_ice),
	    cmocka_unit_test(test_prio_pause_unsupported),
	    cmocka_unit_test(test_stats_count_moves),
	    cmocka_unit_test(test_fuzz_backend),
	    cmocka_unit_test(test_kernel_family),
	    cmocka_unit_test(test_kernel_speed_vs_sysfs),
	    cmocka_unit_test(test_kernel_pause_unsupported),
	    cmocka_unit_test(test_kernel_dump_all),
	    cmocka_unit_test(test_kernel_probe_ports),
	};
	int rc;

	if (geteuid() != 0) {
		printf("# not root: the real-kernel tests will be skipped\n");
	} else {
		rc = kernel_setup();
		if (rc < 0) {
			printf("# cannot make a private network and mount "
			       "namespace: %s\n",
			       strerror(-rc));
			return 1;
		}
		have_kernel = true;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
