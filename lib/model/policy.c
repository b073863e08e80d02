/* policy: construction, copy, lookup, a bond's members. See policy.h. */
#include "model/policy.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void policy_init(struct policy *p)
{
	memset(p, 0, sizeof(*p));
	p->pfcwd.poll_ms = POLICY_PFCWD_POLL_MS;
	p->pfcwd.shutdown_mult = POLICY_PFCWD_SHUTDOWN_MULT;
	p->pfcwd.auto_restore_mult = POLICY_PFCWD_AUTO_RESTORE_MULT;
	p->pfcwd.fixed_restore_mult = POLICY_PFCWD_FIXED_RESTORE_MULT;
	p->pfcwd.internal_if_mult = POLICY_PFCWD_INTERNAL_IF_MULT;
	policy_lldp_init(&p->lldp);
	p->metrics.interval = POLICY_METRICS_INTERVAL;
}

void policy_free(struct policy *p)
{
	for (size_t i = 0; i < p->nmap_qos; i++)
		free(p->map_qos[i].rules);
	for (size_t i = 0; i < p->nmap_nq; i++)
		free(p->map_nq[i].rules);
	free(p->class_qos);
	free(p->map_qos);
	free(p->map_queuing);
	free(p->class_nq);
	free(p->map_nq);
	free(p->ifaces);
	free(p->profiles);
	free(p->qclasses);
	policy_init(p);
}

/* Grow *V (N elements of SIZE) by one zeroed element; NULL on ENOMEM.
 * Arrays grow one at a time: configs are small and this keeps no spare
 * capacity field per array. */
static void *policy_grow(void **v, size_t *n, size_t size)
{
	char *nv = realloc(*v, (*n + 1) * size);

	if (!nv)
		return NULL;
	memset(nv + *n * size, 0, size);
	*v = nv;
	return nv + (*n)++ * size;
}

static void policy_set_name(char *dst, size_t len, const char *name)
{
	snprintf(dst, len, "%s", name ? name : "");
}

#define POLICY_ADD(p, arr, n, type, name)                                      \
	({                                                                     \
		type *o_ =                                                     \
		    policy_grow((void **)&(p)->arr, &(p)->n, sizeof(type));    \
		if (o_)                                                        \
			policy_set_name(o_->name, sizeof(o_->name), (name));   \
		o_;                                                            \
	})

struct policy_class_qos *policy_add_class_qos(struct policy *p,
                                              const char *name)
{
	return POLICY_ADD(p, class_qos, nclass_qos, struct policy_class_qos,
	                  name);
}

struct policy_map_qos *policy_add_map_qos(struct policy *p, const char *name)
{
	return POLICY_ADD(p, map_qos, nmap_qos, struct policy_map_qos, name);
}

struct policy_qos_rule *policy_map_qos_add_rule(struct policy_map_qos *m,
                                                const char *class_name)
{
	struct policy_qos_rule *r =
	    policy_grow((void **)&m->rules, &m->nrules, sizeof(*r));

	if (r)
		policy_set_name(r->class_name, sizeof(r->class_name),
		                class_name);
	return r;
}

struct policy_map_queuing *policy_add_map_queuing(struct policy *p,
                                                  const char *name)
{
	return POLICY_ADD(p, map_queuing, nmap_queuing,
	                  struct policy_map_queuing, name);
}

struct policy_class_nq *policy_add_class_nq(struct policy *p, const char *name)
{
	return POLICY_ADD(p, class_nq, nclass_nq, struct policy_class_nq, name);
}

struct policy_map_nq *policy_add_map_nq(struct policy *p, const char *name)
{
	return POLICY_ADD(p, map_nq, nmap_nq, struct policy_map_nq, name);
}

struct policy_nq_rule *policy_map_nq_add_rule(struct policy_map_nq *m,
                                              const char *class_name)
{
	struct policy_nq_rule *r =
	    policy_grow((void **)&m->rules, &m->nrules, sizeof(*r));

	if (r)
		policy_set_name(r->class_name, sizeof(r->class_name),
		                class_name);
	return r;
}

