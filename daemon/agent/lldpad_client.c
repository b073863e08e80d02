/* lldpad_client: see lldpad_client.h. */
#include "agent/lldpad_client.h"

#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <lldpad/clif.h>

#include "os/log.h"
#include "proto/lldpad_msg.h"

/* lldpad's replies fit its own buffer size (MAX_CLIF_MSGBUF). */
#define LLDPAD_CLIENT_BUF 4096

/* The TLVs read back, ours and the peer's. */
static const uint32_t lldpad_client_tlvs[] = {
    LLDPAD_TLV_ETS_CFG,
    LLDPAD_TLV_ETS_REC,
    LLDPAD_TLV_PFC,
    LLDPAD_TLV_APP,
};
#define LLDPAD_CLIENT_NTLVS                                                    \
	(sizeof(lldpad_client_tlvs) / sizeof(lldpad_client_tlvs[0]))

static double lldpad_client_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* liblldp_clif is lldpad's own library (Debian ships it in the lldpad
 * package, with the daemon). roced links it only at the first use of
 * `dcbx agent lldpad`, so that a roced that never uses lldpad does not
 * depend on it, nor pull lldpad's daemon onto a host through its
 * package. Loaded once; a load that failed says why on every port that
 * asks for it. */
#define LLDPAD_CLIF_LIB "liblldp_clif.so.1"
static struct {
	bool tried;
	struct clif *(*open)(void);
	void (*close)(struct clif *);
	int (*get_fd)(struct clif *);
	char err[160];
} lldpad_clif;

static bool lldpad_client_lib(void)
{
	const char *err;
	void *h;

	if (lldpad_clif.tried)
		return lldpad_clif.open != NULL;
	lldpad_clif.tried = true;
	h = dlopen(LLDPAD_CLIF_LIB, RTLD_NOW | RTLD_LOCAL);
	if (h) {
		lldpad_clif.open =
		    (struct clif * (*)(void)) dlsym(h, "clif_open");
		lldpad_clif.close =
		    (void (*)(struct clif *))dlsym(h, "clif_close");
		lldpad_clif.get_fd =
		    (int (*)(struct clif *))dlsym(h, "clif_get_fd");
	}
	if (h && lldpad_clif.open && lldpad_clif.close && lldpad_clif.get_fd)
		return true;
	/* dlerror() is cleared by the call that reads it: kept here. */
	err = dlerror();
	snprintf(lldpad_clif.err, sizeof(lldpad_clif.err), "%s",
	         err ? err : "no such library");
	lldpad_clif.open = NULL;
	if (h)
		dlclose(h);
	return false;
}

void lldpad_client_init(struct lldpad_client *c)
{
	memset(c, 0, sizeof(*c));
	c->next_ms = -1;
}

static void lldpad_client_close(struct lldpad_client *c)
{
	if (c->clif)
		lldpad_clif.close(c->clif);
	c->clif = NULL;
}

void lldpad_client_free(struct lldpad_client *c)
{
	lldpad_client_close(c);
	free(c->v);
	lldpad_client_init(c);
}

struct lldpad_port *lldpad_client_find(const struct lldpad_client *c,
                                       const char *ifname)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].ifname, ifname))
			return &c->v[i];
	return NULL;
}

int lldpad_client_port(struct lldpad_client *c, const char *ifname)
{
	struct lldpad_port *p = lldpad_client_find(c, ifname);

	if (!p) {
		if (c->n == c->cap) {
			size_t cap = c->cap ? c->cap * 2 : 4;
			struct lldpad_port *v = realloc(c->v, cap * sizeof(*v));

			if (!v)
				return -ENOMEM;
			c->v = v;
			c->cap = cap;
		}
		p = &c->v[c->n++];
		memset(p, 0, sizeof(*p));
		snprintf(p->ifname, sizeof(p->ifname), "%s", ifname);
		/* A new port is polled at once. */
		c->next_ms = 0;
	}
	p->mark = true;
	return 0;
}

void lldpad_client_sweep(struct lldpad_client *c)
{
	for (size_t i = c->n; i-- > 0;) {
		if (c->v[i].mark) {
			c->v[i].mark = false;
			continue;
		}
		c->v[i] = c->v[--c->n];
	}
	if (!c->n) {
		c->next_ms = -1;
		lldpad_client_close(c);
	}
}

