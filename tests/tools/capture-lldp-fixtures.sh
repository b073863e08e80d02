#!/bin/bash
# capture-lldp-fixtures.sh: record LLDPDUs that lldpd and lldpad send, as
# hex, into tests/fixtures/lldp/lldpd.hex and lldpad.hex. test_lldp
# decodes them (and the fuzz target takes them as seeds).
#
# Usage: tests/tools/capture-lldp-fixtures.sh [OUTDIR]     (as root)
#
# How: a scratch network namespace holds a veth pair lf0/lf1; lldpd runs
# on lf0 only (its own control socket and configuration file, so that a
# host lldpd is left alone) and dumpcap records what arrives on lf1. The
# configuration makes lldpd add 802.1Qaz TLVs as custom TLVs (lldpd has
# no DCBX of its own: it sends the bytes it is given):
#   PFC Configuration  (subtype 11): not willing, cap 8, PFC on priority 3
#   ETS Configuration  (subtype 9):  not willing, 8 TCs, priority 3 -> TC 3,
#                                    TC 0 and TC 3 50 % each, ETS
#   Application Priority (12):       DSCP 26 -> 3, UDP 4791 -> 3
# Frame 1 is lldpd's first LLDPDU with those TLVs; frame 2 is the
# shutdown LLDPDU (TTL 0) it sends when it stops.
#
# lldpad runs next on the same pair (its own /dev/shm and UTS namespace,
# hostname fixture-host; no PID file). lldptool turns LLDP and the
# optional TLVs on; lldpad refuses DCBX on veth ("Device not capable"),
# so its DCBX TLVs cannot be captured: lldpad.hex line 3 is line 1 with
# the IEEE DCBX TLVs added by hand as lldpad's builders lay them out
# (lldp_8021qaz.c, bld_ieee8021qaz_*_tlv) with its defaults: ETS and PFC
# willing, PFC off, and an APP TLV without entries (what lldpad sends for
# a port that has none). Line 2 is the shutdown LLDPDU lldpad sends when
# adminStatus goes to disabled, with its Ethernet padding.
#
# Output: "#" comment lines (tool versions, what each line is), then one
# line of lowercase hex per LLDPDU (the frame without its Ethernet
# header: destination, source and EtherType 88cc).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../fixtures/lldp}
ns=roced-lldpcap-$$

for tool in lldpd lldpcli lldpad lldptool unshare dumpcap ip python3; do
	command -v "$tool" >/dev/null || {
		echo "capture-lldp-fixtures: $tool not found" >&2
		exit 1
	}
done
[ "$(id -u)" = 0 ] || {
	echo "capture-lldp-fixtures: needs root (network namespaces)" >&2
	exit 1
}

