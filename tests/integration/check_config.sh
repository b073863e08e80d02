#!/bin/sh
# check_config: `roced -n` accepts the shipped and the good example configs
# and refuses every tests/conf/bad/*.conf with the FILE:LINE: error its
# first line announces:
#     # expect: LINE: SUBSTRING
# Run by `make check` (top_srcdir and top_builddir come from the
# environment) or by hand from a build directory.

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-.}
roced=$top_builddir/roced

if [ ! -x "$roced" ]; then
	echo "SKIP: $roced is not built" >&2
	exit 77
fi

. "$top_srcdir/tests/integration/lib.sh"
t_init check_config
tmp=$t_tmp
failed=0
checked=0

fail() {
	echo "FAIL: $*" >&2
	failed=$((failed + 1))
}

check_good() {
	file=$1
	checked=$((checked + 1))
	if ! "$roced" -n -f "$file" >"$tmp/out" 2>"$tmp/err"; then
		fail "$file: roced -n exited with $?"
		cat "$tmp/err" >&2
		return
	fi
	if ! grep -qx 'configuration OK' "$tmp/out"; then
		fail "$file: no 'configuration OK' on stdout"
		cat "$tmp/out" >&2
		return
	fi
	# A good file may draw kernel warnings, never a config error.
	if grep -q ": error: " "$tmp/err"; then
		fail "$file: errors on stderr"
		cat "$tmp/err" >&2
		return
	fi
	echo "ok: $file"
}

check_bad() {
	file=$1
	checked=$((checked + 1))
	expect=$(sed -n '1s/^# expect: //p' "$file")
	line=${expect%%: *}
	text=${expect#*: }
	if [ -z "$expect" ] || [ "$line" = "$expect" ]; then
		fail "$file: first line is not '# expect: LINE: SUBSTRING'"
		return
	fi
	"$roced" -n -f "$file" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -eq 0 ]; then
		fail "$file: roced -n accepted a bad file"
		return
	fi
	if grep -q 'configuration OK' "$tmp/out"; then
		fail "$file: 'configuration OK' for a bad file"
		return
	fi
	if ! grep -F "$file:$line: error: " "$tmp/err" | grep -qF "$text"; then
		fail "$file: expected '$file:$line: error: ...$text...'"
		echo "stderr was:" >&2
		cat "$tmp/err" >&2
		return
	fi
	echo "ok: $file (exit $rc, line $line)"
}

check_good "$top_srcdir/conf/roced.conf"
for f in "$top_srcdir"/tests/conf/good/*.conf; do
	[ -e "$f" ] && check_good "$f"
done
for f in "$top_srcdir"/tests/conf/bad/*.conf; do
	[ -e "$f" ] && check_bad "$f"
done

# A missing file is an error that names the file.
checked=$((checked + 1))
if "$roced" -n -f "$tmp/missing.conf" >/dev/null 2>"$tmp/err"; then
	fail "missing file accepted"
elif ! grep -qF "$tmp/missing.conf" "$tmp/err"; then
	fail "missing file: the error does not name the file"
	cat "$tmp/err" >&2
else
	echo "ok: missing file refused"
fi

if [ "$checked" -lt 10 ]; then
	fail "only $checked configs checked: tests/conf/ is missing files"
fi
echo "$checked configs checked, $failed failed"
[ "$failed" -eq 0 ]
