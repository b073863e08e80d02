#!/bin/sh
# rocesh_paste: what an operator pasting real NX-OS configurations into
# rocesh sees, against a real roced (shipped configuration, planned for
# this machine's minimal kernel: --caps host) in a private network
# namespace with a port swp1 (a veth):
#   - class class-default in a qos policy-map applies;
#   - in a script, the lines indented under a refused line are refused
#     with "% skipped: under a rejected line N" and change nothing, and
#     the exit status says so; with -c too;
#   - interface Vlan7 (and the lines of its block) is ignored with a
#     note, and swp1-2 is two ports;
#   - the plan warnings a line brings are told to the session that typed
#     it, at once, and only then; a warning that stands (shares under 100)
#     is told by the line that brought it, not again in later sessions;
#   - a port profile keeps its lines for inherit port-profile: none of
#     them runs at global level, and the lines under a refused profile are
#     skipped; the script ends with its summary (accepted, ignored,
#     rejected);
#   - a pasted terminal transcript: its prompts (switch(config)#), the
#     trailing `!` comments of its lines, network-qos class-maps written
#     match-any as NX-OS's show class-map prints them, and banners of
#     every delimiter (`^C` too) whose body would otherwise run as
#     configuration;
#   - a save and a restart give back what was typed: channel-group
#     membership and its mode, the port-channel's block, N3K/N5K queuing
#     class-maps and the class names of the queuing policy.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
t_init rocesh_paste
t_need_root
tmp=$t_tmp
pid=""
fail() {
	echo "FAIL: $*"
	for f in out err run; do
		echo "--- $f"
		cat "$tmp/$f" 2>/dev/null
	done
	echo "--- roced log"
	cat "$tmp/log" 2>/dev/null
	exit 1
}
sh_ns() { "$IP" netns exec "$ns" "$rocesh" "$@"; }
# A script on stdin: its status, output in $tmp/out and $tmp/err.
paste() {
	st=0
	sh_ns >"$tmp/out" 2>"$tmp/err" || st=$?
}
running() { sh_ns -c 'show running-config' >"$tmp/run" || fail "show running-config"; }

t_netns_add ns paste
"$IP" -n "$ns" link add swp1 type veth peer name host1
"$IP" -n "$ns" link set swp1 up
cp "$top_srcdir/conf/roced.conf" "$tmp/roced.conf"
# Not through a function: the pid must be roced itself (ip netns exec execs it).
t_spawn "$IP" netns exec "$ns" "$roced" --caps host -f "$tmp/roced.conf" >"$tmp/log" 2>&1
pid=$t_pid
for _ in $(seq 100); do
	sh_ns -c 'show running-config' >/dev/null 2>&1 && break
	sleep 0.05
done
sh_ns -c 'show running-config' >/dev/null || fail "roced does not answer"

# --- class-default applies ---
paste <<'EOF'
policy-map type qos ROCE_POLICY
  class class-default
    set qos-group 0
EOF
[ "$st" = 0 ] || fail "class class-default: exit status $st"
grep -q . "$tmp/err" && grep -v '^% Warning: ' "$tmp/err" |
	grep -vx '% 3 accepted, 0 ignored: not QoS, 0 rejected' | grep -q . &&
	fail "class class-default printed errors"
# one cls_bpf program on this kernel: class-default's return (4791:10,
# 1200685072) comes before the final -1
"$IP" netns exec "$ns" "$TC" filter show dev swp1 parent 4791: |
	grep -q "protocol all pref 4791 bpf .*,6 0 0 1200685072,6 0 0 4294967295'" ||
	fail "no match-all rule on swp1"
echo "ok: class class-default applies"

# --- a refused line takes the lines under it along ---
paste <<'EOF'
policy-map type network-qos ROCE_NETWORK_POLICY
  class type network-qos RDMA
    mtu 2240
    pause pfc-cos 4
  class type network-qos c-8q-nq-default
    mtu 9000
interface Ethernet1/9
  priority-flow-control mode off
    service-policy type qos input ROCE_POLICY
interface swp1
  priority-flow-control mode auto
EOF
[ "$st" = 1 ] || fail "a script with refused lines: exit status $st, not 1"
grep -q '^stdin:2: ' "$tmp/err" || fail "line 2 is not refused"
for n in 3 4; do
	grep -qx "stdin:$n: % skipped: under a rejected line 2" "$tmp/err" ||
		fail "line $n is not skipped under line 2"
done
for n in 8 9; do
	grep -qx "stdin:$n: % skipped: under a rejected line 7" "$tmp/err" ||
		fail "line $n is not skipped under line 7"
