/* test_ctl: the control socket's pure parts: strict request parsing, the
 * configure right, the socket path; show's queries and answers built from
 * the shipped policy with fixed kernel state; the atomic startup-config
 * write. No root and no daemon needed. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "plan/compile.h"
#include "conf/conf.h"
#include "ctl/ctl.h"
#include "core/ports.h"
#include "ctl/ctl_cmd.h"
#include "show/show.h"

static int parse(const char *s, struct ctl_request *r, char *err)
{
	return ctl_request_parse(s, strlen(s), r, err, 256);
}

#define ASSERT_REFUSED(json, words)                                            \
	do {                                                                   \
		struct ctl_request r_;                                         \
		char e_[256] = "";                                             \
		assert_int_equal(parse((json), &r_, e_), -EINVAL);             \
		if (!strstr(e_, (words)))                                      \
			fail_msg("%s: error '%s' lacks '%s'", (json), e_,      \
			         (words));                                     \
		assert_true(e_[0] == '%');                                     \
	} while (0)

static void test_parse_valid(void **state)
{
	struct ctl_request r;
	char err[256];

	(void)state;
	assert_int_equal(parse("{\"cmd\":\"ping\"}", &r, err), 0);
	assert_int_equal(r.cmd, CTL_CMD_PING);
	assert_int_equal(
	    parse(" {\"cmd\": \"config\", \"context\": [\"policy-map type "
	          "queuing Q\", \"class type queuing c-out-8q-q3\"], "
	          "\"line\": \"bandwidth remaining percent 50\"}\n",
	          &r, err),
	    0);
	assert_int_equal(r.cmd, CTL_CMD_CONFIG);
	assert_int_equal(r.ncontext, 2);
	assert_string_equal(r.context[1], "class type queuing c-out-8q-q3");
	assert_string_equal(r.line, "bandwidth remaining percent 50");
	assert_int_equal(
	    parse("{\"cmd\":\"config\",\"line\":\"end\"}", &r, err), 0);
	assert_int_equal(r.ncontext, 0);
	assert_int_equal(parse("{\"cmd\":\"show\",\"what\":\"show queuing "
	                       "interface\",\"args\":[\"swp1\"],\"json\":true}",
	                       &r, err),
	                 0);
	assert_int_equal(r.cmd, CTL_CMD_SHOW);
	assert_string_equal(r.what, "show queuing interface");
	assert_int_equal(r.nargs, 1);
	assert_string_equal(r.args[0], "swp1");
	assert_true(r.json);
	assert_int_equal(parse("{\"cmd\":\"copy\",\"from\":\"running-config\","
	                       "\"to\":\"startup-config\"}",
	                       &r, err),
	                 0);
	assert_int_equal(r.cmd, CTL_CMD_COPY);
	assert_int_equal(
	    parse("{\"cmd\":\"debug\",\"subsys\":\"dcbx\"}", &r, err), 0);
	assert_true(r.on);
	assert_int_equal(parse("{\"cmd\":\"debug\",\"subsys\":\"dcbx\","
	                       "\"on\":false}",
	                       &r, err),
	                 0);
	assert_false(r.on);
	assert_int_equal(parse("{\"cmd\":\"reload\"}", &r, err), 0);
	assert_false(r.force);
	assert_int_equal(parse("{\"cmd\":\"reload\",\"force\":true}", &r, err),
	                 0);
	assert_true(r.force);
	assert_int_equal(parse("{\"cmd\":\"reload\",\"force\":1}", &r, err),
	                 -EINVAL);
	assert_string_equal(err, "% 'force' must be a boolean");
	assert_true(ctl_cmd_configures(CTL_CMD_RELOAD));
	assert_true(ctl_cmd_configures(CTL_CMD_CONFIG));
	assert_true(ctl_cmd_configures(CTL_CMD_COPY));
	assert_true(ctl_cmd_configures(CTL_CMD_DEBUG));
	assert_false(ctl_cmd_configures(CTL_CMD_SHOW));
	assert_false(ctl_cmd_configures(CTL_CMD_PING));
}

static void test_parse_malformed(void **state)
{
	char deep[256] = "{\"cmd\":\"ping\",\"x\":";

	(void)state;
	ASSERT_REFUSED("", "malformed JSON");
	ASSERT_REFUSED("{\"cmd\":\"ping\"", "malformed JSON");
	ASSERT_REFUSED("{cmd:ping}", "malformed JSON");
	ASSERT_REFUSED("{\"cmd\":\"ping\"} {}", "malformed JSON");
	ASSERT_REFUSED("{\"cmd\":\"ping\"}x", "malformed JSON");
	ASSERT_REFUSED("[\"ping\"]", "must be a JSON object");
	ASSERT_REFUSED("\"ping\"", "must be a JSON object");
	ASSERT_REFUSED("{}", "needs 'cmd'");
	ASSERT_REFUSED("{\"cmd\":1}", "'cmd' must be a string");
	ASSERT_REFUSED("{\"cmd\":\"reboot\"}", "unknown cmd 'reboot'");
	ASSERT_REFUSED("{\"cmd\":\"ping\",\"x\":1}", "unknown key 'x'");
	ASSERT_REFUSED("{\"cmd\":\"config\"}", "needs 'line'");
	ASSERT_REFUSED("{\"cmd\":\"config\",\"line\":5}",
	               "'line' must be a string");
	ASSERT_REFUSED("{\"cmd\":\"config\",\"line\":\"x\",\"context\":\"a\"}",
	               "'context' must be an array");
	ASSERT_REFUSED("{\"cmd\":\"config\",\"line\":\"x\",\"context\":[1]}",
	               "'context[0]' must be a string");
	ASSERT_REFUSED("{\"cmd\":\"config\",\"line\":\"x\","
	               "\"context\":[\"a\",\"b\",\"c\",\"d\"]}",
	               "at most 3");
	ASSERT_REFUSED("{\"cmd\":\"config\",\"line\":\"a\\u0000b\"}",
	               "control character");
	ASSERT_REFUSED("{\"cmd\":\"config\",\"line\":\"a\\nb\"}",
	               "control character");
	ASSERT_REFUSED("{\"cmd\":\"show\",\"what\":\"show x\",\"json\":1}",
	               "'json' must be a boolean");
	ASSERT_REFUSED("{\"cmd\":\"show\"}", "needs 'what'");
	ASSERT_REFUSED("{\"cmd\":\"copy\",\"from\":\"startup-config\","
	               "\"to\":\"running-config\"}",
	               "running-config to startup-config only");
	ASSERT_REFUSED("{\"cmd\":\"debug\",\"subsys\":\"x\",\"on\":\"yes\"}",
	               "'on' must be a boolean");
	/* nesting deeper than CTL_JSON_DEPTH */
	for (int i = 0; i < 20; i++)
		strcat(deep, "[");
	ASSERT_REFUSED(deep, "malformed JSON");
}

