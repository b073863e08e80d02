#!/bin/sh
# roced's main job, from a fresh clone on Debian 12, as root: installs what
# is missing, builds, and brings up a demo rig where roced runs a switch.
#
#   scripts/demo.sh              install deps, build, (re)create the rig
#   scripts/demo.sh --no-build   the rig only, with binaries already built
#   scripts/demo.sh --incast     the RoCE-like incast again, on a rig that is up
#   scripts/demo.sh --down       tear the rig down (idempotent)
#
# The rig, all in network namespaces (nothing touches the host's links):
#
#   roced-h1 eth0 192.0.2.1/24 ---- swp1 -+
#   roced-h2 eth0 192.0.2.2/24 ---- swp2 -+- br0   (namespace roced-sw,
#   roced-h3 eth0 192.0.2.3/24 ---- swp3 -+         roced runs here)
#
# 192.0.2.0/24 is TEST-NET-1: never routed, and the traffic stays inside
# the namespaces anyway. roced's configuration is conf/roced.conf with the
# interface block repeated for swp1..swp3 (aliases Ethernet1/1..1/3); it
# runs in the background and logs to /run/roced/demo.log.
#
# The hosts run roced too, configured by hand as a RoCE host is with
# mlnx_qos: the same policy on eth0, PFC on, their PFC watchdog off (a
# host's watchdog at the switch's default timers takes the pause of a
# legitimate incast for a storm). Each logs to /run/roced/demo-hN.log.
#
# The demo ends with a RoCE-like incast (incast below): h1 and h2 send
# CoS 3-tagged DSCP 26 frames (what a RoCE NIC sends; this kernel has no
# 8021q, so tests/tools/traffic writes them whole) and best effort to h3,
# through queue 3 and the default queue of swp3, both shaped to 20 Mb/s
# for the incast only; it prints the queue-3 counters, the pause frames
# and the loss per class, and leaves them in /run/roced/demo.incast.
#
# Environment: BUILD_DIR (default ./build) holds roced and rocesh;
# ROCED_DEMO_TAG (default empty) is appended to every name so that a test
# can run a rig beside a user's (roced-t1-sw, /run/roced/demo-t1.log).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}
tag=${ROCED_DEMO_TAG:-}
IP=/sbin/ip
TC=/sbin/tc
sw="roced$tag-sw"
hosts="roced$tag-h1 roced$tag-h2 roced$tag-h3"
state=/run/roced
conf="$state/demo$tag.conf"
log="$state/demo$tag.log"
pidfile="$state/demo$tag.pid"
hostconf="$state/demo$tag-host.conf"
result="$state/demo$tag.incast"
PORTS="swp1 swp2 swp3"

say() { printf '%s\n' "$*"; }
die() { printf 'demo: %s\n' "$*" >&2; exit 1; }

# The pid in the pid file (default the switch's), if that process is
# still a roced.
demo_pid() {
	[ -f "${1:-$pidfile}" ] || return 1
	pid=$(cat "${1:-$pidfile}")
	case "$pid" in '' | *[!0-9]*) return 1 ;; esac
	[ "$(cat "/proc/$pid/comm" 2>/dev/null)" = roced ] || return 1
	printf '%s\n' "$pid"
}

# The state roced keeps for the switch namespace (lib/ctl/ctl.h: outside
# the host's namespace, roced.<netns-inode>.sock and .pid). roced removes
# them when it exits cleanly; a killed one leaves them. It keeps .mtu (the
# MTUs to give back) on purpose, but the rig's links go with the rig.
demo_netns_files() {
	for ns in $sw $hosts; do
		ino=$(stat -L -c %i "/run/netns/$ns" 2>/dev/null) || continue
		for f in "$state/roced.$ino.sock" "$state/roced.$ino.pid" \
			"$state/roced.$ino.mtu" "$state/roced.$ino.pfcwd"; do
			[ -e "$f" ] && printf '%s\n' "$f"
		done
	done
	return 0
}

