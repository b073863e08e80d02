#!/usr/bin/env python3
"""tc-fixtures-c.py DIR UNITDIR: the tc netlink fixtures of DIR (*.hex) as C.

Writes one header per fixture family under UNITDIR/tcfx/ (the family is a
file name's first two words: dump-htb, req-class, req-filter, ...; a family
whose arrays would pass FILE_MAX lines is cut into numbered parts), each
fixture one array (its messages back to back, as a recv() buffer holds
them) annotated with an independent dissection of every header, attribute
and struct; and UNITDIR/tc_msg_fixtures.h, which includes them all and
holds the table of all fixtures (tcfx_all), the one header the tests
include. Headers of UNITDIR/tcfx/ that no family writes any more are
removed. The dissection is written here from the uapi headers' layouts,
not by roced's decoder, so that a reader can check the bytes the tests
compare against without trusting the code under test.

Regenerate after changing a .hex file (tests/tools/capture-tc-fixtures.sh
does it after a capture; `make tc-fixtures` in the build directory runs
this on the tree); test_tc_msg fails on arrays that differ from the .hex
files.
"""
import os
import struct
import sys

RTM = {36: "RTM_NEWQDISC", 37: "RTM_DELQDISC", 38: "RTM_GETQDISC",
       40: "RTM_NEWTCLASS", 41: "RTM_DELTCLASS", 42: "RTM_GETTCLASS",
       44: "RTM_NEWTFILTER", 45: "RTM_DELTFILTER", 46: "RTM_GETTFILTER"}
NLM_F = [(0x1, "REQUEST"), (0x2, "MULTI"), (0x4, "ACK"), (0x8, "ECHO")]
NLM_F_NEW = [(0x100, "REPLACE"), (0x200, "EXCL"), (0x400, "CREATE"),
             (0x800, "APPEND")]
NLM_F_GET = [(0x100, "ROOT"), (0x200, "MATCH")]

TCA = {1: "TCA_KIND", 2: "TCA_OPTIONS", 3: "TCA_STATS", 4: "TCA_XSTATS",
       5: "TCA_RATE", 6: "TCA_FCNT", 7: "TCA_STATS2", 8: "TCA_STAB",
       9: "TCA_PAD", 10: "TCA_DUMP_INVISIBLE", 11: "TCA_CHAIN",
       12: "TCA_HW_OFFLOAD", 13: "TCA_INGRESS_BLOCK",
       14: "TCA_EGRESS_BLOCK", 15: "TCA_DUMP_FLAGS", 16: "TCA_EXT_WARN_MSG"}
HTB = {1: "TCA_HTB_PARMS", 2: "TCA_HTB_INIT", 3: "TCA_HTB_CTAB",
       4: "TCA_HTB_RTAB", 5: "TCA_HTB_DIRECT_QLEN", 6: "TCA_HTB_RATE64",
       7: "TCA_HTB_CEIL64", 8: "TCA_HTB_PAD", 9: "TCA_HTB_OFFLOAD"}
ETS = {1: "TCA_ETS_NBANDS", 2: "TCA_ETS_NSTRICT", 3: "TCA_ETS_QUANTA",
       4: "TCA_ETS_QUANTA_BAND", 5: "TCA_ETS_PRIOMAP",
       6: "TCA_ETS_PRIOMAP_BAND"}
RED = {1: "TCA_RED_PARMS", 2: "TCA_RED_STAB", 3: "TCA_RED_MAX_P",
       4: "TCA_RED_FLAGS", 5: "TCA_RED_EARLY_DROP_BLOCK",
       6: "TCA_RED_MARK_BLOCK"}
U32 = {1: "TCA_U32_CLASSID", 2: "TCA_U32_HASH", 3: "TCA_U32_LINK",
       4: "TCA_U32_DIVISOR", 5: "TCA_U32_SEL", 6: "TCA_U32_POLICE",
       7: "TCA_U32_ACT", 8: "TCA_U32_INDEV", 9: "TCA_U32_PCNT",
       10: "TCA_U32_MARK", 11: "TCA_U32_FLAGS", 12: "TCA_U32_PAD"}
