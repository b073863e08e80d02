#!/bin/sh
# reload_guard: a reload must not act on a configuration file caught while
# it is being written. Against roced in a private network namespace, with
# the shipped roced.conf programming swp1:
#   - the file emptied (`: > roced.conf`) and SIGHUP: the reload is refused
#     and logged with how to force it, the kernel state (tc -j) and the
#     running-config stay as they were;
#   - the file cut off just before its `interface = (` block (which
#     `roced -n` takes, with a note that it has no interface list) and
#     SIGHUP: refused the same way;
#   - `rocesh -c 'reload config'` on such a file waits for the answer and
#     exits 1 with FILE: error on stderr, the state kept, and systemd
#     hears READY=1 after RELOADING=1 for the refused reload;
#   - a file that says it with an explicit empty `interface = ( );` list
#     is reloaded and swp1 is cleaned;
#   - a forced reload, `reload config force` in rocesh and
#     {"cmd":"reload","force":true} on the socket, cleans swp1 from an
#     empty file.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
t_init reload_guard
t_need_root
if [ ! -x "$rocesh" ]; then
	echo "SKIP: rocesh is not built"
	exit 77
fi
tmp=$t_tmp
pid=""
fail() {
	echo "FAIL: $*"
	echo "--- roced log"
	cat "$tmp/log"
	exit 1
}
in_ns() { "$IP" netns exec "$ns" "$@"; }
ctl() { in_ns python3 "$top_srcdir/tests/integration/ctl_client.py" send "$@"; }
sh_ns() { in_ns "$rocesh" "$@"; }
state() {
	in_ns "$TC" -j qdisc show dev swp1
	in_ns "$TC" -j class show dev swp1
	in_ns "$TC" -j filter show dev swp1 parent 4791:
}
programmed() { in_ns "$TC" qdisc show dev swp1 root | grep -q ' 4791: root'; }
# wait_log PATTERN N: until the log has N lines matching PATTERN (the
# machine may be loaded: generous, and no assertion on how long it took).
wait_log() {
	for _ in $(seq 600); do
		[ "$(grep -c "$1" "$tmp/log" || true)" -ge "$2" ] && return 0
		kill -0 "$pid" 2>/dev/null || fail "roced exited"
		sleep 0.1
	done
	fail "no $2 log lines matching '$1'"
}
hup_refused() { # N: the Nth refusal
	kill -HUP "$pid"
	wait_log 'reload refused' "$1"
}
hup_reloaded() { # N: the Nth reload that worked
	kill -HUP "$pid"
	wait_log "reloaded $tmp/live.conf" "$1"
}

t_netns_add ns rlg
in_ns "$IP" link set lo up
in_ns "$IP" link add swp1 type veth peer name host1
in_ns "$IP" link set swp1 up
in_ns "$IP" link set host1 up
good="$top_srcdir/conf/roced.conf"
cp "$good" "$tmp/live.conf"
# The file as a writer that was interrupted leaves it: everything before
# the interface list.
sed '/^interface = (/,$d' "$good" >"$tmp/cut.conf"
grep -q '^interface' "$tmp/cut.conf" && fail "the cut file still has its interface list"
grep -q '^policy-map' "$tmp/cut.conf" || fail "the cut file lost its policy-maps"

# systemd's side of the reloads: a refused one too must end in READY=1,
# or systemd would wait in "reloading".
# A file, not a here-document: a background job's stdin is /dev/null.
cat >"$tmp/notify.py" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
with open(sys.argv[2], 'a', buffering=1) as log:
    while True:
        log.write(s.recv(4096).decode().replace('\n', ' ') + '\n')
PY
t_spawn python3 "$tmp/notify.py" "$tmp/notify.sock" "$tmp/notify.log"
for _ in $(seq 100); do [ -S "$tmp/notify.sock" ] && break; sleep 0.1; done
[ -S "$tmp/notify.sock" ] || fail "no notify socket"
# Not through in_ns: a function in the background is a subshell, and the
# signals must reach roced (env and ip netns exec exec it).
t_spawn env NOTIFY_SOCKET="$tmp/notify.sock" "$IP" netns exec "$ns" "$roced" -f "$tmp/live.conf" \
	--caps probe >"$tmp/log" 2>&1
pid=$t_pid
for _ in $(seq 600); do
	programmed && break
	kill -0 "$pid" 2>/dev/null || fail "roced exited"
	sleep 0.1
done
programmed || fail "roced did not program swp1"
for _ in $(seq 600); do
	r=$(ctl '{"cmd":"ping"}' 2>/dev/null) && break
	sleep 0.1
done
echo "$r" | grep -q '"ok":true' || fail "no answer to ping: $r"
state >"$tmp/before"
sh_ns -c 'show running-config' >"$tmp/run.before" 2>&1 || fail "show running-config: $(cat "$tmp/run.before")"
grep -q '^interface ' "$tmp/run.before" || fail "the running-config names no interface: $(cat "$tmp/run.before")"
kept() { # WHAT: the kernel and the running-config as they were
	state >"$tmp/after"
	cmp -s "$tmp/before" "$tmp/after" ||
		{ diff "$tmp/before" "$tmp/after"; fail "$1 changed the kernel"; }
	sh_ns -c 'show running-config' >"$tmp/run.after" 2>&1
	cmp -s "$tmp/run.before" "$tmp/run.after" ||
		{ diff "$tmp/run.before" "$tmp/run.after"; fail "$1 changed the running-config"; }
}

