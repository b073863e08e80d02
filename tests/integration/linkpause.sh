#!/bin/sh
# linkpause: `flowcontrol receive on` (802.3x link pause) end to end, on a
# veth port in a private network namespace and in the hardware dry run:
#   - `roced -n` takes the port with PFC mode off and link pause on;
#   - the dry run for a hardware DCB port (--caps hw) plans it as
#     `#ethtool -A swp1 rx on tx off` (what ethtool netlink PAUSE_SET
#     sets); for the veth's own capabilities it plans no ethtool write,
#     no warning, and every queue's leaf a tbf (roced's frame layer holds
#     them: softlp_rx tests the hold);
#   - the daemon programs the port, and `rocesh show interface
#     flowcontrol` (both spellings, text and json) shows receive admin on,
#     oper on, roced's counters (0), with the note; the kernel's pause
#     settings of the veth (none: ethtool -a says not supported) are
#     untouched.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
t_init linkpause
t_need_root
if [ ! -x "$rocesh" ]; then
	echo "SKIP: rocesh is not built"
	exit 77
fi
command -v ethtool >/dev/null 2>&1 || t_fail "ethtool is missing (scripts/install-deps.sh --test installs it)"
tmp=$t_tmp
in_ns() { "$IP" netns exec "$ns" "$@"; }
sh_ns() { in_ns "$rocesh" "$@"; }

conf=$tmp/lp.conf
python3 - "$top_srcdir/conf/roced.conf" "$conf" <<'PY'
import sys
s = open(sys.argv[1]).read()
old = 'priority-flow-control = { mode = "on"; };'
assert s.count(old) == 1, 'the shipped interface block changed'
s = s.replace(old, 'priority-flow-control = { mode = "off"; };\n\t\tflowcontrol = { receive = true; };')
open(sys.argv[2], 'w').write(s)
PY

"$roced" -f "$conf" -n >"$tmp/check" 2>&1 || t_fail "roced -n refused link pause with PFC off: $(cat "$tmp/check")"

# Hardware DCB port: the ethtool write is in the plan's DCB part.
"$roced" -f "$conf" --dry-run --caps hw >"$tmp/hw.plan" 2>&1 || t_fail "dry run (hw) failed: $(cat "$tmp/hw.plan")"
grep -qx '#ethtool -A swp1 rx on tx off' "$tmp/hw.plan" ||
	t_fail "the hardware plan has no ethtool -A line: $(grep -n 'ethtool\|flowcontrol' "$tmp/hw.plan")"
grep -q 'not realised on a software port' "$tmp/hw.plan" &&
	t_fail "a hardware port warned that link pause is not realised"

# Software port: no ethtool write, no warning, every leaf a tbf.
"$roced" -f "$conf" --dry-run --caps host >"$tmp/sw.plan" 2>&1 || t_fail "dry run (host) failed: $(cat "$tmp/sw.plan")"
grep -q '^#ethtool' "$tmp/sw.plan" && t_fail "a software port's plan writes ethtool pause"
grep -q "warning: flowcontrol" "$tmp/sw.plan" &&
	t_fail "a software port warned about link pause: $(grep -n 'flowcontrol' "$tmp/sw.plan")"
grep -q "link pause rx on tx off: software port, roced's frame layer" "$tmp/sw.plan" ||
	t_fail "the plan does not say who realises link pause: $(grep -n 'link pause' "$tmp/sw.plan")"
n=$(grep -c 'qdisc add dev swp1 parent .* tbf ' "$tmp/sw.plan" || true)
[ "$n" = 8 ] || t_fail "not every queue's leaf is a tbf ($n): $(grep -n 'qdisc add' "$tmp/sw.plan")"

t_netns_add ns lpz
in_ns "$IP" link set lo up
in_ns "$IP" link add swp1 type veth peer name host1
in_ns "$IP" link set swp1 up
in_ns "$IP" link set host1 up

t_roced_start "$ns" "$conf" 'started with' --caps probe
for _ in $(seq 300); do
	in_ns "$TC" qdisc show dev swp1 root | grep -q ' 4791: root' && break
	sleep 0.1
done
in_ns "$TC" qdisc show dev swp1 root | grep -q ' 4791: root' || t_fail "swp1 was not programmed"

sh_ns -c 'show interface flowcontrol' >"$tmp/fc.txt" || t_fail "show interface flowcontrol failed: $(cat "$tmp/fc.txt")"
grep -q '^Port         Send FlowControl  Receive FlowControl  RxPause     TxPause$' "$tmp/fc.txt" ||
	t_fail "no NX-OS header: $(cat "$tmp/fc.txt")"
grep -Eq '^Ethernet1/1 +off +off +on +on +0 +0$' "$tmp/fc.txt" ||
	t_fail "swp1's row is wrong: $(cat "$tmp/fc.txt")"
grep -q 'roced honours 802.3x link pause' "$tmp/fc.txt" || t_fail "no note: $(cat "$tmp/fc.txt")"
sh_ns -c 'show interface ethernet 1/1 flowcontrol' >"$tmp/fc1.txt" || t_fail "the per-port form failed: $(cat "$tmp/fc1.txt")"
grep -Eq '^Ethernet1/1 +off +off +on +on' "$tmp/fc1.txt" || t_fail "per-port form: $(cat "$tmp/fc1.txt")"
sh_ns -c 'show interface flowcontrol | json' >"$tmp/fc.json" || t_fail "json failed: $(cat "$tmp/fc.json")"
python3 - "$tmp/fc.json" <<'PY' || t_fail "json: $(cat "$tmp/fc.json")"
import json, sys
d = json.load(open(sys.argv[1]))
p = [i for i in d["interface"] if i["name"] == "swp1"][0]
assert p["receive"] == {"admin": "on", "oper": "on"}, p
assert p["send"] == {"admin": "off", "oper": "off"}, p
assert p["rx-pause"] == 0 and p["tx-pause"] == 0, p
assert p["rx-xon"] == 0 and p["tx-xon"] == 0 and p["paused"] is False, p
assert p["dcb"] == "software", p
PY
# veth has no pause settings at all (ethtool(8) as the independent
# reader), so the software port's plan must not have tried to write any.
if in_ns ethtool -a swp1 >"$tmp/ea" 2>&1; then
	t_fail "veth answered pause settings: $(cat "$tmp/ea")"
fi
grep -q 'Operation not supported' "$tmp/ea" || t_fail "ethtool -a swp1: $(cat "$tmp/ea")"
t_roced_stop
echo "PASS: linkpause"
