#!/bin/sh
# probe_caps.sh on a full distro kernel (the QEMU guest): there the probe
# must find ets, red, flower and skbedit and choose the ets+red layout with
# ingress flower/skbedit classification.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
ROCED_EXPECT_LAYOUT=ets+red
export ROCED_EXPECT_LAYOUT
exec "$here/../rig/qemu/run-guest.sh" "$here/probe_caps.sh"
