#!/bin/sh
# import_cumulus: roced --import cumulus turns public Cumulus Linux 3.x
# traffic.conf files, Cumulus Linux 4.x/5.x qos_features.conf files and
# NVUE `nv set qos roce` commands (tests/cumulus/, each with its source)
# into a roced.conf that roced -n takes and roced --dry-run plans, with
# what each file's "# expect:" lines say it must hold, a FILE:LINE
# warning for every key it cannot map ("# expect-warning:"); a line it
# cannot read is a FILE:LINE warning and the rest is imported; a PFC
# CoS that the hosts' 802.1p does not reach is warned; what only the
# whole file can tell is refused with FILE:LINE and nothing written.
. "$top_srcdir/tests/integration/lib.sh"

t_init import_cumulus
tmp=$t_tmp
n=0

for f in "$top_srcdir"/tests/cumulus/*.traffic.conf \
	"$top_srcdir"/tests/cumulus/*.qos_features.conf \
	"$top_srcdir"/tests/cumulus/*.nvue; do
	name=${f##*/}
	out="$tmp/$name.roced.conf"
	err="$tmp/$name.err"
	"$roced" --import cumulus "$f" >"$out" 2>"$err" || {
		cat "$err"
		t_fail "$name: the import failed"
	}
	grep -q "imported" "$err" || t_fail "$name: no summary line"
	sed -n 's/^# expect: //p' "$f" >"$tmp/want"
	while IFS= read -r want; do
		grep -qF -- "$want" "$out" || {
			cat "$out"
			t_fail "$name: the roced.conf lacks: $want"
		}
	done <"$tmp/want"
	sed -n 's/^# expect-no: //p' "$f" >"$tmp/want"
	while IFS= read -r want; do
		grep -qF -- "$want" "$out" && t_fail "$name: the roced.conf has: $want"
	done <"$tmp/want"
	sed -n 's/^# expect-warning: //p' "$f" >"$tmp/want"
	while IFS= read -r want; do
		grep -F -- "$want" "$err" | grep -q "^$f:[0-9]*: warning: " || {
			cat "$err"
			t_fail "$name: no FILE:LINE warning saying: $want"
		}
	done <"$tmp/want"
	# Every warning names a line of the file, or the file itself.
	grep ': warning: ' "$err" | grep -v "^$f:[0-9]*: warning: \|^$f: warning: " &&
		t_fail "$name: a warning without the file's name"
	"$roced" -n -f "$out" >"$tmp/check" 2>&1 || {
		cat "$tmp/check"
		t_fail "$name: roced -n refuses the imported file"
	}
	# The ports it names are planned: the dry run has their root qdisc.
	for port in $(sed -n 's/^\t\tname = "\(.*\)";$/\1/p' "$out"); do
		"$roced" --dry-run --caps host -f "$out" >"$tmp/plan" 2>&1 ||
			t_fail "$name: the dry run fails: $(cat "$tmp/plan")"
		grep -q "dev $port .*root" "$tmp/plan" ||
			t_fail "$name: $port is not planned: $(cat "$tmp/plan")"
	done
	n=$((n + 1))
	echo "ok: $name ($(grep -c ': warning: ' "$err") warnings)"
done
[ "$n" -ge 7 ] || t_fail "only $n Cumulus files in tests/cumulus"

# --- bad input: refused, nothing written, the line named ---
bad()
{
	_what=$1
	_want=$2
	shift 2
	printf '%s\n' "$@" >"$tmp/bad.conf"
	if "$roced" --import cumulus "$tmp/bad.conf" >"$tmp/bad.out" 2>"$tmp/bad.err"; then
		t_fail "$_what: accepted"
	fi
	[ -s "$tmp/bad.out" ] && t_fail "$_what: wrote a roced.conf anyway"
	grep -q -- "$_want" "$tmp/bad.err" || {
		cat "$tmp/bad.err"
		t_fail "$_what: the error does not say '$_want'"
	}
	echo "ok: refused: $_what"
}
bad "not a traffic.conf" "$tmp/bad.conf: error: not a Cumulus Linux traffic.conf" \
	'interface = ( );' 'lldp = { timer = 30; };'
