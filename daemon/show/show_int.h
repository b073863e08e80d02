/* show_int: shared by show.c, show_policy.c and show_text.c. */
#ifndef ROCED_SHOW_INT_H
#define ROCED_SHOW_INT_H

#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

#include "model/policy.h"
#include "base/strbuf.h"

/* --- building --- */

/* MASK's set bits as an array of integers. */
struct json_object *show_mask_json(uint64_t mask);
void show_add_str(struct json_object *o, const char *key, const char *s);
/* A peer's LLDP text TLV (LEN bytes at S) under KEY, escaped: neither
 * text nor JSON carries a control byte or invalid UTF-8 from the wire
 * (show_lldp.c). */
void show_lldp_text(struct json_object *o, const char *key, const char *s,
                    uint8_t len);
/* The text of show lldp neighbors, traffic, interface and dcbx, from
 * the JSON show_lldp.c built (show_lldp_text.c). */
void show_lldp_text_neighbors(struct json_object *data, bool detail,
                              struct strbuf *out);
void show_lldp_text_traffic(struct json_object *data, struct strbuf *out);
void show_lldp_text_lldp_if(struct json_object *data, struct strbuf *out);
void show_lldp_text_dcbx(struct json_object *data, struct strbuf *out);
void show_add_int(struct json_object *o, const char *key, int64_t v);
void show_add_bool(struct json_object *o, const char *key, bool v);
/* One `class type queuing` block of a queuing policy, as in the policy
 * JSON: name, priority-level, bandwidth-remaining-percent,
 * random-detect. */
struct json_object *show_queue_conf_json(const struct policy_queue *q,
                                         unsigned n);

int show_class_map_json(const struct policy *p, const char *name,
                        struct json_object **out, char *err, size_t errlen);
int show_policy_map_json(const struct policy *p, const char *name,
                         struct json_object **out, char *err, size_t errlen);
struct show_query;
/* NX-OS's `type T` and `system`: keep the maps of DATA[KEY] ("class-map"
 * or "policy-map") of that type, and with system those system qos of P
 * attaches. */
void show_narrow_maps(struct json_object *data, const char *key,
                      const struct show_query *q, const struct policy *p);
/* `show policy-map interface X type qos|queuing`: each port's other
 * service policy left out. */
void show_narrow_ports(struct json_object *data, const struct show_query *q);

struct show_port_state;
/* A port's PFC deadlock state for show queuing pfc-queue
 * (show_deadlock.c): {"detected", "broken", "priorities": [{"priority",
 * "waits-on", "feeders", "cycle", "breaks-here", "breaking",
 * "detected", "broken", "last-break-s-ago"}]}, a priority listed while
 * it waits or once a cycle was seen on it. */
struct json_object *show_deadlock_json(const struct show_port_state *st);
/* Its text under the pfc-queue table: one line per priority listed. */
void show_text_deadlock(struct json_object *ports, struct strbuf *out);

/* --- reading (show_text.c); absent or mistyped members read as empty --- */

const char *show_get_str(struct json_object *o, const char *key);
/* Returns false when KEY is absent or not an integer (null counters). */
bool show_get_int(struct json_object *o, const char *key, int64_t *v);
bool show_get_bool(struct json_object *o, const char *key);
struct json_object *show_get(struct json_object *o, const char *key);
/* An array of integers back into a list text ("0-2,5"); "" when empty. */
void show_list_text(struct json_object *a, char *buf, size_t len);
/* An array's length (0 for anything else) and its member I. */
size_t show_len(struct json_object *a);
struct json_object *show_at(struct json_object *a, size_t i);
/* "Ethernet1/1 (swp1)", or the Linux name alone. */
void show_label(struct json_object *port, char *buf, size_t len);
/* "not programmed: REASON", "refused: REASON" or "programmed". */
void show_state_text(struct json_object *port, char *buf, size_t len);
bool show_programmed(struct json_object *port);
/* KEY's integer as text, "n/a" when it is null or absent. */
void show_counter(char *buf, size_t len, struct json_object *o,
                  const char *key);

#endif
