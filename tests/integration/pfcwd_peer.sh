#!/bin/sh
# pfcwd_peer: a PFC storm from a host that is roced's LLDP neighbour, on
# a two-port rig ("The watchdog" and "Storm"). roced runs on the
# switch (swp1, swp2: the shipped policy, the watchdog at its defaults)
# and on host h1 (its own roced, system name wdpeer-h1 in a UTS namespace
# of its own, so that its LLDPDUs name it); h2 is a plain host.
#   - the storm's log line and the restore's name the port, the
#     qos-group, the priority and the LLDP neighbour as lldpd and NX-OS
#     show it: "LLDP neighbour wdpeer-h1 (chassis MAC, port h1)", the
#     chassis the one `show lldp neighbors json` has;
#   - while h1 storms, the other priority of the same port (DSCP 0 to h1)
#     and the same priority on the other port (DSCP 26 to h2) keep
#     flowing: measured from the receivers' per-datagram logs over the
#     storm (datagrams per second and the worst one-way latency, against
#     the same before the storm); both lose nothing and neither is ever
#     held (a held queue would keep its packets for the storm's 2 s);
#   - restore: measured from the storm's last frame to the restore as
#     roced dates it; never before auto-restore-multiplier x interval
#     (1 s, by roced's own clock); within it and a poll, printed;
#   - the packets the watchdog says it dropped are those h1 lost, though
#     traffic still runs at the restore (the shut queue's drops between
#     the restore's sample and its apply are counted too).
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/integration/lib.sh"
t_init pfcwd_peer
t_need_root
storm="$top_builddir/tests/tools/pfc_storm"
traffic="$top_builddir/tests/tools/traffic"
[ -x "$storm" ] && [ -x "$traffic" ] || t_fail "test tools not built (make check builds them)"
command -v unshare >/dev/null || t_fail "unshare (util-linux) is missing"

t_netns_add sw wdpeer
t_netns_add p1 wdpeer-h1
t_netns_add p2 wdpeer-h2
$IP link add swp1 netns "$sw" type veth peer name h1 netns "$p1"
$IP link add swp2 netns "$sw" type veth peer name h2 netns "$p2"
$IP -n "$sw" addr add 10.84.1.1/24 dev swp1
$IP -n "$sw" addr add 10.84.2.1/24 dev swp2
$IP -n "$p1" addr add 10.84.1.2/24 dev h1
$IP -n "$p2" addr add 10.84.2.2/24 dev h2
for l in "$sw swp1" "$sw swp2" "$p1 h1" "$p2 h2"; do
	# shellcheck disable=SC2086 # "NS DEV"
	set -- $l
	$IP -n "$1" link set "$2" up
done
t_conf_ports "$t_tmp/roced.conf" swp1 swp2
t_conf_match_any "$t_tmp/roced.conf"
t_conf_ports "$t_tmp/h1.conf" h1
t_roced_start "$sw" "$t_tmp/roced.conf" 'mirroring'

# h1's roced, named by a hostname of its own (ip netns exec keeps the
# machine's UTS namespace); unshare and sh exec, so the pid is roced's.
t_show_on_fail "h1's roced log" "$t_tmp/h1.log"
t_spawn $IP netns exec "$p1" unshare --uts sh -c 'hostname wdpeer-h1 && exec "$0" -f "$1"' \
	"$roced" "$t_tmp/h1.conf" >"$t_tmp/h1.log" 2>&1
