#!/bin/sh
# softpfc_holdsafe: a software PFC hold never outlives roced's control of
# it. roced runs in its namespace on swp1 (the shipped policy, PFC on
# CoS 3 -> queue 3, watchdog off: the pauses here are long on purpose);
# the storm injector on h1 pauses priority 3 and keeps queue 3 held.
#   1. kill -9 during the hold, then the peer stops pausing: roced's
#      guard (a child that outlives it for this alone) releases queue 3
#      and says so, without a supervisor; the guard killed alone is
#      replaced by roced; `roced --release-holds` beside a running roced
#      is refused;
#   1b. roced and its guard both killed during a hold: nobody times the
#      pause out, and the queue stays held (what happened before the
#      guard);
#   2. `roced --release-holds` releases it: queue 3's tbf is the released
#      one of the plan again, and nothing else on the port changed;
#   3. both killed during a hold again, then roced started again without
#      a supervisor: it releases the hold it finds before its first apply
#      (logged), and the port holds its plan;
#   4. SIGTERM during a hold: roced releases it on its way out, and
#      leaves the rest of the kernel state in place; no guard is left.
# The times from kill -9 or the start to the release are printed (bench
# figures, not asserted).
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/integration/lib.sh"
t_init softpfc_holdsafe
t_need_root
storm="$top_builddir/tests/tools/pfc_storm"
[ -x "$storm" ] || t_fail "test tools not built (make check builds them)"

t_netns_add sw holdsafe
t_netns_add peer holdsafe-peer
$IP link add swp1 netns "$sw" type veth peer name h1 netns "$peer"
$IP -n "$sw" link set swp1 up
$IP -n "$peer" link set h1 up
t_conf_ports "$t_tmp/roced.conf" swp1
sed -i 's/watch-dog-interval = true;/watch-dog-interval = false;/' "$t_tmp/roced.conf"
grep -q 'watch-dog-interval = false;' "$t_tmp/roced.conf" ||
	t_fail "the shipped roced.conf no longer sets watch-dog-interval"

leaf() { $TC -n "$sw" qdisc show dev swp1 | grep 'qdisc tbf 4713:' || true; }
# Everything on the port but queue 3's leaf.
rest()
{
	{
		$TC -n "$sw" qdisc show dev swp1 | grep -v 'qdisc tbf 4713:'
		$TC -n "$sw" class show dev swp1
		$TC -n "$sw" filter show dev swp1
		$IP -n "$sw" link show dev swp1 | sed -n 's/.* mtu \([0-9]*\) .*/mtu \1/p'
	} || true
}
is_released() { case $(leaf) in *"rate 40Gbit"*) return 0 ;; esac; return 1; }
is_held() { [ -n "$(leaf)" ] && ! is_released; }
mono() { python3 -c 'import time; print(time.monotonic_ns() // 1000000)'; }
# Wait (up to 10 s) for queue 3 to be released, polling every 10 ms;
# prints the ms since $1.
released_after()
{
	for _ in $(seq 1000); do
		is_released && { echo $(($(mono) - $1)); return 0; }
		sleep 0.01
	done
	return 1
}
# The peer pauses priority 3 for up to 60 s (until stopped).
pause_on()
{
	t_spawn $IP netns exec "$peer" "$storm" -i h1 -p 3 -q 65535 -r 500 -t 60 >"$t_tmp/storm"
	storm_pid=$t_pid
	t_until 10 is_held || t_fail "queue 3 was not held while its peer paused: $(leaf)"
}
pause_off() { t_stop "$storm_pid" TERM || true; }

t_roced_start "$sw" "$t_tmp/roced.conf" 'mirroring' -D watchdog
released=$(leaf)
is_released || t_fail "queue 3's leaf is not a released tbf: '$released'"
rest >"$t_tmp/rest0"
echo "queue 3: $released"

# beside a running roced, --release-holds is refused (and changes nothing)
rc=0
$IP netns exec "$sw" "$roced" --release-holds >"$t_tmp/refused" 2>&1 || rc=$?
[ "$rc" = 1 ] && grep -q 'releases its holds itself' "$t_tmp/refused" ||
	t_fail "--release-holds beside a running roced: exit $rc, '$(cat "$t_tmp/refused")'"
echo "--release-holds beside a running roced: refused ($(cat "$t_tmp/refused"))"

# 1. kill -9 during a hold: the guard releases it
guard=$(t_guard_pid "$roced_pid") || t_fail "roced runs no guard: $(ps -o pid=,comm= --ppid "$roced_pid")"
kill -KILL "$guard"
t_until 10 grep -q 'guard that releases.*exited (signal 9): another started' "$t_tmp/log" ||
	t_fail "roced did not replace its guard killed alone"
