#!/bin/sh
# debian_pkg.sh: the Debian package, as a fleet installs it.
#   1. scripts/build-deb.sh builds roced_VERSION_ARCH.deb from a copy of
#      this tree (`dpkg-buildpackage -us -uc -b`, the unit tests on the
#      way) in the test's directory, never beside the clone; its version
#      is configure's;
#   2. lintian reports no error and no warning on its .changes (each
#      override is argued in debian/);
#   3. the .deb holds roced, rocesh, roced.service, the three man pages,
#      the host profile and /etc/roced/roced.conf, its one conffile,
#      which is conf/roced.conf; and, under /usr/share/roced, the
#      Prometheus rules, the Grafana dashboard and the Ansible
#      collection, each the tree's file;
#   4. installed with apt-get in a fresh Debian booted with systemd as
#      PID 1 (the root and container of systemd_pid1.sh, nspawn_lib.sh)
#      that has no swp1 yet: roced.service is enabled and running; swp1,
#      created then, gets exactly roced's plan; rocesh reaches roced;
#      lldpad (only suggested: roced loads its library when asked) is
#      not installed with it, and no lldpad unit is enabled or running;
#      show version and roced_build_info give the tree's version
#      (scripts/version.sh: git describe, handed to the package build);
#      node_exporter's textfile directory, absent before, is there
#      (the unit makes it before roced starts, so that ReadWritePaths=
#      takes it), and a metrics textfile set there by a reload is
#      written; the installed files and running services are printed;
#   5. roced.conf edited (MTU 9000, reloaded), then an upgrade to a
#      rebuild of a higher version: the edited file stays byte for byte
#      with nothing beside it (no .dpkg-dist, no .dpkg-new), and the
#      restarted roced runs on it and finds nothing to write;
#   6. `apt-get purge`: the package, /etc/roced (the conffile and the
#      roced.conf.bak of `copy running-config startup-config`), /run/roced
#      and the unit's enablement are gone, and no roced runs; swp1 gets
#      back the MTU it had before roced (from roced's record in
#      /run/roced, which the purge removes; apt's output says so) and
#      keeps the rest of the policy, as after every stop (README.Debian
#      says so).
# Prints the time of each build and lintian's output (measurements, not
# asserted).
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
. "$top_srcdir/tests/integration/plan_lib.sh"
. "$top_srcdir/tests/integration/nspawn_lib.sh"
t_init debian_pkg
t_need_root
sd_need
for c in dpkg-buildpackage dh fakeroot lintian; do
	command -v "$c" >/dev/null ||
		t_skip "$c is missing (scripts/install-deps.sh --test installs dpkg-dev, debhelper, fakeroot, lintian)"
done
tmp=$t_tmp
# The builds and lintian keep what they write in the test's directory.
mkdir "$tmp/home"
export HOME="$tmp/home" TMPDIR="$tmp"
load() { cut -d' ' -f1-3 /proc/loadavg; }

# --- 1. the package, built twice: the second for the upgrade -----------
t_show_on_fail "scripts/build-deb.sh (tail)" "$tmp/build.tail"
build()
{
	"$top_srcdir/scripts/build-deb.sh" "$@" 2>"$tmp/build.log" || {
		tail -n 60 "$tmp/build.log" >"$tmp/build.tail"
		return 1
	}
}
t0=$(date +%s)
deb1=$(build "$tmp/v1") || t_fail "scripts/build-deb.sh failed"
echo "built $deb1 in $(($(date +%s) - t0)) s (load $(load))"
case $deb1 in "$tmp/v1/"*.deb) ;; *) t_fail "build-deb.sh printed '$deb1', not a .deb in $tmp/v1" ;; esac
[ -f "$deb1" ] || t_fail "build-deb.sh printed $deb1, which does not exist"
# The unit tests ran in the build (automake's summary).
grep -qE '^# PASS: +[1-9]' "$tmp/build.log" || t_fail "no unit test passed in the package build"
grep -qE '^# FAIL: +0$' "$tmp/build.log" || t_fail "a unit test failed in the package build"
echo "unit tests in the package build: $(sed -n 's/^# PASS: *//p' "$tmp/build.log") passed"
v1=$(dpkg-deb -f "$deb1" Version)
# roced alone: lldpad (liblldp_clif's home) only suggested, loaded by
# roced when `dcbx agent lldpad` asks for it.
case ", $(dpkg-deb -f "$deb1" Depends), " in *", lldpad"[\ ,]*)
	t_fail "the package depends on lldpad: $(dpkg-deb -f "$deb1" Depends)" ;; esac
