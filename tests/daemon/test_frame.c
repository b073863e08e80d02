/* Tests for daemon/agent/frame.c and frame_packet.c: the raw-frame layer
 * on real veth and bridge ports inside a private network namespace that
 * dies with the test process, and its dispatch with fake ports. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "agent/agents.h"
#include "agent/frame.h"
#include "plan/compile.h"

struct heard {
	int n[FRAME_NKINDS];
	char ifname[FRAME_IFNAME_MAX];
	uint8_t last[FRAME_MAX];
	size_t len;
	double at; /* the last MAC Control frame's time */
};

static void on_lldp(void *arg, const char *ifname, const uint8_t *buf,
                    size_t len, double now)
{
	struct heard *h = arg;

	(void)now;
	h->n[FRAME_LLDP]++;
	snprintf(h->ifname, sizeof(h->ifname), "%s", ifname);
	memcpy(h->last, buf, len);
	h->len = len;
}

static void on_macc(void *arg, const char *ifname, const uint8_t *buf,
                    size_t len, double now)
{
	struct heard *h = arg;

	h->at = now;
	h->n[FRAME_MACC]++;
	snprintf(h->ifname, sizeof(h->ifname), "%s", ifname);
	memcpy(h->last, buf, len);
	h->len = len;
}

static void on_data(void *arg, const char *ifname, const uint8_t *buf,
                    size_t len, double now)
{
	struct heard *h = arg;

	(void)now;
	h->n[FRAME_DATA]++;
	snprintf(h->ifname, sizeof(h->ifname), "%s", ifname);
	memcpy(h->last, buf, len);
	h->len = len;
}

static void sh(const char *cmd)
{
	assert_int_equal(system(cmd), 0);
}

static void port_addr(const char *ifname, int *ifindex, uint8_t mac[6])
{
	struct ifreq ifr = {0};
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	assert_true(fd >= 0);
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	assert_int_equal(ioctl(fd, SIOCGIFINDEX, &ifr), 0);
	*ifindex = ifr.ifr_ifindex;
	assert_int_equal(ioctl(fd, SIOCGIFHWADDR, &ifr), 0);
	memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	close(fd);
}

static void attach(struct frames *f, const char *ifname)
{
	uint8_t mac[6];
	int ifindex;

	port_addr(ifname, &ifindex, mac);
	assert_int_equal(frames_attach(f, ifname, ifindex, mac), 0);
}

/* A frame to DST of TYPE from SRC, padded to the Ethernet minimum. */
static size_t frame(uint8_t *buf, const uint8_t dst[6], const uint8_t src[6],
                    uint16_t type, uint8_t fill)
{
	memset(buf, fill, 60);
	memcpy(buf, dst, 6);
	memcpy(buf + 6, src, 6);
	buf[12] = type >> 8;
	buf[13] = type & 0xff;
	return 60;
}

/* Wait up to MS for frames on IFNAME's socket and dispatch them. */
static void pump(struct frames *f, const char *ifname, int ms)
{
	struct frame_port *p = frames_find(f, ifname);
	struct pollfd pfd = {.fd = p->fd, .events = POLLIN};

	while (ms > 0) {
		if (poll(&pfd, 1, 10) > 0)
			frames_process(f, pfd.fd, 0);
		ms -= 10;
	}
}

static const uint8_t lldp_dst[6] = {0x01, 0x80, 0xc2, 0x00, 0x00, 0x0e};
static const uint8_t macc_dst[6] = {0x01, 0x80, 0xc2, 0x00, 0x00, 0x01};
static const uint8_t other_dst[6] = {0x01, 0x80, 0xc2, 0x00, 0x00, 0x03};
static const uint8_t src[6] = {0x02, 0, 0, 0, 0, 0x42};

/* LLDP and MAC Control pass the filter to their receivers; other frames
 * (another group address, another EtherType) never wake the socket, and
 * a port does not hear what it sends itself. */
