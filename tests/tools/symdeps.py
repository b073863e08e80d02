#!/usr/bin/env python3
"""symdeps: which object file uses which, from the symbols nm reports.

Usage: symdeps.py OBJ... prints every circle between source files (A uses a
symbol B defines and B uses one A defines, directly or through others) and
exits 1 if there is one. An object's source is named from automake's object
name (lib/cmd/libroced_a-cmd.o -> lib/cmd/cmd.c).
"""
import os
import re
import subprocess
import sys


def source_name(obj):
    d, base = os.path.split(obj)
    base = re.sub(r"^[a-z_-]+_a-", "", base)  # automake's per-library prefix
    return os.path.join(d, base[:-2] + ".c")


def symbols(obj):
    out = subprocess.run(["nm", "--defined-only", obj], capture_output=True,
                         text=True, check=True).stdout
    defined = {l.split()[2] for l in out.splitlines()
               if len(l.split()) == 3 and l.split()[1] in "TDBR"}
    out = subprocess.run(["nm", "--undefined-only", obj], capture_output=True,
                         text=True, check=True).stdout
    used = {l.split()[-1] for l in out.splitlines() if l.strip()}
    return defined, used


def main(objs):
    names = {o: source_name(o) for o in objs}
    owner, uses = {}, {}
    for o in objs:
        defined, used = symbols(o)
        for s in defined:
            owner[s] = names[o]
        uses[names[o]] = used
    graph = {n: set() for n in uses}
    for n, used in uses.items():
        for s in used:
            if s in owner and owner[s] != n:
                graph[n].add(owner[s])
    # Tarjan's strongly connected components: a component of more than one
    # file is a circle.
    index, low, stack, on, comps = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    for c in comps:
        print("circle: " + " <-> ".join(c))
        for a in c:
            for b in sorted(graph[a] & set(c)):
                why = sorted(s for s in uses[a] if owner.get(s) == b)
                print("  %s uses %s: %s" % (a, b, " ".join(why[:6])))
    return 1 if comps else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
