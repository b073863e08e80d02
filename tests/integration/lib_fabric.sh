# tests/integration/lib_fabric.sh: a leaf-spine fabric of namespaces with
# roced on every node; sourced after lib.sh, not run:
#     . "$top_srcdir/tests/integration/lib_fabric.sh"
#
# Two leaves (l1, l2) and two spines (s1, s2), three hosts per leaf
# (h11-h13 on l1's swp1-swp3, h21-h23 on l2's), every link a veth pair:
#
#          s1              s2          spine swpL faces leaf L
#        /    \          /    \
#     swp51  swp51    swp52  swp52     leaf swp5S faces spine S
#       l1 ------------- l2  (no link between them)
#     swp1-3           swp1-3
#     h11-h13          h21-h23         each host's port is eth0
#
# The spines and the leaves' uplinks are routed (IP forwarding, one /24
# per link, 10.90.LS.0/24: the leaf .1, the spine .2); each leaf reaches
# the other leaf's hosts (10.8L.0.0/16) over both spines, one ECMP route
# of two next hops; each spine reaches leaf L's hosts through swpL. Two
# variants of the host side:
#   routed   L3 to the host's leaf: each host port its own /24
#            (10.8L.I.0/24, the leaf .1, the host hLI .2);
#   bridged  the leaf's host ports in a bridge br0 with an SVI (br0
#            10.8L.0.1/24, host hLI 10.8L.0.(10+I)), routed upward: the
#            switching and the routing of one leaf into one queue.
# Every neighbour is set beforehand (a datagram waiting for ARP may be
# dropped after sendto() succeeded, unseen by any qdisc). The ECMP hash
# is L3 (source, destination); where the kernel has a per-namespace hash
# seed, fab_build picks one that sends l1's three hosts to l2's h21 over
# both spines (the chosen next hops are in $fab_tmp/ecmp).
#
# roced runs on every node on the shipped files only: conf/roced.conf
# on the switches with its interface block repeated for each of their
# ports (t_conf_ports), conf/roced-host.conf on the hosts as it is (its
# port is eth0). The one other change is the bottleneck: l2's swp1
# (towards h21) on a copy of the shipped queuing policy, its no-drop and
# default queues shaped to FAB_KBPS (default 10000) kb/s. The watchdog is
# on at every node, on the files' own times (FAB_NO_WATCHDOG, a list of
# nodes, turns it off there: for measurements, never a test's default).
#
#   fab_build VARIANT     the namespaces, links, addresses, routes (the
#                         names in $fab_ns_l1 ... $fab_ns_h23)
#   fab_conf              the configuration files in $fab_tmp
#   fab_start [ARGS...]   roced on every node (-D watchdog ARGS), its log
#                         in $fab_tmp/NODE.log; waits for each to apply
#   fab_wait_pfc          DCBX: PFC on priority 3 operational on every
#                         port of the fabric (fails the test otherwise)
#   fab_ns NODE           the namespace of NODE (l1, s2, h13, ...)
#   fab_ip NODE           a host's address
#   fab_pfc_table         every port's pause counters (roced's show), then
#   fab_ppp NODE PORT FIELD   a port's rx-pause or tx-pause from them
#   fab_drops             every drop counter of every node, one line per
#                         non-zero one ("NODE PORT what N"); see below
#   fab_mark, fab_storms_since   the storms declared since the mark
#   fab_storms            the storms declared so far, every node's log
#
# $fab_nodes lists the nodes, $fab_switches and $fab_hosts each kind;
# $fab_ports_NODE a node's roced ports.
#
# fab_build raises the kernel's input backlog (net.core.netdev_max_backlog,
# 1000 per CPU by default) to FAB_BACKLOG (default 30000) for the test's
# duration: on this rig it stands in for every switch's receive rings,
# but it is one queue per CPU shared by every namespace and by the test
# beside this one, and a released tier hands its peer thousands of frames
# at the speed of the CPU. A drop there still counts against the fabric
# (the sender's veth counts it as a tx drop, fab_drops shows it).

fab_switches="l1 l2 s1 s2"
fab_hosts="h11 h12 h13 h21 h22 h23"
fab_nodes="$fab_switches $fab_hosts"
fab_ports_l1="swp1 swp2 swp3 swp51 swp52"
fab_ports_l2="swp1 swp2 swp3 swp51 swp52"
fab_ports_s1="swp1 swp2"
fab_ports_s2="swp1 swp2"
for _f_h in $fab_hosts; do eval "fab_ports_$_f_h=eth0"; done
: "${FAB_KBPS:=10000}"
fab_tmp=
fab_variant=

