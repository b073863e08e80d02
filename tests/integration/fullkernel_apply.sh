#!/bin/sh
# fullkernel_apply.sh: `roced --once --caps probe` on a full kernel (the
# QEMU guest) applies the shipped RoCE policy to a software switch, and
# RoCE traffic through that switch is classified, queued, ECN-marked by RED
# and delivered marked, while best-effort traffic takes the default queue.
#
# The rig: namespace fkapply-sw holds a Linux bridge br0 with two veth
# ports, swp1 (towards the sender, namespace fkapply-tx) and swp2 (towards
# the receiver, fkapply-rx). The configuration is conf/roced.conf with its
# interface list replaced by two copies of its own interface block, one per
# port (swp1 = Ethernet1/1, swp2 = Ethernet1/2): each port gets the qos
# input policy (classification on ingress) and the queuing output policy
# (htb + red ecn on egress: not ets, because queue 3 is no-drop and
# shares bandwidth, and ets would stop every sharing queue while software
# PFC holds it). Checked:
#   1. roced exits 0 and reports layout htb+red on both ports; the kernel
#      then holds (tc -j -d qdisc / tc -j filter) an htb root 4791:, red
#      with ecn and the configured min/max inside software PFC's tbf in
#      queue 3's class 4791:13 (queue 3 is no-drop), flower + skbedit
#      priority 3 on ingress (ets's form: another port of the bridge may
#      have ets) and cls_bpf on the htb root choosing the class again; a
#      second run writes nothing.
#   2. RoCE traffic: UDP to port 4791 with TOS 0x6a (DSCP 26, ECT(0)) on
#      VLAN 10 with PCP 3 (the rig makes the class-map match-all cos 3 dscp
#      26, so untagged frames would not match it), sent from the sender in one
#      burst, and best-effort traffic (untagged, TOS 0) interleaved with it.
#      roced's ingress filters must count every RoCE datagram; on swp2 the
#      RoCE datagrams must all pass queue 3's red leaf, the queue must hold
#      more than RED's minimum threshold once the burst is in, RED must
#      mark (and drop nothing), the receiver (udp_sink.py, IP_RECVTOS) must
#      get exactly as many CE datagrams as RED marked and every datagram
#      sent; best effort must all pass the q-default leaf and nothing may
#      reach any other queue.
#
# The bottleneck. A queue forms in a qdisc only when the device stops
# taking packets, and veth on the guest's 6.1 kernel never does: its xmit
# hands the packet to the peer's backlog or drops it (qdisc backpressure
# came to veth in 6.16). Measured here under TCG with the qdiscs as roced
# sets them, and no bottleneck: one sender (~18k pps) or two senders into
# one egress port (~10k pps each, 1400- and 8000-byte datagrams) left
# queue 3's red leaf with no backlog and 0 marks. roced's htb classes run
# at the port's assumed speed (10 Gb/s), far above what the guest sends,
# and a shaper at the root would replace roced's root. What works: red (inside roced's tbf, which --once leaves
# released) is classful with one class (RED:1) whose child is
# an implicit bfifo that is not one of roced's objects; we graft a tbf in
# its place. RED computes its queue average from its child's backlog, so
# it sees the tbf's queue exactly as it would see a slow link's (roced's
# red has weight 0: the instantaneous queue).
#
# How slow. The first version ran the tbf at 20 Mbit/s (~1.7k datagrams
# a second) for the whole test and read queue 3's backlog once after the
# burst. That raced: the sender does 15-22k pps on a quiet machine, but
# under TCG on a busy host it falls to the tbf's rate and below (0.8-1.9k
# pps were seen here), so the queue barely passed RED's minimum (24-67
# marks instead of 350-770) and had drained by the time tc read it (0
# bytes).
# So the tbf now holds queue 3 during the burst, the way PFC pauses a
# no-drop class (the shipped network-qos pauses cos 3): 100 kbit/s, ~9
# datagrams a second, 90 times slower than the slowest sender seen, so
# nearly the whole burst (3000 x 1442 bytes = 4.3 MB, past RED's maximum)
# stays in the queue whatever the machine's load, and RED's marks, made
# as packets are queued, depend on the queue alone. Once the sender is
# done, the held backlog is read: at 100 kbit/s the queue would need
# longer than run-guest's 300 s timeout to drain below RED's minimum, so
# this read cannot race. Then the tbf is changed to 100 Mbit/s, which
# keeps its packets, and the queue drains to the receiver; the receiver
# stops when it has every datagram (--expect), not after an idle time
# that a slow guest could hit. Side effects: only queue 3 is slow; htb
# serves q-default meanwhile (an ets root would not: while the held RoCE
# band is at the head of its round, ets sends nothing). The
# sender's socket gets a large send buffer (SO_SNDBUFFORCE): a datagram
# queued behind a veth stays charged to its socket, and with the default
# buffer the burst was paced to a ~400 KB queue (4 marks).
#
# Measured on the 2-core development machine: 24 s from boot to result on
# a quiet machine; 87-215 s in 20 runs in a row with stress-ng on one
# core beside other engineers' guests (load average 9-19), all passed.
# The sender did 0.8-20k pps; queue 3 held 4.24-4.30 MB when it returned,
# RED marked 959-1005 and dropped none, the receiver saw exactly that
# many CE; the 600 best-effort datagrams all passed q-default.
#
# ROCED_FK_APPLY_BREAK=noecn|dscp|nobottleneck runs the test on a
# deliberately wrong setup (the policy without ecn; the class-map on DSCP
# 10; no tbf): the test must then fail, and does (noecn: 6 failed checks,
# RED dropped 854 and marked 0; dscp: 5, everything in q-default;
# nobottleneck: 2, backlog 0 and 0 marks).
# On the host this script boots the guest and runs itself inside; skipped
# (77) when QEMU or the distro kernel is missing.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
self=$here/$(basename "$0")
rig=$here/../rig/qemu

