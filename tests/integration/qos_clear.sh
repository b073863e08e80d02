#!/bin/sh
# qos_clear: clear qos statistics and show interface counters, read
# against the kernel's own readers (tc -s -j, ip -s -j). On a veth rig
# (roced on swp1, alias Ethernet1/1, the shipped policy):
#   - 30 RoCE frames (CoS 3, DSCP 26) out of swp1: show queuing interface
#     json counts 30 on queue 3, as many as tc counts on its leaf;
#   - clear qos statistics interface ethernet 1/1, then 12 more: the show
#     counts 12, tc still counts 42 (the kernel's counters are not reset,
#     roced keeps a baseline); show policy-map interface agrees;
#   - a clear of every port, and no frame since: 0;
#   - show interface e1/1 counters json: the octets and packets each way
#     are the link's, between what ip -s -j reads before and after it
#     (roced's own LLDP frames may go out meanwhile), and RxPause/TxPause
#     are 0 (no pause came or went).
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/integration/lib.sh"
t_init qos_clear
t_need_root
command -v python3 >/dev/null || t_skip "python3 is missing (scripts/install-deps.sh --test)"

t_netns_add sw qosclr
t_netns_add peer qosclr-peer
$IP link add swp1 netns "$sw" type veth peer name h1 netns "$peer"
$IP -n "$sw" link set swp1 up
$IP -n "$peer" link set h1 up
for n in "$sw" "$peer"; do
	$IP netns exec "$n" sh -c 'echo 1 >/proc/sys/net/ipv6/conf/all/disable_ipv6' 2>/dev/null || true
done
t_conf_ports "$t_tmp/roced.conf" swp1
sh_() { $IP netns exec "$sw" "$rocesh" "$@"; }
t_roced_start "$sw" "$t_tmp/roced.conf" 'mirroring'

# send N: N frames tagged CoS 3 with DSCP 26 out of swp1, one size, as
# the golden transcripts send them; ROCE_POLICY puts them in queue 3.
send() {
	$IP netns exec "$sw" python3 - "$1" <<'PY'
import socket, struct, sys
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind(('swp1', 0x8100))
udp = struct.pack('!HHHH', 4791, 4791, 8 + 16, 0) + b'r' * 16
ip = struct.pack('!BBHHHBBH4s4s', 0x45, 26 << 2, 20 + len(udp), 0, 0, 64,
                 17, 0, bytes([192, 0, 2, 1]), bytes([192, 0, 2, 2]))
eth = (b'\xff' * 6 + b'\x02\x00\x00\x00\x00\x01' +
       struct.pack('!HH', 0x8100, 3 << 13 | 7) + b'\x08\x00')
for _ in range(int(sys.argv[1])):
    s.send(eth + ip + udp)
PY
}
# q3: queue 3's packets sent as show queuing interface counts them.
q3() {
	sh_ -c 'show queuing interface ethernet 1/1 json' | python3 -c '
import json, sys
p = json.load(sys.stdin)["interface"][0]
print([q for q in p["queue"] if q["qos-group"] == 3][0]["counters"]["tx-packets"])'
}
# tc3: the same leaf's packets as tc counts them.
tc3() {
	$TC -n "$sw" -s -j qdisc show dev swp1 | python3 -c '
import json, sys
print([q for q in json.load(sys.stdin) if q["handle"] == "4713:"][0]["packets"])'
}

send 30
[ "$(q3)" = 30 ] || t_fail "queue 3 counts $(q3) after 30 frames"
[ "$(tc3)" = 30 ] || t_fail "tc counts $(tc3) on queue 3's leaf after 30 frames"
sh_ -c 'clear qos statistics interface ethernet 1/1' >"$t_tmp/out" 2>&1 ||
	t_fail "clear qos statistics: $(cat "$t_tmp/out")"
grep -q 'QoS statistics cleared on 1 port of' "$t_tmp/log" || t_fail "the clear is not logged"
send 12
[ "$(q3)" = 12 ] || t_fail "queue 3 counts $(q3) after a clear and 12 frames"
[ "$(tc3)" = 42 ] || t_fail "tc counts $(tc3), the kernel's counter was not left alone"
sh_ -c 'show policy-map interface Eth1/1 type queuing json' | python3 -c '
import json, sys
cl = json.load(sys.stdin)["interface"][0]["service-policy"]["queuing-output"]["class"]
n = [c for c in cl if c["qos-group"] == 3][0]["counters"]["tx-packets"]
assert n == 12, n' || t_fail "show policy-map interface does not count from the clear"
echo "ok: clear qos statistics: 12 since the clear, the kernel's 42 kept"
sh_ -c 'clear qos statistics' >"$t_tmp/out" 2>&1 || t_fail "clear qos statistics: $(cat "$t_tmp/out")"
[ "$(q3)" = 0 ] || t_fail "queue 3 counts $(q3) after a clear of every port"

# show interface counters against ip -s -j link.
link() { $IP -n "$sw" -s -j link show dev swp1; }
link >"$t_tmp/before"
sh_ -c 'show interface e1/1 counters json' >"$t_tmp/show"
link >"$t_tmp/after"
python3 - "$t_tmp/before" "$t_tmp/show" "$t_tmp/after" <<'PY' || t_fail "show interface counters: $(cat "$t_tmp/show")"
import json, sys
b = json.load(open(sys.argv[1]))[0]["stats64"]
a = json.load(open(sys.argv[3]))[0]["stats64"]
p = json.load(open(sys.argv[2]))["interface"][0]
for key, d, k in (("in-octets", "rx", "bytes"), ("in-packets", "rx", "packets"),
                  ("out-octets", "tx", "bytes"), ("out-packets", "tx", "packets")):
    assert b[d][k] <= p[key] <= a[d][k], (key, b[d][k], p[key], a[d][k])
assert p["out-packets"] >= 42, p
assert p["in-mcast-packets"] == b["rx"]["multicast"], p
assert p["rx-pause"] == 0 and p["tx-pause"] == 0, p
assert p["out-ucast-packets"] is None, p
PY
echo "ok: show interface counters are the link's"
t_roced_stop
echo "qos_clear: ok"
