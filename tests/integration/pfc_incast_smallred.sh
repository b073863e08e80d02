#!/bin/sh
# pfc_incast_smallred: the lossless incast (pfc_incast.sh) with the
# switch's no-drop queue given WRED at small thresholds (random-detect
# 6000/24000 bytes ecn) and an xoff of 30000 bytes. On a kernel with
# sch_red, RED alone sized that queue at 54000 bytes (2 x max + burst),
# 24 KB above xoff, which software PFC overshoots: the no-drop class
# dropped 6886 packets in spite of 2619 pauses. This kernel lacks
# sch_red, so the queue is a plain fifo, and `queue-limit 54000 bytes`
# stands in for RED's limit; roced must raise it to xoff plus headroom
# (roced(8), Transmit), warn, and the no-drop class lose nothing. RED
# itself marks inside that limit in the QEMU tier (fullkernel_incast.sh,
# where the hosts' queue 3 has RED inside the tbf).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
ROCED_INCAST_ND_WRED="6000 24000 54000"
ROCED_INCAST_XOFF=30000
export ROCED_INCAST_ND_WRED ROCED_INCAST_XOFF
exec "$here/pfc_incast.sh" "$@"
