/* fuzz_ctl: the control socket's request parser (lib/ctl/ctl.h) on
 * arbitrary datagrams, as untrusted peers may send them. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ctl/ctl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ctl_request req;
	char err[256];
	char *buf;

	/* The daemon refuses larger requests before parsing them. */
	if (size > CTL_MAX_REQUEST)
		return 0;
	buf = malloc(size ? size : 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	if (ctl_request_parse(buf, size, &req, err, sizeof(err)) == 0) {
		(void)ctl_cmd_name(req.cmd);
		(void)ctl_cmd_configures(req.cmd);
	} else if (!memchr(err, '\0', sizeof(err))) {
		abort(); /* the reason must be a string */
	}
	free(buf);
	return 0;
}
