#!/bin/sh
# softpfc_hold: software PFC on a veth port, end to end. roced runs in its
# namespace on swp1 (the shipped policy: DSCP 26 -> queue 3, no-drop CoS
# 3, PFC mode on); the peer namespace has the other end, h1.
#   - roced plans queue 3's leaf as a released tbf (software PFC);
#   - a DSCP 26 sender (small send buffer) and a receiver count every
#     datagram; the storm injector on h1 sends PFC pause for priority 3
#     without pause, for 1.5 s; roced holds queue 3 (the tbf's rate drops
#     to a trickle), the sender is back-pressured, and nothing is lost;
#   - most of the storm's time, nothing reaches the receiver (the queue
#     was held, not just slowed);
#   - afterwards the tbf is released and everything arrives: the
#     receiver counts exactly what the sender sent.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/integration/lib.sh"
t_init softpfc_hold
t_need_root
storm="$top_builddir/tests/tools/pfc_storm"
traffic="$top_builddir/tests/tools/traffic"
[ -x "$storm" ] && [ -x "$traffic" ] || t_fail "test tools not built (make check builds them)"

t_netns_add sw softpfc
t_netns_add peer softpfc-peer
$IP link add swp1 netns "$sw" type veth peer name h1 netns "$peer"
$IP -n "$sw" addr add 10.77.0.1/24 dev swp1
$IP -n "$peer" addr add 10.77.0.2/24 dev h1
$IP -n "$sw" link set swp1 up
$IP -n "$peer" link set h1 up
t_conf_ports "$t_tmp/roced.conf" swp1
# its DSCP 26 traffic is untagged: the class must match on DSCP alone
t_conf_match_any "$t_tmp/roced.conf"
# The pause here lasts 1.5 s with traffic waiting: a storm, for the
# watchdog. This test is about the hold, so the watchdog is off.
sed -i 's/watch-dog-interval = true;/watch-dog-interval = false;/' "$t_tmp/roced.conf"
grep -q 'watch-dog-interval = false;' "$t_tmp/roced.conf" ||
	t_fail "the shipped roced.conf no longer sets watch-dog-interval"
t_roced_start "$sw" "$t_tmp/roced.conf" 'mirroring' -D watchdog

leaf() { $TC -n "$sw" qdisc show dev swp1 | grep 'qdisc tbf 4713:' || true; }
released=$(leaf)
echo "queue 3: $released"
case $released in
*"rate 40Gbit"*) ;;
*) t_fail "queue 3's leaf is not a released tbf: '$released'" ;;
esac

# Traffic: 4000 datagrams/s of 500 bytes for 5 s, DSCP 26 (TOS 0x68).
t_spawn $IP netns exec "$peer" "$traffic" recv -t 60 -i 5 -R "$t_tmp/ready" -l "$t_tmp/arrivals" >"$t_tmp/recv"
rx=$t_pid
t_show_on_fail "receiver" "$t_tmp/recv"
for _ in $(seq 300); do [ -e "$t_tmp/ready" ] && break; sleep 0.05; done
[ -e "$t_tmp/ready" ] || t_fail "the receiver did not start"
t_spawn $IP netns exec "$sw" "$traffic" send 10.77.0.2 -T 0x68 -r 4000 -t 5 -s 500 -b 32768 >"$t_tmp/send"
tx=$t_pid
t_show_on_fail "sender" "$t_tmp/send"
sleep 1
mono() { python3 -c 'import time; print(time.monotonic_ns())'; }
s0=$(mono)
$IP netns exec "$peer" "$storm" -i h1 -p 3 -q 65535 -r 2000 -t 1.5 >"$t_tmp/storm" ||
	t_fail "the storm injector failed: $(cat "$t_tmp/storm")"
s1=$(mono)
held=$(leaf)
t_wait "$tx" || t_fail "the sender failed"
t_wait "$rx" || t_fail "the receiver failed"
cat "$t_tmp/send" "$t_tmp/recv" "$t_tmp/storm"

sent=$(awk '/^sent/ {print $2}' "$t_tmp/send")
got=$(awk '/^total/ {print $3}' "$t_tmp/recv")
lost=$(awk '/^total/ {print $5}' "$t_tmp/recv")
[ "$sent" -gt 1000 ] || t_fail "the sender sent only $sent"
[ "$lost" = 0 ] && [ "$got" = "$sent" ] ||
	t_fail "the no-drop class lost datagrams: sent $sent, received $got (lost $lost)"
echo "ok: sent $sent, received $got, lost 0"

# The storm's window: how much of it the receiver heard nothing (gaps
# over 20 ms between arrivals sent... counted by arrival time). The
# window is the storm's own, from its first pause frame to its last (the
# injector's first_ns and last_ns, CLOCK_MONOTONIC as the arrivals are):
# timed around the injector's start, it also held the time a loaded
# machine takes to start a process, which no hold can make quiet.
f0=$(sed -n 's/.* first_ns \([0-9]*\) .*/\1/p' "$t_tmp/storm")
f1=$(sed -n 's/.* last_ns \([0-9]*\) .*/\1/p' "$t_tmp/storm")
[ -n "$f0" ] && [ -n "$f1" ] && [ "$f1" -gt "$f0" ] ||
	t_fail "the storm injector did not say when it sent: $(cat "$t_tmp/storm")"
echo "storm: injector started $(((f0 - s0) / 1000000)) ms after the window opened, ended $(((s1 - f1) / 1000000)) ms before it closed"
s0=$f0
s1=$f1
quiet=$(python3 - "$t_tmp/arrivals" "$s0" "$s1" <<'PY'
import sys
s0, s1 = int(sys.argv[2]), int(sys.argv[3])
t = sorted(int(l.split()[3]) for l in open(sys.argv[1]))
t = [x for x in t if s0 <= x <= s1]
edges = [s0] + t + [s1]
print(sum(b - a for a, b in zip(edges, edges[1:]) if b - a > 20e6) / (s1 - s0))
PY
)
echo "storm: the receiver heard nothing for $quiet of it"
python3 -c "import sys; sys.exit(0 if $quiet >= 0.8 else 1)" ||
	t_fail "queue 3 was not held during the storm (quiet for only $quiet of it)"
grep -q 'software PFC holds priorities 0x08' "$t_tmp/log" ||
	t_fail "roced did not log the hold"
grep -q 'software PFC holds priorities 0x00' "$t_tmp/log" ||
	t_fail "roced did not log the release"
[ "$(leaf)" = "$released" ] || t_fail "queue 3 was not released: $(leaf)"
t_roced_stop
echo "softpfc_hold: ok"
