/* ethtool: see ethtool.h. */
#include "kernel/ethtool.h"

#include <errno.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include <linux/ethtool.h>
#include <linux/netlink.h>
#include <linux/sockios.h>

/* ------------------------------------------------------------------ */
/* The real kernel */

int ethtool_kernel_open(struct ethtool_kernel *k)
{
	return nlb_open_bus(&k->nl, NETLINK_GENERIC);
}

void ethtool_kernel_close(struct ethtool_kernel *k)
{
	nlb_close(&k->nl);
}

static int ethtool_kernel_transact(void *ctx, struct nlmsghdr *req, mnl_cb_t cb,
                                   void *data, struct nlb_error *err)
{
	struct ethtool_kernel *k = ctx;

	if (req->nlmsg_flags & NLM_F_DUMP)
		return nlb_dump(&k->nl, req, cb, data, err);
	return nlb_request(&k->nl, req, cb, data, err);
}

static int ethtool_kernel_ioctl(void *ctx, const char *ifname, void *cmd)
{
	struct ethtool_kernel *k = ctx;
	struct ifreq ifr;
	size_t n = strnlen(ifname, IFNAMSIZ);

	if (n == 0 || n >= IFNAMSIZ)
		return -EINVAL;
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, ifname, n);
	ifr.ifr_data = cmd;
	if (ioctl(mnl_socket_get_fd(k->nl.sock), SIOCETHTOOL, &ifr) < 0)
		return -errno;
	return 0;
}

const struct ethtool_ops ethtool_ops_kernel = {
    .transact = ethtool_kernel_transact,
    .ioctl = ethtool_kernel_ioctl,
};

/* ------------------------------------------------------------------ */
/* Generic netlink */

void ethtool_init(struct ethtool *et, const struct ethtool_ops *ops, void *ctx)
{
	memset(et, 0, sizeof(*et));
	et->ops = ops;
	et->ctx = ctx;
}

static int ethtool_transact(struct ethtool *et, void *req, mnl_cb_t cb,
                            void *data)
{
	struct nlb_error err;

	et->nrequests++;
	return et->ops->transact(et->ctx, req, cb, data, &err);
}

/* What a reply callback found; a parse error stops the exchange. */
struct ethtool_reply {
	struct ethtool *et;
	int err;
	bool got;
	void *out;
	ethtool_link_cb link_cb;
	void *link_data;
	/* Reads one reply into OUT (or hands it to LINK_CB): 0, -ENOMSG
	 * for a message of another kind (skipped), or -errno. */
	int (*parse)(const struct nlmsghdr *nlh, struct ethtool_reply *r);
};

/* The one reply callback: what R->parse makes of each message. */
static int ethtool_reply_cb(const struct nlmsghdr *nlh, void *data)
{
	struct ethtool_reply *r = data;
	int err = r->parse(nlh, r);

	if (err == -ENOMSG)
		return MNL_CB_OK;
	if (err) {
		r->err = err;
		return MNL_CB_ERROR;
	}
	r->got = true;
	return MNL_CB_OK;
}

/* The exchange's verdict: a parse error beats the transport's -EIO. */
static int ethtool_verdict(int rc, const struct ethtool_reply *r)
{
	if (r->err)
		return r->err;
	if (rc < 0)
		return rc;
	return r->got ? 0 : -ENOMSG;
}

static int ethtool_parse_family(const struct nlmsghdr *nlh,
                                struct ethtool_reply *r)
{
	return ethtool_msg_parse_family(nlh, nlh->nlmsg_len, r->out);
}

int ethtool_family(struct ethtool *et)
{
	char req[ETHTOOL_MSG_REQ_SIZE] __attribute__((aligned(4)));
	uint16_t family = 0;
	struct ethtool_reply r = {
	    .et = et, .out = &family, .parse = ethtool_parse_family};
	int rc;

	if (et->family)
		return 0;
	rc = ethtool_msg_family_get(req, sizeof(req), ++et->seq);
	if (rc < 0)
		return rc;
	rc = ethtool_verdict(ethtool_transact(et, req, ethtool_reply_cb, &r),
	                     &r);
	if (rc < 0)
		return rc;
	et->family = family;
	return 0;
}

