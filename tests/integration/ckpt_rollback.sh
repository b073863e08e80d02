#!/bin/sh
# ckpt_rollback: checkpoints and rollback against a running roced.
#   - `checkpoint stable`, a change of the policy (ETS 50/50 -> 30/70,
#     the qos input policy off swp1) that changes the kernel, then
#     `rollback running-config checkpoint stable`: tc -j qdisc, class
#     and filter of swp1 and show running-config are byte for byte the
#     checkpoint's, `show diff rollback-patch checkpoint stable
#     running-config` has no changes, and a second rollback writes 0;
#   - a checkpoint naming a port that is gone: the atomic rollback is
#     refused naming the port, nothing changes;
#   - checkpoints outlive a restart of roced; one cut short and one
#     edited by hand are listed as damaged with the reason and a
#     rollback to either is refused by name, nothing changes;
#   - a port the kernel refuses (a foreign root qdisc): the atomic
#     rollback puts the port that took the change back, so swp1's tc
#     state and the running configuration are as before; best-effort
#     restores swp1 and names the refused port.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
t_init ckpt_rollback
t_need_root
[ -x "$rocesh" ] || t_skip "rocesh is not built"
tmp=$t_tmp
fix=$top_srcdir/tests/fixtures/dcbx

t_veth_ns ns ckpt swp1 peer1
in_ns() { "$IP" netns exec "$ns" "$@"; }
sh_() { in_ns "$rocesh" "$@"; }
# the checkpoints' directory of this namespace (roced's state directory)
ino=$(in_ns stat -L -c %i /proc/self/ns/net)
dir=/run/roced/roced.$ino.checkpoint
t_defer "rm -rf '$dir'"

cp "$fix/switch.conf" "$tmp/roced.conf"
t_roced_start "$ns" "$tmp/roced.conf" "mirroring roced's tc objects"

# What a rollback must restore: roced's tc objects on swp1 (tc's JSON,
# without statistics) and the running configuration.
state() {
	for o in qdisc class filter; do
		in_ns "$TC" -j $o show dev swp1
		echo
	done
	sh_ -c 'show running-config'
}

state >"$tmp/state.0"
sh_ -c 'checkpoint stable description before the ETS change' >"$tmp/out" 2>&1 ||
	{ cat "$tmp/out"; t_fail "checkpoint stable"; }
[ -f "$dir/stable" ] || t_fail "no file $dir/stable"
[ "$(stat -c %a "$dir/stable")" = 600 ] || t_fail "$dir/stable is not 0600"

# --- a change that reaches the kernel ---
sh_ >"$tmp/out" 2>&1 <<'EOF' || { cat "$tmp/out"; t_fail "the change"; }
configure terminal
policy-map type queuing QUE
class type queuing c-out-8q-q3
bandwidth remaining percent 30
class type queuing c-out-8q-q-default
bandwidth remaining percent 70
interface swp1
no service-policy type qos input QOS
EOF
state >"$tmp/state.1"
cmp -s "$tmp/state.0" "$tmp/state.1" && t_fail "the change did not change the kernel"
sh_ -c 'show diff rollback-patch checkpoint stable running-config' >"$tmp/diff"
cat "$tmp/diff"
grep -q '^-    bandwidth remaining percent 50$' "$tmp/diff" || t_fail "the patch lacks the old share"
grep -q '^+    bandwidth remaining percent 70$' "$tmp/diff" || t_fail "the patch lacks the new share"
grep -q '^-  service-policy type qos input QOS$' "$tmp/diff" || t_fail "the patch lacks the qos policy"

# --- the rollback restores the checkpoint's kernel state ---
sh_ -c 'rollback running-config checkpoint stable' >"$tmp/out" 2>&1 ||
	{ cat "$tmp/out"; t_fail "rollback"; }
cat "$tmp/out"
grep -q 'Rollback to checkpoint stable completed (atomic' "$tmp/out" || t_fail "rollback: $(cat "$tmp/out")"
state >"$tmp/state.2"
diff "$tmp/state.0" "$tmp/state.2" || t_fail "the rollback did not restore the checkpoint's state"
sh_ -c 'show diff rollback-patch checkpoint stable running-config' | grep -q '^No changes$' ||
	t_fail "the running configuration differs from the checkpoint after the rollback"
sh_ -c 'rollback running-config checkpoint stable' | grep -q '(atomic, 0 kernel writes)' ||
	t_fail "a second rollback wrote to the kernel: the plan was not the checkpoint's"

