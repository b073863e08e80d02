#!/bin/sh
# dcbx_hub: three roced on a shared segment. The hub is a plain Linux
# bridge in a namespace of its own that forwards LLDP (group_fwd_mask
# bit 14, 01:80:c2:00:00:0e), with a switch (conf/roced.conf, its port in
# mode auto, the watchdog off) and two hosts (conf/roced-host.conf:
# willing, mode auto) on it.
# - The switch and the first host alone: PFC on 3 at both (agreed,
#   adopted).
# - The second host joins late: every port now hears two LLDP
#   neighbours, and by 802.1Qaz (DCBX is point to point) none of the
#   three negotiates: PFC off at all three with the reason "multiple
#   peers", said in one line by show lldp dcbx and in one log line each;
#   the late host elects nobody (never "the peer is willing"), exactly as
#   the first host now stands.
# - The first host leaves (SIGTERM: its TTL 0 LLDPDU): the late host is
#   alone with the switch and runs PFC on 3 as the first did.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/integration/lib.sh"
t_init dcbx_hub
t_need_root
[ -x "$rocesh" ] || t_skip "rocesh is not built"
tmp=$t_tmp

t_netns_add hub dcbxhub
t_netns_add sw dcbxhsw
t_netns_add h1 dcbxh1
t_netns_add h2 dcbxh2
"$IP" -n "$hub" link add br0 type bridge
# LLDP's group address is one a bridge never forwards unless told.
"$IP" -n "$hub" link set br0 type bridge group_fwd_mask 0x4000 ||
	t_skip "this bridge cannot forward LLDP (group_fwd_mask)"
"$IP" -n "$hub" link set br0 up
for n in sw h1 h2; do
	eval "ns=\$$n"
	case $n in sw) port=swp1 ;; *) port=eth0 ;; esac
	"$IP" -n "$hub" link add "p-$n" type veth peer name "$port" netns "$ns"
	"$IP" -n "$hub" link set "p-$n" master br0
	"$IP" -n "$hub" link set "p-$n" up
	"$IP" -n "$ns" link set lo up
	"$IP" -n "$ns" link set "$port" up
done
# The late joiner is not plugged in yet.
"$IP" -n "$hub" link set p-h2 down

sed -e 's/priority-flow-control = { mode = "on"; };/priority-flow-control = { mode = "auto"; };/' \
	-e 's/watch-dog-interval = true;/watch-dog-interval = false;/' \
	"$top_srcdir/conf/roced.conf" >"$tmp/switch.conf"
grep -q 'mode = "auto"' "$tmp/switch.conf" && grep -q 'watch-dog-interval = false' "$tmp/switch.conf" ||
	t_fail "the shipped roced.conf changed: cannot set mode auto / the watchdog off"

sw_pid="" h1_pid="" h2_pid=""
start() { # WHO CONF
	eval "_ns=\$$1"
	t_show_on_fail "$1 roced log" "$tmp/$1.log"
	t_spawn "$IP" netns exec "$_ns" "$roced" -f "$2" -D dcbx >"$tmp/$1.log" 2>&1
	eval "${1}_pid=\$t_pid"
	for _ in $(seq 600); do
		grep -q "mirroring roced's tc objects" "$tmp/$1.log" && return 0
		sleep 0.05
	done
	t_fail "$1 roced did not start"
}
# pfc WHO PORT: what show interface priority-flow-control says of PORT,
# as "OPER PRIORITIES REASON".
pfc() {
	eval "_ns=\$$1"
	"$IP" netns exec "$_ns" "$rocesh" -c "show interface priority-flow-control json" 2>/dev/null |
		python3 -c 'import json, sys
i = [x for x in json.load(sys.stdin)["interface"] if x["name"] == sys.argv[1]][0]
print(i["oper"], i["priorities"], i.get("oper-reason"))' "$2"
}
pfc_on() { pfc "$1" "$2" | grep -q '^on \[3\]'; }
# wait_s SECS COMMAND...: COMMAND succeeds within SECS seconds of wall
# clock (t_until counts its sleeps, and each try here runs rocesh, which
# takes a while on a loaded machine). A wait, not a timing assertion.
wait_s() {
	_end=$(($(date +%s) + $1))
	shift
	until "$@" >/dev/null 2>&1; do
		[ "$(date +%s)" -lt "$_end" ] || return 1
		sleep 0.2
	done
}
multi() { pfc "$1" "$2" | grep -q "multiple peers"; }
dcbx_check() { # WHO PORT PYTHON-EXPR: show lldp dcbx interface PORT json
	eval "_ns=\$$1"
	"$IP" netns exec "$_ns" "$rocesh" -c "show lldp dcbx interface $2 json" >"$tmp/j.json" ||
		t_fail "$1: show lldp dcbx interface failed"
	python3 - "$tmp/j.json" "$3" <<'PY' || { cat "$tmp/j.json"; t_fail "$1 show lldp dcbx interface $2: $3"; }
import json, sys
j = json.load(open(sys.argv[1]))
sys.exit(0 if eval('(' + sys.argv[2] + ')') else 1)
PY
}

