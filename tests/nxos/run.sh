#!/bin/sh
# tests/nxos/run.sh: every public Nexus configuration of tests/nxos/*.nxos
# (each names its source in its header) pasted whole through rocesh into
# a roced on a rig of its own, as an operator would paste a switch's
# running-config. Per configuration:
#   - the rig: a namespace with one veth port per Ethernet interface the
#     configuration names (swpN, given the NX-OS name as its alias in
#     roced.conf: the operator's one step), roced on this machine's
#     kernel (--caps probe);
#   - the paste: exit status 0, no line refused, the known non-QoS lines
#     told once in "% ignored N lines: not QoS (...)";
#   - running-config: the configuration's QoS statements are there
#     (system-defined classes, pause pfc-cos, bandwidth, WRED, PFC mode,
#     service policies), and it pastes back to the same text;
#   - the plan (show interface priority-flow-control json): the no-drop
#     CoS of the network-qos policy is PFC-enabled on every port whose
#     mode is on;
#   - the kernel (tc -j): every port with a policy holds roced's root
#     qdisc (htb 4791:) and one class per queue; the link MTU is the
#     configuration's;
#   - a restart: copy running-config startup-config, roced stopped and
#     started again from that file, gives the same running-config and the
#     same qdiscs, classes and MTU on every port.
# Then every configuration of tests/nxos/invalid/ (lab notes with
# mistakes; each names the line NX-OS refuses in an "! Expect-rejected: N"
# header line): the paste fails, line N is shown with its caret and what
# was expected, every line indented under it is skipped and counted, and
# no line lands at global level that is not global in the file.
# The full-kernel layout (ets/red/flower) of the same policies is the
# QEMU tier's (tests/integration/fullkernel_*.sh), which pastes the
# reference configuration; here the minimal kernel's layout is checked.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
t_init nxos_corpus
t_need_root
tmp=$t_tmp
corpus=${NXOS_CORPUS:-$top_srcdir/tests/nxos}

fail() {
	echo "FAIL: $cur: $*"
	for f in out err run; do
		echo "--- $f"
		cat "$tmp/$f" 2>/dev/null
	done
	echo "--- roced log"
	cat "$tmp/log" 2>/dev/null
	exit 1
}
. "$top_srcdir/tests/nxos/lib_nxos.sh"
jget() { "$PY" -c 'import json,sys; R=json.loads(sys.argv[1]); print(eval(sys.argv[2]))' "$1" "$2"; }

n=0
for f in "$corpus"/*.nxos; do
	[ -e "$f" ] || continue
	cur=$(basename "$f")
	n=$((n + 1))
	grep -q '^! Source' "$f" || fail "no source in the header"
	rig "nxos$n" "$f"

	# --- the paste ---
	st=0
	sh_ns <"$f" >"$tmp/out" 2>"$tmp/err" || st=$?
	[ "$st" = 0 ] || fail "paste: exit status $st"
	grep '^stdin:' "$tmp/err" && fail "lines refused"
	sh_ns -c 'show running-config' >"$tmp/run" || fail "show running-config"

	# --- running-config holds the configuration's QoS statements ---
	# every one of these lines of the file is a line of running-config
	# (canonical spelling aside: keywords, blanks)
	# (canonical spelling aside: "class type qos X" is "class X", a
	# network-qos class-map's match-any is not written, "match dscp
	# 26 28" is "match dscp 26,28"; the 4-queue class names are
	# written back as the file has them, and so are channel-group
	# lines and the port-channels' blocks)
	grep -E '^\s*(class type (network-qos|queuing|qos) |pause pfc-cos|bandwidth |random-detect |priority level|set qos-group|match (cos|dscp|qos-group)|policy-map type|class-map type (qos|network-qos|queuing)|channel-group |interface port-channel[0-9]+\s*$)' "$f" |
		sed 's/^[[:space:]]*//; s/[[:space:]]*$//' |
		sed -E 's/^class type qos /class /; s/^(class-map type network-qos) match-(any|all) /\1 /' |
		sed -E ':a; s/^(match (cos|dscp) [^ ]+) ([^ ]+)/\1,\3/; ta' | sort -u >"$tmp/want"
	sed 's/^[[:space:]]*//' "$tmp/run" | sort -u >"$tmp/have"
	missing=$(comm -23 "$tmp/want" "$tmp/have")
	[ -z "$missing" ] || fail "running-config lacks: $missing"
	# round trip: running-config pasted into a fresh session again
	# changes nothing
	sh_ns <"$tmp/run" >/dev/null 2>"$tmp/err2" || fail "running-config does not paste back: $(cat "$tmp/err2")"
	sh_ns -c 'show running-config' >"$tmp/run2"
	cmp -s "$tmp/run" "$tmp/run2" || fail "running-config changed when pasted back"

	# every port's QoS lines of the file (PFC mode, service policies,
	# mtu, description) are in its running-config block
	"$PY" - "$f" "$tmp/run" $ports <<'PY' || fail "a port's lines are missing"
