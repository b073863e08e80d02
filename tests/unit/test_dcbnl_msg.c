/* test_dcbnl_msg: the DCB netlink codec against captures of iproute2's dcb
 * (tests/fixtures/dcb/) and hand-built kernel replies. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <libmnl/libmnl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "hexfix.h"
#include "nlmsg/dcbnl_msg.h"

#include "../fixtures/dcb/replies.h"
#include "../fixtures/dcb/requests.h"

#define IFN "dcbfx0"

/* 8-byte aligned, as a receive buffer would be. */
static union {
	uint8_t b[DCBNL_MSG_REQ_SIZE];
	uint64_t align;
} req;

static void assert_msg(const uint8_t *want, size_t n)
{
	const struct nlmsghdr *nlh = (const void *)req.b;
	size_t i;

	assert_int_equal(nlh->nlmsg_len, n);
	for (i = 0; i < n; i++)
		if (req.b[i] != want[i]) {
			fprintf(stderr, "byte %zu: have 0x%02x want 0x%02x\n",
			        i, req.b[i], want[i]);
			fail();
		}
}

#define ASSERT_MSG(fx) assert_msg((fx), sizeof(fx))

/* ------------------------------------------------------------------ */
/* The C arrays are the .hex captures */

static void check_hex(const char *name, int idx, const uint8_t *fx, size_t n)
{
	uint8_t buf[4096];
	size_t len = hexfix_msg("dcb", name, idx, buf, sizeof(buf));

	assert_int_equal(len, n);
	/* nlmsg_seq is dcb's time of day; the arrays hold 0. */
	memset(buf + 8, 0, 4);
	assert_memory_equal(buf, fx, n);
}

static void test_fixtures_are_captures(void **state)
{
	static const char *const rmw[] = {
	    "pfc_set",    "pfc_set_delay", "ets_set",  "maxrate_set",
	    "buffer_set", "app_replace",   "ieee_get",
	};
	size_t i;

	check_hex("pfc_set", 1, fx_pfc_set, sizeof(fx_pfc_set));
	check_hex("pfc_set_delay", 1, fx_pfc_set_delay,
	          sizeof(fx_pfc_set_delay));
	check_hex("ets_set", 1, fx_ets_set, sizeof(fx_ets_set));
	check_hex("maxrate_set", 1, fx_maxrate_set, sizeof(fx_maxrate_set));
	check_hex("buffer_set", 1, fx_buffer_set, sizeof(fx_buffer_set));
	check_hex("app_add", 0, fx_app_add, sizeof(fx_app_add));
	check_hex("app_del", 0, fx_app_del, sizeof(fx_app_del));
	check_hex("app_add_ethtype", 0, fx_app_add_ethtype,
	          sizeof(fx_app_add_ethtype));
	check_hex("app_replace", 1, fx_app_replace_add,
	          sizeof(fx_app_replace_add));
	check_hex("app_replace", 2, fx_app_replace_del,
	          sizeof(fx_app_replace_del));
	check_hex("dcbx_set", 0, fx_dcbx_set, sizeof(fx_dcbx_set));
	/* Every read-modify-write starts with the same GET. */
	for (i = 0; i < sizeof(rmw) / sizeof(rmw[0]); i++)
		check_hex(rmw[i], 0, fx_ieee_get, sizeof(fx_ieee_get));
}

/* ------------------------------------------------------------------ */
/* Encoders give dcb's bytes */

/* The state dcb read before each read-modify-write, decoded. */
static void shim_state(struct dcbnl_msg_ieee *cur)
{
	assert_int_equal(
	    dcbnl_msg_parse_ieee(rp_shim_state, sizeof(rp_shim_state), cur), 0);
	assert_true(cur->present & DCBNL_MSG_HAS_PFC);
	assert_true(cur->present & DCBNL_MSG_HAS_ETS);
}

static void test_get_requests(void **state)
{
	assert_int_equal(dcbnl_msg_ieee_get(req.b, sizeof(req.b), 0, IFN), 0);
	ASSERT_MSG(fx_ieee_get);
	assert_int_equal(dcbnl_msg_gdcbx(req.b, sizeof(req.b), 0, IFN), 0);
	ASSERT_MSG(fx_gdcbx);
	assert_int_equal(dcbnl_msg_gcap(req.b, sizeof(req.b), 0, IFN), 0);
	ASSERT_MSG(fx_gcap);
	assert_int_equal(
	    dcbnl_msg_sdcbx(req.b, sizeof(req.b), 0, IFN,
	                    DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE),
	    0);
	ASSERT_MSG(fx_dcbx_set);
	/* a GET of the longest name fits DCBNL_MSG_GET_SIZE */
	assert_int_equal(
	    dcbnl_msg_ieee_get(req.b, DCBNL_MSG_GET_SIZE, 0, "fifteen-chars-x"),
	    0);
	assert_int_equal(
	    dcbnl_msg_gdcbx(req.b, DCBNL_MSG_GET_SIZE, 0, "fifteen-chars-x"),
	    0);
}

