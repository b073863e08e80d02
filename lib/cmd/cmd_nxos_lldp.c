/* cmd_nxos_lldp: what the LLDP and DCBX lines of the NX-OS table
 * (cmd_nxos.c) that are not one setting do to a policy: `lldp
 * tlv-select dcbxp [egress-queuing]` and `dcbx agent` (global, or a
 * port's over it). `feature lldp`, an interface's `lldp transmit|receive`,
 * `lldp dcbx willing` and `flowcontrol` are rows of the settings table
 * (model/setting.c), run by cmd_nx_setting. The rules of cmd_nxos.c
 * hold: check before changing, `no` of what is absent is an error
 * naming it.
 */
#include "cmd/cmd_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- LLDP and DCBX ---- */

int cmd_nx_lldp_tlv(struct cmd_exec_arg *x)
{
	struct policy_lldp *l = &x->p->lldp;
	bool eq = cmd_has(x->pa, "egress-queuing", NULL);

	if (x->pa->negated) {
		if (!eq)
			l->no_dcbxp = true;
		l->egress_queuing = false;
		return 0;
	}
	l->no_dcbxp = false;
	l->egress_queuing = eq;
	return 0;
}

/* dcbx agent NAME, global (config mode) or on one interface. */
int cmd_nx_dcbx_agent(struct cmd_exec_arg *x)
{
	bool ifm = x->ctx->mode == CMD_MODE_IF;
	struct policy_iface *i = ifm ? cmd_nx_ctx_iface(x) : NULL;
	size_t last = x->pa->argc - 1;
	int a = policy_dcbx_agent_parse(x->pa->argv[last]);
	enum policy_dcbx_agent cur = i ? i->lldp.agent : x->p->lldp.agent;

	if (ifm && !i)
		return -1;
	if (!x->pa->negated) {
		if (i) {
			i->lldp.agent = (enum policy_dcbx_agent)a;
			i->lldp.has_agent = true;
		} else {
			x->p->lldp.agent = (enum policy_dcbx_agent)a;
		}
		return 0;
	}
	if ((i && !i->lldp.has_agent) ||
	    (a >= 0 && (enum policy_dcbx_agent)a != cur)) {
		cmd_fail(x->err, a >= 0 ? x->pa->pos[last] : 0,
		         "%% dcbx agent %s is not configured%s",
		         a >= 0 ? x->pa->argv[last] : "",
		         i ? " on this interface" : "");
		return -1;
	}
	if (i)
		i->lldp.has_agent = false;
	else
		x->p->lldp.agent = POLICY_DCBX_AGENT_ROCED;
	return 0;
}
