/* test_pfc_frame: the PFC and link pause codec (lib/proto/pfc_frame) on
 * byte vectors, each with its dissection, encode -> decode round trips,
 * truncations at every length and the quanta arithmetic. The encoder is
 * also checked against tshark (tests/integration/pfc_tshark.sh). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "proto/pfc_frame.h"

static const uint8_t src_mac[6] = {0x02, 0x00, 0x00, 0x00, 0x00, 0x01};

/* PFC: 01:80:c2:00:00:01 <- 02:00:00:00:00:01, type 0x8808 MAC Control,
 * opcode 0x0101 (class-based flow control), class-enable vector 0x0008
 * (priority 3), pause times c0..c7 = 0, 0, 0, 0xffff, 0, 0, 0, 0, then 26
 * bytes of padding to 60. */
static const uint8_t pfc_p3_xoff[] = {
    0x01, 0x80, 0xc2, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01,
    0x88, 0x08, 0x01, 0x01, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

/* PFC XON: as above with vector 0x0018 (priorities 3 and 4), times all
 * 0: both released. */
static const uint8_t pfc_p34_xon[] = {
    0x01, 0x80, 0xc2, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01,
    0x88, 0x08, 0x01, 0x01, 0x00, 0x18, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

/* 802.3x: MAC Control, opcode 0x0001 (pause), pause time 0x1000 quanta,
 * padding. */
static const uint8_t pause_4096[] = {
    0x01, 0x80, 0xc2, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01,
    0x88, 0x08, 0x00, 0x01, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

/* PFC from a peer that does not pad, with a VLAN tag (0x8100, VID 5) and
 * reserved bits in the vector's upper byte (0xff): vector 0xff01
 * (priority 0 plus reserved), time c0 = 0x0100, the rest 1..7. */
static const uint8_t pfc_tagged_short[] = {
    0x01, 0x80, 0xc2, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00, 0x00,
    0x00, 0x02, 0x81, 0x00, 0x00, 0x05, 0x88, 0x08, 0x01, 0x01,
    0xff, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x02, 0x00, 0x03,
    0x00, 0x04, 0x00, 0x05, 0x00, 0x06, 0x00, 0x07,
};

/* Not ours: an LLDP frame (0x88cc), and MAC Control with opcode 0x0002
 * (GATE, 802.3ah). */
static const uint8_t lldp_head[] = {
    0x01, 0x80, 0xc2, 0x00, 0x00, 0x0e, 0x02, 0x00,
    0x00, 0x00, 0x00, 0x01, 0x88, 0xcc, 0x02, 0x07,
};
static const uint8_t macc_gate[] = {
    0x01, 0x80, 0xc2, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00, 0x00,
    0x00, 0x01, 0x88, 0x08, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00,
};

static void test_decode_vectors(void **state)
{
	struct pfc_frame f;
	char err[128];

	(void)state;
	assert_int_equal(pfc_frame_decode(pfc_p3_xoff, sizeof(pfc_p3_xoff), &f,
	                                  err, sizeof(err)),
	                 0);
	assert_int_equal(f.kind, PFC_FRAME_PFC);
	assert_int_equal(f.enable, 0x08);
	assert_int_equal(f.quanta[3], 0xffff);
	assert_memory_equal(f.src, src_mac, 6);
	assert_true(pfc_frame_pauses(&f, 3));
	for (unsigned p = 0; p < 8; p++)
		if (p != 3)
			assert_false(pfc_frame_pauses(&f, p) ||
			             pfc_frame_releases(&f, p));
	assert_false(pfc_frame_releases(&f, 3));
	assert_false(pfc_frame_pauses(&f, 8));

	assert_int_equal(pfc_frame_decode(pfc_p34_xon, sizeof(pfc_p34_xon), &f,
	                                  err, sizeof(err)),
	                 0);
	assert_true(pfc_frame_releases(&f, 3) && pfc_frame_releases(&f, 4));
	assert_false(pfc_frame_pauses(&f, 3) || pfc_frame_releases(&f, 2));

	assert_int_equal(pfc_frame_decode(pause_4096, sizeof(pause_4096), &f,
	                                  err, sizeof(err)),
	                 0);
	assert_int_equal(f.kind, PFC_FRAME_PAUSE);
	assert_int_equal(f.quanta[0], 4096);
	for (unsigned p = 0; p < 8; p++)
		assert_true(pfc_frame_pauses(&f, p));

	assert_int_equal(pfc_frame_decode(pfc_tagged_short,
	                                  sizeof(pfc_tagged_short), &f, err,
	                                  sizeof(err)),
	                 0);
	assert_int_equal(f.enable, 0x01);
	assert_int_equal(f.quanta[0], 0x100);
	assert_int_equal(f.quanta[7], 7);
	assert_true(pfc_frame_pauses(&f, 0));
	/* a time for a priority that is not enabled means nothing */
	assert_false(pfc_frame_pauses(&f, 7));

	assert_int_equal(pfc_frame_decode(lldp_head, sizeof(lldp_head), &f, err,
	                                  sizeof(err)),
	                 -ENOMSG);
	assert_int_equal(pfc_frame_decode(macc_gate, sizeof(macc_gate), &f, err,
	                                  sizeof(err)),
	                 -ENOMSG);
}

/* Every truncation of every vector: never read past the end, and only
 * the lengths that hold the opcode's fields decode. */
static void test_truncation(void **state)
{
	static const struct {
		const uint8_t *b;
		size_t len, need;
	} v[] = {
	    {pfc_p3_xoff, sizeof(pfc_p3_xoff), 34},
	    {pfc_p34_xon, sizeof(pfc_p34_xon), 34},
	    {pause_4096, sizeof(pause_4096), 18},
	    {pfc_tagged_short, sizeof(pfc_tagged_short), 38},
	};
	struct pfc_frame f;
	char err[128];
	uint8_t copy[64];

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		for (size_t n = 0; n <= v[i].len; n++) {
			/* an exact-size copy so that ASan sees overreads */
			memcpy(copy + sizeof(copy) - n, v[i].b, n);
			int r = pfc_frame_decode(copy + sizeof(copy) - n, n, &f,
			                         err, sizeof(err));
			if (n >= v[i].need)
				assert_int_equal(r, 0);
			else if (n < 16 ||
			         (v[i].b == pfc_tagged_short && n < 20))
				assert_true(r == -ENOMSG || r == -EBADMSG);
			else {
				assert_int_equal(r, -EBADMSG);
				assert_true(strlen(err) > 0);
			}
		}
}

static void test_encode(void **state)
{
	struct pfc_frame f, g;
	uint8_t buf[128];

	(void)state;
	pfc_frame_make(&f, PFC_FRAME_PFC, src_mac, 0x08, 0xffff);
	assert_int_equal(pfc_frame_encode(&f, buf, sizeof(buf)), 60);
	assert_memory_equal(buf, pfc_p3_xoff, 60);
	pfc_frame_make(&f, PFC_FRAME_PFC, src_mac, 0x18, 0);
	assert_int_equal(pfc_frame_encode(&f, buf, sizeof(buf)), 60);
	assert_memory_equal(buf, pfc_p34_xon, 60);
	pfc_frame_make(&f, PFC_FRAME_PAUSE, src_mac, 0xff, 4096);
	assert_int_equal(pfc_frame_encode(&f, buf, sizeof(buf)), 60);
	assert_memory_equal(buf, pause_4096, 60);
	assert_int_equal(pfc_frame_encode(&f, buf, 59), -ENOSPC);
	/* round trips over every vector and a few times */
	for (unsigned en = 0; en < 256; en += 17) {
		pfc_frame_make(&f, PFC_FRAME_PFC, src_mac, (uint8_t)en,
		               (uint16_t)(en * 257));
		assert_int_equal(pfc_frame_encode(&f, buf, sizeof(buf)), 60);
		assert_int_equal(pfc_frame_decode(buf, 60, &g, NULL, 0), 0);
		assert_memory_equal(&f, &g, sizeof(f));
	}
}

static void test_quanta(void **state)
{
	(void)state;
	/* 65535 x 512 bits at 10 Gb/s: 3.355 ms; at 100 Gb/s 0.336 ms */
	assert_int_equal(pfc_quanta_ns(65535, 10000), 3355392);
	assert_int_equal(pfc_quanta_ns(65535, 100000), 335540);
	assert_int_equal(pfc_quanta_ns(1, 0), 52); /* 51.2 ns, rounded up */
	assert_int_equal(pfc_quanta_ns(0, 1000), 0);
	assert_int_equal(pfc_ns_quanta(3355392, 10000), 65535);
	assert_int_equal(pfc_ns_quanta(1000000, 10000), 19532);
	assert_int_equal(pfc_ns_quanta(UINT64_MAX, 10000), 65535);
	assert_int_equal(pfc_ns_quanta(0, 10000), 0);
	assert_true(pfc_quanta_ns(pfc_ns_quanta(777777, 25000), 25000) >=
	            777777);
	assert_string_equal(pfc_frame_kind_name(PFC_FRAME_PAUSE), "pause");
	assert_int_equal(pfc_frame_kind_parse("pfc"), PFC_FRAME_PFC);
	assert_int_equal(pfc_frame_kind_parse("xon"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_decode_vectors),
	    cmocka_unit_test(test_truncation),
	    cmocka_unit_test(test_encode),
	    cmocka_unit_test(test_quanta),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
