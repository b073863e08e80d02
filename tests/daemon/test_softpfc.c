/* test_softpfc: software PFC's receive side (daemon/agent/softpfc.c) on
 * frames built by the codec and a clock of the test's: a pause holds only
 * honoured priorities, for quanta x 512 bit times at the port's speed; a
 * refresh extends the hold, XON or expiry releases it; the daemon hears
 * each change of the held set once; every frame is counted, honoured or
 * not, XON apart; link pause; malformed frames; the kick frame. */
#include <errno.h>
#include <setjmp.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "agent/agents.h"
#include "agent/frame.h"
#include "agent/softpfc.h"

static const uint8_t peer[6] = {0x02, 0, 0, 0, 0, 0x02};

struct heard {
	unsigned calls;
	uint8_t held;
	bool lp;
	char ifname[16];
};

static void changed(void *arg, const char *ifname, uint8_t held, bool lp)
{
	struct heard *h = arg;

	h->calls++;
	h->held = held;
	h->lp = lp;
	snprintf(h->ifname, sizeof(h->ifname), "%s", ifname);
}

static void rx(struct softpfc *s, const char *ifname, enum pfc_frame_kind k,
               uint8_t prios, uint16_t quanta, double now)
{
	struct pfc_frame f;
	uint8_t buf[PFC_FRAME_MIN];

	pfc_frame_make(&f, k, peer, prios, quanta);
	assert_int_equal(pfc_frame_encode(&f, buf, sizeof(buf)), 60);
	softpfc_rx(s, ifname, buf, sizeof(buf), now);
}

static void test_hold_release(void **state)
{
	struct softpfc s;
	struct heard h = {0};
	struct softpfc_port *e;

	(void)state;
	softpfc_init(&s, changed, &h);
	assert_int_equal(
	    softpfc_configure(&s, "veth0", 0x08, false, 10000, 1000.0), 0);
	e = softpfc_port(&s, "veth0", false);
	assert_non_null(e);
	assert_int_equal(h.calls, 0);
	/* 65535 quanta at 1 Gb/s: 33.55 ms */
	softpfc_configure(&s, "veth0", 0x08, false, 1000, 1000.0);
	rx(&s, "veth0", PFC_FRAME_PFC, 0x08, 65535, 1000.0);
	assert_int_equal(h.calls, 1);
	assert_int_equal(h.held, 0x08);
	assert_string_equal(h.ifname, "veth0");
	assert_true(softpfc_next(&s) > 1033.55 && softpfc_next(&s) < 1033.56);
	/* a refresh: longer hold (at least SOFTPFC_REFRESH_MIN_MS), no new
	 * call */
	rx(&s, "veth0", PFC_FRAME_PFC, 0x08, 65535, 1020.0);
	assert_int_equal(h.calls, 1);
	softpfc_expire(&s, 1020.0 + SOFTPFC_REFRESH_MIN_MS - 10.0);
	assert_int_equal(e->held, 0x08);
	softpfc_expire(&s, 1020.0 + SOFTPFC_REFRESH_MIN_MS + 1.0);
	assert_int_equal(h.calls, 2);
	assert_int_equal(h.held, 0);
	assert_true(softpfc_next(&s) < 0);
	/* held 1000.0 -> 1020.0 + SOFTPFC_REFRESH_MIN_MS */
	assert_true(fabs(softpfc_held_ms(e, 3, 9000) - 20.0 -
	                 SOFTPFC_REFRESH_MIN_MS) < 0.01);
	/* at 10 Gb/s 65535 quanta are 3.4 ms: held the floor, 10 ms, and
	 * a refresh at least SOFTPFC_REFRESH_MIN_MS */
	softpfc_configure(&s, "veth0", 0x08, false, 10000, 1600.0);
	rx(&s, "veth0", PFC_FRAME_PFC, 0x08, 65535, 1600.0);
	assert_true(softpfc_next(&s) == 1600.0 + SOFTPFC_HOLD_MIN_MS);
	rx(&s, "veth0", PFC_FRAME_PFC, 0x08, 65535, 1605.0);
	assert_true(softpfc_next(&s) == 1605.0 + SOFTPFC_REFRESH_MIN_MS);
	softpfc_expire(&s, 1606.0 + SOFTPFC_REFRESH_MIN_MS);
	assert_int_equal(h.held, 0);
	assert_int_equal(h.calls, 4);
	/* XON releases at once */
	rx(&s, "veth0", PFC_FRAME_PFC, 0x08, 100, 2500.0);
	assert_int_equal(h.held, 0x08);
	rx(&s, "veth0", PFC_FRAME_PFC, 0x08, 0, 2500.001);
	assert_int_equal(h.held, 0);
	assert_int_equal(h.calls, 6);
	assert_int_equal(e->c.rx_pause[3], 5);
	assert_int_equal(e->c.rx_xon[3], 1);
	/* at 100 Mb/s a quantum is ten times longer than at 1 Gb/s */
	softpfc_configure(&s, "veth0", 0x08, false, 100, 3000.0);
	rx(&s, "veth0", PFC_FRAME_PFC, 0x08, 65535, 3000.0);
	assert_true(softpfc_next(&s) > 3335.5 && softpfc_next(&s) < 3335.6);
	softpfc_free(&s);
}

