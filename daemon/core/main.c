/* roced: see cmdline.c; everything lives in the daemon library so that
 * tests link the real code. */
#include "core/cmdline.h"

int main(int argc, char **argv)
{
	return roced_main(argc, argv);
}
