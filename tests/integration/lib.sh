# tests/integration/lib.sh: what the suite's shell tests share; sourced,
# not run:  . "$top_srcdir/tests/integration/lib.sh"
#
# Why: a test must leave nothing behind, when it passes, fails or is
# interrupted (a whole run left four `tc monitor` processes in
# deleted namespaces; each had been started through a shell function, so
# $! was the subshell and killing it orphaned tc). Hence:
#   t_init NAME          temporary directory $t_tmp, and the traps: EXIT
#                        runs t_cleanup; INT, TERM and HUP exit (130, 143,
#                        129), which runs it too
#   t_netns_add VAR WHAT a namespace roced-WHAT-PID[-RUN], its name in VAR
#   t_netns_adopt NAME   a namespace someone else (scripts/demo.sh) makes
#   t_spawn CMD...       CMD in the background, its pid in t_pid; CMD must
#                        be a program, not a shell function (see above)
#   t_stop PID [SIG]     signal (TERM) and reap one of them; its status
#   t_wait PID           reap one that ends by itself; its status
#   t_run CMD...         CMD in the foreground, but stopped with the test
#                        (a plain foreground child outlives a TERMed sh);
#                        its stdin is /dev/null
#   t_defer 'COMMAND'    evaluated first by t_cleanup (a tmux server, a
#                        rig's own teardown)
#   t_show_on_fail LABEL FILE   printed by t_fail when FILE is not empty
#   t_fail, t_skip, t_need_root
# t_cleanup stops the spawned processes and their descendants (TERM, KILL
# after 3 s), then whatever still runs inside the test's namespaces
# (`ip netns pids`: what escaped, such as a daemon that went into the
# background), deletes the namespaces and $t_tmp, and keeps the exit status.
# It signals only processes it can tell are the test's: a recorded pid
# whose parent is still this shell (not a recycled pid), their children,
# and processes inside the test's own namespaces.
#
# Under scripts/check.sh, ROCED_TEST_RUN names the run; it ends every
# namespace name, so that the leftovers check (tests/tools/leftovers.py)
# counts this run's namespaces and not those of another engineer's run.
#
# Also here: the setup that daemon tests share (t_veth_ns, t_veth_link,
# t_conf_ports, t_conf_match_any, t_roced_*) and the host side of the
# QEMU tier's tests (t_guest).

# shellcheck disable=SC2034 # for the tests that source this
{
	IP=/sbin/ip
	TC=/sbin/tc
	: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
	: "${top_builddir:=$top_srcdir}"
	roced="$top_builddir/roced"
	rocesh="$top_builddir/rocesh"
}

