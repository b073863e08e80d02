#!/bin/sh
# pfc_deadlock: a PFC deadlock on a ring of four bridges, found and
# broken by roced (issue 26 item 6). Switches s0-s3 (roced on the shipped
# switch file, its interface block for swp1-swp3, the watchdog off), each
# with a host h0-h3 (roced on the shipped host file) on swp1; the ring:
# s(i) swp2 -> s(i+1) swp3, every swp2 shaped to DEADLOCK_KBPS (default
# 10000). Ring ports neither learn nor flood (the FDB is static, so the
# ring is no broadcast loop). h(i) sends DSCP 26 to h(i+2), two hops
# clockwise, at the ring links' rate: every ring link carries two flows
# at its rate each, every swp2 queue crosses xoff and pauses swp3, which
# holds the swp2 before it: a cycle of pause, which freezes the ring (the
# issue measured it frozen after ~3 s, and frozen still after the senders
# stopped, with the watchdog off).
#
# Checks: a switch logs the cycle (ports, priority, the nodes), `show
# queuing pfc-queue json` counts it, one node broke it, the text names
# it; after the senders stop every ring queue drains (nothing is left
# frozen); senders started again at a rate the ring carries get through.
# The loss of the first phase and the time to the first detection are
# printed, not asserted (they depend on the machine's load).
# DEADLOCK_WATCHDOG=1 turns the switches' watchdog on; DEADLOCK_NOBREAK=1
# has roced only report cycles (ROCED_DEADLOCK_NOBREAK): with both,
# the watchdog alone breaks the deadlock, for comparison (then the drain
# check is a note, not a failure). DEADLOCK_KEEP=DIR keeps the logs.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/integration/lib.sh"
. "$top_srcdir/tests/integration/lib_fabric.sh"
t_init pfc_deadlock
t_need_root
traffic="$top_builddir/tests/tools/traffic"
[ -x "$traffic" ] || t_fail "test tools not built (make check builds them)"
[ -x "$rocesh" ] || t_fail "rocesh is not built"
tmp=$t_tmp
kbps=${DEADLOCK_KBPS:-10000}
secs=${DEADLOCK_SECONDS:-15}
pps=$((kbps * 1000 / 8 / 1042))
[ "$pps" -ge 10 ] || t_fail "a ring link of $kbps kb/s is too small"

for i in 0 1 2 3; do
	t_netns_add "s$i" "dls$i"
	t_netns_add "h$i" "dlh$i"
	eval "ns=\$s$i"
	$IP -n "$ns" link add br0 type bridge
	$IP -n "$ns" link set br0 up
	$IP -n "$ns" link set lo up
	eval "ns=\$h$i"
	$IP -n "$ns" link set lo up
done
for i in 0 1 2 3; do
	eval "s=\$s$i h=\$h$i"
	$IP -n "$s" link add swp1 type veth peer name eth0 netns "$h"
	$IP -n "$s" link set swp1 master br0 up
	$IP -n "$h" link set eth0 up
	$IP -n "$h" addr add "10.79.0.$((i + 1))/24" dev eth0
	eval "mac$i=\$(fab_mac \"\$h\" eth0)"
done
for i in 0 1 2 3; do
	j=$(((i + 1) % 4))
	eval "a=\$s$i b=\$s$j"
	$IP -n "$a" link add swp2 type veth peer name swp3 netns "$b"
	$IP -n "$a" link set swp2 master br0 up
	$IP -n "$b" link set swp3 master br0 up
done
# The ring is no broadcast loop: its ports neither learn nor flood, and
# every host is reached clockwise by static FDB entries.
for i in 0 1 2 3; do
	eval "s=\$s$i"
	for p in swp2 swp3; do
		bridge -n "$s" link set dev "$p" learning off flood off mcast_flood off
	done
	bridge -n "$s" link set dev swp1 flood off mcast_flood off
	for o in 0 1 2 3; do
		eval "m=\$mac$o"
		if [ "$o" = "$i" ]; then
			bridge -n "$s" fdb replace "$m" dev swp1 master static
		else
			bridge -n "$s" fdb replace "$m" dev swp2 master static
		fi
	done
	eval "h=\$h$i"
	for o in 0 1 2 3; do
		[ "$o" = "$i" ] && continue
		eval "m=\$mac$o"
		$IP -n "$h" neigh replace "10.79.0.$((o + 1))" lladdr "$m" dev eth0 nud permanent
	done
