#!/bin/sh
# reload_dryrun: what a reload would change, asked of a running roced,
# and what a reload wrote.
#   - `reload config dry-run` of an unchanged file: no port's plan would
#     change;
#   - a dry run of a candidate file beside the configuration file (ETS
#     50/50 -> 60/40, over the control socket) says plan-changed, names
#     the port and the class lines that differ (- running, + candidate),
#     and changes nothing: tc classes, running configuration, roced's
#     kernel writes (ping's "writes");
#   - a candidate roced refuses is refused with its FILE:LINE; one outside
#     the configuration file's directory is not read; "file" without
#     "dry-run" is refused;
#   - the reload itself says how many kernel writes it made (more than
#     0), ping's count grows by as many, and a reload of the same file
#     again writes 0.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
t_init reload_dryrun
t_need_root
[ -x "$rocesh" ] || t_skip "rocesh is not built"
tmp=$t_tmp
ctl="$top_srcdir/tests/integration/ctl_client.py"
fix=$top_srcdir/tests/fixtures/dcbx

t_veth_ns ns rdry swp1 peer1
mkdir -p "$tmp/etc" "$tmp/other"
cp "$fix/switch.conf" "$tmp/etc/roced.conf"
t_roced_start "$ns" "$tmp/etc/roced.conf" "mirroring roced's tc objects"

in_ns() { "$IP" netns exec "$ns" "$@"; }
send() { in_ns python3 "$ctl" send "$1"; }
# jget JSON-LINE EXPR: EXPR of the reply r, printed
jget() { printf '%s\n' "$1" | python3 -c "import json,sys; r=json.loads(sys.stdin.readline()); print($2)"; }
writes() { jget "$(send '{"cmd":"ping"}')" 'r["writes"]'; }
state() { # what must not change: roced's classes and running config
	in_ns "$TC" class show dev swp1 | sort
	in_ns "$rocesh" -c 'show running-config'
}

state >"$tmp/state.0"
w0=$(writes)

# --- an unchanged file ---
in_ns "$rocesh" -c 'reload config dry-run' >"$tmp/out" 2>&1 ||
	{ cat "$tmp/out"; t_fail "reload config dry-run failed"; }
grep -q "would change no port's plan" "$tmp/out" ||
	{ cat "$tmp/out"; t_fail "an unchanged file: $(cat "$tmp/out")"; }

# --- a candidate that changes the ETS shares ---
sed -e 's/"c-out-8q-q3"; bandwidth-remaining-percent = 50;/"c-out-8q-q3"; bandwidth-remaining-percent = 60;/' \
	-e 's/"c-out-8q-q-default"; bandwidth-remaining-percent = 50;/"c-out-8q-q-default"; bandwidth-remaining-percent = 40;/' \
	"$fix/switch.conf" >"$tmp/etc/cand.conf"
grep -q 'percent = 60;' "$tmp/etc/cand.conf" || t_fail "the DCBX switch fixture changed"
r=$(send "{\"cmd\":\"reload\",\"dry-run\":true,\"file\":\"$tmp/etc/cand.conf\"}")
[ "$(jget "$r" 'r["ok"] and r["plan-changed"] and r["ports-changed"] == 1')" = True ] ||
	t_fail "the candidate's dry run: $r"
jget "$r" 'r["text"]' >"$tmp/diff"
cat "$tmp/diff"
grep -q '^--- swp1 (running)$' "$tmp/diff" || t_fail "the diff does not name swp1"
grep -q '^-class .* dev swp1 ' "$tmp/diff" || t_fail "no class line of the running plan in the diff"
grep -q '^+class .* dev swp1 ' "$tmp/diff" || t_fail "no class line of the candidate in the diff"
grep -q '^[-+]filter' "$tmp/diff" && t_fail "filters that did not change are in the diff"
[ "$(jget "$r" 'r["before"] != r["after"] and "# port swp1" in r["after"]')" = True ] ||
	t_fail "before/after: $r"
state >"$tmp/state.1"
cmp -s "$tmp/state.0" "$tmp/state.1" || t_fail "the dry run changed the kernel or the running configuration"
[ "$(writes)" = "$w0" ] || t_fail "the dry run made kernel writes"

# --- refusals ---
sed 's/queuing-output = "QUE"/queuing-output = "NOSUCH"/' "$tmp/etc/cand.conf" >"$tmp/etc/bad.conf"
line=$(grep -n NOSUCH "$tmp/etc/bad.conf" | cut -d: -f1)
r=$(send "{\"cmd\":\"reload\",\"dry-run\":true,\"file\":\"$tmp/etc/bad.conf\"}")
jget "$r" 'r["error"]' | grep -q "$tmp/etc/bad.conf:$line: error: .*NOSUCH" ||
	t_fail "a refused candidate: $r"
cp "$tmp/etc/cand.conf" "$tmp/other/cand.conf"
r=$(send "{\"cmd\":\"reload\",\"dry-run\":true,\"file\":\"$tmp/other/cand.conf\"}")
jget "$r" 'r["error"]' | grep -q 'a candidate file must be in' ||
	t_fail "a candidate outside the configuration's directory: $r"
r=$(send "{\"cmd\":\"reload\",\"file\":\"$tmp/etc/cand.conf\"}")
jget "$r" 'r["error"]' | grep -q "'file' needs 'dry-run'" || t_fail "file without dry-run: $r"
state >"$tmp/state.2"
cmp -s "$tmp/state.0" "$tmp/state.2" || t_fail "a refused dry run changed something"

# --- the reload counts its writes ---
mv "$tmp/etc/cand.conf" "$tmp/etc/roced.conf"
in_ns "$rocesh" -c 'reload config' >"$tmp/out" 2>&1 || { cat "$tmp/out"; t_fail "reload config failed"; }
cat "$tmp/out"
n=$(sed -n 's/^Reloaded .* (\([0-9]*\) kernel writes*)$/\1/p' "$tmp/out")
[ -n "$n" ] && [ "$n" -gt 0 ] || t_fail "the reload does not count its writes: $(cat "$tmp/out")"
[ "$(writes)" = "$((w0 + n))" ] || t_fail "ping's writes $(writes) is not $w0 + $n"
in_ns "$rocesh" -c 'reload config' >"$tmp/out" 2>&1 || { cat "$tmp/out"; t_fail "the second reload failed"; }
grep -q '(0 kernel writes)' "$tmp/out" || t_fail "the same file again wrote: $(cat "$tmp/out")"
in_ns "$rocesh" -c 'reload config dry-run' | grep -q "would change no port's plan" ||
	t_fail "after the reload, a dry run still sees a change"
t_roced_stop
echo "ok: reload_dryrun"
