/* conf_int: what conf.c (the schema walk) and conf_value.c (the typed
 * getters) share. Not for use outside the config loader.
 *
 * Getters take the group GRP holding setting KEY and WHERE, the place
 * named in messages ("policy-map type queuing X class c-out-8q-q3"); they
 * return 1 when they set the value, 0 when KEY is absent, -1 after
 * reporting an error. LINE, when not NULL, receives the setting's line.
 */
#ifndef ROCED_CONF_INT_H
#define ROCED_CONF_INT_H

#include <libconfig.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "conf/conf.h"
#include "model/policy.h"
#include "model/setting.h"

/* Room for the settings table's rows in a load's cache (more rows fall
 * back to a lookup each time). */
#define CONF_ROWS_MAX 64

struct conf_ctx {
	struct policy *p;
	struct diag *d;
	/* Lines holding a literal libconfig wrapped (already reported):
	 * integers read there are dropped instead of judged again. */
	unsigned wrapped[16];
	size_t nwrapped;
	/* Each settings row's key (conf_row_key), looked up in the key
	 * table once per load rather than once per row per interface: a
	 * 256-port file spent a third of its load in those lookups. */
	bool row_keys_set;
	int row_key[CONF_ROWS_MAX];
};

/* The conf key of row R of setting_table (-1: none), from C's cache. */
int conf_row_key(struct conf_ctx *c, size_t r);

/* Where a setting sits, for messages: "policy-map type queuing X". */
#define CONF_WHERE_MAX (2 * POLICY_NAME_MAX + 64)
/* ... and of a setting inside such a place. */
#define CONF_SUBWHERE_MAX (CONF_WHERE_MAX + 32)

/* The place of the group KEY inside OUTER, for messages:
 * "random-detect of policy-map type queuing X class c-out-8q-q3". */
void conf_where_of(char *buf, size_t len, enum conf_key key, const char *outer);
/* Source line of S (0 for NULL). */
unsigned conf_line(const config_setting_t *s);
/* Report each member of GRP whose name is not among the N KEYS, with a
 * did-you-mean for near misses: a typo must not pass silently. */
void conf_check_keys(struct conf_ctx *c, const config_setting_t *grp,
                     const char *where, const enum conf_key *keys, size_t n);
/* Refuse TEXT (LEN bytes) past the bounds of conf.h, in one linear pass
 * before libconfig parses it: -1 with the error in D, else 0. */
int conf_scan_bounds(const char *text, size_t len, struct diag *d);
#define CONF_NKEYS(keys) (sizeof(keys) / sizeof((keys)[0]))
/* Member KEY if it has TYPE (GROUP, STRING or LIST); NULL when absent or
 * mistyped (mistyped is reported). */
const config_setting_t *conf_typed(struct conf_ctx *c,
                                   const config_setting_t *grp,
                                   enum conf_key key, const char *where,
                                   int type);
/* A string into DST of LEN bytes (too long is an error). */
int conf_string(struct conf_ctx *c, const config_setting_t *grp,
                enum conf_key key, const char *where, char *dst, size_t len,
                unsigned *line);
/* An integer. LO-HI is the valid range, quoted in the message; FLO-FHI
 * what the field holds: values outside it are refused here, the rest is
 * stored for policy_validate() to judge with the same wording. */
int conf_int(struct conf_ctx *c, const config_setting_t *grp, enum conf_key key,
             const char *where, long long lo, long long hi, long long flo,
             long long fhi, long long *out, unsigned *line);
/* true/false, or "on"/"off" as NX-OS writes them. */
int conf_bool(struct conf_ctx *c, const config_setting_t *grp,
              enum conf_key key, const char *where, bool *out, unsigned *line);
/* A value set 0..MAX: 3, "0-2,5", [3, 4] or ["af31", "cs3"] (DSCP names
 * when DSCP_NAMES). */
