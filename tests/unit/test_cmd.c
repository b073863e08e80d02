/* Unit tests of the command language (lib/cmd/cmd.c, cmd_nxos.c,
 * cmd_running.c, cmd_render.c): the table, parsing with abbreviations,
 * ambiguity, carets, ranges, modes and prompts, `?` and TAB listings. The
 * configuration commands' effects are in test_cmd_config.c, the round
 * trips through `show running-config` and the pasted reference in
 * test_cmd_running.c. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_session.h"

/* ---- the table ---- */

static void test_table(void **state)
{
	char why[256] = "";

	(void)state;
	if (cmd_table_check(&cmd_nxos, why, sizeof(why)))
		fail_msg("table row does not compile: %s", why);
}

/* ---- modes and prompts ---- */

static void prompt_is(const struct cmd_ctx *c, const char *want)
{
	char buf[64];

	cmd_prompt(c, "roced", buf, sizeof(buf));
	assert_string_equal(buf, want);
}

static void where_is(const struct cmd_ctx *c, const char *want)
{
	char buf[512];

	cmd_where(c, buf, sizeof(buf));
	assert_string_equal(buf, want);
}

/* NX-OS's `where`: the mode lines from configuration mode, in full. */
static void test_where(void **state)
{
	static const struct {
		const char *line;
		const char *where;
	} walk[] = {
	    {"conf t", "conf"},
	    {"policy-map type queuing Q", "conf; policy-map type queuing Q"},
	    {"class type queuing c-out-8q-q3",
	     "conf; policy-map type queuing Q; class type queuing "
	     "c-out-8q-q3"},
	    {"sys qos", "conf; system qos"},
	    {"int swp1", "conf; interface swp1"},
	    {"where", "conf; interface swp1"},
	    {"end", "exec"},
	};
	struct policy p;
	struct cmd_ctx c;
	char small[8];

	(void)state;
	policy_init(&p);
	cmd_ctx_init(&c);
	where_is(&c, "exec");
	for (size_t i = 0; i < sizeof(walk) / sizeof(walk[0]); i++) {
		tc_apply(&p, &c, walk[i].line);
		where_is(&c, walk[i].where);
	}
	/* Cut to the room there is. */
	tc_apply(&p, &c, "conf t");
	tc_apply(&p, &c, "interface swp1");
	cmd_where(&c, small, sizeof(small));
	assert_string_equal(small, "conf; i");
	policy_free(&p);
}

static void test_modes(void **state)
{
	static const struct {
		const char *line;
		const char *prompt;
		size_t depth;
	} walk[] = {
	    {"configure terminal", "roced(config)# ", 0},
	    {"class-map type qos match-all C", "roced(config-cmap-qos)# ", 1},
	    {"exit", "roced(config)# ", 0},
	    {"class-map type network-qos N", "roced(config-cmap-nqos)# ", 1},
	    {"policy-map type qos P", "roced(config-pmap-qos)# ", 1},
	    {"class C", "roced(config-pmap-c-qos)# ", 2},
	    {"exit", "roced(config-pmap-qos)# ", 1},
	    {"policy-map type queuing Q", "roced(config-pmap-que)# ", 1},
	    {"class type queuing c-out-8q-q3", "roced(config-pmap-c-que)# ", 2},
	    /* a parent's command leaves the submode (NX-OS) */
	    {"class type queuing c-out-8q-q2", "roced(config-pmap-c-que)# ", 2},
	    {"policy-map type network-qos NQ", "roced(config-pmap-nqos)# ", 1},
	    {"class type network-qos N", "roced(config-pmap-nqos-c)# ", 2},
	    {"system qos", "roced(config-sys-qos)# ", 1},
	    {"interface swp1", "roced(config-if)# ", 1},
	    {"end", "roced# ", 0},
	    {"conf t", "roced(config)# ", 0},
	    {"interface swp1", "roced(config-if)# ", 1},
	    {"exit", "roced(config)# ", 0},
	    {"exit", "roced# ", 0},
	};
	struct policy p;
	struct cmd_ctx c;

	(void)state;
	policy_init(&p);
	cmd_ctx_init(&c);
	prompt_is(&c, "roced# ");
	for (size_t i = 0; i < sizeof(walk) / sizeof(walk[0]); i++) {
		tc_apply(&p, &c, walk[i].line);
		prompt_is(&c, walk[i].prompt);
		assert_int_equal(c.depth, walk[i].depth);
	}
	/* The path holds the full forms of the lines that entered. */
	tc_apply(&p, &c, "conf t");
	tc_apply(&p, &c, "policy-map type queuing Q");
	tc_apply(&p, &c, "cl ty qu c-out-8q-q-d");
	assert_string_equal(c.path[0], "policy-map type queuing Q");
	assert_string_equal(c.path[1], "class type queuing c-out-8q-q-default");
	/* exit in exec mode parses (rocesh ends the session) */
	cmd_ctx_init(&c);
	tc_apply(&p, &c, "exit");
	assert_int_equal(c.mode, CMD_MODE_EXEC);
	for (int m = 0; m < CMD_MODE_MAX; m++)
		assert_int_equal(cmd_mode_parse(cmd_mode_name(m)), m);
	assert_int_equal(cmd_mode_parse("config-nothing"), -1);
	assert_string_equal(cmd_mode_name(CMD_MODE_PMAP_C_NQOS),
	                    "config-pmap-nqos-c");
	policy_free(&p);
}

