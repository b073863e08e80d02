/* frame: the per-port raw-frame layer (see frame.h). */
#include "agent/frame.h"

#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Frames read per wake-up of one port. A flood of frames is read in
 * slices, so that the control socket and the other ports get their turn
 * between them (the socket's receive buffer, not roced, then drops what
 * it cannot hold; the kernel counts those). */
#define FRAME_BATCH 64
/* A receive stamp older than this is not believed: the socket buffer
 * holds a few thousand frames, read within a second even on a loaded
 * host; an older one means the wall clock stepped. */
#define FRAME_AGE_MAX_MS 10000.0

static const uint8_t frame_lldp_dst[6] = {0x01, 0x80, 0xc2, 0x00, 0x00, 0x0e};
static const uint8_t frame_macc_dst[6] = {0x01, 0x80, 0xc2, 0x00, 0x00, 0x01};

void frames_init(struct frames *f, const struct frame_ops *ops, void *impl,
                 struct loop *loop)
{
	memset(f, 0, sizeof(*f));
	f->ops = ops;
	f->impl = impl;
	f->loop = loop;
}

static void frames_close(struct frames *f, struct frame_port *p)
{
	if (p->fd < 0)
		return;
	if (f->loop)
		loop_fd_del(f->loop, p->fd);
	f->ops->close(f->impl, p->fd);
	p->fd = -1;
}

void frames_free(struct frames *f)
{
	for (size_t i = 0; i < f->n; i++)
		frames_close(f, &f->v[i]);
	free(f->v);
	f->v = NULL;
	f->n = 0;
}

void frames_listen(struct frames *f, enum frame_kind kind, frame_rx_fn fn,
                   void *arg)
{
	f->rx[kind] = fn;
	f->rx_arg[kind] = arg;
}

void frames_listen_long(struct frames *f, enum frame_kind kind,
                        frame_trunc_fn fn)
{
	f->trunc[kind] = fn;
}

struct frame_port *frames_find(struct frames *f, const char *ifname)
{
	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->v[i].ifname, ifname))
			return &f->v[i];
	return NULL;
}

struct frame_port *frames_by_fd(struct frames *f, int fd)
{
	if (fd < 0)
		return NULL;
	for (size_t i = 0; i < f->n; i++)
		if (f->v[i].fd == fd)
			return &f->v[i];
	return NULL;
}

/* A port's socket is readable (the loop's callback). */
static void frames_readable(void *arg, int fd, double now_ms)
{
	frames_process(arg, fd, now_ms);
}

static int frames_open(struct frames *f, struct frame_port *p)
{
	int fd = f->ops->open(f->impl, p->ifindex), rc;

	if (fd < 0)
		return fd;
	rc = f->loop ? loop_fd_add(f->loop, fd, frames_readable, f) : 0;
	if (rc < 0) {
		f->ops->close(f->impl, fd);
		return rc;
	}
	p->fd = fd;
	return 0;
}

int frames_attach(struct frames *f, const char *ifname, int ifindex,
                  const uint8_t mac[6])
{
	struct frame_port *p = frames_find(f, ifname), *v;

	if (strlen(ifname) >= FRAME_IFNAME_MAX)
		return -ENAMETOOLONG;
	if (p && p->ifindex == ifindex && !memcmp(p->mac, mac, 6) && p->fd >= 0)
		return 0;
	if (p) {
		/* The port went and came back (or changed its address):
		 * a socket bound to the old ifindex hears nothing. The
		 * counters stay: they are the port's, not the socket's. */
		frames_close(f, p);
	} else {
		v = realloc(f->v, (f->n + 1) * sizeof(*v));
		if (!v)
			return -ENOMEM;
		f->v = v;
		p = &f->v[f->n++];
		memset(p, 0, sizeof(*p));
		snprintf(p->ifname, sizeof(p->ifname), "%s", ifname);
		p->fd = -1;
	}
	p->ifindex = ifindex;
	memcpy(p->mac, mac, 6);
	p->wake = false;
	return frames_open(f, p);
}

void frames_detach(struct frames *f, const char *ifname)
{
	struct frame_port *p = frames_find(f, ifname);

	if (!p)
		return;
	frames_close(f, p);
	*p = f->v[--f->n];
}

/* Which receiver a frame is for. The socket filter let through only
 * these two, but a fake port (or a filter the kernel refused, see
 * frame_packet.c) may hand over anything. */
static int frames_kind(const uint8_t *buf, size_t len)
{
	uint16_t type = (uint16_t)(buf[12] << 8 | buf[13]);

	(void)len;
	if (type == 0x88cc && !memcmp(buf, frame_lldp_dst, 6))
		return FRAME_LLDP;
	if (type == ETH_P_MACC && !memcmp(buf, frame_macc_dst, 6))
		return FRAME_MACC;
	return -1;
}

static bool frames_batch(struct frames *f, int fd, double now_ms);

bool frames_process(struct frames *f, int fd, double now_ms)
{
	bool more = frames_batch(f, fd, now_ms);
	struct frame_port *p = frames_by_fd(f, fd);
	uint64_t n;

	/* After each batch: the kernel drops at a full buffer only while
	 * frames wait, so the loop comes back here after every loss. */
	if (p && f->ops->dropped && f->ops->dropped(f->impl, fd, &n) == 0)
		p->c.rx_dropped += n;
	return more;
}