# --- a checkpoint naming a port that is gone ---
in_ns "$IP" link add swp3 type veth peer name peer3
in_ns "$IP" link set swp3 up
sh_ >"$tmp/out" 2>&1 <<'EOF' || { cat "$tmp/out"; t_fail "swp3's configuration"; }
configure terminal
interface swp3
service-policy type queuing output QUE
end
checkpoint with-swp3
configure terminal
no interface swp3
EOF
in_ns "$IP" link del swp3
state >"$tmp/state.3"
sh_ -c 'rollback running-config checkpoint with-swp3' >"$tmp/out" 2>&1 &&
	t_fail "a rollback to a checkpoint naming an absent port was taken"
cat "$tmp/out"
grep -q 'interface swp3 does not exist' "$tmp/out" || t_fail "the refusal does not name swp3"
state >"$tmp/state.4"
diff "$tmp/state.3" "$tmp/state.4" || t_fail "the refused rollback changed something"

# --- damaged files, and a restart ---
sh_ -c 'checkpoint cut' >/dev/null
sh_ -c 'checkpoint edited' >/dev/null
t_roced_stop
truncate -s 300 "$dir/cut"
sed -i 's/percent 50/percent 55/' "$dir/edited"
cp "$fix/switch.conf" "$tmp/roced2.conf"
# swp4 held by a foreign root qdisc: roced refuses the port
in_ns "$IP" link add swp4 type veth peer name peer4
in_ns "$IP" link set swp4 up
in_ns "$TC" qdisc add dev swp4 root handle 1: htb default 1
sed -i 's/service-policy = { qos-input = "QOS"; queuing-output = "QUE"; }; } );/service-policy = { qos-input = "QOS"; queuing-output = "QUE"; }; },\n\t{ name = "swp4"; service-policy = { queuing-output = "QUE"; }; } );/' "$tmp/roced2.conf"
grep -q '"swp4"' "$tmp/roced2.conf" || t_fail "the DCBX switch fixture changed"
t_roced_start "$ns" "$tmp/roced2.conf" "mirroring roced's tc objects"
grep -q 'checkpoint cut .*damaged.*cut short' "$t_tmp/log" || t_fail "the cut file is not logged as damaged"
sh_ -c 'show checkpoint summary' >"$tmp/sum"
cat "$tmp/sum"
grep -q '^Description: before the ETS change$' "$tmp/sum" || t_fail "stable did not outlive the restart"
grep -q '^Damaged: cut short: it holds' "$tmp/sum" || t_fail "the cut checkpoint is not shown damaged"
grep -q '^Damaged: its checksum does not match: changed by hand$' "$tmp/sum" ||
	t_fail "the edited checkpoint is not shown damaged"
state >"$tmp/state.5"
for c in cut edited; do
	sh_ -c "rollback running-config checkpoint $c" >"$tmp/out" 2>&1 &&
		t_fail "a rollback to the damaged checkpoint $c was taken"
	grep -q "checkpoint $c is damaged" "$tmp/out" || t_fail "$c: $(cat "$tmp/out")"
done
state >"$tmp/state.6"
diff "$tmp/state.5" "$tmp/state.6" || t_fail "a refused rollback changed something"

# --- atomic: a port the kernel refuses undoes the whole rollback ---
sh_ -c 'show queuing interface swp4' | grep -q 'refused' ||
	t_fail "swp4 is not refused: the rig cannot test an atomic rollback"
sh_ -c 'checkpoint with-swp4' >/dev/null
sh_ >"$tmp/out" 2>&1 <<'EOF' || { cat "$tmp/out"; t_fail "the second change"; }
configure terminal
policy-map type queuing QUE
class type queuing c-out-8q-q3
bandwidth remaining percent 30
class type queuing c-out-8q-q-default
bandwidth remaining percent 70
EOF
state >"$tmp/state.7"
sh_ -c 'rollback running-config checkpoint with-swp4' >"$tmp/out" 2>&1 &&
	t_fail "an atomic rollback with a refused port was taken"
cat "$tmp/out"
grep -q 'swp4: not programmed: foreign root qdisc' "$tmp/out" || t_fail "the refusal does not name swp4"
grep -q 'atomic: the change is undone' "$tmp/out" || t_fail "the rollback does not say it was undone"
state >"$tmp/state.8"
diff "$tmp/state.7" "$tmp/state.8" || t_fail "the failed atomic rollback left a change behind"
sh_ -c 'rollback running-config checkpoint with-swp4 best-effort' >"$tmp/out" 2>&1 ||
	{ cat "$tmp/out"; t_fail "the best-effort rollback"; }
cat "$tmp/out"
grep -q 'swp4' "$tmp/out" || t_fail "the best-effort rollback does not name the refused port"
sh_ -c 'show running-config' | grep -q 'bandwidth remaining percent 70' &&
	t_fail "the best-effort rollback did not restore the shares"

sh_ -c 'clear checkpoint database' >/dev/null
[ -e "$dir" ] && t_fail "$dir outlived clear checkpoint database"
t_roced_stop
echo "PASS: ckpt_rollback"