t_until 10 t_guard_pid "$roced_pid" >/dev/null || t_fail "no new guard"
pause_on
echo "held: $(leaf)"
t0=$(mono)
kill -KILL "$roced_pid"
t_wait "$roced_pid" || true
ms=$(released_after "$t0") || t_fail "kill -9 during a hold: the guard did not release queue 3: $(leaf)"
pause_off
t_until 10 grep -q "guard: roced (pid $roced_pid) is gone; released 1 queue on 1 port it held" "$t_tmp/log" ||
	t_fail "the guard did not say what it released"
[ "$(leaf)" = "$released" ] || t_fail "after the guard's release queue 3 is '$(leaf)', not '$released'"
echo "kill -9 during a hold: the guard released queue 3 ${ms} ms after the kill (load $(cut -d' ' -f1-3 /proc/loadavg))"

# 1b. roced and its guard both killed: the queue stays held. roced is
# stopped first, so that it cannot replace the guard meanwhile.
kill_both()
{
	_g=$(t_guard_pid "$roced_pid") || t_fail "roced runs no guard"
	kill -STOP "$roced_pid"
	kill -KILL "$_g"
	kill -KILL "$roced_pid"
	t_wait "$roced_pid" || true
}
t_roced_start "$sw" "$t_tmp/roced.conf" 'mirroring' -D watchdog
pause_on
kill_both
pause_off
sleep 1
is_held || t_fail "the hold ended without roced and its guard (the test shows nothing): $(leaf)"
echo "1 s after kill -9 of both and the last pause, queue 3 is still held: $(leaf)"

# 2. --release-holds releases it, and nothing else changes
$IP netns exec "$sw" "$roced" --release-holds >"$t_tmp/release" 2>&1 ||
	t_fail "roced --release-holds failed: $(cat "$t_tmp/release")"
grep -qx 'roced: released 1 held queue on 1 port' "$t_tmp/release" ||
	t_fail "roced --release-holds says '$(cat "$t_tmp/release")'"
[ "$(leaf)" = "$released" ] || t_fail "after --release-holds queue 3 is '$(leaf)', not '$released'"
rest >"$t_tmp/rest1"
diff -u "$t_tmp/rest0" "$t_tmp/rest1" || t_fail "--release-holds changed more than queue 3's leaf"
$IP netns exec "$sw" "$roced" --release-holds >"$t_tmp/release" 2>&1 ||
	t_fail "roced --release-holds (nothing held) failed: $(cat "$t_tmp/release")"
grep -qx 'roced: released 0 held queues on 0 ports' "$t_tmp/release" ||
	t_fail "roced --release-holds with nothing held says '$(cat "$t_tmp/release")'"
echo "--release-holds: $(cat "$t_tmp/release") the second time; queue 3 released, the rest unchanged"

# 3. both killed during a hold, then a start without a supervisor
t_roced_start "$sw" "$t_tmp/roced.conf" 'mirroring' -D watchdog
pause_on
kill_both
pause_off
is_held || t_fail "queue 3 was not held when roced was killed: $(leaf)"
t0=$(mono)
t_roced_start "$sw" "$t_tmp/roced.conf" 'released 1 queue on 1 port that a roced before this one left held'
ms=$(released_after "$t0") || t_fail "the restarted roced did not release queue 3: $(leaf)"
t_until 30 grep -q mirroring "$t_tmp/log" || t_fail "roced did not finish its start"
[ "$(leaf)" = "$released" ] || t_fail "after the restart queue 3 is '$(leaf)'"
rest >"$t_tmp/rest2"
diff -u "$t_tmp/rest0" "$t_tmp/rest2" || t_fail "the restarted roced left the port changed"
echo "start after kill -9: released queue 3 ${ms} ms after the start (load $(cut -d' ' -f1-3 /proc/loadavg))"

# 4. SIGTERM during a hold: released on the way out, the rest kept
pause_on
guard=$(t_guard_pid "$roced_pid") || t_fail "roced runs no guard"
t_roced_stop
! kill -0 "$guard" 2>/dev/null || t_fail "roced stopped and its guard $guard still runs"
pause_off
grep -q 'stopping: released the holds of 1 port' "$t_tmp/log" ||
	t_fail "roced did not say it released the hold when stopping"
[ "$(leaf)" = "$released" ] || t_fail "after SIGTERM queue 3 is '$(leaf)'"
rest >"$t_tmp/rest3"
diff -u "$t_tmp/rest0" "$t_tmp/rest3" || t_fail "the stop changed more than queue 3's leaf"
echo "SIGTERM during a hold: released, the plan kept"
echo "softpfc_holdsafe: ok"
