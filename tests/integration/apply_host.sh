#!/bin/sh
# Host tier of `roced --once` on this machine's kernel, in a private
# network namespace with veth ports: cold apply, no-op re-apply, a change
# on one port, a port removed from the config, a foreign root qdisc
# (refused, then taken over), and kernel refusals (of an MTU, of a qdisc
# kind) rolled back.
# The kernel's state is read with `tc -j` and `ip -j`, and what roced
# writes is counted independently with `tc monitor`.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
t_init apply_host
t_need_root
tmp=$t_tmp
mon=""
t_netns_add ns apply
for i in 1 2 3; do
	"$IP" -n "$ns" link add "swp$i" type veth peer name "host$i"
done
in_ns() { "$IP" netns exec "$ns" "$@"; }
fail() { echo "FAIL: $*"; exit 1; }

# Three ports from the shipped policy: swp1 as shipped, swp2 and swp3 with
# their own copy of the queuing policy, so one can change alone.
python3 - "$top_srcdir/conf/roced.conf" "$tmp" <<'PY'
import sys
src, out = sys.argv[1], sys.argv[2]
s = open(src).read()
q0 = s.index('\t\t{\n\t\t\tname = "ROCE_QUEUING_OUT";')
q1 = s.index('\n\t\t}\n', q0) + 4
qblock = s[q0:q1]
s = s[:q1].rstrip('\n') + ',\n' + qblock.replace('ROCE_QUEUING_OUT', 'Q2').rstrip('\n') + '\n' + s[q1:]
i0 = s.index('interface = (')
b0 = s.index('{', i0)
b1 = s.index('\n\t}\n', b0) + 3
blk = s[b0:b1]
ports = [blk]
for n in (2, 3):
    ports.append(blk.replace('"swp1"', '"swp%d"' % n)
                    .replace('"Ethernet1/1"', '"Ethernet1/%d"' % n)
                    .replace('ROCE_QUEUING_OUT', 'Q2'))
three = s[:b0] + ',\n\t'.join(p.strip() for p in ports) + '\n' + s[b1:]
open(out + '/three.conf', 'w').write(three)
changed = three.replace('bandwidth-remaining-percent = 50;\n\t\t\t\t\trandom', 'bandwidth-remaining-percent = 70;\n\t\t\t\t\trandom', 1)
changed = changed.replace('{ name = "c-out-8q-q-default"; bandwidth-remaining-percent = 50; }', '{ name = "c-out-8q-q-default"; bandwidth-remaining-percent = 30; }', 1)
assert changed != three
open(out + '/changed.conf', 'w').write(changed)
two = three[:three.rindex(',\n\t{')] + '\n' + three[three.rindex(');'):]
open(out + '/two.conf', 'w').write(two)
take = three.replace('name = "swp3";', 'name = "swp3"; qdisc-takeover = true;')
open(out + '/takeover.conf', 'w').write(take)
PY
"$roced" -n --caps host -f "$tmp/three.conf" >/dev/null 2>&1 || fail "three.conf does not load"
"$roced" -n --caps host -f "$tmp/changed.conf" >/dev/null 2>&1 || fail "changed.conf does not load"

# Count tc objects roced writes, as the kernel announces them. Not through
# in_ns: $mon must be tc itself (ip netns exec execs it), or killing it
# leaves tc running.
monitor_start() {
	: >"$tmp/mon"
	t_spawn "$IP" netns exec "$ns" "$TC" monitor >"$tmp/mon" 2>/dev/null
	mon=$t_pid
	sleep 0.3
}
# Sets events (not a $(...): t_stop must run in this shell).
monitor_stop() {
	sleep 0.3
	t_stop "$mon" || true
	mon=""
	events=$(grep -c . "$tmp/mon" || true)
}
once() { in_ns "$roced" --once --caps probe "$@" 2>"$tmp/err"; }
writes() { sed -n "s/^$1: [a-z ]*, \([0-9]*\) writes\{0,1\},.*/\1/p" "$tmp/out"; }

