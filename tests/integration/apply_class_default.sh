#!/bin/sh
# class-default in a qos policy-map (and a class-map without match
# statements) applies: both are rules of protocol all without a key. In a
# private network namespace with a veth port swp1, on this machine's
# kernel: `roced --once` programs the port, the match-all rule is there
# (a return in roced's cls_bpf program),
# and a second `roced --once` writes nothing (the rule observed back is
# roced's own).
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
t_init apply_class_default
t_need_root
tmp=$t_tmp
fail() {
	echo "FAIL: $*"
	cat "$tmp/out" 2>/dev/null
	exit 1
}
t_netns_add ns cdefault
"$IP" -n "$ns" link add swp1 type veth peer name host1
"$IP" -n "$ns" link set swp1 up
in_ns() { "$IP" netns exec "$ns" "$@"; }
writes() { sed -n "s/^swp1: [a-z ]*, \([0-9]*\) writes\{0,1\},.*/\1/p" "$tmp/out"; }

# The shipped policy with `class class-default / set qos-group 0` last in
# the qos policy-map; then with a class-map that has no match statement.
python3 - "$top_srcdir/conf/roced.conf" "$tmp" <<'PY'
import sys
src, out = sys.argv[1], sys.argv[2]
s = open(src).read()
rule = '{ name = "ROCE_CLASS"; set-qos-group = 3; }'
assert rule in s
d = s.replace(rule, rule + ',\n\t\t\t\t{ name = "class-default"; set-qos-group = 0; }')
open(out + '/default.conf', 'w').write(d)
cmap = '{ name = "ROCE_CLASS"; match = "any"; cos = 3; dscp = 26; }'
assert cmap in s
e = s.replace(cmap, cmap + ',\n\t\t{ name = "EVERYTHING"; }')
e = e.replace(rule, rule + ',\n\t\t\t\t{ name = "EVERYTHING"; set-qos-group = 0; }')
open(out + '/empty.conf', 'w').write(e)
PY

for conf in default empty; do
	"$roced" -n -f "$tmp/$conf.conf" >"$tmp/out" 2>&1 || fail "$conf: roced -n"
	in_ns "$TC" qdisc del dev swp1 root 2>/dev/null || true
	in_ns "$roced" --once -f "$tmp/$conf.conf" >"$tmp/out" 2>"$tmp/err" ||
		fail "$conf: the first --once failed"
	grep -q '^swp1: ok, ' "$tmp/out" || fail "$conf: swp1 not ok"
	w=$(writes)
	[ "${w:-0}" -gt 10 ] || fail "$conf: the first --once wrote ${w:-?}"
	in_ns "$TC" -j filter show dev swp1 parent 4791: >"$tmp/f.json"
	python3 - "$tmp/f.json" <<'PY' || fail "$conf: no match-all rule"
import json, sys
f = json.load(open(sys.argv[1]))
rules = [(x['protocol'], x['pref'], x['options'].get('flowid'))
         for x in f if x.get('options', {}).get('flowid')]
# one cls_bpf program (no flower on this kernel): ROCE_CLASS to queue 3,
# then the class that takes everything returns queue 0's class, 4791:10
# (0x4791_0010), before the final -1
assert rules == [('all', 4791, '4791:10')], rules
ops = [(i['code'], i['k']) for i in f[-1]['options']['bytecode']['insns']]
assert ops[-3] == (6, 0x47910013), ops  # ret ROCE_CLASS's class
assert ops[-2] == (6, 0x47910010), ops  # ret: the class of everything
assert ops[-1] == (6, 0xffffffff), ops  # ret -1: class-default
PY
	in_ns "$roced" --once -f "$tmp/$conf.conf" >"$tmp/out" 2>"$tmp/err" ||
		fail "$conf: the second --once failed"
	[ "$(writes)" = 0 ] || fail "$conf: the second --once wrote $(writes)"
	echo "$conf: applied ($w writes), re-applied with 0 writes"
done
