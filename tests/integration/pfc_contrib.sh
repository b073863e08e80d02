#!/bin/sh
# pfc_contrib: a congested no-drop queue pauses only the ports whose
# traffic feeds it, as a switch does; a bystander that sends the same
# priority elsewhere is never paused.
#
# The switch is a namespace with a bridge of five veth ports (swp1-5),
# roced on them; five host namespaces (h1-h5) run roced on their veth.
# h1 and h2 send DSCP 26 (no-drop, PFC priority 3) to h3: the switch's
# queue 3 toward h3 is shaped to 40 Mb/s while 80 Mb/s arrives, so it
# crosses xoff and the switch pauses priority 3. h4, the bystander,
# sends DSCP 26 to h5 all along (8 Mb/s), through an egress that is not
# congested. Checked:
#   - the no-drop class loses nothing, h1 -> h3, h2 -> h3 and h4 -> h5;
#   - the switch paused swp1 and swp2 (its TxPPP; tshark, an independent
#     decoder, counts the PFC frames for priority 3 on eth1 and eth2);
#   - it sent nothing out of swp4: TxPPP 0, and tshark on eth4 counts 0
#     PFC frames; nor out of swp5 and swp3.
# Before roced counted what each port feeds, every PFC port of the
# bridge was paused, the bystander included.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/integration/lib.sh"
. "$top_srcdir/tests/integration/lib_contrib.sh"
. "$top_srcdir/tests/integration/lib_fabric.sh"
t_init pfc_contrib
t_need_root
command -v tshark >/dev/null 2>&1 ||
	t_skip "tshark not installed (scripts/install-deps.sh --test)"
t_need_bpf "pausing only the ports that feed a congested queue"
traffic="$top_builddir/tests/tools/traffic"
[ -x "$traffic" ] || t_fail "test tools not built (make check builds them)"
[ -x "$rocesh" ] || t_fail "rocesh is not built"
tmp=$t_tmp
pps=5000
secs=6
shape_kbps=$((pps * 8))
xoff=300000

contrib_bridge ct 5

# The switch: DSCP 26 alone classifies (untagged IP), queue 3 toward
# every port shaped (only swp3's is offered more than that), priority
# 3's pause thresholds set, the watchdog off (lib_contrib.sh).
contrib_switch_conf "$tmp/sw.conf" "$shape_kbps" "$xoff" swp1 swp2 swp3 swp4 swp5
# The hosts' queue 3 shaped to 1.5 x the bottleneck, as in pfc_incast:
# a held queue let go at veth speed would pile megabytes into the
# switch's between two of its polls.
for h in 1 2 3 4 5; do
	t_conf_ports "$tmp/h$h.conf" "eth$h"
	t_conf_match_any "$tmp/h$h.conf"
	sed -i 's/watch-dog-interval = true;/watch-dog-interval = false;/' "$tmp/h$h.conf"
	grep -q 'watch-dog-interval = false;' "$tmp/h$h.conf" ||
		t_fail "the shipped roced.conf no longer sets watch-dog-interval"
	fab_shape_q3 "$tmp/h$h.conf" "$((shape_kbps * 3 / 2))"
done

for n in sw h1 h2 h3 h4 h5; do t_show_on_fail "$n roced log" "$tmp/$n.log"; done
start() {
	eval "ns=\$$1"
	rt=
	command -v chrt >/dev/null && rt="chrt -f 10"
	# shellcheck disable=SC2086 # rt: none or three words
	t_spawn "$IP" netns exec "$ns" $rt "$roced" -f "$tmp/$1.conf" -D watchdog >"$tmp/$1.log" 2>&1
	for _ in $(seq 600); do
		grep -q "mirroring roced's tc objects" "$tmp/$1.log" && return 0
		sleep 0.05
	done
	t_fail "$1's roced did not start"
}
for n in sw h1 h2 h3 h4 h5; do start "$n"; done
grep -q "cannot count what each port feeds" "$tmp/sw.log" &&
	t_fail "the switch cannot count what each port feeds: $(grep 'cannot count' "$tmp/sw.log")"

# Every host says who it is, so that the bridge learns where each
# address is (unknown unicast is flooded out of every port: into the
# congested queue too), and the senders do not wait on ARP.
for h in 1 2 3 4 5; do
	eval "ns=\$h$h"
	to=$((h % 5 + 1))
	$IP netns exec "$ns" python3 -c 'import socket, sys
socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"hello", (sys.argv[1], 9))' "10.79.0.$to"
	t_until 10 sh -c "$IP -n $ns neigh show 10.79.0.$to | grep -q lladdr" ||
		t_fail "h$h cannot reach h$to (ARP)"
done

# tshark counts the PFC frames each sender receives.
for h in 1 2 4; do
	eval "ns=\$h$h"
	t_spawn "$IP" netns exec "$ns" tshark -i "eth$h" -w "$tmp/eth$h.pcap" -f "ether proto 0x8808" -q 2>"$tmp/tshark$h.err"
	t_show_on_fail "tshark eth$h" "$tmp/tshark$h.err"