done
[ "$(grep -c skipped "$tmp/err")" = 4 ] || fail "other lines skipped"
running
# the lines back at the refused line's indentation ran
grep -A1 'class type network-qos c-8q-nq-default' "$tmp/run" | grep -q 'mtu 9000' ||
	fail "the class after the refused one was not configured"
grep -A3 'class type network-qos ROCE_NETWORK_CLASS' "$tmp/run" | grep -q 'mtu 9216' ||
	fail "mtu 2240 landed on the class before the refused one"
grep -q 'pause pfc-cos 4' "$tmp/run" && fail "pause pfc-cos 4 landed somewhere"
grep -A2 '^interface Ethernet1/1$' "$tmp/run" | grep -q 'mode on' &&
	fail "swp1 kept mode on"
echo "ok: lines under a refused line are skipped, the rest runs"

# -c: the blank after ';' does not indent; a deeper one does
st=0
sh_ns -c 'conf t ; policy-map type network-qos ROCE_NETWORK_POLICY ; class type network-qos NOPE ;  mtu 1500' \
	>"$tmp/out" 2>"$tmp/err" || st=$?
[ "$st" = 1 ] || fail "-c: exit status $st"
grep -qx -- '-c:4: % skipped: under a rejected line 3' "$tmp/err" ||
	fail "-c: the indented line is not skipped"
grep -c skipped "$tmp/err" | grep -qx 1 || fail "-c: other lines skipped"
echo "ok: -c"

# --- interfaces that are not QoS ports, and ranges ---
"$IP" -n "$ns" link add swp2 type veth peer name host2
"$IP" -n "$ns" link set swp2 up
paste <<'EOF'
interface Vlan7
  service-policy type qos input ROCE_POLICY
  priority-flow-control mode on
interface port-channel1.100
  priority-flow-control mode on
interface port-channel1
  priority-flow-control mode on
interface swp1-2
  channel-group 1 mode active
  service-policy type queuing output ROCE_QUEUING_OUT
EOF
[ "$st" = 0 ] || fail "interfaces: exit status $st"
[ "$(grep -c '^% ignored: interface Vlan7 is not a QoS port$' "$tmp/err")" = 1 ] ||
	fail "Vlan7: not one note"
grep -qx '% ignored: interface port-channel1.100 is not a QoS port' "$tmp/err" ||
	fail "port-channel1.100: no note"
grep -q 'interface port-channel1 is not' "$tmp/err" && fail "port-channel1 ignored"
running
grep -qi 'vlan7\|port-channel1\.' "$tmp/run" && fail "a block for a non-port"
grep -q '^interface swp2$' "$tmp/run" || fail "swp1-2 did not create swp2"
sed -n '/^interface swp2$/,/^[^ ]/p' "$tmp/run" | grep -q '^  priority-flow-control mode on$' ||
	fail "swp2 did not take port-channel1's PFC mode"
# the port-channel's block and the membership are kept as typed
awk '/^interface port-channel1$/ {p=1; next} /^[^ ]/ {p=0} p' "$tmp/run" |
	grep -qx '  priority-flow-control mode on' ||
	fail "running-config lacks port-channel1's block"
for d in Ethernet1/1 swp2; do
	# (swp1 is Ethernet1/1 in the shipped roced.conf)
	awk -v d="interface $d" '$0 == d {p=1; next} /^[^ ]/ {p=0} p' "$tmp/run" |
		grep -qx '  channel-group 1 mode active' ||
		fail "$d: running-config lacks 'channel-group 1 mode active'"
done
"$IP" netns exec "$ns" "$TC" qdisc show dev swp2 | grep -q 'htb 4791:' ||
	fail "swp2 not programmed"
echo "ok: Vlan7 ignored, port-channel1's PFC on its members, swp1-2 is two ports"

# --- the warnings a line brings, at once ---
paste <<'EOF'
class-map type qos match-any COS_ONLY
  match cos 5
policy-map type qos P5
  class COS_ONLY
    set qos-group 5
interface swp2
  service-policy type qos input P5
  priority-flow-control mode on
EOF
[ "$st" = 0 ] || fail "warnings: exit status $st"
# (a cos-only class is realised on this kernel too, by cls_bpf: what is
# told is that it classifies on egress)
w='% Warning: swp2: qos input policy P5 is realised as egress classification on this port (one cls_bpf program choosing the queue): the kernel lacks act_skbedit/cls_flower to classify where packets enter'
[ "$(grep -cxF "$w" "$tmp/err")" = 1 ] || fail "the new plan warning is not told once"
grep -q 'gets no filter' "$tmp/err" && fail "the cos-only class is not realised"
grep -q 'swp1' "$tmp/err" && fail "warnings about a port the change did not touch"
# what was told is not told again
sh_ns -c 'conf t ; interface swp2 ; priority-flow-control mode auto' \
	>"$tmp/out" 2>"$tmp/err" || fail "a later line failed"
