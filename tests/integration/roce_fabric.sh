#!/bin/sh
# roce_fabric: `show roce fabric` on a switch whose five ports each face a
# peer that provokes one kind of mismatch, or none:
#   swp1 - h1  roced, roce lossless (the same policy): no mismatch, seen
#              from both ends;
#   swp2 - h2  roced, roce lossy: PFC on priority 3 at this end only
#              (pfc-one-end);
#   swp3 - h3  roced, roce lossless but its network-qos pauses CoS 4
#              (the file's own ROCE-NETWORK-QOS wins): pfc-priorities;
#   swp4 - h4  roced, roce lossless but its ROCE-QOS puts ROCE-DATA in
#              qos-group 5, so its APP maps DSCP 26 to 5: app-roce;
#   swp5 - h5  lldpd (an independent agent) sending PFC on 3 and APP
#              DSCP 26 -> 3 like the switch, and the 802.3 Maximum Frame
#              Size of its 1500-byte link, below the class MTU 9216: mtu;
#   swp6 - h6  lldpd sending plain LLDP, no DCBX TLV: no-dcbx;
#   swp7 - h7  nothing: the link is up and no LLDP comes: no-lldp.
# Each mismatch is flagged on its port alone, with its kind, in json and
# in text; lldpd decodes the Maximum Frame Size roced sends.
# And the switch's `roce = "lossless";` round-trips: roced.conf ->
# running-config (`roce lossless` and the lines it made) -> copy
# running-config startup-config (the setting written back, the file
# still loads).
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
t_init roce_fabric
t_need_root
[ -x "$rocesh" ] || t_skip "rocesh is not built"
command -v lldpd >/dev/null || t_skip "lldpd is not installed (scripts/install-deps.sh)"
tmp=$t_tmp

t_netns_add sw rocefsw || t_fail "cannot add the switch's namespace"
sw_ns=$sw
"$IP" -n "$sw_ns" link set lo up
for i in 1 2 3 4 5 6 7; do
	t_netns_add "h$i" "rocefh$i" || t_fail "cannot add h$i's namespace"
	eval "hns=\$h$i"
	"$IP" -n "$hns" link set lo up
	"$IP" -n "$sw_ns" link add "swp$i" type veth peer name eth0 netns "$hns"
	"$IP" -n "$sw_ns" link set "swp$i" up
	"$IP" -n "$hns" link set eth0 up
done

# The switch: the RoCE mode from one setting, five ports, short timers.
{
	echo 'roce = "lossless";'
	echo 'interface = ('
	for i in 1 2 3 4 5 6 7; do
		sep=','
		[ "$i" = 7 ] && sep=''
		echo "  { name = \"swp$i\"; alias = \"Ethernet1/$i\";"
		echo "    priority-flow-control = { mode = \"on\"; }; }$sep"
	done
	echo ');'
	echo 'lldp = { timer = 5; holdtime = 10; reinit = 1; };'
} >"$tmp/sw.conf"
port='interface = ( { name = "eth0"; priority-flow-control = { mode = "on"; }; } );
lldp = { timer = 5; holdtime = 10; reinit = 1; };'
printf 'roce = "lossless";\n%s\n' "$port" >"$tmp/h1.conf"
printf 'roce = "lossy";\n%s\n' "$port" >"$tmp/h2.conf"
cat >"$tmp/h3.conf" <<EOF
roce = "lossless";
policy-map = { network-qos = ( { name = "ROCE-NETWORK-QOS"; class = (
	{ name = "c-8q-nq4"; pause-pfc-cos = 4; mtu = 9216; } ); } ); };
$port
EOF
cat >"$tmp/h4.conf" <<EOF
roce = "lossless";
policy-map = { qos = ( { name = "ROCE-QOS"; class = (
	{ name = "ROCE-DATA"; set-qos-group = 5; },
	{ name = "ROCE-CNP"; set-qos-group = 6; } ); } ); };
$port
EOF
for f in sw h1 h2 h3 h4; do
	"$roced" -n -f "$tmp/$f.conf" >"$tmp/$f.n" 2>&1 ||
		{ cat "$tmp/$f.n"; t_fail "$f.conf does not load"; }
done

# start WHO NS CONF: roced in NS, ready (its first apply mirrored).
start() {
	t_show_on_fail "$1 roced log" "$tmp/$1.log"
	t_spawn "$IP" netns exec "$2" "$roced" -f "$3" >"$tmp/$1.log" 2>&1
	for _ in $(seq 600); do
		grep -q "mirroring roced's tc objects" "$tmp/$1.log" && return 0
		sleep 0.05
	done
	t_fail "$1 roced did not start"
}
start sw "$sw_ns" "$tmp/sw.conf"
for i in 1 2 3 4; do
	eval "hns=\$h$i"
	start "h$i" "$hns" "$tmp/h$i.conf"
done

