/* Unit tests of lib/cmd/cmd_ckpt.c: a checkpoint's text rebuilds the
 * policy it was taken of (the shipped reference policy and one with
 * aliased and plain ports interleaved), its file reads back, a file cut
 * short, edited by hand, grown or not roced's is refused with the reason,
 * names that would escape the state directory are refused, the rollback
 * patch shows exactly the lines that differ under their mode lines, and
 * the command rows parse. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "cmd/cmd_ckpt.h"
#include "cmd/cmd_int.h"
#include "cmd/cmd_show.h"
#include "conf/conf.h"
#include "policy_eq.h"

static void load_conf(const char *rel, struct policy *p)
{
	char path[1024];
	struct diag d;

	snprintf(path, sizeof(path), "%s/%s", TEST_SRCDIR, rel);
	diag_init(&d, path);
	if (conf_load_file(path, p, &d) < 0)
		fail_msg("%s does not load", path);
	diag_free(&d);
}

/* P's checkpoint text, carried out again, is P. */
static void assert_rebuilds(const struct policy *p)
{
	struct strbuf sb;
	struct policy back;
	struct cmd_error err;
	char *a, *b;

	strbuf_init(&sb);
	cmd_ckpt_text(p, &sb);
	if (cmd_ckpt_replay(strbuf_str(&sb), &back, &err) < 0)
		fail_msg("replay: %s\n%s", err.message, strbuf_str(&sb));
	policy_assert_equal(p, &back);
	a = conf_write_string(p);
	b = conf_write_string(&back);
	assert_string_equal(a, b);
	free(a);
	free(b);
	policy_free(&back);
	strbuf_free(&sb);
}

static void test_rebuild(void **state)
{
	struct policy p;
	struct policy_iface *f;

	(void)state;
	load_conf("conf/roced.conf", &p);
	assert_true(p.nifaces > 0);
	assert_rebuilds(&p);
	/* A plain port between aliased ones keeps its place. */
	f = policy_add_iface(&p, "veth9");
	assert_non_null(f);
	f = policy_add_iface(&p, "swp7");
	assert_non_null(f);
	snprintf(f->alias, sizeof(f->alias), "Ethernet1/7");
	assert_rebuilds(&p);
	policy_free(&p);
	/* An empty policy too. */
	policy_init(&p);
	assert_rebuilds(&p);
	policy_free(&p);
}

static void test_replay_refuses(void **state)
{
	struct policy p;
	struct cmd_error err;

	(void)state;
	assert_int_equal(cmd_ckpt_replay("class-map type qos match-all A\n"
	                                 "  match dscp 99\n",
	                                 &p, &err),
	                 -1);
	assert_non_null(strstr(err.message, "line 2: "));
	assert_int_equal(p.nclass_qos, 0);
	assert_int_equal(cmd_ckpt_replay("show running-config\n", &p, &err),
	                 -1);
	assert_non_null(strstr(err.message, "line 1: "));
}

static void formatted(struct strbuf *out, struct cmd_ckpt_meta *m,
                      const char *body)
{
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "stable");
	snprintf(m->descr, sizeof(m->descr), "before the change");
	m->created = 1796636130;
	m->uid = 7;
	strbuf_init(out);
	cmd_ckpt_format(m, body, out);
}

