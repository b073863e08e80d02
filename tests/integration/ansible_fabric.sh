#!/bin/sh
# ansible_fabric: the roced.fabric collection (contrib/ansible) with
# Debian's ansible-core against a fabric of three switches. Each switch
# is a network namespace with its own veth port and its own roced, and a
# host namespace behind that port runs roced as its DCBX peer; Ansible
# reaches each switch through the collection's netns connection.
#   - the first run of roced_config (ETS 50/50 -> 60/40) is changed on
#     all three, and their kernels hold the new rates;
#   - the second run of the same file is changed=0 on all three, and
#     roced itself counts 0 kernel writes on each across it (ping's
#     "writes" before and after); its PLAY RECAP is printed;
#   - check mode with another file is changed, --diff shows the plan
#     lines, and nothing changes: file, kernel writes, tc classes;
#   - a file roced refuses for sw2 fails sw2 alone, naming sw2 and the
#     FILE:LINE of the error; sw2 keeps its file, its running
#     configuration and its kernel state, sw1 and sw3 take their change;
#   - roced_facts from all three shows each switch's DCBX peer (its host);
#   - contrib/ansible/examples/rollout.yml, the README's example as it is
#     written there, rolls a change one switch at a time;
#   - the install role with the .deb this tree builds, or the one ROCED_DEB
#     names (in check mode unless ROCED_DEB_INSTALL=yes, which installs it
#     and purges it after).
# Ansible's own files (ANSIBLE_HOME, its local and remote temporary
# directories, HOME) stay in the test's temporary directory.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
t_init ansible_fabric
t_need_root
command -v ansible-playbook >/dev/null ||
	t_skip "ansible-playbook is missing (scripts/install-deps.sh --test installs ansible-core)"
[ -x "$rocesh" ] || t_skip "rocesh is not built"
tmp=$t_tmp
bdir=$(cd "$(dirname "$roced")" && pwd)
roced=$bdir/roced
fix=$top_srcdir/tests/fixtures/dcbx
coll=$top_srcdir/contrib/ansible
ctl="$top_srcdir/tests/integration/ctl_client.py"

mkdir -p "$tmp/home" "$tmp/ansible-home" "$tmp/ansible-local" "$tmp/ansible-remote"
printf '[defaults]\n' >"$tmp/ansible.cfg"
# Ansible's programs with their files in $tmp, as a script (t_run stops a
# program, not a shell function). The build directory comes first in
# PATH: the README's rollout finds roced there, as it finds the installed
# one on a switch.
cat >"$tmp/ans.sh" <<EOF
exec env HOME="$tmp/home" ANSIBLE_HOME="$tmp/ansible-home" \\
	ANSIBLE_LOCAL_TEMP="$tmp/ansible-local" \\
	ANSIBLE_REMOTE_TEMP="$tmp/ansible-remote" \\
	ANSIBLE_PERSISTENT_CONTROL_PATH_DIR="$tmp/ansible-home/pc" \\
	ANSIBLE_CONFIG="$tmp/ansible.cfg" ANSIBLE_COLLECTIONS_PATH="$coll" \\
	ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0 \\
	ANSIBLE_DEPRECATION_WARNINGS=0 PYTHONDONTWRITEBYTECODE=1 \\
	LC_ALL=C.UTF-8 PATH="$bdir:\$PATH" \\
	"\$@"
EOF

# Every plugin's documentation parses (ansible-doc reads it as YAML).
for p in "module roced.fabric.roced_config" "module roced.fabric.roced_facts" \
	"connection roced.fabric.netns" "role roced.fabric.install"; do
	# shellcheck disable=SC2086 # "TYPE NAME"
	set -- $p
	t_run sh "$tmp/ans.sh" ansible-doc -t "$1" "$2" >"$tmp/doc" 2>&1 ||
		{ cat "$tmp/doc"; t_fail "ansible-doc cannot read $1 $2"; }
done

# --- the fabric ---
for i in 1 2 3; do
	t_veth_link "sw$i" "afsw$i" swp1 "h$i" "afh$i" eth0
	mkdir -p "$tmp/sw$i"
	cp "$fix/switch.conf" "$tmp/sw$i/roced.conf"
done

# start WHO NS CONF: roced in NS, ready (its first apply mirrored).
start() {
	t_show_on_fail "$1 roced log" "$tmp/$1.log"
	t_spawn "$IP" netns exec "$2" "$roced" -f "$3" >"$tmp/$1.log" 2>&1
	t_until 30 grep -q "mirroring roced's tc objects" "$tmp/$1.log" ||
		t_fail "$1: roced did not start"
}
for i in 1 2 3; do
	eval "ns=\$sw$i hns=\$h$i"
	start "sw$i" "$ns" "$tmp/sw$i/roced.conf"
	start "h$i" "$hns" "$fix/host.conf"
