#!/bin/sh
# dcbx_ends: roced at both ends of a link, on the shipped files.
#   switch: conf/roced.conf with its port in `priority-flow-control mode
#     auto` (NX-OS's default; the watchdog off, since the pause below
#     lasts long enough to be a storm);
#   host: conf/roced-host.conf as shipped (willing, mode auto, no QoS of
#     its own).
# The veth comes up after both roced run. Then:
# - PFC is operational at both ends: `show interface priority-flow-control`
#   says on with priority 3, `show lldp dcbx interface` says agreed at the
#   switch and adopted at the host (and why, in words), the host
#   advertises what it adopted (the switch hears PFC 3 from it), and both
#   applied plans enable PFC 3 with queue 3's leaf a tbf software PFC
#   holds (tc -j);
# - a pause for priority 3 received after the agreement holds queue 3 at
#   once, at each end, with no reload: the tbf drops to its trickle while
#   the pause lasts, and the log says the hold.
# The time from link-up to both ends on is printed (bench/dcbx measures
# its distribution); the test asserts what happens, not how fast.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/integration/lib.sh"
t_init dcbx_ends
t_need_root
[ -x "$rocesh" ] || t_skip "rocesh is not built"
storm="$top_builddir/tests/tools/pfc_storm"
[ -x "$storm" ] || t_fail "test tools not built (make check builds them)"
tmp=$t_tmp

t_veth_link sw dcbxesw swp1 host dcbxeh eth0
"$IP" -n "$sw" link set swp1 down

sed -e 's/priority-flow-control = { mode = "on"; };/priority-flow-control = { mode = "auto"; };/' \
	-e 's/watch-dog-interval = true;/watch-dog-interval = false;/' \
	"$top_srcdir/conf/roced.conf" >"$tmp/switch.conf"
grep -q 'mode = "auto"' "$tmp/switch.conf" && grep -q 'watch-dog-interval = false' "$tmp/switch.conf" ||
	t_fail "the shipped roced.conf changed: cannot set mode auto / the watchdog off"
cp "$top_srcdir/conf/roced-host.conf" "$tmp/host.conf"

sw_pid="" host_pid=""
t_show_on_fail "switch roced log" "$tmp/sw.log"
t_show_on_fail "host roced log" "$tmp/host.log"
start() { # WHO NS CONF
	t_spawn "$IP" netns exec "$2" "$roced" -f "$3" -D dcbx -D watchdog >"$tmp/$1.log" 2>&1
	eval "${1}_pid=\$t_pid"
	for _ in $(seq 600); do
		grep -q "mirroring roced's tc objects" "$tmp/$1.log" && return 0
		sleep 0.05
	done
	t_fail "$1 roced did not start"
}
sh_in() { "$IP" netns exec "$1" "$rocesh" -c "$2"; }
json_check() { # NS SHOW PYTHON-EXPR: the show's json satisfies EXPR (j)
	sh_in "$1" "$2 json" >"$tmp/j.json" || t_fail "'$2 json' failed"
	python3 - "$tmp/j.json" "$3" <<'PY' || { cat "$tmp/j.json"; t_fail "$1 '$2': $3"; }
import json, sys
j = json.load(open(sys.argv[1]))
sys.exit(0 if eval('(' + sys.argv[2] + ')') else 1)
PY
}
pfc_on() { # NS: show interface priority-flow-control says on, priority 3
	sh_in "$1" "show interface priority-flow-control json" 2>/dev/null |
		python3 -c 'import json, sys
i = json.load(sys.stdin)["interface"][0]
sys.exit(0 if i["oper"] == "on" and i["priorities"] == [3] else 1)'
}

start host "$host" "$tmp/host.conf"
start sw "$sw" "$tmp/switch.conf"
json_check "$sw" "show interface priority-flow-control" \
	"j['interface'][0]['oper'] == 'auto: waiting for DCBX'"

t0=$(date +%s.%N)
"$IP" -n "$sw" link set swp1 up
for _ in $(seq 600); do
	pfc_on "$sw" && pfc_on "$host" && break
	sleep 0.05
