/* nlb: one rtnetlink socket, pipelined request batches and dumps (libmnl).
 *
 * A batch holds many requests, each asking for an ACK, and goes to the
 * kernel in as few sendmsg() calls as fit the socket buffer; the ACKs are
 * then read back in one sweep. That is what lets a cold apply beat
 * `tc -batch`, which waits for each answer before sending the next line.
 * The kernel handles the messages of a batch in order and answers each,
 * so every failure is reported with the index of its request and the
 * kernel's extack text.
 */
#ifndef ROCED_NLB_H
#define ROCED_NLB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libmnl/libmnl.h>

struct nlb {
	struct mnl_socket *sock;
	uint32_t portid;
	uint32_t seq;
};

/* The first failure of a batch. */
struct nlb_error {
	int err;       /* -errno, 0 if none */
	size_t index;  /* which request of the batch */
	char msg[256]; /* the kernel's extack text, or "" */
};

struct nlb_batch {
	char *buf;
	size_t len, cap;
	size_t n;           /* requests in the batch */
	uint32_t first_seq; /* sequence number of request 0 */
	size_t *offsets;    /* where each request starts in buf */
	size_t noffsets;
	/* Ask for an answer to refusals only, and to the last request, which
	 * marks the end of the batch: the kernel then builds, queues and we
	 * read no ACK for each request that succeeds. Set it before the
	 * first commit. */
	bool quiet;
};

/* Open and bind a NETLINK_ROUTE socket with extended ACKs. */
int nlb_open(struct nlb *nl);
/* The same on another netlink bus (NETLINK_GENERIC for ethtool). */
int nlb_open_bus(struct nlb *nl, int bus);
void nlb_close(struct nlb *nl);

void nlb_batch_init(struct nlb_batch *b);
void nlb_batch_free(struct nlb_batch *b);
void nlb_batch_reset(struct nlb_batch *b);
/* Room for one more request of at most MAX bytes: returns a zeroed buffer
 * to build it in (with mnl_nlmsg_put_header), or NULL on ENOMEM. Finish
 * it with nlb_batch_commit(). */
char *nlb_batch_next(struct nlb_batch *b, size_t max);
/* Seal the request just built: stamps its sequence number, forces
 * NLM_F_ACK (clears it in a quiet batch), and counts it. */
void nlb_batch_commit(struct nlb *nl, struct nlb_batch *b);

/* Drop the requests from index N on (the last ones committed, with no
 * other request on NL since): the batch is as it was with N requests. */
void nlb_batch_truncate(struct nlb *nl, struct nlb_batch *b, size_t n);

/* Send the batch and collect every ACK. Returns 0 when all succeeded, or
 * the first failure's -errno with details in ERR (may be NULL). Counts
 * the failures in *NFAILED when given. */
int nlb_batch_send(struct nlb *nl, struct nlb_batch *b, struct nlb_error *err,
                   size_t *nfailed);

/* Called for every failed request of a batch, in order. */
typedef void (*nlb_fail_cb)(size_t index, int err, const char *msg, void *data);

/* As nlb_batch_send(), but report every failure to CB. Returns 0 once
 * every answer is read, refusals or not, or -errno when the exchange
 * itself failed (a socket error, a malformed answer): the answers not
 * read are then unknown. */
int nlb_batch_send_each(struct nlb *nl, struct nlb_batch *b, nlb_fail_cb cb,
                        void *data);

/* Send one dump request (built in REQ) and call CB for every answer
 * message until NLMSG_DONE. Returns 0 or -errno (extack text in ERR). */
int nlb_dump(struct nlb *nl, struct nlmsghdr *req, mnl_cb_t cb, void *data,
             struct nlb_error *err);

/* Send one request and wait for its answer; CB (may be NULL) sees a data
 * reply, as for RTM_GETDCB. Returns 0 or -errno. */
int nlb_request(struct nlb *nl, struct nlmsghdr *req, mnl_cb_t cb, void *data,
                struct nlb_error *err);

#endif