static void test_parse_limits(void **state)
{
	size_t n = CTL_MAX_REQUEST + 10;
	char *big = malloc(n + 1);
	struct ctl_request r;
	char err[256];
	int len;

	(void)state;
	assert_non_null(big);
	/* a line one byte too long, then a request over the size limit */
	len = snprintf(big, n, "{\"cmd\":\"config\",\"line\":\"");
	memset(big + len, 'a', CTL_LINE_MAX);
	snprintf(big + len + CTL_LINE_MAX, n - (size_t)len - CTL_LINE_MAX,
	         "\"}");
	assert_int_equal(parse(big, &r, err), -EINVAL);
	assert_non_null(strstr(err, "'line' is too long"));
	memset(big, ' ', n);
	memcpy(big + n - 14, "{\"cmd\":\"ping\"}", 14);
	assert_int_equal(ctl_request_parse(big, n, &r, err, sizeof(err)),
	                 -EINVAL);
	assert_non_null(strstr(err, "too large"));
	/* a NUL byte in the datagram */
	assert_int_equal(ctl_request_parse("{\"cmd\":\"ping\"}\0x", 16, &r, err,
	                                   sizeof(err)),
	                 -EINVAL);
	/* every prefix of a valid request is refused, never read past */
	{
		const char *ok =
		    "{\"cmd\":\"show\",\"what\":\"show class-map\","
		    "\"args\":[\"A\"],\"json\":false}";

		for (size_t cut = 0; cut < strlen(ok); cut++) {
			char *m = malloc(cut + 1);

			memcpy(m, ok, cut);
			assert_int_equal(
			    ctl_request_parse(m, cut, &r, err, sizeof(err)),
			    -EINVAL);
			free(m);
		}
	}
	free(big);
}

static void test_rights(void **state)
{
	struct ctl_peer root = {.pid = 1, .uid = 0, .gid = 0};
	struct ctl_peer user = {.pid = 2, .uid = 1000, .gid = 1000};
	struct ctl_peer member = {.pid = 3,
	                          .uid = 1001,
	                          .gid = 1001,
	                          .groups = {27, 4242},
	                          .ngroups = 2};
	struct ctl_peer primary = {.pid = 4, .uid = 1002, .gid = 4242};

	(void)state;
	assert_true(ctl_peer_may_configure(&root, false, 0));
	assert_true(ctl_peer_may_configure(&root, true, 4242));
	assert_false(ctl_peer_may_configure(&user, false, 0));
	assert_false(ctl_peer_may_configure(&user, true, 4242));
	assert_true(ctl_peer_may_configure(&member, true, 4242));
	assert_false(ctl_peer_may_configure(&member, false, 4242));
	assert_false(ctl_peer_may_configure(&member, true, 4243));
	assert_true(ctl_peer_may_configure(&primary, true, 4242));
}

static void test_status_groups(void **state)
{
	const char *st = "Name:\tbash\nUmask:\t0022\nGid:\t1000\t1000\t1000\t"
	                 "1000\nFDSize:\t256\nGroups:\t4 24 27 4242 \n"
	                 "NStgid:\t1\n";
	gid_t g[8];

	(void)state;
	assert_int_equal(ctl_status_groups(st, g, 8), 4);
	assert_int_equal(g[0], 4);
	assert_int_equal(g[3], 4242);
	assert_int_equal(ctl_status_groups(st, g, 2), 2);
	assert_int_equal(ctl_status_groups("Groups:\t\nX:\t1\n", g, 8), 0);
	assert_int_equal(ctl_status_groups("Name:\tx\n", g, 8), -EINVAL);
	assert_int_equal(ctl_status_groups("Groups:\t1 x2\n", g, 8), -EINVAL);
	assert_int_equal(ctl_status_groups("Groups:\t99999999999\n", g, 8),
	                 -EINVAL);
}

static void test_socket_path(void **state)
{
	char buf[128], tiny[8];
	struct stat a, b;

	(void)state;
	assert_int_equal(ctl_socket_path(buf, sizeof(buf)), 0);
	assert_int_equal(strncmp(buf, CTL_DIR "/roced", strlen(CTL_DIR) + 6),
	                 0);
	assert_non_null(strstr(buf, ".sock"));
	if (stat("/proc/self/ns/net", &a) == 0 &&
	    stat("/proc/1/ns/net", &b) == 0) {
		char want[128];

		if (a.st_ino == b.st_ino)
			snprintf(want, sizeof(want), "%s",
			         CTL_DIR "/roced.sock");
		else
			snprintf(want, sizeof(want), "%s/roced.%lu.sock",
			         CTL_DIR, (unsigned long)a.st_ino);
		assert_string_equal(buf, want);
		assert_int_equal(ctl_netns_inode(), (unsigned long)a.st_ino);
	} else if (stat("/proc/self/ns/net", &a) == 0) {
		char mine[128];

		/* /proc/1 hidden: the namespace's own socket when it
		 * exists (or the namespace is named), else the host's */
		snprintf(mine, sizeof(mine), "%s/roced.%lu.sock", CTL_DIR,
		         (unsigned long)a.st_ino);
		if (strcmp(buf, mine))
			assert_string_equal(buf, CTL_DIR "/roced.sock");
	}
	assert_int_equal(ctl_state_path(buf, sizeof(buf), ".pid"), 0);
	assert_non_null(strstr(buf, ".pid"));
	assert_int_equal(ctl_socket_path(tiny, sizeof(tiny)), -ENAMETOOLONG);
}

