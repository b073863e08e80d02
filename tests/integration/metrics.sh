#!/bin/sh
# metrics: show metrics and the metrics textfile of a roced on a veth rig
# (swp1, and a port whose name holds a quote and a backslash), read by
# Prometheus' own checker:
#   - `promtool check metrics` passes on `rocesh -c 'show metrics'` and on
#     the textfile (the format and Prometheus' naming lint);
#   - the textfile's directory missing at the start: one warning, no
#     more at the next intervals; created, the file appears and the log
#     says it is written again; made read-only (roced keeps no
#     CAP_DAC_OVERRIDE), one warning for that error, and written again
#     once writable; a full file system (a tmpfs filled), one warning,
#     the last file kept whole with no temporary beside it, written
#     again once there is room;
#   - the samples: the odd name escaped as the format wants, pause
#     frames from the peer counted on the port, priority and direction
#     they came in on, the time paused during a 2 s storm within 1 % of
#     what its frames' quanta asked for, kernel writes, a refused reload (failure counted,
#     last reload success 0) and an accepted one; with a roced at the
#     other end of swp1, the DCBX peer, its willing bits, the agreement
#     per feature and the LLDP frames;
#   - a leaf qdisc replaced by another process and repaired by roced:
#     the queue's counters go on from the old leaf's (never down);
#   - a port whose link goes away: the text stays valid, the port has
#     its info, presence 0 and mode, no counters;
#   - roced removes the file when it stops;
#   - scrapes during a run of reloads: each whole, with every family;
#   - the shipped alert rules pass `promtool check rules` and their unit
#     tests (`promtool test rules`), in which every alert fires at least
#     once, and each has its line in contrib/prometheus/README.md.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/integration/lib.sh"
t_init metrics
t_need_root
command -v promtool >/dev/null ||
	t_skip "promtool is not installed (Debian's prometheus; scripts/install-deps.sh --test installs it)"
storm="$top_builddir/tests/tools/pfc_storm"
[ -x "$storm" ] || t_fail "test tools not built (make check builds them)"
rules="$top_srcdir/contrib/prometheus"

# --- the alert rules, with no server ---
promtool check rules "$rules/roced.rules.yml" || t_fail "promtool check rules refuses roced.rules.yml"
(cd "$rules" && promtool test rules roced.rules.test.yml) ||
	t_fail "the alert rules fail their tests (roced.rules.test.yml)"
# Every alert has a test that expects it to fire, and a line in the
# README's table.
python3 - "$rules" <<'PY' || t_fail "an alert or recording rule without a test or without its README line"
import sys, yaml
d = sys.argv[1]
rules = yaml.safe_load(open(d + '/roced.rules.yml'))
alerts = {r['alert'] for g in rules['groups'] for r in g['rules'] if 'alert' in r}
tests = yaml.safe_load(open(d + '/roced.rules.test.yml'))
fired = {t['alertname'] for u in tests['tests'] for t in u.get('alert_rule_test', [])
         if t.get('exp_alerts')}
readme = open(d + '/README.md').read()
assert alerts - fired == set(), 'no test fires: %s' % sorted(alerts - fired)
missing = sorted(a for a in alerts if '| %s |' % a not in readme)
assert not missing, 'not in README.md: %s' % missing
print('alerts, each tested firing and in the README: %s' % ' '.join(sorted(alerts)))
# Every recording rule is the expression of a promql_expr_test with
# samples expected, and in the README's table.
records = {r['record'] for g in rules['groups'] for r in g['rules'] if 'record' in r}
tested = set()
for u in tests['tests']:
    for t in u.get('promql_expr_test', []):
        if t.get('exp_samples'):
            tested.add(t['expr'].split('{')[0].strip())
assert records - tested == set(), 'recording rules untested: %s' % sorted(records - tested)
missing = sorted(r for r in records if '`%s`' % r not in readme)
assert not missing, 'not in README.md: %s' % missing
print('recording rules, each tested and in the README: %d' % len(records))
PY
echo "ok: roced.rules.yml checked and its tests pass"

