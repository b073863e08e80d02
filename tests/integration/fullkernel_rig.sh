#!/bin/sh
# fullkernel_rig.sh: the QEMU tier's own behaviour (tests/rig/qemu):
#   - run-guest.sh skips (77) and says why when QEMU or the kernel is missing;
#   - build-initramfs.sh caches its image, keyed on the kernel version, and
#     the image holds /init, busybox and the 9p modules in load order;
#   - a guest run passes arguments through intact, gives the script a
#     writable /tmp and a read-only host root, hands back stdout/stderr
#     byte for byte (no CR, no trailing newline added) and the exit code,
#     and leaves nothing behind in TMPDIR.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
self=$here/$(basename "$0")
rig=$here/../rig/qemu

# --- inside the guest ------------------------------------------------------
if [ "${ROCED_GUEST:-}" = 1 ]; then
	[ "$1" = guest ] || exit 90
	shift
	printf 'argc=%d\n' $#
	for a in "$@"; do
		printf 'arg=[%s]\n' "$a"
	done
	printf 'kernel=%s\n' "$(uname -r)"
	if echo x >/tmp/fk-rig-probe && [ "$(cat /tmp/fk-rig-probe)" = x ]; then
		echo "tmp=writable"
	fi
	if ! (: >/usr/fk-rig-probe) 2>/dev/null; then
		echo "root=read-only"
	fi
	if [ -z "${top_builddir:-}" ]; then
		echo "builddir=unset"
	elif [ -d "$top_builddir" ]; then
		echo "builddir=visible"
	else
		echo "builddir=missing"
	fi
	# A host directory under /tmp, made visible with ROCED_QEMU_BIND and
	# named through a passed-on ROCED_* variable.
	printf 'bound=%s\n' "$(cat "${ROCED_RIG_FILE:-/nonexistent}" 2>&1)"
	# clsact autoloads sch_ingress through the host's modprobe.
	ip netns add fk-rig
	tc -n fk-rig qdisc add dev lo clsact && echo "autoload=ok"
	ip netns del fk-rig
	echo "to stderr" >&2
	printf 'no newline at the end'
	exit 3
fi

# --- on the host -----------------------------------------------------------
failures=0
fail()
{
	echo "fullkernel_rig: FAIL: $*"
	failures=$((failures + 1))
}
ok()
{
	echo "fullkernel_rig: ok: $*"
}

# What the guest will see of top_builddir: the environment's (lib.sh sets
# a default of its own).
builddir_env=${top_builddir:-}
. "$here/lib.sh"
t_init fullkernel_rig
work=$t_tmp

# Skips must be exit 77 with the reason, whatever this host has.
rc=0
out=$(ROCED_QEMU_BIN=/nonexistent/qemu "$rig/run-guest.sh" "$self" guest 2>&1) || rc=$?
if [ $rc -eq 77 ] && printf '%s' "$out" | grep -q 'qemu-system-x86_64 not found'; then
	ok "missing QEMU is a skip with its reason"
else
	fail "missing QEMU: exit $rc, output: $out"
fi
rc=0
out=$(ROCED_QEMU_KVER=0.0.0-none "$rig/run-guest.sh" "$self" guest 2>&1) || rc=$?
if [ $rc -eq 77 ] && printf '%s' "$out" | grep -q '/boot/vmlinuz-0.0.0-none'; then
	ok "missing kernel is a skip with its reason"
else
	fail "missing kernel: exit $rc, output: $out"
fi

. "$rig/common.sh"
kver=$(qemu_find_kver)
if ! command -v qemu-system-x86_64 >/dev/null || ! qemu_check_kernel "$kver"; then
	[ $failures -eq 0 ] || exit 1
	echo "SKIP: no QEMU or no distro kernel: the guest part cannot run"
	exit 77
fi

# The cache: built once, reused, holding what the guest needs first.
cache=$work/cache
img1=$("$rig/build-initramfs.sh" "$cache" "$kver") || fail "build-initramfs failed"
stamp1=$(stat -c %Y:%i "$img1" 2>/dev/null || true)
img2=$("$rig/build-initramfs.sh" "$cache" "$kver") || fail "build-initramfs failed"
stamp2=$(stat -c %Y:%i "$img2" 2>/dev/null || true)
case $img1 in
"$cache"/initramfs-"$kver"-*.cpio) ;;
*) fail "image name $img1 is not keyed on the kernel version" ;;
esac
if [ "$img1" = "$img2" ] && [ -n "$stamp1" ] && [ "$stamp1" = "$stamp2" ]; then
	ok "the initramfs is cached and reused"
else
	fail "the initramfs was rebuilt ($img1 $stamp1, $img2 $stamp2)"
fi
list=$(cpio -it --quiet <"$img1" 2>/dev/null | sed 's,^\./,,')
for f in init bin/busybox modules/order; do
	printf '%s\n' "$list" | grep -qx "$f" || fail "the initramfs lacks $f"
done
order=$(cpio -i --quiet --to-stdout modules/order <"$img1" 2>/dev/null ||
	cpio -i --quiet --to-stdout ./modules/order <"$img1")
pos()
{
	printf '%s\n' "$order" | grep -n -- "-$1\.ko\$" | cut -d: -f1
}
for pair in virtio_ring:virtio virtio:9pnet_virtio 9pnet:9pnet_virtio \
	netfs:9p 9pnet:9p virtio:virtio_pci; do
	a=$(pos "${pair%%:*}")
	b=$(pos "${pair#*:}")
	if [ -z "$a" ] || [ -z "$b" ] || [ "$a" -ge "$b" ]; then
		fail "module order: ${pair%%:*} (${a:-absent}) must precede ${pair#*:} (${b:-absent})"
	fi
done
ok "the initramfs holds init, busybox and the 9p modules in load order"

# A real boot, with a private TMPDIR to see that nothing is left behind.
mkdir "$work/tmp" "$work/visible"
echo "from the host" >"$work/visible/file"
if [ -n "$builddir_env" ]; then
	builddir=visible
else
	builddir=unset
fi
rc=0
# A waited-for child (t_run), so that a TERM to this script stops the
# guest too.
t_run env TMPDIR="$work/tmp" ROCED_QEMU_BIND="$work/visible" \
	ROCED_RIG_FILE="$work/visible/file" \
	"$rig/run-guest.sh" "$self" guest "two words" "it's" '' \
	>"$work/out" 2>"$work/err" || rc=$?
expect=$(printf '%s\n' 'argc=3' 'arg=[two words]' "arg=[it's]" 'arg=[]' \
	"kernel=$kver" tmp=writable root=read-only "builddir=$builddir" \
	"bound=from the host" autoload=ok)
if [ $rc -ne 3 ]; then
	fail "guest exit code $rc, want 3"
	cat "$work/err"
else
	ok "the guest's exit code comes back"
fi
{
	printf '%s\n' "$expect"
	printf 'to stderr\nno newline at the end'
} >"$work/want"
if cmp -s "$work/want" "$work/out"; then
	ok "the guest's output comes back byte for byte"
else
	fail "the guest's output differs (want, got):"
	diff "$work/want" "$work/out" || true
	od -c "$work/out" | tail -n 3
fi
if [ -z "$(ls -A "$work/tmp")" ]; then
	ok "run-guest cleaned up its temporary directory"
else
	fail "left behind in TMPDIR: $(ls -A "$work/tmp")"
fi
grep 'run-guest:' "$work/err" || true

[ $failures -eq 0 ] || exit 1
echo "fullkernel_rig: all checks passed"
