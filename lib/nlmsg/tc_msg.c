/* tc_msg: request framing, the attribute walker, dump requests, ownership
 * and plan-vs-kernel comparison. See tc_msg.h and tc_msg_int.h. */
#include "nlmsg/tc_msg.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

#include "nlmsg/tc_msg_int.h"

/* --- encoding --- */

int tc_msg_begin(struct tc_msg_enc *e, void *buf, size_t size, uint16_t type,
                 uint16_t flags, uint32_t seq, int ifindex, uint32_t handle,
                 uint32_t parent, uint32_t info)
{
	struct tcmsg *tcm;

	memset(e, 0, sizeof(*e));
	/* libmnl writes headers through struct pointers. */
	if (!buf || ((uintptr_t)buf & (MNL_ALIGNTO - 1)))
		return -EINVAL;
	if (size < MNL_NLMSG_HDRLEN + MNL_ALIGN(sizeof(*tcm)))
		return -EMSGSIZE;
	e->size = size;
	e->nlh = mnl_nlmsg_put_header(buf);
	e->nlh->nlmsg_type = type;
	e->nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	e->nlh->nlmsg_seq = seq;
	tcm = mnl_nlmsg_put_extra_header(e->nlh, sizeof(*tcm));
	tcm->tcm_family = AF_UNSPEC;
	tcm->tcm_ifindex = ifindex;
	tcm->tcm_handle = handle;
	tcm->tcm_parent = parent;
	tcm->tcm_info = info;
	return 0;
}

int tc_msg_end(const struct tc_msg_enc *e)
{
	return e->overflow ? -EMSGSIZE : 0;
}

void tc_msg_put(struct tc_msg_enc *e, uint16_t type, size_t len,
                const void *data)
{
	/* memcpy from NULL is undefined even for 0 bytes. */
	static const uint8_t none;

	struct nlattr *attr;

	if (e->overflow)
		return;
	attr = mnl_nlmsg_get_payload_tail(e->nlh);
	if (len > UINT16_MAX - MNL_ATTR_HDRLEN ||
	    !mnl_attr_put_check(e->nlh, e->size, type, len,
	                        data ? data : &none)) {
		e->overflow = true;
		return;
	}
	/* libmnl before 1.0.5 leaves the alignment padding as it was */
	memset((uint8_t *)mnl_attr_get_payload(attr) + len, 0,
	       MNL_ALIGN(len) - len);
}

void tc_msg_put_u8(struct tc_msg_enc *e, uint16_t type, uint8_t v)
{
	tc_msg_put(e, type, sizeof(v), &v);
}

void tc_msg_put_u16(struct tc_msg_enc *e, uint16_t type, uint16_t v)
{
	tc_msg_put(e, type, sizeof(v), &v);
}

void tc_msg_put_u32(struct tc_msg_enc *e, uint16_t type, uint32_t v)
{
	tc_msg_put(e, type, sizeof(v), &v);
}

void tc_msg_put_strz(struct tc_msg_enc *e, uint16_t type, const char *s)
{
	tc_msg_put(e, type, strlen(s) + 1, s);
}

struct nlattr *tc_msg_nest_start(struct tc_msg_enc *e, uint16_t type)
{
	struct nlattr *nest;

	if (e->overflow)
		return NULL;
	nest = mnl_nlmsg_get_payload_tail(e->nlh);
	tc_msg_put(e, type, 0, NULL);
	return e->overflow ? NULL : nest;
}

void tc_msg_nest_end(struct tc_msg_enc *e, struct nlattr *nest)
{
	if (!e->overflow && nest)
		mnl_attr_nest_end(e->nlh, nest);
}

uint16_t tc_msg_op_flags(enum tc_msg_op op, enum tc_msg_obj obj)
{
	switch (op) {
	case TC_MSG_ADD:
		return NLM_F_CREATE | NLM_F_EXCL;
	case TC_MSG_REPLACE:
		/* tc asks the qdisc code to replace a qdisc of another kind;
		 * classes and filters are simply created or changed. */
		if (obj == TC_MSG_QDISC)
			return NLM_F_CREATE | NLM_F_REPLACE;
		return NLM_F_CREATE;
	case TC_MSG_CHANGE:
	case TC_MSG_DEL:
		break;
	}
	return 0;
}