import re, sys
src, run, aliases = sys.argv[1], sys.argv[2], sys.argv[3:]
port = {a: a for a in aliases}
def members(spec):
    out = []
    for item in re.sub(r'\s+', '', spec).split(','):
        m = re.match(r'(?i)(?:ethernet|eth|e)((?:\d+/)+)(\d+)(?:-(?:(?:\d+/)+)?(\d+))?$', item)
        if m:
            out += ['Ethernet%s%d' % (m.group(1), n)
                    for n in range(int(m.group(2)), int(m.group(3) or m.group(2)) + 1)]
    return out
want, cur = {}, []
for line in open(src):
    m = re.match(r'interface\s+(.*)$', line.rstrip(), re.I)
    if m:
        cur = members(m.group(1))
        continue
    if not line.startswith(' '):
        cur = []
        continue
    l = line.strip()
    if re.match(r'(priority-flow-control mode|service-policy type|mtu |description )', l):
        l = re.sub(r'\s+no-stats$', '', l)
        for a in cur:
            want.setdefault(port[a], []).append(l)
blocks, cur = {}, None
for line in open(run):
    m = re.match(r'interface (\S+)$', line.rstrip())
    if m:
        cur = blocks.setdefault(m.group(1), [])
    elif not line.startswith(' '):
        cur = None
    elif cur is not None:
        cur.append(line.strip())
bad = 0
for dev, lines in want.items():
    for l in lines:
        if l not in blocks.get(dev, []) and l != 'priority-flow-control mode auto':
            print('%s: running-config lacks "%s"' % (dev, l))
            bad = 1
sys.exit(bad)
PY

	# --- the paste summary: taken, not QoS, refused ---
	grep -qE '^% [0-9]+ accepted, [0-9]+ ignored: not QoS( \(.*\))?, 0 rejected$' "$tmp/err" ||
		fail "no 'N accepted, N ignored: not QoS, 0 rejected' summary"
	[ "$(grep -c ' accepted, ' "$tmp/err")" = 1 ] || fail "the summary is told more than once"
	if grep -qiE '^\s*(feature|vlan|spanning-tree|switchport|router|vpc)\b' "$f"; then
		grep -qE '^% [0-9]+ accepted, [1-9][0-9]* ignored: not QoS \(' "$tmp/err" ||
			fail "the not-QoS lines are not counted"
	fi

	# --- plan and kernel, per port ---
	pfc=$(jget "$(sh_ns -c 'show interface priority-flow-control json')" 'json.dumps(R)')
	nodrop=$(grep -E '^\s*pause pfc-cos' "$f" | head -1 | awk '{print $3}')
	i=0
	for p in $ports; do
		i=$((i + 1))
		dev=swp$i
		# running-config names the port as NX-OS does, by its alias
		blk=$(awk -v d="$p" '$0 == "interface " d {p=1; next} /^[^ ]/ {p=0} p' "$tmp/run")
		# PFC: a no-drop CoS on a port with mode on is enabled
		if [ -n "$nodrop" ] && echo "$blk" | grep -q 'priority-flow-control mode on'; then
			echo "$pfc" >"$tmp/pfc.json"
			"$PY" - "$tmp/pfc.json" "$dev" "$nodrop" <<'PY' || fail "$dev ($p): PFC not enabled on CoS $nodrop: $(cat "$tmp/pfc.json")"
