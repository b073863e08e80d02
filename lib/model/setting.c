/* setting: the table of scalar policy settings. See setting.h. */
#include "model/setting.h"

#include <stdio.h>
#include <string.h>

/* The enums' name tables, through one signature. */
static const char *setting_action_name(int v)
{
	return policy_pfcwd_action_name((enum policy_pfcwd_action)v);
}

static const struct setting_names setting_action_names = {
    setting_action_name, policy_pfcwd_action_parse,
    policy_pfcwd_action_expected};

#define AT_POLICY(f) offsetof(struct policy, f)
#define AT_IFACE(f)  offsetof(struct policy_iface, f)
#define NO_LINE      SETTING_NO_LINE
#define PFC          "priority-flow-control "
#define WD           PFC "watch-dog "

/* The printers write the rows of a place in this order; a nested
 * place's group comes where its first row is. */
const struct setting setting_table[] = {
    /* hardware qos pfc mc-drop: multicast in no-drop classes may drop */
    {"hardware qos pfc mc-drop", "hardware-qos-pfc-mc-drop",
     "hardware-qos-pfc-mc-drop", SETTING_BOOL, SETTING_AT_TOP, SETTING_GLOBAL,
     AT_POLICY(pfc_mc_drop), NO_LINE, 0, 1, 0, 0, NULL},
    /* the global PFC watchdog */
    {PFC "watch-dog-interval", "watch-dog-interval", "watch-dog-interval",
     SETTING_BOOL, SETTING_AT_PFC, SETTING_GLOBAL, AT_POLICY(pfcwd.enabled),
     NO_LINE, 0, 1, 0, SETTING_F_ALWAYS | SETTING_F_ONOFF, NULL},
    {WD "interval", "interval", "interval", SETTING_U32, SETTING_AT_PFC_WD,
     SETTING_GLOBAL, AT_POLICY(pfcwd.poll_ms), AT_POLICY(pfcwd.poll_line),
     POLICY_PFCWD_POLL_MIN, POLICY_PFCWD_POLL_MAX, POLICY_PFCWD_POLL_MS,
     SETTING_F_ALWAYS, NULL},
    {WD "shutdown-multiplier", "shutdown-multiplier", "shutdown-multiplier",
     SETTING_U32, SETTING_AT_PFC_WD, SETTING_GLOBAL,
     AT_POLICY(pfcwd.shutdown_mult), AT_POLICY(pfcwd.shutdown_line), 1,
     POLICY_PFCWD_MULT_MAX, POLICY_PFCWD_SHUTDOWN_MULT,
     SETTING_F_ALWAYS | SETTING_F_ZERO_OWN, NULL},
    {WD "internal-interface-multiplier", "internal-interface-multiplier",
     "internal-interface-multiplier", SETTING_U32, SETTING_AT_PFC_WD,
     SETTING_GLOBAL, AT_POLICY(pfcwd.internal_if_mult),
     AT_POLICY(pfcwd.internal_if_line), 1, POLICY_PFCWD_MULT_MAX,
     POLICY_PFCWD_INTERNAL_IF_MULT, SETTING_F_ALWAYS, NULL},
    {PFC "auto-restore multiplier", "auto-restore-multiplier",
     "auto-restore-multiplier", SETTING_U32, SETTING_AT_PFC, SETTING_GLOBAL,
     AT_POLICY(pfcwd.auto_restore_mult), AT_POLICY(pfcwd.auto_restore_line), 0,
     POLICY_PFCWD_MULT_MAX, POLICY_PFCWD_AUTO_RESTORE_MULT, SETTING_F_ALWAYS,
     NULL},
    {PFC "fixed-restore multiplier", "fixed-restore-multiplier",
     "fixed-restore-multiplier", SETTING_U32, SETTING_AT_PFC, SETTING_GLOBAL,
     AT_POLICY(pfcwd.fixed_restore_mult), AT_POLICY(pfcwd.fixed_restore_line),
     0, POLICY_PFCWD_MULT_MAX, POLICY_PFCWD_FIXED_RESTORE_MULT,
     SETTING_F_ALWAYS, NULL},
    {WD "action", "action", "action", SETTING_ENUM, SETTING_AT_PFC_WD,
     SETTING_GLOBAL, AT_POLICY(pfcwd.action), AT_POLICY(pfcwd.action_line), 0,
     POLICY_PFCWD_NACTIONS - 1, POLICY_PFCWD_DROP, 0, &setting_action_names},
    /* LLDP: on unless `no feature lldp`, and its timers */
    {"feature lldp", "feature", "feature", SETTING_BOOL, SETTING_AT_LLDP,
     SETTING_GLOBAL, AT_POLICY(lldp.no_feature), NO_LINE, 0, 1, 1,
     SETTING_F_INVERT, NULL},
    {"lldp timer", "timer", "timer", SETTING_U32, SETTING_AT_LLDP,
     SETTING_GLOBAL, AT_POLICY(lldp.timer), AT_POLICY(lldp.timer_line),
     POLICY_LLDP_TIMER_MIN, POLICY_LLDP_TIMER_MAX, POLICY_LLDP_TIMER, 0, NULL},
    {"lldp holdtime", "holdtime", "holdtime", SETTING_U32, SETTING_AT_LLDP,
     SETTING_GLOBAL, AT_POLICY(lldp.holdtime), AT_POLICY(lldp.holdtime_line),
     POLICY_LLDP_HOLDTIME_MIN, POLICY_LLDP_HOLDTIME_MAX, POLICY_LLDP_HOLDTIME,
     0, NULL},
    {"lldp reinit", "reinit", "reinit", SETTING_U32, SETTING_AT_LLDP,
     SETTING_GLOBAL, AT_POLICY(lldp.reinit), AT_POLICY(lldp.reinit_line),
     POLICY_LLDP_REINIT_MIN, POLICY_LLDP_REINIT_MAX, POLICY_LLDP_REINIT, 0,
     NULL},
    /* an interface's own; mtu first, where NX-OS prints it */
    {"mtu", "mtu", "mtu", SETTING_U32, SETTING_AT_IFACE_HEAD, SETTING_INTERFACE,
     AT_IFACE(mtu), AT_IFACE(mtu_line), POLICY_MTU_MIN, POLICY_MTU_MAX, 0,
     SETTING_F_UNSET, NULL},
    {"qdisc-takeover", "qdisc-takeover", "qdisc-takeover", SETTING_BOOL,
     SETTING_AT_IFACE, SETTING_INTERFACE, AT_IFACE(qdisc_takeover), NO_LINE, 0,
     1, 0, 0, NULL},
    {"fabric-internal", "fabric-internal", "fabric-internal", SETTING_BOOL,
     SETTING_AT_IFACE, SETTING_INTERFACE, AT_IFACE(fabric_internal),
     AT_IFACE(fabric_internal_line), 0, 1, 0, 0, NULL},
    /* The port's own detection time, in polls: a long or lossy link
     * (a copper breakout, a port to a slow host) may pause longer in
     * normal work than the rest of the switch. */
    {WD "shutdown-multiplier", "shutdown-multiplier", "shutdown-multiplier",
     SETTING_U32, SETTING_AT_IFACE_PFC, SETTING_INTERFACE,
     AT_IFACE(wd_shutdown_mult), AT_IFACE(wd_shutdown_line), 1,
     POLICY_PFCWD_MULT_MAX, 0, SETTING_F_UNSET, NULL},
    /* 802.3x link pause, which excludes PFC on the port */
    {"flowcontrol receive", "receive", "receive", SETTING_BOOL,
     SETTING_AT_IFACE_FC, SETTING_INTERFACE, AT_IFACE(fc_rx),
     AT_IFACE(fc_rx_line), 0, 1, 0, SETTING_F_ONOFF, NULL},
    {"flowcontrol send", "send", "send", SETTING_BOOL, SETTING_AT_IFACE_FC,
     SETTING_INTERFACE, AT_IFACE(fc_tx), AT_IFACE(fc_tx_line), 0, 1, 0,
     SETTING_F_ONOFF, NULL},
    /* LLDP and DCBX on the port (its dcbx agent is written by hand: an
     * unset one follows the global agent) */
    {"lldp transmit", "transmit", "transmit", SETTING_BOOL,
     SETTING_AT_IFACE_LLDP, SETTING_INTERFACE, AT_IFACE(lldp.no_transmit),
     NO_LINE, 0, 1, 1, SETTING_F_INVERT, NULL},
    {"lldp receive", "receive", "receive", SETTING_BOOL, SETTING_AT_IFACE_LLDP,
     SETTING_INTERFACE, AT_IFACE(lldp.no_receive), NO_LINE, 0, 1, 1,
     SETTING_F_INVERT, NULL},
    {"lldp dcbx willing", "dcbx-willing", "dcbx-willing", SETTING_BOOL,
     SETTING_AT_IFACE_LLDP, SETTING_INTERFACE, AT_IFACE(lldp.willing),
     AT_IFACE(lldp.willing_line), 0, 1, 0, 0, NULL},
};

