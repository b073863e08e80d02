#!/bin/sh
# man_pages: roced(8) and roced.conf(5) are clean mdoc, render, and keep up
# with the code:
#   - `mandoc -Tlint -Wwarning` reports nothing for either page;
#   - `man -l` (groff, with its warnings on) renders each page without a
#     message, or `mandoc -Tutf8` when man-db is absent;
#   - every option `roced -h` prints has a tagged entry (.It Fl ...) in
#     roced.8, and every option entry there is one roced -h prints; the
#     --caps kinds roced accepts are each documented (.It Cm KIND);
#   - every setting name the config loader accepts has a tagged entry
#     (.It Ic NAME) in roced.conf.5, and every such entry is a setting the
#     loader accepts. The names come from two independent places, so that a
#     new key cannot slip past either: the name table of
#     lib/conf/conf_keys.c, and roced itself, which lists the settings it expects
#     when it meets an unknown one in each group of a probe file;
#   - the DSCP names (lib/model/policy_list.c), the PFC modes (lib/model/policy.c),
#     the size units (lib/model/units.c) and the debug subsystems
#     (lib/base/names.c) are all documented;
#   - the examples of roced.conf.5 load, and the first one is the shipped
#     conf/roced.conf (same dry run);
#   - rocesh(8) lints and renders too; every option `rocesh -h` prints has
#     a tagged entry there and vice versa; every command of rocesh's command
#     table (the names of lib/cmd/cmd_nxos.c's rows) starts an entry of its
#     COMMANDS section, and every mode's prompt is in it.
# Run by `make check` (top_srcdir and top_builddir from the environment)
# or by hand from a build directory.
set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-.}
roced=$top_builddir/roced
man8=$top_srcdir/man/roced.8
man5=$top_srcdir/man/roced.conf.5
rocesh=$top_builddir/rocesh
mansh=$top_srcdir/man/rocesh.8

if ! command -v mandoc >/dev/null 2>&1; then
	echo "SKIP: mandoc is not installed (scripts/install-deps.sh --test" \
		"installs it)"
	exit 77
fi
if [ ! -x "$roced" ]; then
	echo "SKIP: $roced is not built"
	exit 77
fi

. "$top_srcdir/tests/integration/lib.sh"
t_init man_pages
tmp=$t_tmp
failed=0

fail() {
	echo "FAIL: $*"
	failed=$((failed + 1))
}

# Rendered text without overstrike (bold/underline) sequences.
render() {
	mandoc -Tutf8 -Owidth=78 "$1" | sed 's/.\x08//g'
}

# --- 1. lint and rendering ---
for page in "$man8" "$man5" "$mansh"; do
	if [ ! -f "$page" ]; then
		fail "$page is missing"
		continue
	fi
	mandoc -Tlint -Wwarning "$page" >"$tmp/lint" 2>&1
	rc=$?
	if [ "$rc" -ne 0 ] || [ -s "$tmp/lint" ]; then
		fail "mandoc -Tlint -Wwarning $page (exit $rc):"
		cat "$tmp/lint"
	else
		echo "ok: mandoc -Tlint -Wwarning $page"
	fi
	title=$(sed -n 's/^\.Dt \([^ ]*\) .*/\1/p' "$page")
	if command -v man >/dev/null 2>&1; then
		how="man -l"
		MANWIDTH=80 MANPAGER=cat PAGER=cat man --warnings -l "$page" \
			>"$tmp/out" 2>"$tmp/err"
		rc=$?
	else
		how="mandoc -Tutf8"
		mandoc -Tutf8 "$page" >"$tmp/out" 2>"$tmp/err"
		rc=$?
	fi
	if [ "$rc" -ne 0 ] || [ -s "$tmp/err" ]; then
		fail "$how $page (exit $rc):"
		cat "$tmp/err"
	elif ! sed 's/.\x08//g' "$tmp/out" | grep -q "^$title(" ||
		! sed 's/.\x08//g' "$tmp/out" | grep -q '^NAME'; then
		fail "$how $page: no '$title(' header or NAME section"
		head -5 "$tmp/out"
	else
		echo "ok: $how $page renders"
	fi
done

# --- 2. roced -h against roced.8 ---
before=$failed
if ! "$roced" -h >"$tmp/help" 2>&1; then
	fail "roced -h exited with $?"
fi
# Options are the tokens -x and --word that start a help line or follow a
# blank, '[', '|' or ','.
grep -oE '(^|[][ |,])--?[A-Za-z][A-Za-z-]*' "$tmp/help" |
	sed 's/^[][ |,]*//' | sort -u >"$tmp/opts"
nopts=$(wc -l <"$tmp/opts")
if [ "$nopts" -lt 8 ]; then
	fail "only $nopts options found in roced -h: the extraction is broken"
	cat "$tmp/help"