static int ethtool_parse_link(const struct nlmsghdr *nlh,
                              struct ethtool_reply *r)
{
	struct ethtool_msg_link l;
	int err =
	    ethtool_msg_parse_linkmodes(nlh, nlh->nlmsg_len, r->et->family, &l);

	if (err)
		return err;
	if (r->link_cb)
		r->link_cb(&l, r->link_data);
	else if (r->out)
		memcpy(r->out, &l, sizeof(l));
	return 0;
}

/* LINKMODES of IFNAME, or of every device (a dump) without one. */
static int ethtool_linkmodes(struct ethtool *et, const char *ifname,
                             struct ethtool_reply *r)
{
	char req[ETHTOOL_MSG_REQ_SIZE] __attribute__((aligned(4)));
	int rc = ethtool_family(et);

	if (rc < 0)
		return rc;
	rc = ethtool_msg_linkmodes_get(req, sizeof(req), ++et->seq, et->family,
	                               ifname, 0);
	if (rc < 0)
		return rc;
	if (!ifname)
		((struct nlmsghdr *)req)->nlmsg_flags |= NLM_F_DUMP;
	return ethtool_verdict(ethtool_transact(et, req, ethtool_reply_cb, r),
	                       r);
}

int ethtool_link_get(struct ethtool *et, const char *ifname,
                     struct ethtool_msg_link *out)
{
	struct ethtool_reply r = {
	    .et = et, .out = out, .parse = ethtool_parse_link};

	return ifname ? ethtool_linkmodes(et, ifname, &r) : -EINVAL;
}

int ethtool_link_dump(struct ethtool *et, ethtool_link_cb cb, void *data)
{
	struct ethtool_reply r = {.et = et,
	                          .link_cb = cb,
	                          .link_data = data,
	                          .parse = ethtool_parse_link};
	int rc = ethtool_linkmodes(et, NULL, &r);

	/* A namespace where no device has link settings dumps nothing. */
	return rc == -ENOMSG ? 0 : rc;
}

static int ethtool_parse_pause(const struct nlmsghdr *nlh,
                               struct ethtool_reply *r)
{
	return ethtool_msg_parse_pause(nlh, nlh->nlmsg_len, r->et->family,
	                               r->out);
}

int ethtool_pause_stats(struct ethtool *et, const char *ifname,
                        struct ethtool_msg_pause *out)
{
	char req[ETHTOOL_MSG_REQ_SIZE] __attribute__((aligned(4)));
	struct ethtool_reply r = {
	    .et = et, .out = out, .parse = ethtool_parse_pause};
	const unsigned both =
	    ETHTOOL_MSG_HAS_PAUSE_TX | ETHTOOL_MSG_HAS_PAUSE_RX;
	int rc = ethtool_family(et);

	memset(out, 0, sizeof(*out));
	if (rc < 0)
		return rc;
	rc = ethtool_msg_pause_get(req, sizeof(req), ++et->seq, et->family,
	                           ifname, 0, true);
	if (rc < 0)
		return rc;
	rc = ethtool_verdict(ethtool_transact(et, req, ethtool_reply_cb, &r),
	                     &r);
	if (rc < 0)
		return rc;
	/* Pause settings without counters: the driver has no
	 * get_pause_stats, or counts only one direction. */
	return (out->present & both) == both ? 0 : -EOPNOTSUPP;
}

int ethtool_pause_set(struct ethtool *et, const char *ifname, bool rx, bool tx,
                      struct nlb_error *err)
{
	char req[ETHTOOL_MSG_REQ_SIZE] __attribute__((aligned(4)));
	struct nlb_error e;
	int rc = ethtool_family(et);