/* A `!` in the first column ends the submodes (block separator when a
 * configuration is pasted); an indented one is only a comment. */
static void test_bang(void **state)
{
	struct policy p;
	struct cmd_ctx c;
	struct cmd_parsed pa;

	(void)state;
	policy_init(&p);
	tc_session(&p, &c,
	           (const char *const[]){"interface swp1", " ! note", NULL});
	assert_int_equal(c.mode, CMD_MODE_IF);
	tc_apply(&p, &c, "! next block");
	assert_int_equal(c.mode, CMD_MODE_CONFIG);
	assert_int_equal(c.depth, 0);
	tc_parse(&c, "", &pa);
	assert_int_equal(pa.kind, CMD_KIND_MODE);
	assert_int_equal(pa.argc, 0);
	cmd_ctx_init(&c);
	tc_apply(&p, &c, "!");
	assert_int_equal(c.mode, CMD_MODE_EXEC);
	policy_free(&p);
}

static void test_ctx_from_path(void **state)
{
	const char *path[] = {"policy-map type queuing Q",
	                      "class type queuing c-out-8q-q3"};
	const char *deep[4] = {"a", "b", "c", "d"};
	char longline[200];
	const char *lp[1] = {longline};
	struct policy p;
	struct cmd_ctx c;

	(void)state;
	policy_init(&p);
	assert_int_equal(cmd_ctx_from_path(&c, path, 2), 0);
	/* re-entering creates what the path names, as NX-OS does */
	tc_apply(&p, &c, "bandwidth remaining percent 40");
	assert_int_equal(c.mode, CMD_MODE_PMAP_C_QUE);
	assert_int_equal(p.nmap_queuing, 1);
	assert_int_equal(p.map_queuing[0].queue[3].bandwidth_percent, 40);
	assert_int_equal(cmd_ctx_from_path(&c, deep, 4), -1);
	memset(longline, 'x', sizeof(longline) - 1);
	longline[sizeof(longline) - 1] = '\0';
	assert_int_equal(cmd_ctx_from_path(&c, lp, 1), -1);
	/* a path line that no longer applies */
	assert_int_equal(
	    cmd_ctx_from_path(
	        &c, (const char *[]){"policy-map type qos P", "class NOPE"}, 2),
	    0);
	tc_apply_bad(&p, &c, "set qos-group 3", "Cannot re-enter 'class NOPE'",
	             0);
	policy_free(&p);
}

/* ---- parsing ---- */