static bool peer_is_switch;
static unsigned peer_asked;

static bool switch_peer(void *arg, const char *ifname)
{
	(void)arg;
	(void)ifname;
	peer_asked++;
	return peer_is_switch;
}

/* A refresh is held SOFTPFC_REFRESH_MIN_MS only when the peer is a
 * switch; a host's (or an unknown peer's) SOFTPFC_REFRESH_HOST_MS, so
 * that short bursts of pause whose quanta run out let the port go
 * between them (pfcwd_nofalse). The answer is asked at most once per
 * SOFTPFC_PEER_CACHE_MS, not per frame. */
static void test_refresh_by_peer(void **state)
{
	struct softpfc s;
	struct heard h = {0};

	(void)state;
	softpfc_init(&s, changed, &h);
	s.switch_peer = switch_peer;
	peer_is_switch = false;
	peer_asked = 0;
	softpfc_configure(&s, "veth0", 0x08, false, 10000, 1000.0);
	rx(&s, "veth0", PFC_FRAME_PFC, 0x08, 65535, 1000.0);
	rx(&s, "veth0", PFC_FRAME_PFC, 0x08, 65535, 1005.0);
	assert_true(softpfc_next(&s) == 1005.0 + SOFTPFC_REFRESH_HOST_MS);
	softpfc_expire(&s, 1005.0 + SOFTPFC_REFRESH_HOST_MS + 1.0);
	assert_int_equal(h.held, 0);
	assert_int_equal(peer_asked, 1);
	/* the peer turns out a switch: taken at the next look */
	peer_is_switch = true;
	rx(&s, "veth0", PFC_FRAME_PFC, 0x08, 65535, 1100.0);
	rx(&s, "veth0", PFC_FRAME_PFC, 0x08, 65535, 1105.0);
	assert_true(softpfc_next(&s) == 1105.0 + SOFTPFC_REFRESH_HOST_MS);
	rx(&s, "veth0", PFC_FRAME_PFC, 0x08, 0, 1110.0);
	rx(&s, "veth0", PFC_FRAME_PFC, 0x08, 65535, 2100.0);
	rx(&s, "veth0", PFC_FRAME_PFC, 0x08, 65535, 2105.0);
	assert_true(softpfc_next(&s) == 2105.0 + SOFTPFC_REFRESH_MIN_MS);
	assert_int_equal(peer_asked, 2);
	softpfc_free(&s);
}

/* Pause for priorities that are not honoured holds nothing but is
 * counted (the watchdog's live counter); XON never counts as pause. */
static void test_not_honoured(void **state)
{
	struct softpfc s;
	struct heard h = {0};
	struct softpfc_port *e;

	(void)state;
	softpfc_init(&s, changed, &h);
	softpfc_configure(&s, "veth0", 0x08, false, 0, 0);
	e = softpfc_port(&s, "veth0", false);
	rx(&s, "veth0", PFC_FRAME_PFC, 0x11, 1000, 1.0);
	assert_int_equal(h.calls, 0);
	assert_int_equal(e->c.rx_pause[0], 1);
	assert_int_equal(e->c.rx_pause[4], 1);
	/* a held priority that the watchdog stops honouring: released */
	rx(&s, "veth0", PFC_FRAME_PFC, 0x08, 65535, 2.0);
	assert_int_equal(h.held, 0x08);
	softpfc_configure(&s, "veth0", 0x00, false, 0, 2.5);
	assert_int_equal(h.held, 0);
	/* ... and goes on counting */
	for (int i = 0; i < 10; i++)
		rx(&s, "veth0", PFC_FRAME_PFC, 0x08, 65535, 3.0 + i);
	assert_int_equal(e->c.rx_pause[3], 11);
	assert_int_equal(h.calls, 2);
	/* an XON storm: counted as XON only */
	for (int i = 0; i < 100; i++)
		rx(&s, "veth0", PFC_FRAME_PFC, 0x08, 0, 20.0 + i);
	assert_int_equal(e->c.rx_pause[3], 11);
	assert_int_equal(e->c.rx_xon[3], 100);
	/* frames of a port without an entry are ignored */
	rx(&s, "veth9", PFC_FRAME_PFC, 0x08, 65535, 200);
	assert_null(softpfc_port(&s, "veth9", false));
	softpfc_free(&s);
}

