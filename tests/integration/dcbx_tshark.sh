#!/bin/sh
# dcbx_tshark: tshark, an independent decoder, reads the LLDPDUs roced
# really sends. roced runs tests/fixtures/dcbx/switch.conf (PFC
# on 3 with mode on, ETS 50/50 on TC 0 and 3, APP DSCP 26 -> 3, not
# willing, holdtime 10) on one end of a veth pair; tshark captures the
# other end, including the TTL 0 frame roced sends when it stops. Every
# TLV must carry what the configuration implies (-T fields), and tshark's
# expert analysis must report nothing malformed (-z expert).
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
t_init dcbx_tshark
t_need_root
command -v tshark >/dev/null || t_skip "tshark is not installed (scripts/install-deps.sh)"
[ -x "$rocesh" ] || t_skip "rocesh is not built"
tmp=$t_tmp
t_veth_ns ns dcbxts swp1 cap0
in_ns() { "$IP" netns exec "$ns" "$@"; }
mac=$t_mac

t_show_on_fail "tshark" "$tmp/tshark.err"
t_spawn "$IP" netns exec "$ns" tshark -q -i cap0 -f "ether proto 0x88cc" \
	-w "$tmp/cap.pcapng" 2>"$tmp/tshark.err"
ts_pid=$t_pid
for _ in $(seq 600); do
	grep -q "Capturing on" "$tmp/tshark.err" && break
	sleep 0.05
done
grep -q "Capturing on" "$tmp/tshark.err" || t_fail "tshark did not start"
t_roced_start "$ns" "$top_srcdir/tests/fixtures/dcbx/switch.conf" \
	"mirroring roced's tc objects"
# The fast start: wait for three frames out (no time assumed); tshark
# may miss the first, sent while the link comes up.
for _ in $(seq 600); do
	n=$(in_ns "$rocesh" -c 'show lldp traffic json' |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["total"]["frames-out"])')
	[ "$n" -ge 3 ] && break
	sleep 0.05
done
[ "$n" -ge 3 ] || t_fail "roced sent $n LLDPDUs"
t_roced_stop
# tshark writes what it has when it is stopped; give the last frame a
# moment to be captured (what is checked is what was captured).
sleep 1
t_stop "$ts_pid" INT || true
[ -s "$tmp/cap.pcapng" ] || t_fail "nothing captured"

F="-e lldp.chassis.id.mac -e lldp.port.id -e lldp.time_to_live"
F="$F -e lldp.port.desc -e lldp.tlv.system.name -e lldp.dcbx.ieee.willing"
F="$F -e lldp.dcbx.feature.pfc.prio3 -e lldp.dcbx.feature.pfc.prio4"
F="$F -e lldp.dcbx.ieee.pfc.numtcs -e lldp.dcbx.feature.pg.per0"
F="$F -e lldp.dcbx.feature.pg.per3 -e lldp.dcbx.feature.pg.per1"
F="$F -e lldp.dcbx.ieee.ets.tsa0 -e lldp.dcbx.ieee.ets.tsa3"
F="$F -e lldp.dcbx.ieee.app.prio -e lldp.dcbx.iee.app.sf"
F="$F -e lldp.dcbx.feature.app.proto -e lldp.ieee.802_1.subtype"
# shellcheck disable=SC2086
tshark -r "$tmp/cap.pcapng" -T fields -E separator='|' $F \
	>"$tmp/fields" 2>/dev/null || t_fail "tshark cannot read the capture"
t_show_on_fail "tshark fields" "$tmp/fields"
python3 - "$tmp/fields" "$mac" <<'PY' || t_fail "the frames do not say what the configuration implies"
import sys
rows = [l.rstrip('\n').split('|') for l in open(sys.argv[1]) if l.strip()]
mac = sys.argv[2]
names = ['chassis', 'port', 'ttl', 'desc', 'sysname', 'willing', 'pfc3',
         'pfc4', 'pfccap', 'bw0', 'bw3', 'bw1', 'tsa0', 'tsa3', 'appprio',
         'appsel', 'appproto', 'subtypes']
frames = [dict(zip(names, r)) for r in rows]
assert len(frames) >= 3, frames
data, last = frames[:-1], frames[-1]
for f in data:
    assert f['chassis'] == mac and f['port'] == 'swp1', f
    assert f['ttl'] == '10', f                      # lldp holdtime 10
    assert f['desc'] == 'Ethernet1/1', f            # the NX-OS alias
    assert f['sysname'], f
    # ETS Configuration, ETS Recommendation, PFC, APP
    assert [int(s, 0) for s in f['subtypes'].split(',')] == [9, 10, 11, 12], f
    assert f['willing'] == '0,0', f                 # ETS cfg and PFC
    assert f['pfc3'] == '1' and f['pfc4'] == '0', f # pause pfc-cos 3
    assert f['pfccap'] == '8', f
    assert f['bw0'] == '50,50' and f['bw3'] == '50,50', f  # cfg and rec
    assert f['bw1'] == '0,0', f
    assert f['tsa0'] == '2,2' and f['tsa3'] == '2,2', f    # ETS
    assert f['appprio'] == '3' and f['appsel'] == '5', f   # DSCP -> 3
    assert int(f['appproto'], 0) == 26, f
# The shutdown frame: TTL 0, mandatory TLVs only.
assert last['ttl'] == '0' and last['port'] == 'swp1', last
assert not last['subtypes'] and not last['sysname'], last
PY
tshark -r "$tmp/cap.pcapng" -q -z expert >"$tmp/expert" 2>/dev/null || t_fail "tshark -z expert failed"
t_show_on_fail "tshark -z expert" "$tmp/expert"
if grep -qi "malformed\|Errors (" "$tmp/expert"; then
	t_fail "tshark reports malformed frames or errors"
fi
echo "ok: dcbx_tshark ($(wc -l <"$tmp/fields") frames decoded)"
