#!/bin/sh
# fullkernel_smoke.sh: the QEMU full-kernel tier boots and its kernel does
# what roced needs and this machine's kernel cannot: an ets root with red
# ecn on a band, prio and mqprio roots, flower + skbedit and u32 + gact on
# clsact ingress, each checked with `tc -j` and with real packets through a
# veth pair between two namespaces. Reports the boot-to-result time.
#
# On the host this script boots the guest (tests/rig/qemu/run-guest.sh) and
# runs itself inside it; skipped (77) when QEMU or the distro kernel is
# missing.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
self=$here/$(basename "$0")
rig=$here/../rig/qemu

if [ "${ROCED_GUEST:-}" != 1 ]; then
	. "$here/lib.sh"
	t_guest fullkernel_smoke "$self" "$@"
fi

. "$rig/guest-lib.sh"
fk_init fullkernel_smoke
fk_log "guest kernel $(uname -r), up $(fk_uptime) s when the checks began"

# Names that do not collide with anything a host test might leave behind.
ns1=fksmoke-tx
ns2=fksmoke-rx
fk_netns_add "$ns1"
fk_netns_add "$ns2"
fk_veth "$ns1" fk-tx "$ns2" fk-rx
ip -n "$ns1" addr add 192.0.2.1/24 dev fk-tx
ip -n "$ns2" addr add 192.0.2.2/24 dev fk-rx
# A permanent neighbour: no ARP delay or ARP packet in the counters.
ip -n "$ns1" neigh add 192.0.2.2 lladdr "$(fk_mac "$ns2" fk-rx)" \
	dev fk-tx nud permanent

tc1()
{
	tc -n "$ns1" "$@"
}
tc2()
{
	tc -n "$ns2" "$@"
}

# --- egress: ets root, one strict band, red ecn on the band of priority 3 --
# Band b serves priority 7-b, the way a strict-first layout puts the high
# queues first; the checks below follow the priomap, not an assumed layout.
fk_check "tc qdisc add ets" \
	tc1 qdisc add dev fk-tx root handle 4791: ets bands 8 strict 1 \
	quanta 4500 1500 1500 4500 1500 1500 1500 \
	priomap 7 6 5 4 3 2 1 0 7 7 7 7 7 7 7 7
fk_check "tc qdisc add red ecn" \
	tc1 qdisc add dev fk-tx parent 4791:5 handle 4713: red limit 3200000 \
	min 153600 max 3072000 avpkt 1000 burst 154 probability 0.07 \
	bandwidth 10gbit ecn

