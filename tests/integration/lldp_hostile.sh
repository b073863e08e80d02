#!/bin/sh
# lldp_hostile: a link peer's LLDP strings are data, never terminal
# control. A peer sends an LLDPDU whose System Name clears the screen and
# forges a table row (ESC[2J, a newline, a fake row), whose System
# Description holds a NUL, invalid UTF-8 and a C1 control, and whose Port
# Description a bidirectional override. Then:
#   - `show lldp neighbors [detail]` text has no control byte but its
#     line ends, no forged row, and shows the bytes as \xNN;
#   - the JSON parses, is valid UTF-8 and carries the escaped text;
#   - roced's log has no control byte (the watchdog names the neighbour).
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
t_init lldp_hostile
t_need_root
[ -x "$rocesh" ] || t_skip "rocesh is not built"
t_veth_ns ns lldphost eth0 pe0
in_ns() { "$IP" netns exec "$ns" "$@"; }
t_roced_start "$ns" "$top_srcdir/tests/fixtures/dcbx/host.conf" \
	"control socket" -D dcbx
in_ns python3 - pe0 <<'PY' || t_fail "cannot send the LLDPDU"
import socket, struct, sys
def tlv(t, v):
    return struct.pack('!H', t << 9 | len(v)) + v
pdu = (tlv(1, b'\x07evil-chassis') + tlv(2, b'\x07p1') +
       tlv(3, struct.pack('!H', 120)) +
       tlv(4, b'port\xe2\x80\xaedesc') +
       tlv(5, b'sw\x1b[2J\nFAKE-ROW eth9 999') +
       tlv(6, b'desc\x00hidden\xff\xfe\xc2\x9b31m') + tlv(0, b''))
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((sys.argv[1], 0))
mac = open('/sys/class/net/%s/address' % sys.argv[1]).read().strip()
src = bytes(int(x, 16) for x in mac.split(':'))
s.send(b'\x01\x80\xc2\x00\x00\x0e' + src + b'\x88\xcc' + pdu)
PY
t_until 10 sh -c "'$IP' netns exec '$ns' '$rocesh' -c 'show lldp neighbors json' | grep -q evil-chassis" ||
	t_fail "the neighbour never appeared"
tmp=$t_tmp
in_ns "$rocesh" -c 'show lldp neighbors' >"$tmp/nbr.txt"
in_ns "$rocesh" -c 'show lldp neighbors detail' >"$tmp/detail.txt"
in_ns "$rocesh" -c 'show lldp neighbors detail json' >"$tmp/detail.json"
t_show_on_fail "show lldp neighbors" "$tmp/nbr.txt"
t_show_on_fail "show lldp neighbors detail" "$tmp/detail.txt"
python3 - "$tmp/nbr.txt" "$tmp/detail.txt" "$tmp/detail.json" "$tmp/log" <<'PY' || t_fail "a peer's bytes reached the output raw"
import json, re, sys
ctl = re.compile(rb'[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xa8-\xae]')
for f in sys.argv[1:]:
    b = open(f, 'rb').read()
    m = ctl.search(b)
    assert not m, (f, b[max(0, m.start() - 20):m.end() + 20])
    b.decode('utf-8')  # valid UTF-8, or this raises
nbr = open(sys.argv[1]).read()
assert not re.search(r'^FAKE-ROW', nbr, re.M), nbr
assert r'sw\x1b[2J\x0aFAKE-ROW' in nbr or r'sw\x1b[2J\x0a' in nbr, nbr
d = json.load(open(sys.argv[3]))
n = [x for x in d['neighbors'] if x['chassis-id'] == 'evil-chassis'][0]
assert n['system-name'] == r'sw\x1b[2J\x0aFAKE-ROW eth9 999', n
assert n['system-description'] == r'desc\x00hidden\xff\xfe\xc2\x9b31m', n
assert n['port-description'] == r'port\xe2\x80\xaedesc', n
PY
cat "$tmp/nbr.txt"
echo "ok: lldp_hostile"
