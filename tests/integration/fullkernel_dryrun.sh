#!/bin/sh
# fullkernel_dryrun.sh: what `roced --dry-run --caps full` prints for the
# shipped conf/roced.conf, replayed with `tc -batch -` on a full kernel (the
# QEMU guest), is what the policy asks for:
#   - each configured port gets an htb root 4791: (not ets: queue 3 is
#     no-drop and shares bandwidth, and ets would stop every sharing queue
#     while software PFC holds it), one class 4791:1q per queue q under
#     4791:1, q-default the default class, equal rates for queues 3 and
#     q-default (50 % each), more than the 0 % queues get, and each
#     queue's leaf 471q: in its class;
#   - red with ecn in queue 3's class, with the configured thresholds and
#     drop probability, inside software PFC's tbf (queue 3 is no-drop);
#   - flower filters on clsact ingress that set skb priority 3
#     (qos-group 3, ets's form) for DSCP 26 / CoS 3, and a cls_bpf
#     program on the htb root choosing queue 3's class 4791:13 again;
#   - the #ip lines give MTU 9216;
# and that packets follow it: tagged CoS 3 / DSCP 26 frames hit those
# filters on ingress, traffic with skb priority 4791:13 lands in the red
# leaf on egress.
# It also checks that these assertions fail on a corrupted batch, and that
# the largest WRED thresholds roced accepts (2^(31 - weight) - 1 bytes) are
# held by the kernel while one byte more is refused by `roced -n`.
#
# The expected values come from conf/roced.conf (the reference NX-OS RoCEv2
# policy); change them here when that file changes. ROCED_FK_BATCH=FILE
# replaces roced's output by FILE (to develop the checks without roced).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
self=$here/$(basename "$0")
rig=$here/../rig/qemu

if [ "${ROCED_GUEST:-}" != 1 ]; then
	exec "$rig/run-guest.sh" "$self" "$@"
fi

. "$rig/guest-lib.sh"
fk_init fullkernel_dryrun

