#!/usr/bin/env python3
"""A scripted DCBX neighbour: send LLDPDUs with an IEEE PFC Configuration
TLV (and optionally an Application Priority TLV) out of a port.

    lldp_peer.py IFACE [--chassis MAC] [--port NAME] [--ttl N]
                 [--willing] [--enable MASK] [--cap N]
                 [--app PRIO:SEL:PROTO ...] [--ets-rec BW,BW,...]
                 [--prio-tc TC,TC,...]
                 [--count N] [--interval S]
                 [--flap MASK]

Sends COUNT frames (default 1) every INTERVAL seconds (default 1). With
--flap, every other frame carries MASK instead of --enable: a peer that
changes its mind at each frame. The chassis ID is a MAC (subtype 4,
default the port's own address) and the port ID an interface name
(subtype 5). --ets-rec sends an ETS Recommendation TLV with these eight
bandwidth shares (ETS for a share, strict for none) and priority n in
traffic class n, or in the nth class of --prio-tc (a Nexus in 4-queue
mode sends 0,0,0,1,0,0,0,0: priority 3 in TC 1). A willing peer that
always sends --enable 0 is NIC firmware that never re-advertises what it
took.
"""
import argparse
import socket
import struct
import time


def tlv(t, body):
    return struct.pack('!H', t << 9 | len(body)) + body


def lldpdu(a, enable):
    chassis = bytes.fromhex(a.chassis.replace(':', ''))
    b = tlv(1, b'\x04' + chassis)
    b += tlv(2, b'\x05' + a.port.encode())
    b += tlv(3, struct.pack('!H', a.ttl))
    if a.ttl:
        w = (0x80 if a.willing else 0) | (a.cap & 0x0f)
        b += tlv(127, b'\x00\x80\xc2\x0b' + bytes([w, enable]))
        if a.ets_rec:
            bw = [int(x) for x in a.ets_rec.split(',')]
            bw += [0] * (8 - len(bw))
            tsa = bytes(2 if x else 0 for x in bw)
            tc = [int(x) for x in a.prio_tc.split(',')]
            tc += list(range(len(tc), 8))
            # 4 bits a priority, priority 0 in the high half of byte 0
            pt = bytes(tc[i] << 4 | tc[i + 1] for i in range(0, 8, 2))
            b += tlv(127, b'\x00\x80\xc2\x0a\x00' + pt + bytes(bw) + tsa)
        if a.app:
            body = b'\x00\x80\xc2\x0c\x00'
            for e in a.app:
                prio, sel, proto = (int(x) for x in e.split(':'))
                body += bytes([prio << 5 | sel]) + struct.pack('!H', proto)
            b += tlv(127, body)
    b += tlv(0, b'')
    return b


def main():
    p = argparse.ArgumentParser()
    p.add_argument('iface')
    p.add_argument('--chassis')
    p.add_argument('--port', default='peer0')
    p.add_argument('--ttl', type=int, default=120)
    p.add_argument('--willing', action='store_true')
    p.add_argument('--enable', type=lambda x: int(x, 0), default=0)
    p.add_argument('--cap', type=int, default=8)
    p.add_argument('--app', action='append', default=[])
    p.add_argument('--ets-rec')
    p.add_argument('--prio-tc', default='0,1,2,3,4,5,6,7')
    p.add_argument('--count', type=int, default=1)
    p.add_argument('--interval', type=float, default=1.0)
    p.add_argument('--flap', type=lambda x: int(x, 0))
    a = p.parse_args()
    with open('/sys/class/net/%s/address' % a.iface) as f:
        mac = f.read().strip()
    if not a.chassis:
        a.chassis = mac
    src = bytes.fromhex(mac.replace(':', ''))
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((a.iface, 0))
    for i in range(a.count):
        en = a.flap if a.flap is not None and i % 2 else a.enable
        f = bytes.fromhex('0180c200000e') + src + b'\x88\xcc' + lldpdu(a, en)
        s.send(f + bytes(max(0, 60 - len(f))))
        if i + 1 < a.count:
            time.sleep(a.interval)


if __name__ == '__main__':
    main()
