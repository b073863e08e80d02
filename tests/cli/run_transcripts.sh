#!/bin/sh
# Golden CLI transcripts: play each tests/cli/NAME.in through the command
# engine (tests/cli/transcript, the same rendering as rocesh) and compare
# with NAME.out. A first line "#@startup FILE" starts the session from
# that configuration (FILE relative to the source tree).
#
# UPDATE_GOLDEN=1 rewrites the .out files instead: review the diff by
# hand before committing it, the goldens are the specification.
set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
drv=$top_builddir/tests/cli/transcript
dir=$top_srcdir/tests/cli

if [ ! -x "$drv" ]; then
	echo "FAIL: $drv is not built (make check builds it)"
	exit 1
fi

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
fail=0
n=0
for in in "$dir"/*.in; do
	name=$(basename "$in" .in)
	out=$dir/$name.out
	set --
	first=$(head -n 1 "$in")
	case $first in
	"#@startup "*) set -- -f "$top_srcdir/${first#\#@startup }" ;;
	esac
	n=$((n + 1))
	if ! "$drv" "$@" "$in" >"$tmp"; then
		echo "FAIL: $name: the driver failed"
		fail=1
		continue
	fi
	if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
		cp "$tmp" "$out"
		echo "updated $out"
	elif ! diff -u "$out" "$tmp"; then
		echo "FAIL: $name differs from its golden output"
		fail=1
	else
		echo "ok: $name"
	fi
done
[ "$n" -gt 0 ] || { echo "FAIL: no transcripts in $dir"; exit 1; }
exit $fail
