#!/bin/sh
# metrics_watermark: a burst that fills a queue between two scrapes is
# in the queue's watermark though the backlog gauge never sees it.
#   - the rig: a switch namespace with a bridge of two veth ports, swp1
#     from h1 and swp3 to h3; roced with the shipped policy, the no-drop
#     queue 3 towards h3 shaped to 40 Mb/s, the metrics textfile written
#     every second, xoff 100000 bytes;
#   - h1 sends 300 datagrams of 1000 bytes of DSCP 26 at once (h1 runs
#     no roced and ignores pause): queue 3 of swp3 fills and drains
#     within some 60 ms, while the sampler reads it every 2 ms;
#   - the first textfile written after the burst has
#     roced_queue_watermark_bytes{kind="periodic"} of the burst with the
#     backlog gauge at 0 (the numbers are printed); a later one has the
#     periodic watermark at 0 and the persistent one still the burst's;
#   - the burst passes queue 3's xoff: roced_queue_above_xoff_seconds_total
#     above 0 and roced_queue_headroom_peak_bytes the peak less xoff;
#   - show queuing interface's peak (json peak-queue-depth-bytes) holds
#     it too, and clear qos statistics sets it back to 0 while the
#     persistent watermark stays.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/integration/lib.sh"
t_init metrics_watermark
t_need_root
traffic="$top_builddir/tests/tools/traffic"
[ -x "$traffic" ] || t_fail "test tools not built (make check builds them)"
tmp=$t_tmp

t_netns_add sw wmsw
$IP -n "$sw" link add br0 type bridge
$IP -n "$sw" link set br0 up
for h in 1 3; do
	t_netns_add "h$h" "wmh$h"
	eval "ns=\$h$h"
	$IP -n "$sw" link add "swp$h" type veth peer name "eth$h" netns "$ns"
	$IP -n "$sw" link set "swp$h" master br0
	$IP -n "$sw" link set "swp$h" up
	$IP -n "$ns" addr add "10.78.0.$h/24" dev "eth$h"
	$IP -n "$ns" link set "eth$h" up
	$IP -n "$ns" link set lo up
done
mac3=$($IP -n "$h3" -j link show dev eth3 | python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["address"])')
$IP -n "$h1" neigh replace 10.78.0.3 lladdr "$mac3" dev eth1 nud permanent

mkdir "$tmp/tf"
t_conf_ports "$tmp/sw.conf" swp1 swp3
t_conf_match_any "$tmp/sw.conf"
python3 - "$tmp/sw.conf" "$tmp/tf/roced.prom" <<'PY'
import sys
p, tf = sys.argv[1], sys.argv[2]
s = open(p).read()
shape = 'shape = { min = "1 kbps"; max = "40000 kbps"; };'
a = 'name = "c-out-8q-q3";\n\t\t\t\t\tbandwidth-remaining-percent = 50;'
assert a in s, 'the shipped roced.conf changed: ' + a
s = s.replace(a, a + ' ' + shape, 1)
# xoff at 100000 bytes, below what the burst queues
a = 'pause-pfc-cos = 3; mtu = 9216;'
assert a in s, 'the shipped roced.conf changed: ' + a
s = s.replace(a, a + ' pause-buffer = { buffer-size = 600000; '
              'pause-threshold = 100000; resume-threshold = 80000; };', 1)
s += '\nmetrics = { textfile = "%s"; interval = 1; };\n' % tf
open(p, 'w').write(s)
PY
t_roced_start "$sw" "$tmp/sw.conf" 'mirroring'
shw() { $IP netns exec "$sw" "$rocesh" -c "$1"; }
# sample FILE KIND: swp3 queue 3's watermark of KIND in FILE; "backlog":
# its backlog gauge
sample() {
	if [ "$2" = backlog ]; then
		k='roced_queue_backlog_bytes{port="swp3",queue="3"}'
	else
		k="roced_queue_watermark_bytes{port=\"swp3\",queue=\"3\",kind=\"$2\"}"
	fi
	awk -v k="$k" 'index($0, k " ") == 1 {print $2}' "$1"
}
t_until 10 test -s "$tmp/tf/roced.prom" || t_fail "no metrics textfile"

