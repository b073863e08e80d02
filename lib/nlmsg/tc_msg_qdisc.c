/* tc_msg_qdisc: qdiscs and HTB classes <-> rtnetlink, as tc sends them and
 * as the kernel dumps them (sch_htb.c, sch_ets.c, sch_prio.c, sch_red.c,
 * sch_fifo.c). See tc_msg.h. */
#include "nlmsg/tc_msg.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "nlmsg/tc_msg_int.h"

/*
 * tc's arithmetic, reproduced so that the bytes match.
 *
 * tc converts times with the psched clock read from /proc/net/psched:
 * "000003e8 00000040 000f4240 3b9aca00" on every kernel since the clock
 * went to nanoseconds (PSCHED_SHIFT 6: 1000 ns per us / 64 ns per tick,
 * 10^6 clock resolution, and NSEC_PER_SEC / hrtimer_resolution as "HZ").
 * A kernel without high-resolution timers reports CONFIG_HZ in the last
 * field, which only changes the HTB buffer tc computes; roced assumes the
 * high-resolution clock that every distribution kernel has. tc also reads
 * $HZ, $PROC_NET_PSCHED and $PROC_ROOT from its environment; we follow
 * what it does without them.
 */
#define TC_MSG_TICK_IN_USEC (1000.0 / 64.0)
#define TC_MSG_PSCHED_HZ    1000000000ull

/*
 * tc converts doubles to unsigned int where the value may not fit (a rate
 * of a few bytes per second gives transmission times beyond 2^32 ticks).
 * The result is what the x86-64 instructions of Debian's tc binary give,
 * which differ between its two code paths:
 *  - tc_calc_xmittime() (the HTB buffers) converts with a 64-bit
 *    cvttsd2si and keeps the low 32 bits;
 *  - the rate-table loop of tc_calc_rtable() is vectorised: cvttpd2dq
 *    with the 2^31 offset trick, which yields 0 from 2^32 on.
 */
static uint32_t tc_msg_cvt_u32(double v)
{
	/* cvttsd2si gives 1 << 63 out of range, whose low half is 0 */
	if (!(v > -1.0 && v < 9223372036854775808.0))
		return 0;
	return (uint32_t)(uint64_t)v;
}

static uint32_t tc_msg_cvt_u32_vec(double v)
{
	if (!(v > -1.0 && v < 4294967296.0))
		return 0;
	return (uint32_t)v;
}

/* The RED table's double -> byte conversion. Its values are below 256
 * when finite (the damping factor is at most ln 2 per tick) or infinite,
 * which every x86 conversion turns into INT32_MIN, whose low byte is 0. */
static uint8_t tc_msg_cvt_u8(double v)
{
	int32_t i = INT32_MIN;

	if (v > -2147483649.0 && v < 2147483648.0)
		i = (int32_t)v;
	return (uint8_t)(uint32_t)i;
}

/* tc_calc_xmittime(): SIZE bytes at RATE bytes/s in psched ticks. tc hands
 * the time to the tick conversion as whole microseconds, so anything under
 * 1 us is 0 ticks. */
static uint32_t tc_msg_xmittime(uint64_t rate, uint32_t size)
{
	uint32_t usec =
	    tc_msg_cvt_u32(1000000.0 * ((double)size / (double)rate));

	return tc_msg_cvt_u32(usec * TC_MSG_TICK_IN_USEC);
}

/* The bytes RATE sends in TICKS: the smallest size whose
 * tc_msg_xmittime() is TICKS again (ticks are whole microseconds times
 * 15.625, truncated), so that a decoded class re-encodes to the same
 * kernel values. Exact for rates from 1 MB/s; slower ones may be off by a
 * microsecond's worth of bytes. */
