/* test_settings: every row of the settings table (lib/model/setting.c)
 * is complete, documented, and written alike by its three printers:
 *  - its libconfig key is in roced.conf's name table, its range holds
 *    its default, and rocesh's command table has its command, in the
 *    modes of its scope, with its range, carried out by cmd_nx_setting;
 *  - roced.conf(5) has its entry in its section (type, range, default,
 *    NX-OS words) and rocesh(8) its command in the section of its modes;
 *  - for values drawn from its range, a policy holding the value,
 *    written as roced.conf, as show running-config and as the JSON of
 *    show running-config json, gives the value back from each;
 *  - a number out of its range is one error, worded alike for every
 *    row (the range is checked once, from the row);
 *  - the scalars that were written by hand in each printer are rows.
 * No root needed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "cmd/cmd_int.h"
#include "cmd_session.h"
#include "conf/conf.h"
#include "model/setting.h"
#include "show/show.h"

#define MAN_CONF  TEST_SRCDIR "/man/roced.conf.5"
#define MAN_SHELL TEST_SRCDIR "/man/rocesh.8"

/* ---- the table and the command table ---- */

static void test_rows(void **state)
{
	(void)state;
	assert_true(setting_count > 10);
	for (size_t k = 0; k < setting_count; k++) {
		const struct setting *s = &setting_table[k];
		uint32_t mode = CMD_M(
		    s->scope == SETTING_GLOBAL ? CMD_MODE_CONFIG : CMD_MODE_IF);
		char range[48];
		bool cmd = false, ranged = s->type != SETTING_U32;

		if (conf_key_parse(s->conf) < 0)
			fail_msg("%s: key '%s' is not in lib/conf/conf_keys.c",
			         s->nxos, s->conf);
		assert_non_null(s->json);
		assert_int_equal(s->scope, setting_place_scope(s->place));
		if (s->flags & SETTING_F_UNSET)
			assert_int_equal(s->def, 0);
		else if (s->def < s->min || s->def > s->max)
			fail_msg("%s: default %u is outside %u-%u", s->nxos,
			         s->def, s->min, s->max);
		if (s->type == SETTING_ENUM) {
			assert_non_null(s->names);
			for (uint32_t v = s->min; v <= s->max; v++)
				assert_int_equal(
				    s->names->parse(s->names->name((int)v)),
				    (int)v);
		}
		for (size_t j = 0; j < k; j++) {
			const struct setting *o = &setting_table[j];

			if ((o->scope == s->scope &&
			     !strcmp(o->nxos, s->nxos)) ||
			    (o->place == s->place && !strcmp(o->conf, s->conf)))
				fail_msg("rows '%s' and '%s' clash", o->nxos,
				         s->nxos);
		}
		snprintf(range, sizeof(range), "<%u-%u>", s->min, s->max);
		for (size_t i = 0; i < cmd_nxos.n; i++) {
			const struct cmd_def *d = &cmd_nxos.def[i];

			if (strcmp(d->name, s->nxos) || !(d->modes & mode))
				continue;
			if (d->exec != cmd_nx_setting)
				fail_msg("command '%s' (%s) does not run "
				         "cmd_nx_setting",
				         d->syntax, s->nxos);
			cmd = true;
			ranged |= strstr(d->syntax, range) != NULL;
		}
		if (!cmd)
			fail_msg(
			    "'%s' has no command row in lib/cmd/cmd_nxos.c "
			    "for its modes",
			    s->nxos);
		if (!ranged)
			fail_msg("no command row of '%s' takes %s", s->nxos,
			         range);
	}
	/* and every command row running cmd_nx_setting has its row */
	for (size_t i = 0; i < cmd_nxos.n; i++) {
		const struct cmd_def *d = &cmd_nxos.def[i];

		if (d->exec != cmd_nx_setting)
			continue;
		if ((d->modes & CMD_M(CMD_MODE_CONFIG)) &&
		    !setting_find_nxos(d->name, SETTING_GLOBAL))
			fail_msg("'%s' has no global row", d->syntax);
		if ((d->modes & CMD_M(CMD_MODE_IF)) &&
		    !setting_find_nxos(d->name, SETTING_INTERFACE))
			fail_msg("'%s' has no interface row", d->syntax);
	}
}

/* ---- the man pages ---- */

struct page {
	char *text;
	char **line;
	size_t n;
};

