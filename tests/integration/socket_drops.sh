#!/bin/sh
# socket_drops: frames the kernel drops at roced's packet socket are
# counted and shown. roced is stopped (SIGSTOP) while a peer sends 20,000
# LLDPDUs, far more than the socket's buffer holds; once it runs again,
# `show lldp traffic` and `show interface priority-flow-control detail`
# say how many were dropped, and every frame sent is either read
# (frames-in) or dropped (socket-drops).
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
t_init socket_drops
t_need_root
[ -x "$rocesh" ] || t_skip "rocesh is not built"
tmp=$t_tmp
t_veth_ns ns sockdrop eth0 pe0
in_ns() { "$IP" netns exec "$ns" "$@"; }
t_roced_start "$ns" "$top_srcdir/tests/fixtures/dcbx/host.conf" "control socket"
sent=20000
kill -STOP "$roced_pid"
in_ns python3 - pe0 "$sent" <<'PY' || { kill -CONT "$roced_pid"; t_fail "cannot send"; }
import socket, struct, sys
def tlv(t, v):
    return struct.pack('!H', t << 9 | len(v)) + v
pdu = (tlv(1, b'\x07flooder') + tlv(2, b'\x07p1') +
       tlv(3, struct.pack('!H', 120)) + tlv(0, b''))
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((sys.argv[1], 0))
mac = open('/sys/class/net/%s/address' % sys.argv[1]).read().strip()
src = bytes(int(x, 16) for x in mac.split(':'))
f = b'\x01\x80\xc2\x00\x00\x0e' + src + b'\x88\xcc' + pdu
for _ in range(int(sys.argv[2])):
    s.send(f)
PY
kill -CONT "$roced_pid"
traffic() { in_ns "$rocesh" -c 'show lldp traffic interface eth0 json' >"$tmp/t.json"; }
all_seen() {
	traffic
	python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["interfaces"][0]
sys.exit(0 if c["frames-in"] + c["socket-drops"] >= int(sys.argv[2]) else 1)' "$tmp/t.json" "$sent"
}
t_until 30 all_seen || { cat "$tmp/t.json"; t_fail "frames neither read nor counted as dropped"; }
in_ns "$rocesh" -c 'show lldp traffic' >"$tmp/t.txt"
in_ns "$rocesh" -c 'show interface priority-flow-control detail json' >"$tmp/pfc.json"
t_show_on_fail "show lldp traffic" "$tmp/t.txt"
python3 - "$tmp/t.json" "$tmp/pfc.json" "$sent" <<'PY' || t_fail "the drops are not shown as they should be"
import json, sys
c = json.load(open(sys.argv[1]))["interfaces"][0]
p = json.load(open(sys.argv[2]))["interface"][0]
sent = int(sys.argv[3])
print("frames-in", c["frames-in"], "socket-drops", c["socket-drops"])
assert c["socket-drops"] > 0, c
assert c["frames-in"] + c["socket-drops"] == sent, c
assert p["socket-drops"] == c["socket-drops"], (p, c)
PY
grep -q "Total frames dropped at the socket: [1-9]" "$tmp/t.txt" ||
	t_fail "show lldp traffic's text does not say the drops"
echo "ok: socket_drops"
