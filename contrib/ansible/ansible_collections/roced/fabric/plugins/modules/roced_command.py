#!/usr/bin/python
# -*- coding: utf-8 -*-

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
---
module: roced_command
short_description: Run rocesh show commands on a roced switch or host
description:
  - Runs each of I(commands) with rocesh on the target, against the roced
    of the network namespace the task runs in, as nxos_command runs shows
    on a Nexus switch, and returns their output.
  - Only shows run here (C(show ...), NX-OS's abbreviations such as
    C(sh) included); a configuration or an exec command (C(rollback),
    C(clear ...), C(reload)) is refused before anything runs, since the
    module never changes anything (C(changed) is always false);
    roced_config is what changes a switch.
  - A command that ends in C(| json) or C(json) is also parsed, into
    C(json).
  - Any command rocesh refuses fails the task, with rocesh's message.
options:
  commands:
    description: The show commands, in order.
    type: list
    elements: str
    required: true
  rocesh_bin:
    description:
      - The rocesh program. By default the first C(rocesh) on the
        target's C(PATH), else in C(/usr/bin) or C(/usr/local/bin).
    type: path
  socket:
    description: roced's control socket (rocesh C(-s)); by default the one
      of the network namespace the task runs in.
    type: path
author:
  - roced developers
"""

EXAMPLES = r"""
- name: PFC and the no-drop queues
  roced.fabric.roced_command:
    commands:
      - show interface priority-flow-control
      - show queuing pfc-queue detail | json
  register: shows

- ansible.builtin.debug:
    var: shows.stdout_lines[0]
"""

RETURN = r"""
stdout:
  description: Each command's output, in the order of I(commands).
  type: list
  elements: str
  returned: always
stdout_lines:
  description: The same, split into lines.
  type: list
  elements: list
  returned: always
json:
  description: Each command's output parsed as JSON, or null when it did not ask for JSON.
  type: list
  returned: always
"""

import json
import os
import re

from ansible.module_utils.basic import AnsibleModule

BIN = ("/usr/bin", "/usr/local/bin")

# A show: "show" or an abbreviation of it rocesh takes ("sh", "sho").
SHOW = re.compile(r"^\s*sh(o(w)?)?\s+\S")


def find_rocesh(path=None, bindirs=BIN):
    """The first rocesh on PATH, else in BINDIRS; None when there is none."""
    if path is None:
        path = os.environ.get("PATH", "")
    for d in [p for p in path.split(os.pathsep) if p] + list(bindirs):
        f = os.path.join(d, "rocesh")
        if os.path.isfile(f) and os.access(f, os.X_OK):
            return f
    return None


def main():
    module = AnsibleModule(
        argument_spec=dict(
            commands=dict(type="list", elements="str", required=True),
            rocesh_bin=dict(type="path"),
            socket=dict(type="path"),
        ),
        supports_check_mode=True,
    )
    p = module.params
    result = dict(changed=False, stdout=[], stdout_lines=[], json=[])
    for c in p["commands"]:
        if not SHOW.match(c) or "\n" in c or ";" in c:
            module.fail_json(
                msg="roced_command runs shows only, one per item: '%s' is "
                "not a show (roced_config changes a switch)" % c,
                **result
            )
    rocesh = p["rocesh_bin"] or find_rocesh()
    if not rocesh:
        module.fail_json(
            msg="no rocesh program on PATH (%s) nor in %s: set rocesh_bin"
            % (os.environ.get("PATH", ""), ", ".join(BIN)),
            **result
        )
    for c in p["commands"]:
        argv = [rocesh]
        if p["socket"]:
            argv += ["-s", p["socket"]]
        argv += ["-c", c]
        rc, out, err = module.run_command(argv)
        if rc != 0:
            module.fail_json(
                msg="%s: %s" % (c, (err or out).strip() or "rocesh failed"),
                rc=rc,
                **result
            )
        result["stdout"].append(out)
        result["stdout_lines"].append(out.splitlines())
        parsed = None
        if re.search(r"(\|\s*)?json\s*$", c):
            try:
                parsed = json.loads(out)
            except ValueError as e:
                module.fail_json(msg="%s: not JSON: %s" % (c, e), **result)
        result["json"].append(parsed)
    module.exit_json(**result)


if __name__ == "__main__":
    main()
