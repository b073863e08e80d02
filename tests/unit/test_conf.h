/* What test_conf.c shares with its table of cases (test_conf_cases.c). */
#ifndef ROCED_TEST_CONF_H
#define ROCED_TEST_CONF_H

#include <stddef.h>

/* Four lines of class-maps that cases build on (lines 1-4): qos class C
 * (cos 3) and network-qos class N (qos-group 3). */
#define CLASSES                                                                \
	"class-map = {\n"                                                      \
	"  qos = ( { name = \"C\"; cos = 3; } );\n"                            \
	"  network-qos = ( { name = \"N\"; qos-group = 3; } );\n"              \
	"};\n"

/* A config TEXT and what loading it must report: an error (or, in the
 * warning table, a warning) at LINE containing MSG, and NERRORS errors in
 * all (0 means 1: nothing but the expected one). */
struct bad_case {
	const char *name;
	const char *text;
	unsigned line;
	const char *msg;
	unsigned nerrors;
};

extern const struct bad_case test_conf_bad[];
extern const size_t test_conf_nbad;
extern const struct bad_case test_conf_warn[];
extern const size_t test_conf_nwarn;

#endif
