#!/bin/sh
# Print the version of the roced tree at SRCDIR, for show version and
# roced_build_info (Makefile.am's show_build.h) and the Debian package:
#   scripts/version.sh SRCDIR CONFIGURE_VERSION
# In a git clone (SRCDIR itself, not a directory inside another clone):
# a release tag vX.Y.Z on the commit is X.Y.Z; after one,
# X.Y.Z-N-gHASH; with no tag, CONFIGURE_VERSION+gHASH; -dirty when the
# work tree has edits. Outside git: the .tarball-version file `make
# dist` and scripts/build-deb.sh write into the tree, else
# CONFIGURE_VERSION (AC_INIT's).
set -eu
[ $# = 2 ] || { echo "usage: $0 SRCDIR CONFIGURE_VERSION" >&2; exit 2; }
src=$1 conf=$2
if [ -e "$src/.git" ] && command -v git >/dev/null 2>&1; then
	v=$(git -C "$src" describe --tags --match 'v[0-9]*' --dirty 2>/dev/null) && {
		echo "${v#v}"
		exit 0
	}
	h=$(git -C "$src" describe --always --dirty 2>/dev/null) && [ -n "$h" ] && {
		echo "$conf+g$h"
		exit 0
	}
fi
if [ -s "$src/.tarball-version" ]; then
	head -n 1 "$src/.tarball-version"
	exit 0
fi
echo "$conf"
