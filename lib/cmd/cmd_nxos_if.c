/* cmd_nxos_if: the interface lines of the NX-OS table (cmd_nxos.c) that
 * real configurations add to the reference one: `interface` with NX-OS's
 * spellings, ranges and lists (ethernet 1/1, Eth1/1-4, Ethernet1/7), an
 * interface's mtu, shutdown and description, and the global `hardware qos
 * pfc mc-drop` and `terminal length`. The rules of cmd_nxos.c hold: check
 * before changing, `no` of what is absent is an error naming it.
 */
#include "cmd/cmd_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The policy_find_* lookups are const; the CLI owns the policy it
 * changes, so their results may be written through. */
#define NX_MUT(type, expr) ((type *)(expr))

/* "% No interface has the alias NAME ..." at POS; returns -1. */
static int cmd_nx_not_linux(struct cmd_exec_arg *x, const char *name,
                            size_t pos)
{
	/* An alias only names a port once a block has it: roced cannot
	 * guess which Linux port Ethernet1/1 is. */
	cmd_fail(x->err, pos,
	         "%% No interface has the alias %s, and it is not a Linux "
	         "interface name: configure the port by its Linux name "
	         "(interface swp1) and give it the alias there (alias %s)",
	         name, name);
	return -1;
}

/* `[no] interface PREFIX N-M` or a list of names and ranges: every
 * member as if typed alone, all or none. The mode entered names the
 * list: cmd_exec() carries each line typed in it out on every member. */
static int cmd_nx_interface_list(struct cmd_exec_arg *x, const char *name,
                                 size_t pos)
{
	char(*m)[POLICY_ALIAS_MAX] = calloc(POLICY_IF_RANGE_MAX, sizeof(*m));
	char line[CMD_IFSPEC_MAX + 16];
	int n = m ? policy_ifname_expand(name, m, POLICY_IF_RANGE_MAX) : 0;
	int rc = -1;

	if (!m)
		return cmd_nx_oom(x);
	if (n == -2)
		cmd_fail(x->err, pos,
		         "%% Invalid interface range %s: more than %d "
		         "interfaces",
		         name, POLICY_IF_RANGE_MAX);
	else if (n <= 0)
		cmd_fail(x->err, pos, "%% Invalid interface range %s", name);
	for (int k = 0; k < n; k++) {
		const struct policy_iface *i = policy_find_iface(x->p, m[k]);

		if (x->pa->negated && !i) {
			cmd_fail(x->err, pos,
			         "%% interface %s is not configured", m[k]);
			goto out;
		}
		if (!i && !policy_ifname_linux(m[k])) {
			cmd_nx_not_linux(x, m[k], pos);
			goto out;
		}
	}
	for (int k = 0; k < n; k++) {
		const struct policy_iface *i = policy_find_iface(x->p, m[k]);

		if (x->pa->negated)
			cmd_nx_remove(x->p->ifaces, &x->p->nifaces, sizeof(*i),
			              (size_t)(i - x->p->ifaces));
		else if (!i && !policy_add_iface(x->p, m[k])) {
			cmd_nx_oom(x);
			goto out;
		}
	}
	if (n > 0 && x->pa->negated)
		rc = 0;
	else if (n > 0) {
		snprintf(line, sizeof(line), "interface %s", name);
		rc = cmd_nx_enter(x, CMD_MODE_IF, line);
	}
out:
	free(m);
	return rc;
}

/* The interface spec of the line: its words after `interface` joined and
 * spelt canonically (policy_ifname_nxos), into SPEC; -1 with the error
 * set when it is too long. */
static int cmd_nx_ifspec(struct cmd_exec_arg *x, char *spec, size_t len,
                         size_t *pos)
{
	char joined[CMD_LINE_MAX];
	size_t n = 0;

	*pos = 0;
	joined[0] = '\0';
	for (size_t k = 0; k < x->pa->argc; k++) {
		int w;

		if (!(x->pa->argmask & (1u << k)))
			continue;
		if (!n)
			*pos = x->pa->pos[k];
		w = snprintf(joined + n, sizeof(joined) - n, "%s%s",
		             n ? " " : "", x->pa->argv[k]);
		if (w < 0 || (size_t)w >= sizeof(joined) - n)
			break;
		n += (size_t)w;
	}
	if (policy_ifname_nxos(joined, spec, len) < 0) {
		cmd_fail(x->err, *pos, "%% Interface list too long: %s",
		         joined);
		return -1;
	}
	return 0;
}