fab_ns() { eval "echo \$fab_ns_$1"; }

_fab_backlog_raised=
fab_backlog_refused=

fab_mac()
{
	"$IP" -n "$1" -j link show dev "$2" |
		python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["address"])'
}

# fab_ip hLI: the host's address in the variant.
fab_ip()
{
	_f_l=${1#h}
	_f_i=${_f_l#?}
	_f_l=${_f_l%?}
	if [ "$fab_variant" = bridged ]; then
		echo "10.8$_f_l.0.$((10 + _f_i))"
	else
		echo "10.8$_f_l.$_f_i.2"
	fi
}

# fab_gw hLI: the host's gateway (its leaf's address on its segment).
fab_gw()
{
	_f_l=${1#h}
	_f_i=${_f_l#?}
	_f_l=${_f_l%?}
	if [ "$fab_variant" = bridged ]; then
		echo "10.8$_f_l.0.1"
	else
		echo "10.8$_f_l.$_f_i.1"
	fi
}

fab_build()
{
	fab_variant=$1
	case $fab_variant in
	routed | bridged) ;;
	*) t_fail "lib_fabric: no variant '$fab_variant' (routed, bridged)" ;;
	esac
	fab_tmp=$t_tmp/fabric
	mkdir -p "$fab_tmp"
	if [ -z "$_fab_backlog_raised" ]; then
		# Refused (systemd-nspawn mounts /proc/sys read-only):
		# fab_backlog_refused says so to the test, which cannot then
		# hold the backlog's own drops against roced.
		t_sysctl_raise net.core.netdev_max_backlog "${FAB_BACKLOG:-30000}" ||
			fab_backlog_refused=$(sysctl -n net.core.netdev_max_backlog 2>/dev/null || echo '?')
		_fab_backlog_raised=1
	fi
	for _f_n in $fab_nodes; do
		t_netns_add "fab_ns_$_f_n" "fab$_f_n" || t_fail "cannot create the namespace of $_f_n"
		"$IP" -n "$(fab_ns "$_f_n")" link set lo up
	done
	for _f_n in $fab_switches; do
		t_ns_sysctl "$(fab_ns "$_f_n")" net.ipv4.ip_forward=1 net.ipv4.fib_multipath_hash_policy=0 ||
			t_fail "cannot turn IP forwarding on in $_f_n"
	done
	# Leaf-spine links.
	for _f_l in 1 2; do
		_f_ln=$(fab_ns "l$_f_l")
		for _f_s in 1 2; do
			_f_sn=$(fab_ns "s$_f_s")
			"$IP" -n "$_f_ln" link add "swp5$_f_s" type veth peer name "swp$_f_l" netns "$_f_sn"
			"$IP" -n "$_f_ln" addr add "10.90.$_f_l$_f_s.1/24" dev "swp5$_f_s"
			"$IP" -n "$_f_sn" addr add "10.90.$_f_l$_f_s.2/24" dev "swp$_f_l"
			"$IP" -n "$_f_ln" link set "swp5$_f_s" up
			"$IP" -n "$_f_sn" link set "swp$_f_l" up
		done
	done
	# Hosts.
	for _f_l in 1 2; do
		_f_ln=$(fab_ns "l$_f_l")
		if [ "$fab_variant" = bridged ]; then
			"$IP" -n "$_f_ln" link add br0 type bridge
			"$IP" -n "$_f_ln" addr add "10.8$_f_l.0.1/24" dev br0
			"$IP" -n "$_f_ln" link set br0 up
		fi
		for _f_i in 1 2 3; do
			_f_h=h$_f_l$_f_i
			_f_hn=$(fab_ns "$_f_h")
			"$IP" -n "$_f_ln" link add "swp$_f_i" type veth peer name eth0 netns "$_f_hn"
			if [ "$fab_variant" = bridged ]; then
				"$IP" -n "$_f_ln" link set "swp$_f_i" master br0
				"$IP" -n "$_f_hn" addr add "$(fab_ip "$_f_h")/24" dev eth0
			else
				"$IP" -n "$_f_ln" addr add "$(fab_gw "$_f_h")/24" dev "swp$_f_i"
				"$IP" -n "$_f_hn" addr add "$(fab_ip "$_f_h")/24" dev eth0
			fi
			"$IP" -n "$_f_ln" link set "swp$_f_i" up
			"$IP" -n "$_f_hn" link set eth0 up
			"$IP" -n "$_f_hn" route add default via "$(fab_gw "$_f_h")"
		done
	done
	# Routes: each leaf to the other's hosts over both spines, each spine
	# to leaf L's hosts through swpL.
	for _f_l in 1 2; do
		_f_o=$((3 - _f_l))
		"$IP" -n "$(fab_ns "l$_f_l")" route add "10.8$_f_o.0.0/16" \
			nexthop via "10.90.${_f_l}1.2" dev swp51 \
			nexthop via "10.90.${_f_l}2.2" dev swp52
		for _f_s in 1 2; do
			"$IP" -n "$(fab_ns "s$_f_s")" route add "10.8$_f_l.0.0/16" via "10.90.$_f_l$_f_s.1" dev "swp$_f_l"
		done
	done
	# Neighbours, all of them permanent.
	for _f_l in 1 2; do
		_f_ln=$(fab_ns "l$_f_l")
		for _f_s in 1 2; do
			_f_sn=$(fab_ns "s$_f_s")
			"$IP" -n "$_f_ln" neigh replace "10.90.$_f_l$_f_s.2" \
				lladdr "$(fab_mac "$_f_sn" "swp$_f_l")" dev "swp5$_f_s" nud permanent
			"$IP" -n "$_f_sn" neigh replace "10.90.$_f_l$_f_s.1" \
				lladdr "$(fab_mac "$_f_ln" "swp5$_f_s")" dev "swp$_f_l" nud permanent
		done
		for _f_i in 1 2 3; do
			_f_h=h$_f_l$_f_i
			_f_hn=$(fab_ns "$_f_h")
			if [ "$fab_variant" = bridged ]; then
				_f_dev=br0
			else
				_f_dev=swp$_f_i
			fi
			"$IP" -n "$_f_hn" neigh replace "$(fab_gw "$_f_h")" \
				lladdr "$(fab_mac "$_f_ln" "$_f_dev")" dev eth0 nud permanent
			"$IP" -n "$_f_ln" neigh replace "$(fab_ip "$_f_h")" \
				lladdr "$(fab_mac "$_f_hn" eth0)" dev "$_f_dev" nud permanent
		done
	done
	fab_ecmp_seed
}

# fab_ecmp_seed: where the namespace has a hash seed of its own, the
# first one under which l1's three hosts reach h21 over both spines, so
# that the incast crosses both (the kernel's default seed is random at
# boot); the next hop of each in $fab_tmp/ecmp.
fab_ecmp_seed()
{
	_f_ln=$(fab_ns l1)
	_f_dst=$(fab_ip h21)
	_f_src=swp1
	[ "$fab_variant" = bridged ] && _f_src=br0
	for _f_seed in $(seq 1 64) none; do
		if [ "$_f_seed" != none ]; then
			t_ns_sysctl "$_f_ln" "net.ipv4.fib_multipath_hash_seed=$_f_seed" 2>/dev/null || _f_seed=none
		fi
		: >"$fab_tmp/ecmp"
		for _f_i in 1 2 3; do
			_f_via=$("$IP" -n "$_f_ln" route get "$_f_dst" from "$(fab_ip "h1$_f_i")" iif "$_f_src" |
				sed -n 's/.* dev \(swp5[12]\).*/\1/p')
			echo "h1$_f_i -> h21 via $_f_via" >>"$fab_tmp/ecmp"
		done
		[ "$_f_seed" = none ] && break
		grep -q swp51 "$fab_tmp/ecmp" && grep -q swp52 "$fab_tmp/ecmp" && break
	done
	echo "ECMP (l1, seed $_f_seed): $(tr '\n' ';' <"$fab_tmp/ecmp")"
}

# fab_conf_bottleneck FILE PORT KBPS: in FILE (t_conf_ports' copy of the
# shipped roced.conf), PORT on a copy of ROCE_QUEUING_OUT named
# BOTTLENECK_OUT whose queue 3 and default queue are shaped to KBPS kb/s:
# the rig's one change to the shipped switch file besides its ports.
fab_conf_bottleneck()
{
	python3 - "$1" "$2" "$3" <<'PY'
import sys
p, port, kbps = sys.argv[1], sys.argv[2], sys.argv[3]
s = open(p).read()
q0 = s.index('\t\t{\n\t\t\tname = "ROCE_QUEUING_OUT";')
q1 = s.index('\n\t\t}\n', q0) + 4
b = s[q0:q1].replace('"ROCE_QUEUING_OUT"', '"BOTTLENECK_OUT"')
a = 'bandwidth-remaining-percent = 50;'
assert b.count(a) == 2, 'the shipped ROCE_QUEUING_OUT changed'
b = b.replace(a, a + ' shape = { min = "1 kbps"; max = "%s kbps"; };' % kbps)
s = s[:q1].rstrip('\n') + ',\n' + b.rstrip('\n') + '\n' + s[q1:]
i = s.index('name = "%s";' % port)
old = 'queuing-output = "ROCE_QUEUING_OUT";'
j = s.index(old, i)
s = s[:j] + 'queuing-output = "BOTTLENECK_OUT";' + s[j + len(old):]
open(p, 'w').write(s)
PY
}

fab_conf()
{
	for _f_n in $fab_switches; do
		eval "_f_ports=\$fab_ports_$_f_n"
		# shellcheck disable=SC2086 # a list of ports
		t_conf_ports "$fab_tmp/$_f_n.conf" $_f_ports
	done
	grep -q 'watch-dog-interval = true;' "$fab_tmp/l1.conf" ||
		t_fail "the shipped roced.conf no longer turns the watchdog on"
	grep -q '{ name = "ROCE_CLASS"; match = "any"; cos = 3; dscp = 26; }' "$fab_tmp/l1.conf" ||
		t_fail "the shipped ROCE_CLASS no longer classifies untagged DSCP 26 (match-any cos 3 dscp 26)"
	# The bottleneck: l2's swp1 (towards h21).
	fab_conf_bottleneck "$fab_tmp/l2.conf" swp1 "$FAB_KBPS" ||
		t_fail "cannot shape l2's swp1 in the shipped roced.conf"
	for _f_h in $fab_hosts; do
		cp "$top_srcdir/conf/roced-host.conf" "$fab_tmp/$_f_h.conf"
	done
	grep -q 'name = "eth0";' "$fab_tmp/h11.conf" ||
		t_fail "the shipped roced-host.conf no longer names eth0"
	# A measurement aid, never the tests' default: FAB_NO_WATCHDOG lists
	# nodes whose watchdog is turned off (bench/fabric-leafspine -W:
	# what the fabric does once the spines stop taking transit pause
	# for a storm).
	for _f_n in ${FAB_NO_WATCHDOG:-}; do
		sed -i 's/watch-dog-interval = true;/watch-dog-interval = false;/' "$fab_tmp/$_f_n.conf"
		grep -q 'watch-dog-interval = false;' "$fab_tmp/$_f_n.conf" ||
			t_fail "cannot turn $_f_n's watchdog off"
	done
}

fab_start()
{
	for _f_n in $fab_nodes; do
		t_show_on_fail "$_f_n roced log" "$fab_tmp/$_f_n.log"
		t_spawn "$IP" netns exec "$(fab_ns "$_f_n")" "$roced" -f "$fab_tmp/$_f_n.conf" -D watchdog "$@" \
			>"$fab_tmp/$_f_n.log" 2>&1
		eval "fab_pid_$_f_n=\$t_pid"
	done
	for _f_n in $fab_nodes; do
		t_until 60 grep -q "mirroring roced's tc objects" "$fab_tmp/$_f_n.log" ||
			t_fail "$_f_n's roced did not start"
	done
	$TC -n "$(fab_ns l2)" qdisc show dev swp1 | grep -q 'qdisc tbf 4713:' ||
		t_fail "l2's swp1 (the bottleneck) has no software PFC leaf on queue 3: $($TC -n "$(fab_ns l2)" qdisc show dev swp1)"
}

# _fab_pfc_off: the ports of the fabric where priority 3's PFC is not
# operational yet, one "NODE PORT" line each; fails when there is one.
_fab_pfc_off()
{
	for _f_n in $fab_nodes; do
		eval "_f_ports=\$fab_ports_$_f_n"
		echo "$_f_n $(fab_ns "$_f_n") $_f_ports"
	done | python3 -c '
import json, subprocess, sys
ip, rocesh = sys.argv[1], sys.argv[2]
off = []
for line in sys.stdin:
    node, ns, *ports = line.split()
    out = subprocess.run([ip, "netns", "exec", ns, rocesh, "-c",
                          "show interface priority-flow-control json"],
                         capture_output=True, text=True).stdout
    try:
        ifs = {i.get("name"): i for i in json.loads(out).get("interface", [])}
    except ValueError:
        ifs = {}
    for p in ports:
        i = ifs.get(p, {})
        if not (i.get("oper") == "on" and 3 in i.get("priorities", [])):
            off.append("%s %s" % (node, p))
print("\n".join(off))
sys.exit(1 if off else 0)
' "$IP" "$rocesh" >"$fab_tmp/pfc.off"
}

fab_wait_pfc()
{
	t_until 60 _fab_pfc_off ||
		t_fail "DCBX: priority 3's PFC is not operational on: $(tr '\n' ' ' <"$fab_tmp/pfc.off")"
}

# fab_pfc_table: every node's rx-pause and tx-pause per port (roced's
# `show interface priority-flow-control json`), one "NODE PORT RX TX"
# line each, into $fab_tmp/pfc (one python for the lot: a loaded
# machine starts a process per port slowly); fab_ppp reads it.
fab_pfc_table()
{
	for _f_n in $fab_nodes; do echo "$_f_n $(fab_ns "$_f_n")"; done |
		python3 -c '
import json, subprocess, sys
ip, rocesh = sys.argv[1], sys.argv[2]
for line in sys.stdin:
    node, ns = line.split()
    out = subprocess.run([ip, "netns", "exec", ns, rocesh, "-c",
                          "show interface priority-flow-control json"],
                         capture_output=True, text=True).stdout
    try:
        ifs = json.loads(out).get("interface", [])
    except ValueError:
        ifs = []
    for i in ifs:
        print(node, i.get("name"), i.get("rx-pause", -1), i.get("tx-pause", -1))
' "$IP" "$rocesh" >"$fab_tmp/pfc"
}

# fab_ppp NODE PORT rx-pause|tx-pause: from the last fab_pfc_table (-1:
# no such port).
fab_ppp()
{
	awk -v n="$1" -v p="$2" -v f="$3" '$1 == n && $2 == p {
		print (f == "rx-pause" ? $3 : $4); found = 1 }
		END { if (!found) print -1 }' "$fab_tmp/pfc"
}

# fab_drops: every drop the kernel counts on the fabric's paths, per
# node: each qdisc's drops on each port (roced's queues and their
# leaves), each link's rx and tx drops (a veth whose peer's input
# backlog is full counts the datagram as its own tx drop: the drop no
# qdisc shows), and the IP layer's discards and the UDP receive errors
# (/proc/net/snmp, per namespace). One line per non-zero counter,
# "NODE PORT what... N".
fab_drops()
{
	for _f_n in $fab_nodes; do echo "$_f_n $(fab_ns "$_f_n")"; done |
		python3 -c '
import json, subprocess, sys
ip, tc = sys.argv[1], sys.argv[2]
def run(*a):
    return subprocess.run(a, capture_output=True, text=True).stdout
for line in sys.stdin:
    n, ns = line.split()
    for q in json.loads(run(tc, "-n", ns, "-s", "-j", "qdisc", "show") or "[]"):
        if q.get("drops"):
            print(n, q.get("dev", "?"), "qdisc %s %s drops" % (q.get("kind"), q.get("handle")), q["drops"])
    for l in json.loads(run(ip, "-n", ns, "-s", "-j", "link", "show") or "[]"):
        st = l.get("stats64", {})
        for d in ("rx", "tx"):
            v = st.get(d, {}).get("dropped", 0)
            if v:
                print(n, l["ifname"], "link %s dropped" % d, v)
    rows = {}
    snmp = run(ip, "netns", "exec", ns, "cat", "/proc/net/snmp").splitlines()
    for a, b in zip(snmp[::2], snmp[1::2]):
        rows[a.split(":")[0]] = dict(zip(a.split()[1:], b.split()[1:]))
    for t, f in (("Ip", "InDiscards"), ("Ip", "OutDiscards"), ("Ip", "OutNoRoutes"),
                 ("Ip", "InAddrErrors"), ("Udp", "InErrors"), ("Udp", "RcvbufErrors"),
                 ("Udp", "NoPorts"), ("Udp", "SndbufErrors")):
        v = int(rows.get(t, {}).get(f, 0))
        if v:
            print(n, "-", "%s %s" % (t, f), v)
' "$IP" "$TC"
}

# fab_mark: remember where each node's log ends; fab_storms_since
# prints the storms declared after it ("NODE: line").
fab_mark()
{
	for _f_n in $fab_nodes; do
		eval "_fab_mark_$_f_n=\$(wc -l <\"\$fab_tmp/\$_f_n.log\")"
	done
}

fab_storms_since()
{
	for _f_n in $fab_nodes; do
		eval "_f_m=\$_fab_mark_$_f_n"
		tail -n +$((_f_m + 1)) "$fab_tmp/$_f_n.log" | grep 'PFC storm on' | sed "s/^/$_f_n: /"
	done
}

fab_storms()
{
	for _f_n in $fab_nodes; do
		grep -h 'PFC storm on' "$fab_tmp/$_f_n.log" | sed "s/^/$_f_n: /"
	done
}

# fab_pfc_on NS PORT: priority 3's PFC is operational on PORT in the
# namespace NS, by roced's `show interface priority-flow-control json`
# there ("" the test's own namespace; read with jq, left in
# $t_tmp/pfc.json for a failure message).
# For rigs of their own (pfc_deadlock.sh's ring, fabric_twotier.sh),
# whose nodes are not fab_build's: t_until 30 fab_pfc_on NS PORT.
fab_pfc_on()
{
	if [ -n "$1" ]; then
		"$IP" netns exec "$1" "$rocesh" -c "show interface priority-flow-control json"
	else
		"$rocesh" -c "show interface priority-flow-control json"
	fi >"$t_tmp/pfc.json" 2>&1 &&
		jq -e --arg p "$2" 'any(.interface[]?; .name == $p and .oper == "on" and
			any(.priorities[]?; . == 3))' "$t_tmp/pfc.json" >/dev/null 2>&1
}

