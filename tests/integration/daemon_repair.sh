#!/bin/sh
# roced repairs what others change on its ports (daemon/core/daemon.c,
# daemon_tc_changed), in a private namespace, without any reload:
#  1. swp1's root qdisc deleted with tc: rebuilt, with one log line saying
#     what happened;
#  2. a class rate of swp2 changed with tc: put back;
#  3. a foreign leaf grafted under a class of swp3: replaced by roced's;
#     roced's cls_bpf program replaced by another: put back;
#  4. `roced --once` is refused while the daemon serves the namespace, and
#     runs with --force; changes whose notifications were lost are found
#     (every port is checked);
#  5. a loop that keeps deleting swp1's root: after PORTS_REPAIR_MAX
#     repairs the port is contested (logged once, "contested": true in
#     show queuing interface json) and left alone; a reload repairs it and
#     ends the contest.
# Every wait polls with a generous bound; no timing is asserted.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
t_init daemon_repair
t_need_root
tmp=$t_tmp
loop=""
fail() { t_fail "$@"; }
in_ns() { "$IP" netns exec "$ns" "$@"; }
has_root() { in_ns "$TC" qdisc show dev "$1" | grep -q 'htb 4791: root'; }
q3_rate() { in_ns "$TC" class show dev "$1" classid 4791:13 | grep -q 'rate 5Gbit'; }
roced_leaf() {
	in_ns "$TC" qdisc show dev "$1" >"$tmp/q"
	grep -q 'tbf 4713: parent 4791:13' "$tmp/q" && ! grep -q 'pfifo 10:' "$tmp/q"
}
count() { grep -c "$1" "$tmp/log" || true; }

# Three ports of the shipped policy, and swp9 that the file does not name.
t_conf_ports "$tmp/roced.conf" swp1 swp2 swp3
t_netns_add ns repair
for p in swp1 swp2 swp3 swp9; do
	"$IP" -n "$ns" link add "$p" type veth peer name "${p}p"
done
t_roced_start "$ns" "$tmp/roced.conf" 'mirroring' --caps probe -D apply
pid=$roced_pid
for p in swp1 swp2 swp3; do has_root "$p" || fail "$p: no root after start"; done

# 1. root deleted: back, and said once
in_ns "$TC" qdisc del dev swp1 root
t_until 10 has_root swp1 || fail "swp1's root not restored"
t_until 10 grep -q 'swp1: .*by another process.*: repairing' "$tmp/log" ||
	fail "no repair line for swp1"
sleep 1 # a second repair line would come now
[ "$(count 'swp1: .*: repairing')" = 1 ] || fail "not one repair line for swp1"
grep -q 'swp1: qdisc htb 4791: root deleted by another process: repairing' "$tmp/log" ||
	fail "the repair line does not say what changed"
# swp1 alone went through the pass that repaired it
grep -B3 'swp1: .*: repairing' "$tmp/log" | grep -q 'reconcile: 1 ports (1 observed)' ||
	fail "the repair of swp1 was not a pass of its own"
echo "root deleted on swp1: restored; $(grep 'swp1: .*repairing' "$tmp/log")"

# 2. a class rate changed: put back
in_ns "$TC" class change dev swp2 parent 4791:1 classid 4791:13 htb rate 1gbit ceil 10gbit prio 1
t_until 10 q3_rate swp2 || fail "swp2's class 4791:13 not restored"
t_until 10 grep -q 'swp2: class htb 4791:13 .* by another process: repairing' "$tmp/log" ||
	fail "no repair line for swp2"
echo "class rate changed on swp2: restored"

# 3. a foreign leaf under a roced class: replaced by roced's
in_ns "$TC" qdisc replace dev swp3 parent 4791:13 handle 10: pfifo
t_until 10 roced_leaf swp3 || { cat "$tmp/q"; fail "swp3's foreign leaf not replaced"; }
t_until 10 grep -q 'swp3: qdisc tbf 4713: under 4791:13 replaced by pfifo 10: by another process: repairing' \
	"$tmp/log" || fail "no repair line for swp3"
echo "foreign leaf grafted on swp3: replaced"

# 3b. roced's classification program (one cls_bpf filter where the kernel
#     has no flower, as here) replaced by someone else's: put back
prog() { in_ns "$TC" filter show dev swp3 parent 4791: | sed -n "s/.* bpf .*\(bytecode '[^']*'\).*/\1/p"; }
want=$(prog)
if [ -n "$want" ]; then
	in_ns "$TC" filter del dev swp3 parent 4791: prio 4791
	in_ns "$TC" filter add dev swp3 parent 4791: protocol all prio 4791 bpf \
		bytecode '1,6 0 0 4294967295' classid 4791:10
	same_prog() { [ "$(prog)" = "$want" ]; }
	t_until 10 same_prog || fail "swp3's cls_bpf program not restored: $(prog)"
	t_until 10 grep -q 'swp3: filter bpf prio 4791 .*by another process.*: repairing' "$tmp/log" ||
		fail "no repair line for swp3's filter"
	echo "cls_bpf program replaced on swp3: restored; $(grep 'swp3: filter .*repairing' "$tmp/log" | tail -1)"
