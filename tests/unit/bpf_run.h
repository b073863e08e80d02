/* bpf_run: a classic BPF interpreter for the unit tests, so that the
 * programs compile_bpf.c writes are judged by what they return for a
 * frame, not by their instructions. It follows the kernel's rules for a
 * socket filter run by cls_bpf: loads past the frame end the program with
 * 0, the ancillary loads of the VLAN tag read the skb's metadata, and a
 * program that the kernel's checker would refuse (a jump out of the
 * program, a scratch word read before it is written on some path, no
 * return at the end) is refused here too.
 */
#ifndef ROCED_BPF_RUN_H
#define ROCED_BPF_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/plan.h"

/* A frame as cls_bpf sees it on egress: the bytes from the Ethernet
 * header, and the VLAN tag when it travels in the metadata. */
struct bpf_frame {
	const uint8_t *data;
	size_t len;
	bool vlan_present;
	uint16_t vlan_tci;
};

/* Check PROG (N instructions) as the kernel would: 0, or -1 with WHY. */
int bpf_run_check(const struct plan_bpf_insn *prog, size_t n, const char **why);
/* The program's return value for F. */
uint32_t bpf_run(const struct plan_bpf_insn *prog, size_t n,
                 const struct bpf_frame *f);

/* Frames for the tests, written into BUF (room for 64 bytes); the
 * length is returned. PCP < 0: untagged. INLINE: the tag is in the bytes
 * (else F's metadata carries it, set by the caller). */
size_t bpf_frame_ipv4(uint8_t *buf, int pcp, bool inline_tag, uint8_t dscp);
size_t bpf_frame_ipv6(uint8_t *buf, int pcp, bool inline_tag, uint8_t dscp);
size_t bpf_frame_arp(uint8_t *buf);

#endif