done

{
	echo "[fabric]"
	for i in 1 2 3; do eval "echo sw$i ansible_netns=\$sw$i"; done
	echo "[fabric:vars]"
	echo "ansible_connection=roced.fabric.netns"
	echo "ansible_python_interpreter=/usr/bin/python3"
	echo "roced_bin=$roced"
} >"$tmp/fabric.ini"
cat >"$tmp/config.yml" <<'EOF'
- name: roced policy
  hosts: fabric
  gather_facts: false
  tasks:
    - name: The policy file
      roced.fabric.roced_config:
        src: "{{ lookup('vars', 'conf_' ~ inventory_hostname, default=conf) }}"
        roced_bin: "{{ roced_bin }}"
      register: cfg
    - name: What roced said
      ansible.builtin.debug:
        msg: "plan_changed={{ cfg.plan_changed }} file_changed={{ cfg.file_changed }} ports_changed={{ cfg.ports_changed }} writes={{ cfg.writes }} writes_total={{ cfg.writes_total }}"
EOF

# The policies: ETS shares of q3 / q-default.
policy() { # OUT Q3 QDEFAULT
	sed -e "s/\"c-out-8q-q3\"; bandwidth-remaining-percent = 50;/\"c-out-8q-q3\"; bandwidth-remaining-percent = $2;/" \
		-e "s/\"c-out-8q-q-default\"; bandwidth-remaining-percent = 50;/\"c-out-8q-q-default\"; bandwidth-remaining-percent = $3;/" \
		"$fix/switch.conf" >"$1"
	grep -q "bandwidth-remaining-percent = $2;" "$1" ||
		t_fail "the DCBX switch fixture changed: cannot write the $2/$3 policy"
}
policy "$tmp/pol-b.conf" 60 40
policy "$tmp/pol-c.conf" 70 30
policy "$tmp/pol-d.conf" 80 20
policy "$tmp/pol-e.conf" 90 10
sed 's/queuing-output = "QUE"/queuing-output = "NOSUCH"/' "$tmp/pol-c.conf" >"$tmp/bad.conf"
badline=$(grep -n NOSUCH "$tmp/bad.conf" | cut -d: -f1)
[ -n "$badline" ] || t_fail "could not write the broken file"

# writes NS: roced's kernel writes since it started.
writes() {
	"$IP" netns exec "$1" python3 "$ctl" send '{"cmd":"ping"}' |
		python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["writes"])'
}
all_writes() {
	for i in 1 2 3; do eval "writes \$sw$i"; done | tr '\n' ' '
}
classes() { # NS: roced's tc classes on swp1, as tc prints them
	"$IP" netns exec "$1" "$TC" class show dev swp1 | sort
}
recap() { sed -n '/^PLAY RECAP/,$p' "$1" | grep -E '^sw[0-9] '; }
# recap_is OUT HOST KEY VALUE
recap_is() {
	recap "$1" | grep -E "^$2 " | grep -qE "[[:space:]]$3=$4[[:space:]]" ||
		{ cat "$1"; t_fail "$2: expected $3=$4 in the PLAY RECAP"; }
}
run_play() { # OUT ARGS...: ansible-playbook, its status in $rc
	_out=$1
	shift
	rc=0
	t_run sh "$tmp/ans.sh" ansible-playbook -i "$tmp/fabric.ini" "$@" >"$_out" 2>&1 || rc=$?
}

for i in 1 2 3; do eval "classes \$sw$i" >"$tmp/cls-a.$i"; done

# --- 1. the first run changes every switch ---
run_play "$tmp/run1" "$tmp/config.yml" -e "conf=$tmp/pol-b.conf"
[ "$rc" = 0 ] || { cat "$tmp/run1"; t_fail "the first run failed ($rc)"; }
echo "first run:"
recap "$tmp/run1"
for i in 1 2 3; do
	recap_is "$tmp/run1" "sw$i" changed 1
	cmp -s "$tmp/pol-b.conf" "$tmp/sw$i/roced.conf" || t_fail "sw$i: the file was not installed"
	eval "classes \$sw$i" >"$tmp/cls-b.$i"
	cmp -s "$tmp/cls-a.$i" "$tmp/cls-b.$i" && t_fail "sw$i: the kernel's classes did not change"
done
grep -q 'plan_changed=True' "$tmp/run1" || t_fail "the first run's plan did not change"