done

for i in 0 1 2 3; do
	c=$tmp/s$i.conf
	t_conf_ports "$c" swp1 swp2 swp3
	t_conf_match_any "$c"
	python3 - "$c" "$kbps" "${DEADLOCK_WATCHDOG:-}" <<'PY' || t_fail "cannot shape swp2 in the shipped roced.conf"
import sys
p, kbps, wd = sys.argv[1], sys.argv[2], sys.argv[3]
s = open(p).read()
q0 = s.index('\t\t{\n\t\t\tname = "ROCE_QUEUING_OUT";')
q1 = s.index('\n\t\t}\n', q0) + 4
blk = s[q0:q1]
shape = ' shape = { min = "1 kbps"; max = "%s kbps"; };' % kbps
b = blk.replace('"ROCE_QUEUING_OUT"', '"RING_OUT"')
a = 'bandwidth-remaining-percent = 50;'
assert b.count(a) == 2, 'the shipped ROCE_QUEUING_OUT changed'
b = b.replace(a, a + shape)
s = s[:q1].rstrip('\n') + ',\n' + b.rstrip('\n') + '\n' + s[q1:]
i = s.index('name = "swp2";')
j = s.index('queuing-output = "ROCE_QUEUING_OUT";', i)
s = s[:j] + 'queuing-output = "RING_OUT";' + s[j + len('queuing-output = "ROCE_QUEUING_OUT";'):]
if not wd:
    w = 'priority-flow-control = {\n\twatch-dog-interval = true;'
    assert w in s, 'the shipped watchdog setting changed'
    s = s.replace(w, 'priority-flow-control = {\n\twatch-dog-interval = false;')
open(p, 'w').write(s)
PY
done
cp "$top_srcdir/conf/roced-host.conf" "$tmp/host.conf"

nodes="s0 s1 s2 s3 h0 h1 h2 h3"
for n in $nodes; do t_show_on_fail "$n roced log" "$tmp/$n.log"; done
nobreak=
[ -n "${DEADLOCK_NOBREAK:-}" ] && nobreak=ROCED_DEADLOCK_NOBREAK=1
for n in $nodes; do
	eval "ns=\$$n"
	case $n in h*) c=$tmp/host.conf ;; *) c=$tmp/$n.conf ;; esac
	# shellcheck disable=SC2086 # nobreak: none or one word
	t_spawn "$IP" netns exec "$ns" env $nobreak "$roced" -f "$c" >"$tmp/$n.log" 2>&1
done
for n in $nodes; do
	t_until 40 grep -q "mirroring roced's tc objects" "$tmp/$n.log" ||
		t_fail "$n's roced did not start"
done

for i in 0 1 2 3; do
	for np in "h$i:eth0" "s$i:swp2" "s$i:swp3"; do
		eval "ns=\$${np%%:*}"
		t_until 30 fab_pfc_on "$ns" "${np#*:}" ||
			t_fail "DCBX: ${np%%:*} does not run PFC on ${np#*:}: $(cat "$tmp/pfc.json")"
	done
done
echo "DCBX: PFC on priority 3 at every host and on the ring"

# The receiver prints its counts when it ends by itself (not on a
# signal): after SECONDS, or IDLE seconds after its last datagram.
recv() { # NAME HOST SECONDS IDLE
	eval "ns=\$$2"
	t_spawn $IP netns exec "$ns" "$traffic" recv -t "$3" -i "$4" -R "$tmp/$1.ready" >"$tmp/$1"
	eval "rx_$1=\$t_pid"
	t_show_on_fail "receiver $1" "$tmp/$1"
	t_until 30 test -e "$tmp/$1.ready" || t_fail "the receiver $1 did not start"
}
senders=
send() { # NAME HOST DST PPS SECONDS FLOW
	eval "ns=\$$2"
	t_spawn $IP netns exec "$ns" "$traffic" send "$3" -T 0x68 -r "$4" -t "$5" -s 1000 -b 32768 -f "$6" >"$tmp/$1"
	senders="$senders $t_pid"
	t_show_on_fail "sender $1" "$tmp/$1"
}
detected() { cat "$tmp"/s?.log | grep -c 'PFC deadlock on priority' || true; }
ring_backlog() { # the no-drop backlog of every ring egress, in bytes
	for i in 0 1 2 3; do
		eval "ns=\$s$i"
		$TC -n "$ns" -j -s qdisc show dev swp2
	done | python3 -c '
import json, sys
t = 0
for l in sys.stdin:
    for q in json.loads(l):
        if q.get("kind") in ("tbf", "bfifo", "red"):
            t += q.get("backlog", 0)
print(t)'
}

