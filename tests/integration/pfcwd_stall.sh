#!/bin/sh
# pfcwd_stall: a restore is never decided on pause frames left unread.
# The veth rig of pfcwd_storm (roced on swp1, the shipped policy, the
# watchdog at its defaults: poll 100 ms, detection 1 poll, auto-restore
# 10 polls, action drop): the peer h1 pauses priority 3 without end for
# 6 s while DSCP 26 traffic waits. Once the storm is declared, roced is
# stopped (SIGSTOP) for 1.6 s, longer than the auto-restore time, and
# continued: the storm went on meanwhile and its frames wait in roced's
# socket, dated on arrival. roced must read them before it decides: the
# queue stays shut until the storm ends (one storm, one restore after
# it), where a restore taken from the last frame read before the stall
# would be followed by a second storm.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/integration/lib.sh"
t_init pfcwd_stall
t_need_root
storm="$top_builddir/tests/tools/pfc_storm"
traffic="$top_builddir/tests/tools/traffic"
[ -x "$storm" ] && [ -x "$traffic" ] || t_fail "test tools not built (make check builds them)"

t_netns_add sw pfcwdst
t_netns_add peer pfcwdst-peer
$IP link add swp1 netns "$sw" type veth peer name h1 netns "$peer"
$IP -n "$sw" addr add 10.86.0.1/24 dev swp1
$IP -n "$peer" addr add 10.86.0.2/24 dev h1
$IP -n "$sw" link set swp1 up
$IP -n "$peer" link set h1 up
t_conf_ports "$t_tmp/roced.conf" swp1
t_conf_match_any "$t_tmp/roced.conf"
grep -q 'auto-restore-multiplier = 10;' "$t_tmp/roced.conf" ||
	t_fail "the shipped roced.conf no longer restores after 10 polls"
t_roced_start "$sw" "$t_tmp/roced.conf" 'mirroring'

t_spawn $IP netns exec "$peer" "$traffic" recv -t 60 -i 5 -R "$t_tmp/ready" >"$t_tmp/recv"
t_until 15 test -e "$t_tmp/ready" || t_fail "the receiver did not start"
t_spawn $IP netns exec "$sw" "$traffic" send 10.86.0.2 -T 0x68 -r 1000 -t 9 -s 500 -b 32768 >"$t_tmp/send"
tx=$t_pid
sleep 0.5
t_spawn $IP netns exec "$peer" "$storm" -i h1 -p 3 -q 65535 -r 1000 -t 6 >"$t_tmp/storm"
st=$t_pid
t_until 5 grep -q 'PFC storm on qos-group 3' "$t_tmp/log" ||
	t_fail "the storm was not declared within 5 s"
sleep 0.3
kill -STOP "$roced_pid"
sleep 1.6
kill -CONT "$roced_pid"
t_wait "$st" || t_fail "the storm injector failed"
cat "$t_tmp/storm"
t_until 10 grep -q 'PFC storm over on qos-group 3' "$t_tmp/log" ||
	t_fail "queue 3 was not restored after the storm ended"
t_wait "$tx" || t_fail "the sender failed"
grep 'PFC storm' "$t_tmp/log"
n=$(grep -c 'PFC storm on' "$t_tmp/log")
[ "$n" = 1 ] || t_fail "$n storms declared for one storm: a restore was decided on unread pause frames"
# The restore came after the storm's last frame, not during it: its line
# says how long the queue was shut, at least the storm's time from its
# declaration to its end (6 s less the detection, less a second of
# slack for the loaded machine).
shut=$(sed -n 's/.*PFC storm over.* after \([0-9.]*\) s.*/\1/p' "$t_tmp/log")
awk -v s="$shut" 'BEGIN { exit !(s >= 4.5) }' ||
	t_fail "queue 3 was restored after $shut s, while the storm was still on"
t_roced_stop
echo "pfcwd_stall: ok (shut $shut s for one 6 s storm with a 1.6 s stall)"
