/* setting: one descriptor per scalar policy setting.
 *
 * A scalar setting (a number, an on/off, a word of a name table) is one
 * row of the table in setting.c: its NX-OS words, its libconfig key, its
 * JSON key, its type, where it sits (the struct and the group of the file
 * that hold it), its offset there, its range, its default and its modes.
 * The simple cases of the config loader and writer (lib/conf), of
 * show running-config and of its command (lib/cmd) and of the JSON show
 * (daemon/show) are loops over these rows, and a test checks every row
 * against the man pages and across the three printers. Settings with
 * real structure (class-maps, policy-maps, queues, service policies) stay
 * written by hand, as do the few scalars whose NX-OS line is not one
 * setting (`priority-flow-control mode on send-tlv`, the inherit/on/off
 * of an interface's watch-dog-interval, `dcbx agent`, `lldp tlv-select
 * dcbxp [egress-queuing]`, `shutdown`).
 *
 * Adding a scalar setting is: the field in policy.h, a row here, the
 * command row (syntax and help) in lib/cmd/cmd_nxos.c with cmd_nx_setting
 * as its action, what it does (compile, an agent), and its entries in
 * roced.conf(5) and rocesh(8). docs/HACKING.md walks through it.
 */
#ifndef ROCED_SETTING_H
#define ROCED_SETTING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/policy.h"

enum setting_type {
	SETTING_U32,  /* uint32_t */
	SETTING_BOOL, /* bool */
	SETTING_ENUM, /* an enum with a name table (struct setting_names) */
};

/* Where a setting sits: the struct its offset is into (struct policy for
 * the global places, struct policy_iface for the interface ones) and the
 * group of roced.conf and of the JSON show that holds it. */
enum setting_place {
	SETTING_AT_TOP,       /* the top level of the file */
	SETTING_AT_PFC,       /* priority-flow-control = { } */
	SETTING_AT_PFC_WD,    /* its watch-dog = { } */
	SETTING_AT_LLDP,      /* lldp = { } */
	SETTING_AT_IFACE,     /* an entry of interface = ( ) */
	SETTING_AT_IFACE_PFC, /* the entry's priority-flow-control = { } */
	/* The entry's own keys NX-OS prints first in the interface's block
	 * (mtu): the same group as SETTING_AT_IFACE, a place of its own so
	 * that the printers keep NX-OS's order. */
	SETTING_AT_IFACE_HEAD,
	SETTING_AT_IFACE_FC,   /* the entry's flowcontrol = { } */
	SETTING_AT_IFACE_LLDP, /* the entry's lldp = { } */
	SETTING_NPLACES,
};

/* The modes a setting's command lives in. */
enum setting_scope {
	SETTING_GLOBAL,    /* configuration mode */
	SETTING_INTERFACE, /* interface mode (and port profiles) */
};

/* Flags of a row. */
/* 0 is "not set": the range holds for set values only, 0 is never
 * printed and `no` returns to 0 (the row's default must be 0). */
#define SETTING_F_UNSET 0x1u
/* The file and the JSON show always hold it, default or not (the
 * watchdog's timers are spelt out); running-config prints only what
 * differs from the default, as NX-OS does. */
#define SETTING_F_ALWAYS 0x2u
/* NX-OS writes the on/off as a word: `WORDS on|off`; without it a true
 * bool is `WORDS` and a false one `no WORDS`. */
#define SETTING_F_ONOFF 0x4u
/* The field holds the negation of the setting (`no_transmit` for
 * `lldp transmit`, on by default): the value is !field. */
#define SETTING_F_INVERT 0x8u
/* A value of 0 has a message of its own in policy_validate.c (it says
 * what 0 would mean), so setting_validate's range check skips it. */
#define SETTING_F_ZERO_OWN 0x10u

/* The name table of an enum setting: the name of value V ("?" when
 * unknown), the value of NAME (-1 when unknown) and "a, b or c" for
 * messages (returns what snprintf would). */
struct setting_names {
	const char *(*name)(int v);
	int (*parse)(const char *name);
	int (*expected)(char *buf, size_t len);
};

#define SETTING_NO_LINE ((size_t)-1)