static void test_link_pause(void **state)
{
	struct softpfc s;
	struct heard h = {0};
	struct softpfc_port *e;

	(void)state;
	softpfc_init(&s, changed, &h);
	softpfc_configure(&s, "veth0", 0, false, 1000, 0);
	e = softpfc_port(&s, "veth0", false);
	rx(&s, "veth0", PFC_FRAME_PAUSE, 0, 1000, 1.0);
	assert_int_equal(h.calls, 0);
	assert_int_equal(e->c.rx_link_pause, 1);
	softpfc_configure(&s, "veth0", 0, true, 1000, 2.0);
	/* 50000 quanta at 1 Gb/s: 25.6 ms, the whole port (no priority) */
	rx(&s, "veth0", PFC_FRAME_PAUSE, 0, 50000, 3.0);
	assert_int_equal(h.calls, 1);
	assert_true(h.lp);
	assert_int_equal(h.held, 0);
	assert_true(softpfc_next(&s) > 28.59 && softpfc_next(&s) < 28.61);
	/* a PFC XON is no 802.3x XON: the port stays held */
	rx(&s, "veth0", PFC_FRAME_PFC, 0xff, 0, 3.05);
	assert_int_equal(h.calls, 1);
	assert_true(e->lp_held);
	rx(&s, "veth0", PFC_FRAME_PAUSE, 0, 0, 3.1);
	assert_int_equal(h.calls, 2);
	assert_false(h.lp);
	assert_int_equal(e->c.rx_link_xon, 1);
	assert_int_equal(e->c.rx_link_pause, 2);
	/* expiry releases: held 10.0 -> 35.6 ms */
	rx(&s, "veth0", PFC_FRAME_PAUSE, 0, 50000, 10.0);
	assert_true(h.lp);
	softpfc_expire(&s, 35.0);
	assert_true(h.lp);
	softpfc_expire(&s, 36.0);
	assert_false(h.lp);
	assert_int_equal(h.calls, 4);
	assert_true(softpfc_next(&s) < 0);
	/* 0.1 ms, then 25.6 ms */
	assert_true(softpfc_lp_held_ms(e, 100.0) > 25.69 &&
	            softpfc_lp_held_ms(e, 100.0) < 25.71);
	/* `flowcontrol receive off` while held: released, and later link
	 * pause is counted, never honoured */
	rx(&s, "veth0", PFC_FRAME_PAUSE, 0, 50000, 200.0);
	assert_true(h.lp);
	softpfc_configure(&s, "veth0", 0, false, 1000, 201.0);
	assert_false(h.lp);
	rx(&s, "veth0", PFC_FRAME_PAUSE, 0, 50000, 202.0);
	assert_false(h.lp);
	assert_int_equal(h.calls, 6);
	assert_int_equal(e->c.rx_link_pause, 5);
	softpfc_free(&s);
}

static void test_malformed_and_kick(void **state)
{
	struct softpfc s;
	struct heard h = {0};
	uint8_t buf[PFC_FRAME_MIN], kick[SOFTPFC_KICK_LEN];
	const uint8_t mac[6] = {0x02, 0x11, 0x22, 0x33, 0x44, 0x55};
	struct pfc_frame f;

	(void)state;
	softpfc_init(&s, changed, &h);
	softpfc_configure(&s, "veth0", 0xff, false, 0, 0);
	pfc_frame_make(&f, PFC_FRAME_PFC, peer, 0xff, 1000);
	pfc_frame_encode(&f, buf, sizeof(buf));
	/* cut in the middle of the pause times */
	softpfc_rx(&s, "veth0", buf, 25, 1.0);
	assert_int_equal(softpfc_port(&s, "veth0", false)->c.rx_malformed, 1);
	assert_int_equal(h.calls, 0);
	/* not MAC Control at all: ignored */
	softpfc_rx(&s, "veth0", buf, 10, 1.0);
	assert_int_equal(softpfc_port(&s, "veth0", false)->c.rx_malformed, 1);
	softpfc_kick_frame(mac, kick);
	assert_memory_equal(kick, mac, 6);
	assert_memory_equal(kick + 6, mac, 6);
	assert_int_equal(kick[12], 0x88);
	assert_int_equal(kick[13], 0xb5);
	/* the kick is nothing the codec takes for flow control */
	assert_int_equal(pfc_frame_decode(kick, sizeof(kick), &f, NULL, 0),
	                 -ENOMSG);
	softpfc_remove(&s, "veth0");
	assert_null(softpfc_port(&s, "veth0", false));
	softpfc_free(&s);
}

