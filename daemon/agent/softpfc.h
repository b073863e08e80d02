/* softpfc: software PFC on ports without hardware DCB (veth, bridge
 * ports, tap).
 *
 * Receive: every MAC Control frame the raw-frame layer hands over (802.1Qbb
 * PFC, 802.3x link pause) is counted per priority, whether or not it is
 * honoured; a pause for a priority the port honours holds that priority
 * for quanta x 512 bit times at the port's speed, until its time runs out
 * or a pause time of 0 (XON) releases it. An 802.3x link pause, with
 * `flowcontrol receive on`, holds the whole port the same way (every
 * egress queue: compile_port.lp_hold), as a hold of its own. The agent never
 * writes to the kernel: when the set of held priorities of a port changes it
 * calls the daemon back (softpfc.changed), which puts the set into the port's
 * compile inputs (ports_watchdog.pfc_hold) and reconciles the port, so
 * that the no-drop queue's tbf leaf is held or released by compile ->
 * diff -> apply. After a release is applied, the daemon sends the port
 * a kick frame (softpfc_kick_frame) through the queue: a qdisc that
 * stopped sending is only looked at again when something is queued or a
 * timer of its own fires, which for HTB can be a second away (measured:
 * a release without the kick drained 0.3-0.7 s late, with it at once).
 *
 * Counters are roced's own (the kernel has none for software PFC): pause
 * frames received per priority (XON excluded: sonic-swss#4581), XON frames
 * received, pause and XON frames sent, the time each priority was held
 * and the time the frames received asked each priority to be paused.
 * The last is what an operator's "time paused" is: the union of the
 * spans the frames' quanta ask for (each from its kernel receive stamp,
 * a new frame replacing the time left, an XON ending it), honoured or
 * not. The time held differs from it on purpose: a hold lasts at least
 * SOFTPFC_HOLD_MIN_MS, and none is taken while the watchdog ignores a
 * storm, so during a 10 s storm it reads the ~0.1 s before detection. The
 * watchdog reads the pause count of a priority as its live counter: it goes on
 * counting while the watchdog ignores pause, so an automatic restore cannot be
 * satisfied falsely (sonic-buildimage#29203).
 */
#ifndef ROCED_SOFTPFC_H
#define ROCED_SOFTPFC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proto/pfc_frame.h"

#define SOFTPFC_IFNAME_MAX 16
/* The kick: to our own MAC, EtherType 0x88b5 (IEEE 802 local
 * experimental): a host peer drops it (not its address), a bridge drops
 * it (the destination was learnt on the port it came in by). */
#define SOFTPFC_KICK_ETHERTYPE 0x88b5
#define SOFTPFC_KICK_LEN       60
/* A hold lasts at least this long. Software PFC reacts in about a
 * millisecond or more (an apply; roced(8), HOLDING A QUEUE), and each
 * new hold refills the held tbf's one-frame bucket: holds shorter than
 * that only flap, letting a frame's worth through each time. A peer in
 * pause refreshes well within it (65535 quanta last 3.4 ms at 10 Gb/s,
 * 34 ms at 1 Gb/s). */
#define SOFTPFC_HOLD_MIN_MS 10.0
/* ... and a refresh, a pause while the priority is held already, at
 * least this long: the peer keeps pausing, and its roced, a process
 * like ours, may not run for a while: with both cores loaded, the
 * refreshes of a spine's roced (every 2 ms) reached its leaf with gaps
 * of 130-180 ms several times a second, and once 420 ms, while the leaf
 * ran; each gap longer than this released the leaf, which sent its
 * whole held queue (megabytes) into the spine's full one: 25-40 % of the
 * no-drop class lost in fabric_leafspine at 50 ms. A peer that lets go
 * sends XON, which releases at once (roced always does); this time
 * matters only for a peer that stops without one (gone, or a storm that
 * ended), whose last pause holds this long. A loaded host may also not
 * read its frames for tens of milliseconds; releasing in such a gap
 * would let a frame's worth through at the next hold and hide a storm
 * from the watchdog (nothing may leave a stormed queue for a whole
 * poll). */
#define SOFTPFC_REFRESH_MIN_MS 500.0
/* That long floor is for a peer that is a switch (its LLDP system
 * capabilities: bridge or router), whose refreshes come from a process
 * and whose release is an XON. A host, or a peer LLDP does not name,
 * gets 802.1Qbb's hold, floored at this: a NIC or a tool that pauses
 * in short bursts and lets its quanta run out must see its port go when
 * they do (pfcwd_nofalse: 20 ms of pause every 100 ms held for 500 ms
 * each was a queue stuck for good, and a false storm). */
