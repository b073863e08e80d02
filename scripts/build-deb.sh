#!/bin/sh
# Build roced's Debian package from this tree; print the .deb's path.
#   scripts/build-deb.sh [--version VERSION] OUTDIR
#
#   deb=$(scripts/build-deb.sh /var/tmp/roced-deb) && apt install "$deb"
#
# dpkg-buildpackage writes what it builds into the source's parent
# directory, which must not be the clone's: the tree is copied into a
# directory of its own under OUTDIR (the files git tracks and the new
# ones it does not ignore, edits included; outside a clone, the tree
# without its build directories), built there with `dpkg-buildpackage
# -us -uc -b`, and the products (roced_*.deb, its -dbgsym .deb, the
# .changes and .buildinfo) are moved into OUTDIR. The build's output goes
# to standard error; standard output is the .deb's path alone, for a
# script or an Ansible task to pick up.
#
# --version VERSION: build as VERSION (a changelog entry added to the
# copy only): a rebuild that upgrades an installed one needs a version
# that sorts after it (`dpkg --compare-versions`), such as 0.1.0+git1.
# DEB_BUILD_OPTIONS is passed on: nocheck skips the unit tests.
# The build dependencies: scripts/install-deps.sh --test.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
usage() { echo "usage: $0 [--version VERSION] OUTDIR" >&2; exit 2; }
version=""
while [ $# -gt 0 ]; do
	case $1 in
	--version) [ $# -ge 2 ] || usage; version=$2; shift 2 ;;
	--version=*) version=${1#--version=}; shift ;;
	-h | --help) sed -n '2,21s/^# \{0,1\}//p' "$0"; exit 0 ;;
	-*) usage ;;
	*) break ;;
	esac
done
[ $# = 1 ] || usage
for c in dpkg-buildpackage dh fakeroot; do
	command -v "$c" >/dev/null ||
		{ echo "build-deb: $c is missing (scripts/install-deps.sh --test installs it)" >&2; exit 1; }
done
mkdir -p "$1"
out=$(cd "$1" && pwd)
# A package build is a make of its own, not part of a caller's (a test
# under `make check` would hand it the jobserver).
unset MAKEFLAGS MFLAGS MAKELEVEL

work=$(mktemp -d "$out/src.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
src=$work/roced
mkdir "$src"
if git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	# A tracked file deleted in the work tree is left out, as make would.
	(cd "$top" && git ls-files -z --cached --others --exclude-standard |
		xargs -0 -r sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done; :' sh |
		tar --null -T - -cf -) | tar -C "$src" -xf -
else
	# (OUTDIR too, when it is inside the tree: the copy is written there.)
	case $out in "$top"/*) skip="./${out#"$top"/}" ;; *) skip=./.git ;; esac
	tar -C "$top" --exclude=./.git --exclude=./build --exclude='./build-*' \
		--exclude=./autom4te.cache --exclude="$skip" -cf - . | tar -C "$src" -xf -
fi
[ -f "$src/debian/control" ] || { echo "build-deb: no debian/ in $top" >&2; exit 1; }
# The copy has no .git: the version show version and roced_build_info
# give (scripts/version.sh) is the clone's, handed over as a tarball's.
if [ -e "$top/.git" ]; then
	confver=$(sed -n 's/^AC_INIT(\[roced\], \[\([^]]*\)\].*/\1/p' "$top/configure.ac")
	sh "$top/scripts/version.sh" "$top" "$confver" >"$src/.tarball-version"
fi

log() { dpkg-parsechangelog -l "$src/debian/changelog" -S "$1"; }
if [ -n "$version" ]; then
	entry=$work/changelog
	{
		printf '%s (%s) %s; urgency=medium\n\n' "$(log Source)" "$version" "$(log Distribution)"
		printf '  * Built by scripts/build-deb.sh --version %s.\n\n' "$version"
		printf ' -- %s  %s\n\n' "$(log Maintainer)" "$(date -R)"
		cat "$src/debian/changelog"
	} >"$entry"
	mv "$entry" "$src/debian/changelog"
fi
ver=$(log Version)
arch=$(dpkg --print-architecture)
echo "build-deb: building roced $ver ($arch) in $src" >&2
(cd "$src" && dpkg-buildpackage -us -uc -b -J"$(nproc)") >&2 ||
	{ echo "build-deb: dpkg-buildpackage failed" >&2; exit 1; }
# The products are named in the .changes' Files list.
changes=$work/roced_${ver}_${arch}.changes
[ -f "$changes" ] || { echo "build-deb: no $changes" >&2; exit 1; }
for f in $(sed -n '/^Files:/,/^[^ ]/s/^ [0-9a-f]\{32\} [0-9]* [^ ]* [^ ]* //p' "$changes"); do
	mv "$work/$f" "$out/"
done
mv "$changes" "$out/"
deb=$out/roced_${ver}_${arch}.deb
[ -f "$deb" ] || { echo "build-deb: dpkg-buildpackage made no $deb" >&2; exit 1; }
echo "$deb"
