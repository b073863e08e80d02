#!/bin/sh
# txpoll_wake: software PFC's transmit side sleeps while its queues are
# idle and wakes at the first frame a feeder brings in, on this
# machine's kernel. A switch namespace with a bridge of two veth ports
# (swp1, swp2) runs roced; hosts h1 and h2 (IPv6 off, so that nothing
# but the test's datagrams comes in) sit behind them.
#   - idle: roced arms the feeders' wake and reads the backlogs only now
#     and then (its debug log says so);
#   - a few DSCP 26 datagrams from h1 to h2: the first one coming in on
#     swp1 wakes the poll (the log names swp1), which reads at the fast
#     pace;
#   - once the traffic is over and the linger has passed, it sleeps again.
# Every wait is for a log line, with a generous time limit: nothing here
# is a timed assertion.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/integration/lib.sh"
t_init txpoll_wake
t_need_root
tmp=$t_tmp

t_netns_add sw txwsw
$IP -n "$sw" link add br0 type bridge
$IP -n "$sw" link set br0 up
for h in 1 2; do
	t_netns_add "h$h" "txwh$h"
	eval "ns=\$h$h"
	t_ns_sysctl "$ns" net.ipv6.conf.all.disable_ipv6=1 \
		net.ipv6.conf.default.disable_ipv6=1 || t_fail "cannot turn IPv6 off in $ns"
	$IP -n "$sw" link add "swp$h" type veth peer name "eth$h" netns "$ns"
	$IP -n "$sw" link set "swp$h" master br0
	$IP -n "$sw" link set "swp$h" up
	$IP -n "$ns" addr add "10.79.0.$h/24" dev "eth$h"
	$IP -n "$ns" link set "eth$h" up
done
# h2's address known for good in h1: no ARP exchange to wait for (ARP
# never wakes the poll, IP does).
mac2=$($IP -n "$h2" -j link show eth2 |
	python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["address"])')
$IP -n "$h1" neigh replace 10.79.0.2 dev eth1 lladdr "$mac2" nud permanent

t_conf_ports "$tmp/sw.conf" swp1 swp2
t_conf_match_any "$tmp/sw.conf"
sed -i 's/watch-dog-interval = true;/watch-dog-interval = false;/' "$tmp/sw.conf"
asleep="software PFC transmit: queues idle"
woken="traffic came in: software PFC transmit"
t_roced_start "$sw" "$tmp/sw.conf" "$asleep" -D watchdog
$TC -n "$sw" qdisc show dev swp2 | grep -q 'qdisc tbf 4713:' ||
	t_fail "swp2's queue 3 has no software PFC leaf: $($TC -n "$sw" qdisc show dev swp2)"

# count PATTERN: the log lines matching PATTERN so far.
count() { grep -c -- "$1" "$t_tmp/log" || true; }
# more PATTERN N: are there more than N such lines?
more() { [ "$(count "$1")" -gt "$2" ]; }

for round in 1 2; do
	w0=$(count "$woken")
	a0=$(count "$asleep")
	$IP netns exec "$h1" python3 - <<'PY'
import socket
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
u.setsockopt(socket.IPPROTO_IP, socket.IP_TOS, 0x68)
for _ in range(5):
    u.sendto(bytes(200), ("10.79.0.2", 4791))
PY
	t_until 30 more "$woken" "$w0" ||
		t_fail "round $round: the datagrams did not wake the transmit poll"
	grep -- "$woken" "$t_tmp/log" | tail -n +$((w0 + 1)) | grep -q "swp1: " ||
		t_fail "round $round: the wake did not come from swp1: $(grep -- "$woken" "$t_tmp/log" | tail -n 1)"
	t_until 30 more "$asleep" "$a0" ||
		t_fail "round $round: the transmit poll did not go back to sleep"
	echo "round $round: woken by swp1, asleep again"
done
t_roced_stop
echo "txpoll_wake: ok"
