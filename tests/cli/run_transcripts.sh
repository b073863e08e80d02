#!/bin/sh
# Golden CLI transcripts: each tests/cli/NAME.in is typed into the real
# rocesh talking to a real roced, and what a terminal would show is
# compared byte for byte with NAME.out.
#
# The rig, one per transcript: a private network namespace with the port
# swp1 (a veth, peer host1; both up, IPv6 off so that nothing but the
# transcript's own traffic moves), and roced started in it with
# --caps host (the minimal kernel: the same plan, warnings and show
# answers on every machine) from a copy of the configuration the
# transcript names, empty by default. Then
#     rocesh --echo < NAME.in
# runs the transcript through rocesh's session code, as on a terminal:
# each line after its prompt, then its output, warnings and errors with
# their carets (see rocesh(8), --echo). A line ending in `?` is the `?`
# key; a line ending in <TAB> is the TAB key (the runner turns the marker
# into a TAB character). A last line "(rocesh exit status N)" records how
# rocesh ended. roced must still be running at the end and stop cleanly.
#
# Directives, on the lines that start the .in (they stay in the .out as
# comments):
#   #@startup FILE   roced starts from FILE (relative to the source tree)
#                    instead of an empty configuration
#   #@send N DSCP    before rocesh starts, N UDP frames with that DSCP go
#                    out of swp1 (the queues' counters are then exact)
#
# What legitimately varies between runs is normalised by the sed rules in
# tests/cli/transcript.sed (each one says why) before comparing; nothing
# else is.
#
#   tests/cli/run_transcripts.sh [NAME...]   run these (default: all)
#   REGEN=1 tests/cli/run_transcripts.sh     rewrite the .out files
# (UPDATE_GOLDEN=1, as for tests/integration/dryrun_golden.sh, does the
# same.) A regenerated .out is what the code printed, not yet what is
# right: read the diff (git diff tests/cli) line by line before
# committing it, the goldens are the specification.
set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
dir=$top_srcdir/tests/cli
roced=$top_builddir/roced
rocesh=$top_builddir/rocesh
regen=${REGEN:-${UPDATE_GOLDEN:-0}}
IP=/sbin/ip

if [ "$(id -u)" != 0 ]; then
	echo "SKIP: the transcripts need root (a network namespace per rig)"
	exit 77
fi
for b in "$roced" "$rocesh"; do
	[ -x "$b" ] || { echo "FAIL: $b is not built (make builds it)"; exit 1; }
done
[ -x "$IP" ] || { echo "FAIL: $IP (iproute2) is missing"; exit 1; }

. "$top_srcdir/tests/integration/lib.sh"
t_init run_transcripts
tmp=$t_tmp
ns=""
pid=""

tab=$(printf '\t')
fail=0
n=0

# rig NAME CONF: the namespace and roced. Returns non-zero after saying
# why.
rig() {
	t_netns_add ns "tr-$1" || { echo "FAIL: $1: cannot add a namespace"; return 1; }
	if [ -d /proc/sys/net/ipv6 ]; then
		t_ns_sysctl "$ns" net.ipv6.conf.all.disable_ipv6=1 \
			net.ipv6.conf.default.disable_ipv6=1 ||
			{ echo "FAIL: $1: cannot turn IPv6 off in $ns"; return 1; }
	fi
	"$IP" -n "$ns" link add swp1 type veth peer name host1 &&
		"$IP" -n "$ns" link set lo up &&
		"$IP" -n "$ns" link set swp1 up &&
		"$IP" -n "$ns" link set host1 up ||
		{ echo "FAIL: $1: cannot set up swp1/host1 in $ns"; return 1; }
	# Not through a function: the pid must be roced (ip netns exec execs it).
	t_spawn "$IP" netns exec "$ns" "$roced" -f "$2" --caps host \
		>"$tmp/roced.log" 2>&1
	pid=$t_pid
	for _ in $(seq 200); do
		"$IP" netns exec "$ns" "$rocesh" -c 'show running-config' \
			>/dev/null 2>&1 && return 0
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
	done
	echo "FAIL: $1: roced does not answer"
	cat "$tmp/roced.log"
	return 1
}

# unrig NAME: roced must have stayed up and stop cleanly; the namespace
# goes. Returns non-zero after saying why.
unrig() {
	rc=0
	if ! kill -0 "$pid" 2>/dev/null; then
		echo "FAIL: $1: roced died during the transcript"
		rc=1
	fi
	t_stop "$pid" || { echo "FAIL: $1: roced exited with $?"; rc=1; }
	pid=""
	[ "$rc" = 0 ] || cat "$tmp/roced.log"
	# A transcript's checkpoints, kept in roced's state directory.
	ino=$("$IP" netns exec "$ns" stat -L -c %i /proc/self/ns/net) &&
		rm -rf "/run/roced/roced.$ino.checkpoint"
	t_netns_del "$ns"
	ns=""
	return "$rc"
}

