#!/bin/sh
# roced's mirror of its own tc objects (daemon/kernel/mirror.c), in a private
# namespace: a SIGHUP with an unchanged file observes no port and writes
# nothing (tc monitor agrees); what someone else changes is noticed from
# the kernel's tc notifications, a class changed by hand on one port, a
# root deleted on another (put right at once by a pass that observes that
# port alone, tests/integration/daemon_repair.sh has more), a roced-looking
# root added by hand on a port the file does not name (put right on the
# next reload); roced's own writes do not count as changes. Reload times
# are printed, not asserted.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
t_init daemon_mirror
t_need_root
tmp=$t_tmp
mon=""
fail() { t_fail "$@"; }
in_ns() { "$IP" netns exec "$ns" "$@"; }

# Three ports of the shipped policy, and swp9 that the file does not name.
t_conf_ports "$tmp/roced.conf" swp1 swp2 swp3
t_netns_add ns mirror
for p in swp1 swp2 swp3 swp9; do
	"$IP" -n "$ns" link add "$p" type veth peer name "${p}p"
done
t_roced_start "$ns" "$tmp/roced.conf" "mirroring roced's tc objects of 3 ports" --caps probe -D apply

# Reload and wait for it ($tmp/pass gets the log of that reload); sets ms
# to the time it took. Not a $(...): the reload's log must stay in $tmp/pass
# and a failure must end this shell.
reload() {
	t_roced_signal HUP 'reloaded'
	ms=$(sed -n 's/^roced: reloaded .* in \([0-9.]*\) ms.*/\1/p' "$tmp/pass")
}
# Wait until roced has repaired port $1 by itself; $tmp/pass gets the log
# from the repair on.
repaired() {
	for _ in $(seq 200); do
		sed -n "/^roced: $1: .*: repairing\$/,\$p" "$tmp/log" >"$tmp/pass"
		grep -q "^roced: apply: $1: ok, [1-9]" "$tmp/pass" && return 0
		sleep 0.05
	done
	fail "$1 not repaired"
}
# the repair pass's lines start with its "reconcile: N ports (K observed)"
repair_observed() { grep -B3 "^roced: $1: .*: repairing" "$tmp/log" | sed -n 's/.*reconcile: [0-9]* ports (\([0-9]*\) observed).*/\1/p' | tail -1; }
# "reconcile: N ports (K observed)" of the last reload
observed() { sed -n 's/.*reconcile: [0-9]* ports (\([0-9]*\) observed).*/\1/p' "$tmp/pass" | tail -1; }
writes() { sed -n "s/^roced: apply: $1: [a-z ]*, \([0-9]*\) writes\{0,1\}/\1/p" "$tmp/pass" | tail -1; }

# 1. unchanged file: no port observed, nothing written or announced.
# Not through in_ns: $mon must be tc itself (ip netns exec execs it).
: >"$tmp/mon"
t_spawn "$IP" netns exec "$ns" "$TC" monitor >"$tmp/mon" 2>/dev/null
mon=$t_pid
sleep 0.3
reload
sleep 0.3
t_stop "$mon" || true
mon=""
[ "$(observed)" = 0 ] || fail "an unchanged reload observed $(observed) ports"
for p in swp1 swp2 swp3; do [ "$(writes $p)" = 0 ] || fail "$p: wrote $(writes $p)"; done
[ ! -s "$tmp/mon" ] || { cat "$tmp/mon"; fail "tc monitor saw changes"; }
echo "unchanged reload: 0 ports observed, 0 writes, 0 tc events (${ms} ms)"

# 2. someone changes a class of swp2: only swp2 is observed, and put right
in_ns "$TC" class change dev swp2 parent 4791:1 classid 4791:13 htb rate 1gbit ceil 10gbit prio 1 2>/dev/null
repaired swp2
[ "$(repair_observed swp2)" = 1 ] || fail "expected 1 port observed, got $(repair_observed swp2)"
[ "$(writes swp2)" = 1 ] || fail "swp2: expected 1 write, got $(writes swp2)"
in_ns "$TC" class show dev swp2 classid 4791:13 | grep -q 'rate 5Gbit' || fail "swp2's q3 not restored"
reload
[ "$(observed)" = 0 ] || fail "after the repair, $(observed) ports observed"
for p in swp1 swp2 swp3; do [ "$(writes $p)" = 0 ] || fail "$p: wrote $(writes $p)"; done
echo "class changed by hand on swp2: 1 port observed, 1 write, then a reload writes nothing (${ms} ms)"

# 3. someone deletes swp3's root: rebuilt
in_ns "$TC" qdisc del dev swp3 root
repaired swp3
[ "$(repair_observed swp3)" = 1 ] || fail "expected 1 port observed, got $(repair_observed swp3)"
[ "$(writes swp3)" -gt 10 ] || fail "swp3 not rebuilt: $(writes swp3) writes"
in_ns "$TC" qdisc show dev swp3 | grep -q 'htb 4791: root' || fail "swp3's root not back"
echo "root deleted by hand on swp3: rebuilt with $(writes swp3) writes"

# 4. a root with roced's handle on a port the file does not name: the
#    mirror cannot vouch for swp9 any more, the reload looks and removes it
in_ns "$TC" qdisc add dev swp9 root handle 4791: htb default 10
reload
in_ns "$TC" qdisc show dev swp9 | grep -q '4791:' && fail "swp9's roced-looking root left"
grep -q 'swp9: ok, 1 write' "$tmp/pass" || fail "swp9 not cleaned by roced"
echo "roced root added by hand on swp9: removed (${ms} ms)"

# 5. and roced's own writes above left the mirror clean
reload
[ "$(observed)" = 0 ] || fail "after roced's own writes, $(observed) ports observed"
echo "unchanged reload again: 0 ports observed (${ms} ms)"

t_roced_stop
echo "PASS: daemon_mirror"
