#!/bin/sh
# chaos.sh: roced as a daemon on a rig of many veth ports, under a bounded
# time of faults of every kind a fault campaign tried by hand, one after another
# with random choices (a seed, printed, replays the same sequence):
#   kill9     a reload of another configuration, roced killed with
#             SIGKILL somewhere in its apply, then started again
#   truncate  roced.conf cut (or emptied) in place, SIGHUP, then the rest
#             written and SIGHUP again: a reload caught mid-write
#   hotplug   a port deleted and created again
#   foreign   another process edits roced's objects on a port: its root
#             qdisc deleted, a class rate changed, a foreign leaf grafted,
#             a filter deleted, the MTU changed (each port at most once in
#             12 s, below the contested threshold of 5 in 10 s)
#   idle      control-socket clients that connect and say nothing
#   junk      junk lines typed into rocesh, in exec and in config mode,
#             and malformed requests on the socket
# The first part includes kill9; the second part, on one roced process,
# has all the others, and roced's RSS and open fds are read before and
# after it (after the idle clients are gone): the fds must come back to
# the same number, the RSS must not grow by more than CHAOS_RSS_KB.
# Afterwards, with the shipped configuration back in place: every port
# holds exactly roced's plan (plan_lib.sh: the dry run replayed by tc on
# a twin port), none is contested, a reload of the same file and
# `roced --once --force` write nothing, rocesh's show running-config is
# what it was.
# Prints the faults injected by kind, the ports checked, the repairs
# roced made, RSS and fds before and after.
#
# Environment: CHAOS_SECONDS (90: the two parts; the checks come after),
# CHAOS_PORTS (32), CHAOS_SEED (random), CHAOS_RSS_KB (1024; 6144 for an
# ASan build, whose quarantine of freed memory is part of the RSS).
# No timing is asserted: every wait polls with a generous bound, and a
# slow machine only injects fewer faults.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
. "$top_srcdir/tests/integration/plan_lib.sh"
t_init chaos
t_need_root
[ -x "$rocesh" ] || t_skip "rocesh is not built"
tmp=$t_tmp
secs=${CHAOS_SECONDS:-90}
nports=${CHAOS_PORTS:-32}
seed=${CHAOS_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
rss_max=${CHAOS_RSS_KB:-1024}
ctl="$top_srcdir/tests/integration/ctl_client.py"
echo "chaos: $nports ports, ${secs} s, seed $seed (CHAOS_SEED=$seed replays it)"
in_ns() { "$IP" netns exec "$ns" "$@"; }

# --- the rig: swp1..swpN, the shipped policy on each ---------------------
ports=$(seq -f 'swp%g' 1 "$nports" | paste -sd' ' -)
# shellcheck disable=SC2086
t_conf_ports "$tmp/a.conf" $ports
# B: another valid policy, so that a reload of it writes on every port.
python3 - "$tmp/a.conf" "$tmp/b.conf" <<'PY'
import sys
s = open(sys.argv[1]).read().replace('mtu = 9216;', 'mtu = 9000;')
s = s.replace('bandwidth-remaining-percent = 50;', 'bandwidth-remaining-percent = 60;', 1)
s = s.replace('bandwidth-remaining-percent = 50;', 'bandwidth-remaining-percent = 40;', 1)
open(sys.argv[2], 'w').write(s)
PY
conf=$tmp/roced.conf
cp "$tmp/a.conf" "$conf"
t_netns_add ns chaos
"$IP" -n "$ns" link set lo up
add_port() { "$IP" -n "$ns" link add "$1" type veth peer name "$1p"; }
for p in $ports; do add_port "$p"; done
# shellcheck disable=SC2086
tp_plan "$tmp/a.conf" $ports
"$roced" -n -f "$tmp/b.conf" >/dev/null 2>&1 || t_fail "the B configuration is not valid"

: >"$tmp/log.all"
if ldd "$roced" | grep -q libasan; then
	# ASan keeps freed memory in a quarantine of 256 MB to catch uses
	# after free, and the RSS grows with it; 4 MB keeps the check on the
	# frees that matter (recent ones) and the RSS figure meaningful.
	# The quarantine still comes and goes by a megabyte or two, so the
	# RSS bound is the quarantine's size plus 2 MB here; the leak check
	# proper is LeakSanitizer's at roced's exit (t_roced_stop wants 0).
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=4"
	export ASAN_OPTIONS
	rss_max=${CHAOS_RSS_KB:-6144}
	echo "ASan build: quarantine 4 MB, RSS bound $rss_max kB; leaks are checked at roced's exit"
fi
start_roced() { t_roced_start "$ns" "$conf" 'mirroring' --caps probe; }
keep_log() { cat "$tmp/log" >>"$tmp/log.all"; }
start_roced

rss() { sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$roced_pid/status"; }
fds() { ls "/proc/$roced_pid/fd" | wc -l; }
alive() { _t_alive "$roced_pid" || t_fail "roced ($roced_pid) died: $1"; }
# rnd VAR N: VAR = a number 0..N-1, from a generator of our own seeded
# with $seed (the C library's old LCG; the shell's arithmetic is 64 bits).
_rs=$((seed % 2147483648))
rnd()
{
	_rs=$(((_rs * 1103515245 + 12345) % 2147483648))
	eval "$1=$(((_rs / 65536) % $2))"
}

# --- faults ----------------------------------------------------------------
n_kill9=0 n_truncate=0 n_hotplug=0 n_foreign=0 n_idle=0 n_junk=0
count=0
current=a
holders=""

f_kill9()
{
	[ "$current" = a ] && current=b || current=a
	cp "$tmp/$current.conf" "$conf.new"
	mv "$conf.new" "$conf"
	kill -HUP "$roced_pid"
	# Somewhere in the reload: parsing, compiling or the apply's batch.
	rnd d1 10
	rnd d2 10
	sleep "0.0$d1$d2"
	kill -KILL "$roced_pid"
	# (The shell would say "Killed" for it.)
	{ t_wait "$roced_pid" || true; } 2>/dev/null
	keep_log
	start_roced
	n_kill9=$((n_kill9 + 1))
}

f_truncate()
{
	size=$(wc -c <"$tmp/$current.conf")
	rnd how 4
	rnd permille 1000
	cut=$((permille * size / 1000))
	[ "$how" != 0 ] || cut=0
	# In place, as an editor or a careless script writes: truncate first.
	head -c "$cut" "$tmp/$current.conf" >"$conf"
	kill -HUP "$roced_pid"
	rnd d1 10
	sleep "0.0$d1"
	cat "$tmp/$current.conf" >"$conf"
	kill -HUP "$roced_pid"
	n_truncate=$((n_truncate + 1))
}

f_hotplug()
{
	rnd k "$nports"
	p=swp$((k + 1))
	"$IP" -n "$ns" link del "$p" 2>/dev/null || true
	rnd pause 2
	[ "$pause" = 0 ] || sleep 0.05
	add_port "$p" || t_fail "cannot add $p back"
	n_hotplug=$((n_hotplug + 1))
}

# One port at most every 12 s: roced calls a port contested after 5
# repairs in 10 s, and this test wants repairs, not contests.
f_foreign()
{
	now=$(date +%s)
	rnd k "$nports"
	k=$((k + 1))
	i=0
	while [ "$i" -lt "$nports" ]; do
		eval "last=\${last_$k:-0}"
		[ $((now - last)) -ge 12 ] && break
		k=$((k % nports + 1))
		i=$((i + 1))
	done
	[ "$i" -lt "$nports" ] || return 0
	eval "last_$k=$now"
	p=swp$k
	# Any of them may meet a port that roced is rebuilding or that a
	# hotplug just re-created: the edit is what counts, not its success.
	rnd what 5
	case $what in
	0) in_ns "$TC" qdisc del dev "$p" root ;;
	1) in_ns "$TC" class change dev "$p" parent 4791:1 classid 4791:13 htb rate 1gbit ceil 10gbit prio 1 ;;
	2) in_ns "$TC" qdisc replace dev "$p" parent 4791:13 handle 10: pfifo ;;
	3) in_ns "$TC" filter del dev "$p" parent 4791: ;;
	4) "$IP" -n "$ns" link set dev "$p" mtu 1500 ;;
	esac >/dev/null 2>&1 || true
	n_foreign=$((n_foreign + 1))
}