static void page_read(const char *path, struct page *pg)
{
	FILE *f = fopen(path, "r");
	size_t cap = 0, len = 0;
	char buf[4096];
	size_t got;

	assert_non_null(f);
	memset(pg, 0, sizeof(*pg));
	while ((got = fread(buf, 1, sizeof(buf), f)) > 0) {
		pg->text = realloc(pg->text, len + got + 1);
		assert_non_null(pg->text);
		memcpy(pg->text + len, buf, got);
		len += got;
	}
	fclose(f);
	assert_true(len > 0);
	pg->text[len] = '\0';
	for (char *p = pg->text; p && *p;) {
		char *nl = strchr(p, '\n');

		if (pg->n == cap) {
			cap = cap ? 2 * cap : 1024;
			pg->line = realloc(pg->line, cap * sizeof(*pg->line));
			assert_non_null(pg->line);
		}
		pg->line[pg->n++] = p;
		if (nl)
			*nl = '\0';
		p = nl ? nl + 1 : NULL;
	}
}

static void page_free(struct page *pg)
{
	free(pg->text);
	free(pg->line);
}

/* The lines of section `.Ss TITLE`: [*FROM, *TO). */
static bool page_section(const struct page *pg, const char *title, size_t *from,
                         size_t *to)
{
	for (size_t i = 0; i < pg->n; i++) {
		if (strncmp(pg->line[i], ".Ss ", 4) ||
		    strcmp(pg->line[i] + 4, title))
			continue;
		*from = i + 1;
		for (*to = i + 1; *to < pg->n; (*to)++)
			if (!strncmp(pg->line[*to], ".Ss ", 4) ||
			    !strncmp(pg->line[*to], ".Sh ", 4))
				break;
		return true;
	}
	return false;
}

/* The entry whose `.It` line is HEAD in [FROM, TO): its text (the lines
 * after HEAD to the next `.It` or `.El`, joined by blanks) in BUF. */
static bool page_entry(const struct page *pg, size_t from, size_t to,
                       const char *head, char *buf, size_t len)
{
	for (size_t i = from; i < to; i++) {
		size_t n = 0;

		if (strcmp(pg->line[i], head))
			continue;
		buf[0] = '\0';
		for (size_t j = i + 1; j < to; j++) {
			if (!strncmp(pg->line[j], ".It ", 4) ||
			    !strcmp(pg->line[j], ".El"))
				break;
			n += (size_t)snprintf(buf + n, n < len ? len - n : 0,
			                      "%s ", pg->line[j]);
		}
		return true;
	}
	return false;
}

/* roced.conf.5's section of a place and the group line its entry
 * follows (NULL: none). */
static const char *conf_section(enum setting_place place, const char **group)
{
	*group = NULL;
	switch (place) {
	case SETTING_AT_TOP:
		return "Top level";
	case SETTING_AT_PFC_WD:
		*group = ".It Ic watch-dog";
		return "priority-flow-control";
	case SETTING_AT_PFC:
		return "priority-flow-control";
	case SETTING_AT_LLDP:
		return "lldp";
	case SETTING_AT_IFACE_PFC:
		*group = ".It Ic priority-flow-control";
		return "interface";
	case SETTING_AT_IFACE_FC:
		*group = ".It Ic flowcontrol";
		return "interface";
	case SETTING_AT_IFACE_LLDP:
		*group = ".It Ic lldp";
		return "interface";
	case SETTING_AT_IFACE_HEAD:
	case SETTING_AT_IFACE:
	case SETTING_NPLACES:
		break;
	}
	return "interface";
}

static void want(const char *entry, const char *what, const char *page,
                 const struct setting *s)
{
	if (!strstr(entry, what))
		fail_msg("%s: the entry of '%s' lacks '%s'", page, s->nxos,
		         what);
}

