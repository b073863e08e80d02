#!/bin/sh
# probe_caps.sh on a full distro kernel (the QEMU guest): there the probe
# must find ets, htb, red, tbf, flower and skbedit and choose the htb+red
# layout (the shipped no-drop queue 3 shares bandwidth, and software PFC's
# hold would stop ets's other sharing bands) with ingress flower/skbedit
# classification.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
ROCED_EXPECT_LAYOUT=htb+red
export ROCED_EXPECT_LAYOUT
exec "$here/../rig/qemu/run-guest.sh" "$here/probe_caps.sh"
