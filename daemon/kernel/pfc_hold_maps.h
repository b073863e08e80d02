/* pfc_hold_maps: the layout of pfc_hold.bpf.c's maps, shared by the
 * program and its loader (bpfhold.c). Times are CLOCK_MONOTONIC ns, as
 * bpf_ktime_get_ns() reads them. */
#ifndef ROCED_PFC_HOLD_MAPS_H
#define ROCED_PFC_HOLD_MAPS_H

#include <linux/types.h>

#define PFC_HOLD_NPRIO 8

/* Map pfc_cfg, one entry: written by roced, read by the programs. */
struct pfc_hold_cfg {
	__u32 speed_mbps;   /* quanta are counted at it; 0: 10 Gb/s */
	__u8 honour;        /* priorities whose pause holds their queue */
	__u8 link_pause_rx; /* an 802.3x pause holds every priority */
	__u8 pad[2];
	__u32 port_ifindex; /* the port (where pfc_loop sends packets back) */
	__u32 loop_a;       /* the loop's end with the fq (bpfhold_loop.h) */
	__u32 loop_b;       /* ... and the end they come back from */
	__u32 pad2;
	/* A held packet is looked at again at least this often (ns; 0: at
	 * the pause's end only): how soon an XON releases it. */
	__u64 recheck_ns;
};

/* Untagged IP's priority: map pfc_dscp, DSCP -> priority (8 or more:
 * none), one __u8 per DSCP; written by roced. */
#define PFC_HOLD_NDSCP 64

/* Map pfc_prio, one entry per priority, written by the programs:
 * everything per priority lives here, not in an array of pfc_state,
 * because the programs look a priority up by a key they compute, which
 * 6.1's verifier allows for a map key and refuses for an index into a
 * map value. */
struct pfc_hold_prio {
	__u64 until; /* the hold ends; 0: not held */
	/* The span the frames ask the priority to be paused for, honoured
	 * or not (softpfc_paused_ms's meaning): ends at ASK_UNTIL (0: none),
	 * began at ASK_SINCE; ASKED_NS adds up the spans that ended. */
	__u64 ask_until, ask_since, asked_ns;
	__u64 last_ns;  /* the last PFC frame naming it */
	__u64 rx_pause; /* PFC frames pausing it */
	__u64 rx_xon;   /* PFC frames releasing it */
	__u64 tx_held;  /* packets sent into the loop to be held */
	__u64 inloop;   /* packets in the loop now */
	/* the last PFC frame pausing it (LAST_NS counts XONs too): where
	 * the watchdog's quiet time starts, softpfc's last_pause_ms */
	__u64 pause_ns;
	/* The departure time the priority's held packets share now (a
	 * "wave", pfc_tx's order keeping); added last so that the fields
	 * above keep their offsets. */
	__u64 wave;
};

/* Map pfc_state, one entry, written by pfc_rx. */
struct pfc_hold_state {
	__u64 lp_until;  /* the link pause hold's end */
	__u64 rx_frames; /* PFC frames (RxPPP) */
	__u64 rx_link_pause, rx_link_xon;
	__u64 rx_malformed; /* MAC Control frames cut short */
	__u64 rx_other;     /* MAC Control opcodes other than these two */
	__u64 loop_stray;   /* frames out of the loop that were not held */
	__u64 loop_fail;    /* held packets the loop refused (sent on) */
};

#endif
