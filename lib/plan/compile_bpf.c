/* compile_bpf: a qos input policy as one classic BPF program for cls_bpf.
 *
 * Kernels without flower and skbedit (this project's development kernel)
 * still have cls_bpf, and a classic BPF program sees everything a
 * class-map asks about: the VLAN priority (through the ancillary loads
 * when the tag travels in the skb's metadata, as veth and most NICs keep
 * it, or in the frame's bytes when it is still inline) and the DSCP of
 * IPv4 and IPv6, behind a tag or not. So the whole policy becomes one
 * program on the egress root that returns the class of the first
 * class-map that matches; nothing is lost to a missing classifier.
 *
 * The program has two parts. The prologue reduces the frame to three
 * scratch words, so that each class-map costs a few instructions:
 *
 *   M[0] = 1 << PCP           of a tagged frame, 0 when untagged
 *   M[1] = 1 << DSCP          when DSCP < 32, else 0 (and for non-IP)
 *   M[2] = 1 << (DSCP - 32)   when DSCP >= 32, else 0
 *
 * and then each class-map tests its CoS and DSCP sets against those with
 * `jset` (2 and at most 4 instructions) and returns its class:
 *
 *   match-any:  cos hits -> class; dscp hits -> class; else next
 *   match-all:  cos misses -> next; dscp hits -> class; else next
 *
 * A frame no class-map takes gets -1, which cls_bpf turns into the
 * filter's classid: q-default's class, where NX-OS sends class-default.
 * A frame too short for a load ends the program with 0 (no match), and
 * the root's default class takes it the same way.
 */
#include "plan/compile_int.h"

#include <errno.h>
#include <string.h>

#include <linux/filter.h>

/* Scratch words of the prologue. */
#define BPF_M_PCP     0u
#define BPF_M_DSCP_LO 1u
#define BPF_M_DSCP_HI 2u

/* Ethernet offsets: type after the two addresses; a tag inline adds 4. */
#define BPF_ETH_TYPE      12u
#define BPF_ETH_TCI       14u
#define BPF_ETH_HLEN      14u
#define BPF_ETH_VLAN_HLEN 18u

/* Jump targets are labels while the program is laid down; resolve()
 * turns them into the offsets the kernel wants. BPF_L_NEXT is the next
 * instruction. */
enum bpf_label {
	BPF_L_NEXT,
	BPF_L_INLINE, /* no tag in the metadata: look in the frame */
	BPF_L_UNTAGGED,
	BPF_L_L3, /* A = EtherType, X = offset of the network header */
	BPF_L_IP4,
	BPF_L_IP6,
	BPF_L_NONIP,
	BPF_L_DSCP, /* A = DSCP */
	BPF_L_DSCP_HI,
	BPF_L_RULES,
	BPF_L_PASS, /* this class-map matched: its return */
	BPF_L_FAIL, /* it did not: the next class-map */
	BPF_L_MAX,
};

struct bpf_emit {
	struct plan_bpf_insn *p;
	uint8_t lt[PLAN_BPF_MAX], lf[PLAN_BPF_MAX]; /* labels, until resolved */
	int at[BPF_L_MAX];                          /* label -> index, or -1 */
	unsigned n;
	unsigned from; /* first instruction whose labels are not resolved */
};

static void bpf_put(struct bpf_emit *e, uint16_t code, enum bpf_label jt,
                    enum bpf_label jf, uint32_t k)
{
	/* callers check the room first (compile_bpf_rule_cost) */
	if (e->n >= PLAN_BPF_MAX)
		return;
	e->p[e->n] = (struct plan_bpf_insn){.code = code, .k = k};
	e->lt[e->n] = (uint8_t)jt;
	e->lf[e->n] = (uint8_t)jf;
	e->n++;
}

static void bpf_stmt(struct bpf_emit *e, uint16_t code, uint32_t k)
{
	bpf_put(e, code, BPF_L_NEXT, BPF_L_NEXT, k);
}

static void bpf_label(struct bpf_emit *e, enum bpf_label l)
{
	e->at[l] = (int)e->n;
}

