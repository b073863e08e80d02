#!/usr/bin/python
# -*- coding: utf-8 -*-

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
---
module: roced_config
short_description: Install a roced.conf, checked by roced, and reload roced
description:
  - Writes the configuration to a candidate file beside I(dest), checks it
    with C(roced -n), asks the running roced what a reload of it would
    change in each port's plan (a dry run over roced's control socket;
    the file is compiled with the port's running inputs and compared with
    the plan the port runs), and only then renames it over I(dest) and
    reloads roced.
  - C(changed) means that the file or some port's plan changes;
    C(plan_changed) is roced's own plan comparison, C(file_changed) the
    file's bytes (a comment or a reordering is installed with no kernel write).
  - Before it installs or reloads anything, it takes a checkpoint of
    roced's running configuration (I(checkpoint_name), replacing the one
    of that name) and keeps the file it replaces beside I(dest) as
    C(DEST.ansible-before); with I(rollback), a failed reload rolls back
    to it. I(rollback_to) puts a host back later (a play's C(rescue));
    the kept file is reinstalled and roced rolls back to the checkpoint.
  - A file roced refuses fails the task with roced's FILE:LINE errors
    (the candidate's name replaced by I(dest), whose lines they are);
    I(dest) and the running state stay as they were.
  - In check mode nothing is written and nothing is reloaded; with
    C(--diff) the running and the candidate plans are shown as the dry run
    (C(roced --dry-run)) prints them.
  - The action plugin of the same name reads I(src) on the controller and
    names the host in a failure's message.
options:
  content:
    description: The configuration text (roced.conf(5)).
    type: str
  src:
    description:
      - A file on the controller to read the configuration from (handled
        by the action plugin). One of I(content) and I(src) is required.
    type: path
  dest:
    description:
      - The configuration file. By default the file the running roced
        reads (its C(ping) answer), else C(/etc/roced/roced.conf). A
        I(dest) that the running roced does not read is refused, since a
        reload would not apply it.
    type: path
  force:
    description:
      - Take a configuration that configures no interface, which removes
        roced's policy from every port it programs. Without it such a
        configuration fails the task and nothing changes, whether it has
        no interface list (as roced's own reload refuses) or an empty one,
        C(interface = ( );), which roced takes from a file as meaning it
        but which from I(content) or I(src) is most often a template's
        loop over an empty list.
    type: bool
    default: false
  backup:
    description:
      - Keep the file I(dest) replaces on the controller, as nxos_config
        does, in I(backup_options.dir_path) (default C(backup) beside the
        playbook) as C(HOST_config.YYYY-MM-DD@HH:MM:SS); its path is
        returned as C(backup_path).
    type: bool
    default: false
  backup_options:
    description: Where the action plugin writes the backup on the controller.
    type: dict
    suboptions:
      dir_path:
        description: The directory.
        type: path
      filename:
        description: The file's name.
        type: str
  checkpoint:
    description:
      - Take a checkpoint of roced's running configuration before the
        change (when something changes, not in check mode).
    type: bool
    default: true
  checkpoint_name:
    description: The checkpoint's name; one of that name is replaced.
    type: str
    default: ansible
  rollback:
    description:
      - When the reload fails, roll roced back to the checkpoint taken
        before it, and put the old file back.
    type: bool
    default: false
  rollback_to:
    description:
      - Instead of installing a configuration, put the host back as it
        was before the change that took checkpoint I(rollback_to); the
        file kept beside I(dest) is reinstalled and roced rolls back to
        the checkpoint (C(rollback running-config checkpoint NAME)).
    type: str
  roced_bin:
    description:
      - The roced program that checks the file (C(roced -n)). By default
        the first C(roced) on the target's C(PATH), else in C(/usr/sbin),
        C(/usr/local/sbin) or C(/sbin).
    type: path
  socket:
    description:
      - roced's control socket. By default the one of the network
        namespace the task runs in, found as rocesh finds it.
    type: path
author:
  - roced developers
"""

EXAMPLES = r"""
- name: The fabric's RoCE policy
  roced.fabric.roced_config:
    src: files/roced-{{ inventory_hostname }}.conf

- name: From a template
  roced.fabric.roced_config:
    content: "{{ lookup('template', 'roced.conf.j2') }}"
  register: cfg

- name: What would change, without changing anything
  roced.fabric.roced_config:
    src: files/roced.conf
  check_mode: true
  diff: true
"""

RETURN = r"""
checkpoint:
  description: The checkpoint taken before the change (none in check mode or when nothing changed).
  type: str
  returned: when taken
rolled_back:
  description: roced was rolled back to the checkpoint (rollback, rollback_to).
  type: bool
  returned: always
plan_changed:
  description: Some port's plan differs from the one it runs (the same as changed).
  type: bool
  returned: always
file_changed:
  description: The bytes of I(dest) differ from the configuration given.
  type: bool
  returned: always
ports_changed:
  description: How many ports' plans change.
  type: int
  returned: always
plan_diff:
  description: Per port, the lines of the running plan the new one lacks (-) and adds (+).
  type: list
  elements: str
  returned: always
reloaded:
  description: roced was asked to reload (not in check mode, and something changed).
  type: bool
  returned: always
writes:
  description: The kernel writes of the reload, as roced counted them (0 without a reload).
  type: int
  returned: always
writes_total:
  description: roced's kernel writes since it started, after the task.
  type: int
  returned: always
check_messages:
  description: The warnings and notes of C(roced -n), as FILE:LINE lines.
  type: list
  elements: str
  returned: always
errors:
  description: roced's FILE:LINE errors, when it refused the file.
  type: list
  elements: str
  returned: failure
"""

import os
import tempfile

from ansible.module_utils.basic import AnsibleModule
from ansible.module_utils.common.text.converters import to_bytes, to_text
from ansible_collections.roced.fabric.plugins.module_utils.roced_ctl import (
    Ctl,
    RocedError,
    SBIN,
    find_roced,
)

DEFAULT_DEST = "/etc/roced/roced.conf"


def _named(text, tmp, dest):
    """roced's messages about the candidate TMP, about DEST's lines."""
    return (text or "").replace(tmp, dest)


def _read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None


def _write_candidate(dest, data):
    """DATA in a new file beside DEST, with DEST's mode and owner."""
    d = os.path.dirname(dest) or "."
    fd, tmp = tempfile.mkstemp(
        prefix="." + os.path.basename(dest) + ".", suffix=".ansible", dir=d
    )
    try:
        os.write(fd, data)
        os.fsync(fd)
        try:
            st = os.stat(dest)
            os.fchmod(fd, st.st_mode & 0o7777)
            os.fchown(fd, st.st_uid, st.st_gid)
        except FileNotFoundError:
            os.fchmod(fd, 0o644)
    finally:
        os.close(fd)
    return tmp


def _install(tmp, dest):
    os.rename(tmp, dest)
    dfd = os.open(os.path.dirname(dest) or ".", os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)


def _checkpoint(ctl, name, dest, old):
    """A checkpoint NAME of roced's running configuration (one of that
    name replaced), and the file DEST holds now (OLD) kept beside it, so
    that rollback_to can put both back."""
    ctl.call({"cmd": "checkpoint", "op": "delete", "name": name})
    # roced takes a description of at most 80 characters: the file's
    # name is kept whole when it fits, else its tail.
    desc = "before an Ansible change of " + dest
    if len(desc) > 80:
        desc = "before an Ansible change of ..." + dest[-(80 - 31):]
    ctl.must({"cmd": "checkpoint", "op": "create", "name": name,
              "description": desc})
    keep = dest + ".ansible-before"
    if old is None:
        if os.path.exists(keep):
            os.unlink(keep)
    else:
        _install(_write_candidate(keep, old), keep)
    return name


def _rollback_to(module, p):
    """Put the host back as it was before the change that took the
    checkpoint: its file, then roced's running configuration."""
    result = dict(changed=False, rolled_back=False, writes=0)
    name = p["rollback_to"]
    try:
        ctl = Ctl(p["socket"])
        ping = ctl.must({"cmd": "ping"})
        dest = p["dest"] or ping.get("config") or DEFAULT_DEST
        keep = dest + ".ansible-before"
        result["dest"] = dest
        if module.check_mode:
            result["changed"] = True
            module.exit_json(**result)
        if os.path.exists(keep):
            kept = _read(keep)
            if kept != _read(dest):
                _install(_write_candidate(dest, kept), dest)
                result["file_restored"] = True
                result["changed"] = True
        rb = ctl.call({"cmd": "checkpoint", "op": "rollback", "name": name})
        if not rb.get("ok"):
            module.fail_json(
                msg="roced refused the rollback to checkpoint %s: %s"
                % (name, rb.get("error")),
                **result
            )
        result["rolled_back"] = True
        result["writes"] = int(rb.get("writes") or 0)
        result["changed"] = result["changed"] or result["writes"] > 0
        result["text"] = rb.get("text", "")
    except RocedError as e:
        module.fail_json(msg=str(e), **result)
    module.exit_json(**result)


def main():
    module = AnsibleModule(
        argument_spec=dict(
            content=dict(type="str"),
            src=dict(type="path"),
            dest=dict(type="path"),
            force=dict(type="bool", default=False),
            backup=dict(type="bool", default=False),
            backup_options=dict(type="dict"),
            checkpoint=dict(type="bool", default=True),
            checkpoint_name=dict(type="str", default="ansible"),
            rollback=dict(type="bool", default=False),
            rollback_to=dict(type="str"),
            roced_bin=dict(type="path"),
            socket=dict(type="path"),
        ),
        required_one_of=[("content", "src", "rollback_to")],
        supports_check_mode=True,
    )
    p = module.params
    if p["rollback_to"]:
        _rollback_to(module, p)
    if p["content"] is None:
        module.fail_json(
            msg="src is read on the controller by the roced_config action "
            "plugin: call the module as roced.fabric.roced_config"
        )
    data = to_bytes(p["content"], errors="surrogate_or_strict")
    roced = p["roced_bin"] or find_roced()
    if not roced:
        module.fail_json(
            msg="no roced program on PATH (%s) nor in %s: set roced_bin"
            % (os.environ.get("PATH", ""), ", ".join(SBIN))
        )
    result = dict(
        changed=False,
        plan_changed=False,
        file_changed=False,
        ports_changed=0,
        plan_diff=[],
        reloaded=False,
        rolled_back=False,
        writes=0,
        writes_total=0,
        check_messages=[],
    )

    try:
        ctl = Ctl(p["socket"])
        ping = ctl.must({"cmd": "ping"})
    except RocedError as e:
        module.fail_json(msg=str(e), **result)
    running = ping.get("config") or DEFAULT_DEST
    dest = p["dest"] or running
    if os.path.realpath(dest) != os.path.realpath(running):
        module.fail_json(
            msg="%s is not the file roced reads (%s): a reload would not "
            "apply it" % (dest, running),
            **result
        )
    old = _read(dest)
    result["file_changed"] = old != data
    result["dest"] = dest

    tmp = _write_candidate(dest, data)
    try:
        # 1. roced's own check of the file, as an operator runs it.
        rc, out, err = module.run_command([roced, "-n", "-f", tmp])
        msgs = _named(err, tmp, dest).splitlines()
        result["check_messages"] = [m for m in msgs if m.strip()]
        if rc != 0:
            errors = [m for m in msgs if ": error: " in m or m.startswith("roced: ")]
            module.fail_json(
                msg="roced refused %s, nothing changed:\n%s"
                % (dest, "\n".join(errors or msgs)),
                errors=errors or msgs,
                **result
            )
        # 2. What a reload of it would change, from roced's plans.
        dry = ctl.call(
            {"cmd": "reload", "dry-run": True, "force": p["force"], "file": tmp}
        )
        if not dry.get("ok"):
            text = _named(dry.get("error"), tmp, dest)
            errors = [l.lstrip("% ") for l in text.splitlines()[1:]] or [text]
            module.fail_json(
                msg="roced would refuse %s, nothing changed:\n%s" % (dest, text),
                errors=errors,
                **result
            )
        # An empty interface list is roced's word for "remove the policy
        # from every port" in a file an operator wrote; pushed from a
        # template it is as likely an empty loop, so it takes force here
        # as a file without a list takes it for a reload.
        running_ports = int(dry.get("ports-running") or 0)
        if (
            not p["force"]
            and running_ports
            and dry.get("ports-candidate") == 0
        ):
            module.fail_json(
                msg="%s configures no interface: it would remove roced's "
                "policy from the %d port%s it programs; nothing changed "
                "(force: true to mean that)"
                % (dest, running_ports, "" if running_ports == 1 else "s"),
                **result
            )
        result["plan_changed"] = bool(dry.get("plan-changed"))
        result["ports_changed"] = int(dry.get("ports-changed") or 0)
        if result["plan_changed"]:
            result["plan_diff"] = _named(dry.get("text"), tmp, dest).splitlines()
        if module._diff:
            result["diff"] = []
            if result["file_changed"]:
                result["diff"].append(
                    dict(
                        before_header=dest,
                        after_header=dest + " (new)",
                        before=to_text(old or b""),
                        after=p["content"],
                    )
                )
            result["diff"].append(
                dict(
                    before_header="running plan",
                    after_header="plan of the new " + dest,
                    before=dry.get("before") or "",
                    after=dry.get("after") or "",
                )
            )
        result["changed"] = result["plan_changed"] or result["file_changed"]
        if module.check_mode:
            result["writes_total"] = int(ping.get("writes") or 0)
            module.exit_json(**result)

        # 3. A checkpoint, then install, then reload when the file or a
        # plan changes.
        if result["changed"] and p["checkpoint"]:
            result["checkpoint"] = _checkpoint(ctl, p["checkpoint_name"], dest, old)
        if result["file_changed"]:
            if p["backup"] and old is not None:
                # the action plugin writes it on the controller
                result["__backup__"] = to_text(old, errors="surrogate_or_strict")
            _install(tmp, dest)
            tmp = None
        if result["file_changed"] or result["plan_changed"]:
            rl = ctl.call({"cmd": "reload", "force": p["force"]})
            result["reloaded"] = True
            if not rl.get("ok"):
                # The file was checked a moment ago: someone changed the
                # ports or the file meanwhile. Put the old file back.
                if result["file_changed"]:
                    if old is None:
                        os.unlink(dest)
                    else:
                        _install(_write_candidate(dest, old), dest)
                if p["rollback"] and result.get("checkpoint"):
                    rb = ctl.call(
                        {
                            "cmd": "checkpoint",
                            "op": "rollback",
                            "name": result["checkpoint"],
                        }
                    )
                    result["rolled_back"] = bool(rb.get("ok"))
                text = rl.get("error") or "reload refused"
                module.fail_json(
                    msg="roced refused the reload of %s; the old file is "
                    "back and the running state is as it was:\n%s" % (dest, text),
                    errors=[l.lstrip("% ") for l in text.splitlines()[1:]],
                    **result
                )
            result["writes"] = int(rl.get("writes") or 0)
        result["writes_total"] = int(ctl.must({"cmd": "ping"}).get("writes") or 0)
    except RocedError as e:
        module.fail_json(msg=str(e), **result)
    finally:
        if tmp and os.path.exists(tmp):
            os.unlink(tmp)
        ctl.close()
    module.exit_json(**result)


if __name__ == "__main__":
    main()
