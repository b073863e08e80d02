/* show_version: `show version`, the first thing a Nexus operator types:
 * which roced this is (its version, and the build: git describe of the
 * tree, the compiler, the sanitizers), the kernel it runs on, and what
 * it found that kernel and its ports can do: the qdiscs, classifiers and
 * actions the probe found (or the --caps preset taken instead), whether
 * each port has DCB netlink or gets roced's software DCB, the tc tree its
 * plan uses, and whether the kernel counts contributors for software
 * PFC (eBPF).
 *
 * JSON, read by the text renderer below:
 *   {"version", "build": {"git" (null outside a git tree), "compiler",
 *    "sanitizers": [..]}, "kernel": {"name", "release", "machine",
 *    "uptime-seconds"},
 *    "uptime-seconds",
 *    "capabilities": {"source": "probe" | "preset NAME", "qdiscs": [..],
 *     "classifiers": [..], "u32-actions", "actions": [..],
 *     "contributor-counting": "counting" | "not-started" | "refused",
 *     "contributor-counting-reason" (refused: the kernel's answer),
 *     "software-pfc-path": "kernel" | "user-space" (where pause received
 *     can be honoured on a software port), "software-pfc-path-reason"},
 *    "interface": [{"name", "alias", "dcb": "dcbnl" | "software",
 *                   "tc-tree": plan_layout_name() (null: no plan yet),
 *                   "pfc-path": plan_pfc_path_name() and
 *                   "pfc-path-reason" (planned ports)}]}
 */
#include <stdio.h>
#include <string.h>

#include "model/caps.h"
#include "plan/compile.h"
#include "show/show.h"
#include "show/show_build.h"
#include "show/show_int.h"

/* The compiler that built this file, as `cc --version` names it. */
#if defined(__clang__)
#define SHOW_COMPILER "clang " __clang_version__
#elif defined(__GNUC__)
#define SHOW_COMPILER "gcc " __VERSION__
#else
#define SHOW_COMPILER "unknown"
#endif

static struct json_object *show_version_names(uint32_t mask, unsigned n,
                                              const char *(*name)(unsigned))
{
	struct json_object *a = json_object_new_array();

	for (unsigned i = 0; i < n; i++)
		if (mask & (1u << i))
			json_object_array_add(a,
			                      json_object_new_string(name(i)));
	return a;
}

static const char *show_version_qdisc(unsigned i)
{
	return caps_qdisc_name((enum caps_qdisc)i);
}

static const char *show_version_cls(unsigned i)
{
	return caps_classifier_name((enum caps_classifier)i);
}

static const char *show_version_act(unsigned i)
{
	return caps_action_name((enum caps_action)i);
}

static struct json_object *show_version_build(void)
{
	struct json_object *o = json_object_new_object();
	struct json_object *san = json_object_new_array();
	char words[64], *save = NULL;

	if (strcmp(SHOW_BUILD_GIT, ""))
		show_add_str(o, "git", SHOW_BUILD_GIT);
	else
		json_object_object_add(o, "git", NULL);
	show_add_str(o, "compiler", SHOW_COMPILER);
	snprintf(words, sizeof(words), "%s", SHOW_BUILD_SANITIZERS);
	for (char *w = strtok_r(words, ",", &save); w;
	     w = strtok_r(NULL, ",", &save))
		json_object_array_add(san, json_object_new_string(w));
	json_object_object_add(o, "sanitizers", san);
	return o;
}

static struct json_object *show_version_caps(const struct show_version *v)
{
	struct json_object *o = json_object_new_object();
	const struct caps *c = &v->kernel_caps;
	const char *why;
	char src[48];

