#!/bin/sh
# systemd_pid1.sh: roced.service under a real systemd as PID 1.
#
# systemd_unit.sh checks the unit's text and runs roced with its
# privileges by hand; this test boots a minimal Debian root (Debian's own
# packages: systemd and the libraries roced and rocesh link) with systemd
# as PID 1 in systemd-nspawn, installs this build into it with
# `make install DESTDIR=`, and drives the unit through systemctl:
#   1. start: systemctl returns once roced said READY=1 (Type=notify);
#      STATUS= text; swp1, a veth in the container, holds exactly roced's
#      plan (so the unit's sandboxing still lets roced program ports); the
#      main process has CAP_NET_ADMIN+CAP_NET_RAW, no_new_privs, seccomp;
#   2. reload with a good file: systemctl reload succeeds, the change is
#      in the kernel;
#   3. reload with a broken file: systemctl reload FAILS, the journal has
#      each FILE:LINE error, roced keeps running its old configuration;
#   4. kill -9: systemd restarts roced, which finds the ports right (0
#      writes in its STATUS=);
#   5. kill -9 while a peer's pause holds queue 3: the unit's
#      ExecStopPost= (roced --release-holds) releases the hold, before the
#      restart (the journal says so), nothing else changes;
#   6. SIGSTOP during a hold: the watchdog (WatchdogSec=) kills roced,
#      ExecStopPost= releases the hold, and systemd restarts roced;
#   7. kill -9 during a PFC storm: /run/roced survives the restart
#      (RuntimeDirectoryPreserve=), the restarted roced loads the storm,
#      keeps queue 3 shut, and restores it once the peer stops pausing,
#      not before its quiet time;
#   8. systemctl restart, then swp1 removed from the file and reloaded:
#      swp1 gets back the MTU it had before roced first changed it;
#   9. stop: clean exit, kernel state left in place (roced(8));
# then powers the container off. The times from kill -9 or SIGSTOP to
# the release are printed (not asserted: measurements).
#
# The Debian root and the container: tests/integration/nspawn_lib.sh
# (shared with debian_pkg.sh). Needs root, systemd-nspawn
# (systemd-container), mmdebstrap and nsenter/unshare (util-linux);
# scripts/install-deps.sh --test installs them.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
. "$top_srcdir/tests/integration/plan_lib.sh"
. "$top_srcdir/tests/integration/nspawn_lib.sh"
t_init systemd_pid1
t_need_root
sd_need
tmp=$t_tmp
root=$tmp/root

# --- the root file system, and roced installed into it ---------------------
sd_root "$root"
mkvar()
{
	printf 'pkg-print-var:\n\t@echo $(%s)\n' "$1" |
		env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
			make -s --no-print-directory -C "$top_builddir" -f Makefile -f - pkg-print-var
}
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$top_builddir" install DESTDIR="$root" \
	>"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; t_fail "make install DESTDIR=$root"; }
sysconfdir=$(mkvar sysconfdir)
unitdir=$(mkvar systemdsystemunitdir)
conf=$sysconfdir/roced/roced.conf
[ -f "$root$unitdir/roced.service" ] || t_fail "make install put no roced.service in $unitdir"
[ -f "$root$conf" ] || t_fail "make install put no $conf"
cp "$root$conf" "$tmp/good.conf"
if ldd "$roced" | grep -q libasan; then
	# A sanitizer build: LeakSanitizer stops the process with ptrace at
	# exit, which the unit's SystemCallFilter= refuses, and would fail
	# every clean stop. Only the leak check is off; ASan and UBSan stay.
	mkdir -p "$root/etc/systemd/system/roced.service.d"
	printf '[Service]\nEnvironment=ASAN_OPTIONS=detect_leaks=0\n' \
		>"$root/etc/systemd/system/roced.service.d/sanitizers.conf"
	echo "sanitizer build: leak checks off in the container (ptrace is not in @system-service)"
fi

# --- the port, and systemd as PID 1 -----------------------------------------
t_netns_add ns sd
t_netns_add peer sd-peer
"$IP" -n "$ns" link set lo up
"$IP" -n "$ns" link add swp1 type veth peer name h1 netns "$peer"
"$IP" -n "$ns" link set swp1 up
"$IP" -n "$peer" link set h1 up
mtu0=$("$IP" -n "$ns" -j link show dev swp1 | python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["mtu"])')
tp_plan "$tmp/good.conf" swp1