# send N DSCP [PCP]: N UDP frames (RoCEv2's port 4791) with that DSCP out
# of swp1, all of one size, so that the queues count exactly N packets;
# with PCP, in an 802.1Q tag (VLAN 7) of that priority, inline as a switch
# port would send it.
send() {
	command -v python3 >/dev/null ||
		{ echo "FAIL: #@send needs python3 (scripts/install-deps.sh)"; return 1; }
	"$IP" netns exec "$ns" python3 - "$@" <<'PY'
import socket, struct, sys
n, dscp = int(sys.argv[1]), int(sys.argv[2])
pcp = int(sys.argv[3]) if len(sys.argv) > 3 else -1
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind(('swp1', 0x0800 if pcp < 0 else 0x8100))
udp = struct.pack('!HHHH', 4791, 4791, 8 + 16, 0) + b'r' * 16
ip = struct.pack('!BBHHHBBH4s4s', 0x45, dscp << 2, 20 + len(udp), 0, 0, 64,
                 17, 0, bytes([192, 0, 2, 1]), bytes([192, 0, 2, 2]))
tag = b'' if pcp < 0 else struct.pack('!HH', 0x8100, pcp << 13 | 7)
eth = b'\xff' * 6 + b'\x02\x00\x00\x00\x00\x01' + tag + b'\x08\x00'
for _ in range(n):
    s.send(eth + ip + udp)
PY
}

# run NAME: one transcript on its own rig.
run() {
	name=$1
	in=$dir/$name.in
	out=$dir/$name.out
	conf=$tmp/$name.conf
	printf '# empty: the transcript configures it\n' >"$conf"
	sends=""
	while IFS= read -r l; do
		case $l in
		"#@startup "*)
			cp "$top_srcdir/${l#\#@startup }" "$conf" ||
				{ echo "FAIL: $name: $l: no such file"; return 1; }
			;;
		"#@send "*) sends="$sends${l#\#@send };" ;;
		"#@"*) echo "FAIL: $name: unknown directive $l"; return 1 ;;
		*) break ;;
		esac
	done <"$in"
	rig "$name" "$conf" || return 1
	rest=$sends
	while [ -n "$rest" ]; do
		# shellcheck disable=SC2086
		send ${rest%%;*} || { echo "FAIL: $name: #@send ${rest%%;*} failed"; return 1; }
		rest=${rest#*;}
	done
	# stderr too: in --echo everything goes to stdout, so anything on
	# stderr (a sanitizer's report) is a difference.
	# A hung rocesh ends as status 124, which the comparison shows.
	sed "s/<TAB>\$/$tab/" "$in" |
		timeout 120 "$IP" netns exec "$ns" "$rocesh" --echo \
			>"$tmp/raw" 2>&1
	echo "(rocesh exit status $?)" >>"$tmp/raw"
	unrig "$name" || return 1
	sed -f "$dir/transcript.sed" "$tmp/raw" >"$tmp/got"
	if [ "$regen" = 1 ]; then
		cp "$tmp/got" "$out"
		echo "regenerated $out: review it (git diff) before committing"
	elif [ ! -f "$out" ]; then
		echo "FAIL: $name: $out is missing (REGEN=1 writes it)"
		return 1
	elif ! cmp -s "$out" "$tmp/got"; then
		diff -u "$out" "$tmp/got"
		echo "FAIL: $name differs from its golden output"
		return 1
	else
		echo "ok: $name"
	fi
}

if [ $# -eq 0 ]; then
	for in in "$dir"/*.in; do
		set -- "$@" "$(basename "$in" .in)"
	done
fi
for name in "$@"; do
	[ -f "$dir/$name.in" ] || { echo "FAIL: no transcript $dir/$name.in"; fail=1; continue; }
	n=$((n + 1))
	run "$name" || fail=1
	# A failed run may leave its rig: clear it before the next one.
	if [ -n "$pid" ]; then
		t_stop "$pid"
		pid=""
	fi
	if [ -n "$ns" ]; then
		t_netns_del "$ns"
		ns=""
	fi
done
[ "$n" -gt 0 ] || { echo "FAIL: no transcripts in $dir"; exit 1; }
exit $fail
