/* cmd_session: see cmd_session.h. */
#include "cmd_session.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "conf/conf.h"
#include "policy_eq.h"

void tc_enter(struct cmd_ctx *c, enum cmd_mode m, const char *const *path,
              size_t n)
{
	assert_int_equal(cmd_ctx_from_path(c, path, n), 0);
	c->mode = m;
}

void tc_parse(const struct cmd_ctx *c, const char *line, struct cmd_parsed *p)
{
	struct cmd_error err;

	if (cmd_parse(c, line, p, &err))
		fail_msg("'%s' in %s: %s (at %zu)", line,
		         cmd_mode_name(c->mode), err.message, err.pos);
}

void tc_parse_bad(enum cmd_mode m, const char *line, const char *msg,
                  size_t pos)
{
	struct cmd_ctx c;
	struct cmd_parsed p;
	struct cmd_error err;

	cmd_ctx_init(&c);
	c.mode = m;
	/* Submodes sit below config mode, class ones below policy-maps. */
	if (m != CMD_MODE_EXEC && m != CMD_MODE_CONFIG)
		c.depth = cmd_mode_parent(m) == CMD_MODE_CONFIG ? 1 : 2;
	if (!cmd_parse(&c, line, &p, &err))
		fail_msg("'%s' parsed as '%s'", line, p.canon);
	if (!strstr(err.message, msg))
		fail_msg("'%s': '%s' lacks '%s'", line, err.message, msg);
	if (pos != (size_t)-1 && err.pos != pos)
		fail_msg("'%s': '%s' at %zu, expected %zu", line, err.message,
		         err.pos, pos);
}

void tc_apply(struct policy *p, struct cmd_ctx *c, const char *line)
{
	struct cmd_error err;

	if (cmd_apply_line(p, c, line, &err))
		fail_msg("'%s' in %s: %s (at %zu)", line,
		         cmd_mode_name(c->mode), err.message, err.pos);
}

void tc_apply_bad(struct policy *p, struct cmd_ctx *c, const char *line,
                  const char *msg, size_t pos)
{
	struct cmd_error err;
	struct cmd_ctx before = *c;

	if (!cmd_apply_line(p, c, line, &err))
		fail_msg("'%s' in %s was accepted", line,
		         cmd_mode_name(c->mode));
	if (!strstr(err.message, msg))
		fail_msg("'%s': '%s' lacks '%s'", line, err.message, msg);
	if (pos != (size_t)-1 && err.pos != pos)
		fail_msg("'%s': '%s' at %zu, expected %zu", line, err.message,
		         err.pos, pos);
	/* A refused line leaves the session where it was. */
	assert_memory_equal(&before, c, sizeof(before));
}

void tc_session(struct policy *p, struct cmd_ctx *c, const char *const *lines)
{
	cmd_ctx_init(c);
	tc_apply(p, c, "configure terminal");
	for (; *lines; lines++)
		tc_apply(p, c, *lines);
}

void tc_load(const char *path, struct policy *p)
{
	struct diag d;

	diag_init(&d, path);
	if (conf_load_file(path, p, &d))
		fail_msg("%s does not load", path);
	diag_free(&d);
}

/* Feed TEXT line by line into an empty policy (from exec mode, as a paste
 * into rocesh), checking each state as the daemon would. */
void tc_paste(struct policy *p, struct cmd_ctx *c, const char *text)
{
	char *copy = strdup(text), *save = NULL;

	assert_non_null(copy);
	for (char *l = strtok_r(copy, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		struct diag d;

		tc_apply(p, c, l);
		diag_init(&d, NULL);
		if (policy_validate_mode(p, &d, POLICY_VALIDATE_INTERACTIVE))
			fail_msg("'%s' leaves an invalid policy: %s", l,
			         d.v[0].text);
		diag_free(&d);
	}
	free(copy);
}

char *tc_running(const struct policy *p, const char *section)
{
	struct strbuf sb;

	strbuf_init(&sb);
	cmd_running_config(p, section, &sb);
	assert_false(sb.oom);
	return strbuf_detach(&sb);
}

/* running-config(P) pasted into an empty policy gives P back, and the
 * same text again. */
void tc_round_trip(const struct policy *p)
{
	struct policy q;
	struct cmd_ctx c;
	char *t1 = tc_running(p, NULL), *t2;

	policy_init(&q);
	/* The port map (roced.conf's Linux names and NX-OS aliases) comes
	 * first, as in the daemon the text pastes back into: running-config
	 * names an aliased port by its alias. */
	for (size_t k = 0; k < p->nifaces; k++) {
		struct policy_iface *f =
		    policy_add_iface(&q, p->ifaces[k].name);

		assert_non_null(f);
		snprintf(f->alias, sizeof(f->alias), "%s", p->ifaces[k].alias);
	}
	cmd_ctx_init(&c);
	tc_apply(&q, &c, "configure terminal");
	tc_paste(&q, &c, t1);
	policy_assert_equal(p, &q);
	t2 = tc_running(&q, NULL);
	assert_string_equal(t1, t2);
	free(t1);
	free(t2);
	policy_free(&q);
}

void tc_conf_round_trip(const struct policy *p)
{
	char *conf = conf_write_string(p), *t1, *t2;
	struct policy back;
	struct diag d;

	assert_non_null(conf);
	diag_init(&d, "(written)");
	if (conf_load_string(conf, &back, &d) != 0)
		fail_msg("the written roced.conf does not load: %s\n%s",
		         d.n ? d.v[0].text : "?", conf);
	policy_assert_equal(p, &back);
	t1 = tc_running(p, NULL);
	t2 = tc_running(&back, NULL);
	assert_string_equal(t1, t2);
	free(t1);
	free(t2);
	free(conf);
	policy_free(&back);
	diag_free(&d);
}
