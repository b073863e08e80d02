/* test_pipe: rocesh's output filters (cli/pipe.c) on fixed show texts:
 * each filter alone and chained, NX-OS's section over a running-config,
 * grep's options, last with and without a count, no-more and json
 * changing no line, a '|' inside a regular expression, and every bad
 * filter refused with the byte its caret goes under; then the `?`
 * listings and TAB candidates after a '|'. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pipe.h"

static const char running[] = "!Command: show running-config\n"
                              "\n"
                              "policy-map type qos ROCE_POLICY\n"
                              "  class ROCE_CLASS\n"
                              "    set qos-group 3\n"
                              "policy-map type queuing ROCE_QUEUING_OUT\n"
                              "  class type queuing c-out-8q-q3\n"
                              "    bandwidth remaining percent 50\n"
                              "    random-detect minimum-threshold 150 "
                              "kbytes maximum-threshold 1500 kbytes "
                              "drop-probability 7 weight 0 ecn\n"
                              "  class type queuing c-out-8q-q-default\n"
                              "    bandwidth remaining percent 50\n"
                              "interface Ethernet1/1\n"
                              "  priority-flow-control mode on\n"
                              "  service-policy type qos input "
                              "ROCE_POLICY\n";

/* LINE's filters over TEXT: what they print. */
static char *run(const char *line, const char *text)
{
	struct rocesh_pipes pp;
	struct cmd_error err;
	char cmd[256], *out = NULL;
	size_t len = 0;
	FILE *f;

	if (rocesh_pipes_parse(line, cmd, sizeof(cmd), &pp, &err) < 0)
		fail_msg("'%s' refused: %s", line, err.message);
	f = open_memstream(&out, &len);
	assert_non_null(f);
	rocesh_pipes_run(&pp, text, f);
	fclose(f);
	rocesh_pipes_free(&pp);
	return out;
}

#define ASSERT_RUN(line, text, want)                                           \
	do {                                                                   \
		char *got_ = run(line, text);                                  \
		assert_string_equal(got_, want);                               \
		free(got_);                                                    \
	} while (0)

/* LINE refused with MSG (a prefix of the message), the caret at POS. */
static void refused(const char *line, const char *msg, size_t pos)
{
	struct rocesh_pipes pp;
	struct cmd_error err;
	char cmd[256];

	if (rocesh_pipes_parse(line, cmd, sizeof(cmd), &pp, &err) == 0)
		fail_msg("'%s' was taken", line);
	if (strncmp(err.message, msg, strlen(msg)))
		fail_msg("'%s': got '%s', expected '%s...'", line, err.message,
		         msg);
	if (err.pos != pos)
		fail_msg("'%s': caret at %zu, expected %zu ('%s')", line,
		         err.pos, pos, line + pos);
}

static void test_include_exclude_begin(void **state)
{
	(void)state;
	ASSERT_RUN("show run | include percent", running,
	           "    bandwidth remaining percent 50\n"
	           "    bandwidth remaining percent 50\n");
	ASSERT_RUN("show run | inc percent | count", running, "2\n");
	ASSERT_RUN("show run | exclude ^ | count", running, "0\n");
	ASSERT_RUN("show run | begin ^interface", running,
	           "interface Ethernet1/1\n"
	           "  priority-flow-control mode on\n"
	           "  service-policy type qos input ROCE_POLICY\n");
	/* A '|' without a blank before it is the expression's own. */
	ASSERT_RUN("show run | include set qos|mode on", running,
	           "    set qos-group 3\n"
	           "  priority-flow-control mode on\n");
	/* Quotes around an expression with blanks go. */
	ASSERT_RUN("show run | include \"mode on\"", running,
	           "  priority-flow-control mode on\n");
	/* A show without output counts 0; a last line without its newline
	 * is a line. */
	ASSERT_RUN("show x | count", "", "0\n");
	ASSERT_RUN("show x | count", "a\nb", "2\n");
}

