/* ckpt: rocesh's side of checkpoints, rollback and configuration
 * sessions: the request each of their lines makes (roced keeps the
 * checkpoints and the sessions, daemon/control/ctl_ckpt.c) and the
 * prompt of a session's modes. session.c sends the requests the way it
 * sends every other.
 */
#include "ckpt.h"

#include <stdio.h>
#include <string.h>

/* The first argument word of P at or after word K (NULL: none). */
static const char *ckpt_arg(const struct cmd_parsed *p, size_t k)
{
	for (; k < p->argc; k++)
		if (p->argmask & (1u << k))
			return p->argv[k];
	return NULL;
}

/* The index of keyword KW among P's words, or P->argc. */
static size_t ckpt_kw(const struct cmd_parsed *p, const char *kw)
{
	size_t k;

	for (k = 0; k < p->argc; k++)
		if (!(p->argmask & (1u << k)) && !strcmp(p->argv[k], kw))
			break;
	return k;
}

int rocesh_ckpt_request(const struct cmd_parsed *p, const char *session,
                        struct ctl_request *req, struct cmd_error *err)
{
	size_t k;

	memset(req, 0, sizeof(*req));
	memset(err, 0, sizeof(*err));
	if (!strcmp(p->name, "checkpoint")) {
		/* "[no] checkpoint [WORD] [description TEXT]" */
		req->cmd = CTL_CMD_CHECKPOINT;
		ctl_request_set(req->op, sizeof(req->op),
		                p->negated ? "delete" : "create");
		k = p->negated ? 2 : 1;
		if (k < p->argc && (p->argmask & (1u << k)))
			ctl_request_set(req->name, sizeof(req->name),
			                p->argv[k]);
		k = ckpt_kw(p, "description");
		if (k < p->argc) {
			char text[CTL_CONTEXT_LEN] = "";
			size_t n = 0;

			for (k++; k < p->argc && n < sizeof(text); k++)
				n += (size_t)snprintf(text + n,
				                      sizeof(text) - n, "%s%s",
				                      n ? " " : "", p->argv[k]);
			ctl_request_set(req->descr, sizeof(req->descr), text);
		}
		return 1;
	}
	if (!strcmp(p->name, "clear checkpoint database")) {
		req->cmd = CTL_CMD_CHECKPOINT;
		ctl_request_set(req->op, sizeof(req->op), "clear");
		return 1;
	}
	if (!strcmp(p->name, "rollback running-config")) {
		/* "... checkpoint WORD [atomic|best-effort]" */
		req->cmd = CTL_CMD_CHECKPOINT;
		ctl_request_set(req->op, sizeof(req->op), "rollback");
		ctl_request_set(req->name, sizeof(req->name), ckpt_arg(p, 0));
		req->best_effort = ckpt_kw(p, "best-effort") < p->argc;
		return 1;
	}
	if (!strcmp(p->name, "configure session") ||
	    !strcmp(p->name, "verify") || !strcmp(p->name, "commit") ||
	    !strcmp(p->name, "abort")) {
		/* Only `configure session` names one: commit's argument
		 * is its seconds. */
		const char *name = !strcmp(p->name, "configure session")
		                       ? ckpt_arg(p, 0)
		                       : NULL;

		req->cmd = CTL_CMD_SESSION;
		if (name) {
			ctl_request_set(req->op, sizeof(req->op), "begin");
		} else if (!session || !session[0]) {
			err->pos = p->pos[0];
			snprintf(err->message, sizeof(err->message),
			         "%% %s is for a configuration session "
			         "(configure session NAME)",
			         p->name);
			return -1;
		} else {
			ctl_request_set(req->op, sizeof(req->op), p->name);
			name = session;
		}
		/* "commit confirmed SECONDS": the number is the last word */
		if (!strcmp(p->name, "commit") && ckpt_arg(p, 0))
			ctl_request_set(req->confirm, sizeof(req->confirm),
			                ckpt_arg(p, 0));
		ctl_request_set(req->name, sizeof(req->name), name);
		return 1;
	}
	return 0;
}

void rocesh_ckpt_prompt(const struct cmd_ctx *c, const char *session,
                        const char *host, char *buf, size_t len)
{
	char plain[96];
	const char *at;

	cmd_prompt(c, host, plain, sizeof(plain));
	at = strstr(plain, "(config");
	if (!session || !session[0] || !at) {
		snprintf(buf, len, "%s", plain);
		return;
	}
	/* NX-OS's session prompt: roced(config-s)#, roced(config-s-if)# */
	at += strlen("(config");
	snprintf(buf, len, "%.*s-s%s", (int)(at - plain), plain, at);
}

void rocesh_ckpt_done(const struct ctl_request *req, struct cmd_ctx *ctx,
                      char *session, size_t len)
{
	struct cmd_cache *cache = ctx->cache;

	if (req->cmd != CTL_CMD_SESSION)
		return;
	if (!strcmp(req->op, "begin"))
		snprintf(session, len, "%s", req->name);
	/* A session's end leaves its mode, as on NX-OS; a confirmed
	 * commit keeps it, for the `commit` that confirms it. */
	if ((!strcmp(req->op, "commit") && !req->confirm[0]) ||
	    !strcmp(req->op, "abort")) {
		session[0] = '\0';
		cmd_ctx_init(ctx);
		ctx->cache = cache;
	}
}
