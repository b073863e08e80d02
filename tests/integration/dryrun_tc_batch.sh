#!/bin/sh
# dryrun_tc_batch: replay `roced --dry-run --caps host` with tc -batch and
# ip -batch into veth ports of a private network namespace, then read the
# kernel back (tc -j, ip -j, and rtnetlink for the htb classes, which tc
# 6.1 does not print as JSON) and check that it holds exactly the objects
# the reference policy (conf/roced.conf) calls for.
#
# The expected objects below are written by hand from the reference
# policy, not taken from the dry run:
#   - 10 Gb/s assumed for veth (no speed): 1250000000 bytes/s;
#   - frames of MTU 9216 + 18 bytes of Ethernet/VLAN header = 9234;
#   - ROCE_QUEUING_OUT: q3 and q-default 50 %, q1/q2 0 %, q4-q7 absent
#     (0 %); no strict queue;
#   - ROCE_CLASS: match-any cos 3 or dscp 26 -> qos-group 3; this kernel
#     has no flower, so one cls_bpf rule (protocol all, prio 4791) holds
#     the whole policy and sends the rest to q-default's class 4791:10
#     (what its program does with frames is apply_bpf.sh's to check, in
#     the kernel).
# Also checked: every "#dcb app" line passes dcb's parser (a veth has no
# dcbnl, so the kernel's "not supported" is the expected failure).
#
# Needs root (network namespaces); exit 77 (skip) otherwise.
set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
roced=$top_builddir/roced
conf=$top_srcdir/conf/roced.conf

. "$top_srcdir/tests/integration/lib.sh"
t_init dryrun_tc_batch
if [ "$(id -u)" != 0 ]; then
	echo "SKIP: needs root to create a network namespace and veth ports"
	exit 77
fi
for tool in ip tc dcb python3; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "ERROR: $tool is not installed"
		exit 99
	fi
done
if [ ! -x "$roced" ]; then
	echo "ERROR: $roced is not built"
	exit 99
fi

tmp=$t_tmp
ns=""

fail() {
	echo "FAIL: $*"
	exit 1
}

# A fresh namespace with veth ports swp1..swp3 (peers swpNp, same ns).
new_ns() {
	if [ -n "$ns" ]; then
		t_netns_del "$ns" || fail "cannot delete namespace $ns"
	fi
	t_netns_add ns "text-$1" || fail "cannot create a namespace"
	for p in swp1 swp2 swp3; do
		ip -n "$ns" link add "$p" type veth peer name "${p}p" ||
			fail "cannot create veth $p"
		ip -n "$ns" link set "$p" up || fail "cannot bring $p up"
		ip -n "$ns" link set "${p}p" up || fail "cannot bring ${p}p up"
	done
}

# Replay the dry run FILE into the namespace: tc lines, then "#ip" lines.
# Both must succeed without a word on stderr.
replay() {
	ip netns exec "$ns" tc -batch "$1" >"$tmp/tc.out" 2>&1 || {
		cat "$tmp/tc.out"
		fail "tc -batch refused the dry run $1"
	}
	[ -s "$tmp/tc.out" ] && {
		cat "$tmp/tc.out"
		fail "tc -batch complained about the dry run $1"
	}
	sed -n 's/^#ip //p' "$1" >"$tmp/ip.batch"
	[ -s "$tmp/ip.batch" ] || fail "the dry run $1 has no #ip line"
	ip -n "$ns" -batch "$tmp/ip.batch" >"$tmp/ip.out" 2>&1 || {
		cat "$tmp/ip.out"
		fail "ip -batch refused the #ip lines of $1"
	}
}

# Every "#dcb" line must get past dcb's parser: on a veth the kernel then
# answers "not supported". pfc and ets read the port before they parse,
# so on a veth only the app lines really exercise the parser.
check_dcb_lines() {
	has_pcp=0
	has_trust=0
	dcb app help 2>&1 | grep -q pcp-prio && has_pcp=1
	dcb apptrust help >/dev/null 2>&1 && has_trust=1
	sed -n 's/^#dcb //p' "$1" >"$tmp/dcb.lines"
	[ -s "$tmp/dcb.lines" ] || fail "the dry run $1 has no #dcb line"
	while read -r line; do
		case $line in
		*pcp-prio*) [ $has_pcp = 1 ] || {
			echo "note: this dcb lacks pcp-prio, not checked: $line"
			continue
		} ;;
		apptrust*) [ $has_trust = 1 ] || {
			echo "note: this dcb lacks apptrust, not checked: $line"
			continue
		} ;;
		esac
		# shellcheck disable=SC2086 # the line is dcb's argument list
		if ip netns exec "$ns" dcb $line >"$tmp/dcb.out" 2>&1; then
			fail "dcb accepted '$line' on a veth (no dcbnl?)"
		fi
		grep -q 'Operation not supported' "$tmp/dcb.out" || {
			cat "$tmp/dcb.out"
			fail "dcb did not parse '$line'"
		}
	done <"$tmp/dcb.lines"
}

