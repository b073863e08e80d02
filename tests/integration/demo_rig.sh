#!/bin/sh
# The README's demo rig (scripts/demo.sh), twice in a row: up, check,
# down, check that nothing is left, and --down once more (idempotent).
# The second time roced is killed with SIGKILL before --down.
# The rig runs under a tag of its own (ROCED_DEMO_TAG) so that a user's
# rig on the same machine is left alone; the build is this one.
#
# Checked after "up": the namespaces, the bridge and its three ports, the
# hosts' addresses, roced alive in the switch namespace, and every switch
# port holding exactly what roced's plan for the rig's configuration says
# (roced --dry-run, the daemon's default --caps probe): the plan is
# replayed with tc -batch onto veth ports swp1..swp3 of a namespace of our
# own, and each port of the rig must equal its replayed twin in every
# qdisc, htb class and filter, hold as many of each as the plan has lines
# for it, and carry the plan's MTU (plan_lib.sh). Then the rocesh show
# output (each port's own header line) when rocesh is built, and the
# instructions for rocesh and teardown. The hosts' roced (the switch's
# policy on eth0) runs in each host's namespace, and the demo's RoCE-like
# incast had the lossless result the demo claims (its result file, as
# states, not amounts): every CoS 3/DSCP 26 datagram sent went through
# swp3's queue 3 and arrived, none was refused at a host or dropped in
# queue 3, and the switch paused both senders' ports and both hosts
# counted that pause. The shape the incast put on swp3's queues is gone
# again (the plan check runs after it).
# Checked after "down": no namespace, no roced, and none of the rig's
# files in /run/roced (conf, log, pid file, the control socket and pid
# file of the switch namespace's roced). Other tests' daemons share
# /run/roced, so only the rig's own names are looked at.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
. "$top_srcdir/tests/integration/plan_lib.sh"
t_init demo_rig
t_need_root
demo="$top_srcdir/scripts/demo.sh"
# Under scripts/check.sh the run's name goes into the rig's names too, so
# that its leftovers check knows them.
ROCED_DEMO_TAG="-t$$${ROCED_TEST_RUN:+-$ROCED_TEST_RUN}"
BUILD_DIR="$top_builddir"
export ROCED_DEMO_TAG BUILD_DIR
sw="roced$ROCED_DEMO_TAG-sw"
rig_ns="$sw roced$ROCED_DEMO_TAG-h1 roced$ROCED_DEMO_TAG-h2 roced$ROCED_DEMO_TAG-h3"
tmp=$t_tmp
# The rig's own teardown first (roced was started with setsid: it is no
# child of this shell); the namespaces are swept after it all the same.
t_defer '"$demo" --down >/dev/null 2>&1'
for ns in $rig_ns; do t_netns_adopt "$ns"; done
fail() { echo "FAIL: $*"; [ -f "$tmp/out" ] && { echo "--- demo output"; cat "$tmp/out"; }; exit 1; }
rigfiles() { # the inodes of the rig's namespaces
	for _i in "$@"; do ls -d /run/roced/roced."$_i".* 2>/dev/null || true; done
	ls -d /run/roced/demo"$ROCED_DEMO_TAG".* /run/roced/demo"$ROCED_DEMO_TAG"-* 2>/dev/null || true
}
# incast KEY: a value of the demo's incast result file.
incast() { sed -n "s/^$1=//p" "/run/roced/demo$ROCED_DEMO_TAG.incast"; }
in_sw() { "$IP" netns exec "$sw" "$@"; }
PORTS="swp1 swp2 swp3"

