/* contrib_kernel: the kernel side of contrib.h. An eBPF socket filter on
 * a packet socket of roced's counts every frame coming in per (ingress
 * port, destination MAC, CoS, DSCP, IPv4 or IPv6 destination) in an LRU
 * hash map and returns 0, so
 * that nothing is queued to the socket; the map is read with one batch
 * lookup. The bridges' forwarding databases come from an RTM_GETNEIGH
 * dump of family AF_BRIDGE on the daemon's netlink socket. */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <libmnl/libmnl.h>

#include "agent/contrib.h"
#include "kernel/nlb.h"
#include "plan/classify.h"

#ifndef PACKET_IGNORE_OUTGOING
#define PACKET_IGNORE_OUTGOING 23
#endif
#ifndef SO_ATTACH_BPF
#define SO_ATTACH_BPF 50
#endif

/* The map's key, as the program lays it down on its stack. */
struct ck_key {
	uint32_t ifindex;
	uint32_t mac_hi; /* bytes 0-3 of the MAC, as a number */
	uint16_t mac_lo; /* bytes 4-5 */
	uint8_t pcp, dscp;
	/* The IPv6 destination as four numbers (the loads give host
	 * order), an IPv4 one mapped into IPv6 (::ffff:a.b.c.d, which no
	 * IPv6 frame is routed to), or 0: not IP. */
	uint32_t daddr[4];
};
#define CK_KEY   (-32) /* where the program keeps it, from its frame */
#define CK_AT(f) ((int16_t)(CK_KEY + (int)offsetof(struct ck_key, f)))

struct ck_state {
	int map, prog, sock;
};

static int ck_bpf(int cmd, union bpf_attr *a)
{
	long rc = syscall(__NR_bpf, cmd, a, sizeof(*a));

	return rc < 0 ? -errno : (int)rc;
}

#define I(c, d, s, o, i)                                                       \
	((struct bpf_insn){.code = (c),                                        \
	                   .dst_reg = (d),                                     \
	                   .src_reg = (s),                                     \
	                   .off = (o),                                         \
	                   .imm = (i)})
#define MOV_R(d, s)      I(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define MOV_K(d, k)      I(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, k)
#define ALU_K(op, d, k)  I(BPF_ALU64 | (op) | BPF_K, d, 0, 0, k)
#define LDX(sz, d, s, o) I(BPF_LDX | BPF_MEM | (sz), d, s, o, 0)
#define STX(sz, d, s, o) I(BPF_STX | BPF_MEM | (sz), d, s, o, 0)
#define LD_ABS(sz, k)    I(BPF_LD | BPF_ABS | (sz), 0, 0, 0, k)
#define LD_IND(sz, s, k) I(BPF_LD | BPF_IND | (sz), 0, s, 0, k)
#define JEQ_K(d, k, o)   I(BPF_JMP | BPF_JEQ | BPF_K, d, 0, o, k)
#define JNE_K(d, k, o)   I(BPF_JMP | BPF_JNE | BPF_K, d, 0, o, k)
#define JA(o)            I(BPF_JMP | BPF_JA, 0, 0, o, 0)
#define CALL(f)          I(BPF_JMP | BPF_CALL, 0, 0, 0, f)
#define EXIT()           I(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
#define SKB(f)           ((int16_t)offsetof(struct __sk_buff, f))

/* The program; MAP is the map's fd. Key at fp-32 (struct ck_key, 28
 * bytes), the value for a new key at fp-40; r6 the skb (for the packet
 * loads), r8 the network header's offset, r9 the EtherType. */
