/* plan: containers for the per-port plan. See plan.h. */
#include "model/plan.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void plan_init(struct plan *pl)
{
	memset(pl, 0, sizeof(*pl));
	diag_init(&pl->diag, NULL);
}

static void plan_port_free(struct plan_port *pp)
{
	plan_port_clear_tc(pp);
	diag_free(&pp->warnings);
}

void plan_free(struct plan *pl)
{
	for (size_t i = 0; i < pl->nports; i++)
		plan_port_free(&pl->ports[i]);
	free(pl->ports);
	diag_free(&pl->diag);
	memset(pl, 0, sizeof(*pl));
}

/* Append a zeroed element to *V (*N used, room for *CAP), doubling the
 * room when it is full: the compiler adds a port's filters one by one, and
 * a realloc per element made that quadratic in bytes copied. */
static void *plan_grow(void **v, size_t *n, size_t *cap, size_t size)
{
	char *nv;

	/* An array someone filled or freed without saying its room (a
	 * test that empties a port by hand) is grown as if full. */
	if (!*v)
		*cap = 0;
	if (*n >= *cap) {
		size_t ncap = *n ? *n * 2 : 4;

		nv = realloc(*v, ncap * size);
		if (!nv)
			return NULL;
		*v = nv;
		*cap = ncap;
	}
	nv = (char *)*v + *n * size;
	memset(nv, 0, size);
	(*n)++;
	return nv;
}

struct plan_port *plan_add_port(struct plan *pl, const char *ifname)
{
	struct plan_port *pp = plan_grow((void **)&pl->ports, &pl->nports,
	                                 &pl->ports_cap, sizeof(*pp));

	if (!pp)
		return NULL;
	snprintf(pp->ifname, sizeof(pp->ifname), "%s", ifname);
	diag_init(&pp->warnings, NULL);
	return pp;
}

struct plan_qdisc *plan_port_add_qdisc(struct plan_port *pp)
{
	return plan_grow((void **)&pp->qdiscs, &pp->nqdiscs, &pp->qdiscs_cap,
	                 sizeof(struct plan_qdisc));
}

struct plan_class *plan_port_add_class(struct plan_port *pp)
{
	return plan_grow((void **)&pp->classes, &pp->nclasses, &pp->classes_cap,
	                 sizeof(struct plan_class));
}

struct plan_filter *plan_port_add_filter(struct plan_port *pp)
{
	return plan_grow((void **)&pp->filters, &pp->nfilters, &pp->filters_cap,
	                 sizeof(struct plan_filter));
}

const struct plan_qdisc *plan_port_qdisc(const struct plan_port *pp,
                                         uint32_t handle)
{
	for (size_t i = 0; i < pp->nqdiscs; i++)
		if (pp->qdiscs[i].handle == handle)
			return &pp->qdiscs[i];
	return NULL;
}

const struct plan_class *plan_port_class(const struct plan_port *pp,
                                         uint32_t classid)
{
	for (size_t i = 0; i < pp->nclasses; i++)
		if (pp->classes[i].classid == classid)
			return &pp->classes[i];
	return NULL;
}

const struct plan_filter *plan_port_filter(const struct plan_port *pp,
                                           uint32_t parent, uint16_t prio)
{
	for (size_t i = 0; i < pp->nfilters; i++)
		if (pp->filters[i].parent == parent &&
		    pp->filters[i].prio == prio)
			return &pp->filters[i];
	return NULL;
}

void plan_port_clear_tc(struct plan_port *pp)
{
	free(pp->qdiscs);
	free(pp->classes);
	free(pp->filters);
	pp->qdiscs = NULL;
	pp->classes = NULL;
	pp->filters = NULL;
	pp->nqdiscs = pp->nclasses = pp->nfilters = 0;
	pp->qdiscs_cap = pp->classes_cap = pp->filters_cap = 0;
	pp->clsact_shared = pp->clsact_owned = false;
}

