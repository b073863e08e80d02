#!/bin/sh
# dcbx_pair: two roced negotiate DCBX across a veth pair.
#   switch (tests/fixtures/dcbx/switch.conf): not willing, PFC on 3, ETS
#     50/50, APP DSCP 26 -> 3;
#   host (host.conf): willing, PFC mode auto, no QoS policy of its own.
# - the host adopts PFC, the ETS recommendation and the APP entry: its
#   kernel state (tc -j: roced's htb tree and a filter appear) and show's
#   DCB part change once the switch starts;
# - the switch stopping (SIGTERM: a TTL 0 frame) reverts the host, not
#   by ageing its peer out;
# - the switch killed (SIGKILL: silence) reverts the host only after the
#   holdtime (10 s), counted as an age-out;
# - a host that is not willing and wants PFC on 4 (host_mismatch.conf):
#   mismatch under auto, PFC off with the reason in json, no tree.
# How long adoption and reversion take is printed, not asserted (polling
# every 50 ms, at most 30 s): bench/dcbx measures it.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
t_init dcbx_pair
t_need_root
[ -x "$rocesh" ] || t_skip "rocesh is not built"
fix="$top_srcdir/tests/fixtures/dcbx"
tmp=$t_tmp

t_veth_link sw dcbxsw swp1 host dcbxh eth0

now() { date +%s.%N; }
elapsed() { echo "$(now) $1" | awk '{ printf "%.3f", $1 - $2 }'; }
lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }
hsh() { "$IP" netns exec "$host" "$rocesh" -c "$1"; }
tree() { "$IP" netns exec "$host" "$TC" qdisc show dev eth0 root | grep -q ' 4791: root'; }
sw_pid=""
host_pid=""
t_show_on_fail "host roced log" "$tmp/host.log"
t_show_on_fail "switch roced log" "$tmp/sw.log"

# start WHO NS CONF: roced in NS, its pid in WHO_pid, ready (its first
# apply done and mirrored) within 30 s.
start() {
	t_spawn "$IP" netns exec "$2" "$roced" -f "$3" -D dcbx >"$tmp/$1.log" 2>&1
	eval "${1}_pid=\$t_pid"
	for _ in $(seq 600); do
		grep -q "mirroring roced's tc objects" "$tmp/$1.log" && return 0
		sleep 0.05
	done
	t_fail "$1 roced did not start"
}
# poll WHAT SECONDS COMMAND...: until COMMAND succeeds.
poll() {
	_w=$1 _n=$(($2 * 20))
	shift 2
	for _ in $(seq "$_n"); do
		"$@" && return 0
		sleep 0.05
	done
	t_fail "$_w: not within the time given"
}
not() { ! "$@"; }
json_check() { # SHOW PYTHON-EXPR: the show's json satisfies EXPR (j)
	hsh "$1 json" >"$tmp/j.json" || t_fail "'$1 json' failed"
	python3 - "$tmp/j.json" "$2" <<'PY' || { cat "$tmp/j.json"; t_fail "'$1': $2"; }
import json, sys
j = json.load(open(sys.argv[1]))
sys.exit(0 if eval('(' + sys.argv[2] + ')') else 1)
PY
}

# The shipped host example says the same as the host here.
"$roced" -n -f "$top_srcdir/conf/roced-host.conf" >/dev/null ||
	t_fail "conf/roced-host.conf does not load"

# --- adoption ---
start host "$host" "$fix/host.conf"
tree && t_fail "the host has a tree before any peer"
json_check "show interface priority-flow-control" \
	"j['interface'][0]['oper'] == 'auto: waiting for DCBX'"
t0=$(now)
start sw "$sw" "$fix/switch.conf"
poll "the host adopting the switch's ETS/APP" 30 tree
took=$(elapsed "$t0")
# How fast is measured by bench/dcbx; this test asserts what happened.
echo "host adopted in $took s"
"$IP" netns exec "$host" "$TC" -j qdisc show dev eth0 >"$tmp/q.json"
"$IP" netns exec "$host" "$TC" -j filter show dev eth0 parent 4791: >"$tmp/f.json"
python3 - "$tmp/q.json" "$tmp/f.json" <<'PY' || t_fail "the host's kernel state is not the adopted one"
import json, sys
q = json.load(open(sys.argv[1]))
f = json.load(open(sys.argv[2]))
root = [x for x in q if x.get('handle') == '4791:' and x.get('root')]
assert root and root[0]['kind'] == 'htb', q
leaves = [x for x in q if x.get('parent', '').startswith('4791:')]
assert len(leaves) == 8, leaves
assert f, 'no filter: the APP entry DSCP 26 -> 3 is not realised'
PY
# The htb rates of q-default and q3 are the 50/50 shares.
"$IP" netns exec "$host" "$TC" class show dev eth0 >"$tmp/c.txt"
r10=$(sed -n 's/.*class htb 4791:10 .* rate \([^ ]*\) .*/\1/p' "$tmp/c.txt")
r13=$(sed -n 's/.*class htb 4791:13 .* rate \([^ ]*\) .*/\1/p' "$tmp/c.txt")
[ -n "$r10" ] && [ "$r10" = "$r13" ] || t_fail "q-default ($r10) and q3 ($r13) do not share 50/50"
json_check "show interface priority-flow-control" \
	"j['interface'][0]['oper'] == 'on' and j['interface'][0]['priorities'] == [3]"
