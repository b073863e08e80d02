/* test_lldpad_msg: lldpad's client messages (lib/proto/lldpad_msg.c)
 * against what lldptool 1.1 (Debian 12) sends and lldpad answers,
 * captured with `strace -e sendto,recvfrom -s 1000 lldptool ...` against
 * lldpad on a veth. lldpad refuses DCBX on veth ("Device not capable"),
 * so its replies with TLVs in them are laid out by hand as its clif code
 * writes them (each TLV in hex: type/length, then the value). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "proto/lldpad_msg.h"

/* `lldptool -T -i la0 -V PFC willing=yes enabled=3`:
 * M, module 00000001, C, version 3, cmd 02 (set), ops 0000000c (arg,
 * argval), ifname 03 "la0", agent 00 (nearest bridge), tlvid 0080c20b,
 * then 07 "willing" 0003 "yes", 07 "enabled" 0001 "3". */
static const char set_pfc[] = "M00000001C3020000000c03la0000080c20b07willing"
                              "0003yes07enabled00013";
/* lldpad's answer on a veth: R, status 08 (not capable), the echo. */
static const char set_pfc_reply[] = "R08C3020000000c03la00080c20b";
/* `lldptool -t -i la0 -V PFC -c enabled`: cmd 01 (get), ops 00000015
 * (local, arg, config), then 07 "enabled" without a value. */
static const char get_enabled[] = "M00000001C3010000001503la0000080c20b07"
                                  "enabled";
static const char get_enabled_reply[] = "R00C3010000001503la00080c20b07"
                                        "enabled0000";
/* `lldptool -t -i nonex -V PFC`: lldpad stops after the ifname. */
static const char nodev_reply[] = "R02C3010000000105nonex";
/* `lldptool -T -i la0 -V APP app=3,5,26`. */
static const char set_app[] = "M00000001C3020000000c03la0000080c20c03app"
                              "00063,5,26";
/* `lldptool -T -i la0 -V APP -d app=3,5,26`: ops 0000002c (arg, argval,
 * delete), the entry alone. */
static const char del_app[] = "M00000001C3020000002c03la0000080c20c03app"
                              "00063,5,26";

static void test_encode_captures(void **state)
{
	struct lldpad_msg_arg pfc[] = {{"willing", "yes"}, {"enabled", "3"}};
	struct lldpad_msg_arg en[] = {{"enabled", NULL}};
	struct lldpad_msg_arg app[] = {{"app", "3,5,26"}};
	char b[512];
	int n;

	(void)state;
	n = lldpad_msg_encode(b, sizeof(b), LLDPAD_MSG_SET,
	                      LLDPAD_OP_ARG | LLDPAD_OP_ARGVAL, "la0",
	                      LLDPAD_TLV_PFC, pfc, 2);
	assert_int_equal(n, strlen(set_pfc));
	assert_string_equal(b, set_pfc);
	n = lldpad_msg_encode(b, sizeof(b), LLDPAD_MSG_GET,
	                      LLDPAD_OP_LOCAL | LLDPAD_OP_ARG |
	                          LLDPAD_OP_CONFIG,
	                      "la0", LLDPAD_TLV_PFC, en, 1);
	assert_string_equal(b, get_enabled);
	n = lldpad_msg_encode(b, sizeof(b), LLDPAD_MSG_SET,
	                      LLDPAD_OP_ARG | LLDPAD_OP_ARGVAL, "la0",
	                      LLDPAD_TLV_APP, app, 1);
	assert_string_equal(b, set_app);
	/* Too small a buffer, too long a name: nothing is half-written. */
	assert_int_equal(lldpad_msg_encode(b, 20, LLDPAD_MSG_GET, 1, "la0",
	                                   LLDPAD_TLV_PFC, NULL, 0),
	                 -ENOSPC);
	assert_int_equal(lldpad_msg_encode(b, sizeof(b), LLDPAD_MSG_GET, 1,
	                                   "abcdefghijklmnopq", LLDPAD_TLV_PFC,
	                                   NULL, 0),
	                 -EINVAL);
}