fi
# The option entries of roced.8: every "Fl X" on an .It line.
grep '^\.It .*Fl ' "$man8" | grep -oE 'Fl -?[A-Za-z][A-Za-z-]*' |
	sed 's/^Fl /-/' | sort -u >"$tmp/documented"
while read -r opt; do
	if ! grep -qxF -- "$opt" "$tmp/documented"; then
		fail "roced -h has $opt, roced.8 has no '.It ... Fl ${opt#-}' entry"
	fi
done <"$tmp/opts"
while read -r opt; do
	if ! grep -qxF -- "$opt" "$tmp/opts"; then
		fail "roced.8 documents $opt, which roced -h does not list"
	fi
done <"$tmp/documented"
# Every option also appears in the rendered page (SYNOPSIS and entries).
render "$man8" >"$tmp/man8.txt"
while read -r opt; do
	if ! grep -qE -- "(^|[^A-Za-z-])$opt([^A-Za-z-]|\$)" "$tmp/man8.txt"; then
		fail "$opt does not appear in the rendered roced.8"
	fi
done <"$tmp/opts"
# The --caps kinds, as roced lists them when it meets an unknown one (it
# resolves capabilities per port, so the probe file names a port).
printf 'interface = ( { name = "swp1"; } );\n' >"$tmp/caps.conf"
"$roced" -n --caps zzzz -f "$tmp/caps.conf" >/dev/null 2>"$tmp/caps.err"
kinds=$(sed -n "s/.*invalid --caps 'zzzz', expected //p" "$tmp/caps.err" |
	sed 's/ or /, /g' | tr -d ',')
if [ "$(echo "$kinds" | wc -w)" -lt 4 ]; then
	fail "roced did not list the --caps kinds:"
	cat "$tmp/caps.err"
fi
for k in $kinds; do
	if ! grep -qE "^\.It Cm $k( |\$)" "$man8"; then
		fail "--caps $k has no '.It Cm $k' entry in roced.8"
	fi
done
[ "$failed" -eq "$before" ] &&
	echo "ok: $nopts options of roced -h checked against roced.8"

# --- 3. setting names against roced.conf.5 ---
before=$failed
# (a) The one table of setting names, lib/conf/conf_keys.c, which the
# loader and the writer both use: `[CONF_K_X] = "name",` entries.
sed -n '/conf_keys\[CONF_K_MAX\] = {/,/};/p' "$top_srcdir/lib/conf/conf_keys.c" |
	grep -oE '\] = "[^"]+"' | sed 's/^] = "//; s/"$//' | sort -u >"$tmp/keys.src"

# (b) What roced says it expects: an unknown setting in every group.
z=zzzzzzzzzzzzzzzz
cat >"$tmp/probe.conf" <<EOF
$z = 0;
class-map = {
	$z = 0;
	qos = ( { name = "C"; $z = 0; } );
	network-qos = ( { name = "N"; $z = 0; } );
};
policy-map = {
	$z = 0;
	qos = ( { name = "P"; $z = 0; class = ( { name = "C"; $z = 0; } ); } );
	queuing = ( { name = "Q"; $z = 0; class = ( { name = "c-out-8q-q3";
		$z = 0; random-detect = { $z = 0; }; } ); } );
	network-qos = ( { name = "NQ"; $z = 0;
		class = ( { name = "N"; $z = 0; } ); } );
};
system-qos = { $z = 0; service-policy = { $z = 0; }; };
interface = ( { name = "swp1"; $z = 0; priority-flow-control = { $z = 0; };
	service-policy = { $z = 0; }; } );
priority-flow-control = { $z = 0; watch-dog = { $z = 0; }; };
metrics = { $z = 0; };
EOF
"$roced" -n --caps host -f "$tmp/probe.conf" >/dev/null 2>"$tmp/probe.err"
ngroups=$(grep -c "unknown setting '$z'" "$tmp/probe.err")
if [ "$ngroups" -lt 19 ]; then
	fail "roced reported an unknown setting in $ngroups groups, expected 19"
	cat "$tmp/probe.err"
fi
grep "unknown setting '$z'" "$tmp/probe.err" |
	sed -n 's/.*expected one of: //p' | tr ',' '\n' |
	sed 's/^ *//; s/ *$//' | grep . | sort -u >"$tmp/keys.run"

for src in src run; do
	n=$(wc -l <"$tmp/keys.$src")
	if [ "$n" -lt 30 ]; then
		fail "only $n setting names from the $src side: extraction broken"
	fi
done
sort -u "$tmp/keys.src" "$tmp/keys.run" >"$tmp/keys"
grep '^\.It Ic ' "$man5" | awk '{ print $3 }' | sort -u >"$tmp/keys.man"
while read -r key; do
	if ! grep -qxF -- "$key" "$tmp/keys.man"; then
		fail "setting '$key' has no '.It Ic $key' entry in roced.conf.5"
	fi