static void test_abbreviations(void **state)
{
	struct cmd_ctx c;
	struct cmd_parsed p;

	(void)state;
	cmd_ctx_init(&c);
	tc_parse(&c, "conf t", &p);
	assert_string_equal(p.name, "configure terminal");
	assert_string_equal(p.canon, "configure terminal");
	assert_int_equal(p.kind, CMD_KIND_MODE);
	tc_parse(&c, "sh run", &p);
	assert_string_equal(p.name, "show running-config");
	assert_int_equal(p.kind, CMD_KIND_SHOW);
	assert_false(p.json);
	tc_parse(&c, "  sh   run  int  Ethernet1/1  js ", &p);
	assert_string_equal(p.canon,
	                    "show running-config interface Ethernet1/1 json");
	assert_true(p.json);
	assert_int_equal(p.argc, 5);
	assert_int_equal(p.argmask, 1u << 3);
	assert_int_equal(p.pos[3], 17);
	assert_string_equal(cmd_arg(&p, 0, NULL), "Ethernet1/1");
	tc_parse(&c, "sh q int", &p);
	assert_string_equal(p.name, "show queuing interface");
	tc_parse(&c, "sh pol int swp1", &p);
	assert_string_equal(p.name, "show policy-map interface");
	tc_parse(&c, "sh pol ROCE", &p);
	assert_string_equal(p.name, "show policy-map");
	tc_parse(&c, "sh q pfc det", &p);
	assert_string_equal(p.canon, "show queuing pfc-queue detail");
	tc_parse(&c, "sh int prio", &p);
	assert_string_equal(p.name, "show interface priority-flow-control");
	tc_parse(&c, "sh lldp dcbx int swp1 json", &p);
	assert_string_equal(p.name, "show lldp dcbx interface");
	assert_true(p.json);
	tc_parse(&c, "copy run start", &p);
	assert_int_equal(p.kind, CMD_KIND_ACTION);
	assert_string_equal(p.canon, "copy running-config startup-config");
	/* NX-OS's `reload` reboots the switch: here it names what it
	 * reloads, and `reload` alone does nothing. */
	tc_parse(&c, "rel conf", &p);
	assert_int_equal(p.kind, CMD_KIND_ACTION);
	assert_string_equal(p.name, "reload config");
	assert_string_equal(p.canon, "reload config");
	tc_parse(&c, "reload config f", &p);
	assert_string_equal(p.canon, "reload config force");
	tc_parse(&c, "reload config d", &p);
	assert_string_equal(p.canon, "reload config dry-run");
	tc_parse_bad(CMD_MODE_EXEC, "reload", "% Incomplete command", -1);
	tc_parse_bad(CMD_MODE_CONFIG, "reload config", "% Invalid command", 0);
	tc_parse(&c, "no deb dcbx", &p);
	assert_string_equal(p.name, "debug");
	assert_true(p.negated);
	tc_parse(&c, "debug watch", &p);
	assert_string_equal(p.canon, "debug watchdog");
	tc_parse(&c, "no debug all", &p);
	assert_string_equal(p.canon, "no debug all");
	tc_parse_bad(CMD_MODE_EXEC, "debug lldp", "% Invalid command", 6);

	c.mode = CMD_MODE_CONFIG;
	tc_parse(&c, "int swp1", &p);
	assert_string_equal(p.name, "interface");
	assert_int_equal(p.kind, CMD_KIND_CONFIG);
	assert_string_equal(p.canon, "interface swp1");
	tc_parse(&c, "pol ty queu Q", &p);
	assert_string_equal(p.canon, "policy-map type queuing Q");
	/* "q" is qos or queuing since N3K/N5K queuing class-maps, as on NX-OS.
	 */
	tc_parse(&c, "no cl ty qo match-any C", &p);
	assert_true(p.negated);
	assert_string_equal(p.name, "class-map type qos");
	/* show works in every mode, as on NX-OS */
	c.mode = CMD_MODE_PMAP_C_QUE;
	c.depth = 2;
	tc_parse(&c, "sh run", &p);
	assert_int_equal(p.kind, CMD_KIND_SHOW);
	/* (in a queuing class `sh` is also `shape`, so the enclosing mode
	 * resolves it; a show is the same show in every mode) */
	assert_int_equal(p.mode, CMD_MODE_PMAP_QUE);
	c.mode = CMD_MODE_PMAP_C_QOS;
	tc_parse(&c, "sh run", &p);
	assert_int_equal(p.kind, CMD_KIND_SHOW);
	assert_int_equal(p.mode, CMD_MODE_PMAP_C_QOS);
	c.mode = CMD_MODE_PMAP_C_QUE;
	/* an exact keyword beats a longer one it prefixes, and a keyword
	 * prefix beats a name */
	tc_parse(&c, "class type queuing c-out-8q-q-default", &p);
	assert_int_equal(p.mode, CMD_MODE_PMAP_QUE);
	assert_int_equal(p.depth, 1);
	c.mode = CMD_MODE_PMAP_NQOS;
	c.depth = 1;
	tc_parse(&c, "class type network-qos c-8q-nq-d", &p);
	assert_string_equal(p.canon, "class type network-qos c-8q-nq-default");
	tc_parse(&c, "class type network-qos ROCE", &p);
	assert_string_equal(p.canon, "class type network-qos ROCE");
}