static void check_conf_page(const struct page *pg, const struct setting *s)
{
	const char *group, *title = conf_section(s->place, &group);
	char head[128], entry[4096], what[160];
	size_t from, to;

	if (!page_section(pg, title, &from, &to))
		fail_msg("roced.conf.5 has no section '%s'", title);
	/* a nested group's entries come after its own */
	if (group) {
		while (from < to && strcmp(pg->line[from], group))
			from++;
		if (from == to)
			fail_msg("roced.conf.5: no '%s' in section %s", group,
			         title);
	}
	snprintf(head, sizeof(head), ".It Ic %s", s->conf);
	if (!page_entry(pg, from, to, head, entry, sizeof(entry)))
		fail_msg("setting '%s' (%s) has no '%s' entry in section %s "
		         "of roced.conf.5",
		         s->conf, s->nxos, head, title);
	snprintf(what, sizeof(what), "Ql %s", s->nxos);
	want(entry, what, "roced.conf.5", s);
	switch (s->type) {
	case SETTING_U32:
		snprintf(what, sizeof(what), "An integer %u-%u", s->min,
		         s->max);
		want(entry, what, "roced.conf.5", s);
		if (!(s->flags & SETTING_F_UNSET)) {
			snprintf(what, sizeof(what), "default %u", s->def);
			want(entry, what, "roced.conf.5", s);
		}
		break;
	case SETTING_BOOL:
		want(entry, "A boolean", "roced.conf.5", s);
		want(entry, s->def ? "default true" : "default false",
		     "roced.conf.5", s);
		break;
	case SETTING_ENUM:
		for (uint32_t v = s->min; v <= s->max; v++) {
			snprintf(what, sizeof(what), "\\(dq%s\\(dq",
			         s->names->name((int)v));
			want(entry, what, "roced.conf.5", s);
		}
		break;
	}
}

static void check_shell_page(const struct page *pg, const struct setting *s)
{
	const char *title = s->scope == SETTING_GLOBAL
	                        ? "Configuration mode"
	                        : "System qos and interface modes";
	char head[256], entry[4096], what[64];
	size_t from, to, n;

	if (!page_section(pg, title, &from, &to))
		fail_msg("rocesh.8 has no section '%s'", title);
	n = (size_t)snprintf(head, sizeof(head), ".It Oo Ic no Oc Ic %s",
	                     s->nxos);
	switch (s->type) {
	case SETTING_U32:
		snprintf(head + n, sizeof(head) - n, " Ar %u-%u", s->min,
		         s->max);
		break;
	case SETTING_BOOL:
		if (s->flags & SETTING_F_ONOFF)
			snprintf(head + n, sizeof(head) - n, " Cm on | off");
		break;
	case SETTING_ENUM:
		for (uint32_t v = s->min; v <= s->max; v++)
			n +=
			    (size_t)snprintf(head + n, sizeof(head) - n, "%s%s",
			                     v == s->min ? " Cm " : " | ",
			                     s->names->name((int)v));
		break;
	}
	if (!page_entry(pg, from, to, head, entry, sizeof(entry)))
		fail_msg("command '%s' has no '%s' entry in section %s of "
		         "rocesh.8",
		         s->nxos, head, title);
	if (s->type == SETTING_U32 && !(s->flags & SETTING_F_UNSET)) {
		snprintf(what, sizeof(what), "default %u", s->def);
		want(entry, what, "rocesh.8", s);
	}
}

static void test_man_pages(void **state)
{
	struct page conf, shell;

	(void)state;
	page_read(MAN_CONF, &conf);
	page_read(MAN_SHELL, &shell);
	for (size_t k = 0; k < setting_count; k++) {
		check_conf_page(&conf, &setting_table[k]);
		check_shell_page(&shell, &setting_table[k]);
	}
	page_free(&conf);
	page_free(&shell);
}

/* ---- the three printers ---- */

#define IFNAME "swp1"

/* A policy with one port, where S is V. */
static void with_value(struct policy *p, const struct setting *s, uint32_t v)
{
	struct policy_iface *i;

	policy_init(p);
	i = policy_add_iface(p, IFNAME);
	assert_non_null(i);
	setting_set(s, setting_base(s, p, i), v);
}

static uint32_t value_of(const struct setting *s, const struct policy *p)
{
	const struct policy_iface *i = policy_find_iface(p, IFNAME);

	assert_non_null(i);
	return setting_get(s, setting_cbase(s, p, i));
}

static uint32_t via_conf(const struct setting *s, const struct policy *p)
{
	char *text = conf_write_string(p);
	struct policy q;
	struct diag d;
	uint32_t v;

	assert_non_null(text);
	diag_init(&d, "written");
	if (conf_load_string(text, &q, &d))
		fail_msg("%s: the written file does not load: %s\n%s", s->nxos,
		         d.n ? d.v[0].text : "?", text);
	v = value_of(s, &q);
	policy_free(&q);
	diag_free(&d);
	free(text);
	return v;
}

static uint32_t via_running(const struct setting *s, const struct policy *p)
{
	char *text = tc_running(p, NULL);
	struct policy q;
	struct cmd_ctx c;
	uint32_t v;

	(void)s;
	/* the port map first, as in the daemon it is pasted into */
	policy_init(&q);
	assert_non_null(policy_add_iface(&q, IFNAME));
	cmd_ctx_init(&c);
	tc_apply(&q, &c, "configure terminal");
	tc_paste(&q, &c, text);
	v = value_of(s, &q);
	policy_free(&q);
	free(text);
	return v;
}

