/* pfc_frame: the MAC Control frames of flow control. Pure: no I/O.
 *
 *   802.1Qbb PFC (opcode 0x0101): a class-enable vector (bit n = priority
 *   n) and eight pause times in quanta, one per priority; a time is
 *   honoured only where its enable bit is set, and 0 releases (XON).
 *   802.3x link pause (opcode 0x0001): one pause time for the whole port.
 *
 * Both go to 01:80:c2:00:00:01 with EtherType 0x8808, padded to the
 * 60-byte minimum (FCS not included). One quantum is 512 bit times at the
 * port's speed: 51.2 ns at 10 Gb/s, so 65535 quanta is 3.355 ms there.
 *
 * decode: bounds-checked; a frame that is not MAC Control, or another
 * opcode, is -ENOMSG (not ours, not an error); one too short for its
 * opcode's fields is -EBADMSG with the reason in ERR. Frames shorter than
 * the 60-byte minimum are accepted when their fields fit (a software
 * peer on a veth need not pad). One 802.1Q tag before the EtherType is
 * skipped.
 */
#ifndef ROCED_PFC_FRAME_H
#define ROCED_PFC_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PFC_ETHERTYPE_MACC 0x8808
#define PFC_OPCODE_PAUSE   0x0001
#define PFC_OPCODE_PFC     0x0101
#define PFC_MAC_CONTROL                                                        \
	{                                                                      \
		0x01, 0x80, 0xc2, 0x00, 0x00, 0x01                             \
	}
#define PFC_FRAME_MIN    60 /* Ethernet minimum without FCS */
#define PFC_NPRIO        8
#define PFC_QUANTUM_BITS 512

enum pfc_frame_kind {
	PFC_FRAME_PFC,   /* 802.1Qbb, per priority */
	PFC_FRAME_PAUSE, /* 802.3x, the whole link */
};

struct pfc_frame {
	enum pfc_frame_kind kind;
	uint8_t dst[6], src[6];
	/* PFC: the class-enable vector (bit n = priority n; the reserved
	 * upper byte of the wire's vector is dropped on decode). */
	uint8_t enable;
	/* PFC: quanta per priority; link pause: quanta[0] only. */
	uint16_t quanta[PFC_NPRIO];
};

/* A PFC frame from SRC pausing priorities ENABLE for QUANTA each (0:
 * XON), or a link pause frame (ENABLE ignored), to the MAC Control
 * address. */
void pfc_frame_make(struct pfc_frame *f, enum pfc_frame_kind kind,
                    const uint8_t src[6], uint8_t enable, uint16_t quanta);

/* Write F into BUF (at least PFC_FRAME_MIN bytes); returns the frame's
 * length (PFC_FRAME_MIN) or -ENOSPC. */
int pfc_frame_encode(const struct pfc_frame *f, uint8_t *buf, size_t len);

/* Read the LEN bytes at BUF (a whole frame from the destination address
 * on) into F. Returns 0, -ENOMSG (not a flow control frame), or -EBADMSG
 * with the reason in ERR (may be NULL). */
int pfc_frame_decode(const uint8_t *buf, size_t len, struct pfc_frame *f,
                     char *err, size_t errlen);

/* Is priority P paused by F (enabled with quanta > 0)? Released (enabled
 * with quanta 0, XON)? Link pause concerns every priority. */
bool pfc_frame_pauses(const struct pfc_frame *f, unsigned p);
bool pfc_frame_releases(const struct pfc_frame *f, unsigned p);

/* QUANTA pause quanta in nanoseconds at SPEED_MBPS (0: 10 Gb/s assumed). */
uint64_t pfc_quanta_ns(uint16_t quanta, uint32_t speed_mbps);
/* The quanta that last at least NS at SPEED_MBPS, at most 65535. */
uint16_t pfc_ns_quanta(uint64_t ns, uint32_t speed_mbps);

/* "pfc", "pause" as show and the injector write them; the parse is its
 * inverse (-1 if unknown). */
const char *pfc_frame_kind_name(enum pfc_frame_kind k);
int pfc_frame_kind_parse(const char *s);

#endif