struct policy_iface *policy_add_iface(struct policy *p, const char *name)
{
	struct policy_iface *i =
	    POLICY_ADD(p, ifaces, nifaces, struct policy_iface, name);

	if (i) {
		i->pfc_mode = POLICY_PFC_AUTO;
		i->watchdog = POLICY_INHERIT;
	}
	return i;
}

int policy_memdup(void **dst, const void *src, size_t n, size_t size)
{
	*dst = NULL;
	if (!n)
		return 0;
	*dst = malloc(n * size);
	if (!*dst)
		return -ENOMEM;
	memcpy(*dst, src, n * size);
	return 0;
}

/* Copy N rule arrays from SRC maps into DST maps (already memcpy'd, so
 * their rule pointers still point into SRC and are replaced here). */
#define POLICY_COPY_RULES(dst, src, n)                                         \
	({                                                                     \
		int r_ = 0;                                                    \
		for (size_t i_ = 0; i_ < (n); i_++)                            \
			(dst)[i_].rules = NULL;                                \
		for (size_t i_ = 0; !r_ && i_ < (n); i_++)                     \
			r_ = policy_memdup((void **)&(dst)[i_].rules,          \
			                   (src)[i_].rules, (src)[i_].nrules,  \
			                   sizeof(*(src)[i_].rules));          \
		r_;                                                            \
	})

int policy_copy(struct policy *dst, const struct policy *src)
{
	int rc = 0;

	*dst = *src;
	dst->class_qos = NULL;
	dst->map_qos = NULL;
	dst->map_queuing = NULL;
	dst->class_nq = NULL;
	dst->map_nq = NULL;
	dst->ifaces = NULL;
	dst->profiles = NULL;
	dst->qclasses = NULL;
	if (policy_memdup((void **)&dst->profiles, src->profiles,
	                  src->nprofiles, sizeof(*src->profiles)) ||
	    policy_memdup((void **)&dst->qclasses, src->qclasses,
	                  src->nqclasses, sizeof(*src->qclasses)) ||
	    policy_memdup((void **)&dst->class_qos, src->class_qos,
	                  src->nclass_qos, sizeof(*src->class_qos)) ||
	    policy_memdup((void **)&dst->map_queuing, src->map_queuing,
	                  src->nmap_queuing, sizeof(*src->map_queuing)) ||
	    policy_memdup((void **)&dst->class_nq, src->class_nq,
	                  src->nclass_nq, sizeof(*src->class_nq)) ||
	    policy_memdup((void **)&dst->ifaces, src->ifaces, src->nifaces,
	                  sizeof(*src->ifaces)))
		rc = -ENOMEM;
	if (rc || policy_memdup((void **)&dst->map_qos, src->map_qos,
	                        src->nmap_qos, sizeof(*src->map_qos))) {
		rc = -ENOMEM;
		dst->nmap_qos = 0; /* nothing per map to free */
	} else {
		rc = POLICY_COPY_RULES(dst->map_qos, src->map_qos,
		                       src->nmap_qos);
	}
	if (rc || policy_memdup((void **)&dst->map_nq, src->map_nq,
	                        src->nmap_nq, sizeof(*src->map_nq))) {
		rc = -ENOMEM;
		dst->nmap_nq = 0;
	} else {
		rc = POLICY_COPY_RULES(dst->map_nq, src->map_nq, src->nmap_nq);
	}
	if (rc) {
		policy_free(dst);
		return -ENOMEM;
	}
	return 0;
}

#define POLICY_FIND(arr, n, name)                                              \
	do {                                                                   \
		for (size_t i_ = 0; name && i_ < (n); i_++)                    \
			if (!strcmp((arr)[i_].name, name))                     \
				return &(arr)[i_];                             \
		return NULL;                                                   \
	} while (0)

const struct policy_class_qos *policy_find_class_qos(const struct policy *p,
                                                     const char *name)
{
	POLICY_FIND(p->class_qos, p->nclass_qos, name);
}

