#!/bin/sh
# systemd_pid1.sh: roced.service under a real systemd as PID 1 (issue 11).
#
# systemd_unit.sh checks the unit's text and runs roced with its
# privileges by hand; this test boots a minimal Debian root (Debian's own
# packages: systemd and the libraries roced and rocesh link) with systemd
# as PID 1 in systemd-nspawn, installs this build into it with
# `make install DESTDIR=`, and drives the unit through systemctl:
#   1. start: systemctl returns once roced said READY=1 (Type=notify);
#      STATUS= text; swp1, a veth in the container, holds exactly roced's
#      plan (so the unit's sandboxing still lets roced program ports); the
#      main process has CAP_NET_ADMIN+CAP_NET_RAW, no_new_privs, seccomp;
#   2. reload with a good file: systemctl reload succeeds, the change is
#      in the kernel;
#   3. reload with a broken file: systemctl reload FAILS, the journal has
#      each FILE:LINE error, roced keeps running its old configuration;
#   4. kill -9: systemd restarts roced, which finds the ports right (0
#      writes in its STATUS=);
#   5. SIGSTOP: the watchdog (WatchdogSec=) kills and restarts it;
#   6. stop: clean exit, kernel state left in place (roced(8));
# then powers the container off.
#
# The root file system is built once by mmdebstrap and kept as a tarball
# under the build directory (tests/systemd-root/), named after what it
# holds, so later runs only unpack it (a second or two). Needs root,
# systemd-nspawn (systemd-container), mmdebstrap and nsenter/unshare
# (util-linux); scripts/install-deps.sh --test installs them.
#
# Why nspawn looks as it does: this machine's PID 1 is not systemd, so
# nspawn must neither register with machined nor make a scope unit
# (--register=no --keep-unit), and its runtime directory is a tmpfs of a
# private mount namespace, so nothing of it stays on the host (but the
# empty directory /run/systemd/nspawn, made when missing). The
# container shares a network namespace of the test's (where swp1 is),
# so the host reads swp1 with its own tc; nspawn drops CAP_NET_ADMIN from
# a container without a private network of its own, so it is given back.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
. "$top_srcdir/tests/integration/plan_lib.sh"
t_init systemd_pid1
t_need_root
for c in systemd-nspawn mmdebstrap nsenter unshare flock dpkg-query; do
	command -v "$c" >/dev/null ||
		t_skip "$c is missing (scripts/install-deps.sh --test installs systemd-container, mmdebstrap, util-linux)"
done
tmp=$t_tmp
root=$tmp/root
nspawn=""
leader=""


# --- the root file system -------------------------------------------------
# The packages: systemd, and the one of each library the installed
# binaries link (as on this host, which is the same Debian release).
pkg_of()
{
	for _f in "$1" "$(readlink -f "$1")"; do
		for _g in "$_f" "${_f#/usr}" "/usr$_f"; do
			_p=$(dpkg-query -S "$_g" 2>/dev/null | sed -n '1s/:.*//p')
			[ -n "$_p" ] && { echo "$_p"; return 0; }
		done
	done
	return 1
}
libs=$(ldd "$roced" "$rocesh" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | sort -u)
pkgs="systemd systemd-sysv"
for l in $libs; do
	p=$(pkg_of "$l") || t_fail "no Debian package holds $l, which roced or rocesh links"
	pkgs="$pkgs $p"
done
pkgs=$(printf '%s\n' $pkgs | sort -u | paste -sd, -)
. /etc/os-release
suite=${VERSION_CODENAME:?no VERSION_CODENAME in /etc/os-release}
# The host's apt sources (its mirror, updates and security), so that the
# libraries are the versions this build linked against.
sources=""
for s in /etc/apt/sources.list.d/debian.sources /etc/apt/sources.list; do
	[ -s "$s" ] && grep -q "^[^#]*$suite" "$s" && { sources=$s; break; }
