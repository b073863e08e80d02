#!/bin/sh
# ctl_limit: every client refused for the control socket's connection
# limit is told so. Against roced in a private network namespace, root
# holds all 16 slots with idle connections, and 16 more that wait
# refused (the daemon holds at most 16 so, for a second, then answers
# and closes them); then 100 rocesh -c run at once: refused while the
# waiting room is full, each is answered at once and closed, before or
# after it asked; rocesh reads that answer, so each of the 100 prints
# "too many clients" and exits 1, none a broken pipe.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/integration/lib.sh"
t_init ctl_limit
t_need_root
[ -x "$rocesh" ] || t_skip "rocesh is not built"
tmp=$t_tmp

t_netns_add ns ctllimit
$IP -n "$ns" link add swp1 type veth peer name h1
$IP -n "$ns" link set swp1 up
$IP -n "$ns" link set h1 up
t_conf_ports "$tmp/roced.conf" swp1
t_roced_start "$ns" "$tmp/roced.conf" 'mirroring'

t_spawn "$IP" netns exec "$ns" python3 "$top_srcdir/tests/integration/ctl_client.py" \
	hold 32 60 >"$tmp/hold" 2>&1
hpid=$t_pid
for _ in $(seq 100); do grep -q held "$tmp/hold" && break; sleep 0.1; done
grep -q held "$tmp/hold" || t_fail "could not hold 32 connections: $(cat "$tmp/hold")"

n=100
pids=""
for i in $(seq $n); do
	$IP netns exec "$ns" "$rocesh" -c 'show version' >"$tmp/out.$i" 2>"$tmp/err.$i" &
	pids="$pids $!"
done
told=0 other=0
i=0
for p in $pids; do
	i=$((i + 1))
	rc=0
	wait "$p" || rc=$?
	if [ "$rc" = 1 ] && grep -q 'too many clients (at most 16)' "$tmp/err.$i"; then
		told=$((told + 1))
	else
		other=$((other + 1))
		[ "$other" -le 3 ] && echo "client $i: exit $rc: $(cat "$tmp/err.$i" "$tmp/out.$i")"
	fi
done
echo "told=$told other=$other of $n"
[ "$told" = "$n" ] || t_fail "$other of $n refused clients got no answer"
t_stop "$hpid" || true
# the slots free again: root is served
$IP netns exec "$ns" "$rocesh" -c 'show version' >"$tmp/out" 2>&1 ||
	t_fail "after the hold: $(cat "$tmp/out")"
t_roced_stop
echo "ctl_limit: ok"