uint32_t tc_msg_ticks_bytes(uint64_t rate, uint32_t ticks)
{
	double usec = ceil((double)ticks / TC_MSG_TICK_IN_USEC);
	double bytes = ceil(usec * (double)rate / 1000000.0);

	return bytes >= 4294967295.0 ? UINT32_MAX : (uint32_t)bytes;
}

/* The same inside tc_calc_rtable()'s vectorised loop. */
static uint32_t tc_msg_xmittime_vec(uint64_t rate, uint32_t size)
{
	uint32_t usec =
	    tc_msg_cvt_u32_vec(1000000.0 * ((double)size / (double)rate));

	return tc_msg_cvt_u32_vec(usec * TC_MSG_TICK_IN_USEC);
}

/* tc_calc_rtable() for an Ethernet link (no ATM cell rounding), mpu 0.
 * The kernel reads the table only for links of unknown type; it is sent
 * because tc sends it. */
static void tc_msg_rtab(struct tc_ratespec *r, uint32_t *rtab)
{
	unsigned cell_log = 0;

	while ((TC_MSG_HTB_MTU >> cell_log) > 255)
		cell_log++;
	/* Without RTAB, only the ratespec's fields (the table is cached). */
	for (unsigned i = 0; rtab && i < 256; i++)
		rtab[i] = tc_msg_xmittime_vec(r->rate, (i + 1) << cell_log);
	r->cell_align = -1;
	r->cell_log = (uint8_t)cell_log;
	r->linklayer = TC_LINKLAYER_ETHERNET;
}

/* tc_red_eval_idle_damping() with roced's Scell_log: entry i is how many
 * halvings of the average an idle time of i << Scell_log ticks is worth.
 * When avpkt takes under a microsecond at the bandwidth (10 Gbit/s and up
 * for 1000 bytes) or Wlog is 0, tc's damping factor is infinite and its
 * conversion to a byte yields 0: the table is all zeros but its last
 * entry, and the kernel then falls back to its linear approximation. */
static void tc_msg_red_stab(const struct plan_red *r, uint8_t stab[256])
{
	double xmit = tc_msg_xmittime(r->bandwidth, r->avpkt);
	double lw = -log(1.0 - 1.0 / (double)(1u << r->wlog)) / xmit;

	stab[0] = 0;
	for (unsigned i = 1; i < 255; i++) {
		/* tc computes i << clog in an int. */
		int32_t cell = (int32_t)((uint32_t)i << r->scell_log);
		uint8_t v = tc_msg_cvt_u8(cell * lw);

		stab[i] = v > 31 ? 31 : v;
	}
	stab[255] = 31;
}

/* --- qdiscs --- */

static int tc_msg_htb_put(struct tc_msg_enc *e, const struct plan_htb *h)
{
	struct tc_htb_glob g = {
	    .version = 3,
	    /* tc's default when the command line has no r2q */
	    .rate2quantum = h->r2q ? h->r2q : 10,
	    .defcls = h->defcls,
	};
	struct nlattr *opts = tc_msg_nest_start(e, TCA_OPTIONS);

	tc_msg_put(e, TCA_HTB_INIT, sizeof(g), &g);
	tc_msg_nest_end(e, opts);
	return 0;
}

static int tc_msg_ets_put(struct tc_msg_enc *e, const struct plan_ets *s)
{
	struct nlattr *opts, *nest;

	if (!s->nbands || s->nbands > 8 || s->nstrict > s->nbands)
		return -EINVAL;
	for (unsigned p = 0; p < 16; p++) {
		if (s->priomap[p] >= s->nbands)
			return -EINVAL;
	}
	/* The kernel refuses a zero quantum. */
	for (unsigned b = s->nstrict; b < s->nbands; b++) {
		if (!s->quanta[b])
			return -EINVAL;
	}
	opts = tc_msg_nest_start(e, TCA_OPTIONS | NLA_F_NESTED);
	tc_msg_put_u8(e, TCA_ETS_NBANDS, s->nbands);
	if (s->nstrict)
		tc_msg_put_u8(e, TCA_ETS_NSTRICT, s->nstrict);
	if (s->nbands > s->nstrict) {
		nest = tc_msg_nest_start(e, TCA_ETS_QUANTA | NLA_F_NESTED);
		for (unsigned b = s->nstrict; b < s->nbands; b++)
			tc_msg_put_u32(e, TCA_ETS_QUANTA_BAND, s->quanta[b]);
		tc_msg_nest_end(e, nest);
	}
	nest = tc_msg_nest_start(e, TCA_ETS_PRIOMAP | NLA_F_NESTED);
	for (unsigned p = 0; p < 16; p++)
		tc_msg_put_u8(e, TCA_ETS_PRIOMAP_BAND, s->priomap[p]);
	tc_msg_nest_end(e, nest);
	tc_msg_nest_end(e, opts);
	return 0;
}