#define SOFTPFC_REFRESH_HOST_MS 50.0
/* How long a port's answer to "is the peer a switch" is kept, ms: the
 * question is a look-up by name, too dear for every frame of a storm. */
#define SOFTPFC_PEER_CACHE_MS 1000.0
/* A hold whose time ran out while roced itself could not run (its
 * release came SOFTPFC_STALL_MS or more late) is kept a refresh's time
 * (SOFTPFC_REFRESH_MIN_MS) from then, again after each such stall, but
 * never past SOFTPFC_GRACE_MAX_MS after the peer's time ran out: a
 * whole machine stalls (measured here, both cores loaded: every process,
 * real-time ones included, stopped for 65-170 ms several times a
 * second), and the peer that refreshes every 2 ms stalled with roced;
 * whichever runs first after the stall must not be the receiver ending
 * a hold its peer still wants (a released switch sends its whole held
 * queue at once: the loss of fabric_leafspine's bridged run). */
#define SOFTPFC_STALL_MS     5.0
#define SOFTPFC_GRACE_MAX_MS 1000.0

struct softpfc_counters {
	uint64_t rx_frames, tx_frames; /* PFC frames (NX-OS RxPPP, TxPPP) */
	uint64_t rx_pause[PFC_NPRIO];  /* PFC frames pausing the priority */
	uint64_t rx_xon[PFC_NPRIO];    /* PFC frames releasing it */
	uint64_t tx_pause[PFC_NPRIO];
	uint64_t tx_xon[PFC_NPRIO];
	/* 802.3x link pause frames: pause time > 0, and 0 (XON) */
	uint64_t rx_link_pause, rx_link_xon;
	uint64_t tx_link_pause, tx_link_xon;
	uint64_t rx_malformed;
	/* Holds kept past their time because roced was stalled (see
	 * SOFTPFC_STALL_MS). */
	uint64_t stall_kept;
	/* Time held, ms, per priority (the current hold not included). */
	double held_ms[PFC_NPRIO];
	/* Time the whole port was held by link pause, ms (the same). */
	double lp_held_ms;
	/* Time the PFC frames received asked for, ms, per priority (the
	 * current span not included): softpfc_paused_ms(). */
	double asked_ms[PFC_NPRIO];
	/* When the last pause frame for the priority arrived (ms; 0:
	 * never), honoured or not: the watchdog's quiet time starts there. */
	double last_pause_ms[PFC_NPRIO];
};

struct softpfc_port {
	char ifname[SOFTPFC_IFNAME_MAX];
	uint32_t speed_mbps; /* 0: 10 Gb/s assumed */
	/* Priorities whose pause is honoured (PFC enabled and not ignored
	 * by the watchdog); link pause honoured on the whole port. */
	uint8_t honour;
	bool link_pause_rx;
	/* Each priority's hold ends at (CLOCK_MONOTONIC ms); 0: not held. */
	double until[PFC_NPRIO];
	double since[PFC_NPRIO];     /* when the hold began */
	double last_held[PFC_NPRIO]; /* how long the last hold lasted, ms */
	/* A hold that ran out while roced was stalled is kept until then
	 * (SOFTPFC_STALL_MS); 0: none. */
	double grace[PFC_NPRIO];
	uint8_t held; /* the set the daemon was last told */
	/* The whole port's hold by 802.3x link pause, apart from the
	 * priorities' (a PFC XON must not end it), and whether the daemon
	 * was last told it is held. */
	struct {
		double until, since, grace;
	} lp;
	bool lp_held;
	/* Is the peer a switch (softpfc.switch_peer), and when that was
	 * asked (0: never): SOFTPFC_PEER_CACHE_MS. */
	bool peer_switch;
	double peer_asked_ms;
	/* The span the PFC frames received ask each priority to be paused
	 * for, honoured or not: ends at UNTIL (0: none), began at SINCE. */
	struct {
		double until, since;
	} ask[PFC_NPRIO];
	struct softpfc_counters c;
	/* Software PFC's kernel path (kernel/bpfhold.h) honours the port's
	 * pause: its programs count every frame, those this process never
	 * read among them (its socket full, the process stopped), and their
	 * counts replace the receive counters above (softpfc_kernel). KOFF:
	 * what this process had counted beyond the programs when the port
	 * took the kernel path, so that no counter goes back. */
	bool kernel;
	struct softpfc_counters koff;
};

