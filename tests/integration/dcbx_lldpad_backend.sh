#!/bin/sh
# dcbx_lldpad_backend: `dcbx agent lldpad`: roced drives lldpad
# through its client interface instead of running its own LLDP agent.
#   host namespace: eth0, lldpad and a roced whose eth0 is `dcbx agent
#     lldpad`, willing, PFC mode auto, its own admin PFC on priority 4;
#     a second port eth1 of roced's own agent beside it;
#   switch namespace: swp1, roced's built-in agent (switch.conf: not
#     willing, PFC on 3, ETS 50/50, APP DSCP 26 -> 3).
# - roced sets lldpad's admin values: `lldptool -t -V PFC -c enabled`
#   says priority 4, `-c willing` yes; roced sends no LLDPDU on eth0
#   itself (show lldp interface: not running, lldpad's);
# - an APP entry follows the configuration: a qos-input policy (DSCP 26
#   -> qos-group 4) puts APP 4,5,26 into lldpad (lldptool -t -V APP -c
#   app), and a reload without it deletes it from lldpad again;
# - the switch starting makes lldpad's operational PFC priority 3 (its
#   peer TLV, lldptool -n), which roced reads back: show lldp dcbx
#   (json) says adopted, PFC operational on 3, and the kernel gets the
#   adopted ETS tree (tc: roced's htb root);
# - a switch's policy on eth0 (not willing): lldpad sends roced's ETS
#   Recommendation (lldptool -t -V ETS-REC: enableTx yes, its up2tc and
#   tcbw), which lldpad does not send by default;
# - lldpad stopped: eth0's reason says lldpad is not running (logged
#   once), the plan loses the DCBX input, eth1 is untouched;
# - lldpad refusing the port (started without the shim: veth has no
#   dcbnl, "Device not capable"): the reason says so;
# - lldpad's library (liblldp_clif, loaded only for dcbx agent lldpad)
#   hidden: roced runs, its own agent too, and eth0 says why.
# lldpad refuses DCBX on veth, so in the first part it runs with an
# LD_PRELOAD shim (tests/tools/fake_dcbnl.c) that answers its dcbnl
# capability and state queries as a DCB-capable NIC would. Each lldpad has
# its own /dev/shm (a tmpfs in `ip netns exec`'s mount namespace), its own
# configuration file (-f) and no pid file (-p).
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
t_init dcbx_lldpad_backend
t_need_root
[ -x "$rocesh" ] || t_skip "rocesh is not built"
command -v lldpad >/dev/null && command -v lldptool >/dev/null ||
	t_skip "lldpad is not installed (scripts/install-deps.sh --test)"
shim=$top_builddir/tests/tools/fake_dcbnl.so
[ -f "$shim" ] || t_skip "tests/tools/fake_dcbnl.so is not built (make check builds it)"
tmp=$t_tmp
fix="$top_srcdir/tests/fixtures/dcbx"
t_veth_link sw dcbxlbs swp1 host dcbxlbh eth0
"$IP" -n "$host" link add eth1 type veth peer name pe1
for l in eth1 pe1; do "$IP" -n "$host" link set "$l" up; done

cat >"$tmp/host.conf" <<'CONF'
class-map = { network-qos = ( { name = "NC"; qos-group = 4; } ); };
policy-map = {
	network-qos = ( { name = "NQ"; class = ( { name = "NC"; pause-pfc-cos = 4; } ); } );
};
system-qos = { service-policy = { network-qos = "NQ"; }; };
interface = (
	{ name = "eth0"; lldp = { dcbx-agent = "lldpad"; dcbx-willing = true; }; },
	{ name = "eth1"; lldp = { dcbx-willing = true; }; } );
