/* compile_int: shared between compile.c, compile_tc.c and compile_red.c. */
#ifndef ROCED_COMPILE_INT_H
#define ROCED_COMPILE_INT_H
#include "compile.h"
#endif