t_name=${0##*/}
t_tmp=
t_pids=
t_netns=
t_defers=
t_fail_files=
t_pid=
roced_pid=

t_init()
{
	t_name=$1
	trap t_cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	trap 'exit 129' HUP
	t_tmp=$(mktemp -d "${TMPDIR:-/tmp}/roced-$1.XXXXXX") ||
		{ echo "ERROR: $1: no temporary directory"; exit 99; }
	_t_system_python
}

# The tests' python3 is Debian's (/usr/bin/python3), whatever PATH puts
# first: the modules they import are Debian packages (install-deps.sh),
# and a pyenv shim, first on root's PATH on this project's machines,
# costs 1.5 s a start at load 6 (against 0.17 s): ctl_socket started
# ~70 pythons and took 187 s. A directory holding only that python3 goes
# first on PATH, so programs the test starts (ip netns exec python3,
# #!/usr/bin/env python3) get it too.
_t_system_python()
{
	[ -x /usr/bin/python3 ] || return 0
	[ "$(command -v python3)" = /usr/bin/python3 ] && return 0
	mkdir -p "$t_tmp/.bin" && ln -s /usr/bin/python3 "$t_tmp/.bin/python3" &&
		PATH="$t_tmp/.bin:$PATH" && export PATH
}

t_fail()
{
	echo "FAIL: $*"
	printf '%s' "$t_fail_files" | while IFS='|' read -r _t_label _t_file; do
		[ -s "$_t_file" ] || continue
		echo "--- $_t_label"
		cat "$_t_file"
	done
	exit 1
}

t_skip()
{
	echo "SKIP: $*"
	exit 77
}

t_need_root()
{
	[ "$(id -u)" = 0 ] || t_skip "$t_name needs root (network namespaces)"
}

# t_need_bpf WHAT: skips, saying why, where bpf() is refused (a
# container's system call filter, no CAP_BPF): roced then cannot count
# what each port feeds and pauses every port of a bridge, which WHAT
# rules out. tests/tools/bpf-probe.py makes the calls roced makes.
t_need_bpf()
{
	_t_why=$(python3 "$top_srcdir/tests/tools/bpf-probe.py" 2>&1) ||
		t_skip "$1 needs bpf(), which this machine refuses ($_t_why); roced then pauses every port of a bridge and says so in its log"
}

# t_ns_sysctl NS KEY=VALUE...: sysctl -w in the network namespace NS (net.*
# keys are per namespace). A container may mount /proc/sys read-only
# (systemd-nspawn without a private network does); ip netns exec gives
# the command a mount namespace of its own, where a fresh proc is
# mounted then, so the write reaches NS's own values. Fails when even
# that is refused.
t_ns_sysctl()
{
	_t_ns=$1
	shift
	"$IP" netns exec "$_t_ns" sh -c \
		'sysctl -qw "$@" 2>/dev/null || { mount -t proc proc /proc && sysctl -qw "$@"; }' \
		sh "$@"
}

# t_sysctl_raise KEY VALUE: raise the machine-wide sysctl KEY to at least
# VALUE until the test ends. Tests run two at a time and several may raise
# the same key, so holders are counted under a lock (on /run itself, so
# that no lock file outlives them): the first saves the
# value it found, the last to end (or the first to find every other holder
# dead) puts it back. A key that cannot be written is left as it is and
# said and the status is 1: the caller decides whether that matters.
t_sysctl_raise()
{
	_t_k=$1 _t_v=$2
	_t_d=/run/roced-tests/sysctl.$_t_k
	mkdir -p /run/roced-tests
	(
		flock 9
		mkdir -p "$_t_d"
		[ -e "$_t_d/orig" ] || sysctl -n "$_t_k" >"$_t_d/orig"
		: >"$_t_d/holder.$$"
		[ "$(sysctl -n "$_t_k")" -ge "$_t_v" ] || sysctl -qw "$_t_k=$_t_v" 2>/dev/null
	) 9</run && _t_raised=1 || _t_raised=
	t_defer "_t_sysctl_drop $_t_k $$"
	[ -n "$_t_raised" ] && return 0
	echo "note: cannot raise $_t_k to $_t_v here (a container may refuse it): left at $(sysctl -n "$_t_k" 2>/dev/null)"
	return 1
}

_t_sysctl_drop()
{
	_t_d=/run/roced-tests/sysctl.$1
	(
		flock 9
		rm -f "$_t_d/holder.$2"
		for _t_h in "$_t_d"/holder.*; do
			[ -e "$_t_h" ] || continue
			kill -0 "${_t_h##*.}" 2>/dev/null || rm -f "$_t_h"
		done
		if ! ls "$_t_d"/holder.* >/dev/null 2>&1; then
			[ -s "$_t_d/orig" ] && sysctl -qw "$1=$(cat "$_t_d/orig")"
			rm -rf "$_t_d"
		fi
	) 9</run
	rmdir /run/roced-tests 2>/dev/null || true
}

# t_guard_pid PID: the pid of roced PID's guard (daemon/core/guard.h),
# the child that releases its holds if it dies; fails when it has none.
t_guard_pid()
{
	_t_g=$(ps -o pid=,comm= --ppid "$1" | awk '$2 == "roced-guard" { print $1; exit }')
	[ -n "$_t_g" ] && echo "$_t_g"
}

t_show_on_fail()
{
	t_fail_files="$t_fail_files$1|$2
"
}

t_defer()
{
	t_defers="$t_defers$1
"
}

t_netns_add()
{
	_t_ns="roced-$2-$$${ROCED_TEST_RUN:+-$ROCED_TEST_RUN}"
	"$IP" netns add "$_t_ns" || { echo "$t_name: cannot create namespace $_t_ns"; return 1; }
	t_netns="$t_netns $_t_ns"
	eval "$1=\$_t_ns"
}

t_netns_adopt()
{
	t_netns="$t_netns $1"
}

# _t_ns_gone NS: delete NS and the MTUs roced kept to give back to its
# links, its watchdog's storm state and its checkpoints (roced(8),
# FILES): they outlive roced on purpose, but the namespace and its links
# go, so they go too.
_t_ns_gone()
{
	_t_ino=$(stat -L -c %i "/run/netns/$1" 2>/dev/null)
	# .pfcwd: the PFC watchdog's storm state (roced(8), FILES), kept
	# across restarts like the MTUs; .checkpoint: the checkpoints. The
	# kernel gives the inode to the next namespace made: its roced must
	# find nothing of this one's (it tells by the namespace's cookie,
	# but a test leaves nothing behind either way).
	if [ -n "$_t_ino" ]; then
		rm -rf "/run/roced/roced.$_t_ino.mtu" "/run/roced/roced.$_t_ino.pfcwd" \
			"/run/roced/roced.$_t_ino.checkpoint"
	fi
	"$IP" netns del "$1"
}

# t_netns_del NS: delete one of the test's namespaces early (what ran in
# it is stopped first, as at the end).
t_netns_del()
{
	_t_kill_wait "$("$IP" netns pids "$1" 2>/dev/null)"
	_t_ns_gone "$1" || return 1
	_t_rest=
	for _t_n in $t_netns; do
		[ "$_t_n" = "$1" ] || _t_rest="$_t_rest $_t_n"
	done
	t_netns=$_t_rest
}

t_spawn()
{
	"$@" &
	t_pid=$!
	t_pids="$t_pids $t_pid"
}

# (The pid stays recorded until wait returns: a TERM that interrupts the
# wait must still find it to stop.)
t_wait()
{
	_t_ws=0
	wait "$1" || _t_ws=$?
	_t_drop "$1"
	return $_t_ws
}

t_stop()
{
	_t_ours "$1" && kill "-${2:-TERM}" "$1" 2>/dev/null
	t_wait "$1"
}

t_run()
{
	t_spawn "$@"
	t_wait "$t_pid"
}

# _t_ours PID: PID is still a child of this shell (so not a recycled pid).
_t_ours()
{
	[ "$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f2)" = "$$" ]
}

# _t_alive PID: PID runs (a zombie does not count).
_t_alive()
{
	_t_st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1)
	[ -n "$_t_st" ] && [ "$_t_st" != Z ]
}

