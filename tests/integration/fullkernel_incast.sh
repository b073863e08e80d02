#!/bin/sh
# fullkernel_incast.sh: the lossless incast (pfc_incast.sh) on a full
# kernel, in the QEMU guest: one boot, the same script inside, scaled to
# TCG's speed (ROCED_INCAST_PPS datagrams/s per sender, 4 senders, for
# ROCED_INCAST_SECONDS). There the hosts' roced probes ets and red, so
# each host's no-drop queue 3 (WRED/ECN in the shipped policy) is
# software PFC's tbf with the red inside it, on an htb root (ets would
# stop best effort too while queue 3 is held): the script checks that
# with tc -j, and the incast checks that the pause the switch sends holds
# it (no-drop loses nothing, both sides count the pause) while best
# effort keeps flowing (and drops at the switch).
# The switch runs with --caps host (htb): the incast needs a bottleneck
# in the switch, and roced shapes a queue (`shape max`) only on the htb
# layout; a veth on the guest's 6.1 kernel never pushes back on its
# qdisc (fullkernel_apply.sh), so nothing else would queue there.
# The hosts' no-drop senders mark DSCP 26 only (no socket priority): a
# host's own datagrams never pass clsact ingress, where flower
# classifies; the hosts' htb root classifies them again on egress (one
# cls_bpf program), which this checks.
# Skipped (77) when QEMU or the distro kernel is missing.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
self=$here/$(basename "$0")

if [ "${ROCED_GUEST:-}" != 1 ]; then
	. "$here/lib.sh"
	t_guest fullkernel_incast "$self" "$@"
fi

# Under TCG four senders manage some 200-250 datagrams/s each (measured
# with 500 asked for, fewer on a loaded machine): the shape (500 kb/s,
# 60 datagrams/s per queue) is what makes the switch's queues overflow
# with room to spare, and q-default's 150 kB limit
# what makes best effort drop within seconds (its default, 9.2 MB, takes
# minutes to fill at these rates).
ROCED_INCAST_PPS=${ROCED_INCAST_PPS:-400}
ROCED_INCAST_SECONDS=${ROCED_INCAST_SECONDS:-6}
ROCED_INCAST_SHAPE_KBPS=${ROCED_INCAST_SHAPE_KBPS:-500}
ROCED_INCAST_BE_LIMIT=${ROCED_INCAST_BE_LIMIT:-150}
# A datagram queued in the switch stays charged to its sender's socket on
# this kernel, so each no-drop sender (32 kB SO_SNDBUF, 64 kB as the
# kernel counts it) has at most that much in the switch's queue 3: its
# xoff must be below, or the sender is held by its own socket and no
# pause is ever needed (seen: 0 pause with the 300 kB of pfc_incast.sh).
ROCED_INCAST_XOFF=${ROCED_INCAST_XOFF:-30000}
ROCED_INCAST_SW_CAPS=${ROCED_INCAST_SW_CAPS:-host}
ROCED_INCAST_HOST_RED=1
ROCED_INCAST_ND_PRIO=
export ROCED_INCAST_PPS ROCED_INCAST_SECONDS ROCED_INCAST_SHAPE_KBPS \
	ROCED_INCAST_BE_LIMIT ROCED_INCAST_XOFF ROCED_INCAST_SW_CAPS \
	ROCED_INCAST_HOST_RED ROCED_INCAST_ND_PRIO
echo "fullkernel_incast: guest kernel $(uname -r), up $(cut -d' ' -f1 /proc/uptime) s"
# Under TCG the softirqs that move packets across a veth fall behind, and
# a CPU's input backlog (1000 packets by default) then drops what a wire
# would carry: a queue that pause released sends its backlog at once.
# The guest is this test's alone.
sysctl -qw net.core.netdev_max_backlog=100000
rc=0
"$here/pfc_incast.sh" || rc=$?
echo "fullkernel_incast: pfc_incast.sh exit $rc, guest up $(cut -d' ' -f1 /proc/uptime) s"
exit $rc
