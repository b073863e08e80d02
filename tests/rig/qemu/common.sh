# Shared helpers of the QEMU full-kernel tier; sourced, not run.
#
# The guest kernel is the distro's linux-image-amd64 (/boot/vmlinuz-VER with
# /lib/modules/VER), never the running kernel: the point of this tier is a
# kernel with every qdisc, classifier and action that roced can use.

# qemu_find_kver: print the guest kernel version, or nothing. ROCED_QEMU_KVER
# overrides the choice; otherwise the newest version that has both a vmlinuz
# and a modules.dep wins.
qemu_find_kver()
{
	if [ -n "${ROCED_QEMU_KVER:-}" ]; then
		printf '%s\n' "$ROCED_QEMU_KVER"
		return 0
	fi
	for _qk_img in /boot/vmlinuz-*; do
		[ -e "$_qk_img" ] || continue
		_qk_ver=${_qk_img#/boot/vmlinuz-}
		[ -f "/lib/modules/$_qk_ver/modules.dep" ] || continue
		printf '%s\n' "$_qk_ver"
	done | sort -V | tail -n 1
}

# qemu_check_kernel VER: succeed when VER has an image and modules, else print
# why to stderr and fail.
qemu_check_kernel()
{
	if [ -z "$1" ]; then
		echo "no guest kernel: no /boot/vmlinuz-VER with /lib/modules/VER/modules.dep (install linux-image-amd64)" >&2
		return 1
	fi
	if [ ! -r "/boot/vmlinuz-$1" ]; then
		echo "guest kernel image /boot/vmlinuz-$1 is missing or unreadable" >&2
		return 1
	fi
	if [ ! -f "/lib/modules/$1/modules.dep" ]; then
		echo "guest kernel modules /lib/modules/$1/modules.dep are missing" >&2
		return 1
	fi
	return 0
}

# qemu_find_busybox: print the path of a statically linked busybox, or fail
# with the reason on stderr. The initramfs has no libc, so a dynamic busybox
# would not start.
qemu_find_busybox()
{
	for _qb in "${ROCED_QEMU_BUSYBOX:-}" /bin/busybox /usr/bin/busybox; do
		[ -n "$_qb" ] && [ -x "$_qb" ] || continue
		if LC_ALL=C file -L "$_qb" 2>/dev/null | grep -q 'dynamically linked'; then
			continue
		fi
		printf '%s\n' "$_qb"
		return 0
	done
	echo "no static busybox found (install busybox-static)" >&2
	return 1
}

# qemu_cache_dir: where initramfs images are kept between runs; outside the
# source tree on purpose.
qemu_cache_dir()
{
	if [ -n "${ROCED_QEMU_CACHE:-}" ]; then
		printf '%s\n' "$ROCED_QEMU_CACHE"
	else
		printf '%s\n' "${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/roced-qemu"
	fi
}