/* --- show --- */

static void test_show_query(void **state)
{
	const char *line[] = {"show",      "queuing",     "pfc-queue",
	                      "interface", "Ethernet1/1", "detail",
	                      "json"};
	const char *args2[] = {"interface", "swp1"};
	const char *qos[] = {"qos"};
	const char *x[] = {"X"};
	struct show_query q;
	char err[256];

	(void)state;
	assert_int_equal(show_query_parse("show queuing pfc-queue", line, 7, &q,
	                                  err, sizeof(err)),
	                 0);
	assert_int_equal(q.kind, CTL_SHOW_PFC_QUEUE);
	assert_string_equal(q.iface, "Ethernet1/1");
	assert_true(q.detail);
	assert_int_equal(show_query_parse("show queuing pfc-queue", line + 3, 3,
	                                  &q, err, sizeof(err)),
	                 0);
	assert_true(q.detail);
	assert_int_equal(show_query_parse("show running-config", args2, 2, &q,
	                                  err, sizeof(err)),
	                 0);
	assert_string_equal(q.iface, "swp1");
	assert_int_equal(show_query_parse("show running-config", qos, 1, &q,
	                                  err, sizeof(err)),
	                 0);
	assert_true(q.qos_only);
	assert_int_equal(
	    show_query_parse("show policy-map", args2, 2, &q, err, sizeof(err)),
	    0);
	assert_int_equal(q.kind, CTL_SHOW_POLICY_MAP_IF);
	assert_string_equal(q.iface, "swp1");
	assert_int_equal(
	    show_query_parse("show class-map", x, 1, &q, err, sizeof(err)), 0);
	assert_string_equal(q.name, "X");
	assert_true(show_query_ports(
	    &(struct show_query){.kind = CTL_SHOW_QUEUING_IF}));
	assert_false(
	    show_query_ports(&(struct show_query){.kind = CTL_SHOW_CLASS_MAP}));
	assert_int_equal(
	    show_query_parse("show startup-config", x, 1, &q, err, sizeof(err)),
	    -1);
	assert_non_null(strstr(err, "Invalid argument 'X'"));
	assert_int_equal(show_query_parse("show lldp dcbx interface", NULL, 0,
	                                  &q, err, sizeof(err)),
	                 -1);
	assert_int_equal(
	    show_query_parse("show version", NULL, 0, &q, err, sizeof(err)),
	    -1);
	assert_non_null(strstr(err, "unknown show command"));
}

/* The shipped policy, planned as the daemon plans it (the port registry,
 * host capabilities) and applied: show's input is the registry's plan. */
struct fixture {
	struct policy p;
	struct ports reg;
	const struct plan_port *plans[4];
	struct show_port_state st[4];
	struct show_input in;
};

static int fx_setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct reconcile_result res[4] = {{.status = RECONCILE_OK}};
	struct caps caps;
	struct plan pl;
	struct diag d;

	assert_non_null(f);
	diag_init(&d, "roced.conf");
	assert_int_equal(
	    conf_load_file(TEST_SRCDIR "/conf/roced.conf", &f->p, &d), 0);
	caps_preset(&caps, CAPS_PRESET_HOST);
	ports_init(&f->reg, &caps, false);
	plan_init(&pl);
	assert_int_equal(
	    ports_compile(&f->reg, &f->p, "roced.conf", NULL, 0, &pl, &d), 0);
	assert_int_equal(pl.nports, 1);
	ports_applied(&f->reg, &pl, pl.nports, res, NULL);
	plan_free(&pl);
	diag_free(&d);
	assert_int_equal(f->reg.n, 1);
	assert_true(ports_programmed(&f->reg.v[0]));
	f->plans[0] = &f->reg.v[0].plan;
	f->st[0].exists = true;
	f->st[0].stats = true;
	for (unsigned q = 0; q < POLICY_NQUEUES; q++) {
		f->st[0].queue_seen[q] = true;
		f->st[0].queue[q].basic = true;
		f->st[0].queue[q].queue = true;
	}
	f->st[0].queue[3].packets = 4242;
	f->st[0].queue[3].bytes = 5000000;
	f->st[0].queue[3].drops = 7;
	f->st[0].queue[3].backlog = 1500;
	f->st[0].roced_root = true;
	f->st[0].state = ports_state(&f->reg.v[0]);
	f->in.policy = &f->p;
	f->in.config_file = "roced.conf";
	f->in.plans = f->plans;
	f->in.state = f->st;
	f->in.nports = 1;
	*state = f;
	return 0;
}

static int fx_teardown(void **state)
{
	struct fixture *f = *state;

	ports_free(&f->reg);
	policy_free(&f->p);
	free(f);
	return 0;
}

static struct json_object *answer(struct fixture *f, struct show_query *q,
                                  struct strbuf *text)
{
	struct json_object *data = NULL;
	char err[256] = "";

	strbuf_init(text);
	if (show_answer(q, &f->in, &data, text, err, sizeof(err)) < 0)
		fail_msg("show_answer: %s", err);
	return data;
}

static struct json_object *jget(struct json_object *o, const char *path)
{
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *k = strtok_r(buf, ".", &save); k && o;
	     k = strtok_r(NULL, ".", &save)) {
		if (k[0] >= '0' && k[0] <= '9')
			o = json_object_array_get_idx(o, (size_t)atoi(k));
		else if (!json_object_object_get_ex(o, k, &o))
			return NULL;
	}
	return o;
}