import json, sys
data, dev, cos = json.load(open(sys.argv[1])), sys.argv[2], int(sys.argv[3])
port = [i for i in data['interface'] if i['name'] == dev][0]
sys.exit(0 if cos in port['priorities'] and port['oper'] == 'on' else 1)
PY
		fi
		# tc: a port with a policy holds roced's root qdisc
		if echo "$blk" | grep -q 'service-policy' || grep -q '^system qos' "$tmp/run"; then
			"$IP" netns exec "$ns" "$TC" -j qdisc show dev "$dev" |
				"$PY" -c 'import json,sys; q=json.load(sys.stdin); sys.exit(0 if any(x.get("root") and x["kind"]=="htb" and x["handle"]=="4791:" for x in q) else 1)' ||
				fail "$dev ($p): no htb 4791: root: $("$IP" netns exec "$ns" "$TC" qdisc show dev "$dev")"
		fi
		# link MTU: the interface's own mtu line
		mtu=$(echo "$blk" | awk '$1 == "mtu" {print $2}')
		if [ -n "$mtu" ]; then
			have=$("$IP" -n "$ns" -j link show "$dev" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)[0]["mtu"])')
			[ "$have" = "$mtu" ] || fail "$dev ($p): link MTU $have, not $mtu"
		fi
	done
	# --- a restart from the saved configuration reproduces the state ---
	kstate() {
		for d in $(seq "$(echo "$ports" | grep -c .)"); do
			echo "swp$d mtu $("$IP" -n "$ns" -j link show "swp$d" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)[0]["mtu"])')"
			"$IP" netns exec "$ns" "$TC" qdisc show dev "swp$d" | sed 's/ refcnt [0-9]*//'
			"$IP" netns exec "$ns" "$TC" class show dev "swp$d"
		done
	}
	kstate >"$tmp/k1"
	sh_ns -c 'copy running-config startup-config' >/dev/null 2>"$tmp/err3" ||
		fail "copy running-config startup-config: $(cat "$tmp/err3")"
	t_roced_stop
	t_roced_start "$ns" "$tmp/roced.conf" "started with" --caps probe
	for _ in $(seq 100); do
		sh_ns -c 'show running-config' >"$tmp/run3" 2>/dev/null && break
		sleep 0.05
	done
	cmp -s "$tmp/run" "$tmp/run3" ||
		fail "running-config differs after a restart: $(diff "$tmp/run" "$tmp/run3")"
	kstate >"$tmp/k2"
	cmp -s "$tmp/k1" "$tmp/k2" ||
		fail "the kernel state differs after a restart: $(diff "$tmp/k1" "$tmp/k2")"

	summary=$(grep ' accepted, ' "$tmp/err")
	echo "ok: $cur: $(nlines "$f") lines, $(echo "$ports" | grep -c .) ports; ${summary#% }; restart: same state"
	t_roced_stop
	t_netns_del "$ns"
done

# --- configurations that are not valid NX-OS ---
ninv=0
for f in "$corpus"/invalid/*.nxos; do
	cur=invalid/$(basename "$f")
	ninv=$((ninv + 1))
	grep -q '^! Source' "$f" || fail "no source in the header"
	bad=$(sed -n 's/^! Expect-rejected: \([0-9]*\)$/\1/p' "$f")
	[ -n "$bad" ] || fail "no '! Expect-rejected: N' in the header"
	rig "nxosbad$ninv" "$f"
	st=0
	sh_ns <"$f" >"$tmp/out" 2>"$tmp/err" || st=$?
	[ "$st" != 0 ] || fail "the paste of an invalid configuration exits 0"
	# line BAD named, with its text, a caret and what was expected
	grep -A2 "^stdin:$bad: " "$tmp/err" >"$tmp/badline" || fail "line $bad is not refused"
	sed -n 2p "$tmp/badline" | grep -qE '^ *\^$' || fail "line $bad has no caret"
	sed -n 3p "$tmp/badline" | grep -qE '^% .*(expected|does not exist|not a|Invalid)' ||
		fail "line $bad: the message says nothing of what was expected"
	# every line indented under it is skipped and counted
	"$PY" - "$f" "$bad" "$tmp/err" <<'PY' || fail "a line under line $bad was not skipped"
import re, sys
lines = open(sys.argv[1]).read().split('\n')
bad, err = int(sys.argv[2]), open(sys.argv[3]).read()
ind = lambda l: len(l) - len(l.lstrip(' '))
for n in range(bad + 1, len(lines) + 1):
    l = lines[n - 1]
    if not l.strip() or l.lstrip().startswith(('#',)):
        continue
    if ind(l) <= ind(lines[bad - 1]):
        break
    if 'stdin:%d: %% skipped: under a rejected line %d' % (n, bad) not in err:
        print('line %d: %s' % (n, l))
        sys.exit(1)
PY
	grep -qE '^% [0-9]+ accepted, [0-9]+ ignored: not QoS( \(.*\))?, [1-9][0-9]* rejected' "$tmp/err" ||
		fail "no paste summary with the rejected lines"
	# nothing landed at global level that is not global in the file
	sh_ns -c 'show running-config' >"$tmp/run" || fail "show running-config"
	grep -E '^[a-z]' "$tmp/run" | grep -vE '^(version|interface|system qos)' | sort -u >"$tmp/top"
	sed 's/^switch([^)]*)# //; s/^switch# //' "$f" | grep -E '^[a-z]' |
		sed -E 's/[[:space:]]*$//; s/^(class-map type network-qos) match-(any|all) /\1 /' |
		sort -u >"$tmp/ftop"
	extra=$(comm -23 "$tmp/top" "$tmp/ftop")
	[ -z "$extra" ] || fail "lines landed at global level: $extra"
	echo "ok: $cur: refused at line $bad ($(sed -n 3p "$tmp/badline")); $(grep ' accepted, ' "$tmp/err" | sed 's/^% //')"
	t_roced_stop
	t_netns_del "$ns"
done
[ "$ninv" -ge 3 ] || fail "the invalid corpus has $ninv configurations, expected at least 3"
[ "$n" -ge 18 ] || fail "the corpus has $n configurations, expected at least 18"