static void test_values(void **state)
{
	struct cmd_ctx c;
	struct cmd_parsed p;

	(void)state;
	cmd_ctx_init(&c);
	c.mode = CMD_MODE_PMAP_C_QOS;
	c.depth = 2;
	tc_parse(&c, "set qos-group 07", &p);
	assert_string_equal(p.canon, "set qos-group 7");
	c.mode = CMD_MODE_CMAP_QOS;
	c.depth = 1;
	tc_parse(&c, "match dscp af31,cs3", &p);
	assert_string_equal(p.canon, "match dscp 24,26");
	tc_parse(&c, "match cos 5,0-2", &p);
	assert_string_equal(p.canon, "match cos 0-2,5");
	c.mode = CMD_MODE_PMAP_C_QUE;
	c.depth = 2;
	tc_parse(&c, "random-detect min 150 kb max 3000 kb drop 7 w 0 ecn", &p);
	assert_string_equal(p.canon,
	                    "random-detect minimum-threshold 150 kbytes "
	                    "maximum-threshold 3000 kbytes drop-probability "
	                    "7 weight 0 ecn");
	tc_parse(&c,
	         "random-detect minimum-threshold 1 mbytes "
	         "maximum-threshold 2 mbytes",
	         &p);
	assert_int_equal(p.argc, 7);

	tc_parse_bad(CMD_MODE_PMAP_C_QOS, "set qos-group 8",
	             "% Invalid value '8', expected 0-7", 14);
	tc_parse_bad(CMD_MODE_PMAP_C_QOS, "set qos-group x",
	             "% Invalid value 'x', expected 0-7", 14);
	tc_parse_bad(CMD_MODE_PMAP_C_NQOS, "mtu 575", "expected 576-9216", 4);
	tc_parse_bad(CMD_MODE_PMAP_C_NQOS, "mtu 9217", "expected 576-9216", 4);
	tc_parse_bad(CMD_MODE_PMAP_C_QUE, "bandwidth remaining percent 101",
	             "expected 0-100", 28);
	tc_parse_bad(CMD_MODE_PMAP_C_QUE, "priority level 0", "expected 1-7",
	             15);
	tc_parse_bad(CMD_MODE_PMAP_C_QUE, "priority level 8", "expected 1-7",
	             15);
	tc_parse_bad(CMD_MODE_PMAP_C_QUE,
	             "random-detect minimum-threshold 0 kbytes",
	             "expected 1-4294967295", 32);
	tc_parse_bad(CMD_MODE_PMAP_C_QUE,
	             "random-detect minimum-threshold 1 kbytes "
	             "maximum-threshold 2 kbytes weight 16",
	             "expected 0-15", 75);
	tc_parse_bad(CMD_MODE_CMAP_QOS, "match cos 9",
	             "% Invalid value '9', expected 0-7", 10);
	tc_parse_bad(CMD_MODE_CMAP_QOS, "match cos 2-9",
	             "% Invalid range '2-9'", 10);
	tc_parse_bad(CMD_MODE_CMAP_QOS, "match dscp 64",
	             "expected a DSCP name or 0-63", 11);
	tc_parse_bad(CMD_MODE_CONFIG, "class-map type qos bad!name",
	             "% Invalid name 'bad!name'", 19);
	tc_parse_bad(
	    CMD_MODE_CONFIG,
	    "policy-map type qos "
	    "a123456789012345678901234567890123456789012345678901234567"
	    "890123",
	    "Invalid name", 20);
	tc_parse_bad(CMD_MODE_CONFIG,
	             "priority-flow-control watch-dog "
	             "shutdown-multiplier 0",
	             "expected 1-100", 52);
}

