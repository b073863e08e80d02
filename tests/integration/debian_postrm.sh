#!/bin/sh
# debian_postrm: the package's purge gives the ports roced changed their
# MTU back (debian/roced.postrm), as issue 30 asks, without a container:
# the script runs in a network namespace of its own, in a mount
# namespace whose /run, /var/lib and /etc/roced are scratch tmpfs, so
# nothing of this machine is touched.
#   - swp1 at 9216 with its old MTU 1500 in the record: given back;
#   - a port in the record that is gone: said so, the rest still done;
#   - a record of another namespace: said it is not reached;
#   - a malformed line (a name with a slash, an MTU that is no number):
#     skipped;
#   - /run/roced removed after, another textfile in node_exporter's
#     directory kept.
# debian_pkg.sh (systemd tier) purges the built .deb in a container whose
# sysfs has no such port, where the script can only say why not.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
t_init debian_postrm
t_need_root
command -v unshare >/dev/null || t_skip "unshare (util-linux) is not installed"
postrm=$top_srcdir/debian/roced.postrm
[ -f "$postrm" ] || t_fail "no $postrm"

t_netns_add ns postrm
$IP -n "$ns" link add swp1 type veth peer name swp2
$IP -n "$ns" link set swp1 mtu 9216
$IP -n "$ns" link set swp2 mtu 9216

# In the namespace: scratch directories, a record as roced writes it
# (roced.INODE.mtu for the namespace INODE), then the purge.
$IP netns exec "$ns" unshare -m sh -eu -c '
	# /run and /var/lib whole, as the script removes directories there;
	# /etc/roced keeps a file, so the script leaves the mount point be.
	mount -t tmpfs tmpfs /run
	mount -t tmpfs tmpfs /var/lib
	mkdir -p /run/roced /var/lib/roced /var/lib/prometheus/node-exporter /etc/roced
	mount -t tmpfs tmpfs /etc/roced
	echo "# the operator s" >/etc/roced/roced.conf
	echo keep >/var/lib/prometheus/node-exporter/other.prom
	here=$(stat -L -c %i /proc/self/ns/net)
	printf "netns 1234\nswp1 1500\nswp9 1500\nsw/p2 1400\nswp2 nine\n" \
		>"/run/roced/roced.$here.mtu"
	printf "swp2 1400\n" >/run/roced/roced.1.mtu
	sh "$1" purge
	[ ! -e /run/roced ] || echo "LEFT: /run/roced"
	[ -e /var/lib/prometheus/node-exporter/other.prom ] || echo "LOST: another textfile"
' - "$postrm" >"$t_tmp/out" 2>"$t_tmp/err" || t_fail "the postrm failed: $(cat "$t_tmp/err")"
cat "$t_tmp/out" "$t_tmp/err"
mtu() { $IP -n "$ns" -o link show dev "$1" | sed -n 's/.* mtu \([0-9]*\) .*/\1/p'; }
[ "$(mtu swp1)" = 1500 ] || t_fail "swp1 has MTU $(mtu swp1) after the purge, not its 1500"
grep -qx 'roced: gave swp1 its MTU 1500 back' "$t_tmp/out" || t_fail "the purge did not say it gave swp1 its MTU"
grep -q 'swp9 is gone' "$t_tmp/err" || t_fail "the purge did not say swp9 is gone"
grep -q 'roced.1.mtu: MTUs roced changed in another network namespace are not given back' "$t_tmp/err" ||
	t_fail "the purge did not say another namespace's record is not reached"
[ "$(mtu swp2)" = 9216 ] || t_fail "swp2's MTU changed ($(mtu swp2)): only malformed lines and another namespace's record named it"
! grep -q 'LEFT\|LOST' "$t_tmp/out" || t_fail "the purge: $(grep 'LEFT\|LOST' "$t_tmp/out")"
echo "ok: the purge gave swp1 its MTU back and said why not for the rest"
