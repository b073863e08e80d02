# tests/integration/lib_routed.sh: the rig of pfc_routed.sh and
# pfc_routed6.sh, a roced router between four hosts, over IPv4 or IPv6;
# sourced after lib.sh and lib_fabric.sh (its closing helpers), not run:
#     . "$top_srcdir/tests/integration/lib_routed.sh"
#
# The router rt forwards (the one family) between four routed veth ports
# swp1-4 (no bridge), each its own subnet: 10.79.H.0/24 or fd00:79:H::/64,
# the router .1 / ::1, the host hH (its port ethH) .2 / ::2. Every
# neighbour is pinned beforehand (a datagram waiting for ARP or neighbour
# discovery is dropped after sendto() succeeded, as pfc_incast.sh found),
# and a route through swp3 ($rtd_extra, to 10.79.99.0/24 or
# fd00:79:99::/64) is there for the test to delete mid-incast.
#
# roced: the shipped switch file on the router (swp1-4, its queue 3 and
# default queue shaped to SHAPE_KBPS, priority 3's pause thresholds
# pfc_incast.sh's: xoff 300000 with xon 20 KB under it), the shipped file
# on the hosts (their queue 3 shaped to 1.5 x SHAPE_KBPS, the watchdog
# at 3 polls); real-time priority where chrt is. pfc_incast.sh measured
# why these dimensions.
#
#   rtd_build 4|6 NAME      the namespaces ($rt, $h1-$h4, named NAMErt,
#                           NAMEh1...), links, addresses, routes
#   rtd_addr H N            address N (1: the router, 2: the host) of
#                           subnet H
#   rtd_conf SHAPE_KBPS     $t_tmp/rt.conf and $t_tmp/h1.conf ... h4.conf
#   rtd_start               roced on every node (-D watchdog), its log in
#                           $t_tmp/NODE.log, the router's pid in $rtd_pid_rt
#   rtd_receivers           receivers on h3 and h1 (outputs $t_tmp/recv3,
#                           recv1; pids $rtd_rx3, $rtd_rx1), once ready
#   rtd_senders PPS SECS    h1 and h2 send no-drop (DSCP 26) and best
#                           effort to h3 at PPS each, h4 no-drop to h1 at
#                           PPS/5 (the bystander); pids in $rtd_senders
#   rtd_results             waits for them all, then sets sent_nd, sent_be,
#                           got_nd, got_be, sent_by, got_by and lost, and
#                           says them
#
# $rtd_ip is ip's family option (-4, -6); $rtd_wire a 1000-byte datagram's
# bytes on the wire.

rtd_family=
rtd_ip=
rtd_wire=
rtd_extra=

rtd_addr()
{
	if [ "$rtd_family" = 6 ]; then
		echo "fd00:79:$1::$2"
	else
		echo "10.79.$1.$2"
	fi
}