case ", $(dpkg-deb -f "$deb1" Suggests), " in *", lldpad, "*) ;; *)
	t_fail "the package does not suggest lldpad: $(dpkg-deb -f "$deb1" Suggests)" ;; esac
acver=$(sed -n 's/^AC_INIT(\[roced\], \[\([^]]*\)\].*/\1/p' "$top_srcdir/configure.ac")
# The version roced reports: the tree's (the build copied the tree then).
treever=$(sh "$top_srcdir/scripts/version.sh" "$top_srcdir" "$acver")
case $v1 in "$acver" | "$acver"[-+~]*) ;; *)
	t_fail "the package's version $v1 is not configure.ac's $acver (debian/changelog)" ;;
esac
# Nothing was written beside the clone, where dpkg-buildpackage puts
# what it builds from a source in place.
beside=$(find "$top_srcdir/.." -maxdepth 1 -name 'roced_*' -newer "$tmp/home" 2>/dev/null || true)
[ -z "$beside" ] || t_fail "the build wrote beside the clone: $beside"

v2="$v1+upgradetest1"
dpkg --compare-versions "$v2" gt "$v1" || t_fail "$v2 does not sort after $v1"
t0=$(date +%s)
deb2=$(DEB_BUILD_OPTIONS=nocheck build --version "$v2" "$tmp/v2") ||
	t_fail "scripts/build-deb.sh --version $v2 failed"
echo "built $deb2 in $(($(date +%s) - t0)) s, unit tests skipped (load $(load))"
[ "$(dpkg-deb -f "$deb2" Version)" = "$v2" ] || t_fail "$deb2 is not version $v2"

# --- 2. lintian -----------------------------------------------------------
changes=${deb1%.deb}.changes
[ -f "$changes" ] || t_fail "build-deb.sh left no $changes"
t0=$(date +%s)
rc=0
# Not --fail-on: with --show-overrides, lintian counts an overridden tag
# at its own level, so an argued override of a warning would fail. The
# tags that are not overridden are the E: and W: lines; O: lines are
# overridden (each argued in debian/roced.lintian-overrides).
lintian --fail-on none --display-info --show-overrides "$changes" >"$tmp/lintian" 2>&1 || rc=$?
echo "lintian $(lintian --version | sed 's/^Lintian v//') on ${changes##*/} ($(($(date +%s) - t0)) s):"
if [ -s "$tmp/lintian" ]; then sed 's/^/  /' "$tmp/lintian"; else echo "  (no tags)"; fi
[ "$rc" = 0 ] || t_fail "lintian failed (exit status $rc)"
! grep -q '^[EW]: ' "$tmp/lintian" || t_fail "lintian: errors or warnings (above)"

# --- 3. what the .deb holds -----------------------------------------------
dpkg-deb -c "$deb1" | awk '{ print $6 }' | sed 's|^\./|/|' >"$tmp/contents"
for f in /usr/sbin/roced /usr/bin/rocesh /etc/roced/roced.conf \
	/usr/share/man/man8/roced.8.gz /usr/share/man/man8/rocesh.8.gz \
	/usr/share/man/man5/roced.conf.5.gz /usr/share/roced/roced-host.conf \
	/usr/share/roced/nxos-roce.txt; do
	grep -qx "$f" "$tmp/contents" || t_fail "the .deb has no $f"
done
unit=$(grep -E '^(/usr)?/lib/systemd/system/roced\.service$' "$tmp/contents") ||
	t_fail "the .deb has no roced.service in systemd's unit directory"
dpkg-deb -e "$deb1" "$tmp/control1"
[ "$(cat "$tmp/control1/conffiles")" = /etc/roced/roced.conf ] ||
	t_fail "the conffiles are '$(cat "$tmp/control1/conffiles")', not /etc/roced/roced.conf"
dpkg-deb -x "$deb1" "$tmp/x1"
cmp -s "$tmp/x1/etc/roced/roced.conf" "$top_srcdir/conf/roced.conf" ||
	t_fail "the .deb's roced.conf is not conf/roced.conf"
grep -q '^ExecStart=/usr/sbin/roced -f /etc/roced/roced.conf ' "$tmp/x1$unit" ||
	t_fail "the unit does not run /usr/sbin/roced on /etc/roced/roced.conf: $(grep ExecStart= "$tmp/x1$unit")"