static void test_seq_is_callers(void **state)
{
	const struct nlmsghdr *nlh = (const void *)req.b;

	assert_int_equal(
	    dcbnl_msg_ieee_get(req.b, sizeof(req.b), 0x11223344, IFN), 0);
	assert_int_equal(nlh->nlmsg_seq, 0x11223344);
	assert_int_equal(nlh->nlmsg_pid, 0);
	assert_memory_equal(req.b, fx_ieee_get, 8);
	assert_memory_equal(req.b + 12, fx_ieee_get + 12,
	                    sizeof(fx_ieee_get) - 12);
}

/* dcb pfc set ... prio-pfc all:off 3:on == the plan's pfc_en 0x08 applied
 * to the state read back. */
static void test_pfc_from_plan(void **state)
{
	struct dcbnl_msg_ieee cur;
	struct plan_dcb pd;
	struct ieee_pfc pfc;

	shim_state(&cur);
	memset(&pd, 0, sizeof(pd));
	pd.pfc_en = 0x08;
	pd.pfc_admin = 0x08;
	dcbnl_msg_pfc_from_plan(&pd, &cur.pfc, &pfc);
	assert_int_equal(pfc.pfc_cap, 8);
	assert_int_equal(pfc.delay, 32);
	assert_int_equal(dcbnl_msg_pfc_set(req.b, sizeof(req.b), 0, IFN, &pfc),
	                 0);
	ASSERT_MSG(fx_pfc_set);
}

/* dcb pfc set ... prio-pfc 3:on delay 4096: a partial change. */
static void test_pfc_partial(void **state)
{
	struct dcbnl_msg_ieee cur;
	struct ieee_pfc pfc;

	shim_state(&cur);
	pfc = cur.pfc;
	pfc.pfc_en |= 0x08;
	pfc.delay = 4096;
	assert_int_equal(dcbnl_msg_pfc_set(req.b, sizeof(req.b), 0, IFN, &pfc),
	                 0);
	ASSERT_MSG(fx_pfc_set_delay);
}

/* Whatever the caller's struct holds in its holes, the bytes are dcb's. */
static void test_pfc_holes(void **state)
{
	struct dcbnl_msg_ieee cur;
	struct ieee_pfc pfc;

	shim_state(&cur);
	memset(&pfc, 0xa5, sizeof(pfc));
	pfc.pfc_cap = cur.pfc.pfc_cap;
	pfc.pfc_en = 0x08;
	pfc.mbc = cur.pfc.mbc;
	pfc.delay = cur.pfc.delay;
	memcpy(pfc.requests, cur.pfc.requests, sizeof(pfc.requests));
	memcpy(pfc.indications, cur.pfc.indications, sizeof(pfc.indications));
	assert_int_equal(dcbnl_msg_pfc_set(req.b, sizeof(req.b), 0, IFN, &pfc),
	                 0);
	ASSERT_MSG(fx_pfc_set);
}

static void test_ets_from_plan(void **state)
{
	static const uint8_t bw[8] = {50, 0, 0, 50, 0, 0, 0, 0};
	static const uint8_t ptc[8] = {0, 0, 0, 3, 0, 0, 0, 0};
	struct dcbnl_msg_ieee cur;
	struct plan_dcb pd;
	struct ieee_ets ets;
	int i;

	shim_state(&cur);
	memset(&pd, 0, sizeof(pd));
	for (i = 0; i < 8; i++)
		pd.ets_tsa[i] = PLAN_TSA_ETS;
	memcpy(pd.ets_bw, bw, 8);
	memcpy(pd.prio_tc, ptc, 8);
	dcbnl_msg_ets_from_plan(&pd, &cur.ets, &ets);
	/* Carried from the port: willing, ets_cap, tc_rx_bw. */
	assert_int_equal(ets.willing, 1);
	assert_int_equal(ets.tc_rx_bw[0], 13);
	assert_int_equal(dcbnl_msg_ets_set(req.b, sizeof(req.b), 0, IFN, &ets),
	                 0);
	ASSERT_MSG(fx_ets_set);

	/* Without a current state the carried fields are 0: not dcb's. */
	dcbnl_msg_ets_from_plan(&pd, NULL, &ets);
	assert_int_equal(ets.willing, 0);
	assert_int_equal(ets.ets_cap, 0);
	assert_memory_equal(ets.tc_tx_bw, bw, 8);
}