done
key=$(printf '%s %s %s\n' "$suite" "$pkgs" "$(cat "$sources" 2>/dev/null)" | sha256sum | cut -c1-16)
cache=$top_builddir/tests/systemd-root
tarball=$cache/debian-$suite-$key.tar
mkdir -p "$cache"
t_show_on_fail "mmdebstrap" "$tmp/mmdebstrap.log"
(
	# One builder at a time; the others wait and use its tarball.
	flock 9
	if [ ! -s "$tarball" ]; then
		echo "building the root file system (once; cached as $tarball): $pkgs"
		rm -f "$cache"/debian-*.tar "$cache"/.new.*.tar
		# shellcheck disable=SC2086 # $sources is one path or nothing
		mmdebstrap --variant=apt --include="$pkgs" --skip=check/qemu \
			"$suite" "$cache/.new.$$.tar" $sources >"$tmp/mmdebstrap.log" 2>&1 ||
			{ rm -f "$cache/.new.$$.tar"; exit 1; }
		mv "$cache/.new.$$.tar" "$tarball"
	fi
) 9>"$cache/.lock" || t_fail "mmdebstrap could not build the root file system"
mkdir "$root"
tar -C "$root" -xf "$tarball" || t_fail "cannot unpack $tarball"

# --- roced installed into it ------------------------------------------------
mkvar()
{
	printf 'pkg-print-var:\n\t@echo $(%s)\n' "$1" |
		env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
			make -s --no-print-directory -C "$top_builddir" -f Makefile -f - pkg-print-var
}
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$top_builddir" install DESTDIR="$root" \
	>"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; t_fail "make install DESTDIR=$root"; }
sysconfdir=$(mkvar sysconfdir)
unitdir=$(mkvar systemdsystemunitdir)
conf=$sysconfdir/roced/roced.conf
[ -f "$root$unitdir/roced.service" ] || t_fail "make install put no roced.service in $unitdir"
[ -f "$root$conf" ] || t_fail "make install put no $conf"
cp "$root$conf" "$tmp/good.conf"
if ldd "$roced" | grep -q libasan; then
	# A sanitizer build: LeakSanitizer stops the process with ptrace at
	# exit, which the unit's SystemCallFilter= refuses, and would fail
	# every clean stop. Only the leak check is off; ASan and UBSan stay.
	mkdir -p "$root/etc/systemd/system/roced.service.d"
	printf '[Service]\nEnvironment=ASAN_OPTIONS=detect_leaks=0\n' \
		>"$root/etc/systemd/system/roced.service.d/sanitizers.conf"
	echo "sanitizer build: leak checks off in the container (ptrace is not in @system-service)"
fi

# --- the port, and systemd as PID 1 -----------------------------------------
t_netns_add ns sd
"$IP" -n "$ns" link set lo up
"$IP" -n "$ns" link add swp1 type veth peer name h1
"$IP" -n "$ns" link set swp1 up
"$IP" -n "$ns" link set h1 up
tp_plan "$tmp/good.conf" swp1

t_show_on_fail "container console (tail)" "$tmp/console.tail"
t_defer 'stop_container'
nspawn_gone() { ! _t_alive "$nspawn"; }
stop_container()
{
	[ -n "$nspawn" ] && _t_alive "$nspawn" || return 0
	# nspawn turns a TERM into an orderly poweroff of the container.
	kill -TERM "$nspawn" 2>/dev/null
	t_until 30 nspawn_gone ||
		{ [ -n "$leader" ] && kill -KILL "$leader" 2>/dev/null; }
}
t_spawn unshare --mount --propagation private sh -c '
	mkdir -p /run/systemd/nspawn && mount -t tmpfs -o mode=0755 tmpfs /run/systemd/nspawn &&
	exec systemd-nspawn --quiet --boot --directory="$1" --machine="$2" \
		--register=no --keep-unit --console=read-only \
		--network-namespace-path="/run/netns/$3" --capability=CAP_NET_ADMIN' \
	nspawn "$root" "rocedsd$$" "$ns" >"$tmp/console" 2>&1 </dev/null
