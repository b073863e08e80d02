# tests/integration/nspawn_lib.sh: a minimal Debian booted with systemd
# as PID 1 in systemd-nspawn, for the tests that need a real systemd:
# systemd_pid1.sh (roced.service) and debian_pkg.sh (the .deb's
# maintainer scripts). Sourced after lib.sh (it uses t_fail, t_skip,
# t_spawn, t_defer, t_until and $t_tmp):
#   . "$top_srcdir/tests/integration/nspawn_lib.sh"
#
#   sd_need              skips the test unless the tools are there
#   sd_root DIR          the root file system, unpacked into DIR: Debian's
#                        systemd and the package of each library roced and
#                        rocesh link. Built once by mmdebstrap and kept as
#                        a tarball under the build directory
#                        (tests/systemd-root/), named after what it holds,
#                        so later runs only unpack it (a second or two) and
#                        both tests share one
#   sd_boot DIR NETNS    boots DIR with systemd as PID 1, in the network
#                        namespace NETNS; returns once the boot is done.
#                        t_cleanup powers it off if the test does not
#   ct CMD...            CMD inside the container (its namespaces, root
#                        and binaries, a clean environment)
#   sd_poweroff          powers the container off; fails the test unless
#                        systemd-nspawn exits 0
# The container's console is $t_tmp/console, shown (its tail) on failure.
#
# Why nspawn looks as it does: this machine's PID 1 is not systemd, so
# nspawn must neither register with machined nor make a scope unit
# (--register=no --keep-unit), and its runtime directory is a tmpfs of a
# private mount namespace, so nothing of it stays on the host (but the
# empty directory /run/systemd/nspawn, made when missing). The journal
# is not linked to the host's (--link-journal=no), which would need the
# host's machine ID (empty in some CI containers). The container shares
# the test's network namespace NETNS, so the host reads its ports with
# its own tc; nspawn drops CAP_NET_ADMIN from a container without a
# private network of its own, so it is given back.

sd_nspawn=""
sd_leader=""

sd_need()
{
	for _sd_c in systemd-nspawn mmdebstrap nsenter unshare flock dpkg-query; do
		command -v "$_sd_c" >/dev/null ||
			t_skip "$_sd_c is missing (scripts/install-deps.sh --test installs systemd-container, mmdebstrap, util-linux)"
	done
}

# _sd_pkg_of FILE: the Debian package that holds FILE (or its target).
_sd_pkg_of()
{
	for _sd_f in "$1" "$(readlink -f "$1")"; do
		for _sd_g in "$_sd_f" "${_sd_f#/usr}" "/usr$_sd_f"; do
			_sd_p=$(dpkg-query -S "$_sd_g" 2>/dev/null | sed -n '1s/:.*//p')
			[ -n "$_sd_p" ] && { echo "$_sd_p"; return 0; }
		done
	done
	return 1
}

sd_root()
{
	# The packages: systemd, and the one of each library the built
	# binaries link (as on this host, which is the same Debian release).
	# A package of roced built from this tree depends on those same
	# packages (dpkg-shlibdeps reads the same libraries), so this root
	# installs it as it is.
	_sd_libs=$(ldd "$roced" "$rocesh" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | sort -u)
	_sd_pkgs="systemd systemd-sysv"
	for _sd_l in $_sd_libs; do
		_sd_p=$(_sd_pkg_of "$_sd_l") || t_fail "no Debian package holds $_sd_l, which roced or rocesh links"
		_sd_pkgs="$_sd_pkgs $_sd_p"
	done
	_sd_pkgs=$(printf '%s\n' $_sd_pkgs | sort -u | paste -sd, -)
	. /etc/os-release
	_sd_suite=${VERSION_CODENAME:?no VERSION_CODENAME in /etc/os-release}
	# The host's apt sources (its mirror, updates and security), so that
	# the libraries are the versions this build linked against.
	_sd_sources=""
	for _sd_s in /etc/apt/sources.list.d/debian.sources /etc/apt/sources.list; do
		[ -s "$_sd_s" ] && grep -q "^[^#]*$_sd_suite" "$_sd_s" && { _sd_sources=$_sd_s; break; }
	done
	_sd_key=$(printf '%s %s %s\n' "$_sd_suite" "$_sd_pkgs" "$(cat "$_sd_sources" 2>/dev/null)" |
		sha256sum | cut -c1-16)
	_sd_cache=$top_builddir/tests/systemd-root
	_sd_tarball=$_sd_cache/debian-$_sd_suite-$_sd_key.tar
	mkdir -p "$_sd_cache"
	t_show_on_fail "mmdebstrap" "$t_tmp/mmdebstrap.log"
	(
		# One builder at a time; the others wait and use its tarball.
		flock 9
		if [ ! -s "$_sd_tarball" ]; then
			echo "building the root file system (once; cached as $_sd_tarball): $_sd_pkgs"
			rm -f "$_sd_cache"/debian-*.tar "$_sd_cache"/.new.*.tar
			# shellcheck disable=SC2086 # $_sd_sources is one path or nothing
			mmdebstrap --variant=apt --include="$_sd_pkgs" --skip=check/qemu \
				"$_sd_suite" "$_sd_cache/.new.$$.tar" $_sd_sources >"$t_tmp/mmdebstrap.log" 2>&1 ||
				{ rm -f "$_sd_cache/.new.$$.tar"; exit 1; }
			mv "$_sd_cache/.new.$$.tar" "$_sd_tarball"
		fi
	) 9>"$_sd_cache/.lock" || t_fail "mmdebstrap could not build the root file system"
	mkdir "$1"
	tar -C "$1" -xf "$_sd_tarball" || t_fail "cannot unpack $_sd_tarball"
}

