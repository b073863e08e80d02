/* Unit tests of the escaping of outside bytes (lib/base/escape.c) and of
 * an LLDP peer's text TLVs through it: terminal escapes, NUL, newlines,
 * invalid and overlong UTF-8, C1 and bidirectional controls all come out
 * as \xNN; printable UTF-8 passes; the result is always clean. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "base/escape.h"
#include "base/strbuf.h"
#include "proto/lldp.h"

static void esc_eq(const char *in, size_t n, unsigned flags, const char *want)
{
	struct strbuf sb;

	strbuf_init(&sb);
	escape_add(&sb, in, n, flags);
	assert_string_equal(strbuf_str(&sb), want);
	assert_true(escape_is_clean(strbuf_str(&sb), sb.len, false));
	strbuf_free(&sb);
}

static void test_escape_ascii(void **state)
{
	(void)state;
	esc_eq("leaf1.example", 13, 0, "leaf1.example");
	esc_eq("", 0, 0, "");
	/* The screen-clearing name of a hostile neighbour. */
	esc_eq("sw\x1b[2J", 6, 0, "sw\\x1b[2J");
	esc_eq("a\nb\rc\td", 7, 0, "a\\x0ab\\x0dc\\x09d");
	esc_eq("a\0b", 3, 0, "a\\x00b");
	esc_eq("\x7f", 1, 0, "\\x7f");
	/* A backslash is doubled in show output only. */
	esc_eq("a\\x1b", 5, ESCAPE_BACKSLASH, "a\\\\x1b");
	esc_eq("a\\x1b", 5, 0, "a\\x1b");
}

static void test_escape_utf8(void **state)
{
	(void)state;
	esc_eq("Z\xc3\xbcrich", 7, 0, "Z\xc3\xbcrich");       /* U+00FC */
	esc_eq("\xe2\x82\xac", 3, 0, "\xe2\x82\xac");         /* U+20AC */
	esc_eq("\xf0\x9f\x98\x80", 4, 0, "\xf0\x9f\x98\x80"); /* U+1F600 */
	esc_eq("\xff\xfe", 2, 0, "\\xff\\xfe");               /* never UTF-8 */
	esc_eq("\xc3", 1, 0, "\\xc3");                        /* cut short */
	esc_eq("\xc3(", 2, 0, "\\xc3(");                      /* bad follower */
	esc_eq("\xc0\xaf", 2, 0, "\\xc0\\xaf");               /* overlong '/' */
	esc_eq("\xe0\x80\xaf", 3, 0, "\\xe0\\x80\\xaf");      /* overlong */
	esc_eq("\xed\xa0\x80", 3, 0, "\\xed\\xa0\\x80");      /* surrogate */
	esc_eq("\xf4\x90\x80\x80", 4, 0, "\\xf4\\x90\\x80\\x80"); /* > 10FFFF */
	esc_eq("\xc2\x9b"
	       "2J",
	       4, 0, "\\xc2\\x9b2J");                    /* C1 CSI */
	esc_eq("\xe2\x80\xae", 3, 0, "\\xe2\\x80\\xae"); /* RLO */
	esc_eq("\xe2\x80\xa8", 3, 0, "\\xe2\\x80\\xa8"); /* LS */
	/* Unicode's other format characters: invisible, and the Arabic
	 * letter mark reorders like the marks above. */
	esc_eq("a\xd8\x9c"
	       "b",
	       4, 0, "a\\xd8\\x9cb");                    /* U+061C ALM */
	esc_eq("\xe2\x81\xa6", 3, 0, "\\xe2\\x81\\xa6"); /* U+2066 LRI */
	esc_eq("\xe2\x80\x8b", 3, 0, "\\xe2\\x80\\x8b"); /* U+200B ZWSP */
	esc_eq("\xe2\x81\xa0", 3, 0, "\\xe2\\x81\\xa0"); /* U+2060 WJ */
	esc_eq("\xc2\xad", 2, 0, "\\xc2\\xad");          /* U+00AD SHY */
	esc_eq("\xd8\x80", 2, 0, "\\xd8\\x80");          /* U+0600 */
	esc_eq("\xef\xbf\xb9", 3, 0, "\\xef\\xbf\\xb9"); /* U+FFF9 */
	esc_eq("\xf3\xa0\x80\x81", 4, 0,
	       "\\xf3\\xa0\\x80\\x81"); /* U+E0001 tag */
	/* their neighbours pass */
	esc_eq("\xd8\x9b", 2, 0, "\xd8\x9b");         /* U+061B */
	esc_eq("\xe2\x81\xb0", 3, 0, "\xe2\x81\xb0"); /* U+2070 */
	esc_eq("\xc2\xac", 2, 0, "\xc2\xac");         /* U+00AC */
}

