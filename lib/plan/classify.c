/* classify: a frame's queue from its CoS and DSCP. See classify.h. */
#include "plan/classify.h"

#include <string.h>

#include <linux/filter.h>

#define CLASSIFY_FRAME 60

int64_t plan_bpf_run(const struct plan_bpf_insn *prog, size_t len,
                     const uint8_t *frame, size_t flen, int tagged,
                     uint16_t tci)
{
	uint32_t a = 0, x = 0, m[BPF_MEMWORDS] = {0};

	for (size_t pc = 0; pc < len; pc++) {
		const struct plan_bpf_insn *in = &prog[pc];
		uint32_t k = in->k, off, v, src;
		size_t size;

		switch (BPF_CLASS(in->code)) {
		case BPF_LD:
		case BPF_LDX:
			if (BPF_MODE(in->code) == BPF_IMM) {
				v = k;
			} else if (BPF_MODE(in->code) == BPF_MEM) {
				if (k >= BPF_MEMWORDS)
					return -1;
				v = m[k];
			} else if (BPF_MODE(in->code) == BPF_LEN) {
				v = (uint32_t)flen;
			} else if (BPF_MODE(in->code) == BPF_ABS &&
			           k >= (uint32_t)SKF_AD_OFF) {
				if (k == (uint32_t)(SKF_AD_OFF +
				                    SKF_AD_VLAN_TAG_PRESENT))
					v = tagged ? 1 : 0;
				else if (k == (uint32_t)(SKF_AD_OFF +
				                         SKF_AD_VLAN_TAG))
					v = tci;
				else
					return -1;
			} else if (BPF_MODE(in->code) == BPF_ABS ||
			           BPF_MODE(in->code) == BPF_IND) {
				off =
				    k + (BPF_MODE(in->code) == BPF_IND ? x : 0);
				size = BPF_SIZE(in->code) == BPF_W   ? 4
				       : BPF_SIZE(in->code) == BPF_H ? 2
				                                     : 1;
				if (off > flen || flen - off < size)
					return 0;
				v = 0;
				for (size_t i = 0; i < size; i++)
					v = v << 8 | frame[off + i];
			} else {
				return -1;
			}
			if (BPF_CLASS(in->code) == BPF_LD)
				a = v;
			else
				x = v;
			break;
		case BPF_ST:
		case BPF_STX:
			if (k >= BPF_MEMWORDS)
				return -1;
			m[k] = BPF_CLASS(in->code) == BPF_ST ? a : x;
			break;
		case BPF_ALU:
			src = BPF_SRC(in->code) == BPF_X ? x : k;
			switch (BPF_OP(in->code)) {
			case BPF_ADD:
				a += src;
				break;
			case BPF_SUB:
				a -= src;
				break;
			case BPF_MUL:
				a *= src;
				break;
			case BPF_DIV:
				if (!src)
					return 0;
				a /= src;
				break;
			case BPF_OR:
				a |= src;
				break;
			case BPF_AND:
				a &= src;
				break;
			case BPF_LSH:
				a = src < 32 ? a << src : 0;
				break;
			case BPF_RSH:
				a = src < 32 ? a >> src : 0;
				break;
			case BPF_NEG:
				a = -a;
				break;
			default:
				return -1;
			}
			break;
		case BPF_JMP:
			src = BPF_SRC(in->code) == BPF_X ? x : k;
			if (BPF_OP(in->code) == BPF_JA) {
				pc += k;
			} else {
				int t;

				switch (BPF_OP(in->code)) {
				case BPF_JEQ:
					t = a == src;
					break;
				case BPF_JGT:
					t = a > src;
					break;
				case BPF_JGE:
					t = a >= src;
					break;
				case BPF_JSET:
					t = (a & src) != 0;
					break;
				default:
					return -1;
				}
				pc += t ? in->jt : in->jf;
			}
			if (pc >= len)
				return -1;
			break;
		case BPF_RET:
			return BPF_RVAL(in->code) == BPF_A ? a : k;
		case BPF_MISC:
			if (BPF_MISCOP(in->code) == BPF_TAX)
				x = a;
			else
				a = x;
			break;
		default:
			return -1;
		}
	}
	return -1;
}