	memset(&e, 0, sizeof(e));
	if (rc >= 0)
		rc = ethtool_msg_pause_set(req, sizeof(req), ++et->seq,
		                           et->family, ifname, rx, tx);
	if (rc >= 0) {
		/* A set answers with an ACK only: no reply callback. */
		et->nrequests++;
		rc = et->ops->transact(et->ctx, (struct nlmsghdr *)req, NULL,
		                       NULL, &e);
	}
	if (rc < 0 && !e.err)
		e.err = rc;
	if (err)
		*err = e;
	return rc < 0 ? rc : 0;
}

/* ------------------------------------------------------------------ */
/* Driver statistics (ioctl) */

/* The ioctls size their answers by the driver's count at the time of the
 * call, not by the caller's buffer: a count that grows between
 * GSSET_INFO and GSTRINGS/GSTATS (channels added) would be written past
 * a buffer of the old size. Slack covers that, and a count that changed
 * makes us start over. */
#define ETHTOOL_STATS_SLACK(n) ((n) / 4 + 64)
#define ETHTOOL_STATS_MAX      (1u << 20)
#define ETHTOOL_STATS_TRIES    3

static int ethtool_stats_count(struct ethtool *et, const char *ifname,
                               size_t *n)
{
	struct {
		struct ethtool_sset_info hdr;
		uint32_t count;
	} si;
	int rc;

	memset(&si, 0, sizeof(si));
	si.hdr.cmd = ETHTOOL_GSSET_INFO;
	si.hdr.sset_mask = 1ull << ETH_SS_STATS;
	et->nrequests++;
	rc = et->ops->ioctl(et->ctx, ifname, &si);
	if (rc < 0)
		return rc;
	/* The kernel clears the bits of the sets the driver lacks. */
	if (!(si.hdr.sset_mask & (1ull << ETH_SS_STATS)) || !si.count)
		return -EOPNOTSUPP;
	if (si.count > ETHTOOL_STATS_MAX)
		return -E2BIG;
	*n = si.count;
	return 0;
}

/* One try: names and values of the N statistics. -EAGAIN when the
 * driver's count moved under us. */
static int ethtool_stats_once(struct ethtool *et, const char *ifname, size_t n,
                              char *names, uint64_t *vals)
{
	size_t cap = n + ETHTOOL_STATS_SLACK(n);
	struct ethtool_gstrings *gs;
	struct ethtool_stats *st;
	int rc;

	gs = calloc(1, sizeof(*gs) + cap * ETH_GSTRING_LEN);
	st = calloc(1, sizeof(*st) + cap * sizeof(uint64_t));
	rc = -ENOMEM;
	if (!gs || !st)
		goto out;
	gs->cmd = ETHTOOL_GSTRINGS;
	gs->string_set = ETH_SS_STATS;
	gs->len = (uint32_t)n;
	et->nrequests++;
	rc = et->ops->ioctl(et->ctx, ifname, gs);
	if (rc < 0)
		goto out;
	st->cmd = ETHTOOL_GSTATS;
	st->n_stats = (uint32_t)n;
	et->nrequests++;
	rc = et->ops->ioctl(et->ctx, ifname, st);
	if (rc < 0)
		goto out;
	rc = -EAGAIN;
	if (gs->len != n || st->n_stats != n)
		goto out;
	memcpy(names, gs->data, n * ETH_GSTRING_LEN);
	memcpy(vals, st->data, n * sizeof(uint64_t));
	rc = 0;
out:
	free(gs);
	free(st);
	return rc;
}

/* Names (N * ETH_GSTRING_LEN bytes) and values of IFNAME's statistics,
 * malloc'ed; the caller frees both. */
static int ethtool_stats_fetch(struct ethtool *et, const char *ifname,
                               char **names, uint64_t **vals, size_t *n)
{
	int rc = -EAGAIN;

	*names = NULL;
	*vals = NULL;
	for (int i = 0; i < ETHTOOL_STATS_TRIES && rc == -EAGAIN; i++) {
		free(*names);
		free(*vals);
		*names = NULL;
		*vals = NULL;
		rc = ethtool_stats_count(et, ifname, n);
		if (rc < 0)
			break;
		*names = malloc(*n * ETH_GSTRING_LEN);
		*vals = malloc(*n * sizeof(uint64_t));
		if (!*names || !*vals) {
			rc = -ENOMEM;
			break;
		}
		rc = ethtool_stats_once(et, ifname, *n, *names, *vals);
	}
	if (rc < 0) {
		free(*names);
		free(*vals);
		*names = NULL;
		*vals = NULL;
	}
	return rc;
}