# The fleet's pieces: the rules, the dashboard, the Ansible collection.
for f in prometheus/roced.rules.yml prometheus/roced.rules.test.yml \
	prometheus/README.md grafana/roced-fabric.json ansible/README.md \
	ansible/examples/rollout.yml \
	ansible/ansible_collections/roced/fabric/galaxy.yml \
	ansible/ansible_collections/roced/fabric/plugins/modules/roced_config.py \
	ansible/ansible_collections/roced/fabric/plugins/modules/roced_facts.py \
	ansible/ansible_collections/roced/fabric/roles/install/tasks/main.yml; do
	case $f in ansible/*) src=contrib/ansible/${f#ansible/} ;; *) src=contrib/$f ;; esac
	cmp -s "$tmp/x1/usr/share/roced/$f" "$top_srcdir/$src" ||
		t_fail "the .deb's /usr/share/roced/$f is not the tree's $src"
done
# (what git holds of it: a run of the collection leaves __pycache__)
n=$(cd "$top_srcdir/contrib/ansible/ansible_collections" &&
	{ git ls-files . 2>/dev/null || find . -type f -not -path '*/__pycache__/*'; } | wc -l)
m=$(cd "$tmp/x1/usr/share/roced/ansible/ansible_collections" && find . -type f | wc -l)
[ "$n" = "$m" ] || t_fail "the .deb holds $m files of the Ansible collection, the tree $n"
grep -qx 'ExecStartPre=+/bin/mkdir -p /var/lib/prometheus/node-exporter' "$tmp/x1$unit" ||
	t_fail "the unit does not make node_exporter's textfile directory before roced starts"
echo "the .deb: $(wc -l <"$tmp/contents") entries, unit $unit, conffile /etc/roced/roced.conf"
echo "  under /usr/share/roced: $(grep -c '^/usr/share/roced/.*[^/]$' "$tmp/contents") files (rules, dashboard, the Ansible collection's $m)"
echo "  Depends: $(dpkg-deb -f "$deb1" Depends)"

# --- 4. install in a fresh Debian -----------------------------------------
root=$tmp/root
sd_root "$root"
cp "$deb1" "$deb2" "$root/root/"
t_netns_add ns pkg
"$IP" -n "$ns" link set lo up
t_netns_add peer pkg-peer
tp_plan "$tmp/x1/etc/roced/roced.conf" swp1
sd_boot "$root" "$ns"

capt() { ct env DEBIAN_FRONTEND=noninteractive apt-get -y "$@" </dev/null; }
prop() { ct systemctl show -P "$1" roced.service; }
journal() { ct journalctl -u roced.service -o cat --no-pager >"$tmp/journal" 2>&1 || true; }
t_show_on_fail "journal of roced.service" "$tmp/journal"
running() { [ "$(prop ActiveState)/$(prop SubState)" = active/running ]; }
mtu() { "$IP" -n "$ns" -j link show dev swp1 | python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["mtu"])'; }
plan_ok()
{
	bad=$(tp_check "$ns" swp1)
	[ -z "$bad" ] && return 0
	cat "$t_tmp/tp.diff.swp1"
	return 1
}
plan_held() { [ -z "$(tp_check "$ns" swp1)" ]; }

nedir=/var/lib/prometheus/node-exporter
nebefore=absent
ct test -e "$nedir" && nebefore=present
capt install --no-install-recommends "/root/${deb1##*/}" >"$tmp/apt1" 2>&1 ||
	{ cat "$tmp/apt1"; t_fail "apt-get install /root/${deb1##*/} failed"; }
[ "$(ct dpkg-query -W -f='${Status} ${Version}' roced)" = "install ok installed $v1" ] ||
	t_fail "after the install dpkg says: $(ct dpkg-query -W -f='${Status} ${Version}' roced)"
[ "$(ct systemctl is-enabled roced.service)" = enabled ] ||
	t_fail "roced.service is $(ct systemctl is-enabled roced.service || true) after the install, not enabled"
t_until 60 running || { journal; t_fail "roced.service is $(prop ActiveState)/$(prop SubState) after the install"; }
pid1=$(prop MainPID)
echo "install ($v1): roced.service enabled and running without swp1 (STATUS='$(prop StatusText)')"
# The port appears: roced programs it with its plan.
"$IP" -n "$ns" link add swp1 type veth peer name h1 netns "$peer"
"$IP" -n "$ns" link set swp1 up
"$IP" -n "$peer" link set h1 up
t_until 60 plan_held || { journal; plan_ok || t_fail "swp1 did not get roced's plan once it appeared"; }
ct rocesh -c 'show queuing interface' >"$tmp/show" 2>&1 || t_fail "rocesh: $(cat "$tmp/show")"
grep -q 'Egress Queuing for .*(swp1)' "$tmp/show" || t_fail "rocesh show: $(cat "$tmp/show")"
echo "swp1 appeared: it holds roced's plan ($(tp_summary swp1)); rocesh reaches roced"
# The install brought roced alone: no lldpad, so no second LLDP agent
# started beside roced's own (README.Debian).
if ct dpkg-query -W -f='${Status}' lldpad 2>/dev/null | grep -q 'ok installed'; then
	t_fail "installing roced installed lldpad"