/* The time paused is what the peer asked for, even when roced is late:
 * a hold whose time ran out before roced came to release it ended then
 * (the watchdog's pause-duration counter must not take roced's own
 * lateness for a peer that paused without end), and the next frame
 * starts a new hold without telling the daemon twice. The last pause
 * frame is dated, honoured or not. */
static void test_late_loop(void **state)
{
	struct softpfc s;
	struct heard h = {0};
	struct softpfc_port *e;

	(void)state;
	softpfc_init(&s, changed, &h);
	softpfc_configure(&s, "veth0", 0x08, false, 10000, 1000.0);
	e = softpfc_port(&s, "veth0", false);
	rx(&s, "veth0", PFC_FRAME_PFC, 0x08, 65535, 1000.0);
	assert_int_equal(h.calls, 1);
	assert_true(e->c.last_pause_ms[3] == 1000.0);
	/* the loop did not run until 1100: held 10 ms, not 100 */
	assert_true(softpfc_held_ms(e, 3, 1100.0) == SOFTPFC_HOLD_MIN_MS);
	rx(&s, "veth0", PFC_FRAME_PFC, 0x08, 65535, 1100.0);
	assert_int_equal(h.calls, 1); /* still held: nothing to apply */
	assert_true(e->c.last_pause_ms[3] == 1100.0);
	assert_true(softpfc_held_ms(e, 3, 1105.0) == SOFTPFC_HOLD_MIN_MS + 5.0);
	/* a refresh in time goes on counting */
	rx(&s, "veth0", PFC_FRAME_PFC, 0x08, 65535, 1105.0);
	assert_true(softpfc_held_ms(e, 3, 1150.0) ==
	            SOFTPFC_HOLD_MIN_MS + 50.0);
	/* roced comes to the hold 45 ms after its end: it was stalled, and
	 * so may the peer have been; the hold is kept a refresh's time,
	 * but counts only what the peer asked for */
	softpfc_expire(&s, 1150.0 + SOFTPFC_REFRESH_MIN_MS);
	assert_int_equal(h.calls, 1);
	assert_int_equal(e->c.stall_kept, 1);
	assert_true(softpfc_next(&s) == 1150.0 + 2 * SOFTPFC_REFRESH_MIN_MS);
	softpfc_expire(&s, 1151.0 + 2 * SOFTPFC_REFRESH_MIN_MS);
	assert_int_equal(h.calls, 2);
	assert_true(softpfc_held_ms(e, 3, 9000.0) ==
	            SOFTPFC_HOLD_MIN_MS + 5.0 + SOFTPFC_REFRESH_MIN_MS);
	/* not honoured: dated all the same */
	softpfc_configure(&s, "veth0", 0x00, false, 10000, 9000.0);
	rx(&s, "veth0", PFC_FRAME_PFC, 0x08, 65535, 9100.0);
	assert_true(e->c.last_pause_ms[3] == 9100.0);
	assert_int_equal(e->held, 0);
	softpfc_free(&s);
}

/* A machine that stalls every process (both cores loaded: 65-170 ms,
 * several times a second) stalls the peer's refresh with roced's
 * release: the hold outlives the stall by a refresh's time, each time,
 * a refresh in that time goes on holding, and a peer that is gone is
 * let go SOFTPFC_GRACE_MAX_MS after its pause ran out at the latest
 * (roced late at every look). Link pause the same. */