static int tc_msg_prio_put(struct tc_msg_enc *e, const struct plan_prio *p)
{
	/* tc_prio_qopt followed by an empty TCA_OPTIONS nest: tc builds the
	 * option with addattr_nest_compat() (room for TCA_PRIO_MQ) and the
	 * kernel reads only the struct. */
	uint8_t payload[sizeof(struct tc_prio_qopt) + sizeof(struct nlattr)];
	struct tc_prio_qopt qopt = {.bands = p->bands};
	struct nlattr empty = {.nla_len = sizeof(empty),
	                       .nla_type = TCA_OPTIONS};

	if (p->bands < 2 || p->bands > 8)
		return -EINVAL;
	for (unsigned i = 0; i < 16; i++) {
		if (p->priomap[i] >= p->bands)
			return -EINVAL;
		qopt.priomap[i] = p->priomap[i];
	}
	memcpy(payload, &qopt, sizeof(qopt));
	memcpy(payload + sizeof(qopt), &empty, sizeof(empty));
	tc_msg_put(e, TCA_OPTIONS, sizeof(payload), payload);
	return 0;
}

static int tc_msg_red_put(struct tc_msg_enc *e, const struct plan_red *r)
{
	struct tc_red_qopt opt = {
	    .limit = r->limit,
	    .qth_min = r->qth_min,
	    .qth_max = r->qth_max,
	    .Wlog = r->wlog,
	    .Plog = r->plog,
	    .Scell_log = r->scell_log,
	};
	/* tc 6.1 puts ecn/harddrop in TCA_RED_FLAGS (leaving the historic
	 * opt.flags 0) and always selects every flag it knows. */
	struct nla_bitfield32 flags = {
	    .value = (r->ecn ? TC_RED_ECN : 0) |
	             (r->harddrop ? TC_RED_HARDDROP : 0) |
	             (r->nodrop ? TC_RED_NODROP : 0),
	    .selector = TC_RED_HISTORIC_FLAGS | TC_RED_NODROP,
	};
	uint8_t stab[256];
	struct nlattr *opts;

	/* The kernel's red_check_params() limits, and ours for the table. */
	if (r->wlog >= 32 || r->plog >= 32 || r->scell_log >= 32 ||
	    r->qth_min > r->qth_max || !r->avpkt || !r->bandwidth)
		return -EINVAL;
	tc_msg_red_stab(r, stab);
	opts = tc_msg_nest_start(e, TCA_OPTIONS);
	tc_msg_put(e, TCA_RED_PARMS, sizeof(opt), &opt);
	tc_msg_put(e, TCA_RED_STAB, sizeof(stab), stab);
	tc_msg_put_u32(e, TCA_RED_MAX_P, r->max_p);
	tc_msg_put(e, TCA_RED_FLAGS, sizeof(flags), &flags);
	tc_msg_nest_end(e, opts);
	return 0;
}

/* tbf as `tc qdisc add ... tbf rate R burst B limit L` sends it, less
 * the rate table, which the kernel reads only for links of unknown type:
 * the bucket goes both as a time (the ticks tc computes) and in bytes
 * (TCA_TBF_BURST, which the kernel prefers). */
