/* test_lldp_agent: the LLDP agent (daemon/agent/lldp_agent.c) on fake
 * ports: frames handed in through a fake struct frame_ops and those it
 * sends captured in memory, time given by the test. No root, no kernel.
 *
 * Two agents are wired back to back (what one sends, the other receives),
 * as a switch (not willing, PFC on 3) and a host (willing), so that the
 * DCBX outcome is the real negotiation of two roced.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "agent/lldp_agent.h"

#define NCAP 64

/* One fake port per test agent: the frames it sent, and those waiting
 * to be received. */
struct fake {
	uint8_t sent[NCAP][FRAME_MAX];
	size_t sent_len[NCAP];
	size_t nsent;
	uint8_t rx[NCAP][2 * FRAME_MAX];
	size_t rx_len[NCAP];
	size_t nrx, rxpos;
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
	size_t n;

	(void)fd;
	(void)at_ms;
	if (k->rxpos == k->nrx) {
		k->rxpos = k->nrx = 0;
		return -EAGAIN;
	}
	/* As recvmsg() with MSG_TRUNC: the bytes that fit, and the whole
	 * length. */
	n = k->rx_len[k->rxpos] < len ? k->rx_len[k->rxpos] : len;
	memcpy(buf, k->rx[k->rxpos], n);
	return (ssize_t)k->rx_len[k->rxpos++];
}

static int fake_send(void *impl, int fd, int ifindex, const uint8_t *buf,
                     size_t len)
{
	struct fake *k = impl;

	(void)fd;
	(void)ifindex;
	if (k->nsent == NCAP)
		return -ENOBUFS;
	memcpy(k->sent[k->nsent], buf, len);
	k->sent_len[k->nsent++] = len;
	return 0;
}

static const struct frame_ops fake_ops = {
    .open = fake_open,
    .close = fake_close,
    .recv = fake_recv,
    .send = fake_send,
};

struct side {
	struct fake k;
	struct frames f;
	struct lldp_agent a;
	unsigned changes;
	const char *ifname;
};

static void on_change(void *arg, const struct lldp_port *p)
{
	struct side *s = arg;

	(void)p;
	s->changes++;
}

static const uint8_t mac_sw[6] = {0x02, 0, 0, 0, 0, 0x01};
static const uint8_t mac_host[6] = {0x02, 0, 0, 0, 0, 0x02};

static void side_init(struct side *s, const char *ifname, const uint8_t *mac,
                      bool willing, uint8_t pfc)
{
	struct lldp_agent_cfg c;
	struct lldp_agent_port_cfg pc;
	struct dcbx_tlvs t;

	memset(s, 0, sizeof(*s));
	s->ifname = ifname;
	frames_init(&s->f, &fake_ops, &s->k, NULL);
	lldp_agent_init(&s->a, &s->f, on_change, s);
	memset(&c, 0, sizeof(c));
	c.tx.interval_ms = 30000;
	c.tx.reinit_ms = 2000;
	c.holdtime = 120;
	c.dcbxp = true;
	snprintf(c.sys_name, sizeof(c.sys_name), "%s-sys", ifname);
	lldp_agent_configure(&s->a, &c, 0);
	assert_int_equal(frames_attach(&s->f, ifname, 7, mac), 0);
	memset(&pc, 0, sizeof(pc));
	pc.transmit = pc.receive = true;
	snprintf(pc.desc, sizeof(pc.desc), "%s", ifname);
	assert_int_equal(lldp_agent_port(&s->a, ifname, 7, mac, &pc, 0), 0);
	memset(&t, 0, sizeof(t));
	t.has_pfc = t.has_ets_cfg = t.has_ets_rec = true;
	t.pfc.willing = t.ets_cfg.willing = willing;
	t.pfc.cap = 8;
	t.pfc.enable = pfc;
	t.ets_cfg.max_tcs = 8;
	for (unsigned i = 0; i < 8; i++)
		t.ets_cfg.prio_tc[i] = (uint8_t)i;
	t.ets_cfg.tc_bw[0] = 100;
	t.ets_cfg.tsa[0] = DCBX_TSA_ETS;
	t.ets_rec = t.ets_cfg;
	lldp_agent_set_local(&s->a, ifname, &t, 0);
}

static void side_free(struct side *s)
{
	lldp_agent_free(&s->a, 0);
	frames_free(&s->f);
}

/* Everything FROM sent since the last call reaches TO. */
static size_t deliver(struct side *from, struct side *to, double now)
{
	size_t n = from->k.nsent;
	struct frame_port *p = frames_find(&to->f, to->ifname);

	for (size_t i = 0; i < n; i++) {
		memcpy(to->k.rx[to->k.nrx], from->k.sent[i],
		       from->k.sent_len[i]);
		to->k.rx_len[to->k.nrx++] = from->k.sent_len[i];
	}
	from->k.nsent = 0;
	frames_process(&to->f, p->fd, now);
	return n;
}

