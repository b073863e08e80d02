/* tcomp: the scaffolding of the compile tests (test_compile and the
 * test_compile_*.c files linked with it, test_compile_dcbx): policies
 * built through the policy_add_* API, one port compiled, the plan's
 * objects and messages looked up. tcomp.c holds them. */
#ifndef ROCED_TCOMP_H
#define ROCED_TCOMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan/compile_int.h"

#define ROOT    PLAN_H_MAKE(PLAN_ROOT_MAJOR, 0)
#define LEAF(q) PLAN_H_MAKE(PLAN_LEAF_MAJOR(q), 0)
#define BAND(b) PLAN_H_MAKE(PLAN_ROOT_MAJOR, (b) + 1)
#define HTBQ(q) PLAN_H_MAKE(PLAN_ROOT_MAJOR, PLAN_HTB_QUEUE_MINOR(q))
#define HTBTOP  PLAN_H_MAKE(PLAN_ROOT_MAJOR, PLAN_HTB_ROOT_MINOR)
#define FRAME   (9216u + 18u) /* reference MTU + L2 overhead */

/* The handle of queue Q's inner qdisc (the red inside a no-drop tbf). */
#define INNER(q) PLAN_H_MAKE(PLAN_INNER_MAJOR(q), 0)
#define SPEED_B  1250000000ull /* 10000 Mb/s default, bytes/s */
/* A no-drop queue's limit with the reference policy at the default
 * speed: twice the headroom (4.2 ms at 10 Gb/s, and a frame each way),
 * so that roced's default xoff, the limit less the headroom, leaves the
 * whole headroom above it. */
#define NODROP_LIMIT (2 * (SPEED_B * 42 / 10000 + 2 * FRAME))
#define KB(n)        ((uint64_t)(n)*1024u)

struct policy_class_qos *tcomp_add_class(struct policy *p, const char *name,
                                         enum policy_match m, uint8_t cos,
                                         uint64_t dscp);
/* GROUP < 0: the rule has no `set qos-group`. */
void tcomp_add_rule(struct policy_map_qos *m, const char *cls, int group);
/* PERCENT < 0: no bandwidth statement; LEVEL > 0: strict. */
struct policy_queue *tcomp_set_queue(struct policy_map_queuing *m, unsigned q,
                                     int percent, int level);
void tcomp_set_wred(struct policy_queue *pq, uint64_t min, uint64_t max,
                    unsigned prob, unsigned weight);
/* Class-map type network-qos CLS (qos-group GROUP) and policy-map MAP
 * with one rule for it, `pause pfc-cos COS` (COS < 0: none), MAP the
 * system's network-qos policy. Returns the map. */
struct policy_map_nq *tcomp_add_nq(struct policy *p, const char *cls,
                                   const char *map, unsigned group, int cos);
/* Interface NAME in PFC mode MODE with these service policies (NULL:
 * none). */
struct policy_iface *tcomp_add_iface(struct policy *p, const char *name,
                                     enum policy_pfc_mode mode,
                                     const char *qos_input,
                                     const char *queuing_output);
/* The reference policy with interface eth1 in PFC mode MODE. */
struct policy_iface *tcomp_ref_policy(struct policy *p,
                                      enum policy_pfc_mode mode);

/* CP: port IFNAME with PRESET's capabilities and no other input. */
void tcomp_port(struct compile_port *cp, const char *ifname,
                enum caps_preset preset);
/* Compile P for the one port CP into PL (initialised here); the test
 * fails on a compile error. */
const struct plan_port *tcomp_run_port(const struct policy *p,
                                       const struct compile_port *cp,
                                       struct plan *pl);
/* Compile P for one port IFNAME into PL (initialised here). */
const struct plan_port *tcomp_run(const struct policy *p, const char *ifname,
                                  const struct caps *caps, struct plan *pl);
const struct plan_port *tcomp_run_preset(const struct policy *p,
                                         const char *ifname,
                                         enum caps_preset preset,
                                         struct plan *pl);
/* The object with this handle/classid; the test fails without one. */
const struct plan_qdisc *tcomp_qdisc(const struct plan_port *pp,
                                     uint32_t handle);
const struct plan_class *tcomp_class(const struct plan_port *pp,
                                     uint32_t classid);
size_t tcomp_count_msgs(const struct plan_port *pp, enum diag_severity sev,
                        const char *needle);
/* Exactly one warning contains NEEDLE / exactly N warnings. */
void tcomp_want_warning(const struct plan_port *pp, const char *needle);
void tcomp_want_nwarnings(const struct plan_port *pp, size_t n);

/* The tc-part tests (test_compile_tc.c); returns the failure count. */
int tcomp_run_tc_tests(void);
/* Software PFC and the watchdog in the plan (test_compile_pfc.c). */
int tcomp_run_pfc_tests(void);
int tcomp_run_pfc_agents_tests(void);
/* The reference policy on one port (eth1, PRESET) with these software PFC
 * and watchdog inputs (test_compile_pfc.c). */
const struct plan_port *tcomp_run_pfc(struct policy *p, enum caps_preset preset,
                                      bool softpfc, uint8_t hold, uint8_t shut,
                                      struct plan *pl);
/* The cls_bpf program tests (test_compile_bpf.c); the same. */
int tcomp_run_bpf_tests(void);

#endif
