#!/bin/sh
# ckpt_session: configuration sessions against a running roced.
#   - lines typed into `configure session s1` change nothing until
#     commit; rocesh killed (SIGKILL) in the middle of the session leaves
#     the kernel and the running configuration as they were, and the
#     session in roced, shown as uncommitted with its owner gone;
#   - a new rocesh resumes it (told so, with its line count) and its
#     commit is one change: swp1's ETS classes change;
#   - two sessions begun on the same running configuration, committed
#     at once by two rocesh: one commits, the other is refused whole,
#     naming itself, and the running configuration is the winner's;
#   - a line refused in a session is not kept;
#   - `commit confirmed 3` in a rocesh that then exits: applied, then
#     rolled back by roced alone when nobody confirms it; `commit
#     confirmed 600` and roced restarted before the confirmation: the
#     new roced rolls back to the configuration before that commit
#     (not to its startup file).
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
t_init ckpt_session
t_need_root
[ -x "$rocesh" ] || t_skip "rocesh is not built"
tmp=$t_tmp
fix=$top_srcdir/tests/fixtures/dcbx

t_veth_ns ns csess swp1 peer1
in_ns() { "$IP" netns exec "$ns" "$@"; }
sh_() { in_ns "$rocesh" "$@"; }
cp "$fix/switch.conf" "$tmp/roced.conf"
t_roced_start "$ns" "$tmp/roced.conf" "mirroring roced's tc objects"

state() {
	for o in qdisc class filter; do
		in_ns "$TC" -j $o show dev swp1
		echo
	done
	sh_ -c 'show running-config'
}
state >"$tmp/state.0"

# --- rocesh dies in the middle of a session ---
mkfifo "$tmp/fifo"
exec 3<>"$tmp/fifo"
# (an asynchronous command's stdin is /dev/null: sh opens the fifo)
t_spawn "$IP" netns exec "$ns" sh -c 'exec "$0" <&3' "$rocesh" >"$tmp/s1.out" 2>&1
sh_pid=$t_pid
printf '%s\n' 'configure session s1' 'policy-map type queuing QUE' \
	'class type queuing c-out-8q-q-default' \
	'bandwidth remaining percent 40' \
	'class type queuing c-out-8q-q3' \
	'bandwidth remaining percent 60' >&3
t_until 20 sh -c "'$IP' netns exec '$ns' '$rocesh' -c 'show configuration session s1' | grep -q '5 lines'" ||
	{ cat "$tmp/s1.out"; t_fail "the session's lines did not reach roced"; }
state >"$tmp/state.1"
diff "$tmp/state.0" "$tmp/state.1" || t_fail "lines of an uncommitted session changed something"
t_stop "$sh_pid" KILL || :
exec 3>&-
sh_ -c 'show configuration session' >"$tmp/show"
cat "$tmp/show"
grep -q "^config session s1: 5 lines, began .* by pid $sh_pid (gone: uncommitted)$" "$tmp/show" ||
	t_fail "the session is not shown uncommitted with its owner gone"
grep -q '^      bandwidth remaining percent 60$' "$tmp/show" || t_fail "the session's lines are not shown"
state >"$tmp/state.2"
diff "$tmp/state.0" "$tmp/state.2" || t_fail "rocesh's death changed something"

# --- resumed and committed: one change ---
sh_ >"$tmp/out" 2>&1 <<'EOF' || { cat "$tmp/out"; t_fail "resume and commit"; }
configure session s1
commit
EOF
cat "$tmp/out"
grep -q "Resuming session s1, left uncommitted by pid $sh_pid: 5 lines" "$tmp/out" ||
	t_fail "the resumed session is not told"
grep -q '^Commit Successful' "$tmp/out" || t_fail "the commit: $(cat "$tmp/out")"
state >"$tmp/state.3"
cmp -s "$tmp/state.0" "$tmp/state.3" && t_fail "the commit changed nothing"
sh_ -c 'show running-config' | grep -q 'bandwidth remaining percent 60' ||
	t_fail "the committed share is not running"
sh_ -c 'show configuration session' | grep -q '^No configuration session$' ||
	t_fail "a committed session is still listed"

# --- a refused line is not kept ---
sh_ >"$tmp/out" 2>&1 <<'EOF' && t_fail "a share over 100 was taken into a session"
configure session bad
policy-map type queuing QUE
class type queuing c-out-8q-q3
bandwidth remaining percent 90
EOF
grep -q 'adds up to 130' "$tmp/out" || t_fail "the refused line: $(cat "$tmp/out")"
sh_ -c 'show configuration session bad' | grep -q '^config session bad: 2 lines' ||
	t_fail "the refused line was kept in the session"
printf 'configure session bad\nabort\n' | sh_ >/dev/null

