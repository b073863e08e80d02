#!/bin/sh
# fullkernel_bond.sh: a Linux bond carries a port-channel's policy, on a
# full kernel (the QEMU guest; this machine's kernel has no bonding).
# The rig: namespace fkbond-sw holds bond10 (mode active-backup) with the
# veth ports swp1 and swp2 as its members and swp3 beside it, their peers
# in fkbond-h; roced.conf names the bond by its Linux name with the NX-OS
# alias port-channel10 (the way roced.conf maps NX-OS names to Linux
# ones) and carries the shipped QoS definitions. Through rocesh:
#     interface port-channel10
#       priority-flow-control mode on
#       priority-flow-control watch-dog-interval on
#       service-policy type qos input ROCE_POLICY
#       service-policy type queuing output ROCE_QUEUING_OUT
# Checked:
#   1. the members the kernel gives the bond (IFLA_MASTER) are ports: each
#      holds roced's root qdisc 4791: with one class per queue (tc -j), PFC
#      is on for CoS 3 (show interface priority-flow-control json), the
#      watchdog monitors their queue 3 (show queuing pfc-queue json), and
#      show running-config names only port-channel10 (no member block);
#   2. swp2 leaves the bond (ip link set nomaster): roced's qdisc goes from
#      it and it is no port any more; swp3 joins: it takes the policy;
#   3. copy running-config startup-config writes no member.
# On the host this script boots the guest and runs itself inside; skipped
# (77) when QEMU or the distro kernel is missing, failed when the guest
# kernel cannot make a bond.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
self=$here/$(basename "$0")
rig=$here/../rig/qemu

if [ "${ROCED_GUEST:-}" != 1 ]; then
	# A daemon start, a paste and a few dozen shows under TCG on a
	# loaded host: more than run-guest's default 300 s.
	ROCED_QEMU_TIMEOUT=${ROCED_QEMU_TIMEOUT:-900}
	export ROCED_QEMU_TIMEOUT
	. "$here/lib.sh"
	t_guest fullkernel_bond "$self" "$@"
fi

. "$rig/guest-lib.sh"
fk_roced_init fullkernel_bond
modprobe bonding 2>/dev/null || true

sw=fkbond-sw
hs=fkbond-h

fk_netns_add "$sw"
fk_netns_add "$hs"
ip -n "$sw" link add bond10 type bond mode active-backup ||
	fk_fail "the guest kernel cannot make a bond (modprobe bonding)"
for i in 1 2 3; do
	fk_veth "$sw" "swp$i" "$hs" "h$i"
done
for i in 1 2; do
	ip -n "$sw" link set "swp$i" down
	ip -n "$sw" link set "swp$i" master bond10 || fk_fail "swp$i cannot join bond10"
	ip -n "$sw" link set "swp$i" up
done
ip -n "$sw" link set bond10 up

# The shipped QoS definitions, with the bond as the one port.
python3 - "$top_srcdir/conf/roced.conf" >"$tmp/roced.conf" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
m = re.search(r'^interface = \(.*?^\);\n', text, re.S | re.M)
print(text[:m.start()] + 'interface = ( { name = "bond10"; alias = "port-channel10"; } );\n' + text[m.end():])
PY
ip netns exec "$sw" "$roced" -f "$tmp/roced.conf" --caps probe >"$tmp/log" 2>&1 &
pid=$!
for _ in $(seq 600); do
	grep -q 'started with' "$tmp/log" && break
	kill -0 "$pid" 2>/dev/null || fk_fail "roced exited: $(cat "$tmp/log")"
	sleep 0.1
done
sh_() { ip netns exec "$sw" "$rocesh" "$@"; }
st=0
sh_ >"$tmp/out" 2>"$tmp/err" <<'NX' || st=$?
configure terminal
interface port-channel10
  priority-flow-control mode on
  priority-flow-control watch-dog-interval on
  service-policy type qos input ROCE_POLICY
  service-policy type queuing output ROCE_QUEUING_OUT
end
NX
[ "$st" = 0 ] || fk_fail "the paste: exit status $st: $(cat "$tmp/err")"

