/* cmd_nx_util: the small steps the NX-OS table's actions share (entering
 * a mode, the object of the mode, the refusals worded alike), below both
 * cmd_nxos.c and cmd_nxos_maps.c so that neither needs the other's
 * internals.
 */
#include "cmd/cmd_int.h"

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