stop_pid() {
	kill -TERM "$1" 2>/dev/null || true
	w=0
	while kill -0 "$1" 2>/dev/null && [ $w -lt 50 ]; do
		sleep 0.1; w=$((w + 1))
	done
	kill -KILL "$1" 2>/dev/null || true
}

down() {
	did=""
	stale=$(demo_netns_files)
	if pid=$(demo_pid); then
		stop_pid "$pid"
		did="$did roced($pid)"
	fi
	for i in 1 2 3; do
		if pid=$(demo_pid "$state/demo$tag-h$i.pid"); then
			stop_pid "$pid"
			did="$did roced-h$i($pid)"
		fi
	done
	for f in $stale; do
		[ -e "$f" ] && { rm -f "$f"; did="$did ${f#$state/}"; }
	done
	for ns in $sw $hosts; do
		if "$IP" netns list | grep -q "^$ns\( \|$\)"; then
			"$IP" netns del "$ns"
			did="$did $ns"
		fi
	done
	for f in "$conf" "$log" "$pidfile" "$hostconf" "$result" \
		"$state/demo$tag-h1.pid" "$state/demo$tag-h2.pid" \
		"$state/demo$tag-h3.pid" "$state/demo$tag-h1.log" \
		"$state/demo$tag-h2.log" "$state/demo$tag-h3.log"; do
		[ -e "$f" ] && { rm -f "$f"; did="$did ${f#$state/}"; }
	done
	rmdir "$state" 2>/dev/null || true
	if [ -n "$did" ]; then
		say "demo: removed$did"
	else
		say "demo: nothing to tear down"
	fi
}

# conf/roced.conf with its one interface block (swp1) repeated per port
# (PORTS); with HOST=1 for a host's eth0: no alias, and the PFC watchdog
# off on the port.
make_conf() {
	awk -v ports="$PORTS" -v host="${HOST:-0}" '
	function flush(   n, i, p, b) {
		n = split(ports, p, " ")
		for (i = 1; i <= n; i++) {
			b = blk
			gsub(/"swp1"/, "\"" p[i] "\"", b)
			gsub(/"Ethernet1\/1"/, "\"Ethernet1/" i "\"", b)
			if (host) {
				gsub(/\n[^\n]*alias = [^\n]*/, "", b)
				gsub(/mode = "on"; \}/, "mode = \"on\"; watch-dog-interval = false; }", b)
			}
			printf "%s%s\n", b, (i < n ? "," : "")
		}
	}
	/^interface = \(/ { inlist = 1; print; next }
	inlist && /^\t\{$/ { inblk = 1 }
	inblk { blk = blk (blk == "" ? "" : "\n") $0
		if ($0 ~ /^\t\}$/) { inblk = 0; flush() }
		next }
	inlist && /^\);/ { inlist = 0 }
	{ print }
	' "$top/conf/roced.conf"
}

# --- the RoCE-like incast ------------------------------------------------
# h1 and h2 each send 8 MB of CoS 3-tagged DSCP 26 frames and 8 MB of best
# effort (untagged DSCP 0) to h3 at 30 Mb/s each, a paced line rate (a
# burst at the speed of a veth would outrun software PFC's reaction, as
# it would outrun a switch's headroom). swp3's queue 3 and default queue
# are shaped to 20 Mb/s for the incast (through rocesh, and back
# afterwards), so that 16 MB of each class meet a 9.2 MB queue:
#   - queue 3 crosses its xoff (half of it), the switch pauses priority 3
#     out of swp1 and swp2, the hosts' roced holds their queue 3 and their
#     senders block on their socket: the no-drop class loses nothing
#     (without the hold, some 1.5 MB would not fit);
#   - best effort is not paused: it overflows the default queue and
#     loses what does not fit.
# Each sender may keep 8 MB in flight (a datagram queued in a veth peer's
# qdisc stays charged to its socket): enough to push queue 3 past its
# xoff. The hosts' own queues are shaped to 30 Mb/s as well, the speed of
# their links: a veth sends what a pause held back at once, faster than
# any link, and more than the headroom above xoff would take.
INCAST_MB=8
INCAST_SHAPE=20
INCAST_PPS=3750
INCAST_HOST_SHAPE=30

