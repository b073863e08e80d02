#!/bin/bash
# capture-link-fixtures.sh: record the rtnetlink link requests that
# iproute2's `ip` sends, as hex, into tests/fixtures/link/*.hex.
# test_link_msg compares roced's encoders (lib/nlmsg/link_msg.c) with them.
#
# Usage: tests/tools/capture-link-fixtures.sh [OUTDIR]     (as root)
#
# How: `ip` runs under strace (-e trace=sendmsg -e write=all: the bytes of
# every sendmsg) in a scratch network namespace, which is why the veth
# pair gets ifindex 2 (the peer) and 3 and the later requests name 3.
# Only the requests are kept: the RTM_GETLINK that `ip link set` and
# `ip link del` send first, to turn the name into an ifindex, is dropped.
#
# Output format: "#" comment lines (the command, the tool versions), then
# one line of lowercase hex per netlink message. nlmsg_seq is ip's (the
# time of day); tests ignore it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../fixtures/link}
ns=roced-linkcap-$$
dev=roced-p123456
for tool in strace ip; do
	command -v "$tool" >/dev/null || {
		echo "capture-link-fixtures: $tool not found" >&2
		exit 1
	}
done
[ "$(id -u)" = 0 ] || {
	echo "capture-link-fixtures: needs root (network namespaces)" >&2
	exit 1
}
trap 'ip netns del "$ns" 2>/dev/null || true' EXIT
ip netns add "$ns"
mkdir -p "$out"

# capture NAME WHAT ARGS...: `ip ARGS` into OUT/NAME.hex.
capture() {
	local name=$1 what=$2
	shift 2
	{
		echo "# ip $*"
		echo "# $what"
		echo "# $(ip -V); $(strace -V | head -n 1); captured by"
		echo "# tests/tools/capture-link-fixtures.sh in a fresh namespace"
		ip netns exec "$ns" strace -e trace=sendmsg -e write=all -xx \
			ip "$@" 2>&1 >/dev/null |
			awk '
			/^ \* [0-9]+ bytes in buffer/ { if (m != "") print m; m = ""; next }
			/^ \| [0-9a-f]+  / {
				for (i = 3; i <= 18 && $i ~ /^[0-9a-f][0-9a-f]$/; i++)
					m = m $i
			}
			END { if (m != "") print m }' |
			grep -v '^........1200' # RTM_GETLINK: the name lookup
	} >"$out/$name.hex"
}

capture veth_add "a veth pair, both ends named" \
	link add "$dev" type veth peer name "$dev-b"
capture mtu "the MTU of the device (ifindex 3)" \
	link set dev "$dev" mtu 9000
capture del "delete the device (ifindex 3), and its peer with it" \
	link del "$dev"
echo "capture-link-fixtures: wrote $out"