static void test_maxrate_buffer(void **state)
{
	struct dcbnl_msg_ieee cur;
	struct ieee_maxrate mr;
	struct dcbnl_buffer b;

	shim_state(&cur);
	mr = cur.maxrate;
	/* What dcb 6.1 made of "10Gbit": bytes/s, not the uapi's kbit/s. */
	mr.tc_maxrate[3] = 1250000000ull;
	assert_int_equal(
	    dcbnl_msg_maxrate_set(req.b, sizeof(req.b), 0, IFN, &mr), 0);
	ASSERT_MSG(fx_maxrate_set);

	b = cur.buffer;
	b.prio2buffer[3] = 1;
	assert_int_equal(dcbnl_msg_buffer_set(req.b, sizeof(req.b), 0, IFN, &b),
	                 0);
	ASSERT_MSG(fx_buffer_set);
	b.prio2buffer[3] = DCBX_MAX_BUFFERS;
	assert_int_equal(dcbnl_msg_buffer_set(req.b, sizeof(req.b), 0, IFN, &b),
	                 -EINVAL);
}

static void plan_app(struct plan_dcb *pd, uint8_t sel, uint16_t proto,
                     uint8_t prio)
{
	pd->app[pd->napp].selector = sel;
	pd->app[pd->napp].protocol = proto;
	pd->app[pd->napp].priority = prio;
	pd->napp++;
}

static void test_app_from_plan(void **state)
{
	struct dcb_app apps[PLAN_APP_MAX];
	struct plan_dcb pd;
	size_t n;

	memset(&pd, 0, sizeof(pd));
	plan_app(&pd, PLAN_APP_SEL_DSCP, 26, 3);
	plan_app(&pd, PLAN_APP_SEL_DSCP, 48, 6);
	n = dcbnl_msg_apps_from_plan(&pd, apps, PLAN_APP_MAX);
	assert_int_equal(n, 2);
	assert_int_equal(
	    dcbnl_msg_app_add(req.b, sizeof(req.b), 0, IFN, apps, n), 0);
	ASSERT_MSG(fx_app_add);
	assert_int_equal(
	    dcbnl_msg_app_del(req.b, sizeof(req.b), 0, IFN, apps, n), 0);
	ASSERT_MSG(fx_app_del);
	/* MAX bounds what is written, not what is counted. */
	assert_int_equal(dcbnl_msg_apps_from_plan(&pd, apps, 1), 2);

	memset(&pd, 0, sizeof(pd));
	plan_app(&pd, PLAN_APP_SEL_PCP, 3, 3);
	n = dcbnl_msg_apps_from_plan(&pd, apps, PLAN_APP_MAX);
	assert_int_equal(
	    dcbnl_msg_app_add(req.b, sizeof(req.b), 0, IFN, apps, n), 0);
	ASSERT_MSG(fx_app_add_pcp);
}

static void test_app_other(void **state)
{
	struct dcb_app et = {.selector = 1, .priority = 3, .protocol = 0x8915};
	struct dcb_app new = {.selector = 5, .priority = 3, .protocol = 26};
	struct dcb_app old = {.selector = 5, .priority = 0, .protocol = 26};

	assert_int_equal(
	    dcbnl_msg_app_add(req.b, sizeof(req.b), 0, IFN, &et, 1), 0);
	ASSERT_MSG(fx_app_add_ethtype);
	/* dcb app replace: add the new mapping, then delete the old one. */
	assert_int_equal(
	    dcbnl_msg_app_add(req.b, sizeof(req.b), 0, IFN, &new, 1), 0);
	ASSERT_MSG(fx_app_replace_add);
	assert_int_equal(
	    dcbnl_msg_app_del(req.b, sizeof(req.b), 0, IFN, &old, 1), 0);
	ASSERT_MSG(fx_app_replace_del);
}

static void test_apptrust(void **state)
{
	struct plan_dcb pd;
	uint8_t dup[2] = {5, 5}, bad[1] = {6};

	memset(&pd, 0, sizeof(pd));
	pd.trust[0] = PLAN_APP_SEL_DSCP;
	pd.trust[1] = PLAN_APP_SEL_PCP;
	pd.ntrust = 2;
	assert_int_equal(dcbnl_msg_apptrust_set(req.b, sizeof(req.b), 0, IFN,
	                                        pd.trust, pd.ntrust),
	                 0);
	ASSERT_MSG(fx_apptrust_set);
	assert_int_equal(
	    dcbnl_msg_apptrust_set(req.b, sizeof(req.b), 0, IFN, dup, 2),
	    -EINVAL);
	assert_int_equal(
	    dcbnl_msg_apptrust_set(req.b, sizeof(req.b), 0, IFN, bad, 1),
	    -EINVAL);
	/* Trusting nothing is a valid, empty list. */
	assert_int_equal(
	    dcbnl_msg_apptrust_set(req.b, sizeof(req.b), 0, IFN, NULL, 0), 0);
}