	if (v->preset)
		snprintf(src, sizeof(src), "preset %s", v->preset);
	else
		snprintf(src, sizeof(src), "probe");
	show_add_str(o, "source", src);
	json_object_object_add(
	    o, "qdiscs",
	    show_version_names(c->qdiscs, CAPS_QDISC_MAX, show_version_qdisc));
	json_object_object_add(o, "classifiers",
	                       show_version_names(c->classifiers,
	                                          CAPS_CLASSIFIER_MAX,
	                                          show_version_cls));
	show_add_bool(o, "u32-actions", c->classifiers & CAPS_CLS_U32_ACT);
	json_object_object_add(
	    o, "actions",
	    show_version_names(c->actions, CAPS_ACTION_MAX, show_version_act));
	show_add_str(o, "contributor-counting",
	             v->contrib > 0    ? "counting"
	             : v->contrib == 0 ? "not-started"
	                               : "refused");
	if (v->contrib < 0)
		show_add_str(o, "contributor-counting-reason",
		             strerror(-v->contrib));
	why = compile_pfc_kernel_why(c);
	if (!why && !v->kpfc)
		why = COMPILE_PFC_KERNEL_OFF;
	show_add_str(o, "software-pfc-path",
	             plan_pfc_path_name(why ? PLAN_PFC_PATH_USER
	                                    : PLAN_PFC_PATH_KERNEL));
	show_add_str(o, "software-pfc-path-reason",
	             why ? why : COMPILE_PFC_KERNEL_WHY);
	return o;
}

struct json_object *show_version_json(const struct show_version *v)
{
	struct json_object *o = json_object_new_object();
	struct json_object *k = json_object_new_object();
	struct json_object *ports = json_object_new_array();

	show_add_str(o, "version", SHOW_BUILD_VERSION);
	json_object_object_add(o, "build", show_version_build());
	show_add_str(k, "name", v->sysname);
	show_add_str(k, "release", v->release);
	show_add_str(k, "machine", v->machine);
	show_add_int(k, "uptime-seconds", (int64_t)v->kernel_uptime_s);
	json_object_object_add(o, "kernel", k);
	show_add_int(o, "uptime-seconds", (int64_t)v->uptime_s);
	json_object_object_add(o, "capabilities", show_version_caps(v));
	for (size_t i = 0; i < v->nports; i++) {
		const struct show_version_port *p = &v->ports[i];
		struct json_object *e = json_object_new_object();

		show_add_str(e, "name", p->name);
		if (p->alias && p->alias[0])
			show_add_str(e, "alias", p->alias);
		show_add_str(e, "dcb", p->hw_dcb ? "dcbnl" : "software");
		if (p->planned)
			show_add_str(e, "tc-tree", plan_layout_name(p->layout));
		else
			json_object_object_add(e, "tc-tree", NULL);
		if (p->planned) {
			show_add_str(e, "pfc-path",
			             plan_pfc_path_name(p->pfc_path));
			show_add_str(e, "pfc-path-reason",
			             p->pfc_path_why ? p->pfc_path_why : "");
		}
		json_object_array_add(ports, e);
	}
	json_object_object_add(o, "interface", ports);
	return o;
}

/* A JSON array of strings as "a, b, c" ("none" when empty). */
static void show_version_list(struct json_object *a, struct strbuf *out)
{
	size_t n = json_object_is_type(a, json_type_array)
	               ? json_object_array_length(a)
	               : 0;

	for (size_t i = 0; i < n; i++)
		strbuf_printf(
		    out, "%s%s", i ? ", " : "",
		    json_object_get_string(json_object_array_get_idx(a, i)));
	strbuf_puts(out, n ? "\n" : "none\n");
}

/* "D day(s), H hour(s), M minute(s), S second(s)", NX-OS's uptime. */
static void show_version_uptime(struct strbuf *out, const char *what,
                                int64_t up)
{
	strbuf_printf(out,
	              "%s uptime is %lld day(s), %lld hour(s), %lld "
	              "minute(s), %lld second(s)\n",
	              what, (long long)(up / 86400),
	              (long long)(up / 3600 % 24), (long long)(up / 60 % 60),
	              (long long)(up % 60));
}