int tc_msg_dump(void *buf, size_t size, enum tc_msg_obj obj, int ifindex,
                uint32_t parent, uint32_t seq)
{
	struct tc_msg_enc e;
	uint16_t type;
	int err;

	switch (obj) {
	case TC_MSG_QDISC:
		type = RTM_GETQDISC;
		parent = 0;
		break;
	case TC_MSG_CLASS:
		type = RTM_GETTCLASS;
		parent = 0;
		break;
	case TC_MSG_FILTER:
		type = RTM_GETTFILTER;
		break;
	default:
		return -EINVAL;
	}
	err = tc_msg_begin(&e, buf, size, type, 0, seq, ifindex, 0, parent, 0);
	if (err)
		return err;
	/* tc does not ask for an ack on dumps: NLMSG_DONE ends them. */
	e.nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	return tc_msg_end(&e);
}

/* --- decoding --- */

int tc_msg_open(const void *msg, size_t len, uint16_t new_type,
                uint16_t del_type, struct tc_msg_view *v)
{
	const size_t hdr = MNL_NLMSG_HDRLEN + MNL_ALIGN(sizeof(struct tcmsg));
	struct nlmsghdr nlh;

	memset(v, 0, sizeof(*v));
	if (!msg || len < sizeof(nlh))
		return -EINVAL;
	memcpy(&nlh, msg, sizeof(nlh));
	if (nlh.nlmsg_type == new_type)
		v->deleted = false;
	else if (nlh.nlmsg_type == del_type)
		v->deleted = true;
	else
		return -ENOMSG;
	if (nlh.nlmsg_len < hdr || nlh.nlmsg_len > len)
		return -EINVAL;
	v->type = nlh.nlmsg_type;
	memcpy(&v->tcm, (const uint8_t *)msg + MNL_NLMSG_HDRLEN,
	       sizeof(v->tcm));
	v->attrs = (const uint8_t *)msg + hdr;
	v->attrs_len = nlh.nlmsg_len - hdr;
	return 0;
}

int tc_msg_next(const uint8_t *start, size_t len, size_t *off,
                struct tc_msg_attr *a)
{
	struct nlattr h;
	size_t step;

	memset(a, 0, sizeof(*a));
	if (*off >= len)
		return 0;
	if (len - *off < sizeof(h))
		return -EINVAL;
	memcpy(&h, start + *off, sizeof(h));
	if (h.nla_len < sizeof(h) || h.nla_len > len - *off)
		return -EINVAL;
	a->data = start + *off + sizeof(h);
	a->len = h.nla_len - sizeof(h);
	a->type = h.nla_type & NLA_TYPE_MASK;
	/* The last attribute may lack its padding; nothing may follow it. */
	step = MNL_ALIGN(h.nla_len);
	*off = step > len - *off ? len : *off + step;
	return 1;
}

int tc_msg_index(const uint8_t *start, size_t len, struct tc_msg_attr *tb,
                 unsigned max)
{
	struct tc_msg_attr a;
	size_t off = 0;
	int ret;

	memset(tb, 0, (max + 1) * sizeof(*tb));
	while ((ret = tc_msg_next(start, len, &off, &a)) > 0) {
		if (a.type <= max)
			tb[a.type] = a;
	}
	return ret;
}

int tc_msg_get(const struct tc_msg_attr *a, void *dst, size_t size)
{
	if (!a->data || a->len < size)
		return -EINVAL;
	memcpy(dst, a->data, size);
	return 0;
}

int tc_msg_get_u8(const struct tc_msg_attr *a, uint8_t *v)
{
	return tc_msg_get(a, v, sizeof(*v));
}

int tc_msg_get_u16(const struct tc_msg_attr *a, uint16_t *v)
{
	return tc_msg_get(a, v, sizeof(*v));
}

int tc_msg_get_u32(const struct tc_msg_attr *a, uint32_t *v)
{
	return tc_msg_get(a, v, sizeof(*v));
}

int tc_msg_get_u64(const struct tc_msg_attr *a, uint64_t *v)
{
	return tc_msg_get(a, v, sizeof(*v));
}