/* ESCAPE_NEWLINE keeps the lines of a text, and only them. */
static void test_escape_lines(void **state)
{
	char b[64];

	(void)state;
	escape_buf(b, sizeof(b), "a\nb\r\x1b\n", 6, ESCAPE_NEWLINE);
	assert_string_equal(b, "a\nb\\x0d\\x1b\n");
	escape_buf(b, sizeof(b), "a\nb", 3, 0);
	assert_string_equal(b, "a\\x0ab");
}

static void test_escape_buf(void **state)
{
	char b[8];

	(void)state;
	assert_int_equal(escape_buf(b, sizeof(b), "abc", 3, 0), 3);
	assert_string_equal(b, "abc");
	/* Cut before an escape that would not fit whole. */
	assert_int_equal(escape_buf(b, sizeof(b), "abcd\x1b", 5, 0), 4);
	assert_string_equal(b, "abcd");
	assert_int_equal(escape_buf(b, 1, "abc", 3, 0), 0);
	assert_string_equal(b, "");
	/* Never half a UTF-8 character. */
	assert_int_equal(escape_buf(b, 4, "ab\xe2\x82\xac", 5, 0), 2);
}

static void test_escape_clean(void **state)
{
	(void)state;
	assert_true(escape_is_clean("abc", 3, false));
	assert_false(escape_is_clean("a\nb", 3, false));
	assert_true(escape_is_clean("a\nb", 3, true));
	assert_false(escape_is_clean("a\x1b", 2, true));
	assert_false(escape_is_clean("\xc3", 1, true));
	/* Every single byte, escaped, is clean. */
	for (unsigned c = 0; c < 256; c++) {
		char in = (char)c, out[8];
		size_t n = escape_buf(out, sizeof(out), &in, 1, 0);

		assert_true(escape_is_clean(out, n, false));
		assert_true(n == 1 || n == 4);
	}
}

/* An LLDPDU whose System Name is NAME (N bytes), decoded and printed. */
static void lldp_name_case(const char *name, size_t n, const char *want)
{
	uint8_t f[400];
	size_t off = 0;
	struct lldp_pdu pdu;
	struct strbuf sb;
	char err[128];

	/* Chassis ID: subtype 7 (local) "c"; Port ID: subtype 7 "p"; TTL. */
	static const uint8_t head[] = {0x02, 0x02, 0x07, 'c',  0x04, 0x02,
	                               0x07, 'p',  0x06, 0x02, 0x00, 0x78};
	memcpy(f, head, sizeof(head));
	off = sizeof(head);
	f[off++] = (uint8_t)(5 << 1 | (n >> 8)); /* System Name */
	f[off++] = (uint8_t)n;
	memcpy(f + off, name, n);
	off += n;
	f[off++] = 0;
	f[off++] = 0;
	assert_int_equal(lldp_decode(f, off, &pdu, err, sizeof(err)), 0);
	assert_int_equal(pdu.sys_name_len, n);
	assert_int_equal(lldp_text_len(pdu.sys_name, pdu.sys_name_len), n);
	strbuf_init(&sb);
	lldp_print(&pdu, &sb);
	assert_non_null(strstr(strbuf_str(&sb), want));
	assert_true(escape_is_clean(strbuf_str(&sb), sb.len, true));
	strbuf_free(&sb);
}

static void test_escape_lldp_names(void **state)
{
	char big[255];

	(void)state;
	lldp_name_case("sw\x1b[2J\nFAKE", 12, "sw\\x1b[2J\\x0aFAKE");
	/* A NUL hides nothing after it. */
	lldp_name_case("leaf1\0evil", 10, "leaf1\\x00evil");
	lldp_name_case("\xff\xfe", 2, "\\xff\\xfe");
	memset(big, 0x1b, sizeof(big));
	lldp_name_case(big, sizeof(big), "\\x1b\\x1b");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_escape_ascii),
	    cmocka_unit_test(test_escape_utf8),
	    cmocka_unit_test(test_escape_buf),
	    cmocka_unit_test(test_escape_lines),
	    cmocka_unit_test(test_escape_clean),
	    cmocka_unit_test(test_escape_lldp_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
