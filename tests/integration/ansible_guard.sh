#!/bin/sh
# ansible_guard: the roced.fabric collection's roced_config on one switch
# (a namespace with its own roced, reached through the netns connection):
#   - a configuration with an empty interface list, `interface = ( );`
#     (what a template's loop over an empty list writes), given as
#     `content` and as `src` without `force`: the task fails saying it
#     would remove roced's policy from the port, and the file, the
#     running configuration and the kernel's classes stay as they were;
#   - with `force: true` it is taken: roced programs no port any more;
#   - roced_command runs shows (text and JSON) and refuses anything else
#     before it runs;
#   - roced_config takes a checkpoint before a change, keeps the replaced
#     file on the controller with backup (as nxos_config), and is
#     changed for a comment-only file (0 kernel writes);
#   - examples/rollout.yml on a policy that breaks PFC (mode auto, no
#     DCBX peer): the assertion fails, the switch is rolled back to its
#     checkpoint (file, running configuration and kernel classes as
#     before), and the play fails there;
#   - roced found without `roced_bin`: the first on the target's PATH
#     (the build directory here), before /usr/sbin and /usr/local/sbin,
#     which module_utils' find_roced is checked for with two directories
#     of its own.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/integration/lib.sh"
t_init ansible_guard
t_need_root
command -v ansible-playbook >/dev/null ||
	t_skip "ansible-playbook is missing (scripts/install-deps.sh --test installs ansible-core)"
[ -x "$rocesh" ] || t_skip "rocesh is not built"
tmp=$t_tmp
bdir=$(cd "$(dirname "$roced")" && pwd)
roced=$bdir/roced
coll=$top_srcdir/contrib/ansible

# --- find_roced: PATH first, then the sbin directories ---
mkdir -p "$tmp/onpath" "$tmp/sbin" "$tmp/empty"
for d in onpath sbin; do
	printf '#!/bin/sh\n' >"$tmp/$d/roced"
	chmod 755 "$tmp/$d/roced"
done
PYTHONPATH="$coll" python3 - "$tmp" <<'PY' || t_fail "find_roced does not look on PATH first"
import sys
from ansible_collections.roced.fabric.plugins.module_utils.roced_ctl import find_roced
t = sys.argv[1]
got = find_roced(path=t + "/empty:" + t + "/onpath", sbin=(t + "/sbin",))
assert got == t + "/onpath/roced", got
assert find_roced(path=t + "/empty", sbin=(t + "/sbin",)) == t + "/sbin/roced"
assert find_roced(path="", sbin=(t + "/empty",)) is None
print("find_roced: PATH before the sbin directories")
PY

# --- the switch ---
t_veth_link sw agsw swp1 h agh eth0
cp "$top_srcdir/tests/fixtures/dcbx/switch.conf" "$tmp/roced.conf"
t_show_on_fail "roced log" "$tmp/sw.log"
t_spawn "$IP" netns exec "$sw" "$roced" -f "$tmp/roced.conf" >"$tmp/sw.log" 2>&1
t_until 30 grep -q "mirroring roced's tc objects" "$tmp/sw.log" ||
	t_fail "roced did not start"
# the checkpoints roced_config takes, in roced's state directory
ino=$("$IP" netns exec "$sw" stat -L -c %i /proc/self/ns/net)
t_defer "rm -rf '/run/roced/roced.$ino.checkpoint'"

mkdir -p "$tmp/home" "$tmp/ansible-home" "$tmp/ansible-local" "$tmp/ansible-remote"
printf '[defaults]\n' >"$tmp/ansible.cfg"
# The build directory first in PATH: roced_config finds roced there.
cat >"$tmp/ans.sh" <<EOF
exec env HOME="$tmp/home" ANSIBLE_HOME="$tmp/ansible-home" \\
	ANSIBLE_LOCAL_TEMP="$tmp/ansible-local" \\
	ANSIBLE_REMOTE_TEMP="$tmp/ansible-remote" \\
	ANSIBLE_CONFIG="$tmp/ansible.cfg" ANSIBLE_COLLECTIONS_PATH="$coll" \\
	ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0 \\
	ANSIBLE_DEPRECATION_WARNINGS=0 PYTHONDONTWRITEBYTECODE=1 \\
	LC_ALL=C.UTF-8 PATH="$bdir:\$PATH" \\
	"\$@"