done
for h in 1 2 4; do
	t_until 20 test -s "$tmp/eth$h.pcap" || t_fail "tshark did not start capturing on eth$h"
done

t_spawn $IP netns exec "$h3" "$traffic" recv -t 90 -i 8 -R "$tmp/ready3" >"$tmp/recv3"
rx3=$t_pid
t_show_on_fail "receiver h3" "$tmp/recv3"
t_spawn $IP netns exec "$h5" "$traffic" recv -t 90 -i 8 -R "$tmp/ready5" >"$tmp/recv5"
rx5=$t_pid
t_show_on_fail "receiver h5" "$tmp/recv5"
t_until 20 test -e "$tmp/ready3" || t_fail "the receiver on h3 did not start"
t_until 20 test -e "$tmp/ready5" || t_fail "the receiver on h5 did not start"

senders=
for h in 1 2; do
	eval "ns=\$h$h"
	t_spawn $IP netns exec "$ns" "$traffic" send 10.79.0.3 -T 0x68 -r "$pps" -t "$secs" -s 1000 -b 32768 -f "$h" >"$tmp/nd$h"
	senders="$senders $t_pid"
	t_show_on_fail "no-drop sender h$h" "$tmp/nd$h"
done
# A fifth of the shape: h5's own queue 3 never congests (had it, swp4 would
# rightly be paused, as the one port feeding it).
t_spawn $IP netns exec "$h4" "$traffic" send 10.79.0.5 -T 0x68 -r "$((pps / 5))" -t "$secs" -s 1000 -b 32768 -f 4 >"$tmp/nd4"
senders="$senders $t_pid"
t_show_on_fail "bystander sender h4" "$tmp/nd4"
for p in $senders; do t_wait "$p" || t_fail "a sender failed"; done
t_wait "$rx3" || t_fail "the receiver on h3 failed"
t_wait "$rx5" || t_fail "the receiver on h5 failed"
cat "$tmp/nd1" "$tmp/nd2" "$tmp/nd4" "$tmp/recv3" "$tmp/recv5"
$TC -n "$sw" -s qdisc show dev swp3 >"$tmp/swp3.qdisc"
t_show_on_fail "swp3 qdiscs (the bottleneck)" "$tmp/swp3.qdisc"
sleep 1 # the last frames reach the captures

sent=$(fab_sent "$tmp/nd1" "$tmp/nd2")
got=$(fab_got 0x68 "$tmp/recv3")
lost=$(fab_gaps 0x68 "$tmp/recv3")
[ "$lost" = 0 ] && [ "$got" = "$sent" ] ||
	t_fail "the no-drop class lost toward h3: sent $sent, received $got (lost $lost)"
sent4=$(fab_sent "$tmp/nd4")
got4=$(fab_got 0x68 "$tmp/recv5")
lost4=$(fab_gaps 0x68 "$tmp/recv5")
[ "$lost4" = 0 ] && [ "$got4" = "$sent4" ] ||
	t_fail "the bystander lost: sent $sent4, received $got4 (lost $lost4)"
echo "toward h3: sent $sent, received $got; bystander h4 -> h5: sent $sent4, received $got4"

wire() { # H: PFC pause frames for priority 3 tshark read on ethH
	tshark -r "$tmp/eth$1.pcap" -Y 'macc.opcode == 0x0101 && macc.cbfc.enbv.c3 == 1 && macc.cbfc.pause_time.c3 > 0' 2>/dev/null | wc -l
}
$IP netns exec "$sw" "$rocesh" -c "show interface priority-flow-control" | tee "$tmp/sw.pfc"
for h in 1 2; do
	tx=$(fab_show_ppp "$sw" "swp$h" tx-pause)
	w=$(wire "$h")
	echo "swp$h TxPPP $tx, on eth$h's wire $w pause frames for priority 3"
	[ "$tx" -gt 0 ] || t_fail "the switch did not pause swp$h, a contributor"
	[ "$w" -gt 0 ] || t_fail "tshark saw no pause on eth$h"
done
tx4=$(fab_show_ppp "$sw" swp4 tx-pause)
w4=$(tshark -r "$tmp/eth4.pcap" -Y 'macc.opcode == 0x0101' 2>/dev/null | wc -l)
echo "swp4 (the bystander) TxPPP $tx4, on eth4's wire $w4 PFC frames"
[ "$tx4" = 0 ] || t_fail "the switch paused the bystander swp4 ($tx4)"
[ "$w4" = 0 ] || t_fail "tshark saw $w4 PFC frames on the bystander's eth4"
for p in swp3 swp5; do
	tx=$(fab_show_ppp "$sw" "$p" tx-pause)
	[ "$tx" = 0 ] || t_fail "the switch paused $p, which feeds nothing into swp3 ($tx)"
done
echo "pfc_contrib: ok"
