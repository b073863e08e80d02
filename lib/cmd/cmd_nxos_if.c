/* cmd_nxos_if: the interface lines of the NX-OS table (cmd_nxos.c) that
 * real configurations add to the reference one: `interface` with NX-OS's
 * spellings, ranges and lists (ethernet 1/1, Eth1/1-4, Ethernet1/7), an
 * interface's mtu, shutdown and description, and the global `terminal
 * length`. The rules of cmd_nxos.c hold: check
 * before changing, `no` of what is absent is an error naming it.
 */
#include "cmd/cmd_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
	if (!i && cmd_nx_port_channel(name, NULL)) {
		/* Its lines are kept and go to its members (cmd_exec). */
		const struct policy_port_profile *pp =
		    policy_find_port_profile(x->p, name);

		if (x->pa->negated) {
			if (pp)
				cmd_nx_remove(x->p->profiles, &x->p->nprofiles,
				              sizeof(*pp),
				              (size_t)(pp - x->p->profiles));
			return 0;
		}
		if (!pp && !policy_add_port_profile(x->p, name))
			return cmd_nx_oom(x);
		snprintf(line, sizeof(line), "interface %s", name);
		return cmd_nx_enter(x, CMD_MODE_IF, line);
	}
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

/* ---- interface basics: shutdown, description (mtu: a setting) ---- */

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

/* OBJS (bits of enum policy_roce_object) as "A, B and C" into BUF, by
 * their names alone (ROCE-DATA, ..., system qos) so that all of them fit
 * in a reply line; the system bit says which maps system qos attaches
 * when WITH_SYSTEM. */
static void cmd_nx_roce_list(const struct policy *p, uint32_t objs,
                             bool with_system, char *buf, size_t len)
{
	size_t off = 0, left = (size_t)__builtin_popcount(objs);

	buf[0] = '\0';
	for (unsigned o = 0; o < POLICY_ROCE_NOBJECTS && off < len; o++) {
		const char *name = policy_roce_object_name(o), *sp;

		if (!(objs & (1u << o)))
			continue;
		left--;
		sp = strrchr(name, ' ');
		if (o != POLICY_ROCE_OBJ_SYSTEM && sp)
			name = sp + 1;
		off += (size_t)snprintf(buf + off, len - off, "%s", name);
		if (o == POLICY_ROCE_OBJ_SYSTEM && with_system && off < len)
			off += (size_t)snprintf(
			    buf + off, len - off,
			    " (attaching%s%.*s%s%.*s%s%.*s)",
			    p->system.network_qos[0] ? " " : "", 40,
			    p->system.network_qos,
			    p->system.qos_input[0] ? " " : "", 40,
			    p->system.qos_input,
			    p->system.queuing_output[0] ? " " : "", 40,
			    p->system.queuing_output);
		if (off < len)
			off += (size_t)snprintf(buf + off, len - off, "%s",
			                        !left       ? ""
			                        : left == 1 ? " and "
			                                    : ", ");
	}
}

/* `roce [MODE] [force]` and `no roce [MODE]`: the one-command RoCE mode,
 * the expansion of model/policy.h (lossless when no mode is given, as on
 * Onyx). It never clobbers: an object of its names that roce did not
 * write (an operator's, or one edited since) and a system qos that
 * attaches other maps are refused by name unless `force`; the reply says
 * what it wrote. `no roce` removes exactly what roce wrote and says what
 * it kept; with a mode it must be the one in force. */
