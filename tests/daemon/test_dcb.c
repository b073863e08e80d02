/* Tests for daemon/kernel/dcb.c with a fake kernel behind struct dcb_ops. The
 * replies are the hand-built kernel messages of tests/fixtures/dcb/. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include <linux/rtnetlink.h>

#include "kernel/dcb.h"

#include "../fixtures/dcb/replies.h"

struct fake {
	const uint8_t *reply; /* what the kernel answers, or NULL */
	size_t reply_len;
	int rc;        /* the ACK's verdict */
	uint8_t cmd;   /* the last request's dcbmsg command */
	uint16_t type; /* the last request's nlmsg_type */
	int nreq;
};

static int fake_transact(void *ctx, struct nlmsghdr *req, void *reply,
                         size_t *replylen, struct nlb_error *err)
{
	struct fake *f = ctx;
	const struct dcbmsg *d = mnl_nlmsg_get_payload(req);

	f->nreq++;
	f->type = req->nlmsg_type;
	f->cmd = d->cmd;
	memset(err, 0, sizeof(*err));
	if (f->rc) {
		err->err = f->rc;
		*replylen = 0;
		return f->rc;
	}
	assert_true(f->reply_len <= *replylen);
	if (f->reply)
		memcpy(reply, f->reply, f->reply_len);
	*replylen = f->reply ? f->reply_len : 0;
	return 0;
}

static const struct dcb_ops fake_ops = {.transact = fake_transact};

static void test_observe_full(void **state)
{
	struct fake f = {.reply = rp_ieee_full,
	                 .reply_len = sizeof(rp_ieee_full)};
	struct dcbnl_msg_ieee cur;
	struct plan_dcb have;
	bool dscp26 = false, pcp3 = false;

	(void)state;
	memset(&have, 0, sizeof(have));
	have.software = true;
	assert_int_equal(dcb_observe(&fake_ops, &f, "dcbfx0", &cur, &have), 0);
	assert_int_equal(f.type, RTM_GETDCB);
	assert_int_equal(f.cmd, DCB_CMD_IEEE_GET);
	assert_false(have.software);
	/* The fixture: RoCE setup, PFC on priority 3, DSCP 26 and PCP 3 to 3.
	 */
	assert_int_equal(have.pfc_en, 1u << 3);
	for (size_t i = 0; i < have.napp; i++) {
		if (have.app[i].selector == PLAN_APP_SEL_DSCP &&
		    have.app[i].protocol == 26 && have.app[i].priority == 3)
			dscp26 = true;
		if (have.app[i].selector == PLAN_APP_SEL_PCP &&
		    have.app[i].protocol == 3 && have.app[i].priority == 3)
			pcp3 = true;
	}
	assert_true(dscp26);
	assert_true(pcp3);
	assert_memory_equal(have.prio_tc, cur.ets.prio_tc, 8);
}

/* veth and bridges answer every DCB request with EOPNOTSUPP. */
static void test_observe_software_port(void **state)
{
	struct fake f = {.rc = -EOPNOTSUPP};
	struct dcbnl_msg_ieee cur;
	struct plan_dcb have;

	(void)state;
	assert_int_equal(dcb_observe(&fake_ops, &f, "veth0", &cur, &have),
	                 -EOPNOTSUPP);
}

static void test_apply_checks_driver_verdict(void **state)
{
	struct fake f = {.reply = rp_set_fail,
	                 .reply_len = sizeof(rp_set_fail)};
	struct plan_dcb want;
	struct dcbnl_msg_ieee cur;
	struct diff_op op = {.kind = DIFF_CHANGE, .obj = DIFF_DCB_PFC};
	struct nlb_error err;

	(void)state;
	memset(&want, 0, sizeof(want));
	memset(&cur, 0, sizeof(cur));
	want.pfc_en = 1u << 3;
	/* The kernel's ACK says 0; the driver's reply says EOPNOTSUPP. */
	assert_int_equal(
	    dcb_apply_op(&fake_ops, &f, "dcbfx0", &op, &want, &cur, &err),
	    -EOPNOTSUPP);
	assert_int_equal(err.err, -EOPNOTSUPP);
	assert_non_null(strstr(err.msg, "dcb pfc"));
	assert_int_equal(f.cmd, DCB_CMD_IEEE_SET);

	f.reply = rp_set_ok;
	f.reply_len = sizeof(rp_set_ok);
	assert_int_equal(
	    dcb_apply_op(&fake_ops, &f, "dcbfx0", &op, &want, &cur, &err), 0);
}

static void test_apply_app_and_trust(void **state)
{
	struct fake f = {.reply = rp_del_ok, .reply_len = sizeof(rp_del_ok)};
	struct plan_dcb want;
	struct diff_op op = {.kind = DIFF_DEL, .obj = DIFF_DCB_APP};
	struct nlb_error err;

	(void)state;
	memset(&want, 0, sizeof(want));
	op.u.app = (struct plan_app){PLAN_APP_SEL_DSCP, 26, 4};
	assert_int_equal(
	    dcb_apply_op(&fake_ops, &f, "dcbfx0", &op, &want, NULL, &err), 0);
	assert_int_equal(f.cmd, DCB_CMD_IEEE_DEL);

	op.kind = DIFF_ADD;
	f.reply = rp_set_ok;
	f.reply_len = sizeof(rp_set_ok);
	assert_int_equal(
	    dcb_apply_op(&fake_ops, &f, "dcbfx0", &op, &want, NULL, &err), 0);
	assert_int_equal(f.cmd, DCB_CMD_IEEE_SET);

	op = (struct diff_op){.kind = DIFF_CHANGE, .obj = DIFF_DCB_TRUST};
	want.trust[0] = PLAN_APP_SEL_DSCP;
	want.trust[1] = PLAN_APP_SEL_PCP;
	want.ntrust = 2;
	assert_int_equal(
	    dcb_apply_op(&fake_ops, &f, "dcbfx0", &op, &want, NULL, &err), 0);
	assert_int_equal(f.cmd, DCB_CMD_IEEE_SET);

	/* Not a DCB operation: refused before anything is sent. */
	op.obj = DIFF_QDISC;
	f.nreq = 0;
	assert_int_equal(
	    dcb_apply_op(&fake_ops, &f, "dcbfx0", &op, &want, NULL, &err),
	    -EINVAL);
	assert_int_equal(f.nreq, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_observe_full),
	    cmocka_unit_test(test_observe_software_port),
	    cmocka_unit_test(test_apply_checks_driver_verdict),
	    cmocka_unit_test(test_apply_app_and_trust),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