static void test_encode_errors(void **state)
{
	struct dcb_app bad = {.selector = 0, .priority = 1, .protocol = 1};
	struct dcb_app ok = {.selector = 5, .priority = 3, .protocol = 26};
	struct ieee_pfc pfc;
	size_t len;

	memset(&pfc, 0, sizeof(pfc));
	assert_int_equal(dcbnl_msg_ieee_get(req.b, sizeof(req.b), 0, ""),
	                 -EINVAL);
	assert_int_equal(
	    dcbnl_msg_ieee_get(req.b, sizeof(req.b), 0, "0123456789abcdef"),
	    -EINVAL);
	assert_int_equal(
	    dcbnl_msg_ieee_get(req.b, sizeof(req.b), 0, "0123456789abcde"), 0);
	assert_int_equal(dcbnl_msg_ieee_get(req.b, sizeof(req.b), 0, NULL),
	                 -EINVAL);
	assert_int_equal(dcbnl_msg_pfc_set(req.b, sizeof(req.b), 0, IFN, NULL),
	                 -EINVAL);
	assert_int_equal(
	    dcbnl_msg_app_add(req.b, sizeof(req.b), 0, IFN, &bad, 1), -EINVAL);
	assert_int_equal(
	    dcbnl_msg_app_add(req.b, sizeof(req.b), 0, IFN, &ok, 0), -EINVAL);

	/* Every buffer shorter than the message is refused, none written
	 * past its end (ASan watches the exact-size heap copy). */
	for (len = 0; len < sizeof(fx_pfc_set); len++) {
		uint8_t *b = malloc(len ? len : 1);

		assert_non_null(b);
		assert_int_equal(dcbnl_msg_pfc_set(b, len, 0, IFN, &pfc),
		                 -EMSGSIZE);
		assert_int_equal(dcbnl_msg_app_add(b, len, 0, IFN, &ok, 1),
		                 len < sizeof(fx_app_replace_add) ? -EMSGSIZE
		                                                  : 0);
		free(b);
	}
	for (len = 0; len < sizeof(fx_gcap); len++) {
		uint8_t *b = malloc(len ? len : 1);

		assert_non_null(b);
		assert_int_equal(dcbnl_msg_gcap(b, len, 0, IFN), -EMSGSIZE);
		assert_int_equal(dcbnl_msg_apptrust_set(
		                     b, len, 0, IFN, (const uint8_t *)"\5", 1),
		                 -EMSGSIZE);
		free(b);
	}
}

/* The largest APP table the daemon sends fits DCBNL_MSG_REQ_SIZE. */
static void test_app_max(void **state)
{
	struct dcb_app apps[DCBNL_MSG_APP_MAX];
	struct dcbnl_msg_ieee got;
	size_t i;

	for (i = 0; i < DCBNL_MSG_APP_MAX; i++) {
		apps[i].selector = i < 64 ? 5 : 255;
		apps[i].priority = i % 8;
		apps[i].protocol = i < 64 ? i : i - 64;
	}
	assert_int_equal(dcbnl_msg_app_add(req.b, sizeof(req.b), 0, IFN, apps,
	                                   DCBNL_MSG_APP_MAX),
	                 0);
	/* And reads back whole: the parser takes an IEEE_SET like a
	 * notification. */
	assert_int_equal(dcbnl_msg_parse_ieee(req.b, sizeof(req.b), &got), 0);
	assert_int_equal(got.napp, DCBNL_MSG_APP_MAX);
	assert_memory_equal(got.app, apps, sizeof(apps));
}

/* ------------------------------------------------------------------ */
/* Decoders */

