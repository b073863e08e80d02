#!/bin/sh
# tc_msg_kernel.sh: lib/nlmsg/tc_msg against this machine's kernel, in a private
# network namespace on a veth pair.
#
# tests/integration/tc_msg_kernel sends roced's HTB layout (htb root, HTB
# classes incl. 64-bit rates, bfifo/pfifo leaves, clsact, u32 DSCP filters
# with a classid) as lib/nlmsg/tc_msg encodes it, dumps it back through the
# decoders and compares with the plan; then changes, holds (rate 8bit),
# replaces and deletes pieces of it. Between the phases this script reads
# the same state with iproute2's `tc` and checks that tc sees the values
# the plan asked for: an independent decoder of what the kernel holds.
# Skipped (77) when not root or without network namespaces.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=${top_srcdir:-$(cd "$here/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
prog=$top_builddir/tests/integration/tc_msg_kernel
. "$top_srcdir/tests/integration/lib.sh"
t_init tc_msg_kernel

skip()
{
	echo "SKIP: $*"
	exit 77
}
fail()
{
	echo "FAIL: $*"
	exit 1
}

[ "$(id -u)" -eq 0 ] || skip "needs root for a network namespace"
command -v tc >/dev/null || skip "tc (iproute2) not found"
[ -x "$prog" ] || fail "$prog is not built (make check builds it)"

t_netns_add ns tcmsg-kernel 2>/dev/null || skip "cannot create a network namespace"
ip -n "$ns" link add v0 type veth peer name v1
ip -n "$ns" link set v0 up
ip -n "$ns" link set v1 up

# has WHAT TEXT PATTERN: TEXT has a line matching the basic regex PATTERN
has()
{
	if printf '%s\n' "$2" | grep -q -- "$3"; then
		echo "ok: tc shows $1"
	else
		printf '%s\n' "$2"
		fail "tc does not show $1 (/$3/)"
	fi
}

show()
{
	tc -n "$ns" "$@"
}

ip netns exec "$ns" "$prog" apply v0 || fail "apply phase"

q=$(show -d qdisc show dev v0)
has "the htb root" "$q" '^qdisc htb 4791: root .* r2q 10 default 0x10 '
has "the bfifo leaf" "$q" '^qdisc bfifo 4713: parent 4791:13 limit 300000b'
has "the pfifo leaf" "$q" '^qdisc pfifo 4710: parent 4791:10 limit 1000p'
has "clsact" "$q" '^qdisc clsact ffff: parent ffff:fff1'
c=$(show -d class show dev v0)
has "the port class" "$c" '^class htb 4791:1 root rate 10Gbit ceil 10Gbit '
has "queue 3's class" "$c" \
	'^class htb 4791:13 parent 4791:1 leaf 4713: prio 1 quantum 60000 rate 5Gbit ceil 10Gbit '
has "queue 0's class" "$c" \
	'^class htb 4791:10 parent 4791:1 leaf 4710: prio 7 quantum 1514 rate 100Mbit ceil 10Gbit '
has "a 64-bit rate class" "$c" \
	'^class htb 4791:2 root prio 0 quantum 200000 rate 40Gbit ceil 100Gbit '
# tc's burst comes from the buffer the encoder computed as tc does
has "tc's burst for 5Gbit" "$c" '^class htb 4791:13 .* burst 625b/1 '
f=$(show filter show dev v0 parent 4791:)
has "the IPv4 DSCP 26 rule" "$(printf '%s\n' "$f" | grep -A1 'pref 4791 .*flowid 4791:13')" \
	'match 00680000/00fc0000 at 0'
has "the IPv6 DSCP 26 rule" "$(printf '%s\n' "$f" | grep -A1 'ipv6 pref 4792 .*flowid 4791:13')" \
	'match 06800000/0fc00000 at 0'
has "the match-all rule" "$(printf '%s\n' "$f" | grep -A1 'pref 4799 .*flowid 4791:10')" \
	'match 00000000/00000000 at 0'
f=$(show filter show dev v0 ingress)
has "the ingress rule (DSCP 46)" "$(printf '%s\n' "$f" | grep -A1 'ipv6 pref 4800 .*flowid 4791:13')" \
	'match 0b800000/0fc00000 at 0'

ip netns exec "$ns" "$prog" change v0 || fail "change phase"

q=$(show -d qdisc show dev v0)
has "the replaced bfifo" "$q" '^qdisc bfifo 4713: parent 4791:13 limit 200000b'
c=$(show -d class show dev v0)
has "the changed class" "$c" \
	'^class htb 4791:13 parent 4791:1 leaf 4713: prio 1 quantum 30000 rate 2500Mbit ceil 10Gbit '
has "the held class" "$c" '^class htb 4791:10 .* rate 8bit ceil 8bit '
f=$(show filter show dev v0 parent 4791:)
has "the re-added match-all rule" "$f" 'pref 4799 .*flowid 4791:13'
n=$(printf '%s\n' "$f" | grep -c 'pref 4799 .*flowid' || true)
[ "$n" -eq 1 ] || fail "prio 4799 holds $n rules"

ip netns exec "$ns" "$prog" delete v0 || fail "delete phase"
q=$(show qdisc show dev v0)
if printf '%s\n' "$q" | grep -q '4791:\|clsact'; then
	printf '%s\n' "$q"
	fail "qdiscs left after delete"
fi
echo "ok: tc shows nothing of roced's left"
