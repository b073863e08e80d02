/* test_ctl_proto: the control protocol as both ends speak it (lib/ctl):
 * every kind of request encoded and parsed back, strings that need
 * escapes, the size limits in the encoder's and the parser's words,
 * repeated keys refused, and the one table of show commands that rocesh's
 * command language and roced share. The daemon's side (rights, show
 * answers) is tests/daemon/test_ctl.c. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "base/strbuf.h"
#include "cmd/cmd_int.h"
#include "ctl/ctl.h"

static void assert_req_equal(const struct ctl_request *a,
                             const struct ctl_request *b)
{
	assert_int_equal(a->cmd, b->cmd);
	assert_int_equal(a->ncontext, b->ncontext);
	for (size_t i = 0; i < a->ncontext; i++)
		assert_string_equal(a->context[i], b->context[i]);
	assert_string_equal(a->line, b->line);
	assert_string_equal(a->what, b->what);
	assert_int_equal(a->nargs, b->nargs);
	for (size_t i = 0; i < a->nargs; i++)
		assert_string_equal(a->args[i], b->args[i]);
	assert_int_equal(a->json, b->json);
	assert_string_equal(a->from, b->from);
	assert_string_equal(a->to, b->to);
	assert_string_equal(a->subsys, b->subsys);
	assert_int_equal(a->on, b->on);
	assert_int_equal(a->force, b->force);
}

/* Encode R, check the text when WANT is given, parse it back and compare.
 */
static void round_trip(const struct ctl_request *r, const char *want)
{
	struct ctl_request back;
	struct strbuf sb;
	char err[256] = "";

	strbuf_init(&sb);
	assert_int_equal(ctl_request_encode(r, &sb, err, sizeof(err)), 0);
	if (want)
		assert_string_equal(strbuf_str(&sb), want);
	assert_true(sb.len <= CTL_MAX_REQUEST);
	if (ctl_request_parse(sb.s, sb.len, &back, err, sizeof(err)) < 0)
		fail_msg("%s: %s", strbuf_str(&sb), err);
	assert_req_equal(r, &back);
	strbuf_free(&sb);
}

#define SET(member, s) ctl_request_set((member), sizeof(member), (s))

static void test_each_kind(void **state)
{
	struct ctl_request r;

	(void)state;
	r = (struct ctl_request){.cmd = CTL_CMD_CONFIG, .ncontext = 2};
	SET(r.context[0], "policy-map type queuing ROCE_QUEUING_OUT");
	SET(r.context[1], "class type queuing c-out-8q-q3");
	SET(r.line, "bandwidth remaining percent 50");
	round_trip(&r, "{\"cmd\":\"config\",\"context\":[\"policy-map type "
	               "queuing ROCE_QUEUING_OUT\",\"class type queuing "
	               "c-out-8q-q3\"],\"line\":\"bandwidth remaining "
	               "percent 50\"}");
	r = (struct ctl_request){.cmd = CTL_CMD_CONFIG};
	SET(r.line, "end");
	round_trip(&r, "{\"cmd\":\"config\",\"context\":[],\"line\":\"end\"}");

	r = (struct ctl_request){.cmd = CTL_CMD_SHOW, .nargs = 1, .json = true};
	SET(r.what, CTL_WHAT_QUEUING_IF);
	SET(r.args[0], "Ethernet1/1");
	/* '/' needs no escape, and a name in a log stays readable */
	round_trip(&r, "{\"cmd\":\"show\",\"what\":\"show queuing interface\","
	               "\"args\":[\"Ethernet1/1\"],\"json\":true}");
	r = (struct ctl_request){.cmd = CTL_CMD_SHOW, .nargs = 3};
	SET(r.what, CTL_WHAT_PFC_QUEUE);
	SET(r.args[0], "interface");
	SET(r.args[1], "swp1");
	SET(r.args[2], "detail");
	round_trip(&r, NULL);
	for (int s = 0; s < CTL_SHOW_COUNT; s++) {
		r = (struct ctl_request){.cmd = CTL_CMD_SHOW};
		SET(r.what, ctl_show_name((enum ctl_show)s));
		round_trip(&r, NULL);
	}

	r = (struct ctl_request){.cmd = CTL_CMD_COPY};
	SET(r.from, "running-config");
	SET(r.to, "startup-config");
	round_trip(&r, "{\"cmd\":\"copy\",\"from\":\"running-config\","
	               "\"to\":\"startup-config\"}");

	r = (struct ctl_request){.cmd = CTL_CMD_DEBUG, .on = true};
	SET(r.subsys, "dcbx");
	round_trip(&r, "{\"cmd\":\"debug\",\"subsys\":\"dcbx\",\"on\":true}");
	r.on = false;
	round_trip(&r, "{\"cmd\":\"debug\",\"subsys\":\"dcbx\",\"on\":false}");

	/* The encoder writes the optional key too: the request says what it
	 * asks for, whatever the daemon's default. */
	r = (struct ctl_request){.cmd = CTL_CMD_RELOAD};
	round_trip(&r, "{\"cmd\":\"reload\",\"force\":false,"
	               "\"dry-run\":false}");
	r.force = true;
	round_trip(&r, "{\"cmd\":\"reload\",\"force\":true,"
	               "\"dry-run\":false}");
	/* An optional string left empty is not sent; a dry run may name a
	 * candidate file. */
	r = (struct ctl_request){.cmd = CTL_CMD_RELOAD, .dry_run = true};
	SET(r.file, "/etc/roced/candidate.conf");
	round_trip(&r, "{\"cmd\":\"reload\",\"force\":false,"
	               "\"dry-run\":true,"
	               "\"file\":\"/etc/roced/candidate.conf\"}");
	r = (struct ctl_request){.cmd = CTL_CMD_PING};
	round_trip(&r, "{\"cmd\":\"ping\"}");
}