_sd_gone() { ! _t_alive "$sd_nspawn"; }
_sd_stop()
{
	[ -n "$sd_nspawn" ] && _t_alive "$sd_nspawn" || return 0
	# nspawn turns a TERM into an orderly poweroff of the container.
	kill -TERM "$sd_nspawn" 2>/dev/null
	t_until 30 _sd_gone ||
		{ [ -n "$sd_leader" ] && kill -KILL "$sd_leader" 2>/dev/null; }
}
_sd_console_tail() { tail -n 40 "$t_tmp/console" >"$t_tmp/console.tail"; }
_sd_find_leader()
{
	sd_leader=$(ps -o pid= --ppid "$sd_nspawn" | head -n 1 | tr -d ' ')
	[ -n "$sd_leader" ] && [ "$(cat "/proc/$sd_leader/comm" 2>/dev/null)" = systemd ]
}
_sd_booted() { ct systemctl is-system-running 2>/dev/null | grep -qxE 'running|degraded'; }

ct()
{
	nsenter -t "$sd_leader" -m -u -i -n -p -C -- env -i \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		${ROCED_TEST_RUN:+ROCED_TEST_RUN=$ROCED_TEST_RUN} "$@"
}

sd_boot()
{
	t_show_on_fail "container console (tail)" "$t_tmp/console.tail"
	t_defer '_sd_stop'
	t_spawn unshare --mount --propagation private sh -c '
		mkdir -p /run/systemd/nspawn && mount -t tmpfs -o mode=0755 tmpfs /run/systemd/nspawn &&
		exec systemd-nspawn --quiet --boot --directory="$1" --machine="$2" \
			--register=no --keep-unit --console=read-only --link-journal=no \
			--network-namespace-path="/run/netns/$3" --capability=CAP_NET_ADMIN' \
		nspawn "$1" "rocedsd$$" "$2" >"$t_tmp/console" 2>&1 </dev/null
	sd_nspawn=$t_pid
	if ! t_until 60 _sd_find_leader; then
		_sd_console_tail
		grep -qi 'machine.id' "$t_tmp/console" &&
			t_skip "systemd-nspawn cannot start the container without a machine ID: $(grep -i 'machine.id' "$t_tmp/console" | head -n 1)"
		t_fail "systemd did not start in the container"
	fi
	_sd_t0=$(date +%s)
	t_until 180 _sd_booted || { _sd_console_tail; t_fail "the container did not finish booting"; }
	echo "booted: $(ct systemctl --version | head -n 1) as PID 1 in $(($(date +%s) - _sd_t0)) s, state $(ct systemctl is-system-running || true)"
}

sd_poweroff()
{
	ct systemctl poweroff >/dev/null 2>&1 || true
	t_until 120 _sd_gone || t_fail "the container did not power off"
	_sd_rc=0
	t_wait "$sd_nspawn" || _sd_rc=$?
	sd_nspawn=""
	[ "$_sd_rc" = 0 ] || { _sd_console_tail; t_fail "systemd-nspawn exited $_sd_rc"; }
	echo "poweroff: systemd-nspawn exit 0"
}