FLOWER = {1: "TCA_FLOWER_CLASSID", 2: "TCA_FLOWER_INDEV",
          3: "TCA_FLOWER_ACT", 8: "TCA_FLOWER_KEY_ETH_TYPE",
          9: "TCA_FLOWER_KEY_IP_PROTO", 22: "TCA_FLOWER_FLAGS",
          23: "TCA_FLOWER_KEY_VLAN_ID", 24: "TCA_FLOWER_KEY_VLAN_PRIO",
          25: "TCA_FLOWER_KEY_VLAN_ETH_TYPE", 73: "TCA_FLOWER_KEY_IP_TOS",
          74: "TCA_FLOWER_KEY_IP_TOS_MASK", 75: "TCA_FLOWER_KEY_IP_TTL",
          76: "TCA_FLOWER_KEY_IP_TTL_MASK", 86: "TCA_FLOWER_IN_HW_COUNT",
          102: "TCA_FLOWER_KEY_NUM_OF_VLANS"}
BPF = {1: "TCA_BPF_ACT", 2: "TCA_BPF_POLICE", 3: "TCA_BPF_CLASSID",
       4: "TCA_BPF_OPS_LEN", 5: "TCA_BPF_OPS", 6: "TCA_BPF_FD",
       7: "TCA_BPF_NAME", 8: "TCA_BPF_FLAGS", 9: "TCA_BPF_FLAGS_GEN",
       10: "TCA_BPF_TAG", 11: "TCA_BPF_ID"}
ACT = {1: "TCA_ACT_KIND", 2: "TCA_ACT_OPTIONS", 3: "TCA_ACT_INDEX",
       4: "TCA_ACT_STATS", 5: "TCA_ACT_PAD", 6: "TCA_ACT_COOKIE",
       7: "TCA_ACT_FLAGS", 8: "TCA_ACT_HW_STATS",
       9: "TCA_ACT_USED_HW_STATS", 10: "TCA_ACT_IN_HW_COUNT"}
SKBEDIT = {1: "TCA_SKBEDIT_TM", 2: "TCA_SKBEDIT_PARMS",
           3: "TCA_SKBEDIT_PRIORITY", 4: "TCA_SKBEDIT_QUEUE_MAPPING",
           5: "TCA_SKBEDIT_MARK", 6: "TCA_SKBEDIT_PAD", 7: "TCA_SKBEDIT_PTYPE",
           8: "TCA_SKBEDIT_MASK", 9: "TCA_SKBEDIT_FLAGS"}
ETH = {0x0800: "IPv4", 0x86dd: "IPv6", 0x8100: "802.1Q", 0x0003: "all"}


def handle(h):
    if h == 0xffffffff:
        return "root"
    if h == 0xfffffff1:
        return "ffff:fff1 (clsact/ingress)"
    if h == 0xfffffff2:
        return "ffff:fff2 (clsact ingress)"
    if h == 0xfffffff3:
        return "ffff:fff3 (clsact egress)"
    return "%x:%x" % (h >> 16, h & 0xffff)


class Out:
    def __init__(self):
        self.lines = []

    def comment(self, depth, text):
        self.lines.append("\t/* %s%s */" % ("  " * depth, text))

    def data(self, b):
        for i in range(0, len(b), 12):
            self.lines.append("\t" + " ".join("0x%02x," % x
                                              for x in b[i:i + 12]))


def runs(vals):
    """[0]=0 .. [155]=0, [156..255]=15 style summary of a table."""
    parts, start = [], 0
    for i in range(1, len(vals) + 1):
        if i == len(vals) or vals[i] != vals[start]:
            parts.append("[%d]=%d" % (start, vals[start]) if i - start == 1
                         else "[%d..%d]=%d" % (start, i - 1, vals[start]))
            start = i
    if len(parts) > 6:
        parts = parts[:3] + ["..."] + parts[-3:]
    return " ".join(parts)


def ratespec(b):
    cl, ll, ov, ca, mpu, rate = struct.unpack_from("<BBHhHI", b)
    return "cell_log %d linklayer %d overhead %d cell_align %d mpu %d " \
           "rate %u" % (cl, ll, ov, ca, mpu, rate)


def u(b, fmt):
    return struct.unpack_from(fmt, b)[0] if len(b) >= struct.calcsize(fmt) \
        else None


