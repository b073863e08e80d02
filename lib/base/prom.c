/* prom: see prom.h. */
#include "base/prom.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"

static const char *const prom_type_names[PROM_TYPE_COUNT] = {
    [PROM_COUNTER] = "counter",
    [PROM_GAUGE] = "gauge",
    [PROM_HISTOGRAM] = "histogram",
};

const char *prom_type_name(enum prom_type t)
{
	return (unsigned)t < PROM_TYPE_COUNT ? prom_type_names[t] : "untyped";
}

int prom_type_parse(const char *s)
{
	for (int i = 0; i < PROM_TYPE_COUNT; i++)
		if (!strcmp(s, prom_type_names[i]))
			return i;
	return -1;
}

static bool prom_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool prom_digit(char c)
{
	return c >= '0' && c <= '9';
}

bool prom_name_ok(const char *name)
{
	if (!name[0] || !(prom_alpha(name[0]) || name[0] == ':'))
		return false;
	for (const char *p = name + 1; *p; p++)
		if (!prom_alpha(*p) && !prom_digit(*p) && *p != ':')
			return false;
	return true;
}

bool prom_label_name_ok(const char *name)
{
	if (!name[0] || !prom_alpha(name[0]) || !strncmp(name, "__", 2))
		return false;
	for (const char *p = name + 1; *p; p++)
		if (!prom_alpha(*p) && !prom_digit(*p))
			return false;
	return true;
}

/* S with '\\' and '\n' escaped, and '"' too when QUOTE. */
static void prom_escape(struct strbuf *sb, const char *s, bool quote)
{
	for (; *s; s++) {
		if (*s == '\\')
			strbuf_puts(sb, "\\\\");
		else if (*s == '\n')
			strbuf_puts(sb, "\\n");
		else if (*s == '"' && quote)
			strbuf_puts(sb, "\\\"");
		else
			strbuf_add(sb, s, 1);
	}
}

void prom_family(struct strbuf *sb, const char *name, enum prom_type t,
                 const char *help)
{
	strbuf_printf(sb, "# HELP %s ", name);
	prom_escape(sb, help, false);
	strbuf_printf(sb, "\n# TYPE %s %s\n", name, prom_type_name(t));
}

void prom_label_value(struct strbuf *sb, const char *v)
{
	struct strbuf clean;

	/* Valid UTF-8 without control characters first: a label value the
	 * format cannot carry would make the whole scrape fail. */
	strbuf_init(&clean);
	escape_add(&clean, v, strlen(v), 0);
	if (clean.oom)
		sb->oom = true;
	prom_escape(sb, strbuf_str(&clean), true);
	strbuf_free(&clean);
}

void prom_sample(struct strbuf *sb, const char *name, const char *suffix,
                 const struct prom_label *l, size_t n, const char *value)
{
	strbuf_puts(sb, name);
	if (suffix)
		strbuf_puts(sb, suffix);
	for (size_t i = 0; i < n; i++) {
		strbuf_printf(sb, "%s%s=\"", i ? "," : "{", l[i].name);
		prom_label_value(sb, l[i].value);
		strbuf_puts(sb, "\"");
	}
	if (n)
		strbuf_puts(sb, "}");
	strbuf_printf(sb, " %s\n", value);
}

void prom_int(char *buf, int64_t v)
{
	snprintf(buf, PROM_VALUE_MAX, "%" PRId64, v);
}

void prom_uint(char *buf, uint64_t v)
{
	snprintf(buf, PROM_VALUE_MAX, "%" PRIu64, v);
}

void prom_double(char *buf, double v)
{
	if (isnan(v))
		snprintf(buf, PROM_VALUE_MAX, "NaN");
	else if (isinf(v))
		snprintf(buf, PROM_VALUE_MAX, "%s", v > 0 ? "+Inf" : "-Inf");
	else if (v == floor(v) && fabs(v) < 9007199254740992.0)
		snprintf(buf, PROM_VALUE_MAX, "%.0f", v);
	else {
		/* The shortest of 15 and 17 digits that reads back as V. */
		snprintf(buf, PROM_VALUE_MAX, "%.15g", v);
		if (strtod(buf, NULL) != v)
			snprintf(buf, PROM_VALUE_MAX, "%.17g", v);
	}
}