lldp = { timer = 5; holdtime = 10; reinit = 1; };
CONF
: >"$tmp/lldpad.conf"
in_host() { "$IP" netns exec "$host" "$@"; }
hsh() { in_host "$rocesh" -c "$1"; }
json_check() { # SHOW PYTHON-EXPR: the show's json satisfies EXPR (j)
	hsh "$1 json" >"$tmp/j.json" 2>&1 || true
	python3 - "$tmp/j.json" "$2" <<'PY'
import json, sys
try:
    j = json.load(open(sys.argv[1]))
except ValueError:
    sys.exit(1)
sys.exit(0 if eval('(' + sys.argv[2] + ')') else 1)
PY
}
# poll WHAT SECONDS COMMAND...: until COMMAND succeeds.
poll() {
	_w=$1 _n=$(($2 * 20))
	shift 2
	for _ in $(seq "$_n"); do
		"$@" && return 0
		sleep 0.05
	done
	cat "$tmp/j.json" 2>/dev/null || true
	t_fail "$_w: not within the time given"
}
# lldpad_start [PRELOAD]: lldpad in the host namespace.
lldpad_start() {
	t_spawn "$IP" netns exec "$host" env ${1:+LD_PRELOAD=$1} sh -c \
		'mount -t tmpfs lldpad-shm /dev/shm && exec lldpad -p -f "$1"' \
		sh "$tmp/lldpad.conf" >>"$tmp/lldpad.log" 2>&1
	lldpad_pid=$t_pid
}
lldptool_has() { # OUT PATTERN ARGS...: lldptool's output has PATTERN
	_o=$1 _p=$2
	shift 2
	in_host lldptool "$@" >"$tmp/$_o" 2>&1 || true
	grep -q -- "$_p" "$tmp/$_o"
}
t_show_on_fail "lldpad log" "$tmp/lldpad.log"
t_show_on_fail "switch roced log" "$tmp/sw.log"

# --- lldpad (with the shim) and the host roced ---
lldpad_start "$shim"
t_roced_start "$host" "$tmp/host.conf" "mirroring roced's tc objects"
# The admin values roced set: PFC on 4 (lldpad prints the bitmap, 16),
# willing.
poll "lldpad's admin PFC is not roced's (priority 4)" 20 \
	lldptool_has pfc.en "enabled=16" -t -i eth0 -V PFC -c enabled
lldptool_has pfc.w "willing=yes" -t -i eth0 -V PFC -c willing ||
	t_fail "lldpad's PFC is not willing: $(cat "$tmp/pfc.w")"
poll "eth0 has no lldpad outcome" 20 json_check "show lldp dcbx interface eth0" \
	"j['agent'] == 'lldpad' and j['running'] and j['pfc']['result'] == 'no peer'"
json_check "show lldp interface eth0" "not j['running'] and 'lldpad' in j['reason']" ||
	t_fail "roced's own agent runs on the lldpad port: $(cat "$tmp/j.json")"
poll "eth1 (roced's agent) does not run DCBX" 20 \
	json_check "show lldp dcbx interface eth1" "j['running'] and j['agent'] == 'roced'"
in_host "$TC" qdisc show dev eth0 root | grep -q ' 4791: root' &&
	t_fail "eth0 has roced's tree before any peer"

# --- an APP entry set in lldpad, then deleted when the configuration
# drops it ---
# reload_with FILE: FILE becomes host.conf (renamed over it), reloaded.
reload_with() {
	cp "$1" "$tmp/host.conf.new"
	mv "$tmp/host.conf.new" "$tmp/host.conf"
	hsh "reload config" >"$tmp/reload.out" 2>&1 ||
		t_fail "reload: $(cat "$tmp/reload.out")"
}
cp "$tmp/host.conf" "$tmp/host_noapp.conf"
sed -e 's/^class-map = {/class-map = { qos = ( { name = "ROCE"; dscp = 26; } );/' \
	-e 's/^policy-map = {/policy-map = { qos = ( { name = "QOS"; class = ( { name = "ROCE"; set-qos-group = 4; } ); } );/' \
	-e 's/{ name = "eth0"; lldp/{ name = "eth0"; service-policy = { qos-input = "QOS"; }; lldp/' \
	"$tmp/host_noapp.conf" >"$tmp/host_app.conf"