f_idle()
{
	# At most 12 of the 16 places are held, so that rocesh and the
	# checks still get in.
	live=""
	nheld=0
	for h in $holders; do
		if _t_alive "$h"; then
			live="$live $h"
			nheld=$((nheld + 1))
		else
			t_wait "$h" || true
		fi
	done
	holders=$live
	rnd n 4
	n=$((n + 1))
	[ $((nheld + n)) -le 12 ] || return 0
	rnd hold 15
	t_spawn "$IP" netns exec "$ns" python3 "$ctl" hold "$n" $((hold + 1)) >/dev/null 2>&1
	holders="$holders $t_pid"
	n_idle=$((n_idle + n))
}

f_junk()
{
	python3 - "$seed$count" >"$tmp/junk" <<'PY'
import random, string, sys
r = random.Random(sys.argv[1])
chars = string.printable.replace('\n', '').replace('\r', '')
lines = []
for _ in range(20):
    k = r.choice(['rand', 'long', 'ctrl', 'almost'])
    if k == 'rand':
        l = ''.join(r.choice(chars) for _ in range(r.randint(1, 80)))
    elif k == 'long':
        l = 'show ' + 'x' * r.randint(1000, 9000)
    elif k == 'ctrl':
        l = ''.join(chr(r.randint(1, 31)) for _ in range(r.randint(1, 20))).replace('\n', ' ')
    else:
        l = r.choice(['show queuing interface swp99999', 'bandwidth remaining percent 101',
                      'random-detect minimum-threshold 9 kbytes maximum-threshold 1 kbytes',
                      'interface Ethernet99/99 zz', 'mtu 100000', 'show show', 'reload confi'])
    lines.append(l)
# In exec mode, then in config mode (where a line is a config command);
# the lines start with a digit there, which no command does.
print('\n'.join(lines))
print('configure terminal')
print('\n'.join('9' + l for l in lines))
print('end')
PY
	in_ns "$rocesh" <"$tmp/junk" >/dev/null 2>&1 && t_fail "rocesh accepted junk: $tmp/junk"
	in_ns python3 "$ctl" send 'nonsense' '{"cmd":"ping","cmd":"reload"}' '{"cmd":"bogus"}' \
		'{"cmd":"show","what":"show running-config","args":[1,2],"json":7}' >/dev/null 2>&1 || true
	n_junk=$((n_junk + 1))
}

