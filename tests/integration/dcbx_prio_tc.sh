#!/bin/sh
# dcbx_prio_tc: a willing roced host runs its switch's priority -> TC
# table. The switch is a Nexus in 4-queue mode as DCBX sees it
# (tests/tools/lldp_peer.py): PFC on 3, an ETS Recommendation with
# priority 3 in TC 1 (40 %) and every other priority in TC 0 (60 %), APP
# DSCP 26 -> 3. The host is roced on conf/roced-host.conf (willing, mode
# auto, no QoS policy of its own).
# - DSCP 26 frames the host sends (priority 3) land in TC 1's queue
#   (queue 1: its leaf's packet count, tc -j), none in queue 3;
#   unclassified frames in queue 0;
# - queue 1 has TC 1's share: its htb rate is 40/60 of queue 0's;
# - a PFC frame pausing priority 3 holds queue 1 (its tbf's rate drops),
#   not queue 3;
# - the shows print that table: show lldp dcbx (ETS oper priority-tc),
#   show queuing interface (CoS 3 in qos-group 1, no-drop qos-group 1).
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/integration/lib.sh"
t_init dcbx_prio_tc
t_need_root
[ -x "$rocesh" ] || t_skip "rocesh is not built"
tmp=$t_tmp
peer="$top_srcdir/tests/tools/lldp_peer.py"
send="$top_srcdir/tests/tools/frame_send.py"
storm="$top_builddir/tests/tools/pfc_storm"
[ -x "$storm" ] || t_fail "test tools not built (make check builds them)"

t_veth_link nx dcbxtn pe0 host dcbxth eth0
hsh() { "$IP" netns exec "$host" "$rocesh" -c "$1"; }
json_check() { # SHOW PYTHON-EXPR: the show's json satisfies EXPR (j)
	hsh "$1 json" >"$tmp/j.json" || t_fail "'$1 json' failed"
	python3 - "$tmp/j.json" "$2" <<'PY' || { cat "$tmp/j.json"; t_fail "'$1': $2"; }
import json, sys
j = json.load(open(sys.argv[1]))
sys.exit(0 if eval('(' + sys.argv[2] + ')') else 1)
PY
}
# qdisc_pkts HANDLE: the packets the host's qdisc HANDLE (4711:) sent.
qdisc_pkts() {
	"$IP" netns exec "$host" "$TC" -j -s qdisc show dev eth0 | python3 -c '
import json, sys
q = [x for x in json.load(sys.stdin) if x.get("handle") == sys.argv[1]]
print(q[0]["packets"] if q else -1)' "$1"
}
# tbf_rate HANDLE: the rate of the host's tbf HANDLE, in bytes/s.
tbf_rate() {
	"$IP" netns exec "$host" "$TC" -j qdisc show dev eth0 | python3 -c '
import json, sys
q = [x for x in json.load(sys.stdin) if x.get("handle") == sys.argv[1]]
print(q[0]["options"]["rate"] if q and q[0]["kind"] == "tbf" else -1)' "$1"
}

t_roced_start "$host" "$top_srcdir/conf/roced-host.conf" "mirroring roced's tc objects" -D dcbx
# One LLDPDU with the longest TTL: the neighbour stays however slow the
# machine is.
"$IP" netns exec "$nx" python3 "$peer" pe0 --chassis 02:00:00:00:00:4e \
	--port Ethernet1/1 --ttl 65535 --enable 0x08 --ets-rec 60,40 --prio-tc 0,0,0,1,0,0,0,0 \
	--app 3:5:26
t_until 30 grep -q "eth0: DCBX: PFC adopted (enabled 0x08), ETS adopted" "$t_tmp/log" ||
	t_fail "the host did not adopt the switch's PFC and ETS"
# The tree comes with the reconcile that follows the outcome.
t_until 30 sh -c "'$IP' netns exec '$host' '$TC' qdisc show dev eth0 | grep -q 'qdisc tbf 4711:'" ||
	t_fail "queue 1 got no holdable leaf: TC 1 is not the no-drop queue"

# --- the table in the kernel ---
# (this tc prints no JSON for htb classes: the text, rates with units)
"$IP" netns exec "$host" "$TC" class show dev eth0 >"$tmp/c.txt"
python3 - "$tmp/c.txt" <<'PY' || t_fail "queue 1 does not have TC 1's share"
import re, sys
unit = {'bit': 1, 'Kbit': 1e3, 'Mbit': 1e6, 'Gbit': 1e9, 'Tbit': 1e12}
rate = {m.group(1): float(m.group(2)) * unit[m.group(3)]
        for m in re.finditer(r'class htb (\S+) .*? rate ([0-9.]+)([A-Za-z]*bit)',
                             open(sys.argv[1]).read())}
