/* conf_value: one libconfig setting -> one checked value, for the schema
 * walk in conf.c. Each getter reports what is wrong with the setting at
 * its own line (wrong type, bad syntax, a value its field cannot hold) and
 * returns 1 when it set the value, 0 when the setting is absent and -1
 * after an error.
 */
#include <ctype.h>
#include <errno.h>
#include <libconfig.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf/conf.h"
#include "conf/conf_int.h"
#include "base/escape.h"
#include "base/strbuf.h"
#include "model/setting.h"
#include "model/units.h"

unsigned conf_line(const config_setting_t *s)
{
	return s ? config_setting_source_line(s) : 0;
}

void conf_where_of(char *buf, size_t len, enum conf_key key, const char *outer)
{
	snprintf(buf, len, "%s of %s", conf_key_name(key), outer);
}

static const char *conf_type_name(const config_setting_t *s)
{
	switch (config_setting_type(s)) {
	case CONFIG_TYPE_GROUP:
		return "a group { ... }";
	case CONFIG_TYPE_INT:
	case CONFIG_TYPE_INT64:
		return "an integer";
	case CONFIG_TYPE_FLOAT:
		return "a float";
	case CONFIG_TYPE_STRING:
		return "a string";
	case CONFIG_TYPE_BOOL:
		return "a boolean";
	case CONFIG_TYPE_ARRAY:
		return "an array [ ... ]";
	case CONFIG_TYPE_LIST:
		return "a list ( ... )";
	}
	return "a value";
}

static void conf_type_err(struct conf_ctx *c, const config_setting_t *s,
                          const char *where, const char *expected)
{
	diag_err(c->d, conf_line(s), "%s in %s must be %s, not %s",
	         config_setting_name(s) ? config_setting_name(s) : "entry",
	         where, expected, conf_type_name(s));
}

static bool conf_is_int(const config_setting_t *s)
{
	return config_setting_type(s) == CONFIG_TYPE_INT ||
	       config_setting_type(s) == CONFIG_TYPE_INT64;
}

/* Whether LINE holds a literal conf_scan_wrapped() reported. */
static bool conf_wrapped_at(const struct conf_ctx *c, unsigned line)
{
	for (size_t i = 0; i < c->nwrapped; i++)
		if (c->wrapped[i] == line)
			return true;
	return false;
}

