#!/bin/sh
# daemon_mtu: roced gives back the link MTU it changed, through the plan,
# and remembers it across a restart. In a private namespace, swp1 (a veth)
# at MTU 1500 and the shipped roced.conf (network-qos MTU 9216):
#   1. roced sets 9216 and keeps 1500 in its state directory; `no
#      service-policy type network-qos` in rocesh gives 1500 back and the
#      file goes;
#   2. the same with a roced restart in between: 9216, SIGTERM (the
#      kernel state stays), a new roced with the system qos block removed
#      from the file gives 1500 back;
#   3. a reload that no longer configures swp1 gives 1500 back;
#   4. --cleanup-on-exit gives 1500 back when roced stops;
#   5. a file left by a namespace that is gone (another netns cookie) is
#      not taken.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
t_init daemon_mtu
t_need_root
tmp=$t_tmp
pid=""
t_show_on_fail "roced log" "$tmp/log"
# The MTU file of a case's own making (case 5) goes with the test.
t_defer '[ -n "${state:-}" ] && rm -f "$state"'
fail() { t_fail "$@"; }
t_netns_add ns mtu
in_ns() { "$IP" netns exec "$ns" "$@"; }
sh_ns() { "$IP" netns exec "$ns" "$rocesh" "$@"; }
mtu() { in_ns "$IP" -j link show swp1 | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["mtu"])'; }
wait_mtu() {
	for _ in $(seq 200); do
		[ "$(mtu)" = "$1" ] && return 0
		sleep 0.05
	done
	fail "$2: swp1 has MTU $(mtu), want $1"
}
wait_log() {
	for _ in $(seq 200); do
		[ "$(grep -c "$2" "$tmp/log" || true)" -gt "$1" ] && return 0
		sleep 0.05
	done
	fail "timed out waiting for '$2' in the log"
}
start() {
	: >"$tmp/log"
	# Not through in_ns: $! must be roced itself.
	"$IP" netns exec "$ns" "$roced" "$@" >"$tmp/log" 2>&1 &
	pid=$!
	wait_log 0 'mirroring'
}
stop() {
	kill -TERM "$pid"
	wait "$pid" || fail "roced exited with an error"
	pid=""
}
reload() {
	n=$(grep -c 'reloaded' "$tmp/log" || true)
	kill -HUP "$pid"
	wait_log "$n" 'reloaded'
}

cp "$top_srcdir/conf/roced.conf" "$tmp/roced.conf"
# The shipped file without its system qos block: no network-qos MTU.
python3 - "$tmp/roced.conf" "$tmp/no-nq.conf" "$tmp/no-port.conf" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
nq = re.sub(r'\nsystem-qos = \{.*?\n\};\n', '\n', s, flags=re.S)
assert nq != s
open(sys.argv[2], 'w').write(nq)
i0 = s.index('interface = (')
port = s[:i0] + 'interface = ( );\n'
open(sys.argv[3], 'w').write(port)
PY
"$IP" -n "$ns" link add swp1 type veth peer name host1
"$IP" -n "$ns" link set swp1 mtu 1500
ino=$(in_ns stat -L -c %i /proc/self/ns/net)
state="/run/roced/roced.$ino.mtu"
rm -f "$state"

# --- 1. no service-policy type network-qos ---
start -f "$tmp/roced.conf"
wait_mtu 9216 "roced's network-qos MTU"
grep -qx 'swp1 1500' "$state" || fail "the state file does not keep 1500: $(cat "$state" 2>&1)"
sh_ns -c 'configure terminal' -c 'system qos' -c 'no service-policy type network-qos ROCE_NETWORK_POLICY' >"$tmp/out" 2>&1 ||
	fail "rocesh: $(cat "$tmp/out")"
wait_mtu 1500 "no service-policy type network-qos"
[ ! -e "$state" ] || fail "the MTU given back is still in $state: $(cat "$state")"
echo "ok: 9216, then 1500 again after no service-policy type network-qos"
# Nothing more to give back: the MTU stays as others set it (a commit is
# a full apply, answered once it is done).
in_ns "$IP" link set swp1 mtu 2000
sh_ns -c 'configure terminal' -c 'interface swp1' -c 'priority-flow-control mode on' >"$tmp/out" 2>&1 ||
	fail "rocesh: $(cat "$tmp/out")"
[ "$(mtu)" = 2000 ] || fail "roced changed an MTU it had given back: $(mtu)"
in_ns "$IP" link set swp1 mtu 1500
stop

# --- 2. across a restart ---
start -f "$tmp/roced.conf"
wait_mtu 9216 "roced's network-qos MTU (2)"
stop
[ "$(mtu)" = 9216 ] || fail "SIGTERM changed the MTU"
grep -qx 'swp1 1500' "$state" || fail "the state file is gone after SIGTERM"
start -f "$tmp/no-nq.conf"
wait_mtu 1500 "a restarted roced without the system qos block"
grep -q '1 port MTU to give back' "$tmp/log" || fail "the restarted roced did not read $state"
[ ! -e "$state" ] || fail "the MTU given back is still in $state"
stop
echo "ok: 9216, restart, 1500 again without the system qos block"

# --- 3. the port no longer configured ---
cp "$tmp/roced.conf" "$tmp/live.conf"
start -f "$tmp/live.conf"
wait_mtu 9216 "roced's network-qos MTU (3)"
cp "$tmp/no-port.conf" "$tmp/live.conf"
reload
wait_mtu 1500 "swp1 no longer configured"
[ ! -e "$state" ] || fail "the MTU given back is still in $state"
stop
echo "ok: 9216, then 1500 again when swp1 is no longer configured"

# --- 4. --cleanup-on-exit ---
start -f "$tmp/roced.conf" --cleanup-on-exit
wait_mtu 9216 "roced's network-qos MTU (4)"
stop
[ "$(mtu)" = 1500 ] || fail "--cleanup-on-exit left MTU $(mtu)"
[ ! -e "$state" ] || fail "the MTU given back is still in $state"
echo "ok: 9216, then 1500 again when roced stops with --cleanup-on-exit"
# --- 5. a file another namespace left (its inode number reused) ---
in_ns "$IP" link set swp1 mtu 1600
printf 'netns 1\nswp1 1234\n' >"$state"
start -f "$tmp/no-nq.conf"
[ "$(mtu)" = 1600 ] || fail "roced took another namespace's MTU: $(mtu)"
grep -q 'left by a network namespace that is gone' "$tmp/log" || fail "the stale file was not noticed"
[ ! -e "$state" ] || fail "the stale file is still there"
stop
echo "ok: a file left by another namespace is not taken"
echo "PASS: daemon_mtu"
