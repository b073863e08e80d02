#!/bin/sh
# fullkernel_nxos.sh: the public Nexus configurations of tests/nxos pasted
# whole into a roced on a full kernel (the QEMU guest), where the layout
# is the full one: per configuration, a namespace with one veth port per
# Ethernet interface it names (swpN, with that name as its alias in
# roced.conf), roced as a daemon (--caps probe), the file through rocesh,
# and then:
#   - the paste exits 0;
#   - every port with a queuing policy (its own or system qos's) holds an
#     ets root 4791: with 8 bands, or an htb root 4791: with a leaf in each
#     of its 8 queue classes where the no-drop CoS's queue shares
#     bandwidth (not priority level): ets would stop every sharing queue
#     while software PFC holds that one;
#   - where the policy has random-detect ... ecn, a red leaf with ecn;
#   - every port with a qos input policy whose classes match CoS holds
#     flower filters on its clsact ingress (classification where packets
#     enter, which the minimal kernel cannot do);
#   - PFC (show interface priority-flow-control json) is on for the
#     no-drop CoS on every port whose mode is on.
# tests/nxos/run.sh checks the same pastes on the minimal kernel.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
self=$here/$(basename "$0")
rig=$here/../rig/qemu

if [ "${ROCED_GUEST:-}" != 1 ]; then
	# Eighteen configurations (one of 30 ports), each a daemon start
	# and a paste under TCG.
	ROCED_QEMU_TIMEOUT=${ROCED_QEMU_TIMEOUT:-1500}
	export ROCED_QEMU_TIMEOUT
	exec "$rig/run-guest.sh" "$self" "$@"
fi

. "$rig/guest-lib.sh"
fk_roced_init fullkernel_nxos
corpus=$top_srcdir/tests/nxos

