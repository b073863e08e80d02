#!/bin/sh
# pfc_routed6: lossless IPv6 incast through a roced router, this machine's
# kernel: pfc_routed.sh's rig over IPv6 alone. The router forwards IPv6
# only, its four routed veth ports (swp1-4, no bridge) each their own /64
# (fd00:79:N::/64, the router ::1, the host ::2), roced on the shipped
# switch file (interface list adapted, the bottleneck shaped as
# pfc_routed.sh shapes it); h1-h4 run roced on their veth.
# h1 and h2 each send traffic class 0x68 (DSCP 26, no-drop) and best
# effort to h3; h4, a bystander, sends DSCP 26 to h1 (out of swp1, which
# nothing congests).
#   - roced pauses priority 3 out of swp1 and swp2 only: the ports whose
#     IPv6 traffic the kernel routes to swp3 (the routing tables, the
#     per-ingress counts of IPv6 destinations); the no-drop class loses
#     nothing;
#   - the bystander is never paused (swp4 TxPPP 0, h4 RxPPP 0): counted
#     as feeding every routed port, as IPv6 once was, it would be;
#   - bad input mid-incast: a route through swp3 is deleted, and every
#     route out of swp4 is deleted and put back three times (swp4 stops
#     feeding, and feeds again): roced follows, says so for each port at
#     most once (once a minute), and the bystander loses nothing.
# Where bpf() is refused, roced cannot count and pauses every routed
# port: the bystander's checks are skipped aloud.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/integration/lib.sh"
. "$top_srcdir/tests/integration/lib_fabric.sh"
. "$top_srcdir/tests/integration/lib_routed.sh"
t_init pfc_routed6
t_need_root
no_bpf=$(python3 "$top_srcdir/tests/tools/bpf-probe.py" 2>&1) && no_bpf=
traffic="$top_builddir/tests/tools/traffic"
[ -x "$traffic" ] || t_fail "test tools not built (make check builds them)"
[ -x "$rocesh" ] || t_fail "rocesh is not built"
[ -e /proc/sys/net/ipv6 ] || t_skip "this kernel has no IPv6"
tmp=$t_tmp
pps=${ROCED_ROUTED_PPS:-5000}
secs=${ROCED_ROUTED_SECONDS:-8}
shape_kbps=$((pps * 8))

rtd_build 6 rt6
rtd_conf "$shape_kbps"
shape_pps=$((shape_kbps * 1000 / 8 / rtd_wire))

rtd_start
rtd_receivers
rtd_senders "$pps" "$secs"
# Bad input, a quarter of the way in: a route through swp3 deleted; then
# every route out of swp4 (its prefix and its link-local one) deleted
# and put back, three times.
sleep "$((secs / 4))"
$IP -n "$rt" -6 route del "$rtd_extra"
for _ in 1 2 3; do
	$IP -n "$rt" -6 route del fd00:79:4::/64 dev swp4
	$IP -n "$rt" -6 route del fe80::/64 dev swp4
	sleep 0.8
	$IP -n "$rt" -6 route add fd00:79:4::/64 dev swp4
	$IP -n "$rt" -6 route add fe80::/64 dev swp4
	sleep 0.8
done
rtd_results
$IP netns exec "$rt" "$rocesh" -c "show interface priority-flow-control" | tee "$tmp/rt.pfc"
kill -0 "$rtd_pid_rt" 2>/dev/null || t_fail "the router's roced died"
# Best effort is never held back (its queue drops): what it sent is what
# the machine could send. Starved of CPU (a sanitizer build at load 15
# sent a fifth of it), the rig makes no incast: what still holds is
# checked, the rest skipped aloud at the end.
starved=
if [ "$sent_nd" -le $((shape_pps * secs * 2 / 3)) ]; then
	[ "$sent_be" -lt $((2 * pps * secs * 9 / 10)) ] ||
		t_fail "the no-drop senders sent only $sent_nd (best effort $sent_be: the machine kept up)"
	starved="the senders sent only $sent_nd no-drop and $sent_be of $((2 * pps * secs)) best-effort datagrams: too loaded to congest swp3"
fi
if [ -z "$starved" ]; then
	fab_paused "$rt" swp1 "$h1" eth1
	fab_paused "$rt" swp2 "$h2" eth2
fi
tx4=$(fab_show_ppp "$rt" swp4 tx-pause)
rx4=$(fab_show_ppp "$h4" eth4 rx-pause)
echo "swp4 TxPPP $tx4, eth4 RxPPP $rx4 (the bystander)"
if [ -n "$no_bpf" ]; then
	echo "note: bpf() is refused here ($no_bpf): the bystander's pause not checked"
else
	[ "$tx4" = 0 ] && [ "$rx4" = 0 ] || t_fail "the IPv6 bystander was paused: swp4 TxPPP $tx4, eth4 RxPPP $rx4"
fi
[ "$(fab_show_ppp "$rt" swp3 tx-pause)" = 0 ] || t_fail "the router paused swp3, the congested port itself"
[ "$lost" = 0 ] || t_fail "the no-drop class lost $lost of $sent_nd datagrams"
[ "$got_by" = "$sent_by" ] || t_fail "the bystander lost datagrams: sent $sent_by, received $got_by"
[ -n "$starved" ] || [ "$got_be" -lt "$sent_be" ] ||
	t_fail "best effort lost nothing (sent $sent_be, received $got_be): no congestion"
grep -q 'the routing tables changed' "$tmp/rt.log" ||
	t_fail "the router's roced did not follow the routes changed mid-incast"
# swp4's routes went and came back three times: its feeders' change is
# said once per port, not once per flap.
grep 'changed with the routes' "$tmp/rt.log" || true
grep -q 'swp3: the ports that feed it changed with the routes' "$tmp/rt.log" ||
	t_fail "the router's roced did not say that swp3's feeders changed with the routes"
for p in swp1 swp2 swp3 swp4; do
	n=$(grep -c "$p: the ports that feed it changed with the routes" "$tmp/rt.log" || true)
	[ "$n" -le 1 ] || t_fail "$p's feeders' change was logged $n times within a minute"
done
for n in rt h1 h2 h3 h4; do
	grep -q 'PFC storm' "$tmp/$n.log" && t_fail "$n's watchdog took a legitimate pause for a storm: $(grep 'PFC storm' "$tmp/$n.log")"
done
[ -z "$starved" ] ||
	t_skip "no loss, no bystander paused, the routes followed; the incast itself not checked: $starved"
[ -z "$no_bpf" ] ||
	t_skip "every other check passed; the bystander's pause was not checked: bpf() is refused here ($no_bpf), so roced pauses every routed port"
echo "pfc_routed6: ok"