static int tc_msg_tbf_put(struct tc_msg_enc *e, const struct plan_tbf *t)
{
	struct tc_tbf_qopt opt;
	struct nlattr *opts;
	uint64_t rate = t->rate;

	if (!rate || !t->burst)
		return -EINVAL;
	memset(&opt, 0, sizeof(opt));
	opt.rate.rate = rate >= (1ull << 32) ? UINT32_MAX : (uint32_t)rate;
	tc_msg_rtab(&opt.rate, NULL);
	opt.limit = t->limit;
	opt.buffer = tc_msg_xmittime(rate, t->burst);
	opts = tc_msg_nest_start(e, TCA_OPTIONS);
	tc_msg_put(e, TCA_TBF_PARMS, sizeof(opt), &opt);
	if (rate >= (1ull << 32))
		tc_msg_put(e, TCA_TBF_RATE64, sizeof(rate), &rate);
	tc_msg_put_u32(e, TCA_TBF_BURST, t->burst);
	tc_msg_nest_end(e, opts);
	return 0;
}

static int tc_msg_tbf_decode(const struct tc_msg_attr *opts, struct plan_tbf *t)
{
	struct tc_msg_attr tb[TCA_TBF_MAX + 1];
	struct tc_tbf_qopt opt;
	int err;

	err = tc_msg_index(opts->data, opts->len, tb, TCA_TBF_MAX);
	if (!err)
		err = tc_msg_get(&tb[TCA_TBF_PARMS], &opt, sizeof(opt));
	if (err)
		return err;
	t->rate = opt.rate.rate;
	if (tb[TCA_TBF_RATE64].data &&
	    tc_msg_get_u64(&tb[TCA_TBF_RATE64], &t->rate))
		return -EINVAL;
	t->limit = opt.limit;
	/* The kernel reports the bucket as a time only. */
	t->burst = t->rate ? tc_msg_ticks_bytes(t->rate, opt.buffer) : 0;
	return 0;
}

static int tc_msg_qdisc_put_options(struct tc_msg_enc *e,
                                    const struct plan_qdisc *q)
{
	struct tc_fifo_qopt fifo;

	switch (q->kind) {
	case PLAN_QD_HTB:
		return tc_msg_htb_put(e, &q->u.htb);
	case PLAN_QD_ETS:
		return tc_msg_ets_put(e, &q->u.ets);
	case PLAN_QD_PRIO:
		return tc_msg_prio_put(e, &q->u.prio);
	case PLAN_QD_RED:
		return tc_msg_red_put(e, &q->u.red);
	case PLAN_QD_BFIFO:
	case PLAN_QD_PFIFO:
		fifo.limit = q->u.fifo.limit;
		tc_msg_put(e, TCA_OPTIONS, sizeof(fifo), &fifo);
		return 0;
	case PLAN_QD_CLSACT:
		return 0;
	case PLAN_QD_TBF:
		return tc_msg_tbf_put(e, &q->u.tbf);
	}
	return -EINVAL;
}

int tc_msg_qdisc(void *buf, size_t size, enum tc_msg_op op, int ifindex,
                 uint32_t seq, const struct plan_qdisc *q)
{
	uint32_t handle = q->handle, parent = q->parent;
	struct tc_msg_enc e;
	bool del = op == TC_MSG_DEL;
	int err;

	if ((unsigned)q->kind >= PLAN_QD_NKINDS)
		return -EINVAL;
	/* clsact lives at a fixed place whatever the plan says. */
	if (q->kind == PLAN_QD_CLSACT) {
		handle = PLAN_H_MAKE(PLAN_H_MAJ(PLAN_H_CLSACT), 0);
		parent = PLAN_H_CLSACT;
	}
	err = tc_msg_begin(&e, buf, size, del ? RTM_DELQDISC : RTM_NEWQDISC,
	                   tc_msg_op_flags(op, TC_MSG_QDISC), seq, ifindex,
	                   handle, parent, 0);
	if (err)
		return err;
	/* tc names the kind on delete only for clsact/ingress, which have
	 * no handle of their own. */
	if (!del || q->kind == PLAN_QD_CLSACT)
		tc_msg_put_strz(&e, TCA_KIND, plan_qdisc_kind_name(q->kind));
	if (!del) {
		err = tc_msg_qdisc_put_options(&e, q);
		if (err)
			return err;
	}
	return tc_msg_end(&e);
}