def value(name, p, kind):
    """A one-line meaning of attribute NAME's payload P, or ''."""
    if name in ("TCA_KIND", "TCA_ACT_KIND"):
        return '"%s"' % p.split(b"\0")[0].decode(errors="replace")
    if name == "TCA_HTB_INIT" and len(p) >= 20:
        v, r2q, d, dbg, dp = struct.unpack_from("<IIIII", p)
        return "tc_htb_glob: version %d rate2quantum %d defcls %#x " \
               "debug %d direct_pkts %d" % (v, r2q, d, dbg, dp)
    if name == "TCA_HTB_PARMS" and len(p) >= 44:
        buf, cbuf, q, lvl, prio = struct.unpack_from("<IIIII", p, 24)
        return "tc_htb_opt: rate {%s} ceil {%s} buffer %d cbuffer %d " \
               "quantum %d level %d prio %d" % (ratespec(p), ratespec(p[12:]),
                                                buf, cbuf, q, lvl, prio)
    if name in ("TCA_HTB_RTAB", "TCA_HTB_CTAB") and len(p) == 1024:
        return "ticks to send (i+1) << cell_log bytes: " + \
            runs(struct.unpack("<256I", p))
    if name in ("TCA_HTB_RATE64", "TCA_HTB_CEIL64") and len(p) >= 8:
        return "%d bytes/s" % u(p, "<Q")
    if name == "TCA_RED_PARMS" and len(p) >= 16:
        lim, mn, mx, w, pl, sc, fl = struct.unpack_from("<IIIBBBB", p)
        return "tc_red_qopt: limit %d qth_min %d qth_max %d Wlog %d Plog %d " \
               "Scell_log %d flags %#x" % (lim, mn, mx, w, pl, sc, fl)
    if name == "TCA_RED_STAB":
        return "idle damping table: " + runs(list(p))
    if name == "TCA_RED_MAX_P" and len(p) >= 4:
        return "max_P %u (%.4f)" % (u(p, "<I"), u(p, "<I") / 2.0 ** 32)
    if name == "TCA_RED_FLAGS" and len(p) >= 8:
        return "nla_bitfield32: value %#x selector %#x" % \
            struct.unpack_from("<II", p)
    if name == "TCA_U32_SEL" and len(p) >= 16:
        fl, osh, nk, om, off, ooff, hoff, hm = \
            struct.unpack_from("<BBBxHhhhI", p)
        om, hm = struct.unpack_from(">H", p, 4)[0], \
            struct.unpack_from(">I", p, 12)[0]
        s = "tc_u32_sel: flags %#x offshift %d nkeys %d offmask %#x off %d " \
            "offoff %d hoff %d hmask %#x" % (fl, osh, nk, om, off, ooff,
                                             hoff, hm)
        for k in range(nk):
            if len(p) >= 16 + 16 * (k + 1):
                m, v = struct.unpack_from(">II", p, 16 + 16 * k)
                ko, kom = struct.unpack_from("<ii", p, 24 + 16 * k)
                s += "; key mask %08x val %08x off %d offmask %d" % (
                    m, v, ko, kom)
        return s
    if name == "TCA_BPF_OPS" and len(p) % 8 == 0:
        return "struct sock_filter[%d] {code jt jf k}: %s" % (
            len(p) // 8, ", ".join("%d %d %d %d" % struct.unpack_from(
                "<HBBI", p, i) for i in range(0, len(p), 8)))
    if name == "TCA_BPF_FLAGS_GEN" and len(p) >= 4:
        return "%#x (8 = not in hardware)" % u(p, "<I")
    if name in ("TCA_U32_CLASSID", "TCA_FLOWER_CLASSID", "TCA_BPF_CLASSID",
                "TCA_U32_HASH",
                "TCA_U32_LINK") and len(p) >= 4:
        return handle(u(p, "<I"))
    if name in ("TCA_FLOWER_KEY_ETH_TYPE", "TCA_FLOWER_KEY_VLAN_ETH_TYPE") \
            and len(p) >= 2:
        e = u(p, ">H")
        return "%#06x %s" % (e, ETH.get(e, ""))
    if name == "TCA_SKBEDIT_PARMS" and len(p) >= 20:
        return "tc_skbedit: index %d capab %d action %d (3 = pipe) " \
               "refcnt %d bindcnt %d" % struct.unpack_from("<IIiii", p)
    if kind in ("bfifo", "pfifo") and name == "TCA_OPTIONS" and len(p) >= 4:
        return "tc_fifo_qopt: limit %d" % u(p, "<I")
    if kind in ("prio", "pfifo_fast") and name == "TCA_OPTIONS" \
            and len(p) >= 20:
        return "tc_prio_qopt: bands %d priomap %s%s" % (
            u(p, "<i"), " ".join(str(x) for x in p[4:20]),
            "; then an empty nested TCA_OPTIONS" if len(p) == 24 else "")
    if len(p) in (1, 2, 4, 8) and name not in (
            "TCA_STATS", "TCA_XSTATS", "TCA_STATS2", "TCA_OPTIONS"):
        return "%d" % u(p, {1: "<B", 2: "<H", 4: "<I", 8: "<Q"}[len(p)])
    return ""