# --- an emptied file ---
: >"$tmp/live.conf"
hup_refused 1
kept "SIGHUP on an empty file"
grep 'reload refused' "$tmp/log" | grep -q "$tmp/live.conf has no interface list" ||
	fail "the refusal does not name the file"
grep 'reload refused' "$tmp/log" | grep -q "reload config force" ||
	fail "the refusal does not say how to force it"
grep 'reload refused' "$tmp/log" | grep -q "interface = ( );" ||
	fail "the refusal does not say how to state it in the file"
echo "ok: SIGHUP on an empty file refused, state kept: $(grep 'reload refused' "$tmp/log" | head -n 1)"

# --- a file cut just before its interface list ---
"$roced" -n --caps host -f "$tmp/cut.conf" >"$tmp/check" 2>&1 ||
	fail "roced -n refuses the cut file (this test wants one that parses): $(cat "$tmp/check")"
grep -q "note: $tmp/cut.conf has no interface list" "$tmp/check" ||
	fail "roced -n does not say the cut file has no interface list: $(cat "$tmp/check")"
cp "$tmp/cut.conf" "$tmp/live.conf"
hup_refused 2
kept "SIGHUP on a file cut before its interface list"
echo "ok: SIGHUP on a file cut before its interface list refused, state kept"

# --- rocesh waits for the answer and fails with it ---
if sh_ns -c 'reload config' >"$tmp/out" 2>"$tmp/err"; then
	fail "rocesh reload config of the cut file exited 0: $(cat "$tmp/out" "$tmp/err")"
fi
grep -q "$tmp/live.conf: error: no interface list" "$tmp/err" ||
	fail "rocesh's error does not name the file: $(cat "$tmp/err")"
# All of it: the reason ends with how to force the reload.
grep -q "reload config force\`\$" "$tmp/err" ||
	fail "rocesh's error is cut short: $(cat "$tmp/err")"
kept "rocesh reload config of the cut file"
for _ in $(seq 100); do
	grep -q 'STATUS=reload refused' "$tmp/notify.log" && break
	sleep 0.1
done
sed -n '/^RELOADING=1/,$p' "$tmp/notify.log" | grep -q '^READY=1 STATUS=reload refused' ||
	fail "no READY=1 after RELOADING=1 for a refused reload: $(cat "$tmp/notify.log")"
echo "ok: rocesh reload config refused (exit 1): $(tail -n 1 "$tmp/err")"

# --- an explicit empty interface list means it ---
{ cat "$tmp/cut.conf"; echo 'interface = ( );'; } >"$tmp/live.conf"
hup_reloaded 1
programmed && fail "an explicit empty interface list left roced's qdisc on swp1"
sh_ns -c 'show running-config' >"$tmp/run" 2>&1
grep -q '^interface ' "$tmp/run" && fail "the running-config still names an interface: $(cat "$tmp/run")"
echo "ok: an explicit empty interface list is reloaded and cleans swp1"

# --- forced reloads ---
cp "$good" "$tmp/live.conf"
sh_ns -c 'reload config' >"$tmp/out" 2>&1 || fail "reload of the good file: $(cat "$tmp/out")"
grep -q "Reloaded $tmp/live.conf" "$tmp/out" || fail "rocesh reload config said: $(cat "$tmp/out")"
programmed || fail "the good file did not program swp1 again"
: >"$tmp/live.conf"
sh_ns -c 'reload config force' >"$tmp/out" 2>&1 || fail "reload config force: $(cat "$tmp/out")"
programmed && fail "reload config force left roced's qdisc on swp1"
grep -q 'reload forced' "$tmp/log" || fail "the forced reload was not logged"
echo "ok: rocesh reload config force cleans swp1 from an empty file"
cp "$good" "$tmp/live.conf"
sh_ns -c 'reload config' >"$tmp/out" 2>&1 || fail "reload of the good file: $(cat "$tmp/out")"
programmed || fail "the good file did not program swp1 again"
: >"$tmp/live.conf"
out=$(ctl '{"cmd":"reload"}')
echo "$out" | grep -q '"ok":false' || fail "a reload request of the empty file was not refused: $out"
programmed || fail "a refused reload request cleaned swp1"
out=$(ctl '{"cmd":"reload","force":true}')
echo "$out" | grep -q '"ok":true' || fail "a forced reload request: $out"
programmed && fail "{\"cmd\":\"reload\",\"force\":true} left roced's qdisc on swp1"
echo "ok: {\"cmd\":\"reload\",\"force\":true} cleans swp1 from an empty file"

t_stop "$pid" TERM || fail "roced exited with an error"
pid=""
echo "PASS: reload_guard"