static void test_parse_full(void **state)
{
	static const uint8_t tsa[8] = {2, 2, 2, 2, 2, 2, 0, 2};
	static const uint8_t ptc[8] = {0, 0, 0, 3, 0, 0, 6, 0};
	struct dcbnl_msg_ieee m;

	assert_int_equal(
	    dcbnl_msg_parse_ieee(rp_ieee_full, sizeof(rp_ieee_full), &m), 0);
	assert_int_equal(m.present,
	                 DCBNL_MSG_HAS_IFNAME | DCBNL_MSG_HAS_ETS |
	                     DCBNL_MSG_HAS_PFC | DCBNL_MSG_HAS_MAXRATE |
	                     DCBNL_MSG_HAS_BUFFER | DCBNL_MSG_HAS_APP |
	                     DCBNL_MSG_HAS_TRUST | DCBNL_MSG_HAS_PEER_ETS |
	                     DCBNL_MSG_HAS_PEER_PFC | DCBNL_MSG_HAS_PEER_APP |
	                     DCBNL_MSG_HAS_DCBX);
	assert_string_equal(m.ifname, IFN);
	assert_int_equal(m.ets.ets_cap, 8);
	assert_int_equal(m.ets.tc_tx_bw[0], 50);
	assert_int_equal(m.ets.tc_tx_bw[3], 50);
	assert_memory_equal(m.ets.tc_tsa, tsa, 8);
	assert_memory_equal(m.ets.prio_tc, ptc, 8);
	assert_int_equal(m.maxrate.tc_maxrate[3], 10000000ull);
	assert_int_equal(m.pfc.pfc_cap, 8);
	assert_int_equal(m.pfc.pfc_en, 0x08);
	/* Counters are u64 on the wire: check one beyond 32 bits. */
	assert_true(m.pfc.requests[3] == 123456789012ull);
	assert_int_equal(m.pfc.indications[3], 42);
	assert_int_equal(m.buffer.prio2buffer[3], 1);
	assert_int_equal(m.buffer.buffer_size[1], 131072);
	assert_int_equal(m.buffer.total_size, 1048576);
	assert_int_equal(m.napp, 3);
	assert_int_equal(m.app[0].selector, 5);
	assert_int_equal(m.app[0].protocol, 26);
	assert_int_equal(m.app[0].priority, 3);
	assert_int_equal(m.app[1].protocol, 48);
	assert_int_equal(m.app[2].selector, DCBNL_MSG_APP_SEL_PCP);
	assert_int_equal(m.app[2].protocol, 3);
	assert_int_equal(m.ntrust, 2);
	assert_int_equal(m.trust[0], 5);
	assert_int_equal(m.trust[1], DCBNL_MSG_APP_SEL_PCP);
	assert_int_equal(m.peer_ets.willing, 1);
	assert_int_equal(m.peer_ets.prio_tc[3], 3);
	assert_int_equal(m.peer_pfc.pfc_en, 0x08);
	assert_int_equal(m.npeer_app, 1);
	assert_int_equal(m.peer_app[0].protocol, 26);
	assert_int_equal(m.dcbx,
	                 DCB_CAP_DCBX_LLD_MANAGED | DCB_CAP_DCBX_VER_IEEE);
}

static void test_parse_partial_fills(void **state)
{
	struct dcbnl_msg_ieee m;

	assert_int_equal(
	    dcbnl_msg_parse_ieee(rp_ieee_min, sizeof(rp_ieee_min), &m), 0);
	assert_int_equal(m.present, DCBNL_MSG_HAS_IFNAME | DCBNL_MSG_HAS_PFC |
	                                DCBNL_MSG_HAS_APP);
	assert_int_equal(m.pfc.pfc_cap, 4);
	assert_int_equal(m.napp, 0);

	/* A notification: RTM_SETDCB, IEEE_SET, the same fill. */
	assert_int_equal(
	    dcbnl_msg_parse_ieee(rp_ieee_notify, sizeof(rp_ieee_notify), &m),
	    0);
	assert_true(m.present & DCBNL_MSG_HAS_DCBX);
	assert_int_equal(m.napp, 1);
	assert_int_equal(m.pfc.pfc_en, 0x08);
}

/* What roced encodes, the decoder reads back. */
static void test_parse_requests(void **state)
{
	struct dcbnl_msg_ieee m, cur;

	shim_state(&cur);
	assert_int_equal(
	    dcbnl_msg_parse_ieee(fx_pfc_set, sizeof(fx_pfc_set), &m), 0);
	assert_int_equal(m.present, DCBNL_MSG_HAS_IFNAME | DCBNL_MSG_HAS_PFC);
	cur.pfc.pfc_en = 0x08;
	assert_memory_equal(&m.pfc, &cur.pfc, sizeof(m.pfc));
	assert_int_equal(
	    dcbnl_msg_parse_ieee(fx_apptrust_set, sizeof(fx_apptrust_set), &m),
	    0);
	assert_int_equal(m.ntrust, 2);
	assert_int_equal(m.trust[1], DCBNL_MSG_APP_SEL_PCP);
	assert_int_equal(
	    dcbnl_msg_parse_ieee(fx_app_del, sizeof(fx_app_del), &m), 0);
	assert_int_equal(m.napp, 2);
	assert_int_equal(m.app[1].priority, 6);
}

static void test_parse_dcbx_cap(void **state)
{
	struct dcbnl_msg_cap cap;
	uint8_t mode = 0;

	assert_int_equal(
	    dcbnl_msg_parse_dcbx(rp_gdcbx, sizeof(rp_gdcbx), &mode), 0);
	assert_int_equal(mode, DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE);
	assert_int_equal(
	    dcbnl_msg_parse_dcbx(rp_ieee_full, sizeof(rp_ieee_full), &mode),
	    -ENOMSG);

	assert_int_equal(dcbnl_msg_parse_cap(rp_gcap, sizeof(rp_gcap), &cap),
	                 0);
	assert_int_equal(cap.present, 0x3fc); /* DCB_CAP_ATTR_PG .. DCBX */
	assert_int_equal(cap.v[DCB_CAP_ATTR_PFC], 1);
	assert_int_equal(cap.v[DCB_CAP_ATTR_PFC_TCS], 0x80);
	assert_int_equal(cap.v[DCB_CAP_ATTR_DCBX], 0x0a);
	assert_int_equal(dcbnl_msg_parse_cap(rp_gdcbx, sizeof(rp_gdcbx), &cap),
	                 -ENOMSG);
}

