# -*- coding: utf-8 -*-
"""The controller's side of roced_config: reads SRC here (as copy and
template do), writes the backup of the replaced file here (as
nxos_config does), and names the host in a failure's message, so that a
line of a play over many switches says which one refused its file."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os
import time

from ansible.errors import AnsibleError
from ansible.module_utils.common.text.converters import to_text
from ansible.plugins.action import ActionBase


class ActionModule(ActionBase):
    TRANSFERS_FILES = False

    def run(self, tmp=None, task_vars=None):
        result = super(ActionModule, self).run(tmp, task_vars)
        del tmp
        args = dict(self._task.args)
        src = args.pop("src", None)
        if src is not None:
            if args.get("content") is not None:
                return dict(failed=True, msg="src and content are exclusive")
            try:
                path = self._find_needle("files", src)
                with open(path, "rb") as f:
                    args["content"] = to_text(f.read(), errors="surrogate_or_strict")
            except (AnsibleError, OSError) as e:
                return dict(failed=True, msg="cannot read %s: %s" % (src, e))
        backup_options = args.get("backup_options") or {}
        result.update(
            self._execute_module(
                module_name="roced.fabric.roced_config",
                module_args=args,
                task_vars=task_vars,
            )
        )
        # The file it replaced, kept here as nxos_config keeps its backup.
        old = result.pop("__backup__", None)
        if old is not None and args.get("backup"):
            host = (task_vars or {}).get("inventory_hostname", "host")
            d = backup_options.get("dir_path") or os.path.join(
                self._loader.get_basedir(), "backup"
            )
            name = backup_options.get("filename") or "%s_config.%s" % (
                host,
                time.strftime("%Y-%m-%d@%H:%M:%S", time.localtime()),
            )
            try:
                os.makedirs(d, exist_ok=True)
                path = os.path.join(d, name)
                with open(path, "w") as f:
                    f.write(old)
                result["backup_path"] = path
            except OSError as e:
                result["failed"] = True
                result["msg"] = "the backup on the controller: %s" % e
        if result.get("failed"):
            host = (task_vars or {}).get("inventory_hostname", "?")
            result["host"] = host
            result["msg"] = "%s: %s" % (host, result.get("msg", "failed"))
        return result