static void test_show_queuing(void **state)
{
	struct fixture *f = *state;
	struct show_query q = {.kind = CTL_SHOW_QUEUING_IF};
	struct json_object *d, *q3;
	struct strbuf text;

	d = answer(f, &q, &text);
	assert_string_equal(json_object_get_string(jget(d, "interface.0.name")),
	                    "swp1");
	assert_string_equal(
	    json_object_get_string(jget(d, "interface.0.alias")),
	    "Ethernet1/1");
	assert_string_equal(
	    json_object_get_string(jget(d, "interface.0.layout")), "htb+bfifo");
	/* queues from 7 down to 0: queue 3 is the fifth */
	q3 = jget(d, "interface.0.queue.4");
	assert_int_equal(json_object_get_int(jget(q3, "queue")), 3);
	assert_int_equal(
	    json_object_get_int(jget(q3, "bandwidth-remaining-percent")), 50);
	assert_int_equal(
	    json_object_get_int(jget(q3, "random-detect.minimum-threshold")),
	    150 * 1024);
	assert_int_equal(
	    json_object_get_int(jget(q3, "random-detect.drop-probability")), 7);
	assert_true(json_object_get_boolean(jget(q3, "random-detect.ecn")));
	/* this kernel has no red: configured, not realised */
	assert_false(
	    json_object_get_boolean(jget(q3, "random-detect.realised")));
	assert_string_equal(json_object_get_string(jget(q3, "leaf")), "bfifo");
	assert_int_equal(json_object_get_int(jget(q3, "counters.tx-packets")),
	                 4242);
	assert_int_equal(
	    json_object_get_int(jget(q3, "counters.dropped-packets")), 7);
	assert_int_equal(
	    json_object_get_int(jget(q3, "counters.queue-depth-bytes")), 1500);
	/* no red leaf, no ECN counter: null, not 0 */
	assert_non_null(jget(q3, "counters"));
	assert_true(json_object_object_get_ex(jget(q3, "counters"),
	                                      "ecn-marked", NULL));
	assert_null(jget(q3, "counters.ecn-marked"));
	assert_true(json_object_array_length(jget(d, "interface.0.warnings")) >
	            0);
	assert_non_null(strstr(strbuf_str(&text),
	                       "Egress Queuing for Ethernet1/1 (swp1) "
	                       "[ROCE_QUEUING_OUT]"));
	assert_non_null(strstr(strbuf_str(&text), "QOS GROUP 3"));
	assert_non_null(strstr(strbuf_str(&text), "4242"));
	assert_non_null(strstr(strbuf_str(&text), "not realised"));
	json_object_put(d);
	strbuf_free(&text);

	/* a port whose queue was not read has null counters */
	f->st[0].stats = false;
	d = answer(f, &q, &text);
	assert_null(jget(d, "interface.0.queue.4.counters"));
	assert_non_null(strstr(strbuf_str(&text), "n/a"));
	f->st[0].stats = true;
	json_object_put(d);
	strbuf_free(&text);
}

/* Every port answer says what the port really holds, in its JSON and
 * in its text, with the same words. */
static void test_show_port_state(void **state)
{
	static const enum ctl_show kinds[] = {
	    CTL_SHOW_QUEUING_IF, CTL_SHOW_POLICY_MAP_IF, CTL_SHOW_PFC_IF};
	struct fixture *f = *state;
	struct show_port_state *st = &f->st[0];
	struct json_object *d;
	struct strbuf text;

	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		struct show_query q = {.kind = kinds[k]};

		st->state = PLAN_PORT_PROGRAMMED;
		d = answer(f, &q, &text);
		assert_string_equal(
		    json_object_get_string(jget(d, "interface.0.state")),
		    "programmed");
		assert_true(json_object_object_get_ex(jget(d, "interface.0"),
		                                      "reason", NULL));
		assert_null(jget(d, "interface.0.reason"));
		assert_null(jget(d, "interface.0.foreign-root-qdisc"));
		if (kinds[k] != CTL_SHOW_PFC_IF)
			assert_non_null(
			    strstr(strbuf_str(&text), "State: programmed"));
		assert_null(strstr(strbuf_str(&text), "not programmed"));
		json_object_put(d);
		strbuf_free(&text);

		/* a foreign root qdisc in the way */
		st->state = PLAN_PORT_REFUSED;
		snprintf(st->reason, sizeof(st->reason),
		         "foreign root qdisc htb 1: (roced did not create it)");
		snprintf(st->foreign_kind, sizeof(st->foreign_kind), "htb");
		st->foreign_handle = 0x10000;
		d = answer(f, &q, &text);
		assert_string_equal(
		    json_object_get_string(jget(d, "interface.0.state")),
		    "refused");
		assert_string_equal(
		    json_object_get_string(jget(d, "interface.0.reason")),
		    st->reason);
		assert_string_equal(
		    json_object_get_string(
		        jget(d, "interface.0.foreign-root-qdisc.kind")),
		    "htb");
		assert_string_equal(
		    json_object_get_string(
		        jget(d, "interface.0.foreign-root-qdisc.handle")),
		    "1:");
		assert_non_null(strstr(strbuf_str(&text),
		                       "refused: foreign root qdisc htb 1:"));
		json_object_put(d);
		strbuf_free(&text);

		/* the kernel refused a request */
		st->state = PLAN_PORT_NOT_PROGRAMMED;
		snprintf(st->reason, sizeof(st->reason),
		         "the kernel refused swp1: add qdisc htb 4791: root: "
		         "Invalid argument: extack");
		d = answer(f, &q, &text);
		assert_string_equal(
		    json_object_get_string(jget(d, "interface.0.state")),
		    "not-programmed");
		assert_null(jget(d, "interface.0.foreign-root-qdisc"));
		assert_non_null(strstr(strbuf_str(&text),
		                       "not programmed: the kernel refused "
		                       "swp1: add qdisc htb 4791: root"));
		json_object_put(d);
		strbuf_free(&text);

		/* programmed once, but roced's root is gone since */
		st->state = PLAN_PORT_PROGRAMMED;
		st->roced_root = false;
		d = answer(f, &q, &text);
		assert_string_equal(
		    json_object_get_string(jget(d, "interface.0.state")),
		    "not-programmed");
		assert_non_null(strstr(
		    json_object_get_string(jget(d, "interface.0.reason")),
		    "root qdisc is gone"));
		assert_non_null(strstr(strbuf_str(&text),
		                       "not programmed: roced's root qdisc "
		                       "is gone"));
		json_object_put(d);
		strbuf_free(&text);
		st->roced_root = true;
	}
	st->state = PLAN_PORT_PROGRAMMED;
	st->reason[0] = '\0';
}