# h5: lldpd, PFC on 3 not willing (cap 8) and APP DSCP 26 -> 3, as the
# switch sends them, and the Maximum Frame Size of its 1500-byte eth0,
# 1518 (lldpd sends none of its own on a veth).
chmod 711 "$tmp"
mkdir -m 755 "$tmp/ld"
cat >"$tmp/ld/lldpd.conf" <<'CONF'
configure lldp tx-interval 1
configure lldp custom-tlv oui 00,80,c2 subtype 11 oui-info 08,08
configure lldp custom-tlv add oui 00,80,c2 subtype 12 oui-info 00,65,00,1a
configure lldp custom-tlv add oui 00,12,0f subtype 4 oui-info 05,ee
CONF
chmod 644 "$tmp/ld/lldpd.conf"
t_show_on_fail "lldpd" "$tmp/lldpd.log"
t_spawn "$IP" netns exec "$h5" lldpd -d -u "$tmp/ld/lldpd.sock" -I eth0 \
	-O "$tmp/ld/lldpd.conf" >"$tmp/lldpd.log" 2>&1
# h6: lldpd with no custom TLV, so LLDP without any DCBX.
printf 'configure lldp tx-interval 1\n' >"$tmp/ld/lldpd6.conf"
chmod 644 "$tmp/ld/lldpd6.conf"
t_show_on_fail "lldpd h6" "$tmp/lldpd6.log"
t_spawn "$IP" netns exec "$h6" lldpd -d -u "$tmp/ld/lldpd6.sock" -I eth0 \
	-O "$tmp/ld/lldpd6.conf" >"$tmp/lldpd6.log" 2>&1

sw_sh() { "$IP" netns exec "$sw_ns" "$rocesh" -c "$1"; }

# The switch's view, once every port has its neighbour and the kinds are
# the expected ones (DCBX settles within a few LLDP frames).
cat >"$tmp/want.py" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
ports = {p['name']: p for p in j['interface']}
kinds = {n: sorted(m['kind'] for m in p['mismatches']) for n, p in ports.items()}
want = {'swp1': [], 'swp2': ['pfc-one-end'], 'swp3': ['pfc-priorities'],
        'swp4': ['app-roce'], 'swp5': ['mtu'], 'swp6': ['no-dcbx'],
        'swp7': ['no-lldp']}
ok = all(ports[n]['neighbor'] is not None for n in want if n != 'swp7') \
    and kinds == want
if not ok and len(sys.argv) > 2:
    print(json.dumps(j, indent=1))
    print('kinds', kinds)
sys.exit(0 if ok else 1)
PY
fabric_ok() {
	sw_sh 'show roce fabric json' >"$tmp/fabric.json" 2>/dev/null &&
		python3 "$tmp/want.py" "$tmp/fabric.json"
}
t_until 60 fabric_ok ||
	{ python3 "$tmp/want.py" "$tmp/fabric.json" verbose || true
	  t_fail "show roce fabric does not flag each port as provoked"; }
python3 - "$tmp/fabric.json" <<'PY' || { cat "$tmp/fabric.json"; t_fail "the fabric view's details are wrong"; }
import json, sys
j = json.load(open(sys.argv[1]))
p = {x['name']: x for x in j['interface']}
assert j['mismatches'] == 6, j['mismatches']
d = lambda n: p[n]['mismatches'][0]['detail']
assert 'at this end only' in d('swp2'), d('swp2')
assert 'here 3, peer 4' in d('swp3'), d('swp3')
assert 'to priority 5' in d('swp4') and 'priority 3 here' in d('swp4'), d('swp4')
assert 'the no-drop class\'s MTU 9216' in d('swp5'), d('swp5')
assert 'sends LLDP without DCBX' in d('swp6'), d('swp6')
assert p['swp6']['neighbor']['dcbx'] is False, p['swp6']
assert 'no LLDP neighbour is heard' in d('swp7'), d('swp7')
assert p['swp7']['neighbor'] is None and p['swp7']['lldp'], p['swp7']
# the outcome at both ends of the matching pair
one = p['swp1']
assert one['neighbor']['dcbx'] and one['neighbor']['port-id'] == 'eth0', one
assert one['local']['pfc-enabled'] == [3] and one['peer']['pfc-enabled'] == [3], one
assert one['local']['roce-priority'] == 3 and one['peer']['roce-priority'] == 3, one
assert one['peer']['max-frame-size'] == 9216 + 18, one
# lldpd's end: no DCBX outcome of its own beyond its TLVs, a short frame
five = p['swp5']
assert five['peer']['max-frame-size'] == 1518, five
PY
sw_sh 'show roce fabric' >"$tmp/fabric.txt"
t_show_on_fail "show roce fabric" "$tmp/fabric.txt"
grep -q '^Ethernet1/1 .* none$' "$tmp/fabric.txt" || t_fail "text: swp1 is not clean"
grep -q '^  app-roce: the peer' "$tmp/fabric.txt" || t_fail "text: no app-roce detail"
grep -q '^Ethernet1/6 .* no-dcbx$' "$tmp/fabric.txt" || t_fail "text: swp6 is not no-dcbx"
grep -q '^Ethernet1/7 .* no-lldp$' "$tmp/fabric.txt" || t_fail "text: swp7 is not no-lldp"
grep -q '^6 mismatches$' "$tmp/fabric.txt" || t_fail "text: no total"
cat "$tmp/fabric.txt"
# ... and each mismatch as a metric (roced_fabric_mismatch), 0 elsewhere
sw_sh 'show metrics' >"$tmp/metrics.txt"
t_show_on_fail "show metrics" "$tmp/metrics.txt"
for pk in swp2:pfc-one-end swp3:pfc-priorities swp4:app-roce swp5:mtu \
	swp6:no-dcbx swp7:no-lldp; do
	grep -qx "roced_fabric_mismatch{port=\"${pk%%:*}\",kind=\"${pk#*:}\"} 1" "$tmp/metrics.txt" ||
		t_fail "show metrics: no roced_fabric_mismatch 1 for ${pk%%:*} ${pk#*:}"