/* Offsets for the jumps laid down since the last resolve: every label
 * they name is placed by now, always forward and (blocks being short)
 * within a jt/jf byte. */
static void bpf_resolve(struct bpf_emit *e)
{
	for (unsigned i = e->from; i < e->n; i++) {
		struct plan_bpf_insn *in = &e->p[i];
		int t = e->lt[i] == BPF_L_NEXT ? (int)i + 1 : e->at[e->lt[i]];
		int f = e->lf[i] == BPF_L_NEXT ? (int)i + 1 : e->at[e->lf[i]];

		if (BPF_CLASS(in->code) != BPF_JMP)
			continue;
		if (BPF_OP(in->code) == BPF_JA) {
			in->k = (uint32_t)(t - (int)i - 1);
			continue;
		}
		in->jt = (uint8_t)(t - (int)i - 1);
		in->jf = (uint8_t)(f - (int)i - 1);
	}
	e->from = e->n;
	for (unsigned l = 0; l < BPF_L_MAX; l++)
		e->at[l] = -1;
}

/* A = 1 << X, into scratch word M. */
static void bpf_bit_to(struct bpf_emit *e, uint32_t m)
{
	bpf_stmt(e, BPF_LD | BPF_IMM, 1);
	bpf_stmt(e, BPF_ALU | BPF_LSH | BPF_X, 0);
	bpf_stmt(e, BPF_ST, m);
}

