/* diag: see diag.h. */
#include "base/diag.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/strbuf.h"

void diag_init(struct diag *d, const char *file)
{
	memset(d, 0, sizeof(*d));
	if (file)
		d->file = strdup(file);
}

void diag_clear(struct diag *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->v[i].text);
	d->n = 0;
	d->nerrors = d->nwarnings = 0;
}

void diag_free(struct diag *d)
{
	diag_clear(d);
	free(d->v);
	free(d->file);
	memset(d, 0, sizeof(*d));
}

/* Out-of-memory fallback text: static so recording it needs no allocation. */
static const char diag_oom_text[] =
    "out of memory while recording a diagnostic";

void diag_addv(struct diag *d, enum diag_severity sev, unsigned line,
               const char *fmt, va_list ap)
{
	char *text = NULL;

	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	if (d->n == d->cap) {
		size_t ncap = d->cap ? d->cap * 2 : 8;
		struct diag_msg *nv = realloc(d->v, ncap * sizeof(*nv));

		if (!nv) {
			free(text);
			/* Keep counting so callers still see the failure. */
			if (sev == DIAG_ERROR)
				d->nerrors++;
			return;
		}
		d->v = nv;
		d->cap = ncap;
	}
	if (!text)
		sev = DIAG_ERROR; /* rendered with diag_oom_text */
	d->v[d->n].sev = sev;
	d->v[d->n].line = line;
	d->v[d->n].text = text;
	d->n++;
	if (sev == DIAG_ERROR)
		d->nerrors++;
	else if (sev == DIAG_WARNING)
		d->nwarnings++;
}

void diag_add(struct diag *d, enum diag_severity sev, unsigned line,
              const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_addv(d, sev, line, fmt, ap);
	va_end(ap);
}

/* The severities' one name table: FILE:LINE lists and the plan's
 * warnings print them alike. */
static const char *const diag_sev_names[] = {
    [DIAG_ERROR] = "error",
    [DIAG_WARNING] = "warning",
    [DIAG_NOTE] = "note",
};

const char *diag_sev_name(enum diag_severity sev)
{
	if ((size_t)sev >= sizeof(diag_sev_names) / sizeof(diag_sev_names[0]) ||
	    !diag_sev_names[sev])
		return "?";
	return diag_sev_names[sev];
}

int diag_format(const struct diag *d, size_t i, char *buf, size_t len)
{
	const struct diag_msg *m = &d->v[i];
	const char *text = m->text ? m->text : diag_oom_text;
	struct strbuf raw, out;
	int n;

	strbuf_init(&raw);
	if (d->file && m->line)
		strbuf_printf(&raw, "%s:%u: %s: %s", d->file, m->line,
		              diag_sev_name(m->sev), text);
	else if (d->file)
		strbuf_printf(&raw, "%s: %s: %s", d->file,
		              diag_sev_name(m->sev), text);
	else
		strbuf_printf(&raw, "%s: %s", diag_sev_name(m->sev), text);
	/* The message quotes config strings, file names and peers' bytes:
	 * escaped as the daemon's log escapes them, so that no terminal,
	 * journal or client reads a control byte from it. */
	strbuf_init(&out);
	escape_add(&out, strbuf_str(&raw), raw.len, 0);
	if (raw.oom || out.oom) {
		n = snprintf(buf, len, "%s", diag_oom_text);
	} else {
		n = (int)out.len;
		if (len)
			snprintf(buf, len, "%s", strbuf_str(&out));
	}
	strbuf_free(&raw);
	strbuf_free(&out);
	return n;
}

void diag_sort(struct diag *d)
{
	/* Insertion sort: stable, and lists are short. */
	for (size_t i = 1; i < d->n; i++) {
		struct diag_msg m = d->v[i];
		size_t j = i;

		while (j > 0 && d->v[j - 1].line > m.line) {
			d->v[j] = d->v[j - 1];
			j--;
		}
		d->v[j] = m;
	}
}

static bool diag_msg_same(const struct diag_msg *a, const struct diag_msg *b)
{
	return a->sev == b->sev && a->line == b->line &&
	       !strcmp(a->text, b->text);
}

void diag_drop_repeats(struct diag *d, size_t from)
{
	size_t w = from;

	for (size_t i = from; i < d->n; i++) {
		bool dup = false;

		for (size_t j = 0; j < from && !dup; j++)
			dup = diag_msg_same(&d->v[j], &d->v[i]);
		if (!dup) {
			d->v[w++] = d->v[i];
			continue;
		}
		if (d->v[i].sev == DIAG_ERROR)
			d->nerrors--;
		else if (d->v[i].sev == DIAG_WARNING)
			d->nwarnings--;
		free(d->v[i].text);
	}
	d->n = w;
}
