#!/bin/sh
# softlp_tx: 802.3x link pause sent by roced out of a bridge port with
# `flowcontrol send on`, this machine's kernel. The switch is a
# namespace with a bridge of two veth ports: swp1 (towards host h1, send
# on, PFC mode off) and swp3 (towards h3, PFC on). swp3's queue 3 and
# default queue are shaped to 20 Mb/s (`shape max`): the bottleneck. h1
# runs roced on eth1 with `flowcontrol receive on` (its queues shaped to
# 100 Mb/s, a link's rate); h3 only receives.
#   - h1 sends DSCP 26 and best effort, 40 Mb/s each (80 Mb/s into 40);
#     swp3's total backlog crosses its xoff (the pause buffer of the
#     network-qos class, 300000 bytes), roced sends link pause out of swp1
#     (refreshed while above xon, pause time 0 below it), h1's roced holds
#     every queue of eth1 and its senders are back-pressured: neither
#     class loses a datagram;
#   - tshark, capturing on h1, reads the frames as 802.3x PAUSE
#     (eth.type 0x8808, opcode 0x0001) with pause time 65535, and the
#     XONs with pause time 0; as many as the switch's TxPause counts;
#   - `show interface flowcontrol` on the switch: swp1 send oper on,
#     TxPause counted; on h1: receive oper on, RxPause counted.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/integration/lib.sh"
t_init softlp_tx
t_need_root
traffic="$top_builddir/tests/tools/traffic"
[ -x "$traffic" ] || t_fail "test tools not built (make check builds them)"
[ -x "$rocesh" ] || t_fail "rocesh is not built"
command -v tshark >/dev/null 2>&1 ||
	t_skip "tshark not installed (scripts/install-deps.sh --test)"
tmp=$t_tmp

t_netns_add sw lpsw
t_netns_add h1 lph1
t_netns_add h3 lph3
$IP -n "$sw" link add br0 type bridge
$IP -n "$sw" link set br0 up
for h in 1 3; do
	eval "ns=\$h$h"
	$IP -n "$sw" link add "swp$h" type veth peer name "eth$h" netns "$ns"
	$IP -n "$sw" link set "swp$h" master br0
	$IP -n "$sw" link set "swp$h" up
	$IP -n "$ns" addr add "10.79.0.$h/24" dev "eth$h"
	$IP -n "$ns" link set "eth$h" up
	$IP -n "$ns" link set lo up
done

# pfcoff FILE [FLOWCONTROL [first]]: PFC mode off on FILE's ports, with
# the flowcontrol line given on the first one; with `first`, the other
# ports keep PFC on.
pfcoff()
{
	python3 - "$@" <<'PY'
import sys
p = sys.argv[1]
fc = sys.argv[2] if len(sys.argv) > 2 else ''
first = len(sys.argv) > 3
s = open(p).read()
old = 'priority-flow-control = { mode = "on"; };'
assert old in s, 'the shipped interface block changed'
new = 'priority-flow-control = { mode = "off"; };'
if fc:
    s = s.replace(old, new + '\n\t\tflowcontrol = { %s = true; };' % fc, 1)
if not first:
    s = s.replace(old, new)
s = s.replace('watch-dog-interval = true;', 'watch-dog-interval = false;')
open(p, 'w').write(s)
PY
}
t_conf_ports "$tmp/sw.conf" swp1 swp3
t_conf_match_any "$tmp/sw.conf"
# swp3 keeps PFC on: its no-drop queue 3 congests too, and PFC for it
# must not go out of swp1, whose PFC is off (only link pause goes there).
pfcoff "$tmp/sw.conf" send first
python3 - "$tmp/sw.conf" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
shape = 'shape = { min = "1 mbps"; max = "20 mbps"; };'
reps = [
    ('name = "c-out-8q-q3";\n\t\t\t\t\tbandwidth-remaining-percent = 50;',
     'name = "c-out-8q-q3";\n\t\t\t\t\tbandwidth-remaining-percent = 50; ' + shape),
    ('{ name = "c-out-8q-q-default"; bandwidth-remaining-percent = 50; }',
     '{ name = "c-out-8q-q-default"; bandwidth-remaining-percent = 50; ' + shape + ' }'),
    # swp3's xoff and xon (the smallest pause buffer of the port): its
    # queues stay small, so that the receiving host is not flooded when
    # they drain
    ('pause-pfc-cos = 3; mtu = 9216;',
     'pause-pfc-cos = 3; mtu = 9216; pause-buffer = { buffer-size = 600000; '
     'pause-threshold = 300000; resume-threshold = 200000; };'),
]
for a, b in reps:
    assert a in s, 'the shipped roced.conf changed: ' + a
    s = s.replace(a, b, 1)
