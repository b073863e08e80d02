#!/bin/sh
# capture-tc-fixtures.sh [--no-guest] BUILDDIR
#
# Record the fixtures of tests/unit/test_tc_msg.c:
#  - req-*.hex: the request iproute2's `tc` sends for a command line,
#    taken from `strace -e trace=sendmsg -e write=all` in a scratch network
#    namespace on a veth pair. For the kinds this machine's kernel lacks
#    (ets, prio, red, flower, skbedit) tc still sends the request before
#    the kernel refuses it, so those are captured here too.
#  - dump-*.hex: the kernel's dump replies, as BUILDDIR/tests/tools/tc_dump
#    prints them, after creating the objects with tc: htb, fifos, clsact
#    and u32 on this kernel; ets, prio, red, flower and skbedit in the QEMU
#    full-kernel guest (tests/rig/qemu), unless --no-guest.
# Then regenerate the C arrays with dissection comments (one header per
# fixture family in tests/unit/tcfx/, indexed by tests/unit/tc_msg_fixtures.h)
# with tc-fixtures-c.py.
#
# Each .hex file has '#' comment lines (the commands, the kernel and tc
# versions) and one netlink message per line in hex. Run as root; needs
# strace, tc, ip and python3. Inside the guest (ROCED_GUEST=1) only the
# guest dumps are captured and printed between @@fixture/@@end markers.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=$top/tests/fixtures/tc
guest=1
if [ "${1:-}" = --no-guest ]; then
	guest=0
	shift
