#!/bin/sh
# dcbx_lldpad_backend: `dcbx agent lldpad` (issue 7), roced driving lldpad
# through its client interface instead of running its own LLDP agent, on
# the error paths that need no DCB hardware:
# - lldpad not running: the lldpad port says why in `show lldp dcbx
#   interface` (json), the log says so once, roced sends no LLDPDU there,
#   and a port of roced's own agent beside it runs DCBX as usual;
# - lldpad running (in the test's namespace, its own /dev/shm and
#   configuration file, no pid file) but refusing the veth ("Device not
#   capable"): the port's reason becomes lldpad's refusal, the other port
#   is untouched;
# - lldpad stopped again: back to "not running".
# No capability shim is used here: with a refusing lldpad the admin
# values and the read-back of the operational values are only covered by
# test_lldpad_msg (the codec against lldptool's captures).
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
t_init dcbx_lldpad_backend
t_need_root
[ -x "$rocesh" ] || t_skip "rocesh is not built"
tmp=$t_tmp
t_netns_add ns dcbxlb
in_ns() { "$IP" netns exec "$ns" "$@"; }
in_ns "$IP" link set lo up
in_ns "$IP" link add swp1 type veth peer name la0
in_ns "$IP" link add swp2 type veth peer name pe0
for l in swp1 la0 swp2 pe0; do in_ns "$IP" link set "$l" up; done

cat >"$tmp/roced.conf" <<'CONF'
interface = (
	{ name = "swp1"; lldp = { dcbx-agent = "lldpad"; dcbx-willing = true; }; },
	{ name = "swp2"; lldp = { dcbx-willing = true; }; } );
lldp = { timer = 5; holdtime = 10; reinit = 1; };
CONF
sh_() { in_ns "$rocesh" -c "$1"; }
json_check() { # SHOW PYTHON-EXPR: the show's json satisfies EXPR (j)
	sh_ "$1 json" >"$tmp/j.json" 2>&1 || true
	python3 - "$tmp/j.json" "$2" <<'PY'
import json, sys
try:
    j = json.load(open(sys.argv[1]))
except ValueError:
    sys.exit(1)
sys.exit(0 if eval('(' + sys.argv[2] + ')') else 1)
PY
}
# poll WHAT SECONDS SHOW EXPR
poll() {
	for _ in $(seq $(($2 * 20))); do
		json_check "$3" "$4" && return 0
		sleep 0.05
	done
	cat "$tmp/j.json"
	t_fail "$1"
}

t_roced_start "$ns" "$tmp/roced.conf" "mirroring roced's tc objects"

# --- lldpad not running ---
poll "no 'not running' reason on swp1" 10 "show lldp dcbx interface swp1" \
	"not j['running'] and j['agent'] == 'lldpad' and 'lldpad is not running' in j['reason']"
poll "swp2 (roced's agent) does not run DCBX" 10 "show lldp dcbx interface swp2" \
	"j['running'] and j['agent'] == 'roced'"
json_check "show lldp interface swp1" "not j['running'] and 'lldpad' in j['reason']" ||
	t_fail "roced's own agent runs on the lldpad port: $(cat "$tmp/j.json")"
# One log line for the one change, not one per poll.
sleep 2.5
n=$(grep -c "swp1: dcbx agent lldpad: lldpad is not running" "$tmp/log" || true)
[ "$n" = 1 ] || t_fail "expected one log line for swp1, got $n"
grep -q "swp2.*lldpad" "$tmp/log" && t_fail "swp2 was touched by the lldpad backend"
# The client asks quietly: no "connect: ..." from liblldp_clif per poll.
grep -q "^connect:" "$tmp/log" && t_fail "liblldp_clif writes to roced's stderr"

# --- lldpad running, refusing the veth ---
if command -v lldpad >/dev/null && command -v lldptool >/dev/null; then
	: >"$tmp/lldpad.conf"
	t_show_on_fail "lldpad" "$tmp/lldpad.log"
	t_spawn "$IP" netns exec "$ns" sh -c \
		'mount -t tmpfs lldpad-shm /dev/shm && exec lldpad -p -f "$1"' \
		sh "$tmp/lldpad.conf" >"$tmp/lldpad.log" 2>&1
	lldpad_pid=$t_pid
	poll "lldpad's refusal is not swp1's reason" 20 \
		"show lldp dcbx interface swp1" \
		"not j['running'] and 'lldpad refuses the port' in j['reason'] and 'not capable' in j['reason']"
	json_check "show lldp dcbx interface swp2" "j['running'] and j['agent'] == 'roced'" ||
		t_fail "swp2 changed: $(cat "$tmp/j.json")"
	grep -q "swp1: dcbx agent lldpad: lldpad refuses the port" "$tmp/log" ||
		t_fail "no log line for lldpad's refusal"
	t_stop "$lldpad_pid" || true
	poll "lldpad gone is not swp1's reason again" 10 \
		"show lldp dcbx interface swp1" \
		"not j['running'] and 'lldpad is not running' in j['reason']"
else
	echo "lldpad is not installed (scripts/install-deps.sh --test): the refusal part is not run"
fi
echo "ok: dcbx_lldpad_backend"