# mtime: the textfile's modification time, to the nanosecond
mtime() { stat -c %.9Y "$tmp/tf/roced.prom" 2>/dev/null || true; }
# next_write M: until the textfile is written after M
next_write() {
	t_until 5 sh -c '[ "$(stat -c %.9Y "$1")" != "$2" ]' - "$tmp/tf/roced.prom" "$1" ||
		t_fail "the textfile is not written again"
}
# The burst right after a write of the textfile (it drains in some 50
# ms, the next write is a second away), then the next write.
next_write "$(mtime)"
m0=$(mtime)
t_run $IP netns exec "$h1" "$traffic" send 10.78.0.3 -T 0x68 -r 0 -n 300 -s 1000 >"$tmp/send" ||
	t_fail "the burst's sender failed"
cat "$tmp/send"
next_write "$m0"
cp "$tmp/tf/roced.prom" "$tmp/after.prom"
per=$(sample "$tmp/after.prom" periodic)
pers=$(sample "$tmp/after.prom" persistent)
back=$(sample "$tmp/after.prom" backlog)
echo "textfile after the burst: backlog $back, watermark periodic $per, persistent $pers"
[ -n "$per" ] && [ "$per" -ge 20000 ] ||
	t_fail "the periodic watermark missed the burst: '$per'"
[ "$back" = 0 ] || t_fail "the burst is still queued ($back bytes): the gauge did not miss it, nothing tested"
[ "$pers" -ge "$per" ] || t_fail "the persistent watermark $pers is below the periodic $per"

# The burst went past queue 3's xoff: the time above it and the headroom
# it took.
above=$(awk -v k='roced_queue_above_xoff_seconds_total{port="swp3",queue="3"}' 'index($0, k " ") == 1 {print $2}' "$tmp/after.prom")
head=$(awk -v k='roced_queue_headroom_peak_bytes{port="swp3",queue="3"}' 'index($0, k " ") == 1 {print $2}' "$tmp/after.prom")
xoff=100000
echo "queue 3 of swp3: xoff $xoff bytes, above it $above s, headroom taken $head bytes"
python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) > 0 else 1)' "${above:-0}" ||
	t_fail "no time above xoff counted for a burst of $per bytes: '$above'"
[ -n "$head" ] && [ "$head" -gt 0 ] || t_fail "no headroom counted: '$head'"
# (the peak may come from a read the transmit side did not take)
[ "$head" -le $((per - xoff)) ] ||
	t_fail "the headroom $head is more than the peak $per less xoff $xoff"

# Two writes later: the periodic one starts again, the persistent stays.
sleep 2.5
cp "$tmp/tf/roced.prom" "$tmp/later.prom"
per2=$(sample "$tmp/later.prom" periodic)
pers2=$(sample "$tmp/later.prom" persistent)
echo "two writes later: watermark periodic $per2, persistent $pers2"
[ "$per2" = 0 ] || t_fail "the periodic watermark was not reset by the textfile's writes: $per2"
[ "$pers2" = "$pers" ] || t_fail "the persistent watermark moved: $pers -> $pers2"

# show queuing interface's peak, and clear qos statistics.
peak() {
	shw 'show queuing interface ethernet 1/3 json' | python3 -c '
import json, sys
d = json.load(sys.stdin)
q = [q for q in d["interface"][0]["queue"] if q["qos-group"] == 3][0]
print(q["counters"]["peak-queue-depth-bytes"])'
}
p0=$(peak) || t_fail "show queuing interface has no peak"
echo "show queuing interface ethernet 1/3: queue 3 peak $p0 bytes"
[ "$p0" -ge "$per" ] || t_fail "show queuing interface's peak $p0 is below the burst's $per"
shw 'clear qos statistics' >/dev/null || t_fail "clear qos statistics failed"
p1=$(peak)
[ "$p1" = 0 ] || t_fail "clear qos statistics left the peak at $p1"
shw 'show metrics' >"$tmp/show.prom"
[ "$(sample "$tmp/show.prom" persistent)" = "$pers" ] ||
	t_fail "clear qos statistics moved the persistent watermark"
echo "ok: metrics_watermark"
