/* conf_setting: the scalar settings of model/setting.h in the config
 * file, read by their rows: one loop per group instead of a getter call
 * per setting. See conf_int.h.
 */
#include <stdint.h>
#include <string.h>

#include "conf/conf_int.h"
#include "model/setting.h"

/* Room for a group's own keys and those of its rows. */
#define CONF_PLACE_KEYS_MAX 64

void conf_check_place_keys(struct conf_ctx *c, const config_setting_t *grp,
                           const char *where, const enum conf_key *keys,
                           size_t n, enum setting_place place)
{
	enum conf_key all[CONF_PLACE_KEYS_MAX];
	size_t m = 0;

	for (size_t k = 0; k < n && m < CONF_PLACE_KEYS_MAX; k++)
		all[m++] = keys[k];
	/* A row's key the group already lists keeps its place in the
	 * list (the messages name them in that order). */
	for (size_t r = 0; r < setting_count && m < CONF_PLACE_KEYS_MAX; r++) {
		int key = conf_key_parse(setting_table[r].conf);
		bool known = false;

		if (setting_table[r].place != place || key < 0)
			continue;
		for (size_t k = 0; k < m && !known; k++)
			known = all[k] == (enum conf_key)key;
		if (!known)
			all[m++] = (enum conf_key)key;
	}
	conf_check_keys(c, grp, where, all, m);
}

/* Row S from GRP into BASE. */
static void conf_setting(struct conf_ctx *c, const config_setting_t *grp,
                         const struct setting *s, void *base, const char *where)
{
	unsigned spare = 0, *line = setting_line(s, base);
	int key = conf_key_parse(s->conf);
	char word[32], names[64];
	long long v;
	bool b;
	int e;

	/* test_settings keeps every row's key in the name table */
	if (key < 0)
		return;
	if (!line)
		line = &spare;
	switch (s->type) {
	case SETTING_U32:
		/* 0 is "not set" for UNSET rows: refused here, as the field
		 * cannot say it; the rest is judged by policy_validate. */
		if (conf_int(c, grp, (enum conf_key)key, where, s->min, s->max,
		             (s->flags & SETTING_F_UNSET) ? 1 : 0, UINT32_MAX,
		             &v, line) > 0)
			setting_set(s, base, (uint32_t)v);
		return;
	case SETTING_BOOL:
		if (conf_bool(c, grp, (enum conf_key)key, where, &b, line) > 0)
			setting_set(s, base, b);
		return;
	case SETTING_ENUM:
		if (conf_string(c, grp, (enum conf_key)key, where, word,
		                sizeof(word), line) <= 0)
			return;
		e = s->names->parse(word);
		if (e < 0) {
			s->names->expected(names, sizeof(names));
			diag_err(c->d, *line,
			         "invalid %s '%s' in %s, expected %s", s->conf,
			         word, where, names);
			return;
		}
		setting_set(s, base, (uint32_t)e);
		return;
	}
}

void conf_settings(struct conf_ctx *c, const config_setting_t *grp,
                   enum setting_place place, void *base, const char *where)
{
	for (size_t r = 0; r < setting_count; r++)
		if (setting_table[r].place == place)
			conf_setting(c, grp, &setting_table[r], base, where);
}