const size_t setting_count = sizeof(setting_table) / sizeof(setting_table[0]);

static const struct {
	const char *key;
	enum setting_place parent;
	bool nested;
} setting_places[SETTING_NPLACES] = {
    [SETTING_AT_TOP] = {NULL, SETTING_NPLACES, false},
    [SETTING_AT_PFC] = {"priority-flow-control", SETTING_AT_TOP, false},
    [SETTING_AT_PFC_WD] = {"watch-dog", SETTING_AT_PFC, true},
    [SETTING_AT_LLDP] = {"lldp", SETTING_AT_TOP, false},
    [SETTING_AT_IFACE] = {NULL, SETTING_NPLACES, false},
    [SETTING_AT_IFACE_PFC] = {"priority-flow-control", SETTING_AT_IFACE, false},
    [SETTING_AT_IFACE_HEAD] = {NULL, SETTING_NPLACES, false},
    [SETTING_AT_IFACE_FC] = {"flowcontrol", SETTING_AT_IFACE, false},
    [SETTING_AT_IFACE_LLDP] = {"lldp", SETTING_AT_IFACE, false},
};

const char *setting_place_key(enum setting_place place)
{
	return (unsigned)place < SETTING_NPLACES ? setting_places[place].key
	                                         : NULL;
}

enum setting_place setting_place_parent(enum setting_place place)
{
	return (unsigned)place < SETTING_NPLACES ? setting_places[place].parent
	                                         : SETTING_NPLACES;
}