static void tick(struct side *s, double now)
{
	lldp_agent_tick(&s->a, now);
}

static void test_negotiation(void **state)
{
	struct side sw, host;
	const struct lldp_port *hp;
	struct lldp_pdu pdu;
	char err[128];

	(void)state;
	side_init(&sw, "swp1", mac_sw, false, 0x08);
	side_init(&host, "eth0", mac_host, true, 0);
	hp = lldp_agent_find(&host.a, "eth0");
	assert_non_null(hp);
	assert_true(hp->has_oper);
	assert_int_equal(hp->oper.pfc_why, DCBX_WHY_NO_PEER);
	/* The first frame goes at once, with the DCBX TLVs. */
	tick(&sw, 0);
	assert_int_equal(sw.k.nsent, 1);
	assert_int_equal(lldp_decode(sw.k.sent[0] + 14, sw.k.sent_len[0] - 14,
	                             &pdu, err, sizeof(err)),
	                 0);
	assert_int_equal(pdu.ttl, 120);
	assert_true(pdu.dcbx.has_pfc);
	assert_int_equal(pdu.dcbx.pfc.enable, 0x08);
	assert_string_equal(pdu.sys_name, "swp1-sys");
	assert_int_equal(deliver(&sw, &host, 10), 1);
	assert_true(hp->oper.pfc_agreed);
	assert_int_equal(hp->oper.pfc_why, DCBX_WHY_ADOPTED);
	assert_int_equal(hp->oper.pfc.enable, 0x08);
	assert_int_equal(host.changes, 2); /* no peer, then adopted */
	assert_int_equal(hp->c.frames_in, 1);
	assert_int_equal(hp->c.nbr_added, 1);
	/* The same frame again changes nothing. */
	tick(&sw, 1000);
	deliver(&sw, &host, 1010);
	assert_int_equal(host.changes, 2);
	/* TTL 0 (the switch stops): the host forgets it at once. */
	side_free(&sw);
	memcpy(host.k.rx[0], sw.k.sent[0], sw.k.sent_len[0]);
	host.k.rx_len[0] = sw.k.sent_len[0];
	host.k.nrx = 1;
	frames_process(&host.f, frames_find(&host.f, "eth0")->fd, 2000);
	assert_int_equal(hp->oper.pfc_why, DCBX_WHY_NO_PEER);
	assert_int_equal(hp->c.nbr_deleted, 1);
	assert_int_equal(hp->c.ageouts, 0);
	assert_int_equal(host.changes, 3);
	side_free(&host);
}

/* System Capabilities: station (able to bridge) on a port outside a
 * bridge, bridge once the port joins one, which the neighbour hears at
 * once (a fast start), not at the next interval. */
static void test_caps_bridge(void **state)
{
	struct side sw;
	struct lldp_agent_port_cfg pc;
	struct lldp_pdu pdu;
	char err[128];
	double now;

	(void)state;
	side_init(&sw, "swp1", mac_sw, false, 0x08);
	tick(&sw, 0);
	assert_int_equal(sw.k.nsent, 1);
	assert_int_equal(lldp_decode(sw.k.sent[0] + 14, sw.k.sent_len[0] - 14,
	                             &pdu, err, sizeof(err)),
	                 0);
	assert_true(pdu.has_caps);
	assert_int_equal(pdu.caps_sys, 0x84);     /* bridge, station */
	assert_int_equal(pdu.caps_enabled, 0x80); /* station */
	for (now = 0; now <= 40000; now += 100)
		tick(&sw, now);
	sw.k.nsent = 0;
	memset(&pc, 0, sizeof(pc));
	pc.transmit = pc.receive = true;
	pc.bridge = true;
	snprintf(pc.desc, sizeof(pc.desc), "swp1");
	assert_int_equal(lldp_agent_port(&sw.a, "swp1", 7, mac_sw, &pc, now),
	                 0);
	tick(&sw, now);
	assert_int_equal(sw.k.nsent, 1);
	assert_int_equal(lldp_decode(sw.k.sent[0] + 14, sw.k.sent_len[0] - 14,
	                             &pdu, err, sizeof(err)),
	                 0);
	assert_int_equal(pdu.caps_sys, 0x04);     /* bridge */
	assert_int_equal(pdu.caps_enabled, 0x04); /* bridge */
	/* The same settings again: nothing more to say. */
	sw.k.nsent = 0;
	for (double end = now + 4000; now <= end; now += 100) {
		assert_int_equal(
		    lldp_agent_port(&sw.a, "swp1", 7, mac_sw, &pc, now), 0);
		tick(&sw, now);
	}
	assert_int_equal(sw.k.nsent, 3); /* the rest of the fast start */
	side_free(&sw);
}

