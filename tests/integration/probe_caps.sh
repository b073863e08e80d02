#!/bin/sh
# `roced --caps probe` must find what the running kernel really offers.
# The oracle is tc itself: in a scratch namespace we try each qdisc,
# classifier and action kind the plan can use, and predict the layout and
# the classification roced should choose. Runs on any kernel; the QEMU
# tier runs it again on a full distro kernel.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
conf="$top_srcdir/conf/roced.conf"
t_init probe_caps
t_need_root
t_netns_add ns probe
"$IP" -n "$ns" link set lo up

try() { "$IP" netns exec "$ns" "$TC" "$@" >/dev/null 2>&1; }
has_qdisc() {
	try qdisc add dev lo root handle 1: "$@" && try qdisc del dev lo root
}
has=""
has_qdisc ets bands 2 && has="$has ets"
has_qdisc prio && has="$has prio"
has_qdisc htb && has="$has htb"
has_qdisc red limit 400000 min 30000 max 90000 avpkt 1000 burst 55 \
	probability 0.1 bandwidth 10mbit && has="$has red"
has_qdisc tbf rate 1mbit burst 10000 limit 10000 && has="$has tbf"
try qdisc add dev lo clsact && has="$has clsact"
try filter add dev lo ingress prio 1 protocol ip flower ip_tos 0x68/0xfc \
	action skbedit priority 3 && has="$has flower+skbedit"
try filter add dev lo ingress prio 2 protocol all bpf \
	bytecode '1,6 0 0 4294967295' classid 1:1 && has="$has bpf"
echo "oracle (tc):$has"

hasw() { case " $has " in *" $1 "*) return 0 ;; esac; return 1; }
# The shipped policy's no-drop queue 3 shares bandwidth: where software
# PFC can hold it (tbf), the root is htb, which serves the other queues
# meanwhile, rather than ets, which would stop them (roced(8), Layouts).
ets_held=
hasw ets && hasw htb && hasw tbf && ets_held=1
case " $has " in
*" ets "*)
	if [ -z "$ets_held" ]; then
		want="ets+red"
	elif hasw red; then
		want="htb+red"
	else
		want="htb+bfifo"
	fi ;;
*" prio "*) want="prio+red" ;;
*" htb "*" red "*) want="htb+red" ;;
*" htb "*) want="htb+bfifo" ;;
*) want="none" ;;
esac
out=$("$roced" --dry-run --caps probe -f "$conf")
got=$(printf '%s\n' "$out" | sed -n 's/^# layout //p' | head -n 1)
echo "roced --caps probe: layout $got (expected $want)"
[ "$got" = "$want" ] || { echo "FAIL: layout"; exit 1; }
# The QEMU tier pins what a full kernel must give, so a guest that lost its
# modules cannot pass by agreeing with itself.
if [ -n "${ROCED_EXPECT_LAYOUT:-}" ] && [ "$got" != "$ROCED_EXPECT_LAYOUT" ]; then
	echo "FAIL: layout $got, this kernel should give $ROCED_EXPECT_LAYOUT"
	exit 1
fi

# Classification: flower+skbedit at ingress when the kernel has them,
# otherwise one cls_bpf program on the egress root, otherwise u32 there.
case " $has " in
*" flower+skbedit "*)
	# htb takes skb->priority as a class id: queue 3's class; but where
	# htb is software PFC's choice over ets, the skbedit keeps ets's
	# form (another port of the bridge may be ets) and the htb root
	# classifies again with one cls_bpf program
	case $want:" $has " in
	htb*:*" ets "*" bpf "*)
		pattern='^filter add dev swp1 ingress .* flower .*skbedit priority 3$'
		printf '%s\n' "$out" | grep -q "^filter add dev swp1 parent 4791: protocol all prio 4791 bpf bytecode " || {
			echo "FAIL: no cls_bpf program on the htb root (software PFC's htb beside ets)"
			exit 1
		} ;;
	htb*) pattern='^filter add dev swp1 ingress .* flower .*skbedit priority 4791:13$' ;;
	*) pattern='^filter add dev swp1 ingress .* flower .*skbedit priority 3$' ;;
	esac ;;
*" bpf "*) pattern="^filter add dev swp1 parent 4791: protocol all prio 4791 bpf bytecode '[0-9][0-9 ,]*' classid 4791:10\$" ;;
*) pattern='^filter add dev swp1 parent 4791: .* u32 ' ;;
esac
printf '%s\n' "$out" | grep -q "$pattern" || {
	echo "FAIL: expected a filter matching: $pattern"
	printf '%s\n' "$out" | grep '^filter' || true
	exit 1
}
# And the probe must not have touched this namespace's interfaces.
echo "PASS: probe matches tc's own answers"