static int tc_msg_htb_decode(const struct tc_msg_attr *opts, struct plan_htb *h)
{
	struct tc_msg_attr tb[TCA_HTB_MAX + 1];
	struct tc_htb_glob g;
	int err;

	err = tc_msg_index(opts->data, opts->len, tb, TCA_HTB_MAX);
	if (!err)
		err = tc_msg_get(&tb[TCA_HTB_INIT], &g, sizeof(g));
	if (err)
		return err;
	h->defcls = g.defcls;
	h->r2q = g.rate2quantum;
	return 0;
}

static int tc_msg_ets_decode(const struct tc_msg_attr *opts, struct plan_ets *s,
                             bool *known)
{
	struct tc_msg_attr tb[TCA_ETS_MAX + 1], a;
	unsigned n;
	size_t off;
	int err;

	err = tc_msg_index(opts->data, opts->len, tb, TCA_ETS_MAX);
	if (!err)
		err = tc_msg_get_u8(&tb[TCA_ETS_NBANDS], &s->nbands);
	if (!err && tb[TCA_ETS_NSTRICT].data)
		err = tc_msg_get_u8(&tb[TCA_ETS_NSTRICT], &s->nstrict);
	if (err)
		return err;
	if (!s->nbands || s->nbands > TCQ_ETS_MAX_BANDS ||
	    s->nstrict > s->nbands)
		return -EINVAL;
	/* plan_ets has room for one band per NX-OS queue. */
	if (s->nbands > 8)
		*known = false;

	n = s->nstrict;
	off = 0;
	while (tb[TCA_ETS_QUANTA].data &&
	       (err = tc_msg_next(tb[TCA_ETS_QUANTA].data,
	                          tb[TCA_ETS_QUANTA].len, &off, &a)) > 0) {
		uint32_t quantum;

		if (a.type != TCA_ETS_QUANTA_BAND)
			continue;
		if (n >= s->nbands || tc_msg_get_u32(&a, &quantum))
			return -EINVAL;
		if (n < 8)
			s->quanta[n] = quantum;
		n++;
	}
	if (err < 0)
		return err;

	n = 0;
	off = 0;
	while (tb[TCA_ETS_PRIOMAP].data &&
	       (err = tc_msg_next(tb[TCA_ETS_PRIOMAP].data,
	                          tb[TCA_ETS_PRIOMAP].len, &off, &a)) > 0) {
		if (a.type != TCA_ETS_PRIOMAP_BAND)
			continue;
		if (n >= 16 || tc_msg_get_u8(&a, &s->priomap[n]))
			return -EINVAL;
		n++;
	}
	return err;
}

static int tc_msg_prio_decode(const struct tc_msg_attr *opts,
                              struct plan_prio *p, bool *known)
{
	struct tc_prio_qopt qopt;

	if (tc_msg_get(opts, &qopt, sizeof(qopt)))
		return -EINVAL;
	if (qopt.bands < 0 || qopt.bands > TCQ_PRIO_BANDS)
		return -EINVAL;
	if (qopt.bands > 8)
		*known = false;
	p->bands = (uint8_t)qopt.bands;
	memcpy(p->priomap, qopt.priomap, sizeof(p->priomap));
	return 0;
}

