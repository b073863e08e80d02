#!/bin/sh
# privs: least privilege without systemd.
#   1. roced started by hand as root keeps only CAP_NET_ADMIN,
#      CAP_NET_RAW and CAP_BPF once running: effective, permitted and bounding sets
#      (/proc/PID/status), nothing inheritable or ambient;
#   2. and still does what it must after the drop: the first apply saves
#      the port's MTU in /run/roced, a reload (rocesh `reload config`)
#      applies a change, `copy running-config startup-config` writes the
#      file and its .bak, a deleted root qdisc is repaired;
#   2b. roced given only those two (as by the unit) starts and runs;
#   3. `roced -n` and `roced --dry-run` need no privilege at all: as
#      nobody, with no capability, they succeed and say what root's say.
#   4. the daemon runs at SCHED_FIFO 10 (software PFC's reaction must not
#      wait for a CPU), a thread it starts at the default policy; a
#      roced started at a real-time priority keeps it; 0 leaves it as
#      started; without CAP_SYS_NICE (and RLIMIT_RTPRIO) it says so and
#      runs; with the unit's bounding set it raises itself, then drops
#      CAP_SYS_NICE with the rest.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
t_init privs
t_need_root
command -v setpriv >/dev/null || t_skip "setpriv (util-linux) is missing"
[ -x "$rocesh" ] || t_skip "rocesh is not built"
tmp=$t_tmp
in_ns() { "$IP" netns exec "$ns" "$@"; }
has_root() { in_ns "$TC" qdisc show dev swp1 | grep -q ' 4791: root'; }
t_conf_ports "$tmp/roced.conf" swp1
t_netns_add ns privs
"$IP" -n "$ns" link add swp1 type veth peer name swp1p
t_roced_start "$ns" "$tmp/roced.conf" 'mirroring'

# 1. the capability sets (CAP_NET_ADMIN 12, CAP_NET_RAW 13, CAP_BPF 39)
grep '^Cap' "/proc/$roced_pid/status"
for set in CapEff CapPrm CapBnd; do
	v=$(sed -n "s/^$set:[[:space:]]*//p" "/proc/$roced_pid/status")
	[ "$v" = 0000008000003000 ] || t_fail "$set is $v, not CAP_NET_ADMIN, CAP_NET_RAW and CAP_BPF"
done
for set in CapInh CapAmb; do
	v=$(sed -n "s/^$set:[[:space:]]*//p" "/proc/$roced_pid/status")
	[ "$v" = 0000000000000000 ] || t_fail "$set is $v, not empty"
done
[ "$(sed -n 's/^Uid:[[:space:]]*\([0-9]*\).*/\1/p' "/proc/$roced_pid/status")" = 0 ] ||
	t_fail "roced left uid 0"

# 4a. real-time priority, before and after the drop (chrt -p prints
# "pid N's current scheduling policy: SCHED_FIFO|SCHED_RESET_ON_FORK"
# and "... priority: 10")
sched() { chrt -p "$1" | sed -n 's/.*policy: //p'; }
prio() { chrt -p "$1" | sed -n 's/.*priority: //p'; }
if chrt -f 1 true 2>/dev/null; then
	[ "$(sched "$roced_pid")" = "SCHED_FIFO|SCHED_RESET_ON_FORK" ] ||
		t_fail "roced runs $(sched "$roced_pid"), not SCHED_FIFO (reset on fork)"
	[ "$(prio "$roced_pid")" = 10 ] || t_fail "roced's priority is $(prio "$roced_pid"), not 10"
	grep -q 'running at real-time priority 10' "$t_tmp/log" ||
		t_fail "roced did not log its scheduling"
	rt=1
else
	echo "note: real-time scheduling is refused to root here: 4a-4c check the warning only"
	grep -q 'cannot run at real-time priority 10' "$t_tmp/log" ||
		t_fail "roced refused real-time priority without a word"
	rt=0
fi

# 2. the work after the drop
ino=$(in_ns stat -L -c %i /proc/self/ns/net)
t_until 10 grep -q '^swp1 1500' "/run/roced/roced.$ino.mtu" ||
	t_fail "the port's MTU was not saved after the drop"
has_root || t_fail "swp1: no root after start"
sed -i 's/bandwidth-remaining-percent = 50;/bandwidth-remaining-percent = 40;/' "$tmp/roced.conf"
in_ns "$rocesh" -c 'reload config' || t_fail "reload config failed after the drop"
in_ns "$rocesh" -c 'show running-config' | grep -q 'bandwidth remaining percent 40' ||
	t_fail "the reload did not take"
cp "$tmp/roced.conf" "$tmp/before.conf"
in_ns "$rocesh" -c 'copy running-config startup-config' ||
	t_fail "copy running-config startup-config failed after the drop"
cmp -s "$tmp/roced.conf.bak" "$tmp/before.conf" || t_fail "no .bak of the file as it was"
in_ns "$TC" qdisc del dev swp1 root
t_until 10 has_root || t_fail "swp1's root not repaired after the drop"
t_roced_stop

# 2b. given only those two already (as the unit's CapabilityBoundingSet=
# does): nothing to drop, roced runs as well. The inheritable set is
# emptied as systemd does for a service: root's exec gains its
# inheritable set whatever the bounding set says, and a container may
# hand root a full one (systemd-nspawn does).
t_spawn "$IP" netns exec "$ns" setpriv --bounding-set=-all,+net_admin,+net_raw \
	--inh-caps=-all "$roced" -f "$tmp/roced.conf" -D ctl >"$tmp/log2" 2>&1
