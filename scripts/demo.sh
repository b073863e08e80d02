#!/bin/sh
# roced's main job, from a fresh clone on Debian 12, as root: installs what
# is missing, builds, and brings up a demo rig where roced runs a switch.
#
#   scripts/demo.sh              install deps, build, (re)create the rig
#   scripts/demo.sh --no-build   the rig only, with binaries already built
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
PORTS="swp1 swp2 swp3"

say() { printf '%s\n' "$*"; }
die() { printf 'demo: %s\n' "$*" >&2; exit 1; }

# The pid in the pid file, if that process is still a roced.
demo_pid() {
	[ -f "$pidfile" ] || return 1
	pid=$(cat "$pidfile")
	case "$pid" in '' | *[!0-9]*) return 1 ;; esac
	[ "$(cat "/proc/$pid/comm" 2>/dev/null)" = roced ] || return 1
	printf '%s\n' "$pid"
}

# The state roced keeps for the switch namespace (lib/ctl/ctl.h: outside
# the host's namespace, roced.<netns-inode>.sock and .pid). roced removes
# them when it exits cleanly; a killed one leaves them. It keeps .mtu (the
# MTUs to give back) on purpose, but the rig's links go with the rig.
demo_netns_files() {
	ino=$(stat -L -c %i "/run/netns/$sw" 2>/dev/null) || return 0
	for f in "$state/roced.$ino.sock" "$state/roced.$ino.pid" \
		"$state/roced.$ino.mtu"; do
		[ -e "$f" ] && printf '%s\n' "$f"
	done
	return 0
}

down() {
	did=""
	stale=$(demo_netns_files)
	if pid=$(demo_pid); then
		kill -TERM "$pid" 2>/dev/null || true
		i=0
		while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do
			sleep 0.1; i=$((i + 1))
		done
		kill -KILL "$pid" 2>/dev/null || true
		did="$did roced($pid)"
	fi
	for f in $stale; do
		[ -e "$f" ] && { rm -f "$f"; did="$did ${f#$state/}"; }
	done
	for ns in $sw $hosts; do
		if "$IP" netns list | grep -q "^$ns\( \|$\)"; then
			"$IP" netns del "$ns"
			did="$did $ns"
		fi
	done
	for f in "$conf" "$log" "$pidfile"; do
		[ -e "$f" ] && { rm -f "$f"; did="$did ${f#$state/}"; }
	done
	rmdir "$state" 2>/dev/null || true
	if [ -n "$did" ]; then
		say "demo: removed$did"
	else
		say "demo: nothing to tear down"
	fi
}

# conf/roced.conf with its one interface block (swp1) repeated per port.
make_conf() {
	awk -v ports="$PORTS" '
	function flush(   n, i, p, b) {
		n = split(ports, p, " ")
		for (i = 1; i <= n; i++) {
			b = blk
			gsub(/"swp1"/, "\"" p[i] "\"", b)
			gsub(/"Ethernet1\/1"/, "\"Ethernet1/" i "\"", b)
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
	# The warnings (what this kernel cannot realise) come again, per
	# port, in show queuing interface below.
	if ! out=$("$roced" -n -f "$conf" 2>&1); then
		printf '%s\n' "$out" >&2
		die "$conf does not check"
	fi
	nw=$(printf '%s\n' "$out" | grep -c ': warning: ' || true)
	say "== roced -n -f $conf: configuration OK, $nw plan warnings (shown per port below)"

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
	say "Tear everything down:       $top/scripts/demo.sh --down"
}

case "${1:-}" in
--down)
	down
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
	echo "usage: scripts/demo.sh [--no-build | --down]" >&2
	exit 2
	;;
esac
