#!/bin/sh
# pfcwd_hw: the PFC watchdog and the PFC shows on a hardware DCB port,
# end to end through the daemon. This machine has no DCB NIC, so roced
# runs with the LD_PRELOAD shim tests/tools/fake_dcbnl.c, which answers
# its dcbnl requests on a veth as a DCB NIC's driver would and plays the
# driver's PFC counters from a file (FAKE_DCBNL_COUNTERS):
#   - the probe finds dcbnl on swp1: it is planned and programmed as a
#     hardware port (PFC on priority 3 set through dcbnl);
#   - `show interface priority-flow-control [detail] [json]` gives the
#     driver's counters (RxPPP/TxPPP, per priority, source dcbnl) as the
#     file says, and n/a for what the driver does not count;
#   - the watchdog watches queue 3 with the port's counters ("counters":
#     "hardware", no error), and the pause frames the driver counts
#     (with the queue draining) raise no storm.
# The storm -> PFC off -> restore sequence on a hardware port, with the
# queue's counters faked too, is tests/daemon/test_hwcnt.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/integration/lib.sh"
t_init pfcwd_hw
t_need_root
if [ ! -x "$rocesh" ]; then
	echo "SKIP: rocesh is not built"
	exit 77
fi
shim=$top_builddir/tests/tools/fake_dcbnl.so
[ -f "$shim" ] || t_fail "tests/tools/fake_dcbnl.so is not built (make check builds it)"

t_veth_link sw pfcwdhw swp1 peer pfcwdhw-peer h1
t_conf_ports "$t_tmp/roced.conf" swp1
sh_() { $IP netns exec "$sw" "$rocesh" "$@"; }
counters=$t_tmp/counters
echo "swp1 3 1000 20" >"$counters"

# The shim goes into roced (and the ip that execs it, harmlessly). An
# instrumented roced must not refuse a library preloaded before its
# sanitizer runtime.
LD_PRELOAD=$shim FAKE_DCBNL_COUNTERS=$counters FAKE_DCBNL_LOG=$t_tmp/shim.log \
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 \
	t_roced_start "$sw" "$t_tmp/roced.conf" 'mirroring' -D watchdog
t_show_on_fail "shim log" "$t_tmp/shim.log"
grep -q 'swp1: PFC enable 0x08' "$t_tmp/shim.log" ||
	t_fail "roced did not set PFC on priority 3 through dcbnl"

sh_ -c 'show interface priority-flow-control | json' >"$t_tmp/pfc.json" ||
	t_fail "show interface priority-flow-control json: $(cat "$t_tmp/pfc.json")"
python3 - "$t_tmp/pfc.json" <<'PY' || t_fail "pfc json: $(cat "$t_tmp/pfc.json")"
import json, sys
d = json.load(open(sys.argv[1]))
p = [i for i in d["interface"] if i["name"] == "swp1"][0]
assert p["dcb"] == "hardware", p
assert p["state"] == "programmed", p
assert p["oper"] == "on" and p["priorities"] == [3], p
assert p["rx-pause"] == 1000 and p["tx-pause"] == 20, p
assert p["counters"] == "dcbnl", p
q3 = p["priority"][3]
assert q3["rx-pause"] == 1000 and q3["tx-pause"] == 20, q3
assert q3["rx-xon"] is None and q3["paused-ms"] is None and q3["paused"] is None, q3
assert "hardware ports" in d["note"], d["note"]
PY
sh_ -c 'show interface priority-flow-control detail' >"$t_tmp/pfc.txt" ||
	t_fail "show interface priority-flow-control detail: $(cat "$t_tmp/pfc.txt")"
grep -Eq '^Ethernet1/1 +On +On +\(8\) +1000 +20$' "$t_tmp/pfc.txt" ||
	t_fail "the port's row: $(cat "$t_tmp/pfc.txt")"
grep -q '(counters: dcbnl)' "$t_tmp/pfc.txt" || t_fail "no counter source: $(cat "$t_tmp/pfc.txt")"
grep -Eq '^  3 +1000 +n/a +20 +n/a +n/a +n/a$' "$t_tmp/pfc.txt" ||
	t_fail "priority 3's counters: $(cat "$t_tmp/pfc.txt")"
echo "ok: swp1 is a hardware port; its driver's counters are shown"

# The counters move: pause frames come while the queue has nothing
# queued. The watchdog reads them every poll and sees no storm.
for n in 2000 3000 4000 5000 6000; do
	echo "swp1 3 $n 20" >"$counters"
	sleep 0.2
done
sh_ -c 'show queuing pfc-queue interface swp1 json' >"$t_tmp/wd.json" ||
	t_fail "show queuing pfc-queue json: $(cat "$t_tmp/wd.json")"
python3 - "$t_tmp/wd.json" <<'PY' || t_fail "pfc-queue json: $(cat "$t_tmp/wd.json")"
import json, sys
d = json.load(open(sys.argv[1]))
p = d["interface"][0]
assert p["counters"] == "hardware" and "counters-error" not in p, p
q = p["queues"][0]
assert q["qos-group"] == 3 and q["state"] == "monitored" and q["storms"] == 0, q
assert d["note"] == "", d["note"]
PY
grep -q 'cannot read the port' "$t_tmp/log" && t_fail "the watchdog could not read the counters"
grep -q 'PFC storm' "$t_tmp/log" && t_fail "a storm without a stuck queue"
sh_ -c 'show interface priority-flow-control | json' >"$t_tmp/pfc.json"
python3 - "$t_tmp/pfc.json" <<'PY' || t_fail "pfc json after: $(cat "$t_tmp/pfc.json")"
import json, sys
p = json.load(open(sys.argv[1]))["interface"][0]
assert p["rx-pause"] == 6000, p
PY
echo "ok: the watchdog watches queue 3 with the driver's counters, no false storm"
t_roced_stop
echo "pfcwd_hw: ok"