static void test_errors(void **state)
{
	char longline[600];

	(void)state;
	tc_parse_bad(CMD_MODE_EXEC, "co", "% Ambiguous command", 0);
	tc_parse_bad(CMD_MODE_EXEC, "conf x", "% Invalid command", 5);
	/* `conf` alone enters configuration mode, as on NX-OS */
	tc_parse_bad(CMD_MODE_EXEC, "show running-config extra",
	             "% Invalid command", 20);
	tc_parse_bad(CMD_MODE_EXEC, "show running-config interface",
	             "% Incomplete command", 30);
	/* configuration commands are not exec commands */
	tc_parse_bad(CMD_MODE_EXEC, "interface swp1", "% Invalid command", 0);
	tc_parse_bad(CMD_MODE_CONFIG, "c", "% Ambiguous command", 0);
	tc_parse_bad(CMD_MODE_CONFIG, "policy-map type q X",
	             "% Ambiguous command", 16);
	tc_parse_bad(CMD_MODE_CONFIG, "bogus", "% Invalid command", 0);
	tc_parse_bad(CMD_MODE_CONFIG, "   bogus", "% Invalid command", 3);
	/* the error that got furthest, over the enclosing modes too */
	tc_parse_bad(CMD_MODE_PMAP_C_QUE, "bandwidth remaining percent 500",
	             "expected 0-100", 28);
	tc_parse_bad(CMD_MODE_PMAP_C_QUE, "policy-map type queuing",
	             "% Incomplete command", 24);
	tc_parse_bad(CMD_MODE_CMAP_QOS, "match", "% Incomplete command", 6);
	tc_parse_bad(CMD_MODE_IF, "priority-flow-control mode maybe",
	             "% Invalid command", 27);
	memset(longline, 'a', sizeof(longline) - 1);
	longline[sizeof(longline) - 1] = '\0';
	tc_parse_bad(CMD_MODE_EXEC, longline, "% Line too long", (size_t)-1);
	tc_parse_bad(CMD_MODE_EXEC,
	             "show 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 "
	             "21 22 23 24 25",
	             "% Too many words", (size_t)-1);
}

/* ---- ? and TAB ---- */

static void help_is(enum cmd_mode m, const struct policy *known,
                    const char *line, const char *want)
{
	struct cmd_ctx c;
	struct strbuf sb;

	cmd_ctx_init(&c);
	c.mode = m;
	strbuf_init(&sb);
	cmd_help(&c, known, line, &sb);
	if (strcmp(strbuf_str(&sb), want))
		fail_msg("help '%s':\n%s--- expected:\n%s", line,
		         strbuf_str(&sb), want);
	strbuf_free(&sb);
}

