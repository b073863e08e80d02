/* fuzz_tc_msg: the tc dump decoders (lib/nlmsg/tc_msg.h) on arbitrary bytes.
 * Each decoder gets its own exact-size copy so that ASan sees a read one
 * byte past the message; the copy is malloc'd, hence netlink-aligned. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nlmsg/tc_msg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tc_msg_qdisc q;
	struct tc_msg_class c;
	struct tc_msg_filter f;
	uint8_t *buf = malloc(size ? size : 1);

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	(void)tc_msg_qdisc_parse(buf, size, &q);
	(void)tc_msg_class_parse(buf, size, &c);
	(void)tc_msg_filter_parse(buf, size, &f);
	free(buf);
	return 0;
}