int conf_values(struct conf_ctx *c, const config_setting_t *grp,
                enum conf_key key, const char *where, unsigned max,
                bool dscp_names, uint64_t *mask, unsigned *line);
/* A size: "150 kbytes" or an integer of bytes. */
int conf_threshold(struct conf_ctx *c, const config_setting_t *grp,
                   enum conf_key key, const char *where, uint64_t *out,
                   unsigned *line);
void conf_oom(struct conf_ctx *c, const config_setting_t *s);
/* Call FN on each entry of the list KEY; entries must be groups. */
void conf_each(struct conf_ctx *c, const config_setting_t *grp,
               enum conf_key key, const char *where, void *arg,
               void (*fn)(struct conf_ctx *c, const config_setting_t *entry,
                          void *arg));
/* The required, non-empty name of a list entry; 0 or -1 (reported). */
int conf_name(struct conf_ctx *c, const config_setting_t *e, const char *what,
              char *dst, size_t len, unsigned *line);
/* Report decimal literals of TEXT that libconfig 1.5 wraps, and note
 * their lines in C. */
void conf_scan_wrapped(struct conf_ctx *c, const char *text);

/* --- the scalar settings of model/setting.h (conf_value.c) --- */

/* conf_check_keys with KEYS and the keys of PLACE's rows. */
void conf_check_place_keys(struct conf_ctx *c, const config_setting_t *grp,
                           const char *where, const enum conf_key *keys,
                           size_t n, enum setting_place place);
/* Read every row of PLACE from GRP into BASE (the place's struct). */
void conf_settings(struct conf_ctx *c, const config_setting_t *grp,
                   enum setting_place place, void *base, const char *where);

/* --- the Nexus 9000 additions (conf_nexus.c) --- */

/* `pause-buffer = { buffer-size; pause-threshold; resume-threshold; }`
 * of entry E into B (absent: B untouched). */
void conf_nx_pause_buffer(struct conf_ctx *c, const config_setting_t *e,
                          const char *where, struct policy_pause_buffer *b);
/* pause-no-drop and pause-buffer of a network-qos class entry. */
void conf_nx_nq_rule(struct conf_ctx *c, const config_setting_t *e,
                     const char *where, struct policy_nq_rule *r);
/* An ingress class entry (name c-in-qN, already parsed into N) of the
 * queuing policy M; WHERE names the policy. */
void conf_nx_in_queue(struct conf_ctx *c, const config_setting_t *e,
                      const char *where, struct policy_map_queuing *m,
                      unsigned n, unsigned line);
/* A qos class-map's precedence (its DSCP values join the class's DSCP
 * set) and description. */
void conf_nx_class_qos(struct conf_ctx *c, const config_setting_t *e,
                       const char *where, struct policy_class_qos *cl);
/* set-dscp and set-cos of a qos policy-map class. */
void conf_nx_qos_rule(struct conf_ctx *c, const config_setting_t *e,
                      const char *where, struct policy_qos_rule *r);
/* An egress queue's queue-limit and queue-limit-dynamic. */
void conf_nx_queue(struct conf_ctx *c, const config_setting_t *e,
                   const char *where, struct policy_queue *q);
/* An interface's description, mtu and shutdown. */
/* `class-map { queuing = ( { name; qos-group; } ) }` (N3K/N5K). */
void conf_nx_class_que(struct conf_ctx *c, const config_setting_t *e,
                       void *arg);
/* The egress queue a queuing policy's class NAME names when it is not a
 * system name: a queuing class-map's queue, or class-default's (0);
 * -1 when neither. */
int conf_nx_user_queue(const struct conf_ctx *c, const char *name);
/* `port-channel = ( { name = "port-channelN"; lines = ( ... ); } )`. */
void conf_nx_port_channels(struct conf_ctx *c, const config_setting_t *root);
void conf_nx_iface(struct conf_ctx *c, const config_setting_t *e,
                   const char *where, struct policy_iface *i);

#endif
