/* rocesh: roced's NX-OS-like shell (see rocesh.h and rocesh(8)).
 *
 *   rocesh                 interactive, on a terminal
 *   rocesh -c 'CMD; CMD'   run the commands and exit
 *   rocesh < FILE          run FILE's lines and exit
 *   rocesh -E < FILE       the same, shown as on a terminal (transcripts)
 * The exit status is 0 when every command succeeded, 1 when any failed
 * and 2 on a usage error, so that scripts can rely on it.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rocesh.h"

#define ROCESH_EXIT_FAIL  1
#define ROCESH_EXIT_USAGE 2
#define ROCESH_MAX_C      64

struct main_opts {
	const char *sock;
	const char *cmds[ROCESH_MAX_C];
	size_t ncmds;
	bool stop_on_error;
	bool echo;
};

static void main_usage(FILE *f)
{
	fprintf(
	    f, "usage: rocesh [-s SOCKET] [-e] [-E] [-c COMMANDS]...\n"
	       "       rocesh [-s SOCKET] [-e] [-E] < FILE\n"
	       "       rocesh -h | -V\n"
	       "\n"
	       "  -c, --command CMDS  run CMDS (several separated by ';')\n"
	       "                      and exit; may be given more than once\n"
	       "  -e, --stop-on-error stop at the first command that fails\n"
	       "  -E, --echo          show the commands as a terminal would:\n"
	       "                      each after its prompt, then its output\n"
	       "                      and errors, all on standard output; a\n"
	       "                      line ending in `?' or a TAB is that key\n"
	       "  -s, --socket PATH   roced's control socket (default: the\n"
	       "                      one of this network namespace)\n"
	       "  -h, --help          this help\n"
	       "  -V, --version       print the version\n"
	       "\n"
	       "Without -c, commands are read from standard input: with\n"
	       "line editing, `?' and TAB on a terminal, one per line\n"
	       "otherwise. The exit status is 1 if any command failed.\n");
}

static int main_parse(int argc, char **argv, struct main_opts *o)
{
	static const struct option longopts[] = {
	    {"command", required_argument, NULL, 'c'},
	    {"stop-on-error", no_argument, NULL, 'e'},
	    {"echo", no_argument, NULL, 'E'},
	    {"socket", required_argument, NULL, 's'},
	    {"help", no_argument, NULL, 'h'},
	    {"version", no_argument, NULL, 'V'},
	    {NULL, 0, NULL, 0},
	};
	int c;

	memset(o, 0, sizeof(*o));
	while ((c = getopt_long(argc, argv, "c:eEs:hV", longopts, NULL)) !=
	       -1) {
		switch (c) {
		case 'c':
			if (o->ncmds == ROCESH_MAX_C) {
				fprintf(stderr, "rocesh: at most %d -c\n",
				        ROCESH_MAX_C);
				return -1;
			}
			o->cmds[o->ncmds++] = optarg;
			break;
		case 'e':
			o->stop_on_error = true;
			break;
		case 'E':
			o->echo = true;
			break;
		case 's':
			o->sock = optarg;
			break;
		case 'h':
			main_usage(stdout);
			exit(0);
		case 'V':
			printf("rocesh %s\n", PACKAGE_VERSION);
			exit(0);
		default:
			main_usage(stderr);
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "rocesh: unexpected argument '%s'\n",
		        argv[optind]);
		main_usage(stderr);
		return -1;
	}
	return 0;
}

/* -c: the commands of one argument, split at ';' as NX-OS's vsh -c does
 * ("conf t ; interface swp1 ; ..."). */
static int main_commands(struct rocesh *r, const char *arg, bool stop)
{
	char *copy = strdup(arg), *save = NULL;
	int failed = 0;

	if (!copy)
		return -1;
	for (char *s = strtok_r(copy, ";", &save); s && !r->quit;
	     s = strtok_r(NULL, ";", &save)) {
		/* "a ; b": the blank after a ';' separates, it does not
		 * indent (a deeper indentation puts b under a) */
		if (s != copy && *s == ' ')
			s++;
		r->lineno++;
		if ((r->echo ? rocesh_echo_line(r, s) : rocesh_line(r, s, 0)) <
		    0) {
			failed = -1;
			if (stop)
				break;
		}
	}
	free(copy);
	return failed;
}

static void main_stdin(struct rocesh *r, bool stop)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	while (!r->quit && (n = getline(&line, &cap, stdin)) >= 0) {
		while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		r->lineno++;
		if ((r->echo ? rocesh_echo_line(r, line)
		             : rocesh_line(r, line, 0)) < 0 &&
		    stop)
			break;
		fflush(r->out);
	}
	free(line);
}

int main(int argc, char **argv)
{
	struct main_opts o;
	struct rocesh r;
	bool terminal = false;
	int rc;

	if (main_parse(argc, argv, &o) < 0)
		return ROCESH_EXIT_USAGE;
	rc = rocesh_init(&r, o.sock);
	if (rc < 0) {
		fprintf(stderr, "rocesh: %s\n",
		        r.cl.error[0] ? r.cl.error : "bad socket path");
		rocesh_free(&r);
		return ROCESH_EXIT_USAGE;
	}
	if (o.echo) {
		/* A terminal's view of a script: its parsing, its error
		 * rendering, and one stream in order. */
		r.echo = true;
		r.interactive = true;
		r.err = r.out;
	}
	if (o.ncmds) {
		r.src = "-c";
		for (size_t i = 0; i < o.ncmds && !r.quit; i++)
			if (main_commands(&r, o.cmds[i], o.stop_on_error) < 0 &&
			    o.stop_on_error)
				break;
	} else if (isatty(STDIN_FILENO) && !o.echo) {
		terminal = true;
		r.interactive = true;
		rocesh_shell(&r);
	} else {
		main_stdin(&r, o.stop_on_error);
	}
	rocesh_finish(&r);
	fflush(r.out);
	/* A person at a terminal has seen each error already. */
	rc = r.nerrors && !terminal ? ROCESH_EXIT_FAIL : 0;
	rocesh_free(&r);
	return rc;
}
