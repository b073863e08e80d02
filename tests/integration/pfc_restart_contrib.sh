#!/bin/sh
# pfc_restart_contrib: a roced that starts while a no-drop queue is
# already above xoff pauses only the port that feeds it, not the
# bystanders.
#
# The switch is a namespace with a bridge of four veth ports (swp1-4),
# roced on the shipped file (its interface block per port, queue 3
# shaped to 40 Mb/s, priority 3's pause thresholds set, the watchdog
# off: this test is about where pause goes). The hosts h1-h4 run no
# roced: a pause does not stop them, so the queue stays congested. h1
# sends DSCP 26 to h3 at twice the shape, h2 (the bystander) to h4 at
# a tenth of it, all along. Checked:
#   1. the first roced pauses swp1 and not swp2 (the counting works);
#   2. it is killed (-9) while swp3's queue 3 is above xoff, and a new
#      roced is started on the same file: the queue is still above xoff
#      when it looks first. It pauses swp1, and neither swp2 nor swp4
#      (its own TxPPP counters, which start at 0).
# A roced's per-ingress counts begin with it: before it waited one poll
# for them, its first decision saw nothing counted and paused every
# port of the bridge, the bystander included.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/integration/lib.sh"
. "$top_srcdir/tests/integration/lib_contrib.sh"
t_init pfc_restart_contrib
t_need_root
t_need_bpf "pausing only the ports that feed a congested queue"
traffic="$top_builddir/tests/tools/traffic"
[ -x "$traffic" ] || t_fail "test tools not built (make check builds them)"
[ -x "$rocesh" ] || t_fail "rocesh is not built"
tmp=$t_tmp
pps=5000
shape_kbps=$((pps * 8))
xoff=300000

contrib_bridge rc 4
# The bridge learns every host's address beforehand (an unknown one is
# flooded, into the congested queue too).
mac() { $IP -n "$1" -j link show dev "$2" | python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["address"])'; }
for h in 1 2 3 4; do
	eval "ns=\$h$h"
	m=$(mac "$ns" "eth$h")
	eval "mac$h=\$m"
	bridge -n "$sw" fdb replace "$m" dev "swp$h" master static
done
for h in 1 2 3 4; do
	eval "ns=\$h$h"
	for o in 1 2 3 4; do
		[ "$o" = "$h" ] && continue
		eval "m=\$mac$o"
		$IP -n "$ns" neigh replace "10.79.0.$o" lladdr "$m" dev "eth$h" nud permanent
	done
done

contrib_switch_conf "$tmp/sw.conf" "$shape_kbps" "$xoff" swp1 swp2 swp3 swp4

ppp() { # PORT: the port's tx-pause from the switch's json show
	$IP netns exec "$sw" "$rocesh" -c "show interface priority-flow-control json" |
		python3 -c '
import json, sys
for i in json.load(sys.stdin).get("interface", []):
    if i.get("name") == sys.argv[1]:
        print(i.get("tx-pause", -1)); sys.exit(0)
print(-1)' "$1"
}
backlog3() { # swp3's queue 3 backlog, bytes (its software PFC leaf)
	$TC -n "$sw" -s -j qdisc show dev swp3 | python3 -c '
import json, sys
for q in json.load(sys.stdin):
    if q.get("handle") == "4713:":
        print(q.get("backlog", 0)); sys.exit(0)
print(0)'
}
paused1() { [ "$(ppp swp1)" -gt 0 ]; }

t_roced_start "$sw" "$tmp/sw.conf" "mirroring roced's tc objects" -D watchdog
grep -q "cannot count what each port feeds" "$t_tmp/log" &&
	t_fail "the switch cannot count what each port feeds: $(grep 'cannot count' "$t_tmp/log")"

t_spawn $IP netns exec "$h1" "$traffic" send 10.79.0.3 -T 0x68 -r $((pps * 2)) -t 60 -s 1000 -b 32768 -f 1 >"$tmp/nd1"
s1=$t_pid
t_spawn $IP netns exec "$h2" "$traffic" send 10.79.0.4 -T 0x68 -r $((pps / 10)) -t 60 -s 1000 -b 32768 -f 2 >"$tmp/nd2"
s2=$t_pid

# 1. the first roced.
t_until 30 paused1 || t_fail "the first roced never paused swp1: $(cat "$t_tmp/log")"
by=$(ppp swp2)
echo "first roced: swp1 TxPPP $(ppp swp1), swp2 (the bystander) TxPPP $by"
[ "$by" = 0 ] || t_fail "the first roced paused the bystander swp2 ($by): the counts do not work here"

# 2. killed while the queue is above xoff, started again.
t_stop "$roced_pid" KILL || true
t_until 10 sh -c "[ -z \"\$($IP netns pids $sw)\" ]" ||
	t_fail "roced's guard did not go: $($IP netns pids "$sw")"
b=$(backlog3)
echo "swp3's queue 3 holds $b bytes with no roced (xoff $xoff)"
[ "$b" -gt "$xoff" ] || t_fail "swp3's queue 3 is not above xoff ($b bytes): the rig did not congest it"
mv "$t_tmp/log" "$tmp/first.log"
t_show_on_fail "the first roced's log" "$tmp/first.log"
t_roced_start "$sw" "$tmp/sw.conf" "mirroring roced's tc objects" -D watchdog
t_until 30 paused1 || t_fail "the restarted roced never paused swp1"
sleep 2
tx1=$(ppp swp1)
tx2=$(ppp swp2)
tx4=$(ppp swp4)
echo "restarted roced: swp1 TxPPP $tx1, swp2 (the bystander) $tx2, swp4 $tx4"
grep 'pause to the ports that feed it' "$t_tmp/log" | head -3
[ "$tx2" = 0 ] || t_fail "the restarted roced paused the bystander swp2 ($tx2 frames)"
[ "$tx4" = 0 ] || t_fail "the restarted roced paused swp4, which feeds nothing into swp3 ($tx4 frames)"
t_stop "$s1" || true
t_stop "$s2" || true
t_roced_stop
echo "pfc_restart_contrib: ok"