EOF
{
	echo "[fabric]"
	echo "sw1 ansible_netns=$sw"
	echo "[fabric:vars]"
	echo "ansible_connection=roced.fabric.netns"
	echo "ansible_python_interpreter=/usr/bin/python3"
} >"$tmp/fabric.ini"
printf 'interface = ( );\n' >"$tmp/empty.conf"
# play OUT KIND FORCE: roced_config with the empty list as KIND
# (content or src), force FORCE; the status in $rc.
play() {
	if [ "$2" = content ]; then
		arg="content: \"interface = ( );\\n\""
	else
		arg="src: $tmp/empty.conf"
	fi
	cat >"$tmp/play.yml" <<EOF
- name: an empty interface list
  hosts: fabric
  gather_facts: false
  tasks:
    - name: The policy
      roced.fabric.roced_config:
        $arg
        force: $3
EOF
	rc=0
	t_run sh "$tmp/ans.sh" ansible-playbook -i "$tmp/fabric.ini" "$tmp/play.yml" >"$1" 2>&1 || rc=$?
}
shw() { "$IP" netns exec "$sw" "$rocesh" -c "$1"; }
shw 'show running-config' >"$tmp/run.before"
"$IP" netns exec "$sw" "$TC" class show dev swp1 | sort >"$tmp/cls.before"
grep -q '^interface ' "$tmp/run.before" || t_fail "the switch programs no port to begin with"

for kind in content src; do
	play "$tmp/$kind.out" "$kind" false
	[ "$rc" != 0 ] || { cat "$tmp/$kind.out"; t_fail "$kind: an empty interface list without force did not fail"; }
	grep 'fatal: \[sw1\]' "$tmp/$kind.out" |
		grep -q "configures no interface: it would remove roced's policy from the 1 port it programs; nothing changed" ||
		{ cat "$tmp/$kind.out"; t_fail "$kind: the failure does not say why"; }
	cmp -s "$top_srcdir/tests/fixtures/dcbx/switch.conf" "$tmp/roced.conf" ||
		t_fail "$kind: the file changed"
	shw 'show running-config' >"$tmp/run.after"
	cmp -s "$tmp/run.before" "$tmp/run.after" || t_fail "$kind: the running configuration changed"
	"$IP" netns exec "$sw" "$TC" class show dev swp1 | sort >"$tmp/cls.after"
	cmp -s "$tmp/cls.before" "$tmp/cls.after" || t_fail "$kind: the kernel's classes changed"
	ls "$tmp"/.roced.conf.* 2>/dev/null && t_fail "$kind: a candidate file was left behind"
	grep 'fatal: \[sw1\]' "$tmp/$kind.out" | sed 's/.*"msg": "\([^"]*\)".*/'"$kind"': \1/'
done

# --- roced_command: shows only ---
cat >"$tmp/cmd.yml" <<EOF
- name: shows
  hosts: fabric
  gather_facts: false
  tasks:
    - name: Two shows
      roced.fabric.roced_command:
        commands:
          - show running-config
          - show interface priority-flow-control json
      register: shows
    - name: Their output
      ansible.builtin.assert:
        that:
          - shows.stdout_lines[0] | select('match', '^interface Ethernet1/1') | list | length == 1
          - shows.json[0] == None
          - shows.json[1].interface[0].name == 'swp1'
          - not shows.changed
    - name: Not a show
      roced.fabric.roced_command:
        commands:
          - show running-config
          - rollback running-config checkpoint x
EOF
rc=0
t_run sh "$tmp/ans.sh" ansible-playbook -i "$tmp/fabric.ini" "$tmp/cmd.yml" >"$tmp/cmd.out" 2>&1 || rc=$?
[ "$rc" != 0 ] || { cat "$tmp/cmd.out"; t_fail "roced_command ran a command that is not a show"; }
grep -q "ok: \[sw1\] => {\|TASK \[Their output\]" "$tmp/cmd.out" && grep -q 'All assertions passed' "$tmp/cmd.out" ||
	{ cat "$tmp/cmd.out"; t_fail "roced_command's shows"; }
grep -q "runs shows only, one per item: 'rollback running-config checkpoint x' is not a show" "$tmp/cmd.out" ||
	{ cat "$tmp/cmd.out"; t_fail "roced_command does not refuse a rollback"; }
echo "ok: roced_command: shows, and nothing else"

# --- a checkpoint before a change; the backup on the controller ---
sed 's/bandwidth-remaining-percent = 50; },/bandwidth-remaining-percent = 60; },/; s/bandwidth-remaining-percent = 50; } );/bandwidth-remaining-percent = 40; } );/' \
	"$top_srcdir/tests/fixtures/dcbx/switch.conf" >"$tmp/ets.conf"
cmp -s "$tmp/ets.conf" "$tmp/roced.conf" && t_fail "the ETS fixture edit changed nothing"
cat >"$tmp/ckpt.yml" <<EOF
- name: a change
  hosts: fabric
  gather_facts: false
  tasks:
    - name: The policy
      roced.fabric.roced_config:
        src: "{{ conf }}"
        backup: true
        backup_options:
          dir_path: $tmp/backup
      register: cfg
    - name: What it did
      ansible.builtin.debug:
        msg: "changed={{ cfg.changed }} file_changed={{ cfg.file_changed }} plan_changed={{ cfg.plan_changed }} writes={{ cfg.writes }} checkpoint={{ cfg.checkpoint | default('none') }} backup={{ cfg.backup_path | default('none') }}"