static void bpf_prologue(struct bpf_emit *e)
{
	/* The tag in the metadata (veth, NICs with VLAN offload). */
	bpf_stmt(e, BPF_LD | BPF_W | BPF_ABS,
	         (uint32_t)(SKF_AD_OFF + SKF_AD_VLAN_TAG_PRESENT));
	bpf_put(e, BPF_JMP | BPF_JEQ | BPF_K, BPF_L_INLINE, BPF_L_NEXT, 0);
	bpf_stmt(e, BPF_LD | BPF_W | BPF_ABS,
	         (uint32_t)(SKF_AD_OFF + SKF_AD_VLAN_TAG));
	bpf_stmt(e, BPF_ALU | BPF_RSH | BPF_K, 13);
	bpf_stmt(e, BPF_ALU | BPF_AND | BPF_K, 7);
	bpf_stmt(e, BPF_MISC | BPF_TAX, 0);
	bpf_bit_to(e, BPF_M_PCP);
	bpf_stmt(e, BPF_LD | BPF_H | BPF_ABS, BPF_ETH_TYPE);
	bpf_stmt(e, BPF_LDX | BPF_IMM, BPF_ETH_HLEN);
	bpf_put(e, BPF_JMP | BPF_JA, BPF_L_L3, BPF_L_L3, 0);

	/* The tag still in the frame (sent raw, or a kernel that keeps it
	 * inline): its TCI follows the type 0x8100. */
	bpf_label(e, BPF_L_INLINE);
	bpf_stmt(e, BPF_LD | BPF_H | BPF_ABS, BPF_ETH_TYPE);
	bpf_put(e, BPF_JMP | BPF_JEQ | BPF_K, BPF_L_NEXT, BPF_L_UNTAGGED,
	        COMPILE_ETH_P_8021Q);
	bpf_stmt(e, BPF_LD | BPF_B | BPF_ABS, BPF_ETH_TCI);
	bpf_stmt(e, BPF_ALU | BPF_RSH | BPF_K, 5);
	bpf_stmt(e, BPF_MISC | BPF_TAX, 0);
	bpf_bit_to(e, BPF_M_PCP);
	bpf_stmt(e, BPF_LD | BPF_H | BPF_ABS, BPF_ETH_TCI + 2);
	bpf_stmt(e, BPF_LDX | BPF_IMM, BPF_ETH_VLAN_HLEN);
	bpf_put(e, BPF_JMP | BPF_JA, BPF_L_L3, BPF_L_L3, 0);

	bpf_label(e, BPF_L_UNTAGGED);
	bpf_stmt(e, BPF_MISC | BPF_TAX, 0);
	bpf_stmt(e, BPF_LD | BPF_IMM, 0);
	bpf_stmt(e, BPF_ST, BPF_M_PCP);
	bpf_stmt(e, BPF_MISC | BPF_TXA, 0);
	bpf_stmt(e, BPF_LDX | BPF_IMM, BPF_ETH_HLEN);

	bpf_label(e, BPF_L_L3);
	bpf_put(e, BPF_JMP | BPF_JEQ | BPF_K, BPF_L_IP4, BPF_L_NEXT,
	        COMPILE_ETH_P_IP);
	bpf_put(e, BPF_JMP | BPF_JEQ | BPF_K, BPF_L_IP6, BPF_L_NONIP,
	        COMPILE_ETH_P_IPV6);
	/* IPv4: the DS field is byte 1, DSCP its top six bits. */
	bpf_label(e, BPF_L_IP4);
	bpf_stmt(e, BPF_LD | BPF_B | BPF_IND, 1);
	bpf_stmt(e, BPF_ALU | BPF_RSH | BPF_K, 2);
	bpf_put(e, BPF_JMP | BPF_JA, BPF_L_DSCP, BPF_L_DSCP, 0);
	/* IPv6: version (4 bits), then the traffic class: DSCP is bits
	 * 11..6 of the first 16-bit word. */
	bpf_label(e, BPF_L_IP6);
	bpf_stmt(e, BPF_LD | BPF_H | BPF_IND, 0);
	bpf_stmt(e, BPF_ALU | BPF_RSH | BPF_K, 6);
	bpf_stmt(e, BPF_ALU | BPF_AND | BPF_K, 0x3f);
	bpf_put(e, BPF_JMP | BPF_JA, BPF_L_DSCP, BPF_L_DSCP, 0);
	/* No DSCP: no DSCP set can hit. */
	bpf_label(e, BPF_L_NONIP);
	bpf_stmt(e, BPF_LD | BPF_IMM, 0);
	bpf_stmt(e, BPF_ST, BPF_M_DSCP_LO);
	bpf_stmt(e, BPF_ST, BPF_M_DSCP_HI);
	bpf_put(e, BPF_JMP | BPF_JA, BPF_L_RULES, BPF_L_RULES, 0);

	/* A shift by 32 or more is undefined in BPF: split the 64 values
	 * into two words. */
	bpf_label(e, BPF_L_DSCP);
	bpf_put(e, BPF_JMP | BPF_JGE | BPF_K, BPF_L_DSCP_HI, BPF_L_NEXT, 32);
	bpf_stmt(e, BPF_MISC | BPF_TAX, 0);
	bpf_bit_to(e, BPF_M_DSCP_LO);
	bpf_stmt(e, BPF_LD | BPF_IMM, 0);
	bpf_stmt(e, BPF_ST, BPF_M_DSCP_HI);
	bpf_put(e, BPF_JMP | BPF_JA, BPF_L_RULES, BPF_L_RULES, 0);
	bpf_label(e, BPF_L_DSCP_HI);
	bpf_stmt(e, BPF_ALU | BPF_SUB | BPF_K, 32);
	bpf_stmt(e, BPF_MISC | BPF_TAX, 0);
	bpf_bit_to(e, BPF_M_DSCP_HI);
	bpf_stmt(e, BPF_LD | BPF_IMM, 0);
	bpf_stmt(e, BPF_ST, BPF_M_DSCP_LO);
	bpf_label(e, BPF_L_RULES);
	bpf_resolve(e);
}

/* DSCP in SET: to T, else to F. */
static void bpf_dscp_test(struct bpf_emit *e, uint64_t set, enum bpf_label t,
                          enum bpf_label f)
{
	uint32_t lo = (uint32_t)set, hi = (uint32_t)(set >> 32);

	if (lo) {
		bpf_stmt(e, BPF_LD | BPF_MEM, BPF_M_DSCP_LO);
		bpf_put(e, BPF_JMP | BPF_JSET | BPF_K, t, hi ? BPF_L_NEXT : f,
		        lo);
	}
	if (hi) {
		bpf_stmt(e, BPF_LD | BPF_MEM, BPF_M_DSCP_HI);
		bpf_put(e, BPF_JMP | BPF_JSET | BPF_K, t, f, hi);
	}
}

