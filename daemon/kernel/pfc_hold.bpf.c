/* pfc_hold.bpf.c: software PFC's receive side in the kernel (compiled
 * with clang -target bpf at build time; bpfhold.c loads it). One copy of
 * the object per port, so its maps are that port's.
 *
 * pfc_rx (clsact ingress): a MAC Control frame (EtherType 0x8808) is
 * parsed here: an 802.1Qbb PFC frame sets, per priority it pauses, the
 * time its pause ends (quanta x 512 bit times at the port's speed from
 * now), and 0 on XON; an 802.3x link pause does the same for every
 * priority when the port honours link pause. Truncated frames and
 * unknown opcodes are counted. The frame goes on (TC_ACT_OK): roced's
 * packet socket still sees it.
 *
 * pfc_tx (clsact egress): a packet of a priority whose pause has not run
 * out leaves no earlier than that end: its departure time (skb->tstamp)
 * is set to it and the port's fq leaf holds it until then, with no
 * process involved; a pause that is not refreshed thus ends by itself
 * when its quanta run out (802.1Qbb), whatever happens to roced.
 *
 * The counters and times are read by roced from the maps (RxPPP, paused
 * time). */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/pkt_cls.h>

#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "kernel/pfc_hold_maps.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct pfc_hold_cfg);
} pfc_cfg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct pfc_hold_state);
} pfc_state SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, PFC_HOLD_NPRIO);
	__type(key, __u32);
	__type(value, struct pfc_hold_prio);
} pfc_prio SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, PFC_HOLD_NDSCP);
	__type(key, __u32);
	__type(value, __u8);
} pfc_dscp SEC(".maps");

#define MACC_ETHERTYPE 0x8808
#define MACC_PAUSE     0x0001
#define MACC_PFC       0x0101

/* Without CAP_PERFMON (roced keeps CAP_NET_ADMIN, CAP_NET_RAW and
 * CAP_BPF only) the verifier refuses to add to a pointer an offset that
 * differs by path (its Spectre v1 guard), which is what clang makes of
 * "count this counter or that one" into one map value. Making the
 * pointer opaque on one path keeps the two additions apart. */
#define pfc_hold_opaque(p) asm volatile("" : "+r"(p))

/* One quantum is 512 bit times: ns = quanta x 512 x 1000 / Mb/s. */
static __always_inline __u64 quanta_ns(__u32 quanta, __u32 mbps)
{
	if (!mbps)
		mbps = 10000;
	return (__u64)quanta * 512000ull / mbps;
}

/* Priority P asked to pause for NS from NOW (0: XON): the time the
 * frames asked for adds up as softpfc_paused_ms() counts it, and the
 * hold's end follows when the port honours P. */
static __always_inline void pause_prio(__u32 p, __u64 ns, __u64 now, int honour)
{
	struct pfc_hold_prio *h = bpf_map_lookup_elem(&pfc_prio, &p);
	__u64 until;

	if (!h)
		return;
	until = h->ask_until;
	if (until && (until < now || !ns)) {
		h->asked_ns += (until < now ? until : now) - h->ask_since;
		h->ask_until = 0;
		until = 0;
	}
	if (ns) {
		if (!until)
			h->ask_since = now;
		h->ask_until = now + ns;
		h->pause_ns = now;
		__sync_fetch_and_add(&h->rx_pause, 1);
	} else {
		/* hidden from the compiler, which would otherwise add one
		 * offset chosen on two paths to H (pfc_rx's link pause) */
		pfc_hold_opaque(h);
		__sync_fetch_and_add(&h->rx_xon, 1);
	}
	h->last_ns = now;
	if (honour)
		h->until = ns ? now + ns : 0;
}

