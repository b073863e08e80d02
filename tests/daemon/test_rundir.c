/* test_rundir: the files roced writes as root (state files, the pid
 * file, the metrics textfile, the configuration file's copy) are reached
 * without following a symbolic link anywhere on their path
 * (daemon/os/rundir.c): a directory on the way turned into a link by its
 * owner sends no create, rename or remove into the link's target. Each
 * case builds DIR/real and DIR/link -> real (or a link higher up) in a
 * temporary directory, and looks at real afterwards. No root needed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "control/ctl_cmd.h"
#include "core/mfile.h"
#include "os/rundir.h"

struct tree {
	char dir[64];
	char real[96], link[96], deep[128];
};

/* DIR/real/sub (a directory), DIR/link -> real, and DEEP: a path through
 * the link, DIR/link/sub. */
static int tree_setup(void **state)
{
	struct tree *t = calloc(1, sizeof(*t));
	char sub[128];

	assert_non_null(t);
	snprintf(t->dir, sizeof(t->dir), "/tmp/roced-rundir-XXXXXX");
	assert_non_null(mkdtemp(t->dir));
	snprintf(t->real, sizeof(t->real), "%s/real", t->dir);
	snprintf(t->link, sizeof(t->link), "%s/link", t->dir);
	snprintf(t->deep, sizeof(t->deep), "%s/link/sub", t->dir);
	snprintf(sub, sizeof(sub), "%s/sub", t->real);
	assert_int_equal(mkdir(t->real, 0755), 0);
	assert_int_equal(mkdir(sub, 0755), 0);
	assert_int_equal(symlink("real", t->link), 0);
	*state = t;
	return 0;
}

/* Everything under DIR goes, whatever a failed case left. */
static void tree_rm(const char *path)
{
	struct stat st;
	struct dirent *de;
	DIR *d;

	if (lstat(path, &st) < 0)
		return;
	if (!S_ISDIR(st.st_mode)) {
		unlink(path);
		return;
	}
	d = opendir(path);
	while (d && (de = readdir(d))) {
		char p[512];

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(p, sizeof(p), "%s/%s", path, de->d_name);
		tree_rm(p);
	}
	if (d)
		closedir(d);
	rmdir(path);
}

static int tree_teardown(void **state)
{
	struct tree *t = *state;

	tree_rm(t->dir);
	assert_int_equal(access(t->dir, F_OK), -1);
	free(t);
	return 0;
}

/* The entries of directory PATH, "." and ".." aside. */
static size_t entries(const char *path)
{
	struct dirent *de;
	size_t n = 0;
	DIR *d = opendir(path);

	assert_non_null(d);
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n;
}

static void file_in(char *buf, size_t len, const char *dir, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
}

/* A state file through a link is refused (-ELOOP), and nothing appears
 * in the link's target; the same file in the real directory is written,
 * read back and removed. */
static void test_state_file(void **state)
{
	struct tree *t = *state;
	char path[160], line[32];
	FILE *f;

	file_in(path, sizeof(path), t->link, "roced.pfcwd");
	assert_int_equal(rundir_write(path, "x\n", 0644), -ELOOP);
	assert_int_equal(entries(t->real), 1); /* sub */
	file_in(path, sizeof(path), t->deep, "roced.pfcwd");
	assert_int_equal(rundir_write(path, "x\n", 0644), -ELOOP);
	assert_int_equal(entries(t->real), 1);

	file_in(path, sizeof(path), t->real, "roced.pfcwd");
	assert_int_equal(rundir_write(path, "x\n", 0644), 0);
	f = rundir_fopen(path);
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));
	fclose(f);
	assert_string_equal(line, "x\n");
	/* read and removed through the link: refused, still there */
	file_in(path, sizeof(path), t->link, "roced.pfcwd");
	assert_null(rundir_fopen(path));
	assert_int_equal(errno, ELOOP);
	assert_int_equal(rundir_unlink(path), -ELOOP);
	assert_int_equal(entries(t->real), 2);
	/* a link at the file itself is not read through either */
	file_in(path, sizeof(path), t->dir, "roced.mtu");
	assert_int_equal(symlink("real/roced.pfcwd", path), 0);
	assert_null(rundir_fopen(path));
	assert_int_equal(errno, ELOOP);
	file_in(path, sizeof(path), t->real, "roced.pfcwd");
	assert_int_equal(rundir_unlink(path), 0);
	assert_int_equal(rundir_unlink(path), -ENOENT);
	assert_int_equal(entries(t->real), 1);
}

/* The metrics textfile: its directory's owner turns a directory on the
 * way into a link; roced creates nothing there and says why. The removal
 * at stop does not go through the link either. */