_t_drop()
{
	_t_rest=
	for _t_p in $t_pids; do
		[ "$_t_p" = "$1" ] || _t_rest="$_t_rest $_t_p"
	done
	t_pids=$_t_rest
}

# _t_descendants PID...: the PIDs' descendants, from one ps snapshot.
_t_descendants()
{
	# shellcheck disable=SC2009 # ps is the one tool that lists parents
	ps -e -o pid= -o ppid= | awk -v roots="$*" '
		BEGIN { n = split(roots, r, " "); for (i = 1; i <= n; i++) want[r[i]] = 1 }
		{ parent[$1] = $2 }
		END {
			do {
				more = 0
				for (p in parent)
					if (!(p in want) && (parent[p] in want)) { want[p] = 1; more = 1; print p }
			} while (more)
		}'
}

# _t_kill_wait "PID...": TERM, up to 3 s to go, then KILL.
_t_kill_wait()
{
	[ -n "$1" ] || return 0
	# shellcheck disable=SC2086
	kill -TERM $1 2>/dev/null
	for _ in $(seq 30); do
		_t_left=
		for _t_p in $1; do _t_alive "$_t_p" && _t_left="$_t_left $_t_p"; done
		[ -n "$_t_left" ] || return 0
		sleep 0.1
	done
	echo "$t_name: cleanup: killing$_t_left with SIGKILL"
	# shellcheck disable=SC2086
	kill -KILL $_t_left 2>/dev/null
}