for round in 1 2; do
	"$demo" --no-build >"$tmp/out" 2>&1 || fail "round $round: demo.sh --no-build exited $?"

	for ns in $rig_ns; do
		[ -e "/run/netns/$ns" ] || fail "round $round: no namespace $ns"
	done
	pid=$(cat "/run/roced/demo$ROCED_DEMO_TAG.pid")
	[ "$(cat "/proc/$pid/comm" 2>/dev/null)" = roced ] || fail "round $round: roced ($pid) is not running"
	[ "$(readlink "/proc/$pid/ns/net")" = "$(in_sw readlink /proc/self/ns/net)" ] ||
		fail "round $round: roced does not run in $sw"
	# shellcheck disable=SC2086
	[ "$round" = 2 ] || tp_plan "/run/roced/demo$ROCED_DEMO_TAG.conf" $PORTS
	i=0
	for p in $PORTS; do
		i=$((i + 1))
		[ "$("$IP" -n "$sw" -j link show dev "$p" | python3 -c 'import json, sys; print(json.load(sys.stdin)[0].get("master"))')" = br0 ] ||
			fail "round $round: $p is not a port of br0"
		[ -z "$(tp_check "$sw" "$p")" ] || {
			cat "$t_tmp/tp.diff.$p"
			fail "round $round: $p differs from the plan (- plan replayed by tc, + roced)"
		}
		"$IP" -n "roced$ROCED_DEMO_TAG-h$i" -j addr show dev eth0 |
			python3 -c 'import json, sys; print(" ".join("%s/%s" % (a["local"], a["prefixlen"]) for a in json.load(sys.stdin)[0]["addr_info"] if a["family"] == "inet"))' \
			>"$tmp/addr"
		[ "$(cat "$tmp/addr")" = "192.0.2.$i/24" ] ||
			fail "round $round: host $i has '$(cat "$tmp/addr")', not 192.0.2.$i/24"
	done
	echo "round $round: swp1-3 each hold exactly the plan: $(tp_summary swp1)"
	# The output: real show output when rocesh is built, the commands to
	# go on with in any case.
	if [ -x "$top_builddir/rocesh" ]; then
		grep -qx "== rocesh -c 'show queuing interface'" "$tmp/out" || fail "round $round: no show queuing interface"
		grep -qx "== rocesh -c 'show interface priority-flow-control'" "$tmp/out" ||
			fail "round $round: no show interface priority-flow-control"
		in_sw "$top_builddir/rocesh" -c 'show queuing interface' >"$tmp/show" 2>"$tmp/show.err" ||
			{ cat "$tmp/show.err"; fail "round $round: rocesh show queuing interface failed"; }
		[ ! -s "$tmp/show.err" ] || { cat "$tmp/show.err"; fail "round $round: rocesh show queuing interface wrote to stderr"; }
		i=0
		for p in $PORTS; do
			i=$((i + 1))
			grep -qxF "Egress Queuing for Ethernet1/$i ($p) [ROCE_QUEUING_OUT]" "$tmp/show" ||
				fail "round $round: show queuing interface has no section for $p"
		done
	else
		grep -q "rocesh is not built" "$tmp/out" || fail "round $round: no word that rocesh is missing"
	fi
	# The hosts' roced, each in its host's namespace.
	for i in 1 2 3; do
		hpid=$(cat "/run/roced/demo$ROCED_DEMO_TAG-h$i.pid")
		[ "$(cat "/proc/$hpid/comm" 2>/dev/null)" = roced ] || fail "round $round: host $i's roced ($hpid) is not running"
		[ "$(readlink "/proc/$hpid/ns/net")" = "$("$IP" netns exec "roced$ROCED_DEMO_TAG-h$i" readlink /proc/self/ns/net)" ] ||
			fail "round $round: host $i's roced does not run in its namespace"
		eval "hpid$i=\$hpid"
	done
	# The incast's result (needs rocesh).
	if [ -x "$top_builddir/rocesh" ]; then
		[ -s "/run/roced/demo$ROCED_DEMO_TAG.incast" ] || fail "round $round: the incast left no result"
		grep -q "^== RoCE-like incast" "$tmp/out" || fail "round $round: the demo did not say it ran the incast"
		grep -q "^== loss per class" "$tmp/out" || fail "round $round: the demo printed no loss per class"
		sent=$(incast nodrop_sent)
		[ "${sent:-0}" -gt 0 ] || fail "round $round: the incast sent no no-drop datagram"
		[ "$(incast nodrop_received)" = "$sent" ] || fail "round $round: the no-drop class lost datagrams"
		[ "$(incast nodrop_failed)" = 0 ] || fail "round $round: a host refused no-drop datagrams"
		[ "$(incast q3_tx_packets)" -ge "$sent" ] || fail "round $round: the no-drop datagrams did not all go through queue 3"
		[ "$(incast q3_dropped)" = 0 ] || fail "round $round: queue 3 dropped"
		for k in pause_tx_swp1 pause_tx_swp2 pause_rx_h1 pause_rx_h2; do
			[ "$(incast "$k")" -gt 0 ] || fail "round $round: no pause: $k is $(incast "$k")"
		done
		grep -q "demo.sh --incast" "$tmp/out" || fail "round $round: no instruction to rerun the incast"
		echo "round $round: incast: $sent no-drop datagrams through queue 3, none lost; the switch paused swp1 and swp2, the hosts held"
	fi
	grep -q "ip netns exec $sw .*rocesh" "$tmp/out" || fail "round $round: no instruction to enter rocesh"
	grep -q "scripts/demo.sh --down" "$tmp/out" || fail "round $round: no teardown instruction"
	inos=
	for ns in $rig_ns; do inos="$inos $(stat -L -c %i "/run/netns/$ns")"; done
	echo "round $round: up: 4 namespaces, br0 with swp1-3 programmed by roced (pid $pid)"

	# Round 2: roced died hard (no chance to remove its socket); --down
	# must clean up after it all the same.
	if [ "$round" = 2 ]; then
		kill -KILL "$pid"
		while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
		echo "round 2: roced killed with SIGKILL before --down"
	fi
	"$demo" --down >"$tmp/down" 2>&1 || fail "round $round: demo.sh --down exited $?"
	"$IP" netns list | grep -q "roced$ROCED_DEMO_TAG-" && fail "round $round: namespaces left: $("$IP" netns list | grep "roced$ROCED_DEMO_TAG-")"
	kill -0 "$pid" 2>/dev/null && fail "round $round: roced ($pid) still runs"
	for i in 1 2 3; do
		eval "hpid=\$hpid$i"
		kill -0 "$hpid" 2>/dev/null && fail "round $round: host $i's roced ($hpid) still runs"
	done
	pgrep -f "demo$ROCED_DEMO_TAG.conf" >/dev/null && fail "round $round: a process still uses the demo config"
	pgrep -f "demo$ROCED_DEMO_TAG-host.conf" >/dev/null && fail "round $round: a process still uses the hosts' demo config"
	# shellcheck disable=SC2086 # a list of inodes
	left=$(rigfiles $inos)
	[ -z "$left" ] || fail "round $round: left in /run/roced: $left"
	"$demo" --down >"$tmp/down2" 2>&1 || fail "round $round: a second --down exited $?"
	grep -q "nothing to tear down" "$tmp/down2" || fail "round $round: a second --down found something: $(cat "$tmp/down2")"
	echo "round $round: down: nothing left; --down again: nothing to tear down"
done
echo "PASS: demo_rig"