# state DEV: the kernel's and roced's view of DEV, one line
# "DEV root=KIND classes=N pfc=on|off|absent wd=STATE|absent": roced's
# root qdisc 4791: and its classes, PFC on CoS 3 (show interface
# priority-flow-control json), the watchdog's state of queue 3 (show
# queuing pfc-queue json). jq, not python: each start costs under TCG.
state()
{
	_q=$(ip netns exec "$sw" tc -j qdisc show dev "$1" 2>/dev/null)
	# (this iproute2 prints classes as text even with -j)
	_ncls=$(ip netns exec "$sw" tc class show dev "$1" 2>/dev/null | grep -c '^class [a-z_]* 4791:' || :)
	_p=$(sh_ -c 'show interface priority-flow-control json' 2>/dev/null)
	_w=$(sh_ -c 'show queuing pfc-queue json' 2>/dev/null)
	[ -n "$_q" ] || _q='[]'
	[ -n "$_p" ] || _p='{}'
	[ -n "$_w" ] || _w='{}'
	_root=$(printf '%s\n' "$_q" | jq -r '[.[] | select(.root and .handle == "4791:") | .kind][0] // "none"' 2>/dev/null)
	_pfc=$(printf '%s\n' "$_p" | jq -r --arg d "$1" '[(.interface // [])[] | select(.name == $d)][0] | if . == null then "absent" elif .oper == "on" and ((.priorities // []) | index(3)) != null then "on" else "off" end' 2>/dev/null)
	_wd=$(printf '%s\n' "$_w" | jq -r --arg d "$1" '[(.interface // [])[] | select(.name == $d)][0] | if . == null then "absent" else ([(.queues // [])[] | select(."qos-group" == 3) | .state] | join(",")) end' 2>/dev/null)
	echo "$1 root=${_root:-error} classes=${_ncls:-error} pfc=${_pfc:-error} wd=${_wd:-error}"
}

# until SECONDS COMMAND...: COMMAND until it succeeds (the apply follows
# the kernel's link events; under TCG on a loaded host it takes a while).
until_()
{
	_n=$1
	shift
	while [ "$_n" -gt 0 ]; do
		"$@" && return 0
		sleep 1
		_n=$((_n - 1))
	done
	return 1
}
member_ok() { state "$1" >"$tmp/st"; grep -Eq "^$1 root=(htb|ets) classes=([89]|1[0-9]) pfc=on wd=monitored$" "$tmp/st"; }
not_port() { state "$1" >"$tmp/st"; grep -Eq "^$1 root=none classes=0 pfc=absent wd=absent$" "$tmp/st"; }

# --- 1. the members carry the policy ---
for d in swp1 swp2; do
	until_ 120 member_ok "$d" || true
	fk_check "$d, a member of bond10, is planned: $(cat "$tmp/st")" member_ok "$d"
done
fk_check "swp3, beside the bond, is no port: $(state swp3)" not_port swp3
sh_ -c 'show running-config' >"$tmp/run"
fk_check "running-config names port-channel10 and no member" \
	sh -c "grep -qx 'interface port-channel10' '$tmp/run' && ! grep -q '^interface swp' '$tmp/run'"
fk_check "port-channel10's block holds its lines" \
	grep -qx '  service-policy type queuing output ROCE_QUEUING_OUT' "$tmp/run"

# --- 2. a member leaves, another joins ---
ip -n "$sw" link set swp2 nomaster
until_ 120 not_port swp2 || true
fk_check "swp2 left the bond: no qdisc, no port: $(state swp2)" not_port swp2
fk_check "swp1 still a member: $(state swp1)" member_ok swp1
ip -n "$sw" link set swp3 down
ip -n "$sw" link set swp3 master bond10
ip -n "$sw" link set swp3 up
until_ 120 member_ok swp3 || true
fk_check "swp3 joined the bond: planned: $(state swp3)" member_ok swp3

# --- 3. the saved file names the bond alone ---
sh_ -c 'copy running-config startup-config' >/dev/null 2>"$tmp/err" ||
	fk_check "copy running-config startup-config: $(cat "$tmp/err")" false
fk_check "roced.conf names no member" \
	sh -c "! grep -Eq 'name = \"swp[0-9]\"' '$tmp/roced.conf' && grep -q 'alias = \"port-channel10\"' '$tmp/roced.conf'"
grep -E 'bond members|bond10' "$tmp/log" | head -5
fk_finish
