/* session: one rocesh line at a time, whatever its source (see rocesh.h).
 *
 * The line is parsed here first, so that a typing error is answered with
 * its caret at once and never reaches the daemon. What the line does is
 * then decided by its kind: a mode line only moves the local context; a
 * configuration line goes to roced with the context it was typed in, and
 * roced's reply says which context to continue in (roced owns the
 * configuration, so its word is final); show commands and actions are
 * answered by roced.
 */
#include "rocesh.h"
#include "ckpt.h"
#include "pipe.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd/cmd_render.h"
#include "ctl/ctl.h"
#include "base/escape.h"
#include "base/strbuf.h"

int rocesh_init(struct rocesh *r, const char *sockpath)
{
	memset(r, 0, sizeof(*r));
	cmd_ctx_init(&r->ctx);
	/* The commands compiled once for the session (NULL: per line). */
	r->ctx.cache = cmd_cache_new();
	policy_init(&r->known);
	strbuf_init(&r->warnings);
	strbuf_init(&r->pending);
	strbuf_init(&r->standing);
	strbuf_init(&r->ignored_what);
	r->known_stale = true;
	r->src = "stdin";
	r->out = stdout;
	r->err = stderr;
	return client_init(&r->cl, sockpath);
}

void rocesh_free(struct rocesh *r)
{
	client_close(&r->cl);
	cmd_cache_free(r->ctx.cache);
	r->ctx.cache = NULL;
	policy_free(&r->known);
	strbuf_free(&r->warnings);
	strbuf_free(&r->pending);
	strbuf_free(&r->standing);
	strbuf_free(&r->ignored_what);
}

void rocesh_print_error(struct rocesh *r, const char *line, size_t col,
                        const struct cmd_error *err)
{
	struct strbuf sb;

	strbuf_init(&sb);
	if (!r->interactive) {
		/* Not echoed: show the line with where it came from. */
		int n;

		strbuf_printf(&sb, "%s:%u: ", r->src, r->lineno);
		n = (int)sb.len;
		strbuf_printf(&sb, "%s\n", line);
		col = n > 0 ? (size_t)n : 0;
	}
	cmd_render_error(col, err, &sb);
	fputs(strbuf_str(&sb), r->err);
	strbuf_free(&sb);
}

/* Take the context from a successful config reply. A reply without a
 * usable one leaves the local context as it was. */
static void rocesh_take_context(struct rocesh *r, struct json_object *reply)
{
	struct json_object *ctx, *mode;
	struct cmd_ctx c;
	size_t n;
	int m;

	if (!json_object_object_get_ex(reply, "context", &ctx) ||
	    !json_object_is_type(ctx, json_type_array) ||
	    !json_object_object_get_ex(reply, "mode", &mode) ||
	    !json_object_is_type(mode, json_type_string))
		return;
	n = json_object_array_length(ctx);
	if (n > sizeof(c.path) / sizeof(c.path[0]))
		return;
	cmd_ctx_init(&c);
	m = cmd_mode_parse(json_object_get_string(mode));
	if (m < 0)
		return;
	c.mode = (enum cmd_mode)m;
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(ctx, i);

		if (!json_object_is_type(e, json_type_string))
			return;
		snprintf(c.path[i], sizeof(c.path[i]), "%s",
		         json_object_get_string(e));
	}
	c.depth = n;
	c.cache = r->ctx.cache;
	r->ctx = c;
}

/* The byte offset in LINE of the token that is token number K in CANON
 * (the same line with keywords expanded: the tokens correspond one to
 * one), for carets on errors the daemon reports against what it got. */
