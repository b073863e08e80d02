/* bpfhold: software PFC's receive side in the kernel (pfc_hold.bpf.c),
 * loaded with libbpf onto a port's clsact: a PFC frame received holds the
 * paused priority's packets in the port's fq leaf until its quanta run
 * out, with no process between the frame and the hold.
 *
 * The programs stay attached when roced stops or dies (that is the
 * point: the hold needs no process), until bpfhold_detach or
 * bpfhold_release_ifindex (roced's stop and --release-holds) removes
 * them. A restarted roced finds them again with bpfhold_find: tc names
 * the program, the program names its maps, so nothing is pinned.
 *
 * Built without libbpf or clang's BPF target, every call fails with
 * -EOPNOTSUPP and bpfhold_built() says why. */
#ifndef ROCED_BPFHOLD_H
#define ROCED_BPFHOLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/pfc_hold_maps.h"

/* The filters' priority on clsact ingress and egress (tc's "pref"), and
 * their handle: roced's, apart from any other filter there. */
#define BPFHOLD_TC_PRIO   0x4751
#define BPFHOLD_TC_HANDLE 0x4751

/* A port's settings: the programs' configuration and untagged IP's
 * DSCP -> priority map (8 or more: none). */
struct bpfhold_conf {
	struct pfc_hold_cfg cfg;
	uint8_t dscp_prio[PFC_HOLD_NDSCP];
};

/* What the maps say. */
struct bpfhold_stats {
	struct pfc_hold_state st;
	struct pfc_hold_prio prio[PFC_HOLD_NPRIO];
};

struct bpfhold {
	int ifindex;
	int cfg_fd, state_fd, prio_fd, dscp_fd; /* -1: none */
	void *obj;           /* the libbpf object while roced loaded it */
	bool created_clsact; /* bpfhold_attach created the port's clsact */
	bool has_loop;       /* the port's loop is roced's to delete */
};

/* Whether this roced carries the programs; if not, WHY (a sentence). */
bool bpfhold_built(const char **why);

void bpfhold_init(struct bpfhold *h);
/* Load the programs for IFINDEX, set CONF, attach them to its clsact
 * (created when absent; ingress pfc_rx, egress pfc_tx) replacing roced's
 * earlier ones. 0, or -errno with ERR saying what failed and naming the
 * program the verifier refused; nothing is left attached then. */
int bpfhold_attach(struct bpfhold *h, int ifindex,
                   const struct bpfhold_conf *conf, char *err, size_t errlen);
/* The programs roced attached to IFINDEX earlier (this roced or one
 * before it): their maps are opened into H. 0, -ENOENT when none. */
int bpfhold_find(struct bpfhold *h, int ifindex);
/* Replace the port's configuration (priorities honoured, speed, map). */
int bpfhold_configure(const struct bpfhold *h, const struct bpfhold_conf *conf);
int bpfhold_read(const struct bpfhold *h, struct bpfhold_stats *out);
/* Close H's descriptors; the programs stay attached. */
void bpfhold_close(struct bpfhold *h);
/* Remove roced's programs from H's port (and its clsact when H created
 * it) and its loop, then close H. What the loop holds is let go first,
 * not dropped: every hold ends, and the loop has until its packets'
 * departure times (4 s at most) to give them back. */
void bpfhold_detach(struct bpfhold *h);
/* The same for a port roced knows nothing of: 0, or -ENOENT when no
 * program of roced's was there. */
int bpfhold_release_ifindex(int ifindex);
/* The same for every port of this namespace that has a loop of roced's
 * (--release-holds): 0 and how many in *PORTS, or -errno. */
int bpfhold_release_all(size_t *ports);

/* The time the frames received asked H's priority to be paused, up to
 * NOW_NS (ms): softpfc_paused_ms()'s meaning. */
double bpfhold_paused_ms(const struct pfc_hold_prio *h, uint64_t now_ns);

#endif