bad "xoff above the buffer" "$tmp/bad.conf:4: error: port group 'g': expected xon_delta" \
	'pfc.port_group_list = [g]' 'pfc.g.cos_list = [3]' 'pfc.g.port_set = swp1' \
	'pfc.g.xoff_size = 30000'
bad "ECN thresholds the wrong way round" "error: ECN port group 'e' needs" \
	'ecn.port_group_list = [e]' 'ecn.e.cos_list = [3]' 'ecn.e.port_set = swp1' \
	'ecn.e.min_threshold_bytes = 5000' 'ecn.e.max_threshold_bytes = 4000'
bad "a CoS in two priority groups" "error: priority group 'b': a CoS value is in two" \
	'traffic.priority_group_list = [a, b]' 'priority_group.a.cos_list = [1,2]' \
	'priority_group.b.cos_list = [2,3]'
printf 'traffic.packet_priority_source_set = [dscp]\0\n' >"$tmp/bin.conf"
"$roced" --import cumulus "$tmp/bin.conf" >"$tmp/bad.out" 2>"$tmp/bad.err" &&
	t_fail "a binary file was accepted"
grep -q "binary file" "$tmp/bad.err" || t_fail "a binary file: $(cat "$tmp/bad.err")"
"$roced" --import juniper "$f" >/dev/null 2>"$tmp/bad.err"
[ $? = 2 ] || t_fail "--import juniper is not a usage error"
grep -q "expected cumulus" "$tmp/bad.err" || t_fail "--import juniper: $(cat "$tmp/bad.err")"

# --- a line it cannot read: a FILE:LINE warning, the rest imported ---
skipped()
{
	_what=$1
	_want=$2
	_has=$3
	shift 3
	printf '%s\n' "$@" >"$tmp/skip.conf"
	"$roced" --import cumulus "$tmp/skip.conf" >"$tmp/skip.out" 2>"$tmp/skip.err" || {
		cat "$tmp/skip.err"
		t_fail "$_what: the import failed instead of skipping the line"
	}
	grep -q -- "^$tmp/skip.conf:$_want; line skipped\$" "$tmp/skip.err" || {
		cat "$tmp/skip.err"
		t_fail "$_what: no FILE:LINE warning '$_want; line skipped'"
	}
	grep -q "imported, .* (1 line skipped)\$" "$tmp/skip.err" ||
		t_fail "$_what: the summary does not count the skipped line: $(cat "$tmp/skip.err")"
	grep -qF -- "$_has" "$tmp/skip.out" || {
		cat "$tmp/skip.out"
		t_fail "$_what: the rest was not imported (no '$_has')"
	}
	"$roced" -n -f "$tmp/skip.out" >/dev/null 2>&1 || t_fail "$_what: roced -n refuses the import"
	echo "ok: skipped: $_what"
}
skipped "a line that is not key = value" "2: warning: expected 'key = value', got 'pfc.g.cos_list \\[3\\]'" \
	'pause-pfc-cos = 3;' \
	'pfc.port_group_list = [g]' 'pfc.g.cos_list [3]' 'pfc.g.cos_list = [3]' 'pfc.g.port_set = swp1'
skipped "a stray line in the middle" "3: warning: expected 'key = value', got 'Ethernet1/1'" \
	'name = "swp2";' \
	'pfc.port_group_list = [g]' 'pfc.g.cos_list = [3]' 'Ethernet1/1' 'pfc.g.port_set = swp2'
skipped "a CoS out of range" "3: warning: pfc.g.cos_list: '8' is not an integer 0-7" \
	'pause-pfc-cos = 4;' \
	'pfc.port_group_list = [g, h]' 'pfc.g.port_set = swp1' 'pfc.g.cos_list = [3, 8]' \
	'pfc.h.cos_list = [4]' 'pfc.h.port_set = swp2'
