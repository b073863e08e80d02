/* cmdline: roced's command line. */
#ifndef ROCED_CMDLINE_H
#define ROCED_CMDLINE_H

/* Parse ARGV and run the requested job; returns the exit status. */
int roced_main(int argc, char **argv);

#endif