/* A routed port (IPv4 forwarding, no bridge) says router, enabled: the
 * neighbour's watchdog takes its pause for a switch's transit hold, as
 * it does a bridge's. The change is heard at once. */
static void test_caps_router(void **state)
{
	struct side sw;
	struct lldp_agent_port_cfg pc;
	struct lldp_pdu pdu;
	char err[128];
	double now;

	(void)state;
	side_init(&sw, "swp1", mac_sw, false, 0x08);
	for (now = 0; now <= 40000; now += 100)
		tick(&sw, now);
	sw.k.nsent = 0;
	memset(&pc, 0, sizeof(pc));
	pc.transmit = pc.receive = true;
	pc.router = true;
	snprintf(pc.desc, sizeof(pc.desc), "swp1");
	assert_int_equal(lldp_agent_port(&sw.a, "swp1", 7, mac_sw, &pc, now),
	                 0);
	tick(&sw, now);
	assert_int_equal(sw.k.nsent, 1);
	assert_int_equal(lldp_decode(sw.k.sent[0] + 14, sw.k.sent_len[0] - 14,
	                             &pdu, err, sizeof(err)),
	                 0);
	assert_true(pdu.has_caps);
	assert_int_equal(pdu.caps_sys, 0x14);     /* bridge, router */
	assert_int_equal(pdu.caps_enabled, 0x10); /* router */
	side_free(&sw);
}

/* Fast start: 4 frames 1 s apart, then the interval; a new neighbour
 * and a local change each start again; the credit caps a burst. */
static void test_tx_timers(void **state)
{
	struct side sw, host;
	struct lldp_port *sp;
	struct dcbx_tlvs t;
	double now = 0;

	(void)state;
	side_init(&sw, "swp1", mac_sw, false, 0x08);
	side_init(&host, "eth0", mac_host, true, 0);
	sp = lldp_agent_find(&sw.a, "swp1");
	for (now = 0; now <= 40000; now += 100)
		tick(&sw, now);
	/* 0, 1, 2, 3 s, then 33 s */
	assert_int_equal(sw.k.nsent, 5);
	assert_int_equal(lldp_agent_next(&sw.a), 63000);
	sw.k.nsent = 0;
	/* A new neighbour: a fast start from now. */
	tick(&host, now);
	deliver(&host, &sw, now);
	assert_int_equal(sp->c.nbr_added, 1);
	for (double end = now + 3500; now <= end; now += 100)
		tick(&sw, now);
	assert_int_equal(sw.k.nsent, 4);
	sw.k.nsent = 0;
	/* A local change in a burst of changes: the credit (5) caps it. */
	t = sp->local;
	for (int i = 0; i < 10; i++) {
		t.pfc.enable = (uint8_t)(1u << (i % 8));
		lldp_agent_set_local(&sw.a, "swp1", &t, now);
		tick(&sw, now);
	}
	assert_true(sw.k.nsent <= 5);
	side_free(&sw);
	side_free(&host);
}

/* Age-out at the received TTL, counted; more than one neighbour counted,
 * and then the port has no DCBX peer (multiple peers, their TLVs
 * ignored, its own values run) until one is left, which becomes the
 * peer; malformed frames counted, never kept. */
static void test_rx(void **state)
{
	struct side sw, host, other;
	const struct lldp_port *hp;
	const struct lldp_nbr *peer;
	unsigned count = 0;
	uint8_t junk[60];

	(void)state;
	side_init(&sw, "swp1", mac_sw, false, 0x08);
	side_init(&host, "eth0", mac_host, true, 0);
	side_init(&other, "swp9", mac_host, false, 0x10);
	hp = lldp_agent_find(&host.a, "eth0");
	tick(&sw, 0);
	deliver(&sw, &host, 0);
	tick(&other, 500);
	deliver(&other, &host, 500);
	peer = lldp_port_peer(hp, &count);
	assert_int_equal(count, 2);
	assert_null(peer);
	assert_int_equal(hp->oper.pfc.enable, 0);
	assert_false(hp->oper.pfc_agreed);
	assert_int_equal(hp->oper.pfc_why, DCBX_WHY_MULTI_PEERS);
	assert_int_equal(hp->oper.ets_why, DCBX_WHY_MULTI_PEERS);
	assert_true(hp->multi);
	assert_int_equal(hp->c.multi_peers, 1);
	assert_int_equal(hp->c.dcbx_ignored, 1);
	/* TTL 120 s: both gone after it, counted as age-outs; the first
	 * goes first, and the other becomes the peer meanwhile. */
	assert_true(lldp_agent_next(&host.a) <= 120000);
	tick(&host, 120000);
	assert_int_equal(hp->c.ageouts, 1);
	peer = lldp_port_peer(hp, &count);
	assert_int_equal(count, 1);
	assert_memory_equal(peer->pdu.port.v, "swp9", 4);
	assert_false(hp->multi);
	assert_int_equal(hp->oper.pfc.enable, 0x10);
	tick(&host, 120600);
	assert_int_equal(hp->c.ageouts, 2);
	assert_null(lldp_port_peer(hp, &count));
	assert_int_equal(hp->oper.pfc_why, DCBX_WHY_NO_PEER);
	/* Malformed: an LLDP frame with a TLV that overruns it. */
	memset(junk, 0, sizeof(junk));
	memcpy(junk, "\x01\x80\xc2\x00\x00\x0e\x02\x00\x00\x00\x00\x05\x88\xcc",
	       14);
	junk[14] = 0x02;
	junk[15] = 0xff;
	for (int i = 0; i < 10; i++) {
		memcpy(host.k.rx[i], junk, sizeof(junk));
		host.k.rx_len[i] = sizeof(junk);
	}
	host.k.nrx = 10;
	frames_process(&host.f, frames_find(&host.f, "eth0")->fd, 130000);
	assert_int_equal(hp->c.malformed, 10);
	assert_null(lldp_port_peer(hp, &count));
	side_free(&sw);
	side_free(&host);
	side_free(&other);
}