static void test_section(void **state)
{
	(void)state;
	/* Each matching line with the lines indented deeper under it. */
	ASSERT_RUN("show run | section \"type queuing\"", running,
	           "policy-map type queuing ROCE_QUEUING_OUT\n"
	           "  class type queuing c-out-8q-q3\n"
	           "    bandwidth remaining percent 50\n"
	           "    random-detect minimum-threshold 150 kbytes "
	           "maximum-threshold 1500 kbytes drop-probability 7 "
	           "weight 0 ecn\n"
	           "  class type queuing c-out-8q-q-default\n"
	           "    bandwidth remaining percent 50\n");
	/* A match inside a block: that line and its own block only. */
	ASSERT_RUN("show run | section q-default", running,
	           "  class type queuing c-out-8q-q-default\n"
	           "    bandwidth remaining percent 50\n");
	ASSERT_RUN("show run | section ^interface | count", running, "3\n");
	ASSERT_RUN("show run | section nothing-matches", running, "");
	/* A blank line ends a section. */
	ASSERT_RUN("show x | section ^a", "a\n  b\n\n  c\n", "a\n  b\n");
}

static void test_grep(void **state)
{
	(void)state;
	ASSERT_RUN("show run | grep ROCE_CLASS", running,
	           "  class ROCE_CLASS\n");
	ASSERT_RUN("show run | grep roce_class", running, "");
	ASSERT_RUN("show run | grep ignore-case roce_class", running,
	           "  class ROCE_CLASS\n");
	/* Blanks at the end of a filter go, unless quoted. */
	ASSERT_RUN("show run | grep invert-match \"^ \" | count", running,
	           "5\n");
	ASSERT_RUN("show run | grep ignore-case invert-match [a-z] | count",
	           running, "1\n");
}

static void test_last(void **state)
{
	(void)state;
	ASSERT_RUN("show run | last 2", running,
	           "  priority-flow-control mode on\n"
	           "  service-policy type qos input ROCE_POLICY\n");
	ASSERT_RUN("show run | last | count", running, "10\n");
	ASSERT_RUN("show run | last 1000 | count", running, "14\n");
	ASSERT_RUN("show run | include percent | last 1", running,
	           "    bandwidth remaining percent 50\n");
}

static void test_no_more_json(void **state)
{
	struct rocesh_pipes pp;
	struct cmd_error err;
	char cmd[64];

	(void)state;
	/* no-more changes nothing: rocesh never pages. */
	ASSERT_RUN("show run | no-more", running, running);
	ASSERT_RUN("show run | no-more | count", running, "14\n");
	assert_int_equal(rocesh_pipes_parse("show run | json | no-more", cmd,
	                                    sizeof(cmd), &pp, &err),
	                 0);
	assert_string_equal(cmd, "show run ");
	assert_true(pp.json);
	assert_int_equal(pp.n, 0);
	rocesh_pipes_free(&pp);
}