/* The JSON object of PLACE in the policy's JSON O; NULL when absent. */
static struct json_object *json_place(struct json_object *o,
                                      enum setting_place place)
{
	struct json_object *up, *g;

	if (place == SETTING_AT_TOP)
		return o;
	if (place == SETTING_AT_IFACE || place == SETTING_AT_IFACE_HEAD) {
		if (!json_object_object_get_ex(o, "interface", &g) ||
		    json_object_array_length(g) != 1)
			return NULL;
		return json_object_array_get_idx(g, 0);
	}
	up = json_place(o, setting_place_parent(place));
	if (!up || !json_object_object_get_ex(up, setting_place_key(place), &g))
		return NULL;
	return g;
}

static uint32_t via_json(const struct setting *s, const struct policy *p)
{
	struct json_object *o = show_policy_json(p, NULL), *g, *v;
	uint32_t got = s->def;
	int e;

	assert_non_null(o);
	g = json_place(o, s->place);
	if (g && json_object_object_get_ex(g, s->json, &v)) {
		switch (s->type) {
		case SETTING_U32:
			assert_true(json_object_is_type(v, json_type_int));
			got = (uint32_t)json_object_get_int64(v);
			break;
		case SETTING_BOOL:
			assert_true(json_object_is_type(v, json_type_boolean));
			got = json_object_get_boolean(v);
			break;
		case SETTING_ENUM:
			e = s->names->parse(json_object_get_string(v));
			assert_true(e >= 0);
			got = (uint32_t)e;
			break;
		}
	} else if (s->flags & SETTING_F_ALWAYS) {
		fail_msg("%s: the JSON lacks %s", s->nxos, s->json);
	}
	json_object_put(o);
	return got;
}

static void round_trip(const struct setting *s, uint32_t v)
{
	struct policy p;
	uint32_t c, r, j;

	with_value(&p, s, v);
	c = via_conf(s, &p);
	r = via_running(s, &p);
	j = via_json(s, &p);
	if (c != v || r != v || j != v)
		fail_msg("%s = %u: roced.conf gives %u, running-config %u, "
		         "JSON %u",
		         s->nxos, v, c, r, j);
	policy_free(&p);
}

static void test_printers_agree(void **state)
{
	(void)state;
	for (size_t k = 0; k < setting_count; k++) {
		const struct setting *s = &setting_table[k];
		uint32_t mid = s->min + (s->max - s->min) / 2;

		round_trip(s, s->def);
		round_trip(s, s->min);
		round_trip(s, s->max);
		round_trip(s, mid);
		if (s->min < s->max)
			round_trip(s, s->min + 1);
		if (s->flags & SETTING_F_UNSET)
			round_trip(s, 0);
	}
}

/* ---- the range, checked once ---- */

/* The messages of D that are about S's range. */
static size_t range_errors(const struct diag *d, const struct setting *s,
                           const char **text)
{
	size_t n = 0;

	for (size_t k = 0; k < d->n; k++)
		if (strstr(d->v[k].text, "out of range") &&
		    strstr(d->v[k].text, s->conf)) {
			*text = d->v[k].text;
			n++;
		}
	return n;
}

static void out_of_range(const struct setting *s, uint32_t v)
{
	char want[256], where[96];
	const char *text = NULL;
	struct policy p;
	struct diag d;
	size_t n;

	with_value(&p, s, v);
	diag_init(&d, NULL);
	policy_validate(&p, &d);
	n = range_errors(&d, s, &text);
	switch (s->place) {
	case SETTING_AT_IFACE:
	case SETTING_AT_IFACE_HEAD:
		snprintf(where, sizeof(where), "interface " IFNAME);
		break;
	case SETTING_AT_IFACE_PFC:
	case SETTING_AT_IFACE_FC:
	case SETTING_AT_IFACE_LLDP:
		snprintf(where, sizeof(where), "%s of interface " IFNAME,
		         setting_place_key(s->place));
		break;
	case SETTING_AT_PFC_WD:
		snprintf(where, sizeof(where), "%s of %s",
		         setting_place_key(s->place),
		         setting_place_key(setting_place_parent(s->place)));
		break;
	case SETTING_AT_TOP:
		snprintf(where, sizeof(where), "the top level");
		break;
	case SETTING_AT_PFC:
	case SETTING_AT_LLDP:
	case SETTING_NPLACES:
		snprintf(where, sizeof(where), "%s",
		         setting_place_key(s->place));
		break;
	}
	snprintf(want, sizeof(want),
	         "%s %u in %s is out of range, expected %u-%u", s->conf, v,
	         where, s->min, s->max);
	if (n != 1 || strcmp(text, want))
		fail_msg("%s = %u: %zu range errors (want 1: '%s'), the last "
		         "'%s'",
		         s->nxos, v, n, want, text ? text : "");
	diag_free(&d);
	policy_free(&p);
}

