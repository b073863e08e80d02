#!/bin/sh
# tests/nxos/table.sh: the table of the public Nexus configurations of
# tests/nxos/ (and tests/nxos/invalid/): for each, pasted whole through
# rocesh into a roced on a rig of its own (as tests/nxos/run.sh does),
# the lines accepted, ignored (not QoS) and rejected, from rocesh's paste
# summary, and whether its no-drop class survived:
#   - "yes": every CoS the file makes no-drop (pause pfc-cos N, or the
#     qos-groups of a class with pause no-drop) is a pause line of
#     running-config, and PFC is operational on that CoS on every port
#     the file gives priority-flow-control mode on (show interface
#     priority-flow-control json);
#   - "NO (...)": one of those is missing, and which;
#   - "-": the file makes nothing no-drop.
# Prints a Markdown table on standard output; exits 1 when a
# configuration of tests/nxos/ (not invalid/) lost its no-drop class or
# had a line rejected, so that it can run as a test (`make check
# TESTS=tests/nxos/table.sh`).
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
t_init nxos_table
t_need_root
tmp=$t_tmp
corpus=${NXOS_CORPUS:-$top_srcdir/tests/nxos}
. "$top_srcdir/tests/nxos/lib_nxos.sh"

# nodrop FILE RUN PFCJSON: the no-drop verdict (see the header).
nodrop()
{
	"$PY" - "$1" "$2" "$3" "$tmp/roced.conf" <<'PY'
import json, re, sys
src = open(sys.argv[1]).read().split('\n')
run = open(sys.argv[2]).read()
pfc = json.load(open(sys.argv[3]))
alias = dict(re.findall(r'name = "([^"]+)"; alias = "([^"]+)"', open(sys.argv[4]).read()))
want = set()
# pause pfc-cos N[,M] anywhere; pause no-drop under a network-qos class
# whose class-map matches qos-group N (roced's CoS N)
groups, cls, cur = {}, None, None
for l in src:
    s = l.strip()
    m = re.match(r'class-map type network-qos (?:match-(?:any|all) )?(\S+)', s)
    if m:
        cur = m.group(1)
        continue
    m = re.match(r'match qos-group (\S+)', s)
    if m and cur:
        groups.setdefault(cur, set()).update(int(x) for x in re.split('[ ,]', m.group(1)) if x.isdigit())
        continue
    if not l.startswith(' '):
        cur = None
for l in src:
    s = l.strip()
    m = re.match(r'class type network-qos (\S+)', s)
    if m:
        cls = m.group(1)
    m = re.match(r'pause pfc-cos ([0-9, -]+)', s)
    if m:
        for part in re.split('[ ,]+', m.group(1).strip()):
            if '-' in part:
                a, b = part.split('-')
                want.update(range(int(a), int(b) + 1))
            elif part.isdigit():
                want.add(int(part))
    if s == 'pause no-drop' and cls:
        want.update(groups.get(cls, set()))
if not want:
    print('-')
    sys.exit(0)
missing = []
for c in sorted(want):
    if not re.search(r'pause pfc-cos [0-9,-]*\b%d\b' % c, run) and not (
            'pause no-drop' in run):
        missing.append('CoS %d not in running-config' % c)
# ports whose running-config block says mode on
on, curp = [], None
for l in run.split('\n'):
    m = re.match(r'interface (\S+)$', l)
    if m:
        curp = m.group(1)
    elif l.strip() == 'priority-flow-control mode on' and curp:
        on.append(curp)
for i in pfc.get('interface', []):
    names = {i.get('name'), alias.get(i.get('name'))}
    if not names & set(on):
        continue
    for c in sorted(want):
        if c not in i.get('priorities', []) or i.get('oper') != 'on':
            missing.append('%s: PFC off on CoS %d' % (alias.get(i.get('name'), i.get('name')), c))
print('yes (CoS %s)' % ','.join(map(str, sorted(want))) if not missing
      else 'NO (%s)' % '; '.join(missing[:3]))
PY
}

bad=0
n=0
echo "| configuration | lines | accepted | ignored (not QoS) | rejected | no-drop class survived |"
echo "|---|---:|---:|---:|---:|---|"
for f in "$corpus"/*.nxos "$corpus"/invalid/*.nxos; do
	[ -e "$f" ] || continue
	n=$((n + 1))
	cur=${f#"$corpus"/}
	rig "nxtab$n" "$f"
	sh_ns <"$f" >"$tmp/out" 2>"$tmp/err" || :
	sh_ns -c 'show running-config' >"$tmp/run" 2>/dev/null || :
	sh_ns -c 'show interface priority-flow-control json' >"$tmp/pfc.json" 2>/dev/null ||
		echo '{}' >"$tmp/pfc.json"
	sum=$(grep -E '^% [0-9]+ accepted, ' "$tmp/err" | tail -1)
	acc=$(echo "$sum" | sed -n 's/^% \([0-9]*\) accepted.*/\1/p')
	ign=$(echo "$sum" | sed -n 's/.* \([0-9]*\) ignored: not QoS.*/\1/p')
	rej=$(echo "$sum" | sed -n 's/.*, \([0-9]*\) rejected.*/\1/p')
	nd=$(nodrop "$f" "$tmp/run" "$tmp/pfc.json")
	lines=$(nlines "$f")
	echo "| $cur | $lines | ${acc:-?} | ${ign:-?} | ${rej:-?} | $nd |"
	case $cur in
	invalid/*) ;;
	*)
		case $nd in NO*) bad=1 ;; esac
		[ "${rej:-x}" = 0 ] || bad=1
		;;
	esac
	t_roced_stop
	t_netns_del "$ns"
done
[ "$n" -gt 0 ] || t_fail "no configuration in $corpus"
[ "$bad" = 0 ] || t_fail "a configuration of tests/nxos/ lost its no-drop class or had a line rejected"
echo "PASS: nxos_table ($n configurations)"
