/* rundir: see rundir.h. */
#include "os/rundir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

/* Open directory DIR (LEN bytes of it; 0: the working directory), one
 * component at a time with O_NOFOLLOW. Returns the descriptor or -errno,
 * -ELOOP for a component that is a symbolic link. */
static int rundir_walk(const char *dir, size_t len)
{
	const char *p = dir, *end = dir + len;
	int fd;

	fd = open(len && *dir == '/' ? "/" : ".",
	          O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (p < end) {
		char comp[256];
		const char *e;
		struct stat st;
		int nfd, rc;

		while (p < end && *p == '/')
			p++;
		if (p == end)
			break;
		e = memchr(p, '/', (size_t)(end - p));
		if (!e)
			e = end;
		if ((size_t)(e - p) >= sizeof(comp)) {
			close(fd);
			return -ENAMETOOLONG;
		}
		memcpy(comp, p, (size_t)(e - p));
		comp[e - p] = '\0';
		nfd = openat(fd, comp,
		             O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (nfd < 0) {
			rc = -errno;
			/* O_PATH with O_NOFOLLOW fails a link with ENOTDIR:
			 * say what it is. */
			if (rc == -ENOTDIR &&
			    fstatat(fd, comp, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			    S_ISLNK(st.st_mode))
				rc = -ELOOP;
			close(fd);
			return rc;
		}
		close(fd);
		fd = nfd;
		p = e;
	}
	return fd;
}

int rundir_open_parent(const char *path, char *base, size_t baselen)
{
	const char *slash = strrchr(path, '/');
	const char *b = slash ? slash + 1 : path;
	size_t dlen = slash ? (size_t)(slash - path) : 0;

	if (!*b || !strcmp(b, ".") || !strcmp(b, ".."))
		return -EINVAL;
	if ((size_t)snprintf(base, baselen, "%s", b) >= baselen)
		return -ENAMETOOLONG;
	/* "/x": the root itself. */
	if (slash == path)
		dlen = 1;
	return rundir_walk(path, dlen);
}

FILE *rundir_fopen(const char *path)
{
	char base[256];
	int dfd = rundir_open_parent(path, base, sizeof(base)), fd, e;
	FILE *f;

	if (dfd < 0) {
		errno = -dfd;
		return NULL;
	}
	fd = openat(dfd, base, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	e = errno;
	close(dfd);
	if (fd < 0) {
		errno = e;
		return NULL;
	}
	f = fdopen(fd, "r");
	if (!f) {
		e = errno;
		close(fd);
		errno = e;
	}
	return f;
}

int rundir_unlink(const char *path)
{
	char base[256];
	int dfd = rundir_open_parent(path, base, sizeof(base)), rc = 0;

	if (dfd < 0)
		return dfd;
	if (unlinkat(dfd, base, 0) < 0)
		rc = -errno;
	close(dfd);
	return rc;
}

int rundir_prepare(const char *dir, char *err, size_t errlen)
{
	struct stat st;
	bool made = false;
	char base[256];
	int fd, dfd, rc = 0;

	dfd = rundir_open_parent(dir, base, sizeof(base));
	if (dfd < 0) {
		rc = dfd;
		snprintf(err, errlen,
		         "cannot open the directory above %s: %s%s", dir,
		         strerror(-rc),
		         rc == -ELOOP ? " (a symbolic link: roced follows none "
		                        "on the way to its state)"
		                      : "");
		return rc;
	}
	if (mkdirat(dfd, base, 0755) == 0)
		made = true;
	else if (errno != EEXIST) {
		rc = -errno;
		close(dfd);
		snprintf(err, errlen, "cannot create %s: %s", dir,
		         strerror(-rc));
		return rc;
	}
	fd = openat(dfd, base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	close(dfd);
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

/* A fresh hidden name beside BASE: ".BASE.XXXXXX", six random letters
 * or digits. */
static int rundir_tmpname(struct rundir_file *rf)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyz"
	                          "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char r[6];
	char x[7];

	if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
		return -EIO;
	for (size_t i = 0; i < sizeof(r); i++)
		x[i] = set[r[i] % (sizeof(set) - 1)];
	x[6] = '\0';
	if ((size_t)snprintf(rf->tmp, sizeof(rf->tmp), ".%s.%s", rf->base, x) >=
	    sizeof(rf->tmp))
		return -ENAMETOOLONG;
	return 0;
}

FILE *rundir_create(struct rundir_file *rf, const char *path, mode_t mode,
                    int hidden)
{
	int fd = -1, rc = 0;

	memset(rf, 0, sizeof(*rf));
	rf->dfd = rundir_open_parent(path, rf->base, sizeof(rf->base));
	if (rf->dfd < 0) {
		errno = -rf->dfd;
		return NULL;
	}
	for (int tries = 0; fd < 0 && tries < 100; tries++) {
		if (hidden)
			rc = rundir_tmpname(rf);
		else if ((size_t)snprintf(rf->tmp, sizeof(rf->tmp), "%s.new",
		                          rf->base) >= sizeof(rf->tmp))
			rc = -ENAMETOOLONG;
		/* A file left by a roced that died, or a link someone
		 * planted: neither is written through. */
		else if (unlinkat(rf->dfd, rf->tmp, 0) < 0 && errno != ENOENT)
			rc = -errno;
		if (rc)
			break;
		fd = openat(
		    rf->dfd, rf->tmp,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
		if (fd < 0 && (errno != EEXIST || !hidden)) {
			rc = -errno;
			break;
		}
	}
	if (!rc && fd < 0)
		rc = -EEXIST;
	if (!rc && (fchmod(fd, mode) < 0 || !(rf->f = fdopen(fd, "w"))))
		rc = -errno;
	if (rc) {
		if (fd >= 0) {
			close(fd);
			unlinkat(rf->dfd, rf->tmp, 0);
		}
		close(rf->dfd);
		rf->dfd = -1;
		errno = -rc;
		return NULL;
	}
	return rf->f;
}

int rundir_commit(struct rundir_file *rf)
{
	int rc = 0;

	/* A write that failed within fputs (a full file system) leaves
	 * only the stream's error flag: stdio drops what it could not
	 * write, so fflush finds nothing left to fail on, and the file
	 * renamed would be cut short. errno is still that write's. */
	if (fflush(rf->f) != 0 || ferror(rf->f))
		rc = errno ? -errno : -EIO;
	else if (fsync(fileno(rf->f)) < 0)
		rc = -errno;
	if (fclose(rf->f) != 0 && !rc)
		rc = -errno;
	rf->f = NULL;
	if (!rc && renameat(rf->dfd, rf->tmp, rf->dfd, rf->base) < 0)
		rc = -errno;
	if (rc)
		unlinkat(rf->dfd, rf->tmp, 0);
	close(rf->dfd);
	rf->dfd = -1;
	return rc;
}

int rundir_write(const char *path, const char *text, mode_t mode)
{
	struct rundir_file rf;

	if (!rundir_create(&rf, path, mode, 0))
		return -errno;
	fputs(text, rf.f);
	return rundir_commit(&rf);
}