void show_text_version(struct json_object *data, struct strbuf *out)
{
	struct json_object *b = show_get(data, "build");
	struct json_object *k = show_get(data, "kernel");
	struct json_object *c = show_get(data, "capabilities");
	struct json_object *a = show_get(data, "interface");
	const char *git = show_get_str(b, "git");
	const char *cc = show_get_str(c, "contributor-counting");
	size_t n = json_object_is_type(a, json_type_array)
	               ? json_object_array_length(a)
	               : 0;
	int64_t up = 0;

	/* NX-OS's blocks where roced has the same: Software, the kernel,
	 * the uptimes; then what roced found. */
	strbuf_puts(out, "roced: RoCEv2 QoS for Linux, configured as NX-OS "
	                 "is\n\nSoftware\n");
	strbuf_printf(out, "  roced: version %s",
	              show_get_str(data, "version"));
	if (git[0])
		strbuf_printf(out, " [build %s]", git);
	strbuf_printf(out, "\n  compiler: %s\n  sanitizers: ",
	              show_get_str(b, "compiler"));
	show_version_list(show_get(b, "sanitizers"), out);
	strbuf_printf(out, "\nKernel\n  %s %s %s\n", show_get_str(k, "name"),
	              show_get_str(k, "release"), show_get_str(k, "machine"));
	strbuf_printf(
	    out, "\nCapabilities (%s)\n  qdiscs: ", show_get_str(c, "source"));
	show_version_list(show_get(c, "qdiscs"), out);
	strbuf_puts(out, "  classifiers: ");
	show_version_list(show_get(c, "classifiers"), out);
	if (!show_get_bool(c, "u32-actions"))
		strbuf_puts(out, "  u32: classid only (no actions)\n");
	strbuf_puts(out, "  actions: ");
	show_version_list(show_get(c, "actions"), out);
	strbuf_printf(out, "  eBPF contributor counting (software PFC): %s%s\n",
	              !strcmp(cc, "counting")      ? "available, counting"
	              : !strcmp(cc, "not-started") ? "not started yet (the "
	                                             "first pause toward a "
	                                             "bridge port starts it)"
	                                           : "not available: ",
	              !strcmp(cc, "refused")
	                  ? show_get_str(c, "contributor-counting-reason")
	                  : "");
	strbuf_printf(out, "  software PFC, pause received: %s (%s)\n",
	              !strcmp(show_get_str(c, "software-pfc-path"), "kernel")
	                  ? "in the kernel (BPF, no process)"
	                  : "in roced's process (held tbf)",
	              show_get_str(c, "software-pfc-path-reason"));
	strbuf_puts(out, "\nInterfaces\n");
	if (!n)
		strbuf_puts(out, "  none configured\n");
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(a, i);
		const char *alias = show_get_str(e, "alias");
		const char *tree = show_get_str(e, "tc-tree");
		const char *path = show_get_str(e, "pfc-path");
		char label[96];

		if (alias[0])
			snprintf(label, sizeof(label), "%s (%s)", alias,
			         show_get_str(e, "name"));
		else
			snprintf(label, sizeof(label), "%s",
			         show_get_str(e, "name"));
		strbuf_printf(out, "  %s: %s, tc tree %s", label,
		              !strcmp(show_get_str(e, "dcb"), "dcbnl")
		                  ? "DCB netlink (hardware DCB)"
		                  : "software DCB (roced)",
		              tree[0] ? tree : "not planned yet");
		if (!strcmp(path, "kernel") || !strcmp(path, "user-space"))
			strbuf_printf(out, ", pause honoured %s (%s)",
			              !strcmp(path, "kernel")
			                  ? "in the kernel"
			                  : "by roced's process",
			              show_get_str(e, "pfc-path-reason"));
		strbuf_puts(out, "\n");
	}
	strbuf_puts(out, "\n");
	show_get_int(k, "uptime-seconds", &up);
	show_version_uptime(out, "Kernel", up);
	up = 0;
	show_get_int(data, "uptime-seconds", &up);
	show_version_uptime(out, "roced", up);
}