fi
if [ $# -ne 1 ]; then
	echo "usage: $0 [--no-guest] BUILDDIR" >&2
	exit 2
fi
build=$(cd "$1" && pwd)
tcdump=$build/tests/tools/tc_dump
[ -x "$tcdump" ] || {
	echo "$0: build $tcdump first (make check builds it)" >&2
	exit 1
}

ns=tcmsg-capture-$$
tcv=$(tc -V | sed -n 's/.*iproute2-\([0-9.]*\).*/\1/p')
origin="Linux $(uname -r), iproute2 $tcv"

setup()
{
	ip netns add "$ns"
	ip -n "$ns" link add v0 type veth peer name v1
	ip -n "$ns" link set v0 up
	ip -n "$ns" link set v1 up
}
cleanup()
{
	ip netns del "$ns" 2>/dev/null || true
	rm -f "$trace"
}
trace=$(mktemp)
trap cleanup EXIT INT TERM HUP

t()
{
	ip netns exec "$ns" tc "$@"
}

# The hex of every tc request (RTM_NEWQDISC..RTM_GETTFILTER) sent over
# sendmsg, one per line; the iovecs of one sendmsg are joined.
sendmsg_hex()
{
	awk '
	/sendmsg\(/ { if (m != "") print m; m = ""; next }
	/^ \| [0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]  / {
		h = substr($0, 11, 48); gsub(/ /, "", h); m = m h
	}
	END { if (m != "") print m }' "$1" |
		while read -r m; do
			# nlmsg_type, little endian, at bytes 4-5
			ty=$((0x$(printf %s "$m" | cut -c11-12)$(printf %s "$m" | cut -c9-10)))
			if [ "$ty" -ge 36 ] && [ "$ty" -le 46 ]; then
				echo "$m"
			fi
		done
}

# req NAME TC-ARGS...: capture the request of `tc TC-ARGS` (whatever the
# kernel answers).
req()
{
	name=$1
	shift
	ip netns exec "$ns" strace -f -qq -e trace=sendmsg -e write=all \
		-o "$trace" tc "$@" >/dev/null 2>&1 || true
	hex=$(sendmsg_hex "$trace")
	n=$(printf '%s\n' "$hex" | grep -c . || true)
	if [ "$n" -ne 1 ]; then
		echo "$0: tc $*: expected one request, got $n" >&2
		exit 1
	fi
	{
		echo "# tc $*"
		echo "# request captured with strace; $origin"
		echo "$hex"
	} >"$out/req-$name.hex"
}

# dump NAME OBJ [PARENT] -- COMMANDS...: the fixture is the list of tc
# commands that built the state, then the dump.
dump_to()
{
	name=$1
	obj=$2
	parent=$3
	cmds=$4
	printf '%s\n' "$cmds" | sed 's/^/# tc /'
	echo "# kernel dump ($obj${parent:+ parent $parent}) read by tc_dump; $origin"
	ip netns exec "$ns" "$tcdump" "$obj" v0 $parent
}

# run the tc commands of a state, one per line (as a shell reads them, so
# that a quoted bpf program stays one word)
build_state()
{
	printf '%s\n' "$1" | while read -r line; do
		eval "t $line"
	done
}

host_htb_state="qdisc add dev v0 root handle 4791: htb default 10
class add dev v0 parent 4791: classid 4791:1 htb rate 10gbit ceil 10gbit
class add dev v0 parent 4791:1 classid 4791:13 htb rate 5gbit ceil 10gbit prio 1 quantum 60000
class add dev v0 parent 4791:1 classid 4791:10 htb rate 100mbit ceil 10gbit prio 7
class add dev v0 parent 4791: classid 4791:2 htb rate 40gbit ceil 100gbit
qdisc add dev v0 parent 4791:13 handle 4713: bfifo limit 300000
qdisc add dev v0 parent 4791:10 handle 4710: pfifo limit 1000
filter add dev v0 parent 4791: protocol ip prio 4791 u32 match ip dsfield 0x68 0xfc classid 4791:13
filter add dev v0 parent 4791: protocol ipv6 prio 4792 u32 match ip6 priority 0x68 0xfc classid 4791:13
filter add dev v0 parent 4791: protocol ip prio 4799 u32 match u32 0 0 classid 4791:10
qdisc add dev v0 clsact"

# classification without flower: one classic BPF program returning the
# class (4791:13 for IPv4 here), -1 for the filter's classid 4791:10
host_bpf_prog='4,40 0 0 12,21 0 1 2048,6 0 0 1200685075,6 0 0 4294967295'
host_bpf_state="qdisc add dev v0 root handle 4791: htb default 10
class add dev v0 parent 4791: classid 4791:1 htb rate 10gbit ceil 10gbit
class add dev v0 parent 4791:1 classid 4791:10 htb rate 100mbit ceil 10gbit prio 7
class add dev v0 parent 4791:1 classid 4791:13 htb rate 5gbit ceil 10gbit prio 1 quantum 60000
filter add dev v0 parent 4791: protocol all prio 4791 bpf bytecode '$host_bpf_prog' classid 4791:10"

# class-default: a rule of protocol all without a key
host_all_state="qdisc add dev v0 root handle 4791: htb default 10
class add dev v0 parent 4791: classid 4791:1 htb rate 10gbit ceil 10gbit
class add dev v0 parent 4791:1 classid 4791:10 htb rate 100mbit ceil 10gbit prio 7
filter add dev v0 parent 4791: protocol all prio 4793 u32 match u32 0 0 classid 4791:10"

guest_ets_state="qdisc add dev v0 root handle 4791: ets bands 8 strict 1 quanta 4500 1500 1500 4500 1500 1500 1500 priomap 7 6 5 4 3 2 1 0 7 7 7 7 7 7 7 7
qdisc add dev v0 parent 4791:5 handle 4713: red limit 4000000 min 153600 max 3072000 avpkt 1000 burst 154 bandwidth 10gbit probability 0.07 ecn
qdisc add dev v0 parent 4791:2 handle 4716: red limit 1000000 min 30000 max 90000 avpkt 1000 burst 55 bandwidth 1gbit probability 0.02 ecn harddrop
filter add dev v0 parent 4791: protocol ip prio 4791 flower ip_tos 0x68/0xfc classid 4791:5
filter add dev v0 parent 4791: protocol ipv6 prio 4792 flower ip_tos 0x68/0xfc classid 4791:5
qdisc add dev v1 root handle 4791: prio bands 8 priomap 7 6 5 4 3 2 1 0 7 7 7 7 7 7 7 7
qdisc add dev v0 clsact
filter add dev v0 ingress protocol ip prio 4791 flower ip_tos 0x68/0xfc action skbedit priority 3
filter add dev v0 ingress protocol 802.1Q prio 4793 flower vlan_prio 3 action skbedit priority 3
filter add dev v0 ingress protocol 802.1Q prio 4794 flower vlan_prio 3 vlan_ethtype ip ip_tos 0x68/0xfc action skbedit priority 3
filter add dev v0 ingress protocol ipv6 prio 4795 u32 match ip6 priority 0x68 0xfc action skbedit priority 3"

if [ "${ROCED_GUEST:-}" = 1 ]; then
	setup
	build_state "$guest_ets_state"
	emit()
	{
		echo "@@fixture $1"
		dump_to "$1" "$2" "$3" "$guest_ets_state"
		echo "@@end"
	}
	emit dump-ets-qdisc qdisc ""
	emit dump-ets-class class ""
	emit dump-ets-filter filter 4791:
	emit dump-clsact-ingress filter ingress
	# the prio root sits on the peer; tc_dump takes the device second
	echo "@@fixture dump-prio-qdisc"
	printf '%s\n' "qdisc add dev v1 root handle 4791: prio bands 8 priomap 7 6 5 4 3 2 1 0 7 7 7 7 7 7 7 7" |
		sed 's/^/# tc /'
	echo "# kernel dump (qdisc) read by tc_dump; $origin"
	ip netns exec "$ns" "$tcdump" qdisc v1
	echo "@@end"
	exit 0
fi

[ "$(id -u)" -eq 0 ] || {
	echo "$0: must run as root" >&2
	exit 1
}
for tool in strace tc ip python3; do
	command -v $tool >/dev/null || {
		echo "$0: $tool not found" >&2
		exit 1
	}
done
mkdir -p "$out"
setup

# --- requests -----------------------------------------------------------
req qdisc-htb-add qdisc add dev v0 root handle 4791: htb default 10
req class-htb-root-add class add dev v0 parent 4791: classid 4791:1 htb rate 10gbit ceil 10gbit
req class-htb-q3-add class add dev v0 parent 4791:1 classid 4791:13 htb rate 5gbit ceil 10gbit prio 1 quantum 60000
req class-htb-q0-add class add dev v0 parent 4791:1 classid 4791:10 htb rate 100mbit ceil 10gbit prio 7
req class-htb-rate64-add class add dev v0 parent 4791: classid 4791:2 htb rate 40gbit ceil 100gbit
req class-htb-q3-change class change dev v0 parent 4791:1 classid 4791:13 htb rate 2500mbit ceil 10gbit prio 1 quantum 60000
req class-htb-q3-hold class change dev v0 parent 4791:1 classid 4791:13 htb rate 8bit ceil 8bit prio 1 quantum 60000
req class-htb-q3-replace class replace dev v0 parent 4791:1 classid 4791:13 htb rate 5gbit ceil 10gbit prio 1 quantum 60000
req qdisc-bfifo-add qdisc add dev v0 parent 4791:13 handle 4713: bfifo limit 300000
req qdisc-pfifo-add qdisc add dev v0 parent 4791:10 handle 4710: pfifo limit 1000
req filter-u32-ip-add filter add dev v0 parent 4791: protocol ip prio 4791 u32 match ip dsfield 0x68 0xfc classid 4791:13
req filter-u32-ip6-add filter add dev v0 parent 4791: protocol ipv6 prio 4792 u32 match ip6 priority 0x68 0xfc classid 4791:13
req filter-u32-all-add filter add dev v0 parent 4791: protocol ip prio 4799 u32 match u32 0 0 classid 4791:10
req filter-u32-all-replace filter replace dev v0 parent 4791: protocol ip prio 4799 u32 match u32 0 0 classid 4791:10
req filter-u32-protoall-add filter add dev v0 parent 4791: protocol all prio 4793 u32 match u32 0 0 classid 4791:10
req filter-bpf-add filter add dev v0 parent 4791: protocol all prio 4791 bpf bytecode "$host_bpf_prog" classid 4791:10
req filter-del filter del dev v0 parent 4791: protocol ipv6 prio 4792
req dump-qdisc qdisc show dev v0
req dump-class class show dev v0
req dump-filter filter show dev v0 parent 4791:
req qdisc-clsact-add qdisc add dev v0 clsact
req dump-filter-ingress filter show dev v0 ingress
req filter-u32-skbedit-add filter add dev v0 ingress protocol ip prio 4791 u32 match ip dsfield 0x68 0xfc action skbedit priority 3
req filter-flower-skbedit-add filter add dev v0 ingress protocol ip prio 4791 flower ip_tos 0x68/0xfc action skbedit priority 3
req filter-flower-mark-add filter add dev v0 ingress chain 18321 protocol all prio 5790 flower action skbedit priority 0
req filter-flower-vlan-add filter add dev v0 ingress protocol 802.1Q prio 4793 flower vlan_prio 3 action skbedit priority 3
req filter-flower-vlan-dscp-add filter add dev v0 ingress protocol 802.1Q prio 4794 flower vlan_prio 3 vlan_ethtype ip ip_tos 0x68/0xfc action skbedit priority 3
req filter-flower-classid-add filter add dev v0 parent 4791: protocol ip prio 4791 flower ip_tos 0x68/0xfc classid 4791:13
req filter-flower-ip6-classid-add filter add dev v0 parent 4791: protocol ipv6 prio 4792 flower ip_tos 0x68/0xfc classid 4791:13
req filter-flower-protoall-add filter add dev v0 ingress protocol all prio 4793 flower action skbedit priority 0
req qdisc-del qdisc del dev v0 parent 4791:13 handle 4713:
req class-del class del dev v0 parent 4791:1 classid 4791:13
req qdisc-clsact-del qdisc del dev v0 clsact
req qdisc-htb-replace qdisc replace dev v0 root handle 4791: htb default 11 r2q 5
req qdisc-htb-change qdisc change dev v0 root handle 4791: htb default 12 r2q 20
req qdisc-htb-del qdisc del dev v0 root handle 4791:
req qdisc-ets-add qdisc add dev v0 root handle 4791: ets bands 8 strict 1 quanta 4500 1500 1500 4500 1500 1500 1500 priomap 7 6 5 4 3 2 1 0 7 7 7 7 7 7 7 7
req qdisc-ets-nostrict-add qdisc add dev v0 root handle 4791: ets bands 4 quanta 3000 1500 1500 9000 priomap 3 2 1 0 3 3 3 3 3 3 3 3 3 3 3 3
req qdisc-prio-add qdisc add dev v0 root handle 4791: prio bands 8 priomap 7 6 5 4 3 2 1 0 7 7 7 7 7 7 7 7
req qdisc-red-10g-add qdisc add dev v0 parent 4791:5 handle 4713: red limit 4000000 min 153600 max 3072000 avpkt 1000 burst 154 bandwidth 10gbit probability 0.07 ecn
req qdisc-red-1g-add qdisc add dev v0 parent 4791:2 handle 4716: red limit 1000000 min 30000 max 90000 avpkt 1000 burst 55 bandwidth 1gbit probability 0.02 ecn harddrop
req qdisc-red-100m-add qdisc add dev v0 parent 4791:2 handle 4716: red limit 400000 min 30000 max 90000 avpkt 1000 burst 600 bandwidth 100mbit probability 0.1

# --- dumps of this kernel ---------------------------------------------------
ip netns del "$ns"
setup
build_state "$host_htb_state"
dump_to dump-htb-qdisc qdisc "" "$host_htb_state" >"$out/dump-htb-qdisc.hex"
dump_to dump-htb-class class "" "$host_htb_state" >"$out/dump-htb-class.hex"
dump_to dump-htb-filter filter 4791: "$host_htb_state" >"$out/dump-htb-filter.hex"
ip netns del "$ns"
setup
build_state "$host_all_state"
dump_to dump-htb-filter-all filter 4791: "$host_all_state" >"$out/dump-htb-filter-all.hex"
ip netns del "$ns"
setup
build_state "$host_bpf_state"
dump_to dump-htb-filter-bpf filter 4791: "$host_bpf_state" >"$out/dump-htb-filter-bpf.hex"

# --- dumps of the full kernel (QEMU) -----------------------------------------
if [ $guest = 1 ]; then
	res=$(mktemp)
	ROCED_QEMU_BIND=$build "$top/tests/rig/qemu/run-guest.sh" "$0" "$build" >"$res"
	awk -v dir="$out" '
	/^@@fixture / { f = dir "/" $2 ".hex"; printf "" > f; next }
	/^@@end/ { close(f); f = ""; next }
	f != "" { print >> f }' "$res"
	rm -f "$res"
fi

python3 "$here/tc-fixtures-c.py" "$out" "$top/tests/unit"
echo "fixtures in $out, C arrays in tests/unit/tcfx/ (tc_msg_fixtures.h)"