static void test_parse_status(void **state)
{
	int st = 1;

	assert_int_equal(
	    dcbnl_msg_parse_status(rp_set_ok, sizeof(rp_set_ok), &st), 0);
	assert_int_equal(st, 0);
	assert_int_equal(
	    dcbnl_msg_parse_status(rp_set_fail, sizeof(rp_set_fail), &st), 0);
	assert_int_equal(st, -EOPNOTSUPP);
	assert_int_equal(
	    dcbnl_msg_parse_status(rp_del_ok, sizeof(rp_del_ok), &st), 0);
	assert_int_equal(st, 0);
	assert_int_equal(
	    dcbnl_msg_parse_status(rp_sdcbx_fail, sizeof(rp_sdcbx_fail), &st),
	    0);
	assert_int_equal(st, -EINVAL);
	assert_int_equal(
	    dcbnl_msg_parse_status(rp_ack_ok, sizeof(rp_ack_ok), &st), 0);
	assert_int_equal(st, 0);
	assert_int_equal(dcbnl_msg_parse_status(rp_ack_eopnotsupp,
	                                        sizeof(rp_ack_eopnotsupp), &st),
	                 0);
	assert_int_equal(st, -EOPNOTSUPP);
	assert_int_equal(
	    dcbnl_msg_parse_status(rp_gdcbx, sizeof(rp_gdcbx), &st), -ENOMSG);
	/* A status reply is not a fill. */
	{
		struct dcbnl_msg_ieee m;

		assert_int_equal(
		    dcbnl_msg_parse_ieee(rp_set_ok, sizeof(rp_set_ok), &m),
		    -EINVAL);
		assert_int_equal(
		    dcbnl_msg_parse_ieee(rp_ack_ok, sizeof(rp_ack_ok), &m),
		    -ENOMSG);
	}
}

/* A datagram holds the reply and then the ack; the first one is read. */
static void test_parse_datagram(void **state)
{
	static union {
		uint8_t b[sizeof(rp_ieee_full) + sizeof(rp_ack_ok)];
		uint64_t align;
	} dg;
	const struct nlmsghdr *nlh = (const void *)dg.b;
	struct dcbnl_msg_ieee m;
	int st = 1;

	memcpy(dg.b, rp_ieee_full, sizeof(rp_ieee_full));
	memcpy(dg.b + sizeof(rp_ieee_full), rp_ack_ok, sizeof(rp_ack_ok));
	assert_int_equal(dcbnl_msg_parse_ieee(dg.b, sizeof(dg.b), &m), 0);
	assert_int_equal(m.napp, 3);
	nlh = mnl_nlmsg_next(nlh, &(int){sizeof(dg.b)});
	assert_int_equal(dcbnl_msg_parse_status(nlh, sizeof(rp_ack_ok), &st),
	                 0);
	assert_int_equal(st, 0);
}

/* Copy FX into an exact-size heap buffer so ASan sees any over-read. */
static uint8_t *heap_copy(const uint8_t *fx, size_t n)
{
	uint8_t *b = malloc(n ? n : 1);

	assert_non_null(b);
	memcpy(b, fx, n);
	return b;
}

static int parse_ieee_at(const uint8_t *fx, size_t n, size_t off, uint8_t v)
{
	struct dcbnl_msg_ieee m;
	uint8_t *b = heap_copy(fx, n);
	int err;

	if (off < n)
		b[off] = v;
	err = dcbnl_msg_parse_ieee(b, n, &m);
	free(b);
	return err;
}

/* A message built with libmnl for the cases no fixture covers. */
static size_t build(uint8_t cmd, void (*fill)(struct nlmsghdr *nlh))
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(req.b);
	struct dcbmsg *d;

	nlh->nlmsg_type = RTM_GETDCB;
	d = mnl_nlmsg_put_extra_header(nlh, sizeof(*d));
	d->cmd = cmd;
	fill(nlh);
	return nlh->nlmsg_len;
}

static void fill_unknown(struct nlmsghdr *nlh)
{
	struct ieee_pfc pfc = {.pfc_cap = 8, .pfc_en = 1};
	struct nlattr *ieee;

	mnl_attr_put_u32(nlh, 40, 7);
	ieee = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE);
	mnl_attr_put_u64(nlh, DCB_ATTR_IEEE_QCN, 1);
	mnl_attr_put_u32(nlh, 30, 7);
	mnl_attr_put(nlh, DCB_ATTR_IEEE_PFC, sizeof(pfc), &pfc);
	mnl_attr_nest_end(nlh, ieee);
}