static int tc_msg_red_decode(const struct tc_msg_attr *opts, struct plan_red *r,
                             bool *known)
{
	struct tc_msg_attr tb[TCA_RED_MAX + 1];
	struct nla_bitfield32 bf = {0, 0};
	struct tc_red_qopt opt;
	uint32_t flags;
	int err;

	err = tc_msg_index(opts->data, opts->len, tb, TCA_RED_MAX);
	if (!err)
		err = tc_msg_get(&tb[TCA_RED_PARMS], &opt, sizeof(opt));
	if (!err && tb[TCA_RED_MAX_P].data)
		err = tc_msg_get_u32(&tb[TCA_RED_MAX_P], &r->max_p);
	if (!err && tb[TCA_RED_FLAGS].data)
		err = tc_msg_get(&tb[TCA_RED_FLAGS], &bf, sizeof(bf));
	if (err)
		return err;
	r->limit = opt.limit;
	r->qth_min = opt.qth_min;
	r->qth_max = opt.qth_max;
	r->wlog = opt.Wlog;
	r->plog = opt.Plog;
	r->scell_log = opt.Scell_log;
	/* Kernels before 5.8 report flags only in the historic byte. */
	flags = opt.flags | bf.value;
	r->ecn = flags & TC_RED_ECN;
	r->harddrop = flags & TC_RED_HARDDROP;
	r->nodrop = flags & TC_RED_NODROP;
	/* adaptive and qevent blocks have no place in the plan */
	if ((flags &
	     ~(uint32_t)(TC_RED_ECN | TC_RED_HARDDROP | TC_RED_NODROP)) ||
	    tb[TCA_RED_EARLY_DROP_BLOCK].data || tb[TCA_RED_MARK_BLOCK].data)
		*known = false;
	return 0;
}

int tc_msg_qdisc_parse(const void *msg, size_t len, struct tc_msg_qdisc *out)
{
	struct tc_msg_view v;
	struct tc_msg_attr opts;
	struct plan_qdisc *q = &out->q;
	struct tc_fifo_qopt fifo;
	int kind, err;

	memset(out, 0, sizeof(*out));
	err = tc_msg_open_kind(msg, len, RTM_NEWQDISC, RTM_DELQDISC, &v,
	                       out->kind, &opts, NULL);
	if (err)
		return err;
	out->ifindex = v.tcm.tcm_ifindex;
	out->deleted = v.deleted;
	out->handle = v.tcm.tcm_handle;
	out->parent = v.tcm.tcm_parent;
	out->roced = tc_msg_qdisc_is_roced(out->handle);
	q->handle = out->handle;
	q->parent = out->parent;
	q->queue = tc_msg_leaf_queue(out->handle);
	if (q->queue < 0)
		q->queue = tc_msg_inner_queue(out->handle);
	kind = plan_qdisc_kind_parse(out->kind);
	if (kind < 0)
		return 0;
	q->kind = (enum plan_qdisc_kind)kind;
	out->known = true;
	if (q->kind == PLAN_QD_CLSACT) {
		q->handle = PLAN_H_CLSACT;
		q->parent = PLAN_H_CLSACT;
		q->queue = -1;
		return 0;
	}
	/* Every other kind of ours always reports its options; a
	 * notification of removal may come without them. */
	if (!opts.data) {
		if (v.deleted) {
			out->known = false;
			return 0;
		}
		return -EINVAL;
	}
	switch (q->kind) {
	case PLAN_QD_HTB:
		err = tc_msg_htb_decode(&opts, &q->u.htb);
		break;
	case PLAN_QD_ETS:
		for (unsigned b = 0; b < 8; b++)
			q->u.ets.band_queue[b] = -1;
		err = tc_msg_ets_decode(&opts, &q->u.ets, &out->known);
		break;
	case PLAN_QD_PRIO:
		for (unsigned b = 0; b < 8; b++)
			q->u.prio.band_queue[b] = -1;
		err = tc_msg_prio_decode(&opts, &q->u.prio, &out->known);
		break;
	case PLAN_QD_RED:
		err = tc_msg_red_decode(&opts, &q->u.red, &out->known);
		break;
	case PLAN_QD_BFIFO:
	case PLAN_QD_PFIFO:
		err = tc_msg_get(&opts, &fifo, sizeof(fifo));
		q->u.fifo.limit = fifo.limit;
		break;
	case PLAN_QD_TBF:
		err = tc_msg_tbf_decode(&opts, &q->u.tbf);
		break;
	default:
		break;
	}
	return err;
}

