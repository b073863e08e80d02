#!/usr/bin/python3 -S
"""udp_sink.py: receive UDP datagrams and count them by the TOS byte they
arrived with (IP_RECVTOS), so that a test sees what the end host sees:
DSCP and ECN codepoint, CE marks included.

usage: udp_sink.py [--port PORT] [--idle SECONDS] [--deadline SECONDS]
                   [--ready FILE] [--expect N]
  Binds 0.0.0.0:PORT (default 4791). Creates FILE once bound (the caller
  waits for it before sending). Stops once N datagrams have arrived
  (--expect), or when nothing arrived for --idle seconds (default 2)
  after the first datagram, or after --deadline seconds in all (default
  60). With --expect the idle time is only the way out when datagrams
  were lost, so it can be long: a stall of the sender or of a paused
  queue then cannot end the count early.

Prints one line per TOS value seen, "tos 0xNN N", then "total N".
"""
import os
import select
import socket
import sys
import time

SO_RCVBUFFORCE = 33  # not exported by the socket module


def main(argv):
    port, idle, deadline, ready, expect = 4791, 2.0, 60.0, None, 0
    i = 0
    while i + 1 < len(argv):
        opt, val = argv[i], argv[i + 1]
        if opt == "--port":
            port = int(val, 0)
        elif opt == "--idle":
            idle = float(val)
        elif opt == "--deadline":
            deadline = float(val)
        elif opt == "--ready":
            ready = val
        elif opt == "--expect":
            expect = int(val, 0)
        else:
            sys.stderr.write("udp_sink: unknown option %s\n" % opt)
            return 2
        i += 2
    if i != len(argv):
        sys.stderr.write("udp_sink: option without a value\n")
        return 2

    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.IPPROTO_IP, socket.IP_RECVTOS, 1)
    # The queue drains in bursts faster than we read under emulation: a
    # big buffer (FORCE: root, past rmem_max) keeps the count exact.
    try:
        s.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, 32 << 20)
    except OSError:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 32 << 20)
    s.bind(("0.0.0.0", port))
    s.setblocking(False)
    if ready:
        with open(ready + ".tmp", "w") as f:
            f.write("%d\n" % os.getpid())
        os.rename(ready + ".tmp", ready)

    counts = {}
    total = 0
    start = time.monotonic()
    last = None
    cmsg_space = socket.CMSG_SPACE(4)
    while True:
        if expect and total >= expect:
            break
        now = time.monotonic()
        if now - start > deadline:
            break
        if last is not None and now - last > idle:
            break
        r, _, _ = select.select([s], [], [], 0.2)
        if not r:
            continue
        while True:
            try:
                _, anc, _, _ = s.recvmsg(65536, cmsg_space)
            except BlockingIOError:
                break
            tos = -1
            for level, kind, data in anc:
                if level == socket.IPPROTO_IP and kind == socket.IP_TOS and data:
                    tos = data[0]
            counts[tos] = counts.get(tos, 0) + 1
            total += 1
        last = time.monotonic()
    for tos in sorted(counts):
        if tos < 0:
            print("tos none %d" % counts[tos])
        else:
            print("tos 0x%02x %d" % (tos, counts[tos]))
    print("total %d" % total)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
