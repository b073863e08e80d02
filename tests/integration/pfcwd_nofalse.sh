#!/bin/sh
# pfcwd_nofalse: no false alarm. For PFCWD_NOFALSE_SECONDS (default 60)
# the no-drop queue of a veth rig (roced on swp1, the shipped policy, the
# watchdog on at its defaults) carries heavy DSCP 26 traffic while the
# peer pauses it again and again (20 ms of pause every 100 ms): the queue
# is held, fills and drains, pause arrives in every poll, but it always
# sends something, so no storm may be raised; and nothing is lost.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/integration/lib.sh"
t_init pfcwd_nofalse
t_need_root
secs=${PFCWD_NOFALSE_SECONDS:-60}
storm="$top_builddir/tests/tools/pfc_storm"
traffic="$top_builddir/tests/tools/traffic"
[ -x "$storm" ] && [ -x "$traffic" ] || t_fail "test tools not built (make check builds them)"

t_netns_add sw pfcwdnf
t_netns_add peer pfcwdnf-peer
$IP link add swp1 netns "$sw" type veth peer name h1 netns "$peer"
$IP -n "$sw" addr add 10.83.0.1/24 dev swp1
$IP -n "$peer" addr add 10.83.0.2/24 dev h1
$IP -n "$sw" link set swp1 up
$IP -n "$peer" link set h1 up
t_conf_ports "$t_tmp/roced.conf" swp1
t_conf_match_any "$t_tmp/roced.conf"
t_roced_start "$sw" "$t_tmp/roced.conf" 'mirroring'

t_spawn $IP netns exec "$peer" "$traffic" recv -t $((secs + 60)) -i 10 -R "$t_tmp/ready" >"$t_tmp/recv"
rx=$t_pid
t_show_on_fail "receiver" "$t_tmp/recv"
for _ in $(seq 300); do [ -e "$t_tmp/ready" ] && break; sleep 0.05; done
[ -e "$t_tmp/ready" ] || t_fail "the receiver did not start"
t_spawn $IP netns exec "$sw" "$traffic" send 10.83.0.2 -T 0x68 -r 20000 -t "$secs" -s 500 -b 32768 >"$t_tmp/send"
tx=$t_pid
t_show_on_fail "sender" "$t_tmp/send"
# The pauser: 20 ms of pause (2000 frames/s) every 100 ms, one process
# on one absolute schedule (a shell loop of short runs paused less and
# less as the machine got loaded).
t_spawn $IP netns exec "$peer" "$storm" -i h1 -p 3 -q 65535 -r 2000 -t "$secs" -c 20:100 >"$t_tmp/pauses"
pz=$t_pid
t_show_on_fail "pauser" "$t_tmp/pauses"
t_wait "$tx" || t_fail "the sender failed"
t_wait "$pz" || t_fail "the pauser failed"
t_wait "$rx" || t_fail "the receiver failed"
cat "$t_tmp/send" "$t_tmp/recv" "$t_tmp/pauses"
n=$(awk '/^bursts/ {print $2}' "$t_tmp/pauses")
[ "${n:-0}" -ge $((secs * 3)) ] || t_fail "only ${n:-0} pause bursts in $secs s: the rig did not pause enough"
grep -q 'PFC storm' "$t_tmp/log" && t_fail "a false alarm: $(grep 'PFC storm' "$t_tmp/log")"
sent=$(awk '/^sent/ {print $2}' "$t_tmp/send")
got=$(awk '/^total/ {print $3}' "$t_tmp/recv")
[ "$got" = "$sent" ] || t_fail "the no-drop class lost datagrams: sent $sent, received $got ($($IP netns exec "$peer" awk '/^Udp:/ {n++; if (n == 1) for (i = 1; i <= NF; i++) k[i] = $i; else for (i = 1; i <= NF; i++) if (k[i] == "RcvbufErrors") print "receiver socket overflows: " $i}' /proc/net/snmp))"
# Pause was really honoured: software PFC counted it and held the queue.
$IP netns exec "$sw" "$rocesh" -c 'show interface priority-flow-control detail json' >"$t_tmp/pfc.json"
python3 - "$t_tmp/pfc.json" <<'PY' || t_fail "show interface priority-flow-control: $(cat "$t_tmp/pfc.json")"
import json, sys
p = json.load(open(sys.argv[1]))["interface"][0]["priority"][3]
assert p["rx-pause"] > 1000 and p["paused-ms"] > 1000, p
print("priority 3: %d pause frames, held %d ms" % (p["rx-pause"], p["paused-ms"]))
PY
t_roced_stop
echo "pfcwd_nofalse: ok ($secs s, $sent datagrams, no storm, nothing lost)"
