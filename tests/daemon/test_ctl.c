/* test_ctl: the control socket's pure parts: strict request parsing, the
 * configure right, the socket path; requests answered by ctl_cmd with a
 * faked daemon; the atomic startup-config write. No root and no daemon
 * needed. show's queries and answers are test_ctl_show's. */
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

#include "control/ctl_cmd.h"
#include "ctl_test.h"
#include "show/show_build.h"

#define ASSERT_REFUSED(json, words)                                            \
	do {                                                                   \
		struct ctl_request r_;                                         \
		char e_[256] = "";                                             \
		assert_int_equal(ctlt_parse((json), &r_, e_), -EINVAL);        \
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
	assert_int_equal(ctlt_parse("{\"cmd\":\"ping\"}", &r, err), 0);
	assert_int_equal(r.cmd, CTL_CMD_PING);
	assert_int_equal(
	    ctlt_parse(" {\"cmd\": \"config\", \"context\": [\"policy-map type "
	               "queuing Q\", \"class type queuing c-out-8q-q3\"], "
	               "\"line\": \"bandwidth remaining percent 50\"}\n",
	               &r, err),
	    0);
	assert_int_equal(r.cmd, CTL_CMD_CONFIG);
	assert_int_equal(r.ncontext, 2);
	assert_string_equal(r.context[1], "class type queuing c-out-8q-q3");
	assert_string_equal(r.line, "bandwidth remaining percent 50");
	assert_int_equal(
	    ctlt_parse("{\"cmd\":\"config\",\"line\":\"end\"}", &r, err), 0);
	assert_int_equal(r.ncontext, 0);
	assert_int_equal(
	    ctlt_parse("{\"cmd\":\"show\",\"what\":\"show queuing "
	               "interface\",\"args\":[\"swp1\"],\"json\":true}",
	               &r, err),
	    0);
	assert_int_equal(r.cmd, CTL_CMD_SHOW);
	assert_string_equal(r.what, "show queuing interface");
	assert_int_equal(r.nargs, 1);
	assert_string_equal(r.args[0], "swp1");
	assert_true(r.json);
	assert_int_equal(
	    ctlt_parse("{\"cmd\":\"copy\",\"from\":\"running-config\","
	               "\"to\":\"startup-config\"}",
	               &r, err),
	    0);
	assert_int_equal(r.cmd, CTL_CMD_COPY);
	assert_int_equal(
	    ctlt_parse("{\"cmd\":\"debug\",\"subsys\":\"dcbx\"}", &r, err), 0);
	assert_true(r.on);
	assert_int_equal(ctlt_parse("{\"cmd\":\"debug\",\"subsys\":\"dcbx\","
	                            "\"on\":false}",
	                            &r, err),
	                 0);
	assert_false(r.on);
	assert_int_equal(ctlt_parse("{\"cmd\":\"reload\"}", &r, err), 0);
	assert_false(r.force);
	assert_int_equal(
	    ctlt_parse("{\"cmd\":\"reload\",\"force\":true}", &r, err), 0);
	assert_true(r.force);
	assert_int_equal(
	    ctlt_parse("{\"cmd\":\"reload\",\"force\":1}", &r, err), -EINVAL);
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
	assert_int_equal(ctlt_parse(big, &r, err), -EINVAL);
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
		struct stat sock;

		/* Init's namespace: the short name where a roced made it,
		 * else this namespace's own name (which a roced that could
		 * not prove it is init's takes): a fresh machine has no
		 * socket yet. */
		if (a.st_ino == b.st_ino &&
		    stat(CTL_DIR "/roced.sock", &sock) == 0)
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
	/* roced's own files: the short name only where the namespace is
	 * proved to be init's, never on a guess. */
	if (stat("/proc/self/ns/net", &a) == 0 &&
	    stat("/proc/1/ns/net", &b) < 0) {
		char mine[128];

		snprintf(mine, sizeof(mine), "%s/roced.%lu.pid", CTL_DIR,
		         (unsigned long)a.st_ino);
		assert_string_equal(buf, mine);
	}
	assert_int_equal(ctl_socket_path(tiny, sizeof(tiny)), -ENAMETOOLONG);
}

