#!/usr/bin/env python3
"""A minimal client of roced's control socket (lib/ctl/ctl.h), for tests.

    ctl_client.py [--path P] send JSON [JSON ...]
        one connection; each request's reply printed on a line (compact
        JSON), then CLOSED if the daemon closed the connection after it
    ctl_client.py [--path P] raw N
        send one datagram of N bytes ('{' and spaces), print the reply and
        whether the connection was closed afterwards
    ctl_client.py [--path P] flood N
        open N connections at once, ping on each, print "ok=A refused=B
        other=C": refused counts the "too many clients" answers, other any
        other failure (a reset connection, no answer)
    ctl_client.py [--path P] hold N SECONDS
        open N connections, print "held", keep them idle for SECONDS, then
        print how many the daemon closed meanwhile: "closed=K"

The socket path is found as ctl_socket_path() does: /run/roced/roced.sock
in the host's network namespace, /run/roced/roced.<inode>.sock elsewhere.
"""
import json
import os
import socket
import sys
import time

REPLY_MAX = 4 * 1024 * 1024 + 1


def default_path():
    self_ino = os.stat('/proc/self/ns/net').st_ino
    mine = '/run/roced/roced.%d.sock' % self_ino
    try:
        init = os.stat('/proc/1/ns/net')
    except PermissionError:
        try:
            named = any(os.stat('/run/netns/' + n).st_ino == self_ino
                        for n in os.listdir('/run/netns'))
        except OSError:
            named = False
        return mine if named or os.path.exists(mine) \
            else '/run/roced/roced.sock'
    if init.st_ino == self_ino:
        return '/run/roced/roced.sock'
    return mine


def connect(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    # Blocking: a Unix connect() with a timeout fails at once (EAGAIN)
    # while the listen backlog is full, instead of waiting its turn.
    s.connect(path)
    s.settimeout(30)
    return s


def closed(s):
    """Whether the daemon closed S: an end, after what it said first (a
    refused client is told why before it is closed)."""
    s.settimeout(0.5)
    try:
        while s.recv(REPLY_MAX) != b'':
            pass
        return True
    except socket.timeout:
        return False
    except OSError:
        return True


def main(argv):
    path = None
    if len(argv) > 2 and argv[1] == '--path':
        path = argv[2]
        argv = argv[:1] + argv[3:]
    path = path or default_path()
    cmd, args = argv[1], argv[2:]
    if cmd == 'send':
        s = connect(path)
        for req in args:
            s.send(req.encode())
            data = s.recv(REPLY_MAX)
            if not data:
                print('CLOSED')
                return 0
            print(json.dumps(json.loads(data), separators=(',', ':')))
        if closed(s):
            print('CLOSED')
        return 0
    if cmd == 'raw':
        n = int(args[0])
        s = connect(path)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4 * n)
        s.send(b'{' + b' ' * (n - 1))
        data = s.recv(REPLY_MAX)
        print(json.dumps(json.loads(data), separators=(',', ':'))
              if data else 'NOREPLY')
        print('CLOSED' if closed(s) else 'OPEN')
        return 0
    if cmd == 'flood':
        n = int(args[0])
        socks, ok, refused, other = [], 0, 0, 0
        for _ in range(n):
            socks.append(connect(path))
        for s in socks:
            try:
                s.send(b'{"cmd":"ping"}')
                r = json.loads(s.recv(REPLY_MAX) or b'{}')
            except OSError:
                r = {}
            if r.get('ok'):
                ok += 1
            elif 'too many clients' in r.get('error', ''):
                refused += 1
            else:
                other += 1
        print('ok=%d refused=%d other=%d' % (ok, refused, other))
        return 0
    if cmd == 'hold':
        n, secs = int(args[0]), float(args[1])
        socks = [connect(path) for _ in range(n)]
        print('held', flush=True)
        time.sleep(secs)
        print('closed=%d' % sum(1 for s in socks if closed(s)))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