int cmd_nx_interface(struct cmd_exec_arg *x)
{
	char name[CMD_IFSPEC_MAX], line[CMD_IFSPEC_MAX + 16];
	size_t pos, plen;
	struct policy_iface *i;
	unsigned long first, last;

	if (cmd_nx_ifspec(x, name, sizeof(name), &pos))
		return -1;
	i = NX_MUT(struct policy_iface, policy_find_iface(x->p, name));
	if (!i && policy_ifname_not_port(name)) {
		/* A note, not an error: a pasted configuration has such
		 * blocks. Its mode is entered so that the block's lines are
		 * ignored with it (cmd_exec) instead of landing elsewhere. */
		cmd_fail(x->err, pos,
		         "%% ignored: interface %s is not a QoS port", name);
		if (x->pa->negated)
			return 0;
		snprintf(line, sizeof(line), "interface %s", name);
		return cmd_nx_enter(x, CMD_MODE_IF, line);
	}
	if (!i && (strchr(name, ',') ||
	           policy_ifname_range(name, &plen, &first, &last) != -1))
		return cmd_nx_interface_list(x, name, pos);
	if (x->pa->negated) {
		if (!i) {
			cmd_fail(x->err, pos,
			         "%% interface %s is not configured", name);
			return -1;
		}
		cmd_nx_remove(x->p->ifaces, &x->p->nifaces, sizeof(*i),
		              (size_t)(i - x->p->ifaces));
		return 0;
	}
	if (!i && !policy_ifname_linux(name))
		return cmd_nx_not_linux(x, name, pos);
	if (!i) {
		i = policy_add_iface(x->p, name);
		if (!i)
			return cmd_nx_oom(x);
	}
	/* The context names the Linux port, which an alias change inside
	 * the block cannot invalidate. */
	snprintf(line, sizeof(line), "interface %s", i->name);
	return cmd_nx_enter(x, CMD_MODE_IF, line);
}

/* ---- interface basics: mtu, shutdown, description ---- */

int cmd_nx_if_mtu(struct cmd_exec_arg *x)
{
	struct policy_iface *i = cmd_nx_ctx_iface(x);

	if (!i)
		return -1;
	if (x->pa->negated) {
		if (cmd_nx_no_value(x, i->mtu, i->mtu, "mtu"))
			return -1;
		i->mtu = 0;
		return 0;
	}
	i->mtu = (uint32_t)strtoul(cmd_arg(x->pa, 0, NULL), NULL, 10);
	return 0;
}

/* `shutdown` and `no shutdown` are both kept, as NX-OS shows them. */
int cmd_nx_shutdown(struct cmd_exec_arg *x)
{
	struct policy_iface *i = cmd_nx_ctx_iface(x);

	if (!i)
		return -1;
	i->shutdown = x->pa->negated ? POLICY_OFF : POLICY_ON;
	return 0;
}

int cmd_nx_description(struct cmd_exec_arg *x)
{
	struct policy_iface *i = cmd_nx_ctx_iface(x);
	char text[POLICY_DESCR_MAX];

	if (!i || cmd_nx_text(x, text, sizeof(text)))
		return -1;
	if (x->pa->negated) {
		if (!i->description[0] ||
		    (text[0] && strcmp(text, i->description))) {
			cmd_fail(x->err, 0,
			         "%% description %s is not configured", text);
			return -1;
		}
		memset(i->description, 0, sizeof(i->description));
		return 0;
	}
	/* Whole field, so that equal policies are equal byte for byte. */
	memset(i->description, 0, sizeof(i->description));
	snprintf(i->description, sizeof(i->description), "%s", text);
	return 0;
}

/* `hardware qos pfc mc-drop`: kept and shown (see policy.h). */
int cmd_nx_mc_drop(struct cmd_exec_arg *x)
{
	x->p->pfc_mc_drop = !x->pa->negated;
	return 0;
}

/* `terminal length 0` and its kind: paging is the terminal's business in
 * rocesh, so the line only has to be accepted where scripts send it. */
int cmd_nx_terminal(struct cmd_exec_arg *x)
{
	(void)x;
	return 0;
}
