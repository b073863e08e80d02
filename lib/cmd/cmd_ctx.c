/* cmd_ctx: where a session is (modes and their prompts, the context of
 * nested mode lines), the arguments of a parsed line, and the "% ..."
 * errors. The leaf of lib/cmd: the matching engine (cmd_graph.c), the
 * front end (cmd.c) and the NX-OS table's actions (cmd_nxos*.c,
 * cmd_nx_util.c) all use it, and it uses none of them.
 */
#include "cmd/cmd_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const cmd_mode_names[CMD_MODE_MAX] = {
    [CMD_MODE_EXEC] = "exec",
    [CMD_MODE_CONFIG] = "config",
    [CMD_MODE_CMAP_QOS] = "config-cmap-qos",
    [CMD_MODE_CMAP_NQOS] = "config-cmap-nqos",
    [CMD_MODE_PMAP_QOS] = "config-pmap-qos",
    [CMD_MODE_PMAP_C_QOS] = "config-pmap-c-qos",
    [CMD_MODE_PMAP_QUE] = "config-pmap-que",
    [CMD_MODE_PMAP_C_QUE] = "config-pmap-c-que",
    [CMD_MODE_PMAP_NQOS] = "config-pmap-nqos",
    [CMD_MODE_PMAP_C_NQOS] = "config-pmap-nqos-c",
    [CMD_MODE_SYS_QOS] = "config-sys-qos",
    [CMD_MODE_IF] = "config-if",
    [CMD_MODE_PORT_PROF] = "config-port-prof",
};

const char *cmd_mode_name(enum cmd_mode m)
{
	return (unsigned)m < CMD_MODE_MAX ? cmd_mode_names[m] : "?";
}

int cmd_mode_parse(const char *name)
{
	for (int m = 0; name && m < CMD_MODE_MAX; m++)
		if (!strcmp(name, cmd_mode_names[m]))
			return m;
	return -1;
}

enum cmd_mode cmd_mode_parent(enum cmd_mode m)
{
	switch (m) {
	case CMD_MODE_PMAP_C_QOS:
		return CMD_MODE_PMAP_QOS;
	case CMD_MODE_PMAP_C_QUE:
		return CMD_MODE_PMAP_QUE;
	case CMD_MODE_PMAP_C_NQOS:
		return CMD_MODE_PMAP_NQOS;
	case CMD_MODE_EXEC:
	case CMD_MODE_CONFIG:
		return CMD_MODE_EXEC;
	default:
		return CMD_MODE_CONFIG;
	}
}

void cmd_ctx_init(struct cmd_ctx *c)
{
	memset(c, 0, sizeof(*c));
	c->mode = CMD_MODE_EXEC;
}

void cmd_ctx_reset(struct cmd_ctx *c)
{
	struct cmd_cache *cache = c->cache;

	cmd_ctx_init(c);
	c->cache = cache;
}

int cmd_ctx_from_path(struct cmd_ctx *c, const char *const *path, size_t n)
{
	cmd_ctx_init(c);
	c->mode = CMD_MODE_CONFIG;
	if (n > CMD_DEPTH_MAX)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (strlen(path[i]) >= sizeof(c->path[i])) {
			cmd_ctx_init(c);
			return -1;
		}
		snprintf(c->path[i], sizeof(c->path[i]), "%s", path[i]);
	}
	c->depth = n;
	return 0;
}

int cmd_ctx_push(struct cmd_ctx *ctx, enum cmd_mode m, const char *canon)
{
	if (ctx->depth >= CMD_DEPTH_MAX ||
	    strlen(canon) >= sizeof(ctx->path[0]))
		return -1;
	snprintf(ctx->path[ctx->depth], sizeof(ctx->path[0]), "%s", canon);
	ctx->depth++;
	ctx->mode = m;
	return 0;
}

void cmd_ctx_refused(struct cmd_ctx *ctx, const struct cmd_parsed *p)
{
	if (p->depth >= ctx->depth || ctx->mode == CMD_MODE_EXEC)
		return;
	for (size_t i = p->depth; i < ctx->depth && i < CMD_DEPTH_MAX; i++)
		ctx->path[i][0] = '\0';
	ctx->depth = p->depth;
	ctx->mode = p->mode;
}

void cmd_ctx_refused_line(struct cmd_ctx *ctx, const char *line)
{
	static const char *const top[] = {
	    "class-map", "policy-map", "interface", "system", "port-profile",
	};
	struct cmd_parsed p = {.mode = ctx->mode, .depth = ctx->depth};
	char w[CMD_WORD_MAX] = "";

	if (sscanf(line, " %63s", w) == 1 && !strcmp(w, "no"))
		sscanf(line, " %*s %63s", w);
	if (!strcmp(w, "class") && ctx->depth &&
	    cmd_mode_parent(ctx->mode) != CMD_MODE_CONFIG) {
		p.mode = cmd_mode_parent(ctx->mode);
		p.depth = ctx->depth - 1;
	}
	for (size_t i = 0; i < sizeof(top) / sizeof(top[0]); i++)
		if (!strcmp(w, top[i]) && ctx->mode != CMD_MODE_EXEC) {
			p.mode = CMD_MODE_CONFIG;
			p.depth = 0;
		}
	cmd_ctx_refused(ctx, &p);
}

const char *cmd_ctx_object(const struct cmd_ctx *ctx, size_t level, char *buf,
                           size_t len)
{
	const char *sp;

	if (level >= ctx->depth)
		return NULL;
	sp = strrchr(ctx->path[level], ' ');
	snprintf(buf, len, "%s", sp ? sp + 1 : ctx->path[level]);
	return buf;
}

void cmd_prompt(const struct cmd_ctx *c, const char *host, char *buf,
                size_t len)
{
	if (c->mode == CMD_MODE_EXEC)
		snprintf(buf, len, "%s# ", host);
	else
		snprintf(buf, len, "%s(%s)# ", host, cmd_mode_name(c->mode));
}

void cmd_where(const struct cmd_ctx *c, char *buf, size_t len)
{
	size_t n;

	if (!len)
		return;
	if (c->mode == CMD_MODE_EXEC) {
		snprintf(buf, len, "exec");
		return;
	}
	n = (size_t)snprintf(buf, len, "conf");
	for (size_t i = 0; i < c->depth && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "; %s", c->path[i]);
}

/* `where`: rocesh prints the context (cmd_where); nothing to carry out. */
int cmd_nx_where(struct cmd_exec_arg *x)
{
	(void)x;
	return 0;
}

void cmd_fail(struct cmd_error *err, size_t pos, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
	err->pos = pos;
}

const char *cmd_arg(const struct cmd_parsed *pa, size_t n, size_t *pos)
{
	for (size_t i = 0; i < pa->argc; i++) {
		if (!(pa->argmask & (1u << i)) || n--)
			continue;
		if (pos)
			*pos = pa->pos[i];
		return pa->argv[i];
	}
	return NULL;
}

bool cmd_has(const struct cmd_parsed *pa, const char *kw, size_t *idx)
{
	for (size_t i = 0; i < pa->argc; i++)
		if (!(pa->argmask & (1u << i)) && !strcmp(pa->argv[i], kw)) {
			if (idx)
				*idx = i;
			return true;
		}
	return false;
}
