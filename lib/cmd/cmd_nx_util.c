/* cmd_nx_util: the small steps the NX-OS table's actions share (entering
 * a mode, the object of the mode, the refusals worded alike), below both
 * cmd_nxos.c and cmd_nxos_maps.c so that neither needs the other's
 * internals.
 */
#include "cmd/cmd_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cmd_nx_enter(struct cmd_exec_arg *x, enum cmd_mode m, const char *line)
{
	if (!cmd_ctx_push(x->ctx, m, line))
		return 0;
	cmd_fail(x->err, 0, "%% Cannot enter %s: nested too deep",
	         cmd_mode_name(m));
	return -1;
}

int cmd_nx_oom(struct cmd_exec_arg *x)
{
	cmd_fail(x->err, 0, "%% Out of memory");
	return -1;
}

/* The object a mode is about, looked up again in the policy: another
 * session may have removed it meanwhile. */
const char *cmd_nx_obj(struct cmd_exec_arg *x, size_t level, char *buf,
                       size_t len)
{
	if (cmd_ctx_object(x->ctx, level, buf, len))
		return buf;
	buf[0] = '\0';
	return buf;
}

int cmd_nx_gone(struct cmd_exec_arg *x, const char *what, const char *name)
{
	cmd_fail(x->err, 0, "%% %s %s no longer exists", what, name);
	return -1;
}

/* Remove element I of an array of N elements of SIZE bytes. */
void cmd_nx_remove(void *arr, size_t *n, size_t size, size_t i)
{
	char *a = arr;

	memmove(a + i * size, a + (i + 1) * size, (*n - i - 1) * size);
	(*n)--;
}

int cmd_nx_pmap_missing(struct cmd_exec_arg *x, const char *type,
                        const char *name, size_t pos)
{
	cmd_fail(x->err, pos, "%% policy-map type %s %s does not exist", type,
	         name);
	return -1;
}

/* For `no X [VALUE]`: X must be set, and equal VALUE when given. */
int cmd_nx_no_value(struct cmd_exec_arg *x, bool set, unsigned long long cur,
                    const char *what)
{
	size_t pos = 0;
	const char *v = cmd_arg(x->pa, 0, &pos);

	if (!set) {
		cmd_fail(x->err, 0, "%% %s is not configured", what);
		return -1;
	}
	if (v && strtoull(v, NULL, 10) != cur) {
		cmd_fail(x->err, pos, "%% %s is %llu, not %s", what, cur, v);
		return -1;
	}
	return 0;
}

struct policy_iface *cmd_nx_ctx_iface(struct cmd_exec_arg *x)
{
	char name[CMD_WORD_MAX];
	struct policy_iface *i = (struct policy_iface *)(policy_find_iface(
	    x->p, cmd_nx_obj(x, 0, name, sizeof(name))));

	if (!i)
		cmd_nx_gone(x, "interface", name);
	return i;
}

int cmd_nx_text(struct cmd_exec_arg *x, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < x->pa->argc; k++) {
		int w;

		if (!(x->pa->argmask & (1u << k)))
			continue;
		w = snprintf(buf + n, len - n, "%s%s", n ? " " : "",
		             x->pa->argv[k]);
		if (w < 0 || (size_t)w >= len - n) {
			cmd_fail(x->err, x->pa->pos[k],
			         "%% description longer than %zu characters",
			         len - 1);
			return -1;
		}
		n += (size_t)w;
	}
	return 0;
}
