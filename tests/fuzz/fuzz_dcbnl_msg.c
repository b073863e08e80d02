/* fuzz_dcbnl_msg: the DCB netlink reply decoders (lib/nlmsg/dcbnl_msg.h) on
 * arbitrary bytes, in an exact-size malloc'd (aligned) copy. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nlmsg/dcbnl_msg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dcbnl_msg_ieee ieee;
	struct dcbnl_msg_cap cap;
	uint8_t mode;
	int status;
	uint8_t *buf = malloc(size ? size : 1);

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	(void)dcbnl_msg_parse_ieee(buf, size, &ieee);
	(void)dcbnl_msg_parse_dcbx(buf, size, &mode);
	(void)dcbnl_msg_parse_cap(buf, size, &cap);
	(void)dcbnl_msg_parse_status(buf, size, &status);
	free(buf);
	return 0;
}
