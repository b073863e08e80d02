/* conf_scan: the bounds a configuration text must keep before libconfig
 * builds it (conf.h: CONF_MAX_BYTES, CONF_MAX_GROUP_KEYS, CONF_MAX_KEYS,
 * CONF_MAX_DEPTH).
 *
 * libconfig checks every new setting of a group against all the earlier
 * ones, so a group of n settings costs n^2/2 name comparisons: 25,000
 * unknown keys took 25 s of a quiet core. One linear pass over the text
 * counts the settings of each group (an '=' or ':' outside strings and
 * comments is one setting: libconfig's grammar has no other use for
 * them) and refuses a file past the bounds before it is parsed. Brackets
 * that do not match are left for libconfig to report.
 */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "conf/conf.h"
#include "conf/conf_int.h"

struct conf_scan_level {
	unsigned line; /* where the group opened (0: the top level) */
	size_t keys;
	bool group; /* '{' (settings) rather than '(' or '[' (values) */
};

int conf_scan_bounds(const char *text, size_t len, struct diag *d)
{
	struct conf_scan_level st[CONF_MAX_DEPTH + 1] = {{0, 0, true}};
	unsigned line = 1, depth = 0;
	size_t total = 0;

	if (len > CONF_MAX_BYTES) {
		diag_err(d, 0,
		         "the file is %zu bytes: roced reads at most %u MiB "
		         "of configuration",
		         len, CONF_MAX_BYTES >> 20);
		return -1;
	}
	for (size_t i = 0; i < len; i++) {
		char ch = text[i];

		switch (ch) {
		case '\n':
			line++;
			break;
		case '#':
			while (i + 1 < len && text[i + 1] != '\n')
				i++;
			break;
		case '/':
			if (i + 1 < len && text[i + 1] == '/') {
				while (i + 1 < len && text[i + 1] != '\n')
					i++;
			} else if (i + 1 < len && text[i + 1] == '*') {
				for (i += 2;
				     i + 1 < len &&
				     !(text[i] == '*' && text[i + 1] == '/');
				     i++)
					line += text[i] == '\n';
				i++;
			}
			break;
		case '"':
			for (i++; i < len && text[i] != '"'; i++) {
				if (text[i] == '\\' && i + 1 < len)
					i++;
				line += text[i] == '\n';
			}
			break;
		case '{':
		case '(':
		case '[':
			if (depth == CONF_MAX_DEPTH) {
				diag_err(d, line,
				         "groups and lists nested deeper than "
				         "%u",
				         CONF_MAX_DEPTH);
				return -1;
			}
			st[++depth] =
			    (struct conf_scan_level){line, 0, ch == '{'};
			break;
		case '}':
		case ')':
		case ']':
			if (depth)
				depth--;
			break;
		case '=':
		case ':':
			if (++total > CONF_MAX_KEYS) {
				diag_err(d, line,
				         "more than %u settings in the file: "
				         "roced reads at most %u",
				         CONF_MAX_KEYS, CONF_MAX_KEYS);
				return -1;
			}
			if (st[depth].group &&
			    ++st[depth].keys > CONF_MAX_GROUP_KEYS) {
				if (depth)
					diag_err(
					    d, line,
					    "more than %u settings in the "
					    "group opened at line %u: "
					    "roced reads at most %u in one "
					    "group",
					    CONF_MAX_GROUP_KEYS, st[depth].line,
					    CONF_MAX_GROUP_KEYS);
				else
					diag_err(
					    d, line,
					    "more than %u settings at the "
					    "top level: roced reads at most "
					    "%u in one group",
					    CONF_MAX_GROUP_KEYS,
					    CONF_MAX_GROUP_KEYS);
				return -1;
			}
			break;
		default:
			break;
		}
	}
	return 0;
}