nspawn=$t_pid
console_tail() { tail -n 40 "$tmp/console" >"$tmp/console.tail"; }
find_leader()
{
	leader=$(ps -o pid= --ppid "$nspawn" | head -n 1 | tr -d ' ')
	[ -n "$leader" ] && [ "$(cat "/proc/$leader/comm" 2>/dev/null)" = systemd ]
}
t_until 60 find_leader || { console_tail; t_fail "systemd did not start in the container"; }
# Commands run inside: the container's namespaces, root and binaries.
ct()
{
	nsenter -t "$leader" -m -u -i -n -p -C -- env -i \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		${ROCED_TEST_RUN:+ROCED_TEST_RUN=$ROCED_TEST_RUN} "$@"
}
booted() { ct systemctl is-system-running 2>/dev/null | grep -qxE 'running|degraded'; }
t0=$(date +%s)
t_until 180 booted || { console_tail; t_fail "the container did not finish booting"; }
echo "booted: $(ct systemctl --version | head -n 1) as PID 1 in $(($(date +%s) - t0)) s, state $(ct systemctl is-system-running || true)"

prop() { ct systemctl show -P "$1" roced.service; }
journal() { ct journalctl -u roced.service -o cat --no-pager >"$tmp/journal" 2>&1 || true; }
t_show_on_fail "journal of roced.service" "$tmp/journal"
plan_ok()
{
	bad=$(tp_check "$ns" swp1)
	[ -z "$bad" ] && return 0
	cat "$t_tmp/tp.diff.swp1"
	return 1
}
mtu() { "$IP" -n "$ns" -j link show dev swp1 | python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["mtu"])'; }
restarted()
{
	[ "$(prop NRestarts)" = "$1" ] && [ "$(prop ActiveState)" = active ] &&
		[ "$(prop SubState)" = running ] && [ "$(prop MainPID)" != "$2" ]
}

# 1. start: systemctl returns after READY=1
ct timeout 120 systemctl start roced.service >"$tmp/start" 2>&1 ||
	{ journal; cat "$tmp/start"; t_fail "systemctl start roced failed"; }
journal
[ "$(prop ActiveState)/$(prop SubState)" = active/running ] ||
	t_fail "after start: $(prop ActiveState)/$(prop SubState)"
status=$(prop StatusText)
echo "$status" | grep -qE '^1 port, [0-9]+ writes' || t_fail "STATUS= says '$status'"
grep -q 'Started roced.service' "$tmp/journal" || t_fail "no 'Started' in the journal"
plan_ok || t_fail "after start, swp1 does not hold roced's plan"
pid=$(prop MainPID)
ct cat "/proc/$pid/status" >"$tmp/status"
grep -qE '^CapEff:[[:space:]]*0*3000$' "$tmp/status" ||
	t_fail "roced runs with $(grep CapEff "$tmp/status"), not CAP_NET_ADMIN+CAP_NET_RAW"
grep -qE '^NoNewPrivs:[[:space:]]*1$' "$tmp/status" || t_fail "roced runs without no_new_privs"
grep -qE '^Seccomp:[[:space:]]*2$' "$tmp/status" || t_fail "roced runs without its seccomp filter"
echo "start: READY, STATUS='$status', swp1 holds the plan ($(tp_summary swp1)), CapEff 3000, no_new_privs, seccomp"
ct rocesh -c 'show queuing interface' >"$tmp/show" 2>&1 || t_fail "rocesh in the container: $(cat "$tmp/show")"
grep -q 'Egress Queuing for .*(swp1)' "$tmp/show" || t_fail "rocesh show: $(cat "$tmp/show")"
echo "rocesh in the container reaches roced"

# 2. reload, a good file (written then renamed, as roced(8) says to edit)
sed 's/mtu = 9216;/mtu = 9000;/' "$tmp/good.conf" >"$root$conf.new"
mv "$root$conf.new" "$root$conf"
ct timeout 120 systemctl reload roced.service >"$tmp/reload" 2>&1 ||
	{ journal; cat "$tmp/reload"; t_fail "systemctl reload of a good file failed"; }
[ "$(mtu)" = 9000 ] || t_fail "after the reload swp1 has MTU $(mtu), not 9000"
[ "$(prop MainPID)" = "$pid" ] || t_fail "the reload restarted roced"
journal
grep -q "Reloaded $conf" "$tmp/journal" || t_fail "the journal does not say 'Reloaded $conf'"
echo "reload (good file): systemctl reload exit 0, swp1 MTU 9000"