/* The queue of PP whose class is CLASSID; -1 when none. */
static int classify_class_queue(const struct plan_port *pp, uint32_t classid)
{
	for (size_t i = 0; i < pp->nclasses; i++)
		if (pp->classes[i].classid == classid)
			return pp->classes[i].queue;
	return -1;
}

/* A frame of PCP and DSCP, as the classifier sees it: untagged in its
 * bytes (the tag rides in the metadata, as on veth), IPv4 when it has a
 * DSCP. */
static size_t classify_frame(uint8_t *f, uint8_t dscp)
{
	memset(f, 0, CLASSIFY_FRAME);
	f[0] = 0x02; /* a unicast destination */
	f[6] = 0x02;
	if (dscp == CLASSIFY_NOT_IP) {
		f[12] = 0x88; /* local experimental EtherType */
		f[13] = 0xb5;
		return CLASSIFY_FRAME;
	}
	f[12] = 0x08;
	f[14] = 0x45;
	f[15] = (uint8_t)(dscp << 2);
	return CLASSIFY_FRAME;
}

/* The queue the filters of PP on EGRESS (the root's) or on ingress
 * (clsact's) give the frame F; -2 when none of them matches, -1 when the
 * one that matches does not say. */
static int classify_filters(const struct plan_port *pp, bool egress,
                            const uint8_t *f, size_t flen, uint8_t pcp,
                            uint8_t dscp)
{
	bool tagged = pcp != CLASSIFY_UNTAGGED;
	int best_prio = -1, q = -2;

	/* Rules run in ascending prio; the first that matches decides. */
	for (size_t i = 0; i < pp->nfilters; i++) {
		const struct plan_filter *pf = &pp->filters[i];
		int fq = -1;

		if (pf->chain ||
		    (pf->parent == PLAN_H_CLSACT_INGRESS) == egress ||
		    pf->parent == PLAN_H_CLSACT_EGRESS ||
		    (best_prio >= 0 && pf->prio >= best_prio))
			continue;
		if (pf->kind == PLAN_FILTER_BPF) {
			int64_t r =
			    plan_bpf_run(pf->bpf, pf->bpf_len, f, flen, tagged,
			                 (uint16_t)(tagged ? pcp << 13 : 0));

			if (r == 0)
				continue;
			fq = classify_class_queue(
			    pp, r == 0xffffffff ? pf->classid : (uint32_t)r);
		} else {
			if (pf->match_dscp && (dscp == CLASSIFY_NOT_IP ||
			                       (dscp & pf->dscp_mask) !=
			                           (pf->dscp & pf->dscp_mask)))
				continue;
			if (pf->match_pcp && (!tagged || pcp != pf->pcp))
				continue;
			if (!pf->match_dscp && !pf->match_pcp)
				continue;
			fq = pf->action == PLAN_ACT_SKBEDIT_PRIORITY
			         ? pf->qos_group
			         : classify_class_queue(pp, pf->classid);
		}
		best_prio = pf->prio;
		q = fq;
	}
	return q;
}

int plan_classify(const struct plan_port *pp, uint8_t pcp, uint8_t dscp)
{
	uint8_t f[CLASSIFY_FRAME];
	size_t flen = classify_frame(f, dscp);
	bool egress = false;
	int q;

	/* The root's classifier chooses the queue where there is one (it
	 * runs last); else the qos-group the ingress rules set. */
	for (size_t i = 0; i < pp->nfilters; i++)
		egress |= !pp->filters[i].chain &&
		          pp->filters[i].parent != PLAN_H_CLSACT_INGRESS &&
		          pp->filters[i].parent != PLAN_H_CLSACT_EGRESS;
	q = classify_filters(pp, egress, f, flen, pcp, dscp);
	if (q != -2)
		return q;
	/* Nothing matched: class-default, the default queue, where the
	 * plan has classes at all. */
	for (size_t i = 0; i < pp->nclasses; i++)
		if (pp->classes[i].queue == 0)
			return 0;
	return -1;
}