static void test_decode_captures(void **state)
{
	struct lldpad_msg_reply r;
	char v[16];

	(void)state;
	assert_int_equal(
	    lldpad_msg_decode(set_pfc_reply, strlen(set_pfc_reply), &r), 0);
	assert_int_equal(r.status, LLDPAD_ST_NOT_CAPABLE);
	assert_string_equal(lldpad_msg_status_name(r.status),
	                    "device not capable");
	assert_int_equal(r.cmd, LLDPAD_MSG_SET);
	assert_string_equal(r.ifname, "la0");
	assert_int_equal(r.tlvid, LLDPAD_TLV_PFC);

	assert_int_equal(
	    lldpad_msg_decode(get_enabled_reply, strlen(get_enabled_reply), &r),
	    0);
	assert_int_equal(r.status, LLDPAD_ST_OK);
	assert_int_equal(r.ops, 0x15);
	assert_int_equal(lldpad_msg_value(&r, "enabled", v, sizeof(v)), 0);
	assert_string_equal(v, "");
	assert_int_equal(lldpad_msg_value(&r, "willing", v, sizeof(v)),
	                 -ENOENT);

	assert_int_equal(
	    lldpad_msg_decode(nodev_reply, strlen(nodev_reply), &r), 0);
	assert_int_equal(r.status, LLDPAD_ST_NO_DEVICE);
	assert_string_equal(r.ifname, "nonex");
}

/* Every truncation of a good reply is refused or decoded within bounds;
 * garbage is refused. */
static void test_decode_bounds(void **state)
{
	static const char good[] = "R00C3010000001503la00080c20b07enabled"
	                           "00013";
	struct lldpad_msg_reply r;
	char v[4];

	(void)state;
	for (size_t n = 0; n < strlen(good); n++)
		if (lldpad_msg_decode(good, n, &r) == 0 && r.payload)
			(void)lldpad_msg_value(&r, "enabled", v, sizeof(v));
	assert_int_equal(lldpad_msg_decode("X00", 3, &r), -EBADMSG);
	assert_int_equal(lldpad_msg_decode("R0gC3", 5, &r), -EBADMSG);
	assert_int_equal(lldpad_msg_decode(good, strlen(good), &r), 0);
	assert_int_equal(lldpad_msg_value(&r, "enabled", v, sizeof(v)), 0);
	assert_string_equal(v, "3");
	/* A value length past the end. */
	assert_int_equal(lldpad_msg_decode("R00C3010000001503la00080c20b07"
	                                   "enabled00093",
	                                   41, &r),
	                 0);
	assert_int_equal(lldpad_msg_value(&r, "enabled", v, sizeof(v)),
	                 -EBADMSG);
}

/* `lldptool -t -n -i la0 -V PFC` and `-V APP` with a peer (laid out by
 * hand): PFC TLV fe06 0080c20b, flags 08 (not willing, no MBC, cap 8),
 * enable 08 (priority 3); APP TLV fe08 0080c20c 00, entry 65 001a (prio
 * 3, selector 5 DSCP, 26). */
static void test_tlvs(void **state)
{
	static const char pfc[] =
	    "R00C3010000000203la00080c20bfe060080c20b0808";
	static const char app[] = "R00C3010000000203la00080c20cfe080080c20c00"
	                          "65001a";
	static const char cut[] = "R00C3010000000203la00080c20bfe060080c20b08";
	struct lldpad_msg_reply r;
	struct dcbx_tlvs t;
	char err[128];

	(void)state;
	memset(&t, 0, sizeof(t));
	assert_int_equal(lldpad_msg_decode(pfc, strlen(pfc), &r), 0);
	assert_int_equal(lldpad_msg_tlvs(&r, &t, err, sizeof(err)), 0);
	assert_true(t.has_pfc);
	assert_false(t.pfc.willing);
	assert_int_equal(t.pfc.cap, 8);
	assert_int_equal(t.pfc.enable, 0x08);
	assert_int_equal(lldpad_msg_decode(app, strlen(app), &r), 0);
	assert_int_equal(lldpad_msg_tlvs(&r, &t, err, sizeof(err)), 0);
	assert_true(t.has_app);
	assert_int_equal(t.app.n, 1);
	assert_int_equal(t.app.v[0].prio, 3);
	assert_int_equal(t.app.v[0].selector, 5);
	assert_int_equal(t.app.v[0].protocol, 26);
	assert_int_equal(lldpad_msg_decode(cut, strlen(cut), &r), 0);
	assert_int_equal(lldpad_msg_tlvs(&r, &t, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "PFC"));
}