SEC("tc")
int pfc_rx(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data;
	void *end = (void *)(long)skb->data_end;
	struct ethhdr *eth = data;
	__u8 *b = data;
	struct pfc_hold_state *st;
	struct pfc_hold_cfg *cfg;
	__u32 zero = 0;
	__u16 op, cev;
	__u64 now;

	if ((void *)(eth + 1) > end)
		return TC_ACT_OK;
	if (eth->h_proto != bpf_htons(MACC_ETHERTYPE))
		return TC_ACT_OK;
	st = bpf_map_lookup_elem(&pfc_state, &zero);
	cfg = bpf_map_lookup_elem(&pfc_cfg, &zero);
	if (!st || !cfg)
		return TC_ACT_OK;
	/* Opcode, class-enable vector and eight times: 34 bytes; a link
	 * pause needs 18. */
	if ((void *)(b + 16) > end) {
		__sync_fetch_and_add(&st->rx_malformed, 1);
		return TC_ACT_OK;
	}
	op = (__u16)(b[14] << 8 | b[15]);
	now = bpf_ktime_get_ns();
	if (op == MACC_PAUSE) {
		__u16 q;

		if ((void *)(b + 18) > end) {
			__sync_fetch_and_add(&st->rx_malformed, 1);
			return TC_ACT_OK;
		}
		q = (__u16)(b[16] << 8 | b[17]);
		if (q) {
			__sync_fetch_and_add(&st->rx_link_pause, 1);
		} else {
			pfc_hold_opaque(st);
			__sync_fetch_and_add(&st->rx_link_xon, 1);
		}
		if (!cfg->link_pause_rx)
			return TC_ACT_OK;
		st->lp_until = q ? now + quanta_ns(q, cfg->speed_mbps) : 0;
		return TC_ACT_OK;
	}
	if (op != MACC_PFC) {
		__sync_fetch_and_add(&st->rx_other, 1);
		return TC_ACT_OK;
	}
	if ((void *)(b + 34) > end) {
		__sync_fetch_and_add(&st->rx_malformed, 1);
		return TC_ACT_OK;
	}
	__sync_fetch_and_add(&st->rx_frames, 1);
	cev = (__u16)(b[16] << 8 | b[17]);
#pragma unroll
	for (__u32 p = 0; p < PFC_HOLD_NPRIO; p++) {
		__u16 q = (__u16)(b[18 + 2 * p] << 8 | b[19 + 2 * p]);

		if (!(cev & (1u << p)))
			continue;
		pause_prio(p, q ? quanta_ns(q, cfg->speed_mbps) : 0, now,
		           cfg->honour & (1u << p));
	}
	return TC_ACT_OK;
}

/* The packet's priority: its VLAN tag's PCP, else its DSCP through the
 * port's DSCP map; 8 or more when neither says. */
static __always_inline __u32 skb_prio(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data;
	void *end = (void *)(long)skb->data_end;
	struct ethhdr *eth = data;
	__u8 *b = data;
	__u8 dscp, *prio;
	__u32 key;

	if (skb->vlan_present)
		return (skb->vlan_tci >> 13) & 7;
	if ((void *)(eth + 1) > end)
		return 8;
	if (eth->h_proto == bpf_htons(ETH_P_8021Q)) {
		if ((void *)(b + 16) > end)
			return 8;
		return b[14] >> 5;
	}
	if (eth->h_proto == bpf_htons(ETH_P_IP)) {
		if ((void *)(b + 16) > end)
			return 8;
		dscp = b[15] >> 2;
	} else if (eth->h_proto == bpf_htons(ETH_P_IPV6)) {
		if ((void *)(b + 16) > end)
			return 8;
		dscp = (__u8)(((b[14] & 0x0f) << 2) | (b[15] >> 6));
	} else {
		return 8;
	}
	key = dscp & (PFC_HOLD_NDSCP - 1);
	prio = bpf_map_lookup_elem(&pfc_dscp, &key);
	return prio ? *prio : 8;
}

/* Send SKB into the loop to leave no earlier than DUE: TC_ACT_REDIRECT,
 * or TC_ACT_OK (sent on) when there is no loop or it refused. */
static __always_inline int hold_skb(struct __sk_buff *skb,
                                    struct pfc_hold_state *st,
                                    struct pfc_hold_cfg *cfg, __u64 due)
{
	int rc;

	__u64 at = 0;

	if (!cfg->loop_a)
		return TC_ACT_OK;
	/* The departure time is set as a delivery time (mono): a plain
	 * write to skb->tstamp leaves the stamp's type as it was, which
	 * for a socket's datagram is "none", and the redirect below then
	 * clears the stamp (skb_clear_tstamp): fq sent every held packet
	 * at once, and each went round the loop as fast as the CPU could
	 * take it while the pause lasted (57 packets, 118 000 passes a
	 * second, the QEMU guest's CPUs busy: the hang of the storm
	 * test). An earlier delivery time of the sender's (TCP's pacing)
	 * is kept when later; any other stamp (a receive time, of the
	 * realtime clock) is no departure time. */
	if (skb->tstamp_type == BPF_SKB_TSTAMP_DELIVERY_MONO)
		at = skb->tstamp;
	if (at < due)
		at = due;
	bpf_skb_set_tstamp(skb, at, BPF_SKB_TSTAMP_DELIVERY_MONO);
	rc = bpf_redirect(cfg->loop_a, 0);
	if (rc != TC_ACT_REDIRECT) {
		__sync_fetch_and_add(&st->loop_fail, 1);
		return TC_ACT_OK;
	}
	return rc;
}