json_check "show lldp dcbx interface eth0" \
	"j['pfc']['result'] == 'adopted' and j['pfc']['oper'] == [3] and
	 j['pfc']['peer-willing'] is False and j['pfc']['local-willing'] is True and
	 j['ets']['result'] == 'adopted' and j['ets']['oper']['bandwidth'][0] == 50 and
	 j['ets']['oper']['bandwidth'][3] == 50 and j['app']['adopted'] and
	 {'selector': 'dscp', 'protocol': 26, 'priority': 3} in j['app']['oper'] and
	 j['peer']['port-id'] == 'swp1' and j['peer-speaks-cee'] is False"
json_check "show lldp neighbors detail" \
	"len(j['neighbors']) == 1 and j['neighbors'][0]['port-id'] == 'swp1' and
	 j['neighbors'][0]['port-description'] == 'Ethernet1/1'"
grep -q 'eth0: DCBX: PFC adopted' "$tmp/host.log" || t_fail "no log line of the adoption"

# --- TTL 0 ---
t0=$(now)
t_stop "$sw_pid" TERM || t_fail "the switch roced failed on SIGTERM"
poll "the host reverting after the switch's TTL 0" 30 not tree
took=$(elapsed "$t0")
echo "host reverted in $took s after SIGTERM"
# It forgot its peer on the shutdown LLDPDU (TTL 0), not by ageing it
# out: the age-out counter is still 0.
json_check "show lldp traffic interface eth0" \
	"j['interfaces'][0]['ageouts'] == 0"
json_check "show interface priority-flow-control" \
	"j['interface'][0]['oper'] == 'auto: waiting for DCBX'"
json_check "show lldp dcbx interface eth0" \
	"j['pfc']['result'] == 'no peer' and j['pfc']['oper-reason'] == 'no peer'"

# --- silence: age-out after the holdtime ---
start sw "$sw" "$fix/switch.conf"
poll "the host adopting again" 30 tree
t0=$(now)
kill -KILL "$sw_pid"
t_wait "$sw_pid" || true
sleep 3
tree || t_fail "the host forgot its silent peer before the holdtime"
poll "the host reverting after the holdtime" 30 not tree
took=$(elapsed "$t0")
echo "host reverted $took s after the switch went silent (holdtime 10 s)"
# The last frame came at most one timer (5 s) before the silence.
lt 4.5 "$took" || t_fail "the host reverted after $took s, before the holdtime"
json_check "show lldp traffic interface eth0" \
	"j['interfaces'][0]['ageouts'] == 1 and j['interfaces'][0]['malformed'] == 0"

# --- mismatch under auto ---
t_stop "$host_pid" TERM || t_fail "the host roced failed on SIGTERM"
start host "$host" "$fix/host_mismatch.conf"
start sw "$sw" "$fix/switch.conf"
poll "the host seeing the mismatch" 30 grep -q 'eth0: DCBX: PFC mismatch' "$tmp/host.log"
json_check "show lldp dcbx interface eth0" \
	"j['pfc']['result'] == 'mismatch' and j['pfc']['mismatch-reason'] == 'mismatch' and
	 j['pfc']['oper'] == [] and j['pfc']['oper-reason'] == 'mismatch' and
	 j['pfc']['local']['enabled'] == [4] and j['pfc']['peer']['enabled'] == [3] and
	 j['ets']['adopted'] is False"
json_check "show interface priority-flow-control" \
	"j['interface'][0]['oper'] == 'auto: waiting for DCBX' and j['interface'][0]['priorities'] == [] and
	 j['interface'][0]['oper-reason'] == 'mismatch'"
hsh "show interface priority-flow-control" | grep -q "Off (DCBX: mismatch)" ||
	t_fail "show interface priority-flow-control does not say why PFC is off"
tree && t_fail "a host that is not willing took the switch's ETS"
t_stop "$sw_pid" TERM || t_fail "the switch roced failed on SIGTERM"
t_stop "$host_pid" TERM || t_fail "the host roced failed on SIGTERM"
echo "ok: dcbx_pair"