/* A TLV of type 127 (organizationally specific, an OUI roced does not
 * know) of LEN bytes in all at W. Returns LEN. */
static size_t put_org_tlv(uint8_t *w, size_t len)
{
	size_t v = len - 2;

	w[0] = (uint8_t)(127 << 1 | v >> 8);
	w[1] = (uint8_t)(v & 0xff);
	w[2] = 0x00, w[3] = 0x12, w[4] = 0x34, w[5] = 0x09;
	memset(w + 6, 0x5a, v - 4);
	return len;
}

/* An LLDPDU longer than the receive buffer: the switch's frame with
 * unknown TLVs before its End so that the buffer ends on a TLV boundary,
 * and more after it. Cut to the buffer it would decode as a whole
 * LLDPDU (the End TLV is optional); it is malformed, and no neighbour. */
static void test_rx_long(void **state)
{
	struct side sw, host;
	const struct lldp_port *hp;
	size_t len, off;
	unsigned count = 0;
	uint8_t *w;

	(void)state;
	side_init(&sw, "swp1", mac_sw, false, 0x08);
	side_init(&host, "eth0", mac_host, true, 0);
	hp = lldp_agent_find(&host.a, "eth0");
	tick(&sw, 0);
	assert_int_equal(sw.k.nsent, 1);
	len = sw.k.sent_len[0] - 2; /* without its End TLV */
	w = host.k.rx[0];
	memcpy(w, sw.k.sent[0], len);
	off = len;
	while (FRAME_MAX - off > 300)
		off += put_org_tlv(w + off, 300);
	off += put_org_tlv(w + off, FRAME_MAX - off);
	assert_int_equal(off, FRAME_MAX);
	off += put_org_tlv(w + off, 200);
	w[off++] = 0, w[off++] = 0; /* End */
	host.k.rx_len[0] = off;
	host.k.nrx = 1;
	frames_process(&host.f, frames_find(&host.f, "eth0")->fd, 10);
	assert_int_equal(hp->c.frames_in, 1);
	assert_int_equal(hp->c.malformed, 1);
	assert_int_equal(hp->c.discarded, 1);
	assert_null(lldp_port_peer(hp, &count));
	assert_int_equal(count, 0);
	assert_int_equal(frames_find(&host.f, "eth0")->c.rx_long, 1);
	/* the same frame whole within the buffer is taken */
	host.k.rx_len[0] = sw.k.sent_len[0];
	memcpy(host.k.rx[0], sw.k.sent[0], sw.k.sent_len[0]);
	host.k.nrx = 1;
	frames_process(&host.f, frames_find(&host.f, "eth0")->fd, 20);
	assert_non_null(lldp_port_peer(hp, &count));
	assert_int_equal(hp->c.malformed, 1);
	side_free(&sw);
	side_free(&host);
}

/* SIDE's last frame as another station would forge it: from source
 * address SRC, with PFC ENABLE and TTL, into TO's receive queue. */
static void forge(const struct side *from, struct side *to, const uint8_t *src,
                  uint8_t enable, uint16_t ttl)
{
	static struct lldp_pdu pdu;
	char err[128];
	uint8_t *w = to->k.rx[to->k.nrx];
	int n;

	assert_int_equal(lldp_decode(from->k.sent[from->k.nsent - 1] + 14,
	                             from->k.sent_len[from->k.nsent - 1] - 14,
	                             &pdu, err, sizeof(err)),
	                 0);
	pdu.dcbx.pfc.enable = enable;
	pdu.ttl = ttl;
	memcpy(w, from->k.sent[from->k.nsent - 1], 14);
	memcpy(w + 6, src, 6);
	n = lldp_encode(&pdu, w + 14, sizeof(to->k.rx[0]) - 14);
	assert_true(n > 0);
	to->k.rx_len[to->k.nrx++] = 14 + (size_t)n;
}

