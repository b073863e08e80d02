/* Internals of the traffic.conf import, shared by its reader
 * (conf_cumulus.c) and its writer (conf_cumulus_write.c). */
#ifndef ROCED_CONF_CUMULUS_INT_H
#define ROCED_CONF_CUMULUS_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "conf/conf_cumulus.h"

#define CU_GROUPS     16
#define CU_PORTS      512
#define CU_NAME       48
#define CU_VALUE_MAX  4096
#define CU_LIST_ITEMS 64

/* Cumulus's documented defaults for the default ECN profile of
 * qos_features.conf. */
#define CU_DEF_ECN_MIN  150000
#define CU_DEF_ECN_MAX  1500000
#define CU_DEF_ECN_PROB 100

/* Cumulus's documented defaults for a PFC or link pause port group. */
#define CU_DEF_BUFFER    25000
#define CU_DEF_XOFF      10000
#define CU_DEF_XON_DELTA 2000

enum cu_kind {
	CU_PFC,
	CU_LP,
	CU_ECN,
	CU_NKIND
};

extern const char *const cu_kind_key[CU_NKIND];

struct cu_group {
	char name[CU_NAME];
	unsigned line; /* first mention */
	bool listed;   /* named in KIND.port_group_list */
	uint8_t cos;
	bool has_cos;
	unsigned cos_line;
	int port0, nports; /* a slice of cu.ports */
	unsigned ports_line;
	uint64_t buffer, xoff, xon_delta;
	unsigned buffer_line;
	bool tx, rx;
	/* ECN: thresholds in bytes, marking probability in percent; an
	 * ecn_red group may ask for RED without ECN. */
	uint64_t min_th, max_th;
	unsigned prob, th_line;
	bool ecn;
};

struct cu_pgroup {
	char name[CU_NAME];
	unsigned line;
	bool listed;
	uint8_t cos;
	bool has_cos;
	unsigned weight;
	bool has_weight;
};

struct cu {
	struct diag *d;
	bool src_pcp, src_dscp, has_srcset;
	unsigned srcset_line;
	uint8_t pcp[8];   /* internal CoS N <- 802.1p values */
	uint64_t dscp[8]; /* internal CoS N <- DSCP values */
	unsigned map_line[8];
	unsigned pcp_line[8]; /* where CoS N's 802.1p values were given */
	bool traffic_conf;    /* a key only a traffic.conf has was seen */
	struct cu_group g[CU_NKIND][CU_GROUPS];
	int ng[CU_NKIND];
	struct cu_pgroup pg[CU_GROUPS];
	int npg;
	bool has_pglist; /* traffic.priority_group_list was given */
	char ports[CU_PORTS][CUMULUS_IFNAMSIZ];
	int nports;
	unsigned skipped; /* lines that could not be read */
	/* qos_features.conf (Cumulus Linux 4.x, 5.x): the default egress
	 * scheduler's bw_percent per queue (0: strict), and the default
	 * ECN/RED profile, which applies to every port. */
	int sched_pct[8];
	bool has_sched[8];
	unsigned sched_line;
	struct cu_group def_ecn;
	bool has_def_ecn;
	/* NVUE commands (`nv config show -o commands`): the RoCE mode
	 * they set ("" none), where; and whether other QoS keys came too. */
	char roce[16];
	unsigned roce_line;
	bool qos_keys;
};

/* Read TEXT into C (-1 after errors in C->d), then check what was read
 * and mark in EFF the groups that count (-1 after errors). */
int cu_parse(struct cu *c, const char *text);
int cu_check(struct cu *c, bool eff[CU_NKIND][CU_GROUPS]);
void cu_not_mapped(struct cu *c, unsigned line, const char *key,
                   const char *why);
/* Values: S without its surrounding blanks (in place); "[a, b]" or "a"
 * split into at most MAX ITEMS (-1: more); an integer 0..MAX, true or false, a
 * set "[a, b]" of integers 0..MAX as a mask (-1 after an error at LINE in C's
 * list). */
char *cu_trim(char *s);
int cu_list(char *v, char **items, int max);
int cu_uint(const char *s, uint64_t max, uint64_t *out);
int cu_bool(const char *s, bool *out);
int cu_set(struct cu *c, unsigned line, const char *key, char *v, unsigned max,
           uint64_t *mask);
/* conf_cumulus_keys.c: one line each of qos_features.conf's
 * default_ecn_red_conf.FIELD (FIELD), default_egress_sched.* and
 * cos_egr_queue.* (KEY split in PART), and an NVUE command line S. -1
 * after an error at LINE. */
int cu_default_ecn_key(struct cu *c, unsigned line, const char *key,
                       const char *field, char *v);
int cu_sched_key(struct cu *c, unsigned line, const char *key, char **part,
                 int nparts, char *v);
int cu_egr_queue_key(struct cu *c, unsigned line, const char *key, char **part,
                     int nparts, char *v);
int cu_nvue(struct cu *c, unsigned line, char *s);

#endif