static void test_escapes(void **state)
{
	static const char *const strs[] = {
	    "a\"b",
	    "a\\b",
	    "\\\"\\\"",
	    "\"",
	    "\\",
	    "trailing backslash\\",
	    "x\\u0041y", /* stays six bytes, not 'A' */
	    "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
	    "{\"cmd\":\"reload\"}",
	    "a,\"line\":\"b",
	    "",
	};
	struct ctl_request r;

	(void)state;
	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++) {
		r = (struct ctl_request){.cmd = CTL_CMD_CONFIG, .ncontext = 1};
		SET(r.context[0], strs[i]);
		SET(r.line, strs[i]);
		round_trip(&r, NULL);
		r = (struct ctl_request){.cmd = CTL_CMD_SHOW, .nargs = 2};
		SET(r.what, CTL_WHAT_CLASS_MAP);
		SET(r.args[0], strs[i]);
		SET(r.args[1], strs[i]);
		round_trip(&r, NULL);
		r = (struct ctl_request){.cmd = CTL_CMD_DEBUG};
		SET(r.subsys, strs[i]);
		round_trip(&r, NULL);
	}
	r = (struct ctl_request){.cmd = CTL_CMD_CONFIG};
	SET(r.line, "a\"b\\c\xc3\xa9");
	round_trip(&r, "{\"cmd\":\"config\",\"context\":[],"
	               "\"line\":\"a\\\"b\\\\c\xc3\xa9\"}");
}

/* Control characters have no place in a command line and roced refuses
 * them, but the encoder still writes them as JSON says: the refusal is
 * then the parser's clear one, not "malformed JSON". */
static void test_control_characters(void **state)
{
	(void)state;
	for (int c = 1; c < 0x80; c++) {
		struct ctl_request r = {.cmd = CTL_CMD_CONFIG}, back;
		struct json_object *o, *line;
		struct strbuf sb;
		char s[4] = {'a', (char)c, 'b', '\0'};
		char err[256] = "";

		if (c >= 0x20 && c < 0x7f)
			continue;
		SET(r.line, s);
		strbuf_init(&sb);
		assert_int_equal(ctl_request_encode(&r, &sb, err, sizeof(err)),
		                 0);
		for (size_t i = 0; i < sb.len; i++)
			assert_true((unsigned char)sb.s[i] >= 0x20 &&
			            sb.s[i] != 0x7f);
		o = json_tokener_parse(sb.s);
		assert_non_null(o);
		assert_true(json_object_object_get_ex(o, "line", &line));
		assert_string_equal(json_object_get_string(line), s);
		json_object_put(o);
		assert_int_equal(
		    ctl_request_parse(sb.s, sb.len, &back, err, sizeof(err)),
		    -EINVAL);
		assert_string_equal(err, "% 'line' holds a control character");
		strbuf_free(&sb);
	}
	{
		struct ctl_request r = {.cmd = CTL_CMD_CONFIG};
		struct strbuf sb;
		char err[256];

		SET(r.line, "\n\t\r\x01\x1f\x7f");
		strbuf_init(&sb);
		assert_int_equal(ctl_request_encode(&r, &sb, err, sizeof(err)),
		                 0);
		assert_string_equal(strbuf_str(&sb),
		                    "{\"cmd\":\"config\",\"context\":[],"
		                    "\"line\":\"\\n\\t\\r\\u0001\\u001f"
		                    "\\u007f\"}");
		strbuf_free(&sb);
	}
}