/* --- ctl_cmd: requests answered from the daemon's state --- */

/* The daemon's side, faked: what a commit or a reload was asked, and
 * what it answers. */
struct fake_daemon {
	int commits, reloads, forced, dry_runs;
	char line[CTL_LINE_MAX]; /* the candidate's qos-input of swp1 */
	int rc;
	const char *warn; /* a warning each commit brings (NULL: none) */
	/* The daemon's memory of the warnings told (ctl_cmd_ctx.told). */
	struct strbuf told;
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
	if (fd->warn)
		diag_warn(msgs, 0, "%s", fd->warn);
	return fd->rc;
}

static int fake_reload(void *daemon, struct ctl_cmd_reload *r,
                       struct diag *msgs)
{
	struct fake_daemon *fd = daemon;

	fd->reloads++;
	fd->forced += r->force;
	fd->dry_runs += r->dry_run;
	if (r->dry_run && !fd->rc) {
		strbuf_puts(&r->before, "# port swp1\nclass a\n");
		strbuf_puts(&r->after, "# port swp1\nclass b\n");
		strbuf_puts(&r->text, "--- swp1\n-class a\n+class b\n");
		r->ports_changed = 1;
	}
	r->writes = 3;
	if (fd->rc)
		diag_err(msgs, 42,
		         "swp1: queuing policy-map NOSUCH is not defined");
	return fd->rc;
}

static const struct ctl_cmd_ops fake_ops = {.commit = fake_commit,
                                            .reload = fake_reload};

/* Answer the request JSON with the fixture's registry. */
static struct json_object *request(struct ctlt_fixture *f, struct engine *e,
                                   struct fake_daemon *fd, const char *json)
{
	struct ctl_cmd_ctx c = {.ops = &fake_ops,
	                        .daemon = fd,
	                        .policy = &f->p,
	                        .file = "roced.conf",
	                        .e = e,
	                        .ports = &f->reg};
	struct ctl_peer peer = {.uid = 0};
	struct json_object *reply;
	struct ctl_request r;
	char err[256];

	if (ctlt_parse(json, &r, err) < 0)
		fail_msg("%s: %s", json, err);
	c.told = fd->told;
	reply = ctl_cmd_handle(&c, &r, &peer);
	fd->told = c.told;
	return reply;
}

static const char *reply_str(struct json_object *r, const char *path)
{
	return json_object_get_string(ctlt_jget(r, path));
}

/* show reads the plan the daemon applied (here one no compile of this
 * policy makes), not a plan compiled again for the answer. */
