#!/bin/sh
# build-initramfs.sh OUTDIR [KVER]
#
# Build (or reuse) the initramfs of the QEMU full-kernel tier and print its
# path. The image holds only busybox-static and the modules needed to mount
# the host's root filesystem read-only over virtio-9p; everything else the
# guest runs (tc, ip, jq, python3, the roced build tree, the test modules)
# comes from the host through that mount, so the image does not go stale
# when the host's tools change.
#
# The image is cached in OUTDIR under a name keyed on the kernel version and
# on the checksum of this script and common.sh (which embed /init), so an
# edit here rebuilds it and a kernel upgrade gets a fresh one.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: $0 OUTDIR [KVER]" >&2
	exit 2
fi
outdir=$1
kver=${2:-$(qemu_find_kver)}
qemu_check_kernel "$kver" || exit 77
busybox=$(qemu_find_busybox) || exit 77

moddir=/lib/modules/$kver
# Everything the guest needs before the host's root is mounted; their
# dependencies (virtio_ring, netfs, fscache, ...) are resolved below.
boot_modules="virtio_pci 9pnet_virtio 9p"

sum=$(cat "$0" "$here/common.sh" "$busybox" | cksum | cut -d' ' -f1)
image=$outdir/initramfs-$kver-$sum.cpio

mkdir -p "$outdir"
if [ -s "$image" ]; then
	printf '%s\n' "$image"
	exit 0
fi

# Serialise concurrent builds (make -j check runs several tests at once);
# the loser of the race finds the image and reuses it.
exec 9>"$outdir/.lock"
flock 9
if [ -s "$image" ]; then
	printf '%s\n' "$image"
	exit 0
fi

work=$(mktemp -d "$outdir/build.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM HUP

# modules.dep maps "kernel/x/y.ko: dep1.ko dep2.ko"; depmod lists the
# dependencies so that loading them last-to-first is a valid order.
dep_line()
{
	awk -v m="$1" '
	{
		path = $1
		sub(/:$/, "", path)
		n = path
		sub(/.*\//, "", n)
		sub(/\.ko(\.[a-z]+)?$/, "", n)
		gsub(/-/, "_", n)
		if (n == m) {
			print
			exit
		}
	}' "$moddir/modules.dep"
}

is_builtin()
{
	[ -f "$moddir/modules.builtin" ] || return 1
	sed 's,.*/,,; s,\.ko$,,; s,-,_,g' "$moddir/modules.builtin" |
		grep -qx "$1"
}

# Append PATH (relative to moddir) to the load order, once.
order=
add_path()
{
	case " $order " in
	*" $1 "*) ;;
	*) order="$order $1" ;;
	esac
}

for m in $boot_modules; do
	m=$(printf '%s' "$m" | tr - _)
	line=$(dep_line "$m")
	if [ -z "$line" ]; then
		if is_builtin "$m"; then
			continue
		fi
		echo "$0: module $m not found in $moddir/modules.dep" >&2
		exit 1
	fi
	deps=
	for d in ${line#*:}; do
		deps="$d $deps"
	done
	for d in $deps; do
		add_path "$d"
	done
	add_path "${line%%:*}"
done

mkdir -p "$work/root/bin" "$work/root/modules" "$work/root/proc" \
	"$work/root/sys" "$work/root/dev" "$work/root/newroot" \
	"$work/root/host"
cp "$busybox" "$work/root/bin/busybox"

# Copy the modules whole: Debian's are signed, the signature is appended to
# the file and stripping would drop it. Compressed ones are expanded because
# busybox insmod takes plain ELF; the signature lives inside the compressed
# payload, so it survives.
n=0
: >"$work/root/modules/order"
for p in $order; do
	n=$((n + 1))
	base=${p##*/}
	name=$(printf '%02d-%s' "$n" "${base%%.ko*}.ko")
	case $p in
	*.ko) cp "$moddir/$p" "$work/root/modules/$name" ;;
	*.ko.xz) xz -dc "$moddir/$p" >"$work/root/modules/$name" ;;
	*.ko.zst) zstd -qdc "$moddir/$p" >"$work/root/modules/$name" ;;
	*.ko.gz) gzip -dc "$moddir/$p" >"$work/root/modules/$name" ;;
	*)
		echo "$0: unknown module format: $p" >&2
		exit 1
		;;
	esac
	echo "$name" >>"$work/root/modules/order"
done

cat >"$work/root/init" <<'INIT'
#!/bin/busybox sh
# roced QEMU tier, stage 1. Kernel command line:
#   roced_script=PATH  host path of the script to run (after chroot)
#   roced_bind=P1:P2   host files or directories hidden by the guest's
#                      tmpfs mounts (/tmp, /run, /var/tmp) that must stay
#                      visible
# The script's stdout and stderr go to ttyS1, followed by a line
# "##roced-guest-exit RC"; the kernel console stays on ttyS0.
/bin/busybox mkdir -p /sbin /usr/bin /usr/sbin
/bin/busybox --install -s
export PATH=/bin:/sbin:/usr/bin:/usr/sbin

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
exec </dev/console >/dev/console 2>&1

