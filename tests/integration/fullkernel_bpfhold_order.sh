#!/bin/sh
# fullkernel_bpfhold_order.sh: the kernel path of pause received keeps
# each flow's order across many holds and releases (pfc_hold.bpf.c's
# waves, the loop's one CPU; see the comment in pfc_tx). Its first form
# gave each held packet "now + 2 ms" and sent a new one on at once when a
# release came while others were still in the loop: fq, which keeps a
# flow in the order of departure times, let the later ones overtake, and
# Soft-RoCE writers behind it retransmitted 14-22 % (fullkernel_rdma).
# A sender behind swp1 sends numbered DSCP 26 datagrams (priority 3, one
# flow) to a receiver behind peer1 while the peer pauses priority 3:
#   1. pulses: pauses of 10 ms refreshed every 5 ms for 20 ms in every
#      40 ms (longer than the 2 ms recheck: held packets go round the
#      loop several times, new ones join), each pulse ending when its
#      quanta run out;
#   2. pauses ended by an XON, ten times.
# Every datagram arrives, none out of order (the receiver's log), and
# the holds were taken (held packets, the pauses counted). Not in the
# full tier yet: a few held groups are still overtaken by one later
# datagram (docs/STATUS.md); it prints the first of them.
# On the host this script boots the guest and runs itself inside; skipped
# (77) when QEMU, the distro kernel or roced's BPF programs are missing.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
self=$here/$(basename "$0")
rig=$here/../rig/qemu

