#!/bin/sh
# lldp_tshark: Wireshark, an independent decoder, reads the LLDP frames
# roced's encoder produces (tests/tools/lldp_pcap) with the values their
# configuration implies, and finds nothing malformed in them:
#   frame 1, the switch: not willing, PFC on priority 3, ETS 50/50 between
#     TC 0 and TC 3 (configuration and recommendation), APP DSCP 26 -> 3
#     and UDP 4791 -> 3, system name, an IPv4 management address;
#   frame 2, a host: willing ETS and PFC, PFC off;
#   frame 3, the switch's shutdown LLDPDU (TTL 0, mandatory TLVs only).
# It also has Wireshark read the hand-built legacy CEE LLDPDU of
# tests/fixtures/lldp/legacy.hex, the field layout of which test_lldp
# relies on, the lldpd captures, and roced's own PFC wait chains TLV
# (tests/fixtures/lldp/pfcdl.hex line 1), which Wireshark reads as an
# organisationally specific TLV of an OUI it does not know. A deliberately malformed LLDPDU
# shows that `tshark -z expert` does report what it cannot read.
#
# Wireshark's LLDP dissector reports the last three bytes of every
# LLDPDU as an Ethernet "Trailer" (also for lldpd's own frames): a quirk
# of its length accounting, not bytes that roced sends; this test does
# not look at it.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=.}"
. "$top_srcdir/tests/integration/lib.sh"
t_init lldp_tshark

tool=$top_builddir/tests/tools/lldp_pcap
[ -x "$tool" ] || t_skip "$tool is not built (make check builds it)"
command -v tshark >/dev/null 2>&1 ||
	t_skip "tshark is not installed (scripts/install-deps.sh --test)"

# tshark's field names changed over the years (the APP selector field is
# misspelt "iee" in 3.x/4.0); take the name this tshark has.
tshark -G fields 2>/dev/null | cut -f3 >"$t_tmp/fields"
has_field() { grep -qx "$1" "$t_tmp/fields"; }
sf=lldp.dcbx.ieee.app.sf
has_field "$sf" || sf=lldp.dcbx.iee.app.sf
for f in lldp.dcbx.ieee.willing lldp.dcbx.feature.pfc.prio3 \
	lldp.dcbx.feature.pg.per3 lldp.dcbx.ieee.ets.tsa3 "$sf" \
	lldp.dcbx.feature.app.proto lldp.dcbx.control.seq; do
	has_field "$f" || t_fail "this tshark has no field $f ($(tshark -v | head -1))"
done