const struct policy_map_qos *policy_find_map_qos(const struct policy *p,
                                                 const char *name)
{
	POLICY_FIND(p->map_qos, p->nmap_qos, name);
}

const struct policy_map_queuing *policy_own_map_queuing(const struct policy *p,
                                                        const char *name)
{
	POLICY_FIND(p->map_queuing, p->nmap_queuing, name);
}

/* A policy-map of the configuration, or else NX-OS's built-in default
 * (a configuration may define its own of that name: it wins). */
const struct policy_map_queuing *policy_find_map_queuing(const struct policy *p,
                                                         const char *name)
{
	const struct policy_map_queuing *m = policy_own_map_queuing(p, name);

	return m ? m : policy_queuing_builtin(name);
}

const struct policy_class_nq *policy_find_class_nq(const struct policy *p,
                                                   const char *name)
{
	POLICY_FIND(p->class_nq, p->nclass_nq, name);
}

const struct policy_map_nq *policy_find_map_nq(const struct policy *p,
                                               const char *name)
{
	POLICY_FIND(p->map_nq, p->nmap_nq, name);
}

const struct policy_iface *policy_find_iface(const struct policy *p,
                                             const char *name_or_alias)
{
	if (!name_or_alias)
		return NULL;
	/* Linux names first: they are exact and case-sensitive. */
	for (size_t i = 0; i < p->nifaces; i++)
		if (!strcmp(p->ifaces[i].name, name_or_alias))
			return &p->ifaces[i];
	for (size_t i = 0; i < p->nifaces; i++)
		if (p->ifaces[i].alias[0] &&
		    !strcasecmp(p->ifaces[i].alias, name_or_alias))
			return &p->ifaces[i];
	return NULL;
}

/* --- interface names --- */

/* The NX-OS kinds without QoS of their own, as `show running-config`
 * spells them (NX-OS takes any case). */
static const char *const policy_if_not_ports[] = {
    "vlan", "port-channel", "mgmt", "loopback", "nve", "tunnel",
};

static bool policy_if_digit(char c)
{
	return c >= '0' && c <= '9';
}

bool policy_ifname_not_port(const char *name)
{
	for (size_t i = 0;
	     i < sizeof(policy_if_not_ports) / sizeof(policy_if_not_ports[0]);
	     i++) {
		size_t n = strlen(policy_if_not_ports[i]);

		/* the kind and its number: Vlan7, port-channel1.100 */
		if (!strncasecmp(name, policy_if_not_ports[i], n) &&
		    policy_if_digit(name[n]))
			return true;
	}
	return false;
}

bool policy_ifname_linux(const char *name)
{
	return name[0] && strlen(name) < POLICY_IFNAME_MAX &&
	       strcmp(name, ".") && strcmp(name, "..") &&
	       !strpbrk(name, "/: \t");
}

/* All of S..END a decimal number without a leading zero (swp01 is a name
 * of its own, not member 1). */
static bool policy_if_number(const char *s, const char *end, unsigned long *v)
{
	char *stop;

	if (s == end || end - s > 9 || !policy_if_digit(*s) ||
	    (*s == '0' && end - s > 1))
		return false;
	*v = strtoul(s, &stop, 10);
	return stop == end;
}

int policy_ifname_range(const char *name, size_t *plen, unsigned long *first,
                        unsigned long *last)
{
	const char *dash = strrchr(name, '-');
	const char *p;

	if (!dash || !policy_if_number(dash + 1, name + strlen(name), last))
		return -1;
	for (p = dash; p > name && policy_if_digit(p[-1]); p--)
		;
	if (p == name || p[-1] == '-' || !policy_if_number(p, dash, first))
		return -1;
	if (*first >= *last)
		return -1;
	*plen = (size_t)(p - name);
	return *last - *first >= POLICY_IF_RANGE_MAX ? -2 : 0;
}

int policy_ifname_member(const char *name, size_t plen, unsigned long num,
                         char *buf, size_t len)
{
	int n = snprintf(buf, len, "%.*s%lu", (int)plen, name, num);

	return n < 0 || (size_t)n >= len ? -1 : 0;
}