static void test_veth(void **state)
{
	struct frames f;
	struct heard h = {0};
	uint8_t buf[FRAME_MAX];
	size_t len;

	(void)state;
	sh("ip link add fa0 type veth peer name fb0 && ip link set fa0 up && "
	   "ip link set fb0 up");
	frames_init(&f, &frame_ops_packet, NULL, NULL);
	frames_listen(&f, FRAME_LLDP, on_lldp, &h);
	frames_listen(&f, FRAME_MACC, on_macc, &h);
	attach(&f, "fa0");
	attach(&f, "fb0");

	len = frame(buf, lldp_dst, src, 0x88cc, 0xaa);
	assert_int_equal(frames_send(&f, "fa0", buf, len), 0);
	len = frame(buf, other_dst, src, 0x88cc, 0xbb);
	assert_int_equal(frames_send(&f, "fa0", buf, len), 0);
	len = frame(buf, lldp_dst, src, 0x0800, 0xcc);
	assert_int_equal(frames_send(&f, "fa0", buf, len), 0);
	len = frame(buf, macc_dst, src, ETH_P_MACC, 0xdd);
	assert_int_equal(frames_send(&f, "fa0", buf, len), 0);
	pump(&f, "fb0", 200);
	pump(&f, "fa0", 50);

	assert_int_equal(h.n[FRAME_LLDP], 1);
	assert_int_equal(h.n[FRAME_MACC], 1);
	assert_string_equal(h.ifname, "fb0");
	assert_int_equal(h.len, 60);
	assert_int_equal(h.last[20], 0xdd);
	assert_int_equal(frames_find(&f, "fb0")->c.rx, 2);
	assert_int_equal(frames_find(&f, "fb0")->c.rx_other, 0);
	assert_int_equal(frames_find(&f, "fa0")->c.rx, 0);
	assert_int_equal(frames_find(&f, "fa0")->c.tx, 4);

	/* A frame read late is dated when it arrived (a pause counts from
	 * its reception, however late a loaded roced reads it). */
	{
		struct timespec ts;
		double t0, now;

		len = frame(buf, macc_dst, src, ETH_P_MACC, 0xee);
		clock_gettime(CLOCK_MONOTONIC, &ts);
		t0 = (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
		assert_int_equal(frames_send(&f, "fa0", buf, len), 0);
		usleep(80000);
		clock_gettime(CLOCK_MONOTONIC, &ts);
		now = (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
		frames_process(&f, frames_find(&f, "fb0")->fd, now);
		assert_int_equal(h.n[FRAME_MACC], 2);
		assert_true(h.at >= t0 - 1.0 && h.at <= now - 50.0);
	}

	/* Nobody listens for MAC Control: counted, not delivered. */
	frames_listen(&f, FRAME_MACC, NULL, NULL);
	assert_int_equal(frames_send(&f, "fa0", buf, len), 0);
	pump(&f, "fb0", 100);
	assert_int_equal(h.n[FRAME_MACC], 2);
	assert_int_equal(frames_find(&f, "fb0")->c.rx_other, 1);

	/* A frame too short or too long is not sent. */
	assert_int_equal(frames_send(&f, "fa0", buf, 10), -EINVAL);
	assert_int_equal(frames_send(&f, "nope", buf, len), -ENODEV);

	frames_free(&f);
	sh("ip link del fa0");
}

/* A bridge drops MAC Control frames and keeps link-local groups to
 * itself, yet the port's socket hears both; a port that goes and comes
 * back (a new ifindex) is heard again after attach. */
static void test_bridge_port(void **state)
{
	struct frames f;
	struct heard h = {0};
	uint8_t buf[FRAME_MAX];
	size_t len;

	(void)state;
	sh("ip link add br0 type bridge && ip link set br0 up && "
	   "ip link add fa1 type veth peer name fb1 && "
	   "ip link set fb1 master br0 && ip link set fa1 up && "
	   "ip link set fb1 up");
	frames_init(&f, &frame_ops_packet, NULL, NULL);
	frames_listen(&f, FRAME_LLDP, on_lldp, &h);
	frames_listen(&f, FRAME_MACC, on_macc, &h);
	attach(&f, "fa1");
	attach(&f, "fb1");
	len = frame(buf, macc_dst, src, ETH_P_MACC, 0x11);
	assert_int_equal(frames_send(&f, "fa1", buf, len), 0);
	len = frame(buf, lldp_dst, src, 0x88cc, 0x22);
	assert_int_equal(frames_send(&f, "fa1", buf, len), 0);
	pump(&f, "fb1", 200);
	assert_int_equal(h.n[FRAME_MACC], 1);
	assert_int_equal(h.n[FRAME_LLDP], 1);

	/* Gone and back: the old socket is bound to a dead ifindex. */
	sh("ip link del fa1 && ip link add fa1 type veth peer name fb1 && "
	   "ip link set fb1 master br0 && ip link set fa1 up && "
	   "ip link set fb1 up");
	attach(&f, "fa1");
	attach(&f, "fb1");
	assert_int_equal(f.n, 2);
	assert_int_equal(frames_send(&f, "fa1", buf, len), 0);
	pump(&f, "fb1", 200);
	assert_int_equal(h.n[FRAME_LLDP], 2);
	/* The counters are the port's: they survive the new socket. */
	assert_int_equal(frames_find(&f, "fb1")->c.rx, 3);

	frames_detach(&f, "fb1");
	assert_null(frames_find(&f, "fb1"));
	assert_int_equal(f.n, 1);
	frames_free(&f);
	sh("ip link del fa1 && ip link del br0");
}

/* The wake: while armed, the IP and tagged frames coming in reach
 * FRAME_DATA's receiver cut to their header, LLDP and MAC Control still
 * whole, ARP never; disarmed, the filter is as before. */
static void test_wake(void **state)
{
	struct frames f;
	struct heard h = {0};
	uint8_t buf[FRAME_MAX];
	const uint16_t types[] = {0x0800, 0x86dd, 0x8100, 0x88a8, 0x0806};
	size_t len;

	(void)state;
	/* IPv6 off: the links' own start-up (router solicitations, MLD
	 * reports) would wake the socket too. Where /proc/sys is read-only
	 * (a container), through a fresh proc in a mount namespace of its
	 * own: net.* values are this network namespace's either way. */
	sh("k='net.ipv6.conf.all.disable_ipv6=1 "
	   "net.ipv6.conf.default.disable_ipv6=1'; "
	   "{ sysctl -qw $k 2>/dev/null || unshare -m sh -c "
	   "\"mount -t proc proc /proc && sysctl -qw $k\"; } && "
	   "ip link add fa2 type veth peer name fb2 && ip link set fa2 up && "
	   "ip link set fb2 up");
	frames_init(&f, &frame_ops_packet, NULL, NULL);
	frames_listen(&f, FRAME_LLDP, on_lldp, &h);
	frames_listen(&f, FRAME_DATA, on_data, &h);
	attach(&f, "fa2");
	attach(&f, "fb2");

	/* Disarmed: data never reaches the socket. */
	len = frame(buf, src, src, 0x0800, 0x33);
	assert_int_equal(frames_send(&f, "fa2", buf, len), 0);
	pump(&f, "fb2", 100);
	assert_int_equal(h.n[FRAME_DATA], 0);
	assert_int_equal(frames_find(&f, "fb2")->c.rx_other, 0);

	assert_int_equal(frames_wake(&f, "fb2", true), 0);
	assert_true(frames_find(&f, "fb2")->wake);
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		len = frame(buf, src, src, types[i], 0x44);
		/* A tagged frame carries IPv4 (the kernel takes the tag off
		 * before the taps see it). */
		buf[16] = 0x08;
		buf[17] = 0x00;
		assert_int_equal(frames_send(&f, "fa2", buf, len), 0);
	}
	len = frame(buf, lldp_dst, src, 0x88cc, 0x55);
	assert_int_equal(frames_send(&f, "fa2", buf, len), 0);
	pump(&f, "fb2", 200);
	assert_int_equal(h.n[FRAME_DATA], 4);
	assert_int_equal(h.n[FRAME_LLDP], 1);
	assert_int_equal(h.len, 60); /* the LLDPDU, whole */
	assert_int_equal(frames_find(&f, "fb2")->c.rx_wake, 4);
	/* What the port sends itself never wakes it. */
	len = frame(buf, src, src, 0x0800, 0x66);
	assert_int_equal(frames_send(&f, "fb2", buf, len), 0);
	pump(&f, "fb2", 100);
	assert_int_equal(h.n[FRAME_DATA], 4);

	assert_int_equal(frames_wake(&f, "fb2", false), 0);
	assert_int_equal(frames_send(&f, "fa2", buf, len), 0);
	pump(&f, "fb2", 100);
	assert_int_equal(h.n[FRAME_DATA], 4);
	assert_int_equal(frames_wake(&f, "nope", true), -ENOENT);

	frames_free(&f);
	sh("ip link del fa2");
}

/* Fake ports: a queue of frames per fd. */
struct fake {
	uint8_t q[200][64];
	size_t len[200];
	size_t head, tail;
	int sent;
	double at[200]; /* the stamp the op gives; 0: none */
};

static int fake_open(void *impl, int ifindex)
{
	(void)impl;
	return 100 + ifindex;
}

static void fake_close(void *impl, int fd)
{
	(void)impl;
	(void)fd;
}

static ssize_t fake_recv(void *impl, int fd, uint8_t *buf, size_t len,
                         double *at_ms)
{
	struct fake *k = impl;

	(void)fd;
	if (k->head == k->tail)
		return -EAGAIN;
	if (k->at[k->head] != 0)
		*at_ms = k->at[k->head];
	len = len < k->len[k->head] ? len : k->len[k->head];
	memcpy(buf, k->q[k->head], len);
	k->head++;
	return (ssize_t)len;
}

static int fake_send(void *impl, int fd, int ifindex, const uint8_t *buf,
                     size_t len)
{
	struct fake *k = impl;

	(void)fd;
	(void)ifindex;
	(void)buf;
	(void)len;
	k->sent++;
	return 0;
}

static const struct frame_ops fake_ops = {
    .open = fake_open,
    .close = fake_close,
    .recv = fake_recv,
    .send = fake_send,
};

/* The op's stamp reaches the receiver, unless it is in the future or
 * older than a socket can hold (a stepped clock): then the read's time. */
static void test_stamps(void **state)
{
	static struct fake k;
	struct frames f;
	struct heard h = {0};
	const uint8_t mac[6] = {2, 0, 0, 0, 0, 1};
	const double at[4] = {0, 900.0, 1500.0, -20000.0};
	const double want[4] = {1000.0, 900.0, 1000.0, 1000.0};

	(void)state;
	frames_init(&f, &fake_ops, &k, NULL);
	frames_listen(&f, FRAME_MACC, on_macc, &h);
	assert_int_equal(frames_attach(&f, "p1", 1, mac), 0);
	for (int i = 0; i < 4; i++) {
		k.at[k.tail] = at[i];
		k.len[k.tail] =
		    frame(k.q[k.tail], macc_dst, src, ETH_P_MACC, 0);
		k.tail++;
		frames_process(&f, 101, 1000.0);
		assert_int_equal(h.n[FRAME_MACC], i + 1);
		assert_true(h.at == want[i]);
	}
	frames_free(&f);
}

/* A read later than the loop's time (a batch read while a receiver
 * applied a plan): a stamp up to the read is the frame's, not clamped to
 * the loop's old time; one later than the read is not believed. */
static double fake_read_ms;
static double fake_now(void *impl)
{
	(void)impl;
	return fake_read_ms;
}

static void test_stamps_late_read(void **state)
{
	static struct fake k;
	static const struct frame_ops ops = {
	    .open = fake_open,
	    .close = fake_close,
	    .recv = fake_recv,
	    .send = fake_send,
	    .now = fake_now,
	};
	struct frames f;
	struct heard h = {0};
	const uint8_t mac[6] = {2, 0, 0, 0, 0, 1};
	const double at[3] = {1150.0, 1300.0, 0};
	const double want[3] = {1150.0, 1200.0, 1200.0};

	(void)state;
	memset(&k, 0, sizeof(k));
	fake_read_ms = 1200.0;
	frames_init(&f, &ops, &k, NULL);
	frames_listen(&f, FRAME_MACC, on_macc, &h);
	assert_int_equal(frames_attach(&f, "p1", 1, mac), 0);
	for (int i = 0; i < 3; i++) {
		k.at[k.tail] = at[i];
		k.len[k.tail] =
		    frame(k.q[k.tail], macc_dst, src, ETH_P_MACC, 0);
		k.tail++;
		frames_process(&f, 101, 1000.0);
		assert_int_equal(h.n[FRAME_MACC], i + 1);
		assert_true(h.at == want[i]);
	}
	frames_free(&f);
}

/* A flood is read in slices (the loop comes back for the rest), short
 * frames are counted, and a receiver that detaches its own port stops
 * the slice safely. */
static void test_batches(void **state)
{
	static struct fake k;
	struct frames f;
	struct heard h = {0};
	const uint8_t mac[6] = {2, 0, 0, 0, 0, 1};

	(void)state;
	frames_init(&f, &fake_ops, &k, NULL);
	frames_listen(&f, FRAME_LLDP, on_lldp, &h);
	assert_int_equal(frames_attach(&f, "p1", 1, mac), 0);
	assert_int_equal(frames_attach(&f, "p1", 1, mac), 0);
	assert_int_equal(f.n, 1);
	for (int i = 0; i < 150; i++)
		k.len[k.tail++] = frame(k.q[i], lldp_dst, src, 0x88cc, 0);
	k.len[k.tail++] = 5;
	frames_process(&f, 101, 0);
	assert_true(h.n[FRAME_LLDP] > 0 && h.n[FRAME_LLDP] < 150);
	frames_process(&f, 101, 0);
	frames_process(&f, 101, 0);
	frames_process(&f, 101, 0);
	assert_int_equal(h.n[FRAME_LLDP], 150);
	assert_int_equal(f.v[0].c.rx_short, 1);
	frames_process(&f, 999, 0); /* not ours: nothing */
	assert_non_null(frames_by_fd(&f, 101));
	assert_null(frames_by_fd(&f, 999));
	assert_int_equal(frames_attach(&f, "an-ifname-far-too-long", 2, mac),
	                 -ENAMETOOLONG);
	/* Fakes without a wake say so: their poller stays fast. */
	assert_int_equal(frames_wake(&f, "p1", true), -EOPNOTSUPP);
	assert_false(f.v[0].wake);
	frames_free(&f);
}

/* The agents follow the registry's applied plans, not the policy:
 * a port whose plan says roced runs LLDP gets its socket and its LLDP
 * port; a plan without LLDP keeps the socket (software PFC) but stops
 * LLDP; a release plan (a port roced lets go) has neither. */
static void test_agents_follow_plan(void **state)
{
	struct link_mon *lm = NULL;
	struct ports_port *e;
	struct agents a;
	struct policy p;
	struct ports r;
	struct caps k;

	(void)state;
	sh("ip link add ag0 type veth peer name ag0p && "
	   "ip link set ag0 up && ip link set ag0p up");
	assert_int_equal(link_mon_open(&lm, NULL, NULL), 0);
	caps_preset(&k, CAPS_PRESET_HOST);
	ports_init(&r, &k, false);
	policy_init(&p);
	compile_global(&p, &r.global);
	agents_init(&a, NULL, NULL, NULL);
	e = ports_get(&r, "ag0");
	assert_non_null(e);
	e->applied = true;
	e->plan.lldp = (struct plan_lldp){
	    .agent = PLAN_LLDP_ROCED, .transmit = true, .receive = true};
	agents_sync(&a, &r, lm);
	assert_non_null(frames_find(&a.frames, "ag0"));
	assert_non_null(lldp_agent_find(&a.lldp, "ag0"));
	e->plan.lldp = (struct plan_lldp){.agent = PLAN_LLDP_NONE,
	                                  .off = PLAN_LLDP_OFF_TXRX};
	agents_sync(&a, &r, lm);
	assert_non_null(frames_find(&a.frames, "ag0"));
	assert_null(lldp_agent_find(&a.lldp, "ag0"));
	e->plan.lldp.agent = PLAN_LLDP_ROCED;
	e->plan.dcb.unmanaged = true;
	agents_sync(&a, &r, lm);
	assert_null(frames_find(&a.frames, "ag0"));
	assert_null(lldp_agent_find(&a.lldp, "ag0"));
	agents_free(&a);
	ports_free(&r);
	policy_free(&p);
	link_mon_close(lm);
	sh("ip link del ag0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_batches),
	    cmocka_unit_test(test_veth),
	    cmocka_unit_test(test_bridge_port),
	    cmocka_unit_test(test_wake),
	    cmocka_unit_test(test_stamps),
	    cmocka_unit_test(test_stamps_late_read),
	    cmocka_unit_test(test_agents_follow_plan),
	};

	if (geteuid() != 0 || unshare(CLONE_NEWNET) < 0) {
		printf("SKIP: test_frame needs root to make a private network "
		       "namespace\n");
		return 77;
	}
	sh("ip link set lo up");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