static void test_show_pfc(void **state)
{
	struct fixture *f = *state;
	struct show_query q = {.kind = CTL_SHOW_PFC_IF};
	struct json_object *d;
	struct strbuf text;

	d = answer(f, &q, &text);
	assert_string_equal(json_object_get_string(jget(d, "interface.0.mode")),
	                    "on");
	assert_string_equal(json_object_get_string(jget(d, "interface.0.oper")),
	                    "on");
	assert_int_equal(
	    json_object_get_int(jget(d, "interface.0.priorities.0")), 3);
	assert_null(jget(d, "interface.0.rx-pause"));
	assert_non_null(strstr(json_object_get_string(jget(d, "note")),
	                       "only on configured ports that are up"));
	assert_non_null(strstr(strbuf_str(&text), "Ethernet1/1"));
	assert_non_null(strstr(strbuf_str(&text), "On  (8)"));
	assert_non_null(strstr(strbuf_str(&text), "n/a"));
	json_object_put(d);
	strbuf_free(&text);

	/* Software PFC runs there (issue 8): its counters, RxPPP the frames,
	 * per priority in the detail. */
	f->st[0].softpfc = true;
	f->st[0].rx_ppp = 7;
	f->st[0].rx_pause[3] = 6;
	f->st[0].rx_xon[3] = 1;
	f->st[0].held = 0x08;
	f->st[0].held_ms[3] = 1234.5;
	q.detail = true;
	d = answer(f, &q, &text);
	assert_int_equal(json_object_get_int(jget(d, "interface.0.rx-pause")),
	                 7);
	assert_int_equal(json_object_get_int(jget(d, "interface.0.tx-pause")),
	                 0);
	assert_int_equal(
	    json_object_get_int(jget(d, "interface.0.priority.3.rx-pause")), 6);
	assert_int_equal(
	    json_object_get_int(jget(d, "interface.0.priority.3.rx-xon")), 1);
	assert_true(
	    json_object_get_boolean(jget(d, "interface.0.priority.3.paused")));
	assert_int_equal(
	    json_object_get_int(jget(d, "interface.0.priority.3.paused-ms")),
	    1234);
	assert_non_null(strstr(json_object_get_string(jget(d, "note")),
	                       "software PFC counters"));
	assert_non_null(strstr(strbuf_str(&text), "RxPause"));
	assert_non_null(strstr(strbuf_str(&text),
	                       "  3         6          1          0          "
	                       "0          yes     1234"));
	f->st[0].softpfc = false;
	json_object_put(d);
	strbuf_free(&text);
}

/* A hardware port: the driver's PFC state and pause counts (dcbnl's
 * requests = sent, indications = received) are shown, not the plan's. */
static void test_show_pfc_hw(void **state)
{
	struct fixture *f = *state;
	struct show_query q = {.kind = CTL_SHOW_PFC_IF};
	struct compile_port port = {.ifname = "swp1"};
	struct show_port_state st = {.exists = true, .dcb = true};
	struct show_input in = f->in;
	const struct plan_port *plans[1];
	struct json_object *d;
	struct strbuf text;
	struct plan pl;

	caps_preset(&port.caps, CAPS_PRESET_HW);
	plan_init(&pl);
	assert_int_equal(compile_policy(&f->p, &port, 1, &pl), 0);
	assert_false(pl.ports[0].dcb.software);
	st.pfc_en = 0x08;
	st.indications[3] = 1000;
	st.indications[4] = 7;
	st.requests[3] = 55;
	plans[0] = &pl.ports[0];
	in.plans = plans;
	in.state = &st;
	in.nports = 1;
	strbuf_init(&text);
	assert_int_equal(show_answer(&q, &in, &d, &text, NULL, 0), 0);
	assert_string_equal(json_object_get_string(jget(d, "interface.0.dcb")),
	                    "hardware");
	assert_int_equal(json_object_get_int(jget(d, "interface.0.rx-pause")),
	                 1007);
	assert_int_equal(json_object_get_int(jget(d, "interface.0.tx-pause")),
	                 55);
	assert_null(jget(d, "note"));
	assert_non_null(strstr(strbuf_str(&text), "1007"));
	json_object_put(d);
	strbuf_free(&text);
	/* the driver has PFC off although the plan wants it: say so */
	st.pfc_en = 0;
	strbuf_init(&text);
	assert_int_equal(show_answer(&q, &in, &d, &text, NULL, 0), 0);
	assert_string_equal(json_object_get_string(jget(d, "interface.0.oper")),
	                    "off");
	json_object_put(d);
	strbuf_free(&text);
	plan_free(&pl);
}

/* show queuing pfc-queue detail, with the watchdog at its defaults, is
 * what the reference switch prints. */
static void test_show_pfc_queue_reference(void **state)
{
	struct fixture *f = *state;
	struct show_query q = {.kind = CTL_SHOW_PFC_QUEUE, .detail = true};
	struct json_object *d;
	struct strbuf text, want;
	char line[256];
	FILE *ref;

	/* `show queuing pfc-queue detail` of the reference Nexus switch. */
	ref = fopen(TEST_SRCDIR "/tests/fixtures/nxos-pfcwd-detail.txt", "r");
	if (!ref)
		fail_msg("the reference output is missing: %s",
		         TEST_SRCDIR "/tests/fixtures/nxos-pfcwd-detail.txt");
	strbuf_init(&want);
	while (fgets(line, sizeof(line), ref))
		if (line[0] != '!')
			strbuf_puts(&want, line);
	fclose(ref);
	f->p.pfcwd.enabled = false;
	d = answer(f, &q, &text);
	f->p.pfcwd.enabled = true;
	if (strncmp(strbuf_str(&text), strbuf_str(&want), want.len))
		fail_msg("have:\n%s\nwant:\n%s", strbuf_str(&text),
		         strbuf_str(&want));
	assert_true(json_object_get_boolean(jget(d, "running")));
	assert_string_equal(json_object_get_string(jget(d, "action")), "drop");
	json_object_put(d);
	strbuf_free(&text);
	strbuf_free(&want);
}

/* The watchdog's per-queue state and counters (issue 8): a queue in a
 * storm, in json and in the detail text. */