static void test_file(void **state)
{
	const char *body = "class-map type qos match-all A\n  match dscp 26\n";
	struct cmd_ckpt_meta m, back;
	struct strbuf sb;
	const char *b;
	char err[256], *copy;
	size_t blen, len;

	(void)state;
	formatted(&sb, &m, body);
	len = sb.len;
	assert_int_equal(
	    cmd_ckpt_parse(sb.s, len, &back, &b, &blen, err, sizeof(err)), 0);
	assert_string_equal(back.name, "stable");
	assert_string_equal(back.descr, "before the change");
	assert_int_equal(back.created, 1796636130);
	assert_int_equal(back.uid, 7);
	assert_int_equal(blen, strlen(body));
	assert_memory_equal(b, body, blen);
	assert_int_equal(back.rollback_at, 0);
	/* A confirmed commit's checkpoint says when it is rolled back to. */
	{
		struct strbuf cs;

		strbuf_init(&cs);
		m.rollback_at = 1796636190;
		cmd_ckpt_format(&m, body, &cs);
		assert_non_null(strstr(cs.s, "\nrollback-at 1796636190\n"));
		assert_int_equal(cmd_ckpt_parse(cs.s, cs.len, &back, &b, &blen,
		                                err, sizeof(err)),
		                 0);
		assert_int_equal(back.rollback_at, 1796636190);
		strbuf_free(&cs);
	}

	/* Cut short: the missing bytes are counted. */
	assert_int_equal(
	    cmd_ckpt_parse(sb.s, len - 10, &back, &b, &blen, err, sizeof(err)),
	    -1);
	assert_non_null(strstr(err, "cut short"));
	/* Cut in the header. */
	assert_int_equal(
	    cmd_ckpt_parse(sb.s, 40, &back, &b, &blen, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cut short in its header"));
	/* One byte of the body changed by hand. */
	copy = strdup(sb.s);
	copy[len - 3] = '7';
	assert_int_equal(
	    cmd_ckpt_parse(copy, len, &back, &b, &blen, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "checksum does not match"));
	/* A line added by hand. */
	strbuf_puts(&sb, "  match cos 3\n");
	assert_int_equal(
	    cmd_ckpt_parse(sb.s, sb.len, &back, &b, &blen, err, sizeof(err)),
	    -1);
	assert_non_null(strstr(err, "more than its header says"));
	/* Another file. */
	assert_int_equal(
	    cmd_ckpt_parse("hello\n", 6, &back, &b, &blen, err, sizeof(err)),
	    -1);
	assert_non_null(strstr(err, "not a roced checkpoint"));
	/* A header line roced does not write. */
	free(copy);
	copy = strdup(sb.s);
	memcpy(strstr(copy, "user 7"), "usex 7", 6);
	assert_int_equal(cmd_ckpt_parse(copy, strlen(copy), &back, &b, &blen,
	                                err, sizeof(err)),
	                 -1);
	assert_non_null(strstr(err, "line 5: 'usex'"));
	free(copy);
	strbuf_free(&sb);
}

static void test_names(void **state)
{
	static const char *const bad[] = {
	    "",         "..",  ".hidden",
	    "-x",       "a/b", "a b",
	    "system-1", "x\n", "123456789012345678901234567890123",
	};
	static const char *const good[] = {
	    "stable",
	    "user-checkpoint-1",
	    "pre_change.2",
	    "a",
	    "12345678901234567890123456789012",
	};
	char why[160];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++)
		if (cmd_ckpt_name_ok(bad[i], why, sizeof(why)) == 0)
			fail_msg("'%s' accepted as a name", bad[i]);
	for (size_t i = 0; i < sizeof(good) / sizeof(*good); i++)
		if (cmd_ckpt_name_ok(good[i], why, sizeof(why)) < 0)
			fail_msg("'%s' refused: %s", good[i], why);
}

static void test_diff(void **state)
{
	const char *a = "policy-map type queuing Q\n"
	                "  class type queuing c-out-8q-q3\n"
	                "    bandwidth remaining percent 50\n"
	                "  class type queuing c-out-8q-q-default\n"
	                "    bandwidth remaining percent 50\n"
	                "!\n"
	                "interface swp1\n"
	                "  priority-flow-control mode on\n"
	                "interface swp3\n"
	                "  priority-flow-control mode auto\n";
	const char *b = "policy-map type queuing Q\n"
	                "  class type queuing c-out-8q-q3\n"
	                "    bandwidth remaining percent 60\n"
	                "  class type queuing c-out-8q-q-default\n"
	                "    bandwidth remaining percent 50\n"
	                "!\n"
	                "interface swp1\n"
	                "  priority-flow-control mode on\n"
	                "interface swp2\n"
	                "  priority-flow-control mode on\n";
	struct strbuf sb;

	(void)state;
	strbuf_init(&sb);
	assert_int_equal(cmd_ckpt_diff(a, a, &sb), 0);
	assert_int_equal(sb.len, 0);
	/* What goes away with its block first; then B's order, a changed
	 * value's old line just before its new one, each mode line once. */
	assert_int_equal(cmd_ckpt_diff(a, b, &sb), 6);
	assert_string_equal(strbuf_str(&sb),
	                    "-interface swp3\n"
	                    "-  priority-flow-control mode auto\n"
	                    " policy-map type queuing Q\n"
	                    "   class type queuing c-out-8q-q3\n"
	                    "-    bandwidth remaining percent 50\n"
	                    "+    bandwidth remaining percent 60\n"
	                    "+interface swp2\n"
	                    "+  priority-flow-control mode on\n");
	strbuf_reset(&sb);
	/* The other way round: the same lines, marks swapped. */
	assert_int_equal(cmd_ckpt_diff(b, a, &sb), 6);
	assert_string_equal(strbuf_str(&sb),
	                    "-interface swp2\n"
	                    "-  priority-flow-control mode on\n"
	                    " policy-map type queuing Q\n"
	                    "   class type queuing c-out-8q-q3\n"
	                    "-    bandwidth remaining percent 60\n"
	                    "+    bandwidth remaining percent 50\n"
	                    "+interface swp3\n"
	                    "+  priority-flow-control mode auto\n");
	strbuf_free(&sb);
	/* The port map is left out of what a diff reads. */
	assert_string_equal(cmd_ckpt_config("interface swp1\n  alias E1/1\n"
	                                    "!\nclass-map type qos A\n"),
	                    "class-map type qos A\n");
	assert_string_equal(cmd_ckpt_config("class-map type qos A\n"),
	                    "class-map type qos A\n");
}

/* The rows compile, parse as NX-OS spells them, and fill the show query
 * (two names for a rollback patch). */
static void test_rows(void **state)
{
	static const struct {
		enum cmd_mode mode;
		const char *line, *name;
	} cases[] = {
	    {CMD_MODE_EXEC, "checkpoint", "checkpoint"},
	    {CMD_MODE_EXEC, "checkpoint stable description before it",
	     "checkpoint"},
	    {CMD_MODE_EXEC, "no checkpoint stable", "checkpoint"},
	    {CMD_MODE_EXEC, "clear checkpoint database",
	     "clear checkpoint database"},
	    {CMD_MODE_EXEC, "rollback running-config checkpoint stable",
	     "rollback running-config"},
	    {CMD_MODE_EXEC,
	     "rollback running-config checkpoint stable best-effort",
	     "rollback running-config"},
	    {CMD_MODE_EXEC, "sh checkpoint summary", CTL_WHAT_CKPT_SUMMARY},
	    {CMD_MODE_EXEC, "configure session s1", "configure session"},
	    {CMD_MODE_CONFIG, "commit", "commit"},
	    {CMD_MODE_IF, "commit confirmed 30", "commit"},
	    {CMD_MODE_IF, "verify", "verify"},
	    {CMD_MODE_PMAP_C_QUE, "abort", "abort"},
	    {CMD_MODE_EXEC, "show configuration session", CTL_WHAT_SESSION},
	};
	struct show_query q;
	struct cmd_parsed p;
	struct cmd_error err;
	struct cmd_ctx c;
	char why[256];
	const char *args[] = {"show",       "diff", "rollback-patch",
	                      "checkpoint", "a",    "checkpoint",
	                      "b"};

	(void)state;
	if (cmd_table_check(&cmd_ckpt, why, sizeof(why)))
		fail_msg("row does not compile: %s", why);
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		cmd_ctx_init(&c);
		c.mode = cases[i].mode;
		c.session = true;
		if (cmd_parse(&c, cases[i].line, &p, &err) < 0)
			fail_msg("'%s': %s", cases[i].line, err.message);
		assert_string_equal(p.name, cases[i].name);
	}
	/* A session's own commands are none outside a session. */
	cmd_ctx_init(&c);
	c.mode = CMD_MODE_CONFIG;
	assert_int_equal(cmd_parse(&c, "commit", &p, &err), -1);
	c.session = true;
	assert_int_equal(cmd_parse(&c, "commit confirmed 0", &p, &err), -1);
	assert_int_equal(cmd_parse(&c, "commit confirmed 86401", &p, &err), -1);
	c.session = false;
	c.mode = CMD_MODE_IF;
	assert_int_equal(cmd_parse(&c, "verify", &p, &err), -1);
	assert_int_equal(cmd_parse(&c, "abort", &p, &err), -1);
	assert_int_equal(cmd_show_query(CTL_WHAT_CKPT_DIFF, args, 7, &q, &err),
	                 0);
	assert_int_equal(q.kind, CTL_SHOW_CKPT_DIFF);
	assert_string_equal(q.name, "a");
	assert_string_equal(q.name2, "b");
	args[5] = "running-config";
	assert_int_equal(cmd_show_query(CTL_WHAT_CKPT_DIFF, args, 6, &q, &err),
	                 0);
	assert_string_equal(q.name, "a");
	assert_string_equal(q.name2, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_rebuild),
	    cmocka_unit_test(test_replay_refuses),
	    cmocka_unit_test(test_file),
	    cmocka_unit_test(test_names),
	    cmocka_unit_test(test_diff),
	    cmocka_unit_test(test_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