# check.py PORT-SPEC...: compare what the kernel holds on each port with
# the hand-written expectation for that port's role.
cat >"$tmp/check.py" <<'PY'
import json, socket, struct, subprocess, sys

SPEED = 1250000000          # 10 Gb/s in bytes/s, the default for veth
FRAME = 9216 + 18           # MTU 9216 plus Ethernet + VLAN header
TENTH_PCT = SPEED // 1000   # 0 % queues: a tenth of 1 % of the port


def roce_port():
    """swp1 under ROCE_POLICY / ROCE_QUEUING_OUT on htb + bfifo, the
    no-drop queue 3 on a released tbf (software PFC), whose own class
    4713:1 the kernel lists too."""
    qdiscs = {("htb", "4791:", "root"): {"r2q": 10, "default": "0x10"}}
    classes = {"4791:1": dict(parent="root", rate=SPEED, ceil=SPEED),
               "4713:1": dict(parent="4713:0")}
    for q in range(8):
        if q == 3:
            qdiscs[("tbf", "4713:", "4791:13")] = {}
        else:
            qdiscs[("bfifo", "471%d:" % q, "4791:1%d" % q)] = {
                "limit": 1000 * FRAME}
        pct = {0: 50, 3: 50}.get(q, 0)
        classes["4791:1%d" % q] = dict(
            parent="4791:1",
            rate=SPEED * pct // 100 if pct else TENTH_PCT,
            ceil=SPEED, prio=1,
            quantum=pct * FRAME if pct else FRAME // 10)
    # one classic BPF program, class-default to q-default
    filters = {(4791, "all"): ("4791:10", "bpf")}
    return dict(mtu=9216, qdiscs=qdiscs, classes=classes, filters=filters)


def bare_port(mtu):
    """A port roced must leave alone (or only give the system MTU)."""
    return dict(mtu=mtu, qdiscs={("noqueue", "0:", "root"): {}},
                classes={}, filters={})


ROLES = {"roce": roce_port, "mtu": lambda: bare_port(9216),
         "untouched": lambda: bare_port(1500)}
errors = []


def tc_json(*args):
    out = subprocess.run(["tc", "-j"] + list(args), check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out) if out.strip() else []


def htb_classes(dev):
    """classid -> fields, from an RTM_GETTCLASS dump (tc 6.1 prints no
    JSON for classes, and its text rounds rates)."""
    ifindex = socket.if_nametoindex(dev)
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)
    s.bind((0, 0))
    tcm = struct.pack("BxxxiIII", socket.AF_UNSPEC, ifindex, 0, 0, 0)
    s.send(struct.pack("IHHII", 16 + len(tcm), 42, 0x301, 1, 0) + tcm)
    found = {}
    done = False
    while not done:
        buf = s.recv(65536)
        off = 0
        while off < len(buf):
            ln, typ = struct.unpack_from("IH", buf, off)
            if typ == 3:                     # NLMSG_DONE
                done = True
                break
            if typ == 2:                     # NLMSG_ERROR
                raise OSError(-struct.unpack_from("i", buf, off + 16)[0],
                              "RTM_GETTCLASS")
            handle, parent = struct.unpack_from("II", buf, off + 24)
            attrs = parse_attrs(buf[off + 36:off + ln])
            kind = attrs.get(1, b"").rstrip(b"\0").decode()
            cls = dict(kind=kind, parent=handle_str(parent, True))
            if kind == "htb" and 2 in attrs:
                opt = parse_attrs(attrs[2])
                p = opt[1]
                cls["rate"] = struct.unpack_from("I", p, 8)[0]
                cls["ceil"] = struct.unpack_from("I", p, 20)[0]
                (cls["quantum"], cls["level"],
                 cls["prio"]) = struct.unpack_from("III", p, 32)
                if 6 in opt:
                    cls["rate"] = struct.unpack("Q", opt[6][:8])[0]
                if 7 in opt:
                    cls["ceil"] = struct.unpack("Q", opt[7][:8])[0]
            found[handle_str(handle, False)] = cls
            off += (ln + 3) & ~3
    s.close()
    return found