static void test_stall_kept(void **state)
{
	const double r = SOFTPFC_REFRESH_MIN_MS;
	struct softpfc s;
	struct heard h = {0};
	struct softpfc_port *e;
	double t;

	(void)state;
	softpfc_init(&s, changed, &h);
	softpfc_configure(&s, "veth0", 0x08, true, 10000, 0.0);
	e = softpfc_port(&s, "veth0", false);
	rx(&s, "veth0", PFC_FRAME_PFC, 0x08, 65535, 100.0);
	rx(&s, "veth0", PFC_FRAME_PFC, 0x08, 65535, 102.0);
	/* on time (within SOFTPFC_STALL_MS): released */
	softpfc_expire(&s, 102.0 + r + SOFTPFC_STALL_MS - 1.0);
	assert_int_equal(h.held, 0);
	assert_int_equal(h.calls, 2);
	assert_int_equal(e->c.stall_kept, 0);
	/* a stall of 100 ms: kept, then the peer's refresh goes on */
	rx(&s, "veth0", PFC_FRAME_PFC, 0x08, 65535, 5000.0);
	rx(&s, "veth0", PFC_FRAME_PFC, 0x08, 65535, 5002.0);
	softpfc_expire(&s, 5102.0 + r);
	assert_int_equal(h.held, 0x08);
	assert_int_equal(e->c.stall_kept, 1);
	rx(&s, "veth0", PFC_FRAME_PFC, 0x08, 65535, 5103.0 + r);
	assert_true(softpfc_next(&s) == 5103.0 + 2 * r);
	softpfc_expire(&s, 5093.0 + 2 * r);
	assert_int_equal(h.held, 0x08);
	assert_int_equal(h.calls, 3);
	/* counted: what the peer asked for, not the stall */
	softpfc_expire(&s, 5104.0 + 2 * r);
	assert_int_equal(h.held, 0);
	assert_true(fabs(softpfc_held_ms(e, 3, 20000.0) - 4.0 - 3 * r) < 1e-6);
	/* the peer is gone and roced is late at every look: let go once
	 * SOFTPFC_GRACE_MAX_MS are over */
	rx(&s, "veth0", PFC_FRAME_PFC, 0x08, 65535, 30000.0); /* to 30010 */
	for (t = 30030.0; e->held; t += r + 20.0)
		softpfc_expire(&s, t);
	t -= r + 20.0; /* the release */
	assert_true(t >= 30010.0 + SOFTPFC_GRACE_MAX_MS);
	assert_true(t < 30010.0 + SOFTPFC_GRACE_MAX_MS + r + 20.0);
	/* link pause: 50000 quanta at 10 Gb/s, the 10 ms floor */
	rx(&s, "veth0", PFC_FRAME_PAUSE, 0, 50000, 50000.0);
	assert_true(h.lp);
	softpfc_expire(&s, 50080.0);
	assert_true(h.lp);
	softpfc_expire(&s, 50080.0 + r);
	assert_false(h.lp);
	softpfc_free(&s);
}

/* The time paused is what the frames' quanta ask for, within 1 %, also
 * during a storm the watchdog ignores: a 10 s storm of 65535 quanta
 * (3.3554 ms at 10 Gb/s) every 2 ms, honoured for its first 100 ms only
 * (the watchdog's detection), reads 10 s plus the last frame's time, not
 * the 0.1 s held. Gaps, shorter pauses and an XON are counted exactly. */
static void test_paused_quanta(void **state)
{
	const double q_ms = 65535.0 * 512 / 10000 / 1000; /* 3.35539 */
	struct softpfc s;
	struct heard h = {0};
	struct softpfc_port *e;
	double t, want;

	(void)state;
	softpfc_init(&s, changed, &h);
	softpfc_configure(&s, "veth0", 0x08, false, 10000, 0.0);
	e = softpfc_port(&s, "veth0", false);
	for (t = 1000.0; t < 11000.0; t += 2.0) {
		if (t >= 1100.0 && e->honour)
			softpfc_configure(&s, "veth0", 0x00, false, 10000, t);
		rx(&s, "veth0", PFC_FRAME_PFC, 0x08, 65535, t);
		softpfc_expire(&s, t + 1.0);
	}
	want = (t - 2.0) + q_ms - 1000.0;
	/* over, read well after the storm */
	assert_true(fabs(softpfc_paused_ms(e, 3, 20000.0) - want) < want / 1e6);
	assert_true(fabs(softpfc_paused_ms(e, 3, 20000.0) - want) < want / 100);
	/* the hold stopped with the watchdog: what the metric showed */
	assert_true(softpfc_held_ms(e, 3, 20000.0) < 200.0);
	/* mid-span: up to now only */
	softpfc_configure(&s, "veth0", 0x08, false, 10000, 20000.0);
	rx(&s, "veth0", PFC_FRAME_PFC, 0x08, 65535, 30000.0);
	assert_true(fabs(softpfc_paused_ms(e, 3, 30001.0) - want - 1.0) < 1e-6);
	/* an XON ends the span at once */
	rx(&s, "veth0", PFC_FRAME_PFC, 0x08, 0, 30002.0);
	assert_true(fabs(softpfc_paused_ms(e, 3, 40000.0) - want - 2.0) < 1e-6);
	/* a gap between two lone short pauses is not paused; a shorter
	 * pause replaces the time left */
	rx(&s, "veth0", PFC_FRAME_PFC, 0x08, 1000, 50000.0);  /* 0.0512 */
	rx(&s, "veth0", PFC_FRAME_PFC, 0x08, 65535, 50010.0); /* new span */
	rx(&s, "veth0", PFC_FRAME_PFC, 0x08, 1000, 50011.0);  /* cut short */
	assert_true(fabs(softpfc_paused_ms(e, 3, 60000.0) - want - 2.0 -
	                 0.0512 - 1.0 - 0.0512) < 1e-6);
	/* other priorities asked nothing */
	assert_true(softpfc_paused_ms(e, 4, 60000.0) == 0.0);
	softpfc_free(&s);
}

