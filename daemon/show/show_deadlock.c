/* show_deadlock: the PFC deadlock part of `show queuing pfc-queue`, its
 * JSON from a port's state (agent/deadlock.h) and its text from that
 * JSON. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "show/show.h"
#include "show/show_int.h"

static void show_dl_ago(struct json_object *o, const char *key, double t,
                        double now)
{
	if (t <= 0)
		json_object_object_add(o, key, NULL);
	else
		json_object_object_add(
		    o, key, json_object_new_double((now - t) / 1000.0));
}

/* The names of a comma-separated list, as an array. */
static struct json_object *show_dl_names(const char *list)
{
	struct json_object *a = json_object_new_array();
	char buf[128], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list);
	for (char *t = strtok_r(buf, ",", &save); t;
	     t = strtok_r(NULL, ",", &save))
		json_object_array_add(a, json_object_new_string(t));
	return a;
}

static struct json_object *show_dl_prio(const struct show_port_state *st,
                                        unsigned p)
{
	const struct deadlock_prio *s = &st->dlp.p[p];
	struct json_object *o = json_object_new_object();
	struct json_object *cyc = json_object_new_array();
	char id[3 * PFCDL_ID_MAX + 1];

	show_add_int(o, "priority", p);
	show_add_bool(o, "waits", s->waits);
	if (s->waits && st->dlp.peer[0])
		show_add_str(o, "waits-on", st->dlp.peer);
	else
		json_object_object_add(o, "waits-on", NULL);
	json_object_object_add(o, "feeders",
	                       s->waits ? show_dl_names(s->feeder_names)
	                                : json_object_new_array());
	/* The cycle as this node last saw it: the nodes from the one it
	 * waits on round to itself. */
	for (unsigned h = 0;
	     (s->cycle || s->detected) && h < s->len && h < s->chain.n; h++) {
		pfcdl_id_format(&s->chain.hop[h], id, sizeof(id));
		json_object_array_add(cyc, json_object_new_string(id));
	}
	json_object_object_add(o, "cycle", cyc);
	show_add_bool(o, "in-cycle", s->cycle);
	show_add_bool(o, "breaks-here", s->breaker);
	show_add_bool(o, "breaking", s->breaking);
	show_add_int(o, "detected", (int64_t)s->detected);
	show_add_int(o, "broken", (int64_t)s->broken);
	show_dl_ago(o, "last-break-s-ago", s->broken ? s->break_ms : 0,
	            st->now_ms);
	return o;
}

struct json_object *show_deadlock_json(const struct show_port_state *st)
{
	struct json_object *o = json_object_new_object();
	struct json_object *a = json_object_new_array();
	uint64_t det = 0, brk = 0;
	char id[3 * PFCDL_ID_MAX + 1];

	for (unsigned p = 0; st->dl && p < 8; p++) {
		const struct deadlock_prio *s = &st->dlp.p[p];

		det += s->detected;
		brk += s->broken;
		if (s->waits || s->cycle || s->detected || s->breaking)
			json_object_array_add(a, show_dl_prio(st, p));
	}
	show_add_bool(o, "watched", st->dl);
	pfcdl_id_format(&st->dl_self, id, sizeof(id));
	show_add_str(o, "node-id", id);
	show_add_int(o, "detected", (int64_t)det);
	show_add_int(o, "broken", (int64_t)brk);
	json_object_object_add(o, "priorities", a);
	return o;
}

/* "a -> b -> c" from an array of strings. */
static void show_dl_join(struct json_object *a, const char *sep, char *buf,
                         size_t cap)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < show_len(a) && off < cap; i++)
		off +=
		    (size_t)snprintf(buf + off, cap - off, "%s%s", i ? sep : "",
		                     json_object_get_string(show_at(a, i)));
}

void show_text_deadlock(struct json_object *ports, struct strbuf *out)
{
	bool head = false;

	for (size_t i = 0; i < show_len(ports); i++) {
		struct json_object *p = show_at(ports, i);
		struct json_object *dl = show_get(p, "deadlock");
		struct json_object *pr = show_get(dl, "priorities");
		const char *alias = show_get_str(p, "alias");

		for (size_t j = 0; j < show_len(pr); j++) {
			struct json_object *e = show_at(pr, j);
			char feeders[160], cyc[600], ago[32] = "never";
			int64_t prio = 0, det = 0, brk = 0;
			struct json_object *v;

			if (!head) {
				strbuf_puts(out, "\nPFC deadlock (cyclic pause "
				                 "dependency), this node ");
				strbuf_printf(out, "%s:\n",
				              show_get_str(dl, "node-id"));
				head = true;
			}
			show_get_int(e, "priority", &prio);
			show_get_int(e, "detected", &det);
			show_get_int(e, "broken", &brk);
			show_dl_join(show_get(e, "feeders"), ",", feeders,
			             sizeof(feeders));
			show_dl_join(show_get(e, "cycle"), " -> ", cyc,
			             sizeof(cyc));
			v = show_get(e, "last-break-s-ago");
			if (v && json_object_is_type(v, json_type_double))
				snprintf(ago, sizeof(ago), "%.1f s ago",
				         json_object_get_double(v));
			strbuf_printf(
			    out, "%s priority %" PRId64 ": %s%s%s%s%s\n",
			    alias[0] ? alias : show_get_str(p, "name"), prio,
			    show_get_bool(e, "waits") ? "held by " : "not held",
			    show_get_bool(e, "waits")
			        ? show_get_str(e, "waits-on")
			        : "",
			    show_get_bool(e, "waits") ? ", pausing " : "",
			    show_get_bool(e, "waits") ? feeders : "",
			    show_get_bool(e, "breaking")
			        ? ", pause not honoured (breaking a cycle)"
			        : "");
			if (cyc[0])
				strbuf_printf(
				    out,
				    "  cycle %s: %s -> this node; broken %s\n",
				    show_get_bool(e, "in-cycle") ? "now"
				                                 : "last seen",
				    cyc,
				    show_get_bool(e, "breaks-here")
				        ? "here (lowest ID)"
				        : "by the node with the lowest ID");
			strbuf_printf(out,
			              "  detected %" PRId64
			              ", broken here %" PRId64
			              ", last break %s\n",
			              det, brk, ago);
		}
	}
}
