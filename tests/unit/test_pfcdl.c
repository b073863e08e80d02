/* test_pfcdl: roced's PFC wait chains TLV (lib/proto/pfcdl.c through the
 * LLDPDU codec's table) on hand-built LLDPDUs (tests/fixtures/lldp/
 * pfcdl.hex) and every way it can be malformed, its round trip through
 * lldp_encode, and the cycle rule: chains passed round a ring of nodes
 * until each finds the cycle and exactly one, the lowest, breaks it.
 * Every decode runs on an exact-size heap copy (the sanitizers see a
 * read past it). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/strbuf.h"
#include "hexfix.h"
#include "proto/lldp.h"
#include "proto/pfcdl.h"

static char err[256];

static int decode(const uint8_t *b, size_t n, struct lldp_pdu *pdu)
{
	uint8_t *copy = malloc(n ? n : 1);
	int rc;

	assert_non_null(copy);
	if (n)
		memcpy(copy, b, n);
	rc = lldp_decode(copy, n, pdu, err, sizeof(err));
	free(copy);
	return rc;
}

static struct pfcdl_id mac_id(uint8_t k)
{
	struct pfcdl_id id = {.len = 6, .v = {2, 0, 0, 0, 0, k}};

	return id;
}

static void assert_hop(const struct pfcdl_chain *c, unsigned h, uint8_t k)
{
	struct pfcdl_id id = mac_id(k);

	assert_true(h < c->n);
	assert_int_equal(pfcdl_id_cmp(&c->hop[h], &id), 0);
}

static void test_fixture_cycle(void **state)
{
	struct lldp_pdu *p = calloc(1, sizeof(*p));
	uint8_t b[512];
	size_t n = hexfix_msg("lldp", "pfcdl", 0, b, sizeof(b));
	struct strbuf sb;

	(void)state;
	assert_int_equal(decode(b, n, p), 0);
	assert_true(p->pfcdl.present);
	assert_int_equal(p->pfcdl.version, 1);
	assert_int_equal(p->pfcdl.n, 1);
	assert_int_equal(p->pfcdl.c[0].prio, 3);
	assert_int_equal(p->pfcdl.c[0].n, 4);
	assert_hop(&p->pfcdl.c[0], 0, 2);
	assert_hop(&p->pfcdl.c[0], 1, 3);
	assert_hop(&p->pfcdl.c[0], 2, 4);
	assert_hop(&p->pfcdl.c[0], 3, 1);
	assert_int_equal(p->nunknown, 0);
	strbuf_init(&sb);
	lldp_print(p, &sb);
	assert_non_null(strstr(sb.s, "PFC Wait Chains: priority 3: "
	                             "02:00:00:00:00:02 -> "
	                             "02:00:00:00:00:03 -> "
	                             "02:00:00:00:00:04 -> "
	                             "02:00:00:00:00:01\n"));
	strbuf_free(&sb);
	free(p);
}

static void test_fixture_two(void **state)
{
	struct lldp_pdu *p = calloc(1, sizeof(*p));
	uint8_t b[512];
	size_t n = hexfix_msg("lldp", "pfcdl", 1, b, sizeof(b));

	(void)state;
	assert_int_equal(decode(b, n, p), 0);
	assert_int_equal(p->pfcdl.n, 2);
	assert_int_equal(p->pfcdl.c[0].prio, 3);
	assert_int_equal(p->pfcdl.c[0].n, 1);
	assert_int_equal(p->pfcdl.c[1].prio, 4);
	assert_int_equal(p->pfcdl.c[1].n, 2);
	assert_hop(&p->pfcdl.c[1], 1, 5);
	free(p);
}

/* A later version: kept as present, nothing read, no error. */
static void test_fixture_version(void **state)
{
	struct lldp_pdu *p = calloc(1, sizeof(*p));
	uint8_t b[512];
	size_t n = hexfix_msg("lldp", "pfcdl", 2, b, sizeof(b));

	(void)state;
	assert_int_equal(decode(b, n, p), 0);
	assert_true(p->pfcdl.present);
	assert_int_equal(p->pfcdl.version, 2);
	assert_int_equal(p->pfcdl.n, 0);
	free(p);
}

