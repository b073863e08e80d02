/* fuzz_cmd: the command language (lib/cmd/cmd.h) on arbitrary lines, in a
 * session set up once.
 *
 * The session: a policy holding the reference RoCE configuration (class
 * and policy maps of every type, system qos, an interface), built once at
 * start-up, as a rocesh user finds roced's. Each input is a short paste,
 * its first FUZZ_LINES lines taken, each at most FUZZ_LINE_MAX bytes. Each
 * line is
 *  - parsed, helped (`?`) and completed (TAB) in the paste's context or
 *    in one of a fixed context per mode (objects the policy may or may
 *    not hold), as the input's first byte and the line's position
 *    choose;
 *  - carried out with cmd_apply_line on a copy of the session's policy
 *    as changed by the lines before it, in the context they left, as the
 *    daemon does for rocesh;
 * and finally the policy is rendered as a running-config. Every context
 * shares one cache of compiled commands, made at start-up, as rocesh's
 * session does (without it each call compiles its modes' commands
 * anew, three quarters of a run's time). Two lines per
 * input keep each run short (a paste of a hundred lines took a second
 * under the sanitizers) and still try one line in the context another
 * left; the fuzzer makes its own sequences from there. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "model/policy.h"
#include "base/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct fuzz_mode {
	enum cmd_mode mode;
	const char *path[2];
	size_t depth;
};

static const struct fuzz_mode fuzz_modes[] = {
    {CMD_MODE_EXEC, {NULL, NULL}, 0},
    {CMD_MODE_CONFIG, {NULL, NULL}, 0},
    {CMD_MODE_CMAP_QOS, {"class-map type qos match-all ROCE", NULL}, 1},
    {CMD_MODE_CMAP_NQOS, {"class-map type network-qos c-8q-nq3", NULL}, 1},
    {CMD_MODE_PMAP_QOS, {"policy-map type qos QOS", NULL}, 1},
    {CMD_MODE_PMAP_C_QOS, {"policy-map type qos QOS", "class ROCE"}, 2},
    {CMD_MODE_PMAP_QUE, {"policy-map type queuing QUE", NULL}, 1},
    {CMD_MODE_PMAP_C_QUE,
     {"policy-map type queuing QUE", "class type queuing c-out-8q-q3"},
     2},
    {CMD_MODE_PMAP_NQOS, {"policy-map type network-qos NQ", NULL}, 1},
    {CMD_MODE_PMAP_C_NQOS,
     {"policy-map type network-qos NQ", "class type network-qos c-8q-nq3"},
     2},
    {CMD_MODE_SYS_QOS, {"system qos", NULL}, 1},
    {CMD_MODE_IF, {"interface swp1", NULL}, 1},
};

#define FUZZ_NMODES (sizeof(fuzz_modes) / sizeof(fuzz_modes[0]))

/* The session's compiled commands, for as long as the process lives. */
static struct cmd_cache *fuzz_cache;

static void fuzz_ctx(struct cmd_ctx *c, const struct fuzz_mode *m)
{
	if (cmd_ctx_from_path(c, m->path, m->depth) != 0)
		abort();
	c->mode = m->mode;
	c->cache = fuzz_cache;
}

static void fuzz_ask(const struct cmd_ctx *c, const struct policy *pol,
                     const char *line)
{
	static char words[32][CMD_WORD_MAX];
	static struct cmd_parsed parsed;
	struct cmd_error err;
	struct strbuf sb;

	(void)cmd_parse(c, line, &parsed, &err);
	strbuf_init(&sb);
	cmd_help(c, pol, line, &sb);
	strbuf_reset(&sb);
	(void)cmd_help_checked(c, pol, line, &sb, &err);
	strbuf_free(&sb);
	if (cmd_complete(c, pol, line, words, 32) > 32)
		abort();
}

/* Line N is asked about in the paste's own context and in mode N of the
 * table (all modes would make each run ten times slower; the fuzzer
 * moves a line to another position just as well). */
static void fuzz_line(struct policy *pol, struct cmd_ctx *cur, const char *line,
                      size_t n)
{
	struct cmd_error err;
	struct cmd_ctx c;

	/* One other context per line keeps a run short. */
	if (n & 1) {
		fuzz_ctx(&c, &fuzz_modes[(n >> 1) % FUZZ_NMODES]);
		fuzz_ask(&c, pol, line);
	} else {
		fuzz_ask(cur, pol, line);
	}
	(void)cmd_apply_line(pol, cur, line, &err);
}

/* The session's configuration: what a user of the reference finds. */
static const char *const fuzz_session[] = {
    "configure terminal",
    "class-map type qos match-all ROCE",
    " match cos 3",
    " match dscp 26",
    "policy-map type qos QOS",
    " class ROCE",
    "  set qos-group 3",
    "policy-map type queuing QUE",
    " class type queuing c-out-8q-q3",
    "  bandwidth remaining percent 50",
    "  random-detect minimum-threshold 150 kbytes maximum-threshold 3000 "
    "kbytes drop-probability 7 weight 0 ecn",
    " class type queuing c-out-8q-q-default",
    "  bandwidth remaining percent 50",
    "class-map type network-qos ROCE_NQ",
    " match qos-group 3",
    "policy-map type network-qos NQ",
    " class type network-qos ROCE_NQ",
    "  pause pfc-cos 3",
    "  mtu 9216",
    "system qos",
    " service-policy type network-qos NQ",
    " service-policy type queuing output QUE",
    "interface swp1",
    " service-policy type qos input QOS",
    " priority-flow-control mode on",
    "end",
};

#define FUZZ_LINES    2
#define FUZZ_LINE_MAX 512 /* longer lines are refused before parsing */

static struct policy fuzz_base;

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct cmd_error err;
	struct cmd_ctx c;

	(void)argc;
	(void)argv;
	fuzz_cache = cmd_cache_new();
	if (!fuzz_cache)
		abort();
	policy_init(&fuzz_base);
	cmd_ctx_init(&c);
	c.cache = fuzz_cache;
	for (size_t i = 0; i < sizeof(fuzz_session) / sizeof(fuzz_session[0]);
	     i++)
		if (cmd_apply_line(&fuzz_base, &c, fuzz_session[i], &err) != 0)
			abort(); /* the session must hold what it says */
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct policy pol;
	struct cmd_ctx cur;
	struct strbuf sb;
	char *text = malloc(size + 1);
	char *line, *save = NULL;
	size_t n = size ? data[0] : 0, lines = 0;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (policy_copy(&pol, &fuzz_base) != 0) {
		free(text);
		return 0;
	}
	cmd_ctx_init(&cur);
	cur.cache = fuzz_cache;
	for (line = strtok_r(text, "\n", &save); line && lines < FUZZ_LINES;
	     line = strtok_r(NULL, "\n", &save), lines++)
		if (strlen(line) < FUZZ_LINE_MAX)
			fuzz_line(&pol, &cur, line, n++);
	strbuf_init(&sb);
	cmd_running_config(&pol, NULL, &sb);
	strbuf_free(&sb);
	policy_free(&pol);
	free(text);
	return 0;
}
