#!/bin/sh
# fullkernel_bpfhold.sh: the kernel path of software PFC's receive side
# (daemon/kernel/bpfhold.c, pfc_hold.bpf.c) on the QEMU guest's kernel
# (sch_fq, clsact, BPF). tests/tools/pfchold, the loader roced uses,
# attaches the programs to swp1 and exits at once: every hold below is
# taken and ended by the kernel with no process of roced's alive.
# A sender behind swp1 sends numbered DSCP 26 datagrams (priority 3) to a
# receiver behind peer1; the peer pauses priority 3 with PFC frames
# (tests/tools/pfc_storm). Quanta are counted at 10 Mb/s, so that one
# pause of 65535 quanta lasts 3.355 s, long beside the stalls of a
# loaded host under TCG (at 100 Mb/s, 335 ms, the storm's own pauses
# lapsed now and then: the datagrams then let through were right).
#   1. one second of pause refreshed every 10 ms, then none: no datagram
#      arrives from the first frame (+20 ms for it to be read) until the
#      last frame's quanta run out (-30 ms), and they flow again after;
#      none lost (sequence numbers), the frames counted (RxPPP).
#   2. three pauses 25 ms apart then an XON, with a held packet looked
#      at again every 2 ms: held until the XON, released by it long
#      before the quanta's end; counted as XON.
#   3. a pause for priority 4, which swp1 does not honour: counted, and
#      no hold set for 4 (nor for 3).
#   4. a truncated MAC Control frame and an unknown opcode: counted.
#   5. roced --release-holds in the middle of a long storm: the programs
#      and the loop are gone, and every datagram sent arrives (what the
#      loop held was sent on, the rest of the storm not honoured).
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
	# a loaded host makes TCG slow: traffic, storms and a release
	ROCED_QEMU_TIMEOUT=${ROCED_QEMU_TIMEOUT:-600}
	export ROCED_QEMU_TIMEOUT
	t_guest fullkernel_bpfhold "$self" "$@"
fi

. "$rig/guest-lib.sh"
fk_init fullkernel_bpfhold
for t in pfchold pfc_storm traffic; do
	[ -x "$tools/$t" ] || fk_fail "$tools/$t not built (make check builds it)"
done
modprobe sch_fq 2>/dev/null || true

ns=fkbh-sw
peer=fkbh-hs
tmp=$(mktemp -d /tmp/fk-bpfhold.XXXXXX)
trap 'fk_cleanup; rm -rf "$tmp"' EXIT
fk_netns_add "$ns"
fk_netns_add "$peer"
fk_veth "$ns" swp1 "$peer" peer1
ip -n "$ns" addr add 10.77.0.1/24 dev swp1
ip -n "$peer" addr add 10.77.0.2/24 dev peer1
# 3355 ms per pause of 65535 quanta
quanta_ms=3355

sw() { ip netns exec "$ns" "$@"; }
hs() { ip netns exec "$peer" "$@"; }
show() { sw "$tools/pfchold" show swp1 | tr ' ' '\n' | paste -d' ' - -; }
val() { show | awk -v k="$1" '$1 == k { print $2 }'; }
# field NAME FILE: the number after NAME in pfc_storm's line
field() { awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }' "$2"; }

sw "$tools/pfchold" attach swp1 -s 10 -p 3 -d 26=3 -r 2000 ||
	fk_fail "pfchold attach swp1 failed"
loop=$(ip -n "$ns" -br link | awk '$1 ~ /^rocedh[0-9]+a@/ { sub(/@.*/, "", $1); print $1 }')
[ -n "$loop" ] || fk_fail "no hold loop (rocedhNa) beside swp1"
fk_check "the loop's end has fq" sh -c "tc -n $ns qdisc show dev $loop | grep -q '^qdisc fq '"