static void test_fixture_malformed(void **state)
{
	struct lldp_pdu *p = calloc(1, sizeof(*p));
	uint8_t b[512];
	size_t n = hexfix_msg("lldp", "pfcdl", 3, b, sizeof(b));

	(void)state;
	assert_int_equal(decode(b, n, p), -EBADMSG);
	assert_non_null(strstr(err, "PFC Wait Chains TLV"));
	assert_non_null(strstr(err, "hop 2: ID of 7 bytes"));
	free(p);
}

/* The LLDPDU of fixture 1 with its TLV's information string (after OUI
 * and subtype) replaced by INFO. */
static int decode_info(const uint8_t *info, size_t len, struct lldp_pdu *p)
{
	static const uint8_t head[] = {
	    0x02, 0x07, 0x04, 0x02, 0,   0,   0,   0, 0x02, /* chassis */
	    0x04, 0x05, 0x05, 's',  'w', 'p', '2',          /* port */
	    0x06, 0x02, 0x00, 0x78,                         /* TTL 120 */
	};
	uint8_t b[600];
	size_t n = sizeof(head);

	memcpy(b, head, n);
	b[n++] = (uint8_t)(0xfe | (len + 4) >> 8);
	b[n++] = (uint8_t)(len + 4);
	b[n++] = 0x52;
	b[n++] = 0x4f;
	b[n++] = 0x43;
	b[n++] = 1;
	memcpy(b + n, info, len);
	n += len;
	return decode(b, n, p);
}

static void test_malformed(void **state)
{
	struct lldp_pdu *p = calloc(1, sizeof(*p));
	static const uint8_t prio8[] = {1, 8, 1, 1, 0xaa};
	static const uint8_t hops0[] = {1, 3, 0};
	static const uint8_t hops9[] = {1, 3, 9, 1, 1, 1, 2, 1, 3, 1, 4,
	                                1, 5, 1, 6, 1, 7, 1, 8, 1, 9};
	static const uint8_t cut[] = {1, 3};
	static const uint8_t id0[] = {1, 3, 1, 0};
	static const uint8_t id33[] = {1, 3, 1, 33};
	uint8_t many[1 + 9 * 4];

	(void)state;
	assert_int_equal(decode_info(prio8, sizeof(prio8), p), -EBADMSG);
	assert_non_null(strstr(err, "priority 8 (0..7)"));
	assert_int_equal(decode_info(hops0, sizeof(hops0), p), -EBADMSG);
	assert_non_null(strstr(err, "0 hops"));
	assert_int_equal(decode_info(hops9, sizeof(hops9), p), -EBADMSG);
	assert_non_null(strstr(err, "9 hops"));
	assert_int_equal(decode_info(cut, sizeof(cut), p), -EBADMSG);
	assert_non_null(strstr(err, "cut off"));
	assert_int_equal(decode_info(id0, sizeof(id0), p), -EBADMSG);
	assert_int_equal(decode_info(id33, sizeof(id33), p), -EBADMSG);
	/* nine chains of one 1-byte hop each */
	many[0] = 1;
	for (unsigned i = 0; i < 9; i++) {
		many[1 + 4 * i] = 3;
		many[2 + 4 * i] = 1;
		many[3 + 4 * i] = 1;
		many[4 + 4 * i] = (uint8_t)i;
	}
	assert_int_equal(decode_info(many, sizeof(many), p), -EBADMSG);
	assert_non_null(strstr(err, "more than 8 chains"));
	/* eight are fine; the version byte alone too (no chains) */
	assert_int_equal(decode_info(many, sizeof(many) - 4, p), 0);
	assert_int_equal(p->pfcdl.n, 8);
	assert_int_equal(decode_info(many, 1, p), 0);
	assert_int_equal(p->pfcdl.n, 0);
	assert_true(p->pfcdl.present);
	free(p);
}

/* What roced sends decodes to the same chains; chains that would pass
 * the TLV's 511 bytes are left out whole. */