top_srcdir=${top_srcdir:-$(cd "$here/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
tools=$top_builddir/tests/tools

if [ "${ROCED_GUEST:-}" != 1 ]; then
	. "$here/lib.sh"
	grep -q '^#define HAVE_BPF_PROGS 1' "$top_builddir/config.h" 2>/dev/null || {
		echo "SKIP: roced was built without its BPF programs (libbpf-dev, clang)"
		exit 77
	}
	ROCED_QEMU_TIMEOUT=${ROCED_QEMU_TIMEOUT:-600}
	export ROCED_QEMU_TIMEOUT
	t_guest fullkernel_bpfhold_order "$self" "$@"
fi

. "$rig/guest-lib.sh"
fk_init fullkernel_bpfhold_order
for t in pfchold pfc_storm traffic; do
	[ -x "$tools/$t" ] || fk_fail "$tools/$t not built (make check builds it)"
done
modprobe sch_fq 2>/dev/null || true

ns=fkbo-sw
peer=fkbo-hs
tmp=$(mktemp -d /tmp/fk-bpfhold-order.XXXXXX)
trap 'fk_cleanup; rm -rf "$tmp"' EXIT
fk_netns_add "$ns"
fk_netns_add "$peer"
# one queue each way (fk_veth makes 8): RPS below has one queue to steer
ip -n "$ns" link add swp1 type veth peer name peer1 netns "$peer" ||
	fk_fail "cannot create veth swp1 - peer1"
ip -n "$ns" link set swp1 up
ip -n "$peer" link set peer1 up
ip -n "$ns" addr add 10.78.0.1/24 dev swp1
ip -n "$peer" addr add 10.78.0.2/24 dev peer1
sw() { ip netns exec "$ns" "$@"; }
hs() { ip netns exec "$peer" "$@"; }
# What reaches peer1 goes to CPU 0's backlog (RPS): a veth hands a packet
# to the backlog of the CPU that sent it, and the sender's own packets
# (sent on from its CPU) and the held ones (from the loop's CPU) would
# otherwise meet out of order on the wire's far side, which is no hold's
# doing (fullkernel_rdma does the same for its ports).
hs sh -c 'echo 1 >/sys/class/net/peer1/queues/rx-0/rps_cpus' ||
	fk_fail "cannot set RPS on peer1"
fk_log "peer1: rps_cpus $(hs cat /sys/class/net/peer1/queues/rx-0/rps_cpus)"

val() { sw "$tools/pfchold" show swp1 | tr ' ' '\n' | paste -d' ' - - |
	awk -v k="$1" '$1 == k { print $2 }'; }

# Quanta counted at 10 Mb/s (51.2 us each), a held packet looked at
# again every 2 ms, as roced does.
sw "$tools/pfchold" attach swp1 -s 10 -p 3 -d 26=3 -r 2000 ||
	fk_fail "pfchold attach swp1 failed"

# The receiver's neighbour entry is set: a datagram that waits for ARP
# arrives after later ones, and that is no hold's doing.
ip -n "$ns" neigh replace 10.78.0.2 lladdr "$(fk_mac "$peer" peer1)" dev swp1 nud permanent
fk_log "loop's second end: rps_cpus $(sw sh -c 'cat /sys/class/net/rocedh*b/queues/rx-0/rps_cpus')"

# ooo: datagrams that arrived after one of a higher sequence number of
# their flow (the receiver's log: "flow seq sent_ns recv_ns").
ooo() { awk '{ if ($1 in m && $2 < m[$1]) n++; else m[$1] = $2 } END { print n + 0 }' "$tmp/recv.log"; }
# the first out of order, each with the datagram it arrived behind
ooo_show() { awk '{ if ($1 in m && $2 < m[$1] && n++ < 12) printf "  seq %d sent %.3f ms after, arrived %.3f ms after seq %d\n", $2, ($3 - s[$1]) / 1e6, ($4 - r[$1]) / 1e6, m[$1]; else if (!($1 in m) || $2 > m[$1]) { m[$1] = $2; s[$1] = $3; r[$1] = $4 } }' "$tmp/recv.log"; }
all_arrived()
{
	_sent=$(awk '$1 == "sent" { print $2 }' "$tmp/send.out")
	_rx=$(awk '$1 == "total" { print $3 }' "$tmp/recv.out")
	[ -n "$_sent" ] && [ "$_sent" = "$_rx" ]
}
# start SECONDS: the receiver, then 2000 datagrams/s of DSCP 26 for
# SECONDS once it listens; returns when 100 have arrived.
start()
{
	rm -f "$tmp/ready" "$tmp/recv.log"
	hs "$tools/traffic" recv -t $(($1 + 30)) -i 10 -R "$tmp/ready" \
		-l "$tmp/recv.log" >"$tmp/recv.out" 2>&1 &
	rpid=$!
	_n=0
	while [ ! -e "$tmp/ready" ] && [ $_n -lt 100 ]; do
		sleep 0.1
		_n=$((_n + 1))
	done
	sw "$tools/traffic" send 10.78.0.2 -T 0x68 -r 2000 -t "$1" \
		-b 65536 >"$tmp/send.out" 2>&1 &
	spid=$!
	_n=0
	while [ "$(wc -l <"$tmp/recv.log" 2>/dev/null || echo 0)" -lt 100 ] &&
		[ $_n -lt 300 ]; do
		sleep 0.1
		_n=$((_n + 1))
	done
}
finish()
{
	wait "$spid" || fk_fail "the sender failed: $(cat "$tmp/send.out")"
	wait "$rpid" || true
	sed 's/^/  /' "$tmp/send.out" "$tmp/recv.out"
}

fk_log "1. pulses of pause that run out, 25 a second"
held0=$(val held_3)
start 12
hs "$tools/pfc_storm" -i peer1 -p 3 -q 200 -r 200 -c 20:40 -t 8 \
	>"$tmp/storm.out" 2>&1 || fk_fail "pfc_storm: $(cat "$tmp/storm.out")"
sed 's/^/  /' "$tmp/storm.out"
finish
n=$(ooo)
fk_log "datagrams out of order: $n of $(wc -l <"$tmp/recv.log")"
[ "$n" = 0 ] || { ooo_show; sw "$tools/pfchold" show swp1; }
fk_check "none out of order" [ "$n" = 0 ]
fk_check "every datagram arrived" all_arrived
held=$(($(val held_3) - held0))
fk_check "packets were held ($held)" [ "$held" -gt 0 ]
fk_check "the loop is empty" [ "$(val inloop_3)" = 0 ]

fk_log "2. pauses ended by an XON, ten times"
held0=$(val held_3)
xon0=$(val xon_3)
start 30
i=0
while [ $i -lt 10 ]; do
	hs "$tools/pfc_storm" -i peer1 -p 3 -q 65535 -r 100 -n 3 -x \
		>"$tmp/p.out" 2>&1 || fk_fail "pfc_storm: $(cat "$tmp/p.out")"
	sleep 0.2
	i=$((i + 1))
done
finish
n=$(ooo)
fk_log "datagrams out of order: $n of $(wc -l <"$tmp/recv.log")"
[ "$n" = 0 ] || { ooo_show; sw "$tools/pfchold" show swp1; }
fk_check "none out of order" [ "$n" = 0 ]
fk_check "every datagram arrived" all_arrived
fk_check "ten XONs counted" [ $(($(val xon_3) - xon0)) = 10 ]
held=$(($(val held_3) - held0))
fk_check "packets were held ($held)" [ "$held" -gt 0 ]
fk_check "the loop is empty" [ "$(val inloop_3)" = 0 ]
fk_check "the loop dropped nothing" sh -c \
	"tc -n $ns -s qdisc show dev \$(ip -n $ns -br link | awk '\$1 ~ /^rocedh[0-9]+a@/ { sub(/@.*/, \"\", \$1); print \$1 }') | grep -q 'dropped 0,'"
sw "$tools/pfchold" detach swp1 >/dev/null 2>&1 || true
fk_finish