/* Edit distance of two short strings, capped: enough to catch typos. */
static unsigned conf_distance(const char *a, const char *b)
{
	unsigned row[64], la = strlen(a), lb = strlen(b);

	if (la >= 63 || lb >= 63)
		return 99;
	for (unsigned j = 0; j <= lb; j++)
		row[j] = j;
	for (unsigned i = 1; i <= la; i++) {
		unsigned diag = row[0];

		row[0] = i;
		for (unsigned j = 1; j <= lb; j++) {
			unsigned up = row[j], best;

			best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

/* Report every member of GRP whose name is not among the N KEYS: a
 * misspelt setting would otherwise be ignored silently. */
void conf_check_keys(struct conf_ctx *c, const config_setting_t *grp,
                     const char *where, const enum conf_key *keys, size_t n)
{
	int len = config_setting_length(grp);

	for (int i = 0; i < len; i++) {
		const config_setting_t *s = config_setting_get_elem(grp, i);
		const char *name = config_setting_name(s);
		const char *hint = NULL;
		unsigned best = 3;
		struct strbuf sb;
		bool known = false;

		for (size_t k = 0; k < n && !known; k++)
			known = !strcmp(name, conf_key_name(keys[k]));
		if (known)
			continue;
		/* The edit distances only for a key that is unknown: every
		 * key of every interface is checked, most are known. */
		for (size_t k = 0; k < n; k++) {
			const char *key = conf_key_name(keys[k]);
			unsigned dist = conf_distance(name, key);

			if (dist < best) {
				best = dist;
				hint = key;
			}
		}
		if (hint) {
			diag_err(c->d, conf_line(s),
			         "unknown setting '%s' in %s (did you mean "
			         "'%s'?)",
			         name, where, hint);
			continue;
		}
		strbuf_init(&sb);
		for (size_t k = 0; k < n; k++)
			strbuf_printf(&sb, "%s%s", k ? ", " : "",
			              conf_key_name(keys[k]));
		diag_err(c->d, conf_line(s),
		         "unknown setting '%s' in %s, expected one of: %s",
		         name, where, strbuf_str(&sb));
		strbuf_free(&sb);
	}
}

/* Member KEY of GRP if it has the wanted type: the setting, or NULL when
 * absent or mistyped (mistyped is reported). */
const config_setting_t *conf_typed(struct conf_ctx *c,
                                   const config_setting_t *grp,
                                   enum conf_key key, const char *where,
                                   int type)
{
	const config_setting_t *s =
	    config_setting_get_member(grp, conf_key_name(key));
	static const char *const expected[] = {
	    [CONFIG_TYPE_GROUP] = "a group { ... }",
	    [CONFIG_TYPE_STRING] = "a string",
	    [CONFIG_TYPE_LIST] = "a list ( { ... }, ... )",
	};

	if (!s || config_setting_type(s) == type)
		return s;
	conf_type_err(c, s, where, expected[type]);
	return NULL;
}

/* String member KEY into DST. Returns 1 when set, 0 when absent, -1 on an
 * error (reported). */
int conf_string(struct conf_ctx *c, const config_setting_t *grp,
                enum conf_key key, const char *where, char *dst, size_t len,
                unsigned *line)
{
	const config_setting_t *s =
	    conf_typed(c, grp, key, where, CONFIG_TYPE_STRING);
	const char *v;

	if (!s)
		return config_setting_get_member(grp, conf_key_name(key)) ? -1
		                                                          : 0;
	v = config_setting_get_string(s);
	if (line)
		*line = conf_line(s);
	if (strlen(v) >= len) {
		diag_err(c->d, conf_line(s),
		         "%s '%s' in %s is too long, at most %zu characters",
		         conf_key_name(key), v, where, len - 1);
		return -1;
	}
	/* A string is data that shows, logs and rocesh print: a control
	 * byte (a newline in an alias would forge a row of a show's table,
	 * an escape would act on the terminal), a format character that
	 * reorders or hides text, or bytes that are not UTF-8 have no place
	 * in a name or an alias. */
	if (!escape_is_clean(v, strlen(v), false)) {
		diag_err(c->d, conf_line(s),
		         "%s '%s' in %s holds a control or format character "
		         "or is not UTF-8: expected printable text",
		         conf_key_name(key), v, where);
		return -1;
	}
	snprintf(dst, len, "%s", v);
	return 1;
}

/* Integer member KEY. LO-HI is the valid range, quoted in the message;
 * FLO-FHI what the field can hold: values outside it are refused here,
 * the rest is stored and left to policy_validate(). */
int conf_int(struct conf_ctx *c, const config_setting_t *grp, enum conf_key key,
             const char *where, long long lo, long long hi, long long flo,
             long long fhi, long long *out, unsigned *line)
{
	const config_setting_t *s =
	    config_setting_get_member(grp, conf_key_name(key));
	long long v;

	if (!s)
		return 0;
	if (line)
		*line = conf_line(s);
	if (!conf_is_int(s)) {
		conf_type_err(c, s, where, "an integer");
		return -1;
	}
	if (conf_wrapped_at(c, conf_line(s)))
		return -1;
	v = config_setting_get_int64(s);
	if (v < flo || v > fhi) {
		diag_err(c->d, conf_line(s),
		         "%s %lld in %s is out of range, expected %lld-%lld",
		         conf_key_name(key), v, where, lo, hi);
		return -1;
	}
	*out = v;
	return 1;
}

/* Booleans: true/false, or "on"/"off" as NX-OS writes them. */
int conf_bool(struct conf_ctx *c, const config_setting_t *grp,
              enum conf_key key, const char *where, bool *out, unsigned *line)
{
	const config_setting_t *s =
	    config_setting_get_member(grp, conf_key_name(key));

	if (!s)
		return 0;
	if (line)
		*line = conf_line(s);
	if (config_setting_type(s) == CONFIG_TYPE_BOOL) {
		*out = config_setting_get_bool(s);
		return 1;
	}
	if (config_setting_type(s) == CONFIG_TYPE_STRING) {
		const char *v = config_setting_get_string(s);

		if (!strcmp(v, "on") || !strcmp(v, "off")) {
			*out = !strcmp(v, "on");
			return 1;
		}
		diag_err(c->d, conf_line(s),
		         "invalid %s '%s' in %s, expected true, false, \"on\" "
		         "or \"off\"",
		         conf_key_name(key), v, where);
		return -1;
	}
	conf_type_err(c, s, where, "true, false, \"on\" or \"off\"");
	return -1;
}

/* One element of a value list: an integer or a list string. */
static int conf_value(struct conf_ctx *c, const config_setting_t *s,
                      enum conf_key key, const char *where, unsigned max,
                      bool dscp_names, uint64_t *mask)
{
	char err[160];

	if (conf_is_int(s)) {
		long long v = config_setting_get_int64(s);

		if (conf_wrapped_at(c, conf_line(s)))
			return -1;
		if (v < 0 || v > max) {
			diag_err(c->d, conf_line(s),
			         "%s %lld in %s is out of range, expected "
			         "0-%u",
			         conf_key_name(key), v, where, max);
			return -1;
		}
		*mask |= 1ULL << v;
		return 0;
	}
	if (config_setting_type(s) == CONFIG_TYPE_STRING) {
		const char *v = config_setting_get_string(s);

		if (policy_list_parse(v, max, dscp_names, mask, err,
		                      sizeof(err)) < 0) {
			diag_err(c->d, conf_line(s), "%s '%s' in %s: %s",
			         conf_key_name(key), v, where, err);
			return -1;
		}
		return 0;
	}
	diag_err(c->d, conf_line(s),
	         "%s in %s must be an integer, a list string like \"0-2,5\" or "
	         "an array of them, not %s",
	         conf_key_name(key), where, conf_type_name(s));
	return -1;
}

/* Value list member KEY (cos, dscp, qos-group, pause-pfc-cos): 3, "0-2,5",
 * [3, 4] or ["af31", "cs3"]. */
int conf_values(struct conf_ctx *c, const config_setting_t *grp,
                enum conf_key key, const char *where, unsigned max,
                bool dscp_names, uint64_t *mask, unsigned *line)
{
	const config_setting_t *s =
	    config_setting_get_member(grp, conf_key_name(key));
	uint64_t m = 0;
	int rc = 0;

	if (!s)
		return 0;
	if (line)
		*line = conf_line(s);
	if (config_setting_type(s) == CONFIG_TYPE_ARRAY) {
		int n = config_setting_length(s);

		if (!n) {
			diag_err(c->d, conf_line(s),
			         "%s in %s is an empty array, expected at "
			         "least one value",
			         conf_key_name(key), where);
			return -1;
		}
		for (int i = 0; i < n; i++)
			if (conf_value(c, config_setting_get_elem(s, i), key,
			               where, max, dscp_names, &m) < 0)
				rc = -1;
	} else {
		rc = conf_value(c, s, key, where, max, dscp_names, &m);
	}
	if (rc < 0)
		return -1;
	*mask = m;
	return 1;
}

/* Threshold member KEY: "150 kbytes" or a plain integer of bytes. */
int conf_threshold(struct conf_ctx *c, const config_setting_t *grp,
                   enum conf_key key, const char *where, uint64_t *out,
                   unsigned *line)
{
	const config_setting_t *s =
	    config_setting_get_member(grp, conf_key_name(key));
	char err[160];

	if (!s)
		return 0;
	if (line)
		*line = conf_line(s);
	if (conf_is_int(s)) {
		long long v = config_setting_get_int64(s);

		if (conf_wrapped_at(c, conf_line(s)))
			return -1;
		if (v < 0) {
			diag_err(c->d, conf_line(s),
			         "%s %lld in %s is negative, expected a size "
			         "in bytes",
			         conf_key_name(key), v, where);
			return -1;
		}
		*out = (uint64_t)v;
		return 1;
	}
	if (config_setting_type(s) != CONFIG_TYPE_STRING) {
		conf_type_err(c, s, where,
		              "a size like \"150 kbytes\" or an integer of "
		              "bytes");
		return -1;
	}
	if (units_bytes_parse(config_setting_get_string(s), out, err,
	                      sizeof(err)) < 0) {
		diag_err(c->d, conf_line(s), "%s in %s: %s", conf_key_name(key),
		         where, err);
		return -1;
	}
	return 1;
}

void conf_oom(struct conf_ctx *c, const config_setting_t *s)
{
	diag_err(c->d, conf_line(s), "out of memory");
}

/* The list member KEY of GRP; each entry must be a group. Calls FN on
 * every group entry. */
void conf_each(struct conf_ctx *c, const config_setting_t *grp,
               enum conf_key key, const char *where, void *arg,
               void (*fn)(struct conf_ctx *c, const config_setting_t *entry,
                          void *arg))
{
	const config_setting_t *l =
	    conf_typed(c, grp, key, where, CONFIG_TYPE_LIST);
	int n;

	if (!l)
		return;
	n = config_setting_length(l);
	for (int i = 0; i < n; i++) {
		const config_setting_t *e = config_setting_get_elem(l, i);

		if (config_setting_type(e) != CONFIG_TYPE_GROUP) {
			diag_err(c->d, conf_line(e),
			         "each entry of %s in %s must be a group "
			         "{ %s = ...; }, not %s",
			         conf_key_name(key), where,
			         conf_key_name(CONF_K_NAME), conf_type_name(e));
			continue;
		}
		fn(c, e, arg);
	}
}

/* The required name of a list entry; its line is the object's line. */
int conf_name(struct conf_ctx *c, const config_setting_t *e, const char *what,
              char *dst, size_t len, unsigned *line)
{
	int rc = conf_string(c, e, CONF_K_NAME, what, dst, len, line);

	if (rc == 0) {
		diag_err(c->d, conf_line(e), "%s entry has no name", what);
		return -1;
	}
	if (rc > 0 && !dst[0]) {
		diag_err(c->d, *line, "%s entry has an empty name", what);
		return -1;
	}
	return rc > 0 ? 0 : -1;
}

/* Characters of a libconfig setting name. */
static bool conf_name_char(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_' || ch == '-' ||
	       ch == '*';
}

/* The literal S..END (digits and what follows them, NEG when a '-'
 * precedes it) at LINE: report it if it is a plain decimal beyond 32
 * bits. Hex, floats and L-suffixed 64-bit literals libconfig reads
 * right. */
static void conf_scan_literal(struct conf_ctx *c, const char *s,
                              const char *end, bool neg, unsigned line)
{
	size_t n = (size_t)(end - s);

	for (const char *q = s; q < end; q++)
		if (!isdigit((unsigned char)*q))
			return;
	if (n < 10 ||
	    (n == 10 && strncmp(s, neg ? "2147483648" : "2147483647", 10) <= 0))
		return;
	diag_err(c->d, line,
	         "integer %s%.*s does not fit in 32 bits and libconfig would "
	         "wrap it; write it with an L suffix if a 64-bit value is "
	         "meant",
	         neg ? "-" : "", (int)n, s);
	if (c->nwrapped < sizeof(c->wrapped) / sizeof(c->wrapped[0]) &&
	    !conf_wrapped_at(c, line))
		c->wrapped[c->nwrapped++] = line;
}

/* libconfig 1.5 stores a decimal literal beyond 32 bits without an L
 * suffix wrapped (mtu = 4294968512 reads as 1216), so such literals are
 * found in the text, skipping strings and comments, and refused before
 * they can pass as valid values. */
void conf_scan_wrapped(struct conf_ctx *c, const char *t)
{
	unsigned line = 1;

	for (const char *s = t; *s; s++) {
		const char *end;

		if (*s == '\n') {
			line++;
		} else if (*s == '"') {
			while (s[1] && s[1] != '"') {
				s += s[1] == '\\' && s[2] ? 2 : 1;
				line += *s == '\n';
			}
			if (!*++s)
				return;
		} else if (*s == '#' || (s[0] == '/' && s[1] == '/')) {
			while (s[1] && s[1] != '\n')
				s++;
		} else if (s[0] == '/' && s[1] == '*') {
			for (s += 2; *s && !(s[0] == '*' && s[1] == '/'); s++)
				line += *s == '\n';
			if (!*s++)
				return;
		} else if (isdigit((unsigned char)*s) &&
		           (s == t || !conf_name_char(s[-1]) ||
		            (s[-1] == '-' &&
		             (s - 1 == t || !conf_name_char(s[-2]))))) {
			/* Digits inside a setting name were skipped above. */
			for (end = s; isalnum((unsigned char)*end) ||
			              *end == '.' || *end == '+';
			     end++)
				;
			conf_scan_literal(c, s, end, s > t && s[-1] == '-',
			                  line);
			s = end - 1;
		}
	}
}

/* --- the scalar settings of model/setting.h: one loop per group --- */

/* Room for a group's own keys and those of its rows. */
#define CONF_PLACE_KEYS_MAX 64

int conf_row_key(struct conf_ctx *c, size_t r)
{
	if (r >= CONF_ROWS_MAX)
		return conf_key_parse(setting_table[r].conf);
	if (!c->row_keys_set) {
		for (size_t k = 0; k < setting_count && k < CONF_ROWS_MAX; k++)
			c->row_key[k] = conf_key_parse(setting_table[k].conf);
		c->row_keys_set = true;
	}
	return c->row_key[r];
}

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
		bool known = false;
		int key;

		if (setting_table[r].place != place)
			continue;
		key = conf_row_key(c, r);
		if (key < 0)
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
                         size_t r, void *base, const char *where)
{
	const struct setting *s = &setting_table[r];
	unsigned spare = 0, *line = setting_line(s, base);
	int key = conf_row_key(c, r);
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
			conf_setting(c, grp, r, base, where);
}
