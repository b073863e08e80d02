#!/bin/sh
# roce_semi: the semi-lossless RoCE mode on software ports honours pause
# and never sends it. The switch is a bridge of three veth ports (swp1-3)
# running `roce = "semi-lossless";` with its queue 3 toward swp3 shaped
# below what h1 and h2 send there: the queue fills past xoff, where the
# lossless mode pauses the contributors (tests/integration/pfc_contrib.sh).
# Checked:
#   - the plan holds queue 3 with software PFC's tbf leaf (it can honour
#     a pause received) and says the priority is receive-only;
#   - the switch sent no PFC frame: TxPPP 0 on every port, and tshark, an
#     independent decoder, counts none on eth1 and eth2;
#   - the class is lossy instead: the bottleneck dropped (the receiver
#     got less than was sent), which is what semi-lossless accepts;
#   - show roce says semi-lossless, the two objects this file edited,
#     and priority 3 receive-only on every port.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/integration/lib.sh"
t_init roce_semi
t_need_root
command -v tshark >/dev/null 2>&1 ||
	t_skip "tshark not installed (scripts/install-deps.sh --test)"
traffic="$top_builddir/tests/tools/traffic"
[ -x "$traffic" ] || t_fail "test tools not built (make check builds them)"
[ -x "$rocesh" ] || t_fail "rocesh is not built"
tmp=$t_tmp
pps=5000
secs=4
shape_kbps=$((pps * 8))
xoff=300000
# q3's limit: the default (1000 frames, 9.2 MB) would absorb all the
# excess of senders that a loaded machine slows to a little above the
# shape, and nothing would drop with or without pause.
qlimit_kb=600

t_netns_add sw rssw
$IP -n "$sw" link add br0 type bridge
$IP -n "$sw" link set br0 up
for h in 1 2 3; do
	t_netns_add "h$h" "rsh$h"
	eval "ns=\$h$h"
	$IP -n "$sw" link add "swp$h" type veth peer name "eth$h" netns "$ns"
	$IP -n "$sw" link set "swp$h" master br0
	$IP -n "$sw" link set "swp$h" up
	$IP -n "$ns" addr add "10.78.0.$h/24" dev "eth$h"
	$IP -n "$ns" link set "eth$h" up
	$IP -n "$ns" link set lo up
done

# The switch: the semi-lossless mode, with its own ROCE-QUEUING (the
# file's wins) shaping q3 and a pause buffer for priority 3, as
# pfc_contrib's switch has; untagged IP, so DSCP 26 classifies alone.
cat >"$tmp/sw.conf" <<EOF
roce = "semi-lossless";
policy-map = {
	queuing = ( { name = "ROCE-QUEUING"; class = (
		{ name = "c-out-8q-q6"; priority-level = 1; },
		{ name = "c-out-8q-q3"; bandwidth-remaining-percent = 50;
		  shape = { min = "1 kbps"; max = "$shape_kbps kbps"; };
		  queue-limit = "$qlimit_kb kbytes"; },
		{ name = "c-out-8q-q-default"; bandwidth-remaining-percent = 50; }
	); } );
	network-qos = ( { name = "ROCE-NETWORK-QOS"; class = (
		{ name = "c-8q-nq3"; pause-pfc-cos = 3; pause-receive-only = true;
		  mtu = 9216; pause-buffer = { buffer-size = $((2 * xoff));
		  pause-threshold = $xoff; resume-threshold = $((xoff - 20000)); }; }
	); } );
};
interface = (
	{ name = "swp1"; priority-flow-control = { mode = "on"; }; },
	{ name = "swp2"; priority-flow-control = { mode = "on"; }; },
	{ name = "swp3"; priority-flow-control = { mode = "on"; }; }
);
EOF
"$roced" -n -f "$tmp/sw.conf" >"$tmp/n.out" 2>&1 || { cat "$tmp/n.out"; t_fail "sw.conf does not load"; }
"$IP" netns exec "$sw" "$roced" --dry-run -f "$tmp/sw.conf" >"$tmp/dry.txt" 2>&1 ||
	{ cat "$tmp/dry.txt"; t_fail "the switch's dry run failed"; }
t_show_on_fail "the switch's dry run" "$tmp/dry.txt"
grep -q 'pfc receive-only on 3: pause received is honoured, none is sent' "$tmp/dry.txt" ||
	t_fail "the plan does not say priority 3 is receive-only"
grep -q 'qdisc .* tbf' "$tmp/dry.txt" ||
	t_fail "no software PFC leaf (tbf) for the queue that honours pause"

t_show_on_fail "switch roced log" "$tmp/sw.log"
t_spawn "$IP" netns exec "$sw" "$roced" -f "$tmp/sw.conf" >"$tmp/sw.log" 2>&1
for _ in $(seq 600); do
	grep -q "mirroring roced's tc objects" "$tmp/sw.log" && break
	sleep 0.05
