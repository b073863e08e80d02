#!/bin/sh
# ctl_filter_slot: a rocesh whose filter or output is slow holds no slot
# of the control socket. roced holds 16 clients, the last slot root's
# alone; 17 root clients run `show running-config | include
# description` on a configuration whose answer is over 100 KiB, each
# writing into a pipe whose reader never reads: each has the whole
# answer, ran its filter and now waits on its output, for as long as the
# reader likes. Then root's `show version` must get in, at once: the
# waiting clients gave their slots back when the answer came.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/integration/lib.sh"
t_init ctl_filter_slot
t_need_root
[ -x "$rocesh" ] || t_skip "rocesh is not built"
tmp=$t_tmp

t_netns_add ns ctlfslot
$IP -n "$ns" link add swp1 type veth peer name h1
$IP -n "$ns" link set swp1 up
$IP -n "$ns" link set h1 up
t_conf_ports "$tmp/base.conf" swp1
# 1000 more class-maps with a long description each: a running-config
# far larger than a pipe holds.
python3 - "$tmp/base.conf" "$tmp/roced.conf" <<'PY'
import sys
s = open(sys.argv[1]).read()
i = s.index('\tqos = (\n', s.index('class-map = {')) + len('\tqos = (\n')
more = ''.join('\t\t{ name = "FILLER_%04d"; match = "any"; dscp = %d; '
               'description = "%s"; },\n' % (k, k % 64, 'd' * 200)
               for k in range(1000))
open(sys.argv[2], 'w').write(s[:i] + more + s[i:])
PY
t_roced_start "$ns" "$tmp/roced.conf" 'mirroring'
rsh() { "$IP" netns exec "$ns" "$rocesh" -c "$1"; }
size=$(rsh 'show running-config | include description' | wc -c)
echo "the filtered answer: $size bytes"
[ "$size" -gt 131072 ] || t_fail "the answer ($size bytes) could fit in a pipe"

# 17 clients, each writing into a FIFO whose reader sleeps.
pids=""
for i in $(seq 17); do
	mkfifo "$tmp/fifo.$i"
	t_spawn sh -c "exec sleep 300 <'$tmp/fifo.$i'"
	t_spawn sh -c "exec '$IP' netns exec '$ns' '$rocesh' -c 'show running-config | include description' >'$tmp/fifo.$i' 2>'$tmp/err.$i'"
	pids="$pids $t_pid"
done
# waiting PID: blocked writing its output (write(2) into a full pipe), or
# gone (a client refused before it had its answer).
waiting() {
	[ -e "/proc/$1" ] || return 0
	grep -q pipe_write "/proc/$1/wchan" 2>/dev/null ||
		[ "$(cut -d' ' -f1 "/proc/$1/syscall" 2>/dev/null)" = 1 ]
}
for p in $pids; do
	t_until 120 waiting "$p" || t_fail "client $p never got to its output"
done
gone=0
for p in $pids; do [ -e "/proc/$p" ] || gone=$((gone + 1)); done
echo "17 clients waiting on their output ($gone of them ended)"

rsh 'show version' >"$tmp/v.out" 2>"$tmp/v.err" ||
	t_fail "root is locked out while 17 clients wait on their output: $(cat "$tmp/v.err")"
grep -q . "$tmp/v.out" || t_fail "show version printed nothing"
[ "$gone" = 0 ] || t_fail "$gone of the 17 clients ended early: $(cat "$tmp"/err.* | sort | uniq -c)"
echo "root got in beside 17 clients waiting on their filters' output"
t_roced_stop
echo "ctl_filter_slot: ok"