# 1. cold apply
monitor_start
once -f "$tmp/three.conf" >"$tmp/out" || { cat "$tmp/out" "$tmp/err"; fail "cold apply"; }
monitor_stop
cat "$tmp/out"
for p in swp1 swp2 swp3; do
	w=$(writes "$p"); [ "${w:-0}" -gt 10 ] || fail "$p: cold apply wrote ${w:-?}"
	in_ns "$TC" -j qdisc show dev "$p" >"$tmp/q.json"
	in_ns "$TC" -j filter show dev "$p" parent 4791: >"$tmp/f.json"
	"$IP" -n "$ns" -j link show "$p" >"$tmp/l.json"
	python3 - "$tmp" "$p" <<'PY' || fail "$p: kernel state after cold apply"
import json, sys
d, p = sys.argv[1], sys.argv[2]
q = json.load(open(d + '/q.json'))
root = [x for x in q if x.get('root')]
assert len(root) == 1 and root[0]['kind'] == 'htb' and root[0]['handle'] == '4791:', root
leaves = sorted(x['handle'] for x in q if x.get('parent', '').startswith('4791:'))
assert leaves == ['47%d:' % (10 + i) for i in range(8)], leaves
# bfifo leaves, but the no-drop queue 3 on a released tbf (software PFC)
kinds = {x['handle']: x['kind'] for x in q if x.get('parent', '').startswith('4791:')}
assert all(k == ('tbf' if h == '4713:' else 'bfifo') for h, k in kinds.items()), kinds
f = json.load(open(d + '/f.json'))
rules = [(x['kind'], x['protocol'], x['options'].get('flowid'))
         for x in f if x.get('options', {}).get('flowid')]
# no flower here: one cls_bpf program for the policy, the rest to q-default
assert rules == [('bpf', 'all', '4791:10')], rules
mtu = json.load(open(d + '/l.json'))[0]['mtu']
assert mtu == 9216, mtu
PY
done
echo "cold apply: $events tc events"

# 2. no-op re-apply: nothing written, nothing announced
monitor_start
once -f "$tmp/three.conf" >"$tmp/out" || fail "re-apply"
monitor_stop
for p in swp1 swp2 swp3; do [ "$(writes $p)" = 0 ] || fail "$p re-apply wrote $(writes $p)"; done
[ "$events" = 0 ] || { cat "$tmp/mon"; fail "re-apply made $events kernel changes"; }
echo "re-apply: 0 writes, 0 tc events"

# 3. one queue's bandwidth changes in swp1's policy only
monitor_start
once -f "$tmp/changed.conf" >"$tmp/out" || fail "change"
monitor_stop
cat "$tmp/out"
[ "$(writes swp1)" = 2 ] || fail "swp1 should change exactly its two classes"
[ "$(writes swp2)" = 0 ] && [ "$(writes swp3)" = 0 ] || fail "other ports touched"
grep -q 'dev swp2\|dev swp3' "$tmp/mon" && fail "tc monitor saw swp2/swp3 change"
in_ns "$TC" class show dev swp1 classid 4791:13 | grep -q 'rate 7Gbit' || fail "q3 rate"
echo "change: swp1 2 writes ($events tc events), others 0"

# 4. swp3 removed from the config: roced removes what it put there
once -f "$tmp/two.conf" >"$tmp/out" || fail "removal"
cat "$tmp/out"
in_ns "$TC" qdisc show dev swp3 | grep -q 4791: && fail "swp3 still has roced's qdiscs"
echo "removal: swp3 cleaned"

# 5. a foreign root qdisc: refused and left alone, unless taken over
in_ns "$TC" qdisc add dev swp3 root handle 1: htb default 1
if once -f "$tmp/three.conf" >"$tmp/out"; then fail "foreign root accepted"; fi
grep -q '^swp3: refused' "$tmp/out" || fail "swp3 not refused"
grep -q 'htb 1:' "$tmp/out" || fail "refusal does not name the qdisc"
in_ns "$TC" qdisc show dev swp3 | grep -q 'htb 1: root' || fail "foreign root touched"
once -f "$tmp/takeover.conf" >"$tmp/out" || fail "takeover"
in_ns "$TC" qdisc show dev swp3 | grep -q 'htb 4791: root' || fail "takeover did not apply"
echo "foreign root: refused, then taken over with qdisc-takeover"