static size_t ck_program(struct bpf_insn *p, int map)
{
	size_t n = 0, notag, l3a, l3b, ip4, ip6, count, count2, count3, isnew;

	p[n++] = MOV_R(6, 1);
	p[n++] = MOV_K(7, 0);
	for (int off = CK_KEY; off < 0; off += 8)
		p[n++] = STX(BPF_DW, 10, 7, (int16_t)off);
	p[n++] = LDX(BPF_W, 0, 6, SKB(ifindex));
	p[n++] = STX(BPF_W, 10, 0, CK_AT(ifindex));
	p[n++] = LD_ABS(BPF_W, 0);
	p[n++] = STX(BPF_W, 10, 0, CK_AT(mac_hi));
	p[n++] = LD_ABS(BPF_H, 4);
	p[n++] = STX(BPF_H, 10, 0, CK_AT(mac_lo));
	p[n++] = MOV_K(8, 14);
	p[n++] = LDX(BPF_W, 0, 6, SKB(vlan_present));
	notag = n;
	p[n++] = JEQ_K(0, 0, 0); /* -> NOTAG */
	p[n++] = LDX(BPF_W, 0, 6, SKB(vlan_tci));
	p[n++] = ALU_K(BPF_RSH, 0, 13);
	p[n++] = STX(BPF_B, 10, 0, CK_AT(pcp));
	p[n++] = LD_ABS(BPF_H, 12);
	p[n++] = MOV_R(9, 0);
	l3a = n;
	p[n++] = JA(0); /* -> L3 */
	p[notag].off = (int16_t)(n - notag - 1);
	p[n++] = MOV_K(0, CLASSIFY_UNTAGGED);
	p[n++] = STX(BPF_B, 10, 0, CK_AT(pcp));
	p[n++] = LD_ABS(BPF_H, 12);
	p[n++] = MOV_R(9, 0);
	l3b = n;
	p[n++] = JNE_K(9, ETH_P_8021Q, 0); /* -> L3 */
	p[n++] = LD_ABS(BPF_B, 14);
	p[n++] = ALU_K(BPF_RSH, 0, 5);
	p[n++] = STX(BPF_B, 10, 0, CK_AT(pcp));
	p[n++] = LD_ABS(BPF_H, 16);
	p[n++] = MOV_R(9, 0);
	p[n++] = MOV_K(8, 18);
	/* L3 */
	p[l3a].off = (int16_t)(n - l3a - 1);
	p[l3b].off = (int16_t)(n - l3b - 1);
	p[n++] = MOV_K(0, CLASSIFY_NOT_IP);
	p[n++] = STX(BPF_B, 10, 0, CK_AT(dscp));
	ip4 = n;
	p[n++] = JEQ_K(9, ETH_P_IP, 0);
	ip6 = n;
	p[n++] = JEQ_K(9, ETH_P_IPV6, 0);
	count = n;
	p[n++] = JA(0);
	p[ip4].off = (int16_t)(n - ip4 - 1);
	p[n++] = LD_IND(BPF_B, 8, 1);
	p[n++] = ALU_K(BPF_RSH, 0, 2);
	p[n++] = STX(BPF_B, 10, 0, CK_AT(dscp));
	/* The destination: where a routed port's feeders send it. */
	p[n++] = LD_IND(BPF_W, 8, 16);
	p[n++] = STX(BPF_W, 10, 0, CK_AT(daddr[3]));
	p[n++] = MOV_K(0, 0xffff);
	p[n++] = STX(BPF_W, 10, 0, CK_AT(daddr[2]));
	count2 = n;
	p[n++] = JA(0);
	p[ip6].off = (int16_t)(n - ip6 - 1);
	p[n++] = LD_IND(BPF_H, 8, 0);
	p[n++] = ALU_K(BPF_RSH, 0, 6);
	p[n++] = ALU_K(BPF_AND, 0, 0x3f);
	p[n++] = STX(BPF_B, 10, 0, CK_AT(dscp));
	/* The destination, bytes 24-39 of the fixed header whatever
	 * extension headers follow it. */
	for (int w = 0; w < 4; w++) {
		p[n++] = LD_IND(BPF_W, 8, 24 + 4 * w);
		p[n++] = STX(BPF_W, 10, 0, (int16_t)(CK_AT(daddr) + 4 * w));
	}
	/* COUNT */
	p[count].off = (int16_t)(n - count - 1);
	p[count2].off = (int16_t)(n - count2 - 1);
	p[n++] = I(BPF_LD | BPF_DW | BPF_IMM, 1, BPF_PSEUDO_MAP_FD, 0, map);
	p[n++] = I(0, 0, 0, 0, 0);
	p[n++] = MOV_R(2, 10);
	p[n++] = ALU_K(BPF_ADD, 2, CK_KEY);
	p[n++] = CALL(BPF_FUNC_map_lookup_elem);
	isnew = n;
	p[n++] = JEQ_K(0, 0, 0); /* -> NEW */
	p[n++] = MOV_K(1, 1);
	p[n++] = I(BPF_STX | BPF_ATOMIC | BPF_DW, 0, 1, 0, BPF_ADD);
	count3 = n;
	p[n++] = JA(0); /* -> OUT */
	p[isnew].off = (int16_t)(n - isnew - 1);
	p[n++] = MOV_K(1, 1);
	p[n++] = STX(BPF_DW, 10, 1, CK_KEY - 8);
	p[n++] = I(BPF_LD | BPF_DW | BPF_IMM, 1, BPF_PSEUDO_MAP_FD, 0, map);
	p[n++] = I(0, 0, 0, 0, 0);
	p[n++] = MOV_R(2, 10);
	p[n++] = ALU_K(BPF_ADD, 2, CK_KEY);
	p[n++] = MOV_R(3, 10);
	p[n++] = ALU_K(BPF_ADD, 3, CK_KEY - 8);
	p[n++] = MOV_K(4, BPF_ANY);
	p[n++] = CALL(BPF_FUNC_map_update_elem);
	/* OUT: nothing for the socket */
	p[count3].off = (int16_t)(n - count3 - 1);
	p[n++] = MOV_K(0, 0);
	p[n++] = EXIT();
	return n;
}