/* --- HTB classes --- */

/* The ratespec of RATE64 and its table: from CACHE when it has it, else
 * computed into SCRATCH (and kept in CACHE when there is one). */
static const uint32_t *tc_msg_htb_rate(struct tc_ratespec *r, uint64_t rate64,
                                       struct tc_msg_rtab_cache *cache,
                                       uint32_t scratch[256])
{
	struct tc_msg_rtab_entry *slot;
	uint32_t *rtab = scratch;

	memset(r, 0, sizeof(*r));
	r->rate = rate64 >= (1ull << 32) ? UINT32_MAX : (uint32_t)rate64;
	if (cache) {
		for (unsigned i = 0; i < TC_MSG_RTAB_CACHE; i++) {
			if (cache->e[i].used && cache->e[i].rate == r->rate) {
				tc_msg_rtab(r, NULL);
				return cache->e[i].rtab;
			}
		}
		slot = &cache->e[cache->next++ % TC_MSG_RTAB_CACHE];
		slot->used = true;
		slot->rate = r->rate;
		rtab = slot->rtab;
	}
	tc_msg_rtab(r, rtab);
	return rtab;
}

int tc_msg_class(void *buf, size_t size, enum tc_msg_op op, int ifindex,
                 uint32_t seq, const struct plan_class *c)
{
	return tc_msg_class_cached(buf, size, op, ifindex, seq, c, NULL);
}

int tc_msg_class_cached(void *buf, size_t size, enum tc_msg_op op, int ifindex,
                        uint32_t seq, const struct plan_class *c,
                        struct tc_msg_rtab_cache *cache)
{
	uint64_t rate = c->rate, ceil = c->ceil ? c->ceil : c->rate;
	uint32_t rscratch[256], cscratch[256];
	const uint32_t *rtab, *ctab;
	struct tc_htb_opt opt;
	struct nlattr *opts;
	struct tc_msg_enc e;
	int err;

	if (op != TC_MSG_DEL && !rate)
		return -EINVAL;
	err = tc_msg_begin(&e, buf, size,
	                   op == TC_MSG_DEL ? RTM_DELTCLASS : RTM_NEWTCLASS,
	                   tc_msg_op_flags(op, TC_MSG_CLASS), seq, ifindex,
	                   c->classid, c->parent, 0);
	if (err || op == TC_MSG_DEL)
		return err ? err : tc_msg_end(&e);

	memset(&opt, 0, sizeof(opt));
	rtab = tc_msg_htb_rate(&opt.rate, rate, cache, rscratch);
	ctab = tc_msg_htb_rate(&opt.ceil, ceil, cache, cscratch);
	/* The plan's token buckets (tc's burst/cburst) when it has them,
	 * else tc's minimal burst: one clock tick's worth of bytes plus an
	 * MTU. Either is sent as the time to send it at the class's rate. */
	opt.buffer = tc_msg_xmittime(
	    rate, c->burst
	              ? c->burst
	              : (uint32_t)(rate / TC_MSG_PSCHED_HZ + TC_MSG_HTB_MTU));
	opt.cbuffer = tc_msg_xmittime(
	    ceil, c->cburst
	              ? c->cburst
	              : (uint32_t)(ceil / TC_MSG_PSCHED_HZ + TC_MSG_HTB_MTU));
	opt.quantum = c->quantum;
	opt.prio = c->prio;