static void test_cmd_show_applied_plan(void **state)
{
	struct ctlt_fixture *f = *state;
	struct fake_daemon fd = {0};
	struct json_object *r;
	struct engine e;

	assert_int_equal(engine_open(&e, false, NULL, NULL), 0);
	f->reg.v[0].plan.layout = PLAN_LAYOUT_ETS_RED;
	r = request(f, &e, &fd,
	            "{\"cmd\":\"show\",\"what\":\"show queuing interface\","
	            "\"args\":[\"Ethernet1/1\"],\"json\":true}");
	assert_true(json_object_get_boolean(ctlt_jget(r, "ok")));
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
	assert_true(json_object_get_boolean(ctlt_jget(r, "ok")));
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
	assert_true(json_object_get_boolean(ctlt_jget(r, "ok")));
	assert_string_equal(reply_str(r, "data.interface.0.layout"), "none");
	assert_string_equal(reply_str(r, "data.interface.0.alias"),
	                    "Ethernet1/1");
	assert_null(ctlt_jget(r, "data.interface.0.queuing-policy"));
	assert_int_equal(
	    json_object_array_length(ctlt_jget(r, "data.interface.0.queue")),
	    0);
	assert_string_equal(reply_str(r, "data.interface.0.state"),
	                    "not-programmed");
	assert_string_equal(reply_str(r, "data.interface.0.reason"),
	                    "the configuration does not compile");
	json_object_put(r);

	/* A link roced does not configure: no plan of roced's either. */
	r = request(f, &e, &fd,
	            "{\"cmd\":\"show\",\"what\":\"show policy-map interface\","
	            "\"args\":[\"lo\"],\"json\":true}");
	assert_true(json_object_get_boolean(ctlt_jget(r, "ok")));
	assert_string_equal(reply_str(r, "data.interface.0.name"), "lo");
	assert_true(
	    json_object_get_boolean(ctlt_jget(r, "data.interface.0.exists")));
	assert_null(ctlt_jget(r, "data.interface.0.service-policy.qos-input"));
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
	struct ctlt_fixture *f = *state;
	struct fake_daemon fd = {0};
	struct json_object *r;
	struct engine e;

	assert_int_equal(engine_open(&e, false, NULL, NULL), 0);
	r = request(f, &e, &fd,
	            "{\"cmd\":\"config\",\"context\":[\"interface swp1\"],"
	            "\"line\":\"no service-policy type qos input "
	            "ROCE_POLICY\"}");
	assert_true(json_object_get_boolean(ctlt_jget(r, "ok")));
	assert_int_equal(fd.commits, 1);
	assert_string_equal(fd.line, "");
	json_object_put(r);

	fd.rc = -EINVAL;
	r = request(f, &e, &fd,
	            "{\"cmd\":\"config\",\"context\":[\"interface swp1\"],"
	            "\"line\":\"no service-policy type qos input "
	            "ROCE_POLICY\"}");
	assert_false(json_object_get_boolean(ctlt_jget(r, "ok")));
	assert_non_null(strstr(reply_str(r, "error"),
	                       "\n% roced.conf:42: swp1: queuing policy-map "
	                       "NOSUCH is not defined"));
	json_object_put(r);

	r = request(f, &e, &fd, "{\"cmd\":\"reload\"}");
	assert_int_equal(fd.reloads, 1);
	assert_int_equal(fd.forced, 0);
	assert_false(json_object_get_boolean(ctlt_jget(r, "ok")));
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
	assert_true(json_object_get_boolean(ctlt_jget(r, "ok")));
	assert_non_null(strstr(reply_str(r, "text"), "Reloaded "));
	/* The reload's kernel writes, for a client that must tell an
	 * idempotent run from one that wrote. */
	assert_int_equal(json_object_get_int(ctlt_jget(r, "writes")), 3);
	json_object_put(r);

	/* A dry run reaches the daemon as one, and its reply carries both
	 * plans and the lines that differ. */
	r = request(f, &e, &fd, "{\"cmd\":\"reload\",\"dry-run\":true}");
	assert_int_equal(fd.dry_runs, 1);
	assert_true(json_object_get_boolean(ctlt_jget(r, "ok")));
	assert_true(json_object_get_boolean(ctlt_jget(r, "plan-changed")));
	assert_int_equal(json_object_get_int(ctlt_jget(r, "ports-changed")), 1);
	assert_string_equal(reply_str(r, "before"), "# port swp1\nclass a\n");
	assert_string_equal(reply_str(r, "after"), "# port swp1\nclass b\n");
	assert_non_null(strstr(reply_str(r, "text"), "+class b\n"));
	json_object_put(r);
	/* A candidate outside the configuration file's directory is not
	 * read at all. */
	r = request(f, &e, &fd,
	            "{\"cmd\":\"reload\",\"dry-run\":true,"
	            "\"file\":\"/etc/passwd\"}");
	assert_int_equal(fd.dry_runs, 1);
	assert_false(json_object_get_boolean(ctlt_jget(r, "ok")));
	assert_non_null(
	    strstr(reply_str(r, "error"), "a candidate file must be in"));
	json_object_put(r);
	engine_close(&e);
}

/* show version: the build, the kernel, what the probe found (here the
 * registry's kernel part) and each configured port's DCB and tree. */