h1pid=$t_pid
# The switch hears h1 (roced's first LLDPDUs go out at once, fast start).
nbr=
for _ in $(seq 300); do
	nbr=$($IP netns exec "$sw" "$rocesh" -c 'show lldp neighbors json' 2>/dev/null |
		python3 -c '
import json, sys
for n in json.load(sys.stdin)["neighbors"]:
    if n["name"] == "swp1" and n["system-name"] == "wdpeer-h1":
        print("%s %s" % (n["chassis-id"], n["port-id"]))' 2>/dev/null || true)
	[ -n "$nbr" ] && break
	sleep 0.1
done
[ -n "$nbr" ] || t_fail "the switch never heard h1's roced over LLDP"
chassis=${nbr% *}
port=${nbr#* }
h1mac=$($IP -n "$p1" -j link show h1 | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["address"])')
[ "$chassis" = "$h1mac" ] && [ "$port" = h1 ] ||
	t_fail "h1 as the switch sees it: chassis $chassis port $port (h1's MAC $h1mac)"
echo "LLDP neighbour on swp1: wdpeer-h1, chassis $chassis, port $port"

# Receivers with a line per datagram; senders on the switch.
for n in 1 2; do
	eval "ns=\$p$n"
	t_spawn $IP netns exec "$ns" "$traffic" recv -t 60 -i 4 -R "$t_tmp/ready$n" -l "$t_tmp/dg$n" >"$t_tmp/recv$n"
	eval "rx$n=\$t_pid"
	t_show_on_fail "receiver h$n" "$t_tmp/recv$n"
	for _ in $(seq 300); do [ -e "$t_tmp/ready$n" ] && break; sleep 0.05; done
	[ -e "$t_tmp/ready$n" ] || t_fail "receiver h$n did not start"
done
senders=
# flow 1: the stormed queue; 2: the other priority of swp1; 3: the same
# priority on swp2.
for f in "1 10.84.1.2 0x68" "2 10.84.1.2 0x00" "3 10.84.2.2 0x68"; do
	# shellcheck disable=SC2086 # "FLOW DST TOS"
	set -- $f
	t_spawn $IP netns exec "$sw" "$traffic" send "$2" -T "$3" -r 1000 -t 5 -s 500 -b 32768 -f "$1" >"$t_tmp/send$1"
	senders="$senders $t_pid"
	t_show_on_fail "sender $1" "$t_tmp/send$1"
done
sleep 1.5
$IP netns exec "$p1" "$storm" -i h1 -p 3 -q 65535 -r 2000 -t 2 >"$t_tmp/storm" ||
	t_fail "the storm injector failed"
cat "$t_tmp/storm"
for p in $senders; do t_wait "$p" || t_fail "a sender failed"; done
for _ in $(seq 100); do grep -q 'PFC storm over on qos-group 3' "$t_tmp/log" && break; sleep 0.05; done
t_wait "$rx1" || t_fail "receiver h1 failed"
t_wait "$rx2" || t_fail "receiver h2 failed"
cat "$t_tmp/send1" "$t_tmp/send2" "$t_tmp/send3" "$t_tmp/recv1" "$t_tmp/recv2"

# The log lines.
grep 'PFC storm' "$t_tmp/log"
want="swp1: PFC storm on qos-group 3 (priority 3), LLDP neighbour wdpeer-h1 (chassis $chassis, port h1): "
n=$(grep -cF "$want" "$t_tmp/log" || true)
[ "$n" = 1 ] || t_fail "$n storm lines naming the neighbour, expected 1 like '$want'"
want="swp1: PFC storm over on qos-group 3 (priority 3), LLDP neighbour wdpeer-h1 (chassis $chassis, port h1): queue restored (auto)"
n=$(grep -cF "$want" "$t_tmp/log" || true)
[ "$n" = 1 ] || t_fail "$n restore lines naming the neighbour, expected 1 like '$want'"
[ "$(grep -c 'PFC storm' "$t_tmp/log")" = 2 ] || t_fail "more PFC storm lines than one storm and one restore"

# What the watchdog says it dropped is what the stormed flow lost, the
# shut queue's drops up to its replacement at the restore included
# (traffic still runs then).
sent1=$(awk '/^sent/ {print $2}' "$t_tmp/send1")
got1=$(awk '/^tos 0x68/ {print $6}' "$t_tmp/recv1")
# The restore line gives the storm's own counts: drained at its start
# plus dropped while shut.
wd=$(sed -n 's/.*PFC storm over.* \([0-9]*\) packets drained and \([0-9]*\) dropped during the storm.*/\1 + \2/p' "$t_tmp/log")
wd=$(($wd))
echo "DSCP 26 to h1: sent $sent1, received $got1, the watchdog dropped $wd"
[ $((sent1 - got1)) = "$wd" ] || t_fail "the watchdog counted $wd drops, h1 lost $((sent1 - got1))"

# Other flows during the storm, from the per-datagram logs.
python3 - "$t_tmp/storm" "$t_tmp/dg1" "$t_tmp/dg2" "$t_tmp/send2" "$t_tmp/send3" <<'PY' || t_fail "the other flows did not keep flowing"
import re, statistics, sys
st = open(sys.argv[1]).read()
t0 = int(re.search(r"first_ns (\d+)", st).group(1))
t1 = int(re.search(r"last_ns (\d+)", st).group(1))
rows = []
for f in sys.argv[2:4]:
    for line in open(f):
        fl, seq, sent, recv = (int(x) for x in line.split())
        rows.append((fl, seq, sent, recv))
ok = True
for flow, name, sendf in ((2, "swp1 DSCP 0 (other priority)", sys.argv[4]),
                          (3, "swp2 DSCP 26 (other port)", sys.argv[5])):
    sent = int(re.search(r"^sent (\d+)", open(sendf).read(), re.M).group(1))
    mine = [r for r in rows if r[0] == flow]
    during = [r for r in mine if t0 <= r[2] <= t1]
    before = [r for r in mine if t0 - (t1 - t0) <= r[2] < t0]
    lat = lambda rs: sorted((r[3] - r[2]) / 1e6 for r in rs)
    ld, lb = lat(during), lat(before)
    rate = lambda rs, span: len(rs) / (span / 1e9)
    print("%s: %d sent, %d received; during the storm %.0f/s (before %.0f/s), "
          "latency median %.2f max %.1f ms (before %.2f / %.1f ms)" % (
              name, sent, len(mine), rate(during, t1 - t0), rate(before, t1 - t0),
              statistics.median(ld), ld[-1], statistics.median(lb), lb[-1]))
    # nothing lost, and flowing all through the storm: never held
    # (a held queue keeps its packets for the storm's 2 s)
    if len(mine) != sent or len(during) < 0.5 * (t1 - t0) / 1e9 * 1000 or ld[-1] > 500:
        ok = False
sys.exit(0 if ok else 1)
PY

# The restore, by roced's clock: never before 1 s after the storm's last
# frame (quiet time counted from it), and when, measured.
python3 - "$t_tmp/storm" "$sw" "$rocesh" <<'PY' || t_fail "the restore came too early"
import json, re, subprocess, sys, time
last = int(re.search(r"last_ns (\d+)", open(sys.argv[1]).read()).group(1))
best = None
for _ in range(3):
    a = time.monotonic_ns()
    out = subprocess.run(["ip", "netns", "exec", sys.argv[2], sys.argv[3], "-c",
                          "show queuing pfc-queue interface swp1 json"],
                         capture_output=True, text=True).stdout
    b = time.monotonic_ns()
    q = [q for q in json.loads(out)["interface"][0]["queues"] if q["qos-group"] == 3][0]
    at = (a + b) / 2 - q["last-restore-s-ago"] * 1e9
    if best is None or b - a < best[1]:
        best = (at, b - a)
ms = (best[0] - last) / 1e6
print("restored %.0f ms (+- %.0f) after the storm's last frame (auto-restore 10 x 100 ms, bound 1100 ms)" % (ms, best[1] / 2e6))
sys.exit(0 if ms >= 1000 - best[1] / 2e6 - 2 else 1)
PY
t_stop "$h1pid" TERM || t_fail "h1's roced exited with an error"
t_roced_stop
echo "pfcwd_peer: ok"