int cmd_nx_roce(struct cmd_exec_arg *x)
{
	size_t last = x->pa->argc - 1;
	enum policy_roce_mode mode = POLICY_ROCE_LOSSLESS, cur;
	struct policy_roce_removal rm;
	bool force = cmd_has(x->pa, "force", NULL);
	char list[160], kept[200];
	uint32_t clash, writes;
	int m = -1;

	for (size_t i = 1; i < x->pa->argc && m < 0; i++)
		if ((m = policy_roce_mode_parse(x->pa->argv[i])) >= 0) {
			mode = (enum policy_roce_mode)m;
			last = i;
		}
	if (!x->pa->negated) {
		clash = policy_roce_conflicts(x->p, mode);
		writes = policy_roce_writes(x->p, mode);
		if (clash == UINT32_MAX || writes == UINT32_MAX)
			return cmd_nx_oom(x);
		if (clash && !force) {
			cmd_nx_roce_list(x->p, clash, true, list, sizeof(list));
			cmd_fail(x->err, 0,
			         "%% roce %s would replace %s, which roce did "
			         "not write: rename or remove them, or give "
			         "roce %s force",
			         policy_roce_mode_name(mode), list,
			         policy_roce_mode_name(mode));
			return -1;
		}
		if (policy_roce_expand(x->p, mode, POLICY_ROCE_REPLACE, 0) < 0)
			return cmd_nx_oom(x);
		/* A note, not an error: what the line wrote. */
		cmd_nx_roce_list(x->p, writes, false, list, sizeof(list));
		if (writes)
			cmd_fail(x->err, 0, "%% roce %s wrote %s",
			         policy_roce_mode_name(mode), list);
		else
			cmd_fail(x->err, 0,
			         "%% roce %s is in force already: nothing "
			         "written",
			         policy_roce_mode_name(mode));
		return 0;
	}
	cur = policy_roce_mode(x->p, NULL);
	if (cur == POLICY_ROCE_NONE) {
		cmd_fail(x->err, 0, "%% roce is not configured");
		return -1;
	}
	if (m >= 0 && mode != cur) {
		cmd_fail(x->err, x->pa->pos[last], "%% roce is %s, not %s",
		         policy_roce_mode_name(cur), x->pa->argv[last]);
		return -1;
	}
	policy_roce_remove(x->p, &rm);
	kept[0] = '\0';
	if (rm.edited) {
		cmd_nx_roce_list(x->p, rm.edited, false, list, sizeof(list));
		snprintf(kept, sizeof(kept), "; kept %.120s (edited)", list);
	}
	for (unsigned o = 0; o < POLICY_ROCE_NOBJECTS; o++)
		if (rm.in_use & (1u << o)) {
			size_t n = strlen(kept);

			if (n < sizeof(kept))
				snprintf(
				    kept + n, sizeof(kept) - n,
				    "; kept %.64s (used by %.80s)",
				    strrchr(policy_roce_object_name(o), ' ') +
				        1,
				    rm.user[o]);
		}
	if (!rm.removed) {
		cmd_fail(x->err, 0,
		         "%% no roce: nothing is as roce wrote it%.200s", kept);
		return -1;
	}
	cmd_nx_roce_list(x->p, rm.removed, false, list, sizeof(list));
	cmd_fail(x->err, 0, "%% no roce removed %.100s%.150s", list, kept);
	return 0;
}

/* `terminal length 0` and its kind: paging is the terminal's business in
 * rocesh, so the line only has to be accepted where scripts send it. */
int cmd_nx_terminal(struct cmd_exec_arg *x)
{
	(void)x;
	return 0;
}

/* ---- port profiles ---- */

/* `port-profile [type ethernet] NAME` enters the profile, creating it;
 * the interface lines typed in it are kept (cmd_exec). */
int cmd_nx_port_profile(struct cmd_exec_arg *x)
{
	size_t pos;
	const char *name = cmd_arg(x->pa, 0, &pos);
	const struct policy_port_profile *pp;
	char line[POLICY_NAME_MAX + 32];

	if (!name || !cmd_name_ok(name)) {
		cmd_fail(x->err, pos,
		         "%% Invalid port-profile name, expected letters, "
		         "digits, '-', '_' or '.'");
		return -1;
	}
	if (!x->p)
		return cmd_nx_oom(x);
	pp = policy_find_port_profile(x->p, name);
	if (x->pa->negated) {
		if (!pp) {
			cmd_fail(x->err, pos,
			         "%% port-profile %s does not exist", name);
			return -1;
		}
		cmd_nx_remove(x->p->profiles, &x->p->nprofiles, sizeof(*pp),
		              (size_t)(pp - x->p->profiles));
		return 0;
	}
	if (!pp && !policy_add_port_profile(x->p, name))
		return cmd_nx_oom(x);
	snprintf(line, sizeof(line), "port-profile type ethernet %s", name);
	return cmd_nx_enter(x, CMD_MODE_PORT_PROF, line);
}