# 6. the kernel refuses the MTU (a macvlan cannot exceed its lower link's):
#    the refusal names the port and the MTU, and the port, whose tc objects
#    went in the same batch, goes back to holding nothing of roced's
"$IP" -n "$ns" link del swp2
"$IP" -n "$ns" link add low2 type veth peer name lowp2
"$IP" -n "$ns" link add swp2 link low2 type macvlan mode bridge
if once -f "$tmp/three.conf" --ports swp2 >"$tmp/out"; then fail "an MTU above the lower link's was accepted"; fi
cat "$tmp/out"
grep -q '^swp2: rolled back' "$tmp/out" || fail "swp2 not rolled back"
grep -q 'swp2: change link mtu 9216: Invalid argument' "$tmp/out" || fail "the MTU refusal is not reported"
in_ns "$TC" qdisc show dev swp2 | grep -q 4791: && fail "swp2 keeps roced's qdiscs after the rollback"
[ "$("$IP" -n "$ns" -j link show swp2 | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["mtu"])')" = 1500 ] ||
	fail "swp2's MTU changed"
echo "MTU refusal: reported on swp2, rolled back"

# 7. the kernel refuses (an ets plan on a kernel without sch_ets): the port
#    goes back exactly as it was, its MTU too (written in the same batch).
#    Without a no-drop class: software PFC's hold would make --caps full
#    plan htb (roced(8), Layouts), which this kernel has.
sed 's/pause-pfc-cos = 3; //' "$tmp/changed.conf" >"$tmp/ets.conf"
grep -q 'pause-pfc-cos = ' "$tmp/ets.conf" && fail "ets.conf still has a no-drop class"
"$roced" --dry-run --caps full -f "$tmp/ets.conf" 2>/dev/null | grep -q '^# layout ets+red' ||
	fail "ets.conf does not plan ets with --caps full"
in_ns "$IP" link set swp1 mtu 1500
in_ns "$TC" -j qdisc show dev swp1 >"$tmp/before.q"
in_ns "$TC" -j filter show dev swp1 parent 4791: >"$tmp/before.f"
in_ns "$TC" class show dev swp1 >"$tmp/before.c"
if in_ns "$roced" --once --caps full --ports swp1 -f "$tmp/ets.conf" >"$tmp/out" 2>/dev/null; then
	in_ns "$TC" qdisc add dev lo root handle 9: ets bands 2 2>/dev/null &&
		{ echo "SKIP part 6: this kernel has sch_ets"; exit 0; }
	fail "an ets plan was accepted by a kernel without ets"
fi
cat "$tmp/out"
grep -q '^swp1: rolled back' "$tmp/out" || fail "not rolled back"
grep -q 'Specified qdisc kind is unknown' "$tmp/out" || fail "no extack text"
in_ns "$TC" -j qdisc show dev swp1 >"$tmp/after.q"
in_ns "$TC" -j filter show dev swp1 parent 4791: >"$tmp/after.f"
in_ns "$TC" class show dev swp1 >"$tmp/after.c"
python3 - "$tmp" <<'PY' || fail "rollback did not restore the port"
import json, sys
d = sys.argv[1]
def q(name):
    return sorted((x['kind'], x['handle'], x.get('parent', 'root'), json.dumps(x.get('options', {}), sort_keys=True))
                  for x in json.load(open(d + '/' + name)))
def f(name):
    return sorted(json.dumps(x, sort_keys=True) for x in json.load(open(d + '/' + name)))
assert q('before.q') == q('after.q'), (q('before.q'), q('after.q'))
assert f('before.f') == f('after.f')
PY
sort "$tmp/before.c" >"$tmp/b"; sort "$tmp/after.c" >"$tmp/a"
cmp -s "$tmp/b" "$tmp/a" || { diff "$tmp/b" "$tmp/a"; fail "classes differ after rollback"; }
[ "$("$IP" -n "$ns" -j link show swp1 | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["mtu"])')" = 1500 ] ||
	fail "the rollback did not put swp1's MTU back"
once -f "$tmp/takeover.conf" --ports swp1 >"$tmp/out"
[ "$(writes swp1)" = 1 ] || fail "after rollback the port is not as planned but for its MTU"
echo "refusal: rolled back to the exact previous state"
echo "PASS: apply_host"
