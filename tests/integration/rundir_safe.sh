#!/bin/sh
# rundir_safe: roced's state directory and the files it writes as root
# cannot be steered by another user. Each case runs roced in a private
# mount namespace with a tmpfs on /run (so the real /run/roced and other
# tests' roced are never touched) and a private network namespace with
# one veth port whose MTU roced raises (so it writes its .mtu file):
#   absent      /run/roced is created 0755 root:root;
#   worldw      a world-writable /run/roced (sticky, as /tmp) is refused
#               with a clear error, and an unprivileged user's symbolic
#               link planted in it (the attack: roced.<ns>.mtu.new ->
#               a root-owned 0600 file) never has its target written;
#   groupw, owner, symlink   a group-writable one, one owned by nobody,
#               and a symbolic link instead of a directory are refused;
#   links       in a proper /run/roced, links planted (before it was
#               closed) at the pid file, .mtu.new and .pfcwd.new are
#               replaced, never written through; `copy running-config
#               startup-config` with a link at roced.conf.bak replaces
#               the link, never writes its target;
#   readonly    a read-only /run/roced says it cannot bind the socket,
#               never "cannot remove the stale socket" (there is none).
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
t_init rundir_safe
t_need_root
command -v unshare >/dev/null || t_skip "unshare (util-linux) is missing"
command -v setpriv >/dev/null || t_skip "setpriv (util-linux) is missing"
[ -x "$rocesh" ] || t_skip "rocesh is not built"
tmp=$t_tmp
chmod 755 "$tmp"
t_conf_ports "$tmp/roced.conf" eth0
echo secret >"$tmp/target"
chmod 600 "$tmp/target"

# The inner script: runs in the private namespaces, as root.
cat >"$tmp/inner.sh" <<'INNER'
set -eu
case=$1 roced=$2 rocesh=$3 tmp=$4
mount -t tmpfs -o mode=755 tmpfs /run
ip link set lo up
ip link add eth0 type veth peer name pe0
ip link set eth0 up
ip link set pe0 up
ino=$(stat -L -c %i /proc/self/ns/net)
st=/run/roced/roced.$ino
plant() { setpriv --reuid=65534 --regid=65534 --clear-groups ln -s "$tmp/target" "$1"; }
expect_refusal() {
	if "$roced" -f "$tmp/roced.conf" -b >"$tmp/out.$case" 2>&1; then
		echo "FAIL: roced started in an unsafe /run/roced"; exit 1
	fi
	cat "$tmp/out.$case"
	grep -q -- "$1" "$tmp/out.$case" || { echo "FAIL: no /$1/"; exit 1; }
}
start() {
	"$roced" -f "$tmp/roced.conf" -b --cleanup-on-exit >"$tmp/out.$case" 2>&1 ||
		{ cat "$tmp/out.$case"; echo "FAIL: roced did not start"; exit 1; }
	pid=$(cat "$st.pid")
}
stop() {
	kill "$pid"
	while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
}
case $case in
absent)
	start
	[ "$(stat -c '%a %u %g' /run/roced)" = "755 0 0" ] ||
		{ stat /run/roced; echo "FAIL: /run/roced made wrong"; exit 1; }
	stop ;;
worldw)
	mkdir -m 1777 /run/roced
	plant "$st.mtu.new"
	plant "$st.pid"
	expect_refusal "writable by others (mode 1777)" ;;
groupw)
	mkdir -m 775 /run/roced
	expect_refusal "writable by its group" ;;
owner)
	mkdir -m 755 /run/roced
	chown 65534 /run/roced
	expect_refusal "owned by uid 65534, not root" ;;
symlink)
	mkdir -m 755 /run/elsewhere
	ln -s /run/elsewhere /run/roced
	expect_refusal "is not a directory" ;;
links)
	mkdir -m 1777 /run/roced
	for f in "$st.pid" "$st.mtu.new" "$st.mtu" "$st.pfcwd.new"; do
		plant "$f"
	done
	ln -s "$tmp/target" "$tmp/roced.conf.bak"
	chmod 755 /run/roced
	start
	[ -f "$st.pid" ] && [ ! -L "$st.pid" ] || { echo "FAIL: pid file"; exit 1; }
	for _ in $(seq 100); do [ -f "$st.mtu" ] && [ ! -L "$st.mtu" ] && break; sleep 0.1; done
	[ ! -L "$st.mtu" ] || { echo "FAIL: .mtu is still the link"; exit 1; }
	grep -q "^eth0 1500" "$st.mtu" || { cat "$st.mtu"; echo "FAIL: no MTU saved"; exit 1; }
	"$rocesh" -c 'copy running-config startup-config' ||
		{ echo "FAIL: copy running-config startup-config"; exit 1; }
	[ -f "$tmp/roced.conf.bak" ] && [ ! -L "$tmp/roced.conf.bak" ] ||
		{ echo "FAIL: .bak"; exit 1; }
	stop ;;
readonly)
	mkdir -m 755 /run/roced
	mount -o remount,ro /run
	# In the foreground: the socket is the first thing written.
	if timeout 60 "$roced" -f "$tmp/roced.conf" >"$tmp/out.$case" 2>&1; then
		echo "FAIL: roced ran on a read-only /run/roced"; exit 1
	fi
	cat "$tmp/out.$case"
	grep -q "cannot bind /run/roced/roced.*Read-only" "$tmp/out.$case" ||
		{ echo "FAIL: no 'cannot bind'"; exit 1; }
	if grep -q "stale" "$tmp/out.$case"; then
		echo "FAIL: a stale socket that is not there"; exit 1
	fi ;;
esac
echo "ok: $case"
INNER

for c in absent worldw groupw owner symlink links readonly; do
	t_run unshare -m -n --propagation private sh "$tmp/inner.sh" "$c" \
		"$roced" "$rocesh" "$tmp" >"$tmp/run.$c" 2>&1 ||
		{ cat "$tmp/run.$c"; t_fail "case $c"; }
	cat "$tmp/run.$c"
	[ "$(cat "$tmp/target")" = secret ] ||
		t_fail "case $c: the link's target was written"
	[ "$(stat -c '%a %u' "$tmp/target")" = "600 0" ] ||
		t_fail "case $c: the link's target changed its mode or owner"
done
echo "ok: rundir_safe"
