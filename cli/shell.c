/* shell: rocesh on a terminal, with libedit.
 *
 * As on NX-OS: the prompt names the mode; `?` lists the next words with
 * their help at once (no Enter) and gives the line back to go on typing;
 * TAB completes the word being typed as far as it is unambiguous and lists
 * the candidates when it cannot go further; Ctrl-Z is `end`; `exit` at
 * roced# (or Ctrl-D) leaves. The listings come from the same command
 * table that parses the lines (lib/cmd/cmd.h), so they cannot disagree.
 */
#include "rocesh.h"
#include "ckpt.h"

#include <errno.h>
#include <histedit.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd_render.h"
#include "base/strbuf.h"

#define SHELL_HISTORY  500
#define SHELL_LINE_MAX 1024

struct shell {
	struct rocesh *r;
	EditLine *el;
	History *hist;
	char prompt[96];
	bool ctrl_z;
	bool cancel;
};

static volatile sig_atomic_t shell_interrupted;

static void shell_sigint(int sig)
{
	(void)sig;
	shell_interrupted = 1;
}

static struct shell *shell_of(EditLine *el)
{
	void *p = NULL;

	el_get(el, EL_CLIENTDATA, &p);
	return p;
}

static char *shell_prompt(EditLine *el)
{
	return shell_of(el)->prompt;
}

/* The line from its start to the cursor, as a C string in BUF. */
static const char *shell_before_cursor(EditLine *el, char *buf, size_t len)
{
	const LineInfo *li = el_line(el);
	size_t n = (size_t)(li->cursor - li->buffer);

	if (n >= len)
		n = len - 1;
	memcpy(buf, li->buffer, n);
	buf[n] = '\0';
	return buf;
}

static FILE *shell_out(EditLine *el)
{
	FILE *f = NULL;

	if (el_get(el, EL_GETFP, 1, &f) < 0 || !f)
		f = stdout;
	return f;
}

/* `?`: the help listing for what is typed so far. The `?` is echoed
 * after the line, as NX-OS does, and the line is given back unchanged;
 * words before the last one that start no command get the caret. */
static unsigned char shell_help(EditLine *el, int ch)
{
	struct shell *sh = shell_of(el);
	const LineInfo *li = el_line(el);
	char line[SHELL_LINE_MAX];
	FILE *out = shell_out(el);
	struct cmd_error err;
	struct strbuf sb;

	(void)ch;
	shell_before_cursor(el, line, sizeof(line));
	strbuf_init(&sb);
	fputs(li->cursor == li->lastchar ? "?\n" : "\n", out);
	if (rocesh_help(sh->r, line, &sb, &err) < 0)
		cmd_render_error(strlen(sh->prompt), &err, &sb);
	fputs(strbuf_str(&sb), out);
	fflush(out);
	strbuf_free(&sb);
	return CC_REDISPLAY;
}

/* TAB: the word before the cursor completed as far as the candidates
 * agree (with a space when only one is left), or their list when that
 * adds nothing. */
static unsigned char shell_complete(EditLine *el, int ch)
{
	struct shell *sh = shell_of(el);
	char line[SHELL_LINE_MAX];
	struct strbuf nl, listing;
	unsigned char rc = CC_REFRESH;

	(void)ch;
	shell_before_cursor(el, line, sizeof(line));
	strbuf_init(&nl);
	strbuf_init(&listing);
	if (rocesh_complete(sh->r, line, &nl, &listing) == 0) {
		rc = CC_REFRESH_BEEP;
	} else if (listing.len) {
		FILE *out = shell_out(el);

		fputc('\n', out);
		fputs(strbuf_str(&listing), out);
		fflush(out);
		rc = CC_REDISPLAY;
	} else if (strcmp(strbuf_str(&nl), line)) {
		/* Replace what is before the cursor by its completion. */
		el_deletestr(el, (int)strlen(line));
		if (el_insertstr(el, strbuf_str(&nl)) < 0)
			rc = CC_ERROR;
	}
	strbuf_free(&nl);
	strbuf_free(&listing);
	return rc;
}

/* Ctrl-C while editing: abandon the line, as a terminal does. */
static unsigned char shell_ctrl_c(EditLine *el, int ch)
{
	(void)ch;
	shell_of(el)->cancel = true;
	fputs("^C", shell_out(el));
	return CC_NEWLINE;
}

/* ESC and the key after it, when they are no arrow key's sequence:
 * emacs mode would take the ESC as Meta and the key as a command
 * (ESC b: back a word), so a pasted ESC byte, or a stray Escape, would
 * eat the next character unseen. Refused aloud instead, and the
 * character is kept. */
static unsigned char shell_esc(EditLine *el, int ch)
{
	FILE *out = shell_out(el);
	char c[2] = {(char)ch, '\0'};

	fputs("\n% ESC is not taken: a line is text (arrow keys and Ctrl "
	      "keys edit it)\n",
	      out);
	fflush(out);
	if (ch != '\r' && ch != '\n')
		el_insertstr(el, c);
	return CC_REDISPLAY;
}

/* Bind ESC followed by each printable character but the lead-ins of
 * the arrow keys' sequences (`[`, `O`), and by Enter, to shell_esc. */
