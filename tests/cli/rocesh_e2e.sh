#!/bin/sh
# rocesh_e2e: rocesh against real roced daemons, each in a private network
# namespace with a port swp1 (a veth):
#   - namespace A starts with an empty configuration; the NX-OS reference
#     (conf/nxos-roce.txt, the reference Nexus RoCE configuration) is piped
#     into rocesh after one pre-step that names the port (interface swp1,
#     alias Ethernet1/1: the reference says Ethernet1/1, and an NX-OS name
#     cannot create a Linux port). Namespace B starts with the shipped
#     conf/roced.conf. Both must end with the same kernel state (tc -j,
#     MTU) and the same `show running-config` (text and json);
#   - every show command, with and without `json`, succeeds and its json
#     output parses;
#   - rocesh's exit status: 0 for good commands, 1 for a refused one
#     (locally or by roced) or an unreachable daemon, 2 for a usage error;
#     -e stops at the first error; an error from roced about an
#     abbreviated line gets its caret under the word as it was typed;
#   - copy running-config startup-config writes a file that roced loads
#     and that plans exactly as the shipped one.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
ref="$top_srcdir/conf/nxos-roce.txt"

t_init rocesh_e2e
t_need_root
if [ ! -f "$ref" ]; then
	echo "FAIL: the NX-OS reference $ref is missing from the tree"
	exit 1
fi
tmp=$t_tmp
fail() {
	echo "FAIL: $*"
	for f in a b; do
		echo "--- roced log ($f)"
		cat "$tmp/$f.log" 2>/dev/null
	done
	exit 1
}
sh_a() { "$IP" netns exec "$nsa" "$rocesh" "$@"; }
sh_b() { "$IP" netns exec "$nsb" "$rocesh" "$@"; }

t_netns_add nsa rocesh-a
t_netns_add nsb rocesh-b
for ns in "$nsa" "$nsb"; do
	"$IP" -n "$ns" link add swp1 type veth peer name host1
done
printf '# empty: rocesh fills it in\n' >"$tmp/a.conf"
cp "$top_srcdir/conf/roced.conf" "$tmp/b.conf"
# Not through sh_a: the pid must be roced itself (ip netns exec execs it).
t_spawn "$IP" netns exec "$nsa" "$roced" -f "$tmp/a.conf" >"$tmp/a.log" 2>&1
pida=$t_pid
t_spawn "$IP" netns exec "$nsb" "$roced" -f "$tmp/b.conf" >"$tmp/b.log" 2>&1
pidb=$t_pid
for sh in sh_a sh_b; do
	for _ in $(seq 100); do
		$sh -c 'show running-config' >/dev/null 2>&1 && break
		sleep 0.05
	done
	$sh -c 'show running-config' >/dev/null || fail "$sh: roced does not answer"
done

# --- 1. the reference pasted gives the shipped file's state ---
sh_a -c 'configure terminal ; interface swp1 ; alias Ethernet1/1' ||
	fail "the pre-step (interface swp1, alias Ethernet1/1) failed"
if ! sh_a <"$ref" >"$tmp/paste.out" 2>"$tmp/paste.err"; then
	cat "$tmp/paste.err"
	fail "rocesh < nxos-roce.txt exited with an error"
fi
if grep -v '^% Warning: ' "$tmp/paste.err" |
	grep -vE '^% [0-9]+ accepted, 0 ignored: not QoS, 0 rejected$' | grep -q .; then
	cat "$tmp/paste.err"
	fail "pasting the reference printed errors"
fi

# The kernel state of swp1, in a form that does not depend on dump order.
# (tc 6.1 prints htb classes as text only, even with -j.)
state() {
	in="$IP netns exec $1"
	$in "$TC" -j qdisc show dev swp1 >"$tmp/s.qdisc"
	$in "$TC" class show dev swp1 >"$tmp/s.class"
	$in "$TC" -j filter show dev swp1 >"$tmp/s.filter"
	$in "$TC" -j filter show dev swp1 ingress >"$tmp/s.ingress" 2>/dev/null ||
		echo '[]' >"$tmp/s.ingress"
	"$IP" -n "$1" -j link show swp1 >"$tmp/s.link"
	python3 - "$tmp" <<'PY'
import json, sys
d = sys.argv[1] + "/s."
load = lambda n: json.loads(open(d + n).read() or "[]")
norm = lambda l: sorted(json.dumps(x, sort_keys=True) for x in l)
print(json.dumps({"qdisc": norm(load("qdisc")),
                  "class": sorted(open(d + "class").read().splitlines()),
                  "filter": norm(load("filter")),
                  "ingress": norm(load("ingress")),
                  "mtu": load("link")[0]["mtu"]}, indent=1))
PY
}
state "$nsa" >"$tmp/state.a" || fail "cannot read A's kernel state"
state "$nsb" >"$tmp/state.b" || fail "cannot read B's kernel state"
grep -q 'class \(htb\|ets\) 4791:' "$tmp/state.b" ||
	fail "the shipped configuration programmed no root qdisc on swp1"