# --- 2. the second run: changed=0, 0 kernel writes ---
w0=$(all_writes)
run_play "$tmp/run2" "$tmp/config.yml" -e "conf=$tmp/pol-b.conf"
w1=$(all_writes)
[ "$rc" = 0 ] || { cat "$tmp/run2"; t_fail "the second run failed ($rc)"; }
echo "idempotency run (the same file again), PLAY RECAP:"
recap "$tmp/run2"
echo "kernel writes counted by roced on sw1 sw2 sw3: before $w0, after $w1"
for i in 1 2 3; do
	recap_is "$tmp/run2" "sw$i" changed 0
	recap_is "$tmp/run2" "sw$i" failed 0
done
[ "$w0" = "$w1" ] || t_fail "the second run made kernel writes: $w0 -> $w1"

# --- 3. check mode: changed, the diff shown, nothing written ---
run_play "$tmp/run3" "$tmp/config.yml" -e "conf=$tmp/pol-d.conf" --check --diff
w2=$(all_writes)
[ "$rc" = 0 ] || { cat "$tmp/run3"; t_fail "the check mode run failed ($rc)"; }
for i in 1 2 3; do
	recap_is "$tmp/run3" "sw$i" changed 1
	cmp -s "$tmp/pol-b.conf" "$tmp/sw$i/roced.conf" || t_fail "sw$i: check mode wrote the file"
	eval "classes \$sw$i" >"$tmp/cls-d.$i"
	cmp -s "$tmp/cls-b.$i" "$tmp/cls-d.$i" || t_fail "sw$i: check mode changed the kernel"
done
[ "$w1" = "$w2" ] || t_fail "check mode made kernel writes: $w1 -> $w2"
ls "$tmp"/sw*/.roced.conf.* 2>/dev/null && t_fail "check mode left a candidate file behind"
grep -q '^+class .* dev swp1 ' "$tmp/run3" || { cat "$tmp/run3"; t_fail "check mode's diff shows no changed class line"; }
grep -q '^-class .* dev swp1 ' "$tmp/run3" || { cat "$tmp/run3"; t_fail "check mode's diff shows no removed class line"; }
echo "check mode: changed on all three, 0 writes, the plan diff shown"

# --- 4. a file roced refuses fails that switch alone ---
"$IP" netns exec "$sw2" "$rocesh" -c 'show running-config' >"$tmp/run-sw2.before"
run_play "$tmp/run4" "$tmp/config.yml" -e "conf=$tmp/pol-c.conf" -e "conf_sw2=$tmp/bad.conf"
w3=$(all_writes)
"$IP" netns exec "$sw2" "$rocesh" -c 'show running-config' >"$tmp/run-sw2.after"
[ "$rc" != 0 ] || { cat "$tmp/run4"; t_fail "a refused file did not fail the play"; }
echo "a broken file for sw2:"
recap "$tmp/run4"
grep 'fatal: \[sw2\]' "$tmp/run4" | grep -q "sw2: roced refused $tmp/sw2/roced.conf" ||
	{ cat "$tmp/run4"; t_fail "the failure does not name sw2 and its file"; }
grep 'fatal: \[sw2\]' "$tmp/run4" | grep -q "$tmp/sw2/roced.conf:$badline: error: " ||
	{ cat "$tmp/run4"; t_fail "the failure does not give FILE:LINE ($badline)"; }
grep 'fatal: \[sw2\]' "$tmp/run4" | sed 's/.*"msg": "\([^"]*\)".*/  \1/' | head -3
recap_is "$tmp/run4" sw2 failed 1
for i in 1 3; do
	recap_is "$tmp/run4" "sw$i" changed 1
	recap_is "$tmp/run4" "sw$i" failed 0
	cmp -s "$tmp/pol-c.conf" "$tmp/sw$i/roced.conf" || t_fail "sw$i did not take its file"
done
cmp -s "$tmp/pol-b.conf" "$tmp/sw2/roced.conf" || t_fail "sw2's file changed"
cmp -s "$tmp/run-sw2.before" "$tmp/run-sw2.after" || t_fail "sw2's running configuration changed"
classes "$sw2" >"$tmp/cls-c.2"
cmp -s "$tmp/cls-b.2" "$tmp/cls-c.2" || t_fail "sw2's kernel state changed"
[ "$(echo "$w2" | cut -d' ' -f2)" = "$(echo "$w3" | cut -d' ' -f2)" ] ||
	t_fail "sw2 made kernel writes: $w2 -> $w3"
ls "$tmp"/sw2/.roced.conf.* 2>/dev/null && t_fail "sw2: the candidate file was left behind"

# --- 5. facts from all three show their DCBX peers ---
peer() { # NS: the switch has its DCBX peer
	"$IP" netns exec "$1" "$rocesh" -c 'show lldp dcbx interface swp1 json' |
		python3 -c 'import json,sys; sys.exit(0 if json.load(sys.stdin)["peer"] else 1)'
}
for i in 1 2 3; do
	eval "t_until 40 peer \$sw$i" || t_fail "sw$i: no DCBX peer within 40 s"