# flowing: wait until 100 datagrams have arrived (a process starts slowly
# under TCG: a storm started blindly may come after the traffic).
flowing()
{
	_n=0
	while [ "$(wc -l <"$tmp/recv.log" 2>/dev/null || echo 0)" -lt 100 ] &&
		[ $_n -lt 300 ]; do
		sleep 0.1
		_n=$((_n + 1))
	done
}
# all_arrived: the receiver got every datagram the sender sent (its
# "lost" counts gaps, not a tail that never came).
all_arrived()
{
	_sent=$(awk '$1 == "sent" { print $2 }' "$tmp/send.out")
	_rx=$(awk '$1 == "total" { print $3 }' "$tmp/recv.out")
	[ -n "$_sent" ] && [ "$_sent" = "$_rx" ]
}
# traffic_run SECONDS STORM-ARGS...: 1000 datagrams/s of DSCP 26 for
# SECONDS, the storm from the peer once they flow; logs in $tmp.
traffic_run()
{
	_secs=$1
	shift
	rm -f "$tmp/ready" "$tmp/recv.log"
	hs "$tools/traffic" recv -t $((_secs + 30)) -i 10 -R "$tmp/ready" \
		-l "$tmp/recv.log" >"$tmp/recv.out" 2>&1 &
	_rpid=$!
	_n=0
	while [ ! -e "$tmp/ready" ] && [ $_n -lt 100 ]; do
		sleep 0.1
		_n=$((_n + 1))
	done
	sw "$tools/traffic" send 10.77.0.2 -T 0x68 -r 1000 -t "$_secs" \
		-b 65536 >"$tmp/send.out" 2>&1 &
	_spid=$!
	flowing
	hs "$tools/pfc_storm" -i peer1 "$@" >"$tmp/storm.out" 2>&1 ||
		fk_fail "pfc_storm $*: $(cat "$tmp/storm.out")"
	wait $_spid || fk_fail "the sender failed: $(cat "$tmp/send.out")"
	wait $_rpid || true
	sed 's/^/  /' "$tmp/storm.out" "$tmp/send.out" "$tmp/recv.out"
}
# arrived FROM_NS TO_NS: datagrams that arrived in that span
arrived() { awk -v a="$1" -v b="$2" '$4 > a && $4 < b { n++ } END { print n + 0 }' "$tmp/recv.log"; }
# passed FROM_NS TO_NS: datagrams sent after FROM that arrived before TO
# (sender and receiver share the guest's clock). One sent before FROM
# but delivered late, by a vCPU the loaded host starved, was on its way
# past the hold before the hold began: arrived() counts it, this not.
passed() { awk -v a="$1" -v b="$2" '$3 > a && $4 > a && $4 < b { n++ } END { print n + 0 }' "$tmp/recv.log"; }
lost() { awk '$1 == "total" { print $5 }' "$tmp/recv.out"; }

fk_log "1. one second of pause, refreshed every 10 ms, then none"
traffic_run 15 -p 3 -q 65535 -r 100 -t 1
first=$(field first_ns "$tmp/storm.out")
last=$(field last_ns "$tmp/storm.out")
from=$((${first%.*} + 20000000))
to=$((${last%.*} + (quanta_ms - 30) * 1000000))
n=$(arrived "$from" "$to")
fk_log "datagrams arrived while paused: $n"
n=$(passed "$from" "$to")
fk_log "of them sent after the hold began: $n"
fk_check "nothing sent after the hold began arrived while paused" [ "$n" = 0 ]
after=$(arrived "$((${last%.*} + quanta_ms * 1000000))" 99999999999999999)
fk_check "traffic flowed again once the quanta ran out ($after)" [ "$after" -gt 0 ]
fk_check "nothing lost (receiver's sequence numbers)" [ "$(lost)" = 0 ]
fk_check "every datagram sent arrived" all_arrived
show >"$tmp/show1"
sed 's/^/  /' "$tmp/show1" | grep -E 'rx_frames|_3 |loop_' || true
frames=$(field sent "$tmp/storm.out")
fk_check "every PFC frame counted (RxPPP $frames)" [ "$(val rx_frames)" = "$frames" ]
fk_check "priority 3's pauses counted" [ "$(val pause_3)" = "$frames" ]
fk_check "packets were held" [ "$(val held_3)" -gt 0 ]
fk_check "the loop is empty" [ "$(val inloop_3)" = 0 ]
fk_check "the loop dropped nothing" sh -c \
	"tc -n $ns -s qdisc show dev $loop | grep -q 'dropped 0,'"
# The frames asked for the storm's span and one pause after it (pfc_storm's
# asked_ns counts at 10 Gb/s, not at this port's speed).
paused=$(val paused_3_ms)
want=$(((${last%.*} - ${first%.*}) / 1000000 + quanta_ms))
fk_log "paused time read from the maps: $paused ms (the frames asked about $want)"
fk_check "paused time is what the frames asked" awk -v p="$paused" \
	-v a="$want" 'BEGIN { exit !(p > a * 0.95 && p < a * 1.05) }'

fk_log "2. pauses, then an XON"
rm -f "$tmp/ready" "$tmp/recv.log"
hs "$tools/traffic" recv -t 40 -i 10 -R "$tmp/ready" -l "$tmp/recv.log" \
	>"$tmp/recv.out" 2>&1 &
rpid=$!
while [ ! -e "$tmp/ready" ]; do sleep 0.1; done
sw "$tools/traffic" send 10.77.0.2 -T 0x68 -r 1000 -t 10 -b 65536 \
	>"$tmp/send.out" 2>&1 &
spid=$!
flowing
# three pauses 25 ms apart, then the XON at once (one process: a second
# one would take its own start-up time, a second under TCG)
hs "$tools/pfc_storm" -i peer1 -p 3 -q 65535 -r 40 -n 3 -t 1 -x >"$tmp/p1.out" ||
	fk_fail "pfc_storm failed: $(cat "$tmp/p1.out")"