/* The kernel path's counts replace the frames read (softpfc_kernel): a
 * port that took the path keeps its counters where they were and goes
 * on with the programs' increments, frames this process never read
 * included; the time paused is the programs' spans; back on the
 * user-space path it counts on from there. */
static void test_kernel_counts(void **state)
{
	const double q_ms = 65535.0 * 512 / 10000 / 1000;
	struct softpfc s;
	struct heard h = {0};
	struct softpfc_port *e;
	struct softpfc_kcount k;

	(void)state;
	softpfc_init(&s, changed, &h);
	softpfc_configure(&s, "veth0", 0x08, false, 10000, 0.0);
	e = softpfc_port(&s, "veth0", false);
	/* five frames read on the user-space path, one XON */
	for (unsigned i = 0; i < 5; i++)
		rx(&s, "veth0", PFC_FRAME_PFC, 0x08, 65535, 100.0 + i);
	rx(&s, "veth0", PFC_FRAME_PFC, 0x08, 0, 110.0);
	assert_int_equal(e->c.rx_frames, 6);
	/* one span, from the first frame to the last one's end */
	assert_true(fabs(softpfc_paused_ms(e, 3, 200.0) - 4.0 - q_ms) < 1e-9);
	/* the programs had counted 2 frames when the port took their path */
	memset(&k, 0, sizeof(k));
	k.c.rx_frames = 2;
	k.c.rx_pause[3] = 2;
	k.c.asked_ms[3] = 4.0;
	softpfc_kernel(e, &k, 200.0);
	assert_true(e->kernel);
	assert_int_equal(e->c.rx_frames, 6);
	assert_int_equal(e->c.rx_pause[3], 5);
	assert_int_equal(e->c.rx_xon[3], 1);
	assert_true(fabs(softpfc_paused_ms(e, 3, 200.0) - 4.0 - q_ms) < 1e-9);
	/* 1000 frames the programs counted, of which this process read one
	 * (its socket overflowed): counted 1000; the span they asked for
	 * runs from 300 ms and is under way */
	rx(&s, "veth0", PFC_FRAME_PFC, 0x08, 65535, 400.0);
	k.c.rx_frames = 1002;
	k.c.rx_pause[3] = 1002;
	k.c.last_pause_ms[3] = 399.0;
	k.ask[3].since = 300.0;
	k.ask[3].until = 403.0;
	softpfc_kernel(e, &k, 401.0);
	assert_int_equal(e->c.rx_frames, 1006);
	assert_int_equal(e->c.rx_pause[3], 1005);
	assert_true(e->c.last_pause_ms[3] == 400.0);
	assert_true(fabs(softpfc_paused_ms(e, 3, 401.0) - 105.0 - q_ms) < 1e-9);
	/* the span ran out at 403: 2 ms more, no more */
	assert_true(fabs(softpfc_paused_ms(e, 3, 500.0) - 107.0 - q_ms) < 1e-9);
	/* the watchdog's duration is that time on the kernel path */
	assert_true(softpfc_duration_ms(e, 3, 500.0) ==
	            softpfc_paused_ms(e, 3, 500.0));
	/* back on the user-space path: on from 1006 */
	softpfc_user(e);
	rx(&s, "veth0", PFC_FRAME_PFC, 0x08, 65535, 600.0);
	assert_int_equal(e->c.rx_frames, 1007);
	assert_true(softpfc_duration_ms(e, 3, 600.0) ==
	            softpfc_held_ms(e, 3, 600.0));
	/* a port that counted nothing yet takes the programs' counts as
	 * they are (its entry came after they were attached) */
	softpfc_configure(&s, "veth1", 0x08, false, 10000, 700.0);
	e = softpfc_port(&s, "veth1", false);
	softpfc_kernel(e, &k, 700.0);
	assert_int_equal(e->c.rx_frames, 1002);
	assert_int_equal(e->c.rx_pause[3], 1002);
	softpfc_free(&s);
}