static void test_show_pfc_queue_storm(void **state)
{
	struct fixture *f = *state;
	struct show_query q = {.kind = CTL_SHOW_PFC_QUEUE, .detail = true};
	struct json_object *d;
	struct strbuf text;
	struct pfcwd_queue *s = &f->st[0].wdq[3];

	f->st[0].wd = true;
	f->st[0].wd_queues = 0x08;
	f->st[0].wd_prios[3] = 0x08;
	f->st[0].now_ms = 10000;
	pfcwd_init(s);
	s->state = PFCWD_SHUTDOWN;
	s->storms = 2;
	s->restores = 1;
	s->drained = 40;
	s->dropped = 3590;
	s->last_storm_ms = 7500;
	d = answer(f, &q, &text);
	assert_string_equal(
	    json_object_get_string(jget(d, "interface.0.state")), "shutdown");
	assert_int_equal(
	    json_object_get_int(jget(d, "interface.0.queues.0.qos-group")), 3);
	assert_int_equal(json_object_get_int(
	                     jget(d, "interface.0.queues.0.dropped-packets")),
	                 3590);
	assert_true(json_object_get_double(jget(
	                d, "interface.0.queues.0.last-storm-s-ago")) == 2.5);
	assert_null(jget(d, "interface.0.queues.0.last-restore-s-ago"));
	assert_non_null(strstr(strbuf_str(&text), "Enabled ( 0x8 )         "
	                                          "shutdown"));
	assert_non_null(
	    strstr(strbuf_str(&text),
	           "Ethernet1/1 QOS GROUP 3 [PFC-COS 3]: shutdown"));
	assert_non_null(strstr(strbuf_str(&text), "Packets dropped   3590"));
	assert_non_null(
	    strstr(strbuf_str(&text), "Last storm        2.5 s ago"));
	assert_non_null(strstr(strbuf_str(&text), "Last restore      never"));
	f->st[0].wd = false;
	json_object_put(d);
	strbuf_free(&text);
}

/* The watchdog's poll interval has one JSON key, its roced.conf name, in
 * the pfc-queue answer and in the policy JSON alike. */
static void test_show_pfc_queue_keys(void **state)
{
	struct fixture *f = *state;
	struct show_query q = {.kind = CTL_SHOW_PFC_QUEUE};
	struct json_object *d, *pj;
	struct strbuf text;

	f->p.pfcwd.poll_ms = 250;
	d = answer(f, &q, &text);
	pj = show_policy_json(&f->p, NULL);
	assert_int_equal(json_object_get_int(jget(d, "interval")), 250);
	assert_int_equal(json_object_get_int(jget(
	                     pj, "priority-flow-control.watch-dog.interval")),
	                 250);
	assert_null(jget(d, "poll-interval-ms"));
	json_object_put(pj);
	json_object_put(d);
	strbuf_free(&text);
	q.detail = true;
	d = answer(f, &q, &text);
	assert_non_null(strstr(strbuf_str(&text),
	                       "PFC watch-dog poll interval : 250 ms\n"));
	json_object_put(d);
	strbuf_free(&text);
}

static void test_show_maps(void **state)
{
	struct fixture *f = *state;
	struct show_query q = {.kind = CTL_SHOW_POLICY_MAP};
	struct json_object *d;
	struct strbuf text;
	char err[256];

	d = answer(f, &q, &text);
	assert_non_null(strstr(strbuf_str(&text),
	                       "  policy-map type queuing ROCE_QUEUING_OUT\n"
	                       "    class type queuing c-out-8q-q3\n"
	                       "      bandwidth remaining percent 50\n"
	                       "      random-detect minimum-threshold 150 "
	                       "kbytes maximum-threshold 3000 kbytes "
	                       "drop-probability 7 weight 0 ecn\n"));
	assert_non_null(strstr(strbuf_str(&text),
	                       "    class type network-qos ROCE_NETWORK_CLASS\n"
	                       "      pause pfc-cos 3\n      mtu 9216\n"));
	json_object_put(d);
	strbuf_free(&text);

	q.kind = CTL_SHOW_CLASS_MAP;
	snprintf(q.name, sizeof(q.name), "ROCE_CLASS");
	d = answer(f, &q, &text);
	assert_int_equal(json_object_array_length(jget(d, "class-map")), 1);
	assert_non_null(strstr(strbuf_str(&text),
	                       "    class-map type qos match-all ROCE_CLASS\n"
	                       "      match cos 3\n      match dscp 26\n"));
	json_object_put(d);
	strbuf_free(&text);

	snprintf(q.name, sizeof(q.name), "NOPE");
	strbuf_init(&text);
	assert_int_equal(show_answer(&q, &f->in, &d, &text, err, sizeof(err)),
	                 -1);
	assert_non_null(strstr(err, "NOPE does not exist"));
	strbuf_free(&text);
}

/* The running-config JSON is the config file's structure. */
static void test_show_policy_json(void **state)
{
	struct fixture *f = *state;
	struct json_object *d = show_policy_json(&f->p, NULL);
	struct json_object *qos;

	(void)state;
	assert_string_equal(
	    json_object_get_string(jget(d, "class-map.qos.0.name")),
	    "ROCE_CLASS");
	assert_int_equal(json_object_get_int(jget(d, "class-map.qos.0.dscp.0")),
	                 26);
	assert_int_equal(
	    json_object_get_int(jget(d, "policy-map.queuing.0.class.0."
	                                "random-detect.maximum-threshold")),
	    3000 * 1024);
	assert_int_equal(json_object_get_int(
	                     jget(d, "policy-map.network-qos.0.class.0.mtu")),
	                 9216);
	assert_string_equal(json_object_get_string(jget(
	                        d, "system-qos.service-policy.network-qos")),
	                    "ROCE_NETWORK_POLICY");
	assert_string_equal(json_object_get_string(jget(
	                        d, "interface.0.priority-flow-control.mode")),
	                    "on");
	assert_true(json_object_get_boolean(
	    jget(d, "priority-flow-control.watch-dog-interval")));
	json_object_put(d);
	/* "qos": everything but the interfaces; an interface alone */
	qos = show_policy_json(&f->p, "qos");
	assert_null(jget(qos, "interface"));
	assert_non_null(jget(qos, "class-map"));
	json_object_put(qos);
	d = show_policy_json(&f->p, "Ethernet1/1");
	assert_int_equal(json_object_array_length(jget(d, "interface")), 1);
	assert_null(jget(d, "class-map"));
	json_object_put(d);
}

