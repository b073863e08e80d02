#!/bin/sh
# metrics_prometheus: a real Prometheus server scrapes roced's metrics
# through node_exporter's textfile collector during an incast and a PFC
# storm, and PromQL over its HTTP API finds them with the right labels.
#   - the rig: a switch namespace with a bridge of three veth ports
#     (swp1-3) to hosts h1-h3, roced on the switch with the shipped
#     policy (queue 3 no-drop, watchdog on), its queue 3 and default
#     queue towards h3 shaped to 40 Mb/s with pause thresholds (as
#     pfc_incast.sh), and `metrics { textfile; interval = 1; }`;
#   - node_exporter (--collector.disable-defaults --collector.textfile)
#     and prometheus (scrape and rule evaluation every second, storage
#     in the test's directory, roced.rules.yml loaded) run in a namespace
#     of their own on 127.0.0.1 and random ports; the test stops them;
#   - the incast: h1 and h2 send 80 Mb/s of DSCP 26 to h3, so the
#     switch pauses priority 3 out of swp1 and swp2; the hosts run no
#     roced and ignore the pause, so the no-drop queue of swp3 drops,
#     which RocedNoDropClassDrops' expression finds;
#   - the storm: h1 sends pause for priority 3 without end while h2
#     sends DSCP 26 to it, so the watchdog shuts swp1's queue 3;
#   - PromQL: roced_pfc_pause_frames_total with direction "tx" on swp1
#     and swp2 and "rx" on swp1, priority 3; roced_pfcwd_storms_total
#     on swp1 queue 3; the RocedPfcStorm alert firing for it. The
#     answers are printed.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/integration/lib.sh"
t_init metrics_prometheus
t_need_root
for b in prometheus prometheus-node-exporter curl; do
	command -v "$b" >/dev/null ||
		t_skip "$b is not installed (scripts/install-deps.sh --test installs prometheus, prometheus-node-exporter and curl)"
done
traffic="$top_builddir/tests/tools/traffic"
storm="$top_builddir/tests/tools/pfc_storm"
[ -x "$traffic" ] && [ -x "$storm" ] || t_fail "test tools not built (make check builds them)"
tmp=$t_tmp

# --- the rig ---
t_netns_add sw promsw
$IP -n "$sw" link add br0 type bridge
$IP -n "$sw" link set br0 up
for h in 1 2 3; do
	t_netns_add "h$h" "promh$h"
	eval "ns=\$h$h"
	$IP -n "$sw" link add "swp$h" type veth peer name "eth$h" netns "$ns"
	$IP -n "$sw" link set "swp$h" master br0
	$IP -n "$sw" link set "swp$h" up
	$IP -n "$ns" addr add "10.79.0.$h/24" dev "eth$h"
	$IP -n "$ns" link set "eth$h" up
	$IP -n "$ns" link set lo up
done
# Every sender's neighbours set beforehand (no ARP behind a held queue).
for a in 1 2 3; do
	eval "nsa=\$h$a"
	mac=$($IP -n "$nsa" -j link show dev "eth$a" | python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["address"])')
	for b in 1 2 3; do
		[ "$a" = "$b" ] && continue
		eval "nsb=\$h$b"
		$IP -n "$nsb" neigh replace "10.79.0.$a" lladdr "$mac" dev "eth$b" nud permanent
	done
done

mkdir "$tmp/tf"
t_conf_ports "$tmp/sw.conf" swp1 swp2 swp3
t_conf_match_any "$tmp/sw.conf"
python3 - "$tmp/sw.conf" "$tmp/tf/roced.prom" <<'PY'
import sys
p, tf = sys.argv[1], sys.argv[2]
s = open(p).read()
shape = 'shape = { min = "1 kbps"; max = "40000 kbps"; };'
reps = [
    ('name = "c-out-8q-q3";\n\t\t\t\t\tbandwidth-remaining-percent = 50;',
     'name = "c-out-8q-q3";\n\t\t\t\t\tbandwidth-remaining-percent = 50; ' + shape),
    ('{ name = "c-out-8q-q-default"; bandwidth-remaining-percent = 50; }',
     '{ name = "c-out-8q-q-default"; bandwidth-remaining-percent = 50; ' + shape + ' }'),
    ('pause-pfc-cos = 3; mtu = 9216;',
     'pause-pfc-cos = 3; mtu = 9216; pause-buffer = { buffer-size = 600000; '
     'pause-threshold = 300000; resume-threshold = 280000; };'),
]
for a, b in reps:
    assert a in s, 'the shipped roced.conf changed: ' + a
    s = s.replace(a, b, 1)
s += '\nmetrics = { textfile = "%s"; interval = 1; };\n' % tf
open(p, 'w').write(s)
PY
t_roced_start "$sw" "$tmp/sw.conf" 'mirroring'