/* Instructions a class-map takes (COS, DSCP: its sets; none: it takes
 * every frame). */
static unsigned bpf_rule_cost(uint8_t cos, uint64_t dscp)
{
	return 1u + (cos ? 2u : 0u) + ((uint32_t)dscp ? 2u : 0u) +
	       ((dscp >> 32) ? 2u : 0u);
}

static void bpf_rule(struct bpf_emit *e, uint8_t cos, uint64_t dscp,
                     bool match_all, uint32_t classid)
{
	if (cos) {
		bool and = match_all && dscp;

		bpf_stmt(e, BPF_LD | BPF_MEM, BPF_M_PCP);
		/* match-all: a miss ends the class; match-any: a hit does */
		bpf_put(e, BPF_JMP | BPF_JSET | BPF_K,
		        and? BPF_L_NEXT : BPF_L_PASS,
		        and || !dscp ? BPF_L_FAIL : BPF_L_NEXT, cos);
	}
	if (dscp)
		bpf_dscp_test(e, dscp, BPF_L_PASS, BPF_L_FAIL);
	bpf_label(e, BPF_L_PASS);
	bpf_stmt(e, BPF_RET | BPF_K, classid);
	bpf_label(e, BPF_L_FAIL);
	bpf_resolve(e);
}

int compile_bpf(struct compile_ctx *c, uint32_t parent,
                const uint32_t queue_class[POLICY_NQUEUES])
{
	struct plan_filter *pf = plan_port_add_filter(c->pp);
	struct bpf_emit e;
	size_t len;

	if (!pf)
		return -ENOMEM;
	memset(&e, 0, sizeof(e));
	e.p = pf->bpf;
	for (unsigned l = 0; l < BPF_L_MAX; l++)
		e.at[l] = -1;
	pf->kind = PLAN_FILTER_BPF;
	pf->parent = parent;
	pf->prio = PLAN_FILTER_PRIO_BASE;
	pf->protocol = COMPILE_ETH_P_ALL;
	pf->action = PLAN_ACT_CLASSID;
	pf->classid = queue_class[0];
	len = strnlen(c->qos->name, sizeof(pf->class_name) - 1);
	memcpy(pf->class_name, c->qos->name, len);
	pf->class_name[len] = '\0';

	bpf_prologue(&e);
	for (size_t i = 0; i < c->qos->nrules; i++) {
		const struct policy_qos_rule *r = &c->qos->rules[i];
		uint32_t classid = queue_class[compile_rule_group(r)];
		bool all;
		const struct policy_class_qos *cls =
		    compile_rule_class(c->p, r, &all);
		uint8_t cos = all ? 0 : cls->cos;
		uint64_t dscp = all ? 0 : cls->dscp;

		/* room for this class and the final return */
		if (e.n + bpf_rule_cost(cos, dscp) + 1 > PLAN_BPF_MAX) {
			diag_warn(
			    &c->pp->warnings, r->line,
			    "class %s and the classes after it are not "
			    "realised: the classification program (cls_bpf) "
			    "holds at most %u instructions",
			    r->class_name, PLAN_BPF_MAX);
			break;
		}
		if (!all && cls->match == POLICY_MATCH_ALL && cos && dscp)
			diag_add(
			    &c->pp->warnings, DIAG_NOTE,
			    cls->cos_line ? cls->cos_line : cls->line,
			    "class-map %s is match-all on cos and dscp: "
			    "untagged frames carry no CoS and do not match "
			    "it (use match-any to classify them on DSCP "
			    "alone)",
			    cls->name);
		bpf_rule(&e, cos, dscp, !all && cls->match == POLICY_MATCH_ALL,
		         classid);
		/* a class that takes everything leaves nothing for later
		 * ones, as in NX-OS */
		if (all)
			break;
	}
	/* no class-map matched: class-default, the filter's classid */
	bpf_stmt(&e, BPF_RET | BPF_K, UINT32_MAX);
	pf->bpf_len = (uint16_t)e.n;
	return 0;
}
