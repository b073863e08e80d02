/* fuzz_pfc_frame: the PFC / link pause decoder (lib/proto/pfc_frame.h) on
 * arbitrary bytes, in an exact-size copy; what decodes must encode and
 * decode back to the same frame. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proto/pfc_frame.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pfc_frame f, g;
	uint8_t out[PFC_FRAME_MIN];
	char err[128];
	uint8_t *buf = malloc(size ? size : 1);

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	if (pfc_frame_decode(buf, size, &f, err, sizeof(err)) == 0) {
		if (pfc_frame_encode(&f, out, sizeof(out)) != PFC_FRAME_MIN ||
		    pfc_frame_decode(out, sizeof(out), &g, NULL, 0) != 0 ||
		    memcmp(&f, &g, sizeof(f)))
			abort();
		for (unsigned p = 0; p < PFC_NPRIO; p++)
			(void)pfc_quanta_ns(f.quanta[p], 100000);
	}
	free(buf);
	return 0;
}