static void fill_trust_dup(struct nlmsghdr *nlh)
{
	struct nlattr *ieee, *t;

	ieee = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE);
	t = mnl_attr_nest_start(nlh, DCBNL_MSG_ATTR_APP_TRUST_TABLE);
	mnl_attr_put_u8(nlh, DCB_ATTR_IEEE_APP, 5);
	mnl_attr_put_u8(nlh, DCB_ATTR_IEEE_APP, 5);
	mnl_attr_nest_end(nlh, t);
	mnl_attr_nest_end(nlh, ieee);
}

static void fill_long_name(struct nlmsghdr *nlh)
{
	mnl_attr_put_strz(nlh, DCB_ATTR_IFNAME, "0123456789abcdef");
}

static void test_parse_malformed(void **state)
{
	static uint8_t big[4096];
	struct dcb_app apps[DCBNL_MSG_APP_MAX + 1];
	struct dcbnl_msg_ieee m;
	size_t i, n;

	/* PCP entry in an IEEE attribute, DSCP entry in a DCB one. */
	assert_int_equal(parse_ieee_at(fx_app_add_pcp, sizeof(fx_app_add_pcp),
	                               42, DCB_ATTR_IEEE_APP),
	                 -EINVAL);
	assert_int_equal(parse_ieee_at(fx_app_add, sizeof(fx_app_add), 42,
	                               DCBNL_MSG_ATTR_DCB_APP),
	                 -EINVAL);
	/* A struct one byte short (ETS nla_len 63 -> 62). */
	assert_int_equal(
	    parse_ieee_at(rp_ieee_full, sizeof(rp_ieee_full), 36, 62), -EINVAL);
	/* The name without its NUL. */
	assert_int_equal(
	    parse_ieee_at(rp_ieee_full, sizeof(rp_ieee_full), 30, 'x'),
	    -EINVAL);
	/* The APP table longer than the IEEE nest, or shorter than a header. */
	assert_int_equal(
	    parse_ieee_at(rp_ieee_min, sizeof(rp_ieee_min), 176, 8), -EINVAL);
	assert_int_equal(
	    parse_ieee_at(rp_ieee_min, sizeof(rp_ieee_min), 176, 2), -EINVAL);
	/* nlmsg_len beyond the buffer; a buffer shorter than nlmsg_len. */
	assert_int_equal(parse_ieee_at(rp_ieee_min, sizeof(rp_ieee_min), 0,
	                               sizeof(rp_ieee_min) + 4),
	                 -EINVAL);
	assert_int_equal(parse_ieee_at(rp_ieee_min, sizeof(rp_ieee_min) - 4,
	                               sizeof(rp_ieee_min), 0),
	                 -EINVAL);
	/* Another message type. */
	assert_int_equal(
	    parse_ieee_at(rp_ieee_min, sizeof(rp_ieee_min), 4, RTM_NEWLINK),
	    -ENOMSG);

	/* Unknown attributes (and QCN, which roced ignores) are skipped. */
	n = build(DCB_CMD_IEEE_GET, fill_unknown);
	assert_int_equal(dcbnl_msg_parse_ieee(req.b, n, &m), 0);
	assert_int_equal(m.present, DCBNL_MSG_HAS_PFC);
	assert_int_equal(m.pfc.pfc_en, 1);
	n = build(DCB_CMD_IEEE_GET, fill_trust_dup);
	assert_int_equal(dcbnl_msg_parse_ieee(req.b, n, &m), -EINVAL);
	n = build(DCB_CMD_IEEE_GET, fill_long_name);
	assert_int_equal(dcbnl_msg_parse_ieee(req.b, n, &m), -EINVAL);

	/* One APP entry more than the module keeps. */
	for (i = 0; i <= DCBNL_MSG_APP_MAX; i++) {
		apps[i].selector = 2;
		apps[i].priority = 1;
		apps[i].protocol = i + 1;
	}
	assert_int_equal(dcbnl_msg_app_add(big, sizeof(big), 0, IFN, apps,
	                                   DCBNL_MSG_APP_MAX + 1),
	                 0);
	assert_int_equal(dcbnl_msg_parse_ieee(big, sizeof(big), &m), -ENOBUFS);
	/* A failed parse leaves nothing half-filled. */
	assert_int_equal(m.present, 0);
	assert_int_equal(m.napp, 0);
}

/* ------------------------------------------------------------------ */
/* Fuzz: truncated and mutated fixtures never crash a decoder */

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
    FX(fx_ieee_get),        FX(fx_pfc_set),
    FX(fx_pfc_set_delay),   FX(fx_ets_set),
    FX(fx_maxrate_set),     FX(fx_buffer_set),
    FX(fx_app_add),         FX(fx_app_del),
    FX(fx_app_add_ethtype), FX(fx_app_replace_add),
    FX(fx_app_replace_del), FX(fx_dcbx_set),
    FX(fx_apptrust_set),    FX(fx_app_add_pcp),
    FX(fx_gdcbx),           FX(fx_gcap),
    FX(rp_ieee_full),       FX(rp_shim_state),
    FX(rp_ieee_min),        FX(rp_ieee_notify),
    FX(rp_gdcbx),           FX(rp_gcap),
    FX(rp_set_ok),          FX(rp_set_fail),
    FX(rp_del_ok),          FX(rp_sdcbx_fail),
    FX(rp_ack_ok),          FX(rp_ack_eopnotsupp),
};