odd='q"2\a'
t_netns_add sw metrics
t_netns_add peer metrics-peer
$IP link add swp1 netns "$sw" type veth peer name h1 netns "$peer"
$IP link add "$odd" netns "$sw" type veth peer name h2 netns "$peer"
for p in swp1 "$odd"; do $IP -n "$sw" link set "$p" up; done
for p in h1 h2; do $IP -n "$peer" link set "$p" up; done
tf=$t_tmp/tf
t_conf_ports "$t_tmp/roced.conf" swp1 swp2
python3 - "$t_tmp/roced.conf" "$tf/roced.prom" <<'PY'
import sys
p, tf = sys.argv[1], sys.argv[2]
s = open(p).read()
assert '"swp2"' in s
s = s.replace('"swp2"', '"q\\"2\\\\a"')
s += '\nmetrics = { textfile = "%s"; interval = 1; };\n' % tf
open(p, 'w').write(s)
PY
t_roced_start "$sw" "$t_tmp/roced.conf" 'mirroring'
shw() { $IP netns exec "$sw" "$rocesh" -c "$@"; }

# wait_for SECONDS CMD...: until CMD succeeds.
wait_for()
{
	_n=$(($1 * 10))
	shift
	while [ "$_n" -gt 0 ]; do
		"$@" && return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	return 1
}
warnings() { grep -c 'metrics: cannot create a file beside' "$t_tmp/log" || true; }

# --- the directory is missing: one warning, retried ---
wait_for 10 grep -q 'metrics: cannot create a file beside' "$t_tmp/log" ||
	t_fail "no warning for the missing directory"
sleep 3.5
[ "$(warnings)" = 1 ] || t_fail "the missing directory was logged $(warnings) times in 3 intervals, expected once"
mkdir "$tf"
wait_for 10 test -s "$tf/roced.prom" || t_fail "the textfile was not written once its directory exists"
wait_for 5 grep -q "metrics: writing $tf/roced.prom again" "$t_tmp/log" ||
	t_fail "the log does not say the file is written again"
echo "ok: missing directory logged once, written once it exists"

# --- pause frames from the peer on swp1, priority 3 ---
$IP netns exec "$peer" "$storm" -i h1 -p 3 -q 100 -r 500 -t 1 >/dev/null ||
	t_fail "the pause injector failed"
sleep 1.5
shw 'show metrics' >"$t_tmp/show.prom" || t_fail "show metrics failed"
promtool check metrics <"$t_tmp/show.prom" || t_fail "promtool check metrics refuses show metrics"
cp "$tf/roced.prom" "$t_tmp/file.prom"
promtool check metrics <"$t_tmp/file.prom" || t_fail "promtool check metrics refuses the textfile"
grep -c '^# TYPE' "$t_tmp/show.prom" | sed 's/^/families in show metrics: /'
wc -l <"$t_tmp/show.prom" | sed 's/^ */lines: /'
# value NAME LABELS: the sample's value in show metrics ("" when none)
value() { awk -v k="$1$2" 'index($0, k " ") == 1 {print $2}' "$t_tmp/show.prom"; }
v=$(value roced_pfc_pause_frames_total '{port="swp1",priority="3",direction="rx"}')
echo "roced_pfc_pause_frames_total{port=\"swp1\",priority=\"3\",direction=\"rx\"} $v"
[ -n "$v" ] && [ "$v" -gt 0 ] || t_fail "the pause frames received on swp1 are not counted: '$v'"
v=$(value roced_pfc_pause_frames_total '{port="swp1",priority="2",direction="rx"}')
[ "$v" = 0 ] || t_fail "pause counted on priority 2 of swp1: '$v'"
grep -q '^roced_build_info{version="[^"]*"} 1$' "$t_tmp/show.prom" || t_fail "no roced_build_info"
grep -q '^roced_port_info{port="q\\"2\\\\a",alias="Ethernet1/2",dcb="software"} 1$' "$t_tmp/show.prom" ||
	t_fail "the odd port name is not escaped as the format wants: $(grep '^roced_port_info' "$t_tmp/show.prom")"
grep -q '^roced_queue_no_drop{port="swp1",queue="3"} 1$' "$t_tmp/show.prom" || t_fail "queue 3 of swp1 is not no-drop"
grep -q '^roced_queue_packets_total{port="q\\"2\\\\a",queue="0"} ' "$t_tmp/show.prom" ||
	t_fail "no queue counters for the odd port"
v=$(value roced_kernel_writes_total '')
[ -n "$v" ] && [ "$v" -gt 0 ] || t_fail "no kernel writes counted: '$v'"
# The show read its queue counters through the one sampler: its dumps
# are counted there.
v=$(value roced_qdisc_reads_total '{kind="qdisc"}')
[ -n "$v" ] && [ "$v" -gt 0 ] || t_fail "no qdisc dump of the sampler counted: '$v'"
# The textfile holds the same families.
[ "$(grep '^# TYPE' "$t_tmp/file.prom")" = "$(grep '^# TYPE' "$t_tmp/show.prom")" ] ||
	t_fail "the textfile and show metrics have other families"
