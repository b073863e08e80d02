#!/bin/sh
# rocesh_tmux: rocesh on a real terminal (tmux send-keys / capture-pane)
# against roced in a private network namespace with the shipped policy:
#   - `?` lists the next words with their help at once, without Enter and
#     without running the line, then gives the line back to go on typing;
#   - a unique prefix works (`show ?` then `run` Enter runs `show run`);
#   - TAB completes `conf` to `configure `, a port name from the running
#     configuration (`interface s` -> `interface swp1 `), and lists the
#     candidates when they share nothing more;
#   - an error shows the caret under the bad word, at the prompt's offset;
#   - after a show command's '|', `?` lists the output filters and TAB
#     completes one (`sec` -> `section `), which then filters;
#   - UTF-8 is kept (`description café`), a stray ESC is refused aloud
#     and the key after it kept, the arrow keys still edit;
#   - Ctrl-Z goes back to exec mode; `exit` there leaves with status 0.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"

t_init rocesh_tmux
t_need_root
if ! command -v tmux >/dev/null 2>&1; then
	echo "SKIP: tmux is not installed (scripts/install-deps.sh --test" \
		"installs it)"
	exit 77
fi
sock="rocesh-tmux-$$"
tmp=$t_tmp
# tmux keeps its socket directory in /tmp unless told otherwise, which
# the run's TMPDIR does not cover: it goes into this test's directory,
# removed with it.
TMUX_TMPDIR=$tmp
export TMUX_TMPDIR
T() { tmux -L "$sock" "$@"; }
# The tmux server goes into the background (no child of this shell): its
# own kill-server stops it and the panes' processes.
t_defer 'T kill-server 2>/dev/null'
fail() {
	echo "FAIL: $*"
	echo "--- screen"
	screen
	echo "--- roced log"
	cat "$tmp/log"
	exit 1
}

t_netns_add ns tmux
"$IP" -n "$ns" link add swp1 type veth peer name host1
t_spawn "$IP" netns exec "$ns" "$roced" -f "$top_srcdir/conf/roced.conf" >"$tmp/log" 2>&1
for _ in $(seq 100); do
	"$IP" netns exec "$ns" "$rocesh" -c 'show running-config' >/dev/null 2>&1 && break
	sleep 0.05
done

# The whole pane with its scrollback, trailing blank lines dropped.
screen() {
	T capture-pane -p -J -S - 2>/dev/null | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
}
last() { screen | tail -n 1; }
# Wait until the screen has a line matching the extended regex $1.
wait_for() {
	for _ in $(seq 100); do
		screen | grep -qE -- "$1" && return 0
		sleep 0.05
	done
	fail "waited for /$1/"
}
# Wait until the last line is exactly $1 (trailing blanks ignored).
wait_last() {
	for _ in $(seq 100); do
		[ "$(last | sed 's/ *$//')" = "$1" ] && return 0
		sleep 0.05
	done
	fail "last line is '$(last)', expected '$1'"
}
# A clean screen for the next step: ^L redraws the prompt alone.
clean() {
	T send-keys C-u C-l
	T clear-history
	sleep 0.1
	T clear-history
}

T new-session -d -x 120 -y 40 \
	"$IP netns exec $ns $rocesh; echo rocesh-exited-\$?; sleep 60"
wait_last "roced#"

# --- ? at once, line given back, then a prefix abbreviation ---
T send-keys 'show ' '?'
wait_for '^  running-config +Current operating configuration$'
wait_last "roced# show"
screen | grep -qx 'roced# show ?' || fail "the ? is not echoed after the line"
screen | grep -q '^!Command' && fail "? ran the line"
screen | grep -qE '^  queuing +Show queuing information$' ||
	fail "the listing lacks 'queuing' with its help"
T send-keys 'run' Enter
wait_for '^class-map type qos match-any ROCE_CLASS$'
screen | grep -qx 'roced# show run' || fail "the line was not given back as 'show run'"
echo "ok: ? lists at once and gives the line back; 'show run' runs"

# --- TAB ---
clean
T send-keys 'conf' Tab
wait_last "roced# configure"
T send-keys 't' Enter
wait_last "roced(config)#"
clean
T send-keys 'interface s' Tab
wait_last "roced(config)# interface swp1"
T send-keys Enter
wait_last "roced(config-if)#"
clean
T send-keys 'priority-flow-control ' Tab
wait_for '^mode +watch-dog +watch-dog-interval$'
wait_last "roced(config-if)# priority-flow-control"
echo "ok: TAB completes keywords and port names, lists ambiguous ones"

# --- an error's caret ---
clean
T send-keys 'priority-flow-control mode bogus' Enter
wait_for '^% '
line=$(screen | grep -n 'priority-flow-control mode bogus$' | tail -n 1)
n=${line%%:*}
line=${line#*:}
caret=$(screen | sed -n "$((n + 1))p")
want=$(printf '%s\n' "$line" | awk '{ print index($0, "bogus") }')
got=$(printf '%s\n' "$caret" | awk '{ print index($0, "^") }')
[ "$want" -gt 0 ] && [ "$want" = "$got" ] ||
	fail "caret at column $got, 'bogus' at column $want"
screen | sed -n "$((n + 2))p" | grep -q '^% Invalid' || fail "no '% Invalid' message"
echo "ok: the caret is under the bad word"

# --- output filters: ? and TAB after a '|', then the filter runs ---
clean
T send-keys 'show running-config | ' '?'
wait_for '^  section +Lines that match and the lines indented under them$'
wait_last "roced(config-if)# show running-config |"
T send-keys 'sec' Tab
wait_last "roced(config-if)# show running-config | section"
T send-keys -l '^interface'
T send-keys Enter
wait_for '^  service-policy type queuing output ROCE_QUEUING_OUT$'
screen | grep -q '^policy-map' && fail "section ^interface printed a policy-map"
echo "ok: ? lists the filters after a '|', TAB completes one, section runs"

# --- UTF-8 kept, ESC refused aloud, arrows still edit ---
clean
T send-keys -l 'description café'
T send-keys Enter
wait_last "roced(config-if)#"
"$IP" netns exec "$ns" "$rocesh" -c 'show running-config interface swp1' \
	>"$tmp/desc" 2>&1 || fail "show running-config interface swp1"
grep -qx '  description café' "$tmp/desc" ||
	fail "description is not 'café': $(grep description "$tmp/desc")"
T send-keys 'description x'
T send-keys Escape
sleep 0.2
T send-keys 'y' Enter
wait_for '^% ESC is not taken'
wait_last "roced(config-if)#"
T send-keys Up
T send-keys Left 'z' Enter
wait_last "roced(config-if)#"
"$IP" netns exec "$ns" "$rocesh" -c 'show running-config interface swp1' \
	>"$tmp/desc" 2>&1 || fail "show running-config interface swp1"
grep -qx '  description xzy' "$tmp/desc" ||
	fail "description is not 'xzy': $(grep description "$tmp/desc")"
echo "ok: UTF-8 kept, a stray ESC refused aloud, the arrows edit"

# --- Ctrl-Z, exit ---
clean
T send-keys C-z
wait_last "roced#"
T send-keys 'exit' Enter
wait_for '^rocesh-exited-0$'
echo "ok: Ctrl-Z to exec mode, exit leaves with status 0"
echo "PASS: rocesh_tmux"