done
took=$(echo "$(date +%s.%N) $t0" | awk '{ printf "%.3f", $1 - $2 }')
pfc_on "$sw" || t_fail "the switch (mode auto) never ran PFC"
pfc_on "$host" || t_fail "the host never ran PFC"
echo "link-up to PFC on at both ends: $took s (load $(cut -d' ' -f1 /proc/loadavg))"

json_check "$sw" "show lldp dcbx interface swp1" \
	"j['pfc']['result'] == 'agreed' and j['pfc']['oper'] == [3] and
	 j['pfc']['peer']['enabled'] == [3] and j['pfc']['peer-willing'] is True and
	 j['pfc']['local-why'].startswith('on 3:') and
	 j['pfc']['peer-why'].startswith('on 3:') and
	 j['peer-state'] == 'one peer'"
json_check "$host" "show lldp dcbx interface eth0" \
	"j['pfc']['result'] == 'adopted' and j['pfc']['oper'] == [3] and
	 j['pfc']['local-willing'] is True and j['pfc']['unrealisable'] == [] and
	 j['pfc']['local-why'].startswith('on 3: this port is willing') and
	 j['ets']['result'] == 'adopted'"
sh_in "$sw" "show lldp dcbx interface swp1" >"$tmp/sw.txt"
sh_in "$host" "show lldp dcbx interface eth0" >"$tmp/host.txt"
cat "$tmp/sw.txt" "$tmp/host.txt"
grep -q 'Here: *on 3' "$tmp/sw.txt" && grep -q 'At the peer: *on 3' "$tmp/sw.txt" ||
	t_fail "the switch's show does not say why PFC is on at each end"

# The kernel: queue 3's leaf is software PFC's tbf at both ends.
leaf_tbf() { # NS DEV
	"$IP" netns exec "$1" "$TC" -j qdisc show dev "$2" | python3 -c 'import json, sys
q = [x for x in json.load(sys.stdin) if x.get("handle") == "4713:"]
sys.exit(0 if q and q[0]["kind"] == "tbf" else 1)'
}
leaf_tbf "$sw" swp1 || t_fail "the switch's queue 3 has no holdable leaf"
leaf_tbf "$host" eth0 || t_fail "the host's queue 3 (adopted) has no holdable leaf"

# A pause after the agreement holds the queue at once, with no reload.
leaf_rate() { # NS DEV: the tbf's rate
	"$IP" netns exec "$1" "$TC" -j qdisc show dev "$2" | python3 -c 'import json, sys
q = [x for x in json.load(sys.stdin) if x.get("handle") == "4713:"]
print(q[0]["options"]["rate"] if q else -1)'
}
hold_check() { # WHO NS DEV PEER-NS PEER-DEV
	released=$(leaf_rate "$2" "$3")
	t_spawn "$IP" netns exec "$4" "$storm" -i "$5" -p 3 -q 65535 -r 1000 -t 2
	st=$t_pid
	held=""
	for _ in $(seq 40); do
		r=$(leaf_rate "$2" "$3")
		if [ "$r" != "$released" ]; then
			held=$r
			break
		fi
		sleep 0.05
	done
	t_wait "$st" || t_fail "the storm injector failed"
	[ -n "$held" ] || t_fail "$1: a pause after the agreement did not hold queue 3 (rate stayed $released)"
	grep -q "$3: software PFC holds priorities 0x08" "$tmp/$1.log" ||
		t_fail "$1: no hold logged"
	echo "$1: queue 3 held (tbf rate $released -> $held)"
}
hold_check sw "$sw" swp1 "$host" eth0
hold_check host "$host" eth0 "$sw" swp1
grep -qi 'reload' "$tmp/sw.log" "$tmp/host.log" && t_fail "a reload happened"

t_stop "$sw_pid" TERM || t_fail "the switch roced failed on SIGTERM"
t_stop "$host_pid" TERM || t_fail "the host roced failed on SIGTERM"
echo "dcbx_ends: ok"