grep -q COS_ONLY "$tmp/err" && fail "an old warning told again"
echo "ok: a line's new plan warnings are told at once"

# --- a warning that stands is told once, not in every session ---
# (shares under 100 stand while a policy is being typed)
sh_ns -c 'conf t ; policy-map type queuing HALF ; class type queuing c-out-8q-q3 ; bandwidth remaining percent 30' \
	>"$tmp/out" 2>"$tmp/err" || fail "the first share failed"
w='% Warning: bandwidth remaining percent of policy-map HALF adds up to 30 so far, expected 100'
[ "$(grep -cF "adds up to 30 so far" "$tmp/err")" = 1 ] ||
	fail "the standing warning is not told by the line that brought it"
grep -qF "$w" "$tmp/err" || fail "the warning does not read '$w'"
for s in 1 2; do
	sh_ns -c 'conf t ; interface swp1 ; description session '"$s" \
		>"$tmp/out" 2>"$tmp/err" || fail "session $s failed"
	grep -q HALF "$tmp/err" && fail "session $s was told the standing warning again"
done
# A change to what it says is told: the new sum.
sh_ns -c 'conf t ; policy-map type queuing HALF ; class type queuing c-out-8q-q3 ; bandwidth remaining percent 40' \
	>"$tmp/out" 2>"$tmp/err" || fail "the second share failed"
grep -qF "adds up to 40 so far" "$tmp/err" || fail "the changed warning was not told"
sh_ns -c 'conf t ; no policy-map type queuing HALF ; interface swp1 ; no description' \
	>"$tmp/out" 2>"$tmp/err" || fail "cannot remove HALF"
echo "ok: a standing warning is told once, by the change that brought it"

# --- port profiles: their lines reach the interfaces, never global mode ---
paste <<'EOF'
no priority-flow-control watch-dog-interval
port-profile type ethernet RDMA-PORT
  priority-flow-control mode on
  priority-flow-control watch-dog-interval on
  state enabled
port-profile type port-channel PC-PROF
  priority-flow-control watch-dog-interval on
interface swp2
  inherit port-profile RDMA-PORT
hostname leaf1
EOF
[ "$st" = 1 ] || fail "port profiles: exit status $st, not 1"
grep -q '^stdin:6: port-profile type port-channel PC-PROF$' "$tmp/err" ||
	fail "the port-channel profile is not refused"
grep -qx 'stdin:7: % skipped: under a rejected line 6' "$tmp/err" ||
	fail "the line under the refused profile is not skipped"
grep -qx '% 7 accepted, 1 ignored: not QoS (system), 2 rejected (1 of them under a rejected line)' "$tmp/err" ||
	fail "no paste summary: $(tail -1 "$tmp/err")"
running
grep -q '^priority-flow-control watch-dog-interval on' "$tmp/run" &&
	fail "a profile's watch-dog line turned the global watchdog on"
awk '/^interface swp2$/ {p=1; next} /^[^ ]/ {p=0} p' "$tmp/run" >"$tmp/blk"
grep -qx '  priority-flow-control mode on' "$tmp/blk" &&
	grep -qx '  priority-flow-control watch-dog-interval on' "$tmp/blk" ||
	fail "swp2 did not inherit the profile: $(cat "$tmp/blk")"
echo "ok: port profiles reach their interfaces only; the paste summary"

# --- a pasted terminal transcript: prompts, trailing comments, banners ---
paste <<'EOF'
switch# configure terminal
switch(config)# banner motd ^C
no system qos
interface swp1
  priority-flow-control mode off
^C
switch(config)# banner exec #one line#
switch(config)# banner login $
no policy-map type network-qos ROCE_NETWORK_POLICY
$
switch(config)# class-map type network-qos match-any NQ-PASTE
switch(config-cmap-nqos)#   match qos-group 5  ! lossless class
switch(config-cmap-nqos)# policy-map type network-qos PASTE-NQ
switch(config-pmap-nqos)# class type network-qos NQ-PASTE
switch(config-pmap-nqos-c)# pause pfc-cos 5  ! lossless class
switch(config-pmap-nqos-c)# mtu 9216 !jumbo
switch(config-pmap-nqos-c)# end
switch#
EOF
[ "$st" = 0 ] || fail "transcript paste: exit status $st"
grep -v '^% Warning: ' "$tmp/err" | grep -v '^% [0-9]* accepted' | grep -q . &&
	fail "transcript paste printed errors"
