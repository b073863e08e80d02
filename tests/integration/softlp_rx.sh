#!/bin/sh
# softlp_rx: 802.3x link pause received on a software port (a veth), end
# to end. roced runs in its namespace on swp1 with the shipped policy,
# PFC mode off and `flowcontrol receive on`; the peer namespace has h1.
#   - roced plans every queue's leaf as a released tbf (not only the
#     no-drop one's);
#   - two senders (DSCP 26 -> queue 3, best effort -> queue 0, small send
#     buffers) and a receiver count every datagram; the injector on h1
#     sends link pause (opcode 0x0001) for 1.5 s and ends with pause time
#     0 (XON): both queues are held (the receiver hears next to nothing of
#     either flow), the senders are back-pressured, nothing is lost, and
#     the XON releases the port;
#   - again for 1 s without the XON: the hold ends when the pause time
#     runs out, and again nothing is lost;
#   - `show interface flowcontrol` counts the frames (XON apart too) and
#     the time paused, and says receive oper on;
#   - with `flowcontrol receive off` the frames are counted and ignored:
#     the leaves are fifos again (no-drop queue 3 keeps its tbf), the
#     same storm changes nothing on the port, and nothing is lost.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/integration/lib.sh"
t_init softlp_rx
t_need_root
storm="$top_builddir/tests/tools/pfc_storm"
traffic="$top_builddir/tests/tools/traffic"
[ -x "$storm" ] && [ -x "$traffic" ] || t_fail "test tools not built (make check builds them)"
[ -x "$rocesh" ] || t_fail "rocesh is not built"

t_netns_add sw softlp
t_netns_add peer softlp-peer
$IP link add swp1 netns "$sw" type veth peer name h1 netns "$peer"
$IP -n "$sw" addr add 10.78.0.1/24 dev swp1
$IP -n "$peer" addr add 10.78.0.2/24 dev h1
$IP -n "$sw" link set swp1 up
$IP -n "$peer" link set h1 up

conf=$t_tmp/roced.conf
t_conf_ports "$conf" swp1
t_conf_match_any "$conf"
python3 - "$conf" <<'PY'
import sys
s = open(sys.argv[1]).read()
old = 'priority-flow-control = { mode = "on"; };'
assert s.count(old) == 1, 'the shipped interface block changed'
s = s.replace(old, 'priority-flow-control = { mode = "off"; };\n\t\tflowcontrol = { receive = true; };')
s = s.replace('watch-dog-interval = true;', 'watch-dog-interval = false;')
open(sys.argv[1], 'w').write(s)
PY
sed 's/flowcontrol = { receive = true; };/flowcontrol = { receive = false; };/' "$conf" >"$t_tmp/off.conf"
grep -q 'receive = false' "$t_tmp/off.conf" || t_fail "cannot write the receive-off configuration"

t_roced_start "$sw" "$conf" 'mirroring' -D watchdog
leaves() { $TC -n "$sw" qdisc show dev swp1 | grep -E '^qdisc (tbf|bfifo|pfifo) 47' || true; }
n=$(leaves | grep -c 'qdisc tbf .*rate 40Gbit' || true)
[ "$n" = 8 ] || t_fail "not every queue's leaf is a released tbf: $(leaves)"