if [ "${ROCED_GUEST:-}" != 1 ]; then
	. "$here/lib.sh"
	t_guest fullkernel_apply "$self" "$@"
fi

. "$rig/guest-lib.sh"
fk_init fullkernel_apply
fk_log "guest kernel $(uname -r)"

top_srcdir=${top_srcdir:-$(cd "$here/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
shipped=$top_srcdir/conf/roced.conf
roced=$top_builddir/roced
tools=$top_srcdir/tests/tools
# The distro interpreter, not a version manager's shim: each python start
# costs about a second under TCG already.
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3)
[ -x "$roced" ] ||
	fk_fail "$roced not found or not executable in the guest (is the build tree visible?)"

# --- expectations, from conf/roced.conf ------------------------------------
# Guarded: if the shipped policy changes, this test says so instead of
# checking stale numbers.
for want in 'minimum-threshold = "150 kbytes"' \
	'maximum-threshold = "3000 kbytes"' 'drop-probability = 7' \
	'ecn = true' 'cos = 3; dscp = 26' 'set-qos-group = 3' \
	'mtu = 9216' 'name = "c-out-8q-q3"' 'name = "swp1"'; do
	grep -qF "$want" "$shipped" ||
		fk_fail "$shipped no longer says '$want': update fullkernel_apply.sh's expectations"
done
exp_q=3		    # c-out-8q-q3, qos-group 3, skb priority 3
exp_min=153600	    # 150 kbytes
exp_max=3072000	    # 3000 kbytes
exp_prob=0.07	    # drop-probability 7
exp_tos=104	    # DSCP 26 << 2, the flower key
exp_mtu=9216
n_roce=3000 # RoCE datagrams in the burst
n_be=600    # best-effort datagrams, interleaved
size=1400   # UDP payload bytes
# The tbf under queue 3's red (see "How slow" above): held during the
# burst, released after it. tbf has no pause; 100 kbit/s is as good as
# one for a burst that takes well under a minute to send, and the 20 KB
# burst lets the first ~13 datagrams through at once. The limit (16 MB)
# holds the whole burst: tbf's own queue must drop nothing.
hold="tbf rate 100kbit burst 20000 limit 16000000"
release="tbf rate 100mbit burst 20000 limit 16000000"

sw=fkapply-sw
tx=fkapply-tx
rx=fkapply-rx
in_port=swp1  # towards the sender
out_port=swp2 # towards the receiver

tmp=$(mktemp -d /tmp/fk-apply.XXXXXX)
sink_pid=
cleanup()
{
	if [ -n "$sink_pid" ]; then kill "$sink_pid" 2>/dev/null || true; fi
	rm -rf "$tmp"
	fk_cleanup
}
trap cleanup EXIT

# --- the configuration: the shipped file, one interface block per port ----
conf=$tmp/roced.conf
blk=$(sed -n '/^interface[[:space:]]*=[[:space:]]*(/,/^);/p' "$shipped" | sed '1d;$d')
printf '%s\n' "$blk" | grep -q "name = \"$in_port\";" ||
	fk_fail "no interface block for $in_port in $shipped"
for pol in qos-input queuing-output; do
	printf '%s\n' "$blk" | grep -q "$pol = " ||
		fk_fail "the shipped interface block has no $pol service policy"
done
{
	sed '/^interface[[:space:]]*=[[:space:]]*(/,$d' "$shipped"
	echo 'interface = ('
	printf '%s,\n' "$blk"
	printf '%s\n' "$blk" |
		sed "s/\"$in_port\"/\"$out_port\"/; s|Ethernet1/1|Ethernet1/2|g"
	echo ');'
	sed '1,/^interface[[:space:]]*=[[:space:]]*(/d' "$shipped" | sed '1,/^);/d'
} >"$conf"
# The shipped class is match-any (DSCP 26 alone classifies untagged RoCE);
# this rig checks the match-all form, CoS 3 and DSCP 26 in one flower
# filter, with tagged traffic that satisfies both.
sed -i 's/match = "any"; cos = 3; dscp = 26;/match = "all"; cos = 3; dscp = 26;/' "$conf"
grep -q 'match = "all"; cos = 3; dscp = 26;' "$conf" ||
	fk_fail "the shipped ROCE_CLASS changed: cannot make it match-all"

brk=${ROCED_FK_APPLY_BREAK:-}
cp "$conf" "$tmp/unbroken.conf"
case $brk in
'' | nobottleneck) ;;
noecn) sed -i 's/ecn = true;/ecn = false;/' "$conf" ;;
dscp) sed -i 's/cos = 3; dscp = 26;/cos = 3; dscp = 10;/' "$conf" ;;
*) fk_fail "ROCED_FK_APPLY_BREAK=$brk: want noecn, dscp or nobottleneck" ;;
esac
if [ -n "$brk" ]; then
	fk_log "deliberately wrong setup: $brk (this run must fail)"
	case $brk in
	noecn | dscp)
		! cmp -s "$conf" "$tmp/unbroken.conf" ||
			fk_fail "ROCED_FK_APPLY_BREAK=$brk changed nothing in the config"
		;;
	esac
