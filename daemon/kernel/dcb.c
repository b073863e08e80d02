/* dcb: see dcb.h. */
#include "kernel/dcb.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

struct dcb_reply {
	void *buf;
	size_t cap, len;
};

/* Keep the first data message of the exchange (the GET or SET reply). */
static int dcb_keep_reply(const struct nlmsghdr *nlh, void *data)
{
	struct dcb_reply *r = data;

	if (r->len || nlh->nlmsg_len > r->cap)
		return MNL_CB_OK;
	memcpy(r->buf, nlh, nlh->nlmsg_len);
	r->len = nlh->nlmsg_len;
	return MNL_CB_OK;
}

static int dcb_nl_transact(void *ctx, struct nlmsghdr *req, void *reply,
                           size_t *replylen, struct nlb_error *err)
{
	struct dcb_reply r = {.buf = reply, .cap = *replylen};
	int rc = nlb_request(ctx, req, dcb_keep_reply, &r, err);

	*replylen = r.len;
	return rc;
}

const struct dcb_ops dcb_ops_netlink = {
    .transact = dcb_nl_transact,
};

static void dcb_to_plan(const struct dcbnl_msg_ieee *cur, struct plan_dcb *have)
{
	have->software = false;
	if (cur->present & DCBNL_MSG_HAS_PFC) {
		have->pfc_cap = cur->pfc.pfc_cap;
		have->pfc_en = cur->pfc.pfc_en;
	}
	if (cur->present & DCBNL_MSG_HAS_ETS) {
		memcpy(have->ets_tsa, cur->ets.tc_tsa, sizeof(have->ets_tsa));
		memcpy(have->ets_bw, cur->ets.tc_tx_bw, sizeof(have->ets_bw));
		memcpy(have->prio_tc, cur->ets.prio_tc, sizeof(have->prio_tc));
	}
	have->napp = 0;
	for (size_t i = 0; i < cur->napp && have->napp < PLAN_APP_MAX; i++) {
		struct plan_app *a = &have->app[have->napp++];

		a->selector = cur->app[i].selector;
		a->protocol = cur->app[i].protocol;
		a->priority = cur->app[i].priority;
	}
	have->ntrust = 0;
	for (size_t i = 0; i < cur->ntrust && have->ntrust < 2; i++)
		have->trust[have->ntrust++] = cur->trust[i];
}

int dcb_observe(const struct dcb_ops *ops, void *ctx, const char *ifname,
                struct dcbnl_msg_ieee *cur, struct plan_dcb *have)
{
	char req[DCBNL_MSG_REQ_SIZE] __attribute__((aligned(4)));
	char reply[16384] __attribute__((aligned(4)));
	size_t len = sizeof(reply);
	struct nlb_error err;
	int rc;

	rc = dcbnl_msg_ieee_get(req, sizeof(req), 0, ifname);
	if (rc < 0)
		return rc;
	rc = ops->transact(ctx, (struct nlmsghdr *)req, reply, &len, &err);
	if (rc < 0)
		return rc;
	if (!len)
		return -EOPNOTSUPP;
	memset(cur, 0, sizeof(*cur));
	rc = dcbnl_msg_parse_ieee(reply, len, cur);
	if (rc < 0)
		return rc;
	dcb_to_plan(cur, have);
	return 0;
}

static int dcb_build(const struct diff_op *op, const char *ifname,
                     const struct plan_dcb *want,
                     const struct dcbnl_msg_ieee *cur, char *req, size_t len)
{
	switch (op->obj) {
	case DIFF_DCB_PFC: {
		struct ieee_pfc pfc;

		dcbnl_msg_pfc_from_plan(want, cur ? &cur->pfc : NULL, &pfc);
		return dcbnl_msg_pfc_set(req, len, 0, ifname, &pfc);
	}
	case DIFF_DCB_ETS: {
		struct ieee_ets ets;

		dcbnl_msg_ets_from_plan(want, cur ? &cur->ets : NULL, &ets);
		return dcbnl_msg_ets_set(req, len, 0, ifname, &ets);
	}
	case DIFF_DCB_APP: {
		struct dcb_app app = {
		    .selector = op->u.app.selector,
		    .protocol = op->u.app.protocol,
		    .priority = op->u.app.priority,
		};

		return op->kind == DIFF_DEL
		           ? dcbnl_msg_app_del(req, len, 0, ifname, &app, 1)
		           : dcbnl_msg_app_add(req, len, 0, ifname, &app, 1);
	}
	case DIFF_DCB_TRUST:
		return dcbnl_msg_apptrust_set(req, len, 0, ifname, want->trust,
		                              want->ntrust);
	default:
		return -EINVAL;
	}
}

int dcb_apply_op(const struct dcb_ops *ops, void *ctx, const char *ifname,
                 const struct diff_op *op, const struct plan_dcb *want,
                 const struct dcbnl_msg_ieee *cur, struct nlb_error *err)
{
	char req[DCBNL_MSG_REQ_SIZE] __attribute__((aligned(4)));
	char reply[4096] __attribute__((aligned(4)));
	size_t len = sizeof(reply);
	int rc, status = 0;

	memset(err, 0, sizeof(*err));
	rc = dcb_build(op, ifname, want, cur, req, sizeof(req));
	if (rc < 0)
		return rc;
	rc = ops->transact(ctx, (struct nlmsghdr *)req, reply, &len, err);
	if (rc < 0)
		return rc;
	/* The kernel ACKs with 0 even when the driver said no: the driver's
	 * answer is in the reply that came before the ACK. */
	if (len && dcbnl_msg_parse_status(reply, len, &status) == 0 &&
	    status < 0) {
		err->err = status;
		snprintf(err->msg, sizeof(err->msg),
		         "the driver refused the %s setting",
		         diff_obj_name(op->obj));
		return status;
	}
	return 0;
}