static void shell_bind_esc(EditLine *el)
{
	char seq[8];

	for (int ch = ' '; ch <= '~'; ch++) {
		if (ch == '[' || ch == 'O')
			continue;
		/* libedit's own escapes for ^ and \ */
		snprintf(seq, sizeof(seq), "\\e%s%c",
		         ch == '^' || ch == '\\' ? "\\" : "", ch);
		el_set(el, EL_BIND, seq, "rocesh-esc", NULL);
	}
	el_set(el, EL_BIND, "\\e^M", "rocesh-esc", NULL);
	el_set(el, EL_BIND, "\\e^J", "rocesh-esc", NULL);
}

/* Ctrl-Z: `end`, whatever is on the line. */
static unsigned char shell_ctrl_z(EditLine *el, int ch)
{
	struct shell *sh = shell_of(el);

	(void)ch;
	if (sh->r->ctx.mode == CMD_MODE_EXEC)
		return CC_REFRESH_BEEP;
	sh->ctrl_z = true;
	fputs("^Z", shell_out(el));
	return CC_NEWLINE;
}

static int shell_open(struct shell *sh, struct rocesh *r)
{
	HistEvent ev;

	memset(sh, 0, sizeof(*sh));
	sh->r = r;
	sh->el = el_init("rocesh", stdin, stdout, stderr);
	sh->hist = history_init();
	if (!sh->el || !sh->hist)
		return -ENOMEM;
	history(sh->hist, &ev, H_SETSIZE, SHELL_HISTORY);
	history(sh->hist, &ev, H_SETUNIQUE, 1);
	el_set(sh->el, EL_CLIENTDATA, sh);
	el_set(sh->el, EL_EDITOR, "emacs");
	el_set(sh->el, EL_PROMPT, shell_prompt);
	el_set(sh->el, EL_HIST, history, sh->hist);
	/* The wide variant: the narrow one copies the names and never
	 * frees them. */
	el_wset(sh->el, EL_ADDFN, L"rocesh-help", L"list the next words",
	        shell_help);
	el_wset(sh->el, EL_ADDFN, L"rocesh-complete", L"complete the word",
	        shell_complete);
	el_wset(sh->el, EL_ADDFN, L"rocesh-end", L"back to exec mode",
	        shell_ctrl_z);
	el_wset(sh->el, EL_ADDFN, L"rocesh-cancel", L"abandon the line",
	        shell_ctrl_c);
	el_set(sh->el, EL_BIND, "?", "rocesh-help", NULL);
	el_set(sh->el, EL_BIND, "^I", "rocesh-complete", NULL);
	/* Ctrl-Z must reach us as a character, not stop rocesh: take it
	 * off the terminal's suspend key while editing. */
	el_set(sh->el, EL_SETTY, "-d", "-susp", "susp=", NULL);
	el_set(sh->el, EL_BIND, "^Z", "rocesh-end", NULL);
	/* The same for Ctrl-C, so that the abandoned line stays on the
	 * screen; outside editing it still interrupts a request. */
	el_set(sh->el, EL_SETTY, "-d", "-intr", "intr=", NULL);
	el_set(sh->el, EL_BIND, "^C", "rocesh-cancel", NULL);
	el_wset(sh->el, EL_ADDFN, L"rocesh-esc", L"refuse a lone ESC",
	        shell_esc);
	shell_bind_esc(sh->el);
	return 0;
}

static void shell_close(struct shell *sh)
{
	if (sh->el)
		el_end(sh->el);
	if (sh->hist)
		history_end(sh->hist);
}

int rocesh_shell(struct rocesh *r)
{
	struct sigaction sa = {.sa_handler = shell_sigint};
	struct shell sh;
	HistEvent ev;
	int rc;

	/* Characters, not bytes: libedit drops what the locale cannot
	 * decode (`description café` became `caf`). A terminal without a
	 * UTF-8 locale set gets C.UTF-8, which every glibc has. */
	if (!setlocale(LC_CTYPE, "") || strcmp(nl_langinfo(CODESET), "UTF-8"))
		setlocale(LC_CTYPE, "C.UTF-8");
	/* Ctrl-C interrupts a request that takes long, not the shell. */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	/* Say at once when there is no daemon to talk to; the shell still
	 * starts (help and completion work without it). */
	rocesh_ping(r);
	rc = shell_open(&sh, r);
	if (rc < 0) {
		shell_close(&sh);
		fprintf(r->err, "rocesh: cannot set up the terminal\n");
		return rc;
	}
	while (!r->quit) {
		const char *got;
		char *line;
		int count;
		size_t len;

		rocesh_ckpt_prompt(&r->ctx, r->session, ROCESH_HOST, sh.prompt,
		                   sizeof(sh.prompt));
		sh.ctrl_z = false;
		sh.cancel = false;
		shell_interrupted = 0;
		got = el_gets(sh.el, &count);
		if (sh.cancel) {
			fputc('\n', stdout);
			continue;
		}
		/* Before the EOF check: on an empty line libedit returns
		 * NULL for Ctrl-Z's newline too. */
		if (sh.ctrl_z) {
			fputc('\n', stdout);
			rocesh_line(r, "end", strlen(sh.prompt));
			continue;
		}
		if (!got) {
			fputc('\n', stdout);
			if (shell_interrupted) {
				el_reset(sh.el);
				continue;
			}
			break;
		}
		line = strdup(got);
		if (!line)
			break;
		len = strlen(line);
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (line[strspn(line, " \t")])
			history(sh.hist, &ev, H_ENTER, line);
		r->lineno++;
		rocesh_line(r, line, strlen(sh.prompt));
		fflush(stdout);
		free(line);
	}
	shell_close(&sh);
	return 0;
}