done
[ "$(grep -c '^roced_fabric_mismatch{.*} 1$' "$tmp/metrics.txt")" = 6 ] ||
	t_fail "show metrics: not exactly 6 fabric mismatches"
grep -qx 'roced_fabric_mismatch{port="swp1",kind="pfc-one-end"} 0' "$tmp/metrics.txt" ||
	t_fail "show metrics: the matching port swp1 has no 0 sample"
# a DCBX peer is one that sends DCBX: swp6's neighbour is only an LLDP
# neighbour, swp7 has neither
for pv in swp1:1:1 swp5:1:1 swp6:0:1 swp7:0:0; do
	pt=${pv%%:*} v=${pv#*:}
	grep -qx "roced_dcbx_peer_present{port=\"$pt\"} ${v%%:*}" "$tmp/metrics.txt" ||
		t_fail "show metrics: roced_dcbx_peer_present of $pt is not ${v%%:*}"
	grep -qx "roced_lldp_neighbors{port=\"$pt\"} ${v#*:}" "$tmp/metrics.txt" ||
		t_fail "show metrics: roced_lldp_neighbors of $pt is not ${v#*:}"
done

# The matching pair from its other end.
"$IP" netns exec "$h1" "$rocesh" -c 'show roce fabric json' >"$tmp/h1.json"
python3 - "$tmp/h1.json" <<'PY' || { cat "$tmp/h1.json"; t_fail "h1 sees a mismatch with a matching switch"; }
import json, sys
j = json.load(open(sys.argv[1]))
e = j['interface'][0]
assert e['neighbor']['port-id'] == 'swp1' and e['mismatches'] == [], e
assert j['mismatches'] == 0
PY

# lldpd decodes the Maximum Frame Size roced sends (swp5's MTU 9216).
for _ in $(seq 300); do
	"$IP" netns exec "$h5" lldpcli -u "$tmp/ld/lldpd.sock" -f json \
		show neighbors details >"$tmp/nbr.json" 2>/dev/null || true
	grep -q '"swp5"' "$tmp/nbr.json" && break
	sleep 0.1
done
t_show_on_fail "lldpcli show neighbors" "$tmp/nbr.json"
python3 - "$tmp/nbr.json" <<'PY' || t_fail "lldpd does not see roced's Maximum Frame Size"
import json, sys
j = json.load(open(sys.argv[1]))['lldp']['interface']['eth0']
assert j['port']['id']['value'] == 'swp5', j['port']
# lldpcli shows the port's Maximum Frame Size as "mfs"
assert str(j['port'].get('mfs')) == '9234', j['port']
PY

# roce = "lossless" -> running-config -> startup-config.
sw_sh 'show running-config' >"$tmp/run.txt"
grep -q '^roce lossless$' "$tmp/run.txt" || t_fail "running-config lacks 'roce lossless'"
grep -q '^    pause pfc-cos 3$' "$tmp/run.txt" || t_fail "running-config lacks the expansion"
sw_sh 'show roce json' >"$tmp/roce.json"
python3 - "$tmp/roce.json" <<'PY' || { cat "$tmp/roce.json"; t_fail "show roce is wrong"; }
import json, sys
j = json.load(open(sys.argv[1]))
assert j['mode'] == 'lossless' and j['edited'] == [], j
assert j['pfc']['priorities'] == [3] and j['pfc']['receive-only'] == [], j
assert {'selector': 'dscp', 'protocol': 26, 'priority': 3} in j['application-tlv'], j
tc = {t['priority']: t for t in j['traffic-classes']}
assert tc[3]['bandwidth'] == 50 and tc[6]['tsa'] == 'strict' and tc[0]['bandwidth'] == 50, tc
assert j['congestion-control'][0]['queue'] == 3, j
PY
sw_sh 'copy running-config startup-config' >/dev/null ||
	t_fail "copy running-config startup-config failed"
grep -q '^roce = "lossless";$' "$tmp/sw.conf" ||
	{ cat "$tmp/sw.conf"; t_fail "the startup-config lost roce = \"lossless\""; }
"$roced" -n -f "$tmp/sw.conf" >/dev/null || t_fail "the written startup-config does not load"
echo "ok: roce_fabric"
