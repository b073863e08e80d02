/* rundir: see rundir.h. */
#include "os/rundir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int rundir_prepare(const char *dir, char *err, size_t errlen)
{
	struct stat st;
	bool made = false;
	int fd, rc = 0;

	if (mkdir(dir, 0755) == 0)
		made = true;
	else if (errno != EEXIST) {
		rc = -errno;
		snprintf(err, errlen, "cannot create %s: %s", dir,
		         strerror(-rc));
		return rc;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		if (rc == -ELOOP || rc == -ENOTDIR)
			snprintf(err, errlen,
			         "%s is not a directory (a symbolic link or a "
			         "file): refusing to keep state there; remove "
			         "it",
			         dir);
		else
			snprintf(err, errlen, "cannot open %s: %s", dir,
			         strerror(-rc));
		return rc;
	}
	/* The umask shaped a directory just made: give it its mode. */
	if (made && fchmod(fd, 0755) < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot make %s 0755: %s", dir,
		         strerror(-rc));
		goto out;
	}
	if (fstat(fd, &st) < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot look at %s: %s", dir,
		         strerror(-rc));
		goto out;
	}
	if (st.st_uid != 0 && st.st_uid != geteuid()) {
		rc = -EPERM;
		snprintf(err, errlen,
		         "%s is owned by uid %u, not root: refusing to keep "
		         "state there (chown root:root %s, or remove it)",
		         dir, (unsigned)st.st_uid, dir);
		goto out;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		rc = -EPERM;
		snprintf(err, errlen,
		         "%s is writable by %s (mode %04o): refusing to keep "
		         "state there (chmod 755 %s, or remove it)",
		         dir, (st.st_mode & S_IWOTH) ? "others" : "its group",
		         (unsigned)(st.st_mode & 07777), dir);
		goto out;
	}
out:
	close(fd);
	return rc;
}

FILE *rundir_create(const char *path, char *tmp, size_t tmplen, mode_t mode)
{
	FILE *f;
	int fd;

	if ((size_t)snprintf(tmp, tmplen, "%s.new", path) >= tmplen) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	/* A file left by a roced that died, or a link someone planted:
	 * neither is written through. */
	if (unlink(tmp) < 0 && errno != ENOENT)
		return NULL;
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
	          mode);
	if (fd < 0)
		return NULL;
	if (fchmod(fd, mode) < 0 || !(f = fdopen(fd, "w"))) {
		int e = errno;

		close(fd);
		unlink(tmp);
		errno = e;
		return NULL;
	}
	return f;
}

int rundir_commit(FILE *f, const char *tmp, const char *path)
{
	int rc = 0;

	if (fflush(f) != 0 || fsync(fileno(f)) < 0)
		rc = -errno;
	if (fclose(f) != 0 && !rc)
		rc = -errno;
	if (!rc && rename(tmp, path) < 0)
		rc = -errno;
	if (rc)
		unlink(tmp);
	return rc;
}

int rundir_write(const char *path, const char *text, mode_t mode)
{
	char tmp[4096];
	FILE *f = rundir_create(path, tmp, sizeof(tmp), mode);

	if (!f)
		return -errno;
	fputs(text, f);
	return rundir_commit(f, tmp, path);
}