static void test_cmd_show_version(void **state)
{
	struct ctlt_fixture *f = *state;
	struct fake_daemon fd = {0};
	struct json_object *r;
	struct engine e;

	assert_int_equal(engine_open(&e, false, NULL, NULL), 0);
	f->reg.kernel.qdiscs = CAPS_QD_HTB | CAPS_QD_BFIFO;
	f->reg.kernel.classifiers = CAPS_CLS_U32;
	f->reg.v[0].plan.layout = PLAN_LAYOUT_HTB_FIFO;
	r = request(f, &e, &fd,
	            "{\"cmd\":\"show\",\"what\":\"show version\","
	            "\"args\":[],\"json\":true}");
	assert_true(json_object_get_boolean(ctlt_jget(r, "ok")));
	assert_string_equal(reply_str(r, "data.version"), SHOW_BUILD_VERSION);
	assert_string_equal(reply_str(r, "data.capabilities.source"), "probe");
	assert_string_equal(reply_str(r, "data.capabilities.qdiscs.0"), "htb");
	assert_string_equal(reply_str(r, "data.capabilities.qdiscs.1"),
	                    "bfifo");
	assert_false(json_object_get_boolean(
	    ctlt_jget(r, "data.capabilities.u32-actions")));
	assert_string_equal(reply_str(r, "data.interface.0.name"), "swp1");
	assert_string_equal(reply_str(r, "data.interface.0.dcb"), "software");
	assert_string_equal(reply_str(r, "data.interface.0.tc-tree"),
	                    "htb+bfifo");
	assert_non_null(strstr(reply_str(r, "text"),
	                       "  Ethernet1/1 (swp1): software DCB (roced), "
	                       "tc tree htb+bfifo"));
	/* No fq in these capabilities (nor the programs): software PFC
	 * stays in roced's process, and says why. */
	assert_string_equal(reply_str(r, "data.capabilities.software-pfc-path"),
	                    "user-space");
	assert_non_null(strstr(reply_str(r, "text"),
	                       "  software PFC, pause received: in roced's "
	                       "process (held tbf) ("));
	assert_non_null(strstr(reply_str(r, "text"), "\nKernel\n  Linux "));
	json_object_put(r);
	assert_int_equal(fd.commits + fd.reloads, 0);
	engine_close(&e);
}

/* A warning that stands after a change is told by the reply to that
 * change, not by every reply after it (whichever session asks), and
 * again once it went away and came back. */
static void test_cmd_told_once(void **state)
{
	static const char line[] =
	    "{\"cmd\":\"config\",\"context\":[\"interface swp1\"],"
	    "\"line\":\"no service-policy type qos input ROCE_POLICY\"}";
	struct ctlt_fixture *f = *state;
	struct fake_daemon fd = {0};
	struct json_object *r;
	struct engine e;
	const char *w;

	assert_int_equal(engine_open(&e, false, NULL, NULL), 0);
	fd.warn = "swp1: WRED/ECN not realised";
	r = request(f, &e, &fd, line);
	assert_true(json_object_get_boolean(ctlt_jget(r, "ok")));
	assert_int_equal(json_object_array_length(ctlt_jget(r, "warnings")), 1);
	w = reply_str(r, "warnings.0");
	assert_non_null(strstr(w, "swp1: WRED/ECN not realised"));
	json_object_put(r);
	/* The next line, or another session's: it still stands, untold. */
	for (int i = 0; i < 2; i++) {
		r = request(f, &e, &fd, line);
		assert_int_equal(
		    json_object_array_length(ctlt_jget(r, "warnings")), 0);
		json_object_put(r);
	}
	/* Gone, then back: told again. */
	fd.warn = NULL;
	r = request(f, &e, &fd, line);
	assert_int_equal(json_object_array_length(ctlt_jget(r, "warnings")), 0);
	json_object_put(r);
	fd.warn = "swp1: WRED/ECN not realised";
	r = request(f, &e, &fd, line);
	assert_int_equal(json_object_array_length(ctlt_jget(r, "warnings")), 1);
	json_object_put(r);
	assert_int_equal(fd.commits, 5);
	strbuf_free(&fd.told);
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
	    cmocka_unit_test_setup_teardown(test_cmd_show_applied_plan,
	                                    ctlt_setup, ctlt_teardown),
	    cmocka_unit_test_setup_teardown(test_cmd_commit_reload, ctlt_setup,
	                                    ctlt_teardown),
	    cmocka_unit_test_setup_teardown(test_cmd_show_version, ctlt_setup,
	                                    ctlt_teardown),
	    cmocka_unit_test_setup_teardown(test_cmd_told_once, ctlt_setup,
	                                    ctlt_teardown),
	    cmocka_unit_test(test_write_atomic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
