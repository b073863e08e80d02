#!/bin/sh
# ctl_socket: roced's control socket (lib/ctl/ctl.h) against a daemon in a
# private network namespace, with a small Python client:
#   - malformed JSON, unknown commands and keys, a key given twice (which
#     json-c alone would take the last of), an oversized request and more
#     clients than allowed are each refused with an error reply, and the
#     daemon keeps answering ping;
#   - the socket is 0660 root:GROUP with -G; a member may configure, a
#     non-root client without the group (socket opened up by chmod) may
#     show and ping but not configure, copy, reload or debug;
#   - show running-config json is the loaded policy and equals show
#     startup-config json; show queuing interface counts packets sent with
#     DSCP 26 in queue 3;
#   - a config line changes the kernel (tc), a refused one changes nothing;
#   - copy running-config startup-config writes the file atomically with a
#     backup, and it loads back (roced -n) with the same running-config;
#   - a reload of a broken file over the socket keeps the state;
#   - a second roced in the same namespace is refused;
#   - roced -b returns once ready; systemd notifications (READY=1, STATUS=,
#     WATCHDOG=1, RELOADING=1) arrive on NOTIFY_SOCKET; --cleanup-on-exit
#     removes roced's objects on SIGTERM and the pid file and socket go.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
t_init ctl_socket
t_need_root
group=4791 # a gid no user has: membership comes from setpriv --groups
tmp=$t_tmp
pid=""
pid2=""
fail() {
	echo "FAIL: $*"
	echo "--- roced log"
	cat "$tmp/log"
	[ -f "$tmp/log2" ] && { echo "--- second roced log"; cat "$tmp/log2"; }
	exit 1
}
in_ns() { "$IP" netns exec "$ns" "$@"; }
# The client runs as nobody too: keep it where nobody can read it.
chmod 755 "$tmp"
cp "$top_srcdir/tests/integration/ctl_client.py" "$tmp/ctl_client.py"
chmod 755 "$tmp/ctl_client.py"
ctl() { in_ns python3 "$tmp/ctl_client.py" send "$@"; }
# nobody cannot use root's python (pyenv shims under /root): the system one.
PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(command -v python3)
# jget JSONLINE FILTER: jq's FILTER over the reply, strings raw, the rest
# compact on one line. jq, not a python per read: this test reads some 40
# replies and a python start costs seconds on a loaded machine.
jget() { printf '%s\n' "$1" | jq -rc "$2"; }
state() {
	in_ns "$TC" -j qdisc show dev swp1
	in_ns "$TC" -j class show dev swp1
	in_ns "$TC" -j filter show dev swp1 parent 4791:
}

t_netns_add ns ctl
in_ns "$IP" link add swp1 type veth peer name host1
in_ns "$IP" link set lo up
in_ns "$IP" link set swp1 up
in_ns "$IP" link set host1 up
cp "$top_srcdir/conf/roced.conf" "$tmp/live.conf"

t_spawn "$IP" netns exec "$ns" "$roced" -f "$tmp/live.conf" --caps probe -D ctl \
	-G "$group" >"$tmp/log" 2>&1
pid=$t_pid
for _ in $(seq 100); do
	r=$(ctl '{"cmd":"ping"}' 2>/dev/null) && break
	sleep 0.1
done
[ "$(jget "$r" '.ok')" = true ] || fail "no answer to ping: $r"
sock=$(sed -n 's/.*control socket \(.*\)$/\1/p' "$tmp/log")
ino=$(stat -L -c %i "/run/netns/$ns")
[ "$sock" = "/run/roced/roced.$ino.sock" ] || fail "socket path $sock, want /run/roced/roced.$ino.sock"
echo "ok: roced answers on $sock (pid $(jget "$r" .pid), version $(jget "$r" .version))"

# --- abuse: each refused with an error reply, the daemon stays up ---
out=$(ctl '{"cmd":"ping"' '{"cmd":"ping"}')
echo "$out" | head -1 | grep -q '"error":"% malformed JSON' || fail "malformed JSON not refused: $out"
[ "$(echo "$out" | sed -n 2p)" != "" ] && echo "$out" | sed -n 2p | grep -q '"ok":true' ||
	fail "the connection did not survive a malformed request: $out"
