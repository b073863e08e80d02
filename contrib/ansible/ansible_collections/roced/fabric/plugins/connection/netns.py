# -*- coding: utf-8 -*-
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
name: netns
short_description: Run tasks in a network namespace of the controller
description:
  - Each host is a network namespace of the machine Ansible runs on (C(ip
    netns list)), as in a lab or a test rig where every switch is a
    namespace with its own ports and its own roced. Commands run through
    C(ip netns exec NAME); files are copied as by the local connection,
    since the namespaces share the file system.
  - Needs root (C(ip netns exec) does).
author:
  - roced developers
options:
  netns:
    description:
      - The namespace's name. By default the host's address
        (C(ansible_host), else its inventory name).
    type: str
    vars:
      - name: ansible_netns
"""

import os
import shlex

from ansible.module_utils.common.text.converters import to_text
from ansible.plugins.connection.local import Connection as LocalConnection
from ansible.utils.display import Display

display = Display()
# iproute2's ip, where Debian puts it (root's PATH has it too).
IP = next((p for p in ("/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip") if os.path.exists(p)), "ip")


class Connection(LocalConnection):
    transport = "roced.fabric.netns"

    def _netns(self):
        ns = None
        try:
            ns = self.get_option("netns")
        except KeyError:
            pass
        return ns or self._play_context.remote_addr

    def exec_command(self, cmd, in_data=None, sudoable=True):
        ns = self._netns()
        display.vvv("NETNS %s" % ns, host=ns)
        wrapped = "%s netns exec %s /bin/sh -c %s" % (
            IP,
            shlex.quote(ns),
            shlex.quote(to_text(cmd, errors="surrogate_or_strict")),
        )
        return super(Connection, self).exec_command(
            wrapped, in_data=in_data, sudoable=sudoable
        )