/* --- ctl_cmd: requests answered from the daemon's state --- */

/* The daemon's side, faked: what a commit or a reload was asked, and
 * what it answers. */
struct fake_daemon {
	int commits, reloads, forced;
	char line[CTL_LINE_MAX]; /* the candidate's qos-input of swp1 */
	int rc;
};

static int fake_commit(void *daemon, struct policy *cand, struct diag *msgs)
{
	struct fake_daemon *fd = daemon;

	fd->commits++;
	snprintf(fd->line, sizeof(fd->line), "%s", cand->ifaces[0].qos_input);
	/* What ports_compile() adds to a command line's list. */
	if (fd->rc)
		diag_err(msgs, 0,
		         "roced.conf:42: swp1: queuing policy-map NOSUCH is "
		         "not defined");
	return fd->rc;
}

static int fake_reload(void *daemon, bool force, struct diag *msgs)
{
	struct fake_daemon *fd = daemon;

	fd->reloads++;
	fd->forced += force;
	if (fd->rc)
		diag_err(msgs, 42,
		         "swp1: queuing policy-map NOSUCH is not defined");
	return fd->rc;
}

static const struct ctl_cmd_ops fake_ops = {.commit = fake_commit,
                                            .reload = fake_reload};

/* Answer the request JSON with the fixture's registry. */
static struct json_object *request(struct fixture *f, struct engine *e,
                                   struct fake_daemon *fd, const char *json)
{
	struct ctl_cmd_ctx c = {.ops = &fake_ops,
	                        .daemon = fd,
	                        .policy = &f->p,
	                        .file = "roced.conf",
	                        .e = e,
	                        .ports = &f->reg};
	struct ctl_peer peer = {.uid = 0};
	struct ctl_request r;
	char err[256];

	if (parse(json, &r, err) < 0)
		fail_msg("%s: %s", json, err);
	return ctl_cmd_handle(&c, &r, &peer);
}

static const char *reply_str(struct json_object *r, const char *path)
{
	return json_object_get_string(jget(r, path));
}

/* show reads the plan the daemon applied (here one no compile of this
 * policy makes), not a plan compiled again for the answer. */
static void test_cmd_show_applied_plan(void **state)
{
	struct fixture *f = *state;
	struct fake_daemon fd = {0};
	struct json_object *r;
	struct engine e;

	assert_int_equal(engine_open(&e, false, NULL, NULL), 0);
	f->reg.v[0].plan.layout = PLAN_LAYOUT_ETS_RED;
	r = request(f, &e, &fd,
	            "{\"cmd\":\"show\",\"what\":\"show queuing interface\","
	            "\"args\":[\"Ethernet1/1\"],\"json\":true}");
	assert_true(json_object_get_boolean(jget(r, "ok")));
	assert_string_equal(reply_str(r, "data.interface.0.name"), "swp1");
	assert_string_equal(reply_str(r, "data.interface.0.layout"), "ets+red");
	assert_string_equal(reply_str(r, "data.interface.0.queuing-policy"),
	                    "ROCE_QUEUING_OUT");
	assert_string_equal(reply_str(r, "data.interface.0.state"),
	                    "programmed");
	json_object_put(r);

	/* Refused: the registry's reason and foreign root reach show. */
	f->reg.v[0].status = RECONCILE_REFUSED;
	snprintf(f->reg.v[0].reason, sizeof(f->reg.v[0].reason),
	         "foreign root qdisc prio 8: (roced did not create it)");
	snprintf(f->reg.v[0].foreign_kind, sizeof(f->reg.v[0].foreign_kind),
	         "prio");
	f->reg.v[0].foreign_handle = 0x80000;
	r = request(f, &e, &fd,
	            "{\"cmd\":\"show\",\"what\":\"show queuing interface\","
	            "\"args\":[\"swp1\"],\"json\":false}");
	assert_true(json_object_get_boolean(jget(r, "ok")));
	assert_string_equal(reply_str(r, "data.interface.0.state"), "refused");
	assert_string_equal(
	    reply_str(r, "data.interface.0.foreign-root-qdisc.handle"), "8:");
	assert_non_null(strstr(reply_str(r, "text"),
	                       "State: refused: foreign root qdisc prio 8:"));
	json_object_put(r);
	f->reg.v[0].status = RECONCILE_OK;

	/* Not applied yet: roced holds nothing there, and says so. */
	f->reg.v[0].applied = false;
	snprintf(f->reg.v[0].reason, sizeof(f->reg.v[0].reason),
	         "the configuration does not compile");
	r = request(f, &e, &fd,
	            "{\"cmd\":\"show\",\"what\":\"show queuing interface\","
	            "\"args\":[],\"json\":true}");
	assert_true(json_object_get_boolean(jget(r, "ok")));
	assert_string_equal(reply_str(r, "data.interface.0.layout"), "none");
	assert_string_equal(reply_str(r, "data.interface.0.alias"),
	                    "Ethernet1/1");
	assert_null(jget(r, "data.interface.0.queuing-policy"));
	assert_int_equal(
	    json_object_array_length(jget(r, "data.interface.0.queue")), 0);
	assert_string_equal(reply_str(r, "data.interface.0.state"),
	                    "not-programmed");
	assert_string_equal(reply_str(r, "data.interface.0.reason"),
	                    "the configuration does not compile");
	json_object_put(r);

	/* A link roced does not configure: no plan of roced's either. */
	r = request(f, &e, &fd,
	            "{\"cmd\":\"show\",\"what\":\"show policy-map interface\","
	            "\"args\":[\"lo\"],\"json\":true}");
	assert_true(json_object_get_boolean(jget(r, "ok")));
	assert_string_equal(reply_str(r, "data.interface.0.name"), "lo");
	assert_true(
	    json_object_get_boolean(jget(r, "data.interface.0.exists")));
	assert_null(jget(r, "data.interface.0.service-policy.qos-input"));
	assert_string_equal(reply_str(r, "data.interface.0.state"),
	                    "not-programmed");
	assert_string_equal(reply_str(r, "data.interface.0.reason"),
	                    "roced does not configure this link");
	json_object_put(r);
	assert_int_equal(fd.commits + fd.reloads, 0);
	engine_close(&e);
}