static void test_textfile(void **state)
{
	struct tree *t = *state;
	char path[160], victim[160], err[512];
	struct plan_global pm = {.metrics_interval_s = 10};
	struct mfile m;

	file_in(path, sizeof(path), t->deep, "roced.prom");
	assert_int_equal(mfile_write(path, "a 1\n", err, sizeof(err)), -ELOOP);
	assert_non_null(strstr(err, "symbolic link"));
	assert_int_equal(entries(t->real), 1);
	assert_int_equal(entries(t->real), 1);

	/* Written while the directory was real, then swapped for a link
	 * to another directory holding a file of that name: the stop
	 * removes neither. */
	file_in(path, sizeof(path), t->dir, "m/roced.prom");
	file_in(victim, sizeof(victim), t->real, "roced.prom");
	file_in(err, sizeof(err), t->dir, "m");
	assert_int_equal(mkdir(err, 0755), 0);
	mfile_init(&m);
	snprintf(pm.metrics_textfile, sizeof(pm.metrics_textfile), "%s", path);
	mfile_configure(&m, &pm, 0);
	assert_int_equal(mfile_write(path, "a 1\n", err, sizeof(err)), 0);
	m.written = true;
	assert_int_equal(unlink(path), 0);
	file_in(err, sizeof(err), t->dir, "m");
	assert_int_equal(rmdir(err), 0);
	assert_int_equal(symlink("real", err), 0);
	assert_int_equal(rundir_write(victim, "keep\n", 0644), 0);
	mfile_stop(&m);
	assert_int_equal(access(victim, F_OK), 0);
}

/* copy running-config startup-config through a linked directory: the
 * configuration in the link's target is neither replaced nor backed up. */
static void test_config_copy(void **state)
{
	struct tree *t = *state;
	char path[160], err[512];

	file_in(path, sizeof(path), t->real, "roced.conf");
	assert_int_equal(ctl_cmd_write_atomic(path, "old\n", err, sizeof(err)),
	                 0);
	assert_int_equal(ctl_cmd_write_atomic(path, "new\n", err, sizeof(err)),
	                 0);
	/* the file and its .bak, sub */
	assert_int_equal(entries(t->real), 3);
	file_in(path, sizeof(path), t->link, "roced.conf");
	assert_int_equal(ctl_cmd_write_atomic(path, "evil\n", err, sizeof(err)),
	                 -ELOOP);
	assert_int_equal(entries(t->real), 3);
}

/* A write that fails part way (a full file system; here the file size
 * limit, EFBIG, which needs no root): the metrics textfile and the
 * configuration's copy say so, keep the file as it was and leave no
 * temporary beside it. Without the stream's error flag checked, the
 * failed write left nothing for fflush to report, and a file cut short
 * was renamed over the good one. */
static void test_write_fails(void **state)
{
	struct tree *t = *state;
	char path[160], err[512], line[32], *big;
	struct rlimit old, lim;
	void (*sig)(int);
	FILE *f;
	int rc[2];

	big = malloc(20000);
	assert_non_null(big);
	memset(big, 'x', 19998);
	big[19998] = '\n';
	big[19999] = '\0';
	file_in(path, sizeof(path), t->real, "roced.prom");
	assert_int_equal(mfile_write(path, "a 1\n", err, sizeof(err)), 0);
	file_in(path, sizeof(path), t->real, "roced.conf");
	assert_int_equal(ctl_cmd_write_atomic(path, "old\n", err, sizeof(err)),
	                 0);
	assert_int_equal(entries(t->real), 3); /* sub, the two files */

	sig = signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = old;
	lim.rlim_cur = 4096;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	file_in(path, sizeof(path), t->real, "roced.prom");
	rc[0] = mfile_write(path, big, err, sizeof(err));
	file_in(path, sizeof(path), t->real, "roced.conf");
	rc[1] = ctl_cmd_write_atomic(path, big, err, sizeof(err));
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, sig);
	free(big);

	assert_int_equal(rc[0], -EFBIG);
	assert_int_equal(rc[1], -EFBIG);
	assert_non_null(strstr(err, "cannot write"));
	assert_int_equal(entries(t->real), 3);
	file_in(path, sizeof(path), t->real, "roced.prom");
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));
	fclose(f);
	assert_string_equal(line, "a 1\n");
	file_in(path, sizeof(path), t->real, "roced.conf");
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));
	fclose(f);
	assert_string_equal(line, "old\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_state_file, tree_setup,
	                                    tree_teardown),
	    cmocka_unit_test_setup_teardown(test_textfile, tree_setup,
	                                    tree_teardown),
	    cmocka_unit_test_setup_teardown(test_config_copy, tree_setup,
	                                    tree_teardown),
	    cmocka_unit_test_setup_teardown(test_write_fails, tree_setup,
	                                    tree_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