int tc_msg_get_str(const struct tc_msg_attr *a, char *dst, size_t size)
{
	const uint8_t *nul;

	if (!a->data || !a->len)
		return -EINVAL;
	nul = memchr(a->data, 0, a->len);
	if (!nul || (size_t)(nul - a->data) >= size)
		return -EINVAL;
	memcpy(dst, a->data, (size_t)(nul - a->data) + 1);
	return 0;
}

static int tc_msg_kind_options(const struct tc_msg_view *v,
                               char kind[TC_MSG_KIND_MAX],
                               struct tc_msg_attr *opts,
                               struct tc_msg_attr *chain)
{
	struct tc_msg_attr tb[TCA_MAX + 1];
	int err;

	err = tc_msg_index(v->attrs, v->attrs_len, tb, TCA_MAX);
	if (err)
		return err;
	err = tc_msg_get_str(&tb[TCA_KIND], kind, TC_MSG_KIND_MAX);
	if (err)
		return err;
	*opts = tb[TCA_OPTIONS];
	if (chain)
		*chain = tb[TCA_CHAIN];
	return 0;
}

int tc_msg_open_kind(const void *msg, size_t len, uint16_t new_type,
                     uint16_t del_type, struct tc_msg_view *v,
                     char kind[TC_MSG_KIND_MAX], struct tc_msg_attr *opts,
                     struct tc_msg_attr *chain)
{
	int err = tc_msg_open(msg, len, new_type, del_type, v);

	return err ? err : tc_msg_kind_options(v, kind, opts, chain);
}

/* --- ownership --- */

bool tc_msg_qdisc_is_roced(uint32_t handle)
{
	return PLAN_H_MAJ(handle) == PLAN_ROOT_MAJOR ||
	       tc_msg_leaf_queue(handle) >= 0 ||
	       tc_msg_inner_queue(handle) >= 0;
}

bool tc_msg_class_is_roced(uint32_t classid)
{
	return PLAN_H_MAJ(classid) == PLAN_ROOT_MAJOR;
}

bool tc_msg_filter_is_roced(uint16_t prio)
{
	return prio >= PLAN_FILTER_PRIO_BASE && prio <= PLAN_FILTER_PRIO_MAX;
}

int tc_msg_leaf_queue(uint32_t handle)
{
	uint32_t maj = PLAN_H_MAJ(handle);

	if (maj < PLAN_LEAF_MAJOR(0) || maj >= PLAN_LEAF_MAJOR(POLICY_NQUEUES))
		return -1;
	return (int)(maj - PLAN_LEAF_MAJOR(0));
}

int tc_msg_inner_queue(uint32_t handle)
{
	uint32_t maj = PLAN_H_MAJ(handle);

	if (maj < PLAN_INNER_MAJOR(0) ||
	    maj >= PLAN_INNER_MAJOR(POLICY_NQUEUES))
		return -1;
	return (int)(maj - PLAN_INNER_MAJOR(0));
}

int tc_msg_class_queue(uint32_t classid)
{
	uint32_t min = PLAN_H_MIN(classid);

	if (PLAN_H_MAJ(classid) != PLAN_ROOT_MAJOR ||
	    min < PLAN_HTB_QUEUE_MINOR(0) ||
	    min >= PLAN_HTB_QUEUE_MINOR(POLICY_NQUEUES))
		return -1;
	return (int)(min - PLAN_HTB_QUEUE_MINOR(0));
}

/* --- plan vs kernel --- */

static bool tc_msg_ets_same(const struct plan_ets *w, const struct plan_ets *h)
{
	if (w->nbands != h->nbands || w->nstrict != h->nstrict)
		return false;
	/* The kernel only keeps quanta of the bandwidth-sharing bands. */
	for (unsigned b = w->nstrict; b < w->nbands && b < 8; b++) {
		if (w->quanta[b] != h->quanta[b])
			return false;
	}
	return !memcmp(w->priomap, h->priomap, sizeof(w->priomap));
}

static bool tc_msg_red_same(const struct plan_red *w, const struct plan_red *h)
{
	/* max_P 0 makes the kernel derive it from Plog. */
	if (w->max_p && w->max_p != h->max_p)
		return false;
	return w->limit == h->limit && w->qth_min == h->qth_min &&
	       w->qth_max == h->qth_max && w->wlog == h->wlog &&
	       w->plog == h->plog && w->scell_log == h->scell_log &&
	       w->ecn == h->ecn && w->harddrop == h->harddrop &&
	       w->nodrop == h->nodrop;
}

