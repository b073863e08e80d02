#!/bin/sh
# strings_data: strings of a configuration are data on every path that
# prints them, as roced's log treats them: control bytes, C1 controls and
# Unicode format characters (U+202E, U+061C) come out as \xNN, never raw.
#   - roced -n on a file (itself named with an escape) whose alias holds a
#     newline and an escape: refused at FILE:LINE, escaped;
#   - roced --import cumulus of a traffic.conf with an escape, U+202E and
#     U+061C in a port set: that line skipped, escaped, none printed;
#   - rocesh -c 'reload config' against a running roced (what systemctl
#     reload leaves in the journal): refused, escaped, and the daemon's
#     log too;
#   - a newline in an alias never reaches show interface
#     priority-flow-control: the running set keeps one row per port.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/integration/lib.sh"
t_init strings_data
tmp=$t_tmp

# clean FILE WHAT: FILE is UTF-8 with no control byte but newlines and no
# format character (Unicode categories Cc, Cf, Zl, Zp).
clean()
{
	python3 - "$1" <<'PY' || { cat -v "$1"; t_fail "$2: not escaped"; }
import sys, unicodedata
t = open(sys.argv[1], 'rb').read().decode('utf-8')
bad = [hex(ord(c)) for c in t
       if c != '\n' and unicodedata.category(c) in ('Cc', 'Cf', 'Zl', 'Zp')]
sys.exit(1 if bad else 0)
PY
}

esc=$(printf '\033')
# --- roced -n ---
python3 - "$top_srcdir/conf/roced.conf" "$tmp/a${esc}[2J.conf" <<'PY'
import sys
s = open(sys.argv[1]).read()
assert '"Ethernet1/1"' in s
open(sys.argv[2], 'w').write(
    s.replace('"Ethernet1/1"', '"Eth1\\nswp9 on \\x1b[2J"', 1))
PY
"$roced" -n -f "$tmp/a${esc}[2J.conf" >"$tmp/out" 2>"$tmp/err" &&
	t_fail "roced -n took a newline in an alias"
clean "$tmp/err" "roced -n"
grep -qF "a\\x1b[2J.conf:" "$tmp/err" || t_fail "roced -n: $(cat -v "$tmp/err")"
grep -qF "alias 'Eth1\\x0aswp9 on \\x1b[2J'" "$tmp/err" ||
	t_fail "roced -n: $(cat -v "$tmp/err")"
grep -qF "1 error in $tmp/a\\x1b[2J.conf" "$tmp/err" ||
	t_fail "roced -n summary: $(cat -v "$tmp/err")"
echo "ok: roced -n escapes"

# --- roced --import cumulus ---
python3 - "$top_srcdir/tests/cumulus/cl37-pfc.traffic.conf" "$tmp/b.traffic.conf" <<'PY'
import sys
s = open(sys.argv[1]).read()
k = 'port_set = swp1-swp4,swp6'
assert k in s
open(sys.argv[2], 'w').write(s.replace(k, k + '\x1b[2J\u202e\u061c', 1))
PY
# A line it cannot read is skipped with a FILE:LINE warning and the rest
# imported: the warning escapes the bytes, and what is printed has none.
"$roced" --import cumulus "$tmp/b.traffic.conf" >"$tmp/out" 2>"$tmp/err" ||
	t_fail "--import failed: $(cat -v "$tmp/err")"
clean "$tmp/err" "--import cumulus"
# (the printed file is indented with tabs, its only control byte)
tr -d '\t' <"$tmp/out" >"$tmp/out.notab"
clean "$tmp/out.notab" "--import cumulus's output"
grep -F 'line skipped' "$tmp/err" | grep -qF '\x1b[2J\xe2\x80\xae\xd8\x9c' ||
	t_fail "--import: $(cat -v "$tmp/err")"
! grep -q 'swp6' "$tmp/out" || t_fail "--import kept the port of the refused line"
echo "ok: roced --import cumulus escapes"

# --- rocesh -c 'reload config' against a daemon ---
t_need_root
[ -x "$rocesh" ] || t_skip "rocesh is not built"
t_netns_add ns strdata
$IP -n "$ns" link add swp1 type veth peer name h1
$IP -n "$ns" link set swp1 up
$IP -n "$ns" link set h1 up
t_conf_ports "$tmp/roced.conf" swp1
t_roced_start "$ns" "$tmp/roced.conf" 'mirroring'
cp "$tmp/roced.conf" "$tmp/good.conf"
python3 - "$tmp/roced.conf" <<'PY'
import sys
s = open(sys.argv[1]).read()
assert '"Ethernet1/1"' in s
open(sys.argv[1], 'w').write(
    s.replace('"Ethernet1/1"', '"Eth1\\nswp9 on \\x1b[2J\u202e"', 1))
PY
$IP netns exec "$ns" "$rocesh" -c 'reload config' >"$tmp/out" 2>"$tmp/err" &&
	t_fail "reload config took a newline in an alias"
clean "$tmp/err" "rocesh reload config"
clean "$tmp/out" "rocesh reload config (stdout)"
grep -qF "alias 'Eth1\\x0aswp9 on \\x1b[2J\\xe2\\x80\\xae'" "$tmp/err" ||
	t_fail "reload config: $(cat -v "$tmp/err")"
clean "$tmp/log" "the daemon's log"
# the running set kept: one row per port, the alias as it was
$IP netns exec "$ns" "$rocesh" -c 'show interface priority-flow-control' >"$tmp/show"
clean "$tmp/show" "show interface priority-flow-control"
[ "$(grep -c 'swp9' "$tmp/show" || true)" = 0 ] ||
	t_fail "a forged row: $(cat -v "$tmp/show")"
grep -q 'Ethernet1/1\|swp1' "$tmp/show" || t_fail "no swp1 row: $(cat "$tmp/show")"
# the same file with the alias fixed reloads
cp "$tmp/good.conf" "$tmp/roced.conf"
$IP netns exec "$ns" "$rocesh" -c 'reload config' >"$tmp/out" 2>"$tmp/err" ||
	t_fail "reload of the good file: $(cat "$tmp/err")"
clean "$tmp/out" "rocesh reload config (good)"
t_roced_stop
echo "strings_data: ok"
