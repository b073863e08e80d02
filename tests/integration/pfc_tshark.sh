#!/bin/sh
# pfc_tshark: tshark, an independent dissector, reads the PFC and link
# pause frames roced's codec encodes (through the storm injector's --pcap
# output) as what they are meant to be: opcode, class-enable vector and
# each priority's pause time; and the injector puts on the wire of a veth
# what it says it sends (captured on the peer, counted by tshark).
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/integration/lib.sh"
t_init pfc_tshark
storm="$top_builddir/tests/tools/pfc_storm"

command -v tshark >/dev/null 2>&1 ||
	t_skip "tshark not installed (scripts/install-deps.sh --test)"
[ -x "$storm" ] || t_fail "$storm not built (make check builds it)"

# fields FILE: what tshark sees in the first frame, one line.
fields()
{
	tshark -r "$1" -T fields -E separator=' ' -e macc.opcode \
		-e macc.cbfc.enbv -e macc.cbfc.pause_time.c0 \
		-e macc.cbfc.pause_time.c3 -e macc.cbfc.pause_time.c4 \
		-e macc.cbfc.pause_time.c7 -e macc.pause_time 2>"$t_tmp/err" |
		head -n 1
}
t_show_on_fail "tshark's errors" "$t_tmp/err"

# expect ARGS... -- WANT: the injector's frame with ARGS, dissected.
expect()
{
	args=
	while [ "$1" != "--" ]; do
		args="$args $1"
		shift
	done
	shift
	# shellcheck disable=SC2086
	"$storm" -w "$t_tmp/f.pcap" $args >/dev/null ||
		t_fail "pfc_storm$args failed"
	got=$(fields "$t_tmp/f.pcap")
	[ "$got" = "$*" ] || t_fail "pfc_storm$args: tshark reads '$got', expected '$*'"
	echo "ok: pfc_storm$args -> $got"
}

# PFC: opcode 0x0101, vector bit n = priority n, a time per priority.
expect -p 3 -q 65535 -- "0x0101 0x0008 0 65535 0 0 "
expect -p 3,4 -q 0 -- "0x0101 0x0018 0 0 0 0 "
expect -p 0-7 -q 4660 -- "0x0101 0x00ff 4660 4660 4660 4660 "
expect -p 7 -q 1 -- "0x0101 0x0080 0 0 0 1 "
# 802.3x link pause: opcode 0x0001 and one pause time.
expect -k pause -q 4096 -- "0x0001      4096"

# On the wire: 50 frames at 1000/s through a veth, captured on its peer.
t_need_root
t_netns_add ns tshark
$IP -n "$ns" link add pa type veth peer name pb
$IP -n "$ns" link set pa up
$IP -n "$ns" link set pb up
t_spawn ip netns exec "$ns" tshark -i pb -w "$t_tmp/wire.pcap" -f "ether proto 0x8808" -q
cap=$t_pid
# tshark is capturing once it has created its file.
i=0
while [ ! -s "$t_tmp/wire.pcap" ] && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ -s "$t_tmp/wire.pcap" ] || t_fail "tshark did not start capturing"
sleep 1
ip netns exec "$ns" "$storm" -i pa -p 3 -q 100 -r 1000 -n 50 -t 10 >"$t_tmp/out" ||
	t_fail "pfc_storm on a veth failed: $(cat "$t_tmp/out")"
sleep 1
t_stop "$cap" INT >/dev/null || true
n=$(tshark -r "$t_tmp/wire.pcap" -Y 'macc.opcode == 0x0101 && macc.cbfc.pause_time.c3 == 100' 2>/dev/null | wc -l)
[ "$n" = 50 ] || t_fail "captured $n PFC frames on the peer, expected 50 ($(cat "$t_tmp/out"))"
echo "ok: 50 PFC frames on the wire"
echo "pfc_tshark: ok"
