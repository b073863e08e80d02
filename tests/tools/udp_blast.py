#!/usr/bin/python3 -S
"""udp_blast.py: send UDP datagrams from several flows, interleaved, as
fast as the stack takes them, and print what was sent.

usage: udp_blast.py [--size BYTES] [--port PORT] FLOW...
  FLOW is DST,TOS,COUNT: COUNT datagrams to DST:PORT with the IP TOS
  byte TOS (0x6a = DSCP 26 + ECT(0)). The flows are interleaved in
  proportion to their counts, so that a queue shared by them sees them
  mixed. The socket priority stays 0: classification is the switch's job.

Prints one line per flow, "DST TOS sent N", then "elapsed S pps P".
Exit 0 when every datagram was handed to the kernel, 1 otherwise.

Run with -S (no site import): under QEMU/TCG every import costs time.
"""
import socket
import sys
import time

SO_SNDBUFFORCE = 32  # not exported by the socket module


def parse(argv):
    size, port, flows = 1000, 4791, []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--size", "--port") and i + 1 < len(argv):
            if a == "--size":
                size = int(argv[i + 1], 0)
            else:
                port = int(argv[i + 1], 0)
            i += 2
            continue
        parts = a.split(",")
        if len(parts) != 3:
            raise ValueError("flow %r is not DST,TOS,COUNT" % a)
        flows.append((parts[0], int(parts[1], 0), int(parts[2], 0)))
        i += 1
    if not flows:
        raise ValueError("no flow given")
    return size, port, flows


def main(argv):
    try:
        size, port, flows = parse(argv)
    except ValueError as e:
        sys.stderr.write("udp_blast: %s\n" % e)
        return 2
    socks = []
    for dst, tos, count in flows:
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.setsockopt(socket.IPPROTO_IP, socket.IP_TOS, tos)
        # IP_TOS also sets the socket priority from the TOS bits (0x6a
        # gives 2); put it back to 0 after it, so that the VLAN egress map
        # and the switch's classification see what a plain host sends.
        s.setsockopt(socket.SOL_SOCKET, socket.SO_PRIORITY, 0)
        # A datagram queued in a switch behind a veth stays charged to this
        # socket until it leaves the queue, so the send buffer caps the
        # queue a burst can build (about 400 KB with the default
        # wmem_max). As root, FORCE lifts the cap past wmem_max.
        try:
            s.setsockopt(socket.SOL_SOCKET, SO_SNDBUFFORCE, 32 << 20)
        except OSError:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 32 << 20)
        socks.append((s, (dst, port)))
    payload = b"R" * size
    total = sum(f[2] for f in flows)
    sent = [0] * len(flows)
    failed = 0
    # Bresenham-like interleave: at each step send on every flow that is
    # behind its share of the datagrams sent so far.
    t0 = time.monotonic()
    for step in range(1, total + 1):
        for k, (dst, tos, count) in enumerate(flows):
            if sent[k] < count and sent[k] * total < count * step:
                try:
                    socks[k][0].sendto(payload, socks[k][1])
                except OSError:
                    failed += 1
                sent[k] += 1
    el = time.monotonic() - t0
    for k, (dst, tos, count) in enumerate(flows):
        print("%s 0x%02x sent %d" % (dst, tos, sent[k]))
    print("elapsed %.3f pps %.0f failed %d" % (el, total / el if el else 0, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
