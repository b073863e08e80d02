#!/bin/sh
# netns_socket: a socket per network namespace, always. Two roced in two
# unnamed namespaces (`unshare -n`, as in a container) each get their own
# control socket and pid file, even where /proc/1/ns/net cannot be read
# and the namespace cannot be proved not to be the host's; rocesh in each
# namespace finds its own daemon; stopping the first roced leaves the
# second's socket in place and answering. Runs in a private mount
# namespace with a tmpfs on /run: the real /run/roced is never touched.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
t_init netns_socket
t_need_root
command -v unshare >/dev/null || t_skip "unshare (util-linux) is missing"
command -v nsenter >/dev/null || t_skip "nsenter (util-linux) is missing"
[ -x "$rocesh" ] || t_skip "rocesh is not built"
tmp=$t_tmp
cat >"$tmp/inner.sh" <<'INNER'
set -eu
roced=$1 rocesh=$2 tmp=$3 conf=$4
mount -t tmpfs -o mode=755 tmpfs /run
pids=
trap 'for p in $pids; do kill "$p" 2>/dev/null || true; done' EXIT
for i in 1 2; do
	unshare -n "$roced" -f "$conf" >"$tmp/log.$i" 2>&1 &
	pids="$pids $!"
	eval "pid$i=$!"
	for _ in $(seq 300); do
		grep -q "control socket" "$tmp/log.$i" && break
		sleep 0.1
	done
	grep -q "control socket" "$tmp/log.$i" || { cat "$tmp/log.$i"; echo "FAIL: roced $i did not start"; exit 1; }
done
s1=$(sed -n 's/.*control socket \([^ ]*\)$/\1/p' "$tmp/log.1")
s2=$(sed -n 's/.*control socket \([^ ]*\)$/\1/p' "$tmp/log.2")
echo "sockets: $s1 $s2"
if nsenter -t "$pid1" -n stat -L /proc/1/ns/net >/dev/null 2>&1; then
	echo "note: /proc/1/ns/net is readable here: the namespaces are proved not to be the host's"
else
	echo "note: /proc/1/ns/net cannot be read here: the unproved case"
fi
[ "$s1" != "$s2" ] || { echo "FAIL: one socket for two namespaces"; exit 1; }
[ "$s1" != /run/roced/roced.sock ] && [ "$s2" != /run/roced/roced.sock ] ||
	{ echo "FAIL: an unnamed namespace took the host's socket"; exit 1; }
for i in 1 2; do
	eval "p=\$pid$i"
	nsenter -t "$p" -n "$rocesh" -c 'show running-config' >"$tmp/run.$i" ||
		{ echo "FAIL: rocesh in namespace $i did not find its roced"; exit 1; }
done
ls /run/roced
[ "$(ls /run/roced/*.pid 2>/dev/null | wc -l)" -eq 0 ] || true
kill "$pid1"
wait "$pid1" || true
[ -S "$s2" ] || { echo "FAIL: stopping the first roced removed the second's socket"; exit 1; }
nsenter -t "$pid2" -n "$rocesh" -c 'show running-config' >/dev/null ||
	{ echo "FAIL: the second roced no longer answers"; exit 1; }
kill "$pid2"
wait "$pid2" || true
echo "ok: inner"
INNER
t_run unshare -m --propagation private sh "$tmp/inner.sh" "$roced" "$rocesh" \
	"$tmp" "$top_srcdir/tests/fixtures/dcbx/host.conf" >"$tmp/out" 2>&1 ||
	{ cat "$tmp/out" "$tmp"/log.* 2>/dev/null; t_fail "two namespaces, two sockets"; }
cat "$tmp/out"
echo "ok: netns_socket"