# Raw, so the host file gets the bytes the script wrote (no CR added).
stty -F /dev/ttyS1 raw -echo 115200 2>/dev/null

report()
{
	printf '\n##roced-guest-exit %d\n' "$1" >/dev/ttyS1
}

finish()
{
	sync
	poweroff -f
	echo o >/proc/sysrq-trigger
	sleep 10
}

die()
{
	echo "roced-initramfs: $*"
	echo "roced-initramfs: $*" >/dev/ttyS1
	report 99
	finish
}

script=
bind=
for arg in $(cat /proc/cmdline); do
	case $arg in
	roced_script=*) script=${arg#roced_script=} ;;
	roced_bind=*) bind=${arg#roced_bind=} ;;
	esac
done

while read -r m; do
	insmod "/modules/$m" || die "insmod $m failed"
done </modules/order

# msize: bigger 9p messages make reading binaries over virtio much faster.
# cache=loose is safe: the host does not change the tree under a guest
# that lives for seconds, and the mount is read-only anyway.
mount -t 9p -o ro,trans=virtio,version=9p2000.L,msize=262144,cache=loose \
	hostroot /newroot || die "cannot mount the host root over 9p"
# A second view of the host root, kept uncovered for roced_bind.
mount -o bind /newroot /host || die "cannot bind the host root"

mount -t proc proc /newroot/proc
mount -t sysfs sysfs /newroot/sys
mount -t devtmpfs devtmpfs /newroot/dev
mount -t devpts -o newinstance,ptmxmode=0666 devpts /newroot/dev/pts 2>/dev/null
mount -t tmpfs -o mode=1777 tmpfs /newroot/dev/shm 2>/dev/null
for d in /tmp /run /var/tmp; do
	[ -d "/newroot$d" ] || continue
	mount -t tmpfs -o mode=1777 tmpfs "/newroot$d" ||
		die "cannot mount tmpfs on $d"
done
mkdir -p /newroot/run/lock /newroot/run/netns

old_ifs=$IFS
IFS=:
for p in $bind; do
	IFS=$old_ifs
	[ -n "$p" ] || continue
	if [ -d "/host$p" ]; then
		mkdir -p "/newroot$p"
	elif [ -e "/host$p" ]; then
		mkdir -p "/newroot${p%/*}" && touch "/newroot$p"
	else
		die "roced_bind: no $p on the host"
	fi
	mount -o bind "/host$p" "/newroot$p" ||
		die "roced_bind: cannot make $p visible"
done
IFS=$old_ifs

# The kernel's own module requests (tc asking for an unloaded qdisc kind,
# "ip link add type X") run the usermode helper in the initramfs root,
# which has no modules: send them to the host's modprobe in the new root,
# as on an installed system.
printf '#!/bin/sh\nexec chroot /newroot /sbin/modprobe "$@"\n' >/bin/modprobe-host
chmod 755 /bin/modprobe-host
echo /bin/modprobe-host >/proc/sys/kernel/modprobe

# The modules of the features under test, from the host's own
# /lib/modules/<this kernel>; modprobe resolves their dependencies.
chroot /newroot /sbin/modprobe -a sch_ets sch_prio sch_red sch_mqprio \
	sch_ingress sch_htb cls_flower cls_u32 act_skbedit act_gact veth \
	bridge || die "modprobe of the test modules failed"

[ -n "$script" ] || die "no roced_script= on the kernel command line"
echo "roced-initramfs: running $script"
# Through a pipe, not straight to ttyS1: the script must not see a terminal
# (jq and ls would colour, tools would line-buffer differently). The cat
# also holds ttyS1 until the script is done, and its close waits for the
# UART to drain, so nothing is lost at poweroff.
{
	chroot /newroot /usr/bin/env -i \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root TERM=dumb LANG=C.UTF-8 TMPDIR=/tmp ROCED_GUEST=1 \
		/bin/sh -c 'cd /tmp && exec "$0"' "$script" </dev/null 2>&1
	echo $? >/rc
} | cat >/dev/ttyS1
rc=$(cat /rc 2>/dev/null)
[ -n "$rc" ] || rc=99
echo "roced-initramfs: $script exited with $rc"
report "$rc"
finish
INIT
chmod 755 "$work/root/init"

# newc, owned by root; uncompressed because the guest would spend longer
# inflating it under TCG than the host spends reading it.
(cd "$work/root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) \
	>"$work/image.cpio"
mv "$work/image.cpio" "$image"

# Drop images of older versions of this script for the same kernel.
for old in "$outdir"/initramfs-"$kver"-*.cpio; do
	[ "$old" = "$image" ] || rm -f "$old"
done
printf '%s\n' "$image"
