#!/usr/bin/python
# -*- coding: utf-8 -*-

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
---
module: roced_facts
short_description: Gather roced's state as facts
description:
  - Asks the roced of the network namespace the task runs in for its
    C(show ... json) answers and returns them as the fact C(roced) (in
    C(ansible_facts), so C(hostvars[host].roced) after the task).
  - Each part is roced's JSON as it is, under the show's name, and a
    C(summary) adds up what a rollout watches (drops, storms, DCBX peers,
    ports where PFC is not operational).
options:
  socket:
    description:
      - roced's control socket. By default the one of the network
        namespace the task runs in, found as rocesh finds it.
    type: path
  gather:
    description:
      - The parts to gather; C(all) is every one of them. C(dcbx) asks
        C(show lldp dcbx interface) once per port.
    type: list
    elements: str
    choices: [all, ports, pfc, pfc_queue, dcbx, lldp, flowcontrol]
    default: [all]
author:
  - roced developers
"""

EXAMPLES = r"""
- name: Read roced's state
  roced.fabric.roced_facts:

- name: No switch may have lost a packet of a no-drop class
  ansible.builtin.assert:
    that: roced.summary.dropped_packets == 0

- name: Every port has a DCBX peer
  ansible.builtin.assert:
    that: roced.summary.dcbx_peers == roced.summary.ports
"""

RETURN = r"""
ansible_facts:
  description: The fact C(roced).
  returned: always
  type: dict
  contains:
    roced:
      description: roced's state.
      type: dict
      contains:
        version:
          description: roced's version, pid, configuration file and kernel writes since its start (C(ping)).
          type: dict
        ports:
          description: C(show queuing interface json) (ports, state, layout, each queue's counters).
          type: dict
        pfc:
          description: C(show interface priority-flow-control json) (PFC mode, operational state, pause counters).
          type: dict
        pfc_queue:
          description: C(show queuing pfc-queue detail json) (the PFC watchdog's queues, storms, restores).
          type: dict
        dcbx:
          description: Per port, C(show lldp dcbx interface PORT json) (the DCBX peer and each feature's outcome).
          type: dict
        lldp:
          description: C(show lldp neighbors detail json) and C(show lldp traffic json).
          type: dict
        flowcontrol:
          description: C(show interface flowcontrol json) (link pause).
          type: dict
        summary:
          description:
            - ports, dcbx_peers (ports with a DCBX peer), pfc_not_operational
              (ports whose PFC mode asks for PFC that is not operational),
              dropped_packets (all queues), no_drop_dropped_packets (the
              no-drop queues, those the PFC watchdog watches),
              watchdog_dropped_packets (dropped by the watchdog's action),
              ecn_marked, storms (the watchdog's, since its statistics were
              last cleared), queues_shut (by the watchdog, now), writes.
          type: dict
"""

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.roced.fabric.plugins.module_utils.roced_ctl import (
    Ctl,
    RocedError,
)

PARTS = ["ports", "pfc", "pfc_queue", "dcbx", "lldp", "flowcontrol"]


def _n(v):
    return v if isinstance(v, int) and not isinstance(v, bool) else 0


def _ifaces(data):
    return (data or {}).get("interface") or []


def summary(f):
    s = dict(
        ports=0,
        dcbx_peers=0,
        pfc_not_operational=[],
        dropped_packets=0,
        no_drop_dropped_packets=0,
        watchdog_dropped_packets=0,
        ecn_marked=0,
        storms=0,
        queues_shut=0,
        writes=_n((f.get("version") or {}).get("writes")),
    )
    for p in _ifaces(f.get("pfc")):
        if p.get("mode") in ("on", "auto") and p.get("oper") != "on":
            s["pfc_not_operational"].append(p.get("name"))
    # The no-drop queues of each port: those the PFC watchdog watches.
    no_drop = {}
    for p in _ifaces(f.get("pfc_queue")):
        for q in p.get("queues") or []:
            no_drop.setdefault(p.get("name"), set()).add(q.get("qos-group"))
            s["storms"] += _n(q.get("storms"))
            if q.get("state") in ("shutdown", "wait-to-shutdown"):
                s["queues_shut"] += 1
            s["watchdog_dropped_packets"] += _n(q.get("dropped-packets"))
    ports = _ifaces(f.get("ports"))
    s["ports"] = len(ports) or len(_ifaces(f.get("pfc")))
    for p in ports:
        for q in p.get("queue") or []:
            c = q.get("counters") or {}
            s["dropped_packets"] += _n(c.get("dropped-packets"))
            s["ecn_marked"] += _n(c.get("ecn-marked"))
            if q.get("qos-group") in no_drop.get(p.get("name"), ()):
                s["no_drop_dropped_packets"] += _n(c.get("dropped-packets"))
    for d in (f.get("dcbx") or {}).values():
        if isinstance(d, dict) and d.get("peer"):
            s["dcbx_peers"] += 1
    return s


def main():
    module = AnsibleModule(
        argument_spec=dict(
            socket=dict(type="path"),
            gather=dict(
                type="list", elements="str", default=["all"], choices=["all"] + PARTS
            ),
        ),
        supports_check_mode=True,
    )
    want = set(module.params["gather"])
    if "all" in want:
        want = set(PARTS)
    f = {}
    try:
        ctl = Ctl(module.params["socket"])
        try:
            ping = ctl.must({"cmd": "ping"})
            f["version"] = dict(
                (k, ping.get(k)) for k in ("version", "pid", "config", "writes")
            )
            # The ports (and their queues' counters) are needed by the
            # summary and the per-port shows, whatever is asked.
            f["ports"] = ctl.show("show queuing interface")
            f["pfc"] = ctl.show("show interface priority-flow-control")
            # The summary's no-drop queues and storms come from it too.
            f["pfc_queue"] = ctl.show("show queuing pfc-queue", ["detail"])
            if "dcbx" in want:
                f["dcbx"] = {}
                for p in _ifaces(f["pfc"]):
                    name = p.get("name")
                    r = ctl.call(
                        {
                            "cmd": "show",
                            "what": "show lldp dcbx interface",
                            "args": [name],
                            "json": True,
                        }
                    )
                    # A port without LLDP says why instead of failing all.
                    f["dcbx"][name] = (
                        r.get("data") if r.get("ok") else {"error": r.get("error")}
                    )
            if "lldp" in want:
                f["lldp"] = dict(
                    neighbors=ctl.show("show lldp neighbors", ["detail"]),
                    traffic=ctl.show("show lldp traffic"),
                )
            if "flowcontrol" in want:
                f["flowcontrol"] = ctl.show("show interface flowcontrol")
        finally:
            ctl.close()
    except RocedError as e:
        module.fail_json(msg=str(e))
    f["summary"] = summary(f)
    for k in PARTS:
        if k not in want and k not in ("ports", "pfc", "pfc_queue"):
            f.pop(k, None)
    module.exit_json(changed=False, ansible_facts=dict(roced=f))


if __name__ == "__main__":
    main()