# fab_shape_q3 FILE KBPS: the shipped file's no-drop queue (c-out-8q-q3)
# shaped to KBPS in FILE, as the incast rigs shape their hosts'.
fab_shape_q3()
{
	python3 - "$1" "$2" <<'PY' || t_fail "cannot shape queue 3 in the shipped roced.conf ($1)"
import sys
p = sys.argv[1]
s = open(p).read()
a = 'name = "c-out-8q-q3";\n\t\t\t\t\tbandwidth-remaining-percent = 50;'
assert a in s, 'the shipped roced.conf changed: ' + a
s = s.replace(a, a + ' shape = { min = "1 kbps"; max = "%s kbps"; };' % sys.argv[2], 1)
open(p, 'w').write(s)
PY
}

# The closing checks of the one-switch and one-router incasts
# (pfc_incast.sh, pfc_contrib.sh, pfc_routed*.sh), on their rigs' own
# namespaces, from the traffic tool's outputs and roced's show:
#   fab_sent FILE...          what the senders' outputs say they sent, summed
#   fab_got TOS FILE          what a receiver's output counted of TOS (0x68)
#   fab_gaps TOS FILE         ... and the gaps it counted in its sequence
#   fab_show_ppp NS PORT rx-pause|tx-pause   a port's pause counter from
#                             roced's show in NS (-1: no such port)
#   fab_paused SW SWPORT H HPORT   the switch (namespace SW) paused SWPORT
#                             and the host H received it on HPORT: both
#                             counters said, the test failed on a zero
fab_sent()
{
	awk '/^sent/ {n += $2} END {print n + 0}' "$@"
}

