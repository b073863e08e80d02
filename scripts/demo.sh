#!/bin/sh
# roced's main job on the shipped default configuration, from a fresh
# clone on Debian 12, as root: installs what is missing, builds, checks
# conf/roced.conf and prints the plan the kernel would receive.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/install-deps.sh"
"$top/scripts/build.sh"
roced="$top/build/roced"
conf="$top/conf/roced.conf"
echo "== roced -n -f conf/roced.conf"
"$roced" -n -f "$conf"
echo
echo "== roced --dry-run -f conf/roced.conf (capabilities probed from this kernel)"
"$roced" --dry-run -f "$conf"
echo
echo "== the same plan for a full distro kernel: roced --dry-run --caps full"
"$roced" --dry-run --caps full -f "$conf"