/* Another station sends the DCBX peer's chassis and port ID from its
 * own source address, with PFC off: ignored (counted, the peer's PFC
 * kept), a shutdown LLDPDU of it too; once the peer has been silent for
 * its TTL and aged out, the new address is heard (a replaced NIC). */
static void test_msap_spoof(void **state)
{
	static const uint8_t mac_evil[6] = {0x02, 0, 0, 0, 0, 0x66};
	struct side sw, host;
	const struct lldp_port *hp;
	const struct lldp_nbr *peer;
	unsigned count = 0;

	(void)state;
	side_init(&sw, "swp1", mac_sw, false, 0x08);
	side_init(&host, "eth0", mac_host, true, 0);
	hp = lldp_agent_find(&host.a, "eth0");
	tick(&sw, 0);
	memcpy(host.k.rx[0], sw.k.sent[0], sw.k.sent_len[0]);
	host.k.rx_len[0] = sw.k.sent_len[0];
	host.k.nrx = 1;
	frames_process(&host.f, frames_find(&host.f, "eth0")->fd, 10);
	assert_int_equal(hp->oper.pfc.enable, 0x08);

	forge(&sw, &host, mac_evil, 0x00, 120);
	frames_process(&host.f, frames_find(&host.f, "eth0")->fd, 20);
	peer = lldp_port_peer(hp, &count);
	assert_int_equal(count, 1);
	assert_memory_equal(peer->mac, mac_sw, 6);
	assert_int_equal(peer->dcbx.pfc.enable, 0x08);
	assert_int_equal(hp->oper.pfc.enable, 0x08);
	assert_true(hp->oper.pfc_agreed);
	assert_int_equal(hp->c.msap_conflicts, 1);
	/* its shutdown LLDPDU does not drop the peer either */
	forge(&sw, &host, mac_evil, 0x00, 0);
	frames_process(&host.f, frames_find(&host.f, "eth0")->fd, 30);
	assert_non_null(lldp_port_peer(hp, &count));
	assert_int_equal(hp->oper.pfc.enable, 0x08);
	assert_int_equal(hp->c.msap_conflicts, 2);
	assert_int_equal(hp->c.nbr_deleted, 0);

	/* The peer itself goes on being heard. */
	forge(&sw, &host, mac_sw, 0x08, 120);
	frames_process(&host.f, frames_find(&host.f, "eth0")->fd, 1000);
	assert_int_equal(hp->c.msap_conflicts, 2);
	/* Silent for its TTL: aged out; the new address is then taken. */
	tick(&host, 1000 + 120000);
	assert_null(lldp_port_peer(hp, &count));
	forge(&sw, &host, mac_evil, 0x10, 120);
	frames_process(&host.f, frames_find(&host.f, "eth0")->fd, 122000);
	peer = lldp_port_peer(hp, &count);
	assert_non_null(peer);
	assert_memory_equal(peer->mac, mac_evil, 6);
	assert_int_equal(hp->oper.pfc.enable, 0x10);
	side_free(&sw);
	side_free(&host);
}

/* The last frame SIDE sent, decoded into PDU. */
static void last_sent(const struct side *s, struct lldp_pdu *pdu)
{
	char err[128];

	assert_true(s->k.nsent > 0);
	assert_int_equal(lldp_decode(s->k.sent[s->k.nsent - 1] + 14,
	                             s->k.sent_len[s->k.nsent - 1] - 14, pdu,
	                             err, sizeof(err)),
	                 0);
}

/* Two roced ends: the willing host advertises what it adopted, so the
 * switch (not willing) hears its own bitmap back: agreed at both ends.
 * Without a re-advertisement (a willing peer sending none), the switch
 * still agrees by the peer's willing bit. */