qd=$(tc1 -j -d qdisc show dev fk-tx)
problems=$(fk_jq "$qd" '
	(map(select(.root == true)) | .[0]) as $root
	| (map(select(.handle == "4713:")) | .[0]) as $red
	| (if $root.kind != "ets" then "root is \($root.kind), not ets" else empty end),
	  (if $root.options.bands != 8 then "bands \($root.options.bands)" else empty end),
	  (if $root.options.strict != 1 then "strict \($root.options.strict)" else empty end),
	  (if $root.options.quanta != [4500,1500,1500,4500,1500,1500,1500]
	   then "quanta \($root.options.quanta)" else empty end),
	  (if $root.options.priomap[0:8] != [7,6,5,4,3,2,1,0]
	   then "priomap \($root.options.priomap)" else empty end),
	  (if $red == null then "no red qdisc 4713:" else empty end),
	  (if $red.kind != "red" then "4713: is \($red.kind)" else empty end),
	  (if $red.parent != "4791:5" then "red parent \($red.parent)" else empty end),
	  (if $red.options.ecn != true then "red without ecn" else empty end),
	  (if $red.options.min != 153600 or $red.options.max != 3072000
	   then "red min/max \($red.options.min)/\($red.options.max)" else empty end)
')
fk_assert_empty "ets + red ecn as the kernel holds them" "$problems" || true

# --- prio and mqprio roots (roced's second choice, and a hardware shape) ---
fk_check "tc qdisc add prio" \
	tc2 qdisc add dev fk-rx root handle 4791: prio bands 8 \
	priomap 7 6 5 4 3 2 1 0 7 7 7 7 7 7 7 7
fk_check "prio holds 8 bands" sh -c \
	"tc -n $ns2 -j qdisc show dev fk-rx | jq -e '.[0].kind == \"prio\" and .[0].options.bands == 8' >/dev/null"
tc2 qdisc del dev fk-rx root || true
fk_check "tc qdisc add mqprio" \
	tc2 qdisc add dev fk-rx root handle 4791: mqprio num_tc 8 \
	map 0 1 2 3 4 5 6 7 0 0 0 0 0 0 0 0 \
	queues 1@0 1@1 1@2 1@3 1@4 1@5 1@6 1@7 hw 0
fk_check "mqprio holds 8 traffic classes" sh -c \
	"tc -n $ns2 -j qdisc show dev fk-rx | jq -e 'map(select(.root == true)) | .[0].options.tc == 8' >/dev/null"
tc2 qdisc del dev fk-rx root || true

# --- ingress: flower + skbedit, u32 + gact on clsact -----------------------
fk_check "tc qdisc add clsact" tc2 qdisc add dev fk-rx clsact
fk_check "flower ip_tos + skbedit priority" \
	tc2 filter add dev fk-rx ingress protocol ip prio 4791 flower \
	ip_tos 0x68/0xfc action skbedit priority 3
fk_check "flower vlan_prio + vlan_ethtype + ip_tos + skbedit priority" \
	tc2 filter add dev fk-rx ingress protocol 802.1Q prio 4792 flower \
	vlan_prio 3 vlan_ethtype ip ip_tos 0x68/0xfc action skbedit priority 3
fk_check "u32 with a gact action" \
	tc2 filter add dev fk-rx ingress protocol all prio 4799 u32 \
	match u32 0 0 action gact ok

# --- packets: 20 RoCE-marked (DSCP 26, priority 3), 10 best effort ---------
fk_send "$ns1" 192.0.2.2 20 0x68 3
fk_send "$ns1" 192.0.2.2 10 0x00 0
# A tagged flow with PCP 3 for the 802.1Q filter.
ip -n "$ns1" link add link fk-tx name fk-tx.10 type vlan id 10 \
	egress-qos-map 0:3 || fk_fail "cannot create a VLAN device"
ip -n "$ns1" link set fk-tx.10 up
ip -n "$ns1" addr add 198.51.100.1/24 dev fk-tx.10
ip -n "$ns1" neigh add 198.51.100.2 lladdr "$(fk_mac "$ns2" fk-rx)" \
	dev fk-tx.10 nud permanent
fk_send "$ns1" 198.51.100.2 7 0x68 0

qd=$(tc1 -s -j qdisc show dev fk-tx)
flt=$(tc2 -s -j filter show dev fk-rx ingress)
problems=$(
	fk_jq "$qd" 'map(select(.handle == "4713:")) | .[0].packets as $n
		| if $n != 20 then "red leaf counted \($n) packets, want 20 (priority 3 -> band 4 -> 4791:5)" else empty end'
	fk_jq "$flt" '
	def hits(p): map(select(.pref == p and .options.actions != null))
		| .[0].options.actions[0];
	(hits(4791)) as $ip | (hits(4792)) as $vlan | (hits(4799)) as $all
	| (if $ip.kind != "skbedit" or ($ip.priority | tostring | test("^(0?:)?3$") | not)
	   then "pref 4791: action \($ip.kind) priority \($ip.priority)" else empty end),
	  (if $ip.stats.packets != 20 then "flower ip_tos matched \($ip.stats.packets), want 20" else empty end),
	  (if $vlan.stats.packets != 7 then "flower vlan_prio matched \($vlan.stats.packets), want 7" else empty end),
	  (if $all.kind != "gact" or $all.stats.packets < 10
	   then "u32+gact: \($all.kind) saw \($all.stats.packets), want >= 10" else empty end)'
)
fk_assert_empty "packets classified by ets/red, flower/skbedit and u32/gact" \
	"$problems" || true

fk_log "guest up $(fk_uptime) s when the checks ended"
fk_finish
