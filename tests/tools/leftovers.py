#!/usr/bin/env python3
"""leftovers: what a test run left behind (scripts/check.sh).

Usage:
  leftovers.py snapshot FILE --build-dir DIR
  leftovers.py check FILE --build-dir DIR --run ID [--tmpdir DIR] [--reap]

`snapshot` records the processes (pid and start time) and network
namespaces that exist before the run. `make check` then runs with
ROCED_TEST_RUN=ID in its environment, and the tests end the name of every
namespace they create with -ID (tests/integration/lib.sh). `check` lists,
after the run, and exits 1 if there is any:
  - a process whose environment carries ROCED_TEST_RUN=ID: a descendant of
    this run's `make check` that outlived it, whatever it is (roced, rocesh,
    tc monitor, a qemu guest, the udp tools, a tmux server, a sleep);
  - a process started during the run, of a kind the suite starts, whose
    working directory or command line is inside the build directory (one
    that was given a fresh environment);
  - a namespace whose name carries -ID;
  - anything left in the run's TMPDIR (--tmpdir);
  - anything new directly in /tmp that is not another run's TMPDIR: a
    program that ignores TMPDIR (nstat's history, a tmux server's socket
    directory) writes there, and the run's TMPDIR check cannot see it.
    Run the suite alone to trust this one: another engineer's work on
    the same machine may also write to /tmp meanwhile.
Only these count: other engineers and CI run tests on the same machine at
the same time, with the same namespace prefixes and the same programs, so a
new namespace that merely looks like a test's (roced-*, rocesh-*) is shown
as a note and not counted. With --reap, what was counted is then removed:
those processes are killed (they descend from this run) and those
namespaces deleted.
"""
import argparse
import json
import os
import re
import signal
import subprocess
import sys
import time

NETNS_DIR = "/run/netns"
TMP_ROOT = "/tmp"
# Other runs' TMPDIRs (scripts/check.sh's mktemp) are theirs to check.
OTHER_RUN_TMP = re.compile(r"^roced-check\.")
# The programs the suite starts (their comm, or a word of their command line).
KINDS = re.compile(r"^(roced|rocesh|tc|ip|tmux.*|qemu-system.*|fuzz_.*|setpriv|pfc_storm|traffic)$")
SCRIPTS = re.compile(r"(udp_sink\.py|udp_blast\.py|run-guest\.sh|ctl_client\.py)")
LOOKALIKE = re.compile(r"^(roced|rocesh|tcmsg|fk)")


def processes():
    """{pid: info} of every process, zombies and kernel threads left out."""
    out = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        pid = int(d)
        try:
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                argv = [a.decode(errors="replace") for a in f.read().split(b"\0") if a]
        except OSError:
            continue
        comm = stat[stat.index("(") + 1:stat.rindex(")")]
        rest = stat[stat.rindex(")") + 2:].split()
        if rest[0] == "Z" or not argv:
            continue
        info = {"pid": pid, "comm": comm, "ppid": int(rest[1]),
                "start": int(rest[19]), "argv": argv}
        try:
            info["cwd"] = os.readlink(f"/proc/{pid}/cwd")
        except OSError:
            info["cwd"] = ""
        try:
            with open(f"/proc/{pid}/environ", "rb") as f:
                info["environ"] = f.read().split(b"\0")
        except OSError:
            info["environ"] = []
        try:
            info["netns"] = os.readlink(f"/proc/{pid}/ns/net")
        except OSError:
            info["netns"] = ""
        out[pid] = info
    return out


def namespaces():
    try:
        return sorted(os.listdir(NETNS_DIR))
    except FileNotFoundError:
        return []


def ancestors():
    """This process and the ones it runs under (check.sh itself)."""
    seen, pid = set(), os.getpid()
    while pid > 1 and pid not in seen:
        seen.add(pid)
        try:
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
        except OSError:
            break
        pid = int(stat[stat.rindex(")") + 2:].split()[1])
    return seen


def inside(path, top):
    return path == top or path.startswith(top + "/")


