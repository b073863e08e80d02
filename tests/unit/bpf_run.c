/* bpf_run: a classic BPF interpreter for the tests. See bpf_run.h. */
#include "bpf_run.h"

#include <string.h>

#include <linux/filter.h>

#define BPF_RUN_MEMWORDS 16

/* Jump targets of instruction I, or -1 when it is not a jump. */
static void bpf_run_targets(const struct plan_bpf_insn *in, size_t i, long *t,
                            long *f)
{
	*t = *f = -1;
	if (BPF_CLASS(in->code) != BPF_JMP)
		return;
	if (BPF_OP(in->code) == BPF_JA) {
		*t = *f = (long)i + 1 + (long)in->k;
		return;
	}
	*t = (long)i + 1 + in->jt;
	*f = (long)i + 1 + in->jf;
}

int bpf_run_check(const struct plan_bpf_insn *prog, size_t n, const char **why)
{
	/* per instruction: the scratch words written on every path to it */
	uint16_t known[PLAN_BPF_MAX];
	bool reached[PLAN_BPF_MAX] = {false};

	if (!n || n > PLAN_BPF_MAX) {
		*why = "empty or too long";
		return -1;
	}
	if (BPF_CLASS(prog[n - 1].code) != BPF_RET) {
		*why = "the last instruction is not a return";
		return -1;
	}
	reached[0] = true;
	known[0] = 0;
	/* jumps go forward only, so one pass in order sees every path */
	for (size_t i = 0; i < n; i++) {
		const struct plan_bpf_insn *in = &prog[i];
		uint16_t k = known[i];
		long t, f;

		if (!reached[i])
			continue;
		if ((in->code == (BPF_LD | BPF_MEM) ||
		     in->code == (BPF_LDX | BPF_MEM)) &&
		    (in->k >= BPF_RUN_MEMWORDS || !(k & (1u << in->k)))) {
			*why = "a scratch word is read before it is written";
			return -1;
		}
		if (in->code == BPF_ST || in->code == BPF_STX) {
			if (in->k >= BPF_RUN_MEMWORDS) {
				*why = "a store past the scratch words";
				return -1;
			}
			k |= (uint16_t)(1u << in->k);
		}
		if (BPF_CLASS(in->code) == BPF_RET)
			continue;
		bpf_run_targets(in, i, &t, &f);
		if (t < 0)
			t = f = (long)i + 1;
		if (t >= (long)n || f >= (long)n) {
			*why = "a jump (or the flow) leaves the program";
			return -1;
		}
		for (int e = 0; e < 2; e++) {
			long to = e ? f : t;

			known[to] = reached[to] ? (uint16_t)(known[to] & k) : k;
			reached[to] = true;
		}
	}
	return 0;
}

static bool bpf_run_load(const struct bpf_frame *f, uint32_t off, unsigned size,
                         uint32_t *v)
{
	if (off >= f->len || f->len - off < size)
		return false;
	*v = 0;
	for (unsigned i = 0; i < size; i++)
		*v = *v << 8 | f->data[off + i];
	return true;
}

static bool bpf_run_anc(const struct bpf_frame *f, uint32_t k, uint32_t *v)
{
	switch ((int32_t)k - SKF_AD_OFF) {
	case SKF_AD_VLAN_TAG:
		*v = f->vlan_present ? f->vlan_tci : 0;
		return true;
	case SKF_AD_VLAN_TAG_PRESENT:
		*v = f->vlan_present;
		return true;
	}
	return false;
}

static uint32_t bpf_run_alu(uint16_t op, uint32_t a, uint32_t v)
{
	switch (op) {
	case BPF_ADD:
		return a + v;
	case BPF_SUB:
		return a - v;
	case BPF_MUL:
		return a * v;
	case BPF_DIV:
		return v ? a / v : 0;
	case BPF_AND:
		return a & v;
	case BPF_OR:
		return a | v;
	case BPF_LSH:
		return v < 32 ? a << v : 0;
	case BPF_RSH:
		return v < 32 ? a >> v : 0;
	case BPF_NEG:
		return -a;
	}
	return 0;
}