# --- the switch and the first host ---
start sw "$tmp/switch.conf"
start h1 "$top_srcdir/conf/roced-host.conf"
wait_s 60 pfc_on sw swp1 || t_fail "the switch: PFC not on with the first host ($(pfc sw swp1))"
wait_s 60 pfc_on h1 eth0 || t_fail "the first host: PFC not on ($(pfc h1 eth0))"
dcbx_check h1 eth0 "j['pfc']['result'] == 'adopted' and j['peer-state'] == 'one peer'"
echo "switch and first host: $(pfc sw swp1) / $(pfc h1 eth0)"

# --- the late joiner ---
echo "$(date +%T) the late joiner"
"$IP" -n "$hub" link set p-h2 up
start h2 "$top_srcdir/conf/roced-host.conf"
echo "$(date +%T) h2 started"
for w in "sw swp1" "h1 eth0" "h2 eth0"; do
	# shellcheck disable=SC2086
	wait_s 60 multi $w || t_fail "$w: not in multiple peers ($(pfc $w))"
	echo "$(date +%T) $w multi"
done
for w in "sw swp1" "h1 eth0" "h2 eth0"; do
	set -- $w
	echo "$1 with three on the hub: $(pfc "$1" "$2")"
	pfc "$1" "$2" | grep -q '^auto: waiting for DCBX \[\] multiple peers$' ||
		t_fail "$1: PFC is not off for multiple peers: $(pfc "$1" "$2")"
	dcbx_check "$1" "$2" \
		"j['peer-state'] == 'multiple peers' and j['neighbors'] == 2 and
		 j['peer'] is None and j['pfc']['result'] == 'multiple peers' and
		 j['pfc']['oper'] == [] and j['pfc']['agreed'] is False and
		 j['pfc']['local-why'].startswith('off: mode auto: multiple peers') and
		 'willing' not in j['pfc']['local-why'] and
		 j['ets']['result'] == 'multiple peers'"
	n=$(grep -c "DCBX: multiple peers (2 LLDP neighbours)" "$tmp/$1.log" || true)
	[ "$n" = 1 ] || t_fail "$1: $n 'multiple peers' log lines, not one"
done
echo "$(date +%T) all three in multiple peers"
# The text: the one line that says why, and no peer elected.
"$IP" netns exec "$h2" "$rocesh" -c "show lldp dcbx interface eth0" >"$tmp/h2.txt"
cat "$tmp/h2.txt"
grep -q 'Here: *off: mode auto: multiple peers' "$tmp/h2.txt" ||
	t_fail "the late host's show does not say multiple peers in one line"
grep -q 'peer is willing' "$tmp/h2.txt" &&
	t_fail "the late host elected a willing host"
grep -q 'DCBX: PFC peer willing' "$tmp/h2.log" &&
	t_fail "the late host negotiated with a willing host"

# --- the first host leaves: the late one behaves as the first did ---
echo "$(date +%T) the first host leaves"
t_stop "$h1_pid" TERM || t_fail "the first host's roced failed on SIGTERM"
wait_s 60 pfc_on h2 eth0 || t_fail "the late host: PFC not on once alone with the switch ($(pfc h2 eth0))"
wait_s 60 pfc_on sw swp1 || t_fail "the switch: PFC not on once alone with the late host ($(pfc sw swp1))"
dcbx_check h2 eth0 "j['pfc']['result'] == 'adopted' and j['peer-state'] == 'one peer' and
	j['peer']['port-id'] == 'swp1'"
echo "switch and late host: $(pfc sw swp1) / $(pfc h2 eth0)"
t_stop "$h2_pid" TERM || t_fail "the late host's roced failed on SIGTERM"
t_stop "$sw_pid" TERM || t_fail "the switch's roced failed on SIGTERM"
echo "dcbx_hub: ok"