void lldpad_client_set_local(struct lldpad_client *c, const char *ifname,
                             const struct dcbx_tlvs *local, double now_ms)
{
	struct lldpad_port *p = lldpad_client_find(c, ifname);

	(void)now_ms;
	if (!p || (p->has_local && !memcmp(&p->local, local, sizeof(*local))))
		return;
	p->local = *local;
	p->has_local = true;
	p->pushed = false;
	c->next_ms = 0;
}

double lldpad_client_next(const struct lldpad_client *c)
{
	return c->n ? c->next_ms : -1;
}

/* Whether lldpad's control socket is there. clif_open() says so too, but
 * by printing to stderr on every try; this asks quietly first (a
 * datagram connect only looks the address up). */
static bool lldpad_client_there(void)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	size_t n = strlen(LLDP_CLIF_SOCK);
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	bool ok;

	if (fd < 0)
		return false;
	/* An abstract address: a NUL, then the name, no padding. */
	memcpy(a.sun_path + 1, LLDP_CLIF_SOCK, n);
	ok = connect(fd, (struct sockaddr *)&a,
	             (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 +
	                         n)) == 0;
	close(fd);
	return ok;
}

/* One request and its reply into R (pointing into BUF). Returns 0 (R's
 * status says what lldpad thought), -ENOTCONN (lldpad is not there),
 * -ETIMEDOUT or -EBADMSG; the connection is dropped on the latter. */