/* --- the frame layer and the hold together, as bench/pfc drives them ---
 *
 * A fake port whose socket holds the frames of a scripted peer: storms of
 * pause frames (2000 a second, 65535 quanta, priority 3 or link pause),
 * each ending with an XON or left to run out, 300 ms apart. The loop is
 * the daemon's (agents_fd, then agents_tick): a wake-up reads one batch of
 * what has arrived by then, the tick drains the socket before a hold may
 * end and expires holds, and an apply after each change configures the
 * port again (agents_applied). Whatever the loop's pace, the queue must be
 * held at the end of the first poll that can see a pause, stay held to
 * the storm's XON (or its time), and be released between storms: one
 * hold and one release a storm, never a pause ignored. */

#define STORM_MAX 16384

struct script {
	struct {
		double at;
		uint16_t quanta;
	} ev[STORM_MAX];
	size_t n, next;
	bool lp;
	double now; /* the loop's clock: what has arrived by then */
	int wakes;
};

static int script_open(void *impl, int ifindex)
{
	(void)impl;
	return 100 + ifindex;
}

static void script_close(void *impl, int fd)
{
	(void)impl;
	(void)fd;
}

static ssize_t script_recv(void *impl, int fd, uint8_t *buf, size_t len,
                           double *at_ms)
{
	struct script *k = impl;
	struct pfc_frame f;

	(void)fd;
	if (k->next == k->n || k->ev[k->next].at > k->now)
		return -EAGAIN;
	pfc_frame_make(&f, k->lp ? PFC_FRAME_PAUSE : PFC_FRAME_PFC, peer, 0x08,
	               k->ev[k->next].quanta);
	assert_true(len >= PFC_FRAME_MIN);
	assert_int_equal(pfc_frame_encode(&f, buf, len), PFC_FRAME_MIN);
	*at_ms = k->ev[k->next++].at; /* dated on arrival */
	return PFC_FRAME_MIN;
}

static int script_send(void *impl, int fd, int ifindex, const uint8_t *buf,
                       size_t len)
{
	(void)impl;
	(void)fd;
	(void)ifindex;
	(void)buf;
	(void)len;
	return 0;
}

static int script_wake(void *impl, int fd, bool on)
{
	struct script *k = impl;

	(void)fd;
	k->wakes += on;
	return 0;
}

static const struct frame_ops script_ops = {
    .open = script_open,
    .close = script_close,
    .recv = script_recv,
    .send = script_send,
    .wake = script_wake,
};

/* STORMS storms of STORM_MS ms at RATE frames a second from 1000 ms on,
 * GAP_MS apart, each ending with an XON when XON (else left to run out),
 * into K. */
static void script_storms(struct script *k, int storms, double storm_ms,
                          double rate, double gap_ms, bool xon)
{
	double t = 1000.0;

	k->n = k->next = 0;
	for (int i = 0; i < storms; i++) {
		double t0 = t;

		for (; t < t0 + storm_ms; t += 1000.0 / rate) {
			assert_true(k->n < STORM_MAX);
			k->ev[k->n].at = t;
			k->ev[k->n++].quanta = 65535;
		}
		if (xon) {
			k->ev[k->n].at = t;
			k->ev[k->n++].quanta = 0;
		}
		t += gap_ms;
	}
}

struct loop_heard {
	struct heard h;
	unsigned holds, releases;
};

static void loop_changed(void *arg, const char *ifname, uint8_t held, bool lp)
{
	struct loop_heard *l = arg;
	bool was = l->h.lp || (l->h.held & 0x08);

	changed(&l->h, ifname, held, lp);
	if (!was && (lp || (held & 0x08)))
		l->holds++;
	else if (was && !(lp || (held & 0x08)))
		l->releases++;
}

/* Run K's script through the daemon's agents (their frame layer on K,
 * their software PFC), the loop waking every POLL_MS (JITTER: every other
 * wake-up that much later, a loaded host) or when the agents' timer says
 * so, whichever comes first, and check the hold after every wake-up. */