# run_part SECONDS KINDS: faults drawn from KINDS (with repeats for
# weight) until SECONDS are over.
run_part()
{
	end=$(($(date +%s) + $1))
	set -- $2
	while [ "$(date +%s)" -lt "$end" ]; do
		count=$((count + 1))
		rnd i $#
		eval "kind=\${$((i + 1))}"
		"f_$kind"
		alive "after $kind fault $count"
		rnd pause 3
		sleep "0.$pause"
		[ $((count % 20)) != 0 ] || echo "$count $(rss) $(fds)" >>"$tmp/rss"
	done
}

part1=$((secs * 2 / 5))
part2=$((secs - part1))
kinds="kill9 truncate truncate hotplug hotplug foreign foreign foreign idle junk"
run_part "$part1" "$kinds"
echo "part 1 (${part1} s, kill -9 included): $count faults"

# quiesce OUT: the same steps before and after part 2, so that the RSS
# and fd figures compare like with like: the idle clients stopped, the
# shipped file back (renamed into place) and reloaded, the ports settled
# (every repair done), the show commands the checks use, then the fd
# count once the last client's place is released (the same number twice,
# half a second apart).
settled() { [ -z "$(tp_check "$ns" $ports)" ]; }
quiesce()
{
	for h in $holders; do { t_stop "$h" || true; } 2>/dev/null; done
	holders=""
	cp "$tmp/a.conf" "$conf.new"
	mv "$conf.new" "$conf"
	current=a
	in_ns "$rocesh" -c 'reload config' >"$tmp/reload" 2>&1 ||
		t_fail "reload config: $(cat "$tmp/reload")"
	t_until 60 settled || true
	in_ns python3 "$ctl" send '{"cmd":"show","what":"show queuing interface","args":[],"json":true}' \
		>"$tmp/show" 2>&1 || t_fail "show queuing interface: $(cat "$tmp/show")"
	in_ns "$rocesh" -c 'show running-config' >"$1" 2>&1 ||
		t_fail "show running-config: $(cat "$1")"
	q_fds=$(fds)
	for _ in $(seq 20); do
		sleep 0.5
		[ "$(fds)" = "$q_fds" ] && break
		q_fds=$(fds)
	done
	q_rss=$(rss)
}