grep -q 'qos-input' "$tmp/host_app.conf" || t_fail "the test's sed did not add the qos policy"
reload_with "$tmp/host_app.conf"
poll "roced's APP entry (DSCP 26 -> 4) is not in lldpad" 20 \
	lldptool_has app.on "(4,5,26)" -t -i eth0 -V APP -c app
reload_with "$tmp/host_noapp.conf"
poll "the APP entry dropped from the configuration stays in lldpad" 20 \
	sh -c "! '$IP' netns exec '$host' lldptool -t -i eth0 -V APP -c app 2>&1 | tee '$tmp/app.off' | grep -q '(4,5,26)'"
grep -q "eth0: lldpad: APP dscp 26 -> priority 4 deleted" "$tmp/log" ||
	t_fail "no log line for the APP entry's deletion"
poll "eth0 keeps roced's tree of the dropped qos policy" 10 \
	sh -c "! '$IP' netns exec '$host' '$TC' qdisc show dev eth0 root | grep -q ' 4791: root'"

# --- the switch: lldpad's peer, read back into the plan and the kernel ---
t_spawn "$IP" netns exec "$sw" "$roced" -f "$fix/switch.conf" >"$tmp/sw.log" 2>&1
sw_pid=$t_pid
poll "lldpad does not hear the switch's PFC" 30 \
	lldptool_has pfc.n "PFC enabled: 3" -t -n -i eth0 -V PFC
poll "roced does not take lldpad's outcome" 10 json_check "show lldp dcbx interface eth0" \
	"j['pfc']['result'] == 'adopted' and j['pfc']['operational'] and j['pfc']['oper'] == [3] and j['ets']['result'] == 'adopted'"
poll "the adopted ETS does not reach the kernel" 10 \
	sh -c "'$IP' netns exec '$host' '$TC' qdisc show dev eth0 root | grep -q ' 4791: root'"
grep -q "eth0: lldpad: PFC adopted (0x08)" "$tmp/log" || t_fail "no log line for the adoption"
hsh "show lldp dcbx interface eth0" >"$tmp/dcbx.txt"
grep -q "Agent: lldpad" "$tmp/dcbx.txt" && grep -q "Result: adopted" "$tmp/dcbx.txt" ||
	t_fail "show lldp dcbx interface eth0: $(cat "$tmp/dcbx.txt")"
t_stop "$sw_pid" || true

# --- a switch's port through lldpad: its ETS Recommendation is sent ---
# The switch fixture's policy on eth0 (not willing, ETS 50/50), lldpad
# its agent: roced turns lldpad's ETS-REC transmit on with its tables
# (lldpad's default is not to send it), as its own agent would.
sed -e 's/name = "swp1"; alias = "Ethernet1\/1";/name = "eth0"; lldp = { dcbx-agent = "lldpad"; };/' \
	"$fix/switch.conf" >"$tmp/host_switch.conf"
grep -q 'dcbx-agent = "lldpad"' "$tmp/host_switch.conf" || t_fail "the test's sed did not make eth0 a switch port"
lldptool_has rec.before "enableTx" -t -i eth0 -V ETS-REC -c enableTx || true
reload_with "$tmp/host_switch.conf"
poll "lldpad does not send roced's ETS Recommendation (was: $(cat "$tmp/rec.before"))" 20 \
	lldptool_has rec.tx "enableTx=yes" -t -i eth0 -V ETS-REC -c enableTx
lldptool_has rec.bw "tcbw=50,0,0,50,0,0,0,0" -t -i eth0 -V ETS-REC -c tcbw ||
	t_fail "lldpad's ETS-REC bandwidths are not roced's: $(cat "$tmp/rec.bw")"