fi
for u in lldpad.service lldpad.socket; do
	case $(ct systemctl is-enabled "$u" 2>/dev/null || true) in
	enabled* | static | linked*) t_fail "$u is enabled after roced's install" ;;
	esac
	[ "$(ct systemctl is-active "$u" 2>/dev/null || true)" != active ] ||
		t_fail "$u is active after roced's install"
done
! ct sh -c 'grep -lx lldpad /proc/[0-9]*/comm' >/dev/null 2>&1 || t_fail "an lldpad runs after roced's install"
echo "lldpad: not installed with roced (only suggested), no lldpad unit enabled or active, no lldpad process"
echo "installed files (dpkg -L roced, directories left out):"
ct sh -c 'dpkg -L roced | while read -r f; do [ -d "$f" ] || echo "$f"; done' >"$tmp/installed"
grep -v '^/usr/share/roced/ansible/ansible_collections/' "$tmp/installed" | sed 's/^/  /'
echo "  and $(grep -c '^/usr/share/roced/ansible/ansible_collections/' "$tmp/installed") files of the Ansible collection under /usr/share/roced/ansible/ansible_collections"
echo "running services: $(ct systemctl list-units --type=service --state=running --no-legend --plain | awk '{ print $1 }' | paste -sd' ' -)"
# The version: the tree's, in show version and in roced_build_info.
ver=$(ct rocesh -c 'show version json' | python3 -c 'import json, sys; print(json.load(sys.stdin)["version"])') ||
	t_fail "show version json failed"
[ "$ver" = "$treever" ] || t_fail "show version says $ver, the tree is $treever"
bi=$(ct rocesh -c 'show metrics' | grep '^roced_build_info{') || t_fail "show metrics has no roced_build_info"
[ "$bi" = "roced_build_info{version=\"$treever\"} 1" ] || t_fail "show metrics: '$bi', not version $treever"
echo "version: show version and roced_build_info say $ver (the tree's; configure's is $acver)"
# node_exporter's textfile directory: made by the unit before roced
# started, so roced may write there, and node_exporter installed later
# finds it; a textfile set there by a reload is written.
ct test -d "$nedir" || t_fail "no $nedir after roced started (the unit's ExecStartPre)"
echo "metrics = { textfile = \"$nedir/roced.prom\"; interval = 1; };" >>"$root/etc/roced/roced.conf"
ct timeout 120 systemctl reload roced.service >"$tmp/reload0" 2>&1 ||
	{ journal; t_fail "systemctl reload with the metrics textfile failed: $(cat "$tmp/reload0")"; }
textfile() { ct grep -q "^roced_build_info{version=\"$treever\"} 1\$" "$nedir/roced.prom"; }
t_until 20 textfile || { journal; t_fail "roced did not write $nedir/roced.prom after the reload"; }
echo "metrics: $nedir $nebefore before the install, made by the unit; the textfile a reload set is written there"

# --- 5. an edited conffile across an upgrade ------------------------------
conf=$root/etc/roced/roced.conf
{ sed 's/mtu = 9216;/mtu = 9000;/' "$conf"; echo '# edited by the administrator'; } >"$conf.new"
mv "$conf.new" "$conf"
cp "$conf" "$tmp/edited.conf"
ct timeout 120 systemctl reload roced.service >"$tmp/reload" 2>&1 ||
	{ journal; t_fail "systemctl reload of the edited file failed: $(cat "$tmp/reload")"; }
[ "$(mtu)" = 9000 ] || t_fail "after the reload swp1 has MTU $(mtu), not 9000"

capt install --no-install-recommends "/root/${deb2##*/}" >"$tmp/apt2" 2>&1 ||
	{ cat "$tmp/apt2"; t_fail "apt-get install of the upgrade failed"; }
[ "$(ct dpkg-query -W -f='${Status} ${Version}' roced)" = "install ok installed $v2" ] ||
	t_fail "after the upgrade dpkg says: $(ct dpkg-query -W -f='${Status} ${Version}' roced)"