static void test_help(void **state)
{
	struct policy p;
	struct cmd_ctx c;
	struct strbuf sb;
	struct cmd_error err;

	(void)state;
	help_is(CMD_MODE_EXEC, NULL, "",
	        "  checkpoint             Create a checkpoint of the running "
	        "configuration\n"
	        "  clear                  Reset functions\n"
	        "  configure              Enter configuration mode\n"
	        "  copy                   Copy from one file to another\n"
	        "  debug                  Debugging functions\n"
	        "  exit                   Exit from command interpreter\n"
	        "  no                     Negate a command or set its "
	        "defaults\n"
	        "  priority-flow-control  Configure priority flow control\n"
	        "  reload                 Reload roced's configuration, not "
	        "the switch\n"
	        "  rollback               Roll the configuration back to a "
	        "checkpoint\n"
	        "  show                   Show running system information\n"
	        "  terminal               Set terminal line parameters\n"
	        "  where                  Show the mode lines that lead to "
	        "this mode\n");
	help_is(CMD_MODE_EXEC, NULL, "reload config ",
	        "  dry-run  Only show what a reload would change in each "
	        "port's plan\n"
	        "  force    Even when the file removes the policy from every "
	        "port\n"
	        "  <cr>\n");
	help_is(CMD_MODE_EXEC, NULL, "conf",
	        "  configure  Enter configuration mode\n");
	/* Vocabulary words: every debug subsystem of base/names.c and every
	 * size unit of model/units.c, with the table's help. */
	help_is(CMD_MODE_EXEC, NULL, "debug ",
	        "  all       All subsystems\n"
	        "  apply     Applying plans to the kernel\n"
	        "  conf      Configuration loading and reload\n"
	        "  ctl       Control socket\n"
	        "  dcbx      DCBX negotiation\n"
	        "  link      Link events\n"
	        "  watchdog  PFC watchdog\n");
	help_is(CMD_MODE_PMAP_C_QUE, NULL,
	        "random-detect minimum-threshold 150 ",
	        "  bytes   In bytes\n"
	        "  kbytes  In kilobytes (1024 bytes)\n"
	        "  mbytes  In megabytes (1048576 bytes)\n");
	help_is(CMD_MODE_EXEC, NULL, "conf ",
	        "  session   A configuration session: its changes apply "
	        "together, at commit\n"
	        "  terminal  Configure from the terminal\n"
	        "  <cr>\n");
	help_is(CMD_MODE_EXEC, NULL, "show running-config ",
	        "  interface  One interface's configuration\n"
	        "  ipqos      QoS configuration only (NX-OS's name)\n"
	        "  json       Display output in JSON format\n"
	        "  qos        QoS configuration only\n"
	        "  |          Filter the output (include, section, last, "
	        "...)\n"
	        "  <cr>\n");
	help_is(CMD_MODE_PMAP_C_QOS, NULL, "set qos-group ",
	        "  <0-7>  Qos-group value\n");
	help_is(CMD_MODE_PMAP_C_QOS, NULL, "set qos-group 3 ", "  <cr>\n");
	help_is(CMD_MODE_CMAP_QOS, NULL, "match ",
	        "  access-group  Access list (not supported: refused)\n"
	        "  cos           IEEE 802.1Q class of service\n"
	        "  dscp          DSCP in IP(v4) and IPv6 packets\n"
	        "  precedence    IP precedence (DSCP 8n to 8n+7)\n");
	help_is(CMD_MODE_CMAP_QOS, NULL, "match dscp af4",
	        "  af41  DSCP 34\n"
	        "  af42  DSCP 36\n"
	        "  af43  DSCP 38\n");
	/* class-default is offered where a policy-map names a class, not
	 * where class-maps are made */
	help_is(CMD_MODE_CONFIG, NULL, "class-map type qos ",
	        "  WORD       Class map name (max 63 characters)\n"
	        "  match-all  Logical-AND all matching statements in this "
	        "class-map\n"
	        "  match-any  Logical-OR all matching statements in this "
	        "class-map\n");
	help_is(CMD_MODE_PMAP_QOS, NULL, "class ",
	        "  WORD           Class map name (max 63 characters)\n"
	        "  class-default  Built-in class matching all\n"
	        "  type           Type of the class\n");
	help_is(CMD_MODE_PMAP_C_QUE, NULL, "priority ",
	        "  level  Priority level\n"
	        "  <cr>\n");
	/* existing names are offered after the argument */
	policy_init(&p);
	tc_session(&p, &c,
	           (const char *const[]){"policy-map type qos ROCE_POLICY",
	                                 "policy-map type qos OTHER", NULL});
	help_is(CMD_MODE_IF, &p, "service-policy type qos input ",
	        "  WORD         Policy map name (max 63 characters)\n"
	        "  OTHER        policy-map type qos\n"
	        "  ROCE_POLICY  policy-map type qos\n");
	help_is(CMD_MODE_IF, &p, "service-policy type qos input R",
	        "  WORD         Policy map name (max 63 characters)\n"
	        "  ROCE_POLICY  policy-map type qos\n");
	/* a bad word before the last one: the error and its position */
	cmd_ctx_init(&c);
	strbuf_init(&sb);
	assert_int_equal(cmd_help_checked(&c, &p, "shw run", &sb, &err), -1);
	/* the bad word named, with what the position takes */
	assert_string_equal(err.message,
	                    "% Invalid command at 'shw', expected one of 13 "
	                    "words of this mode ('?' lists them)");
	assert_int_equal(err.pos, 0);
	assert_int_equal(sb.len, 0);
	cmd_help(&c, &p, "show bogus ", &sb);
	assert_non_null(
	    strstr(strbuf_str(&sb), "% Invalid command at 'bogus'"));
	strbuf_free(&sb);
	policy_free(&p);
}

static void complete_is(enum cmd_mode m, const struct policy *known,
                        const char *line, const char *want)
{
	char words[32][CMD_WORD_MAX], got[512] = "";
	struct cmd_ctx c;
	size_t n, off = 0;

	cmd_ctx_init(&c);
	c.mode = m;
	n = cmd_complete(&c, known, line, words, 32);
	for (size_t i = 0; i < n; i++) {
		off += (size_t)snprintf(got + off, sizeof(got) - off, "%s%s",
		                        i ? " " : "", words[i]);
		assert_true(off < sizeof(got));
	}
	if (strcmp(got, want))
		fail_msg("complete '%s': '%s', expected '%s'", line, got, want);
}