EOF
rc=0
t_run sh "$tmp/ans.sh" ansible-playbook -i "$tmp/fabric.ini" "$tmp/ckpt.yml" -e "conf=$tmp/ets.conf" >"$tmp/ckpt.out" 2>&1 || rc=$?
[ "$rc" = 0 ] || { cat "$tmp/ckpt.out"; t_fail "the ETS change failed"; }
grep -q "changed=True file_changed=True plan_changed=True .* checkpoint=ansible backup=$tmp/backup/sw1_config\." "$tmp/ckpt.out" ||
	{ cat "$tmp/ckpt.out"; t_fail "the change: no checkpoint or no backup"; }
cmp -s "$top_srcdir/tests/fixtures/dcbx/switch.conf" "$tmp"/backup/sw1_config.* ||
	t_fail "the backup on the controller is not the replaced file"
shw 'show checkpoint summary' | grep -q '^1) ansible:$' || t_fail "no checkpoint 'ansible' on the switch"
shw 'show diff rollback-patch checkpoint ansible running-config' | grep -q 'bandwidth remaining percent 60' ||
	t_fail "the checkpoint is not the configuration before the change"
# a comment-only file: installed, changed, no kernel write
{ cat "$tmp/ets.conf"; echo '# a comment'; } >"$tmp/ets2.conf"
rc=0
t_run sh "$tmp/ans.sh" ansible-playbook -i "$tmp/fabric.ini" "$tmp/ckpt.yml" -e "conf=$tmp/ets2.conf" >"$tmp/ckpt2.out" 2>&1 || rc=$?
[ "$rc" = 0 ] || { cat "$tmp/ckpt2.out"; t_fail "the comment-only change failed"; }
grep -q "changed=True file_changed=True plan_changed=False writes=0" "$tmp/ckpt2.out" ||
	{ cat "$tmp/ckpt2.out"; t_fail "a comment-only file is not reported changed, or wrote the kernel"; }
echo "ok: roced_config: checkpoint, backup on the controller, comment-only change reported"

# --- the rollout rolls a failing switch back ---
shw 'show running-config' >"$tmp/roll.before"
"$IP" netns exec "$sw" "$TC" class show dev swp1 | sort >"$tmp/rollcls.before"
cp "$tmp/roced.conf" "$tmp/roll.file.before"
# PFC mode auto with no DCBX peer behind swp1: PFC not operational
sed 's/mode = "on";/mode = "auto";/; s/percent = 60;/percent = 70;/; s/percent = 40;/percent = 30;/' \
	"$tmp/roced.conf" >"$tmp/bad-pfc.conf"
rc=0
t_run sh "$tmp/ans.sh" ansible-playbook -i "$tmp/fabric.ini" "$coll/examples/rollout.yml" \
	-e "roced_conf=$tmp/bad-pfc.conf" -e settle_seconds=1 >"$tmp/roll.out" 2>&1 || rc=$?
[ "$rc" != 0 ] || { cat "$tmp/roll.out"; t_fail "the rollout went on past a switch whose PFC broke"; }
grep -q 'TASK \[Roll this switch back to its checkpoint\]' "$tmp/roll.out" &&
	grep -q 'sw1 rolled back; stopping the rollout here' "$tmp/roll.out" ||
	{ cat "$tmp/roll.out"; t_fail "the failing switch was not rolled back"; }
shw 'show running-config' >"$tmp/roll.after"
diff "$tmp/roll.before" "$tmp/roll.after" || t_fail "the rollback did not restore the running configuration"
"$IP" netns exec "$sw" "$TC" class show dev swp1 | sort >"$tmp/rollcls.after"
cmp -s "$tmp/rollcls.before" "$tmp/rollcls.after" || t_fail "the rollback did not restore the kernel's classes"
cmp -s "$tmp/roll.file.before" "$tmp/roced.conf" || t_fail "the rollback did not restore the file"
echo "ok: rollout: the failing switch rolled back (file, running configuration, kernel)"

# With force, the operator means it: the policy leaves the port.
play "$tmp/force.out" src true
[ "$rc" = 0 ] || { cat "$tmp/force.out"; t_fail "force: true did not take the empty list"; }
cmp -s "$tmp/empty.conf" "$tmp/roced.conf" || t_fail "force: the file was not installed"
shw 'show running-config' >"$tmp/run.forced"
grep -q '^interface ' "$tmp/run.forced" && t_fail "force: roced still programs a port"
echo "ok: ansible_guard"