static void test_round_trip(void **state)
{
	struct lldp_pdu *in = calloc(1, sizeof(*in));
	struct lldp_pdu *out = calloc(1, sizeof(*out));
	uint8_t buf[LLDP_PDU_MAX];
	int n;

	(void)state;
	in->chassis = (struct lldp_id){.subtype = 4, .len = 6, .v = {2}};
	in->port = (struct lldp_id){.subtype = 5, .len = 4, .v = "swp1"};
	in->ttl = 120;
	in->pfcdl.present = true;
	for (unsigned c = 0; c < PFCDL_CHAINS_MAX; c++) {
		struct pfcdl_chain *ch = &in->pfcdl.c[c];

		ch->prio = (uint8_t)(c % 8);
		ch->n = c == 0 ? 3 : PFCDL_HOPS_MAX;
		for (unsigned h = 0; h < ch->n; h++) {
			/* chain 0 of MAC IDs, the others of the longest */
			ch->hop[h].len = c == 0 ? 6 : PFCDL_ID_MAX;
			memset(ch->hop[h].v, (int)(c * 16 + h + 1),
			       ch->hop[h].len);
		}
	}
	in->pfcdl.n = PFCDL_CHAINS_MAX;
	n = lldp_encode(in, buf, sizeof(buf));
	assert_true(n > 0);
	assert_int_equal(decode(buf, (size_t)n, out), 0);
	/* 1 + (2 + 3 * 7) + (2 + 8 * 33) = 290; a third chain would not
	 * fit in 507 */
	assert_int_equal(out->pfcdl.n, 2);
	assert_int_equal(out->pfcdl.c[0].n, 3);
	assert_int_equal(out->pfcdl.c[1].prio, 1);
	assert_int_equal(out->pfcdl.c[1].n, PFCDL_HOPS_MAX);
	assert_int_equal(
	    pfcdl_id_cmp(&out->pfcdl.c[1].hop[7], &in->pfcdl.c[1].hop[7]), 0);
	/* none at all: no TLV */
	memset(&in->pfcdl, 0, sizeof(in->pfcdl));
	n = lldp_encode(in, buf, sizeof(buf));
	assert_int_equal(decode(buf, (size_t)n, out), 0);
	assert_false(out->pfcdl.present);
	free(in);
	free(out);
}

static void test_extend(void **state)
{
	struct pfcdl_id a = mac_id(1), b = mac_id(2);
	struct pfcdl_chain in = {.prio = 3, .n = 3}, out;

	(void)state;
	/* nothing from the peer: the node alone */
	pfcdl_extend(&a, NULL, 3, &out);
	assert_int_equal(out.n, 1);
	assert_int_equal(out.prio, 3);
	/* cut where the node comes back */
	in.hop[0] = b;
	in.hop[1] = a;
	in.hop[2] = mac_id(9);
	pfcdl_extend(&a, &in, 3, &out);
	assert_int_equal(out.n, 2);
	assert_hop(&out, 0, 1);
	assert_hop(&out, 1, 2);
	/* and at PFCDL_HOPS_MAX */
	in.n = PFCDL_HOPS_MAX;
	for (unsigned h = 0; h < PFCDL_HOPS_MAX; h++)
		in.hop[h] = mac_id((uint8_t)(10 + h));
	pfcdl_extend(&a, &in, 3, &out);
	assert_int_equal(out.n, PFCDL_HOPS_MAX);
	assert_hop(&out, PFCDL_HOPS_MAX - 1, 10 + PFCDL_HOPS_MAX - 2);
	/* IDs: the shorter is lower, then bytewise */
	b.len = 5;
	assert_true(pfcdl_id_cmp(&b, &a) < 0);
	assert_true(pfcdl_id_cmp(&a, &b) > 0);
	assert_true(pfcdl_id_cmp(&a, &a) == 0);
}

/* N nodes in a ring, node i waiting on node i+1; IDS their IDs. Each
 * round every node sends what it extends from what its next one sent in
 * the round before, as LLDP carries it. Returns the round in which every
 * node saw the cycle (0: never within 2 N rounds) and which broke it. */
