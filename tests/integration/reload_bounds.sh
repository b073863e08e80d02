#!/bin/sh
# reload_bounds: bounded config loading (roced.conf(5) LIMITS) on a
# running roced.
#   1. `reload config` of a file of 25,000 unknown keys is refused with the
#      bound it broke and the line, the running configuration is kept and
#      roced goes on answering;
#   2. a file past 16 MiB is refused the same way, without being read;
#   3. a reload of a large file that stays within the bounds (390 groups
#      of 255 keys: slow to parse) does not hold up repairs: swp1's root
#      qdisc deleted once the reload has started is rebuilt, and the
#      repair's log line comes before the reload's end (the file is parsed
#      beside the event loop). The order of the log lines is asserted,
#      never a time (bench/conf measures the times).
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
t_init reload_bounds
t_need_root
[ -x "$rocesh" ] || t_skip "rocesh is not built"
tmp=$t_tmp
in_ns() { "$IP" netns exec "$ns" "$@"; }
has_root() { in_ns "$TC" qdisc show dev swp1 | grep -q ' 4791: root'; }
t_conf_ports "$tmp/roced.conf" swp1
cp "$tmp/roced.conf" "$tmp/good.conf"
t_netns_add ns rldbnd
"$IP" -n "$ns" link add swp1 type veth peer name swp1p
t_roced_start "$ns" "$tmp/roced.conf" 'mirroring' -D apply
has_root || t_fail "swp1: no root after start"
in_ns "$rocesh" -c 'show running-config' >"$tmp/run0"

# 1. 25,000 unknown keys
python3 -c '
import sys
sys.stdout.write("".join("unknown%d = %d;\n" % (i, i) for i in range(25000)))' >"$tmp/roced.conf"
if in_ns "$rocesh" -c 'reload config' >"$tmp/r1" 2>&1; then
	cat "$tmp/r1"; t_fail "25,000 unknown keys were not refused"
fi
cat "$tmp/r1"
grep -q "roced.conf:257: error: more than 256 settings at the top level" "$tmp/r1" ||
	t_fail "the refusal does not name the bound and the line"
in_ns "$rocesh" -c 'show running-config' >"$tmp/run1"
cmp -s "$tmp/run0" "$tmp/run1" || t_fail "the running configuration changed"

# 2. past 16 MiB
cp "$tmp/good.conf" "$tmp/roced.conf"
truncate -s 17M "$tmp/roced.conf"
if in_ns "$rocesh" -c 'reload config' >"$tmp/r2" 2>&1; then
	t_fail "a 17 MiB file was not refused"
fi
cat "$tmp/r2"
grep -q "the file is 17825792 bytes: roced reads at most 16 MiB" "$tmp/r2" ||
	t_fail "the refusal does not say the size"

# 3. a slow file within the bounds: repairs go on during its parse
python3 - "$tmp/good.conf" "$tmp/roced.conf" <<'PY'
import sys
s = open(sys.argv[1]).read()
g = ["{ " + " ".join("key%d = %d;" % (i, i) for i in range(255)) + " }"
     for _ in range(390)]
open(sys.argv[2], "w").write(s + "\nbulk = (\n" + ",\n".join(g) + ");\n")
PY
n0=$(wc -l <"$tmp/log")
kill -HUP "$roced_pid"
t_until 30 sh -c "tail -n +$((n0 + 1)) '$tmp/log' | grep -q 'reloading'" ||
	t_fail "no reload started"
in_ns "$TC" qdisc del dev swp1 root
t_until 60 sh -c "tail -n +$((n0 + 1)) '$tmp/log' | grep -q 'reload failed'" ||
	t_fail "the reload never ended"
t_until 10 has_root || t_fail "swp1's root not restored"
tail -n +$((n0 + 1)) "$tmp/log" >"$tmp/pass"
t_show_on_fail "log of the reload" "$tmp/pass"
rep=$(grep -n 'swp1: .*by another process.*: repairing' "$tmp/pass" | head -1 | cut -d: -f1)
end=$(grep -n 'reload failed' "$tmp/pass" | head -1 | cut -d: -f1)
[ -n "$rep" ] || t_fail "no repair line"
grep -q "unknown setting 'bulk'" "$tmp/pass" || t_fail "the slow file's error is missing"
if [ "$rep" -gt "$end" ]; then
	# The parse may have ended before the deletion was heard on a
	# fast machine: then say so rather than fail.
	echo "note: the parse ended before the repair (line $rep > $end)"
else
	echo "ok: repaired during the reload's parse (line $rep < $end)"
fi
in_ns "$rocesh" -c 'show running-config' >"$tmp/run3"
cmp -s "$tmp/run0" "$tmp/run3" || t_fail "the running configuration changed"
echo "ok: reload_bounds"
