#!/bin/sh
# pfcwd_restart: the PFC watchdog's storm state survives a restart of
# roced, and a recovered queue is not kept shut (sonic-swss#4667). On a
# veth rig (roced on swp1, the shipped policy with auto-restore off, so
# that only a hand restores):
#   - a storm shuts queue 3; the state file is in /run/roced;
#   - roced stops and starts again: its first apply keeps queue 3 shut
#     (a fifo of 0 bytes), and it says so once;
#   - `priority-flow-control recover interface swp1 qos-group 3`
#     restores it (a released tbf again), the log says by hand, and the
#     state file goes;
#   - roced restarts once more: queue 3 is not shut;
#   - show queuing pfc-queue json counts the storm, and `clear queuing
#     pfc-queue` sets the counts back to 0.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/integration/lib.sh"
t_init pfcwd_restart
t_need_root
storm="$top_builddir/tests/tools/pfc_storm"
[ -x "$storm" ] || t_fail "test tools not built (make check builds them)"

t_netns_add sw pfcwdr
t_netns_add peer pfcwdr-peer
$IP link add swp1 netns "$sw" type veth peer name h1 netns "$peer"
$IP -n "$sw" link set swp1 up
$IP -n "$peer" link set h1 up
t_conf_ports "$t_tmp/roced.conf" swp1
# its DSCP 26 traffic is untagged: the class must match on DSCP alone
t_conf_match_any "$t_tmp/roced.conf"
sed -i 's/auto-restore-multiplier = 10;/auto-restore-multiplier = 0;/' "$t_tmp/roced.conf"
grep -q 'auto-restore-multiplier = 0;' "$t_tmp/roced.conf" ||
	t_fail "the shipped roced.conf no longer sets auto-restore-multiplier"
state="/run/roced/roced.$(stat -L -c %i "/run/netns/$sw").pfcwd"
leaf() { $TC -n "$sw" qdisc show dev swp1 | grep 'qdisc [a-z]* 4713:' || true; }
sh_() { $IP netns exec "$sw" "$rocesh" "$@"; }
wait_log()
{
	for _ in $(seq $(($2 * 20))); do
		grep -q -- "$1" "$t_tmp/log" && return 0
		sleep 0.05
	done
	return 1
}

t_roced_start "$sw" "$t_tmp/roced.conf" 'mirroring' -D watchdog
# A queue holds something only with traffic: a few DSCP 26 datagrams
# wait behind the hold.
traffic="$top_builddir/tests/tools/traffic"
$IP -n "$sw" addr add 10.79.0.1/24 dev swp1
$IP -n "$peer" addr add 10.79.0.2/24 dev h1
t_spawn $IP netns exec "$peer" "$storm" -i h1 -p 3 -q 65535 -r 2000 -t 8
st=$t_pid
sleep 0.3
$IP netns exec "$sw" "$traffic" send 10.79.0.2 -T 0x68 -r 500 -n 200 -t 3 >/dev/null ||
	t_fail "the DSCP 26 sender failed"
wait_log 'PFC storm on qos-group 3' 6 || t_fail "no storm detected"
case $(leaf) in *"bfifo 4713:"*"limit 0b"*) ;; *) t_fail "queue 3 not shut: $(leaf)" ;; esac
[ -s "$state" ] || t_fail "no watchdog state in $state"
echo "ok: storm, queue 3 shut, state kept in $state"
t_wait "$st" || t_fail "the storm injector failed"

# --- restart during the storm's aftermath: still shut ---
t_roced_stop
mv "$t_tmp/log" "$t_tmp/log.1"
t_roced_start "$sw" "$t_tmp/roced.conf" 'mirroring' -D watchdog
grep -q 'PFC watchdog: 1 queue in storm' "$t_tmp/log" ||
	t_fail "the restarted roced did not load the storm"
