#!/bin/sh
# dcbx_peers: at most one DCBX peer per port, by 802.1Qaz's rule, and
# the peers roced must agree with or refuse (tests/tools/lldp_peer.py is
# the neighbour).
# Host side: roced on conf/roced-host.conf (willing, mode auto).
# - A peer that asks for PFC on 3 and sends no ETS Recommendation: the
#   host has no tree, so no queue to hold: "adopted: not realisable", PFC
#   off, logged once.
# - That peer leaves (TTL 0); another one sends PFC on 3 and an ETS
#   Recommendation: the host builds the tree and runs PFC on 3.
# - One spoofed LLDPDU from another chassis (PFC on 4): the port enters
#   "multiple peers", logs it once, and negotiates with neither (DCBX is
#   point to point): PFC off, the adopted tree gone, the shows say why.
# - A random-chassis flood (tests/tools/lldp_flood.py ... chassis) on a
#   port already in that state: no kernel write (tc monitor hears
#   nothing), still no DCBX peer, still one "multiple peers" line in the
#   log.
# - A peer that changes its mind at every frame: each change counted,
#   the outcome lines it causes logged at most once, and no qdisc changes
#   (tc monitor): a willing port's queues all have holdable leaves, so a
#   flip changes what a pause holds, never a leaf (whose packets it
#   would drop).
# Switch side: tests/fixtures/dcbx/switch.conf in mode auto.
# - A willing peer that never re-advertises (NIC firmware: PFC none): PFC
#   on, "peer willing", and show says the peer still advertises none.
# - The port is not willing: the peer's APP entry never reaches its
#   operational table.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
t_init dcbx_peers
t_need_root
[ -x "$rocesh" ] || t_skip "rocesh is not built"
tmp=$t_tmp
peer="$top_srcdir/tests/tools/lldp_peer.py"
t_veth_ns ns dcbxpe eth0 pe0
in_ns() { "$IP" netns exec "$ns" "$@"; }
json_check() { # SHOW PYTHON-EXPR
	in_ns "$rocesh" -c "$1 json" >"$tmp/j.json" || t_fail "'$1 json' failed"
	python3 - "$tmp/j.json" "$2" <<'PY' || { cat "$tmp/j.json"; t_fail "'$1': $2"; }
import json, sys
j = json.load(open(sys.argv[1]))
sys.exit(0 if eval('(' + sys.argv[2] + ')') else 1)
PY
}
until_log() { # WHAT PATTERN
	for _ in $(seq 200); do
		grep -q -- "$2" "$t_tmp/log" && return 0
		sleep 0.05
	done
	t_fail "$1: no /$2/ in the log"
}
count() { grep -c -- "$1" "$t_tmp/log" || true; }

# --- host: refusal ---
t_roced_start "$ns" "$top_srcdir/conf/roced-host.conf" "mirroring roced's tc objects" -D dcbx
in_ns python3 "$peer" pe0 --chassis 02:00:00:00:00:01 --enable 0x08
until_log "the refusal" "eth0: DCBX: PFC on priorities 0x08 adopted: not realisable"
json_check "show lldp dcbx interface eth0" \
	"j['pfc']['result'] == 'adopted' and j['pfc']['negotiated'] == [3] and
	 j['pfc']['unrealisable'] == [3] and j['pfc']['oper'] == [] and
	 j['pfc']['oper-reason'] == 'adopted: not realisable' and
	 'not realisable' in j['pfc']['local-why'] and j['peer-state'] == 'one peer'"
json_check "show interface priority-flow-control" \
	"j['interface'][0]['oper'] == 'off' and j['interface'][0]['priorities'] == [] and
	 j['interface'][0]['oper-reason'] == 'adopted: not realisable'"
json_check "show lldp traffic interface eth0" "j['interfaces'][0]['dcbx-refused'] == 1"
in_ns "$rocesh" -c "show interface priority-flow-control" | grep -q 'Off (not realisable)' ||
	t_fail "show interface priority-flow-control does not say the refusal"

# --- host: the peer leaves; another one with an ETS Recommendation ---
in_ns python3 "$peer" pe0 --chassis 02:00:00:00:00:01 --ttl 0
in_ns python3 "$peer" pe0 --chassis 02:00:00:00:00:03 --enable 0x08 --ets-rec 50,0,0,50
until_log "the second peer" "eth0: DCBX: PFC adopted (enabled 0x08), ETS adopted"
for _ in $(seq 100); do
	in_ns "$TC" qdisc show dev eth0 | grep -q 'qdisc tbf 4713:' && break
	sleep 0.05
done
json_check "show interface priority-flow-control" \
	"j['interface'][0]['oper'] == 'on' and j['interface'][0]['priorities'] == [3]"

# --- host: one spoofed frame ---
in_ns python3 "$peer" pe0 --chassis 02:00:00:00:00:66 --enable 0x10
until_log "the spoof" "eth0: DCBX: multiple peers"
t_until 30 sh -c "! '$IP' netns exec '$ns' '$TC' qdisc show dev eth0 | grep -q ' 4791: root'" ||
	t_fail "the adopted tree stayed beside two neighbours"
json_check "show lldp dcbx interface eth0" \
	"j['peer-state'] == 'multiple peers' and j['neighbors'] == 2 and
	 j['peer'] is None and j['pfc']['negotiated'] == [] and
	 j['pfc']['result'] == 'multiple peers' and j['pfc']['oper'] == [] and
	 j['pfc']['local-why'].startswith('off: mode auto: multiple peers') and
	 j['ets']['result'] == 'multiple peers' and j['app']['result'] == 'multiple peers'"