# --- node_exporter and prometheus, in a namespace of their own ---
t_netns_add mon prommon
$IP -n "$mon" link set lo up
freeport() {
	$IP netns exec "$mon" python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
neport=$(freeport)
promport=$(freeport)
while [ "$promport" = "$neport" ]; do promport=$(freeport); done
t_show_on_fail "node_exporter" "$tmp/ne.log"
t_spawn $IP netns exec "$mon" prometheus-node-exporter \
	--web.listen-address="127.0.0.1:$neport" \
	--collector.disable-defaults --collector.textfile \
	--collector.textfile.directory="$tmp/tf" >"$tmp/ne.log" 2>&1
cat >"$tmp/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - $top_srcdir/contrib/prometheus/roced.rules.yml
scrape_configs:
  - job_name: node
    static_configs:
      - targets: ['127.0.0.1:$neport']
EOF
t_show_on_fail "prometheus" "$tmp/prom.log"
t_spawn $IP netns exec "$mon" prometheus \
	--config.file="$tmp/prometheus.yml" \
	--storage.tsdb.path="$tmp/tsdb" \
	--web.listen-address="127.0.0.1:$promport" >"$tmp/prom.log" 2>&1
api() { $IP netns exec "$mon" curl -sf --max-time 5 "http://127.0.0.1:$promport$1"; }
for _ in $(seq 300); do
	api /-/ready >/dev/null 2>&1 && break
	sleep 0.1
done
api /-/ready >/dev/null || t_fail "prometheus is not ready after 30 s"
echo "node_exporter on 127.0.0.1:$neport, prometheus on 127.0.0.1:$promport"

# query EXPR: the instant vector's samples, one "labels value" a line
query()
{
	$IP netns exec "$mon" curl -sf --max-time 5 -G \
		"http://127.0.0.1:$promport/api/v1/query" --data-urlencode "query=$1" |
		python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["status"] == "success", d
for r in d["data"]["result"]:
    m = {k: v for k, v in r["metric"].items() if k not in ("instance", "job")}
    print(json.dumps(m, sort_keys=True), r["value"][1])'
}
# until_query SECONDS EXPR: until EXPR returns a sample; prints them.
until_query()
{
	_n=$(($1 * 2))
	while [ "$_n" -gt 0 ]; do
		_r=$(query "$2" || true)
		[ -n "$_r" ] && { echo "$_r"; return 0; }
		sleep 0.5
		_n=$((_n - 1))
	done
	return 1
}
until_query 30 'roced_build_info' >/dev/null ||
	t_fail "prometheus has no roced_build_info after 30 s: $(api /api/v1/targets)"
echo "ok: prometheus scrapes roced's textfile through node_exporter"

# --- the incast: h1 and h2 to h3, DSCP 26, 40 Mb/s each ---
t_spawn $IP netns exec "$h3" "$traffic" recv -t 60 -i 4 -R "$tmp/ready3" >"$tmp/recv3"
rx=$t_pid
for _ in $(seq 300); do [ -e "$tmp/ready3" ] && break; sleep 0.05; done
senders=
for h in 1 2; do
	eval "ns=\$h$h"
	t_spawn $IP netns exec "$ns" "$traffic" send 10.79.0.3 -T 0x68 -r 5000 -t 4 -s 1000 -b 32768 -f "$h" >"$tmp/nd$h"
	senders="$senders $t_pid"
done
for p in $senders; do t_wait "$p" || t_fail "an incast sender failed"; done
t_wait "$rx" || t_fail "the incast receiver failed"
cat "$tmp/nd1" "$tmp/nd2" "$tmp/recv3"

# --- the storm: h1 pauses priority 3 without end, h2 sends to h1 ---
t_spawn $IP netns exec "$h1" "$traffic" recv -t 60 -i 4 -R "$tmp/ready1" >"$tmp/recv1"
rx=$t_pid
for _ in $(seq 300); do [ -e "$tmp/ready1" ] && break; sleep 0.05; done
t_spawn $IP netns exec "$h2" "$traffic" send 10.79.0.1 -T 0x68 -r 2000 -t 4 -s 500 -b 32768 -f 9 >"$tmp/st2"
tx=$t_pid
sleep 1
t_spawn $IP netns exec "$h1" "$storm" -i eth1 -p 3 -q 65535 -r 2000 -t 5
st=$t_pid
for _ in $(seq 100); do
	grep -q 'PFC storm on qos-group 3' "$t_tmp/log" && break
	sleep 0.05
done
grep -q 'PFC storm on qos-group 3' "$t_tmp/log" || t_fail "the switch's watchdog found no storm"
# The alert, while the storm lasts.
alert=$(until_query 20 'ALERTS{alertname="RocedPfcStorm",alertstate="firing"}') ||
	t_fail "RocedPfcStorm does not fire during the storm"
t_wait "$tx" || t_fail "the storm's victim sender failed"
t_wait "$st" || t_fail "the storm injector failed"
t_wait "$rx" || true
grep 'PFC storm' "$t_tmp/log"

# --- what Prometheus holds ---
echo "PromQL answers (labels without instance and job):"
check() # NAME EXPR: EXPR must return a sample with a value above 0
{
	_r=$(until_query 20 "$2") || t_fail "$1: no sample for $2"
	echo "$2"
	echo "$_r" | sed 's/^/  /'
	echo "$_r" | awk '{ if ($NF + 0 <= 0) bad = 1 } END { exit bad }' ||
		t_fail "$1: $2 is not above 0"
}
check "pause sent out of swp1" 'roced_pfc_pause_frames_total{port="swp1",priority="3",direction="tx"}'
check "pause sent out of swp2" 'roced_pfc_pause_frames_total{port="swp2",priority="3",direction="tx"}'
check "pause received on swp1" 'roced_pfc_pause_frames_total{port="swp1",priority="3",direction="rx"}'
check "the storm" 'roced_pfcwd_storms_total{port="swp1",queue="3"}'
check "the no-drop queue of swp3 dropped" 'increase(roced_queue_drops_total{port="swp3",queue="3"}[2m]) > 0 and on (instance, job, port, queue) roced_queue_no_drop == 1'
check "the restore or the storm still on" 'max_over_time(roced_pfcwd_storm{port="swp1",queue="3"}[1m])'
echo 'ALERTS{alertname="RocedPfcStorm",alertstate="firing"}'
echo "$alert" | sed 's/^/  /'
echo "$alert" | grep -q '"port": "swp1", "queue": "3"' || t_fail "RocedPfcStorm fired without swp1 queue 3's labels: $alert"
# No pause was sent out of swp3 (the congested port itself), and the
# labels say which way the frames went: none received on swp2.
r=$(query 'roced_pfc_pause_frames_total{port="swp2",priority="3",direction="rx"}')
echo "roced_pfc_pause_frames_total{port=\"swp2\",priority=\"3\",direction=\"rx\"}: $r"
case $r in *' 0') ;; *) t_fail "pause received on swp2: '$r'" ;; esac