/* Fill DST (SIZE bytes) with SIZE - 1 copies of C. */
static void fill(char *dst, size_t size, char c)
{
	memset(dst, c, size - 1);
	dst[size - 1] = '\0';
}

static void test_size_limits(void **state)
{
	struct ctl_request r = {.cmd = CTL_CMD_SHOW, .nargs = CTL_ARGS_MAX},
	                   back;
	struct strbuf sb;
	char err[256], perr[256];

	(void)state;
	/* Every member full of what escapes longest still fits one
	 * datagram: in quotes, which roced takes... */
	SET(r.what, CTL_WHAT_QUEUING_IF);
	for (size_t i = 0; i < CTL_ARGS_MAX; i++)
		fill(r.args[i], sizeof(r.args[i]), '"');
	round_trip(&r, NULL);
	r = (struct ctl_request){.cmd = CTL_CMD_CONFIG,
	                         .ncontext = CTL_CONTEXT_MAX};
	for (size_t i = 0; i < CTL_CONTEXT_MAX; i++)
		fill(r.context[i], sizeof(r.context[i]), '\\');
	fill(r.line, sizeof(r.line), '\\');
	round_trip(&r, NULL);
	/* ...and in control characters, six bytes each, which it refuses
	 * for what they are, not for the size. */
	r = (struct ctl_request){.cmd = CTL_CMD_SHOW, .nargs = CTL_ARGS_MAX};
	SET(r.what, CTL_WHAT_QUEUING_IF);
	for (size_t i = 0; i < CTL_ARGS_MAX; i++)
		fill(r.args[i], sizeof(r.args[i]), '\x01');
	strbuf_init(&sb);
	assert_int_equal(ctl_request_encode(&r, &sb, err, sizeof(err)), 0);
	assert_true(sb.len > CTL_ARGS_MAX * (CTL_ARG_LEN - 1) * 6);
	assert_true(sb.len <= CTL_MAX_REQUEST);
	assert_int_equal(
	    ctl_request_parse(sb.s, sb.len, &back, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "control character"));

	/* A member without its NUL is too long, in the parser's words for
	 * the same string one byte over. */
	r = (struct ctl_request){.cmd = CTL_CMD_CONFIG};
	memset(r.line, 'a', sizeof(r.line));
	strbuf_reset(&sb);
	strbuf_puts(&sb, "kept");
	assert_int_equal(ctl_request_encode(&r, &sb, err, sizeof(err)),
	                 -EINVAL);
	assert_string_equal(strbuf_str(&sb), "kept");
	strbuf_reset(&sb);
	strbuf_puts(&sb, "{\"cmd\":\"config\",\"line\":\"");
	strbuf_add(&sb, r.line, sizeof(r.line));
	strbuf_puts(&sb, "\"}");
	assert_int_equal(
	    ctl_request_parse(sb.s, sb.len, &back, perr, sizeof(perr)),
	    -EINVAL);
	assert_string_equal(err, perr);
	assert_string_equal(err, "% 'line' is too long (at most 511 bytes)");

	r = (struct ctl_request){.cmd = CTL_CMD_SHOW, .nargs = 2};
	SET(r.what, CTL_WHAT_CLASS_MAP);
	memset(r.args[1], 'x', sizeof(r.args[1]));
	assert_int_equal(ctl_request_encode(&r, &sb, err, sizeof(err)),
	                 -EINVAL);
	assert_string_equal(err, "% 'args[1]' is too long (at most 63 bytes)");
	r = (struct ctl_request){.cmd = CTL_CMD_DEBUG};
	memset(r.subsys, 'x', sizeof(r.subsys));
	assert_int_equal(ctl_request_encode(&r, &sb, err, sizeof(err)),
	                 -EINVAL);
	assert_string_equal(err, "% 'subsys' is too long (at most 63 bytes)");

	/* More items than the arrays hold. */
	r = (struct ctl_request){.cmd = CTL_CMD_SHOW,
	                         .nargs = CTL_ARGS_MAX + 1};
	SET(r.what, CTL_WHAT_CLASS_MAP);
	assert_int_equal(ctl_request_encode(&r, &sb, err, sizeof(err)),
	                 -EINVAL);
	assert_string_equal(err, "% 'args' has 25 items, at most 24");
	strbuf_reset(&sb);
	strbuf_puts(&sb, "{\"cmd\":\"show\",\"what\":\"show class-map\","
	                 "\"args\":[");
	for (size_t i = 0; i <= CTL_ARGS_MAX; i++)
		strbuf_puts(&sb, i ? ",\"a\"" : "\"a\"");
	strbuf_puts(&sb, "]}");
	assert_int_equal(
	    ctl_request_parse(sb.s, sb.len, &back, perr, sizeof(perr)),
	    -EINVAL);
	assert_string_equal(err, perr);
	r = (struct ctl_request){.cmd = CTL_CMD_CONFIG,
	                         .ncontext = CTL_CONTEXT_MAX + 1};
	assert_int_equal(ctl_request_encode(&r, &sb, err, sizeof(err)),
	                 -EINVAL);
	assert_string_equal(err, "% 'context' has 4 items, at most 3");

	/* No such command. */
	r = (struct ctl_request){.cmd = (enum ctl_cmd)CTL_CMD_COUNT};
	assert_int_equal(ctl_request_encode(&r, &sb, err, sizeof(err)),
	                 -EINVAL);
	assert_non_null(strstr(err, "unknown cmd"));
	strbuf_free(&sb);
}