done
grep -q "mirroring roced's tc objects" "$tmp/sw.log" || t_fail "the switch's roced did not start"

for h in 1 2 3; do
	eval "ns=\$h$h"
	to=$((h % 3 + 1))
	$IP netns exec "$ns" python3 -c 'import socket, sys
socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"hello", (sys.argv[1], 9))' "10.78.0.$to"
	t_until 10 sh -c "$IP -n $ns neigh show 10.78.0.$to | grep -q lladdr" ||
		t_fail "h$h cannot reach h$to (ARP)"
done
for h in 1 2; do
	eval "ns=\$h$h"
	t_spawn "$IP" netns exec "$ns" tshark -i "eth$h" -w "$tmp/eth$h.pcap" -f "ether proto 0x8808" -q 2>"$tmp/tshark$h.err"
	t_show_on_fail "tshark eth$h" "$tmp/tshark$h.err"
done
for h in 1 2; do
	t_until 20 test -s "$tmp/eth$h.pcap" || t_fail "tshark did not start capturing on eth$h"
done

t_spawn $IP netns exec "$h3" "$traffic" recv -t 60 -i 6 -R "$tmp/ready3" >"$tmp/recv3"
rx3=$t_pid
t_show_on_fail "receiver h3" "$tmp/recv3"
t_until 20 test -e "$tmp/ready3" || t_fail "the receiver on h3 did not start"
senders=
for h in 1 2; do
	eval "ns=\$h$h"
	t_spawn $IP netns exec "$ns" "$traffic" send 10.78.0.3 -T 0x68 -r "$pps" -t "$secs" -s 1000 -b 32768 -f "$h" >"$tmp/nd$h"
	senders="$senders $t_pid"
	t_show_on_fail "sender h$h" "$tmp/nd$h"
done
for p in $senders; do t_wait "$p" || t_fail "a sender failed"; done
t_wait "$rx3" || t_fail "the receiver on h3 failed"
sleep 1 # the last frames reach the captures
cat "$tmp/nd1" "$tmp/nd2" "$tmp/recv3"

sent=$(cat "$tmp/nd1" "$tmp/nd2" | awk '/^sent/ {n += $2} END {print n + 0}')
got=$(awk '/^tos 0x68/ {print $6}' "$tmp/recv3")
echo "toward h3: sent $sent, received $got"
[ "${got:-0}" -gt 0 ] || t_fail "nothing reached h3"
# Only senders that offered more than the shape and the queue take can
# show it (1042 bytes a datagram on the wire).
room=$((shape_kbps * 1000 / 8 * secs / 1042 + qlimit_kb * 1000 / 1042))
if [ "$sent" -gt "$room" ]; then
	[ "$got" -lt "$sent" ] ||
		t_fail "nothing was dropped at the 40 Mb/s bottleneck: was pause sent after all?"
else
	echo "note: the drop not checked: the senders offered $sent datagrams, no more than the shape and queue take ($room); the machine slowed them"
fi

"$IP" netns exec "$sw" "$rocesh" -c "show interface priority-flow-control json" >"$tmp/pfc.json"
t_show_on_fail "show interface priority-flow-control" "$tmp/pfc.json"
python3 - "$tmp/pfc.json" <<'PY' || t_fail "the semi-lossless switch sent PFC"
import json, sys
j = json.load(open(sys.argv[1]))
sent = {}
def walk(o):
    if isinstance(o, dict):
        if 'tx-pause' in o and 'name' in o:
            sent[o['name']] = o['tx-pause']
        for v in o.values(): walk(v)
    elif isinstance(o, list):
        for v in o: walk(v)
walk(j)
assert set(sent) >= {'swp1', 'swp2', 'swp3'}, sent
assert all(v == 0 for v in sent.values()), sent
PY
for h in 1 2; do
	w=$(tshark -r "$tmp/eth$h.pcap" -Y 'macc.opcode == 0x0101' 2>/dev/null | wc -l)
	echo "eth$h: $w PFC frames on the wire"
	[ "$w" = 0 ] || t_fail "tshark saw $w PFC frames on eth$h"
done
"$IP" netns exec "$sw" "$rocesh" -c "show roce json" >"$tmp/roce.json"
python3 - "$tmp/roce.json" <<'PY' || { cat "$tmp/roce.json"; t_fail "show roce does not say receive-only"; }
import json, sys
j = json.load(open(sys.argv[1]))
assert j['mode'] == 'semi-lossless', j['mode']
assert j['edited'] == ['policy-map type queuing ROCE-QUEUING',
                       'policy-map type network-qos ROCE-NETWORK-QOS'], j['edited']
assert j['pfc']['receive-only'] == [3], j['pfc']
ports = {p['name']: p for p in j['interface']}
assert ports['swp1']['receive-only'] == [3] and ports['swp1']['pfc-enabled'] == [3], ports
PY
echo "roce_semi: ok"
