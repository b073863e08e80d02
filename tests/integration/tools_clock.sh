#!/bin/sh
# tools_clock: the measuring tools date what they measure at the right
# instant, so that bench/pfc and the lossless tests never take a held
# queue for one that kept sending.
#   - pfc_storm dates each frame (the XON among them) before its send:
#     on a veth the peer has the frame inside sendto(), and a receiver
#     woken on the injector's CPU runs before sendto() returns, so a time
#     read after the send comes after the peer already acted on the
#     frame. Here the receiver (a raw socket at a higher real-time
#     priority on the injector's CPU) dates the XON when it reads it; the
#     injector's xon_ns must not be later than that.
#   - traffic recv dates each datagram by its arrival (the kernel's
#     stamp), not by when a receiver that waited for a CPU read it: the
#     receiver is stopped while the datagrams arrive and continued after
#     a mark; every datagram's recv_ns must be before the mark.
# Both checks are orderings of events, not time limits: with the tools
# as they were before (time read after the send, datagrams dated at
# read) each fails on every run.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/integration/lib.sh"
t_init tools_clock
t_need_root
storm=${TOOLS_DIR:-$top_builddir/tests/tools}/pfc_storm
traffic=${TOOLS_DIR:-$top_builddir/tests/tools}/traffic
[ -x "$storm" ] && [ -x "$traffic" ] || t_fail "test tools not built (make check builds them)"
command -v python3 >/dev/null || t_fail "python3 is missing (scripts/install-deps.sh installs it)"
command -v chrt >/dev/null && command -v taskset >/dev/null ||
	t_fail "chrt and taskset are missing (util-linux)"
chrt -f 1 true 2>/dev/null ||
	t_skip "real-time priority is refused here: the XON check needs the receiver to preempt the injector"

mono() { python3 -c 'import time; print(time.monotonic_ns())'; }
cpu=$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))')

t_veth_ns ns clock x0 x1

# --- pfc_storm: the XON's time is read before its send ---
# The receiver reads frames of EtherType 0x8808 on x1 and prints the
# CLOCK_MONOTONIC time at which it read the first one whose pause times
# are all 0 (the XON), then exits.
cat >"$t_tmp/xonrx.py" <<'EOF'
import socket, struct, sys, time
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x8808))
s.bind((sys.argv[1], 0))
open(sys.argv[2], "w").close()
while True:
    f = s.recv(128)
    t = time.monotonic_ns()
    if len(f) < 34 or f[14:16] not in (b"\x01\x01", b"\x00\x01"):
        continue
    times = f[18:34] if f[14:16] == b"\x01\x01" else f[16:18]
    if not any(times):
        print(t)
        sys.stdout.flush()
        break
EOF
ready=$t_tmp/xonrx.ready
for round in 1 2 3 4 5; do
	rm -f "$ready"
	t_spawn ip netns exec "$ns" taskset -c "$cpu" chrt -f 50 \
		python3 "$t_tmp/xonrx.py" x1 "$ready" >"$t_tmp/xonrx.out"
	rx=$t_pid
	t_until 10 test -e "$ready" || t_fail "the raw receiver did not start"
	out=$(ip netns exec "$ns" taskset -c "$cpu" chrt -f 10 \
		"$storm" -i x0 -p 3 -r 1000 -n 3 -x) ||
		t_fail "pfc_storm failed: $out"
	t_wait "$rx" || t_fail "the raw receiver failed"
	xon=$(printf '%s\n' "$out" | sed -n 's/.* xon_ns \([0-9]*\).*/\1/p')
	read_at=$(cat "$t_tmp/xonrx.out")
	[ -n "$xon" ] && [ -n "$read_at" ] ||
		t_fail "round $round: no XON time (pfc_storm: '$out', receiver: '$read_at')"
	[ "$xon" -le "$read_at" ] ||
		t_fail "round $round: pfc_storm dated the XON $(((xon - read_at) / 1000)) us after the peer read it (its time read after the send)"
	echo "round $round: XON dated $(((read_at - xon) / 1000)) us before the peer read it"
done

# --- traffic recv: datagrams dated on arrival ---
ip -n "$ns" addr add 10.79.0.1/24 dev x0
ready=$t_tmp/recv.ready
t_spawn ip netns exec "$ns" "$traffic" recv -p 4791 -t 30 -i 30 -e 20 \
	-R "$ready" -l "$t_tmp/recv.log" >"$t_tmp/recv.out" 2>&1
recv=$t_pid
t_until 10 test -e "$ready" || t_fail "traffic recv did not start"
kill -STOP "$recv"
ip netns exec "$ns" "$traffic" send 10.79.0.1:4791 -T 0x68 -n 20 -r 0 \
	>"$t_tmp/send.out" 2>&1 || { kill -CONT "$recv"; t_fail "traffic send failed: $(cat "$t_tmp/send.out")"; }
mark=$(mono)
sleep 0.3
kill -CONT "$recv"
t_wait "$recv" || t_fail "traffic recv failed: $(cat "$t_tmp/recv.out")"
n=$(wc -l <"$t_tmp/recv.log")
[ "$n" -eq 20 ] || t_fail "traffic recv logged $n datagrams, not 20"
late=$(awk -v m="$mark" '$4 >= m { n++ } END { print n + 0 }' "$t_tmp/recv.log")
[ "$late" -eq 0 ] ||
	t_fail "$late of 20 datagrams dated at or after the receiver was continued (dated at read, not arrival)"
echo "20 datagrams dated before the stopped receiver was continued"
echo "PASS: tools_clock"