static unsigned ring(unsigned n, const uint8_t *ids, int *breaker,
                     unsigned *nbreakers)
{
	struct pfcdl_chain sent[8], next[8];
	bool have[8] = {false};

	*breaker = -1;
	*nbreakers = 0;
	for (unsigned r = 1; r <= 2 * n; r++) {
		unsigned seen = 0;

		for (unsigned i = 0; i < n; i++) {
			struct pfcdl_id self = mac_id(ids[i]);
			const struct pfcdl_chain *in =
			    have[(i + 1) % n] ? &sent[(i + 1) % n] : NULL;
			unsigned len;

			pfcdl_extend(&self, in, 3, &next[i]);
			if (in && pfcdl_cycle(&self, in, &len)) {
				assert_int_equal(len, n);
				seen++;
				if (pfcdl_breaker(&self, in, len) &&
				    (*nbreakers)++ == 0)
					*breaker = (int)i;
			}
		}
		if (seen == n)
			return r;
		*nbreakers = 0;
		*breaker = -1;
		memcpy(sent, next, sizeof(sent));
		for (unsigned i = 0; i < n; i++)
			have[i] = true;
	}
	return 0;
}

static void test_ring(void **state)
{
	static const uint8_t four[] = {7, 3, 9, 5};
	static const uint8_t two[] = {4, 2};
	static const uint8_t eight[] = {8, 7, 6, 5, 4, 3, 2, 1};
	int br;
	unsigned nb, r;

	(void)state;
	r = ring(4, four, &br, &nb);
	assert_true(r > 0);
	assert_int_equal(nb, 1);
	assert_int_equal(br, 1); /* ID 3 */
	r = ring(2, two, &br, &nb);
	assert_true(r > 0);
	assert_int_equal(nb, 1);
	assert_int_equal(br, 1);
	r = ring(8, eight, &br, &nb);
	assert_true(r > 0);
	assert_int_equal(nb, 1);
	assert_int_equal(br, 7);
}

/* A line of nodes (no cycle) never sees one, and a chain that passes a
 * node without it finds nothing. */
static void test_no_cycle(void **state)
{
	struct pfcdl_id a = mac_id(1), b = mac_id(2), c = mac_id(3);
	struct pfcdl_chain ch, ch2;
	unsigned len = 99;

	(void)state;
	pfcdl_extend(&c, NULL, 3, &ch);
	pfcdl_extend(&b, &ch, 3, &ch2);
	assert_false(pfcdl_cycle(&a, &ch2, &len));
	assert_int_equal(len, 99);
	assert_false(pfcdl_cycle(&a, &ch, &len));
}

static void test_add_eq(void **state)
{
	struct pfcdl_tlv t = {0}, u = {0};
	struct pfcdl_id a = mac_id(1);
	struct pfcdl_chain ch;

	(void)state;
	pfcdl_extend(&a, NULL, 3, &ch);
	assert_true(pfcdl_add(&t, &ch));
	assert_false(pfcdl_add(&t, &ch)); /* the same chain once */
	assert_false(pfcdl_eq(&t, &u));
	assert_true(pfcdl_add(&u, &ch));
	assert_true(pfcdl_eq(&t, &u));
	for (unsigned i = 1; i < PFCDL_CHAINS_MAX; i++) {
		pfcdl_extend(&a, NULL, (uint8_t)i % 8, &ch);
		ch.hop[0].v[0] = (uint8_t)i;
		assert_true(pfcdl_add(&t, &ch));
	}
	ch.hop[0].v[0] = 0xff;
	assert_false(pfcdl_add(&t, &ch)); /* full */
	assert_int_equal(t.n, PFCDL_CHAINS_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fixture_cycle),
	    cmocka_unit_test(test_fixture_two),
	    cmocka_unit_test(test_fixture_version),
	    cmocka_unit_test(test_fixture_malformed),
	    cmocka_unit_test(test_malformed),
	    cmocka_unit_test(test_round_trip),
	    cmocka_unit_test(test_extend),
	    cmocka_unit_test(test_ring),
	    cmocka_unit_test(test_no_cycle),
	    cmocka_unit_test(test_add_eq),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