static size_t rocesh_map_pos(const char *line, const char *canon, size_t pos)
{
	size_t k = 0, i = 0;

	if (pos > strlen(canon))
		return strlen(line);
	for (size_t j = 0; j < pos; j++)
		if (canon[j] != ' ' && (j == 0 || canon[j - 1] == ' '))
			k++;
	/* Token K (1-based) of CANON starts before POS unless POS is a
	 * token's first byte, which is counted as its own start. */
	if (canon[pos] != ' ' && canon[pos] != '\0' &&
	    (pos == 0 || canon[pos - 1] == ' '))
		k++;
	if (k == 0)
		return 0;
	for (size_t seen = 0; line[i]; i++) {
		if (line[i] != ' ' && line[i] != '\t' &&
		    (i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t') &&
		    ++seen == k)
			return i;
	}
	return i;
}

/* Print an {"ok": false} reply as an error at the right column. */
static int rocesh_reply_error(struct rocesh *r, struct json_object *reply,
                              const char *line, const char *canon, size_t col)
{
	const char *msg = client_reply_str(reply, "error");
	struct json_object *pos;
	struct cmd_error err;

	snprintf(err.message, sizeof(err.message), "%s",
	         msg ? msg : "% roced refused the command");
	if (json_object_object_get_ex(reply, "pos", &pos) &&
	    json_object_is_type(pos, json_type_int) &&
	    json_object_get_int64(pos) >= 0) {
		err.pos = rocesh_map_pos(line, canon,
		                         (size_t)json_object_get_int64(pos));
		rocesh_print_error(r, line, col, &err);
	} else {
		/* The whole reply, not ERR's copy: a reload's list of
		 * FILE:LINE errors is longer than one message. It quotes
		 * config strings, and goes to a terminal or the journal
		 * (systemctl reload): escaped as roced's log is, lines
		 * kept. */
		struct strbuf m;
		const char *t = msg ? msg : err.message;

		strbuf_init(&m);
		escape_add(&m, t, strlen(t), ESCAPE_NEWLINE);
		if (r->interactive)
			fprintf(r->err, "%s\n", strbuf_str(&m));
		else
			fprintf(r->err, "%s:%u: %s\n", r->src, r->lineno,
			        strbuf_str(&m));
		strbuf_free(&m);
	}
	r->nerrors++;
	return -1;
}

/* Send REQ. Returns the reply, or NULL after printing why the daemon
 * could not be asked. */
static struct json_object *rocesh_call(struct rocesh *r,
                                       const struct ctl_request *req)
{
	struct json_object *reply;
	int rc = client_call(&r->cl, req, &reply);

	if (rc < 0) {
		if (r->interactive)
			fprintf(r->err, "%% %s\n", r->cl.error);
		else
			fprintf(r->err, "%s:%u: %% %s\n", r->src, r->lineno,
			        r->cl.error);
		r->nerrors++;
		return NULL;
	}
	return reply;
}

static int rocesh_config(struct rocesh *r, const char *line,
                         const struct cmd_parsed *p, size_t col)
{
	struct ctl_request req = {.cmd = CTL_CMD_CONFIG};
	struct json_object *reply;
	int rc = 0;

	/* A deeper context than the protocol carries is refused by the
	 * encoder from the count. */
	req.ncontext = r->ctx.depth;
	for (size_t i = 0; i < r->ctx.depth && i < CTL_CONTEXT_MAX; i++)
		ctl_request_set(req.context[i], sizeof(req.context[i]),
		                r->ctx.path[i]);
	ctl_request_set(req.line, sizeof(req.line), p->canon);
	if (r->session[0]) {
		/* In a session: kept there, applied at commit. */
		req.cmd = CTL_CMD_SESSION;
		ctl_request_set(req.op, sizeof(req.op), "line");
		ctl_request_set(req.name, sizeof(req.name), r->session);
	}
	reply = rocesh_call(r, &req);
	if (!reply)
		return -1;
	if (client_reply_ok(reply)) {
		rocesh_take_context(r, reply);
		rocesh_print_warnings(r, reply);
		r->known_stale = true;
	} else {
		rc = rocesh_reply_error(r, reply, line, p->canon, col);
		cmd_ctx_refused(&r->ctx, p);
	}
	json_object_put(reply);
	return rc;
}

/* Print a show reply: the JSON data when the line asked for json, the
 * NX-OS style text otherwise. */
static void rocesh_print_show(struct rocesh *r, struct json_object *reply,
                              bool json)
{
	struct json_object *data = NULL;
	const char *text = client_reply_str(reply, "text");

	json_object_object_get_ex(reply, "data", &data);
	if (json || !text) {
		if (!data) {
			fprintf(r->out, "{}\n");
			return;
		}
		fprintf(r->out, "%s\n",
		        json_object_to_json_string_ext(
		            data, JSON_C_TO_STRING_PRETTY |
		                      JSON_C_TO_STRING_SPACED |
		                      JSON_C_TO_STRING_NOSLASHESCAPE));
		return;
	}
	fputs(text, r->out);
	if (text[0] && text[strlen(text) - 1] != '\n')
		fputc('\n', r->out);
}

/* The arguments of a show command for the protocol: the canonical line
 * in words, without the trailing json, which travels as its own member.
 * roced parses them with the same command table, so the whole line goes:
 * NX-OS's `show interface X priority-flow-control` has its argument
 * between the command's own words. */
static void rocesh_show_args(const struct cmd_parsed *p,
                             struct ctl_request *req)
{
	size_t end = p->argc, n = 0;

	if (p->json && end && !strcmp(p->argv[end - 1], "json"))
		end--;
	for (size_t i = 0; i < end && n < CTL_ARGS_MAX; i++)
		ctl_request_set(req->args[n++], sizeof(req->args[0]),
		                p->argv[i]);
	req->nargs = n;
}

static int rocesh_show(struct rocesh *r, const char *line,
                       const struct cmd_parsed *p, size_t col,
                       const struct rocesh_pipes *pp)
{
	struct ctl_request req = {.cmd = CTL_CMD_SHOW,
	                          .json = p->json || (pp && pp->json)};
	struct json_object *reply;
	int rc = 0;

	ctl_request_set(req.what, sizeof(req.what), p->name);
	rocesh_show_args(p, &req);
	reply = rocesh_call(r, &req);
	if (!reply)
		return -1;
	/* The whole answer is here: what is left (filters, however slow,
	 * and an output that may block on a slow reader) needs no slot of
	 * roced's control socket, whose last one is root's. A piped show, or
	 * any show of a script or -c, gives its slot back now; the next
	 * request connects again. An interactive shell keeps its slot
	 * between plain shows, as an operator at a terminal expects. */
	if ((pp && pp->n) || !r->interactive)
		client_close(&r->cl);
	if (client_reply_ok(reply) && pp && pp->n) {
		/* The answer through the filters (pipe.c). */
		char *text = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&text, &len);
		FILE *out = r->out;

		if (mem) {
			r->out = mem;
			rocesh_print_show(r, reply, req.json);
			r->out = out;
			fclose(mem);
			rocesh_pipes_run(pp, text ? text : "", out);
			free(text);
		}
	} else if (client_reply_ok(reply)) {
		rocesh_print_show(r, reply, req.json);
	} else {
		rc = rocesh_reply_error(r, reply, line, p->canon, col);
	}
	json_object_put(reply);
	return rc;
}