grep -q '"mtu": 9216' "$tmp/state.b" || fail "B's swp1 has not MTU 9216"
if ! cmp -s "$tmp/state.a" "$tmp/state.b"; then
	diff -u "$tmp/state.b" "$tmp/state.a" | head -40
	fail "the pasted reference and the shipped roced.conf differ in the kernel"
fi
echo "ok: pasted reference = shipped roced.conf in the kernel (tc -j, mtu)"

sh_a -c 'show running-config json' >"$tmp/run.a" || fail "show running-config json (A)"
sh_b -c 'show running-config json' >"$tmp/run.b" || fail "show running-config json (B)"
python3 -m json.tool "$tmp/run.b" >/dev/null || fail "show running-config json is not JSON"
if ! cmp -s "$tmp/run.a" "$tmp/run.b"; then
	diff -u "$tmp/run.b" "$tmp/run.a" | head -40
	fail "show running-config json differs"
fi
sh_a -c 'show running-config' >"$tmp/runt.a"
sh_b -c 'show running-config' >"$tmp/runt.b"
cmp -s "$tmp/runt.a" "$tmp/runt.b" || fail "show running-config (text) differs"
grep -q '^policy-map type queuing ROCE_QUEUING_OUT' "$tmp/runt.a" ||
	fail "show running-config does not show the queuing policy"
echo "ok: show running-config (text and json) identical"

# --- 2. every show command, text and json ---
cat >"$tmp/shows" <<'EOF'
show running-config
show running-config qos
show running-config interface swp1
show running-config interface Ethernet1/1
show startup-config
show class-map
show class-map ROCE_CLASS
show policy-map
show policy-map ROCE_QUEUING_OUT
show policy-map interface
show policy-map interface swp1
show queuing interface
show queuing interface Ethernet1/1
show interface priority-flow-control
show interface counters
show interface ethernet 1/1 counters
show queuing pfc-queue
show queuing pfc-queue interface swp1 detail
show lldp dcbx interface swp1
show metrics
EOF
# The list covers every show command of the table (lib/cmd/cmd_nxos.c): a new
# one must be added here.
grep -oE '"show [a-z -]+"' "$top_srcdir/lib/cmd/cmd_nxos.c" | tr -d '"' | sort -u |
	while read -r name; do
		grep -q "^$name" "$tmp/shows" ||
			{ echo "FAIL: '$name' (lib/cmd/cmd_nxos.c) is not tested here"; exit 1; }
	done || exit 1
nshow=0
while read -r cmd; do
	sh_a -c "$cmd" >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err"; fail "'$cmd' failed"; }
	[ -s "$tmp/out" ] || fail "'$cmd' printed nothing"
	sh_a -c "$cmd json" >"$tmp/out" 2>"$tmp/err" ||
		{ cat "$tmp/err"; fail "'$cmd json' failed"; }
	python3 -m json.tool "$tmp/out" >/dev/null 2>"$tmp/err" ||
		{ head -c 400 "$tmp/out"; cat "$tmp/err"; fail "'$cmd json' is not JSON"; }
	nshow=$((nshow + 1))
done <"$tmp/shows"
# By alias and by name: the same answer.
sh_a -c 'show queuing interface swp1 json' >"$tmp/q1"
sh_a -c 'show queuing interface Ethernet1/1 json' >"$tmp/q2"
cmp -s "$tmp/q1" "$tmp/q2" || fail "show queuing interface: alias and name differ"
echo "ok: $nshow show commands, text and json"

# --- 3. exit status and errors ---
rc=0
sh_a -c 'show bogus' >/dev/null 2>"$tmp/err" || rc=$?
[ "$rc" = 1 ] || fail "an invalid command exited with $rc, expected 1"
grep -q '^% Invalid command' "$tmp/err" || fail "no '% Invalid command' message"
# The caret under "bogus" in the echoed line "-c:1: show bogus".
line=$(sed -n 1p "$tmp/err")
caret=$(sed -n 2p "$tmp/err")
want=$(printf '%s\n' "$line" | awk '{ print index($0, "bogus") }')
got=$(printf '%s\n' "$caret" | awk '{ print index($0, "^") }')
[ "$want" -gt 0 ] && [ "$want" = "$got" ] ||
	{ cat "$tmp/err"; fail "caret at column $got, 'bogus' at $want"; }

# A configuration line at roced# in a script: configuration mode's error
# (the caret under the extra word), not exec mode's.
rc=0
sh_a -c 'class-map type qos match-all X EXTRA' >/dev/null 2>"$tmp/err" || rc=$?
[ "$rc" = 1 ] || fail "a bad configuration line exited with $rc"
line=$(sed -n 1p "$tmp/err")
caret=$(sed -n 2p "$tmp/err")
want=$(printf '%s\n' "$line" | awk '{ print index($0, "EXTRA") }')
got=$(printf '%s\n' "$caret" | awk '{ print index($0, "^") }')
[ "$want" -gt 0 ] && [ "$want" = "$got" ] ||
	{ cat "$tmp/err"; fail "caret at column $got, 'EXTRA' at $want"; }

