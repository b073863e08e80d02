# Helpers for scripts that run inside the QEMU guest (ROCED_GUEST=1);
# sourced, not run. Also usable on any host whose kernel has the features.
#
# Conventions: every namespace a script creates is registered with
# fk_netns_add and removed by fk_cleanup (installed as the EXIT trap by
# fk_init); fk_fail prints a loud FAIL line and exits 1; fk_check records a
# failure and goes on, so that one run reports every broken assertion, and
# fk_finish exits 1 if any was recorded.
#
# Interface names: never a bare "a", "b", ...: ip(8) reads a lone "a" as
# an abbreviation of "address".

fk_netns_list=
fk_failures=0

# Messages carry the guest's uptime: under TCG, where the time goes is
# worth seeing.
fk_log()
{
	printf '%s: [%6s] %s\n' "${fk_name:-fullkernel}" "$(fk_uptime)" "$*"
}

fk_fail()
{
	printf '%s: FAIL: %s\n' "${fk_name:-fullkernel}" "$*"
	exit 1
}

# fk_check DESCRIPTION COMMAND...: run COMMAND; report and count a failure.
fk_check()
{
	_fk_what=$1
	shift
	if "$@"; then
		fk_log "ok: $_fk_what"
	else
		printf '%s: FAIL: %s\n' "${fk_name:-fullkernel}" "$_fk_what"
		fk_failures=$((fk_failures + 1))
	fi
}

fk_finish()
{
	if [ "$fk_failures" -ne 0 ]; then
		fk_log "$fk_failures check(s) failed"
		exit 1
	fi
	fk_log "all checks passed"
	exit 0
}

fk_cleanup()
{
	for _fk_ns in $fk_netns_list; do
		ip netns del "$_fk_ns" 2>/dev/null || true
	done
	fk_netns_list=
}

# fk_init NAME: name the script in messages, install the cleanup trap.
fk_init()
{
	fk_name=$1
	trap fk_cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM HUP
	# The guest runs the host's tools: one missing there is a skip.
	for _fk_tool in ip tc jq python3; do
		command -v "$_fk_tool" >/dev/null 2>&1 && continue
		echo "SKIP: $_fk_tool is not installed on the host (the guest runs the host's tools)"
		exit 77
	done
}

# fk_roced_init NAME: fk_init NAME and what a guest test of roced's
# daemon shares: $top_srcdir and $top_builddir (from the caller's $here,
# its directory, when not given), $roced and $rocesh (failing when they
# are not built), a temporary directory $tmp and $pid, the daemon the
# test starts; on exit the daemon is stopped, $tmp removed and the
# namespaces deleted.
fk_roced_init()
{
	fk_init "$1"
	top_srcdir=${top_srcdir:-$(cd "$here/../.." && pwd)}
	top_builddir=${top_builddir:-$top_srcdir}
	roced=$top_builddir/roced
	rocesh=$top_builddir/rocesh
	[ -x "$roced" ] && [ -x "$rocesh" ] ||
		fk_fail "roced or rocesh not built in $top_builddir"
	tmp=$(mktemp -d "/tmp/fk-$1.XXXXXX")
	pid=
	trap _fk_roced_cleanup EXIT
}

_fk_roced_cleanup()
{
	[ -z "$pid" ] || { kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true; }
	rm -rf "$tmp"
	fk_cleanup
}

# fk_uptime: seconds since the guest booted.
fk_uptime()
{
	cut -d' ' -f1 /proc/uptime
}

# fk_netns_add NS: create NS without IPv6 (router solicitations and MLD
# reports would add packets to the counters the tests read).
fk_netns_add()
{
	ip netns add "$1" || fk_fail "cannot create netns $1"
	fk_netns_list="$fk_netns_list $1"
	ip netns exec "$1" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
		net.ipv6.conf.default.disable_ipv6=1 >/dev/null 2>&1 || true
	ip -n "$1" link set lo up
}

# fk_veth NS1 IF1 NS2 IF2: a veth pair with both ends up. Eight tx queues so
# that mqprio can be tried on it too.
fk_veth()
{
	ip -n "$1" link add "$2" numtxqueues 8 numrxqueues 8 type veth \
		peer name "$4" numtxqueues 8 numrxqueues 8 netns "$3" ||
		fk_fail "cannot create veth $1/$2 - $3/$4"
	ip -n "$1" link set "$2" up
	ip -n "$3" link set "$4" up
}

fk_mac()
{
	ip -n "$1" -j link show dev "$2" | jq -r '.[0].address'
}

# fk_send NS DST COUNT TOS PRIORITY: COUNT UDP datagrams to DST:4791 (the
# RoCEv2 port) with the given TOS byte and socket priority.
fk_send()
{
	ip netns exec "$1" python3 -S -E - "$2" "$3" "$4" "$5" <<'PY' ||
import socket, sys
dst, count, tos, prio = sys.argv[1], int(sys.argv[2]), int(sys.argv[3], 0), int(sys.argv[4])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.IPPROTO_IP, socket.IP_TOS, tos)
s.setsockopt(socket.SOL_SOCKET, socket.SO_PRIORITY, prio)
for _ in range(count):
    s.sendto(b"roced" * 20, (dst, 4791))
PY
		fk_fail "sending $3 packets from $1 to $2 failed"
}

# fk_jq JSON PROGRAM [jq args...]: print the result of PROGRAM on JSON.
fk_jq()
{
	_fk_json=$1
	shift
	printf '%s\n' "$_fk_json" | jq -r "$@"
}

# fk_assert_empty WHAT TEXT: TEXT is a list of problems, one per line;
# print each as a failure.
fk_assert_empty()
{
	if [ -z "$2" ]; then
		fk_log "ok: $1"
		return 0
	fi
	printf '%s\n' "$2" | while IFS= read -r _fk_line; do
		printf '%s: FAIL: %s: %s\n' "${fk_name:-fullkernel}" "$1" "$_fk_line"
	done
	fk_failures=$((fk_failures + 1))
	return 1
}
