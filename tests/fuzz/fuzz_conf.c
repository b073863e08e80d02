/* fuzz_conf: the config loader (lib/conf/conf.h) on arbitrary text. A text
 * that loads must also survive the round trip the daemon relies on for
 * `copy running-config startup-config`: conf_write_string's output loads
 * again. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf/conf.h"
#include "base/diag.h"
#include "model/policy.h"
#include "model/units.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_roundtrip(const struct policy *p)
{
	struct policy again;
	struct diag d;
	char *text = conf_write_string(p);

	if (!text)
		return;
	diag_init(&d, "roundtrip");
	if (conf_load_string(text, &again, &d) != 0) {
		char msg[512];

		for (size_t i = 0; i < d.n; i++) {
			diag_format(&d, i, msg, sizeof(msg));
			fprintf(stderr, "%s\n", msg);
		}
		fprintf(stderr, "written text does not load:\n%s\n", text);
		abort();
	}
	policy_free(&again);
	diag_free(&d);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct policy p;
	struct diag d;
	char err[128];
	uint64_t bytes;
	char *text = malloc(size + 1);

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	diag_init(&d, "fuzz.conf");
	if (conf_load_string(text, &p, &d) == 0) {
		fuzz_roundtrip(&p);
		policy_free(&p);
	}
	diag_free(&d);
	(void)units_bytes_parse(text, &bytes, err, sizeof(err));
	free(text);
	return 0;
}