sd_boot "$root" "$ns"

prop() { ct systemctl show -P "$1" roced.service; }
journal() { ct journalctl -u roced.service -o cat --no-pager >"$tmp/journal" 2>&1 || true; }
t_show_on_fail "journal of roced.service" "$tmp/journal"
plan_ok()
{
	bad=$(tp_check "$ns" swp1)
	[ -z "$bad" ] && return 0
	cat "$t_tmp/tp.diff.swp1"
	return 1
}
mtu() { "$IP" -n "$ns" -j link show dev swp1 | python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["mtu"])'; }
restarted()
{
	[ "$(prop NRestarts)" = "$1" ] && [ "$(prop ActiveState)" = active ] &&
		[ "$(prop SubState)" = running ] && [ "$(prop MainPID)" != "$2" ]
}

# 1. start: systemctl returns after READY=1
ct timeout 120 systemctl start roced.service >"$tmp/start" 2>&1 ||
	{ journal; cat "$tmp/start"; t_fail "systemctl start roced failed"; }
journal
[ "$(prop ActiveState)/$(prop SubState)" = active/running ] ||
	t_fail "after start: $(prop ActiveState)/$(prop SubState)"
status=$(prop StatusText)
echo "$status" | grep -qE '^1 port, [0-9]+ writes' || t_fail "STATUS= says '$status'"
grep -q 'Started roced.service' "$tmp/journal" || t_fail "no 'Started' in the journal"
plan_ok || t_fail "after start, swp1 does not hold roced's plan"
pid=$(prop MainPID)
ct cat "/proc/$pid/status" >"$tmp/status"
grep -qE '^CapEff:[[:space:]]*0*3000$' "$tmp/status" ||
	t_fail "roced runs with $(grep CapEff "$tmp/status"), not CAP_NET_ADMIN+CAP_NET_RAW"
grep -qE '^NoNewPrivs:[[:space:]]*1$' "$tmp/status" || t_fail "roced runs without no_new_privs"
grep -qE '^Seccomp:[[:space:]]*2$' "$tmp/status" || t_fail "roced runs without its seccomp filter"
echo "start: READY, STATUS='$status', swp1 holds the plan ($(tp_summary swp1)), CapEff 3000, no_new_privs, seccomp"
ct rocesh -c 'show queuing interface' >"$tmp/show" 2>&1 || t_fail "rocesh in the container: $(cat "$tmp/show")"
grep -q 'Egress Queuing for .*(swp1)' "$tmp/show" || t_fail "rocesh show: $(cat "$tmp/show")"
echo "rocesh in the container reaches roced"

# 2. reload, a good file (written then renamed, as roced(8) says to edit)
sed 's/mtu = 9216;/mtu = 9000;/' "$tmp/good.conf" >"$root$conf.new"
mv "$root$conf.new" "$root$conf"
ct timeout 120 systemctl reload roced.service >"$tmp/reload" 2>&1 ||
	{ journal; cat "$tmp/reload"; t_fail "systemctl reload of a good file failed"; }
[ "$(mtu)" = 9000 ] || t_fail "after the reload swp1 has MTU $(mtu), not 9000"
[ "$(prop MainPID)" = "$pid" ] || t_fail "the reload restarted roced"
journal
grep -q "Reloaded $conf" "$tmp/journal" || t_fail "the journal does not say 'Reloaded $conf'"
echo "reload (good file): systemctl reload exit 0, swp1 MTU 9000"

# 3. reload, a broken file: two errors, each at its FILE:LINE
cp "$root$conf" "$tmp/good9000.conf"
line=$(grep -n 'mtu = 9000;' "$tmp/good9000.conf" | head -n 1 | cut -d: -f1)
{ sed 's/mtu = 9000;/mtu = 99999;/' "$tmp/good9000.conf"; echo 'bogus = 1;'; } >"$root$conf.new"
last=$(wc -l <"$root$conf.new")
mv "$root$conf.new" "$root$conf"
rc=0
ct timeout 120 systemctl reload roced.service >"$tmp/reload" 2>&1 || rc=$?
journal
[ "$rc" != 0 ] || t_fail "systemctl reload of a broken file succeeded"
grep -q "^$conf:$line: error: " "$tmp/journal" || t_fail "the journal lacks the error at $conf:$line"
grep -q "^$conf:$last: error: " "$tmp/journal" || t_fail "the journal lacks the error at $conf:$last"
[ "$(prop ActiveState)/$(prop MainPID)" = "active/$pid" ] ||
	t_fail "a refused reload left roced $(prop ActiveState), main pid $(prop MainPID) (was $pid)"