n=0
for f in "$corpus"/*.nxos; do
	name=$(basename "$f" .nxos)
	n=$((n + 1))
	ports=$(python3 "$corpus/ports.py" "$f")
	# The 36-port runbook has no policy to lay out: the minimal
	# kernel's run checks it.
	[ "$(echo "$ports" | grep -c .)" -le 8 ] || continue
	ns=fknx$n
	fk_netns_add "$ns"
	{
		echo 'interface = ('
		i=0
		for p in $ports; do
			i=$((i + 1))
			ip -n "$ns" link add "swp$i" type veth peer name "h$i"
			ip -n "$ns" link set "swp$i" up
			ip -n "$ns" link set "h$i" up
			[ "$i" = 1 ] || echo ','
			printf '{ name = "swp%s"; alias = "%s"; }' "$i" "$p"
		done
		echo ');'
	} >"$tmp/roced.conf"
	ip netns exec "$ns" "$roced" -f "$tmp/roced.conf" --caps probe \
		>"$tmp/log" 2>&1 &
	pid=$!
	for _ in $(seq 600); do
		grep -q 'started with' "$tmp/log" && break
		kill -0 "$pid" 2>/dev/null || fk_fail "$name: roced exited: $(cat "$tmp/log")"
		sleep 0.1
	done
	st=0
	ip netns exec "$ns" "$rocesh" <"$f" >"$tmp/out" 2>"$tmp/err" || st=$?
	fk_check "$name: pasted, exit status $st" [ "$st" = 0 ]
	[ "$st" = 0 ] || cat "$tmp/err"
	ip netns exec "$ns" "$rocesh" -c 'show running-config' >"$tmp/run"
	ip netns exec "$ns" "$rocesh" -c 'show interface priority-flow-control json' >"$tmp/pfc.json"
	i=0
	for p in $ports; do
		i=$((i + 1))
		ip netns exec "$ns" tc -j -d qdisc show dev "swp$i" >"$tmp/q-swp$i.json"
		ip netns exec "$ns" tc -j filter show dev "swp$i" ingress >"$tmp/f-swp$i.json"
	done
	# One python for every check of the configuration (each process
	# start costs under TCG).
	python3 - "$f" "$tmp" $ports <<'PY' >"$tmp/checks" || true
import json, re, sys
src, tmp, aliases = sys.argv[1], sys.argv[2], sys.argv[3:]
text = open(src).read()
run = open(tmp + '/run').read()
pfc = json.load(open(tmp + '/pfc.json'))
m = re.search(r'^\s*pause pfc-cos (\d)', text, re.M)
nodrop = int(m.group(1)) if m else None
wred = re.search(r'^\s*random-detect .*ecn', text, re.M) is not None
cos = re.search(r'^\s*match cos', text, re.M) is not None
sysqos = re.search(r'^system qos\n((?:[ \t].*\n?)*)', run, re.M)
sys_out = sysqos and 'service-policy type queuing output' in sysqos.group(1)
blocks, cur = {}, None
for line in run.split('\n'):
    mm = re.match(r'interface (\S+)$', line)
    if mm:
        cur = mm.group(1)
        blocks[cur] = ''
    elif not line.startswith(' '):
        cur = None
    elif cur is not None:
        blocks[cur] += line.strip() + '\n'
def check(ok, what):
    print(('ok: ' if ok else 'FAIL: ') + what)
def queue_strict(q):
    # the queuing class of queue Q (CoS N is qos-group N, queue N, in
    # these 8-queue configurations) says priority level
    # (a 4-queue configuration names it c-out-qN)
    m = re.search(r'class type queuing c-out-(?:8q-)?q%d\b(.*?)(?=\n\s*class |\n\S|\Z)'
                  % q, text, re.S)
    return bool(m and re.search(r'^\s*priority level', m.group(1), re.M))
want_root = 'htb' if nodrop is not None and not queue_strict(nodrop) else 'ets'

for i, alias in enumerate(aliases):
    dev = 'swp%d' % (i + 1)
    # running-config names a port by its NX-OS alias when it has one
    blk = blocks.get(alias, blocks.get(dev, ''))
    q = json.load(open('%s/q-%s.json' % (tmp, dev)))
    fl = json.load(open('%s/f-%s.json' % (tmp, dev)))
    where = '%s (%s)' % (dev, alias)
    if 'service-policy type queuing output' in blk or sys_out:
        if want_root == 'ets':
            check(any(x.get('root') and x['kind'] == 'ets' and x['handle'] == '4791:'
                      and x['options'].get('bands') == 8 for x in q),
                  where + ': ets root 4791: with 8 bands')
        else:
            check(any(x.get('root') and x['kind'] == 'htb' and x['handle'] == '4791:'
                      for x in q)
                  and all(any(x.get('parent') == '4791:1%d' % k for x in q)
                          for k in range(8)),
                  where + ': htb root 4791: with a leaf in each queue class '
                  '(no-drop queue %d shares bandwidth)' % nodrop)
        if wred:
            check(any(x['kind'] == 'red' and x['options'].get('ecn') for x in q),
                  where + ': a red leaf with ecn')
    if ('service-policy type qos input' in blk and
            'service-policy type queuing output' not in blk and not sys_out):
        # NX-OS's default queuing policy gives the classification queues
        check(any(x.get('root') and x['handle'] == '4791:' for x in q),
              where + ': a root 4791: from the default queuing policy')
    if 'service-policy type qos input' in blk and cos:
        check(any(x.get('kind') == 'flower' for x in fl),
              where + ': flower filters on ingress')
    if nodrop is not None and 'priority-flow-control mode on' in blk:
        port = [x for x in pfc['interface'] if x['name'] == dev]
        check(bool(port) and port[0]['oper'] == 'on' and nodrop in port[0]['priorities'],
              where + ': PFC on CoS %d' % nodrop)
PY
	while IFS= read -r line; do
		case $line in
		ok:*) fk_log "$name: $line" ;;
		*) fk_check "$name: ${line#FAIL: }" false ;;
		esac
	done <"$tmp/checks"
	[ -s "$tmp/checks" ] || [ -z "$ports" ] || [ -z "$(grep -E '^\s*service-policy' "$f")" ] ||
		fk_check "$name: the checks ran" false
	kill "$pid"
	wait "$pid" 2>/dev/null || true
	pid=
	ip netns del "$ns"
done
fk_finish