open(p, 'w').write(s)
PY
t_conf_ports "$tmp/h1.conf" eth1
t_conf_match_any "$tmp/h1.conf"
pfcoff "$tmp/h1.conf" receive
# h1's link is a 100 Mb/s one (both queues shaped to it): a veth has no
# line rate, and a sender released after a hold would otherwise catch up
# at memory speed, faster than any headroom covers while a loaded machine
# delays the next pause by tens of milliseconds.
python3 - "$tmp/h1.conf" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
shape = 'shape = { min = "1 mbps"; max = "100 mbps"; };'
reps = [
    ('name = "c-out-8q-q3";\n\t\t\t\t\tbandwidth-remaining-percent = 50;',
     'name = "c-out-8q-q3";\n\t\t\t\t\tbandwidth-remaining-percent = 50; ' + shape),
    ('{ name = "c-out-8q-q-default"; bandwidth-remaining-percent = 50; }',
     '{ name = "c-out-8q-q-default"; bandwidth-remaining-percent = 50; ' + shape + ' }'),
]
for a, b in reps:
    assert a in s, 'the shipped roced.conf changed: ' + a
    s = s.replace(a, b, 1)
open(p, 'w').write(s)
PY

for n in sw h1; do t_show_on_fail "$n roced log" "$tmp/$n.log"; done
start() {
	eval "ns=\$$1"
	t_spawn "$IP" netns exec "$ns" "$roced" -f "$tmp/$1.conf" -D watchdog >"$tmp/$1.log" 2>&1
	for _ in $(seq 600); do
		grep -q "mirroring roced's tc objects" "$tmp/$1.log" && return 0
		sleep 0.05
	done
	t_fail "$1's roced did not start"
}
start sw
start h1
"$roced" -f "$tmp/sw.conf" -n >"$tmp/check" 2>&1 || t_fail "roced -n refused the switch's configuration: $(cat "$tmp/check")"

t_spawn $IP netns exec "$h1" tshark -i eth1 -w "$tmp/wire.pcap" -f "ether proto 0x8808" -q
cap=$t_pid
for _ in $(seq 300); do [ -s "$tmp/wire.pcap" ] && break; sleep 0.1; done
[ -s "$tmp/wire.pcap" ] || t_fail "tshark did not start capturing"

t_spawn $IP netns exec "$h3" "$traffic" recv -t 90 -i 8 -R "$tmp/ready" >"$tmp/recv"
rx=$t_pid
t_show_on_fail "receiver" "$tmp/recv"
for _ in $(seq 300); do [ -e "$tmp/ready" ] && break; sleep 0.05; done
[ -e "$tmp/ready" ] || t_fail "the receiver did not start"
# DSCP 26: 5000 datagrams/s of 1000 bytes (40 Mb/s into swp3's 20),
# best effort 1000/s (8 Mb/s, under its shape): swp3's total backlog is
# then mostly queue 3's, and link pause (swp1's) and PFC (swp3's queue 3,
# PFC on) reach their xoff together; PFC must still not go out of swp1.
t_spawn $IP netns exec "$h1" "$traffic" send 10.79.0.3 -T 0x68 -r 5000 -t 6 -s 1000 -b 32768 -f 1 >"$tmp/nd"
s1=$t_pid
t_spawn $IP netns exec "$h1" "$traffic" send 10.79.0.3 -T 0x00 -r 1000 -t 6 -s 1000 -b 32768 -f 2 >"$tmp/be"
s2=$t_pid
t_show_on_fail "no-drop sender" "$tmp/nd"
t_show_on_fail "best-effort sender" "$tmp/be"
t_wait "$s1" || t_fail "the DSCP 26 sender failed"
t_wait "$s2" || t_fail "the best-effort sender failed"
t_wait "$rx" || t_fail "the receiver failed"
sleep 0.5
t_stop "$cap" INT >/dev/null || true
# where a loss would be: the switch's queues, the receiving host's stack
$TC -n "$sw" -s qdisc show dev swp3 >"$tmp/swp3.tc"
# nstat keeps a history file in /tmp whatever TMPDIR says: -s writes
# none, and NSTAT_HISTORY keeps it in this test's directory regardless.
NSTAT_HISTORY=$tmp/nstat.history $IP netns exec "$h3" nstat -asz 2>/dev/null | grep -E 'Udp|Drop' >"$tmp/h3.nstat" || true
cat /proc/net/softnet_stat >"$tmp/softnet" || true
t_show_on_fail "swp3's qdiscs" "$tmp/swp3.tc"
t_show_on_fail "h3's UDP counters" "$tmp/h3.nstat"
t_show_on_fail "softnet_stat (per CPU: processed, dropped, ...)" "$tmp/softnet"
cat "$tmp/nd" "$tmp/be" "$tmp/recv"