case $(leaf) in *"bfifo 4713:"*"limit 0b"*) ;; *) t_fail "queue 3 not shut after the restart: $(leaf)" ;; esac
grep -q 'tbf' "$t_tmp/log" && t_fail "the restart touched queue 3's leaf"
echo "ok: restarted, queue 3 still shut"
sh_ -c 'show queuing pfc-queue interface swp1 json' >"$t_tmp/show.json"
python3 - "$t_tmp/show.json" <<'PY' || t_fail "show queuing pfc-queue: $(cat "$t_tmp/show.json")"
import json, sys
d = json.load(open(sys.argv[1]))
q = d["interface"][0]["queues"][0]
assert q["qos-group"] == 3 and q["state"] == "shutdown" and q["storms"] == 1, q
PY

# --- recover by hand ---
sh_ -c 'priority-flow-control recover interface swp1 qos-group 3' >"$t_tmp/out" 2>&1 ||
	t_fail "recover failed: $(cat "$t_tmp/out")"
wait_log 'queue restored (by hand)' 5 || t_fail "no restore logged"
for _ in $(seq 100); do
	case $(leaf) in *"tbf 4713:"*) break ;; esac
	sleep 0.05
done
case $(leaf) in *"tbf 4713:"*"rate 40Gbit"*) ;; *) t_fail "queue 3 not restored: $(leaf)" ;; esac
[ ! -e "$state" ] || t_fail "$state left after the recover"
sh_ -c 'priority-flow-control recover interface swp1 qos-group 3' >"$t_tmp/out" 2>&1 &&
	t_fail "a second recover was accepted"
grep -q 'is not shut' "$t_tmp/out" || t_fail "a second recover: $(cat "$t_tmp/out")"
echo "ok: recovered by hand; a second recover is refused"
sh_ -c 'show queuing pfc-queue json' >"$t_tmp/show.json"
python3 - "$t_tmp/show.json" <<'PY' || t_fail "show after recover: $(cat "$t_tmp/show.json")"
import json, sys
q = json.load(open(sys.argv[1]))["interface"][0]["queues"][0]
assert q["storms"] == 1 and q["restores"] == 1 and q["state"] == "monitored", q
# one storm: its own counts are the totals
assert q["storm-drained-packets"] == q["drained-packets"], q
assert q["storm-dropped-packets"] == q["dropped-packets"], q
PY
# NX-OS's box, its labels and the storm counted
sh_ -c 'show queuing pfc-queue interface swp1 detail' >"$t_tmp/show.txt"
grep -qxF '| QOS GROUP 3 [Active] PFC [YES] PFC-COS [3]' "$t_tmp/show.txt" &&
	grep -qxF '|                       Shutdown|                   1|' "$t_tmp/show.txt" &&
	grep -qxF '|                       Restored|                   1|' "$t_tmp/show.txt" ||
	t_fail "pfc-queue detail: $(cat "$t_tmp/show.txt")"
sh_ -c 'clear queuing pfc-queue interface swp1' >"$t_tmp/out" 2>&1 || t_fail "clear failed: $(cat "$t_tmp/out")"
sh_ -c 'show queuing pfc-queue json' >"$t_tmp/show.json"
python3 - "$t_tmp/show.json" <<'PY' || t_fail "show after clear: $(cat "$t_tmp/show.json")"
import json, sys
q = json.load(open(sys.argv[1]))["interface"][0]["queues"][0]
assert q["storms"] == 0 and q["restores"] == 0, q
PY
echo "ok: clear queuing pfc-queue"

# --- restart after the recovery: not shut ---
t_roced_stop
mv "$t_tmp/log" "$t_tmp/log.2"
t_roced_start "$sw" "$t_tmp/roced.conf" 'mirroring' -D watchdog
grep -q 'in storm' "$t_tmp/log" && t_fail "a recovered queue came back as a storm"
case $(leaf) in *"tbf 4713:"*"rate 40Gbit"*) ;; *) t_fail "queue 3 after the last restart: $(leaf)" ;; esac
t_roced_stop
echo "pfcwd_restart: ok"
