#!/bin/sh
# daemon_state: show tells what each port really holds, and a port that a
# foreign root qdisc keeps roced off is a warning in the log once, not on
# every pass. In a private namespace:
#   - `tc qdisc add dev swp1 root handle 1: htb` before roced starts;
#   - after the start and several SIGHUPs, the log (default level) has
#     exactly one warning about that qdisc;
#   - show queuing interface, show policy-map interface and show interface
#     priority-flow-control say refused, with the qdisc's kind and handle,
#     in text and json;
#   - after `tc qdisc del` and a reload the port is programmed, and show
#     says so.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
t_init daemon_state
t_need_root
tmp=$t_tmp
pid=""
t_show_on_fail "roced log" "$tmp/log"
fail() { t_fail "$@"; }
t_netns_add ns state
in_ns() { "$IP" netns exec "$ns" "$@"; }
sh_ns() { "$IP" netns exec "$ns" "$rocesh" "$@"; }
# The value at PATH (dots) of the JSON on stdin, "None" when absent.
jq_() {
	python3 -c 'import json, sys
v = json.load(sys.stdin)
for k in sys.argv[1].split("."):
    v = v[int(k)] if k.isdigit() else v.get(k) if isinstance(v, dict) else None
print(v)' "$1"
}
# Wait until the log has more than N lines matching PATTERN.
wait_log() {
	for _ in $(seq 200); do
		[ "$(grep -c "$2" "$tmp/log" || true)" -gt "$1" ] && return 0
		sleep 0.05
	done
	fail "timed out waiting for '$2' in the log"
}
reload() {
	n=$(grep -c 'reloaded' "$tmp/log" || true)
	kill -HUP "$pid"
	wait_log "$n" 'reloaded'
}

cp "$top_srcdir/conf/roced.conf" "$tmp/roced.conf"
"$IP" -n "$ns" link add swp1 type veth peer name host1
in_ns "$TC" qdisc add dev swp1 root handle 1: htb
# Not through in_ns: $! must be roced itself (ip netns exec execs it).
"$IP" netns exec "$ns" "$roced" -f "$tmp/roced.conf" >"$tmp/log" 2>&1 &
pid=$!
wait_log 0 'mirroring'

# --- refused: one warning, however many passes ---
for _ in 1 2 3; do reload; done
warn='warning: swp1: a root qdisc roced did not create (htb 1:) is in the way'
n=$(grep -c "$warn" "$tmp/log" || true)
[ "$n" = 1 ] || fail "the foreign root qdisc was logged $n times after 5 passes (want once)"
in_ns "$TC" qdisc show dev swp1 | grep -q 'htb 1: root' || fail "the foreign root was touched"
echo "ok: foreign root qdisc logged once in 5 passes"

sh_ns -c 'show queuing interface swp1' >"$tmp/text" || fail "show queuing interface failed"
grep -q '^State: refused: foreign root qdisc htb 1: ' "$tmp/text" ||
	fail "show queuing interface text: $(cat "$tmp/text")"
sh_ns -c 'show queuing interface swp1 json' >"$tmp/json" || fail "show queuing interface json failed"
[ "$(jq_ interface.0.state <"$tmp/json")" = refused ] || fail "json state: $(cat "$tmp/json")"
[ "$(jq_ interface.0.foreign-root-qdisc.kind <"$tmp/json")" = htb ] || fail "json kind: $(cat "$tmp/json")"
[ "$(jq_ interface.0.foreign-root-qdisc.handle <"$tmp/json")" = 1: ] || fail "json handle: $(cat "$tmp/json")"
jq_ interface.0.reason <"$tmp/json" | grep -q '^foreign root qdisc htb 1: ' || fail "json reason: $(cat "$tmp/json")"
for what in 'show policy-map interface' 'show interface priority-flow-control'; do
	sh_ns -c "$what json" >"$tmp/json" || fail "$what json failed"
	[ "$(jq_ interface.0.state <"$tmp/json")" = refused ] || fail "$what json: $(cat "$tmp/json")"
	sh_ns -c "$what" >"$tmp/text" || fail "$what failed"
	grep -q 'refused: foreign root qdisc htb 1: ' "$tmp/text" || fail "$what text: $(cat "$tmp/text")"
done
echo "ok: show says refused: foreign root qdisc htb 1: (text and json)"

# --- the qdisc gone and a reload: programmed ---
in_ns "$TC" qdisc del dev swp1 root
reload
in_ns "$TC" qdisc show dev swp1 | grep -q ' 4791: root' || fail "swp1 not programmed after the reload"
sh_ns -c 'show queuing interface swp1' >"$tmp/text"
grep -q '^State: programmed$' "$tmp/text" || fail "show text after the reload: $(cat "$tmp/text")"
sh_ns -c 'show queuing interface swp1 json' >"$tmp/json"
[ "$(jq_ interface.0.state <"$tmp/json")" = programmed ] || fail "json after the reload: $(cat "$tmp/json")"
[ "$(jq_ interface.0.reason <"$tmp/json")" = None ] || fail "a programmed port with a reason: $(cat "$tmp/json")"
n=$(grep -c "$warn" "$tmp/log" || true)
[ "$n" = 1 ] || fail "warned $n times in all"

echo "ok: programmed after the qdisc is gone and a reload"

kill -TERM "$pid"; wait "$pid" || fail "roced exited with an error"; pid=""
echo "PASS: daemon_state"
