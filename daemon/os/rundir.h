/* rundir: the files roced writes as root (the state directory, the pid
 * file, the state files in it, the configuration file) are written so that
 * nobody else can steer the write: the directory must be root's and
 * closed to others, and a file is never opened through a symbolic link or
 * a name someone else may have planted.
 */
#ifndef ROCED_RUNDIR_H
#define ROCED_RUNDIR_H

#include <stdio.h>
#include <sys/types.h>

/* Make DIR fit for roced's state: create it 0755 when absent; refuse a
 * symbolic link, something that is not a directory, a directory owned by
 * another user than root (or the user roced runs as) and one writable by
 * its group or by others. Returns 0, or -errno with ERR saying what is
 * wrong and how to put it right (-EPERM for an unsafe directory). */
int rundir_prepare(const char *dir, char *err, size_t errlen);
/* Open a new file TMP (PATH with ".new" appended; the caller's buffer of
 * TMPLEN bytes) for writing with MODE: what is there by that name is
 * removed first and the file is created afresh (O_EXCL, O_NOFOLLOW), so a
 * symbolic or hard link planted there is never written through. The
 * caller writes, then rundir_commit(). Returns the stream, or NULL with
 * errno set. */
FILE *rundir_create(const char *path, char *tmp, size_t tmplen, mode_t mode);
/* Flush, fsync and close F (from rundir_create), then rename TMP over
 * PATH (which replaces a symbolic link at PATH, never follows it). On any
 * failure TMP is removed. Returns 0 or -errno. */
int rundir_commit(FILE *f, const char *tmp, const char *path);
/* Write the NUL-terminated TEXT to PATH that way, with MODE. */
int rundir_write(const char *path, const char *text, mode_t mode);

#endif