static void test_complete(void **state)
{
	struct policy p;
	struct cmd_ctx c;
	char words[4][CMD_WORD_MAX];

	(void)state;
	complete_is(CMD_MODE_EXEC, NULL, "sh", "show");
	complete_is(CMD_MODE_EXEC, NULL, "c",
	            "checkpoint clear configure copy");
	complete_is(CMD_MODE_EXEC, NULL, "show q", "queuing");
	complete_is(CMD_MODE_EXEC, NULL, "show running-config ",
	            "interface ipqos json qos");
	complete_is(CMD_MODE_EXEC, NULL, "x", "");
	complete_is(CMD_MODE_EXEC, NULL, "bogus ", "");
	complete_is(CMD_MODE_CONFIG, NULL, "p",
	            "policy-map port-profile "
	            "priority-flow-control");
	complete_is(CMD_MODE_CONFIG, NULL, "policy-map type q", "qos queuing");
	complete_is(CMD_MODE_CMAP_QOS, NULL, "match dscp c",
	            "cs1 cs2 cs3 cs4 cs5 cs6 cs7");
	complete_is(CMD_MODE_PMAP_QUE, NULL, "class type queuing c-out-8q-q-",
	            "c-out-8q-q-default");
	/* numbers are not completed */
	complete_is(CMD_MODE_PMAP_C_QOS, NULL, "set qos-group ", "");
	policy_init(&p);
	tc_session(&p, &c,
	           (const char *const[]){
	               "interface swp1", "alias Ethernet1/1", "interface swp2",
	               "exit", "class-map type qos match-all ROCE", NULL});
	complete_is(CMD_MODE_CONFIG, &p, "interface ", "Ethernet1/1 swp1 swp2");
	complete_is(CMD_MODE_CONFIG, &p, "interface sw", "swp1 swp2");
	complete_is(CMD_MODE_PMAP_QOS, &p, "class ", "ROCE class-default type");
	complete_is(CMD_MODE_EXEC, &p, "show class-map R", "ROCE");
	/* at most MAX are written */
	cmd_ctx_init(&c);
	assert_int_equal(cmd_complete(&c, NULL, "", words, 4), 4);
	policy_free(&p);
}

/* ---- rendering ---- */

static void test_render(void **state)
{
	struct cmd_error err = {"% Invalid command", 5};
	char words[3][CMD_WORD_MAX] = {"policy-map", "priority-flow-control"};
	struct cmd_render_item items[] = {{"cos", "CoS"}, {"dscp", "DSCP"}};
	struct strbuf a, b;

	(void)state;
	strbuf_init(&a);
	strbuf_init(&b);
	cmd_render_error(7, &err, &a);
	assert_string_equal(strbuf_str(&a),
	                    "            ^\n% Invalid command\n");
	strbuf_reset(&a);
	cmd_render_listing(items, 2, true, &a);
	assert_string_equal(strbuf_str(&a),
	                    "  cos   CoS\n  dscp  DSCP\n  <cr>\n");
	/* several candidates: the common prefix, then the list */
	strbuf_reset(&a);
	cmd_render_complete("no p", words, 2, &a, &b);
	assert_string_equal(strbuf_str(&a), "no p");
	assert_string_equal(strbuf_str(&b),
	                    "policy-map             priority-flow-control\n");
	strbuf_reset(&a);
	strbuf_reset(&b);
	snprintf(words[0], CMD_WORD_MAX, "c-out-8q-q1");
	snprintf(words[1], CMD_WORD_MAX, "c-out-8q-q2");
	cmd_render_complete("class type queuing c", words, 2, &a, &b);
	assert_string_equal(strbuf_str(&a), "class type queuing c-out-8q-q");
	assert_int_equal(b.len, 0);
	/* one candidate: the word and a space */
	strbuf_reset(&a);
	cmd_render_complete("sh", (char(*)[CMD_WORD_MAX]) "show", 1, &a, &b);
	assert_string_equal(strbuf_str(&a), "show ");
	strbuf_reset(&a);
	cmd_render_complete("xyz", words, 0, &a, &b);
	assert_string_equal(strbuf_str(&a), "xyz");
	strbuf_free(&a);
	strbuf_free(&b);
}

/* ---- a session's compiled commands ---- */

/* One line asked about in C and in a copy of C without the cache: parse,
 * `?` and TAB must answer the same. */
