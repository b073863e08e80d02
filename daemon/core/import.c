/* roced --import: see import.h. The translation itself is pure
 * (lib/conf/conf_cumulus.c); this reads the file, prints what it said and
 * loads the result as roced -n would, so that what is printed is a file
 * roced takes. */
#include "core/import.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/escape.h"
#include "base/strbuf.h"
#include "conf/conf.h"
#include "conf/conf_cumulus.h"
#include "model/policy.h"

/* traffic.conf files are a few kilobytes; anything past this is not one. */
#define IMPORT_MAX_BYTES (1024 * 1024)

/* FILE's text; NAME is how messages quote it. */
static char *import_read(const char *file, const char *name)
{
	FILE *f = strcmp(file, "-") ? fopen(file, "r") : stdin;
	struct strbuf sb;
	char buf[4096];
	size_t n;

	if (!f) {
		fprintf(stderr, "roced: %s: %s\n", name, strerror(errno));
		return NULL;
	}
	strbuf_init(&sb);
	strbuf_puts(&sb, "");
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0 &&
	       sb.len <= IMPORT_MAX_BYTES)
		strbuf_add(&sb, buf, n);
	if (ferror(f) || sb.oom || sb.len > IMPORT_MAX_BYTES ||
	    memchr(sb.s, '\0', sb.len)) {
		fprintf(stderr, "roced: %s: %s\n", name,
		        ferror(f) ? strerror(errno)
		        : sb.len > IMPORT_MAX_BYTES
		            ? "larger than 1 MiB: not a "
		              "traffic.conf"
		        : sb.oom ? strerror(ENOMEM)
		                 : "a binary file, not a "
		                   "traffic.conf");
		if (f != stdin)
			fclose(f);
		strbuf_free(&sb);
		return NULL;
	}
	if (f != stdin)
		fclose(f);
	return strbuf_detach(&sb);
}

static void import_print(const struct diag *d)
{
	char line[1024];

	for (size_t i = 0; i < d->n; i++) {
		diag_format(d, i, line, sizeof(line));
		fprintf(stderr, "%s\n", line);
	}
}

int import_run(const char *format, const char *file)
{
	char name[4 * 4096];
	struct diag d, check;
	struct strbuf out;
	struct policy p;
	char *text;
	int rc = 1;

	if (strcmp(format, "cumulus")) {
		fprintf(stderr,
		        "roced: --import '%s': expected cumulus (a Cumulus "
		        "Linux traffic.conf, qos_features.conf or NVUE "
		        "commands)\n",
		        format);
		return 2;
	}
	/* quoted escaped, as diag_format() quotes the rest */
	if (strcmp(file, "-"))
		escape_buf(name, sizeof(name), file, strlen(file), 0);
	else
		snprintf(name, sizeof(name), "standard input");
	text = import_read(file, name);
	if (!text)
		return 1;
	diag_init(&d, name);
	strbuf_init(&out);
	if (conf_import_cumulus(text, &out, &d) < 0) {
		diag_sort(&d);
		import_print(&d);
		fprintf(stderr, "roced: %zu error%s in %s: nothing written\n",
		        d.nerrors, d.nerrors == 1 ? "" : "s", name);
		goto out;
	}
	diag_sort(&d);
	import_print(&d);
	/* What is printed must be a file roced takes: a translation that
	 * does not load is roced's fault, said as such, and not printed. */
	diag_init(&check, "(imported roced.conf)");
	if (conf_load_string(strbuf_str(&out), &p, &check) < 0) {
		import_print(&check);
		fprintf(stderr,
		        "roced: the translation of %s does not load "
		        "(a bug in roced --import): nothing written\n",
		        name);
	} else {
		policy_free(&p);
		fputs(strbuf_str(&out), stdout);
		rc = fflush(stdout) == 0 ? 0 : 1;
		size_t skipped = 0;

		for (size_t i = 0; i < d.n; i++)
			if (d.v[i].text &&
			    strstr(d.v[i].text, "; line skipped"))
				skipped++;
		fprintf(stderr, "roced: %s imported, %zu warning%s", name,
		        d.nwarnings, d.nwarnings == 1 ? "" : "s");
		if (skipped)
			fprintf(stderr, " (%zu line%s skipped)", skipped,
			        skipped == 1 ? "" : "s");
		fputc('\n', stderr);
	}
	diag_free(&check);
out:
	strbuf_free(&out);
	diag_free(&d);
	free(text);
	return rc;
}