# --- two sessions committed at once ---
for s in a:30:70 b:70:30; do
	n=${s%%:*} r=${s#*:}
	q3=${r%%:*} qd=${r#*:}
	if [ "$q3" -lt 60 ]; then
		first="class type queuing c-out-8q-q3
bandwidth remaining percent $q3
class type queuing c-out-8q-q-default
bandwidth remaining percent $qd"
	else
		first="class type queuing c-out-8q-q-default
bandwidth remaining percent $qd
class type queuing c-out-8q-q3
bandwidth remaining percent $q3"
	fi
	printf 'configure session %s\npolicy-map type queuing QUE\n%s\n' "$n" "$first" |
		sh_ >"$tmp/$n.begin" 2>&1 || { cat "$tmp/$n.begin"; t_fail "session $n"; }
done
state >"$tmp/state.4"
diff "$tmp/state.3" "$tmp/state.4" || t_fail "uncommitted sessions changed something"
printf 'configure session a\ncommit\n' >"$tmp/a.in"
printf 'configure session b\ncommit\n' >"$tmp/b.in"
t_spawn "$IP" netns exec "$ns" sh -c 'exec "$0" <"$1"' "$rocesh" "$tmp/a.in" >"$tmp/a.out" 2>&1
pa=$t_pid
t_spawn "$IP" netns exec "$ns" sh -c 'exec "$0" <"$1"' "$rocesh" "$tmp/b.in" >"$tmp/b.out" 2>&1
pb=$t_pid
t_wait "$pa" || :
t_wait "$pb" || :
cat "$tmp/a.out" "$tmp/b.out"
ok=$(cat "$tmp/a.out" "$tmp/b.out" | grep -c '^Commit Successful' || :)
[ "$ok" = 1 ] || t_fail "$ok of two racing sessions committed, expected exactly one"
if grep -q '^Commit Successful' "$tmp/a.out"; then win=a lose=b want=70; else win=b lose=a want=30; fi
grep -q "session $lose not committed: the running configuration changed" "$tmp/$lose.out" ||
	t_fail "the losing session $lose is not refused by name"
sh_ -c 'show running-config' | grep -A1 'c-out-8q-q-default' | grep -q "percent $want" ||
	t_fail "the running configuration is not session $win's"
sh_ -c 'show configuration session' | grep -q "^config session $lose:" ||
	t_fail "the refused session $lose was lost"
printf 'configure session %s\nabort\n' "$lose" | sh_ >/dev/null

# --- commit confirmed, never confirmed: rolled back by roced alone ---
ino=$(in_ns stat -L -c %i /proc/self/ns/net)
t_defer "rm -rf '/run/roced/roced.$ino.checkpoint'"
state >"$tmp/c.0"
confirmed() {
	sh_ >"$tmp/out" 2>&1 <<EOF || { cat "$tmp/out"; t_fail "commit confirmed $1"; }
configure session cc
policy-map type queuing QUE
class type queuing c-out-8q-q3
bandwidth remaining percent 10
class type queuing c-out-8q-q-default
bandwidth remaining percent 90
commit confirmed $1
EOF
	cat "$tmp/out"
	grep -q '^Rolls back at .* unless `commit` in this session confirms it$' "$tmp/out" ||
		t_fail "commit confirmed $1 does not say when it rolls back"
	sh_ -c 'show running-config' | grep -q 'bandwidth remaining percent 90' ||
		t_fail "commit confirmed $1 was not applied"
}
confirmed 3
# rocesh has exited: roced alone rolls it back.
t_until 60 sh -c "'$IP' netns exec '$ns' '$rocesh' -c 'show running-config' | grep -q 'percent $want'" ||
	t_fail "the unconfirmed commit was not rolled back"
state >"$tmp/c.1"
diff "$tmp/c.0" "$tmp/c.1" || t_fail "the rollback did not restore the state before the commit"
grep -q 'session cc: commit not confirmed (its time ran out): rolled back' "$t_tmp/log" ||
	t_fail "the rollback is not logged"
sh_ -c 'show configuration session' | grep -q '^No configuration session$' ||
	t_fail "the rolled back session is still listed"

# --- commit confirmed, then roced restarts before the confirmation ---
confirmed 600
in_ns test -f "/run/roced/roced.$ino.checkpoint/.confirm" ||
	t_fail "the confirmed commit's checkpoint is not kept on disk"
t_roced_stop
t_roced_start "$ns" "$tmp/roced.conf" "mirroring roced's tc objects"
t_until 30 grep -q 'session cc: commit not confirmed (roced restarted before it was confirmed): rolled back' "$t_tmp/log" ||
	t_fail "the restarted roced did not roll the unconfirmed commit back"
# Back to the configuration before the commit (the winner's shares),
# not to the startup file's 50/50.
state >"$tmp/c.2"
diff "$tmp/c.0" "$tmp/c.2" || t_fail "the restart's rollback did not restore the state before the commit"
in_ns test -e "/run/roced/roced.$ino.checkpoint/.confirm" &&
	t_fail "the confirmed commit's checkpoint outlived its rollback"
t_roced_stop
echo "PASS: ckpt_session"
