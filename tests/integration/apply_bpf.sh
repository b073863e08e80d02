#!/bin/sh
# apply_bpf: on this machine's kernel (no flower, no skbedit) roced
# classifies with one cls_bpf program, and frames land in the queue their
# class-map names. A rig in a private namespace:
#
#   h0 ==veth== p0 -[ br0 ]- swp1 ==veth== sink
#
# roced (--once, the kernel probed) programs swp1 only. Frames are sent
# two ways: straight out of swp1 through an AF_PACKET socket, where a tag
# stays in the frame's bytes; and from h0 through the bridge: the receive
# path takes the tag off into the skb's metadata (whatever the bridge's
# VLAN settings; this kernel has no VLAN filtering) and the bridge
# forwards it so out of swp1, as a VLAN-aware port sends it. tc's class statistics of swp1 must
# then count every frame in its queue's class:
#   - match-any cos 3 / dscp 26 -> qos-group 3: DSCP 26 over IPv4 and
#     IPv6, untagged and tagged; CoS 3 in either place, IP or not;
#   - the reference's match-all cos 3 + dscp 26: only frames with both;
#   - everything else (best effort, other CoS and DSCP, ARP) in q-default.
# Then a changed program is repaired by the next --once, which writes
# nothing more after that.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
t_init apply_bpf
t_need_root
tmp=$t_tmp
send=$top_srcdir/tests/tools/frame_send.py
command -v python3 >/dev/null || t_skip "python3 is missing (scripts/install-deps.sh)"

t_netns_add ns bpf
in_ns() { "$IP" netns exec "$ns" "$@"; }
# The rig sends nothing of its own, or it would add to the counts: no
# IPv6 (neighbour discovery, MLD), and no IGMP reports (the bridge's host
# side joins 224.0.0.106 for snooping, and reports it on every port).
t_ns_sysctl "$ns" net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1 \
	net.ipv4.igmp_link_local_mcast_reports=0 || t_fail "cannot set the namespace's sysctls"
"$IP" -n "$ns" link add br0 type bridge mcast_snooping 0
"$IP" -n "$ns" link add swp1 type veth peer name sink
"$IP" -n "$ns" link add h0 type veth peer name p0
for l in br0 swp1 sink h0 p0; do "$IP" -n "$ns" link set "$l" up; done
"$IP" -n "$ns" link set swp1 master br0
"$IP" -n "$ns" link set p0 master br0
in_ns "$TC" -V >/dev/null || t_fail "tc does not run"

# The shipped policy (match-any); for "all", ROCE_CLASS as match-all.
python3 - "$top_srcdir/conf/roced.conf" "$tmp" <<'PY'
import sys
src, out = sys.argv[1], sys.argv[2]
s = open(src).read()
cmap = '{ name = "ROCE_CLASS"; match = "any"; cos = 3; dscp = 26; }'
assert cmap in s, 'the shipped class-map changed'
open(out + '/any.conf', 'w').write(s)
open(out + '/all.conf', 'w').write(s.replace(cmap, cmap.replace('"any"', '"all"')))
PY