def snapshot(args):
    procs = processes()
    with open(args.file, "w") as f:
        json.dump({"procs": sorted(f"{p['pid']}:{p['start']}" for p in procs.values()),
                   "netns": namespaces(),
                   "tmp": sorted(os.listdir(TMP_ROOT))}, f)
    return 0


def describe(p):
    ns = p["netns"]
    if ns == os.readlink("/proc/self/ns/net"):
        ns = "check.sh's own"
    for name in namespaces():
        try:
            if os.stat(os.path.join(NETNS_DIR, name)).st_ino == int(ns[5:-1]):
                ns = name
                break
        except (OSError, ValueError):
            pass
    return f"pid {p['pid']} ({p['comm']}, net {ns or '?'}, cwd {p['cwd']}): {' '.join(p['argv'])}"


def check(args):
    with open(args.file) as f:
        before = json.load(f)
    old = set(before["procs"])
    top = os.path.realpath(args.build_dir)
    marker = f"ROCED_TEST_RUN={args.run}".encode()
    skip = ancestors()
    left, notes = [], []

    procs = processes()
    mine = []
    for p in procs.values():
        if p["pid"] in skip:
            continue
        if marker in p["environ"]:
            mine.append(p)
            left.append("process " + describe(p) + "  [ROCED_TEST_RUN]")
        elif f"{p['pid']}:{p['start']}" not in old and (
                KINDS.match(p["comm"]) or SCRIPTS.search(" ".join(p["argv"]))) and (
                inside(p["cwd"], top) or any(top in a for a in p["argv"])):
            left.append("process " + describe(p) + "  [started in the build directory]")

    ours = []
    for name in namespaces():
        if args.run in name.split("-"):
            ours.append(name)
            left.append(f"namespace {name}")
        elif name not in before["netns"] and LOOKALIKE.match(name):
            notes.append(f"namespace {name}: new, not named for this run (another run's?)")

    if args.tmpdir and os.path.isdir(args.tmpdir):
        for e in sorted(os.listdir(args.tmpdir)):
            left.append(f"temporary file {os.path.join(args.tmpdir, e)}")

    own = os.path.realpath(args.tmpdir) if args.tmpdir else None
    for e in sorted(set(os.listdir(TMP_ROOT)) - set(before.get("tmp", []))):
        path = os.path.join(TMP_ROOT, e)
        if path == own or OTHER_RUN_TMP.match(e) or e == os.path.basename(args.file):
            continue
        left.append(f"temporary file {path}  [outside TMPDIR: a program that ignores it]")

    for n in notes:
        print(f"leftovers: note: {n}")
    if not left:
        print("leftovers: none (processes, namespaces, temporary files)")
        return 0
    for what in left:
        print(f"leftovers: FAIL: {what}")
    if args.reap:
        reap(mine, ours)
    return 1


def reap(mine, ours):
    """Kill this run's processes (TERM, then KILL) and delete its namespaces."""
    for p in mine:
        if still(p):
            try:
                os.kill(p["pid"], signal.SIGTERM)
            except ProcessLookupError:
                pass
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        alive = [p for p in mine if still(p)]
        if not alive:
            break
        time.sleep(0.1)
    for p in mine:
        if still(p):
            try:
                os.kill(p["pid"], signal.SIGKILL)
            except ProcessLookupError:
                pass
    for name in ours:
        subprocess.run(["/sbin/ip", "netns", "del", name], check=False)
    print(f"leftovers: reaped {len(mine)} processes and {len(ours)} namespaces of this run")


def still(p):
    """The same process (pid and start time) still runs."""
    try:
        with open(f"/proc/{p['pid']}/stat") as f:
            stat = f.read()
    except OSError:
        return False
    rest = stat[stat.rindex(")") + 2:].split()
    return rest[0] != "Z" and int(rest[19]) == p["start"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mode", choices=["snapshot", "check"])
    ap.add_argument("file")
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--run")
    ap.add_argument("--tmpdir")
    ap.add_argument("--reap", action="store_true")
    args = ap.parse_args()
    if args.mode == "snapshot":
        return snapshot(args)
    if not args.run or "-" in args.run:
        ap.error("check needs --run ID (no '-' in it)")
    return check(args)


if __name__ == "__main__":
    sys.exit(main())
