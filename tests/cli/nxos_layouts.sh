#!/bin/sh
# nxos_layouts: roced's shows keep NX-OS's layout where NX-OS has one.
#
# Each tests/cli/nxos/*.txt holds a real NX-OS output (its source and
# edits in its header, the lines starting with "!") and directives naming
# its layout lines, the headers, rules and labels that are NX-OS's and not
# the device's data:
#   !@golden NAME.out   the golden transcript of tests/cli that shows it
#   !@line TEXT         a line that is TEXT, whole
#   !@prefix TEXT       a line that starts with TEXT
# Each directive must hold in the NX-OS output below it (so that it cannot
# drift from its source) and in the golden transcript, which
# run_transcripts.sh compares byte for byte with what roced prints.
set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
dir=$top_srcdir/tests/cli
fail=0
n=0

# has FILE KIND TEXT: FILE has such a line.
has() {
	if [ "$2" = line ]; then
		grep -qxF -- "$3" "$1"
	else
		awk -v p="$3" 'index($0, p) == 1 { f = 1 } END { exit !f }' "$1"
	fi
}

for ref in "$dir"/nxos/*.txt; do
	name=$(basename "$ref")
	body=$(mktemp) || exit 1
	grep -v '^!' "$ref" >"$body"
	golden=$(sed -n 's/^!@golden //p' "$ref")
	if [ -z "$golden" ] || [ ! -f "$dir/$golden" ]; then
		echo "FAIL: $name: no golden transcript (!@golden NAME.out)"
		fail=1
		rm -f "$body"
		continue
	fi
	while IFS= read -r d; do
		case $d in
		'!@line '*) kind=line text=${d#!@line } ;;
		'!@prefix '*) kind=prefix text=${d#!@prefix } ;;
		*) continue ;;
		esac
		n=$((n + 1))
		has "$body" "$kind" "$text" ||
			{ echo "FAIL: $name: NX-OS's output has no $kind '$text'"; fail=1; }
		has "$dir/$golden" "$kind" "$text" ||
			{ echo "FAIL: $name: $golden has no $kind '$text' (NX-OS's layout)"; fail=1; }
	done <"$ref"
	rm -f "$body"
done
[ "$n" -gt 0 ] || { echo "FAIL: no layout lines checked"; exit 1; }
[ "$fail" = 0 ] || exit 1
echo "nxos_layouts: $n layout lines of NX-OS found in roced's transcripts"
