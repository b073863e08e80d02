/* nl: one rtnetlink socket, pipelined request batches and dumps (libmnl).
 *
 * A batch holds many requests, each asking for an ACK, and goes to the
 * kernel in as few sendmsg() calls as fit the socket buffer; the ACKs are
 * then read back in one sweep. That is what lets a cold apply beat
 * `tc -batch`, which waits for each answer before sending the next line.
 * The kernel handles the messages of a batch in order and answers each,
 * so every failure is reported with the index of its request and the
 * kernel's extack text.
 */
#ifndef ROCED_NL_H
#define ROCED_NL_H

#include <stddef.h>
#include <stdint.h>

#include <libmnl/libmnl.h>

struct nl {
	struct mnl_socket *sock;
	uint32_t portid;
	uint32_t seq;
};

/* The first failure of a batch. */
struct nl_error {
	int err;       /* -errno, 0 if none */
	size_t index;  /* which request of the batch */
	char msg[256]; /* the kernel's extack text, or "" */
};

struct nl_batch {
	char *buf;
	size_t len, cap;
	size_t n;           /* requests in the batch */
	uint32_t first_seq; /* sequence number of request 0 */
	size_t *offsets;    /* where each request starts in buf */
	size_t noffsets;
};

/* Open and bind a NETLINK_ROUTE socket with extended ACKs. */
int nl_open(struct nl *nl);
void nl_close(struct nl *nl);

void nl_batch_init(struct nl_batch *b);
void nl_batch_free(struct nl_batch *b);
void nl_batch_reset(struct nl_batch *b);
/* Room for one more request of at most MAX bytes: returns a zeroed buffer
 * to build it in (with mnl_nlmsg_put_header), or NULL on ENOMEM. Finish
 * it with nl_batch_commit(). */
char *nl_batch_next(struct nl_batch *b, size_t max);
/* Seal the request just built: stamps its sequence number, forces
 * NLM_F_ACK, and counts it. */
void nl_batch_commit(struct nl *nl, struct nl_batch *b);

/* Send the batch and collect every ACK. Returns 0 when all succeeded, or
 * the first failure's -errno with details in ERR (may be NULL). Counts
 * the failures in *NFAILED when given. */
int nl_batch_send(struct nl *nl, struct nl_batch *b, struct nl_error *err,
                  size_t *nfailed);

/* Called for every failed request of a batch, in order. */
typedef void (*nl_fail_cb)(size_t index, int err, const char *msg, void *data);

/* As nl_batch_send(), but report every failure to CB (may be NULL).
 * Returns 0, the first failure's -errno, or a socket error. */
int nl_batch_send_each(struct nl *nl, struct nl_batch *b, nl_fail_cb cb,
                       void *data);

/* Send one dump request (built in REQ) and call CB for every answer
 * message until NLMSG_DONE. Returns 0 or -errno (extack text in ERR). */
int nl_dump(struct nl *nl, struct nlmsghdr *req, mnl_cb_t cb, void *data,
            struct nl_error *err);

/* Send one request and wait for its answer; CB (may be NULL) sees a data
 * reply, as for RTM_GETDCB. Returns 0 or -errno. */
int nl_request(struct nl *nl, struct nlmsghdr *req, mnl_cb_t cb, void *data,
               struct nl_error *err);

#endif