const struct policy_map_qos *policy_iface_qos(const struct policy *p,
                                              const struct policy_iface *i)
{
	if (i && i->qos_input[0])
		return policy_find_map_qos(p, i->qos_input);
	if (p->system.qos_input[0])
		return policy_find_map_qos(p, p->system.qos_input);
	return NULL;
}

const struct policy_map_queuing *
policy_iface_queuing(const struct policy *p, const struct policy_iface *i)
{
	if (i && i->queuing_output[0])
		return policy_find_map_queuing(p, i->queuing_output);
	if (p->system.queuing_output[0])
		return policy_find_map_queuing(p, p->system.queuing_output);
	/* NX-OS puts its default queuing policy on every port: where a qos
	 * input policy classifies, its qos-groups need queues. */
	if (policy_iface_qos(p, i))
		return policy_queuing_builtin(POLICY_QUEUING_DEFAULT);
	return NULL;
}

bool policy_iface_watchdog(const struct policy *p, const struct policy_iface *i)
{
	if (i && i->watchdog == POLICY_ON)
		return true;
	if (i && i->watchdog == POLICY_OFF)
		return false;
	return p->pfcwd.enabled;
}

static const struct {
	const char *name;
	const char *help; /* what rocesh's `?` says of it */
} policy_pfc_mode_names[POLICY_PFC_NMODES] = {
    [POLICY_PFC_AUTO] = {"auto",
                         "Advertise by DCBX and enable PFC once the peer "
                         "agrees"},
    [POLICY_PFC_ON] = {"on", "Enable PFC regardless of the peer"},
    [POLICY_PFC_OFF] = {"off", "Disable PFC"},
};

const char *policy_pfc_mode_name(enum policy_pfc_mode m)
{
	return (unsigned)m < POLICY_PFC_NMODES ? policy_pfc_mode_names[m].name
	                                       : "?";
}

int policy_pfc_mode_parse(const char *s)
{
	for (unsigned i = 0; s && i < POLICY_PFC_NMODES; i++)
		if (!strcmp(s, policy_pfc_mode_names[i].name))
			return (int)i;
	return -1;
}

const char *policy_pfc_mode_help(enum policy_pfc_mode m)
{
	return (unsigned)m < POLICY_PFC_NMODES ? policy_pfc_mode_names[m].help
	                                       : "?";
}

int policy_pfc_mode_expected(char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < POLICY_PFC_NMODES; i++)
		off += (size_t)snprintf(buf + (off < len ? off : len),
		                        off < len ? len - off : 0, "%s%s",
		                        !i                           ? ""
		                        : i + 1 == POLICY_PFC_NMODES ? " or "
		                                                     : ", ",
		                        policy_pfc_mode_names[i].name);
	return (int)off;
}

static const char *const policy_match_names[] = {
    [POLICY_MATCH_ALL] = "all",
    [POLICY_MATCH_ANY] = "any",
};

const char *policy_match_name(enum policy_match m)
{
	if ((unsigned)m <
	    sizeof(policy_match_names) / sizeof(policy_match_names[0]))
		return policy_match_names[m];
	return "?";
}

static const char *const policy_channel_mode_names[POLICY_CHANNEL_NMODES] = {
    [POLICY_CHANNEL_MODE_NONE] = "",
    [POLICY_CHANNEL_MODE_ACTIVE] = "active",
    [POLICY_CHANNEL_MODE_PASSIVE] = "passive",
    [POLICY_CHANNEL_MODE_ON] = "on",
};

const char *policy_channel_mode_name(enum policy_channel_mode m)
{
	return (unsigned)m < POLICY_CHANNEL_NMODES
	           ? policy_channel_mode_names[m]
	           : "?";
}

int policy_channel_mode_parse(const char *s)
{
	for (unsigned i = 1; s && i < POLICY_CHANNEL_NMODES; i++)
		if (!strcmp(s, policy_channel_mode_names[i]))
			return (int)i;
	return -1;
}

