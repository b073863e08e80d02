#!/bin/sh
# layout: the tree keeps the shape docs/ARCHITECTURE.md describes, so that
# it does not decay one convenient include at a time.
#   - nothing tracked names the directory beside the clone (a user's clone
#     has nothing beside it: what a test needs is copied into the tree);
#   - lib/ and daemon/ hold no source file outside a subsystem folder;
#   - every quoted include in lib/, daemon/ and cli/ names its folder;
#   - lib/'s folders depend on each other one way only (the table below),
#     and lib/ never includes daemon/ or cli/; daemon/'s folders stand in
#     one order, bottom to top, and no daemon/ folder shares a lib/ name;
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

# 4. The folders' order, lib/'s and daemon/'s, in one pass over every
# quoted include of both. In lib/ a folder may include itself and those
# its row lists. daemon/'s folders stand in one line, bottom first: a
# folder may include itself, those before it, and any folder of lib/.
# (There are no exemptions; a declaration that two folders want moves to
# the lower one.) lib/ and daemon/ share one include path, so no daemon/
# folder may take a name lib/ uses: "base/log.h" would find lib/base.
lib_order='base:
model:base
ctl:base
conf:base model
nlmsg:base model
plan:base model nlmsg proto
proto:base model
pfcwd:base model
cmd:base model conf ctl plan'
daemon_order='os kernel registry agent show control core'
dirs=$(printf '%s\n' "$files" | grep -E '^(lib|daemon)/[^/]+/' | cut -d/ -f1,2 | sort -u)
for d in $dirs; do
	f=${d#*/}
	case $d in
	lib/*)
		printf '%s\n' "$lib_order" | grep -q "^$f:" ||
			fail "$d is not in this test's folder order" ;;
	daemon/*)
		case " $daemon_order " in
		*" $f "*) ;;
		*) fail "$d is not in this test's folder order" ;;
		esac
		! printf '%s\n' "$dirs" | grep -qx "lib/$f" ||
			fail "$d has the name of lib/$f: one include path serves both" ;;
	esac
done
wrong=$(search -nE '^#include "[a-z_]+/' -- 'lib/*.[ch]' 'daemon/*.[ch]' |
	awk -v lorder="$lib_order" -v dorder="$daemon_order" '
	BEGIN {
		n = split(lorder, rows, "\n")
		for (i = 1; i <= n; i++) {
			split(rows[i], kv, ":")
			ok[kv[1]] = " " kv[1] " " kv[2] " "
		}
		n = split(dorder, seq, " ")
		for (i = 1; i <= n; i++)
			rank[seq[i]] = i
	}
	{
		split($0, path, "/")          # TOP, DIR, file:LINE:#include "INC
		top = path[1]
		dir = path[2]
		inc = $0
		sub(/^[^"]*"/, "", inc)
		sub(/\/.*/, "", inc)
		if (top == "lib") {
			if (dir in ok && index(ok[dir], " " inc " ") == 0)
				printf "%s (lib/%s may include only:%s)\n", $0, dir, substr(ok[dir], length(dir) + 2)
		} else if (dir in rank && !(inc in ok)) {
			if (!(inc in rank))
				printf "%s (no folder %s in lib/ or daemon/)\n", $0, inc
			else if (rank[inc] > rank[dir])
				printf "%s (daemon/%s is below daemon/%s: %s)\n", $0, dir, inc, dorder
		}
	}' || true)
[ -z "$wrong" ] || fail "includes against the folders' order: $wrong"

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