struct setting {
	const char *nxos; /* the command's words before the value */
	const char *conf; /* the libconfig key in its group */
	const char *json; /* the JSON key in its object */
	enum setting_type type;
	enum setting_place place;
	enum setting_scope scope;
	size_t off;      /* of the value in the place's struct */
	size_t line_off; /* of its source line (unsigned), or SETTING_NO_LINE */
	uint32_t min, max, def;
	unsigned flags;
	const struct setting_names *names; /* SETTING_ENUM only */
};

/* The rows, in the order the printers write them. */
extern const struct setting setting_table[];
extern const size_t setting_count;

/* The group of PLACE: its key in the file and the JSON show (NULL for the
 * top level and an interface entry), and the place it is nested in
 * (SETTING_NPLACES when none). The watchdog's group is written by the
 * loops inside its parent's; the others are opened by hand. */
const char *setting_place_key(enum setting_place place);
enum setting_place setting_place_parent(enum setting_place place);
/* Whether the loops write PLACE's group inside its parent's group. */
bool setting_place_nested(enum setting_place place);
/* Whether PLACE is ANCESTOR or a group the loops write inside it. */
bool setting_place_within(enum setting_place place,
                          enum setting_place ancestor);
enum setting_scope setting_place_scope(enum setting_place place);

/* The struct of row S: P for the global places, I for the interface
 * ones (NULL when S is an interface row and I is NULL). */
void *setting_base(const struct setting *s, struct policy *p,
                   struct policy_iface *i);
const void *setting_cbase(const struct setting *s, const struct policy *p,
                          const struct policy_iface *i);

/* The value of S in BASE as a number (a bool is 0 or 1, an enum its
 * value), and its change. */
uint32_t setting_get(const struct setting *s, const void *base);
void setting_set(const struct setting *s, void *base, uint32_t v);
/* Its source line field, NULL when the row has none. */
unsigned *setting_line(const struct setting *s, void *base);
/* Whether its value in BASE differs from the default. */
bool setting_is_set(const struct setting *s, const void *base);
/* Whether a printer writes S of BASE: ALWAYS (the file and JSON) asks
 * for the SETTING_F_ALWAYS rows even at their default. */
bool setting_written(const struct setting *s, const void *base, bool always);
/* Whether any row of PLACE or of a place nested in it is written. */
bool setting_place_written(enum setting_place place, const void *base,
                           bool always);
/* The one walk of the settings tree that the file's writer (lib/conf)
 * and the JSON show (daemon/show) share, each a back end of callbacks:
 * ROW for each row of a place that is written (its value V), OPEN and
 * CLOSE around a nested place's group (written where its first row
 * is, and only when a row in it is written). DEPTH is 0 for the rows
 * of the place the walk starts at, 1 inside a group of it, and so on. */
struct setting_visitor {
	void (*row)(void *ctx, unsigned depth, const struct setting *s,
	            uint32_t v);
	void (*open)(void *ctx, unsigned depth, enum setting_place sub);
	void (*close)(void *ctx, unsigned depth, enum setting_place sub);
};

/* Walk the rows of PLACE in BASE (the policy or an interface, as PLACE
 * says) that the file holds (setting_written with ALWAYS), and the
 * groups nested in it, through V with CTX. */
void setting_visit(enum setting_place place, const void *base,
                   const struct setting_visitor *v, void *ctx);

/* The value V of S as the file, NX-OS and the JSON show write it ("on"/
 * "off" for NX-OS's on/off bools, "true"/"false" for others, the name of
 * an enum, the number) into BUF. */
const char *setting_value_text(const struct setting *s, uint32_t v, bool nxos,
                               char *buf, size_t len);

/* The row whose NX-OS words are WORDS in SCOPE; NULL when none. */
const struct setting *setting_find_nxos(const char *words,
                                        enum setting_scope scope);
/* The row of libconfig key KEY at PLACE; NULL when none. */
const struct setting *setting_find_conf(enum setting_place place,
                                        const char *key);

/* The range checks of the number rows (the only ones: the loader stores
 * what fits 32 bits, the commands' syntax holds the range), each error
 * at its line (or at the line of its struct when it has none). Returns
 * the errors added. */
int setting_validate(const struct policy *p, struct diag *d);

#endif