lldptool_has rec.up "up2tc=.*3:3" -t -i eth0 -V ETS-REC -c up2tc ||
	t_fail "lldpad's ETS-REC priority map is not roced's: $(cat "$tmp/rec.up")"
reload_with "$tmp/host_noapp.conf"

# --- lldpad stopped: a clear error on eth0 only ---
# (SIGKILL: lldpad 1.1 dereferences NULL in its exit path after a TERM
# when its ports are DCB-capable, which is the shim's doing here.)
# (lldpad may have been late at the start: a line from then is not
# counted.)
n0=$(grep -c "eth0: dcbx agent lldpad: lldpad is not running" "$tmp/log" || true)
t_stop "$lldpad_pid" KILL || true
poll "lldpad gone is not eth0's reason" 10 json_check "show lldp dcbx interface eth0" \
	"not j['running'] and 'lldpad is not running' in j['reason']"
poll "eth0's plan keeps the DCBX outcome of a stopped lldpad" 10 \
	sh -c "! '$IP' netns exec '$host' '$TC' qdisc show dev eth0 root | grep -q ' 4791: root'"
json_check "show lldp dcbx interface eth1" "j['running'] and j['agent'] == 'roced'" ||
	t_fail "eth1 changed: $(cat "$tmp/j.json")"
sleep 2.5 # more polls: still one log line
n=$(grep -c "eth0: dcbx agent lldpad: lldpad is not running" "$tmp/log" || true)
[ "$((n - n0))" = 1 ] || t_fail "expected one log line for eth0, got $((n - n0))"
grep -q "eth1.*lldpad" "$tmp/log" && t_fail "eth1 was touched by the lldpad backend"
# The client asks quietly: no "connect: ..." from liblldp_clif per poll.
grep -q "^connect:" "$tmp/log" && t_fail "liblldp_clif writes to roced's stderr"

# --- lldpad without the shim refuses the veth ---
lldpad_start ""
poll "lldpad's refusal is not eth0's reason" 20 json_check "show lldp dcbx interface eth0" \
	"not j['running'] and 'lldpad refuses the port' in j['reason'] and 'not capable' in j['reason']"
grep -q "eth0: dcbx agent lldpad: lldpad refuses the port" "$tmp/log" ||
	t_fail "no log line for lldpad's refusal"
t_stop "$lldpad_pid" || true

# --- lldpad's library absent: roced runs, eth0 says why ---
# liblldp_clif is loaded only for `dcbx agent lldpad` (roced does not
# link it, so its package does not depend on lldpad): hidden here by a
# bind mount in the namespace's private mounts (ip netns exec makes
# them), roced still starts, eth1 runs roced's own agent, and eth0's
# reason names the library and its package.
t_roced_stop
lib=$(ldconfig -p | awk '/liblldp_clif\.so\.1 / { print $NF; exit }')
[ -n "$lib" ] || t_fail "ldconfig does not know liblldp_clif.so.1"
lib=$(readlink -f "$lib")
ldd "$roced" | grep -q liblldp_clif && t_fail "roced links liblldp_clif: $(ldd "$roced" | grep clif)"
t_spawn "$IP" netns exec "$host" sh -c 'mount --bind /dev/null "$1" && exec "$2" -f "$3"' \
	sh "$lib" "$roced" "$tmp/host.conf" >"$tmp/nolib.log" 2>&1
roced_pid=$t_pid
t_show_on_fail "roced without liblldp_clif" "$tmp/nolib.log"
poll "without liblldp_clif eth0 does not say why" 20 json_check "show lldp dcbx interface eth0" \
	"not j['running'] and 'cannot load' in j['reason'] and 'liblldp_clif' in j['reason'] and 'lldpad' in j['reason']"
poll "without liblldp_clif eth1's own agent does not run" 20 \
	json_check "show lldp dcbx interface eth1" "j['running'] and j['agent'] == 'roced'"
t_roced_stop
echo "ok: dcbx_lldpad_backend"
