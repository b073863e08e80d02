/* fabric: the mismatches across one link (see fabric.h). */
#include "plan/fabric.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const fabric_kinds[FABRIC_NKINDS] = {
    [FABRIC_PFC_ONE_END] = "pfc-one-end",
    [FABRIC_PFC_PRIORITIES] = "pfc-priorities",
    [FABRIC_APP_ROCE] = "app-roce",
    [FABRIC_MTU] = "mtu",
    [FABRIC_NO_DCBX] = "no-dcbx",
    [FABRIC_NO_LLDP] = "no-lldp",
};

/* The smallest header a Maximum Frame Size counts beside the MTU: the
 * Ethernet header without FCS or VLAN tag, so that no encoder's way of
 * counting makes a matching peer look short. */
#define FABRIC_L2_MIN 14u

const char *fabric_kind_name(enum fabric_kind k)
{
	return (unsigned)k < FABRIC_NKINDS ? fabric_kinds[k] : "?";
}

int fabric_kind_parse(const char *s)
{
	for (unsigned i = 0; s && i < FABRIC_NKINDS; i++)
		if (!strcmp(s, fabric_kinds[i]))
			return (int)i;
	return -1;
}

void fabric_list_free(struct fabric_list *l)
{
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

static int fabric_add(struct fabric_list *out, const struct fabric_link *l,
                      enum fabric_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fabric_add(struct fabric_list *out, const struct fabric_link *l,
                      enum fabric_kind kind, const char *fmt, ...)
{
	struct fabric_mismatch *v = realloc(out->v, (out->n + 1) * sizeof(*v));
	struct fabric_mismatch *m;
	va_list ap;

	if (!v)
		return -ENOMEM;
	out->v = v;
	m = &v[out->n++];
	memset(m, 0, sizeof(*m));
	snprintf(m->port, sizeof(m->port), "%s", l->ifname);
	m->kind = kind;
	va_start(ap, fmt);
	vsnprintf(m->detail, sizeof(m->detail), fmt, ap);
	va_end(ap);
	return 0;
}

bool fabric_peer_oper(const struct fabric_link *l, struct dcbx_oper *out)
{
	const struct dcbx_tlvs *p = &l->peer;

	if (!l->has_peer ||
	    !(p->has_pfc || p->has_ets_cfg || p->has_ets_rec || p->has_app))
		return false;
	/* The peer's view: its TLVs are its local ones, ours its peer's. */
	dcbx_negotiate(p, l->peer_mac, &l->local, l->local_mac, out);
	return true;
}

int fabric_roce_prio(const struct dcbx_tlvs *t)
{
	int udp = -1;

	for (size_t i = 0; t->has_app && i < t->app.n; i++) {
		const struct dcbx_app *a = &t->app.v[i];

		if (a->selector == DCBX_APP_DSCP &&
		    a->protocol == POLICY_ROCE_DSCP)
			return a->prio;
		if ((a->selector == DCBX_APP_UDP ||
		     a->selector == DCBX_APP_PORT) &&
		    a->protocol == POLICY_ROCE_UDP_PORT && udp < 0)
			udp = a->prio;
	}
	return udp;
}

/* "3" or "3,4" or "none" */
static void fabric_prios(uint8_t mask, char *buf, size_t len)
{
	if (!mask)
		snprintf(buf, len, "none");
	else
		policy_list_format(mask, buf, len);
}

/* PFC on one side only when one end's priorities hold the other's (or
 * one end has none): the extra ones are paused at one end only; else the
 * no-drop priorities simply differ. */
static int fabric_pfc(const struct fabric_link *l, struct fabric_list *out)
{
	struct dcbx_oper po;
	uint8_t here = l->local_pfc, there, extra;
	char a[32], b[32], o[32];
	int rc;

	if (!l->peer.has_pfc || !fabric_peer_oper(l, &po))
		return 0;
	there = po.pfc.enable;
	if (here == there)
		return 0;
	fabric_prios(here, a, sizeof(a));
	fabric_prios(there, b, sizeof(b));
	if ((here & there) == there || (here & there) == here) {
		extra = here ^ there;
		fabric_prios(extra, o, sizeof(o));
		rc =
		    fabric_add(out, l, FABRIC_PFC_ONE_END,
		               "PFC on priority %s at %s only (here %s, "
		               "peer %s)",
		               o, extra & here ? "this end" : "the peer", a, b);
	} else {
		rc = fabric_add(out, l, FABRIC_PFC_PRIORITIES,
		                "no-drop priorities differ: here %s, peer %s",
		                a, b);
	}
	return rc < 0 ? -ENOMEM : 1;
}

static int fabric_app(const struct fabric_link *l, struct fabric_list *out)
{
	int mine = fabric_roce_prio(&l->local);
	int n = 0;

	if (mine < 0 || !l->peer.has_app)
		return 0;
	for (size_t i = 0; i < l->peer.app.n; i++) {
		const struct dcbx_app *a = &l->peer.app.v[i];
		bool roce = (a->selector == DCBX_APP_DSCP &&
		             a->protocol == POLICY_ROCE_DSCP) ||
		            ((a->selector == DCBX_APP_UDP ||
		              a->selector == DCBX_APP_PORT) &&
		             a->protocol == POLICY_ROCE_UDP_PORT);

		if (!roce || a->prio == mine)
			continue;
		if (fabric_add(out, l, FABRIC_APP_ROCE,
		               "the peer's APP maps %s %u to priority %u, RoCE "
		               "is priority %d here",
		               dcbx_app_sel_name(a->selector), a->protocol,
		               a->prio, mine) < 0)
			return -ENOMEM;
		n++;
	}
	return n;
}

static int fabric_mtu(const struct fabric_link *l, struct fabric_list *out)
{
	if (!l->has_peer || !l->class_mtu || !l->peer_max_frame ||
	    l->peer_max_frame >= l->class_mtu + FABRIC_L2_MIN)
		return 0;
	return fabric_add(out, l, FABRIC_MTU,
	                  "the peer takes frames of at most %u bytes, the "
	                  "no-drop class's MTU %u needs %u",
	                  l->peer_max_frame, l->class_mtu,
	                  l->class_mtu + FABRIC_L2_MIN) < 0
	           ? -ENOMEM
	           : 1;
}

/* The lossy ends: PFC runs here and the other end says nothing of pause,
 * because it sends no LLDP at all or LLDP without a PFC TLV. */
static int fabric_silent(const struct fabric_link *l, struct fabric_list *out)
{
	const struct dcbx_tlvs *p = &l->peer;
	char a[32];
	int rc;

	if (!l->local_pfc)
		return 0;
	fabric_prios(l->local_pfc, a, sizeof(a));
	if (!l->has_peer) {
		if (!l->listening)
			return 0;
		rc = fabric_add(out, l, FABRIC_NO_LLDP,
		                "PFC runs on priority %s here and no LLDP "
		                "neighbour is heard: the other end is not "
		                "known to pause",
		                a);
	} else if (p->has_pfc || l->peer_cee) {
		return 0;
	} else if (p->has_ets_cfg || p->has_ets_rec || p->has_app) {
		rc = fabric_add(out, l, FABRIC_NO_DCBX,
		                "PFC runs on priority %s here and the "
		                "neighbour's DCBX has no PFC TLV",
		                a);
	} else {
		rc = fabric_add(out, l, FABRIC_NO_DCBX,
		                "PFC runs on priority %s here and the "
		                "neighbour sends LLDP without DCBX",
		                a);
	}
	return rc < 0 ? -ENOMEM : 1;
}

int fabric_check(const struct fabric_link *l, struct fabric_list *out)
{
	int n = 0, rc;

	if ((rc = fabric_silent(l, out)) < 0)
		return rc;
	if (!l->has_peer)
		return rc;
	n += rc;
	if ((rc = fabric_pfc(l, out)) < 0)
		return rc;
	n += rc;
	if ((rc = fabric_app(l, out)) < 0)
		return rc;
	n += rc;
	if ((rc = fabric_mtu(l, out)) < 0)
		return rc;
	return n + rc;
}