roced_pid=$t_pid
t_until 30 grep -q mirroring "$tmp/log2" ||
	{ cat "$tmp/log2"; t_fail "roced with the unit's two capabilities did not start"; }
grep -q 'no capabilities to drop' "$tmp/log2" || { cat "$tmp/log2"; t_fail "roced tried to drop what it had not"; }
t_roced_stop

# 4b. started at a real-time priority: kept; 0: as started
if [ "$rt" = 1 ]; then
	t_spawn "$IP" netns exec "$ns" chrt -r 20 "$roced" -f "$tmp/roced.conf" >"$tmp/log3" 2>&1
	roced_pid=$t_pid
	t_until 30 grep -q mirroring "$tmp/log3" || { cat "$tmp/log3"; t_fail "roced under chrt -r 20 did not start"; }
	[ "$(sched "$roced_pid")" = SCHED_RR ] && [ "$(prio "$roced_pid")" = 20 ] ||
		t_fail "roced started at SCHED_RR 20 runs $(sched "$roced_pid") $(prio "$roced_pid")"
	grep -q 'started at real-time priority 20 (SCHED_RR): kept' "$tmp/log3" || t_fail "no 'kept' line"
	t_roced_stop
	t_spawn "$IP" netns exec "$ns" "$roced" -f "$tmp/roced.conf" --realtime-priority 0 >"$tmp/log4" 2>&1
	roced_pid=$t_pid
	t_until 30 grep -q mirroring "$tmp/log4" || { cat "$tmp/log4"; t_fail "roced --realtime-priority 0 did not start"; }
	[ "$(sched "$roced_pid")" = SCHED_OTHER ] || t_fail "--realtime-priority 0 runs $(sched "$roced_pid")"
	t_roced_stop
fi
# 4c. neither CAP_SYS_NICE nor RLIMIT_RTPRIO: a warning, and it runs
t_spawn "$IP" netns exec "$ns" prlimit --rtprio=0 setpriv --bounding-set=-all,+net_admin,+net_raw \
	--inh-caps=-all "$roced" -f "$tmp/roced.conf" >"$tmp/log5" 2>&1
roced_pid=$t_pid
t_until 30 grep -q mirroring "$tmp/log5" || { cat "$tmp/log5"; t_fail "roced without CAP_SYS_NICE did not start"; }
grep -q 'cannot run at real-time priority 10: Operation not permitted' "$tmp/log5" ||
	{ cat "$tmp/log5"; t_fail "no warning that real-time priority was refused"; }
[ "$(sched "$roced_pid")" = SCHED_OTHER ] || t_fail "roced without CAP_SYS_NICE runs $(sched "$roced_pid")"
t_roced_stop
# ... with the unit's bounding set (CAP_SYS_NICE among it): real-time,
# and CAP_SYS_NICE dropped afterwards with the rest
if [ "$rt" = 1 ]; then
	t_spawn "$IP" netns exec "$ns" setpriv --bounding-set=-all,+net_admin,+net_raw,+bpf,+sys_nice \
		--inh-caps=-all "$roced" -f "$tmp/roced.conf" >"$tmp/log6" 2>&1
	roced_pid=$t_pid
	t_until 30 grep -q mirroring "$tmp/log6" || { cat "$tmp/log6"; t_fail "roced with the unit's bounding set did not start"; }
	[ "$(prio "$roced_pid")" = 10 ] || t_fail "with the unit's bounding set roced's priority is $(prio "$roced_pid")"
	v=$(sed -n "s/^CapEff:[[:space:]]*//p" "/proc/$roced_pid/status")
	[ "$v" = 0000008000003000 ] || t_fail "with the unit's bounding set CapEff is $v: CAP_SYS_NICE kept"
	t_roced_stop
fi

# 3. no privilege for -n and --dry-run
cd "$tmp"
chmod 755 "$tmp"
chmod 644 "$tmp/roced.conf"
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all "$@"; }
nobody "$roced" -n -f "$tmp/roced.conf" >"$tmp/n.out" 2>&1 ||
	{ cat "$tmp/n.out"; t_fail "roced -n as nobody failed"; }
grep -q 'configuration OK' "$tmp/n.out" || t_fail "roced -n as nobody: no 'configuration OK'"
"$roced" --dry-run -f "$tmp/roced.conf" >"$tmp/root.plan" 2>"$tmp/root.err" ||
	t_fail "roced --dry-run as root failed"
if nobody "$roced" --dry-run -f "$tmp/roced.conf" >"$tmp/nobody.plan" 2>"$tmp/nobody.err"; then
	cmp -s "$tmp/root.plan" "$tmp/nobody.plan" ||
		{ diff "$tmp/root.plan" "$tmp/nobody.plan" | head; t_fail "nobody's plan differs from root's"; }
	echo "ok: --dry-run as nobody probes in a user namespace of its own"
else
	cat "$tmp/nobody.err"
	grep -q 'use --caps' "$tmp/nobody.err" ||
		t_fail "--dry-run as nobody failed without saying what to do"
	nobody "$roced" --dry-run --caps host -f "$tmp/roced.conf" >/dev/null ||
		t_fail "--dry-run --caps host as nobody failed"
	echo "note: unprivileged user namespaces are off here: --caps needed"
fi
echo "ok: privs"