static int lldpad_client_req(struct lldpad_client *c, unsigned cmd,
                             uint32_t ops, const char *ifname, uint32_t tlvid,
                             const struct lldpad_msg_arg *args, size_t nargs,
                             char *buf, struct lldpad_msg_reply *r)
{
	char req[LLDPAD_CLIENT_BUF];
	double until;
	int n, fd;

	if (c->stalled)
		return -ETIMEDOUT;
	n = lldpad_msg_encode(req, sizeof(req), cmd, ops, ifname, tlvid, args,
	                      nargs);
	if (n < 0)
		return n;
	if (!lldpad_client_lib())
		return -ELIBACC;
	if (!c->clif && lldpad_client_there())
		c->clif = lldpad_clif.open();
	if (!c->clif)
		return -ENOTCONN;
	fd = lldpad_clif.get_fd(c->clif);
	/* Replies to requests that timed out earlier are stale. */
	while (recv(fd, buf, LLDPAD_CLIENT_BUF - 1, MSG_DONTWAIT) > 0)
		;
	if (send(fd, req, (size_t)n, MSG_DONTWAIT) != n) {
		lldpad_client_close(c);
		return -ENOTCONN;
	}
	until = lldpad_client_ms() + LLDPAD_CLIENT_REPLY_MS;
	for (;;) {
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		double left = until - lldpad_client_ms();
		ssize_t got;

		if (left <= 0 || poll(&pfd, 1, (int)left + 1) == 0)
			break;
		got = recv(fd, buf, LLDPAD_CLIENT_BUF - 1, MSG_DONTWAIT);
		if (got < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (got < 0) {
			lldpad_client_close(c);
			return -ENOTCONN;
		}
		buf[got] = '\0';
		/* Another message (an event) is skipped. */
		if (lldpad_msg_decode(buf, (size_t)got, r) < 0 ||
		    r->cmd != cmd || strcmp(r->ifname, ifname))
			continue;
		return 0;
	}
	lldpad_client_close(c);
	c->stalled = true;
	return -ETIMEDOUT;
}

/* Why a request failed, as the port's error. */
static void lldpad_client_why(struct lldpad_port *p, int rc, uint32_t tlvid,
                              const struct lldpad_msg_reply *r)
{
	if (rc == -ELIBACC)
		snprintf(p->error, sizeof(p->error),
		         "cannot load lldpad's client library " LLDPAD_CLIF_LIB
		         " (Debian package lldpad): %.72s",
		         lldpad_clif.err);
	else if (rc == -ENOTCONN)
		snprintf(p->error, sizeof(p->error),
		         "lldpad is not running in this network namespace "
		         "(no answer on its control socket)");
	else if (rc == -ETIMEDOUT)
		snprintf(p->error, sizeof(p->error),
		         "lldpad does not answer within %d ms",
		         LLDPAD_CLIENT_REPLY_MS);
	else if (rc < 0)
		snprintf(p->error, sizeof(p->error), "lldpad: %s",
		         strerror(-rc));
	else
		snprintf(p->error, sizeof(p->error),
		         "lldpad refuses the port (%s): %s",
		         lldpad_msg_tlv_name(tlvid),
		         lldpad_msg_status_name(r->status));
}

/* Delete from lldpad the APP entries roced set there that the plan no
 * longer has (what `lldptool -T -V APP -d app=P,S,N` does). They go
 * before the new ones are set, so that an entry moved to another
 * priority is never advertised twice. */
static int lldpad_client_app_delete(struct lldpad_client *c,
                                    struct lldpad_port *p, char *buf)
{
	struct lldpad_msg_arg a[LLDPAD_MSG_MAXARGS];
	struct lldpad_msg_reply r;
	struct dcbx_tlvs one;
	char store[512];

	/* Backwards: lldpad_msg_app_note() moves the last entry into the
	 * place of the one it removes. */
	for (size_t i = p->app_set.n; i-- > 0;) {
		const struct dcbx_app e = p->app_set.v[i];
		int n, rc;

		if (lldpad_msg_app_has(&p->local.app, &e))
			continue;
		memset(&one, 0, sizeof(one));
		one.app.n = 1;
		one.app.v[0] = e;
		n = lldpad_msg_admin_args(&one, LLDPAD_TLV_APP, 0, a, store,
		                          sizeof(store));
		if (n < 0)
			return n;
		/* The entry alone: a delete does not touch enableTx (the
		 * first argument). */
		rc = lldpad_client_req(
		    c, LLDPAD_MSG_SET,
		    LLDPAD_OP_ARG | LLDPAD_OP_ARGVAL | LLDPAD_OP_DELETE,
		    p->ifname, LLDPAD_TLV_APP, a + 1, (size_t)n - 1, buf, &r);
		if (rc < 0 || r.status != LLDPAD_ST_OK) {
			lldpad_client_why(p, rc, LLDPAD_TLV_APP, &r);
			return -EIO;
		}
		lldpad_msg_app_note(&p->app_set, &e, false);
		log_info("%s: lldpad: APP %s %u -> priority %u deleted (no "
		         "longer in roced's plan)",
		         p->ifname, dcbx_app_sel_name(e.selector), e.protocol,
		         e.prio);
	}
	return 0;
}

/* roced's admin values into lldpad: PFC, ETS Configuration, ETS
 * Recommendation (sent or not, as roced's port would), each APP entry,
 * after the APP entries that are gone were deleted. */
static int lldpad_client_push(struct lldpad_client *c, struct lldpad_port *p,
                              char *buf)
{
	static const uint32_t tlvs[] = {LLDPAD_TLV_PFC, LLDPAD_TLV_ETS_CFG,
	                                LLDPAD_TLV_ETS_REC, LLDPAD_TLV_APP};
	struct lldpad_msg_arg a[LLDPAD_MSG_MAXARGS];
	struct lldpad_msg_reply r;
	char store[512];
	int gone = lldpad_client_app_delete(c, p, buf);

	if (gone < 0)
		return gone;
	for (size_t t = 0; t < sizeof(tlvs) / sizeof(tlvs[0]); t++) {
		size_t nent = tlvs[t] == LLDPAD_TLV_APP ? p->local.app.n : 1;

		for (size_t i = 0; i < nent; i++) {
			int n = lldpad_msg_admin_args(&p->local, tlvs[t], i, a,
			                              store, sizeof(store));
			int rc;

			if (n < 0)
				return n;
			rc = lldpad_client_req(
			    c, LLDPAD_MSG_SET, LLDPAD_OP_ARG | LLDPAD_OP_ARGVAL,
			    p->ifname, tlvs[t], a, (size_t)n, buf, &r);
			if (rc < 0 || r.status != LLDPAD_ST_OK) {
				lldpad_client_why(p, rc, tlvs[t], &r);
				return -EIO;
			}
			/* At most DCBX_APP_MAX: the gone ones went first. */
			if (tlvs[t] == LLDPAD_TLV_APP)
				lldpad_msg_app_note(&p->app_set,
				                    &p->local.app.v[i], true);
		}
	}
	p->pushed = true;
	return 0;
}

/* What lldpad advertises and what the peer sent, TLV by TLV. */
static int lldpad_client_read(struct lldpad_client *c, struct lldpad_port *p,
                              char *buf)
{
	struct lldpad_msg_reply r;
	char err[128];

	memset(&p->lldpad_local, 0, sizeof(p->lldpad_local));
	memset(&p->peer, 0, sizeof(p->peer));
	p->has_peer = false;
	for (size_t t = 0; t < LLDPAD_CLIENT_NTLVS; t++) {
		for (int nbr = 0; nbr < 2; nbr++) {
			uint32_t ops =
			    nbr ? LLDPAD_OP_NEIGHBOR : LLDPAD_OP_LOCAL;
			int rc = lldpad_client_req(
			    c, LLDPAD_MSG_GET, ops, p->ifname,
			    lldpad_client_tlvs[t], NULL, 0, buf, &r);

			if (rc == 0 && nbr && r.status == LLDPAD_ST_NO_PEER)
				continue;
			if (rc < 0 || r.status != LLDPAD_ST_OK) {
				lldpad_client_why(p, rc, lldpad_client_tlvs[t],
				                  &r);
				return -EIO;
			}
			if (lldpad_msg_tlvs(&r,
			                    nbr ? &p->peer : &p->lldpad_local,
			                    err, sizeof(err)) < 0) {
				snprintf(p->error, sizeof(p->error),
				         "lldpad's reply: %s", err);
				return -EBADMSG;
			}
			if (nbr && r.payload_len)
				p->has_peer = true;
		}
	}
	return 0;
}

/* The outcome from what lldpad reports. Negotiation starts from the
 * admin values roced set in lldpad (LOCAL), not from what lldpad reports
 * as its own: an IEEE-active lldpad reports what it advertises, and after
 * it took the peer's values that is the peer's (as roced's own agent
 * advertises, dcbx_advertise), which would read as "agreed" and hide the
 * adoption. Only lldpad's willing bits are read back. */
static void lldpad_client_oper(struct lldpad_port *p, struct dcbx_oper *o)
{
	struct dcbx_tlvs l = p->local;
	const struct dcbx_tlvs *ll = &p->lldpad_local;

	if (ll->has_pfc)
		l.pfc.willing = ll->pfc.willing;
	if (ll->has_ets_cfg)
		l.ets_cfg.willing = ll->ets_cfg.willing;
	dcbx_negotiate(&l, NULL, p->has_peer ? &p->peer : NULL, NULL, o);
}

static void lldpad_client_poll(struct lldpad_client *c, struct lldpad_port *p,
                               double now_ms)
{
	char buf[LLDPAD_CLIENT_BUF];
	char was[sizeof(p->error)];
	struct dcbx_oper o;
	bool had = p->has_oper;

	snprintf(was, sizeof(was), "%s", p->error);
	p->error[0] = '\0';
	if (!p->has_local)
		return; /* no plan applied yet: nothing to set */
	if ((p->pushed || lldpad_client_push(c, p, buf) == 0) &&
	    lldpad_client_read(c, p, buf) == 0) {
		lldpad_client_oper(p, &o);
		if (!had || memcmp(&o, &p->oper, sizeof(o))) {
			p->oper = o;
			p->changed_ms = now_ms;
			log_info("%s: lldpad: PFC %s (0x%02x), ETS %s, APP %s",
			         p->ifname, dcbx_why_name(o.pfc_why),
			         o.pfc.enable, dcbx_why_name(o.ets_why),
			         dcbx_why_name(o.app_why));
		}
		p->has_oper = true;
	} else {
		/* lldpad may have restarted: push again once it is back. */
		p->pushed = false;
		p->has_oper = false;
		if (had)
			p->changed_ms = now_ms;
	}
	if (strcmp(was, p->error) && p->error[0])
		log_warnx("%s: dcbx agent lldpad: %s; the port runs no DCBX",
		          p->ifname, p->error);
	else if (strcmp(was, p->error))
		log_info("%s: dcbx agent lldpad: lldpad drives the port",
		         p->ifname);
}

void lldpad_client_tick(struct lldpad_client *c, double now_ms)
{
	if (!c->n || c->next_ms < 0 || c->next_ms > now_ms)
		return;
	c->stalled = false;
	for (size_t i = 0; i < c->n; i++)
		lldpad_client_poll(c, &c->v[i], now_ms);
	c->next_ms = now_ms + LLDPAD_CLIENT_POLL_MS;
}