# sw_show CMD: rocesh on the switch.
sw_show() { "$IP" netns exec "$sw" "$build/rocesh" -c "$1"; }

# q3_counter SHOW FIELD: the value of "| FIELD | N |" in QOS GROUP 3's
# box of show queuing interface.
q3_counter() {
	printf '%s\n' "$1" | awk -F'|' -v f="$2" '
		/QOS GROUP 3 / { on = 1; next }
		/QOS GROUP / { on = 0 }
		on { k = $2; gsub(/^ +| +$/, "", k); if (k == f) n = $3 + 0 }
		END { print n + 0 }'
}

# ppp SHOW PORT rx|tx: RxPPP or TxPPP (the last two columns) of PORT's
# line in show interface priority-flow-control.
ppp() {
	printf '%s\n' "$1" | awk -v p="$2" -v c="$3" '
		$1 == p { n = (c == "rx" ? $(NF - 1) : $NF) + 0 }
		END { print n + 0 }'
}

shape() { # NS "shape min 0 kbps max N mbps" | "no shape"
	"$IP" netns exec "$1" "$build/rocesh" -E -e -c "configure terminal; policy-map type queuing ROCE_QUEUING_OUT; class type queuing c-out-8q-q3; $2; class type queuing c-out-8q-q-default; $2; end"
}