static void test_advertise_adopted(void **state)
{
	struct side sw, host;
	const struct lldp_port *hp, *sp;
	static struct lldp_pdu pdu;

	(void)state;
	side_init(&sw, "swp1", mac_sw, false, 0x08);
	side_init(&host, "eth0", mac_host, true, 0);
	hp = lldp_agent_find(&host.a, "eth0");
	sp = lldp_agent_find(&sw.a, "swp1");
	/* Before it heard the switch, the host advertises none... */
	tick(&host, 0);
	last_sent(&host, &pdu);
	assert_int_equal(pdu.dcbx.pfc.enable, 0);
	assert_true(pdu.dcbx.pfc.willing);
	/* ...which the switch takes as a willing peer's promise. */
	deliver(&host, &sw, 5);
	assert_int_equal(sp->oper.pfc_why, DCBX_WHY_PEER_WILLING);
	assert_true(sp->oper.pfc_agreed);
	tick(&sw, 10);
	deliver(&sw, &host, 20);
	assert_int_equal(hp->oper.pfc_why, DCBX_WHY_ADOPTED);
	/* The adoption sends at once (a fast start), with what it took. */
	host.k.nsent = 0;
	tick(&host, 30);
	assert_true(host.k.nsent > 0);
	last_sent(&host, &pdu);
	assert_int_equal(pdu.dcbx.pfc.enable, 0x08);
	assert_true(pdu.dcbx.pfc.willing);
	deliver(&host, &sw, 40);
	assert_int_equal(sp->oper.pfc_why, DCBX_WHY_AGREED);
	assert_true(sp->oper.pfc_agreed);
	/* A fixed point: the host's outcome stays "adopted". */
	tick(&sw, 2000);
	deliver(&sw, &host, 2010);
	assert_int_equal(hp->oper.pfc_why, DCBX_WHY_ADOPTED);
	side_free(&sw);
	side_free(&host);
}

/* A crowd elects no one: the peer beside a full table of newcomers is
 * no longer the DCBX peer, and when it leaves, none of the others is
 * elected while several remain. */
static void test_peer_kept(void **state)
{
	struct side sw, host, other;
	const struct lldp_port *hp;
	const struct lldp_nbr *peer;
	unsigned count;

	(void)state;
	side_init(&sw, "swp1", mac_sw, false, 0x08);
	side_init(&host, "eth0", mac_host, true, 0);
	hp = lldp_agent_find(&host.a, "eth0");
	tick(&sw, 0);
	deliver(&sw, &host, 0);
	for (unsigned i = 0; i < 3 * LLDP_AGENT_NBR_MAX; i++) {
		char name[16];

		snprintf(name, sizeof(name), "fl%u", i);
		side_init(&other, name, mac_host, false, 0x10);
		tick(&other, 100.0 + i);
		deliver(&other, &host, 100.0 + i);
		side_free(&other);
	}
	peer = lldp_port_peer(hp, &count);
	assert_int_equal(count, LLDP_AGENT_NBR_MAX);
	assert_null(peer);
	assert_int_equal(hp->oper.pfc.enable, 0);
	assert_int_equal(hp->oper.pfc_why, DCBX_WHY_MULTI_PEERS);
	assert_int_equal(hp->c.multi_peers, 1);
	/* One episode of multiple peers; no peer's values changed. */
	assert_int_equal(hp->c.peer_changes, 0);
	/* The switch leaves (TTL 0; the full table had let newer
	 * neighbours push it out already) while the crowd stays: none of
	 * the crowd is elected; the port has no DCBX peer. */
	sw.k.nsent = 0;
	lldp_agent_stop(&sw.a, "swp1", true, 500);
	deliver(&sw, &host, 500);
	peer = lldp_port_peer(hp, &count);
	assert_null(peer);
	assert_int_equal(count, LLDP_AGENT_NBR_MAX);
	assert_true(hp->multi);
	assert_int_equal(hp->oper.pfc_why, DCBX_WHY_MULTI_PEERS);
	side_free(&sw);
	side_free(&host);
}

/* What S sent since the last call reaches every side of TO (a hub). */
static void deliver_hub(struct side *from, struct side **to, size_t n,
                        double now)
{
	for (size_t k = 0; k < n; k++) {
		struct frame_port *p = frames_find(&to[k]->f, to[k]->ifname);

		for (size_t i = 0; i < from->k.nsent; i++) {
			memcpy(to[k]->k.rx[to[k]->k.nrx], from->k.sent[i],
			       from->k.sent_len[i]);
			to[k]->k.rx_len[to[k]->k.nrx++] = from->k.sent_len[i];
		}
		frames_process(&to[k]->f, p->fd, now);
	}
	from->k.nsent = 0;
}

/* A shared segment: a switch (not willing, PFC on 3) and a willing host
 * run PFC on 3; a second willing host joins: every port hears two
 * neighbours, and none of the three negotiates (the late host does not
 * elect the first one, the first one does not keep the switch). When
 * the first host leaves, the late one adopts the switch's PFC exactly as
 * the first did. */