r0, r1 = rate['4791:10'], rate['4791:11']
print('htb rates: queue 0 %g, queue 1 %g bit/s' % (r0, r1))
assert abs(r1 * 60 - r0 * 40) <= r0 * 0.6, (r0, r1)
PY
q0=$(qdisc_pkts 4710:) q1=$(qdisc_pkts 4711:) q3=$(qdisc_pkts 4713:)
"$IP" netns exec "$host" python3 "$send" eth0 40 ip 26 - || t_fail "cannot send the DSCP 26 frames"
"$IP" netns exec "$host" python3 "$send" eth0 20 ip6 26 - || t_fail "cannot send the DSCP 26 frames"
"$IP" netns exec "$host" python3 "$send" eth0 30 ip 0 - || t_fail "cannot send the DSCP 0 frames"
d0=$(($(qdisc_pkts 4710:) - q0)) d1=$(($(qdisc_pkts 4711:) - q1)) d3=$(($(qdisc_pkts 4713:) - q3))
echo "DSCP 26 x 60, DSCP 0 x 30 sent: queue 0 +$d0, queue 1 +$d1, queue 3 +$d3 packets"
[ "$d1" -eq 60 ] || t_fail "queue 1 (TC 1) took $d1 of the 60 DSCP 26 frames"
[ "$d3" -eq 0 ] || t_fail "queue 3 took $d3 frames: priority 3 is still in queue 3"
[ "$d0" -ge 30 ] || t_fail "queue 0 (TC 0) took $d0 of the 30 DSCP 0 frames"

# --- a pause of priority 3 holds queue 1 ---
# (pause frames for 2 s: each holds for 65535 quanta, a few ms)
r1=$(tbf_rate 4711:)
[ "$r1" -gt 0 ] || t_fail "queue 1's leaf is not a tbf before the pause"
t_spawn "$IP" netns exec "$nx" "$storm" -i pe0 -p 3 -q 65535 -r 1000 -t 2 >"$tmp/storm" 2>&1
st=$t_pid
# tbf 4711:'s rate as tc prints it. Read with awk, not python: a hold
# lasts as long as the pause frames keep coming (2 s), and a python
# start alone can take seconds on a loaded machine.
tbf_text() {
	"$IP" netns exec "$host" "$TC" qdisc show dev eth0 |
		awk '$2 == "tbf" && $3 == "4711:" { for (i = 4; i < NF; i++) if ($i == "rate") print $(i + 1) }'
}
base=$(tbf_text)
[ -n "$base" ] || t_fail "queue 1's leaf is not a tbf before the pause (text)"
held() {
	tbf_text >"$tmp/held" && [ -s "$tmp/held" ] && [ "$(cat "$tmp/held")" != "$base" ]
}
t_until 10 held || t_fail "a pause of priority 3 did not hold queue 1 (tbf rate $(tbf_rate 4711:))"
echo "queue 1 held by a pause of priority 3: tbf rate $base -> $(cat "$tmp/held")"
t_wait "$st" || t_fail "the PFC injector failed: $(cat "$tmp/storm")"

# --- the shows say the table the kernel runs ---
json_check "show lldp dcbx interface eth0" \
	"j['ets']['result'] == 'adopted' and
	 j['ets']['oper']['priority-tc'] == [0, 0, 0, 1, 0, 0, 0, 0] and
	 j['ets']['oper']['bandwidth'][:2] == [60, 40]"
json_check "show queuing interface eth0" \
	"[c['qos-group'] for c in j['interface'][0]['pfc-statistics']['cos']] == [0, 0, 0, 1, 0, 0, 0, 0] and
	 [g['priorities'] for g in j['interface'][0]['ingress'] if g['qos-group'] == 1] == [[3]] and
	 [g['priorities'] for g in j['interface'][0]['ingress'] if g['qos-group'] == 3] == [[]]"
hsh "show queuing interface eth0" >"$tmp/q.txt" || t_fail "show queuing interface failed"
t_show_on_fail "show queuing interface eth0" "$tmp/q.txt"
grep -Eq '^ +3 +1 ' "$tmp/q.txt" || t_fail "show queuing interface does not put CoS 3 in qos-group 1"
hsh "show lldp dcbx interface eth0" >"$tmp/d.txt" || t_fail "show lldp dcbx interface failed"
cat "$tmp/d.txt"
t_roced_stop
echo "dcbx_prio_tc: ok"