/* A config line and a reload go through the daemon's ops; their errors
 * reach the client at their FILE:LINE. */
static void test_cmd_commit_reload(void **state)
{
	struct fixture *f = *state;
	struct fake_daemon fd = {0};
	struct json_object *r;
	struct engine e;

	assert_int_equal(engine_open(&e, false, NULL, NULL), 0);
	r = request(f, &e, &fd,
	            "{\"cmd\":\"config\",\"context\":[\"interface swp1\"],"
	            "\"line\":\"no service-policy type qos input "
	            "ROCE_POLICY\"}");
	assert_true(json_object_get_boolean(jget(r, "ok")));
	assert_int_equal(fd.commits, 1);
	assert_string_equal(fd.line, "");
	json_object_put(r);

	fd.rc = -EINVAL;
	r = request(f, &e, &fd,
	            "{\"cmd\":\"config\",\"context\":[\"interface swp1\"],"
	            "\"line\":\"no service-policy type qos input "
	            "ROCE_POLICY\"}");
	assert_false(json_object_get_boolean(jget(r, "ok")));
	assert_non_null(strstr(reply_str(r, "error"),
	                       "\n% roced.conf:42: swp1: queuing policy-map "
	                       "NOSUCH is not defined"));
	json_object_put(r);

	r = request(f, &e, &fd, "{\"cmd\":\"reload\"}");
	assert_int_equal(fd.reloads, 1);
	assert_int_equal(fd.forced, 0);
	assert_false(json_object_get_boolean(jget(r, "ok")));
	assert_non_null(strstr(reply_str(r, "error"),
	                       "\n% roced.conf:42: error: swp1: queuing "
	                       "policy-map NOSUCH is not defined"));
	json_object_put(r);

	/* "force" reaches the daemon; a reload that worked says so, for
	 * rocesh to print. */
	fd.rc = 0;
	r = request(f, &e, &fd, "{\"cmd\":\"reload\",\"force\":true}");
	assert_int_equal(fd.reloads, 2);
	assert_int_equal(fd.forced, 1);
	assert_true(json_object_get_boolean(jget(r, "ok")));
	assert_non_null(strstr(reply_str(r, "text"), "Reloaded "));
	json_object_put(r);
	engine_close(&e);
}

/* --- copy running-config startup-config --- */

static char *slurp(const char *path)
{
	static char buf[4096];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return NULL;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n < 0 ? 0 : n] = '\0';
	return buf;
}

static void test_write_atomic(void **state)
{
	char dir[] = "/tmp/test_ctl.XXXXXX", path[128], bak[128], err[256];
	struct stat st;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/roced.conf", dir);
	snprintf(bak, sizeof(bak), "%s/roced.conf.bak", dir);
	/* a new file: no backup */
	assert_int_equal(ctl_cmd_write_atomic(path, "one\n", err, sizeof(err)),
	                 0);
	assert_string_equal(slurp(path), "one\n");
	assert_int_equal(stat(bak, &st), -1);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	/* replaced: the old one is the backup, the mode is kept */
	chmod(path, 0640);
	assert_int_equal(ctl_cmd_write_atomic(path, "two\n", err, sizeof(err)),
	                 0);
	assert_string_equal(slurp(path), "two\n");
	assert_string_equal(slurp(bak), "one\n");
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	assert_int_equal(
	    ctl_cmd_write_atomic(path, "three\n", err, sizeof(err)), 0);
	assert_string_equal(slurp(bak), "two\n");
	/* no temporary file left behind */
	{
		DIR *dp = opendir(dir);
		struct dirent *de;
		size_t n = 0;

		assert_non_null(dp);
		while ((de = readdir(dp)))
			if (de->d_name[0] != '.')
				n++;
		closedir(dp);
		assert_int_equal(n, 2);
	}
	/* a directory that does not exist: an error, nothing written */
	snprintf(path, sizeof(path), "%s/nodir/roced.conf", dir);
	assert_true(ctl_cmd_write_atomic(path, "x", err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "roced.conf"));
	snprintf(path, sizeof(path), "%s/roced.conf", dir);
	unlink(path);
	unlink(bak);
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse_valid),
	    cmocka_unit_test(test_parse_malformed),
	    cmocka_unit_test(test_parse_limits),
	    cmocka_unit_test(test_rights),
	    cmocka_unit_test(test_status_groups),
	    cmocka_unit_test(test_socket_path),
	    cmocka_unit_test(test_show_query),
	    cmocka_unit_test_setup_teardown(test_show_queuing, fx_setup,
	                                    fx_teardown),
	    cmocka_unit_test_setup_teardown(test_show_port_state, fx_setup,
	                                    fx_teardown),
	    cmocka_unit_test_setup_teardown(test_show_pfc, fx_setup,
	                                    fx_teardown),
	    cmocka_unit_test_setup_teardown(test_show_pfc_hw, fx_setup,
	                                    fx_teardown),
	    cmocka_unit_test_setup_teardown(test_show_pfc_queue_storm, fx_setup,
	                                    fx_teardown),
	    cmocka_unit_test_setup_teardown(test_show_pfc_queue_reference,
	                                    fx_setup, fx_teardown),
	    cmocka_unit_test_setup_teardown(test_show_pfc_queue_keys, fx_setup,
	                                    fx_teardown),
	    cmocka_unit_test_setup_teardown(test_show_maps, fx_setup,
	                                    fx_teardown),
	    cmocka_unit_test_setup_teardown(test_show_policy_json, fx_setup,
	                                    fx_teardown),
	    cmocka_unit_test_setup_teardown(test_cmd_show_applied_plan,
	                                    fx_setup, fx_teardown),
	    cmocka_unit_test_setup_teardown(test_cmd_commit_reload, fx_setup,
	                                    fx_teardown),
	    cmocka_unit_test(test_write_atomic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