static int rocesh_action(struct rocesh *r, const char *line,
                         const struct cmd_parsed *p, size_t col)
{
	struct ctl_request req = {.cmd = CTL_CMD_COPY};
	struct json_object *reply;
	struct cmd_error cerr;
	bool copy = false;
	const char *text;
	int rc = 0, ck;

	ck = rocesh_ckpt_request(p, r->session, &req, &cerr);
	if (ck < 0) {
		rocesh_print_error(r, line, col, &cerr);
		r->nerrors++;
		return -1;
	}
	if (ck > 0) {
		/* checkpoints, rollback, sessions (ckpt.c) */
	} else if (!strncmp(p->name, "copy", 4)) {
		req = (struct ctl_request){.cmd = CTL_CMD_COPY};
		/* The only copy there is: running-config startup-config. */
		ctl_request_set(req.from, sizeof(req.from), "running-config");
		ctl_request_set(req.to, sizeof(req.to), "startup-config");
		copy = true;
	} else if (!strcmp(p->name, "reload config")) {
		/* "reload config [force|dry-run]" */
		req.cmd = CTL_CMD_RELOAD;
		req.force = !strcmp(p->argv[p->argc - 1], "force");
		req.dry_run = !strcmp(p->argv[p->argc - 1], "dry-run");
	} else if (!strcmp(p->name, "priority-flow-control recover")) {
		/* "... interface IFNAME qos-group N" */
		req.cmd = CTL_CMD_PFC_QUEUE;
		ctl_request_set(req.op, sizeof(req.op), "recover");
		ctl_request_set(req.iface, sizeof(req.iface),
		                p->argv[p->argc - 3]);
		ctl_request_set(req.qos_group, sizeof(req.qos_group),
		                p->argv[p->argc - 1]);
	} else if (!strcmp(p->name, "clear queuing pfc-queue")) {
		/* "... [interface IFNAME]" */
		req.cmd = CTL_CMD_PFC_QUEUE;
		ctl_request_set(req.op, sizeof(req.op), "clear");
		if (p->argc >= 2 && !strcmp(p->argv[p->argc - 2], "interface"))
			ctl_request_set(req.iface, sizeof(req.iface),
			                p->argv[p->argc - 1]);
	} else if (!strcmp(p->name, "clear qos statistics")) {
		/* "... [interface IFNAME]" */
		req.cmd = CTL_CMD_PFC_QUEUE;
		ctl_request_set(req.op, sizeof(req.op), "clear-qos");
		if (p->argc >= 2 && !strcmp(p->argv[p->argc - 2], "interface"))
			ctl_request_set(req.iface, sizeof(req.iface),
			                p->argv[p->argc - 1]);
	} else if (!strncmp(p->name, "debug", 5) && p->argc >= 1) {
		/* "[no] debug SUBSYS": the subsystem is the last token. */
		req.cmd = CTL_CMD_DEBUG;
		ctl_request_set(req.subsys, sizeof(req.subsys),
		                p->argv[p->argc - 1]);
		req.on = !p->negated;
	} else {
		struct cmd_error err = {.pos = 0};

		snprintf(err.message, sizeof(err.message),
		         "%% '%s' is not supported by this rocesh", p->name);
		rocesh_print_error(r, line, col, &err);
		r->nerrors++;
		return -1;
	}
	reply = rocesh_call(r, &req);
	if (!reply)
		return -1;
	if (client_reply_ok(reply)) {
		text = client_reply_str(reply, "text");
		if (text && *text)
			fprintf(r->out, "%s%s", text,
			        text[strlen(text) - 1] == '\n' ? "" : "\n");
		else if (copy)
			fprintf(r->out, "Copy complete.\n");
		rocesh_print_warnings(r, reply);
		rocesh_ckpt_done(&req, &r->ctx, r->session, sizeof(r->session));
		r->known_stale = true;
	} else {
		rc = rocesh_reply_error(r, reply, line, p->canon, col);
	}
	json_object_put(reply);
	return rc;
}