/* roced's admin values become what lldptool would send for them. */
static void test_admin_args(void **state)
{
	struct dcbx_tlvs l;
	struct lldpad_msg_arg a[LLDPAD_MSG_MAXARGS];
	char store[256], b[512];
	int n;

	(void)state;
	memset(&l, 0, sizeof(l));
	l.pfc.willing = true;
	l.pfc.enable = 0x08;
	n = lldpad_msg_admin_args(&l, LLDPAD_TLV_PFC, 0, a, store,
	                          sizeof(store));
	assert_int_equal(n, 3);
	assert_int_equal(lldpad_msg_encode(b, sizeof(b), LLDPAD_MSG_SET,
	                                   LLDPAD_OP_ARG | LLDPAD_OP_ARGVAL,
	                                   "la0", LLDPAD_TLV_PFC, a + 1, 2),
	                 (int)strlen(set_pfc));
	assert_string_equal(b, set_pfc);
	assert_string_equal(a[0].name, "enableTx");
	assert_string_equal(a[0].value, "yes");
	l.pfc.enable = 0;
	n = lldpad_msg_admin_args(&l, LLDPAD_TLV_PFC, 0, a, store,
	                          sizeof(store));
	assert_string_equal(a[2].value, "none");
	for (unsigned i = 0; i < 8; i++) {
		l.ets_cfg.prio_tc[i] = i == 3 ? 3 : 0;
		l.ets_cfg.tc_bw[i] = i == 0 || i == 3 ? 50 : 0;
		l.ets_cfg.tsa[i] = i < 4 ? DCBX_TSA_ETS : DCBX_TSA_STRICT;
	}
	l.ets_cfg.willing = true;
	n = lldpad_msg_admin_args(&l, LLDPAD_TLV_ETS_CFG, 0, a, store,
	                          sizeof(store));
	assert_int_equal(n, 5);
	assert_string_equal(a[2].value, "0:0,1:0,2:0,3:3,4:0,5:0,6:0,7:0");
	assert_string_equal(a[3].value, "50,0,0,50,0,0,0,0");
	assert_string_equal(a[4].value, "0:ets,1:ets,2:ets,3:ets,4:strict,"
	                                "5:strict,6:strict,7:strict");
	/* The Recommendation: not sent by a port that has none (a host),
	 * and then nothing but enableTx; a switch's with its tables and no
	 * willing bit. */
	n = lldpad_msg_admin_args(&l, LLDPAD_TLV_ETS_REC, 0, a, store,
	                          sizeof(store));
	assert_int_equal(n, 1);
	assert_string_equal(a[0].name, "enableTx");
	assert_string_equal(a[0].value, "no");
	l.has_ets_rec = true;
	l.ets_rec = l.ets_cfg;
	l.ets_rec.tc_bw[0] = 60;
	l.ets_rec.tc_bw[3] = 40;
	n = lldpad_msg_admin_args(&l, LLDPAD_TLV_ETS_REC, 0, a, store,
	                          sizeof(store));
	assert_int_equal(n, 4);
	assert_string_equal(a[0].value, "yes");
	assert_string_equal(a[1].name, "up2tc");
	assert_string_equal(a[1].value, "0:0,1:0,2:0,3:3,4:0,5:0,6:0,7:0");
	assert_string_equal(a[2].name, "tcbw");
	assert_string_equal(a[2].value, "60,0,0,40,0,0,0,0");
	assert_string_equal(a[3].name, "tsa");
	l.app.n = 1;
	l.app.v[0] = (struct dcbx_app){3, 5, 26};
	n = lldpad_msg_admin_args(&l, LLDPAD_TLV_APP, 0, a, store,
	                          sizeof(store));
	assert_int_equal(n, 2);
	assert_int_equal(lldpad_msg_encode(b, sizeof(b), LLDPAD_MSG_SET,
	                                   LLDPAD_OP_ARG | LLDPAD_OP_ARGVAL,
	                                   "la0", LLDPAD_TLV_APP, a + 1, 1),
	                 (int)strlen(set_app));
	assert_string_equal(b, set_app);
	assert_int_equal(lldpad_msg_admin_args(&l, LLDPAD_TLV_APP, 1, a, store,
	                                       sizeof(store)),
	                 -EINVAL);
	assert_int_equal(
	    lldpad_msg_admin_args(&l, LLDPAD_TLV_ETS_CFG, 0, a, store, 10),
	    -ENOSPC);
	assert_string_equal(lldpad_msg_tlv_name(LLDPAD_TLV_ETS_CFG), "ETS-CFG");
}