# phase NAME STORM-ARGS...: both flows for 4 s, the storm 1 s in; the
# storm's window (its first and last frame) into $t_tmp/NAME.win, the
# outputs into $t_tmp/NAME.*
phase()
{
	_p=$1
	shift
	rm -f "$t_tmp/ready"
	t_spawn $IP netns exec "$peer" "$traffic" recv -t 60 -i 5 -R "$t_tmp/ready" -l "$t_tmp/$_p.arr" >"$t_tmp/$_p.recv"
	_rx=$t_pid
	for _ in $(seq 300); do [ -e "$t_tmp/ready" ] && break; sleep 0.05; done
	[ -e "$t_tmp/ready" ] || t_fail "$_p: the receiver did not start"
	t_spawn $IP netns exec "$sw" "$traffic" send 10.78.0.2 -T 0x68 -f 1 -r 2000 -t 4 -s 500 -b 32768 >"$t_tmp/$_p.send1"
	_tx1=$t_pid
	t_spawn $IP netns exec "$sw" "$traffic" send 10.78.0.2 -T 0 -f 2 -r 2000 -t 4 -s 500 -b 32768 >"$t_tmp/$_p.send2"
	_tx2=$t_pid
	sleep 1
	$IP netns exec "$peer" "$storm" -i h1 -k pause "$@" >"$t_tmp/$_p.storm" ||
		t_fail "$_p: the injector failed: $(cat "$t_tmp/$_p.storm")"
	# the window: the injector's first and last frame (its clock is the
	# receiver's), not when a loaded machine got round to starting it
	sed -n 's/.*first_ns \([0-9]*\) last_ns \([0-9]*\).*/\1 \2/p' "$t_tmp/$_p.storm" >"$t_tmp/$_p.win"
	[ -s "$t_tmp/$_p.win" ] || t_fail "$_p: the injector said no times: $(cat "$t_tmp/$_p.storm")"
	t_wait "$_tx1" || t_fail "$_p: the DSCP 26 sender failed"
	t_wait "$_tx2" || t_fail "$_p: the best-effort sender failed"
	t_wait "$_rx" || t_fail "$_p: the receiver failed"
	cat "$t_tmp/$_p.send1" "$t_tmp/$_p.send2" "$t_tmp/$_p.recv" "$t_tmp/$_p.storm"
	for f in 1 2; do
		sent=$(awk '/^sent/ {print $2}' "$t_tmp/$_p.send$f")
		got=$(awk -v f=$f '$1 == f {n++} END {print n + 0}' "$t_tmp/$_p.arr")
		[ "$sent" -gt 1000 ] || t_fail "$_p: flow $f sent only $sent"
		[ "$got" = "$sent" ] || t_fail "$_p: flow $f lost datagrams: sent $sent, received $got"
	done
	echo "$_p: both flows: nothing lost"
}
# quiet NAME FLOW: the share of NAME's storm window in which FLOW's
# arrivals had gaps over 20 ms
quiet()
{
	python3 - "$t_tmp/$1.arr" "$t_tmp/$1.win" "$2" <<'PY'
import sys
s0, s1 = (int(x) for x in open(sys.argv[2]).read().split())
t = sorted(int(l.split()[3]) for l in open(sys.argv[1]) if l.split()[0] == sys.argv[3])
t = [x for x in t if s0 <= x <= s1]
edges = [s0] + t + [s1]
print('%.2f' % (sum(b - a for a, b in zip(edges, edges[1:]) if b - a > 20e6) / (s1 - s0)))
PY
}
held() { python3 -c "import sys; sys.exit(0 if $1 >= 0.6 else 1)"; }

# --- receive on, released by XON ---
phase xon -q 65535 -r 500 -t 1.5 -x
for f in 1 2; do
	q=$(quiet xon $f)
	echo "xon: flow $f quiet for $q of the storm"
	held "$q" || t_fail "flow $f was not held by link pause (quiet for only $q of the storm)"
done
grep -q 'swp1: link pause holds the port' "$t_tmp/log" || t_fail "roced did not log the hold"
grep -q 'swp1: link pause releases the port' "$t_tmp/log" || t_fail "roced did not log the release"
n=$(leaves | grep -c 'qdisc tbf .*rate 40Gbit' || true)
[ "$n" = 8 ] || t_fail "the XON did not release every queue: $(leaves)"

# --- receive on, released when the pause time runs out ---
phase expiry -q 65535 -r 500 -t 1
for f in 1 2; do
	q=$(quiet expiry $f)
	echo "expiry: flow $f quiet for $q of the storm"
	held "$q" || t_fail "flow $f was not held by link pause (quiet for only $q of the storm)"