static void ck_close(void *impl, void *state)
{
	struct ck_state *s = state;

	(void)impl;
	if (!s)
		return;
	if (s->sock >= 0)
		close(s->sock);
	if (s->prog >= 0)
		close(s->prog);
	if (s->map >= 0)
		close(s->map);
	free(s);
}

static int ck_open(void *impl, void **state)
{
	struct ck_state *s = calloc(1, sizeof(*s));
	struct bpf_insn prog[128];
	union bpf_attr a;
	size_t n;
	int one = 1, rcv = 1, rc;

	(void)impl;
	if (!s)
		return -ENOMEM;
	s->map = s->prog = s->sock = -1;
	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_LRU_HASH;
	a.key_size = sizeof(struct ck_key);
	a.value_size = sizeof(uint64_t);
	a.max_entries = CONTRIB_MAP_MAX;
	memcpy(a.map_name, "roced_contrib", sizeof("roced_contrib"));
	rc = ck_bpf(BPF_MAP_CREATE, &a);
	if (rc < 0)
		goto fail;
	s->map = rc;
	n = ck_program(prog, s->map);
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	a.insns = (uint64_t)(uintptr_t)prog;
	a.insn_cnt = (uint32_t)n;
	a.license = (uint64_t)(uintptr_t) "GPL";
	memcpy(a.prog_name, "roced_contrib", sizeof("roced_contrib"));
	rc = ck_bpf(BPF_PROG_LOAD, &a);
	if (rc < 0)
		goto fail;
	s->prog = rc;
	s->sock = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK,
	                 htons(ETH_P_ALL));
	if (s->sock < 0) {
		rc = -errno;
		goto fail;
	}
	/* Only what comes in; the smallest buffer, which nothing fills. */
	setsockopt(s->sock, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one,
	           sizeof(one));
	setsockopt(s->sock, SOL_SOCKET, SO_RCVBUF, &rcv, sizeof(rcv));
	if (setsockopt(s->sock, SOL_SOCKET, SO_ATTACH_BPF, &s->prog,
	               sizeof(s->prog)) < 0) {
		rc = -errno;
		goto fail;
	}
	*state = s;
	return 0;
fail:
	ck_close(impl, s);
	return rc;
}

/* K's destination into E: its family, and the address as the kernel
 * carries it. */
static void ck_daddr(const struct ck_key *k, struct contrib_entry *e)
{
	const uint32_t *d = k->daddr;

	if (!d[0] && !d[1] && !d[2] && !d[3])
		return;
	if (!d[0] && !d[1] && d[2] == 0xffff) {
		e->family = AF_INET;
		e->daddr = route_ip4(d[3]);
		return;
	}
	e->family = AF_INET6;
	for (int w = 0; w < 4; w++)
		for (int b = 0; b < 4; b++)
			e->daddr.b[4 * w + b] = (uint8_t)(d[w] >> (24 - 8 * b));
}

