/* pfc_frame: PFC and link pause frames. See pfc_frame.h. */
#include "proto/pfc_frame.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define PFC_ETH_HLEN  14
#define PFC_ETH_8021Q 0x8100
/* After the EtherType: opcode (2), then for PFC the class-enable vector
 * (2) and eight times (16); for link pause one time (2). */
#define PFC_BODY_PFC   (2 + 2 + 2 * PFC_NPRIO)
#define PFC_BODY_PAUSE (2 + 2)

static const char *const pfc_frame_kind_names[] = {
    [PFC_FRAME_PFC] = "pfc",
    [PFC_FRAME_PAUSE] = "pause",
};
#define PFC_NKINDS                                                             \
	(sizeof(pfc_frame_kind_names) / sizeof(pfc_frame_kind_names[0]))

const char *pfc_frame_kind_name(enum pfc_frame_kind k)
{
	return (unsigned)k < PFC_NKINDS ? pfc_frame_kind_names[k] : "?";
}

int pfc_frame_kind_parse(const char *s)
{
	for (unsigned i = 0; s && i < PFC_NKINDS; i++)
		if (!strcmp(s, pfc_frame_kind_names[i]))
			return (int)i;
	return -1;
}

static uint16_t pfc_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static void pfc_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

void pfc_frame_make(struct pfc_frame *f, enum pfc_frame_kind kind,
                    const uint8_t src[6], uint8_t enable, uint16_t quanta)
{
	static const uint8_t dst[6] = PFC_MAC_CONTROL;

	memset(f, 0, sizeof(*f));
	f->kind = kind;
	memcpy(f->dst, dst, 6);
	memcpy(f->src, src, 6);
	if (kind == PFC_FRAME_PAUSE) {
		f->quanta[0] = quanta;
		return;
	}
	f->enable = enable;
	for (unsigned p = 0; p < PFC_NPRIO; p++)
		if (enable & (1u << p))
			f->quanta[p] = quanta;
}

int pfc_frame_encode(const struct pfc_frame *f, uint8_t *buf, size_t len)
{
	uint8_t *b = buf + PFC_ETH_HLEN;

	if (len < PFC_FRAME_MIN)
		return -ENOSPC;
	memset(buf, 0, PFC_FRAME_MIN);
	memcpy(buf, f->dst, 6);
	memcpy(buf + 6, f->src, 6);
	pfc_put16(buf + 12, PFC_ETHERTYPE_MACC);
	if (f->kind == PFC_FRAME_PAUSE) {
		pfc_put16(b, PFC_OPCODE_PAUSE);
		pfc_put16(b + 2, f->quanta[0]);
		return PFC_FRAME_MIN;
	}
	pfc_put16(b, PFC_OPCODE_PFC);
	pfc_put16(b + 2, f->enable);
	for (unsigned p = 0; p < PFC_NPRIO; p++)
		pfc_put16(b + 4 + 2 * p, f->quanta[p]);
	return PFC_FRAME_MIN;
}

int pfc_frame_decode(const uint8_t *buf, size_t len, struct pfc_frame *f,
                     char *err, size_t errlen)
{
	size_t off = 12;
	uint16_t type, op;
	const char *why;

	if (err && errlen)
		err[0] = '\0';
	memset(f, 0, sizeof(*f));
	if (len < PFC_ETH_HLEN)
		return -ENOMSG;
	type = pfc_get16(buf + off);
	if (type == PFC_ETH_8021Q) {
		off += 4;
		if (len < off + 2)
			return -ENOMSG;
		type = pfc_get16(buf + off);
	}
	if (type != PFC_ETHERTYPE_MACC)
		return -ENOMSG;
	off += 2;
	if (len < off + 2) {
		why = "no opcode";
		goto malformed;
	}
	op = pfc_get16(buf + off);
	memcpy(f->dst, buf, 6);
	memcpy(f->src, buf + 6, 6);
	if (op == PFC_OPCODE_PAUSE) {
		if (len < off + PFC_BODY_PAUSE) {
			why = "link pause frame without its pause time";
			goto malformed;
		}
		f->kind = PFC_FRAME_PAUSE;
		f->quanta[0] = pfc_get16(buf + off + 2);
		return 0;
	}
	if (op != PFC_OPCODE_PFC)
		return -ENOMSG;
	if (len < off + PFC_BODY_PFC) {
		why = "PFC frame shorter than its eight pause times";
		goto malformed;
	}
	f->kind = PFC_FRAME_PFC;
	/* The vector's upper byte is reserved: priorities are 0-7. */
	f->enable = (uint8_t)pfc_get16(buf + off + 2);
	for (unsigned p = 0; p < PFC_NPRIO; p++)
		f->quanta[p] = pfc_get16(buf + off + 4 + 2 * p);
	return 0;

malformed:
	if (err && errlen)
		snprintf(err, errlen, "%s (%zu bytes)", why, len);
	return -EBADMSG;
}

bool pfc_frame_pauses(const struct pfc_frame *f, unsigned p)
{
	if (p >= PFC_NPRIO)
		return false;
	if (f->kind == PFC_FRAME_PAUSE)
		return f->quanta[0] > 0;
	return (f->enable & (1u << p)) && f->quanta[p] > 0;
}

bool pfc_frame_releases(const struct pfc_frame *f, unsigned p)
{
	if (p >= PFC_NPRIO)
		return false;
	if (f->kind == PFC_FRAME_PAUSE)
		return f->quanta[0] == 0;
	return (f->enable & (1u << p)) && f->quanta[p] == 0;
}

uint64_t pfc_quanta_ns(uint16_t quanta, uint32_t speed_mbps)
{
	uint64_t mbps = speed_mbps ? speed_mbps : 10000;

	/* bits / (Mb/s) = microseconds; x 1000 for ns, rounded up. */
	return ((uint64_t)quanta * PFC_QUANTUM_BITS * 1000 + mbps - 1) / mbps;
}

uint16_t pfc_ns_quanta(uint64_t ns, uint32_t speed_mbps)
{
	uint64_t mbps = speed_mbps ? speed_mbps : 10000;
	uint64_t q;

	if (ns > UINT64_MAX / 2 / mbps)
		return 65535;
	q = (ns * mbps + PFC_QUANTUM_BITS * 1000 - 1) /
	    (PFC_QUANTUM_BITS * 1000);

	return q > 65535 ? 65535 : (uint16_t)q;
}
