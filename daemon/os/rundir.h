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
/* Every path below is walked from its root (or from the working
 * directory for a relative one) one component at a time, each opened
 * relative to the one before with O_NOFOLLOW: a symbolic link anywhere
 * in it is refused (-ELOOP), never followed. Whoever owns a directory on
 * the way (the prometheus user owns /var/lib/prometheus on Debian) can
 * then not send roced's create, rename or remove into another directory
 * by turning a component into a link. The file itself is created,
 * renamed and removed relative to its directory's descriptor. */

/* Open the directory of PATH so, and put its last component in BASE.
 * Returns the descriptor (O_DIRECTORY, close-on-exec) or -errno:
 * -ELOOP for a link on the way, -EINVAL for a PATH that names no file
 * (empty, or ending in '/', "." or ".."). */
int rundir_open_parent(const char *path, char *base, size_t baselen);
/* Open PATH itself for reading that way (a link at PATH refused too).
 * Returns the stream, or NULL with errno set. */
FILE *rundir_fopen(const char *path);
/* Remove PATH (a link at PATH is removed, not followed). Returns 0 or
 * -errno (-ENOENT when there is nothing). */
int rundir_unlink(const char *path);

/* A file being written: the stream, its directory and the names. */
struct rundir_file {
	FILE *f;
	int dfd;
	char base[256], tmp[272];
};
/* Open a new file for PATH with MODE, its name unguessable and hidden
 * (".BASE.XXXXXX" when HIDDEN) or BASE".new" (what is there by that name
 * is removed first): created afresh (O_EXCL, O_NOFOLLOW), so a symbolic
 * or hard link planted there is never written through. The caller
 * writes to RF->f, then rundir_commit(). Returns RF->f, or NULL with
 * errno set. */
FILE *rundir_create(struct rundir_file *rf, const char *path, mode_t mode,
                    int hidden);
/* Flush, fsync and close RF's stream, then rename it over its PATH
 * (which replaces a symbolic link at PATH, never follows it). On any
 * failure the new file is removed. Returns 0 or -errno. */
int rundir_commit(struct rundir_file *rf);
/* Write the NUL-terminated TEXT to PATH that way, with MODE. */
int rundir_write(const char *path, const char *text, mode_t mode);

#endif
