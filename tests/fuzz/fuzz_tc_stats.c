/* fuzz_tc_stats: the tc statistics decoder (lib/nlmsg/tc_stats.h) on arbitrary
 * bytes, in an exact-size malloc'd (aligned) copy. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nlmsg/tc_stats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tc_stats_obj o;
	uint8_t *buf = malloc(size ? size : 1);

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	(void)tc_stats_parse(buf, size, &o);
	free(buf);
	return 0;
}
