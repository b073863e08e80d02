#!/bin/sh
# The README's two commands on a fresh Debian 12, as a new user runs them:
# a root file system of what `mmdebstrap --variant=important` gives, plus
# git; this tree's committed HEAD cloned into it; then, inside a
# systemd-nspawn container, as root:
#
#   1. ./scripts/demo.sh          (then ./scripts/demo.sh --down)
#   2. ./scripts/check.sh
#
#   scripts/fresh-debian.sh [--demo-only] [--keep] [DIR]
#
# DIR (default /var/tmp/roced-fresh) receives the root file system and
# the logs (demo.log, check.log); it is emptied first, and removed at the
# end unless --keep. --demo-only stops after the first command (a few
# minutes: it installs only the build dependencies). The exit status is
# the first failing command's.
#
# Why the container looks as it does: the suite creates network
# namespaces, veth pairs and qdiscs, boots QEMU and a nested nspawn, so
# the container gets every capability (--capability=all) and the
# system call filter that a privileged container runs with; it shares
# the host's network namespace so that apt-get can reach the mirror (the
# tests themselves only ever touch namespaces they create). This machine
# hands the container its own /dev with /dev/net/tun and /dev/kvm when
# present. What nspawn still refuses (bpf() without CAP_SYS_ADMIN's
# blessing, an inheritable set that is not empty) is what the suite must
# then skip aloud: that is part of what this checks.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
demo_only=""
keep=""
while [ $# -gt 0 ]; do
	case "$1" in
	--demo-only) demo_only=1 ;;
	--keep) keep=1 ;;
	-h | --help)
		sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
		exit 0
		;;
	-*) echo "fresh-debian: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
	shift
done
dir=${1:-/var/tmp/roced-fresh}
say() { printf 'fresh-debian: %s\n' "$*"; }
die() { say "$*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root (it builds a root file system and boots a container)"
for c in mmdebstrap systemd-nspawn git; do
	command -v "$c" >/dev/null || die "$c is missing (apt-get install mmdebstrap systemd-container git)"
done
case "$dir" in / | /usr | /var | /var/tmp | /tmp | "") die "refusing to use $dir" ;; esac

rm -rf "$dir"
mkdir -p "$dir/root"
cleanup() { [ -n "$keep" ] || rm -rf "$dir/root"; }
trap cleanup EXIT INT TERM

. /etc/os-release
suite=${VERSION_CODENAME:-bookworm}
sources=""
for s in /etc/apt/sources.list.d/debian.sources /etc/apt/sources.list; do
	[ -s "$s" ] && grep -q "^[^#]*$suite" "$s" && { sources=$s; break; }
done
say "building a fresh $suite root (variant important, plus git) in $dir/root"
# shellcheck disable=SC2086 # $sources is one path or nothing
mmdebstrap --variant=important --include=git,ca-certificates \
	"$suite" "$dir/root" $sources >"$dir/mmdebstrap.log" 2>&1 ||
	{ tail -n 20 "$dir/mmdebstrap.log" >&2; die "mmdebstrap failed (log: $dir/mmdebstrap.log)"; }

# What the user has: a clone of the repository, nothing built, nothing
# beside it. HEAD only: uncommitted work is not what a user clones.
git clone -q "$top" "$dir/root/root/roced"
say "cloned $(git -C "$top" rev-parse --short HEAD) into /root/roced"

# Inside: the user's shell, as root, in the clone.
run_in() {
	_log=$1
	shift
	# --keep-unit and --register=no: this machine's PID 1 may not be
	# systemd. --private-users=no: the suite needs real root.
	systemd-nspawn -q -D "$dir/root" --register=no --keep-unit \
		--private-users=no --capability=all --as-pid2 \
		--setenv=DEBIAN_FRONTEND=noninteractive --chdir=/root/roced \
		--setenv=ROCED_FRESH_INNER=1 \
		--bind=/dev/net/tun \
		sh -c "$*" >"$dir/$_log" 2>&1
}

rc=0
say "1/2: ./scripts/demo.sh (log: $dir/demo.log)"
if run_in demo.log './scripts/demo.sh && ./scripts/demo.sh --down'; then
	say "1/2: passed"
else
	rc=$?
	tail -n 30 "$dir/demo.log" >&2
	say "1/2: FAILED (exit $rc)"
fi
if [ -z "$demo_only" ] && [ "$rc" = 0 ]; then
	say "2/2: ./scripts/check.sh (log: $dir/check.log; about 30 minutes)"
	if run_in check.log './scripts/check.sh'; then
		say "2/2: passed"
	else
		rc=$?
		sed -n '/^== failures/,$p' "$dir/check.log" | tail -n 80 >&2
		say "2/2: FAILED (exit $rc)"
	fi
	grep -E '^tests: ' "$dir/check.log" || true
fi
exit "$rc"
