/* nlb: see nlb.h. */
#include "kernel/nlb.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include <linux/netlink.h>

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif

/* Big enough for the ACKs of thousands of requests in flight. */
#define NL_RCVBUF (8 << 20)
#define NL_SNDBUF (8 << 20)
/* One sendmsg() carries at most this much: a few hundred requests. */
#define NL_CHUNK (64 << 10)

int nlb_open(struct nlb *nl)
{
	return nlb_open_bus(nl, NETLINK_ROUTE);
}

int nlb_open_bus(struct nlb *nl, int bus)
{
	int one = 1, rcv = NL_RCVBUF, snd = NL_SNDBUF;
	int fd;

	memset(nl, 0, sizeof(*nl));
	nl->sock = mnl_socket_open(bus);
	if (!nl->sock)
		return -errno;
	fd = mnl_socket_get_fd(nl->sock);
	/* Best effort: without them we only lose detail or speed. */
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcv, sizeof(rcv));
	setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &snd, sizeof(snd));
	if (mnl_socket_bind(nl->sock, 0, MNL_SOCKET_AUTOPID) < 0) {
		int rc = -errno;

		mnl_socket_close(nl->sock);
		nl->sock = NULL;
		return rc;
	}
	nl->portid = mnl_socket_get_portid(nl->sock);
	nl->seq = (uint32_t)time(NULL);
	return 0;
}

void nlb_close(struct nlb *nl)
{
	if (nl->sock)
		mnl_socket_close(nl->sock);
	nl->sock = NULL;
}

void nlb_batch_init(struct nlb_batch *b)
{
	memset(b, 0, sizeof(*b));
}

void nlb_batch_free(struct nlb_batch *b)
{
	free(b->buf);
	free(b->offsets);
	nlb_batch_init(b);
}

void nlb_batch_reset(struct nlb_batch *b)
{
	b->len = 0;
	b->n = 0;
}

char *nlb_batch_next(struct nlb_batch *b, size_t max)
{
	max = MNL_ALIGN(max);
	if (b->len + max > b->cap) {
		size_t ncap = b->cap ? b->cap : 16384;
		char *nb;

		while (ncap < b->len + max)
			ncap *= 2;
		nb = realloc(b->buf, ncap);
		if (!nb)
			return NULL;
		b->buf = nb;
		b->cap = ncap;
	}
	if (b->n == b->noffsets) {
		size_t nn = b->noffsets ? b->noffsets * 2 : 64;
		size_t *no = realloc(b->offsets, nn * sizeof(*no));

		if (!no)
			return NULL;
		b->offsets = no;
		b->noffsets = nn;
	}
	memset(b->buf + b->len, 0, max);
	return b->buf + b->len;
}

void nlb_batch_commit(struct nlb *nl, struct nlb_batch *b)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)(b->buf + b->len);

	if (b->n == 0)
		b->first_seq = nl->seq + 1;
	nlh->nlmsg_seq = ++nl->seq;
	nlh->nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
	/* The kernel answers a refusal whatever the flags say. */
	if (b->quiet)
		nlh->nlmsg_flags &= (uint16_t)~NLM_F_ACK;
	b->offsets[b->n++] = b->len;
	b->len += MNL_ALIGN(nlh->nlmsg_len);
}

void nlb_batch_truncate(struct nlb *nl, struct nlb_batch *b, size_t n)
{
	if (n >= b->n)
		return;
	/* The sequence numbers given out go back too: the answers are
	 * matched to requests by them. */
	nl->seq -= (uint32_t)(b->n - n);
	b->len = b->offsets[n];
	b->n = n;
}

/* Pull the extack message out of an NLMSG_ERROR, if the kernel sent one. */
static void nl_extack(const struct nlmsghdr *nlh, char *out, size_t len)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	size_t off = sizeof(*e);
	const struct nlattr *attr;

	out[0] = '\0';
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	/* Unless capped, the error echoes the whole request. */
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - sizeof(struct nlmsghdr);
	if (mnl_nlmsg_get_payload_len(nlh) < off)
		return;
	/* Walk the TLVs by hand: libmnl's iterator wants a mutable pointer. */
	const char *p = (const char *)e + off;
	size_t left = mnl_nlmsg_get_payload_len(nlh) - off;

	while (left >= sizeof(struct nlattr)) {
		attr = (const struct nlattr *)p;
		if (attr->nla_len < sizeof(struct nlattr) ||
		    attr->nla_len > left)
			return;
		if (mnl_attr_get_type(attr) == NLMSGERR_ATTR_MSG &&
		    mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0) {
			snprintf(out, len, "%s", mnl_attr_get_str(attr));
			return;
		}
		if ((size_t)MNL_ALIGN(attr->nla_len) >= left)
			return;
		p += (size_t)MNL_ALIGN(attr->nla_len);
		left -= (size_t)MNL_ALIGN(attr->nla_len);
	}
}

/* Read answers until every sequence number in [first, first+n) has been
 * acknowledged, or with QUIET (only refusals and the last request are
 * answered) until the last one has. Data replies go to CB when given;
 * failures to FAIL. Returns the first refusal's -errno, or with
 * ANSWERS_ONLY 0 once every answer is read: then a -errno is always the
 * exchange's own trouble. */