def parse_attrs(buf):
    attrs = {}
    off = 0
    while off + 4 <= len(buf):
        ln, typ = struct.unpack_from("HH", buf, off)
        if ln < 4:
            break
        attrs[typ & 0x3fff] = buf[off + 4:off + ln]
        off += (ln + 3) & ~3
    return attrs


def handle_str(h, is_parent):
    if h == 0xffffffff:
        return "root"
    return "%x:%x" % (h >> 16, h & 0xffff)


def check(dev, role):
    want = ROLES[role]()
    link = json.loads(subprocess.run(["ip", "-j", "link", "show", dev],
                                     check=True, capture_output=True,
                                     text=True).stdout)[0]
    if link["mtu"] != want["mtu"]:
        errors.append("%s: mtu %s, expected %s" % (dev, link["mtu"],
                                                   want["mtu"]))
    got = {}
    for q in tc_json("qdisc", "show", "dev", dev):
        parent = "root" if q.get("root") else q.get("parent")
        got[(q["kind"], q["handle"], parent)] = q.get("options", {})
    if set(got) != set(want["qdiscs"]):
        errors.append("%s: qdiscs %s, expected %s" % (
            dev, sorted(got), sorted(want["qdiscs"])))
    for key, opts in want["qdiscs"].items():
        for k, v in opts.items():
            if key in got and got[key].get(k) != v:
                errors.append("%s: qdisc %s %s: %s %r, expected %r" % (
                    dev, key[0], key[1], k, got[key].get(k), v))
    cls = htb_classes(dev)
    if set(cls) != set(want["classes"]):
        errors.append("%s: classes %s, expected %s" % (
            dev, sorted(cls), sorted(want["classes"])))
    for cid, fields in want["classes"].items():
        for k, v in fields.items():
            if cid in cls and cls[cid].get(k) != v:
                errors.append("%s: class %s: %s %r, expected %r" % (
                    dev, cid, k, cls[cid].get(k), v))
    flt = {}
    if want["classes"]:
        for f in tc_json("filter", "show", "dev", dev, "parent", "4791:"):
            o = f.get("options", {})
            if "flowid" not in o:
                continue            # the hash tables u32 makes itself
            key = (f["pref"], f["protocol"])
            if key in flt:
                errors.append("%s: two rules at %s" % (dev, key))
            if f.get("kind") == "bpf":
                ops = o.get("bytecode", {})
                flt[key] = (o["flowid"], "bpf" if ops.get("length", 0) ==
                            len(ops.get("insns", [])) > 0 else ops)
                continue
            m = o.get("match", {})
            flt[key] = (o["flowid"], m.get("value"), m.get("mask"))
    if flt != want["filters"]:
        errors.append("%s: filters %s, expected %s" % (dev, flt,
                                                       want["filters"]))
    for f in tc_json("filter", "show", "dev", dev, "ingress"):
        errors.append("%s: unexpected ingress filter %s" % (dev, f))
    print("checked %s as %s" % (dev, role))


for spec in sys.argv[1:]:
    dev, role = spec.split("=")
    check(dev, role)
for e in errors:
    print("MISMATCH: " + e)
sys.exit(1 if errors else 0)
PY

# 1: the ports of the configuration (swp1); swp2 and swp3 stay as they are.
new_ns all
"$roced" --dry-run --caps host -f "$conf" >"$tmp/dryrun1.txt" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "roced --dry-run failed"; }
replay "$tmp/dryrun1.txt"
check_dcb_lines "$tmp/dryrun1.txt"
ip netns exec "$ns" python3 "$tmp/check.py" swp1=roce swp2=untouched \
	swp3=untouched || fail "kernel state after the dry run (config ports)"
echo "ok: config ports"

# 2: --ports naming two ports, one by its NX-OS alias; swp2 has no
# interface block, so it gets only the system qos (network-qos: MTU 9216,
# no queuing policy, so no tc tree).
new_ns ports
"$roced" --dry-run --caps host --ports Ethernet1/1,swp2 -f "$conf" \
	>"$tmp/dryrun2.txt" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "roced --dry-run --ports failed"; }
grep -q '^# port swp1 (Ethernet1/1)$' "$tmp/dryrun2.txt" ||
	fail "--ports Ethernet1/1 did not plan swp1"
replay "$tmp/dryrun2.txt"
ip netns exec "$ns" python3 "$tmp/check.py" swp1=roce swp2=mtu \
	swp3=untouched || fail "kernel state after the dry run (--ports)"
echo "ok: --ports"
exit 0