else
	echo "3b not run: this kernel classifies without cls_bpf (flower)"
fi

# 4. --once beside the daemon: refused, unless forced
if in_ns "$roced" -f "$tmp/roced.conf" --caps probe --once >"$tmp/once" 2>&1; then
	cat "$tmp/once"
	fail "--once ran beside the daemon"
fi
grep -q 'roced.*is already running' "$tmp/once" || { cat "$tmp/once"; fail "--once: no reason"; }
in_ns "$roced" -f "$tmp/roced.conf" --caps probe --once --force >"$tmp/once" 2>&1 ||
	{ cat "$tmp/once"; fail "--once --force failed"; }
grep -q 'roced: 3 ports, 0 writes' "$tmp/once" || { cat "$tmp/once"; fail "--once --force wrote"; }
echo "--once beside the daemon: refused; with --force: ran"

# 4b. notifications lost: roced stopped while a flood of changes on swp9
#     (not roced's) overruns its buffer, then a change on swp2 whose
#     notification is lost too: every port is checked, swp2 put right
in_ns "$TC" qdisc add dev swp9 root handle 1: htb
in_ns "$TC" class add dev swp9 parent 1: classid 1:1 htb rate 1mbit
i=0
while [ "$i" -lt 20000 ]; do
	echo "class change dev swp9 parent 1: classid 1:1 htb rate $((1 + i % 2))mbit"
	i=$((i + 1))
done >"$tmp/flood"
kill -STOP "$pid"
in_ns "$TC" -batch "$tmp/flood" || { kill -CONT "$pid"; fail "tc -batch"; }
in_ns "$TC" class change dev swp2 parent 4791:1 classid 4791:13 htb rate 1gbit ceil 10gbit prio 1
kill -CONT "$pid"
t_until 30 q3_rate swp2 || fail "swp2's class 4791:13 not restored after lost notifications"
grep -q 'tc notifications were lost' "$tmp/log" || fail "no notification was lost (flood too small?)"
echo "notifications lost: every port checked, swp2 restored"

# 5. someone keeps deleting swp1's root: contested, logged once, in show
n0=$(count 'swp1: .*: repairing')
# A program, not a ( ... ) &: the pid must be what t_stop and the cleanup
# stop.
t_spawn sh -c 'while :; do "$1" netns exec "$2" "$3" qdisc del dev swp1 root 2>/dev/null; sleep 0.1; done' \
	loop "$IP" "$ns" "$TC"
loop=$t_pid
t_until 60 grep -q 'swp1: contested:' "$tmp/log" || fail "swp1 never contested"
n=$(($(count 'swp1: .*: repairing') - n0))
sleep 2 # the loop goes on deleting; roced must leave swp1 alone now
t_stop "$loop" || true
loop=""
# the repair of step 1 may be within the window too
[ "$n" -ge 4 ] && [ "$n" -le 5 ] || fail "expected 4 or 5 repairs of swp1 before giving up, got $n"
[ "$(($(count 'swp1: .*: repairing') - n0))" = "$n" ] || fail "swp1 repaired while contested"
has_root swp1 && fail "swp1 repaired while contested"
[ "$(count 'swp1: contested:')" = 1 ] || fail "contested not logged once"
in_ns python3 "$top_srcdir/tests/integration/ctl_client.py" send \
	'{"cmd":"show","what":"show queuing interface","args":[],"json":true}' >"$tmp/show"
python3 - "$tmp/show" <<'PY' || fail "show does not say swp1 is contested"
import json, sys
r = json.loads(open(sys.argv[1]).readline())
c = {p['name']: p['contested'] for p in r['data']['interface']}
assert c == {'swp1': True, 'swp2': False, 'swp3': False}, c
assert 'Contested' in r['text'], r['text']
PY
echo "swp1 contested after $n repairs: $(grep 'swp1: contested' "$tmp/log" | head -1)"

# ... and a reload takes it back
in_ns "$TC" qdisc del dev swp1 root 2>/dev/null || true
kill -HUP "$pid"
t_until 30 grep -q 'reloaded' "$tmp/log" || fail "reload did not finish"
t_until 10 has_root swp1 || fail "swp1's root not restored by the reload"
in_ns python3 "$top_srcdir/tests/integration/ctl_client.py" send \
	'{"cmd":"show","what":"show queuing interface","args":["swp1"],"json":true}' >"$tmp/show"
grep -q '"contested":false' "$tmp/show" || { cat "$tmp/show"; fail "swp1 still contested after the reload"; }
echo "reload: swp1 repaired and no longer contested"

t_roced_stop
echo "PASS: daemon_repair"