# count: the packets swp1's classes of q3 and q-default sent, into q3 and
# q0 (tc's text: iproute2 6.1 prints no JSON for htb classes)
count() {
	set -- $(in_ns "$TC" -s class show dev swp1 | awk '
		$1 == "class" && $2 == "htb" { cls = $3; next }
		$1 == "Sent" && cls != "" { n[cls] = $4; cls = "" }
		END { print n["4791:13"] + 0, n["4791:10"] + 0 }')
	q3=$1 q0=$2
}

# expect WHERE N DEV KIND DSCP PCP: send N frames out of DEV (swp1: the
# tag in the bytes; h0: through the bridge, the tag in the metadata) and
# check that swp1's class of queue WHERE (3 or default) counted all N and
# the other one none.
checked=0
expect() {
	where=$1 n=$2 dev=$3 kind=$4 dscp=$5 pcp=$6
	q3a=$q3 q0a=$q0
	in_ns python3 "$send" "$dev" "$n" "$kind" "$dscp" "$pcp" ||
		t_fail "frame_send $dev $n $kind $dscp $pcp failed"
	# htb counts a frame when it dequeues it, which a busy machine may
	# do a little later: wait (up to 30 s) until all N are counted
	for _ in $(seq 300); do
		count
		d3=$((q3 - q3a)) d0=$((q0 - q0a))
		[ $((d3 + d0)) -ge "$n" ] && break
		sleep 0.1
	done
	if [ "$where" = 3 ]; then w3=$n w0=0; else w3=0 w0=$n; fi
	[ "$d3" = "$w3" ] && [ "$d0" = "$w0" ] || {
		in_ns "$TC" filter show dev swp1 parent 4791: >&2
		t_fail "$conf: $n $kind dscp $dscp pcp $pcp out of $dev: q3 +$d3, q-default +$d0; want q$where"
	}
	checked=$((checked + 1))
}

once() { in_ns "$roced" --once -f "$tmp/$conf.conf" >"$tmp/out" 2>"$tmp/err"; }
writes() { sed -n "s/^swp1: [a-z ]*, \([0-9]*\) writes\{0,1\},.*/\1/p" "$tmp/out"; }

for conf in any all; do
	in_ns "$TC" qdisc del dev swp1 root 2>/dev/null || true
	once || { cat "$tmp/out" "$tmp/err"; t_fail "$conf: --once failed"; }
	grep -q '^swp1: ok, ' "$tmp/out" || { cat "$tmp/out"; t_fail "$conf: swp1 not ok"; }
	in_ns "$TC" filter show dev swp1 parent 4791: | grep -q ' bpf .*flowid 4791:10' ||
		t_fail "$conf: no cls_bpf filter on swp1"
	count
	if [ "$conf" = any ]; then
		expect 3 20 swp1 ip 26 -
		expect 3 20 swp1 ip6 26 -
		expect 3 20 swp1 ip 26 5
		expect 3 20 swp1 ip 0 3
		expect 3 20 swp1 ip6 10 3
		expect 3 20 swp1 arp 0 3
		expect 3 20 h0 ip 0 3
		expect 3 20 h0 ip6 26 1
		expect 3 20 h0 arp 0 3
	else
		expect 3 20 swp1 ip 26 3
		expect 3 20 swp1 ip6 26 3
		expect 3 20 h0 ip 26 3
		expect 3 20 h0 ip6 26 3
		expect default 20 swp1 ip 26 -
		expect default 20 swp1 ip6 26 -
		expect default 20 swp1 ip 0 3
		expect default 20 h0 ip 26 4
		expect default 20 h0 arp 0 3
	fi
	# best effort, both ways, in q-default
	expect default 20 swp1 ip 0 -
	expect default 20 swp1 ip6 46 -
	expect default 20 swp1 ip 27 2
	expect default 20 h0 ip 0 0
	expect default 20 h0 ip6 25 7
	expect default 20 swp1 arp 0 -
	echo "$conf: every frame in its queue ($checked checks so far)"
done

# A program changed by someone else is put back by the next pass (two
# writes: its prio deleted and added again); then nothing to do.
in_ns "$TC" filter del dev swp1 parent 4791: prio 4791
in_ns "$TC" filter add dev swp1 parent 4791: protocol all prio 4791 bpf \
	bytecode '1,6 0 0 4294967295' classid 4791:10
once || t_fail "repair: --once failed"
[ "$(writes)" = 2 ] || { cat "$tmp/out"; t_fail "repair wrote $(writes), want 2"; }
count
expect 3 20 h0 ip 26 3
once || t_fail "re-apply: --once failed"
[ "$(writes)" = 0 ] || { cat "$tmp/out"; t_fail "re-apply after the repair wrote $(writes)"; }
echo "ok: $checked checks of queue 3 and q-default; a changed program repaired, then 0 writes"
