#!/bin/sh
# fullkernel_rdma.sh: real RDMA through a roced switch, in the QEMU guest.
# Soft-RoCE (rdma_rxe) on three hosts, two RC writers (perftest's
# ib_write_bw, 2 QPs each) into one receiver through a bridge whose port
# towards the receiver is the bottleneck (ROCED_RDMA_MBPS, 8 Mb/s). One
# boot runs ROCED_RDMA_PAIRS (1) pairs of:
#   off  a plain drop-tail bridge: swp3 is a tbf of the bottleneck's rate
#        with a 60 KB buffer (ROCED_RDMA_BUFFER); the writers overrun
#        it, the switch drops, the receiver NAKs the gaps and the writers
#        go back N and time out (retry errors);
#   on   roced on the switch (the shipped policy with ROCE_CLASS
#        match-any, queue 3 shaped to the bottleneck, its pause and WRED
#        thresholds set, see below) and on the hosts (the same policy on
#        eth1-eth3: their queue 3 is held by the pause they receive):
#        the no-drop queue drops nothing, pause goes out of swp1/swp2 and
#        the hosts count it, each writer sends at most 5 % more packets
#        than its messages need, and both finish.
# It then checks that the on runs took at most half as long as the off
# runs (a behaviour ratio within one boot, wall clock: perftest's -D
# bandwidth reads 0 at these rates) and prints it as
#     rdma on/off ratio: X
# for bench/fabric. Queue 3 carries WRED with ECN (random-detect ... ecn):
# the receiving hosts count CE-marked packets (IpExtInCEPkts). rxe sends
# no CNP on a CE mark, so DCQCN is not exercised: the marks are only
# counted, not acted upon.
#
# The thresholds: rxe keeps up to 128 unacknowledged packets per QP in
# the network, 560 KB for the 4 QPs. The no-drop queue pauses at 100 KB
# and resumes at 70 KB (the switch's queue must not run dry while a resume
# reaches the hosts, tens of ms under TCG) and holds at most 350 KB
# (pause-buffer's buffer-size, and RED's limit, twice its maximum
# threshold of 175 KB; RED marks from 35 KB): less than what the writers
# keep in flight, so that only the pause keeps it lossless.
#
# Facts of the rig (Debian 6.1 guest kernel, TCG):
#   - rdma_rxe sends nothing from a network namespace other than the
#     root one: the hosts are veth ends in the guest's root namespace and
#     only the switch is a namespace. Their packets are forced across the
#     bridge by policy routing (the local table consulted after a per-host
#     table that only packets arriving on that host's port read), with
#     rp_filter off, accept_local on and permanent neighbours.
#   - GID index 1 is the RoCEv2 GID of the port's IPv4 address.
#   - --tclass=106 on both sides (DSCP 26 with ECT(0): 104 is not
#     ECN-capable, and RED drops what it cannot mark); the server's
#     ACKs would ride DSCP 0 otherwise.
#   - -u 21 (an 8.6 s QP timeout): with 560 KB in flight at 8 Mb/s an
#     ACK can be more than half a second late, and a guest whose vCPUs a
#     loaded host starves for seconds sees its timers expire at once
#     when it runs again: 1 s (-u 18) retransmitted spuriously in every
#     run, 4.3 s (-u 20) in some at load 20 (duplicates at the receiver
#     with nothing dropped anywhere). -m 1024: the path MTU stays the
#     same in both modes (roced sets the ports to the policy's 9216).
#   - -F: perftest's check of the CPU clock fails under TCG ("Can't
#     produce a report") and fails the run with it.
#   - perftest exchanges its QP numbers over TCP on 127.0.0.1.
#   - A veth counts the pause frames it receives as rx drops (no protocol
#     of the kernel's takes them): the test prints them, it does not
#     count them as loss.
#
# Environment: ROCED_RDMA_PAIRS (1), ROCED_RDMA_ITERS (messages of 64 KiB
# per QP, 16), ROCED_RDMA_QPS (2 per writer), ROCED_RDMA_MBPS (8),
# ROCED_RDMA_BUFFER (the off mode's, bytes, 60000), ROCED_RDMA_XOFF (the
# on mode's, bytes, 100000), ROCED_RDMA_QP_TIMEOUT (21), ROCED_RDMA_KPFC
# (below). One pair takes
# some 4 minutes of host time at load 17 (1.5 off, 0.5 on, the rest boot
# and setup). Skipped (77) when QEMU, the distro kernel or the RDMA tools
# (rdma-core, ibverbs-providers, perftest: scripts/install-deps.sh
# --test) are missing.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
self=$here/$(basename "$0")