rtd_build()
{
	rtd_family=$1
	rtd_ip=-$1
	if [ "$1" = 6 ]; then
		_r_len=64 _r_dad=nodad rtd_wire=1062 rtd_extra=fd00:79:99::/64
		_r_fwd=net.ipv6.conf.all.forwarding=1
	else
		_r_len=24 _r_dad='' rtd_wire=1042 rtd_extra=10.79.99.0/24
		_r_fwd=net.ipv4.ip_forward=1
	fi
	t_netns_add rt "${2}rt"
	t_ns_sysctl "$rt" "$_r_fwd" || t_fail "cannot turn IPv$1 forwarding on in $rt"
	"$IP" -n "$rt" link set lo up
	for _r_h in 1 2 3 4; do
		t_netns_add "h$_r_h" "${2}h$_r_h"
		eval "_r_ns=\$h$_r_h"
		"$IP" -n "$rt" link add "swp$_r_h" type veth peer name "eth$_r_h" netns "$_r_ns"
		# shellcheck disable=SC2086 # _r_dad: none or one word
		"$IP" -n "$rt" addr add "$(rtd_addr "$_r_h" 1)/$_r_len" dev "swp$_r_h" $_r_dad
		"$IP" -n "$rt" link set "swp$_r_h" up
		# shellcheck disable=SC2086
		"$IP" -n "$_r_ns" addr add "$(rtd_addr "$_r_h" 2)/$_r_len" dev "eth$_r_h" $_r_dad
		"$IP" -n "$_r_ns" link set "eth$_r_h" up
		"$IP" -n "$_r_ns" link set lo up
		"$IP" -n "$_r_ns" "$rtd_ip" route add default via "$(rtd_addr "$_r_h" 1)"
	done
	# Every neighbour pinned: each host's gateway, the router's hosts.
	for _r_h in 1 2 3 4; do
		eval "_r_ns=\$h$_r_h"
		"$IP" -n "$_r_ns" "$rtd_ip" neigh replace "$(rtd_addr "$_r_h" 1)" \
			lladdr "$(fab_mac "$rt" "swp$_r_h")" dev "eth$_r_h" nud permanent
		"$IP" -n "$rt" "$rtd_ip" neigh replace "$(rtd_addr "$_r_h" 2)" \
			lladdr "$(fab_mac "$_r_ns" "eth$_r_h")" dev "swp$_r_h" nud permanent
	done
	"$IP" -n "$rt" "$rtd_ip" route add "$rtd_extra" via "$(rtd_addr 3 2)" dev swp3
}

rtd_conf()
{
	t_conf_ports "$t_tmp/rt.conf" swp1 swp2 swp3 swp4
	python3 - "$t_tmp/rt.conf" "$1" <<'PY' || t_fail "cannot shape the router's queues in the shipped roced.conf"
import sys
xoff = 300000
p = sys.argv[1]
s = open(p).read()
shape = 'shape = { min = "1 kbps"; max = "%s kbps"; };' % sys.argv[2]
reps = [
    ('name = "c-out-8q-q3";\n\t\t\t\t\tbandwidth-remaining-percent = 50;',
     'name = "c-out-8q-q3";\n\t\t\t\t\tbandwidth-remaining-percent = 50; ' + shape),
    ('{ name = "c-out-8q-q-default"; bandwidth-remaining-percent = 50; }',
     '{ name = "c-out-8q-q-default"; bandwidth-remaining-percent = 50; ' + shape + ' }'),
    ('pause-pfc-cos = 3; mtu = 9216;',
     'pause-pfc-cos = 3; mtu = 9216; pause-buffer = { buffer-size = %d; '
     'pause-threshold = %d; resume-threshold = %d; };'
     % (2 * xoff, xoff, xoff - 20000)),
]
for a, b in reps:
    assert a in s, 'the shipped roced.conf changed: ' + a
    s = s.replace(a, b, 1)
open(p, 'w').write(s)
PY
	for _r_h in 1 2 3 4; do
		_r_c=$t_tmp/h$_r_h.conf
		t_conf_ports "$_r_c" "eth$_r_h"
		sed -i 's/shutdown-multiplier = 1;/shutdown-multiplier = 3;/' "$_r_c"
		grep -q 'shutdown-multiplier = 3;' "$_r_c" ||
			t_fail "the shipped roced.conf no longer sets shutdown-multiplier"
		fab_shape_q3 "$_r_c" "$(($1 * 3 / 2))"
	done
}

rtd_start()
{
	_r_prio=
	command -v chrt >/dev/null && _r_prio="chrt -f 10"
	for _r_n in rt h1 h2 h3 h4; do
		t_show_on_fail "$_r_n roced log" "$t_tmp/$_r_n.log"
		eval "_r_ns=\$$_r_n"
		# shellcheck disable=SC2086 # _r_prio: none or three words
		t_spawn "$IP" netns exec "$_r_ns" $_r_prio "$roced" -f "$t_tmp/$_r_n.conf" \
			-D watchdog >"$t_tmp/$_r_n.log" 2>&1
		eval "rtd_pid_$_r_n=\$t_pid"
		t_until 30 grep -q "mirroring roced's tc objects" "$t_tmp/$_r_n.log" ||
			t_fail "$_r_n's roced did not start"
	done
	"$TC" -n "$rt" qdisc show dev swp3 | grep -q 'qdisc tbf 4713:' ||
		t_fail "swp3's queue 3 has no software PFC leaf: $("$TC" -n "$rt" qdisc show dev swp3)"
}