skipped "a backwards port range" "3: warning: pfc.g.port_set: 'swp4-swp1' is not a range of one kind of port (swp1-swp4, swp50s0-swp50s3)" \
	'name = "swp7";' \
	'pfc.port_group_list = [g]' 'pfc.g.cos_list = [3]' 'pfc.g.port_set = swp4-swp1' \
	'ecn.port_group_list = [e]' 'ecn.e.cos_list = [3]' 'ecn.e.port_set = swp7' \
	'ecn.e.min_threshold_bytes = 4000' 'ecn.e.max_threshold_bytes = 5000'
skipped "an NVUE mode it does not know" "2: warning: nv set qos roce mode: 'fast' is not lossless or lossy" \
	'roce = "lossless";' \
	'nv set qos roce' 'nv set qos roce mode fast'

# --- the hosts' PCP and the no-drop CoS ---
printf '%s\n' 'traffic.packet_priority_source_set = [802.1p]' \
	'traffic.cos_3.priority_source.8021p = [4]' 'traffic.cos_4.priority_source.8021p = [3]' \
	'pfc.port_group_list = [g]' 'pfc.g.cos_list = [3]' 'pfc.g.port_set = swp1' >"$tmp/pcp.conf"
"$roced" --import cumulus "$tmp/pcp.conf" >"$tmp/pcp.out" 2>"$tmp/pcp.err" || t_fail "pcp: $(cat "$tmp/pcp.err")"
grep -q "^$tmp/pcp.conf:5: warning: PFC port group 'g': no-drop CoS 3, but 802.1p 3 (the PCP hosts send for it) is classified to internal CoS 4 at line 3" "$tmp/pcp.err" ||
	t_fail "pcp: the mismatch is not warned: $(cat "$tmp/pcp.err")"
printf '%s\n' 'traffic.packet_priority_source_set = [802.1p]' \
	'traffic.cos_3.priority_source.8021p = [3]' \
	'pfc.port_group_list = [g]' 'pfc.g.cos_list = [3]' 'pfc.g.port_set = swp1' >"$tmp/pcp.conf"
"$roced" --import cumulus "$tmp/pcp.conf" >"$tmp/pcp.out" 2>"$tmp/pcp.err" || t_fail "pcp: $(cat "$tmp/pcp.err")"
grep -q "no-drop CoS" "$tmp/pcp.err" && t_fail "pcp: a matching PCP is warned: $(cat "$tmp/pcp.err")"
echo "ok: the hosts' PCP against the no-drop CoS"

# --- breakout ranges, a key with no equivalent, both named ---
printf '%s\n' 'pfc.port_group_list = [g]' 'pfc.g.cos_list = [3]' \
	'pfc.g.port_set = swp50s0-swp50s3,swp7' 'pfc.g.tx_enable = false' \
	'ecmp_max_paths = 0' 'frobnicate.x = 1' >"$tmp/misc.conf"
"$roced" --import cumulus "$tmp/misc.conf" >"$tmp/misc.out" 2>"$tmp/misc.err" ||
	t_fail "misc: $(cat "$tmp/misc.err")"
for p in swp50s0 swp50s1 swp50s2 swp50s3 swp7; do
	grep -q "name = \"$p\";" "$tmp/misc.out" || t_fail "misc: $p is not an interface"
done
grep -q "misc.conf:4: warning: pfc.g.tx_enable: not mapped (PFC runs both ways" "$tmp/misc.err" || t_fail "misc: tx_enable false not said"
grep -q "misc.conf:5: warning: ecmp_max_paths: not QoS" "$tmp/misc.err" || t_fail "misc: ecmp_max_paths not said"
grep -q "misc.conf:6: warning: frobnicate.x: not mapped" "$tmp/misc.err" || t_fail "misc: an unknown key not said"
echo "PASS: import_cumulus ($n files)"
