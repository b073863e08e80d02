#!/bin/sh
# lldp_caps: the System Capabilities TLV both ways, with lldpd as the
# neighbour and tshark as an independent decoder.
#
# The rig: one namespace, roced on swp1 (a port of the Linux bridge br0)
# and swp2 (no bridge), lldpd on their veth peers lp1 and lp2, set to
# advertise bridge and router enabled, and tshark capturing lp1 and lp2.
#   - roced says what it is on each port: bridge (enabled) on swp1, as a
#     switch does; station (enabled) on swp2, as a host does: read by
#     tshark from the frames and by lldpd (`lldpcli show neighbors`);
#   - `show lldp neighbors` fills NX-OS's Capability column from lldpd's
#     TLV ("BR"), its legend above the table, and the detail view and
#     the JSON carry the same;
#   - swp2 joins br0 while roced runs: its next frames say bridge.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
t_init lldp_caps
t_need_root
command -v lldpd >/dev/null || t_skip "lldpd is not installed (scripts/install-deps.sh --test)"
command -v tshark >/dev/null || t_skip "tshark is not installed (scripts/install-deps.sh --test)"
[ -x "$rocesh" ] || t_skip "rocesh is not built"
tmp=$t_tmp
t_veth_ns ns lldpcap swp1 lp1
in_ns() { "$IP" netns exec "$ns" "$@"; }
in_ns "$IP" link add swp2 type veth peer name lp2
in_ns "$IP" link set swp2 up
in_ns "$IP" link set lp2 up
in_ns "$IP" link add br0 type bridge
in_ns "$IP" link set swp1 master br0
in_ns "$IP" link set br0 up

t_conf_ports "$tmp/roced.conf" swp1 swp2

# tshark first, so that it sees roced's fast start.
t_show_on_fail "tshark" "$tmp/tshark.err"
# (the capture filter before the interfaces: it is then each one's)
t_spawn "$IP" netns exec "$ns" tshark -q -f "ether proto 0x88cc" \
	-i lp1 -i lp2 -w "$tmp/cap.pcapng" 2>"$tmp/tshark.err"
ts_pid=$t_pid
t_until 30 grep -q "Capturing on" "$tmp/tshark.err" || t_fail "tshark did not start"

# lldpd's unprivileged half reaches its socket and configuration as
# _lldpd: a directory it may enter.
chmod 711 "$tmp"
mkdir -m 755 "$tmp/ld"
cat >"$tmp/ld/lldpd.conf" <<'CONF'
configure lldp tx-interval 1
configure system hostname lldpd-peer
configure system capabilities enabled bridge,router
CONF
chmod 644 "$tmp/ld/lldpd.conf"
t_show_on_fail "lldpd" "$tmp/lldpd.log"
t_spawn "$IP" netns exec "$ns" lldpd -d -u "$tmp/ld/lldpd.sock" -I lp1,lp2 \
	-O "$tmp/ld/lldpd.conf" >"$tmp/lldpd.log" 2>&1
t_until 30 grep -q "resume operations" "$tmp/lldpd.log" || t_fail "lldpd did not start"

t_roced_start "$ns" "$tmp/roced.conf" "mirroring roced's tc objects"

# --- roced's view of lldpd: the Capability column ---
both() {
	in_ns "$rocesh" -c 'show lldp neighbors json' >"$tmp/nbr.json" &&
		[ "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["neighbors"]))' "$tmp/nbr.json")" = 2 ]
}
t_until 30 both || t_fail "roced did not hear lldpd on swp1 and swp2"
t_show_on_fail "show lldp neighbors json" "$tmp/nbr.json"
python3 - "$tmp/nbr.json" <<'PY' || t_fail "show lldp neighbors json: wrong capabilities"
import json, sys
for n in json.load(open(sys.argv[1]))['neighbors']:
    assert n['system-name'] == 'lldpd-peer', n
    assert n['capability'] == 'BR', n
PY
in_ns "$rocesh" -c 'show lldp neighbors' >"$tmp/nbr.txt"
t_show_on_fail "show lldp neighbors" "$tmp/nbr.txt"
grep -qx 'Capability codes:' "$tmp/nbr.txt" || t_fail "no legend"
grep -qx '  (R) Router, (B) Bridge, (T) Telephone, (C) DOCSIS Cable Device' \
	"$tmp/nbr.txt" || t_fail "the legend's first line differs from NX-OS's"
for port in Ethernet1/1 Ethernet1/2; do
	# Device ID, Local Intf, Hold-time, Capability, Port ID
	awk -v p="$port" '$2 == p && $4 == "BR" { ok = 1 } END { exit !ok }' \
		"$tmp/nbr.txt" || t_fail "$port: no BR in the Capability column"