echo "ok: promtool check metrics passes on show metrics and the textfile"

# --- the time paused during a storm: what the frames' quanta ask for ---
# 2 s of 65535 quanta (3.3554 ms at the 10 Gb/s a veth is taken for)
# every 0.5 ms: one span from the first frame to the last frame's end,
# though the watchdog stops honouring them after its detection time.
# The expected time is what the injector's own send stamps make of the
# frames (asked_ns: the union of their spans, so that its own stalls on
# a loaded host are gaps on both sides); the metric must be within 1 %
# of it (it read 0.11 s of a 10 s storm when it counted the time roced
# held the queue).
paused() { shw 'show metrics' | awk -v k='roced_pfc_paused_seconds_total{port="swp1",priority="3"}' 'index($0, k " ") == 1 {print $2}'; }
p0=$(paused)
$IP netns exec "$peer" "$storm" -i h1 -p 3 -q 65535 -r 2000 -t 2 >"$t_tmp/storm.out" ||
	t_fail "the pause injector failed"
sleep 0.5
p1=$(paused)
python3 - "$t_tmp/storm.out" "$p0" "$p1" <<'PY' || t_fail "roced_pfc_paused_seconds_total is not the storm's time"
import re, sys
out = open(sys.argv[1]).read()
first, last, asked = (int(re.search(k + r' (\d+)', out).group(1))
                      for k in ('first_ns', 'last_ns', 'asked_ns'))
want = asked / 1e9
got = float(sys.argv[3]) - float(sys.argv[2])
print("storm: %s; paused %.4f s, the frames asked for %.4f s (%.3f %%)"
      % (out.strip(), got, want, 100 * (got - want) / want))
assert abs(got - want) <= 0.01 * want, (got, want)
PY
echo "ok: the time paused is the storm's, within 1 %"

# --- reloads: a refused one, then an accepted one ---
cp "$t_tmp/roced.conf" "$t_tmp/good.conf"
echo 'bogus-setting = 1;' >>"$t_tmp/roced.conf"
t_roced_signal HUP 'reload failed'
shw 'show metrics' >"$t_tmp/show.prom"
[ "$(value roced_config_reloads_total '{result="failure"}')" = 1 ] || t_fail "the refused reload is not counted"
[ "$(value roced_config_last_reload_success '')" = 0 ] || t_fail "roced_config_last_reload_success is not 0 after a refused reload"
cp "$t_tmp/good.conf" "$t_tmp/roced.conf"
t_roced_signal HUP 'reloaded'
shw 'show metrics' >"$t_tmp/show.prom"
[ "$(value roced_config_reloads_total '{result="success"}')" = 1 ] || t_fail "the accepted reload is not counted"
[ "$(value roced_config_last_reload_success '')" = 1 ] || t_fail "roced_config_last_reload_success is not 1"
grep '^roced_config_\|^roced_apply_\|^roced_kernel' "$t_tmp/show.prom"
echo "ok: reloads counted"

# --- scrapes during reloads: every read of show metrics and of the
# textfile is whole, with every family, while reloads follow each other
# (the file is replaced by a rename; show answers between applies) ---
grep '^# TYPE ' "$t_tmp/show.prom" | sort >"$t_tmp/families.0"
n0=$(grep -c 'reloaded' "$t_tmp/log" || true)
(for _ in 1 2 3 4 5 6 7 8; do kill -HUP "$roced_pid"; sleep 0.3; done) &
hups=$!
i=0
while kill -0 "$hups" 2>/dev/null || [ "$i" -lt 4 ]; do
	i=$((i + 1))
	shw 'show metrics' >"$t_tmp/during.prom" || t_fail "show metrics refused during a reload"
	cp "$tf/roced.prom" "$t_tmp/during.file" 2>/dev/null || t_fail "the textfile vanished during a reload"
	for f in during.prom during.file; do
		promtool check metrics <"$t_tmp/$f" >/dev/null 2>&1 ||
			t_fail "scrape $i during reloads: promtool refuses $f"
		grep '^# TYPE ' "$t_tmp/$f" | sort | cmp -s - "$t_tmp/families.0" ||
			t_fail "scrape $i during reloads: $f has other families"
	done
done
wait "$hups"
wait_for 10 sh -c '[ "$(grep -c reloaded "$1")" -ge $(($2 + 1)) ]' - "$t_tmp/log" "$n0" ||
	t_fail "no reload happened during the scrapes"
echo "ok: $i scrapes during $(($(grep -c reloaded "$t_tmp/log") - n0)) reloads, each whole"

