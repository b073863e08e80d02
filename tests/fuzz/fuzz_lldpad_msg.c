/* fuzz_lldpad_msg: lldpad's reply decoder (lib/proto/lldpad_msg.h) on
 * arbitrary bytes, in an exact-size copy: the header, every argument
 * value and the hex TLVs of whatever decodes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proto/lldpad_msg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lldpad_msg_reply r;
	struct dcbx_tlvs t;
	char val[64], err[128];
	char *buf = malloc(size ? size : 1);

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	if (lldpad_msg_decode(buf, size, &r) == 0) {
		if (r.payload &&
		    (r.payload < buf || r.payload + r.payload_len > buf + size))
			abort();
		(void)lldpad_msg_value(&r, "enabled", val, sizeof(val));
		(void)lldpad_msg_value(&r, "willing", val, 2);
		memset(&t, 0, sizeof(t));
		(void)lldpad_msg_tlvs(&r, &t, err, sizeof(err));
	}
	free(buf);
	return 0;
}