static void test_shared_segment(void **state)
{
	static const uint8_t mac_h2[6] = {0x02, 0, 0, 0, 0, 0x03};
	struct side sw, h1, h2;
	struct side *to_sw[] = {&h1, &h2}, *to_h1[] = {&sw, &h2},
	            *to_h2[] = {&sw, &h1};
	const struct lldp_port *sp, *p1, *p2;
	unsigned count;

	(void)state;
	side_init(&sw, "swp1", mac_sw, false, 0x08);
	side_init(&h1, "eth0", mac_host, true, 0);
	side_init(&h2, "eth1", mac_h2, true, 0);
	sp = lldp_agent_find(&sw.a, "swp1");
	p1 = lldp_agent_find(&h1.a, "eth0");
	p2 = lldp_agent_find(&h2.a, "eth1");
	tick(&sw, 0);
	tick(&h1, 0);
	deliver(&sw, &h1, 10);
	deliver(&h1, &sw, 10);
	assert_int_equal(p1->oper.pfc_why, DCBX_WHY_ADOPTED);
	assert_int_equal(p1->oper.pfc.enable, 0x08);
	/* The late host joins the hub. */
	tick(&h2, 1000);
	deliver_hub(&h2, to_h2, 2, 1000);
	tick(&sw, 1000);
	tick(&h1, 1000);
	deliver_hub(&sw, to_sw, 2, 1010);
	deliver_hub(&h1, to_h1, 2, 1010);
	for (size_t i = 0; i < 3; i++) {
		const struct lldp_port *p = i == 0 ? sp : i == 1 ? p1 : p2;

		assert_null(lldp_port_peer(p, &count));
		assert_int_equal(count, 2);
		assert_true(p->multi);
		assert_false(p->oper.pfc_agreed);
		assert_int_equal(p->oper.pfc_why, DCBX_WHY_MULTI_PEERS);
		assert_int_equal(p->oper.ets_why, DCBX_WHY_MULTI_PEERS);
		assert_int_equal(p->oper.app_why, DCBX_WHY_MULTI_PEERS);
		assert_int_equal(p->c.multi_peers, 1);
	}
	assert_int_equal(p2->oper.pfc.enable, 0);
	/* The first host leaves (TTL 0): the late one is alone with the
	 * switch and adopts its PFC, as the first did. */
	lldp_agent_stop(&h1.a, "eth0", true, 2000);
	deliver_hub(&h1, to_h1, 2, 2000);
	assert_false(p2->multi);
	assert_memory_equal(lldp_port_peer(p2, NULL)->pdu.port.v, "swp1", 4);
	assert_int_equal(p2->oper.pfc_why, DCBX_WHY_ADOPTED);
	assert_int_equal(p2->oper.pfc.enable, 0x08);
	assert_false(sp->multi);
	assert_memory_equal(lldp_port_peer(sp, NULL)->pdu.port.v, "eth1", 4);
	side_free(&sw);
	side_free(&h1);
	side_free(&h2);
}

/* A port that stops sends its shutdown frame (TTL 0, mandatory TLVs
 * only); `no lldp transmit` too; `no lldp receive` discards. */
static void test_shutdown(void **state)
{
	struct side sw;
	struct lldp_agent_port_cfg pc;
	struct lldp_pdu pdu;
	char err[128];

	(void)state;
	side_init(&sw, "swp1", mac_sw, false, 0x08);
	tick(&sw, 0);
	sw.k.nsent = 0;
	memset(&pc, 0, sizeof(pc));
	pc.receive = true;
	assert_int_equal(lldp_agent_port(&sw.a, "swp1", 7, mac_sw, &pc, 100),
	                 0);
	assert_int_equal(sw.k.nsent, 1);
	assert_int_equal(lldp_decode(sw.k.sent[0] + 14, sw.k.sent_len[0] - 14,
	                             &pdu, err, sizeof(err)),
	                 0);
	assert_int_equal(pdu.ttl, 0);
	assert_false(pdu.dcbx.has_pfc);
	assert_int_equal(sw.k.sent_len[0], 60);
	for (double now = 100; now < 500; now += 100)
		tick(&sw, now);
	assert_int_equal(sw.k.nsent, 1);
	/* transmit again at once: only after the reinit delay (2 s from
	 * the stop), then a fast start. */
	pc.transmit = true;
	assert_int_equal(lldp_agent_port(&sw.a, "swp1", 7, mac_sw, &pc, 500),
	                 0);
	for (double now = 500; now < 2100; now += 100)
		tick(&sw, now);
	assert_int_equal(sw.k.nsent, 1);
	tick(&sw, 2100);
	assert_int_equal(sw.k.nsent, 2);
	/* The port leaves the configuration: the sweep sends TTL 0. */
	sw.k.nsent = 0;
	lldp_agent_sweep(&sw.a, 103000); /* marked by the last port call */
	assert_int_equal(sw.k.nsent, 0);
	lldp_agent_sweep(&sw.a, 103000);
	assert_int_equal(sw.k.nsent, 1);
	assert_null(lldp_agent_find(&sw.a, "swp1"));
	side_free(&sw);
}

/* `no lldp tlv-select dcbxp`: no DCBX TLVs sent, no DCBX outcome; back
 * on, both come back. A carrier that returns makes a fast start. */