bool setting_place_nested(enum setting_place place)
{
	return (unsigned)place < SETTING_NPLACES &&
	       setting_places[place].nested;
}

bool setting_place_within(enum setting_place place, enum setting_place ancestor)
{
	while (place != ancestor && setting_place_nested(place))
		place = setting_places[place].parent;
	return place == ancestor;
}

enum setting_scope setting_place_scope(enum setting_place place)
{
	switch (place) {
	case SETTING_AT_IFACE:
	case SETTING_AT_IFACE_PFC:
	case SETTING_AT_IFACE_HEAD:
	case SETTING_AT_IFACE_FC:
	case SETTING_AT_IFACE_LLDP:
		return SETTING_INTERFACE;
	case SETTING_AT_TOP:
	case SETTING_AT_PFC:
	case SETTING_AT_PFC_WD:
	case SETTING_AT_LLDP:
	case SETTING_NPLACES:
		break;
	}
	return SETTING_GLOBAL;
}

void *setting_base(const struct setting *s, struct policy *p,
                   struct policy_iface *i)
{
	return s->scope == SETTING_INTERFACE ? (void *)i : (void *)p;
}

const void *setting_cbase(const struct setting *s, const struct policy *p,
                          const struct policy_iface *i)
{
	return s->scope == SETTING_INTERFACE ? (const void *)i
	                                     : (const void *)p;
}

uint32_t setting_get(const struct setting *s, const void *base)
{
	const char *at = (const char *)base + s->off;

	switch (s->type) {
	case SETTING_BOOL:
		return *(const bool *)at != !!(s->flags & SETTING_F_INVERT);
	case SETTING_ENUM:
		return (uint32_t) * (const int *)at;
	case SETTING_U32:
		break;
	}
	return *(const uint32_t *)at;
}

void setting_set(const struct setting *s, void *base, uint32_t v)
{
	char *at = (char *)base + s->off;

	switch (s->type) {
	case SETTING_BOOL:
		*(bool *)at = (v != 0) != !!(s->flags & SETTING_F_INVERT);
		return;
	case SETTING_ENUM:
		*(int *)at = (int)v;
		return;
	case SETTING_U32:
		break;
	}
	*(uint32_t *)at = v;
}

unsigned *setting_line(const struct setting *s, void *base)
{
	if (s->line_off == SETTING_NO_LINE)
		return NULL;
	return (unsigned *)((char *)base + s->line_off);
}

bool setting_is_set(const struct setting *s, const void *base)
{
	return setting_get(s, base) != s->def;
}

bool setting_written(const struct setting *s, const void *base, bool always)
{
	return setting_is_set(s, base) ||
	       (always && (s->flags & SETTING_F_ALWAYS));
}

bool setting_place_written(enum setting_place place, const void *base,
                           bool always)
{
	for (size_t k = 0; k < setting_count; k++) {
		const struct setting *s = &setting_table[k];

		if (setting_place_within(s->place, place) &&
		    setting_written(s, base, always))
			return true;
	}
	return false;
}

