#!/bin/sh
# make install DESTDIR=...: roced in sbin, rocesh in bin, the systemd unit,
# the man pages and the default configuration, and nothing else. The unit
# points at the installed roced and configuration. A second install keeps
# an edited roced.conf; make uninstall removes everything but an edited
# roced.conf, and the shipped one too once it is unchanged.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
t_init install
tmp=$t_tmp
dest="$tmp/dest"
fail() { echo "FAIL: $*"; [ -f "$tmp/make.log" ] && tail -n 20 "$tmp/make.log"; exit 1; }
# A make of its own, not a child of `make check`'s (no jobserver, no -w).
mk() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		make -C "$top_builddir" "$@" DESTDIR="$dest" >"$tmp/make.log" 2>&1
}
files() { (cd "$dest" && find . ! -type d | sed 's|^\./|/|' | sort); }

mk install || fail "make install"
echo "installed:"
files | sed 's/^/  /'

# Expected files, by the directories configure chose (asked of make, so
# that ${prefix} and appended values come out as make sees them).
mkvar() {
	printf 'pkg-print-var:\n\t@echo $(%s)\n' "$1" |
		env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
			make -s --no-print-directory -C "$top_builddir" -f Makefile -f - pkg-print-var
}
sbindir=$(mkvar sbindir)
bindir=$(mkvar bindir)
sysconfdir=$(mkvar sysconfdir)
mandir=$(mkvar mandir)
unitdir=$(mkvar systemdsystemunitdir)
{
	echo "$sbindir/roced"
	echo "$sysconfdir/roced/roced.conf"
	echo "$unitdir/roced.service"
	for b in $(mkvar bin_PROGRAMS); do echo "$bindir/$b"; done
	for m in $(mkvar dist_man_MANS); do
		echo "$mandir/man${m##*.}/${m##*/}"
	done
} | sort >"$tmp/want"
# Configured without --sysconfdir (as scripts/build.sh does), the file
# roced reads is the one its man pages, its header and the unit name.
if ! grep -q -- '--sysconfdir' "$top_builddir/config.status"; then
	[ "$sysconfdir" = /etc ] ||
		fail "configure's default configuration directory is $sysconfdir, not /etc"
fi
grep -qx "$mandir/man8/roced.8" "$tmp/want" || fail "roced.8 is not in dist_man_MANS"
grep -qx "$mandir/man5/roced.conf.5" "$tmp/want" || fail "roced.conf.5 is not in dist_man_MANS"
# rocesh is required once cli/ has its main program.
if [ -f "$top_srcdir/cli/main.c" ] && ! grep -qx "$bindir/rocesh" "$tmp/want"; then
	fail "cli/main.c exists but rocesh is not in bin_PROGRAMS"
fi
files >"$tmp/got"
diff -u "$tmp/want" "$tmp/got" || fail "installed files differ from the expected list"
[ -x "$dest$sbindir/roced" ] || fail "roced is not executable"
cmp -s "$top_srcdir/conf/roced.conf" "$dest$sysconfdir/roced/roced.conf" ||
	fail "the installed roced.conf is not conf/roced.conf"

# The unit runs what was installed, with the installed configuration.
exec_start=$(sed -n 's/^ExecStart=//p' "$dest$unitdir/roced.service")
set -- $exec_start
[ "$1" = "$sbindir/roced" ] && [ -x "$dest$1" ] || fail "ExecStart=$1 is not the installed roced"
[ "$2" = -f ] && [ -f "$dest$3" ] || fail "ExecStart's -f $3 is not the installed roced.conf"
"$dest$sbindir/roced" -n -f "$dest$sysconfdir/roced/roced.conf" >"$tmp/check" 2>&1 ||
	{ cat "$tmp/check"; fail "the installed configuration does not check"; }
echo "unit: ExecStart=$exec_start (installed, and its configuration checks)"

# An administrator's edit survives a re-install.
conf="$dest$sysconfdir/roced/roced.conf"
echo "# edited by the administrator" >>"$conf"
mk install || fail "second make install"
grep -q "edited by the administrator" "$conf" || fail "make install overwrote an edited roced.conf"
grep -q "keeping .*roced.conf" "$tmp/make.log" || fail "make install did not say it kept roced.conf"
echo "re-install: kept the edited roced.conf"

# Uninstall: only the edited configuration stays.
mk uninstall || fail "make uninstall"
left=$(files)
[ "$left" = "$sysconfdir/roced/roced.conf" ] || fail "make uninstall left: $left"
cp "$top_srcdir/conf/roced.conf" "$conf"
mk uninstall || fail "make uninstall"
left=$(files)
[ -z "$left" ] || fail "make uninstall left the unchanged shipped roced.conf: $left"
echo "uninstall: the edited roced.conf stays, the shipped one goes"
echo "PASS: install"