# Twice: the first one grows the heap to what the show answers of 32
# ports need (a megabyte or so, measured), which is not a leak.
quiesce "$tmp/running.before"
quiesce "$tmp/running.before"
fds0=$q_fds
rss0=$q_rss
c1=$count
kinds="truncate truncate hotplug hotplug foreign foreign foreign idle junk"
run_part "$part2" "$kinds"
echo "part 2 (${part2} s, one roced process): $((count - c1)) faults"

# --- afterwards ---------------------------------------------------------------
quiesce "$tmp/running.after"
fds1=$q_fds
rss1=$q_rss
# shellcheck disable=SC2086
if ! t_until 60 settled; then
	for p in $(tp_check "$ns" $ports); do
		echo "--- $p: - plan replayed by tc, + roced"
		cat "$t_tmp/tp.diff.$p"
	done
	t_fail "ports do not hold their plan: $(tp_check "$ns" $ports | paste -sd' ' -)"
fi
python3 - "$tmp/show" "$nports" <<'PY' || t_fail "show queuing interface: ports missing or contested"
import json, sys
r = json.loads(open(sys.argv[1]).readline())
ports = r['data']['interface']
bad = [p['name'] for p in ports if p['contested']]
assert len(ports) == int(sys.argv[2]), len(ports)
assert not bad, 'contested: %s' % bad
PY
# Converged: one more reload of the same file writes nothing, and
# neither does a one-shot roced, which reads every port back from the
# kernel (not the daemon's mirror of it).
l0=$(wc -l <"$tmp/log")
in_ns "$rocesh" -c 'reload config' >"$tmp/reload" 2>&1 ||
	t_fail "the last reload: $(cat "$tmp/reload")"
tail -n +$((l0 + 1)) "$tmp/log" >"$tmp/last"
grep -q 'reloaded' "$tmp/last" || t_fail "the last reload is not in the log"
if grep -E ': (ok|[a-z ]+), [0-9]+ writes?$' "$tmp/last"; then
	t_fail "a reload of the same file still wrote"
fi
in_ns "$roced" -f "$conf" --caps probe --once --force >"$tmp/once" 2>&1 ||
	t_fail "roced --once --force: $(cat "$tmp/once")"
grep -q "^roced: $nports ports, 0 writes" "$tmp/once" ||
	t_fail "roced --once --force still had to write: $(grep -v ': warning: ' "$tmp/once")"
diff -u "$tmp/running.before" "$tmp/running.after" || t_fail "the running configuration changed"

[ "$fds1" = "$fds0" ] || t_fail "roced holds $fds1 fds, $fds0 before part 2: $(ls -l "/proc/$roced_pid/fd")"
keep_log
echo "RSS kB every 20 faults: $(awk -v c="$c1" '$1 > c { printf "%s ", $2 }' "$tmp/rss")"
repairs=$(grep -c ': repairing' "$tmp/log.all" || true)
refused=$(grep -c 'reload refused\|reload failed' "$tmp/log.all" || true)
cat <<EOF
chaos figures (seed $seed, ${secs} s, $count faults):
  faults injected: kill9 $n_kill9, truncate $n_truncate, hotplug $n_hotplug, foreign $n_foreign, idle clients $n_idle, junk $n_junk
  ports checked: $nports, each holding exactly its plan ($(tp_summary swp1)); then a reload and roced --once: 0 writes
  repairs made: $repairs (log lines 'repairing'); reloads refused or failed: $refused
  part 2 roced: RSS ${rss0} kB -> ${rss1} kB ($((rss1 - rss0)) kB), fds $fds0 -> $fds1
EOF
[ $((rss1 - rss0)) -le "$rss_max" ] || t_fail "RSS grew by $((rss1 - rss0)) kB (more than $rss_max kB)"
[ "$n_foreign" -eq 0 ] || [ "$repairs" -gt 0 ] || t_fail "no repair was logged for $n_foreign foreign edits"
t_roced_stop
echo "PASS: chaos"
