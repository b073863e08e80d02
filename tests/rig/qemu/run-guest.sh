#!/bin/sh
# run-guest.sh SCRIPT [ARGS...]
#
# Boot the distro kernel under QEMU (TCG), with the host's root filesystem
# mounted read-only as the guest's root, run SCRIPT ARGS inside as root,
# print what it wrote to stdout/stderr and exit with its exit code.
#
# Exit 77 (automake's "skip") with the reason when QEMU, the guest kernel or
# a static busybox is missing; 99 (automake's "hard error") when the guest
# itself broke (no result, timeout), with the tail of its console.
#
# Environment:
#   ROCED_QEMU_TIMEOUT  seconds before the guest is killed (default 300)
#   ROCED_QEMU_BOOT_TIMEOUT  seconds for the guest to reach the script
#                       before it is killed and booted once more (240)
#   ROCED_QEMU_CACHE    initramfs cache (default ~/.cache/roced-qemu)
#   ROCED_QEMU_KVER     guest kernel version (default: newest in /boot)
#   ROCED_QEMU_BIN      the QEMU binary (default: qemu-system-x86_64 in PATH)
#   ROCED_QEMU_BIND     extra colon-separated host dirs the guest must see
#                       although they are under /tmp, /run or /var/tmp
#   ROCED_QEMU_KEEP     keep the temporary directory (console log) if set
# top_srcdir, top_builddir, srcdir, builddir and every ROCED_* variable are
# passed on to SCRIPT; inside the guest ROCED_GUEST=1 is set.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"

if [ $# -lt 1 ]; then
	echo "usage: $0 SCRIPT [ARGS...]" >&2
	exit 2
fi

skip()
{
	echo "SKIP: $*"
	exit 77
}

qemu=${ROCED_QEMU_BIN:-$(command -v qemu-system-x86_64 || true)}
[ -n "$qemu" ] && [ -x "$qemu" ] ||
	skip "qemu-system-x86_64 not found${ROCED_QEMU_BIN:+ at $ROCED_QEMU_BIN} (install qemu-system-x86)"
kver=$(qemu_find_kver)
why=$(qemu_check_kernel "$kver" 2>&1) || skip "$why"
why=$(qemu_find_busybox 2>&1 >/dev/null) || skip "$why"
command -v cpio >/dev/null || skip "cpio not found (needed to build the initramfs)"
command -v flock >/dev/null || skip "flock not found (util-linux)"

script=$1
shift
case $script in
/*) ;;
*) script=$(pwd)/$script ;;
esac
[ -f "$script" ] || {
	echo "$0: no such script: $script" >&2
	exit 99
}

cache=$(qemu_cache_dir)
# No writable home (a CI sandbox): a per-user cache in /var/tmp, which
# outlives the run as a cache should.
if ! mkdir -p "$cache" 2>/dev/null || [ ! -w "$cache" ]; then
	cache=/var/tmp/roced-qemu-cache-$(id -u)
fi
image=$("$here/build-initramfs.sh" "$cache" "$kver") || {
	rc=$?
	[ $rc -eq 77 ] && skip "cannot build the initramfs"
	echo "$0: building the initramfs failed ($rc)" >&2
	exit 99
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/roced-qemu.XXXXXX")
qpid=
cleanup()
{
	if [ -n "$qpid" ]; then
		kill "$qpid" 2>/dev/null || true
		wait "$qpid" 2>/dev/null || true
	fi
	if [ -n "${ROCED_QEMU_KEEP:-}" ]; then
		echo "run-guest: kept $tmp" >&2
	else
		rm -rf "$tmp"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

# Single-quote a value for the job file.
quote()
{
	printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

# The job file: the environment to pass on, the directory to start in and
# the command. It lives in $tmp, which the guest sees through roced_bind.
job=$tmp/job.sh
{
	echo '#!/bin/sh'
	for v in top_srcdir top_builddir srcdir builddir \
		$(env | sed -n 's/^\(ROCED_[A-Za-z0-9_]*\)=.*/\1/p' | sort -u); do
		case $v in
		ROCED_QEMU_* | ROCED_GUEST) continue ;;
		esac
		eval "isset=\${$v+y}"
		[ -n "$isset" ] || continue
		eval "val=\$$v"
		printf 'export %s=%s\n' "$v" "$(quote "$val")"
	done
	printf 'cd %s 2>/dev/null || cd /tmp\n' "$(quote "$(pwd)")"
	printf 'exec %s' "$(quote "$script")"
	for a in "$@"; do
		printf ' %s' "$(quote "$a")"
	done
	echo
} >"$job"
chmod 755 "$job"

# Host directories the guest must see although its tmpfs mounts would hide
# them: ours, the script's, the build and source trees, the current one.
bind=
add_bind()
{
	[ -n "$1" ] && [ -e "$1" ] || return 0
	if [ -d "$1" ]; then
		d=$(cd "$1" && pwd -P)
	else
		d=$(cd "$(dirname "$1")" && pwd -P)/$(basename "$1")
	fi
	# Binding a tmpfs root (or its parent) would make it read-only again.
	case $d in
	/ | /tmp | /run | /var | /var/tmp) return 1 ;;
	esac
	case $d in
	*[[:space:]:]*)
		echo "$0: cannot pass a path with blanks or ':' to the guest: $d" >&2
		exit 99
		;;
	esac
	case ":$bind:" in
	*":$d:"*) ;;
	*) bind=${bind:+$bind:}$d ;;
	esac
}
add_bind "$here" || true
add_bind "$tmp" || {
	echo "$0: TMPDIR must not be a tmpfs root itself" >&2
	exit 99
}
add_bind "$(dirname "$script")" || add_bind "$script" || true
add_bind "${top_builddir:-}" || true
add_bind "${top_srcdir:-}" || true
add_bind "$(pwd)" || true
old_ifs=$IFS
IFS=:
for p in ${ROCED_QEMU_BIND:-}; do
	IFS=$old_ifs
	add_bind "$p" || echo "$0: not binding $p over the guest's tmpfs" >&2
