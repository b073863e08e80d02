/* warnings: what rocesh tells of a configuration reply's warnings (see
 * rocesh.h): each once, when it first appears; in a script, those about
 * the policy as it stands judged once the script ends.
 */
#include "rocesh.h"

#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"

/* Whether LIST ("\n"-separated lines) holds the line S. */
static bool rocesh_has_line(const char *list, const char *s)
{
	size_t n = strlen(s);

	for (const char *p = list; (p = strstr(p, s)); p++)
		if ((p == list || p[-1] == '\n') &&
		    (p[n] == '\n' || p[n] == '\0'))
			return true;
	return false;
}

/* One warning as NX-OS says it: "% Warning: ...". */
static void rocesh_warn(struct rocesh *r, const char *s)
{
	if (!strncmp(s, "warning: ", 9))
		s += 9;
	fprintf(r->err, "%s%s\n", s[0] == '%' ? "" : "% Warning: ", s);
}

/* The array member KEY of REPLY as "\n"-separated lines into SB
 * (cleared first); false when REPLY has none. */
static bool rocesh_reply_lines(struct json_object *reply, const char *key,
                               struct strbuf *sb)
{
	struct json_object *a;

	if (!json_object_object_get_ex(reply, key, &a) ||
	    !json_object_is_type(a, json_type_array))
		return false;
	strbuf_free(sb);
	strbuf_init(sb);
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		const char *s =
		    json_object_get_string(json_object_array_get_idx(a, i));

		if (s && !strchr(s, '\n'))
			strbuf_printf(sb, "%s%s", sb->len ? "\n" : "", s);
	}
	return true;
}

void rocesh_judge_warnings(struct rocesh *r)
{
	const char *s = strbuf_str(&r->pending);

	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		char *w = strndup(s, n);

		if (w && rocesh_has_line(strbuf_str(&r->standing), w))
			rocesh_warn(r, w);
		free(w);
		s += n + (nl != NULL);
	}
	strbuf_free(&r->pending);
	strbuf_init(&r->pending);
}

/* A reply's warnings describe the whole configuration as it now stands,
 * so the same one comes back after every line until it is dealt with
 * (shares that do not add up to 100 yet): each is told once, when it
 * first appears, as NX-OS-style "% Warning: ..." lines. In a script,
 * those the reply says stand (its "standing" list) wait to be judged at
 * its end (rocesh_judge_warnings); the others are about the line (a
 * note) and are told at once. */
void rocesh_print_warnings(struct rocesh *r, struct json_object *reply)
{
	struct json_object *w;
	struct strbuf now;
	bool defer = !r->interactive &&
	             rocesh_reply_lines(reply, "standing", &r->standing);

	if (!json_object_object_get_ex(reply, "warnings", &w) ||
	    !json_object_is_type(w, json_type_array))
		return;
	strbuf_init(&now);
	for (size_t i = 0; i < json_object_array_length(w); i++) {
		const char *s =
		    json_object_get_string(json_object_array_get_idx(w, i));

		if (!s || strchr(s, '\n'))
			continue;
		if (defer && rocesh_has_line(strbuf_str(&r->standing), s)) {
			if (!rocesh_has_line(strbuf_str(&r->pending), s))
				strbuf_printf(&r->pending, "%s%s",
				              r->pending.len ? "\n" : "", s);
		} else if (!rocesh_has_line(strbuf_str(&r->warnings), s)) {
			rocesh_warn(r, s);
		}
		strbuf_printf(&now, "%s%s", now.len ? "\n" : "", s);
	}
	strbuf_free(&r->warnings);
	r->warnings = now;
}
