#!/bin/sh
# Install the Debian packages roced needs. Idempotent: packages already
# present are not touched and apt is not even called when nothing is missing.
#
#   scripts/install-deps.sh          build dependencies only
#   scripts/install-deps.sh --test   build + test dependencies (CI, `make check`)
set -eu

BUILD="build-essential autoconf automake libtool pkg-config
libnl-3-dev libnl-route-3-dev libmnl-dev libconfig-dev libcmocka-dev
libjson-c-dev libedit-dev libsystemd-dev lldpad-dev libcap-ng-dev iproute2
libbpf-dev clang"
# (libbpf-dev and clang: the BPF programs of software PFC's kernel path;
# without them configure builds roced with the user-space path only.)

# Test tools: independent decoders and peers (tshark, lldpd, lldpad), the
# QEMU full-kernel tier (qemu, a distro kernel, busybox for the initramfs),
# tmux for interactive CLI tests, strace for netlink fixtures, mandoc and
# man-db to lint and render the man pages, clang and its libFuzzer runtime
# (only Recommended by clang, and apt is told to skip those) for tests/fuzz;
# mmdebstrap and systemd-nspawn boot roced.service under systemd as PID 1
# (tests/integration/systemd_pid1.sh); ethtool is the independent reader
# of a port's pause settings (tests/integration/linkpause.sh); rdma-core,
# ibverbs-providers (rxe), ibverbs-utils and perftest (ib_write_bw) run
# Soft-RoCE in the QEMU guest, which sees the host's root filesystem
# (tests/integration/fullkernel_rdma.sh); prometheus (with promtool) and
# prometheus-node-exporter check and scrape roced's metrics
# (tests/integration/metrics*.sh); ansible-core runs the
# contrib/ansible collection against namespaces of roced switches
# (tests/integration/ansible_fabric.sh), whose apt module needs
# python3-apt (its check mode asks apt what it would do); dpkg-dev, debhelper, fakeroot
# and lintian build and check the Debian package (scripts/build-deb.sh,
# tests/integration/debian_pkg.sh).
TEST="tshark lldpd lldpad qemu-system-x86 linux-image-amd64 busybox-static
cpio kmod tmux strace clang-format systemd mandoc man-db python3 jq
clang libclang-rt-14-dev
mmdebstrap systemd-container ethtool
rdma-core ibverbs-providers ibverbs-utils perftest
prometheus prometheus-node-exporter curl ansible-core python3-apt
dpkg-dev debhelper fakeroot lintian"

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
# The peers the tests start themselves (lldpad, lldpd) are daemons whose
# packages enable and start them at once, and lldpad-dev, a build
# dependency, pulls lldpad in. Left running they would speak LLDP on this
# machine's own ports beside roced; prometheus and node_exporter would
# listen on this machine's ports (9090, 9100) and scrape it, where the
# tests start their own on random ports. So nothing the install brings is
# started (policy-rc.d answers 101, "not allowed", for the install's
# duration) and the units it newly enabled are disabled again, said aloud.
units="lldpad.service lldpad.socket lldpd.service prometheus.service
prometheus-node-exporter.service"
was_enabled=""
have_systemctl=""
command -v systemctl >/dev/null 2>&1 && have_systemctl=1
if [ -n "$have_systemctl" ]; then
	for u in $units; do
		systemctl is-enabled --quiet "$u" 2>/dev/null && was_enabled="$was_enabled $u"
	done
fi
policy=/usr/sbin/policy-rc.d
own_policy=""
if [ ! -e "$policy" ]; then
	printf '#!/bin/sh\n# scripts/install-deps.sh: start nothing while installing\nexit 101\n' >"$policy"
	chmod 755 "$policy"
	own_policy=1
	trap 'rm -f "$policy"' EXIT INT TERM
fi
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
[ -z "$own_policy" ] || rm -f "$policy"
if [ -n "$have_systemctl" ]; then
	for u in $units; do
		case " $was_enabled " in *" $u "*) continue ;; esac
		systemctl is-enabled --quiet "$u" 2>/dev/null || continue
		systemctl disable --quiet "$u" 2>/dev/null || true
		echo "install-deps: $u came with its package; disabled and not started (roced's tests start their own; 'systemctl enable --now $u' to use it)"
	done
fi
echo "install-deps: done"