static void test_request_set(void **state)
{
	char dst[4] = "zzz";

	(void)state;
	ctl_request_set(dst, sizeof(dst), "ab");
	assert_string_equal(dst, "ab");
	ctl_request_set(dst, sizeof(dst), "abc");
	assert_string_equal(dst, "abc");
	/* cut short would be another name: no NUL, so the encoder refuses */
	ctl_request_set(dst, sizeof(dst), "abcd");
	assert_memory_equal(dst, "abcd", 4);
}

#define ASSERT_REFUSED(json, want)                                             \
	do {                                                                   \
		struct ctl_request r_;                                         \
		char e_[256] = "";                                             \
		const char *j_ = (json);                                       \
		assert_int_equal(                                              \
		    ctl_request_parse(j_, strlen(j_), &r_, e_, sizeof(e_)),    \
		    -EINVAL);                                                  \
		if (strcmp(e_, (want)))                                        \
			fail_msg("%s: error '%s', want '%s'", j_, e_, (want)); \
	} while (0)

static void parse_ok(const char *json, enum ctl_cmd cmd)
{
	struct ctl_request r;
	char err[256] = "";

	if (ctl_request_parse(json, strlen(json), &r, err, sizeof(err)) < 0)
		fail_msg("%s: %s", json, err);
	assert_int_equal(r.cmd, cmd);
}

static void test_duplicate_keys(void **state)
{
	(void)state;
	/* json-c alone keeps the last: this would reload. */
	ASSERT_REFUSED("{\"cmd\":\"ping\",\"cmd\":\"reload\"}",
	               "% key 'cmd' appears twice");
	ASSERT_REFUSED(" { \"cmd\" : \"config\" , \"line\" : \"a\" ,\n"
	               "\"line\" : \"b\" } ",
	               "% key 'line' appears twice");
	ASSERT_REFUSED("{\"cmd\":\"show\",\"what\":\"show class-map\","
	               "\"json\":false,\"args\":[],\"json\":true}",
	               "% key 'json' appears twice");
	/* the same key spelt with escapes */
	ASSERT_REFUSED("{\"cmd\":\"ping\",\"c\\u006dd\":\"reload\"}",
	               "% key 'cmd' appears twice");
	ASSERT_REFUSED("{\"cmd\":\"ping\",\"cm\\u0064\":\"reload\","
	               "\"x\":1}",
	               "% key 'cmd' appears twice");
	/* json-c cuts a key at an escaped NUL: "cmd\0x" would be "cmd" */
	ASSERT_REFUSED("{\"cmd\\u0000x\":\"reload\"}",
	               "% a key holds a NUL byte");
	ASSERT_REFUSED("{\"cmd\":\"ping\",\"cmd\\u0000\":\"reload\"}",
	               "% a key holds a NUL byte");
	/* A reload applies the configuration file only: another file is
	 * for a dry run, and must be a string. */
	ASSERT_REFUSED("{\"cmd\":\"reload\",\"file\":\"/etc/roced/x.conf\"}",
	               "% 'file' needs 'dry-run': a reload applies the "
	               "configuration file only");
	ASSERT_REFUSED("{\"cmd\":\"reload\",\"dry-run\":true,\"file\":1}",
	               "% 'file' must be a string");
	parse_ok("{\"cmd\":\"reload\",\"dry-run\":true}", CTL_CMD_RELOAD);
	/* Malformed JSON is still malformed first. */
	ASSERT_REFUSED("{\"cmd\":\"ping\",\"cmd\":}",
	               "% malformed JSON: unexpected character");

	/* Values that look like keys are values; equal values are fine. */
	parse_ok("{\"cmd\":\"config\",\"line\":\"x\\\",\\\"cmd\\\":\\\"y\"}",
	         CTL_CMD_CONFIG);
	parse_ok("{\"cmd\":\"config\",\"context\":[\"line\",\"line\"],"
	         "\"line\":\"line\"}",
	         CTL_CMD_CONFIG);
	parse_ok("{\"cmd\":\"show\",\"what\":\"show class-map\","
	         "\"args\":[\"a,\\\"what\\\":\",\"{\",\"[\"],"
	         "\"json\":true}",
	         CTL_CMD_SHOW);
	parse_ok("{\"cmd\" :\"debug\",\"subsys\":\"a\\\\\",\"on\":true}",
	         CTL_CMD_DEBUG);
	/* Distinct unknown keys are unknown, not repeated. */
	ASSERT_REFUSED("{\"cmd\":\"ping\",\"a\":1,\"b\":{\"a\":1,\"a\":2}}",
	               "% unknown key 'a' in a ping request");
}