static void test_refused(void **state)
{
	(void)state;
	refused("show run | bogus", "% Invalid filter, expected begin, count",
	        11);
	refused("show run | include (", "% Invalid regular expression '('", 19);
	refused("show run | grep ignore-case [z-a]",
	        "% Invalid regular expression '[z-a]'", 28);
	refused("show run |", "% Incomplete command", 10);
	refused("show run | count | ", "% Incomplete command", 19);
	refused("show run | include", "% Incomplete command: a regular", 18);
	/* the caret where the expression was expected */
	refused("show run | grep ignore-case ",
	        "% Incomplete command: a regular", 27);
	refused("show run | count 3", "% Invalid argument '3'", 17);
	refused("show run | no-more now", "% Invalid argument 'now'", 19);
	refused("show run | last x", "% Invalid number 'x', expected 1-65535",
	        16);
	refused("show run | last 0", "% Invalid number '0'", 16);
	refused("show run | last 70000", "% Invalid number '70000'", 16);
	refused("show run | last 5 6", "% Invalid argument '6'", 18);
	refused("show run | c | c | c | c | c | c | c | c | c",
	        "% Too many filters", 43);
	/* What would take the regular expression library seconds to
	 * minutes (repeats of repeats, large bounds) is refused at once. */
	refused("show run | include V+++++++++++++",
	        "% Regular expression too complex 'V+++++++++++++'", 19);
	refused(
	    "show run | include ((((((((((((((V)+)+)+)+)+)+)+)+)+)+)+)+)+)+",
	    "% Regular expression too complex", 19);
	refused("show run | include a{1,1000}",
	        "% Regular expression too complex", 19);
	refused("show run | include (a{1,100}){1,100}",
	        "% Regular expression too complex", 19);
	refused("show run | section \"[[:alpha:]]{300}\"",
	        "% Regular expression too complex", 19);
	/* Copies of what can match nothing, and anchors or word edges on
	 * paths that match nothing: regcomp took seconds over each. */
	refused("show run | begin 8???++++++++",
	        "% Regular expression too complex '8???++++++++': a repeat "
	        "of what can match nothing",
	        17);
	refused("show run | include )8???+++++",
	        "% Regular expression too complex ')8???+++++': a repeat", 19);
	refused("show run | include (((a?)+)+){200}",
	        "% Regular expression too complex '(((a?)+)+){200}': a repeat",
	        19);
	refused("show run | include (|){255}(|){255}",
	        "% Regular expression too complex '(|){255}(|){255}': a "
	        "repeat",
	        19);
	refused("show run | include (a?){,200}",
	        "% Regular expression too complex '(a?){,200}': a repeat", 19);
	refused("show run | include (\\b|a{0,16}$|a+{0,16}^)*",
	        "% Regular expression too complex '(\\b|a{0,16}$|a+{0,16}^)*': "
	        "a repeat of an anchor or a word edge",
	        19);
	refused("show run | include "
	        "\\b\\b\\b\\b\\b\\b\\b\\b\\b\\b\\b\\b\\b\\b\\b\\b\\b",
	        "% Regular expression too complex", 19);
	refused("show run | include \\ba{0,255}\\ba{0,255}\\ba{0,255}",
	        "% Regular expression too complex", 19);
	/* Back-references backtrack: five took glibc over 30 s on one
	 * line. A digit in a bracket is no reference. */
	refused("show run | include "
	        "(a*)*(b*)*(c*)*(d*)*(e*)*\\1\\2\\3\\4\\5$",
	        "% Regular expression too complex "
	        "'(a*)*(b*)*(c*)*(d*)*(e*)*\\1\\2\\3\\4\\5$': a "
	        "back-reference",
	        19);
	refused("show run | include (x)\\1", "% Regular expression too complex",
	        19);
	refused("show run | grep ignore-case (a)\\9",
	        "% Regular expression too complex", 28);
	ASSERT_RUN("show run | include [\\1]x", "a1x\nbx\n\\x\n", "a1x\n\\x\n");
	refused("show run | include (x\\b\\b\\b\\b\\b\\b\\b\\b\\b)"
	        "(\\b\\b\\b\\b\\b\\b\\b\\b\\by)",
	        "% Regular expression too complex", 19);
}

/* What is not too complex still filters. */
static void test_regex_cost(void **state)
{
	(void)state;
	ASSERT_RUN("show run | include (class|policy)-map{1,2} | count",
	           running, "2\n");
	ASSERT_RUN("show run | include ^ {4}[a-z]+-[a-z]+ | count", running,
	           "1\n");
	ASSERT_RUN("show run | include \"[]Z]|mode o{1,}n\"", running,
	           "  priority-flow-control mode on\n");
	ASSERT_RUN(
	    "show run | include (((((((((((V)+)+)+)+)+)+)+)+)+)+)+ | count",
	    running, "0\n");
	/* anchors and word edges where a path matching nothing is short,
	 * and repeats of empty-matching pieces by * and ? */
	ASSERT_RUN("show run | include ^ *$ | count", running, "1\n");
	ASSERT_RUN("show run | include "
	           "(\\bmode\\b|\\bpercent\\b|\\bno-drop\\b) | count",
	           running, "3\n");
	ASSERT_RUN("show run | include (o*n*)*$ | count", running, "14\n");
}