top_srcdir=${top_srcdir:-$(cd "$here/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
conf=$top_srcdir/conf/roced.conf
roced=$top_builddir/roced

# From conf/roced.conf.
exp_queue=3	   # c-out-8q-q3 holds the RoCE class
exp_prio=3	   # set-qos-group 3 -> skb priority 3 (ets's form; the htb root classifies again)
exp_prio_num=$((0x47910013)) # the same, for SO_PRIORITY
exp_zero_queues="1 2" # bandwidth-remaining-percent 0
exp_red_min=153600 # 150 kbytes
exp_red_max=3072000 # 3000 kbytes
exp_red_prob=0.07  # drop-probability 7
exp_tos=104	   # DSCP 26 << 2
exp_pcp=3	   # CoS 3
exp_mtu=9216

# The ports as named in the file's interface blocks.
ports=$(sed -n '/^interface[[:space:]]*=/,/^);/s/^[[:space:]]*name[[:space:]]*=[[:space:]]*"\([^"]*\)".*/\1/p' "$conf")
[ -n "$ports" ] || fk_fail "no interface names found in $conf"
fk_log "ports in $(basename "$conf"): $(echo $ports)"

batch=$(mktemp /tmp/fk-dryrun.XXXXXX)
bad=$(mktemp /tmp/fk-dryrun-bad.XXXXXX)
trap 'rm -f "$batch" "$bad"; fk_cleanup' EXIT

if [ -n "${ROCED_FK_BATCH:-}" ]; then
	fk_log "using $ROCED_FK_BATCH instead of roced's output"
	cp "$ROCED_FK_BATCH" "$batch"
else
	[ -x "$roced" ] ||
		fk_fail "$roced not found or not executable in the guest (is the build tree visible?)"
	# stderr stays separate: warnings there must not reach tc.
	"$roced" --dry-run --caps full -f "$conf" >"$batch" ||
		fk_fail "roced --dry-run --caps full -f $conf exited with $?"
fi
fk_log "dry run: $(grep -c '^[a-z]' "$batch") tc lines, $(grep -c '^#ip ' "$batch") #ip lines"
sed -n 's/^# warning/  &/p' "$batch"

for p in $ports; do
	grep -q "^qdisc add dev $p " "$batch" ||
		fk_fail "the dry run has no qdisc for port $p"
done

# fk_dry_setup NS BATCH: a switch namespace NS with a veth port per
# configured port (its peer in NS-peer), BATCH replayed with tc -batch and
# its #ip lines with ip -batch.
fk_dry_setup()
{
	fk_netns_add "$1"
	fk_netns_add "$1-peer"
	for p in $ports; do
		fk_veth "$1" "$p" "$1-peer" "$p-peer"
	done
	grep -v '^#' "$2" | tc -n "$1" -batch - ||
		fk_fail "tc -batch rejected the dry run (namespace $1)"
	if grep -q '^#ip ' "$2"; then
		sed -n 's/^#ip //p' "$2" | ip -n "$1" -batch - ||
			fk_fail "ip -batch rejected the dry run's #ip lines"
	fi
}

# fk_dry_check NS PORT: print every way the kernel state of PORT in NS
# differs from the policy, one per line.
fk_dry_check()
{
	_qd=$(tc -n "$1" -j -d qdisc show dev "$2")
	printf '%s\n' "$_qd" | jq -r --argjson q "$exp_queue" \
		--argjson min "$exp_red_min" --argjson max "$exp_red_max" \
		--argjson prob "$exp_red_prob" '
	def leaf($q): map(select(.parent == "4791:1\($q)")) | .[0];
	(map(select(.root == true)) | .[0]) as $root
	| leaf($q) as $leaf
	| (if $leaf != null and $leaf.kind == "tbf"
	   then map(select(.parent == ($leaf.handle | rtrimstr(":")) + ":1")) | .[0]
	   else $leaf end) as $red
	| if $root == null or $root.kind != "htb" then
		"root qdisc is \($root.kind // "missing"), want htb"
	  else
		(if $root.handle != "4791:" then "htb handle \($root.handle), want 4791:" else empty end),
		(if ($root.options.default | tostring | ltrimstr("0x")) != "10"
		 then "htb default \($root.options.default), want 0x10 (q-default)" else empty end),
		(range(0; 8) as $p | leaf($p) as $l
		 | if $l == null then "no leaf in class 4791:1\($p) (queue \($p))"
		   elif $l.handle != "471\($p):" then "class 4791:1\($p) holds \($l.handle), want the leaf of queue \($p), 471\($p):"
		   else empty end),
		(if $leaf == null then "no qdisc in the class of queue \($q)"
		 elif $leaf.kind != "tbf" then "queue \($q) leaf is \($leaf.kind), want tbf (software PFC) with red inside"
		 elif $leaf.handle != "471\($q):" then "queue \($q) leaf handle \($leaf.handle), want 471\($q):"
		 elif $red == null then "nothing inside the tbf of queue \($q), want red"
		 else
			(if $red.kind != "red" then "queue \($q) tbf holds \($red.kind), want red" else empty end),
			(if $red.handle != "472\($q):" then "queue \($q) red handle \($red.handle), want 472\($q):" else empty end),
			(if $red.options.ecn != true then "red on queue \($q) without ecn" else empty end),
			(if $red.options.min != $min then "red min \($red.options.min), want \($min)" else empty end),
			(if $red.options.max != $max then "red max \($red.options.max), want \($max)" else empty end),
			(if ($red.options.probability // -1) < $prob - 0.0005 or ($red.options.probability // -1) > $prob + 0.0005
			 then "red probability \($red.options.probability), want \($prob)" else empty end)
		 end)
	  end'

	# The classes' rates (iproute2 6.1 prints htb classes as text even
	# with -j): queue 3 and q-default equal, the 0 % queues below them.
	tc -n "$1" class show dev "$2" | awk -v q="$exp_queue" -v zero="$exp_zero_queues" '
	function bits(v) {
		n = v + 0
		if (v ~ /Gbit$/) return n * 1e9
		if (v ~ /Mbit$/) return n * 1e6
		if (v ~ /Kbit$/) return n * 1e3
		return n
	}
	$1 == "class" && $2 == "htb" {
		for (i = 3; i < NF; i++) {
			if ($i == "parent") parent[$3] = $(i + 1)
			if ($i == "rate") rate[$3] = bits($(i + 1))
		}
	}
	END {
		for (c = 0; c < 8; c++)
			if (parent["4791:1" c] != "4791:1")
				print "class 4791:1" c " has parent " parent["4791:1" c] ", want 4791:1"
		r3 = rate["4791:1" q]; r0 = rate["4791:10"]
		if (!r3 || r3 != r0)
			print "rates of queue " q " (" r3 ") and q-default (" r0 ") differ, want equal (50/50)"
		nz = split(zero, zq, " ")
		for (i = 1; i <= nz; i++)
			if (rate["4791:1" zq[i]] >= r3)
				print "queue " zq[i] " (0 %) has rate " rate["4791:1" zq[i]] ", not less than queue " q "s"
	}'

	_fl=$(tc -n "$1" -j filter show dev "$2" ingress)
	printf '%s\n' "$_fl" | jq -r --argjson prio "$exp_prio" \
		--argjson tos "$exp_tos" --argjson pcp "$exp_pcp" '
	def ours: .pref >= 4791 and .pref <= 5790 and .options != null;
	def skbprio: tostring | sub("^0?:"; "") | tonumber? // -1;
	map(select(ours)) as $f
	| ($f | map(select(.kind == "flower"
	                   and ((.options.actions // []) | map(select(.kind == "skbedit")) | length) > 0))) as $fl
	| (if ($fl | length) == 0 then "no flower filter with a skbedit action on ingress" else empty end),
	  ($fl[] | . as $x | .options.keys as $k
	   | ((.options.actions[] | select(.kind == "skbedit")
	       | if (.priority | skbprio) != $prio
	         then "filter pref \($x.pref): skbedit priority \(.priority), want \($prio)" else empty end),
	      (if $k.ip_tos == null and $k.vlan_prio == null
	       then "filter pref \($x.pref) matches neither DSCP nor CoS" else empty end),
	      (if $k.ip_tos != null and ($k.ip_tos != $tos or $k.ip_tos_mask != "fc")
	       then "filter pref \($x.pref): ip_tos \($k.ip_tos)/\($k.ip_tos_mask), want \($tos)/fc" else empty end),
	      (if $k.vlan_prio != null and $k.vlan_prio != $pcp
	       then "filter pref \($x.pref): vlan_prio \($k.vlan_prio), want \($pcp)" else empty end)))'

	_mtu=$(ip -n "$1" -j link show dev "$2" | jq -r '.[0].mtu')
	[ "$_mtu" = "$exp_mtu" ] || echo "mtu $_mtu, want $exp_mtu"
}

# --- the assertions must be able to fail: a corrupted copy of the batch ---
# (red without ecn, and so without nodrop, which the kernel takes only
# with ecn; another skbedit priority, other thresholds) must be
# caught, or the checks below prove nothing.
sed -e 's/ ecn$//; s/ ecn / /; s/ nodrop$//' \
	-e "s/skbedit priority $exp_prio\$/skbedit priority 2/" \
	-e "s/ min $exp_red_min / min 76800 /" "$batch" >"$bad"
fk_dry_setup fkdry-bad "$bad"
first=$(echo $ports | cut -d' ' -f1)
found=$(fk_dry_check fkdry-bad "$first")
missing=
for want in "without ecn" "skbedit priority" "red min"; do
	printf '%s\n' "$found" | grep -q "$want" || missing="$missing '$want'"
done
fk_check "the checks catch a corrupted batch (missed:${missing:- none})" \
	test -z "$missing"
ip netns del fkdry-bad-peer
ip netns del fkdry-bad

# --- the real thing --------------------------------------------------------
ns=fkdry
fk_dry_setup "$ns" "$batch"
for p in $ports; do
	fk_assert_empty "$p holds the policy" "$(fk_dry_check "$ns" "$p")" || true
done

# --- packets ---------------------------------------------------------------
# Ingress: tagged frames with CoS 3 and DSCP 26 from the peer must be
# caught by roced's skbedit filters (they satisfy match-all cos 3 dscp 26).
# Egress: traffic with skb priority 4791:13 (queue 3's class) leaving the
# port must land in the red leaf of queue 3, best-effort traffic must not.
n=0
for p in $ports; do
	n=$((n + 1))
	peer=$ns-peer
	ip -n "$peer" link add link "$p-peer" name "$p-peer.10" type vlan id 10 \
		egress-qos-map 0:3 || fk_fail "cannot create a VLAN device"
	ip -n "$peer" link set "$p-peer.10" up
	ip -n "$peer" addr add "198.51.$n.1/24" dev "$p-peer.10"
	ip -n "$peer" neigh add "198.51.$n.2" lladdr "$(fk_mac "$ns" "$p")" \
		dev "$p-peer.10" nud permanent
	fk_send "$peer" "198.51.$n.2" 10 0x68 0

	ip -n "$ns" addr add "192.0.$n.2/24" dev "$p"
	ip -n "$ns" neigh add "192.0.$n.1" lladdr "$(fk_mac "$peer" "$p-peer")" \
		dev "$p" nud permanent
	fk_send "$ns" "192.0.$n.1" 10 0x68 "$exp_prio_num"
	fk_send "$ns" "192.0.$n.1" 10 0x00 0

	hits=$(tc -n "$ns" -s -j filter show dev "$p" ingress | jq '
		[.[] | select(.pref >= 4791 and .pref <= 5790)
		 | .options.actions // [] | .[]
		 | select(.kind == "skbedit") | .stats.packets] | add // 0')
	fk_check "$p: 10 tagged CoS 3 / DSCP 26 frames hit roced's filters (hits $hits)" \
		test "$hits" -ge 10
	red=$(tc -n "$ns" -s -j qdisc show dev "$p" | jq \
		"map(select(.handle == \"471$exp_queue:\")) | .[0].packets // -1")
	fk_check "$p: 10 priority $exp_prio packets in queue $exp_queue's leaf (a tbf with red inside), none of the best effort (got $red)" \
		test "$red" -eq 10
done

# The largest WRED thresholds roced accepts are ones the kernel holds: it
# keeps thresholds shifted by the weight in 32 bits and refuses
# fls(threshold) + Wlog >= 32. At weight 0 that is 2^31 - 1 bytes, at
# weight 15 65535 bytes; one byte more is refused by `roced -n` at its line.
wred_conf=$(mktemp /tmp/fk-wred.XXXXXX)
wred_batch=$(mktemp /tmp/fk-wred-batch.XXXXXX)
for case in "0 150 kbytes 2147483647" "15 1 kbytes 65535"; do
	set -- $case
	w=$1 min="$2 $3" max=$4
	sed -e "s/minimum-threshold = \"150 kbytes\"/minimum-threshold = \"$min\"/" \
		-e "s/maximum-threshold = \"3000 kbytes\"/maximum-threshold = \"$max bytes\"/" \
		-e "s/weight = 0;/weight = $w;/" "$conf" >"$wred_conf"
	grep -q "maximum-threshold = \"$max bytes\"" "$wred_conf" ||
		fk_fail "could not write the WRED limit case into a copy of $conf"
	# Applied over netlink: tc's own command line cannot express such a
	# small probability over a 2 GiB range ("failed to calculate
	# probability"), the kernel's netlink interface can.
	fk_netns_add "wred$w"
	fk_netns_add "wred$w-peer"
	for p in $ports; do
		fk_veth "wred$w" "$p" "wred$w-peer" "$p-peer"
	done
	ip netns exec "wred$w" "$roced" --once -f "$wred_conf" >"$wred_batch" 2>&1 ||
		fk_fail "roced --once refused WRED max $max bytes at weight $w, which the kernel holds: $(cat "$wred_batch")"
	for p in $ports; do
		got=$(tc -n "wred$w" -j -d qdisc show dev "$p" | jq \
			"map(select(.kind == \"red\")) | .[0].options.max // -1")
		fk_check "$p: red at weight $w holds max $max bytes (kernel: $got)" \
			test "$got" -eq "$max"
	done
	sed -i "s/maximum-threshold = \"$max bytes\"/maximum-threshold = \"$((max + 1)) bytes\"/" "$wred_conf"
	line=$(grep -n "maximum-threshold = \"$((max + 1)) bytes\"" "$wred_conf" | cut -d: -f1)
	out=$("$roced" -n -f "$wred_conf" 2>&1) && fk_fail "roced -n accepted max $((max + 1)) bytes at weight $w"
	fk_check "roced -n refuses max $((max + 1)) bytes at weight $w at line $line" \
		sh -c 'echo "$1" | grep -q "^$2:$3: error: maximum-threshold .* holds with weight $4: at most $5 bytes"' \
		- "$out" "$wred_conf" "$line" "$w" "$max"
done
rm -f "$wred_conf" "$wred_batch"

fk_finish