/* The APP entries lldpad holds from roced: set ones are recorded once,
 * deleted ones leave, and a delete is the entry alone with the delete
 * option, as lldptool -d sends it. */
static void test_app_set(void **state)
{
	struct dcbx_app e1 = {3, 5, 26}, e2 = {4, 5, 26}, e3 = {3, 1, 0x8915};
	struct lldpad_msg_arg a[LLDPAD_MSG_MAXARGS];
	struct dcbx_apps set;
	struct dcbx_tlvs l;
	char store[256], b[512];
	int n;

	(void)state;
	memset(&set, 0, sizeof(set));
	assert_int_equal(lldpad_msg_app_note(&set, &e1, true), 0);
	assert_int_equal(lldpad_msg_app_note(&set, &e1, true), 0);
	assert_int_equal(lldpad_msg_app_note(&set, &e2, true), 0);
	assert_int_equal(lldpad_msg_app_note(&set, &e3, true), 0);
	assert_int_equal(set.n, 3);
	assert_true(lldpad_msg_app_has(&set, &e2));
	assert_int_equal(lldpad_msg_app_note(&set, &e1, false), 0);
	assert_int_equal(set.n, 2);
	assert_false(lldpad_msg_app_has(&set, &e1));
	assert_true(lldpad_msg_app_has(&set, &e2));
	assert_true(lldpad_msg_app_has(&set, &e3));
	/* Deleting what is not there changes nothing. */
	assert_int_equal(lldpad_msg_app_note(&set, &e1, false), 0);
	assert_int_equal(set.n, 2);
	for (unsigned i = 0; set.n < DCBX_APP_MAX; i++) {
		struct dcbx_app e = {0, 5, (uint16_t)(i + 100)};

		assert_int_equal(lldpad_msg_app_note(&set, &e, true), 0);
	}
	assert_int_equal(lldpad_msg_app_note(&set, &e1, true), -ENOSPC);

	memset(&l, 0, sizeof(l));
	l.app.n = 1;
	l.app.v[0] = e1;
	n = lldpad_msg_admin_args(&l, LLDPAD_TLV_APP, 0, a, store,
	                          sizeof(store));
	assert_int_equal(n, 2);
	assert_int_equal(lldpad_msg_encode(b, sizeof(b), LLDPAD_MSG_SET,
	                                   LLDPAD_OP_ARG | LLDPAD_OP_ARGVAL |
	                                       LLDPAD_OP_DELETE,
	                                   "la0", LLDPAD_TLV_APP, a + 1, 1),
	                 (int)strlen(del_app));
	assert_string_equal(b, del_app);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_encode_captures),
	    cmocka_unit_test(test_decode_captures),
	    cmocka_unit_test(test_decode_bounds),
	    cmocka_unit_test(test_tlvs),
	    cmocka_unit_test(test_admin_args),
	    cmocka_unit_test(test_app_set),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