int policy_match_parse(const char *s)
{
	for (unsigned i = 0; s && i < sizeof(policy_match_names) /
	                                  sizeof(policy_match_names[0]);
	     i++)
		if (!strcmp(s, policy_match_names[i]))
			return (int)i;
	return -1;
}

/* --- LLDP and DCBX --- */

void policy_lldp_init(struct policy_lldp *l)
{
	memset(l, 0, sizeof(*l));
	l->timer = POLICY_LLDP_TIMER;
	l->holdtime = POLICY_LLDP_HOLDTIME;
	l->reinit = POLICY_LLDP_REINIT;
	l->agent = POLICY_DCBX_AGENT_ROCED;
}

static const struct {
	const char *name, *help;
} policy_dcbx_agent_names[POLICY_DCBX_NAGENTS] = {
    [POLICY_DCBX_AGENT_ROCED] = {"roced", "roced's own LLDP/DCBX agent"},
    [POLICY_DCBX_AGENT_LLDPAD] = {"lldpad", "lldpad, driven through its client "
                                            "interface"},
};

const char *policy_dcbx_agent_name(enum policy_dcbx_agent a)
{
	return (unsigned)a < POLICY_DCBX_NAGENTS
	           ? policy_dcbx_agent_names[a].name
	           : "?";
}

int policy_dcbx_agent_parse(const char *s)
{
	for (unsigned i = 0; s && i < POLICY_DCBX_NAGENTS; i++)
		if (!strcmp(s, policy_dcbx_agent_names[i].name))
			return (int)i;
	return -1;
}

const char *policy_dcbx_agent_help(enum policy_dcbx_agent a)
{
	return (unsigned)a < POLICY_DCBX_NAGENTS
	           ? policy_dcbx_agent_names[a].help
	           : "?";
}

int policy_dcbx_agent_expected(char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < POLICY_DCBX_NAGENTS; i++)
		off += (size_t)snprintf(buf + (off < len ? off : len),
		                        off < len ? len - off : 0, "%s%s",
		                        !i                             ? ""
		                        : i + 1 == POLICY_DCBX_NAGENTS ? " or "
		                                                       : ", ",
		                        policy_dcbx_agent_names[i].name);
	return (int)off;
}

enum policy_dcbx_agent policy_iface_dcbx_agent(const struct policy *p,
                                               const struct policy_iface *i)
{
	return i && i->lldp.has_agent ? i->lldp.agent : p->lldp.agent;
}

/* ---- a Linux bond carrying a port-channel ----
 *
 * A Linux bond (or team) carries a port-channel's policy. NX-OS
 * configures a port-channel on its own interface and its members
 * inherit it; on Linux the bond device is where the operator
 * names it (roced.conf: { name = "bond10"; alias = "port-channel10"; }),
 * but PFC, ETS and the watchdog act where frames are queued and paused,
 * on the member links. So each member the kernel gives the bond
 * (IFLA_MASTER) becomes a port of the policy of its own, a copy of the
 * bond's settings marked as derived (policy_iface.bond): the one path
 * plans, applies, shows and watches it like any port, running-config and
 * roced.conf never write it, and it goes when the member leaves.
 * A member the configuration names itself keeps its own settings.
 */

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

		if (strcmp(f->bond, bond) ||
		    policy_bond_in(members, n, f->name)) {
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
			continue; /* the configuration's own, or another bond's
			           */
		for (bi = 0;
		     strcmp(p->ifaces[bi].name, bond) || p->ifaces[bi].bond[0];
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

bool policy_port_channel(const char *name, unsigned *n)
{
	const char *d = name + strlen("port-channel");
	char *end;
	unsigned long v;

	if (strncasecmp(name, "port-channel", strlen("port-channel")) ||
	    *d < '1' || *d > '9')
		return false;
	v = strtoul(d, &end, 10);
	if (*end || v > POLICY_CHANNEL_MAX)
		return false;
	if (n)
		*n = (unsigned)v;
	return true;
}