static void cache_same(const struct cmd_ctx *c, const struct policy *known,
                       const char *line)
{
	static char w1[32][CMD_WORD_MAX], w2[32][CMD_WORD_MAX];
	struct cmd_parsed *p1 = malloc(sizeof(*p1)), *p2 = malloc(sizeof(*p2));
	struct cmd_error e1, e2;
	struct cmd_ctx bare = *c;
	struct strbuf s1, s2;
	size_t n1, n2;
	int r1, r2;

	assert_non_null(p1);
	assert_non_null(p2);
	bare.cache = NULL;
	r1 = cmd_parse(c, line, p1, &e1);
	r2 = cmd_parse(&bare, line, p2, &e2);
	assert_int_equal(r1, r2);
	if (r1) {
		assert_string_equal(e1.message, e2.message);
		assert_int_equal(e1.pos, e2.pos);
	} else {
		assert_string_equal(p1->canon, p2->canon);
		assert_string_equal(p1->name, p2->name);
		assert_ptr_equal(p1->def, p2->def);
		assert_int_equal(p1->mode, p2->mode);
		assert_int_equal(p1->argmask, p2->argmask);
	}
	strbuf_init(&s1);
	strbuf_init(&s2);
	cmd_help(c, known, line, &s1);
	cmd_help(&bare, known, line, &s2);
	assert_string_equal(strbuf_str(&s1), strbuf_str(&s2));
	strbuf_free(&s1);
	strbuf_free(&s2);
	n1 = cmd_complete(c, known, line, w1, 32);
	n2 = cmd_complete(&bare, known, line, w2, 32);
	assert_int_equal(n1, n2);
	for (size_t i = 0; i < n1; i++)
		assert_string_equal(w1[i], w2[i]);
	free(p1);
	free(p2);
}

/* The graphs are compiled once per mode and kept across calls and mode
 * changes; what is left of one call's matching never shows in the next. */
static void test_cache(void **state)
{
	static const char *const lines[] = {
	    "",
	    "sh",
	    "show run",
	    "show policy-map int",
	    "conf t",
	    "configure terminal ",
	    "class-map type qos match-all ROCE",
	    "class-map type qos match-al",
	    "policy-map type queuing Q",
	    "match dscp 26,af31",
	    "match cos 9",
	    "bandwidth remaining percent 50",
	    "interface Ethernet1/1-4",
	    "int e1/1 ",
	    "priority-flow-control mode ",
	    "no ",
	    "mtu 9216",
	    "service-policy type qos input",
	    "random-detect minimum-threshold 150 kbytes ",
	    "x y z",
	    "exit",
	    "end",
	};
	struct cmd_cache *cache = cmd_cache_new();
	const struct cmd_graph *v;
	struct policy pol;
	struct cmd_ctx c;
	size_t n;

	(void)state;
	assert_non_null(cache);
	policy_init(&pol);
	cmd_ctx_init(&c);
	c.cache = cache;
	for (int m = 0; m < CMD_MODE_MAX; m++) {
		c.mode = (enum cmd_mode)m;
		c.depth = 0;
		/* twice: the second answers from the first's graphs */
		for (int round = 0; round < 2; round++)
			for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]);
			     i++)
				cache_same(&c, &pol, lines[i]);
	}
	/* Mode M's graphs are compiled once, when first used. */
	v = cmd_cache_mode(cache, CMD_MODE_CONFIG, false, &n);
	assert_non_null(v);
	assert_true(n > 0);
	assert_ptr_equal(cmd_cache_mode(cache, CMD_MODE_CONFIG, false, &n), v);
	/* Moving between modes keeps the session's cache... */
	cmd_ctx_init(&c);
	c.cache = cache;
	tc_apply(&pol, &c, "configure terminal");
	tc_apply(&pol, &c, "class-map type qos match-all ROCE");
	assert_ptr_equal(c.cache, cache);
	tc_apply(&pol, &c, "exit");
	tc_apply(&pol, &c, "interface swp1");
	tc_apply(&pol, &c, "end");
	assert_int_equal(c.mode, CMD_MODE_EXEC);
	assert_ptr_equal(c.cache, cache);
	/* ... and a call without one leaves none behind. */
	cmd_ctx_init(&c);
	tc_apply(&pol, &c, "configure terminal");
	tc_apply(&pol, &c, "system qos");
	assert_null(c.cache);
	policy_free(&pol);
	cmd_cache_free(cache);
	cmd_cache_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_table),
	    cmocka_unit_test(test_modes),
	    cmocka_unit_test(test_where),
	    cmocka_unit_test(test_bang),
	    cmocka_unit_test(test_ctx_from_path),
	    cmocka_unit_test(test_abbreviations),
	    cmocka_unit_test(test_values),
	    cmocka_unit_test(test_errors),
	    cmocka_unit_test(test_help),
	    cmocka_unit_test(test_complete),
	    cmocka_unit_test(test_render),
	    cmocka_unit_test(test_cache),
	};

	return cmocka_run_group_tests_name("cmd", tests, NULL, NULL);
}