# 3. reload, a broken file: two errors, each at its FILE:LINE
cp "$root$conf" "$tmp/good9000.conf"
line=$(grep -n 'mtu = 9000;' "$tmp/good9000.conf" | head -n 1 | cut -d: -f1)
{ sed 's/mtu = 9000;/mtu = 99999;/' "$tmp/good9000.conf"; echo 'bogus = 1;'; } >"$root$conf.new"
last=$(wc -l <"$root$conf.new")
mv "$root$conf.new" "$root$conf"
rc=0
ct timeout 120 systemctl reload roced.service >"$tmp/reload" 2>&1 || rc=$?
journal
[ "$rc" != 0 ] || t_fail "systemctl reload of a broken file succeeded"
grep -q "^$conf:$line: error: " "$tmp/journal" || t_fail "the journal lacks the error at $conf:$line"
grep -q "^$conf:$last: error: " "$tmp/journal" || t_fail "the journal lacks the error at $conf:$last"
[ "$(prop ActiveState)/$(prop MainPID)" = "active/$pid" ] ||
	t_fail "a refused reload left roced $(prop ActiveState), main pid $(prop MainPID) (was $pid)"
[ "$(mtu)" = 9000 ] || t_fail "a refused reload changed swp1's MTU to $(mtu)"
echo "reload (broken file): systemctl reload exit $rc, the journal says:"
grep "^$conf:[0-9]*: error: " "$tmp/journal" | sed 's/^/  /'
cp "$tmp/good.conf" "$root$conf.new"
mv "$root$conf.new" "$root$conf"
ct timeout 120 systemctl reload roced.service >"$tmp/reload" 2>&1 ||
	t_fail "systemctl reload of the shipped file failed: $(cat "$tmp/reload")"
plan_ok || t_fail "after reloading the shipped file, swp1 does not hold the plan"

# 4. kill -9: restarted (Restart=on-failure), and the new roced finds
#    nothing to write
ct sh -c 'kill -KILL "$1"' sh "$pid"
t_until 120 restarted 1 "$pid" || { journal; t_fail "roced was not restarted after kill -9"; }
status=$(prop StatusText)
echo "$status" | grep -qE '^1 port, 0 writes' || t_fail "after kill -9 the new roced says '$status'"
plan_ok || t_fail "after kill -9, swp1 does not hold the plan"
journal
grep -q 'status=9/KILL' "$tmp/journal" || t_fail "the journal does not tell the kill"
pid2=$(prop MainPID)
echo "kill -9: restarted (NRestarts=1), STATUS='$status'"

# 5. SIGSTOP: no WATCHDOG=1 any more; systemd aborts and restarts it
wd=$(prop WatchdogUSec)
t1=$(date +%s)
ct sh -c 'kill -STOP "$1"' sh "$pid2"
t_until 300 restarted 2 "$pid2" || { journal; t_fail "roced was not restarted by the watchdog ($wd)"; }
journal
grep -q 'Watchdog timeout' "$tmp/journal" || t_fail "the journal does not tell the watchdog timeout"
status=$(prop StatusText)
echo "$status" | grep -qE '^1 port, 0 writes' || t_fail "after the watchdog restart roced says '$status'"
plan_ok || t_fail "after the watchdog restart, swp1 does not hold the plan"
echo "SIGSTOP: watchdog ($wd) timeout, restarted after $(($(date +%s) - t1)) s, STATUS='$status'"

# 6. stop: a clean exit; roced leaves the kernel state in place
ct timeout 120 systemctl stop roced.service >"$tmp/stop" 2>&1 ||
	t_fail "systemctl stop failed: $(cat "$tmp/stop")"
[ "$(prop ActiveState)/$(prop Result)" = inactive/success ] ||
	t_fail "after stop: $(prop ActiveState), result $(prop Result)"
plan_ok || t_fail "roced's stop changed swp1"
echo "stop: inactive, result success, swp1 kept"

# The container powers off by itself.
ct systemctl poweroff >/dev/null 2>&1 || true
t_until 120 nspawn_gone ||
	t_fail "the container did not power off"
rc=0
t_wait "$nspawn" || rc=$?
nspawn=""
[ "$rc" = 0 ] || { console_tail; t_fail "systemd-nspawn exited $rc"; }
echo "poweroff: systemd-nspawn exit 0"
echo "PASS: systemd_pid1"