cmp -s "$tmp/edited.conf" "$conf" || {
	diff -u "$tmp/edited.conf" "$conf" || true
	t_fail "the upgrade changed the edited roced.conf"
}
beside=$(ls -A "$root/etc/roced" | grep -vx 'roced.conf' || true)
[ -z "$beside" ] || t_fail "after the upgrade /etc/roced also holds: $beside"
t_until 60 running || { journal; t_fail "roced.service is $(prop ActiveState)/$(prop SubState) after the upgrade"; }
[ "$(prop MainPID)" != "$pid1" ] || t_fail "the upgrade did not restart roced onto the new binary"
status=$(prop StatusText)
echo "$status" | grep -qE '^1 port, 0 writes' || t_fail "after the upgrade roced says '$status', not 1 port, 0 writes"
[ "$(mtu)" = 9000 ] || t_fail "after the upgrade swp1 has MTU $(mtu), not the edited 9000"
[ "$(ct systemctl is-enabled roced.service)" = enabled ] || t_fail "roced.service is no longer enabled after the upgrade"
echo "upgrade ($v1 -> $v2): the edited roced.conf kept byte for byte, nothing beside it; roced restarted on it (STATUS='$status'), swp1 MTU 9000"

# --- 6. purge -------------------------------------------------------------
ct rocesh -c 'copy running-config startup-config' >"$tmp/copy" 2>&1 ||
	t_fail "copy running-config startup-config: $(cat "$tmp/copy")"
[ -f "$root/etc/roced/roced.conf.bak" ] || t_fail "copy running-config startup-config left no roced.conf.bak"
ct test -d /run/roced || t_fail "no /run/roced while roced runs"
before=$(tp_port_state "$ns" swp1 | grep -v '^mtu ')
# roced.mtu, or roced.INODE.mtu where roced does not take the
# container's namespace for the host's
oldmtu=$(ct sh -c 'cat /run/roced/roced.mtu /run/roced/roced.[0-9]*.mtu 2>/dev/null' |
	sed -n 's/^swp1 \([0-9]*\)$/\1/p' | head -n 1)
[ -n "$oldmtu" ] || t_fail "no record of swp1's MTU in /run/roced: $(ct ls -la /run/roced 2>&1)"
capt purge roced >"$tmp/apt3" 2>&1 || { cat "$tmp/apt3"; t_fail "apt-get purge roced failed"; }
grep "^roced: " "$tmp/apt3" || true
# The container's root has no iproute2 and its sysfs shows no swp1: the
# purge must then say why swp1 keeps its MTU; with either, give it back.
if ct sh -c 'command -v ip' >/dev/null || ct test -e /sys/class/net/swp1/mtu; then
	grep -qx "roced: gave swp1 its MTU $oldmtu back" "$tmp/apt3" || t_fail "the purge does not say it gave swp1 its MTU back"
	[ "$(mtu)" = "$oldmtu" ] || t_fail "after the purge swp1 has MTU $(mtu), not its $oldmtu of before roced"
	given="has its MTU $oldmtu back"
else
	grep -q "^roced: swp1: its MTU $oldmtu is not given back: " "$tmp/apt3" ||
		t_fail "the purge neither gave swp1 its MTU back nor said why"
	given="keeps MTU $(mtu): the purge said why (no ip, no swp1 in the container's sysfs)"
fi
st=$(ct dpkg-query -W -f='${Status}' roced 2>/dev/null || true)
case $st in "" | *not-installed) ;; *) t_fail "after the purge dpkg says '$st'" ;; esac
for p in /etc/roced /run/roced /var/lib/roced /usr/sbin/roced /usr/bin/rocesh \
	/etc/systemd/system/multi-user.target.wants/roced.service; do
	! ct test -e "$p" || t_fail "the purge left $p: $(ct ls -la "$p" 2>&1 | head -n 5)"
done
if [ "$nebefore" = absent ]; then
	! ct test -e "$nedir" || t_fail "the purge left $nedir, which the unit made: $(ct ls -la "$nedir" 2>&1 | head -n 5)"
fi
left=$(ct sh -c 'grep -lx roced /proc/[0-9]*/comm 2>/dev/null' || true)
[ -z "$left" ] || t_fail "a roced still runs after the purge: $left"
[ "$(tp_port_state "$ns" swp1 | grep -v '^mtu ')" = "$before" ] || t_fail "the removal changed swp1 beyond its MTU"
echo "purge: no roced package, /etc/roced (with roced.conf.bak), /run/roced and the unit's link gone, no roced running; swp1 $given, and keeps the rest of the policy"

sd_poweroff
echo "PASS: debian_pkg"