/* `where`: the mode lines that lead here (cmd_where), an interface by
 * its NX-OS name when it has one, as the operator knows it (roced's
 * context names the Linux port). */
static void rocesh_where(struct rocesh *r)
{
	char where[4 * sizeof(r->ctx.path[0])];
	struct cmd_ctx c = r->ctx;

	for (size_t i = 0; i < c.depth; i++) {
		const struct policy_iface *f;

		if (strncmp(c.path[i], "interface ", 10))
			continue;
		f = policy_find_iface(rocesh_known(r), c.path[i] + 10);
		if (f && f->alias[0])
			snprintf(c.path[i], sizeof(c.path[i]), "interface %s",
			         f->alias);
	}
	cmd_where(&c, where, sizeof(where));
	fprintf(r->out, "  %s\n", where);
}

/* A mode line (configure terminal, end, exit, or a `!` that ends a
 * block) only moves the context. */
static int rocesh_mode(struct rocesh *r, const char *line,
                       const struct cmd_parsed *p, size_t col)
{
	struct cmd_error err;

	/* `exit` at roced# ends a session on a terminal; in a script it
	 * would drop every line after it unseen, as a pasted block's one
	 * `exit` too many does: there it does nothing. */
	if (r->ctx.mode == CMD_MODE_EXEC && !strcmp(p->name, "exit") &&
	    !r->interactive)
		return 0;
	if (r->ctx.mode == CMD_MODE_EXEC && !strcmp(p->name, "exit")) {
		r->quit = true;
		return 0;
	}
	/* `configure session NAME`: roced opens the session first. */
	if (!strcmp(p->name, "configure session") &&
	    rocesh_action(r, line, p, col) < 0)
		return -1;
	if (cmd_exec(NULL, &r->ctx, p, &err) < 0) {
		rocesh_print_error(r, line, col, &err);
		r->nerrors++;
		return -1;
	}
	/* Back in exec mode, out of the session (roced keeps it). */
	if (r->ctx.mode == CMD_MODE_EXEC)
		r->session[0] = '\0';
	if (!strcmp(p->name, "where"))
		rocesh_where(r);
	return 0;
}

/* Whether LINE has a '|' after a complete show command: the output
 * filters follow (pipe.c), not words of the command table. */
static bool rocesh_piping(struct rocesh *r, const char *line)
{
	const char *bar = strchr(line, '|');
	struct cmd_parsed p;
	struct cmd_error err;
	char *head;
	bool show;

	if (!bar || !(head = strndup(line, (size_t)(bar - line))))
		return false;
	show =
	    cmd_parse(&r->ctx, head, &p, &err) == 0 && p.kind == CMD_KIND_SHOW;
	free(head);
	return show;
}