def table(ctx):
    return {"top": TCA, "htb": HTB, "ets": ETS, "red": RED, "u32": U32,
            "flower": FLOWER, "bpf": BPF, "act": ACT,
            "skbedit": SKBEDIT}.get(ctx, {})


def attrs(out, b, depth, ctx, kind):
    off = 0
    while off + 4 <= len(b):
        ln, ty = struct.unpack_from("<HH", b, off)
        if ln < 4 or off + ln > len(b):
            out.comment(depth, "malformed attribute (len %d)" % ln)
            out.data(b[off:])
            return
        t = ty & 0x3fff
        nested = bool(ty & 0x8000)
        p = b[off + 4:off + ln]
        if ctx == "actlist":
            name = "action %d" % t
        elif ctx == "etsquanta":
            name = "TCA_ETS_QUANTA_BAND" if t == 4 else "type %d" % t
        elif ctx == "etsprio":
            name = "TCA_ETS_PRIOMAP_BAND" if t == 6 else "type %d" % t
        else:
            name = table(ctx).get(t, "attribute %d" % t)
        v = value(name, p, kind)
        out.comment(depth, "%s%s, %d bytes%s" % (
            name, " (NLA_F_NESTED)" if nested else "", ln,
            ": " + v if v else ""))
        sub = None
        if name == "TCA_OPTIONS" and kind in ("htb", "ets", "red", "u32",
                                              "flower", "bpf"):
            sub = kind
        elif name in ("TCA_U32_ACT", "TCA_FLOWER_ACT"):
            sub = "actlist"
        elif ctx == "actlist":
            sub = "act"
        elif name == "TCA_ACT_OPTIONS" and kind == "skbedit":
            sub = "skbedit"
        elif name == "TCA_ETS_QUANTA":
            sub = "etsquanta"
        elif name == "TCA_ETS_PRIOMAP":
            sub = "etsprio"
        if sub:
            out.data(b[off:off + 4])
            akind = kind
            if sub == "act":
                # the action's kind names its options
                o2 = 0
                while o2 + 4 <= len(p):
                    l2, t2 = struct.unpack_from("<HH", p, o2)
                    if l2 < 4:
                        break
                    if t2 & 0x3fff == 1:
                        akind = p[o2 + 4:o2 + l2].split(b"\0")[0].decode()
                    o2 += (l2 + 3) & ~3
            attrs(out, p, depth + 1, sub, akind)
            pad = ((ln + 3) & ~3) - ln
            if pad and off + ln + pad <= len(b):
                out.data(b[off + ln:off + ln + pad])
        else:
            out.data(b[off:min(off + ((ln + 3) & ~3), len(b))])
        off += (ln + 3) & ~3


def message(out, b):
    ln, ty, fl, seq, pid = struct.unpack_from("<IHHII", b)
    names = NLM_F + (NLM_F_GET if ty in (38, 42, 46) else NLM_F_NEW)
    flags = "|".join(n for bit, n in names if fl & bit) or "0"
    out.comment(0, "nlmsghdr: len %d, %s, flags %s, seq %#x, pid %d" % (
        ln, RTM.get(ty, str(ty)), flags, seq, pid))
    out.data(b[:16])
    fam, ifi, h, par, info = struct.unpack_from("<BxxxiIII", b, 16)
    extra = ""
    if ty in (44, 45, 46) and info:
        proto = struct.unpack(">H", struct.pack("<H", info & 0xffff))[0]
        extra = " (prio %d, protocol %#06x %s)" % (info >> 16, proto,
                                                   ETH.get(proto, ""))
    out.comment(0, "tcmsg: family %d, ifindex %d, handle %s, parent %s, "
                "info %#x%s" % (fam, ifi, handle(h), handle(par), info, extra))
    out.data(b[16:36])
    kind = ""
    o = 36
    while o + 4 <= ln:
        l2, t2 = struct.unpack_from("<HH", b, o)
        if l2 < 4:
            break
        if t2 == 1:
            kind = b[o + 4:o + l2].split(b"\0")[0].decode(errors="replace")
        o += (l2 + 3) & ~3
    attrs(out, b[36:ln], 0, "top", kind)


