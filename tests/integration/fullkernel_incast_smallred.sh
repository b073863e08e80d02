#!/bin/sh
# fullkernel_incast_smallred.sh: pfc_incast_smallred.sh where the kernel
# has sch_red, in the QEMU guest: fullkernel_incast.sh with the switch
# on the full kernel's capabilities (--caps probe: htb, as a software
# port with a sharing no-drop queue gets, with red inside software PFC's
# tbf) and its no-drop queue at random-detect 6000/24000 bytes ecn,
# xoff 30000. RED alone would size that queue 54000 bytes; roced sizes
# it xoff plus headroom and sets nodrop (checked with tc -j), and the
# no-drop class loses nothing. Skipped (77) when QEMU or the distro
# kernel is missing.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
self=$here/$(basename "$0")
if [ "${ROCED_GUEST:-}" != 1 ]; then
	. "$here/lib.sh"
	t_guest fullkernel_incast_smallred "$self" "$@"
fi
ROCED_INCAST_ND_WRED="6000 24000"
ROCED_INCAST_SW_CAPS=probe
export ROCED_INCAST_ND_WRED ROCED_INCAST_SW_CAPS
exec "$here/fullkernel_incast.sh" "$@"