fi
"$roced" -n --caps full -f "$conf" >"$tmp/check.out" 2>&1 || {
	cat "$tmp/check.out"
	fk_fail "the generated configuration does not load (roced -n)"
}
for p in "$in_port" "$out_port"; do
	grep -q "name = \"$p\";" "$conf" || fk_fail "generated config lacks $p"
done

# --- the rig ----------------------------------------------------------------
fk_netns_add "$sw"
fk_netns_add "$tx"
fk_netns_add "$rx"
fk_veth "$sw" "$in_port" "$tx" tx0
fk_veth "$sw" "$out_port" "$rx" rx0
ip -n "$sw" link add br0 type bridge || fk_fail "cannot create the bridge"
ip -n "$sw" link set "$in_port" master br0
ip -n "$sw" link set "$out_port" master br0
ip -n "$sw" link set br0 up
# RoCE on VLAN 10: the sender's datagrams carry PCP 3 (socket priority 0
# mapped to 3); best effort untagged.
ip -n "$tx" link add link tx0 name tx0.10 type vlan id 10 egress-qos-map 0:3
ip -n "$rx" link add link rx0 name rx0.10 type vlan id 10
ip -n "$tx" link set tx0.10 up
ip -n "$rx" link set rx0.10 up
ip -n "$tx" addr add 10.10.0.1/24 dev tx0.10
ip -n "$rx" addr add 10.10.0.2/24 dev rx0.10
ip -n "$tx" addr add 192.0.2.1/24 dev tx0
ip -n "$rx" addr add 192.0.2.2/24 dev rx0
rmac=$(fk_mac "$rx" rx0)
ip -n "$tx" neigh add 10.10.0.2 lladdr "$rmac" dev tx0.10 nud permanent
ip -n "$tx" neigh add 192.0.2.2 lladdr "$rmac" dev tx0 nud permanent