done
in_ns "$rocesh" -c 'show lldp neighbors interface ethernet 1/1 detail' \
	>"$tmp/detail.txt"
t_show_on_fail "show lldp neighbors ... detail" "$tmp/detail.txt"
grep -qx 'Enabled Capabilities: B, R' "$tmp/detail.txt" ||
	t_fail "detail: no 'Enabled Capabilities: B, R'"
grep -q '^System Capabilities: .*B' "$tmp/detail.txt" ||
	t_fail "detail: no bridge among the System Capabilities"

# --- lldpd's view of roced: a bridge on swp1, a station on swp2 ---
# caps PORT: "cap=enabled ..." of roced's chassis as lldpd heard it on
# lldpd's interface PORT.
caps() {
	in_ns lldpcli -u "$tmp/ld/lldpd.sock" -f json show neighbors details \
		>"$tmp/ld.json" 2>/dev/null || return 1
	python3 - "$tmp/ld.json" "$1" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))['lldp']['interface']
ifs = j if isinstance(j, list) else [j]
for i in ifs:
    for name, v in i.items():
        if name != sys.argv[2]:
            continue
        ch = list(v['chassis'].values())[0]
        cap = ch.get('capability', [])
        cap = cap if isinstance(cap, list) else [cap]
        print(' '.join(sorted('%s=%s' % (c['type'], c['enabled']) for c in cap)))
PY
}
ok=0
for _ in $(seq 300); do
	c1=$(caps lp1 || true)
	c2=$(caps lp2 || true)
	case "$c1/$c2" in *Bridge=True*/*Station=True*) ok=1; break ;; esac
	sleep 0.1
done
t_show_on_fail "lldpcli show neighbors" "$tmp/ld.json"
[ "$ok" = 1 ] || t_fail "lldpd hears swp1 as '$c1' (want bridge enabled), swp2 as '$c2' (want station enabled)"
case "$c1" in *Station=True*) t_fail "swp1 (bridged) says station enabled: $c1" ;; esac
case "$c2" in *Bridge=True*) t_fail "swp2 (not bridged) says bridge enabled: $c2" ;; esac

# --- swp2 joins the bridge: roced says so at once ---
in_ns "$IP" link set swp2 master br0
ok=0
for _ in $(seq 300); do
	c2=$(caps lp2 || true)
	case "$c2" in *Bridge=True*) ok=1; break ;; esac
	sleep 0.1
done
[ "$ok" = 1 ] || t_fail "swp2 joined br0, lldpd still hears '$c2'"

t_roced_stop
sleep 1
t_stop "$ts_pid" INT || true
[ -s "$tmp/cap.pcapng" ] || t_fail "nothing captured"

# --- tshark's decoding of roced's frames (source: swp1's or swp2's MAC) ---
mac1=$t_mac
mac2=$(in_ns cat /sys/class/net/swp2/address)
tshark -r "$tmp/cap.pcapng" -T fields -E separator='|' \
	-e eth.src -e lldp.time_to_live -e lldp.tlv.system_cap.bridge \
	-e lldp.tlv.system_cap.station_only -e lldp.tlv.enable_system_cap.bridge \
	-e lldp.tlv.enable_system_cap.station_only -e frame.protocols \
	-Y "lldp && (eth.src == $mac1 || eth.src == $mac2)" \
	>"$tmp/fields" 2>"$tmp/tshark-r.err" || t_fail "tshark cannot read the capture: $(cat "$tmp/tshark-r.err")"
t_show_on_fail "tshark fields" "$tmp/fields"
python3 - "$tmp/fields" "$mac1" "$mac2" <<'PY' || t_fail "tshark does not read the capabilities roced means"
import sys
rows = [l.rstrip('\n').split('|') for l in open(sys.argv[1]) if l.strip()]
mac1, mac2 = sys.argv[2], sys.argv[3]
live = [r for r in rows if r[1] != '0']   # the shutdown frames: no TLV
one = [r for r in live if r[0] == mac1]
two = [r for r in live if r[0] == mac2]
assert one and two, rows
# swp1, a bridge port all along: bridge supported and enabled, no station.
for r in one:
    assert r[2:6] == ['1', '0', '1', '0'], r
# swp2: a station first (able to bridge), a bridge once it joined br0.
assert two[0][2:6] == ['1', '1', '0', '1'], two[0]
assert two[-1][2:6] == ['1', '0', '1', '0'], two[-1]
PY
echo "ok: lldp_caps"