/* What software PFC's kernel path counted on a port (its maps, in this
 * file's units: ms of CLOCK_MONOTONIC): the receive counters of C
 * (rx_frames, rx_pause, rx_xon, rx_link_pause, rx_link_xon,
 * rx_malformed, asked_ms, last_pause_ms) and the span each priority is
 * asked to pause for now. */
struct softpfc_kcount {
	struct softpfc_counters c;
	struct {
		double until, since;
	} ask[PFC_NPRIO];
};

/* The set of held priorities of IFNAME changed to HELD, or its link
 * pause hold to LP_HELD (all its egress queues). */
typedef void (*softpfc_changed_fn)(void *arg, const char *ifname, uint8_t held,
                                   bool lp_held);

struct softpfc {
	struct softpfc_port *v;
	size_t n;
	softpfc_changed_fn changed;
	void *arg;
	/* Is IFNAME's peer a switch (SOFTPFC_REFRESH_MIN_MS)? NULL: every
	 * peer is taken for one. */
	bool (*switch_peer)(void *arg, const char *ifname);
	void *switch_arg;
};

void softpfc_init(struct softpfc *s, softpfc_changed_fn changed, void *arg);
void softpfc_free(struct softpfc *s);
/* IFNAME's entry, added (honouring nothing) when CREATE; NULL when absent
 * or out of memory. */
struct softpfc_port *softpfc_port(struct softpfc *s, const char *ifname,
                                  bool create);
/* Which priorities of IFNAME are honoured, link pause, and the speed the
 * quanta are counted at. A priority no longer honoured is released at
 * once (calling back when that changes the held set). Returns 0 or
 * -ENOMEM. */
int softpfc_configure(struct softpfc *s, const char *ifname, uint8_t honour,
                      bool link_pause_rx, uint32_t speed_mbps, double now);
/* Forget IFNAME (the port went or is no longer configured). */
void softpfc_remove(struct softpfc *s, const char *ifname);

/* A frame received on IFNAME (a frame_rx_fn). Frames of ports without an
 * entry are ignored. */
void softpfc_rx(void *arg, const char *ifname, const uint8_t *buf, size_t len,
                double now);
/* Release the holds whose time ran out by NOW, but for those that ran
 * out while roced was stalled (SOFTPFC_STALL_MS). */
void softpfc_expire(struct softpfc *s, double now);
/* The earliest hold end (ms), or -1 when nothing is held. */
double softpfc_next(const struct softpfc *s);

/* The kick frame for a port of MAC into BUF (SOFTPFC_KICK_LEN bytes). */
void softpfc_kick_frame(const uint8_t mac[6], uint8_t buf[SOFTPFC_KICK_LEN]);

/* The time priority P of E has been held in all, up to NOW (ms): the
 * time its peer asked for, each hold ending when its time ran out even
 * where roced released it late (a loaded host): the watchdog's pause-
 * duration counter, which must not count roced's own lateness as a
 * peer's pause (pfcwd_nofalse). */
double softpfc_held_ms(const struct softpfc_port *e, unsigned p, double now);
/* The time the PFC frames received on E asked priority P to be paused,
 * in all, up to NOW (ms): pause time x 512 bit times at the port's speed
 * from each frame's reception, a frame replacing the time left, an XON
 * ending it; whether or not roced honoured them (the watchdog may ignore
 * a storm) and without the hold's minimum. roced_pfc_paused_seconds_total
 * and show's paused-ms. */
double softpfc_paused_ms(const struct softpfc_port *e, unsigned p, double now);
/* E's receive counters (and the spans asked for) are K's from now on,
 * read at NOW: software PFC's kernel path counted them. The first call
 * after the port took that path keeps the counters where they were and
 * adds K's increments from then on. */
void softpfc_kernel(struct softpfc_port *e, const struct softpfc_kcount *k,
                    double now);
/* E counts the frames it reads itself again (the kernel path is gone),
 * on from the counters the kernel path left. */
void softpfc_user(struct softpfc_port *e);
/* The time priority P of E was paused in all up to NOW (ms), the PFC
 * watchdog's pause-duration counter: softpfc_held_ms(), or on the
 * kernel path, whose hold is exactly the time asked for while honoured,
 * softpfc_paused_ms(). */
double softpfc_duration_ms(const struct softpfc_port *e, unsigned p,
                           double now);
/* The time link pause has held E's port in all, up to NOW (ms). */
double softpfc_lp_held_ms(const struct softpfc_port *e, double now);

#endif