done
cat >"$tmp/facts.yml" <<EOF
- name: roced facts
  hosts: fabric
  gather_facts: false
  tasks:
    - name: roced's state
      roced.fabric.roced_facts:
    - name: Keep it for the test
      ansible.builtin.copy:
        content: "{{ roced | to_nice_json }}"
        dest: "$tmp/facts-{{ inventory_hostname }}.json"
        mode: "0600"
EOF
run_play "$tmp/run5" "$tmp/facts.yml"
[ "$rc" = 0 ] || { cat "$tmp/run5"; t_fail "the facts run failed ($rc)"; }
for i in 1 2 3; do
	python3 - "$tmp/facts-sw$i.json" "sw$i" <<'PY' || t_fail "sw$i: the facts do not show its DCBX peer"
import json, sys
f = json.load(open(sys.argv[1]))
d = f['dcbx']['swp1']
assert d['peer'], d
assert d['peer']['port-id'] == 'eth0', d['peer']
assert f['summary']['dcbx_peers'] == 1 and f['summary']['ports'] == 1, f['summary']
assert f['pfc']['interface'][0]['oper'] == 'on', f['pfc']
assert f['pfc_queue']['interface'][0]['name'] == 'swp1', f['pfc_queue']
assert f['version']['writes'] > 0, f['version']
print('%s: DCBX peer %s port %s, pfc %s, summary %s' % (
    sys.argv[2], d['peer'].get('chassis-id'), d['peer']['port-id'],
    d['pfc']['result'], json.dumps(f['summary'], sort_keys=True)))
PY
done

# --- 6. the README's rollout, as written there ---
python3 - "$coll/README.md" "$coll/examples/rollout.yml" <<'PY' || t_fail "the README's rollout is not examples/rollout.yml"
import sys
readme, example = open(sys.argv[1]).read(), open(sys.argv[2]).read()
assert '```yaml\n' + example + '```\n' in readme
PY
run_play "$tmp/run6" "$coll/examples/rollout.yml" -e "roced_conf=$tmp/pol-e.conf" -e settle_seconds=1
[ "$rc" = 0 ] || { cat "$tmp/run6"; t_fail "the rollout failed ($rc)"; }
[ "$(grep -c 'TASK \[The new policy\]' "$tmp/run6")" = 3 ] ||
	{ cat "$tmp/run6"; t_fail "the rollout did not go one switch at a time"; }
for i in 1 2 3; do
	recap_is "$tmp/run6" "sw$i" failed 0
	cmp -s "$tmp/pol-e.conf" "$tmp/sw$i/roced.conf" || t_fail "sw$i did not take the rollout's file"
done
grep -o 'sw[0-9]: no new drops[^"]*' "$tmp/run6" || true
echo "rollout: one switch at a time, each checked"

# --- 7. the install role ---
# With the package this tree builds (scripts/build-deb.sh; the unit tests
# skipped there, the suite runs them): in check mode on this host, whose
# packages the suite must not change (tests/integration/debian_pkg.sh
# installs the same .deb for real, in a container).
if [ -z "${ROCED_DEB:-}" ]; then
	command -v dpkg-buildpackage >/dev/null ||
		t_fail "dpkg-buildpackage is missing (scripts/install-deps.sh --test installs dpkg-dev)"
	t_show_on_fail "build-deb.sh" "$tmp/deb.log"
	ROCED_DEB=$(DEB_BUILD_OPTIONS=nocheck "$top_srcdir/scripts/build-deb.sh" "$tmp/deb" 2>"$tmp/deb.log") ||
		t_fail "scripts/build-deb.sh failed"
	ROCED_DEB_INSTALL=
fi
if [ ! -r "$ROCED_DEB" ]; then
	t_fail "ROCED_DEB=$ROCED_DEB cannot be read"
else
	mode=--check
	if [ "${ROCED_DEB_INSTALL:-}" = yes ]; then
		mode=
		t_defer 'apt-get purge -y roced >/dev/null 2>&1'
	fi
	cat >"$tmp/install.yml" <<EOF
- name: roced from its package
  hosts: sw1
  gather_facts: false
  roles:
    - role: roced.fabric.install
      vars:
        roced_deb: "$ROCED_DEB"
        roced_deb_on_host: true
        roced_service: false
EOF
	run_play "$tmp/run7" "$tmp/install.yml" $mode
	[ "$rc" = 0 ] || { cat "$tmp/run7"; t_fail "the install role failed ($rc)"; }
	recap "$tmp/run7"
	echo "install role: ran${mode:+ in check mode} with $ROCED_DEB"
fi
echo "ok: ansible_fabric"