t_cleanup()
{
	_t_rc=$?
	set +e
	trap '' INT TERM HUP
	if [ -n "$t_defers" ]; then
		printf '%s' "$t_defers" | while IFS= read -r _t_cmd; do
			eval "$_t_cmd"
		done
	fi
	_t_mine=
	for _t_p in $t_pids; do _t_ours "$_t_p" && _t_mine="$_t_mine $_t_p"; done
	if [ -n "$_t_mine" ]; then
		# shellcheck disable=SC2086 # a list of pids
		_t_kill_wait "$_t_mine $(_t_descendants $_t_mine)"
		# shellcheck disable=SC2086
		wait $_t_mine 2>/dev/null
	fi
	t_pids=
	for _t_n in $t_netns; do
		_t_kill_wait "$("$IP" netns pids "$_t_n" 2>/dev/null)"
		_t_ns_gone "$_t_n" 2>/dev/null
	done
	t_netns=
	[ -n "$t_tmp" ] && rm -rf "$t_tmp"
	exit "$_t_rc"
}

# --- roced as a daemon (daemon_events.sh, daemon_mirror.sh, daemon_repair.sh) ---

# t_until SECS COMMAND...: poll COMMAND (its output discarded) every
# 0.1 s until it succeeds, for up to SECS seconds; fails (1) when it never
# did. A wait for a state, not a timing assertion: give it slack.
t_until()
{
	_t_u=$(($1 * 10))
	shift
	while [ "$_t_u" -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.1
		_t_u=$((_t_u - 1))
	done
	return 1
}

# t_veth_ns VAR TAG PORT PEER: the one-namespace rig of the LLDP/DCBX
# tests: a namespace (its name in VAR, as t_netns_add) with lo and the
# veth pair PORT-PEER up in it (roced on PORT, a peer tool on PEER);
# t_mac is PORT's MAC address, t_peer_mac PEER's.
t_veth_ns()
{
	t_netns_add "$1" "$2" || return 1
	_t_vns=$_t_ns
	"$IP" -n "$_t_vns" link set lo up
	"$IP" -n "$_t_vns" link add "$3" type veth peer name "$4"
	"$IP" -n "$_t_vns" link set "$3" up
	"$IP" -n "$_t_vns" link set "$4" up
	t_mac=$("$IP" netns exec "$_t_vns" cat "/sys/class/net/$3/address")
	t_peer_mac=$("$IP" netns exec "$_t_vns" cat "/sys/class/net/$4/address")
}

# t_veth_link VAR1 TAG1 PORT1 VAR2 TAG2 PORT2: the two-namespace rig (a
# switch and a host, say): two namespaces (names in VAR1 and VAR2) with
# lo up, linked by the veth pair PORT1 (in the first) - PORT2, both up.
t_veth_link()
{
	t_netns_add "$1" "$2" || return 1
	_t_vn1=$_t_ns
	t_netns_add "$4" "$5" || return 1
	_t_vn2=$_t_ns
	"$IP" -n "$_t_vn1" link add "$3" type veth peer name "$6" netns "$_t_vn2"
	for _t_l in lo "$3"; do "$IP" -n "$_t_vn1" link set "$_t_l" up; done
	for _t_l in lo "$6"; do "$IP" -n "$_t_vn2" link set "$_t_l" up; done
}

# t_guest NAME SCRIPT [ARGS...]: a fullkernel test's host side: boot the
# QEMU full-kernel guest (tests/rig/qemu/run-guest.sh) and run SCRIPT (the
# test itself) inside it, as a child waited for, so that a TERM to the test
# reaches run-guest.sh, whose trap stops QEMU; print the boot-to-result
# time (host wall clock) and exit with the guest's status (77: QEMU or the
# distro kernel is missing).
t_guest()
{
	t_init "$1"
	shift
	_t_g0=$(date +%s.%N)
	_t_grc=0
	t_run "$top_srcdir/tests/rig/qemu/run-guest.sh" "$@" || _t_grc=$?
	_t_g1=$(date +%s.%N)
	[ $_t_grc -eq 77 ] && exit 77
	awk -v n="$t_name" -v a="$_t_g0" -v b="$_t_g1" 'BEGIN {
		printf "%s: boot to result %.1f s (host wall clock)\n", n, b - a }'
	exit $_t_grc
}

# t_conf_ports OUT PORT...: conf/roced.conf with its one interface block
# repeated for each PORT (swpN gets the alias Ethernet1/N).
t_conf_ports()
{
	_t_conf_repeat "$top_srcdir/conf/roced.conf" swp1 "$@"
}