/* The show commands of the command language are the protocol's, one for
 * one, and roced refuses any other. */
static void test_show_names(void **state)
{
	bool seen[CTL_SHOW_COUNT] = {false};

	(void)state;
	for (int s = 0; s < CTL_SHOW_COUNT; s++) {
		const char *name = ctl_show_name((enum ctl_show)s);

		assert_int_equal(ctl_show_parse(name), s);
		assert_int_equal(strncmp(name, "show ", 5), 0);
	}
	assert_string_equal(ctl_show_name((enum ctl_show)CTL_SHOW_COUNT), "?");
	assert_int_equal(ctl_show_parse("show versions"), -EINVAL);
	assert_int_equal(ctl_show_parse("show queuing"), -EINVAL);
	assert_int_equal(ctl_show_parse(""), -EINVAL);
	/* the NX-OS table and the checkpoint one (cmd_ckpt.c) */
	for (size_t i = 0; i < cmd_nxos.n + cmd_ckpt.n; i++) {
		const struct cmd_def *d = i < cmd_nxos.n
		                              ? &cmd_nxos.def[i]
		                              : &cmd_ckpt.def[i - cmd_nxos.n];
		int s;

		if (d->kind != CMD_KIND_SHOW)
			continue;
		s = ctl_show_parse(d->name);
		if (s < 0)
			fail_msg("show command '%s' is not in lib/ctl's table",
			         d->name);
		seen[s] = true;
		/* the syntax begins with the name: one spelling; except
		 * NX-OS's per-port forms `show interface X
		 * priority-flow-control`, `show interface X flowcontrol` and
		 * `show interface X counters`, which hold the name's words in
		 * order around the interface */
		if (strncmp(d->syntax, d->name, strlen(d->name))) {
			char words[128], *save = NULL;
			const char *at = d->syntax;

			assert_true(!strcmp(d->name, CTL_WHAT_PFC_IF) ||
			            !strcmp(d->name, CTL_WHAT_FC_IF) ||
			            !strcmp(d->name, CTL_WHAT_IF_COUNTERS));
			snprintf(words, sizeof(words), "%s", d->name);
			for (char *w = strtok_r(words, " ", &save); w;
			     w = strtok_r(NULL, " ", &save)) {
				at = strstr(at, w);
				assert_non_null(at);
				at += strlen(w);
			}
		}
	}
	for (int s = 0; s < CTL_SHOW_COUNT; s++)
		if (!seen[s])
			fail_msg("'%s' is no show command of the language",
			         ctl_show_name((enum ctl_show)s));
	ASSERT_REFUSED("{\"cmd\":\"show\",\"what\":\"show versions\"}",
	               "% unknown show command 'show versions'");
	ASSERT_REFUSED("{\"cmd\":\"show\",\"what\":\"show queuing interface "
	               "\"}",
	               "% unknown show command 'show queuing interface '");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_each_kind),
	    cmocka_unit_test(test_escapes),
	    cmocka_unit_test(test_control_characters),
	    cmocka_unit_test(test_size_limits),
	    cmocka_unit_test(test_request_set),
	    cmocka_unit_test(test_duplicate_keys),
	    cmocka_unit_test(test_show_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