running
grep -qx 'class-map type network-qos NQ-PASTE' "$tmp/run" &&
	grep -qx '  match qos-group 5' "$tmp/run" ||
	fail "the match-any network-qos class-map is not there"
awk '/^policy-map type network-qos PASTE-NQ$/ {p=1; next} /^[^ ]/ {p=0} p' \
	"$tmp/run" >"$tmp/blk"
grep -qx '    pause pfc-cos 5' "$tmp/blk" && grep -qx '    mtu 9216' "$tmp/blk" ||
	fail "PASTE-NQ lost its commented lines: $(cat "$tmp/blk")"
# the banners' bodies did not run
grep -q '^system qos$' "$tmp/run" || fail "a banner's 'no system qos' ran"
grep -q '^policy-map type network-qos ROCE_NETWORK_POLICY$' "$tmp/run" ||
	fail "a banner's 'no policy-map' ran"
awk '/^interface swp1$/ {p=1; next} /^[^ ]/ {p=0} p' "$tmp/run" |
	grep -q 'priority-flow-control mode off' &&
	fail "a banner's interface line ran"
echo "ok: a pasted transcript: prompts, trailing comments, match-any, banners"

# --- warnings judged at the end of a paste, not at each line ---
# In running-config order the network-qos policy is defined before
# system qos attaches it: "no class is no-drop" holds at that line and
# no longer at the end, so it is not told; a warning that still stands
# at the end (shares under 100) is told once.
paste <<'EOF'
class-map type network-qos NQ-END
  match qos-group 4
policy-map type network-qos END-NQ
  class type network-qos NQ-END
    pause pfc-cos 4
    mtu 9216
policy-map type queuing END-QU
  class type queuing c-out-8q-q4
    bandwidth remaining percent 40
system qos
  service-policy type network-qos END-NQ
EOF
[ "$st" = 0 ] || fail "end-judged paste: exit status $st"
grep -q 'no class is no-drop' "$tmp/err" &&
	fail "a warning that no longer stands at the end was told"
[ "$(grep -c 'policy-map END-QU adds up to 40' "$tmp/err")" = 1 ] ||
	fail "the standing warning is not told once"
echo "ok: a paste's warnings are judged at its end"

# --- what was typed survives a save and a restart, as typed ---
# channel-group membership with its mode, the port-channel's block, and
# N3K/N5K queuing class-maps with the names the policy's classes were
# typed with: copy running-config startup-config, roced stopped and
# started again from that file, gives the same running-config.
paste <<'EOF'
class-map type queuing RDMA-Q
  match qos-group 3
policy-map type queuing N5K-OUT
  class type queuing RDMA-Q
    bandwidth percent 50
  class type queuing class-default
    bandwidth percent 50
interface port-channel7
  priority-flow-control mode on
interface swp2
  channel-group 7
EOF
[ "$st" = 0 ] || fail "save: the paste: exit status $st"
running
cp "$tmp/run" "$tmp/run1"
grep -qx '  class type queuing RDMA-Q' "$tmp/run1" &&
	grep -qx '  class type queuing class-default' "$tmp/run1" ||
	fail "the queuing classes are not written by their names"
grep -qx 'class-map type queuing RDMA-Q' "$tmp/run1" ||
	fail "running-config lacks class-map type queuing RDMA-Q"
sh_ns -c 'copy running-config startup-config' >/dev/null 2>"$tmp/err" ||
	fail "copy running-config startup-config: $(cat "$tmp/err")"
grep -q 'channel-group = { number = 7; };' "$tmp/roced.conf" ||
	fail "roced.conf lacks swp2's channel-group"
t_stop "$pid" || :
t_spawn "$IP" netns exec "$ns" "$roced" --caps host -f "$tmp/roced.conf" >"$tmp/log" 2>&1
pid=$t_pid
for _ in $(seq 100); do
	sh_ns -c 'show running-config' >/dev/null 2>&1 && break
	sleep 0.05
done
running
cmp -s "$tmp/run1" "$tmp/run" ||
	fail "running-config differs after a save and a restart: $(diff "$tmp/run1" "$tmp/run")"
# and pasted back into the restarted roced it changes nothing
sh_ns <"$tmp/run1" >/dev/null 2>"$tmp/err" || fail "running-config does not paste back: $(cat "$tmp/err")"
running
cmp -s "$tmp/run1" "$tmp/run" ||
	fail "running-config changed when pasted back: $(diff "$tmp/run1" "$tmp/run")"
echo "ok: channel-group, port-channel blocks and queuing class names survive a save and a restart"