int rocesh_help(struct rocesh *r, const char *line, struct strbuf *out,
                struct cmd_error *err)
{
	r->ctx.session = r->session[0] != '\0';
	if (rocesh_piping(r, line))
		return rocesh_pipes_help(line, out, err);
	return cmd_help_checked(&r->ctx, rocesh_known(r), line, out, err);
}

/* `?` at the end of a line that is not typed on a terminal (a script, or
 * --echo): the help listing for what comes before it, as the terminal
 * would show it. */
static int rocesh_help_line(struct rocesh *r, const char *line, size_t len,
                            size_t col)
{
	struct cmd_error err;
	struct strbuf sb;
	char *prefix = strndup(line, len);
	int rc;

	if (!prefix)
		return -1;
	strbuf_init(&sb);
	rc = rocesh_help(r, prefix, &sb, &err);
	if (rc < 0) {
		rocesh_print_error(r, line, col, &err);
		r->nerrors++;
	} else {
		fputs(strbuf_str(&sb), r->out);
	}
	strbuf_free(&sb);
	free(prefix);
	return rc < 0 ? -1 : 0;
}

/* Blank lines and script comments. A `!` is not one of them: in the
 * first column it ends a block (cmd_parse), as in NX-OS configurations. */
static bool rocesh_blank(const char *line)
{
	line += strspn(line, " \t");
	return *line == '\0' || *line == '#';
}

static size_t rocesh_indent(const char *line);

/* A known NX-OS line that is not QoS (WHAT is its family), or a line
 * under one: counted for rocesh_finish, on a terminal told at once. */
static int rocesh_ignore(struct rocesh *r, const char *line, const char *what)
{
	r->nignored++;
	if (what) {
		const char *list = strbuf_str(&r->ignored_what), *p;
		size_t n = strlen(what);
		bool seen = false;

		r->ignoring = r->lineno ? r->lineno : 1;
		r->ignored_indent = rocesh_indent(line);
		/* each family once, in the order first seen */
		for (p = list; !seen && (p = strstr(p, what)); p += n)
			seen = (p == list || p[-1] == ' ') &&
			       (p[n] == ',' || p[n] == '\0');
		if (!seen)
			strbuf_printf(&r->ignored_what, "%s%s",
			              r->ignored_what.len ? ", " : "", what);
	}
	if (r->interactive)
		fprintf(r->err, "%% ignored: not QoS\n");
	return 0;
}

/* The line after a first-column `!` (see rocesh.h): indented, it goes
 * on with the block the `!` interrupted; at the left margin, the `!` has
 * ended that block. */
static void rocesh_after_bang(struct rocesh *r, const char *line)
{
	const char *s = line + strspn(line, " \t");

	if (!r->bang || *s == '!')
		return;
	if (s != line)
		r->ctx = r->before_bang;
	r->bang = false;
}

/* `banner motd #` opens a banner whose text runs to the next line that
 * holds the delimiter (NX-OS's multi-line banner; `^C` as IOS-style
 * running-configs print it): those lines are the banner's, not commands.
 * Returns whether LINE is one of them; the opening line itself is left
 * to cmd_not_qos. */
static bool rocesh_in_banner(struct rocesh *r, const char *line)
{
	if (r->banner[0]) {
		if (cmd_banner_closes(line, r->banner))
			r->banner[0] = '\0';
		return true;
	}
	cmd_banner_open(line, r->banner, sizeof(r->banner));
	return false;
}

/* A line indented deeper than the last ignored one belongs to it
 * (`router bgp` and its neighbours). */
static bool rocesh_under_ignored(struct rocesh *r, const char *line)
{
	if (!r->ignoring)
		return false;
	if (rocesh_indent(line) > r->ignored_indent)
		return true;
	r->ignoring = 0;
	return false;
}

/* A show command's output filters (`| include ...`, pipe.c): the line
 * without them is run with them; a line whose first part is no show
 * command is run whole (a description may hold a '|'). Returns 1 when
 * LINE has no filters. */
