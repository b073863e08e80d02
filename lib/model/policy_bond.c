/* policy_bond: a Linux bond (or team) that carries a port-channel's
 * policy. NX-OS configures a port-channel on its own interface and its
 * members inherit it; on Linux the bond device is where the operator
 * names it (roced.conf: { name = "bond10"; alias = "port-channel10"; }),
 * but PFC, ETS and the watchdog act where frames are queued and paused,
 * on the member links. So each member the kernel gives the bond
 * (IFLA_MASTER) becomes a port of the policy of its own, a copy of the
 * bond's settings marked as derived (policy_iface.bond): the one path
 * plans, applies, shows and watches it like any port, running-config and
 * roced.conf never write it, and it goes when the member leaves.
 * A member the configuration names itself keeps its own settings.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/policy.h"

/* The number N of a port-channelN alias (0: none). */
static uint16_t policy_bond_number(const char *alias)
{
	const char *d = alias + strlen("port-channel");
	char *end;
	unsigned long v;

	if (strncasecmp(alias, "port-channel", strlen("port-channel")) ||
	    *d < '1' || *d > '9')
		return 0;
	v = strtoul(d, &end, 10);
	return !*end && v <= UINT16_MAX ? (uint16_t)v : 0;
}

static bool policy_bond_in(const char (*members)[POLICY_IFNAME_MAX], size_t n,
                           const char *name)
{
	for (size_t k = 0; k < n; k++)
		if (!strcmp(members[k], name))
			return true;
	return false;
}

/* The bond's settings under the member's name. */
static void policy_bond_copy(struct policy_iface *dst,
                             const struct policy_iface *bond,
                             const char *member)
{
	*dst = *bond;
	snprintf(dst->name, sizeof(dst->name), "%s", member);
	dst->alias[0] = '\0';
	dst->description[0] = '\0';
	snprintf(dst->bond, sizeof(dst->bond), "%s", bond->name);
	dst->channel_group = policy_bond_number(bond->alias);
	dst->channel_mode = POLICY_CHANNEL_MODE_NONE;
}

int policy_bond_sync(struct policy *p, const char *bond,
                     const char (*members)[POLICY_IFNAME_MAX], size_t n)
{
	const struct policy_iface *b = NULL;
	int changed = 0;

	for (size_t i = 0; i < p->nifaces; i++)
		if (!p->ifaces[i].bond[0] && !strcmp(p->ifaces[i].name, bond))
			b = &p->ifaces[i];
	if (!b)
		n = 0; /* not a port of the configuration: no member either */
	/* members that left, or of a bond no longer configured */
	for (size_t i = 0; i < p->nifaces;) {
		struct policy_iface *f = &p->ifaces[i];

		if (strcmp(f->bond, bond) || policy_bond_in(members, n, f->name)) {
			i++;
			continue;
		}
		memmove(f, f + 1, (p->nifaces - i - 1) * sizeof(*f));
		p->nifaces--;
		changed = 1;
	}
	for (size_t k = 0; k < n; k++) {
		struct policy_iface *f = NULL, want;
		size_t bi;

		for (size_t i = 0; i < p->nifaces; i++)
			if (!strcmp(p->ifaces[i].name, members[k]))
				f = &p->ifaces[i];
		if (f && strcmp(f->bond, bond))
			continue; /* the configuration's own, or another bond's */
		for (bi = 0; strcmp(p->ifaces[bi].name, bond) ||
		             p->ifaces[bi].bond[0];
		     bi++)
			;
		policy_bond_copy(&want, &p->ifaces[bi], members[k]);
		if (f) {
			if (memcmp(f, &want, sizeof(want))) {
				*f = want;
				changed = 1;
			}
			continue;
		}
		f = realloc(p->ifaces, (p->nifaces + 1) * sizeof(*f));
		if (!f)
			return -ENOMEM;
		p->ifaces = f;
		p->ifaces[p->nifaces++] = want;
		changed = 1;
	}
	return changed;
}

int policy_bond_prune(struct policy *p)
{
	int changed = 0;

	for (size_t i = 0; i < p->nifaces;) {
		struct policy_iface *f = &p->ifaces[i];
		bool keep = !f->bond[0];

		for (size_t j = 0; !keep && j < p->nifaces; j++)
			keep = !p->ifaces[j].bond[0] &&
			       !strcmp(p->ifaces[j].name, f->bond);
		if (keep) {
			i++;
			continue;
		}
		memmove(f, f + 1, (p->nifaces - i - 1) * sizeof(*f));
		p->nifaces--;
		changed = 1;
	}
	return changed;
}
