#!/bin/sh
# dryrun_golden: `roced --dry-run` on the shipped configuration, for each
# capability preset, must print exactly tests/golden/dryrun-PRESET.txt.
#
# The golden files are the specification of the dry run: review every
# change to them by hand. After an intended change of the output,
#   UPDATE_GOLDEN=1 make check TESTS=tests/integration/dryrun_golden.sh
# (or run this script with UPDATE_GOLDEN=1) rewrites them.
set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
roced=$top_builddir/roced
conf=$top_srcdir/conf/roced.conf
golden_dir=$top_srcdir/tests/golden

if [ ! -x "$roced" ]; then
	echo "ERROR: $roced is not built"
	exit 99
fi

. "$top_srcdir/tests/integration/lib.sh"
t_init dryrun_golden
tmp=$t_tmp

rc=0
for caps in host full hw; do
	golden=$golden_dir/dryrun-$caps.txt
	out=$tmp/dryrun-$caps.txt
	if ! "$roced" --dry-run --caps "$caps" -f "$conf" >"$out" 2>"$tmp/err"; then
		echo "FAIL: roced --dry-run --caps $caps exited with an error:"
		cat "$tmp/err"
		rc=1
		continue
	fi
	# The shipped configuration must load without a word on stderr.
	if [ -s "$tmp/err" ]; then
		echo "FAIL: roced --dry-run --caps $caps wrote to stderr:"
		cat "$tmp/err"
		rc=1
	fi
	if [ -n "${UPDATE_GOLDEN:-}" ]; then
		cp "$out" "$golden" || exit 99
		echo "updated $golden"
		continue
	fi
	# The golden files are written by a roced that carries its BPF
	# programs: one built without them says so where the kernel path
	# would be taken (--caps full).
	if ! grep -q '^#define HAVE_BPF_PROGS 1' "$top_builddir/config.h" 2>/dev/null &&
		[ -f "$golden" ]; then
		sed 's/^# pause received honoured by roced'"'"'s process (held tbf): the kernel path is off .*/# pause received honoured by roced'"'"'s process (held tbf): roced was built without its BPF programs/' \
			"$golden" >"$tmp/golden-$caps.txt"
		golden=$tmp/golden-$caps.txt
	fi
	if [ ! -f "$golden" ]; then
		echo "FAIL: $golden is missing (UPDATE_GOLDEN=1 writes it)"
		rc=1
	elif diff -u "$golden" "$out"; then
		echo "ok: --caps $caps matches $golden"
	else
		echo "FAIL: --caps $caps differs from $golden (diff above:" \
			"- golden, + roced)"
		rc=1
	fi
done
exit $rc