[ "$(mtu)" = 9000 ] || t_fail "a refused reload changed swp1's MTU to $(mtu)"
echo "reload (broken file): systemctl reload exit $rc, the journal says:"
grep "^$conf:[0-9]*: error: " "$tmp/journal" | sed 's/^/  /'
cp "$tmp/good.conf" "$root$conf.new"
mv "$root$conf.new" "$root$conf"
ct timeout 120 systemctl reload roced.service >"$tmp/reload" 2>&1 ||
	t_fail "systemctl reload of the shipped file failed: $(cat "$tmp/reload")"
plan_ok || t_fail "after reloading the shipped file, swp1 does not hold the plan"

# 4. kill -9: restarted (Restart=on-failure), and the new roced finds
#    nothing to write
ct sh -c 'kill -KILL "$1"' sh "$pid"
t_until 120 restarted 1 "$pid" || { journal; t_fail "roced was not restarted after kill -9"; }
status=$(prop StatusText)
echo "$status" | grep -qE '^1 port, 0 writes' || t_fail "after kill -9 the new roced says '$status'"
plan_ok || t_fail "after kill -9, swp1 does not hold the plan"
journal
grep -q 'status=9/KILL' "$tmp/journal" || t_fail "the journal does not tell the kill"
pid2=$(prop MainPID)
echo "kill -9: restarted (NRestarts=1), STATUS='$status'"

# Queue 3's leaf (software PFC's tbf, or the storm's fifo of 0 bytes),
# and the rest of the port.
leaf() { $TC -n "$ns" qdisc show dev swp1 | grep 'qdisc [a-z]* 4713:' || true; }
rest()
{
	{
		$TC -n "$ns" qdisc show dev swp1 | grep -v 'qdisc [a-z]* 4713:'
		$TC -n "$ns" class show dev swp1
		$TC -n "$ns" filter show dev swp1
	} || true
}
is_released() { case $(leaf) in *"tbf 4713:"*"rate 40Gbit"*) return 0 ;; esac; return 1; }
is_held() { case $(leaf) in *"tbf 4713:"*) is_released && return 1; return 0 ;; esac; return 1; }
mono() { python3 -c 'import time; print(time.monotonic_ns() // 1000000)'; }
# Poll every 10 ms (up to 60 s) until queue 3 is released; print the ms
# since $1.
released_after()
{
	for _ in $(seq 6000); do
		is_released && { echo $(($(mono) - $1)); return 0; }
		sleep 0.01
	done
	return 1
}
pause_on()
{
	t_spawn "$IP" netns exec "$peer" "$storm" -i h1 -p 3 -q 65535 -r 500 -t 600 >/dev/null
	storm_pid=$t_pid
	t_until 10 is_held || t_fail "queue 3 was not held while its peer paused: $(leaf)"
}
pause_off() { t_stop "$storm_pid" TERM || true; }
# The time (ms) from the last journal line of roced.service matching $1
# to the first one after it matching $2, by the journal's monotonic
# clock; with $1 a number, from that CLOCK_MONOTONIC time (ms) instead.
journal_ms()
{
	ct journalctl -u roced.service -o short-monotonic --no-pager >"$tmp/journal.mono" 2>&1 || true
	python3 - "$tmp/journal.mono" "$1" "$2" <<'PY'
import re, sys
lines = []
for l in open(sys.argv[1]):
    m = re.match(r"\[\s*([0-9.]+)\]\s(.*)", l)
    if m:
        lines.append((float(m.group(1)) * 1000, m.group(2)))
a, b = sys.argv[2], sys.argv[3]
if re.fullmatch(r"[0-9]+", a):
    t0, start = float(a), 0
else:
    start = max(i for i, (_, l) in enumerate(lines) if a in l)
    t0 = lines[start][0]
print(round(next(t for t, l in lines[start:] if b in l and t >= t0) - t0))
PY
}
nreleased() { journal; grep -c 'roced: released 1 held queue on 1 port' "$tmp/journal" || true; }
storm="$top_builddir/tests/tools/pfc_storm"
traffic="$top_builddir/tests/tools/traffic"
[ -x "$storm" ] && [ -x "$traffic" ] || t_fail "test tools not built (make check builds them)"
is_released || t_fail "queue 3's leaf is not a released tbf: $(leaf)"
released=$(leaf)
rest >"$tmp/rest0"

