#!/usr/bin/env python3
"""bpf-probe: can this process do what roced's contributor counting does
with bpf()? Creates an LRU hash map and loads a two-instruction socket
filter, as daemon/agent/contrib_kernel.c does. Exit 0 when both work;
else prints why (the errno of the call refused) and exits 1.

A container's system call filter (systemd-nspawn, Docker's default
profile) or a missing CAP_BPF refuses bpf(); roced then pauses every
port of a bridge (it says so in its log), which is what the tests of
pausing only the contributors rule out: they skip, saying this."""
import ctypes
import os
import platform
import sys

NR_BPF = {"x86_64": 321, "aarch64": 280}.get(platform.machine())
if NR_BPF is None:
    print(f"bpf() probe: unknown system call number on {platform.machine()}")
    sys.exit(1)
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long


class MapAttr(ctypes.Structure):
    _fields_ = [("map_type", ctypes.c_uint32), ("key_size", ctypes.c_uint32),
                ("value_size", ctypes.c_uint32),
                ("max_entries", ctypes.c_uint32), ("pad", ctypes.c_uint8 * 112)]


class ProgAttr(ctypes.Structure):
    _fields_ = [("prog_type", ctypes.c_uint32), ("insn_cnt", ctypes.c_uint32),
                ("insns", ctypes.c_uint64), ("license", ctypes.c_uint64),
                ("pad", ctypes.c_uint8 * 104)]


def bpf(cmd, attr):
    fd = libc.syscall(NR_BPF, cmd, ctypes.byref(attr), ctypes.sizeof(attr))
    return fd, ctypes.get_errno()


BPF_MAP_CREATE, BPF_PROG_LOAD = 0, 5
BPF_MAP_TYPE_LRU_HASH, BPF_PROG_TYPE_SOCKET_FILTER = 9, 1
fd, err = bpf(BPF_MAP_CREATE, MapAttr(BPF_MAP_TYPE_LRU_HASH, 16, 8, 64))
if fd < 0:
    print(f"bpf(BPF_MAP_CREATE) refused: {os.strerror(err)}")
    sys.exit(1)
os.close(fd)
# r0 = 0; exit
insns = (ctypes.c_uint8 * 16)(0xb7, 0, 0, 0, 0, 0, 0, 0,
                              0x95, 0, 0, 0, 0, 0, 0, 0)
lic = ctypes.create_string_buffer(b"GPL")
attr = ProgAttr(BPF_PROG_TYPE_SOCKET_FILTER, 2, ctypes.addressof(insns),
                ctypes.addressof(lic))
fd, err = bpf(BPF_PROG_LOAD, attr)
if fd < 0:
    print(f"bpf(BPF_PROG_LOAD) refused: {os.strerror(err)}")
    sys.exit(1)
os.close(fd)
sys.exit(0)