rtd_receivers()
{
	_r_6=
	[ "$rtd_family" = 6 ] && _r_6=-6
	for _r_h in 3 1; do
		eval "_r_ns=\$h$_r_h"
		# shellcheck disable=SC2086 # _r_6: none or one word
		t_spawn "$IP" netns exec "$_r_ns" "$traffic" recv $_r_6 -t 90 -i 8 \
			-R "$t_tmp/ready$_r_h" >"$t_tmp/recv$_r_h"
		eval "rtd_rx$_r_h=\$t_pid"
		t_show_on_fail "receiver h$_r_h" "$t_tmp/recv$_r_h"
	done
	t_until 15 sh -c "[ -e '$t_tmp/ready3' ] && [ -e '$t_tmp/ready1' ]" ||
		t_fail "the receivers did not start"
}

rtd_senders()
{
	rtd_senders=
	for _r_h in 1 2; do
		eval "_r_ns=\$h$_r_h"
		t_spawn "$IP" netns exec "$_r_ns" "$traffic" send "$(rtd_addr 3 2)" -T 0x68 \
			-r "$1" -t "$2" -s 1000 -b 32768 -f "$_r_h" >"$t_tmp/nd$_r_h"
		rtd_senders="$rtd_senders $t_pid"
		t_show_on_fail "no-drop sender h$_r_h" "$t_tmp/nd$_r_h"
		t_spawn "$IP" netns exec "$_r_ns" "$traffic" send "$(rtd_addr 3 2)" -T 0x00 \
			-r "$1" -t "$2" -s 1000 -f "$((_r_h + 10))" >"$t_tmp/be$_r_h"
		rtd_senders="$rtd_senders $t_pid"
		t_show_on_fail "best-effort sender h$_r_h" "$t_tmp/be$_r_h"
	done
	# The bystander: DSCP 26 to h1, a fifth of the bottleneck's rate.
	t_spawn "$IP" netns exec "$h4" "$traffic" send "$(rtd_addr 1 2)" -T 0x68 \
		-r "$(($1 / 5))" -t "$2" -s 1000 -b 32768 -f 4 >"$t_tmp/by4"
	rtd_senders="$rtd_senders $t_pid"
	t_show_on_fail "bystander h4" "$t_tmp/by4"
}

rtd_results()
{
	for _r_p in $rtd_senders; do t_wait "$_r_p" || t_fail "a sender failed"; done
	t_wait "$rtd_rx3" || t_fail "the receiver h3 failed"
	t_wait "$rtd_rx1" || t_fail "the receiver h1 failed"
	(cd "$t_tmp" && cat nd1 nd2 be1 be2 by4 recv3 recv1)
	"$TC" -n "$rt" -s qdisc show dev swp3 >"$t_tmp/swp3.qdisc"
	t_show_on_fail "swp3 qdiscs (the bottleneck)" "$t_tmp/swp3.qdisc"
	sent_nd=$(fab_sent "$t_tmp/nd1" "$t_tmp/nd2")
	sent_be=$(fab_sent "$t_tmp/be1" "$t_tmp/be2")
	got_nd=$(fab_got 0x68 "$t_tmp/recv3")
	got_be=$(fab_got 0x00 "$t_tmp/recv3")
	sent_by=$(fab_sent "$t_tmp/by4")
	got_by=$(fab_got 0x68 "$t_tmp/recv1")
	lost=$((sent_nd - got_nd))
	echo "no-drop: sent $sent_nd, received $got_nd, lost $lost ($(awk -v l="$lost" -v s="$sent_nd" 'BEGIN {printf "%.1f", s ? 100 * l / s : 0}') %)"
	echo "best effort: sent $sent_be, received $got_be; bystander: sent $sent_by, received $got_by"
}