static struct policy_port_profile *cmd_nx_ctx_profile(struct cmd_exec_arg *x)
{
	char name[POLICY_NAME_MAX];
	const struct policy_port_profile *pp = policy_find_port_profile(
	    x->p, cmd_nx_obj(x, 0, name, sizeof(name)));

	if (!pp)
		cmd_nx_gone(x, "port-profile", name);
	return NX_MUT(struct policy_port_profile, pp);
}

int cmd_nx_profile_state(struct cmd_exec_arg *x)
{
	struct policy_port_profile *pp = cmd_nx_ctx_profile(x);

	if (!pp)
		return -1;
	pp->enabled = !x->pa->negated;
	return 0;
}

/* Keep the interface line P->canon in the profile of the mode. */
int cmd_nx_profile_keep(struct cmd_exec_arg *x)
{
	struct policy_port_profile *pp = cmd_nx_ctx_profile(x);

	if (!pp)
		return -1;
	if (strlen(x->pa->canon) >= sizeof(pp->lines[0])) {
		cmd_fail(x->err, 0, "%% Line too long for a port profile");
		return -1;
	}
	for (size_t i = 0; i < pp->nlines; i++)
		if (!strcmp(pp->lines[i], x->pa->canon))
			return 0;
	if (pp->nlines == POLICY_PROFILE_LINES) {
		cmd_fail(x->err, 0,
		         "%% port-profile %s is full: at most %d lines",
		         pp->name, POLICY_PROFILE_LINES);
		return -1;
	}
	snprintf(pp->lines[pp->nlines++], sizeof(pp->lines[0]), "%s",
	         x->pa->canon);
	return 0;
}

/* `inherit port-profile NAME`: the profile must exist; cmd_exec then
 * carries its lines out on the interface. Taking them back is not
 * possible once they are the interface's own. */
int cmd_nx_inherit(struct cmd_exec_arg *x)
{
	size_t pos;
	const char *name = cmd_arg(x->pa, 0, &pos);

	if (x->pa->negated) {
		cmd_fail(x->err, 0,
		         "%% no inherit port-profile: the profile's lines are "
		         "this interface's own since it inherited them; undo "
		         "them one by one");
		return -1;
	}
	if (!policy_find_port_profile(x->p, name)) {
		cmd_fail(x->err, pos, "%% port-profile %s does not exist",
		         name);
		return -1;
	}
	return 0;
}

/* ---- port-channels ---- */

bool cmd_nx_port_channel(const char *name, unsigned *n)
{
	return policy_port_channel(name, n);
}

/* `channel-group N ...` on the port of the mode: it becomes a member of
 * port-channelN; `no channel-group` leaves it, keeping what it took. */
int cmd_nx_channel_group(struct cmd_exec_arg *x)
{
	char name[POLICY_ALIAS_MAX];
	struct policy_iface *i = NX_MUT(
	    struct policy_iface,
	    policy_find_iface(x->p, cmd_nx_obj(x, 0, name, sizeof(name))));
	const char *mode;
	int m;

	if (!i) {
		cmd_nx_gone(x, "interface", name);
		return -1;
	}
	if (x->pa->negated) {
		i->channel_group = 0;
		i->channel_mode = POLICY_CHANNEL_MODE_NONE;
		return 0;
	}
	i->channel_group = (uint16_t)strtoul(cmd_arg(x->pa, 0, NULL), NULL, 10);
	/* the mode as typed, written back with the membership */
	mode = strstr(x->pa->canon, " mode ");
	m = mode ? policy_channel_mode_parse(mode + 6) : -1;
	i->channel_mode =
	    m > 0 ? (enum policy_channel_mode)m : POLICY_CHANNEL_MODE_NONE;
	return 0;
}

/* The switch ASIC's buffer carving (dynamic buffer sharing, ingress
 * priority group shares, AFD): a software queue has no such buffer. The
 * line is accepted, with the note that it is not realised. */
int cmd_nx_asic_knob(struct cmd_exec_arg *x)
{
	cmd_fail(x->err, 0,
	         "%% not realised: %s sets the switch ASIC's buffers, which "
	         "roced's queues do not have (accepted, not kept)",
	         x->pa->canon);
	return 0;
}