int ethtool_stats(struct ethtool *et, const char *ifname, ethtool_stat_cb cb,
                  void *data)
{
	char *names, name[ETH_GSTRING_LEN + 1];
	uint64_t *vals;
	size_t n;
	int rc = ethtool_stats_fetch(et, ifname, &names, &vals, &n);

	if (rc < 0)
		return rc;
	for (size_t i = 0; i < n; i++) {
		/* Names fill their 32 bytes without a NUL at times. */
		memcpy(name, names + i * ETH_GSTRING_LEN, ETH_GSTRING_LEN);
		name[ETH_GSTRING_LEN] = '\0';
		cb(name, vals[i], data);
	}
	free(names);
	free(vals);
	return 0;
}

int ethtool_prio_pause(struct ethtool *et, const char *ifname,
                       struct ethtool_msg_prio *out)
{
	char *names;
	uint64_t *vals;
	size_t n;
	int rc = ethtool_stats_fetch(et, ifname, &names, &vals, &n);

	memset(out, 0, sizeof(*out));
	if (rc < 0)
		return rc;
	rc = ethtool_msg_prio_collect(names, vals, n, out);
	free(names);
	free(vals);
	return rc;
}

int ethtool_prio_map_read(struct ethtool *et, const char *ifname,
                          struct ethtool_msg_prio_map *m)
{
	struct ethtool_gstrings *gs = NULL;
	size_t n = 0, cap, got;
	const char *names;
	int rc;

	ethtool_msg_prio_map(NULL, 0, m); /* empty until read */
	for (int i = 0; i < ETHTOOL_STATS_TRIES; i++) {
		rc = ethtool_stats_count(et, ifname, &n);
		if (rc < 0)
			return rc;
		/* The kernel writes the driver's count of the moment, not
		 * ours: room for it to have grown a little. */
		cap = n + ETHTOOL_STATS_SLACK(n);
		gs = calloc(1, sizeof(*gs) + cap * ETH_GSTRING_LEN);
		if (!gs)
			return -ENOMEM;
		gs->cmd = ETHTOOL_GSTRINGS;
		gs->string_set = ETH_SS_STATS;
		gs->len = (uint32_t)n;
		et->nrequests++;
		rc = et->ops->ioctl(et->ctx, ifname, gs);
		if (rc == 0)
			rc = ethtool_msg_parse_gstrings(
			    gs, sizeof(*gs) + cap * ETH_GSTRING_LEN, &names,
			    &got);
		if (rc == 0 && got == n) {
			rc = ethtool_msg_prio_map(names, got, m);
			free(gs);
			return rc;
		}
		free(gs);
		if (rc < 0)
			return rc;
	}
	return -EAGAIN;
}

int ethtool_prio_read(struct ethtool *et, const char *ifname,
                      const struct ethtool_msg_prio_map *m,
                      struct ethtool_msg_prio *out)
{
	size_t cap = m->count + ETHTOOL_STATS_SLACK((size_t)m->count);
	size_t len = sizeof(struct ethtool_stats) + cap * sizeof(uint64_t);
	struct ethtool_stats *st = calloc(1, len);
	int rc;

	memset(out, 0, sizeof(*out));
	if (!st)
		return -ENOMEM;
	st->cmd = ETHTOOL_GSTATS;
	st->n_stats = m->count;
	et->nrequests++;
	rc = et->ops->ioctl(et->ctx, ifname, st);
	if (rc == 0)
		rc = ethtool_msg_parse_gstats(st, len, m, out);
	free(st);
	/* More values than room: the set grew past the slack. */
	return rc == -EINVAL ? -ESTALE : rc;
}
