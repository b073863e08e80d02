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
#   - libnl is used by daemon/kernel/link.c alone;
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

# Every search is one git grep pass over the tree (one grep per file took
# two minutes under load); outside a clone (a tarball) git grep --no-index
# searches the files as they lie.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	files=$(git ls-files)
	search() { git grep -I "$@"; }
else
	files=$(find . -type f ! -path './.git/*' | sed 's|^\./||')
	search() { git grep --no-index -I "$@"; }
fi

# 1. Nothing names the sibling directory. The pattern is assembled so that
# this file does not match itself.
sib='\.\.''/shared'
hits=$(search -lE "$sib" || true)
[ -z "$hits" ] || fail "these files name a directory outside the clone: $hits"

# 2. No flat sources.
flat=$(printf '%s\n' "$files" | grep -E '^(lib|daemon)/[^/]+\.[ch]$' || true)
[ -z "$flat" ] || fail "sources outside a subsystem folder: $flat"

# 3. Includes name their folder.
bare=$(search -nE '^#include "[^/"]+"' -- 'lib/*.[ch]' 'daemon/*.[ch]' || true)
[ -z "$bare" ] || fail "includes without their folder: $bare"

# 4. lib/'s folder order: a folder may include itself and those listed.
order='base:
model:base
ctl:base
conf:base model
nlmsg:base model
plan:base model nlmsg proto
proto:base model
pfcwd:base model
cmd:base model conf ctl plan'
for f in $(printf '%s\n' "$files" | grep -E '^lib/[^/]+/' | cut -d/ -f2 | sort -u); do
	printf '%s\n' "$order" | grep -q "^$f:" ||
		fail "lib/$f is not in this test's folder order"
done
wrong=$(search -nE '^#include "[a-z_]+/' -- 'lib/*.[ch]' |
	awk -v order="$order" '
	BEGIN {
		n = split(order, rows, "\n")
		for (i = 1; i <= n; i++) {
			split(rows[i], kv, ":")
			ok[kv[1]] = " " kv[1] " " kv[2] " "
		}
	}
	{
		split($0, path, "/")          # lib, DIR, file:LINE:#include "INC
		dir = path[2]
		inc = $0
		sub(/^[^"]*"/, "", inc)
		sub(/\/.*/, "", inc)
		if (dir in ok && index(ok[dir], " " inc " ") == 0)
			printf "%s (lib/%s may include only:%s)\n", $0, dir, substr(ok[dir], length(dir) + 2)
	}' || true)
[ -z "$wrong" ] || fail "includes against lib/'s folder order: $wrong"

# 5. lib/ is pure: no sockets, no logging.
impure=$(search -nE '\b(socket|bind|connect|sendmsg|recvmsg|sendto|recvfrom|syslog|log_(warn|warnx|info|debug))\(' -- 'lib/*.c' || true)
[ -z "$impure" ] || fail "I/O or logging in lib/: $impure"

# 6. libnl-route serves the link table alone (docs/ARCHITECTURE.md: two
# netlink libraries); every other message goes through libmnl.
libnl=$(search -lE '^#include <netlink/' -- '*.[ch]' | grep -vx 'daemon/kernel/link.c' || true)
[ -z "$libnl" ] || fail "libnl used outside daemon/kernel/link.c: $libnl"

# 7. No circles between source files (needs the built objects).
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
