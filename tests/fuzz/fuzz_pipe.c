/* fuzz_pipe: rocesh's output filters (cli/pipe.c) on arbitrary lines.
 *
 * Each input's first line (at most FUZZ_LINE_MAX bytes) is parsed as a
 * show command with its filters; when it parses, the filters run over a
 * short running-config; and `?` and TAB answer it as they would at the
 * prompt. Nothing may read or write outside its buffers, leak, or hang:
 * a bad filter is an error with a position inside the line. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_LINE_MAX 512

static const char fuzz_text[] = "policy-map type queuing Q\n"
                                "  class type queuing c-out-8q-q3\n"
                                "    bandwidth remaining percent 50\n"
                                "\n"
                                "interface Ethernet1/1\n"
                                "  priority-flow-control mode on\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char line[FUZZ_LINE_MAX + 1], cmd[FUZZ_LINE_MAX + 1];
	char words[16][CMD_WORD_MAX];
	struct rocesh_pipes pp;
	struct cmd_error err;
	struct strbuf sb;
	size_t n = 0;
	char *out = NULL;
	size_t outlen = 0;
	FILE *f;

	while (n < size && n < FUZZ_LINE_MAX && data[n] != '\n' && data[n])
		n++;
	memcpy(line, data, n);
	line[n] = '\0';
	if (rocesh_pipes_parse(line, cmd, sizeof(cmd), &pp, &err) == 0) {
		f = open_memstream(&out, &outlen);
		if (f) {
			rocesh_pipes_run(&pp, fuzz_text, f);
			fclose(f);
		}
		free(out);
		rocesh_pipes_free(&pp);
	} else if (err.pos > n) {
		abort();
	}
	if (strchr(line, '|')) {
		strbuf_init(&sb);
		if (rocesh_pipes_help(line, &sb, &err) < 0 && err.pos > n)
			abort();
		strbuf_free(&sb);
		(void)rocesh_pipes_complete(line, words, 16);
	}
	return 0;
}