tmp=$(mktemp -d)
lpid=
dpid=
cleanup() {
	[ -n "$lpid" ] && kill "$lpid" 2>/dev/null && wait "$lpid" 2>/dev/null
	[ -n "$dpid" ] && kill "$dpid" 2>/dev/null && wait "$dpid" 2>/dev/null
	ip netns del "$ns" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

ip netns add "$ns"
ip -n "$ns" link add lf0 address 02:00:00:00:00:0a type veth peer name lf1 \
	address 02:00:00:00:00:0b
ip -n "$ns" link set lf0 up
ip -n "$ns" link set lf1 up

cat >"$tmp/lldpd.conf" <<'EOF'
configure system hostname fixture-sw
configure system description "roced fixture capture"
configure lldp tx-interval 1
configure lldp custom-tlv oui 00,80,c2 subtype 9 oui-info 00,00,03,00,00,32,00,00,32,00,00,00,00,02,00,00,02,00,00,00,00
configure lldp custom-tlv oui 00,80,c2 subtype 11 oui-info 08,08
configure lldp custom-tlv oui 00,80,c2 subtype 12 oui-info 00,65,00,1a,63,12,b7
EOF

chmod 755 "$tmp"
ip netns exec "$ns" dumpcap -q -i lf1 -f "ether proto 0x88cc" \
	-w "$tmp/cap.pcap" 2>"$tmp/dumpcap.err" &
dpid=$!
sleep 1
ip netns exec "$ns" lldpd -d -I lf0 -u "$tmp/lldpd.sock" \
	-O "$tmp/lldpd.conf" -S "roced fixture capture" 2>"$tmp/lldpd.err" &
lpid=$!
# Wait for a frame that carries the PFC TLV (lldpd applies its
# configuration after its first LLDPDU), then stop lldpd for its
# shutdown LLDPDU.
for _ in $(seq 1 30); do
	sleep 1
	[ -s "$tmp/cap.pcap" ] || continue
	python3 - "$tmp/cap.pcap" <<'EOF' && break
import sys
d = open(sys.argv[1], "rb").read()
sys.exit(0 if bytes.fromhex("fe06 0080c2 0b 0808".replace(" ", "")) in d else 1)
EOF
done
kill "$lpid"
wait "$lpid" 2>/dev/null || true
lpid=
sleep 1
kill "$dpid"
wait "$dpid" 2>/dev/null || true
dpid=

mkdir -p "$out"
python3 - "$tmp/cap.pcap" "$out/lldpd.hex" "$(lldpd -v)" <<'EOF'
import struct, sys
pcap, dst, ver = sys.argv[1:4]
data = open(pcap, "rb").read()
frames = []
# pcapng (dumpcap's default): Enhanced Packet Blocks (type 6).
pos = 0
while pos + 12 <= len(data):
    btype, blen = struct.unpack_from("<II", data, pos)
    if btype == 6:
        caplen = struct.unpack_from("<I", data, pos + 20)[0]
        frames.append(data[pos + 28:pos + 28 + caplen])
    pos += blen
pfc = bytes.fromhex("fe060080c20b0808")
with_dcbx = [f for f in frames if pfc in f]
shutdown = [f for f in frames if f[14:].find(bytes.fromhex("0602 0000")) > 0]
if not with_dcbx or not shutdown:
    sys.exit("capture-lldp-fixtures: frames missing (%d captured)" % len(frames))
with open(dst, "w") as o:
    o.write("# LLDPDUs sent by lldpd %s over a veth pair, captured with\n" % ver)
    o.write("# dumpcap by tests/tools/capture-lldp-fixtures.sh (see there for\n")
    o.write("# lldpd's configuration). One LLDPDU per line, without the\n")
    o.write("# Ethernet header (01:80:c2:00:00:0e <- 02:00:00:00:00:0a, 88cc).\n")
    o.write("# 1: an LLDPDU with the DCBX custom TLVs\n")
    o.write("# 2: the shutdown LLDPDU (TTL 0) lldpd sent when it stopped\n")
    for f in (with_dcbx[0], shutdown[-1]):
        assert f[12:14] == b"\x88\xcc"
        o.write(f[14:].hex() + "\n")
print("wrote", dst)
EOF

# --- lldpad ---
rm -f "$tmp/cap.pcap"
ip netns exec "$ns" dumpcap -q -i lf1 -f "ether proto 0x88cc" \
	-w "$tmp/cap.pcap" 2>"$tmp/dumpcap.err" &
dpid=$!
sleep 1
ip netns exec "$ns" unshare -m -u sh -c "mount -t tmpfs tmpfs /dev/shm &&
	hostname fixture-host && exec lldpad -p -t -f '$tmp/lldpad.conf'" \
	>"$tmp/lldpad.out" 2>&1 &
lpid=$!
sleep 2
lt() { ip netns exec "$ns" lldptool "$@" >/dev/null; }
lt -L -i lf0 adminStatus=rxtx
for tlv in portDesc sysName sysCap; do
	lt -T -i lf0 -V "$tlv" enableTx=yes
done
sleep 3
lt -L -i lf0 adminStatus=disabled
sleep 2
kill "$lpid"
wait "$lpid" 2>/dev/null || true
lpid=
kill "$dpid"
wait "$dpid" 2>/dev/null || true
dpid=

python3 - "$tmp/cap.pcap" "$out/lldpad.hex" "$(lldpad -v | head -1)" <<'EOF'
import struct, sys
pcap, dst, ver = sys.argv[1:4]
data = open(pcap, "rb").read()
frames = []
pos = 0
while pos + 12 <= len(data):
    btype, blen = struct.unpack_from("<II", data, pos)
    if btype == 6:
        caplen = struct.unpack_from("<I", data, pos + 20)[0]
        frames.append(data[pos + 28:pos + 28 + caplen][14:])
    pos += blen
ttl0 = bytes.fromhex("06020000")
live = [f for f in frames if f.find(ttl0) < 0 and b"fixture-host" in f]
dead = [f for f in frames if f.find(ttl0) > 0]
if not live or not dead:
    sys.exit("capture-lldp-fixtures: lldpad frames missing (%d captured)"
             % len(frames))
pdu = live[-1]  # the last: every TLV turned on by then
assert pdu.endswith(b"\0\0")
dcbx = bytes.fromhex(
    # ETS Configuration: willing, CBS 0, max TCs 8 (0); all priorities
    # in TC 0; TC 0 100 %; TSA ETS on TC 0, strict elsewhere
    "fe190080c209" "80" "00000000" "6400000000000000" "0200000000000000"
    # PFC Configuration: willing, MBC 0, cap 8; PFC off
    "fe060080c20b" "88" "00"
    # Application Priority: the reserved byte, no entries
    "fe050080c20c" "00")
with open(dst, "w") as o:
    o.write("# LLDPDUs of %s over a veth pair, captured with dumpcap by\n" % ver)
    o.write("# tests/tools/capture-lldp-fixtures.sh (see there). Without the\n")
    o.write("# Ethernet header (01:80:c2:00:00:0e <- 02:00:00:00:00:0a, 88cc).\n")
    o.write("# 1: captured: chassis and port ID MAC, TTL 120, port\n")
    o.write("#    description, system name fixture-host, capabilities\n")
    o.write("# 2: captured: the shutdown LLDPDU (TTL 0) and the frame's padding\n")
    o.write("# 3: NOT captured (lldpad refuses DCBX on veth): line 1 plus, by\n")
    o.write("#    hand, lldpad's default IEEE DCBX TLVs as its builders lay\n")
    o.write("#    them out: ETS willing (TC 0 100 %), PFC willing cap 8 off,\n")
    o.write("#    APP without entries\n")
    o.write(pdu.hex() + "\n")
    o.write(dead[-1].hex() + "\n")
    o.write((pdu[:-2] + dcbx + b"\0\0").hex() + "\n")
print("wrote", dst)
EOF