static int rocesh_line_piped(struct rocesh *r, const char *line, size_t col)
{
	char cmdline[512];
	struct rocesh_pipes pp;
	struct cmd_parsed p;
	struct cmd_error err;
	int rc;

	if (!strchr(line, '|'))
		return 1;
	if (cmd_parse(&r->ctx, line, &p, &err) == 0)
		return 1; /* the '|' belongs to the command */
	if (rocesh_pipes_parse(line, cmdline, sizeof(cmdline), &pp, &err) < 0) {
		rocesh_print_error(r, line, col, &err);
		r->nerrors++;
		return -1;
	}
	if (cmd_parse(&r->ctx, cmdline, &p, &err) < 0 ||
	    p.kind != CMD_KIND_SHOW) {
		rocesh_pipes_free(&pp);
		if (err.message[0] && p.kind == CMD_KIND_SHOW) {
			rocesh_print_error(r, line, col, &err);
		} else {
			struct cmd_error e = {
			    .pos = (size_t)(strchr(line, '|') - line)};

			snprintf(e.message, sizeof(e.message),
			         "%% Output filters (|) follow show commands "
			         "only");
			rocesh_print_error(r, line, col, &e);
		}
		r->nerrors++;
		return -1;
	}
	rocesh_judge_warnings(r);
	rc = rocesh_show(r, line, &p, col, &pp);
	rocesh_pipes_free(&pp);
	return rc;
}

static int rocesh_line_run(struct rocesh *r, const char *line, size_t col)
{
	struct cmd_parsed p;
	struct cmd_error err, ignored;
	size_t len = strlen(line);
	const char *what;
	int piped;

	/* verify, commit and abort are commands in a session only */
	r->ctx.session = r->session[0] != '\0';
	if (rocesh_in_banner(r, line))
		return rocesh_ignore(r, line, NULL);
	if (rocesh_blank(line))
		return 0;
	if (rocesh_under_ignored(r, line))
		return rocesh_ignore(r, line, NULL);
	rocesh_after_bang(r, line);
	while (len && (line[len - 1] == ' ' || line[len - 1] == '\t'))
		len--;
	if (len && line[len - 1] == '?')
		return rocesh_help_line(r, line, len - 1, col);
	piped = rocesh_line_piped(r, line, col);
	if (piped <= 0)
		return piped;
	if (cmd_parse(&r->ctx, line, &p, &err) < 0) {
		struct cmd_ctx conf = r->ctx;

		/* A script's configuration lines need no `configure
		 * terminal` first (see rocesh.h). */
		conf.mode = CMD_MODE_CONFIG;
		conf.depth = 0;
		if (r->interactive || r->ctx.mode != CMD_MODE_EXEC ||
		    cmd_parse(&conf, line, &p, &ignored) < 0) {
			what = cmd_not_qos(line);
			if (what)
				return rocesh_ignore(r, line, what);
			/* The mode whose parse got further says more. */
			if (!r->interactive && r->ctx.mode == CMD_MODE_EXEC &&
			    ignored.pos > err.pos)
				err = ignored;
			rocesh_print_error(r, line, col, &err);
			r->nerrors++;
			cmd_ctx_refused_line(&r->ctx, line);
			return -1;
		}
		r->ctx = conf;
	}
	switch (p.kind) {
	case CMD_KIND_MODE:
		if (!strcmp(p.name, "!") && !r->interactive) {
			r->before_bang = r->ctx;
			r->bang = true;
		}
		return rocesh_mode(r, line, &p, col);
	case CMD_KIND_CONFIG:
		r->configured = true;
		return rocesh_config(r, line, &p, col);
	case CMD_KIND_SHOW:
		rocesh_judge_warnings(r);
		return rocesh_show(r, line, &p, col, NULL);
	case CMD_KIND_ACTION:
		rocesh_judge_warnings(r);
		return rocesh_action(r, line, &p, col);
	}
	return 0;
}

size_t rocesh_complete(struct rocesh *r, const char *line,
                       struct strbuf *newline, struct strbuf *listing)
{
	char(*words)[CMD_WORD_MAX] =
	    calloc(ROCESH_COMPLETE_MAX, sizeof(*words));
	size_t n;

	if (!words) {
		strbuf_puts(newline, line);
		return 0;
	}
	r->ctx.session = r->session[0] != '\0';
	if (rocesh_piping(r, line))
		n = rocesh_pipes_complete(line, words, ROCESH_COMPLETE_MAX);
	else
		n = cmd_complete(&r->ctx, rocesh_known(r), line, words,
		                 ROCESH_COMPLETE_MAX);
	cmd_render_complete(line, words, n, newline, listing);
	free(words);
	return n;
}

/* The width of LINE's leading blanks, a tab to the next multiple of 8. */
static size_t rocesh_indent(const char *line)
{
	size_t w = 0;

	for (; *line == ' ' || *line == '\t'; line++)
		w = *line == '\t' ? (w / 8 + 1) * 8 : w + 1;
	return w;
}

/* Whether LINE enters a mode (2) or leaves one (1), by its first word,
 * or neither (0): such a line starts a block of its own, or ends one. */
