/* fuzz_ctl: the control socket's request parser (lib/ctl/ctl.h) on
 * arbitrary datagrams, as untrusted peers may send them; each request it
 * accepts is encoded and parsed again. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "ctl/ctl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What the parser accepted, rocesh's encoder writes so that it parses
 * back to the same request. */
static void fuzz_ctl_round_trip(const struct ctl_request *req)
{
	static struct ctl_request back;
	struct strbuf sb;
	char err[256];

	strbuf_init(&sb);
	if (ctl_request_encode(req, &sb, err, sizeof(err)) < 0 ||
	    sb.len > CTL_MAX_REQUEST ||
	    ctl_request_parse(sb.s, sb.len, &back, err, sizeof(err)) < 0)
		abort();
	if (back.cmd != req->cmd || back.ncontext != req->ncontext ||
	    back.nargs != req->nargs || back.json != req->json ||
	    back.on != req->on || strcmp(back.line, req->line) ||
	    strcmp(back.what, req->what) || strcmp(back.from, req->from) ||
	    strcmp(back.to, req->to) || strcmp(back.subsys, req->subsys))
		abort();
	for (size_t i = 0; i < req->ncontext; i++)
		if (strcmp(back.context[i], req->context[i]))
			abort();
	for (size_t i = 0; i < req->nargs; i++)
		if (strcmp(back.args[i], req->args[i]))
			abort();
	strbuf_free(&sb);
}

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
		fuzz_ctl_round_trip(&req);
	} else if (!memchr(err, '\0', sizeof(err))) {
		abort(); /* the reason must be a string */
	}
	free(buf);
	return 0;
}