fab_got()
{
	awk -v t="$1" '$1 == "tos" && $2 == t {n += $6} END {print n + 0}' "$2"
}

fab_gaps()
{
	awk -v t="$1" '$1 == "tos" && $2 == t {n += $8} END {print n + 0}' "$2"
}

fab_show_ppp()
{
	"$IP" netns exec "$1" "$rocesh" -c "show interface priority-flow-control json" |
		python3 -c '
import json, sys
port, field = sys.argv[1], sys.argv[2]
d = json.load(sys.stdin)
def walk(o):
    if isinstance(o, dict):
        if port in o.values():
            if field in o:
                print(o[field]); sys.exit(0)
        for v in o.values(): walk(v)
    elif isinstance(o, list):
        for v in o: walk(v)
walk(d)
print(-1)' "$2" "$3"
}

fab_paused()
{
	_f_tx=$(fab_show_ppp "$1" "$2" tx-pause)
	_f_rx=$(fab_show_ppp "$3" "$4" rx-pause)
	echo "$2 TxPPP $_f_tx, $4 RxPPP $_f_rx"
	[ "$_f_tx" -gt 0 ] || t_fail "the switch sent no pause out of $2"
	[ "$_f_rx" -gt 0 ] || t_fail "the host on $4 received no pause"
}