static bool tc_msg_bytes_close(uint32_t a, uint32_t b, uint64_t rate);

bool tc_msg_qdisc_same(const struct plan_qdisc *want,
                       const struct plan_qdisc *have)
{
	if (want->kind != have->kind || want->handle != have->handle ||
	    want->parent != have->parent)
		return false;
	switch (want->kind) {
	case PLAN_QD_HTB:
		return want->u.htb.defcls == have->u.htb.defcls &&
		       (want->u.htb.r2q ? want->u.htb.r2q : 10) ==
		           have->u.htb.r2q;
	case PLAN_QD_ETS:
		return tc_msg_ets_same(&want->u.ets, &have->u.ets);
	case PLAN_QD_PRIO:
		return want->u.prio.bands == have->u.prio.bands &&
		       !memcmp(want->u.prio.priomap, have->u.prio.priomap,
		               sizeof(want->u.prio.priomap));
	case PLAN_QD_RED:
		return tc_msg_red_same(&want->u.red, &have->u.red);
	case PLAN_QD_BFIFO:
	case PLAN_QD_PFIFO:
		return want->u.fifo.limit == have->u.fifo.limit;
	case PLAN_QD_CLSACT:
		return true;
	case PLAN_QD_TBF:
		/* The bucket travels as whole microseconds at the rate:
		 * allow a microsecond's worth of bytes (and one) either
		 * way. */
		return want->u.tbf.rate == have->u.tbf.rate &&
		       want->u.tbf.limit == have->u.tbf.limit &&
		       tc_msg_bytes_close(want->u.tbf.burst, have->u.tbf.burst,
		                          want->u.tbf.rate);
	}
	return false;
}

static bool tc_msg_bytes_close(uint32_t a, uint32_t b, uint64_t rate)
{
	uint64_t slack = rate / 1000000u + 1;

	return (a > b ? a - b : b - a) <= slack;
}

bool tc_msg_class_same(const struct plan_class *want,
                       const struct plan_class *have)
{
	uint64_t ceil = want->ceil ? want->ceil : want->rate;
	/* HTB has 8 priorities and files anything higher under the last. */
	uint32_t prio = want->prio < 7 ? want->prio : 7;

	if (want->quantum && want->quantum != have->quantum)
		return false;
	/* Buckets travel as whole microseconds at the class's rate: allow
	 * one microsecond's worth of bytes either way. */
	if (want->burst &&
	    !tc_msg_bytes_close(want->burst, have->burst, want->rate))
		return false;
	if (want->cburst &&
	    !tc_msg_bytes_close(want->cburst, have->cburst, ceil))
		return false;
	return want->classid == have->classid && want->parent == have->parent &&
	       want->rate == have->rate && ceil == have->ceil &&
	       prio == have->prio;
}

static uint8_t tc_msg_masked_dscp(const struct plan_filter *f)
{
	return f->dscp & f->dscp_mask & 0x3f;
}

bool tc_msg_filter_same(const struct plan_filter *want,
                        const struct plan_filter *have)
{
	if (want->kind != have->kind || want->parent != have->parent ||
	    want->chain != have->chain || want->prio != have->prio ||
	    want->protocol != have->protocol ||
	    want->match_dscp != have->match_dscp ||
	    want->match_pcp != have->match_pcp || want->action != have->action)
		return false;
	if (want->vlan_ethtype != have->vlan_ethtype)
		return false;
	if (want->match_dscp &&
	    (tc_msg_masked_dscp(want) != tc_msg_masked_dscp(have) ||
	     (want->dscp_mask & 0x3f) != (have->dscp_mask & 0x3f)))
		return false;
	if (want->match_pcp && want->pcp != have->pcp)
		return false;
	/* a program is the same only instruction for instruction */
	if (want->kind == PLAN_FILTER_BPF &&
	    (want->bpf_len != have->bpf_len ||
	     memcmp(want->bpf, have->bpf,
	            want->bpf_len * sizeof(want->bpf[0]))))
		return false;
	if (want->action == PLAN_ACT_CLASSID)
		return want->classid == have->classid;
	return want->priority == have->priority;
}
