#!/usr/bin/env python3
"""Flood a port with malformed LLDPDUs while timing roced's answers.

    lldp_flood.py IFACE RATE SECONDS CTL_SOCKET ROCED_PID [chassis]

Sends RATE malformed LLDPDUs per second out of IFACE for SECONDS (paced
in 10 ms slices, so the rate holds over each slice), and every 100 ms
asks roced for `show lldp traffic` over its control socket, timing the
answer. Prints one JSON line: frames sent, the answer times (ms: count,
median, max) and roced's resident set (kB, from /proc/PID/status) before
and after.

Each frame is an LLDPDU whose Chassis ID TLV claims 255 bytes in a 60-byte
frame: malformed by 802.1AB 9.2.7.7 wherever it is cut. With the word
`chassis` after the pid, each frame is instead a well-formed LLDPDU from a
new random chassis ID (a random-chassis flood), carrying a PFC
Configuration TLV (not willing, PFC on priority 4).
"""
import json
import socket
import statistics
import sys
import time


def rss_kb(pid):
    with open('/proc/%d/status' % pid) as f:
        for line in f:
            if line.startswith('VmRSS:'):
                return int(line.split()[1])
    return -1


def frame(src, seq):
    dst = bytes.fromhex('0180c200000e')
    body = bytes([0x02, 0xff, 0x04]) + seq.to_bytes(4, 'big')
    f = dst + src + b'\x88\xcc' + body
    return f + bytes(60 - len(f))


def frame_chassis(src, seq):
    """A valid LLDPDU from a random chassis (seq keeps them distinct)."""
    import os

    def tlv(t, body):
        return (t << 9 | len(body)).to_bytes(2, 'big') + body
    chassis = bytes([0x02]) + os.urandom(1) + seq.to_bytes(4, 'big')
    body = (tlv(1, b'\x04' + chassis) + tlv(2, b'\x05flood') +
            tlv(3, (120).to_bytes(2, 'big')) +
            tlv(127, b'\x00\x80\xc2\x0b\x08\x10') + tlv(0, b''))
    f = bytes.fromhex('0180c200000e') + src + b'\x88\xcc' + body
    return f + bytes(max(0, 60 - len(f)))


def ask(ctl):
    req = {'cmd': 'show', 'what': 'show lldp traffic', 'args': [],
           'json': True}
    t0 = time.monotonic()
    ctl.send(json.dumps(req).encode())
    reply = ctl.recv(4 * 1024 * 1024)
    ms = (time.monotonic() - t0) * 1000
    if not reply:
        raise SystemExit('roced closed the control connection')
    return ms


def main():
    iface, rate, seconds, path, pid = sys.argv[1], int(sys.argv[2]), \
        float(sys.argv[3]), sys.argv[4], int(sys.argv[5])
    make = frame_chassis if sys.argv[6:7] == ['chassis'] else frame
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((iface, 0))
    with open('/sys/class/net/%s/address' % iface) as f:
        src = bytes.fromhex(f.read().strip().replace(':', ''))
    ctl = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    ctl.connect(path)
    ctl.settimeout(30)
    rss0 = rss_kb(pid)
    per_slice = rate // 100
    sent = 0
    times = []
    start = time.monotonic()
    next_slice = start
    next_ask = start
    rss_warm = None
    while True:
        now = time.monotonic()
        if now - start >= seconds:
            break
        # Once the flood has run for a fifth of its time, whatever roced
        # allocates once (buffers grown to their working size, the
        # allocator's caches) is there: growth after that is per frame.
        if rss_warm is None and now - start >= seconds / 5:
            rss_warm = rss_kb(pid)
        if now >= next_ask:
            times.append(ask(ctl))
            next_ask += 0.1
        if now >= next_slice:
            for _ in range(per_slice):
                while True:
                    try:
                        s.send(make(src, sent))
                        break
                    except BlockingIOError:
                        time.sleep(0.0005)
                sent += 1
            next_slice += 0.01
        else:
            time.sleep(min(next_slice, next_ask) - now
                       if min(next_slice, next_ask) > now else 0)
    elapsed = time.monotonic() - start
    time.sleep(0.5)  # the last slice reaches roced
    times.append(ask(ctl))
    print(json.dumps({
        'sent': sent, 'seconds': round(elapsed, 3),
        'answers': len(times),
        'answer_ms_median': round(statistics.median(times), 2),
        'answer_ms_max': round(max(times), 2),
        'answers_over_100ms': sum(1 for t in times if t >= 100),
        'rss_kb_before': rss0, 'rss_kb_warm': rss_warm,
        'rss_kb_after': rss_kb(pid)}))


main()