if [ "${ROCED_GUEST:-}" != 1 ]; then
	. "$here/lib.sh"
	# The guest runs the host's programs (its root is the host's).
	for tool in ib_write_bw rdma; do
		command -v "$tool" >/dev/null 2>&1 ||
			t_skip "$tool is not installed (scripts/install-deps.sh --test installs perftest and rdma-core)"
	done
	ls /usr/lib/*/libibverbs/librxe-* >/dev/null 2>&1 ||
		t_skip "the rxe verbs provider is not installed (ibverbs-providers)"
	# One pair takes 4-6 minutes at load 17-21; more pairs, more time.
	: "${ROCED_QEMU_TIMEOUT:=$((300 + 450 * ${ROCED_RDMA_PAIRS:-1}))}"
	export ROCED_QEMU_TIMEOUT
	t_guest fullkernel_rdma "$self" "$@"
fi

: "${top_srcdir:=$(cd "$here/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/integration/lib.sh"
t_init fullkernel_rdma
t_need_root
tmp=$t_tmp
pairs=${ROCED_RDMA_PAIRS:-1}
iters=${ROCED_RDMA_ITERS:-16}
mbps=${ROCED_RDMA_MBPS:-8}
qps=${ROCED_RDMA_QPS:-2}
buffer=${ROCED_RDMA_BUFFER:-60000}
# (the thresholds: see the top of this file)
xoff=${ROCED_RDMA_XOFF:-100000}
# The hosts' path for pause received: ROCED_RDMA_KPFC=on (--kernel-pfc,
# and then no NAK and no duplicate either) or off (--no-kernel-pfc);
# unset, roced's own choice.
case ${ROCED_RDMA_KPFC:-} in
on) host_kpfc=--kernel-pfc ;;
off) host_kpfc=--no-kernel-pfc ;;
*) host_kpfc= ;;
esac
xon=$((xoff * 7 / 10))
limit=$((xoff * 7 / 2))
qpto=${ROCED_RDMA_QP_TIMEOUT:-21}
# Each 64 KiB message is 64 packets at the 1024-byte path MTU.
need=$((qps * iters * 64))
log() { echo "fullkernel_rdma: [$(cut -d' ' -f1 /proc/uptime)] $*"; }
log "guest kernel $(uname -r); $pairs pair(s) of 2 writers x $qps QPs x $iters x 64 KiB, bottleneck $mbps Mb/s; off: drop-tail buffer $buffer bytes; on: xoff $xoff, xon $xon, limit $limit bytes"

[ -x "$roced" ] || t_fail "roced is not built"
[ -x "$rocesh" ] || t_fail "rocesh is not built"
modprobe rdma_rxe || t_fail "cannot load rdma_rxe (the guest kernel's Soft-RoCE)"
# The guest's root namespace starts with lo down; perftest needs it.
$IP link set lo up
# As in fullkernel_incast.sh: under TCG the softirqs that move packets
# across a veth fall behind; a CPU's input backlog must not drop what a
# wire would carry.
sysctl -qw net.core.netdev_max_backlog=100000

# --- the rig ------------------------------------------------------------
t_netns_add sw rdmasw
$IP -n "$sw" link set lo up
$IP -n "$sw" link add br0 type bridge
$IP -n "$sw" link set br0 up
for h in 1 2 3; do
	$IP link add "eth$h" type veth peer name "swp$h" netns "$sw"
	t_defer "$IP link del eth$h 2>/dev/null"
	$IP -n "$sw" link set "swp$h" master br0
	$IP -n "$sw" link set "swp$h" mtu 9216 up
	$IP link set "eth$h" mtu 9216 up
	$IP addr add "10.79.0.$h/24" dev "eth$h"
	sysctl -qw "net.ipv6.conf.eth$h.disable_ipv6=1" 2>/dev/null || true
done
# In order, as on a wire: a veth hands each packet to the input backlog
# of the CPU that sent it, and a queue that two CPUs drain in turn (the
# writer's, and roced's when it releases a hold) can put one QP's packets
# on both CPUs' backlogs, which then deliver them out of order: the
# receiver NAKs a gap nobody dropped (seen under load: out-of-sequence
# requests and retries with no drop anywhere). Every packet a veth
# receives goes to CPU 0's backlog (RPS), which keeps their order.
for h in 1 2 3; do
	echo 1 >"/sys/class/net/eth$h/queues/rx-0/rps_cpus"
	$IP netns exec "$sw" sh -c "echo 1 >/sys/class/net/swp$h/queues/rx-0/rps_cpus"
done
sysctl -qw net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.default.rp_filter=0 \
	net.ipv4.conf.all.accept_local=1
for h in 1 2 3; do
	sysctl -qw "net.ipv4.conf.eth$h.rp_filter=0" "net.ipv4.conf.eth$h.accept_local=1"
done
# Host to host across the bridge: the local table after per-port tables
# that only what arrives on that port reads.
$IP rule add pref 100 lookup local
$IP rule del pref 0
t_defer "$IP rule add pref 0 lookup local; $IP rule del pref 100 lookup local"
for h in 1 2 3; do
	$IP route del local "10.79.0.$h" table local
	$IP route add local "10.79.0.$h" dev "eth$h" table $((100 + h))
	$IP rule add pref 10 iif "eth$h" lookup $((100 + h))
	t_defer "$IP rule del pref 10 iif eth$h lookup $((100 + h)) 2>/dev/null"
done
for h in 1 2 3; do
	for g in 1 2 3; do
		[ "$h" = "$g" ] && continue
		$IP neigh replace "10.79.0.$g" lladdr "$(cat "/sys/class/net/eth$g/address")" \
			dev "eth$h" nud permanent
	done
done
for h in 1 2 3; do
	rdma link add "rxe_h$h" type rxe netdev "eth$h" ||
		t_fail "cannot create the Soft-RoCE device on eth$h"
	t_defer "rdma link delete rxe_h$h 2>/dev/null"
done
gid=$(cat /sys/class/infiniband/rxe_h1/ports/1/gids/1)
case $gid in
*:ffff:0a4f:0001) ;;
*) t_fail "rxe_h1's GID 1 is $gid, not the RoCEv2 GID of 10.79.0.1" ;;
esac

# --- roced's policies ----------------------------------------------------
# The switch: the shipped policy on swp1-3 with ROCE_CLASS match-any (the
# hosts' RoCE traffic is untagged: DSCP 26 classifies), queue 3 shaped to
# the bottleneck, its WRED (ECN) marking from half of xon, and the pause
# thresholds (see the top of this file).
t_conf_ports "$tmp/sw.conf" swp1 swp2 swp3
t_conf_match_any "$tmp/sw.conf"
python3 - "$tmp/sw.conf" "$((mbps * 1000))" "$limit" "$xoff" "$xon" <<'PY' ||
import sys
p, kbps, buf, xoff, xon = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
s = open(p).read()
reps = [
    ('name = "c-out-8q-q3";\n\t\t\t\t\tbandwidth-remaining-percent = 50;',
     'name = "c-out-8q-q3";\n\t\t\t\t\tbandwidth-remaining-percent = 50; '
     'shape = { min = "1 kbps"; max = "%s kbps"; };' % kbps),
    ('minimum-threshold = "150 kbytes";', 'minimum-threshold = "%d bytes";' % (xon // 2)),
    ('maximum-threshold = "3000 kbytes";', 'maximum-threshold = "%d bytes";' % (buf // 2)),
    ('drop-probability = 7;', 'drop-probability = 20;'),
    ('pause-pfc-cos = 3; mtu = 9216;',
     'pause-pfc-cos = 3; mtu = 9216; pause-buffer = { buffer-size = %d; '
     'pause-threshold = %d; resume-threshold = %d; };' % (buf, xoff, xon)),
]
for a, b in reps:
    assert a in s, 'the shipped roced.conf changed: ' + a
    s = s.replace(a, b, 1)
open(p, 'w').write(s)
PY
	t_fail "cannot derive the switch's configuration from conf/roced.conf"
# The hosts (one roced for eth1-3, all in the root namespace): the same
# policy, PFC on, their watchdog off: at 8 Mb/s a legitimate hold lasts
# longer than the watchdog's detection time.
t_conf_ports "$tmp/hosts.conf" eth1 eth2 eth3
t_conf_match_any "$tmp/hosts.conf"
sed -i 's/watch-dog-interval = true;/watch-dog-interval = false;/' "$tmp/hosts.conf"
grep -q 'watch-dog-interval = false;' "$tmp/hosts.conf" ||
	t_fail "the shipped roced.conf no longer sets watch-dog-interval"

t_show_on_fail "switch roced log" "$tmp/sw.log"
t_show_on_fail "hosts' roced log" "$tmp/hosts.log"
sw_pid=
hosts_pid=
roced_up() { # NAME PID LOG
	for _ in $(seq 1200); do
		grep -q "mirroring roced's tc objects" "$3" && return 0
		_t_alive "$2" || t_fail "$1's roced exited: $(cat "$3")"
		sleep 0.05
	done
	t_fail "$1's roced did not start within 60 s"
}
roced_on() {
	t_spawn $IP netns exec "$sw" "$roced" -f "$tmp/sw.conf" >"$tmp/sw.log" 2>&1
	sw_pid=$t_pid
	t_spawn "$roced" $host_kpfc -f "$tmp/hosts.conf" >"$tmp/hosts.log" 2>&1
	hosts_pid=$t_pid
	roced_up switch "$sw_pid" "$tmp/sw.log"
	roced_up hosts "$hosts_pid" "$tmp/hosts.log"
	# The no-drop queue on the bottleneck: software PFC's tbf with RED
	# inside (this kernel has sch_red).
	$TC -n "$sw" -j qdisc show dev swp3 >"$tmp/swp3.json"
	python3 - "$tmp/swp3.json" <<'PY' || t_fail "swp3's queue 3 is not software PFC's tbf with red (ecn) inside: $($TC -n "$sw" qdisc show dev swp3)"
import json, sys
q = {x['handle']: x for x in json.load(open(sys.argv[1]))}
tbf, red = q.get('4713:'), q.get('4723:')
assert tbf and tbf['kind'] == 'tbf', tbf
assert red and red['kind'] == 'red' and red['parent'] == '4713:1', red
assert 'ecn' in red['options'].get('flags', []) or red['options'].get('ecn'), red
PY
}
roced_off() {
	t_stop "$sw_pid" TERM || t_fail "the switch's roced exited with an error on SIGTERM"
	t_stop "$hosts_pid" TERM || t_fail "the hosts' roced exited with an error on SIGTERM"
	sw_pid= hosts_pid=
	# roced leaves the kernel state in place when it stops (roced(8)):
	# the next off run needs the plain ports back.
	for h in 1 2 3; do
		$TC -n "$sw" qdisc del dev "swp$h" root 2>/dev/null || true
		$TC -n "$sw" qdisc del dev "swp$h" clsact 2>/dev/null || true
		$TC qdisc del dev "eth$h" root 2>/dev/null || true
		$TC qdisc del dev "eth$h" clsact 2>/dev/null || true
	done
	return 0
}

# --- measuring -----------------------------------------------------------
# ctr DEV NAME: one of the rxe device's hardware counters.
ctr() { cat "/sys/class/infiniband/$1/ports/1/hw_counters/$2"; }
snap() { # FILE: the counters of interest, one "dev name value" a line
	for d in rxe_h1 rxe_h2 rxe_h3; do
		for c in sent_pkts rcvd_pkts rcvd_seq_err completer_retry_err \
			retry_exceeded_err out_of_seq_request duplicate_request \
			send_err; do
			echo "$d $c $(ctr "$d" "$c")"
		done
	done
	nstat -az | awk '/^(IpExt|Ip|Udp)[A-Za-z0-9]* / {print "ip", $1, $2}'
}
# delta A B DEV NAME: B's value minus A's.
delta() {
	awk -v d="$3" -v c="$4" 'FNR == NR && $1 == d && $2 == c {a = $3}
		FNR != NR && $1 == d && $2 == c {b = $3}
		END {print b - a}' "$1" "$2"
}
# swp3's drops: of every qdisc (all), of the no-drop queue's (nd: the
# tbf at 4713: and the red at 4723:).
sw_drops() { # all|nd
	$TC -n "$sw" -s -j qdisc show dev swp3 | python3 -c '
import json, sys
nd = sys.argv[1] == "nd"
n = 0
for x in json.load(sys.stdin):
    if not nd or x["handle"] in ("4713:", "4723:"):
        n += x.get("drops", 0)
print(n)' "$1"
}
# link_drops: the veths' own drop counters (rx/tx) and the CPUs' input
# backlog drops, where a packet can go missing without a qdisc counting
# it (a veth counts the pause frames it received as rx drops: no protocol
# of the kernel's takes them).
link_drops() {
	for h in 1 2 3; do
		printf ' eth%s %s' "$h" "$($IP -s -j link show dev "eth$h" | jq -r '.[0].stats64 | "\(.rx.dropped)/\(.tx.dropped)"')"
		printf ' swp%s %s' "$h" "$($IP -n "$sw" -s -j link show dev "swp$h" | jq -r '.[0].stats64 | "\(.rx.dropped)/\(.tx.dropped)"')"
	done
	printf ', backlog %s\n' "$(python3 -c 'print(sum(int(l.split()[1], 16) for l in open("/proc/net/softnet_stat")))')"
}
ppp() { # NS|"" PORT FIELD: the port's tx-pause/rx-pause from the json show
	if [ -n "$1" ]; then
		$IP netns exec "$1" "$rocesh" -c "show interface priority-flow-control json"
	else
		"$rocesh" -c "show interface priority-flow-control json"
	fi | python3 -c '
import json, sys
port, field = sys.argv[1], sys.argv[2]
def walk(o):
    if isinstance(o, dict):
        if port in o.values() and field in o:
            print(o[field]); sys.exit(0)
        for v in o.values(): walk(v)
    elif isinstance(o, list):
        for v in o: walk(v)
walk(json.load(sys.stdin))
print(-1)' "$2" "$3"
}

# run MODE PAIR: both writers once; sets run_secs and leaves the counters
# before and after in $tmp/MODE.PAIR.{0,1}.
run() {
	_m=$1.$2
	ports=
	for w in 1 2; do
		timeout 600 ib_write_bw -d rxe_h3 -x 1 --tclass=106 -u "$qpto" -m 1024 -F -N -q "$qps" \
			-s 65536 -n "$iters" -p $((18514 + w)) >"$tmp/$_m.srv$w" 2>&1 &
		eval "srv$w=\$!"
		t_pids="$t_pids $(eval echo \$srv$w)"
		ports="$ports $((18514 + w))"
	done
	for p in $ports; do
		t_until 60 sh -c "ss -Hltn 'sport = :$p' | grep -q LISTEN" ||
			t_fail "$1: the receiver's ib_write_bw did not listen on $p: $(cat "$tmp/$_m.srv1" "$tmp/$_m.srv2")"
	done
	snap >"$tmp/$_m.0"
	t0=$(date +%s.%N)
	for w in 1 2; do
		timeout 600 ib_write_bw -d "rxe_h$w" -x 1 --tclass=106 -u "$qpto" -m 1024 -F -N -q "$qps" \
			-s 65536 -n "$iters" -p $((18514 + w)) 127.0.0.1 >"$tmp/$_m.cli$w" 2>&1 &
		eval "cli$w=\$!"
		t_pids="$t_pids $(eval echo \$cli$w)"
	done
	_bad=
	for w in 1 2; do
		t_wait "$(eval echo \$cli$w)" || _bad="$_bad writer$w"
	done
	t1=$(date +%s.%N)
	for w in 1 2; do
		t_wait "$(eval echo \$srv$w)" || _bad="$_bad receiver$w"
	done
	snap >"$tmp/$_m.1"
	run_secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f", b - a}')
	if [ -n "$_bad" ]; then
		for w in 1 2; do cat "$tmp/$_m.cli$w" "$tmp/$_m.srv$w"; done
		t_fail "$1 (pair $2): did not complete:$_bad failed after $run_secs s"
	fi
	a=$tmp/$_m.0 b=$tmp/$_m.1
	sent1=$(delta "$a" "$b" rxe_h1 sent_pkts)
	sent2=$(delta "$a" "$b" rxe_h2 sent_pkts)
	naks=$(delta "$a" "$b" rxe_h3 out_of_seq_request)
	dups=$(delta "$a" "$b" rxe_h3 duplicate_request)
	seqerr=$(($(delta "$a" "$b" rxe_h1 rcvd_seq_err) + $(delta "$a" "$b" rxe_h2 rcvd_seq_err)))
	retry=$(($(delta "$a" "$b" rxe_h1 completer_retry_err) + $(delta "$a" "$b" rxe_h2 completer_retry_err)))
	ce=$(delta "$a" "$b" ip IpExtInCEPkts)
	ect=$(delta "$a" "$b" ip IpExtInECT0Pkts)
	goodput=$(awk -v n="$((qps * iters))" -v s="$run_secs" 'BEGIN {printf "%.2f", 2 * n * 65536 * 8 / s / 1e6}')
	log "$1 (pair $2): send errors $(($(delta "$a" "$b" rxe_h1 send_err) + $(delta "$a" "$b" rxe_h2 send_err))), duplicates $(delta "$a" "$b" rxe_h3 duplicate_request); kernel counters that moved: $(awk 'FNR == NR && $1 == "ip" {a[$2] = $3; next} $1 == "ip" && $3 != a[$2] && $2 ~ /Err|Discard|Drop|CE/ {printf " %s %d", $2, $3 - a[$2]}' "$a" "$b")"
	log "$1 (pair $2): $run_secs s, goodput $goodput Mb/s; sent $sent1 + $sent2 packets for $need each; receiver NAKs $naks, writers' NAKs received $seqerr, retry timeouts $retry; received ECT(0) $ect, CE $ce"
}

fail=0
check() { # WHAT CONDITION...
	_w=$1
	shift
	if "$@"; then
		log "ok: $_w"
	else
		echo "fullkernel_rdma: FAIL: $_w"
		fail=$((fail + 1))
	fi
}
within5() { [ "$1" -ge "$need" ] && [ $(($1 * 100)) -le $((need * 105)) ]; }

off_total=0
on_total=0
pair=1
while [ "$pair" -le "$pairs" ]; do
	# off: a plain switch, drop-tail at the bottleneck with the same
	# buffer as the no-drop queue's.
	$TC -n "$sw" qdisc replace dev swp3 root tbf rate "${mbps}mbit" burst 20000 limit "$buffer"
	run off "$pair"
	off_secs=$run_secs
	d=$(sw_drops all)
	$TC -n "$sw" qdisc del dev swp3 root
	log "off (pair $pair): the bottleneck dropped $d packets"
	check "off (pair $pair): the drop-tail bottleneck drops ($d)" [ "$d" -gt 0 ]
	check "off (pair $pair): NAKs or retry timeouts (NAKs $naks/$seqerr, timeouts $retry)" \
		[ $((naks + seqerr + retry)) -gt 0 ]

	roced_on
	run on "$pair"
	on_secs=$run_secs
	nd=$(sw_drops nd)
	all=$(sw_drops all)
	$TC -n "$sw" -s qdisc show dev swp3 >"$tmp/on.$pair.swp3"
	t_show_on_fail "swp3 after on (pair $pair)" "$tmp/on.$pair.swp3"
	$IP netns exec "$sw" "$rocesh" -c "show interface priority-flow-control" >"$tmp/on.$pair.pfc" 2>&1 || true
	cat "$tmp/on.$pair.pfc"
	$IP netns exec "$sw" "$rocesh" -c "show queuing interface swp3" 2>/dev/null |
		grep -iE 'queue 3|ecn|drop|pause' | head -n 12 || true
	hd=
	for h in 1 2; do
		hd="$hd eth$h $($TC -s -j qdisc show dev "eth$h" | python3 -c 'import json, sys; print(sum(x.get("drops", 0) for x in json.load(sys.stdin)))')"
	done
	log "on (pair $pair): the no-drop queue dropped $nd packets (all of swp3: $all; the writers' own qdiscs:$hd)"
	log "on (pair $pair): drops outside the qdiscs: $(link_drops)"
	check "on (pair $pair): 0 drops in the switch's no-drop queue" [ "$nd" -eq 0 ]
	for w in 1 2; do
		tx=$(ppp "$sw" "swp$w" tx-pause)
		rx=$(ppp "" "eth$w" rx-pause)
		log "on (pair $pair): swp$w sent $tx pause frames, eth$w received $rx"
		check "on (pair $pair): pause sent out of swp$w ($tx)" [ "$tx" -gt 0 ]
		check "on (pair $pair): pause received at eth$w ($rx)" [ "$rx" -gt 0 ]
	done
	grep "kernel path" "$tmp/hosts.log" | head -n 4 || true
	# The kernel path's release keeps each flow's order (pfc_hold.bpf.c):
	# asked for (ROCED_RDMA_KPFC=on), no gap and no duplicate at all.
	if [ "${ROCED_RDMA_KPFC:-}" = on ]; then
		check "on (pair $pair): the kernel path: no gap and no duplicate at the receiver (NAKs $naks, duplicates $dups)" \
			[ $((naks + dups)) -eq 0 ]
	fi
	check "on (pair $pair): writer 1 sent within 5 % of the $need packets it needs ($sent1)" within5 "$sent1"
	check "on (pair $pair): writer 2 sent within 5 % of the $need packets it needs ($sent2)" within5 "$sent2"
	check "on (pair $pair): CE-marked RDMA packets at the receiver ($ce)" [ "$ce" -gt 0 ]
	roced_off
	log "pair $pair: off $off_secs s, on $on_secs s"
	off_total=$(awk -v a="$off_total" -v b="$off_secs" 'BEGIN {print a + b}')
	on_total=$(awk -v a="$on_total" -v b="$on_secs" 'BEGIN {print a + b}')
	pair=$((pair + 1))
done

ratio=$(awk -v a="$on_total" -v b="$off_total" 'BEGIN {printf "%.3f", a / b}')
echo "rdma on/off ratio: $ratio"
check "on/off completion-time ratio $ratio <= 0.5" \
	awk -v r="$ratio" 'BEGIN {exit !(r <= 0.5)}'
echo "fullkernel_rdma: rxe sends no CNP on a CE mark: ECN is counted, DCQCN is not exercised"
[ "$fail" -eq 0 ] || t_fail "$fail check(s) failed"
log "all checks passed"
