#!/bin/sh
# dcbx_lldpad: lldpad, the reference DCBX agent, decodes the TLVs roced
# sends: `lldptool -t -n -i IF` for the whole LLDPDU and with
# `-V PFC`, `-V ETS-CFG`, `-V ETS-REC` and `-V APP` for the DCBX TLVs, as
# tests/fixtures/dcbx/switch.conf implies (PFC on 3, not willing, ETS
# 50/50 on TC 0 and 3, APP DSCP 26 -> 3, TTL 10).
# lldpad runs on a veth in the test's namespace: its control socket is an
# abstract one, private to the namespace; its state lives in /dev/shm, so
# it gets a tmpfs of its own there (the mount namespace of `ip netns
# exec`), and its configuration file is the test's (-f), without a pid
# file (-p). It only decodes here: lldpad refuses DCBX on a port without
# dcbnl ("Device not capable"), which a decoder does not need, so no
# capability shim is used.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
t_init dcbx_lldpad
t_need_root
command -v lldpad >/dev/null || t_skip "lldpad is not installed (scripts/install-deps.sh)"
tmp=$t_tmp
t_veth_ns ns dcbxla swp1 la0
in_ns() { "$IP" netns exec "$ns" "$@"; }
mac=$t_mac

t_show_on_fail "lldpad" "$tmp/lldpad.log"
t_spawn "$IP" netns exec "$ns" sh -c \
	'mount -t tmpfs lldpad-shm /dev/shm && exec lldpad -p -t -f "$1"' \
	sh "$tmp/lldpad.conf" >"$tmp/lldpad.log" 2>&1
ok=
for _ in $(seq 600); do
	if in_ns lldptool -L -i la0 adminStatus=rx >/dev/null 2>&1; then
		ok=1
		break
	fi
	sleep 0.05
done
[ -n "$ok" ] || t_fail "lldpad did not answer lldptool"
t_roced_start "$ns" "$top_srcdir/tests/fixtures/dcbx/switch.conf" \
	"mirroring roced's tc objects"
for _ in $(seq 600); do
	in_ns lldptool -t -n -i la0 >"$tmp/all" 2>&1 || true
	grep -q "IEEE 8021QAZ APP TLV" "$tmp/all" && break
	sleep 0.05
done
t_show_on_fail "lldptool -t -n" "$tmp/all"
for v in PFC ETS-CFG ETS-REC APP; do
	in_ns lldptool -t -n -i la0 -V "$v" >"$tmp/$v" 2>&1 ||
		t_fail "lldptool -V $v failed: $(cat "$tmp/$v")"
done
python3 - "$tmp" "$mac" <<'PY' || t_fail "lldptool does not decode what the configuration implies"
import re, sys
d, mac = sys.argv[1], sys.argv[2]
def text(n):
    return re.sub(r'[ \t]+', ' ', open(d + '/' + n).read())
a = text('all')
assert 'MAC: ' + mac in a, a
assert 'Ifname: swp1' in a and 'Ethernet1/1' in a, a
assert re.search(r'Time to Live TLV\n ?10\n', a), a
pfc = text('PFC')
assert 'Willing: no' in pfc and 'PFC enabled: 3 \n' in pfc, pfc
assert 'PFC capable traffic classes: 8' in pfc, pfc
ets = text('ETS-CFG')
assert 'Willing: no' in ets, ets
assert 'TC Bandwidth: 50% 0% 0% 50% 0% 0% 0% 0%' in ets, ets
assert 'PRIO_MAP: 0:0 1:1 2:2 3:3 4:4 5:5 6:6 7:7' in ets, ets
assert 'TSA_MAP: 0:ets 1:ets 2:ets 3:ets' in ets, ets
rec = text('ETS-REC')
assert 'TC Bandwidth: 50% 0% 0% 50% 0% 0% 0% 0%' in rec, rec
app = text('APP')
assert re.search(r'Prio:3 ?\t? ?dscp: +26,', app), app
PY
echo "ok: dcbx_lldpad"
