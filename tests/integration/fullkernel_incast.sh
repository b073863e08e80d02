#!/bin/sh
# fullkernel_incast.sh: the lossless incast (pfc_incast.sh) on a full
# kernel, in the QEMU guest: one boot, the same script inside, scaled to
# TCG's speed (ROCED_INCAST_PPS datagrams/s per sender, 4 senders, for
# ROCED_INCAST_SECONDS). There the hosts' roced probes ets and red, so
# each host's no-drop queue 3 (WRED/ECN in the shipped policy) is
# software PFC's tbf with the red inside it, on an ets root: the script
# checks that with tc -j, and the incast checks that the pause the switch
# sends holds it (no-drop loses nothing, both sides count the pause).
# The switch runs with --caps host (htb): the incast needs a bottleneck
# in the switch, and roced shapes a queue (`shape max`) only on the htb
# layout; a veth on the guest's 6.1 kernel never pushes back on its
# qdisc (fullkernel_apply.sh), so nothing else would queue there.
# Skipped (77) when QEMU or the distro kernel is missing.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
self=$here/$(basename "$0")
rig=$here/../rig/qemu

if [ "${ROCED_GUEST:-}" != 1 ]; then
	# The guest runs as a child waited for, so that a TERM to this
	# script reaches run-guest.sh, whose trap stops QEMU.
	. "$here/lib.sh"
	t_init fullkernel_incast
	t0=$(date +%s.%N)
	rc=0
	t_run "$rig/run-guest.sh" "$self" "$@" || rc=$?
	t1=$(date +%s.%N)
	[ $rc -eq 77 ] && exit 77
	awk -v a="$t0" -v b="$t1" 'BEGIN {
		printf "fullkernel_incast: guest run %.1f s (host wall clock)\n", b - a }'
	exit $rc
fi

ROCED_INCAST_PPS=${ROCED_INCAST_PPS:-500}
ROCED_INCAST_SECONDS=${ROCED_INCAST_SECONDS:-6}
ROCED_INCAST_SW_CAPS=host
ROCED_INCAST_HOST_RED=1
export ROCED_INCAST_PPS ROCED_INCAST_SECONDS ROCED_INCAST_SW_CAPS ROCED_INCAST_HOST_RED
echo "fullkernel_incast: guest kernel $(uname -r), up $(cut -d' ' -f1 /proc/uptime) s"
rc=0
"$here/pfc_incast.sh" || rc=$?
echo "fullkernel_incast: pfc_incast.sh exit $rc, guest up $(cut -d' ' -f1 /proc/uptime) s"
exit $rc
