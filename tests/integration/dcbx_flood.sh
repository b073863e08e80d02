#!/bin/sh
# dcbx_flood: a flood of malformed LLDPDUs does not take roced down.
# 10,000 malformed LLDPDUs per second for 10 s reach a port
# roced runs LLDP on (tests/tools/lldp_flood.py); meanwhile roced is asked
# `show lldp traffic` on its control socket every 100 ms and answers
# every time (an answer that does not come within 30 s fails the tool);
# afterwards every frame is counted as malformed (and received), none is
# kept as a neighbour, and roced's resident set has not grown with the
# flood: from 2 s into the flood to its end (8 s, 80,000 frames), it
# grows by less than 256 kB (3 bytes a frame: no allocation per frame is
# kept; the first seconds fill buffers and the allocator's caches once).
#
# How fast the answers come is printed (median, max, how many took over
# 100 ms), not asserted: on a shared machine a stall of the whole machine
# delays an answer whatever roced does, so times belong in bench/. In a
# sanitizer build, ASan's quarantine keeps freed memory out of reuse, so
# that the resident set would grow with any malloc/free pair: this roced
# runs without it, so the resident set says what is really kept.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
t_init dcbx_flood
t_need_root
[ -x "$rocesh" ] || t_skip "rocesh is not built"
tmp=$t_tmp
t_veth_ns ns dcbxfl eth0 fl0
in_ns() { "$IP" netns exec "$ns" "$@"; }
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0:thread_local_quarantine_size_kb=0"
export ASAN_OPTIONS
t_roced_start "$ns" "$top_srcdir/tests/fixtures/dcbx/host.conf" \
	"mirroring roced's tc objects"
sock=$(sed -n 's/.*control socket \([^ ]*\)$/\1/p' "$t_tmp/log" | head -1)
[ -S "$sock" ] || t_fail "no control socket in the log"
t_run "$IP" netns exec "$ns" python3 "$top_srcdir/tests/tools/lldp_flood.py" \
	fl0 10000 10 "$sock" "$roced_pid" >"$tmp/flood.json" ||
	t_fail "the flood failed"
cat "$tmp/flood.json"
in_ns "$rocesh" -c 'show lldp traffic interface eth0 json' >"$tmp/traffic.json"
in_ns "$rocesh" -c 'show lldp neighbors json' >"$tmp/nbr.json"
t_show_on_fail "show lldp traffic" "$tmp/traffic.json"
python3 - "$tmp/flood.json" "$tmp/traffic.json" "$tmp/nbr.json" <<'PY' || t_fail "the flood was not survived as it should be"
import json, sys
fl = json.load(open(sys.argv[1]))
c = json.load(open(sys.argv[2]))['interfaces'][0]
nbr = json.load(open(sys.argv[3]))['neighbors']
assert fl['sent'] >= 95000, fl
assert c['malformed'] == fl['sent'], (c, fl)
assert c['frames-in'] == fl['sent'], (c, fl)
assert not nbr, nbr
assert fl['answers'] >= 2, fl
assert fl['rss_kb_after'] - fl['rss_kb_warm'] < 256, fl
PY
python3 -c 'import json, sys; f = json.load(open(sys.argv[1])); print("control answers during the flood: %d, median %.1f ms, max %.1f ms, %d over 100 ms (not asserted)" % (f["answers"], f["answer_ms_median"], f["answer_ms_max"], f["answers_over_100ms"]))' "$tmp/flood.json"
echo "ok: dcbx_flood"
