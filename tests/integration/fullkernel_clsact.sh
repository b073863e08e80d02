#!/bin/sh
# fullkernel_clsact.sh: roced deletes only the clsact it created. On a full
# kernel (the QEMU guest: flower and skbedit, so the shipped qos input
# policy classifies on clsact ingress), in a private namespace:
#   swp1 has no clsact; swp2 has an empty one someone else added.
#   1. roced --once with the shipped policy on both: swp1 gets a clsact
#      and roced's mark (a filter in chain 18321, which nothing jumps to);
#      swp2's clsact is used as it is, with no mark; both get roced's
#      ingress filters.
#   2. roced --once again, the qos input policy gone: roced's filters go;
#      swp1's clsact goes with them, swp2's stays (empty, as found).
# Each run is a new roced: what it knows of ownership it reads from the
# kernel, as a restarted daemon would. On the host this script boots the
# guest and runs itself inside; skipped (77) when QEMU or the distro kernel
# is missing.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
self=$here/$(basename "$0")
rig=$here/../rig/qemu

if [ "${ROCED_GUEST:-}" != 1 ]; then
	. "$here/lib.sh"
	t_guest fullkernel_clsact "$self" "$@"
fi

. "$rig/guest-lib.sh"
fk_init fullkernel_clsact

top_srcdir=${top_srcdir:-$(cd "$here/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
shipped=$top_srcdir/conf/roced.conf
roced=$top_builddir/roced
[ -x "$roced" ] || fk_fail "$roced not found or not executable in the guest"
grep -q 'qos-input = "ROCE_POLICY";' "$shipped" ||
	fk_fail "$shipped no longer has qos-input = \"ROCE_POLICY\": update fullkernel_clsact.sh"

ns=fkclsact-sw
peer=fkclsact-peer
tmp=$(mktemp -d /tmp/fk-clsact.XXXXXX)
trap 'fk_cleanup; rm -rf "$tmp"' EXIT
fk_netns_add "$ns"
fk_netns_add "$peer"
fk_veth "$ns" swp1 "$peer" peer1
fk_veth "$ns" swp2 "$peer" peer2
ip netns exec "$ns" tc qdisc add dev swp2 clsact ||
	fk_fail "cannot add the foreign clsact"

# The shipped interface block once per port; without qos input in NOQOS.
blk=$(sed -n '/^interface[[:space:]]*=[[:space:]]*(/,/^);/p' "$shipped" | sed '1d;$d')
{
	sed '/^interface[[:space:]]*=[[:space:]]*(/,$d' "$shipped"
	echo 'interface = ('
	printf '%s,\n' "$blk"
	printf '%s\n' "$blk" | sed 's/"swp1"/"swp2"/; s|Ethernet1/1|Ethernet1/2|g'
	echo ');'
	sed '1,/^interface[[:space:]]*=[[:space:]]*(/d' "$shipped" | sed '1,/^);/d'
} >"$tmp/qos.conf"
sed '/qos-input = "ROCE_POLICY";/d' "$tmp/qos.conf" >"$tmp/noqos.conf"
! cmp -s "$tmp/qos.conf" "$tmp/noqos.conf" || fk_fail "noqos.conf is qos.conf"

once()
{
	_rc=0
	ip netns exec "$ns" "$roced" --once --caps probe -f "$1" \
		>"$tmp/out" 2>&1 || _rc=$?
	sed 's/^/  /' "$tmp/out"
	[ $_rc -eq 0 ] || fk_fail "roced --once -f $(basename "$1") exited with $_rc"
}
has_clsact() { tc -n "$ns" -j qdisc show dev "$1" | jq -e 'any(.[]; .kind == "clsact")' >/dev/null; }
no_clsact() { ! has_clsact "$1"; }
# filters PORT [CHAIN]: how many rules on ingress (in CHAIN, else all).
filters()
{
	tc -n "$ns" -j filter show dev "$1" ingress ${2:+chain "$2"} |
		jq '[.[] | select(.options != null)] | length'
}
marked() { [ "$(filters "$1" 18321)" = 1 ]; }
unmarked() { [ "$(filters "$1" 18321)" = 0 ]; }
roced_rules() { [ "$(filters "$1" 0)" -gt 0 ]; }
no_rules() { [ "$(filters "$1")" = 0 ]; }

fk_log "1. the qos input policy on both ports"
once "$tmp/qos.conf"
fk_check "swp1: clsact created" has_clsact swp1
fk_check "swp1: roced's mark on it" marked swp1
fk_check "swp1: roced's ingress rules" roced_rules swp1
fk_check "swp2: the foreign clsact is used" has_clsact swp2
fk_check "swp2: no mark on someone else's clsact" unmarked swp2
fk_check "swp2: roced's ingress rules" roced_rules swp2

fk_log "2. the qos input policy gone"
once "$tmp/noqos.conf"
fk_check "swp1: roced's clsact deleted" no_clsact swp1
fk_check "swp2: the foreign clsact kept" has_clsact swp2
fk_check "swp2: roced's rules gone, nothing else" no_rules swp2

fk_log "3. and back: swp2's clsact is still not roced's"
once "$tmp/qos.conf"
once "$tmp/noqos.conf"
fk_check "swp1: deleted again" no_clsact swp1
fk_check "swp2: kept again" has_clsact swp2
fk_finish
