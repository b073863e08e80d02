/* hexfix: see hexfix.h. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>

#include "hexfix.h"

size_t hexfix_msg(const char *dir, const char *name, int idx, uint8_t *buf,
                  size_t max)
{
	char path[512], line[8192];
	size_t n = 0;
	FILE *f;
	int i = 0;

	snprintf(path, sizeof(path), "%s/tests/fixtures/%s/%s.hex", TEST_SRCDIR,
	         dir, name);
	f = fopen(path, "r");
	if (!f)
		fail_msg("cannot open %s", path);
	while (fgets(line, sizeof(line), f)) {
		char *p = line;
		unsigned v;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (i++ != idx)
			continue;
		while (sscanf(p, "%2x", &v) == 1 && n < max) {
			buf[n++] = (uint8_t)v;
			p += 2;
		}
		break;
	}
	fclose(f);
	if (!n)
		fail_msg("%s: no message %d", path, idx);
	return n;
}
