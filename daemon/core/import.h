/* roced --import FORMAT FILE: another system's QoS configuration turned
 * into roced.conf on standard output. */
#ifndef ROCED_IMPORT_H
#define ROCED_IMPORT_H

/* FORMAT is "cumulus" (a Cumulus Linux traffic.conf, qos_features.conf or NVUE
 * commands); FILE may be
 * "-" for standard input. Warnings and errors go to standard error as
 * FILE:LINE: message. Returns the exit status: 0 when a roced.conf was
 * written (and it loads), 1 when nothing was, 2 for a usage error. */
int import_run(const char *format, const char *file);

#endif