static int nl_collect(struct nlb *nl, uint32_t first, size_t n, bool quiet,
                      mnl_cb_t cb, void *data, struct nlb_error *err,
                      size_t *nfailed, nlb_fail_cb fail, void *fail_data,
                      bool answers_only)
{
	char buf[MNL_SOCKET_BUFFER_SIZE * 4];
	size_t acked = 0, failed = 0;
	bool last = false;
	int first_err = 0;

	while (quiet ? !last : acked < n) {
		ssize_t len = mnl_socket_recvfrom(nl->sock, buf, sizeof(buf));
		const struct nlmsghdr *nlh;
		int left;

		if (len < 0)
			return -errno;
		nlh = (const struct nlmsghdr *)buf;
		left = (int)len;
		for (; mnl_nlmsg_ok(nlh, left);
		     nlh = mnl_nlmsg_next(nlh, &left)) {
			uint32_t idx = nlh->nlmsg_seq - first;
			const struct nlmsgerr *e;
			char msg[256];

			if (nlh->nlmsg_pid != nl->portid || idx >= n)
				continue; /* not ours, or a stale answer */
			if (nlh->nlmsg_type == NLMSG_DONE) {
				acked++;
				continue;
			}
			if (nlh->nlmsg_type != NLMSG_ERROR) {
				if (cb && cb(nlh, data) < 0)
					return -EIO;
				continue;
			}
			e = mnl_nlmsg_get_payload(nlh);
			if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*e))
				return -EBADMSG;
			acked++;
			last = last || idx == n - 1;
			if (e->error == 0)
				continue;
			failed++;
			nl_extack(nlh, msg, sizeof(msg));
			if (fail)
				fail(idx, e->error, msg, fail_data);
			if (first_err)
				continue;
			first_err = e->error;
			if (err) {
				err->err = e->error;
				err->index = idx;
				snprintf(err->msg, sizeof(err->msg), "%s", msg);
			}
		}
	}
	if (nfailed)
		*nfailed = failed;
	return answers_only ? 0 : first_err;
}

/* Send the batch in chunks of whole messages. The receive buffer is
 * large, so the kernel's ACKs queue up while we keep sending. */
static int nl_batch_push(struct nlb *nl, struct nlb_batch *b)
{
	size_t i = 0;

	/* A quiet batch's last request is always answered: the fence. */
	if (b->quiet && b->n)
		((struct nlmsghdr *)(b->buf + b->offsets[b->n - 1]))
		    ->nlmsg_flags |= NLM_F_ACK;

	while (i < b->n) {
		size_t start = b->offsets[i], end = start;

		while (i < b->n && b->offsets[i] - start < NL_CHUNK) {
			const struct nlmsghdr *nlh =
			    (const struct nlmsghdr *)(b->buf + b->offsets[i]);

			end = b->offsets[i] + MNL_ALIGN(nlh->nlmsg_len);
			i++;
		}
		if (mnl_socket_sendto(nl->sock, b->buf + start, end - start) <
		    0)
			return -errno;
	}
	return 0;
}

int nlb_batch_send(struct nlb *nl, struct nlb_batch *b, struct nlb_error *err,
                   size_t *nfailed)
{
	int rc;

	if (err)
		memset(err, 0, sizeof(*err));
	if (nfailed)
		*nfailed = 0;
	if (!b->n)
		return 0;
	rc = nl_batch_push(nl, b);
	if (rc < 0)
		return rc;
	return nl_collect(nl, b->first_seq, b->n, b->quiet, NULL, NULL, err,
	                  nfailed, NULL, NULL, false);
}

int nlb_batch_send_each(struct nlb *nl, struct nlb_batch *b, nlb_fail_cb cb,
                        void *data)
{
	int rc;

	if (!b->n)
		return 0;
	rc = nl_batch_push(nl, b);
	if (rc < 0)
		return rc;
	return nl_collect(nl, b->first_seq, b->n, b->quiet, NULL, NULL, NULL,
	                  NULL, cb, data, true);
}

int nlb_dump(struct nlb *nl, struct nlmsghdr *req, mnl_cb_t cb, void *data,
             struct nlb_error *err)
{
	if (err)
		memset(err, 0, sizeof(*err));
	req->nlmsg_seq = ++nl->seq;
	req->nlmsg_flags |= NLM_F_REQUEST | NLM_F_DUMP;
	if (mnl_socket_sendto(nl->sock, req, req->nlmsg_len) < 0)
		return -errno;
	/* A dump ends with NLMSG_DONE, or with NLMSG_ERROR on failure. */
	return nl_collect(nl, req->nlmsg_seq, 1, false, cb, data, err, NULL,
	                  NULL, NULL, false);
}

int nlb_request(struct nlb *nl, struct nlmsghdr *req, mnl_cb_t cb, void *data,
                struct nlb_error *err)
{
	if (err)
		memset(err, 0, sizeof(*err));
	req->nlmsg_seq = ++nl->seq;
	req->nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
	if (mnl_socket_sendto(nl->sock, req, req->nlmsg_len) < 0)
		return -errno;
	return nl_collect(nl, req->nlmsg_seq, 1, false, cb, data, err, NULL,
	                  NULL, NULL, false);
}