static void test_range_once(void **state)
{
	(void)state;
	for (size_t k = 0; k < setting_count; k++) {
		const struct setting *s = &setting_table[k];

		if (s->type != SETTING_U32)
			continue;
		if (s->max < UINT32_MAX)
			out_of_range(s, s->max + 1);
		/* 0 is "not set", or has its own message */
		if (s->min > 1 ||
		    (s->min == 1 &&
		     !(s->flags & (SETTING_F_UNSET | SETTING_F_ZERO_OWN))))
			out_of_range(s, s->min - 1);
	}
}

/* ---- what is a row ---- */

/* Scalars once written by hand in the loader, the writer, running-config,
 * the JSON and their commands (issue 31): each is now a row. What stays
 * hand-written is named in model/setting.h. */
static void test_scalars_are_rows(void **state)
{
	static const struct {
		const char *nxos;
		enum setting_scope scope;
	} want[] = {
	    {"mtu", SETTING_INTERFACE},
	    {"flowcontrol receive", SETTING_INTERFACE},
	    {"flowcontrol send", SETTING_INTERFACE},
	    {"lldp transmit", SETTING_INTERFACE},
	    {"lldp receive", SETTING_INTERFACE},
	    {"lldp dcbx willing", SETTING_INTERFACE},
	    {"feature lldp", SETTING_GLOBAL},
	    {"priority-flow-control watch-dog shutdown-multiplier",
	     SETTING_INTERFACE},
	    {"qdisc-takeover", SETTING_INTERFACE},
	    {"fabric-internal", SETTING_INTERFACE},
	};

	(void)state;
	for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++)
		if (!setting_find_nxos(want[k].nxos, want[k].scope))
			fail_msg("'%s' is not a row of lib/model/setting.c",
			         want[k].nxos);
}

/* ---- one walk of the tree ---- */

/* A back end of setting_visit that writes what it is handed: "R key@d"
 * for a row, "{ key@d" and "} key@d" around a group. */
static void visit_row(void *ctx, unsigned depth, const struct setting *s,
                      uint32_t v)
{
	(void)v;
	strbuf_printf(ctx, "R %s@%u ", s->conf, depth);
}

static void visit_open(void *ctx, unsigned depth, enum setting_place sub)
{
	strbuf_printf(ctx, "{ %s@%u ", setting_place_key(sub), depth);
}

static void visit_close(void *ctx, unsigned depth, enum setting_place sub)
{
	strbuf_printf(ctx, "} %s@%u ", setting_place_key(sub), depth);
}

/* The file's writer and the JSON show walk the settings through one
 * visitor: the watch-dog group opens where its first row is, inside
 * priority-flow-control, its rows one level deeper, and every row the
 * file holds is handed over once. */
static void test_one_visitor(void **state)
{
	static const struct setting_visitor v = {visit_row, visit_open,
	                                         visit_close};
	struct strbuf sb;
	struct policy p;
	size_t rows = 0, seen = 0;
	const char *at;

	(void)state;
	policy_init(&p);
	strbuf_init(&sb);
	setting_visit(SETTING_AT_PFC, &p, &v, &sb);
	assert_non_null(strstr(strbuf_str(&sb), "R watch-dog-interval@0 "
	                                        "{ watch-dog@0 R interval@1 "));
	assert_non_null(strstr(strbuf_str(&sb), "} watch-dog@0 "));
	for (size_t k = 0; k < setting_count; k++)
		rows += setting_place_within(setting_table[k].place,
		                             SETTING_AT_PFC) &&
		        setting_written(&setting_table[k], &p, true);
	for (at = strbuf_str(&sb); (at = strstr(at, "R ")); at++)
		seen++;
	assert_int_equal(seen, rows);
	strbuf_free(&sb);
	policy_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_rows),
	    cmocka_unit_test(test_man_pages),
	    cmocka_unit_test(test_printers_agree),
	    cmocka_unit_test(test_range_once),
	    cmocka_unit_test(test_scalars_are_rows),
	    cmocka_unit_test(test_one_visitor),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
