/* transcript: play a golden CLI transcript through rocesh's command engine.
 *
 * Usage: transcript [-f CONF] FILE.in   (the output goes to stdout)
 *
 * Each line of FILE.in is what a user types at the prompt:
 *   LINE?       `?` help for LINE (the listing, or the error with a caret)
 *   LINE<TAB>   TAB completion of LINE's last word (the candidates when
 *               several, then the prompt with the completed line)
 *   # text      a note for the reader, copied as is
 *   anything else is entered, as rocesh would: the prompt and the line,
 *   then any `%` error with a caret under the bad token, or warnings.
 *
 * The session is local: configuration lines change a policy in memory
 * (empty, or CONF loaded as the startup configuration) and are validated
 * as the daemon validates them (POLICY_VALIDATE_INTERACTIVE), a refused
 * line changing nothing. `show running-config` prints that policy; other
 * shows and actions are the daemon's, so the driver prints what it would
 * ask for. Rendering comes from lib/cmd/cmd_render.c, as in rocesh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/cmd_render.h"
#include "conf/conf.h"
#include "model/policy.h"
#include "base/strbuf.h"

#define HOST "roced"
#define TAB  "<TAB>"

struct session {
	struct policy p;
	struct cmd_ctx ctx;
	char prompt[64];
	struct strbuf out;
};

static void session_prompt(struct session *s)
{
	cmd_prompt(&s->ctx, HOST, s->prompt, sizeof(s->prompt));
}

static void session_help(struct session *s, const char *line)
{
	struct cmd_error err;

	strbuf_printf(&s->out, "%s%s?\n", s->prompt, line);
	if (cmd_help_checked(&s->ctx, &s->p, line, &s->out, &err))
		cmd_render_error(strlen(s->prompt), &err, &s->out);
}

static void session_tab(struct session *s, const char *line)
{
	char words[64][CMD_WORD_MAX];
	struct strbuf nl, list;
	size_t n;

	strbuf_init(&nl);
	strbuf_init(&list);
	strbuf_printf(&s->out, "%s%s" TAB "\n", s->prompt, line);
	n = cmd_complete(&s->ctx, &s->p, line, words, 64);
	cmd_render_complete(line, words, n, &nl, &list);
	strbuf_puts(&s->out, strbuf_str(&list));
	strbuf_printf(&s->out, "%s%s\n", s->prompt, strbuf_str(&nl));
	strbuf_free(&nl);
	strbuf_free(&list);
}

/* A configuration line: carry it out on a copy, validate the copy as the
 * daemon does, keep it only when it passes. */
static int session_config(struct session *s, const struct cmd_parsed *pa)
{
	struct diag before, after;
	struct cmd_error err;
	struct cmd_ctx ctx = s->ctx;
	struct policy tmp;
	int rc = -1;

	if (policy_copy(&tmp, &s->p)) {
		strbuf_puts(&s->out, "% Out of memory\n");
		return -1;
	}
	diag_init(&before, NULL);
	diag_init(&after, NULL);
	if (cmd_exec(&tmp, &ctx, pa, &err)) {
		cmd_render_error(strlen(s->prompt), &err, &s->out);
		goto out;
	}
	policy_validate_mode(&s->p, &before, POLICY_VALIDATE_INTERACTIVE);
	policy_validate_mode(&tmp, &after, POLICY_VALIDATE_INTERACTIVE);
	cmd_render_diag(&after, &before, &s->out);
	if (after.nerrors)
		goto out;
	policy_free(&s->p);
	s->p = tmp;
	policy_init(&tmp);
	s->ctx = ctx;
	rc = 0;
out:
	policy_free(&tmp);
	diag_free(&before);
	diag_free(&after);
	return rc;
}

static void session_show(struct session *s, const struct cmd_parsed *pa)
{
	char section[96] = "";
	size_t i;

	if (strcmp(pa->name, "show running-config") || pa->json) {
		strbuf_printf(&s->out, "(roced answers: %s)\n", pa->canon);
		return;
	}
	for (i = 2; i < pa->argc; i++) {
		if (!strcmp(pa->argv[i], "qos"))
			snprintf(section, sizeof(section), "qos");
		if (!strcmp(pa->argv[i], "interface") && i + 1 < pa->argc)
			snprintf(section, sizeof(section), "interface %s",
			         pa->argv[i + 1]);
	}
	cmd_running_config(&s->p, section[0] ? section : NULL, &s->out);
}

/* Returns 1 when the session ends (exit in exec mode). */
static int session_line(struct session *s, const char *line)
{
	struct cmd_parsed *pa = malloc(sizeof(*pa));
	struct cmd_error err;
	int rc = 0;

	if (!pa)
		return -1;
	strbuf_printf(&s->out, "%s%s\n", s->prompt, line);
	if (cmd_parse(&s->ctx, line, pa, &err)) {
		cmd_render_error(strlen(s->prompt), &err, &s->out);
		goto out;
	}
	switch (pa->kind) {
	case CMD_KIND_MODE:
		if (!strcmp(pa->name, "exit") && s->ctx.mode == CMD_MODE_EXEC) {
			rc = 1;
			break;
		}
		if (cmd_exec(&s->p, &s->ctx, pa, &err))
			cmd_render_error(strlen(s->prompt), &err, &s->out);
		break;
	case CMD_KIND_CONFIG:
		session_config(s, pa);
		break;
	case CMD_KIND_SHOW:
		session_show(s, pa);
		break;
	case CMD_KIND_ACTION:
		strbuf_printf(&s->out, "(roced does: %s)\n", pa->canon);
		break;
	}
out:
	free(pa);
	return rc;
}

static size_t ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix) ? n - k : (size_t)-1;
}

int main(int argc, char **argv)
{
	struct session s;
	const char *conf = NULL;
	char line[1024];
	FILE *in;
	int opt, rc = 0;

	while ((opt = getopt(argc, argv, "f:")) != -1) {
		if (opt != 'f') {
			fprintf(stderr, "usage: %s [-f CONF] FILE.in\n",
			        argv[0]);
			return 2;
		}
		conf = optarg;
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "usage: %s [-f CONF] FILE.in\n", argv[0]);
		return 2;
	}
	in = fopen(argv[optind], "r");
	if (!in) {
		perror(argv[optind]);
		return 2;
	}
	policy_init(&s.p);
	if (conf) {
		struct diag d;

		diag_init(&d, conf);
		if (conf_load_file(conf, &s.p, &d)) {
			fprintf(stderr, "%s: does not load\n", conf);
			fclose(in);
			diag_free(&d);
			return 2;
		}
		diag_free(&d);
	}
	cmd_ctx_init(&s.ctx);
	strbuf_init(&s.out);
	while (fgets(line, sizeof(line), in)) {
		size_t n = strcspn(line, "\n");

		line[n] = '\0';
		session_prompt(&s);
		if (line[0] == '#') {
			strbuf_printf(&s.out, "%s\n", line);
		} else if ((n = ends_with(line, TAB)) != (size_t)-1) {
			line[n] = '\0';
			session_tab(&s, line);
		} else if ((n = ends_with(line, "?")) != (size_t)-1) {
			line[n] = '\0';
			session_help(&s, line);
		} else if (session_line(&s, line)) {
			strbuf_puts(&s.out, "(session ends)\n");
			break;
		}
	}
	fclose(in);
	fputs(strbuf_str(&s.out), stdout);
	if (s.out.oom)
		rc = 1;
	strbuf_free(&s.out);
	policy_free(&s.p);
	return rc;
}