json_check "show interface priority-flow-control" \
	"j['interface'][0]['oper'] == 'auto: waiting for DCBX' and
	 j['interface'][0]['oper-reason'] == 'multiple peers'"
json_check "show lldp traffic interface eth0" \
	"j['interfaces'][0]['dcbx-ignored'] == 1 and j['interfaces'][0]['multiple-peers'] == 1"

# --- host: a random-chassis flood ---
sock=$(sed -n 's/.*control socket \([^ ]*\)$/\1/p' "$t_tmp/log" | head -1)
[ -S "$sock" ] || t_fail "no control socket in the log"
t_spawn "$TC" -n "$ns" monitor >"$tmp/mon" 2>&1
mon=$t_pid
sleep 0.3
in_ns python3 "$top_srcdir/tests/tools/lldp_flood.py" pe0 2000 3 "$sock" "$roced_pid" chassis >"$tmp/flood.json" ||
	t_fail "the flood failed"
cat "$tmp/flood.json"
sleep 0.5
t_stop "$mon" TERM || true
json_check "show lldp dcbx interface eth0" \
	"j['peer'] is None and j['pfc']['oper'] == [] and
	 j['peer-state'] == 'multiple peers'"
json_check "show lldp traffic interface eth0" \
	"j['interfaces'][0]['dcbx-ignored'] >= 100"
[ "$(count 'eth0: DCBX: multiple peers')" = 1 ] ||
	t_fail "the multiple peers state was logged more than once a minute"
# tc monitor prints every change to the namespace's qdiscs, classes and
# filters: the flood must cause none.
t_show_on_fail "tc monitor" "$tmp/mon"
writes=$(grep -c . "$tmp/mon" || true)
echo "flood: $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["sent"])' "$tmp/flood.json") frames, tc changes: $writes"
[ "$writes" = 0 ] || t_fail "the flood caused $writes kernel writes"
t_roced_stop

# --- host: a peer that changes its mind at every frame ---
# (PFC 3, then 3 and 4, and so on, with an ETS Recommendation.)
t_roced_start "$ns" "$top_srcdir/conf/roced-host.conf" "mirroring roced's tc objects" -D dcbx
in_ns python3 "$peer" pe0 --chassis 02:00:00:00:00:02 --enable 0x08 --ets-rec 50,0,0,50
until_log "the flapping peer's first frame" "eth0: DCBX: PFC adopted (enabled 0x08), ETS adopted"
for _ in $(seq 100); do
	in_ns "$TC" qdisc show dev eth0 | grep -q 'qdisc tbf 4713:' && break
	sleep 0.05
done
sleep 0.5
t_spawn "$TC" -n "$ns" monitor >"$tmp/mon2" 2>&1
mon=$t_pid
sleep 0.3
in_ns python3 "$peer" pe0 --chassis 02:00:00:00:00:02 --enable 0x18 --flap 0x08 \
	--ets-rec 50,0,0,50 --count 6 --interval 0.3
sleep 1
t_stop "$mon" TERM || true
t_show_on_fail "tc monitor (flap)" "$tmp/mon2"
json_check "show lldp traffic interface eth0" \
	"j['interfaces'][0]['dcbx-peer-changes'] == 6"
n=$(count 'eth0: DCBX: PFC .*(enabled')
echo "flapping peer: $n outcome lines for 7 frames (6 changes); tc changes: $(grep -c . "$tmp/mon2" || true)"
# The line at startup (no peer), the peer's arrival, then at most one.
[ "$n" -le 3 ] || t_fail "a flapping peer was logged $n times within a minute"
# Every queue of a willing port in mode auto has a holdable leaf: the
# flips change which priorities a pause holds, never a qdisc.
[ "$(grep -c . "$tmp/mon2" || true)" = 0 ] ||
	t_fail "a flapping peer's PFC changed the kernel's qdiscs"
json_check "show lldp dcbx interface eth0" "j['pfc']['oper'] in ([3], [3, 4])"
t_roced_stop

# --- switch: NIC firmware that never re-advertises; not willing: APP ---
sed 's/mode = "on"/mode = "auto"/' "$top_srcdir/tests/fixtures/dcbx/switch.conf" >"$tmp/switch.conf"
"$IP" -n "$ns" link add swp1 type veth peer name pf1
"$IP" -n "$ns" link set swp1 up
"$IP" -n "$ns" link set pf1 up
t_roced_start "$ns" "$tmp/switch.conf" "mirroring roced's tc objects" -D dcbx
in_ns python3 "$peer" pf1 --willing --enable 0 --app 6:5:48
until_log "the firmware peer" "swp1: DCBX: PFC peer willing"
json_check "show lldp dcbx interface swp1" \
	"j['pfc']['result'] == 'peer willing' and j['pfc']['oper'] == [3] and
	 j['pfc']['peer']['enabled'] == [] and 'still advertises none' in j['pfc']['local-why'] and
	 {'selector': 'dscp', 'protocol': 48, 'priority': 6} in j['app']['peer'] and
	 {'selector': 'dscp', 'protocol': 48, 'priority': 6} not in j['app']['oper']"
json_check "show interface priority-flow-control" \
	"[i for i in j['interface'] if i['name'] == 'swp1'][0]['oper'] == 'on'"
t_roced_stop
echo "dcbx_peers: ok"