static unsigned fuzz_ok;

static void assert_sane_err(int err, const char *what)
{
	if (err != 0 && err != -EINVAL && err != -ENOMSG && err != -ENOBUFS)
		fail_msg("%s: unexpected %d", what, err);
}

/* Run every decoder on N bytes at B; returns how many accepted it. */
static int decode_all(const uint8_t *fx, size_t n, const char *what)
{
	struct dcbnl_msg_ieee m;
	struct dcbnl_msg_cap cap;
	uint8_t *b = heap_copy(fx, n), mode;
	int err, ok = 0, st;

	err = dcbnl_msg_parse_ieee(b, n, &m);
	assert_sane_err(err, what);
	if (!err) {
		assert_true(strnlen(m.ifname, IFNAMSIZ) < IFNAMSIZ);
		assert_true(m.napp <= DCBNL_MSG_APP_MAX);
		assert_true(m.npeer_app <= DCBNL_MSG_APP_MAX);
		assert_true(m.ntrust <= DCBNL_MSG_TRUST_MAX);
		ok++;
	}
	err = dcbnl_msg_parse_dcbx(b, n, &mode);
	assert_sane_err(err, what);
	ok += !err;
	err = dcbnl_msg_parse_cap(b, n, &cap);
	assert_sane_err(err, what);
	if (!err) {
		assert_int_equal(cap.present & 3, 0);
		ok++;
	}
	err = dcbnl_msg_parse_status(b, n, &st);
	assert_sane_err(err, what);
	if (!err) {
		assert_true(st <= 0 && st >= -4095);
		ok++;
	}
	free(b);
	fuzz_ok += ok;
	return ok;
}

static uint32_t xorshift(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static void test_fuzz(void **state)
{
	static const uint8_t pat[] = {0x00, 0xff, 0x7f, 0x80, 0x04, 0x03};
	uint8_t b[2048];
	uint32_t seed = 0x4791;
	size_t f, n, i, k;

	for (f = 0; f < sizeof(fixtures) / sizeof(fixtures[0]); f++) {
		const struct fixture *fx = &fixtures[f];

		decode_all(fx->b, fx->n, fx->name);
		/* No decoder takes a message cut short of nlmsg_len. */
		for (n = 0; n < fx->n; n++)
			assert_int_equal(decode_all(fx->b, n, fx->name), 0);
		/* Every byte set to a few telling values. */
		for (i = 0; i < fx->n; i++)
			for (k = 0; k < sizeof(pat); k++) {
				memcpy(b, fx->b, fx->n);
				b[i] = pat[k];
				decode_all(b, fx->n, fx->name);
				b[i] = fx->b[i] ^ pat[k];
				decode_all(b, fx->n, fx->name);
			}
		/* Random multi-byte damage, random lengths. */
		for (i = 0; i < 400; i++) {
			memcpy(b, fx->b, fx->n);
			for (k = xorshift(&seed) % 4 + 1; k > 0; k--)
				b[xorshift(&seed) % fx->n] = xorshift(&seed);
			n = fx->n - xorshift(&seed) % 2 * (xorshift(&seed) % 8);
			decode_all(b, n, fx->name);
		}
	}
	/* The loop did decode things, not only refuse them. */
	assert_true(fuzz_ok > 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fixtures_are_captures),
	    cmocka_unit_test(test_get_requests),
	    cmocka_unit_test(test_seq_is_callers),
	    cmocka_unit_test(test_pfc_from_plan),
	    cmocka_unit_test(test_pfc_partial),
	    cmocka_unit_test(test_pfc_holes),
	    cmocka_unit_test(test_ets_from_plan),
	    cmocka_unit_test(test_maxrate_buffer),
	    cmocka_unit_test(test_app_from_plan),
	    cmocka_unit_test(test_app_other),
	    cmocka_unit_test(test_apptrust),
	    cmocka_unit_test(test_encode_errors),
	    cmocka_unit_test(test_app_max),
	    cmocka_unit_test(test_parse_full),
	    cmocka_unit_test(test_parse_partial_fills),
	    cmocka_unit_test(test_parse_requests),
	    cmocka_unit_test(test_parse_dcbx_cap),
	    cmocka_unit_test(test_parse_status),
	    cmocka_unit_test(test_parse_datagram),
	    cmocka_unit_test(test_parse_malformed),
	    cmocka_unit_test(test_fuzz),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