static void run_script(struct script *k, double poll_ms, double jitter,
                       int storms, bool xon)
{
	static struct agents a;
	struct softpfc *s = &a.softpfc;
	struct loop_heard l = {0};
	const uint8_t mac[6] = {2, 0, 0, 0, 0, 1};
	double end;
	size_t arrived = 0; /* events that have arrived by now */
	int fd, i = 0;

	k->next = 0;
	k->wakes = 0;
	agents_init(&a, NULL, &script_ops, k);
	/* no daemon: the test hears the changes, and applies them at once */
	s->changed = loop_changed;
	s->arg = &l;
	assert_int_equal(frames_attach(&a.frames, "swp1", 1, mac), 0);
	fd = frames_find(&a.frames, "swp1")->fd;
	assert_int_equal(
	    softpfc_configure(s, "swp1", k->lp ? 0 : 0x08, k->lp, 10000, 0), 0);
	end = k->ev[k->n - 1].at + 2 * SOFTPFC_REFRESH_MIN_MS + 100.0;
	for (k->now = 0; k->now < end;) {
		uint8_t held_before = l.h.held;
		bool lp_before = l.h.lp;
		double step = poll_ms + (i++ % 2 ? jitter : 0);
		int wait;

		/* the daemon's loop: the socket's batch, then the timers */
		if (k->next < k->n && k->ev[k->next].at <= k->now)
			agents_fd(&a, fd, k->now);
		agents_tick(&a, k->now);
		/* agents_applied: the port's inputs again */
		if (l.h.held != held_before || l.h.lp != lp_before)
			softpfc_configure(s, "swp1", k->lp ? 0 : 0x08, k->lp,
			                  10000, k->now);
		while (arrived < k->n && k->ev[arrived].at <= k->now)
			arrived++;
		/* Every pause is honoured: once the newest frame to arrive
		 * is a pause less than a hold's minimum ago, the queue is held
		 * at the end of this wake-up, the first that can see it
		 * (however far behind the reading is). */
		if (arrived && k->ev[arrived - 1].quanta &&
		    k->now < k->ev[arrived - 1].at + SOFTPFC_HOLD_MIN_MS) {
			if (k->lp)
				assert_true(l.h.lp);
			else
				assert_int_equal(l.h.held & 0x08, 0x08);
		}
		/* Released by the XON once it is read, and by its time once
		 * the peer has been quiet for a refresh's minimum. */
		if (arrived && arrived == k->next &&
		    (!k->ev[arrived - 1].quanta ||
		     k->now >= k->ev[arrived - 1].at + SOFTPFC_REFRESH_MIN_MS))
			assert_false(l.h.lp || (l.h.held & 0x08));
		/* The wake, armed in the gaps and disarmed by a storm (the
		 * transmit side's), changes nothing here. */
		frames_wake(&a.frames, "swp1", !(l.h.lp || (l.h.held & 0x08)));
		wait = agents_wait(&a, k->now);
		k->now += wait >= 0 && wait < step ? (wait ? wait : 0.5) : step;
	}
	assert_int_equal(k->next, k->n);
	assert_false(l.h.lp || (l.h.held & 0x08));
	assert_int_equal(l.holds, storms);
	assert_int_equal(l.releases, storms);
	assert_true(k->wakes >= storms);
	if (xon && !k->lp)
		assert_int_equal(softpfc_port(s, "swp1", false)->c.rx_xon[3],
		                 storms);
	agents_free(&a);
}

static void test_bench_storms(void **state)
{
	static struct script k;

	(void)state;
	for (int lp = 0; lp < 2; lp++) {
		k.lp = lp;
		/* bench/pfc: 0.3 s at 2000/s, an XON, 0.3 s apart */
		script_storms(&k, 12, 300.0, 2000.0, 300.0, true);
		run_script(&k, 1.0, 0, 12, true);    /* a quiet host */
		run_script(&k, 5.0, 20.0, 12, true); /* reads 25 ms late */
		/* a storm read more than a hold's minimum late: the
		 * backlog refreshes the hold, nothing flaps */
		run_script(&k, 3.0, 40.0, 12, true);
		/* storms left to run out, the next one 100 ms after the
		 * last one's hold ran out */
		script_storms(&k, 12, 300.0, 2000.0,
		              SOFTPFC_REFRESH_MIN_MS + 100.0, false);
		run_script(&k, 1.0, 0, 12, false);
		run_script(&k, 5.0, 20.0, 12, false);
		/* a flood beside the storm's pace: more than a batch waits
		 * (one batch a wake-up here: the reading falls behind until
		 * a hold's end drains the socket, a refresh's minimum after
		 * the last frame read) */
		script_storms(&k, 4, 100.0, 20000.0,
		              SOFTPFC_REFRESH_MIN_MS + 300.0, true);
		run_script(&k, 2.0, 30.0, 4, true);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_hold_release),
	    cmocka_unit_test(test_refresh_by_peer),
	    cmocka_unit_test(test_not_honoured),
	    cmocka_unit_test(test_link_pause),
	    cmocka_unit_test(test_malformed_and_kick),
	    cmocka_unit_test(test_late_loop),
	    cmocka_unit_test(test_stall_kept),
	    cmocka_unit_test(test_paused_quanta),
	    cmocka_unit_test(test_kernel_counts),
	    cmocka_unit_test(test_bench_storms),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
