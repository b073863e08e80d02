/* fuzz_cumulus: roced --import cumulus (lib/conf/conf_cumulus.c) on
 * arbitrary text. Whatever it accepts must be a roced.conf that loads:
 * the import promises never to print a file roced refuses. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/strbuf.h"
#include "conf/conf.h"
#include "conf/conf_cumulus.h"
#include "model/policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct strbuf out;
	struct diag d;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	diag_init(&d, "fuzz");
	strbuf_init(&out);
	if (conf_import_cumulus(text, &out, &d) == 0) {
		struct policy p;
		struct diag check;

		diag_init(&check, "imported");
		if (conf_load_string(strbuf_str(&out), &p, &check) != 0) {
			char msg[512];

			for (size_t i = 0; i < check.n; i++) {
				diag_format(&check, i, msg, sizeof(msg));
				fprintf(stderr, "%s\n", msg);
			}
			fprintf(stderr, "imported text does not load:\n%s\n",
			        strbuf_str(&out));
			abort();
		}
		policy_free(&p);
		diag_free(&check);
	}
	strbuf_free(&out);
	diag_free(&d);
	free(text);
	return 0;
}
