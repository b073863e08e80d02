#!/usr/bin/python3 -S
"""frame_send.py: send N raw Ethernet frames out of a port, to see where
a classifier puts them.

usage: frame_send.py DEV COUNT KIND DSCP PCP
  KIND  ip (IPv4/UDP 4791), ip6 (IPv6/UDP 4791) or arp
  DSCP  0-63 (ignored for arp)
  PCP   0-7: the frame carries an 802.1Q tag (VLAN 7) of that priority,
        in its bytes; '-': untagged
Frames go to the broadcast address through an AF_PACKET socket, so they
pass DEV's qdisc like any frame the port sends (a bridge port that gets
them from its peer forwards them with the tag in the skb's metadata).
All frames of one call have one size. Exit 0 when every frame was sent.
"""
import socket
import struct
import sys


def frame(kind, dscp, pcp):
    udp = struct.pack('!HHHH', 4791, 4791, 8 + 16, 0) + b'r' * 16
    if kind == 'ip':
        etype = 0x0800
        l3 = struct.pack('!BBHHHBBH4s4s', 0x45, dscp << 2 | 2,
                         20 + len(udp), 0, 0, 64, 17, 0,
                         bytes([192, 0, 2, 1]), bytes([192, 0, 2, 2])) + udp
    elif kind == 'ip6':
        etype = 0x86dd
        tclass = dscp << 2 | 1
        word = 6 << 28 | tclass << 20 | 0x12345
        l3 = struct.pack('!IHBB16s16s', word, len(udp), 17, 64,
                         b'\xfd' + b'\x00' * 14 + b'\x01',
                         b'\xfd' + b'\x00' * 14 + b'\x02') + udp
    elif kind == 'arp':
        etype = 0x0806
        l3 = struct.pack('!HHBBH6s4s6s4s', 1, 0x0800, 6, 4, 1,
                         b'\x02\x00\x00\x00\x00\x01', bytes([192, 0, 2, 1]),
                         b'\x00' * 6, bytes([192, 0, 2, 2]))
    else:
        raise ValueError('KIND is ip, ip6 or arp, not %r' % kind)
    tag = b'' if pcp is None else struct.pack('!HH', 0x8100, pcp << 13 | 7)
    eth = b'\xff' * 6 + b'\x02\x00\x00\x00\x00\x01' + tag
    return eth + struct.pack('!H', etype) + l3


def main(argv):
    if len(argv) != 5:
        sys.stderr.write(__doc__)
        return 2
    dev, count, kind, dscp = argv[0], int(argv[1]), argv[2], int(argv[3])
    pcp = None if argv[4] == '-' else int(argv[4])
    if not 0 <= dscp <= 63 or (pcp is not None and not 0 <= pcp <= 7):
        sys.stderr.write('frame_send: DSCP 0-63, PCP 0-7 or -\n')
        return 2
    f = frame(kind, dscp, pcp)
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((dev, 0))
    for _ in range(count):
        if s.send(f) != len(f):
            return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