# --- DCBX with a roced at the other end of swp1 (both mode on, not
# willing, the same policy: agreed) ---
t_conf_ports "$t_tmp/peer.conf" h1
t_show_on_fail "the peer's roced log" "$t_tmp/peer.log"
t_spawn "$IP" netns exec "$peer" "$roced" -f "$t_tmp/peer.conf" >"$t_tmp/peer.log" 2>&1
peer_pid=$t_pid
dcbx_agreed()
{
	shw 'show metrics' >"$t_tmp/show.prom" &&
		[ "$(value roced_dcbx_agreed '{port="swp1",feature="pfc"}')" = 1 ]
}
wait_for 30 dcbx_agreed || t_fail "DCBX did not agree on swp1 in the metrics: $(grep 'dcbx\|lldp' "$t_tmp/show.prom")"
[ "$(value roced_dcbx_peer_present '{port="swp1"}')" = 1 ] || t_fail "no DCBX peer on swp1"
[ "$(value roced_dcbx_peer_willing '{port="swp1",feature="pfc"}')" = 0 ] || t_fail "the peer is shown willing"
[ "$(value roced_dcbx_agreed '{port="swp1",feature="ets"}')" = 1 ] || t_fail "ETS not agreed"
v=$(value roced_lldp_frames_total '{port="swp1",direction="rx"}')
[ -n "$v" ] && [ "$v" -gt 0 ] || t_fail "no LLDP frames received on swp1: '$v'"
grep '^roced_dcbx\|^roced_lldp_frames_total' "$t_tmp/show.prom" | grep 'port="swp1"'
t_stop "$peer_pid" || true
echo "ok: DCBX peer, willing and agreed, LLDP frames"

# --- a leaf replaced: the queue's counters go on from where they were ---
# 200 datagrams out of swp1 into its default queue (0), then its leaf
# replaced by another process; roced repairs it with a new leaf that
# counts from 0, and the metrics must not go down (a Prometheus counter
# that drops reads as a reset, and rate() invents traffic).
$IP -n "$sw" addr add 10.87.0.1/24 dev swp1
$IP -n "$peer" addr add 10.87.0.2/24 dev h1
hmac=$($IP -n "$peer" -j link show dev h1 | python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["address"])')
$IP -n "$sw" neigh replace 10.87.0.2 lladdr "$hmac" dev swp1 nud permanent
$IP netns exec "$sw" python3 -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(200):
    s.sendto(b"x" * 100, ("10.87.0.2", 9))'