done <"$tmp/keys"
while read -r key; do
	if ! grep -qxF -- "$key" "$tmp/keys"; then
		fail "roced.conf.5 documents '$key', which the loader does not accept"
	fi
done <"$tmp/keys.man"
[ "$failed" -eq "$before" ] &&
	echo "ok: $(wc -l <"$tmp/keys") setting names checked against roced.conf.5"

# --- 4. value words ---
before=$failed
# DSCP names with their values: ".Ql af31" then "(26)" on the next line.
grep -oE '\{"[a-z0-9]+", *[0-9]+\}' "$top_srcdir/lib/model/policy_list.c" |
	tr -d '{}",' >"$tmp/dscp"
ndscp=$(wc -l <"$tmp/dscp")
if [ "$ndscp" -lt 20 ]; then
	fail "only $ndscp DSCP names found in lib/model/policy_list.c"
fi
while read -r name value; do
	if ! grep -A1 -xF ".Ql $name" "$man5" | grep -q "^($value)"; then
		fail "DSCP name $name ($value) is not documented in roced.conf.5"
	fi
done <"$tmp/dscp"
# PFC modes and size units, quoted as the file writes them.
words=$(sed -n '/} policy_pfc_mode_names\[[A-Z_]*\] = {/,/};/p' \
	"$top_srcdir/lib/model/policy.c" | grep -oE '\{"[a-z]+"' | tr -d '{"' | tr '\n' ' ')
units=$(sed -n '/} units_sizes\[[A-Z_]*\] = {/,/};/p' \
	"$top_srcdir/lib/model/units.c" | grep -oE '\{"[a-z]+"' | tr -d '{"' | tr '\n' ' ')
if [ "$(echo "$words" | wc -w)" -lt 3 ] || [ "$(echo "$units" | wc -w)" -lt 3 ]; then
	fail "PFC mode or unit tables not found: '$words' / '$units'"
fi
render "$man5" >"$tmp/man5.txt"
# shellcheck disable=SC2086 # one word per mode
for w in $words; do
	grep -qF "\"$w\"" "$tmp/man5.txt" ||
		fail "PFC mode \"$w\" is not in roced.conf.5"
done
# shellcheck disable=SC2086 # one word per unit
for u in $units; do
	grep -qF " $u\"" "$tmp/man5.txt" ||
		fail "size unit \"N $u\" is not in roced.conf.5"
done
# Debug subsystems: roced -D in roced.8 and rocesh's debug command.
subsys=$(sed -n '/} names_debug_table\[[A-Z_]*\] = {/,/};/p' \
	"$top_srcdir/lib/base/names.c" | grep -oE '\{"[a-z]+"' | tr -d '{"' | tr '\n' ' ')
if [ "$(echo "$subsys" | wc -w)" -lt 5 ]; then
	fail "debug subsystem table not found in lib/base/names.c: '$subsys'"
fi
shdebug=$(grep '^\.It .*Ic debug ' "$mansh")
# shellcheck disable=SC2086 # one word per subsystem
for w in all $subsys; do
	sed -n '/^\.It Fl D /,/^\.It /p' "$man8" | grep -qE "^\.Cm $w [,.]\$" ||
		fail "debug subsystem $w is not listed under roced -D in roced.8"
	echo "$shdebug" | grep -qE "(Cm|\|) $w( |\$)" ||
		fail "debug subsystem $w is not in rocesh.8's debug entry"
done
[ "$failed" -eq "$before" ] &&
	echo "ok: $ndscp DSCP names, PFC modes (${words% }), units (${units% })," \
		"debug subsystems (${subsys% })"

# --- 5. the examples of roced.conf.5 load; the first is the shipped one ---
awk '/^\.Sh EXAMPLES/ { ex = 1; next }
     /^\.Sh / { ex = 0 }
     ex && /^\.Bd -literal/ { n++; f = sprintf("'"$tmp"'/example%d.conf", n); on = 1; next }
     on && /^\.Ed/ { on = 0; close(f); next }
     on { gsub(/\\&/, ""); gsub(/\\e/, "\\"); print > f }' "$man5"
nex=0
for ex in "$tmp"/example*.conf; do
	[ -e "$ex" ] || break
	nex=$((nex + 1))
	if ! "$roced" -n --caps host -f "$ex" >"$tmp/out" 2>"$tmp/err" ||
		! grep -qx 'configuration OK' "$tmp/out"; then
		fail "example $nex of roced.conf.5 does not load:"
		cat "$tmp/err"
	fi
done
if [ "$nex" -lt 1 ]; then
	fail "no literal example in the EXAMPLES of roced.conf.5"