# --- 1. apply, and what the kernel holds ------------------------------------
# once OUTFILE: run roced --once in the switch; its exit code.
once()
{
	_rc=0
	ip netns exec "$sw" "$roced" --once --caps probe -f "$conf" \
		>"$1" 2>"$1.err" || _rc=$?
	sed 's/^/  /' "$1"
	return $_rc
}
# writes OUTFILE PORT: the port's write count if roced reports it ok with
# layout htb+red, else nothing.
writes()
{
	sed -n "s/^$2: ok, \([0-9]*\) writes\{0,1\}, layout htb+red,.*/\1/p" "$1"
}

fk_log "roced --once --caps probe -f $(basename "$conf")"
rc=0
once "$tmp/once1" || rc=$?
[ $rc -eq 0 ] || {
	sed 's/^/  stderr: /' "$tmp/once1.err"
	fk_fail "roced --once exited with $rc"
}
for p in "$in_port" "$out_port"; do
	w=$(writes "$tmp/once1" "$p")
	fk_check "$p: ok, layout htb+red, ${w:-no} writes" test "${w:-0}" -gt 0
done
fk_check "summary: 2 ports, 0 failed" \
	grep -q '^roced: 2 ports, [0-9]* writes, .* 0 failed$' "$tmp/once1"

# port_problems PORT: every way PORT's tc state differs from the policy.
port_problems()
{
	tc -n "$sw" -j -d qdisc show dev "$1" | jq -r \
		--argjson q "$exp_q" --argjson min "$exp_min" \
		--argjson max "$exp_max" --argjson prob "$exp_prob" '
	def leaf($q): map(select(.parent == "4791:1\($q)")) | .[0];
	(map(select(.root == true)) | .[0]) as $root
	| if $root == null or $root.kind != "htb" or $root.handle != "4791:" then
		"root qdisc \($root.kind // "none") \($root.handle // ""), want htb 4791:"
	  else
		leaf($q) as $leaf
		| (if $leaf != null and $leaf.kind == "tbf"
		   then map(select(.parent == ($leaf.handle | rtrimstr(":")) + ":1")) | .[0]
		   else null end) as $red
		| leaf(0) as $dflt
		| (if ($root.options.default | tostring | ltrimstr("0x")) != "10"
		   then "htb default \($root.options.default), want 0x10 (q-default)" else empty end),
		  (if $leaf == null then "no qdisc in the class of queue \($q)"
		   elif $leaf.kind != "tbf" then "queue \($q) leaf is \($leaf.kind), want the tbf of software PFC with red inside"
		   elif $red == null then "nothing inside the tbf \($leaf.handle) of queue \($q), want red"
		   else
			(if $red.kind != "red" then "queue \($q) tbf holds \($red.kind), want red" else empty end),
			(if $red.options.ecn != true then "red on queue \($q) without ecn" else empty end),
			(if $red.options.min != $min then "red min \($red.options.min), want \($min)" else empty end),
			(if $red.options.max != $max then "red max \($red.options.max), want \($max)" else empty end),
			(if (($red.options.probability // -1) - $prob) | fabs > 0.0005
			 then "red probability \($red.options.probability), want \($prob)" else empty end)
		   end),
		  (if $dflt == null then "no qdisc in the class of q-default"
		   elif $dflt.kind == "red" then "q-default has red" else empty end)
	  end' || echo "cannot read the qdiscs of $1 (tc or jq failed)"
	tc -n "$sw" -j filter show dev "$1" ingress | jq -r --argjson q "$exp_q" \
		--argjson tos "$exp_tos" '
	def skbprio: tostring | sub("^0?:"; "") | tonumber? // -1;
	[.[] | select(.kind == "flower" and .options != null
	              and .options.keys.eth_type == "ipv4"
	              and .options.keys.vlan_prio == $q
	              and .options.keys.ip_tos == $tos
	              and .options.keys.ip_tos_mask == "fc"
	              and ([.options.actions[]? | select(.kind == "skbedit")
	                    | .priority | skbprio] == [$q]))]
	| if length == 0 then
		"no flower filter on ingress for vlan_prio \($q) + ip_tos \($tos)/0xfc with skbedit priority \($q)"
	  else empty end' || echo "cannot read the ingress filters of $1 (tc or jq failed)"
	_mtu=$(ip -n "$sw" -j link show dev "$1" | jq -r '.[0].mtu')
	[ "$_mtu" = "$exp_mtu" ] || echo "mtu $_mtu, want $exp_mtu"
}
for p in "$in_port" "$out_port"; do
	fk_assert_empty "$p holds htb 4791:, red ecn min $exp_min max $exp_max on queue $exp_q, flower+skbedit priority $exp_q (ets form: the bridge may mix roots)" \
		"$(port_problems "$p")" || true
done

fk_log "roced --once again"
rc=0
once "$tmp/once2" || rc=$?
fk_check "second run exits 0 (got $rc)" test $rc -eq 0
for p in "$in_port" "$out_port"; do
	w=$(writes "$tmp/once2" "$p")
	fk_check "$p: second run writes nothing (${w:-?} writes)" test "${w:-x}" = 0
done
fk_check "second run: 0 writes in total" \
	grep -q '^roced: 2 ports, 0 writes,' "$tmp/once2"

# --- 2. the bottleneck: a held tbf in place of red's implicit child --------
qd=$(tc -n "$sw" -j qdisc show dev "$out_port")
# Queue 3 is no-drop: its leaf is software PFC's tbf (released: faster
# than the port), with the red inside it.
q3leaf=$(fk_jq "$qd" --argjson q "$exp_q" '
	map(select(.parent == "4791:1\($q)")) | .[0].handle // empty') ||
	fk_fail "cannot read the qdiscs of $out_port"
red=$(fk_jq "$qd" --arg l "${q3leaf%:}:1" '
	map(select(.parent == $l and .kind == "red")) | .[0].handle // empty')
dflt=$(fk_jq "$qd" '
	map(select(.parent == "4791:10")) | .[0].handle // empty')
[ -n "$red" ] && [ -n "$dflt" ] ||
	fk_fail "cannot find queue $exp_q's and q-default's leaves on $out_port"
fk_log "$out_port: queue $exp_q leaf $q3leaf with red $red inside, q-default leaf $dflt"
if [ "$brk" != nobottleneck ]; then
	# shellcheck disable=SC2086 # $hold is a word list
	tc -n "$sw" qdisc add dev "$out_port" parent "${red%:}:1" handle 99: \
		$hold || fk_fail "cannot graft a tbf under $red"
	fk_log "$out_port: $hold under $red (queue $exp_q held)"
fi

# --- 3. traffic -------------------------------------------------------------
# The receiver stops when it has every datagram; the idle time is only
# its way out when some were lost.
ip netns exec "$rx" "$py" -S -E "$tools/udp_sink.py" --ready "$tmp/ready" \
	--expect $((n_roce + n_be)) --idle 10 --deadline 120 >"$tmp/sink" 2>&1 &
sink_pid=$!
i=0
while [ ! -e "$tmp/ready" ]; do
	i=$((i + 1))
	[ $i -le 300 ] || fk_fail "udp_sink did not start: $(cat "$tmp/sink")"
	kill -0 "$sink_pid" 2>/dev/null ||
		fk_fail "udp_sink exited: $(cat "$tmp/sink")"
	sleep 0.1
done
fk_log "sending $n_roce RoCE (TOS 0x6a, PCP 3) + $n_be best-effort datagrams of $size bytes"
ip netns exec "$tx" "$py" -S -E "$tools/udp_blast.py" --size "$size" \
	"10.10.0.2,0x6a,$n_roce" "192.0.2.2,0x00,$n_be" >"$tmp/blast" 2>&1 || {
	cat "$tmp/blast"
	fk_fail "udp_blast failed"
}
sed 's/^/  sender: /' "$tmp/blast"
# The queue while it is still held: the burst is in, and at the hold rate
# it cannot have drained (see "How slow").
held=$(tc -n "$sw" -s -j qdisc show dev "$out_port" |
	jq --arg h "$red" 'map(select(.handle == $h)) | .[0].backlog // 0') ||
	fk_fail "cannot read $red's backlog"
fk_log "$red backlog after the burst, before the release: $held bytes"
if [ "$brk" != nobottleneck ]; then
	# shellcheck disable=SC2086 # $release is a word list
	tc -n "$sw" qdisc change dev "$out_port" parent "${red%:}:1" \
		handle 99: $release || fk_fail "cannot release the tbf under $red"
	fk_log "$out_port: released: $release"
fi
wait "$sink_pid" || true
sink_pid=
sed 's/^/  receiver: /' "$tmp/sink"
fk_log "receiver done"

# --- 4. where the packets went -----------------------------------------------
hits=$(tc -n "$sw" -s -j filter show dev "$in_port" ingress | jq '
	[.[] | .options.actions // [] | .[]
	 | select(.kind == "skbedit") | .stats.packets] | add // 0') ||
	fk_fail "cannot read the ingress filter statistics of $in_port"
fk_check "$in_port: roced's skbedit filters matched every RoCE datagram ($hits of $n_roce)" \
	test "$hits" -eq "$n_roce"

st=$(tc -n "$sw" -s -j qdisc show dev "$out_port")
fk_jq "$st" --arg red "$red" --arg dflt "$dflt" '
	.[] | select(.handle == $red or .handle == $dflt or .handle == "99:")
	| "  \(.kind) \(.handle) \(.packets) packets, \(.drops) dropped, backlog \(.backlog)"
	  + (if .kind == "red" then ", marked \(.marked) early \(.early) pdrop \(.pdrop) other \(.other)" else "" end)'
marks=$(fk_jq "$st" --arg h "$red" 'map(select(.handle == $h)) | .[0].marked // 0') ||
	fk_fail "cannot read RED's marks"
problems=$(fk_jq "$st" --arg red "$red" --arg dflt "$dflt" --arg q3leaf "$q3leaf" \
	--argjson nr "$n_roce" --argjson nb "$n_be" --argjson min "$exp_min" \
	--argjson held "$held" '
	(map(select(.handle == $red)) | .[0]) as $r
	| (map(select(.handle == $dflt)) | .[0]) as $d
	| (if $r.packets != $nr then "queue 3 leaf \($red) passed \($r.packets) packets, want \($nr)" else empty end),
	  (if $held <= $min then "queue 3 held \($held) bytes after the burst, not above the RED minimum \($min): no congestion" else empty end),
	  (if ($r.marked // 0) <= 0 then "RED marked \($r.marked // 0), want some" else empty end),
	  (if $r.drops != 0 or ($r.early // 0) != 0 or ($r.pdrop // 0) != 0 or ($r.other // 0) != 0
	   then "RED dropped \($r.drops) (early \($r.early), pdrop \($r.pdrop), other \($r.other)) with \($r.marked) marks, want no drops" else empty end),
	  (if $r.backlog != 0 then "queue 3 still holds \($r.backlog) bytes" else empty end),
	  (if $d.packets != $nb then "q-default leaf \($dflt) passed \($d.packets) packets, want \($nb)" else empty end),
	  (.[] | select(.parent != null and (.parent | startswith("4791:"))
	                and .handle != $q3leaf and .handle != $dflt and .packets != 0)
	   | "leaf \(.handle) (\(.parent)) passed \(.packets) packets, want 0")' ||
	echo "cannot read the statistics of $out_port (jq failed)")
fk_assert_empty "$out_port: RoCE in queue $exp_q's class, marked by RED without drops; best effort in q-default" \
	"$problems" || true

ce=$(sed -n 's/^tos 0x6b //p' "$tmp/sink")
ect=$(sed -n 's/^tos 0x6a //p' "$tmp/sink")
be=$(sed -n 's/^tos 0x00 //p' "$tmp/sink")
total=$(sed -n 's/^total //p' "$tmp/sink")
ce=${ce:-0} ect=${ect:-0} be=${be:-0} total=${total:-0}
fk_check "receiver: $ce CE datagrams, as many as RED marked ($marks)" \
	test "$ce" -eq "$marks" -a "$ce" -gt 0
fk_check "receiver: every RoCE datagram arrived ($ect ECT(0) + $ce CE of $n_roce)" \
	test $((ect + ce)) -eq "$n_roce"
fk_check "receiver: every best-effort datagram arrived with TOS 0 ($be of $n_be)" \
	test "$be" -eq "$n_be"
fk_check "receiver: no other TOS values ($total in all)" \
	test "$total" -eq $((n_roce + n_be))

# One line for logs that compare runs.
fk_log "summary: sender $(sed -n 's/^elapsed //p' "$tmp/blast"), held $held bytes, RED marked $marks, receiver CE $ce"
fk_log "guest up $(fk_uptime) s when the checks ended"
fk_finish