uint32_t bpf_run(const struct plan_bpf_insn *prog, size_t n,
                 const struct bpf_frame *f)
{
	uint32_t a = 0, x = 0, m[BPF_RUN_MEMWORDS] = {0};

	for (size_t i = 0; i < n; i++) {
		const struct plan_bpf_insn *in = &prog[i];
		uint32_t v = BPF_SRC(in->code) == BPF_X ? x : in->k;
		unsigned size;
		bool cond;

		switch (BPF_CLASS(in->code)) {
		case BPF_LD:
			size = BPF_SIZE(in->code) == BPF_W   ? 4
			       : BPF_SIZE(in->code) == BPF_H ? 2
			                                     : 1;
			if (BPF_MODE(in->code) == BPF_IMM)
				a = in->k;
			else if (BPF_MODE(in->code) == BPF_MEM)
				a = m[in->k];
			else if (BPF_MODE(in->code) == BPF_ABS &&
			         in->k >= (uint32_t)SKF_AD_OFF) {
				if (!bpf_run_anc(f, in->k, &a))
					return 0;
			} else if (BPF_MODE(in->code) == BPF_ABS) {
				if (!bpf_run_load(f, in->k, size, &a))
					return 0;
			} else if (BPF_MODE(in->code) == BPF_IND) {
				if (!bpf_run_load(f, x + in->k, size, &a))
					return 0;
			} else {
				return 0;
			}
			break;
		case BPF_LDX:
			if (BPF_MODE(in->code) == BPF_IMM)
				x = in->k;
			else if (BPF_MODE(in->code) == BPF_MEM)
				x = m[in->k];
			else
				return 0;
			break;
		case BPF_ST:
			m[in->k] = a;
			break;
		case BPF_STX:
			m[in->k] = x;
			break;
		case BPF_ALU:
			a = bpf_run_alu(BPF_OP(in->code), a, v);
			break;
		case BPF_JMP:
			if (BPF_OP(in->code) == BPF_JA) {
				i += in->k;
				break;
			}
			switch (BPF_OP(in->code)) {
			case BPF_JEQ:
				cond = a == v;
				break;
			case BPF_JGT:
				cond = a > v;
				break;
			case BPF_JGE:
				cond = a >= v;
				break;
			default:
				cond = (a & v) != 0;
				break;
			}
			i += cond ? in->jt : in->jf;
			break;
		case BPF_RET:
			return BPF_RVAL(in->code) == BPF_A ? a : in->k;
		case BPF_MISC:
			if (BPF_MISCOP(in->code) == BPF_TAX)
				x = a;
			else
				a = x;
			break;
		}
	}
	return 0;
}

/* Ethernet header (and an inline 802.1Q tag) ending in TYPE; returns
 * the offset of the network header. */
static size_t bpf_frame_l2(uint8_t *buf, int pcp, bool inline_tag,
                           uint16_t type)
{
	size_t off = 12;

	memset(buf, 0, 64);
	memcpy(buf, "\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01", 12);
	if (pcp >= 0 && inline_tag) {
		buf[off++] = 0x81;
		buf[off++] = 0x00;
		buf[off++] = (uint8_t)(pcp << 5); /* PCP, DEI 0, VID 7 */
		buf[off++] = 7;
	}
	buf[off++] = (uint8_t)(type >> 8);
	buf[off++] = (uint8_t)type;
	return off;
}

size_t bpf_frame_ipv4(uint8_t *buf, int pcp, bool inline_tag, uint8_t dscp)
{
	size_t l3 = bpf_frame_l2(buf, pcp, inline_tag, 0x0800);

	buf[l3] = 0x45;                         /* version 4, IHL 5 */
	buf[l3 + 1] = (uint8_t)(dscp << 2 | 2); /* DSCP, ECN ECT(0) */
	buf[l3 + 9] = 17;                       /* UDP */
	return l3 + 28;
}

size_t bpf_frame_ipv6(uint8_t *buf, int pcp, bool inline_tag, uint8_t dscp)
{
	size_t l3 = bpf_frame_l2(buf, pcp, inline_tag, 0x86dd);
	uint8_t tclass = (uint8_t)(dscp << 2 | 1); /* DSCP, ECN ECT(1) */

	buf[l3] = (uint8_t)(0x60 | tclass >> 4);     /* version 6, TC high */
	buf[l3 + 1] = (uint8_t)(tclass << 4 | 0x0a); /* TC low, flow label */
	buf[l3 + 6] = 17;                            /* next header UDP */
	return l3 + 40 > 64 ? 64 : l3 + 40;
}

size_t bpf_frame_arp(uint8_t *buf)
{
	return bpf_frame_l2(buf, -1, false, 0x0806) + 28;
}