static int rocesh_block_line(const char *line)
{
	static const char *const enter[] = {
	    "class-map", "policy-map", "class", "system", "port-profile",
	};
	static const char *const leave[] = {
	    "exit", "end", "!", "configure", "config", "conf",
	};
	char w[CMD_WORD_MAX] = "";
	size_t n;

	if (sscanf(line, " %63s", w) == 1 && !strcmp(w, "no"))
		sscanf(line, " %*s %63s", w);
	n = strlen(w);
	if (n >= 3 && !strncasecmp(w, "interface", n))
		return 2;
	for (size_t k = 0; k < sizeof(enter) / sizeof(*enter); k++)
		if (!strcmp(w, enter[k]))
			return 2;
	for (size_t k = 0; k < sizeof(leave) / sizeof(*leave); k++)
		if (!strcmp(w, leave[k]))
			return 1;
	return 0;
}

/* A script's line under a refused one (see rocesh.h): refuse it too. A
 * line back at or left of the refused line's indentation ends the block,
 * except where the refused line would have entered a mode and the script
 * has no indentation: there the block runs to the next line that enters
 * or leaves a mode (or that is not QoS), so that a class's or an
 * interface's lines never run in the mode around it. */
static bool rocesh_skipped(struct rocesh *r, const char *line)
{
	if (r->interactive || !r->rejected || rocesh_blank(line))
		return false;
	if (rocesh_indent(line) < r->rejected_indent ||
	    (rocesh_indent(line) == r->rejected_indent &&
	     (!r->rejected_enters || rocesh_block_line(line) ||
	      cmd_not_qos(line)))) {
		r->rejected = 0;
		return false;
	}
	fprintf(r->err, "%s:%u: %% skipped: under a rejected line %u\n", r->src,
	        r->lineno, r->rejected);
	r->nerrors++;
	return true;
}

/* A pasted script ends with one summary line: what was taken, what was
 * left as not QoS (by family) and what was refused, each refused line
 * having named itself with a caret as it came. */
void rocesh_finish(struct rocesh *r)
{
	rocesh_judge_warnings(r);
	if (r->interactive || strcmp(r->src, "stdin") ||
	    (!r->configured && !r->nignored && !r->nrejected))
		return;
	fprintf(r->err, "%% %u accepted, %u ignored: not QoS", r->naccepted,
	        r->nignored);
	if (r->nignored)
		fprintf(r->err, " (%s)", strbuf_str(&r->ignored_what));
	fprintf(r->err, ", %u rejected", r->nrejected);
	if (r->nskipped)
		fprintf(r->err, " (%u of them under a rejected line)",
		        r->nskipped);
	fputc('\n', r->err);
	fflush(r->err);
}

/* Whether LINE counts in the summary: not blank, not a comment. */
static bool rocesh_counted(const char *line)
{
	line += strspn(line, " \t");
	return *line && *line != '#' && *line != '!';
}

/* Output and errors of one line stay in order when both go to one file. */
int rocesh_line(struct rocesh *r, const char *line, size_t col)
{
	unsigned ignored = r->nignored;
	size_t prompt = r->banner[0] ? 0 : cmd_prompt_len(line);
	int rc;

	/* A pasted terminal transcript: its prompts are not commands. */
	line += prompt;
	col += prompt;

	if (rocesh_skipped(r, line)) {
		rc = -1;
		r->nskipped++;
		r->nrejected++;
	} else if ((rc = rocesh_line_run(r, line, col)) < 0) {
		r->nrejected += rocesh_counted(line);
		if (!r->interactive) {
			r->rejected = r->lineno;
			r->rejected_indent = rocesh_indent(line);
			r->rejected_enters = rocesh_block_line(line) > 1;
		}
	} else if (r->nignored == ignored && rocesh_counted(line)) {
		r->naccepted++;
	}
	fflush(r->out);
	fflush(r->err);
	return rc;
}

/* --echo: LINE as if it were typed on a terminal, shown with its prompt.
 * Comments and blank lines are copied as they are; a trailing TAB is the
 * TAB key (shown as <TAB>, then the candidates and the prompt with the
 * completed line); a trailing `?` is the `?` key; neither runs the line.
 * Anything else is entered. */
