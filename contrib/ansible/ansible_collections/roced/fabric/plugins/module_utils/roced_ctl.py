# -*- coding: utf-8 -*-
"""roced's control socket, as the roced.fabric modules speak it.

The protocol is roced(8)'s CONTROL SOCKET: a Unix SOCK_SEQPACKET socket,
one JSON object per datagram each way. One roced serves each network
namespace, at /run/roced/roced.sock in the host's and at
/run/roced/roced.<inode>.sock in any other (<inode>: the namespace's, as
`stat -L -c %i /proc/self/ns/net` prints it). The modules find it the
way rocesh does, so that a task run inside a namespace (the netns
connection, `ip netns exec`, a container) reaches that namespace's roced.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os
import socket

CTL_DIR = "/run/roced"
# The largest reply roced sends (CTL_MAX_REPLY), and one byte to tell a
# reply cut short.
REPLY_MAX = 4 * 1024 * 1024 + 1


class RocedError(Exception):
    """roced refused a request, or could not be reached."""


def socket_path():
    """The control socket of the roced of this process's namespace."""
    mine_ino = os.stat("/proc/self/ns/net").st_ino
    mine = "%s/roced.%d.sock" % (CTL_DIR, mine_ino)
    host = CTL_DIR + "/roced.sock"
    try:
        is_host = os.stat("/proc/1/ns/net").st_ino == mine_ino
    except OSError:
        # Not provable (not root, or /proc/1 hidden): the namespace's
        # own socket when it has one.
        return mine if os.path.exists(mine) else host
    if is_host and (os.path.exists(host) or not os.path.exists(mine)):
        return host
    return mine


class Ctl:
    """One connection to roced."""

    def __init__(self, path=None, timeout=300):
        self.path = path or socket_path()
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self.sock.connect(self.path)
        except OSError as e:
            self.sock.close()
            raise RocedError(
                "no roced answers at %s: %s (is roced running in this "
                "network namespace?)" % (self.path, e.strerror or e)
            )
        # A reload waits for the kernel; a loaded switch may take a while.
        self.sock.settimeout(timeout)

    def close(self):
        self.sock.close()

    def call(self, req):
        """Send REQ (a dict), return roced's reply (a dict), ok or not."""
        self.sock.send(json.dumps(req).encode("utf-8"))
        data = self.sock.recv(REPLY_MAX)
        if not data:
            raise RocedError("roced closed the connection")
        if len(data) >= REPLY_MAX:
            raise RocedError("roced's reply was cut short")
        return json.loads(data.decode("utf-8"))

    def must(self, req):
        """REQ's reply, or RocedError with roced's error when refused."""
        r = self.call(req)
        if not r.get("ok"):
            raise RocedError(r.get("error") or "roced refused the request")
        return r

    def show(self, what, args=None):
        """The json data of `WHAT ARGS... json`."""
        return self.must(
            {"cmd": "show", "what": what, "args": list(args or []), "json": True}
        ).get("data")


# Where roced is looked for after PATH: Debian's package installs it in
# /usr/sbin, `make install` in /usr/local/sbin.
SBIN = ("/usr/sbin", "/usr/local/sbin", "/sbin")


def find_roced(path=None, sbin=SBIN):
    """The roced program: the first on PATH (PATH: the environment's),
    else in SBIN; None when there is none. PATH comes first, as a shell
    finds programs: a roced installed elsewhere than /usr/sbin (a build,
    /usr/local/bin, a venv-like prefix) is the one the operator put
    there, and must not be shadowed by an older packaged one."""
    if path is None:
        path = os.environ.get("PATH", "")
    for d in [p for p in path.split(os.pathsep) if p] + list(sbin):
        f = os.path.join(d, "roced")
        if os.path.isfile(f) and os.access(f, os.X_OK):
            return f
    return None