# --- the dashboard: every panel's query returns data ---
# The recording rules its panels read were evaluated every second since
# the start, over the incast and the storm.
dash="$top_srcdir/contrib/grafana/roced-fabric.json"
gq="$top_srcdir/tests/tools/grafana_queries.py"
prom="http://127.0.0.1:$promport"
dashcheck() { $IP netns exec "$mon" python3 "$gq" "$1" "$prom"; }
echo "the dashboard's queries (contrib/grafana/roced-fabric.json):"
ok=
for _ in $(seq 20); do
	dashcheck "$dash" >"$tmp/dash.out" 2>&1 && { ok=1; break; }
	sleep 1
done
cat "$tmp/dash.out"
[ -n "$ok" ] || t_fail "a panel of the dashboard returns no data"
# The checker catches a typo: a metric name misspelt in one panel (an
# empty answer), and a query that does not parse.
python3 - "$dash" "$tmp/typo1.json" "$tmp/typo2.json" <<'PY'
import sys
s = open(sys.argv[1]).read()
a = 'port:roced_pfc_pause_frames:rate1m{job=~\\"$job\\",instance=~\\"$instance\\",direction=\\"rx\\"}'
assert a in s, 'the received-pause panel changed'
open(sys.argv[2], 'w').write(s.replace(a, a.replace('frames', 'frame'), 1))
b = 'histogram_quantile(0.99, sum by (instance, le)'
assert b in s, 'the apply time panel changed'
open(sys.argv[3], 'w').write(s.replace(b, b.replace('le)', 'le'), 1))
PY
for typo in typo1 typo2; do
	if dashcheck "$tmp/$typo.json" >"$tmp/$typo.out" 2>&1; then
		cat "$tmp/$typo.out"
		t_fail "the dashboard check passes a query with a typo ($typo)"
	fi
	grep FAIL "$tmp/$typo.out"
done
grep -q "FAIL panel 'PFC pause received per port and priority' target A: no data" "$tmp/typo1.out" ||
	t_fail "the misspelt metric is not named: $(cat "$tmp/typo1.out")"
grep -q "FAIL panel 'roced apply time (p99)' target A: refused" "$tmp/typo2.out" ||
	t_fail "the query that does not parse is not named: $(cat "$tmp/typo2.out")"
echo "ok: every panel of the dashboard returns data; a typo fails the check"
t_roced_stop
echo "metrics_prometheus: ok"