SEC("tc")
int pfc_tx(struct __sk_buff *skb)
{
	struct pfc_hold_state *st;
	struct pfc_hold_prio *h;
	struct pfc_hold_cfg *cfg;
	__u32 zero = 0, p;
	__u64 until, now, due, wave;
	int back, rc;

	st = bpf_map_lookup_elem(&pfc_state, &zero);
	cfg = bpf_map_lookup_elem(&pfc_cfg, &zero);
	if (!st || !cfg)
		return TC_ACT_OK;
	/* A packet the loop gives back comes in through its end B. */
	back = cfg->loop_b && skb->ingress_ifindex == cfg->loop_b;
	p = skb_prio(skb);
	now = bpf_ktime_get_ns();
	/* No priority (not IP, not tagged): only link pause holds it. Kept
	 * apart from the path below, where H is never NULL: 6.1's verifier
	 * (without CAP_PERFMON) lost track of a pointer that was NULL on
	 * one path when clang merged the two. */
	if (p >= PFC_HOLD_NPRIO) {
		until = st->lp_until;
		if (until <= now)
			return TC_ACT_OK;
		due = until;
		if (cfg->recheck_ns && due > now + cfg->recheck_ns)
			due = now + cfg->recheck_ns;
		return hold_skb(skb, st, cfg, due);
	}
	h = bpf_map_lookup_elem(&pfc_prio, &p);
	if (!h)
		return TC_ACT_OK;
	until = h->until;
	if (st->lp_until > until)
		until = st->lp_until;
	/* Order within a flow. fq keeps each flow's packets in the order
	 * of their departure times (equal times in arrival order), not in
	 * their order of arrival; its first form here gave each held
	 * packet now + recheck and sent a new one on at once at a release:
	 * a packet back from a pass went behind ones that came during it,
	 * a new one overtook held ones due up to 2 ms later, and Soft-RoCE
	 * writers behind it retransmitted 14-22 %. So the held packets of
	 * a priority share one departure time, WAVE: the first packet back
	 * after it fell due sets the next and the others back join it.
	 * A new packet leaves 1 ns after the wave (or now, when that is
	 * later): behind every packet of the wave, including those of the
	 * wave before still on their way back (they join the same wave
	 * when they come, ahead of it), and it comes back with the wave to
	 * join the next. A packet back with the pause over is the oldest
	 * in the loop and is sent on; a new one waits until the loop is
	 * empty. The loop's second end hands its packets to one CPU only
	 * (bpfhold_loop.c), so that they come back in fq's order. */
	wave = h->wave;
	if (until <= now) {
		if (back || !h->inloop)
			return TC_ACT_OK;
	} else if (now >= wave && (back || !h->inloop)) {
		wave = until;
		if (cfg->recheck_ns && wave > now + cfg->recheck_ns)
			wave = now + cfg->recheck_ns;
		h->wave = wave;
	}
	if (back)
		due = wave;
	else
		due = wave + 1 > now ? wave + 1 : now;
	rc = hold_skb(skb, st, cfg, due);
	if (rc == TC_ACT_REDIRECT) {
		__sync_fetch_and_add(&h->inloop, 1);
		if (!back)
			__sync_fetch_and_add(&h->tx_held, 1);
	}
	return rc;
}

/* The loop's end B (ingress): a held packet fq let go goes back to the
 * port's egress, to pfc_tx. Only held packets travel the loop (they all
 * carry a departure time); anything else is dropped, counted. */
SEC("tc")
int pfc_loop(struct __sk_buff *skb)
{
	struct pfc_hold_state *st;
	struct pfc_hold_prio *h;
	struct pfc_hold_cfg *cfg;
	__u32 zero = 0, p;

	st = bpf_map_lookup_elem(&pfc_state, &zero);
	cfg = bpf_map_lookup_elem(&pfc_cfg, &zero);
	if (!st || !cfg || !cfg->port_ifindex)
		return TC_ACT_SHOT;
	/* Reading the stamp's type also lets the program see a delivery
	 * time at ingress (the kernel shows 0 to programs that do not) */
	if (skb->tstamp_type != BPF_SKB_TSTAMP_DELIVERY_MONO || !skb->tstamp) {
		__sync_fetch_and_add(&st->loop_stray, 1);
		return TC_ACT_SHOT;
	}
	/* Counted out here, not at pfc_tx: roced's release removes pfc_tx
	 * first and then waits for the loop to empty. */
	p = skb_prio(skb);
	h = p < PFC_HOLD_NPRIO ? bpf_map_lookup_elem(&pfc_prio, &p) : NULL;
	if (h)
		__sync_fetch_and_add(&h->inloop, -1);
	return bpf_redirect(cfg->port_ifindex, 0);
}

/* The tree states no license yet (debian/copyright); the programs use
 * no helper that only GPL programs may call. */
char LICENSE[] SEC("license") = "unstated";