for bad in '[1,2]' '{"cmd":"shutdown"}' '{"cmd":"ping","x":1}' \
	'{"cmd":"config","line":7}' '{"cmd":"show"}' \
	'{"cmd":"config","line":"a\u0000b"}' '{"cmd":"ping"} trailing'; do
	out=$(ctl "$bad")
	[ "$(jget "$out" '.ok')" = false ] || fail "accepted: $bad -> $out"
	jget "$out" .error | grep -q '^% ' || fail "no '% ' error for $bad: $out"
done
# A repeated key: json-c keeps the last one, so without the check this
# ping would reload (and a key cut at an escaped NUL would be "cmd").
out=$(ctl '{"cmd":"ping","cmd":"reload"}' '{"cmd\u0000x":"reload"}')
[ "$(jget "$(echo "$out" | sed -n 1p)" '[.ok, .error]')" = "[false,\"% key 'cmd' appears twice\"]" ] ||
	fail "a repeated key was not refused: $out"
[ "$(jget "$(echo "$out" | sed -n 2p)" '[.ok, .error]')" = '[false,"% a key holds a NUL byte"]' ] ||
	fail "a key with a NUL byte was not refused: $out"
grep -q 'reloading ' "$tmp/log" && fail "a refused request reloaded: $(cat "$tmp/log")"
echo "ok: malformed, unknown, mistyped and repeated-key requests refused"
out=$(in_ns python3 "$tmp/ctl_client.py" raw 100000)
echo "$out" | head -1 | grep -q 'request too large (100000 bytes, at most 65536)' ||
	fail "oversized request not refused: $out"
echo "$out" | tail -1 | grep -qx CLOSED || fail "oversized request: connection left open"
out=$(in_ns python3 "$tmp/ctl_client.py" flood 20)
[ "$out" = "ok=16 refused=4 other=0" ] ||
	fail "20 clients at once: $out (want ok=16 refused=4 other=0: each refused one told why)"
kill -0 "$pid" || fail "roced died"
# The flood's connections close as its client exits: give roced a moment.
for _ in $(seq 20); do
	r=$(ctl '{"cmd":"ping"}')
	[ "$(jget "$r" '.ok')" = true ] && break
	sleep 0.1
done
[ "$(jget "$r" '.ok')" = true ] || fail "no ping after the abuse: $r"
echo "ok: oversized request refused and closed, 16 clients at most, roced still answers"

# --- rights ---
[ "$(stat -c '%a %g %u' "$sock")" = "660 $group 0" ] ||
	fail "socket mode/owner: $(stat -c '%a %g %u' "$sock")"
if in_ns setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$PY" "$tmp/ctl_client.py" send '{"cmd":"ping"}' >/dev/null 2>"$tmp/err"; then
	fail "a client outside the group could connect to a 0660 socket"
fi
grep -q PermissionError "$tmp/err" || fail "nobody's client failed otherwise: $(cat "$tmp/err")"
out=$(in_ns setpriv --reuid=65534 --regid=65534 --groups="$group" \
	"$PY" "$tmp/ctl_client.py" send '{"cmd":"debug","subsys":"conf","on":false}')
[ "$(jget "$out" '.ok')" = true ] || fail "a group member may not configure: $out"
chmod 0666 "$sock"
# nobody's requests below: each set on one connection (one python each),
# a refusal leaves the connection open, one reply line per request.
nobody_send() {
	in_ns setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$PY" "$tmp/ctl_client.py" send "$@"
}
# all_denied OUT N: OUT is N replies, each a permission refusal.
all_denied() {
	[ "$(printf '%s\n' "$1" | jq -c '.error // "" | test("Permission denied")' | grep -cx true)" = "$2" ]
}
out=$(nobody_send '{"cmd":"config","line":"priority-flow-control watch-dog-interval off"}' \
	'{"cmd":"copy","from":"running-config","to":"startup-config"}' \
	'{"cmd":"reload"}' '{"cmd":"debug","subsys":"all"}')