incast() {
	traffic="$build/tests/tools/traffic"
	rocesh="$build/rocesh"
	if [ ! -x "$rocesh" ]; then
		say
		say "== incast skipped: rocesh is not built in $build"
		return 0
	fi
	if [ ! -x "$traffic" ]; then
		make -C "$build" tests/tools/traffic >/dev/null 2>&1 ||
			{ say "== incast skipped: cannot build $traffic"; return 0; }
	fi
	h1="roced$tag-h1" h2="roced$tag-h2" h3="roced$tag-h3"
	mac3=$("$IP" netns exec "$h3" cat /sys/class/net/eth0/address)
	for h in "$h1" "$h2"; do
		"$IP" -n "$h" neigh replace 192.0.2.3 lladdr "$mac3" dev eth0 nud permanent
	done
	rm -f "$result"
	run=$(mktemp -d "${TMPDIR:-/tmp}/roced-demo-incast.XXXXXX")
	say
	say "== RoCE-like incast: roced$tag-h1 and roced$tag-h2 each send ${INCAST_MB} MB of CoS 3 + DSCP 26"
	say "   frames (queue 3, no-drop) and ${INCAST_MB} MB of best effort to roced$tag-h3, each at"
	say "   $((INCAST_PPS * 8 / 1000)) Mb/s; swp3's two queues shaped to $INCAST_SHAPE Mb/s for the incast:"
	shape "$sw" "shape min 0 kbps max $INCAST_SHAPE mbps" | sed 's/^/   /'
	say "   and the senders' queues to $INCAST_HOST_SHAPE Mb/s, the speed of their links:"
	for h in "$h1" "$h2"; do
		say "   ($h)"
		shape "$h" "shape min 0 kbps max $INCAST_HOST_SHAPE mbps" | sed 's/^/   /'
	done
	q0=$(sw_show 'show queuing interface swp3')
	p0=$(sw_show 'show interface priority-flow-control')
	r10=$("$IP" netns exec "$h1" "$rocesh" -c 'show interface priority-flow-control')
	r20=$("$IP" netns exec "$h2" "$rocesh" -c 'show interface priority-flow-control')
	n=$((INCAST_MB * 1000))
	"$IP" netns exec "$h3" "$traffic" recv -t 120 -i 3 -R "$run/ready" >"$run/recv" 2>&1 &
	rx=$!
	i=0
	while [ ! -e "$run/ready" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
	pids=
	for f in 1 2; do
		eval "h=\$h$f"
		"$IP" netns exec "$h" "$traffic" send 192.0.2.3 -V 3 -I eth0 -M "$mac3" \
			-T 0x68 -r "$INCAST_PPS" -n "$n" -t 60 -s 1000 -b 8000000 -f "$f" >"$run/nd$f" 2>&1 &
		pids="$pids $!"
		"$IP" netns exec "$h" "$traffic" send 192.0.2.3 -T 0x00 -r "$INCAST_PPS" -n "$n" \
			-t 60 -s 1000 -b 8000000 -f "$((f + 10))" >"$run/be$f" 2>&1 &
		pids="$pids $!"
	done
	ok=1
	for p in $pids; do wait "$p" || ok=0; done
	wait "$rx" || ok=0
	q1=$(sw_show 'show queuing interface swp3')
	p1=$(sw_show 'show interface priority-flow-control')
	r11=$("$IP" netns exec "$h1" "$rocesh" -c 'show interface priority-flow-control')
	r21=$("$IP" netns exec "$h2" "$rocesh" -c 'show interface priority-flow-control')
	for h in "$sw" "$h1" "$h2"; do shape "$h" "no shape" >/dev/null; done
	if [ $ok = 0 ]; then
		cat "$run"/* >&2
		rm -rf "$run"
		die "the incast's traffic failed"
	fi
	# Sent (and failed to send) per class, from the senders; received
	# per TOS, from the receiver.
	# sent KIND COLUMN: the senders' "sent N errors E" summed (2: N, 4: E).
	sent() { cat "$run/$1"1 "$run/$1"2 | awk -v c="$2" '/^sent/ { n += $c } END { print n + 0 }'; }
	nd_sent=$(sent nd 2) nd_err=$(sent nd 4)
	be_sent=$(sent be 2) be_err=$(sent be 4)
	nd_rx=$(awk '/^tos 0x68/ { print $6 }' "$run/recv")
	be_rx=$(awk '/^tos 0x00/ { print $6 }' "$run/recv")
	nd_rx=${nd_rx:-0} be_rx=${be_rx:-0}
	rm -rf "$run"
	q3tx=$(($(q3_counter "$q1" "Tx Pkts") - $(q3_counter "$q0" "Tx Pkts")))
	q3drop=$(($(q3_counter "$q1" "Dropped Pkts") - $(q3_counter "$q0" "Dropped Pkts")))
	tx1=$(($(ppp "$p1" Ethernet1/1 tx) - $(ppp "$p0" Ethernet1/1 tx)))
	tx2=$(($(ppp "$p1" Ethernet1/2 tx) - $(ppp "$p0" Ethernet1/2 tx)))
	tx3=$(($(ppp "$p1" Ethernet1/3 tx) - $(ppp "$p0" Ethernet1/3 tx)))
	rx1=$(($(ppp "$r11" eth0 rx) - $(ppp "$r10" eth0 rx)))
	rx2=$(($(ppp "$r21" eth0 rx) - $(ppp "$r20" eth0 rx)))
	say
	say "== swp3 (Ethernet1/3) queue 3 during the incast: $q3tx packets sent, $q3drop dropped"
	say "   (show queuing interface swp3, counters since roced started:)"
	printf '%s\n' "$q1" | awk '/QOS GROUP 3 /{ on = 1; print prev } { prev = $0 } on { print } on && /Overlimits/ { getline; print; exit }'
	say
	say "== pause frames (priority 3) during the incast:"
	say "   switch sent: swp1 $tx1, swp2 $tx2, swp3 $tx3"
	say "   hosts received: roced$tag-h1 $rx1, roced$tag-h2 $rx2"
	say
	say "== loss per class (datagrams of 1000 bytes):"
	printf '   %-30s %8s %8s %8s %8s\n' class sent failed received lost
	printf '   %-30s %8d %8d %8d %8d\n' "no-drop (CoS 3, DSCP 26)" "$nd_sent" "$nd_err" "$nd_rx" $((nd_sent - nd_rx))
	printf '   %-30s %8d %8d %8d %8d\n' "best effort (DSCP 0)" "$be_sent" "$be_err" "$be_rx" $((be_sent - be_rx))
	say "   (failed: the sender's own kernel refused it; lost: sent, never received)"
	{
		echo "nodrop_sent=$nd_sent"
		echo "nodrop_failed=$nd_err"
		echo "nodrop_received=$nd_rx"
		echo "besteffort_sent=$be_sent"
		echo "besteffort_failed=$be_err"
		echo "besteffort_received=$be_rx"
		echo "q3_tx_packets=$q3tx"
		echo "q3_dropped=$q3drop"
		echo "pause_tx_swp1=$tx1"
		echo "pause_tx_swp2=$tx2"
		echo "pause_tx_swp3=$tx3"
		echo "pause_rx_h1=$rx1"
		echo "pause_rx_h2=$rx2"
	} >"$result"
	if [ "$nd_rx" = "$nd_sent" ] && [ "$nd_err" = 0 ] && [ "$tx1" -gt 0 ] && [ "$rx1" -gt 0 ]; then
		say "   The no-drop class lost nothing: the switch paused the senders instead."
	else
		say "   warning: the no-drop class was not lossless, or no pause was needed (see above)"
	fi
}

up() {
	roced="$build/roced"
	rocesh="$build/rocesh"
	[ -x "$roced" ] || die "$roced not found: build first (scripts/build.sh)"
	[ "$(id -u)" = 0 ] || die "the rig needs root (network namespaces)"
	down >/dev/null

	mkdir -p "$state"
	make_conf >"$conf"
	n=$(grep -c 'name = "swp' "$conf" || true)
	[ "$n" = 3 ] || die "could not derive $conf from conf/roced.conf"
	PORTS=eth0 HOST=1 make_conf >"$hostconf"
	grep -q 'name = "eth0"' "$hostconf" && grep -q 'watch-dog-interval = false; }' "$hostconf" ||
		die "could not derive $hostconf from conf/roced.conf"
	# The warnings (what this kernel cannot realise) come again in show
	# queuing interface below, each once with the ports it concerns.
	if ! out=$("$roced" -n -f "$conf" 2>&1); then
		printf '%s\n' "$out" >&2
		die "$conf does not check"
	fi
	nw=$(printf '%s\n' "$out" | grep -c ': warning: ' || true)
	say "== roced -n -f $conf: configuration OK, $nw plan warnings (shown with their ports below)"

	"$IP" netns add "$sw"
	"$IP" -n "$sw" link set lo up
	"$IP" -n "$sw" link add br0 type bridge
	i=0
	for h in $hosts; do
		i=$((i + 1))
		"$IP" netns add "$h"
		"$IP" -n "$h" link set lo up
		"$IP" -n "$sw" link add "swp$i" type veth peer name eth0 netns "$h"
		"$IP" -n "$sw" link set "swp$i" master br0
		"$IP" -n "$sw" link set "swp$i" up
		# Jumbo frames end to end: roced sets the switch ports to the
		# policy's MTU (9216), the hosts match it.
		"$IP" -n "$h" link set eth0 mtu 9216 up
		"$IP" -n "$h" addr add "192.0.2.$i/24" dev eth0
	done
	"$IP" -n "$sw" link set br0 up

	# setsid: roced outlives this script and the terminal; ip netns exec
	# execs roced, so $! is roced's pid.
	setsid "$IP" netns exec "$sw" "$roced" -f "$conf" </dev/null \
		>"$log" 2>&1 &
	echo $! >"$pidfile"
	say "== roced started in namespace $sw (pid $(cat "$pidfile")), log $log"
	i=0
	for h in $hosts; do
		i=$((i + 1))
		setsid "$IP" netns exec "$h" "$roced" -f "$hostconf" </dev/null \
			>"$state/demo$tag-h$i.log" 2>&1 &
		echo $! >"$state/demo$tag-h$i.pid"
	done
	say "== roced started on eth0 of each host (PFC on, the switch's policy), logs $state/demo$tag-hN.log"

	# Ready: every port carries roced's root qdisc (handle 4791:), and
	# the control socket answers when rocesh exists.
	i=0
	while :; do
		# Not demo_pid: until ip has exec'd roced, comm is ip.
		kill -0 "$(cat "$pidfile")" 2>/dev/null ||
			{ cat "$log" >&2; die "roced exited"; }
		ok=1
		for p in $PORTS; do
			"$IP" netns exec "$sw" "$TC" qdisc show dev "$p" root |
				grep -q ' 4791: root' || ok=0
		done
		if [ $ok = 1 ] && [ -x "$rocesh" ]; then
			"$IP" netns exec "$sw" "$rocesh" -c 'show running-config' \
				>/dev/null 2>&1 || ok=0
		fi
		[ $ok = 1 ] && break
		i=$((i + 1))
		[ $i -lt 100 ] || { cat "$log" >&2; die "roced did not program $PORTS within 10 s"; }
		sleep 0.1
	done
	i=0
	for h in $hosts; do
		i=$((i + 1))
		j=0
		until "$IP" netns exec "$h" "$TC" qdisc show dev eth0 root | grep -q ' 4791: root'; do
			kill -0 "$(cat "$state/demo$tag-h$i.pid")" 2>/dev/null ||
				{ cat "$state/demo$tag-h$i.log" >&2; die "the roced of $h exited"; }
			j=$((j + 1))
			[ $j -lt 100 ] || { cat "$state/demo$tag-h$i.log" >&2; die "the roced of $h did not program eth0 within 10 s"; }
			sleep 0.1
		done
	done
	# ping is not among the build dependencies: check when it is there.
	if command -v ping >/dev/null; then
		if "$IP" netns exec "roced$tag-h1" ping -c 1 -W 2 -M do -s 8972 192.0.2.2 >/dev/null 2>&1; then
			say "== roced$tag-h1 reaches roced$tag-h2 through br0 with 9000-byte packets"
		else
			say "== warning: roced$tag-h1 cannot ping roced$tag-h2 with 9000-byte packets"
		fi
	fi

	if [ -x "$rocesh" ]; then
		for c in 'show queuing interface' 'show interface priority-flow-control'; do
			say
			say "== rocesh -c '$c'"
			"$IP" netns exec "$sw" "$rocesh" -c "$c" || true
		done
	else
		say
		say "== rocesh is not built in $build yet; the kernel state roced wrote on swp1:"
		"$IP" netns exec "$sw" "$TC" qdisc show dev swp1
		"$IP" netns exec "$sw" "$TC" class show dev swp1
	fi
	incast
	say
	say "The rig is up. Enter roced's shell on the switch:"
	if [ -x "$rocesh" ]; then
		say "    ip netns exec $sw $rocesh"
		say "(or 'ip netns exec $sw rocesh' once installed with make install)"
	else
		say "    ip netns exec $sw rocesh      (when rocesh is built)"
	fi
	say "Look at the kernel state:   ip netns exec $sw tc -s class show dev swp1"
	command -v ping >/dev/null &&
		say "Send traffic:               ip netns exec roced$tag-h1 ping 192.0.2.2"
	say "Run the RoCE incast again:  $top/scripts/demo.sh --incast"
	say "Tear everything down:       $top/scripts/demo.sh --down"
}

case "${1:-}" in
--down)
	down
	;;
--incast)
	[ "$(id -u)" = 0 ] || die "the incast needs root (network namespaces)"
	demo_pid >/dev/null || die "no demo rig is up: run scripts/demo.sh first"
	incast
	;;
--no-build)
	up
	;;
'')
	"$top/scripts/install-deps.sh"
	"$top/scripts/build.sh"
	BUILD_DIR=${BUILD_DIR:-$top/build}
	up
	;;
*)
	echo "usage: scripts/demo.sh [--no-build | --incast | --down]" >&2
	exit 2
	;;
esac