def cname(name):
    return "tcfx_" + name.replace("-", "_")


# A generated header stays under the tree's 1000 lines per file.
FILE_MAX = 950


def fixture_lines(d, n):
    """The C text of fixture N (a list of lines)."""
    comments, msgs = [], []
    for line in open(os.path.join(d, n + ".hex")):
        line = line.strip()
        if line.startswith("#"):
            comments.append(line[1:].strip())
        elif line:
            msgs.append(bytes.fromhex(line))
    out = Out()
    for i, m in enumerate(msgs):
        if len(msgs) > 1:
            out.comment(0, "--- message %d of %d ---" % (i + 1, len(msgs)))
        message(out, m)
    lines = ["", "/* %s:" % n]
    lines += [" *   " + c.replace("*/", "* /") for c in comments]
    lines.append(" */")
    lines.append("static const uint8_t %s[] __attribute__((aligned(4))) = {"
                 % cname(n))
    lines += out.lines
    lines.append("};")
    return lines


def family(n):
    return "_".join(n.split("-")[:2])


def header(path, guard, what, body):
    with open(path, "w") as f:
        f.write("/* %s. GENERATED by\n" % what)
        f.write(" * tests/tools/tc-fixtures-c.py from the .hex files of "
                "tests/fixtures/tc\n")
        f.write(" * (recorded by tests/tools/capture-tc-fixtures.sh): "
                "do not edit. */\n")
        f.write("#ifndef %s\n#define %s\n/* clang-format off */\n\n"
                % (guard, guard))
        f.write("\n".join(body) + "\n")
        f.write("\n/* clang-format on */\n#endif\n")


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: tc-fixtures-c.py FIXTURE-DIR UNIT-TEST-DIR")
    d, unit = sys.argv[1], sys.argv[2]
    sub = os.path.join(unit, "tcfx")
    os.makedirs(sub, exist_ok=True)
    names = sorted(f[:-4] for f in os.listdir(d) if f.endswith(".hex"))
    # Each family's fixtures, cut into parts of at most FILE_MAX lines
    # (a fixture alone longer than that gets a part of its own).
    parts = []  # [family, [fixture lines...]]
    for n in names:
        lines = fixture_lines(d, n)
        fam = family(n)
        if parts and parts[-1][0] == fam and \
                len(parts[-1][1]) + len(lines) + 12 <= FILE_MAX:
            parts[-1][1].extend(lines)
        else:
            parts.append([fam, list(lines)])
    counts = {}
    for fam, _ in parts:
        counts[fam] = counts.get(fam, 0) + 1
    seen, files = {}, []
    for fam, lines in parts:
        seen[fam] = seen.get(fam, 0) + 1
        base = fam if counts[fam] == 1 else "%s_%d" % (fam, seen[fam])
        files.append(base + ".h")
        header(os.path.join(sub, base + ".h"),
               "ROCED_TCFX_%s_H" % base.upper(),
               "tc netlink fixtures of the %s family as C arrays" %
               fam.replace("_", "-"),
               ["#include <stdint.h>"] + lines)
    for f in os.listdir(sub):
        if f.endswith(".h") and f not in files:
            os.remove(os.path.join(sub, f))
    body = ["#include <stddef.h>", "#include <stdint.h>", ""]
    body += ['#include "tcfx/%s"' % f for f in files]
    body += ["", "struct tcfx {", "\tconst char *name;",
             "\tconst uint8_t *data;", "\tsize_t len;", "};", "",
             "static const struct tcfx tcfx_all[] = {"]
    body += ['\t{ "%s", %s, sizeof(%s) },' % (n, cname(n), cname(n))
             for n in names]
    body.append("};")
    header(os.path.join(unit, "tc_msg_fixtures.h"),
           "ROCED_TC_MSG_FIXTURES_H",
           "tc netlink fixtures as C arrays, one header per family under "
           "tcfx/,\n * and the table of them all", body)


if __name__ == "__main__":
    main()