# 5. kill -9 during a hold: ExecStopPost= releases it before the restart
pause_on
t0=$(mono)
ct sh -c 'kill -KILL "$1"' sh "$pid2"
pause_off
released_after "$t0" >/dev/null || { journal; t_fail "queue 3 stayed held after kill -9: $(leaf)"; }
t_until 120 restarted 2 "$pid2" || { journal; t_fail "roced was not restarted after kill -9 during a hold"; }
[ "$(nreleased)" = 1 ] ||
	t_fail "the journal does not have ExecStopPost's 'roced: released 1 held queue on 1 port'"
[ "$(leaf)" = "$released" ] || t_fail "after the release queue 3 is '$(leaf)'"
rest >"$tmp/rest1"
diff -u "$tmp/rest0" "$tmp/rest1" || t_fail "the release changed more than queue 3's leaf"
pid3=$(prop MainPID)
ms=$(journal_ms 'status=9/KILL' 'roced: released 1 held queue')
echo "kill -9 during a hold: ExecStopPost released queue 3 ${ms} ms after roced's exit (journal; load $(cut -d' ' -f1-3 /proc/loadavg)), then restarted"

# 6. SIGSTOP during a hold: no WATCHDOG=1 any more; systemd aborts roced,
#    ExecStopPost= releases the hold, and roced is restarted
wd=$(prop WatchdogUSec)
pause_on
t0=$(mono)
ct sh -c 'kill -STOP "$1"' sh "$pid3"
pause_off
released_after "$t0" >/dev/null || { journal; t_fail "queue 3 stayed held after SIGSTOP: $(leaf)"; }
t_until 300 restarted 3 "$pid3" || { journal; t_fail "roced was not restarted by the watchdog ($wd)"; }
journal
grep -q 'Watchdog timeout' "$tmp/journal" || t_fail "the journal does not tell the watchdog timeout"
[ "$(nreleased)" = 2 ] || t_fail "ExecStopPost did not release the hold after the watchdog's kill"
status=$(prop StatusText)
echo "$status" | grep -qE '^1 port, 0 writes' || t_fail "after the watchdog restart roced says '$status'"
plan_ok || t_fail "after the watchdog restart, swp1 does not hold the plan"
pid4=$(prop MainPID)
ms=$(journal_ms "$t0" 'roced: released 1 held queue')
ms2=$(journal_ms 'Watchdog timeout' 'roced: released 1 held queue')
echo "SIGSTOP during a hold: watchdog ($wd) timeout, ExecStopPost released queue 3 ${ms} ms after the SIGSTOP, ${ms2} ms after the timeout (journal; load $(cut -d' ' -f1-3 /proc/loadavg)), restarted, STATUS='$status'"

# 7. kill -9 during a storm: the restarted roced keeps the storm (its
#    state in /run/roced) and restores queue 3 once the pauses stop
"$IP" -n "$ns" addr add 10.81.0.1/24 dev swp1
"$IP" -n "$peer" addr add 10.81.0.2/24 dev h1
t_spawn "$IP" netns exec "$peer" "$storm" -i h1 -p 3 -q 65535 -r 2000 -t 600 >/dev/null
storm_pid=$t_pid
sleep 0.3
# A queue is stuck only with something in it: DSCP 26 datagrams, put in
# queue 3 by their socket priority (htb takes it as the class), as a
# host's own traffic is classified only on egress.
"$IP" netns exec "$ns" "$traffic" send 10.81.0.2 -T 0x68 -P 4791:13 -r 500 -n 200 -t 3 >/dev/null ||
	t_fail "the DSCP 26 sender failed"
stormed() { journal; grep -q 'PFC storm on qos-group 3' "$tmp/journal"; }
t_until 30 stormed || t_fail "no storm declared"
case $(leaf) in *"bfifo 4713:"*"limit 0b"*) ;; *) t_fail "queue 3 not shut by the storm: $(leaf)" ;; esac
ct ls /run/roced >"$tmp/run.1"
grep -q 'pfcwd$' "$tmp/run.1" || t_fail "no storm state in /run/roced: $(cat "$tmp/run.1")"
ct sh -c 'kill -KILL "$1"' sh "$pid4"
t_until 120 restarted 4 "$pid4" || { journal; t_fail "roced was not restarted after kill -9 during a storm"; }
journal
grep -q 'PFC watchdog: 1 queue in storm' "$tmp/journal" ||
	t_fail "the restarted roced did not load the storm (is /run/roced kept across restarts?)"