# t_conf_host_ports OUT PORT...: conf/roced-host.conf with its one
# interface block (eth0) repeated for each PORT: several hosts' ports
# under one roced (a rig whose hosts share a namespace).
t_conf_host_ports()
{
	_t_conf_repeat "$top_srcdir/conf/roced-host.conf" eth0 "$@"
}

# _t_conf_repeat SRC NAME OUT PORT...: SRC with its one interface block,
# that of port NAME, repeated for each PORT (an alias Ethernet1/1 in it
# becomes Ethernet1/N for the digits N of PORT).
_t_conf_repeat()
{
	python3 - "$@" <<'PY'
import re, sys
src, name, out, ports = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
s = open(src).read()
i0 = s.index('interface = (')
b0 = s.index('{', i0)
b1 = s.index('\n\t}\n', b0) + 3
blk = s[b0:b1]
assert '"%s"' % name in blk, 'the shipped interface block changed'
blks = [blk.replace('"%s"' % name, '"%s"' % p)
           .replace('"Ethernet1/1"', '"Ethernet1/%s"' % re.sub(r'\D', '', p)).strip()
        for p in ports]
open(out, 'w').write(s[:b0] + ',\n\t'.join(blks) + '\n' + s[b1:])
PY
}

# t_conf_match_any FILE: ROCE_CLASS (cos 3, dscp 26) as match-any in
# FILE, for rigs whose RoCE traffic is untagged IP from the kernel's
# stack (this kernel has no 8021q to tag it): match-all also wants CoS 3,
# which only a VLAN tag carries, as NX-OS (and roced's classifiers,
# flower or cls_bpf) reads it. The shipped file is match-any already;
# this keeps the rigs holding if it ever changes back.
t_conf_match_any()
{
	sed -i 's/{ name = "ROCE_CLASS"; match = "all"; cos = 3; dscp = 26; }/{ name = "ROCE_CLASS"; match = "any"; cos = 3; dscp = 26; }/' "$1"
	grep -q 'name = "ROCE_CLASS"; match = "any"' "$1" ||
		t_fail "the shipped ROCE_CLASS changed: cannot make it match-any"
}

# t_roced_start NS CONF PATTERN [ARGS...]: roced -f CONF ARGS as a daemon
# in NS, logging to $t_tmp/log, its pid in roced_pid; waits up to 30 s (a
# loaded machine) for a log line matching PATTERN (grep's basic regex).
t_roced_start()
{
	_t_ns=$1 _t_conf=$2 _t_want=$3
	shift 3
	# (once, for a test that starts roced again)
	case "$t_fail_files" in
	*"|$t_tmp/log
"*) ;;
	*) t_show_on_fail "roced log" "$t_tmp/log" ;;
	esac
	# ip netns exec execs roced: the pid is roced's.
	t_spawn "$IP" netns exec "$_t_ns" "$roced" -f "$_t_conf" "$@" >"$t_tmp/log" 2>&1
	roced_pid=$t_pid
	for _ in $(seq 600); do
		grep -q -- "$_t_want" "$t_tmp/log" && return 0
		_t_alive "$roced_pid" || t_fail "roced exited before logging /$_t_want/"
		sleep 0.05
	done
	t_fail "roced did not log /$_t_want/ within 30 s"
}

# t_roced_signal SIG PATTERN: send SIG to roced and wait up to 10 s for one
# more log line matching PATTERN; the log lines of that wait go to
# $t_tmp/pass.
t_roced_signal()
{
	_t_n0=$(grep -c -- "$2" "$t_tmp/log" || true)
	_t_l0=$(wc -l <"$t_tmp/log")
	kill "-$1" "$roced_pid"
	for _ in $(seq 500); do
		[ "$(grep -c -- "$2" "$t_tmp/log")" -gt "$_t_n0" ] && break
		sleep 0.02
	done
	tail -n +$((_t_l0 + 1)) "$t_tmp/log" >"$t_tmp/pass"
	grep -q -- "$2" "$t_tmp/pass" || t_fail "no /$2/ in the log after SIG$1"
}

# t_roced_stop: SIGTERM, and roced must exit 0.
t_roced_stop()
{
	t_stop "$roced_pid" TERM || t_fail "roced exited with an error on SIGTERM"
	roced_pid=
}