else
	"$roced" --dry-run --caps full -f "$tmp/example1.conf" >"$tmp/ex.plan" 2>&1
	"$roced" --dry-run --caps full -f "$top_srcdir/conf/roced.conf" \
		>"$tmp/ref.plan" 2>&1
	if ! cmp -s "$tmp/ex.plan" "$tmp/ref.plan"; then
		fail "the first example of roced.conf.5 is not conf/roced.conf:"
		diff "$tmp/ref.plan" "$tmp/ex.plan" | head -20
	else
		echo "ok: $nex examples load; the first plans as conf/roced.conf"
	fi
fi

# --- 6. rocesh -h and the command table against rocesh.8 ---
before=$failed
if ! "$rocesh" -h >"$tmp/shhelp" 2>&1; then
	fail "rocesh -h exited with $?"
fi
grep -oE '(^|[][ |,])--?[A-Za-z][A-Za-z-]*' "$tmp/shhelp" |
	sed 's/^[][ |,]*//' | sort -u >"$tmp/shopts"
if [ "$(wc -l <"$tmp/shopts")" -lt 8 ]; then
	fail "only $(wc -l <"$tmp/shopts") options in rocesh -h: extraction broken"
	cat "$tmp/shhelp"
fi
grep '^\.It .*Fl ' "$mansh" | grep -oE 'Fl -?[A-Za-z][A-Za-z-]*' |
	sed 's/^Fl /-/' | sort -u >"$tmp/shdoc"
while read -r opt; do
	grep -qxF -- "$opt" "$tmp/shdoc" ||
		fail "rocesh -h has $opt, rocesh.8 has no '.It ... Fl ${opt#-}' entry"
done <"$tmp/shopts"
while read -r opt; do
	grep -qxF -- "$opt" "$tmp/shopts" ||
		fail "rocesh.8 documents $opt, which rocesh -h does not list"
done <"$tmp/shdoc"
# The command names of the table: the string after the kind of each row
# ({MODES, KCONF, "name", "syntax", ...}), rows joined onto one line.
# Show commands are named by the CTL_WHAT_* strings of lib/ctl/ctl.h, the
# protocol's table: put each string in place of its name first.
sed -n 's/^#define \(CTL_WHAT_[A-Z_]*\) *\("[^"]*"\)$/s|\\b\1\\b|\2|g/p' \
	"$top_srcdir/lib/ctl/ctl.h" >"$tmp/what.sed"
[ "$(wc -l <"$tmp/what.sed")" -ge 9 ] ||
	fail "the show names (CTL_WHAT_*) were not found in lib/ctl/ctl.h"
sed -f "$tmp/what.sed" "$top_srcdir"/lib/cmd/cmd_nxos*.c | tr '\n' ' ' |
	grep -oE 'K(CONF|MODE|SHOW|ACT), *"[^"]+"' |
	sed 's/^[^"]*"//; s/"$//' | sort -u >"$tmp/cmds"
ncmds=$(wc -l <"$tmp/cmds")
if [ "$ncmds" -lt 40 ]; then
	fail "only $ncmds commands found in lib/cmd/cmd_nxos*.c: extraction broken"
fi
# In the rendered COMMANDS section, each starts an entry, perhaps after
# "[no] ".
mandoc -Tutf8 -Owidth=200 "$mansh" | sed 's/.\x08//g' |
	sed -n '/^COMMANDS/,/^[A-Z]/p' >"$tmp/shcmds.txt"
while read -r cmd; do
	grep -qE "^ +(\[no\] )?$cmd( |\$)" "$tmp/shcmds.txt" ||
		fail "command '$cmd' (lib/cmd/cmd_nxos*.c) has no entry in rocesh.8"
done <"$tmp/cmds"
# Every mode's prompt, from the mode names of lib/cmd/cmd_ctx.c.
sed -n '/cmd_mode_names\[[A-Z_]*\] = {/,/};/p' "$top_srcdir/lib/cmd/cmd_ctx.c" |
	grep -oE '"[a-z-]+"' | tr -d '"' >"$tmp/modes"
if [ "$(wc -l <"$tmp/modes")" -lt 12 ]; then
	fail "mode names not found in lib/cmd/cmd_ctx.c"
fi
while read -r mode; do
	if [ "$mode" = exec ]; then p='roced#'; else p="roced($mode)#"; fi
	grep -qF ".It Li $p " "$mansh" || fail "prompt $p is not in rocesh.8"
done <"$tmp/modes"
[ "$failed" -eq "$before" ] &&
	echo "ok: rocesh.8: $(wc -l <"$tmp/shopts") options, $ncmds commands," \
		"$(wc -l <"$tmp/modes") prompts"

if [ "$failed" -ne 0 ]; then
	echo "$failed checks failed"
	exit 1
fi
echo "all man page checks passed"
