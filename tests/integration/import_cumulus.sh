#!/bin/sh
# import_cumulus: roced --import cumulus turns public Cumulus Linux 3.x
# traffic.conf files (tests/cumulus/, each with its source) into a
# roced.conf that roced -n takes and roced --dry-run plans, with what each
# file's "# expect:" lines say it must hold, a FILE:LINE warning for every
# key it cannot map ("# expect-warning:"), and bad input refused with
# FILE:LINE and nothing written.
. "$top_srcdir/tests/integration/lib.sh"

t_init import_cumulus
tmp=$t_tmp
n=0

for f in "$top_srcdir"/tests/cumulus/*.traffic.conf; do
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
[ "$n" -ge 4 ] || t_fail "only $n traffic.conf files in tests/cumulus"

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
bad "a line that is not key = value" "$tmp/bad.conf:2: error: expected 'key = value'" \
	'pfc.port_group_list = [g]' 'pfc.g.cos_list [3]'
bad "a CoS out of range" "$tmp/bad.conf:2: error: pfc.g.cos_list: '8' is not an integer 0-7" \
	'pfc.port_group_list = [g]' 'pfc.g.cos_list = [3, 8]' 'pfc.g.port_set = swp1'
bad "a backwards port range" "$tmp/bad.conf:3: error: pfc.g.port_set: 'swp4-swp1' is not a range" \
	'pfc.port_group_list = [g]' 'pfc.g.cos_list = [3]' 'pfc.g.port_set = swp4-swp1'
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
