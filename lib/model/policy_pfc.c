/* policy_pfc: the vocabularies of PFC, link pause and the PFC watchdog that
 * roced.conf and rocesh both parse and print. Kept apart from
 * policy.c so that each vocabulary has its one table here. */
#include "model/policy.h"

#include <stdio.h>
#include <string.h>

static const struct {
	const char *name;
	const char *help; /* what rocesh's `?` says of it */
} policy_pfcwd_action_names[POLICY_PFCWD_NACTIONS] = {
    [POLICY_PFCWD_DROP] = {"drop",
                           "Flush the queue, drop what arrives for it and "
                           "ignore pause for its priority (default)"},
    [POLICY_PFCWD_FORWARD] = {"forward",
                              "Ignore pause for the priority: the queue "
                              "becomes lossy"},
    [POLICY_PFCWD_ALERT] = {"alert", "Log the storm and do nothing else"},
};

const char *policy_pfcwd_action_name(enum policy_pfcwd_action a)
{
	return (unsigned)a < POLICY_PFCWD_NACTIONS
	           ? policy_pfcwd_action_names[a].name
	           : "?";
}

int policy_pfcwd_action_parse(const char *s)
{
	for (unsigned i = 0; s && i < POLICY_PFCWD_NACTIONS; i++)
		if (!strcmp(s, policy_pfcwd_action_names[i].name))
			return (int)i;
	return -1;
}

const char *policy_pfcwd_action_help(enum policy_pfcwd_action a)
{
	return (unsigned)a < POLICY_PFCWD_NACTIONS
	           ? policy_pfcwd_action_names[a].help
	           : "?";
}

int policy_pfcwd_action_expected(char *buf, size_t len)
{
	size_t off = 0;

	if (len)
		buf[0] = '\0';
	for (unsigned i = 0; i < POLICY_PFCWD_NACTIONS; i++)
		off +=
		    (size_t)snprintf(buf + (off < len ? off : len),
		                     off < len ? len - off : 0, "%s%s",
		                     !i                               ? ""
		                     : i + 1 == POLICY_PFCWD_NACTIONS ? " or "
		                                                      : ", ",
		                     policy_pfcwd_action_names[i].name);
	return (int)off;
}

/* The CoS values the system's network-qos policy pauses (PFC). */
static uint8_t policy_pfc_paused(const struct policy *p)
{
	const struct policy_map_nq *nq =
	    p->system.network_qos[0]
	        ? policy_find_map_nq(p, p->system.network_qos)
	        : NULL;
	uint8_t cos = 0;

	for (size_t i = 0; nq && i < nq->nrules; i++)
		cos |= nq->rules[i].pfc_cos;
	return cos;
}

int policy_validate_pfc(const struct policy *p, struct diag *d)
{
	size_t errors = d->nerrors;
	uint8_t paused = policy_pfc_paused(p);

	if ((unsigned)p->pfcwd.action >= POLICY_PFCWD_NACTIONS) {
		char acts[64];

		policy_pfcwd_action_expected(acts, sizeof(acts));
		diag_err(d, p->pfcwd.action_line ?: p->pfcwd.line,
		         "invalid watch-dog action, expected %s", acts);
	}
	for (size_t i = 0; i < p->nifaces; i++) {
		const struct policy_iface *f = &p->ifaces[i];
		const char *dir = f->fc_rx ? "receive" : "send";
		char cos[32];

		if (!(f->fc_rx || f->fc_tx) || f->pfc_mode == POLICY_PFC_OFF ||
		    !paused)
			continue;
		policy_list_format(paused, cos, sizeof(cos));
		diag_err(
		    d, (f->fc_rx ? f->fc_rx_line : f->fc_tx_line) ?: f->line,
		    "interface %s: flowcontrol %s on and priority-flow-"
		    "control mode %s: link pause and PFC cannot both run "
		    "on a port (the network-qos policy pauses CoS "
		    "%s); set priority-flow-control mode off or "
		    "flowcontrol %s off",
		    f->name, dir, policy_pfc_mode_name(f->pfc_mode), cos, dir);
	}
	/* receive-only qualifies the CoS a class pauses: alone it says
	 * nothing. */
	for (size_t m = 0; m < p->nmap_nq; m++)
		for (size_t i = 0; i < p->map_nq[m].nrules; i++) {
			const struct policy_nq_rule *r = &p->map_nq[m].rules[i];

			if (r->pfc_rx_only && !policy_nq_rule_pfc(p, r))
				diag_err(d, r->pfc_rx_only_line ?: r->line,
				         "policy-map type network-qos %s class "
				         "%s: pause receive-only without "
				         "pause pfc-cos: no CoS to honour "
				         "pause for",
				         p->map_nq[m].name, r->class_name);
		}
	return (int)(d->nerrors - errors);
}