static bool frames_batch(struct frames *f, int fd, double now_ms)
{
	struct frame_port *p = frames_by_fd(f, fd);
	uint8_t buf[FRAME_MAX];
	char ifname[FRAME_IFNAME_MAX];

	if (!p)
		return false;
	/* The receiver may detach the port (or attach others, which moves
	 * the array): it is looked up again after each frame. */
	snprintf(ifname, sizeof(ifname), "%s", p->ifname);
	for (int i = 0; i < FRAME_BATCH; i++) {
		ssize_t n;
		double at, read_ms;
		int kind;

		p = frames_by_fd(f, fd);
		if (!p)
			return false;
		read_ms = f->ops->now ? f->ops->now(f->impl) : now_ms;
		if (read_ms < now_ms)
			read_ms = now_ms;
		at = read_ms;
		n = f->ops->recv(f->impl, fd, buf, sizeof(buf), &at);
		if (n == -EAGAIN || n == -EWOULDBLOCK)
			return false;
		if (n == -EINTR)
			continue;
		if (n < 0) {
			/* ENETDOWN after the port went down, for one: not
			 * a frame, and the next read may work. */
			p->c.rx_errors++;
			return false;
		}
		if (n < 14) {
			p->c.rx_short++;
			continue;
		}
		kind = frames_kind(buf, (size_t)n);
		if ((size_t)n > sizeof(buf)) {
			/* Its end is lost: a decoder would take what came
			 * as the whole (an LLDPDU's End TLV is optional). */
			p->c.rx_long++;
			if (kind >= 0 && f->trunc[kind])
				f->trunc[kind](f->rx_arg[kind], ifname,
				               (size_t)n, now_ms);
			continue;
		}
		if (kind < 0 && p->wake) {
			kind = FRAME_DATA;
			p->c.rx_wake++;
		}
		if (kind < 0 || !f->rx[kind]) {
			p->c.rx_other++;
			continue;
		}
		p->c.rx++;
		/* Never later than the read, nor older than the socket can
		 * hold (a clock stepped under the kernel's stamp). */
		if (!(at <= read_ms && at > read_ms - FRAME_AGE_MAX_MS))
			at = read_ms;
		f->rx[kind](f->rx_arg[kind], ifname, buf, (size_t)n, at);
	}
	return true;
}

int frames_wake(struct frames *f, const char *ifname, bool on)
{
	struct frame_port *p = frames_find(f, ifname);
	int rc;

	if (!p || p->fd < 0)
		return -ENOENT;
	if (!f->ops->wake)
		return -EOPNOTSUPP;
	if (p->wake == on)
		return 0;
	rc = f->ops->wake(f->impl, p->fd, on);
	if (rc == 0)
		p->wake = on;
	return rc;
}

int frames_send(struct frames *f, const char *ifname, const uint8_t *buf,
                size_t len)
{
	struct frame_port *p = frames_find(f, ifname);
	int rc;

	if (!p || p->fd < 0)
		return -ENODEV;
	if (len < 14 || len > FRAME_MAX) {
		p->c.tx_errors++;
		return -EINVAL;
	}
	rc = f->ops->send(f->impl, p->fd, p->ifindex, buf, len);
	if (rc < 0) {
		p->c.tx_errors++;
		return rc;
	}
	p->c.tx++;
	return 0;
}

int frames_send_queued(struct frames *f, const char *ifname, const uint8_t *buf,
                       size_t len)
{
	struct frame_port *p = frames_find(f, ifname);
	int rc;

	if (!f->ops->send_queued)
		return frames_send(f, ifname, buf, len);
	if (!p || p->fd < 0)
		return -ENODEV;
	if (len < 14 || len > FRAME_MAX) {
		p->c.tx_errors++;
		return -EINVAL;
	}
	rc = f->ops->send_queued(f->impl, p->fd, p->ifindex, buf, len);
	if (rc < 0) {
		p->c.tx_errors++;
		return rc;
	}
	p->c.tx++;
	return 0;
}

int frames_port_master(const char *ifname)
{
	char path[128], target[PATH_MAX];
	const char *base;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/class/net/%s/master", ifname);
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return 0;
	target[n] = '\0';
	base = strrchr(target, '/');
	return (int)if_nametoindex(base ? base + 1 : target);
}

bool frames_port_bridged(const char *ifname)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/class/net/%s/brport", ifname);
	return access(path, F_OK) == 0;
}

bool frames_port_routes(const char *ifname)
{
	/* Either family: an IPv6-only router routes too. */
	static const char *const fam[] = {"ipv4", "ipv6"};

	for (size_t i = 0; i < 2; i++) {
		char path[128], c = '0';
		FILE *f;

		snprintf(path, sizeof(path),
		         "/proc/sys/net/%s/conf/%s/forwarding", fam[i], ifname);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (fread(&c, 1, 1, f) != 1)
			c = '0';
		fclose(f);
		if (c == '1')
			return true;
	}
	return false;
}