static void test_no_dcbxp(void **state)
{
	struct side sw, host;
	const struct lldp_port *hp;
	struct lldp_agent_cfg c;
	struct lldp_pdu pdu;
	char err[128];

	(void)state;
	side_init(&sw, "swp1", mac_sw, false, 0x08);
	side_init(&host, "eth0", mac_host, true, 0);
	hp = lldp_agent_find(&host.a, "eth0");
	c = sw.a.cfg;
	c.dcbxp = false;
	lldp_agent_configure(&sw.a, &c, 0);
	tick(&sw, 0);
	assert_int_equal(lldp_decode(sw.k.sent[0] + 14, sw.k.sent_len[0] - 14,
	                             &pdu, err, sizeof(err)),
	                 0);
	assert_false(pdu.dcbx.has_pfc || pdu.dcbx.has_ets_cfg ||
	             pdu.dcbx.has_ets_rec || pdu.dcbx.has_app);
	assert_false(lldp_agent_find(&sw.a, "swp1")->has_oper);
	deliver(&sw, &host, 0);
	assert_int_equal(hp->oper.pfc_why, DCBX_WHY_NO_TLV);
	c = host.a.cfg;
	c.dcbxp = false;
	lldp_agent_configure(&host.a, &c, 100);
	assert_false(hp->has_oper);
	c.dcbxp = true;
	lldp_agent_configure(&host.a, &c, 200);
	assert_true(hp->has_oper);
	/* Carrier: lost, then back: four frames again from then on. */
	for (double now = 0; now < 40000; now += 500)
		tick(&host, now);
	host.k.nsent = 0;
	lldp_agent_carrier(&host.a, "eth0", false, 40000);
	lldp_agent_carrier(&host.a, "eth0", true, 41000);
	for (double now = 41000; now < 45000; now += 100)
		tick(&host, now);
	assert_int_equal(host.k.nsent, 4);
	side_free(&sw);
	side_free(&host);
}

/* A switch that speaks only legacy CEE DCBX (tests/fixtures/lldp/
 * legacy.hex, line 1, with its PG and PFC willing bits cleared: not
 * willing, PFC on 3, PG 0 and 1 50 % each): a willing roced takes its
 * PFC and groups through lldp_cee_to_dcbx, and says the peer speaks CEE. */
static void test_cee_peer(void **state)
{
	static const char hex[] =
	    "0180c200000e02000000000288cc02070402000000000204050565746830"
	    "06020078fe37001b2102020a000000000005000000040411000080000001"
	    "00003232000000000000080606000080000808080a0000c00012b7011b21"
	    "080000";
	struct side host;
	const struct lldp_port *hp;
	const struct lldp_nbr *peer;
	uint8_t buf[128];
	size_t n = 0;

	(void)state;
	for (const char *h = hex; h[0] && h[1]; h += 2)
		sscanf(h, "%2hhx", &buf[n++]);
	side_init(&host, "eth0", mac_host, true, 0);
	hp = lldp_agent_find(&host.a, "eth0");
	memcpy(host.k.rx[0], buf, n);
	host.k.rx_len[0] = n;
	host.k.nrx = 1;
	frames_process(&host.f, frames_find(&host.f, "eth0")->fd, 0);
	assert_int_equal(hp->c.malformed, 0);
	peer = lldp_port_peer(hp, NULL);
	assert_non_null(peer);
	assert_true(peer->dcbx.cee && peer->pdu.dcbx.cee);
	assert_false(peer->pdu.dcbx.has_pfc);
	assert_true(peer->dcbx.has_pfc);
	assert_false(peer->dcbx.pfc.willing);
	assert_int_equal(hp->oper.pfc_why, DCBX_WHY_ADOPTED);
	assert_true(hp->oper.pfc_agreed);
	assert_int_equal(hp->oper.pfc.enable, 0x08);
	assert_int_equal(hp->oper.ets_why, DCBX_WHY_ADOPTED);
	assert_int_equal(hp->oper.ets.tc_bw[0], 50);
	assert_int_equal(hp->oper.ets.tc_bw[1], 50);
	assert_int_equal(hp->oper.ets.prio_tc[3], 1);
	side_free(&host);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_negotiation),
	    cmocka_unit_test(test_tx_timers),
	    cmocka_unit_test(test_caps_bridge),
	    cmocka_unit_test(test_caps_router),
	    cmocka_unit_test(test_rx),
	    cmocka_unit_test(test_advertise_adopted),
	    cmocka_unit_test(test_peer_kept),
	    cmocka_unit_test(test_shared_segment),
	    cmocka_unit_test(test_shutdown),
	    cmocka_unit_test(test_rx_long),
	    cmocka_unit_test(test_msap_spoof),
	    cmocka_unit_test(test_no_dcbxp),
	    cmocka_unit_test(test_cee_peer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
