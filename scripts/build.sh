#!/bin/sh
# Configure and build roced out of tree in ./build (or $BUILD_DIR).
#   scripts/build.sh [configure options...]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}
cd "$top"
if [ ! -x configure ] || [ configure.ac -nt configure ] || [ Makefile.am -nt Makefile.in ]; then
	./autogen.sh >/dev/null 2>&1 || ./autogen.sh
fi
mkdir -p "$build"
cd "$build"
# Re-configure when the options change (a stamp keeps the last ones).
opts="$*"
if [ ! -f Makefile ] || [ "$(cat .roced-configure-opts 2>/dev/null)" != "$opts" ]; then
	# shellcheck disable=SC2086
	"$top/configure" $opts >/dev/null
	printf '%s' "$opts" >.roced-configure-opts
fi
make -j"$(nproc)" >/dev/null
echo "build: $build"
