#!/bin/sh
# layout: the tree keeps the shape docs/ARCHITECTURE.md describes, so that
# it does not decay one convenient include at a time.
#   - nothing tracked names the directory beside the clone (a user's clone
#     has nothing beside it: what a test needs is copied into the tree);
#   - lib/ and daemon/ hold no source file outside a subsystem folder;
#   - every quoted include in lib/, daemon/ and cli/ names its folder;
#   - lib/'s folders depend on each other one way only (the table below),
#     and lib/ never includes daemon/ or cli/;
#   - lib/ is pure: no sockets, no logging;
#   - no two source files use each other's symbols, directly or round a
#     longer circle (tests/tools/symdeps.py on the built objects).
set -eu
: "${top_builddir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
cd "$top_srcdir"
fails=0
fail()
{
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# The file list: git's when this is a clone, else every file (a tarball).
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	files=$(git ls-files)
else
	files=$(find . -type f ! -path './.git/*' | sed 's|^\./||')
fi

# 1. Nothing names the sibling directory. The pattern is assembled so that
# this file does not match itself.
sib='\.\.''/shared'
hits=$(printf '%s\n' "$files" | while read -r f; do
	[ -f "$f" ] && grep -lE "$sib" "$f" 2>/dev/null || true
done)
[ -z "$hits" ] || fail "these files name a directory outside the clone: $hits"

# 2. No flat sources.
flat=$(printf '%s\n' "$files" | grep -E '^(lib|daemon)/[^/]+\.[ch]$' || true)
[ -z "$flat" ] || fail "sources outside a subsystem folder: $flat"

# 3. Includes name their folder.
bare=$(printf '%s\n' "$files" | grep -E '^(lib|daemon)/.*\.[ch]$' |
	xargs grep -nE '^#include "[^/"]+"' || true)
[ -z "$bare" ] || fail "includes without their folder: $bare"

# 4. lib/'s folder order: a folder may include itself and those listed.
allowed()
{
	case $1 in
	base) echo "" ;;
	model) echo "base" ;;
	ctl) echo "base" ;;
	conf) echo "base model" ;;
	nlmsg) echo "base model" ;;
	plan) echo "base model nlmsg proto" ;;
	proto) echo "base model" ;;
	pfcwd) echo "base model" ;;
	cmd) echo "base model conf ctl plan" ;;
	*) echo "?" ;;
	esac
}
for f in $(printf '%s\n' "$files" | grep -E '^lib/.*\.[ch]$'); do
	dir=$(echo "$f" | cut -d/ -f2)
	ok=$(allowed "$dir")
	[ "$ok" != "?" ] || {
		fail "$f: lib/$dir is not in this test's folder order"
		continue
	}
	for inc in $(sed -n 's/^#include "\([a-z_]*\)\/.*/\1/p' "$f" | sort -u); do
		[ "$inc" = "$dir" ] && continue
		case " $ok " in
		*" $inc "*) ;;
		*) fail "$f includes $inc/: lib/$dir may include only: ${ok:-nothing}" ;;
		esac
	done
done

# 5. lib/ is pure. ctl_path.c is the one exception: roced and rocesh must
# agree where the socket lives, which depends on the network namespace.
impure=$(printf '%s\n' "$files" | grep -E '^lib/.*\.c$' | grep -v '^lib/ctl/ctl_path\.c$' |
	xargs grep -nE '\b(socket|bind|connect|sendmsg|recvmsg|sendto|recvfrom|syslog|log_(warn|warnx|info|debug))\(' || true)
[ -z "$impure" ] || fail "I/O or logging in lib/: $impure"

# 6. No circles between source files (needs the built objects).
objs=$(cd "$top_builddir" && find lib daemon -name '*.o' ! -name '*main.o' 2>/dev/null | sort)
if [ -z "$objs" ]; then
	fail "no objects under $top_builddir to check for circles"
else
	# shellcheck disable=SC2086
	(cd "$top_builddir" && python3 "$top_srcdir/tests/tools/symdeps.py" $objs) ||
		fail "source files that use each other (above)"
fi

[ "$fails" = 0 ] || exit 1
echo "layout: ok"
