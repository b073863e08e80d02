#!/bin/sh
# tc_msg_fullkernel.sh: lib/nlmsg/tc_msg against a full distribution kernel (the
# QEMU guest of tests/rig/qemu) for the kinds this machine's kernel lacks:
# an ets root, red ecn leaves (one with Wlog 0, which only netlink can
# set), a prio root, flower + skbedit and u32 + skbedit on clsact ingress
# and a flower classid rule on the ets root. tests/integration/tc_msg_kernel
# sends them as lib/nlmsg/tc_msg encodes them and compares the decoded dump with
# the plan; this script then checks `tc -j`'s view of the same state.
#
# On the host it boots the guest and runs itself inside; skipped (77) when
# QEMU or the distro kernel is missing.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
self=$here/$(basename "$0")
rig=$here/../rig/qemu

if [ "${ROCED_GUEST:-}" != 1 ]; then
	exec "$rig/run-guest.sh" "$self" "$@"
fi

. "$rig/guest-lib.sh"
fk_init tc_msg_fullkernel

top_srcdir=${top_srcdir:-$(cd "$here/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
prog=$top_builddir/tests/integration/tc_msg_kernel
[ -x "$prog" ] || fk_fail "$prog is not built (make check builds it)"

ns=tcmsg-full
fk_netns_add "$ns"
ip -n "$ns" link add v0 type veth peer name v1
ip -n "$ns" link set v0 up
ip -n "$ns" link set v1 up

ip netns exec "$ns" "$prog" full v0 v1 || fk_fail "tc_msg_kernel full"

# jq_is WHAT JSON FILTER: the jq FILTER is true on JSON
jq_is()
{
	if printf '%s\n' "$2" | jq -e "$3" >/dev/null; then
		fk_log "ok: tc shows $1"
	else
		printf '%s\n' "$2"
		fk_fail "tc does not show $1 ($3)"
	fi
}

q=$(tc -n "$ns" -j -d qdisc show dev v0)
jq_is "the ets root as changed" "$q" '.[] | select(.kind == "ets" and
	.handle == "4791:") | .options | .bands == 8 and .strict == 1 and
	.quanta == [4500,1500,1500,9000,1500,1500,1500] and
	.priomap == [7,6,5,1,3,2,1,0,7,7,7,7,7,7,7,7]'
jq_is "red ecn with Wlog 0 on band 5" "$q" '.[] | select(.kind == "red" and
	.handle == "4713:" and .parent == "4791:5") | .options |
	.limit == 4000000 and .min == 76800 and .max == 3072000 and .ecn and
	(.harddrop | not) and .ewma == 0 and .probability == 0.07'
jq_is "red ecn harddrop on band 2" "$q" '.[] | select(.kind == "red" and
	.handle == "4716:") | .options | .ecn and .harddrop and .ewma == 5 and
	.Scell_log == 8 and .probability == 0.02'
q=$(tc -n "$ns" -j qdisc show dev v1)
jq_is "the prio root" "$q" '.[] | select(.kind == "prio") | .options |
	.bands == 8 and .priomap == [7,6,5,4,3,2,1,0,7,7,7,7,7,7,7,7]'

f=$(tc -n "$ns" -j filter show dev v0 ingress)
jq_is "flower DSCP 26 -> priority 3 (IPv4 and IPv6)" "$f" '[.[] |
	select(.kind == "flower" and .options.keys.ip_tos == 104 and
	.options.keys.ip_tos_mask == "fc" and
	.options.actions[0].kind == "skbedit" and
	.options.actions[0].priority == ":3") | .pref] == [4791, 4792, 4794]'
jq_is "flower PCP 3 -> priority 3" "$f" '.[] | select(.pref == 4793 and
	.options) | .protocol == "802.1Q" and .options.keys.vlan_prio == 3'
jq_is "PCP 3 + IPv6 DSCP 26 behind the tag" "$f" '.[] | select(.pref == 4794
	and .options) | .options.keys.vlan_ethtype == "ipv6"'
jq_is "u32 DSCP 48 -> priority 6" "$f" '.[] | select(.pref == 4795 and
	.options.match) | .options.match.value == "c00000" and
	.options.match.mask == "fc0000" and
	.options.actions[0].priority == ":6"'
f=$(tc -n "$ns" -j filter show dev v0 parent 4791:)
jq_is "flower DSCP 26 -> class 4791:5" "$f" '.[] | select(.pref == 4796 and
	.options) | .options.classid == "4791:5"'
fk_finish