done
IFS=$old_ifs

# no_timer_check: at boot the kernel checks that the 8254 timer interrupt
# reaches the IO-APIC by waiting a few ticks in a delay loop; under TCG on
# a host whose cores are busy the vCPU falls behind and the check fails
# with "Kernel panic - not syncing: IO-APIC + timer doesn't work!" (seen
# here with the load average near 25). The emulated timer is fine; the
# check is what is too impatient, so skip it, as cloud images for VMs do.
append="console=ttyS0 quiet loglevel=4 panic=-1 no_timer_check rdinit=/init"
append="$append roced_script=$(cd "$tmp" && pwd -P)/job.sh roced_bind=$bind"

# cryptomgr.notests: the kernel tests its crypto algorithms at boot, which
# roced does not use; under TCG on a loaded host one such test once spun a
# vCPU for 25 minutes (soft lockups in cryptomgr_test, nothing else ran).
append="$append cryptomgr.notests"
timeout=${ROCED_QEMU_TIMEOUT:-300}
boot_timeout=${ROCED_QEMU_BOOT_TIMEOUT:-240}

# boot_guest: start QEMU in the background (qpid) with fresh logs.
boot_guest()
{
	: >"$tmp/console.log"
	: >"$tmp/result.log"
	# TCG only: KVM does not work on the machines this runs on.
	"$qemu" -accel tcg -m 1024 -smp 2 -nographic -no-reboot -nic none \
		-monitor none -parallel none \
		-kernel "/boot/vmlinuz-$kver" -initrd "$image" -append "$append" \
		-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
		-serial "file:$tmp/console.log" -serial "file:$tmp/result.log" \
		</dev/null >"$tmp/qemu.log" 2>&1 &
	qpid=$!
}

# wait_guest: until QEMU ends, or is killed at the timeout. Returns 2
# when the guest never reached the script within boot_timeout (QEMU is
# killed, the caller reaps it): a boot that hung says nothing of the
# test, so the caller boots once more.
wait_guest()
{
	# Our own timer instead of timeout(1), so that the trap above can
	# kill the guest when the test harness kills us; on the clock, as a
	# loaded host stretches each turn of the loop.
	_t0=$(date +%s)
	_booted=
	while kill -0 "$qpid" 2>/dev/null; do
		_now=$(date +%s)
		if [ -z "$_booted" ] &&
			grep -aq 'roced-initramfs: running' "$tmp/console.log"; then
			_booted=1
		fi
		if [ -z "$_booted" ] && [ $((_now - _t0)) -ge "$boot_timeout" ]; then
			kill "$qpid" 2>/dev/null || true
			return 2
		fi
		if [ $((_now - _t0)) -ge "$timeout" ]; then
			echo "FAIL: $(basename "$script"): the guest still ran after ${timeout}s (ROCED_QEMU_TIMEOUT): QEMU killed" >&2
			kill "$qpid" 2>/dev/null || true
			break
		fi
		sleep 0.2
	done
	return 0
}

start=$(date +%s.%N)
boot_guest
if ! wait_guest; then
	{
		echo "run-guest: the guest did not reach the script in ${boot_timeout}s; booting it once more"
		echo "run-guest: guest console (tail):"
		tail -n 10 "$tmp/console.log"
	} >&2
	wait "$qpid" || true
	boot_guest
	wait_guest || echo "run-guest: the guest did not reach the script in ${boot_timeout}s again" >&2
fi
qrc=0
wait "$qpid" || qrc=$?
qpid=
end=$(date +%s.%N)

marker='##roced-guest-exit '
rc=$(sed -n "s/^$marker\([0-9][0-9]*\)\$/\1/p" "$tmp/result.log" | tail -n 1)
if [ -z "$rc" ]; then
	cat "$tmp/result.log"
else
	# Everything before the marker's line, minus the newline the guest
	# put in front of it.
	awk -v m="$marker" '
		{ lines[NR] = $0 }
		index($0, m) == 1 { last = NR }
		END {
			for (i = 1; i < last - 1; i++)
				print lines[i]
			if (last > 1 && lines[last - 1] != "")
				printf "%s", lines[last - 1]
		}' "$tmp/result.log"
fi

elapsed=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
if [ -z "$rc" ]; then
	{
		echo "FAIL: $(basename "$script"): no result from the guest (qemu exit $qrc, ${elapsed}s)"
		echo "run-guest: qemu said:"
		tail -n 20 "$tmp/qemu.log"
		echo "run-guest: guest console (tail):"
		tail -n 40 "$tmp/console.log"
	} >&2
	exit 99
fi
echo "run-guest: guest $kver ran $(basename "$script") in ${elapsed}s, exit $rc" >&2
exit "$rc"