#define CK_BATCH 256

static int ck_read(void *impl, void *state, contrib_entry_fn cb, void *arg)
{
	struct ck_state *s = state;
	struct ck_key keys[CK_BATCH];
	uint64_t vals[CK_BATCH], token = 0;
	bool first = true;

	(void)impl;
	for (;;) {
		union bpf_attr a;
		int rc;

		memset(&a, 0, sizeof(a));
		a.batch.in_batch = first ? 0 : (uint64_t)(uintptr_t)&token;
		a.batch.out_batch = (uint64_t)(uintptr_t)&token;
		a.batch.keys = (uint64_t)(uintptr_t)keys;
		a.batch.values = (uint64_t)(uintptr_t)vals;
		a.batch.count = CK_BATCH;
		a.batch.map_fd = (uint32_t)s->map;
		rc = ck_bpf(BPF_MAP_LOOKUP_BATCH, &a);
		if (rc < 0 && rc != -ENOENT)
			return rc;
		for (uint32_t i = 0; i < a.batch.count && i < CK_BATCH; i++) {
			struct contrib_entry e = {
			    .ifindex = (int)keys[i].ifindex,
			    .pcp = keys[i].pcp,
			    .dscp = keys[i].dscp,
			    .packets = vals[i],
			};

			ck_daddr(&keys[i], &e);

			e.mac[0] = (uint8_t)(keys[i].mac_hi >> 24);
			e.mac[1] = (uint8_t)(keys[i].mac_hi >> 16);
			e.mac[2] = (uint8_t)(keys[i].mac_hi >> 8);
			e.mac[3] = (uint8_t)keys[i].mac_hi;
			e.mac[4] = (uint8_t)(keys[i].mac_lo >> 8);
			e.mac[5] = (uint8_t)keys[i].mac_lo;
			cb(arg, &e);
		}
		if (rc == -ENOENT)
			return 0;
		first = false;
	}
}

struct ck_fdb {
	contrib_fdb_fn cb;
	void *arg;
};

static int ck_fdb_cb(const struct nlmsghdr *nlh, void *data)
{
	struct ck_fdb *d = data;
	const struct ndmsg *ndm = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *at;
	struct contrib_fdb e = {0};
	bool mac = false;

	if (nlh->nlmsg_type != RTM_NEWNEIGH ||
	    mnl_nlmsg_get_payload_len(nlh) < sizeof(*ndm) ||
	    ndm->ndm_family != AF_BRIDGE)
		return MNL_CB_OK;
	e.port = ndm->ndm_ifindex;
	/* The kernel marks the bridge's own addresses permanent (a user's
	 * static entry is NUD_NOARP). */
	e.local = ndm->ndm_state & NUD_PERMANENT;
	mnl_attr_for_each(at, nlh, sizeof(*ndm))
	{
		if (mnl_attr_get_type(at) == NDA_LLADDR &&
		    mnl_attr_get_payload_len(at) == 6) {
			memcpy(e.mac, mnl_attr_get_payload(at), 6);
			mac = true;
		} else if (mnl_attr_get_type(at) == NDA_MASTER &&
		           mnl_attr_get_payload_len(at) == 4) {
			e.master = (int)mnl_attr_get_u32(at);
		}
	}
	/* The bridge's own entries (self) are not its forwarding. */
	if (mac && e.master)
		d->cb(d->arg, &e);
	return MNL_CB_OK;
}

static int ck_fdb(void *impl, contrib_fdb_fn cb, void *arg)
{
	char buf[MNL_SOCKET_BUFFER_SIZE] __attribute__((aligned(4)));
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ndmsg *ndm;
	struct ck_fdb d = {cb, arg};
	struct nlb_error nerr;

	if (!impl)
		return -ENOTCONN;
	nlh->nlmsg_type = RTM_GETNEIGH;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	ndm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ndm));
	ndm->ndm_family = AF_BRIDGE;
	return nlb_dump(impl, nlh, ck_fdb_cb, &d, &nerr);
}

const struct contrib_ops contrib_ops_kernel = {
    .open = ck_open,
    .close = ck_close,
    .read = ck_read,
    .fdb = ck_fdb,
};