wait $spid
wait $rpid || true
sed 's/^/  /' "$tmp/p1.out" "$tmp/recv.out"
p1=$(field first_ns "$tmp/p1.out")
xon=$(field xon_ns "$tmp/p1.out")
[ "${xon%.*}" -gt "${p1%.*}" ] || fk_fail "the XON's time ($xon) is not after the pause's ($p1)"
fk_log "first arrival after the XON: $(awk -v x="${xon%.*}" '$4 > x { d = $4 - x; if (!m || d < m) m = d } END { printf "%.3f ms", m / 1e6 }' "$tmp/recv.log") (the quanta: $quanta_ms ms)"
n=$(arrived "$((${p1%.*} + 20000000))" "${xon%.*}")
fk_check "held until the XON ($n arrived)" [ "$n" = 0 ]
end=$(field last_ns "$tmp/p1.out")
n=$(arrived "${xon%.*}" "$((${end%.*} + quanta_ms / 2 * 1000000))")
fk_check "released by the XON, long before the quanta's end ($n arrived)" [ "$n" -gt 0 ]
fk_check "nothing lost" all_arrived
fk_check "the XON counted" [ "$(val xon_3)" = 1 ]

fk_log "3. a pause for priority 4, not honoured"
hs "$tools/pfc_storm" -i peer1 -p 4 -q 65535 -r 100 -t 0.3 >"$tmp/storm.out" 2>&1 ||
	fk_fail "pfc_storm: $(cat "$tmp/storm.out")"
fk_check "priority 4's pauses counted" [ "$(val pause_4)" = "$(field sent "$tmp/storm.out")" ]
fk_check "priority 4 given no hold" [ "$(val set_4)" = 0 ]
fk_check "priority 3 untouched (its XON's cleared end)" [ "$(val set_3)" = 0 ]

fk_log "4. a truncated MAC Control frame and an unknown opcode"
hs python3 -S - <<'PY' || fk_fail "cannot send the bad frames"
import socket
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind(("peer1", 0))
dst = bytes.fromhex("0180c2000001")
src = bytes.fromhex("020000000002")
# PFC opcode and class-enable vector, then only two of the eight times
s.send(dst + src + b"\x88\x08\x01\x01\x00\x08" + b"\xff\xff" * 2)
# an opcode that is neither pause nor PFC, padded to 60 bytes
s.send((dst + src + b"\x88\x08\x00\x02").ljust(60, b"\0"))
PY
sleep 0.2
fk_check "the truncated frame counted as malformed" [ "$(val rx_malformed)" = 1 ]
fk_check "the unknown opcode counted" [ "$(val rx_other)" = 1 ]
fk_check "neither held anything" [ "$(val left_3_us)" = 0 ]

fk_log "5. roced --release-holds during a pause"
roced=$top_builddir/roced
[ -x "$roced" ] || fk_fail "$roced not found"
rm -f "$tmp/ready" "$tmp/recv.log"
hs "$tools/traffic" recv -t 90 -i 30 -R "$tmp/ready" -l "$tmp/recv.log" \
	>"$tmp/recv.out" 2>&1 &
rpid=$!
while [ ! -e "$tmp/ready" ]; do sleep 0.1; done
sw "$tools/traffic" send 10.77.0.2 -T 0x68 -r 1000 -t 15 -b 65536 \
	>"$tmp/send.out" 2>&1 &
spid=$!
flowing
hs "$tools/pfc_storm" -i peer1 -p 3 -q 65535 -r 100 -t 60 >"$tmp/storm.out" 2>&1 &
stpid=$!
n=0
while [ "$(val inloop_3)" = 0 ] && [ $n -lt 100 ]; do
	sleep 0.1
	n=$((n + 1))
done
fk_check "the pause holds packets before the release" [ "$(val inloop_3)" -gt 0 ]
sw "$roced" --release-holds >"$tmp/rel.out" 2>&1 || fk_fail "roced --release-holds: $(cat "$tmp/rel.out")"
sed 's/^/  /' "$tmp/rel.out"
wait $spid || true
wait $rpid || true
sed 's/^/  /' "$tmp/send.out" "$tmp/recv.out"
fk_check "it says so" grep -q 'removed the kernel PFC hold from 1 port' "$tmp/rel.out"
fk_check "the programs are gone" sh -c \
	"! tc -n $ns filter show dev swp1 egress | grep -q pfc_tx"
fk_check "the loop is gone" sh -c "! ip -n $ns link show $loop 2>/dev/null"
# The storm goes on meanwhile: everything sent arrived, so nothing held
# was dropped and the pauses after the release were not honoured.
fk_check "what was held was sent on and the rest flowed: nothing lost" all_arrived
kill "$stpid" 2>/dev/null || true
wait "$stpid" 2>/dev/null || true
fk_finish