done
[ "$(grep -c 'swp1: link pause releases the port' "$t_tmp/log")" -ge 2 ] ||
	t_fail "the hold did not run out"
n=$(leaves | grep -c 'qdisc tbf .*rate 40Gbit' || true)
[ "$n" = 8 ] || t_fail "expiry did not release every queue: $(leaves)"

# --- the counters ---
sent_xon=$(awk '/^sent/ {print $2}' "$t_tmp/xon.storm")
sent_exp=$(awk '/^sent/ {print $2}' "$t_tmp/expiry.storm")
$IP netns exec "$sw" "$rocesh" -c 'show interface flowcontrol | json' >"$t_tmp/fc.json" ||
	t_fail "show interface flowcontrol failed: $(cat "$t_tmp/fc.json")"
$IP netns exec "$sw" "$rocesh" -c 'show interface flowcontrol' >"$t_tmp/fc.txt"
cat "$t_tmp/fc.txt"
python3 - "$t_tmp/fc.json" "$sent_xon" "$sent_exp" <<'PY' || t_fail "counters: $(cat "$t_tmp/fc.json")"
import json, sys
d = json.load(open(sys.argv[1]))
p = [i for i in d["interface"] if i["name"] == "swp1"][0]
sent = int(sys.argv[2]) + 1 + int(sys.argv[3])  # the XON counts too
assert p["receive"] == {"admin": "on", "oper": "on"}, p
assert p["send"] == {"admin": "off", "oper": "off"}, p
# every frame the injector sent, unless the loaded host's socket buffer
# dropped some (never more than were sent)
assert sent * 0.9 <= p["rx-pause"] <= sent, (p, sent)
assert p["rx-xon"] == 1, p
assert p["tx-pause"] == 0 and p["tx-xon"] == 0, p
# two holds of 1.5 s and 1 s (a loaded machine starts them late)
assert p["paused-ms"] >= 500, p
assert p["paused"] is False, p
PY
grep -Eq '^Ethernet1/1 +off +off +on +on +[0-9]+ +0$' "$t_tmp/fc.txt" || t_fail "the text row: $(cat "$t_tmp/fc.txt")"
t_roced_stop

# --- receive off: counted, ignored ---
t_roced_start "$sw" "$t_tmp/off.conf" 'mirroring' -D watchdog
n=$(leaves | grep -c 'qdisc tbf' || true)
[ "$n" = 1 ] || t_fail "receive off: the leaves are not the fifos and queue 3's tbf: $(leaves)"
phase off -q 65535 -r 500 -t 1.5
# (how quiet the flows were is only printed: a loaded machine stalls
# senders too; that nothing was held is in roced's log and writes)
for f in 1 2; do echo "off: flow $f quiet for $(quiet off $f) of the storm"; done
grep -q 'link pause holds' "$t_tmp/log" && t_fail "receive off: roced held the port"
[ "$(grep -c 'swp1: ok' "$t_tmp/log")" = 1 ] ||
	t_fail "receive off: roced changed the port during the storm: $(grep 'swp1: ok' "$t_tmp/log")"
$IP netns exec "$sw" "$rocesh" -c 'show interface flowcontrol | json' >"$t_tmp/off.json"
python3 - "$t_tmp/off.json" "$(awk '/^sent/ {print $2}' "$t_tmp/off.storm")" <<'PY' || t_fail "receive off counters: $(cat "$t_tmp/off.json")"
import json, sys
d = json.load(open(sys.argv[1]))
p = [i for i in d["interface"] if i["name"] == "swp1"][0]
sent = int(sys.argv[2])
assert p["receive"] == {"admin": "off", "oper": "off"}, p
assert sent * 0.9 <= p["rx-pause"] <= sent, (p, sent)
assert p["paused-ms"] == 0, p
PY
t_roced_stop
echo "softlp_rx: ok"