# Refused by roced (an undefined policy-map), typed abbreviated: the caret
# goes under NOPE as typed, not as roced saw the expanded line.
state "$nsa" >"$tmp/before"
rc=0
sh_a -c 'conf t ; int swp1 ; serv ty qos in NOPE' >/dev/null 2>"$tmp/err" || rc=$?
[ "$rc" = 1 ] || fail "an undefined policy-map exited with $rc"
line=$(grep -n 'NOPE' "$tmp/err" | head -1)
n=${line%%:*}
line=${line#*:}
caret=$(sed -n "$((n + 1))p" "$tmp/err")
want=$(printf '%s\n' "$line" | awk '{ print index($0, "NOPE") }')
got=$(printf '%s\n' "$caret" | awk '{ print index($0, "^") }')
[ "$want" -gt 0 ] && [ "$want" = "$got" ] ||
	{ cat "$tmp/err"; fail "roced's error: caret at $got, NOPE at $want"; }
grep -q '^% .*NOPE' "$tmp/err" || { cat "$tmp/err"; fail "no message naming NOPE"; }

# Refused by roced's validation: removing a policy-map in use.
rc=0
sh_a -c 'conf t ; no policy-map type queuing ROCE_QUEUING_OUT' >/dev/null \
	2>"$tmp/err" || rc=$?
[ "$rc" = 1 ] || fail "removing an attached policy-map exited with $rc"
# A value out of range, refused before it reaches roced.
rc=0
sh_a -c 'conf t ; policy-map type queuing ROCE_QUEUING_OUT ; class type queuing c-out-8q-q3 ; bandwidth remaining percent 101' \
	>/dev/null 2>"$tmp/err" || rc=$?
[ "$rc" = 1 ] || fail "bandwidth 101 exited with $rc"
state "$nsa" >"$tmp/after"
cmp -s "$tmp/before" "$tmp/after" || fail "refused commands changed the kernel"

# Scripts on stdin: the error names its line; the status is 1.
rc=0
printf 'show running-config\nbogus\n' | sh_a >/dev/null 2>"$tmp/err" || rc=$?
[ "$rc" = 1 ] || fail "a script with an error exited with $rc"
grep -q '^stdin:2: bogus$' "$tmp/err" || { cat "$tmp/err"; fail "no 'stdin:2:' location"; }
# -e stops at the first error; without it the rest still runs.
out=$(sh_a -e -c 'show bogus ; show running-config' 2>/dev/null || true)
[ -z "$out" ] || fail "-e went on after an error"
out=$(sh_a -c 'show bogus ; show running-config' 2>/dev/null || true)
[ -n "$out" ] || fail "without -e the commands after an error did not run"
# No daemon, and a usage error.
rc=0
"$rocesh" -s "$tmp/none.sock" -c 'show running-config' >/dev/null 2>"$tmp/err" || rc=$?
[ "$rc" = 1 ] || fail "an unreachable daemon exited with $rc, expected 1"
grep -q "cannot connect to roced at $tmp/none.sock" "$tmp/err" || fail "no connect error"
rc=0
"$rocesh" --no-such-option >/dev/null 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "a usage error exited with $rc, expected 2"
# A good configuration change through -c: status 0, and it takes effect.
sh_a -c 'conf t ; interface swp1 ; priority-flow-control mode off' ||
	fail "a good configuration line exited with an error"
sh_a -c 'show running-config interface swp1' | grep -q 'priority-flow-control mode off' ||
	fail "priority-flow-control mode off did not take effect"
sh_a -c 'conf t ; interface swp1 ; priority-flow-control mode on' >/dev/null
echo "ok: exit status 0/1/2, -e, error locations and carets"

# --- 4. copy running-config startup-config ---
sh_a -c 'copy running-config startup-config' >"$tmp/out" || fail "copy failed"
"$roced" -n -f "$tmp/a.conf" >/dev/null 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "the saved configuration does not load"; }
"$roced" --dry-run --caps host -f "$tmp/a.conf" >"$tmp/plan.a" 2>&1
"$roced" --dry-run --caps host -f "$top_srcdir/conf/roced.conf" >"$tmp/plan.b" 2>&1
if ! cmp -s "$tmp/plan.a" "$tmp/plan.b"; then
	diff -u "$tmp/plan.b" "$tmp/plan.a" | head -20
	fail "the saved configuration plans differently from the shipped one"
fi
sh_a -c 'show startup-config' >"$tmp/start.a"
sh_a -c 'show running-config' >"$tmp/runt.a"
sed 's/startup-config/running-config/' "$tmp/start.a" | cmp -s - "$tmp/runt.a" ||
	{ diff -u "$tmp/runt.a" "$tmp/start.a" | head; fail "startup-config is not the running one"; }
echo "ok: copy running-config startup-config round-trips"

kill -0 "$pida" && kill -0 "$pidb" || fail "a roced died"
echo "PASS: rocesh_e2e"