case $(leaf) in *"bfifo 4713:"*"limit 0b"*) ;; *) t_fail "queue 3 not shut after the restart: $(leaf)" ;; esac
# (the time before the last pause: the quiet time measured is at least
# the real one)
_t_alive "$storm_pid" || t_fail "the storm injector stopped before the test stopped it"
t_last=$(mono)
pause_off
restored() { journal; grep -q 'queue restored (auto)' "$tmp/journal"; }
t_until 60 restored || t_fail "queue 3 was not restored after the storm"
released_after "$t_last" >/dev/null || t_fail "queue 3 not released after the restore: $(leaf)"
ms=$(journal_ms "$t_last" 'queue restored (auto)')
# auto-restore after interval x auto-restore-multiplier of quiet: not
# before that (a restore on time, not one forgotten state)
quiet=$(sed -n 's/^[[:space:]]*interval = \([0-9]*\);.*/\1/p' "$tmp/good.conf" | head -n 1)
mult=$(sed -n 's/^[[:space:]]*auto-restore-multiplier = \([0-9]*\);.*/\1/p' "$tmp/good.conf" | head -n 1)
[ "$ms" -ge $((quiet * mult)) ] || t_fail "queue 3 restored ${ms} ms after the last pause, before its ${quiet} x ${mult} ms of quiet"
pid5=$(prop MainPID)
echo "kill -9 during a storm: restarted, storm kept (queue 3 shut), restored ${ms} ms after the last pause (journal; quiet time $((quiet * mult)) ms):"
grep -E 'PFC storm on|queue in storm|queue restored' "$tmp/journal" | sed 's/^/  /'


# 8. systemctl restart, then swp1 removed from the file: its MTU comes back
ct timeout 120 systemctl restart roced.service >"$tmp/restart" 2>&1 ||
	t_fail "systemctl restart failed: $(cat "$tmp/restart")"
[ "$(prop MainPID)" != "$pid5" ] || t_fail "systemctl restart did not restart roced"
[ "$(mtu)" = 9216 ] || t_fail "swp1 has MTU $(mtu) before the removal, not 9216"
ct ls /run/roced >"$tmp/run.2"
grep -q 'mtu$' "$tmp/run.2" || t_fail "the MTU to give back is gone from /run/roced: $(cat "$tmp/run.2")"
python3 - "$tmp/good.conf" >"$root$conf.new" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
# the interface list, emptied: "interface = ( ... );" -> "interface = ( );"
i = s.index("\ninterface = (")
depth, j = 0, s.index("(", i)
for k in range(j, len(s)):
    depth += {"(": 1, ")": -1}.get(s[k], 0)
    if depth == 0:
        break
sys.stdout.write(s[:j] + "( " + s[k:])
PY
mv "$root$conf.new" "$root$conf"
ct timeout 120 systemctl reload roced.service >"$tmp/reload" 2>&1 ||
	{ journal; t_fail "reload without swp1 failed: $(cat "$tmp/reload")"; }
[ "$(mtu)" = "$mtu0" ] || t_fail "swp1, removed from the file after restarts, has MTU $(mtu), not its own $mtu0"
echo "systemctl restart, swp1 removed: MTU $mtu0 given back"
cp "$tmp/good.conf" "$root$conf.new"
mv "$root$conf.new" "$root$conf"
ct timeout 120 systemctl reload roced.service >"$tmp/reload" 2>&1 ||
	t_fail "reload of the shipped file failed: $(cat "$tmp/reload")"
plan_ok || t_fail "after reloading the shipped file, swp1 does not hold the plan"

# 9. stop: a clean exit; roced leaves the kernel state in place
ct timeout 120 systemctl stop roced.service >"$tmp/stop" 2>&1 ||
	t_fail "systemctl stop failed: $(cat "$tmp/stop")"
[ "$(prop ActiveState)/$(prop Result)" = inactive/success ] ||
	t_fail "after stop: $(prop ActiveState), result $(prop Result)"
plan_ok || t_fail "roced's stop changed swp1"
echo "stop: inactive, result success, swp1 kept"

sd_poweroff
echo "PASS: systemd_pid1"
