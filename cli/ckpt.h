/* ckpt: rocesh's side of checkpoints, rollback and configuration
 * sessions (see ckpt.c). */
#ifndef ROCESH_CKPT_H
#define ROCESH_CKPT_H

#include <stddef.h>

#include "cmd/cmd.h"
#include "ctl/ctl.h"

/* The request of P when it is a checkpoint, rollback or session line
 * (SESSION: the session rocesh is in, "" or NULL for none): 1 with REQ
 * filled, 0 when P is none of them, -1 with ERR when it needs a session
 * and there is none. */
int rocesh_ckpt_request(const struct cmd_parsed *p, const char *session,
                        struct ctl_request *req, struct cmd_error *err);

/* The prompt of C for HOST, with NX-OS's "-s" in a session's modes
 * (roced(config-s-if)#). */
void rocesh_ckpt_prompt(const struct cmd_ctx *c, const char *session,
                        const char *host, char *buf, size_t len);

/* After roced took REQ: a session begun is the one SESSION (LEN bytes)
 * names; committed or aborted, it is left for exec mode (CTX). */
void rocesh_ckpt_done(const struct ctl_request *req, struct cmd_ctx *ctx,
                      char *session, size_t len);

#endif