static char *help(const char *line, int want_rc)
{
	struct cmd_error err;
	struct strbuf sb;
	char *s;

	strbuf_init(&sb);
	if (rocesh_pipes_help(line, &sb, &err) != want_rc)
		fail_msg("'%s': help returned the other way (%s)", line,
		         err.message);
	if (want_rc < 0)
		strbuf_printf(&sb, "%zu %s", err.pos, err.message);
	s = strdup(strbuf_str(&sb));
	strbuf_free(&sb);
	return s;
}

#define ASSERT_HELP(line, rc, want)                                            \
	do {                                                                   \
		char *got_ = help(line, rc);                                   \
		assert_string_equal(got_, want);                               \
		free(got_);                                                    \
	} while (0)

static void test_help(void **state)
{
	(void)state;
	ASSERT_HELP("show run | ", 0,
	            "  begin    Lines from the first that matches on\n"
	            "  count    The number of lines\n"
	            "  exclude  Lines that do not match\n"
	            "  grep     Lines that match, with options\n"
	            "  include  Lines that match\n"
	            "  json     The answer in JSON\n"
	            "  last     The last lines (10 unless given)\n"
	            "  no-more  No paging (accepted: rocesh never pages)\n"
	            "  section  Lines that match and the lines indented "
	            "under them\n");
	ASSERT_HELP("show run | e", 0, "  exclude  Lines that do not match\n");
	ASSERT_HELP("show run | x", -1,
	            "11 % Invalid filter, expected begin, count, exclude, "
	            "grep, include, json, last, no-more or section: 'x'");
	ASSERT_HELP("show run | count ", 0,
	            "  |  Filter the output further\n  <cr>\n");
	ASSERT_HELP("show run | last ", 0,
	            "  <1-65535>  Lines (10 unless given)\n"
	            "  |          Filter the output further\n  <cr>\n");
	ASSERT_HELP("show run | include ", 0,
	            "  WORD  A regular expression (POSIX extended)\n");
	ASSERT_HELP("show run | include pause ", 0,
	            "  |  Filter the output further\n  <cr>\n");
	ASSERT_HELP("show run | grep ", 0,
	            "  ignore-case   Upper and lower case alike\n"
	            "  invert-match  Lines that do not match\n"
	            "  WORD          A regular expression (POSIX extended)\n");
	ASSERT_HELP("show run | grep ignore-case ", 0,
	            "  invert-match  Lines that do not match\n"
	            "  WORD          A regular expression (POSIX extended)\n");
	/* A bad filter before the last one gets the caret. */
	ASSERT_HELP("show run | bogus | ", -1,
	            "11 % Invalid filter, expected begin, count, exclude, "
	            "grep, include, json, last, no-more or section: 'bogus'");
}

static void test_complete(void **state)
{
	char words[16][CMD_WORD_MAX];

	(void)state;
	assert_int_equal(rocesh_pipes_complete("show run | ", words, 16), 9);
	assert_int_equal(rocesh_pipes_complete("show run | s", words, 16), 1);
	assert_string_equal(words[0], "section");
	assert_int_equal(rocesh_pipes_complete("show run | n", words, 16), 1);
	assert_string_equal(words[0], "no-more");
	assert_int_equal(rocesh_pipes_complete("show run | grep i", words, 16),
	                 2);
	assert_string_equal(words[0], "ignore-case");
	assert_string_equal(words[1], "invert-match");
	/* Glued to its '|', the word is not TAB's to complete. */
	assert_int_equal(rocesh_pipes_complete("show run |s", words, 16), 0);
	assert_int_equal(rocesh_pipes_complete("show run | z", words, 16), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_include_exclude_begin),
	    cmocka_unit_test(test_section),
	    cmocka_unit_test(test_grep),
	    cmocka_unit_test(test_last),
	    cmocka_unit_test(test_no_more_json),
	    cmocka_unit_test(test_refused),
	    cmocka_unit_test(test_regex_cost),
	    cmocka_unit_test(test_help),
	    cmocka_unit_test(test_complete),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