static void setting_visit_at(enum setting_place place, const void *base,
                             const struct setting_visitor *v, void *ctx,
                             unsigned depth)
{
	bool opened[SETTING_NPLACES] = {false};

	for (size_t k = 0; k < setting_count; k++) {
		const struct setting *s = &setting_table[k];
		enum setting_place sub = s->place;

		if (sub == place) {
			/* Only a row of PLACE is read: BASE is the policy or
			 * an interface, and another place's row may be the
			 * other's field. */
			if (setting_written(s, base, true))
				v->row(ctx, depth, s, setting_get(s, base));
			continue;
		}
		while (setting_place_nested(sub) &&
		       setting_place_parent(sub) != place)
			sub = setting_place_parent(sub);
		if (!setting_place_nested(sub) ||
		    setting_place_parent(sub) != place || opened[sub])
			continue;
		opened[sub] = true;
		if (!setting_place_written(sub, base, true))
			continue;
		v->open(ctx, depth, sub);
		setting_visit_at(sub, base, v, ctx, depth + 1);
		v->close(ctx, depth, sub);
	}
}

void setting_visit(enum setting_place place, const void *base,
                   const struct setting_visitor *v, void *ctx)
{
	setting_visit_at(place, base, v, ctx, 0);
}

const char *setting_value_text(const struct setting *s, uint32_t v, bool nxos,
                               char *buf, size_t len)
{
	switch (s->type) {
	case SETTING_BOOL:
		if (nxos && (s->flags & SETTING_F_ONOFF))
			return v ? "on" : "off";
		return v ? "true" : "false";
	case SETTING_ENUM:
		return s->names->name((int)v);
	case SETTING_U32:
		break;
	}
	snprintf(buf, len, "%u", v);
	return buf;
}

const struct setting *setting_find_nxos(const char *words,
                                        enum setting_scope scope)
{
	for (size_t k = 0; words && k < setting_count; k++)
		if (setting_table[k].scope == scope &&
		    !strcmp(setting_table[k].nxos, words))
			return &setting_table[k];
	return NULL;
}

const struct setting *setting_find_conf(enum setting_place place,
                                        const char *key)
{
	for (size_t k = 0; key && k < setting_count; k++)
		if (setting_table[k].place == place &&
		    !strcmp(setting_table[k].conf, key))
			return &setting_table[k];
	return NULL;
}

/* Where a row of PLACE sits, as the loader names it in messages:
 * "watch-dog of priority-flow-control", "priority-flow-control of
 * interface swp1", "the top level". */
static void setting_where(enum setting_place place, const char *ifname,
                          char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (enum setting_place q = place; q < SETTING_NPLACES && n < len;
	     q = setting_places[q].parent) {
		if (q == SETTING_AT_IFACE || q == SETTING_AT_IFACE_HEAD)
			n +=
			    (size_t)snprintf(buf + n, len - n, "%sinterface %s",
			                     n ? " of " : "", ifname);
		else if (setting_places[q].key)
			n += (size_t)snprintf(buf + n, len - n, "%s%s",
			                      n ? " of " : "",
			                      setting_places[q].key);
	}
	if (!buf[0])
		snprintf(buf, len, "the top level");
}

/* The checks of the rows of SCOPE in BASE (an interface's when IFNAME
 * is not NULL); LINE is the struct's, for rows without a line. */
static void setting_validate_at(const void *base, enum setting_scope scope,
                                const char *ifname, unsigned line,
                                struct diag *d)
{
	char where[POLICY_IFNAME_MAX + 64];

	for (size_t k = 0; k < setting_count; k++) {
		const struct setting *s = &setting_table[k];
		unsigned at = line;
		uint32_t v;

		if (s->scope != scope || s->type != SETTING_U32)
			continue;
		v = setting_get(s, base);
		if ((v == 0 &&
		     (s->flags & (SETTING_F_UNSET | SETTING_F_ZERO_OWN))) ||
		    (v >= s->min && v <= s->max))
			continue;
		if (s->line_off != SETTING_NO_LINE &&
		    *(const unsigned *)((const char *)base + s->line_off))
			at = *(const unsigned *)((const char *)base +
			                         s->line_off);
		setting_where(s->place, ifname, where, sizeof(where));
		diag_err(d, at, "%s %u in %s is out of range, expected %u-%u",
		         s->conf, v, where, s->min, s->max);
	}
}

int setting_validate(const struct policy *p, struct diag *d)
{
	size_t errors = d->nerrors;

	setting_validate_at(p, SETTING_GLOBAL, NULL, 0, d);
	for (size_t k = 0; k < p->nifaces; k++)
		setting_validate_at(&p->ifaces[k], SETTING_INTERFACE,
		                    p->ifaces[k].name, p->ifaces[k].line, d);
	return (int)(d->nerrors - errors);
}