int plan_port_copy_tc(struct plan_port *dst, const struct plan_port *src)
{
	plan_port_clear_tc(dst);
	if (policy_memdup((void **)&dst->qdiscs, src->qdiscs, src->nqdiscs,
	                  sizeof(*src->qdiscs)) < 0 ||
	    policy_memdup((void **)&dst->classes, src->classes, src->nclasses,
	                  sizeof(*src->classes)) < 0 ||
	    policy_memdup((void **)&dst->filters, src->filters, src->nfilters,
	                  sizeof(*src->filters)) < 0) {
		plan_port_clear_tc(dst);
		return -ENOMEM;
	}
	dst->nqdiscs = src->nqdiscs;
	dst->nclasses = src->nclasses;
	dst->nfilters = src->nfilters;
	dst->qdiscs_cap = src->nqdiscs;
	dst->classes_cap = src->nclasses;
	dst->filters_cap = src->nfilters;
	dst->clsact_shared = src->clsact_shared;
	dst->clsact_owned = src->clsact_owned;
	return 0;
}

void plan_clsact_mark(struct plan_filter *f)
{
	memset(f, 0, sizeof(*f));
	f->kind = PLAN_FILTER_FLOWER;
	f->parent = PLAN_H_CLSACT_INGRESS;
	f->chain = PLAN_CLSACT_MARK_CHAIN;
	f->prio = PLAN_FILTER_PRIO_MAX;
	f->protocol = 0x0003; /* ETH_P_ALL */
	f->action = PLAN_ACT_SKBEDIT_PRIORITY;
}

static const struct {
	enum plan_port_state state;
	const char *name, *text;
} plan_port_states[] = {
    {PLAN_PORT_PROGRAMMED, "programmed", "programmed"},
    {PLAN_PORT_NOT_PROGRAMMED, "not-programmed", "not programmed"},
    {PLAN_PORT_REFUSED, "refused", "refused"},
};

#define PLAN_NSTATES (sizeof(plan_port_states) / sizeof(plan_port_states[0]))

const char *plan_port_state_name(enum plan_port_state s)
{
	for (size_t i = 0; i < PLAN_NSTATES; i++)
		if (plan_port_states[i].state == s)
			return plan_port_states[i].name;
	return "?";
}

const char *plan_port_state_text(enum plan_port_state s)
{
	for (size_t i = 0; i < PLAN_NSTATES; i++)
		if (plan_port_states[i].state == s)
			return plan_port_states[i].text;
	return "?";
}

int plan_port_state_parse(const char *name)
{
	for (size_t i = 0; i < PLAN_NSTATES; i++)
		if (!strcmp(plan_port_states[i].name, name))
			return (int)plan_port_states[i].state;
	return -1;
}

const char *plan_layout_name(enum plan_layout l)
{
	switch (l) {
	case PLAN_LAYOUT_NONE:
		return "none";
	case PLAN_LAYOUT_ETS_RED:
		return "ets+red";
	case PLAN_LAYOUT_PRIO_RED:
		return "prio+red";
	case PLAN_LAYOUT_HTB_RED:
		return "htb+red";
	case PLAN_LAYOUT_HTB_FIFO:
		return "htb+bfifo";
	}
	return "?";
}

static const char *const plan_pfc_path_names[] = {
    [PLAN_PFC_PATH_NONE] = "none",
    [PLAN_PFC_PATH_USER] = "user-space",
    [PLAN_PFC_PATH_KERNEL] = "kernel",
};
#define PLAN_NPFC_PATHS                                                        \
	(sizeof(plan_pfc_path_names) / sizeof(plan_pfc_path_names[0]))

const char *plan_pfc_path_name(enum plan_pfc_path p)
{
	return (unsigned)p < PLAN_NPFC_PATHS ? plan_pfc_path_names[p] : "?";
}

int plan_pfc_path_parse(const char *name)
{
	for (unsigned i = 0; name && i < PLAN_NPFC_PATHS; i++)
		if (!strcmp(name, plan_pfc_path_names[i]))
			return (int)i;
	return -1;
}

const char *plan_qdisc_kind_name(enum plan_qdisc_kind k)
{
	return (unsigned)k < PLAN_QD_NKINDS
	           ? caps_qdisc_name((enum caps_qdisc)k)
	           : "?";
}

int plan_qdisc_kind_parse(const char *kind)
{
	int k = caps_qdisc_parse(kind);

	return k >= 0 && k < PLAN_QD_NKINDS ? k : -1;
}

const char *plan_filter_kind_name(enum plan_filter_kind k)
{
	return (unsigned)k < PLAN_FILTER_NKINDS
	           ? caps_classifier_name((enum caps_classifier)k)
	           : "?";
}

int plan_filter_kind_parse(const char *kind)
{
	int k = caps_classifier_parse(kind);

	return k >= 0 && k < PLAN_FILTER_NKINDS ? k : -1;
}