q0='{port="swp1",queue="0"}'
shw 'show metrics' >"$t_tmp/show.prom"
before=$(value roced_queue_packets_total "$q0")
[ -n "$before" ] && [ "$before" -ge 200 ] || t_fail "queue 0 of swp1 did not count the 200 datagrams: '$before'"
leaf=$($TC -n "$sw" -j qdisc show dev swp1 | python3 -c '
import json, sys
print(next(q["parent"] for q in json.load(sys.stdin) if q.get("parent", "").endswith(":10")))')
$TC -n "$sw" qdisc replace dev swp1 parent "$leaf" handle 99: pfifo
wait_for 10 grep -q 'swp1: qdisc .* replaced by pfifo 99: by another process: repairing' "$t_tmp/log" ||
	t_fail "roced did not repair the replaced leaf"
repaired() { [ "$($TC -n "$sw" -j qdisc show dev swp1 | grep -c '"handle":"99:"')" = 0 ]; }
wait_for 10 repaired || t_fail "the foreign leaf is still there"
fresh=$($TC -n "$sw" -s -j qdisc show dev swp1 | python3 -c '
import json, sys
print(next(q["packets"] for q in json.load(sys.stdin) if q.get("parent", "").endswith(":10")))')
shw 'show metrics' >"$t_tmp/show.prom"
after=$(value roced_queue_packets_total "$q0")
echo "queue 0 of swp1: $before packets before the replacement, the new leaf has $fresh, the metric $after"
[ "$fresh" -lt "$before" ] || t_fail "the new leaf did not start again ($fresh packets): nothing was tested"
[ -n "$after" ] && [ "$after" -ge "$before" ] ||
	t_fail "roced_queue_packets_total went down across the leaf's replacement: $before -> '$after'"
# the new leaf's own on top of the old one's (LLDP may add a frame to
# either between the readings, never take one away)
[ "$after" -ge $((before + fresh)) ] ||
	t_fail "the carried total $after is below the old leaf's $before plus the new one's $fresh"
echo "ok: queue counters carried over a replaced leaf"

# --- a full file system: one warning, the last file kept whole, no
# temporary left behind, written again once there is room ---
# A small tmpfs over the directory, in roced's mount namespace (that of
# ip netns exec, which this one's mounts do not reach); it goes with
# roced.
inr() { nsenter -t "$roced_pid" -m -- "$@"; }
inr mount -t tmpfs -o size=512k tmpfs "$tf" || t_fail "cannot mount a tmpfs over the textfile's directory"
nfull() { grep -c 'metrics: cannot write .*No space left on device' "$t_tmp/log" || true; }
wait_for 5 inr test -s "$tf/roced.prom" || t_fail "roced does not write in the tmpfs"
inr sh -c 'dd if=/dev/zero of="$1/fill" bs=4k 2>/dev/null; :' - "$tf"
wait_for 5 sh -c '[ "$(grep -c "metrics: cannot write .*No space left on device" "$1")" -gt 0 ]' - "$t_tmp/log" ||
	t_fail "no warning for the full file system: $(grep 'metrics:' "$t_tmp/log" | tail -n 3)"
sleep 3.5
[ "$(nfull)" = 1 ] || t_fail "the full file system was logged $(nfull) times in 3 intervals, expected once"
inr cat "$tf/roced.prom" >"$t_tmp/kept.prom"
promtool check metrics <"$t_tmp/kept.prom" || t_fail "the file kept on the full file system is not whole"
grep -q '^roced_build_info{' "$t_tmp/kept.prom" || t_fail "the file kept on the full file system lost its samples"
left=$(inr ls -A "$tf" | grep -vx -e roced.prom -e fill || true)
[ -z "$left" ] || t_fail "roced left on the full file system: $left"
n1=$(grep -c 'metrics: writing .* again' "$t_tmp/log")
inr rm "$tf/fill"
wait_for 5 sh -c '[ "$(grep -c "metrics: writing .* again" "$1")" -gt "$2" ]' - "$t_tmp/log" "$n1" ||
	t_fail "not written again once there is room"
inr umount "$tf" || t_fail "cannot unmount the tmpfs"
grep 'metrics: cannot write' "$t_tmp/log"
echo "ok: a full file system logged once, the last file kept whole with nothing beside it, written again with room"

# --- read-only: one warning for that error, written again after ---
chmod 555 "$tf"
n0=$(warnings)
wait_for 5 sh -c '[ "$(grep -c "metrics: cannot create a file beside" "$1")" -gt "$2" ]' - "$t_tmp/log" "$n0" ||
	t_fail "no warning for the read-only directory"
sleep 3.5
[ "$(warnings)" = $((n0 + 1)) ] || t_fail "the read-only directory was logged $(($(warnings) - n0)) times, expected once"
# Counted before the directory opens: roced may write (and log) the
# next second, before a count taken after the chmod.
n1=$(grep -c 'metrics: writing .* again' "$t_tmp/log")
chmod 755 "$tf"
wait_for 5 sh -c '[ "$(grep -c "metrics: writing .* again" "$1")" -gt "$2" ]' - "$t_tmp/log" "$n1" ||
	t_fail "not written again once the directory is writable"
grep 'metrics:' "$t_tmp/log"
echo "ok: read-only directory logged once, written again after"

# --- a port that goes away: still valid, nothing but its presence ---
$IP -n "$sw" link del "$odd"
sleep 1.5
shw 'show metrics' >"$t_tmp/show.prom"
promtool check metrics <"$t_tmp/show.prom" || t_fail "promtool check metrics refuses show metrics without the odd port's link"
cp "$tf/roced.prom" "$t_tmp/file.prom"
promtool check metrics <"$t_tmp/file.prom" || t_fail "promtool check metrics refuses the textfile without the odd port's link"
grep -q '^roced_port_present{port="q\\"2\\\\a"} 0$' "$t_tmp/show.prom" ||
	t_fail "the odd port is not shown absent: $(grep '^roced_port_present' "$t_tmp/show.prom")"
n=$(grep -c 'port="q\\"2' "$t_tmp/show.prom")
[ "$n" = 5 ] || t_fail "the port that went away has $n samples, expected 5 (info, presence, 3 modes): $(grep 'port="q' "$t_tmp/show.prom")"
echo "ok: a port gone, its info, presence 0 and mode alone"

t_roced_stop
[ ! -e "$tf/roced.prom" ] || t_fail "roced left its textfile behind when it stopped"
echo "ok: the textfile removed at the stop"
echo "metrics: ok"
