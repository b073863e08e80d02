#!/usr/bin/env python3
"""ports.py FILE: the Ethernet ports a pasted NX-OS configuration names,
one NX-OS name per line, in the order first named (ranges and lists
expanded, any spelling: ethernet 1/1, Eth1/1-3, Ethernet1/1, e1/7,
breakout ports e1/1/1-2).
The corpus tests give each a veth port swpN with that name as its alias,
as an operator declares the switch's ports before pasting."""
import re
import sys


def members(spec):
    out = []
    for item in re.sub(r'\s+', '', spec).split(','):
        # Ethernet1/7, e1/1-4, Eth1/1 - 1/4 (blanks gone), e1/1/1-2
        m = re.match(r'(?i)(?:ethernet|eth|e)((?:\d+/)+)(\d+)'
                     r'(?:-(?:(?:\d+/)+)?(\d+))?$', item)
        if not m:
            continue
        last = int(m.group(3) or m.group(2))
        out += ['Ethernet%s%d' % (m.group(1), n)
                for n in range(int(m.group(2)), last + 1)]
    return out


def main():
    seen = []
    for line in open(sys.argv[1]):
        m = re.match(r'\s*interface\s+(.*)$', line, re.I)
        if m:
            for name in members(m.group(1)):
                if name not in seen:
                    seen.append(name)
    print('\n'.join(seen))


if __name__ == '__main__':
    main()
