#!/bin/sh
# pfcwd_storm: the PFC watchdog against a storm, on a veth rig (roced on
# swp1 in its namespace with the shipped policy: no-drop CoS 3 -> queue 3,
# watchdog on, defaults: poll 100 ms, detection 1 poll, auto-restore 10
# polls, action drop); the faulty peer h1 sends pause for priority 3
# without end.
#   - DSCP 26 (queue 3) and best-effort (DSCP 0, q-default) traffic run
#     for 3 s; the storm runs for 5 s from the first second;
#   - the storm is detected (one log line), queue 3's leaf becomes a
#     fifo that takes nothing, while best effort keeps flowing;
#   - the packets the watchdog says it dropped are exactly those the
#     receiver lost;
#   - once the storm stops the queue is restored (one log line) within
#     auto-restore x interval and a poll or so, and its leaf is a
#     released tbf again;
#   - an XON storm (pause time 0, without end) raises nothing.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/integration/lib.sh"
t_init pfcwd_storm
t_need_root
storm="$top_builddir/tests/tools/pfc_storm"
traffic="$top_builddir/tests/tools/traffic"
[ -x "$storm" ] && [ -x "$traffic" ] || t_fail "test tools not built (make check builds them)"

t_netns_add sw pfcwd
t_netns_add peer pfcwd-peer
$IP link add swp1 netns "$sw" type veth peer name h1 netns "$peer"
$IP -n "$sw" addr add 10.78.0.1/24 dev swp1
$IP -n "$peer" addr add 10.78.0.2/24 dev h1
$IP -n "$sw" link set swp1 up
$IP -n "$peer" link set h1 up
t_conf_ports "$t_tmp/roced.conf" swp1
# its DSCP 26 traffic is untagged: the class must match on DSCP alone
t_conf_match_any "$t_tmp/roced.conf"
t_roced_start "$sw" "$t_tmp/roced.conf" 'mirroring'

leaf() { $TC -n "$sw" qdisc show dev swp1 | grep 'qdisc [a-z]* 4713:' || true; }
mono() { python3 -c 'import time; print(time.monotonic_ns())'; }
# wait_log PATTERN SECONDS: until the log has PATTERN.
wait_log()
{
	for _ in $(seq $(($2 * 20))); do
		grep -q -- "$1" "$t_tmp/log" && return 0
		sleep 0.05
	done
	return 1
}

# --- an XON storm first: 2 s of pause time 0 raises nothing ---
$IP netns exec "$peer" "$storm" -i h1 -p 3 -q 0 -r 2000 -t 2 >/dev/null ||
	t_fail "the XON storm injector failed"
sleep 0.5
grep -q 'PFC storm' "$t_tmp/log" && t_fail "an XON storm was taken for a pause storm"
echo "ok: XON storm, no alarm"

# --- a pause storm during traffic ---
t_spawn $IP netns exec "$peer" "$traffic" recv -t 60 -i 4 -R "$t_tmp/ready" >"$t_tmp/recv"
rx=$t_pid
t_show_on_fail "receiver" "$t_tmp/recv"
for _ in $(seq 300); do [ -e "$t_tmp/ready" ] && break; sleep 0.05; done
[ -e "$t_tmp/ready" ] || t_fail "the receiver did not start"
t_spawn $IP netns exec "$sw" "$traffic" send 10.78.0.2 -T 0x68 -r 2000 -t 3 -s 500 -b 32768 -f 1 >"$t_tmp/send26"
tx26=$t_pid
t_spawn $IP netns exec "$sw" "$traffic" send 10.78.0.2 -T 0x00 -r 2000 -t 3 -s 500 -f 2 >"$t_tmp/send0"
tx0=$t_pid
t_show_on_fail "DSCP 26 sender" "$t_tmp/send26"
sleep 1
s0=$(mono)
t_spawn $IP netns exec "$peer" "$storm" -i h1 -p 3 -q 65535 -r 2000 -t 5
st=$t_pid
wait_log 'PFC storm on qos-group 3' 4 || t_fail "no storm detected within 4 s"
s1=$(mono)
shut=$(leaf)
echo "storm detected after $(( (s1 - s0) / 1000000 )) ms (poll 100 ms, detection 1 poll; the log read every 50 ms)"
echo "queue 3 during the storm: $shut"
case $shut in
*"bfifo 4713:"*"limit 0b"*) ;;
*) t_fail "queue 3 is not shut during the storm: '$shut'" ;;
esac
t_wait "$tx26" || t_fail "the DSCP 26 sender failed"
t_wait "$tx0" || t_fail "the best-effort sender failed"
t_wait "$st" || t_fail "the storm injector failed"
e0=$(mono)
wait_log 'PFC storm over on qos-group 3' 5 || t_fail "queue 3 was not restored within 5 s of the storm's end"
e1=$(mono)
echo "restored $(( (e1 - e0) / 1000000 )) ms after the storm ended (auto-restore 10 x 100 ms)"
t_wait "$rx" || t_fail "the receiver failed"
cat "$t_tmp/send26" "$t_tmp/send0" "$t_tmp/recv"
grep 'PFC storm' "$t_tmp/log"

n=$(grep -c 'PFC storm on' "$t_tmp/log")
[ "$n" = 1 ] || t_fail "$n storms logged, expected 1"
n=$(grep -c 'PFC storm over' "$t_tmp/log")
[ "$n" = 1 ] || t_fail "$n restores logged, expected 1"
# Best effort was not held: nothing lost there.
be=$(awk '/^tos 0x00/ {print $6, $8}' "$t_tmp/recv")
sent0=$(awk '/^sent/ {print $2}' "$t_tmp/send0")
[ "$be" = "$sent0 0" ] || t_fail "best effort: received/lost '$be', sent $sent0"
# Queue 3: what the watchdog dropped is what the receiver lost.
sent26=$(awk '/^sent/ {print $2}' "$t_tmp/send26")
got26=$(awk '/^tos 0x68/ {print $6}' "$t_tmp/recv")
# The restore line gives the storm's own counts: drained at its start
# plus dropped while shut.
wd=$(sed -n 's/.*PFC storm over.* \([0-9]*\) packets drained and \([0-9]*\) dropped during the storm.*/\1 + \2/p' "$t_tmp/log")
wd=$(($wd))
echo "DSCP 26: sent $sent26, received $got26, the watchdog dropped $wd"
[ $((sent26 - got26)) = "$wd" ] || t_fail "the watchdog counted $wd drops, the receiver lost $((sent26 - got26))"
case $(leaf) in
*"tbf 4713:"*"rate 40Gbit"*) ;;
*) t_fail "queue 3 is not back to a released tbf: $(leaf)" ;;
esac
t_roced_stop
echo "pfcwd_storm: ok"
