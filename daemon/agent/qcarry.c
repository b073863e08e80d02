/* qcarry: counters carried over a leaf's replacement. See qcarry.h. */
#include "agent/qcarry.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void qcarry_free(struct qcarry *c)
{
	free(c->v);
	c->v = NULL;
	c->n = 0;
}

static struct qcarry_port *qcarry_port(struct qcarry *c, int ifindex)
{
	struct qcarry_port *nv;

	for (size_t i = 0; i < c->n; i++)
		if (c->v[i].ifindex == ifindex)
			return &c->v[i];
	nv = realloc(c->v, (c->n + 1) * sizeof(*nv));
	if (!nv)
		return NULL;
	c->v = nv;
	memset(&nv[c->n], 0, sizeof(nv[0]));
	nv[c->n].ifindex = ifindex;
	return &nv[c->n++];
}

/* The fields of a count in one order, for the loops below. */
static uint64_t *qcarry_field(struct qcarry_count *n, unsigned f)
{
	switch (f) {
	case QCARRY_PACKETS:
		return &n->packets;
	case QCARRY_BYTES:
		return &n->bytes;
	case QCARRY_DROPS:
		return &n->drops;
	default:
		return &n->ecn;
	}
}

int qcarry_observe(struct qcarry *c, int ifindex, unsigned q, unsigned have,
                   const struct qcarry_count *raw, struct qcarry_count *total)
{
	struct qcarry_port *p;
	struct qcarry_queue *e;
	struct qcarry_count r = *raw;
	bool reset = false;

	if (total)
		*total = *raw;
	if (q >= POLICY_NQUEUES || ifindex <= 0)
		return -EINVAL;
	p = qcarry_port(c, ifindex);
	if (!p)
		return -ENOMEM;
	e = &p->q[q];
	/* Within one leaf every counter only grows: any that went back
	 * says the leaf is another. */
	for (unsigned f = 1; f <= QCARRY_ECN; f <<= 1)
		if ((have & f) &&
		    *qcarry_field(&r, f) < *qcarry_field(&e->last, f))
			reset = true;
	for (unsigned f = 1; f <= QCARRY_ECN; f <<= 1) {
		uint64_t *last = qcarry_field(&e->last, f);

		if (reset)
			*qcarry_field(&e->base, f) += *last;
		if (have & f)
			*last = *qcarry_field(&r, f);
		else if (reset)
			*last = 0; /* the new leaf's: not read yet */
	}
	e->resets += reset;
	if (total)
		for (unsigned f = 1; f <= QCARRY_ECN; f <<= 1)
			*qcarry_field(total, f) = *qcarry_field(&e->base, f) +
			                          *qcarry_field(&e->last, f);
	return 0;
}

int qcarry_backlog(struct qcarry *c, int ifindex, unsigned q, uint32_t bytes)
{
	struct qcarry_port *p;

	if (q >= POLICY_NQUEUES || ifindex <= 0)
		return -EINVAL;
	p = qcarry_port(c, ifindex);
	if (!p)
		return -ENOMEM;
	for (unsigned k = 0; k < QCARRY_NPEAKS; k++)
		if (bytes > p->q[q].peak[k])
			p->q[q].peak[k] = bytes;
	return 0;
}

int qcarry_xoff(struct qcarry *c, int ifindex, unsigned q, uint32_t xoff,
                uint32_t bytes, double above_ms)
{
	struct qcarry_port *p;
	struct qcarry_queue *e;

	if (q >= POLICY_NQUEUES || ifindex <= 0)
		return -EINVAL;
	p = qcarry_port(c, ifindex);
	if (!p)
		return -ENOMEM;
	e = &p->q[q];
	e->xoff = xoff;
	if (above_ms > 0)
		e->above_xoff_ms += above_ms;
	if (xoff && bytes > xoff && bytes - xoff > e->headroom_peak)
		e->headroom_peak = bytes - xoff;
	return 0;
}

void qcarry_peak_reset(struct qcarry *c, enum qcarry_peak k, int ifindex)
{
	if ((unsigned)k >= QCARRY_NPEAKS)
		return;
	for (size_t i = 0; i < c->n; i++)
		if (!ifindex || c->v[i].ifindex == ifindex)
			for (unsigned q = 0; q < POLICY_NQUEUES; q++)
				c->v[i].q[q].peak[k] = 0;
}

const struct qcarry_queue *qcarry_find(const struct qcarry *c, int ifindex,
                                       unsigned q)
{
	for (size_t i = 0; q < POLICY_NQUEUES && i < c->n; i++)
		if (c->v[i].ifindex == ifindex)
			return &c->v[i].q[q];
	return NULL;
}