# --- phase 1: the ring deadlocks ---
for i in 0 1 2 3; do recv "rx$i" "h$i" $((secs + 150)) 15; done
t0=$(date +%s.%N)
for i in 0 1 2 3; do
	send "tx$i" "h$i" "10.79.0.$(((i + 2) % 4 + 1))" "$pps" "$secs" "$i"
done
# When the first cycle was reported, seen from here.
t_det=
end=$(($(date +%s) + secs + 10))
while [ "$(date +%s)" -lt "$end" ]; do
	if [ "$(detected)" -gt 0 ]; then
		t_det=$(python3 -c "import sys; print('%.1f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$t0" "$(date +%s.%N)")
		break
	fi
	sleep 0.2
done
# Senders that a frozen ring blocks never end by themselves.
for p in $senders; do
	t_until $((secs + 30)) sh -c "! kill -0 $p" || true
	t_stop "$p" || true
done
senders=
for i in 0 1 2 3; do cat "$tmp/s$i.log"; done | grep 'PFC deadlock' >"$tmp/cycles" || true
t_show_on_fail "the cycles the switches logged" "$tmp/cycles"

fails=
fail() { fails="$fails
  - $*"; }
# Nothing stays frozen once the senders stopped.
ring_empty() { [ "$(ring_backlog)" = 0 ]; }
if t_until 60 ring_empty; then
	drained=yes
else
	drained="no: $(ring_backlog) bytes still queued"
fi
for i in 0 1 2 3; do t_wait "$(eval "echo \$rx_rx$i")" || true; done
sent() { awk '/^sent/ {n += $2} END {print n + 0}' "$@"; }
got() { awk '/^tos 0x68/ {n += $6} END {print n + 0}' "$@"; }
sent1=$(sent "$tmp"/tx?)
got1=$(got "$tmp"/rx?)
pct1=$(python3 -c "import sys; s, g = int(sys.argv[1]), int(sys.argv[2]); print('%.1f' % (100.0 * (s - g) / s if s else 0))" "$sent1" "$got1")
for i in 0 1 2 3; do
	eval "ns=\$s$i"
	$IP netns exec "$ns" "$rocesh" -c "show queuing pfc-queue json" >"$tmp/pfcq$i.json"
	echo "== s$i"
	$IP netns exec "$ns" "$rocesh" -c "show queuing pfc-queue"
done >"$tmp/pfcq.txt" 2>&1
t_show_on_fail "show queuing pfc-queue" "$tmp/pfcq.txt"
counts=$(cat "$tmp"/pfcq?.json | python3 -c '
import json, sys
text, dec, pos, det, brk = sys.stdin.read(), json.JSONDecoder(), 0, 0, 0
cyc = 0
while text[pos:].strip():
    pos += len(text[pos:]) - len(text[pos:].lstrip())
    d, pos = dec.raw_decode(text, pos)
    for i in d["interface"]:
        dl = i["deadlock"]
        det += dl["detected"]; brk += dl["broken"]
        for p in dl["priorities"]:
            if p["priority"] == 3 and len(p["cycle"]) == 4:
                cyc += 1
print(det, brk, cyc)')
set -- $counts
{
	echo "phase 1 (a ring of 4, 2 flows per link at its rate each, $secs s): sent $sent1, received $got1, lost $pct1 %"
	echo "cycles reported: $(detected) log lines; show: $1 detected, $2 broken, $3 ports saw a 4-node cycle on priority 3"
	echo "first cycle reported ${t_det:-never} s after the senders started"
	# The detection's own time: how long a port had been held when its
	# switch first reported the cycle (the rest is the queues filling).
	echo "held when each switch first reported it (ms):$(for i in 0 1 2 3; do
		sed -n 's/.*PFC deadlock on priority.* for \([0-9]*\) ms, pausing.*/ \1/p' "$tmp/s$i.log" | head -1
	done | tr -d '\n')"
	echo "every ring queue drained after the senders stopped: $drained"
	head -4 "$tmp/cycles"
} | tee "$tmp/result"
[ "$(detected)" -gt 0 ] || fail "no switch reported the cycle of pause"
[ "$1" -gt 0 ] || fail "show queuing pfc-queue json counts no cycle"
[ "$3" -gt 0 ] || fail "no port shows the 4-node cycle on priority 3"
grep -q "cycle of 4 nodes" "$tmp/cycles" || fail "the log does not name the 4 nodes of the cycle"
grep -q "PFC deadlock (cyclic pause dependency)" "$tmp/pfcq.txt" ||
	fail "show queuing pfc-queue does not say the cycle"
if [ -z "$nobreak" ]; then
	[ "$2" -gt 0 ] || fail "no switch broke the cycle"
	grep -q "breaking it here" "$tmp/cycles" || fail "the log does not say which node broke it"
	[ "$drained" = yes ] || fail "the ring stayed frozen after the senders stopped ($drained)"
fi

# --- phase 2: senders again, at a rate the ring carries ---
# A host held for its watchdog's detection time (3 s, the shipped host
# file) during the deadlock shut its queue for a storm: phase 2 starts
# once every host's watchdog restored it.
no_shut() { # NS
	$IP netns exec "$1" "$rocesh" -c "show queuing pfc-queue json" | python3 -c '
import json, sys
d = json.load(sys.stdin)
sys.exit(any(q["state"] == "shutdown" for i in d["interface"] for q in i["queues"]))'
}
storms=$(cat "$tmp"/h?.log | grep -c 'PFC storm on' || true)
echo "host watchdog storms during phase 1: $storms" | tee -a "$tmp/result"
for i in 0 1 2 3; do
	eval "ns=\$h$i"
	t_until 120 no_shut "$ns" || fail "h$i's watchdog did not restore its queue"
done
for i in 0 1 2 3; do recv "ry$i" "h$i" 90 5; done
for i in 0 1 2 3; do
	send "ty$i" "h$i" "10.79.0.$(((i + 2) % 4 + 1))" $((pps / 4)) 5 $((i + 4))
done
for p in $senders; do
	t_until 60 sh -c "! kill -0 $p" || true
	t_stop "$p" || true
done
sleep 2
for i in 0 1 2 3; do
	eval "s=\$s$i h=\$h$i"
	echo "== h$i eth0"
	$TC -n "$h" -s qdisc show dev eth0
	$IP -n "$h" -s link show dev eth0
	echo "== s$i"
	$TC -n "$s" -s qdisc show dev swp1
	$TC -n "$s" -s qdisc show dev swp2
	bridge -n "$s" fdb show br br0 | grep -v permanent
done >"$tmp/qdiscs2" 2>&1
t_show_on_fail "the queues after phase 2" "$tmp/qdiscs2"
for i in 0 1 2 3; do t_wait "$(eval "echo \$rx_ry$i")" || true; done
sent2=$(sent "$tmp"/ty?)
got2=$(got "$tmp"/ry?)
echo "phase 2 (a quarter of the rate, 5 s): sent $sent2, received $got2" | tee -a "$tmp/result"
[ "$sent2" -gt 0 ] && [ $((got2 * 2)) -ge "$sent2" ] ||
	fail "traffic does not flow again: sent $sent2, received $got2"
for i in 0 1 2 3; do
	[ "$(got "$tmp/ry$i")" -gt 0 ] || fail "h$i received nothing in phase 2"
done
[ -n "${DEADLOCK_KEEP:-}" ] && cp "$tmp"/*.log "$tmp/result" "$tmp/pfcq.txt" "$DEADLOCK_KEEP/"
[ -z "$fails" ] || t_fail "PFC deadlock on a ring:$fails"
echo "pfc_deadlock: ok"