	tc_msg_put_strz(&e, TCA_KIND, plan_qdisc_kind_name(PLAN_QD_HTB));
	opts = tc_msg_nest_start(&e, TCA_OPTIONS);
	if (rate >= (1ull << 32))
		tc_msg_put(&e, TCA_HTB_RATE64, sizeof(rate), &rate);
	if (ceil >= (1ull << 32))
		tc_msg_put(&e, TCA_HTB_CEIL64, sizeof(ceil), &ceil);
	tc_msg_put(&e, TCA_HTB_PARMS, sizeof(opt), &opt);
	tc_msg_put(&e, TCA_HTB_RTAB, sizeof(rscratch), rtab);
	tc_msg_put(&e, TCA_HTB_CTAB, sizeof(cscratch), ctab);
	tc_msg_nest_end(&e, opts);
	return tc_msg_end(&e);
}

static int tc_msg_htb_class_decode(const struct tc_msg_attr *opts,
                                   struct tc_msg_class *out)
{
	struct tc_msg_attr tb[TCA_HTB_MAX + 1];
	struct plan_class *c = &out->c;
	struct tc_htb_opt opt;
	int err;

	err = tc_msg_index(opts->data, opts->len, tb, TCA_HTB_MAX);
	if (!err)
		err = tc_msg_get(&tb[TCA_HTB_PARMS], &opt, sizeof(opt));
	if (err)
		return err;
	/* The 32-bit rate saturates; the 64-bit one follows when needed. */
	c->rate = opt.rate.rate;
	c->ceil = opt.ceil.rate;
	if (tb[TCA_HTB_RATE64].data &&
	    tc_msg_get_u64(&tb[TCA_HTB_RATE64], &c->rate))
		return -EINVAL;
	if (tb[TCA_HTB_CEIL64].data &&
	    tc_msg_get_u64(&tb[TCA_HTB_CEIL64], &c->ceil))
		return -EINVAL;
	c->prio = opt.prio;
	c->quantum = opt.quantum;
	out->buffer = opt.buffer;
	out->cbuffer = opt.cbuffer;
	/* Back to bytes, as the plan keeps them: exact to the microsecond
	 * tc's conversion keeps (tc_msg_class_same allows for that). */
	c->burst = tc_msg_ticks_bytes(c->rate, opt.buffer);
	c->cburst = tc_msg_ticks_bytes(c->ceil, opt.cbuffer);
	return 0;
}

int tc_msg_class_parse(const void *msg, size_t len, struct tc_msg_class *out)
{
	struct tc_msg_view v;
	struct tc_msg_attr opts;
	struct plan_class *c = &out->c;
	int err;

	memset(out, 0, sizeof(*out));
	err = tc_msg_open_kind(msg, len, RTM_NEWTCLASS, RTM_DELTCLASS, &v,
	                       out->kind, &opts, NULL);
	if (err)
		return err;
	out->ifindex = v.tcm.tcm_ifindex;
	out->deleted = v.deleted;
	out->leaf = v.tcm.tcm_info;
	c->classid = v.tcm.tcm_handle;
	c->parent = v.tcm.tcm_parent;
	c->queue = tc_msg_class_queue(c->classid);
	out->roced = tc_msg_class_is_roced(c->classid);
	if (plan_qdisc_kind_parse(out->kind) != PLAN_QD_HTB)
		return 0;
	/* HTB reports a class attached to the qdisc itself with parent
	 * root; tc (and the plan) name the qdisc's handle. */
	if (c->parent == PLAN_H_ROOT)
		c->parent = PLAN_H_MAKE(PLAN_H_MAJ(c->classid), 0);
	if (!opts.data)
		return v.deleted ? 0 : -EINVAL;
	err = tc_msg_htb_class_decode(&opts, out);
	if (!err)
		out->known = true;
	return err;
}
