#!/bin/sh
# dcbx_lldpad_peer: a roced switch port in `priority-flow-control mode
# auto` agrees with a willing lldpad, the reference DCBX agent.
#   switch namespace: swp1, roced (tests/fixtures/dcbx/switch.conf in mode
#     auto: not willing, PFC on 3, ETS 50/50, APP DSCP 26 -> 3);
#   host namespace: eth0, lldpad (with the dcbnl shim of
#     tests/tools/fake_dcbnl.c, since veth has no dcbnl), willing, its own
#     PFC none.
# - lldpad takes the switch's PFC (lldptool -t -n: the peer's 3) and, as
#   a willing IEEE agent, advertises it: roced hears PFC 3, willing;
# - the switch's PFC is operational on 3 (show interface
#   priority-flow-control: on), DCBX result "agreed", and show says why at
#   each end.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/integration/lib.sh"
t_init dcbx_lldpad_peer
t_need_root
[ -x "$rocesh" ] || t_skip "rocesh is not built"
command -v lldpad >/dev/null && command -v lldptool >/dev/null ||
	t_skip "lldpad is not installed (scripts/install-deps.sh --test)"
shim=$top_builddir/tests/tools/fake_dcbnl.so
[ -f "$shim" ] || t_skip "tests/tools/fake_dcbnl.so is not built (make check builds it)"
tmp=$t_tmp
t_veth_link sw dcbxlps swp1 host dcbxlph eth0
sed 's/mode = "on"/mode = "auto"/' "$top_srcdir/tests/fixtures/dcbx/switch.conf" >"$tmp/switch.conf"
grep -q 'mode = "auto"' "$tmp/switch.conf" || t_fail "switch.conf changed: cannot set mode auto"
: >"$tmp/lldpad.conf"
in_host() { "$IP" netns exec "$host" "$@"; }
ssh_() { "$IP" netns exec "$sw" "$rocesh" -c "$1"; }
json_check() { # SHOW PYTHON-EXPR (the switch's)
	ssh_ "$1 json" >"$tmp/j.json" 2>&1 || true
	python3 - "$tmp/j.json" "$2" <<'PY'
import json, sys
try:
    j = json.load(open(sys.argv[1]))
except ValueError:
    sys.exit(1)
sys.exit(0 if eval('(' + sys.argv[2] + ')') else 1)
PY
}
poll() { # WHAT SECONDS COMMAND...
	_w=$1 _n=$(($2 * 20))
	shift 2
	for _ in $(seq "$_n"); do
		"$@" && return 0
		sleep 0.05
	done
	cat "$tmp/j.json" 2>/dev/null || true
	t_fail "$_w: not within the time given"
}
t_show_on_fail "lldpad log" "$tmp/lldpad.log"
t_spawn "$IP" netns exec "$host" env LD_PRELOAD="$shim" sh -c \
	'mount -t tmpfs lldpad-shm /dev/shm && exec lldpad -p -f "$1"' \
	sh "$tmp/lldpad.conf" >"$tmp/lldpad.log" 2>&1
lldpad_pid=$t_pid
poll "lldpad does not answer lldptool" 30 \
	sh -c "'$IP' netns exec '$host' lldptool -L -i eth0 adminStatus=rxtx >/dev/null 2>&1"
for v in "PFC enableTx=yes willing=yes enabled=none" "ETS-CFG enableTx=yes willing=yes" \
	"ETS-REC enableTx=yes"; do
	# shellcheck disable=SC2086
	poll "lldptool -T -V $v" 10 sh -c "'$IP' netns exec '$host' lldptool -T -i eth0 -V $v >/dev/null 2>&1"
done

t_roced_start "$sw" "$tmp/switch.conf" "mirroring roced's tc objects" -D dcbx
poll "lldpad does not hear the switch's PFC" 30 \
	sh -c "'$IP' netns exec '$host' lldptool -t -n -i eth0 -V PFC 2>&1 | grep -q 'PFC enabled: 3'"
poll "the switch does not agree with the willing lldpad" 20 json_check \
	"show lldp dcbx interface swp1" \
	"j['pfc']['result'] == 'agreed' and j['pfc']['oper'] == [3] and
	 j['pfc']['peer']['enabled'] == [3] and j['pfc']['peer-willing'] is True"
json_check "show interface priority-flow-control" \
	"j['interface'][0]['oper'] == 'on' and j['interface'][0]['priorities'] == [3]" ||
	t_fail "the switch's PFC is not on: $(cat "$tmp/j.json")"
ssh_ "show lldp dcbx interface swp1" >"$tmp/dcbx.txt"
cat "$tmp/dcbx.txt"
grep -q 'Here: *on 3' "$tmp/dcbx.txt" && grep -q 'At the peer: *on 3' "$tmp/dcbx.txt" ||
	t_fail "show does not say why PFC is on at each end"
t_roced_stop
# (SIGKILL: lldpad 1.1 dereferences NULL in its exit path after a TERM
# when its ports are DCB-capable, which is the shim's doing here.)
t_stop "$lldpad_pid" KILL || true
echo "ok: dcbx_lldpad_peer"