for c in nd:0x68 be:0x00; do
	f=${c%%:*} tos=${c#*:}
	sent=$(awk '/^sent/ {print $2}' "$tmp/$f")
	got=$(awk -v t="$tos" '$1 == "tos" && $2 == t {print $6}' "$tmp/recv")
	lost=$(awk -v t="$tos" '$1 == "tos" && $2 == t {print $8}' "$tmp/recv")
	[ "$sent" -gt 3000 ] || t_fail "the $f sender sent only $sent"
	[ "$lost" = 0 ] && [ "$got" = "$sent" ] ||
		t_fail "class $tos lost datagrams: sent $sent, received $got (lost $lost)"
done
echo "ok: both classes lossless through the 40 Mb/s bottleneck"

# What tshark reads on the wire towards h1.
pauses=$(tshark -r "$tmp/wire.pcap" -Y 'eth.type == 0x8808 && macc.opcode == 0x0001 && macc.pause_time == 65535' 2>/dev/null | wc -l)
xons=$(tshark -r "$tmp/wire.pcap" -Y 'eth.type == 0x8808 && macc.opcode == 0x0001 && macc.pause_time == 0' 2>/dev/null | wc -l)
other=$(tshark -r "$tmp/wire.pcap" -Y 'eth.type == 0x8808 && macc.opcode != 0x0001' 2>/dev/null | wc -l)
echo "tshark: $pauses link pauses (65535 quanta), $xons XONs, $other other MAC Control frames"
[ "$pauses" -gt 0 ] || t_fail "no link pause on the wire towards h1"
[ "$xons" -gt 0 ] || t_fail "no XON on the wire towards h1"
[ "$other" = 0 ] || t_fail "the switch sent $other MAC Control frames that are not link pause (PFC is off)"

fcj() { # NS PORT: the port's `show interface flowcontrol` json object
	$IP netns exec "$1" "$rocesh" -c 'show interface flowcontrol | json' |
		python3 -c '
import json, sys
d = json.load(sys.stdin)
print(json.dumps([i for i in d["interface"] if i["name"] == sys.argv[1]][0]))' "$2"
}
fcj "$sw" swp1 >"$tmp/swp1.json"
fcj "$h1" eth1 >"$tmp/eth1.json"
$IP netns exec "$sw" "$rocesh" -c 'show interface flowcontrol'
python3 - "$tmp/swp1.json" "$tmp/eth1.json" "$pauses" "$xons" <<'PY' || t_fail "counters: $(cat "$tmp/swp1.json" "$tmp/eth1.json")"
import json, sys
sw, h = (json.load(open(f)) for f in sys.argv[1:3])
pauses, xons = int(sys.argv[3]), int(sys.argv[4])
assert sw["send"] == {"admin": "on", "oper": "on"}, sw
assert sw["tx-xon"] == xons, (sw, xons)
# every frame sent was captured (tshark stopped after the last one)
assert sw["tx-pause"] == pauses + xons, (sw, pauses, xons)
assert h["receive"] == {"admin": "on", "oper": "on"}, h
assert 0.9 * sw["tx-pause"] <= h["rx-pause"] <= sw["tx-pause"], (h, sw)
assert h["paused-ms"] > 0, h
PY
grep -q 'link pause to the bridge' "$tmp/sw.log" || t_fail "the switch did not log its pause"
echo "softlp_tx: ok"