int rocesh_echo_line(struct rocesh *r, const char *line)
{
	char prompt[96];
	size_t len = strlen(line);
	int rc = 0;

	if (rocesh_blank(line)) {
		fprintf(r->out, "%s\n", line);
		fflush(r->out);
		return 0;
	}
	rocesh_ckpt_prompt(&r->ctx, r->session, ROCESH_HOST, prompt,
	                   sizeof(prompt));
	if (line[len - 1] == '\t') {
		struct strbuf typed, nl, listing;

		strbuf_init(&typed);
		strbuf_init(&nl);
		strbuf_init(&listing);
		strbuf_add(&typed, line, len - 1);
		rocesh_complete(r, strbuf_str(&typed), &nl, &listing);
		fprintf(r->out, "%s%s<TAB>\n%s%s%s\n", prompt,
		        strbuf_str(&typed), strbuf_str(&listing), prompt,
		        strbuf_str(&nl));
		strbuf_free(&typed);
		strbuf_free(&nl);
		strbuf_free(&listing);
	} else {
		size_t skip = r->banner[0] ? 0 : cmd_prompt_len(line);

		fprintf(r->out, "%s%s\n", prompt, line);
		rc = rocesh_line_run(r, line + skip, strlen(prompt) + skip);
	}
	fflush(r->out);
	return rc;
}

/* Build the known policy from roced's running-config text, the form that
 * pastes back: it depends only on the command language, not on the
 * layout of the JSON answer. */
static void rocesh_known_load(struct policy *pol, const char *text)
{
	struct cmd_ctx c;
	const char *s = text;

	cmd_ctx_init(&c);
	c.mode = CMD_MODE_CONFIG;
	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		char *line = strndup(s, n);
		struct cmd_parsed p;
		struct cmd_error err;

		if (line && !rocesh_blank(line) &&
		    cmd_parse(&c, line, &p, &err) == 0 &&
		    (p.kind == CMD_KIND_CONFIG || p.kind == CMD_KIND_MODE))
			(void)cmd_exec(pol, &c, &p, &err);
		/* `end` or `exit` in the text must not leave configuration
		 * mode: the lines after them are configuration too. */
		if (c.mode == CMD_MODE_EXEC)
			c.mode = CMD_MODE_CONFIG;
		free(line);
		s += n;
		if (*s == '\n')
			s++;
	}
}

/* The port map first: running-config names an aliased port by its
 * NX-OS name (`interface Ethernet1/1`), which the answer's data maps to
 * its Linux name; completion offers both. */
static void rocesh_known_ports(struct policy *pol, struct json_object *reply)
{
	struct json_object *data, *ifs;

	if (!json_object_object_get_ex(reply, "data", &data) ||
	    !json_object_object_get_ex(data, "interface", &ifs) ||
	    !json_object_is_type(ifs, json_type_array))
		return;
	for (size_t i = 0; i < json_object_array_length(ifs); i++) {
		struct json_object *e = json_object_array_get_idx(ifs, i), *v;
		struct policy_iface *f;
		const char *name;

		if (!json_object_object_get_ex(e, "name", &v) ||
		    !(name = json_object_get_string(v)) ||
		    !policy_ifname_linux(name) ||
		    policy_find_iface(pol, name) ||
		    !(f = policy_add_iface(pol, name)))
			continue;
		if (json_object_object_get_ex(e, "alias", &v) &&
		    json_object_get_string(v))
			snprintf(f->alias, sizeof(f->alias), "%s",
			         json_object_get_string(v));
	}
}

const struct policy *rocesh_known(struct rocesh *r)
{
	struct ctl_request req = {.cmd = CTL_CMD_SHOW,
	                          .what = CTL_WHAT_RUNNING_CONFIG};
	struct json_object *reply = NULL;
	const char *text;

	if (!r->known_stale)
		return &r->known;
	r->known_stale = false;
	/* Quietly: completion without a daemon just offers no names. */
	if (client_call(&r->cl, &req, &reply) == 0 && client_reply_ok(reply) &&
	    (text = client_reply_str(reply, "text"))) {
		policy_free(&r->known);
		policy_init(&r->known);
		rocesh_known_ports(&r->known, reply);
		rocesh_known_load(&r->known, text);
	}
	json_object_put(reply);
	return &r->known;
}

int rocesh_ping(struct rocesh *r)
{
	struct ctl_request req = {.cmd = CTL_CMD_PING};
	struct json_object *reply = NULL;
	int rc;

	rc = client_call(&r->cl, &req, &reply);
	json_object_put(reply);
	if (rc < 0)
		fprintf(r->err, "%% %s\n", r->cl.error);
	return rc;
}