checks=0
# check PCAP FRAME FIELD EXPECTED: one field of one frame, all its
# occurrences joined by ","; noted here, verified by verify PCAP (one
# tshark run per capture: the machine is shared).
check()
{
	printf '%s\t%s\t%s\n' "$2" "$3" "$4" >>"$1.want"
}
verify()
{
	fields=$(cut -f2 "$1.want" | sort -u)
	# shellcheck disable=SC2046,SC2086 # one -e per field
	tshark -r "$1" -T fields -E aggregator=, -E separator=/t -E header=y \
		$(printf -- '-e %s ' $fields) >"$1.got" 2>/dev/null ||
		t_fail "tshark cannot read $(basename "$1")"
	while IFS='	' read -r frame field want; do
		checks=$((checks + 1))
		got=$(awk -F'\t' -v fr="$frame" -v f="$field" '
			NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
			NR == fr + 1 { print $col[f] }' "$1.got")
		[ "$got" = "$want" ] ||
			t_fail "frame $frame of $(basename "$1"): $field is '$got', expected '$want'"
	done <"$1.want"
}

# no_expert PCAP [WHAT]: tshark has no error or warning (WHAT: a regex
# of the kinds to look at) about any frame.
no_expert()
{
	checks=$((checks + 1))
	tshark -r "$1" -q -z expert 2>/dev/null >"$t_tmp/expert"
	if grep -qE "^(${2:-Errors|Warns}) \(" "$t_tmp/expert"; then
		t_show_on_fail "tshark -z expert" "$t_tmp/expert"
		t_fail "tshark reports problems in $(basename "$1")"
	fi
}

# --- roced's frames ---
p=$t_tmp/roced.pcap
"$tool" "$p" || t_fail "lldp_pcap failed"
no_expert "$p"

check "$p" 1 lldp.chassis.id.mac 02:00:00:00:00:01
check "$p" 1 lldp.port.id swp1
check "$p" 1 lldp.time_to_live 121
check "$p" 1 lldp.port.desc "to host"
check "$p" 1 lldp.tlv.system.name roced-switch
check "$p" 1 lldp.tlv.system.desc "roced RoCEv2 switch"
check "$p" 1 lldp.tlv.system_cap.bridge 1
check "$p" 1 lldp.tlv.enable_system_cap.router 1
check "$p" 1 lldp.mgn.addr.ip4 192.0.2.1
check "$p" 1 lldp.mgn.interface.number 3
# ETS Configuration then PFC Configuration carry a willing bit.
check "$p" 1 lldp.dcbx.ieee.willing 0,0
check "$p" 1 lldp.dcbx.ieee.ets.cbs 0
check "$p" 1 lldp.dcbx.ieee.ets.maxtcs 0
# ETS Configuration, then ETS Recommendation: the same table.
for prio in 0 1 2 4 5 6 7; do
	check "$p" 1 lldp.dcbx.feature.pg.pgid_prio$prio 0,0
done
check "$p" 1 lldp.dcbx.feature.pg.pgid_prio3 3,3
check "$p" 1 lldp.dcbx.feature.pg.per0 50,50
check "$p" 1 lldp.dcbx.feature.pg.per3 50,50
for tc in 1 2 4 5 6 7; do
	check "$p" 1 lldp.dcbx.feature.pg.per$tc 0,0
	check "$p" 1 lldp.dcbx.ieee.ets.tsa$tc 0,0
done
check "$p" 1 lldp.dcbx.ieee.ets.tsa0 2,2
check "$p" 1 lldp.dcbx.ieee.ets.tsa3 2,2
# PFC: on priority 3 only, up to 8 priorities, no MACsec bypass.
check "$p" 1 lldp.dcbx.ieee.pfc.numtcs 8
check "$p" 1 lldp.dcbx.ieee.pfc.mbc 0
for prio in 0 1 2 4 5 6 7; do
	check "$p" 1 lldp.dcbx.feature.pfc.prio$prio 0
done
check "$p" 1 lldp.dcbx.feature.pfc.prio3 1
# APP: DSCP (selector 5) 26 -> 3, UDP (selector 3) 4791 -> 3.
check "$p" 1 lldp.dcbx.ieee.app.prio 3,3
check "$p" 1 "$sf" 5,3
check "$p" 1 lldp.dcbx.feature.app.proto 0x001a,0x12b7

# The host: willing for ETS and PFC, PFC off, all bandwidth in TC 0.
check "$p" 2 lldp.chassis.id.mac 02:00:00:00:00:02
check "$p" 2 lldp.port.id eth0
check "$p" 2 lldp.dcbx.ieee.willing 1,1
check "$p" 2 lldp.dcbx.feature.pg.per0 100
check "$p" 2 lldp.dcbx.feature.pfc.prio3 0
check "$p" 2 lldp.dcbx.ieee.app.prio ""

# The shutdown LLDPDU: TTL 0 and nothing but the mandatory TLVs.
check "$p" 3 lldp.time_to_live 0
check "$p" 3 lldp.chassis.id.mac 02:00:00:00:00:01
check "$p" 3 lldp.tlv.type 1,2,3,0
verify "$p"

# --- the hand-built CEE LLDPDU (legacy.hex line 1) and CIN (line 2) ---
grep -v '^#' "$top_srcdir/tests/fixtures/lldp/legacy.hex" >"$t_tmp/legacy"
c=$t_tmp/cee.pcap
"$tool" -x "$(sed -n 1p "$t_tmp/legacy")" "$c"
no_expert "$c"
check "$c" 1 lldp.dcbx.proto 0x02
check "$c" 1 lldp.dcbx.control.seq 5
check "$c" 1 lldp.dcbx.control.ack 4
check "$c" 1 lldp.dcbx.feature.enabled 1,1,1
check "$c" 1 lldp.dcbx.feature.willing 1,1,1
check "$c" 1 lldp.dcbx.feature.pg.pgid_prio3 1
check "$c" 1 lldp.dcbx.feature.pg.per0 50
check "$c" 1 lldp.dcbx.feature.pg.per1 50
check "$c" 1 lldp.dcbx.feature.pg.numtcs 0x08
check "$c" 1 lldp.dcbx.feature.pfc.prio3 1
check "$c" 1 lldp.dcbx.feature.pfc.prio4 0
check "$c" 1 lldp.dcbx.feature.pfc.numtcs 0x08
check "$c" 1 lldp.dcbx.feature.app.proto 0x12b7
check "$c" 1 lldp.dcbx.feature.app.sf 1
check "$c" 1 lldp.dcbx.feature.app.oui 0x001b21
verify "$c"
c=$t_tmp/cin.pcap
"$tool" -x "$(sed -n 2p "$t_tmp/legacy")" "$c"
no_expert "$c"
check "$c" 1 lldp.dcbx.proto 0x01
check "$c" 1 lldp.dcbx.control.seq 1
verify "$c"

# --- roced's PFC wait chains TLV (pfcdl.hex line 1): OUI 52-4F-43
# (5394243), subtype 1, 35 bytes, nothing malformed ---
grep -v '^#' "$top_srcdir/tests/fixtures/lldp/pfcdl.hex" >"$t_tmp/pfcdl"
c=$t_tmp/pfcdl.pcap
"$tool" -x "$(sed -n 1p "$t_tmp/pfcdl")" "$c"
no_expert "$c"
check "$c" 1 lldp.orgtlv.oui 5394243
check "$c" 1 lldp.unknown_subtype 1
check "$c" 1 lldp.tlv.len 7,5,2,35,0
verify "$c"

# --- lldpd's and lldpad's frames (the unit test's fixtures) read without
# errors (tshark warns that lldpd's 802.3 link aggregation TLV is
# deprecated) ---
for peer in lldpd lldpad; do
	grep -v '^#' "$top_srcdir/tests/fixtures/lldp/$peer.hex" >"$t_tmp/$peer"
	i=0
	while read -r hex; do
		i=$((i + 1))
		"$tool" -x "$hex" "$t_tmp/$peer$i.pcap"
		no_expert "$t_tmp/$peer$i.pcap" Errors
	done <"$t_tmp/$peer"
done
# lldpad's DCBX TLVs (laid out by hand): willing ETS and PFC, PFC off.
c=$t_tmp/lldpad3.pcap
check "$c" 1 lldp.dcbx.ieee.willing 1,1
check "$c" 1 lldp.dcbx.feature.pg.per0 100
check "$c" 1 lldp.dcbx.ieee.pfc.numtcs 8
check "$c" 1 lldp.dcbx.feature.pfc.prio3 0
verify "$c"

# --- the check can fail: a PFC TLV that claims 25 bytes ---
"$tool" -x 0207040200000000020405056574683006020078fe190080c20b0808 \
	"$t_tmp/bad.pcap"
tshark -r "$t_tmp/bad.pcap" -q -z expert >"$t_tmp/expert" 2>/dev/null
grep -q Malformed "$t_tmp/expert" ||
	t_fail "tshark did not report the malformed LLDPDU: -z expert finds nothing"

echo "lldp_tshark: $checks checks passed"