all_denied "$out" 4 || fail "nobody was not refused config, copy, reload and debug: $out"
out=$(in_ns setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$PY" "$tmp/ctl_client.py" send \
	'{"cmd":"show","what":"show policy-map","args":[]}' '{"cmd":"ping"}')
echo "$out" | head -1 | grep -q '"ok":true' || fail "nobody may not show: $out"
# Told first that it needs the right, whatever else the request lacks.
out=$(nobody_send '{"cmd":"config"}' '{"cmd":"copy"}' '{"cmd":"pfc-queue"}' \
	'{"cmd":"debug","bogus":1}')
all_denied "$out" 4 || fail "nobody was not told about the requests before the right: $out"
chmod 0660 "$sock"
grep -q 'uid 65534 (pid [0-9]*) may not config' "$tmp/log" || fail "refusal not logged"
echo "ok: group member configures; non-root without the group shows but may not configure"

# Invalid UTF-8 and terminal escapes in a request are never echoed raw:
# the reply is valid UTF-8 and shows them as \xNN.
in_ns python3 - "$sock" >"$tmp/utf8" <<'PY' || fail "a reply echoed the request's bytes raw: $(cat "$tmp/utf8")"
import json, socket, sys
reqs = [b'{"cmd":"\xff\xfe\x1b[2J"}', b'{"cmd":"ping","\xc3(":1}',
        b'{"cmd":"config","line":"interface \xff"}']
for req in reqs:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    s.connect(sys.argv[1])
    s.send(req)
    r = s.recv(1 << 20)
    print(r)
    e = json.loads(r.decode('utf-8'))['error']
    assert '\x1b' not in e and '\ufffd' not in e, e
    assert '\\xff' in e or '\\xc3' in e or 'UTF-8' in e, e
PY
cat "$tmp/utf8"
echo "ok: invalid UTF-8 in a request is escaped in the reply"

# --- lock-out: idle group members cannot keep root out ---
# A member holds 20 idle connections: it gets 15 slots, the last is root's.
# Not through in_ns: the pid must be the client's (ip netns exec and
# setpriv exec it), or stopping it at cleanup leaves it running.
t_spawn "$IP" netns exec "$ns" setpriv --reuid=65534 --regid=65534 --groups="$group" \
	"$PY" "$tmp/ctl_client.py" hold 20 3 >"$tmp/hold" 2>&1
hpid=$t_pid
for _ in $(seq 50); do grep -q held "$tmp/hold" && break; sleep 0.1; done
r=$(ctl '{"cmd":"ping"}')
[ "$(jget "$r" '.ok')" = true ] || fail "root locked out by idle group members: $r"
t_wait "$hpid"
# The 5 over the limit were closed after their second of grace; the 15
# admitted ones are within the idle time (60 s) and still open.
grep -qx 'closed=5' "$tmp/hold" || fail "idle group member's connections: $(cat "$tmp/hold")"
# Closed connections free their slots at once: 200 clients, 16 at a time.
for i in $(seq 13); do in_ns python3 "$tmp/ctl_client.py" flood 16; done >"$tmp/waves"
[ "$(sort -u "$tmp/waves")" = "ok=16 refused=0 other=0" ] ||
	fail "16 clients at a time after others closed: $(sort "$tmp/waves" | uniq -c)"
# The refusals (4 above, 5 here) are logged once per ten seconds, not per client.
n=$(grep -c 'too many clients' "$tmp/log" || true)
[ "$n" -le 2 ] || fail "$n log lines for refused clients (at most one per 10 s)"
echo "ok: root keeps a slot, refused clients are told why, slots free at once, refusals logged $n times"

# --- show ---
run=$(ctl '{"cmd":"show","what":"show running-config","args":[],"json":true}')
[ "$(jget "$run" '.data["class-map"].qos[0].dscp')" = "[26]" ] ||
	fail "running-config json: $run"
[ "$(jget "$run" '.data.interface[0].alias')" = "Ethernet1/1" ] ||
	fail "running-config json interface: $run"
start=$(ctl '{"cmd":"show","what":"show startup-config","args":[],"json":true}')
[ "$(jget "$run" .data)" = "$(jget "$start" .data)" ] ||
	fail "running-config and startup-config json differ at start"
jget "$run" .text | grep -q '^    random-detect minimum-threshold 150 kbytes' ||
	fail "running-config text: $(jget "$run" .text)"
# Every show on one connection: one reply line each, in order.
set --
for what in 'show class-map' 'show policy-map' 'show policy-map interface' \
	'show queuing interface' 'show interface priority-flow-control' \
	'show queuing pfc-queue' 'show lldp dcbx interface'; do
	args='[]'
	[ "$what" = 'show lldp dcbx interface' ] && args='["Ethernet1/1"]'
	set -- "$@" "{\"cmd\":\"show\",\"what\":\"$what\",\"args\":$args,\"json\":true}"
done
out=$(ctl "$@")
[ "$(printf '%s\n' "$out" | jq -c '.ok and (.data | type) == "object" and (.text | length) > 0' |
	grep -cx true)" = $# ] || fail "a show did not answer with data and text: $out"
out=$(ctl '{"cmd":"show","what":"show interface priority-flow-control","args":[]}')
jget "$out" .text | grep -q "roced's software PFC counters" ||
	fail "show interface priority-flow-control does not say PFC counts are n/a"
out=$(ctl '{"cmd":"show","what":"show queuing pfc-queue","args":["detail"]}')
jget "$out" .text | grep -q 'PFC watch-dog poll interval : 100 ms' || fail "pfc-queue detail: $out"
jget "$out" .text | grep -q 'Enabled ( 0x8 )' || fail "pfc-queue: the watchdog's state is not said: $out"
out=$(ctl '{"cmd":"show","what":"show queuing interface","args":["nosuch0"]}')
jget "$out" .error | grep -q "Invalid interface 'nosuch0'" || fail "unknown interface: $out"
# 20 frames tagged CoS 3 (VLAN 7) with DSCP 26 out of swp1: the shipped
# class is match-any cos 3 or dscp 26, and roced's cls_bpf program puts
# them in q3.
in_ns python3 - <<'PY'
import socket, struct
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind(('swp1', 0x8100))
udp = struct.pack('!HHHH', 4791, 4791, 8 + 16, 0) + b'r' * 16
ip = struct.pack('!BBHHHBBH4s4s', 0x45, 26 << 2, 20 + len(udp), 0, 0, 64,
                 17, 0, bytes([192, 0, 2, 1]), bytes([192, 0, 2, 2]))
eth = (b'\xff' * 6 + b'\x02\x00\x00\x00\x00\x01' +
       struct.pack('!HH', 0x8100, 3 << 13 | 7) + b'\x08\x00')
for _ in range(20):
    s.send(eth + ip + udp)
PY
out=$(ctl '{"cmd":"show","what":"show queuing interface","args":["swp1"],"json":true}')
n=$(jget "$out" '[.data.interface[0].queue[] | select(.queue == 3)][0].counters["tx-packets"]')
[ "$n" -ge 20 ] || fail "queue 3 counted $n packets, want >= 20: $out"
echo "ok: show running-config json is the file's policy; every show answers; q3 counted $n CoS 3 + DSCP 26 packets"

# --- config lines go to the kernel; a refused one changes nothing ---
q3='"context":["policy-map type queuing ROCE_QUEUING_OUT","class type queuing c-out-8q-q3"]'
qd='"context":["policy-map type queuing ROCE_QUEUING_OUT","class type queuing c-out-8q-q-default"]'
out=$(ctl "{\"cmd\":\"config\",$qd,\"line\":\"bandwidth remaining percent 40\"}")
[ "$(jget "$out" '.ok and .mode == "config-pmap-c-que"')" = true ] || fail "config q-default 40: $out"
jget "$out" .warnings | grep -q 'adds up to 90' || fail "no 'so far' warning: $out"
# 90 % is what NX-OS accepts too (the rest is shared in proportion):
# copy saves what the running config accepted, and the file loads. The
# shipped file goes back for the copy below, whose backup it must be.
cp "$tmp/live.conf" "$tmp/saved"
out=$(ctl '{"cmd":"copy","from":"running-config","to":"startup-config"}')
[ "$(jget "$out" '.ok')" = true ] || fail "copy refused 90 %: $out"
grep -q 'bandwidth-remaining-percent = 40' "$tmp/live.conf" || fail "90 % not saved: $(cat "$tmp/live.conf")"
"$roced" -n --caps host -f "$tmp/live.conf" >"$tmp/check" 2>&1 || fail "saved 90 % does not load: $(cat "$tmp/check")"
mv "$tmp/saved" "$tmp/live.conf"
rm -f "$tmp/live.conf.bak"
out=$(ctl "{\"cmd\":\"config\",$q3,\"line\":\"bandwidth remaining percent 60\"}")
[ "$(jget "$out" '.ok')" = true ] || fail "config q3 60: $out"
in_ns "$TC" class show dev swp1 classid 4791:13 | grep -q 'rate 6Gbit' ||
	fail "q3 not at 6Gbit: $(in_ns "$TC" class show dev swp1)"
state >"$tmp/before"
out=$(ctl "{\"cmd\":\"config\",$q3,\"line\":\"bandwidth remaining percent 70\"}")
jget "$out" .error | grep -q 'adds up to 110' || fail "110 % accepted: $out"
out=$(ctl "{\"cmd\":\"config\",$q3,\"line\":\"bandwidth remaining percent 500\"}")
[ "$(jget "$out" '.ok == false and .pos > 0')" = true ] || fail "500 % accepted or no pos: $out"
state >"$tmp/after"
cmp -s "$tmp/before" "$tmp/after" || fail "a refused line changed the kernel"
run=$(ctl '{"cmd":"show","what":"show running-config","args":[],"json":true}')
[ "$(jget "$run" '.data["policy-map"].queuing[0].class[0]["bandwidth-remaining-percent"]')" = 60 ] ||
	fail "running-config does not have q3 at 60"
echo "ok: config lines change the kernel (q3 6Gbit); refused lines change nothing"

# --- copy running-config startup-config ---
out=$(ctl '{"cmd":"copy","from":"running-config","to":"startup-config"}')
[ "$(jget "$out" '.ok')" = true ] || fail "copy: $out"
cmp -s "$tmp/live.conf.bak" "$top_srcdir/conf/roced.conf" || fail "no backup of the previous file"
ls "$tmp" | grep -q 'live.conf.tmp' && fail "a temporary file was left"
"$roced" -n --caps host -f "$tmp/live.conf" >"$tmp/check" 2>&1 || fail "saved file does not load: $(cat "$tmp/check")"
start=$(ctl '{"cmd":"show","what":"show startup-config","args":[],"json":true}')
[ "$(jget "$run" .data)" = "$(jget "$start" .data)" ] ||
	fail "startup-config after copy differs from running-config"
[ "$(jget "$run" '.text | sub("^[^\n]*\n"; "")')" = "$(jget "$start" '.text | sub("^[^\n]*\n"; "")')" ] ||
	fail "startup-config text differs from running-config text"
echo "ok: copy running-config startup-config: atomic, backup kept, loads back with the same running-config"

# --- reload over the socket with a broken file keeps the state ---
cp "$tmp/live.conf" "$tmp/good.conf"
sed 's/mtu = 9216;/mtu = 99999;/' "$tmp/good.conf" >"$tmp/live.conf"
state >"$tmp/before"
out=$(ctl '{"cmd":"reload"}')
jget "$out" .error | grep -q "live.conf:[0-9]*: error: .*" || fail "broken reload: $out"
state >"$tmp/after"
cmp -s "$tmp/before" "$tmp/after" || fail "a broken reload changed the kernel"
cp "$tmp/good.conf" "$tmp/live.conf"
out=$(ctl '{"cmd":"reload"}')
[ "$(jget "$out" '.ok')" = true ] || fail "good reload: $out"
echo "ok: reload of a broken file refused with FILE:LINE, state kept"

# --- one roced per namespace ---
if timeout 20 "$IP" netns exec "$ns" "$roced" -f "$tmp/live.conf" --caps host \
	>"$tmp/second" 2>&1; then
	fail "a second roced started in the same namespace"
fi
grep -q "another roced (pid $pid) is already running in this network namespace" "$tmp/second" ||
	fail "second instance: $(cat "$tmp/second")"
kill -0 "$pid" || fail "the first roced died"
echo "ok: a second roced is refused: $(cat "$tmp/second")"

# --- roced -b, systemd notifications, --cleanup-on-exit ---
# roced -b goes into the background: not a child of this shell, it is
# found in ns2 at cleanup.
t_netns_add ns2 ctl2
"$IP" -n "$ns2" link add swp1 type veth peer name host1
"$IP" -n "$ns2" link set swp1 up
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
for _ in $(seq 50); do [ -S "$tmp/notify.sock" ] && break; sleep 0.1; done
env NOTIFY_SOCKET="$tmp/notify.sock" WATCHDOG_USEC=400000 \
	"$IP" netns exec "$ns2" "$roced" -b -f "$tmp/live.conf" --caps host \
	--cleanup-on-exit 2>"$tmp/log2" || fail "roced -b failed"
ino2=$(stat -L -c %i "/run/netns/$ns2")
pid2=$(cat "/run/roced/roced.$ino2.pid") || fail "no pid file"
kill -0 "$pid2" || fail "roced -b is not running"
"$IP" netns exec "$ns2" "$TC" qdisc show dev swp1 | grep -q 'htb 4791: root' ||
	fail "roced -b returned before the first apply"
grep -q 'READY=1 STATUS=1 port, 20 writes, [0-9]* warnings' "$tmp/notify.log" ||
	fail "no READY=1 with STATUS: $(cat "$tmp/notify.log")"
for _ in $(seq 30); do grep -q '^WATCHDOG=1' "$tmp/notify.log" && break; sleep 0.1; done
grep -q '^WATCHDOG=1' "$tmp/notify.log" || fail "no WATCHDOG=1: $(cat "$tmp/notify.log")"
kill -HUP "$pid2"
for _ in $(seq 50); do grep -q 'STATUS=reloaded' "$tmp/notify.log" && break; sleep 0.1; done
grep -q '^RELOADING=1 MONOTONIC_USEC=[0-9]*' "$tmp/notify.log" || fail "no RELOADING=1"
sed -n '/^RELOADING=1/,$p' "$tmp/notify.log" | grep -q '^READY=1 STATUS=reloaded' ||
	fail "no READY=1 after RELOADING=1: $(cat "$tmp/notify.log")"
kill -TERM "$pid2"
for _ in $(seq 100); do kill -0 "$pid2" 2>/dev/null || break; sleep 0.05; done
kill -0 "$pid2" 2>/dev/null && fail "roced -b did not stop"
pid2=""
grep -q '^STOPPING=1' "$tmp/notify.log" || fail "no STOPPING=1"
"$IP" netns exec "$ns2" "$TC" qdisc show dev swp1 | grep -q 4791: &&
	fail "--cleanup-on-exit left roced's qdiscs"
[ -e "/run/roced/roced.$ino2.pid" ] && fail "pid file left behind"
[ -e "/run/roced/roced.$ino2.sock" ] && fail "socket left behind"
grep -q 'removed roced' "$tmp/log2" || fail "no cleanup message: $(cat "$tmp/log2")"
echo "ok: roced -b ready on return; READY/STATUS/WATCHDOG/RELOADING/STOPPING sent; --cleanup-on-exit removed its objects"

t_stop "$pid" TERM || fail "roced exited with an error"
pid=""
in_ns "$TC" qdisc show dev swp1 | grep -q 'htb 4791: root' || fail "SIGTERM removed the state"
[ -e "$sock" ] && fail "the control socket was left behind"
echo "PASS: ctl_socket"
