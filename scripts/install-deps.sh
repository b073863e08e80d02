#!/bin/sh
# Install the Debian packages roced needs. Idempotent: packages already
# present are not touched and apt is not even called when nothing is missing.
#
#   scripts/install-deps.sh          build dependencies only
#   scripts/install-deps.sh --test   build + test dependencies (CI, `make check`)
set -eu

BUILD="build-essential autoconf automake libtool pkg-config
libnl-3-dev libnl-route-3-dev libmnl-dev libconfig-dev libcmocka-dev
libjson-c-dev libedit-dev libsystemd-dev lldpad-dev libcap-ng-dev iproute2"

# Test tools: independent decoders and peers (tshark, lldpd, lldpad), the
# QEMU full-kernel tier (qemu, a distro kernel, busybox for the initramfs),
# tmux for interactive CLI tests, strace for netlink fixtures, mandoc and
# man-db to lint and render the man pages, clang and its libFuzzer runtime
# (only Recommended by clang, and apt is told to skip those) for tests/fuzz;
# mmdebstrap and systemd-nspawn boot roced.service under systemd as PID 1
# (tests/integration/systemd_pid1.sh); ethtool is the independent reader
# of a port's pause settings (tests/integration/linkpause.sh).
TEST="tshark lldpd lldpad qemu-system-x86 linux-image-amd64 busybox-static
cpio kmod tmux strace clang-format systemd mandoc man-db python3 jq
clang libclang-rt-14-dev
mmdebstrap systemd-container ethtool"

want="$BUILD"
[ "${1:-}" = "--test" ] && want="$BUILD $TEST"

missing=""
for p in $want; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$st" in
	"install ok installed") ;;
	*) missing="$missing $p" ;;
	esac
done

if [ -z "$missing" ]; then
	echo "install-deps: all packages present"
	exit 0
fi

if [ "$(id -u)" != 0 ]; then
	echo "install-deps: missing:$missing (run as root to install)" >&2
	exit 1
fi

echo "install-deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
# tshark asks whether non-root users may capture; answer no up front.
echo "wireshark-common wireshark-common/install-setuid boolean false" |
	debconf-set-selections 2>/dev/null || true
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
echo "install-deps: done"
