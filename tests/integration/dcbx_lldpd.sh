#!/bin/sh
# dcbx_lldpd: lldpd, an independent LLDP agent, as roced's neighbour.
# lldpd sends fixed DCBX TLVs (`configure lldp custom-tlv`:
# PFC on 3 not willing, ETS Recommendation 50/50 on TC 0 and 3, APP DSCP
# 26 -> 3); a willing roced (tests/fixtures/dcbx/host.conf) adopts them
# and its kernel state follows; `lldpcli -f json show neighbors details`
# shows roced's chassis, port, TTL and DCBX TLVs, with the PFC bitmap and
# ETS tables it adopted (what a willing port advertises after it took
# the peer's, roced.conf(5)). lldpd runs in the
# foreground in the test's namespace with its own control socket.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
t_init dcbx_lldpd
t_need_root
command -v lldpd >/dev/null || t_skip "lldpd is not installed (scripts/install-deps.sh)"
[ -x "$rocesh" ] || t_skip "rocesh is not built"
tmp=$t_tmp
t_veth_ns ns dcbxld eth0 lp0
in_ns() { "$IP" netns exec "$ns" "$@"; }
mac=$t_mac lmac=$t_peer_mac

# subtype 11 PFC: willing 0, cap 8 | enable bit 3; 10 ETS Recommendation:
# reserved, priority n -> TC n, 50 % on TC 0 and 3, TSA ETS everywhere;
# 12 APP: priority 3, selector 5 (DSCP), protocol 26.
cat >"$tmp/lldpd.conf" <<'CONF'
configure lldp tx-interval 1
configure lldp custom-tlv oui 00,80,c2 subtype 11 oui-info 08,08
configure lldp custom-tlv add oui 00,80,c2 subtype 10 oui-info 00,01,23,45,67,32,00,00,32,00,00,00,00,02,02,02,02,02,02,02,02
configure lldp custom-tlv add oui 00,80,c2 subtype 12 oui-info 00,65,00,1a
CONF
# lldpd's unprivileged half reaches its socket and configuration as
# _lldpd: a directory it may enter.
chmod 711 "$tmp"
mkdir -m 755 "$tmp/ld"
mv "$tmp/lldpd.conf" "$tmp/ld/"
chmod 644 "$tmp/ld/lldpd.conf"
t_show_on_fail "lldpd" "$tmp/lldpd.log"
t_spawn "$IP" netns exec "$ns" lldpd -d -u "$tmp/ld/lldpd.sock" -I lp0 \
	-O "$tmp/ld/lldpd.conf" >"$tmp/lldpd.log" 2>&1
for _ in $(seq 600); do
	grep -q "resume operations" "$tmp/lldpd.log" && break
	sleep 0.05
done
grep -q "resume operations" "$tmp/lldpd.log" || t_fail "lldpd did not start"
t_roced_start "$ns" "$top_srcdir/tests/fixtures/dcbx/host.conf" \
	"mirroring roced's tc objects" -D dcbx
tree() { in_ns "$TC" qdisc show dev eth0 root | grep -q ' 4791: root'; }
for _ in $(seq 600); do
	tree && break
	sleep 0.05
done
tree || t_fail "roced did not adopt lldpd's ETS recommendation"
in_ns "$rocesh" -c 'show lldp dcbx interface eth0 json' >"$tmp/dcbx.json"
t_show_on_fail "show lldp dcbx" "$tmp/dcbx.json"
python3 - "$tmp/dcbx.json" "$lmac" <<'PY' || t_fail "roced did not adopt what lldpd sends"
import json, sys
j = json.load(open(sys.argv[1]))
assert j['pfc']['result'] == 'adopted' and j['pfc']['oper'] == [3], j['pfc']
assert j['ets']['result'] == 'adopted', j['ets']
assert j['ets']['oper']['bandwidth'][:4] == [50, 0, 0, 50], j['ets']
assert j['app']['adopted'], j['app']
assert {'selector': 'dscp', 'protocol': 26, 'priority': 3} in j['app']['oper']
assert j['peer']['mac'] == sys.argv[2] and j['peer']['ttl'] > 0, j['peer']
PY
# lldpd's view of roced, once it has heard a frame.
for _ in $(seq 600); do
	in_ns lldpcli -u "$tmp/ld/lldpd.sock" -f json show neighbors details \
		>"$tmp/nbr.json" 2>/dev/null || true
	grep -q '"eth0"' "$tmp/nbr.json" && break
	sleep 0.05
done
t_show_on_fail "lldpcli show neighbors" "$tmp/nbr.json"
python3 - "$tmp/nbr.json" "$mac" <<'PY' || t_fail "lldpd does not see roced as the configuration implies"
import json, sys
j = json.load(open(sys.argv[1]))['lldp']['interface']['lp0']
mac = sys.argv[2]
chassis = list(j['chassis'].values())[0]
assert chassis['id'] == {'type': 'mac', 'value': mac}, chassis
assert chassis['descr'].startswith('roced on '), chassis
assert j['port']['id'] == {'type': 'ifname', 'value': 'eth0'}, j['port']
assert j['port']['ttl'] == '10', j['port']
tlvs = {int(t['subtype']): t for t in j['unknown-tlvs']['unknown-tlv']
        if t['oui'] == '00,80,C2'}
assert sorted(tlvs) == [9, 10, 11], tlvs   # the host has no APP entry
# PFC: willing (the host's setting), cap 8, and the priority it took
# from lldpd (3): a willing port advertises what it adopted, as lldpad.
assert tlvs[11]['value'] == '88,08', tlvs[11]
# ETS Configuration: willing, priorities to their own TC, and the 50/50
# of lldpd's recommendation it took (its own admin would be 100 % on 0).
assert tlvs[9]['value'].startswith('80,01,23,45,67,32,00,00,32,'), tlvs[9]
# ETS Recommendation: its own (it recommends its configuration).
assert tlvs[10]['value'].startswith('00,01,23,45,67,64,'), tlvs[10]
PY
echo "ok: dcbx_lldpd"
